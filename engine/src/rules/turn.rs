//! Rolling, production with the bank-shortage rule, discards on a 7, ending the turn
//! (B-TURN, B-PROD, B-ROB-1).

use crate::{
    chance::Chance,
    error::RuleError,
    events::{Event, SeatResources},
    resources::{Resource, Resources},
    state::{BuildingKind, Game, PendingDiscard, Phase, Seat},
};

/// Hands above this many cards must discard on a 7 (B-ROB-1).
const DISCARD_LIMIT: u32 = 7;

impl Game {
    pub(super) fn decide_roll(&self, seat: Seat, chance: &mut impl Chance) -> Vec<Event> {
        let (red, white) = chance.roll_dice();
        let (red, white) = (red.clamp(1, 6), white.clamp(1, 6));
        let mut events = vec![Event::DiceRolled { seat, red, white }];
        let roll = red + white;
        if roll == 7 {
            events.push(Event::PhaseChanged {
                phase: self.phase_after_seven(),
            });
        } else {
            events.push(self.production(roll));
            events.push(Event::PhaseChanged { phase: Phase::Main });
        }
        events
    }

    /// B-ROB-1: everyone above the limit discards half, rounded down; then the robber moves.
    fn phase_after_seven(&self) -> Phase {
        let pending: Vec<PendingDiscard> = self
            .seats()
            .filter_map(|seat| {
                let held = self.players[seat.index()].resources.total();
                (held > DISCARD_LIMIT).then_some(PendingDiscard {
                    seat,
                    count: held / 2,
                })
            })
            .collect();
        if pending.is_empty() {
            Phase::MoveRobber
        } else {
            Phase::Discard { pending }
        }
    }

    /// B-PROD-1..4: what every seat receives for `roll`.
    pub(crate) fn production(&self, roll: u8) -> Event {
        let mut owed = vec![Resources::ZERO; self.players.len()];
        for &h in &self.board.hexes_by_number[roll as usize] {
            if h == self.robber {
                continue; // B-PROD-2
            }
            let Some(resource) = self.board.terrain[h as usize].resource() else {
                continue;
            };
            for &v in &self.board.hex_vertices[h as usize] {
                if let Some(Some(building)) = self.buildings.get(v as usize) {
                    let amount = match building.kind {
                        BuildingKind::Settlement => 1,
                        BuildingKind::City => 2,
                    };
                    *owed[building.seat.index()].get_mut(resource) += amount;
                }
            }
        }
        let mut shortages = Vec::new();
        for resource in Resource::ALL {
            let need: u32 = owed.iter().map(|o| o.get(resource)).sum();
            let bank = self.bank.get(resource);
            if need <= bank {
                continue;
            }
            let owed_seats = owed.iter().filter(|o| o.get(resource) > 0).count();
            if owed_seats == 1 {
                // B-PROD-4: a single claimant takes what is left.
                for o in owed.iter_mut().filter(|o| o.get(resource) > 0) {
                    o.set(resource, bank);
                }
            } else {
                for o in owed.iter_mut() {
                    o.set(resource, 0);
                }
            }
            shortages.push(resource);
        }
        let gains = owed
            .into_iter()
            .enumerate()
            .filter(|(_, r)| !r.is_empty())
            .map(|(i, resources)| SeatResources {
                seat: Seat(i as u8),
                resources,
            })
            .collect();
        Event::ResourcesProduced {
            roll,
            gains,
            shortages,
        }
    }

    pub(super) fn decide_discard(
        &self,
        seat: Seat,
        pending: &[PendingDiscard],
        resources: &Resources,
    ) -> Result<Vec<Event>, RuleError> {
        let Some(owed) = pending.iter().find(|p| p.seat == seat) else {
            return Err(RuleError::NothingToDecide);
        };
        if resources.total() != owed.count {
            return Err(RuleError::WrongDiscardCount {
                required: owed.count,
            });
        }
        if !self.players[seat.index()].resources.contains(resources) {
            return Err(RuleError::InsufficientResources);
        }
        let rest: Vec<PendingDiscard> =
            pending.iter().copied().filter(|p| p.seat != seat).collect();
        let phase = if rest.is_empty() {
            Phase::MoveRobber
        } else {
            Phase::Discard { pending: rest }
        };
        Ok(vec![
            Event::ResourcesDiscarded {
                seat,
                count: owed.count,
                resources: Some(*resources),
            },
            Event::PhaseChanged { phase },
        ])
    }

    /// B-TURN-7: open offers lapse and the next seat clockwise begins.
    pub(super) fn decide_end_turn(&self) -> Vec<Event> {
        let mut events = Vec::with_capacity(2);
        if !self.offers.is_empty() {
            events.push(Event::TradesExpired {
                offer_ids: self.offers.iter().map(|o| o.id).collect(),
            });
        }
        let next = Seat((self.turn.active.0 + 1) % self.config.players);
        events.push(Event::TurnStarted {
            seat: next,
            turn: self.turn.number + 1,
        });
        events
    }
}
