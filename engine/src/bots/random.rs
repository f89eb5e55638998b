//! The weighted random bot: a baseline opponent and the engine's self-play workhorse.

use crate::{rng::Rng, Game, Move, ProgressPlay, Seat};

use super::Bot;

/// Room for the weights of all but the longest listings (a large hand's discards run to
/// thousands): weighing into a list and walking it is cheaper than weighing every move
/// twice, which the longer listings get rather than a list grown for them.
const WEIGHTS_RESERVE: usize = 512;

/// Picks at random, weighted toward moves that score so that games end: cities, wonder
/// claims and stages and settlements first, then development cards and roads; bank trades
/// and ending the turn less often.
#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: Rng,
    /// Each listed move's weight, reused from move to move: a pick weighs every move once.
    weights: Vec<u32>,
}

impl RandomBot {
    pub fn new(seed: u64) -> Self {
        RandomBot { rng: Rng::new(seed), weights: Vec::with_capacity(WEIGHTS_RESERVE) }
    }

    /// How strongly the random bot prefers `mv`. Public so that clients of the server (its
    /// load generator, its tests) can play the same way over HTTP.
    pub fn weight(mv: &Move) -> u32 {
        match mv {
            Move::BuildCity { .. } => 1000,
            // Wonders of Catan (WON-8..11): a claim is free, a stage is the way to win.
            Move::ClaimWonder { .. } => 1000,
            Move::BuildWonderStage => 900,
            Move::BuildSettlement { .. } => 800,
            Move::BuyDevelopmentCard => 150,
            Move::PlayKnight { .. }
            | Move::PlayWarship { .. }
            | Move::PlayRoadBuilding
            | Move::PlayYearOfPlenty { .. }
            | Move::PlayMonopoly { .. } => 40,
            Move::BuildRoad { .. } | Move::BuildShip { .. } => 60,
            // A ship may move to many edges: each one alone is a rare pick.
            Move::MoveShip { .. } => 1,
            Move::TradeWithBank { .. } => 8,
            Move::EndTurn => 30,
            // Cities & Knights progress cards (CK-PC-7): played often enough that every card
            // is played in random games; a card listed with many parameter choices weighs
            // little per choice, so that the card as a whole stays a likely pick.
            Move::PlayProgressCard { play } => RandomBot::progress_weight(play),
            _ => 10,
        }
    }

    /// The weight of one way to play a progress card, about 100 per card over its choices.
    fn progress_weight(play: &ProgressPlay) -> u32 {
        match play {
            ProgressPlay::Crane
            | ProgressPlay::Irrigation
            | ProgressPlay::Mining
            | ProgressPlay::RoadBuilding
            | ProgressPlay::CommercialHarbor
            | ProgressPlay::Saboteur
            | ProgressPlay::Warlord
            | ProgressPlay::Wedding => 100,
            ProgressPlay::Engineer { .. } | ProgressPlay::Medicine { .. } => 50,
            ProgressPlay::MasterMerchant { .. }
            | ProgressPlay::Spy { .. }
            | ProgressPlay::Deserter { .. }
            | ProgressPlay::Intrigue { .. }
            | ProgressPlay::TradeMonopoly { .. } => 40,
            ProgressPlay::Smith { .. } | ProgressPlay::ResourceMonopoly { .. } => 20,
            ProgressPlay::MerchantFleet { .. } | ProgressPlay::Merchant { .. } => 12,
            ProgressPlay::Bishop { .. } => 6,
            // 36 pairs of dice against one roll (weight 10): played about three times in four.
            ProgressPlay::Alchemist { .. } => 1,
            ProgressPlay::Inventor { .. } | ProgressPlay::Diplomat { .. } => 2,
        }
    }

    /// The index of the move a draw weighted by [`RandomBot::weight`] picks from `moves` (0
    /// when there are none); `below(n)` must draw uniformly from `0..n`.
    pub fn weighted_pick(moves: &[Move], below: impl FnOnce(u32) -> u32) -> usize {
        // Weighed twice, once for the total and once for the pick, rather than into a list.
        let total: u32 = moves.iter().map(RandomBot::weight).sum();
        let mut pick = below(total.max(1));
        for (i, mv) in moves.iter().enumerate() {
            let weight = RandomBot::weight(mv);
            if pick < weight {
                return i;
            }
            pick -= weight;
        }
        0
    }
}

/// The index a draw `below(total)` lands on when each index takes `weights[i]` of the total.
fn pick_by_weight(weights: &[u32], below: impl FnOnce(u32) -> u32) -> usize {
    let total: u32 = weights.iter().sum();
    let mut pick = below(total.max(1));
    for (i, &w) in weights.iter().enumerate() {
        if pick < w {
            return i;
        }
        pick -= w;
    }
    0
}

impl Bot for RandomBot {
    /// The pick of [`RandomBot::weighted_pick`], weighing each move once. A listing longer
    /// than the room reserved for the weights is weighed twice instead: growing the list
    /// would allocate in the middle of a game (issue 28, part 5).
    fn choose(&mut self, _game: &Game, _seat: Seat, moves: &[Move]) -> usize {
        if moves.len() > self.weights.capacity() {
            return RandomBot::weighted_pick(moves, |bound| self.rng.below(bound));
        }
        self.weights.clear();
        self.weights.extend(moves.iter().map(RandomBot::weight));
        pick_by_weight(&self.weights, |bound| self.rng.below(bound))
    }
}
