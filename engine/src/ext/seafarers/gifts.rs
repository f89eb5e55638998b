//! The Forgotten Tribe's gifts (FTR-7..12): the first ship placed on a gift's edge claims it:
//! a victory point, a development card from the set-aside stack, or the harbour on the edge,
//! which its claimant places at their own coast at once if they can, else keeps until they
//! can (`ftr_pending_harbour`).

use super::{scenario::ScenarioLayout, Seafarers};
use crate::{
    board::{EdgeId, HarbourKind},
    chance::{draw_card, Chance, Draw},
    config::PendingHarbour,
    game::Game,
    model::{DevCard, Phase, Seat},
    position::{phases::phase_error, PositionError},
    protocol::{
        views::{ClaimedGiftView, GiftView, PendingHarbourView, TribeView},
        Event, Move, RuleError,
    },
    Gift,
};

impl Seafarers {
    /// FTR-7: the gifts claimed by the move's ship placements, each followed by what it
    /// brings (FTR-8..10); then, if the claimant now holds a harbour and has a spot for it,
    /// the placement before anything else (FTR-10, FTR-12).
    pub(super) fn claim_gifts(
        &self,
        game: &Game,
        layout: &ScenarioLayout,
        events: &mut Vec<Event>,
        chance: &mut dyn Chance,
    ) {
        if layout.gift_edges.is_empty() && layout.gift_harbours.is_empty() {
            return;
        }
        let placed = |event: &Event| match event {
            // SCN-5: built, free (SEA-11) or in setup (SEA-5): all are `ship_built`.
            Event::ShipBuilt { seat, edge, .. } => Some((*seat, *edge)),
            Event::ShipMoved { seat, to, .. } if self.gift_on_move => Some((*seat, *to)),
            _ => None,
        };
        let builds_settlement = |event: &Event| matches!(event, Event::SettlementBuilt { .. });
        if !events.iter().any(|e| placed(e).is_some() || builds_settlement(e)) {
            return;
        }
        let move_events = events.len();
        let mut deck = *game.development_deck();
        let mut claimed_now: Vec<EdgeId> = Vec::new();
        let mut harbour_taker: Option<(Seat, HarbourKind)> = None;
        for index in 0..move_events {
            let Some((seat, edge)) = placed(&events[index]) else { continue };
            if claimed_now.contains(&edge) {
                continue;
            }
            let Some(gift) = unclaimed_gift(game, layout, edge) else { continue };
            claimed_now.push(edge);
            events.push(Event::GiftClaimed { seat, edge, gift });
            match gift {
                Gift::VictoryPoint => events.push(Event::VictoryPointGifted { seat }),
                Gift::DevelopmentCard => {
                    // FTR-8: the unseen cards are alike, so the set-aside stack's top card is
                    // drawn from all of them (see `Game::cards_for_sale`).
                    let card = draw_card(chance, Draw::DEVELOPMENT_CARD, &deck);
                    if let Some(card) = card {
                        *deck.get_mut(card) -= 1;
                    }
                    events.push(Event::DevelopmentCardGifted { seat, card });
                }
                Gift::Harbour => {
                    if let Some(kind) = harbour_on(game, edge) {
                        events.push(Event::HarbourTaken { seat, from_edge: edge, kind });
                        harbour_taker.get_or_insert((seat, kind));
                    }
                }
            }
        }
        // FTR-10: a harbour just taken is placed at once where a spot exists; FTR-12
        // (`on_next_spot`): a kept one as soon as the claimant's own settlement makes a spot.
        let settler = (0..move_events).find_map(|i| match events[i] {
            Event::SettlementBuilt { seat, .. } => Some(seat),
            _ => None,
        });
        let must_place = harbour_taker
            .map(|(seat, kind)| (seat, Some(kind)))
            .or(settler.filter(|_| self.pending_harbour == PendingHarbour::OnNextSpot).map(|seat| (seat, None)));
        let Some((seat, kind)) = must_place else { return };
        if kind.is_none() && !game.ext.seafarers.pending_harbours.iter().any(|(s, _)| *s == seat) {
            return;
        }
        let mut after = game.clone();
        for event in events.iter() {
            after.apply(event);
        }
        if after.is_over() || !has_harbour_spot(&after, seat) {
            return;
        }
        let Some(kind) = kind.or_else(|| oldest_pending(&after, seat)) else { return };
        events.push(after.interrupt(Phase::PlaceGiftHarbour { seat, kind }));
    }

    /// FTR-10..12: places the harbour the phase waits for, or (`voluntary`) the seat's oldest
    /// kept harbour in its own main phase.
    pub(super) fn decide_place_gift_harbour(
        &self,
        game: &Game,
        seat: Seat,
        edge: EdgeId,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let kind = match *game.phase() {
            Phase::PlaceGiftHarbour { seat: placing, kind } if placing == seat => kind,
            Phase::PlaceGiftHarbour { seat: placing, .. } => return Err(RuleError::NotYourTurn { active: placing }),
            Phase::Main if self.pending_harbour == PendingHarbour::Voluntary => {
                if seat != game.turn_active() {
                    return Err(RuleError::NotYourTurn { active: game.turn_active() });
                }
                oldest_pending(game, seat).ok_or(RuleError::NoGiftHarbour)?
            }
            // FTR-12 with FTR-14: in one's own special building phase too.
            Phase::SpecialBuilding { seat: building } if self.pending_harbour == PendingHarbour::Voluntary => {
                if seat != building {
                    return Err(RuleError::NotYourTurn { active: building });
                }
                oldest_pending(game, seat).ok_or(RuleError::NoGiftHarbour)?
            }
            _ => return Err(RuleError::WrongPhase("no gift harbour waits to be placed")),
        };
        if !is_harbour_spot(game, seat, edge) {
            return Err(RuleError::HarbourSpotIllegal(edge));
        }
        events.push(Event::HarbourPlaced { seat, edge, kind });
        if !matches!(game.phase(), Phase::PlaceGiftHarbour { .. }) {
            return Ok(());
        }
        // FTR-12: several kept harbours are placed one after another, oldest first, while
        // spots remain.
        let mut after = game.clone();
        after.apply(&events[events.len() - 1]);
        match oldest_pending(&after, seat).filter(|_| has_harbour_spot(&after, seat)) {
            Some(next) => events.push(game.continue_with(Phase::PlaceGiftHarbour { seat, kind: next })),
            None => events.push(game.resume()),
        }
        Ok(())
    }

    /// Every edge where `seat` may place its gift harbour now.
    pub(super) fn gift_harbour_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        let placing = match *game.phase() {
            Phase::PlaceGiftHarbour { seat: placing, .. } => placing == seat,
            Phase::Main => {
                self.pending_harbour == PendingHarbour::Voluntary
                    && seat == game.turn_active()
                    && oldest_pending(game, seat).is_some()
            }
            Phase::SpecialBuilding { seat: building } => {
                self.pending_harbour == PendingHarbour::Voluntary
                    && seat == building
                    && oldest_pending(game, seat).is_some()
            }
            _ => false,
        };
        if placing {
            moves.extend(harbour_spots(game, seat).map(|edge| Move::PlaceGiftHarbour { edge }));
        }
    }

    /// Applies the gift events to the state and the board.
    pub(super) fn apply_gift(game: &mut Game, event: &Event) {
        match event {
            Event::GiftClaimed { seat, edge, gift } => game.ext.seafarers.gifts_claimed.push((*edge, *seat, *gift)),
            Event::DevelopmentCardGifted { seat, card: Some(card) } => game.receive_gifted_card(*seat, *card),
            Event::HarbourTaken { seat, from_edge, kind } => {
                if let Some(board) = game.board.without_harbour(*from_edge) {
                    game.board = std::sync::Arc::new(board);
                }
                game.ext.seafarers.pending_harbours.push((*seat, *kind));
            }
            // The board takes the harbour in `apply_harbour`; a gift harbour leaves its holder.
            Event::HarbourPlaced { seat, kind, .. } => {
                let pending = &mut game.ext.seafarers.pending_harbours;
                if let Some(at) = pending.iter().position(|p| *p == (*seat, *kind)) {
                    pending.remove(at);
                }
            }
            _ => {}
        }
    }
}

/// The gift still on `edge`, if any: a listed gift nobody claimed, or a gift harbour still
/// on its tribe edge.
pub(super) fn unclaimed_gift(game: &Game, layout: &ScenarioLayout, edge: EdgeId) -> Option<Gift> {
    let claimed = game.ext.seafarers.gifts_claimed.iter().any(|(e, _, _)| *e == edge);
    if claimed {
        return None;
    }
    if let Some(&(_, gift)) = layout.gift_edges.iter().find(|(e, _)| *e == edge) {
        return Some(gift);
    }
    (layout.gift_harbours.contains(&edge) && harbour_on(game, edge).is_some()).then_some(Gift::Harbour)
}

/// The gifts of `gift`'s kind claimed so far, by `seat` or by anyone: the points (FTR-9), the
/// cards no longer set aside (FTR-8) and the harbours taken (FTR-10) all count here.
pub(super) fn claimed(gifts_claimed: &[(EdgeId, Seat, Gift)], seat: Option<Seat>, gift: Gift) -> u32 {
    let mine = |s: Seat| seat.is_none_or(|seat| seat == s);
    gifts_claimed.iter().filter(|&&(_, s, g)| g == gift && mine(s)).count() as u32
}

/// The gifts still on their edges (FTR-7), in the scenario's order.
fn unclaimed_gifts<'a>(game: &'a Game, layout: &'a ScenarioLayout) -> impl Iterator<Item = (EdgeId, Gift)> + 'a {
    let listed = layout.gift_edges.iter().map(|&(edge, _)| edge);
    listed
        .chain(layout.gift_harbours.iter().copied())
        .filter_map(|edge| unclaimed_gift(game, layout, edge).map(|gift| (edge, gift)))
}

/// The gifts as everyone sees them; `None` in a scenario without gifts.
pub(super) fn tribe_view(game: &Game, layout: &ScenarioLayout) -> Option<TribeView> {
    if layout.gift_edges.is_empty() && layout.gift_harbours.is_empty() {
        return None;
    }
    let gifts = unclaimed_gifts(game, layout)
        .map(|(edge, gift)| GiftView {
            edge,
            gift,
            kind: (gift == Gift::Harbour).then(|| harbour_on(game, edge)).flatten(),
        })
        .collect();
    let state = &game.ext.seafarers;
    let claimed_gifts =
        state.gifts_claimed.iter().map(|&(edge, seat, gift)| ClaimedGiftView { edge, gift, seat }).collect();
    let pending_harbours =
        state.pending_harbours.iter().map(|&(seat, kind)| PendingHarbourView { seat, kind }).collect();
    let given = claimed(&state.gifts_claimed, None, Gift::DevelopmentCard);
    let set_aside = game.rules().components.dev_cards_set_aside.saturating_sub(given);
    Some(TribeView { gifts, claimed: claimed_gifts, pending_harbours, development_cards_set_aside: set_aside })
}

/// FTR-10/12: a position waiting for a gift harbour: its placer holds one of that kind and
/// has a spot for it, and the phase it interrupted resumes after.
pub(super) fn check_gift_harbour_phase(
    game: &Game,
    seat: Seat,
    kind: HarbourKind,
    then: &[Phase],
) -> Result<(), PositionError> {
    if seat.index() >= game.players.len() {
        return Err(PositionError::UnknownSeat(seat));
    }
    if !game.ext.seafarers.pending_harbours.contains(&(seat, kind)) {
        return Err(phase_error(format!("seat {seat} holds no {kind:?} gift harbour to place (FTR-10)")));
    }
    if !has_harbour_spot(game, seat) {
        return Err(phase_error(format!("seat {seat} has no spot for a gift harbour (FTR-11)")));
    }
    if then.is_empty() {
        return Err(phase_error("a gift harbour interrupts a phase, which resumes after it (FTR-10)"));
    }
    Ok(())
}

fn harbour_on(game: &Game, edge: EdgeId) -> Option<HarbourKind> {
    game.board().layout().harbours.iter().find(|h| h.edge == edge).map(|h| h.kind)
}

fn oldest_pending(game: &Game, seat: Seat) -> Option<HarbourKind> {
    game.ext.seafarers.pending_harbours.iter().find(|(s, _)| *s == seat).map(|&(_, kind)| kind)
}

/// FTR-11: a coast edge (a land hex on one side, sea on the other) with the seat's own
/// settlement or city at one end and no harbour at either end (B-GEO-10).
fn is_harbour_spot(game: &Game, seat: Seat, edge: EdgeId) -> bool {
    game.board().edge(edge).is_some_and(|e| spot_at(game, seat, e))
}

fn spot_at(game: &Game, seat: Seat, e: u16) -> bool {
    let board = game.board();
    let [a, b] = board.edge_hexes[e as usize];
    let land = |h: u8| h != crate::board::NO_HEX && board.is_land_hex(h) && !board.is_fog_hex(h);
    let sea = |h: u8| h != crate::board::NO_HEX && board.is_sea_hex(h);
    let coast = (land(a) && sea(b)) || (sea(a) && land(b));
    let ends = board.edge_vertices[e as usize];
    coast
        && ends.iter().any(|&v| game.building_index(v).is_some_and(|b| b.seat == seat))
        && ends.iter().all(|&v| board.vertex_harbour[v as usize].is_none())
}

fn harbour_spots(game: &Game, seat: Seat) -> impl Iterator<Item = EdgeId> + '_ {
    let board = game.board();
    (0..board.edges.len() as u16).filter(move |&e| spot_at(game, seat, e)).map(move |e| board.edges[e as usize])
}

fn has_harbour_spot(game: &Game, seat: Seat) -> bool {
    harbour_spots(game, seat).next().is_some()
}

impl Game {
    /// The tribe's gifts still on their edges (FTR-7), in the scenario's order; empty in
    /// other games.
    pub fn gifts_on_edges(&self) -> Vec<(EdgeId, Gift)> {
        if !self.config().seafarers {
            return Vec::new();
        }
        let layout = self.scenario_layout();
        layout.map_or_else(Vec::new, |layout| unclaimed_gifts(self, layout).collect())
    }

    /// FTR-8: a gifted card joins the seat's cards as if bought this turn (it cannot be
    /// played before the next; a VP card counts at once).
    pub(crate) fn receive_gifted_card(&mut self, seat: Seat, card: DevCard) {
        if self.deck.get(card) == 0 {
            return;
        }
        if let Some(player) = self.players.get_mut(seat.index()) {
            *self.deck.get_mut(card) -= 1;
            *player.new_dev_cards.get_mut(card) += 1;
        }
    }
}
