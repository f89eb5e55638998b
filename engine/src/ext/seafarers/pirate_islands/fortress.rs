//! The fortresses (PIR-18..20): a seat with a ship beside its own fortress attacks it once a
//! turn against a defence die; three won attacks conquer it, and only a seat that conquered
//! its fortress wins.

use super::super::{types::BattleOutcome, Seafarers};
use crate::{
    board::{EdgeId, VertexId},
    chance::{Chance, Draw},
    game::Game,
    model::{Resources, Seat},
    protocol::{Event, Move, RuleError, VictoryCondition},
};

impl Seafarers {
    /// PIR-18: the seat's newest ship beside its unconquered fortress, and the fortress.
    fn attack_site(&self, game: &Game, seat: Seat) -> Result<(u16, super::Fortress), RuleError> {
        let state = &game.ext.seafarers.pirate_islands;
        let fortress = state.fortress_of(seat).filter(|f| f.strength > 0).ok_or(RuleError::NoShipAtFortress)?;
        let board = game.board();
        let v = board.vertex(fortress.vertex).ok_or(RuleError::NoShipAtFortress)?;
        let beside: Vec<u16> = board.edges_of(v).filter(|&e| game.ship_index(e) == Some(seat)).collect();
        // Two ships may meet at the fortress (PIR-8): the one placed last fights (engine
        // decision), a ship the order does not know before the others.
        let newest = beside
            .iter()
            .copied()
            .max_by_key(|&e| state.ships.iter().position(|&(s, edge)| s == seat && edge == board.edges[e as usize]))
            .ok_or(RuleError::NoShipAtFortress)?;
        if !self.pirate.fortress_reserves_settlement
            && fortress.strength == 1
            && game.players[seat.index()].pieces_left.settlements == 0
        {
            // Engine decision: with no settlement waiting under the fortress (PIR-4 with
            // `pir_fortress_reserves_settlement = false`), the winning attack needs one in
            // the supply to become the conquered settlement.
            return Err(RuleError::NoPiecesLeft("settlements"));
        }
        Ok((newest, fortress))
    }

    /// PIR-18..21: the attack, its losses, the conquest, the fleet's defeat, and (with
    /// `pir_attack_ends_turn`) the turn's end, unless the conquest wins the game (PIR-20).
    pub(crate) fn decide_attack_fortress(
        &self,
        game: &Game,
        seat: Seat,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let state = &game.ext.seafarers.pirate_islands;
        if state.fortress_attacked {
            return Err(RuleError::FortressAlreadyAttacked);
        }
        let first_event = events.len();
        let (ship, fortress) = self.attack_site(game, seat)?;
        let board = game.board();
        let defence_roll = (chance.pick_face(Draw::FORTRESS_DIE) as u8 + 1).clamp(1, 6);
        let warships = state.warships_of(game, seat);
        let outcome = BattleOutcome::of(warships, u32::from(defence_roll));
        let mut ships_lost: Vec<EdgeId> = Vec::new();
        if outcome != BattleOutcome::Won {
            ships_lost.push(board.edges[ship as usize]);
        }
        if outcome == BattleOutcome::Lost {
            // The ship sharing the lost ship's other end: the next one back along the lane.
            let fv = board.vertex(fortress.vertex);
            let far = board.edge_vertices[ship as usize].into_iter().find(|&x| Some(x) != fv);
            let behind = far.and_then(|x| board.edges_of(x).find(|&e| e != ship && game.ship_index(e) == Some(seat)));
            ships_lost.extend(behind.map(|e| board.edges[e as usize]));
        }
        events.push(Event::FortressAttacked {
            seat,
            defence_roll,
            warships: warships.min(u32::from(u8::MAX)) as u8,
            outcome,
            ships_lost,
        });
        let conquered = outcome == BattleOutcome::Won && fortress.strength == 1;
        if conquered {
            events.push(Event::FortressConquered { seat, vertex: fortress.vertex });
            // PIR-21: the last fortress falls, and the fleet with it.
            let others_fell = game.seats().filter(|&s| s != seat).all(|s| state.conquered(s));
            if others_fell && !state.fleet_defeated {
                events.push(Event::PirateFleetDefeated);
            }
        }
        // SCN-8 over PIR-17: with the route card in play by option, ships lost and a fortress
        // become a settlement change routes (a conquered vertex joins the seat's own).
        let routes_changed = outcome != BattleOutcome::Won || conquered;
        if routes_changed && game.longest_road_in_play() {
            let award = game.with_copy(|after| {
                for event in &events[first_event..] {
                    after.apply(event);
                }
                after.longest_road_update(crate::game::routes::Overlay::default())
            });
            events.extend(award);
        }
        // PIR-20: a conquest that brings the target wins at once (its settlement is 1 more
        // point), so the turn does not end under it.
        let target = u32::from(game.rules().base.vp_target);
        let wins = conquered && game.victory_points(seat) + 1 >= target;
        if self.pirate.attack_ends_turn && !wins {
            game.decide_end_turn(events);
        }
        Ok(())
    }

    pub(crate) fn attack_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        if !game.ext.seafarers.pirate_islands.fortress_attacked && self.attack_site(game, seat).is_ok() {
            moves.push(Move::AttackFortress);
        }
    }

    pub(super) fn apply_fortress_attack(
        &self,
        game: &mut Game,
        seat: Seat,
        outcome: BattleOutcome,
        ships_lost: &[EdgeId],
    ) {
        let state = &mut game.ext.seafarers.pirate_islands;
        state.fortress_attacked = true;
        if outcome == BattleOutcome::Won {
            for fortress in state.fortresses.iter_mut().filter(|f| f.seat == seat) {
                fortress.strength = fortress.strength.saturating_sub(1);
            }
        }
        for &edge in ships_lost {
            let Some(e) = game.board.edge(edge) else { continue };
            if game.ship_index(e) != Some(seat) {
                continue;
            }
            // Lost ships go back to the supply (PIR-18); a lost warship is a warship no more.
            game.ships[e as usize] = None;
            if let Some(player) = game.players.get_mut(seat.index()) {
                player.pieces_left.ships = (player.pieces_left.ships + 1).min(player.supply.ships);
            }
            let state = &mut game.ext.seafarers.pirate_islands;
            state.ships.retain(|&(s, e)| !(s == seat && e == edge));
            state.warships.retain(|&e| e != edge);
        }
    }

    /// PIR-19: the fortress becomes its owner's settlement, from the piece waiting under it
    /// (PIR-4) or from the supply.
    pub(super) fn apply_conquest(&self, game: &mut Game, seat: Seat, vertex: VertexId) {
        let Some(v) = game.board.vertex(vertex) else { return };
        if game.buildings[v as usize].is_some() || seat.index() >= game.players.len() {
            return;
        }
        for fortress in game.ext.seafarers.pirate_islands.fortresses.iter_mut().filter(|f| f.seat == seat) {
            fortress.strength = 0;
        }
        if self.pirate.fortress_reserves_settlement {
            let player = &mut game.players[seat.index()];
            player.supply.settlements += 1;
            player.pieces_left.settlements += 1;
        }
        game.apply_settlement(seat, vertex, &Resources::ZERO);
    }

    /// PIR-20: only a seat that conquered its fortress wins, with the points of the target.
    pub(crate) fn pirate_victory(
        &self,
        after: &Game,
        seat: Seat,
        points: u32,
        target: u32,
    ) -> Option<VictoryCondition> {
        let conquered = after.ext.seafarers.pirate_islands.conquered(seat);
        (conquered && points >= target).then_some(VictoryCondition::VictoryPoints)
    }
}
