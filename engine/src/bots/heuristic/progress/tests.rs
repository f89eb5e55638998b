//! The progress-card bot's choices on small C&K positions.

use serde_json::{json, Value};

use super::Ctx;
use crate::{
    bots::heuristic::tier, ext::cities_knights::Knight, position::Setup, BuildingKind, Game, GameConfig, Phase,
    Resources, Seat,
};

/// P0's main phase in a C&K game: a city, a settlement, one wool, three ore and two
/// grain (a city's price but a grain), a rank-1 and a rank-2 knight.
fn game() -> Game {
    let mut config = GameConfig::for_players(4);
    config.enable_variants("cities_and_knights").unwrap();
    let fresh = Game::new(config, 7).unwrap();
    let v = |id: &str| id.parse().unwrap();
    let mut setup = Setup::from(&fresh)
        .with_building(v("-1,0,S"), Seat(0), BuildingKind::City)
        .with_building(v("1,-1,N"), Seat(0), BuildingKind::Settlement)
        .with_hand(Seat(0), Resources::new(0, 0, 1, 1, 3))
        .with_turn(1, Seat(0))
        .with_dice(2, 3)
        .with_phase(Phase::Main, vec![]);
    for (vertex, rank) in [("0,0,S", 1), ("-2,1,N", 2)] {
        setup.cities_knights.knights.push(Knight {
            vertex: v(vertex),
            seat: Seat(0),
            rank,
            active: false,
            activated_this_turn: false,
            promoted_this_turn: false,
        });
    }
    setup.position().expect("position")
}

fn score(ctx: &Ctx<'_>, value: Value) -> f64 {
    let Value::Object(fields) = value else { panic!("an object") };
    ctx.score_follow_up_fields(&fields)
}

/// Decisions the bot does not know by name: it gives away what it needs least, takes
/// what it wants most, removes its weakest knight, and leaves what it cannot read at the
/// low default.
#[test]
fn unknown_card_answers_are_judged_from_their_fields() {
    let game = game();
    let ctx = Ctx::new(&game, Seat(0)).unwrap();
    let give = |r: &str| score(&ctx, json!({"type": "give_cards", "cards": {"resources": {r: 1}}}));
    // The city needs ore and grain: wool goes first.
    assert!(give("wool") > give("ore"), "{} {}", give("wool"), give("ore"));
    let take = |r: &str| score(&ctx, json!({"type": "take_cards", "cards": {"resources": {r: 1}}}));
    assert!(take("grain") > take("lumber"), "{} {}", take("grain"), take("lumber"));
    let card = |c: &str| score(&ctx, json!({"type": "take_progress_card", "card": c}));
    assert!(card("merchant") > card("diplomat"));
    let remove = |v: &str| score(&ctx, json!({"type": "remove_knight", "vertex": v}));
    assert!(remove("0,0,S") > remove("-2,1,N"));
    let exchange = |r: &str| score(&ctx, json!({"type": "commercial_harbor_exchange", "seat": 1, "resource": r}));
    assert!(exchange("wool") > exchange("ore"));
    assert!(exchange("wool") > tier::END_TURN, "an exchange a card opened is made before ending the turn");
    assert_eq!(score(&ctx, json!({"type": "something_new", "count": 3})), tier::UNKNOWN);
}
