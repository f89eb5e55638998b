//! Knights and city walls (CK-KNT, CK-WALL): recruiting a basic knight at the end of one's
//! road, promoting it (mighty needs Politics 3), activating it with grain, and walls under
//! one's cities. What a knight does (moving, displacing, chasing the robber) is in `actions.rs`.

pub use super::types::Knight;

use super::{
    improvements::{building_phase_of, main_phase_of, ABILITY_LEVEL},
    CitiesKnights, Track,
};
use crate::{
    board::VertexId,
    game::{pieces::Bits, Game},
    model::{BuildingKind, Resources, Seat},
    protocol::{Event, Move, RuleError},
};

/// Knight pieces of each rank per seat (CK-CMP-4).
pub(super) const PIECES_PER_RANK: usize = 2;
/// The strongest rank: mighty (CK-CMP-4).
pub(super) const MIGHTY: u8 = 3;
/// City walls per seat (CK-CMP-5).
pub(super) const WALLS_PER_SEAT: u32 = 3;
/// Recruiting or promoting: 1 wool + 1 ore (CK-KNT-1).
pub const KNIGHT_COST: Resources = Resources::new(0, 0, 1, 0, 1);
/// Activating: 1 grain (CK-KNT-1).
pub const ACTIVATION_COST: Resources = Resources::new(0, 0, 0, 1, 0);
/// A city wall: 2 brick (CK-WALL-1).
pub const WALL_COST: Resources = Resources::new(0, 2, 0, 0, 0);

impl Game {
    /// The knights on the board (CK-KNT).
    pub fn knights(&self) -> &[Knight] {
        &self.ext.cities_knights.knights
    }

    /// The knight on `vertex`, if any.
    pub fn knight_at(&self, vertex: VertexId) -> Option<&Knight> {
        self.ext.cities_knights.knights.iter().find(|k| k.vertex == vertex)
    }

    /// The strength of `seat`'s active knights: its contribution against the barbarians
    /// (CK-BAR-4/6).
    pub fn active_knight_strength(&self, seat: Seat) -> u32 {
        self.knights().iter().filter(|k| k.seat == seat && k.active).map(|k| u32::from(k.rank)).sum()
    }

    /// The walls `seat` has on the board (CK-WALL-1).
    pub fn city_walls(&self, seat: Seat) -> u32 {
        self.ext.cities_knights.walls_of(seat)
    }

    /// Whether the city on `vertex` has a wall.
    pub fn has_wall(&self, vertex: VertexId) -> bool {
        self.ext.cities_knights.walls.iter().any(|(v, _)| *v == vertex)
    }

    /// The owner of the knight on vertex index `v` (CK-KNT-9: knights occupy vertices).
    pub(crate) fn knight_owner(&self, v: u16) -> Option<Seat> {
        let knights = &self.ext.cities_knights.knights;
        if knights.is_empty() {
            return None;
        }
        let vertex = *self.board.vertices.get(v as usize)?;
        knights.iter().find(|k| k.vertex == vertex).map(|k| k.seat)
    }

    /// Whether edge index `e` holds one of `seat`'s roads, or (Seafarers) ships: the routes
    /// knights are recruited at and move along (CK-KNT-2/6, SEA-15).
    pub(super) fn knight_route(&self, seat: Seat, e: u16) -> bool {
        self.road_index(e) == Some(seat) || self.ship_index(e) == Some(seat)
    }

    pub(super) fn knights_of_rank(&self, seat: Seat, rank: u8) -> usize {
        self.knights().iter().filter(|k| k.seat == seat && k.rank == rank).count()
    }

    fn afford(&self, seat: Seat, cost: &Resources) -> Result<(), RuleError> {
        if self.player(seat).is_some_and(|p| p.resources().contains(cost)) {
            Ok(())
        } else {
            Err(RuleError::InsufficientResources)
        }
    }
}

impl CitiesKnights {
    /// CK-KNT-1/2: a basic knight, inactive, on an empty vertex at the end of one's road (or
    /// ship, SEA-15).
    pub(super) fn decide_recruit(
        &self,
        game: &Game,
        seat: Seat,
        vertex: VertexId,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let v = self.check_recruit(game, seat, vertex)?;
        let recruited = Event::KnightRecruited { seat, vertex, cost: KNIGHT_COST };
        // CK-KNT-9, B-LR-5: a knight on an opponent's road (or ship line) breaks it. Only a
        // vertex that touches another seat's road or ship can change a route, so only then is
        // the award measured again, on a copy of the game with the knight standing.
        let award = touches_another_route(game, seat, v).then(|| {
            game.with_copy(|after| {
                after.apply(&recruited);
                after.longest_road_update(crate::game::routes::Overlay::default())
            })
        });
        events.push(recruited);
        events.extend(award.flatten());
        Ok(())
    }

    /// [`Self::decide_recruit`]'s checks alone, for the listing (no copy of the game to
    /// measure the roads on): the vertex's index.
    fn check_recruit(&self, game: &Game, seat: Seat, vertex: VertexId) -> Result<u16, RuleError> {
        building_phase_of(game, seat)?;
        let v = game.board().vertex(vertex).ok_or(RuleError::UnknownVertex(vertex))?;
        if !game.board().vertex_is_buildable[v as usize] {
            return Err(RuleError::VertexNotBuildable(vertex));
        }
        if game.building_index(v).is_some() || game.knight_at(vertex).is_some() {
            return Err(RuleError::VertexOccupied(vertex));
        }
        if !game.board().edges_of(v).any(|e| game.knight_route(seat, e)) {
            return Err(RuleError::KnightNotConnected(vertex));
        }
        if game.knights_of_rank(seat, 1) >= PIECES_PER_RANK {
            return Err(RuleError::NoPiecesLeft("basic knights"));
        }
        game.afford(seat, &KNIGHT_COST)?;
        Ok(v)
    }

    /// CK-KNT-3: one rank up, in place, once per turn; mighty needs Politics 3.
    pub(super) fn promoted(&self, game: &Game, seat: Seat, vertex: VertexId) -> Result<Event, RuleError> {
        let rank = self.check_promote(game, seat, vertex)?;
        Ok(Event::KnightPromoted { seat, vertex, rank, cost: KNIGHT_COST })
    }

    /// [`Self::promoted`]'s checks alone, for the listing (no event list to allocate):
    /// the rank the knight would rise to.
    fn check_promote(&self, game: &Game, seat: Seat, vertex: VertexId) -> Result<u8, RuleError> {
        building_phase_of(game, seat)?;
        let rank = promotion(game, seat, vertex)?;
        game.afford(seat, &KNIGHT_COST)?;
        Ok(rank)
    }

    /// CK-KNT-4: an inactive knight becomes active for 1 grain.
    pub(super) fn activated(&self, game: &Game, seat: Seat, vertex: VertexId) -> Result<Event, RuleError> {
        self.check_activate(game, seat, vertex)?;
        Ok(Event::KnightActivated { seat, vertex, cost: ACTIVATION_COST })
    }

    /// [`Self::activated`]'s checks alone, for the listing.
    fn check_activate(&self, game: &Game, seat: Seat, vertex: VertexId) -> Result<(), RuleError> {
        building_phase_of(game, seat)?;
        if own_knight(game, seat, vertex)?.active {
            return Err(RuleError::KnightAlreadyActive);
        }
        game.afford(seat, &ACTIVATION_COST)
    }

    /// CK-WALL-1: 2 brick, under one of one's cities without a wall, three at most.
    pub(super) fn wall_built(&self, game: &Game, seat: Seat, vertex: VertexId) -> Result<Event, RuleError> {
        self.check_wall(game, seat, vertex)?;
        Ok(Event::CityWallBuilt { seat, vertex, cost: WALL_COST })
    }

    /// [`Self::wall_built`]'s checks alone, for the listing.
    fn check_wall(&self, game: &Game, seat: Seat, vertex: VertexId) -> Result<(), RuleError> {
        main_phase_of(game, seat)?;
        wall_site(game, seat, vertex)?;
        game.afford(seat, &WALL_COST)
    }

    /// Recruiting, promoting, activating and walls the seat may do now.
    pub(super) fn knight_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        if building_phase_of(game, seat).is_err() {
            return;
        }
        let hand = *game.player(seat).map_or(&Resources::ZERO, |p| p.resources());
        if hand.contains(&KNIGHT_COST) && game.knights_of_rank(seat, 1) < PIECES_PER_RANK {
            let mut recruit_at = |v: u16| {
                let vertex = game.board().vertices[v as usize];
                if self.check_recruit(game, seat, vertex).is_ok() {
                    moves.push(Move::RecruitKnight { vertex });
                }
            };
            match game.roads_of(seat).zip(game.ships_of(seat)) {
                // The ends of the seat's roads and ships, in board order: only there may a
                // knight be recruited (CK-KNT-2), instead of a look at every vertex.
                Some((roads, ships)) => {
                    let mut ends = Bits::default();
                    for e in roads.iter().chain(ships.iter()) {
                        for v in game.board().edge_vertices[e as usize] {
                            ends.insert(v);
                        }
                    }
                    ends.iter().for_each(&mut recruit_at);
                }
                // A board too large for the kept sets: every vertex, which `check_recruit`
                // refuses unless one of the seat's roads or ships ends there.
                None => (0..game.board().vertices.len() as u16).for_each(&mut recruit_at),
            }
        }
        for knight in game.knights().iter().filter(|k| k.seat == seat) {
            let vertex = knight.vertex;
            if self.check_promote(game, seat, vertex).is_ok() {
                moves.push(Move::PromoteKnight { vertex });
            }
            if self.check_activate(game, seat, vertex).is_ok() {
                moves.push(Move::ActivateKnight { vertex });
            }
        }
        if hand.contains(&WALL_COST) {
            let own_city =
                |v: u16| game.building_index(v).is_some_and(|b| b.seat == seat && b.kind == BuildingKind::City);
            let mut wall_at = |v: u16| {
                let vertex = game.board().vertices[v as usize];
                if own_city(v) && self.check_wall(game, seat, vertex).is_ok() {
                    moves.push(Move::BuildCityWall { vertex });
                }
            };
            match game.buildings_of(seat) {
                Some(own) => own.iter().for_each(&mut wall_at),
                None => (0..game.board().vertices.len() as u16).for_each(&mut wall_at),
            }
        }
    }
}

/// CK-KNT-3 without the cost: the rank `seat`'s knight on `vertex` may rise to now (one up,
/// once per turn, a piece of that rank in the supply, mighty with Politics 3).
pub(super) fn promotion(game: &Game, seat: Seat, vertex: VertexId) -> Result<u8, RuleError> {
    promotion_after(game, seat, vertex, None)
}

/// [`promotion`] as it reads once the seat's knight on `earlier.0` has risen to rank
/// `earlier.1` (a Smith's second knight, CK-PC-7): that knight is promoted this turn, and the
/// pieces of its old and new rank in the supply follow. Measured without building that state.
pub(super) fn promotion_after(
    game: &Game,
    seat: Seat,
    vertex: VertexId,
    earlier: Option<(VertexId, u8)>,
) -> Result<u8, RuleError> {
    let knight = own_knight(game, seat, vertex)?;
    let (rank_now, promoted) = match earlier {
        Some((v, risen_to)) if v == vertex => (risen_to, true),
        _ => (knight.rank, knight.promoted_this_turn),
    };
    if rank_now >= MIGHTY {
        return Err(RuleError::KnightAtTopRank);
    }
    if promoted {
        return Err(RuleError::KnightAlreadyPromoted);
    }
    let rank = rank_now + 1;
    if rank == MIGHTY && game.improvement_level(seat, Track::Politics) < ABILITY_LEVEL {
        return Err(RuleError::PoliticsLevelRequired);
    }
    let mut of_rank = game.knights_of_rank(seat, rank);
    if let Some((_, risen_to)) = earlier {
        // The earlier knight left rank `risen_to - 1` for `risen_to`.
        of_rank = of_rank + usize::from(risen_to == rank) - usize::from(risen_to == rank + 1);
    }
    if of_rank >= PIECES_PER_RANK {
        return Err(RuleError::NoPiecesLeft(if rank == MIGHTY { "mighty knights" } else { "strong knights" }));
    }
    Ok(rank)
}

/// CK-WALL-1 without the cost: a wall may stand under `seat`'s city on `vertex`.
pub(super) fn wall_site(game: &Game, seat: Seat, vertex: VertexId) -> Result<(), RuleError> {
    let v = game.board().vertex(vertex).ok_or(RuleError::UnknownVertex(vertex))?;
    if game.building_index(v).is_none_or(|b| b.seat != seat || b.kind != BuildingKind::City) {
        return Err(RuleError::NotYourCity(vertex));
    }
    if game.has_wall(vertex) {
        return Err(RuleError::VertexOccupied(vertex));
    }
    if game.city_walls(seat) >= WALLS_PER_SEAT {
        return Err(RuleError::NoPiecesLeft("city walls"));
    }
    Ok(())
}

fn own_knight(game: &Game, seat: Seat, vertex: VertexId) -> Result<Knight, RuleError> {
    match game.knight_at(vertex) {
        Some(knight) if knight.seat == seat => Ok(*knight),
        _ => Err(RuleError::NotYourKnight(vertex)),
    }
}

/// Whether vertex `v` touches a road or ship of a seat other than `seat`: only then can
/// `seat`'s knight arriving there or leaving it break or mend a route (CK-KNT-9, B-LR-5).
pub(super) fn touches_another_route(game: &Game, seat: Seat, v: u16) -> bool {
    game.board().edges_of(v).any(|e| {
        let others = |owner: Option<Seat>| owner.is_some_and(|owner| owner != seat);
        others(game.road_index(e)) || others(game.ship_index(e))
    })
}
