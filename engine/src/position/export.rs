//! A game's position read back as a [`Setup`] (what `GET .../position` serves and what
//! the tests edit), and the conversions from a [`Setup`] to a [`Game`].

use super::{checks, CitiesKnightsSetup, PositionError, SeafarersSetup, SeatSetup, Setup, TurnSetup};
use crate::{
    game::Game,
    model::Building,
    ruleset::Ruleset,
    view::{BuildingView, RoadView, ShipView},
};

impl From<&Game> for Setup {
    /// The position of a game, to edit and rebuild: `Setup::from(&game).position()` equals
    /// `game`. The bank and the deck are left to derive (`None`) when the derived value is
    /// the game's; the deck stays explicit once progress cards have been played.
    fn from(game: &Game) -> Setup {
        let board = &game.board;
        let seats: Vec<SeatSetup> = game
            .seats()
            .map(|seat| {
                let p = &game.players[seat.index()];
                SeatSetup {
                    resources: p.resources,
                    dev_cards: p.dev_cards,
                    new_dev_cards: p.new_dev_cards,
                    knights_played: p.knights_played,
                    discoveries: game.discoveries(seat),
                    commodities: p.commodities,
                    hidden: None,
                }
            })
            .collect();
        let components = Ruleset::assemble(&game.config).components;
        let bank = checks::derived_bank(&components, &seats).filter(|b| *b == game.bank);
        let deck = checks::derived_deck(&components, &seats).filter(|d| *d == game.deck);
        let buildings = game
            .buildings
            .iter()
            .enumerate()
            .filter_map(|(v, b)| {
                b.map(|Building { seat, kind }| BuildingView { vertex: board.vertices[v], seat, kind })
            })
            .collect();
        let roads = game
            .roads
            .iter()
            .enumerate()
            .filter_map(|(e, s)| s.map(|seat| RoadView { edge: board.edges[e], seat }))
            .collect();
        let ships = game
            .ships
            .iter()
            .enumerate()
            .filter_map(|(e, s)| s.map(|seat| ShipView { edge: board.edges[e], seat }))
            .collect();
        let mut setup = Setup {
            config: game.config.clone(),
            board: board.layout().clone(),
            seed: game.seed,
            events_applied: game.events_applied,
            first_seat: game.first_seat,
            seats,
            buildings,
            roads,
            ships,
            bank: if bank.is_some() { None } else { Some(game.bank) },
            deck: if deck.is_some() { None } else { Some(game.deck) },
            robber: game.robber_hex(),
            pirate: game.pirate_hex(),
            phase: game.phase.clone(),
            then: game.then.to_vec(),
            turn: TurnSetup {
                number: game.turn.number,
                active: game.turn.active,
                dice: game.turn.last_roll,
                dev_card_played: game.turn.dev_card_played,
                built_or_bought: game.turn.built_or_bought,
            },
            longest_road: game.longest_road,
            largest_army: game.largest_army,
            offers: game.offers.clone(),
            next_offer_id: game.next_offer_id,
            winner: game.winner,
            seafarers: SeafarersSetup::default(),
            wonders: Vec::new(),
            cities_knights: CitiesKnightsSetup::default(),
            unseen: None,
        };
        // Each expansion writes its own part (pieces beyond roads, its state, its awards).
        for extension in &game.rules().extensions {
            extension.export_position(game, &mut setup);
        }
        setup
    }
}

impl TryFrom<Setup> for Game {
    type Error = PositionError;

    fn try_from(setup: Setup) -> Result<Game, PositionError> {
        setup.position()
    }
}

impl Game {
    /// Builds a game from a position (see [`Setup::position`]).
    ///
    /// # Errors
    /// The first [`PositionError`] found.
    pub fn from_setup(setup: Setup) -> Result<Game, PositionError> {
        setup.position()
    }
}
