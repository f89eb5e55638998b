//! X56-11: Cities & Knights with the 5-6 player extension: 18 commodities of each kind, the
//! progress hand limit of 5 (CK-PC-4) and knights in the special building phase.

use catan_engine::{Commodities, Move, Phase, Resources};

use super::{
    cities_knights::{ck, Knights},
    support::*,
};

/// A 5-player C&K game (the extension is on for 5 or 6 seats).
fn ck_five() -> catan_engine::GameConfig {
    let mut config = ck(5);
    config.five_six_extension = true;
    config
}

/// X56-11: the extension adds 6 commodities of each kind, 18 in all per kind.
#[test]
fn x56_11_eighteen_commodities_of_each_kind() {
    let s = Scenario::with(ck_five());
    assert_eq!(*s.game.commodity_bank(), Commodities::each(18));
    let s = Scenario::with(ck(4));
    assert_eq!(*s.game.commodity_bank(), Commodities::each(12));
}

/// X56-11, CK-PC-4: the progress hand limit is 5 with the extension, 4 without, and a
/// configured limit wins.
#[test]
fn x56_11_the_progress_hand_limit_is_five() {
    assert_eq!(Scenario::with(ck_five()).game.progress_hand_limit(), 5);
    assert_eq!(Scenario::with(ck(4)).game.progress_hand_limit(), 4);
    let mut config = ck_five();
    config.progress_hand_limit = Some(3);
    assert_eq!(Scenario::with(config).game.progress_hand_limit(), 3);
}

/// X56-11: in its special building phase a seat recruits, promotes and activates knights;
/// its knights do not act there.
#[test]
fn x56_11_knights_are_recruited_promoted_and_activated_in_the_special_building_phase() {
    let given = given_with(ck_five())
        .city(P1, "0,-1,N")
        .road(P1, "0,-1,NE")
        .knight(P1, "2,-1,N", 1, true)
        .give(P1, Resources::new(0, 0, 2, 1, 2))
        .with_turn(1, P0)
        .with_dice(2, 3)
        .with_phase(Phase::SpecialBuilding { seat: P1 }, vec![]);
    let mut s = given.start();
    let recruit = Move::RecruitKnight { vertex: v("1,-2,S") };
    let moves = s.game.legal_moves(P1);
    assert!(moves.contains(&recruit), "{moves:?}");
    // Acting is for one's own main phase: no knight moves here.
    assert!(!moves.iter().any(|m| matches!(m, Move::MoveKnight { .. } | Move::ChaseRobber { .. })), "{moves:?}");
    s.rejects(P1, Move::MoveKnight { from: v("2,-1,N"), to: v("1,-2,S") }, "wrong_phase");
    s.when(P1, recruit);
    s.when(P1, Move::PromoteKnight { vertex: v("1,-2,S") });
    s.when(P1, Move::ActivateKnight { vertex: v("1,-2,S") });
    let knight = s.game.knight_at(v("1,-2,S")).copied().unwrap();
    assert_eq!((knight.seat, knight.rank, knight.active), (P1, 2, true));
    assert_eq!(s.hand(P1), Resources::ZERO);
    // Another seat cannot recruit in P1's phase.
    s.rejects(P2, Move::RecruitKnight { vertex: v("1,-2,S") }, "not_your_turn");
}
