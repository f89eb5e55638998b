//! The games and checks behind every ruleset's test: [`play_ruleset`] plays a ruleset's
//! games with the random bot and checks, after every move of every game:
//! - every move `legal_moves` lists is accepted by `decide` (in every state of the exhaustive
//!   sample, every 7th state otherwise); in the exhaustive sample (one game in
//!   [`EXHAUSTIVE_SHARE`], and in every game the deciding seats of the rare C&K decisions: a
//!   city to lose, a defender's deck, a displaced knight's new vertex) `decide` accepts
//!   exactly the listed moves among a broad set of
//!   candidates (every site of the board for the seats the game waits on, every 7th for the
//!   others) for every seat in every state, and a rejected move leaves the state unchanged;
//! - each road, ship, settlement and pirate move was placed as the rules allow in the state
//!   before the move, and every seat's road length is its longest trail (B-LR, SEA-10), with
//!   the card where B-LR-5 puts it;
//! - resources are conserved (bank + hands), development cards never exceed the deck, piece
//!   limits and the distance rule hold, settlements stand on buildable vertices and roads on
//!   edges touching land (B-GEO-9), the robber is on land, public victory points match the
//!   board;
//! - views never show another seat's hand or development cards (sampled);
//! - with Seafarers, the checks of [`crate::seafarers`]: ships, the pirate, fog secrecy and
//!   island bonuses;
//! - with Cities & Knights, the checks of [`crate::cities_knights`]: commodities and progress
//!   cards conserved, knights, walls and improvements within their limits and placed, moved and
//!   paid as the rules allow, barbarians, 7s, and other seats' commodities and progress cards
//!   hidden; outside C&K, no commodity, knight or C&K view anywhere; with both (SEA-15), knights
//!   along ships, the pirate chased by knights and stealing commodities, under both sets of
//!   checks;
//!
//! and after each game: redaction hides other seats' discards, cards, steals and progress
//! cards from every other seat and spectators, and changes nothing else; the log
//! replays to the live state; the serde snapshot round-trips; the game ended with a winner at
//! the VP target (`Game::vp_target`) within [`TURN_CAP`].
//!
//! A ruleset is a config generator: game index -> [`GameConfig`]. On top of it, every game
//! varies the rule flags every ruleset shares ([`vary_shared_flags`]), and the test fails
//! unless each of them (and each Seafarers option the generator varies) took both values, and
//! unless the games did what their rules add: Seafarers' ships, pirate, fog and bonuses, every
//! C&K event and progress card, and with both (SEA-15) a knight chasing the pirate, the pirate
//! stealing a commodity and a knight moving where only a ship leads (counted and printed with
//! the events).

use std::collections::BTreeMap;
use std::time::Instant;

use catan_engine::{
    board::{Corner, EdgeId, HexCoord, Side, VertexId},
    sim::{Bot, RandomBot},
    state::BuildingKind,
    Bandit, BoardSpec, Cards, Commodities, Commodity, DevCardsBeforeRoll, Event, FirstPlayer, Game, GameConfig,
    IslandDefinition, Move, Phase, ProgressCard, Resource, Resources, ScenarioId, Seat, SetupStep, Track,
    VictoryCondition, Viewer, WONDER_STAGES,
};

use crate::cities_knights::{self, CitiesKnights, SeaFeats};
use crate::seafarers::{self, Seafarers};

/// One game in this many (at least one per ruleset, the first ones) cross-checks every state
/// against the full candidate set (the slow path).
pub const EXHAUSTIVE_SHARE: u64 = 50;
/// Games still running after this turn count as stalled. Random bots take long on some
/// Seafarers maps: 2-player Four Islands ran to 2,606 turns over 400 games (the base game
/// stays under 1,100).
pub const TURN_CAP: u32 = 4_000;

/// Plays `games` games of the ruleset `config_for` generates (given the game's index in
/// `0..games`), checks every invariant of each, and fails unless every game was played and
/// finished with a winner and every shared rule flag took both values.
pub fn play_ruleset(ruleset: &str, games: u64, config_for: impl Fn(u64) -> GameConfig) {
    let started = Instant::now();
    let mut coverage = Coverage::default();
    let (mut played, mut finished, mut exhaustive, mut longest, mut turns) = (0u64, 0u64, 0u64, 0u32, 0u64);
    let mut capped = Vec::new();
    let mut events: BTreeMap<&'static str, u64> = BTreeMap::new();
    let mut cards_played: BTreeMap<ProgressCard, u64> = BTreeMap::new();
    let mut feats = SeaFeats::default();
    let (mut seafarers, mut fog, mut bonus, mut wonders, mut tribe) = (false, false, false, false, false);
    let mut cloth = false;
    let (mut pirate_islands, mut single_lanes) = (false, false);
    let mut cities_and_knights = false;
    let exhaustive_games = (games / EXHAUSTIVE_SHARE).max(1);
    for index in 0..games {
        let mut config = config_for(index);
        vary_shared_flags(&mut config, index);
        coverage.record(&config);
        seafarers |= config.seafarers;
        cities_and_knights |= config.cities_and_knights;
        fog |= config.scenario == Some(ScenarioId::FogIslands);
        wonders |= config.scenario == Some(ScenarioId::Wonders);
        // FTR-4/5: one island to settle, so no foreign island to earn a bonus on.
        // PIR-23: no island bonus on The Pirate Islands.
        bonus |= config.island_bonus_vp != Some(0)
            && !matches!(
                config.scenario,
                Some(ScenarioId::ForgottenTribe | ScenarioId::ClothForCatan | ScenarioId::PirateIslands)
            )
            && (config.island_bonus_mode.is_some()
                || config.scenario.is_some_and(|s| {
                    !matches!(s, ScenarioId::FogIslands | ScenarioId::ForgottenTribe | ScenarioId::ClothForCatan)
                }));
        tribe |= config.scenario == Some(ScenarioId::ForgottenTribe);
        cloth |= config.scenario == Some(ScenarioId::ClothForCatan);
        pirate_islands |= config.scenario == Some(ScenarioId::PirateIslands);
        // Appendix A: the 5-6 player lanes are single chains of edges, so no ship ever has
        // another edge to move to (SEA-6 with PIR-7/8).
        single_lanes |= config.scenario == Some(ScenarioId::PirateIslands) && config.players >= 5;
        let seed = mix(name_hash(ruleset) ^ index);
        let exhaustive_game = index < exhaustive_games;
        let _context = Context(format!("{ruleset} game {index}, seed {seed}, {config:?}"));
        let outcome = play_checked(config, seed, exhaustive_game);
        for (kind, count) in &outcome.events {
            *events.entry(kind).or_default() += count;
        }
        for (card, count) in &outcome.cards_played {
            *cards_played.entry(*card).or_default() += count;
        }
        feats.pirate_chases += outcome.feats.pirate_chases;
        feats.pirate_commodity_thefts += outcome.feats.pirate_commodity_thefts;
        feats.knight_moves_across_ships += outcome.feats.knight_moves_across_ships;
        feats.displacements_across_ships += outcome.feats.displacements_across_ships;
        played += 1;
        exhaustive += u64::from(exhaustive_game);
        longest = longest.max(outcome.turns);
        turns += u64::from(outcome.turns);
        if outcome.finished {
            finished += 1;
            check_victory_condition(&outcome, index);
        } else {
            capped.push(index);
        }
    }
    // What the games exercised of Seafarers (SEA-1, SEA-6, SEA-7, SEA-9, SEA-12, SEA-13).
    let sea_events = [
        "ship_built",
        "ship_moved",
        "pirate_moved",
        "fog_revealed",
        "island_bonus_earned",
        "wonder_claimed",
        "wonder_stage_built",
        "gift_claimed",
        "victory_point_gifted",
        "development_card_gifted",
        "harbour_taken",
        "harbour_placed",
        "village_connected",
        "cloth_received",
        "cloth_stolen",
        "village_exhausted",
        "pirate_fleet_moved",
        "fleet_attack",
        "ship_became_warship",
        "fortress_attacked",
        "fortress_conquered",
    ];
    let shown: Vec<&str> = match (seafarers, cities_and_knights) {
        (true, true) => sea_events.iter().chain(&CK_SHOWN).copied().collect(),
        (true, false) => sea_events.to_vec(),
        (false, true) => CK_SHOWN.to_vec(),
        (false, false) => Vec::new(),
    };
    let mut sea_events: Vec<String> =
        shown.iter().map(|kind| format!("{kind} {}", events.get(kind).copied().unwrap_or(0))).collect();
    // SEA-15: what only the combination does.
    if seafarers && cities_and_knights {
        sea_events.extend([
            format!("pirate chased by a knight {}", feats.pirate_chases),
            format!("commodity stolen by the pirate {}", feats.pirate_commodity_thefts),
            format!("knight moved across ships {}", feats.knight_moves_across_ships),
            format!("knight displacing or relocated across ships {}", feats.displacements_across_ships),
        ]);
    }
    println!(
        "{ruleset}: {played} games ({exhaustive} exhaustive), {finished} finished, {turns} turns, longest \
         {longest}, {:.1} s; {}on in: {coverage}",
        started.elapsed().as_secs_f64(),
        sea_events.iter().map(|e| format!("{e}, ")).collect::<String>()
    );
    assert!(played > 0, "{ruleset}: no game was played");
    if seafarers {
        let mut expected = vec!["ship_built", "resource_stolen"];
        expected.extend((!single_lanes).then_some("ship_moved"));
        // WON-6: no pirate in Wonders of Catan; WON-8/10: wonders claimed and built instead.
        if wonders {
            expected.extend(["wonder_claimed", "wonder_stage_built"]);
        } else if pirate_islands {
            // PIR-2, PIR-11..19: a fleet instead of the pirate; warships, attacks, conquests.
            expected.extend([
                "pirate_fleet_moved",
                "fleet_attack",
                "ship_became_warship",
                "fortress_attacked",
                "fortress_conquered",
            ]);
        } else {
            expected.push("pirate_moved");
        }
        expected.extend(fog.then_some("fog_revealed"));
        // FTR-7..10: every kind of gift claimed somewhere.
        if tribe {
            expected.extend(["gift_claimed", "victory_point_gifted", "development_card_gifted", "harbour_taken"]);
        }
        // CLV-6..14: connections, cloth of both kinds and the end by exhaustion somewhere.
        if cloth {
            expected.extend(["village_connected", "cloth_received", "cloth_stolen", "village_exhausted"]);
        }
        expected.extend(bonus.then_some("island_bonus_earned"));
        for kind in expected {
            assert!(events.contains_key(kind), "{ruleset}: no game had a {kind} event");
        }
    }
    if cities_and_knights {
        for kind in CK_EVENTS {
            assert!(events.contains_key(kind), "{ruleset}: no game had a {kind} event");
        }
        // CK-PC-7: every card but the two VP cards, which are never played, was played.
        let plays: Vec<String> = ProgressCard::ALL
            .iter()
            .filter(|c| !c.is_victory_point())
            .map(|c| format!("{c:?} {}", cards_played.get(c).copied().unwrap_or(0)))
            .collect();
        println!("{ruleset}: progress cards played: {}", plays.join(", "));
        for card in ProgressCard::ALL.iter().filter(|c| !c.is_victory_point()) {
            assert!(cards_played.contains_key(card), "{ruleset}: no game played a {card:?}");
        }
    }
    if seafarers && cities_and_knights {
        // SEA-15: the knights' part of the sea happened, so the checks of it ran.
        assert!(feats.pirate_chases > 0, "{ruleset}: no knight chased the pirate");
        assert!(feats.pirate_commodity_thefts > 0, "{ruleset}: the pirate stole no commodity");
        assert!(feats.knight_moves_across_ships > 0, "{ruleset}: no knight moved across a ship");
    }
    assert!(capped.is_empty(), "{ruleset}: games {capped:?} hit the turn cap of {TURN_CAP}");
    assert_eq!(finished, played, "{ruleset}: {finished} of {played} games finished");
    coverage.assert_varied(ruleset);
}

/// What every C&K ruleset's games must have done between them (CK-PROD, CK-7, CK-IMP, CK-EVT,
/// CK-KNT, CK-WALL, CK-BAR).
const CK_EVENTS: [&str; 17] = [
    "commodities_produced",
    "cards_discarded",
    "commodity_stolen",
    "cards_traded_with_bank",
    "improvement_built",
    "progress_card_drawn",
    "knight_recruited",
    "knight_promoted",
    "knight_activated",
    "knight_moved",
    "knight_displaced",
    "knight_relocated",
    "robber_chased",
    "city_wall_built",
    "barbarians_attacked",
    "defender_of_catan",
    "city_pillaged",
];

/// The C&K events shown after a ruleset's games: the required ones, and a displaced knight
/// with nowhere to go (CK-KNT-7), too rare to require of every player count.
const CK_SHOWN: [&str; 18] = {
    let mut shown = ["knight_returned_to_supply"; 18];
    let mut i = 0;
    while i < CK_EVENTS.len() {
        shown[i] = CK_EVENTS[i];
        i += 1;
    }
    shown
};

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
    /// The flags [`vary_shared_flags`] varies, `board_random`, which the generator decides,
    /// and with Seafarers the options a Seafarers generator must vary.
    fn flags(config: &GameConfig) -> Vec<(&'static str, bool)> {
        let mut flags = vec![
            ("robber_may_enter_desert", config.robber_may_enter_desert),
            ("allow_trade_build_interleaving", config.allow_trade_build_interleaving),
            ("sbp_trade_with_previous_player", config.sbp_trade_with_previous_player),
            ("dev_cards_before_roll_any", config.dev_cards_before_roll == DevCardsBeforeRoll::Any),
            ("first_player_fixed", matches!(config.first_player, FirstPlayer::Seat(_))),
        ];
        if config.seafarers {
            flags.extend([
                ("island_bonus_mode_set", config.island_bonus_mode.is_some()),
                ("island_bonus_vp_set", config.island_bonus_vp.is_some()),
                ("island_bonus_vp_0", config.island_bonus_vp == Some(0)),
                ("islands_scenario_land_areas", config.islands == IslandDefinition::ScenarioLandAreas),
                ("forbid_adjacent_red_numbers", config.forbid_adjacent_red_numbers),
            ]);
        } else {
            flags.push(("board_random", config.board == BoardSpec::Random));
        }
        if config.cities_and_knights {
            flags.extend([
                ("robber_waits_for_first_attack", config.robber_waits_for_first_attack),
                ("barbarian_steps_not_7", config.barbarian_steps != 7),
            ]);
        }
        flags
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

/// Names the game being played (or the move, or event) when one of its checks panics.
pub struct Context(pub String);

impl Drop for Context {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("while playing {}", self.0);
        }
    }
}

/// A [`Context`] whose text is made only when a check panics (for what runs on every move).
pub struct LazyContext<F: Fn() -> String>(pub F);

impl<F: Fn() -> String> Drop for LazyContext<F> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("while playing {}", (self.0)());
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
/// A seat the game does not wait on gets every `stride`-th site of the board only (all of
/// them are refused for the same reason), which keeps 6-seat Seafarers maps affordable.
fn candidates(game: &Game, seat: Seat, stride: usize) -> Vec<Move> {
    let board = game.board();
    let mut moves = vec![Move::RollDice, Move::EndTurn, Move::BuyDevelopmentCard, Move::PlayRoadBuilding];
    moves.extend(board.vertices.iter().step_by(stride).map(|&vertex| Move::BuildSettlement { vertex }));
    moves.extend(board.vertices.iter().step_by(stride).map(|&vertex| Move::BuildCity { vertex }));
    moves.extend(board.edges.iter().step_by(stride).map(|&edge| Move::BuildRoad { edge }));
    moves.extend(board.edges.iter().step_by(stride).map(|&edge| Move::BuildShip { edge }));
    ship_moves(game, seat, stride, &mut moves);
    let others: Vec<Option<Seat>> = std::iter::once(None).chain(game.seats().map(Some)).collect();
    for &hex in board.hexes.iter().step_by(stride).chain([&UNKNOWN_HEX]) {
        for &steal_from in &others {
            moves.push(Move::MoveRobber { hex, steal_from });
            moves.push(Move::PlayKnight { hex, steal_from, bandit: Bandit::Robber });
            moves.push(Move::MovePirate { hex, steal_from });
            moves.push(Move::PlayKnight { hex, steal_from, bandit: Bandit::Pirate });
        }
    }
    moves.push(Move::BuildRoad { edge: UNKNOWN_EDGE });
    moves.push(Move::BuildShip { edge: UNKNOWN_EDGE });
    gold_choices(game, seat, &mut moves);
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
    if game.config().cities_and_knights {
        cities_knights_moves(game, seat, stride, &mut moves);
    }
    moves
}

const UNKNOWN_HEX: HexCoord = HexCoord { q: 40, r: 40 };
const UNKNOWN_EDGE: EdgeId = EdgeId { hex: UNKNOWN_HEX, side: Side::E };
const UNKNOWN_VERTEX: VertexId = VertexId { hex: UNKNOWN_HEX, corner: Corner::N };

/// Cities & Knights moves (CK-7, CK-TRD, CK-IMP, CK-KNT, CK-WALL, CK-BAR): on every site of
/// the board (every `stride`-th) and the seat's knights, from every vertex its roads reach to
/// every vertex its roads touch; bank trades of each kind at every rate; a discard of the
/// count owed with and without commodities, and wrong sizes.
fn cities_knights_moves(game: &Game, seat: Seat, stride: usize, moves: &mut Vec<Move>) {
    let board = game.board();
    // CK-MET-1/2: an improvement names a city exactly when its level brings the metropolis:
    // every city on the board (others' too, and with a metropolis), an unknown vertex, none.
    let cities: Vec<VertexId> = board
        .vertices
        .iter()
        .copied()
        .filter(|v| game.building_at(*v).is_some_and(|b| b.kind == BuildingKind::City))
        .chain([UNKNOWN_VERTEX])
        .collect();
    for track in Track::ALL {
        moves.push(Move::BuildImprovement { track, city: None });
        for &city in &cities {
            moves.push(Move::BuildImprovement { track, city: Some(city) });
        }
        moves.push(Move::ChooseProgressDeck { track });
    }
    let own: Vec<VertexId> = game.knights().iter().filter(|k| k.seat == seat).map(|k| k.vertex).collect();
    let mut sites: Vec<VertexId> = board.vertices.iter().step_by(stride).copied().collect();
    sites.extend(own.iter().copied().chain([UNKNOWN_VERTEX]));
    for &vertex in &sites {
        moves.push(Move::RecruitKnight { vertex });
        moves.push(Move::PromoteKnight { vertex });
        moves.push(Move::ActivateKnight { vertex });
        moves.push(Move::BuildCityWall { vertex });
        moves.push(Move::ChooseCityToLose { vertex });
        moves.push(Move::RelocateKnight { to: vertex });
    }
    // Knight actions: from the seat's knights, an opponent's and an empty vertex, to every
    // vertex beside the seat's roads and ships (which holds every target, SEA-15) and every
    // knight.
    let touching: Vec<VertexId> = board
        .vertices
        .iter()
        .copied()
        .filter(|v| v.edges().iter().any(|&e| cities_knights::route(game, seat, e)))
        .chain(game.knights().iter().map(|k| k.vertex))
        .chain([UNKNOWN_VERTEX])
        .collect();
    let mut sources = own.clone();
    sources.extend(game.knights().iter().find(|k| k.seat != seat).map(|k| k.vertex));
    sources.extend(board.vertices.iter().copied().find(|&v| game.knight_at(v).is_none()));
    for &from in &sources {
        for &to in touching.iter().step_by(stride) {
            moves.push(Move::MoveKnight { from, to });
            moves.push(Move::DisplaceKnight { from, to });
        }
    }
    let others: Vec<Option<Seat>> = std::iter::once(None).chain(game.seats().map(Some)).collect();
    let hexes = board.hexes.iter().step_by(stride).copied().chain(game.robber_hex()).chain([UNKNOWN_HEX]);
    for hex in hexes {
        for &knight in &sources {
            for &steal_from in &others {
                for bandit in [Bandit::Robber, Bandit::Pirate] {
                    moves.push(Move::ChaseRobber { knight, hex, steal_from, bandit });
                }
            }
        }
    }
    // CK-TRD-1/2: identical cards of one kind at each rate for one card of another.
    let kinds: Vec<Cards> = Resource::ALL
        .into_iter()
        .map(|r| Cards::of_resources(Resources::of(r, 1)))
        .chain(Commodity::ALL.into_iter().map(|c| Cards::of_commodities(Commodities::of(c, 1))))
        .collect();
    let times = |cards: &Cards, n: u32| {
        let mut out = *cards;
        for r in Resource::ALL {
            out.resources.set(r, cards.resources.get(r) * n);
        }
        for c in Commodity::ALL {
            out.commodities.set(c, cards.commodities.get(c) * n);
        }
        out
    };
    // Resource-only trades too: `decide` refuses them (`no_commodity_named`), and
    // `legal_moves` lists them as `trade_with_bank` only.
    for give in &kinds {
        for get in kinds.iter().filter(|k| *k != give) {
            for rate in [2, 3, 4] {
                moves.push(Move::TradeCardsWithBank { give: times(give, rate), get: *get });
            }
        }
    }
    // CK-7-1: the count owed (or half the hand) taken commodities first and resources first,
    // one card too many, and the whole hand, each naming a commodity.
    let hand = game.hand_cards(seat);
    let owed = match game.phase() {
        Phase::Discard { pending } => pending.iter().find(|p| p.seat == seat).map_or(0, |p| p.count),
        _ => hand.total() / 2,
    };
    for commodities_first in [true, false] {
        for count in [owed, owed + 1] {
            let mut cards = Cards::default();
            let mut left = count;
            let take_commodities = |cards: &mut Cards, left: &mut u32| {
                for c in Commodity::ALL {
                    let n = hand.commodities.get(c).min(*left);
                    cards.commodities.set(c, n);
                    *left -= n;
                }
            };
            if commodities_first {
                take_commodities(&mut cards, &mut left);
            }
            for r in Resource::ALL {
                let n = hand.resources.get(r).min(left);
                cards.resources.set(r, n);
                left -= n;
            }
            if !commodities_first {
                take_commodities(&mut cards, &mut left);
            }
            // Resources alone too: listed as `discard` only, and refused as `discard_cards`.
            moves.push(Move::DiscardCards { cards });
        }
    }
    if !hand.commodities.is_empty() {
        moves.push(Move::DiscardCards { cards: hand });
    }
    cities_knights::trade_card_moves(game, seat, stride, moves);
}

/// Ship moves (SEA-6): from each of the seat's ships, an opponent's ship and an empty edge,
/// to every edge beside the seat's buildings or ships (which holds every legal target), an
/// edge far off and an unknown one.
fn ship_moves(game: &Game, seat: Seat, stride: usize, moves: &mut Vec<Move>) {
    let board = game.board();
    let own = |e: usize| game.ship_index(e as u16) == Some(seat);
    let mut near = vec![false; board.vertices.len()];
    for (e, ends) in board.edge_vertices.iter().enumerate() {
        if own(e) {
            for &v in ends {
                near[v as usize] = true;
            }
        }
    }
    for (v, near) in near.iter_mut().enumerate() {
        *near |= game.building_index(v as u16).is_some_and(|b| b.seat == seat);
    }
    let mut targets: Vec<EdgeId> = (0..board.edges.len())
        .filter(|&e| board.edge_vertices[e].iter().any(|&v| near[v as usize]))
        .map(|e| board.edges[e])
        .collect();
    targets.extend([board.edges[0], board.edges[board.edges.len() - 1], UNKNOWN_EDGE]);
    let mut sources: Vec<EdgeId> = (0..board.edges.len()).filter(|&e| own(e)).map(|e| board.edges[e]).collect();
    let foreign = (0..board.edges.len()).find(|&e| game.ship_index(e as u16).is_some_and(|s| s != seat));
    let empty = (0..board.edges.len()).find(|&e| game.ship_index(e as u16).is_none() && board.edge_is_sea[e]);
    sources.extend(foreign.into_iter().chain(empty).map(|e| board.edges[e]));
    sources.push(UNKNOWN_EDGE);
    for &from in &sources {
        moves.extend(targets.iter().step_by(stride).map(|&to| Move::MoveShip { from, to }));
    }
}

/// Gold of free choice (RIV-5, SEA-9, SEA-13): each way to take what the seat owes of one or
/// two kinds, one card too many and too few; one card when nothing is owed.
fn gold_choices(game: &Game, seat: Seat, moves: &mut Vec<Move>) {
    let owed = match game.phase() {
        Phase::GoldChoice { pending, .. } => pending.iter().find(|p| p.seat == seat).map_or(0, |p| p.cards()),
        _ => 0,
    };
    if owed == 0 {
        moves.push(Move::ChooseGoldResources { resources: Resources::of(Resource::Lumber, 1) });
        return;
    }
    for a in Resource::ALL {
        moves.push(Move::ChooseGoldResources { resources: Resources::of(a, owed) });
        moves.push(Move::ChooseGoldResources { resources: Resources::of(a, owed + 1) });
        moves.push(Move::ChooseGoldResources { resources: Resources::of(a, owed - 1) });
        for b in Resource::ALL.into_iter().filter(|&b| b != a) {
            moves.push(Move::ChooseGoldResources { resources: Resources::of(a, owed - 1) + Resources::of(b, 1) });
        }
    }
}

/// `before` is a copy of `game` taken before any move was decided on it.
fn check_agreement(game: &Game, before: &Game, seat: Seat) {
    let legal = game.legal_moves(seat);
    for mv in &legal {
        let result = game.decide(seat, mv, &mut game.chance());
        assert!(result.is_ok(), "listed move {mv:?} for seat {seat} rejected: {result:?} in {:?}", game.phase());
    }
    // The listed moves by kind: the candidates run to thousands on a Seafarers map.
    let mut by_kind: BTreeMap<&str, Vec<&Move>> = BTreeMap::new();
    for mv in &legal {
        by_kind.entry(mv.kind()).or_default().push(mv);
    }
    let stride = if game.waiting_for().contains(&seat) { 1 } else { 7 };
    let candidates = candidates(game, seat, stride);
    // About 64 comparisons per seat and state, at least every 16th candidate.
    let compare_every = (candidates.len() / 64).max(16);
    for (i, mv) in candidates.into_iter().enumerate() {
        let listed = by_kind.get(mv.kind()).is_some_and(|same| same.contains(&&mv));
        let accepted = game.decide(seat, &mv, &mut game.chance()).is_ok();
        assert_eq!(
            listed,
            accepted,
            "seat {seat} move {mv:?}: listed={listed} accepted={accepted} in {:?}",
            game.phase()
        );
        // `decide` takes `&self`, so this can only fail through interior mutability; a sample
        // keeps the (costly) comparison from dominating the run.
        if !accepted && i.is_multiple_of(compare_every) {
            assert_eq!(before, game, "deciding the rejected {mv:?} (or an earlier move) changed the state");
        }
    }
    assert_eq!(before, game, "deciding a move of seat {seat} changed the state");
}

/// What the checks of one game read often: fixed by its configuration.
struct Facts {
    cards_per_resource: u32,
    development_cards: u32,
}

impl Facts {
    fn of(config: &GameConfig) -> Facts {
        Facts { cards_per_resource: config.cards_per_resource(), development_cards: config.development_deck().total() }
    }
}

fn check_state(game: &Game, facts: &Facts, sea: Option<&Seafarers>, ck: Option<&CitiesKnights>) {
    // Conservation (B-CMP-5): bank plus hands is 19 of each resource.
    let mut total = *game.bank();
    for seat in game.seats() {
        total += *game.player(seat).unwrap().resources();
    }
    assert_eq!(total, Resources::each(facts.cards_per_resource), "resources not conserved");
    // Development cards: deck plus hands plus played never exceeds the deck printed.
    let mut cards = game.development_deck().total();
    for seat in game.seats() {
        let p = game.player(seat).unwrap();
        cards += p.dev_card_count() + p.knights_played_count();
    }
    assert!(cards <= facts.development_cards, "{cards} development cards");

    let board = game.board();
    let view = game.view(Viewer::Spectator);
    let buildings = &view.board.buildings;
    for seat in game.seats() {
        let p = game.player(seat).unwrap();
        let settlements = buildings.iter().filter(|b| b.seat == seat && b.kind == BuildingKind::Settlement).count();
        let cities = buildings.iter().filter(|b| b.seat == seat && b.kind == BuildingKind::City).count();
        let roads = view.board.roads.iter().filter(|r| r.seat == seat).count();
        // B-CMP-7 piece limits, consistent with the supply; CK-BAR-8: a pillaged city whose
        // owner had no settlement piece stands as a settlement without one.
        let pieceless = ck.map_or(0, |ck| ck.pieceless(seat));
        assert!(p.settlements_on_board() <= 5 && cities <= 4 && roads <= 15);
        assert_eq!(settlements as u32, p.settlements_on_board() + pieceless);
        assert_eq!(cities as u32, p.cities_on_board());
        assert_eq!(roads as u32, p.roads_on_board());
        if sea.is_none() {
            assert!(view.board.ships.is_empty() && p.pieces_left().ships == 0, "ships outside Seafarers");
        }
        // B-WIN-2: public points are buildings plus special cards.
        let mut points = settlements as u32 + 2 * cities as u32;
        if game.config().big_river {
            // RIV-6: buildings on the gold mine score extra.
            let on_gold = buildings
                .iter()
                .filter(|b| b.seat == seat && board.vertex(b.vertex).is_some_and(|v| board.vertex_on_gold[v as usize]))
                .count() as u32;
            points += on_gold * u32::from(game.config().river_gold_bonus_vp);
        }
        // SEA-12: island bonuses; CK-EVT-3, CK-BAR-6: VP progress cards and Defender cards.
        points += sea.map_or(0, |sea| sea.bonus_points(seat));
        points += ck.map_or(0, |ck| ck.points(seat));
        points += 2 * u32::from(game.longest_road_holder() == Some(seat));
        points += 2 * u32::from(game.largest_army_holder() == Some(seat));
        assert_eq!(points, game.public_victory_points(seat));
    }
    for b in buildings {
        // B-BLD-4 distance rule.
        for n in b.vertex.adjacent() {
            assert!(game.building_at(n).is_none(), "buildings at {} and {n} are adjacent", b.vertex);
        }
        // B-GEO-9: on a vertex that touches land.
        // PIR-6, PIR-19: a seat's lone vertex and conquered fortress on the pirate islands.
        let v = board.vertex(b.vertex).expect("a building on the board");
        let pirate_site = sea.is_some_and(|sea| sea.pirate_islands_site(b.seat, b.vertex));
        assert!(
            board.vertex_is_buildable[v as usize] || pirate_site,
            "building on {}, which touches no land",
            b.vertex
        );
    }
    // B-GEO-9: roads on edges touching land.
    for road in &view.board.roads {
        let e = board.edge(road.edge).expect("a road on the board");
        assert!(board.edge_is_land[e as usize], "road on {}, which touches no land", road.edge);
    }
    // B-ROB-2, SEA-7: the robber on land (or off the board, RIV-7 and some scenarios).
    if let Some(robber) = game.robber_hex() {
        let h = board.hex(robber).expect("the robber on the board");
        assert!(board.is_land_hex(h), "the robber on {robber}, which is not land");
    }
    if let Some(sea) = sea {
        sea.check_state(game);
    } else {
        assert!(game.pirate_hex().is_none(), "a pirate outside Seafarers");
    }
    if let Some(ck) = ck {
        ck.check_state(game, &view);
    } else {
        // No commodity, knight, barbarian or progress card outside C&K.
        assert!(game.commodity_bank().is_empty(), "a commodity bank outside C&K");
        for seat in game.seats() {
            assert!(game.player(seat).unwrap().commodities().is_empty(), "commodities outside C&K");
            assert!(game.progress_cards(seat).is_empty(), "progress cards outside C&K");
        }
        assert!(game.knights().is_empty() && game.barbarian_position() == 0, "knights or barbarians outside C&K");
        assert!(view.cities_and_knights.is_none() && view.commodity_bank.is_none());
    }
}

/// B-BLD-3, B-BLD-5, B-SET-4, SEA-3, SEA-4, CK-KNT-9: each road and settlement of `seat`'s move was
/// placed where the rules allow it in the state before the move (`prior`).
fn check_placements(prior: &Game, seat: Seat, events: &[Event]) {
    let board = prior.board();
    let setup_settlement = match prior.phase() {
        Phase::Setup { step: SetupStep::PlaceRoad { settlement }, .. } => Some(*settlement),
        _ => None,
    };
    for event in events {
        match *event {
            Event::RoadBuilt { seat: by, edge, .. } => {
                assert_eq!(by, seat, "{event:?} by another seat than the mover");
                let e = board.edge(edge).expect("a road on the board");
                assert!(prior.road_index(e).is_none() && prior.ship_index(e).is_none(), "{edge} was taken");
                match setup_settlement {
                    // B-SET-4: beside the settlement just placed.
                    Some(settlement) => assert!(edge.endpoints().contains(&settlement), "setup road {edge}"),
                    // B-BLD-3, SEA-3, CK-KNT-9: from an own building, or continuing an own road
                    // (never a ship) at a vertex no opponent's building or knight holds.
                    None => assert!(
                        edge.endpoints().iter().any(|&x| match prior.building_at(x) {
                            Some(b) => b.seat == seat,
                            None => {
                                prior.knight_at(x).is_none_or(|k| k.seat == seat)
                                    && x.edges().iter().any(|&o| o != edge && prior.road_at(o) == Some(seat))
                            }
                        }),
                        "road {edge} does not connect to {seat}'s network (B-BLD-3, SEA-3)"
                    ),
                }
            }
            // CK-KNT-9: no building on a knight.
            Event::SettlementBuilt { vertex, .. } | Event::CityBuilt { vertex, .. }
                if prior.knight_at(vertex).is_some() =>
            {
                panic!("{event:?} on the knight {:?}", prior.knight_at(vertex))
            }
            Event::SettlementBuilt { vertex, .. } if !matches!(prior.phase(), Phase::Setup { .. }) => {
                // B-BLD-5, SEA-4: beside an own road or ship.
                let connected =
                    vertex.edges().iter().any(|&e| prior.road_at(e) == Some(seat) || prior.ship_at(e) == Some(seat));
                assert!(connected, "settlement {vertex} touches no road or ship of {seat}");
            }
            _ => {}
        }
    }
}

/// B-LR-1/2, SEA-10, CK-KNT-9: the longest trail of `seat`'s roads and ships, by exhaustive search: no
/// edge twice, never through an opponent's building (or knight), from a road to a ship or back only at
/// the seat's own building.
fn trail_length(game: &Game, seat: Seat) -> u32 {
    let board = game.board();
    // Each own edge: whether it is a ship.
    let own: Vec<Option<bool>> = (0..board.edges.len() as u16)
        .map(|e| match (game.road_index(e), game.ship_index(e)) {
            (Some(s), _) if s == seat => Some(false),
            (_, Some(s)) if s == seat => Some(true),
            _ => None,
        })
        .collect();
    fn walk(game: &Game, own: &[Option<bool>], used: &mut [bool], seat: Seat, at: u16, ship: bool) -> u32 {
        let board = game.board();
        let building = game.building_index(at);
        // B-LR-2, CK-KNT-9: a trail may end at an opponent's building or knight, not pass it.
        let knight = || game.knight_at(board.vertices[at as usize]).is_some_and(|k| k.seat != seat);
        if building.is_some_and(|b| b.seat != seat) || knight() {
            return 0;
        }
        let junction = building.is_some();
        let mut best = 0;
        for e in board.edges_of(at) {
            let Some(next_ship) = own[e as usize] else { continue };
            if used[e as usize] || (next_ship != ship && !junction) {
                continue;
            }
            used[e as usize] = true;
            best = best.max(1 + walk(game, own, used, seat, board.other_end(e, at), next_ship));
            used[e as usize] = false;
        }
        best
    }
    let mut used = vec![false; own.len()];
    let mut best = 0;
    for (e, kind) in own.iter().enumerate() {
        let Some(ship) = *kind else { continue };
        for &from in &board.edge_vertices[e] {
            used[e] = true;
            best = best.max(1 + walk(game, &own, &mut used, seat, board.other_end(e as u16, from), ship));
            used[e] = false;
        }
    }
    best
}

/// B-LR-1..5, SEA-10: every seat's length is the longest trail, and the card lies with a
/// seat of the greatest length, at least 5, or is set aside when nobody has 5 or several tie.
fn check_longest_road(game: &Game) {
    let lengths: Vec<u32> = game.seats().map(|seat| trail_length(game, seat)).collect();
    for seat in game.seats() {
        assert_eq!(game.road_length(seat), lengths[seat.index()], "{seat}'s road length");
    }
    let longest = lengths.iter().copied().max().unwrap_or(0);
    if !game.longest_road_in_play() {
        assert_eq!(game.longest_road_holder(), None, "WON-7: nobody holds the card");
        return;
    }
    match game.longest_road_holder() {
        Some(holder) => assert!(
            lengths[holder.index()] == longest && longest >= 5,
            "{holder} holds Longest Road with {} of {lengths:?}",
            lengths[holder.index()]
        ),
        None => assert!(
            longest < 5 || lengths.iter().filter(|&&l| l == longest).count() > 1,
            "nobody holds Longest Road with lengths {lengths:?}"
        ),
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
            if !game.config().cities_and_knights {
                assert!(p.commodities.is_none() && p.commodity_count.is_none(), "commodities outside C&K");
            }
        }
    }
    let spectator = game.view(Viewer::Spectator);
    assert!(spectator.hand.is_none() && spectator.you.is_none());
    for p in &spectator.players {
        assert!(p.resources.is_none() && p.development_cards.is_none(), "hand of {} shown to spectators", p.seat);
    }
}

/// Each event as `viewer` gets it while the game runs: a hidden card shown exactly to those
/// who may see it (with C&K, see [`cities_knights::shown`]), the seed to nobody, and nothing
/// else changed (the rest of the event is as the live log has it).
fn check_redaction(events: &[Event], viewer: Viewer) {
    let sees = |seat: Seat| viewer == Viewer::Seat(seat);
    for event in events {
        let redacted = event.redacted_for(viewer);
        let shown = match &redacted {
            Event::ResourcesDiscarded { seat, resources, .. } => Some((resources.is_some(), sees(*seat))),
            Event::DevelopmentCardBought { seat, card, .. } => Some((card.is_some(), sees(*seat))),
            // FTR-8: a gifted card, as a bought one.
            Event::DevelopmentCardGifted { seat, card } => Some((card.is_some(), sees(*seat))),
            Event::ResourceStolen { thief, victim, resource } => {
                Some((resource.is_some(), sees(*thief) || sees(*victim)))
            }
            // PIR-14: the cards the fleet took, their loser only (a won or tied battle takes
            // none to hide).
            Event::FleetAttack { seat, resources, cards_lost, .. } if *cards_lost > 0 => {
                Some((resources.is_some(), sees(*seat)))
            }
            Event::GameStarted { seed, .. } => Some((seed.is_some(), false)),
            _ => cities_knights::shown(event, &redacted, viewer),
        };
        match shown {
            Some((shown, may_see)) => assert_eq!(shown, may_see, "{viewer:?} gets {redacted:?} of {event:?}"),
            None => assert_eq!(&redacted, event, "{viewer:?} gets an altered {event:?}"),
        }
        if shown.is_some_and(|(shown, _)| shown) {
            assert_eq!(&redacted, event, "{viewer:?} gets an altered {event:?}");
        }
    }
}

struct Outcome {
    /// How many events of each kind the game had.
    events: BTreeMap<&'static str, u64>,
    /// How often each progress card was played (CK-PC-7).
    cards_played: BTreeMap<ProgressCard, u64>,
    /// What the game did of SEA-15.
    feats: SeaFeats,
    finished: bool,
    winner_points: u32,
    vp_target: u32,
    turns: u32,
    /// The game's `game_won`: how it was won, and every seat's wonder stages then.
    condition: Option<VictoryCondition>,
    wonder_stages: Vec<u8>,
    winner: Option<Seat>,
    /// The game's configuration has a turn limit (the engine's way to end bot games).
    turn_limited: bool,
}

/// B-WIN-3 and WON-11: the winner reached the target in points (in Wonders of Catan also
/// strictly ahead in wonder stages), or finished the fourth stage of its wonder.
fn check_victory_condition(outcome: &Outcome, index: u64) {
    let winner = outcome.winner.expect("a finished game has a winner");
    let own = outcome.wonder_stages[winner.index()];
    let ahead = outcome.wonder_stages.iter().enumerate().all(|(s, &n)| s == winner.index() || n < own);
    let reached = outcome.winner_points >= outcome.vp_target;
    match outcome.condition {
        Some(VictoryCondition::VictoryPoints) => {
            assert!(reached, "game {index} won with {} VP of {}", outcome.winner_points, outcome.vp_target)
        }
        Some(VictoryCondition::WonderCompleted) => {
            assert_eq!(own, WONDER_STAGES, "game {index} won by a wonder of {own} stages")
        }
        Some(VictoryCondition::VictoryPointsAndWonderLead) => assert!(
            reached && ahead,
            "game {index} won with {} VP of {} and stages {:?}",
            outcome.winner_points,
            outcome.vp_target,
            outcome.wonder_stages
        ),
        Some(VictoryCondition::TurnLimit) => {
            assert!(outcome.turn_limited, "game {index} ended by a turn limit it does not have")
        }
        // CLV-14 b: checked on the move that ended the game (the cloth checks).
        Some(VictoryCondition::VillagesExhausted) => {}
        None => panic!("game {index} finished without game_won"),
    }
}

fn play_checked(config: GameConfig, seed: u64, exhaustive: bool) -> Outcome {
    let mut log = Game::start_events(&config, seed).unwrap();
    let mut game = Game::replay(config.clone(), &log).unwrap();
    let facts = Facts::of(&config);
    let mut sea = Seafarers::new(&game, &log);
    let mut ck = CitiesKnights::new(&game);
    check_state(&game, &facts, sea.as_ref(), ck.as_ref());
    let mut bot = RandomBot::new(seed ^ 0xB07);
    let mut step = 0u64;
    while !game.is_over() && game.turn_number() <= TURN_CAP {
        let seat = game.waiting_for()[0];
        let legal = game.legal_moves(seat);
        assert!(!legal.is_empty(), "seat {seat} must act but has no legal move in {:?}", game.phase());
        // The attack's and a displacement's decisions (CK-BAR-6/7, CK-KNT-7) are rare in the
        // exhaustive sample: every game cross-checks them for the seats deciding.
        let rare =
            matches!(game.phase(), Phase::LoseCity { .. } | Phase::DefenderDraw { .. } | Phase::RelocateKnight { .. });
        if exhaustive {
            let before = game.clone();
            for s in game.seats() {
                check_agreement(&game, &before, s);
            }
        } else if rare {
            let before = game.clone();
            for s in game.waiting_for() {
                check_agreement(&game, &before, s);
            }
        } else if step.is_multiple_of(7) {
            // Cheap sample: the waited-on seat's listed moves are accepted, and a seat that
            // is not waited on may make no listed move but trades.
            for mv in &legal {
                let result = game.decide(seat, mv, &mut game.chance());
                assert!(
                    result.is_ok(),
                    "listed move {mv:?} for seat {seat} rejected: {result:?} in {:?}",
                    game.phase()
                );
            }
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
        let prior = game.clone();
        for event in &events {
            game.apply(event);
        }
        check_placements(&prior, seat, &events);
        let revealed = events.iter().any(|e| matches!(e, Event::FogRevealed { .. }));
        if let Some(sea) = &mut sea {
            sea.after_move(&prior, &game, seat, &events);
        }
        if let Some(ck) = &mut ck {
            ck.after_move(&prior, seat, &events);
        }
        // CK-KNT-9: knights break roads too.
        let routes_changed = events.iter().any(|e| {
            matches!(
                e,
                Event::RoadBuilt { .. }
                    | Event::ShipBuilt { .. }
                    | Event::ShipMoved { .. }
                    | Event::SettlementBuilt { .. }
                    | Event::KnightRecruited { .. }
                    | Event::KnightMoved { .. }
                    | Event::KnightDisplaced { .. }
                    | Event::KnightRelocated { .. }
                    | Event::KnightReturnedToSupply { .. }
            )
        });
        if routes_changed {
            let _move = Context(format!("{mv:?} by {seat}: {events:?}"));
            check_longest_road(&game);
        }
        {
            let _move = LazyContext(|| format!("the state after {mv:?} by {seat}: {events:?}"));
            check_state(&game, &facts, sea.as_ref(), ck.as_ref());
        }
        log.extend(events);
        if exhaustive || step.is_multiple_of(50) || revealed {
            check_hidden_information(&game);
            if let Some(sea) = &sea {
                sea.check_views(&game);
            }
            if let Some(ck) = &ck {
                ck.check_views(&game);
            }
        }
        step += 1;
    }
    if let Some(sea) = &sea {
        sea.check_views(&game);
        seafarers::check_events_hide_fog(&game, &log);
    }
    for viewer in seafarers::viewers(&game) {
        check_redaction(&log, viewer);
    }
    // The log is the game: replay equals the live state, and so does the serde snapshot.
    let replayed = Game::replay(config, &log).unwrap();
    assert_eq!(replayed, game, "replay differs from the live game");
    let text = serde_json::to_string(&game).unwrap();
    let snapshot: Game = serde_json::from_str(&text).unwrap();
    assert_eq!(snapshot, game, "the serde snapshot differs from the live game");
    let winner_points = game.winner().map_or(0, |w| game.victory_points(w));
    let vp_target = u32::from(game.vp_target());
    let mut events = BTreeMap::new();
    let mut cards_played = BTreeMap::new();
    for event in &log {
        *events.entry(event.kind()).or_default() += 1;
        if let Event::ProgressCardPlayed { play, .. } = event {
            *cards_played.entry(play.card()).or_default() += 1;
        }
    }
    let condition = log.iter().find_map(|e| match e {
        Event::GameWon { condition, .. } => Some(*condition),
        _ => None,
    });
    let wonder_stages = game.seats().map(|s| game.wonder_of(s).map_or(0, |(_, n)| n)).collect();
    Outcome {
        events,
        cards_played,
        feats: ck.as_ref().map(CitiesKnights::feats).unwrap_or_default(),
        finished: game.is_over(),
        winner_points,
        vp_target,
        turns: game.turn_number(),
        condition,
        wonder_stages,
        winner: game.winner(),
        turn_limited: game.config().turn_limit.is_some(),
    }
}
