//! The rating pools: each is a ruleset a rating is kept for, and the rules a seek in it plays.

use catan_engine::{BoardSpec, GameConfig, ScenarioId};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The turn timer a rated game gets unless its creator chose one: an absent player's seat is
/// played by the timer's bot (and the seat counts as abandoned if it stays on autoplay to the
/// end), so that every rated game ends.
pub const RATED_TURN_TIMER_SECONDS: u32 = 120;

/// A rating pool: players have one rating per pool, because skill at one ruleset says little
/// about another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Pool {
    /// The base game, 2 to 4 players.
    Base,
    /// The base game with the 5-6 player extension.
    FiveSix,
    /// Seafarers, any scenario but Wonders of Catan, with or without the 5-6 extension
    /// (a seek plays New Shores).
    Seafarers,
    /// Wonders of Catan, 3 or 4 players.
    Wonders,
    /// Cities & Knights, with or without the 5-6 extension or Seafarers.
    CitiesAndKnights,
}

impl Pool {
    pub const ALL: [Pool; 5] = [Pool::Base, Pool::FiveSix, Pool::Seafarers, Pool::Wonders, Pool::CitiesAndKnights];

    /// The snake_case name, as serialized and as stored.
    pub const fn name(self) -> &'static str {
        match self {
            Pool::Base => "base",
            Pool::FiveSix => "five_six",
            Pool::Seafarers => "seafarers",
            Pool::Wonders => "wonders",
            Pool::CitiesAndKnights => "cities_and_knights",
        }
    }

    /// Reads a pool's name; `None` for any other.
    pub fn parse(name: &str) -> Option<Pool> {
        Pool::ALL.into_iter().find(|pool| pool.name() == name)
    }

    /// The pool of a game played with `config`, or `None` if its ruleset has no rating (the
    /// Jungle and Big River variants: too few games to rate them apart, and too different to
    /// mix into the base game's).
    pub fn of(config: &GameConfig) -> Option<Pool> {
        if config.jungle || config.big_river {
            return None;
        }
        Some(if config.cities_and_knights {
            Pool::CitiesAndKnights
        } else if config.seafarers && config.scenario == Some(ScenarioId::Wonders) {
            Pool::Wonders
        } else if config.seafarers {
            Pool::Seafarers
        } else if config.five_six_extension {
            Pool::FiveSix
        } else {
            Pool::Base
        })
    }

    /// The seats a game of this pool may have.
    pub const fn players(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Pool::Base => 2..=4,
            Pool::FiveSix => 5..=6,
            Pool::Seafarers | Pool::Wonders | Pool::CitiesAndKnights => 3..=4,
        }
    }

    /// The rules of a game a seek of this pool starts: a random board where the ruleset has
    /// one, New Shores for Seafarers, and the rated turn timer.
    pub fn config(self, players: u8) -> GameConfig {
        let mut config = GameConfig { players, ..GameConfig::default() };
        match self {
            Pool::Base => {}
            Pool::FiveSix => config.five_six_extension = true,
            Pool::Seafarers => {
                config.seafarers = true;
                config.scenario = Some(ScenarioId::NewShores);
            }
            Pool::Wonders => {
                config.seafarers = true;
                config.scenario = Some(ScenarioId::Wonders);
            }
            Pool::CitiesAndKnights => config.cities_and_knights = true,
        }
        if !config.seafarers {
            config.board = BoardSpec::Random;
        }
        config.turn_timer_seconds = Some(RATED_TURN_TIMER_SECONDS);
        config
    }
}

impl std::fmt::Display for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use catan_engine::Game;

    use super::*;

    #[test]
    fn every_pool_starts_a_game_of_its_own_pool_at_every_seat_count() {
        for pool in Pool::ALL {
            assert_eq!(Pool::parse(pool.name()), Some(pool));
            for players in pool.players() {
                let config = pool.config(players);
                assert_eq!(Pool::of(&config), Some(pool), "{pool} with {players}");
                Game::start(config, 7).unwrap_or_else(|e| panic!("{pool} with {players}: {e}"));
            }
        }
    }

    #[test]
    fn jungle_and_big_river_have_no_pool() {
        let jungle = GameConfig { jungle: true, jungle_number: Some(5), ..GameConfig::default() };
        assert_eq!(Pool::of(&jungle), None);
        let river = GameConfig { big_river: true, ..GameConfig::default() };
        assert_eq!(Pool::of(&river), None);
        let five_six_knights =
            GameConfig { five_six_extension: true, cities_and_knights: true, ..GameConfig::default() };
        assert_eq!(Pool::of(&five_six_knights), Some(Pool::CitiesAndKnights));
    }
}
