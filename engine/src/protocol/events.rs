//! Events: facts in the past tense. `decide` returns them, `apply` folds them into the
//! state, and the server stores them as the move log. Fields that only some seats may see
//! are `Option`s that [`Event::redacted_for`] clears.

use serde::{Deserialize, Serialize};

pub use super::event_records::{SeatCommodities, SeatCount, SeatResources, StartingRoll, VictoryCondition, Viewer};
use super::tagged_enum;
use crate::{
    board::{BoardLayout, EdgeId, HarbourKind, HexCoord, Terrain, VertexId},
    ext::seafarers::scenario::Gift,
    ext::seafarers::types::BattleOutcome,
    ext::{
        cities_knights::types::{EventFace, ProgressCard, ProgressCards, ProgressPlay, Track},
        wonders::types::WonderId,
    },
    model::{
        Cards, Commodities, Commodity, Counts, DevCard, KindSet, PerSeat, Phase, Phases, Resource, Resources, Seat,
        TradeOffer,
    },
};

tagged_enum! {
serde
/// Something that happened in the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event => fn kind {
    /// The game starts from a prepared position (`POST /games` with `position`), right after
    /// its `game_started`: the whole position, redacted for each reader as the game view is.
    PositionSet = "position_set" { position: Box<crate::position::Setup> },
    /// The game was set up: the board, the seats, and who starts.
    GameStarted = "game_started" {
        players: u8,
        board: BoardLayout,
        first_seat: Seat,
        /// First-player rolls, in order, including re-rolls among tied seats.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        starting_rolls: Vec<StartingRoll>,
        /// The game's secret seed; published only after game over.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<u64>,
    },
    /// What the game waits for changed: `phase` now, then the phases in `then`, in order,
    /// as each is done (an interrupted phase resumes after the decision that interrupted it).
    PhaseChanged = "phase_changed" {
        phase: Phase,
        #[serde(default, skip_serializing_if = "Phases::is_empty")]
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<Phase>))]
        then: Phases,
    },
    SettlementBuilt = "settlement_built" { seat: Seat, vertex: VertexId, cost: Resources },
    CityBuilt = "city_built" { seat: Seat, vertex: VertexId, cost: Resources },
    RoadBuilt = "road_built" { seat: Seat, edge: EdgeId, cost: Resources },
    /// A ship was built (SEA-1; free in setup and with Road Building).
    ShipBuilt = "ship_built" { seat: Seat, edge: EdgeId, cost: Resources },
    /// A ship moved from one edge to another (SEA-6).
    ShipMoved = "ship_moved" { seat: Seat, from: EdgeId, to: EdgeId },
    /// `seat` drew the top harbour of the face-down stack; its kind is public (NEW-11).
    HarbourDrawn = "harbour_drawn" { seat: Seat, kind: HarbourKind },
    /// `seat` placed a harbour: the one it drew (NEW-11, NEW-LEGAL-5), or a gift harbour at
    /// its own coast, which serves it at once (FTR-10/11).
    HarbourPlaced = "harbour_placed" { seat: Seat, edge: EdgeId, kind: HarbourKind },
    /// The pirate moved to a sea hex (SEA-7).
    PirateMoved = "pirate_moved" { seat: Seat, hex: HexCoord },
    /// A fog hex was turned face up by `seat`'s road or ship (SEA-13): its terrain, its
    /// number token if it produces, and the card the discoverer received, if any (a gold
    /// hex's card is chosen next).
    FogRevealed = "fog_revealed" {
        seat: Seat,
        hex: HexCoord,
        terrain: Terrain,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        number: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resource: Option<Resource>,
    },
    /// The first ship on a gift's edge took the gift (The Forgotten Tribe, FTR-7); what it
    /// brings follows in the next event.
    GiftClaimed = "gift_claimed" { seat: Seat, edge: EdgeId, gift: Gift },
    /// A victory point gift: one point, public and permanent (FTR-9).
    VictoryPointGifted = "victory_point_gifted" { seat: Seat },
    /// A development card from the set-aside stack (FTR-8): which card, its owner only. It
    /// counts as bought this turn.
    DevelopmentCardGifted = "development_card_gifted" {
        seat: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<DevCard>,
    },
    /// A gift harbour left its tribe edge: its claimant holds it until placed (FTR-10/12).
    HarbourTaken = "harbour_taken" { seat: Seat, from_edge: EdgeId, kind: HarbourKind },
    /// `seat`'s ships reach the village at `village` from one of its buildings: the
    /// connection is for good and its ships there can no longer move (CLV-6, SCN-7).
    VillageConnected = "village_connected" { seat: Seat, village: VertexId },
    /// Cloth for each of `recipients` (one each), from the village's stock and, where it fell
    /// short, from the general supply (CLV-7 first contact, CLV-8 a roll of its number).
    ClothReceived = "cloth_received" {
        village: VertexId,
        recipients: Vec<Seat>,
        from_village: u8,
        from_supply: u8,
    },
    /// The pirate's mover took one cloth from `victim` (CLV-12).
    ClothStolen = "cloth_stolen" { thief: Seat, victim: Seat },
    /// The village at `village` has no cloth left (CLV-14).
    VillageExhausted = "village_exhausted" { village: VertexId },
    /// A seat's fortress stands on the pirate islands with its strength before setup; with
    /// `pir_fortress_reserves_settlement` a settlement of its supply waits under it (PIR-4).
    FortressPlaced = "fortress_placed" { seat: Seat, vertex: VertexId, strength: u8 },
    /// The pirate fleet sailed `steps` hexes along its path, `from` one hex `to` another,
    /// with `strength` for this roll (PIR-11, PIR-12).
    PirateFleetMoved = "pirate_fleet_moved" { from: HexCoord, to: HexCoord, steps: u8, strength: u8 },
    /// The fleet attacked `seat` (PIR-13, PIR-14): its `warships` against the fleet's
    /// `strength`. A lost battle took `cards_lost` random cards to the bank; which, the seat
    /// only sees (`resources`). A won battle's card of free choice follows as a gold choice.
    FleetAttack = "fleet_attack" {
        seat: Seat,
        strength: u8,
        warships: u8,
        outcome: BattleOutcome,
        #[serde(default, skip_serializing_if = "is_zero")]
        cards_lost: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resources: Option<Resources>,
    },
    /// A Knight card made `seat`'s ship on `edge` a warship (PIR-15).
    ShipBecameWarship = "ship_became_warship" { seat: Seat, edge: EdgeId },
    /// `seat` attacked its fortress (PIR-18): its `warships` against the `defence_roll`; a won
    /// attack takes 1 strength, a lost or tied one sinks the ships in `ships_lost`.
    FortressAttacked = "fortress_attacked" {
        seat: Seat,
        defence_roll: u8,
        warships: u8,
        outcome: BattleOutcome,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        ships_lost: Vec<EdgeId>,
    },
    /// `seat`'s fortress fell: it is now `seat`'s settlement (PIR-19).
    FortressConquered = "fortress_conquered" { seat: Seat, vertex: VertexId },
    /// Every fortress is conquered: the fleet leaves the board (PIR-21).
    PirateFleetDefeated = "pirate_fleet_defeated",
    /// After a 7 no opponent held a card, so `seat` stole nothing (PIR-10).
    StealSkipped = "steal_skipped" { seat: Seat },
    /// A settlement earned the island bonus (SEA-12).
    IslandBonusEarned = "island_bonus_earned" { seat: Seat, vertex: VertexId, points: u32 },
    /// A seat took its cards of free choice for gold outside production: its second setup
    /// settlement, or a gold hex it discovered (SEA-9, SEA-13).
    GoldResourcesTaken = "gold_resources_taken" { seat: Seat, resources: Resources },
    /// A seat claimed a wonder, putting a ship from its supply on the card (WON-8).
    WonderClaimed = "wonder_claimed" { seat: Seat, wonder: WonderId },
    /// A seat paid for the next stage of its wonder (WON-10); `stage` counts from 1.
    WonderStageBuilt = "wonder_stage_built" { seat: Seat, wonder: WonderId, stage: u8, cost: Resources },
    /// Resources for the second setup settlement (B-SET-6).
    StartingResourcesReceived = "starting_resources_received" { seat: Seat, resources: Resources },
    DiceRolled = "dice_rolled" { seat: Seat, red: u8, white: u8 },
    /// Production of a roll (B-PROD-1..4); `shortages` lists types nobody received because
    /// the bank ran short.
    ResourcesProduced = "resources_produced" {
        roll: u8,
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<SeatResources>))]
        gains: PerSeat<SeatResources>,
        #[serde(default, skip_serializing_if = "KindSet::is_empty")]
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<Resource>))]
        shortages: KindSet<Resource>,
        /// Jungle discoveries produced (JUN-4).
        #[serde(default, skip_serializing_if = "PerSeat::is_empty")]
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<SeatCount>))]
        discoveries: PerSeat<SeatCount>,
    },
    /// A seat returned cards after a 7. The cards are visible to that seat only.
    ResourcesDiscarded = "resources_discarded" {
        seat: Seat,
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resources: Option<Resources>,
    },
    RobberMoved = "robber_moved" { seat: Seat, hex: HexCoord },
    /// A card was stolen. Which card is visible to the thief and the victim only.
    ResourceStolen = "resource_stolen" {
        thief: Seat,
        victim: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resource: Option<Resource>,
    },
    /// A development card was bought. Which card is visible to the buyer only.
    DevelopmentCardBought = "development_card_bought" {
        seat: Seat,
        cost: Resources,
        /// Jungle discoveries spent in place of cost cards (JUN-5).
        #[serde(default, skip_serializing_if = "is_zero")]
        discoveries: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<DevCard>,
    },
    KnightPlayed = "knight_played" { seat: Seat },
    RoadBuildingPlayed = "road_building_played" { seat: Seat },
    YearOfPlentyPlayed = "year_of_plenty_played" { seat: Seat, resources: Resources },
    MonopolyPlayed = "monopoly_played" {
        seat: Seat,
        resource: Resource,
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<SeatResources>))]
        taken: PerSeat<SeatResources>,
    },
    BankTraded = "bank_traded" { seat: Seat, give: Resources, get: Resources },
    TradeOffered = "trade_offered" { offer: TradeOffer },
    TradeAccepted = "trade_accepted" { offer_id: u32, seat: Seat },
    TradeDeclined = "trade_declined" { offer_id: u32, seat: Seat },
    TradeWithdrawn = "trade_withdrawn" { offer_id: u32 },
    /// Open offers lapsed at the end of the turn.
    TradesExpired = "trades_expired" { offer_ids: Vec<u32> },
    /// Cards were exchanged: `from` (the offerer) gave `give` and received `get` from `with`
    /// (and the commodities named, in Cities & Knights).
    TradeCompleted = "trade_completed" {
        offer_id: u32,
        from: Seat,
        with: Seat,
        give: Resources,
        get: Resources,
        #[serde(default, skip_serializing_if = "Counts::is_empty")]
        give_commodities: Commodities,
        #[serde(default, skip_serializing_if = "Counts::is_empty")]
        get_commodities: Commodities,
    },
    LargestArmyChanged = "largest_army_changed" {
        holder: Option<Seat>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        previous: Option<Seat>,
    },
    LongestRoadChanged = "longest_road_changed" {
        holder: Option<Seat>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        previous: Option<Seat>,
        length: u32,
    },
    TurnStarted = "turn_started" { seat: Seat, turn: u32 },
    /// The game ended; hidden victory point cards are revealed. `condition` says how it
    /// was won (logs written before it existed read as `victory_points`).
    GameWon = "game_won" {
        seat: Seat,
        victory_points: u32,
        victory_point_cards: u32,
        #[serde(default)]
        condition: VictoryCondition,
    },
    /// The event die of Cities & Knights, rolled with the number dice (CK-CMP-8, CK-TURN-2);
    /// it is resolved first (CK-TURN-3).
    EventDieRolled = "event_die_rolled" { seat: Seat, face: EventFace },
    /// The barbarian ship advanced to `position` (CK-BAR-2).
    BarbariansAdvanced = "barbarians_advanced" { position: u8 },
    /// The commodities cities took on a roll (CK-PROD-2), after `resources_produced` of the
    /// same roll; `shortages` lists kinds nobody received because the bank ran short (CK-PROD-4).
    CommoditiesProduced = "commodities_produced" {
        roll: u8,
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<SeatCommodities>))]
        gains: PerSeat<SeatCommodities>,
        #[serde(default, skip_serializing_if = "KindSet::is_empty")]
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<Commodity>))]
        shortages: KindSet<Commodity>,
    },
    /// A seat returned resource and commodity cards after a 7 (CK-7-1). The cards are visible
    /// to that seat only.
    CardsDiscarded = "cards_discarded" {
        seat: Seat,
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Cards>,
    },
    /// A commodity card was stolen (CK-7-2). Which one is visible to the thief and the victim only.
    CommodityStolen = "commodity_stolen" {
        thief: Seat,
        victim: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        commodity: Option<Commodity>,
    },
    /// A seat built the next level of an improvement track (CK-IMP-2).
    ImprovementBuilt = "improvement_built" { seat: Seat, track: Track, level: u8, cost: Commodities },
    /// A seat drew a progress card of `track`'s deck (CK-EVT-2). Which card is visible to
    /// that seat only, but for the VP cards, revealed at once (CK-EVT-3).
    ProgressCardDrawn = "progress_card_drawn" {
        seat: Seat,
        track: Track,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<ProgressCard>,
    },
    /// A basic knight joined the board, inactive (CK-KNT-2).
    KnightRecruited = "knight_recruited" { seat: Seat, vertex: VertexId, cost: Resources },
    /// A knight rose to `rank` (CK-KNT-3).
    KnightPromoted = "knight_promoted" { seat: Seat, vertex: VertexId, rank: u8, cost: Resources },
    /// A knight became active (CK-KNT-4).
    KnightActivated = "knight_activated" { seat: Seat, vertex: VertexId, cost: Resources },
    /// A knight moved along its owner's roads and became inactive (CK-KNT-6).
    KnightMoved = "knight_moved" { seat: Seat, from: VertexId, to: VertexId },
    /// A knight moved onto `to` and became inactive, displacing the weaker knight of
    /// `displaced` (of `rank`, `active` or not) standing there (CK-KNT-7); a
    /// `relocate_knight` phase or `knight_returned_to_supply` follows.
    KnightDisplaced = "knight_displaced" {
        seat: Seat,
        from: VertexId,
        to: VertexId,
        displaced: Seat,
        rank: u8,
        active: bool,
    },
    /// A displaced knight was put back on the board at `to`, keeping its rank and state
    /// (CK-KNT-7).
    KnightRelocated = "knight_relocated" { seat: Seat, from: VertexId, to: VertexId, rank: u8, active: bool },
    /// A displaced knight had no empty vertex to go to: it went back to its owner's supply
    /// (CK-KNT-7).
    KnightReturnedToSupply = "knight_returned_to_supply" { seat: Seat, vertex: VertexId, rank: u8 },
    /// A knight chased the robber and became inactive (CK-KNT-8); the robber's move and the
    /// theft follow.
    RobberChased = "robber_chased" { seat: Seat, knight: VertexId },
    /// A city wall was built (CK-WALL-1).
    CityWallBuilt = "city_wall_built" { seat: Seat, vertex: VertexId, cost: Resources },
    /// The barbarians reached Catan (CK-BAR-3..5): their `strength` (cities) against the
    /// active knights' `defence`, with each seat's contribution. Afterwards every knight is
    /// inactive and the ship is back at the start (CK-BAR-9).
    BarbariansAttacked = "barbarians_attacked" {
        strength: u32,
        defence: u32,
        // Inline (one entry per seat), so that an attack allocates no list.
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<SeatCount>))]
        contributions: PerSeat<SeatCount>,
    },
    /// The strongest defender took a Defender of Catan card: 1 point (CK-BAR-6).
    DefenderOfCatan = "defender_of_catan" { seat: Seat },
    /// The barbarians pillaged a city: it became a settlement and lost its wall (CK-BAR-7/8).
    CityPillaged = "city_pillaged" { seat: Seat, vertex: VertexId },
    /// A trade with the bank naming commodities (CK-TRD-1/2).
    CardsTradedWithBank = "cards_traded_with_bank" { seat: Seat, give: Cards, get: Cards },
    /// A seat's improvement of `track` brought it the track's metropolis, which nobody held:
    /// it stands on the seat's city at `vertex`, worth 2 more points (CK-MET-1).
    MetropolisPlaced = "metropolis_placed" { seat: Seat, track: Track, vertex: VertexId },
    /// A seat reached level 5 of `track` while the holder `from_seat` was at 4: the metropolis
    /// moved from that seat's city at `from` (a plain city again) to the seat's city at `to`
    /// (CK-MET-3).
    MetropolisMoved = "metropolis_moved" {
        seat: Seat,
        track: Track,
        from_seat: Seat,
        from: VertexId,
        to: VertexId,
    },
    /// An Inventor swapped the number tokens of two hexes (CK-PC-7): `numbers` are the tokens
    /// they carried before, in the order of `hexes`; each now carries the other's.
    NumberTokensSwapped = "number_tokens_swapped" { seat: Seat, hexes: [HexCoord; 2], numbers: [u8; 2] },
    /// An Irrigation or a Mining gave `seat` these resources from the bank (CK-PC-7).
    ResourcesHarvested = "resources_harvested" { seat: Seat, resources: Resources },
    // Science cards' events (ext/cities_knights/cards/science.rs) go above this line.
    /// A seat played a progress card (CK-PC-2); it went to the bottom of its deck (CK-PC-3).
    /// Its effect's events follow.
    ProgressCardPlayed = "progress_card_played" { seat: Seat, play: ProgressPlay },
    /// A Merchant card put the merchant on `hex` (CK-MER-1): `seat` now trades the hex's
    /// resource with the bank at 2:1 and holds 1 point for it (CK-MER-2/3), taken from
    /// `from_seat` when another seat held the merchant.
    MerchantPlaced = "merchant_placed" {
        seat: Seat,
        hex: HexCoord,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from_seat: Option<Seat>,
    },
    /// A Resource Monopoly: each opponent gave `seat` 2 cards of `resource`, or all it had
    /// (CK-PC-7); `taken` lists what each opponent gave.
    ResourceMonopolyTaken = "resource_monopoly_taken" {
        seat: Seat,
        resource: Resource,
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<SeatResources>))]
        taken: PerSeat<SeatResources>,
    },
    /// A Trade Monopoly: each opponent holding `commodity` gave `seat` one (CK-PC-7); `taken`
    /// lists what each opponent gave.
    TradeMonopolyTaken = "trade_monopoly_taken" {
        seat: Seat,
        commodity: Commodity,
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<SeatCommodities>))]
        taken: PerSeat<SeatCommodities>,
    },
    /// Commercial Harbor: `seat` gave `with` one resource card; a commodity comes back
    /// (`commercial_harbor_answered`). Which resource is visible to the two seats only.
    CommercialHarborOffered = "commercial_harbor_offered" {
        seat: Seat,
        with: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resource: Option<Resource>,
    },
    /// Commercial Harbor: `seat` gave `to` one commodity for the resource received (CK-PC-7).
    /// Which commodity is visible to the two seats only.
    CommercialHarborAnswered = "commercial_harbor_answered" {
        seat: Seat,
        to: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        commodity: Option<Commodity>,
    },
    /// Commercial Harbor: `seat` offered `with` an exchange, but `with` holds no commodity:
    /// nothing changed hands (CK-PC-7).
    CommercialHarborDeclined = "commercial_harbor_declined" { seat: Seat, with: Seat },
    /// Master Merchant: `seat` was shown the resources and commodities of `target` (CK-PC-7).
    /// The cards are visible to the two seats only.
    HandShown = "hand_shown" {
        seat: Seat,
        target: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Cards>,
    },
    /// Master Merchant: `seat` took `count` cards from `from`'s hand (CK-PC-7). Which cards is
    /// visible to the two seats only.
    CardsTaken = "cards_taken" {
        seat: Seat,
        from: Seat,
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Cards>,
    },
    // Trade cards' events (ext/cities_knights/cards/trade.rs) go above this line.
    /// A seat over the hand limit discarded a progress card, face down to the bottom of
    /// `track`'s deck (CK-PC-3/5). Which card is visible to that seat only.
    ProgressCardDiscarded = "progress_card_discarded" {
        seat: Seat,
        track: Track,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<ProgressCard>,
    },
    /// `seat` took a progress card from `from`'s hand (Spy, CK-PC-7). Which card is visible to
    /// the two seats only.
    ProgressCardTaken = "progress_card_taken" {
        seat: Seat,
        from: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<ProgressCard>,
    },
    /// A Deserter made `seat` take its knight (of `rank`, `active` or not) off `vertex`
    /// (CK-PC-7 Deserter).
    KnightDeserted = "knight_deserted" { seat: Seat, vertex: VertexId, rank: u8, active: bool },
    /// The Deserter's player placed a knight of `rank` for free on `vertex`, in the deserted
    /// knight's state (CK-PC-7 Deserter).
    DeserterKnightPlaced = "deserter_knight_placed" { seat: Seat, vertex: VertexId, rank: u8, active: bool },
    /// A Diplomat played by `seat` removed `owner`'s open road on `edge`; the piece went back
    /// to its owner (CK-PC-7 Diplomat).
    RoadRemoved = "road_removed" { seat: Seat, owner: Seat, edge: EdgeId },
    /// An Intrigue played by `seat` displaced the knight of `displaced` (of `rank`, `active`
    /// or not) from `vertex`; a `relocate_knight` phase or `knight_returned_to_supply`
    /// follows (CK-PC-7 Intrigue, CK-KNT-7).
    KnightIntrigued = "knight_intrigued" {
        seat: Seat,
        vertex: VertexId,
        displaced: Seat,
        rank: u8,
        active: bool,
    },
    /// A Spy played by `seat` showed it `target`'s progress cards. The cards are visible to
    /// the two seats only (CK-PC-7 Spy).
    ProgressCardsRevealed = "progress_cards_revealed" {
        seat: Seat,
        target: Seat,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<ProgressCards>,
    },
    /// `seat` gave `to` `count` resource or commodity cards after a Wedding. Which cards is
    /// visible to the two seats only (CK-PC-7 Wedding).
    CardsGiven = "cards_given" {
        seat: Seat,
        to: Seat,
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Cards>,
    },
    // Politics cards' events (ext/cities_knights/cards/politics.rs) go above this line.
}
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl Event {
    /// Tests if the event is known to leave every piece on the board (buildings, roads, ships,
    /// knights) and everyone's points as they were: it moves cards, counters, the robber or
    /// the pirate, or the turn along. Any other event, every extension's unless listed here,
    /// may change pieces or points; the victory check and the kept route lengths read this.
    pub fn leaves_pieces_and_points(&self) -> bool {
        matches!(
            self,
            Event::PhaseChanged { .. }
                | Event::DiceRolled { .. }
                | Event::ResourcesProduced { .. }
                | Event::StartingResourcesReceived { .. }
                | Event::ResourcesDiscarded { .. }
                | Event::RobberMoved { .. }
                | Event::ResourceStolen { .. }
                | Event::KnightPlayed { .. }
                | Event::RoadBuildingPlayed { .. }
                | Event::YearOfPlentyPlayed { .. }
                | Event::MonopolyPlayed { .. }
                | Event::BankTraded { .. }
                | Event::TradeOffered { .. }
                | Event::TradeAccepted { .. }
                | Event::TradeDeclined { .. }
                | Event::TradeWithdrawn { .. }
                | Event::TradesExpired { .. }
                | Event::TradeCompleted { .. }
                | Event::TurnStarted { .. }
                | Event::GoldResourcesTaken { .. }
                | Event::PirateMoved { .. }
                | Event::PirateFleetMoved { .. }
                | Event::FleetAttack { .. }
                | Event::ShipBecameWarship { .. }
                | Event::StealSkipped { .. }
                | Event::EventDieRolled { .. }
                | Event::BarbariansAdvanced { .. }
                | Event::CommoditiesProduced { .. }
                | Event::CardsDiscarded { .. }
                | Event::CommodityStolen { .. }
                | Event::CardsTradedWithBank { .. }
                | Event::ImprovementBuilt { .. }
                | Event::ProgressCardPlayed { .. }
                | Event::NumberTokensSwapped { .. }
        )
    }

    /// Tests if the event places, moves, strengthens or takes away a knight, or builds a city
    /// wall (Cities & Knights), and changes nothing else on the board: no road, ship,
    /// settlement or city, and no one's points.
    pub(crate) fn changes_only_knights_or_walls(&self) -> bool {
        matches!(
            self,
            Event::KnightRecruited { .. }
                | Event::KnightPromoted { .. }
                | Event::KnightActivated { .. }
                | Event::KnightMoved { .. }
                | Event::KnightDisplaced { .. }
                | Event::KnightRelocated { .. }
                | Event::KnightReturnedToSupply { .. }
                | Event::RobberChased { .. }
                | Event::CityWallBuilt { .. }
        )
    }

    /// Tests if the event is known to leave every road, ship, settlement and city where it
    /// stands, with its owner: those of [`Event::leaves_pieces_and_points`], and the events
    /// that move knights, build walls, change points or hands. The kept sets of each seat's
    /// pieces read this: in Cities & Knights, where most moves are of knights and cards, they
    /// were otherwise looked up again for nearly every listing.
    pub(crate) fn leaves_roads_ships_and_buildings(&self) -> bool {
        self.leaves_pieces_and_points()
            || self.changes_only_knights_or_walls()
            || matches!(
                self,
                Event::DevelopmentCardBought { .. }
                    | Event::LargestArmyChanged { .. }
                    | Event::LongestRoadChanged { .. }
                    | Event::ProgressCardDrawn { .. }
                    | Event::DefenderOfCatan { .. }
                    | Event::ResourcesHarvested { .. }
                    | Event::MerchantPlaced { .. }
                    | Event::ResourceMonopolyTaken { .. }
                    | Event::TradeMonopolyTaken { .. }
                    | Event::CommercialHarborOffered { .. }
                    | Event::CommercialHarborAnswered { .. }
                    | Event::CommercialHarborDeclined { .. }
                    | Event::HandShown { .. }
                    | Event::CardsTaken { .. }
                    | Event::ProgressCardDiscarded { .. }
                    | Event::ProgressCardTaken { .. }
                    | Event::KnightDeserted { .. }
                    | Event::DeserterKnightPlaced { .. }
                    | Event::KnightIntrigued { .. }
                    | Event::ProgressCardsRevealed { .. }
                    | Event::CardsGiven { .. }
            )
    }
}
