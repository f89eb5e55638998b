//! City improvements (CK-IMP): three tracks of five levels, level k costing k cards of the
//! track's commodity, built in order in one's own main phase while holding a city. Levels 4
//! and 5 need a city without a metropolis and may bring the track's metropolis
//! (`metropolis.rs`, CK-IMP-4, CK-MET). Level 3 abilities: trade 2:1 for commodities (`trade.rs`), mighty knights (`knights.rs`),
//! the Aqueduct (here).

use super::{metropolis, CitiesKnights, Track};
use crate::{
    board::VertexId,
    game::Game,
    model::{Commodities, Commodity, GoldSource, PendingGold, PerSeat, Phase, Seat},
    protocol::{Event, Move, RuleError},
};

/// The highest level of a track (CK-IMP-1).
pub(super) const TOP_LEVEL: u8 = 5;
/// The level that gives a track's ability (CK-IMP-5).
pub(super) const ABILITY_LEVEL: u8 = 3;

impl Track {
    pub const ALL: [Track; 3] = [Track::Trade, Track::Politics, Track::Science];

    /// The commodity the track is built with (CK-IMP-1).
    pub const fn commodity(self) -> Commodity {
        match self {
            Track::Trade => Commodity::Cloth,
            Track::Politics => Commodity::Coin,
            Track::Science => Commodity::Paper,
        }
    }
}

impl Game {
    /// `seat`'s level in `track` (CK-IMP-1); 0 outside C&K.
    pub fn improvement_level(&self, seat: Seat, track: Track) -> u8 {
        self.ext.cities_knights.level(seat, track)
    }
}

impl CitiesKnights {
    /// CK-IMP-2/3/4: the next level of `track`; with the track's metropolis when it brings it
    /// (CK-MET-1/3), onto `city`. A Crane played this turn takes one commodity off the cost
    /// (CK-PC-7); the `improvement_built` it lowers uses it up. The level's event, with the
    /// metropolis's when it brings one (no list: the listing asks for every track).
    pub(super) fn improvement(
        &self,
        game: &Game,
        seat: Seat,
        track: Track,
        city: Option<VertexId>,
    ) -> Result<(Event, Option<Event>), RuleError> {
        main_phase_of(game, seat)?;
        let level = game.improvement_level(seat, track) + 1;
        if level > TOP_LEVEL {
            return Err(RuleError::TrackComplete(track));
        }
        if game.player(seat).is_none_or(|p| p.cities_on_board() == 0) {
            return Err(RuleError::CityRequired);
        }
        metropolis::check_room(game, seat, track, level)?;
        // CK-PC-7 Crane: one commodity less for the next improvement this turn.
        let crane = u32::from(game.ext.cities_knights.card_turn.crane);
        let cost = Commodities::of(track.commodity(), u32::from(level).saturating_sub(crane));
        if !game.player(seat).is_some_and(|p| p.commodities().contains(&cost)) {
            return Err(RuleError::InsufficientResources);
        }
        let metropolis = metropolis::placement(game, seat, track, level, city)?;
        Ok((Event::ImprovementBuilt { seat, track, level, cost }, metropolis))
    }

    /// One move per track whose next level the seat may build; when it brings a metropolis,
    /// one per city it may go to.
    pub(super) fn improvement_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        for track in Track::ALL {
            match self.improvement(game, seat, track, None) {
                Ok(_) => moves.push(Move::BuildImprovement { track, city: None }),
                Err(RuleError::MetropolisCityRequired) => moves
                    .extend(game.free_cities(seat).map(|vertex| Move::BuildImprovement { track, city: Some(vertex) })),
                Err(_) => {}
            }
        }
    }

    /// CK-IMP-5 (Aqueduct): after a production roll, each seat with Science 3 that took no
    /// resource and no commodity chooses one resource from the bank, in turn order from the
    /// active seat; `produced` are the events of the roll. Returns the seats that choose, as
    /// many as the bank can serve, each to be given its [`aqueduct_choice`] phase.
    pub(super) fn aqueduct_choosers(&self, game: &Game, produced: &[Event]) -> PerSeat<Seat> {
        let took = |seat: Seat| {
            produced.iter().any(|e| match e {
                Event::ResourcesProduced { gains, .. } => gains.iter().any(|g| g.seat == seat),
                Event::CommoditiesProduced { gains, .. } => gains.iter().any(|g| g.seat == seat),
                // Gold fields' cards, chosen before production (SEA-9).
                Event::PhaseChanged { phase: Phase::GoldChoice { pending, .. }, .. } => {
                    pending.iter().any(|p| p.seat == seat)
                }
                _ => false,
            })
        };
        let mut bank = game.bank().total();
        for event in produced {
            if let Event::ResourcesProduced { gains, .. } = event {
                bank = bank.saturating_sub(gains.iter().map(|g| g.resources.total()).sum());
            }
        }
        let mut choosers = PerSeat::new();
        let mut seat = game.turn_active();
        for _ in 0..game.player_count() {
            if bank > 0 && game.improvement_level(seat, Track::Science) >= ABILITY_LEVEL && !took(seat) {
                bank -= 1;
                // Fits: one entry per seat.
                let _ = choosers.try_push(seat);
            }
            seat = game.next_seat(seat);
        }
        choosers
    }
}

/// CK-IMP-5: the phase in which `seat` chooses its Aqueduct resource.
pub(super) fn aqueduct_choice(seat: Seat) -> Phase {
    Phase::GoldChoice {
        roll: 0,
        pending: PerSeat::one(PendingGold { seat, count: 1 }),
        chosen: Vec::new(),
        source: GoldSource::Aqueduct,
    }
}

/// Where knights are recruited, promoted and activated: the active seat's main phase, and a
/// seat's own special building phase with the 5-6 player extension (X56-11).
pub(super) fn building_phase_of(game: &Game, seat: Seat) -> Result<(), RuleError> {
    match game.phase() {
        Phase::SpecialBuilding { seat: builder } if *builder == seat => Ok(()),
        _ => main_phase_of(game, seat),
    }
}

/// The active seat's main phase: where C&K's builds and actions happen.
pub(super) fn main_phase_of(game: &Game, seat: Seat) -> Result<(), RuleError> {
    if seat != game.turn_active() {
        return Err(RuleError::NotYourTurn { active: game.turn_active() });
    }
    match game.phase() {
        Phase::Main => Ok(()),
        Phase::PreRoll => Err(RuleError::MustRollFirst),
        _ => Err(RuleError::WrongPhase("this is done in the main phase of your turn")),
    }
}
