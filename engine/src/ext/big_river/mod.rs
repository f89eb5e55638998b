//! Big River (RIV): a river of mountains, forest and a gold mine through the centre; no
//! setup settlement on its banks, gold of free choice, extra points on the gold mine, and a
//! robber that waits off the board.

use crate::{
    board::{
        layout::{self, SpiralSense},
        BoardLayout, HexCoord, HexTile, Terrain,
    },
    config::BoardSpec,
    ext::{jungle::check_token, Extension},
    game::Game,
    model::Seat,
    protocol::{RuleError, SetupError},
    rng::Rng,
    ruleset::{invalid, Components, Ruleset},
};

/// RIV-2's default river: a straight line through the centre, top to bottom.
const DEFAULT_RIVER: [HexCoord; 3] = [HexCoord::new(0, -1), HexCoord::new(0, 0), HexCoord::new(0, 1)];

/// Bounded retries when the gold mine's token breaks the red-number rule.
const LAYOUT_ATTEMPTS: usize = 200;

#[derive(Debug)]
pub(crate) struct BigRiver {
    /// RIV-2: three collinear land hexes, top to bottom.
    pub river: Option<Vec<HexCoord>>,
    /// RIV-3: the gold mine's number token.
    pub gold_number: Option<u8>,
    /// RIV-4: no setup settlement may touch a river hex.
    pub bank_setup_ban: bool,
    /// RIV-5: the gold mine produces resources of the owner's choice.
    pub gold_produces: bool,
    /// RIV-6: extra victory points per building on the gold mine.
    pub gold_bonus_vp: u8,
}

impl BigRiver {
    fn river_line(&self) -> Vec<HexCoord> {
        self.river.clone().unwrap_or_else(|| DEFAULT_RIVER.to_vec())
    }
}

impl Extension for BigRiver {
    fn name(&self) -> &'static str {
        "big_river"
    }

    fn validate(&self, rules: &Ruleset) -> Result<(), SetupError> {
        check_token("river_gold_number", self.gold_number)?;
        if matches!(rules.board.spec, BoardSpec::Beginner) {
            return Err(invalid("big_river reshuffles the terrain: use board random or custom".into()));
        }
        check_river_line(&self.river_line())
    }

    fn conflicts_with(&self, others: &[&str]) -> Option<&'static str> {
        if others.contains(&"jungle") {
            Some("jungle and big_river both replace the desert; choose one")
        } else {
            others.contains(&"five_six").then_some("jungle and big_river are defined for the 3-4 player board")
        }
    }

    /// RIV-1/3/5/6: the gold mine in the desert's place with its token.
    fn components(&self, components: &mut Components) {
        components.replace_terrain(Terrain::Desert, Terrain::Gold);
        components.tokens.extend(self.gold_number);
        components.gold_produces = self.gold_produces;
        components.max_points_per_event = components.max_points_per_event.max(1 + u32::from(self.gold_bonus_vp));
    }

    /// RIV-1..3, RIV-7: the river's mountains, forest and gold mine on the river line, the
    /// other 16 terrains shuffled, tokens along a spiral skipping the gold mine (which carries
    /// its own token), and the robber off the board.
    fn generate_board(&self, rules: &Ruleset, rng: &mut Rng) -> Option<Result<BoardLayout, SetupError>> {
        if matches!(rules.board.spec, BoardSpec::Custom(_)) {
            return None;
        }
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
                tile.number = self.gold_number;
            }
            if rules.board.forbid_adjacent_red_numbers && layout::has_adjacent_red_numbers(&land) {
                continue;
            }
            let harbours = layout::shuffled_standard_harbours(rng);
            land.extend(layout::standard_sea_tiles());
            return Some(Ok(BoardLayout {
                hexes: land,
                harbours,
                robber: None,
                river_hexes: river,
                pirate: None,
                generator: None,
                neutral: Vec::new(),
            }));
        }
        Some(Err(invalid("no river board keeps red numbers apart with this river_gold_number (B-GEO-11)".into())))
    }

    /// RIV-1/2: a custom board lists its river: mountains, forest, gold mine, in a line.
    fn check_custom_board(&self, board: &BoardLayout) -> Result<(), SetupError> {
        let river = &board.river_hexes;
        let kinds: Vec<Option<Terrain>> =
            river.iter().map(|h| board.hexes.iter().find(|t| t.hex == *h).map(|t| t.terrain)).collect();
        if kinds != [Some(Terrain::Mountains), Some(Terrain::Forest), Some(Terrain::Gold)] {
            return Err(SetupError::InvalidBoard(
                "a big_river board lists river_hexes: mountains, forest, gold mine, top to bottom (RIV-1)".into(),
            ));
        }
        check_river_line(river)
    }

    /// RIV-4: setup settlements keep off the river bank when the option is on.
    fn check_setup_site(&self, game: &Game, vertex: u16) -> Result<(), RuleError> {
        if self.bank_setup_ban && game.board().vertex_on_river[vertex as usize] {
            return Err(RuleError::RiverBankSetupBan);
        }
        Ok(())
    }

    /// RIV-6: at most three buildings stand on the gold mine's corners (B-BLD-4).
    fn most_points(&self, _pieces: &crate::Pieces) -> Option<u32> {
        Some(3 * u32::from(self.gold_bonus_vp))
    }

    /// RIV-6: buildings on the gold mine are worth extra.
    fn victory_points(&self, game: &Game, seat: Seat) -> u32 {
        let board = game.board();
        let on_gold = (0..board.vertices.len() as u16)
            .filter(|&v| board.vertex_on_gold[v as usize] && game.building_index(v).is_some_and(|b| b.seat == seat))
            .count() as u32;
        on_gold * u32::from(self.gold_bonus_vp)
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
