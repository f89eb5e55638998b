//! What one viewer may see of a game: own hand and cards in full, others as counts, and
//! nothing of the deck order or the seed until the game is over.

pub use crate::protocol::views::{
    BoardView, BuildingView, ClaimedGiftView, ClothView, GameView, GiftView, HandView, HarbourView, LandAreaView,
    MarkedVerticesView, PendingHarbourView, PiecesLeft, PlayerView, RoadView, ShipView, TribeView, TurnView,
    VillageView,
};
use crate::{game::Game, protocol::Viewer};

impl Game {
    /// Returns the game as `viewer` may see it.
    pub fn view(&self, viewer: Viewer) -> GameView {
        self.view_as(viewer, self.winner.is_some())
    }

    /// Returns the game as `viewer` sees it once nothing is secret any more: every hand,
    /// card and the seed, as after game over. For an earlier position of a finished game (a
    /// replay), whose hands the finished game's log shows anyway.
    pub fn view_revealed(&self, viewer: Viewer) -> GameView {
        self.view_as(viewer, true)
    }

    fn view_as(&self, viewer: Viewer, over: bool) -> GameView {
        // Hands hold commodities beside resources in some variants (CK-CMP-1).
        let ck = self.rules().components.has_commodities();
        let you = match viewer {
            Viewer::Seat(seat) if seat.index() < self.players.len() => Some(seat),
            _ => None,
        };
        let players = self
            .seats()
            .map(|seat| {
                let p = &self.players[seat.index()];
                let mut cards = p.dev_cards;
                cards.add(&p.new_dev_cards);
                PlayerView {
                    seat,
                    victory_points: if over { self.victory_points(seat) } else { self.public_victory_points(seat) },
                    resource_count: p.resources.total(),
                    development_card_count: p.dev_card_count(),
                    knights_played: p.knights_played,
                    discoveries: self.discoveries(seat),
                    road_length: self.road_length(seat),
                    has_longest_road: self.longest_road == Some(seat),
                    has_largest_army: self.largest_army == Some(seat),
                    pieces_left: PiecesLeft {
                        roads: p.pieces_left.roads,
                        settlements: p.pieces_left.settlements,
                        cities: p.pieces_left.cities,
                        ships: (p.supply.ships > 0).then_some(p.pieces_left.ships),
                    },
                    resources: over.then_some(p.resources),
                    development_cards: over.then_some(cards),
                    commodity_count: ck.then_some(p.commodities.total()),
                    commodities: (ck && over).then_some(p.commodities),
                }
            })
            .collect();
        let hand = you.map(|seat| {
            let p = &self.players[seat.index()];
            HandView {
                resources: p.resources,
                development_cards: p.dev_cards,
                new_development_cards: p.new_dev_cards,
                victory_points: self.victory_points(seat),
                bank_rates: self.bank_rates(seat),
                may_offer_trade: self.may_offer_trade(seat),
                commodities: ck.then_some(p.commodities),
            }
        });
        let mut view = GameView {
            players,
            you,
            hand,
            bank: self.bank,
            commodity_bank: ck.then_some(self.commodity_bank),
            development_cards_left: self.cards_for_sale(),
            board: self.board_view(),
            turn: TurnView {
                number: self.turn.number,
                active_seat: self.active_seat(),
                phase: self.phase.clone(),
                then: self.then.to_vec(),
                rolled: self.turn.rolled,
                dice: self.turn.last_roll.map(|(r, w)| [r, w]),
                development_card_played: self.turn.dev_card_played,
                ship_moved: false,
                waiting_for: self.waiting_for(),
            },
            trade_offers: self.offers.clone(),
            longest_road: self.longest_road,
            largest_army: self.largest_army,
            vp_target: self.rules().base.vp_target,
            cities_and_knights: None,
            wonders: Vec::new(),
            forgotten_tribe: None,
            cloth_for_catan: None,
            pirate_islands: None,
            winner: self.winner,
            seed: over.then_some(self.seed),
        };
        for extension in &self.rules().extensions {
            extension.view(self, you, over, &mut view);
        }
        view
    }

    fn board_view(&self) -> BoardView {
        let layout = self.board.layout();
        BoardView {
            hexes: layout.hexes.clone(),
            harbours: layout
                .harbours
                .iter()
                .map(|h| HarbourView { edge: h.edge, kind: h.kind, vertices: h.edge.endpoints() })
                .collect(),
            robber: self.robber_hex(),
            buildings: self
                .buildings
                .iter()
                .enumerate()
                .filter_map(|(v, b)| {
                    b.map(|b| BuildingView { vertex: self.board.vertices[v], seat: b.seat, kind: b.kind })
                })
                .collect(),
            roads: self
                .roads
                .iter()
                .enumerate()
                .filter_map(|(e, s)| s.map(|seat| RoadView { edge: self.board.edges[e], seat }))
                .collect(),
            ships: self
                .ships
                .iter()
                .enumerate()
                .filter_map(|(e, s)| s.map(|seat| ShipView { edge: self.board.edges[e], seat }))
                .collect(),
            pirate: self.pirate_hex(),
            islands: Vec::new(),
            marked_vertices: Vec::new(),
            generator: layout.generator.clone(),
            neutral: layout.neutral.clone(),
            robber_excluded: self.rules().components.robber_excluded.clone(),
            land_areas: Vec::new(),
        }
    }
}
