//! Ratings per pool and their history: settling a rated game when its last move commits, and
//! the reads of profiles and leaderboards.

use catan_engine::Game;
use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::{
    error::ApiError,
    rated::{finish_order, rate_game, Pool, Rating},
};

use super::{
    db::{DbConnection, MultiBackend},
    holders::load_seats,
    log::on_autoplay,
    rows::GameRow,
    schema::{game_players, games, rating_history, ratings, users},
    users::builtin_account,
};

/// An account's rating in one pool.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = ratings)]
pub struct RatingRow {
    pub user_id: String,
    pub pool: String,
    pub rating: f64,
    pub deviation: f64,
    pub score: f64,
    pub games: i32,
    pub updated_at: NaiveDateTime,
}

/// One rated game of an account.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = rating_history)]
pub struct HistoryRow {
    pub user_id: String,
    pub game_id: String,
    pub pool: String,
    pub place: i32,
    pub players: i32,
    pub abandoned: bool,
    pub rating_before: f64,
    pub deviation_before: f64,
    pub rating: f64,
    pub deviation: f64,
    pub created_at: NaiveDateTime,
}

/// Rates a rated game that has just finished, inside the transaction of its last move: every
/// seat's account gets its new rating in the game's pool and a history row. A game that is not
/// rated, or already settled, is left alone.
///
/// # Errors
/// A database error, or a rated game whose seats hold no account.
pub fn settle(conn: &mut DbConnection, row: &GameRow, game: &Game) -> Result<(), ApiError> {
    let Some(pool) = row.pool.as_deref().and_then(Pool::parse).filter(|_| row.rated && game.is_over()) else {
        return Ok(());
    };
    let settled: i64 = rating_history::table.filter(rating_history::game_id.eq(&row.id)).count().get_result(conn)?;
    if settled > 0 {
        return Ok(());
    }
    let game_id = uuid::Uuid::parse_str(&row.id).map_err(ApiError::internal)?;
    let holders = load_seats(conn, game_id)?;
    let mut accounts = Vec::with_capacity(holders.len());
    let mut abandoned = Vec::with_capacity(holders.len());
    for holder in &holders {
        let account = match (&holder.user_id, holder.bot_kind()) {
            (Some(user), _) => user.clone(),
            (None, Some(kind)) => builtin_account(kind).0.to_owned(),
            (None, None) => {
                return Err(ApiError::internal(format!("rated game {} has a seat without an account", row.id)))
            }
        };
        // A seat on the timer's autoplay when the game ended was abandoned.
        let on_autoplay = holder.user_id.is_some() && on_autoplay(conn, &row.id, holder.seat)?;
        accounts.push(account);
        abandoned.push(on_autoplay);
    }
    let known: Vec<RatingRow> = ratings::table
        .filter(ratings::pool.eq(pool.name()))
        .filter(ratings::user_id.eq_any(&accounts))
        .select(RatingRow::as_select())
        .load(conn)?;
    let before = |account: &String| {
        known
            .iter()
            .find(|r| &r.user_id == account)
            .map_or_else(Rating::default, |r| Rating { rating: r.rating, deviation: r.deviation })
    };
    let seats: Vec<(String, Rating)> = accounts.iter().map(|a| (a.clone(), before(a))).collect();
    let finishes = finish_order(game, &abandoned);
    let places: Vec<u32> = finishes.iter().map(|f| f.place).collect();
    let at = super::now();
    let players = i32::try_from(holders.len()).unwrap_or(i32::MAX);
    for change in rate_game(&seats, &places) {
        let after = change.after;
        let existing = known.iter().find(|r| r.user_id == change.account);
        let rating = RatingRow {
            user_id: change.account.clone(),
            pool: pool.name().to_owned(),
            rating: after.rating,
            deviation: after.deviation,
            score: after.score(),
            games: existing.map_or(0, |r| r.games) + 1,
            updated_at: at,
        };
        if existing.is_none() {
            diesel::insert_into(ratings::table).values(&rating).execute(conn)?;
        } else {
            diesel::update(ratings::table.find((&rating.user_id, &rating.pool)))
                .set((
                    ratings::rating.eq(rating.rating),
                    ratings::deviation.eq(rating.deviation),
                    ratings::score.eq(rating.score),
                    ratings::games.eq(rating.games),
                    ratings::updated_at.eq(at),
                ))
                .execute(conn)?;
        }
        let seat_abandoned = accounts.iter().zip(&abandoned).any(|(a, &gone)| *a == change.account && gone);
        diesel::insert_into(rating_history::table)
            .values(&HistoryRow {
                user_id: change.account,
                game_id: row.id.clone(),
                pool: pool.name().to_owned(),
                place: i32::try_from(change.place).unwrap_or(i32::MAX),
                players,
                abandoned: seat_abandoned,
                rating_before: change.before.rating,
                deviation_before: change.before.deviation,
                rating: after.rating,
                deviation: after.deviation,
                created_at: at,
            })
            .execute(conn)?;
    }
    Ok(())
}

/// An account's ratings, one per pool it has played in.
///
/// # Errors
/// A database error.
pub fn ratings_of(conn: &mut DbConnection, user_id: &str) -> Result<Vec<RatingRow>, ApiError> {
    Ok(ratings::table
        .filter(ratings::user_id.eq(user_id))
        .order(ratings::pool.asc())
        .select(RatingRow::as_select())
        .load(conn)?)
}

/// An account's latest rated games, newest first.
///
/// # Errors
/// A database error.
pub fn history_of(conn: &mut DbConnection, user_id: &str, limit: i64) -> Result<Vec<HistoryRow>, ApiError> {
    Ok(rating_history::table
        .filter(rating_history::user_id.eq(user_id))
        .order((rating_history::created_at.desc(), rating_history::game_id.desc()))
        .limit(limit)
        .select(HistoryRow::as_select())
        .load(conn)?)
}

/// How many finished games an account sat in (a built-in bot's: games with its kind seated).
///
/// # Errors
/// A database error.
pub fn finished_games(conn: &mut DbConnection, user_id: &str, builtin: Option<&str>) -> Result<i64, ApiError> {
    let seated = match builtin {
        Some(bot) => game_players::table.filter(game_players::bot.eq(bot.to_owned())).into_boxed::<MultiBackend>(),
        None => game_players::table.filter(game_players::user_id.eq(user_id.to_owned())).into_boxed(),
    };
    // Distinct games: a built-in bot may hold several seats of one.
    Ok(seated
        .inner_join(games::table)
        .filter(games::status.eq("finished"))
        .select(diesel::dsl::count(game_players::game_id).aggregate_distinct())
        .get_result(conn)?)
}

/// A place on a leaderboard, where a page resumes: the score and the account id of the last
/// entry of the page before.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardCursor {
    pub score: f64,
    pub user_id: String,
}

/// One leaderboard entry: the rating, the account's name and kind.
pub type BoardEntry = (RatingRow, String, String);

/// A page of a pool's leaderboard, best score first (ties by account id), after `cursor`.
///
/// # Errors
/// A database error.
pub fn leaderboard(
    conn: &mut DbConnection,
    pool: Pool,
    cursor: Option<&BoardCursor>,
    limit: i64,
) -> Result<Vec<BoardEntry>, ApiError> {
    let mut query = ratings::table
        .inner_join(users::table)
        .filter(ratings::pool.eq(pool.name()))
        .select((RatingRow::as_select(), users::username, users::kind))
        .order((ratings::score.desc(), ratings::user_id.asc()))
        .limit(limit)
        .into_boxed::<MultiBackend>();
    if let Some(BoardCursor { score, user_id }) = cursor {
        let after = ratings::score.lt(*score).or(ratings::score.eq(*score).and(ratings::user_id.gt(user_id.clone())));
        query = query.filter(after);
    }
    Ok(query.load(conn)?)
}
