//! A domestic trade offer as the API shows it, and a game's list of them: built from the trade
//! book ([`crate::store::trades`]), the projection of the move log.

use catan_engine::{Commodities, Counts, Resources, Seat};
use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    store::trades::{TradeState, TradeStatus},
    views::utc,
};

/// An addressee's answer so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    Pending,
    Accepted,
    Declined,
}

/// One addressee and their answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct TradeResponseEntry {
    pub seat: Seat,
    pub answer: Answer,
}

/// A domestic trade offer and what became of it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[schema(example = json!({
    "id": 1, "from": 0, "to": [1, 2], "give": {"wool": 2}, "get": {"ore": 1},
    "status": "accepted",
    "responses": [{"seat": 1, "answer": "accepted"}, {"seat": 2, "answer": "pending"}],
    "accepted_by": [1], "declined_by": [], "completed_with": null,
    "offered_seq": 12, "updated_seq": 13,
    "created_at": "2026-11-30T12:00:00Z", "updated_at": "2026-11-30T12:00:05Z"
}))]
pub struct TradeResponse {
    /// The engine's offer id (per game, from 1): the `trade_id` of the URLs.
    pub id: u32,
    /// The offering seat.
    pub from: Seat,
    /// The seats it is offered to.
    pub to: Vec<Seat>,
    /// What the offerer gives.
    pub give: Resources,
    /// What the offerer wants.
    pub get: Resources,
    /// Commodities the offerer gives besides `give` (Cities & Knights; absent when none).
    #[serde(skip_serializing_if = "Counts::is_empty")]
    pub give_commodities: Commodities,
    /// Commodities the offerer wants besides `get` (Cities & Knights; absent when none).
    #[serde(skip_serializing_if = "Counts::is_empty")]
    pub get_commodities: Commodities,
    /// The offer this one answers, for a counter-offer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter_to: Option<u32>,
    /// `open`, `accepted` (open with at least one acceptance), `declined` (open, but every
    /// addressee declined), `completed`, `withdrawn` or `expired` (the turn or game ended).
    pub status: TradeStatus,
    /// Each addressee's answer.
    pub responses: Vec<TradeResponseEntry>,
    /// The seats that accepted, in order (the offerer may confirm with any of them).
    pub accepted_by: Vec<Seat>,
    pub declined_by: Vec<Seat>,
    /// The seat the trade was completed with.
    pub completed_with: Option<Seat>,
    /// The log entry that made the offer.
    pub offered_seq: i64,
    /// The log entry that last changed it.
    pub updated_seq: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl From<&TradeState> for TradeResponse {
    fn from(state: &TradeState) -> Self {
        let responses = state
            .to
            .iter()
            .map(|&seat| TradeResponseEntry {
                seat,
                answer: if state.accepted_by.contains(&seat) {
                    Answer::Accepted
                } else if state.declined_by.contains(&seat) {
                    Answer::Declined
                } else {
                    Answer::Pending
                },
            })
            .collect();
        TradeResponse {
            id: state.offer_id,
            from: state.from,
            to: state.to.clone(),
            give: state.give,
            get: state.get,
            give_commodities: state.give_commodities,
            get_commodities: state.get_commodities,
            counter_to: state.counter_to,
            status: state.status,
            responses,
            accepted_by: state.accepted_by.clone(),
            declined_by: state.declined_by.clone(),
            completed_with: state.completed_with,
            offered_seq: state.offered_seq,
            updated_seq: state.updated_seq,
            created_at: utc(state.created_at),
            updated_at: utc(state.updated_at),
        }
    }
}

/// A game's offers, oldest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct TradeListResponse {
    /// The game's version when read.
    pub version: i64,
    pub trades: Vec<TradeResponse>,
}
