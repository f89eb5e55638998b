//! What every seat sees of Cities & Knights (CK-PC-6: progress cards as counts but for the
//! revealed VP cards; commodities are in the player and hand views).

pub use super::types::{CitiesKnightsSeatView, CitiesKnightsView, DeckView, SpiedCards};
use super::Track;
use crate::{game::Game, model::Seat};

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
