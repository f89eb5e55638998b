//! Commodities (CK-CMP-1, CK-PROD): cards in the hand beside resources, moved only between
//! the bank and hands, and what cities take of them on a roll.

use super::CitiesKnights;
use crate::{
    game::production::Production,
    game::Game,
    model::{BuildingKind, Commodities, Commodity, KindSet, PerSeat, Seat, MAX_SEATS},
    protocol::{Event, SeatCommodities},
};

impl CitiesKnights {
    /// CK-PROD-2: a city on forest, pasture or mountains takes one resource and one
    /// commodity instead of two resources; the base game has counted two resources.
    pub(super) fn reduce_city_yield(&self, game: &Game, roll: u8, production: &mut Production) {
        for (h, commodity) in commodity_hexes(game, roll) {
            let resource = commodity.resource();
            for building in game.buildings_around(h).filter(|b| b.kind == BuildingKind::City) {
                if let Some(owed) = production.resources.get_mut(building.seat.index()) {
                    *owed.get_mut(resource) = owed.get(resource).saturating_sub(1);
                }
            }
        }
    }

    /// CK-PROD-2..4: the commodities cities take on `roll`, with the bank-shortage rule per
    /// kind (B-PROD-4); `None` when nobody takes any.
    pub(super) fn commodity_production(&self, game: &Game, roll: u8) -> Option<Event> {
        // On the stack: one tally per seat.
        let mut owed = [Commodities::NONE; MAX_SEATS];
        let owed = &mut owed[..game.players.len().min(MAX_SEATS)];
        for (h, commodity) in commodity_hexes(game, roll) {
            for building in game.buildings_around(h).filter(|b| b.kind == BuildingKind::City) {
                if let Some(owed) = owed.get_mut(building.seat.index()) {
                    *owed.get_mut(commodity) += 1;
                }
            }
        }
        let mut shortages = KindSet::EMPTY;
        for commodity in Commodity::ALL {
            let need: u32 = owed.iter().map(|o| o.get(commodity)).sum();
            let bank = game.commodity_bank.get(commodity);
            if need <= bank {
                continue;
            }
            let claimants = owed.iter().filter(|o| o.get(commodity) > 0).count();
            for o in owed.iter_mut().filter(|o| o.get(commodity) > 0) {
                // B-PROD-4: a single claimant takes what is left; several take nothing.
                o.set(commodity, if claimants == 1 { bank } else { 0 });
            }
            shortages.insert(commodity);
        }
        let gains: PerSeat<SeatCommodities> = owed
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, c)| !c.is_empty())
            .map(|(i, commodities)| SeatCommodities { seat: Seat(i as u8), commodities })
            .collect();
        (!gains.is_empty() || !shortages.is_empty()).then_some(Event::CommoditiesProduced { roll, gains, shortages })
    }
}

/// The hexes numbered `roll`, not under the robber (CK-PROD-3), whose terrain gives a city a
/// commodity, with that commodity.
fn commodity_hexes(game: &Game, roll: u8) -> impl Iterator<Item = (u8, Commodity)> + '_ {
    game.board.hexes_by_number[roll as usize]
        .iter()
        .copied()
        .filter(move |&h| Some(h) != game.robber_index())
        .filter_map(move |h| {
            let resource = game.board.terrain[h as usize].resource()?;
            Commodity::of_resource(resource).map(|c| (h, c))
        })
}
