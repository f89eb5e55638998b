use serde::{Deserialize, Serialize};

use super::{PerSeat, Seat};
use crate::{
    board::{HarbourKind, VertexId},
    protocol::SeatResources,
};

pub use crate::protocol::CardDecision;

/// The step within one setup placement (B-SET-4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum SetupStep {
    PlaceSettlement,
    /// The road must touch the settlement just placed.
    PlaceRoad {
        settlement: VertexId,
    },
}

/// A seat that must discard on a 7, and how many cards (B-ROB-1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingDiscard {
    pub seat: Seat,
    pub count: u32,
}

/// A seat that must choose resources for gold production, and how many (RIV-5, SEA-9).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PendingGold {
    pub seat: Seat,
    // A `u16` (no seat is owed more than the bank holds), so that the phase, held inline in
    // every `phase_changed` event, stays as small as a discard's (a comment, not a doc: the
    // spec shows the field as before).
    #[cfg_attr(feature = "openapi", schema(value_type = u32))]
    pub count: u16,
}

impl PendingGold {
    /// The cards owed, as the hands count them.
    pub fn cards(&self) -> u32 {
        u32::from(self.count)
    }
}

/// Why gold is being chosen: what a roll produced (paid once every owner has chosen), or a
/// single seat's cards of free choice for its second setup settlement or a gold hex it
/// discovered (SEA-9, SEA-13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum GoldSource {
    #[default]
    Production,
    Setup,
    Discovery,
    /// Cities & Knights' Aqueduct: a seat with Science 3 that took nothing on a roll takes
    /// one resource of its choice (CK-IMP-5).
    Aqueduct,
    /// The Pirate Islands: a seat with more warships than the fleet's strength takes one
    /// resource of its choice; on a 7 before the discards, which are worked out once it is
    /// taken (PIR-14).
    Fleet,
}

impl GoldSource {
    pub fn is_production(&self) -> bool {
        *self == GoldSource::Production
    }
}

/// What the game waits for now (RULES.md 4.1). Serialized with a `name` tag.
///
/// Phases nest: a decision (a discard, moving the robber, free roads, a gold choice) may
/// interrupt another phase, which resumes once it is made. The game keeps the interrupted
/// phases in order (see `GameView.turn.then`), so an interrupt inside an interrupt needs no
/// special case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "name", rename_all = "snake_case")]
pub enum Phase {
    /// Initial placement, `placement` counting 0..2N along the snake (B-SET-3).
    Setup { seat: Seat, placement: u8, step: SetupStep },
    /// Before the roll: roll, or play a Knight (B-TURN-2).
    PreRoll,
    /// A 7 was rolled; these seats still owe a discard (B-ROB-1).
    Discard {
        // Inline (one entry per seat at most), so that a 7 allocates nothing.
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<PendingDiscard>))]
        pending: PerSeat<PendingDiscard>,
    },
    /// The active player must move the robber (B-ROB-2).
    MoveRobber,
    /// Trade, build, buy, play, end the turn (B-TURN-5).
    Main,
    /// Placing the free roads of a Road Building card (B-DEV-5).
    RoadBuilding { roads_left: u8 },
    /// Gold was rolled: these seats still choose their cards; production is paid once all
    /// have chosen (RIV-5, SEA-9). With another `source`, one seat chooses cards it receives
    /// at once (`roll` is then 0).
    GoldChoice {
        roll: u8,
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<PendingGold>))]
        pending: PerSeat<PendingGold>,
        chosen: Vec<SeatResources>,
        #[serde(default, skip_serializing_if = "GoldSource::is_production")]
        source: GoldSource,
    },
    /// A special building phase for `seat` after the active player's turn (X56-8).
    SpecialBuilding { seat: Seat },
    /// The game has ended (B-WIN-4).
    GameOver,
    /// The barbarians won: these seats each choose which of their cities they lose; then the
    /// number dice `roll` are resolved (Cities & Knights, CK-BAR-7, CK-TURN-3).
    LoseCity {
        // Inline (one entry per seat at most), so that an attack allocates no list.
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<Seat>))]
        pending: PerSeat<Seat>,
        roll: u8,
    },
    /// Tied strongest defenders each draw a progress card from a deck they choose, in turn
    /// order; then the number dice `roll` are resolved (Cities & Knights, CK-BAR-6).
    DefenderDraw {
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<Seat>))]
        pending: PerSeat<Seat>,
        roll: u8,
    },
    /// A knight of `seat` (of `rank`, `active` or not) was displaced from `vertex` by a
    /// stronger one: its owner chooses an empty vertex connected to `vertex` by its roads;
    /// then the phases that follow resume (Cities & Knights, CK-KNT-7).
    RelocateKnight { seat: Seat, vertex: VertexId, rank: u8, active: bool },
    /// A progress card waits for seats' decisions, which `decision` describes; then the
    /// phases that follow resume (Cities & Knights, CK-PC-5/7).
    CardDecision { decision: CardDecision },
    /// `seat` claimed a gift harbour (or has one kept for later and now a spot for it) and
    /// places it at its own coast before anything else (The Forgotten Tribe, FTR-10/12).
    PlaceGiftHarbour { seat: Seat, kind: HarbourKind },
    /// Before setup, `seat` places the harbour it drew, of `kind` (The New World with
    /// `new_world_harbours = players_place`, NEW-11).
    PlaceHarbour { seat: Seat, kind: HarbourKind },
    /// The pirate's victim holds cloth and resources: the active seat chooses which to take;
    /// then the phases that follow resume (Cloth for Catan, CLV-12).
    ChooseStealKind { victim: Seat },
    /// After a 7 (and its discards), the active player may take one random card from any
    /// opponent holding one, or from nobody (The Pirate Islands, PIR-10).
    StealAny,
}

impl Phase {
    /// Returns the snake_case name, as in the JSON `name` tag.
    pub const fn name(&self) -> &'static str {
        match self {
            Phase::Setup { .. } => "setup",
            Phase::PreRoll => "pre_roll",
            Phase::Discard { .. } => "discard",
            Phase::MoveRobber => "move_robber",
            Phase::Main => "main",
            Phase::RoadBuilding { .. } => "road_building",
            Phase::GoldChoice { .. } => "gold_choice",
            Phase::SpecialBuilding { .. } => "special_building",
            Phase::GameOver => "game_over",
            Phase::LoseCity { .. } => "lose_city",
            Phase::DefenderDraw { .. } => "defender_draw",
            Phase::RelocateKnight { .. } => "relocate_knight",
            Phase::CardDecision { .. } => "card_decision",
            Phase::PlaceGiftHarbour { .. } => "place_gift_harbour",
            Phase::PlaceHarbour { .. } => "place_harbour",
            Phase::ChooseStealKind { .. } => "choose_steal_kind",
            Phase::StealAny => "steal_any",
        }
    }

    /// Returns the seats this phase waits for, given the seat whose turn it is.
    pub fn deciders(&self, active: Seat) -> Vec<Seat> {
        match self {
            Phase::GameOver => Vec::new(),
            Phase::Setup { seat, .. }
            | Phase::SpecialBuilding { seat }
            | Phase::RelocateKnight { seat, .. }
            | Phase::PlaceGiftHarbour { seat, .. }
            | Phase::PlaceHarbour { seat, .. } => vec![*seat],
            Phase::Discard { pending } => pending.iter().map(|p| p.seat).collect(),
            Phase::GoldChoice { pending, .. } => pending.iter().map(|p| p.seat).collect(),
            Phase::LoseCity { pending, .. } => pending.to_vec(),
            Phase::DefenderDraw { pending, .. } => pending.first().copied().into_iter().collect(),
            Phase::CardDecision { decision } => decision.deciders(active),
            Phase::PreRoll | Phase::MoveRobber | Phase::Main | Phase::RoadBuilding { .. } | Phase::StealAny => {
                vec![active]
            }
            Phase::ChooseStealKind { .. } => vec![active],
        }
    }

    /// Returns the first seat this phase waits for (the one a driver asks next).
    pub fn first_decider(&self, active: Seat) -> Option<Seat> {
        match self {
            Phase::GameOver => None,
            Phase::Setup { seat, .. }
            | Phase::SpecialBuilding { seat }
            | Phase::RelocateKnight { seat, .. }
            | Phase::PlaceGiftHarbour { seat, .. }
            | Phase::PlaceHarbour { seat, .. } => Some(*seat),
            Phase::Discard { pending } => pending.first().map(|p| p.seat),
            Phase::GoldChoice { pending, .. } => pending.first().map(|p| p.seat),
            Phase::LoseCity { pending, .. } | Phase::DefenderDraw { pending, .. } => pending.first().copied(),
            Phase::CardDecision { decision } => decision.first_decider(),
            Phase::PreRoll | Phase::MoveRobber | Phase::Main | Phase::RoadBuilding { .. } | Phase::StealAny => {
                Some(active)
            }
            Phase::ChooseStealKind { .. } => Some(active),
        }
    }

    /// Tests if the phase lies between two turns, when nobody can win (B-WIN-3, X56-9).
    pub const fn is_between_turns(&self) -> bool {
        matches!(self, Phase::Setup { .. } | Phase::SpecialBuilding { .. } | Phase::PlaceHarbour { .. })
    }
}

/// The turn in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Turn {
    /// 0 during setup; 1 for the first normal turn.
    pub number: u32,
    pub active: Seat,
    pub rolled: bool,
    pub last_roll: Option<(u8, u8)>,
    pub dev_card_played: bool,
    /// Whether the active player has built or bought this turn (for B-TURN-6's flag).
    pub built_or_bought: bool,
}

impl Turn {
    pub(crate) fn new(number: u32, active: Seat) -> Self {
        Turn { number, active, rolled: false, last_roll: None, dev_card_played: false, built_or_bought: false }
    }
}
