//! Cities & Knights' part of a position redacted for one reader (`Setup::redacted_for`) and
//! of dealing it back: the commodities and the progress cards of the seats the reader does
//! not see (the victory point progress cards lie face up and stay shown, CK-EVT-3).
//!
//! A decision that shows the reader another seat's cards shows them in its position too, as
//! the legal moves do: the Spy's player sees its target's progress cards (CK-PC-7, Spy), the
//! Master Merchant's the resources and commodities of the seat it takes from.

use super::{
    progress::{full_decks, of_track},
    types::{CardDecision, ProgressCards, Track},
};
use crate::{
    model::{Commodities, Phase, Seat},
    position::{redact::take, PositionError, Setup, Unseen},
};

/// The progress cards of `seat` in `setup`.
fn progress_of(setup: &Setup, seat: Seat) -> ProgressCards {
    setup
        .cities_knights
        .progress
        .iter()
        .filter(|(s, _)| *s == seat)
        .fold(ProgressCards::default(), |sum, (_, c)| sum + *c)
}

/// What the reader's decision shows it of another seat: (seat, its resources and
/// commodities), (seat, its progress cards).
fn shown(setup: &Setup, reader: Option<Seat>) -> (Option<Seat>, Option<Seat>) {
    let Some(reader) = reader else { return (None, None) };
    match &setup.phase {
        Phase::CardDecision { decision: CardDecision::TakeCards { seat, from, .. } } if *seat == reader => {
            (Some(*from), None)
        }
        Phase::CardDecision { decision: CardDecision::TakeProgressCard { seat, target } } if *seat == reader => {
            (None, Some(*target))
        }
        _ => (None, None),
    }
}

fn returned(setup: &Setup) -> ProgressCards {
    let mut cards = ProgressCards::default();
    for card in &setup.cities_knights.returned {
        *cards.get_mut(*card) += 1;
    }
    cards
}

pub(super) fn redact(whole: &Setup, redacted: &mut Setup) {
    let Some(unseen) = redacted.unseen.as_mut() else { return };
    let reader = unseen.reader;
    let (hand_shown, progress_shown) = shown(whole, reader);
    let players = usize::from(whole.config.players).min(whole.seats.len());
    let mut held = ProgressCards::default();
    let mut kept = Vec::new();
    for index in 0..players {
        let seat = Seat(index as u8);
        let cards = progress_of(whole, seat);
        held += cards;
        let held_here = &mut redacted.seats[index];
        let Some(hidden) = held_here.hidden.as_mut() else {
            kept.push((seat, cards));
            continue;
        };
        if hand_shown == Some(seat) {
            // The Master Merchant's player sees the hand it takes from (resources too).
            let resources = whole.seats[index].resources;
            held_here.resources = resources;
            hidden.resources = None;
            unseen.resources -= resources;
        } else {
            let commodities = whole.seats[index].commodities;
            hidden.commodities = Some(commodities.total());
            unseen.commodities += commodities;
            held_here.commodities = Commodities::default();
        }
        if progress_shown == Some(seat) {
            kept.push((seat, cards));
            continue;
        }
        let mut face_up = ProgressCards::default();
        for card in cards.kinds().filter(|card| card.is_victory_point()) {
            face_up.set(card, cards.get(card));
        }
        let face_down = cards - face_up;
        hidden.progress_cards = Some(face_down.total());
        unseen.progress_cards += face_down;
        if !face_up.is_empty() {
            kept.push((seat, face_up));
        }
    }
    let returned = returned(whole);
    // The decks never drawn join the pool: 54 less every hand and the cards put under them.
    unseen.progress_cards += full_decks() - held - returned;
    let decks = full_decks() - held;
    unseen.progress_decks = Some(Track::ALL.map(|track| of_track(&decks, track).total()));
    redacted.cities_knights.progress = kept;
}

fn short(what: &str) -> PositionError {
    PositionError::Unseen(format!("the unseen {what} cannot fill the hidden hands (CK-CMP-1/2)"))
}

pub(super) fn deal(unseen: &Unseen, setup: &mut Setup) -> Result<(), PositionError> {
    let players = usize::from(setup.config.players).min(setup.seats.len());
    let mut commodities = unseen.commodities;
    let mut counts = Vec::new();
    for index in 0..players {
        let held = &mut setup.seats[index];
        let Some(hidden) = held.hidden.as_mut() else { continue };
        if let Some(count) = hidden.commodities.take() {
            held.commodities = take(&mut commodities, count).ok_or_else(|| short("commodities"))?;
        }
        if let Some(count) = hidden.progress_cards.take() {
            counts.push((Seat(index as u8), count));
        }
    }
    if !commodities.is_empty() {
        return Err(short("commodities (more than the hands hold)"));
    }
    if counts.is_empty() && unseen.progress_decks.is_none() {
        return Ok(());
    }
    // How many of each deck's cards are in the hidden hands: the pool less the deck's cards
    // never drawn (the deck's size less the cards put under it).
    let decks = unseen.progress_decks.ok_or_else(|| short("progress cards (no deck sizes)"))?;
    let returned = returned(setup);
    let mut in_hands = [0u32; 3];
    // Face-down hands hold no victory point card (those lie face up, CK-EVT-3): they stay in
    // the decks.
    let mut pools = Track::ALL.map(|track| {
        let mut pool = of_track(&unseen.progress_cards, track);
        for card in super::ProgressCard::ALL.into_iter().filter(|card| card.is_victory_point()) {
            pool.set(card, 0);
        }
        pool
    });
    for (i, track) in Track::ALL.into_iter().enumerate() {
        let never_drawn =
            decks[i].checked_sub(of_track(&returned, track).total()).ok_or_else(|| short("progress decks"))?;
        in_hands[i] = of_track(&unseen.progress_cards, track)
            .total()
            .checked_sub(never_drawn)
            .ok_or_else(|| short("progress cards"))?;
    }
    if in_hands.iter().sum::<u32>() != counts.iter().map(|(_, n)| n).sum::<u32>() {
        return Err(short("progress cards (not as many as the hidden hands hold)"));
    }
    for (seat, mut count) in counts {
        let mut hand = ProgressCards::default();
        for i in 0..Track::ALL.len() {
            let n = in_hands[i].min(count);
            hand += take(&mut pools[i], n).ok_or_else(|| short("progress cards"))?;
            in_hands[i] -= n;
            count -= n;
        }
        match setup.cities_knights.progress.iter_mut().find(|(s, _)| *s == seat) {
            Some((_, cards)) => *cards += hand,
            None => setup.cities_knights.progress.push((seat, hand)),
        }
    }
    setup.cities_knights.progress.sort_by_key(|(seat, _)| *seat);
    Ok(())
}
