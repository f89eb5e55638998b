//! The phase checks of a position: the phase and the phases it interrupted fit the turn and
//! each other (B-SET-3/7, B-TURN-2/4, B-ROB-1/2, B-DEV-5, RIV-5, SEA-9). An extension checks
//! the phases it owns or changes (`Extension::check_position_phase`), with the shared checks
//! of discards and free roads below.

use std::iter;

use super::{PositionError, TurnSetup};
use crate::{
    game::Game,
    model::{Building, BuildingKind, PendingDiscard, Phase, Seat, SetupStep},
};

use PositionError as E;

/// Hands above this many cards discard on a 7 (B-ROB-1).
const DISCARD_LIMIT: u32 = 7;

pub(crate) fn phase_error(message: impl Into<String>) -> PositionError {
    E::InvalidPhase(message.into())
}

/// The phase and the phases it interrupted fit the turn and each other.
pub(super) fn check_phases(game: &Game, phase: &Phase, then: &[Phase], turn: &TurnSetup) -> Result<(), PositionError> {
    let players = game.players.len();
    let in_game = |seat: Seat| if seat.index() < players { Ok(()) } else { Err(E::UnknownSeat(seat)) };
    // NEW-11: the harbours are placed in turn 0, before setup.
    let setup = matches!(phase, Phase::Setup { .. } | Phase::PlaceHarbour { .. });
    if setup != (turn.number == 0) {
        return Err(E::InvalidTurn(format!(
            "turn {} in phase {}: setup is turn 0, and turn 0 is setup (B-SET-3, B-SET-7)",
            turn.number,
            phase.name()
        )));
    }
    if matches!(phase, Phase::Setup { .. } | Phase::GameOver) && !then.is_empty() {
        return Err(phase_error(format!("nothing resumes after {}", phase.name())));
    }
    if let Some(waiting) = then.iter().find(|p| matches!(p, Phase::Setup { .. } | Phase::GameOver)) {
        return Err(phase_error(format!("{} never waits to resume", waiting.name())));
    }
    let stages = || iter::once(phase).chain(then);
    let before_roll = stages().any(|p| matches!(p, Phase::PreRoll));
    let after_roll = stages().any(|p| {
        matches!(
            p,
            Phase::Main
                | Phase::Discard { .. }
                | Phase::MoveRobber
                | Phase::GoldChoice { .. }
                | Phase::LoseCity { .. }
                | Phase::DefenderDraw { .. }
                | Phase::RelocateKnight { .. }
                | Phase::CardDecision { .. }
        )
    });
    if before_roll && after_roll {
        return Err(phase_error("the phases mix before and after the roll"));
    }
    if (before_roll || setup) && turn.dice.is_some() {
        return Err(E::InvalidTurn("dice are set before the roll (B-TURN-2, B-SET-7)".into()));
    }
    if after_roll && turn.dice.is_none() {
        return Err(E::InvalidTurn(format!("phase {} follows the roll: set the dice (B-TURN-4)", phase.name())));
    }
    let roll = turn.dice.map(|(red, white)| red + white);
    for stage in stages() {
        // An extension checks the phases it owns or changes.
        let extensions = &game.rules().extensions;
        if let Some(verdict) = extensions.iter().find_map(|e| e.check_position_phase(game, stage, then, turn)) {
            verdict?;
            continue;
        }
        match stage {
            Phase::Setup { seat, placement, step } => {
                in_game(*seat)?;
                let placements = game.setup_placements();
                if *placement >= placements {
                    return Err(phase_error(format!("setup has {placements} placements, not {placement}")));
                }
                let expected = game.setup_seat(*placement);
                if *seat != expected {
                    return Err(phase_error(format!(
                        "placement {placement} is seat {expected}'s in the snake order, not seat {seat}'s (B-SET-3)"
                    )));
                }
                if let SetupStep::PlaceRoad { settlement } = step {
                    let v = game.board.vertex(*settlement).ok_or(E::UnknownVertex(*settlement))?;
                    // CK-SET-1: in Cities & Knights the second setup piece is a city.
                    let kind = if game.rules().components.setup_city && usize::from(*placement) >= players {
                        BuildingKind::City
                    } else {
                        BuildingKind::Settlement
                    };
                    let own = Building { seat: *seat, kind };
                    if game.buildings[v as usize] != Some(own) {
                        return Err(phase_error(format!(
                            "the setup road follows seat {seat}'s settlement, which is not on {settlement} (B-SET-4)"
                        )));
                    }
                }
            }
            Phase::PreRoll | Phase::Main | Phase::GameOver => {}
            Phase::Discard { pending } => {
                if roll != Some(7) {
                    return Err(phase_error("discards follow a 7 (B-ROB-1)"));
                }
                check_discards(game, pending, Some(DISCARD_LIMIT))?;
            }
            Phase::MoveRobber => {
                if roll != Some(7) {
                    return Err(phase_error("the robber waits to move only after a 7 (B-ROB-2)"));
                }
            }
            Phase::RoadBuilding { roads_left } => {
                if !turn.dev_card_played {
                    return Err(phase_error("free roads follow a Road Building card played this turn (B-DEV-5)"));
                }
                check_free_roads(game, turn, *roads_left)?;
            }
            Phase::GoldChoice { roll: gold_roll, pending, chosen, source: crate::model::GoldSource::Production } => {
                let gold_on_board = game.board.terrain.contains(&crate::board::Terrain::Gold);
                if !game.rules().components.gold_produces || !gold_on_board {
                    return Err(E::NotInThisGame("gold choices (RIV-5)"));
                }
                if roll != Some(*gold_roll) || *gold_roll == 7 {
                    return Err(phase_error(format!("gold for a roll of {gold_roll}, but the dice say {roll:?}")));
                }
                if pending.is_empty() {
                    return Err(phase_error("a gold choice owed by nobody (RIV-5)"));
                }
                for (i, owed) in pending.iter().enumerate() {
                    in_game(owed.seat)?;
                    if owed.count == 0 || pending[..i].iter().any(|p| p.seat == owed.seat) {
                        return Err(phase_error(format!("seat {} owes no gold choice, or two", owed.seat)));
                    }
                }
                for (i, made) in chosen.iter().enumerate() {
                    in_game(made.seat)?;
                    if chosen[..i].iter().any(|c| c.seat == made.seat) || pending.iter().any(|p| p.seat == made.seat) {
                        return Err(phase_error(format!("seat {} chose gold twice, or still owes it", made.seat)));
                    }
                }
            }
            Phase::GoldChoice { roll: gold_roll, pending, chosen, .. } => {
                // A seat's own cards of choice (a setup settlement or a discovered gold hex).
                if !game.rules().components.gold_produces {
                    return Err(E::NotInThisGame("gold choices (SEA-9)"));
                }
                let [owed] = &pending[..] else {
                    return Err(phase_error("one seat chooses its own gold cards (SEA-9, SEA-13)"));
                };
                in_game(owed.seat)?;
                if *gold_roll != 0 || !chosen.is_empty() || owed.count == 0 || owed.cards() > game.bank.total() {
                    return Err(phase_error(
                        "a seat's own gold: no roll, no earlier choices, 1 card or more the bank has",
                    ));
                }
            }
            // The phases of an expansion that is not in this game (its extension answers above).
            Phase::LoseCity { .. } | Phase::DefenderDraw { .. } => {
                return Err(E::NotInThisGame("barbarian attacks (CK-BAR)"))
            }
            Phase::RelocateKnight { .. } => return Err(E::NotInThisGame("knights (CK-KNT)")),
            Phase::CardDecision { .. } => return Err(E::NotInThisGame("progress cards (CK-PC)")),
            Phase::SpecialBuilding { .. } => return Err(E::NotInThisGame("special building phases (X56-8)")),
            Phase::PlaceGiftHarbour { .. } => {
                return Err(phase_error("a position does not wait for a gift harbour (FTR-10): place it first"))
            }
            Phase::PlaceHarbour { .. } => return Err(E::NotInThisGame("harbours placed by the players (NEW-11)")),
            Phase::ChooseStealKind { .. } => return Err(E::NotInThisGame("cloth (CLV-12)")),
            Phase::StealAny => return Err(E::NotInThisGame("stealing from anyone after a 7 (PIR-10)")),
        }
    }
    Ok(())
}

/// B-ROB-1: each seat owing a discard is in the game, owes once, and owes half its hand
/// (commodities count, CK-7-1), which holds more than `limit` cards; without a limit, a
/// discard of half the hand whatever its size (CK-PC-7 Saboteur).
pub(crate) fn check_discards(game: &Game, pending: &[PendingDiscard], limit: Option<u32>) -> Result<(), PositionError> {
    if pending.is_empty() {
        return Err(phase_error("a discard owed by nobody (B-ROB-1)"));
    }
    for (i, owed) in pending.iter().enumerate() {
        if owed.seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(owed.seat));
        }
        if pending[..i].iter().any(|p| p.seat == owed.seat) {
            return Err(phase_error(format!("seat {} owes two discards", owed.seat)));
        }
        let held = game.players[owed.seat.index()].hand_size();
        if limit.is_some_and(|limit| held <= limit) || owed.count != held / 2 || owed.count == 0 {
            return Err(phase_error(format!(
                "seat {} holds {held} cards and owes {}: more than 7 cards discard half (B-ROB-1)",
                owed.seat, owed.count
            )));
        }
    }
    Ok(())
}

/// B-DEV-5: one or two free roads, no more than the active seat has left (SEA-11: with
/// Seafarers each may be a road or a ship).
pub(crate) fn check_free_roads(game: &Game, turn: &TurnSetup, roads_left: u8) -> Result<(), PositionError> {
    let pieces = game.free_route_pieces(turn.active);
    if !(1..=2).contains(&roads_left) || roads_left > pieces {
        return Err(phase_error(format!(
            "{roads_left} free roads with {pieces} in the supply: 1 or 2, and no more than are left (B-DEV-5)"
        )));
    }
    Ok(())
}
