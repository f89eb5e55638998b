//! 9.12 Cities & Knights, progress cards in hand: TC-92 and the rules it cites (CK-PC-3..5:
//! the hand limit, its overflow, discarded cards under their decks, hidden discards), the
//! `progress_hand_limit` and `progress_overflow_play_option` settings, and TC-97 (13 points
//! win). The beginner board with P0 first.

use catan_engine::{
    CardDecision, Chance, DevCard, Draw, Event, EventFace, FixedChance, Game, GameConfig, Move, PendingDiscard, Phase,
    ProgressCard, ProgressCards, Resources, Seat, Setup, Track, Viewer, PROGRESS_CARD,
};

use super::cities_knights::{ck, roll};
use super::support::*;

use ProgressCard as C;

/// A hand of progress cards.
fn cards(list: &[C]) -> ProgressCards {
    list.iter().fold(ProgressCards::default(), |hand, &c| hand + ProgressCards::of(c, 1))
}

/// Four politics cards, none of them a VP card.
fn four_politics() -> ProgressCards {
    cards(&[C::Spy, C::Bishop, C::Warlord, C::Wedding])
}

/// Every seat has a city, P0 and P2 a road; `levels` are P2's (trade, politics, science).
fn board(config: GameConfig) -> Setup {
    given_with(config).city(P0, "-1,0,S").road(P0, "-1,0,SE").city(P1, "1,-1,N").city(P2, "2,0,S").city(P3, "0,2,N")
}

/// `seat` holds `hand`.
fn holding(mut setup: Setup, seat: Seat, hand: ProgressCards) -> Setup {
    setup.cities_knights.progress.push((seat, hand));
    setup
}

/// P0 rolls a politics gate with red 1: seats at politics 1 draw; the card drawn is `card`.
fn politics_roll(card: C) -> FixedChance {
    roll(EventFace::Politics, 1, 1).then(PROGRESS_CARD, card as usize)
}

fn discard(card: C) -> Move {
    Move::DiscardProgressCard { card }
}

fn drawn(events: &[Event]) -> Vec<(Seat, Option<C>)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::ProgressCardDrawn { seat, card, .. } => Some((*seat, *card)),
            _ => None,
        })
        .collect()
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|m| format!("{m:?}"));
    moves
}

/// The discards `seat` may make of `hand`.
fn discards_of(hand: &[C]) -> Vec<Move> {
    sorted(hand.iter().map(|&c| discard(c)).collect())
}

/// TC-92 [CK-PC-4, CK-PC-5]: non-active P2 holds 4 progress cards and draws a 5th on P0's
/// roll → a `card_decision` (`discard_progress_cards`) waits for P2 alone: P2 must discard 1
/// (`discard_progress_card`, its choice among its cards) before play continues; the other
/// seats have nothing to decide. The discard ends the decision and P0's main phase goes on.
#[test]
fn tc_92_a_non_active_seat_over_the_limit_discards_before_play_continues() {
    let given = holding(board(ck(4)).with_improvements(P2, [0, 1, 0]).turn(P0), P2, four_politics());
    let mut s = given.start();
    assert_eq!(s.game.progress_hand_limit(), 4);
    let events = s.when_with(P0, Move::RollDice, politics_roll(C::Deserter));
    assert_eq!(drawn(&events), vec![(P2, Some(C::Deserter))]);
    let waiting = Phase::CardDecision {
        decision: CardDecision::DiscardProgressCards { pending: vec![PendingDiscard { seat: P2, count: 1 }].into() },
    };
    assert_eq!(*s.game.phase(), waiting);
    assert_eq!(s.game.phase().name(), "card_decision");
    assert_eq!(serde_json::to_value(s.game.phase()).unwrap()["decision"]["kind"], "discard_progress_cards");

    // Only P2 decides: the others have nothing to do, P2 nothing else to do.
    for seat in [P0, P1, P3] {
        assert!(s.game.legal_moves(seat).is_empty(), "{seat} may move while P2 decides");
    }
    s.rejects(P0, Move::EndTurn, "nothing_to_decide");
    s.rejects(P1, discard(C::Spy), "nothing_to_decide");
    s.rejects(P2, Move::EndTurn, "wrong_phase");
    assert_eq!(sorted(s.game.legal_moves(P2)), discards_of(&[C::Spy, C::Bishop, C::Warlord, C::Wedding, C::Deserter]));
    s.rejects(P2, discard(C::Saboteur), "progress_card_not_held");

    let events = s.when(P2, discard(C::Warlord));
    assert!(events.contains(&Event::ProgressCardDiscarded {
        seat: P2,
        track: Track::Politics,
        card: Some(C::Warlord)
    }));
    assert_eq!(*s.game.phase(), Phase::Main);
    assert_eq!(s.game.progress_cards(P2), cards(&[C::Spy, C::Bishop, C::Wedding, C::Deserter]));
    assert!(s.game.legal_moves(P0).contains(&Move::EndTurn));
    // CK-PC-3: the card lies under the politics deck.
    assert_eq!(Setup::from(&s.game).cities_knights.returned, vec![C::Warlord]);
}

/// TC-92 [CK-PC-4, CK-PC-5]: a seat owing two discards decides twice; it stays the only
/// decider until both are made.
#[test]
fn ck_pc_5_a_seat_two_over_the_limit_discards_twice() {
    let config = GameConfig { progress_hand_limit: Some(3), ..ck(4) };
    let given = holding(board(config).with_improvements(P2, [0, 1, 0]).turn(P0), P2, four_politics());
    let mut s = given.start();
    s.when_with(P0, Move::RollDice, politics_roll(C::Deserter));
    let owed = |count| Phase::CardDecision {
        decision: CardDecision::DiscardProgressCards { pending: vec![PendingDiscard { seat: P2, count }].into() },
    };
    assert_eq!(*s.game.phase(), owed(2));
    s.when(P2, discard(C::Spy));
    assert_eq!(*s.game.phase(), owed(1));
    s.rejects(P2, discard(C::Spy), "progress_card_not_held");
    s.when(P2, discard(C::Bishop));
    assert_eq!(*s.game.phase(), Phase::Main);
    assert_eq!(s.game.progress_hand_size(P2), 3);
}

/// TC-92 [CK-PC-5, `progress_overflow_play_option` true]: active P0 with 4 cards draws a
/// 5th on its own roll → its main phase starts, but it may only play or discard until it is
/// within the limit: every other move is refused (`progress_hand_over_limit`) and unlisted.
/// The legal moves are the discards and the plays of the cards held.
#[test]
fn tc_92_the_active_seat_over_the_limit_plays_or_discards_first_in_its_main_phase() {
    let given = holding(
        board(ck(4)).with_improvements(P0, [0, 1, 0]).give(P0, Resources::new(1, 1, 0, 0, 0)).turn(P0),
        P0,
        four_politics(),
    );
    let mut s = given.start();
    let events = s.when_with(P0, Move::RollDice, politics_roll(C::Saboteur));
    assert_eq!(drawn(&events), vec![(P0, Some(C::Saboteur))]);
    assert_eq!(*s.game.phase(), Phase::Main);
    let (plays, discards): (Vec<Move>, Vec<Move>) =
        s.game.legal_moves(P0).into_iter().partition(|m| matches!(m, Move::PlayProgressCard { .. }));
    assert_eq!(sorted(discards), discards_of(&[C::Spy, C::Bishop, C::Warlord, C::Wedding, C::Saboteur]));
    assert!(plays.iter().any(|m| matches!(m, Move::PlayProgressCard { play } if play.card() == C::Spy)), "{plays:?}");
    // The road P0 may build once within the limit is refused before.
    let mut within = Scenario { game: s.game.clone() };
    within.when(P0, discard(C::Spy));
    let road = within.game.legal_moves(P0).into_iter().find(|m| matches!(m, Move::BuildRoad { .. })).expect("a road");
    for mv in [Move::EndTurn, road.clone()] {
        s.rejects(P0, mv, "progress_hand_over_limit");
    }
    // Other seats have nothing to discard.
    s.rejects(P1, discard(C::Spy), "nothing_to_decide");
    s.when(P0, discard(C::Spy));
    assert_eq!(s.game.progress_hand_size(P0), 4);
    let moves = s.game.legal_moves(P0);
    assert!(moves.contains(&Move::EndTurn) && moves.contains(&road), "{moves:?}");
    assert!(!moves.iter().any(|m| matches!(m, Move::DiscardProgressCard { .. })), "{moves:?}");
    s.rejects(P0, discard(C::Bishop), "nothing_to_decide");
}

/// CK-PC-5 with `progress_overflow_play_option: false` (seed [000]): the active seat over the
/// limit discards at once, in a `card_decision`, like every other seat; then its main phase.
#[test]
fn ck_pc_5_without_the_play_option_the_active_seat_discards_at_once() {
    let config = GameConfig { progress_overflow_play_option: false, ..ck(4) };
    let given = holding(board(config).with_improvements(P0, [0, 1, 0]).turn(P0), P0, four_politics());
    let mut s = given.start();
    s.when_with(P0, Move::RollDice, politics_roll(C::Saboteur));
    assert_eq!(
        *s.game.phase(),
        Phase::CardDecision {
            decision: CardDecision::DiscardProgressCards {
                pending: vec![PendingDiscard { seat: P0, count: 1 }].into()
            }
        }
    );
    s.rejects(P0, Move::EndTurn, "wrong_phase");
    s.rejects(P1, Move::EndTurn, "nothing_to_decide");
    s.when(P0, discard(C::Saboteur));
    assert_eq!(*s.game.phase(), Phase::Main);
    assert!(s.game.legal_moves(P0).contains(&Move::EndTurn));
}

/// TC-92 [CK-PC-5, CK-EVT-3]: a Printer drawn as the 5th card is revealed and scores 1
/// point at once; VP cards do not count against the limit, so nothing is discarded.
#[test]
fn tc_92_a_printer_drawn_as_fifth_card_scores_and_nothing_is_discarded() {
    let hand = cards(&[C::Alchemist, C::Crane, C::Mining, C::Smith]);
    let given = holding(board(ck(4)).with_improvements(P2, [0, 0, 1]).turn(P0), P2, hand);
    let mut s = given.start();
    let before = s.game.public_victory_points(P2);
    let chance = roll(EventFace::Science, 1, 1).then(PROGRESS_CARD, C::Printer as usize);
    let events = s.when_with(P0, Move::RollDice, chance);
    let printer = Event::ProgressCardDrawn { seat: P2, track: Track::Science, card: Some(C::Printer) };
    assert!(events.contains(&printer));
    assert_eq!(printer.redacted_for(Viewer::Seat(P1)), printer, "the Printer is revealed");
    assert_eq!(s.game.public_victory_points(P2), before + 1);
    assert_eq!((s.game.progress_cards(P2).total(), s.game.progress_hand_size(P2)), (5, 4));
    assert_eq!(*s.game.phase(), Phase::Main);
    assert!(!events.iter().any(|e| matches!(e, Event::ProgressCardDiscarded { .. })));
    s.rejects(P2, discard(C::Mining), "nothing_to_decide");
}

/// CK-PC-5, CK-EVT-3: in a discard decision the VP cards stay: discarding one is refused
/// (`victory_point_card_kept`) and never listed.
#[test]
fn ck_pc_5_victory_point_cards_are_never_discarded() {
    let hand = four_politics() + ProgressCards::of(C::Constitution, 1);
    let given = holding(board(ck(4)).with_improvements(P2, [0, 1, 0]).turn(P0), P2, hand);
    let mut s = given.start();
    assert_eq!(s.game.progress_hand_size(P2), 4);
    s.when_with(P0, Move::RollDice, politics_roll(C::Diplomat));
    assert!(matches!(s.game.phase(), Phase::CardDecision { .. }));
    s.rejects(P2, discard(C::Constitution), "victory_point_card_kept");
    assert_eq!(sorted(s.game.legal_moves(P2)), discards_of(&[C::Spy, C::Bishop, C::Warlord, C::Wedding, C::Diplomat]));
    s.when(P2, discard(C::Diplomat));
    assert_eq!(s.game.progress_cards(P2).get(C::Constitution), 1);
}

/// CK-PC-6, CK-PC-5: which card a seat discarded is hidden from the other seats (they see
/// its deck only), shown to the seat itself; a spectator sees no card either.
#[test]
fn ck_pc_6_a_discarded_card_is_hidden_from_other_seats() {
    let given = holding(board(ck(4)).with_improvements(P2, [0, 1, 0]).turn(P0), P2, four_politics());
    let mut s = given.start();
    s.when_with(P0, Move::RollDice, politics_roll(C::Deserter));
    let events = s.when(P2, discard(C::Bishop));
    let event = events.iter().find(|e| matches!(e, Event::ProgressCardDiscarded { .. })).expect("a discard");
    assert_eq!(event.redacted_for(Viewer::Seat(P2)), *event);
    let hidden = Event::ProgressCardDiscarded { seat: P2, track: Track::Politics, card: None };
    for viewer in [Viewer::Seat(P0), Viewer::Seat(P1), Viewer::Seat(P3), Viewer::Spectator] {
        assert_eq!(event.redacted_for(viewer), hidden, "{viewer:?}");
    }
    // The views agree: others see P2's count only.
    let view = s.game.view(Viewer::Seat(P1)).cities_and_knights.expect("C&K view");
    let p2 = &view.seats[2];
    assert_eq!((p2.progress_card_count, p2.progress_cards), (4, None));
    let own = s.game.view(Viewer::Seat(P2)).cities_and_knights.expect("C&K view");
    assert_eq!(own.seats[2].progress_cards, Some(cards(&[C::Spy, C::Warlord, C::Wedding, C::Deserter])));
}

/// CK-PC-4: `progress_hand_limit` sets the limit (here 2: a third card is one too many);
/// by default 4, and 5 with 5-6 players (the `five_six` extension); 0 and 11 are refused at
/// setup (`invalid_config`).
#[test]
fn ck_pc_4_the_hand_limit_is_configurable() {
    let config = GameConfig { progress_hand_limit: Some(2), ..ck(4) };
    let given = holding(board(config).with_improvements(P2, [0, 1, 0]).turn(P0), P2, cards(&[C::Spy, C::Bishop]));
    let mut s = given.start();
    assert_eq!(s.game.progress_hand_limit(), 2);
    s.when_with(P0, Move::RollDice, politics_roll(C::Deserter));
    assert_eq!(
        *s.game.phase(),
        Phase::CardDecision {
            decision: CardDecision::DiscardProgressCards {
                pending: vec![PendingDiscard { seat: P2, count: 1 }].into()
            }
        }
    );

    // 5-6 players: 5 cards are within the limit, a 6th is not.
    let five = ck(5);
    assert!(five.five_six_extension);
    let mut s = holding(board(five.clone()).with_improvements(P2, [0, 1, 0]).turn(P0), P2, four_politics()).start();
    assert_eq!(s.game.progress_hand_limit(), 5);
    s.when_with(P0, Move::RollDice, politics_roll(C::Deserter));
    assert_eq!(*s.game.phase(), Phase::Main);
    let hand = four_politics() + ProgressCards::of(C::Saboteur, 1);
    let mut s = holding(board(five).with_improvements(P2, [0, 1, 0]).turn(P0), P2, hand).start();
    s.when_with(P0, Move::RollDice, politics_roll(C::Deserter));
    assert!(matches!(s.game.phase(), Phase::CardDecision { .. }), "{:?}", s.game.phase());
    // A set limit wins over the 5-6 default.
    assert_eq!(Game::new(GameConfig { progress_hand_limit: Some(7), ..ck(5) }, 7).unwrap().progress_hand_limit(), 7);

    for limit in [0, 11] {
        let err = Game::new(GameConfig { progress_hand_limit: Some(limit), ..ck(4) }, 7).expect_err("refused");
        assert_eq!(err.code(), "invalid_config", "limit {limit}");
    }
    for limit in [1, 10] {
        assert!(Game::new(GameConfig { progress_hand_limit: Some(limit), ..ck(4) }, 7).is_ok(), "limit {limit}");
    }
}

/// Chance for dice and the event die only: a progress card drawn from chance is a failure
/// (the top of a deck whose shuffled cards are gone is known).
struct NoCardChance(FixedChance);

impl Chance for NoCardChance {
    fn pick(&mut self, draw: Draw, weights: &[u32]) -> usize {
        assert_ne!(draw, PROGRESS_CARD, "a progress card was drawn by chance (weights {weights:?})");
        self.0.pick(draw, weights)
    }
}

/// Decides `mv` with `chance` and applies its events.
fn play(s: &mut Scenario, seat: Seat, mv: Move, mut chance: impl Chance) -> Vec<Event> {
    assert!(s.game.legal_moves(seat).contains(&mv), "{mv:?} not listed");
    let events = s.game.decide(seat, &mv, &mut chance).unwrap_or_else(|e| panic!("{mv:?}: {}", e.code()));
    for event in &events {
        s.game.apply(event);
    }
    events
}

/// CK-PC-3: played and discarded cards go to the bottom of their deck, in order: once a
/// deck's never-drawn cards are gone, the next draws are those cards, first in first out,
/// with no chance involved. Here every politics card is held but a Spy under the deck and a
/// Saboteur on top: P2 draws the Saboteur, discards its Warlord under the Spy; on P1's roll
/// P1 draws the Spy, then P2 the Warlord it discarded.
#[test]
fn ck_pc_3_a_discarded_card_goes_under_its_deck_and_is_drawn_last() {
    let mut given = board(ck(4)).with_improvements(P1, [0, 1, 0]).with_improvements(P2, [0, 2, 0]).turn(P0);
    given.cities_knights.progress = vec![
        (P0, cards(&[C::Bishop, C::Bishop, C::Deserter, C::Deserter])),
        (P1, cards(&[C::Diplomat, C::Diplomat, C::Intrigue, C::Constitution])),
        (P2, cards(&[C::Intrigue, C::Saboteur, C::Spy, C::Warlord])),
        (P3, cards(&[C::Spy, C::Warlord, C::Wedding, C::Wedding])),
    ];
    given.cities_knights.returned = vec![C::Spy];
    let mut s = given.start();
    assert_eq!(s.game.progress_decks().get(C::Saboteur), 1);
    assert_eq!((s.game.improvement_level(P1, Track::Politics), s.game.improvement_level(P2, Track::Politics)), (1, 2));

    // Red 3 opens P2's window (politics 2) only.
    let events = play(&mut s, P0, Move::RollDice, roll(EventFace::Politics, 3, 1));
    assert_eq!(drawn(&events), vec![(P2, Some(C::Saboteur))], "the one card never drawn: {events:?}");
    s.when(P2, discard(C::Warlord));
    assert_eq!(Setup::from(&s.game).cities_knights.returned, vec![C::Spy, C::Warlord]);
    s.when(P0, Move::EndTurn);

    let events = play(&mut s, P1, Move::RollDice, NoCardChance(roll(EventFace::Politics, 1, 1)));
    assert_eq!(drawn(&events), vec![(P1, Some(C::Spy)), (P2, Some(C::Warlord))]);
    assert!(Setup::from(&s.game).cities_knights.returned.is_empty());
    assert_eq!(s.game.progress_cards(P2).get(C::Warlord), 1);
    // Every politics card is in a hand now: the deck is empty.
    let decks = s.game.progress_decks();
    assert_eq!(
        ProgressCard::ALL.iter().filter(|c| c.track() == Track::Politics).map(|&c| decks.get(c)).sum::<u32>(),
        0
    );
}

/// TC-97 [CK-WIN-1, CK-GEN-1]: in Cities & Knights P0 at 12 points builds a city → 13 →
/// wins; at 10 a city (11) wins nothing. In a base-game ruleset the same P0 wins at 10.
#[test]
fn tc_97_cities_and_knights_is_won_at_thirteen_points_the_base_game_at_ten() {
    let city = Resources::new(0, 0, 0, 2, 3);
    let pieces = |setup: Setup| {
        setup
            .city(P0, "-1,-1,N")
            .city(P0, "1,-1,N")
            .city(P0, "0,1,N")
            .settlement(P0, "-2,1,N")
            .settlement(P0, "2,0,S")
            .give(P0, city)
            .main_phase(P0)
    };
    let upgrade = Move::BuildCity { vertex: v("2,0,S") };

    let mut setup = pieces(given_with(ck(4)));
    setup.cities_knights.defenders = vec![(P0, 4)];
    let mut s = setup.start();
    assert_eq!(s.game.victory_points(P0), 12);
    let events = s.when(P0, upgrade.clone());
    assert!(
        matches!(events.last(), Some(Event::GameWon { seat, victory_points: 13, .. }) if *seat == P0),
        "{events:?}"
    );
    assert_eq!(s.game.winner(), Some(P0));

    let mut setup = pieces(given_with(ck(4)));
    setup.cities_knights.defenders = vec![(P0, 2)];
    let mut s = setup.start();
    assert_eq!(s.game.victory_points(P0), 10);
    let events = s.when(P0, upgrade.clone());
    assert!(!events.iter().any(|e| matches!(e, Event::GameWon { .. })));
    assert_eq!((s.game.victory_points(P0), s.game.is_over()), (11, false));

    // The base game: 3 cities, 2 settlements and a VP card are 9; the city makes 10.
    let mut s = pieces(given()).card(P0, DevCard::VictoryPoint).start();
    assert_eq!(s.game.victory_points(P0), 9);
    let events = s.when(P0, upgrade);
    assert!(
        matches!(events.last(), Some(Event::GameWon { seat, victory_points: 10, .. }) if *seat == P0),
        "{events:?}"
    );
}
