//! The board as a picture (`GET /api/v1/games/{game_id}/board.svg`): drawn from the game
//! resource a caller may see ([`crate::views::game::GameResponse`]), never from the engine's
//! state, so that nothing hidden can reach it (fog stays fog, no hand is drawn).
//!
//! [`geometry`] places hexes, vertices and edges; [`svg`] writes well-formed SVG; [`draw`]
//! decides what is drawn where, with the stable markers pages and tests select on
//! (`class="hex"` with `data-hex`, `class="road"` with `data-seat` and `data-edge`, ...).

mod draw;
pub mod geometry;
pub(crate) mod svg;

pub use draw::board_svg;

/// The media type of the pictures.
pub const SVG_MEDIA_TYPE: &str = "image/svg+xml";
