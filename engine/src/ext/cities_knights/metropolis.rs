//! Metropolises (CK-MET): the first seat to build level 4 in a track puts that track's
//! metropolis on one of its cities without one (+2 points, CK-MET-1); a city holds one at
//! most, so levels 4 and 5 need a city without a metropolis unless the seat builds level 5
//! of a track whose metropolis it holds (CK-MET-2, CK-IMP-4). The first to level 5 while the
//! holder is at 4 takes it onto one of its own cities (CK-MET-3); at 5 the holder keeps it
//! for good (CK-MET-4). The barbarians never pillage a metropolis (CK-MET-5, `barbarians.rs`).

pub use super::types::Metropolis;

use super::Track;
use crate::{
    board::VertexId,
    game::Game,
    model::Seat,
    protocol::{Event, RuleError},
};

/// The highest level of a track, the one that keeps a metropolis for good (CK-MET-4).
const TOP_LEVEL: u8 = super::improvements::TOP_LEVEL;
/// The level that brings a track's metropolis (CK-MET-1).
pub(super) const METROPOLIS_LEVEL: u8 = 4;
/// What a metropolis adds to its city's 2 points (CK-MET-1, CK-WIN-2).
pub(super) const METROPOLIS_POINTS: u32 = 2;

impl Game {
    /// The metropolises on the board (CK-MET), at most one per track.
    pub fn metropolises(&self) -> &[Metropolis] {
        &self.ext.cities_knights.metropolises
    }

    /// The metropolis of `track`, if someone holds it.
    pub fn metropolis(&self, track: Track) -> Option<&Metropolis> {
        self.metropolises().iter().find(|m| m.track == track)
    }

    /// The track whose metropolis the city on `vertex` carries, if any.
    pub fn metropolis_at(&self, vertex: VertexId) -> Option<Track> {
        self.metropolises().iter().find(|m| m.vertex == vertex).map(|m| m.track)
    }

    /// `seat`'s cities that carry no metropolis: those a metropolis may go to (CK-MET-2) and
    /// those the barbarians may pillage (CK-MET-5).
    pub fn cities_without_metropolis(&self, seat: Seat) -> Vec<VertexId> {
        self.free_cities(seat).collect()
    }

    /// [`Game::cities_without_metropolis`] walked, not collected (for the rolls and listings).
    pub(super) fn free_cities(&self, seat: Seat) -> impl Iterator<Item = VertexId> + '_ {
        self.cities_of(seat).filter(|&v| self.metropolis_at(v).is_none())
    }

    /// The points `seat`'s metropolises add to their cities (CK-MET-1).
    pub fn metropolis_points(&self, seat: Seat) -> u32 {
        METROPOLIS_POINTS * self.metropolises().iter().filter(|m| m.seat == seat).count() as u32
    }
}

/// What building `level` of `track` does to the track's metropolis, for `seat` (checked: the
/// level is the seat's next and affordable).
pub(super) enum Outcome {
    /// No metropolis comes with the level.
    None,
    /// The seat takes the metropolis (from its holder, if any) onto a city it must name.
    Takes { holder: Option<(Seat, VertexId)> },
}

/// CK-IMP-4 / CK-MET-2: whether `seat` may build `level` of `track` at all, as far as its
/// cities with and without metropolises go.
pub(super) fn check_room(game: &Game, seat: Seat, track: Track, level: u8) -> Result<(), RuleError> {
    if level < METROPOLIS_LEVEL {
        return Ok(());
    }
    let keeps_own = level == TOP_LEVEL && game.metropolis(track).is_some_and(|m| m.seat == seat);
    if !keeps_own && game.free_cities(seat).next().is_none() {
        return Err(RuleError::CityWithoutMetropolisRequired);
    }
    Ok(())
}

/// CK-MET-1/3/4: whether `seat` building `level` of `track` takes the metropolis: the first
/// to level 4, or the first to level 5 while the holder is at 4 (a holder at 5 keeps it).
pub(super) fn outcome(game: &Game, seat: Seat, track: Track, level: u8) -> Outcome {
    if level < METROPOLIS_LEVEL {
        return Outcome::None;
    }
    match game.metropolis(track) {
        None => Outcome::Takes { holder: None },
        Some(m) if m.seat != seat && game.improvement_level(m.seat, track) < level => {
            Outcome::Takes { holder: Some((m.seat, m.vertex)) }
        }
        Some(_) => Outcome::None,
    }
}

/// The metropolis event of a build, checking the city the seat names (`city`): required when
/// the build brings the metropolis, and one of its cities without a metropolis; refused when
/// the build brings none.
pub(super) fn placement(
    game: &Game,
    seat: Seat,
    track: Track,
    level: u8,
    city: Option<VertexId>,
) -> Result<Option<Event>, RuleError> {
    match (outcome(game, seat, track, level), city) {
        (Outcome::None, None) => Ok(None),
        (Outcome::None, Some(_)) => Err(RuleError::NoMetropolisToPlace),
        (Outcome::Takes { .. }, None) => Err(RuleError::MetropolisCityRequired),
        (Outcome::Takes { holder }, Some(vertex)) => {
            game.board().vertex(vertex).ok_or(RuleError::UnknownVertex(vertex))?;
            if !game.cities_of(seat).any(|v| v == vertex) {
                return Err(RuleError::NotYourCity(vertex));
            }
            if game.metropolis_at(vertex).is_some() {
                return Err(RuleError::CityHasMetropolis(vertex));
            }
            Ok(Some(match holder {
                None => Event::MetropolisPlaced { seat, track, vertex },
                Some((from_seat, from)) => Event::MetropolisMoved { seat, track, from_seat, from, to: vertex },
            }))
        }
    }
}
