//! Domestic trade offers as resources (RULES.md B-TRD-5..8).
//!
//! Every endpoint that changes an offer plays the engine's trade move (`offer_trade`,
//! `accept_trade`, `decline_trade`, `confirm_trade`, `withdraw_trade`) through the same
//! transactional pipeline as `POST .../moves`, so each change is a log entry and the log
//! replays trades exactly. The resource itself is the `trade_offers` projection of the log
//! (see [`crate::store::trades`]), written in the same transaction. Trade ids are the engine's offer
//! ids, numbered per game from 1.
//!
//! In Cities & Knights an offer may also name commodities (CK-TRD-1): the optional
//! `give_commodities` / `get_commodities`, omitted when empty so that other games' bodies are
//! unchanged; any other game refuses them (`not_in_this_game`).

use actix_web::{delete, get, http::header, post, web, HttpRequest, HttpResponse};
use catan_engine::{model::PerSeat, Commodities, Counts, Event, Move, Resources, Seat};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use uuid::Uuid;

use crate::{
    api::{games::parse_game_id, play::play},
    app::AppState,
    auth::{AuthUser, MaybeAuthUser},
    error::{ApiError, Problem},
    http::json::Json,
    store::db::{with_conn, DbConnection},
    store::idempotency,
    store::trades::{self, TradeStatus},
    store::{self, Applied, MoveRequest, Submitted},
    views::trades::{TradeListResponse, TradeResponse},
};

/// A new offer.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"give": {"wool": 2}, "get": {"ore": 1}, "to": [1]}))]
pub struct CreateTradeRequest {
    /// What you give.
    pub give: Resources,
    /// What you want in return.
    pub get: Resources,
    /// Commodities you give besides `give` (Cities & Knights only, CK-TRD-1; any other game
    /// refuses them with `not_in_this_game`). Absent: none.
    #[serde(default, skip_serializing_if = "Counts::is_empty")]
    #[schema(example = json!({"cloth": 1}))]
    pub give_commodities: Commodities,
    /// Commodities you want besides `get` (Cities & Knights only). Absent: none.
    #[serde(default, skip_serializing_if = "Counts::is_empty")]
    #[schema(example = json!({"coin": 1}))]
    pub get_commodities: Commodities,
    /// The seats you offer it to. The active player may name any others (absent: everyone);
    /// anyone else may only offer to the active player (absent: the active player).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Seat>>, max_items = 6)]
    pub to: Option<PerSeat<Seat>>,
    /// The offer this one answers (a counter-offer); it must still be open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter_to: Option<u32>,
}

/// Whom to complete the trade with.
#[derive(Debug, Clone, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"with": 1}))]
pub struct ConfirmTradeRequest {
    /// A seat that accepted the offer.
    pub with: Seat,
}

/// Filter for the list.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListTradesQuery {
    /// Only offers with this status.
    pub status: Option<TradeStatus>,
}

/// Parses `{game_id}/trades/{trade_id}`; ids that cannot exist are 404.
fn parse_ids(path: web::Path<(String, String)>) -> Result<(Uuid, u32), ApiError> {
    let (game, trade) = path.into_inner();
    let id = Uuid::parse_str(&game).map_err(|_| ApiError::NotFound(format!("there is no game {game}")))?;
    let trade_id = trade.parse().map_err(|_| ApiError::NotFound(format!("there is no trade {trade} in this game")))?;
    Ok((id, trade_id))
}

fn trade_not_found(trade_id: u32) -> ApiError {
    ApiError::NotFound(format!("there is no trade {trade_id} in this game"))
}

/// Loads one offer as the response body.
fn trade_body(conn: &mut DbConnection, game_id: Uuid, trade_id: u32) -> Result<TradeResponse, ApiError> {
    let state = trades::find_trade(conn, game_id, trade_id)?.ok_or_else(|| trade_not_found(trade_id))?;
    Ok(TradeResponse::from(&state))
}

/// Plays a trade move and answers with the offer it concerns, as it stands after the move.
/// `offer_id` is `None` for a new offer (its id comes from the `trade_offered` event).
async fn play_trade(
    state: &AppState,
    req: &HttpRequest,
    user: &AuthUser,
    game_id: Uuid,
    offer_id: Option<u32>,
    mv: Move,
    body_for_key: &impl Serialize,
) -> Result<HttpResponse, ApiError> {
    let request =
        MoveRequest { mv, dice: None, if_match: None, idempotency: idempotency::claim(req, user.id, body_for_key)? };
    let status = if offer_id.is_none() { 201 } else { 200 };
    let respond = move |conn: &mut DbConnection, applied: &Applied| {
        let id = match offer_id {
            Some(id) => id,
            None => applied
                .entry
                .events()?
                .iter()
                .find_map(|event| match event {
                    Event::TradeOffered { offer } => Some(offer.id),
                    _ => None,
                })
                .ok_or_else(|| ApiError::internal("an offer_trade move made no offer"))?,
        };
        Ok((status, trade_body(conn, game_id, id)?))
    };
    let submitted = match (play(state, game_id, user.id, request, respond).await, offer_id) {
        // A rule error about a trade that does not exist, or no longer can change: say so
        // (404, or 409 `trade_closed`) rather than the rule that the move also broke.
        (Err(ApiError::Rule(error)), Some(id)) => {
            let pool = state.pool.clone();
            let trade = with_conn(&pool, move |conn| trades::find_trade(conn, game_id, id)).await?;
            return Err(match trade {
                None => trade_not_found(id),
                Some(trade) if !trade.status.is_live() => ApiError::conflict(
                    "trade_closed",
                    format!("trade {id} is {} and can no longer change", trade.status.as_str()),
                ),
                Some(_) => ApiError::Rule(error),
            });
        }
        (other, _) => other?,
    };
    Ok(match submitted {
        Submitted::Replayed(stored) => stored.replay(),
        Submitted::Played { applied, response } => {
            let mut builder = if status == 201 { HttpResponse::Created() } else { HttpResponse::Ok() };
            if status == 201 {
                builder.insert_header((header::LOCATION, format!("/api/v1/games/{game_id}/trades/{}", response.id)));
            }
            builder.insert_header((header::ETAG, format!("\"v{}\"", applied.version))).json(response)
        }
    })
}

/// Offer a domestic trade.
///
/// The active player may offer to everyone (`to` absent) or to chosen seats; anyone else may
/// offer only to the active player. In Cities & Knights either side may also name
/// commodities (`give_commodities`, `get_commodities`); other games refuse them
/// (`not_in_this_game`). Checked now: the phase (`wrong_phase`, `trading_closed`), the
/// partners (`trade_partner_not_allowed`, `unknown_seat`), no gifts (`empty_trade_side`), no
/// like-for-like, kind by kind (`same_resource_trade`), that you hold what you give,
/// commodities included (`insufficient_resources`), that a countered offer is open
/// (`offer_not_found`), and the cap on open offers (`too_many_open_offers`). Plays the
/// `offer_trade` move.
#[utoipa::path(
    tag = "trades",
    params(
        ("game_id" = Uuid, Path, description = "The game"),
        ("Idempotency-Key" = Option<String>, Header, description = "Retrying with the same key and body returns the first response (`Idempotent-Replayed: true`); the same key with another body is 422 `idempotency_key_reused`"),
    ),
    request_body = CreateTradeRequest,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "The new offer (`Location` names it)", body = TradeResponse),
        (status = 400, description = "Malformed body or Idempotency-Key", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 403, description = "You have no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_not_started`, `idempotency_key_in_use`, or a lost race (`version_conflict`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The offer breaks a rule; `code` names it (e.g. `trade_partner_not_allowed`, or `not_in_this_game` for commodities outside Cities & Knights), or `idempotency_key_reused`", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game_id}/trades")]
pub async fn create_trade(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
    req: HttpRequest,
    body: Json<CreateTradeRequest>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_game_id(path)?;
    let body = body.into_inner();
    let mv = Move::OfferTrade {
        give: body.give,
        get: body.get,
        give_commodities: body.give_commodities,
        get_commodities: body.get_commodities,
        to: body.to,
        counter_to: body.counter_to,
    };
    crate::api::moves::check_card_counts(&mv)?;
    play_trade(&state, &req, &user, id, None, mv, &body).await
}

/// List a game's trade offers, oldest first, optionally by status.
///
/// Offers are public: everyone at the table (and spectators) sees them.
#[utoipa::path(
    tag = "trades",
    params(("game_id" = Uuid, Path, description = "The game"), ListTradesQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The offers", body = TradeListResponse),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 400, description = "Bad query (`invalid_query`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{game_id}/trades")]
pub async fn list_trades(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    path: web::Path<String>,
    query: crate::http::query::Query<ListTradesQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = parse_game_id(path)?;
    state.limits.read(&req, user.0.map(|u| u.id)).await?;
    let status = query.status;
    let body = with_conn(&state.pool, move |conn| {
        let game = store::find_game(conn, id)?.ok_or_else(|| store::game_not_found(id))?;
        let trades = trades::load_trades(conn, id, status)?;
        Ok(TradeListResponse { version: game.version, trades: trades.iter().map(TradeResponse::from).collect() })
    })
    .await?;
    Ok(HttpResponse::Ok().json(body))
}

/// Get one trade offer: its terms, status and each addressee's answer.
#[utoipa::path(
    tag = "trades",
    params(
        ("game_id" = Uuid, Path, description = "The game"),
        ("trade_id" = u32, Path, description = "The offer id"),
    ),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The offer", body = TradeResponse),
        (status = 401, description = "A token was sent but is not valid", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game or trade", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{game_id}/trades/{trade_id}")]
pub async fn get_trade(
    state: web::Data<AppState>,
    _user: MaybeAuthUser,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (id, trade_id) = parse_ids(path)?;
    let body = with_conn(&state.pool, move |conn| {
        store::find_game(conn, id)?.ok_or_else(|| store::game_not_found(id))?;
        trade_body(conn, id, trade_id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(body))
}

/// Accept an offer made to you (plays `accept_trade`).
///
/// Checks that you hold what the offerer wants, commodities included
/// (`insufficient_resources`); the offerer then confirms with one accepter.
#[utoipa::path(
    tag = "trades",
    params(
        ("game_id" = Uuid, Path, description = "The game"),
        ("trade_id" = u32, Path, description = "The offer id"),
        ("Idempotency-Key" = Option<String>, Header, description = "See `POST .../trades`"),
    ),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The offer after your answer", body = TradeResponse),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 403, description = "You have no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game or trade", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`trade_closed` (completed, withdrawn or expired), or a lost race", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`not_an_addressee`, `already_responded`, `insufficient_resources`, `wrong_phase`, ...", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game_id}/trades/{trade_id}/accept")]
pub async fn accept_trade(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<(String, String)>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let (id, offer_id) = parse_ids(path)?;
    play_trade(&state, &req, &user, id, Some(offer_id), Move::AcceptTrade { offer_id }, &()).await
}

/// Decline an offer made to you (plays `decline_trade`).
///
/// You may still accept it later while it is open.
#[utoipa::path(
    tag = "trades",
    params(
        ("game_id" = Uuid, Path, description = "The game"),
        ("trade_id" = u32, Path, description = "The offer id"),
        ("Idempotency-Key" = Option<String>, Header, description = "See `POST .../trades`"),
    ),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The offer after your answer", body = TradeResponse),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 403, description = "You have no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game or trade", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`trade_closed`, or a lost race", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`not_an_addressee`, `already_responded`, `wrong_phase`, ...", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game_id}/trades/{trade_id}/decline")]
pub async fn decline_trade(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<(String, String)>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let (id, offer_id) = parse_ids(path)?;
    play_trade(&state, &req, &user, id, Some(offer_id), Move::DeclineTrade { offer_id }, &()).await
}

/// Complete your offer with one seat that accepted it (plays `confirm_trade`).
///
/// Both hands are checked again now, in the same transaction that exchanges the cards.
#[utoipa::path(
    tag = "trades",
    params(
        ("game_id" = Uuid, Path, description = "The game"),
        ("trade_id" = u32, Path, description = "The offer id"),
        ("Idempotency-Key" = Option<String>, Header, description = "See `POST .../trades`"),
    ),
    request_body = ConfirmTradeRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The completed offer", body = TradeResponse),
        (status = 400, description = "Malformed body", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 403, description = "You have no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game or trade", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`trade_closed`, or a lost race", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`not_the_offerer`, `partner_has_not_accepted`, `insufficient_resources`, ...", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game_id}/trades/{trade_id}/confirm")]
pub async fn confirm_trade(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<(String, String)>,
    req: HttpRequest,
    body: Json<ConfirmTradeRequest>,
) -> Result<HttpResponse, ApiError> {
    let (id, offer_id) = parse_ids(path)?;
    let body = body.into_inner();
    let mv = Move::ConfirmTrade { offer_id, with: body.with };
    play_trade(&state, &req, &user, id, Some(offer_id), mv, &body).await
}

/// Withdraw your offer (plays `withdraw_trade`).
#[utoipa::path(
    tag = "trades",
    params(
        ("game_id" = Uuid, Path, description = "The game"),
        ("trade_id" = u32, Path, description = "The offer id"),
    ),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The withdrawn offer", body = TradeResponse),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 403, description = "You have no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game or trade", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`trade_closed`, or a lost race", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`not_the_offerer`, `wrong_phase`, ...", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/games/{game_id}/trades/{trade_id}")]
pub async fn withdraw_trade(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<(String, String)>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let (id, offer_id) = parse_ids(path)?;
    play_trade(&state, &req, &user, id, Some(offer_id), Move::WithdrawTrade { offer_id }, &()).await
}
