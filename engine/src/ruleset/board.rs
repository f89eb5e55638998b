//! Board set-up: the base game's beginner and random boards (B-GEO-11..14), a custom
//! board's check against the game's components, and the robber's start (X56-7). Extensions
//! with a board of their own lay it through `Extension::generate_board`.

use crate::{
    board::{layout, BoardLayout, HexTile, Terrain},
    config::BoardSpec,
    protocol::SetupError,
    rng::Rng,
    ruleset::{invalid, Ruleset},
};

/// Lays out the board of a new game.
pub(crate) fn generate(rules: &Ruleset, rng: &mut Rng) -> Result<BoardLayout, SetupError> {
    let mut board = match &rules.board.spec {
        BoardSpec::Custom(custom) => {
            for extension in &rules.extensions {
                extension.check_custom_board(custom)?;
            }
            check_custom_components(rules, custom)?;
            custom.clone()
        }
        _ => match rules.extensions.iter().find_map(|e| e.generate_board(rules, rng)) {
            Some(board) => board?,
            None => standard_layout(rules, rng),
        },
    };
    if rules.board.forbid_adjacent_red_numbers && layout::has_adjacent_red_numbers(&board.hexes) {
        return Err(SetupError::InvalidBoard(
            "two hexes with 6 or 8 are neighbours (B-GEO-11); set forbid_adjacent_red_numbers to false to allow it"
                .into(),
        ));
    }
    if let Some(start) = rules.board.robber_start {
        let is_desert = board.hexes.iter().any(|t| t.hex == start && t.terrain == Terrain::Desert);
        if !is_desert {
            return Err(invalid(format!("robber_start {start} is not a desert of this board (X56-7)")));
        }
        board.robber = Some(start);
    }
    Ok(board)
}

/// The standard 19-hex board: the beginner map, or a random one (B-GEO-13/14).
pub(crate) fn standard_layout(rules: &Ruleset, rng: &mut Rng) -> BoardLayout {
    match rules.board.spec {
        BoardSpec::Random => {
            layout::random_layout(rng, rules.board.number_placement, rules.board.forbid_adjacent_red_numbers)
        }
        _ => layout::beginner_layout(),
    }
}

/// A custom board must have exactly the components of the game.
fn check_custom_components(rules: &Ruleset, board: &BoardLayout) -> Result<(), SetupError> {
    let components = &rules.components;
    for (kind, expected) in &components.terrain {
        let found = board.hexes.iter().filter(|t| t.terrain == *kind).count();
        if found != *expected {
            return Err(SetupError::InvalidBoard(format!("this game needs {expected} {kind:?} hexes, found {found}")));
        }
    }
    for found in board.hexes.iter().map(|t: &HexTile| t.terrain) {
        if found != Terrain::Sea && !components.terrain.iter().any(|(t, _)| *t == found) {
            return Err(SetupError::InvalidBoard(format!("{found:?} hexes are not part of this game")));
        }
    }
    let mut found_tokens: Vec<u8> = board.hexes.iter().filter_map(|t| t.number).collect();
    let mut tokens = components.tokens.clone();
    found_tokens.sort_unstable();
    tokens.sort_unstable();
    if found_tokens != tokens {
        return Err(SetupError::InvalidBoard(format!("the number tokens must be exactly {tokens:?}")));
    }
    let mut found_harbours: Vec<String> = board.harbours.iter().map(|h| format!("{:?}", h.kind)).collect();
    let mut expected_harbours: Vec<String> = components.harbours.iter().map(|k| format!("{k:?}")).collect();
    found_harbours.sort();
    expected_harbours.sort();
    if found_harbours != expected_harbours {
        return Err(SetupError::InvalidBoard(format!("the harbours must be exactly {expected_harbours:?}")));
    }
    Ok(())
}
