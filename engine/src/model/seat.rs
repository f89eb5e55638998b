use std::fmt;

use serde::{Deserialize, Serialize};

/// A seat at the table, 0..N-1 in clockwise order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat as one bit of a set of seats (seats are 0..6; a larger one is in no set).
    pub(crate) fn bit(self) -> u16 {
        1u16.checked_shl(u32::from(self.0)).unwrap_or(0)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
