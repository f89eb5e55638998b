//! Game records (issue 31 part 5): one self-contained, versioned JSON document per game, at
//! the reader's redaction level: the rules, the board, the seats and every log entry, each
//! entry exactly as the move log shows it to the same reader ([`entry_for`]), plus, once the
//! game is over, the chance outcomes of each move kept apart from the move. The format is
//! documented in `docs/game-records.md`, its JSON Schema in `docs/game-record.schema.json`.

pub mod import;

use catan_engine::{
    board::BoardLayout, Draw, Event, Game, Move, RecordingChance, ScriptedChance, Seat, VictoryCondition, Viewer,
};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{
    error::ApiError,
    store::{self, db::DbConnection, GameRecord, GameStatus, MoveRow},
    views::{
        game::{imported_from, SeatSummary},
        moves::{entry_for, MoveLogEntry},
        utc,
    },
};

/// The record format's name, the document's `format`.
pub const FORMAT: &str = "catan-game-record";

/// The record format's version, the document's `version`.
pub const VERSION: u32 = 1;

/// What a record's reader may see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Redaction {
    /// A reader without a seat, while the game runs (or before it starts): the public view,
    /// as the move log shows it to spectators. No hand, no seed, no chance.
    Spectator,
    /// A seat's player, while the game runs (or before it starts): its own moves and cards in
    /// full, the others' as the move log shows them to it. No seed, no chance.
    Seat,
    /// Everything, for every reader, once the game is over: every move and card, the seed and
    /// each move's chance.
    Full,
}

/// One game, self-contained: what a tool needs to show, analyse or replay it.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameRecordDocument {
    /// Always `catan-game-record`.
    #[schema(value_type = String, example = "catan-game-record")]
    pub format: &'static str,
    /// The format's version: 1.
    #[schema(minimum = 1, maximum = 1)]
    pub version: u32,
    pub redaction: Redaction,
    /// The reader's seat, with `redaction: "seat"` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    pub game: RecordGame,
    /// The game's secret seed; with `redaction: "full"` only (it decides every draw).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The board as the game started (the `board` of entry 1's `game_started` event); null
    /// before the start.
    pub board: Option<BoardLayout>,
    /// Who holds each seat.
    pub seats: Vec<SeatSummary>,
    /// Every log entry, oldest first (empty before the start).
    pub entries: Vec<RecordEntry>,
}

/// The game a record is of.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecordGame {
    pub id: Uuid,
    pub status: GameStatus,
    /// The seq of the last entry (0 before the start): the record holds entries 1 to `version`.
    pub version: i64,
    /// The variants switched on, joined with `+`, or `"base"`.
    pub variant: String,
    /// The engine's rule configuration (`players` is the actual count once started): with
    /// the board and the seed, it rebuilds the game.
    pub options: catan_engine::GameConfig,
    /// The creator chose the seed.
    pub seeded: bool,
    /// For an imported game: the id it had where it was played (the `game.id` of the record
    /// it was imported from). Absent for games played here.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub imported_from: Option<Uuid>,
    /// The game started from a prepared position: entry 1's `position_set` holds it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub from_position: bool,
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    /// When the game last changed (its last entry, or its creation).
    pub updated_at: DateTime<Utc>,
    pub winner: Option<Seat>,
    /// How `winner` won, as the log's `game_won` says; absent until the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub won_by: Option<VictoryCondition>,
}

/// One log entry of a record: the move log's entry for the same reader, and with
/// `redaction: "full"` the move's chance outcomes.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecordEntry {
    #[serde(flatten)]
    pub entry: MoveLogEntry,
    /// With `redaction: "full"` only: every random draw the move made, in order (empty for a
    /// move that draws nothing, and for the start entry, whose randomness is in its
    /// `game_started` event). Deciding the move with these outcomes gives the entry's events.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chance: Option<Vec<ChancePick>>,
}

/// One random draw of a move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ChancePick {
    /// What was drawn: `red_die`, `white_die`, `development_card`, `stolen_card`,
    /// `fog_terrain`, `fog_token`, `event_die` or `progress_card`.
    #[schema(example = "red_die")]
    pub draw: String,
    /// The outcome's index among the draw's possible outcomes (a die: its face minus one;
    /// a card: its kind's index in the draw's list, see docs/game-records.md).
    #[schema(example = 2)]
    pub outcome: u32,
}

/// The record of `record`'s game as `user` may see it.
///
/// # Errors
/// A database error, unreadable stored data, or (an internal error) a log whose moves,
/// decided again, do not give the stored events.
pub fn record_of(
    conn: &mut DbConnection,
    record: &GameRecord,
    user: Option<Uuid>,
) -> Result<GameRecordDocument, ApiError> {
    let row = &record.game;
    let status = row.status();
    let over = status == GameStatus::Finished;
    let you = user.and_then(|u| record.seat_of(u));
    let viewer = you.map_or(Viewer::Spectator, Viewer::Seat);
    let redaction = match (over, you) {
        (true, _) => Redaction::Full,
        (false, Some(_)) => Redaction::Seat,
        (false, None) => Redaction::Spectator,
    };
    // Entries 1 to the row's version, not what has committed since the row was read: the
    // record is of one version, with the status and redaction of that version.
    let rows = if status == GameStatus::Open { Vec::new() } else { store::load_entries(conn, row, 0, row.version)? };
    let config = row.config()?;
    let chance = if over { Some(chance_of(&config, &rows)?) } else { None };
    let mut entries = Vec::with_capacity(rows.len());
    for (index, entry) in rows.iter().enumerate() {
        entries.push(RecordEntry {
            entry: entry_for(entry, viewer, over)?,
            chance: chance.as_ref().map(|picks| picks[index].clone()),
        });
    }
    let board = entries.first().and_then(|first| {
        first.entry.events.iter().find_map(|event| match event {
            Event::GameStarted { board, .. } => Some(board.clone()),
            _ => None,
        })
    });
    let won_by = if over {
        entries.last().and_then(|last| {
            last.entry.events.iter().rev().find_map(|event| match event {
                Event::GameWon { condition, .. } => Some(*condition),
                _ => None,
            })
        })
    } else {
        None
    };
    let winner = if over {
        entries.last().and_then(|last| {
            last.entry.events.iter().rev().find_map(|event| match event {
                Event::GameWon { seat, .. } => Some(*seat),
                _ => None,
            })
        })
    } else {
        None
    };
    Ok(GameRecordDocument {
        format: FORMAT,
        version: VERSION,
        redaction,
        seat: you.filter(|_| redaction == Redaction::Seat),
        game: RecordGame {
            id: Uuid::parse_str(&row.id).map_err(ApiError::internal)?,
            status,
            version: row.version,
            variant: config.variant_name(),
            options: config,
            seeded: row.seeded,
            imported_from: imported_from(row),
            from_position: row.position.is_some(),
            created_by: record.creator.clone(),
            created_at: utc(row.created_at),
            updated_at: utc(row.updated_at),
            winner,
            won_by,
        },
        seed: over.then(|| row.seed()),
        board,
        seats: record.seats.iter().map(SeatSummary::of).collect(),
        entries,
    })
}

/// The chance outcomes of every entry of a whole log (`rows`, from entry 1 on): the game is
/// replayed from its log and each move decided again, with its own seeded chance inside a
/// [`RecordingChance`]. The events decided again must be the stored ones; anything else is an
/// internal error, never a silently wrong record.
///
/// # Errors
/// Unreadable stored data, a log that does not replay, or a move whose events differ.
pub fn chance_of(config: &catan_engine::GameConfig, rows: &[MoveRow]) -> Result<Vec<Vec<ChancePick>>, ApiError> {
    let mut game: Option<Game> = None;
    let mut picks = Vec::with_capacity(rows.len());
    for row in rows {
        let events = row.events()?;
        let Some(current) = game.as_mut() else {
            game = Some(Game::replay(config.clone(), &events)?);
            picks.push(Vec::new());
            continue;
        };
        let (Some(seat), Some(mv)) = (row.seat, row.mv()?) else {
            return Err(ApiError::internal(format!("entry {} after the start is not a move", row.seq)));
        };
        let seat = Seat(seat as u8);
        // A move whose chance was not the seed's (dice named in a sandbox) kept it.
        let drawn = match row.picks()? {
            Some(picks) => replay_picks(current, seat, &mv, &events, picks),
            None => redecide(current, seat, &mv, &events),
        }
        .map_err(|why| ApiError::internal(format!("entry {} of the log: {why}", row.seq)))?;
        picks.push(drawn);
        for event in &events {
            current.apply(event);
        }
    }
    Ok(picks)
}

/// Decides `mv` again on `game` (the position before it) with the game's own chance,
/// recording the draws; `Err` unless the events are `stored`.
fn redecide(game: &Game, seat: Seat, mv: &Move, stored: &[Event]) -> Result<Vec<ChancePick>, String> {
    let mut chance = RecordingChance::new(game.chance());
    let events = game.decide(seat, mv, &mut chance).map_err(|e| format!("decided again, the move fails: {e}"))?;
    if events != stored {
        return Err("decided again, the move gives other events than the stored ones".into());
    }
    Ok(chance.into_picks().into_iter().map(pick).collect())
}

/// Decides `mv` again with the `picks` its entry kept; `Err` unless they are all drawn and
/// give the `stored` events.
fn replay_picks(
    game: &Game,
    seat: Seat,
    mv: &Move,
    stored: &[Event],
    picks: Vec<(Draw, usize)>,
) -> Result<Vec<ChancePick>, String> {
    let mut chance = ScriptedChance::new(picks.iter().copied());
    let events = game.decide(seat, mv, &mut chance).map_err(|e| format!("decided again, the move fails: {e}"))?;
    chance.finish()?;
    if events != stored {
        return Err("decided with its kept chance, the move gives other events than the stored ones".into());
    }
    Ok(picks.into_iter().map(pick).collect())
}

fn pick((draw, outcome): (Draw, usize)) -> ChancePick {
    ChancePick { draw: draw.0.to_owned(), outcome: outcome as u32 }
}

#[cfg(test)]
mod tests {
    use catan_engine::{protocol::versioned, GameConfig};

    use super::*;

    /// The log of a 3-player game played by always rolling, else ending the turn, else the
    /// first legal move, as the server stores it: `entries` entries.
    fn log(entries: usize) -> (GameConfig, Vec<MoveRow>) {
        let config = GameConfig::for_players(3);
        let (mut game, events) = Game::start(config.clone(), 9).unwrap();
        let mut rows = vec![MoveRow::start("g", &events, &game)];
        while rows.len() < entries {
            let seat = game.next_to_act().unwrap();
            let legal = game.legal_moves(seat);
            let mv =
                [Move::RollDice, Move::EndTurn].into_iter().find(|m| legal.contains(m)).unwrap_or(legal[0].clone());
            let events = game.decide(seat, &mv, &mut game.chance()).unwrap();
            events.iter().for_each(|event| game.apply(event));
            rows.push(MoveRow::new("g", rows.len() as i64 + 1, seat, &mv, &events, &game).unwrap());
        }
        (config, rows)
    }

    #[test]
    fn each_move_s_chance_is_what_its_events_drew() {
        let (config, rows) = log(60);
        let picks = chance_of(&config, &rows).unwrap();
        assert_eq!(picks.len(), rows.len());
        assert!(picks[0].is_empty(), "the start draws nothing through chance");
        let mut rolls = 0;
        for (row, picks) in rows.iter().zip(&picks) {
            for event in row.events().unwrap() {
                if let Event::DiceRolled { red, white, .. } = event {
                    rolls += 1;
                    let expected = [("red_die", red - 1), ("white_die", white - 1)];
                    let drawn: Vec<(&str, u32)> = picks.iter().map(|p| (p.draw.as_str(), p.outcome)).collect();
                    assert_eq!(drawn[..2], expected.map(|(d, o)| (d, u32::from(o))), "entry {}", row.seq);
                }
            }
        }
        assert!(rolls > 3, "the log rolled the dice {rolls} times");
    }

    #[test]
    fn a_stored_move_the_engine_decides_otherwise_is_an_internal_error() {
        let (config, mut rows) = log(60);
        let rolled = rows
            .iter()
            .position(|row| row.events().unwrap().iter().any(|e| matches!(e, Event::DiceRolled { .. })))
            .unwrap();
        let tampered: Vec<Event> = rows[rolled]
            .events()
            .unwrap()
            .into_iter()
            .map(|event| match event {
                Event::DiceRolled { seat, red, white } => Event::DiceRolled { seat, red: red % 6 + 1, white },
                other => other,
            })
            .collect();
        rows[rolled].events = versioned::encode_events(&tampered);
        let error = chance_of(&config, &rows).unwrap_err();
        let ApiError::Internal(why) = error else { panic!("not an internal error: {error:?}") };
        assert!(why.contains(&format!("entry {}", rolled + 1)) && why.contains("other events"), "{why}");
    }
}
