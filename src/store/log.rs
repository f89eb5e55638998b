//! The move log (table `game_moves`): its entries, what appending one did, and reading them
//! back, down to rebuilding a game from its whole log.

use catan_engine::{protocol::versioned, Draw, Event, Game, Move, Seat};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use uuid::Uuid;

use crate::error::ApiError;

use super::{
    db::DbConnection,
    idempotency::Claim,
    now,
    rows::{stored_format_error, GameRow, GameStatus},
    schema::game_moves,
};

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_moves)]
pub struct MoveRow {
    pub game_id: String,
    pub seq: i64,
    pub seat: Option<i32>,
    pub kind: String,
    pub move_body: Option<String>,
    pub events: String,
    pub idempotency_key: Option<String>,
    pub created_at: NaiveDateTime,
    /// The bot kind, when a built-in bot made the move.
    pub bot: Option<String>,
    /// The phase the game is in after this entry ([`catan_engine::Phase::name`]); null on
    /// entries written before it was kept (filled by replay when read, [`fill_after`]).
    pub phase: Option<String>,
    /// The seats the game waits for after this entry, comma-separated (empty when nobody,
    /// once the game is over); null on older entries, as `phase`.
    pub waiting_for: Option<String>,
    /// The move's chance when it was not drawn from the game's seed (dice named in a
    /// sandbox): its draws and outcomes, as JSON `[["red_die", 2], ...]`; null otherwise.
    pub chance: Option<String>,
}

impl MoveRow {
    /// The log entry `seq` of game `game_id`: `seat`'s move `mv` and the events it caused,
    /// made now by a user without an `Idempotency-Key` (set `idempotency_key` and `bot`
    /// otherwise).
    ///
    /// # Errors
    /// When the move or the events cannot be serialized.
    pub fn new(
        game_id: &str,
        seq: i64,
        seat: Seat,
        mv: &Move,
        events: &[Event],
        after: &Game,
    ) -> Result<MoveRow, ApiError> {
        let body = serde_json::to_string(mv)?;
        Ok(MoveRow::made(game_id, seq, Some(seat), mv.kind().to_owned(), Some(body), events, after))
    }

    /// The entry that starts the game: `game_started` and the rest of `events`, `after`
    /// being the game they make.
    pub fn start(game_id: &str, events: &[Event], after: &Game) -> MoveRow {
        MoveRow::made(game_id, 1, None, "start".into(), None, events, after)
    }

    /// An entry made now, with what the game waits for after it (`after`).
    fn made(
        game_id: &str,
        seq: i64,
        seat: Option<Seat>,
        kind: String,
        move_body: Option<String>,
        events: &[Event],
        after: &Game,
    ) -> MoveRow {
        let mut row = MoveRow {
            game_id: game_id.to_owned(),
            seq,
            seat: seat.map(|seat| i32::from(seat.0)),
            kind,
            move_body,
            events: versioned::encode_events(events),
            idempotency_key: None,
            created_at: now(),
            bot: None,
            phase: None,
            waiting_for: None,
            chance: None,
        };
        row.record_after(after);
        row
    }

    /// Keeps what the game waits for after this entry (`after` is the game then), so that a
    /// reader of the log knows from the entry alone whether it must act (issue 31).
    pub fn record_after(&mut self, after: &Game) {
        self.phase = Some(after.phase().name().to_owned());
        let seats: Vec<String> = after.waiting_for().iter().map(|seat| seat.0.to_string()).collect();
        self.waiting_for = Some(seats.join(","));
    }

    /// What the game waits for after this entry: its phase's name and the seats, when kept.
    ///
    /// # Errors
    /// When the stored seats are unreadable.
    pub fn after(&self) -> Result<Option<(&str, Vec<Seat>)>, ApiError> {
        let (Some(phase), Some(seats)) = (self.phase.as_deref(), self.waiting_for.as_deref()) else {
            return Ok(None);
        };
        let seats = seats
            .split(',')
            .filter(|seat| !seat.is_empty())
            .map(|seat| seat.parse::<u8>().map(Seat))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| {
                ApiError::internal(format!("stored waiting_for {seats:?} of entry {} is unreadable", self.seq))
            })?;
        Ok(Some((phase, seats)))
    }

    /// The move's chance, when it was not the seed's ([`MoveRow::chance`]).
    ///
    /// # Errors
    /// When the stored JSON is unreadable or names a draw no ruleset makes.
    pub fn picks(&self) -> Result<Option<Vec<(Draw, usize)>>, ApiError> {
        let Some(stored) = self.chance.as_deref() else { return Ok(None) };
        let named: Vec<(String, usize)> = serde_json::from_str(stored)?;
        named
            .into_iter()
            .map(|(draw, outcome)| {
                Draw::named(&draw)
                    .map(|draw| (draw, outcome))
                    .ok_or_else(|| ApiError::internal(format!("entry {} names the unknown draw {draw:?}", self.seq)))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// Keeps `picks` as the move's chance (one not drawn from the game's seed).
    pub fn keep_picks(&mut self, picks: &[(Draw, usize)]) {
        let named: Vec<(&str, usize)> = picks.iter().map(|(draw, outcome)| (draw.0, *outcome)).collect();
        self.chance = serde_json::to_string(&named).ok();
    }

    /// Returns the entry's events.
    ///
    /// # Errors
    /// When the stored JSON is unreadable.
    pub fn events(&self) -> Result<Vec<Event>, ApiError> {
        versioned::decode_events(&self.events).map_err(stored_format_error)
    }

    /// Returns the entry's move, if it was a move.
    ///
    /// # Errors
    /// When the stored JSON is unreadable.
    pub fn mv(&self) -> Result<Option<Move>, ApiError> {
        self.move_body.as_deref().map(versioned::decode_move).transpose().map_err(stored_format_error)
    }
}

/// What a move did: the new version and the log entry it wrote.
#[derive(Debug, Clone)]
pub struct Applied {
    pub version: i64,
    pub entry: MoveRow,
    pub status: GameStatus,
    /// The seats that must act next (empty once the game is over).
    pub waiting_for: Vec<Seat>,
}

impl Applied {
    /// What writing `entry` did, `game` being the game's state after it.
    pub fn new(entry: MoveRow, game: &Game) -> Applied {
        Applied { version: entry.seq, status: GameStatus::of(game), waiting_for: game.waiting_for(), entry }
    }
}

/// A move as submitted.
#[derive(Debug, Clone)]
pub struct MoveRequest {
    pub mv: Move,
    /// The dice a sandbox's `roll_dice` names (red, white), instead of the game's seed.
    pub dice: Option<(u8, u8)>,
    /// `If-Match`: play only at this version.
    pub if_match: Option<i64>,
    /// `Idempotency-Key`: a retry with the same key and request returns the first response.
    pub idempotency: Option<Claim>,
}

/// Loads log entries after `after`, oldest first, at most `limit`.
///
/// # Errors
/// A database error.
pub fn load_moves(conn: &mut DbConnection, game_id: Uuid, after: i64, limit: i64) -> Result<Vec<MoveRow>, ApiError> {
    Ok(game_moves::table
        .filter(game_moves::game_id.eq(game_id.to_string()))
        .filter(game_moves::seq.gt(after))
        .order(game_moves::seq.asc())
        .limit(limit)
        .select(MoveRow::as_select())
        .load(conn)?)
}

/// Loads log entries of `row`'s game after `after`, oldest first, at most `limit`, each
/// saying what the game waits for after it (older entries get it by replay, [`fill_after`]):
/// the entries as the log is served.
///
/// # Errors
/// A database error, or a log that cannot be read or replayed.
pub fn load_entries(conn: &mut DbConnection, row: &GameRow, after: i64, limit: i64) -> Result<Vec<MoveRow>, ApiError> {
    let id = Uuid::parse_str(&row.id).map_err(ApiError::internal)?;
    let mut entries = load_moves(conn, id, after, limit)?;
    fill_after(conn, row, &mut entries)?;
    Ok(entries)
}

/// Fills in what the game waits for after each of `rows` (consecutive entries of `row`'s
/// log, oldest first) where the entry was written before that was kept, by replaying the log
/// up to the last of them.
///
/// # Errors
/// A database error, or a log that cannot be read or replayed.
pub fn fill_after(conn: &mut DbConnection, row: &GameRow, rows: &mut [MoveRow]) -> Result<(), ApiError> {
    let Some(last) =
        rows.iter().filter(|entry| entry.phase.is_none() || entry.waiting_for.is_none()).map(|e| e.seq).max()
    else {
        return Ok(());
    };
    let id = Uuid::parse_str(&row.id).map_err(ApiError::internal)?;
    let config = row.config()?;
    let mut game: Option<Game> = None;
    for entry in load_moves(conn, id, 0, last)? {
        let events = entry.events()?;
        match game.as_mut() {
            None => game = Some(Game::replay(config.clone(), &events)?),
            Some(game) => events.iter().for_each(|event| game.apply(event)),
        }
        let Ok(index) = rows.binary_search_by_key(&entry.seq, |r| r.seq) else {
            continue;
        };
        if let Some(game) = game.as_ref() {
            rows[index].record_after(game);
        }
    }
    Ok(())
}

/// Rebuilds a game from its whole log.
pub fn replay_log(conn: &mut DbConnection, row: &GameRow) -> Result<Game, ApiError> {
    let id = Uuid::parse_str(&row.id).map_err(ApiError::internal)?;
    let mut events = Vec::new();
    for entry in load_moves(conn, id, 0, i64::MAX)? {
        events.extend(entry.events()?);
    }
    Ok(Game::replay(row.config()?, &events)?)
}

/// How a log entry's `bot` column marks a move the turn timer played for an absent seat: this
/// prefix and the bot's kind (`play::turn_timer`).
pub const TIMER_MARK: &str = "timer:";

/// Tests if `seat`'s latest move was played by the turn timer: the seat is on autoplay.
///
/// # Errors
/// A database error.
pub fn on_autoplay(conn: &mut DbConnection, game_id: &str, seat: i32) -> Result<bool, ApiError> {
    let latest: Option<Option<String>> = game_moves::table
        .filter(game_moves::game_id.eq(game_id))
        .filter(game_moves::seat.eq(seat))
        .order(game_moves::seq.desc())
        .select(game_moves::bot)
        .first(conn)
        .optional()?;
    Ok(latest.flatten().is_some_and(|bot| bot.starts_with(TIMER_MARK)))
}
