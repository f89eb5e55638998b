//! Leaderboards: a pool's accounts by score, a page at a time.

use actix_web::{get, web, HttpRequest, HttpResponse};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::{
    app::AppState,
    auth::MaybeAuthUser,
    error::{ApiError, Problem},
    http::json::in_range,
    rated::{Pool, MODEL},
    store::{
        db::with_conn,
        ratings::{leaderboard, BoardCursor},
        AccountKind,
    },
    views::ratings::{public_json, LeaderboardEntry, LeaderboardPage},
};

/// Paging of a leaderboard.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LeaderboardQuery {
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
    /// Page size, 1 to 100 (default 50).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
}

/// A cursor: the last entry's score (its bits, so that it reads back exactly), its rank and its
/// account id.
fn encode(score: f64, rank: i64, user_id: &str) -> String {
    format!("{:016x}.{rank}.{user_id}", score.to_bits())
}

fn decode(cursor: &str) -> Result<(BoardCursor, i64), ApiError> {
    let bad = || {
        ApiError::bad_request("invalid_query", "the cursor is not valid").at("#/cursor", "not a cursor of this list")
    };
    let mut parts = cursor.splitn(3, '.');
    let (Some(bits), Some(rank), Some(user_id)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad());
    };
    let score = f64::from_bits(u64::from_str_radix(bits, 16).map_err(|_| bad())?);
    let rank = rank.parse::<i64>().map_err(|_| bad())?;
    if !score.is_finite() || uuid::Uuid::parse_str(user_id).is_err() {
        return Err(bad());
    }
    Ok((BoardCursor { score, user_id: user_id.to_owned() }, rank))
}

/// Get a pool's leaderboard.
///
/// Accounts with a rated game in the pool, best `score` first (`rating - 3 * deviation`, so an
/// account needs games as well as wins to rise). Pages with `cursor`. No token needed.
/// Cacheable: `ETag` (304 on `If-None-Match`) and `Cache-Control: public, max-age=10`.
#[utoipa::path(
    tag = "ratings",
    params(("pool" = Pool, Path, description = "The rating pool"), LeaderboardQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "A page", body = LeaderboardPage,
         headers(("ETag" = String, description = "Of the body"), ("Cache-Control" = String, description = "`public, max-age=10`"))),
        (status = 304, description = "Not modified (`If-None-Match`)"),
        (status = 400, description = "Bad query (`invalid_query`): a bad cursor or a `limit` outside 1 to 100", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such pool", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
    )
)]
#[get("/leaderboards/{pool}")]
pub async fn get_leaderboard(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    path: web::Path<String>,
    query: crate::http::query::Query<LeaderboardQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limits.read(&req, user.0.as_ref().map(|u| u.id)).await?;
    let name = path.into_inner();
    let pool = Pool::parse(&name).ok_or_else(|| {
        let known: Vec<&str> = Pool::ALL.iter().map(|p| p.name()).collect();
        ApiError::NotFound(format!("there is no pool {name:?}; the pools are {}", known.join(", ")))
    })?;
    let limit = i64::from(in_range("limit", query.limit.unwrap_or(50), 1, 100)?);
    let cursor = query.cursor.as_deref().map(decode).transpose()?;
    // The cursor carries the rank of the entry it resumes after.
    let first_rank = cursor.as_ref().map_or(1, |(_, rank)| rank + 1);
    let rows =
        with_conn(&state.pool, move |conn| leaderboard(conn, pool, cursor.as_ref().map(|(at, _)| at), limit)).await?;
    let entries: Vec<LeaderboardEntry> = rows
        .iter()
        .enumerate()
        .map(|(i, (row, username, kind))| LeaderboardEntry {
            rank: first_rank + i as i64,
            username: username.clone(),
            kind: AccountKind::parse(kind),
            rating: row.rating,
            deviation: row.deviation,
            score: row.score,
            games: row.games,
        })
        .collect();
    let next_cursor = match entries.last() {
        Some(last) if entries.len() as i64 == limit => {
            let (row, _, _) = &rows[rows.len() - 1];
            Some(encode(row.score, last.rank, &row.user_id))
        }
        _ => None,
    };
    public_json(req.headers(), &LeaderboardPage { pool, model: MODEL.to_owned(), entries, next_cursor })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_read_back_exactly_and_refuse_anything_else() {
        let id = "0190f0a1-0000-7000-8000-000000000000";
        let (at, rank) = decode(&encode(-1.234_567_890_123, 51, id)).unwrap();
        assert_eq!((at.score, rank, at.user_id.as_str()), (-1.234_567_890_123, 51, id));
        for bad in [
            "",
            "x",
            "zz.1.abc",
            "0000000000000000.1.not-a-uuid",
            "7ff0000000000000.1.0190f0a1-0000-7000-8000-000000000000",
        ] {
            assert!(decode(bad).is_err(), "{bad}");
        }
    }
}
