//! Games stored by earlier versions load in this one (README, "Stored games"): the fixture
//! games in `fixtures/format1/` were recorded by the engine before the ruleset restructure,
//! in exactly the shape the server stored them (a bare JSON array of events per log entry, the
//! bare `Game` as snapshot). Each must read through the upcasters, replay to the state its
//! snapshot recorded, and continue: deciding the moves that followed in the recorded game
//! gives exactly the events recorded then (the same rules and the same chance streams).

use std::path::{Path, PathBuf};

use catan_engine::{
    protocol::versioned::{self, Snapshot},
    DevCard, DevCards, Event, Game, GameConfig, Move, Pieces, Resources, Seat, TradeOffer, Viewer,
};
use serde_json::Value;

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/format1");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixture directory")
        .map(|entry| entry.expect("fixture entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "expected the seven format-1 fixture games in {}", dir.display());
    files
}

struct Fixture {
    name: String,
    config: GameConfig,
    /// Each entry's events as the server stored them (JSON text).
    stored_entries: Vec<String>,
    snapshot: Value,
    /// (seat, move, the events stored for it).
    continuation: Vec<(Seat, Move, String)>,
}

fn load(path: &Path) -> Fixture {
    let text = std::fs::read_to_string(path).expect("fixture readable");
    let json: Value = serde_json::from_str(&text).expect("fixture is JSON");
    let stored = |events: &Value| serde_json::to_string(events).expect("events serialize");
    Fixture {
        name: path.file_stem().unwrap().to_string_lossy().into_owned(),
        config: serde_json::from_value(json["config"].clone()).expect("format-1 config still reads"),
        stored_entries: json["entries"].as_array().expect("entries").iter().map(|e| stored(&e["events"])).collect(),
        snapshot: json["snapshot"].clone(),
        continuation: json["continuation"]
            .as_array()
            .expect("continuation")
            .iter()
            .map(|step| {
                let seat = Seat(step["seat"].as_u64().expect("seat") as u8);
                let mv: Move = serde_json::from_value(step["move"].clone()).expect("format-1 move still reads");
                (seat, mv, stored(&step["events"]))
            })
            .collect(),
    }
}

fn replay(fixture: &Fixture) -> Game {
    let mut events = Vec::new();
    for stored in &fixture.stored_entries {
        assert!(stored.starts_with('['), "{}: format 1 stores bare arrays", fixture.name);
        events.extend(versioned::decode_events(stored).unwrap_or_else(|e| panic!("{}: {e}", fixture.name)));
    }
    Game::replay(fixture.config.clone(), &events).unwrap_or_else(|e| panic!("{}: replay failed: {e}", fixture.name))
}

fn field<T: serde::de::DeserializeOwned>(value: &Value, name: &str) -> T {
    serde_json::from_value(value[name].clone()).unwrap_or_else(|e| panic!("snapshot field {name}: {e}"))
}

/// Compares the replayed game with everything the format-1 snapshot recorded.
fn assert_matches_snapshot(name: &str, game: &Game, snapshot: &Value) {
    assert_eq!(game.events_applied(), field::<u64>(snapshot, "events_applied"), "{name}: events applied");
    assert_eq!(*game.bank(), field::<Resources>(snapshot, "bank"), "{name}: bank");
    assert_eq!(*game.development_deck(), field::<DevCards>(snapshot, "deck"), "{name}: deck");
    assert_eq!(game.longest_road_holder(), field::<Option<Seat>>(snapshot, "longest_road"), "{name}: longest road");
    assert_eq!(game.largest_army_holder(), field::<Option<Seat>>(snapshot, "largest_army"), "{name}: largest army");
    assert_eq!(game.winner(), field::<Option<Seat>>(snapshot, "winner"), "{name}: winner");
    assert_eq!(game.open_offers(), field::<Vec<TradeOffer>>(snapshot, "offers").as_slice(), "{name}: offers");
    let robber: Option<u8> = field(snapshot, "robber");
    assert_eq!(game.robber_hex(), robber.map(|h| game.board().hexes[h as usize]), "{name}: robber");

    let buildings = snapshot["buildings"].as_array().expect("buildings");
    assert_eq!(buildings.len(), game.board().vertices.len(), "{name}: the board's vertices are indexed alike");
    for (v, stored) in buildings.iter().enumerate() {
        let live = game.building_index(v as u16).map(|b| serde_json::json!({"seat": b.seat, "kind": b.kind}));
        assert_eq!(live.unwrap_or(Value::Null), *stored, "{name}: building at vertex {v}");
    }
    let roads = snapshot["roads"].as_array().expect("roads");
    for (e, stored) in roads.iter().enumerate() {
        let live = game.road_at(game.board().edges[e]);
        assert_eq!(serde_json::to_value(live).unwrap(), *stored, "{name}: road on edge {e}");
    }

    for (i, stored) in snapshot["players"].as_array().expect("players").iter().enumerate() {
        let seat = Seat(i as u8);
        let player = game.player(seat).expect("seat");
        assert_eq!(*player.resources(), field::<Resources>(stored, "resources"), "{name}: seat {i} hand");
        assert_eq!(*player.playable_dev_cards(), field::<DevCards>(stored, "dev_cards"), "{name}: seat {i} cards");
        assert_eq!(*player.new_dev_cards(), field::<DevCards>(stored, "new_dev_cards"), "{name}: seat {i} new cards");
        assert_eq!(player.knights_played_count(), field::<u32>(stored, "knights_played"), "{name}: seat {i} knights");
        assert_eq!(game.discoveries(seat), field::<u32>(stored, "discoveries"), "{name}: seat {i} discoveries");
        let left = Pieces {
            roads: field(stored, "roads_left"),
            settlements: field(stored, "settlements_left"),
            cities: field(stored, "cities_left"),
            ships: 0,
        };
        assert_eq!(player.pieces_left(), left, "{name}: seat {i} pieces");
    }

    let turn = &game.view(Viewer::Spectator).turn;
    let stored_turn = &snapshot["turn"];
    assert_eq!(turn.number, field::<u32>(stored_turn, "number"), "{name}: turn number");
    assert_eq!(game.turn_number(), turn.number);
    assert_eq!(turn.rolled, field::<bool>(stored_turn, "rolled"), "{name}: rolled");
    assert_eq!(turn.development_card_played, field::<bool>(stored_turn, "dev_card_played"), "{name}: card played");
    let last_roll: Option<(u8, u8)> = field(stored_turn, "last_roll");
    assert_eq!(turn.dice, last_roll.map(|(r, w)| [r, w]), "{name}: dice");

    // The stored phase reads as format 1's phase change would: the phase and what resumes.
    let as_event = serde_json::json!([{ "type": "phase_changed", "phase": snapshot["phase"] }]);
    let upcast = versioned::decode_events(&as_event.to_string()).expect("phase upcasts");
    let Some(Event::PhaseChanged { phase, then }) = upcast.into_iter().next() else { panic!("{name}: no phase") };
    assert_eq!(*game.phase(), phase, "{name}: phase");
    assert_eq!(game.then(), then.as_slice(), "{name}: the phases that resume");
}

#[test]
fn format_one_games_replay_to_their_stored_state() {
    for path in fixtures() {
        let fixture = load(&path);
        let game = replay(&fixture);
        assert_matches_snapshot(&fixture.name, &game, &fixture.snapshot);
        // The stored snapshot itself is an outdated cache: the server rebuilds it from the log.
        let stored_snapshot = serde_json::to_string(&fixture.snapshot).unwrap();
        assert!(matches!(versioned::decode_snapshot(&stored_snapshot), Ok(Snapshot::Outdated { format: 1 })));
    }
}

#[test]
fn format_one_games_continue_exactly_as_recorded() {
    let mut continued = 0;
    for path in fixtures() {
        let fixture = load(&path);
        let mut game = replay(&fixture);
        for (step, (seat, mv, stored)) in fixture.continuation.iter().enumerate() {
            let expected = versioned::decode_events(stored).expect("continuation events upcast");
            let events = game
                .decide(*seat, mv, &mut game.chance())
                .unwrap_or_else(|e| panic!("{}: step {step}: {mv:?} by {seat} refused: {e}", fixture.name));
            assert_eq!(events, expected, "{}: step {step}: {mv:?}", fixture.name);
            for event in &events {
                game.apply(event);
            }
            continued += 1;
        }
        // And the game goes on in the current format: snapshot and log entries round-trip.
        match versioned::decode_snapshot(&versioned::encode_snapshot(&game)).expect("current snapshot reads") {
            Snapshot::Current(read) => assert_eq!(read, game, "{}: snapshot round trip", fixture.name),
            Snapshot::Outdated { format } => panic!("{}: fresh snapshot read as format {format}", fixture.name),
        }
        if let Some(&seat) = game.waiting_for().first() {
            assert!(
                !game.legal_moves(seat).is_empty(),
                "{}: seat {seat} has no move after the continuation",
                fixture.name
            );
        }
    }
    assert!(continued >= 300, "only {continued} continuation moves were checked");
}

#[test]
fn format_one_fixtures_cover_trades_every_card_and_every_interrupted_phase() {
    let mut kinds = std::collections::BTreeSet::new();
    let mut phases = std::collections::BTreeSet::new();
    for path in fixtures() {
        let fixture = load(&path);
        for stored in &fixture.stored_entries {
            for event in versioned::decode_events(stored).unwrap() {
                if let Event::DevelopmentCardBought { card: Some(DevCard::VictoryPoint), .. } = event {
                    kinds.insert("victory_point_bought");
                }
                kinds.insert(event.kind());
            }
        }
        phases.insert(fixture.snapshot["phase"]["name"].as_str().unwrap_or_default().to_owned());
    }
    for kind in [
        "trade_offered",
        "trade_accepted",
        "trade_declined",
        "trade_completed",
        "trade_withdrawn",
        "trades_expired",
        "knight_played",
        "road_building_played",
        "year_of_plenty_played",
        "monopoly_played",
        "victory_point_bought",
        "resources_discarded",
        "resource_stolen",
        "game_won",
    ] {
        assert!(kinds.contains(kind), "no fixture has {kind}");
    }
    for phase in ["discard", "road_building", "special_building", "move_robber", "gold_choice", "game_over"] {
        assert!(phases.contains(phase), "no fixture is cut in {phase}");
    }
}
