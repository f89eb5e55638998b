//! The politics deck's cards (CK-PC-7): Bishop, Deserter, Diplomat, Intrigue, Saboteur, Spy,
//! Warlord, Wedding. Points are compared as everyone sees them (B-WIN-2, public points).

use super::{opponents, CardDecision, ProgressPlay};
use crate::{
    board::{EdgeId, HexCoord, VertexId},
    chance::Chance,
    ext::cities_knights::{
        actions::has_relocation_target,
        knights::{Knight, MIGHTY, PIECES_PER_RANK},
        seven::robber_victims,
        CitiesKnights, CitiesKnightsState, ProgressCard,
    },
    game::routes::Overlay,
    game::Game,
    model::{Cards, Commodities, Commodity, PendingDiscard, PerSeat, Phase, Resource, Resources, Seat},
    protocol::{Event, Move, RuleError},
};

/// The cards a Wedding asks of each richer seat.
const WEDDING_GIFT: u32 = 2;

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
    match play {
        ProgressPlay::Bishop { hex } => return bishop(ck, game, seat, *hex, chance, events),
        ProgressPlay::Deserter { target } => return deserter(game, seat, *target, events),
        ProgressPlay::Diplomat { edge, to } => return diplomat(game, seat, *edge, *to, events),
        ProgressPlay::Intrigue { vertex } => return intrigue(game, seat, *vertex, events),
        ProgressPlay::Saboteur => saboteur(game, seat, events),
        ProgressPlay::Spy { target } => return spy(game, seat, *target, events),
        ProgressPlay::Warlord => warlord(game, seat, events),
        ProgressPlay::Wedding => wedding(game, seat, events),
        _ => return Err(RuleError::NotInThisGame("this progress card's effect")),
    }
    Ok(())
}

/// Every way `seat` may play `card` of this deck now.
pub(super) fn plays(ck: &CitiesKnights, game: &Game, seat: Seat, card: ProgressCard, moves: &mut Vec<Move>) {
    let mut push = |play: ProgressPlay| moves.push(Move::PlayProgressCard { play });
    match card {
        ProgressCard::Bishop if ck.robber_may_move(game) => {
            for &hex in &game.board().hexes {
                if game.robber_target(hex).is_ok() {
                    push(ProgressPlay::Bishop { hex });
                }
            }
        }
        ProgressCard::Deserter => {
            for target in opponents(game, seat) {
                if game.knights().iter().any(|k| k.seat == target) {
                    push(ProgressPlay::Deserter { target });
                }
            }
        }
        ProgressCard::Diplomat => {
            for e in 0..game.board().edges.len() as u16 {
                let Some(owner) = game.road_index(e).filter(|&owner| is_open(game, owner, e)) else { continue };
                let edge = game.board().edges[e as usize];
                push(ProgressPlay::Diplomat { edge, to: None });
                if owner == seat {
                    game.with_copy(|after| {
                        after.apply(&Event::RoadRemoved { seat, owner, edge });
                        for t in (0..game.board().edges.len() as u16).filter(|&t| t != e) {
                            if after.road_site_is_legal(seat, t, None) {
                                push(ProgressPlay::Diplomat { edge, to: Some(game.board().edges[t as usize]) });
                            }
                        }
                    });
                }
            }
        }
        ProgressCard::Intrigue => {
            for knight in game.knights().iter().filter(|k| k.seat != seat) {
                if at_own_road(game, seat, knight.vertex) {
                    push(ProgressPlay::Intrigue { vertex: knight.vertex });
                }
            }
        }
        ProgressCard::Saboteur => push(ProgressPlay::Saboteur),
        ProgressCard::Spy => {
            for target in opponents(game, seat) {
                push(ProgressPlay::Spy { target });
            }
        }
        ProgressCard::Warlord => push(ProgressPlay::Warlord),
        ProgressCard::Wedding => push(ProgressPlay::Wedding),
        _ => {}
    }
}

/// Decides a move that follows a card of this deck, if `mv` is one.
pub(super) fn decide_move(
    _ck: &CitiesKnights,
    game: &Game,
    seat: Seat,
    mv: &Move,
    _chance: &mut dyn Chance,
    events: &mut Vec<Event>,
) -> Option<Result<(), RuleError>> {
    let decision = match game.phase() {
        Phase::CardDecision { decision } => Some(decision),
        _ => None,
    };
    Some(match (decision, mv) {
        (Some(&CardDecision::RemoveKnight { seat: owner, by }), &Move::RemoveKnight { vertex }) if seat == owner => {
            match game.knight_at(vertex) {
                Some(knight) if knight.seat == seat => {
                    desert(game, by, *knight, true, events);
                    Ok(())
                }
                _ => Err(RuleError::NotYourKnight(vertex)),
            }
        }
        (
            Some(&CardDecision::PlaceDeserterKnight { seat: owner, rank, active }),
            &Move::PlaceDeserterKnight { vertex },
        ) if seat == owner => place_deserter(game, seat, vertex, rank, active, events),
        (Some(&CardDecision::TakeProgressCard { seat: spy, target }), &Move::TakeProgressCard { card })
            if seat == spy =>
        {
            if card.is_victory_point() {
                Err(RuleError::VictoryPointCardKept(card))
            } else if game.progress_cards(target).get(card) == 0 {
                Err(RuleError::ProgressCardNotHeld(card))
            } else {
                events.extend([Event::ProgressCardTaken { seat, from: target, card: Some(card) }, game.resume()]);
                Ok(())
            }
        }
        (Some(CardDecision::GiveCards { to, pending }), Move::GiveCards { cards }) if pending.contains(&seat) => {
            give(game, seat, *to, pending, cards).map(|given| events.extend(given))
        }
        (_, Move::RemoveKnight { .. } | Move::PlaceDeserterKnight { .. })
        | (_, Move::TakeProgressCard { .. } | Move::GiveCards { .. }) => Err(RuleError::NothingToDecide),
        _ => return None,
    })
}

/// The moves that follow this deck's cards that `seat` may make now.
pub(super) fn more_moves(_ck: &CitiesKnights, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
    let Phase::CardDecision { decision } = game.phase() else { return };
    match decision {
        &CardDecision::RemoveKnight { seat: owner, .. } if owner == seat => {
            let own = game.knights().iter().filter(|k| k.seat == seat);
            moves.extend(own.map(|k| Move::RemoveKnight { vertex: k.vertex }));
        }
        &CardDecision::PlaceDeserterKnight { seat: owner, .. } if owner == seat => {
            moves.push(Move::PlaceDeserterKnight { vertex: None });
            moves.extend(
                placement_sites(game, seat)
                    .map(|v| Move::PlaceDeserterKnight { vertex: Some(game.board().vertices[v as usize]) }),
            );
        }
        &CardDecision::TakeProgressCard { seat: spy, target } if spy == seat => {
            let takeable = game.progress_cards(target);
            moves
                .extend(takeable.kinds().filter(|c| !c.is_victory_point()).map(|card| Move::TakeProgressCard { card }));
        }
        CardDecision::GiveCards { pending, .. } if pending.contains(&seat) => gift_moves(game, seat, moves),
        _ => {}
    }
}

/// Applies this deck's events.
pub(super) fn apply(state: &mut CitiesKnightsState, event: &Event, _phase: &Phase) {
    match event {
        Event::KnightDeserted { seat, vertex, .. } | Event::KnightIntrigued { displaced: seat, vertex, .. } => {
            state.knights.retain(|k| !(k.vertex == *vertex && k.seat == *seat));
        }
        Event::DeserterKnightPlaced { seat, vertex, rank, active }
            if !state.knights.iter().any(|k| k.vertex == *vertex) =>
        {
            state.knights.push(Knight {
                vertex: *vertex,
                seat: *seat,
                rank: (*rank).clamp(1, MIGHTY),
                active: *active,
                activated_this_turn: false,
                promoted_this_turn: false,
            });
        }
        // CK-PC-7 Spy: the card changes hands.
        Event::ProgressCardTaken { seat, from, card: Some(card) } => {
            let hand = CitiesKnightsState::of_seat(&mut state.progress, *from);
            if hand.get(*card) > 0 && seat != from {
                *hand.get_mut(*card) -= 1;
                *CitiesKnightsState::of_seat(&mut state.progress, *seat).get_mut(*card) += 1;
            }
        }
        _ => {}
    }
}

impl Game {
    /// CK-PC-7 Diplomat: the road on `edge` goes back to its owner's supply.
    pub(crate) fn remove_road(&mut self, owner: Seat, edge: EdgeId) {
        let Some(e) = self.board.edge(edge) else { return };
        if self.roads.get(e as usize).copied().flatten() != Some(owner) {
            return;
        }
        self.roads[e as usize] = None;
        if let Some(player) = self.players.get_mut(owner.index()) {
            player.pieces_left.roads = (player.pieces_left.roads + 1).min(player.supply.roads);
        }
    }
}

/// A seat that is in the game and not `seat`.
fn check_opponent(game: &Game, seat: Seat, target: Seat) -> Result<(), RuleError> {
    if game.player(target).is_none() {
        return Err(RuleError::UnknownSeat(target));
    }
    if target == seat {
        return Err(RuleError::NotAnOpponent(target));
    }
    Ok(())
}

/// Bishop: the robber moves (B-ROB-2/4) and one random card comes from each opponent with
/// a building on its new hex and a card in hand (CK-7-2); not before the first attack
/// (CK-BAR-10).
fn bishop(
    ck: &CitiesKnights,
    game: &Game,
    seat: Seat,
    hex: HexCoord,
    chance: &mut dyn Chance,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    if !ck.robber_may_move(game) {
        return Err(RuleError::RobberWaits);
    }
    let h = game.robber_target(hex)?;
    events.push(Event::RobberMoved { seat, hex });
    // Each victim's hand is untouched by the thefts from the others.
    events.extend(robber_victims(game, seat, h).iter().map(|victim| game.steal_card(seat, victim, chance)));
    Ok(())
}

/// Deserter: the target removes a knight of its choice (at once when it has one).
fn deserter(game: &Game, seat: Seat, target: Seat, events: &mut Vec<Event>) -> Result<(), RuleError> {
    check_opponent(game, seat, target)?;
    let mut knights = game.knights().iter().filter(|k| k.seat == target).copied();
    match (knights.next(), knights.next()) {
        (None, _) => return Err(RuleError::TargetHasNoKnight(target)),
        (Some(only), None) => desert(game, seat, only, false, events),
        _ => events.push(
            game.interrupt(Phase::CardDecision { decision: CardDecision::RemoveKnight { seat: target, by: seat } }),
        ),
    }
    Ok(())
}

/// The deserted knight leaves the board (Longest Road may change, B-LR-5, CK-KNT-9); `by`
/// may then place a knight, if it has a piece and a vertex for it. `decided` when a
/// `card_decision` phase is on (it ends or continues), else the main phase is interrupted.
fn desert(game: &Game, by: Seat, knight: Knight, decided: bool, events: &mut Vec<Event>) {
    let removed =
        Event::KnightDeserted { seat: knight.seat, vertex: knight.vertex, rank: knight.rank, active: knight.active };
    game.with_copy(|after| {
        after.apply(&removed);
        events.push(removed);
        events.extend(after.longest_road_update(Overlay::default()));
        let rank = deserter_rank(after, by, knight.rank).filter(|_| has_placement_site(after, by));
        let placing = rank.map(|rank| Phase::CardDecision {
            decision: CardDecision::PlaceDeserterKnight { seat: by, rank, active: knight.active },
        });
        match (placing, decided) {
            (Some(phase), false) => events.push(after.interrupt(phase)),
            (Some(phase), true) => events.push(after.continue_with(phase)),
            (None, true) => events.push(after.resume()),
            (None, false) => {}
        }
    })
}

/// The rank of the knight `seat` places for a deserted one of `rank`: the same, else the
/// strongest weaker one with a piece left.
fn deserter_rank(game: &Game, seat: Seat, rank: u8) -> Option<u8> {
    (1..=rank).rev().find(|&r| game.knights_of_rank(seat, r) < PIECES_PER_RANK)
}

/// CK-KNT-2: the empty buildable vertices at the end of one of `seat`'s roads (or ships,
/// SEA-15).
fn placement_sites(game: &Game, seat: Seat) -> impl Iterator<Item = u16> + '_ {
    (0..game.board().vertices.len() as u16).filter(move |&v| {
        game.board().vertex_is_buildable[v as usize]
            && game.building_index(v).is_none()
            && game.knight_owner(v).is_none()
            && game.board().edges_of(v).any(|e| game.knight_route(seat, e))
    })
}

fn has_placement_site(game: &Game, seat: Seat) -> bool {
    placement_sites(game, seat).next().is_some()
}

/// `place_deserter_knight`: on a legal vertex (CK-KNT-2), or declined.
fn place_deserter(
    game: &Game,
    seat: Seat,
    vertex: Option<VertexId>,
    rank: u8,
    active: bool,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let Some(vertex) = vertex else {
        events.push(game.resume());
        return Ok(());
    };
    let v = game.board().vertex(vertex).ok_or(RuleError::UnknownVertex(vertex))?;
    if !game.board().vertex_is_buildable[v as usize] {
        return Err(RuleError::VertexNotBuildable(vertex));
    }
    if game.building_index(v).is_some() || game.knight_owner(v).is_some() {
        return Err(RuleError::VertexOccupied(vertex));
    }
    if !game.board().edges_of(v).any(|e| game.knight_route(seat, e)) {
        return Err(RuleError::KnightNotConnected(vertex));
    }
    let placed = Event::DeserterKnightPlaced { seat, vertex, rank, active };
    let award = game.with_copy(|after| {
        after.apply(&placed);
        // CK-KNT-9, B-LR-5: the knight may break an opponent's road.
        after.longest_road_update(Overlay::default())
    });
    events.push(placed);
    events.extend(award);
    events.push(game.resume());
    Ok(())
}

/// Diplomat: a road with an end touching no other piece of its owner (road, ship,
/// building or knight). Engine decision: a road that alone joins one of its owner's knights
/// to the owner's roads stays (a knight always stands at the end of a road, CK-KNT-2).
fn is_open(game: &Game, owner: Seat, e: u16) -> bool {
    let other_route = |x: u16| {
        game.board()
            .edges_of(x)
            .any(|other| other != e && (game.road_index(other) == Some(owner) || game.ship_index(other) == Some(owner)))
    };
    let ends = game.board().edge_vertices[e as usize];
    let free = |x: u16| {
        game.building_index(x).is_none_or(|b| b.seat != owner) && game.knight_owner(x) != Some(owner) && !other_route(x)
    };
    let strands_knight = ends.iter().any(|&x| game.knight_owner(x) == Some(owner) && !other_route(x));
    ends.iter().any(|&x| free(x)) && !strands_knight
}

/// Diplomat: an open road leaves the board; one's own may go to `to` for free, a legal road
/// site once it is gone (B-BLD-3). Longest Road is measured again (B-LR-5).
fn diplomat(
    game: &Game,
    seat: Seat,
    edge: EdgeId,
    to: Option<EdgeId>,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let e = game.board().edge(edge).ok_or(RuleError::UnknownEdge(edge))?;
    let owner = game.road_index(e).ok_or(RuleError::NoRoadOnEdge(edge))?;
    if !is_open(game, owner, e) {
        return Err(RuleError::RoadNotOpen(edge));
    }
    let removed = Event::RoadRemoved { seat, owner, edge };
    game.with_copy(|after| {
        after.apply(&removed);
        events.push(removed);
        if let Some(to) = to {
            if owner != seat {
                return Err(RuleError::RoadNotYours(edge));
            }
            let t = game.board().edge(to).ok_or(RuleError::UnknownEdge(to))?;
            if t == e {
                return Err(RuleError::RoadNotMoved(edge));
            }
            after.check_road_site(t, to)?;
            if !after.road_connects(seat, t, None) {
                return Err(RuleError::RoadNotConnected(to));
            }
            let built = Event::RoadBuilt { seat, edge: to, cost: Resources::ZERO };
            after.apply(&built);
            events.push(built);
        }
        events.extend(after.longest_road_update(Overlay::default()));
        Ok(())
    })
}

/// Whether `vertex` is an end of one of `seat`'s roads (or ships: knights use both, SEA-15).
fn at_own_road(game: &Game, seat: Seat, vertex: VertexId) -> bool {
    game.board().vertex(vertex).is_some_and(|v| game.board().edges_of(v).any(|e| game.knight_route(seat, e)))
}

/// Intrigue: the opponent's knight at the end of one of the seat's roads is displaced
/// without a knight of the seat's; its owner relocates it or it returns to the supply
/// (CK-KNT-7).
fn intrigue(game: &Game, seat: Seat, vertex: VertexId, events: &mut Vec<Event>) -> Result<(), RuleError> {
    game.board().vertex(vertex).ok_or(RuleError::UnknownVertex(vertex))?;
    let knight = match game.knight_at(vertex) {
        Some(k) if k.seat != seat => *k,
        _ => return Err(RuleError::NoKnightToDisplace(vertex)),
    };
    if !at_own_road(game, seat, vertex) {
        return Err(RuleError::KnightNotAtYourRoad(vertex));
    }
    let displaced =
        Event::KnightIntrigued { seat, vertex, displaced: knight.seat, rank: knight.rank, active: knight.active };
    game.with_copy(|after| {
        after.apply(&displaced);
        events.push(displaced);
        let relocates = has_relocation_target(after, knight.seat, vertex);
        if !relocates {
            events.push(Event::KnightReturnedToSupply { seat: knight.seat, vertex, rank: knight.rank });
        }
        // CK-KNT-9, B-LR-5: the vertex no longer blocks the seat's roads.
        events.extend(after.longest_road_update(Overlay::default()));
        if relocates {
            events.push(after.interrupt(Phase::RelocateKnight {
                seat: knight.seat,
                vertex,
                rank: knight.rank,
                active: knight.active,
            }));
        }
    });
    Ok(())
}

/// Saboteur: every other seat with at least the player's points discards half of its
/// resources and commodities, rounded down, as after a 7 (`discard`, `discard_cards`).
fn saboteur(game: &Game, seat: Seat, events: &mut Vec<Event>) {
    let points = game.public_victory_points(seat);
    let pending: PerSeat<PendingDiscard> = opponents(game, seat)
        .filter(|&s| game.public_victory_points(s) >= points)
        .filter_map(|s| {
            let count = game.hand_cards(s).total() / 2;
            (count > 0).then_some(PendingDiscard { seat: s, count })
        })
        .collect();
    if !pending.is_empty() {
        events.push(game.interrupt(Phase::Discard { pending }));
    }
}

/// Spy: the target's progress cards shown to the spy alone, then one taken that is not a VP
/// card (at once when there is one kind to take).
fn spy(game: &Game, seat: Seat, target: Seat, events: &mut Vec<Event>) -> Result<(), RuleError> {
    check_opponent(game, seat, target)?;
    let cards = game.progress_cards(target);
    events.push(Event::ProgressCardsRevealed { seat, target, cards: Some(cards) });
    let mut takeable = cards.kinds().filter(|c| !c.is_victory_point());
    match (takeable.next(), takeable.next()) {
        (None, _) => {}
        (Some(card), None) => events.push(Event::ProgressCardTaken { seat, from: target, card: Some(card) }),
        _ => events
            .push(game.interrupt(Phase::CardDecision { decision: CardDecision::TakeProgressCard { seat, target } })),
    }
    Ok(())
}

/// Warlord: every inactive knight of the seat's becomes active for free, activated this turn.
fn warlord(game: &Game, seat: Seat, events: &mut Vec<Event>) {
    let inactive = game.knights().iter().filter(|k| k.seat == seat && !k.active);
    events.extend(inactive.map(|k| Event::KnightActivated { seat, vertex: k.vertex, cost: Resources::ZERO }));
}

/// Wedding: every seat with more points gives two cards of its choice; with two or fewer it
/// gives them all at once.
fn wedding(game: &Game, seat: Seat, events: &mut Vec<Event>) {
    let points = game.public_victory_points(seat);
    let mut pending = PerSeat::new();
    for giver in opponents(game, seat).filter(|&s| game.public_victory_points(s) > points) {
        let hand = game.hand_cards(giver);
        if hand.total() > WEDDING_GIFT {
            // Fits: one entry per opponent.
            let _ = pending.try_push(giver);
        } else if hand.total() > 0 {
            events.push(Event::CardsGiven { seat: giver, to: seat, count: hand.total(), cards: Some(hand) });
        }
    }
    if !pending.is_empty() {
        events.push(game.interrupt(Phase::CardDecision { decision: CardDecision::GiveCards { to: seat, pending } }));
    }
}

/// `give_cards`: exactly two cards the giver holds.
fn give(game: &Game, seat: Seat, to: Seat, pending: &[Seat], cards: &Cards) -> Result<[Event; 2], RuleError> {
    if cards.total() != WEDDING_GIFT {
        return Err(RuleError::WrongGiftCount { required: WEDDING_GIFT });
    }
    if !game.hand_cards(seat).contains(cards) {
        return Err(RuleError::InsufficientResources);
    }
    let rest: PerSeat<Seat> = pending.iter().copied().filter(|&s| s != seat).collect();
    let next = if rest.is_empty() {
        game.resume()
    } else {
        game.continue_with(Phase::CardDecision { decision: CardDecision::GiveCards { to, pending: rest } })
    };
    Ok([Event::CardsGiven { seat, to, count: WEDDING_GIFT, cards: Some(*cards) }, next])
}

/// Every choice of two cards from the seat's hand.
fn gift_moves(game: &Game, seat: Seat, moves: &mut Vec<Move>) {
    let weights = game.hand_cards(seat).weights();
    for i in 0..weights.len() {
        for j in i..weights.len() {
            let needed = if i == j { 2 } else { 1 };
            if weights[i] >= needed && weights[j] >= 1 {
                let (a, b) = (card(i), card(j));
                let cards = Cards::new(a.resources + b.resources, a.commodities + b.commodities);
                moves.push(Move::GiveCards { cards });
            }
        }
    }
}

/// One card of the kind at `index` of [`Cards::weights`].
fn card(index: usize) -> Cards {
    match index.checked_sub(Resource::ALL.len()) {
        None => Cards::of_resources(Resources::of(Resource::ALL[index], 1)),
        Some(c) => Cards::of_commodities(Commodities::of(Commodity::ALL[c], 1)),
    }
}
