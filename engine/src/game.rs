//! Creating a game, replaying a log, applying events, and read-only queries.

use crate::{
    board::{Board, BoardLayout},
    chance::SeededChance,
    config::{FirstPlayer, GameConfig},
    error::SetupError,
    events::{Event, StartingRoll},
    resources::Resources,
    rng::Rng,
    state::{Building, BuildingKind, DevCards, Game, Phase, PlayerState, Seat, SetupStep, Turn},
};

/// Chance streams below this are move streams (one per event count); setup draws use the top.
const SETUP_STREAM: u64 = u64::MAX;

impl Game {
    /// Sets up a new game: lays out the board and decides the first player from `seed`.
    ///
    /// # Errors
    /// [`SetupError`] when the configuration or a custom board is invalid.
    pub fn new(config: GameConfig, seed: u64) -> Result<Game, SetupError> {
        let events = Game::start_events(&config, seed)?;
        Game::replay(config, &events)
    }

    /// Returns the events that open a game: for a server, the first entries of the move log.
    ///
    /// # Errors
    /// [`SetupError`] when the configuration or a custom board is invalid.
    pub fn start_events(config: &GameConfig, seed: u64) -> Result<Vec<Event>, SetupError> {
        config.validate()?;
        let mut rng = Rng::for_stream(seed, SETUP_STREAM);
        let board = config.generate_board(&mut rng)?;
        Board::new(board.clone())?;

        let (first_seat, starting_rolls) = match config.first_player {
            FirstPlayer::Seat(seat) if seat < config.players => (Seat(seat), Vec::new()),
            FirstPlayer::Seat(seat) => {
                return Err(SetupError::InvalidConfig(format!("first_player seat {seat} is not in the game")))
            }
            FirstPlayer::Roll => roll_for_first_player(config.players, &mut rng),
        };
        Ok(vec![Event::GameStarted { players: config.players, board, first_seat, starting_rolls, seed: Some(seed) }])
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
        let mut game = Game::started(config, board.clone(), *first_seat, *seed)?;
        for event in events {
            game.apply(event);
        }
        Ok(game)
    }

    fn started(config: GameConfig, layout: BoardLayout, first_seat: Seat, seed: u64) -> Result<Game, SetupError> {
        config.validate()?;
        let board = Board::new(layout)?;
        let robber = board.layout().robber.and_then(|h| board.hex(h));
        let players = (0..config.players).map(|_| PlayerState::new()).collect();
        let bank = Resources::each(config.cards_per_resource());
        let deck = config.development_deck();
        Ok(Game {
            buildings: vec![None; board.vertices.len()],
            roads: vec![None; board.edges.len()],
            config,
            board,
            seed,
            events_applied: 1,
            first_seat,
            players,
            bank,
            deck,
            robber,
            phase: Phase::Setup { seat: first_seat, placement: 0, step: SetupStep::PlaceSettlement },
            turn: Turn {
                number: 0,
                active: first_seat,
                rolled: false,
                last_roll: None,
                dev_card_played: false,
                built_or_bought: false,
            },
            longest_road: None,
            largest_army: None,
            offers: Vec::new(),
            next_offer_id: 1,
            winner: None,
        })
    }

    /// Returns the chance source for the next move: the game's own seeded stream.
    pub fn chance(&self) -> SeededChance {
        SeededChance::new(self.seed, self.events_applied)
    }

    /// Applies one event. Has no rules and cannot fail; `game_started` is only meaningful as
    /// the first event of [`Game::replay`] and is ignored here. Redacted events (hidden
    /// fields cleared) leave their hidden part unapplied: apply only full events.
    pub fn apply(&mut self, event: &Event) {
        self.events_applied += 1;
        match event {
            Event::GameStarted { .. } => {}
            Event::PhaseChanged { phase } => self.phase = phase.clone(),
            Event::SettlementBuilt { seat, vertex, cost } => {
                self.mark_built_or_bought();
                if let Some(v) = self.board.vertex(*vertex) {
                    self.buildings[v as usize] = Some(Building { seat: *seat, kind: BuildingKind::Settlement });
                }
                self.players[seat.index()].settlements_left -= 1;
                self.pay(*seat, cost);
            }
            Event::CityBuilt { seat, vertex, cost } => {
                self.mark_built_or_bought();
                if let Some(v) = self.board.vertex(*vertex) {
                    self.buildings[v as usize] = Some(Building { seat: *seat, kind: BuildingKind::City });
                }
                let player = &mut self.players[seat.index()];
                player.settlements_left += 1;
                player.cities_left -= 1;
                self.pay(*seat, cost);
            }
            Event::RoadBuilt { seat, edge, cost } => {
                self.mark_built_or_bought();
                if let Some(e) = self.board.edge(*edge) {
                    self.roads[e as usize] = Some(*seat);
                }
                self.players[seat.index()].roads_left -= 1;
                self.pay(*seat, cost);
            }
            Event::StartingResourcesReceived { seat, resources } => self.receive(*seat, resources),
            Event::DiceRolled { red, white, .. } => {
                self.turn.rolled = true;
                self.turn.last_roll = Some((*red, *white));
            }
            Event::ResourcesProduced { gains, discoveries, .. } => {
                for gain in gains {
                    self.receive(gain.seat, &gain.resources);
                }
                for found in discoveries {
                    self.players[found.seat.index()].discoveries += found.count;
                }
            }
            Event::ResourcesDiscarded { seat, resources, .. } => {
                if let Some(resources) = resources {
                    self.pay(*seat, resources);
                }
            }
            Event::RobberMoved { hex, .. } => {
                if let Some(h) = self.board.hex(*hex) {
                    self.robber = Some(h);
                }
            }
            Event::ResourceStolen { thief, victim, resource } => {
                if let Some(resource) = resource {
                    let card = Resources::of(*resource, 1);
                    self.players[victim.index()].resources -= card;
                    self.players[thief.index()].resources += card;
                }
            }
            Event::DevelopmentCardBought { seat, cost, card, discoveries } => {
                self.mark_built_or_bought();
                self.pay(*seat, cost);
                let player = &mut self.players[seat.index()];
                player.discoveries = player.discoveries.saturating_sub(*discoveries);
                if let Some(card) = card {
                    *self.deck.get_mut(*card) -= 1;
                    *self.players[seat.index()].new_dev_cards.get_mut(*card) += 1;
                }
            }
            Event::KnightPlayed { seat } => {
                let player = &mut self.players[seat.index()];
                player.dev_cards.knight -= 1;
                player.knights_played += 1;
                self.turn.dev_card_played = true;
            }
            Event::RoadBuildingPlayed { seat } => {
                self.players[seat.index()].dev_cards.road_building -= 1;
                self.turn.dev_card_played = true;
            }
            Event::YearOfPlentyPlayed { seat, resources } => {
                self.players[seat.index()].dev_cards.year_of_plenty -= 1;
                self.turn.dev_card_played = true;
                self.receive(*seat, resources);
            }
            Event::MonopolyPlayed { seat, taken, .. } => {
                self.players[seat.index()].dev_cards.monopoly -= 1;
                self.turn.dev_card_played = true;
                for loss in taken {
                    self.players[loss.seat.index()].resources -= loss.resources;
                    self.players[seat.index()].resources += loss.resources;
                }
            }
            Event::BankTraded { seat, give, get } => {
                self.pay(*seat, give);
                self.receive(*seat, get);
            }
            Event::TradeOffered { offer } => {
                self.next_offer_id = self.next_offer_id.max(offer.id + 1);
                self.offers.push(offer.clone());
            }
            Event::TradeAccepted { offer_id, seat } => {
                if let Some(offer) = self.offers.iter_mut().find(|o| o.id == *offer_id) {
                    offer.declined_by.retain(|s| s != seat);
                    offer.accepted_by.push(*seat);
                }
            }
            Event::TradeDeclined { offer_id, seat } => {
                if let Some(offer) = self.offers.iter_mut().find(|o| o.id == *offer_id) {
                    offer.accepted_by.retain(|s| s != seat);
                    offer.declined_by.push(*seat);
                }
            }
            Event::TradeWithdrawn { offer_id } => self.offers.retain(|o| o.id != *offer_id),
            Event::TradesExpired { offer_ids } => self.offers.retain(|o| !offer_ids.contains(&o.id)),
            Event::TradeCompleted { offer_id, from, with, give, get } => {
                self.players[from.index()].resources -= *give;
                self.players[with.index()].resources += *give;
                self.players[with.index()].resources -= *get;
                self.players[from.index()].resources += *get;
                self.offers.retain(|o| o.id != *offer_id);
            }
            Event::LargestArmyChanged { holder, .. } => self.largest_army = *holder,
            Event::LongestRoadChanged { holder, .. } => self.longest_road = *holder,
            Event::TurnStarted { seat, turn } => {
                self.turn = Turn {
                    number: *turn,
                    active: *seat,
                    rolled: false,
                    last_roll: None,
                    dev_card_played: false,
                    built_or_bought: false,
                };
                // B-DEV-3: cards bought before this turn began become playable.
                for player in &mut self.players {
                    let fresh = std::mem::take(&mut player.new_dev_cards);
                    player.dev_cards.add(&fresh);
                }
                self.phase = Phase::PreRoll;
            }
            Event::GameWon { seat, .. } => {
                self.winner = Some(*seat);
                self.phase = Phase::GameOver;
            }
        }
    }

    /// Moves cards from a hand to the bank.
    fn pay(&mut self, seat: Seat, cards: &Resources) {
        if cards.is_empty() {
            return;
        }
        self.players[seat.index()].resources -= *cards;
        self.bank += *cards;
    }

    /// B-TURN-6's flag needs to know whether the turn has seen a build or a purchase.
    fn mark_built_or_bought(&mut self) {
        if self.turn.number > 0 {
            self.turn.built_or_bought = true;
        }
    }

    fn receive(&mut self, seat: Seat, cards: &Resources) {
        self.bank -= *cards;
        self.players[seat.index()].resources += *cards;
    }

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// Returns the seat whose turn it is (during setup: the seat placing).
    pub fn active_seat(&self) -> Seat {
        match self.phase {
            Phase::Setup { seat, .. } => seat,
            _ => self.turn.active,
        }
    }

    pub fn turn_number(&self) -> u32 {
        self.turn.number
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

    pub fn longest_road_holder(&self) -> Option<Seat> {
        self.longest_road
    }

    pub fn largest_army_holder(&self) -> Option<Seat> {
        self.largest_army
    }

    /// Returns the domestic trade offers that are open now.
    pub fn open_offers(&self) -> &[crate::state::TradeOffer] {
        &self.offers
    }

    /// Returns the building on a vertex, if any.
    pub fn building_at(&self, vertex: crate::board::VertexId) -> Option<Building> {
        self.board.vertex(vertex).and_then(|v| self.buildings[v as usize])
    }

    /// Returns the owner of the road on an edge, if any.
    pub fn road_at(&self, edge: crate::board::EdgeId) -> Option<Seat> {
        self.board.edge(edge).and_then(|e| self.roads[e as usize])
    }

    /// Returns the robber's hex; `None` while it waits off the board (RIV-7).
    pub fn robber_hex(&self) -> Option<crate::board::HexCoord> {
        self.robber.map(|h| self.board.hexes[h as usize])
    }

    /// Returns the victory points visible to everyone: buildings and special cards
    /// (B-WIN-2), without hidden VP cards.
    pub fn public_victory_points(&self, seat: Seat) -> u32 {
        let player = &self.players[seat.index()];
        let mut points = player.settlements_on_board() + 2 * player.cities_on_board();
        if self.longest_road == Some(seat) {
            points += 2;
        }
        if self.largest_army == Some(seat) {
            points += 2;
        }
        if self.config.big_river {
            // RIV-6: buildings on the gold mine are worth extra.
            let on_gold = self
                .buildings
                .iter()
                .zip(&self.board.vertex_on_gold)
                .filter(|(b, gold)| **gold && b.is_some_and(|b| b.seat == seat))
                .count() as u32;
            points += on_gold * u32::from(self.config.river_gold_bonus_vp);
        }
        points
    }

    /// Returns the full victory points, including hidden VP cards (B-WIN-2).
    pub fn victory_points(&self, seat: Seat) -> u32 {
        self.public_victory_points(seat) + self.players[seat.index()].victory_point_cards()
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
