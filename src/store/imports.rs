//! Imported games (`POST /games/import`): a finished game written at once, its row, its seats
//! and its whole log, in one transaction.

use diesel::prelude::*;

use crate::error::ApiError;

use super::{
    db::{write_transaction, DbConnection},
    log::MoveRow,
    rows::GameRow,
    schema::{game_moves, game_players, games},
    users::ensure_user,
};

/// A seat of an imported game: a built-in bot (`bot`, its kind) or a player known by the
/// `name` it had where the game was played, never an account of this server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportedSeat {
    pub seat: i32,
    pub bot: Option<String>,
    pub name: Option<String>,
}

/// Rows a statement: 11 columns each stay within SQLite's and PostgreSQL's bound on the
/// parameters of one statement (32,766 and 65,535).
const ROWS_A_STATEMENT: usize = 500;

/// Writes an imported game: its row, its seats and its log, all or nothing.
///
/// # Errors
/// A database error.
pub fn insert_imported(
    conn: &mut DbConnection,
    game: &GameRow,
    seats: &[ImportedSeat],
    entries: &[MoveRow],
) -> Result<(), ApiError> {
    write_transaction(conn, |conn| {
        ensure_user(conn, &game.created_by)?;
        diesel::insert_into(games::table).values(game).execute(conn)?;
        let seats: Vec<_> = seats
            .iter()
            .map(|seat| {
                (
                    game_players::game_id.eq(&game.id),
                    game_players::seat.eq(seat.seat),
                    game_players::joined_at.eq(game.created_at),
                    game_players::bot.eq(seat.bot.as_deref()),
                    game_players::imported_name.eq(seat.name.as_deref()),
                )
            })
            .collect();
        // Many rows a statement: diesel's connection over both backends cannot batch, each
        // backend's own connection can.
        macro_rules! insert_all {
            ($conn:expr) => {{
                diesel::insert_into(game_players::table).values(&seats).execute($conn)?;
                for chunk in entries.chunks(ROWS_A_STATEMENT) {
                    diesel::insert_into(game_moves::table).values(chunk).execute($conn)?;
                }
            }};
        }
        match conn {
            DbConnection::Pg(pg) => insert_all!(pg),
            DbConnection::Sqlite(sqlite) => insert_all!(sqlite),
        }
        Ok(())
    })
}
