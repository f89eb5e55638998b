//! Live games: waking the readers of a game's log when a move commits, in this process
//! ([`notify`]) and across the server processes on one PostgreSQL ([`feed`]). The handlers
//! that long-poll and stream are in [`crate::api`] (`moves`, `stream`).

pub mod feed;
pub mod notify;
