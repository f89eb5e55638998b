//! The 5-6 player extension (X56): a 30-hex board, 24 cards per resource, 34 development
//! cards, and a special building phase for every other seat after each turn, in which that
//! seat may build and buy (and, per option, trade with the player whose turn just ended).

pub mod board;

use std::ops::RangeInclusive;

use crate::position::{PositionError, TurnSetup};
use crate::{
    board::BoardLayout,
    chance::Chance,
    config::BoardSpec,
    ext::Extension,
    game::trading::TradeWindow,
    game::Game,
    model::{DevCards, Phase, Resources, Seat},
    protocol::{Event, Move, RuleError, SetupError},
    rng::Rng,
    ruleset::{Components, Ruleset},
};

#[derive(Debug)]
pub(crate) struct FiveSix {
    /// X56-8: the builder may trade with the player whose turn just ended (else no trading).
    pub trade_with_previous_player: bool,
}

impl Extension for FiveSix {
    /// X56-8: a special building phase belongs to a seat other than the active one.
    fn check_position_phase(
        &self,
        game: &Game,
        phase: &Phase,
        _then: &[Phase],
        turn: &TurnSetup,
    ) -> Option<Result<(), PositionError>> {
        let Phase::SpecialBuilding { seat } = phase else { return None };
        let checked = if seat.index() >= game.players.len() {
            Err(PositionError::UnknownSeat(*seat))
        } else if *seat == turn.active {
            Err(PositionError::InvalidPhase(format!("seat {seat} cannot build specially in its own turn (X56-8)")))
        } else {
            Ok(())
        };
        Some(checked)
    }

    fn name(&self) -> &'static str {
        "five_six"
    }

    fn player_counts(&self) -> Option<(RangeInclusive<u8>, &'static str)> {
        Some((5..=6, "the 5-6 player extension takes 5 or 6 players"))
    }

    /// X56-5/6 and the board's pools (X56-2..4).
    fn components(&self, components: &mut Components) {
        components.bank = Resources::each(24);
        components.development_deck = DevCards::new(20, 3, 3, 3, 5);
        components.terrain = board::TERRAIN.to_vec();
        components.tokens = board::TOKEN_SEQUENCE.to_vec();
        components.harbours = board::harbour_kinds().to_vec();
    }

    fn generate_board(&self, rules: &Ruleset, rng: &mut Rng) -> Option<Result<BoardLayout, SetupError>> {
        match rules.board.spec {
            BoardSpec::Beginner => Some(Ok(board::fixed_layout())),
            BoardSpec::Random => Some(Ok(board::random_layout(rng))),
            BoardSpec::Custom(_) => None,
        }
    }

    /// X56-8: build and buy only; no development cards, no bank trades. Nobody wins until
    /// the next turn starts (X56-9, the victory check's between-turns rule).
    fn decide(
        &self,
        game: &Game,
        seat: Seat,
        mv: &Move,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Option<Result<(), RuleError>> {
        let Phase::SpecialBuilding { seat: builder } = *game.phase() else { return None };
        if seat != builder {
            return Some(Err(RuleError::NotYourTurn { active: builder }));
        }
        if let Some(result) = game.decide_build_or_buy(seat, mv, chance, events) {
            return Some(result);
        }
        Some(match mv {
            Move::EndTurn => {
                end_special_building(game, builder, events);
                Ok(())
            }
            _ => Err(RuleError::WrongPhase("a special building phase allows only building and buying")),
        })
    }

    fn legal_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) -> bool {
        let Phase::SpecialBuilding { seat: builder } = *game.phase() else { return false };
        if seat == builder {
            moves.push(Move::EndTurn);
            game.build_and_buy_moves(seat, moves);
        }
        game.trade_responses(seat, moves);
        true
    }

    /// X56-8: after the active player's turn, the next seat's special building phase.
    fn turn_end(&self, game: &Game) -> Option<Event> {
        Some(game.continue_with(Phase::SpecialBuilding { seat: game.next_seat(game.turn_active()) }))
    }

    fn trade_window(&self, game: &Game) -> Option<TradeWindow> {
        let Phase::SpecialBuilding { seat: builder } = *game.phase() else { return None };
        Some(if self.trade_with_previous_player {
            TradeWindow::Between(builder, game.turn_active())
        } else {
            TradeWindow::Closed(RuleError::WrongPhase("no trading in a special building phase"))
        })
    }
}

/// The next seat's special building phase, or the next turn once all have had one.
fn end_special_building(game: &Game, builder: Seat, events: &mut Vec<Event>) {
    events.extend(game.expire_offers());
    let next = game.next_seat(builder);
    if next == game.turn_active() {
        events.push(game.next_turn());
    } else {
        events.push(game.continue_with(Phase::SpecialBuilding { seat: next }));
    }
}
