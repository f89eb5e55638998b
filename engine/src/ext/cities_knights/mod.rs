//! Cities & Knights (CK, RULES.md 8.6): its own ruleset, one module per job — the three dice
//! and their order (`dice.rs`), commodities in hands and production (`commodities.rs`), the 7
//! and the robber (`seven.rs`), trading commodities with the bank (`trade.rs`), the
//! metropolises of improvement levels 4-5 (`metropolis.rs`) and the barbarians
//! (`barbarians.rs`). The base game's building and trade stay; this folder changes
//! what C&K changes: 13 points to win (CK-GEN-1), no development cards (CK-GEN-2), a city as
//! the second setup piece (CK-SET-1).

mod actions;
mod barbarians;
mod cards;
mod commodities;
mod dice;
mod hands_and_pieces;
mod improvements;
mod knights;
mod metropolis;
pub(crate) mod position;
mod progress;
mod redact;
mod seven;
mod state;
mod trade;
pub(crate) mod types;
mod view;

pub use cards::{CardDecision, CardTurn, Good, Merchant};
pub use dice::EVENT_DIE;
pub use knights::{Knight, ACTIVATION_COST, KNIGHT_COST, WALL_COST};
pub use metropolis::Metropolis;
pub(crate) use progress::full_decks;
pub use progress::PROGRESS_CARD;
pub(crate) use state::CitiesKnightsState;
pub use types::{EventFace, ProgressCard, ProgressCards, ProgressPlay, Track};
pub use view::{CitiesKnightsSeatView, CitiesKnightsView, DeckView, SpiedCards};

use crate::model::PushInPlace;
use crate::position::{PositionError, PositionPart, Setup, TurnSetup};
use crate::{
    chance::Chance,
    config::GameConfig,
    ext::Extension,
    game::production::Production,
    game::Game,
    model::{Commodities, Commodity, DevCards, Phase, Phases, Seat},
    protocol::{Event, Move, RuleError, SetupError},
    ruleset::{invalid, Components, Ruleset},
};

/// Commodity cards of each kind (CK-CMP-1); the 5-6 player extension adds 6 of each (X56-11).
const COMMODITIES_PER_KIND: u32 = 12;
const COMMODITIES_PER_KIND_FIVE_SIX: u32 = 18;

/// The points C&K adds to the target without it (CK-GEN-1: 13 instead of 10).
const CK_EXTRA_POINTS: u8 = 3;

/// The Cities & Knights ruleset, with its options (RULES.md 0.4).
#[derive(Debug)]
pub(crate) struct CitiesKnights {
    /// CK-BAR-1: advances of the barbarian ship until it reaches Catan.
    pub barbarian_steps: u8,
    /// CK-BAR-10: the robber waits for the first attack.
    pub robber_waits: bool,
    /// CK-PC-4: the configured progress hand limit, if any.
    pub progress_hand_limit: Option<u8>,
    /// X56-11: played with the 5-6 player extension.
    pub five_six: bool,
}

impl CitiesKnights {
    pub(crate) fn from_config(config: &GameConfig) -> Self {
        CitiesKnights {
            barbarian_steps: config.barbarian_steps,
            robber_waits: config.robber_waits_for_first_attack,
            progress_hand_limit: config.progress_hand_limit,
            five_six: config.five_six_extension,
        }
    }

    /// CK-BAR-10: whether the robber may move yet.
    fn robber_may_move(&self, game: &Game) -> bool {
        !self.robber_waits || game.ext.cities_knights.attacks > 0
    }
}

impl Game {
    /// The barbarian ship's position, 0 (start) to the attack (CK-BAR-1); 0 outside C&K.
    pub fn barbarian_position(&self) -> u8 {
        self.ext.cities_knights.barbarians
    }

    /// Barbarian attacks resolved so far (CK-BAR-9/10).
    pub fn barbarian_attacks(&self) -> u32 {
        self.ext.cities_knights.attacks
    }
}

impl Extension for CitiesKnights {
    fn position_parts(&self) -> &'static [PositionPart] {
        &[PositionPart::CitiesKnights]
    }

    fn place_position_pieces(&self, game: &mut Game, setup: &Setup) -> Result<(), PositionError> {
        position::place_pillaged(game, setup)
    }

    fn place_position(&self, game: &mut Game, setup: &Setup) -> Result<(), PositionError> {
        position::place(game, setup)
    }

    fn check_position_phase(
        &self,
        game: &Game,
        phase: &Phase,
        then: &[Phase],
        turn: &TurnSetup,
    ) -> Option<Result<(), PositionError>> {
        position::check_phase(game, phase, then, turn)
    }

    fn export_position(&self, game: &Game, setup: &mut Setup) {
        setup.cities_knights = position::CitiesKnightsSetup::of(game);
    }

    fn redact_position(&self, whole: &Setup, redacted: &mut Setup) {
        redact::redact(whole, redacted);
    }

    fn deal_position(&self, unseen: &crate::position::Unseen, setup: &mut Setup) -> Result<(), PositionError> {
        redact::deal(unseen, setup)
    }

    /// CK-BAR-8: a pillaged city that found no settlement piece holds none.
    fn holds_no_piece(&self, game: &Game, vertex: u16) -> bool {
        game.ext.cities_knights.pillaged.contains(&game.board.vertices[vertex as usize])
    }

    fn name(&self) -> &'static str {
        "cities_and_knights"
    }

    fn validate(&self, _rules: &Ruleset) -> Result<(), SetupError> {
        if !(1..=20).contains(&self.barbarian_steps) {
            return Err(invalid(format!("barbarian_steps must be 1 to 20, not {}", self.barbarian_steps)));
        }
        if let Some(limit) = self.progress_hand_limit.filter(|l| !(1..=10).contains(l)) {
            return Err(invalid(format!("progress_hand_limit must be 1 to 10, not {limit}")));
        }
        Ok(())
    }

    fn conflicts_with(&self, others: &[&str]) -> Option<&'static str> {
        // SEA-15 combines the two; Wonders of Catan has its own victory (WON-11), and Jungle
        // and Big River have no rules for commodities or knights.
        others.iter().any(|o| !matches!(*o, "five_six" | "seafarers")).then_some(
            "cities_and_knights combines with five_six and with the Seafarers scenarios except wonders; \
             not with wonders, jungle or big_river",
        )
    }

    /// CK-GEN-1, CK-GEN-2, CK-SET-1, CK-CMP-1.
    fn components(&self, components: &mut Components) {
        // CK-GEN-1: 13 points, three more than the base game's 10; with Seafarers, three more
        // than the scenario's own target (SEA-14, SEA-15; engine decision, `vp_target` sets
        // any other).
        components.vp_target = components.vp_target.saturating_add(CK_EXTRA_POINTS);
        components.development_deck = DevCards::default();
        components.setup_city = true;
        let per_kind = if self.five_six { COMMODITIES_PER_KIND_FIVE_SIX } else { COMMODITIES_PER_KIND };
        components.commodities = Commodities::each(per_kind);
    }

    fn reserve(&self, game: &mut Game) {
        let seats = game.players.len();
        let cities = game.players.iter().map(|p| usize::from(p.supply.cities)).sum();
        game.ext.cities_knights.reserve(seats, cities);
    }

    fn decide(
        &self,
        game: &Game,
        seat: Seat,
        mv: &Move,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Option<Result<(), RuleError>> {
        let active = seat == game.turn_active();
        if let Move::PlayProgressCard { play } = mv {
            return Some(self.decide_play(game, seat, play, chance, events));
        }
        if let Some(decided) = self.decide_card_move(game, seat, mv, chance, events) {
            return Some(decided);
        }
        match (game.phase(), mv) {
            (_, Move::BuyDevelopmentCard | Move::BuyDevelopmentCardWithDiscoveries { .. })
            | (_, Move::PlayKnight { .. } | Move::PlayRoadBuilding)
            | (_, Move::PlayYearOfPlenty { .. } | Move::PlayMonopoly { .. }) => {
                Some(Err(RuleError::NotInThisGame("a development card (CK-GEN-2)")))
            }
            (&Phase::RelocateKnight { seat: owner, vertex, rank, active }, Move::RelocateKnight { to }) => {
                Some(self.decide_relocate(game, seat, *to, (owner, vertex, rank, active), events))
            }
            (Phase::CardDecision { .. }, _) => Some(Err(if Self::decision_waits_for(game, seat) {
                RuleError::WrongPhase("a progress card waits for your decision")
            } else {
                RuleError::NothingToDecide
            })),
            // CK-PC-5: over the hand limit, the main phase starts with plays and discards.
            (Phase::Main, _) if active && game.must_shed_progress_cards() => {
                Some(Err(RuleError::ProgressHandOverLimit { limit: game.progress_hand_limit() }))
            }
            (Phase::RelocateKnight { seat: owner, .. }, _) => Some(Err(if seat == *owner {
                RuleError::WrongPhase("relocate your displaced knight first")
            } else {
                RuleError::NothingToDecide
            })),
            (Phase::PreRoll, Move::RollDice) if active => {
                self.roll_into(game, seat, None, chance, events);
                Some(Ok(()))
            }
            (Phase::MoveRobber, Move::MoveRobber { hex, steal_from }) if active => Some(
                self.decide_robber(game, seat, *hex, *steal_from, chance, events).map(|()| events.push(game.resume())),
            ),
            (_, Move::TradeCardsWithBank { give, get }) => {
                Some(self.decide_bank_trade(game, seat, give, get).map(|traded| events.push(traded)))
            }
            (_, Move::BuildImprovement { track, city }) => Some(
                self.improvement(game, seat, *track, *city)
                    .map(|(built, metropolis)| events.extend([built].into_iter().chain(metropolis))),
            ),
            (_, Move::RecruitKnight { vertex }) => Some(self.decide_recruit(game, seat, *vertex, events)),
            // One event each: straight into the buffer.
            (_, Move::PromoteKnight { vertex }) => {
                Some(self.promoted(game, seat, *vertex).map(|promoted| events.push(promoted)))
            }
            (_, Move::ActivateKnight { vertex }) => {
                Some(self.activated(game, seat, *vertex).map(|activated| events.push(activated)))
            }
            (_, Move::BuildCityWall { vertex }) => {
                Some(self.wall_built(game, seat, *vertex).map(|built| events.push(built)))
            }
            (_, Move::MoveKnight { from, to }) => Some(self.decide_move_knight(game, seat, *from, *to, events)),
            (_, Move::DisplaceKnight { from, to }) => Some(self.decide_displace(game, seat, *from, *to, events)),
            (_, Move::ChaseRobber { knight, hex, steal_from, bandit }) => {
                Some(self.decide_chase(game, seat, (*knight, *hex, *steal_from, *bandit), chance, events))
            }
            (Phase::LoseCity { pending, roll }, Move::ChooseCityToLose { vertex }) => {
                Some(self.decide_lose_city(game, seat, *vertex, pending, *roll, events))
            }
            (Phase::DefenderDraw { pending, roll }, Move::ChooseProgressDeck { track }) => {
                Some(self.decide_defender_draw(game, seat, *track, pending, *roll, chance, events))
            }
            (Phase::LoseCity { pending, .. } | Phase::DefenderDraw { pending, .. }, _) => {
                Some(Err(if pending.contains(&seat) {
                    RuleError::WrongPhase("the barbarians' attack waits for your decision")
                } else {
                    RuleError::NothingToDecide
                }))
            }
            (_, Move::ChooseCityToLose { .. } | Move::ChooseProgressDeck { .. } | Move::RelocateKnight { .. }) => {
                Some(Err(RuleError::NothingToDecide))
            }
            _ => None,
        }
    }

    fn legal_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) -> bool {
        match game.phase() {
            Phase::MoveRobber if seat == game.turn_active() => {
                Self::robber_moves(game, seat, moves);
                true
            }
            Phase::LoseCity { pending, .. } => {
                if pending.contains(&seat) {
                    // CK-MET-5: a metropolis is never pillaged.
                    moves.extend(game.free_cities(seat).map(|vertex| Move::ChooseCityToLose { vertex }));
                }
                true
            }
            &Phase::RelocateKnight { seat: owner, vertex, .. } => {
                if seat == owner {
                    Self::relocation_moves(game, seat, vertex, moves);
                }
                true
            }
            Phase::CardDecision { .. } => true,
            Phase::DefenderDraw { pending, .. } => {
                if pending.first() == Some(&seat) {
                    for track in Track::ALL {
                        if !progress::Deck::of(&game.ext.cities_knights, track).is_empty() {
                            moves.push(Move::ChooseProgressDeck { track });
                        }
                    }
                }
                true
            }
            _ => false,
        }
    }

    fn more_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        match game.phase() {
            Phase::Discard { pending } => {
                if let Some(owed) = pending.iter().find(|p| p.seat == seat) {
                    Self::commodity_discard_moves(game, seat, owed.count, moves);
                }
            }
            Phase::Main => {
                self.bank_trade_moves(game, seat, moves);
                self.improvement_moves(game, seat, moves);
                self.knight_moves(game, seat, moves);
                self.action_moves(game, seat, moves);
            }
            _ => {}
        }
        self.card_moves(game, seat, moves);
    }

    /// X56-11: in a special building phase knights are recruited, promoted and activated (but
    /// do not act).
    fn decide_purchase(
        &self,
        game: &Game,
        seat: Seat,
        mv: &Move,
        _chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Option<Result<(), RuleError>> {
        match mv {
            Move::RecruitKnight { vertex } => Some(self.decide_recruit(game, seat, *vertex, events)),
            Move::PromoteKnight { vertex } => Some(self.promoted(game, seat, *vertex).map(|e| events.push(e))),
            Move::ActivateKnight { vertex } => Some(self.activated(game, seat, *vertex).map(|e| events.push(e))),
            _ => None,
        }
    }

    fn purchase_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        if matches!(game.phase(), Phase::SpecialBuilding { .. }) {
            self.knight_moves(game, seat, moves);
        }
    }

    /// CK-PC-5: seats over the progress hand limit.
    fn react(&self, game: &Game, _seat: Seat, events: &mut Vec<Event>, _chance: &mut dyn Chance) {
        self.overflow(game, events);
    }

    fn produce(&self, game: &Game, roll: u8, production: &mut Production) {
        self.reduce_city_yield(game, roll, production);
    }

    /// CK-BAR-8: a pillaged city that took no settlement piece gives none back when it is a
    /// city again; the vertex is forgotten.
    fn settlement_returns_to_supply(&self, game: &mut Game, vertex: crate::board::VertexId) -> bool {
        !game.ext.cities_knights.take_pillaged(vertex)
    }

    /// CK-MER-2 and Merchant Fleet (CK-PC-7): resources at 2:1 as if by a harbour.
    fn two_for_one(&self, game: &Game, seat: Seat, special: &mut crate::Resources) {
        for good in game.two_for_one(seat) {
            if let Good::Resource(resource) = good {
                special.set(resource, 1);
            }
        }
    }

    /// CK-7-2, SEA-15: the hand holds commodities too, and any of its cards may be drawn.
    fn steal_card(&self, game: &Game, thief: Seat, victim: Seat, chance: &mut dyn Chance) -> Option<Event> {
        let weights = game.hand_cards(victim).weights();
        let index = chance.pick(crate::chance::Draw::STOLEN_CARD, &weights);
        Some(match index.checked_sub(crate::Resource::ALL.len()) {
            None => Event::ResourceStolen { thief, victim, resource: crate::Resource::ALL.get(index).copied() },
            Some(c) => Event::CommodityStolen { thief, victim, commodity: Commodity::ALL.get(c).copied() },
        })
    }

    /// CK-PC-6: the barbarians, improvements, knights, walls and progress cards; commodities
    /// are in the player and hand views.
    fn view(&self, game: &Game, you: Option<Seat>, over: bool, view: &mut crate::view::GameView) {
        view.cities_and_knights = game.cities_and_knights_view_as(you, over);
    }

    fn apply(&self, game: &mut Game, event: &Event) {
        hands_and_pieces::apply_to_hands_and_pieces(game, event);
        cards::apply(&mut game.ext, event, &game.phase);
        let state = &mut game.ext.cities_knights;
        match event {
            Event::BarbariansAdvanced { position } => state.barbarians = *position,
            Event::ImprovementBuilt { seat, track, level, .. } => {
                let levels = CitiesKnightsState::of_seat(&mut state.improvements, *seat);
                levels[*track as usize] = (*level).min(improvements::TOP_LEVEL);
            }
            Event::ProgressCardDrawn { seat, card: Some(card), .. } => state.take_drawn(*seat, *card),
            Event::KnightRecruited { seat, vertex, .. } if !state.knights.iter().any(|k| k.vertex == *vertex) => {
                state.knights.push(Knight {
                    vertex: *vertex,
                    seat: *seat,
                    rank: 1,
                    active: false,
                    activated_this_turn: false,
                    promoted_this_turn: false,
                });
            }
            Event::KnightPromoted { vertex, rank, .. } => {
                if let Some(knight) = state.knights.iter_mut().find(|k| k.vertex == *vertex) {
                    knight.rank = (*rank).min(knights::MIGHTY);
                    knight.promoted_this_turn = true;
                }
            }
            Event::KnightActivated { vertex, .. } => {
                if let Some(knight) = state.knights.iter_mut().find(|k| k.vertex == *vertex) {
                    knight.active = true;
                    knight.activated_this_turn = true;
                }
            }
            Event::KnightMoved { from, to, .. } if !state.knights.iter().any(|k| k.vertex == *to) => {
                if let Some(knight) = state.knights.iter_mut().find(|k| k.vertex == *from) {
                    knight.vertex = *to;
                    knight.active = false;
                }
            }
            Event::KnightDisplaced { from, to, displaced, .. } => {
                // CK-KNT-7: the weaker knight leaves the board until its owner relocates it.
                state.knights.retain(|k| !(k.vertex == *to && k.seat == *displaced));
                if let Some(knight) = state.knights.iter_mut().find(|k| k.vertex == *from) {
                    knight.vertex = *to;
                    knight.active = false;
                }
            }
            Event::KnightRelocated { seat, to, rank, active, .. } if !state.knights.iter().any(|k| k.vertex == *to) => {
                state.knights.push(Knight {
                    vertex: *to,
                    seat: *seat,
                    rank: (*rank).min(knights::MIGHTY),
                    active: *active,
                    activated_this_turn: false,
                    promoted_this_turn: false,
                });
            }
            Event::RobberChased { knight, .. } => {
                if let Some(knight) = state.knights.iter_mut().find(|k| k.vertex == *knight) {
                    knight.active = false;
                }
            }
            Event::CityWallBuilt { seat, vertex, .. } if !state.walls.iter().any(|(v, _)| v == vertex) => {
                state.walls.push((*vertex, *seat));
            }
            Event::BarbariansAttacked { .. } => {
                // CK-BAR-9: every knight inactive, the ship back at the start.
                state.attacks += 1;
                state.barbarians = 0;
                for knight in &mut state.knights {
                    knight.active = false;
                }
            }
            Event::DefenderOfCatan { seat } => *CitiesKnightsState::of_seat(&mut state.defenders, *seat) += 1,
            Event::CityPillaged { vertex, .. } => {
                state.walls.retain(|(v, _)| v != vertex);
                // Never for a metropolis (CK-MET-5); were one pillaged anyway, it is gone.
                state.metropolises.retain(|m| m.vertex != *vertex);
            }
            Event::MetropolisPlaced { seat, track, vertex } => {
                state.metropolises.retain(|m| m.track != *track && m.vertex != *vertex);
                state.metropolises.push(Metropolis { track: *track, seat: *seat, vertex: *vertex });
            }
            Event::MetropolisMoved { seat, track, to, .. } => {
                state.metropolises.retain(|m| m.track != *track && m.vertex != *to);
                state.metropolises.push(Metropolis { track: *track, seat: *seat, vertex: *to });
            }
            Event::TurnStarted { .. } => {
                for knight in &mut state.knights {
                    knight.activated_this_turn = false;
                    knight.promoted_this_turn = false;
                }
            }
            _ => {}
        }
    }

    /// CK-WIN-2 beyond the buildings and Longest Road: revealed VP progress cards (CK-EVT-3),
    /// Defender of Catan cards (CK-BAR-6), 2 for each metropolis (CK-MET-1) and 1 for the
    /// merchant (CK-MER-3).
    fn victory_points(&self, game: &Game, seat: Seat) -> u32 {
        // CK-BAR-8: a pillaged city without a settlement piece scores as a settlement.
        let pillaged = game.ext.cities_knights.pillaged.iter();
        let settlements = pillaged.filter(|&&v| game.building_at(v).is_some_and(|b| b.seat == seat)).count() as u32;
        game.progress_points(seat)
            + game.defender_points(seat)
            + settlements
            + game.metropolis_points(seat)
            + game.merchant_points(seat)
    }

    /// The two VP progress cards (CK-EVT-3) and Defender of Catan cards, which keep coming as
    /// points when the six run out (CK-CMP-3): no bound.
    fn most_points(&self, _pieces: &crate::Pieces) -> Option<u32> {
        None
    }
}

impl CitiesKnights {
    /// CK-TURN-2/3: the three dice, the event die resolved first, then the number dice: a 7
    /// (CK-7), or production with the cities' commodities (CK-PROD). With `chosen` number
    /// dice (an Alchemist, CK-PC-7, CK-TURN-2) only the event die is rolled.
    /// The roll's events go into the caller's buffer, after what it holds.
    fn roll_into(
        &self,
        game: &Game,
        seat: Seat,
        chosen: Option<(u8, u8)>,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) {
        let face = dice::roll_event_die(chance);
        let (red, white) = chosen.unwrap_or_else(|| crate::chance::roll_dice(chance));
        let roll = red + white;
        // The roll's own events start here: the buffer may hold others before them.
        let start = events.len();
        events.push_in_place(|| Event::EventDieRolled { seat, face });
        events.push_in_place(|| Event::DiceRolled { seat, red, white });
        let arrival = events.len();
        let pending = match face.track() {
            None => self.advance(game, roll, events),
            Some(track) => {
                self.progress_draws(game, track, red, chance, events);
                None
            }
        };
        // The number dice are resolved on the state after the event die's consequences. Only a
        // barbarian attack (pillaged cities, lost walls, the robber set free) changes what they
        // read; the dice themselves, a barbarian step and drawn progress cards (not in the
        // hand the 7 counts) do not, so the usual roll needs no copy of the game.
        let changes_number_dice = events[arrival..]
            .iter()
            .any(|e| !matches!(e, Event::BarbariansAdvanced { .. } | Event::ProgressCardDrawn { .. }));
        match pending {
            // The attack's decisions come first; the number dice wait for them.
            Some(pending) => events.push(Event::PhaseChanged { phase: pending, then: Phases::new() }),
            None if changes_number_dice => game.with_copy(|after| {
                for event in &events[start..] {
                    after.apply(event);
                }
                self.number_dice_into(after, roll, events)
            }),
            None => self.number_dice_into(game, roll, events),
        }
    }

    /// Appends what the number dice's `roll` brings to `events`.
    pub(super) fn number_dice_into(&self, game: &Game, roll: u8, events: &mut Vec<Event>) {
        if roll == 7 {
            events.push_in_place(|| self.seven(game));
            return;
        }
        let start = events.len();
        game.produce_on_roll(roll, events);
        if let Some(commodities) = self.commodity_production(game, roll) {
            let produced = events[start..].iter().position(|e| matches!(e, Event::ResourcesProduced { .. }));
            events.insert(start + produced.map_or(0, |i| i + 1), commodities);
        }
        // CK-IMP-5: the Aqueduct's choices come before the main phase (and after the gold
        // fields' choices, SEA-9, SEA-15).
        let choosers = self.aqueduct_choosers(game, &events[start..]);
        let Some((&first, others)) = choosers.split_first() else { return };
        let choice = improvements::aqueduct_choice;
        match events.last_mut() {
            Some(Event::PhaseChanged { phase: phase @ Phase::Main, then }) => {
                *then = others.iter().copied().map(choice).chain([Phase::Main]).chain(then.iter().cloned()).collect();
                *phase = choice(first);
            }
            Some(Event::PhaseChanged { phase: Phase::GoldChoice { .. }, then }) => {
                *then = choosers.iter().copied().map(choice).chain(then.iter().cloned()).collect();
            }
            _ => {}
        }
    }
}
