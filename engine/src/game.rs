//! The game's state and its facade: creating a game, replaying a log, and read-only queries.
//! Its children are the shared primitives every ruleset's rules call: moving cards between
//! hands (`hands.rs`), trade routes (`routes.rs`), each seat's pieces as bit sets
//! (`pieces.rs`), a roll's production tally (`production.rs`), the terms of trade
//! (`trading.rs`) and a copy of the game to look ahead in (`lookahead.rs`). The rules live in
//! `base/` (whose `mod.rs` holds the entry points `decide`, `legal_moves` and `apply`) and in
//! `ext/`, which builds on these files and never on `base/` (tests/layering.rs checks it).

pub(crate) mod hands;
mod lookahead;
pub(crate) mod pieces;
pub(crate) mod production;
pub(crate) mod routes;
pub(crate) mod trading;

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};

use crate::{
    board::{Board, BoardLayout, EdgeId, HexCoord, VertexId},
    chance::SeededChance,
    config::{FirstPlayer, GameConfig},
    ext::ExtState,
    model::{Building, DevCards, Phase, Phases, PlayerState, Resources, Seat, SetupStep, TradeOffer, Turn},
    protocol::{Event, SetupError, StartingRoll},
    rng::Rng,
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
    /// Sets up a new game: lays out the board and decides the first player from `seed`.
    ///
    /// # Errors
    /// [`SetupError`] when the configuration or a custom board is invalid.
    pub fn new(config: GameConfig, seed: u64) -> Result<Game, SetupError> {
        Game::start(config, seed).map(|(game, _)| game)
    }

    /// Sets up a new game and returns it with the events that opened it (the first entries
    /// of its log), building the board once: `game_started`, then what the extensions open
    /// the game with before anyone moves (NEW-11: the first harbour drawn).
    ///
    /// # Errors
    /// [`SetupError`] when the configuration or a custom board is invalid.
    pub fn start(config: GameConfig, seed: u64) -> Result<(Game, Vec<Event>), SetupError> {
        let (rules, opening) = Game::opening(&config, seed)?;
        let Event::GameStarted { board, first_seat, .. } = &opening else {
            return Err(SetupError::InvalidLog("the first event must be game_started".into()));
        };
        let mut game = Game::started(config, rules, board.clone(), *first_seat, seed)?;
        let mut events = vec![opening];
        let mut opening_rest = Vec::new();
        let mut chance = game.chance();
        for extension in &game.shared_rules().extensions {
            extension.opening(&game, &mut chance, &mut opening_rest);
        }
        for event in &opening_rest {
            game.apply(event);
        }
        events.append(&mut opening_rest);
        game.check_room_for_a_third_setup_round()?;
        Ok((game, events))
    }

    /// SCN-6: a third setup round must find a site for every placement, whatever the players
    /// choose. A settlement takes its site and bars at most its three neighbours, so `n`
    /// sites always leave one for every placement while `n >= 4 * placements - 3`. Two rounds
    /// are the maps' own design and are not measured.
    fn check_room_for_a_third_setup_round(&self) -> Result<(), SetupError> {
        let rounds = self.rules().components.setup_rounds;
        if rounds <= 2 {
            return Ok(());
        }
        let sites = (0..self.board.vertices.len() as u16)
            .filter(|&v| self.check_setup_site(v, self.board.vertices[v as usize]).is_ok())
            .count();
        let placements = usize::from(self.setup_placements());
        if sites + 3 >= 4 * placements {
            return Ok(());
        }
        Err(SetupError::InvalidConfig(format!(
            "setup_rounds {rounds} needs {placements} setup settlements, and this board's {sites} setup sites \
             leave room for only {} whatever the players choose (SCN-6)",
            sites.div_ceil(4)
        )))
    }

    /// Sets up a game that starts from a prepared position (a whole one: no hidden hands), with
    /// `seed` as its chance: the events that open it are `game_started` (the position's
    /// board and first seat) and `position_set` (the position), so that replaying them gives
    /// the game.
    ///
    /// # Errors
    /// The position's [`PositionError`](crate::position::PositionError); a reader's view of
    /// one is [`PositionError::Unseen`](crate::position::PositionError::Unseen), and a
    /// finished one [`PositionError::InvalidPhase`](crate::position::PositionError::InvalidPhase).
    pub fn start_from(
        mut position: crate::position::Setup,
        seed: u64,
    ) -> Result<(Game, Vec<Event>), crate::position::PositionError> {
        if position.is_redacted() {
            return Err(crate::position::PositionError::Unseen(
                "a game starts from a whole position, not from a reader's view of one".into(),
            ));
        }
        if position.winner.is_some() {
            return Err(crate::position::PositionError::InvalidPhase(
                "a game starts from a position that is not over (B-WIN-4)".into(),
            ));
        }
        position.seed = seed;
        // `game_started` and `position_set` are the events applied when play begins.
        position.events_applied = 2;
        position.clone().position()?;
        let opening = vec![
            Event::GameStarted {
                players: position.config.players,
                board: position.board.clone(),
                first_seat: position.first_seat,
                starting_rolls: Vec::new(),
                seed: Some(seed),
            },
            Event::PositionSet { position: Box::new(position.clone()) },
        ];
        let game = Game::replay(position.config, &opening)?;
        Ok((game, opening))
    }

    /// Returns the events that open a game: for a server, the first entries of the move log.
    ///
    /// # Errors
    /// [`SetupError`] when the configuration or a custom board is invalid.
    pub fn start_events(config: &GameConfig, seed: u64) -> Result<Vec<Event>, SetupError> {
        Game::start(config.clone(), seed).map(|(_, events)| events)
    }

    /// The ruleset and the opening event, with the board laid but not yet checked
    /// (`Game::started` does).
    fn opening(config: &GameConfig, seed: u64) -> Result<(Arc<Ruleset>, Event), SetupError> {
        let rules = Arc::new(Ruleset::build(config)?);
        let mut rng = Rng::for_stream(seed, SETUP_STREAM);
        let board = rules.generate_board(&mut rng)?;

        let (first_seat, starting_rolls) = match config.first_player {
            FirstPlayer::Seat(seat) if seat < config.players => (Seat(seat), Vec::new()),
            FirstPlayer::Seat(seat) => {
                return Err(SetupError::InvalidConfig(format!("first_player seat {seat} is not in the game")))
            }
            FirstPlayer::Roll => roll_for_first_player(config.players, &mut rng),
        };
        let opening =
            Event::GameStarted { players: config.players, board, first_seat, starting_rolls, seed: Some(seed) };
        Ok((rules, opening))
    }

    /// Rebuilds a game from its log; the first event must be `game_started`.
    ///
    /// # Errors
    /// [`SetupError::InvalidLog`] when the log does not start with `game_started`, or its
    /// board is invalid.
    pub fn replay<'a>(config: GameConfig, events: impl IntoIterator<Item = &'a Event>) -> Result<Game, SetupError> {
        let mut events = events.into_iter();
        let Some(Event::GameStarted { players, board, first_seat, seed, .. }) = events.next() else {
            return Err(SetupError::InvalidLog("the first event must be game_started".into()));
        };
        if *players != config.players {
            return Err(SetupError::InvalidLog(format!(
                "the log is for {players} players, the configuration for {}",
                config.players
            )));
        }
        let Some(seed) = seed else {
            return Err(SetupError::InvalidLog("game_started has no seed (was the log redacted?)".into()));
        };
        let rules = Arc::new(Ruleset::build(&config)?);
        let mut game = Game::started(config, rules, board.clone(), *first_seat, *seed)?;
        for event in events {
            game.apply(event);
        }
        Ok(game)
    }

    /// The position right after `game_started`, under `rules` (built from `config`).
    pub(crate) fn started(
        config: GameConfig,
        rules: Arc<Ruleset>,
        layout: BoardLayout,
        first_seat: Seat,
        seed: u64,
    ) -> Result<Game, SetupError> {
        let board = Board::new(layout)?;
        let robber = board.layout().robber.and_then(|h| board.hex(h));
        let pirate = board.layout().pirate.and_then(|h| board.hex(h));
        let components = &rules.components;
        let players = (0..config.players).map(|_| PlayerState::new(components.pieces)).collect();
        Ok(Game {
            buildings: vec![None; board.vertices.len()],
            roads: vec![None; board.edges.len()],
            ships: Vec::new(),
            pirate,
            board: Arc::new(board),
            seed,
            events_applied: 1,
            first_seat,
            players,
            bank: components.bank,
            deck: components.development_deck,
            robber,
            phase: Phase::Setup { seat: first_seat, placement: 0, step: SetupStep::PlaceSettlement },
            then: Phases::new(),
            turn: Turn::new(0, first_seat),
            longest_road: None,
            largest_army: None,
            offers: Vec::new(),
            next_offer_id: 1,
            winner: None,
            ext: ExtState::default(),
            commodity_bank: components.commodities,
            rules: RulesCell(OnceLock::from(rules)),
            routes: Default::default(),
            pieces: Default::default(),
            config,
        })
    }

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

/// B-SET-2: everyone rolls; the highest sum starts; tied seats re-roll among themselves.
fn roll_for_first_player(players: u8, rng: &mut Rng) -> (Seat, Vec<StartingRoll>) {
    let mut contenders: Vec<Seat> = (0..players).map(Seat).collect();
    let mut rolls = Vec::new();
    loop {
        let round: Vec<StartingRoll> =
            contenders.iter().map(|&seat| StartingRoll { seat, total: rng.die() + rng.die() }).collect();
        let best = round.iter().map(|r| r.total).max().unwrap_or(0);
        contenders = round.iter().filter(|r| r.total == best).map(|r| r.seat).collect();
        rolls.extend(round);
        if contenders.len() == 1 {
            return (contenders[0], rolls);
        }
    }
}
