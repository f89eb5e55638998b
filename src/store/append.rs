//! A move in one statement, on PostgreSQL: the optimistic fast path of
//! [`crate::store::submit_move`].
//!
//! The transactional path takes six round trips to the database (begin, lock and read,
//! insert, update, notify, commit), and on a loaded machine those round trips, not the rules
//! or the JSON, were most of a move's cost, in the server and in PostgreSQL alike. But the
//! server usually already knows everything the lock-and-read would tell it: the snapshot
//! cache holds the game at its latest version (this process wrote it, or read it for the
//! legal moves a moment ago) and the seat cache knows the caller's seat. So the move is
//! decided against that cached state and written with one autocommitted statement whose
//! `UPDATE` only matches while the game is still at the version the move was decided on, and
//! while the caller really holds the seat; the log entry is inserted only if that `UPDATE`
//! matched. The row lock the `UPDATE` takes serialises it with every
//! other writer, exactly like `SELECT ... FOR UPDATE` does for the transactional path.
//!
//! Whenever the fast path cannot be sure, it steps aside and the caller runs the
//! transactional path, which re-reads everything under the lock: nothing cached, a stale
//! version (another process moved, or a race), a rule error (it may come from stale state;
//! the locked path reports the real one), `If-Match` on another version, an
//! `Idempotency-Key` (its lookup and storage need the transaction), or events that change
//! trade offers (their projection needs the transaction), or a move that ends the game (a
//! rated game's ratings change with it).

use catan_engine::Game;
use diesel::{
    pg::{Pg, PgConnection},
    query_builder::{AstPass, Query, QueryFragment, QueryId},
    sql_types::{BigInt, Integer, Nullable, Text, Timestamp},
    QueryResult, RunQueryDsl,
};
use uuid::Uuid;

use crate::{
    error::ApiError,
    store::log::{Applied, MoveRequest, MoveRow},
};

/// Plays `request` for `user` on the cached state of the game in one statement, if it can.
///
/// Returns the applied move and the game after it once committed, or `None` when the fast
/// path does not apply and nothing was written (the caller then takes the transactional
/// path).
///
/// # Errors
/// A database error, or a snapshot that cannot be serialized.
pub fn try_append(
    pg: &mut PgConnection,
    game_id: Uuid,
    user: Uuid,
    request: &MoveRequest,
) -> Result<Option<(Applied, Game)>, ApiError> {
    if request.idempotency.is_some() || request.dice.is_some() {
        return Ok(None);
    }
    let id = game_id.to_string();
    let user = user.to_string();
    let Some(seat) = crate::store::snapshots::seat_of(&id, &user) else {
        return Ok(None);
    };
    let Some((version, cached)) = crate::store::snapshots::cached(&id) else {
        return Ok(None);
    };
    if request.if_match.is_some_and(|expected| expected != version) || cached.is_over() {
        return Ok(None);
    }
    let Ok(events) = cached.decide(seat, &request.mv, &mut cached.chance()) else {
        return Ok(None);
    };
    if crate::store::trades::touches_offers(&events) {
        return Ok(None);
    }
    let mut game = Game::clone(&cached);
    for event in &events {
        game.apply(event);
    }
    // The last move of a game may settle ratings (`store::ratings::settle`), which needs the
    // transaction: once per game, not worth a second statement here.
    if game.is_over() {
        return Ok(None);
    }
    let applied = Applied::new(MoveRow::new(&id, version + 1, seat, &request.mv, &events, &game)?, &game);
    let snapshot = catan_engine::protocol::versioned::encode_snapshot(&game);
    let statement = AppendMove { applied: &applied, expected_version: version, user: &user, snapshot };
    let written: Vec<i64> = statement.get_results(pg)?;
    if written.len() != 1 {
        return Ok(None);
    }
    Ok(Some((applied, game)))
}

/// `UPDATE games ... WHERE version = <expected>` and, only if it matched, `INSERT` the log
/// entry; returns the new seq, or no row.
/// Built by hand because diesel has no data-modifying CTEs; the SQL text is constant, so
/// diesel keeps it as a prepared statement per connection.
struct AppendMove<'a> {
    applied: &'a Applied,
    expected_version: i64,
    user: &'a str,
    snapshot: String,
}

impl QueryId for AppendMove<'_> {
    type QueryId = ();
    const HAS_STATIC_QUERY_ID: bool = false;
}

impl Query for AppendMove<'_> {
    type SqlType = BigInt;
}

impl RunQueryDsl<PgConnection> for AppendMove<'_> {}

impl QueryFragment<Pg> for AppendMove<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        let entry = &self.applied.entry;
        out.push_sql("WITH bumped AS (UPDATE games SET status = ");
        out.push_bind_param::<Text, _>(self.applied.status.as_str())?;
        out.push_sql(", version = ");
        out.push_bind_param::<BigInt, _>(&entry.seq)?;
        out.push_sql(", snapshot = ");
        out.push_bind_param::<Text, _>(&self.snapshot)?;
        out.push_sql(", updated_at = ");
        out.push_bind_param::<Timestamp, _>(&entry.created_at)?;
        out.push_sql(" WHERE id = ");
        out.push_bind_param::<Text, _>(&entry.game_id)?;
        out.push_sql(" AND version = ");
        out.push_bind_param::<BigInt, _>(&self.expected_version)?;
        out.push_sql(" AND EXISTS (SELECT 1 FROM game_players WHERE game_players.game_id = games.id AND user_id = ");
        out.push_bind_param::<Text, _>(self.user)?;
        out.push_sql(" AND seat = ");
        out.push_bind_param::<Nullable<Integer>, _>(&entry.seat)?;
        out.push_sql(
            ") RETURNING id) INSERT INTO game_moves \
             (game_id, seq, seat, kind, move_body, events, created_at, phase, waiting_for) SELECT id, ",
        );
        out.push_bind_param::<BigInt, _>(&entry.seq)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Integer>, _>(&entry.seat)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&entry.kind)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Text>, _>(&entry.move_body)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&entry.events)?;
        out.push_sql(", ");
        out.push_bind_param::<Timestamp, _>(&entry.created_at)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Text>, _>(&entry.phase)?;
        out.push_sql(", ");
        out.push_bind_param::<Nullable<Text>, _>(&entry.waiting_for)?;
        out.push_sql(" FROM bumped RETURNING seq");
        Ok(())
    }
}
