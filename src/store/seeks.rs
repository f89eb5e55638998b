//! Seeks: the matchmaking queue. A seek waits for compatible seekers (the same pool, seat count
//! and ratedness, each in the others' rating ranges); when enough wait, one transaction makes
//! their game, seats them in a random order, starts it and marks their seeks matched. A seek can
//! fill its empty seats with built-in bots once it has waited as long as its seeker chose, and
//! expires when its time is up.
//!
//! Every change to the queue first takes the one row of `matchmaking_lock`, so that two
//! servers on one database never match the same seek twice; and an account has at most one
//! waiting seek (a unique index), so no seeker sits in two games.

use catan_engine::bots::BotKind;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use rand::seq::SliceRandom;
use uuid::Uuid;

use crate::{
    error::ApiError,
    rated::{
        matching::{companions, Seeker},
        Pool, Rating,
    },
};

use super::{
    db::DbConnection,
    games::{insert_game, start_locked},
    rows::{GameRow, GameStatus},
    schema::{game_players, matchmaking_lock, ratings, seeks, users},
};

/// Where a seek is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeekStatus {
    /// In the queue.
    Waiting,
    /// In a game: `game_id` names it.
    Matched,
    /// Cancelled by its seeker.
    Cancelled,
    /// Its time ran out before a game was found.
    Expired,
}

impl SeekStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            SeekStatus::Waiting => "waiting",
            SeekStatus::Matched => "matched",
            SeekStatus::Cancelled => "cancelled",
            SeekStatus::Expired => "expired",
        }
    }

    pub fn parse(stored: &str) -> SeekStatus {
        match stored {
            "matched" => SeekStatus::Matched,
            "cancelled" => SeekStatus::Cancelled,
            "expired" => SeekStatus::Expired,
            _ => SeekStatus::Waiting,
        }
    }
}

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = seeks)]
pub struct SeekRow {
    pub id: String,
    pub user_id: String,
    pub pool: String,
    pub players: i32,
    pub rated: bool,
    pub rating_min: Option<f64>,
    pub rating_max: Option<f64>,
    /// The built-in bot that fills the empty seats at `fill_at`.
    pub fill_bot: Option<String>,
    pub fill_at: Option<NaiveDateTime>,
    pub status: String,
    pub game_id: Option<String>,
    pub created_at: NaiveDateTime,
    pub expires_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

impl SeekRow {
    /// The seek's status as of `now`: a waiting seek past its time is expired, whether or not
    /// the sweeper has written it yet.
    pub fn status_at(&self, now: NaiveDateTime) -> SeekStatus {
        match SeekStatus::parse(&self.status) {
            SeekStatus::Waiting if self.expires_at <= now => SeekStatus::Expired,
            status => status,
        }
    }

    /// The seek's pool, read from its stored name.
    ///
    /// # Errors
    /// A name that is no pool's (stored data this server did not write).
    pub fn pool(&self) -> Result<Pool, ApiError> {
        Pool::parse(&self.pool)
            .ok_or_else(|| ApiError::internal(format!("seek {} has no pool {:?}", self.id, self.pool)))
    }
}

/// A game that matchmaking started: announce it and poke the bots once committed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Started {
    pub game_id: Uuid,
    pub version: i64,
}

/// Puts a seek in the queue and matches it at once if enough compatible seekers wait. Returns
/// the seek as it is after that, and the game it started, if any.
///
/// # Errors
/// 409 `already_seeking` (the account has a waiting seek), or a database error.
pub fn place(conn: &mut DbConnection, seek: &SeekRow) -> Result<(SeekRow, Option<Started>), ApiError> {
    super::db::write_transaction(conn, |conn| {
        take_lock(conn)?;
        let now = super::now();
        expire_due(conn, now)?;
        // Under the lock, so no other request of the account's can slip in between; the
        // unique index on waiting seeks stands behind it.
        let waiting: Option<String> = seeks::table
            .filter(seeks::user_id.eq(&seek.user_id))
            .filter(seeks::status.eq(SeekStatus::Waiting.as_str()))
            .select(seeks::id)
            .first(conn)
            .optional()?;
        if let Some(waiting) = waiting {
            return Err(ApiError::conflict(
                "already_seeking",
                format!("you already have a waiting seek ({waiting}): cancel it (DELETE /api/v1/seeks/{waiting}) or wait for it"),
            ));
        }
        diesel::insert_into(seeks::table).values(seek).execute(conn)?;
        let fill_now = seek.fill_at.is_some_and(|at| at <= now);
        let started = try_match(conn, seek, now, fill_now)?;
        let seek = find(conn, &seek.id)?.ok_or_else(|| ApiError::internal("a seek vanished as it was placed"))?;
        Ok((seek, started))
    })
}

/// Expires the seeks whose time is up and fills with bots those whose seekers chose so and
/// have waited long enough. Returns the games it started (and whether any seek changed).
///
/// # Errors
/// A database error.
pub fn sweep(conn: &mut DbConnection) -> Result<(Vec<Started>, bool), ApiError> {
    // Most sweeps find an empty queue: no lock for that.
    let waiting: i64 = seeks::table.filter(seeks::status.eq(SeekStatus::Waiting.as_str())).count().get_result(conn)?;
    if waiting == 0 {
        return Ok((Vec::new(), false));
    }
    super::db::write_transaction(conn, |conn| {
        take_lock(conn)?;
        let now = super::now();
        let expired = expire_due(conn, now)?;
        let due: Vec<SeekRow> = seeks::table
            .filter(seeks::status.eq(SeekStatus::Waiting.as_str()))
            .filter(seeks::fill_at.le(now))
            .order((seeks::created_at.asc(), seeks::id.asc()))
            .select(SeekRow::as_select())
            .load(conn)?;
        let mut started = Vec::new();
        for seek in due {
            // An earlier fill of this sweep may have taken it into its game.
            let still_waiting = find(conn, &seek.id)?.is_some_and(|s| s.status_at(now) == SeekStatus::Waiting);
            if still_waiting {
                started.extend(try_match(conn, &seek, now, true)?);
            }
        }
        let changed = expired > 0 || !started.is_empty();
        Ok((started, changed))
    })
}

/// Cancels a waiting seek of `user`'s; a seek that already ended is answered as it is.
///
/// # Errors
/// `not_found` (no such seek of the user's), 409 `seek_matched`, or a database error.
pub fn cancel(conn: &mut DbConnection, id: &str, user: &str) -> Result<SeekRow, ApiError> {
    super::db::write_transaction(conn, |conn| {
        take_lock(conn)?;
        let seek = find(conn, id)?.filter(|s| s.user_id == user).ok_or_else(|| no_seek(id))?;
        match seek.status_at(super::now()) {
            SeekStatus::Waiting => {
                let at = super::now();
                diesel::update(seeks::table.find(id))
                    .set((seeks::status.eq(SeekStatus::Cancelled.as_str()), seeks::updated_at.eq(at)))
                    .execute(conn)?;
                Ok(SeekRow { status: SeekStatus::Cancelled.as_str().into(), updated_at: at, ..seek })
            }
            SeekStatus::Matched => Err(ApiError::conflict(
                "seek_matched",
                format!("the seek is matched: its game is {}", seek.game_id.as_deref().unwrap_or("?")),
            )),
            SeekStatus::Cancelled | SeekStatus::Expired => Ok(seek),
        }
    })
}

/// Finds a seek.
///
/// # Errors
/// A database error.
pub fn find(conn: &mut DbConnection, id: &str) -> Result<Option<SeekRow>, ApiError> {
    Ok(seeks::table.find(id).select(SeekRow::as_select()).first(conn).optional()?)
}

/// A waiting seek as the public queue shows it.
#[derive(Debug, Clone)]
pub struct QueuedSeek {
    pub seek: SeekRow,
    pub username: String,
    /// The seeker's account kind, as stored (`human`, `bot`).
    pub kind: String,
    /// The seeker's rating and deviation in the seek's pool; `None` before their first rated
    /// game there.
    pub rating: Option<(f64, f64)>,
}

/// The seeks waiting now, of `pool` or of every pool, oldest first (the order they are
/// matched in), at most `limit`.
///
/// # Errors
/// A database error.
pub fn queue(conn: &mut DbConnection, pool: Option<Pool>, limit: i64) -> Result<Vec<QueuedSeek>, ApiError> {
    let mut query = seeks::table
        .inner_join(users::table)
        .filter(seeks::status.eq(SeekStatus::Waiting.as_str()))
        .filter(seeks::expires_at.gt(super::now()))
        .into_boxed();
    if let Some(pool) = pool {
        query = query.filter(seeks::pool.eq(pool.name()));
    }
    let rows: Vec<(SeekRow, String, String)> = query
        .order((seeks::created_at.asc(), seeks::id.asc()))
        .limit(limit)
        .select((SeekRow::as_select(), users::username, users::kind))
        .load(conn)?;
    let accounts: Vec<&str> = rows.iter().map(|(seek, _, _)| seek.user_id.as_str()).collect();
    let known: Vec<(String, String, f64, f64)> = ratings::table
        .filter(ratings::user_id.eq_any(&accounts))
        .select((ratings::user_id, ratings::pool, ratings::rating, ratings::deviation))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(seek, username, kind)| {
            let rating = known
                .iter()
                .find(|(user, pool, _, _)| *user == seek.user_id && *pool == seek.pool)
                .map(|&(_, _, rating, deviation)| (rating, deviation));
            QueuedSeek { seek, username, kind, rating }
        })
        .collect())
}

/// The 404 of a seek that does not exist, or is not the caller's.
pub fn no_seek(id: &str) -> ApiError {
    ApiError::NotFound(format!("you have no seek {id}"))
}

fn take_lock(conn: &mut DbConnection) -> Result<(), ApiError> {
    diesel::update(matchmaking_lock::table.find("seeks"))
        .set(matchmaking_lock::turns.eq(matchmaking_lock::turns + 1))
        .execute(conn)?;
    Ok(())
}

fn expire_due(conn: &mut DbConnection, now: NaiveDateTime) -> Result<usize, ApiError> {
    Ok(diesel::update(
        seeks::table.filter(seeks::status.eq(SeekStatus::Waiting.as_str())).filter(seeks::expires_at.le(now)),
    )
    .set((seeks::status.eq(SeekStatus::Expired.as_str()), seeks::updated_at.eq(now)))
    .execute(conn)?)
}

/// Matches `seek` (waiting) with the oldest compatible seekers; with `fill`, fills what seats
/// are left with its bot. Returns the started game, if one was made.
fn try_match(
    conn: &mut DbConnection,
    seek: &SeekRow,
    now: NaiveDateTime,
    fill: bool,
) -> Result<Option<Started>, ApiError> {
    let pool = seek.pool()?;
    let others: Vec<SeekRow> = seeks::table
        .filter(seeks::status.eq(SeekStatus::Waiting.as_str()))
        .filter(seeks::expires_at.gt(now))
        .filter(seeks::pool.eq(&seek.pool))
        .filter(seeks::players.eq(seek.players))
        .filter(seeks::rated.eq(seek.rated))
        .filter(seeks::id.ne(&seek.id))
        .order((seeks::created_at.asc(), seeks::id.asc()))
        .select(SeekRow::as_select())
        .load(conn)?;
    let mut accounts: Vec<&str> = others.iter().map(|s| s.user_id.as_str()).collect();
    accounts.push(&seek.user_id);
    let known: Vec<(String, f64)> = ratings::table
        .filter(ratings::pool.eq(pool.name()))
        .filter(ratings::user_id.eq_any(&accounts))
        .select((ratings::user_id, ratings::rating))
        .load(conn)?;
    let seeker = |s: &SeekRow| -> (f64, Option<(f64, f64)>) {
        let rating = known.iter().find(|(id, _)| *id == s.user_id).map_or(Rating::default().rating, |(_, r)| *r);
        let range = match (s.rating_min, s.rating_max) {
            (None, None) => None,
            (low, high) => Some((low.unwrap_or(f64::NEG_INFINITY), high.unwrap_or(f64::INFINITY))),
        };
        (rating, range)
    };
    let (rating, range) = seeker(seek);
    let first = Seeker { account: seek.user_id.as_str(), rating, range };
    let waiting: Vec<Seeker<'_>> = others
        .iter()
        .map(|s| {
            let (rating, range) = seeker(s);
            Seeker { account: s.user_id.as_str(), rating, range }
        })
        .collect();
    let seats = usize::try_from(seek.players).unwrap_or(0);
    let chosen = companions(&first, &waiting, seats);
    let bots = seats.saturating_sub(chosen.len() + 1);
    if bots > 0 && !fill {
        return Ok(None);
    }
    let bot = match &seek.fill_bot {
        Some(name) => name.parse::<BotKind>().map_err(ApiError::internal)?,
        None if bots > 0 => return Ok(None),
        None => BotKind::Heuristic,
    };
    let mut members: Vec<&SeekRow> = chosen.iter().map(|&i| &others[i]).collect();
    members.push(seek);
    members.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
    let started = make_game(conn, pool, seek, &members, &vec![bot; bots])?;
    Ok(Some(started))
}

/// Makes, seats and starts the game of `members` (oldest first) and `bots`, and marks the
/// members' seeks matched.
fn make_game(
    conn: &mut DbConnection,
    pool: Pool,
    seek: &SeekRow,
    members: &[&SeekRow],
    bots: &[BotKind],
) -> Result<Started, ApiError> {
    let players = u8::try_from(seek.players).map_err(ApiError::internal)?;
    let config = pool.config(players);
    let at = super::now();
    let row = GameRow {
        id: Uuid::now_v7().to_string(),
        // The longest waiting seeker hosts the game (it counts against their open games).
        created_by: members[0].user_id.clone(),
        status: GameStatus::Open.as_str().into(),
        max_players: seek.players,
        config: serde_json::to_string(&config)?,
        seed: (rand::random::<u64>() >> 1) as i64,
        version: 0,
        snapshot: None,
        created_at: at,
        updated_at: at,
        seeded: false,
        imported_from: None,
        position: None,
        rated: seek.rated,
        pool: seek.rated.then(|| pool.name().to_owned()),
    };
    insert_game(conn, &row, false)?;
    let mut holders: Vec<(Option<&str>, Option<BotKind>)> =
        members.iter().map(|m| (Some(m.user_id.as_str()), None)).collect();
    holders.extend(bots.iter().map(|&bot| (None, Some(bot))));
    // Who starts is rolled by the rules; the seat order is drawn here, so that the oldest
    // seeker is not always seat 0.
    holders.shuffle(&mut rand::thread_rng());
    for (seat, (user, bot)) in holders.into_iter().enumerate() {
        diesel::insert_into(game_players::table)
            .values((
                game_players::game_id.eq(&row.id),
                game_players::seat.eq(i32::try_from(seat).map_err(ApiError::internal)?),
                game_players::user_id.eq(user),
                game_players::bot.eq(bot.map(BotKind::name)),
                game_players::joined_at.eq(at),
            ))
            .execute(conn)?;
    }
    let version = start_locked(conn, &row)?;
    let ids: Vec<&str> = members.iter().map(|m| m.id.as_str()).collect();
    diesel::update(seeks::table.filter(seeks::id.eq_any(&ids)))
        .set((
            seeks::status.eq(SeekStatus::Matched.as_str()),
            seeks::game_id.eq(Some(&row.id)),
            seeks::updated_at.eq(at),
        ))
        .execute(conn)?;
    let game_id = Uuid::parse_str(&row.id).map_err(ApiError::internal)?;
    tracing::info!(%game_id, pool = pool.name(), players, bots = bots.len(), rated = seek.rated, "matchmaking started a game");
    Ok(Started { game_id, version })
}
