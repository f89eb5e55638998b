//! The weighted random bot: a baseline opponent and the engine's self-play workhorse.

use crate::{
    moves::Move,
    rng::Rng,
    state::{Game, Seat},
};

use super::Bot;

/// Picks at random, weighted toward moves that score so that games end: cities and
/// settlements first, then development cards and roads; bank trades and ending the turn
/// less often.
#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: Rng::new(seed) }
    }

    fn weight(mv: &Move) -> u32 {
        match mv {
            Move::BuildCity { .. } => 1000,
            Move::BuildSettlement { .. } => 800,
            Move::BuyDevelopmentCard => 150,
            Move::PlayKnight { .. }
            | Move::PlayRoadBuilding
            | Move::PlayYearOfPlenty { .. }
            | Move::PlayMonopoly { .. } => 40,
            Move::BuildRoad { .. } => 60,
            Move::TradeWithBank { .. } => 8,
            Move::EndTurn => 30,
            _ => 10,
        }
    }
}

impl Bot for RandomBot {
    fn choose(&mut self, _game: &Game, _seat: Seat, moves: &[Move]) -> usize {
        let total: u32 = moves.iter().map(RandomBot::weight).sum();
        let mut pick = self.rng.below(total.max(1));
        for (i, mv) in moves.iter().enumerate() {
            let w = RandomBot::weight(mv);
            if pick < w {
                return i;
            }
            pick -= w;
        }
        0
    }
}
