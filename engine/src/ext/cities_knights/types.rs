//! The wire types of Cities & Knights that the shared model and `protocol/` name, importing
//! nothing from the rest of the extension, so the dependency runs one way: the improvement
//! tracks, the event die's faces, the progress cards and their plays, the pieces and figures
//! on the board (knights, metropolises, the merchant), what played cards leave in force, and
//! the view every seat is sent. Their behaviour (`impl` blocks) lives with the rules that use
//! it; `view.rs` builds the view.
//!
//! The decisions progress cards ask of seats, all in one phase, `card_decision`: its
//! [`CardDecision`] says what is awaited and from whom. Everything in it is public: a
//! decision never carries a hidden card (those reach their seat in events).

use serde::{Deserialize, Serialize};

use crate::{
    board::{EdgeId, HexCoord, VertexId},
    model::{Commodity, Counts, InlineList, PendingDiscard, PerSeat, Resource, Seat, MAX_SEATS},
};

/// What a `card_decision` phase waits for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CardDecision {
    /// CK-PC-5: these seats hold more progress cards than the limit and each discards
    /// `count` of them (`discard_progress_card`, one card per move), in any order.
    DiscardProgressCards {
        // Inline (one entry per seat at most), as a 7's discards are, so that a phase
        // holding it copies without allocating.
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<PendingDiscard>))]
        pending: PerSeat<PendingDiscard>,
    },
    // Science cards' decisions (cards/science.rs) go above this line.
    /// Commercial Harbor (CK-PC-7): `seat`, given a resource by `to`, gives `to` one
    /// commodity of its choice (`give_commodity`).
    GiveCommodity { seat: Seat, to: Seat },
    /// Master Merchant (CK-PC-7): `seat`, shown `from`'s hand, takes `count` of its cards
    /// (`take_cards`).
    TakeCards { seat: Seat, from: Seat, count: u32 },
    // Trade cards' decisions (cards/trade.rs) go above this line.
    /// CK-PC-7 Deserter: `seat` removes one of its knights (`remove_knight`) for `by`.
    RemoveKnight { seat: Seat, by: Seat },
    /// CK-PC-7 Deserter: `seat` may place its knight of `rank` for free, `active` or not as
    /// the deserted one was (`place_deserter_knight`, or decline).
    PlaceDeserterKnight { seat: Seat, rank: u8, active: bool },
    /// CK-PC-7 Spy: `seat` has seen `target`'s progress cards and takes one that is not a VP
    /// card (`take_progress_card`); only `seat` sees them in its view meanwhile.
    TakeProgressCard { seat: Seat, target: Seat },
    /// CK-PC-7 Wedding: the seats in `pending`, with more points than `to`, each give it two
    /// resource or commodity cards of their choice (`give_cards`), in any order.
    GiveCards {
        to: Seat,
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<Seat>))]
        pending: PerSeat<Seat>,
    },
    // Politics cards' decisions (cards/politics.rs) go above this line.
}

impl CardDecision {
    /// The seats the decision waits for, given the active seat.
    pub fn deciders(&self, _active: Seat) -> Vec<Seat> {
        self.decider_seats().collect()
    }

    /// The first seat the decision waits for: the one a driver asks next, every move.
    pub fn first_decider(&self) -> Option<Seat> {
        self.decider_seats().next()
    }

    /// Whether the decision waits for `seat`.
    pub fn waits_for(&self, seat: Seat) -> bool {
        self.decider_seats().any(|s| s == seat)
    }

    /// The seats the decision waits for, in order, read off the decision rather than listed:
    /// a driver asks every move (issue 28).
    fn decider_seats(&self) -> impl Iterator<Item = Seat> + '_ {
        let (discards, listed, one): (&[PendingDiscard], &[Seat], Option<Seat>) = match self {
            CardDecision::DiscardProgressCards { pending } => (pending, &[], None),
            // Science cards' deciders go above this line.
            CardDecision::GiveCommodity { seat, .. } | CardDecision::TakeCards { seat, .. } => (&[], &[], Some(*seat)),
            // Trade cards' deciders go above this line.
            CardDecision::RemoveKnight { seat, .. }
            | CardDecision::PlaceDeserterKnight { seat, .. }
            | CardDecision::TakeProgressCard { seat, .. } => (&[], &[], Some(*seat)),
            CardDecision::GiveCards { pending, .. } => (&[], pending, None),
            // Politics cards' deciders go above this line.
        };
        discards.iter().map(|p| p.seat).chain(listed.iter().copied()).chain(one)
    }
}

/// The three city improvement tracks (CK-IMP-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Track {
    /// Yellow, built with cloth.
    Trade,
    /// Blue, built with coin.
    Politics,
    /// Green, built with paper.
    Science,
}

/// What the event die shows (CK-CMP-8, CK-EVT-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum EventFace {
    /// The barbarian ship (three of the six faces): the barbarians advance (CK-BAR-2).
    Ship,
    /// The yellow city gate: trade progress cards may be drawn (CK-EVT-2).
    Trade,
    /// The blue city gate: politics progress cards.
    Politics,
    /// The green city gate: science progress cards.
    Science,
}

/// The 25 kinds of progress card (CK-PC-7), science first, then trade, then politics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ProgressCard {
    Alchemist,
    Crane,
    Engineer,
    Inventor,
    Irrigation,
    Medicine,
    Mining,
    Printer,
    RoadBuilding,
    Smith,
    CommercialHarbor,
    MasterMerchant,
    Merchant,
    MerchantFleet,
    ResourceMonopoly,
    TradeMonopoly,
    Bishop,
    Constitution,
    Deserter,
    Diplomat,
    Intrigue,
    Saboteur,
    Spy,
    Warlord,
    Wedding,
}

/// A count of progress cards per kind: a hand, or a deck.
pub type ProgressCards = Counts<ProgressCard>;

/// A progress card played, with what its effect needs (CK-PC-7). Printer and Constitution
/// are never played: they score when drawn (CK-EVT-3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "card", rename_all = "snake_case", deny_unknown_fields)]
pub enum ProgressPlay {
    /// Before the roll, instead of rolling the number dice: choose both (1-6 each); the event
    /// die is rolled and resolved first as usual.
    Alchemist {
        #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 6))]
        red: u8,
        #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 6))]
        white: u8,
    },
    /// The next improvement built this turn costs one commodity less.
    Crane,
    /// A free city wall under one of your cities (CK-WALL-1 limits apply).
    Engineer { vertex: VertexId },
    /// Swap the number tokens of two hexes; neither may carry 2, 12, 6 or 8.
    Inventor { hexes: [HexCoord; 2] },
    /// 2 grain for each fields hex touching one of your buildings.
    Irrigation,
    /// Upgrade your settlement on `vertex` to a city for 2 ore + 1 grain.
    Medicine { vertex: VertexId },
    /// 2 ore for each mountains hex touching one of your buildings.
    Mining,
    /// Build two roads for free (`build_road` twice).
    RoadBuilding,
    /// Promote one or two of your knights for free (mighty still needs politics level 3).
    Smith {
        // Inline (two fit), so that listing the plays allocates nothing; an overlong list
        // still reads, for the rule to refuse (`wrong_knight_count`).
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<VertexId>, min_items = 1, max_items = 2))]
        knights: InlineList<VertexId, 2>,
    },
    /// This turn, offer each opponent once one resource for a commodity of their choice
    /// (`commercial_harbor_exchange`).
    CommercialHarbor,
    /// Look at the resources and commodities of `target`, who has more points than you, and
    /// take two of them (`take_cards`).
    MasterMerchant { target: Seat },
    /// Place the merchant on a land hex touching one of your buildings (CK-MER).
    Merchant { hex: HexCoord },
    /// For the rest of this turn, trade `good` with the bank at 2:1.
    MerchantFleet { good: Good },
    /// Every opponent gives you 2 cards of `resource` (all they have, if fewer).
    ResourceMonopoly { resource: Resource },
    /// Every opponent gives you 1 card of `commodity`, if they have one.
    TradeMonopoly { commodity: Commodity },
    /// Move the robber to `hex` and take a random card from each opponent with a building
    /// there. Not before the first barbarian attack (CK-BAR-10).
    Bishop { hex: HexCoord },
    /// `target` removes one of their knights (`remove_knight`); you may place one of yours of
    /// the same strength for free.
    Deserter { target: Seat },
    /// Remove the open road on `edge`; if it is yours, you may put it on `to` for free.
    Diplomat {
        edge: EdgeId,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<EdgeId>,
    },
    /// Displace the opponent's knight on `vertex`, at the end of one of your roads; its owner
    /// relocates it (CK-KNT-7).
    Intrigue { vertex: VertexId },
    /// Every seat with at least your points discards half of its resources and commodities.
    Saboteur,
    /// Look at `target`'s progress cards and take one (`take_progress_card`).
    Spy { target: Seat },
    /// Activate all your knights for free.
    Warlord,
    /// Every seat with more points than you gives you two resources or commodities of its
    /// choice (`give_cards`).
    Wedding,
}

/// A resource or a commodity: what a Merchant Fleet trades at 2:1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum Good {
    Resource(Resource),
    Commodity(Commodity),
}

// The state that the game resource shows, and the view built from it (view.rs).

/// A knight on the board (CK-CMP-4): its rank is its strength (basic 1, strong 2, mighty 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Knight {
    pub vertex: VertexId,
    pub seat: Seat,
    pub rank: u8,
    pub active: bool,
    /// Activated during the current turn: it may not act before the next (CK-KNT-5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub activated_this_turn: bool,
    /// Promoted during the current turn: once per turn (CK-KNT-3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub promoted_this_turn: bool,
}

/// A track's metropolis on one of its holder's cities (CK-MET-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Metropolis {
    pub track: Track,
    pub seat: Seat,
    /// The city that carries it.
    pub vertex: VertexId,
}

/// What progress cards played this turn leave in force until it ends (positions carry it;
/// the game resource shows it, as the cards were played face up).
#[derive(Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CardTurn {
    /// A Crane waits for the next improvement (CK-PC-7 Crane).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub crane: bool,
    /// Goods a Merchant Fleet lets the active seat trade at 2:1.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merchant_fleets: Vec<Good>,
    /// Once a Commercial Harbor is played: the opponents already offered an exchange.
    // Inline (one entry per opponent), so that an exchange allocates nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<Seat>>))]
    pub commercial_harbor: Option<InlineList<Seat, MAX_SEATS>>,
}

/// By hand for `clone_from`, which reuses the look-ahead copy's lists (see
/// `CitiesKnightsState`).
impl Clone for CardTurn {
    fn clone(&self) -> Self {
        let mut copy = CardTurn::default();
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &Self) {
        let CardTurn { crane, merchant_fleets, commercial_harbor } = source;
        self.crane = *crane;
        self.merchant_fleets.clone_from(merchant_fleets);
        self.commercial_harbor.clone_from(commercial_harbor);
    }
}

/// The merchant figure on the board (CK-MER).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Merchant {
    pub seat: Seat,
    pub hex: HexCoord,
}

/// The barbarians, and each seat's improvements, knights and walls (Cities & Knights).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CitiesKnightsView {
    /// The barbarian ship's position: 0 at the start, attacking on reaching `barbarian_steps`
    /// (CK-BAR-1).
    pub barbarians: u8,
    pub barbarian_steps: u8,
    /// Attacks so far; before the first the robber waits (CK-BAR-10).
    pub attacks: u32,
    /// Whether the robber may move on a 7 yet (CK-BAR-10).
    pub robber_active: bool,
    pub seats: Vec<CitiesKnightsSeatView>,
    /// The progress cards left in each deck (CK-CMP-2).
    pub decks: Vec<DeckView>,
    /// The merchant and its holder, once a Merchant card placed it: the holder trades the
    /// hex's resource with the bank at 2:1 and has 1 point for it (CK-MER-1..3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merchant: Option<Merchant>,
    /// While a Spy's player chooses the card to take: the target's progress cards, shown to
    /// that player alone (CK-PC-6/7 Spy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spied: Option<SpiedCards>,
    /// What the active seat's cards played this turn leave in force: a Crane waiting for the
    /// next improvement, Merchant Fleets' goods at 2:1, a Commercial Harbor and the opponents
    /// it already reached (CK-PC-7); absent when nothing is.
    #[serde(default, skip_serializing_if = "CardTurn::is_unused")]
    pub in_force: CardTurn,
}

/// The progress cards a Spy shows its player (CK-PC-7 Spy).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SpiedCards {
    pub target: Seat,
    pub cards: ProgressCards,
}

/// One seat's part of Cities & Knights, as everyone sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CitiesKnightsSeatView {
    pub seat: Seat,
    /// Levels by track: trade, politics, science (CK-IMP).
    pub improvements: [u8; 3],
    pub knights: Vec<Knight>,
    pub walls: Vec<VertexId>,
    /// Defender of Catan cards (1 point each, CK-BAR-6).
    pub defender_points: u32,
    /// Progress cards held (VP cards included).
    pub progress_card_count: u32,
    /// The VP progress cards, face up (CK-EVT-3).
    pub revealed_points: u32,
    /// The seat's metropolises, each on one of its cities (CK-MET-1).
    pub metropolises: Vec<Metropolis>,
    /// The points the metropolises add to their cities: 2 each (CK-MET-1).
    pub metropolis_points: u32,
    /// The cards themselves: for the seat itself, and for everyone once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress_cards: Option<ProgressCards>,
}

/// A progress deck and the cards left in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DeckView {
    pub track: Track,
    pub cards_left: u32,
}
