//! The lobby: finding games. The filters of `GET /api/v1/games` (the caller's games, games
//! with a free seat one may join, games of a variant) and the counts of
//! `GET /api/v1/users/me`.
//!
//! The status, "mine" and free-seat filters run in the database; the variant, which is
//! derived from each game's stored rule configuration, is checked on the rows the database
//! returns, reading at most [`SCAN_LIMIT`] of them per page (a page of a variant filter may
//! then hold fewer games than asked for, with a `next_cursor` to go on).

use catan_engine::{GameConfig, ScenarioId};
use diesel::{dsl::sql, prelude::*, sql_types::Bool};
use uuid::Uuid;

use crate::{
    error::ApiError,
    store::db::DbConnection,
    store::schema::{game_players, games, users},
    store::{self, GameRecord, GameRow, GameStatus},
};

/// The most games read from the database for one page of a variant filter.
pub const SCAN_LIMIT: i64 = 1000;

/// Which games to list.
#[derive(Debug, Clone, Default)]
pub struct GameFilter {
    pub status: Option<GameStatus>,
    /// Only games this user created or holds a seat in.
    pub mine: Option<Uuid>,
    /// Only open games with a free seat that anyone may take (not seeded, unless the server
    /// is a sandbox), and not those `exclude_seated` already sits in.
    pub joinable: bool,
    pub exclude_seated: Option<Uuid>,
    /// Seeded games may be joined by anyone (`Config::sandbox`).
    pub sandbox: bool,
    pub variant: Option<VariantFilter>,
    /// Only games in which the user of this name (in any case) holds a seat (the export's
    /// `user`).
    pub seated: Option<String>,
    /// Only games last changed at or after this time (the export's `since`).
    pub updated_since: Option<chrono::NaiveDateTime>,
    /// Only games last changed before this time (the export's `until`).
    pub updated_until: Option<chrono::NaiveDateTime>,
}

/// A `variant` filter: the variants that must be on (`"base"`: none at all).
#[derive(Debug, Clone)]
pub struct VariantFilter {
    /// The filter as given, for messages.
    pub name: String,
    wanted: GameConfig,
    base: bool,
}

impl VariantFilter {
    /// Parses `"seafarers"`, `"five_six+jungle"`, `"base"`, ...: the names `POST /games`
    /// takes as `variant`.
    ///
    /// # Errors
    /// `invalid_query` for an unknown name.
    ///
    /// Names may also be separated by blanks: a `+` copied from a game's `variant` into a URL
    /// arrives as a space (`?variant=seafarers+wonders` is `seafarers wonders` once decoded).
    pub fn parse(name: &str) -> Result<VariantFilter, ApiError> {
        let name = name
            .split(|c: char| c == '+' || c.is_whitespace())
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join("+");
        let mut wanted = GameConfig::default();
        wanted
            .enable_variants(&name)
            .map_err(|e| ApiError::bad_request("invalid_query", format!("variant: {e}")).at_field("#/variant"))?;
        let base = name.split('+').all(|part| part == "base");
        Ok(VariantFilter { name, wanted, base })
    }

    /// Tests a game's configuration: every variant of the filter is on (for `"base"`, no
    /// variant at all).
    pub fn matches(&self, config: &GameConfig) -> bool {
        if self.base {
            return config.variant_name() == "base";
        }
        let w = &self.wanted;
        (!w.five_six_extension || config.five_six_extension)
            && (!w.jungle || config.jungle)
            && (!w.big_river || config.big_river)
            && (!w.seafarers || config.seafarers)
            && (!w.cities_and_knights || config.cities_and_knights)
            && (w.scenario != Some(ScenarioId::Wonders) || config.scenario == Some(ScenarioId::Wonders))
    }
}

/// A page of games, newest first, after the cursor `before`.
#[derive(Debug)]
pub struct Page {
    pub games: Vec<GameRecord>,
    /// The id to pass as the next cursor; `None` on the last page.
    pub next: Option<Uuid>,
}

/// The games matching `filter` after the game `before`, newest first.
fn filtered<'a>(filter: &GameFilter, before: Option<&str>) -> games::BoxedQuery<'a, crate::store::db::MultiBackend> {
    let mut query = games::table.into_boxed();
    if let Some(status) = filter.status {
        query = query.filter(games::status.eq(status.as_str()));
    }
    if let Some(before) = before {
        query = query.filter(games::id.lt(before.to_owned()));
    }
    if let Some(user) = filter.mine {
        let user = user.to_string();
        let seated = game_players::table.filter(game_players::user_id.eq(user.clone())).select(game_players::game_id);
        query = query.filter(games::created_by.eq(user).or(games::id.eq_any(seated)));
    }
    if let Some(name) = &filter.seated {
        let seated = game_players::table
            .inner_join(users::table)
            .filter(users::username_key.eq(store::username_key(name)))
            .select(game_players::game_id);
        query = query.filter(games::id.eq_any(seated));
    }
    if let Some(since) = filter.updated_since {
        query = query.filter(games::updated_at.ge(since));
    }
    if let Some(until) = filter.updated_until {
        query = query.filter(games::updated_at.lt(until));
    }
    if filter.joinable {
        query = query.filter(games::status.eq(GameStatus::Open.as_str())).filter(sql::<Bool>(
            "(SELECT COUNT(*) FROM game_players WHERE game_players.game_id = games.id) < games.max_players",
        ));
        if !filter.sandbox {
            query = query.filter(games::seeded.eq(false));
        }
        if let Some(user) = filter.exclude_seated {
            let seated =
                game_players::table.filter(game_players::user_id.eq(user.to_string())).select(game_players::game_id);
            query = query.filter(diesel::dsl::not(games::id.eq_any(seated)));
        }
    }
    query.order(games::id.desc())
}

/// Lists up to `limit` games matching `filter`, newest first, after the game `before`.
///
/// # Errors
/// A database error, or unreadable stored JSON.
pub fn list(conn: &mut DbConnection, filter: &GameFilter, before: Option<Uuid>, limit: i64) -> Result<Page, ApiError> {
    let Some(variant) = &filter.variant else {
        let mut rows: Vec<GameRow> = filtered(filter, before.map(|b| b.to_string()).as_deref())
            .select(GameRow::as_select())
            .limit(limit + 1)
            .load(conn)?;
        let more = rows.len() as i64 > limit;
        rows.truncate(limit as usize);
        let next = if more { rows.last().and_then(|r| Uuid::parse_str(&r.id).ok()) } else { None };
        return Ok(Page { games: store::with_seats(conn, rows)?, next });
    };
    // The variant is checked here: read batches until the page is full or the scan budget
    // is spent.
    let mut cursor = before.map(|b| b.to_string());
    let mut scanned = 0_i64;
    let mut matched: Vec<GameRow> = Vec::new();
    let batch = (limit + 1).max(100);
    loop {
        let rows: Vec<GameRow> =
            filtered(filter, cursor.as_deref()).select(GameRow::as_select()).limit(batch).load(conn)?;
        let exhausted = (rows.len() as i64) < batch;
        for row in rows {
            scanned += 1;
            cursor = Some(row.id.clone());
            if variant.matches(&row.config()?) {
                matched.push(row);
                if matched.len() as i64 > limit {
                    // One more than the page: there is a next page, after the page's last.
                    matched.truncate(limit as usize);
                    let next = matched.last().and_then(|r| Uuid::parse_str(&r.id).ok());
                    return Ok(Page { games: store::with_seats(conn, matched)?, next });
                }
            }
        }
        if exhausted {
            return Ok(Page { games: store::with_seats(conn, matched)?, next: None });
        }
        if scanned >= SCAN_LIMIT {
            // Budget spent: the page ends where the scan stopped.
            let next = cursor.as_deref().and_then(|id| Uuid::parse_str(id).ok());
            return Ok(Page { games: store::with_seats(conn, matched)?, next });
        }
    }
}

/// How many unfinished games `user` created or sits in: `(open, playing)`.
///
/// # Errors
/// A database error.
pub fn unfinished_counts(conn: &mut DbConnection, user: Uuid) -> Result<(i64, i64), ApiError> {
    let mut count = |status: GameStatus| -> Result<i64, ApiError> {
        let user = user.to_string();
        let seated = game_players::table.filter(game_players::user_id.eq(user.clone())).select(game_players::game_id);
        Ok(games::table
            .filter(games::status.eq(status.as_str()))
            .filter(games::created_by.eq(user).or(games::id.eq_any(seated)))
            .count()
            .get_result(conn)?)
    };
    Ok((count(GameStatus::Open)?, count(GameStatus::Playing)?))
}

/// The user `id`, if there is one.
///
/// # Errors
/// A database error.
pub fn find_user(conn: &mut DbConnection, id: Uuid) -> Result<Option<store::UserRow>, ApiError> {
    Ok(crate::store::schema::users::table
        .find(id.to_string())
        .select(store::UserRow::as_select())
        .first(conn)
        .optional()?)
}
