//! The storage format of log entries and snapshots, with a version, and the upcasters that
//! read every older version.
//!
//! Policy: a game stored by one version of the engine loads in every later one. A log
//! entry's events are stored as `{"format": N, "events": [...]}`; entries read in an older
//! format are upcast to the current [`Event`]s when read. A snapshot is stored as
//! `{"format": N, "game": {...}}`; a snapshot in an older format is a cache that is no
//! longer valid and is rebuilt by replaying the log ([`Snapshot::Outdated`]).
//!
//! Formats:
//! - 1 (up to the ruleset restructure): a bare JSON array of events per entry; a bare `Game`
//!   object as the snapshot. `phase_changed` named one phase; `road_building` carried
//!   `resume`.
//! - 2: the envelopes above; `phase_changed` names the phase and the interrupted phases that
//!   follow it (`then`).
//! - 3 (Seafarers): events as in 2 (new kinds only); a vertex exists wherever its three
//!   hexes are on the map (B-GEO-9), so a snapshot's per-vertex arrays of a custom board with
//!   open sea may be indexed differently: snapshots of format 2 are rebuilt.
//! - 4 (Wonders of Catan): new kinds of events, and `game_won` says which `condition` won
//!   (absent in format 3: `victory_points`); snapshots keep the wonders claimed. Format 3
//!   entries and snapshots read as they are. Raised so that an older server refuses data
//!   that holds wonders rather than failing on it game by game.
//! - 5 (turn limits): `game_won` may say `condition: "turn_limit"`, and a game's
//!   configuration may hold `turn_limit` and `turn_timer_seconds`. Format 3 and 4 entries and
//!   snapshots read as they are. Raised so that an older server refuses such data rather than
//!   failing on it game by game.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{Event, Move};
use crate::Game;

/// The format this engine writes.
pub const FORMAT: u32 = 5;

/// A stored entry or snapshot cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("stored in format {found}, newer than this engine's {FORMAT}: upgrade the server")]
    Newer { found: u32 },
    #[error("unreadable stored data: {0}")]
    Malformed(String),
}

impl From<serde_json::Error> for FormatError {
    fn from(error: serde_json::Error) -> Self {
        FormatError::Malformed(error.to_string())
    }
}

#[derive(Serialize)]
struct EventsOut<'a> {
    format: u32,
    events: &'a [Event],
}

#[derive(Deserialize)]
struct EventsIn {
    format: u32,
    events: Value,
}

/// An entry or snapshot in the current format, read straight into its types.
/// (Its `format` was checked by [`is_current`]; serde skips it.)
#[derive(Deserialize)]
struct Current<T> {
    /// The snapshot's `game`, or the entry's `events`.
    #[serde(rename = "game", alias = "events")]
    content: T,
}

/// The start of everything this engine writes: `{"format":<FORMAT>,`.
fn is_current(stored: &str) -> bool {
    let Some(rest) = stored.strip_prefix(r#"{"format":"#) else { return false };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    rest[..digits].parse() == Ok(FORMAT) && rest[digits..].starts_with(',')
}

/// Returns the stored form of one log entry's events, in the current format.
pub fn encode_events(events: &[Event]) -> String {
    serde_json::to_string(&EventsOut { format: FORMAT, events }).unwrap_or_else(|_| "[]".into())
}

/// Reads one log entry's events stored in any format, upcast to the current [`Event`]s.
///
/// # Errors
/// [`FormatError`] for data that is not a stored entry, or is from a newer engine.
pub fn decode_events(stored: &str) -> Result<Vec<Event>, FormatError> {
    if is_current(stored) {
        return Ok(serde_json::from_str::<Current<Vec<Event>>>(stored)?.content);
    }
    if stored.trim_start().starts_with('[') {
        let events: Vec<Value> = serde_json::from_str(stored)?;
        return events.into_iter().map(|event| Ok(serde_json::from_value(upcast_event_v1(event))?)).collect();
    }
    let envelope: EventsIn = serde_json::from_str(stored)?;
    match envelope.format {
        // Formats 2 to 4 read as they are: 3, 4 and 5 only added kinds of events, values and
        // fields with defaults.
        2..=4 | FORMAT => Ok(serde_json::from_value(envelope.events)?),
        found if found > FORMAT => Err(FormatError::Newer { found }),
        found => Err(FormatError::Malformed(format!("format {found} is never written in an envelope"))),
    }
}

/// Reads a stored move body (the same shape in every format so far).
///
/// # Errors
/// [`FormatError::Malformed`] when it is not a move.
pub fn decode_move(stored: &str) -> Result<Move, FormatError> {
    Ok(serde_json::from_str(stored)?)
}

#[derive(Serialize)]
struct SnapshotOut<'a> {
    format: u32,
    game: &'a Game,
}

#[derive(Deserialize)]
struct SnapshotIn {
    game: Value,
}

/// A stored snapshot as read.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Snapshot {
    Current(Game),
    /// Written in an older format: rebuild the game by replaying its log.
    Outdated {
        format: u32,
    },
}

/// Returns the stored form of a snapshot, in the current format.
pub fn encode_snapshot(game: &Game) -> String {
    serde_json::to_string(&SnapshotOut { format: FORMAT, game }).unwrap_or_default()
}

/// Returns the format a stored snapshot was written in, without reading the game.
///
/// # Errors
/// [`FormatError::Malformed`] when an envelope's version is unreadable.
pub fn snapshot_format(stored: &str) -> Result<u32, FormatError> {
    if is_current(stored) {
        return Ok(FORMAT);
    }
    if !stored.trim_start().starts_with(r#"{"format":"#) {
        // Format 1 stored the bare game, whose first field is its configuration.
        return Ok(1);
    }
    #[derive(Deserialize)]
    struct Version {
        format: u32,
    }
    let Version { format } = serde_json::from_str(stored)?;
    Ok(format)
}

/// Reads a stored snapshot.
///
/// # Errors
/// [`FormatError`] for data that is not a snapshot, or is from a newer engine.
pub fn decode_snapshot(stored: &str) -> Result<Snapshot, FormatError> {
    if is_current(stored) {
        return Ok(Snapshot::Current(serde_json::from_str::<Current<Game>>(stored)?.content));
    }
    match snapshot_format(stored)? {
        // Formats 4 and 5 only added state with defaults.
        3 | 4 | FORMAT => {
            let envelope: SnapshotIn = serde_json::from_str(stored)?;
            Ok(Snapshot::Current(serde_json::from_value(envelope.game)?))
        }
        found if found > FORMAT => Err(FormatError::Newer { found }),
        found => Ok(Snapshot::Outdated { format: found }),
    }
}

/// Format 1 -> 2: `phase_changed` named only the phase; the phases it interrupted were
/// implied. A discard (only ever after a 7) is followed by moving the robber and the main
/// phase; moving the robber and gold choices by the main phase; free roads by the phase
/// named in their `resume`.
fn upcast_event_v1(mut event: Value) -> Value {
    let Some(object) = event.as_object_mut() else { return event };
    if object.get("type").and_then(Value::as_str) != Some("phase_changed") || object.contains_key("then") {
        return event;
    }
    let Some(phase) = object.get_mut("phase").and_then(Value::as_object_mut) else { return event };
    let named = |name: &str| json!({ "name": name });
    let then: Vec<Value> = match phase.get("name").and_then(Value::as_str) {
        Some("discard") => vec![named("move_robber"), named("main")],
        Some("move_robber") | Some("gold_choice") => vec![named("main")],
        Some("road_building") => {
            let resume = phase.remove("resume").and_then(|r| r.as_str().map(str::to_owned));
            vec![named(resume.as_deref().unwrap_or("main"))]
        }
        _ => Vec::new(),
    };
    if !then.is_empty() {
        object.insert("then".into(), Value::Array(then));
    }
    event
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{model::Phase, Seat};

    #[test]
    fn format_one_phase_changes_name_the_phases_they_interrupted() {
        let stored = r#"[{"type":"phase_changed","phase":{"name":"road_building","roads_left":2,"resume":"pre_roll"}},
                         {"type":"phase_changed","phase":{"name":"discard","pending":[{"seat":1,"count":4}]}},
                         {"type":"turn_started","seat":2,"turn":9}]"#;
        let events = decode_events(stored).unwrap();
        assert_eq!(
            events[0],
            Event::PhaseChanged { phase: Phase::RoadBuilding { roads_left: 2 }, then: [Phase::PreRoll].into() }
        );
        assert_eq!(
            events[1],
            Event::PhaseChanged {
                phase: Phase::Discard {
                    pending: vec![crate::model::PendingDiscard { seat: Seat(1), count: 4 }].into()
                },
                then: [Phase::MoveRobber, Phase::Main].into()
            }
        );
        assert_eq!(events[2], Event::TurnStarted { seat: Seat(2), turn: 9 });
    }

    #[test]
    fn format_two_entries_read_unchanged() {
        let stored = r#"{"format":2,"events":[{"type":"turn_started","seat":1,"turn":3}]}"#;
        assert_eq!(decode_events(stored).unwrap(), vec![Event::TurnStarted { seat: Seat(1), turn: 3 }]);
        assert!(matches!(decode_snapshot(r#"{"format":2,"game":{}}"#), Ok(Snapshot::Outdated { format: 2 })));
    }

    #[test]
    fn format_three_entries_and_snapshots_read_unchanged() {
        let stored =
            r#"{"format":3,"events":[{"type":"game_won","seat":2,"victory_points":10,"victory_point_cards":1}]}"#;
        let won = Event::GameWon {
            seat: Seat(2),
            victory_points: 10,
            victory_point_cards: 1,
            condition: crate::VictoryCondition::VictoryPoints,
        };
        assert_eq!(decode_events(stored).unwrap(), vec![won]);
        let game = Game::new(crate::GameConfig::for_players(3), 5).unwrap();
        let format_three = encode_snapshot(&game).replacen(&format!(r#"{{"format":{FORMAT},"#), r#"{"format":3,"#, 1);
        match decode_snapshot(&format_three).unwrap() {
            Snapshot::Current(read) => assert_eq!(read, game),
            Snapshot::Outdated { format } => panic!("read as outdated format {format}"),
        }
    }

    #[test]
    fn format_four_entries_and_snapshots_read_unchanged() {
        let stored = r#"{"format":4,"events":[{"type":"game_won","seat":1,"victory_points":10,"victory_point_cards":0,"condition":"wonder_completed"}]}"#;
        let won = Event::GameWon {
            seat: Seat(1),
            victory_points: 10,
            victory_point_cards: 0,
            condition: crate::VictoryCondition::WonderCompleted,
        };
        assert_eq!(decode_events(stored).unwrap(), vec![won]);
        let game = Game::new(crate::GameConfig::for_players(3), 5).unwrap();
        let format_four = encode_snapshot(&game).replacen(&format!(r#"{{"format":{FORMAT},"#), r#"{"format":4,"#, 1);
        match decode_snapshot(&format_four).unwrap() {
            Snapshot::Current(read) => assert_eq!(read, game),
            Snapshot::Outdated { format } => panic!("read as outdated format {format}"),
        }
    }

    #[test]
    fn current_entries_round_trip_and_newer_ones_are_refused() {
        let events = vec![Event::TurnStarted { seat: Seat(1), turn: 3 }];
        assert_eq!(decode_events(&encode_events(&events)).unwrap(), events);
        let newer = r#"{"format":99,"events":[]}"#;
        assert_eq!(decode_events(newer), Err(FormatError::Newer { found: 99 }));
        assert!(matches!(decode_events("{}"), Err(FormatError::Malformed(_))));
    }

    #[test]
    fn snapshots_round_trip_and_older_ones_are_outdated() {
        let game = Game::new(crate::GameConfig::for_players(3), 5).unwrap();
        match decode_snapshot(&encode_snapshot(&game)).unwrap() {
            Snapshot::Current(read) => assert_eq!(read, game),
            Snapshot::Outdated { format } => panic!("read as format {format}"),
        }
        assert!(matches!(decode_snapshot(r#"{"config":{}}"#), Ok(Snapshot::Outdated { format: 1 })));
        assert!(matches!(decode_snapshot(r#"{"format":7,"game":{}}"#), Err(FormatError::Newer { found: 7 })));
    }
}
