//! Replays (`GET /api/v1/games/{id}?at=<seq>`) and the board picture
//! (`GET /api/v1/games/{id}/board.svg`): each past position equals the game as it was, is
//! redacted for its reader as the live game was, and the picture is well-formed SVG with one
//! element per hex and as many pieces as the game has, fog kept as fog.

use std::{collections::HashMap, time::Instant};

use rand::{rngs::StdRng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{assert_problem, choose, spawn_app, Backend, TestApp, User},
};

// ---------------------------------------------------------------------------------------
// A minimal XML reader: enough to prove the SVG well-formed and to find its elements.

/// One element of a document, in document order.
#[derive(Debug, Clone)]
struct Element {
    name: String,
    attrs: HashMap<String, String>,
    /// The text directly inside it.
    text: String,
}

impl Element {
    fn classes(&self) -> Vec<&str> {
        self.attrs.get("class").map(|c| c.split_whitespace().collect()).unwrap_or_default()
    }

    fn has_class(&self, class: &str) -> bool {
        self.classes().contains(&class)
    }

    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.get(name).map(String::as_str)
    }
}

fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let end = rest[at..].find(';').unwrap_or_else(|| panic!("an unterminated entity in {text:?}")) + at;
        let entity = &rest[at + 1..end];
        out.push(match entity {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            _ if entity.starts_with("#x") => char::from_u32(u32::from_str_radix(&entity[2..], 16).unwrap()).unwrap(),
            _ if entity.starts_with('#') => char::from_u32(entity[1..].parse().unwrap()).unwrap(),
            _ => panic!("an unknown entity &{entity}; in {text:?}"),
        });
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

fn is_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':' | '.'))
        && !name.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '.')
}

/// Parses `doc`, panicking unless it is well-formed XML with one root element.
fn parse_xml(doc: &str) -> Vec<Element> {
    let mut elements: Vec<Element> = Vec::new();
    // The open elements: name and index in `elements`.
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut roots = 0;
    let mut rest = doc.trim_start_matches('\u{feff}');
    if rest.starts_with("<?xml") {
        rest = &rest[rest.find("?>").expect("an unterminated XML declaration") + 2..];
    }
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            assert!(open.is_empty() && rest.trim().is_empty(), "text outside the root: {rest:?}");
            break;
        };
        let text = &rest[..lt];
        assert!(!text.contains('>') || !open.is_empty(), "stray text {text:?}");
        match open.last() {
            Some((_, index)) => elements[*index].text.push_str(&unescape(text)),
            None => assert!(text.trim().is_empty(), "text outside the root: {text:?}"),
        }
        rest = &rest[lt..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = &comment[comment.find("-->").expect("an unterminated comment") + 3..];
            continue;
        }
        let gt = rest.find('>').expect("an unterminated tag");
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let (expected, _) = open.pop().unwrap_or_else(|| panic!("</{name}> closes nothing"));
            assert_eq!(name.trim(), expected, "mismatched closing tag");
            continue;
        }
        let (body, empty) = match tag.strip_suffix('/') {
            Some(body) => (body, true),
            None => (tag, false),
        };
        let name_end = body.find(char::is_whitespace).unwrap_or(body.len());
        let name = &body[..name_end];
        assert!(is_name(name), "a bad element name {name:?}");
        let mut attrs = HashMap::new();
        let mut a = body[name_end..].trim_start();
        while !a.is_empty() {
            let eq = a.find('=').unwrap_or_else(|| panic!("an attribute without a value in <{tag}>"));
            let attr = a[..eq].trim();
            assert!(is_name(attr), "a bad attribute name {attr:?}");
            let value = a[eq + 1..].trim_start();
            let quote = value.chars().next().filter(|q| *q == '"' || *q == '\'').expect("an unquoted attribute");
            let close = value[1..].find(quote).expect("an unterminated attribute value") + 1;
            let raw = &value[1..close];
            assert!(!raw.contains('<'), "`<` in an attribute value");
            assert!(attrs.insert(attr.to_owned(), unescape(raw)).is_none(), "a repeated attribute {attr}");
            let after = &value[close + 1..];
            assert!(after.is_empty() || after.starts_with(char::is_whitespace), "attributes run together in <{tag}>");
            a = after.trim_start();
        }
        if open.is_empty() {
            roots += 1;
        }
        elements.push(Element { name: name.to_owned(), attrs, text: String::new() });
        if !empty {
            open.push((name.to_owned(), elements.len() - 1));
        }
    }
    assert!(open.is_empty(), "unclosed elements: {open:?}");
    assert_eq!(roots, 1, "one root element");
    elements
}

#[test]
fn the_xml_check_refuses_what_is_not_well_formed() {
    assert_eq!(parse_xml("<svg a=\"1 &amp; 2\"><g><text>x &lt; y</text></g></svg>").len(), 3);
    for bad in [
        "<svg><g></svg>",
        "<svg a=1></svg>",
        "<svg a=\"1\" a=\"2\"/>",
        "<svg>&nbsp;</svg>",
        "<svg/><svg/>",
        "<svg a=\"x\"b=\"y\"/>",
        "<svg>",
    ] {
        assert!(std::panic::catch_unwind(|| parse_xml(bad)).is_err(), "{bad} passed");
    }
}

// ---------------------------------------------------------------------------------------
// Helpers

fn svg(app: &TestApp, id: &str, query: &str, token: Option<&str>) -> (String, Vec<Element>) {
    let response = app.get(&format!("/api/v1/games/{id}/board.svg{query}"), token);
    assert_eq!(response.status(), StatusCode::OK);
    let content_type = response.headers()["content-type"].to_str().unwrap().to_owned();
    assert_eq!(content_type, "image/svg+xml");
    let text = response.text().unwrap();
    let elements = parse_xml(&text);
    assert_eq!(elements[0].name, "svg");
    assert_eq!(elements[0].attr("xmlns"), Some("http://www.w3.org/2000/svg"));
    (text, elements)
}

fn with_class<'a>(elements: &'a [Element], class: &str) -> Vec<&'a Element> {
    elements.iter().filter(|e| e.has_class(class)).collect()
}

fn at(app: &TestApp, id: &str, seq: i64, token: Option<&str>) -> Value {
    let response = app.get(&format!("/api/v1/games/{id}?at={seq}"), token);
    assert_eq!(response.status(), StatusCode::OK, "at={seq}");
    response.json().unwrap()
}

/// Plays `count` moves chosen among the legal ones, recording after each the game as every
/// user and a spectator see it. Returns those views by version.
fn play_recording(app: &TestApp, id: &str, users: &[User], count: usize, seed: u64) -> HashMap<i64, Vec<Value>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = HashMap::new();
    let record = |seen: &mut HashMap<i64, Vec<Value>>| {
        let views: Vec<Value> =
            users.iter().map(|u| Some(u.token.as_str())).chain([None]).map(|t| app.game(id, t)).collect();
        seen.insert(views[0]["version"].as_i64().unwrap(), views);
    };
    record(&mut seen);
    for _ in 0..count {
        let game = app.game(id, None);
        if game["status"] == "finished" {
            break;
        }
        let seat = game["turn"]["waiting_for"][0].as_u64().unwrap() as usize;
        let legal = app.legal_moves(id, &users[seat]);
        let mv = choose(legal["moves"].as_array().unwrap(), &mut rng).clone();
        assert_eq!(app.submit(id, &users[seat], &mv).status(), StatusCode::CREATED, "{mv}");
        record(&mut seen);
    }
    seen
}

/// Creates a game of built-in bots only (with `request`'s variant), starts it and waits
/// for its end.
fn finished_bot_game(app: &TestApp, request: Value, bots: usize) -> String {
    let host = app.register(&format!("host-{}", &uuid::Uuid::new_v4().simple().to_string()[..8]));
    let mut request = request;
    request["max_players"] = json!(bots);
    request["seat_creator"] = json!(false);
    let id = app.create_game(&host, &request)["id"].as_str().unwrap().to_owned();
    for _ in 0..bots {
        let response =
            app.post(&format!("/api/v1/games/{id}/players"), Some(&host.token), &json!({"bot": "heuristic"}));
        assert_eq!(response.status(), StatusCode::CREATED);
    }
    assert_eq!(app.start(&id, &host).status(), StatusCode::OK);
    crate::bots::wait_until_finished(app, &id);
    id
}

fn count(board: &Value, key: &str) -> usize {
    board[key].as_array().map_or(0, Vec::len)
}

fn buildings(board: &Value, kind: &str) -> usize {
    board["buildings"].as_array().unwrap().iter().filter(|b| b["kind"] == kind).count()
}

/// The picture holds exactly the game's hexes (same order, terrain and number) and pieces.
fn assert_picture_matches(elements: &[Element], game: &Value) {
    let board = &game["board"];
    let hexes = board["hexes"].as_array().unwrap();
    let drawn = with_class(elements, "hex");
    assert_eq!(drawn.len(), hexes.len(), "one element per hex");
    for (i, (element, hex)) in drawn.iter().zip(hexes).enumerate() {
        assert_eq!(element.attr("data-hex"), Some(i.to_string().as_str()));
        assert_eq!(element.attr("data-coord"), hex["hex"].as_str());
        assert_eq!(element.attr("data-terrain"), hex["terrain"].as_str());
        assert_eq!(element.attr("data-number").map(|n| n.parse::<u64>().unwrap()), hex["number"].as_u64());
        assert_eq!(element.has_class("fog"), hex["terrain"] == "fog");
        assert_eq!(element.has_class("sea"), hex["terrain"] == "sea");
    }
    assert_eq!(with_class(elements, "road").len(), count(board, "roads"));
    assert_eq!(with_class(elements, "ship").len(), count(board, "ships"));
    assert_eq!(with_class(elements, "settlement").len(), buildings(board, "settlement"));
    assert_eq!(with_class(elements, "city").len(), buildings(board, "city"));
    assert_eq!(with_class(elements, "harbour").len(), count(board, "harbours"));
    assert_eq!(with_class(elements, "robber").len(), usize::from(board["robber"].is_string()));
    // PIR-11: on The Pirate Islands the pirate is the fleet, drawn as such, not twice.
    let plain_pirate = board["pirate"].is_string() && game["pirate_islands"].is_null();
    assert_eq!(with_class(elements, "pirate").len(), usize::from(plain_pirate));
    for road in board["roads"].as_array().unwrap() {
        let edge = road["edge"].as_str().unwrap();
        let drawn = with_class(elements, "road").into_iter().find(|e| e.attr("data-edge") == Some(edge)).unwrap();
        assert_eq!(drawn.attr("data-seat"), Some(road["seat"].to_string().as_str()));
    }
    for building in board["buildings"].as_array().unwrap() {
        let vertex = building["vertex"].as_str().unwrap();
        let class = building["kind"].as_str().unwrap();
        let drawn = with_class(elements, class).into_iter().find(|e| e.attr("data-vertex") == Some(vertex));
        assert_eq!(drawn.unwrap().attr("data-seat"), Some(building["seat"].to_string().as_str()));
    }
    let seats = game["cities_and_knights"]["seats"].as_array().cloned().unwrap_or_default();
    let knights: Vec<&Value> = seats.iter().flat_map(|s| s["knights"].as_array().unwrap()).collect();
    assert_eq!(with_class(elements, "knight").len(), knights.len());
    for knight in knights {
        let drawn = with_class(elements, "knight")
            .into_iter()
            .find(|e| e.attr("data-vertex") == knight["vertex"].as_str())
            .expect("the knight is drawn");
        assert_eq!(drawn.attr("data-rank"), Some(knight["rank"].to_string().as_str()));
        assert_eq!(drawn.attr("data-active"), Some(knight["active"].to_string().as_str()));
        assert_eq!(drawn.attr("data-seat"), Some(knight["seat"].to_string().as_str()));
    }
    let walls: usize = seats.iter().map(|s| s["walls"].as_array().unwrap().len()).sum();
    assert_eq!(with_class(elements, "wall").len(), walls);
    let metropolises: usize = seats.iter().map(|s| s["metropolises"].as_array().unwrap().len()).sum();
    assert_eq!(with_class(elements, "metropolis").len(), metropolises);
    let root = &elements[0];
    assert_eq!(root.attr("data-version"), Some(game["version"].to_string().as_str()));
    assert_eq!(root.attr("data-seq"), Some(game["version"].to_string().as_str()));
}

// ---------------------------------------------------------------------------------------
// Replays

both_backends!(every_past_position_is_the_game_as_it_was_for_each_reader);

/// Each `?at=` equals, for each seat and a spectator, the game resource that reader got live
/// right after that entry: their own hand, the others' as counts.
fn every_past_position_is_the_game_as_it_was_for_each_reader(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(3, 31);
    let seen = play_recording(&app, &id, &users, 40, 5);
    let mut versions: Vec<i64> = seen.keys().copied().collect();
    versions.sort_unstable();
    assert!(versions.len() > 30, "{versions:?}");
    for version in versions {
        let live = &seen[&version];
        for (i, token) in users.iter().map(|u| Some(u.token.as_str())).chain([None]).enumerate() {
            assert_eq!(at(&app, &id, version, token), live[i], "at={version} for reader {i}");
        }
    }
    // After setup (12 placements) every seat holds cards only it (and nobody else) sees.
    let mid = at(&app, &id, 20, Some(&users[1].token));
    assert_eq!(mid["you"], 1);
    assert!(mid["hand"]["resources"].is_object());
    for player in mid["players"].as_array().unwrap() {
        assert!(player.get("resources").is_none(), "no hand shown while the game runs: {player}");
    }
    let spectator = at(&app, &id, 20, None);
    assert!(spectator.get("hand").is_none() && spectator["you"].is_null());
    // The start: no piece on the board yet.
    let start = at(&app, &id, 1, None);
    assert_eq!(start["version"], 1);
    assert_eq!(count(&start["board"], "buildings") + count(&start["board"], "roads"), 0);
}

both_backends!(positions_outside_the_log_are_refused);

fn positions_outside_the_log_are_refused(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(2, 3);
    let version = app.game(&id, None)["version"].as_i64().unwrap();
    for path in [format!("/api/v1/games/{id}"), format!("/api/v1/games/{id}/board.svg")] {
        for bad in [version + 1, i64::MAX] {
            assert_problem(app.get(&format!("{path}?at={bad}"), None), 422, "seq_out_of_range");
        }
        // Below the spec's `minimum: 1`: a bad query, as every bound the spec gives.
        for bad in [0, -1] {
            assert_problem(app.get(&format!("{path}?at={bad}"), None), 400, "invalid_query");
        }
        assert_problem(app.get(&format!("{path}?at=abc"), Some(&users[0].token)), 400, "invalid_query");
        assert_problem(app.get(&format!("{path}?at=1.5"), None), 400, "invalid_query");
    }
    assert_problem(app.get(&format!("/api/v1/games/{id}/board.svg?labels=maybe"), None), 400, "invalid_query");
    let missing = uuid::Uuid::new_v4();
    assert_problem(app.get(&format!("/api/v1/games/{missing}?at=1"), None), 404, "not_found");
    assert_problem(app.get(&format!("/api/v1/games/{missing}/board.svg"), None), 404, "not_found");
    // An open game has no log yet.
    let host = app.register("opener");
    let open = app.create_game(&host, &json!({"max_players": 3}))["id"].as_str().unwrap().to_owned();
    assert_problem(app.get(&format!("/api/v1/games/{open}?at=1"), None), 422, "seq_out_of_range");
    let (_, elements) = svg(&app, &open, "", None);
    assert!(with_class(&elements, "hex").is_empty(), "no board before the start");
    assert_eq!(elements[0].attr("data-seq"), Some("0"));
    // Its legend changes with each join, and so does its tag.
    let tag = |app: &TestApp| app.get(&format!("/api/v1/games/{open}/board.svg"), None).headers()["etag"].clone();
    let before = tag(&app);
    assert_eq!(app.join(&open, &app.register("joiner")).status(), StatusCode::CREATED);
    assert_ne!(tag(&app), before);
}

both_backends!(a_finished_game_shows_everything_at_every_position);

/// Once the game is over its log is public, and so is every past position: each seat's hand
/// and cards, and the seed.
fn a_finished_game_shows_everything_at_every_position(backend: Backend) {
    let app = spawn_app(backend);
    let id = finished_bot_game(&app, json!({"seed": 12}), 4);
    let last = app.game(&id, None);
    let version = last["version"].as_i64().unwrap();
    let end = at(&app, &id, version, None);
    assert_eq!(end["status"], "finished");
    assert_eq!(end["board"], last["board"]);
    assert_eq!(end["players"], last["players"]);
    assert_eq!(end["won_by"], last["won_by"]);
    let mid = at(&app, &id, version / 2, None);
    assert_eq!(mid["status"], "playing");
    assert!(mid["winner"].is_null());
    assert!(mid["seed"].is_u64(), "{mid}");
    for player in mid["players"].as_array().unwrap() {
        assert!(player["resources"].is_object() && player["development_cards"].is_object(), "{player}");
    }
    // The last position rebuilt from the log is the stored one.
    assert!(app.check_replay(&id).matches_snapshot);
}

// ---------------------------------------------------------------------------------------
// The picture

both_backends!(the_picture_shows_every_hex_and_piece_of_the_game);

fn the_picture_shows_every_hex_and_piece_of_the_game(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(4, 2026);
    let seen = play_recording(&app, &id, &users, 60, 9);
    let game = app.game(&id, None);
    let (_, elements) = svg(&app, &id, "", None);
    assert_picture_matches(&elements, &game);
    assert_eq!(with_class(&elements, "settlement").len() + with_class(&elements, "city").len(), 8, "after setup");
    // A token on every numbered hex; 6 and 8 (and only they) in red.
    let hexes = with_class(&elements, "hex");
    let numbered = hexes.iter().filter(|h| h.attr("data-number").is_some()).count();
    let hot = hexes.iter().filter(|h| matches!(h.attr("data-number"), Some("6" | "8"))).count();
    assert_eq!(with_class(&elements, "token").len(), numbered);
    assert_eq!(with_class(&elements, "hot").len(), hot);
    assert!(hot >= 4, "the beginner board has two 6s and two 8s");
    // Every past position draws as its game resource.
    for seq in [1, 5, 13, 30] {
        let (_, past) = svg(&app, &id, &format!("?at={seq}"), Some(&users[2].token));
        assert_picture_matches(&past, &seen[&seq][2]);
    }
    // With labels: every vertex and edge a piece stands on is named, as legal moves name them.
    let (_, labelled) = svg(&app, &id, "?labels=true", None);
    let vertices: Vec<&str> =
        with_class(&labelled, "vertex-label").iter().filter_map(|e| e.attr("data-vertex")).collect();
    let edges: Vec<&str> = with_class(&labelled, "edge-label").iter().filter_map(|e| e.attr("data-edge")).collect();
    assert_eq!(vertices.len(), 54, "the base board's vertices");
    assert_eq!(edges.len(), 72, "the base board's edges");
    for building in game["board"]["buildings"].as_array().unwrap() {
        assert!(vertices.contains(&building["vertex"].as_str().unwrap()));
    }
    for label in with_class(&labelled, "vertex-label") {
        assert_eq!(Some(label.text.as_str()), label.attr("data-vertex"));
    }
    let legal = app.legal_moves(&id, &users[crate::games::active_seat(&app, &id)]);
    for mv in legal["moves"].as_array().unwrap() {
        for key in ["vertex", "edge"] {
            if let Some(place) = mv[key].as_str() {
                assert!(vertices.contains(&place) || edges.contains(&place), "{mv} has no label");
            }
        }
    }
    assert!(with_class(&elements, "vertex-label").is_empty(), "labels only on request");
}

/// SCN-3, FTR-7: the tribe's islands are drawn as neutral land and every gift still on its
/// edge is drawn there with its kind, at the start and at the end of a game of bots.
#[test]
fn a_forgotten_tribe_game_draws_its_neutral_islands_and_gifts() {
    let app = spawn_app(Backend::Sqlite);
    let request = json!({"variant": "seafarers", "scenario": "forgotten_tribe", "seed": 17});
    let id = finished_bot_game(&app, request, 4);
    for query in ["?at=1", ""] {
        let game = if query.is_empty() { app.game(&id, None) } else { at(&app, &id, 1, None) };
        let (_, elements) = svg(&app, &id, query, None);
        assert_picture_matches(&elements, &game);
        let neutral: Vec<&str> = with_class(&elements, "neutral").iter().filter_map(|e| e.attr("data-coord")).collect();
        let listed: Vec<String> =
            game["board"]["neutral"].as_array().unwrap().iter().map(|h| h.as_str().unwrap().to_owned()).collect();
        assert_eq!(neutral.len(), 12, "SCN-3: the tribe's twelve hexes");
        assert!(neutral.iter().all(|c| listed.iter().any(|l| l == c)), "{neutral:?} vs {listed:?}");
        let drawn: Vec<(String, String)> = with_class(&elements, "gift")
            .iter()
            .map(|g| (g.attr("data-edge").unwrap().to_owned(), g.attr("data-gift").unwrap().to_owned()))
            .collect();
        let gifts: Vec<(String, String)> = game["forgotten_tribe"]["gifts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| (g["edge"].as_str().unwrap().to_owned(), g["gift"].as_str().unwrap().to_owned()))
            .collect();
        assert_eq!(drawn, gifts, "FTR-7: the gifts on their edges{query}");
        if query == "?at=1" {
            assert_eq!(gifts.len(), 8 + 4 + 6, "every gift at the start");
        }
    }
}

/// CLV-5/6: every village is drawn on its vertex with its number, its cloth left and a dot
/// for each seat connected to it, at the start and at the end of a game of bots; the legend
/// gives each seat's cloth.
#[test]
fn a_cloth_for_catan_game_draws_its_villages_and_cloth() {
    let app = spawn_app(Backend::Sqlite);
    let request = json!({"variant": "seafarers", "scenario": "cloth_for_catan", "seed": 17});
    let id = finished_bot_game(&app, request, 4);
    for query in ["?at=1", ""] {
        let game = if query.is_empty() { app.game(&id, None) } else { at(&app, &id, 1, None) };
        let (text, elements) = svg(&app, &id, query, None);
        assert_picture_matches(&elements, &game);
        let villages = game["cloth_for_catan"]["villages"].as_array().unwrap();
        let drawn = with_class(&elements, "village");
        assert_eq!(drawn.len(), villages.len(), "CLV-5: 8 villages{query}");
        for (g, village) in drawn.iter().zip(villages) {
            assert_eq!(g.attr("data-vertex"), village["vertex"].as_str(), "{query}");
            assert_eq!(g.attr("data-cloth").map(str::to_owned), Some(village["cloth"].to_string()), "{query}");
        }
        let dots = with_class(&elements, "village-trader").len();
        let connections: usize = villages.iter().map(|v| v["connected"].as_array().unwrap().len()).sum();
        assert_eq!(dots, connections, "a dot per connection{query}");
        for (seat, cloth) in game["cloth_for_catan"]["cloth"].as_array().unwrap().iter().enumerate() {
            assert!(text.contains(&format!("{cloth} cloth")), "seat {seat}'s cloth in the legend{query}");
        }
        if query == "?at=1" {
            assert!(villages.iter().all(|v| v["cloth"] == 5), "5 cloth each at the start");
        }
    }
}

/// PIR-4, PIR-7, PIR-11: every seat's lane is drawn, the fleet on its hex while it sails,
/// every fortress not yet conquered with its strength, at the start and at the end of a game
/// of bots.
#[test]
fn a_pirate_islands_game_draws_its_lanes_fleet_and_fortresses() {
    let app = spawn_app(Backend::Sqlite);
    let request = json!({"variant": "seafarers", "scenario": "pirate_islands", "seed": 17});
    let id = finished_bot_game(&app, request, 4);
    for query in ["?at=1", ""] {
        let game = if query.is_empty() { app.game(&id, None) } else { at(&app, &id, 1, None) };
        let (_, elements) = svg(&app, &id, query, None);
        assert_picture_matches(&elements, &game);
        let pirates = &game["pirate_islands"];
        assert_eq!(with_class(&elements, "lane").len(), 4, "PIR-7: a lane per seat{query}");
        let fleet: Vec<&str> = with_class(&elements, "fleet").iter().filter_map(|e| e.attr("data-coord")).collect();
        match pirates["fleet_hex"].as_str() {
            Some(hex) => assert_eq!(fleet, [hex], "PIR-11: the fleet on its hex{query}"),
            None => assert!(fleet.is_empty(), "PIR-21: a defeated fleet is not drawn"),
        }
        let standing: Vec<(String, String)> = pirates["seats"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["fortress_strength"].as_u64() > Some(0))
            .map(|s| (s["fortress"].as_str().unwrap().to_owned(), s["fortress_strength"].to_string()))
            .collect();
        let drawn: Vec<(String, String)> = with_class(&elements, "fortress")
            .iter()
            .map(|f| (f.attr("data-vertex").unwrap().to_owned(), f.attr("data-strength").unwrap().to_owned()))
            .collect();
        assert_eq!(drawn, standing, "PIR-4: the fortresses standing{query}");
        if query == "?at=1" {
            assert_eq!(drawn.len(), 4, "four fortresses of strength 3 at the start");
        }
    }
}

both_backends!(fog_stays_fog_in_the_picture);

/// SEA-13: hexes still in the fog are drawn as fog, without terrain or number, for every
/// reader; the sea, ships and the pirate are drawn.
fn fog_stays_fog_in_the_picture(backend: Backend) {
    let app = spawn_app(backend);
    let request = json!({"max_players": 3, "variant": "seafarers", "scenario": "fog_islands", "seed": 41});
    let (id, users) = app.started_game_with(3, &request);
    play_recording(&app, &id, &users, 150, 3);
    for token in users.iter().map(|u| Some(u.token.as_str())).chain([None]) {
        let game = app.game(&id, token);
        let (text, elements) = svg(&app, &id, "?labels=true", token);
        assert_picture_matches(&elements, &game);
        let fog = with_class(&elements, "fog");
        assert!(!fog.is_empty(), "the fog is not all lifted yet");
        for hex in &fog {
            assert_eq!(hex.attr("data-terrain"), Some("fog"));
            assert!(hex.attr("data-number").is_none());
        }
        assert!(!with_class(&elements, "sea").is_empty());
        // Nothing else in the picture names a terrain: only the hexes' own markers do.
        let fogs = text.matches("data-terrain=\"fog\"").count();
        assert_eq!(fogs, fog.len());
    }
}

#[test]
fn a_cities_and_knights_game_draws_its_knights_walls_and_barbarians() {
    let app = spawn_app(Backend::Sqlite);
    let id = finished_bot_game(&app, json!({"variant": "cities_and_knights", "seed": 5}), 3);
    let game = app.game(&id, None);
    let (text, elements) = svg(&app, &id, "", None);
    assert_picture_matches(&elements, &game);
    let barbarians = with_class(&elements, "barbarians");
    assert_eq!(barbarians.len(), 1);
    let ck = &game["cities_and_knights"];
    assert_eq!(barbarians[0].attr("data-position"), Some(ck["barbarians"].to_string().as_str()));
    assert_eq!(barbarians[0].attr("data-steps"), Some(ck["barbarian_steps"].to_string().as_str()));
    let knights: usize = ck["seats"].as_array().unwrap().iter().map(|s| s["knights"].as_array().unwrap().len()).sum();
    let walls: usize = ck["seats"].as_array().unwrap().iter().map(|s| s["walls"].as_array().unwrap().len()).sum();
    eprintln!("C&K picture: {knights} knights, {walls} walls, {} bytes", text.len());
    assert_eq!(with_class(&elements, "merchant").len(), usize::from(ck["merchant"].is_object()));
    // Issue 30: a metropolis and the merchant are both triangles; a key under the board says
    // which is which, with the three tracks' colours.
    let key = with_class(&elements, "pieces-key");
    assert_eq!(key.len(), 1, "a key to the pieces");
    let keyed: Vec<&str> = elements.iter().filter_map(|e| e.attr("data-key")).collect();
    assert_eq!(keyed, ["metropolis", "metropolis", "metropolis", "merchant"]);
    assert!(
        text.contains("metropolis (trade, politics, science)") && text.contains("merchant (its owner"),
        "the key's words"
    );
    // Midway, the picture is that of the position then.
    let version = game["version"].as_i64().unwrap();
    let mid = at(&app, &id, version / 2, None);
    let (_, past) = svg(&app, &id, &format!("?at={}", version / 2), None);
    assert_picture_matches(&past, &mid);
    if let Ok(dir) = std::env::var("BOARD_EXAMPLE_DIR") {
        std::fs::write(format!("{dir}/example-board-2.svg"), &text).unwrap();
    }
}

both_backends!(pictures_and_positions_are_cached_by_version_and_reader);

fn pictures_and_positions_are_cached_by_version_and_reader(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(2, 17);
    play_recording(&app, &id, &users, 6, 1);
    let version = app.game(&id, None)["version"].as_i64().unwrap();
    for (path, tag) in [
        (format!("/api/v1/games/{id}/board.svg"), format!("\"board{version}.seat0\"")),
        (format!("/api/v1/games/{id}/board.svg?labels=true"), format!("\"board-labels{version}.seat0\"")),
        (format!("/api/v1/games/{id}/board.svg?at=3"), "\"board3.seat0\"".to_owned()),
        (format!("/api/v1/games/{id}?at=3"), "\"at3.seat0\"".to_owned()),
    ] {
        let first = app.get(&path, Some(&users[0].token));
        assert_eq!(first.status(), StatusCode::OK);
        let headers = first.headers().clone();
        assert_eq!(headers["etag"], tag.as_str(), "{path}");
        assert_eq!(headers["vary"], "Authorization");
        assert_eq!(headers["cache-control"], "private, no-cache", "the game runs: it may still reveal more");
        let body = first.bytes().unwrap();
        // The same again from the cache, and a 304 for the tag, weak or strong.
        let again = app.get(&path, Some(&users[0].token));
        assert_eq!(again.bytes().unwrap(), body);
        for sent in [tag.clone(), format!("W/{tag}")] {
            let request = app.client.get(app.url(&path)).bearer_auth(&users[0].token).header("If-None-Match", sent);
            let response = app.send(request);
            assert_eq!(response.status(), StatusCode::NOT_MODIFIED, "{path}");
            assert_eq!(response.headers()["etag"], tag.as_str());
        }
        // Another reader has another tag: its view may differ.
        let other = app.get(&path, Some(&users[1].token));
        assert_eq!(other.headers()["etag"], tag.replace("seat0", "seat1").as_str());
        let spectator = app.get(&path, None);
        assert_eq!(spectator.headers()["etag"], tag.replace("seat0", "spectator").as_str());
        // HEAD: the headers alone.
        let head = app.send(app.client.head(app.url(&path)).bearer_auth(&users[0].token));
        assert_eq!(head.status(), StatusCode::OK);
        assert_eq!(head.headers()["etag"], tag.as_str());
        assert!(head.bytes().unwrap().is_empty());
    }
    // A new move moves the live picture on; the past stays.
    let seat = crate::games::active_seat(&app, &id);
    let legal = app.legal_moves(&id, &users[seat]);
    assert_eq!(app.submit(&id, &users[seat], &legal["moves"][0]).status(), StatusCode::CREATED);
    let live = app.get(&format!("/api/v1/games/{id}/board.svg"), None);
    assert_eq!(live.headers()["etag"], format!("\"board{}.spectator\"", version + 1).as_str());
    let (_, elements) = svg(&app, &id, "", None);
    assert_eq!(elements[0].attr("data-version"), Some((version + 1).to_string().as_str()));
    let request =
        app.client.get(app.url(&format!("/api/v1/games/{id}?at=3"))).header("If-None-Match", "\"at3.spectator\"");
    assert_eq!(app.send(request).status(), StatusCode::NOT_MODIFIED);
}

// ---------------------------------------------------------------------------------------
// Figures (run with `--ignored --nocapture`)

/// The time to rebuild positions of a finished 4-bot game from its log, through the API
/// (first request for each, nothing cached) and in-process (the rebuild alone).
#[test]
#[ignore = "a measurement: prints figures"]
fn replay_timing_of_a_long_game() {
    let app = spawn_app(Backend::Sqlite);
    let id = finished_bot_game(&app, json!({"seed": 12}), 4);
    let version = app.game(&id, None)["version"].as_i64().unwrap();
    let log = app.whole_log(&id, None);
    let events: usize = log.iter().map(|e| e["events"].as_array().unwrap().len()).sum();
    let started = Instant::now();
    let _ = at(&app, &id, version, None);
    let http_last = started.elapsed();
    let started = Instant::now();
    let _ = at(&app, &id, version, None);
    let http_cached = started.elapsed();
    let started = Instant::now();
    let _ = svg(&app, &id, &format!("?at={}", version - 1), None);
    let svg_late = started.elapsed();
    let row = {
        let mut conn = app.pool.get().unwrap();
        catan_server::store::find_game(&mut conn, uuid::Uuid::parse_str(&id).unwrap()).unwrap().unwrap()
    };
    let mut conn = app.pool.get().unwrap();
    let rounds = 20;
    let started = Instant::now();
    for _ in 0..rounds {
        let _ = catan_server::reads::replay::position_at(&mut conn, &row, version).unwrap();
    }
    let rebuild = started.elapsed() / rounds;
    // The engine's part: applying the decoded events.
    let uuid = uuid::Uuid::parse_str(&id).unwrap();
    let mut decoded = Vec::new();
    for entry in catan_server::store::load_moves(&mut conn, uuid, 0, version).unwrap() {
        decoded.extend(entry.events().unwrap());
    }
    let started = Instant::now();
    for _ in 0..rounds {
        let _ = catan_engine::Game::replay(row.config().unwrap(), &decoded).unwrap();
    }
    let engine = started.elapsed() / rounds;
    let started = Instant::now();
    let steps = 50;
    for seq in (version - steps)..version {
        let _ = at(&app, &id, seq, None);
    }
    let stepping = started.elapsed() / steps as u32;
    eprintln!(
        "replay of a finished 4-bot game: {version} log entries, {events} events; \
         GET ?at={version} first {http_last:?}, cached {http_cached:?}; board.svg?at={} first {svg_late:?}; \
         rebuild alone (load + replay) {rebuild:?}, of which the engine's replay {engine:?}; stepping back through the last {steps} entries {stepping:?} per GET",
        version - 1
    );
    if let Ok(dir) = std::env::var("BOARD_EXAMPLE_DIR") {
        let (text, _) = svg(&app, &id, &format!("?at={}", version * 3 / 4), None);
        std::fs::write(format!("{dir}/example-board.svg"), text).unwrap();
    }
}

/// Issue 30: harbour labels are drawn big enough to read where the spectator page scales a
/// Seafarers map down (10 user units and more; they were 5.5 and 8), and the pirate's boat
/// covers no harbour's badge, at the start and the end of a game of each scenario.
#[test]
fn harbour_labels_read_and_the_pirate_covers_no_badge() {
    let app = spawn_app(Backend::Sqlite);
    let number = |e: &Element, name: &str| -> f64 { e.attr(name).unwrap().parse().unwrap() };
    for scenario in ["new_shores", "four_islands", "fog_islands", "through_the_desert"] {
        let id = finished_bot_game(&app, json!({"variant": "seafarers", "scenario": scenario}), 3);
        for query in ["?at=1", ""] {
            let (_, elements) = svg(&app, &id, query, None);
            let mut badges = Vec::new();
            for (i, element) in elements.iter().enumerate() {
                if element.has_class("harbour") {
                    let circle = elements[i + 1..].iter().find(|e| e.name == "circle").unwrap();
                    badges.push((number(circle, "cx"), number(circle, "cy"), number(circle, "r")));
                }
                if element.has_class("harbour-rate") || element.has_class("harbour-resource") {
                    assert!(number(element, "font-size") >= 10.0, "{scenario}{query}: {element:?}");
                }
            }
            assert!(!badges.is_empty(), "{scenario}: no harbour drawn");
            for pirate in with_class(&elements, "pirate") {
                let transform = pirate.attr("transform").unwrap();
                let inner = transform.trim_start_matches("translate(").trim_end_matches(')');
                let (x, y) =
                    inner.split_once(' ').map(|(x, y)| (x.parse::<f64>().unwrap(), y.parse::<f64>().unwrap())).unwrap();
                // The boat's box around its anchor, against each badge's circle.
                let (left, right, top, bottom) = (x - 13.0, x + 13.0, y - 13.0, y + 6.0);
                for (cx, cy, r) in &badges {
                    let (dx, dy) = ((left - cx).max(cx - right).max(0.0), (top - cy).max(cy - bottom).max(0.0));
                    assert!(
                        dx.hypot(dy) >= *r,
                        "{scenario}{query}: the pirate at {transform} covers the badge at {cx},{cy}"
                    );
                }
            }
        }
    }
}
