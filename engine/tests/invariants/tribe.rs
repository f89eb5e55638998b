//! The Forgotten Tribe's part of the checks (RULES-SCENARIOS 2), run on every move of a game
//! of that scenario, with the gift edges and land areas read from the data file:
//! - SCN-3: no building on a vertex that touches only the tribe's land (area 0), no road on
//!   an edge whose land is only the tribe's;
//! - SCN-4, FTR-6: the robber, once moved, never stands on the tribe's land;
//! - FTR-7: a gift is claimed exactly when a ship of the mover is placed on its edge (built,
//!   free, in setup, or moved there with `ftr_gift_on_move`), once, and only where the data
//!   puts one; claimed gifts are gone from every view;
//! - FTR-8: a gifted card comes out of the deck (conservation), is seen by its owner only,
//!   and the cards still set aside plus those for sale make the deck;
//! - FTR-9: each point gift counts once in the public points;
//! - FTR-10/11: a taken harbour leaves its tribe edge; a placed one stands on a coast edge at
//!   its placer's building with no harbour at either end.

use std::collections::{HashMap, HashSet};

use catan_engine::{board::EdgeId, Event, Game, Gift, HexCoord, Seat, Viewer};
use serde_json::Value;

pub struct Tribe {
    gifts: HashMap<EdgeId, Gift>,
    tribe_land: HashSet<HexCoord>,
    /// SCN-4: the tribe's land (area 0) is robber-excluded, as by default.
    robber_kept_off: bool,
    set_aside: u32,
    claimed: HashSet<EdgeId>,
    points: Vec<u32>,
    cards_given: u32,
    on_move: bool,
}

impl Tribe {
    pub fn new(game: &Game) -> Option<Tribe> {
        let config = game.config();
        if config.scenario != Some(catan_engine::ScenarioId::ForgottenTribe) {
            return None;
        }
        let file = super::seafarers::scenario_file(catan_engine::ScenarioId::ForgottenTribe);
        let variant = super::seafarers::variant_of(&file, config.players);
        let edge = |v: &Value| -> EdgeId { serde_json::from_value(v.clone()).expect("an edge") };
        let mut gifts = HashMap::new();
        for e in variant["special_edges"]["svp"].as_array().unwrap() {
            gifts.insert(edge(e), Gift::VictoryPoint);
        }
        let cards = variant["special_edges"]["dev_card"].as_array().unwrap();
        for e in cards {
            gifts.insert(edge(e), Gift::DevelopmentCard);
        }
        for h in variant["harbours"].as_array().unwrap() {
            gifts.insert(edge(&h["edge"]), Gift::Harbour);
        }
        let tribe_land = variant["land_areas"]["0"]
            .as_array()
            .unwrap()
            .iter()
            .map(|h| HexCoord::new(h[0].as_i64().unwrap() as i32, h[1].as_i64().unwrap() as i32))
            .collect();
        let robber_kept_off = config.robber_excluded_land_areas.as_ref().is_none_or(|areas| areas.contains(&0));
        Some(Tribe {
            gifts,
            tribe_land,
            robber_kept_off,
            set_aside: cards.len() as u32,
            claimed: HashSet::new(),
            points: vec![0; usize::from(config.players)],
            cards_given: 0,
            on_move: config.ftr_gift_on_move,
        })
    }

    /// FTR-9: point gifts of `seat`.
    pub fn points(&self, seat: Seat) -> u32 {
        self.points[seat.index()]
    }

    pub fn after_move(&mut self, prior: &Game, game: &Game, seat: Seat, events: &[Event]) {
        let mut placed: Vec<EdgeId> = Vec::new();
        for event in events {
            match *event {
                Event::ShipBuilt { edge, .. } => placed.push(edge),
                Event::ShipMoved { to, .. } if self.on_move => placed.push(to),
                _ => {}
            }
        }
        let expected: HashSet<EdgeId> = placed
            .iter()
            .copied()
            .filter(|e| self.gifts.contains_key(e) && !self.claimed.contains(e))
            .filter(|e| self.gifts[e] != Gift::Harbour || prior.board().layout().harbours.iter().any(|h| h.edge == *e))
            .collect();
        let mut claimed_now = HashSet::new();
        for event in events {
            match *event {
                Event::GiftClaimed { seat: by, edge, gift } => {
                    assert_eq!(by, seat, "{event:?}: claimed by another seat than the mover");
                    assert_eq!(self.gifts.get(&edge), Some(&gift), "{event:?}: no such gift in the data (FTR-7)");
                    assert!(self.claimed.insert(edge), "{event:?}: claimed twice (FTR-7)");
                    claimed_now.insert(edge);
                }
                Event::VictoryPointGifted { seat: by } => self.points[by.index()] += 1,
                Event::RobberMoved { hex, .. } => {
                    let excluded = self.robber_kept_off && self.tribe_land.contains(&hex);
                    assert!(!excluded, "the robber moved to the tribe's {hex} (SCN-4)");
                }
                Event::DevelopmentCardGifted { seat: by, card } => {
                    assert!(card.is_some(), "{event:?}: the full log names the card");
                    self.cards_given += 1;
                    for viewer in game.seats().map(Viewer::Seat).chain([Viewer::Spectator]) {
                        let Event::DevelopmentCardGifted { card: seen, .. } = event.redacted_for(viewer) else {
                            unreachable!()
                        };
                        assert_eq!(seen.is_some(), viewer == Viewer::Seat(by), "{viewer:?} sees {event:?} (FTR-8)");
                    }
                }
                Event::HarbourTaken { from_edge, .. } => {
                    assert!(!game.board().layout().harbours.iter().any(|h| h.edge == from_edge), "FTR-10: still there");
                }
                Event::HarbourPlaced { seat: by, edge, kind } => {
                    let board = game.board();
                    assert!(board.layout().harbours.iter().any(|h| h.edge == edge && h.kind == kind), "FTR-10");
                    let own = edge.endpoints().iter().any(|&v| game.building_at(v).is_some_and(|b| b.seat == by));
                    assert!(own, "{event:?}: not at the placer's building (FTR-11)");
                }
                _ => {}
            }
        }
        assert_eq!(claimed_now, expected, "the gifts claimed by {events:?} (FTR-7)");
        self.check_state(game);
    }

    pub fn check_state(&self, game: &Game) {
        let board = game.board();
        for b in &game.view(Viewer::Spectator).board.buildings {
            let tribe_only = b
                .vertex
                .hexes()
                .iter()
                .all(|h| self.tribe_land.contains(h) || board.hex(*h).is_none_or(|i| !board.is_land_hex(i)));
            assert!(!tribe_only, "a building on {}, on the tribe's land only (SCN-3)", b.vertex);
        }
        for road in &game.view(Viewer::Spectator).board.roads {
            let land_of_others = road
                .edge
                .hexes()
                .iter()
                .any(|h| !self.tribe_land.contains(h) && board.hex(*h).is_some_and(|i| board.is_land_hex(i)));
            assert!(land_of_others, "a road on {}, on the tribe's land only (SCN-3)", road.edge);
        }
        // Harbours: at most one per vertex (B-GEO-10) holds by the board's own check.
        let view = game.view(Viewer::Spectator);
        let tribe = view.forgotten_tribe.expect("the tribe's view");
        assert_eq!(tribe.development_cards_set_aside, self.set_aside - self.cards_given, "FTR-8");
        assert_eq!(view.development_cards_left + tribe.development_cards_set_aside, game.development_deck().total());
        for gift in &tribe.gifts {
            assert!(!self.claimed.contains(&gift.edge), "claimed gift {:?} still shown", gift.edge);
        }
        assert_eq!(tribe.claimed.len(), self.claimed.len());
    }
}
