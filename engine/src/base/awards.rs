//! Longest Road (B-LR) and Largest Army (B-LA).

use crate::{
    game::{
        routes::{kept_length, road_length, Overlay, MAX_NETWORK_EDGES},
        Game,
    },
    model::Seat,
    protocol::Event,
};

/// Minimum length for Longest Road (B-LR-3).
const LONGEST_ROAD_MINIMUM: u32 = 5;
/// Seats whose roads the award compares: every seat of a game (at most 6).
const SEATS_MEASURED: usize = 8;
/// Minimum played knights for Largest Army (B-LA-1).
const LARGEST_ARMY_MINIMUM: u32 = 3;

impl Game {
    /// B-LR-5: recomputes the holder of Longest Road after a change; returns the event when
    /// the holder changes.
    pub(crate) fn longest_road_update(&self, overlay: Overlay) -> Option<Event> {
        if !self.rules().components.longest_road_card || !self.may_change_longest_road(overlay) {
            return None;
        }
        // The builder's length when it is measured below, so the loop over every seat need
        // not measure it again.
        let mut measured: Option<(Seat, u32)> = None;
        // A road or ship added, or a ship moved, changes only its owner's trails.
        if let Some((builder, added)) = overlay.changed_seat() {
            match self.longest_road {
                // The holder's road only grew: it is still the longest.
                Some(holder) if holder == builder && added == 1 => return None,
                // Only a builder who overtakes the holder takes the card.
                Some(holder) if holder != builder => {
                    // The holder's road is at least 5 (B-LR-3, kept by every change and checked
                    // in positions): a builder whose pieces cannot make a longer one, or whose
                    // road stays at 5 or under, takes nothing.
                    let pieces = self.route_pieces_after(builder, added);
                    if pieces <= LONGEST_ROAD_MINIMUM {
                        return None;
                    }
                    // A builder with no more pieces than the holder's road, when its length is
                    // kept already (the overlay is the builder's), cannot overtake it.
                    if kept_length(self, holder).is_some_and(|held| pieces <= held) {
                        return None;
                    }
                    let grown = road_length(self, builder, overlay);
                    if grown <= LONGEST_ROAD_MINIMUM {
                        return None;
                    }
                    let held = road_length(self, holder, overlay);
                    return (grown > held).then_some(Event::LongestRoadChanged {
                        holder: Some(builder),
                        previous: Some(holder),
                        length: grown,
                    });
                }
                // The holder moves a ship from an open end (SEA-6): no trail continues past
                // that end, so the ship was the last edge of any trail using it, and taking it
                // away shortens the holder's longest trail by at most one; adding one never
                // shortens any. When that length minus one is still at least 5 and at least
                // every other seat's, the holder keeps the card, whatever the new length.
                // Only with the holder's length already kept (not measured for this alone),
                // and a network small enough to be measured whole.
                Some(_) if added == 0 && self.route_supply(builder) < MAX_NETWORK_EDGES => {
                    if let Some(before) = kept_length(self, builder) {
                        let floor = before.saturating_sub(1);
                        let others_within =
                            self.seats().filter(|&s| s != builder).all(|s| road_length(self, s, overlay) <= floor);
                        if floor >= LONGEST_ROAD_MINIMUM && others_within {
                            return None;
                        }
                    }
                }
                // Nobody holds it, so no road of 5 or more is the only longest: a builder
                // still under 5 changes nothing.
                None if added == 1 => {
                    let grown = road_length(self, builder, overlay);
                    if grown < LONGEST_ROAD_MINIMUM {
                        return None;
                    }
                    measured = Some((builder, grown));
                }
                // The holder's moved ship may shorten its road; a moved ship with nobody
                // holding the card may break a tie: every length is measured.
                _ => {}
            }
        }
        // Every seat's length, on the stack (a game has at most 6 seats).
        let mut lengths = [0u32; SEATS_MEASURED];
        for (seat, length) in self.seats().zip(lengths.iter_mut()) {
            *length = match measured {
                Some((builder, grown)) if builder == seat => grown,
                _ => road_length(self, seat, overlay),
            };
        }
        let length_of = |seat: Seat| lengths.get(seat.index()).copied().unwrap_or(0);
        let longest = lengths.iter().copied().max().unwrap_or(0);
        let holder = self.longest_road;
        let new_holder = if longest < LONGEST_ROAD_MINIMUM {
            None
        } else if holder.is_some_and(|h| length_of(h) == longest) {
            holder
        } else {
            let mut at_max = self.seats().filter(|&s| length_of(s) == longest);
            match (at_max.next(), at_max.next()) {
                (Some(only), None) => Some(only),
                _ => None,
            }
        };
        (new_holder != holder).then_some(Event::LongestRoadChanged {
            holder: new_holder,
            previous: holder,
            length: longest,
        })
    }

    /// Tests if the pieces of `overlay` can change who holds Longest Road, without measuring
    /// any road. The award always follows B-LR-5 after each change, so with nobody holding it
    /// no seat's road is both at least 5 long and longer than every other.
    fn may_change_longest_road(&self, overlay: Overlay) -> bool {
        if let Some((seat, added)) = overlay.changed_seat() {
            // A road or ship lengthens (a moved ship changes) only its owner's trails; one
            // that stays under 5 with nobody holding the award changes nothing.
            if self.longest_road.is_none() && self.route_pieces_after(seat, added) < LONGEST_ROAD_MINIMUM {
                return false;
            }
        }
        if let (Some((v, seat)), None, None) = (overlay.building, overlay.road, overlay.ship) {
            // A settlement breaks only trails that pass its vertex: other seats' roads and
            // ships there. Shortening others' routes changes nothing while the holder's is
            // not among them.
            let owners = |e: u16| [self.road_index(e), self.ship_index(e)];
            let passes = |owner: Seat| self.board.edges_of(v).any(|e| owners(e).contains(&Some(owner)));
            let others_pass = self.board.edges_of(v).any(|e| owners(e).iter().flatten().any(|&o| o != seat));
            let holder_unaffected = self.longest_road.is_some_and(|h| h == seat || !passes(h));
            // SEA-10: the seat's own building is where its road and its ship routes may join,
            // so a settlement where both end lengthens its own trade route.
            let joins_own = self.board.edges_of(v).any(|e| self.road_index(e) == Some(seat))
                && self.board.edges_of(v).any(|e| self.ship_index(e) == Some(seat));
            if !joins_own && (!others_pass || holder_unaffected) {
                return false;
            }
        }
        true
    }

    /// The roads and ships `seat` has on the board with `added` more: no trail of its is
    /// longer (B-LR-1).
    fn route_pieces_after(&self, seat: Seat, added: u32) -> u32 {
        self.players.get(seat.index()).map_or(0, |p| p.roads_on_board() + p.ships_on_board()) + added
    }

    /// The roads and ships `seat` has in all, on the board or not: its trails never hold more.
    fn route_supply(&self, seat: Seat) -> usize {
        self.players.get(seat.index()).map_or(0, |p| usize::from(p.supply.roads) + usize::from(p.supply.ships))
    }

    /// B-LA-1/2: returns the event when `seat`'s next knight takes Largest Army.
    pub(crate) fn largest_army_update(&self, seat: Seat) -> Option<Event> {
        if !self.rules().components.largest_army_card {
            return None;
        }
        let knights = self.players[seat.index()].knights_played + 1;
        let holder = self.largest_army;
        if holder == Some(seat) || knights < LARGEST_ARMY_MINIMUM {
            return None;
        }
        let beats_holder = holder.is_none_or(|h| knights > self.players[h.index()].knights_played);
        beats_holder.then_some(Event::LargestArmyChanged { holder: Some(seat), previous: holder })
    }
}
