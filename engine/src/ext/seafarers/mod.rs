//! Seafarers (SEA): ships on sea edges and their one move a turn, the pirate, gold fields,
//! fog that hides part of the map, island bonuses, and the scenarios' maps as data.
//!
//! Ships are a piece of the shared model (`Game::ships`, `Pieces::ships`), so that the base
//! rules that look at every route (settlements reached by ship, Longest Trade Route, a coast
//! edge holding one piece) see them; what may be done with them is decided here.

pub(crate) mod cloth;
mod fog;
mod gifts;
mod harbours;
pub(crate) mod islands;
mod pirate;
pub(crate) mod pirate_islands;
pub(crate) mod position;
pub(crate) mod scenario;
mod ships;
mod state;
pub mod types;

use crate::position::{PositionError, PositionPart, Setup};
use crate::{
    board::BoardLayout,
    chance::Chance,
    config::{BoardSpec, IslandBonusMode, IslandDefinition, PendingHarbour},
    ext::Extension,
    game::routes::FreePiece,
    game::Game,
    model::{cost, Phase, Seat},
    protocol::{Bandit, Event, Move, RuleError, SetupError},
    rng::Rng,
    ruleset::{invalid, Components, Ruleset},
};
use scenario::{ScenarioId, ScenarioLayout};
pub(crate) use state::SeafarersState;

/// Ships in each seat's supply (SEA-1).
pub(crate) const SHIPS_PER_SEAT: u8 = 15;

#[derive(Debug)]
pub(crate) struct Seafarers {
    pub scenario: Option<ScenarioId>,
    pub players: u8,
    pub island_bonus_mode: Option<IslandBonusMode>,
    pub island_bonus_vp: Option<u8>,
    pub islands: IslandDefinition,
    /// The scenario's map for the player count, looked up once (every move asks for it).
    layout: Option<&'static ScenarioLayout>,
    /// How The New World's board is generated (NEW-GEN).
    new_world: scenario::new_world::NewWorldOptions,
    /// FTR-7: a ship moved onto a gift's edge claims it.
    gift_on_move: bool,
    /// FTR-12: when a kept gift harbour is placed.
    pending_harbour: PendingHarbour,
    /// CLV-15: the robber starts where the map data says.
    robber_from_file: bool,
    /// CLV-14: the game ends when fewer villages than this have cloth.
    end_villages_min: u8,
    /// The Pirate Islands' options (PIR).
    pirate: pirate_islands::PirateOptions,
    /// SCN-4: the land areas the robber keeps off, when the configuration says: a set of
    /// area numbers (bit `a` for area `a`), and the first area named that the map lacks.
    robber_excluded_areas: Option<u64>,
    unknown_robber_area: Option<u8>,
}

impl Game {
    /// The map of the game's scenario for its player count; `None` without a scenario.
    pub(crate) fn scenario_layout(&self) -> Option<&'static ScenarioLayout> {
        let config = self.config();
        config.scenario.and_then(|id| scenario::layout_for(id, config.players))
    }

    /// The Pirate Islands as everyone sees them (PIR, section 4.4); `None` in other games.
    pub fn pirate_islands(&self) -> Option<types::PirateIslandsView> {
        if !self.config().seafarers {
            return None;
        }
        let seafarers = Seafarers::from_config(self.config());
        seafarers.fleet().map(|fleet| seafarers.pirate_islands_view(fleet, self))
    }

    /// The island bonus in play (SEA-12): who earns it and its points; `None` without one
    /// (and in games without Seafarers).
    pub fn island_bonus(&self) -> Option<(IslandBonusMode, u32)> {
        self.config().seafarers.then(|| Seafarers::from_config(self.config()).island_bonus()).flatten()
    }
}

impl Seafarers {
    /// The extension as `config` sets it up.
    pub(crate) fn from_config(config: &crate::GameConfig) -> Seafarers {
        Seafarers {
            scenario: config.scenario,
            players: config.players,
            island_bonus_mode: config.island_bonus_mode,
            island_bonus_vp: config.island_bonus_vp,
            islands: config.islands,
            layout: config.scenario.and_then(|id| scenario::layout_for(id, config.players)),
            new_world: scenario::new_world::NewWorldOptions {
                layout: config.new_world_layout,
                forbid_adjacent_equal_numbers: config.forbid_adjacent_equal_numbers,
                harbours: config.new_world_harbours,
            },
            gift_on_move: config.ftr_gift_on_move,
            pending_harbour: config.ftr_pending_harbour,
            robber_from_file: config.clv_robber_start == crate::ClothRobberStart::Data,
            end_villages_min: config.clv_end_villages_min,
            pirate: pirate_islands::PirateOptions::from_config(config),
            robber_excluded_areas: None,
            unknown_robber_area: None,
        }
        .with_robber_exclusion(config.robber_excluded_land_areas.as_deref())
    }

    /// SCN-4: the configuration's robber-excluded land areas, checked against the map.
    fn with_robber_exclusion(mut self, areas: Option<&[u8]>) -> Seafarers {
        let Some(areas) = areas else { return self };
        let on_map = |area: u8| self.layout.is_some_and(|l| l.land_areas.iter().any(|&(_, a)| a == area));
        self.unknown_robber_area = areas.iter().copied().find(|&a| a >= 64 || !on_map(a));
        self.robber_excluded_areas = Some(areas.iter().filter(|&&a| a < 64).fold(0, |set, &a| set | 1 << a));
        self
    }

    fn layout(&self) -> Option<&'static ScenarioLayout> {
        self.layout
    }

    /// Whether the pirate sails in this scenario (not in Wonders of Catan, WON-6).
    fn pirate_sails(&self) -> bool {
        self.layout().is_none_or(|l| l.pirate_in_play)
    }

    /// The island bonus in play (SEA-12): the configuration's mode and points, else the
    /// scenario's; none with 0 points.
    pub(crate) fn island_bonus(&self) -> Option<(IslandBonusMode, u32)> {
        // PIR-23: no island bonus on The Pirate Islands, whatever the configuration.
        if self.fleet().is_some() {
            return None;
        }
        let scenario = self.layout().and_then(|l| l.island_bonus);
        let mode = self.island_bonus_mode.or(scenario.map(|(m, _)| m))?;
        let points = self.island_bonus_vp.or(scenario.map(|(_, p)| p)).unwrap_or(2);
        (points > 0).then_some((mode, u32::from(points)))
    }
}

impl Extension for Seafarers {
    fn position_parts(&self) -> &'static [PositionPart] {
        &[PositionPart::Ships, PositionPart::Pirate, PositionPart::SeafarersMemory]
    }

    fn place_position_pieces(&self, game: &mut Game, setup: &Setup) -> Result<(), PositionError> {
        position::place_ships(game, &setup.ships)
    }

    fn place_position(&self, game: &mut Game, setup: &Setup) -> Result<(), PositionError> {
        position::place_rest(game, setup)
    }

    fn check_position_phase(
        &self,
        game: &Game,
        phase: &Phase,
        then: &[Phase],
        turn: &crate::position::TurnSetup,
    ) -> Option<Result<(), PositionError>> {
        match *phase {
            Phase::PlaceHarbour { seat, kind } => Some(self.check_harbour_phase(game, seat, kind, then)),
            Phase::PlaceGiftHarbour { seat, kind } => Some(gifts::check_gift_harbour_phase(game, seat, kind, then)),
            Phase::ChooseStealKind { victim } => Some(self.check_steal_kind_phase(game, victim)),
            // PIR-10: the steal from anyone comes after the roll, in the active seat's turn.
            Phase::StealAny if self.fleet().is_some() => Some(if turn.dice.is_some() {
                Ok(())
            } else {
                Err(PositionError::InvalidTurn("the steal after a 7 comes after the roll (PIR-10)".into()))
            }),
            _ => None,
        }
    }

    fn export_position(&self, game: &Game, setup: &mut Setup) {
        position::export(game, setup);
    }

    fn name(&self) -> &'static str {
        "seafarers"
    }

    fn validate(&self, rules: &Ruleset) -> Result<(), SetupError> {
        let Some(id) = self.scenario else {
            let names: Vec<&str> = ScenarioId::ALL.iter().map(|s| s.name()).collect();
            return Err(invalid(format!("seafarers needs a scenario: one of {}", names.join(", "))));
        };
        if self.layout().is_none() {
            return Err(SetupError::PlayerCount {
                players: self.players,
                allowed: "this Seafarers scenario has no map for that many players (see GET /api/v1/scenarios)",
            });
        }
        if matches!(rules.board.spec, BoardSpec::Custom(_)) {
            return Err(invalid(format!("the {} scenario lays its own map: no custom board", id.name())));
        }
        if let Some(area) = self.unknown_robber_area {
            return Err(invalid(format!(
                "robber_excluded_land_areas names land area {area}, which the {} map does not have (SCN-4)",
                id.name()
            )));
        }
        if !(1..=12).contains(&self.end_villages_min) {
            return Err(invalid(format!(
                "clv_end_villages_min must be 1 to 12, not {} (CLV-14)",
                self.end_villages_min
            )));
        }
        if let Some(layout) = self.layout().filter(|l| !l.villages.is_empty()) {
            if usize::from(self.end_villages_min) > layout.villages.len() {
                return Err(invalid(format!(
                    "clv_end_villages_min {} is more than the map's {} villages (CLV-14)",
                    self.end_villages_min,
                    layout.villages.len()
                )));
            }
        }
        // SCN-10: the four scenarios of RULES-SCENARIOS are not defined with Cities & Knights.
        let not_with_ck =
            matches!(id, ScenarioId::ForgottenTribe | ScenarioId::ClothForCatan | ScenarioId::PirateIslands);
        // (Fog, Jungle and Big River never combine with their maps: `conflicts_with`.)
        if not_with_ck && rules.extensions.iter().any(|e| e.name() == "cities_and_knights") {
            return Err(invalid(format!("the {} scenario is not played with cities_and_knights (SCN-10)", id.name())));
        }
        Ok(())
    }

    fn conflicts_with(&self, others: &[&str]) -> Option<&'static str> {
        others
            .iter()
            .any(|o| matches!(*o, "jungle" | "big_river"))
            .then_some("seafarers plays its scenario's map: it cannot be combined with jungle or big_river")
    }

    /// SEA-1 ships; SEA-14 the scenario's victory points; SEA-9 gold of free choice.
    fn components(&self, components: &mut Components) {
        components.pieces.ships = SHIPS_PER_SEAT;
        components.gold_produces = true;
        if let Some(layout) = self.layout() {
            components.vp_target = layout.vp_target;
            match self.robber_excluded_areas {
                Some(areas) => {
                    let excluded = layout.land_areas.iter().filter(|&&(_, a)| a < 64 && areas & 1 << a != 0);
                    components.robber_excluded = excluded.map(|&(hex, _)| hex).collect();
                }
                None => components.robber_excluded.clone_from(&layout.robber_excluded),
            }
            // FTR-8: one card set aside per development-card gift.
            let card_gifts = layout.gift_edges.iter().filter(|(_, g)| *g == crate::Gift::DevelopmentCard).count();
            components.dev_cards_set_aside = card_gifts as u32;
            // SCN-6, SCN-8 (CLV-3, CLV-13).
            components.setup_rounds = layout.setup_rounds;
            components.starting_resources_round = layout.setup_rounds;
            components.longest_road_card &= layout.longest_route_card;
            components.ship_anchors = layout.villages.iter().map(|v| v.vertex).collect();
        }
        if let Some(fleet) = self.fleet() {
            self.pirate_components(fleet, components);
        }
        let bonus = self.island_bonus().map_or(0, |(_, points)| points);
        components.max_points_per_event = components.max_points_per_event.max(1 + bonus);
    }

    /// PIR-16: the deck, once the 5-6 player extension has laid its own.
    fn finish_components(&self, components: &mut Components) {
        if self.fleet().is_some() {
            self.pirate_deck(components);
        }
    }

    fn reserve(&self, game: &mut Game) {
        state::reserve(game);
    }

    /// NEW-11: the first harbour drawn.
    fn opening(&self, game: &Game, chance: &mut dyn Chance, events: &mut Vec<Event>) {
        if let Some(fleet) = self.fleet() {
            self.open_pirate_islands(fleet, game, events);
        }
        self.open_harbour_placement(game, chance, events);
    }

    fn generate_board(&self, rules: &Ruleset, rng: &mut Rng) -> Option<Result<BoardLayout, SetupError>> {
        let id = self.scenario?;
        Some(scenario::generate(
            id,
            self.players,
            rng,
            rules.board.forbid_adjacent_red_numbers,
            self.new_world,
            self.robber_from_file,
        ))
    }

    /// SEA-5: scenarios say where setup settlements may stand; WON-3: and where they may
    /// not (marked vertices).
    fn check_setup_site(&self, game: &Game, vertex: u16) -> Result<(), RuleError> {
        let Some(layout) = self.layout() else { return Ok(()) };
        let board = game.board();
        if layout.setup_forbidden.contains(&board.vertices[vertex as usize]) {
            return Err(RuleError::SetupSiteForbidden);
        }
        let Some(allowed) = layout.setup_hexes.as_ref() else { return Ok(()) };
        if board.land_hexes_of(vertex).any(|h| allowed.contains(&board.hexes[h as usize])) {
            Ok(())
        } else {
            Err(RuleError::SetupSiteForbidden)
        }
    }

    fn decide(
        &self,
        game: &Game,
        seat: Seat,
        mv: &Move,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Option<Result<(), RuleError>> {
        // NEW-11: before setup, only the harbour drawn is placed.
        if matches!(game.phase(), Phase::PlaceHarbour { .. }) {
            return Some(self.decide_place_harbour(game, seat, mv, chance, events));
        }
        // FTR-10/12: the seat placing a gift harbour need not be the active one (X56-8).
        if let Move::PlaceGiftHarbour { edge } = mv {
            return Some(self.decide_place_gift_harbour(game, seat, *edge, events));
        }
        if let Phase::ChooseStealKind { victim } = *game.phase() {
            return Some(self.decide_steal_kind(game, seat, victim, mv, chance, events));
        }
        if let Phase::PlaceGiftHarbour { seat: placing, .. } = *game.phase() {
            return Some(Err(if seat == placing {
                RuleError::WrongPhase("place your gift harbour first (FTR-10)")
            } else {
                RuleError::NotYourTurn { active: placing }
            }));
        }
        if self.fleet().is_some() {
            if let Some(decided) = self.decide_pirate_islands(game, seat, mv, chance, events) {
                return Some(decided);
            }
        }
        // SEA-15: without development cards (CK-GEN-2) no Knight moves the pirate; Cities &
        // Knights refuses the card.
        let knight_card = matches!(mv, Move::PlayKnight { .. });
        let mine = !(knight_card && game.config().cities_and_knights)
            && matches!(
                (game.phase(), mv),
                (Phase::MoveRobber, Move::MovePirate { .. })
                    | (Phase::PreRoll | Phase::Main, Move::PlayKnight { bandit: Bandit::Pirate, .. })
                    | (Phase::Main, Move::MoveShip { .. })
                    | (Phase::RoadBuilding { .. }, Move::BuildShip { .. })
            );
        if !mine {
            return None;
        }
        let pirate_move = matches!(mv, Move::MovePirate { .. } | Move::PlayKnight { bandit: Bandit::Pirate, .. });
        if pirate_move && !self.pirate_sails() {
            return Some(Err(RuleError::NotInThisGame("the pirate")));
        }
        let active = game.turn_active();
        if seat != active {
            return Some(Err(RuleError::NotYourTurn { active }));
        }
        // Into the caller's buffer, as the base game decides: nothing is allocated per move.
        let decided = match (game.phase(), mv) {
            (Phase::MoveRobber, Move::MovePirate { hex, steal_from }) => {
                self.decide_pirate(game, seat, *hex, *steal_from, chance, events).map(|choice| {
                    // CLV-12: the choice between cloth and a card comes first.
                    events.push(match choice {
                        Some(victim) => game.continue_with(Phase::ChooseStealKind { victim }),
                        None => game.resume(),
                    })
                })
            }
            (_, Move::PlayKnight { hex, steal_from, .. }) => {
                self.decide_pirate_knight(game, seat, *hex, *steal_from, chance, events)
            }
            (_, Move::MoveShip { from, to }) => game.decide_move_ship(seat, *from, *to, events),
            (Phase::RoadBuilding { roads_left }, Move::BuildShip { edge }) => {
                game.decide_free_ship(seat, *edge, *roads_left, events)
            }
            _ => Err(RuleError::WrongPhase("this move is not part of this phase")),
        };
        Some(decided)
    }

    fn decide_purchase(
        &self,
        game: &Game,
        seat: Seat,
        mv: &Move,
        _chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Option<Result<(), RuleError>> {
        match mv {
            Move::BuildShip { edge } => Some(game.decide_build_ship(seat, *edge, events)),
            _ => None,
        }
    }

    fn purchase_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        let Some(player) = game.player(seat) else { return };
        if game.ships_to_build(seat) > 0 && player.resources().contains(&cost::SHIP) {
            game.ship_site_moves(seat, FreePiece::None, moves);
        }
    }

    /// NEW-11 and FTR-10/12: the phases of placing harbours are Seafarers' own.
    fn legal_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) -> bool {
        match game.phase() {
            Phase::PlaceHarbour { .. } => self.harbour_moves(game, seat, moves),
            Phase::PlaceGiftHarbour { .. } => self.gift_harbour_moves(game, seat, moves),
            Phase::ChooseStealKind { victim } => self.steal_kind_moves(game, seat, *victim, moves),
            Phase::StealAny if seat == game.turn_active() => Self::steal_any_moves(game, seat, moves),
            Phase::StealAny => {}
            _ => return false,
        }
        true
    }

    fn more_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        if matches!(game.phase(), Phase::SpecialBuilding { .. }) && self.pending_harbour == PendingHarbour::Voluntary {
            self.gift_harbour_moves(game, seat, moves);
        }
        if seat != game.turn_active() || game.is_over() {
            return;
        }
        if matches!(game.phase(), Phase::PlaceGiftHarbour { .. }) {
            return;
        }
        if self.fleet().is_some() {
            match game.phase() {
                Phase::PreRoll => self.warship_moves(game, seat, moves),
                Phase::Main => {
                    self.warship_moves(game, seat, moves);
                    self.attack_moves(game, seat, moves);
                }
                _ => {}
            }
        }
        let pirate = self.pirate_sails();
        match game.phase() {
            Phase::MoveRobber if pirate => {
                self.pirate_moves(game, seat, moves, |hex, steal_from| Move::MovePirate { hex, steal_from })
            }
            Phase::PreRoll if pirate => self.pirate_knight_moves(game, seat, moves),
            Phase::Main => {
                if pirate {
                    self.pirate_knight_moves(game, seat, moves);
                }
                game.ship_move_moves(seat, moves);
                if self.pending_harbour == PendingHarbour::Voluntary {
                    self.gift_harbour_moves(game, seat, moves);
                }
            }
            Phase::RoadBuilding { .. } if game.ships_to_build(seat) > 0 => {
                game.ship_site_moves(seat, FreePiece::None, moves);
            }
            _ => {}
        }
    }

    /// SEA-7: whether the active seat moved its ship this turn; the islands (SEA-12).
    fn view(&self, game: &Game, _you: Option<Seat>, _over: bool, view: &mut crate::view::GameView) {
        view.turn.ship_moved = game.ext.seafarers.ship_moved;
        view.board.islands = game.islands();
        view.board.land_areas =
            self.layout().map(|layout| islands::land_area_views(&layout.land_areas)).unwrap_or_default();
        view.forgotten_tribe = self.layout().and_then(|layout| gifts::tribe_view(game, layout));
        view.cloth_for_catan = self.layout().and_then(|layout| cloth::cloth_view(game, layout));
        view.pirate_islands = self.fleet().map(|fleet| self.pirate_islands_view(fleet, game));
    }

    fn apply(&self, game: &mut Game, event: &Event) {
        match event {
            Event::ShipBuilt { seat, edge, cost } => game.apply_ship(*seat, *edge, cost),
            Event::ShipMoved { seat, from, to } => game.apply_ship_move(*seat, *from, *to),
            Event::PirateMoved { hex, .. } => game.apply_pirate(*hex),
            Event::HarbourPlaced { edge, kind, .. } => {
                game.apply_harbour(*edge, *kind);
                Seafarers::apply_gift(game, event);
            }
            Event::FogRevealed { seat, hex, terrain, number, resource } => {
                game.apply_reveal(*seat, *hex, *terrain, *number, *resource)
            }
            Event::GiftClaimed { .. } | Event::DevelopmentCardGifted { .. } | Event::HarbourTaken { .. } => {
                Seafarers::apply_gift(game, event)
            }
            Event::VillageConnected { .. } | Event::ClothReceived { .. } | Event::ClothStolen { .. } => {
                self.apply_cloth(game, event)
            }
            _ => {}
        }
        if let Some(fleet) = self.fleet() {
            self.apply_pirate_islands(fleet, game, event);
        }
        let pirate_islands = self.fleet().is_some();
        let phase = &game.phase;
        let state = &mut game.ext.seafarers;
        match event {
            Event::TurnStarted { .. } => {
                state.ship_moved = false;
                state.new_ships.clear();
            }
            Event::ShipBuilt { edge, .. } => state.new_ships.push(*edge),
            Event::ShipMoved { .. } => state.ship_moved = true,
            // The setup pieces: settlements, and with Cities & Knights the second one a city
            // (CK-SET-1, SEA-15).
            // PIR-23: The Pirate Islands have no island bonus, and their pre-placed
            // settlements (PIR-4) are none of the setup's two.
            Event::SettlementBuilt { seat, vertex, .. } | Event::CityBuilt { seat, vertex, .. }
                if matches!(phase, Phase::Setup { .. }) && !pirate_islands =>
            {
                state.setup_sites.push((*seat, *vertex));
            }
            Event::IslandBonusEarned { seat, vertex, points } => state.bonuses.push((*seat, *vertex, *points)),
            Event::FogRevealed { terrain, number, .. } => state.revealed.push((*terrain, *number)),
            _ => {}
        }
    }

    fn react(&self, game: &Game, _seat: Seat, events: &mut Vec<Event>, chance: &mut dyn Chance) {
        if let Some(layout) = self.layout() {
            fog::reveal_reached(game, layout, events, chance);
            // SCN-9: villages and cloth, then gifts, after the pieces and their reveals,
            // before the victory check.
            self.trade_cloth(game, layout, events);
            self.claim_gifts(game, layout, events, chance);
        }
        if let Some((mode, points)) = self.island_bonus() {
            self.award_island_bonus(game, mode, points, events);
        }
    }

    /// SEA-12: at most one bonus per settlement a seat founds (every building it has).
    fn most_points(&self, pieces: &crate::Pieces) -> Option<u32> {
        let buildings = u32::from(pieces.settlements) + u32::from(pieces.cities);
        let gift_points =
            self.layout().map_or(0, |l| l.gift_edges.iter().filter(|(_, g)| *g == crate::Gift::VictoryPoint).count());
        let bonuses = self.island_bonus().map_or(0, |(_, points)| points.saturating_mul(buildings));
        // CLV-9: every cloth there is, two to a point.
        let cloth = self
            .layout()
            .map_or(0, |l| (l.villages.len() as u32 * u32::from(l.cloth_per_village) + u32::from(l.cloth_supply)) / 2);
        Some(bonuses.saturating_add(gift_points as u32).saturating_add(cloth))
    }

    /// SEA-12: island bonuses earned (saturating: events that do not fit, applied to the
    /// state, may carry any points).
    fn victory_points(&self, game: &Game, seat: Seat) -> u32 {
        let state = &game.ext.seafarers;
        let bonuses = state.bonuses.iter().filter(|(s, _, _)| *s == seat);
        let bonus_points = bonuses.fold(0, |sum: u32, (_, _, points)| sum.saturating_add(*points));
        // FTR-9: each victory point gift.
        let gift_points = gifts::claimed(&state.gifts_claimed, Some(seat), crate::Gift::VictoryPoint);
        // CLV-9: two cloth make a point.
        let cloth_points = u32::from(state.cloth.held_by(seat) / 2);
        bonus_points.saturating_add(gift_points).saturating_add(cloth_points)
    }

    /// PIR-20: on The Pirate Islands, the target wins only with the own fortress conquered.
    fn victory(&self, after: &Game, seat: Seat, points: u32, target: u32) -> Option<Option<crate::VictoryCondition>> {
        self.fleet().map(|_| self.pirate_victory(after, seat, points, target))
    }

    /// FTR-8: the development cards given as gifts so far.
    fn cards_gifted(&self, game: &Game) -> u32 {
        gifts::claimed(&game.ext.seafarers.gifts_claimed, None, crate::Gift::DevelopmentCard)
    }
}

#[cfg(test)]
mod tests {
    use crate::{game::routes::tests::agrees_over_random_games, GameConfig, ScenarioId};

    #[test]
    fn the_trade_route_search_agrees_with_the_definition() {
        // SEA-10 on the roads and ships of random Seafarers games of two scenarios.
        for scenario in [ScenarioId::NewShores, ScenarioId::FourIslands] {
            let config = GameConfig { seafarers: true, scenario: Some(scenario), ..GameConfig::for_players(4) };
            agrees_over_random_games(&config, 15);
        }
    }
}
