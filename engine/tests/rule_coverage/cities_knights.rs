//! The rules of RULES.md 8.6 (Cities & Knights) that no other test cited.

use catan_engine::{
    board::Terrain, Draw, Event, EventFace, FixedChance, GameConfig, Move, ProgressCard, ProgressCards, ProgressPlay,
    Resource, Resources, Seat, Setup, Track, Viewer, EVENT_DIE,
};

use crate::base::Recorded;
use crate::support::*;

/// A Cities & Knights game of `players` on the beginner board, P0 first.
fn ck(players: u8) -> GameConfig {
    let mut config = config(players);
    config.enable_variants("cities_and_knights").expect("variant");
    config
}

/// Chance that rolls `face` on the event die and `red`, `white` on the number dice.
fn roll(face: EventFace, red: u8, white: u8) -> FixedChance {
    FixedChance::dice(red, white).then(EVENT_DIE, face.index())
}

fn holds(mut setup: Setup, seat: Seat, cards: &[ProgressCard]) -> Setup {
    let mut hand = ProgressCards::default();
    for &card in cards {
        *hand.get_mut(card) += 1;
    }
    setup.cities_knights.progress.push((seat, hand));
    setup
}

/// CK-CMP-8, CK-EVT-1: a roll throws a red and a white die (their sum is the production roll)
/// and the event die, whose six faces are three ships and a yellow (trade), a blue (politics)
/// and a green (science) gate.
#[test]
fn ck_cmp_8_ck_evt_1_the_red_white_and_event_dice() {
    let s = given_with(ck(4)).turn(P0).start();
    let mut chance = Recorded { chance: roll(EventFace::Trade, 4, 2), draws: vec![] };
    let events = s.game.decide(P0, &Move::RollDice, &mut chance).expect("the roll");
    let event_die = chance.draws.iter().find(|(draw, _)| *draw == EVENT_DIE).expect("the event die is thrown");
    assert_eq!(event_die.1, vec![3, 1, 1, 1]);
    assert_eq!(EventFace::ALL, [EventFace::Ship, EventFace::Trade, EventFace::Politics, EventFace::Science]);
    assert_eq!(
        EventFace::ALL.map(EventFace::track),
        [None, Some(Track::Trade), Some(Track::Politics), Some(Track::Science)]
    );
    for die in [Draw::RED_DIE, Draw::WHITE_DIE] {
        assert!(chance.draws.contains(&(die, vec![1; 6])), "{die:?}");
    }
    assert!(events.contains(&Event::EventDieRolled { seat: P0, face: EventFace::Trade }));
    assert!(events.contains(&Event::DiceRolled { seat: P0, red: 4, white: 2 }));
    let roll = events.iter().find_map(|event| match event {
        Event::ResourcesProduced { roll, .. } => Some(*roll),
        _ => None,
    });
    assert_eq!(roll, Some(6));
}

/// CK-CMP-9, CK-SET-3: at the start the barbarian ship is at position 0 of its track (7 steps
/// by default), the robber on the desert, every improvement at level 0, and no knight, wall,
/// metropolis or merchant on the board.
#[test]
fn ck_cmp_9_ck_set_3_the_start_of_a_cities_and_knights_game() {
    let s = Scenario::with(ck(4));
    let view = s.game.view(Viewer::Spectator);
    let ck_view = view.cities_and_knights.expect("the C&K part");
    assert_eq!((ck_view.barbarians, ck_view.barbarian_steps, ck_view.attacks), (0, 7, 0));
    assert_eq!(s.game.barbarian_position(), 0);
    let desert = s.game.board().layout().hexes.iter().find(|tile| tile.terrain == Terrain::Desert).unwrap().hex;
    assert_eq!(s.game.robber_hex(), Some(desert));
    for seat in &ck_view.seats {
        assert_eq!(seat.improvements, [0, 0, 0]);
        assert!(seat.knights.is_empty() && seat.walls.is_empty() && seat.metropolises.is_empty());
    }
    assert_eq!(ck_view.merchant, None);
    assert!(s.game.knights().is_empty());
}

/// CK-PROD-1: a settlement produces one resource, as in the base game, and no commodity.
#[test]
fn ck_prod_1_a_settlement_takes_one_resource() {
    let mut s = given_with(ck(3)).settlement(P0, "-1,0,S").road(P0, "-1,0,SE").turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Trade, 5, 6));
    assert_eq!(s.hand(P0), Resources::new(1, 0, 0, 0, 0));
    assert!(s.game.player(P0).unwrap().commodities().is_empty());
    assert!(!events.iter().any(|event| matches!(event, Event::CommoditiesProduced { .. })));
}

/// CK-KNT-10: knights carry no victory point, recruited or active.
#[test]
fn ck_knt_10_knights_score_nothing() {
    let mut s = given_with(ck(4))
        .city(P0, "0,-1,N")
        .road(P0, "0,-1,NE")
        .give(P0, Resources::new(0, 0, 1, 1, 1))
        .main_phase(P0)
        .start();
    let points = s.game.victory_points(P0);
    s.when(P0, Move::RecruitKnight { vertex: v("1,-2,S") });
    assert_eq!(s.game.victory_points(P0), points);
    s.when(P0, Move::ActivateKnight { vertex: v("1,-2,S") });
    assert!(s.game.knight_at(v("1,-2,S")).unwrap().active);
    assert_eq!(s.game.victory_points(P0), points);
    assert_eq!(s.game.public_victory_points(P0), points);
}

/// CK-PC-1: progress cards cannot be bought; they come from event-die draws.
#[test]
fn ck_pc_1_progress_cards_are_drawn_never_bought() {
    let s = given_with(ck(4)).give(P0, Resources::new(0, 0, 1, 1, 1)).main_phase(P0).start();
    s.rejects(P0, Move::BuyDevelopmentCard, "not_in_this_game");
    let mut s =
        given_with(ck(4)).city(P1, "1,-1,N").road(P1, "1,-1,NE").with_improvements(P1, [0, 0, 1]).turn(P0).start();
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Science, 1, 2));
    assert!(events
        .iter()
        .any(|event| matches!(event, Event::ProgressCardDrawn { seat, track: Track::Science, .. } if *seat == P1)));
    assert_eq!(s.game.progress_cards(P1).total(), 1);
}

/// CK-CMP-7, CK-TRD-3: there is one merchant: it starts off the board, a Merchant card puts it
/// beside its player's buildings for a 2:1 rate, and the next Merchant takes it away; the
/// Merchant Fleet gives a 2:1 rate too.
#[test]
fn ck_cmp_7_ck_trd_3_the_one_merchant_and_the_fleet_give_two_for_one() {
    let given =
        given_with(ck(4)).settlement(P0, "0,0,N").road(P0, "0,-1,E").settlement(P1, "-1,0,S").road(P1, "-1,0,SE");
    let given =
        holds(holds(given, P0, &[ProgressCard::Merchant, ProgressCard::MerchantFleet]), P1, &[ProgressCard::Merchant]);
    let mut s = given.main_phase(P0).start();
    assert_eq!(s.game.merchant(), None);
    assert_eq!(s.game.bank_rates(P0).get(Resource::Wool), 4);
    s.when(P0, Move::PlayProgressCard { play: ProgressPlay::Merchant { hex: h("1,-1") } });
    assert_eq!(s.game.merchant().map(|merchant| (merchant.seat, merchant.hex)), Some((P0, h("1,-1"))));
    assert_eq!(s.game.bank_rates(P0).get(Resource::Wool), 2, "the merchant's hex is a pasture");
    s.when(
        P0,
        Move::PlayProgressCard {
            play: ProgressPlay::MerchantFleet { good: catan_engine::Good::Resource(Resource::Ore) },
        },
    );
    assert_eq!(s.game.bank_rates(P0).get(Resource::Ore), 2);

    let mut s = s.then_given().main_phase(P1).start();
    s.when(P1, Move::PlayProgressCard { play: ProgressPlay::Merchant { hex: h("-1,0") } });
    assert_eq!(s.game.merchant().map(|merchant| merchant.seat), Some(P1), "one figure: it moves");
    assert_eq!(s.game.bank_rates(P0).get(Resource::Wool), 4);
}

/// CK-CMP-6: three metropolises, one per improvement track: a seat may hold all three, each
/// on its own city, and no track has a second.
#[test]
fn ck_cmp_6_one_metropolis_per_track() {
    let cities = ["-1,-1,N", "1,-1,N", "0,1,N"];
    let given =
        cities.iter().fold(given_with(ck(4)), |setup, city| setup.city(P0, city)).with_improvements(P0, [4, 4, 4]);
    let all = Track::ALL
        .iter()
        .zip(cities)
        .fold(given.clone(), |setup, (track, city)| setup.with_metropolis(P0, *track, v(city)));
    let s = all.main_phase(P0).start();
    assert_eq!(Track::ALL.len(), 3);
    for (track, city) in Track::ALL.iter().zip(cities) {
        assert_eq!(s.game.metropolis(*track).map(|m| (m.seat, m.vertex)), Some((P0, v(city))));
    }
    assert_eq!(s.game.metropolis_points(P0), 6);
    let twice = given.with_metropolis(P0, Track::Trade, v(cities[0])).with_metropolis(P0, Track::Trade, v(cities[1]));
    assert!(twice.main_phase(P0).position().is_err(), "a second trade metropolis");
}

/// CK-CMP-3: six Defender of Catan cards; when they are gone the point is still awarded.
#[test]
fn ck_cmp_3_defender_points_outlast_the_six_cards() {
    let mut given = given_with(ck(3))
        .with_barbarians(6, 0)
        .city(P0, "-1,-1,N")
        .city(P0, "1,-1,N")
        .city(P1, "0,-2,N")
        .city(P2, "1,1,N")
        .with_knight(P0, v("-1,0,N"), 3, true)
        .with_knight(P1, v("1,0,N"), 1, true)
        .turn(P0);
    given.cities_knights.defenders = vec![(P1, 6)];
    let mut s = given.start();
    assert_eq!(s.game.defender_points(P1), 6);
    let before = s.game.public_victory_points(P0);
    let events = s.when_with(P0, Move::RollDice, roll(EventFace::Ship, 2, 3));
    assert!(events.contains(&Event::DefenderOfCatan { seat: P0 }), "{events:?}");
    assert_eq!(s.game.defender_points(P0), 1);
    assert_eq!(s.game.public_victory_points(P0), before + 1);
}
