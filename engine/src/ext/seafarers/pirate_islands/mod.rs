//! The Pirate Islands (RULES-SCENARIOS section 4, PIR): each seat's pre-placed settlement,
//! ship and fortress (PIR-4), ships kept on each seat's lane (PIR-7/8, in `ships.rs`), the
//! pirate fleet that sails on every roll and attacks (fleet.rs: PIR-10..14, PIR-21/22),
//! Knights that make warships (warships.rs: PIR-15..17) and the fortresses they storm
//! (fortress.rs: PIR-18..20). The fleet stands where the Seafarers pirate stands
//! (`Game::pirate`), so SEA-8 b keeps ships off its hex's edges (PIR-22) with no rule of its
//! own; nobody moves it (PIR-2).

mod fleet;
mod fortress;
mod warships;

use super::{
    scenario::FleetMap,
    types::{Fortress, PirateIslandsSeatView, PirateIslandsState, PirateIslandsView},
    Seafarers,
};
use crate::{
    board::EdgeId,
    config::{PirateVpCards, WarshipChoice},
    game::Game,
    model::{DevCard, Resources, Seat},
    protocol::Event,
    ruleset::Components,
};

/// A fortress's strength before its first attack (PIR-4: three chits).
pub(crate) const FORTRESS_STRENGTH: u8 = 3;

/// The scenario's options (RULES-SCENARIOS 0.2).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PirateOptions {
    pub warship_choice: WarshipChoice,
    pub vp_cards: PirateVpCards,
    pub fortress_reserves_settlement: bool,
    pub attack_ends_turn: bool,
    pub shared_lone_hex_no_attack: bool,
}

impl PirateOptions {
    pub(crate) fn from_config(config: &crate::GameConfig) -> PirateOptions {
        PirateOptions {
            warship_choice: config.pir_warship_choice,
            vp_cards: config.pir_vp_cards,
            fortress_reserves_settlement: config.pir_fortress_reserves_settlement,
            attack_ends_turn: config.pir_attack_ends_turn,
            shared_lone_hex_no_attack: config.pir_shared_lone_hex_no_attack,
        }
    }
}

impl PirateIslandsState {
    pub(crate) fn fortress_of(&self, seat: Seat) -> Option<Fortress> {
        self.fortresses.iter().copied().find(|f| f.seat == seat)
    }

    /// Tests if `seat` conquered its fortress (PIR-19).
    pub(crate) fn conquered(&self, seat: Seat) -> bool {
        self.fortress_of(seat).is_some_and(|f| f.strength == 0)
    }

    /// `seat`'s warships on the board (PIR-14, PIR-18: their count is the seat's strength).
    pub(crate) fn warships_of(&self, game: &Game, seat: Seat) -> u32 {
        let own = |edge: &&EdgeId| game.board().edge(**edge).and_then(|e| game.ship_index(e)) == Some(seat);
        self.warships.iter().filter(own).count() as u32
    }

    /// `seat`'s ships that are not warships, oldest first: those in the placement order,
    /// then any other (a position may give ships without their order) in board order.
    pub(crate) fn plain_ships(&self, game: &Game, seat: Seat) -> Vec<EdgeId> {
        let board = game.board();
        let own = |edge: EdgeId| board.edge(edge).and_then(|e| game.ship_index(e)) == Some(seat);
        let mut ships: Vec<EdgeId> =
            self.ships.iter().filter(|&&(s, edge)| s == seat && own(edge)).map(|&(_, edge)| edge).collect();
        for e in 0..board.edges.len() as u16 {
            let edge = board.edges[e as usize];
            if game.ship_index(e) == Some(seat) && !ships.contains(&edge) {
                ships.push(edge);
            }
        }
        ships.retain(|edge| !self.warships.contains(edge));
        ships
    }
}

impl Seafarers {
    /// The Pirate Islands' map, in that scenario only.
    pub(crate) fn fleet(&self) -> Option<&'static FleetMap> {
        self.layout().and_then(|l| l.fleet.as_ref())
    }

    /// PIR-2 no robber, PIR-6 lone sites, PIR-7 lanes, PIR-16 the deck, PIR-17 no awards.
    pub(super) fn pirate_components(&self, fleet: &FleetMap, components: &mut Components) {
        components.robber_in_play = false;
        components.largest_army_card = false;
        components.longest_road_card = false;
        let starts = &fleet.starts[..usize::from(self.players).min(fleet.starts.len())];
        components.lone_sites = starts.iter().enumerate().map(|(i, s)| (Seat(i as u8), s.lone_vertex)).collect();
        components.ship_lanes = starts.iter().map(|s| s.lane.clone()).collect();
    }

    /// PIR-16: the deck as the other extensions laid it (X56's for 5-6 players), its VP cards
    /// removed with 2-3 players, made Knights (`as_knights`) or kept with 4-6.
    pub(super) fn pirate_deck(&self, components: &mut Components) {
        let deck = &mut components.development_deck;
        let vp_cards = deck.get(DevCard::VictoryPoint);
        if self.players <= 3 {
            // PIR-16: 2-3 players play without the VP cards.
            *deck.get_mut(DevCard::VictoryPoint) = 0;
        } else if self.pirate.vp_cards == PirateVpCards::AsKnights {
            *deck.get_mut(DevCard::Knight) += vp_cards;
            *deck.get_mut(DevCard::VictoryPoint) = 0;
        }
    }

    /// PIR-4: each seat's settlement, ship and fortress, before setup (SCN-2: entry `i` for
    /// seat `i`).
    pub(super) fn open_pirate_islands(&self, fleet: &FleetMap, game: &Game, events: &mut Vec<Event>) {
        for (i, start) in fleet.starts.iter().take(usize::from(game.player_count())).enumerate() {
            let seat = Seat(i as u8);
            events.push(Event::SettlementBuilt { seat, vertex: start.settlement, cost: Resources::ZERO });
            events.push(Event::ShipBuilt { seat, edge: start.ship, cost: Resources::ZERO });
            events.push(Event::FortressPlaced { seat, vertex: start.fortress, strength: FORTRESS_STRENGTH });
        }
    }

    /// The Pirate Islands' part of an event (after Seafarers' own: a ship built or moved is
    /// on the board already).
    pub(super) fn apply_pirate_islands(&self, fleet: &FleetMap, game: &mut Game, event: &Event) {
        match event {
            Event::FortressPlaced { seat, vertex, strength } => {
                let reserve = self.pirate.fortress_reserves_settlement;
                if reserve {
                    // PIR-4: the settlement under the fortress leaves the supply until the
                    // conquest.
                    if let Some(player) = game.players.get_mut(seat.index()) {
                        if player.pieces_left.settlements > 0 {
                            player.pieces_left.settlements -= 1;
                            player.supply.settlements -= 1;
                        }
                    }
                }
                let state = &mut game.ext.seafarers.pirate_islands;
                state.fortresses.retain(|f| f.seat != *seat);
                state.fortresses.push(Fortress { seat: *seat, vertex: *vertex, strength: *strength });
            }
            Event::PirateFleetMoved { to, steps, .. } => {
                let state = &mut game.ext.seafarers.pirate_islands;
                let len = fleet.path.len().max(1);
                state.fleet_index = ((usize::from(state.fleet_index) + usize::from(*steps)) % len) as u8;
                game.apply_pirate(*to);
            }
            Event::FleetAttack { seat, resources: Some(lost), .. } => game.pay(*seat, lost),
            Event::ShipBecameWarship { seat, edge } => {
                // Only a ship of the seat becomes one (an event that does not fit changes less).
                let held = game.board().edge(*edge).and_then(|e| game.ship_index(e)) == Some(*seat);
                let warships = &mut game.ext.seafarers.pirate_islands.warships;
                if held && !warships.contains(edge) {
                    warships.push(*edge);
                }
            }
            Event::FortressAttacked { seat, outcome, ships_lost, .. } => {
                self.apply_fortress_attack(game, *seat, *outcome, ships_lost)
            }
            Event::FortressConquered { seat, vertex } => self.apply_conquest(game, *seat, *vertex),
            Event::PirateFleetDefeated => {
                game.ext.seafarers.pirate_islands.fleet_defeated = true;
                game.pirate = None;
            }
            Event::ShipBuilt { seat, edge, .. } => {
                let placed = game.board().edge(*edge).and_then(|e| game.ship_index(e)) == Some(*seat);
                let ships = &mut game.ext.seafarers.pirate_islands.ships;
                if placed && !ships.contains(&(*seat, *edge)) {
                    ships.push((*seat, *edge));
                }
            }
            Event::ShipMoved { seat, from, to } => {
                let moved = game.board().edge(*to).and_then(|e| game.ship_index(e)) == Some(*seat);
                let state = &mut game.ext.seafarers.pirate_islands;
                if moved {
                    for entry in state.ships.iter_mut().filter(|(s, e)| s == seat && e == from) {
                        entry.1 = *to;
                    }
                    // PIR-9: a moved warship stays a warship.
                    for warship in state.warships.iter_mut().filter(|e| *e == from) {
                        *warship = *to;
                    }
                }
            }
            Event::TurnStarted { .. } => game.ext.seafarers.pirate_islands.fortress_attacked = false,
            _ => {}
        }
    }

    /// PIR, section 4.4: the fleet, the lanes, the lone vertices, the fortresses, the warships.
    pub(super) fn pirate_islands_view(&self, fleet: &FleetMap, game: &Game) -> PirateIslandsView {
        let state = &game.ext.seafarers.pirate_islands;
        let seats = fleet
            .starts
            .iter()
            .take(usize::from(game.player_count()))
            .enumerate()
            .map(|(i, start)| {
                let seat = Seat(i as u8);
                let own = |edge: &&EdgeId| game.board().edge(**edge).and_then(|e| game.ship_index(e)) == Some(seat);
                PirateIslandsSeatView {
                    seat,
                    lane: start.lane.clone(),
                    lone_vertex: start.lone_vertex,
                    fortress: start.fortress,
                    fortress_strength: state.fortress_of(seat).map_or(0, |f| f.strength),
                    warships: state.warships.iter().filter(own).copied().collect(),
                }
            })
            .collect();
        let len = fleet.path.len().max(1);
        PirateIslandsView {
            fleet_path: fleet.path.clone(),
            fleet_index: state.fleet_index,
            fleet_hex: (!state.fleet_defeated).then(|| fleet.path[usize::from(state.fleet_index) % len]),
            fleet_defeated: state.fleet_defeated,
            seats,
        }
    }
}

impl Seafarers {
    /// The moves The Pirate Islands decide: the roll (PIR-10..14), the steal after a 7
    /// (PIR-10), warships (PIR-15) and fortress attacks (PIR-18); `None` for any other.
    pub(super) fn decide_pirate_islands(
        &self,
        game: &Game,
        seat: Seat,
        mv: &crate::protocol::Move,
        chance: &mut dyn crate::chance::Chance,
        events: &mut Vec<Event>,
    ) -> Option<Result<(), crate::protocol::RuleError>> {
        use crate::{model::Phase, protocol::Move, protocol::RuleError};
        let fleet = self.fleet()?;
        let phase = game.phase();
        let ours = matches!(
            (phase, mv),
            (Phase::PreRoll, Move::RollDice)
                | (Phase::StealAny, _)
                | (_, Move::PlayWarship { .. } | Move::AttackFortress | Move::ChooseStealVictim { .. })
        );
        if !ours {
            return None;
        }
        let active = game.turn_active();
        if seat != active || matches!(phase, Phase::SpecialBuilding { .. }) {
            // X56-8, PIR-24: no warship and no attack in a special building phase.
            return Some(Err(if seat == active {
                RuleError::WrongPhase("no warship card and no attack in a special building phase (PIR-24)")
            } else {
                RuleError::NotYourTurn { active }
            }));
        }
        Some(match (phase, mv) {
            (Phase::PreRoll, Move::RollDice) => {
                self.decide_pirate_roll(fleet, game, seat, chance, events);
                Ok(())
            }
            (Phase::StealAny, Move::ChooseStealVictim { steal_from }) => {
                self.decide_steal_any(game, seat, *steal_from, chance, events)
            }
            (Phase::StealAny, _) => Err(RuleError::WrongPhase("take a card from an opponent, or from nobody (PIR-10)")),
            (Phase::PreRoll | Phase::Main, Move::PlayWarship { ship }) => {
                self.decide_warship(game, seat, *ship, events)
            }
            (Phase::Main, Move::AttackFortress) => self.decide_attack_fortress(game, seat, chance, events),
            (Phase::PreRoll, Move::AttackFortress) => Err(RuleError::MustRollFirst),
            _ => Err(RuleError::WrongPhase("this move is not part of this phase")),
        })
    }
}
