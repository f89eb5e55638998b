//! The Cities & Knights part of a position: the barbarians, the improvements, the walls, the
//! metropolises and the commodities in hands, checked against CK-BAR-1, CK-IMP-2, CK-WALL-1,
//! CK-MET-1..4 and CK-CMP-1.

use serde::{Deserialize, Serialize};

use super::{CardTurn, Knight, Merchant, Metropolis, ProgressCard, ProgressCards};
use crate::{
    game::Game,
    model::{BuildingKind, Commodities, Phase, Seat},
    position::{
        phases::{check_discards, check_free_roads, phase_error},
        PositionError as E, Setup, TurnSetup,
    },
    VertexId,
};

/// What Cities & Knights keeps beyond the pieces on the board and the hands (only in C&K
/// games).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct CitiesKnightsSetup {
    /// The barbarian ship's position, 0 to `barbarian_steps - 1` (CK-BAR-1: it attacks on
    /// arriving at the last step and goes back to 0).
    pub barbarians: u8,
    /// Barbarian attacks resolved so far (CK-BAR-10).
    pub attacks: u32,
    /// Improvement levels by seat: trade, politics, science, each 0 to 5 (CK-IMP-1/2).
    pub improvements: Vec<(Seat, [u8; 3])>,
    /// City walls, each under one of its owner's cities (CK-WALL-1).
    pub walls: Vec<VertexId>,
    /// Progress cards held, by seat (CK-PC); the decks hold the rest of the 54.
    pub progress: Vec<(Seat, ProgressCards)>,
    /// The knights on the board (CK-KNT), each on an empty vertex, two of each rank per seat.
    pub knights: Vec<Knight>,
    /// Defender of Catan cards by seat (CK-BAR-6).
    pub defenders: Vec<(Seat, u32)>,
    /// Settlements that are pillaged cities whose owner had no settlement piece left: they
    /// take no piece (CK-BAR-8).
    pub pillaged: Vec<VertexId>,
    /// The metropolises, each on a city of its seat, one per track and per city, its seat at
    /// level 4 or more in the track and nobody above it (CK-MET-1..4).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub metropolises: Vec<Metropolis>,
    /// Progress cards played or discarded, in order: they lie under the other cards of their
    /// decks and are drawn last, first in first out (CK-PC-3).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub returned: Vec<ProgressCard>,
    /// The merchant, if a Merchant card placed it (CK-MER).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merchant: Option<Merchant>,
    /// What progress cards played this turn leave in force until it ends (Crane, Merchant
    /// Fleet, Commercial Harbor, CK-PC-7).
    #[serde(skip_serializing_if = "CardTurn::is_unused")]
    pub card_turn: CardTurn,
}

impl CitiesKnightsSetup {
    pub fn is_empty(&self) -> bool {
        *self == CitiesKnightsSetup::default()
    }

    pub(super) fn of(game: &Game) -> Self {
        let state = &game.ext.cities_knights;
        CitiesKnightsSetup {
            barbarians: state.barbarians,
            attacks: state.attacks,
            improvements: state
                .improvements
                .iter()
                .enumerate()
                .filter(|(_, levels)| **levels != [0; 3])
                .map(|(i, levels)| (Seat(i as u8), *levels))
                .collect(),
            walls: state.walls.iter().map(|(v, _)| *v).collect(),
            knights: state.knights.clone(),
            pillaged: state.pillaged.clone(),
            metropolises: state.metropolises.clone(),
            returned: state.returned.clone(),
            merchant: state.merchant,
            card_turn: state.card_turn.clone(),
            defenders: state
                .defenders
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(i, n)| (Seat(i as u8), *n))
                .collect(),
            progress: state
                .progress
                .iter()
                .enumerate()
                .filter(|(_, cards)| !cards.is_empty())
                .map(|(i, cards)| (Seat(i as u8), *cards))
                .collect(),
        }
    }
}

/// CK-BAR-8: the pillaged cities whose owner had no settlement piece left, each a
/// settlement on the board; placed before the supply is counted, which passes them by.
pub(super) fn place_pillaged(game: &mut Game, position: &Setup) -> Result<(), E> {
    for &vertex in &position.cities_knights.pillaged {
        let v = game.board.vertex(vertex).ok_or(E::UnknownVertex(vertex))?;
        if game.building_index(v).is_none_or(|b| b.kind != BuildingKind::Settlement) {
            return Err(E::CitiesKnights(format!("the pillaged city at {vertex} is no settlement (CK-BAR-8)")));
        }
        game.ext.cities_knights.pillaged.push(vertex);
    }
    Ok(())
}

/// Most walls one seat may have (CK-CMP-5).
const WALLS_PER_SEAT: u32 = 3;
/// The highest improvement level (CK-IMP-1).
const TOP_LEVEL: u8 = 5;

/// Checks and places the C&K state, and the commodities of the hands (CK-CMP-1: hands plus
/// bank are the game's 36 commodities).
pub(super) fn place(game: &mut Game, position: &Setup) -> Result<(), E> {
    let seats = &position.seats[..position.seats.len().min(game.players.len())];
    let setup = position.cities_knights.clone();
    let held = seats.iter().fold(Commodities::NONE, |sum, s| sum + s.commodities);
    let bad = |message: String| Err(E::CitiesKnights(message));
    let Some(bank) = game.commodity_bank.checked_sub(&held) else {
        return bad(format!("the hands hold {held:?}, more commodities than the game's (CK-CMP-1)"));
    };
    game.commodity_bank = bank;
    for (i, seat) in seats.iter().enumerate() {
        game.players[i].commodities = seat.commodities;
    }
    let steps = game.config.barbarian_steps;
    if setup.barbarians >= steps {
        return bad(format!("the barbarians at {} of {steps} would have attacked (CK-BAR-1)", setup.barbarians));
    }
    let state = &mut game.ext.cities_knights;
    state.barbarians = setup.barbarians;
    state.attacks = setup.attacks;
    for (seat, levels) in setup.improvements {
        if seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(seat));
        }
        if levels.iter().any(|&l| l > TOP_LEVEL) {
            return bad(format!("seat {seat}'s levels {levels:?}: each track has levels 0 to {TOP_LEVEL} (CK-IMP-1)"));
        }
        if state.improvements.len() <= seat.index() {
            state.improvements.resize(seat.index() + 1, [0; 3]);
        }
        state.improvements[seat.index()] = levels;
    }
    let mut held = ProgressCards::default();
    for (seat, cards) in setup.progress {
        if seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(seat));
        }
        if state.progress.len() <= seat.index() {
            state.progress.resize(seat.index() + 1, ProgressCards::default());
        }
        state.progress[seat.index()] += cards;
        held += cards;
    }
    for card in &setup.returned {
        // Saturating: a position may hold absurd counts, which the check below refuses.
        let count = held.get_mut(*card);
        *count = count.saturating_add(1);
    }
    if !crate::ext::cities_knights::full_decks().contains(&held) {
        return bad(format!(
            "the hands and the cards under the decks hold {held:?}, more progress cards than the 54 (CK-CMP-2)"
        ));
    }
    state.returned = setup.returned;
    if let Some(merchant) = setup.merchant {
        if merchant.seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(merchant.seat));
        }
        let Some(h) = game.board.hex(merchant.hex).filter(|&h| game.board.terrain[h as usize].resource().is_some())
        else {
            return bad(format!("the merchant stands on {}, which produces no resource (CK-MER-1)", merchant.hex));
        };
        let beside = game.board.hex_vertices[h as usize]
            .iter()
            .any(|&v| game.building_index(v).is_some_and(|b| b.seat == merchant.seat));
        if !beside {
            return bad(format!(
                "the merchant on {} touches no building of seat {} (CK-MER-1)",
                merchant.hex, merchant.seat
            ));
        }
        game.ext.cities_knights.merchant = Some(merchant);
    }
    // Commercial Harbor: the opponents already offered an exchange (CK-PC-7).
    for &seat in setup.card_turn.commercial_harbor.iter().flatten() {
        if seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(seat));
        }
    }
    game.ext.cities_knights.card_turn = setup.card_turn;
    for vertex in setup.walls {
        let v = game.board.vertex(vertex).ok_or(E::UnknownVertex(vertex))?;
        let Some(city) = game.building_index(v).filter(|b| b.kind == BuildingKind::City) else {
            return bad(format!("the wall at {vertex} stands under no city (CK-WALL-1)"));
        };
        let state = &mut game.ext.cities_knights;
        if state.walls.iter().any(|(w, _)| *w == vertex) {
            return bad(format!("the city at {vertex} has two walls (CK-WALL-1)"));
        }
        if state.walls_of(city.seat) >= WALLS_PER_SEAT {
            return bad(format!("seat {} has more than {WALLS_PER_SEAT} walls (CK-CMP-5)", city.seat));
        }
        state.walls.push((vertex, city.seat));
    }
    for knight in setup.knights {
        let vertex = knight.vertex;
        let v = game.board.vertex(vertex).ok_or(E::UnknownVertex(vertex))?;
        if knight.seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(knight.seat));
        }
        if !game.board.vertex_is_buildable[v as usize] || game.building_index(v).is_some() {
            return bad(format!("the knight at {vertex} needs an empty vertex on land (CK-KNT-2)"));
        }
        if !(1..=3).contains(&knight.rank) {
            return bad(format!("the knight at {vertex} has rank {}: 1 to 3 (CK-CMP-4)", knight.rank));
        }
        let state = &mut game.ext.cities_knights;
        if state.knights.iter().any(|k| k.vertex == vertex) {
            return bad(format!("two knights at {vertex}"));
        }
        if state.knights.iter().filter(|k| k.seat == knight.seat && k.rank == knight.rank).count() >= 2 {
            return bad(format!("seat {} has more than 2 knights of rank {} (CK-CMP-4)", knight.seat, knight.rank));
        }
        state.knights.push(knight);
    }
    for metropolis in setup.metropolises {
        place_metropolis(game, metropolis)?;
    }
    for (seat, count) in setup.defenders {
        if seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(seat));
        }
        let defenders = &mut game.ext.cities_knights.defenders;
        if defenders.len() <= seat.index() {
            defenders.resize(seat.index() + 1, 0);
        }
        defenders[seat.index()] += count;
    }
    Ok(())
}

/// CK-MET-1..4: a metropolis on a city of its seat, the only one of its track and of its
/// city; its seat at level 4 at least, and nobody above it (the first to 5 would have taken
/// it, CK-MET-3).
fn place_metropolis(game: &mut Game, metropolis: Metropolis) -> Result<(), E> {
    let Metropolis { track, seat, vertex } = metropolis;
    let bad = |message: String| Err(E::CitiesKnights(message));
    let v = game.board.vertex(vertex).ok_or(E::UnknownVertex(vertex))?;
    if seat.index() >= game.players.len() {
        return Err(E::UnknownSeat(seat));
    }
    if game.building_index(v).is_none_or(|b| b.kind != BuildingKind::City || b.seat != seat) {
        return bad(format!("the {track:?} metropolis at {vertex} stands on no city of seat {seat} (CK-MET-1)"));
    }
    if game.metropolis(track).is_some() {
        return bad(format!("two {track:?} metropolises (CK-CMP-6)"));
    }
    if let Some(other) = game.metropolis_at(vertex) {
        return bad(format!("the city at {vertex} carries the {other:?} and {track:?} metropolises (CK-MET-2)"));
    }
    let level = game.improvement_level(seat, track);
    if level < METROPOLIS_LEVEL {
        return bad(format!("seat {seat} holds the {track:?} metropolis at level {level}: 4 at least (CK-MET-1)"));
    }
    if let Some(above) = game.seats().find(|&s| game.improvement_level(s, track) > level) {
        return bad(format!("seat {above} is above the {track:?} metropolis' holder {seat} at {level} (CK-MET-3)"));
    }
    game.ext.cities_knights.metropolises.push(metropolis);
    Ok(())
}

/// The level that brings a metropolis (CK-MET-1).
const METROPOLIS_LEVEL: u8 = 4;

/// The phases of Cities & Knights fit the turn (CK-BAR-6/7, CK-KNT-7, CK-PC), and the base
/// game's phases that its cards change: a discard of half the hand may follow the Saboteur
/// whatever the roll and the hand (CK-PC-7), and free roads a Road Building progress card,
/// which sets no development card flag (CK-PC-7).
pub(super) fn check_phase(game: &Game, stage: &Phase, then: &[Phase], turn: &TurnSetup) -> Option<Result<(), E>> {
    let roll = turn.dice.map(|(red, white)| red + white);
    let in_game = |seat: Seat| if seat.index() < game.players.len() { Ok(()) } else { Err(E::UnknownSeat(seat)) };
    let checked = || -> Result<(), E> {
        match stage {
            Phase::LoseCity { pending, roll: dice } | Phase::DefenderDraw { pending, roll: dice } => {
                // CK-BAR-6/7: decisions of an attack, before the roll's number dice.
                if roll != Some(*dice) || pending.is_empty() {
                    return Err(phase_error("an attack's decisions: owed by someone, for the roll of the dice"));
                }
                for (i, seat) in pending.iter().enumerate() {
                    in_game(*seat)?;
                    if pending[..i].contains(seat) {
                        return Err(phase_error(format!("seat {seat} owes two decisions")));
                    }
                    // CK-MET-5: only a city without a metropolis can be lost.
                    if matches!(stage, Phase::LoseCity { .. }) && game.cities_without_metropolis(*seat).is_empty() {
                        return Err(phase_error(format!("seat {seat} has no city without a metropolis to lose")));
                    }
                }
            }
            Phase::RelocateKnight { seat, vertex, rank, active: _ } => {
                // CK-KNT-7: displaced by a stronger opponent's knight, off the board meanwhile.
                in_game(*seat)?;
                if *seat == turn.active || then.first() != Some(&Phase::Main) {
                    return Err(phase_error(
                        "a displaced knight belongs to another seat and interrupts the main phase",
                    ));
                }
                let displacer = game.board().vertex(*vertex).and_then(|_| game.knight_at(*vertex));
                let pieces = game.knights().iter().filter(|k| k.seat == *seat && k.rank == *rank).count();
                if !(1..=3).contains(rank)
                // CK-PC-7 Intrigue displaces without a knight: the vertex is then empty.
                || displacer.is_some_and(|k| k.seat != turn.active || k.rank <= *rank)
                || pieces >= 2
                {
                    return Err(phase_error(format!(
                    "the displaced knight of rank {rank} needs a free piece and a stronger knight of the active seat on {vertex}"
                )));
                }
            }
            Phase::CardDecision { decision } => {
                // CK-PC: decisions a progress card asks for, during a turn.
                let deciders = decision.deciders(turn.active);
                if deciders.is_empty() {
                    return Err(phase_error("a progress card's decision owed by nobody"));
                }
                for seat in deciders {
                    in_game(seat)?;
                }
            }
            Phase::Discard { pending } => check_discards(game, pending, None)?,
            Phase::RoadBuilding { roads_left } => check_free_roads(game, turn, *roads_left)?,
            _ => {}
        }
        Ok(())
    };
    let owned = matches!(
        stage,
        Phase::LoseCity { .. }
            | Phase::DefenderDraw { .. }
            | Phase::RelocateKnight { .. }
            | Phase::CardDecision { .. }
            | Phase::Discard { .. }
            | Phase::RoadBuilding { .. }
    );
    owned.then(checked)
}

/// Building a Cities & Knights position.
impl Setup {
    /// Commodity cards from the bank into `seat`'s hand (Cities & Knights).
    pub fn with_commodities(mut self, seat: Seat, commodities: crate::model::Commodities) -> Self {
        self.seat_mut(seat).commodities += commodities;
        self
    }

    /// The barbarian ship at `position` (Cities & Knights, CK-BAR-1), after `attacks` attacks.
    pub fn with_barbarians(mut self, position: u8, attacks: u32) -> Self {
        self.cities_knights.barbarians = position;
        self.cities_knights.attacks = attacks;
        self
    }

    /// A knight of `seat` on `vertex` (Cities & Knights, CK-KNT): rank 1 to 3, active or not.
    pub fn with_knight(mut self, seat: Seat, vertex: VertexId, rank: u8, active: bool) -> Self {
        self.cities_knights.knights.push(crate::Knight {
            vertex,
            seat,
            rank,
            active,
            activated_this_turn: false,
            promoted_this_turn: false,
        });
        self
    }

    /// `seat`'s improvement levels (Cities & Knights, CK-IMP): trade, politics, science.
    pub fn with_improvements(mut self, seat: Seat, levels: [u8; 3]) -> Self {
        self.cities_knights.improvements.retain(|(s, _)| *s != seat);
        self.cities_knights.improvements.push((seat, levels));
        self
    }

    /// `track`'s metropolis on `seat`'s city at `vertex` (Cities & Knights, CK-MET-1).
    pub fn with_metropolis(mut self, seat: Seat, track: crate::Track, vertex: VertexId) -> Self {
        self.cities_knights.metropolises.push(crate::Metropolis { track, seat, vertex });
        self
    }
}
