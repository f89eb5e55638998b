//! The scenario maps against their data files, read a second time here as plain JSON so that
//! the checks do not share the loader's reading: every variant, many seeds.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::*;
use crate::board::{layout::has_adjacent_red_numbers, Board, EdgeId, HarbourKind, HexTile};

const SEEDS: u64 = 50;

fn json(id: ScenarioId) -> Value {
    serde_json::from_str(id.source().expect("a data file")).expect("the data file is JSON")
}

/// The scenarios whose maps are data files (The New World's is generated, see `new_world`).
fn with_data() -> impl Iterator<Item = ScenarioId> {
    ScenarioId::ALL.into_iter().filter(|id| id.source().is_some())
}

fn hex(value: &Value) -> HexCoord {
    let q = value[0].as_i64().expect("q") as i32;
    let r = value[1].as_i64().expect("r") as i32;
    HexCoord::new(q, r)
}

fn hex_list(value: &Value) -> Vec<HexCoord> {
    value.as_array().expect("a list of hexes").iter().map(hex).collect()
}

fn terrain(name: &str) -> Terrain {
    serde_json::from_value(Value::String(name.into())).expect("a terrain name")
}

/// A `{name: count}` pool as sorted `(name, count)` pairs, zero counts left out.
fn pool(value: &Value) -> BTreeMap<String, u64> {
    value.as_object().expect("a pool").iter().map(|(k, v)| (k.clone(), v.as_u64().expect("a count"))).collect()
}

fn count<'a>(names: impl Iterator<Item = &'a str>) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for name in names {
        *out.entry(name.to_owned()).or_insert(0) += 1;
    }
    out
}

fn sorted(mut tokens: Vec<u8>) -> Vec<u8> {
    tokens.sort_unstable();
    tokens
}

fn tokens(value: &Value) -> Vec<u8> {
    value.as_array().expect("tokens").iter().map(|n| n.as_u64().expect("a token") as u8).collect()
}

fn terrain_name(terrain: Terrain) -> String {
    serde_json::to_value(terrain).expect("serializes").as_str().expect("a name").to_owned()
}

fn kind_name(kind: HarbourKind) -> String {
    serde_json::to_value(kind).expect("serializes").as_str().expect("a name").to_owned()
}

/// Every (scenario, player count, variant JSON) the engine offers.
fn variants() -> Vec<(ScenarioId, u8, Value)> {
    let mut out = Vec::new();
    for id in with_data() {
        let file = json(id);
        for players in id.player_counts() {
            let variant = file["variants"]
                .as_object()
                .expect("variants")
                .values()
                .find(|v| v["players"].as_array().expect("players").iter().any(|p| p.as_u64() == Some(players.into())))
                .expect("a variant for every listed player count")
                .clone();
            out.push((id, players, variant));
        }
    }
    out
}

#[test]
fn every_scenario_file_reads() {
    for id in ScenarioId::ALL {
        if let Err(e) = loaded(id) {
            panic!("{}: {e}", id.name());
        }
        assert!(!id.player_counts().is_empty(), "{}", id.name());
    }
}

#[test]
fn the_vendored_files_are_copies_of_the_shared_data() {
    let dir = std::env::var_os("CATAN_SHARED_DATA")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"));
    if !dir.is_dir() {
        eprintln!("skipped: the shared data directory {} is absent", dir.display());
        return;
    }
    for id in with_data() {
        let file = id.data_file().expect("a data file");
        let shared = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        if id == ScenarioId::PirateIslands {
            // Data gap 1 of RULES-SCENARIOS: our copy adds each seat's ship lane (Appendix A)
            // as `per_player_start[i].lane_edges`; the rest is the shared file's.
            let mut ours = json(id);
            for variant in ours["variants"].as_object_mut().expect("variants").values_mut() {
                for start in variant["per_player_start"].as_array_mut().expect("per_player_start") {
                    let lane = start.as_object_mut().expect("a start").remove("lane_edges");
                    assert!(lane.is_some_and(|l| l.as_array().is_some_and(|l| !l.is_empty())), "{file}: a lane");
                }
            }
            let shared: Value = serde_json::from_slice(&shared).expect("JSON");
            assert!(shared == ours, "engine/data/seafarers/{file} differs from {} beyond the lanes", dir.display());
            continue;
        }
        assert!(
            shared == id.source().expect("a data file").as_bytes(),
            "engine/data/seafarers/{file} differs from {}",
            dir.display()
        );
    }
}

/// Nothing in a group that the generator would silently ignore: each key is read by the
/// loader or is a comment (no `constraint_no_6_or_8_on` etc. in these four files).
#[test]
fn groups_hold_only_what_the_generator_reads() {
    const READ: [&str; 13] = [
        "positions",
        "land_areas",
        "terrain_pool",
        "terrain_shuffled",
        "terrain_fixed",
        "number_pool",
        "numbers_shuffled",
        "numbers_in_position_order",
        "constraint_gold_in_area",
        "hidden_by_fog",
        "robber_on_desert",
        "constraint_no_6_or_8_on",
        "constraint_no_5_6_8_9_on",
    ];
    const COMMENTS: [&str; 5] = ["name", "note", "number_rule", "number_note", "numbers"];
    for id in with_data() {
        for variant in json(id)["variants"].as_object().expect("variants").values() {
            for group in variant["groups"].as_array().expect("groups") {
                for (key, value) in group.as_object().expect("a group") {
                    let known = READ.contains(&key.as_str()) || COMMENTS.contains(&key.as_str());
                    assert!(known, "{}: group key {key} is not read", id.name());
                    if key == "numbers" {
                        assert!(value.is_null(), "{}: numbers is only ever null", id.name());
                    }
                }
            }
        }
    }
}

/// SEA-14: the victory points of each map; the files' "3" / "4" / "6" variants serve 2-3, 4
/// and 5-6 seats.
#[test]
fn player_counts_and_victory_points_follow_the_variants_sea_14() {
    for id in with_data() {
        let file = json(id);
        let mut union = BTreeSet::new();
        for (key, variant) in file["variants"].as_object().expect("variants") {
            let seats: Vec<u8> = tokens(&variant["players"]);
            let has_three = file["variants"].get("3").is_some();
            let range = match key.as_str() {
                "3" => 2..=3,
                // Without a "3" map, the "4" map serves 2-4 seats.
                "4" if !has_three => 2..=4,
                "4" => 4..=4,
                "6" => 5..=6,
                other => panic!("{}: unexpected variant {other}", id.name()),
            };
            for players in seats {
                assert!(range.contains(&players), "{} variant {key} lists {players}", id.name());
                // Wonders of Catan's rules are for 3 or 4 (RULES 8.5), whatever maps its file has.
                if !id.players_allowed().contains(&players) {
                    assert!(layout_for(id, players).is_none(), "{} with {players}", id.name());
                    continue;
                }
                union.insert(players);
                let vp = variant["vp_to_win"].as_u64().map(|v| v as u8);
                assert_eq!(id.vp_target(players), vp, "{} with {players}", id.name());
            }
        }
        assert_eq!(id.player_counts(), union.into_iter().collect::<Vec<_>>(), "{}", id.name());
        for players in [0, 1, 7] {
            assert!(layout_for(id, players).is_none());
            assert_eq!(id.vp_target(players), None);
            assert!(generate(id, players, &mut Rng::new(1), true, Default::default(), false).is_err());
        }
    }
}

#[test]
fn each_scenario_has_a_one_line_description() {
    for id in ScenarioId::ALL {
        let text = id.description();
        assert!(text.len() > 20 && !text.contains('\n') && text.ends_with('.'), "{}", id.name());
    }
}

/// The fixed data: land areas, setup areas (SEA-5), the margin, the fog stacks (SEA-13), the
/// island bonus (SEA-12) and its excluded areas, the VP target (SEA-14).
#[test]
fn layouts_equal_the_data_sea_12_sea_13() {
    for (id, players, variant) in variants() {
        let rules = &json(id)["rules"];
        let what = format!("{} for {players}", id.name());
        let layout = layout_for(id, players).expect("a layout");

        // land_hexes, not land_areas (which the loader reads): a second source for the areas.
        let land: BTreeSet<(HexCoord, u8)> = variant["land_hexes"]
            .as_array()
            .expect("land_hexes")
            .iter()
            .map(|h| {
                let at = HexCoord::new(h["q"].as_i64().unwrap() as i32, h["r"].as_i64().unwrap() as i32);
                (at, h["land_area"].as_u64().unwrap() as u8)
            })
            .collect();
        assert_eq!(layout.land_areas.iter().copied().collect::<BTreeSet<_>>(), land, "{what}");
        assert_eq!(layout.land_areas.len(), land.len(), "{what}: a hex listed twice");

        match &variant["setup"]["allowed_land_areas"] {
            Value::String(any) => {
                assert_eq!(any, "any");
                assert_eq!(layout.setup_hexes, None, "{what}");
            }
            allowed => {
                let allowed = tokens(allowed);
                let expected: BTreeSet<HexCoord> =
                    land.iter().filter(|(_, a)| allowed.contains(a)).map(|(h, _)| *h).collect();
                let setup = layout.setup_hexes.as_ref().expect("setup hexes");
                assert_eq!(setup.iter().copied().collect::<BTreeSet<_>>(), expected, "{what}");
                assert!(!setup.is_empty());
            }
        }
        assert_eq!(layout.margin, hex_list(&variant["margin_sea_hexes"]), "{what}");
        assert_eq!(layout.vp_target as u64, variant["vp_to_win"].as_u64().unwrap(), "{what}");

        let fog = variant["groups"].as_array().unwrap().iter().find(|g| g["hidden_by_fog"] == Value::Bool(true));
        match fog {
            Some(group) => {
                let stack: BTreeMap<String, u64> =
                    layout.fog_terrain.iter().map(|&(t, n)| (terrain_name(t), u64::from(n))).collect();
                assert_eq!(stack, pool(&group["terrain_pool"]), "{what}");
                assert!(stack.contains_key("sea"), "{what}: the hidden stack holds sea");
                assert_eq!(sorted(layout.fog_tokens.clone()), sorted(tokens(&group["number_pool"])), "{what}");
            }
            None => assert!(layout.fog_terrain.is_empty() && layout.fog_tokens.is_empty(), "{what}"),
        }

        match &rules["island_bonus"] {
            // WON-4 replaces the bonus JSettlers gives (once per player) with +1 per settlement.
            _ if id == ScenarioId::Wonders => {
                assert_eq!(layout.island_bonus, Some((IslandBonusMode::PerSettlementOnMarkedIslands, 1)));
            }
            Value::Null => {
                assert_eq!(layout.island_bonus, None, "{what}");
                assert!(layout.bonus_excluded_areas.is_empty());
            }
            bonus => {
                let mode: IslandBonusMode = serde_json::from_value(bonus["mode"].clone()).unwrap();
                assert_eq!(layout.island_bonus, Some((mode, bonus["vp"].as_u64().unwrap() as u8)), "{what}");
                let excluded = bonus.get("excluded_land_areas").map(tokens).unwrap_or_default();
                assert_eq!(layout.bonus_excluded_areas, excluded, "{what}");
            }
        }
    }
}

/// Checks one generated board against the variant's data.
fn check_board(what: &str, variant: &Value, layout: &ScenarioLayout, board: &BoardLayout, forbid_red: bool) {
    let tiles: BTreeMap<HexCoord, HexTile> = board.hexes.iter().map(|t| (t.hex, *t)).collect();
    assert_eq!(tiles.len(), board.hexes.len(), "{what}: a hex listed twice");
    let area_of = |h: HexCoord| layout.land_areas.iter().find(|(x, _)| *x == h).map(|&(_, a)| a);

    let mut land_count = 0;
    for group in variant["groups"].as_array().expect("groups") {
        let positions = hex_list(&group["positions"]);
        land_count += positions.len();
        let laid: Vec<HexTile> = positions.iter().map(|h| tiles[h]).collect();
        let name = group["name"].as_str().unwrap();

        if group["hidden_by_fog"] == Value::Bool(true) {
            // SEA-13: face down, no token; what hides there is drawn on reveal.
            assert!(laid.iter().all(|t| t.terrain == Terrain::Fog && t.number.is_none()), "{what} {name}");
            continue;
        }
        let terrains =
            count(laid.iter().map(|t| t.terrain).map(terrain_name).collect::<Vec<_>>().iter().map(|s| s.as_str()));
        assert_eq!(terrains, pool(&group["terrain_pool"]), "{what} {name}: terrain = the pool");
        if let Some(fixed) = group.get("terrain_fixed") {
            let fixed: Vec<Terrain> = fixed.as_array().unwrap().iter().map(|t| terrain(t.as_str().unwrap())).collect();
            assert_eq!(laid.iter().map(|t| t.terrain).collect::<Vec<_>>(), fixed, "{what} {name}");
        }
        // SCN-3: neutral land (area 0) takes no token whatever its terrain.
        let neutral = laid.iter().all(|t| area_of(t.hex) == Some(0));
        if neutral && layout.fleet.is_some() {
            // PIR-23: the pirate islands take their tokens in position order; the positions
            // past the end of the list none.
            let listed = group["number_pool"].as_array().map_or(0, Vec::len);
            let takers: Vec<bool> =
                laid.iter().filter(|t| t.terrain.takes_number()).map(|t| t.number.is_some()).collect();
            assert_eq!(takers, (0..takers.len()).map(|i| i < listed).collect::<Vec<_>>(), "{what} {name}");
            assert!(laid.iter().all(|t| t.terrain.takes_number() || t.number.is_none()), "{what} {name}");
        } else {
            assert!(laid.iter().all(|t| t.number.is_some() == (t.terrain.takes_number() && !neutral)), "{what} {name}");
        }
        let numbers: Vec<u8> = laid.iter().filter_map(|t| t.number).collect();
        match group.get("number_pool") {
            None => assert!(numbers.is_empty(), "{what} {name}: no tokens"),
            Some(pool) => assert_eq!(sorted(numbers.clone()), sorted(tokens(pool)), "{what} {name}: tokens = the pool"),
        }
        if let Some(order) = group.get("numbers_in_position_order") {
            assert_eq!(numbers, tokens(order), "{what} {name}: tokens in position order");
        }
        if group["numbers_shuffled"] == Value::Bool(true) {
            let red_gold = laid.iter().any(|t| t.terrain == Terrain::Gold && matches!(t.number, Some(6 | 8)));
            assert!(!red_gold, "{what} {name}: gold on a 6 or 8");
        }
        // WON-2: no 6 or 8 where the data forbids one.
        for at in group.get("constraint_no_6_or_8_on").map(hex_list).unwrap_or_default() {
            assert!(!matches!(tiles[&at].number, Some(6 | 8)), "{what} {name}: a 6 or 8 on {at}");
        }
        if let Some(area) = group.get("constraint_gold_in_area").and_then(Value::as_u64) {
            let there = laid.iter().any(|t| t.terrain == Terrain::Gold && area_of(t.hex) == Some(area as u8));
            assert!(there, "{what} {name}: no gold in land area {area}");
        }
    }

    // Sea and margin are sea; nothing else is on the map.
    let sea = hex_list(&variant["sea_hexes"]);
    let margin = hex_list(&variant["margin_sea_hexes"]);
    for h in sea.iter().chain(&margin) {
        assert_eq!((tiles[h].terrain, tiles[h].number), (Terrain::Sea, None), "{what}: {h}");
    }
    assert_eq!(board.hexes.len(), land_count + sea.len() + margin.len(), "{what}");
    assert!(board.river_hexes.is_empty());

    // B-GEO-11 over the whole map.
    if forbid_red {
        assert!(!has_adjacent_red_numbers(&board.hexes), "{what}: neighbouring 6/8");
    }

    // Harbours: the data's edges in order; kinds from the pool (or as listed).
    let harbours = variant["harbours"].as_array().unwrap();
    let edges: Vec<EdgeId> = harbours.iter().map(|h| h["edge"].as_str().unwrap().parse().unwrap()).collect();
    assert_eq!(board.harbours.iter().map(|h| h.edge).collect::<Vec<_>>(), edges, "{what}");
    let kinds: Vec<String> = board.harbours.iter().map(|h| kind_name(h.kind)).collect();
    assert_eq!(count(kinds.iter().map(|s| s.as_str())), pool(&variant["harbour_kind_pool"]), "{what}");
    if variant["harbour_kinds_shuffled"] == Value::Bool(false) {
        let listed: Vec<&str> = harbours.iter().map(|h| h["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds, listed, "{what}: fixed harbour kinds");
    }

    // Robber and pirate. CLV-15: Cloth for Catan's robber starts on the first desert of the
    // village islands (land area 0) in reading order.
    let neutral_desert = variant["groups"].as_array().unwrap().iter().find(|g| g["name"] == "village islands");
    match &variant["robber_start"] {
        _ if what.starts_with("cloth_for_catan") => {
            let group = neutral_desert.expect("the village islands");
            let mut deserts: Vec<HexCoord> = hex_list(&group["positions"])
                .into_iter()
                .zip(group["terrain_fixed"].as_array().unwrap())
                .filter(|(_, t)| *t == "desert")
                .map(|(h, _)| h)
                .collect();
            deserts.sort_by_key(|h| (h.r, h.q));
            assert_eq!(board.robber, Some(deserts[0]), "{what}");
        }
        Value::Array(_) => assert_eq!(board.robber, Some(hex(&variant["robber_start"])), "{what}"),
        Value::String(text) if text == "a desert" => {
            let at = board.robber.expect("a robber hex");
            assert_eq!(tiles[&at].terrain, Terrain::Desert, "{what}");
            let marked = variant["groups"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["robber_on_desert"] == Value::Bool(true) && hex_list(&g["positions"]).contains(&at));
            assert!(marked, "{what}: the robber's desert is in a robber_on_desert group");
        }
        Value::String(text) => {
            assert!(text.starts_with("off-board"), "{what}: {text}");
            assert_eq!(board.robber, None, "{what}");
        }
        other => panic!("{what}: robber_start {other}"),
    }
    let pirate = (!variant["pirate_start"].is_null()).then(|| hex(&variant["pirate_start"]));
    assert_eq!(board.pirate, pirate, "{what}");
    if let Some(p) = pirate {
        assert!(sea.contains(&p), "{what}: the pirate starts inside the play area");
    }
}

/// SEA-13, B-GEO-9, B-GEO-11: every map for every player count, many seeds: a valid board
/// whose pools, constraints, harbours, robber and pirate are the data's, with the data's
/// number of vertices and edges.
#[test]
fn generated_boards_follow_the_data_sea_13_b_geo_9_b_geo_11() {
    for (id, players, variant) in variants() {
        let layout = layout_for(id, players).expect("a layout");
        for seed in 0..SEEDS {
            let what = format!("{} for {players}, seed {seed}", id.name());
            let generated = generate(id, players, &mut Rng::new(seed), true, Default::default(), false)
                .unwrap_or_else(|e| panic!("{what}: {e:?}"));
            check_board(&what, &variant, layout, &generated, true);
            let board = Board::new(generated).unwrap_or_else(|e| panic!("{what}: {e:?}"));
            // B-GEO-9: a vertex exists iff its three hexes are on the map (land + sea + margin).
            let counts = &variant["counts"];
            assert_eq!(board.vertices.len() as u64, counts["vertices_on_map"].as_u64().unwrap(), "{what}");
            assert_eq!(board.edges.len() as u64, counts["edges_on_map"].as_u64().unwrap(), "{what}");
        }
    }
}

/// Without B-GEO-11 the pools and the data's own constraints still hold.
#[test]
fn boards_without_the_red_number_rule_keep_the_pools() {
    for (id, players, variant) in variants() {
        let layout = layout_for(id, players).expect("a layout");
        for seed in 0..10 {
            let what = format!("{} for {players}, seed {seed}", id.name());
            let generated = generate(id, players, &mut Rng::new(seed), false, Default::default(), false)
                .unwrap_or_else(|e| panic!("{what}: {e:?}"));
            check_board(&what, &variant, layout, &generated, false);
            Board::new(generated).unwrap_or_else(|e| panic!("{what}: {e:?}"));
        }
    }
}

#[test]
fn the_generator_is_deterministic_and_varies_with_the_seed() {
    for (id, players, _) in variants() {
        let boards: BTreeSet<String> = (0..10)
            .map(|seed| {
                let a = generate(id, players, &mut Rng::new(seed), true, Default::default(), false).unwrap();
                let b = generate(id, players, &mut Rng::new(seed), true, Default::default(), false).unwrap();
                assert_eq!(a, b, "{} for {players}, seed {seed}", id.name());
                serde_json::to_string(&a).unwrap()
            })
            .collect();
        assert!(boards.len() > 1, "{} for {players}: every seed lays the same board", id.name());
    }
}

/// A broken file is refused when read, not when a game starts: counts that disagree, an
/// unknown robber start.
#[test]
fn the_loader_refuses_inconsistent_data() {
    let broken = |edit: &dyn Fn(&mut Value)| {
        let mut file = json(ScenarioId::NewShores);
        edit(&mut file["variants"]["3"]);
        data::parse(&file.to_string(), data::ByRule::default())
    };
    assert!(broken(&|_| {}).is_ok());
    let short_pool = broken(&|v| {
        v["groups"][1]["number_pool"].as_array_mut().unwrap().pop();
    });
    assert!(short_pool.unwrap_err().contains("number tokens"));
    let robber = broken(&|v| v["robber_start"] = Value::String("somewhere".into()));
    assert!(robber.unwrap_err().contains("robber_start"));
    let harbours = broken(&|v| {
        v["harbours"].as_array_mut().unwrap().pop();
    });
    assert!(harbours.unwrap_err().contains("harbour"));
    let area = broken(&|v| {
        v["land_areas"]["2"].as_array_mut().unwrap().pop();
    });
    assert!(area.unwrap_err().contains("no land area"));
}

/// Constraints no draw can meet end in an error after the bounded draws, not a hang.
#[test]
fn impossible_constraints_are_an_error_not_a_hang() {
    let mut file = json(ScenarioId::NewShores);
    // The small islands' two gold hexes can then only get a 6 or an 8.
    file["variants"]["3"]["groups"][1]["number_pool"] = serde_json::json!([6, 6, 6, 6, 8, 8, 8, 8]);
    let scenario = data::parse(&file.to_string(), data::ByRule::default()).expect("consistent counts");
    let variant = scenario.variants.iter().find(|v| v.players.contains(&3)).unwrap();
    let data::BoardSource::Map(map) = &variant.board else { panic!("a scenario file's variant has a map") };
    let error = generate::lay_out(map, &mut Rng::new(3), false, false).unwrap_err();
    assert!(error.contains("small islands"), "{error}");
}
