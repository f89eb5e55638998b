//! TC-51 .. TC-53: the 5-6 player extension (RULES.md 8.1, 9.7).

use catan_engine::{
    board::{HarbourKind, Terrain},
    Bandit, BoardSpec, DevCard, Event, FixedChance, GameConfig, Move, Phase, Resource, Resources, Seat,
};

use crate::support::*;

const P4: Seat = Seat(4);

const P5: Seat = Seat(5);

fn six_players() -> GameConfig {
    config(6)
}

fn sorted<T: Ord>(mut items: Vec<T>) -> Vec<T> {
    items.sort();
    items
}

/// TC-51 [X56-2..6]: the extension's board, tokens, harbours, bank and deck, on the fixed and a
/// random board.
#[test]
fn tc_51_a_six_player_game_has_the_extension_components() {
    for board in [BoardSpec::Beginner, BoardSpec::Random] {
        let s = Scenario::with(GameConfig { board, ..six_players() });
        let layout = s.game.board().layout();
        let count = |t: Terrain| layout.hexes.iter().filter(|h| h.terrain == t).count();
        let land =
            [Terrain::Forest, Terrain::Pasture, Terrain::Fields, Terrain::Hills, Terrain::Mountains, Terrain::Desert]
                .map(count);
        assert_eq!(land, [6, 6, 6, 5, 5, 2]);
        let tokens = sorted(layout.hexes.iter().filter_map(|h| h.number).collect());
        let expected =
            sorted(vec![2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 8, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12]);
        assert_eq!(tokens, expected);
        let harbour = |k: HarbourKind| layout.harbours.iter().filter(|h| h.kind == k).count();
        assert_eq!(layout.harbours.len(), 11);
        assert_eq!(harbour(HarbourKind::Generic3), 5);
        assert_eq!(harbour(HarbourKind::Wool2), 2);
        for kind in [HarbourKind::Lumber2, HarbourKind::Brick2, HarbourKind::Grain2, HarbourKind::Ore2] {
            assert_eq!(harbour(kind), 1);
        }
        assert_eq!(*s.game.bank(), Resources::each(24));
        let deck = s.game.development_deck();
        assert_eq!(
            (
                deck.get(DevCard::Knight),
                deck.get(DevCard::RoadBuilding),
                deck.get(DevCard::YearOfPlenty),
                deck.get(DevCard::Monopoly),
                deck.get(DevCard::VictoryPoint)
            ),
            (20, 3, 3, 3, 5)
        );
        assert_eq!(s.game.board().vertices.len(), 80);
        assert_eq!(s.game.board().edges.len(), 109);
        // X56-7: the robber starts on a desert.
        let robber = s.game.robber_hex().unwrap();
        assert!(layout.hexes.iter().any(|h| h.hex == robber && h.terrain == Terrain::Desert));
    }
}

#[test]
fn six_players_without_the_extension_are_refused() {
    // Issue: invalid combinations are clear errors.
    let error = catan_engine::Game::new(GameConfig { five_six_extension: false, ..six_players() }, 1).unwrap_err();
    assert_eq!(error.code(), "invalid_player_count");
    let error = catan_engine::Game::new(GameConfig { five_six_extension: true, ..config(4) }, 1).unwrap_err();
    assert_eq!(error.code(), "invalid_player_count");
}

/// A 6-player position in P0's main phase: P2 has a settlement and road, a knight from an
/// earlier turn, and cards for a road, a development card and a bank trade.
fn special_building_position(trade_flag: bool) -> Scenario {
    let mut s = given_with(GameConfig { sbp_trade_with_previous_player: trade_flag, ..six_players() })
        .settlement(P2, "0,-1,N")
        .road(P2, "0,-1,NE")
        .settlement(P0, "-2,1,S")
        .card(P2, DevCard::Knight)
        .give(P2, Resources::new(5, 1, 1, 1, 1))
        .give(P0, Resources::new(0, 0, 2, 0, 0))
        .main_phase(P0)
        .start();
    s.when(P0, Move::EndTurn);
    assert_eq!(*s.game.phase(), Phase::SpecialBuilding { seat: P1 });
    s.when(P1, Move::EndTurn);
    assert_eq!(*s.game.phase(), Phase::SpecialBuilding { seat: P2 });
    s
}

/// TC-52 [X56-8]: special building phases for P1..P5 after P0's turn, then P1's turn; in P2's
/// phase: build and buy yes; knight, bank trade, trade with P3 no; trade with P0 per flag.
#[test]
fn tc_52_special_building_phases_allow_building_and_buying_only() {
    let mut s = special_building_position(true);
    let road = s
        .game
        .legal_moves(P2)
        .into_iter()
        .find(|m| matches!(m, Move::BuildRoad { .. }))
        .expect("P2 can build a road in its special building phase");
    s.when(P2, road);
    s.when_with(P2, Move::BuyDevelopmentCard, FixedChance::card(DevCard::Monopoly));
    let hex = h("2,-2");
    s.rejects(P2, Move::PlayKnight { hex, steal_from: None, bandit: Bandit::Robber }, "wrong_phase");
    s.rejects(
        P2,
        Move::TradeWithBank { give: Resources::of(Resource::Lumber, 4), get: Resources::of(Resource::Ore, 1) },
        "wrong_phase",
    );
    let offer = |to: Seat| Move::OfferTrade {
        give: Resources::of(Resource::Lumber, 1),
        get: Resources::of(Resource::Wool, 1),
        give_commodities: catan_engine::Commodities::NONE,
        get_commodities: catan_engine::Commodities::NONE,
        to: Some(vec![to].into()),
        counter_to: None,
    };
    let error = s.game.decide(P2, &offer(P3), &mut FixedChance::default()).unwrap_err();
    assert_eq!(error.code(), "trade_partner_not_allowed");
    let offered = s.when(P2, offer(P0));
    let Event::TradeOffered { offer: made } = &offered[0] else { panic!("{offered:?}") };
    s.when(P0, Move::AcceptTrade { offer_id: made.id });
    s.when(P2, Move::ConfirmTrade { offer_id: made.id, with: P0 });
    assert_eq!(s.hand(P0).get(Resource::Wool), 1);

    // The remaining phases run in seat order, then P1's turn begins.
    for seat in [P2, Seat(3), P4, P5] {
        assert_eq!(*s.game.phase(), Phase::SpecialBuilding { seat });
        s.when(seat, Move::EndTurn);
    }
    assert_eq!(*s.game.phase(), Phase::PreRoll);
    assert_eq!(s.game.active_seat(), P1);

    // With the flag off, no trading at all.
    let s = special_building_position(false);
    let error = s.game.decide(P2, &offer(P0), &mut FixedChance::default()).unwrap_err();
    assert_eq!(error.code(), "wrong_phase");
}

/// TC-53 [X56-9, B-WIN-3]: P3 reaches 10 VP in its special building phase; it wins only at the
/// start of its own turn, after P1 and P2 have played theirs.
#[test]
fn tc_53_points_reached_in_a_special_building_phase_win_at_the_next_own_turn() {
    let mut s = ["0,0,N", "0,0,S", "-2,0,N", "1,-2,N"]
        .iter()
        .fold(given_with(six_players()), |setup, vertex| setup.city(P3, vertex))
        .settlement(P3, "-1,2,S")
        .give(P3, Resources::new(0, 0, 1, 1, 1))
        .main_phase(P0)
        .start();
    assert_eq!(s.game.victory_points(P3), 9);
    s.when(P0, Move::EndTurn);
    for seat in [P1, P2] {
        s.when(seat, Move::EndTurn);
    }
    s.when_with(P3, Move::BuyDevelopmentCard, FixedChance::card(DevCard::VictoryPoint));
    assert_eq!(s.game.victory_points(P3), 10);
    assert_eq!(s.game.winner(), None, "no win during a special building phase");
    for seat in [P3, P4, P5] {
        s.when(seat, Move::EndTurn);
    }
    // P1's and P2's turns: roll a 5, end, then everyone else's special building phase.
    for active in [P1, P2] {
        assert_eq!(s.game.active_seat(), active);
        s.when_with(active, Move::RollDice, FixedChance::dice(2, 3));
        s.when(active, Move::EndTurn);
        assert_eq!(s.game.winner(), None);
        for offset in 1..6 {
            let seat = Seat((active.0 + offset) % 6);
            s.when(seat, Move::EndTurn);
            let last_phase_before_p3s_turn = active == P2 && offset == 5;
            if !last_phase_before_p3s_turn {
                assert_eq!(s.game.winner(), None, "P3 must wait for its own turn");
            }
        }
    }
    assert_eq!(s.game.winner(), Some(P3), "P3 wins as its turn starts, before rolling");
}
