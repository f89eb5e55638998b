//! The game resource (`GameResponse`), its summaries in the game list, and its entity tag:
//! built from what a caller may see ([`catan_engine::Game::view`] for their seat or for the
//! spectators), and completed with what only the database knows (the turn timer, how the game
//! was won).

use actix_web::http::header::{self, HeaderMap};
use catan_engine::{
    view::{BoardView, HandView, PiecesLeft, TurnView},
    BoardSpec, DevCards, Event, GameConfig, Resources, ScenarioId, Seat, Viewer, WonderView,
};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{
    error::ApiError,
    play::turn_timer::{self, TurnTimerView},
    rated::Pool,
    store::{self, db::DbConnection, AccountKind, GameRecord, GameRow, GameStatus, MoveRow},
    views::utc,
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

/// One seat of a game.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayerResponse {
    pub seat: Seat,
    /// The user in this seat.
    pub username: Option<String>,
    /// The bot in this seat, if it is a bot.
    pub bot: Option<String>,
    /// Whose account holds the seat: `human`, `bot` (a program playing over the API) or
    /// `builtin` (the server's bot named in `bot`, whose account is `builtin:<bot>`); null in an
    /// imported game.
    pub kind: Option<AccountKind>,
    /// In a game imported from a record (`imported_from`): the name this seat's player had
    /// where the game was played. It names no account of this server.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub imported_name: Option<String>,
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
    /// The Forgotten Tribe: the gifts still on their edges (a harbour gift with its kind),
    /// those claimed and by whom, the gift harbours kept for later, and how many development
    /// cards are still set aside (which ones nobody sees). Absent in other games and before
    /// the start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forgotten_tribe: Option<catan_engine::view::TribeView>,
    /// Cloth for Catan: every village with its number, its cloth left and the seats
    /// connected to it (in the order they connected), the general supply, and each seat's
    /// cloth (two make a victory point). Absent in other games and before the start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cloth_for_catan: Option<catan_engine::view::ClothView>,
    /// The Pirate Islands: the fleet's path, where it stands (absent once defeated), and per
    /// seat its ship lane, its lone settlement vertex, its fortress and that fortress's
    /// strength (0 once conquered), and its warships. Absent in other games and before the
    /// start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pirate_islands: Option<catan_engine::PirateIslandsView>,
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
    /// `victory_points_and_wonder_lead`, `turn_limit` (the game's `turn_limit` was reached:
    /// the most victory points won) or `villages_exhausted` (Cloth for Catan: fewer villages
    /// than `clv_end_villages_min` had cloth left; the most victory points won). Absent until
    /// the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub won_by: Option<catan_engine::VictoryCondition>,
    /// The creator chose the seed or the starting position (`from_position`): only the
    /// creator and bots play in this game, since its dice or its hands could be known in
    /// advance (anyone may join on a sandbox server).
    pub seeded: bool,
    /// A rated game: its players' ratings in `pool` change when it finishes.
    pub rated: bool,
    /// The rating pool of a rated game; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool: Option<Pool>,
    /// For a game imported from a record (`POST /games/import`): the id the game had where
    /// it was played. Absent for games played here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub imported_from: Option<Uuid>,
    /// The game starts (or started) from a prepared position (`POST /games` with
    /// `position`); its log's first entry holds it (`position_set`). Like `seeded`, only its
    /// creator and bots play in it, unless the server is a sandbox.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub from_position: bool,
    /// The seed; only once the game is over. 0 to 2^63 - 1 for every game created since
    /// seeds were bounded so (issue 30); a game created by an earlier version may show one up
    /// to 2^64 - 1, which a client holding `int64` cannot read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The turn timer (`options.turn_timer_seconds`): whom it runs for and until when.
    /// Absent in games without a timer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timer: Option<TurnTimerView>,
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
            spectator: crate::views::spectator::page_path(id),
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
    /// A rated game (see `GameResponse.rated`).
    pub rated: bool,
    /// The rating pool of a rated game; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool: Option<Pool>,
    /// For a game imported from a record: the id it had where it was played.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub imported_from: Option<Uuid>,
}

/// Who sits where.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatSummary {
    pub seat: Seat,
    pub username: Option<String>,
    pub bot: Option<String>,
    /// `human`, `bot` or `builtin` (see the game's `players[].kind`); null in an imported game.
    pub kind: Option<AccountKind>,
    /// In an imported game: the name the seat's player had where the game was played (no
    /// account of this server).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub imported_name: Option<String>,
}

impl SeatSummary {
    pub fn of(holder: &crate::store::SeatHolder) -> SeatSummary {
        SeatSummary {
            seat: Seat(holder.seat as u8),
            username: holder.username.clone(),
            bot: holder.bot.clone(),
            kind: holder.account_kind(),
            imported_name: holder.imported_name.clone(),
        }
    }
}

/// The id an imported game had where it was played ([`GameRow::imported_from`]); a stored
/// value that is no UUID (never written so) reads as none.
pub fn imported_from(row: &crate::store::GameRow) -> Option<Uuid> {
    row.imported_from.as_deref().and_then(|id| Uuid::parse_str(id).ok())
}

/// A page of games, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameListResponse {
    pub games: Vec<GameSummary>,
    /// Pass as `cursor` for the next page; null on the last page.
    pub next_cursor: Option<String>,
}

pub fn board_choice(config: &GameConfig) -> BoardChoice {
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
    position: &crate::reads::replay::Position,
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
                kind: holder.account_kind(),
                imported_name: holder.imported_name.clone(),
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
        forgotten_tribe: view.as_ref().and_then(|v| v.forgotten_tribe.clone()),
        cloth_for_catan: view.as_ref().and_then(|v| v.cloth_for_catan.clone()),
        pirate_islands: view.as_ref().and_then(|v| v.pirate_islands.clone()),
        commodity_bank: view.as_ref().and_then(|v| v.commodity_bank),
        cities_and_knights: view.as_ref().and_then(|v| v.cities_and_knights.clone()),
        winner: view.as_ref().and_then(|v| v.winner),
        won_by: None,
        seeded: row.seeded,
        rated: row.rated,
        pool: row.pool.as_deref().and_then(Pool::parse),
        imported_from: imported_from(row),
        from_position: row.position.is_some(),
        seed: view.as_ref().and_then(|v| v.seed),
        options: config,
        timer: None,
        links: GameLinks::of(id),
    })
}

/// Loads a game and renders it for `user`, with its entity tag. Runs on the blocking pool,
/// like everything that touches the engine.
pub fn render(
    conn: &mut crate::store::db::DbConnection,
    id: Uuid,
    user: Option<Uuid>,
) -> Result<(String, GameResponse), ApiError> {
    let record = store::load_game(conn, id)?;
    let tag = etag(&record.game, record.seats.len());
    let mut body = game_response(&record, user)?;
    annotate(conn, &record, &mut body)?;
    Ok((tag, body))
}

/// The game as the game list shows it.
pub fn summary(record: &GameRecord) -> Result<GameSummary, ApiError> {
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
        players: record.seats.iter().map(SeatSummary::of).collect(),
        rated: row.rated,
        pool: row.pool.as_deref().and_then(Pool::parse),
        imported_from: imported_from(row),
    })
}

/// Completes the game resource with what only the database knows: the timer
/// ([`turn_timer::TurnTimerView`]) and, once the game is over, how it was won (`won_by`).
///
/// # Errors
/// A database error, or unreadable stored data.
pub fn annotate(conn: &mut DbConnection, record: &GameRecord, response: &mut GameResponse) -> Result<(), ApiError> {
    response.timer = turn_timer::view(conn, record)?;
    if record.game.status() == GameStatus::Finished {
        let id = Uuid::parse_str(&record.game.id).map_err(ApiError::internal)?;
        let last = crate::store::load_moves(conn, id, record.game.version - 1, 1)?;
        let events = last.first().map(MoveRow::events).transpose()?.unwrap_or_default();
        response.won_by = events.iter().rev().find_map(|event| match event {
            Event::GameWon { condition, .. } => Some(*condition),
            _ => None,
        });
    }
    Ok(())
}

/// The entity tag of a game as served: `"v<version>"`; before the start, when joins change
/// the game without a log entry, `"v0.<seats taken>"`. A compressed response carries it weak
/// (`W/"v12"`, [`crate::http::compression`]); `If-None-Match` and `If-Match` take either form.
pub fn etag(row: &GameRow, seats: usize) -> String {
    if row.status() == GameStatus::Open {
        format!("\"v0.{seats}\"")
    } else {
        format!("\"v{}\"", row.version)
    }
}

/// Tests if `If-None-Match` names `etag` (or `*`), comparing weakly.
pub fn if_none_match(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == etag || t == "*")
}
