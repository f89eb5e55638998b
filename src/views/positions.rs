//! Analysis of positions sent by the caller (`POST /api/v1/positions/...`): the request
//! bodies, the answers, and the engine work behind them. Nothing here reads or writes the
//! database: a position is the engine's [`Setup`] as JSON, validated into a [`Game`] for each
//! request and dropped after it.
//!
//! A chance outcome the caller names (the dice, a card drawn) is fed to the engine as a
//! scripted [`Chance`]; what it does not name is drawn from the position's own seeded stream
//! (its `seed` and `events_applied`, as [`Game::chance`]). An outcome that the move does not
//! draw, or that is impossible where it is drawn, is refused (422 `chance_not_applicable`)
//! rather than ignored.

use std::collections::VecDeque;

use catan_engine::{
    CardKind, Chance, Commodity, DevCard, Draw, Event, EventFace, Game, Move, Phase, ProgressCard, Resource, Seat,
    SeededChance, Setup, Viewer, EVENT_DIE, PROGRESS_CARD,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::{error::ApiError, views::records::Redaction};

/// The name of the position format, the body's optional `format`.
pub const POSITION_FORMAT: &str = "catan-position";

/// The version of the position format this server reads and writes. A body may leave
/// `version` out (it is then this one); any other version is 422
/// `unsupported_position_version`.
pub const POSITION_VERSION: u32 = 1;

/// The format's name, as the body may give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum PositionFormat {
    #[serde(rename = "catan-position")]
    CatanPosition,
}

/// A position and the seat whose legal moves to list.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LegalMovesOfPositionRequest {
    /// `catan-position` (optional).
    #[serde(default)]
    pub format: Option<PositionFormat>,
    /// The position format's version: 1, the current one (optional).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 1)]
    pub version: Option<u32>,
    /// The position: the engine's `Setup` (the rules, the board, the pieces, the hands, the
    /// bank and decks, the awards, the phase and whose turn it is).
    pub position: Setup,
    /// The seat whose legal moves to list.
    pub seat: Seat,
}

/// A position, the move one seat makes in it, and optionally the outcome of its chance.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveOnPositionRequest {
    /// `catan-position` (optional).
    #[serde(default)]
    pub format: Option<PositionFormat>,
    /// The position format's version: 1, the current one (optional).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 1)]
    pub version: Option<u32>,
    /// The position the move is made in (as for `legal-moves`).
    pub position: Setup,
    /// The seat that makes the move.
    pub seat: Seat,
    /// The move, as `legal-moves` lists it, e.g. `{"type": "roll_dice"}`.
    #[serde(rename = "move")]
    pub mv: Move,
    /// What chance gives the move (optional): whatever it leaves out is drawn from the
    /// position's own seeded stream (`seed`, `events_applied`).
    #[serde(default)]
    pub chance: Option<ChanceOutcome>,
}

/// The outcome of a move's random draws. Each given outcome must be drawn by the move and
/// possible where it is drawn (a card still in the deck or the victim's hand), else the
/// request is refused (422 `chance_not_applicable`): e.g. dice for a move that rolls none, or
/// a knight when the deck holds none. Fog tiles (Seafarers' fog islands) cannot be named:
/// they always come from the position's seeded stream.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"dice": [3, 4]}))]
pub struct ChanceOutcome {
    /// The roll of the number dice: `[red, white]`, each 1 to 6 (B-CMP-9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(min_items = 2, max_items = 2, value_type = Option<Vec<u8>>)]
    pub dice: Option<[u8; 2]>,
    /// Cities & Knights: the event die (CK-EVT-1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_die: Option<EventFace>,
    /// The development card a purchase draws (B-DEV-1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub development_card: Option<DevCard>,
    /// The resource card the robber (or pirate) steals (B-ROB-3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stolen_resource: Option<Resource>,
    /// Cities & Knights: the commodity card stolen instead of a resource (CK-7-2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stolen_commodity: Option<Commodity>,
    /// Cities & Knights: the progress cards drawn, in the order they are drawn (CK-PC).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub progress_cards: Vec<ProgressCard>,
}

/// The moves one seat may make in a position: the shape of `GET /games/{id}/legal-moves`.
#[derive(Debug, Serialize, ToSchema)]
pub struct PositionLegalMovesResponse {
    /// The position's `events_applied` (the events that led to it, counting
    /// `game_started`): where a game's `version` would be.
    pub version: u64,
    /// The seat asked about.
    pub you: Seat,
    /// The seats that must act before play can go on.
    pub waiting_for: Vec<Seat>,
    /// Whether the seat may make a new trade offer (`offer_trade` is not listed: its space is
    /// unbounded).
    pub may_offer_trade: bool,
    pub moves: Vec<Move>,
}

/// What a move made of a position.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveOnPositionResponse {
    /// The events the move produced, in order: unredacted for a whole position, redacted for
    /// the reader of a redacted one (as its game's log would show them to it).
    pub events: Vec<Event>,
    /// The position after the move, in the format of the request (`events_applied` counts
    /// the new events), redacted for the same reader when the request's was: a body for the
    /// next request as it stands.
    pub position: Setup,
    /// The seats that must act next (empty once the game is over).
    pub waiting_for: Vec<Seat>,
    /// What the game waits for now.
    pub phase: Phase,
    /// The winner, once the move ended the game.
    pub winner: Option<Seat>,
}

/// A game's position as one reader may see it (`GET /games/{game_id}/position`): in the
/// format the analysis endpoints take, so that `{"position": ..., "seat": ...}` from it is a
/// `POST /positions/legal-moves` body as it stands.
#[derive(Debug, Serialize, ToSchema)]
pub struct GamePositionResponse {
    pub format: PositionFormat,
    /// The position format's version: 1.
    #[schema(minimum = 1, maximum = 1)]
    pub version: u32,
    /// The log entry the position is after: the game's version then.
    pub at: i64,
    /// `spectator` or `seat` while the game runs (the position redacted for the reader: the
    /// other seats' hidden cards as counts in their `hidden`, pooled in `unseen`; no seed),
    /// `full` once it is over (everything, the seed too).
    pub redaction: Redaction,
    /// The reader's seat, with `redaction: "seat"` only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    pub position: Setup,
}

/// `game`'s position after entry `at` for a reader in `reader`'s seat (or a spectator), or
/// whole once the game is `over`.
pub fn game_position(game: &Game, at: i64, reader: Option<Seat>, over: bool) -> GamePositionResponse {
    let whole = Setup::from(game);
    let (redaction, position) = match (over, reader) {
        (true, _) => (Redaction::Full, whole),
        (false, Some(seat)) => (Redaction::Seat, whole.redacted_for(Viewer::Seat(seat))),
        (false, None) => (Redaction::Spectator, whole.redacted_for(Viewer::Spectator)),
    };
    GamePositionResponse {
        format: PositionFormat::CatanPosition,
        version: POSITION_VERSION,
        at,
        redaction,
        seat: reader.filter(|_| redaction == Redaction::Seat),
        position,
    }
}

/// Refuses a body whose `version` is not [`POSITION_VERSION`], before its position is read
/// (another version's position may not fit this one's shape).
///
/// # Errors
/// 422 `unsupported_position_version`.
pub fn check_version(body: &Value) -> Result<(), ApiError> {
    match body.get("version") {
        None | Some(Value::Null) => Ok(()),
        Some(version) if version.as_u64() == Some(u64::from(POSITION_VERSION)) => Ok(()),
        Some(version) => Err(ApiError::unprocessable(
            "unsupported_position_version",
            format!("position format version {version} is not read here; this server reads version {POSITION_VERSION}"),
        )
        .at("#/version", format!("must be {POSITION_VERSION} (got {version})"))),
    }
}

/// Validates `position` into a game and checks that `seat` is in it and, in a position
/// redacted for one reader, that `seat` is that reader: another seat's hand there is a deal
/// of the unseen cards, not its hand.
///
/// # Errors
/// 422 `invalid_position` (the check and its rules named), 422 `seat_not_in_game`, 422
/// `seat_hidden`.
fn game_of(position: Setup, seat: Seat) -> Result<Game, ApiError> {
    if let Some(unseen) = &position.unseen {
        if unseen.reader != Some(seat) {
            let whose = unseen.reader.map_or("a spectator's".to_owned(), |reader| format!("seat {reader}'s"));
            return Err(ApiError::unprocessable(
                "seat_hidden",
                format!(
                    "the position is {whose} view: it hides seat {seat}'s cards, so it cannot answer for seat {seat}"
                ),
            )
            .at_field("#/seat"));
        }
    }
    let game = position.position().map_err(|error| ApiError::Position(error).at_field("#/position"))?;
    if seat.index() >= usize::from(game.player_count()) {
        let players = game.player_count();
        return Err(ApiError::unprocessable(
            "seat_not_in_game",
            format!("seat {seat} is not in this position's game of {players} seats (0 to {})", players - 1),
        )
        .at("#/seat", format!("must be a seat from 0 to {} (got {seat})", players - 1)));
    }
    Ok(game)
}

/// Lists `request.seat`'s legal moves in its position.
///
/// # Errors
/// As [`game_of`].
pub fn legal_moves(request: LegalMovesOfPositionRequest) -> Result<PositionLegalMovesResponse, ApiError> {
    let seat = request.seat;
    let game = game_of(request.position, seat)?;
    Ok(PositionLegalMovesResponse {
        version: game.events_applied(),
        you: seat,
        waiting_for: game.waiting_for(),
        may_offer_trade: game.may_offer_trade(seat),
        moves: game.legal_moves(seat),
    })
}

/// Makes `request.mv` for `request.seat` in its position.
///
/// # Errors
/// As [`game_of`]; 422 with the rule's code for an illegal move; 422 `invalid_chance` or
/// `chance_not_applicable` for an outcome that cannot be used.
pub fn make_move(request: MoveOnPositionRequest) -> Result<MoveOnPositionResponse, ApiError> {
    let MoveOnPositionRequest { position, seat, mv, chance, .. } = request;
    // A reader's view answers in the reader's view: the deal of its hidden cards stays unseen.
    let reader = position.unseen.as_ref().map(|_| Viewer::Seat(seat));
    let mut game = game_of(position, seat)?;
    let mut scripted = Scripted::new(chance.unwrap_or_default(), game.chance())?;
    let events = game.decide(seat, &mv, &mut scripted)?;
    scripted.finish()?;
    for event in &events {
        game.apply(event);
    }
    let (events, position) = match reader {
        Some(viewer) => {
            (events.iter().map(|event| event.redacted_for(viewer)).collect(), Setup::from(&game).redacted_for(viewer))
        }
        None => (events, Setup::from(&game)),
    };
    Ok(MoveOnPositionResponse {
        events,
        position,
        waiting_for: game.waiting_for(),
        phase: game.phase().clone(),
        winner: game.winner(),
    })
}

/// The caller's outcomes, queued per draw, over the position's own stream.
struct Scripted {
    /// Per draw, the outcome indices still to draw, each with how the caller named it.
    queued: Vec<(Draw, VecDeque<(usize, String)>)>,
    fallback: SeededChance,
    /// The first outcome that could not be drawn where it was asked for.
    impossible: Option<String>,
}

impl Scripted {
    fn new(outcome: ChanceOutcome, fallback: SeededChance) -> Result<Scripted, ApiError> {
        let mut scripted = Scripted { queued: Vec::new(), fallback, impossible: None };
        if let Some([red, white]) = outcome.dice {
            for (die, face, draw) in [("red", red, Draw::RED_DIE), ("white", white, Draw::WHITE_DIE)] {
                if !(1..=6).contains(&face) {
                    return Err(ApiError::unprocessable(
                        "invalid_chance",
                        format!("the {die} die shows {face}: a die shows 1 to 6 (B-CMP-9)"),
                    )
                    .at("#/chance/dice", format!("must be two dice of 1 to 6 (got {red}, {white})")));
                }
                scripted.queue(draw, usize::from(face) - 1, format!("the {die} die's {face}"));
            }
        }
        if let Some(face) = outcome.event_die {
            scripted.queue(EVENT_DIE, face.index(), format!("the event die's {face:?}"));
        }
        if let Some(card) = outcome.development_card {
            scripted.queue(
                Draw::DEVELOPMENT_CARD,
                CardKind::index(card),
                format!("the development card {}", card.name()),
            );
        }
        if let Some(resource) = outcome.stolen_resource {
            scripted.queue(Draw::STOLEN_CARD, CardKind::index(resource), format!("a stolen {}", resource.name()));
        }
        if let Some(commodity) = outcome.stolen_commodity {
            // A hand's cards are drawn resources first, then commodities (CK-7-2).
            let index = Resource::ALL.len() + CardKind::index(commodity);
            scripted.queue(Draw::STOLEN_CARD, index, format!("a stolen {commodity:?}"));
        }
        for card in outcome.progress_cards {
            scripted.queue(PROGRESS_CARD, CardKind::index(card), format!("the progress card {card:?}"));
        }
        Ok(scripted)
    }

    fn queue(&mut self, draw: Draw, index: usize, named: String) {
        match self.queued.iter_mut().find(|(d, _)| *d == draw) {
            Some((_, queue)) => queue.push_back((index, named)),
            None => self.queued.push((draw, VecDeque::from([(index, named)]))),
        }
    }

    /// Refuses outcomes that could not be drawn, or that the move never drew.
    fn finish(self) -> Result<(), ApiError> {
        if let Some(impossible) = self.impossible {
            return Err(ApiError::unprocessable("chance_not_applicable", impossible).at_field("#/chance"));
        }
        let unused: Vec<&str> =
            self.queued.iter().flat_map(|(_, queue)| queue.iter().map(|(_, named)| named.as_str())).collect();
        if !unused.is_empty() {
            return Err(ApiError::unprocessable(
                "chance_not_applicable",
                format!("the move does not draw {}", unused.join(", ")),
            )
            .at_field("#/chance"));
        }
        Ok(())
    }
}

impl Chance for Scripted {
    fn pick(&mut self, draw: Draw, weights: &[u32]) -> usize {
        let injected = self.queued.iter_mut().find(|(d, _)| *d == draw).and_then(|(_, queue)| queue.pop_front());
        match injected {
            Some((index, _)) if weights.get(index).is_some_and(|&w| w > 0) => index,
            Some((_, named)) => {
                // Drawn from the stream instead, so the engine goes on; the move is then
                // refused in `finish`.
                self.impossible.get_or_insert_with(|| format!("{named} cannot be drawn here"));
                self.fallback.pick(draw, weights)
            }
            None => self.fallback.pick(draw, weights),
        }
    }
}
