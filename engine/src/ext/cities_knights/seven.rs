//! A 7 in Cities & Knights (CK-7-1/2, CK-BAR-10): everyone above their hand limit discards
//! half of their resources and commodities; the robber moves only once the barbarians have
//! attacked, and steals a resource or a commodity.

use super::CitiesKnights;
use crate::model::PushInPlace;
use crate::{
    board::HexCoord,
    chance::Chance,
    game::Game,
    model::{Cards, Commodities, PendingDiscard, PerSeat, Phase, Phases, Resource, Resources, Seat},
    protocol::{Event, Move, RuleError},
};

/// The hand a seat may keep through a 7 without walls (CK-7-1).
const BASE_LIMIT: u32 = 7;

impl CitiesKnights {
    /// CK-7-1, CK-WALL-2: the most cards `seat` may hold through a 7.
    pub(super) fn hand_limit(&self, game: &Game, seat: Seat) -> u32 {
        BASE_LIMIT + 2 * game.ext.cities_knights.walls_of(seat)
    }

    /// CK-7-1/2, CK-BAR-10: discards, then the robber if it may move, then the main phase.
    pub(super) fn seven(&self, game: &Game) -> Event {
        let pending: PerSeat<PendingDiscard> = game
            .seats()
            .filter_map(|seat| {
                let held = game.hand_cards(seat).total();
                (held > self.hand_limit(game, seat)).then_some(PendingDiscard { seat, count: held / 2 })
            })
            .collect();
        let robber = self.robber_may_move(game);
        match (pending.is_empty(), robber) {
            (true, true) => Event::PhaseChanged { phase: Phase::MoveRobber, then: [Phase::Main].into() },
            (true, false) => Event::PhaseChanged { phase: Phase::Main, then: Phases::new() },
            (false, true) => {
                Event::PhaseChanged { phase: Phase::Discard { pending }, then: [Phase::MoveRobber, Phase::Main].into() }
            }
            (false, false) => Event::PhaseChanged { phase: Phase::Discard { pending }, then: [Phase::Main].into() },
        }
    }

    /// Every discard of `count` cards naming at least one commodity (discards of resources
    /// only are the base game's `discard`).
    pub(super) fn commodity_discard_moves(game: &Game, seat: Seat, count: u32, moves: &mut Vec<Move>) {
        let hand = game.hand_cards(seat);
        if hand.commodities.is_empty() {
            return;
        }
        let weights = hand.weights();
        let mut beyond = [0u32; 8];
        for i in (0..weights.len() - 1).rev() {
            beyond[i] = beyond[i + 1].saturating_add(weights[i + 1]);
        }
        let mut chosen = [0u32; 8];
        walk(&weights, &beyond, 0, count, &mut chosen, moves);
    }

    /// CK-7-2, B-ROB-2..4: moves the robber and steals one random card of the victim's
    /// resources and commodities.
    pub(super) fn decide_robber(
        &self,
        game: &Game,
        seat: Seat,
        hex: HexCoord,
        steal_from: Option<Seat>,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let h = game.robber_target(hex)?;
        let (victims, count) = robber_victims(game, seat, h).listed();
        let victim = crate::game::hands::chosen_victim(&victims[..count], steal_from)?;
        events.push(Event::RobberMoved { seat, hex });
        if let Some(victim) = victim {
            events.push(game.steal_card(seat, victim, chance));
        }
        Ok(())
    }

    /// Every robber move: each hex it may go to, with each seat it may rob there.
    pub(super) fn robber_moves(game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        for (h, &hex) in game.board.hexes.iter().enumerate() {
            if game.robber_target(hex).is_err() {
                continue;
            }
            let victims = robber_victims(game, seat, h as u8);
            if victims.is_empty() {
                moves.push(Move::MoveRobber { hex, steal_from: None });
            }
            moves.extend(victims.iter().map(|victim| Move::MoveRobber { hex, steal_from: Some(victim) }));
        }
    }
}

impl Game {
    /// CK-7-1: a discard of resources and commodities, exactly the count owed.
    pub(crate) fn decide_discard_cards(
        &self,
        seat: Seat,
        pending: &[PendingDiscard],
        cards: &Cards,
    ) -> Result<[Event; 2], RuleError> {
        if !self.config.cities_and_knights {
            return Err(RuleError::NotInThisGame("commodities (Cities & Knights)"));
        }
        let Some(owed) = pending.iter().find(|p| p.seat == seat) else {
            return Err(RuleError::NothingToDecide);
        };
        if cards.total() != owed.count {
            return Err(RuleError::WrongDiscardCount { required: owed.count });
        }
        // A discard of resources alone is the base game's `discard`, as with bank trades.
        if cards.commodities.is_empty() {
            return Err(RuleError::NoCommodityNamed("discard"));
        }
        if !self.hand_cards(seat).contains(cards) {
            return Err(RuleError::InsufficientResources);
        }
        let rest: PerSeat<PendingDiscard> = pending.iter().copied().filter(|p| p.seat != seat).collect();
        let next = if rest.is_empty() { self.resume() } else { self.continue_with(Phase::Discard { pending: rest }) };
        Ok([Event::CardsDiscarded { seat, count: owed.count, cards: Some(*cards) }, next])
    }
}

/// B-ROB-3, CK-7-2: opponents with a building on hex `h` and at least one resource or
/// commodity, in seat order. A set of seats, not a list: the robber's moves ask it for every
/// hex, and a list would be allocated each time (issue 28).
pub(super) fn robber_victims(game: &Game, thief: Seat, h: u8) -> Victims {
    let mut seats = 0u16;
    for building in game.buildings_around(h) {
        let seat = building.seat;
        if seat != thief && game.hand_cards(seat).total() > 0 {
            seats |= 1 << seat.0;
        }
    }
    Victims(seats)
}

/// The seats the robber may rob on one hex (a bit per seat).
#[derive(Debug, Clone, Copy)]
pub(super) struct Victims(u16);

impl Victims {
    pub(super) fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// In seat order.
    pub(super) fn iter(self) -> impl Iterator<Item = Seat> {
        (0..16u8).filter(move |s| self.0 & (1 << s) != 0).map(Seat)
    }

    /// The seats as a list on the stack, with its length.
    fn listed(self) -> ([Seat; 16], usize) {
        let (mut seats, mut count) = ([Seat(0); 16], 0);
        for seat in self.iter() {
            seats[count] = seat;
            count += 1;
        }
        (seats, count)
    }
}

/// Every way to take `left` cards from the kinds from `index` on, at least one commodity.
/// `beyond[i]`: the cards of the kinds after the `i`-th, worked out once for the whole walk
/// (a large hand has thousands of ways to discard half of it).
fn walk(weights: &[u32; 8], beyond: &[u32; 8], index: usize, left: u32, chosen: &mut [u32; 8], moves: &mut Vec<Move>) {
    const FIRST_COMMODITY: usize = Resource::ALL.len();
    const NEXT_TO_LAST: usize = 6;
    if index == FIRST_COMMODITY && left == 0 {
        return; // resources only: the base game's `discard` lists those
    }
    // Past the resources some cards are left, so every discard listed below names a commodity.
    let takes = left.saturating_sub(beyond[index])..=weights[index].min(left);
    if index == NEXT_TO_LAST {
        // The last kind takes what is left, which the lower bound keeps within its count:
        // each discard is written here, without a call per discard.
        let [lumber, brick, wool, grain, ore, paper, ..] = *chosen;
        let resources = Resources::from_array([lumber, brick, wool, grain, ore]);
        for cloth in takes {
            let commodities = Commodities::from_array([paper, cloth, left - cloth]);
            moves.push_in_place(|| Move::DiscardCards { cards: Cards::new(resources, commodities) });
        }
        return;
    }
    for take in takes {
        chosen[index] = take;
        walk(weights, beyond, index + 1, left - take, chosen, moves);
    }
    chosen[index] = 0;
}
