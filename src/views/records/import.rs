//! Reading a game record back (`POST /api/v1/games/import`, issue 31 part 5): a full record,
//! as `GET .../record` answers it once a game is over, is replayed through the engine move by
//! move and becomes the rows of a finished game. Nothing is taken on trust: the start must be
//! the one the record's options and seed make, every move must be legal where it is played,
//! deciding it with the record's chance must give the record's events, and that chance must
//! be the seed's (so that the stored game's record, built again from its seed, is the one
//! imported). The first entry that fails refuses the record, naming its seq and the check.

use catan_engine::{
    bots::BotKind, protocol::versioned, Draw, Event, Game, GameConfig, Move, RecordingChance, ScriptedChance, Seat,
};
use chrono::{DateTime, Utc};
use serde::Deserialize;
use serde_json::Value;
use uuid::Uuid;

use super::{FORMAT, VERSION};
use crate::{
    error::ApiError,
    play::turn_timer::stored_bot,
    store::{self, GameRow, GameStatus, ImportedSeat, MoveRow},
};

/// The longest name an imported seat may carry (a record's `username`, or `imported_name`).
pub const MAX_NAME: usize = 64;

/// A full record, as far as importing it reads it: what the replay does not check (the
/// board, `game.status`, `winner`, ...) follows from the entries and is built again. Read it
/// once [`check_header`] has passed.
#[derive(Debug, Deserialize)]
pub struct Record {
    game: RecordGame,
    seed: u64,
    seats: Vec<RecordSeat>,
    entries: Vec<RecordEntry>,
}

#[derive(Debug, Deserialize)]
struct RecordGame {
    id: Uuid,
    options: GameConfig,
    #[serde(default)]
    seeded: bool,
    imported_from: Option<Uuid>,
}

#[derive(Debug, Deserialize)]
struct RecordSeat {
    seat: u8,
    username: Option<String>,
    bot: Option<String>,
    imported_name: Option<String>,
}

#[derive(Debug, Deserialize)]
struct RecordEntry {
    seq: i64,
    seat: Option<Seat>,
    kind: String,
    #[serde(rename = "move")]
    mv: Option<Move>,
    events: Vec<Event>,
    bot: Option<BotKind>,
    #[serde(default)]
    auto: bool,
    created_at: DateTime<Utc>,
    phase: Option<String>,
    waiting_for: Option<Vec<Seat>>,
    chance: Option<Vec<RecordPick>>,
}

#[derive(Debug, Deserialize)]
struct RecordPick {
    draw: String,
    outcome: u32,
}

/// A record replayed: the rows of the finished game it becomes.
#[derive(Debug)]
pub struct Imported {
    pub game: GameRow,
    pub seats: Vec<ImportedSeat>,
    pub entries: Vec<MoveRow>,
}

fn refused(entry: Option<i64>, check: &'static str, detail: impl Into<String>) -> ApiError {
    ApiError::Record { entry, check, detail: detail.into() }
}

/// Checks what a record is before it is read: its format and version (a later version may
/// shape its fields otherwise), and that it is full.
///
/// # Errors
/// 422 `unsupported_record_version`, 422 `invalid_record` (`not_full`).
pub fn check_header(body: &Value) -> Result<(), ApiError> {
    check_format(body)?;
    if body.get("redaction").and_then(Value::as_str) != Some("full") {
        return Err(refused(
            None,
            "not_full",
            "only a full record can be imported (`redaction: \"full\"`, a finished game's record): a \
             spectator's or a seat's record lacks the hidden cards and the chance that replaying needs",
        )
        .at_field("#/redaction"));
    }
    Ok(())
}

/// Replays `record` and returns the rows of game `id`, created now by `importer`. On a
/// `sandbox` server, a move's chance may be other than the seed's (dice named in a sandbox
/// game): the entry then keeps it.
///
/// # Errors
/// A setup error of the options, or 422 `invalid_record` naming the entry and the check
/// that failed.
pub fn replay(record: Record, id: Uuid, importer: Uuid, sandbox: bool) -> Result<Imported, ApiError> {
    let config = record.game.options;
    let seats = seats(&record.seats, config.players)?;
    let id_text = id.to_string();
    let mut entries = record.entries.iter();
    let first = entries.next().ok_or_else(|| refused(None, "no_entries", "the record has no entries"))?;
    // A game started from a prepared position opens with it, right after `game_started`.
    let prepared = match first.events.get(1) {
        Some(Event::PositionSet { position }) => Some(position.as_ref().clone()),
        _ => None,
    };
    let (mut game, start_events) = match &prepared {
        None => Game::start(config.clone(), record.seed)?,
        Some(position) => Game::start_from(position.clone(), record.seed).map_err(|error| {
            refused(Some(1), "start_differs", format!("entry 1's position does not start a game: {error}"))
                .at_field("#/entries/0/events/1")
        })?,
    };
    if prepared.as_ref().is_some_and(|position| position.config != config) {
        return Err(refused(Some(1), "start_differs", "entry 1's position has other rules than `game.options`")
            .at_field("#/entries/0/events/1"));
    }
    if first.seq != 1 || first.seat.is_some() || first.mv.is_some() || first.kind != "start" {
        return Err(refused(
            Some(first.seq),
            "start_differs",
            "entry 1 must be the start: seq 1, kind `start`, no seat, no move",
        )
        .at_field("#/entries/0"));
    }
    if first.events != start_events {
        return Err(refused(
            Some(1),
            "start_differs",
            "entry 1's events are not the start that the record's options and seed make (its board, first player)",
        )
        .at_field("#/entries/0/events"));
    }
    let mut rows = Vec::with_capacity(record.entries.len());
    rows.push(row_of(MoveRow::start(&id_text, &start_events, &game), first));
    check_after(first, &game, 0)?;
    for (index, entry) in entries.enumerate() {
        let index = index + 1;
        let (seat, mv, events, picks) = replay_entry(&game, entry, index, sandbox)?;
        for event in &events {
            game.apply(event);
        }
        check_after(entry, &game, index)?;
        let mut row = row_of(MoveRow::new(&id_text, entry.seq, seat, mv, &events, &game)?, entry);
        if let Some(picks) = picks {
            row.keep_picks(&picks);
        }
        rows.push(row);
    }
    if !game.is_over() {
        let last = rows.last().map(|row| row.seq);
        return Err(refused(
            last,
            "not_finished",
            "the record ends before the game is over: only finished games are imported",
        ));
    }
    let now = store::now();
    let row = GameRow {
        rated: false,
        pool: None,
        id: id_text,
        created_by: importer.to_string(),
        status: GameStatus::Finished.as_str().into(),
        max_players: i32::from(config.players),
        config: serde_json::to_string(&config)?,
        seed: record.seed as i64,
        version: rows.last().map_or(0, |row| row.seq),
        snapshot: Some(versioned::encode_snapshot(&game)),
        created_at: now,
        updated_at: now,
        seeded: record.game.seeded,
        imported_from: Some(record.game.imported_from.unwrap_or(record.game.id).to_string()),
        position: prepared.map(|position| serde_json::to_string(&position)).transpose()?,
    };
    Ok(Imported { game: row, seats, entries: rows })
}

/// Refuses a document of another format, or of a version this server cannot read.
fn check_format(body: &Value) -> Result<(), ApiError> {
    let format = body.get("format").and_then(Value::as_str);
    let version = body.get("version").and_then(Value::as_u64);
    if format == Some(FORMAT) && version == Some(u64::from(VERSION)) {
        return Ok(());
    }
    let got = match (format, body.get("version")) {
        (Some(format), Some(version)) => format!("{format:?} version {version}"),
        (Some(format), None) => format!("{format:?} without a version"),
        (None, _) => "a document without a format".to_owned(),
    };
    let pointer = if format == Some(FORMAT) { "#/version" } else { "#/format" };
    Err(ApiError::unprocessable(
        "unsupported_record_version",
        format!("this server imports records of format {FORMAT:?} version {VERSION}, not {got}"),
    )
    .at_field(pointer))
}

/// The seats of the record: seats 0 to `players - 1` in order, each held by a bot (of a kind
/// this server has) or by a named player.
fn seats(seats: &[RecordSeat], players: u8) -> Result<Vec<ImportedSeat>, ApiError> {
    if seats.len() != usize::from(players) {
        return Err(refused(
            None,
            "seats_differ",
            format!("the record has {} seats for a game of {players} players", seats.len()),
        )
        .at_field("#/seats"));
    }
    seats
        .iter()
        .enumerate()
        .map(|(index, seat)| {
            let at = format!("#/seats/{index}");
            if usize::from(seat.seat) != index {
                return Err(
                    refused(None, "seats_differ", format!("seat {index} is listed as seat {}", seat.seat)).at_field(at)
                );
            }
            let name = seat.username.clone().or_else(|| seat.imported_name.clone());
            match (name, &seat.bot) {
                (None, Some(kind)) => {
                    let kind: BotKind = kind.parse().map_err(|_| {
                        refused(None, "unknown_bot", format!("seat {index}'s bot {kind:?} is no built-in bot kind"))
                            .at_field(format!("{at}/bot"))
                    })?;
                    Ok(ImportedSeat { seat: index as i32, bot: Some(kind.name().to_owned()), name: None })
                }
                (Some(name), None) => {
                    let fits = !name.trim().is_empty()
                        && name.chars().count() <= MAX_NAME
                        && !name.chars().any(char::is_control);
                    if !fits {
                        return Err(refused(
                            None,
                            "invalid_seat_name",
                            format!("seat {index}'s name must be 1 to {MAX_NAME} characters, none a control character"),
                        )
                        .at_field(at));
                    }
                    Ok(ImportedSeat { seat: index as i32, bot: None, name: Some(name) })
                }
                _ => Err(refused(
                    None,
                    "seats_differ",
                    format!("seat {index} must be held by a named player or by a bot, one of the two"),
                )
                .at_field(at)),
            }
        })
        .collect()
}

/// Decides entry `index` (its move, for its seat, with its chance) on `game`, the position
/// before it, and returns its seat, move and events once the events are the record's and its
/// chance the seed's, or (on a `sandbox` server) other: then with the chance to keep.
#[allow(clippy::type_complexity)]
fn replay_entry<'e>(
    game: &Game,
    entry: &'e RecordEntry,
    index: usize,
    sandbox: bool,
) -> Result<(Seat, &'e Move, Vec<Event>, Option<Vec<(Draw, usize)>>), ApiError> {
    let seq = Some(entry.seq);
    let at = format!("#/entries/{index}");
    let expected = index as i64 + 1;
    if entry.seq != expected {
        return Err(refused(seq, "seq_gap", format!("entry {index} has seq {}, not {expected}", entry.seq))
            .at_field(format!("{at}/seq")));
    }
    let (Some(seat), Some(mv)) = (entry.seat, entry.mv.as_ref()) else {
        return Err(refused(
            seq,
            "not_a_move",
            format!("entry {} after the start must have a seat and a move", entry.seq),
        )
        .at_field(at));
    };
    if entry.kind != mv.kind() {
        return Err(refused(
            seq,
            "kind_differs",
            format!("entry {}'s kind {:?} is not its move's type {:?}", entry.seq, entry.kind, mv.kind()),
        )
        .at_field(format!("{at}/kind")));
    }
    if entry.auto && entry.bot.is_none() {
        return Err(refused(seq, "auto_without_bot", format!("entry {} says `auto` but names no bot", entry.seq))
            .at_field(format!("{at}/auto")));
    }
    let Some(chance) = &entry.chance else {
        return Err(refused(seq, "chance_missing", format!("entry {} has no `chance`", entry.seq))
            .at_field(format!("{at}/chance")));
    };
    let mut picks = Vec::with_capacity(chance.len());
    for (number, pick) in chance.iter().enumerate() {
        let draw = Draw::named(&pick.draw).ok_or_else(|| {
            refused(seq, "chance_differs", format!("entry {}: {:?} is no draw of any ruleset", entry.seq, pick.draw))
                .at_field(format!("{at}/chance/{number}/draw"))
        })?;
        picks.push((draw, pick.outcome as usize));
    }
    let mut scripted = ScriptedChance::new(picks.iter().copied());
    let events = game.decide(seat, mv, &mut scripted).map_err(|rule| {
        refused(
            seq,
            rule.code(),
            format!("entry {}: seat {}'s {} is illegal here: {rule}", entry.seq, seat.0, mv.kind()),
        )
        .at_field(format!("{at}/move"))
    })?;
    scripted.finish().map_err(|why| {
        refused(
            seq,
            "chance_differs",
            format!("entry {}: the move's draws are not the record's chance: {why}", entry.seq),
        )
        .at_field(format!("{at}/chance"))
    })?;
    if events != entry.events {
        return Err(refused(
            seq,
            "events_differ",
            format!(
                "entry {}: the move, decided with the record's chance, gives other events than the record's",
                entry.seq
            ),
        )
        .at_field(format!("{at}/events")));
    }
    let mut seeded = RecordingChance::new(game.chance());
    let again = game.decide(seat, mv, &mut seeded);
    if seeded.picks() == picks.as_slice() && again.as_ref().ok() == Some(&events) {
        return Ok((seat, mv, events, None));
    }
    if sandbox {
        return Ok((seat, mv, events, Some(picks)));
    }
    Err(refused(
        seq,
        "chance_not_seeded",
        format!(
            "entry {}: the record's chance is not what the game's seed draws here (a sandbox game's named dice \
             import only into a sandbox server, CATAN_SANDBOX=1)",
            entry.seq
        ),
    )
    .at_field(format!("{at}/chance")))
}

/// Checks what the entry says the game waits for after it, when it says it.
fn check_after(entry: &RecordEntry, game: &Game, index: usize) -> Result<(), ApiError> {
    let at = format!("#/entries/{index}");
    if entry.phase.as_deref().is_some_and(|phase| phase != game.phase().name()) {
        return Err(refused(
            Some(entry.seq),
            "phase_differs",
            format!("after entry {} the game is in phase {:?}, not {:?}", entry.seq, game.phase().name(), entry.phase),
        )
        .at_field(format!("{at}/phase")));
    }
    if entry.waiting_for.as_ref().is_some_and(|seats| *seats != game.waiting_for()) {
        return Err(refused(
            Some(entry.seq),
            "waiting_for_differs",
            format!("after entry {} the game waits for other seats than the record says", entry.seq),
        )
        .at_field(format!("{at}/waiting_for")));
    }
    Ok(())
}

/// The row of an entry with what the record keeps of it: when it was made, and by which bot.
fn row_of(mut row: MoveRow, entry: &RecordEntry) -> MoveRow {
    row.created_at = store::to_micros(entry.created_at.naive_utc());
    row.bot = stored_bot(entry.bot, entry.auto);
    row
}
