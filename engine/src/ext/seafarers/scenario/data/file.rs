//! The scenario files' shape as serde reads it, and each variant checked and turned into the
//! engine's values (`Variant`, `Map`, `Group`, the scenario's layout).

use std::{collections::BTreeMap, fmt, marker::PhantomData};

use serde::{
    de::{MapAccess, Visitor},
    Deserialize, Deserializer,
};

use super::*;

#[derive(Deserialize)]
pub(super) struct ScenarioFile {
    pub(super) rules: RulesFile,
    pub(super) variants: BTreeMap<String, VariantFile>,
}

#[derive(Deserialize)]
pub(super) struct RulesFile {
    pub(super) island_bonus: Option<IslandBonusFile>,
    /// `false` where the pirate is not used (WON-6).
    #[serde(default = "yes")]
    pirate: bool,
    /// SCN-6: setup rounds (CLV-3: 3); the settlement of the last round yields resources.
    #[serde(default = "two")]
    setup_rounds: u8,
    /// SCN-8: whether the Longest Trade Route card is in play (CLV-13: not).
    #[serde(default = "yes")]
    longest_route_card: bool,
}

fn two() -> u8 {
    2
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
pub(super) struct IslandBonusFile {
    /// One of our modes, or JSettlers' name where the scenario's rules replace it.
    pub(super) mode: String,
    pub(super) vp: u8,
    #[serde(default)]
    excluded_land_areas: Vec<u8>,
}

#[derive(Deserialize)]
pub(super) struct VariantFile {
    players: Vec<u8>,
    vp_to_win: u8,
    sea_hexes: Vec<Hex>,
    margin_sea_hexes: Vec<Hex>,
    groups: Vec<GroupFile>,
    land_areas: BTreeMap<u8, Vec<Hex>>,
    setup: SetupFile,
    harbours: Vec<HarbourFile>,
    harbour_kind_pool: Pool<HarbourKind>,
    harbour_kinds_shuffled: bool,
    robber_start: StartFile,
    pirate_start: Option<Hex>,
    /// Named vertex sets (Wonders: `N1`, `N2`, `N3`).
    #[serde(default)]
    marked_vertices: BTreeMap<String, MarkedSetFile>,
    #[serde(default)]
    wonder_cards: Vec<WonderCardFile>,
    /// Gift edges (The Forgotten Tribe, FTR-7..9).
    #[serde(default)]
    special_edges: SpecialEdgesFile,
    /// Villages with their numbers (Cloth for Catan, CLV-5).
    #[serde(default)]
    villages: Vec<Village>,
    cloth: Option<ClothFile>,
    /// Each seat's pre-placed pieces, fortress, lone vertex and ship lane (PIR-4..7).
    #[serde(default)]
    per_player_start: Vec<PlayerStartFile>,
    /// The pirate fleet's closed path (PIR-11).
    #[serde(default)]
    pirate_fleet_path: Vec<Hex>,
}

#[derive(Deserialize)]
struct ClothFile {
    general_supply: u8,
    per_village: u8,
}

#[derive(Deserialize)]
struct PlayerStartFile {
    initial_settlement: VertexId,
    initial_ship: EdgeId,
    fortress: VertexId,
    lone_settlement_vertex: VertexId,
    /// Appendix A of RULES-SCENARIOS (JSettlers' `PIR_ISL_SEA_EDGES`), added to our copy of
    /// the shared file (data gap 1).
    lane_edges: Vec<EdgeId>,
}

#[derive(Default, Deserialize)]
struct SpecialEdgesFile {
    #[serde(default)]
    svp: Vec<EdgeId>,
    #[serde(default)]
    dev_card: Vec<EdgeId>,
}

#[derive(Deserialize)]
struct MarkedSetFile {
    vertices: Vec<VertexId>,
}

#[derive(Deserialize)]
struct GroupFile {
    name: String,
    positions: Vec<Hex>,
    terrain_pool: Pool<Terrain>,
    terrain_shuffled: bool,
    terrain_fixed: Option<Vec<Terrain>>,
    /// Absent where the group has `numbers: null`.
    number_pool: Option<Vec<u8>>,
    #[serde(default)]
    numbers_shuffled: bool,
    numbers_in_position_order: Option<Vec<u8>>,
    constraint_gold_in_area: Option<u8>,
    #[serde(default)]
    hidden_by_fog: bool,
    #[serde(default)]
    robber_on_desert: bool,
    #[serde(default)]
    constraint_no_6_or_8_on: Vec<Hex>,
    #[serde(default)]
    constraint_no_5_6_8_9_on: Vec<Hex>,
}

#[derive(Deserialize)]
struct SetupFile {
    allowed_land_areas: AllowedAreas,
    /// Vertices where no setup settlement may stand (WON-3).
    #[serde(default)]
    forbidden_vertices: Vec<VertexId>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum AllowedAreas {
    Listed(Vec<u8>),
    /// `"any"`.
    Named(String),
}

#[derive(Deserialize)]
struct HarbourFile {
    edge: EdgeId,
    kind: Option<HarbourKind>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum StartFile {
    Hex(Hex),
    /// `"a desert"` or a text meaning off the board.
    Text(String),
}

/// A hex written `[q, r]`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(from = "[i32; 2]")]
struct Hex(HexCoord);

impl From<[i32; 2]> for Hex {
    fn from([q, r]: [i32; 2]) -> Self {
        Hex(HexCoord::new(q, r))
    }
}

fn hexes(list: &[Hex]) -> Vec<HexCoord> {
    list.iter().map(|h| h.0).collect()
}

/// A map from kind to count, kept in the file's order (the fog draws weigh the kinds in
/// this order, so it must not depend on a hash).
struct Pool<K>(Vec<(K, u32)>);

impl<K: Copy> Pool<K> {
    fn expanded(&self) -> Vec<K> {
        self.0.iter().flat_map(|&(kind, n)| std::iter::repeat_n(kind, n as usize)).collect()
    }

    fn total(&self) -> usize {
        self.0.iter().map(|&(_, n)| n as usize).sum()
    }
}

impl<'de, K: Deserialize<'de>> Deserialize<'de> for Pool<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PoolVisitor<K>(PhantomData<K>);

        impl<'de, K: Deserialize<'de>> Visitor<'de> for PoolVisitor<K> {
            type Value = Pool<K>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map from kind to count")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pool<K>, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Pool(entries))
            }
        }

        deserializer.deserialize_map(PoolVisitor(PhantomData))
    }
}

const ROBBER_ON_A_DESERT: &str = "a desert";
const ROBBER_OFF_BOARD: &str = "off-board";

impl VariantFile {
    /// Turns the file's variant into checked values: every count the generator relies on
    /// agrees, so that laying out a board can only fail on the constraints.
    pub(super) fn check(
        self,
        rules: &RulesFile,
        island_bonus: Option<(IslandBonusMode, u8)>,
        by_rule: ByRule,
    ) -> Result<Variant, String> {
        if self.players.is_empty() || self.players.iter().any(|p| !(2..=6).contains(p)) {
            return Err(format!("players {:?} must be 2 to 6", self.players));
        }
        let land_areas: Vec<(HexCoord, u8)> =
            self.land_areas.iter().flat_map(|(&area, list)| list.iter().map(move |h| (h.0, area))).collect();
        let area_of = |hex: HexCoord| land_areas.iter().find(|(h, _)| *h == hex).map(|&(_, a)| a);

        let mut fog = self.groups.iter().filter(|g| g.hidden_by_fog);
        let (fog_terrain, fog_tokens) = match (fog.next(), fog.next()) {
            (None, _) => (Vec::new(), Vec::new()),
            (Some(g), None) => (g.terrain_pool.0.clone(), g.number_pool.clone().unwrap_or_default()),
            (Some(_), Some(_)) => return Err("more than one group is hidden by fog".into()),
        };

        let fleet = if by_rule.pirate_fleet { Some(self.fleet_map()?) } else { None };
        let groups = self
            .groups
            .into_iter()
            .map(|g| g.check(&area_of, by_rule.pirate_fleet))
            .collect::<Result<Vec<Group>, String>>()?;
        let positions = groups.iter().map(|g| g.positions.len()).sum::<usize>();
        if positions != land_areas.len()
            || land_areas.iter().any(|(h, _)| !groups.iter().any(|g| g.positions.contains(h)))
        {
            return Err("the groups' positions and the land areas must list the same hexes".into());
        }

        let setup_hexes = match self.setup.allowed_land_areas {
            AllowedAreas::Listed(allowed) => {
                Some(land_areas.iter().filter(|(_, a)| allowed.contains(a)).map(|&(h, _)| h).collect())
            }
            AllowedAreas::Named(name) if name == "any" => None,
            AllowedAreas::Named(name) => return Err(format!("setup.allowed_land_areas \"{name}\" is not \"any\"")),
        };

        let harbour_kinds = if self.harbour_kinds_shuffled {
            self.harbour_kind_pool.expanded()
        } else {
            self.harbours
                .iter()
                .map(|h| h.kind.ok_or(format!("harbour {} has no kind", h.edge)))
                .collect::<Result<_, _>>()?
        };
        if self.harbour_kind_pool.total() != self.harbours.len() {
            return Err(format!(
                "{} harbour kinds in the pool for {} harbours",
                self.harbour_kind_pool.total(),
                self.harbours.len()
            ));
        }

        let robber_in_file = match self.robber_start {
            StartFile::Hex(hex) => RobberStart::Hex(hex.0),
            StartFile::Text(text) if text == ROBBER_ON_A_DESERT => RobberStart::Desert,
            StartFile::Text(text) if text.starts_with(ROBBER_OFF_BOARD) => RobberStart::OffBoard,
            StartFile::Text(text) => {
                return Err(format!("robber_start \"{text}\" is neither a hex, \"a desert\" nor off-board"))
            }
        };
        if robber_in_file == RobberStart::Desert && !groups.iter().any(|g| g.may_hold_a_desert()) {
            return Err("robber_start is \"a desert\" but the map has none".into());
        }
        let robber = if by_rule.robber_on_neutral_desert {
            let mut deserts: Vec<HexCoord> = groups
                .iter()
                .filter(|g| g.neutral)
                .flat_map(|g| match &g.terrain {
                    TerrainFill::Fixed(fixed) => g.positions.iter().zip(fixed).collect::<Vec<_>>(),
                    _ => Vec::new(),
                })
                .filter(|(_, t)| **t == Terrain::Desert)
                .map(|(h, _)| *h)
                .collect();
            // Reading order: row by row from the north, west to east within a row.
            deserts.sort_by_key(|h| (h.r, h.q));
            RobberStart::Hex(*deserts.first().ok_or("the rules start the robber on a neutral desert: none is fixed")?)
        } else {
            robber_in_file
        };

        let marked_vertices = self
            .marked_vertices
            .into_iter()
            .map(|(name, set)| {
                MarkedSet::from_data_name(&name)
                    .map(|kind| (kind, set.vertices))
                    .ok_or_else(|| format!("marked vertex set \"{name}\" is not one the rules know"))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let wonders = self
            .wonder_cards
            .into_iter()
            .map(|card| card.check(|set| marked_vertices.iter().any(|(s, _)| *s == set)))
            .collect::<Result<Vec<WonderCard>, String>>()?;

        let mut gift_edges: Vec<(EdgeId, Gift)> = Vec::new();
        gift_edges.extend(self.special_edges.svp.iter().map(|&e| (e, Gift::VictoryPoint)));
        gift_edges.extend(self.special_edges.dev_card.iter().map(|&e| (e, Gift::DevelopmentCard)));
        let gift_harbours: Vec<EdgeId> =
            if by_rule.harbours_are_gifts { self.harbours.iter().map(|h| h.edge).collect() } else { Vec::new() };
        let mut all_gifts: Vec<EdgeId> =
            gift_edges.iter().map(|&(e, _)| e).chain(gift_harbours.iter().copied()).collect();
        all_gifts.sort_unstable();
        if all_gifts.windows(2).any(|w| w[0] == w[1]) {
            return Err("two gifts share an edge (FTR-7)".into());
        }
        let robber_excluded =
            land_areas.iter().filter(|(_, a)| by_rule.robber_excluded_areas.contains(a)).map(|&(h, _)| h).collect();

        let (cloth_per_village, cloth_supply) = match (&self.cloth, self.villages.is_empty()) {
            (Some(cloth), false) => (cloth.per_village, cloth.general_supply),
            (None, true) => (0, 0),
            _ => return Err("villages and cloth come together (CLV-5)".into()),
        };
        if let Some(v) = self.villages.iter().find(|v| !(2..=12).contains(&v.number) || v.number == 7) {
            return Err(format!("village {} has number {}, not 2-12 other than 7 (CLV-5)", v.vertex, v.number));
        }
        if !(2..=3).contains(&rules.setup_rounds) {
            return Err(format!("rules.setup_rounds {} is not 2 or 3 (SCN-6)", rules.setup_rounds));
        }

        let margin = hexes(&self.margin_sea_hexes);
        let layout = ScenarioLayout {
            villages: self.villages,
            cloth_per_village,
            cloth_supply,
            setup_rounds: rules.setup_rounds,
            longest_route_card: rules.longest_route_card,
            fleet,
            gift_edges,
            gift_harbours,
            robber_excluded,
            land_areas,
            setup_hexes,
            margin: margin.clone(),
            fog_terrain,
            fog_tokens,
            vp_target: self.vp_to_win,
            island_bonus,
            bonus_excluded_areas: rules
                .island_bonus
                .as_ref()
                .map(|b| b.excluded_land_areas.clone())
                .unwrap_or_default(),
            // PIR-2: the fleet sails by the dice; nobody moves a pirate.
            pirate_in_play: rules.pirate && !by_rule.pirate_fleet,
            setup_forbidden: self.setup.forbidden_vertices,
            marked_vertices,
            wonders,
        };
        let map = Map {
            groups,
            sea: hexes(&self.sea_hexes),
            margin,
            harbour_edges: self.harbours.iter().map(|h| h.edge).collect(),
            harbour_kinds,
            shuffle_harbour_kinds: self.harbour_kinds_shuffled,
            robber,
            robber_in_file,
            pirate: self.pirate_start.map(|h| h.0),
        };
        Ok(Variant { players: self.players, layout, board: BoardSource::Map(map) })
    }
}

impl VariantFile {
    /// PIR-4..7, PIR-11: the seats' starts and the fleet's path, checked: every seat has a
    /// lane holding its first ship, the path is a closed loop of in-bounds sea hexes starting
    /// where the pirate starts.
    fn fleet_map(&self) -> Result<FleetMap, String> {
        let path = hexes(&self.pirate_fleet_path);
        let sea = hexes(&self.sea_hexes);
        if path.len() < 2 || path.iter().any(|h| !sea.contains(h)) {
            return Err("pirate_fleet_path must list at least two in-bounds sea hexes (PIR-11)".into());
        }
        let closed = path.iter().zip(path.iter().cycle().skip(1)).all(|(a, b)| a.neighbours().contains(b));
        if !closed || self.pirate_start.map(|h| h.0) != Some(path[0]) {
            return Err("pirate_fleet_path must be a closed loop from pirate_start (PIR-11)".into());
        }
        let max_players = usize::from(self.players.iter().copied().max().unwrap_or(0));
        if self.per_player_start.len() < max_players {
            return Err(format!(
                "{} per_player_start entries for {max_players} players (SCN-2)",
                self.per_player_start.len()
            ));
        }
        let starts = self
            .per_player_start
            .iter()
            .map(|s| {
                if !s.lane_edges.contains(&s.initial_ship) {
                    return Err(format!(
                        "the lane of {} does not hold its ship {} (PIR-7)",
                        s.fortress, s.initial_ship
                    ));
                }
                Ok(PlayerStart {
                    settlement: s.initial_settlement,
                    ship: s.initial_ship,
                    fortress: s.fortress,
                    lone_vertex: s.lone_settlement_vertex,
                    lane: s.lane_edges.clone(),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(FleetMap { path, starts })
    }
}

impl GroupFile {
    fn check(self, area_of: &impl Fn(HexCoord) -> Option<u8>, neutral_tokens: bool) -> Result<Group, String> {
        let name = self.name;
        let err = |message: String| format!("group \"{name}\": {message}");
        let positions = hexes(&self.positions);
        let areas = positions
            .iter()
            .map(|&h| area_of(h).ok_or_else(|| err(format!("position {h} is in no land area"))))
            .collect::<Result<Vec<u8>, String>>()?;
        if self.terrain_pool.total() != positions.len() {
            return Err(err(format!("{} terrains for {} positions", self.terrain_pool.total(), positions.len())));
        }
        let pool = self.terrain_pool.expanded();
        let terrain = match (self.hidden_by_fog, self.terrain_shuffled, self.terrain_fixed) {
            (true, _, _) => TerrainFill::Fog,
            (false, true, _) => TerrainFill::Shuffled(pool.clone()),
            (false, false, Some(fixed)) if same_items(&fixed, &pool) => TerrainFill::Fixed(fixed),
            (false, false, _) => return Err(err("unshuffled terrain needs terrain_fixed, equal to the pool".into())),
        };
        // Every layout of the pool has the same number of hexes that take a number; neutral
        // land takes none (SCN-3, FTR-5).
        let neutral = areas.iter().all(|&a| a == NEUTRAL_AREA);
        let producing = if neutral && !neutral_tokens { 0 } else { pool.iter().filter(|t| t.takes_number()).count() };
        let hidden_tokens = self.number_pool.as_ref().map_or(0, Vec::len);
        if self.hidden_by_fog && hidden_tokens != producing {
            return Err(err(format!("{hidden_tokens} hidden tokens for {producing} hidden hexes that take one")));
        }
        let numbers = match (self.number_pool, self.numbers_shuffled, self.numbers_in_position_order) {
            _ if self.hidden_by_fog => Numbers::None,
            (None, _, _) if producing == 0 => Numbers::None,
            (None, _, _) => return Err(err(format!("{producing} hexes take a number but the group has none"))),
            (Some(tokens), true, _) => Numbers::Shuffled(tokens),
            (Some(tokens), false, Some(order)) if same_items(&tokens, &order) => Numbers::InOrder(order),
            (Some(_), false, _) => {
                return Err(err("unshuffled numbers need numbers_in_position_order, equal to the pool".into()))
            }
        };
        let tokens = match &numbers {
            Numbers::None => &[][..],
            Numbers::Shuffled(tokens) | Numbers::InOrder(tokens) => tokens,
        };
        // PIR-23: on the pirate islands, positions past the end of the list get no token.
        let short_allowed = neutral && neutral_tokens && tokens.len() < producing;
        if !matches!(numbers, Numbers::None) && tokens.len() != producing && !short_allowed {
            return Err(err(format!("{} number tokens for {producing} hexes that take one", tokens.len())));
        }
        if let Some(bad) = tokens.iter().find(|n| !(2..=12).contains(*n) || **n == 7) {
            return Err(err(format!("number token {bad} is not 2-12 other than 7")));
        }
        if let Some(area) = self.constraint_gold_in_area {
            if !pool.contains(&Terrain::Gold) || !areas.contains(&area) {
                return Err(err(format!("constraint_gold_in_area {area}: no gold, or no position in that area")));
            }
        }
        Ok(Group {
            name,
            positions,
            areas,
            terrain,
            numbers,
            gold_in_area: self.constraint_gold_in_area,
            robber_on_desert: self.robber_on_desert,
            no_red_number_on: hexes(&self.constraint_no_6_or_8_on),
            no_high_number_on: hexes(&self.constraint_no_5_6_8_9_on),
            neutral,
        })
    }
}

/// Tests if two lists hold the same items, in any order.
fn same_items<T: PartialEq>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len() && a.iter().all(|x| a.iter().filter(|y| *y == x).count() == b.iter().filter(|y| *y == x).count())
}
