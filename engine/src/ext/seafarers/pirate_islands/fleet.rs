//! The pirate fleet (PIR-10..14, PIR-21): it sails on every roll by the lower die, attacks
//! the one seat whose buildings alone touch its new hex, and a 7 then lets the roller take a
//! card from anyone.

use super::super::{scenario::FleetMap, types::BattleOutcome, Seafarers};
use crate::{
    board::HexCoord,
    chance::{draw_card, roll_dice, Chance, Draw},
    game::Game,
    model::{GoldSource, PendingGold, PerSeat, Phase, Resources, Seat},
    protocol::{Event, Move, RuleError},
};

impl Seafarers {
    /// PIR-11..14, then the roll's own effects: production with a card of choice for a seat
    /// that beat the fleet (PIR-14: with the roll's gold picks), or a 7 (PIR-10).
    pub(crate) fn decide_pirate_roll(
        &self,
        fleet: &FleetMap,
        game: &Game,
        seat: Seat,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) {
        let (red, white) = roll_dice(chance);
        events.push(Event::DiceRolled { seat, red, white });
        let state = &game.ext.seafarers.pirate_islands;
        let mut pick = None;
        let mut lost: Option<(Seat, Resources)> = None;
        // PIR-21: a defeated fleet sails no more.
        if !state.fleet_defeated && !fleet.path.is_empty() {
            // PIR-11/12: the lower die is both the steps and the strength.
            let steps = red.min(white);
            let len = fleet.path.len();
            let at = usize::from(state.fleet_index) % len;
            let (from, to) = (fleet.path[at], fleet.path[(at + usize::from(steps)) % len]);
            events.push(Event::PirateFleetMoved { from, to, steps, strength: steps });
            if let Some(victim) = self.fleet_target(fleet, game, to) {
                let warships = state.warships_of(game, victim);
                let outcome = BattleOutcome::of(warships, u32::from(steps));
                let mut taken = Resources::ZERO;
                match outcome {
                    BattleOutcome::Won => pick = Some(victim),
                    BattleOutcome::Tie => {}
                    BattleOutcome::Lost => {
                        // PIR-14: 1 + the seat's cities, at most the hand, drawn at random.
                        let player = &game.players[victim.index()];
                        let mut hand = player.resources;
                        let count = (1 + player.cities_on_board()).min(hand.total());
                        for _ in 0..count {
                            let Some(card) = draw_card(chance, Draw::FLEET_LOSS, &hand) else { break };
                            *hand.get_mut(card) -= 1;
                            *taken.get_mut(card) += 1;
                        }
                        lost = Some((victim, taken));
                    }
                }
                events.push(Event::FleetAttack {
                    seat: victim,
                    strength: steps,
                    warships: warships.min(u32::from(u8::MAX)) as u8,
                    outcome,
                    cards_lost: taken.total(),
                    resources: (!taken.is_empty()).then_some(taken),
                });
            }
        }
        let roll = red + white;
        if roll == 7 {
            self.pirate_seven(game, seat, pick, lost, events);
        } else {
            game.produce_on_roll_with(roll, pick, events);
        }
    }

    /// PIR-13: the one seat whose settlements and cities are all those on the hex's corners;
    /// nobody when none or several are there, or (`pir_shared_lone_hex_no_attack`) when the
    /// hex touches two or more seats' lone-settlement vertices, built or not.
    fn fleet_target(&self, fleet: &FleetMap, game: &Game, hex: HexCoord) -> Option<Seat> {
        let board = game.board();
        let h = board.hex(hex)?;
        let mut owner = None;
        for building in game.buildings_around(h) {
            match owner {
                None => owner = Some(building.seat),
                Some(seat) if seat != building.seat => return None,
                Some(_) => {}
            }
        }
        let owner = owner?;
        if self.pirate.shared_lone_hex_no_attack {
            let corners = &board.hex_vertices[h as usize];
            let lone = fleet.starts.iter().take(usize::from(game.player_count()));
            let touched = lone.filter(|s| board.vertex(s.lone_vertex).is_some_and(|v| corners.contains(&v))).count();
            if touched >= 2 {
                return None;
            }
        }
        Some(owner)
    }

    /// PIR-10: after the fleet, the card won from it (PIR-14: before the discards, which
    /// follow it once taken), the discards (B-ROB-1), then the roller's steal from anyone, or
    /// `steal_skipped` when no opponent will hold a card. Hands are counted as the fleet and
    /// the pick leave them: a discard never empties a hand, so who can be robbed is known now.
    fn pirate_seven(
        &self,
        game: &Game,
        seat: Seat,
        pick: Option<Seat>,
        lost: Option<(Seat, Resources)>,
        events: &mut Vec<Event>,
    ) {
        // SEA-9: the card of choice comes from the bank, when it holds any.
        let pick = pick.filter(|_| game.bank.total() > 0);
        let held = |s: Seat| {
            let taken = lost.filter(|(victim, _)| *victim == s).map_or(0, |(_, taken)| taken.total());
            game.players[s.index()].resources.total().saturating_sub(taken) + u32::from(pick == Some(s))
        };
        let mut phases = Vec::with_capacity(3);
        if let Some(winner) = pick {
            // The discards follow the pick, worked out once it is taken (`GoldSource::Fleet`).
            phases.push(Phase::GoldChoice {
                roll: 0,
                pending: PerSeat::one(PendingGold { seat: winner, count: 1 }),
                chosen: Vec::new(),
                source: GoldSource::Fleet,
            });
        } else {
            let pending = game.discards_with(held);
            if !pending.is_empty() {
                phases.push(Phase::Discard { pending });
            }
        }
        if game.seats().any(|s| s != seat && held(s) > 0) {
            phases.push(Phase::StealAny);
        } else {
            events.push(Event::StealSkipped { seat });
        }
        let mut phases = phases.into_iter().chain([Phase::Main]);
        let phase = phases.next().unwrap_or(Phase::Main);
        events.push(Event::PhaseChanged { phase, then: phases.collect() });
    }

    /// PIR-10: one random card from an opponent holding one, or nothing.
    pub(crate) fn decide_steal_any(
        &self,
        game: &Game,
        seat: Seat,
        steal_from: Option<Seat>,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if let Some(victim) = steal_from {
            let holds = victim.index() < game.players.len() && game.hand_cards(victim).total() > 0;
            if victim == seat || !holds {
                return Err(RuleError::InvalidVictim(victim));
            }
            events.push(game.steal_card(seat, victim, chance));
        }
        events.push(game.resume());
        Ok(())
    }

    pub(crate) fn steal_any_moves(game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        moves.push(Move::ChooseStealVictim { steal_from: None });
        for victim in game.seats().filter(|&s| s != seat && game.hand_cards(s).total() > 0) {
            moves.push(Move::ChooseStealVictim { steal_from: Some(victim) });
        }
    }
}
