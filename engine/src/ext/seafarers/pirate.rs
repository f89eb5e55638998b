//! The pirate (SEA-7/8): moved instead of the robber on a 7 or with a Knight, to another sea
//! hex of the play area, stealing from a seat with a ship on one of that hex's sides.

use super::types::StealKind;
use super::Seafarers;
use crate::{
    board::HexCoord,
    chance::Chance,
    game::{
        hands::{chosen_victim, victims_by_hex},
        Game,
    },
    model::{DevCard, PerSeat, Phase, PushInPlace, Seat},
    position::{phases::phase_error, PositionError},
    protocol::{Bandit, Event, Move, RuleError},
};

impl Seafarers {
    /// SEA-7: checks that the pirate may go to `hex`; returns its index.
    fn pirate_target(&self, game: &Game, hex: HexCoord) -> Result<u8, RuleError> {
        let board = game.board();
        let h = board.hex(hex).ok_or(RuleError::UnknownHex(hex))?;
        let margin = self.layout().is_some_and(|l| l.margin.contains(&hex));
        if !board.is_sea_hex(h) || margin {
            return Err(RuleError::PirateNotOnSea);
        }
        if Some(h) == game.pirate_index() {
            return Err(RuleError::PirateMustMove);
        }
        Ok(h)
    }

    /// SEA-8 a: opponents with a ship on a side of hex `h` and at least one card (with
    /// Cities & Knights, commodities count: SEA-15), in seat order.
    fn pirate_victims(game: &Game, thief: Seat, h: u8) -> PerSeat<Seat> {
        seats_in(Self::pirate_victim_set(game, thief, h)).collect()
    }

    /// The victims of [`Seafarers::pirate_victims`] as a set of seat bits; cloth counts as
    /// something to take (CLV-12).
    fn pirate_victim_set(game: &Game, thief: Seat, h: u8) -> u16 {
        let mut victims = 0u16;
        for &side in &game.board().hex_edges[h as usize] {
            let Some(seat) = game.ship_index(side) else { continue };
            if seat != thief && Self::has_something_to_take(game, seat) {
                victims |= seat.bit();
            }
        }
        victims
    }

    /// A seat holds a card the pirate may take; cloth counts (CLV-12).
    fn has_something_to_take(game: &Game, seat: Seat) -> bool {
        game.hand_cards(seat).total() > 0 || game.ext.seafarers.cloth.held_by(seat) > 0
    }

    /// Moves the pirate and steals one random card from the chosen victim. Appends to
    /// `events` only when the move is legal. Returns the victim when the mover must first
    /// choose between their cloth and their cards (CLV-12): the caller enters that phase.
    pub(super) fn decide_pirate(
        &self,
        game: &Game,
        seat: Seat,
        hex: HexCoord,
        steal_from: Option<Seat>,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<Option<Seat>, RuleError> {
        if self.barred_from_the_pirate(game, seat) {
            return Err(RuleError::PirateNeedsVillage);
        }
        let h = self.pirate_target(game, hex)?;
        let victims = Self::pirate_victims(game, seat, h);
        let victim = chosen_victim(&victims, steal_from)?;
        events.push(Event::PirateMoved { seat, hex });
        let Some(victim) = victim else { return Ok(None) };
        let cards = game.hand_cards(victim).total() > 0;
        match (cards, game.ext.seafarers.cloth.held_by(victim) > 0) {
            (true, true) => return Ok(Some(victim)),
            (false, true) => events.push(Event::ClothStolen { thief: seat, victim }),
            _ => events.push(game.steal_card(seat, victim, chance)),
        }
        Ok(None)
    }

    /// CLV-12: the mover takes the kind chosen from the victim holding both.
    pub(super) fn decide_steal_kind(
        &self,
        game: &Game,
        seat: Seat,
        victim: Seat,
        mv: &Move,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        let active = game.turn_active();
        if seat != active {
            return Err(RuleError::NotYourTurn { active });
        }
        let Move::ChooseStealKind { kind } = *mv else {
            return Err(RuleError::WrongPhase("choose cloth or a resource card to take (CLV-12)"));
        };
        match kind {
            StealKind::Cloth if game.ext.seafarers.cloth.held_by(victim) > 0 => {
                events.push(Event::ClothStolen { thief: seat, victim })
            }
            StealKind::Resource if game.hand_cards(victim).total() > 0 => {
                events.push(game.steal_card(seat, victim, chance))
            }
            _ => return Err(RuleError::NothingOfThatKind(kind)),
        }
        events.push(game.resume());
        Ok(())
    }

    /// CLV-12: a position waiting for the choice: in Cloth for Catan, from an opponent of the
    /// active seat holding cloth and cards.
    pub(super) fn check_steal_kind_phase(&self, game: &Game, victim: Seat) -> Result<(), PositionError> {
        if self.layout().is_none_or(|l| l.villages.is_empty()) {
            return Err(PositionError::NotInThisGame("cloth (CLV-12)"));
        }
        if victim.index() >= game.players.len() {
            return Err(PositionError::UnknownSeat(victim));
        }
        let both = game.ext.seafarers.cloth.held_by(victim) > 0 && game.hand_cards(victim).total() > 0;
        if victim == game.turn_active() || !both {
            return Err(phase_error(format!(
                "the choice of what to take waits for an opponent holding cloth and cards, not seat {victim} (CLV-12)"
            )));
        }
        Ok(())
    }

    pub(super) fn steal_kind_moves(&self, game: &Game, seat: Seat, victim: Seat, moves: &mut Vec<Move>) {
        if seat != game.turn_active() {
            return;
        }
        if game.ext.seafarers.cloth.held_by(victim) > 0 {
            moves.push(Move::ChooseStealKind { kind: StealKind::Cloth });
        }
        if game.hand_cards(victim).total() > 0 {
            moves.push(Move::ChooseStealKind { kind: StealKind::Resource });
        }
    }

    /// CLV-11: in Cloth for Catan only a seat trading with a village may move the pirate.
    fn barred_from_the_pirate(&self, game: &Game, seat: Seat) -> bool {
        self.layout().is_some_and(|l| !l.villages.is_empty()) && !game.ext.seafarers.cloth.trades(seat)
    }

    /// SEA-7: a Knight may move the pirate instead of the robber (B-DEV-4 otherwise).
    pub(super) fn decide_pirate_knight(
        &self,
        game: &Game,
        seat: Seat,
        hex: HexCoord,
        steal_from: Option<Seat>,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), RuleError> {
        game.check_playable(seat, DevCard::Knight)?;
        let start = events.len();
        events.push(Event::KnightPlayed { seat });
        match self.decide_pirate(game, seat, hex, steal_from, chance, events) {
            Err(error) => {
                events.truncate(start);
                return Err(error);
            }
            // CLV-12: the choice comes before the phase the Knight was played in resumes.
            Ok(Some(victim)) => events.push(game.interrupt(Phase::ChooseStealKind { victim })),
            Ok(None) => {}
        }
        events.extend(game.largest_army_update(seat));
        Ok(())
    }

    /// Every pirate target and victim, made into moves by `make`.
    pub(super) fn pirate_moves(
        &self,
        game: &Game,
        seat: Seat,
        moves: &mut Vec<Move>,
        make: impl Fn(HexCoord, Option<Seat>) -> Move,
    ) {
        if self.barred_from_the_pirate(game, seat) {
            return;
        }
        let board = game.board();
        // SEA-7 as `pirate_target` checks it, with the scenario looked up once.
        // The margin's hexes as a set of hex indices (a board has fewer than 255 hexes), so
        // that each hex is not looked for in the scenario's list.
        let mut margin = [0u64; 4];
        for h in self.layout().into_iter().flat_map(|l| &l.margin).filter_map(|&hex| board.hex(hex)) {
            margin[h as usize / 64] |= 1 << (h % 64);
        }
        let victims_at = Self::pirate_victims_by_hex(game, seat);
        for h in 0..board.hexes.len() as u8 {
            let hex = board.hexes[h as usize];
            let in_margin = margin[h as usize / 64] & (1 << (h % 64)) != 0;
            if !board.is_sea_hex(h) || Some(h) == game.pirate_index() || in_margin {
                continue;
            }
            let victims = victims_at[h as usize];
            if victims == 0 {
                moves.push_in_place(|| make(hex, None));
            }
            for victim in seats_in(victims) {
                moves.push_in_place(|| make(hex, Some(victim)));
            }
        }
    }

    /// [`Seafarers::pirate_victim_set`] for every hex at once: one walk over the ships instead
    /// of six lookups for every sea hex (the pirate's listing comes with every knight a seat
    /// holds, before and after its roll).
    fn pirate_victims_by_hex(game: &Game, thief: Seat) -> [u16; 1 << u8::BITS] {
        let mut holding = 0u16;
        for seat in (0..game.player_count()).map(Seat) {
            if seat != thief && Self::has_something_to_take(game, seat) {
                holding |= seat.bit();
            }
        }
        victims_by_hex(game.ships.iter().copied(), &game.board().edge_hexes, holding)
    }

    pub(super) fn pirate_knight_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        if game.check_playable(seat, DevCard::Knight).is_ok() {
            self.pirate_moves(game, seat, moves, |hex, steal_from| Move::PlayKnight {
                hex,
                steal_from,
                bandit: Bandit::Pirate,
            });
        }
    }
}

/// The seats of a set of seat bits, in seat order.
fn seats_in(set: u16) -> impl Iterator<Item = Seat> {
    (0..16u8).filter(move |s| set & (1 << s) != 0).map(Seat)
}

impl Game {
    /// SEA-15: an active knight on a corner of the pirate's hex moves it and steals as a 7
    /// does (SEA-7/8); the knight's part is Cities & Knights' (CK-KNT-8).
    pub(crate) fn decide_pirate_chase(
        &self,
        seat: Seat,
        hex: HexCoord,
        steal_from: Option<Seat>,
        chance: &mut dyn Chance,
    ) -> Result<Vec<Event>, RuleError> {
        let seafarers = self.sailing_pirate()?;
        let mut events = Vec::new();
        // With Cities & Knights there is no cloth (SCN-10), so no choice waits.
        seafarers.decide_pirate(self, seat, hex, steal_from, chance, &mut events)?;
        Ok(events)
    }

    /// SEA-15: every hex a chased pirate may go to, with each seat it may rob there, made
    /// into moves by `make`.
    pub(crate) fn pirate_chase_moves(
        &self,
        seat: Seat,
        moves: &mut Vec<Move>,
        make: impl Fn(HexCoord, Option<Seat>) -> Move,
    ) {
        if let Ok(seafarers) = self.sailing_pirate() {
            seafarers.pirate_moves(self, seat, moves, make);
        }
    }

    /// The Seafarers rules of this game, when its scenario has a pirate (not Wonders, WON-6).
    fn sailing_pirate(&self) -> Result<Seafarers, RuleError> {
        let seafarers = Seafarers::from_config(self.config());
        if self.config().seafarers && seafarers.pirate_sails() {
            Ok(seafarers)
        } else {
            Err(RuleError::NotInThisGame("the pirate"))
        }
    }

    pub(crate) fn apply_pirate(&mut self, hex: HexCoord) {
        if let Some(h) = self.board.hex(hex).filter(|&h| self.board.is_sea_hex(h)) {
            self.pirate = Some(h);
        }
    }
}
