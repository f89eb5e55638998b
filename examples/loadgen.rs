//! Load generator: drives many concurrent games over HTTP against a running server and
//! reports the moves committed per second and the latency of `POST .../moves`.
//!
//! ```sh
//! cargo run --release --example loadgen -- --url http://127.0.0.1:8080 --games 32 --seconds 20
//! ```
//!
//! Each worker thread owns one game: it registers four users, creates a game, seats them and
//! starts it (none of which is measured), then loops "fetch `legal-moves` for the seat that
//! must act, post one" until the game ends, and starts another; the seat that must act comes
//! from the `waiting_for` of the previous response, like a bot playing several seats would.
//! Moves are weighted toward building exactly like the engine's random bot, so that games
//! progress. Every loop is bounded: by `--seconds` (the measured window), by `--max-moves`
//! per worker, and by a move cap per game; the program then stops by itself. Only loopback
//! URLs are accepted.
//!
//! With `--pollers N` (the read-heavy mix), each game also has N readers polling it the way
//! bot clients and spectators do, each on its own keep-alive connection, back to back: every
//! other poller reads as one of the game's seats (the game with `If-None-Match` of the last
//! `ETag` it got, then its legal moves), the others as anonymous spectators (the game with
//! `If-None-Match`, then the last 100 log entries). Reads are reported beside the moves.
//!
//! With `--pace N`, each worker posts at most N moves per second (spread over its seats), like
//! people playing quickly rather than a machine: such players stay within the server's
//! per-account move limit (`scripts/bench-flood.sh` measures them during a login flood).
//! With `--delay S`, the measured window begins S seconds after the users are registered (so
//! that another load can start in between).
//!
//! The last line is machine-readable:
//! `RESULT games=32 seconds=20.0 moves=... moves_per_s=... p50_ms=... p99_ms=... errors=...
//! reads=... reads_per_s=... read_p50_ms=... read_p99_ms=... not_modified=... retried=...`
//!
//! A `429` or `503` with `Retry-After` is sent again after waiting as told (at most 20 times,
//! each wait 1 to 10 s), as a well-behaved client does; `retried` counts those, apart from
//! `errors` (every other failed request).

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    sync::{
        atomic::{AtomicUsize, Ordering},
        Arc, Barrier, Mutex,
    },
    time::{Duration, Instant},
};

use catan_engine::{bots::RandomBot, Move, Seat};
use rand::{rngs::StdRng, Rng, SeedableRng};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::{json, Value};

/// A minimal blocking HTTP/1.1 client on one keep-alive connection: the load generator's
/// own CPU time competes with the server on the same machine, so it stays lean (no runtime
/// thread per client, no hop between threads per request).
struct Http {
    host: String,
    conn: Option<BufReader<TcpStream>>,
}

struct Response {
    status: u16,
    etag: Option<String>,
    /// `Retry-After` in seconds, on a 429 or 503.
    retry_after: Option<u64>,
    body: Vec<u8>,
}

/// Requests answered `429` or `503` with `Retry-After` and sent again after waiting as told,
/// as a client should (the password-hashing queue answers a burst of registrations with
/// `503 server_busy`); counted apart from the errors.
static RETRIED: AtomicUsize = AtomicUsize::new(0);

/// How often one request is sent again before its refusal counts as an error.
const MAX_RETRIES: usize = 20;

impl Response {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_default()
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

impl Http {
    fn new(host: &str) -> Http {
        Http { host: host.to_owned(), conn: None }
    }

    fn request(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<String>,
    ) -> Result<Response, String> {
        self.request_if_none_match(method, path, token, body, None)
    }

    fn request_if_none_match(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<String>,
        if_none_match: Option<&str>,
    ) -> Result<Response, String> {
        let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {}\r\n", self.host);
        if let Some(token) = token {
            head.push_str(&format!("Authorization: Bearer {token}\r\n"));
        }
        if let Some(tag) = if_none_match {
            head.push_str(&format!("If-None-Match: {tag}\r\n"));
        }
        match &body {
            Some(body) => {
                head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n\r\n", body.len()))
            }
            None => head.push_str("Content-Length: 0\r\n\r\n"),
        }
        for _ in 0..MAX_RETRIES {
            let response = self.send_once(&head, body.as_deref())?;
            match response.retry_after {
                Some(seconds) if response.status == 429 || response.status == 503 => {
                    RETRIED.fetch_add(1, Ordering::Relaxed);
                    std::thread::sleep(Duration::from_secs(seconds.clamp(1, 10)));
                }
                _ => return Ok(response),
            }
        }
        self.send_once(&head, body.as_deref())
    }

    /// Sends one request; once more on a fresh connection when a kept-alive one was closed
    /// by the server.
    fn send_once(&mut self, head: &str, body: Option<&str>) -> Result<Response, String> {
        for attempt in 0..2 {
            let fresh = self.conn.is_none();
            match self.exchange(head, body) {
                Ok(response) => return Ok(response),
                Err(error) => {
                    self.conn = None;
                    if fresh || attempt == 1 {
                        return Err(error);
                    }
                }
            }
        }
        Err("unreachable".into())
    }

    fn exchange(&mut self, head: &str, body: Option<&str>) -> Result<Response, String> {
        if self.conn.is_none() {
            let stream = TcpStream::connect(&self.host).map_err(|e| format!("connect: {e}"))?;
            stream.set_nodelay(true).map_err(|e| e.to_string())?;
            stream.set_read_timeout(Some(Duration::from_secs(30))).map_err(|e| e.to_string())?;
            self.conn = Some(BufReader::new(stream));
        }
        let conn = self.conn.as_mut().ok_or("no connection")?;
        let mut request = head.as_bytes().to_vec();
        request.extend_from_slice(body.unwrap_or_default().as_bytes());
        conn.get_mut().write_all(&request).map_err(|e| format!("write: {e}"))?;
        let mut line = String::new();
        if conn.read_line(&mut line).map_err(|e| format!("read: {e}"))? == 0 {
            return Err("connection closed".into());
        }
        let status: u16 =
            line.split(' ').nth(1).and_then(|s| s.parse().ok()).ok_or(format!("bad status line {line:?}"))?;
        let (mut length, mut chunked, mut close, mut etag, mut retry_after) = (0, false, false, None, None);
        loop {
            line.clear();
            conn.read_line(&mut line).map_err(|e| format!("read: {e}"))?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').unwrap_or((header, ""));
            let value = value.trim();
            if name.eq_ignore_ascii_case("content-length") {
                length = value.parse().map_err(|_| "bad content-length")?;
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                chunked = value.eq_ignore_ascii_case("chunked");
            } else if name.eq_ignore_ascii_case("connection") {
                close = value.eq_ignore_ascii_case("close");
            } else if name.eq_ignore_ascii_case("etag") {
                etag = Some(value.to_owned());
            } else if name.eq_ignore_ascii_case("retry-after") {
                retry_after = value.parse().ok();
            }
        }
        let mut body = Vec::new();
        if chunked {
            loop {
                line.clear();
                conn.read_line(&mut line).map_err(|e| format!("read: {e}"))?;
                let size = usize::from_str_radix(line.trim(), 16).map_err(|_| "bad chunk size")?;
                let start = body.len();
                body.resize(start + size + 2, 0);
                conn.read_exact(&mut body[start..]).map_err(|e| format!("read: {e}"))?;
                body.truncate(start + size);
                if size == 0 {
                    break;
                }
            }
        } else {
            body.resize(length, 0);
            conn.read_exact(&mut body).map_err(|e| format!("read: {e}"))?;
        }
        if close {
            self.conn = None;
        }
        Ok(Response { status, etag, retry_after, body })
    }
}

struct Options {
    url: String,
    games: usize,
    seconds: f64,
    max_moves: usize,
    players: usize,
    pollers: usize,
    /// Moves per second per worker at most (0: as fast as possible).
    pace: f64,
    /// Seconds between the registrations and the measured window.
    delay: f64,
}

fn parse_options() -> Result<Options, String> {
    let mut options = Options {
        url: "http://127.0.0.1:8080".into(),
        games: 32,
        seconds: 20.0,
        max_moves: 1_000_000,
        players: 4,
        pollers: 0,
        pace: 0.0,
        delay: 0.0,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--url" => options.url = value()?,
            "--games" => options.games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seconds" => options.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--max-moves" => options.max_moves = value()?.parse().map_err(|e| format!("--max-moves: {e}"))?,
            "--players" => options.players = value()?.parse().map_err(|e| format!("--players: {e}"))?,
            "--pollers" => options.pollers = value()?.parse().map_err(|e| format!("--pollers: {e}"))?,
            "--pace" => options.pace = value()?.parse().map_err(|e| format!("--pace: {e}"))?,
            "--delay" => options.delay = value()?.parse().map_err(|e| format!("--delay: {e}"))?,
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let host = options.url.trim_start_matches("http://").split(['/', ':']).next().unwrap_or_default().to_owned();
    if !options.url.starts_with("http://") || !matches!(host.as_str(), "127.0.0.1" | "localhost" | "[") {
        return Err(format!("only loopback servers (http://127.0.0.1:PORT), not {}", options.url));
    }
    if !(1..=512).contains(&options.games)
        || !(2..=4).contains(&options.players)
        || options.seconds <= 0.0
        || options.pace < 0.0
        || !options.pace.is_finite()
        || !(0.0..=60.0).contains(&options.delay)
        || options.games * options.pollers > 1024
    {
        return Err(
            "--games 1..512, --players 2..4, --seconds > 0, --pace >= 0, --delay 0..60, --games x --pollers <= 1024"
                .into(),
        );
    }
    options.url = options.url.trim_end_matches('/').to_owned();
    Ok(options)
}

/// The part of a `legal-moves` response the load generator reads.
#[derive(Deserialize)]
struct LegalMoves {
    moves: Vec<Move>,
    waiting_for: Vec<Seat>,
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
    http: Http,
    api: String,
    tokens: Vec<String>,
    rng: StdRng,
    /// The game being played, for this worker's pollers.
    current: Arc<Mutex<Option<String>>>,
}

impl Worker {
    fn setup(mut http: Http, api: String, index: usize, players: usize) -> Result<Worker, String> {
        let run: u32 = rand::random();
        let mut tokens = Vec::new();
        for seat in 0..players {
            let body = json!({"username": format!("load-{run:08x}-{index}-{seat}"), "password": "load-password"});
            let response = http.request("POST", &format!("{api}/users"), None, Some(body.to_string()))?;
            if response.status != 201 {
                return Err(format!("register: {} {}", response.status, response.text()));
            }
            tokens.push(response.json()["token"].as_str().ok_or("no token")?.to_owned());
        }
        let current = Arc::new(Mutex::new(None));
        Ok(Worker { http, api, tokens, rng: StdRng::seed_from_u64(index as u64), current })
    }

    fn post(&mut self, path: &str, seat: usize, body: &impl Serialize) -> Result<Response, String> {
        let path = format!("{}{path}", self.api);
        let body = serde_json::to_string(body).map_err(|e| e.to_string())?;
        self.http.request("POST", &path, Some(&self.tokens[seat]), Some(body))
    }

    fn get<T: DeserializeOwned>(&mut self, path: &str, seat: usize) -> Result<T, String> {
        let path = format!("{}{path}", self.api);
        let response = self.http.request("GET", &path, Some(&self.tokens[seat]), None)?;
        if !(200..300).contains(&response.status) {
            return Err(format!("GET {path}: {}", response.status));
        }
        serde_json::from_slice(&response.body).map_err(|e| e.to_string())
    }

    /// Creates, fills and starts a game; returns its id.
    fn new_game(&mut self) -> Result<String, String> {
        // No seed: a game with a chosen seed takes no second human (outside a sandbox).
        let body = json!({"max_players": self.tokens.len(), "board": "random"});
        let response = self.post("/games", 0, &body)?;
        if response.status != 201 {
            return Err(format!("create: {}", response.status));
        }
        let id = response.json()["id"].as_str().ok_or("no id")?.to_owned();
        for seat in 1..self.tokens.len() {
            let response = self.post(&format!("/games/{id}/players"), seat, &Value::Null)?;
            if response.status != 201 {
                return Err(format!("join: {}", response.status));
            }
        }
        let response = self.post(&format!("/games/{id}/start"), 0, &Value::Null)?;
        if response.status != 200 {
            return Err(format!("start: {}", response.status));
        }
        Ok(id)
    }

    /// Returns the seat that must act now, or `None` once the game is over.
    fn waiting_seat(&mut self, id: &str) -> Result<Option<usize>, String> {
        let game: Value = self.get(&format!("/games/{id}"), 0)?;
        if game["status"] == "finished" {
            return Ok(None);
        }
        Ok(game["turn"]["waiting_for"][0].as_u64().map(|s| s as usize))
    }

    fn run(&mut self, until: Instant, max_moves: usize, pace: f64, tally: &mut Tally) {
        let mut moves = 0;
        let interval = (pace > 0.0).then(|| Duration::from_secs_f64(1.0 / pace));
        let mut next_move = Instant::now();
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
            *self.current.lock().unwrap_or_else(|e| e.into_inner()) = Some(id.clone());
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
                let legal: LegalMoves = match self.get(&format!("/games/{id}/legal-moves"), current) {
                    Ok(legal) => legal,
                    Err(error) => {
                        eprintln!("{error}");
                        tally.errors += 1;
                        continue 'games;
                    }
                };
                if legal.moves.is_empty() {
                    // Someone else must act now: the response says who (else read the game).
                    seat = legal.waiting_for.first().map(|waiting| usize::from(waiting.0)).filter(|w| *w != current);
                    continue;
                }
                let mv = &legal.moves[RandomBot::weighted_pick(&legal.moves, |bound| self.rng.gen_range(0..bound))];
                if let Some(interval) = interval {
                    std::thread::sleep(next_move.saturating_duration_since(Instant::now()));
                    next_move = next_move.max(Instant::now()) + interval;
                }
                let started = Instant::now();
                let response = self.post(&format!("/games/{id}/moves"), current, mv);
                let elapsed = started.elapsed();
                match response {
                    Ok(response) if response.status == 201 => {
                        tally.latencies.push(elapsed.as_micros().min(u128::from(u32::MAX)) as u32);
                        moves += 1;
                        game_moves += 1;
                        if response.json()["status"] == "finished" {
                            tally.games_finished += 1;
                            continue 'games;
                        }
                        // The response names the seats that must act next.
                        seat = first_waiting(&response.json());
                    }
                    Ok(response) => {
                        eprintln!("move {mv:?}: {} {}", response.status, response.text());
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

/// What the pollers of one worker measured.
#[derive(Default)]
struct ReadTally {
    /// Latency of each answered read, in microseconds.
    latencies: Vec<u32>,
    not_modified: usize,
    errors: usize,
}

/// One reader polling the game of its worker back to back until `until` (see the module
/// docs): as seat `seat` (with its token) or, without one, as a spectator.
fn poll(
    mut http: Http,
    api: &str,
    current: &Mutex<Option<String>>,
    token: Option<&str>,
    until: Instant,
    tally: &mut ReadTally,
) {
    let (mut game, mut tag, mut version) = (String::new(), None::<String>, 0_i64);
    let mut reads = 0_usize;
    while Instant::now() < until {
        let Some(id) = current.lock().unwrap_or_else(|e| e.into_inner()).clone() else {
            std::thread::sleep(Duration::from_millis(1));
            continue;
        };
        if id != game {
            (game, tag, version) = (id, None, 0);
        }
        reads += 1;
        let (path, if_none_match) = if reads % 2 == 1 {
            (format!("{api}/games/{game}"), tag.as_deref())
        } else if token.is_some() {
            (format!("{api}/games/{game}/legal-moves"), None)
        } else {
            (format!("{api}/games/{game}/moves?after={}&limit=100", (version - 100).max(0)), None)
        };
        let started = Instant::now();
        let response = http.request_if_none_match("GET", &path, token, None, if_none_match);
        let elapsed = started.elapsed();
        match response {
            Ok(response) if response.status == 200 || response.status == 304 => {
                tally.latencies.push(elapsed.as_micros().min(u128::from(u32::MAX)) as u32);
                if response.status == 304 {
                    tally.not_modified += 1;
                } else if reads % 2 == 1 {
                    version = response.json()["version"].as_i64().unwrap_or(version);
                    tag = response.etag;
                }
            }
            Ok(response) => {
                eprintln!("GET {path}: {}", response.status);
                tally.errors += 1;
            }
            Err(error) => {
                eprintln!("GET {path}: {error}");
                tally.errors += 1;
            }
        }
    }
}

/// The first seat a response's `waiting_for` names.
fn first_waiting(response: &Value) -> Option<usize> {
    response["waiting_for"][0].as_u64().map(|seat| seat as usize)
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
            eprintln!("loadgen: {error}\nusage: loadgen [--url http://127.0.0.1:8080] [--games 32] [--seconds 20] [--max-moves N] [--players 4] [--pollers 0] [--pace 0] [--delay 0]");
            std::process::exit(2);
        }
    };
    let host = options.url.trim_start_matches("http://").to_owned();
    let api = "/api/v1".to_owned();
    let barrier = Arc::new(Barrier::new(options.games + 1));
    let window = Duration::from_secs_f64(options.seconds);
    let delay = Duration::from_secs_f64(options.delay);
    let readers = Arc::new(Mutex::new(Vec::<ReadTally>::new()));
    let handles: Vec<_> = (0..options.games)
        .map(|index| {
            let (api, host, barrier, readers) = (api.clone(), host.clone(), Arc::clone(&barrier), Arc::clone(&readers));
            let (players, max_moves, pollers, pace) =
                (options.players, options.max_moves, options.pollers, options.pace);
            std::thread::spawn(move || {
                let worker = Worker::setup(Http::new(&host), api.clone(), index, players);
                barrier.wait(); // everyone is registered: the measured window begins
                std::thread::sleep(delay);
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
                let polling: Vec<_> = (0..pollers)
                    .map(|p| {
                        let (api, host, current) = (api.clone(), host.clone(), Arc::clone(&worker.current));
                        let token = (p % 2 == 0).then(|| worker.tokens[(p / 2) % worker.tokens.len()].clone());
                        let readers = Arc::clone(&readers);
                        std::thread::spawn(move || {
                            let mut tally = ReadTally::default();
                            poll(Http::new(&host), &api, &current, token.as_deref(), until, &mut tally);
                            readers.lock().unwrap_or_else(|e| e.into_inner()).push(tally);
                        })
                    })
                    .collect();
                worker.run(until, max_moves, pace, &mut tally);
                for poller in polling {
                    let _ = poller.join();
                }
                tally
            })
        })
        .collect();
    barrier.wait();
    std::thread::sleep(delay);
    let started = Instant::now();
    let tallies: Vec<Tally> = handles.into_iter().map(|h| h.join().expect("a worker")).collect();
    let elapsed = started.elapsed().as_secs_f64();
    let mut latencies: Vec<u32> = tallies.iter().flat_map(|t| t.latencies.iter().copied()).collect();
    latencies.sort_unstable();
    let readers = std::mem::take(&mut *readers.lock().unwrap_or_else(|e| e.into_inner()));
    let mut read_latencies: Vec<u32> = readers.iter().flat_map(|t| t.latencies.iter().copied()).collect();
    read_latencies.sort_unstable();
    let errors: usize =
        tallies.iter().map(|t| t.errors).sum::<usize>() + readers.iter().map(|t| t.errors).sum::<usize>();
    let not_modified: usize = readers.iter().map(|t| t.not_modified).sum();
    let finished: usize = tallies.iter().map(|t| t.games_finished).sum();
    let moves = latencies.len();
    let rate = moves as f64 / elapsed;
    let (p50, p99, max) = (percentile(&latencies, 50.0), percentile(&latencies, 99.0), percentile(&latencies, 100.0));
    let reads = read_latencies.len();
    let read_rate = reads as f64 / elapsed;
    let (read_p50, read_p99) = (percentile(&read_latencies, 50.0), percentile(&read_latencies, 99.0));
    let retried = RETRIED.load(Ordering::Relaxed);
    println!(
        "{} games, {elapsed:.1} s: {moves} moves committed ({rate:.0}/s), {finished} games finished, {errors} errors \
         ({retried} requests sent again after Retry-After)",
        options.games
    );
    println!("POST .../moves latency: p50 {p50:.2} ms, p99 {p99:.2} ms, max {max:.2} ms");
    if options.pollers > 0 {
        println!(
            "{} pollers: {reads} reads ({read_rate:.0}/s, {not_modified} answered 304), p50 {read_p50:.2} ms, p99 {read_p99:.2} ms",
            options.games * options.pollers
        );
    }
    println!(
        "RESULT games={} seconds={elapsed:.1} moves={moves} moves_per_s={rate:.1} p50_ms={p50:.2} p99_ms={p99:.2} errors={errors} \
         reads={reads} reads_per_s={read_rate:.1} read_p50_ms={read_p50:.2} read_p99_ms={read_p99:.2} not_modified={not_modified} \
         retried={retried}",
        options.games
    );
}
