//! Rulesets: what the configuration's variants change in components and board set-up
//! (5-6 players X56, Jungle JUN, Big River RIV). The rules code asks these questions instead
//! of forking on the variant.

use crate::{
    board::{
        large,
        layout::{self, SpiralSense},
        BoardLayout, HarbourKind, HexCoord, HexTile, Terrain,
    },
    config::{BoardSpec, GameConfig},
    error::SetupError,
    rng::Rng,
    state::DevCards,
};

/// The extension's development deck (X56-6): 20 knights, 3 of each progress card, 5 VP.
const EXTENSION_DECK: DevCards =
    DevCards { knight: 20, road_building: 3, year_of_plenty: 3, monopoly: 3, victory_point: 5 };

/// RIV-2's default river: a straight line through the centre, top to bottom.
const DEFAULT_RIVER: [HexCoord; 3] = [HexCoord::new(0, -1), HexCoord::new(0, 0), HexCoord::new(0, 1)];

/// Bounded retries when a generated board breaks the red-number rule with a variant's extra
/// token; a board is found within a few tries in practice.
const LAYOUT_ATTEMPTS: usize = 200;

/// The rule sets a game can name: the base game and the variants it can add.
pub const VARIANT_NAMES: [&str; 4] = ["base", "five_six", "jungle", "big_river"];

impl GameConfig {
    /// Returns the variants switched on, joined with `+` (`"base"` when none is):
    /// e.g. `"five_six"`, `"jungle"`, `"base"`.
    pub fn variant_name(&self) -> String {
        let parts: Vec<&str> =
            [(self.five_six_extension, "five_six"), (self.jungle, "jungle"), (self.big_river, "big_river")]
                .into_iter()
                .filter_map(|(on, name)| on.then_some(name))
                .collect();
        if parts.is_empty() {
            "base".to_owned()
        } else {
            parts.join("+")
        }
    }

    /// Switches on the variants named in `name` (names of [`VARIANT_NAMES`] joined with `+`);
    /// their numbers (`jungle_number`, `river_gold_number`) still come from the options.
    ///
    /// # Errors
    /// [`SetupError::InvalidConfig`] for an unknown name.
    pub fn enable_variants(&mut self, name: &str) -> Result<(), SetupError> {
        for part in name.split('+').map(str::trim) {
            match part {
                "base" => {}
                "five_six" => self.five_six_extension = true,
                "jungle" => self.jungle = true,
                "big_river" => self.big_river = true,
                other => {
                    return Err(invalid(format!(
                        "unknown variant {other:?}; known: {}, combined with '+'",
                        VARIANT_NAMES.join(", ")
                    )))
                }
            }
        }
        Ok(())
    }

    /// Cards of each resource in the bank at the start (B-CMP-5, X56-5).
    pub fn cards_per_resource(&self) -> u32 {
        if self.five_six_extension {
            24
        } else {
            19
        }
    }

    /// The development deck at the start (B-CMP-6, X56-6).
    pub fn development_deck(&self) -> DevCards {
        if self.five_six_extension {
            EXTENSION_DECK
        } else {
            DevCards::STANDARD_DECK
        }
    }

    /// Whether each turn is followed by special building phases (X56-8).
    pub fn has_special_building_phase(&self) -> bool {
        self.five_six_extension
    }

    /// Checks that the options fit together.
    ///
    /// # Errors
    /// [`SetupError`] naming the first problem.
    pub fn validate(&self) -> Result<(), SetupError> {
        match (self.five_six_extension, self.players) {
            (false, 2..=4) | (true, 5..=6) => {}
            (false, players) => {
                return Err(SetupError::PlayerCount {
                    players,
                    allowed: "the base game takes 2 to 4 players; 5 or 6 need five_six_extension",
                })
            }
            (true, players) => {
                return Err(SetupError::PlayerCount {
                    players,
                    allowed: "the 5-6 player extension takes 5 or 6 players",
                })
            }
        }
        if !(3..=30).contains(&self.vp_target) {
            return Err(invalid(format!("vp_target must be 3 to 30, not {}", self.vp_target)));
        }
        let token = |name: &str, value: Option<u8>| match value {
            Some(n) if (2..=12).contains(&n) && n != 7 => Ok(()),
            Some(n) => Err(invalid(format!("{name} must be 2 to 12 and not 7, not {n}"))),
            None => Err(invalid(format!("{name} is required"))),
        };
        if self.jungle {
            token("jungle_number", self.jungle_number)?;
        }
        if self.big_river {
            token("river_gold_number", self.river_gold_number)?;
            if matches!(self.board, BoardSpec::Beginner) {
                return Err(invalid("big_river reshuffles the terrain: use board random or custom".into()));
            }
            check_river_line(&self.river_line())?;
        }
        if self.jungle && self.big_river {
            return Err(invalid("jungle and big_river both replace the desert; choose one".into()));
        }
        if self.five_six_extension && (self.jungle || self.big_river) {
            return Err(invalid("jungle and big_river are defined for the 3-4 player board".into()));
        }
        Ok(())
    }

    pub(crate) fn river_line(&self) -> Vec<HexCoord> {
        self.river_hexes.clone().unwrap_or_else(|| DEFAULT_RIVER.to_vec())
    }

    /// Lays out the board for these options (B-GEO-13/14, X56-2..4, JUN-1..3, RIV-1..3, RIV-7).
    pub(crate) fn generate_board(&self, rng: &mut Rng) -> Result<BoardLayout, SetupError> {
        let mut board = match &self.board {
            BoardSpec::Custom(custom) => {
                self.check_custom_components(custom)?;
                custom.clone()
            }
            _ if self.big_river => self.random_river_board(rng)?,
            _ if self.jungle => self.jungle_board(rng)?,
            BoardSpec::Beginner if self.five_six_extension => large::fixed_layout(),
            BoardSpec::Random if self.five_six_extension => large::random_layout(rng),
            BoardSpec::Beginner => layout::beginner_layout(),
            BoardSpec::Random => layout::random_layout(rng, self.number_placement, self.forbid_adjacent_red_numbers),
        };
        if self.forbid_adjacent_red_numbers && layout::has_adjacent_red_numbers(&board.hexes) {
            return Err(SetupError::InvalidBoard(
                "two hexes with 6 or 8 are neighbours (B-GEO-11); set forbid_adjacent_red_numbers to false to \
                 allow it"
                    .into(),
            ));
        }
        if let Some(start) = self.robber_start {
            let is_desert = board.hexes.iter().any(|t| t.hex == start && t.terrain == Terrain::Desert);
            if !is_desert {
                return Err(invalid(format!("robber_start {start} is not a desert of this board (X56-7)")));
            }
            board.robber = Some(start);
        }
        Ok(board)
    }

    /// JUN-1..3: the desert becomes a jungle carrying `jungle_number`; the robber starts there.
    fn jungle_board(&self, rng: &mut Rng) -> Result<BoardLayout, SetupError> {
        let number = self.jungle_number;
        for _ in 0..LAYOUT_ATTEMPTS {
            let mut board = match self.board {
                BoardSpec::Random => {
                    layout::random_layout(rng, self.number_placement, self.forbid_adjacent_red_numbers)
                }
                _ => layout::beginner_layout(),
            };
            for tile in board.hexes.iter_mut().filter(|t| t.terrain == Terrain::Desert) {
                tile.terrain = Terrain::Jungle;
                tile.number = number;
            }
            if !self.forbid_adjacent_red_numbers || !layout::has_adjacent_red_numbers(&board.hexes) {
                return Ok(board);
            }
            if matches!(self.board, BoardSpec::Beginner) {
                break;
            }
        }
        Err(invalid(format!(
            "jungle_number {} puts two red numbers side by side on this board (B-GEO-11)",
            number.unwrap_or_default()
        )))
    }

    /// RIV-1..3, RIV-7: the river's mountains, forest and gold mine on the river line, the
    /// other 16 terrains shuffled, tokens along a spiral skipping the gold mine (which carries
    /// `river_gold_number`), and the robber off the board.
    fn random_river_board(&self, rng: &mut Rng) -> Result<BoardLayout, SetupError> {
        let river = self.river_line();
        let mut pool: Vec<Terrain> = Vec::new();
        for (terrain, count) in layout::STANDARD_TERRAIN {
            let removed = usize::from(matches!(terrain, Terrain::Desert | Terrain::Mountains | Terrain::Forest));
            pool.extend(std::iter::repeat_n(terrain, count - removed));
        }
        for _ in 0..LAYOUT_ATTEMPTS {
            let mut terrain = pool.clone();
            rng.shuffle(&mut terrain);
            let mut others = terrain.into_iter();
            let mut land: Vec<HexTile> = layout::standard_land_positions()
                .into_iter()
                .map(|hex| {
                    let terrain = match river.iter().position(|r| *r == hex) {
                        Some(0) => Terrain::Mountains,
                        Some(1) => Terrain::Forest,
                        Some(_) => Terrain::Gold,
                        None => others.next().unwrap_or(Terrain::Pasture),
                    };
                    HexTile { hex, terrain, number: None }
                })
                .collect();
            let sense = if rng.below(2) == 0 { SpiralSense::CounterClockwise } else { SpiralSense::Clockwise };
            layout::lay_tokens_along(&mut land, &layout::spiral_walk(rng.below(6) as usize, sense));
            for tile in land.iter_mut().filter(|t| t.terrain == Terrain::Gold) {
                tile.number = self.river_gold_number;
            }
            if self.forbid_adjacent_red_numbers && layout::has_adjacent_red_numbers(&land) {
                continue;
            }
            let harbours = layout::shuffled_standard_harbours(rng);
            land.extend(layout::standard_sea_tiles());
            return Ok(BoardLayout { hexes: land, harbours, robber: None, river_hexes: river });
        }
        Err(invalid("no river board keeps red numbers apart with this river_gold_number (B-GEO-11)".into()))
    }

    /// A custom board must have exactly the components of the chosen variants.
    fn check_custom_components(&self, board: &BoardLayout) -> Result<(), SetupError> {
        let (mut terrain, mut tokens, harbours): (Vec<(Terrain, usize)>, Vec<u8>, Vec<HarbourKind>) =
            if self.five_six_extension {
                (large::TERRAIN.to_vec(), large::TOKEN_SEQUENCE.to_vec(), large::harbour_kinds().to_vec())
            } else {
                (layout::STANDARD_TERRAIN.to_vec(), layout::TOKEN_SEQUENCE.to_vec(), layout::STANDARD_HARBOURS.to_vec())
            };
        if self.jungle {
            replace_terrain(&mut terrain, Terrain::Desert, Terrain::Jungle);
            tokens.extend(self.jungle_number);
        }
        if self.big_river {
            replace_terrain(&mut terrain, Terrain::Desert, Terrain::Gold);
            tokens.extend(self.river_gold_number);
            let river = &board.river_hexes;
            let kinds: Vec<Option<Terrain>> =
                river.iter().map(|h| board.hexes.iter().find(|t| t.hex == *h).map(|t| t.terrain)).collect();
            if kinds != [Some(Terrain::Mountains), Some(Terrain::Forest), Some(Terrain::Gold)] {
                return Err(SetupError::InvalidBoard(
                    "a big_river board lists river_hexes: mountains, forest, gold mine, top to bottom (RIV-1)".into(),
                ));
            }
            check_river_line(river)?;
        }
        for (kind, expected) in &terrain {
            let found = board.hexes.iter().filter(|t| t.terrain == *kind).count();
            if found != *expected {
                return Err(SetupError::InvalidBoard(format!(
                    "this game needs {expected} {kind:?} hexes, found {found}"
                )));
            }
        }
        for found in board.hexes.iter().map(|t| t.terrain) {
            if found != Terrain::Sea && !terrain.iter().any(|(t, _)| *t == found) {
                return Err(SetupError::InvalidBoard(format!("{found:?} hexes are not part of this game")));
            }
        }
        let mut found_tokens: Vec<u8> = board.hexes.iter().filter_map(|t| t.number).collect();
        found_tokens.sort_unstable();
        tokens.sort_unstable();
        if found_tokens != tokens {
            return Err(SetupError::InvalidBoard(format!("the number tokens must be exactly {tokens:?}")));
        }
        let mut found_harbours: Vec<String> = board.harbours.iter().map(|h| format!("{:?}", h.kind)).collect();
        let mut expected_harbours: Vec<String> = harbours.iter().map(|k| format!("{k:?}")).collect();
        found_harbours.sort();
        expected_harbours.sort();
        if found_harbours != expected_harbours {
            return Err(SetupError::InvalidBoard(format!("the harbours must be exactly {expected_harbours:?}")));
        }
        Ok(())
    }
}

fn invalid(message: String) -> SetupError {
    SetupError::InvalidConfig(message)
}

fn replace_terrain(pool: &mut [(Terrain, usize)], from: Terrain, to: Terrain) {
    for entry in pool.iter_mut().filter(|(t, _)| *t == from) {
        entry.0 = to;
    }
}

/// RIV-2: three land positions in a straight line, each adjacent to the next.
fn check_river_line(river: &[HexCoord]) -> Result<(), SetupError> {
    let straight = river.len() == 3
        && river[0].is_adjacent(river[1])
        && river[1].is_adjacent(river[2])
        && (river[1].q - river[0].q, river[1].r - river[0].r) == (river[2].q - river[1].q, river[2].r - river[1].r);
    let on_board = river.iter().all(|h| h.distance(HexCoord::new(0, 0)) <= 2);
    if straight && on_board {
        Ok(())
    } else {
        Err(invalid("river_hexes must be three land hexes in a straight line, top to bottom (RIV-2)".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_round_trip() {
        let mut config = GameConfig::for_players(4);
        assert_eq!(config.variant_name(), "base");
        config.enable_variants("base+jungle").unwrap();
        assert_eq!(config.variant_name(), "jungle");
        config.enable_variants("five_six+big_river").unwrap();
        assert_eq!(config.variant_name(), "five_six+jungle+big_river");
        assert_eq!(config.enable_variants("seafarers").unwrap_err().code(), "invalid_config");
    }
}
