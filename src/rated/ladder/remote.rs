//! A ladder's games played on a Catan server over its HTTP API (`catan-server ladder
//! --server URL`): the ladder's one part that does I/O.
//!
//! A host account (given, or registered for the run) creates each game with the ladder's seed
//! and rules and no seat of its own (`seat_creator: false`), seats the entrants in the
//! lineup's order (a built-in bot as `{"bot": kind}`, an account by its own token with
//! `{"accept_chosen_seed": true}`: the host knows the seed but does not play), starts it, and
//! follows its log by long-poll to the end. The accounts' programs find the game as any game
//! they sit in (`GET /api/v1/games?mine=true&status=playing`) and play it over the API. The
//! finish order is read from the finished game: the winner, every seat's victory points, and
//! the seats whose last move the turn timer played (abandoned: last). The rules are the pool's
//! rated rules with the ladder's turn limit and the run's turn timer, so a program that stops
//! answering loses its games instead of stalling the ladder.

use std::time::{Duration, Instant};

use rand::Rng;
use serde_json::{json, Value};

use super::{Entrant, LadderGame, Outcome, Venue, TURN_LIMIT};
use crate::rated::places;

/// How long one long-poll of a game's log waits on the server.
const LONG_POLL_SECONDS: u32 = 30;

/// How many times a request refused for load (429, 503) is tried again after its `Retry-After`.
const RETRIES: u32 = 20;

/// A ladder's server and who plays on it.
pub struct Server {
    /// `<url>/api/v1`.
    api: String,
    client: reqwest::blocking::Client,
    host_token: String,
    /// Each entrant account's name and token.
    accounts: Vec<(String, String)>,
    turn_timer_seconds: u32,
    patience: Duration,
}

/// What [`Server::connect`] needs.
#[derive(Debug, Clone)]
pub struct ServerOptions {
    /// The server's root, e.g. `http://127.0.0.1:8080` (plain HTTP).
    pub url: String,
    /// The token of the account that hosts the games; `None`: register one for the run.
    pub host_token: Option<String>,
    /// Each entrant account's username and token.
    pub accounts: Vec<(String, String)>,
    /// The turn timer of every game: a seat that does not move in time is played by the timer.
    pub turn_timer_seconds: u32,
    /// How long a game may take before the ladder counts it unfinished and goes on.
    pub patience: Duration,
}

impl Server {
    /// Checks that the server answers, that every account's token is that account's, and that
    /// the host is none of them; registers a host if none is given. Returns the server and the
    /// host's name.
    ///
    /// # Errors
    /// What is wrong, in words: the server cannot be reached, a token is not valid or is
    /// another account's, the host is an entrant, or the host cannot be registered.
    pub fn connect(options: ServerOptions) -> Result<(Server, String), String> {
        let root = options.url.trim_end_matches('/');
        if !root.starts_with("http://") {
            return Err(format!("--server must be a plain http:// URL, not {root:?}"));
        }
        let client = reqwest::blocking::Client::builder()
            .timeout(Duration::from_secs(u64::from(LONG_POLL_SECONDS) + 30))
            .build()
            .map_err(|e| format!("cannot make an HTTP client: {e}"))?;
        let mut server = Server {
            api: format!("{root}/api/v1"),
            client,
            host_token: String::new(),
            accounts: options.accounts,
            turn_timer_seconds: options.turn_timer_seconds,
            patience: options.patience,
        };
        for (name, token) in &server.accounts {
            let me = server.whose(token).map_err(|e| format!("the token given for {name}: {e}"))?;
            if !me.eq_ignore_ascii_case(name) {
                return Err(format!("the token given for {name} is {me}'s"));
            }
        }
        let host_name = match options.host_token {
            Some(token) => {
                let name = server.whose(&token).map_err(|e| format!("the host's token: {e}"))?;
                if server.accounts.iter().any(|(account, _)| account.eq_ignore_ascii_case(&name)) {
                    return Err(format!("the host {name} is an entrant: the host knows every game's seed"));
                }
                server.host_token = token;
                name
            }
            None => {
                let (name, token) = server.register_host()?;
                server.host_token = token;
                name
            }
        };
        Ok((server, host_name))
    }

    /// The username a token belongs to.
    fn whose(&self, token: &str) -> Result<String, String> {
        let me = self.expect(self.call("GET", "/users/me", Some(token), None)?, 200, "GET /users/me")?;
        me["username"].as_str().map(str::to_owned).ok_or_else(|| format!("GET /users/me said no username: {me}"))
    }

    /// Registers `ladder-host-<random>` with a random password; returns its name and token.
    fn register_host(&self) -> Result<(String, String), String> {
        let mut rng = rand::thread_rng();
        let name = format!("ladder-host-{:08x}", rng.gen::<u32>());
        let password = format!("{:032x}", rng.gen::<u128>());
        let body = json!({"username": name, "password": password});
        let registered = self.expect(self.call("POST", "/users", None, Some(&body))?, 201, "registering the host")?;
        let token = registered["token"].as_str().ok_or("registering the host gave no token")?;
        Ok((name, token.to_owned()))
    }

    /// One request, tried again after `Retry-After` while the server refuses it for load.
    /// Returns the status and the JSON body (`null` for an empty one).
    fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Result<(u16, Value), String> {
        let url = format!("{}{path}", self.api);
        for _ in 0..=RETRIES {
            let mut request = match method {
                "GET" => self.client.get(&url),
                _ => self.client.post(&url),
            };
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            if let Some(body) = body {
                request = request.json(body);
            }
            let response = request.send().map_err(|e| format!("{method} {path}: {e}"))?;
            let status = response.status().as_u16();
            if status == 429 || status == 503 {
                let wait = response
                    .headers()
                    .get("retry-after")
                    .and_then(|value| value.to_str().ok()?.parse::<u64>().ok())
                    .unwrap_or(1);
                std::thread::sleep(Duration::from_secs(wait.clamp(1, 60)));
                continue;
            }
            let text = response.text().map_err(|e| format!("{method} {path}: {e}"))?;
            let value = if text.trim().is_empty() {
                Value::Null
            } else {
                serde_json::from_str(&text).map_err(|e| format!("{method} {path}: the answer is not JSON ({e})"))?
            };
            return Ok((status, value));
        }
        Err(format!("{method} {path}: refused for load {} times", RETRIES + 1))
    }

    /// The body of an answer with the `want`ed status, or the problem the server gave.
    fn expect(&self, (status, body): (u16, Value), want: u16, what: &str) -> Result<Value, String> {
        if status == want {
            return Ok(body);
        }
        let code = body["code"].as_str().unwrap_or("");
        let detail = body["detail"].as_str().unwrap_or("");
        Err(format!("{what}: {status} {code} {detail}").trim_end().to_owned())
    }

    fn token_of(&self, name: &str) -> Result<&str, String> {
        self.accounts
            .iter()
            .find(|(account, _)| account == name)
            .map(|(_, token)| token.as_str())
            .ok_or_else(|| format!("no token was given for {name}"))
    }

    /// Creates, seats and starts a game; returns its id.
    fn set_up(&self, game: &LadderGame<'_>) -> Result<String, String> {
        let mut config = game.pool.config(game.players);
        config.turn_limit = Some(TURN_LIMIT);
        config.turn_timer_seconds = Some(self.turn_timer_seconds);
        // A server takes seeds of 0 to 2^63 - 1 (an int64 every client can hold).
        let seed = game.seed & (i64::MAX as u64);
        let body = json!({"options": config, "max_players": game.players, "seed": seed, "seat_creator": false});
        let what = format!("{} game {}", game.pool, game.number);
        let created = self.expect(
            self.call("POST", "/games", Some(&self.host_token), Some(&body))?,
            201,
            &format!("creating {what}"),
        )?;
        let id = created["id"].as_str().ok_or_else(|| format!("creating {what} gave no id"))?.to_owned();
        let seats_path = format!("/games/{id}/players");
        // Seats are taken lowest first, so seating in the lineup's order seats it as it is.
        for &entrant in game.lineup {
            let (token, body) = match &game.entrants[entrant] {
                Entrant::Builtin(kind) => (self.host_token.as_str(), json!({"bot": kind.name()})),
                Entrant::Account(name) => (self.token_of(name)?, json!({"accept_chosen_seed": true})),
            };
            let seating = format!("seating {} in {what} ({id})", game.entrants[entrant]);
            self.expect(self.call("POST", &seats_path, Some(token), Some(&body))?, 201, &seating)?;
        }
        let started = self.expect(
            self.call("POST", &format!("/games/{id}/start"), Some(&self.host_token), None)?,
            200,
            &format!("starting {what} ({id})"),
        )?;
        let players = started["players"].as_array().cloned().unwrap_or_default();
        for (seat, &entrant) in game.lineup.iter().enumerate() {
            let player = players.get(seat).cloned().unwrap_or(Value::Null);
            let holds = match &game.entrants[entrant] {
                Entrant::Builtin(kind) => player["bot"].as_str() == Some(kind.name()),
                Entrant::Account(name) => player["username"].as_str().is_some_and(|n| n.eq_ignore_ascii_case(name)),
            };
            if !holds {
                return Err(format!("{what} ({id}) seats {player} in seat {seat}, not {}", game.entrants[entrant]));
            }
        }
        Ok(id)
    }
}

impl Venue for Server {
    fn play(&self, game: LadderGame<'_>) -> Result<Outcome, String> {
        let id = self.set_up(&game)?;
        let seats = usize::from(game.players);
        let deadline = Instant::now() + self.patience;
        let (mut after, mut auto, mut by_turn_limit) = (0_i64, vec![false; seats], false);
        let unfinished =
            Outcome { lineup: game.lineup.to_vec(), places: None, winner: None, by_turn_limit: false, abandoned: 0 };
        loop {
            if Instant::now() >= deadline {
                return Ok(unfinished);
            }
            let path = format!("/games/{id}/moves?after={after}&wait={LONG_POLL_SECONDS}");
            let page =
                self.expect(self.call("GET", &path, Some(&self.host_token), None)?, 200, &format!("following {id}"))?;
            for entry in page["entries"].as_array().map(Vec::as_slice).unwrap_or_default() {
                after = entry["seq"].as_i64().unwrap_or(after);
                if let Some(seat) = entry["seat"].as_u64().and_then(|s| usize::try_from(s).ok()) {
                    if let Some(on_autoplay) = auto.get_mut(seat) {
                        *on_autoplay = entry["auto"].as_bool().unwrap_or(false);
                    }
                }
                let events = entry["events"].as_array().map(Vec::as_slice).unwrap_or_default();
                by_turn_limit |= events.iter().any(|e| e["type"] == "game_won" && e["condition"] == "turn_limit");
            }
            if page["status"] == "finished" {
                break;
            }
        }
        let finished =
            self.expect(self.call("GET", &format!("/games/{id}"), Some(&self.host_token), None)?, 200, "the result")?;
        let winner = finished["winner"].as_u64().and_then(|s| usize::try_from(s).ok());
        let players = finished["players"].as_array().map(Vec::as_slice).unwrap_or_default();
        let points: Vec<u32> = (0..seats)
            .map(|seat| players.get(seat).and_then(|p| p["victory_points"].as_u64()).unwrap_or(0))
            .map(|points| u32::try_from(points).unwrap_or(u32::MAX))
            .collect();
        let abandoned = u32::try_from(auto.iter().filter(|&&gone| gone).count()).unwrap_or(u32::MAX);
        Ok(Outcome {
            lineup: game.lineup.to_vec(),
            places: Some(places(winner, &points, &auto)),
            winner,
            by_turn_limit,
            abandoned,
        })
    }
}
