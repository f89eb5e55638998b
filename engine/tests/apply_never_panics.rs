//! `Game::apply` has no rules and never panics: an event that does not fit the state changes
//! what it can and leaves the rest. Over a few hundred positions cut at random points of
//! self-played games (every ruleset, Seafarers on each scenario), each of a broad set of
//! misfit events — pieces without supply or site, cards the seat lacks, seats and ids that do
//! not exist, phases naming nobody; ships on taken, land or unknown edges and ship moves of
//! ships that are not there, the pirate on land or fog, fog turned up where there is none or
//! with a tile that does not fit, island bonuses and gold cards for anyone — is applied alone
//! to a copy, and all of them in a row to one game; none may panic, and no card count may
//! wrap around (counts stay bounded by what the events carry).
//! A second set carries extreme values (`u32::MAX` counts and ids, seat 255) and must not
//! panic either (overflow checks are on in test builds).

use std::panic::{catch_unwind, AssertUnwindSafe};

use catan_engine::{
    board::{EdgeId, HexCoord, Side, Terrain, VertexId},
    events::{SeatCount, SeatResources, StartingRoll},
    rng::Rng,
    sim,
    state::{PendingDiscard, PendingGold, SetupStep, TradeOffer},
    BoardSpec, DevCard, Event, Game, GameConfig, IslandBonusMode, IslandDefinition, Phase, Resource, Resources,
    ScenarioId, Seat, Viewer,
};

/// No card count comes near this unless something wrapped around: the games hold at most
/// 24 of each resource and 34 development cards, and the modest misfits carry a few dozen
/// cards each.
const BOUND: u32 = 100_000;

/// A Seafarers game on `scenario`'s map for `players`.
fn seafarers(scenario: ScenarioId, players: u8) -> GameConfig {
    GameConfig { seafarers: true, scenario: Some(scenario), ..GameConfig::for_players(players) }
}

fn configs() -> Vec<GameConfig> {
    vec![
        seafarers(ScenarioId::NewShores, 4),
        seafarers(ScenarioId::FourIslands, 3),
        seafarers(ScenarioId::FogIslands, 4),
        seafarers(ScenarioId::FogIslands, 6),
        GameConfig {
            island_bonus_mode: Some(IslandBonusMode::FirstOnIsland),
            island_bonus_vp: Some(3),
            islands: IslandDefinition::ScenarioLandAreas,
            ..seafarers(ScenarioId::ThroughTheDesert, 5)
        },
        GameConfig::for_players(2),
        GameConfig { board: BoardSpec::Random, ..GameConfig::for_players(3) },
        GameConfig::for_players(4),
        GameConfig::for_players(5),
        GameConfig { board: BoardSpec::Random, ..GameConfig::for_players(6) },
        GameConfig { jungle: true, jungle_number: Some(5), ..GameConfig::for_players(4) },
        GameConfig {
            big_river: true,
            river_gold_number: Some(4),
            board: BoardSpec::Random,
            ..GameConfig::for_players(4)
        },
    ]
}

fn pick<T: Copy>(rng: &mut Rng, items: &[T]) -> T {
    items[rng.below(items.len() as u32) as usize]
}

/// A random seat of the game, or one that is not in it.
fn any_seat(game: &Game, rng: &mut Rng) -> Seat {
    if rng.below(4) == 0 {
        pick(rng, &[Seat(game.player_count()), Seat(7), Seat(200)])
    } else {
        Seat(rng.below(u32::from(game.player_count())) as u8)
    }
}

fn some_cards(rng: &mut Rng) -> Resources {
    Resources::new(rng.below(6), rng.below(6), rng.below(6), rng.below(6), rng.below(6))
}

/// Events that do not fit `game`, with modest card counts.
fn misfits(game: &Game, rng: &mut Rng) -> Vec<Event> {
    let board = game.board();
    let vertex = |rng: &mut Rng| board.vertices[rng.below(board.vertices.len() as u32) as usize];
    let edge = |rng: &mut Rng| board.edges[rng.below(board.edges.len() as u32) as usize];
    let hex = |rng: &mut Rng| board.hexes[rng.below(board.hexes.len() as u32) as usize];
    let unknown_vertex = VertexId::new(40, 40, catan_engine::board::Corner::N);
    let unknown_edge = EdgeId::new(40, 40, Side::E);
    let unknown_hex = HexCoord::new(40, 40);
    let occupied: Vec<VertexId> = board.vertices.iter().copied().filter(|v| game.building_at(*v).is_some()).collect();
    let roads: Vec<EdgeId> = board.edges.iter().copied().filter(|e| game.road_at(*e).is_some()).collect();
    let ships: Vec<EdgeId> = board.edges.iter().copied().filter(|e| game.ship_at(*e).is_some()).collect();
    let fog: Vec<HexCoord> =
        (0..board.hexes.len()).filter(|&h| board.is_fog_hex(h as u8)).map(|h| board.hexes[h]).collect();
    let not_fog: Vec<HexCoord> = board.hexes.iter().copied().filter(|h| !fog.contains(h)).collect();
    let free = Resources::ZERO;
    let mut events = Vec::new();
    for _ in 0..2 {
        let seat = any_seat(game, rng);
        let other = any_seat(game, rng);
        let cards = some_cards(rng);
        // Pieces: beyond the supply, on taken or unknown sites, cities on no settlement.
        for _ in 0..7 {
            events.push(Event::SettlementBuilt { seat, vertex: vertex(rng), cost: free });
            events.push(Event::CityBuilt { seat, vertex: vertex(rng), cost: free });
        }
        for _ in 0..17 {
            events.push(Event::RoadBuilt { seat, edge: edge(rng), cost: free });
        }
        if let Some(&taken) = occupied.first() {
            events.push(Event::SettlementBuilt { seat, vertex: taken, cost: cards });
            events.push(Event::CityBuilt { seat: other, vertex: taken, cost: cards });
        }
        if let Some(&taken) = roads.first() {
            events.push(Event::RoadBuilt { seat, edge: taken, cost: cards });
        }
        events.push(Event::SettlementBuilt { seat, vertex: unknown_vertex, cost: cards });
        events.push(Event::CityBuilt { seat, vertex: unknown_vertex, cost: cards });
        events.push(Event::RoadBuilt { seat, edge: unknown_edge, cost: cards });
        // Seafarers: ships beyond the supply, on taken, land or unknown edges; ship moves of
        // ships that are not there or to edges that are taken; the pirate on land, fog or off
        // the map; fog turned up where there is none, twice, as fog or with a number that
        // does not fit; island bonuses and gold cards for any seat.
        for _ in 0..17 {
            events.push(Event::ShipBuilt { seat, edge: edge(rng), cost: free });
        }
        for &taken in roads.iter().chain(&ships).take(2) {
            events.push(Event::ShipBuilt { seat, edge: taken, cost: cards });
            events.push(Event::RoadBuilt { seat, edge: taken, cost: cards });
            events.push(Event::ShipMoved { seat, from: taken, to: edge(rng) });
            events.push(Event::ShipMoved { seat, from: edge(rng), to: taken });
            events.push(Event::ShipMoved { seat, from: taken, to: taken });
        }
        events.push(Event::ShipBuilt { seat, edge: unknown_edge, cost: cards });
        events.push(Event::ShipMoved { seat, from: edge(rng), to: edge(rng) });
        events.push(Event::ShipMoved { seat, from: unknown_edge, to: edge(rng) });
        events.push(Event::ShipMoved { seat, from: edge(rng), to: unknown_edge });
        events.push(Event::PirateMoved { seat, hex: hex(rng) });
        events.push(Event::PirateMoved { seat, hex: unknown_hex });
        let terrain = pick(rng, &[Terrain::Forest, Terrain::Gold, Terrain::Sea, Terrain::Desert, Terrain::Fog]);
        let number = pick(rng, &[None, Some(0), Some(5), Some(7), Some(200)]);
        let resource = pick(rng, &[None, Some(Resource::Ore), Some(Resource::Lumber)]);
        for at in [hex(rng), unknown_hex].into_iter().chain(fog.first().copied()).chain(fog.last().copied()) {
            events.push(Event::FogRevealed { seat, hex: at, terrain, number, resource });
            events.push(Event::PirateMoved { seat: other, hex: at });
        }
        if let Some(&at) = fog.first() {
            events.push(Event::FogRevealed { seat, hex: at, terrain: Terrain::Sea, number: None, resource: None });
            events.push(Event::FogRevealed {
                seat: other,
                hex: at,
                terrain: Terrain::Hills,
                number: Some(6),
                resource: Some(Resource::Brick),
            });
        }
        if let Some(&at) = not_fog.first() {
            events.push(Event::FogRevealed {
                seat,
                hex: at,
                terrain: Terrain::Pasture,
                number: Some(4),
                resource: Some(Resource::Wool),
            });
        }
        events.push(Event::IslandBonusEarned { seat, vertex: vertex(rng), points: 2 });
        events.push(Event::IslandBonusEarned { seat, vertex: unknown_vertex, points: 5 });
        events.push(Event::GoldResourcesTaken { seat, resources: cards + cards });
        // Cards the seat lacks, from a bank that may lack them.
        events.push(Event::ResourcesDiscarded { seat, count: cards.total(), resources: Some(cards + cards) });
        events.push(Event::ResourcesDiscarded { seat, count: 4, resources: None });
        for resource in Resource::ALL {
            events.push(Event::ResourceStolen { thief: seat, victim: other, resource: Some(resource) });
        }
        events.push(Event::ResourceStolen { thief: other, victim: seat, resource: None });
        events.push(Event::StartingResourcesReceived { seat, resources: cards });
        events.push(Event::BankTraded { seat, give: cards + cards, get: Resources::each(25) });
        events.push(Event::YearOfPlentyPlayed { seat, resources: Resources::each(20) });
        events.push(Event::MonopolyPlayed {
            seat,
            resource: Resource::Wool,
            taken: vec![SeatResources { seat: other, resources: Resources::of(Resource::Wool, 30) }].into(),
        });
        events.push(Event::ResourcesProduced {
            roll: pick(rng, &[2, 7, 12]),
            gains: vec![
                SeatResources { seat, resources: Resources::each(30) },
                SeatResources { seat: Seat(9), resources: cards },
            ]
            .into(),
            shortages: vec![Resource::Ore].into(),
            discoveries: vec![SeatCount { seat, count: 3 }, SeatCount { seat: Seat(9), count: 2 }].into(),
        });
        // Development cards the seat does not hold, and a deck run dry.
        events.push(Event::KnightPlayed { seat });
        events.push(Event::RoadBuildingPlayed { seat });
        for card in DevCard::ALL.into_iter().chain([DevCard::Knight; 20]) {
            events.push(Event::DevelopmentCardBought { seat, cost: cards, discoveries: 2, card: Some(card) });
        }
        events.push(Event::DevelopmentCardBought { seat, cost: cards, discoveries: 9, card: None });
        // Trades with no offer behind them.
        events.push(Event::TradeCompleted {
            offer_id: 999,
            from: seat,
            with: other,
            give: cards,
            get: cards + cards,
            give_commodities: catan_engine::Commodities::each(2),
            get_commodities: catan_engine::Commodities::NONE,
        });
        events.push(Event::TradeAccepted { offer_id: 999, seat });
        events.push(Event::TradeDeclined { offer_id: 0, seat: other });
        events.push(Event::TradeWithdrawn { offer_id: 12 });
        events.push(Event::TradesExpired { offer_ids: vec![1, 2, 999] });
        events.push(Event::TradeOffered {
            offer: TradeOffer {
                id: 1,
                from: seat,
                to: vec![other, seat],
                give: cards,
                get: Resources::ZERO,
                give_commodities: catan_engine::Commodities::NONE,
                get_commodities: catan_engine::Commodities::NONE,
                counter_to: Some(77),
                accepted_by: vec![Seat(9)],
                declined_by: vec![seat],
            },
        });
        // Seats, hexes and phases that do not exist or fit.
        events.push(Event::TurnStarted { seat, turn: game.turn_number() });
        events.push(Event::TurnStarted { seat: Seat(7), turn: 0 });
        events.push(Event::RobberMoved { seat, hex: hex(rng) });
        events.push(Event::RobberMoved { seat, hex: unknown_hex });
        events.push(Event::DiceRolled { seat, red: 0, white: 9 });
        events.push(Event::LargestArmyChanged { holder: Some(Seat(9)), previous: Some(seat) });
        events.push(Event::LongestRoadChanged { holder: Some(other), previous: None, length: 2 });
        events.push(Event::PhaseChanged {
            phase: Phase::Discard { pending: vec![PendingDiscard { seat: Seat(9), count: 40 }].into() },
            then: vec![Phase::MoveRobber, Phase::Setup { seat, placement: 99, step: SetupStep::PlaceSettlement }]
                .into(),
        });
        events.push(Event::PhaseChanged {
            phase: Phase::GoldChoice {
                roll: 13,
                pending: vec![PendingGold { seat, count: 3 }].into(),
                chosen: vec![SeatResources { seat: Seat(8), resources: cards }],
                source: Default::default(),
            },
            then: vec![].into(),
        });
        events.push(Event::PhaseChanged {
            phase: Phase::Setup {
                seat: Seat(9),
                placement: 200,
                step: SetupStep::PlaceRoad { settlement: unknown_vertex },
            },
            then: vec![Phase::GameOver].into(),
        });
        events.push(Event::PhaseChanged { phase: Phase::SpecialBuilding { seat }, then: vec![Phase::PreRoll].into() });
        events.push(Event::PhaseChanged { phase: Phase::RoadBuilding { roads_left: 9 }, then: vec![].into() });
        events.push(Event::GameStarted {
            players: 9,
            board: board.layout().clone(),
            first_seat: Seat(9),
            starting_rolls: vec![StartingRoll { seat: Seat(9), total: 40 }],
            seed: None,
        });
    }
    events.push(Event::GameWon {
        seat: Seat(9),
        victory_points: 0,
        victory_point_cards: 99,
        condition: Default::default(),
    });
    events
}

/// Events with extreme values: counts and ids at `u32::MAX`, seat 255.
fn extremes(game: &Game) -> Vec<Event> {
    let max = Resources::each(u32::MAX);
    let seats = [Seat(0), Seat(game.player_count() - 1), Seat(u8::MAX)];
    let mut events = Vec::new();
    for seat in seats {
        let other = Seat(0);
        events.extend([
            Event::StartingResourcesReceived { seat, resources: max },
            Event::StartingResourcesReceived { seat, resources: max },
            Event::ResourcesDiscarded { seat, count: u32::MAX, resources: Some(max) },
            Event::BankTraded { seat, give: max, get: max },
            Event::YearOfPlentyPlayed { seat, resources: max },
            Event::MonopolyPlayed {
                seat,
                resource: Resource::Ore,
                taken: vec![SeatResources { seat: other, resources: max }; 2].into(),
            },
            Event::ResourcesProduced {
                roll: u8::MAX,
                gains: vec![SeatResources { seat, resources: max }; 2].into(),
                shortages: vec![].into(),
                discoveries: vec![SeatCount { seat, count: u32::MAX }; 2].into(),
            },
            Event::DevelopmentCardBought { seat, cost: max, discoveries: u32::MAX, card: Some(DevCard::Monopoly) },
            Event::TradeCompleted {
                offer_id: u32::MAX,
                from: seat,
                with: other,
                give: max,
                get: max,
                give_commodities: catan_engine::Commodities::each(u32::MAX),
                get_commodities: catan_engine::Commodities::each(u32::MAX),
            },
            Event::TradeOffered {
                offer: TradeOffer {
                    id: u32::MAX,
                    from: seat,
                    to: vec![other],
                    give: max,
                    get: max,
                    give_commodities: catan_engine::Commodities::each(u32::MAX),
                    get_commodities: catan_engine::Commodities::each(u32::MAX),
                    counter_to: Some(u32::MAX),
                    accepted_by: vec![],
                    declined_by: vec![],
                },
            },
            Event::TradeAccepted { offer_id: u32::MAX, seat },
            Event::TradeCompleted {
                offer_id: u32::MAX,
                from: seat,
                with: other,
                give: max,
                get: max,
                give_commodities: catan_engine::Commodities::each(u32::MAX),
                get_commodities: catan_engine::Commodities::each(u32::MAX),
            },
            Event::TurnStarted { seat, turn: u32::MAX },
            Event::DiceRolled { seat, red: u8::MAX, white: u8::MAX },
            Event::KnightPlayed { seat },
            Event::GoldResourcesTaken { seat, resources: max },
            Event::IslandBonusEarned { seat, vertex: game.board().vertices[0], points: u32::MAX },
            Event::IslandBonusEarned { seat, vertex: game.board().vertices[1], points: u32::MAX },
            Event::LongestRoadChanged { holder: Some(seat), previous: Some(seat), length: u32::MAX },
            Event::GameWon {
                seat,
                victory_points: u32::MAX,
                victory_point_cards: u32::MAX,
                condition: Default::default(),
            },
        ]);
    }
    events
}

/// Every count a seat or the bank holds, for the bound check.
fn counts(game: &Game) -> Vec<u32> {
    let mut counts: Vec<u32> = game.bank().as_slice().to_vec();
    counts.extend(game.development_deck().as_slice());
    for seat in game.seats() {
        let player = game.player(seat).expect("seat");
        counts.extend(player.resources().as_slice());
        counts.extend(player.playable_dev_cards().as_slice());
        counts.extend(player.new_dev_cards().as_slice());
        counts.push(player.knights_played_count());
        counts.push(game.discoveries(seat));
        let pieces = player.pieces_left();
        counts.extend([pieces.roads, pieces.settlements, pieces.cities].map(u32::from));
    }
    counts
}

/// Applies `event`, recording a panic instead of unwinding. With `look`, the state it leaves
/// is also viewed by everyone and serialized (neither may panic either; `legal_moves` and
/// `decide` expect states that fitting events leave, and are not asked).
fn apply_caught(game: &mut Game, event: &Event, look: bool, panics: &mut Vec<String>, context: &str) -> bool {
    let applied = catch_unwind(AssertUnwindSafe(|| {
        game.apply(event);
        if look {
            game.view(Viewer::Spectator);
            for seat in game.seats() {
                game.view(Viewer::Seat(seat));
            }
            serde_json::to_string(game).expect("a snapshot");
        }
    }));
    if applied.is_err() {
        panics.push(format!("{context}: {event:?}"));
    }
    applied.is_ok()
}

/// A count that wrapped around, cards created or lost, or pieces beyond the supply, if any.
fn unbounded(game: &Game, event: &Event, context: &str) -> Option<String> {
    if let Some(count) = counts(game).into_iter().find(|&c| c > BOUND) {
        return Some(format!("{context}: a count of {count} after {event:?}"));
    }
    // Cards only move: bank and hands always hold the game's cards, and no development card
    // appears from nowhere.
    let mut cards = *game.bank();
    let mut dev_cards = game.development_deck().total();
    for seat in game.seats() {
        let player = game.player(seat).expect("seat");
        cards += *player.resources();
        dev_cards += player.dev_card_count() + player.knights_played_count();
    }
    if cards != Resources::each(game.config().cards_per_resource()) {
        return Some(format!("{context}: bank and hands hold {cards:?} after {event:?}"));
    }
    if dev_cards > game.config().development_deck().total() {
        return Some(format!("{context}: {dev_cards} development cards after {event:?}"));
    }
    game.seats().map(|seat| game.player(seat).expect("seat").pieces_left()).find_map(|left| {
        (left.roads > 15 || left.settlements > 5 || left.cities > 4 || left.ships > 15)
            .then(|| format!("{context}: pieces left {left:?} after {event:?}"))
    })
}

#[test]
fn apply_never_panics_on_events_that_do_not_fit() {
    // Panics are collected and reported together below, not printed one by one.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let (mut panics, mut unbounded_counts) = (Vec::new(), Vec::new());
    let mut positions = 0;
    let mut applied = 0u64;
    for (c, config) in configs().into_iter().enumerate() {
        for seed in 0..8u64 {
            let seed = seed * 97 + c as u64;
            let record = sim::play_random_game(config.clone(), seed).expect("game");
            let mut rng = Rng::for_stream(seed, 0xA991);
            for _ in 0..6 {
                let cut = 1 + rng.below(record.events.len() as u32) as usize;
                let position = Game::replay(config.clone(), &record.events[..cut]).expect("replay");
                let context = format!("{} seed {seed} after {cut} events", config.variant_name());
                positions += 1;
                // Each misfit alone, then all of them in a row on one game.
                let misfits = misfits(&position, &mut rng);
                let mut compounded = position.clone();
                for event in &misfits {
                    let mut alone = position.clone();
                    for game in [&mut alone, &mut compounded] {
                        let look = applied.is_multiple_of(16);
                        if apply_caught(game, event, look, &mut panics, &context) {
                            unbounded_counts.extend(unbounded(game, event, &context));
                        }
                        applied += 1;
                    }
                }
                let mut extreme = position.clone();
                for event in extremes(&position) {
                    apply_caught(&mut position.clone(), &event, false, &mut panics, &context);
                    apply_caught(&mut extreme, &event, true, &mut panics, &context);
                    applied += 2;
                }
            }
        }
    }
    std::panic::set_hook(hook);
    assert!(positions >= 300, "{positions} positions");
    assert!(unbounded_counts.is_empty(), "{:#?}", &unbounded_counts[..unbounded_counts.len().min(5)]);
    assert!(
        panics.is_empty(),
        "{} of {applied} applications panicked; first: {:#?}",
        panics.len(),
        &panics[..panics.len().min(5)]
    );
}
