//! Game configuration: player count, board, and every rule flag of RULES.md 0.4 that
//! concerns the base game, each with its default.

use serde::{Deserialize, Serialize};

use crate::board::{BoardLayout, HexCoord, NumberPlacement};
pub use crate::ext::seafarers::scenario::{
    new_world::{NewWorldHarbours, NewWorldLayout},
    ScenarioId,
};

/// Who earns an island bonus (SEA-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum IslandBonusMode {
    /// Each player, once per island, for their first settlement on an island where they had
    /// no setup settlement.
    PerPlayerForeignIsland,
    /// Only the first player ever to settle an island.
    FirstOnIsland,
    /// Every settlement on a marked island (Wonders of Catan).
    PerSettlementOnMarkedIslands,
}

/// What counts as one island for the island bonus (SEA-12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum IslandDefinition {
    /// The connected groups of land hexes, computed by the engine (RULES.md SEA-12).
    #[default]
    ConnectedLand,
    /// The land areas of the scenario's data (the maps' own reading, e.g. the strip beyond
    /// the desert of Through the Desert is an area of its own).
    ScenarioLandAreas,
}

/// Which board to play on.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum BoardSpec {
    /// The fixed, balanced first-game map (B-GEO-14).
    #[default]
    Beginner,
    /// Terrain and harbours shuffled, numbers per `number_placement` (B-GEO-13).
    Random,
    /// A map given as data; validated when the game is set up.
    Custom(BoardLayout),
}

/// What may be played before the roll (B-TURN-3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum DevCardsBeforeRoll {
    /// Only a Knight (the seed's rule).
    #[default]
    KnightOnly,
    /// Any one development card (the publisher's current FAQ).
    Any,
}

/// Who takes the first turn (B-SET-2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum FirstPlayer {
    /// Everyone rolls; the highest sum starts, ties re-roll.
    #[default]
    Roll,
    /// A fixed seat starts.
    Seat(u8),
}

/// Everything that fixes the rules of one game. Missing fields take their defaults.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct GameConfig {
    /// Number of seats: 2 to 4, or 5 to 6 with the extension (B-CMP-11, X56-1).
    pub players: u8,
    /// `beginner` is the fixed board (for 5-6 players, the fixed extension board of the docs).
    pub board: BoardSpec,
    /// X56: the 5-6 player extension (30-hex board, 24 cards per resource, 34 development
    /// cards, special building phase). Required for 5 or 6 players.
    pub five_six_extension: bool,
    /// X56-8: during a special building phase, the builder may trade with the player whose
    /// turn just ended (the seed's rule); false forbids all trading there.
    pub sbp_trade_with_previous_player: bool,
    /// X56-7: the desert the robber starts on, when the board has several (default: the
    /// first desert in reading order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub robber_start: Option<HexCoord>,
    /// JUN: the desert becomes a jungle that produces discoveries (JUN-1..6).
    pub jungle: bool,
    /// JUN-2: the jungle's number token (2-12, not 7); required with `jungle`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jungle_number: Option<u8>,
    /// RIV: Big River replaces a mountains, a forest and the desert with a river of mountains,
    /// forest and a gold mine (RIV-1..7). Needs a random or custom board.
    pub big_river: bool,
    /// RIV-2: three collinear land hexes, top to bottom (default (0,-1), (0,0), (0,1)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub river_hexes: Option<Vec<HexCoord>>,
    /// RIV-3: the gold mine's number token (2-12, not 7); required with `big_river`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub river_gold_number: Option<u8>,
    /// RIV-4: no setup settlement may touch a river hex.
    pub river_bank_setup_ban: bool,
    /// RIV-5: the gold mine produces resources of the owner's choice.
    pub river_gold_produces: bool,
    /// RIV-6: extra victory points per building on the gold mine.
    pub river_gold_bonus_vp: u8,
    /// B-ROB-4: the robber may be moved onto the desert.
    pub robber_may_enter_desert: bool,
    /// B-TURN-3.
    pub dev_cards_before_roll: DevCardsBeforeRoll,
    /// B-TURN-6: trading may follow building in the same turn.
    pub allow_trade_build_interleaving: bool,
    /// B-GEO-12: how numbers are laid on a random board.
    pub number_placement: NumberPlacement,
    /// B-GEO-11: no 6/8 next to another 6/8.
    pub forbid_adjacent_red_numbers: bool,
    /// B-SET-2.
    pub first_player: FirstPlayer,
    /// SEA: the Seafarers expansion, played on the map of `scenario`.
    pub seafarers: bool,
    /// SEA: the scenario (required with `seafarers`); its map depends on the player count.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scenario: Option<ScenarioId>,
    /// SEA-12: who earns an island bonus (default: the scenario's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub island_bonus_mode: Option<IslandBonusMode>,
    /// SEA-12: victory points per island bonus (default: the scenario's; 0 switches it off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub island_bonus_vp: Option<u8>,
    /// SEA-12: what counts as one island.
    pub islands: IslandDefinition,
    /// B-WIN-1, SEA-14: victory points needed to win (default 10; a Seafarers scenario's own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vp_target: Option<u8>,
    /// WON-8 (engine decision, not in the rules): in Wonders of Catan a seat that has not
    /// claimed a wonder keeps its last ship in supply for the claim, so nobody can shut
    /// themselves out of the game's goal by building every ship. `false` lets the last ship
    /// be built.
    #[serde(skip_serializing_if = "is_true")]
    pub wonder_ship_reserved: bool,
    /// Engine decision, not in the rules: the game ends when turn `turn_limit` ends (1 to
    /// 10,000), won by the seat with the most victory points (`game_won` with
    /// `condition: "turn_limit"`; ties go to the tied seat that would have played soonest,
    /// i.e. the one that played the fewest turns). None: no limit. The catan server gives a
    /// game with a bot seat 3,000 when it starts, unless one was chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
    /// Not a rule of play: the seconds a server gives a seat to act before a built-in bot
    /// plays for it (a turn timer). The engine only carries it; servers validate and apply it
    /// (the catan server: 5 to 604,800, else 422 `invalid_turn_timer`; off when absent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_timer_seconds: Option<u32>,
    /// CK: Cities & Knights (RULES.md 8.6): 13 VP, commodities, city improvements, knights,
    /// walls and the barbarians. Combines with the 5-6 player extension only. The same as
    /// `"variant": "cities_and_knights"`.
    #[serde(skip_serializing_if = "is_false")]
    pub cities_and_knights: bool,
    /// CK-BAR-1: the barbarian ship's advances to Catan, 1 to 20 (default 7; 6 reads seed
    /// [000]). Cities & Knights only.
    #[serde(skip_serializing_if = "is_seven")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 20, default = 7))]
    pub barbarian_steps: u8,
    /// CK-BAR-10: the robber stays put until the first barbarian attack (default true).
    /// Cities & Knights only.
    #[serde(skip_serializing_if = "is_true")]
    #[cfg_attr(feature = "openapi", schema(default = true))]
    pub robber_waits_for_first_attack: bool,
    /// CK-PC-4: the most progress cards a seat holds besides the VP cards, 1 to 10 (default
    /// 4; 5 with the 5-6 player extension). Cities & Knights only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 10))]
    pub progress_hand_limit: Option<u8>,
    /// CK-PC-5: a seat over the limit in its own turn may play cards down to it instead of
    /// discarding (default true; false: it discards at once, as every other seat).
    /// Cities & Knights only.
    #[serde(skip_serializing_if = "is_true")]
    #[cfg_attr(feature = "openapi", schema(default = true))]
    pub progress_overflow_play_option: bool,
    /// NEW-GEN, NEW-GEN-11: how The New World's board is generated (default
    /// `grown_islands`; `published_random` shuffles every tile over the frame as the printed
    /// rules do, which mostly makes one large island). The New World only.
    #[serde(skip_serializing_if = "NewWorldLayout::is_default")]
    pub new_world_layout: NewWorldLayout,
    /// NEW-GEN-7: a generated New World board also has no two neighbouring hexes with the
    /// same number (default false). The New World only.
    #[serde(skip_serializing_if = "is_false")]
    pub forbid_adjacent_equal_numbers: bool,
    /// FTR-7: a ship moved onto a gift's edge claims it too (default true); false: only a
    /// ship placed there (built, free or in setup). The Forgotten Tribe only.
    #[serde(skip_serializing_if = "is_true")]
    #[cfg_attr(feature = "openapi", schema(default = true))]
    pub ftr_gift_on_move: bool,
    /// FTR-12: when a gift harbour kept for later must be placed (default `on_next_spot`).
    /// The Forgotten Tribe only.
    #[serde(skip_serializing_if = "PendingHarbour::is_default")]
    pub ftr_pending_harbour: PendingHarbour,
    /// NEW-GEN-8, NEW-11: who puts The New World's harbours on the board (default `random`:
    /// the generator; `players_place`: the board starts without them and, before setup, the
    /// players draw them one by one from a shuffled stack, starting with the first player and
    /// going clockwise, and place each with `place_harbour`). The New World only.
    #[serde(skip_serializing_if = "NewWorldHarbours::is_default")]
    pub new_world_harbours: NewWorldHarbours,
    /// SCN-6: rounds of setup placements, 2 or 3 (default: the scenario's; Cloth for Catan
    /// 3, every other game 2). A third round goes clockwise from the first player again.
    /// On The Pirate Islands this is RULES-SCENARIOS' `pir_setup_rounds` (PIR-5). Not with
    /// Cities & Knights. A third round on a board whose setup sites could run out before the
    /// last placement, whatever the players choose, is `invalid_config`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 2, maximum = 3))]
    pub setup_rounds: Option<u8>,
    /// SCN-6: the setup round (from 1) whose settlement yields the starting resources
    /// (default: the last round).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 3))]
    pub starting_resources_round: Option<u8>,
    /// SCN-8: whether the Longest Road (Longest Trade Route) card is in play (default: the
    /// scenario's; false in Cloth for Catan and Wonders of Catan, else true).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub longest_route_card: Option<bool>,
    /// SCN-4: the land areas (`land_area` of the map's hexes) the robber may not be moved
    /// onto; it may start there (default: the scenario's, `[0]` on The Forgotten Tribe and
    /// Cloth for Catan, where area 0 is the neutral islands; none elsewhere). Seafarers maps
    /// with land areas only (not The New World, whose islands are generated); every area
    /// named must be on the map.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub robber_excluded_land_areas: Option<Vec<u8>>,
    /// CLV-15: where Cloth for Catan's robber starts (default `village_desert`: the first
    /// desert village island in reading order, where it never returns; `data`: the main-island
    /// hex of the map data, JSettlers' choice). Cloth for Catan only.
    #[serde(skip_serializing_if = "ClothRobberStart::is_default")]
    pub clv_robber_start: ClothRobberStart,
    /// CLV-14: the game ends at once when fewer than this many villages have cloth left
    /// (default 4; 1 to the number of villages). Cloth for Catan only.
    #[serde(skip_serializing_if = "is_four")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 12, default = 4))]
    pub clv_end_villages_min: u8,
    /// PIR-15: which ship a Knight card makes a warship (default `oldest`). The Pirate
    /// Islands only.
    #[serde(skip_serializing_if = "WarshipChoice::is_default")]
    pub pir_warship_choice: WarshipChoice,
    /// PIR-16: the deck's VP cards with 4-6 players (default `as_knights`; 2-3 players never
    /// have them). The Pirate Islands only.
    #[serde(skip_serializing_if = "PirateVpCards::is_default")]
    pub pir_vp_cards: PirateVpCards,
    /// PIR-4: a settlement of each seat's supply waits under its fortress (default true);
    /// false: the conquest takes one from the supply. The Pirate Islands only.
    #[serde(skip_serializing_if = "is_true")]
    #[cfg_attr(feature = "openapi", schema(default = true))]
    pub pir_fortress_reserves_settlement: bool,
    /// PIR-18: attacking the fortress ends the turn (default true). The Pirate Islands only.
    #[serde(skip_serializing_if = "is_true")]
    #[cfg_attr(feature = "openapi", schema(default = true))]
    pub pir_attack_ends_turn: bool,
    /// PIR-13: no fleet attack on a hex that touches two or more seats' lone-settlement
    /// vertices (default true). The Pirate Islands only.
    #[serde(skip_serializing_if = "is_true")]
    #[cfg_attr(feature = "openapi", schema(default = true))]
    pub pir_shared_lone_hex_no_attack: bool,
}

/// `clv_robber_start` (CLV-15): where Cloth for Catan's robber starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ClothRobberStart {
    /// The first desert village island in reading order (engine decision).
    #[default]
    VillageDesert,
    /// The start hex of the map data (JSettlers), whatever land is laid there.
    Data,
}

impl ClothRobberStart {
    fn is_default(&self) -> bool {
        *self == ClothRobberStart::default()
    }
}

fn is_four(n: &u8) -> bool {
    *n == 4
}

/// `pir_warship_choice` (PIR-15): which ship a Knight card turns into a warship.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum WarshipChoice {
    /// The seat's earliest-placed ship that is not a warship (JSettlers).
    #[default]
    Oldest,
    /// The ship the play names.
    PlayerChoice,
}

impl WarshipChoice {
    fn is_default(&self) -> bool {
        *self == WarshipChoice::default()
    }
}

/// `pir_vp_cards` (PIR-16): the development deck's VP cards with 4-6 players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PirateVpCards {
    /// The VP cards are Knights instead (JSettlers).
    #[default]
    AsKnights,
    /// The standard deck.
    Keep,
}

impl PirateVpCards {
    fn is_default(&self) -> bool {
        *self == PirateVpCards::default()
    }
}

/// `ftr_pending_harbour` (FTR-12): what happens to a gift harbour its claimant could not
/// place at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum PendingHarbour {
    /// Placed as soon as the claimant's own move makes a spot for it, before anything else
    /// (the published rule).
    #[default]
    OnNextSpot,
    /// Placed when the claimant chooses, in their own turn, while a spot exists (JSettlers).
    Voluntary,
}

impl PendingHarbour {
    fn is_default(&self) -> bool {
        *self == PendingHarbour::default()
    }
}

fn is_true(flag: &bool) -> bool {
    *flag
}

fn is_seven(n: &u8) -> bool {
    *n == 7
}

fn is_false(flag: &bool) -> bool {
    !*flag
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            players: 4,
            board: BoardSpec::Beginner,
            five_six_extension: false,
            sbp_trade_with_previous_player: true,
            robber_start: None,
            jungle: false,
            jungle_number: None,
            big_river: false,
            river_hexes: None,
            river_gold_number: None,
            river_bank_setup_ban: true,
            river_gold_produces: true,
            river_gold_bonus_vp: 1,
            robber_may_enter_desert: true,
            dev_cards_before_roll: DevCardsBeforeRoll::KnightOnly,
            allow_trade_build_interleaving: true,
            number_placement: NumberPlacement::Spiral,
            forbid_adjacent_red_numbers: true,
            first_player: FirstPlayer::Roll,
            seafarers: false,
            scenario: None,
            island_bonus_mode: None,
            island_bonus_vp: None,
            islands: IslandDefinition::ConnectedLand,
            vp_target: None,
            wonder_ship_reserved: true,
            turn_limit: None,
            turn_timer_seconds: None,
            cities_and_knights: false,
            barbarian_steps: 7,
            robber_waits_for_first_attack: true,
            progress_hand_limit: None,
            progress_overflow_play_option: true,
            new_world_layout: NewWorldLayout::GrownIslands,
            forbid_adjacent_equal_numbers: false,
            ftr_gift_on_move: true,
            ftr_pending_harbour: PendingHarbour::OnNextSpot,
            new_world_harbours: NewWorldHarbours::Random,
            setup_rounds: None,
            starting_resources_round: None,
            longest_route_card: None,
            robber_excluded_land_areas: None,
            clv_robber_start: ClothRobberStart::VillageDesert,
            clv_end_villages_min: 4,
            pir_warship_choice: WarshipChoice::Oldest,
            pir_vp_cards: PirateVpCards::AsKnights,
            pir_fortress_reserves_settlement: true,
            pir_attack_ends_turn: true,
            pir_shared_lone_hex_no_attack: true,
        }
    }
}

impl GameConfig {
    /// Returns the default configuration for `players` seats (with the 5-6 extension for 5
    /// or 6).
    pub fn for_players(players: u8) -> Self {
        GameConfig { players, five_six_extension: players >= 5, ..GameConfig::default() }
    }
}
