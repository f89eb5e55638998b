//! TC-57: Big River (RULES.md 8.3, 9.9).

use catan_engine::{BoardSpec, GameConfig, Move, Resources};

use crate::support::*;

/// TC-57 [RIV-4, RIV-6]: no setup settlement on the river bank; after setup the same vertex is
/// fine, and a building on the gold mine is worth one more point.
#[test]
fn tc_57_the_river_bank_is_closed_in_setup_and_gold_settlements_score_extra() {
    let river = GameConfig { big_river: true, river_gold_number: Some(9), board: BoardSpec::Random, ..config(4) };
    let s = Scenario::with(river.clone());
    let layout = s.game.board().layout();
    assert_eq!(layout.river_hexes, vec![h("0,-1"), h("0,0"), h("0,1")]);
    assert_eq!(s.game.robber_hex(), None, "RIV-7: the robber starts off the board");
    s.rejects(P0, Move::BuildSettlement { vertex: v("0,1,S") }, "river_bank_setup_ban");
    s.rejects(P0, Move::BuildSettlement { vertex: v("0,-1,N") }, "river_bank_setup_ban");

    let mut s = given_with(river)
        .settlement(P0, "1,1,S")
        .roads_along(P0, &["1,1,S", "0,2,N", "0,1,S"])
        .give(P0, Resources::new(1, 1, 1, 1, 0))
        .main_phase(P0)
        .start();
    assert_eq!(s.game.public_victory_points(P0), 1);
    s.when(P0, Move::BuildSettlement { vertex: v("0,1,S") });
    assert_eq!(s.game.public_victory_points(P0), 3, "settlement 1 + gold mine bonus 1");
}
