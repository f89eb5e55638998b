//! Users: accounts, found by name in any case.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::error::ApiError;

use super::{db::DbConnection, schema::users};

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = users)]
pub struct UserRow {
    pub id: String,
    pub username: String,
    pub password_hash: String,
    pub created_at: NaiveDateTime,
    /// The lowercased username, unique: names are case-insensitive ([`username_key`]).
    pub username_key: String,
    /// `human`, `bot` or `builtin` ([`AccountKind`]).
    pub kind: String,
    /// When the account's kind was changed, if it was (it may be, once).
    pub kind_changed_at: Option<NaiveDateTime>,
}

/// The key that makes usernames case-insensitive: `abc` and `ABC` are one account.
pub fn username_key(username: &str) -> String {
    username.to_ascii_lowercase()
}

/// Inserts a user; a taken username is a 409 `username_taken`.
///
/// # Errors
/// `username_taken`, or a database error.
pub fn insert_user(conn: &mut DbConnection, user: &UserRow) -> Result<(), ApiError> {
    match diesel::insert_into(users::table).values(user).execute(conn) {
        Ok(_) => Ok(()),
        Err(diesel::result::Error::DatabaseError(diesel::result::DatabaseErrorKind::UniqueViolation, _)) => {
            Err(ApiError::conflict("username_taken", format!("the username {:?} is taken", user.username)))
        }
        Err(e) => Err(e.into()),
    }
}

/// Checks that a token's user still exists (e.g. the database was reset but the signing
/// secret kept): 401 otherwise, rather than a foreign key failure.
///
/// # Errors
/// `unauthorized`, or a database error.
pub fn ensure_user(conn: &mut DbConnection, user_id: &str) -> Result<(), ApiError> {
    let found: Option<String> = users::table.find(user_id).select(users::id).first(conn).optional()?;
    match found {
        Some(_) => Ok(()),
        None => Err(ApiError::Unauthorized("the token's user does not exist; register or log in again".into())),
    }
}

/// Finds a user by name, in any case.
///
/// # Errors
/// A database error.
pub fn find_user_by_name(conn: &mut DbConnection, username: &str) -> Result<Option<UserRow>, ApiError> {
    // In any case; the exact name first, for accounts an older server let differ only by
    // case (see the migration `case_insensitive_usernames`).
    let mut found: Vec<UserRow> = users::table
        .filter(users::username.eq(username).or(users::username_key.eq(username_key(username))))
        .select(UserRow::as_select())
        .load(conn)?;
    Ok(match found.iter().position(|user| user.username == username) {
        Some(exact) => Some(found.swap_remove(exact)),
        None => found.pop(),
    })
}

/// Who an account is: a person, a program playing over the API, or one of the server's own
/// built-in bots. Every seat of every game says which (`kind` of a player).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AccountKind {
    /// A person.
    Human,
    /// A program that plays over the API (a bot account).
    Bot,
    /// One of the server's built-in bots (`builtin:random`, `builtin:heuristic`), seated with
    /// `{"bot": ...}` or by a seek's bot fill; it has an account of its own, for its ratings.
    Builtin,
}

impl AccountKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AccountKind::Human => "human",
            AccountKind::Bot => "bot",
            AccountKind::Builtin => "builtin",
        }
    }

    /// Reads a stored kind; anything unknown reads as a person (the column's default).
    pub fn parse(stored: &str) -> AccountKind {
        match stored {
            "bot" => AccountKind::Bot,
            "builtin" => AccountKind::Builtin,
            _ => AccountKind::Human,
        }
    }
}

/// The account of a built-in bot kind (the migration `rated_play` creates them): its id and
/// its name, `builtin:<kind>`.
pub fn builtin_account(kind: catan_engine::bots::BotKind) -> (&'static str, String) {
    let id = match kind {
        catan_engine::bots::BotKind::Random => "00000000-0000-4000-8000-00000000b001",
        catan_engine::bots::BotKind::Heuristic => "00000000-0000-4000-8000-00000000b002",
    };
    (id, format!("builtin:{}", kind.name()))
}

/// Whether the user has played a rated game (then their kind may no longer change).
///
/// # Errors
/// A database error.
pub fn has_rated_games(conn: &mut DbConnection, user_id: &str) -> Result<bool, ApiError> {
    use super::schema::rating_history;
    let found: Option<String> = rating_history::table
        .filter(rating_history::user_id.eq(user_id))
        .select(rating_history::game_id)
        .first(conn)
        .optional()?;
    Ok(found.is_some())
}

/// Changes an account's kind, once, and only before its first rated game.
///
/// # Errors
/// 409 `kind_locked` (changed before, or rated games played), `unauthorized` (no such user),
/// or a database error.
pub fn change_kind(conn: &mut DbConnection, user_id: &str, kind: AccountKind) -> Result<UserRow, ApiError> {
    super::db::write_transaction(conn, |conn| {
        let user: UserRow = users::table
            .find(user_id)
            .select(UserRow::as_select())
            .first(conn)
            .optional()?
            .ok_or_else(|| ApiError::Unauthorized("the token's user does not exist".into()))?;
        if AccountKind::parse(&user.kind) == kind {
            return Ok(user);
        }
        if user.kind_changed_at.is_some() {
            return Err(ApiError::conflict("kind_locked", "an account's kind can be changed once, and it was"));
        }
        if has_rated_games(conn, user_id)? {
            return Err(ApiError::conflict(
                "kind_locked",
                "an account's kind cannot change once it has played a rated game",
            ));
        }
        let at = super::now();
        diesel::update(users::table.find(user_id))
            .set((users::kind.eq(kind.as_str()), users::kind_changed_at.eq(Some(at))))
            .execute(conn)?;
        Ok(UserRow { kind: kind.as_str().into(), kind_changed_at: Some(at), ..user })
    })
}
