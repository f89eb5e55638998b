//! Positions over HTTP, for analysis: the legal moves of any position a caller sends, and
//! what a move makes of it (no game, no token needed, no database: the engine's work on the
//! body, [`crate::views::positions`], on a blocking thread, limited per client address); and
//! a game's position as the caller may see it, in the same format
//! (`GET /games/{game_id}/position`).

use actix_web::{get, post, web, HttpRequest, HttpResponse};
use serde_json::Value;

use crate::{
    api::{
        games::{parse_game_id, CREATE_GAME_RANGES},
        get_game::PositionQuery,
        moves::check_card_counts,
    },
    app::AppState,
    auth::MaybeAuthUser,
    error::{ApiError, Problem},
    http::json::{from_value, in_range, Json},
    store::{self, db::with_conn, GameStatus},
    views::positions::{
        self, check_version, GamePositionResponse, LegalMovesOfPositionRequest, MoveOnPositionRequest,
        MoveOnPositionResponse, PositionLegalMovesResponse,
    },
};

/// Get a game's position as the caller may see it, in the format the analysis endpoints
/// take: now, or (with `at`) right after any entry of its log.
///
/// While the game runs the position is redacted as the game view is (`redaction: "seat"`
/// for a seated caller, `"spectator"` otherwise): each other seat's hidden cards are counts
/// in its `hidden` (resources, development cards, and in Cities & Knights commodities and the
/// face-down progress cards), the cards nobody of them shows are pooled in `unseen`, and the
/// seed is 0. Once the game is over every position is whole (`"full"`, the seed too). A
/// seat's own position, changed or not, is a body for `POST /positions/legal-moves` and
/// `/positions/moves` with that seat: at the game's version, it answers exactly the moves
/// `GET .../legal-moves` lists the seat (its `version` counts events there).
#[utoipa::path(
    tag = "positions",
    params(("game_id" = Uuid, Path, description = "The game"), PositionQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The position as the caller may see it", body = GamePositionResponse),
        (status = 400, description = "`at` is not an integer from 1 (`invalid_query`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`seq_out_of_range`: `at` is above the game's `version`, or the game has not started", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
    )
)]
#[get("/games/{game_id}/position")]
pub async fn game_position(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    path: web::Path<String>,
    query: crate::http::query::Query<PositionQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = parse_game_id(path)?;
    let viewer = user.0.map(|u| u.id);
    state.limits.read(&req, viewer).await?;
    let at = query.into_inner().at.map(|at| in_range("at", at, 1, i64::MAX)).transpose()?;
    let body = with_conn(&state.pool, move |conn| {
        let record = store::load_game(conn, id)?;
        let row = &record.game;
        let seq = at.unwrap_or(row.version);
        crate::reads::replay::check_seq(row, seq)?;
        let reader = viewer.and_then(|user| record.seat_of(user));
        let over = row.status() == GameStatus::Finished;
        let response = match (at, row.game()?) {
            (None, Some(game)) => positions::game_position(&game, seq, reader, over),
            _ => {
                let past = crate::reads::replay::position_at(conn, row, seq)?;
                positions::game_position(&past.game, seq, reader, over)
            }
        };
        Ok(serde_json::to_vec(&response)?)
    })
    .await?;
    Ok(HttpResponse::Ok().content_type(actix_web::http::header::ContentType::json()).body(body))
}

/// List the legal moves of one seat in a position you send.
///
/// The position is the engine's `Setup` as JSON (`GET /games/{id}` does not serve it; the
/// engine's `Setup::from(&game)` writes it, and a `positions/moves` answer carries the next
/// one), in any ruleset the server plays. It is checked as the engine checks every position:
/// one that cannot arise (two buildings one edge apart, cards not conserved, a phase that
/// does not fit the turn...) is 422 `invalid_position`, naming the failed check (`check`) and
/// its rule ids (`rule`, `rules`). The answer has the shape of `GET /games/{id}/legal-moves`;
/// its `version` is the position's `events_applied`. No token is needed (one sent must be
/// valid, as on every endpoint); requests are limited per client address. Nothing is stored.
#[utoipa::path(
    tag = "positions",
    request_body = LegalMovesOfPositionRequest,
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The seat's legal moves in the position", body = PositionLegalMovesResponse),
        (status = 400, description = "Malformed body (`malformed_body`, naming the field)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid (`unauthorized`, `token_expired`, `token_revoked`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the 64 KiB limit (`payload_too_large`); a whole 6-player Cities & Knights position on a Seafarers map is under 30 KiB even pretty-printed", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`invalid_position` (with `check`, `rule`, `rules`), `unsupported_position_version`, `seat_not_in_game`, or `seat_hidden` (a position redacted for another reader, or a spectator's)", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
    )
)]
#[post("/positions/legal-moves")]
pub async fn legal_moves_of_position(
    state: web::Data<AppState>,
    // Not needed, but refused when invalid, as on every endpoint: a client with a stale token
    // learns it here as anywhere.
    _caller: MaybeAuthUser,
    req: HttpRequest,
    body: Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    let request: LegalMovesOfPositionRequest = read_request(&state, &req, body).await?;
    let response = web::block(move || positions::legal_moves(request)).await??;
    Ok(HttpResponse::Ok().json(response))
}

/// Make a move in a position you send, with the chance outcome you choose.
///
/// `position` and `seat` as for `positions/legal-moves`; `move` is a move as it lists them.
/// `chance` names what the move's random draws give (the dice `[red, white]`, the event die,
/// the development card bought, the card stolen, the progress cards drawn); what it leaves
/// out comes from the position's own seeded stream (`seed`, `events_applied`), so the same
/// request always answers the same. An outcome the move does not draw, or that is impossible
/// where it is drawn (a card no longer in the deck), is 422 `chance_not_applicable`; a die
/// outside 1 to 6 is 422 `invalid_chance`. Fog tiles cannot be named. The answer holds the
/// events (unredacted) and the resulting position; a move the rules refuse is 422 with the
/// rule's code (e.g. `not_your_turn`), as `POST /games/{id}/moves` answers it.
#[utoipa::path(
    tag = "positions",
    request_body = MoveOnPositionRequest,
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The move's events and the position after it", body = MoveOnPositionResponse),
        (status = 400, description = "Malformed body (`malformed_body`, naming the field)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid (`unauthorized`, `token_expired`, `token_revoked`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body over the 64 KiB limit (`payload_too_large`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The move breaks a rule (its code, e.g. `not_your_turn`); `invalid_position` (with `check`, `rule`, `rules`); `unsupported_position_version`; `seat_not_in_game`; `seat_hidden` (a redacted position answers for its reader only); `invalid_chance`; `chance_not_applicable`; `invalid_card_count`", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
    )
)]
#[post("/positions/moves")]
pub async fn move_on_position(
    state: web::Data<AppState>,
    // Not needed, but refused when invalid, as on every endpoint: a client with a stale token
    // learns it here as anywhere.
    _caller: MaybeAuthUser,
    req: HttpRequest,
    body: Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    let request: MoveOnPositionRequest = read_request(&state, &req, body).await?;
    check_card_counts(&request.mv).map_err(|error| error.at_field("#/move"))?;
    let response = web::block(move || positions::make_move(request)).await??;
    Ok(HttpResponse::Ok().json(response))
}

/// Counts the analysis toward its limit, then reads the body as a request of either endpoint:
/// its format version first, its numbers within the spec's formats, then its fields.
async fn read_request<T: serde::de::DeserializeOwned>(
    state: &AppState,
    req: &HttpRequest,
    body: Json<Value>,
) -> Result<T, ApiError> {
    state.limits.analyse(req).await?;
    let body = body.into_inner();
    check_version(&body)?;
    check_numbers(&body)?;
    from_value(&body)
}

/// The position's fields that the spec gives as 64-bit integers; every other integer of a
/// body is a 32-bit one there.
const WIDE: [&str; 2] = ["#/position/seed", "#/position/events_applied"];

/// Holds a body to the bounds its schema states, where the Rust types read more: every
/// integer within the spec's format (`int32`, or `int64` for [`WIDE`]), else 400
/// `malformed_body`; the position's options within a new game's bounds
/// ([`CREATE_GAME_RANGES`]), else 422 `invalid_config`.
///
/// # Errors
/// The first number outside, naming its field.
fn check_numbers(body: &Value) -> Result<(), ApiError> {
    check_widths(body, &mut String::from("#"))?;
    for (pointer, min, max, _) in CREATE_GAME_RANGES {
        let Some(field) = pointer.strip_prefix("/options/") else { continue };
        let at = format!("/position/config/{field}");
        let Some(number) = body.pointer(&at).and_then(Value::as_i64) else { continue };
        if !(*min..=*max).contains(&number) {
            let detail = format!("must be an integer from {min} to {max} (got {number})");
            return Err(
                ApiError::unprocessable("invalid_config", format!("{field} {detail}")).at(format!("#{at}"), detail)
            );
        }
    }
    Ok(())
}

fn check_widths(value: &Value, pointer: &mut String) -> Result<(), ApiError> {
    match value {
        Value::Number(number) if number.is_i64() || number.is_u64() => {
            let (min, max) = if WIDE.contains(&pointer.as_str()) {
                (i64::MIN, i64::MAX)
            } else {
                (i64::from(i32::MIN), i64::from(i32::MAX))
            };
            if !number.as_i64().is_some_and(|n| (min..=max).contains(&n)) {
                let detail = format!("must be an integer up to {max} (got {number})");
                let message = format!("the body does not fit this request at {pointer}: {detail}");
                return Err(ApiError::bad_request("malformed_body", message).at(pointer.clone(), detail));
            }
            Ok(())
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = pointer.len();
                pointer.push_str(&format!("/{i}"));
                check_widths(item, pointer)?;
                pointer.truncate(len);
            }
            Ok(())
        }
        Value::Object(fields) => {
            for (key, item) in fields {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                check_widths(item, pointer)?;
                pointer.truncate(len);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
