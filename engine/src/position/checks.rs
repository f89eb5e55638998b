//! Building a [`Game`] from a [`Setup`], checking each part as it goes in (see the module
//! documentation of [`position`](super) for the list, with the rules behind each check).

use std::{iter, sync::Arc};

use super::{PositionError, PositionPart, SeatSetup, Setup, TurnSetup};
use crate::{
    game::{trading::MAX_OPEN_OFFERS_PER_SEAT, Game},
    model::{Building, BuildingKind, DevCard, DevCards, Phase, Pieces, Resource, Resources, Seat, Turn},
    ruleset::{Components, Ruleset},
    view::{BuildingView, RoadView},
};

use PositionError as E;

/// Minimum road length for Longest Road (B-LR-3) and played knights for Largest Army (B-LA-1).
const LONGEST_ROAD_MINIMUM: u32 = 5;
const LARGEST_ARMY_MINIMUM: u32 = 3;

/// The cards the seats hold, per resource (saturating: a setup may hold absurd counts).
fn hands(seats: &[SeatSetup]) -> Resources {
    seats.iter().fold(Resources::ZERO, |sum, seat| sum + seat.resources)
}

/// The development cards the seats hold or played, per kind.
fn cards_out(seats: &[SeatSetup]) -> DevCards {
    seats.iter().fold(DevCards::default(), |sum, seat| {
        sum + seat.dev_cards + seat.new_dev_cards + DevCards::of(DevCard::Knight, seat.knights_played)
    })
}

/// The bank the hands leave: the game's bank less the hands; `None` when they hold more.
pub(super) fn derived_bank(components: &Components, seats: &[SeatSetup]) -> Option<Resources> {
    components.bank.checked_sub(&hands(seats))
}

/// The deck the seats leave: the game's deck less the cards held and the knights played.
pub(super) fn derived_deck(components: &Components, seats: &[SeatSetup]) -> Option<DevCards> {
    components.development_deck.checked_sub(&cards_out(seats))
}

/// Validates `setup` and builds its game.
pub(super) fn build(setup: Setup) -> Result<Game, PositionError> {
    // A reader's view of a position: its hidden hands dealt first (`redact`).
    let game = build_parts(super::redact::deal(setup)?)?;
    check_awards(&game)?;
    check_not_won(game)
}

/// Builds `setup`'s game with every check but those of the awards and of a win already due.
/// The base game's part is checked here; each extension of the game checks and places its
/// own part through its position hooks (`Extension::place_position_pieces`, before the
/// supply is counted, and `Extension::place_position`, once the base game's part stands).
fn build_parts(setup: Setup) -> Result<Game, PositionError> {
    // The configuration and the board's topology, as a new game checks them.
    let rules = Arc::new(Ruleset::build(&setup.config)?);
    let mut game =
        Game::started(setup.config.clone(), Arc::clone(&rules), setup.board.clone(), setup.first_seat, setup.seed)?;
    for extension in &rules.extensions {
        extension.check_custom_board(game.board.layout())?;
    }
    let players = usize::from(game.config.players);
    let in_game = |seat: Seat| if seat.index() < players { Ok(()) } else { Err(E::UnknownSeat(seat)) };
    in_game(setup.first_seat)?;
    in_game(setup.turn.active)?;
    if let Some((i, _)) = setup.seats.iter().enumerate().skip(players).find(|(_, s)| **s != SeatSetup::default()) {
        return Err(E::UnknownSeat(Seat(u8::try_from(i).unwrap_or(u8::MAX))));
    }
    // A part of an expansion that is not in this game.
    let claimed = |part: &PositionPart| rules.extensions.iter().any(|e| e.position_parts().contains(part));
    if let Some(part) = PositionPart::ALL.iter().find(|part| part.given(&setup) && !claimed(part)) {
        return Err(E::NotInThisGame(part.described()));
    }
    let seats = &setup.seats[..setup.seats.len().min(players)];

    for (i, held) in seats.iter().enumerate() {
        let player = &mut game.players[i];
        player.resources = held.resources;
        player.dev_cards = held.dev_cards;
        player.new_dev_cards = held.new_dev_cards;
        player.knights_played = held.knights_played;
    }
    place_buildings(&mut game, &setup.buildings)?;
    place_roads(&mut game, &setup.roads)?;
    for extension in &rules.extensions {
        extension.place_position_pieces(&mut game, &setup)?;
    }
    count_pieces(&mut game, rules.components.pieces)?;
    check_connected(&game, &setup.roads)?;

    game.robber = match setup.robber {
        None => None,
        Some(hex) => {
            let h = game.board.hex(hex).ok_or(E::UnknownHex(hex))?;
            if !game.board.is_land_hex(h) {
                return Err(E::RobberNotOnLand(hex));
            }
            Some(h)
        }
    };
    game.bank = conserved_bank(&rules.components, seats, setup.bank)?;
    game.deck = conserved_deck(&rules.components, seats, setup.deck)?;

    let turn = &setup.turn;
    if let Some((red, white)) = turn.dice {
        if !(1..=6).contains(&red) || !(1..=6).contains(&white) {
            return Err(E::InvalidTurn(format!("({red}, {white}) are not two dice of 1 to 6 (B-CMP-9)")));
        }
    }
    match (setup.winner, &setup.phase) {
        (Some(seat), Phase::GameOver) => in_game(seat)?,
        (None, Phase::GameOver) => return Err(E::InvalidPhase("game_over needs a winner (B-WIN-4)".into())),
        (Some(_), _) => return Err(E::InvalidPhase("a game with a winner is over: phase game_over (B-WIN-4)".into())),
        (None, _) => {}
    }
    for holder in [setup.longest_road, setup.largest_army].into_iter().flatten() {
        in_game(holder)?;
    }
    for extension in &rules.extensions {
        extension.place_position(&mut game, &setup)?;
    }
    // The phases and offers last: what they allow may depend on an extension's part (the
    // knights and walls of Cities & Knights).
    super::phases::check_phases(&game, &setup.phase, &setup.then, turn)?;
    check_offers(&game, &setup.offers, &setup.phase, &setup.then, turn)?;

    game.events_applied = setup.events_applied;
    game.turn = Turn {
        number: turn.number,
        active: turn.active,
        rolled: turn.dice.is_some(),
        last_roll: turn.dice,
        dev_card_played: turn.dev_card_played,
        built_or_bought: turn.built_or_bought,
    };
    let Setup { phase, then, longest_road, largest_army, offers, next_offer_id, winner, .. } = setup;
    game.phase = phase;
    game.then = then.into();
    game.longest_road = longest_road;
    game.largest_army = largest_army;
    game.next_offer_id = offers.iter().map(|o| o.id.saturating_add(1)).fold(next_offer_id.max(1), u32::max);
    game.offers = offers;
    game.winner = winner;

    // Pieces were placed by hand, not by events: nothing measured on the way stands.
    game.routes.forget_all();
    game.pieces.forget_all();
    Ok(game)
}

/// Builds `setup`'s game with every check but those of the awards and of a win already due:
/// for measuring the roads of a position being set up.
pub(super) fn build_for_measuring(setup: Setup) -> Result<Game, PositionError> {
    build_parts(setup)
}

fn check_not_won(game: Game) -> Result<Game, PositionError> {
    if game.winner.is_none() && !game.phase.is_between_turns() {
        let seat = game.turn.active;
        let points = game.victory_points(seat);
        // WON-11: a variant's own victory rule decides, as in play.
        if game.victory_verdict(seat, points).is_some() {
            return Err(E::AlreadyWon { seat, points });
        }
    }
    Ok(game)
}

/// B-BLD-7 one building per vertex; B-BLD-4, B-GEO-9 the distance rule.
fn place_buildings(game: &mut Game, buildings: &[BuildingView]) -> Result<(), PositionError> {
    let mut placed = Vec::with_capacity(buildings.len());
    for b in buildings {
        if b.seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(b.seat));
        }
        let v = game.board.vertex(b.vertex).ok_or(E::UnknownVertex(b.vertex))?;
        let slot = &mut game.buildings[v as usize];
        if slot.is_some() {
            return Err(E::VertexOccupied(b.vertex));
        }
        *slot = Some(Building { seat: b.seat, kind: b.kind });
        placed.push(v);
    }
    for (b, &v) in buildings.iter().zip(&placed) {
        if let Some(n) = game.board.neighbours_of(v).find(|&n| game.buildings[n as usize].is_some()) {
            return Err(E::BuildingsTooClose(b.vertex, game.board.vertices[n as usize]));
        }
    }
    Ok(())
}

/// B-BLD-7 one road per edge; B-GEO-9 only on edges that touch land.
fn place_roads(game: &mut Game, roads: &[RoadView]) -> Result<(), PositionError> {
    for r in roads {
        if r.seat.index() >= game.players.len() {
            return Err(E::UnknownSeat(r.seat));
        }
        let e = game.board.edge(r.edge).ok_or(E::UnknownEdge(r.edge))?;
        if !game.board.edge_is_land[e as usize] {
            return Err(E::EdgeNotBuildable(r.edge));
        }
        let slot = &mut game.roads[e as usize];
        if slot.is_some() {
            return Err(E::EdgeOccupied(r.edge));
        }
        *slot = Some(r.seat);
    }
    Ok(())
}

/// B-CMP-7, B-BLD-2, SEA-1: no more pieces on the board than the supply; what is left stays
/// in it.
fn count_pieces(game: &mut Game, supply: Pieces) -> Result<(), PositionError> {
    // A building may hold no piece of the supply by an extension's rules (CK-BAR-8).
    let rules = game.shared_rules();
    let holds_no_piece: Vec<u16> = (0..game.board.vertices.len() as u16)
        .filter(|&v| game.buildings[v as usize].is_some() && rules.extensions.iter().any(|e| e.holds_no_piece(game, v)))
        .collect();
    for (i, player) in game.players.iter_mut().enumerate() {
        let seat = Seat(i as u8);
        let kind_count = |kind| {
            let placed = game.buildings.iter().enumerate().filter(|(v, _)| !holds_no_piece.contains(&(*v as u16)));
            placed.filter_map(|(_, b)| *b).filter(|b| b.seat == seat && b.kind == kind).count()
        };
        let placed = [
            ("roads", game.roads.iter().filter(|r| **r == Some(seat)).count(), supply.roads),
            ("settlements", kind_count(BuildingKind::Settlement), supply.settlements),
            ("cities", kind_count(BuildingKind::City), supply.cities),
            ("ships", game.ships.iter().filter(|s| **s == Some(seat)).count(), supply.ships),
        ];
        for (piece, placed, supply) in placed {
            if placed > usize::from(supply) {
                return Err(E::TooManyPieces { seat, piece, placed: placed as u32, supply: u32::from(supply) });
            }
        }
        let left = |placed: usize, supply: u8| supply - placed as u8;
        player.supply = supply;
        player.pieces_left = Pieces {
            roads: left(placed[0].1, supply.roads),
            settlements: left(placed[1].1, supply.settlements),
            cities: left(placed[2].1, supply.cities),
            ships: left(placed[3].1, supply.ships),
        };
    }
    Ok(())
}

/// B-BLD-3 as play leaves it: every road is in a network of its owner's roads that reaches
/// one of its owner's buildings. An opponent's building inside the network does not cut it
/// here (it was built after the roads, which stay).
fn check_connected(game: &Game, roads: &[RoadView]) -> Result<(), PositionError> {
    let reached = reached_from_buildings(game, &game.roads);
    for r in roads {
        if game.board.edge(r.edge).is_some_and(|e| !reached[e as usize]) {
            return Err(E::RoadNotConnected { seat: r.seat, edge: r.edge });
        }
    }
    Ok(())
}

/// The edges of `pieces` (roads or ships, by edge) that a walk from each seat's buildings
/// along that seat's own pieces of the kind reaches.
pub(crate) fn reached_from_buildings(game: &Game, pieces: &[Option<Seat>]) -> Vec<bool> {
    let board = &game.board;
    let mut reached = vec![false; board.edges.len()];
    let mut stack: Vec<u16> = Vec::new();
    for seat in game.seats() {
        stack.extend(
            (0..board.vertices.len() as u16).filter(|&v| game.buildings[v as usize].is_some_and(|b| b.seat == seat)),
        );
        while let Some(at) = stack.pop() {
            for e in board.edges_of(at) {
                if pieces.get(e as usize) == Some(&Some(seat)) && !reached[e as usize] {
                    reached[e as usize] = true;
                    stack.push(board.other_end(e, at));
                }
            }
        }
    }
    reached
}

/// B-CMP-5: bank plus hands is the game's bank, per resource.
fn conserved_bank(
    components: &Components,
    seats: &[SeatSetup],
    bank: Option<Resources>,
) -> Result<Resources, PositionError> {
    let held = hands(seats);
    let expected = components.bank;
    let total = bank.map_or(held, |bank| bank + held);
    for resource in Resource::ALL {
        let (held, expected) = (total.get(resource), expected.get(resource));
        let fits = if bank.is_some() { held == expected } else { held <= expected };
        if !fits {
            return Err(E::ResourcesNotConserved { resource, held, expected });
        }
    }
    Ok(bank.unwrap_or(expected - held))
}

/// B-CMP-6: deck plus cards held plus knights played never exceeds the game's deck.
fn conserved_deck(
    components: &Components,
    seats: &[SeatSetup],
    deck: Option<DevCards>,
) -> Result<DevCards, PositionError> {
    let out = cards_out(seats);
    let expected = components.development_deck;
    let total = deck.map_or(out, |deck| deck + out);
    for card in DevCard::ALL {
        let (held, expected) = (total.get(card), expected.get(card));
        if held > expected {
            return Err(E::DevCardsNotConserved { card, held, expected });
        }
    }
    Ok(deck.unwrap_or(expected - out))
}

/// Open offers: well-formed (B-TRD-7, B-TRD-8), made to other seats, with the active player
/// on one side (B-TRD-5), open only where trading is.
fn check_offers(
    game: &Game,
    offers: &[crate::TradeOffer],
    phase: &Phase,
    then: &[Phase],
    turn: &TurnSetup,
) -> Result<(), PositionError> {
    let players = game.players.len();
    let trading = match phase {
        Phase::Main | Phase::SpecialBuilding { .. } => true,
        Phase::RoadBuilding { .. } | Phase::RelocateKnight { .. } => then.first() == Some(&Phase::Main),
        _ => false,
    };
    for (i, offer) in offers.iter().enumerate() {
        let bad = |reason| Err(E::InvalidOffer { id: offer.id, reason });
        let parties = iter::once(&offer.from).chain(&offer.to).chain(&offer.accepted_by).chain(&offer.declined_by);
        if let Some(unknown) = parties.into_iter().find(|s| s.index() >= players) {
            return Err(E::UnknownSeat(*unknown));
        }
        if !trading {
            return bad("offers are open only in the main phase or a special building phase (B-TRD-5, X56-8)");
        }
        if offer.id == 0 || offers[..i].iter().any(|o| o.id == offer.id) {
            return bad("offer ids are unique and start at 1");
        }
        if offer.names_commodities() && !game.config.cities_and_knights {
            return Err(E::NotInThisGame("trading commodities (CK-TRD-1)"));
        }
        if offer.give_cards().is_empty() || offer.get_cards().is_empty() {
            return bad("an offer gives and gets at least one card (B-TRD-7)");
        }
        if offer.give.overlaps(&offer.get) || offer.give_commodities.overlaps(&offer.get_commodities) {
            return bad("an offer cannot give and get the same resource (B-TRD-8)");
        }
        let unique = |seats: &[Seat]| seats.iter().enumerate().all(|(j, s)| !seats[..j].contains(s));
        if offer.to.is_empty() || offer.to.contains(&offer.from) || !unique(&offer.to) {
            return bad("an offer is made to other seats, each once");
        }
        let answered = offer.accepted_by.iter().chain(&offer.declined_by);
        if !unique(&offer.accepted_by)
            || !unique(&offer.declined_by)
            || answered.clone().any(|s| !offer.to.contains(s))
            || offer.accepted_by.iter().any(|s| offer.declined_by.contains(s))
        {
            return bad("only seats an offer was made to answer it, each once");
        }
        let active = turn.active;
        let with_active = match phase {
            Phase::SpecialBuilding { seat: builder } => {
                let pair = [*builder, active];
                pair.contains(&offer.from) && offer.to.len() == 1 && pair.contains(&offer.to[0])
            }
            _ => offer.from == active || offer.to == [active],
        };
        if !with_active {
            return bad("every domestic trade has the active player on one side (B-TRD-5, X56-8)");
        }
        if offers[..i].iter().filter(|o| o.from == offer.from).count() >= MAX_OPEN_OFFERS_PER_SEAT {
            return bad("too many open offers from one seat");
        }
    }
    Ok(())
}

/// B-LR-3/4: the holder's road is 5 or more and nobody's is longer; without a holder, no
/// road of 5 or more is longer than every other (B-LR-5 sets the card aside only on a tie;
/// the engine relies on it when it skips measuring roads); B-LA-1/2/3: the holder
/// played 3 knights or more and nobody more, and without a holder nobody played 3.
fn check_awards(game: &Game) -> Result<(), PositionError> {
    if !game.rules().components.longest_road_card {
        if game.longest_road.is_some() {
            return Err(E::LongestRoad("the card is not in play in this game (WON-7)".into()));
        }
    } else if game.longest_road.is_none() {
        let lengths: Vec<u32> = game.seats().map(|s| game.road_length(s)).collect();
        let longest = lengths.iter().copied().max().unwrap_or(0);
        if longest >= LONGEST_ROAD_MINIMUM && lengths.iter().filter(|&&l| l == longest).count() == 1 {
            let seat = lengths.iter().position(|&l| l == longest).unwrap_or(0);
            return Err(E::LongestRoad(format!(
                "seat {seat}'s road of {longest} is the only longest, but nobody holds the card (B-LR-3, B-LR-5)"
            )));
        }
    }
    if let Some(holder) = game.longest_road {
        let length = game.road_length(holder);
        if length < LONGEST_ROAD_MINIMUM {
            return Err(E::LongestRoad(format!("seat {holder} holds it with a road of {length}; it takes 5 (B-LR-3)")));
        }
        if let Some((seat, longer)) = game.seats().map(|s| (s, game.road_length(s))).find(|(_, l)| *l > length) {
            return Err(E::LongestRoad(format!(
                "seat {seat}'s road of {longer} is longer than holder {holder}'s {length} (B-LR-4, B-LR-5)"
            )));
        }
    }
    if !game.rules().components.largest_army_card {
        // PIR-17: no Largest Army on The Pirate Islands, whatever the knights played.
        return match game.largest_army {
            Some(_) => Err(E::LargestArmy("the card is not in play in this game (PIR-17)".into())),
            None => Ok(()),
        };
    }
    let knights = |seat: Seat| game.players[seat.index()].knights_played;
    match game.largest_army {
        Some(holder) => {
            let played = knights(holder);
            if played < LARGEST_ARMY_MINIMUM {
                return Err(E::LargestArmy(format!(
                    "seat {holder} holds it with {played} knights played; it takes 3 (B-LA-1)"
                )));
            }
            if let Some(seat) = game.seats().find(|&s| knights(s) > played) {
                return Err(E::LargestArmy(format!(
                    "seat {seat} played {} knights, more than holder {holder}'s {played} (B-LA-2)",
                    knights(seat)
                )));
            }
        }
        None => {
            if let Some(seat) = game.seats().find(|&s| knights(s) >= LARGEST_ARMY_MINIMUM) {
                return Err(E::LargestArmy(format!(
                    "seat {seat} played {} knights, but nobody holds it (B-LA-1, B-LA-3)",
                    knights(seat)
                )));
            }
        }
    }
    Ok(())
}
