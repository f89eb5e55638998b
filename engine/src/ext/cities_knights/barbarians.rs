//! The barbarians (CK-BAR): the ship advances on the event die and attacks on arriving.
//! Barbarian strength is the cities on the board (a metropolis is one city), Catan's the
//! active knights; Catan wins ties. The single strongest defender takes a Defender of Catan
//! point; tied strongest defenders each draw a progress card of a deck they choose. If the
//! barbarians win, the weakest defenders among the seats with a city without a metropolis
//! each lose one of those (their choice when they have several), its wall with it; a
//! metropolis is never pillaged (CK-MET-5). Every attack deactivates every knight and sends the ship back.

use super::{CitiesKnights, Track};
use crate::model::PushInPlace;
use crate::{
    board::VertexId,
    game::Game,
    model::{BuildingKind, PerSeat, Phase, Seat, MAX_SEATS},
    protocol::{Event, RuleError, SeatCount},
};

impl Game {
    /// The cities `seat` has on the board, by vertex, in board order (walked, not collected:
    /// rolls and listings ask for them).
    pub(super) fn cities_of(&self, seat: Seat) -> impl Iterator<Item = VertexId> + '_ {
        self.buildings
            .iter()
            .enumerate()
            .filter(move |(_, b)| b.is_some_and(|b| b.seat == seat && b.kind == BuildingKind::City))
            .map(|(v, _)| self.board.vertices[v])
    }

    /// CK-BAR-8: the pillaged city becomes a settlement (its piece back to the supply, a
    /// settlement piece from it); its wall goes with it (in the extension's state).
    pub(crate) fn apply_pillage(&mut self, seat: Seat, vertex: VertexId) {
        let Some(v) = self.board.vertex(vertex) else { return };
        let city = crate::model::Building { seat, kind: BuildingKind::City };
        if self.buildings[v as usize] != Some(city) {
            return;
        }
        self.buildings[v as usize] = Some(crate::model::Building { seat, kind: BuildingKind::Settlement });
        let player = &mut self.players[seat.index()];
        player.pieces_left.cities = (player.pieces_left.cities + 1).min(player.supply.cities);
        if player.pieces_left.settlements > 0 {
            player.pieces_left.settlements -= 1;
        } else {
            // CK-BAR-8: no settlement piece left: the vertex counts as a settlement anyway.
            self.ext.cities_knights.pillaged.push(vertex);
        }
    }

    /// Defender of Catan cards (points) `seat` holds (CK-BAR-6).
    pub fn defender_points(&self, seat: Seat) -> u32 {
        self.ext.cities_knights.defenders.get(seat.index()).copied().unwrap_or(0)
    }
}

impl CitiesKnights {
    /// CK-BAR-2: a ship on the event die moves the barbarians one step closer to Catan;
    /// arriving, they attack at once (CK-TURN-3). Appends the advance, and on arrival the
    /// attack with its rewards or losses, to `events`; returns the phase of the decisions the
    /// attack asks for, if any, before the number dice (`roll`) are resolved.
    pub(super) fn advance(&self, game: &Game, roll: u8, events: &mut Vec<Event>) -> Option<Phase> {
        let position = game.ext.cities_knights.barbarians.saturating_add(1);
        events.push_in_place(|| Event::BarbariansAdvanced { position: position.min(self.barbarian_steps) });
        if position < self.barbarian_steps {
            return None;
        }
        // CK-BAR-3: every city, a metropolis counting as one.
        let strength: u32 = game.seats().map(|s| game.player(s).map_or(0, |p| p.cities_on_board())).sum();
        // Each seat's knights on the stack, and the event's list inline.
        let mut strengths = [0u32; MAX_SEATS];
        for seat in game.seats().take(MAX_SEATS) {
            strengths[seat.index()] = game.active_knight_strength(seat);
        }
        let contributions: PerSeat<SeatCount> =
            game.seats().take(MAX_SEATS).map(|seat| SeatCount { seat, count: strengths[seat.index()] }).collect();
        let defence: u32 = contributions.iter().map(|c| c.count).sum();
        let best = contributions.iter().map(|c| c.count).max().unwrap_or(0);
        events.push(Event::BarbariansAttacked { strength, defence, contributions });
        let of = |seat: Seat| strengths.get(seat.index()).copied().unwrap_or(0);
        let mut pending = None;
        if defence >= strength {
            // CK-BAR-6: the single strongest defender, or the tied ones' draws; nobody at 0.
            let strongest: PerSeat<Seat> = turn_order(game).filter(|&s| best > 0 && of(s) == best).collect();
            match strongest[..] {
                [] => {}
                [seat] => events.push(Event::DefenderOfCatan { seat }),
                _ if game.progress_decks().is_empty() => {}
                _ => pending = Some(Phase::DefenderDraw { pending: strongest, roll }),
            }
        } else {
            // CK-BAR-7, CK-MET-5: among seats with a city without a metropolis, the weakest
            // lose one of those; seats with metropolises only are no weakest.
            let eligible: PerSeat<Seat> = turn_order(game).filter(|&s| game.free_cities(s).next().is_some()).collect();
            let weakest = eligible.iter().map(|&s| of(s)).min().unwrap_or(0);
            let mut choosing = PerSeat::<Seat>::new();
            for &seat in eligible.iter().filter(|&&s| of(s) == weakest) {
                let mut cities = game.free_cities(seat);
                match (cities.next(), cities.next()) {
                    (Some(vertex), None) => events.push(Event::CityPillaged { seat, vertex }),
                    _ => {
                        let _ = choosing.try_push(seat);
                    }
                }
            }
            if !choosing.is_empty() {
                pending = Some(Phase::LoseCity { pending: choosing, roll });
            }
        }
        pending
    }

    /// CK-BAR-7: a seat that loses a city and has several without a metropolis chooses which
    /// (CK-MET-5).
    pub(super) fn decide_lose_city(
        &self,
        game: &Game,
        seat: Seat,
        vertex: VertexId,
        pending: &[Seat],
        roll: u8,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if !pending.contains(&seat) {
            return Err(RuleError::NothingToDecide);
        }
        if !game.cities_of(seat).any(|v| v == vertex) {
            return Err(RuleError::NotYourCity(vertex));
        }
        if game.metropolis_at(vertex).is_some() {
            return Err(RuleError::MetropolisNotPillaged(vertex));
        }
        let pillaged = Event::CityPillaged { seat, vertex };
        let rest: PerSeat<Seat> = pending.iter().copied().filter(|&s| s != seat).collect();
        self.after_decision(
            game,
            pillaged,
            &rest,
            |rest| Phase::LoseCity { pending: rest.iter().copied().collect(), roll },
            roll,
            events,
        );
        Ok(())
    }

    /// CK-BAR-6: a tied strongest defender draws the top card of the deck it chooses.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn decide_defender_draw(
        &self,
        game: &Game,
        seat: Seat,
        track: Track,
        pending: &[Seat],
        roll: u8,
        chance: &mut dyn crate::chance::Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        if pending.first() != Some(&seat) {
            return Err(if pending.contains(&seat) {
                RuleError::NotYourTurn { active: pending[0] }
            } else {
                RuleError::NothingToDecide
            });
        }
        let mut deck = super::progress::Deck::of(&game.ext.cities_knights, track);
        let Some(card) = deck.draw(chance) else {
            return Err(RuleError::DeckEmpty);
        };
        let drawn = Event::ProgressCardDrawn { seat, track, card: Some(card) };
        // Nobody draws from three empty decks.
        let left = game.progress_decks().total() - 1;
        let rest = if left == 0 { &[][..] } else { &pending[1..] };
        self.after_decision(
            game,
            drawn,
            rest,
            |rest| Phase::DefenderDraw { pending: rest.iter().copied().collect(), roll },
            roll,
            events,
        );
        Ok(())
    }

    /// The decision's event, then the rest of the decisions, or once all are made the number
    /// dice of the roll that brought the barbarians (CK-TURN-3).
    fn after_decision(
        &self,
        game: &Game,
        decided: Event,
        rest: &[Seat],
        phase: impl FnOnce(&[Seat]) -> Phase,
        roll: u8,
        events: &mut Vec<Event>,
    ) {
        if !rest.is_empty() {
            events.extend([decided, game.continue_with(phase(rest))]);
            return;
        }
        game.with_copy(|after| {
            after.apply(&decided);
            events.push(decided);
            self.number_dice_into(after, roll, events);
        });
    }
}

/// The seats from the active one, clockwise (CK-BAR-6: the order of the tied draws).
fn turn_order(game: &Game) -> impl Iterator<Item = Seat> + '_ {
    std::iter::successors(Some(game.turn_active()), |&seat| Some(game.next_seat(seat)))
        .take(usize::from(game.player_count()))
}
