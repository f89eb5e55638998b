//! Claiming a wonder (WON-8/9) and building its stages (WON-10).

use super::{cards::Requirement, Wonders, WONDER_STAGES};
use crate::{
    ext::wonders::{WonderCard, WonderId},
    game::Game,
    model::{BuildingKind, Seat},
    protocol::{Event, Move, RuleError},
};

impl Wonders {
    /// WON-8: a free wonder whose condition holds, one per seat, marked with a ship from the
    /// supply.
    pub(super) fn decide_claim(&self, game: &Game, seat: Seat, wonder: WonderId) -> Result<Vec<Event>, RuleError> {
        let card = self.card(wonder).ok_or(RuleError::UnknownWonder(wonder))?;
        let state = &game.ext.wonders;
        if let Some(own) = state.of_seat(seat) {
            return Err(RuleError::WonderAlreadyOwned(own.wonder));
        }
        if let Some(claim) = state.of_wonder(wonder) {
            return Err(RuleError::WonderTaken { wonder, owner: claim.seat });
        }
        if game.player(seat).is_none_or(|p| p.pieces_left().ships == 0) {
            return Err(RuleError::NoPiecesLeft("ships"));
        }
        if let Some(unmet) = unmet_requirement(game, seat, card) {
            return Err(RuleError::WonderConditionUnmet { wonder, unmet });
        }
        Ok(vec![Event::WonderClaimed { seat, wonder }])
    }

    /// WON-10: the next stage of the seat's own wonder, for the card's five resources.
    pub(super) fn decide_stage(&self, game: &Game, seat: Seat) -> Result<Vec<Event>, RuleError> {
        let claim = game.ext.wonders.of_seat(seat).ok_or(RuleError::NoWonder)?;
        let card = self.card(claim.wonder).ok_or(RuleError::UnknownWonder(claim.wonder))?;
        // A finished wonder has already won the game (WON-11), so this guards hand-made positions.
        if claim.stages >= WONDER_STAGES {
            return Err(RuleError::WonderComplete(claim.wonder));
        }
        if !game.player(seat).is_some_and(|p| p.resources().contains(&card.stage_cost)) {
            return Err(RuleError::InsufficientResources);
        }
        Ok(vec![Event::WonderStageBuilt { seat, wonder: claim.wonder, stage: claim.stages + 1, cost: card.stage_cost }])
    }

    /// The claims and the stage `seat` may make now.
    pub(super) fn wonder_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        let state = &game.ext.wonders;
        let Some(player) = game.player(seat) else { return };
        match state.of_seat(seat) {
            Some(claim) => {
                let affordable = self.card(claim.wonder).is_some_and(|c| player.resources().contains(&c.stage_cost));
                if claim.stages < WONDER_STAGES && affordable {
                    moves.push(Move::BuildWonderStage);
                }
            }
            None if player.pieces_left().ships > 0 => {
                for card in self.cards() {
                    if state.of_wonder(card.id).is_none() && unmet_requirement(game, seat, card).is_none() {
                        moves.push(Move::ClaimWonder { wonder: card.id });
                    }
                }
            }
            None => {}
        }
    }
}

/// The first part of the card's condition `seat` does not meet, said with what it has
/// (WON-9).
fn unmet_requirement(game: &Game, seat: Seat, card: &WonderCard) -> Option<String> {
    let board = game.board();
    let own = |kind: BuildingKind| {
        (0..board.vertices.len() as u16)
            .filter(move |&v| game.building_index(v).is_some_and(|b| b.seat == seat && b.kind == kind))
    };
    card.requirements.iter().find_map(|requirement| {
        let shortfall = match *requirement {
            Requirement::CitiesAtLeast { count } => {
                let cities = game.player(seat).map_or(0, |p| p.cities_on_board());
                (cities < u32::from(count)).then(|| format!("you have {cities}"))
            }
            Requirement::CityOnHarbour => {
                let on_harbour = own(BuildingKind::City).any(|v| board.vertex_harbour[v as usize].is_some());
                (!on_harbour).then(|| "none of your cities stands on a harbour".to_owned())
            }
            Requirement::SettlementOn { set } => {
                let vertices = game.marked_set(set);
                let there = own(BuildingKind::Settlement).any(|v| vertices.contains(&board.vertices[v as usize]));
                (!there).then(|| "you have no settlement there".to_owned())
            }
            Requirement::RouteLengthAtLeast { length } => {
                let route = game.road_length(seat);
                (route < u32::from(length)).then(|| format!("your longest is {route}"))
            }
            Requirement::VictoryPointsAtLeast { points } => {
                let have = game.public_victory_points(seat);
                (have < u32::from(points)).then(|| format!("you have {have}"))
            }
        };
        shortfall.map(|why| format!("the {} needs {requirement}: {why}", card.id))
    })
}
