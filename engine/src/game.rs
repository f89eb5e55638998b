//! The game's state and its facade: read-only queries. Its children: creating a game, from a
//! configuration, a position or a log (`create.rs`), and the shared primitives every
//! ruleset's rules call: moving cards between hands (`hands.rs`), trade routes
//! (`routes.rs`), each seat's pieces as bit sets (`pieces.rs`), a roll's production tally
//! (`production.rs`), the terms of trade (`trading.rs`) and a copy of the game to look ahead
//! in (`lookahead.rs`). The rules live in `base/` (whose `mod.rs` holds the entry points
//! `decide`, `legal_moves` and `apply`) and in `ext/`, which builds on these files and never
//! on `base/` (tests/layering.rs checks it).

mod create;
pub(crate) mod hands;
mod lookahead;
pub(crate) mod pieces;
pub(crate) mod production;
pub(crate) mod routes;
pub(crate) mod trading;
mod trails;

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::{
    board::{Board, EdgeId, HexCoord, VertexId},
    chance::SeededChance,
    config::GameConfig,
    ext::ExtState,
    model::{Building, DevCards, Phase, Phases, PlayerState, Resources, Seat, TradeOffer, Turn},
    ruleset::{self, Ruleset},
};

/// Chance streams below this are move streams (one per event count); setup draws use the top.
const SETUP_STREAM: u64 = u64::MAX;

/// A game in progress: always a legal position, changed only by [`Game::apply`].
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Game {
    pub(crate) config: GameConfig,
    /// The board never changes after set-up: clones of the game share it.
    pub(crate) board: Arc<Board>,
    pub(crate) seed: u64,
    /// Events applied so far; keys the chance stream of the next move.
    pub(crate) events_applied: u64,
    pub(crate) first_seat: Seat,
    pub(crate) players: Vec<PlayerState>,
    pub(crate) bank: Resources,
    pub(crate) deck: DevCards,
    /// The robber's hex index; `None` while it waits off the board (RIV-7).
    pub(crate) robber: Option<u8>,
    pub(crate) buildings: Vec<Option<Building>>,
    pub(crate) roads: Vec<Option<Seat>>,
    /// The ship on each edge (SEA-1); empty until the first ship is placed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) ships: Vec<Option<Seat>>,
    /// The pirate's hex index; `None` while it is off the board or not in the game (SEA-7).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) pirate: Option<u8>,
    /// What the game waits for now.
    pub(crate) phase: Phase,
    /// The phases `phase` interrupted, in the order they resume.
    #[serde(default, skip_serializing_if = "Phases::is_empty")]
    pub(crate) then: Phases,
    pub(crate) turn: Turn,
    pub(crate) longest_road: Option<Seat>,
    pub(crate) largest_army: Option<Seat>,
    pub(crate) offers: Vec<TradeOffer>,
    pub(crate) next_offer_id: u32,
    pub(crate) winner: Option<Seat>,
    /// What the extensions in play keep.
    #[serde(default)]
    pub(crate) ext: ExtState,
    /// The commodity cards in the bank (Cities & Knights, CK-CMP-1); none in other games.
    #[serde(default, skip_serializing_if = "crate::model::Commodities::is_empty")]
    pub(crate) commodity_bank: crate::model::Commodities,
    /// The ruleset, built from `config` on first use.
    #[serde(skip)]
    rules: RulesCell,
    /// Route lengths, and (`pieces`) each seat's pieces, as found: kept until events change them.
    #[serde(skip)]
    pub(crate) routes: routes::RouteCache,
    #[serde(skip)]
    pub(crate) pieces: pieces::PieceCache,
}

/// The game's ruleset, built lazily from its configuration (also after deserializing).
#[derive(Debug, Clone, Default)]
struct RulesCell(OnceLock<Arc<Ruleset>>);

impl PartialEq for RulesCell {
    /// The ruleset is a function of the configuration, which is compared on its own.
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

/// By hand for `clone_from`, which reuses the copy's buffers: the victory check builds the
/// state a move leads to into the same copy move after move, without allocating. Both name
/// every field, so a new one cannot be forgotten.
impl Clone for Game {
    fn clone(&self) -> Self {
        let Game {
            config,
            board,
            seed,
            events_applied,
            first_seat,
            players,
            bank,
            deck,
            robber,
            buildings,
            roads,
            ships,
            pirate,
            phase,
            then,
            turn,
            longest_road,
            largest_army,
            offers,
            next_offer_id,
            winner,
            ext,
            commodity_bank,
            rules,
            routes,
            pieces,
        } = self;
        Game {
            config: config.clone(),
            board: Arc::clone(board),
            seed: *seed,
            events_applied: *events_applied,
            first_seat: *first_seat,
            players: players.clone(),
            bank: *bank,
            deck: *deck,
            robber: *robber,
            buildings: buildings.clone(),
            roads: roads.clone(),
            ships: ships.clone(),
            pirate: *pirate,
            phase: phase.clone(),
            then: then.clone(),
            turn: turn.clone(),
            longest_road: *longest_road,
            largest_army: *largest_army,
            offers: offers.clone(),
            next_offer_id: *next_offer_id,
            winner: *winner,
            ext: ext.clone(),
            commodity_bank: *commodity_bank,
            rules: rules.clone(),
            routes: routes.clone(),
            pieces: pieces.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        let Game {
            config,
            board,
            seed,
            events_applied,
            first_seat,
            players,
            bank,
            deck,
            robber,
            buildings,
            roads,
            ships,
            pirate,
            phase,
            then,
            turn,
            longest_road,
            largest_army,
            offers,
            next_offer_id,
            winner,
            ext,
            commodity_bank,
            rules,
            routes,
            pieces,
        } = source;
        // The configuration and the ruleset built from it change only with the game.
        if self.config != *config {
            self.config.clone_from(config);
        }
        if !Arc::ptr_eq(&self.board, board) {
            self.board = Arc::clone(board);
        }
        self.seed = *seed;
        self.events_applied = *events_applied;
        self.first_seat = *first_seat;
        self.players.clone_from(players);
        self.bank = *bank;
        self.deck = *deck;
        self.robber = *robber;
        self.buildings.clone_from(buildings);
        self.roads.clone_from(roads);
        self.ships.clone_from(ships);
        self.pirate = *pirate;
        self.phase.clone_from(phase);
        self.then.clone_from(then);
        self.turn.clone_from(turn);
        self.longest_road = *longest_road;
        self.largest_army = *largest_army;
        self.offers.clone_from(offers);
        self.next_offer_id = *next_offer_id;
        self.winner = *winner;
        self.ext.clone_from(ext);
        self.commodity_bank = *commodity_bank;
        self.rules.clone_from(rules);
        self.routes.clone_from(routes);
        self.pieces.clone_from(pieces);
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.layout() == other.layout()
    }
}

impl Game {
    /// The game's ruleset.
    pub(crate) fn rules(&self) -> &Ruleset {
        self.rules_arc()
    }

    fn rules_arc(&self) -> &Arc<Ruleset> {
        self.rules.0.get_or_init(|| ruleset::shared(&self.config))
    }

    /// Plays the game under `rules` from now on (tests of the extension point).
    #[cfg(test)]
    pub(crate) fn set_rules(&mut self, rules: Arc<Ruleset>) {
        self.rules = RulesCell(OnceLock::from(rules));
    }

    /// The game's ruleset, shared (for applying while the state changes).
    pub(crate) fn shared_rules(&self) -> Arc<Ruleset> {
        Arc::clone(self.rules_arc())
    }

    /// Returns the chance source for the next move: the game's own seeded stream.
    pub fn chance(&self) -> SeededChance {
        SeededChance::new(self.seed, self.events_applied)
    }

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// What the game waits for now.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The phases the current one interrupted, in the order they resume.
    pub fn then(&self) -> &[Phase] {
        &self.then
    }

    /// Returns the seat whose turn it is (during setup: the seat placing).
    pub fn active_seat(&self) -> Seat {
        match self.phase {
            Phase::Setup { seat, .. } => seat,
            _ => self.turn.active,
        }
    }

    /// The seat whose turn it is, also during a special building phase.
    pub(crate) fn turn_active(&self) -> Seat {
        self.turn.active
    }

    /// Returns the seats that must act before play can go on.
    pub fn waiting_for(&self) -> Vec<Seat> {
        self.phase.deciders(self.turn.active)
    }

    /// Returns the first of the seats that must act (`None` once the game is over).
    pub fn next_to_act(&self) -> Option<Seat> {
        self.phase.first_decider(self.turn.active)
    }

    pub fn turn_number(&self) -> u32 {
        self.turn.number
    }

    /// The victory points needed to win (B-WIN-1, SEA-14).
    pub fn vp_target(&self) -> u8 {
        self.rules().base.vp_target
    }

    pub fn player_count(&self) -> u8 {
        self.config.players
    }

    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        (0..self.config.players).map(Seat)
    }

    pub fn player(&self, seat: Seat) -> Option<&PlayerState> {
        self.players.get(seat.index())
    }

    pub fn bank(&self) -> &Resources {
        &self.bank
    }

    /// The commodity cards in the bank (Cities & Knights; none in other games).
    pub fn commodity_bank(&self) -> &crate::model::Commodities {
        &self.commodity_bank
    }

    pub fn development_deck(&self) -> &DevCards {
        &self.deck
    }

    pub fn winner(&self) -> Option<Seat> {
        self.winner
    }

    pub fn is_over(&self) -> bool {
        self.winner.is_some()
    }

    /// Returns the number of events applied, including `game_started`.
    pub fn events_applied(&self) -> u64 {
        self.events_applied
    }

    /// Whether the Longest Road (Trade Route) card is in play (not in Wonders of Catan, WON-7).
    pub fn longest_road_in_play(&self) -> bool {
        self.rules().components.longest_road_card
    }

    pub fn longest_road_holder(&self) -> Option<Seat> {
        self.longest_road
    }

    pub fn largest_army_holder(&self) -> Option<Seat> {
        self.largest_army
    }

    /// Returns the domestic trade offers that are open now.
    pub fn open_offers(&self) -> &[TradeOffer] {
        &self.offers
    }

    /// Returns the jungle discoveries `seat` holds (JUN-4; 0 without the jungle).
    pub fn discoveries(&self, seat: Seat) -> u32 {
        self.ext.jungle.discoveries(seat)
    }

    /// Returns the building on a vertex, if any.
    pub fn building_at(&self, vertex: VertexId) -> Option<Building> {
        self.board.vertex(vertex).and_then(|v| self.building_index(v))
    }

    /// Returns the building on vertex index `v`, if any.
    pub fn building_index(&self, v: u16) -> Option<Building> {
        self.buildings.get(v as usize).copied().flatten()
    }

    /// Returns the owner of the road on an edge, if any.
    pub fn road_at(&self, edge: EdgeId) -> Option<Seat> {
        self.board.edge(edge).and_then(|e| self.roads[e as usize])
    }

    /// Returns the owner of the ship on an edge, if any (SEA-1).
    pub fn ship_at(&self, edge: EdgeId) -> Option<Seat> {
        self.board.edge(edge).and_then(|e| self.ship_index(e))
    }

    /// Returns the owner of the ship on edge index `e`, if any.
    pub fn ship_index(&self, e: u16) -> Option<Seat> {
        self.ships.get(e as usize).copied().flatten()
    }

    /// Returns the owner of the road on edge index `e`, if any.
    pub fn road_index(&self, e: u16) -> Option<Seat> {
        self.roads.get(e as usize).copied().flatten()
    }

    /// Returns the pirate's hex; `None` while it is off the board (SEA-7).
    pub fn pirate_hex(&self) -> Option<HexCoord> {
        self.pirate.map(|h| self.board.hexes[h as usize])
    }

    /// Returns the pirate's hex index.
    pub(crate) fn pirate_index(&self) -> Option<u8> {
        self.pirate
    }

    /// Returns the robber's hex; `None` while it waits off the board (RIV-7).
    pub fn robber_hex(&self) -> Option<HexCoord> {
        self.robber.map(|h| self.board.hexes[h as usize])
    }

    /// Returns the robber's hex index.
    pub(crate) fn robber_index(&self) -> Option<u8> {
        self.robber
    }

    /// Returns the bank rate per resource `seat` has now: 4, 3 or 2 (B-TRD-2..4).
    pub fn bank_rates(&self, seat: Seat) -> Resources {
        trading::bank_rates(self, seat)
    }

    /// Returns the length of `seat`'s longest road (B-LR-1/2), with Seafarers its longest
    /// trade route over roads and ships (SEA-10).
    pub fn road_length(&self, seat: Seat) -> u32 {
        routes::road_length(self, seat, Default::default())
    }
}
