//! The move log as Server-Sent Events: every entry in order, resuming after a dropped
//! connection without gaps or duplicates, redacted per viewer exactly like `GET .../moves`.

use std::io::{BufRead, BufReader};

use reqwest::blocking::{Client, Response};
use serde_json::{json, Value};

use crate::{
    both_backends,
    helpers::{spawn_app, Backend, TestApp, User},
};

both_backends!(the_stream_sends_every_entry_in_order_and_resumes_without_gaps);

/// One server-sent event (`event` is `comment` for a comment line).
#[derive(Debug, Clone, PartialEq)]
pub struct SseEvent {
    pub id: Option<i64>,
    pub event: String,
    pub data: Value,
}

/// A client of `GET .../stream`.
pub struct Sse {
    reader: BufReader<Response>,
}

impl Sse {
    /// Tests if the server closed the stream (after reading any blank lines).
    pub fn is_closed(&mut self) -> bool {
        loop {
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(0) => return true,
                Ok(_) if line.trim().is_empty() => continue,
                _ => return false,
            }
        }
    }

    pub fn open(app: &TestApp, game: &str, token: Option<&str>, last_event_id: Option<i64>, query: &str) -> Sse {
        Sse::open_url(&app.client, &app.url(&format!("/api/v1/games/{game}/stream{query}")), token, last_event_id)
    }

    /// Opens a spectator's stream on the server at `base`.
    pub fn open_at(base: &str, app: &TestApp, game: &str, token: Option<&str>) -> Sse {
        Sse::open_url(&app.client, &format!("{base}/api/v1/games/{game}/stream"), token, None)
    }

    fn open_url(client: &Client, url: &str, token: Option<&str>, last_event_id: Option<i64>) -> Sse {
        let mut request = client.get(url);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(id) = last_event_id {
            request = request.header("Last-Event-ID", id.to_string());
        }
        let response = request.send().expect("GET stream");
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        Sse { reader: BufReader::new(response) }
    }

    /// Reads the next event or comment.
    pub fn next(&mut self) -> SseEvent {
        let (mut id, mut event, mut data) = (None, None, String::new());
        loop {
            let mut line = String::new();
            let read = self.reader.read_line(&mut line).expect("read the stream");
            assert!(read > 0, "the stream ended");
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if event.is_some() || !data.is_empty() {
                    let data = serde_json::from_str(&data).expect("JSON data");
                    return SseEvent { id, event: event.unwrap_or_else(|| "message".into()), data };
                }
                continue;
            }
            if let Some(comment) = line.strip_prefix(':') {
                return SseEvent { id: None, event: "comment".into(), data: Value::String(comment.trim().into()) };
            }
            let (field, value) = line.split_once(':').map_or((line, ""), |(f, v)| (f, v.trim_start()));
            match field {
                "id" => id = Some(value.parse().expect("numeric id")),
                "event" => event = Some(value.to_owned()),
                "data" => data.push_str(value),
                _ => {}
            }
        }
    }

    /// Reads the next `entry` event, skipping comments.
    pub fn next_entry(&mut self) -> SseEvent {
        loop {
            let event = self.next();
            if event.event != "comment" {
                assert_eq!(event.event, "entry", "{event:?}");
                return event;
            }
        }
    }
}

/// Plays `n` moves: rolls, buys development cards when it can, robs someone when it can,
/// and otherwise takes the first legal move.
fn drive(app: &TestApp, id: &str, users: &[User], n: usize) {
    for _ in 0..n {
        let game = app.game(id, None);
        let seat = game["turn"]["waiting_for"][0].as_u64().expect("someone must act") as usize;
        let legal = app.legal_moves(id, &users[seat]);
        let moves = legal["moves"].as_array().unwrap();
        let find = |kind: &str| moves.iter().find(|m| m["type"] == kind);
        let mv = find("roll_dice")
            .or_else(|| find("buy_development_card"))
            .or_else(|| moves.iter().find(|m| m["type"] == "move_robber" && !m["victim"].is_null()))
            .or_else(|| if game["turn"]["phase"]["name"] == "main" { find("end_turn") } else { None })
            .unwrap_or(&moves[0]);
        assert_eq!(app.submit(id, &users[seat], mv).status(), 201, "move {mv}");
    }
}

/// Tests that `viewer` (a seat, or `None` for a spectator) sees no other seat's secrets.
fn hides_secrets(event: &Value, viewer: Option<u64>) -> bool {
    let sees = |seat: &Value| viewer.is_some() && seat.as_u64() == viewer;
    match event["type"].as_str().unwrap_or_default() {
        "resource_stolen" => sees(&event["thief"]) || sees(&event["victim"]) || event.get("resource").is_none(),
        "development_card_bought" => sees(&event["seat"]) || event.get("card").is_none(),
        "resources_discarded" => sees(&event["seat"]) || event["resources"].is_null(),
        "game_started" => event["seed"].is_null(),
        _ => true,
    }
}

fn the_stream_sends_every_entry_in_order_and_resumes_without_gaps(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(3, 5);
    let moves = 120;

    // Three viewers follow the game live: two seats and a spectator without a token.
    let viewers: Vec<(Option<u64>, Option<&str>)> =
        vec![(Some(0), Some(&users[0].token)), (Some(1), Some(&users[1].token)), (None, None)];
    let mut streams: Vec<Sse> = viewers.iter().map(|(_, token)| Sse::open(&app, &id, *token, None, "")).collect();
    for (stream, (seat, _)) in streams.iter_mut().zip(&viewers) {
        let snapshot = stream.next();
        assert_eq!((snapshot.event.as_str(), snapshot.id), ("snapshot", None));
        assert_eq!(snapshot.data["version"], 1);
        assert_eq!(snapshot.data["you"].as_u64(), *seat);
        assert_eq!(snapshot.data, app.game(&id, viewers.iter().find(|v| v.0 == *seat).unwrap().1));
    }
    std::thread::scope(|scope| {
        scope.spawn(|| drive(&app, &id, &users, moves));
        let mut hidden = 0;
        for (stream, (seat, token)) in streams.iter_mut().zip(&viewers) {
            let received: Vec<SseEvent> = (0..moves).map(|_| stream.next_entry()).collect();
            // Every entry, in order, once; each exactly as `GET .../moves` shows it to them.
            let ids: Vec<i64> = received.iter().map(|e| e.id.unwrap()).collect();
            assert_eq!(ids, (2..2 + moves as i64).collect::<Vec<_>>());
            let log = app.log(&id, *token, 1);
            for (event, entry) in received.iter().zip(log["entries"].as_array().unwrap()) {
                assert_eq!(&event.data, entry);
                assert_eq!(event.data["seq"], event.id.unwrap());
                for e in event.data["events"].as_array().unwrap() {
                    assert!(hides_secrets(e, *seat), "viewer {seat:?} sees {e}");
                    let secret = ["resource_stolen", "development_card_bought", "resources_discarded"];
                    if secret.contains(&e["type"].as_str().unwrap()) && hides_secrets(e, Some(99)) {
                        hidden += 1;
                    }
                }
            }
        }
        assert!(hidden > 0, "the game had secrets to hide");
    });

    // A dropped connection resumes after the last id it saw: no gap, no duplicate.
    let everything: Vec<SseEvent> = {
        let mut stream = Sse::open(&app, &id, Some(&users[0].token), None, "?after=0");
        assert_eq!(stream.next().event, "snapshot");
        (0..=moves).map(|_| stream.next_entry()).collect()
    };
    assert_eq!(everything[0].data["kind"], "start");
    let mut stream = Sse::open(&app, &id, Some(&users[0].token), None, "?after=0");
    stream.next();
    let first: Vec<SseEvent> = (0..10).map(|_| stream.next_entry()).collect();
    drop(stream);
    let last = first.last().unwrap().id.unwrap();
    let mut resumed = Sse::open(&app, &id, Some(&users[0].token), Some(last), "?after=0");
    assert_eq!(resumed.next().event, "snapshot");
    let rest: Vec<SseEvent> = (0..=moves - 10).map(|_| resumed.next_entry()).collect();
    let joined: Vec<SseEvent> = first.into_iter().chain(rest).collect();
    assert_eq!(joined, everything);

    // Nothing happens: keep-alive comments (here every second), then the next move.
    let mut idle = Sse::open(&app, &id, None, None, "?keepalive=1");
    assert_eq!(idle.next().event, "snapshot");
    let started = std::time::Instant::now();
    assert_eq!(idle.next(), SseEvent { id: None, event: "comment".into(), data: "keep-alive".into() });
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    drive(&app, &id, &users, 1);
    assert_eq!(idle.next_entry().id, Some(2 + moves as i64));
}

/// A game of two bots, followed live by a spectator from its first entry to its end: every
/// entry once and in order, then `end`, and the stream closes. Afterwards the whole log is
/// public, on the stream as in `GET .../moves`.
#[test]
fn the_stream_of_a_finished_game_ends() {
    let app = spawn_app(Backend::Sqlite);
    let host = app.register("host");
    let game = app.create_game(&host, &json!({"max_players": 2, "seed": 3, "seat_creator": false}));
    let id = game["id"].as_str().unwrap().to_owned();
    for kind in ["heuristic", "heuristic"] {
        let bot = app.post(&format!("/api/v1/games/{id}/players"), Some(&host.token), &json!({ "bot": kind }));
        assert_eq!(bot.status(), 201);
    }
    // Bots play fast; this client waits as long as the game takes.
    let patient = Client::builder().timeout(None).build().unwrap();
    let mut live = Sse::open_url(&patient, &app.url(&format!("/api/v1/games/{id}/stream?after=0")), None, None);
    assert_eq!(live.next().event, "snapshot");
    assert_eq!(app.start(&id, &host).status(), 200);
    let mut seqs = Vec::new();
    let end = loop {
        let event = live.next();
        match event.event.as_str() {
            "entry" => seqs.push(event.id.unwrap()),
            "comment" => {}
            _ => break event,
        }
    };
    assert_eq!(end.event, "end");
    assert_eq!(end.data["status"], "finished");
    assert_eq!(seqs, (1..=seqs.len() as i64).collect::<Vec<_>>(), "every entry once, in order");
    assert_eq!(end.data["version"], *seqs.last().unwrap());
    assert!(live.is_closed(), "the stream closes after `end`");

    // After game over: the whole log, unredacted, for anyone.
    let mut after = Sse::open(&app, &id, None, None, "?after=0");
    assert_eq!(after.next().data["status"], "finished");
    let log = app.log(&id, None, 0);
    for entry in log["entries"].as_array().unwrap() {
        assert_eq!(&after.next_entry().data, entry);
    }
    assert!(log["entries"][0]["events"][0]["seed"].is_u64(), "the seed is public after game over");
    assert_eq!(after.next().event, "end");
}
