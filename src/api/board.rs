//! The board as a picture: `GET /api/v1/games/{game_id}/board.svg` ([`crate::views::picture`]).

use std::sync::Arc;

use actix_web::{
    get,
    http::header::{self, HeaderMap},
    web::{self, Bytes},
    HttpRequest, HttpResponse,
};
use serde::Deserialize;
use utoipa::IntoParams;
use uuid::Uuid;

use crate::{
    api::{
        games::parse_game_id,
        get_game::{latest, Past},
    },
    app::AppState,
    auth::MaybeAuthUser,
    error::{ApiError, Problem},
    http::json::in_range,
    reads::{Key, Reader},
    store::db::with_conn,
    store::{self, GameStatus},
    views::game::{game_response, game_response_at, if_none_match},
    views::picture::{board_svg, SVG_MEDIA_TYPE},
};

/// Which picture to draw.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BoardQuery {
    /// A past position: the board right after log entry `at` (the `seq` of
    /// `GET .../moves`), as `GET /api/v1/games/{game_id}?at=` gives it. Below 1: 400
    /// `invalid_query`; above the game's `version` (or before the start): 422
    /// `seq_out_of_range`.
    #[param(minimum = 1, example = 42)]
    pub at: Option<i64>,
    /// `true`: write every vertex id (`"q,r,N"`) and edge id (`"q,r,E"`) on the board, as
    /// legal moves name them.
    pub labels: Option<bool>,
}

/// Draw the board as the caller may see it (SVG), now or after any entry of the log.
///
/// The picture is drawn from the game resource the caller would get, so it holds nothing
/// hidden: fog hexes stay fog, no hand is drawn. It shows the hexes with their terrain and
/// number tokens (6 and 8 in red), harbours with their rates, roads, settlements and cities
/// in seat colours, the robber; with the expansions the sea, ships, the pirate, fog,
/// knights (rank, active filled), city walls, metropolises, the merchant and the barbarian
/// track; and a legend of the seats.
///
/// Stable markers for pages and tests: each hex is an element with `class="hex"` (also
/// `fog` or `sea`), `data-hex` (its index in the resource's `board.hexes`), `data-coord`,
/// `data-terrain` and `data-number`; pieces have `class` `road`, `ship`, `settlement`,
/// `city`, `knight` (with `data-rank`, `data-active`), `wall`, `metropolis`, `merchant`,
/// `robber` or `pirate`, with `data-seat` where they have an owner and `data-vertex`,
/// `data-edge` or `data-coord` for where they stand. The root `<svg>` carries
/// `data-version` and `data-seq` (both the log entry shown). With `labels=true`, texts of
/// `class="vertex-label"` and `class="edge-label"` carry `data-vertex` and `data-edge`.
/// Before the start, a picture saying so.
///
/// `ETag: "board<seq>.<reader>[.final]"` (`board-labels…` with labels; reader `spectator`
/// or `seat<n>`; `.final` once the game is over), 304 to a matching `If-None-Match`,
/// `Vary: Authorization`, `Cache-Control: private, no-cache` while the game runs and
/// `private, max-age=86400, immutable` once it is over. `HEAD` answers the headers alone.
#[utoipa::path(
    tag = "games",
    params(("game_id" = Uuid, Path, description = "The game"), BoardQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The board, as SVG", body = String, content_type = "image/svg+xml",
         headers(("ETag" = String, description = "`\"board<seq>.<reader>[.final]\"` (`board-labels` with labels); weak when the body is compressed"),
                 ("Cache-Control" = String, description = "`private, no-cache` while the game runs, `private, max-age=86400, immutable` once it is over"),
                 ("Vary" = String, description = "`Authorization`: the picture is drawn for the caller"))),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 304, description = "Not modified since the given ETag",
         headers(("ETag" = String, description = "The current tag, as the 200 would carry it"))),
        (status = 400, description = "`at` is not an integer from 1 or `labels` not a boolean (`invalid_query`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "`at` is above the game's `version` (`seq_out_of_range`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{game_id}/board.svg")]
pub async fn board_picture(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    path: web::Path<String>,
    query: crate::http::query::Query<BoardQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = parse_game_id(path)?;
    let viewer = user.0.map(|u| u.id);
    state.limits.read(&req, viewer).await?;
    let labels = query.labels.unwrap_or(false);
    let at = query.at.map(|at| in_range("at", at, 1, i64::MAX)).transpose()?;
    let picture = picture(&state, id, viewer, at, labels, req.headers()).await?;
    Ok(picture.respond((header::CONTENT_TYPE, SVG_MEDIA_TYPE)))
}

fn tag_prefix(labels: bool) -> &'static str {
    if labels {
        "board-labels"
    } else {
        "board"
    }
}

/// The picture of log entry `at` (the latest without it) for `viewer`: from the read cache
/// when this process drew it before, else drawn from the snapshot or rebuilt from the log.
async fn picture(
    state: &AppState,
    id: Uuid,
    viewer: Option<Uuid>,
    at: Option<i64>,
    labels: bool,
    headers: &HeaderMap,
) -> Result<Past, ApiError> {
    if let Some(latest) = latest(state, id).await? {
        let seq = at.unwrap_or(latest.version);
        if let Some(status) = latest.status.filter(|_| (1..=latest.version).contains(&seq)) {
            let (reader, over) = (latest.reader(viewer), status == GameStatus::Finished);
            let tag = Past::tag(tag_prefix(labels), seq, reader, over);
            if if_none_match(headers, &tag) {
                return Ok(Past { tag, over, body: None });
            }
            if let Some(body) = state.reads.get(&Key::Board { game: id, seq, reader, labels, over }) {
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
        let row = &record.game;
        if let Some(seq) = at {
            crate::reads::replay::check_seq(row, seq)?;
        }
        let reader = Reader::of(viewer.and_then(|u| record.seat_of(u)));
        if row.status() == GameStatus::Open {
            // No board yet, and joins change the legend without a version: never cached, and
            // tagged with the seats taken.
            let open = format!("{}-open{}.", tag_prefix(labels), record.seats.len());
            let tag = Past::tag(&open, 0, reader, false);
            let body = Bytes::from(board_svg(&game_response(&record, viewer)?, labels));
            return Ok(Past { tag, over: false, body: Some(body) });
        }
        let seq = at.unwrap_or(row.version);
        let over = row.status() == GameStatus::Finished;
        let tag = Past::tag(tag_prefix(labels), seq, reader, over);
        if if_none_match(&headers, &tag) {
            return Ok(Past { tag, over, body: None });
        }
        let key = Key::Board { game: id, seq, reader, labels, over };
        if let Some(body) = reads.get(&key) {
            return Ok(Past { tag, over, body: Some(body) });
        }
        let game = if seq == row.version {
            game_response(&record, viewer)?
        } else {
            let position = crate::reads::replay::position_at(conn, row, seq)?;
            game_response_at(&record, viewer, &position, seq)?
        };
        let body = Bytes::from(board_svg(&game, labels));
        reads.insert(key, body.clone());
        Ok(Past { tag, over, body: Some(body) })
    })
    .await
}
