//! The Seafarers part of a position: ships and their connection to the land (SEA-2, SEA-3),
//! the pirate (SEA-7) and what Seafarers remembers of the game (setup settlements, island
//! bonuses, the ship moved, new ships, the fog revealed), checked and placed through the
//! position hooks of `Extension`.

use serde::{Deserialize, Serialize};

use super::cloth::ClothState;
use super::types::PirateIslandsState;
use crate::{
    board::{EdgeId, HarbourKind, HexCoord, Terrain},
    game::Game,
    model::Seat,
    position::{checks::reached_from_buildings, PositionError, Setup, TurnSetup},
    view::ShipView,
    Gift, VertexId,
};

use PositionError as E;

/// What Seafarers remembers beyond the pieces on the board (only in Seafarers games): the
/// history its rules look back on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct SeafarersSetup {
    /// Each seat's setup settlements (its first two, B-SET-3; three with three setup rounds,
    /// SCN-6), which decide who earns an island bonus (SEA-12). A seat listed with fewer counts its next settlements
    /// as its setup ones, as play does: list them for a position after setup.
    pub setup_settlements: Vec<(Seat, VertexId)>,
    /// Settlements (or the cities they became) that earned an island bonus, with its points
    /// (SEA-12).
    pub island_bonuses: Vec<(Seat, VertexId, u32)>,
    /// The active player has moved a ship this turn (SEA-6: once per turn).
    pub ship_moved: bool,
    /// Ships built this turn (or, during setup, since the setup began), which may not move
    /// before the next turn (SEA-6).
    pub new_ships: Vec<EdgeId>,
    /// The fog tiles turned face up so far, as they left the hidden stacks: terrain and
    /// number token (SEA-13).
    pub revealed: Vec<(Terrain, Option<u8>)>,
    /// The Forgotten Tribe's gifts claimed so far, in order: edge, claimant, gift (FTR-7).
    /// A claimed harbour gift is off its edge on the position's board.
    pub gifts_claimed: Vec<(EdgeId, Seat, Gift)>,
    /// Gift harbours taken and not yet placed, oldest first: holder and kind (FTR-12).
    pub pending_harbours: Vec<(Seat, HarbourKind)>,
    /// The Pirate Islands' fleet, fortresses, warships and ships' order (PIR); the fleet
    /// stands on the position's `pirate` hex until defeated.
    #[serde(skip_serializing_if = "PirateIslandsState::is_unused")]
    pub pirate_islands: PirateIslandsState,
    /// Cloth for Catan: the cloth each village has given, the cloth taken from the general
    /// supply, each seat's cloth and the connections made, in order (CLV-5..8).
    #[serde(skip_serializing_if = "ClothState::is_unused")]
    pub cloth: ClothState,
}

impl SeafarersSetup {
    /// Tests if nothing is remembered (the state of any game without Seafarers).
    pub fn is_empty(&self) -> bool {
        *self == SeafarersSetup::default()
    }
}

/// SEA-1: ships only in games whose supply has them; B-GEO-9, SEA-2: only on edges that
/// touch the sea; B-BLD-7, SEA-2: one piece per edge, so a coast edge holds a road or a ship.
pub(super) fn place_ships(game: &mut Game, ships: &[ShipView]) -> Result<(), PositionError> {
    if ships.is_empty() {
        return Ok(()); // `Game::ships` stays empty until a ship is placed
    }
    game.ships = vec![None; game.board.edges.len()];
    for ship in ships {
        if ship.seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(ship.seat));
        }
        let e = game.board.edge(ship.edge).ok_or(E::UnknownEdge(ship.edge))?;
        if !game.board.edge_is_sea[e as usize] {
            return Err(E::EdgeNotNavigable(ship.edge));
        }
        if game.roads[e as usize].is_some() || game.ships[e as usize].is_some() {
            return Err(E::EdgeOccupied(ship.edge));
        }
        game.ships[e as usize] = Some(ship.seat);
    }
    Ok(())
}

/// SEA-3 as play leaves it, like roads: every ship is in a network of its owner's ships that
/// reaches one of its owner's buildings. Roads do not join it (a route turns from road to
/// ship only at the owner's building); an opponent's building inside it does not cut it.
fn check_ships_connected(game: &Game, ships: &[ShipView]) -> Result<(), PositionError> {
    if ships.is_empty() {
        return Ok(());
    }
    let reached = reached_from_buildings(game, &game.ships);
    for s in ships {
        if game.board.edge(s.edge).is_some_and(|e| !reached[e as usize]) {
            return Err(E::ShipNotConnected { seat: s.seat, edge: s.edge });
        }
    }
    Ok(())
}

/// What Seafarers remembers (only with Seafarers): each seat's setup settlements, at most two
/// and each on that seat's building (B-SET-3, SEA-12); island bonuses on the seat's own
/// buildings, once per vertex (SEA-12); a ship moved only after the roll and ships built
/// this turn on the board (SEA-6); fog turned up as a tile that could lie there (SEA-13).
fn place_seafarers_state(game: &mut Game, state: &SeafarersSetup, turn: &TurnSetup) -> Result<(), PositionError> {
    if state.is_empty() {
        return Ok(());
    }
    let bad = |message: String| Err(E::Seafarers(message));
    let players = game.players.len();
    let own_building = |seat: Seat, vertex| -> Result<bool, PositionError> {
        if seat.index() >= players {
            return Err(E::UnknownSeat(seat));
        }
        let v = game.board.vertex(vertex).ok_or(E::UnknownVertex(vertex))?;
        Ok(game.buildings[v as usize].is_some_and(|b| b.seat == seat))
    };
    // SCN-6: as many as there are setup rounds (CLV-3: three).
    let rounds = usize::from(game.rules().components.setup_rounds);
    for (i, &(seat, vertex)) in state.setup_settlements.iter().enumerate() {
        if !own_building(seat, vertex)? {
            return bad(format!("seat {seat}'s setup settlement on {vertex} is not on the board (B-SET-3, SEA-12)"));
        }
        let earlier = &state.setup_settlements[..i];
        if earlier.iter().any(|(_, v)| *v == vertex) || earlier.iter().filter(|(s, _)| *s == seat).count() >= rounds {
            return bad(format!("seat {seat} has {rounds} setup settlements, each on its own vertex (B-SET-3, SCN-6)"));
        }
    }
    for (i, &(seat, vertex, points)) in state.island_bonuses.iter().enumerate() {
        if !own_building(seat, vertex)? || points == 0 {
            return bad(format!(
                "an island bonus of {points} for seat {seat} on {vertex}: bonuses are points on the seat's own building (SEA-12)"
            ));
        }
        if state.island_bonuses[..i].iter().any(|(_, v, _)| *v == vertex) {
            return bad(format!("the settlement on {vertex} earned two island bonuses (SEA-12)"));
        }
    }
    if state.ship_moved && turn.dice.is_none() {
        return Err(E::InvalidTurn("a ship moves in the main phase, after the roll (SEA-6)".into()));
    }
    for (i, edge) in state.new_ships.iter().enumerate() {
        let e = game.board.edge(*edge).ok_or(E::UnknownEdge(*edge))?;
        if game.ship_index(e).is_none() || state.new_ships[..i].contains(edge) {
            return bad(format!("the ship built this turn on {edge} is not on the board, or listed twice (SEA-6)"));
        }
    }
    for &(terrain, number) in &state.revealed {
        let fits = match number {
            Some(n) => terrain.takes_number() && (2..=12).contains(&n) && n != 7,
            None => !terrain.takes_number() && terrain != Terrain::Fog,
        };
        if !fits {
            return bad(format!("fog cannot turn up as {terrain:?} with token {number:?} (SEA-13)"));
        }
    }
    check_gifts(game, state)?;
    check_cloth(game, &state.cloth)?;
    place_pirate_islands(game, &state.pirate_islands, turn)?;
    let sea = &mut game.ext.seafarers;
    sea.cloth = state.cloth.clone();
    sea.gifts_claimed = state.gifts_claimed.clone();
    sea.pending_harbours = state.pending_harbours.clone();
    sea.setup_sites = state.setup_settlements.clone();
    sea.bonuses = state.island_bonuses.clone();
    sea.ship_moved = state.ship_moved;
    sea.new_ships = state.new_ships.clone();
    sea.revealed = state.revealed.clone();
    Ok(())
}

/// FTR-7..12: gifts claimed once each, only where the scenario has one and by a seat in the
/// game; a claimed harbour gift is off its edge; every gift harbour is on its tribe edge,
/// held by its claimant, or placed at a coast (the board holds as many harbours as the
/// scenario less those held).
fn check_gifts(game: &Game, state: &SeafarersSetup) -> Result<(), PositionError> {
    if state.gifts_claimed.is_empty() && state.pending_harbours.is_empty() {
        return Ok(());
    }
    let bad = |message: String| Err(E::Seafarers(message));
    let layout = game.scenario_layout();
    let Some(layout) = layout.filter(|l| !l.gift_edges.is_empty() || !l.gift_harbours.is_empty()) else {
        return bad("gifts and gift harbours belong to The Forgotten Tribe (FTR-7)".into());
    };
    let harbours = &game.board.layout().harbours;
    for (i, &(edge, seat, gift)) in state.gifts_claimed.iter().enumerate() {
        if seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(seat));
        }
        let listed = layout.gift_edges.iter().any(|&(e, g)| e == edge && g == gift)
            || (gift == Gift::Harbour && layout.gift_harbours.contains(&edge));
        if !listed || state.gifts_claimed[..i].iter().any(|(e, _, _)| *e == edge) {
            return bad(format!("no {gift:?} gift to claim on {edge}, or claimed twice (FTR-7)"));
        }
        if gift == Gift::Harbour && harbours.iter().any(|h| h.edge == edge) {
            return bad(format!("the harbour gift on {edge} is claimed but still on its edge (FTR-10)"));
        }
    }
    for &(seat, _) in &state.pending_harbours {
        if seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(seat));
        }
    }
    let taken = super::gifts::claimed(&state.gifts_claimed, None, Gift::Harbour) as usize;
    if state.pending_harbours.len() > taken
        || harbours.len() + state.pending_harbours.len() != layout.gift_harbours.len()
    {
        return bad(format!(
            "{} harbours on the board and {} held make not the scenario's {} (FTR-10)",
            harbours.len(),
            state.pending_harbours.len(),
            layout.gift_harbours.len()
        ));
    }
    Ok(())
}

/// PIR: the fleet where its index says (off the board once defeated, PIR-21); one fortress
/// per seat on its start's vertex, at most 3 strong, empty before its conquest and the seat's
/// building after (PIR-4, PIR-19); warships and the ships' order on ships of their seats
/// (PIR-9, PIR-15); an attack only after the roll (PIR-18). The settlement under each
/// unconquered fortress leaves the supply (PIR-4 with `pir_fortress_reserves_settlement`).
fn place_pirate_islands(game: &mut Game, state: &PirateIslandsState, turn: &TurnSetup) -> Result<(), PositionError> {
    let seafarers = super::Seafarers::from_config(game.config());
    let Some(fleet) = seafarers.fleet() else {
        if state.is_unused() {
            return Ok(());
        }
        return Err(E::Seafarers("fleets and fortresses belong to The Pirate Islands (PIR)".into()));
    };
    let bad = |message: String| Err(E::Seafarers(message));
    let players = game.players.len();
    if usize::from(state.fleet_index) >= fleet.path.len() {
        return bad(format!(
            "the fleet's place {} is not on its path of {} (PIR-11)",
            state.fleet_index,
            fleet.path.len()
        ));
    }
    let at = game.board.hex(fleet.path[usize::from(state.fleet_index)]);
    let fleet_there = if state.fleet_defeated { game.pirate.is_none() } else { game.pirate == at };
    if !fleet_there {
        return bad("the pirate must stand on the fleet's hex, and off the board once it is defeated (PIR-11)".into());
    }
    let mut seen = Vec::new();
    for f in &state.fortresses {
        if f.seat.index() >= players {
            return Err(E::UnknownSeat(f.seat));
        }
        let start = &fleet.starts[f.seat.index()];
        let v = game.board.vertex(f.vertex).ok_or(E::UnknownVertex(f.vertex))?;
        let building = game.buildings[v as usize];
        let fits = f.vertex == start.fortress
            && f.strength <= super::pirate_islands::FORTRESS_STRENGTH
            && !seen.contains(&f.seat)
            && if f.strength == 0 { building.is_some_and(|b| b.seat == f.seat) } else { building.is_none() };
        if !fits {
            return bad(format!(
                "seat {}'s fortress on {}: its start's vertex, strength 0-3, empty until conquered and its building after (PIR-4, PIR-19)",
                f.seat, f.vertex
            ));
        }
        seen.push(f.seat);
    }
    let conquered_all = (0..players).all(|i| state.fortresses.iter().any(|f| f.seat.index() == i && f.strength == 0));
    if state.fleet_defeated != conquered_all {
        return bad("the fleet is defeated exactly when every fortress is conquered (PIR-21)".into());
    }
    let ship_of = |edge: EdgeId| game.board.edge(edge).and_then(|e| game.ship_index(e));
    for (i, &(seat, edge)) in state.ships.iter().enumerate() {
        if ship_of(edge) != Some(seat) || state.ships[..i].iter().any(|(_, e)| *e == edge) {
            return bad(format!("the ship of seat {seat} on {edge} is not on the board, or listed twice (PIR-15)"));
        }
    }
    for (i, &edge) in state.warships.iter().enumerate() {
        if ship_of(edge).is_none() || state.warships[..i].contains(&edge) {
            return bad(format!("the warship on {edge} is not a ship on the board, or listed twice (PIR-15)"));
        }
    }
    if state.fortress_attacked && turn.dice.is_none() {
        return Err(E::InvalidTurn("a fortress is attacked in the main phase, after the roll (PIR-18)".into()));
    }
    if seafarers.pirate.fortress_reserves_settlement {
        for f in state.fortresses.iter().filter(|f| f.strength > 0) {
            let player = &mut game.players[f.seat.index()];
            if player.pieces_left.settlements == 0 {
                return bad(format!("seat {} has no settlement left to wait under its fortress (PIR-4)", f.seat));
            }
            player.pieces_left.settlements -= 1;
            player.supply.settlements -= 1;
        }
    }
    game.ext.seafarers.pirate_islands = state.clone();
    Ok(())
}

/// SEA-7: the pirate on a sea hex.
fn place_pirate(game: &mut Game, pirate: Option<HexCoord>) -> Result<(), PositionError> {
    game.pirate = match pirate {
        None => None,
        Some(hex) => {
            let h = game.board.hex(hex).ok_or(E::UnknownHex(hex))?;
            if !game.board.is_sea_hex(h) {
                return Err(E::PirateNotOnSea(hex));
            }
            Some(h)
        }
    };
    Ok(())
}

/// The rest of the Seafarers part, once the base game's part stands: the ships' connection,
/// the pirate and what Seafarers remembers.
pub(super) fn place_rest(game: &mut Game, setup: &Setup) -> Result<(), PositionError> {
    // PIR-18: ships lost before a fortress may cut a route that sailed on past it, so on The
    // Pirate Islands play leaves ships that reach no building.
    if super::Seafarers::from_config(game.config()).fleet().is_none() {
        check_ships_connected(game, &setup.ships)?;
    }
    place_pirate(game, setup.pirate)?;
    place_seafarers_state(game, &setup.seafarers, &setup.turn)
}

/// What Seafarers remembers, for a game's position (its ships and pirate are the base
/// position's fields, written with the pieces).
pub(super) fn export(game: &Game, setup: &mut Setup) {
    let sea = &game.ext.seafarers;
    setup.seafarers = SeafarersSetup {
        setup_settlements: sea.setup_sites.clone(),
        island_bonuses: sea.bonuses.clone(),
        ship_moved: sea.ship_moved,
        new_ships: sea.new_ships.clone(),
        revealed: sea.revealed.clone(),
        gifts_claimed: sea.gifts_claimed.clone(),
        pending_harbours: sea.pending_harbours.clone(),
        cloth: sea.cloth.clone(),
        pirate_islands: sea.pirate_islands.clone(),
    };
}

/// CLV-5..8: no village gives more than its stock, the supply no more than it holds; the
/// cloth held is the cloth given (the pirate only moves it); connections name a village and
/// a seat of the game, once each.
fn check_cloth(game: &Game, cloth: &ClothState) -> Result<(), PositionError> {
    if cloth.is_unused() {
        return Ok(());
    }
    let bad = |message: String| Err(E::Seafarers(message));
    let layout = game.scenario_layout();
    let Some(layout) = layout.filter(|l| !l.villages.is_empty()) else {
        return bad("cloth and villages belong to Cloth for Catan (CLV-5)".into());
    };
    if cloth.given.len() > layout.villages.len() || cloth.given.iter().any(|&g| g > layout.cloth_per_village) {
        return bad(format!(
            "the {} villages each give at most {} cloth (CLV-5), not {:?}",
            layout.villages.len(),
            layout.cloth_per_village,
            cloth.given
        ));
    }
    if cloth.from_supply > layout.cloth_supply {
        return bad(format!(
            "the general supply holds {} cloth, not {} (CLV-8)",
            layout.cloth_supply, cloth.from_supply
        ));
    }
    if cloth.held.len() > game.players.len() {
        return bad(format!("cloth held by {} seats in a game of {}", cloth.held.len(), game.players.len()));
    }
    let given: u32 = cloth.given.iter().map(|&g| u32::from(g)).sum::<u32>() + u32::from(cloth.from_supply);
    let held: u32 = cloth.held.iter().map(|&h| u32::from(h)).sum();
    if given != held {
        return bad(format!("the seats hold {held} cloth, but {given} left the villages and the supply (CLV-10)"));
    }
    for (i, &(village, seat)) in cloth.connections.iter().enumerate() {
        if seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(seat));
        }
        if usize::from(village) >= layout.villages.len() || cloth.connections[..i].contains(&(village, seat)) {
            return bad(format!(
                "connection {i} names village {village} of {}, or twice (CLV-6)",
                layout.villages.len()
            ));
        }
    }
    Ok(())
}

/// Building a Seafarers position.
impl Setup {
    /// Puts a ship of `seat` on `edge` (Seafarers, SEA-1).
    #[must_use]
    pub fn with_ship(mut self, edge: EdgeId, seat: Seat) -> Self {
        self.ships.push(ShipView { edge, seat });
        self
    }

    /// Puts the pirate on the sea hex `hex` (Seafarers, SEA-7).
    #[must_use]
    pub fn with_pirate(mut self, hex: HexCoord) -> Self {
        self.pirate = Some(hex);
        self
    }

    /// Records `vertex` as one of `seat`'s setup settlements (SEA-12's island bonus looks
    /// back on them).
    #[must_use]
    pub fn with_setup_settlement(mut self, vertex: VertexId, seat: Seat) -> Self {
        self.seafarers.setup_settlements.push((seat, vertex));
        self
    }
}
