//! A 7: discards (B-ROB-1), moving the robber and stealing (B-ROB-2..5).

use crate::{
    board::{HexCoord, Terrain},
    chance::{draw_card, Chance, Draw},
    game::{
        hands::{chosen_victim, victims_by_hex},
        Game,
    },
    model::{PendingDiscard, PerSeat, Phase, PushInPlace, Resource, Resources, Seat},
    protocol::{Event, Move, RuleError},
};

/// Hands above this many cards must discard on a 7 (B-ROB-1).
const DISCARD_LIMIT: u32 = 7;

impl Game {
    /// B-ROB-1: everyone above the limit discards half, rounded down; then the robber moves,
    /// then the turn goes on in the main phase.
    pub(super) fn seven_rolled(&self) -> Event {
        let pending = self.discards_with(|seat| self.players[seat.index()].resources.total());
        if pending.is_empty() {
            Event::PhaseChanged { phase: Phase::MoveRobber, then: [Phase::Main].into() }
        } else {
            Event::PhaseChanged { phase: Phase::Discard { pending }, then: [Phase::MoveRobber, Phase::Main].into() }
        }
    }

    /// B-ROB-1: the discards a 7 asks for once `seat` has taken `taken` more cards (PIR-14:
    /// the card won from the pirate fleet comes before the discards).
    pub(crate) fn discards_after(&self, seat: Seat, taken: &Resources) -> PerSeat<PendingDiscard> {
        self.discards_with(|s| self.players[s.index()].resources.total() + if s == seat { taken.total() } else { 0 })
    }

    /// B-ROB-1: every seat whose hand, `held` cards (as the 7 leaves it), is above the limit
    /// discards half of it, rounded down.
    pub(crate) fn discards_with(&self, held: impl Fn(Seat) -> u32) -> PerSeat<PendingDiscard> {
        self.seats()
            .filter_map(|seat| {
                let held = held(seat);
                (held > DISCARD_LIMIT).then_some(PendingDiscard { seat, count: held / 2 })
            })
            .collect()
    }

    pub(super) fn decide_discard(
        &self,
        seat: Seat,
        pending: &[PendingDiscard],
        resources: &Resources,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let Some(owed) = pending.iter().find(|p| p.seat == seat) else {
            return Err(RuleError::NothingToDecide);
        };
        if resources.total() != owed.count {
            return Err(RuleError::WrongDiscardCount { required: owed.count });
        }
        if !self.players[seat.index()].resources.contains(resources) {
            return Err(RuleError::InsufficientResources);
        }
        let rest: PerSeat<PendingDiscard> = pending.iter().copied().filter(|p| p.seat != seat).collect();
        let next = if rest.is_empty() { self.resume() } else { self.continue_with(Phase::Discard { pending: rest }) };
        events.push_in_place(|| Event::ResourcesDiscarded { seat, count: owed.count, resources: Some(*resources) });
        events.push(next);
        Ok(())
    }

    pub(super) fn discard_moves(&self, seat: Seat, pending: &[PendingDiscard], moves: &mut Vec<Move>) {
        if let Some(owed) = pending.iter().find(|p| p.seat == seat) {
            discard_choices(&self.players[seat.index()].resources, owed.count, moves);
        }
    }

    /// B-ROB-2/4: checks that the robber may go to `hex`; returns its index.
    pub(crate) fn robber_target(&self, hex: HexCoord) -> Result<u8, RuleError> {
        let h = self.board.hex(hex).ok_or(RuleError::UnknownHex(hex))?;
        if !self.board.is_land_hex(h) {
            return Err(RuleError::RobberNotOnLand);
        }
        if Some(h) == self.robber {
            return Err(RuleError::RobberMustMove);
        }
        if self.board.terrain[h as usize] == Terrain::Desert && !self.rules().base.robber_may_enter_desert {
            return Err(RuleError::RobberDesertForbidden);
        }
        if self.rules().components.robber_excluded.contains(&hex) {
            return Err(RuleError::RobberHexExcluded);
        }
        Ok(h)
    }

    /// B-ROB-3: opponents with a building on the hex and at least one card, in seat order.
    pub(crate) fn robber_victims(&self, thief: Seat, h: u8) -> impl Iterator<Item = Seat> {
        let mut seats = 0u16;
        for building in self.buildings_around(h) {
            let seat = building.seat;
            if seat != thief && self.players.get(seat.index()).is_some_and(|p| p.resources.total() > 0) {
                seats |= seat.bit();
            }
        }
        (0..16u8).filter(move |s| seats & (1 << s) != 0).map(Seat)
    }

    /// Moves the robber and steals one random card from the chosen victim.
    pub(crate) fn decide_robber(
        &self,
        seat: Seat,
        hex: HexCoord,
        steal_from: Option<Seat>,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let h = self.robber_target(hex)?;
        // The victims on the stack: at most one per seat.
        let (mut victims, mut count) = ([Seat(0); 16], 0);
        for victim in self.robber_victims(seat, h) {
            victims[count] = victim;
            count += 1;
        }
        let stolen = self.steal(seat, &victims[..count], steal_from, chance)?;
        events.push_in_place(|| Event::RobberMoved { seat, hex });
        events.extend(stolen);
        Ok(())
    }

    /// B-ROB-3 (and SEA-8 a): the thief names one of `victims` when there is any, and takes
    /// one random card from that hand.
    pub(crate) fn steal(
        &self,
        thief: Seat,
        victims: &[Seat],
        steal_from: Option<Seat>,
        chance: &mut dyn Chance,
    ) -> Result<Option<Event>, RuleError> {
        let Some(victim) = chosen_victim(victims, steal_from)? else {
            return Ok(None);
        };
        Ok(Some(self.steal_card(thief, victim, chance)))
    }

    /// B-ROB-3: one card drawn at random from the victim's hand; a variant whose hands hold
    /// more than resources draws from all of it (CK-7-2, SEA-15).
    pub(crate) fn steal_card(&self, thief: Seat, victim: Seat, chance: &mut dyn Chance) -> Event {
        if let Some(event) = self.rules().extensions.iter().find_map(|e| e.steal_card(self, thief, victim, chance)) {
            return event;
        }
        let hand = &self.players[victim.index()].resources;
        let resource: Option<Resource> = draw_card(chance, Draw::STOLEN_CARD, hand);
        Event::ResourceStolen { thief, victim, resource }
    }

    /// Every robber target and victim, made into moves by `make` (moving the robber after a
    /// 7, or playing a knight).
    pub(crate) fn robber_moves(
        &self,
        seat: Seat,
        moves: &mut Vec<Move>,
        make: impl Fn(HexCoord, Option<Seat>) -> Move,
    ) {
        let may_enter_desert = self.rules().base.robber_may_enter_desert;
        let excluded = &self.rules().components.robber_excluded;
        let mut holding: u16 = 0;
        for (i, player) in self.players.iter().enumerate() {
            if Seat(i as u8) != seat && !player.resources.is_empty() {
                holding |= Seat(i as u8).bit();
            }
        }
        // The seats with cards that own a building on each hex.
        let owners = self.buildings.iter().map(|building| building.map(|b| b.seat));
        let victims_at = victims_by_hex(owners, &self.board.vertex_hexes, holding);
        for h in 0..self.board.hexes.len() as u8 {
            let terrain = self.board.terrain[h as usize];
            let target =
                terrain.is_land() && Some(h) != self.robber && (may_enter_desert || terrain != Terrain::Desert);
            let hex = self.board.hexes[h as usize];
            if !target || (!excluded.is_empty() && excluded.contains(&hex)) {
                continue;
            }
            let mut victims = victims_at[h as usize];
            if victims == 0 {
                moves.push_in_place(|| make(hex, None));
            }
            while victims != 0 {
                let victim = Seat(victims.trailing_zeros() as u8);
                victims &= victims - 1;
                moves.push_in_place(|| make(hex, Some(victim)));
            }
        }
    }

    pub(super) fn apply_robber(&mut self, hex: HexCoord) {
        if let Some(h) = self.board.hex(hex) {
            self.robber = Some(h);
        }
    }
}

/// Every way to discard exactly `count` cards from `hand` (B-ROB-1).
fn discard_choices(hand: &Resources, count: u32, moves: &mut Vec<Move>) {
    const KINDS: usize = Resource::ALL.len();
    /// `beyond[i]`: the cards of the kinds after the `i`-th, worked out once for the whole
    /// walk (a large hand has thousands of ways to discard half of it).
    fn walk(
        hand: &Resources,
        beyond: &[u32; KINDS],
        index: usize,
        left: u32,
        chosen: Resources,
        moves: &mut Vec<Move>,
    ) {
        let resource = Resource::ALL[index];
        let max = hand.get(resource).min(left);
        let min = left.saturating_sub(beyond[index]);
        for take in min..=max {
            let mut next = chosen;
            next.set(resource, take);
            if index + 1 == KINDS {
                // `min` leaves nothing over for the last kind: `take == left`.
                moves.push_in_place(|| Move::Discard { resources: next });
            } else {
                walk(hand, beyond, index + 1, left - take, next, moves);
            }
        }
    }
    let mut beyond = [0u32; KINDS];
    for i in (0..KINDS - 1).rev() {
        beyond[i] = beyond[i + 1] + hand.get(Resource::ALL[i + 1]);
    }
    walk(hand, &beyond, 0, count, Resources::ZERO, moves);
}
