//! Initial placement: the snake order and free pieces (B-SET-3..7).

use crate::{
    board::{EdgeId, Terrain, VertexId},
    game::Game,
    model::{GoldSource, Phase, PushInPlace, Resources, Seat, SetupStep},
    protocol::{Event, Move, RuleError},
};

impl Game {
    /// Returns the seat making placement `index` of the snake (B-SET-3); a third round
    /// goes clockwise from the first player again (SCN-6).
    pub(crate) fn setup_seat(&self, index: u8) -> Seat {
        let n = self.player_count();
        let step = match index / n.max(1) {
            0 => index,
            1 => 2 * n - 1 - index,
            _ => index % n,
        };
        Seat((self.first_seat.0 + step) % n)
    }

    /// The placements of the whole setup (B-SET-3, SCN-6).
    pub(crate) fn setup_placements(&self) -> u8 {
        self.rules().components.setup_rounds.saturating_mul(self.player_count())
    }

    /// SCN-6: a third setup round must find a site for every placement, whatever the players
    /// choose. A settlement takes its site and bars at most its three neighbours, so `n`
    /// sites always leave one for every placement while `n >= 4 * placements - 3`. Two rounds
    /// are the maps' own design and are not measured.
    pub(crate) fn check_room_for_setup_rounds(&self) -> Result<(), crate::protocol::SetupError> {
        let rounds = self.rules().components.setup_rounds;
        if rounds <= 2 {
            return Ok(());
        }
        let sites = (0..self.board.vertices.len() as u16)
            .filter(|&v| self.check_setup_site(v, self.board.vertices[v as usize]).is_ok())
            .count();
        let placements = usize::from(self.setup_placements());
        if sites + 3 >= 4 * placements {
            return Ok(());
        }
        Err(crate::protocol::SetupError::InvalidConfig(format!(
            "setup_rounds {rounds} needs {placements} setup settlements, and this board's {sites} setup sites \
             leave room for only {} whatever the players choose (SCN-6)",
            sites.div_ceil(4)
        )))
    }

    /// B-SET-4, and what the extensions add (e.g. RIV-4).
    pub(crate) fn check_setup_site(&self, v: u16, id: VertexId) -> Result<(), RuleError> {
        self.check_settlement_site(v, id)?;
        for extension in &self.rules().extensions {
            extension.check_setup_site(self, v)?;
        }
        Ok(())
    }

    pub(super) fn decide_setup(&self, seat: Seat, mv: &Move, events: &mut Vec<Event>) -> Result<(), RuleError> {
        let Phase::Setup { seat: placing, placement, step } = self.phase else {
            return Err(RuleError::WrongPhase("not in setup"));
        };
        if seat != placing {
            return Err(RuleError::NotYourTurn { active: placing });
        }
        // CK-SET-1: in Cities & Knights the second piece is a city, placed on an empty site.
        let city_now = self.rules().components.setup_city && placement >= self.player_count();
        match (step, mv) {
            (SetupStep::PlaceSettlement, Move::BuildSettlement { .. }) if city_now => {
                Err(RuleError::WrongPhase("place a city: the second setup piece is a city (CK-SET-1)"))
            }
            (SetupStep::PlaceSettlement, Move::BuildCity { vertex }) if !city_now => {
                Err(RuleError::WrongPhase("place a settlement (setup)"))
            }
            (SetupStep::PlaceSettlement, Move::BuildSettlement { vertex } | Move::BuildCity { vertex }) => {
                let v = self.board.vertex(*vertex).ok_or(RuleError::UnknownVertex(*vertex))?;
                self.check_setup_site(v, *vertex)?;
                let piece = if city_now {
                    Event::CityBuilt { seat, vertex: *vertex, cost: Resources::ZERO }
                } else {
                    Event::SettlementBuilt { seat, vertex: *vertex, cost: Resources::ZERO }
                };
                events.push(piece);
                let next = Phase::Setup { seat, placement, step: SetupStep::PlaceRoad { settlement: *vertex } };
                // B-SET-6: the second settlement (SCN-6: that of the starting resources'
                // round) yields one card per adjacent producing hex, and (SEA-9) one of
                // free choice per adjacent gold hex.
                let mut gold = 0;
                let round = placement / self.player_count().max(1) + 1;
                if round == self.rules().components.starting_resources_round {
                    let mut resources = Resources::ZERO;
                    for h in self.board.land_hexes_of(v) {
                        let terrain = self.board.terrain[h as usize];
                        if let Some(resource) = terrain.resource() {
                            if self.bank.get(resource) > resources.get(resource) {
                                *resources.get_mut(resource) += 1;
                            }
                        }
                        if terrain == Terrain::Gold && self.rules().components.gold_produces {
                            gold += 1;
                        }
                    }
                    if !resources.is_empty() {
                        events.push_in_place(|| Event::StartingResourcesReceived { seat, resources });
                    }
                    if gold > 0 {
                        // What the bank holds for the choice is what is left after the cards above.
                        let mut after = self.bank;
                        if let Some(Event::StartingResourcesReceived { resources, .. }) = events.last() {
                            after -= *resources;
                        }
                        gold = gold.min(after.total());
                    }
                }
                let choice = self.own_gold_choice(seat, gold, GoldSource::Setup, next.clone(), &self.then);
                events.push(choice.unwrap_or_else(|| self.continue_with(next)));
                Ok(())
            }
            (SetupStep::PlaceRoad { settlement }, Move::BuildRoad { edge }) => {
                let e = self.board.edge(*edge).ok_or(RuleError::UnknownEdge(*edge))?;
                self.check_road_site(e, *edge)?;
                // B-SET-4: the road touches the settlement just placed, not an earlier one.
                if !edge_touches(*edge, settlement) {
                    return Err(RuleError::SetupRoadNotAtSettlement);
                }
                events.push_in_place(|| Event::RoadBuilt { seat, edge: *edge, cost: Resources::ZERO });
                events.push_in_place(|| self.next_placement(placement));
                Ok(())
            }
            (SetupStep::PlaceRoad { settlement }, Move::BuildShip { edge })
                if self.players[seat.index()].supply.ships > 0 =>
            {
                // SEA-5: next to a coastal settlement, the free piece may be a ship.
                let e = self.board.edge(*edge).ok_or(RuleError::UnknownEdge(*edge))?;
                if !edge_touches(*edge, settlement) {
                    return Err(RuleError::SetupShipNotAtSettlement);
                }
                self.check_ship_site(seat, e, *edge, None)?;
                events.push_in_place(|| Event::ShipBuilt { seat, edge: *edge, cost: Resources::ZERO });
                events.push_in_place(|| self.next_placement(placement));
                Ok(())
            }
            (SetupStep::PlaceSettlement, _) => Err(RuleError::WrongPhase("place a settlement (setup)")),
            (SetupStep::PlaceRoad { .. }, _) => Err(RuleError::WrongPhase("place a road next to your new settlement")),
        }
    }

    /// After placement `placement`'s free piece: the next placement, or the first turn.
    fn next_placement(&self, placement: u8) -> Event {
        let next = placement + 1;
        if next < self.setup_placements() {
            self.continue_with(Phase::Setup {
                seat: self.setup_seat(next),
                placement: next,
                step: SetupStep::PlaceSettlement,
            })
        } else {
            // B-SET-7: the first player takes the first normal turn.
            Event::TurnStarted { seat: self.first_seat, turn: 1 }
        }
    }

    pub(super) fn setup_moves(&self, step: SetupStep, moves: &mut Vec<Move>) {
        match step {
            SetupStep::PlaceSettlement => {
                let city = self.rules().components.setup_city
                    && matches!(self.phase, Phase::Setup { placement, .. } if placement >= self.player_count());
                for (v, vertex) in self.board.vertices.iter().enumerate() {
                    if self.check_setup_site(v as u16, *vertex).is_ok() {
                        let vertex = *vertex;
                        moves.push_in_place(|| {
                            if city {
                                Move::BuildCity { vertex }
                            } else {
                                Move::BuildSettlement { vertex }
                            }
                        });
                    }
                }
            }
            SetupStep::PlaceRoad { settlement } => {
                let Some(v) = self.board.vertex(settlement) else {
                    return;
                };
                let seat = self.active_seat();
                let ships = self.players.get(seat.index()).is_some_and(|p| p.supply.ships > 0);
                for e in self.board.edges_of(v) {
                    let edge = self.board.edges[e as usize];
                    if self.check_road_site(e, edge).is_ok() {
                        moves.push_in_place(|| Move::BuildRoad { edge });
                    }
                    if ships && self.check_ship_site(seat, e, edge, None).is_ok() {
                        moves.push_in_place(|| Move::BuildShip { edge });
                    }
                }
            }
        }
    }
}

fn edge_touches(edge: EdgeId, vertex: VertexId) -> bool {
    edge.endpoints().contains(&vertex)
}
