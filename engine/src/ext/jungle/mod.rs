//! Jungle (JUN): the desert becomes a jungle with a number token that produces discoveries —
//! public counters that stand in for the wool, grain and ore of a development card.

use serde::{Deserialize, Serialize};

use crate::position::{PositionError, PositionPart, Setup};
use crate::{
    board::{layout, BoardLayout, Terrain},
    chance::Chance,
    ext::Extension,
    game::production::{building_yield, Production},
    game::Game,
    model::{cost, Resources, Seat},
    protocol::{Event, Move, RuleError, SetupError},
    rng::Rng,
    ruleset::{invalid, Components, Ruleset},
};

/// Bounded retries when the jungle's token breaks the red-number rule on a random board.
const LAYOUT_ATTEMPTS: usize = 200;

#[derive(Debug)]
pub(crate) struct Jungle {
    /// JUN-2: the jungle's number token.
    pub number: Option<u8>,
}

/// Discoveries held per seat (JUN-4).
#[derive(Debug, Clone, Default, Eq, Serialize, Deserialize)]
pub(crate) struct JungleState {
    discoveries: Vec<u32>,
}

/// Equal when every seat holds as many discoveries: the list is only as long as the last seat
/// that ever held one.
impl PartialEq for JungleState {
    fn eq(&self, other: &Self) -> bool {
        let seats = self.discoveries.len().max(other.discoveries.len());
        (0..seats).all(|i| self.discoveries(Seat(i as u8)) == other.discoveries(Seat(i as u8)))
    }
}

impl JungleState {
    /// Tests if no discovery was ever produced (the state of every game without a jungle).
    pub(crate) fn is_unused(&self) -> bool {
        self.discoveries.is_empty()
    }

    pub(crate) fn discoveries(&self, seat: Seat) -> u32 {
        self.discoveries.get(seat.index()).copied().unwrap_or(0)
    }

    /// Sets the discoveries `seat` holds (for positions built by hand).
    pub(crate) fn set_discoveries(&mut self, seat: Seat, count: u32) {
        if count > 0 || self.discoveries.len() > seat.index() {
            *self.slot(seat) = count;
        }
    }

    fn slot(&mut self, seat: Seat) -> &mut u32 {
        if self.discoveries.len() <= seat.index() {
            self.discoveries.resize(seat.index() + 1, 0);
        }
        &mut self.discoveries[seat.index()]
    }
}

pub(crate) fn check_token(name: &str, value: Option<u8>) -> Result<(), SetupError> {
    match value {
        Some(n) if (2..=12).contains(&n) && n != 7 => Ok(()),
        Some(n) => Err(invalid(format!("{name} must be 2 to 12 and not 7, not {n}"))),
        None => Err(invalid(format!("{name} is required"))),
    }
}

impl Extension for Jungle {
    fn position_parts(&self) -> &'static [PositionPart] {
        &[PositionPart::Discoveries]
    }

    /// JUN-4: the discoveries each seat holds.
    fn place_position(&self, game: &mut Game, setup: &Setup) -> Result<(), PositionError> {
        for (i, held) in setup.seats.iter().take(game.players.len()).enumerate() {
            game.ext.jungle.set_discoveries(Seat(i as u8), held.discoveries);
        }
        Ok(())
    }

    fn name(&self) -> &'static str {
        "jungle"
    }

    fn validate(&self, _rules: &Ruleset) -> Result<(), SetupError> {
        check_token("jungle_number", self.number)
    }

    fn conflicts_with(&self, others: &[&str]) -> Option<&'static str> {
        others.contains(&"five_six").then_some("jungle and big_river are defined for the 3-4 player board")
    }

    /// JUN-1/2: the desert's place and a token of its own.
    fn components(&self, components: &mut Components) {
        components.replace_terrain(Terrain::Desert, Terrain::Jungle);
        components.tokens.extend(self.number);
    }

    /// JUN-1..3: the desert becomes a jungle carrying its number; the robber starts there.
    fn generate_board(&self, rules: &Ruleset, rng: &mut Rng) -> Option<Result<BoardLayout, SetupError>> {
        let random = matches!(rules.board.spec, crate::config::BoardSpec::Random);
        for _ in 0..LAYOUT_ATTEMPTS {
            let mut board = crate::ruleset::board::standard_layout(rules, rng);
            for tile in board.hexes.iter_mut().filter(|t| t.terrain == Terrain::Desert) {
                tile.terrain = Terrain::Jungle;
                tile.number = self.number;
            }
            if !rules.board.forbid_adjacent_red_numbers || !layout::has_adjacent_red_numbers(&board.hexes) {
                return Some(Ok(board));
            }
            if !random {
                break;
            }
        }
        Some(Err(invalid(format!(
            "jungle_number {} puts two red numbers side by side on this board (B-GEO-11)",
            self.number.unwrap_or_default()
        ))))
    }

    /// JUN-5: a development card with discoveries standing in for some of its cost.
    fn decide_purchase(
        &self,
        game: &Game,
        seat: Seat,
        mv: &Move,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Option<Result<(), RuleError>> {
        let Move::BuyDevelopmentCardWithDiscoveries { replaces } = mv else { return None };
        Some((|| {
            if game.development_deck().total() == 0 {
                return Err(RuleError::DeckEmpty);
            }
            if replaces.is_empty() || !cost::DEVELOPMENT_CARD.contains(replaces) {
                return Err(RuleError::InvalidDiscoveryUse);
            }
            if game.ext.jungle.discoveries(seat) < replaces.total() {
                return Err(RuleError::NotEnoughDiscoveries(replaces.total()));
            }
            game.decide_buy_card(seat, cost::DEVELOPMENT_CARD - *replaces, replaces.total(), chance)
                .map(|b| events.push(b))
        })())
    }

    /// JUN-5: every way to let discoveries stand in for part of the cost.
    fn purchase_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        let discoveries = game.ext.jungle.discoveries(seat);
        if discoveries == 0 || game.development_deck().total() == 0 {
            return;
        }
        let hand = game.player(seat).map(|p| *p.resources()).unwrap_or_default();
        for mask in 1u8..8 {
            let replaces = Resources::new(0, 0, u32::from(mask & 1), u32::from(mask >> 1 & 1), u32::from(mask >> 2));
            if replaces.total() <= discoveries && hand.contains(&(cost::DEVELOPMENT_CARD - replaces)) {
                moves.push(Move::BuyDevelopmentCardWithDiscoveries { replaces });
            }
        }
    }

    /// JUN-3/4: a jungle that is not robbed yields a discovery per settlement, two per city.
    fn produce(&self, game: &Game, roll: u8, production: &mut Production) {
        let board = game.board();
        for &h in &board.hexes_by_number[roll as usize] {
            if board.terrain[h as usize] != Terrain::Jungle || game.robber_index() == Some(h) {
                continue;
            }
            for building in game.buildings_around(h) {
                production.discoveries[building.seat.index()] += building_yield(building.kind);
            }
        }
    }

    fn apply(&self, game: &mut Game, event: &Event) {
        let state = &mut game.ext;
        match event {
            Event::ResourcesProduced { discoveries, .. } => {
                for found in discoveries {
                    let held = state.jungle.slot(found.seat);
                    *held = held.saturating_add(found.count);
                }
            }
            Event::DevelopmentCardBought { seat, discoveries, .. } if *discoveries > 0 => {
                let held = state.jungle.slot(*seat);
                *held = held.saturating_sub(*discoveries);
            }
            _ => {}
        }
    }
}
