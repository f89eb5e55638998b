//! The games and checks behind every ruleset's test: [`play_ruleset`] plays a ruleset's
//! games with the random bot and checks, after every move of every game:
//! - every move `legal_moves` lists is accepted by `decide`; in the exhaustive sample (one
//!   game in [`EXHAUSTIVE_SHARE`]) `decide` accepts exactly the listed moves among a broad
//!   set of candidates for every seat in every state, and a rejected move leaves the state
//!   unchanged;
//! - resources are conserved (bank + hands), development cards never exceed the deck, piece
//!   limits and the distance rule hold, public victory points match the board;
//! - views never show another seat's hand or development cards (sampled);
//!
//! and after each game: redaction hides other seats' discards, cards and steals; the log
//! replays to the live state; the serde snapshot round-trips; the game ended with a winner at
//! the VP target within [`TURN_CAP`].
//!
//! A ruleset is a config generator: game index -> [`GameConfig`]. On top of it, every game
//! varies the rule flags every ruleset shares ([`vary_shared_flags`]), and the test fails
//! unless each of them took both values.

use std::collections::BTreeMap;
use std::time::Instant;

use catan_engine::{
    sim::{Bot, RandomBot},
    state::BuildingKind,
    Bandit, BoardSpec, DevCardsBeforeRoll, Event, FirstPlayer, Game, GameConfig, Move, Resource, Resources, Seat,
    Viewer,
};

/// One game in this many (at least one per ruleset, the first ones) cross-checks every state
/// against the full candidate set (the slow path).
pub const EXHAUSTIVE_SHARE: u64 = 50;
/// Games still running after this turn count as stalled.
pub const TURN_CAP: u32 = 2_000;

/// Plays `games` games of the ruleset `config_for` generates (given the game's index in
/// `0..games`), checks every invariant of each, and fails unless every game was played and
/// finished with a winner and every shared rule flag took both values.
pub fn play_ruleset(ruleset: &str, games: u64, config_for: impl Fn(u64) -> GameConfig) {
    let started = Instant::now();
    let mut coverage = Coverage::default();
    let (mut played, mut finished, mut exhaustive, mut longest) = (0u64, 0u64, 0u64, 0u32);
    let mut capped = Vec::new();
    let exhaustive_games = (games / EXHAUSTIVE_SHARE).max(1);
    for index in 0..games {
        let mut config = config_for(index);
        vary_shared_flags(&mut config, index);
        coverage.record(&config);
        let seed = mix(name_hash(ruleset) ^ index);
        let exhaustive_game = index < exhaustive_games;
        let _context = Context(format!("{ruleset} game {index}, seed {seed}, {config:?}"));
        let vp_target = u32::from(config.victory_target());
        let outcome = play_checked(config, seed, exhaustive_game);
        played += 1;
        exhaustive += u64::from(exhaustive_game);
        longest = longest.max(outcome.turns);
        if outcome.finished {
            finished += 1;
            assert!(outcome.winner_points >= vp_target, "game {index} won with {} VP", outcome.winner_points);
        } else {
            capped.push(index);
        }
    }
    println!(
        "{ruleset}: {played} games ({exhaustive} exhaustive), {finished} finished, longest {longest} turns, \
         {:.1} s; on in: {coverage}",
        started.elapsed().as_secs_f64()
    );
    assert!(played > 0, "{ruleset}: no game was played");
    assert!(capped.is_empty(), "{ruleset}: games {capped:?} hit the turn cap of {TURN_CAP}");
    assert_eq!(finished, played, "{ruleset}: {finished} of {played} games finished");
    coverage.assert_varied(ruleset);
}

/// A random or the beginner board, half of the games each.
pub fn any_board(index: u64) -> BoardSpec {
    if one_in(index, "board", 2) {
        BoardSpec::Beginner
    } else {
        BoardSpec::Random
    }
}

/// One of `options` for game `index`; choices named differently are independent.
pub fn pick<T: Copy>(index: u64, name: &str, options: &[T]) -> T {
    options[(mix(name_hash(name) ^ mix(index)) % options.len() as u64) as usize]
}

/// True for about one game in `n`, independently of choices named differently.
pub fn one_in(index: u64, name: &str, n: u64) -> bool {
    mix(name_hash(name) ^ mix(index)).is_multiple_of(n)
}

/// The rule flags every ruleset varies, at fixed rates; applied on top of the generator's
/// configuration, which leaves them at their defaults.
fn vary_shared_flags(config: &mut GameConfig, index: u64) {
    config.robber_may_enter_desert = !one_in(index, "robber_may_enter_desert", 4);
    config.allow_trade_build_interleaving = !one_in(index, "allow_trade_build_interleaving", 7);
    config.sbp_trade_with_previous_player = !one_in(index, "sbp_trade_with_previous_player", 3);
    if one_in(index, "dev_cards_before_roll", 2) {
        config.dev_cards_before_roll = DevCardsBeforeRoll::Any;
    }
    if one_in(index, "first_player", 5) {
        config.first_player = FirstPlayer::Seat((index % u64::from(config.players)) as u8);
    }
}

/// How often each shared rule flag (and the board) was on over a ruleset's games.
#[derive(Default)]
struct Coverage {
    games: u64,
    on: BTreeMap<&'static str, u64>,
}

impl Coverage {
    /// The flags [`vary_shared_flags`] varies, and `board_random`, which the generator decides.
    fn flags(config: &GameConfig) -> [(&'static str, bool); 6] {
        [
            ("robber_may_enter_desert", config.robber_may_enter_desert),
            ("allow_trade_build_interleaving", config.allow_trade_build_interleaving),
            ("sbp_trade_with_previous_player", config.sbp_trade_with_previous_player),
            ("dev_cards_before_roll_any", config.dev_cards_before_roll == DevCardsBeforeRoll::Any),
            ("first_player_fixed", matches!(config.first_player, FirstPlayer::Seat(_))),
            ("board_random", config.board == BoardSpec::Random),
        ]
    }

    fn record(&mut self, config: &GameConfig) {
        self.games += 1;
        for (flag, on) in Self::flags(config) {
            *self.on.entry(flag).or_default() += u64::from(on);
        }
    }

    /// Fails unless every shared flag was on in some games and off in others.
    fn assert_varied(&self, ruleset: &str) {
        for (flag, &on) in self.on.iter().filter(|(flag, _)| **flag != "board_random") {
            assert!(0 < on && on < self.games, "{ruleset}: {flag} was on in {on} of {} games", self.games);
        }
    }
}

impl std::fmt::Display for Coverage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let on: Vec<String> = self.on.iter().map(|(flag, on)| format!("{flag} {on}/{}", self.games)).collect();
        write!(f, "{}", on.join(", "))
    }
}

/// Names the game being played when one of its checks panics.
struct Context(String);

impl Drop for Context {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("while playing {}", self.0);
        }
    }
}

/// FNV-1a.
fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xCBF2_9CE4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01B3))
}

/// SplitMix64's finaliser.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Candidate moves for `seat` that cover every move kind: legal ones and near misses.
fn candidates(game: &Game, seat: Seat) -> Vec<Move> {
    let board = game.board();
    let mut moves = vec![Move::RollDice, Move::EndTurn, Move::BuyDevelopmentCard, Move::PlayRoadBuilding];
    moves.extend(board.vertices.iter().map(|&vertex| Move::BuildSettlement { vertex }));
    moves.extend(board.vertices.iter().map(|&vertex| Move::BuildCity { vertex }));
    moves.extend(board.edges.iter().map(|&edge| Move::BuildRoad { edge }));
    let others: Vec<Option<Seat>> = std::iter::once(None).chain(game.seats().map(Some)).collect();
    for &hex in &board.hexes {
        for &steal_from in &others {
            moves.push(Move::MoveRobber { hex, steal_from });
            moves.push(Move::PlayKnight { hex, steal_from, bandit: Bandit::Robber });
        }
    }
    for give in Resource::ALL {
        moves.push(Move::PlayMonopoly { resource: give });
        for get in Resource::ALL {
            moves.push(Move::PlayYearOfPlenty { resources: Resources::of(give, 1) + Resources::of(get, 1) });
            for rate in [2, 3, 4, 5] {
                moves.push(Move::TradeWithBank { give: Resources::of(give, rate), get: Resources::of(get, 1) });
            }
        }
        moves.push(Move::PlayYearOfPlenty { resources: Resources::of(give, 1) });
    }
    let hand = *game.player(seat).unwrap().resources();
    let half = hand.total() / 2;
    // A few discards: the legal-size prefix of the hand, and wrong sizes.
    let mut prefix = Resources::ZERO;
    for resource in Resource::ALL {
        let take = hand.get(resource).min(half - prefix.total());
        prefix.set(resource, take);
    }
    moves.push(Move::Discard { resources: prefix });
    moves.push(Move::Discard { resources: hand });
    for offer in game.open_offers() {
        moves.push(Move::AcceptTrade { offer_id: offer.id });
        moves.push(Move::DeclineTrade { offer_id: offer.id });
        moves.push(Move::WithdrawTrade { offer_id: offer.id });
        for with in game.seats() {
            moves.push(Move::ConfirmTrade { offer_id: offer.id, with });
        }
    }
    moves.push(Move::AcceptTrade { offer_id: 999 });
    moves
}

/// `before` is a copy of `game` taken before any move was decided on it.
fn check_agreement(game: &Game, before: &Game, seat: Seat) {
    let legal = game.legal_moves(seat);
    for mv in &legal {
        let result = game.decide(seat, mv, &mut game.chance());
        assert!(result.is_ok(), "listed move {mv:?} for seat {seat} rejected: {result:?} in {:?}", game.phase());
    }
    for (i, mv) in candidates(game, seat).into_iter().enumerate() {
        let listed = legal.contains(&mv);
        let accepted = game.decide(seat, &mv, &mut game.chance()).is_ok();
        assert_eq!(
            listed,
            accepted,
            "seat {seat} move {mv:?}: listed={listed} accepted={accepted} in {:?}",
            game.phase()
        );
        // `decide` takes `&self`, so this can only fail through interior mutability; a sample
        // keeps the (costly) comparison from dominating the run.
        if !accepted && i.is_multiple_of(16) {
            assert_eq!(before, game, "deciding the rejected {mv:?} (or an earlier move) changed the state");
        }
    }
}

fn check_state(game: &Game) {
    // Conservation (B-CMP-5): bank plus hands is 19 of each resource.
    let mut total = *game.bank();
    for seat in game.seats() {
        total += *game.player(seat).unwrap().resources();
    }
    assert_eq!(total, Resources::each(game.config().cards_per_resource()), "resources not conserved");
    // Development cards: deck plus hands plus played never exceeds the deck printed.
    let mut cards = game.development_deck().total();
    for seat in game.seats() {
        let p = game.player(seat).unwrap();
        cards += p.dev_card_count() + p.knights_played_count();
    }
    assert!(cards <= game.config().development_deck().total(), "{cards} development cards");

    let view = game.view(Viewer::Spectator);
    let buildings = &view.board.buildings;
    for seat in game.seats() {
        let p = game.player(seat).unwrap();
        let settlements = buildings.iter().filter(|b| b.seat == seat && b.kind == BuildingKind::Settlement).count();
        let cities = buildings.iter().filter(|b| b.seat == seat && b.kind == BuildingKind::City).count();
        let roads = view.board.roads.iter().filter(|r| r.seat == seat).count();
        // B-CMP-7 piece limits, consistent with the supply.
        assert!(settlements <= 5 && cities <= 4 && roads <= 15);
        assert_eq!(settlements as u32, p.settlements_on_board());
        assert_eq!(cities as u32, p.cities_on_board());
        assert_eq!(roads as u32, p.roads_on_board());
        // B-WIN-2: public points are buildings plus special cards.
        let mut points = settlements as u32 + 2 * cities as u32;
        if game.config().big_river {
            // RIV-6: buildings on the gold mine score extra.
            let on_gold = buildings
                .iter()
                .filter(|b| {
                    b.seat == seat
                        && game.board().vertex(b.vertex).is_some_and(|v| game.board().vertex_on_gold[v as usize])
                })
                .count() as u32;
            points += on_gold * u32::from(game.config().river_gold_bonus_vp);
        }
        points += 2 * u32::from(game.longest_road_holder() == Some(seat));
        points += 2 * u32::from(game.largest_army_holder() == Some(seat));
        assert_eq!(points, game.public_victory_points(seat));
    }
    // B-BLD-4 distance rule.
    for b in buildings {
        for n in b.vertex.adjacent() {
            assert!(game.building_at(n).is_none(), "buildings at {} and {n} are adjacent", b.vertex);
        }
    }
}

fn check_hidden_information(game: &Game) {
    if game.is_over() {
        return;
    }
    for viewer in game.seats() {
        let view = game.view(Viewer::Seat(viewer));
        assert_eq!(view.you, Some(viewer));
        assert_eq!(view.hand.as_ref().map(|h| h.resources), Some(*game.player(viewer).unwrap().resources()));
        assert!(view.seed.is_none());
        for p in &view.players {
            assert!(p.resources.is_none() && p.development_cards.is_none(), "hand of {} leaked", p.seat);
        }
    }
    let spectator = game.view(Viewer::Spectator);
    assert!(spectator.hand.is_none() && spectator.you.is_none());
}

fn check_redaction(events: &[Event], viewer: Seat) {
    for event in events {
        match event.redacted_for(Viewer::Seat(viewer)) {
            Event::ResourcesDiscarded { seat, resources, .. } => assert_eq!(resources.is_some(), seat == viewer),
            Event::DevelopmentCardBought { seat, card, .. } => {
                assert_eq!(card.is_some(), seat == viewer)
            }
            Event::ResourceStolen { thief, victim, resource } => {
                assert_eq!(resource.is_some(), thief == viewer || victim == viewer)
            }
            Event::GameStarted { seed, .. } => assert!(seed.is_none()),
            _ => {}
        }
    }
}

struct Outcome {
    finished: bool,
    winner_points: u32,
    turns: u32,
}

fn play_checked(config: GameConfig, seed: u64, exhaustive: bool) -> Outcome {
    let mut log = Game::start_events(&config, seed).unwrap();
    let mut game = Game::replay(config.clone(), &log).unwrap();
    let mut bot = RandomBot::new(seed ^ 0xB07);
    let mut step = 0u64;
    while !game.is_over() && game.turn_number() <= TURN_CAP {
        let seat = game.waiting_for()[0];
        let legal = game.legal_moves(seat);
        assert!(!legal.is_empty(), "seat {seat} must act but has no legal move in {:?}", game.phase());
        if exhaustive {
            let before = game.clone();
            for s in game.seats() {
                check_agreement(&game, &before, s);
            }
        } else if step.is_multiple_of(7) {
            // Cheap sample: a seat that is not waited on may make no listed move but trades.
            for s in game.seats().filter(|s| !game.waiting_for().contains(s)) {
                assert!(game.legal_moves(s).iter().all(|m| matches!(
                    m,
                    Move::AcceptTrade { .. }
                        | Move::DeclineTrade { .. }
                        | Move::WithdrawTrade { .. }
                        | Move::ConfirmTrade { .. }
                )));
            }
        }
        let mv = &legal[bot.choose(&game, seat, &legal)];
        let events = game.decide(seat, mv, &mut game.chance()).unwrap_or_else(|e| panic!("{mv:?} rejected: {e}"));
        for event in &events {
            game.apply(event);
        }
        log.extend(events);
        check_state(&game);
        if exhaustive || step.is_multiple_of(50) {
            check_hidden_information(&game);
        }
        step += 1;
    }
    for seat in game.seats() {
        check_redaction(&log, seat);
    }
    // The log is the game: replay equals the live state, and so does the serde snapshot.
    let replayed = Game::replay(config, &log).unwrap();
    assert_eq!(replayed, game, "replay differs from the live game");
    let text = serde_json::to_string(&game).unwrap();
    let snapshot: Game = serde_json::from_str(&text).unwrap();
    assert_eq!(snapshot, game, "the serde snapshot differs from the live game");
    let winner_points = game.winner().map_or(0, |w| game.victory_points(w));
    Outcome { finished: game.is_over(), winner_points, turns: game.turn_number() }
}
