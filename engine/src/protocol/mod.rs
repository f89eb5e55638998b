//! The wire types: moves clients send, events the log stores, rule errors with stable codes,
//! and the versioned storage format with its upcasters.

mod error;
mod event_records;
mod events;
mod moves;
mod redaction;
pub mod versioned;
pub(crate) mod views;

pub use error::{RuleError, SetupError};
pub use events::{Event, SeatCommodities, SeatCount, SeatResources, StartingRoll, VictoryCondition, Viewer};
pub use moves::{Bandit, Move};

/// The variants' wire types the shared model names (a phase of Cities & Knights).
pub use crate::ext::cities_knights::types::CardDecision;

/// Declares an enum whose variants each name their stable snake_case tag once, next to the
/// variant, and derives the `$kind` method returning it: a new move, event or error is one
/// edit, never a second table. With `serde` first, the tag is also the variant's serde name.
macro_rules! tagged_enum {
    (
        serde
        $(#[$meta:meta])*
        pub enum $name:ident => fn $kind:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident = $tag:literal $(( $($tuple:tt)* ))? $({ $($fields:tt)* })?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        pub enum $name {
            $(
                $(#[$vmeta])*
                #[serde(rename = $tag)]
                $variant $(( $($tuple)* ))? $({ $($fields)* })?,
            )*
        }
        tagged_enum!(@kind $name $kind $($variant $tag)*);
    };
    (
        $(#[$meta:meta])*
        pub enum $name:ident => fn $kind:ident {
            $(
                $(#[$vmeta:meta])*
                $variant:ident = $tag:literal $(( $($tuple:tt)* ))? $({ $($fields:tt)* })?
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        pub enum $name {
            $(
                $(#[$vmeta])*
                $variant $(( $($tuple)* ))? $({ $($fields)* })?,
            )*
        }
        tagged_enum!(@kind $name $kind $($variant $tag)*);
    };
    (@kind $name:ident $kind:ident $($variant:ident $tag:literal)*) => {
        impl $name {
            /// Every variant's stable snake_case name, in declaration order.
            pub const TAGS: &'static [&'static str] = &[$($tag),*];

            /// Returns the variant's stable snake_case name.
            pub const fn $kind(&self) -> &'static str {
                match self {
                    $( $name::$variant { .. } => $tag, )*
                }
            }
        }
    };
}
pub(crate) use tagged_enum;
