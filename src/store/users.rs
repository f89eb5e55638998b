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
