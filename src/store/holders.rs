//! Who holds each seat of a game: a user or a built-in bot.

use catan_engine::bots::BotKind;
use diesel::prelude::*;
use uuid::Uuid;

use crate::error::ApiError;

use super::{
    db::DbConnection,
    schema::{game_players, users},
    users::AccountKind,
};

/// A seat and who holds it: a user, or a built-in bot.
#[derive(Debug, Clone, Queryable)]
pub struct SeatHolder {
    pub seat: i32,
    pub user_id: Option<String>,
    pub username: Option<String>,
    /// The bot kind, for a seat played by a built-in bot.
    pub bot: Option<String>,
    /// In a game imported from a record: the name the seat's player had where the game was
    /// played (no account of this server).
    pub imported_name: Option<String>,
    /// The kind of the seated user's account (`users.kind`), for a seat a user holds.
    pub user_kind: Option<String>,
}

impl SeatHolder {
    /// Returns the kind of bot in this seat, if a built-in bot holds it.
    pub fn bot_kind(&self) -> Option<BotKind> {
        self.bot.as_deref().and_then(|kind| kind.parse().ok())
    }

    /// Who holds the seat: a person's, a bot's or a built-in bot's account; `None` for a seat
    /// of an imported game, which no account of this server holds.
    pub fn account_kind(&self) -> Option<AccountKind> {
        if self.bot.is_some() {
            return Some(AccountKind::Builtin);
        }
        self.user_id.as_ref()?;
        Some(self.user_kind.as_deref().map_or(AccountKind::Human, AccountKind::parse))
    }
}

/// Loads the seats of a game, by seat.
///
/// # Errors
/// A database error.
pub fn load_seats(conn: &mut DbConnection, game_id: Uuid) -> Result<Vec<SeatHolder>, ApiError> {
    Ok(game_players::table
        .left_join(users::table)
        .filter(game_players::game_id.eq(game_id.to_string()))
        .order(game_players::seat.asc())
        .select((
            game_players::seat,
            game_players::user_id,
            users::username.nullable(),
            game_players::bot,
            game_players::imported_name,
            users::kind.nullable(),
        ))
        .load(conn)?)
}

pub(super) fn username_of(conn: &mut DbConnection, user_id: &str) -> Result<String, ApiError> {
    Ok(users::table.find(user_id).select(users::username).first(conn).optional()?.unwrap_or_default())
}
