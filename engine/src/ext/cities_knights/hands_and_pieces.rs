//! Cities & Knights' events applied to the whole game: the cards, pieces and number tokens
//! they move, through the shared primitives of `game/hands.rs` and the board.

use crate::{game::Game, protocol::Event};

/// What Cities & Knights' events do to the hands, the pieces and the board (before its own
/// state takes its part): commodities produced, paid, discarded, stolen and traded, the
/// progress cards' moves of cards, roads and number tokens, knights and walls paid for, and a
/// pillaged city.
pub(super) fn apply_to_hands_and_pieces(game: &mut Game, event: &Event) {
    match event {
        Event::CommoditiesProduced { gains, .. } => {
            for gain in gains {
                game.receive_cards(gain.seat, &crate::model::Cards::of_commodities(gain.commodities));
            }
        }
        Event::CardsDiscarded { seat, cards: Some(cards), .. } => game.pay_cards(*seat, cards),
        Event::CommodityStolen { thief, victim, commodity: Some(commodity) } => {
            game.transfer_commodity(*victim, *thief, *commodity);
        }
        Event::ImprovementBuilt { seat, cost, .. } => {
            game.mark_built_or_bought();
            game.pay_cards(*seat, &crate::model::Cards::of_commodities(*cost));
        }
        Event::NumberTokensSwapped { hexes, .. } => game.swap_number_tokens(*hexes),
        Event::ResourcesHarvested { seat, resources } => game.receive(*seat, resources),
        // Politics cards (CK-PC-7): the Diplomat's road back to its owner, the Wedding's gifts.
        Event::RoadRemoved { owner, edge, .. } => game.remove_road(*owner, *edge),
        Event::CardsGiven { seat, to, cards: Some(cards), .. } => game.transfer_cards(*seat, *to, cards),
        // The trade deck's cards moving resources and commodities between hands (CK-PC-7).
        Event::ResourceMonopolyTaken { seat, taken, .. } => {
            for loss in taken {
                game.transfer(loss.seat, *seat, &loss.resources);
            }
        }
        Event::TradeMonopolyTaken { seat, taken, .. } => {
            for loss in taken {
                game.transfer_cards(loss.seat, *seat, &crate::model::Cards::of_commodities(loss.commodities));
            }
        }
        Event::CommercialHarborOffered { seat, with, resource: Some(resource) } => {
            game.transfer(*seat, *with, &crate::Resources::of(*resource, 1));
        }
        Event::CommercialHarborAnswered { seat, to, commodity: Some(commodity) } => {
            game.transfer_commodity(*seat, *to, *commodity);
        }
        Event::CardsTaken { seat, from, cards: Some(cards), .. } => game.transfer_cards(*from, *seat, cards),
        Event::KnightActivated { seat, cost, .. } => game.pay(*seat, cost),
        Event::KnightRecruited { seat, cost, .. }
        | Event::KnightPromoted { seat, cost, .. }
        | Event::CityWallBuilt { seat, cost, .. } => {
            game.mark_built_or_bought();
            game.pay(*seat, cost);
        }
        Event::CityPillaged { seat, vertex } => game.apply_pillage(*seat, *vertex),
        Event::CardsTradedWithBank { seat, give, get } => {
            game.pay_cards(*seat, give);
            game.receive_cards(*seat, get);
        }
        _ => {}
    }
}
