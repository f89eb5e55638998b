//! Building any position directly, for tests and bot authors (in the spirit of shakmaty's
//! `Setup` -> `Position`): a [`Setup`] is plain data with public fields and builder helpers;
//! [`Setup::position`] validates it and returns a normal [`Game`] — `legal_moves`, `decide`,
//! `apply`, `view` and serde work on it as on any game. [`Setup::from`] a game goes the other
//! way, so a position reached in play can be edited and rebuilt.
//!
//! ```
//! use catan_engine::{
//!     board::{BoardLayout, HexCoord, HexTile, Terrain},
//!     position::Setup,
//!     BuildingKind, GameConfig, Move, Phase, Resources, Seat,
//! };
//!
//! // A one-hex island (forest 6) in its ring of sea: focused tests need not use the full map.
//! let centre = HexCoord::new(0, 0);
//! let mut hexes = vec![HexTile { hex: centre, terrain: Terrain::Forest, number: Some(6) }];
//! hexes.extend(centre.neighbours().into_iter().map(HexTile::sea));
//! let island = BoardLayout::new(hexes, vec![], None);
//!
//! let (p0, p1) = (Seat(0), Seat(1));
//! let game = Setup::new(GameConfig::for_players(3), island)
//!     .with_building("0,0,N".parse().unwrap(), p0, BuildingKind::Settlement)
//!     .with_road("0,0,NE".parse().unwrap(), p0)
//!     .with_building("0,0,S".parse().unwrap(), p1, BuildingKind::City)
//!     .with_hand(p0, Resources::new(1, 1, 0, 0, 0))
//!     .with_turn(3, p0)
//!     .with_dice(4, 2)
//!     .with_phase(Phase::Main, vec![])
//!     .position()
//!     .unwrap();
//! assert!(game.legal_moves(p0).contains(&Move::BuildRoad { edge: "0,0,E".parse().unwrap() }));
//! assert_eq!(game.bank().get(catan_engine::Resource::Lumber), 18);
//!
//! // A position that cannot arise is refused with a stable code naming the rule.
//! let error = Setup::new(GameConfig::for_players(3), game.board().layout().clone())
//!     .with_building("0,0,N".parse().unwrap(), p0, BuildingKind::Settlement)
//!     .with_building("1,-1,S".parse().unwrap(), p1, BuildingKind::Settlement)
//!     .position()
//!     .unwrap_err();
//! assert_eq!(error.code(), "buildings_too_close");
//! ```
//!
//! What [`Setup::position`] checks, with the rule each check stands for:
//! - the configuration, as [`Game::new`] checks it, and the board's topology
//!   ([`Board::new`](crate::board::Board::new)) and each extension's own board checks (e.g.
//!   RIV-1's river). The component counts of a custom board (B-CMP-1..4, X56-2..4) and the
//!   red-number rule (B-GEO-11) are *not* checked: they govern laying out a whole board, and
//!   a position may be on any playable map, e.g. a 7-hex island with its sea frame;
//! - every seat named anywhere is in the game; every vertex, edge and hex is on the board;
//! - one building per vertex and one road or ship per edge (B-BLD-7; a coast edge holds a
//!   road or a ship, never both, SEA-2); no two buildings one edge apart (B-BLD-4, B-GEO-9);
//!   roads only on edges that touch land, ships only on edges that touch the sea (B-GEO-9,
//!   SEA-2), and ships only in games whose supply has them (SEA-1);
//! - no seat has more pieces on the board than its supply (B-CMP-7, B-BLD-2, SEA-1); a city
//!   takes a city piece only (its settlement went back to the supply, B-BLD-6);
//! - roads connect (B-BLD-3): every road lies in a network of its owner's roads (joined at
//!   shared vertices) that reaches one of its owner's buildings. An opponent's building
//!   *inside* the network does not count as a cut here: settling on someone's road is legal
//!   and leaves the far side on the board (it only shortens the road, B-LR-2), so positions
//!   reached in play have such roads. Settlements need no road: setup places the settlement
//!   before its road (B-SET-4), and focused tests often want lone buildings;
//! - ships connect (SEA-3) the same way: every ship lies in a network of its owner's ships
//!   that reaches one of its owner's buildings. Roads never join it: a route turns from
//!   road to ship only at the owner's building;
//! - resources are conserved (B-CMP-5): bank plus hands is the game's bank per resource; a
//!   bank left to derive (`bank: None`) is what the hands leave, and must not go negative;
//! - development cards are conserved (B-CMP-6): deck plus held (playable and new) plus played
//!   knights never exceeds the game's deck per kind; a derived deck (`deck: None`) is the
//!   game's deck less what the seats hold and the knights played;
//! - Longest Road (B-LR-3, B-LR-4): its holder has a road of 5 or more and nobody a longer
//!   one. A card set aside (no holder) is accepted whatever the lengths: B-LR-5 sets it aside
//!   on ties, and the next change awards it;
//! - Largest Army (B-LA-1, B-LA-2): its holder played 3 knights or more and nobody more;
//!   without a holder nobody has played 3 (B-LA-3: it is never set aside);
//! - the robber stands on a land hex of the board (B-ROB-2), or off the board (RIV-7); the
//!   pirate, only with Seafarers, on a sea hex or off the board (SEA-7);
//! - the phase fits the turn: setup only in turn 0, in snake order (B-SET-3), its road step
//!   naming the placing seat's settlement (B-SET-4); no dice before the roll and dice after it
//!   (B-TURN-1/2/4); a discard or robber move only after a 7; discards owed by seats holding
//!   more than 7 cards, exactly half (B-ROB-1), and owed by somebody; gold choices owed by
//!   somebody, for the roll on the dice (RIV-5); free roads only after Road Building was
//!   played, no more than 2 or than the roads (with Seafarers, and ships, SEA-11) left
//!   (B-DEV-5); special building phases only with the 5-6 extension, for another seat than
//!   the active one (X56-8); jungle discoveries only with the jungle (JUN-4); a winner
//!   exactly when the game is over (B-WIN-4);
//! - open trade offers: each with both sides non-empty and distinct (B-TRD-7, B-TRD-8),
//!   naming commodities only in Cities & Knights (CK-TRD-1), made to other seats, with the active player on one side (B-TRD-5), only in a phase where
//!   offers can be open, and at most [`MAX_OPEN_OFFERS_PER_SEAT`](crate::MAX_OPEN_OFFERS_PER_SEAT)
//!   per seat;
//! - Seafarers' memory ([`SeafarersSetup`], only with Seafarers): at most two setup
//!   settlements per seat, each holding that seat's building (B-SET-3), and island bonuses
//!   only on a seat's own buildings, once per vertex (SEA-12); a ship moved only after the
//!   roll (SEA-6), ships built this turn on the board; fog tiles turned up as land with a
//!   number token, or as desert or sea without (SEA-13);
//! - wonders ([`WonderSetup`], only in Wonders of Catan): one per seat and one seat per
//!   wonder, at most four stages, each claim holding a ship of its seat's supply (WON-8..10);
//! - nobody has already won (B-WIN-3, with WON-11 in Wonders of Catan): the seat whose turn it is has fewer points than the
//!   target, unless the game is over or the phase lies between turns (setup, a special
//!   building phase, X56-9).
//!
//! Not checked: that each seat placed its setup pieces (a test may want one lone city), the
//! history behind the position (how many progress cards were played, which offers were
//! withdrawn). The position's `seed` (default 0) and `events_applied` (default 1) key the
//! game's own chance stream.

pub(crate) mod checks;
mod error;
mod export;
pub(crate) mod phases;
pub(crate) mod redact;

pub use redact::{HiddenHand, Unseen};

pub use crate::ext::{
    cities_knights::position::CitiesKnightsSetup, seafarers::position::SeafarersSetup, wonders::position::WonderSetup,
};

use serde::{Deserialize, Serialize};

pub use error::PositionError;

use crate::{
    board::{BoardLayout, EdgeId, HexCoord, VertexId},
    config::{FirstPlayer, GameConfig},
    game::Game,
    model::{BuildingKind, DevCards, Phase, Resources, Seat, SetupStep, TradeOffer},
    view::{BuildingView, RoadView, ShipView},
};

/// A part of a position that belongs to an expansion. Each is read by the extension that
/// claims it (`Extension::position_parts`); a position giving a part that no extension of its
/// game claims is refused with [`PositionError::NotInThisGame`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PositionPart {
    Ships,
    Pirate,
    Discoveries,
    SeafarersMemory,
    Wonders,
    CitiesKnights,
}

impl PositionPart {
    pub(crate) const ALL: [PositionPart; 6] = [
        PositionPart::Ships,
        PositionPart::Pirate,
        PositionPart::Discoveries,
        PositionPart::SeafarersMemory,
        PositionPart::Wonders,
        PositionPart::CitiesKnights,
    ];

    /// Tests if `setup` gives this part.
    pub(crate) fn given(self, setup: &Setup) -> bool {
        match self {
            PositionPart::Ships => !setup.ships.is_empty(),
            PositionPart::Pirate => setup.pirate.is_some(),
            PositionPart::Discoveries => setup.seats.iter().any(|s| s.discoveries > 0),
            PositionPart::SeafarersMemory => !setup.seafarers.is_empty(),
            PositionPart::Wonders => !setup.wonders.is_empty(),
            PositionPart::CitiesKnights => {
                !setup.cities_knights.is_empty() || setup.seats.iter().any(|s| !s.commodities.is_empty())
            }
        }
    }

    /// What the part is, with its rules, for the error that refuses it.
    pub(crate) fn described(self) -> &'static str {
        match self {
            PositionPart::Ships => "ships (SEA-1)",
            PositionPart::Pirate => "the pirate (SEA-7)",
            PositionPart::Discoveries => "jungle discoveries (JUN-4)",
            PositionPart::SeafarersMemory => "seafarers' setup settlements, island bonuses, ship moves and fog (SEA)",
            PositionPart::Wonders => "wonders (WON-8)",
            PositionPart::CitiesKnights => "commodities, barbarians, improvements and walls (Cities & Knights)",
        }
    }
}

/// What one seat holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(default, deny_unknown_fields)]
pub struct SeatSetup {
    /// The seat's hand.
    pub resources: Resources,
    /// Development cards held since before this turn (playable).
    pub dev_cards: DevCards,
    /// Development cards bought this turn (playable from the next, B-DEV-3).
    pub new_dev_cards: DevCards,
    /// Knights played (B-LA).
    pub knights_played: u32,
    /// Jungle discoveries (JUN-4); only with the jungle.
    pub discoveries: u32,
    /// Commodity cards in the hand (Cities & Knights, CK-CMP-1); only in C&K games.
    #[serde(skip_serializing_if = "crate::model::Commodities::is_empty")]
    pub commodities: crate::model::Commodities,
    /// In a position redacted for a reader ([`Setup::redacted_for`]): the cards of this seat
    /// the reader does not see, as counts (the fields above then hold none of them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<HiddenHand>,
}

/// The turn in progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct TurnSetup {
    /// 0 during setup; 1 for the first normal turn.
    pub number: u32,
    /// The seat whose turn it is (during setup: the first seat).
    pub active: Seat,
    /// This turn's roll as (red, white); `None` before the roll.
    #[serde(default)]
    pub dice: Option<(u8, u8)>,
    /// A development card was played this turn (B-DEV-2).
    #[serde(default)]
    pub dev_card_played: bool,
    /// The active player built or bought this turn (B-TURN-6's flag).
    #[serde(default)]
    pub built_or_bought: bool,
}

impl TurnSetup {
    /// Turn `number` of `active`, as it begins: nothing rolled, played or built.
    pub fn new(number: u32, active: Seat) -> Self {
        TurnSetup { number, active, dice: None, dev_card_played: false, built_or_bought: false }
    }
}

/// A position as plain data: build it with the `with_*` helpers (or by setting fields), then
/// [`Setup::position`] validates it into a [`Game`]. See the [module](self) for what is
/// checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub config: GameConfig,
    /// The whole map: land, sea frame, harbours. Its `robber` is only the default of
    /// [`Setup::robber`].
    pub board: BoardLayout,
    /// The game's secret seed; with `events_applied` it keys the chance stream.
    #[serde(default)]
    pub seed: u64,
    /// Events applied so far, counting `game_started` (so at least 1 in a logged game).
    #[serde(default = "one")]
    pub events_applied: u64,
    /// The seat that placed first and took the first turn (B-SET-2/3).
    pub first_seat: Seat,
    /// What each seat holds, by seat; missing seats hold nothing.
    #[serde(default)]
    pub seats: Vec<SeatSetup>,
    #[serde(default)]
    pub buildings: Vec<BuildingView>,
    #[serde(default)]
    pub roads: Vec<RoadView>,
    /// Ships (Seafarers, SEA-1).
    #[serde(default)]
    pub ships: Vec<ShipView>,
    /// The bank; `None` derives it: the game's bank less the hands.
    #[serde(default)]
    pub bank: Option<Resources>,
    /// The development deck; `None` derives it: the game's deck less what the seats hold and
    /// the knights played.
    #[serde(default)]
    pub deck: Option<DevCards>,
    /// The robber's hex; `None` while it waits off the board (RIV-7).
    #[serde(default)]
    pub robber: Option<HexCoord>,
    /// The pirate's sea hex (Seafarers, SEA-7); `None` while it is off the board. Like the
    /// robber, [`Setup::new`] takes it from the board.
    #[serde(default)]
    pub pirate: Option<HexCoord>,
    /// What the game waits for now.
    pub phase: Phase,
    /// The phases `phase` interrupted, in the order they resume.
    #[serde(default)]
    pub then: Vec<Phase>,
    pub turn: TurnSetup,
    #[serde(default)]
    pub longest_road: Option<Seat>,
    #[serde(default)]
    pub largest_army: Option<Seat>,
    /// Open domestic trade offers.
    #[serde(default)]
    pub offers: Vec<TradeOffer>,
    /// The id the next offer gets; raised above every open offer's id when the game is built.
    #[serde(default = "one_u32")]
    pub next_offer_id: u32,
    /// The winner; exactly when the phase is `game_over`.
    #[serde(default)]
    pub winner: Option<Seat>,
    /// Seafarers' memory of the turn and the game (SEA-6, SEA-12, SEA-13).
    #[serde(default, skip_serializing_if = "SeafarersSetup::is_empty")]
    pub seafarers: SeafarersSetup,
    /// The wonders claimed, in the order of the claims, each holding one of its seat's ships
    /// (Wonders of Catan, WON-8..10).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub wonders: Vec<WonderSetup>,
    /// What Cities & Knights keeps beyond the pieces and hands (CK-BAR, CK-IMP, CK-WALL).
    #[serde(default, skip_serializing_if = "CitiesKnightsSetup::is_empty")]
    pub cities_knights: CitiesKnightsSetup,
    /// In a position redacted for a reader ([`Setup::redacted_for`]): the cards it does not
    /// see, pooled, which building the position deals into the hidden hands. Absent in a
    /// whole position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unseen: Option<Unseen>,
}

fn one() -> u64 {
    1
}

fn one_u32() -> u32 {
    1
}

impl Setup {
    /// The empty position at the start of setup on `board`: nothing placed, no cards held,
    /// the bank and deck full, the robber where the board puts it, and the first seat (per
    /// `config.first_player`; seat 0 when it is rolled) to place a settlement.
    pub fn new(config: GameConfig, board: BoardLayout) -> Setup {
        let first_seat = match config.first_player {
            FirstPlayer::Seat(seat) if seat < config.players => Seat(seat),
            _ => Seat(0),
        };
        Setup {
            seats: vec![SeatSetup::default(); usize::from(config.players)],
            config,
            robber: board.robber,
            pirate: board.pirate,
            board,
            seed: 0,
            events_applied: 1,
            first_seat,
            buildings: Vec::new(),
            roads: Vec::new(),
            ships: Vec::new(),
            bank: None,
            deck: None,
            phase: Phase::Setup { seat: first_seat, placement: 0, step: SetupStep::PlaceSettlement },
            then: Vec::new(),
            turn: TurnSetup::new(0, first_seat),
            longest_road: None,
            largest_army: None,
            offers: Vec::new(),
            next_offer_id: 1,
            winner: None,
            seafarers: SeafarersSetup::default(),
            wonders: Vec::new(),
            cities_knights: CitiesKnightsSetup::default(),
            unseen: None,
        }
    }

    /// Validates the position and returns it as a game.
    ///
    /// # Errors
    /// The first [`PositionError`] found, naming the rule the position breaks.
    pub fn position(self) -> Result<Game, PositionError> {
        checks::build(self)
    }

    /// What `seat` holds, for editing (the list grows to hold the seat; a seat outside the
    /// game that holds anything is refused by [`Setup::position`]).
    pub fn seat_mut(&mut self, seat: Seat) -> &mut SeatSetup {
        if self.seats.len() <= seat.index() {
            self.seats.resize(seat.index() + 1, SeatSetup::default());
        }
        &mut self.seats[seat.index()]
    }

    /// Puts a settlement or a city of `seat` on `vertex`.
    #[must_use]
    pub fn with_building(mut self, vertex: VertexId, seat: Seat, kind: BuildingKind) -> Self {
        self.buildings.push(BuildingView { vertex, seat, kind });
        self
    }

    /// Puts a road of `seat` on `edge`.
    #[must_use]
    pub fn with_road(mut self, edge: EdgeId, seat: Seat) -> Self {
        self.roads.push(RoadView { edge, seat });
        self
    }

    /// Sets `seat`'s hand (a derived bank gives the cards).
    #[must_use]
    pub fn with_hand(mut self, seat: Seat, resources: Resources) -> Self {
        self.seat_mut(seat).resources = resources;
        self
    }

    /// Sets `seat`'s development cards: those playable now, and those bought this turn.
    #[must_use]
    pub fn with_dev_cards(mut self, seat: Seat, playable: DevCards, new: DevCards) -> Self {
        let held = self.seat_mut(seat);
        held.dev_cards = playable;
        held.new_dev_cards = new;
        self
    }

    /// Sets the number of knights `seat` has played.
    #[must_use]
    pub fn with_knights_played(mut self, seat: Seat, knights: u32) -> Self {
        self.seat_mut(seat).knights_played = knights;
        self
    }

    /// Sets `seat`'s jungle discoveries (JUN-4).
    #[must_use]
    pub fn with_discoveries(mut self, seat: Seat, discoveries: u32) -> Self {
        self.seat_mut(seat).discoveries = discoveries;
        self
    }

    /// Puts the robber on `hex`.
    #[must_use]
    pub fn with_robber(mut self, hex: HexCoord) -> Self {
        self.robber = Some(hex);
        self
    }

    /// Sets what the game waits for, and the phases that resume after it.
    #[must_use]
    pub fn with_phase(mut self, phase: Phase, then: Vec<Phase>) -> Self {
        self.phase = phase;
        self.then = then;
        self
    }

    /// Begins turn `number` of `active` as `turn_started` does: before the roll, nothing
    /// played, built or moved (SEA-6), the phase `pre_roll`.
    #[must_use]
    pub fn with_turn(mut self, number: u32, active: Seat) -> Self {
        self.turn = TurnSetup::new(number, active);
        self.phase = Phase::PreRoll;
        self.then.clear();
        self.seafarers.ship_moved = false;
        self.seafarers.new_ships.clear();
        self
    }

    /// Sets this turn's roll (red, white); the phase is left as it is.
    #[must_use]
    pub fn with_dice(mut self, red: u8, white: u8) -> Self {
        self.turn.dice = Some((red, white));
        self
    }

    /// Marks a development card as played this turn (B-DEV-2).
    #[must_use]
    pub fn with_dev_card_played(mut self, played: bool) -> Self {
        self.turn.dev_card_played = played;
        self
    }

    /// Gives the Longest Road card to `holder` (or sets it aside).
    #[must_use]
    pub fn with_longest_road(mut self, holder: Option<Seat>) -> Self {
        self.longest_road = holder;
        self
    }

    /// Gives the Longest Road card to the seat whose road is the only longest at 5 or more, or
    /// sets it aside (B-LR-3, B-LR-5), as play would have left it. A position that cannot be
    /// built is left as it is, for [`Setup::position`] to report.
    #[must_use]
    pub fn with_longest_road_as_measured(self) -> Self {
        let Ok(game) = checks::build_for_measuring(self.clone().with_longest_road(None)) else {
            return self;
        };
        let lengths: Vec<u32> = game.seats().map(|s| game.road_length(s)).collect();
        let longest = lengths.iter().copied().max().unwrap_or(0);
        let mut at_longest = game.seats().filter(|s| lengths[s.index()] == longest);
        let holder = match (at_longest.next(), at_longest.next()) {
            // WON-7: where the card is not in play nobody holds it, however long the road.
            (Some(only), None) if longest >= 5 && game.longest_road_in_play() => Some(only),
            _ => None,
        };
        self.with_longest_road(holder)
    }

    /// Gives the Largest Army card to `holder` (or nobody).
    #[must_use]
    pub fn with_largest_army(mut self, holder: Option<Seat>) -> Self {
        self.largest_army = holder;
        self
    }

    /// Adds open trade offers.
    #[must_use]
    pub fn with_offers(mut self, offers: impl IntoIterator<Item = TradeOffer>) -> Self {
        self.offers.extend(offers);
        self
    }

    /// Sets the bank explicitly (instead of deriving it from the hands).
    #[must_use]
    pub fn with_bank(mut self, bank: Resources) -> Self {
        self.bank = Some(bank);
        self
    }

    /// Sets the development deck explicitly (instead of deriving it).
    #[must_use]
    pub fn with_deck(mut self, deck: DevCards) -> Self {
        self.deck = Some(deck);
        self
    }

    /// Sets the seed and the number of events applied, which key the chance stream.
    #[must_use]
    pub fn with_chance(mut self, seed: u64, events_applied: u64) -> Self {
        self.seed = seed;
        self.events_applied = events_applied;
        self
    }

    /// Ends the game with `seat` as the winner (the phase becomes `game_over`).
    #[must_use]
    pub fn with_winner(mut self, seat: Seat) -> Self {
        self.winner = Some(seat);
        self.phase = Phase::GameOver;
        self.then.clear();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{board::layout::beginner_layout, model::Commodities, WonderId};

    /// Every part of a position that an expansion brings is refused in a base game, naming
    /// the part: its ruleset's hooks are the only readers, and a base game has none
    /// (SEA-1, SEA-7, JUN-4, SEA, WON-8, CK).
    #[test]
    fn every_expansion_part_is_refused_in_a_game_without_it() {
        for part in PositionPart::ALL {
            let mut setup = Setup::new(GameConfig::for_players(4), beginner_layout());
            assert!(setup.clone().position().is_ok(), "the base position itself stands");
            match part {
                PositionPart::Ships => setup.ships.push(ShipView { edge: "0,-3,SE".parse().unwrap(), seat: Seat(0) }),
                PositionPart::Pirate => setup.pirate = Some(HexCoord::new(0, -3)),
                PositionPart::Discoveries => setup.seats[0].discoveries = 1,
                PositionPart::SeafarersMemory => setup.seafarers.ship_moved = true,
                PositionPart::Wonders => {
                    setup.wonders.push(WonderSetup { seat: Seat(0), wonder: WonderId::Theater, stages: 0 })
                }
                PositionPart::CitiesKnights => setup.seats[1].commodities = Commodities::new(1, 0, 0),
            }
            assert!(part.given(&setup), "{part:?} is given");
            assert_eq!(setup.position().err(), Some(PositionError::NotInThisGame(part.described())), "{part:?}");
        }
    }
}
