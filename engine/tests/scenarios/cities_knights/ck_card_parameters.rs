//! CK-PC-7: a progress card played with parameters no game has (seats beyond the table, hexes,
//! vertices and edges off the board, dice beyond 6, too many knights, a Merchant Fleet of a
//! good nobody may trade) is refused with a rule code and changes nothing — never a panic. A
//! client's body reaches `decide` as it is.

use catan_engine::{
    board::{EdgeId, HexCoord, VertexId},
    Commodity, FixedChance, Good, Move, ProgressCard, ProgressCards, ProgressPlay, Resource, Seat,
};

use super::cities_knights::{ck, Knights};
use super::support::*;

/// P0 in its main phase holding one of every card but the two VP cards, with knights, a
/// wall-less city and roads; the other seats each with a city.
fn holding_every_card() -> Scenario {
    let mut setup = given_with(ck(4))
        .city(P0, "-1,0,S")
        .road(P0, "-1,0,SE")
        .knight(P0, "0,-1,N", 1, true)
        .city(P1, "1,-1,N")
        .city(P2, "2,0,S")
        .city(P3, "0,2,N")
        .main_phase(P0);
    let hand = ProgressCard::ALL
        .iter()
        .filter(|c| !c.is_victory_point())
        .fold(ProgressCards::default(), |hand, &c| hand + ProgressCards::of(c, 1));
    setup.cities_knights.progress.push((P0, hand));
    setup.start()
}

fn far_hex() -> HexCoord {
    HexCoord { q: 40, r: -40 }
}

fn far_vertex() -> VertexId {
    "40,-40,N".parse().expect("a vertex id")
}

fn far_edge() -> EdgeId {
    "40,-40,NE".parse().expect("an edge id")
}

/// CK-PC-7: each card with parameters beyond any game is refused, and the game is unchanged.
#[test]
fn ck_pc_7_absurd_parameters_are_refused_without_a_change() {
    let s = holding_every_card();
    let nobody = Seat(200);
    let plays = [
        ProgressPlay::Alchemist { red: 0, white: 3 },
        ProgressPlay::Alchemist { red: 7, white: 255 },
        ProgressPlay::Engineer { vertex: far_vertex() },
        ProgressPlay::Inventor { hexes: [far_hex(), far_hex()] },
        ProgressPlay::Inventor { hexes: [h("0,0"), far_hex()] },
        ProgressPlay::Medicine { vertex: far_vertex() },
        ProgressPlay::Smith { knights: vec![].into() },
        ProgressPlay::Smith { knights: vec![v("0,-1,N"); 500].into() },
        ProgressPlay::Smith { knights: vec![far_vertex(), far_vertex()].into() },
        ProgressPlay::MasterMerchant { target: nobody },
        ProgressPlay::MasterMerchant { target: P0 },
        ProgressPlay::Merchant { hex: far_hex() },
        ProgressPlay::Bishop { hex: far_hex() },
        ProgressPlay::Deserter { target: nobody },
        ProgressPlay::Deserter { target: P0 },
        ProgressPlay::Diplomat { edge: far_edge(), to: None },
        ProgressPlay::Diplomat { edge: e("-1,0,SE"), to: Some(far_edge()) },
        ProgressPlay::Intrigue { vertex: far_vertex() },
        ProgressPlay::Spy { target: nobody },
        ProgressPlay::Spy { target: P0 },
    ];
    for play in plays {
        let before = s.game.clone();
        let mv = Move::PlayProgressCard { play: play.clone() };
        let refused = s.game.decide(P0, &mv, &mut FixedChance::default());
        assert!(refused.is_err(), "{play:?} was accepted: {refused:?}");
        assert!(s.game == before, "{play:?} changed the game");
        assert!(!s.game.legal_moves(P0).contains(&mv), "{play:?} is refused but listed");
    }
    // Follow-up moves out of their decisions, with absurd parameters.
    for mv in [
        Move::DiscardProgressCard { card: ProgressCard::Printer },
        Move::TakeProgressCard { card: ProgressCard::Spy },
        Move::GiveCommodity { commodity: Commodity::Coin },
        Move::RemoveKnight { vertex: far_vertex() },
        Move::PlaceDeserterKnight { vertex: Some(far_vertex()) },
        Move::CommercialHarborExchange { with: nobody, resource: Resource::Ore },
    ] {
        for seat in [P0, P1] {
            let refused = s.game.decide(seat, &mv, &mut FixedChance::default());
            assert!(refused.is_err(), "{mv:?} by {seat} was accepted");
        }
    }
    // Another seat cannot play P0's cards, nor P0 a card out of its turn.
    let fleet = Move::PlayProgressCard { play: ProgressPlay::MerchantFleet { good: Good::Resource(Resource::Ore) } };
    for seat in [P1, nobody] {
        assert!(s.game.decide(seat, &fleet, &mut FixedChance::default()).is_err());
    }
}
