//! The Seafarers scenario maps through the public API: a game of every scenario starts, for
//! every player count the scenario offers, on the scenario's map with its victory points
//! (SEA-14), its fog (SEA-13), its robber and pirate, and setup settlements only where the
//! map allows them (SEA-5). The maps themselves are checked against the data files in the
//! engine's unit tests (`ext::seafarers::scenario::tests`).

use std::collections::BTreeSet;

use catan_engine::{
    board::{HexCoord, Terrain},
    FirstPlayer, Game, GameConfig, Move, ScenarioId, VertexId,
};
use serde_json::Value;

fn variant(id: ScenarioId, players: u8) -> Value {
    let file = format!("{}/data/seafarers/{}", env!("CARGO_MANIFEST_DIR"), id.data_file().expect("a data file"));
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let json: Value = serde_json::from_str(&text).expect("JSON");
    json["variants"]
        .as_object()
        .expect("variants")
        .values()
        .find(|v| v["players"].as_array().expect("players").iter().any(|p| p.as_u64() == Some(players.into())))
        .expect("a variant for the player count")
        .clone()
}

/// The scenarios whose maps are data files: The New World's board is generated for each game
/// (its tests: `scenarios/seafarers/new_world.rs` and the engine's `new_world` unit tests).
fn with_data_files() -> impl Iterator<Item = ScenarioId> {
    ScenarioId::ALL.into_iter().filter(|id| *id != ScenarioId::NewWorld)
}

fn config(id: ScenarioId, players: u8) -> GameConfig {
    GameConfig {
        seafarers: true,
        scenario: Some(id),
        first_player: FirstPlayer::Seat(0),
        ..GameConfig::for_players(players)
    }
}

fn hex(value: &Value) -> HexCoord {
    HexCoord::new(value[0].as_i64().expect("q") as i32, value[1].as_i64().expect("r") as i32)
}

/// `(hex, land area, face down)` of every land position of the variant.
fn land(variant: &Value) -> Vec<(HexCoord, u64, bool)> {
    variant["land_hexes"]
        .as_array()
        .expect("land_hexes")
        .iter()
        .map(|h| {
            let at = HexCoord::new(h["q"].as_i64().unwrap() as i32, h["r"].as_i64().unwrap() as i32);
            (at, h["land_area"].as_u64().unwrap(), h["kind"] == "fog")
        })
        .collect()
}

/// SEA-13, SEA-14: the game's map, fog, robber, pirate and victory points are the scenario's.
#[test]
fn every_scenario_starts_for_every_player_count_sea_13_sea_14() {
    for id in with_data_files() {
        assert!(!id.player_counts().is_empty(), "{}", id.name());
        for players in id.player_counts() {
            let variant = variant(id, players);
            for seed in 0..5 {
                let what = format!("{} for {players}, seed {seed}", id.name());
                let game = Game::new(config(id, players), seed).unwrap_or_else(|e| panic!("{what}: {e:?}"));
                assert_eq!(Some(game.vp_target()), id.vp_target(players), "{what}");
                assert_eq!(u64::from(game.vp_target()), variant["vp_to_win"].as_u64().unwrap(), "{what}");

                let board = game.board();
                let land = land(&variant);
                for (at, _, fog) in &land {
                    let terrain = board.terrain[board.hex(*at).expect("on the board") as usize];
                    assert_eq!(terrain == Terrain::Fog, *fog, "{what}: {at}");
                    assert_ne!(terrain, Terrain::Sea, "{what}: {at}");
                }
                let face_down = board.terrain.iter().filter(|t| **t == Terrain::Fog).count();
                assert_eq!(face_down, land.iter().filter(|(_, _, fog)| *fog).count(), "{what}");

                let robber = variant["robber_start"].is_array().then(|| hex(&variant["robber_start"]));
                if id == ScenarioId::ClothForCatan {
                    // CLV-15: on a desert village island, never the data's main-island hex.
                    let at = game.robber_hex().expect("the robber on the board");
                    let h = board.hex(at).unwrap() as usize;
                    assert_eq!(board.terrain[h], Terrain::Desert, "{what}");
                    assert!(board.layout().neutral.contains(&at), "{what}: on a village island");
                } else if variant["robber_start"] == "a desert" {
                    let at = game.robber_hex().expect("the robber on the board");
                    assert_eq!(board.terrain[board.hex(at).unwrap() as usize], Terrain::Desert, "{what}");
                } else {
                    assert_eq!(game.robber_hex(), robber, "{what}");
                }
                let pirate = (!variant["pirate_start"].is_null()).then(|| hex(&variant["pirate_start"]));
                assert_eq!(game.pirate_hex(), pirate, "{what}");
            }
        }
    }
}

/// SEA-5: the first setup settlement may stand on every vertex of the allowed land areas'
/// hexes, and nowhere else.
#[test]
fn setup_settlements_stand_only_where_the_map_allows_sea_5() {
    for id in with_data_files() {
        for players in id.player_counts() {
            let what = format!("{} for {players}", id.name());
            let variant = variant(id, players);
            let allowed: Vec<HexCoord> = match &variant["setup"]["allowed_land_areas"] {
                Value::Array(areas) => {
                    let areas: Vec<u64> = areas.iter().map(|a| a.as_u64().unwrap()).collect();
                    land(&variant).iter().filter(|(_, a, fog)| areas.contains(a) && !fog).map(|(h, _, _)| *h).collect()
                }
                _ => land(&variant).iter().filter(|(_, _, fog)| !fog).map(|(h, _, _)| *h).collect(),
            };
            let forbidden: Vec<String> = variant["setup"]
                .get("forbidden_vertices")
                .and_then(Value::as_array)
                .map_or_else(Vec::new, |list| list.iter().map(|v| v.as_str().unwrap().to_owned()).collect());
            let game = Game::new(config(id, players), 7).unwrap_or_else(|e| panic!("{what}: {e:?}"));
            let sites: BTreeSet<VertexId> = game
                .legal_moves(game.active_seat())
                .into_iter()
                .filter_map(|m| match m {
                    Move::BuildSettlement { vertex } => Some(vertex),
                    _ => None,
                })
                .collect();
            let expected: BTreeSet<VertexId> = game
                .board()
                .vertices
                .iter()
                .copied()
                .filter(|v| v.hexes().iter().any(|h| allowed.contains(h)))
                // WON-3: nor on the marked vertices.
                .filter(|v| !forbidden.contains(&v.to_string()))
                // PIR-4: nor on or next to a pre-placed settlement (B-BLD-4).
                .filter(|v| {
                    game.building_at(*v).is_none() && v.adjacent().iter().all(|n| game.building_at(*n).is_none())
                })
                .collect();
            assert!(!expected.is_empty(), "{what}");
            assert_eq!(sites, expected, "{what}");
        }
    }
}
