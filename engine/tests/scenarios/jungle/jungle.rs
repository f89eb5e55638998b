//! TC-54 .. TC-56: Jungle (RULES.md 8.2, 9.8).

use catan_engine::{
    board::Terrain, events::SeatCount, DevCard, Event, FixedChance, GameConfig, Move, Phase, Resource, Resources,
    Viewer,
};

use crate::support::*;

fn jungle_config() -> GameConfig {
    GameConfig { jungle: true, jungle_number: Some(5), ..config(4) }
}

/// TC-54 [JUN-4, JUN-3]: the jungle's number gives 1 discovery per settlement, 2 per city; not
/// while the robber stands on it (where it starts).
#[test]
fn tc_54_the_jungle_produces_discoveries_unless_robbed() {
    let s = Scenario::with(jungle_config());
    assert_eq!(s.game.robber_hex(), Some(h("0,0")), "JUN-3: the robber starts on the jungle");
    assert!(s.game.board().layout().hexes.iter().any(|t| t.hex == h("0,0") && t.terrain == Terrain::Jungle));
    let position = |robber: &str| {
        given_with(jungle_config()).settlement(P1, "0,0,N").city(P2, "0,0,S").robber(robber).turn(P0).start()
    };
    let mut s = position("2,-2");
    let events = s.when_with(P0, Move::RollDice, FixedChance::dice(2, 3));
    let produced = events.iter().find_map(|e| match e {
        Event::ResourcesProduced { discoveries, .. } => Some(*discoveries),
        _ => None,
    });
    assert_eq!(produced, Some(vec![SeatCount { seat: P1, count: 1 }, SeatCount { seat: P2, count: 2 }].into()));
    assert_eq!(s.game.discoveries(P1), 1);
    assert_eq!(s.game.discoveries(P2), 2);
    assert_eq!(s.game.view(Viewer::Spectator).players[2].discoveries, 2, "discoveries are public");

    let mut s = position("0,0");
    s.when_with(P0, Move::RollDice, FixedChance::dice(2, 3));
    assert_eq!(s.game.discoveries(P1), 0);
    assert_eq!(s.game.discoveries(P2), 0);
}

/// TC-55 [JUN-5]: discoveries stand in for one to three of a development card's cost cards.
#[test]
fn tc_55_discoveries_pay_for_development_cards_only_up_to_the_cost() {
    let mut s = given_with(jungle_config())
        .with_discoveries(P1, 5)
        .give(P1, Resources::of(Resource::Ore, 1))
        .main_phase(P1)
        .start();
    s.when(P1, Move::BuyDevelopmentCardWithDiscoveries { replaces: Resources::new(0, 0, 1, 1, 0) });
    assert_eq!(s.hand(P1), Resources::ZERO);
    assert_eq!(s.game.discoveries(P1), 3);
    s.when(P1, Move::BuyDevelopmentCardWithDiscoveries { replaces: Resources::new(0, 0, 1, 1, 1) });
    assert_eq!(s.game.discoveries(P1), 0);
    assert_eq!(s.game.player(P1).unwrap().dev_card_count(), 2);

    let s = given_with(jungle_config()).with_discoveries(P1, 5).main_phase(P1).start();
    s.rejects(
        P1,
        Move::BuyDevelopmentCardWithDiscoveries { replaces: Resources::new(0, 0, 1, 1, 2) },
        "invalid_discovery_use",
    );
    s.rejects(
        P1,
        Move::BuyDevelopmentCardWithDiscoveries { replaces: Resources::new(1, 0, 0, 0, 0) },
        "invalid_discovery_use",
    );
    let s = given_with(jungle_config()).with_discoveries(P1, 1).main_phase(P1).start();
    s.rejects(
        P1,
        Move::BuyDevelopmentCardWithDiscoveries { replaces: Resources::new(0, 0, 1, 1, 1) },
        "not_enough_discoveries",
    );
}

/// TC-56 [JUN-6]: discoveries are not resources: no discard, no monopoly, no theft, no trade.
#[test]
fn tc_56_discoveries_are_never_discarded_stolen_monopolised_or_traded() {
    let mut s = given_with(jungle_config())
        .with_discoveries(P1, 5)
        .give(P1, Resources::new(2, 2, 2, 2, 0))
        .settlement(P1, "0,-1,N")
        .card(P0, DevCard::Monopoly)
        .turn(P0)
        .start();
    s.when_with(P0, Move::RollDice, FixedChance::dice(3, 4));
    assert_eq!(
        *s.game.phase(),
        Phase::Discard { pending: vec![catan_engine::state::PendingDiscard { seat: P1, count: 4 }].into() }
    );
    s.when(P1, Move::Discard { resources: Resources::new(1, 1, 1, 1, 0) });
    s.when_with(P0, Move::MoveRobber { hex: h("0,-1"), steal_from: Some(P1) }, FixedChance::steal(Resource::Wool));
    s.when(P0, Move::PlayMonopoly { resource: Resource::Lumber });
    assert_eq!(s.game.discoveries(P1), 5, "discoveries stay through discard, theft and monopoly");
    let offer = r#"{"type": "offer_trade", "give": {"discoveries": 1}, "get": {"ore": 1}}"#;
    assert!(serde_json::from_str::<Move>(offer).is_err(), "discoveries cannot be offered in a trade");
}
