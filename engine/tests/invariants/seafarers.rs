//! The Seafarers part of the checks (RULES.md 8.4), run on every move of a Seafarers game:
//! - pieces: ships within the supply of 15 (SEA-1); a coast edge holds a road or a ship, never
//!   both; roads only on edges touching land, ships only on edges touching sea (B-GEO-9,
//!   SEA-2); no road or ship ends at a vertex beside a fog hex (SEA-13 turns such hexes up);
//! - moves, against the state before them: each ship built on a free sea edge away from the
//!   pirate, connected (SEA-2, SEA-3, SEA-8), beside the setup settlement in setup (SEA-5),
//!   for 1 lumber + 1 wool or free with Road Building (SEA-1, SEA-11); each ship moved once a
//!   turn in the main phase, not built this turn, from an open end, off and onto no side of
//!   the pirate's hex (SEA-6); the pirate moved to another sea hex of the play area, robbing
//!   only a seat with a ship beside it and a card, with Cities & Knights a commodity too (SEA-7,
//!   SEA-8, SEA-15);
//! - bandits: the pirate on a sea hex of the play area, never on the scenario's margin
//!   (SEA-7);
//! - fog (SEA-13): each `fog_revealed` turns up a hex that was face down, with what the board
//!   then shows, drawn from the scenario's hidden stacks; face-down hexes plus reveals are the
//!   fog of the start; no event, as redacted for any viewer, and no view shows what lies under
//!   a hex still face down;
//! - island bonuses (SEA-12): exactly the settlements the configured mode rewards earn it,
//!   with the configured points, and they count in the public victory points; with Cities &
//!   Knights the setup city is a setup site as the setup settlement is (SEA-15);
//! - the target: the map's, three more with Cities & Knights (SEA-14, SEA-15, CK-GEN-1).
//!
//! What the scenario's map says (its margin, land areas, hidden stacks, bonus) is read here
//! from the data files, independently of the engine's reader.

use std::collections::{HashMap, HashSet};

use catan_engine::{
    board::{Board, EdgeId, HexCoord, Terrain, VertexId},
    cost, Event, Game, IslandBonusMode, IslandDefinition, Phase, Resources, ScenarioId, Seat, SetupStep, Viewer,
};
use serde_json::Value;

/// Ships in each seat's supply (SEA-1).
pub const SHIPS_PER_SEAT: u8 = 15;

/// The facts of one scenario map, from its data file.
struct MapData {
    /// Sea hexes outside the play area: ships may sail there, the pirate never goes.
    margin: HashSet<HexCoord>,
    /// The land area of every land or fog position.
    areas: HashMap<HexCoord, u64>,
    /// The hidden stacks under the fog: terrain (sea included) and number tokens.
    fog_terrain: Vec<(Terrain, u32)>,
    fog_numbers: Vec<u8>,
    /// The scenario's own island bonus, and the land areas that never earn it.
    bonus: Option<(IslandBonusMode, u32)>,
    excluded_areas: Vec<u64>,
    /// The points to win on this map (SEA-14).
    vp_to_win: u32,
}

fn hex_of(value: &Value) -> HexCoord {
    HexCoord::new(value[0].as_i64().expect("q") as i32, value[1].as_i64().expect("r") as i32)
}

/// The New World (RULES-SCENARIOS 5): no data file, a board generated for each game. Its
/// margin is the ring around the 7 rows of 6 cells (8 for 5-6 players) of NEW-GEN-2; its land
/// areas are its islands (NEW-GEN-10), so both readings of an island agree; 12 points win
/// (NEW-2) and the island bonus pays 2 per foreign island (NEW-3).
fn new_world_data(players: u8) -> MapData {
    let columns = if players >= 5 { 8 } else { 6 };
    let cells: HashSet<HexCoord> =
        (0..7).flat_map(|row| (0..columns).map(move |c| HexCoord::new(c - row / 2, row))).collect();
    let margin = cells.iter().flat_map(|c| c.neighbours()).filter(|n| !cells.contains(n)).collect();
    MapData {
        margin,
        areas: HashMap::new(),
        fog_terrain: Vec::new(),
        fog_numbers: Vec::new(),
        bonus: Some((IslandBonusMode::PerPlayerForeignIsland, 2)),
        excluded_areas: Vec::new(),
        vp_to_win: 12,
    }
}

/// The data file of scenario `id` (`engine/data/seafarers/`), read independently of the
/// engine.
pub fn scenario_file(id: ScenarioId) -> Value {
    let file = format!("{}/data/seafarers/{}", env!("CARGO_MANIFEST_DIR"), id.data_file().expect("a data file"));
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    serde_json::from_str(&text).expect("scenario JSON")
}

/// The map of a scenario's data `file` for `players`.
pub fn variant_of(file: &Value, players: u8) -> &Value {
    file["variants"]
        .as_object()
        .expect("variants")
        .values()
        .find(|v| v["players"].as_array().expect("players").iter().any(|p| p.as_u64() == Some(players.into())))
        .unwrap_or_else(|| panic!("{} has no map for {players}", file["name"]))
}

fn map_data(id: ScenarioId, players: u8) -> MapData {
    if id == ScenarioId::NewWorld {
        return new_world_data(players);
    }
    let json = scenario_file(id);
    let variant = variant_of(&json, players);
    let margin = variant["margin_sea_hexes"].as_array().expect("margin_sea_hexes").iter().map(hex_of).collect();
    let areas = variant["land_hexes"]
        .as_array()
        .expect("land_hexes")
        .iter()
        .map(|h| {
            let at = HexCoord::new(h["q"].as_i64().unwrap() as i32, h["r"].as_i64().unwrap() as i32);
            (at, h["land_area"].as_u64().expect("land_area"))
        })
        .collect();
    let (mut fog_terrain, mut fog_numbers) = (Vec::new(), Vec::new());
    for group in variant["groups"].as_array().expect("groups").iter().filter(|g| g["hidden_by_fog"] == true) {
        for (name, count) in group["terrain_pool"].as_object().expect("terrain_pool") {
            let terrain: Terrain = serde_json::from_value(Value::String(name.clone())).expect("a terrain");
            fog_terrain.push((terrain, count.as_u64().unwrap() as u32));
        }
        let numbers = group["number_pool"].as_array().expect("number_pool");
        fog_numbers.extend(numbers.iter().map(|n| n.as_u64().unwrap() as u8));
    }
    let rules = &json["rules"]["island_bonus"];
    // WON-4 replaces the JSettlers bonus the Wonders file records: every settlement on a
    // small island earns 1 point.
    let bonus = if id == ScenarioId::Wonders {
        Some((IslandBonusMode::PerSettlementOnMarkedIslands, 1))
    } else {
        (!rules.is_null()).then(|| {
            let mode: IslandBonusMode = serde_json::from_value(rules["mode"].clone()).expect("a bonus mode");
            (mode, rules["vp"].as_u64().unwrap() as u32)
        })
    };
    let excluded_areas = rules["excluded_land_areas"]
        .as_array()
        .map_or_else(Vec::new, |a| a.iter().map(|n| n.as_u64().unwrap()).collect());
    let vp_to_win = variant["vp_to_win"].as_u64().expect("vp_to_win") as u32;
    MapData { margin, areas, fog_terrain, fog_numbers, bonus, excluded_areas, vp_to_win }
}

/// Every viewer of a game: each seat and a spectator.
pub fn viewers(game: &Game) -> impl Iterator<Item = Viewer> + '_ {
    game.seats().map(Viewer::Seat).chain([Viewer::Spectator])
}

/// What a Seafarers game's checks know: its map's data and what its log has shown so far.
pub struct Seafarers {
    data: MapData,
    islands: IslandDefinition,
    /// The island bonus in play (mode, points), if any.
    bonus: Option<(IslandBonusMode, u32)>,
    fog_at_start: usize,
    /// Hexes face down now, as the log tells.
    fog: HashSet<HexCoord>,
    revealed: Vec<(Terrain, Option<u8>)>,
    setup_sites: Vec<(Seat, VertexId)>,
    bonuses: Vec<(Seat, VertexId)>,
    bonus_points: Vec<u32>,
    /// Ships built this turn, and whether a ship moved (SEA-6).
    built_this_turn: Vec<EdgeId>,
    moved_this_turn: bool,
    /// The Forgotten Tribe's checks, in a game of that scenario.
    tribe: Option<super::tribe::Tribe>,
    /// Cloth for Catan's checks, in a game of that scenario.
    cloth: Option<super::cloth::Cloth>,
    /// The Pirate Islands' checks, in a game of that scenario.
    pirate: Option<super::pirate::Pirate>,
}

impl Seafarers {
    /// The checks of `game`, which `opening` started; `None` when it is no Seafarers game.
    pub fn new(game: &Game, opening: &[Event]) -> Option<Seafarers> {
        let config = game.config();
        if !config.seafarers {
            return None;
        }
        let id = config.scenario.expect("a Seafarers game has a scenario");
        assert!(id.player_counts().contains(&config.players), "{} is played by {}", id.name(), config.players);
        let data = map_data(id, config.players);
        // SEA-12: the configured mode and points, else the scenario's; 0 points turn it off.
        let mode = config.island_bonus_mode.or(data.bonus.map(|(m, _)| m));
        let points = config.island_bonus_vp.map(u32::from).or(data.bonus.map(|(_, p)| p)).unwrap_or(2);
        // PIR-23: none on The Pirate Islands, whatever the configuration.
        let pirate_islands = id == catan_engine::ScenarioId::PirateIslands;
        let bonus = mode.filter(|_| points > 0 && !pirate_islands).map(|m| (m, points));
        // SEA-14: the map's target; SEA-15, CK-GEN-1: three more with Cities & Knights.
        if config.vp_target.is_none() {
            let target = data.vp_to_win + if config.cities_and_knights { 3 } else { 0 };
            assert_eq!(u32::from(game.vp_target()), target, "the target of {} for {}", id.name(), config.players);
        }
        let board = game.board();
        let fog: HashSet<HexCoord> =
            (0..board.hexes.len()).filter(|&h| board.is_fog_hex(h as u8)).map(|h| board.hexes[h]).collect();
        let hidden: u32 = data.fog_terrain.iter().map(|(_, n)| n).sum();
        assert_eq!(fog.len(), hidden as usize, "the fog hides as many tiles as the stack holds");
        let checks = Seafarers {
            islands: config.islands,
            bonus,
            fog_at_start: fog.len(),
            fog,
            revealed: Vec::new(),
            setup_sites: Vec::new(),
            bonuses: Vec::new(),
            bonus_points: vec![0; usize::from(config.players)],
            built_this_turn: Vec::new(),
            moved_this_turn: false,
            tribe: super::tribe::Tribe::new(game),
            cloth: super::cloth::Cloth::new(game),
            pirate: super::pirate::Pirate::new(game),
            data,
        };
        check_events_hide_fog(game, opening);
        checks.check_state(game);
        checks.check_views(game);
        Some(checks)
    }

    /// Island bonus points `seat` earned so far (SEA-12), its point gifts (FTR-9) and its
    /// cloth's points (CLV-9).
    pub fn bonus_points(&self, seat: Seat) -> u32 {
        self.bonus_points[seat.index()]
            + self.tribe.as_ref().map_or(0, |t| t.points(seat))
            + self.cloth.as_ref().map_or(0, |c| c.points(seat))
    }

    /// Tests if `vertex` is `seat`'s lone vertex or fortress on The Pirate Islands (PIR-6,
    /// PIR-19), where it may build though no land there is buildable.
    pub fn pirate_islands_site(&self, seat: Seat, vertex: VertexId) -> bool {
        self.pirate.as_ref().is_some_and(|p| p.own_site(seat, vertex))
    }

    /// After `seat`'s move, whose `events` led from `prior` to `game`.
    pub fn after_move(&mut self, prior: &Game, game: &Game, seat: Seat, events: &[Event]) {
        check_events_hide_fog(game, events);
        self.check_ships_and_pirate(prior, seat, events);
        if let Some(tribe) = &mut self.tribe {
            tribe.after_move(prior, game, seat, events);
        }
        if let Some(cloth) = &mut self.cloth {
            cloth.after_move(prior, game, seat, events);
        }
        if let Some(pirate) = &mut self.pirate {
            pirate.after_move(prior, game, events);
        }
        let board = game.board();
        for event in events {
            if let Event::FogRevealed { seat: by, hex, terrain, number, resource } = *event {
                let what = format!("{event:?}");
                assert_eq!(by, seat, "{what}: revealed by another seat than the mover");
                assert!(self.fog.remove(&hex), "{what}: the hex was not face down");
                let h = board.hex(hex).expect("a hex on the board") as usize;
                assert_eq!((board.terrain[h], board.numbers[h]), (terrain, number), "{what}: the board differs");
                assert_ne!(terrain, Terrain::Fog, "{what}");
                assert_eq!(number.is_some(), terrain.takes_number(), "{what}: a number iff the hex produces");
                if let Some(resource) = resource {
                    assert_eq!(terrain.resource(), Some(resource), "{what}: the discoverer's card");
                }
                self.revealed.push((terrain, number));
            }
        }
        self.check_stacks();
        self.check_island_bonuses(game, seat, prior.phase(), events);
        for event in events {
            match *event {
                Event::TurnStarted { .. } => {
                    self.built_this_turn.clear();
                    self.moved_this_turn = false;
                }
                Event::ShipBuilt { edge, .. } => self.built_this_turn.push(edge),
                Event::ShipMoved { .. } => self.moved_this_turn = true,
                _ => {}
            }
        }
    }

    /// SEA-1..8, SEA-11: each ship built or moved and the pirate moved by `seat`'s move, as
    /// the rules allow in the state before it (`prior`).
    fn check_ships_and_pirate(&self, prior: &Game, seat: Seat, events: &[Event]) {
        let board = prior.board();
        let pirate_sides: Vec<EdgeId> = prior.pirate_hex().map_or_else(Vec::new, |p| p.sides().to_vec());
        // SEA-3: a ship continues from an own building, or from an own ship (other than
        // `left`) at a vertex no opponent's building holds.
        let connects = |edge: EdgeId, left: Option<EdgeId>| {
            edge.endpoints().iter().any(|&x| match prior.building_at(x) {
                Some(b) => b.seat == seat,
                None => x.edges().iter().any(|&o| o != edge && Some(o) != left && prior.ship_at(o) == Some(seat)),
            })
        };
        // SEA-2: an empty edge touching the sea; SEA-8 b: not a side of the pirate's hex.
        let site = |edge: EdgeId| {
            let e = board.edge(edge).expect("a ship on the board") as usize;
            board.edge_is_sea[e]
                && prior.road_at(edge).is_none()
                && prior.ship_at(edge).is_none()
                && !pirate_sides.contains(&edge)
        };
        for (i, event) in events.iter().enumerate() {
            match *event {
                Event::ShipBuilt { seat: by, edge, cost } => {
                    assert_eq!(by, seat, "{event:?} by another seat than the mover");
                    assert!(
                        site(edge),
                        "ship built on {edge}, not a free ship edge away from the pirate (SEA-2, SEA-8)"
                    );
                    match prior.phase() {
                        // SEA-5: beside the setup settlement just placed.
                        Phase::Setup { step: SetupStep::PlaceRoad { settlement }, .. } => {
                            assert!(edge.endpoints().contains(settlement), "setup ship {edge}");
                            assert_eq!(cost, Resources::ZERO);
                        }
                        Phase::RoadBuilding { .. } => {
                            assert!(connects(edge, None), "free ship {edge} does not connect (SEA-3)");
                            assert_eq!(cost, Resources::ZERO, "SEA-11: Road Building's ships are free");
                        }
                        phase => {
                            assert!(connects(edge, None), "ship {edge} does not connect (SEA-3)");
                            assert_eq!(cost, cost::SHIP, "SEA-1: a ship costs 1 lumber + 1 wool (in {phase:?})");
                        }
                    }
                }
                Event::ShipMoved { seat: by, from, to } => {
                    // SEA-6: once a turn, in the main phase, a ship not built this turn, at an
                    // open end and not beside the pirate, to another legal ship edge.
                    assert_eq!(by, seat, "{event:?} by another seat than the mover");
                    assert_eq!(prior.phase(), &Phase::Main, "{event:?} outside the main phase");
                    assert!(!self.moved_this_turn, "a second ship moved this turn");
                    assert_eq!(prior.ship_at(from), Some(seat), "{event:?}: not the mover's ship");
                    assert!(!self.built_this_turn.contains(&from), "{event:?}: the ship was built this turn");
                    assert!(!pirate_sides.contains(&from), "{event:?}: the pirate guards the ship");
                    let open_end = from.endpoints().iter().any(|&x| {
                        prior.building_at(x).is_none_or(|b| b.seat != seat)
                            && !x.edges().iter().any(|&o| o != from && prior.ship_at(o) == Some(seat))
                    });
                    assert!(open_end, "{event:?}: the ship is not at an open end");
                    assert_ne!(from, to, "{event:?}");
                    assert!(site(to) && connects(to, Some(from)), "{event:?}: not a legal ship edge");
                }
                Event::PirateMoved { seat: by, hex } => {
                    // SEA-7: to another sea hex of the play area; SEA-8 a: stealing from an
                    // opponent with a ship beside it and a card, if there is one.
                    assert_eq!(by, seat, "{event:?} by another seat than the mover");
                    assert_ne!(prior.pirate_hex(), Some(hex), "{event:?}: the pirate must move");
                    let h = board.hex(hex).expect("the pirate on the board");
                    assert!(board.is_sea_hex(h) && !self.data.margin.contains(&hex), "{event:?}: not in the play area");
                    // SEA-15: with Cities & Knights, a hand of commodities only is robbed too;
                    // CLV-12: in Cloth for Catan, a seat holding cloth.
                    let cloth = prior.view(Viewer::Spectator).cloth_for_catan.map_or_else(Vec::new, |c| c.cloth);
                    let has_cloth = |s: Seat| cloth.get(s.index()).is_some_and(|&c| c > 0);
                    let victims: Vec<Seat> = prior
                        .seats()
                        .filter(|&s| s != seat && (prior.hand_cards(s).total() > 0 || has_cloth(s)))
                        .filter(|&s| hex.sides().iter().any(|&e| prior.ship_at(e) == Some(s)))
                        .collect();
                    match events.get(i + 1) {
                        Some(
                            Event::ResourceStolen { thief, victim, .. } | Event::CommodityStolen { thief, victim, .. },
                        ) => {
                            assert_eq!(*thief, seat);
                            assert!(victims.contains(victim), "{event:?}: {victim} may not be robbed");
                        }
                        Some(Event::ClothStolen { thief, victim }) => {
                            assert_eq!(*thief, seat);
                            assert!(victims.contains(victim) && has_cloth(*victim), "{event:?}: {victim} has no cloth");
                        }
                        // CLV-12: the victim holds both; the mover chooses next.
                        Some(Event::PhaseChanged { phase: Phase::ChooseStealKind { victim }, .. }) => {
                            let both = has_cloth(*victim) && prior.hand_cards(*victim).total() > 0;
                            assert!(victims.contains(victim) && both, "{event:?}: {victim} does not hold both");
                        }
                        _ => assert!(victims.is_empty(), "{event:?}: nobody robbed of {victims:?}"),
                    }
                }
                _ => {}
            }
        }
    }

    /// SEA-13: what was turned up came from the hidden stacks.
    fn check_stacks(&self) {
        for &(terrain, count) in &self.data.fog_terrain {
            let drawn = self.revealed.iter().filter(|(t, _)| *t == terrain).count() as u32;
            assert!(drawn <= count, "{drawn} {terrain:?} turned up from a stack of {count}");
        }
        for (terrain, _) in &self.revealed {
            assert!(self.data.fog_terrain.iter().any(|(t, _)| t == terrain), "{terrain:?} is not in the fog's stack");
        }
        let mut tokens = self.data.fog_numbers.clone();
        for number in self.revealed.iter().filter_map(|(_, n)| *n) {
            let i = tokens.iter().position(|&t| t == number);
            assert!(i.is_some(), "token {number} is not (any more) in the fog's stack {:?}", self.data.fog_numbers);
            tokens.swap_remove(i.unwrap());
        }
    }

    /// The island a vertex lies on, per the game's definition (SEA-12); `None` off land.
    fn island_of(&self, board: &Board, components: &[usize], vertex: VertexId) -> Option<u64> {
        let v = board.vertex(vertex)?;
        let land = board.land_hexes_of(v);
        match self.islands {
            IslandDefinition::ConnectedLand => land.map(|h| components[h as usize] as u64).min(),
            // A generated map's land areas are its islands (NEW-GEN-10).
            IslandDefinition::ScenarioLandAreas if self.data.areas.is_empty() => {
                land.map(|h| components[h as usize] as u64).min()
            }
            IslandDefinition::ScenarioLandAreas => {
                land.filter_map(|h| self.data.areas.get(&board.hexes[h as usize]).copied()).min()
            }
        }
    }

    /// SEA-12: every settlement built outside setup earns the bonus exactly when the mode in
    /// play says so, with the configured points; nothing else earns it.
    fn check_island_bonuses(&mut self, game: &Game, mover: Seat, before: &Phase, events: &[Event]) {
        let earned: Vec<(Seat, VertexId, u32)> = events
            .iter()
            .filter_map(|e| match *e {
                Event::IslandBonusEarned { seat, vertex, points } => Some((seat, vertex, points)),
                _ => None,
            })
            .collect();
        let built: Vec<(Seat, VertexId)> = events
            .iter()
            .filter_map(|e| match *e {
                Event::SettlementBuilt { seat, vertex, .. } => Some((seat, vertex)),
                _ => None,
            })
            .collect();
        // CK-SET-1, SEA-15: with Cities & Knights the second setup piece is a city, a setup
        // site as the first settlement is.
        let setup_cities = events.iter().filter_map(|e| match *e {
            Event::CityBuilt { seat, vertex, .. } if matches!(before, Phase::Setup { .. }) => Some((seat, vertex)),
            _ => None,
        });
        for &(seat, vertex, points) in &earned {
            assert!(built.contains(&(seat, vertex)), "island bonus for {vertex} without a settlement built there");
            let expected = self.bonus.map(|(_, p)| p);
            assert_eq!(Some(points), expected, "island bonus of {points} points (SEA-12)");
            assert_eq!(seat, mover, "an island bonus for another seat than the builder");
        }
        if matches!(before, Phase::Setup { .. }) {
            assert!(earned.is_empty(), "an island bonus in setup");
            self.setup_sites.extend(built);
            self.setup_sites.extend(setup_cities);
            return;
        }
        let Some((mode, points)) = self.bonus else {
            assert!(earned.is_empty(), "an island bonus with none in play: {earned:?}");
            return;
        };
        if built.is_empty() {
            return;
        }
        let board = game.board();
        let components = connected_land(board);
        let on = |vertex: VertexId| self.island_of(board, &components, vertex);
        let mut newly = Vec::new();
        for (seat, vertex) in built {
            let island = on(vertex).expect("a settlement on land");
            let excluded =
                self.islands == IslandDefinition::ScenarioLandAreas && self.data.excluded_areas.contains(&island);
            let settled_in_setup = |who: Option<Seat>| {
                self.setup_sites.iter().any(|&(s, v)| who.is_none_or(|w| w == s) && on(v) == Some(island))
            };
            let earns = !excluded
                && match mode {
                    IslandBonusMode::PerPlayerForeignIsland => {
                        !settled_in_setup(Some(seat))
                            && !self.bonuses.iter().any(|&(s, v)| s == seat && on(v) == Some(island))
                    }
                    IslandBonusMode::FirstOnIsland => board
                        .vertices
                        .iter()
                        .all(|&v| v == vertex || game.building_at(v).is_none() || on(v) != Some(island)),
                    IslandBonusMode::PerSettlementOnMarkedIslands => !settled_in_setup(None),
                };
            let got = earned.iter().any(|&(s, v, _)| (s, v) == (seat, vertex));
            assert_eq!(got, earns, "{seat}'s settlement at {vertex} on island {island} under {mode:?}: earned {got}");
            if got {
                newly.push((seat, vertex));
            }
        }
        for (seat, vertex) in newly {
            self.bonuses.push((seat, vertex));
            self.bonus_points[seat.index()] += points;
        }
    }

    /// The state's Seafarers invariants (see the module's documentation).
    pub fn check_state(&self, game: &Game) {
        let board = game.board();
        let mut ships = vec![0u32; usize::from(game.player_count())];
        for e in 0..board.edges.len() as u16 {
            let edge = board.edges[e as usize];
            let (road, ship) = (game.road_index(e), game.ship_index(e));
            assert!(road.is_none() || ship.is_none(), "edge {edge} holds a road and a ship (SEA-2)");
            if let Some(seat) = ship {
                assert!(board.edge_is_sea[e as usize], "ship on {edge}, which touches no sea (SEA-2)");
                ships[seat.index()] += 1;
            }
            if road.is_some() || ship.is_some() {
                // SEA-13: a road or ship reaching a fog hex turns it up.
                for vertex in edge.endpoints() {
                    for hex in vertex.hexes() {
                        let fog = board.hex(hex).is_some_and(|h| board.is_fog_hex(h));
                        assert!(!fog, "the piece on {edge} reaches {hex}, still face down (SEA-13)");
                    }
                }
            }
        }
        for seat in game.seats() {
            let player = game.player(seat).unwrap();
            let on_board = ships[seat.index()];
            assert!(on_board <= u32::from(SHIPS_PER_SEAT), "{seat} has {on_board} ships (SEA-1)");
            // WON-8: a claimed wonder holds one of the seat's ships for good.
            let on_wonder = u32::from(game.wonder_of(seat).is_some());
            let in_supply = u32::from(player.pieces_left().ships);
            assert_eq!(on_board + on_wonder + in_supply, u32::from(SHIPS_PER_SEAT), "{seat}'s ship supply");
            assert_eq!(on_board, player.ships_on_board());
        }
        if let Some(pirate) = game.pirate_hex() {
            let h = board.hex(pirate).expect("the pirate on the board");
            assert!(board.is_sea_hex(h), "the pirate on {pirate}, which is not sea (SEA-7)");
            assert!(!self.data.margin.contains(&pirate), "the pirate on the margin hex {pirate} (SEA-7)");
        }
        let fog = (0..board.hexes.len()).filter(|&h| board.is_fog_hex(h as u8)).count();
        assert_eq!(fog, self.fog.len(), "face-down hexes differ from what the log tells");
        assert_eq!(fog + self.revealed.len(), self.fog_at_start, "fog hexes plus reveals differ from the start");
    }

    /// SEA-13: no viewer sees what lies under a face-down hex; every view shows the board's
    /// pieces, pirate and islands as they are.
    pub fn check_views(&self, game: &Game) {
        let board = game.board();
        for viewer in viewers(game) {
            let view = game.view(viewer);
            assert_eq!(view.board.hexes.len(), board.hexes.len());
            for tile in &view.board.hexes {
                let h = board.hex(tile.hex).expect("a viewed hex on the board") as usize;
                if board.is_fog_hex(h as u8) || tile.terrain == Terrain::Fog {
                    assert_eq!((tile.terrain, tile.number), (Terrain::Fog, None), "{viewer:?} sees under {}", tile.hex);
                    assert!(board.is_fog_hex(h as u8));
                } else {
                    assert_eq!((tile.terrain, tile.number), (board.terrain[h], board.numbers[h]));
                }
            }
            for island in &view.board.islands {
                for hex in island {
                    let h = board.hex(*hex).expect("an island hex on the board");
                    assert!(board.is_land_hex(h), "island hex {hex} is not known land");
                }
            }
            assert_eq!(view.board.pirate, game.pirate_hex());
            let ships: Vec<_> = view.board.ships.iter().map(|s| (s.edge, s.seat)).collect();
            let live: Vec<_> = board.edges.iter().filter_map(|&e| game.ship_at(e).map(|s| (e, s))).collect();
            assert_eq!(ships, live, "{viewer:?}'s view of the ships");
            for p in &view.players {
                let left = game.player(p.seat).unwrap().pieces_left().ships;
                assert_eq!(p.pieces_left.ships, Some(left));
            }
        }
    }
}

/// SEA-13: no event, as redacted for any viewer, shows a terrain other than fog at a hex
/// still face down in `game` (the state the events led to).
pub fn check_events_hide_fog(game: &Game, events: &[Event]) {
    let board = game.board();
    let face_down = |hex: HexCoord| board.hex(hex).is_some_and(|h| board.is_fog_hex(h));
    for viewer in viewers(game) {
        for event in events {
            match event.redacted_for(viewer) {
                Event::GameStarted { board: layout, .. } => {
                    for tile in layout.hexes.iter().filter(|t| face_down(t.hex)) {
                        assert_eq!((tile.terrain, tile.number), (Terrain::Fog, None), "game_started shows {tile:?}");
                    }
                }
                Event::FogRevealed { hex, .. } => {
                    assert!(!face_down(hex), "{viewer:?} was told what lies under {hex}, still face down")
                }
                _ => {}
            }
        }
    }
}

/// The connected groups of land hexes: a group id per hex index (sea and fog get their own
/// index, which no land hex shares).
fn connected_land(board: &Board) -> Vec<usize> {
    let n = board.hexes.len();
    let mut group: Vec<usize> = (0..n).collect();
    let mut seen = vec![false; n];
    for start in 0..n {
        if seen[start] || !board.is_land_hex(start as u8) {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![start];
        while let Some(h) = stack.pop() {
            group[h] = start;
            for next in board.hexes[h].neighbours() {
                if let Some(i) = board.hex(next).map(usize::from) {
                    if !seen[i] && board.is_land_hex(i as u8) {
                        seen[i] = true;
                        stack.push(i);
                    }
                }
            }
        }
    }
    group
}
