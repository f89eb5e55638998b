//! Domestic trade offers as a projection of the move log (table `trade_offers`).
//!
//! The engine keeps only the *open* offers in its state; clients also want to see what became
//! of an offer (completed with whom, withdrawn, expired). Every log entry's events are folded
//! into the table by [`project`], which the move pipeline calls inside the move's own
//! transaction, so the table always agrees with the log; [`replay`] folds a whole log the same
//! way, and [`check_projection`] compares the two (the tests call it after every trade game).
//!
//! Status of an offer, as the API shows it:
//! - `open`: waiting for answers (no acceptance yet, not everyone declined);
//! - `accepted`: still open, and at least one addressee accepted (the offerer may confirm);
//! - `declined`: still open, but every addressee declined (the engine keeps it open until it
//!   is withdrawn or expires, so an addressee may still change their mind and accept);
//! - `completed`, `withdrawn`, `expired` (the turn ended, or the game did): closed for good.
//!
//! In Cities & Knights an offer may name commodities too (CK-TRD-1). The `give` and `get`
//! columns hold a side's resources as JSON, as they always did; a side that also names
//! commodities is stored as the engine's `Cards` JSON (`{"resources": .., "commodities": ..}`)
//! in the same column, so other games' rows keep their format and need no migration.

use std::collections::BTreeMap;

use catan_engine::{Cards, Commodities, Event, Resources, Seat};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use crate::{error::ApiError, store::db::DbConnection, store::log::MoveRow, store::schema::trade_offers};

/// Where an offer stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TradeStatus {
    /// Open, waiting for answers.
    Open,
    /// Open, and at least one addressee accepted: the offerer may confirm with one of them.
    Accepted,
    /// Open, but every addressee declined (an addressee may still accept until it closes).
    Declined,
    /// Cards were exchanged with `completed_with`.
    Completed,
    /// The offerer withdrew it.
    Withdrawn,
    /// The turn (or the game) ended while it was open.
    Expired,
}

impl TradeStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TradeStatus::Open => "open",
            TradeStatus::Accepted => "accepted",
            TradeStatus::Declined => "declined",
            TradeStatus::Completed => "completed",
            TradeStatus::Withdrawn => "withdrawn",
            TradeStatus::Expired => "expired",
        }
    }

    pub fn parse(s: &str) -> Option<TradeStatus> {
        [
            TradeStatus::Open,
            TradeStatus::Accepted,
            TradeStatus::Declined,
            TradeStatus::Completed,
            TradeStatus::Withdrawn,
            TradeStatus::Expired,
        ]
        .into_iter()
        .find(|status| status.as_str() == s)
    }

    /// Tests if the engine still holds the offer open (it may be accepted, confirmed,
    /// declined or withdrawn).
    pub fn is_live(self) -> bool {
        matches!(self, TradeStatus::Open | TradeStatus::Accepted | TradeStatus::Declined)
    }
}

/// One offer as the log made it: the fold of its trade events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TradeState {
    pub offer_id: u32,
    pub from: Seat,
    pub to: Vec<Seat>,
    pub give: Resources,
    pub get: Resources,
    /// Commodities given and wanted besides `give`/`get` (Cities & Knights; else none).
    pub give_commodities: Commodities,
    pub get_commodities: Commodities,
    pub counter_to: Option<u32>,
    pub status: TradeStatus,
    pub accepted_by: Vec<Seat>,
    pub declined_by: Vec<Seat>,
    pub completed_with: Option<Seat>,
    pub offered_seq: i64,
    pub updated_seq: i64,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
}

impl TradeState {
    /// The status of a live offer from its answers.
    fn live_status(&self) -> TradeStatus {
        if !self.accepted_by.is_empty() {
            TradeStatus::Accepted
        } else if self.to.iter().all(|seat| self.declined_by.contains(seat)) {
            TradeStatus::Declined
        } else {
            TradeStatus::Open
        }
    }

    fn touch(&mut self, seq: i64, at: NaiveDateTime) {
        self.updated_seq = seq;
        self.updated_at = at;
    }

    fn close(&mut self, status: TradeStatus, seq: i64, at: NaiveDateTime) {
        if self.status.is_live() {
            self.status = status;
            self.touch(seq, at);
        }
    }
}

/// Offers by id.
pub type TradeBook = BTreeMap<u32, TradeState>;

/// Folds one log entry's events into `book`; returns whether any offer changed. Mirrors the
/// engine's `apply` for offers, and also keeps the closed ones.
pub fn fold(book: &mut TradeBook, seq: i64, at: NaiveDateTime, events: &[Event]) -> bool {
    let mut changed = false;
    for event in events {
        match event {
            Event::TradeOffered { offer } => {
                let mut state = TradeState {
                    offer_id: offer.id,
                    from: offer.from,
                    to: offer.to.clone(),
                    give: offer.give,
                    get: offer.get,
                    give_commodities: offer.give_commodities,
                    get_commodities: offer.get_commodities,
                    counter_to: offer.counter_to,
                    status: TradeStatus::Open,
                    accepted_by: offer.accepted_by.clone(),
                    declined_by: offer.declined_by.clone(),
                    completed_with: None,
                    offered_seq: seq,
                    updated_seq: seq,
                    created_at: at,
                    updated_at: at,
                };
                state.status = state.live_status();
                book.insert(offer.id, state);
            }
            Event::TradeAccepted { offer_id, seat } => {
                if let Some(state) = book.get_mut(offer_id) {
                    state.declined_by.retain(|s| s != seat);
                    state.accepted_by.push(*seat);
                    state.status = state.live_status();
                    state.touch(seq, at);
                }
            }
            Event::TradeDeclined { offer_id, seat } => {
                if let Some(state) = book.get_mut(offer_id) {
                    state.accepted_by.retain(|s| s != seat);
                    state.declined_by.push(*seat);
                    state.status = state.live_status();
                    state.touch(seq, at);
                }
            }
            Event::TradeWithdrawn { offer_id } => {
                if let Some(state) = book.get_mut(offer_id) {
                    state.close(TradeStatus::Withdrawn, seq, at);
                }
            }
            Event::TradesExpired { offer_ids } => {
                for offer_id in offer_ids {
                    if let Some(state) = book.get_mut(offer_id) {
                        state.close(TradeStatus::Expired, seq, at);
                    }
                }
            }
            Event::TradeCompleted { offer_id, with, .. } => {
                if let Some(state) = book.get_mut(offer_id) {
                    if state.status.is_live() {
                        state.completed_with = Some(*with);
                    }
                    state.close(TradeStatus::Completed, seq, at);
                }
            }
            // The game is over: nothing can be traded any more.
            Event::GameWon { .. } => {
                for state in book.values_mut() {
                    state.close(TradeStatus::Expired, seq, at);
                }
            }
            _ => continue,
        }
        changed = true;
    }
    changed
}

/// Tests if an entry's events concern offers at all.
pub fn touches_offers(events: &[Event]) -> bool {
    events.iter().any(|event| {
        matches!(
            event,
            Event::TradeOffered { .. }
                | Event::TradeAccepted { .. }
                | Event::TradeDeclined { .. }
                | Event::TradeWithdrawn { .. }
                | Event::TradesExpired { .. }
                | Event::TradeCompleted { .. }
                | Event::GameWon { .. }
        )
    })
}

// ---------------------------------------------------------------------------------------
// Rows

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = trade_offers, treat_none_as_null = true)]
struct TradeRow {
    game_id: String,
    offer_id: i64,
    from_seat: i32,
    to_seats: String,
    give: String,
    get: String,
    counter_to: Option<i64>,
    status: String,
    accepted_by: String,
    declined_by: String,
    completed_with: Option<i32>,
    offered_seq: i64,
    updated_seq: i64,
    created_at: NaiveDateTime,
    updated_at: NaiveDateTime,
}

impl TradeRow {
    fn new(game_id: &str, state: &TradeState) -> Result<TradeRow, ApiError> {
        Ok(TradeRow {
            game_id: game_id.to_owned(),
            offer_id: i64::from(state.offer_id),
            from_seat: i32::from(state.from.0),
            to_seats: serde_json::to_string(&state.to)?,
            give: side_json(&state.give, &state.give_commodities)?,
            get: side_json(&state.get, &state.get_commodities)?,
            counter_to: state.counter_to.map(i64::from),
            status: state.status.as_str().to_owned(),
            accepted_by: serde_json::to_string(&state.accepted_by)?,
            declined_by: serde_json::to_string(&state.declined_by)?,
            completed_with: state.completed_with.map(|s| i32::from(s.0)),
            offered_seq: state.offered_seq,
            updated_seq: state.updated_seq,
            created_at: state.created_at,
            updated_at: state.updated_at,
        })
    }

    fn state(&self) -> Result<TradeState, ApiError> {
        let seat = |n: i32| Seat(n as u8);
        let (give, give_commodities) = parse_side(&self.give)?;
        let (get, get_commodities) = parse_side(&self.get)?;
        Ok(TradeState {
            offer_id: self.offer_id as u32,
            from: seat(self.from_seat),
            to: serde_json::from_str(&self.to_seats)?,
            give,
            get,
            give_commodities,
            get_commodities,
            counter_to: self.counter_to.map(|id| id as u32),
            status: TradeStatus::parse(&self.status)
                .ok_or_else(|| ApiError::internal(format!("unknown trade status {:?}", self.status)))?,
            accepted_by: serde_json::from_str(&self.accepted_by)?,
            declined_by: serde_json::from_str(&self.declined_by)?,
            completed_with: self.completed_with.map(seat),
            offered_seq: self.offered_seq,
            updated_seq: self.updated_seq,
            created_at: self.created_at,
            updated_at: self.updated_at,
        })
    }
}

/// One side of an offer as the `give`/`get` column stores it: the resources' JSON, or the
/// `Cards` JSON when the side names commodities.
fn side_json(resources: &Resources, commodities: &Commodities) -> Result<String, ApiError> {
    Ok(if commodities.is_empty() {
        serde_json::to_string(resources)?
    } else {
        serde_json::to_string(&Cards::new(*resources, *commodities))?
    })
}

/// Reads a side stored by [`side_json`]. The two forms cannot be confused: resource names
/// and the `Cards` keys (`resources`, `commodities`) differ, and both reject unknown keys.
fn parse_side(json: &str) -> Result<(Resources, Commodities), ApiError> {
    match serde_json::from_str::<Resources>(json) {
        Ok(resources) => Ok((resources, Commodities::NONE)),
        Err(_) => {
            let cards: Cards = serde_json::from_str(json)?;
            Ok((cards.resources, cards.commodities))
        }
    }
}

const LIVE: [&str; 3] = ["open", "accepted", "declined"];

/// Folds a new log entry into `trade_offers`. Called by the move pipeline inside the move's
/// transaction, right after the entry is inserted.
///
/// # Errors
/// A database error.
pub fn project(
    conn: &mut DbConnection,
    game_id: &str,
    seq: i64,
    at: NaiveDateTime,
    events: &[Event],
) -> Result<(), ApiError> {
    if !touches_offers(events) {
        return Ok(());
    }
    // Only live offers can change; there are few (the engine caps open offers per seat).
    let rows: Vec<TradeRow> = trade_offers::table
        .filter(trade_offers::game_id.eq(game_id))
        .filter(trade_offers::status.eq_any(LIVE))
        .select(TradeRow::as_select())
        .load(conn)?;
    let mut book = TradeBook::new();
    for row in &rows {
        let state = row.state()?;
        book.insert(state.offer_id, state);
    }
    let before = book.clone();
    fold(&mut book, seq, at, events);
    for (id, state) in &book {
        let row = TradeRow::new(game_id, state)?;
        match before.get(id) {
            None => {
                diesel::insert_into(trade_offers::table).values(&row).execute(conn)?;
            }
            Some(old) if old != state => {
                diesel::update(trade_offers::table.find((game_id, i64::from(*id)))).set(&row).execute(conn)?;
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// Loads a game's offers, oldest first, optionally only those with `status`.
///
/// # Errors
/// A database error or unreadable stored JSON.
pub fn load_trades(
    conn: &mut DbConnection,
    game_id: Uuid,
    status: Option<TradeStatus>,
) -> Result<Vec<TradeState>, ApiError> {
    let mut query = trade_offers::table
        .filter(trade_offers::game_id.eq(game_id.to_string()))
        .select(TradeRow::as_select())
        .into_boxed();
    if let Some(status) = status {
        query = query.filter(trade_offers::status.eq(status.as_str()));
    }
    let rows: Vec<TradeRow> = query.order(trade_offers::offer_id.asc()).load(conn)?;
    rows.iter().map(TradeRow::state).collect()
}

/// Finds one offer.
///
/// # Errors
/// A database error or unreadable stored JSON.
pub fn find_trade(conn: &mut DbConnection, game_id: Uuid, offer_id: u32) -> Result<Option<TradeState>, ApiError> {
    let row: Option<TradeRow> = trade_offers::table
        .find((game_id.to_string(), i64::from(offer_id)))
        .select(TradeRow::as_select())
        .first(conn)
        .optional()?;
    row.as_ref().map(TradeRow::state).transpose()
}

/// Folds a whole log into a book of offers.
///
/// # Errors
/// When a stored entry is unreadable.
pub fn replay(entries: &[MoveRow]) -> Result<TradeBook, ApiError> {
    let mut book = TradeBook::new();
    for entry in entries {
        fold(&mut book, entry.seq, entry.created_at, &entry.events()?);
    }
    Ok(book)
}

/// Tests if `trade_offers` holds exactly what folding the game's whole log gives.
///
/// # Errors
/// A database error or unreadable stored JSON.
pub fn check_projection(conn: &mut DbConnection, game_id: Uuid) -> Result<bool, ApiError> {
    let entries = crate::store::load_moves(conn, game_id, 0, i64::MAX)?;
    let replayed = replay(&entries)?;
    let stored = load_trades(conn, game_id, None)?;
    Ok(stored.len() == replayed.len() && stored.iter().all(|state| replayed.get(&state.offer_id) == Some(state)))
}

#[cfg(test)]
mod tests {
    use catan_engine::state::TradeOffer;

    use super::*;

    fn offer(id: u32, from: u8, to: &[u8]) -> Event {
        Event::TradeOffered {
            offer: TradeOffer {
                id,
                from: Seat(from),
                to: to.iter().map(|&s| Seat(s)).collect(),
                give: Resources::new(1, 0, 0, 0, 0),
                get: Resources::new(0, 1, 0, 0, 0),
                give_commodities: Commodities::NONE,
                get_commodities: Commodities::NONE,
                counter_to: None,
                accepted_by: Vec::new(),
                declined_by: Vec::new(),
            },
        }
    }

    fn status(book: &TradeBook, id: u32) -> TradeStatus {
        book[&id].status
    }

    #[test]
    fn answers_move_an_offer_between_open_accepted_and_declined() {
        let at = crate::store::now();
        let mut book = TradeBook::new();
        fold(&mut book, 2, at, &[offer(1, 0, &[1, 2])]);
        assert_eq!(status(&book, 1), TradeStatus::Open);
        fold(&mut book, 3, at, &[Event::TradeDeclined { offer_id: 1, seat: Seat(1) }]);
        assert_eq!(status(&book, 1), TradeStatus::Open, "seat 2 has not answered");
        fold(&mut book, 4, at, &[Event::TradeDeclined { offer_id: 1, seat: Seat(2) }]);
        assert_eq!(status(&book, 1), TradeStatus::Declined);
        fold(&mut book, 5, at, &[Event::TradeAccepted { offer_id: 1, seat: Seat(2) }]);
        assert_eq!(status(&book, 1), TradeStatus::Accepted);
        assert_eq!((book[&1].declined_by.clone(), book[&1].updated_seq), (vec![Seat(1)], 5));
    }

    /// Sides without commodities keep the stored format of resources; sides naming
    /// commodities (Cities & Knights) round-trip through the same column.
    #[test]
    fn offer_sides_are_stored_as_resources_or_as_cards() {
        let wool = Resources::new(0, 0, 2, 0, 0);
        let plain = side_json(&wool, &Commodities::NONE).unwrap();
        assert_eq!(plain, serde_json::to_string(&wool).unwrap());
        assert_eq!(parse_side(&plain).unwrap(), (wool, Commodities::NONE));
        let cloth = Commodities::new(0, 3, 0);
        let with_cloth = side_json(&wool, &cloth).unwrap();
        assert!(with_cloth.contains("\"commodities\""), "{with_cloth}");
        assert_eq!(parse_side(&with_cloth).unwrap(), (wool, cloth));
        assert_eq!(parse_side(&side_json(&Resources::ZERO, &cloth).unwrap()).unwrap(), (Resources::ZERO, cloth));
        assert!(parse_side(r#"{"gold": 1}"#).is_err());
    }

    #[test]
    fn closed_offers_stay_closed_and_the_game_end_expires_the_rest() {
        let at = crate::store::now();
        let mut book = TradeBook::new();
        fold(&mut book, 2, at, &[offer(1, 0, &[1]), offer(2, 0, &[1]), offer(3, 1, &[0])]);
        fold(
            &mut book,
            3,
            at,
            &[Event::TradeCompleted {
                offer_id: 1,
                from: Seat(0),
                with: Seat(1),
                give: Resources::new(1, 0, 0, 0, 0),
                get: Resources::new(0, 1, 0, 0, 0),
                give_commodities: Commodities::NONE,
                get_commodities: Commodities::NONE,
            }],
        );
        fold(&mut book, 4, at, &[Event::TradeWithdrawn { offer_id: 2 }]);
        fold(
            &mut book,
            5,
            at,
            &[Event::GameWon {
                seat: Seat(0),
                victory_points: 10,
                victory_point_cards: 0,
                condition: Default::default(),
            }],
        );
        assert_eq!(
            [status(&book, 1), status(&book, 2), status(&book, 3)],
            [TradeStatus::Completed, TradeStatus::Withdrawn, TradeStatus::Expired]
        );
        assert_eq!(book[&1].completed_with, Some(Seat(1)));
        assert_eq!((book[&1].updated_seq, book[&3].updated_seq), (3, 5));
        assert!(!fold(&mut book, 6, at, &[Event::TurnStarted { seat: Seat(1), turn: 9 }]));
    }
}
