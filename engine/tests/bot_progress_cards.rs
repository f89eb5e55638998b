//! The bots and Cities & Knights progress cards (CK-PC-2..7): which plays the heuristic bot
//! picks among the moves it is given (the scorer is checked on the `ProgressPlay` it would
//! see listed), what it discards over the hand limit (CK-PC-5), and the random bot's weights.

#[path = "scenarios/support.rs"]
#[allow(dead_code)]
mod support;

use catan_engine::{
    board::Terrain,
    bots::{Bot, HeuristicBot, RandomBot},
    CardDecision, Commodities, Commodity, EventFace, FixedChance, Game, GameConfig, Move, Phase, ProgressCard,
    ProgressCards, ProgressPlay, Resources, Seat, Setup, Track, VertexId, EVENT_DIE, PROGRESS_CARD,
};

use support::*;

fn ck() -> GameConfig {
    let mut config = config(4);
    config.enable_variants("cities_and_knights").expect("variant");
    config
}

/// The move the heuristic bot of `seat` picks among `moves`.
fn pick(game: &Game, seat: Seat, moves: &[Move]) -> Move {
    let mut bot = HeuristicBot::new(11);
    moves[bot.choose(game, seat, moves)].clone()
}

fn play(play: ProgressPlay) -> Move {
    Move::PlayProgressCard { play }
}

fn holding(mut setup: Setup, seat: Seat, cards: &[ProgressCard]) -> Setup {
    let hand = cards.iter().fold(ProgressCards::default(), |h, &c| h + ProgressCards::of(c, 1));
    setup.cities_knights.progress.push((seat, hand));
    setup
}

/// A buildable vertex (with free neighbours in a fresh game) whose land hexes include
/// `terrain` or, with `touches` false, none of it.
fn vertex_by(game: &Game, terrain: Terrain, touches: bool) -> VertexId {
    let board = game.board();
    let index = (0..board.vertices.len() as u16)
        .filter(|&v| board.vertex_is_buildable[v as usize] && board.land_hexes_of(v).count() == 3)
        .find(|&v| board.land_hexes_of(v).any(|h| board.terrain[h as usize] == terrain) == touches)
        .expect("a vertex");
    board.vertices[index as usize]
}

/// CK-PC-7 Alchemist: before the roll the bot sets the dice to the sum its city produces
/// most on, never a 7 (the robber waits for the first attack); with nothing on the board it
/// rolls.
#[test]
fn the_heuristic_bot_plays_the_alchemist_for_the_sum_it_produces_on() {
    let city = "-1,0,S";
    let s =
        holding(given_with(ck()).city(P0, city).road(P0, "-1,0,SE").turn(P0), P0, &[ProgressCard::Alchemist]).start();
    let mut moves = vec![Move::RollDice];
    for red in 1..=6 {
        for white in 1..=6 {
            moves.push(play(ProgressPlay::Alchemist { red, white }));
        }
    }
    let board = s.game.board();
    let numbers: Vec<u8> =
        board.land_hexes_of(board.vertex(v(city)).unwrap()).filter_map(|h| board.numbers[h as usize]).collect();
    let Move::PlayProgressCard { play: ProgressPlay::Alchemist { red, white } } = pick(&s.game, P0, &moves) else {
        panic!("the alchemist was not played");
    };
    assert!(numbers.contains(&(red + white)), "sum {} is none of the city's numbers {numbers:?}", red + white);
    // With no building P0 has nothing to gain: it rolls.
    let s = holding(given_with(ck()).city(P1, city).turn(P0), P0, &[ProgressCard::Alchemist]).start();
    assert_eq!(pick(&s.game, P0, &moves), Move::RollDice);
}

/// CK-PC-7 Irrigation and Mining: played when the bot's buildings touch fields (mountains),
/// else kept.
#[test]
fn the_heuristic_bot_irrigates_only_next_to_fields() {
    let fresh = Game::new(ck(), 7).unwrap();
    let moves = [Move::EndTurn, play(ProgressPlay::Irrigation), play(ProgressPlay::Mining)];
    let fields = vertex_by(&fresh, Terrain::Fields, true);
    let near = given_with(ck()).with_building(fields, P0, catan_engine::BuildingKind::City).main_phase(P0);
    let s = holding(near, P0, &[ProgressCard::Irrigation]).start();
    assert_eq!(pick(&s.game, P0, &moves[..2]), play(ProgressPlay::Irrigation));

    let dry = vertex_by(&fresh, Terrain::Fields, false);
    let far = given_with(ck()).with_building(dry, P0, catan_engine::BuildingKind::City).main_phase(P0);
    let s = holding(far, P0, &[ProgressCard::Irrigation]).start();
    assert_eq!(pick(&s.game, P0, &moves[..2]), Move::EndTurn);
}

/// CK-PC-7 Medicine: a city for 2 ore + 1 grain comes before paying the full price.
#[test]
fn the_heuristic_bot_builds_its_city_with_medicine() {
    let site = "-1,0,S";
    let given = given_with(ck())
        .settlement(P0, site)
        .road(P0, "-1,0,SE")
        .give(P0, Resources::new(0, 0, 0, 2, 3))
        .main_phase(P0);
    let s = holding(given, P0, &[ProgressCard::Medicine]).start();
    let city = Move::BuildCity { vertex: v(site) };
    assert!(s.game.legal_moves(P0).contains(&city));
    let moves = [Move::EndTurn, city, play(ProgressPlay::Medicine { vertex: v(site) })];
    assert_eq!(pick(&s.game, P0, &moves), moves[2]);
}

/// CK-PC-7 Crane: before the improvement it makes affordable (level 1 free).
#[test]
fn the_heuristic_bot_plays_the_crane_before_an_improvement() {
    let given = given_with(ck())
        .city(P0, "-1,0,S")
        .road(P0, "-1,0,SE")
        .with_commodities(P0, Commodities::of(Commodity::Paper, 1))
        .main_phase(P0);
    let s = holding(given, P0, &[ProgressCard::Crane]).start();
    let improve = Move::BuildImprovement { track: Track::Science, city: None };
    assert!(s.game.legal_moves(P0).contains(&improve));
    let moves = [Move::EndTurn, improve, play(ProgressPlay::Crane)];
    assert_eq!(pick(&s.game, P0, &moves), moves[2]);
    // Without a city there is nothing to improve: the crane is kept.
    let given = given_with(ck()).settlement(P0, "-1,0,S").road(P0, "-1,0,SE").main_phase(P0);
    let s = holding(given, P0, &[ProgressCard::Crane]).start();
    assert_eq!(pick(&s.game, P0, &[Move::EndTurn, play(ProgressPlay::Crane)]), Move::EndTurn);
}

/// CK-PC-7 Wedding and Saboteur: played against seats ahead of the bot, never while it leads.
#[test]
fn the_heuristic_bot_plays_wedding_and_saboteur_only_when_behind() {
    let board = |leader: Seat, other: Seat| {
        given_with(ck())
            .city(leader, "-1,0,S")
            .city(leader, "1,-1,N")
            .settlement(other, "0,2,N")
            .give(P1, Resources::new(2, 2, 2, 2, 2))
            .give(P0, Resources::new(1, 0, 0, 0, 0))
            .main_phase(P0)
    };
    for card in [ProgressPlay::Wedding, ProgressPlay::Saboteur] {
        let moves = [Move::EndTurn, play(card.clone())];
        let behind = holding(board(P1, P0), P0, &[card.card()]).start();
        assert_eq!(pick(&behind.game, P0, &moves), moves[1], "{card:?} when behind");
        let ahead = holding(board(P0, P1), P0, &[card.card()]).start();
        assert_eq!(pick(&ahead.game, P0, &moves), Move::EndTurn, "{card:?} when leading");
    }
}

/// CK-PC-5: over the limit in a discard decision the bot drops its least useful card; over
/// the limit in its own main phase it plays a card that gains something rather than discard.
#[test]
fn the_heuristic_bot_discards_its_least_useful_card_and_plays_rather_than_discards() {
    use ProgressCard as C;
    let given = given_with(ck())
        .city(P0, "-1,0,S")
        .road(P0, "-1,0,SE")
        .city(P2, "2,0,S")
        .with_improvements(P2, [0, 1, 0])
        .turn(P0);
    let mut s = holding(given, P2, &[C::Merchant, C::Alchemist, C::ResourceMonopoly, C::Spy]).start();
    let chance =
        FixedChance::dice(1, 1).then(EVENT_DIE, EventFace::Politics.index()).then(PROGRESS_CARD, C::Diplomat as usize);
    s.when_with(P0, Move::RollDice, chance);
    assert!(matches!(s.game.phase(), Phase::CardDecision { decision: CardDecision::DiscardProgressCards { .. } }));
    let moves = s.game.legal_moves(P2);
    assert_eq!(moves.len(), 5);
    assert_eq!(pick(&s.game, P2, &moves), Move::DiscardProgressCard { card: C::Diplomat });

    // P0 over the limit in its main phase, next to fields: Irrigation is played.
    let fresh = Game::new(ck(), 7).unwrap();
    let fields = vertex_by(&fresh, Terrain::Fields, true);
    let given = given_with(ck()).with_building(fields, P0, catan_engine::BuildingKind::City).main_phase(P0);
    let s = holding(given, P0, &[C::Irrigation, C::Spy, C::Diplomat, C::Merchant, C::Wedding]).start();
    let mut moves = s.game.legal_moves(P0);
    // CK-PC-5: plays and discards only.
    assert!(
        moves.iter().all(|m| matches!(m, Move::DiscardProgressCard { .. } | Move::PlayProgressCard { .. })),
        "{moves:?}"
    );
    assert!(moves.contains(&play(ProgressPlay::Irrigation)), "{moves:?}");
    moves.retain(|m| matches!(m, Move::DiscardProgressCard { .. }));
    moves.push(play(ProgressPlay::Irrigation));
    assert_eq!(pick(&s.game, P0, &moves), play(ProgressPlay::Irrigation));
    moves.pop();
    assert_eq!(pick(&s.game, P0, &moves), Move::DiscardProgressCard { card: C::Diplomat });
}

/// The random bot plays progress cards readily: a card with one way to play outweighs
/// ending the turn, and the 36 Alchemist dice together outweigh rolling.
#[test]
fn the_random_bot_weighs_progress_plays_so_that_cards_get_played() {
    assert!(RandomBot::weight(&play(ProgressPlay::Warlord)) > RandomBot::weight(&Move::EndTurn));
    let alchemist: u32 = (1..=6u8)
        .flat_map(|red| (1..=6u8).map(move |white| play(ProgressPlay::Alchemist { red, white })))
        .map(|m| RandomBot::weight(&m))
        .sum();
    assert!(alchemist > 2 * RandomBot::weight(&Move::RollDice));
    assert!(RandomBot::weight(&Move::DiscardProgressCard { card: ProgressCard::Spy }) > 0);
}
