//! Rolling the dice and production: resources with the bank-shortage rule (B-TURN-4,
//! B-PROD-1..4), gold fields' cards of free choice (RIV-5, SEA-9), and what extensions' hexes
//! produce.

use crate::{
    board::Terrain,
    chance::{roll_dice, Chance},
    game::{
        production::{building_yield, Production, MAX_SEATS},
        Game,
    },
    model::{Building, GoldSource, KindSet, PendingGold, PerSeat, Phase, PushInPlace, Resource, Resources, Seat},
    protocol::{Event, Move, RuleError, SeatCount, SeatResources},
};

impl Game {
    pub(super) fn decide_roll(&self, seat: Seat, chance: &mut dyn Chance, events: &mut Vec<Event>) {
        let (red, white) = roll_dice(chance);
        events.push_in_place(|| Event::DiceRolled { seat, red, white });
        let roll = red + white;
        if roll == 7 {
            events.push_in_place(|| self.seven_rolled());
        } else {
            self.produce_on_roll(roll, events);
        }
    }

    /// Appends what the number dice's `roll` (not a 7) yields to `events`.
    pub(crate) fn produce_on_roll(&self, roll: u8, events: &mut Vec<Event>) {
        self.produce_on_roll_with(roll, None, events);
    }

    /// [`Game::produce_on_roll`] with one more card of free choice for `extra_gold`, chosen
    /// with the roll's gold (PIR-14: a seat that beat the pirate fleet).
    pub(crate) fn produce_on_roll_with(&self, roll: u8, extra_gold: Option<Seat>, events: &mut Vec<Event>) {
        let mut gold = self.gold_owed(roll);
        if let Some(seat) = extra_gold {
            match gold.iter_mut().find(|p| p.seat == seat) {
                Some(owed) => owed.count += 1,
                None => {
                    // The list holds at most one entry per seat, so a seat not in it has room
                    // (a seat beyond the sixth, in no game, is left out).
                    if gold.try_push(PendingGold { seat, count: 1 }).is_ok() {
                        gold.sort_unstable_by_key(|p| p.seat);
                    }
                }
            }
        }
        if gold.is_empty() {
            self.production_into(roll, &[], events);
            events.push_in_place(|| self.continue_with(Phase::Main));
        } else {
            // RIV-5/SEA-9: production waits until every gold owner has chosen.
            events.push(Event::PhaseChanged {
                phase: Phase::GoldChoice { roll, pending: gold, chosen: Vec::new(), source: GoldSource::Production },
                then: [Phase::Main].into(),
            });
        }
    }

    /// Cards of free choice owed for gold hexes with number `roll`.
    fn gold_owed(&self, roll: u8) -> PerSeat<PendingGold> {
        if !self.rules().components.gold_produces {
            return PerSeat::new();
        }
        let mut owed = [0u32; MAX_SEATS];
        for &h in &self.board.hexes_by_number[roll as usize] {
            if Some(h) == self.robber || self.board.terrain[h as usize] != Terrain::Gold {
                continue;
            }
            for building in self.buildings_around(h) {
                if let Some(owed) = owed.get_mut(building.seat.index()) {
                    *owed += building_yield(building.kind);
                }
            }
        }
        owed[..self.players.len().min(MAX_SEATS)]
            .iter()
            .enumerate()
            .filter(|(_, &count)| count > 0)
            .map(|(i, &count)| PendingGold { seat: Seat(i as u8), count: gold_count(count) })
            .collect()
    }

    /// The buildings on the corners of hex `h`.
    pub(crate) fn buildings_around(&self, h: u8) -> impl Iterator<Item = Building> + '_ {
        self.board.hex_vertices[h as usize].iter().filter_map(|&v| self.buildings.get(v as usize).copied().flatten())
    }

    pub(super) fn decide_gold_choice(
        &self,
        seat: Seat,
        (roll, pending, chosen, source): (u8, &[PendingGold], &[SeatResources], GoldSource),
        resources: &Resources,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Some(owed) = pending.iter().find(|p| p.seat == seat) else {
            return Err(RuleError::NothingToDecide);
        };
        if resources.total() != owed.cards() {
            return Err(RuleError::WrongGoldCount { required: owed.cards() });
        }
        if !source.is_production() {
            // A seat's own cards come straight from the bank, which must hold them.
            if !self.bank.contains(resources) {
                return Err(RuleError::BankShortage);
            }
            events.push_in_place(|| Event::GoldResourcesTaken { seat, resources: *resources });
            // PIR-14: the card won from the fleet on a 7 comes before the 7's discards, which
            // count it.
            if source == GoldSource::Fleet {
                let pending = self.discards_after(seat, resources);
                if !pending.is_empty() {
                    events.push_in_place(|| self.continue_with(Phase::Discard { pending }));
                    return Ok(());
                }
            }
            events.push_in_place(|| self.resume());
            return Ok(());
        }
        let rest: PerSeat<PendingGold> = pending.iter().copied().filter(|p| p.seat != seat).collect();
        let mut all_chosen: PerSeat<SeatResources> = chosen.iter().copied().collect();
        // At most one choice per seat, and this seat had none yet (it was pending).
        let _ = all_chosen.try_push(SeatResources { seat, resources: *resources });
        if rest.is_empty() {
            self.production_into(roll, &all_chosen, events);
            events.push_in_place(|| self.resume());
        } else {
            let chosen = all_chosen.to_vec();
            events.push_in_place(|| self.continue_with(Phase::GoldChoice { roll, pending: rest, chosen, source }));
        }
        Ok(())
    }

    /// Every way to take the owed cards of free choice (RIV-5, SEA-9); for a seat's own
    /// cards, only those the bank holds.
    pub(super) fn gold_moves(&self, seat: Seat, pending: &[PendingGold], source: GoldSource, moves: &mut Vec<Move>) {
        if let Some(owed) = pending.iter().find(|p| p.seat == seat) {
            let from = moves.len();
            gold_choices(owed.cards(), moves);
            if !source.is_production() {
                let mut kept = from;
                for i in from..moves.len() {
                    if matches!(&moves[i], Move::ChooseGoldResources { resources } if self.bank.contains(resources)) {
                        moves.swap(kept, i);
                        kept += 1;
                    }
                }
                moves.truncate(kept);
            }
        }
    }

    /// A seat's own cards of free choice (SEA-9 setup, SEA-13 discovery): `count` cards, or
    /// as many as the bank holds, chosen before `next` (and what follows it) goes on.
    pub(crate) fn own_gold_choice(
        &self,
        seat: Seat,
        count: u32,
        source: GoldSource,
        next: Phase,
        then: &[Phase],
    ) -> Option<Event> {
        let count = count.min(self.bank.total());
        if count == 0 {
            return None;
        }
        let rest = std::iter::once(next).chain(then.iter().cloned()).collect();
        Some(Event::PhaseChanged {
            phase: Phase::GoldChoice {
                roll: 0,
                pending: PerSeat::one(PendingGold { seat, count: gold_count(count) }),
                chosen: Vec::new(),
                source,
            },
            then: rest,
        })
    }

    /// B-PROD-1..4: appends what every seat receives for `roll`, with the cards already chosen for
    /// gold (the bank-shortage rule covers them too, SEA-9) and what extensions produce.
    pub(crate) fn production_into(&self, roll: u8, gold: &[SeatResources], events: &mut Vec<Event>) {
        let seats = self.players.len().min(MAX_SEATS);
        let mut production = Production { resources: [Resources::ZERO; MAX_SEATS], discoveries: [0; MAX_SEATS] };
        let owed = &mut production.resources;
        for &h in &self.board.hexes_by_number[roll as usize] {
            if Some(h) == self.robber {
                continue; // B-PROD-2
            }
            if let Some(resource) = self.board.terrain[h as usize].resource() {
                for building in self.buildings_around(h) {
                    if let Some(owed) = owed.get_mut(building.seat.index()) {
                        *owed.get_mut(resource) += building_yield(building.kind);
                    }
                }
            }
        }
        for choice in gold {
            if let Some(owed) = owed.get_mut(choice.seat.index()) {
                *owed += choice.resources;
            }
        }
        for extension in &self.rules().extensions {
            extension.produce(self, roll, &mut production);
        }
        let owed = &mut production.resources[..seats];
        let mut shortages = KindSet::EMPTY;
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
            shortages.insert(resource);
        }
        // Filled in place, in the list: a roll is a third of all moves, and collecting the
        // lists through iterator adapters, or building the event apart and copying it over,
        // cost more than the production itself.
        events.push_in_place(|| Event::ResourcesProduced {
            roll,
            gains: PerSeat::new(),
            shortages,
            discoveries: PerSeat::new(),
        });
        if let Some(Event::ResourcesProduced { gains, discoveries, .. }) = events.last_mut() {
            // At most `MAX_SEATS` seats, so every push fits.
            for (i, &resources) in owed.iter().enumerate().filter(|(_, r)| !r.is_empty()) {
                let _ = gains.try_push(SeatResources { seat: Seat(i as u8), resources });
            }
            for (i, &count) in production.discoveries[..seats].iter().enumerate().filter(|(_, &n)| n > 0) {
                let _ = discoveries.try_push(SeatCount { seat: Seat(i as u8), count });
            }
        }
    }

    pub(super) fn apply_roll(&mut self, red: u8, white: u8) {
        self.turn.rolled = true;
        self.turn.last_roll = Some((red, white));
    }
}

/// Cards of free choice owed, as a phase holds them: never near `u16::MAX`, since a seat is
/// owed at most what its buildings on a few gold hexes yield, or what the bank holds.
fn gold_count(cards: u32) -> u16 {
    u16::try_from(cards).unwrap_or(u16::MAX)
}

/// Every way to take `count` cards of free choice (RIV-5, SEA-9).
fn gold_choices(count: u32, moves: &mut Vec<Move>) {
    fn walk(index: usize, left: u32, chosen: Resources, moves: &mut Vec<Move>) {
        if index == Resource::ALL.len() - 1 {
            let mut last = chosen;
            last.set(Resource::ALL[index], left);
            moves.push_in_place(|| Move::ChooseGoldResources { resources: last });
            return;
        }
        for take in 0..=left {
            let mut next = chosen;
            next.set(Resource::ALL[index], take);
            walk(index + 1, left - take, next, moves);
        }
    }
    walk(0, count, Resources::ZERO, moves);
}
