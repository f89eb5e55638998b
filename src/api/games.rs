//! Games: create, list, view, join, start.

use std::sync::Arc;

use actix_web::{
    get,
    http::header::{self, ContentType, HeaderMap},
    post,
    web::{self, Bytes},
    HttpRequest, HttpResponse,
};
use catan_engine::{
    bots::BotKind,
    view::{BoardView, HandView, PiecesLeft, TurnView},
    BoardSpec, DevCards, Game, GameConfig, Resources, ScenarioId, Seat, Viewer, WonderView,
};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::{
    api::{users::utc, AppState},
    auth::{AuthUser, MaybeAuthUser},
    db::with_conn,
    error::{ApiError, Problem},
    idempotency::{self, Keyed},
    reads::{Key, Latest, Reader},
    store::{self, GameRecord, GameRow, GameStatus},
};

/// The board to play on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum BoardChoice {
    /// The fixed, balanced first-game map.
    Beginner,
    /// Terrain, harbours and numbers shuffled from the game's seed.
    Random,
}

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
    /// (`jungle_number`, `river_gold_number`) still go in `options`.
    #[serde(default)]
    pub variant: Option<String>,
    /// The Seafarers scenario (see `GET /api/v1/scenarios`), e.g. `"new_shores"` or
    /// `"wonders"`; naming one switches Seafarers on. With `"variant": "seafarers"` and no
    /// scenario, `new_shores`. With `"variant": "wonders"`, only `wonders` (or none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<ScenarioId>,
    /// Seats: 2 to 4 for the base game, 5 or 6 with the 5-6 player extension (default 4).
    /// The game may start with fewer once 2 have joined.
    #[serde(default)]
    pub max_players: Option<u8>,
    /// `beginner` (default) or `random`.
    #[serde(default)]
    pub board: Option<BoardChoice>,
    /// Fixes every chance outcome (board shuffle, dice, cards). Random when absent. Kept
    /// secret from the other players until the game is over.
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
}

/// One seat of a game.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerResponse {
    pub seat: Seat,
    /// The user in this seat.
    pub username: Option<String>,
    /// The bot in this seat, if it is a bot.
    pub bot: Option<String>,
    /// Victory points everyone can see (hidden VP cards count only after game over).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub victory_points: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_count: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub development_card_count: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub knights_played: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub road_length: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_longest_road: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub has_largest_army: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pieces_left: Option<PiecesLeft>,
    /// The full hand; only once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<Resources>,
    /// All development cards; only once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub development_cards: Option<DevCards>,
    /// Cities & Knights: the paper, cloth and coin cards held (counted in the hand limit,
    /// CK-7-1). Absent in other games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commodity_count: Option<u32>,
    /// Cities & Knights: the commodities themselves; only once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commodities: Option<catan_engine::Commodities>,
}

/// A game as the caller may see it: their own hand in full, others as counts.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameResponse {
    pub id: Uuid,
    pub status: GameStatus,
    /// The seq of the latest log entry (0 before the start). The `ETag` is `"v<version>"` once
    /// started; while open, `"v0.<seats taken>"` (a join changes the game but adds no entry).
    pub version: i64,
    /// The variants switched on, joined with `+`, or `"base"`.
    pub variant: String,
    pub max_players: u8,
    /// The engine's rule configuration (`players` is the actual count once started).
    pub options: GameConfig,
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    pub players: Vec<PlayerResponse>,
    /// The caller's seat, or null for spectators.
    pub you: Option<Seat>,
    /// The caller's hand and development cards; only for a seated caller once started.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<HandView>,
    /// The bank's cards; null before the start.
    pub bank: Option<Resources>,
    pub development_cards_left: Option<u32>,
    /// Hexes, harbours, robber, buildings and roads; null before the start.
    pub board: Option<BoardView>,
    /// The turn in progress: active seat, phase, and who must act (e.g. discards).
    pub turn: Option<TurnView>,
    pub trade_offers: Vec<catan_engine::state::TradeOffer>,
    pub longest_road: Option<Seat>,
    pub largest_army: Option<Seat>,
    pub vp_target: u8,
    /// Wonders of Catan: each wonder's condition (`requirements`, all of which must hold to
    /// claim it), the cost of a stage, its `owner` once claimed and the `stages_built` of its
    /// `stages`. Absent in other games and before the start.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub wonders: Vec<WonderView>,
    /// Cities & Knights: the commodity cards in the bank. Absent in other games.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commodity_bank: Option<catan_engine::Commodities>,
    /// Cities & Knights: the barbarian track (position, steps, attacks, whether the robber
    /// moves yet), each seat's improvement levels, knights (rank, active), walls, Defender
    /// points and progress card count (the cards themselves only for their holder, and for
    /// everyone after game over), and the cards left in each progress deck. Absent in other
    /// games and before the start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cities_and_knights: Option<catan_engine::CitiesKnightsView>,
    pub winner: Option<Seat>,
    /// How `winner` won, as the log's `game_won` says: `victory_points`, `wonder_completed`,
    /// `victory_points_and_wonder_lead`, or `turn_limit` (the game's `turn_limit` was reached:
    /// the most victory points won). Absent until the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub won_by: Option<catan_engine::VictoryCondition>,
    /// The creator chose the seed: only the creator and bots play in this game, since its
    /// dice could be known in advance.
    pub seeded: bool,
    /// The seed; only once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The turn timer (`options.turn_timer_seconds`): whom it runs for and until when.
    /// Absent in games without a timer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timer: Option<crate::turn_timer::TurnTimerView>,
    /// Where else to look at this game.
    pub links: GameLinks,
}

/// Related resources of a game, as paths on this server.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameLinks {
    /// This game resource (JSON).
    #[serde(rename = "self")]
    #[schema(example = "/api/v1/games/0190f0a1-0000-7000-8000-000000000000")]
    pub self_: String,
    /// The spectator page (HTML, for a browser): the board, the players' public state and
    /// the log, updated live, with a slider to replay the game.
    #[schema(example = "/games/0190f0a1-0000-7000-8000-000000000000")]
    pub spectator: String,
    /// The board as a picture (`image/svg+xml`).
    pub board_svg: String,
    /// The move log.
    pub moves: String,
    /// The event stream (`text/event-stream`).
    pub stream: String,
}

impl GameLinks {
    /// The links of game `id`.
    pub fn of(id: Uuid) -> GameLinks {
        let resource = format!("/api/v1/games/{id}");
        GameLinks {
            spectator: crate::spectator::page_path(id),
            board_svg: format!("{resource}/board.svg"),
            moves: format!("{resource}/moves"),
            stream: format!("{resource}/stream"),
            self_: resource,
        }
    }
}

/// A game in a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameSummary {
    pub id: Uuid,
    pub status: GameStatus,
    pub version: i64,
    pub variant: String,
    pub max_players: u8,
    pub board: BoardChoice,
    /// The Seafarers scenario, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scenario: Option<ScenarioId>,
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    pub players: Vec<SeatSummary>,
}

/// Who sits where.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatSummary {
    pub seat: Seat,
    pub username: Option<String>,
    pub bot: Option<String>,
}

/// A page of games, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameListResponse {
    pub games: Vec<GameSummary>,
    /// Pass as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
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
    /// several joined with `+`); `base` for games without any. Another name is 400
    /// `invalid_query`. With this filter a page may hold fewer than `limit` games (at most
    /// 1000 games are examined per page): only a null `next_cursor` ends the list.
    #[param(example = "seafarers")]
    pub variant: Option<String>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// Page size, 1 to 100 (default 20); a number outside is taken as the nearest bound.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
}

fn game_id(raw: &str) -> Result<Uuid, ApiError> {
    Uuid::parse_str(raw).map_err(|_| ApiError::NotFound(format!("there is no game {raw}")))
}

/// Parses a game id from the path; an id that is not a UUID names no game (404).
pub fn parse_game_id(path: web::Path<String>) -> Result<Uuid, ApiError> {
    game_id(&path.into_inner())
}

fn board_choice(config: &GameConfig) -> BoardChoice {
    match config.board {
        BoardSpec::Random => BoardChoice::Random,
        _ => BoardChoice::Beginner,
    }
}

/// Builds the game resource as `user` may see it.
///
/// # Errors
/// When stored JSON is unreadable.
pub fn game_response(record: &GameRecord, user: Option<Uuid>) -> Result<GameResponse, ApiError> {
    let row = &record.game;
    let you = user.and_then(|u| record.seat_of(u));
    let game = row.game()?;
    let view = game.as_ref().map(|g| g.view(viewer_of(you)));
    response_of(record, you, view, row.status(), row.version)
}

/// Builds the game resource as `user` may see it at a past position `game` (after log entry
/// `seq`), rebuilt from the log: the redaction of that moment, except that everything is
/// shown when the game is over by now (as its log then shows everything too). No timer.
///
/// # Errors
/// When stored JSON is unreadable.
pub fn game_response_at(
    record: &GameRecord,
    user: Option<Uuid>,
    position: &crate::replay::Position,
    seq: i64,
) -> Result<GameResponse, ApiError> {
    let you = user.and_then(|u| record.seat_of(u));
    let game = &position.game;
    let view = if record.game.status() == GameStatus::Finished {
        game.view_revealed(viewer_of(you))
    } else {
        game.view(viewer_of(you))
    };
    let mut response = response_of(record, you, Some(view), GameStatus::of(game), seq)?;
    response.won_by = position.won_by;
    Ok(response)
}

fn viewer_of(seat: Option<Seat>) -> Viewer {
    seat.map_or(Viewer::Spectator, Viewer::Seat)
}

fn response_of(
    record: &GameRecord,
    you: Option<Seat>,
    view: Option<catan_engine::GameView>,
    status: GameStatus,
    version: i64,
) -> Result<GameResponse, ApiError> {
    let row = &record.game;
    let config = row.config()?;
    let players = record
        .seats
        .iter()
        .map(|holder| {
            let seat = Seat(holder.seat as u8);
            let p = view.as_ref().and_then(|v| v.players.iter().find(|p| p.seat == seat));
            PlayerResponse {
                seat,
                username: holder.username.clone(),
                bot: holder.bot.clone(),
                victory_points: p.map(|p| p.victory_points),
                resource_count: p.map(|p| p.resource_count),
                development_card_count: p.map(|p| p.development_card_count),
                knights_played: p.map(|p| p.knights_played),
                road_length: p.map(|p| p.road_length),
                has_longest_road: p.map(|p| p.has_longest_road),
                has_largest_army: p.map(|p| p.has_largest_army),
                pieces_left: p.map(|p| p.pieces_left),
                resources: p.and_then(|p| p.resources),
                development_cards: p.and_then(|p| p.development_cards),
                commodity_count: p.and_then(|p| p.commodity_count),
                commodities: p.and_then(|p| p.commodities),
            }
        })
        .collect();
    let id = Uuid::parse_str(&row.id).map_err(ApiError::internal)?;
    Ok(GameResponse {
        id,
        status,
        version,
        variant: config.variant_name(),
        max_players: row.max_players as u8,
        created_by: record.creator.clone(),
        created_at: utc(row.created_at),
        players,
        you,
        hand: view.as_ref().and_then(|v| v.hand.clone()),
        bank: view.as_ref().map(|v| v.bank),
        development_cards_left: view.as_ref().map(|v| v.development_cards_left),
        board: view.as_ref().map(|v| v.board.clone()),
        turn: view.as_ref().map(|v| v.turn.clone()),
        trade_offers: view.as_ref().map(|v| v.trade_offers.clone()).unwrap_or_default(),
        longest_road: view.as_ref().and_then(|v| v.longest_road),
        largest_army: view.as_ref().and_then(|v| v.largest_army),
        vp_target: config.victory_target(),
        wonders: view.as_ref().map(|v| v.wonders.clone()).unwrap_or_default(),
        commodity_bank: view.as_ref().and_then(|v| v.commodity_bank),
        cities_and_knights: view.as_ref().and_then(|v| v.cities_and_knights.clone()),
        winner: view.as_ref().and_then(|v| v.winner),
        won_by: None,
        seeded: row.seeded,
        seed: view.as_ref().and_then(|v| v.seed),
        options: config,
        timer: None,
        links: GameLinks::of(id),
    })
}

/// Loads a game and renders it for `user`, with its entity tag. Runs on the blocking pool,
/// like everything that touches the engine.
fn render(
    conn: &mut crate::db::DbConnection,
    id: Uuid,
    user: Option<Uuid>,
) -> Result<(String, GameResponse), ApiError> {
    let record = store::load_game(conn, id)?;
    let tag = etag(&record.game, record.seats.len());
    let mut body = game_response(&record, user)?;
    crate::turn_timer::annotate(conn, &record, &mut body)?;
    Ok((tag, body))
}

fn summary(record: &GameRecord) -> Result<GameSummary, ApiError> {
    let row = &record.game;
    let config = row.config()?;
    Ok(GameSummary {
        id: Uuid::parse_str(&row.id).map_err(ApiError::internal)?,
        status: row.status(),
        version: row.version,
        variant: config.variant_name(),
        max_players: row.max_players as u8,
        board: board_choice(&config),
        scenario: config.scenario.filter(|_| config.seafarers),
        created_by: record.creator.clone(),
        created_at: utc(row.created_at),
        players: record
            .seats
            .iter()
            .map(|s| SeatSummary { seat: Seat(s.seat as u8), username: s.username.clone(), bot: s.bot.clone() })
            .collect(),
    })
}

/// The entity tag of a game as served: `"v<version>"`; before the start, when joins change
/// the game without a log entry, `"v0.<seats taken>"`. A compressed response carries it weak
/// (`W/"v12"`, [`crate::compression`]); `If-None-Match` and `If-Match` take either form.
pub fn etag(row: &GameRow, seats: usize) -> String {
    if row.status() == GameStatus::Open {
        format!("\"v0.{seats}\"")
    } else {
        format!("\"v{}\"", row.version)
    }
}

pub fn if_none_match(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == etag || t == "*")
}

/// Create a game; the creator takes seat 0 (unless `seat_creator` is false).
#[utoipa::path(
    tag = "games",
    params(("Idempotency-Key" = Option<String>, Header, description = "Retrying with the same key and body returns the first response (`Idempotent-Replayed: true`); the same key with another request is 422 `idempotency_key_reused`")),
    request_body = CreateGameRequest,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Created", body = GameResponse),
        (status = 400, description = "Malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`too_many_games`: you created as many games as one account may have open or playing at once (`CATAN_MAX_OPEN_GAMES`, default 20)", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 422, description = "`invalid_max_players`, `unsupported_variant`, a setup code such as `invalid_board`, `invalid_config` (e.g. a `turn_limit` outside 1 to 10,000) or `invalid_player_count` (e.g. Wonders of Catan with 2 or 5 players), `invalid_turn_timer` (`turn_timer_seconds` outside 5 to 604,800), or `idempotency_key_reused`", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games")]
pub async fn create_game(
    state: web::Data<AppState>,
    user: AuthUser,
    req: HttpRequest,
    body: web::Json<CreateGameRequest>,
) -> Result<HttpResponse, ApiError> {
    state.limits.create_game(user.id).await?;
    let claim = idempotency::claim(&req, user.id, &*body)?;
    let request = body.into_inner();
    let seat_creator = request.seat_creator.unwrap_or(true);
    let had_options = request.options.is_some();
    let mut config = request.options.unwrap_or_default();
    if let Some(variant) = &request.variant {
        config.enable_variants(variant).map_err(|e| ApiError::unprocessable("unsupported_variant", e.to_string()))?;
    }
    if let Some(scenario) = request.scenario {
        // The variant `wonders` is itself a scenario: it cannot be played on another map.
        let wonders_variant = request.variant.as_deref().is_some_and(|v| v.split('+').any(|p| p.trim() == "wonders"));
        if wonders_variant && scenario != ScenarioId::Wonders {
            return Err(ApiError::unprocessable(
                "invalid_config",
                format!("the variant wonders is the scenario wonders, not {}", scenario.name()),
            ));
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
        ));
    }
    match request.board {
        Some(BoardChoice::Beginner) => config.board = BoardSpec::Beginner,
        Some(BoardChoice::Random) => config.board = BoardSpec::Random,
        None => {}
    }
    let seed = request.seed.unwrap_or_else(rand::random);
    crate::turn_timer::validate(&config)?;
    // Validate the configuration now, not when the game starts.
    Game::start_events(&config, seed)?;
    let at = store::now();
    let row = GameRow {
        id: Uuid::now_v7().to_string(),
        created_by: user.id.to_string(),
        status: GameStatus::Open.as_str().into(),
        max_players: i32::from(config.players),
        config: serde_json::to_string(&config)?,
        seed: seed as i64,
        version: 0,
        snapshot: None,
        created_at: at,
        updated_at: at,
        seeded: request.seed.is_some(),
    };
    let id = Uuid::parse_str(&row.id).map_err(ApiError::internal)?;
    let user_id = user.id;
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
fn rendered(conn: &mut crate::db::DbConnection, id: Uuid, user: Uuid) -> Result<(String, String), ApiError> {
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
        (status = 400, description = "Bad query (`invalid_query`): an unknown status or variant, a value that is not a number or boolean, a bad cursor", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid, or `mine=true` without a token (`unauthorized`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games")]
pub async fn list_games(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    query: web::Query<ListGamesQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let limit = i64::from(query.limit.unwrap_or(20).clamp(1, 100));
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
    let filter = crate::lobby::GameFilter {
        status: query.status,
        mine,
        joinable,
        exclude_seated: caller.filter(|_| joinable),
        sandbox: state.sandbox,
        variant: query.variant.as_deref().map(crate::lobby::VariantFilter::parse).transpose()?,
    };
    let page = with_conn(&state.pool, move |conn| crate::lobby::list(conn, &filter, cursor, limit)).await?;
    let games = page.games.iter().map(summary).collect::<Result<Vec<_>, _>>()?;
    let next_cursor = page.next.map(|id| id.to_string());
    Ok(HttpResponse::Ok().json(GameListResponse { games, next_cursor }))
}

/// Which position of the game to show.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PositionQuery {
    /// A past position: the game as it was right after log entry `at` (the `seq` of
    /// `GET .../moves`; 1 is the start), rebuilt from the log. Redacted as the live game is
    /// for the caller (their own hand only), except that once the game is over every past
    /// position shows everything, as its log then does. `version` is then `at`, `status` the
    /// status then, and there is no `timer`. Outside 1 to the game's `version` (or before
    /// the start): 422 `seq_out_of_range`; not an integer: 400 `invalid_query`.
    #[param(minimum = 1, example = 42)]
    pub at: Option<i64>,
}

/// Get a game as the caller may see it (the spectator view without a token), now or (with
/// `at`) after any entry of its log.
///
/// Sends `ETag: "v<version>"` (`"v0.<seats taken>"` while the game is open; weak, `W/"…"`,
/// when the body is compressed); answers 304 to a matching `If-None-Match` (either form).
/// `HEAD` answers the same headers without the body.
///
/// With `at`, the position never changes for a given reader until the game ends (when it
/// starts showing every hand): the tag is `"at<seq>.<reader>"` (reader `spectator` or
/// `seat<n>`, with `.final` once the game is over), `Cache-Control` is `private, no-cache`
/// while the game runs and `private, max-age=86400, immutable` once it is over.
#[utoipa::path(
    tag = "games",
    params(("game_id" = Uuid, Path, description = "The game"), PositionQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The game", body = GameResponse,
         headers(("ETag" = String, description = "`\"v<version>\"` once started, `\"v0.<seats taken>\"` while open; `\"at<seq>.<reader>[.final]\"` with `at`; weak (`W/\"v<version>\"`) when the body is compressed (`Content-Encoding: gzip`)"),
                 ("Cache-Control" = String, description = "With `at` only: `private, no-cache` while the game runs, `private, max-age=86400, immutable` once it is over"))),
        (status = 304, description = "Not modified since the given ETag",
         headers(("ETag" = String, description = "The current tag, as the 200 would carry it"))),
        (status = 400, description = "`at` is not an integer (`invalid_query`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`at` names no entry of the log (`seq_out_of_range`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{game_id}")]
pub async fn get_game(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    path: web::Path<String>,
    query: web::Query<PositionQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = parse_game_id(path)?;
    let viewer = user.0.map(|u| u.id);
    if let Some(seq) = query.at {
        let past = past_position(&state, id, viewer, seq, req.headers()).await?;
        return Ok(past.respond(ContentType::json()));
    }
    // A started game this process knows: the tag and (usually) the bytes are in memory.
    if let Some(latest) = latest(&state, id).await? {
        let tag = format!("\"v{}\"", latest.version);
        if if_none_match(req.headers(), &tag) {
            return Ok(not_modified(tag));
        }
        let key = Key::Game { game: id, version: latest.version, reader: latest.reader(viewer) };
        if let Some(body) = state.reads.get(&key) {
            return Ok(game_ok(tag, body));
        }
    }
    let headers = req.headers().clone();
    let reads = Arc::clone(&state.reads);
    let epoch = reads.epoch();
    let (tag, body) = with_conn(&state.pool, move |conn| {
        let record = store::load_game(conn, id)?;
        reads.learn_record(epoch, &record);
        let tag = etag(&record.game, record.seats.len());
        if if_none_match(&headers, &tag) {
            return Ok((tag, None));
        }
        let mut body = game_response(&record, viewer)?;
        crate::turn_timer::annotate(conn, &record, &mut body)?;
        let body = Bytes::from(serde_json::to_vec(&body)?);
        // Before the start, joins change the game without a new version: not cached.
        if record.game.status() != GameStatus::Open {
            let reader = Reader::of(viewer.and_then(|u| record.seat_of(u)));
            reads.insert(Key::Game { game: id, version: record.game.version, reader }, body.clone());
        }
        Ok((tag, Some(body)))
    })
    .await?;
    Ok(match body {
        Some(body) => game_ok(tag, body),
        None => not_modified(tag),
    })
}

/// A past position as one reader sees it, or its tag alone when the client has it.
#[derive(Debug)]
pub struct Past {
    pub tag: String,
    /// The game is over: the answer is final.
    pub over: bool,
    /// `None`: not modified.
    pub body: Option<Bytes>,
}

impl Past {
    /// The tag of position `seq` for `reader`; `over`: the game is over.
    pub fn tag(prefix: &str, seq: i64, reader: Reader, over: bool) -> String {
        let who = match reader {
            Reader::Spectator => "spectator".to_owned(),
            Reader::Seat(seat) => format!("seat{}", seat.0),
        };
        format!("\"{prefix}{seq}.{who}{}\"", if over { ".final" } else { "" })
    }

    /// The 200 (or 304) with its caching headers.
    pub fn respond(self, content_type: impl header::TryIntoHeaderPair) -> HttpResponse {
        let cache = if self.over { "private, max-age=86400, immutable" } else { "private, no-cache" };
        match self.body {
            Some(body) => HttpResponse::Ok()
                .insert_header((header::ETAG, self.tag))
                .insert_header((header::VARY, "Authorization"))
                .insert_header((header::CACHE_CONTROL, cache))
                .insert_header(content_type)
                .body(body),
            None => HttpResponse::NotModified()
                .insert_header((header::ETAG, self.tag))
                .insert_header((header::VARY, "Authorization"))
                .insert_header((header::CACHE_CONTROL, cache))
                .finish(),
        }
    }
}

/// The game resource after log entry `seq` for `viewer` ([`crate::replay`]): from the read
/// cache when this process has served it before (without the database when it also knows
/// the game's latest version), else rebuilt from the log.
///
/// # Errors
/// `not_found`, `seq_out_of_range`, a database error or an unreadable log.
pub async fn past_position(
    state: &AppState,
    id: Uuid,
    viewer: Option<Uuid>,
    seq: i64,
    headers: &HeaderMap,
) -> Result<Past, ApiError> {
    if let Some(latest) = latest(state, id).await? {
        if let Some(status) = latest.status.filter(|_| (1..=latest.version).contains(&seq)) {
            let (reader, over) = (latest.reader(viewer), status == GameStatus::Finished);
            let tag = Past::tag("at", seq, reader, over);
            if if_none_match(headers, &tag) {
                return Ok(Past { tag, over, body: None });
            }
            if let Some(body) = state.reads.get(&Key::GameAt { game: id, seq, reader, over }) {
                return Ok(Past { tag, over, body: Some(body) });
            }
        }
    }
    let headers = headers.clone();
    let reads = Arc::clone(&state.reads);
    let epoch = reads.epoch();
    with_conn(&state.pool, move |conn| {
        let record = store::load_game(conn, id)?;
        reads.learn_record(epoch, &record);
        crate::replay::check_seq(&record.game, seq)?;
        let reader = Reader::of(viewer.and_then(|u| record.seat_of(u)));
        let over = record.game.status() == GameStatus::Finished;
        let tag = Past::tag("at", seq, reader, over);
        if if_none_match(&headers, &tag) {
            return Ok(Past { tag, over, body: None });
        }
        let key = Key::GameAt { game: id, seq, reader, over };
        if let Some(body) = reads.get(&key) {
            return Ok(Past { tag, over, body: Some(body) });
        }
        let position = crate::replay::position_at(conn, &record.game, seq)?;
        let body = Bytes::from(serde_json::to_vec(&game_response_at(&record, viewer, &position, seq)?)?);
        reads.insert(key, body.clone());
        Ok(Past { tag, over, body: Some(body) })
    })
    .await
}

fn game_ok(tag: String, body: Bytes) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::ETAG, tag))
        .insert_header((header::VARY, "Authorization"))
        .content_type(ContentType::json())
        .body(body)
}

fn not_modified(tag: String) -> HttpResponse {
    HttpResponse::NotModified()
        .insert_header((header::ETAG, tag))
        .insert_header((header::VARY, "Authorization"))
        .finish()
}

/// Returns the latest version of a started game as this process knows it ([`crate::reads`]):
/// from memory where it is sure, else after reading the version alone from the database.
/// `None` when the process has not seen the game started: the caller reads it whole.
///
/// # Errors
/// `not_found`, or a database error.
pub async fn latest(state: &AppState, id: Uuid) -> Result<Option<Latest>, ApiError> {
    let Some(latest) = state.reads.latest(id) else {
        return Ok(None);
    };
    if latest.sure {
        return Ok(Some(latest));
    }
    let epoch = state.reads.epoch();
    let (version, status) = with_conn(&state.pool, move |conn| store::game_version(conn, id))
        .await?
        .ok_or_else(|| store::game_not_found(id))?;
    state.reads.learn(epoch, id, version, status, None);
    Ok(Some(Latest { version, status: Some(status), sure: true, ..latest }))
}

/// Join the next free seat of an open game.
///
/// Send no body (or `{}`) to join yourself. The creator may instead seat a built-in bot with
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
        (status = 422, description = "`unknown_bot_kind` or `idempotency_key_reused`", body = Problem, content_type = "application/problem+json"),
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
        serde_json::from_slice::<Option<JoinRequest>>(&body).map(Option::unwrap_or_default).map_err(|e| {
            ApiError::bad_request("malformed_body", format!("the body is not a valid join request: {e}"))
        })?
    };
    let bot = match &request.bot {
        Some(name) => {
            Some(name.parse::<BotKind>().map_err(|e| ApiError::unprocessable("unknown_bot_kind", e.to_string()))?)
        }
        None => None,
    };
    let user_id = user.id;
    let sandbox = state.sandbox;
    let written = with_conn(&state.pool, move |conn| {
        idempotency::once(conn, claim.as_ref(), 201, |conn| {
            match bot {
                Some(kind) => store::add_bot(conn, id, user_id, kind)?,
                None => store::join_game(conn, id, user_id, sandbox)?,
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
