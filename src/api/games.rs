//! Games: create, list, join, start (one game as a reader sees it: [`super::get_game`]).

use actix_web::{
    get,
    http::header::{self, ContentType},
    post, web, HttpRequest, HttpResponse,
};
use std::sync::Arc;

use catan_engine::{bots::BotKind, BoardSpec, Game, GameConfig, ScenarioId};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::{
    app::AppState,
    auth::{AuthUser, MaybeAuthUser},
    error::{ApiError, Problem},
    http::json::Json,
    rated::{Pool, RATED_TURN_TIMER_SECONDS},
    store::{
        self,
        db::with_conn,
        idempotency::{self, Keyed},
        GameRow, GameStatus,
    },
    views::game::{render, summary, BoardChoice, GameListResponse, GameResponse},
};

/// A new game.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"max_players": 4, "board": "beginner"}))]
pub struct CreateGameRequest {
    /// The rule set: `"base"` (default), or variants to switch on, joined with `+`:
    /// `"five_six"` (5-6 players), `"jungle"`, `"big_river"`, `"seafarers"` (with a
    /// `scenario`; `"seafarers+five_six"` for 5 or 6 players), `"wonders"` (Wonders of Catan,
    /// 3-4 players: the same as `"seafarers"` with the scenario `wonders`),
    /// `"cities_and_knights"` (Cities & Knights, up to 4 players, or 5-6 as
    /// `"five_six+cities_and_knights"`; on a Seafarers scenario other than `wonders` as
    /// `"seafarers+cities_and_knights"`). The same as setting `five_six_extension`, `jungle`,
    /// `big_river`, `seafarers` or `cities_and_knights` in `options`; their numbers
    /// (`jungle_number`, `river_gold_number`) still go in `options`. Each name creates a game
    /// as is: what it needs and was not given has a default (`five_six`: 6 seats unless
    /// `max_players` or `options.players` is given; `jungle`: `jungle_number` 5; `big_river`:
    /// `river_gold_number` 9 and a random board unless a `board` is named). Another name is
    /// 422 `unsupported_variant`.
    #[serde(default)]
    pub variant: Option<String>,
    /// The Seafarers scenario (see `GET /api/v1/scenarios`), e.g. `"new_shores"` or
    /// `"wonders"`; naming one switches Seafarers on. With `"variant": "seafarers"` and no
    /// scenario, `new_shores`. With `"variant": "wonders"`, only `wonders` (or none). Another
    /// name is 422 `unsupported_scenario` (also in `options.scenario`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<ScenarioId>,
    /// Seats: 2 to 4 for the base game, 5 or 6 with the 5-6 player extension (default 4).
    /// The game may start with fewer once 2 have joined.
    #[serde(default)]
    pub max_players: Option<u8>,
    /// `beginner` (default) or `random`.
    #[serde(default)]
    pub board: Option<BoardChoice>,
    /// Fixes every chance outcome (board shuffle, dice, cards), 0 to 2^63 - 1 (an `int64`
    /// every generated client can hold). Random when absent. Kept secret from the other
    /// players until the game is over.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Rule options (the engine's configuration). `players` and `board` are taken from
    /// `max_players` and `board` when those are given; a custom board may be given here.
    #[serde(default)]
    pub options: Option<GameConfig>,
    /// Whether the creator takes seat 0 (default true). With `false` the creator only hosts:
    /// they may still seat bots and start the game, e.g. a game of bots only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat_creator: Option<bool>,
    /// A prepared position to start from: the engine's `Setup`, as the analysis endpoints
    /// take it, whole (no `hidden` hands; a finished game's `GET .../position` gives one). The
    /// game plays from it with its rules (`position.config`) and its number of seats, all of
    /// which must be taken to start; `seed` (or a random one) keys its chance. With a
    /// position, `variant`, `scenario`, `max_players`, `board` and `options` are left out
    /// (422 `invalid_config`); a position that cannot arise is 422 `invalid_position`. Like a
    /// game with a chosen seed, only its creator and bots may take its seats, unless the
    /// server is a sandbox (`CATAN_SANDBOX=1`). Its schema is `Setup` (given here as an
    /// object, so that a generated client passes any position it holds as it is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub position: Option<Box<catan_engine::Setup>>,
    /// A rated game (default false): when it finishes, its players' ratings in its pool
    /// change (see `GET /api/v1/leaderboards/{pool}`). Its ruleset must have a pool (`base`,
    /// `five_six`, `seafarers`, `wonders`, `cities_and_knights`; not Jungle or Big River), and
    /// it has no chosen `seed`, no `position` and is not played on a sandbox server (422
    /// `rated_game_not_allowed`, naming the field). It gets a turn timer of 120 s unless
    /// `options.turn_timer_seconds` gives one: a seat left to the timer's autoplay to the end
    /// finishes last. Seeks (`POST /api/v1/seeks`) make rated games without a lobby.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<bool>,
}

/// How to join: as yourself (no body), or (creator only) a built-in bot.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// The kind of built-in bot to seat (see `BotKind`): `random` or `heuristic`. The server
    /// plays its moves. Another name is 422 `unknown_bot_kind`.
    #[serde(default)]
    #[schema(example = "heuristic")]
    pub bot: Option<String>,
    /// Join a game whose creator chose its seed (otherwise 422 `seeded_game`), accepting that
    /// the creator could know its dice in advance. Only while the creator holds no seat
    /// (`seat_creator: false`): a host who does not play, such as a bot ladder
    /// (`catan-server ladder --server`) or a tournament's organiser.
    #[serde(default)]
    pub accept_chosen_seed: bool,
}

/// Filters and paging for the game list. Filters combine: a game must pass all given.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListGamesQuery {
    /// Only games with this status.
    pub status: Option<GameStatus>,
    /// `true`: only the caller's games, those they created or sit in (needs a token: 401
    /// `unauthorized` without one). `false` is the same as leaving it out.
    pub mine: Option<bool>,
    /// `true`: only games one may join now: open, with a free seat, not seeded (unless the
    /// server is a sandbox), and not already joined by the caller (when a token is sent).
    pub joinable: Option<bool>,
    /// Only games with these variants on: a name `POST /games` takes as `variant`
    /// (`five_six`, `jungle`, `big_river`, `seafarers`, `wonders`, `cities_and_knights`, or
    /// several joined with `+`, or with blanks: a `+` copied into a URL decodes to a space);
    /// `base` for games without any. Another name is 400
    /// `invalid_query`. With this filter a page may hold fewer than `limit` games (at most
    /// 1000 games are examined per page): only a null `next_cursor` ends the list.
    #[param(example = "seafarers")]
    pub variant: Option<String>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// Page size, 1 to 100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
}

/// The numbers of a new game the spec bounds (`minimum`/`maximum`), by JSON pointer, with the
/// code of a number outside: checked on the body as sent, before it is read into Rust's
/// types, so that 31 and 300 for `vp_target` get the same answer. `api::spec` writes them
/// into the document.
pub const CREATE_GAME_RANGES: &[(&str, i64, i64, &str)] = &[
    ("/max_players", 2, 6, "invalid_max_players"),
    ("/seed", 0, i64::MAX, "invalid_config"),
    ("/options/players", 2, 6, "invalid_max_players"),
    ("/options/vp_target", 3, 30, "invalid_config"),
    ("/options/jungle_number", 2, 12, "invalid_config"),
    ("/options/river_gold_number", 2, 12, "invalid_config"),
    ("/options/barbarian_steps", 1, 20, "invalid_config"),
    ("/options/progress_hand_limit", 1, 10, "invalid_config"),
    ("/options/turn_limit", 1, 10_000, "invalid_config"),
    ("/options/setup_rounds", 2, 3, "invalid_config"),
    ("/options/starting_resources_round", 1, 3, "invalid_config"),
    ("/options/clv_end_villages_min", 1, 12, "invalid_config"),
    ("/options/turn_timer_seconds", 5, 604_800, "invalid_turn_timer"),
];

/// The jungle's number token when `jungle_number` is not given (JUN-2): not a 6 or 8, so it
/// never sits next to another red number.
pub const DEFAULT_JUNGLE_NUMBER: u8 = 5;

/// The gold mine's number token when `river_gold_number` is not given (RIV-3): not red either.
pub const DEFAULT_RIVER_GOLD_NUMBER: u8 = 9;

/// Checks the body of `POST /games` as sent: its bounded numbers ([`CREATE_GAME_RANGES`],
/// 422 with their code) and its scenario names (422 `unsupported_scenario`, as an unknown
/// variant is 422 `unsupported_variant`).
///
/// # Errors
/// The first value outside, naming its field.
fn check_create_request(body: &serde_json::Value) -> Result<(), ApiError> {
    crate::http::json::object(body)?;
    for (pointer, min, max, code) in CREATE_GAME_RANGES {
        check_number(body, pointer, *min, *max, code)?;
    }
    for pointer in ["/scenario", "/options/scenario"] {
        let Some(name) = body.pointer(pointer).and_then(serde_json::Value::as_str) else { continue };
        if !ScenarioId::ALL.iter().any(|scenario| scenario.name() == name) {
            let known: Vec<&str> = ScenarioId::ALL.iter().map(|s| s.name()).collect();
            let detail = format!("must be one of {} (got \"{name}\")", known.join(", "));
            return Err(ApiError::unprocessable(
                "unsupported_scenario",
                format!("unknown scenario \"{name}\"; see GET /api/v1/scenarios"),
            )
            .at(format!("#{pointer}"), detail));
        }
    }
    Ok(())
}

/// Checks the options of a new game found elsewhere than in `POST /games` (a record's
/// `game.options`, at the JSON pointer `at`) against the bounds of [`CREATE_GAME_RANGES`].
///
/// # Errors
/// The first value outside, naming its field.
pub fn check_options_at(body: &serde_json::Value, at: &str) -> Result<(), ApiError> {
    for (pointer, min, max, code) in CREATE_GAME_RANGES {
        if let Some(field) = pointer.strip_prefix("/options/") {
            check_number(body, &format!("{at}/{field}"), *min, *max, code)?;
        }
    }
    Ok(())
}

/// Checks the number at `pointer` of `body`, if there is one: an integer (else 400
/// `malformed_body`) from `min` to `max` (else 422 `code`).
fn check_number(
    body: &serde_json::Value,
    pointer: &str,
    min: i64,
    max: i64,
    code: &'static str,
) -> Result<(), ApiError> {
    let Some(number) = body.pointer(pointer).and_then(serde_json::Value::as_number) else { return Ok(()) };
    let inside = number.as_i64().is_some_and(|n| (min..=max).contains(&n));
    let integer = number.is_i64() || number.is_u64();
    if !integer {
        // Not of the field's type: 400 as any such field, but with the spec's bounds rather
        // than those of the Rust type it is read into.
        let detail = format!("must be an integer from {min} to {max} (got floating point {number})");
        return Err(ApiError::bad_request(
            "malformed_body",
            format!("the body does not fit this request at #{pointer}: {detail}"),
        )
        .at(format!("#{pointer}"), detail));
    }
    if !inside {
        let name = pointer.rsplit('/').next().unwrap_or(pointer);
        let detail = format!("must be an integer from {min} to {max} (got {number})");
        return Err(ApiError::unprocessable(code, format!("{name} {detail}")).at(format!("#{pointer}"), detail));
    }
    Ok(())
}

/// Fills in what a variant needs and was not given, so that each name of the variant list
/// creates a game as is: 6 seats for the 5-6 player extension, the jungle's token
/// ([`DEFAULT_JUNGLE_NUMBER`]), the gold mine's ([`DEFAULT_RIVER_GOLD_NUMBER`]), and for Big
/// River a random board unless a board was named (the beginner board has no river).
fn variant_defaults(config: &mut GameConfig, board_named: bool, players_named: bool) {
    if config.five_six_extension && !players_named {
        config.players = 6;
    }
    if config.jungle && config.jungle_number.is_none() {
        config.jungle_number = Some(DEFAULT_JUNGLE_NUMBER);
    }
    if config.big_river {
        if config.river_gold_number.is_none() {
            config.river_gold_number = Some(DEFAULT_RIVER_GOLD_NUMBER);
        }
        if !board_named && config.board == BoardSpec::Beginner {
            config.board = BoardSpec::Random;
        }
    }
}

fn game_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw).map_err(|_| ApiError::NotFound(format!("there is no game {raw}")))
}

/// Parses a game id from the path; an id that is not a UUID names no game (404).
pub fn parse_game_id(path: web::Path<String>) -> Result<Uuid, ApiError> {
    game_id(&path.into_inner())
}

/// Create a game; the creator takes seat 0 (unless `seat_creator` is false).
#[utoipa::path(
    tag = "games",
    params(("Idempotency-Key" = Option<String>, Header, description = "Retrying with the same key and body returns the first response (`Idempotent-Replayed: true`); the same key with another request is 422 `idempotency_key_reused`")),
    request_body = CreateGameRequest,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Created", body = GameResponse),
        (status = 400, description = "Malformed body (`malformed_body`): not a JSON object, or a field of the wrong type; `errors` names each field", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`too_many_games`: you created as many games as one account may have open or playing at once (`CATAN_MAX_OPEN_GAMES`, default 20)", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 422, description = "`invalid_max_players` (`max_players` outside 2 to 6), `unsupported_variant`, `unsupported_scenario`, a number outside the bounds its schema gives (`invalid_config`, e.g. `vp_target` outside 3 to 30; `errors` names the field), a setup code such as `invalid_board`, `invalid_config` (e.g. a `turn_limit` outside 1 to 10,000) or `invalid_player_count` (e.g. Wonders of Catan with 2 or 5 players), `invalid_turn_timer` (`turn_timer_seconds` outside 5 to 604,800), `rated_game_not_allowed` (a rated game with a `seed`, a `position`, on a sandbox server, or of a ruleset without a pool), or `idempotency_key_reused`", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games")]
pub async fn create_game(
    state: web::Data<AppState>,
    user: AuthUser,
    req: HttpRequest,
    body: Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    state.limits.create_game(user.id).await?;
    let raw = body.into_inner();
    check_create_request(&raw)?;
    check_options_at(&raw, "/position/config")?;
    let request: CreateGameRequest = crate::http::json::from_value(&raw)?;
    let claim = idempotency::claim(&req, user.id, &request)?;
    let seat_creator = request.seat_creator.unwrap_or(true);
    let rated = request.rated.unwrap_or(false);
    if rated {
        refuse_unrateable(&request, state.sandbox)?;
    }
    if let Some(position) = &request.position {
        let (config, seed, position) = prepared(&request, position)?;
        return create(&state, user.id, claim, seat_creator, config, seed, true, Some(position), None).await;
    }
    let had_options = request.options.is_some();
    let mut config = request.options.unwrap_or_default();
    if let Some(variant) = &request.variant {
        config
            .enable_variants(variant)
            .map_err(|e| ApiError::unprocessable("unsupported_variant", e.to_string()).at_field("#/variant"))?;
    }
    if let Some(scenario) = request.scenario {
        // The variant `wonders` is itself a scenario: it cannot be played on another map.
        let wonders_variant = request.variant.as_deref().is_some_and(|v| v.split('+').any(|p| p.trim() == "wonders"));
        if wonders_variant && scenario != ScenarioId::Wonders {
            return Err(ApiError::unprocessable(
                "invalid_config",
                format!("the variant wonders is the scenario wonders, not {}", scenario.name()),
            )
            .at_field("#/scenario"));
        }
        config.seafarers = true;
        config.scenario = Some(scenario);
    } else if config.seafarers && config.scenario.is_none() {
        config.scenario = Some(ScenarioId::NewShores);
    }
    if let Some(max) = request.max_players {
        config.players = max;
    } else if !had_options {
        config.players = 4;
    }
    // The engine decides which counts its rules allow (2-4 for the base game); this only
    // keeps the request within what any supported variant could seat.
    if !(2..=6).contains(&config.players) {
        return Err(ApiError::unprocessable(
            "invalid_max_players",
            format!("max_players must be 2 to 6, not {}", config.players),
        )
        .at_field(if request.max_players.is_some() { "#/max_players" } else { "#/options/players" }));
    }
    match request.board {
        Some(BoardChoice::Beginner) => config.board = BoardSpec::Beginner,
        Some(BoardChoice::Random) => config.board = BoardSpec::Random,
        None => {}
    }
    let board_named = request.board.is_some() || raw.pointer("/options/board").is_some();
    let players_named = request.max_players.is_some() || raw.pointer("/options/players").is_some();
    variant_defaults(&mut config, board_named, players_named);
    // A random seed is drawn as the request's are bounded: within `int64` (issue 30: a Go
    // client could not read a finished game whose seed was above 2^63 - 1).
    let seed = request.seed.unwrap_or_else(random_seed);
    crate::play::turn_timer::validate(&config)?;
    let pool = if rated {
        let pool = Pool::of(&config).ok_or_else(|| {
            ApiError::unprocessable(
                "rated_game_not_allowed",
                "Jungle and Big River games are not rated: they have no rating pool",
            )
            .at_field("#/variant")
        })?;
        config.turn_timer_seconds.get_or_insert(RATED_TURN_TIMER_SECONDS);
        Some(pool)
    } else {
        None
    };
    // Validate the configuration now, not when the game starts.
    Game::start_events(&config, seed)?;
    create(&state, user.id, claim, seat_creator, config, seed, request.seed.is_some(), None, pool).await
}

/// A rated game's chance is the server's alone: no chosen seed, no prepared position, no
/// dice named on a sandbox server (422 `rated_game_not_allowed`, naming the field).
fn refuse_unrateable(request: &CreateGameRequest, sandbox: bool) -> Result<(), ApiError> {
    let refusal = if sandbox {
        Some(("rated", "a sandbox server plays no rated games: moves there may name their dice"))
    } else if request.seed.is_some() {
        Some(("seed", "a rated game has no chosen seed: its dice could be known in advance"))
    } else if request.position.is_some() {
        Some(("position", "a rated game starts from the beginning, not from a position"))
    } else {
        None
    };
    match refusal {
        Some((field, why)) => {
            Err(ApiError::unprocessable("rated_game_not_allowed", why).at_field(format!("#/{field}")))
        }
        None => Ok(()),
    }
}

fn random_seed() -> u64 {
    rand::random::<u64>() >> 1
}

/// A game from a prepared position: its rules, seed and position as stored, once the
/// position is checked as the game will start from it.
///
/// # Errors
/// 422 `invalid_config` (other rules named beside the position), 422 `invalid_position`.
fn prepared(
    request: &CreateGameRequest,
    position: &catan_engine::Setup,
) -> Result<(GameConfig, u64, String), ApiError> {
    let others = [
        ("variant", request.variant.is_some()),
        ("scenario", request.scenario.is_some()),
        ("max_players", request.max_players.is_some()),
        ("board", request.board.is_some()),
        ("options", request.options.is_some()),
    ];
    if let Some((field, _)) = others.iter().find(|(_, given)| *given) {
        return Err(ApiError::unprocessable(
            "invalid_config",
            format!("a game from a position takes its rules from `position.config`: leave `{field}` out"),
        )
        .at_field(format!("#/{field}")));
    }
    let seed = request.seed.unwrap_or_else(random_seed);
    crate::play::turn_timer::validate(&position.config)?;
    let (game, _) =
        Game::start_from(position.clone(), seed).map_err(|error| ApiError::Position(error).at_field("#/position"))?;
    if !(2..=6).contains(&game.config().players) {
        return Err(ApiError::unprocessable("invalid_max_players", "a game has 2 to 6 players")
            .at_field("#/position/config/players"));
    }
    Ok((game.config().clone(), seed, serde_json::to_string(position)?))
}

/// Writes a new open game (its creator in seat 0 with `seat_creator`) and answers it.
#[allow(clippy::too_many_arguments)]
async fn create(
    state: &AppState,
    user_id: Uuid,
    claim: Option<idempotency::Claim>,
    seat_creator: bool,
    config: GameConfig,
    seed: u64,
    seeded: bool,
    position: Option<String>,
    pool: Option<Pool>,
) -> Result<HttpResponse, ApiError> {
    let at = store::now();
    let row = GameRow {
        id: Uuid::now_v7().to_string(),
        created_by: user_id.to_string(),
        status: GameStatus::Open.as_str().into(),
        max_players: i32::from(config.players),
        config: serde_json::to_string(&config)?,
        seed: seed as i64,
        version: 0,
        snapshot: None,
        created_at: at,
        updated_at: at,
        seeded,
        imported_from: None,
        position,
        rated: pool.is_some(),
        pool: pool.map(|pool| pool.name().to_owned()),
    };
    let id = Uuid::parse_str(&row.id).map_err(ApiError::internal)?;
    let limits = Arc::clone(&state.limits);
    let written = with_conn(&state.pool, move |conn| {
        idempotency::once(conn, claim.as_ref(), 201, |conn| {
            limits.check_open_games(conn, user_id)?;
            store::insert_game(conn, &row, seat_creator)?;
            rendered(conn, id, user_id)
        })
    })
    .await?;
    Ok(match written {
        Keyed::Replay(first) => first.replay(),
        Keyed::Done(tag, body) => HttpResponse::Created()
            .insert_header((header::LOCATION, format!("/api/v1/games/{id}")))
            .insert_header((header::ETAG, tag))
            .content_type(ContentType::json())
            .body(body),
    })
}

/// Renders a game for `user` as the JSON body of a keyed write, with its entity tag.
pub fn rendered(conn: &mut crate::store::db::DbConnection, id: Uuid, user: Uuid) -> Result<(String, String), ApiError> {
    let (tag, body) = render(conn, id, Some(user))?;
    Ok((tag, serde_json::to_string(&body)?))
}

/// List games, newest first.
///
/// Filters: `status`, `mine=true` (the caller's games, needs a token), `joinable=true` (open
/// games with a free seat the caller may take), `variant`. A token is optional except for
/// `mine`; a token that is sent must be valid (401 `unauthorized` otherwise, as everywhere).
#[utoipa::path(
    tag = "games",
    params(ListGamesQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "A page of games", body = GameListResponse),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 400, description = "Bad query (`invalid_query`, with `errors` naming the parameter): an unknown status or variant, a value that is not a number or boolean, a `limit` outside 1 to 100, a bad cursor", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid, or `mine=true` without a token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games")]
pub async fn list_games(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    query: crate::http::query::Query<ListGamesQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limits.read(&req, user.0.as_ref().map(|u| u.id)).await?;
    let query = query.into_inner();
    let limit = i64::from(crate::http::json::in_range("limit", query.limit.unwrap_or(20), 1, 100)?);
    let cursor = match &query.cursor {
        Some(c) => {
            Some(Uuid::parse_str(c).map_err(|_| ApiError::bad_request("invalid_query", "the cursor is not valid"))?)
        }
        None => None,
    };
    let caller = user.0.map(|u| u.id);
    let mine = match (query.mine, caller) {
        (Some(true), None) => {
            return Err(ApiError::Unauthorized("`mine=true` lists the caller's games: send a Bearer token".into()))
        }
        (Some(true), caller) => caller,
        _ => None,
    };
    let joinable = query.joinable == Some(true);
    let filter = crate::store::lobby::GameFilter {
        status: query.status,
        mine,
        joinable,
        exclude_seated: caller.filter(|_| joinable),
        sandbox: state.sandbox,
        variant: query.variant.as_deref().map(crate::store::lobby::VariantFilter::parse).transpose()?,
        ..Default::default()
    };
    let page = with_conn(&state.pool, move |conn| crate::store::lobby::list(conn, &filter, cursor, limit)).await?;
    let games = page.games.iter().map(summary).collect::<Result<Vec<_>, _>>()?;
    let next_cursor = page.next.map(|id| id.to_string());
    Ok(HttpResponse::Ok().json(GameListResponse { games, next_cursor }))
}

/// Join the next free seat of an open game.
///
/// Send no body (or `{}`) to join yourself; a game whose creator chose its seed takes only its
/// creator and bots, or, while the creator holds no seat, anyone who sends
/// `{"accept_chosen_seed": true}`. The creator may instead seat a built-in bot with
/// `{"bot": "random"}` or `{"bot": "heuristic"}`: the server plays that seat's moves (its
/// turns, discards, gold choices and answers to trade offers made to it) right after each
/// commit, each as its own log entry marked with `bot`.
#[utoipa::path(
    tag = "games",
    params(("game_id" = Uuid, Path, description = "The game"), ("Idempotency-Key" = Option<String>, Header, description = "Retrying with the same key and body returns the first response (`Idempotent-Replayed: true`); the same key with another request is 422 `idempotency_key_reused`")),
    request_body(content = Option<JoinRequest>, description = "Optional"),
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Seated", body = GameResponse,
         headers(("ETag" = String, description = "`\"v0.<seats taken>\"`; weak when compressed"))),
        (status = 400, description = "Malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Only the creator may seat bots", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_not_open`, `already_joined`, `game_full`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`unknown_bot_kind`, `seeded_game` (a game whose creator chose its seed: see `accept_chosen_seed`) or `idempotency_key_reused`", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game_id}/players")]
pub async fn join_game(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let fingerprint = serde_json::from_slice::<serde_json::Value>(&body)
        .unwrap_or_else(|_| String::from_utf8_lossy(&body).trim().into());
    let claim = idempotency::claim(&req, user.id, &fingerprint)?;
    join_game_once(state, user, path, req, body, claim).await
}

/// Tests if the request's `Content-Type` is JSON (`application/json` or a `+json` type).
fn says_json(req: &HttpRequest) -> bool {
    let Some(value) = req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()) else { return false };
    let essence = value.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json"))
}

async fn join_game_once(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
    req: HttpRequest,
    body: web::Bytes,
    claim: Option<idempotency::Claim>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_game_id(path)?;
    let request: JoinRequest = if body.iter().all(u8::is_ascii_whitespace) {
        JoinRequest::default()
    } else if !says_json(&req) {
        return Err(ApiError::UnsupportedMediaType);
    } else {
        // `null` is no body; anything else is read as every body is (`http::json`).
        let mut value = serde_json::from_slice::<serde_json::Value>(&body).map_err(|e| {
            ApiError::bad_request("malformed_body", format!("the body is not valid JSON: {e}")).at("#", e.to_string())
        })?;
        crate::http::json::whole_numbers(&mut value);
        if value.is_null() {
            JoinRequest::default()
        } else {
            crate::http::json::from_value(&value)?
        }
    };
    let bot = match &request.bot {
        Some(name) => {
            Some(name.parse::<BotKind>().map_err(|e| ApiError::unprocessable("unknown_bot_kind", e.to_string()))?)
        }
        None => None,
    };
    let user_id = user.id;
    let seeded_games = match (state.sandbox, request.accept_chosen_seed) {
        (true, _) => store::SeededGames::Open,
        (false, true) => store::SeededGames::HostedByANonPlayer,
        (false, false) => store::SeededGames::CreatorOnly,
    };
    let written = with_conn(&state.pool, move |conn| {
        idempotency::once(conn, claim.as_ref(), 201, |conn| {
            match bot {
                Some(kind) => store::add_bot(conn, id, user_id, kind)?,
                None => store::join_game(conn, id, user_id, seeded_games)?,
            };
            rendered(conn, id, user_id)
        })
    })
    .await?;
    Ok(match written {
        Keyed::Replay(first) => first.replay(),
        Keyed::Done(tag, body) => {
            HttpResponse::Created().insert_header((header::ETAG, tag)).content_type(ContentType::json()).body(body)
        }
    })
}

/// Start the game (creator only; at least 2 players).
///
/// Seats are fixed from now on; the first log entry records the board and who begins.
#[utoipa::path(
    tag = "games",
    params(("game_id" = Uuid, Path, description = "The game"), ("Idempotency-Key" = Option<String>, Header, description = "Retrying with the same key and body returns the first response (`Idempotent-Replayed: true`); the same key with another request is 422 `idempotency_key_reused`")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Started", body = GameResponse,
         headers(("ETag" = String, description = "`\"v<version>\"`; weak when compressed"))),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Not the creator", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_not_open`, `not_enough_players`", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`idempotency_key_reused`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game_id}/start")]
pub async fn start_game(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let claim = idempotency::claim(&req, user.id, &())?;
    let id = parse_game_id(path)?;
    let user_id = user.id;
    let (notifier, bots) = (state.notifier.clone(), state.bots.clone());
    let written = with_conn(&state.pool, move |conn| {
        let written = idempotency::once(conn, claim.as_ref(), 200, |conn| {
            let version = store::start_game(conn, id, user_id)?;
            let (tag, body) = rendered(conn, id, user_id)?;
            Ok(((version, tag), body))
        })?;
        // Announced (and the bots told) right after the commit, even if the client has gone
        // meanwhile: the blocking task runs to its end either way.
        if let Keyed::Done((version, _), _) = &written {
            notifier.publish(id, *version);
            bots.poke(id);
        }
        Ok(written)
    })
    .await?;
    Ok(match written {
        Keyed::Replay(first) => first.replay(),
        Keyed::Done((_, tag), body) => {
            HttpResponse::Ok().insert_header((header::ETAG, tag)).content_type(ContentType::json()).body(body)
        }
    })
}
