//! Each seat's roads, ships and buildings as bit sets, so that listing a seat's moves starts
//! from its own pieces instead of scanning every edge and vertex of the board (a New Shores
//! board has 249 edges and 178 vertices, and a seat a few dozen pieces).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use crate::{
    game::Game,
    model::{IndexSet, Seat, MAX_SEATS},
    protocol::Event,
};

/// Where each kind of piece's set lies among a seat's kept words.
const ROADS: usize = 0;
const SHIPS: usize = 1;
const BUILDINGS: usize = 2;

/// Words of a kept set: boards of up to 512 edges or vertices keep theirs; larger ones (no
/// scenario has one) scan the board each time.
const WORDS: usize = 8;

/// A kept set of edge or vertex indices, walked in ascending (board) order.
pub(crate) type Bits = IndexSet<WORDS>;

/// One seat's pieces on the board.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SeatPieces {
    pub roads: Bits,
    pub ships: Bits,
    /// Settlements and cities (and Cities & Knights' metropolises on them).
    pub buildings: Bits,
}

/// Each seat's pieces as found on the board, once looked up. Not part of the state: never
/// serialized, equal to any other, and brought up to date by [`PieceCache::update_after`]
/// after every event (forgotten after one that may move pieces it does not name, as
/// [`super::routes::RouteCache`] forgets lengths). Atomics, so
/// that a game shared between threads stays `Sync`; a seat's sets are stored before it is
/// marked known (release) and read after it is seen known (acquire).
#[derive(Debug, Default)]
pub(crate) struct PieceCache {
    known: [AtomicBool; MAX_SEATS],
    words: [[AtomicU64; 3 * WORDS]; MAX_SEATS],
}

impl PieceCache {
    fn get(&self, seat: Seat) -> Option<SeatPieces> {
        Some(SeatPieces {
            roads: self.one_kind(seat, ROADS)?,
            ships: self.one_kind(seat, SHIPS)?,
            buildings: self.one_kind(seat, BUILDINGS)?,
        })
    }

    /// One kind of piece (`ROADS`, `SHIPS` or `BUILDINGS`) of [`PieceCache::get`]: a third
    /// of the words to read.
    fn one_kind(&self, seat: Seat, kind: usize) -> Option<Bits> {
        let i = seat.index();
        if !self.known.get(i)?.load(Ordering::Acquire) {
            return None;
        }
        let words = self.words.get(i)?.get(kind * WORDS..(kind + 1) * WORDS)?;
        Some(IndexSet(std::array::from_fn(|w| words[w].load(Ordering::Relaxed))))
    }

    fn set(&self, seat: Seat, pieces: &SeatPieces) {
        let i = seat.index();
        let (Some(words), Some(known)) = (self.words.get(i), self.known.get(i)) else { return };
        for (k, bits) in [pieces.roads, pieces.ships, pieces.buildings].iter().enumerate() {
            for (w, &word) in bits.0.iter().enumerate() {
                words[k * WORDS + w].store(word, Ordering::Relaxed);
            }
        }
        known.store(true, Ordering::Release);
    }

    /// Forgets every seat's pieces (after a position is placed piece by piece).
    pub(crate) fn forget_all(&self) {
        for known in &self.known {
            known.store(false, Ordering::Relaxed);
        }
    }

    /// Brings the kept sets up to date after `event` was applied to `game`: a road, ship,
    /// settlement or city built, or a ship moved, changes only the edges or the vertex it
    /// names, so those are read again for every seat kept; the events listed and those that
    /// leave every piece in place change none; any other (an extension's event may take a
    /// road away or turn a building over) forgets every seat's.
    pub(crate) fn update_after(&self, game: &Game, event: &Event) {
        let board = &game.board;
        let ship = |e: u16| game.ships.get(e as usize).copied().flatten();
        let road = |e: u16| game.roads.get(e as usize).copied().flatten();
        let building = |v: u16| game.buildings.get(v as usize).copied().flatten().map(|b| b.seat);
        match event {
            Event::RoadBuilt { edge, .. } => match board.edge(*edge) {
                Some(e) => self.mark(ROADS, e, road(e)),
                None => self.forget_all(),
            },
            Event::ShipBuilt { edge, .. } => match board.edge(*edge) {
                Some(e) => self.mark(SHIPS, e, ship(e)),
                None => self.forget_all(),
            },
            Event::ShipMoved { from, to, .. } => match (board.edge(*from), board.edge(*to)) {
                (Some(f), Some(t)) => {
                    self.mark(SHIPS, f, ship(f));
                    self.mark(SHIPS, t, ship(t));
                }
                _ => self.forget_all(),
            },
            // A city usually replaces its owner's settlement, but may stand on an empty site
            // (CK-SET-1).
            Event::SettlementBuilt { vertex, .. } | Event::CityBuilt { vertex, .. } => match board.vertex(*vertex) {
                Some(v) => self.mark(BUILDINGS, v, building(v)),
                None => self.forget_all(),
            },
            _ if event.leaves_roads_ships_and_buildings() => {}
            _ => self.forget_all(),
        }
    }

    /// Index `i` of the kept sets of kind `set` (`ROADS`, `SHIPS` or `BUILDINGS`) belongs to
    /// `owner` alone: the one word holding it is rewritten for every kept seat, instead of
    /// all of each seat's words read and stored again. Only `apply` (holding the game
    /// exclusively) calls it, so no reader sees a word half done.
    fn mark(&self, set: usize, i: u16, owner: Option<Seat>) {
        let Some(at) = (usize::from(i) / 64 < WORDS).then(|| set * WORDS + usize::from(i) / 64) else { return };
        for (seat, (known, words)) in self.known.iter().zip(&self.words).enumerate() {
            if known.load(Ordering::Acquire) {
                let on = owner == Some(Seat(seat as u8));
                let word = words[at].load(Ordering::Relaxed) & !(1 << (i % 64)) | u64::from(on) << (i % 64);
                words[at].store(word, Ordering::Relaxed);
            }
        }
    }
}

impl Clone for PieceCache {
    fn clone(&self) -> Self {
        let mut copy = PieceCache::default();
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &Self) {
        for seat in 0..MAX_SEATS as u8 {
            match source.get(Seat(seat)) {
                Some(pieces) => self.set(Seat(seat), &pieces),
                None => {
                    if let Some(known) = self.known.get(seat as usize) {
                        known.store(false, Ordering::Relaxed);
                    }
                }
            }
        }
    }
}

impl PartialEq for PieceCache {
    /// What was looked up is a function of the state, which is compared on its own.
    fn eq(&self, _other: &Self) -> bool {
        true
    }
}

impl Game {
    /// `seat`'s roads, ships and buildings on the board as it stands; `None` on a board too
    /// large to keep them (the caller scans it).
    pub(crate) fn pieces_of(&self, seat: Seat) -> Option<SeatPieces> {
        if let Some(pieces) = self.pieces.get(seat) {
            return Some(pieces);
        }
        let pieces = self.scan_pieces(seat)?;
        self.pieces.set(seat, &pieces);
        Some(pieces)
    }

    /// `seat`'s settlements and cities, as in [`Game::pieces_of`].
    pub(crate) fn buildings_of(&self, seat: Seat) -> Option<Bits> {
        self.pieces.one_kind(seat, BUILDINGS).or_else(|| self.pieces_of(seat).map(|pieces| pieces.buildings))
    }

    /// `seat`'s roads, as in [`Game::pieces_of`].
    pub(crate) fn roads_of(&self, seat: Seat) -> Option<Bits> {
        self.pieces.one_kind(seat, ROADS).or_else(|| self.pieces_of(seat).map(|pieces| pieces.roads))
    }

    /// `seat`'s ships, as in [`Game::pieces_of`].
    pub(crate) fn ships_of(&self, seat: Seat) -> Option<Bits> {
        self.pieces.one_kind(seat, SHIPS).or_else(|| self.pieces_of(seat).map(|pieces| pieces.ships))
    }

    /// `seat`'s pieces found on the board, on a board small enough to keep them.
    pub(crate) fn scan_pieces(&self, seat: Seat) -> Option<SeatPieces> {
        let fits = [self.roads.len(), self.ships.len(), self.buildings.len()].iter().all(|&n| n <= Bits::CAPACITY);
        fits.then(|| SeatPieces {
            roads: Bits::of(&self.roads, |&r| r == Some(seat)),
            ships: Bits::of(&self.ships, |&s| s == Some(seat)),
            buildings: Bits::of(&self.buildings, |b| b.is_some_and(|b| b.seat == seat)),
        })
    }
}
