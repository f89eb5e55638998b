//! Moves as the API shows them: the legal moves of a reader, the result of a move, and the
//! move log, each entry redacted for its reader (another seat's move shows only its type
//! while the game runs).

use catan_engine::{Event, Move, Seat, Viewer};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    error::ApiError,
    store::{GameStatus, MoveRow},
    views::utc,
};

/// The moves the caller may make now; each is a complete body for `POST .../moves`.
#[derive(Debug, Serialize, ToSchema)]
pub struct LegalMovesResponse {
    /// The game version these moves are legal at (use as `If-Match: "v<version>"`).
    pub version: i64,
    /// The caller's seat, or null for spectators (who get no moves).
    pub you: Option<Seat>,
    /// The seats that must act before play can go on (as in the game view's
    /// `turn.waiting_for`): when `moves` is empty, whom the caller is waiting for.
    pub waiting_for: Vec<Seat>,
    /// Whether the caller may make a new trade offer (`offer_trade` is not listed: its
    /// space is unbounded).
    pub may_offer_trade: bool,
    pub moves: Vec<Move>,
}

/// Another seat's move, with only its type shown (its body may reveal hidden cards).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HiddenMove {
    /// The move's type, e.g. `discard`.
    #[serde(rename = "type")]
    pub type_: String,
    /// Always true: tells a hidden move from a full one (a full move never has this field).
    #[schema(value_type = bool)]
    pub hidden: Hidden,
}

/// `true`, as a type: the schema allows no other value.
#[derive(Debug, Clone, Copy)]
pub struct Hidden;

impl Serialize for Hidden {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(true)
    }
}

/// A logged move: in full for the seat that made it (and for everyone after game over),
/// only its type for others.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(untagged)]
pub enum LoggedMove {
    Full(Move),
    Hidden(HiddenMove),
}

/// One entry of the move log: a move (or the start of the game) and the events it caused.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MoveLogEntry {
    /// 1, 2, 3, ... with no gaps; the game's version after this entry.
    pub seq: i64,
    /// The seat that moved; null for the entry that starts the game.
    pub seat: Option<Seat>,
    /// `start`, or the move's type.
    pub kind: String,
    /// The move; absent for the start entry.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<LoggedMove>,
    /// The events, with other seats' hidden cards removed while the game runs.
    pub events: Vec<Event>,
    /// The kind of built-in bot that made the move; absent for moves of users.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<catan_engine::bots::BotKind>,
    /// True when the turn timer ran out and `bot` played this move for the human seat (see
    /// `options.turn_timer_seconds`); absent otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub auto: bool,
    pub created_at: DateTime<Utc>,
    /// The phase the game is in after this entry (the name of the game view's
    /// `turn.phase`), e.g. `main` or `discard`; `game_over` once it is won.
    pub phase: String,
    /// The seats that must act after this entry (the game view's `turn.waiting_for` at this
    /// version; empty once the game is over): a bot following the log knows from the entry
    /// alone whether it is its turn to move.
    pub waiting_for: Vec<Seat>,
}

/// The result of a move.
#[derive(Debug, Serialize, ToSchema)]
pub struct SubmitMoveResponse {
    /// The game's new version (= `entry.seq`).
    pub version: i64,
    pub status: GameStatus,
    /// The seats that must act next (empty once the game is over), so that a client
    /// playing several seats knows whose legal moves to ask for without reading the game.
    pub waiting_for: Vec<Seat>,
    pub entry: MoveLogEntry,
}

/// A slice of the move log.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveLogResponse {
    /// The game's current version; read on with `after=<last seq>`.
    pub version: i64,
    pub status: GameStatus,
    pub entries: Vec<MoveLogEntry>,
    /// With `include=legal_moves`: what `GET .../legal-moves` answers the caller at the
    /// game's newest version (its own `version`, which may be past the last entry here when a
    /// move committed meanwhile); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_moves: Option<LegalMovesResponse>,
}

/// Shapes a stored entry for a viewer.
///
/// # Errors
/// When stored JSON is unreadable.
pub fn entry_for(row: &MoveRow, viewer: Viewer, over: bool) -> Result<MoveLogEntry, ApiError> {
    let seat = row.seat.map(|s| Seat(s as u8));
    let mut events = row.events()?;
    if !over {
        events = events.iter().map(|e| e.redacted_for(viewer)).collect();
    }
    let mv = row.mv()?.map(|mv| {
        if over || seat.is_some_and(|s| viewer == Viewer::Seat(s)) {
            LoggedMove::Full(mv)
        } else {
            LoggedMove::Hidden(HiddenMove { type_: row.kind.clone(), hidden: Hidden })
        }
    });
    let (bot, auto) = crate::play::turn_timer::played_by(row.bot.as_deref());
    let (phase, waiting_for) = row
        .after()?
        .ok_or_else(|| ApiError::internal(format!("entry {} was read without what follows it", row.seq)))?;
    Ok(MoveLogEntry {
        phase: phase.to_owned(),
        waiting_for,
        seq: row.seq,
        seat,
        kind: row.kind.clone(),
        mv,
        events,
        bot,
        auto,
        created_at: utc(row.created_at),
    })
}
