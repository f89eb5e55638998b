//! The science deck's cards (CK-PC-7): Alchemist, Crane, Engineer, Inventor, Irrigation,
//! Medicine, Mining, Road Building, Smith. Printer, the deck's VP card, is never played.
//!
//! - Alchemist `{red, white}`: before the roll (CK-TURN-1), the number dice are the chosen
//!   ones; the event die is still rolled and resolved first (CK-TURN-2/3), by the same roll
//!   as `roll_dice`.
//! - Crane: sets the turn's crane flag (`cards/mod.rs`); the next `improvement_built` costs
//!   one commodity less (`improvements.rs`) and uses it up. A second Crane while one waits is
//!   not refused, but does not combine: the next improvement is still one commodity less.
//! - Engineer `{vertex}`: a city wall for free, where CK-WALL-1 allows one.
//! - Inventor `{hexes}`: swaps two number tokens, neither a 2, 12, 6 or 8
//!   (`number_tokens_swapped`, applied to the board: production, views and bots read the new
//!   numbers).
//! - Irrigation / Mining: 2 grain / 2 ore for each fields / mountains hex touching one of the
//!   seat's settlements or cities (a hex counts once, the robber does not matter), as far as
//!   the bank has them (`resources_harvested`). A play that would give nothing is refused:
//!   `no_hex_to_harvest` when no such hex touches the seat's buildings, `bank_shortage`
//!   when the bank has none of the resource.
//! - Medicine `{vertex}`: a city replaces the seat's settlement for 2 ore + 1 grain
//!   (`city_built` with that cost; a pillaged city without a piece takes none back, CK-BAR-8).
//! - Road Building: two free roads, placed with `build_road` in the base game's
//!   `road_building` phase, after which the main phase resumes; refused with
//!   `no_pieces_left` or `no_legal_road` when no road can be placed.
//! - Smith `{knights}`: one or two of the seat's knights, each promoted once for free, in
//!   the order named (CK-KNT-3: once per turn, a piece of the rank in the supply, mighty with
//!   Politics 3).

use super::ProgressPlay;
use crate::{
    board::{HexCoord, Terrain, VertexId, NONE},
    chance::Chance,
    ext::cities_knights::{
        knights::{promotion, promotion_after, wall_site},
        CitiesKnights, CitiesKnightsState, ProgressCard,
    },
    game::routes::FreePiece,
    game::Game,
    model::{BuildingKind, InlineList, Phase, Resource, Resources, Seat},
    protocol::{Event, Move, RuleError},
};

/// Medicine's price for a city: 2 ore + 1 grain (CK-PC-7).
const MEDICINE_COST: Resources = Resources::new(0, 0, 0, 1, 2);
/// What Irrigation and Mining give per hex (CK-PC-7).
const PER_HEX: u32 = 2;
/// The most knights a Smith promotes (CK-PC-7).
const SMITH_KNIGHTS: usize = 2;
const _: () = assert!(SMITH_KNIGHTS == 2, "smith_promotions() measures a second knight after the first only");
/// The tokens an Inventor never moves (CK-PC-7).
const FIXED_NUMBERS: [u8; 4] = [2, 12, 6, 8];

/// The effect of a card of this deck, played by `seat`, into `events`; `game` is the state
/// after the card left the hand.
pub(super) fn play(
    ck: &CitiesKnights,
    game: &Game,
    seat: Seat,
    play: &ProgressPlay,
    chance: &mut dyn Chance,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let effect = match play {
        ProgressPlay::Alchemist { red, white } => {
            for die in [*red, *white] {
                if !(1..=6).contains(&die) {
                    return Err(RuleError::DieOutOfRange(die));
                }
            }
            ck.roll_into(game, seat, Some((*red, *white)), chance, events);
            return Ok(());
        }
        // The flag is set when the play is applied (`cards::apply`).
        ProgressPlay::Crane => return Ok(()),
        ProgressPlay::Engineer { vertex } => {
            wall_site(game, seat, *vertex)?;
            Event::CityWallBuilt { seat, vertex: *vertex, cost: Resources::ZERO }
        }
        ProgressPlay::Inventor { hexes } => {
            let numbers = swappable(game, *hexes)?;
            Event::NumberTokensSwapped { seat, hexes: *hexes, numbers }
        }
        ProgressPlay::Irrigation => harvest(game, seat, Terrain::Fields, Resource::Grain, "fields")?,
        ProgressPlay::Mining => harvest(game, seat, Terrain::Mountains, Resource::Ore, "mountains")?,
        ProgressPlay::Medicine { vertex } => medicine(game, seat, *vertex)?,
        ProgressPlay::RoadBuilding => {
            let pieces = game.free_route_pieces(seat);
            if pieces == 0 {
                return Err(RuleError::NoPiecesLeft("roads"));
            }
            if !game.has_free_route_site(seat, FreePiece::None) {
                return Err(RuleError::NoLegalRoad);
            }
            game.interrupt(Phase::RoadBuilding { roads_left: pieces.min(2) })
        }
        ProgressPlay::Smith { knights } => {
            return smith_promotions(game, seat, knights, |promoted| events.push(promoted))
        }
        _ => return Err(RuleError::NotInThisGame("this progress card's effect")),
    };
    events.push(effect);
    Ok(())
}

/// Every way `seat` may play `card` of this deck now (`game` still has it in the hand; none
/// of this deck's checks looks at the hand).
pub(super) fn plays(_ck: &CitiesKnights, game: &Game, seat: Seat, card: ProgressCard, moves: &mut Vec<Move>) {
    let mut add = |play: ProgressPlay| moves.push(Move::PlayProgressCard { play });
    let board = game.board();
    match card {
        ProgressCard::Alchemist => {
            for red in 1..=6 {
                for white in 1..=6 {
                    add(ProgressPlay::Alchemist { red, white });
                }
            }
        }
        ProgressCard::Crane => add(ProgressPlay::Crane),
        ProgressCard::Engineer => {
            for vertex in own_buildings(game, seat, BuildingKind::City) {
                if wall_site(game, seat, vertex).is_ok() {
                    add(ProgressPlay::Engineer { vertex });
                }
            }
        }
        ProgressCard::Inventor => {
            // Which hexes may swap, marked on the stack (a hex's index fits a byte).
            let mut open = [false; 256];
            for (h, &hex) in board.hexes.iter().enumerate().take(open.len()) {
                open[h] = swappable_token(game, hex).is_ok();
            }
            let open_hexes = || board.hexes.iter().enumerate().filter(|&(h, _)| open.get(h) == Some(&true));
            for (_, &a) in open_hexes() {
                for (_, &b) in open_hexes().filter(|&(_, &b)| b != a) {
                    add(ProgressPlay::Inventor { hexes: [a, b] });
                }
            }
        }
        ProgressCard::Irrigation if harvest(game, seat, Terrain::Fields, Resource::Grain, "fields").is_ok() => {
            add(ProgressPlay::Irrigation)
        }
        ProgressCard::Mining if harvest(game, seat, Terrain::Mountains, Resource::Ore, "mountains").is_ok() => {
            add(ProgressPlay::Mining)
        }
        ProgressCard::Medicine => {
            for vertex in own_buildings(game, seat, BuildingKind::Settlement) {
                if medicine(game, seat, vertex).is_ok() {
                    add(ProgressPlay::Medicine { vertex });
                }
            }
        }
        ProgressCard::RoadBuilding
            if game.free_route_pieces(seat) > 0 && game.has_free_route_site(seat, FreePiece::None) =>
        {
            add(ProgressPlay::RoadBuilding)
        }
        ProgressCard::Smith => {
            let own = || game.knights().iter().filter(|k| k.seat == seat).map(|k| k.vertex);
            let mut add_if_promotes = |knights: InlineList<VertexId, SMITH_KNIGHTS>| {
                if smith_promotions(game, seat, &knights, drop).is_ok() {
                    add(ProgressPlay::Smith { knights });
                }
            };
            for a in own() {
                add_if_promotes([a].into());
            }
            for a in own() {
                for b in own().filter(|&b| b != a) {
                    add_if_promotes([a, b].into());
                }
            }
        }
        _ => {}
    }
}

/// Decides a move that follows a card of this deck, if `mv` is one. Road Building's roads
/// are the base game's `build_road` in its `road_building` phase: no move of its own.
pub(super) fn decide_move(
    _ck: &CitiesKnights,
    _game: &Game,
    _seat: Seat,
    _mv: &Move,
    _chance: &mut dyn Chance,
    _events: &mut Vec<Event>,
) -> Option<Result<(), RuleError>> {
    None
}

/// The moves that follow this deck's cards that `seat` may make now: none beyond the base
/// game's (Road Building's roads).
pub(super) fn more_moves(_ck: &CitiesKnights, _game: &Game, _seat: Seat, _moves: &mut Vec<Move>) {}

/// Applies this deck's events: the Crane waiting for the next improvement is used up by it.
pub(super) fn apply(state: &mut CitiesKnightsState, event: &Event, _phase: &Phase) {
    if let Event::ImprovementBuilt { .. } = event {
        state.card_turn.crane = false;
    }
}

impl Game {
    /// Applies an Inventor's swap (CK-PC-7) to the board.
    pub(crate) fn swap_number_tokens(&mut self, hexes: [HexCoord; 2]) {
        if let (Some(a), Some(b)) = (self.board.hex(hexes[0]), self.board.hex(hexes[1])) {
            std::sync::Arc::make_mut(&mut self.board).swap_numbers(a, b);
        }
    }
}

/// Inventor: the two tokens, if both may be swapped.
fn swappable(game: &Game, hexes: [HexCoord; 2]) -> Result<[u8; 2], RuleError> {
    let first = swappable_token(game, hexes[0])?;
    let second = swappable_token(game, hexes[1])?;
    if hexes[0] == hexes[1] {
        return Err(RuleError::SameHexTwice(hexes[0]));
    }
    Ok([first, second])
}

/// Inventor: the token on `hex`, if it may move (there is one, and it is no 2, 12, 6 or 8).
fn swappable_token(game: &Game, hex: HexCoord) -> Result<u8, RuleError> {
    let h = game.board().hex(hex).ok_or(RuleError::UnknownHex(hex))?;
    match game.board().numbers[h as usize] {
        Some(n) if !FIXED_NUMBERS.contains(&n) => Ok(n),
        _ => Err(RuleError::NumberNotSwappable(hex)),
    }
}

/// Irrigation, Mining: `PER_HEX` of `resource` per `terrain` hex touching one of `seat`'s
/// buildings, each hex once, the robber ignored; the bank gives what it has.
fn harvest(
    game: &Game,
    seat: Seat,
    terrain: Terrain,
    resource: Resource,
    name: &'static str,
) -> Result<Event, RuleError> {
    let board = game.board();
    let hexes = (0..board.hexes.len())
        .filter(|&h| board.terrain[h] == terrain)
        .filter(|&h| {
            board.hex_vertices[h].iter().any(|&v| v != NONE && game.building_index(v).is_some_and(|b| b.seat == seat))
        })
        .count() as u32;
    if hexes == 0 {
        return Err(RuleError::NoHexToHarvest(name));
    }
    let count = (PER_HEX * hexes).min(game.bank().get(resource));
    if count == 0 {
        return Err(RuleError::BankShortage);
    }
    Ok(Event::ResourcesHarvested { seat, resources: Resources::of(resource, count) })
}

/// Medicine: `seat`'s settlement on `vertex` becomes a city for 2 ore + 1 grain.
fn medicine(game: &Game, seat: Seat, vertex: VertexId) -> Result<Event, RuleError> {
    let v = game.board().vertex(vertex).ok_or(RuleError::UnknownVertex(vertex))?;
    if game.building_index(v).is_none_or(|b| b.seat != seat || b.kind != BuildingKind::Settlement) {
        return Err(RuleError::NotYourSettlement(vertex));
    }
    let player = game.player(seat).ok_or(RuleError::UnknownSeat(seat))?;
    if player.pieces_left().cities == 0 {
        return Err(RuleError::NoPiecesLeft("cities"));
    }
    if !player.resources().contains(&MEDICINE_COST) {
        return Err(RuleError::InsufficientResources);
    }
    Ok(Event::CityBuilt { seat, vertex, cost: MEDICINE_COST })
}

/// Smith: each knight named promoted once, for free, in order (CK-KNT-3 holds for each),
/// each promotion handed to `promoted` (the play pushes them, the listing only checks them).
fn smith_promotions(
    game: &Game,
    seat: Seat,
    knights: &InlineList<VertexId, SMITH_KNIGHTS>,
    mut promoted: impl FnMut(Event),
) -> Result<(), RuleError> {
    let &[first, ref rest @ ..] = &knights[..] else {
        return Err(RuleError::WrongKnightCount(0));
    };
    // Counted as sent: an overlong list keeps only its first knights.
    if knights.sent() > SMITH_KNIGHTS {
        return Err(RuleError::WrongKnightCount(knights.sent()));
    }
    let first_rank = promotion(game, seat, first)?;
    promoted(Event::KnightPromoted { seat, vertex: first, rank: first_rank, cost: Resources::ZERO });
    // SMITH_KNIGHTS is 2: the second knight is measured after the first's promotion.
    for &vertex in rest {
        let rank = promotion_after(game, seat, vertex, Some((first, first_rank)))?;
        promoted(Event::KnightPromoted { seat, vertex, rank, cost: Resources::ZERO });
    }
    Ok(())
}

/// The vertices of `seat`'s buildings of `kind`.
fn own_buildings(game: &Game, seat: Seat, kind: BuildingKind) -> impl Iterator<Item = VertexId> + '_ {
    let board = game.board();
    (0..board.vertices.len())
        .filter(move |&v| game.building_index(v as u16).is_some_and(|b| b.seat == seat && b.kind == kind))
        .map(|v| board.vertices[v])
}
