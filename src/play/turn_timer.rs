//! Every game ends: the turn limit of games with bots, and the turn timer.
//!
//! - **Turn limit.** A game with a bot seat gets `turn_limit` [`BOT_TURN_LIMIT`] when it starts,
//!   unless its creator chose one (1 to 10,000); the engine ends the game when that turn ends
//!   (`game_won` with `condition: "turn_limit"`). Human-only games have none unless asked for.
//! - **Turn timer** (`options.turn_timer_seconds`, [`TIMER_SECONDS`], off by default). When the
//!   game waits for a human seat and nothing has been committed for that many seconds, the
//!   runner of the built-in bots ([`crate::play::bots`]) plays one move for the seat with the
//!   [`TIMER_BOT`], marked in the log (`"auto": true`). While a seat's latest move is such a
//!   move, the seat is on autoplay: its next decisions are played after [`AUTOPLAY_DELAY`]
//!   (or the timer, if shorter) instead of the whole timer, until the player posts a move of
//!   their own. The clock runs from the game's last commit, except in a decision several seats
//!   make at once (discards, gold choices): there it runs from the commit that began it, so
//!   absent seats are all played for at the same deadline, whoever answered meanwhile.
//!
//! Nothing of the timer lives only in memory: the deadline is the game's last commit
//! (`games.updated_at`) plus the delay, and autoplay is read from the log, so a restarted
//! server, or another process on the same PostgreSQL, arrives at the same deadline. The runner
//! plays a timer move only at the version it read (`store::play_on` under the game's lock), so
//! two processes, or a timer and the player, never make two moves for one version.

use std::{ops::RangeInclusive, time::Duration};

use catan_engine::{bots::BotKind, Game, GameConfig, Phase, Seat};
use chrono::{DateTime, NaiveDateTime, Utc};
use diesel::prelude::*;
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{
    error::ApiError,
    store::db::DbConnection,
    store::schema::{game_moves, games},
    store::{GameRecord, GameRow, GameStatus, SeatHolder},
};

pub use crate::store::BOT_TURN_LIMIT;

/// The turn timers a game may have, in seconds (5 s to 7 days).
pub const TIMER_SECONDS: RangeInclusive<u32> = 5..=604_800;

/// The bot that plays for a seat whose timer ran out.
pub const TIMER_BOT: BotKind = BotKind::Heuristic;

/// How long a seat on autoplay is waited for at each decision: the window in which its
/// returning player takes over by posting a move (the timer itself, if shorter).
pub const AUTOPLAY_DELAY: Duration = Duration::from_secs(10);

/// How the log marks a move the timer played: `bot` holds this prefix and the bot's kind.
const MARK: &str = crate::store::log::TIMER_MARK;

/// Rejects a turn timer outside [`TIMER_SECONDS`] (422 `invalid_turn_timer`).
///
/// # Errors
/// `invalid_turn_timer`.
pub fn validate(config: &GameConfig) -> Result<(), ApiError> {
    match config.turn_timer_seconds {
        Some(seconds) if !TIMER_SECONDS.contains(&seconds) => Err(ApiError::unprocessable(
            "invalid_turn_timer",
            format!("turn_timer_seconds must be {} to {}, not {seconds}", TIMER_SECONDS.start(), TIMER_SECONDS.end()),
        )),
        _ => Ok(()),
    }
}

/// What the timer waits for in a game, at its current version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pending {
    /// The human seat the game waits for.
    pub seat: Seat,
    /// When the timer plays for it.
    pub deadline: NaiveDateTime,
    /// The seat's latest move was the timer's: it is waited for [`AUTOPLAY_DELAY`] only.
    pub autoplay: bool,
}

impl Pending {
    /// How long until the deadline (zero once it has passed).
    pub fn remaining(&self) -> Duration {
        (self.deadline - crate::store::now()).to_std().unwrap_or(Duration::ZERO)
    }
}

/// Returns what the timer waits for in `game` (the state of `row`), if the game has a timer
/// and waits for a human seat with a move to make.
///
/// # Errors
/// A database error.
pub fn pending(
    conn: &mut DbConnection,
    row: &GameRow,
    game: &Game,
    seats: &[SeatHolder],
) -> Result<Option<Pending>, ApiError> {
    let Some(seconds) = game.config().turn_timer_seconds else { return Ok(None) };
    if game.is_over() || row.status() != GameStatus::Playing {
        return Ok(None);
    }
    let human = |seat: Seat| seats.iter().any(|s| s.seat == i32::from(seat.0) && s.bot.is_none());
    let Some(seat) = game.waiting_for().into_iter().find(|&seat| human(seat) && !game.legal_moves(seat).is_empty())
    else {
        return Ok(None);
    };
    let autoplay = on_autoplay(conn, &row.id, seat)?;
    let timer = Duration::from_secs(u64::from(seconds));
    let delay = if autoplay { timer.min(AUTOPLAY_DELAY) } else { timer };
    let deadline = waiting_since(conn, row, game)? + chrono::Duration::from_std(delay).map_err(ApiError::internal)?;
    Ok(Some(Pending { seat, deadline, autoplay }))
}

/// When the game began to wait for the decision at hand: its last commit, except in a
/// decision that several seats make at once (discards after a 7, gold choices), which began
/// with the commit before the first of their answers, so that one seat's answer does not
/// restart another's clock.
fn waiting_since(conn: &mut DbConnection, row: &GameRow, game: &Game) -> Result<NaiveDateTime, ApiError> {
    let answer = match game.phase() {
        Phase::Discard { .. } => "discard",
        Phase::GoldChoice { .. } => "choose_gold_resources",
        _ => return Ok(row.updated_at),
    };
    // At most one answer per seat (6) follows the entry that began the decision.
    let recent: Vec<(String, NaiveDateTime)> = game_moves::table
        .filter(game_moves::game_id.eq(&row.id))
        .order(game_moves::seq.desc())
        .limit(8)
        .select((game_moves::kind, game_moves::created_at))
        .load(conn)?;
    Ok(recent.into_iter().find(|(kind, _)| kind != answer).map_or(row.updated_at, |(_, at)| at))
}

/// Tests if `seat`'s latest move was played by the timer.
fn on_autoplay(conn: &mut DbConnection, game_id: &str, seat: Seat) -> Result<bool, ApiError> {
    crate::store::log::on_autoplay(conn, game_id, i32::from(seat.0))
}

/// Marks log entry `seq` of a game as played by the timer's bot, in the caller's transaction.
///
/// # Errors
/// A database error.
pub fn mark(conn: &mut DbConnection, game_id: &str, seq: i64) -> Result<(), ApiError> {
    diesel::update(game_moves::table.find((game_id, seq)))
        .set(game_moves::bot.eq(format!("{MARK}{}", TIMER_BOT.name())))
        .execute(conn)?;
    Ok(())
}

/// Reads a log entry's `bot` column: the bot that made the move, and whether it played for a
/// human seat whose timer ran out.
pub fn played_by(stored: Option<&str>) -> (Option<BotKind>, bool) {
    match stored {
        Some(stored) => match stored.strip_prefix(MARK) {
            Some(kind) => (kind.parse().ok(), true),
            None => (stored.parse().ok(), false),
        },
        None => (None, false),
    }
}

/// Writes a log entry's `bot` column, the other way round from [`played_by`]: the bot that
/// made the move, marked when it played for a human seat whose timer ran out (`auto`).
pub fn stored_bot(bot: Option<BotKind>, auto: bool) -> Option<String> {
    bot.map(|kind| if auto { format!("{MARK}{}", kind.name()) } else { kind.name().to_owned() })
}

/// Returns the ids of the playing games with a turn timer (for the runner's start and its
/// sweeps, which pick up deadlines another process or a previous run left).
///
/// # Errors
/// A database error.
pub fn timed_games(conn: &mut DbConnection) -> Result<Vec<Uuid>, ApiError> {
    let ids: Vec<String> = games::table
        .filter(games::status.eq(GameStatus::Playing.as_str()))
        .filter(games::config.like("%\"turn_timer_seconds\":%"))
        .select(games::id)
        .load(conn)?;
    Ok(ids.iter().filter_map(|id| Uuid::parse_str(id).ok()).collect())
}

/// The turn timer as the game resource shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TurnTimerView {
    /// The game's `turn_timer_seconds`.
    pub seconds: u32,
    /// The human seat the timer runs for now; null when the game waits for no human (bots
    /// play, or the game is over).
    pub seat: Option<Seat>,
    /// When a built-in bot plays for `seat` unless it acts first (RFC 3339); null with `seat`.
    pub deadline: Option<DateTime<Utc>>,
    /// `seat`'s latest move was played by the timer: it is waited for at most 10 s at each
    /// decision until its player posts a move.
    pub autoplay: bool,
}

/// Returns the timer of a game as the resource shows it; `None` without a timer.
///
/// # Errors
/// A database error, or an unreadable snapshot.
pub fn view(conn: &mut DbConnection, record: &GameRecord) -> Result<Option<TurnTimerView>, ApiError> {
    let row = &record.game;
    let Some(seconds) = row.config()?.turn_timer_seconds else { return Ok(None) };
    let pending = match row.game()? {
        Some(game) => pending(conn, row, &game, &record.seats)?,
        None => None,
    };
    Ok(Some(TurnTimerView {
        seconds,
        seat: pending.map(|p| p.seat),
        deadline: pending.map(|p| p.deadline.and_utc()),
        autoplay: pending.is_some_and(|p| p.autoplay),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_tells_timer_moves_from_bot_and_user_moves() {
        assert_eq!(played_by(Some("timer:heuristic")), (Some(BotKind::Heuristic), true));
        assert_eq!(played_by(Some("random")), (Some(BotKind::Random), false));
        assert_eq!(played_by(None), (None, false));
    }

    #[test]
    fn timers_outside_5_seconds_to_a_week_are_refused() {
        for (seconds, accepted) in [(0, false), (4, false), (5, true), (600, true), (604_800, true), (604_801, false)] {
            let config = GameConfig { turn_timer_seconds: Some(seconds), ..GameConfig::default() };
            let result = validate(&config);
            assert_eq!(result.is_ok(), accepted, "{seconds}");
        }
        assert!(validate(&GameConfig::default()).is_ok());
    }
}
