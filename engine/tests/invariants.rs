//! Invariants over thousands of random self-played games (2, 3 and 4 players, several
//! seeds, beginner and random boards):
//! - every move `legal_moves` lists is accepted by `decide`, and on sampled states `decide`
//!   accepts exactly the listed moves among a broad set of candidates;
//! - a rejected move leaves the state unchanged;
//! - resources are conserved (bank + hands = 19 of each), piece limits and the distance rule
//!   hold, victory points match the board;
//! - the log replays to the live state, and the snapshot survives serde;
//! - views never show another seat's hand or development cards;
//! - every game ends with a winner at >= 10 VP within the turn cap.

use catan_engine::{
    board::{EdgeId, HexCoord},
    sim::{Bot, RandomBot},
    state::BuildingKind,
    BoardSpec, DevCard, Event, FirstPlayer, Game, GameConfig, Move, Phase, Resource, Resources, Seat, Viewer,
};

const GAMES: u64 = 2_100;
/// Games whose every state is cross-checked against the full candidate set (slow path).
const EXHAUSTIVE_GAMES: u64 = 40;
const TURN_CAP: u32 = 2_000;

/// Cycles through every variant and most rule flags: base game with 2-4 players, the 5-6
/// extension, Jungle and Big River, on beginner and random boards.
fn config_for(game_index: u64) -> GameConfig {
    let flip = |k: u64| (game_index / 8).is_multiple_of(k);
    let board = if game_index.is_multiple_of(2) { BoardSpec::Random } else { BoardSpec::Beginner };
    let mut config = match game_index % 8 {
        0 | 1 => GameConfig::for_players(4),
        2 => GameConfig::for_players(3),
        3 => GameConfig::for_players(2),
        4 => GameConfig::for_players(5),
        5 => GameConfig::for_players(6),
        6 => GameConfig {
            jungle: true,
            jungle_number: Some([2, 3, 4, 5, 9, 10, 11, 12][(game_index / 8 % 8) as usize]),
            ..GameConfig::for_players(4)
        },
        _ => GameConfig {
            big_river: true,
            river_gold_number: Some([3, 4, 5, 9, 10, 11][(game_index / 8 % 6) as usize]),
            river_bank_setup_ban: !flip(3),
            river_gold_produces: !flip(5),
            ..GameConfig::for_players(3 + (game_index / 8 % 2) as u8)
        },
    };
    config.board = if config.big_river { BoardSpec::Random } else { board };
    config.robber_may_enter_desert = !flip(4);
    config.allow_trade_build_interleaving = !flip(7);
    config.sbp_trade_with_previous_player = !flip(3);
    if flip(2) {
        config.dev_cards_before_roll = catan_engine::DevCardsBeforeRoll::Any;
    }
    if game_index.is_multiple_of(5) {
        config.first_player = FirstPlayer::Seat((game_index % u64::from(config.players)) as u8);
    }
    config
}

/// Candidate moves for `seat` that cover every move kind: legal ones and near misses.
fn candidates(game: &Game, seat: Seat) -> Vec<Move> {
    let board = game.board();
    let mut moves = vec![Move::RollDice, Move::EndTurn, Move::BuyDevelopmentCard, Move::PlayRoadBuilding];
    moves.extend(board.vertices.iter().map(|&vertex| Move::BuildSettlement { vertex }));
    moves.extend(board.vertices.iter().map(|&vertex| Move::BuildCity { vertex }));
    moves.extend(board.edges.iter().map(|&edge| Move::BuildRoad { edge }));
    let others: Vec<Option<Seat>> = std::iter::once(None).chain(game.seats().map(Some)).collect();
    for &hex in &board.hexes {
        for &steal_from in &others {
            moves.push(Move::MoveRobber { hex, steal_from });
            moves.push(Move::PlayKnight { hex, steal_from });
        }
    }
    for give in Resource::ALL {
        moves.push(Move::PlayMonopoly { resource: give });
        for get in Resource::ALL {
            moves.push(Move::PlayYearOfPlenty { resources: Resources::of(give, 1) + Resources::of(get, 1) });
            for rate in [2, 3, 4, 5] {
                moves.push(Move::TradeWithBank { give: Resources::of(give, rate), get: Resources::of(get, 1) });
            }
        }
        moves.push(Move::PlayYearOfPlenty { resources: Resources::of(give, 1) });
    }
    let hand = *game.player(seat).unwrap().resources();
    let half = hand.total() / 2;
    // A few discards: the legal-size prefix of the hand, and wrong sizes.
    let mut prefix = Resources::ZERO;
    for resource in Resource::ALL {
        let take = hand.get(resource).min(half - prefix.total());
        prefix.set(resource, take);
    }
    moves.push(Move::Discard { resources: prefix });
    moves.push(Move::Discard { resources: hand });
    for offer in game.open_offers() {
        moves.push(Move::AcceptTrade { offer_id: offer.id });
        moves.push(Move::DeclineTrade { offer_id: offer.id });
        moves.push(Move::WithdrawTrade { offer_id: offer.id });
        for with in game.seats() {
            moves.push(Move::ConfirmTrade { offer_id: offer.id, with });
        }
    }
    moves.push(Move::AcceptTrade { offer_id: 999 });
    moves
}

fn check_agreement(game: &Game, seat: Seat) {
    let legal = game.legal_moves(seat);
    for mv in &legal {
        let result = game.decide(seat, mv, &mut game.chance());
        assert!(result.is_ok(), "listed move {mv:?} for seat {seat} rejected: {result:?} in {:?}", game.phase());
    }
    for (i, mv) in candidates(game, seat).into_iter().enumerate() {
        let listed = legal.contains(&mv);
        // `decide` takes `&self`, so this can only fail through interior mutability; a sample
        // keeps the (costly) clone-and-compare from dominating the run.
        let before = i.is_multiple_of(16).then(|| game.clone());
        let accepted = game.decide(seat, &mv, &mut game.chance()).is_ok();
        assert_eq!(
            listed,
            accepted,
            "seat {seat} move {mv:?}: listed={listed} accepted={accepted} in {:?}",
            game.phase()
        );
        if let (false, Some(before)) = (accepted, before) {
            assert_eq!(&before, game, "a rejected move changed the state");
        }
    }
}

fn check_state(game: &Game) {
    // Conservation (B-CMP-5): bank plus hands is 19 of each resource.
    let mut total = *game.bank();
    for seat in game.seats() {
        total += *game.player(seat).unwrap().resources();
    }
    assert_eq!(total, Resources::each(game.config().cards_per_resource()), "resources not conserved");
    // Development cards: deck plus hands plus played never exceeds the deck printed.
    let mut cards = game.development_deck().total();
    for seat in game.seats() {
        let p = game.player(seat).unwrap();
        cards += p.dev_card_count() + p.knights_played_count();
    }
    assert!(cards <= game.config().development_deck().total(), "{cards} development cards");

    let view = game.view(Viewer::Spectator);
    let buildings = &view.board.buildings;
    for seat in game.seats() {
        let p = game.player(seat).unwrap();
        let settlements = buildings.iter().filter(|b| b.seat == seat && b.kind == BuildingKind::Settlement).count();
        let cities = buildings.iter().filter(|b| b.seat == seat && b.kind == BuildingKind::City).count();
        let roads = view.board.roads.iter().filter(|r| r.seat == seat).count();
        // B-CMP-7 piece limits, consistent with the supply.
        assert!(settlements <= 5 && cities <= 4 && roads <= 15);
        assert_eq!(settlements as u32, p.settlements_on_board());
        assert_eq!(cities as u32, p.cities_on_board());
        assert_eq!(roads as u32, p.roads_on_board());
        // B-WIN-2: public points are buildings plus special cards.
        let mut points = settlements as u32 + 2 * cities as u32;
        if game.config().big_river {
            // RIV-6: buildings on the gold mine score extra.
            let on_gold = buildings
                .iter()
                .filter(|b| {
                    b.seat == seat
                        && game.board().vertex(b.vertex).is_some_and(|v| game.board().vertex_on_gold[v as usize])
                })
                .count() as u32;
            points += on_gold * u32::from(game.config().river_gold_bonus_vp);
        }
        points += 2 * u32::from(game.longest_road_holder() == Some(seat));
        points += 2 * u32::from(game.largest_army_holder() == Some(seat));
        assert_eq!(points, game.public_victory_points(seat));
    }
    // B-BLD-4 distance rule.
    for b in buildings {
        for n in b.vertex.adjacent() {
            assert!(game.building_at(n).is_none(), "buildings at {} and {n} are adjacent", b.vertex);
        }
    }
}

fn check_hidden_information(game: &Game) {
    if game.is_over() {
        return;
    }
    for viewer in game.seats() {
        let view = game.view(Viewer::Seat(viewer));
        assert_eq!(view.you, Some(viewer));
        assert_eq!(view.hand.as_ref().map(|h| h.resources), Some(*game.player(viewer).unwrap().resources()));
        assert!(view.seed.is_none());
        for p in &view.players {
            assert!(p.resources.is_none() && p.development_cards.is_none(), "hand of {} leaked", p.seat);
        }
    }
    let spectator = game.view(Viewer::Spectator);
    assert!(spectator.hand.is_none() && spectator.you.is_none());
}

fn check_redaction(events: &[Event], viewer: Seat) {
    for event in events {
        match event.redacted_for(Viewer::Seat(viewer)) {
            Event::ResourcesDiscarded { seat, resources, .. } => assert_eq!(resources.is_some(), seat == viewer),
            Event::DevelopmentCardBought { seat, card, .. } => {
                assert_eq!(card.is_some(), seat == viewer)
            }
            Event::ResourceStolen { thief, victim, resource } => {
                assert_eq!(resource.is_some(), thief == viewer || victim == viewer)
            }
            Event::GameStarted { seed, .. } => assert!(seed.is_none()),
            _ => {}
        }
    }
}

struct Outcome {
    finished: bool,
    winner_points: u32,
    turns: u32,
}

fn play_checked(index: u64) -> Outcome {
    let config = config_for(index);
    let seed = index.wrapping_mul(0x9E37_79B9).wrapping_add(7);
    let mut log = Game::start_events(&config, seed).unwrap();
    let mut game = Game::replay(config.clone(), &log).unwrap();
    let mut bot = RandomBot::new(seed ^ 0xB07);
    let exhaustive = index < EXHAUSTIVE_GAMES;
    let mut step = 0u64;
    while !game.is_over() && game.turn_number() <= TURN_CAP {
        let seat = game.waiting_for()[0];
        let legal = game.legal_moves(seat);
        assert!(!legal.is_empty(), "seat {seat} must act but has no legal move in {:?}", game.phase());
        if exhaustive {
            for s in game.seats() {
                check_agreement(&game, s);
            }
        } else if step.is_multiple_of(7) {
            // Cheap sample: a seat that is not waited on may make no listed move but trades.
            for s in game.seats().filter(|s| !game.waiting_for().contains(s)) {
                assert!(game.legal_moves(s).iter().all(|m| matches!(
                    m,
                    Move::AcceptTrade { .. }
                        | Move::DeclineTrade { .. }
                        | Move::WithdrawTrade { .. }
                        | Move::ConfirmTrade { .. }
                )));
            }
        }
        let mv = &legal[bot.choose(&game, seat, &legal)];
        let events = game.decide(seat, mv, &mut game.chance()).unwrap_or_else(|e| panic!("{mv:?} rejected: {e}"));
        for event in &events {
            game.apply(event);
        }
        log.extend(events);
        check_state(&game);
        if exhaustive || step.is_multiple_of(50) {
            check_hidden_information(&game);
        }
        step += 1;
    }
    check_redaction(&log, Seat(0));
    // The log is the game: replay equals the live state, and so does the serde snapshot.
    let replayed = Game::replay(config, &log).unwrap();
    assert_eq!(replayed, game, "replay differs from the live game {index}");
    if index.is_multiple_of(20) {
        let snapshot = serde_json_roundtrip(&game);
        assert_eq!(snapshot, game);
    }
    let winner_points = game.winner().map_or(0, |w| game.victory_points(w));
    Outcome { finished: game.is_over(), winner_points, turns: game.turn_number() }
}

fn serde_json_roundtrip(game: &Game) -> Game {
    let text = serde_json::to_string(game).unwrap();
    serde_json::from_str(&text).unwrap()
}

#[test]
fn thousands_of_random_games_of_every_variant_keep_every_invariant_and_end_with_a_winner() {
    let mut capped = Vec::new();
    let mut max_turns = 0;
    for index in 0..GAMES {
        let outcome = play_checked(index);
        max_turns = max_turns.max(outcome.turns);
        if outcome.finished {
            assert!(outcome.winner_points >= 10, "game {index} won with {} VP", outcome.winner_points);
        } else {
            capped.push(index);
        }
    }
    assert!(capped.is_empty(), "games {capped:?} hit the turn cap of {TURN_CAP} (longest: {max_turns} turns)");
}

#[test]
fn rejected_moves_name_their_rule() {
    let mut game =
        Game::new(GameConfig { first_player: FirstPlayer::Seat(0), ..GameConfig::for_players(3) }, 3).unwrap();
    let before = game.clone();
    let error = game.decide(Seat(1), &Move::BuildSettlement { vertex: "0,0,N".parse().unwrap() }, &mut game.chance());
    assert_eq!(error.unwrap_err().code(), "not_your_turn");
    let error = game.decide(
        Seat(0),
        &Move::BuildRoad { edge: EdgeId::new(0, 0, catan_engine::board::Side::E) },
        &mut game.chance(),
    );
    assert_eq!(error.unwrap_err().code(), "wrong_phase");
    let error =
        game.decide(Seat(0), &Move::MoveRobber { hex: HexCoord::new(0, 0), steal_from: None }, &mut game.chance());
    assert_eq!(error.unwrap_err().code(), "wrong_phase");
    assert_eq!(before, game);
    // Playing the first placement still works after the rejections.
    let mv = game.legal_moves(Seat(0))[0].clone();
    for event in game.decide(Seat(0), &mv, &mut game.chance()).unwrap() {
        game.apply(&event);
    }
    assert!(matches!(game.phase(), Phase::Setup { .. }));
    let _ = DevCard::Knight;
}
