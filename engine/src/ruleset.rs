//! The ruleset of one game, built once from its [`GameConfig`] — the only place besides each
//! extension's own module that reads the configuration. It says which extensions are in play
//! (5-6 players, Jungle, Big River; Seafarers and Cities & Knights next), the options of the
//! base rules, and the components the game is played with.

pub(crate) mod board;

use std::sync::Arc;

use crate::{
    board::{BoardLayout, EdgeId, HarbourKind, HexCoord, NumberPlacement, Terrain, VertexId},
    config::{BoardSpec, DevCardsBeforeRoll, GameConfig, ScenarioId},
    ext::{
        big_river::BigRiver, cities_knights::CitiesKnights, five_six::FiveSix, jungle::Jungle, seafarers::Seafarers,
        wonders::Wonders, Extension,
    },
    model::{DevCards, Pieces, Resources, Seat},
    protocol::SetupError,
};

/// The rule sets a game can name: the base game and the variants it can add.
pub const VARIANT_NAMES: [&str; 7] =
    ["base", "five_six", "jungle", "big_river", "seafarers", "wonders", "cities_and_knights"];

/// The turn limits a game may have (`GameConfig::turn_limit`).
pub const TURN_LIMITS: std::ops::RangeInclusive<u32> = 1..=10_000;

/// The options of the base rules (RULES.md 0.4).
#[derive(Debug, Clone)]
pub(crate) struct BaseRules {
    pub players: u8,
    pub vp_target: u8,
    pub robber_may_enter_desert: bool,
    pub dev_cards_before_roll: DevCardsBeforeRoll,
    pub allow_trade_build_interleaving: bool,
    /// The last turn played, if the game has a turn limit (engine decision).
    pub turn_limit: Option<u32>,
}

/// How the board is laid out at the start (B-GEO-11..14, X56-7).
#[derive(Debug, Clone)]
pub(crate) struct BoardOptions {
    pub spec: BoardSpec,
    pub number_placement: NumberPlacement,
    pub forbid_adjacent_red_numbers: bool,
    pub robber_start: Option<HexCoord>,
}

/// What the game is played with; extensions change it (B-CMP, X56-5/6, JUN-2, RIV-1).
#[derive(Debug, Clone)]
pub(crate) struct Components {
    /// The bank at the start, per resource.
    pub bank: Resources,
    pub development_deck: DevCards,
    /// Each seat's piece supply.
    pub pieces: Pieces,
    /// A board's land terrain, tokens and harbours (what a custom board must have).
    pub terrain: Vec<(Terrain, usize)>,
    pub tokens: Vec<u8>,
    pub harbours: Vec<HarbourKind>,
    /// Gold hexes produce cards of free choice (RIV-5, SEA-9).
    pub gold_produces: bool,
    /// The most victory points one event can bring its seat: bounds when the victory check
    /// must look closer.
    pub max_points_per_event: u32,
    /// The victory points needed to win unless the configuration says otherwise (B-WIN-1,
    /// SEA-14).
    pub vp_target: u8,
    /// Whether the Longest Road (Trade Route) card is in play (B-LR; not in Wonders, WON-7).
    pub longest_road_card: bool,
    /// A seat without a wonder keeps its last ship for the claim (WON-8, engine decision).
    pub ship_kept_for_wonder: bool,
    /// The second setup piece is a city, not a settlement (CK-SET-1).
    pub setup_city: bool,
    /// The commodity cards in the bank at the start (CK-CMP-1); none outside C&K.
    pub commodities: crate::model::Commodities,
    /// Hexes the robber may not be moved to (SCN-4: the tribe's islands).
    pub robber_excluded: Vec<HexCoord>,
    /// Development cards set aside as gifts at the start, not for sale (FTR-8).
    pub dev_cards_set_aside: u32,
    /// SCN-6: rounds of setup placements (B-SET-3: 2; CLV-3: 3), and the round (from 1)
    /// whose settlement yields the starting resources (B-SET-6: the last).
    pub setup_rounds: u8,
    pub starting_resources_round: u8,
    /// Vertices that close a ship route as a seat's own building does (SCN-7: Cloth for
    /// Catan's villages).
    pub ship_anchors: Vec<crate::VertexId>,
    /// Whether the robber is in play at all (PIR-2: not on The Pirate Islands, whose Knights
    /// move nothing and whose 7 is the scenario's own).
    pub robber_in_play: bool,
    /// Whether the Largest Army card is in play (PIR-17: not on The Pirate Islands).
    pub largest_army_card: bool,
    /// Vertices where one seat only may settle although no land of the board is buildable
    /// there (PIR-6: each seat's lone-settlement vertex on the neutral pirate islands).
    pub lone_sites: Vec<(Seat, VertexId)>,
    /// Each seat's ship lane, in seat order, when ships may stand only there (PIR-7); empty
    /// when ships go anywhere.
    pub ship_lanes: Vec<Vec<EdgeId>>,
}

impl Components {
    /// Whether hands hold commodity cards beside resources (CK-CMP-1).
    pub(crate) fn has_commodities(&self) -> bool {
        !self.commodities.is_empty()
    }

    /// The base game's components (B-CMP-5..7, B-GEO-11..14).
    fn base() -> Self {
        use crate::board::layout;
        Components {
            bank: Resources::each(19),
            development_deck: DevCards::new(14, 2, 2, 2, 5),
            pieces: Pieces { roads: 15, settlements: 5, cities: 4, ships: 0 },
            terrain: layout::STANDARD_TERRAIN.to_vec(),
            tokens: layout::TOKEN_SEQUENCE.to_vec(),
            harbours: layout::STANDARD_HARBOURS.to_vec(),
            gold_produces: true,
            max_points_per_event: 2,
            vp_target: 10,
            longest_road_card: true,
            ship_kept_for_wonder: false,
            setup_city: false,
            commodities: crate::model::Commodities::NONE,
            robber_excluded: Vec::new(),
            dev_cards_set_aside: 0,
            setup_rounds: 2,
            starting_resources_round: 2,
            ship_anchors: Vec::new(),
            robber_in_play: true,
            largest_army_card: true,
            lone_sites: Vec::new(),
            ship_lanes: Vec::new(),
        }
    }

    /// Replaces every hex of `from` terrain in the pool with `to`.
    pub(crate) fn replace_terrain(&mut self, from: Terrain, to: Terrain) {
        for entry in self.terrain.iter_mut().filter(|(t, _)| *t == from) {
            entry.0 = to;
        }
    }
}

/// Everything that fixes the rules of one game.
#[derive(Debug)]
pub(crate) struct Ruleset {
    pub base: BaseRules,
    pub board: BoardOptions,
    pub components: Components,
    /// The extensions in play, in the order their hooks are asked.
    pub extensions: Vec<Box<dyn Extension>>,
}

impl Ruleset {
    /// Builds the ruleset of `config`, checking that its options fit together.
    ///
    /// # Errors
    /// [`SetupError`] naming the first problem.
    pub(crate) fn build(config: &GameConfig) -> Result<Ruleset, SetupError> {
        // NEW-11: only The New World's board is made without its harbours.
        let new_world = config.seafarers && config.scenario == Some(ScenarioId::NewWorld);
        if config.new_world_harbours == crate::config::NewWorldHarbours::PlayersPlace && !new_world {
            return Err(invalid("new_world_harbours players_place is for the new_world scenario only (NEW-11)".into()));
        }
        // SCN-4: land areas are a Seafarers map's.
        if config.robber_excluded_land_areas.is_some() && !config.seafarers {
            return Err(invalid("robber_excluded_land_areas is for Seafarers scenarios only (SCN-4)".into()));
        }
        let ruleset = Ruleset::assemble(config);
        ruleset.validate()?;
        Ok(ruleset)
    }

    /// Builds the ruleset without validation: for games already set up (a snapshot or a
    /// replayed log), whose configuration was validated when the game began.
    pub(crate) fn assemble(config: &GameConfig) -> Ruleset {
        let mut extensions: Vec<Box<dyn Extension>> = Vec::new();
        // Seafarers lays its scenario's board, also for 5-6 players: it is asked first.
        if config.seafarers {
            extensions.push(Box::new(Seafarers::from_config(config)));
            if config.scenario == Some(ScenarioId::Wonders) {
                extensions
                    .push(Box::new(Wonders { players: config.players, ship_reserved: config.wonder_ship_reserved }));
            }
        }
        if config.five_six_extension {
            extensions.push(Box::new(FiveSix { trade_with_previous_player: config.sbp_trade_with_previous_player }));
        }
        if config.jungle {
            extensions.push(Box::new(Jungle { number: config.jungle_number }));
        }
        if config.big_river {
            extensions.push(Box::new(BigRiver {
                river: config.river_hexes.clone(),
                gold_number: config.river_gold_number,
                bank_setup_ban: config.river_bank_setup_ban,
                gold_produces: config.river_gold_produces,
                gold_bonus_vp: config.river_gold_bonus_vp,
            }));
        }
        if config.cities_and_knights {
            extensions.push(Box::new(CitiesKnights::from_config(config)));
        }
        let mut components = Components::base();
        for extension in &extensions {
            extension.components(&mut components);
        }
        for extension in &extensions {
            extension.finish_components(&mut components);
        }
        // SCN-6, SCN-8: the options override what the scenario sets.
        if let Some(rounds) = config.setup_rounds {
            components.setup_rounds = rounds;
            components.starting_resources_round = rounds;
        }
        if let Some(round) = config.starting_resources_round {
            components.starting_resources_round = round;
        }
        if let Some(card) = config.longest_route_card {
            components.longest_road_card = card;
        }
        Ruleset {
            base: BaseRules {
                players: config.players,
                vp_target: config.vp_target.unwrap_or(components.vp_target),
                robber_may_enter_desert: config.robber_may_enter_desert,
                dev_cards_before_roll: config.dev_cards_before_roll,
                allow_trade_build_interleaving: config.allow_trade_build_interleaving,
                turn_limit: config.turn_limit,
            },
            board: BoardOptions {
                spec: config.board.clone(),
                number_placement: config.number_placement,
                forbid_adjacent_red_numbers: config.forbid_adjacent_red_numbers,
                robber_start: config.robber_start,
            },
            components,
            extensions,
        }
    }

    fn validate(&self) -> Result<(), SetupError> {
        let allows_players = self.extensions.iter().find_map(|e| e.player_counts());
        let (range, allowed) =
            allows_players.unwrap_or((2..=4, "the base game takes 2 to 4 players; 5 or 6 need five_six_extension"));
        if !range.contains(&self.base.players) {
            return Err(SetupError::PlayerCount { players: self.base.players, allowed });
        }
        // NEW-8: the generator is the server's record of how it made a board, not an input.
        if let BoardSpec::Custom(custom) = &self.board.spec {
            if custom.generator.is_some() {
                return Err(invalid(
                    "board.custom.generator is set by the server on a board it generated (NEW-8); a custom board \
                     leaves it out"
                        .into(),
                ));
            }
        }
        let rounds = self.components.setup_rounds;
        if !(2..=3).contains(&rounds) {
            return Err(invalid(format!("setup_rounds must be 2 or 3, not {rounds} (SCN-6)")));
        }
        let round = self.components.starting_resources_round;
        if !(1..=rounds).contains(&round) {
            return Err(invalid(format!(
                "starting_resources_round must be a setup round, 1 to {rounds}, not {round} (SCN-6)"
            )));
        }
        // CK-SET-1 makes the second setup piece a city: its setup has two rounds.
        if rounds != 2 && self.components.setup_city {
            return Err(invalid("cities_and_knights sets up in two rounds (CK-SET-1): setup_rounds must be 2".into()));
        }
        if !(3..=30).contains(&self.base.vp_target) {
            return Err(invalid(format!("vp_target must be 3 to 30, not {}", self.base.vp_target)));
        }
        if let Some(limit) = self.base.turn_limit.filter(|limit| !TURN_LIMITS.contains(limit)) {
            return Err(invalid(format!(
                "turn_limit must be {} to {}, not {limit}",
                TURN_LIMITS.start(),
                TURN_LIMITS.end()
            )));
        }
        if let Some(most) = self.most_points() {
            if u32::from(self.base.vp_target) > most {
                return Err(invalid(format!(
                    "vp_target {} cannot be reached: one seat can have at most {most} victory points in this game \
                     (its buildings, the Longest Road and Largest Army cards, the VP cards and the variant's bonuses), \
                     so the game could never end",
                    self.base.vp_target
                )));
            }
        }
        for extension in &self.extensions {
            extension.validate(self)?;
        }
        let names: Vec<&str> = self.extensions.iter().map(|e| e.name()).collect();
        for extension in self.extensions.iter().rev() {
            let others: Vec<&str> = names.iter().copied().filter(|n| *n != extension.name()).collect();
            if let Some(reason) = extension.conflicts_with(&others) {
                return Err(invalid(reason.into()));
            }
        }
        Ok(())
    }

    /// The most victory points one seat can ever hold (B-WIN-1: buildings from its supply,
    /// Longest Road and Largest Army, every VP card of the deck, and each variant's bonuses);
    /// `None` when a variant lets a seat win without the target.
    fn most_points(&self) -> Option<u32> {
        let pieces = &self.components.pieces;
        // A city replaces a settlement, whose piece returns to the supply (B-BLD-6).
        let buildings = u32::from(pieces.settlements) + 2 * u32::from(pieces.cities);
        let longest_road = if self.components.longest_road_card { 2 } else { 0 };
        let largest_army = 2;
        let cards = self.components.development_deck.get(crate::DevCard::VictoryPoint);
        let mut most = buildings + longest_road + largest_army + cards;
        for extension in &self.extensions {
            most = most.saturating_add(extension.most_points(pieces)?);
        }
        Some(most)
    }

    /// Lays out the board (B-GEO-13/14, and each extension's board, X56-2..4, JUN-1..3,
    /// RIV-1..3, RIV-7).
    pub(crate) fn generate_board(&self, rng: &mut crate::rng::Rng) -> Result<BoardLayout, SetupError> {
        board::generate(self, rng)
    }
}

/// Builds the shared ruleset of a game already set up (see [`Ruleset::assemble`]).
pub(crate) fn shared(config: &GameConfig) -> Arc<Ruleset> {
    Arc::new(Ruleset::assemble(config))
}

pub(crate) fn invalid(message: String) -> SetupError {
    SetupError::InvalidConfig(message)
}

impl GameConfig {
    /// Returns the variants switched on, joined with `+` (`"base"` when none is):
    /// e.g. `"five_six"`, `"jungle"`, `"base"`.
    pub fn variant_name(&self) -> String {
        let parts: Vec<&str> = Ruleset::assemble(self).extensions.iter().map(|e| e.name()).collect();
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
                "seafarers" => self.seafarers = true,
                // Wonders of Catan is a Seafarers scenario with rules of its own (WON).
                "wonders" => {
                    self.seafarers = true;
                    self.scenario = Some(ScenarioId::Wonders);
                }
                "cities_and_knights" => self.cities_and_knights = true,
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

    /// Checks that the options fit together.
    ///
    /// # Errors
    /// [`SetupError`] naming the first problem.
    pub fn validate(&self) -> Result<(), SetupError> {
        Ruleset::build(self).map(drop)
    }

    /// The development deck at the start (B-CMP-6, X56-6).
    pub fn development_deck(&self) -> crate::DevCards {
        Ruleset::assemble(self).components.development_deck
    }

    /// The victory points needed to win (B-WIN-1; a Seafarers scenario's own, SEA-14).
    pub fn victory_target(&self) -> u8 {
        Ruleset::assemble(self).base.vp_target
    }

    /// Cards of each resource in the bank at the start (B-CMP-5, X56-5).
    pub fn cards_per_resource(&self) -> u32 {
        Ruleset::assemble(self).components.bank.get(crate::Resource::Lumber)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// B-WIN-1: a target beyond every point a seat can hold would leave a game that never
    /// ends: 5 settlements and 4 cities (13), both cards (4) and the 5 VP cards make 22.
    #[test]
    fn a_victory_target_nobody_can_reach_is_refused() {
        let with_target = |target: u8, change: fn(&mut GameConfig)| {
            let mut config = GameConfig { vp_target: Some(target), ..GameConfig::for_players(4) };
            change(&mut config);
            config.validate()
        };
        assert!(with_target(22, |_| {}).is_ok());
        let refused = with_target(23, |_| {}).unwrap_err();
        assert_eq!(refused.code(), "invalid_config");
        assert!(refused.to_string().contains("at most 22"), "{refused}");
        // The 5-6 deck has no more VP cards; Big River's gold mine adds up to 3 bonuses.
        assert!(with_target(23, |c| *c = GameConfig { vp_target: c.vp_target, ..GameConfig::for_players(5) }).is_err());
        let river = |c: &mut GameConfig| {
            c.big_river = true;
            c.river_gold_number = Some(9);
            c.board = BoardSpec::Random;
        };
        assert!(with_target(25, river).is_ok());
        assert!(with_target(26, river).is_err());
        // SEA-12: each settlement may earn an island bonus (New Shores: 2 points each).
        let new_shores = |c: &mut GameConfig| {
            c.seafarers = true;
            c.scenario = Some(ScenarioId::NewShores);
        };
        assert!(with_target(30, new_shores).is_ok());
        // WON-11: a finished wonder wins whatever the points.
        let wonders = |c: &mut GameConfig| {
            c.seafarers = true;
            c.scenario = Some(ScenarioId::Wonders);
            c.island_bonus_vp = Some(0);
        };
        assert!(with_target(30, wonders).is_ok());
    }

    #[test]
    fn variant_names_round_trip() {
        let mut config = GameConfig::for_players(4);
        assert_eq!(config.variant_name(), "base");
        config.enable_variants("base+jungle").unwrap();
        assert_eq!(config.variant_name(), "jungle");
        config.enable_variants("five_six+big_river").unwrap();
        assert_eq!(config.variant_name(), "five_six+jungle+big_river");
        assert_eq!(config.enable_variants("seafaring").unwrap_err().code(), "invalid_config");
    }
}
