//! Cities & Knights politics cards (RULES.md 8.6.13, CK-PC-7 politics table): one test per
//! card, on the beginner board, P0 playing in its main phase. Each checks the effect, the
//! refusal codes, that `legal_moves` lists only plays `decide` accepts, the card going to the
//! bottom of its deck (CK-PC-3) and what other seats see of hidden cards.

use catan_engine::{
    CardDecision, Cards, Commodities, Commodity, Event, FixedChance, Move, PendingDiscard, Phase, ProgressCard,
    ProgressCards, ProgressPlay, Resource, Resources, Seat, Setup, Viewer,
};

use super::{cities_knights::ck, support::*};

/// A C&K setup where `seat` holds `cards` (one of each listed).
fn holding(mut setup: Setup, seat: Seat, cards: &[ProgressCard]) -> Setup {
    let hand = cards.iter().fold(ProgressCards::default(), |sum, &c| sum + ProgressCards::of(c, 1));
    setup.cities_knights.progress.retain(|(s, _)| *s != seat);
    setup.cities_knights.progress.push((seat, hand));
    setup
}

fn play(play: ProgressPlay) -> Move {
    Move::PlayProgressCard { play }
}

/// The plays `seat` may make as listed; each one is accepted by `decide` (legal moves are
/// exactly accepted plays, together with `Scenario::rejects` refusing unlisted ones).
fn listed_plays(s: &Scenario, seat: Seat) -> Vec<ProgressPlay> {
    let plays: Vec<ProgressPlay> = s
        .game
        .legal_moves(seat)
        .into_iter()
        .filter_map(|m| match m {
            Move::PlayProgressCard { play } => Some(play),
            _ => None,
        })
        .collect();
    for p in &plays {
        let decided = s.game.decide(seat, &play(p.clone()), &mut FixedChance::default());
        assert!(decided.is_ok(), "{p:?} is listed but refused: {decided:?}");
    }
    plays
}

/// The card went under its deck (CK-PC-3) and left the hand.
fn returned(s: &Scenario, seat: Seat, card: ProgressCard) {
    assert_eq!(Setup::from(&s.game).cities_knights.returned.last(), Some(&card));
    assert_eq!(s.game.progress_cards(seat).get(card), 0);
}

/// The events as `viewer` sees them.
fn seen_by(events: &[Event], viewer: Seat) -> Vec<Event> {
    events.iter().map(|e| e.redacted_for(Viewer::Seat(viewer))).collect()
}

fn decision(s: &Scenario) -> CardDecision {
    match s.game.phase() {
        Phase::CardDecision { decision } => decision.clone(),
        other => panic!("no card decision: {other:?}"),
    }
}

/// CK-PC-7 Bishop, CK-BAR-10, B-ROB-2: refused while the robber waits for the first attack;
/// afterwards the robber moves and one random card comes from EACH opponent with a building
/// on the hex (a resource from P1, a commodity from P2), seen only by thief and victim.
#[test]
fn ck_pc_7_bishop_robs_every_opponent_on_the_hex_once_the_robber_may_move() {
    let given = |attacks| {
        let setup = given_with(ck(4))
            .settlement(P1, "0,-1,N")
            .road(P1, "0,-1,NE")
            .city(P2, "0,-1,S")
            .road(P2, "0,-1,SE")
            .city(P0, "-1,1,S")
            .road(P0, "-1,1,SE")
            .give(P1, Resources::of(Resource::Ore, 2))
            .with_commodities(P2, Commodities::new(0, 0, 1))
            .give(P3, Resources::of(Resource::Grain, 3))
            .with_barbarians(0, attacks);
        holding(setup, P0, &[ProgressCard::Bishop])
    };
    let bishop = play(ProgressPlay::Bishop { hex: h("0,-1") });
    let s = given(0).main_phase(P0).start();
    s.rejects(P0, bishop.clone(), "robber_waits");
    assert!(listed_plays(&s, P0).is_empty());
    // CK-PC-2: in the main phase only.
    let s = given(1).turn(P0).start();
    s.rejects(P0, bishop.clone(), "progress_card_timing");

    let mut s = given(1).main_phase(P0).start();
    let robber = s.game.robber_hex().unwrap();
    s.rejects(P0, play(ProgressPlay::Bishop { hex: robber }), "robber_must_move");
    let plays = listed_plays(&s, P0);
    assert_eq!(plays.len(), 18, "every land hex but the robber's: {plays:?}");
    let events = s.when(P0, bishop);
    assert_eq!(
        events[1..],
        [
            Event::RobberMoved { seat: P0, hex: h("0,-1") },
            Event::ResourceStolen { thief: P0, victim: P1, resource: Some(Resource::Ore) },
            Event::CommodityStolen { thief: P0, victim: P2, commodity: Some(Commodity::Coin) },
        ]
    );
    assert_eq!(s.game.robber_hex(), Some(h("0,-1")));
    assert_eq!(s.game.hand_cards(P0), Cards::new(Resources::of(Resource::Ore, 1), Commodities::new(0, 0, 1)));
    assert_eq!(s.game.hand_cards(P3).total(), 3, "P3 has no building there");
    returned(&s, P0, ProgressCard::Bishop);
    // Hidden information: P3 sees neither card, P1 its own only.
    let p3 = seen_by(&events, P3);
    assert_eq!(p3[2], Event::ResourceStolen { thief: P0, victim: P1, resource: None });
    assert_eq!(p3[3], Event::CommodityStolen { thief: P0, victim: P2, commodity: None });
    let p1 = seen_by(&events, P1);
    assert_eq!((p1[2] == events[2], p1[3] == events[3]), (true, false));
    assert_eq!(*s.game.phase(), Phase::Main);
}

/// CK-PC-7 Deserter, CK-KNT-2: P1, with two knights, removes one of its choice; P0 then
/// places its own knight of the same strength for free at the end of its road, taking the
/// removed knight's state. With one knight the removal is automatic; the placement may be
/// declined.
#[test]
fn ck_pc_7_deserter_takes_a_knight_of_the_same_strength() {
    let given = || {
        let setup = given_with(ck(4))
            .city(P0, "0,-1,N")
            .road(P0, "0,-1,NE")
            .settlement(P1, "2,0,S")
            .with_knight(P1, v("1,0,N"), 2, true)
            .with_knight(P1, v("-2,2,N"), 1, false)
            .with_knight(P2, v("0,2,N"), 1, true)
            .main_phase(P0);
        holding(setup, P0, &[ProgressCard::Deserter])
    };
    let mut s = given().start();
    s.rejects(P0, play(ProgressPlay::Deserter { target: P0 }), "not_an_opponent");
    s.rejects(P0, play(ProgressPlay::Deserter { target: P3 }), "target_has_no_knight");
    assert_eq!(
        listed_plays(&s, P0),
        vec![ProgressPlay::Deserter { target: P1 }, ProgressPlay::Deserter { target: P2 }]
    );
    s.when(P0, play(ProgressPlay::Deserter { target: P1 }));
    returned(&s, P0, ProgressCard::Deserter);
    assert_eq!(decision(&s), CardDecision::RemoveKnight { seat: P1, by: P0 });
    assert_eq!(s.game.waiting_for(), vec![P1]);
    s.rejects(P0, Move::RemoveKnight { vertex: v("1,0,N") }, "nothing_to_decide");
    s.rejects(P1, Move::RemoveKnight { vertex: v("0,2,N") }, "not_your_knight");
    s.rejects(P1, Move::EndTurn, "wrong_phase");
    assert_eq!(s.game.legal_moves(P1).len(), 2);
    let events = s.when(P1, Move::RemoveKnight { vertex: v("1,0,N") });
    assert_eq!(events[0], Event::KnightDeserted { seat: P1, vertex: v("1,0,N"), rank: 2, active: true });
    assert!(s.game.knight_at(v("1,0,N")).is_none());
    assert_eq!(decision(&s), CardDecision::PlaceDeserterKnight { seat: P0, rank: 2, active: true });
    // The only empty vertex at the end of P0's road is (1,-2,S); declining is listed too.
    assert_eq!(
        s.game.legal_moves(P0),
        vec![Move::PlaceDeserterKnight { vertex: None }, Move::PlaceDeserterKnight { vertex: Some(v("1,-2,S")) }]
    );
    s.rejects(P0, Move::PlaceDeserterKnight { vertex: Some(v("-1,0,N")) }, "knight_not_connected");
    s.rejects(P0, Move::PlaceDeserterKnight { vertex: Some(v("0,-1,N")) }, "vertex_occupied");
    s.when(P0, Move::PlaceDeserterKnight { vertex: Some(v("1,-2,S")) });
    let knight = *s.game.knight_at(v("1,-2,S")).unwrap();
    assert_eq!((knight.seat, knight.rank, knight.active), (P0, 2, true));
    assert_eq!(*s.game.phase(), Phase::Main);

    // P2's only knight goes at once; P0 declines to place one.
    let mut s = given().start();
    let events = s.when(P0, play(ProgressPlay::Deserter { target: P2 }));
    assert_eq!(events[1], Event::KnightDeserted { seat: P2, vertex: v("0,2,N"), rank: 1, active: true });
    assert_eq!(decision(&s), CardDecision::PlaceDeserterKnight { seat: P0, rank: 1, active: true });
    s.when(P0, Move::PlaceDeserterKnight { vertex: None });
    assert_eq!((s.game.phase().clone(), s.game.knights().iter().filter(|k| k.seat == P0).count()), (Phase::Main, 0));

    // Both of P0's strong pieces on the board: a weaker (basic) knight replaces the strong one.
    let setup = given_with(ck(4))
        .city(P0, "0,-1,N")
        .roads_along(P0, &["0,-2,S", "0,-1,N", "1,-2,S", "1,-1,N"])
        .with_knight(P0, v("0,-2,S"), 2, false)
        .with_knight(P0, v("1,-2,S"), 2, false)
        .settlement(P1, "2,0,S")
        .with_knight(P1, v("1,0,N"), 2, true)
        .with_knight(P1, v("-2,2,N"), 1, false)
        .main_phase(P0);
    let mut s = holding(setup, P0, &[ProgressCard::Deserter]).start();
    s.when(P0, play(ProgressPlay::Deserter { target: P1 }));
    s.when(P1, Move::RemoveKnight { vertex: v("1,0,N") });
    assert_eq!(decision(&s), CardDecision::PlaceDeserterKnight { seat: P0, rank: 1, active: true });
}

/// CK-PC-7 Diplomat, B-LR-5: an open road of any player is removed (Longest Road measured
/// again: P1's five roads fall to four and the card is set aside); a road between two of
/// its owner's pieces is not open; one's own open road may be put elsewhere for free.
#[test]
fn ck_pc_7_diplomat_removes_an_open_road_and_moves_ones_own() {
    let walk = ["-1,0,N", "0,-1,S", "0,0,N", "1,-1,S", "1,0,N", "2,-1,S"];
    let given = || {
        let setup = given_with(ck(4))
            .settlement(P1, "-1,0,N")
            .roads_along(P1, &walk)
            .city(P0, "0,1,S")
            .road(P0, "0,1,SE")
            .main_phase(P0);
        holding(setup, P0, &[ProgressCard::Diplomat])
    };
    let roads = path(&walk);
    let elsewhere = path(&["0,1,S", "-1,2,N"])[0];
    let mut s = given().start();
    assert_eq!(s.game.longest_road_holder(), Some(P1));
    s.rejects(P0, play(ProgressPlay::Diplomat { edge: roads[0], to: None }), "road_not_open");
    s.rejects(P0, play(ProgressPlay::Diplomat { edge: e("1,1,NE"), to: None }), "no_road_on_edge");
    s.rejects(P0, play(ProgressPlay::Diplomat { edge: roads[4], to: Some(elsewhere) }), "road_not_yours");
    s.rejects(P0, play(ProgressPlay::Diplomat { edge: e("0,1,SE"), to: Some(e("0,1,SE")) }), "road_not_moved");
    s.rejects(P0, play(ProgressPlay::Diplomat { edge: e("0,1,SE"), to: Some(e("1,1,NE")) }), "road_not_connected");
    let plays = listed_plays(&s, P0);
    assert!(plays.contains(&ProgressPlay::Diplomat { edge: roads[4], to: None }));
    assert!(!plays.iter().any(|p| matches!(p, ProgressPlay::Diplomat { edge, .. } if *edge == roads[0])));
    let events = s.when(P0, play(ProgressPlay::Diplomat { edge: roads[4], to: None }));
    assert_eq!(events[1], Event::RoadRemoved { seat: P0, owner: P1, edge: roads[4] });
    assert!(events.iter().any(|e| matches!(e, Event::LongestRoadChanged { holder: None, .. })), "{events:?}");
    assert_eq!((s.game.road_at(roads[4]), s.game.longest_road_holder()), (None, None));
    assert_eq!(s.game.player(P1).unwrap().pieces_left().roads, 15 - 4);
    returned(&s, P0, ProgressCard::Diplomat);

    // P0's own open road moves to another edge at its city.
    let mut s = given().start();
    let moved = ProgressPlay::Diplomat { edge: e("0,1,SE"), to: Some(elsewhere) };
    assert!(listed_plays(&s, P0).contains(&moved));
    let events = s.when(P0, play(moved));
    assert_eq!(events[2], Event::RoadBuilt { seat: P0, edge: elsewhere, cost: Resources::ZERO });
    assert_eq!((s.game.road_at(e("0,1,SE")), s.game.road_at(elsewhere)), (None, Some(P0)));
    assert_eq!(s.game.player(P0).unwrap().pieces_left().roads, 15 - 1);
}

/// CK-PC-7 Intrigue, CK-KNT-7: P1's knight at the end of P0's road is displaced without a
/// knight of P0's; P1 relocates it along its roads. A knight not at P0's road, or no
/// opponent's knight, is refused.
#[test]
fn ck_pc_7_intrigue_displaces_a_knight_at_the_end_of_ones_road() {
    let setup = given_with(ck(4))
        .city(P0, "0,1,N")
        .road(P0, "0,1,NE")
        .settlement(P1, "2,0,S")
        .roads_along(P1, &["2,0,S", "1,1,N", "1,0,S"])
        .with_knight(P1, v("1,0,S"), 1, true)
        .with_knight(P2, v("-2,2,N"), 1, true)
        .with_knight(P0, v("0,1,S"), 1, false)
        .main_phase(P0);
    let mut s = holding(setup, P0, &[ProgressCard::Intrigue]).start();
    s.rejects(P0, play(ProgressPlay::Intrigue { vertex: v("-2,2,N") }), "knight_not_at_your_road");
    s.rejects(P0, play(ProgressPlay::Intrigue { vertex: v("0,1,S") }), "no_knight_to_displace");
    s.rejects(P0, play(ProgressPlay::Intrigue { vertex: v("-1,0,N") }), "no_knight_to_displace");
    assert_eq!(listed_plays(&s, P0), vec![ProgressPlay::Intrigue { vertex: v("1,0,S") }]);
    let events = s.when(P0, play(ProgressPlay::Intrigue { vertex: v("1,0,S") }));
    assert_eq!(
        events[1],
        Event::KnightIntrigued { seat: P0, vertex: v("1,0,S"), displaced: P1, rank: 1, active: true }
    );
    returned(&s, P0, ProgressCard::Intrigue);
    assert_eq!(*s.game.phase(), Phase::RelocateKnight { seat: P1, vertex: v("1,0,S"), rank: 1, active: true });
    // The position round-trips mid-relocation, with no knight on the vertex.
    let mid = Setup::from(&s.game).position().expect("a relocation after an Intrigue is a valid position");
    assert!(mid == s.game);
    assert_eq!(s.game.legal_moves(P1), vec![Move::RelocateKnight { to: v("1,1,N") }]);
    s.when(P1, Move::RelocateKnight { to: v("1,1,N") });
    let knight = *s.game.knight_at(v("1,1,N")).unwrap();
    assert_eq!((knight.seat, knight.active), (P1, true));
    assert_eq!(*s.game.phase(), Phase::Main);
}

/// CK-PC-7 Saboteur, CK-7-1: every other seat with at least P0's points discards half of its
/// resources and commodities (rounded down) with the moves of a 7; fewer points, or a hand of
/// one card, owe nothing; then P0's main phase resumes.
#[test]
fn ck_pc_7_saboteur_halves_the_hands_of_seats_with_as_many_points() {
    let setup = given_with(ck(4))
        .city(P0, "-1,0,S")
        .road(P0, "-1,0,SE")
        .give(P0, Resources::of(Resource::Grain, 9))
        .settlement(P1, "0,-1,N")
        .road(P1, "0,-1,NE")
        .give(P1, Resources::of(Resource::Ore, 8))
        .city(P2, "2,0,S")
        .roads_along(P2, &["2,0,S", "1,1,N"])
        .give(P2, Resources::of(Resource::Ore, 3))
        .with_commodities(P2, Commodities::new(0, 0, 2))
        .city(P3, "0,2,N")
        .settlement(P3, "2,-2,N")
        .road(P3, "0,2,NE")
        .give(P3, Resources::of(Resource::Wool, 1))
        .main_phase(P0);
    let mut s = holding(setup, P0, &[ProgressCard::Saboteur]).start();
    assert_eq!(listed_plays(&s, P0), vec![ProgressPlay::Saboteur]);
    let events = s.when(P0, play(ProgressPlay::Saboteur));
    returned(&s, P0, ProgressCard::Saboteur);
    // P1 (1 point) is spared; P3 (3 points) holds one card; P0 never discards.
    assert_eq!(events.len(), 2, "{events:?}");
    assert_eq!(*s.game.phase(), Phase::Discard { pending: vec![PendingDiscard { seat: P2, count: 2 }].into() });
    assert_eq!(s.game.then(), &[Phase::Main]);
    s.rejects(P0, Move::EndTurn, "wrong_phase");
    s.rejects(
        P2,
        Move::DiscardCards { cards: Cards::of_commodities(Commodities::new(0, 0, 1)) },
        "wrong_discard_count",
    );
    let discard = Move::DiscardCards { cards: Cards::new(Resources::of(Resource::Ore, 1), Commodities::new(0, 0, 1)) };
    assert!(s.game.legal_moves(P2).contains(&Move::Discard { resources: Resources::of(Resource::Ore, 2) }));
    let events = s.when(P2, discard);
    // CK-7-1: the cards discarded are P2's business only.
    assert_eq!(seen_by(&events, P3)[0], Event::CardsDiscarded { seat: P2, count: 2, cards: None });
    assert_eq!(s.game.hand_cards(P2).total(), 3);
    assert_eq!(*s.game.phase(), Phase::Main);
}

/// CK-PC-7 Spy, CK-PC-6: the spy alone sees the target's progress cards (in the event and
/// in its view while it chooses) and takes one that is not a VP card; with one kind to take
/// it is taken at once.
#[test]
fn ck_pc_7_spy_takes_one_card_the_spy_alone_sees() {
    let given = |p1: &[ProgressCard]| {
        let setup = given_with(ck(4)).city(P0, "-1,0,S").road(P0, "-1,0,SE").main_phase(P0);
        holding(holding(setup, P0, &[ProgressCard::Spy]), P1, p1)
    };
    let shown = [ProgressCard::Warlord, ProgressCard::Constitution, ProgressCard::Saboteur];
    let mut s = given(&shown).start();
    s.rejects(P0, play(ProgressPlay::Spy { target: P0 }), "not_an_opponent");
    s.rejects(P0, play(ProgressPlay::Spy { target: Seat(7) }), "unknown_seat");
    assert_eq!(listed_plays(&s, P0).len(), 3);
    let events = s.when(P0, play(ProgressPlay::Spy { target: P1 }));
    returned(&s, P0, ProgressCard::Spy);
    let cards = s.game.progress_cards(P1);
    assert_eq!(events[1], Event::ProgressCardsRevealed { seat: P0, target: P1, cards: Some(cards) });
    assert_eq!(seen_by(&events, P2)[1], Event::ProgressCardsRevealed { seat: P0, target: P1, cards: None });
    assert_eq!(seen_by(&events, P1)[1], events[1]);
    assert_eq!(decision(&s), CardDecision::TakeProgressCard { seat: P0, target: P1 });
    // The view shows the target's cards to the spy alone.
    let spied = |viewer| s.game.view(Viewer::Seat(viewer)).cities_and_knights.unwrap().spied;
    assert_eq!(spied(P0).map(|x| (x.target, x.cards)), Some((P1, cards)));
    assert_eq!((spied(P1), spied(P2)), (None, None));
    assert_eq!(s.game.view(Viewer::Spectator).cities_and_knights.unwrap().spied, None);
    assert_eq!(
        s.game.legal_moves(P0),
        vec![
            Move::TakeProgressCard { card: ProgressCard::Saboteur },
            Move::TakeProgressCard { card: ProgressCard::Warlord }
        ]
    );
    s.rejects(P0, Move::TakeProgressCard { card: ProgressCard::Constitution }, "victory_point_card_kept");
    s.rejects(P0, Move::TakeProgressCard { card: ProgressCard::Bishop }, "progress_card_not_held");
    s.rejects(P2, Move::TakeProgressCard { card: ProgressCard::Warlord }, "nothing_to_decide");
    let events = s.when(P0, Move::TakeProgressCard { card: ProgressCard::Warlord });
    assert_eq!(events[0], Event::ProgressCardTaken { seat: P0, from: P1, card: Some(ProgressCard::Warlord) });
    assert_eq!(seen_by(&events, P2)[0], Event::ProgressCardTaken { seat: P0, from: P1, card: None });
    assert_eq!((s.game.progress_cards(P0).get(ProgressCard::Warlord), s.game.progress_cards(P1).total()), (1, 2));
    assert_eq!(*s.game.phase(), Phase::Main);
    s.rejects(P0, Move::TakeProgressCard { card: ProgressCard::Saboteur }, "nothing_to_decide");

    // One kind to take: at once, no decision.
    let mut s = given(&[ProgressCard::Diplomat, ProgressCard::Diplomat]).start();
    s.when(P0, play(ProgressPlay::Spy { target: P1 }));
    assert_eq!((s.game.progress_cards(P0).get(ProgressCard::Diplomat), s.game.phase().clone()), (1, Phase::Main));
    // Timing (CK-PC-2): not before the roll.
    let s = given(&[]).turn(P0).start();
    s.rejects(P0, play(ProgressPlay::Spy { target: P1 }), "progress_card_timing");
}

/// CK-PC-7 Warlord, CK-KNT-4/5: every inactive knight of P0's becomes active for free; it
/// counts as activated this turn (it may not act before the next).
#[test]
fn ck_pc_7_warlord_activates_every_knight_for_free() {
    let setup = given_with(ck(4))
        .city(P0, "0,-1,N")
        .road(P0, "0,-1,NE")
        .with_knight(P0, v("1,-2,S"), 1, false)
        .with_knight(P0, v("0,-1,S"), 2, true)
        .with_knight(P1, v("-2,2,N"), 1, false)
        .main_phase(P0);
    let mut s = holding(setup, P0, &[ProgressCard::Warlord]).start();
    assert_eq!(listed_plays(&s, P0), vec![ProgressPlay::Warlord]);
    let events = s.when(P0, play(ProgressPlay::Warlord));
    assert_eq!(events[1..], [Event::KnightActivated { seat: P0, vertex: v("1,-2,S"), cost: Resources::ZERO }]);
    let knight = *s.game.knight_at(v("1,-2,S")).unwrap();
    assert_eq!((knight.active, knight.activated_this_turn), (true, true));
    assert!(!s.game.knight_at(v("-2,2,N")).unwrap().active);
    assert_eq!(s.hand(P0), Resources::ZERO);
    returned(&s, P0, ProgressCard::Warlord);
    s.rejects(P0, Move::MoveKnight { from: v("1,-2,S"), to: v("0,-1,N") }, "knight_cannot_act");
}

/// CK-PC-7 Wedding: every seat with more points than P0 gives it two cards of its choice;
/// with two or fewer cards it gives them all at once; the cards are the giver's and the
/// receiver's business only.
#[test]
fn ck_pc_7_wedding_seats_with_more_points_give_two_cards() {
    let setup = given_with(ck(4))
        .city(P0, "0,0,S")
        .road(P0, "0,0,SE")
        .city(P1, "0,-1,N")
        .city(P1, "2,-2,S")
        .road(P1, "0,-1,NE")
        .give(P1, Resources::of(Resource::Ore, 4))
        .with_commodities(P1, Commodities::new(0, 1, 0))
        .city(P2, "2,0,S")
        .settlement(P2, "0,2,N")
        .roads_along(P2, &["2,0,S", "1,1,N"])
        .give(P2, Resources::of(Resource::Wool, 1))
        .with_commodities(P2, Commodities::new(1, 0, 0))
        .city(P3, "-2,2,N")
        .road(P3, "-2,2,NE")
        .give(P3, Resources::of(Resource::Grain, 5))
        .main_phase(P0);
    let mut s = holding(setup, P0, &[ProgressCard::Wedding]).start();
    assert_eq!(listed_plays(&s, P0), vec![ProgressPlay::Wedding]);
    let events = s.when(P0, play(ProgressPlay::Wedding));
    returned(&s, P0, ProgressCard::Wedding);
    let p2_gift = Cards::new(Resources::of(Resource::Wool, 1), Commodities::new(1, 0, 0));
    assert_eq!(events[1], Event::CardsGiven { seat: P2, to: P0, count: 2, cards: Some(p2_gift) });
    assert_eq!(seen_by(&events, P3)[1], Event::CardsGiven { seat: P2, to: P0, count: 2, cards: None });
    // P3, with as many points as P0, gives nothing; P1 chooses.
    assert_eq!(decision(&s), CardDecision::GiveCards { to: P0, pending: vec![P1].into() });
    s.rejects(
        P3,
        Move::GiveCards { cards: Cards::of_resources(Resources::of(Resource::Grain, 2)) },
        "nothing_to_decide",
    );
    s.rejects(P1, Move::GiveCards { cards: Cards::of_resources(Resources::of(Resource::Ore, 3)) }, "wrong_gift_count");
    s.rejects(
        P1,
        Move::GiveCards { cards: Cards::of_commodities(Commodities::new(0, 2, 0)) },
        "insufficient_resources",
    );
    s.rejects(P0, Move::EndTurn, "nothing_to_decide");
    // Every pair P1 can give: 2 ore, or 1 ore + 1 cloth.
    assert_eq!(s.game.legal_moves(P1).len(), 2);
    let gift = Cards::new(Resources::of(Resource::Ore, 1), Commodities::new(0, 1, 0));
    let events = s.when(P1, Move::GiveCards { cards: gift });
    assert_eq!(seen_by(&events, P2)[0], Event::CardsGiven { seat: P1, to: P0, count: 2, cards: None });
    assert_eq!(seen_by(&events, P0)[0], events[0]);
    let mut expected = p2_gift;
    expected.resources += gift.resources;
    expected.commodities += gift.commodities;
    assert_eq!(s.game.hand_cards(P0), expected);
    assert_eq!(s.game.hand_cards(P1).total(), 3);
    assert_eq!(*s.game.phase(), Phase::Main);
}
