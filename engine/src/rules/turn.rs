//! Rolling, production with the bank-shortage rule, discards on a 7, ending the turn
//! (B-TURN, B-PROD, B-ROB-1).

use crate::{
    board::Terrain,
    chance::Chance,
    error::RuleError,
    events::{Event, SeatCount, SeatResources},
    resources::{Resource, Resources},
    state::{BuildingKind, Game, PendingDiscard, PendingGold, Phase, Seat},
};

/// Cards a building takes from a producing hex (B-PROD-1).
fn building_yield(kind: BuildingKind) -> u32 {
    match kind {
        BuildingKind::Settlement => 1,
        BuildingKind::City => 2,
    }
}

/// Hands above this many cards must discard on a 7 (B-ROB-1).
const DISCARD_LIMIT: u32 = 7;

impl Game {
    pub(super) fn decide_roll(&self, seat: Seat, chance: &mut impl Chance) -> Vec<Event> {
        let (red, white) = chance.roll_dice();
        let (red, white) = (red.clamp(1, 6), white.clamp(1, 6));
        let mut events = vec![Event::DiceRolled { seat, red, white }];
        let roll = red + white;
        if roll == 7 {
            events.push(Event::PhaseChanged { phase: self.phase_after_seven() });
            return events;
        }
        let gold = self.gold_owed(roll);
        if gold.is_empty() {
            events.push(self.production(roll, &[]));
            events.push(Event::PhaseChanged { phase: Phase::Main });
        } else {
            // RIV-5/SEA-9: production waits until every gold owner has chosen.
            events.push(Event::PhaseChanged { phase: Phase::GoldChoice { roll, pending: gold, chosen: Vec::new() } });
        }
        events
    }

    /// RIV-5: cards of free choice owed for gold hexes with number `roll`.
    fn gold_owed(&self, roll: u8) -> Vec<PendingGold> {
        if self.config.big_river && !self.config.river_gold_produces {
            return Vec::new();
        }
        let mut owed = vec![0u32; self.players.len()];
        for &h in &self.board.hexes_by_number[roll as usize] {
            if Some(h) == self.robber || self.board.terrain[h as usize] != Terrain::Gold {
                continue;
            }
            for building in self.buildings_around(h) {
                owed[building.seat.index()] += building_yield(building.kind);
            }
        }
        owed.iter()
            .enumerate()
            .filter(|(_, &count)| count > 0)
            .map(|(i, &count)| PendingGold { seat: Seat(i as u8), count })
            .collect()
    }

    fn buildings_around(&self, h: u8) -> impl Iterator<Item = crate::state::Building> + '_ {
        self.board.hex_vertices[h as usize].iter().filter_map(|&v| self.buildings.get(v as usize).copied().flatten())
    }

    pub(super) fn decide_gold_choice(
        &self,
        seat: Seat,
        roll: u8,
        pending: &[PendingGold],
        chosen: &[SeatResources],
        resources: &Resources,
    ) -> Result<Vec<Event>, RuleError> {
        let Some(owed) = pending.iter().find(|p| p.seat == seat) else {
            return Err(RuleError::NothingToDecide);
        };
        if resources.total() != owed.count {
            return Err(RuleError::WrongGoldCount { required: owed.count });
        }
        let rest: Vec<PendingGold> = pending.iter().copied().filter(|p| p.seat != seat).collect();
        let mut chosen = chosen.to_vec();
        chosen.push(SeatResources { seat, resources: *resources });
        if rest.is_empty() {
            Ok(vec![self.production(roll, &chosen), Event::PhaseChanged { phase: Phase::Main }])
        } else {
            Ok(vec![Event::PhaseChanged { phase: Phase::GoldChoice { roll, pending: rest, chosen } }])
        }
    }

    /// B-ROB-1: everyone above the limit discards half, rounded down; then the robber moves.
    fn phase_after_seven(&self) -> Phase {
        let pending: Vec<PendingDiscard> = self
            .seats()
            .filter_map(|seat| {
                let held = self.players[seat.index()].resources.total();
                (held > DISCARD_LIMIT).then_some(PendingDiscard { seat, count: held / 2 })
            })
            .collect();
        if pending.is_empty() {
            Phase::MoveRobber
        } else {
            Phase::Discard { pending }
        }
    }

    /// B-PROD-1..4, JUN-4: what every seat receives for `roll`, with the cards already
    /// chosen for gold (the bank-shortage rule covers them too, SEA-9).
    pub(crate) fn production(&self, roll: u8, gold: &[SeatResources]) -> Event {
        let mut owed = vec![Resources::ZERO; self.players.len()];
        let mut found = vec![0u32; self.players.len()];
        for &h in &self.board.hexes_by_number[roll as usize] {
            if Some(h) == self.robber {
                continue; // B-PROD-2, JUN-3
            }
            let terrain = self.board.terrain[h as usize];
            for building in self.buildings_around(h) {
                let amount = building_yield(building.kind);
                match terrain.resource() {
                    Some(resource) => *owed[building.seat.index()].get_mut(resource) += amount,
                    None if terrain == Terrain::Jungle => found[building.seat.index()] += amount,
                    None => {}
                }
            }
        }
        for choice in gold {
            owed[choice.seat.index()] += choice.resources;
        }
        let mut shortages = Vec::new();
        for resource in Resource::ALL {
            let need: u32 = owed.iter().map(|o| o.get(resource)).sum();
            let bank = self.bank.get(resource);
            if need <= bank {
                continue;
            }
            let owed_seats = owed.iter().filter(|o| o.get(resource) > 0).count();
            if owed_seats == 1 {
                // B-PROD-4: a single claimant takes what is left.
                for o in owed.iter_mut().filter(|o| o.get(resource) > 0) {
                    o.set(resource, bank);
                }
            } else {
                for o in owed.iter_mut() {
                    o.set(resource, 0);
                }
            }
            shortages.push(resource);
        }
        let gains = owed
            .into_iter()
            .enumerate()
            .filter(|(_, r)| !r.is_empty())
            .map(|(i, resources)| SeatResources { seat: Seat(i as u8), resources })
            .collect();
        let discoveries = found
            .into_iter()
            .enumerate()
            .filter(|(_, count)| *count > 0)
            .map(|(i, count)| SeatCount { seat: Seat(i as u8), count })
            .collect();
        Event::ResourcesProduced { roll, gains, shortages, discoveries }
    }

    pub(super) fn decide_discard(
        &self,
        seat: Seat,
        pending: &[PendingDiscard],
        resources: &Resources,
    ) -> Result<Vec<Event>, RuleError> {
        let Some(owed) = pending.iter().find(|p| p.seat == seat) else {
            return Err(RuleError::NothingToDecide);
        };
        if resources.total() != owed.count {
            return Err(RuleError::WrongDiscardCount { required: owed.count });
        }
        if !self.players[seat.index()].resources.contains(resources) {
            return Err(RuleError::InsufficientResources);
        }
        let rest: Vec<PendingDiscard> = pending.iter().copied().filter(|p| p.seat != seat).collect();
        let phase = if rest.is_empty() { Phase::MoveRobber } else { Phase::Discard { pending: rest } };
        Ok(vec![
            Event::ResourcesDiscarded { seat, count: owed.count, resources: Some(*resources) },
            Event::PhaseChanged { phase },
        ])
    }

    /// B-TURN-7: open offers lapse and the next seat clockwise begins — after the special
    /// building phases of the other seats, with the 5-6 extension (X56-8).
    pub(super) fn decide_end_turn(&self) -> Vec<Event> {
        let mut events = self.expire_offers();
        let next = self.next_seat(self.turn.active);
        if self.config.has_special_building_phase() {
            events.push(Event::PhaseChanged { phase: Phase::SpecialBuilding { seat: next } });
        } else {
            events.push(Event::TurnStarted { seat: next, turn: self.turn.number + 1 });
        }
        events
    }

    /// X56-8: the next seat's special building phase, or the next turn once all have had one.
    pub(super) fn decide_end_special_building(&self, builder: Seat) -> Vec<Event> {
        let mut events = self.expire_offers();
        let next = self.next_seat(builder);
        if next == self.turn.active {
            events.push(Event::TurnStarted { seat: self.next_seat(self.turn.active), turn: self.turn.number + 1 });
        } else {
            events.push(Event::PhaseChanged { phase: Phase::SpecialBuilding { seat: next } });
        }
        events
    }

    fn expire_offers(&self) -> Vec<Event> {
        let mut events = Vec::with_capacity(2);
        if !self.offers.is_empty() {
            events.push(Event::TradesExpired { offer_ids: self.offers.iter().map(|o| o.id).collect() });
        }
        events
    }

    fn next_seat(&self, seat: Seat) -> Seat {
        Seat((seat.0 + 1) % self.config.players)
    }
}
