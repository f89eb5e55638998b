//! The shared primitives of hands: cards move between the bank and a hand, or between two
//! hands, and only the cards that are there move. Every ruleset's `apply` moves cards through
//! these (the base game's resources, Cities & Knights' commodities beside them), so an event
//! that does not fit the state (never one `decide` wrote) moves less instead of creating cards.

use crate::{
    board::NO_HEX,
    game::Game,
    model::{Cards, Commodities, Commodity, Resources, Seat},
    protocol::RuleError,
};

impl Game {
    /// The resource and commodity cards `seat` holds (CK-7-1).
    pub fn hand_cards(&self, seat: Seat) -> Cards {
        self.player(seat).map_or_else(Cards::default, |p| Cards::new(*p.resources(), *p.commodities()))
    }

    /// Moves resource cards from a hand to the bank.
    pub(crate) fn pay(&mut self, seat: Seat, cards: &Resources) {
        if cards.is_empty() {
            return;
        }
        if let Some(player) = self.players.get_mut(seat.index()) {
            let paid = at_most(cards, &player.resources);
            player.resources -= paid;
            self.bank += paid;
        }
    }

    /// Moves resource cards from the bank to a hand.
    pub(crate) fn receive(&mut self, seat: Seat, cards: &Resources) {
        if let Some(player) = self.players.get_mut(seat.index()) {
            let given = at_most(cards, &self.bank);
            self.bank -= given;
            player.resources += given;
        }
    }

    /// Moves resource cards between two hands.
    pub(crate) fn transfer(&mut self, from: Seat, to: Seat, cards: &Resources) {
        if from == to || from.index() >= self.players.len() || to.index() >= self.players.len() {
            return;
        }
        let moved = at_most(cards, &self.players[from.index()].resources);
        self.players[from.index()].resources -= moved;
        self.players[to.index()].resources += moved;
    }

    /// Moves resource and commodity cards from a hand to the bank.
    pub(crate) fn pay_cards(&mut self, seat: Seat, cards: &Cards) {
        self.pay(seat, &cards.resources);
        if let Some(player) = self.players.get_mut(seat.index()) {
            let paid = at_most_commodities(&cards.commodities, &player.commodities);
            player.commodities -= paid;
            self.commodity_bank += paid;
        }
    }

    /// Moves resource and commodity cards from the bank to a hand.
    pub(crate) fn receive_cards(&mut self, seat: Seat, cards: &Cards) {
        self.receive(seat, &cards.resources);
        if let Some(player) = self.players.get_mut(seat.index()) {
            let given = at_most_commodities(&cards.commodities, &self.commodity_bank);
            self.commodity_bank -= given;
            player.commodities += given;
        }
    }

    /// Moves resource and commodity cards between two hands, card by card.
    pub(crate) fn transfer_cards(&mut self, from: Seat, to: Seat, cards: &Cards) {
        self.transfer(from, to, &cards.resources);
        for commodity in Commodity::ALL {
            for _ in 0..cards.commodities.get(commodity) {
                self.transfer_commodity(from, to, commodity);
            }
        }
    }

    /// Moves commodity cards between two hands at once, as [`Game::transfer`] moves resources.
    pub(crate) fn transfer_commodities(&mut self, from: Seat, to: Seat, cards: &Commodities) {
        let seats = self.players.len();
        if cards.is_empty() || from == to || from.index() >= seats || to.index() >= seats {
            return;
        }
        let moved = at_most_commodities(cards, &self.players[from.index()].commodities);
        self.players[from.index()].commodities -= moved;
        self.players[to.index()].commodities += moved;
    }

    /// Moves one commodity card between two hands, if the first holds it.
    pub(crate) fn transfer_commodity(&mut self, from: Seat, to: Seat, commodity: Commodity) {
        let seats = self.players.len();
        if from == to || from.index() >= seats || to.index() >= seats {
            return;
        }
        if self.players[from.index()].commodities.get(commodity) > 0 {
            *self.players[from.index()].commodities.get_mut(commodity) -= 1;
            *self.players[to.index()].commodities.get_mut(commodity) += 1;
        }
    }
}

/// `wanted`, capped kind by kind at what `held` has.
fn at_most(wanted: &Resources, held: &Resources) -> Resources {
    *wanted - (*wanted - *held)
}

/// `wanted`, capped kind by kind at what `held` has.
fn at_most_commodities(wanted: &Commodities, held: &Commodities) -> Commodities {
    *wanted - (*wanted - *held)
}

/// The seats of `holding` (a set of seat bits) that own a piece on a side or corner of each
/// hex, by hex index: `owners[i]` owns the piece at edge or vertex `i`, which touches the hexes
/// `around[i]` (`NO_HEX` for one off the map). One walk over the pieces instead of a lookup of
/// every side or corner of every hex: the robber's and the pirate's listings come with every
/// knight a seat holds, before and after its roll.
pub(crate) fn victims_by_hex<const N: usize>(
    owners: impl Iterator<Item = Option<Seat>>,
    around: &[[u8; N]],
    holding: u16,
) -> [u16; 1 << u8::BITS] {
    let mut victims = [0u16; 1 << u8::BITS];
    if holding != 0 {
        for (owner, hexes) in owners.zip(around) {
            let victim = owner.map_or(0, |seat| seat.bit() & holding);
            if victim != 0 {
                for &h in hexes.iter().filter(|&&h| h != NO_HEX) {
                    victims[h as usize] |= victim;
                }
            }
        }
    }
    victims
}

/// B-ROB-3: the seat to rob, which must be one of `victims`; one must be named when there is
/// any, and none when there is none.
pub(crate) fn chosen_victim(victims: &[Seat], steal_from: Option<Seat>) -> Result<Option<Seat>, RuleError> {
    match steal_from {
        None if victims.is_empty() => Ok(None),
        None => Err(RuleError::VictimRequired),
        Some(victim) if victims.contains(&victim) => Ok(Some(victim)),
        Some(victim) => Err(RuleError::InvalidVictim(victim)),
    }
}
