//! The base game's rules, one file per area of RULES.md, each holding its decisions, its
//! legal moves and how its events apply. This module routes a move by phase to its area
//! (asking the extensions first for the phases and purchases they own) and an event to the
//! area that applies it.

pub(crate) mod awards;
mod building;
pub(crate) mod development;
pub(crate) mod production;
pub(crate) mod robber;
mod setup;
pub(crate) mod trade;
mod turn;
mod victory;

use crate::{
    chance::Chance,
    game::Game,
    model::{Cards, Phase, Phases, Seat},
    protocol::{Event, Move, RuleError},
};

/// The rules' entry points: the base game decides, lists and applies, and hands the phases,
/// moves and events it does not own to the extensions of the game's ruleset.
impl Game {
    /// Validates `mv` by `seat` and returns the events it causes. Never mutates the game.
    ///
    /// Random outcomes (dice, drawn card, stolen card) are taken from `chance` and recorded
    /// in the events; pass [`Game::chance`] for the game's own stream.
    ///
    /// # Errors
    /// A [`RuleError`] naming the broken rule; the game is unchanged.
    pub fn decide(&self, seat: Seat, mv: &Move, chance: &mut impl Chance) -> Result<Vec<Event>, RuleError> {
        let mut events = Vec::new();
        self.decide_into(seat, mv, chance, &mut events)?;
        Ok(events)
    }

    /// Like [`Game::decide`], into a buffer the caller reuses (cleared first; left empty on an
    /// error), so that self-play need not allocate a list of events for every move.
    ///
    /// # Errors
    /// A [`RuleError`] naming the broken rule; the game is unchanged.
    pub fn decide_into(
        &self,
        seat: Seat,
        mv: &Move,
        chance: &mut impl Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        events.clear();
        let decided = decide(self, seat, mv, chance, events);
        if decided.is_err() {
            events.clear();
        }
        decided
    }

    /// Generates all moves `seat` may make now, each complete and accepted by
    /// [`Game::decide`]. New trade offers are the one exception (their space is unbounded):
    /// [`Game::may_offer_trade`] says whether the seat may make one.
    pub fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        let mut moves = Vec::new();
        self.legal_moves_into(seat, &mut moves);
        moves
    }

    /// Like [`Game::legal_moves`], into a buffer the caller reuses (cleared first).
    pub fn legal_moves_into(&self, seat: Seat, moves: &mut Vec<Move>) {
        moves.clear();
        legal_moves(self, seat, moves);
    }

    /// Applies one event. Has no rules and never panics: an event that does not fit the state
    /// changes what it can and leaves the rest (a log written by `decide` always fits).
    /// `game_started` is only meaningful as the first event of [`Game::replay`] and is
    /// ignored here. Redacted events (hidden fields cleared) leave their hidden part
    /// unapplied: apply only full events.
    pub fn apply(&mut self, event: &Event) {
        self.routes.forget_after(event);
        apply(self, event);
        // After the event, so that nothing looked up while applying it is kept.
        self.pieces.update_after(self, event);
    }
}

/// Validates `mv` by `seat` and appends the events it causes to `events` (empty on entry; on
/// an error it may hold a part of them, which the caller drops).
fn decide(
    game: &Game,
    seat: Seat,
    mv: &Move,
    chance: &mut dyn Chance,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    if game.winner.is_some() {
        return Err(RuleError::GameOver);
    }
    if seat.index() >= game.players.len() {
        return Err(RuleError::UnknownSeat(seat));
    }
    match (&game.phase, mv) {
        (Phase::GameOver, _) => return Err(RuleError::GameOver),
        (Phase::Setup { .. }, _) => game.decide_setup(seat, mv, events)?,
        (Phase::Discard { pending }, Move::Discard { resources }) => {
            return game.decide_discard(seat, pending, resources, events);
        }
        (Phase::Discard { pending }, Move::DiscardCards { cards }) => {
            return game.decide_discard_cards(seat, pending, cards).map(|discarded| events.extend(discarded));
        }
        (Phase::GoldChoice { roll, pending, chosen, source }, Move::ChooseGoldResources { resources }) => {
            return game.decide_gold_choice(seat, (*roll, pending, chosen, *source), resources, events);
        }
        (Phase::Discard { .. } | Phase::GoldChoice { .. }, _) if seat == game.turn.active => {
            return Err(RuleError::WrongPhase("waiting for other players' decisions"));
        }
        (Phase::Discard { .. } | Phase::GoldChoice { .. }, _) => return Err(RuleError::NothingToDecide),
        (_, Move::OfferTrade { give, get, give_commodities, get_commodities, to, counter_to }) => {
            let (give, get) = (Cards::new(*give, *give_commodities), Cards::new(*get, *get_commodities));
            return append(events, game.decide_offer(seat, &give, &get, to.as_deref(), *counter_to));
        }
        (_, Move::AcceptTrade { offer_id }) => return append(events, game.decide_accept(seat, *offer_id)),
        (_, Move::DeclineTrade { offer_id }) => return append(events, game.decide_decline(seat, *offer_id)),
        (_, Move::WithdrawTrade { offer_id }) => return append(events, game.decide_withdraw(seat, *offer_id)),
        (_, Move::ConfirmTrade { offer_id, with }) => append(events, game.decide_confirm(seat, *offer_id, *with))?,
        _ => match game.rules().extensions.iter().find_map(|e| e.decide(game, seat, mv, chance, events)) {
            Some(result) => result?,
            None => decide_in_turn(game, seat, mv, chance, events)?,
        },
    }
    for extension in &game.rules().extensions {
        extension.react(game, seat, events, chance);
    }
    game.check_victory(events);
    game.check_turn_limit(events);
    Ok(())
}

/// Appends the events of a decision that builds its own list (the rarer moves and the
/// extensions' hooks).
fn append(events: &mut Vec<Event>, decided: Result<Vec<Event>, RuleError>) -> Result<(), RuleError> {
    events.append(&mut decided?);
    Ok(())
}

/// The active player's moves in the phases of a turn.
fn decide_in_turn(
    game: &Game,
    seat: Seat,
    mv: &Move,
    chance: &mut dyn Chance,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    if seat != game.turn.active {
        return Err(RuleError::NotYourTurn { active: game.turn.active });
    }
    match (&game.phase, mv) {
        (Phase::PreRoll, mv) => game.decide_pre_roll(seat, mv, chance, events),
        (Phase::MoveRobber, Move::MoveRobber { hex, steal_from }) => {
            game.decide_robber(seat, *hex, *steal_from, chance, events)?;
            events.push(game.resume());
            Ok(())
        }
        (Phase::MoveRobber, _) => Err(RuleError::WrongPhase("move the robber first")),
        (Phase::RoadBuilding { roads_left }, Move::BuildRoad { edge }) => {
            game.decide_free_road(seat, *edge, *roads_left, events)
        }
        (Phase::RoadBuilding { .. }, _) => Err(RuleError::WrongPhase("place the roads of road building first")),
        (Phase::Main, mv) => game.decide_main(seat, mv, chance, events),
        (Phase::Setup { .. } | Phase::Discard { .. } | Phase::GoldChoice { .. } | Phase::GameOver, _)
        | (Phase::LoseCity { .. } | Phase::DefenderDraw { .. } | Phase::RelocateKnight { .. }, _)
        | (Phase::CardDecision { .. } | Phase::PlaceGiftHarbour { .. } | Phase::PlaceHarbour { .. }, _)
        | (Phase::SpecialBuilding { .. } | Phase::ChooseStealKind { .. } | Phase::StealAny, _) => {
            Err(RuleError::WrongPhase("this move is not part of this phase"))
        }
    }
}

/// Generates all moves `seat` may make now.
fn legal_moves(game: &Game, seat: Seat, moves: &mut Vec<Move>) {
    if game.winner.is_some() || seat.index() >= game.players.len() {
        return;
    }
    match &game.phase {
        Phase::GameOver => {}
        Phase::Setup { seat: placing, step, .. } if *placing == seat => game.setup_moves(*step, moves),
        Phase::Setup { .. } => {}
        Phase::Discard { pending } => game.discard_moves(seat, pending, moves),
        Phase::GoldChoice { pending, source, .. } => game.gold_moves(seat, pending, *source, moves),
        _ if game.rules().extensions.iter().any(|e| e.legal_moves(game, seat, moves)) => {}
        _ if seat != game.turn.active => game.trade_responses(seat, moves),
        Phase::PreRoll => game.pre_roll_moves(seat, moves),
        Phase::MoveRobber => game.robber_moves(seat, moves, |hex, steal_from| Move::MoveRobber { hex, steal_from }),
        Phase::RoadBuilding { .. } => game.free_road_moves(seat, moves),
        Phase::Main => game.main_moves(seat, moves),
        Phase::SpecialBuilding { .. }
        | Phase::LoseCity { .. }
        | Phase::DefenderDraw { .. }
        | Phase::RelocateKnight { .. }
        | Phase::CardDecision { .. }
        | Phase::PlaceGiftHarbour { .. }
        | Phase::PlaceHarbour { .. }
        | Phase::ChooseStealKind { .. }
        | Phase::StealAny => {}
    }
    for extension in &game.rules().extensions {
        extension.more_moves(game, seat, moves);
    }
}

/// Folds one event into the state: the base game's events here, then every extension's
/// `apply` hook, which applies the events its variant owns (and its part of the base game's).
fn apply(game: &mut Game, event: &Event) {
    game.events_applied += 1;
    apply_base(game, event);
    if !game.rules().extensions.is_empty() {
        game.with_rules_apart(|rules, game| {
            for extension in &rules.extensions {
                extension.apply(game, event);
            }
        });
    }
}

/// The base game's events; every other event belongs to an extension.
fn apply_base(game: &mut Game, event: &Event) {
    match event {
        Event::GameStarted { .. } => {}
        // The prepared position replaces the one `game_started` set up; the count of events
        // applied goes on from here.
        Event::PositionSet { position } => {
            if let Ok(prepared) = position.as_ref().clone().position() {
                let applied = game.events_applied;
                *game = prepared;
                game.events_applied = applied;
            }
        }
        Event::PhaseChanged { phase, then } => {
            game.phase = phase.clone();
            game.then.clone_from(then);
        }
        Event::SettlementBuilt { seat, vertex, cost } => game.apply_settlement(*seat, *vertex, cost),
        Event::CityBuilt { seat, vertex, cost } => game.apply_city(*seat, *vertex, cost),
        Event::RoadBuilt { seat, edge, cost } => game.apply_road(*seat, *edge, cost),
        Event::StartingResourcesReceived { seat, resources } | Event::GoldResourcesTaken { seat, resources } => {
            game.receive(*seat, resources)
        }
        Event::DiceRolled { red, white, .. } => game.apply_roll(*red, *white),
        Event::ResourcesProduced { gains, .. } => {
            for gain in gains {
                game.receive(gain.seat, &gain.resources);
            }
        }
        Event::ResourcesDiscarded { seat, resources: Some(resources), .. } => game.pay(*seat, resources),
        Event::RobberMoved { hex, .. } => game.apply_robber(*hex),
        Event::ResourceStolen { thief, victim, resource: Some(resource) } => {
            game.transfer(*victim, *thief, &crate::Resources::of(*resource, 1));
        }
        Event::DevelopmentCardBought { seat, cost, card, .. } => game.apply_card_bought(*seat, cost, *card),
        Event::KnightPlayed { seat } => game.apply_knight(*seat),
        Event::RoadBuildingPlayed { seat } => game.apply_card_played(*seat, crate::DevCard::RoadBuilding),
        Event::YearOfPlentyPlayed { seat, resources } => {
            game.apply_card_played(*seat, crate::DevCard::YearOfPlenty);
            game.receive(*seat, resources);
        }
        Event::MonopolyPlayed { seat, taken, .. } => {
            game.apply_card_played(*seat, crate::DevCard::Monopoly);
            for loss in taken {
                game.transfer(loss.seat, *seat, &loss.resources);
            }
        }
        Event::BankTraded { seat, give, get } => {
            game.pay(*seat, give);
            game.receive(*seat, get);
        }
        Event::TradeOffered { .. }
        | Event::TradeAccepted { .. }
        | Event::TradeDeclined { .. }
        | Event::TradeWithdrawn { .. }
        | Event::TradesExpired { .. }
        | Event::TradeCompleted { .. } => game.apply_trade(event),
        Event::LargestArmyChanged { holder, .. } => game.largest_army = *holder,
        Event::LongestRoadChanged { holder, .. } => game.longest_road = *holder,
        Event::TurnStarted { seat, turn } => game.apply_turn_started(*seat, *turn),
        Event::GameWon { seat, .. } => {
            game.winner = Some(*seat);
            game.phase = Phase::GameOver;
            game.then.clear();
        }
        // An extension's event: its `apply` hook applies it.
        _ => {}
    }
}

impl Game {
    /// The phase to resume once the current decision is made: the first of the interrupted
    /// phases (the main phase if, in a position built by hand, none was recorded).
    pub(crate) fn resume(&self) -> Event {
        match self.then.split_first() {
            Some((next, rest)) => Event::PhaseChanged { phase: next.clone(), then: rest.into() },
            None => Event::PhaseChanged { phase: Phase::Main, then: Phases::new() },
        }
    }

    /// The current phase changes to `phase`; what follows it stays as it is.
    pub(crate) fn continue_with(&self, phase: Phase) -> Event {
        Event::PhaseChanged { phase, then: self.then.clone() }
    }

    /// `phase` interrupts the current one, which resumes once it is done.
    pub(crate) fn interrupt(&self, phase: Phase) -> Event {
        let then = std::iter::once(&self.phase).chain(self.then.iter()).cloned().collect();
        Event::PhaseChanged { phase, then }
    }
}
