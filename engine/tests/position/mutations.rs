//! `Setup::position` never panics, whatever the setup holds, and what it accepts is a game
//! the rules can play: positions from self-played games are mutated one field at a time
//! (pieces, hands, cards, robber, phase, turn, awards, offers, bank, deck) with values in and
//! out of range; every accepted position is viewed, and each seat's listed moves are all
//! accepted by `decide` and applied.

use std::panic::{catch_unwind, AssertUnwindSafe};

use catan_engine::{
    board::{Corner, EdgeId, HexCoord, Side, VertexId},
    events::SeatResources,
    rng::Rng,
    sim,
    state::{PendingDiscard, PendingGold, SetupStep, TradeOffer},
    view::{BuildingView, RoadView},
    BoardSpec, BuildingKind, DevCard, DevCards, Game, GameConfig, Phase, Resources, Seat, Setup, Viewer,
};

fn below(rng: &mut Rng, n: usize) -> usize {
    rng.below(n as u32) as usize
}

fn seat(rng: &mut Rng, players: u8) -> Seat {
    Seat(rng.below(u32::from(players) + 1) as u8)
}

fn cards(rng: &mut Rng, most: u32) -> Resources {
    Resources::new(rng.below(most), rng.below(most), rng.below(most), rng.below(most), rng.below(most))
}

fn phase(rng: &mut Rng, setup: &Setup) -> Phase {
    let players = setup.config.players;
    let vertex = setup.buildings.first().map_or(VertexId::new(0, 0, Corner::N), |b| b.vertex);
    match rng.below(9) {
        0 => Phase::Setup {
            seat: seat(rng, players),
            placement: rng.below(u32::from(players) * 2 + 1) as u8,
            step: if rng.below(2) == 0 {
                SetupStep::PlaceSettlement
            } else {
                SetupStep::PlaceRoad { settlement: vertex }
            },
        },
        1 => Phase::PreRoll,
        2 => Phase::Discard {
            pending: (0..rng.below(3))
                .map(|_| PendingDiscard { seat: seat(rng, players), count: rng.below(8) })
                .collect(),
        },
        3 => Phase::MoveRobber,
        4 => Phase::Main,
        5 => Phase::RoadBuilding { roads_left: rng.below(4) as u8 },
        6 => Phase::GoldChoice {
            roll: 2 + rng.below(11) as u8,
            pending: (0..rng.below(3))
                .map(|_| PendingGold { seat: seat(rng, players), count: rng.below(3) as u16 })
                .collect(),
            chosen: (0..rng.below(2))
                .map(|_| SeatResources { seat: seat(rng, players), resources: cards(rng, 2) })
                .collect(),
            source: Default::default(),
        },
        7 => Phase::SpecialBuilding { seat: seat(rng, players) },
        _ => Phase::GameOver,
    }
}

/// Changes one thing of `setup`.
fn mutate(setup: &mut Setup, rng: &mut Rng) {
    let players = setup.config.players;
    let layout_hexes: Vec<HexCoord> = setup.board.hexes.iter().map(|t| t.hex).collect();
    let hex = |rng: &mut Rng| {
        if rng.below(10) == 0 {
            HexCoord::new(9, 9)
        } else {
            layout_hexes[below(rng, layout_hexes.len())]
        }
    };
    let s = seat(rng, players);
    match rng.below(17) {
        0 => {
            let h = hex(rng);
            let vertex = VertexId::new(h.q, h.r, if rng.below(2) == 0 { Corner::N } else { Corner::S });
            let kind = if rng.below(2) == 0 { BuildingKind::Settlement } else { BuildingKind::City };
            setup.buildings.push(BuildingView { vertex, seat: s, kind });
        }
        1 => {
            let h = hex(rng);
            let side = [Side::NE, Side::E, Side::SE][below(rng, 3)];
            setup.roads.push(RoadView { edge: EdgeId::new(h.q, h.r, side), seat: s });
        }
        2 if !setup.buildings.is_empty() => {
            let i = below(rng, setup.buildings.len());
            setup.buildings.remove(i);
        }
        3 if !setup.roads.is_empty() => {
            let i = below(rng, setup.roads.len());
            setup.roads.remove(i);
        }
        4 => setup.seat_mut(s).resources = cards(rng, 8),
        5 => {
            let card = DevCard::ALL[below(rng, 5)];
            let held = setup.seat_mut(s);
            if rng.below(2) == 0 {
                held.dev_cards = DevCards::of(card, rng.below(3));
            } else {
                held.new_dev_cards = DevCards::of(card, rng.below(3));
            }
        }
        6 => setup.seat_mut(s).knights_played = rng.below(5),
        7 => setup.robber = if rng.below(8) == 0 { None } else { Some(hex(rng)) },
        8 => {
            setup.phase = phase(rng, setup);
            setup.then = if rng.below(2) == 0 { vec![] } else { vec![phase(rng, setup)] };
        }
        9 => {
            setup.turn.number = rng.below(4);
            setup.turn.active = s;
        }
        10 => setup.turn.dice = if rng.below(3) == 0 { None } else { Some((rng.die(), rng.die())) },
        11 => setup.turn.dev_card_played = !setup.turn.dev_card_played,
        12 => {
            let holder = if rng.below(3) == 0 { None } else { Some(s) };
            if rng.below(2) == 0 {
                setup.longest_road = holder;
            } else {
                setup.largest_army = holder;
            }
        }
        13 => setup.offers.push(TradeOffer {
            id: rng.below(4),
            from: s,
            to: vec![seat(rng, players)],
            give: cards(rng, 2),
            get: cards(rng, 2),
            give_commodities: catan_engine::Commodities::NONE,
            get_commodities: catan_engine::Commodities::NONE,
            counter_to: None,
            accepted_by: if rng.below(2) == 0 { vec![] } else { vec![seat(rng, players)] },
            declined_by: vec![],
        }),
        14 => setup.bank = if rng.below(2) == 0 { None } else { Some(cards(rng, 20)) },
        15 => {
            setup.winner = if rng.below(2) == 0 { None } else { Some(s) };
            if rng.below(2) == 0 {
                setup.phase = Phase::GameOver;
                setup.then.clear();
            }
        }
        _ => setup.deck = Some(DevCards::new(rng.below(15), rng.below(3), rng.below(3), rng.below(3), rng.below(6))),
    }
}

/// Views the game and plays every listed move of every seat on a copy.
fn exercise(game: &Game) {
    game.view(Viewer::Spectator);
    for seat in game.seats() {
        game.view(Viewer::Seat(seat));
        for mv in game.legal_moves(seat) {
            let events = match game.decide(seat, &mv, &mut game.chance()) {
                Ok(events) => events,
                Err(error) => panic!("listed move {mv:?} of seat {seat} rejected: {error}"),
            };
            let mut after = game.clone();
            for event in &events {
                after.apply(event);
            }
            after.view(Viewer::Spectator);
        }
    }
}

#[test]
fn setup_position_never_panics_and_accepts_only_playable_games() {
    let configs = [
        GameConfig::for_players(3),
        GameConfig { board: BoardSpec::Random, ..GameConfig::for_players(4) },
        GameConfig::for_players(5),
        GameConfig { jungle: true, jungle_number: Some(9), ..GameConfig::for_players(4) },
        GameConfig {
            big_river: true,
            river_gold_number: Some(3),
            board: BoardSpec::Random,
            ..GameConfig::for_players(3)
        },
    ];
    let (mut tried, mut accepted) = (0u32, 0u32);
    let mut failures = Vec::new();
    for (c, config) in configs.into_iter().enumerate() {
        for seed in 0..4u64 {
            let seed = seed * 53 + c as u64;
            let record = sim::play_random_game(config.clone(), seed).expect("game");
            let mut rng = Rng::for_stream(seed, 0x5E7);
            for _ in 0..40 {
                let cut = 1 + below(&mut rng, record.events.len());
                let start = Setup::from(&Game::replay(config.clone(), &record.events[..cut]).expect("replay"));
                for _ in 0..12 {
                    let mut setup = start.clone();
                    for _ in 0..1 + rng.below(2) {
                        mutate(&mut setup, &mut rng);
                    }
                    tried += 1;
                    let outcome = catch_unwind(AssertUnwindSafe(|| {
                        if let Ok(game) = setup.clone().position() {
                            exercise(&game);
                            true
                        } else {
                            false
                        }
                    }));
                    match outcome {
                        Ok(ok) => accepted += u32::from(ok),
                        Err(_) => failures.push(setup),
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} of {tried} setups panicked; the first: {:#?}", failures.len(), failures[0]);
    assert!(accepted * 5 > tried, "only {accepted} of {tried} mutated setups were accepted");
}
