//! A position as one reader may see it (`Setup::redacted_for`, issue 31): over self-played
//! games of every ruleset, the redacted position hides every card the reader's game view
//! hides (another seat's resources, development cards, commodities and face-down progress
//! cards; the seed), survives JSON, and builds a game in which the reader has exactly the
//! legal moves and the view of the real one.

use catan_engine::{
    sim::{Bot, RandomBot},
    FirstPlayer, Game, GameConfig, Phase, ScenarioId, Seat, Setup, Viewer,
};

use super::round_trip::configs;

fn cities_knights(players: u8, scenario: Option<ScenarioId>) -> GameConfig {
    let mut config = GameConfig { scenario, ..GameConfig::for_players(players) };
    let variants = if scenario.is_some() { "seafarers+cities_and_knights" } else { "cities_and_knights" };
    config.enable_variants(variants).unwrap();
    config.first_player = FirstPlayer::Roll;
    config
}

fn check_redacted(game: &Game, viewer: Viewer) {
    let whole = Setup::from(game);
    let redacted = whole.clone().redacted_for(viewer);
    assert!(redacted.is_redacted());
    assert_eq!(redacted.seed, 0, "the seed tells every draw to come");
    let reader = match viewer {
        Viewer::Seat(seat) => Some(seat),
        Viewer::Spectator => None,
    };
    for (index, seat) in redacted.seats.iter().enumerate() {
        if Some(Seat(index as u8)) == reader {
            assert_eq!(seat.resources, whole.seats[index].resources);
            assert!(seat.hidden.is_none());
            continue;
        }
        let hidden = seat.hidden.clone().expect("another seat's cards are counted");
        assert!(seat.dev_cards.is_empty() && seat.new_dev_cards.is_empty(), "seat {index}'s development cards shown");
        assert_eq!(hidden.dev_cards, Some(whole.seats[index].dev_cards.total()));
        // The Master Merchant's player sees the hand it takes from, as its legal moves do.
        if hidden.resources.is_some() {
            assert!(seat.resources.is_empty() && seat.commodities.is_empty(), "seat {index}'s hand shown");
            assert_eq!(hidden.resources, Some(whole.seats[index].resources.total()));
        }
    }
    let text = serde_json::to_string(&redacted).unwrap();
    let parsed: Setup = serde_json::from_str(&text).unwrap();
    assert_eq!(parsed, redacted, "a redacted position survives JSON");
    let built = match redacted.position() {
        Ok(built) => built,
        Err(error) => {
            panic!("the position redacted for {viewer:?} is refused: {} ({error}) in {:?}", error.code(), game.phase())
        }
    };
    let mut seen = built.view(viewer);
    seen.seed = None;
    let mut real = game.view(viewer);
    real.seed = None;
    assert_eq!(seen, real, "{viewer:?} sees another game in its redacted position ({:?})", game.phase());
    if let Some(seat) = reader {
        assert_eq!(built.legal_moves(seat), game.legal_moves(seat), "{seat:?}'s legal moves in {:?}", game.phase());
    }
}

fn play_and_check(config: GameConfig, seed: u64, turns: u32) -> u32 {
    let mut game = Game::new(config, seed).expect("game");
    let mut bot = RandomBot::new(seed);
    let mut checked = 0;
    let mut moves = 0u32;
    while !game.is_over() && game.turn_number() < turns {
        let seat = game.waiting_for()[0];
        let legal = game.legal_moves(seat);
        let mv = &legal[bot.choose(&game, seat, &legal)];
        for event in game.decide(seat, mv, &mut game.chance()).expect("a listed move") {
            game.apply(&event);
        }
        moves += 1;
        // Once the game is over nothing is hidden: its position is the whole one.
        if !game.is_over() && (moves.is_multiple_of(5) || !matches!(game.phase(), Phase::Main | Phase::PreRoll)) {
            for seat in game.seats() {
                check_redacted(&game, Viewer::Seat(seat));
            }
            check_redacted(&game, Viewer::Spectator);
            checked += 1;
        }
    }
    assert_eq!(Setup::from(&game).redacted_for(Viewer::Spectator).is_redacted(), !game.is_over());
    checked
}

#[test]
fn a_position_redacted_for_a_reader_builds_a_game_with_its_legal_moves_and_view() {
    let mut checked = 0;
    for (c, config) in configs().into_iter().enumerate() {
        for seed in 0..2u64 {
            checked += play_and_check(config.clone(), seed * 71 + c as u64, 150);
        }
    }
    for (i, config) in [
        cities_knights(3, None),
        cities_knights(4, None),
        cities_knights(6, None),
        cities_knights(3, Some(ScenarioId::FogIslands)),
        cities_knights(4, Some(ScenarioId::NewShores)),
    ]
    .into_iter()
    .enumerate()
    {
        for seed in 0..3u64 {
            checked += play_and_check(config.clone(), seed * 17 + i as u64, 150);
        }
    }
    assert!(checked > 5_000, "{checked} positions");
}

/// A game started from a position (`Game::start_from`) is that position, its opening events
/// replay to it, and each reader sees the opening's position redacted as its game view.
#[test]
fn a_game_starts_from_a_position_and_its_opening_replays_redacted_per_reader() {
    for (c, config) in configs().into_iter().chain([cities_knights(4, None)]).enumerate() {
        let mut game = Game::new(config.clone(), c as u64).unwrap();
        let mut bot = RandomBot::new(c as u64);
        while game.turn_number() < 12 && !game.is_over() {
            let seat = game.waiting_for()[0];
            let legal = game.legal_moves(seat);
            let mv = &legal[bot.choose(&game, seat, &legal)];
            for event in game.decide(seat, mv, &mut game.chance()).unwrap() {
                game.apply(&event);
            }
        }
        if game.is_over() {
            continue;
        }
        let position = Setup::from(&game);
        let (started, opening) = Game::start_from(position.clone(), 99).unwrap();
        assert_eq!(Game::replay(config.clone(), &opening).unwrap(), started);
        for seat in game.seats() {
            assert_eq!(started.legal_moves(seat), game.legal_moves(seat));
        }
        assert_eq!(started.view(Viewer::Spectator).players, game.view(Viewer::Spectator).players);
        assert_eq!(Setup::from(&started).seed, 99, "the new game's own seed");
        assert_eq!(started.events_applied(), 2);
        for viewer in game.seats().map(Viewer::Seat).chain([Viewer::Spectator]) {
            let catan_engine::Event::PositionSet { position: seen } = opening[1].redacted_for(viewer) else {
                panic!("the opening's second event is position_set");
            };
            assert_eq!(*seen, Setup::from(&started).redacted_for(viewer));
        }
        // A reader's view, or a finished game, is no position to start from.
        assert_eq!(
            Game::start_from(position.redacted_for(Viewer::Spectator), 1).unwrap_err().code(),
            "unseen_cards_inconsistent"
        );
    }
}
