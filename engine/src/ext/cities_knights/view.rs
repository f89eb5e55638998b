//! What every seat sees of Cities & Knights (CK-PC-6: progress cards as counts but for the
//! revealed VP cards; commodities are in the player and hand views).

use serde::{Deserialize, Serialize};

use super::{knights::Knight, metropolis::Metropolis, types::ProgressCards, CardTurn, Merchant, Track};
use crate::{board::VertexId, game::Game, model::Seat};

/// The barbarians, and each seat's improvements, knights and walls (Cities & Knights).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CitiesKnightsView {
    /// The barbarian ship's position: 0 at the start, attacking on reaching `barbarian_steps`
    /// (CK-BAR-1).
    pub barbarians: u8,
    pub barbarian_steps: u8,
    /// Attacks so far; before the first the robber waits (CK-BAR-10).
    pub attacks: u32,
    /// Whether the robber may move on a 7 yet (CK-BAR-10).
    pub robber_active: bool,
    pub seats: Vec<CitiesKnightsSeatView>,
    /// The progress cards left in each deck (CK-CMP-2).
    pub decks: Vec<DeckView>,
    /// The merchant and its holder, once a Merchant card placed it: the holder trades the
    /// hex's resource with the bank at 2:1 and has 1 point for it (CK-MER-1..3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merchant: Option<Merchant>,
    /// While a Spy's player chooses the card to take: the target's progress cards, shown to
    /// that player alone (CK-PC-6/7 Spy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spied: Option<SpiedCards>,
    /// What the active seat's cards played this turn leave in force: a Crane waiting for the
    /// next improvement, Merchant Fleets' goods at 2:1, a Commercial Harbor and the opponents
    /// it already reached (CK-PC-7); absent when nothing is.
    #[serde(default, skip_serializing_if = "CardTurn::is_unused")]
    pub in_force: CardTurn,
}

/// The progress cards a Spy shows its player (CK-PC-7 Spy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SpiedCards {
    pub target: Seat,
    pub cards: ProgressCards,
}

/// One seat's part of Cities & Knights, as everyone sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CitiesKnightsSeatView {
    pub seat: Seat,
    /// Levels by track: trade, politics, science (CK-IMP).
    pub improvements: [u8; 3],
    pub knights: Vec<Knight>,
    pub walls: Vec<VertexId>,
    /// Defender of Catan cards (1 point each, CK-BAR-6).
    pub defender_points: u32,
    /// Progress cards held (VP cards included).
    pub progress_card_count: u32,
    /// The VP progress cards, face up (CK-EVT-3).
    pub revealed_points: u32,
    /// The seat's metropolises, each on one of its cities (CK-MET-1).
    pub metropolises: Vec<Metropolis>,
    /// The points the metropolises add to their cities: 2 each (CK-MET-1).
    pub metropolis_points: u32,
    /// The cards themselves: for the seat itself, and for everyone once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress_cards: Option<ProgressCards>,
}

/// A progress deck and the cards left in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeckView {
    pub track: Track,
    pub cards_left: u32,
}

impl Game {
    /// The Cities & Knights part of the game as `viewer` (a seat, or `None`) sees it; `None`
    /// in other games.
    pub fn cities_and_knights_view(&self, viewer: Option<Seat>) -> Option<CitiesKnightsView> {
        self.cities_and_knights_view_as(viewer, self.is_over())
    }

    /// Like [`Game::cities_and_knights_view`], showing every seat's progress cards when
    /// `reveal` (see [`Game::view_revealed`]).
    pub(crate) fn cities_and_knights_view_as(&self, viewer: Option<Seat>, reveal: bool) -> Option<CitiesKnightsView> {
        if !self.config.cities_and_knights {
            return None;
        }
        let state = &self.ext.cities_knights;
        let seats = self
            .seats()
            .map(|seat| {
                let cards = self.progress_cards(seat);
                CitiesKnightsSeatView {
                    seat,
                    improvements: Track::ALL.map(|t| state.level(seat, t)),
                    knights: self.knights().iter().filter(|k| k.seat == seat).copied().collect(),
                    walls: state.walls.iter().filter(|(_, s)| *s == seat).map(|(v, _)| *v).collect(),
                    defender_points: self.defender_points(seat),
                    progress_card_count: cards.total(),
                    revealed_points: self.progress_points(seat),
                    metropolises: self.metropolises().iter().filter(|m| m.seat == seat).copied().collect(),
                    metropolis_points: self.metropolis_points(seat),
                    progress_cards: (viewer == Some(seat) || reveal).then_some(cards),
                }
            })
            .collect();
        let decks = self.progress_decks();
        let spied =
            match self.phase() {
                &crate::model::Phase::CardDecision {
                    decision: super::CardDecision::TakeProgressCard { seat, target },
                } if viewer == Some(seat) => Some(SpiedCards { target, cards: self.progress_cards(target) }),
                _ => None,
            };
        Some(CitiesKnightsView {
            barbarians: state.barbarians,
            barbarian_steps: self.config.barbarian_steps,
            attacks: state.attacks,
            robber_active: !self.config.robber_waits_for_first_attack || state.attacks > 0,
            seats,
            decks: Track::ALL
                .map(|track| DeckView { track, cards_left: super::progress::of_track(&decks, track).total() })
                .to_vec(),
            spied,
            merchant: state.merchant,
            in_force: state.card_turn.clone(),
        })
    }
}
