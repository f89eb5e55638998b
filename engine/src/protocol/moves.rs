//! Moves: what a seat asks to do, in the imperative. Serialized with a snake_case `type` tag;
//! these are the bodies clients POST.

use serde::{Deserialize, Serialize};

use super::tagged_enum;
use crate::{
    board::{EdgeId, HexCoord, VertexId},
    ext::{
        cities_knights::types::{ProgressCard, ProgressPlay, Track},
        seafarers::types::StealKind,
        wonders::types::WonderId,
    },
    model::{Cards, Commodities, Commodity, Counts, PerSeat, Resource, Resources, Seat},
};

tagged_enum! {
serde
/// A move a seat asks to make.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Move => fn kind {
    /// Build a settlement (free during setup, B-SET-4; otherwise B-BLD-1/4/5).
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "build_settlement", "vertex": "0,-1,N"})))]
    BuildSettlement = "build_settlement" { vertex: VertexId },
    /// Build a road (free during setup and Road Building; otherwise B-BLD-1/3).
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "build_road", "edge": "0,-1,NE"})))]
    BuildRoad = "build_road" { edge: EdgeId },
    /// Upgrade one of your settlements to a city (B-BLD-6).
    BuildCity = "build_city" { vertex: VertexId },
    /// Build a ship on an edge touching the sea (Seafarers, SEA-1..3): 1 lumber + 1 wool; free
    /// as the setup piece next to a coastal settlement (SEA-5) and with Road Building (SEA-11).
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "build_ship", "edge": "0,-3,SE"})))]
    BuildShip = "build_ship" { edge: EdgeId },
    /// Move one of your ships from the open end of a shipping route to another edge, once per
    /// turn in your main phase (Seafarers, SEA-6).
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "move_ship", "from": "0,-3,SE", "to": "1,-4,SE"})))]
    MoveShip = "move_ship" { from: EdgeId, to: EdgeId },
    /// Place the gift harbour you claimed (or kept for later) on a coast edge at your own
    /// settlement or city whose ends touch no harbour (The Forgotten Tribe, FTR-10..12).
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "place_gift_harbour", "edge": "-2,-1,NE"})))]
    PlaceGiftHarbour = "place_gift_harbour" { edge: EdgeId },
    /// Place the harbour you drew on a coast edge that touches no other harbour, on an island
    /// with fewer than the most harbours (The New World with `new_world_harbours =
    /// players_place`, before setup: NEW-11, NEW-LEGAL-5).
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "place_harbour", "edge": "0,-1,NE"})))]
    PlaceHarbour = "place_harbour" { edge: EdgeId },
    /// Take a cloth or a resource card from the pirate's victim, who holds both (Cloth for
    /// Catan, CLV-12).
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "choose_steal_kind", "kind": "cloth"})))]
    ChooseStealKind = "choose_steal_kind" { kind: StealKind },
    /// Play a Knight card as a warship card: one of your ships that is not a warship becomes
    /// one (The Pirate Islands, PIR-15); `ship` names it when `pir_warship_choice` is
    /// `player_choice`, and is left out otherwise (your oldest ship is taken).
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "play_warship"})))]
    PlayWarship = "play_warship" {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ship: Option<EdgeId>,
    },
    /// Attack your own fortress with your ship beside it, once per turn in your main phase (The
    /// Pirate Islands, PIR-18).
    AttackFortress = "attack_fortress",
    /// After a 7 on The Pirate Islands, take one random card from any opponent holding one,
    /// or from nobody with `steal_from` left out (PIR-10).
    ChooseStealVictim = "choose_steal_victim" {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        steal_from: Option<Seat>,
    },
    /// Claim a wonder whose condition you meet, marking it with a ship from your supply
    /// (Wonders of Catan, WON-8/9): one wonder per player, in your main phase.
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "claim_wonder", "wonder": "colossus"})))]
    ClaimWonder = "claim_wonder" { wonder: WonderId },
    /// Build the next stage of your wonder for the five cards on its card (Wonders of
    /// Catan, WON-10); the fourth stage wins the game (WON-11).
    BuildWonderStage = "build_wonder_stage",
    /// Roll the dice (B-TURN-4).
    RollDice = "roll_dice",
    /// Return cards after a 7 (B-ROB-1): exactly half your hand, rounded down.
    Discard = "discard" { resources: Resources },
    /// Move the robber after a 7 and steal from one adjacent opponent (B-ROB-2/3).
    /// `steal_from` is required when someone can be robbed and must be absent otherwise.
    MoveRobber = "move_robber" {
        hex: HexCoord,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        steal_from: Option<Seat>,
    },
    /// Move the pirate after a 7 instead of the robber, to another sea hex, and steal from a
    /// seat with a ship on one of its edges (Seafarers, SEA-7/8). `steal_from` as for the
    /// robber.
    MovePirate = "move_pirate" {
        hex: HexCoord,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        steal_from: Option<Seat>,
    },
    /// Buy the top development card (B-DEV-1).
    BuyDevelopmentCard = "buy_development_card",
    /// Buy a development card paying part of its cost with jungle discoveries (JUN-5):
    /// `replaces` names the cost cards (at most one each of wool, grain and ore) that
    /// discoveries stand in for, one discovery per card.
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "buy_development_card_with_discoveries", "replaces": {"ore": 1}})))]
    BuyDevelopmentCardWithDiscoveries = "buy_development_card_with_discoveries" { replaces: Resources },
    /// Choose the cards gold produced for you (RIV-5, SEA-9).
    ChooseGoldResources = "choose_gold_resources" { resources: Resources },
    /// Play a Knight: move the robber and steal (B-DEV-4); with Seafarers, `"bandit":
    /// "pirate"` moves the pirate instead (SEA-7).
    PlayKnight = "play_knight" {
        hex: HexCoord,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        steal_from: Option<Seat>,
        #[serde(default, skip_serializing_if = "Bandit::is_robber")]
        bandit: Bandit,
    },
    /// Play Road Building; then place up to two free roads with `build_road` (B-DEV-5).
    PlayRoadBuilding = "play_road_building",
    /// Play Year of Plenty and take two cards from the bank (B-DEV-6).
    PlayYearOfPlenty = "play_year_of_plenty" { resources: Resources },
    /// Play Monopoly on one resource type (B-DEV-7).
    PlayMonopoly = "play_monopoly" { resource: Resource },
    /// Trade with the bank or through your harbours (B-TRD-1..4). Several trades may be
    /// batched: each given type must be a multiple of your rate for it.
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "trade_with_bank", "give": {"ore": 4}, "get": {"brick": 1}})))]
    TradeWithBank = "trade_with_bank" { give: Resources, get: Resources },
    /// Offer a trade to other seats (B-TRD-5..8). The active player may address everyone
    /// (`to` absent) or chosen seats; others may only address the active player. In Cities &
    /// Knights either side may also name commodities (CK-TRD-1).
    OfferTrade = "offer_trade" {
        give: Resources,
        get: Resources,
        /// Commodities you give besides `give` (Cities & Knights only).
        #[serde(default, skip_serializing_if = "Counts::is_empty")]
        give_commodities: Commodities,
        /// Commodities you want besides `get` (Cities & Knights only).
        #[serde(default, skip_serializing_if = "Counts::is_empty")]
        get_commodities: Commodities,
        /// The seats offered to, at most six; absent: every other seat (from the active player)
        /// or the active player (from anyone else).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<Seat>>, max_items = 6))]
        to: Option<PerSeat<Seat>>,
        /// The offer this one answers (a counter-offer).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        counter_to: Option<u32>,
    },
    /// Accept an offer made to you.
    AcceptTrade = "accept_trade" { offer_id: u32 },
    /// Decline an offer made to you.
    DeclineTrade = "decline_trade" { offer_id: u32 },
    /// Complete your offer with one seat that accepted it.
    ConfirmTrade = "confirm_trade" { offer_id: u32, with: Seat },
    /// Withdraw your offer.
    WithdrawTrade = "withdraw_trade" { offer_id: u32 },
    /// End your turn (B-TURN-7).
    EndTurn = "end_turn",
    /// Return resource and commodity cards after a 7 (Cities & Knights, CK-7-1): exactly half
    /// your hand, rounded down.
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "discard_cards", "cards": {"resources": {"ore": 2}, "commodities": {"coin": 2}}})))]
    DiscardCards = "discard_cards" { cards: Cards },
    /// Trade with the bank naming commodities (Cities & Knights, CK-TRD-1/2): identical cards
    /// of one kind at your rate for it (commodities 4:1, 3:1 at a generic harbour, 2:1 with
    /// the trade improvement at level 3) for as many cards of other kinds.
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "trade_cards_with_bank", "give": {"commodities": {"cloth": 4}}, "get": {"resources": {"ore": 1}}})))]
    TradeCardsWithBank = "trade_cards_with_bank" { give: Cards, get: Cards },
    /// Build the next level of a city improvement track (Cities & Knights, CK-IMP-2/3): level
    /// k costs k cards of the track's commodity (trade: cloth, politics: coin, science: paper).
    /// Levels 4 and 5 need a city without a metropolis (CK-IMP-4). `city` names the city
    /// without a metropolis that takes the track's metropolis: required when the level brings
    /// it (CK-MET-1/3), absent otherwise.
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "build_improvement", "track": "trade"})))]
    BuildImprovement = "build_improvement" {
        track: Track,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        city: Option<VertexId>,
    },
    /// Recruit a basic knight, inactive, on an empty vertex at the end of one of your roads
    /// (Cities & Knights, CK-KNT-1/2): 1 wool + 1 ore.
    RecruitKnight = "recruit_knight" { vertex: VertexId },
    /// Promote your knight one rank, once per turn (CK-KNT-3): 1 wool + 1 ore; mighty needs
    /// politics level 3.
    PromoteKnight = "promote_knight" { vertex: VertexId },
    /// Activate your knight (CK-KNT-4): 1 grain.
    ActivateKnight = "activate_knight" { vertex: VertexId },
    /// Build a city wall under one of your cities (CK-WALL-1): 2 brick, three at most.
    BuildCityWall = "build_city_wall" { vertex: VertexId },
    /// Move your active knight along your roads to an empty vertex (CK-KNT-5/6); it becomes
    /// inactive.
    MoveKnight = "move_knight" { from: VertexId, to: VertexId },
    /// With your active knight on a corner of the robber's hex, move the robber and steal
    /// (CK-KNT-8); the knight stays and becomes inactive. Not before the first attack. With
    /// Seafarers, `bandit: "pirate"` chases the pirate from a corner of its hex to another
    /// sea hex instead (SEA-15).
    ChaseRobber = "chase_robber" {
        knight: VertexId,
        hex: HexCoord,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        steal_from: Option<Seat>,
        #[serde(default, skip_serializing_if = "Bandit::is_robber")]
        bandit: Bandit,
    },
    /// Move your active knight along your roads onto a vertex held by an opponent's knight of
    /// strictly lower rank (CK-KNT-7); yours becomes inactive and the other knight's owner
    /// relocates it.
    DisplaceKnight = "displace_knight" { from: VertexId, to: VertexId },
    /// Put your displaced knight on an empty vertex connected to where it stood by your roads
    /// (CK-KNT-7).
    RelocateKnight = "relocate_knight" { to: VertexId },
    /// Choose the city the barbarians pillage (CK-BAR-7).
    ChooseCityToLose = "choose_city_to_lose" { vertex: VertexId },
    /// Choose the deck a tied Defender of Catan draws from (CK-BAR-6).
    ChooseProgressDeck = "choose_progress_deck" { track: Track },
    // Science cards' moves (ext/cities_knights/cards/science.rs) go above this line.
    /// Play a progress card (Cities & Knights, CK-PC-2/7): `play` names the card and its
    /// parameters. In your main phase, any number per turn; the Alchemist only before the
    /// roll. The card goes to the bottom of its deck (CK-PC-3).
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "play_progress_card", "play": {"card": "resource_monopoly", "resource": "ore"}})))]
    PlayProgressCard = "play_progress_card" { play: ProgressPlay },
    /// After playing a Commercial Harbor this turn: offer opponent `with` one `resource` card
    /// from your hand, once per opponent (CK-PC-7). If they hold commodities they give you one
    /// of their choice (`give_commodity`, or at once when they hold one kind only); if they
    /// hold none, nothing changes hands.
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "commercial_harbor_exchange", "with": 1, "resource": "grain"})))]
    CommercialHarborExchange = "commercial_harbor_exchange" { with: Seat, resource: Resource },
    /// Answer a Commercial Harbor: give the seat that gave you a resource one commodity of
    /// your choice (CK-PC-7).
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "give_commodity", "commodity": "coin"})))]
    GiveCommodity = "give_commodity" { commodity: Commodity },
    /// Master Merchant: take the cards named (resources and commodities, as many as the
    /// decision says) from the seat whose hand you were shown (CK-PC-7).
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "take_cards", "cards": {"resources": {"ore": 1}, "commodities": {"cloth": 1}}})))]
    TakeCards = "take_cards" { cards: Cards },
    // Trade cards' moves (ext/cities_knights/cards/trade.rs) go above this line.
    /// Discard a progress card, face down to the bottom of its deck, while you hold more than
    /// the limit (CK-PC-4/5).
    DiscardProgressCard = "discard_progress_card" { card: ProgressCard },
    /// Remove one of your knights from the board, as a Deserter played against you asks
    /// (CK-PC-7 Deserter).
    RemoveKnight = "remove_knight" { vertex: VertexId },
    /// After a Deserter: place your knight of the deserter's strength (or the next weaker one
    /// you have) for free on an empty vertex at the end of one of your roads, or decline
    /// with no `vertex` (CK-PC-7 Deserter, CK-KNT-2).
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "place_deserter_knight", "vertex": "0,-1,N"})))]
    PlaceDeserterKnight = "place_deserter_knight" {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        vertex: Option<VertexId>,
    },
    /// After a Spy: take one of the shown progress cards, not a VP card (CK-PC-7 Spy).
    TakeProgressCard = "take_progress_card" { card: ProgressCard },
    /// After a Wedding: give the player who played it two resource or commodity cards of your
    /// choice (CK-PC-7 Wedding).
    #[cfg_attr(feature = "openapi", schema(example = json!({"type": "give_cards", "cards": {"resources": {"ore": 1}, "commodities": {"coin": 1}}})))]
    GiveCards = "give_cards" { cards: Cards },
    // Politics cards' moves (ext/cities_knights/cards/politics.rs) go above this line.
}
}

// A move owns nothing on the heap, so emptying a listing of them (every move of self-play
// does) is one store: with a `Vec` in `offer_trade`, clearing walked every listed move to
// see whether it held one, 2-3 % of a random base game.
const _: () = assert!(!std::mem::needs_drop::<Move>());

/// The figure a Knight moves: the robber on land, or (Seafarers) the pirate at sea (SEA-7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Bandit {
    #[default]
    Robber,
    Pirate,
}

impl Bandit {
    pub fn is_robber(&self) -> bool {
        *self == Bandit::Robber
    }
}

impl Move {
    /// Tests if the move buys something (a development card, in any way a ruleset allows):
    /// allowed where building is, refused before the roll.
    pub const fn is_purchase(&self) -> bool {
        matches!(self, Move::BuyDevelopmentCard | Move::BuyDevelopmentCardWithDiscoveries { .. })
    }

    /// Reads a move from JSON, refusing unknown fields on every move. (Serde refuses them on
    /// moves with fields; a move without any, such as `{"type": "roll_dice"}`, would
    /// otherwise ignore them.)
    ///
    /// # Errors
    /// The reason, for the client.
    pub fn from_json(value: serde_json::Value) -> Result<Move, String> {
        let extra: Vec<String> = match &value {
            serde_json::Value::Object(fields) => fields.keys().filter(|k| *k != "type").cloned().collect(),
            _ => Vec::new(),
        };
        let mv: Move = serde_json::from_value(value).map_err(|e| e.to_string())?;
        if let (Some(field), false) = (extra.first(), mv.has_fields()) {
            return Err(format!("unknown field `{field}`: `{}` takes no fields", mv.kind()));
        }
        Ok(mv)
    }

    /// Tests if the move's kind has fields (serialized, it says more than its `type`).
    fn has_fields(&self) -> bool {
        serde_json::to_value(self).ok().and_then(|v| v.as_object().map(|o| o.len() > 1)).unwrap_or(true)
    }

    /// Tests if the move builds a piece or buys something.
    pub const fn is_build_or_purchase(&self) -> bool {
        self.is_purchase()
            || matches!(
                self,
                Move::BuildRoad { .. }
                    | Move::BuildSettlement { .. }
                    | Move::BuildCity { .. }
                    | Move::BuildShip { .. }
                    | Move::ClaimWonder { .. }
                    | Move::BuildWonderStage
            )
    }
}
