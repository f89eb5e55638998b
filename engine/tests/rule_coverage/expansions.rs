//! The rules of RULES.md 8.1-8.3 and 8.5 (the 5-6 extension, Jungle, Big River, Wonders of
//! Catan) that no other test cited.

use std::collections::HashSet;

use catan_engine::{
    board::Terrain, BoardSpec, FirstPlayer, Game, GameConfig, Move, Resources, ScenarioId, Seat, WonderId,
};

use crate::support::*;

/// X56-1: the 5-6 extension is for 5 or 6 players.
#[test]
fn x56_1_five_or_six_players() {
    for players in [5, 6] {
        let config = GameConfig::for_players(players);
        assert!(config.five_six_extension, "{players} players play with the extension");
        let game = Game::new(config, 1).unwrap();
        assert_eq!(game.player_count(), players);
    }
    for players in [4, 7] {
        let config = GameConfig { five_six_extension: true, ..GameConfig::for_players(4) };
        let config = GameConfig { players, ..config };
        let error = Game::new(config, 1).expect_err("not 5 or 6 players");
        assert_eq!(error.code(), "invalid_player_count", "{players} players");
    }
}

/// X56-10: setup is the normal snake over 6 players: seats 0 to 5, then 5 back to 0.
#[test]
fn x56_10_setup_snakes_over_six_players() {
    let mut s = Scenario::with(config(6));
    let mut order = vec![];
    while let Some(seat) = s.game.waiting_for().first().copied() {
        if !matches!(s.game.phase(), catan_engine::Phase::Setup { .. }) {
            break;
        }
        let settlement = s.game.legal_moves(seat)[0].clone();
        assert!(matches!(settlement, Move::BuildSettlement { .. }), "{settlement:?}");
        s.when(seat, settlement);
        let road = s.game.legal_moves(seat)[0].clone();
        s.when(seat, road);
        order.push(seat.0);
    }
    assert_eq!(order, [0, 1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 0]);
    assert_eq!(s.game.active_seat(), Seat(0));
}

fn jungle(number: Option<u8>) -> GameConfig {
    GameConfig { jungle: true, jungle_number: number, ..config(4) }
}

/// JUN-1, JUN-2: the desert becomes a jungle, land that can be built on; it takes a number
/// token, the `jungle_number` (required, 2-12 but not 7), so 19 tokens lie on the board.
#[test]
fn jun_1_jun_2_the_jungle_replaces_the_desert_and_takes_a_token() {
    for board in [BoardSpec::Beginner, BoardSpec::Random] {
        let mut s = Scenario::with(GameConfig { board, ..jungle(Some(5)) });
        let layout = s.game.board().layout().clone();
        assert!(!layout.hexes.iter().any(|tile| tile.terrain == Terrain::Desert));
        let jungles: Vec<_> = layout.hexes.iter().filter(|tile| tile.terrain == Terrain::Jungle).collect();
        assert_eq!(jungles.len(), 1);
        assert_eq!(jungles[0].number, Some(5));
        assert_eq!(layout.hexes.iter().filter(|tile| tile.number.is_some()).count(), 19);
        let corner = jungles[0].hex.corners()[0];
        s.when(P0, Move::BuildSettlement { vertex: corner });
        assert_eq!(s.game.building_at(corner).map(|building| building.seat), Some(P0));
    }
    for number in [None, Some(7), Some(1), Some(13)] {
        let error = Game::new(jungle(number), 1).expect_err("no valid jungle number");
        assert_eq!(error.code(), "invalid_config", "{number:?}");
    }
}

fn river(seed_board: BoardSpec) -> GameConfig {
    GameConfig { big_river: true, river_gold_number: Some(9), board: seed_board, ..config(4) }
}

/// RIV-2, RIV-3: the river is three collinear hexes, by default (0,-1), (0,0), (0,1); the other
/// terrain is shuffled over the other 16 places; every river hex gets a token, the 19th being
/// `river_gold_number`, so the spiral skips nothing.
#[test]
fn riv_2_riv_3_the_river_hexes_and_their_tokens() {
    let river_hexes = [h("0,-1"), h("0,0"), h("0,1")];
    let mut others = HashSet::new();
    for seed in 1..=8 {
        let game = Game::new(river(BoardSpec::Random), seed).unwrap();
        let layout = game.board().layout();
        assert_eq!(layout.river_hexes, river_hexes);
        for hex in river_hexes {
            let tile = layout.hexes.iter().find(|tile| tile.hex == hex).unwrap();
            assert!(tile.number.is_some(), "river hex {hex} has a token");
        }
        assert!(river_hexes.iter().any(|hex| layout.hexes.iter().any(|t| t.hex == *hex && t.terrain == Terrain::Gold)));
        let numbers: Vec<u8> = layout.hexes.iter().filter_map(|tile| tile.number).collect();
        assert_eq!(numbers.len(), 19);
        assert!(!layout.hexes.iter().any(|tile| tile.terrain == Terrain::Desert));
        others.insert(format!(
            "{:?}",
            layout
                .hexes
                .iter()
                .filter(|tile| !river_hexes.contains(&tile.hex))
                .map(|tile| tile.terrain)
                .collect::<Vec<_>>()
        ));
    }
    assert!(others.len() > 3, "the other terrain is shuffled");
    let error =
        Game::new(GameConfig { river_gold_number: None, ..river(BoardSpec::Random) }, 1).expect_err("no 19th token");
    assert_eq!(error.code(), "invalid_config");
}

/// WON-5: each player's progress on a wonder is marked, not scored: at the start nobody has a
/// wonder; a claimed wonder's built stages show in the game and add no victory point.
#[test]
fn won_5_wonder_progress_is_marked_and_scores_nothing() {
    let config = GameConfig {
        seafarers: true,
        scenario: Some(ScenarioId::Wonders),
        first_player: FirstPlayer::Seat(0),
        ..GameConfig::for_players(4)
    };
    let fresh = Scenario::with(config.clone());
    for seat in fresh.game.seats() {
        assert_eq!(fresh.game.wonder_of(seat), None);
    }
    assert!(fresh.game.wonders().iter().all(|wonder| wonder.owner.is_none() && wonder.stages_built == 0));

    let theater_stage = Resources::new(1, 1, 3, 0, 0);
    let given = given_with(config)
        .setup_settlement(P0, "-2,2,N")
        .setup_settlement(P0, "0,-2,N")
        .with_wonder(P0, WonderId::Theater, 0)
        .give(P0, theater_stage)
        .main_phase(P0);
    let mut s = match given.position() {
        Ok(game) => Scenario { game },
        Err(error) => panic!("{error}"),
    };
    let points = s.game.victory_points(P0);
    s.when(P0, Move::BuildWonderStage);
    assert_eq!(s.game.wonder_of(P0), Some((WonderId::Theater, 1)));
    let theater = s.game.wonders().into_iter().find(|wonder| wonder.wonder == WonderId::Theater).unwrap();
    assert_eq!((theater.owner, theater.stages_built), (Some(P0), 1));
    assert_eq!(s.game.victory_points(P0), points, "a stage is no victory point");
}
