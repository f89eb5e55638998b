//! Load generator: drives many concurrent games over HTTP against a running server and
//! reports the moves committed per second and the latency of `POST .../moves`.
//!
//! ```sh
//! cargo run --release --example loadgen -- --url http://127.0.0.1:8080 --games 32 --seconds 20
//! ```
//!
//! Each worker thread owns one game: it registers four users, creates a game, seats them and
//! starts it (none of which is measured), then loops "fetch `legal-moves` for the seat that
//! must act, post one" until the game ends, and starts another. Moves are weighted toward
//! building so that games progress. Every loop is bounded: by `--seconds` (the measured
//! window), by `--max-moves` per worker, and by a move cap per game; the program then stops
//! by itself. Only loopback URLs are accepted.
//!
//! The last line is machine-readable:
//! `RESULT games=32 seconds=20.0 moves=... moves_per_s=... p50_ms=... p99_ms=... errors=...`

use std::{
    sync::{Arc, Barrier},
    time::{Duration, Instant},
};

use rand::{rngs::StdRng, Rng, SeedableRng};
use reqwest::{blocking::Client, StatusCode};
use serde_json::{json, Value};

struct Options {
    url: String,
    games: usize,
    seconds: f64,
    max_moves: usize,
    players: usize,
}

fn parse_options() -> Result<Options, String> {
    let mut options =
        Options { url: "http://127.0.0.1:8080".into(), games: 32, seconds: 20.0, max_moves: 1_000_000, players: 4 };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--url" => options.url = value()?,
            "--games" => options.games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seconds" => options.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--max-moves" => options.max_moves = value()?.parse().map_err(|e| format!("--max-moves: {e}"))?,
            "--players" => options.players = value()?.parse().map_err(|e| format!("--players: {e}"))?,
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let host = options.url.trim_start_matches("http://").split(['/', ':']).next().unwrap_or_default().to_owned();
    if !options.url.starts_with("http://") || !matches!(host.as_str(), "127.0.0.1" | "localhost" | "[") {
        return Err(format!("only loopback servers (http://127.0.0.1:PORT), not {}", options.url));
    }
    if !(1..=512).contains(&options.games) || !(2..=4).contains(&options.players) || options.seconds <= 0.0 {
        return Err("--games 1..512, --players 2..4, --seconds > 0".into());
    }
    options.url = options.url.trim_end_matches('/').to_owned();
    Ok(options)
}

/// What one worker measured.
#[derive(Default)]
struct Tally {
    /// Latency of each committed `POST .../moves`, in microseconds.
    latencies: Vec<u32>,
    errors: usize,
    games_finished: usize,
}

/// Fail a game that takes more moves than this (a runaway game).
const MOVES_PER_GAME_CAP: usize = 5_000;

struct Worker {
    client: Client,
    api: String,
    tokens: Vec<String>,
    rng: StdRng,
}

impl Worker {
    fn setup(client: Client, api: String, index: usize, players: usize) -> Result<Worker, String> {
        let run: u32 = rand::random();
        let mut tokens = Vec::new();
        for seat in 0..players {
            let body = json!({"username": format!("load-{run:08x}-{index}-{seat}"), "password": "load-password"});
            let response = client.post(format!("{api}/users")).json(&body).send().map_err(|e| e.to_string())?;
            if response.status() != StatusCode::CREATED {
                return Err(format!("register: {}", response.status()));
            }
            let body: Value = response.json().map_err(|e| e.to_string())?;
            tokens.push(body["token"].as_str().ok_or("no token")?.to_owned());
        }
        Ok(Worker { client, api, tokens, rng: StdRng::seed_from_u64(index as u64) })
    }

    fn post(&self, path: &str, token: &str, body: &Value) -> Result<reqwest::blocking::Response, String> {
        self.client.post(format!("{}{path}", self.api)).bearer_auth(token).json(body).send().map_err(|e| e.to_string())
    }

    fn get(&self, path: &str, token: &str) -> Result<Value, String> {
        let response =
            self.client.get(format!("{}{path}", self.api)).bearer_auth(token).send().map_err(|e| e.to_string())?;
        if !response.status().is_success() {
            return Err(format!("GET {path}: {}", response.status()));
        }
        response.json().map_err(|e| e.to_string())
    }

    /// Creates, fills and starts a game; returns its id.
    fn new_game(&mut self) -> Result<String, String> {
        let body = json!({"max_players": self.tokens.len(), "board": "random", "seed": self.rng.gen::<u32>()});
        let response = self.post("/games", &self.tokens[0], &body)?;
        if response.status() != StatusCode::CREATED {
            return Err(format!("create: {}", response.status()));
        }
        let game: Value = response.json().map_err(|e| e.to_string())?;
        let id = game["id"].as_str().ok_or("no id")?.to_owned();
        for token in &self.tokens[1..] {
            let response = self.post(&format!("/games/{id}/players"), token, &Value::Null)?;
            if response.status() != StatusCode::CREATED {
                return Err(format!("join: {}", response.status()));
            }
        }
        let response = self.post(&format!("/games/{id}/start"), &self.tokens[0], &Value::Null)?;
        if response.status() != StatusCode::OK {
            return Err(format!("start: {}", response.status()));
        }
        Ok(id)
    }

    /// Returns the seat that must act now, or `None` once the game is over.
    fn waiting_seat(&self, id: &str) -> Result<Option<usize>, String> {
        let game = self.get(&format!("/games/{id}"), &self.tokens[0])?;
        if game["status"] == "finished" {
            return Ok(None);
        }
        Ok(game["turn"]["waiting_for"][0].as_u64().map(|s| s as usize))
    }

    fn run(&mut self, until: Instant, max_moves: usize, tally: &mut Tally) {
        let mut moves = 0;
        'games: while Instant::now() < until && moves < max_moves {
            let id = match self.new_game() {
                Ok(id) => id,
                Err(error) => {
                    eprintln!("cannot set up a game: {error}");
                    tally.errors += 1;
                    std::thread::sleep(Duration::from_millis(200));
                    continue;
                }
            };
            let mut seat = None;
            let mut game_moves = 0;
            while Instant::now() < until && moves < max_moves && game_moves < MOVES_PER_GAME_CAP {
                let current = match seat {
                    Some(seat) => seat,
                    None => match self.waiting_seat(&id) {
                        Ok(Some(seat)) => seat,
                        Ok(None) => {
                            tally.games_finished += 1;
                            continue 'games;
                        }
                        Err(error) => {
                            eprintln!("{error}");
                            tally.errors += 1;
                            continue 'games;
                        }
                    },
                };
                let legal = match self.get(&format!("/games/{id}/legal-moves"), &self.tokens[current]) {
                    Ok(legal) => legal,
                    Err(error) => {
                        eprintln!("{error}");
                        tally.errors += 1;
                        continue 'games;
                    }
                };
                let options = legal["moves"].as_array().cloned().unwrap_or_default();
                if options.is_empty() {
                    seat = None; // someone else must act now
                    continue;
                }
                let mv = choose(&options, &mut self.rng).clone();
                let started = Instant::now();
                let response = self.post(&format!("/games/{id}/moves"), &self.tokens[current], &mv);
                let elapsed = started.elapsed();
                match response {
                    Ok(response) if response.status() == StatusCode::CREATED => {
                        tally.latencies.push(elapsed.as_micros().min(u128::from(u32::MAX)) as u32);
                        moves += 1;
                        game_moves += 1;
                        let body: Value = response.json().unwrap_or_default();
                        if body["status"] == "finished" {
                            tally.games_finished += 1;
                            continue 'games;
                        }
                        // The same seat usually moves again, until it ends its turn; when it
                        // has no moves left (e.g. others must discard), the game view says who.
                        seat = if mv["type"] == "end_turn" { None } else { Some(current) };
                    }
                    Ok(response) => {
                        eprintln!("move {mv}: {} {}", response.status(), response.text().unwrap_or_default());
                        tally.errors += 1;
                        seat = None;
                    }
                    Err(error) => {
                        eprintln!("move: {error}");
                        tally.errors += 1;
                        seat = None;
                    }
                }
            }
        }
    }
}

/// Weighted toward building so that games end.
fn choose<'a>(options: &'a [Value], rng: &mut StdRng) -> &'a Value {
    let weight = |mv: &Value| -> u32 {
        match mv["type"].as_str().unwrap_or_default() {
            "build_city" => 1000,
            "build_settlement" => 800,
            "buy_development_card" => 150,
            "build_road" => 60,
            "end_turn" => 30,
            "trade_with_bank" => 8,
            _ => 10,
        }
    };
    let total: u32 = options.iter().map(weight).sum();
    let mut pick = rng.gen_range(0..total.max(1));
    for mv in options {
        if pick < weight(mv) {
            return mv;
        }
        pick -= weight(mv);
    }
    &options[0]
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    f64::from(sorted[rank.clamp(1, sorted.len()) - 1]) / 1000.0
}

fn main() {
    let options = match parse_options() {
        Ok(options) => options,
        Err(error) => {
            eprintln!("loadgen: {error}\nusage: loadgen [--url http://127.0.0.1:8080] [--games 32] [--seconds 20] [--max-moves N] [--players 4]");
            std::process::exit(2);
        }
    };
    let api = format!("{}/api/v1", options.url);
    let barrier = Arc::new(Barrier::new(options.games + 1));
    let window = Duration::from_secs_f64(options.seconds);
    let handles: Vec<_> = (0..options.games)
        .map(|index| {
            let (api, barrier) = (api.clone(), Arc::clone(&barrier));
            let (players, max_moves) = (options.players, options.max_moves);
            std::thread::spawn(move || {
                let client = Client::builder().timeout(Duration::from_secs(30)).build().expect("an HTTP client");
                let worker = Worker::setup(client, api, index, players);
                barrier.wait(); // everyone is registered: the measured window begins
                let until = Instant::now() + window;
                let mut tally = Tally::default();
                let mut worker = match worker {
                    Ok(worker) => worker,
                    Err(error) => {
                        eprintln!("worker {index}: {error}");
                        tally.errors += 1;
                        return tally;
                    }
                };
                worker.run(until, max_moves, &mut tally);
                tally
            })
        })
        .collect();
    barrier.wait();
    let started = Instant::now();
    let tallies: Vec<Tally> = handles.into_iter().map(|h| h.join().expect("a worker")).collect();
    let elapsed = started.elapsed().as_secs_f64();
    let mut latencies: Vec<u32> = tallies.iter().flat_map(|t| t.latencies.iter().copied()).collect();
    latencies.sort_unstable();
    let errors: usize = tallies.iter().map(|t| t.errors).sum();
    let finished: usize = tallies.iter().map(|t| t.games_finished).sum();
    let moves = latencies.len();
    let rate = moves as f64 / elapsed;
    let (p50, p99, max) = (percentile(&latencies, 50.0), percentile(&latencies, 99.0), percentile(&latencies, 100.0));
    println!(
        "{} games, {elapsed:.1} s: {moves} moves committed ({rate:.0}/s), {finished} games finished, {errors} errors",
        options.games
    );
    println!("POST .../moves latency: p50 {p50:.2} ms, p99 {p99:.2} ms, max {max:.2} ms");
    println!(
        "RESULT games={} seconds={elapsed:.1} moves={moves} moves_per_s={rate:.1} p50_ms={p50:.2} p99_ms={p99:.2} errors={errors}",
        options.games
    );
}
