//! The Cities & Knights part of the checks (RULES.md 8.6), run on every move of a C&K game,
//! against a model the checks keep from the live (unredacted) log:
//! - cards: the 36 commodities (12 of each kind, CK-CMP-1) are in hands or the commodity
//!   bank; every progress card held was dealt by a `progress_card_drawn` of its own deck
//!   (CK-CMP-2, CK-PC-7), no kind more often than the catalogue prints it, and hands plus the
//!   three decks are the 54; no development card and no Largest Army (CK-GEN-2);
//! - pieces: at most 2 knights of each rank per seat, each on a buildable vertex with no
//!   building, at the end of an own road (or, with Seafarers, ship: SEA-15), mighty only with
//!   Politics 3 (CK-CMP-4, CK-KNT-2/3);
//!   at most 3 walls per seat, each under an own city (CK-CMP-5, CK-WALL-1); levels at most 5;
//!   a pillaged city without a settlement piece stands as a settlement and scores as one
//!   (CK-BAR-8); the barbarians short of their attack, Defender points and attacks as logged;
//! - moves, against the state before each event: knights recruited, promoted (once a turn),
//!   activated, moved, displaced and relocated (or sent to the supply) as CK-KNT-1..7 allow,
//!   with reachability along the owner's roads (and ships, SEA-15) through no opponent piece
//!   computed here, a knight stopping only by land; the robber, or with Seafarers the pirate,
//!   chased from a corner of its hex by an able knight after the first attack (CK-KNT-8,
//!   CK-BAR-10, SEA-15), the pirate waiting for that attack on a 7 too; each theft from a seat
//!   with a building beside the robber or a ship beside the pirate, of a card it held (CK-7-2,
//!   SEA-8, SEA-15); walls and improvements at their cost (a free wall with an Engineer,
//!   free promotions with a Smith, one commodity less after a Crane: CK-PC-7), on a city, level by level
//!   (CK-WALL-1, CK-IMP-2/3); progress cards drawn by seats whose level opens the red die's
//!   window, or by the tied defenders (CK-EVT-2, CK-BAR-6); the barbarians' advance on a ship,
//!   their attack's strength (cities) and defence (active knights), the Defender and the
//!   pillaged cities as CK-BAR-3..9 say; a 7's discards exactly the seats over 7 + 2 per wall,
//!   half of resources and commodities, and the robber only after the first attack (CK-7-1,
//!   CK-WALL-2, CK-BAR-10);
//! - views: every seat sees its own commodities and progress cards, other seats' only as
//!   counts (and the face-up VP cards); a spectator sees none (CK-PC-6).
//!
//! With Seafarers it counts what only the combination does ([`SeaFeats`]): pirate chases and
//! knights that went where only a ship leads.

use std::collections::{HashSet, VecDeque};

use catan_engine::{
    board::{EdgeId, HexCoord, Terrain, VertexId},
    Bandit, BuildingKind, Cards, Commodities, Commodity, Event, EventFace, Game, GameView, Good, Move, Phase,
    ProgressCard, ProgressCards, ProgressPlay, Resource, Resources, Seat, Track, Viewer, ACTIVATION_COST, KNIGHT_COST,
    WALL_COST,
};

/// CK-CMP-1: commodity cards of each kind.
pub const COMMODITIES_PER_KIND: u32 = 12;
/// CK-CMP-4: knight pieces of each rank per seat; the ranks are 1 (basic) to 3 (mighty).
const KNIGHTS_PER_RANK: usize = 2;
const MIGHTY: u8 = 3;
/// CK-CMP-5: walls per seat.
const WALLS_PER_SEAT: usize = 3;
/// CK-IMP-1: levels of a track; Politics 3 allows mighty knights (CK-KNT-3).
const TOP_LEVEL: u8 = 5;
const POLITICS_FOR_MIGHTY: u8 = 3;
/// CK-CMP-2: cards per deck.
const DECK: u32 = 18;
/// CK-7-1, CK-WALL-2: the hand a seat keeps through a 7 without walls, and each wall's bonus.
const HAND_LIMIT: u32 = 7;
const PER_WALL: u32 = 2;

/// CK-PC-7: how many of each card the catalogue prints, and its deck.
fn printed(card: ProgressCard) -> (u32, Track) {
    use ProgressCard as P;
    let count = match card {
        P::Merchant => 6,
        P::ResourceMonopoly => 4,
        P::Spy => 3,
        P::Engineer | P::Printer | P::Constitution => 1,
        _ => 2,
    };
    let track = match card {
        P::Alchemist
        | P::Crane
        | P::Engineer
        | P::Inventor
        | P::Irrigation
        | P::Medicine
        | P::Mining
        | P::Printer
        | P::RoadBuilding
        | P::Smith => Track::Science,
        P::CommercialHarbor
        | P::MasterMerchant
        | P::Merchant
        | P::MerchantFleet
        | P::ResourceMonopoly
        | P::TradeMonopoly => Track::Trade,
        _ => Track::Politics,
    };
    (count, track)
}

/// CK-EVT-3: the VP cards among `cards`.
fn victory_point_cards(cards: &ProgressCards) -> u32 {
    cards.get(ProgressCard::Printer) + cards.get(ProgressCard::Constitution)
}

/// The level at which a seat draws on red die `red` (CK-IMP-6: level `L >= 1` draws when
/// `red <= L + 1`).
fn draws(level: u8, red: u8) -> bool {
    level >= 1 && red <= level + 1
}

/// What a C&K game's checks know from its log.
pub struct CitiesKnights {
    steps: u8,
    robber_waits: bool,
    /// Each seat's progress cards, as the log dealt them.
    progress: Vec<ProgressCards>,
    defenders: Vec<u32>,
    attacks: u32,
    /// Pillaged cities whose owner had no settlement piece left (CK-BAR-8).
    pieceless: Vec<(Seat, VertexId)>,
    /// Knights activated or promoted this turn (CK-KNT-3, CK-KNT-5), by where they stand.
    activated: Vec<VertexId>,
    promoted: Vec<VertexId>,
    /// This turn's dice: the event die and the red die.
    face: Option<EventFace>,
    red: Option<u8>,
    /// A 7 whose discards are still to be announced (after an attack's decisions, CK-TURN-3).
    seven: bool,
    /// The last attack's contributions, strength and defence (CK-BAR-6/7).
    attack: Option<(Vec<u32>, u32, u32)>,
    /// Where the robber or (SEA-15) the pirate went last (a theft follows, CK-7-2, CK-KNT-8).
    bandit: Option<(Bandit, HexCoord)>,
    /// The metropolises as the log placed and moved them: track, holder, city (CK-MET-1/3).
    metropolises: Vec<(Track, Seat, VertexId)>,
    /// The progress card the move being checked played (its free pieces: Engineer, Smith).
    played: Option<ProgressCard>,
    /// A Crane played this turn waits for the next improvement (CK-PC-7).
    crane: bool,
    /// Seats a Deserter gave a mighty knight, which needs no Politics 3 (CK-PC-7).
    deserted_mighty: Vec<Seat>,
    /// The merchant's holder, as Merchant cards placed it (CK-MER-3: 1 point).
    merchant: Option<Seat>,
    /// This turn's Merchant Fleets (CK-PC-7): goods at 2:1 for the active seat.
    fleets: Vec<Good>,
    /// What the game did of SEA-15 so far (see [`SeaFeats`]).
    feats: SeaFeats,
}

/// SEA-15 as a game exercised it: the pirate chased by a knight, commodities it stole, and
/// knights that went where only a ship leads (moved; displacing or relocated).
#[derive(Clone, Copy, Debug, Default)]
pub struct SeaFeats {
    pub pirate_chases: u64,
    pub pirate_commodity_thefts: u64,
    pub knight_moves_across_ships: u64,
    pub displacements_across_ships: u64,
}

impl CitiesKnights {
    /// The checks of `game`; `None` when it is no C&K game.
    pub fn new(game: &Game) -> Option<CitiesKnights> {
        let config = game.config();
        if !config.cities_and_knights {
            return None;
        }
        let seats = usize::from(game.player_count());
        Some(CitiesKnights {
            steps: config.barbarian_steps,
            robber_waits: config.robber_waits_for_first_attack,
            progress: vec![ProgressCards::default(); seats],
            defenders: vec![0; seats],
            attacks: 0,
            pieceless: Vec::new(),
            activated: Vec::new(),
            promoted: Vec::new(),
            face: None,
            red: None,
            seven: false,
            attack: None,
            bandit: None,
            metropolises: Vec::new(),
            played: None,
            crane: false,
            deserted_mighty: Vec::new(),
            merchant: None,
            fleets: Vec::new(),
            feats: SeaFeats::default(),
        })
    }

    /// What the game did of SEA-15 so far.
    pub fn feats(&self) -> SeaFeats {
        self.feats
    }

    /// Pillaged cities of `seat` standing as settlements without a piece (CK-BAR-8).
    pub fn pieceless(&self, seat: Seat) -> u32 {
        self.pieceless.iter().filter(|(s, _)| *s == seat).count() as u32
    }

    /// The points C&K adds to the buildings and Longest Road: face-up VP progress cards
    /// (CK-EVT-3) and Defender of Catan cards (CK-BAR-6).
    pub fn points(&self, seat: Seat) -> u32 {
        let metropolises = self.metropolises.iter().filter(|(_, s, _)| *s == seat).count() as u32;
        let merchant = u32::from(self.merchant == Some(seat));
        victory_point_cards(&self.progress[seat.index()]) + self.defenders[seat.index()] + 2 * metropolises + merchant
    }

    fn is_metropolis(&self, vertex: VertexId) -> bool {
        self.metropolises.iter().any(|(_, _, v)| *v == vertex)
    }

    /// After `mover`'s move, whose `events` led from `prior` to the live game: each event is
    /// checked against the state just before it.
    pub fn after_move(&mut self, prior: &Game, mover: Seat, events: &[Event]) {
        let mut state = prior.clone();
        self.played = None;
        for (i, event) in events.iter().enumerate() {
            let _event = crate::checks::Context(format!("event {event:?} of {mover}'s move: {events:?}"));
            self.check_event(&state, mover, event, &events[i + 1..]);
            state.apply(event);
            self.record(&state, event);
        }
    }

    /// `event` against `state`, the state before it; `rest` are the move's events after it.
    fn check_event(&mut self, state: &Game, mover: Seat, event: &Event, rest: &[Event]) {
        let next = rest.first();
        let knight_of = |seat: Seat, vertex: VertexId| {
            let knight = state.knight_at(vertex).copied();
            assert!(knight.is_some_and(|k| k.seat == seat), "no knight of {seat} on {vertex}");
            knight.unwrap()
        };
        // CK-KNT-5: an active knight not activated this turn, in its owner's main phase.
        let acting = |seat: Seat, vertex: VertexId| {
            assert_eq!((seat, state.phase()), (mover, &Phase::Main), "a knight acts in its owner's main phase");
            let knight = knight_of(seat, vertex);
            assert!(knight.active && !self.activated.contains(&vertex), "{knight:?} may not act (CK-KNT-5)");
            knight
        };
        let empty = |vertex: VertexId| state.building_at(vertex).is_none() && state.knight_at(vertex).is_none();
        // CK-KNT-2/6, SEA-15: a knight stands only by land, where it could be recruited.
        let land = |vertex: VertexId| {
            state.board().vertex(vertex).is_some_and(|v| state.board().vertex_is_buildable[v as usize])
        };
        let at_route = |seat: Seat, vertex: VertexId| vertex.edges().iter().any(|&e| route(state, seat, e));
        // Whether a knight of `seat` reaches `to` from `from` only across a ship (SEA-15).
        let across_ships =
            |seat: Seat, from: VertexId, to: VertexId| !reachable_along(state, seat, from, Routes::Roads).contains(&to);
        match *event {
            Event::EventDieRolled { face, .. } => self.face = Some(face),
            Event::DiceRolled { red, white, .. } => {
                self.red = Some(red);
                self.seven = red + white == 7;
            }
            // An attack's decisions come before the number dice (CK-TURN-3).
            Event::PhaseChanged { ref phase, ref then }
                if self.seven
                    && !matches!(
                        phase,
                        Phase::LoseCity { .. } | Phase::DefenderDraw { .. } | Phase::CardDecision { .. }
                    ) =>
            {
                self.seven = false;
                self.check_seven(state, phase, then);
            }
            Event::BarbariansAdvanced { position } => {
                assert_eq!(self.face, Some(EventFace::Ship), "the barbarians advance on a ship only (CK-BAR-2)");
                assert_eq!(position, (state.barbarian_position() + 1).min(self.steps), "CK-BAR-2: one step");
            }
            Event::BarbariansAttacked { strength, defence, ref contributions } => {
                assert_eq!(state.barbarian_position(), self.steps, "an attack before the ship arrived (CK-BAR-3)");
                let cities: u32 = state.seats().map(|s| state.player(s).unwrap().cities_on_board()).sum();
                assert_eq!(strength, cities, "CK-BAR-4: the barbarians' strength is the cities");
                let of: Vec<u32> = state
                    .seats()
                    .map(|s| {
                        state.knights().iter().filter(|k| k.seat == s && k.active).map(|k| u32::from(k.rank)).sum()
                    })
                    .collect();
                let logged: Vec<u32> = contributions.iter().map(|c| c.count).collect();
                assert_eq!(logged, of, "CK-BAR-4: each seat's active knights");
                assert_eq!(defence, of.iter().sum::<u32>());
                self.attack = Some((of, strength, defence));
            }
            Event::DefenderOfCatan { seat } => {
                let (of, strength, defence) = self.attack.clone().expect("a Defender without an attack");
                let best = of[seat.index()];
                assert!(defence >= strength && best > 0, "a Defender of a lost attack (CK-BAR-6)");
                assert!(of.iter().enumerate().all(|(s, &n)| s == seat.index() || n < best), "CK-BAR-6: {of:?}");
            }
            Event::CityPillaged { seat, vertex } => {
                let (of, strength, defence) = self.attack.clone().expect("a pillage without an attack");
                assert!(defence < strength, "a city pillaged in a won defence (CK-BAR-7)");
                // CK-MET-5: only seats with a city without a metropolis can lose one.
                let plain_city = |s: Seat| {
                    state.board().vertices.iter().any(|v| {
                        state.building_at(*v).is_some_and(|b| b.seat == s && b.kind == BuildingKind::City)
                            && !self.is_metropolis(*v)
                    })
                };
                assert!(!self.is_metropolis(vertex), "CK-MET-5: the metropolis at {vertex} pillaged");
                let eligible = |s: Seat| plain_city(s) || s == seat;
                let weakest = state.seats().filter(|&s| eligible(s)).map(|s| of[s.index()]).min();
                assert_eq!(Some(of[seat.index()]), weakest, "CK-BAR-7: {seat} is not among the weakest of {of:?}");
                let city = state.building_at(vertex);
                assert!(city.is_some_and(|b| b.seat == seat && b.kind == BuildingKind::City), "no city of {seat}");
                if state.player(seat).unwrap().pieces_left().settlements == 0 {
                    self.pieceless.push((seat, vertex));
                }
            }
            Event::CityBuilt { vertex, .. } => self.pieceless.retain(|(_, v)| *v != vertex),
            Event::ProgressCardDrawn { seat, track, card } => {
                let card = card.expect("the live log names the card");
                let (count, deck) = printed(card);
                assert_eq!(track, deck, "{card:?} drawn from the {track:?} deck");
                let drawn: u32 = self.progress.iter().map(|hand| hand.get(card)).sum();
                assert!(drawn < count, "a {}th {card:?} (CK-PC-7)", drawn + 1);
                match state.phase() {
                    // CK-BAR-6: the first tied defender draws.
                    Phase::DefenderDraw { pending, .. } => assert_eq!(pending.first(), Some(&seat)),
                    // CK-EVT-2, CK-IMP-6: on the gate of the track, inside the level's window.
                    _ => {
                        assert_eq!(self.face.and_then(EventFace::track), Some(track), "a draw without the gate");
                        let level = state.improvement_level(seat, track);
                        assert!(draws(level, self.red.unwrap()), "{seat} draws at level {level} (CK-IMP-6)");
                    }
                }
            }
            Event::ProgressCardPlayed { seat, ref play } => {
                assert_eq!(seat, mover, "a progress card played by another seat than the mover");
                self.played = Some(play.card());
                // CK-PC-7: two Cranes do not combine.
                self.crane |= play.card() == ProgressCard::Crane;
            }
            Event::ImprovementBuilt { seat, track, level, cost } => {
                assert_eq!((seat, state.phase()), (mover, &Phase::Main));
                assert_eq!(level, state.improvement_level(seat, track) + 1, "CK-IMP-2: level by level");
                assert!(level <= TOP_LEVEL);
                // CK-PC-7 Crane: one commodity less, once.
                let price = u32::from(level) - u32::from(std::mem::take(&mut self.crane));
                assert_eq!(cost, Commodities::of(track.commodity(), price), "CK-IMP-2: level k costs k");
                assert!(state.player(seat).unwrap().cities_on_board() > 0, "CK-IMP-3: an improvement needs a city");
            }
            Event::KnightRecruited { seat, vertex, cost } => {
                assert_eq!((seat, knight_phase(state), cost), (mover, true, KNIGHT_COST), "CK-KNT-1, X56-11");
                let v = state.board().vertex(vertex).expect("a knight on the board");
                assert!(state.board().vertex_is_buildable[v as usize] && empty(vertex), "CK-KNT-2: {vertex}");
                assert!(at_route(seat, vertex), "CK-KNT-2, SEA-15: {vertex} is at no road or ship of {seat}");
                let basic = state.knights().iter().filter(|k| k.seat == seat && k.rank == 1).count();
                assert!(basic < KNIGHTS_PER_RANK, "a third basic knight (CK-CMP-4)");
            }
            Event::KnightPromoted { seat, vertex, rank, cost } => {
                // CK-PC-7 Smith: free promotions.
                let price = if self.played == Some(ProgressCard::Smith) { Resources::ZERO } else { KNIGHT_COST };
                assert_eq!((seat, knight_phase(state), cost), (mover, true, price), "CK-KNT-1, X56-11");
                let knight = knight_of(seat, vertex);
                assert_eq!(rank, knight.rank + 1, "CK-KNT-3: one rank");
                assert!(!self.promoted.contains(&vertex), "CK-KNT-3: promoted twice in a turn");
                let of_rank = state.knights().iter().filter(|k| k.seat == seat && k.rank == rank).count();
                assert!(of_rank < KNIGHTS_PER_RANK, "no piece of rank {rank} left (CK-CMP-4)");
                if rank == MIGHTY {
                    assert!(state.improvement_level(seat, Track::Politics) >= POLITICS_FOR_MIGHTY, "CK-KNT-3");
                }
            }
            Event::KnightActivated { seat, vertex, cost } => {
                // CK-PC-7 Warlord: free.
                let due = if self.played == Some(ProgressCard::Warlord) { Resources::ZERO } else { ACTIVATION_COST };
                assert_eq!((seat, knight_phase(state), cost), (mover, true, due), "CK-KNT-4, X56-11");
                assert!(!knight_of(seat, vertex).active, "an active knight activated again");
            }
            Event::KnightMoved { seat, from, to } => {
                acting(seat, from);
                assert!(empty(to) && to != from, "CK-KNT-6: {to} is not empty");
                assert!(land(to), "SEA-15: the knight stops on {to}, by no land");
                assert!(reachable(state, seat, from).contains(&to), "CK-KNT-6: {to} out of reach from {from}");
                self.feats.knight_moves_across_ships += u64::from(across_ships(seat, from, to));
            }
            Event::KnightDisplaced { seat, from, to, displaced, rank, active } => {
                let knight = acting(seat, from);
                let weaker = state.knight_at(to).copied().expect("CK-KNT-7: no knight to displace");
                assert_ne!(weaker.seat, seat);
                assert_eq!((weaker.seat, weaker.rank, weaker.active), (displaced, rank, active), "{event:?}");
                assert!(weaker.rank < knight.rank, "CK-KNT-7: only a strictly weaker knight");
                assert!(reachable(state, seat, from).contains(&to), "CK-KNT-7: {to} out of reach from {from}");
                self.feats.displacements_across_ships += u64::from(across_ships(seat, from, to));
                // CK-KNT-7: its owner relocates it, or it goes to the supply (after Longest Road
                // is recomputed, B-LR-5).
                let after = rest
                    .iter()
                    .find(|e| !matches!(e, Event::LongestRoadChanged { .. }))
                    .expect("a displacement is followed by its outcome");
                assert!(
                    matches!(after, Event::KnightReturnedToSupply { seat: s, vertex, rank: r } if *s == displaced && *vertex == to && *r == rank)
                        || matches!(after, Event::PhaseChanged { phase: Phase::RelocateKnight { seat: s, vertex, rank: r, active: a }, .. } if *s == displaced && *vertex == to && *r == rank && *a == active),
                    "the displaced knight's outcome: {after:?}"
                );
            }
            Event::KnightRelocated { seat, from, to, rank, active } => {
                assert_eq!(
                    state.phase(),
                    &Phase::RelocateKnight { seat, vertex: from, rank, active },
                    "a relocation outside its phase"
                );
                assert_eq!(mover, seat, "CK-KNT-7: the owner relocates");
                assert!(empty(to), "CK-KNT-7: {to} is not empty");
                assert!(land(to), "SEA-15: the knight is relocated to {to}, by no land");
                assert!(reachable(state, seat, from).contains(&to), "CK-KNT-7: {to} out of reach from {from}");
                self.feats.displacements_across_ships += u64::from(across_ships(seat, from, to));
            }
            // CK-PC-7 Deserter: the target's own knight leaves; the player's joins at the end of
            // one of its roads, of the same rank or weaker.
            Event::KnightDeserted { seat, vertex, rank, active } => {
                let knight = knight_of(seat, vertex);
                assert_eq!((knight.rank, knight.active), (rank, active), "{event:?}");
                assert_ne!(seat, state.active_seat(), "a Deserter targets an opponent");
            }
            Event::DeserterKnightPlaced { seat, vertex, rank, .. } => {
                assert_eq!((seat, seat), (mover, state.active_seat()), "{event:?}");
                let v = state.board().vertex(vertex).expect("a knight on the board");
                assert!(state.board().vertex_is_buildable[v as usize] && empty(vertex), "CK-KNT-2: {vertex}");
                assert!(at_route(seat, vertex), "CK-KNT-2, SEA-15: {vertex} is at no road or ship of {seat}");
                let of_rank = state.knights().iter().filter(|k| k.seat == seat && k.rank == rank).count();
                assert!(of_rank < KNIGHTS_PER_RANK, "no piece of rank {rank} left (CK-CMP-4)");
            }
            // CK-PC-7 Intrigue: an opponent's knight at the end of one of the player's roads (or
            // ships, SEA-15).
            Event::KnightIntrigued { seat, vertex, displaced, rank, active } => {
                let knight = knight_of(displaced, vertex);
                assert_eq!((knight.rank, knight.active), (rank, active), "{event:?}");
                assert_ne!(seat, displaced);
                assert!(at_route(seat, vertex), "{event:?}");
            }
            Event::KnightReturnedToSupply { seat, vertex, .. } => {
                let open =
                    reachable(state, seat, vertex).into_iter().filter(|&v| v != vertex && empty(v) && land(v)).count();
                assert_eq!(open, 0, "CK-KNT-7: {seat}'s knight from {vertex} had {open} empty vertices in reach");
            }
            // CK-KNT-8; SEA-15: the pirate too, from a corner of its hex.
            Event::RobberChased { seat, knight } => {
                acting(seat, knight);
                assert!(!self.robber_waits || state.barbarian_attacks() > 0, "CK-BAR-10: the robber waits");
                let (bandit, at) = match next {
                    Some(Event::RobberMoved { seat: s, hex }) if *s == seat => (state.robber_hex(), *hex),
                    Some(Event::PirateMoved { seat: s, hex }) if *s == seat => {
                        self.feats.pirate_chases += 1;
                        (state.pirate_hex(), *hex)
                    }
                    _ => panic!("CK-KNT-8, SEA-15: the robber or the pirate moves next: {next:?}"),
                };
                let bandit = bandit.expect("a bandit to chase");
                assert!(bandit.corners().contains(&knight), "CK-KNT-8: {knight} is not beside {bandit}");
                assert_ne!(at, bandit, "CK-KNT-8: the chased bandit stays on {bandit}");
            }
            // CK-BAR-10, SEA-15: the pirate waits for the first attack like the robber.
            Event::PirateMoved { hex, .. } => {
                assert!(!self.robber_waits || state.barbarian_attacks() > 0, "CK-BAR-10, SEA-15: the pirate waits");
                self.bandit = Some((Bandit::Pirate, hex));
            }
            Event::CityWallBuilt { seat, vertex, cost } => {
                // CK-PC-7 Engineer: a free wall.
                let price = if self.played == Some(ProgressCard::Engineer) { Resources::ZERO } else { WALL_COST };
                assert_eq!((seat, state.phase(), cost), (mover, &Phase::Main, price), "CK-WALL-1");
                let city = state.building_at(vertex);
                assert!(city.is_some_and(|b| b.seat == seat && b.kind == BuildingKind::City), "CK-WALL-1: {vertex}");
                assert!(!state.has_wall(vertex), "CK-WALL-1: a second wall on {vertex}");
                assert!((state.city_walls(seat) as usize) < WALLS_PER_SEAT, "a fourth wall (CK-CMP-5)");
            }
            Event::CardsDiscarded { seat, count, cards } => {
                let cards = cards.expect("the live log names the cards");
                let owed = match state.phase() {
                    Phase::Discard { pending } => pending.iter().find(|p| p.seat == seat).map(|p| p.count),
                    _ => None,
                };
                assert_eq!((Some(count), cards.total()), (owed, count), "CK-7-1: {seat} owed {owed:?}");
                assert!(state.hand_cards(seat).contains(&cards), "{seat} discards cards it lacks");
            }
            // CK-PC-7 Inventor: two tokens, neither 2, 12, 6 nor 8, swap places.
            Event::NumberTokensSwapped { seat, hexes, numbers } => {
                assert_eq!((seat, self.played), (mover, Some(ProgressCard::Inventor)), "{event:?}");
                assert_ne!(hexes[0], hexes[1], "{event:?}");
                for (hex, number) in hexes.into_iter().zip(numbers) {
                    let h = state.board().hex(hex).expect("a hex of the board") as usize;
                    assert_eq!(state.board().numbers[h], Some(number), "{event:?}");
                    assert!(![2, 12, 6, 8].contains(&number), "{event:?}: a fixed token moved");
                }
            }
            // CK-PC-7 Irrigation, Mining: 2 per touching hex of the terrain, as the bank allows.
            Event::ResourcesHarvested { seat, resources } => {
                let (terrain, resource) = match self.played {
                    Some(ProgressCard::Irrigation) => (Terrain::Fields, Resource::Grain),
                    Some(ProgressCard::Mining) => (Terrain::Mountains, Resource::Ore),
                    other => panic!("{event:?} after {other:?}"),
                };
                let board = state.board();
                let hexes = (0..board.hexes.len())
                    .filter(|&h| board.terrain[h] == terrain)
                    .filter(|&h| {
                        board.hexes[h].corners().iter().any(|&v| state.building_at(v).is_some_and(|b| b.seat == seat))
                    })
                    .count() as u32;
                let expected = (2 * hexes).min(state.bank().get(resource));
                assert_eq!(resources, Resources::of(resource, expected), "{event:?}: {hexes} hexes");
                assert!(expected > 0, "{event:?} gave nothing");
            }
            Event::RobberMoved { hex, .. } => self.bandit = Some((Bandit::Robber, hex)),
            // B-ROB-3, CK-7-2: from an opponent with a building beside the robber; SEA-8, SEA-15:
            // with a ship beside the pirate.
            Event::ResourceStolen { thief, victim, .. } | Event::CommodityStolen { thief, victim, .. } => {
                let (bandit, hex) = self.bandit.expect("a theft without the robber or the pirate moving");
                assert_ne!(thief, victim);
                let beside = match bandit {
                    Bandit::Robber => {
                        hex.corners().iter().any(|&v| state.building_at(v).is_some_and(|b| b.seat == victim))
                    }
                    Bandit::Pirate => hex.sides().iter().any(|&e| state.ship_at(e) == Some(victim)),
                };
                assert!(beside, "{event:?}: {victim} has no piece beside the {bandit:?} on {hex}");
                let commodity = matches!(event, Event::CommodityStolen { .. });
                self.feats.pirate_commodity_thefts += u64::from(commodity && bandit == Bandit::Pirate);
                let had = match *event {
                    Event::ResourceStolen { resource, .. } => {
                        state.player(victim).unwrap().resources().get(resource.expect("the card")) > 0
                    }
                    Event::CommodityStolen { commodity, .. } => {
                        state.player(victim).unwrap().commodities().get(commodity.expect("the card")) > 0
                    }
                    _ => unreachable!(),
                };
                assert!(had, "{event:?}: {victim} had no such card");
            }
            // CK-TRD-1/2: identical cards of one kind at the seat's rate for other kinds; a
            // commodity at 2:1 exactly with Trade 3, else at 3:1 or 4:1.
            Event::CardsTradedWithBank { seat, give, get } => {
                assert_eq!((seat, state.phase()), (mover, &Phase::Main), "{event:?}");
                let resources = Resource::ALL.into_iter().filter(|&r| give.resources.get(r) > 0);
                let commodities: Vec<Commodity> =
                    Commodity::ALL.into_iter().filter(|&c| give.commodities.get(c) > 0).collect();
                assert_eq!(resources.count() + commodities.len(), 1, "{event:?}: one kind given");
                let same = commodities.first().is_some_and(|&c| get.commodities.get(c) > 0)
                    || Resource::ALL.into_iter().any(|r| give.resources.get(r) > 0 && get.resources.get(r) > 0);
                assert!(!same && get.total() > 0, "{event:?}");
                let rate = give.total() / get.total();
                assert_eq!(rate * get.total(), give.total(), "{event:?}: not a whole rate");
                if !commodities.is_empty() {
                    // CK-TRD-2, and a Merchant Fleet naming the commodity (CK-PC-7).
                    let fleet = self.fleets.contains(&Good::Commodity(commodities[0]));
                    let trade = state.improvement_level(seat, Track::Trade) >= 3 || fleet;
                    assert!(if trade { rate == 2 } else { rate == 3 || rate == 4 }, "{event:?} at {rate}:1");
                } else {
                    assert!((2..=4).contains(&rate), "{event:?} at {rate}:1");
                }
                assert!(state.hand_cards(seat).contains(&give), "{seat} gives cards it lacks");
            }
            _ => self.check_trade_card(state, mover, event),
        }
    }

    /// The trade deck's events (CK-PC-7, CK-MER) against the state before them.
    fn check_trade_card(&self, state: &Game, mover: Seat, event: &Event) {
        let active = state.active_seat();
        match *event {
            Event::MerchantPlaced { seat, hex, from_seat } => {
                assert_eq!((seat, mover, state.phase()), (active, active, &Phase::Main), "{event:?}");
                let h = state.board().hex(hex).expect("the merchant on the board");
                assert!(state.board().terrain[h as usize].resource().is_some(), "CK-MER-1: {hex} produces nothing");
                let beside = hex.corners().iter().any(|&v| state.building_at(v).is_some_and(|b| b.seat == seat));
                assert!(beside, "CK-MER-1: {hex} touches no building of {seat}");
                assert_eq!(from_seat, self.merchant.filter(|&s| s != seat), "CK-MER-3: {event:?}");
            }
            Event::ResourceMonopolyTaken { seat, resource, ref taken } => {
                assert_eq!(seat, active);
                let expected: Vec<(Seat, u32)> = state
                    .seats()
                    .filter(|&s| s != seat)
                    .map(|s| (s, state.player(s).unwrap().resources().get(resource).min(2)))
                    .collect();
                let logged: Vec<(Seat, u32)> = taken.iter().map(|t| (t.seat, t.resources.get(resource))).collect();
                assert_eq!(logged, expected, "CK-PC-7 Resource Monopoly: {event:?}");
                assert!(taken.iter().all(|t| t.resources.total() == t.resources.get(resource)));
            }
            Event::TradeMonopolyTaken { seat, commodity, ref taken } => {
                assert_eq!(seat, active);
                let expected: Vec<(Seat, u32)> = state
                    .seats()
                    .filter(|&s| s != seat)
                    .map(|s| (s, state.player(s).unwrap().commodities().get(commodity).min(1)))
                    .collect();
                let logged: Vec<(Seat, u32)> = taken.iter().map(|t| (t.seat, t.commodities.get(commodity))).collect();
                assert_eq!(logged, expected, "CK-PC-7 Trade Monopoly: {event:?}");
                assert!(taken.iter().all(|t| t.commodities.total() == t.commodities.get(commodity)));
            }
            Event::CommercialHarborOffered { seat, with, resource } => {
                assert_eq!((seat, mover, state.phase()), (active, active, &Phase::Main), "{event:?}");
                assert_ne!(seat, with);
                assert!(state.player(seat).unwrap().resources().get(resource.expect("the card")) > 0, "{event:?}");
                assert!(state.player(with).unwrap().commodities().total() > 0, "{event:?}: nothing to give back");
            }
            Event::CommercialHarborDeclined { seat, with } => {
                assert_eq!((seat, mover), (active, active), "{event:?}");
                assert_eq!(state.player(with).unwrap().commodities().total(), 0, "CK-PC-7: {event:?}");
            }
            Event::CommercialHarborAnswered { seat, to, commodity } => {
                assert_eq!(to, active, "{event:?}");
                assert!(state.player(seat).unwrap().commodities().get(commodity.expect("the card")) > 0, "{event:?}");
            }
            Event::CardsTaken { seat, from, count, cards } => {
                let cards = cards.expect("the live log names the cards");
                assert_eq!((seat, cards.total()), (active, count), "{event:?}");
                assert!(count <= 2 && state.hand_cards(from).contains(&cards), "CK-PC-7 Master Merchant: {event:?}");
                assert!(state.public_victory_points(from) > state.public_victory_points(seat), "{event:?}");
            }
            _ => {}
        }
    }

    /// CK-7-1, CK-WALL-2, CK-BAR-10: what a 7 leads to, from the state the number dice found.
    fn check_seven(&self, state: &Game, phase: &Phase, then: &[Phase]) {
        let expected: Vec<(Seat, u32)> = state
            .seats()
            .filter_map(|seat| {
                let held = state.hand_cards(seat).total();
                let limit = HAND_LIMIT + PER_WALL * state.city_walls(seat);
                (held > limit).then_some((seat, held / 2))
            })
            .collect();
        let robber = !self.robber_waits || state.barbarian_attacks() > 0;
        let mut phases = vec![phase.clone()];
        phases.extend(then.iter().cloned());
        // CK-PC-5: discards over the progress hand limit come first.
        let mut phases = phases.into_iter().skip_while(|p| matches!(p, Phase::CardDecision { .. })).peekable();
        if let Some(Phase::Discard { pending }) = phases.peek() {
            let owed: Vec<(Seat, u32)> = pending.iter().map(|p| (p.seat, p.count)).collect();
            assert_eq!(owed, expected, "CK-7-1: who discards how many");
            phases.next();
        } else {
            assert!(expected.is_empty(), "CK-7-1: nobody discards, but {expected:?} are over their limit");
        }
        let next = phases.next();
        assert_eq!(next == Some(Phase::MoveRobber), robber, "CK-BAR-10: the robber after a 7: {next:?}");
    }

    /// Bookkeeping after `event` was applied (`state` is the state after it).
    fn record(&mut self, state: &Game, event: &Event) {
        let moved = |list: &mut Vec<VertexId>, from: VertexId, to: VertexId| {
            list.retain(|v| *v != to);
            for v in list.iter_mut().filter(|v| **v == from) {
                *v = to;
            }
        };
        match *event {
            Event::ProgressCardDrawn { seat, card: Some(card), .. } => *self.progress[seat.index()].get_mut(card) += 1,
            // CK-PC-3: played and discarded cards go under their decks.
            Event::ProgressCardPlayed { seat, ref play } => {
                *self.progress[seat.index()].get_mut(play.card()) -= 1;
                if let ProgressPlay::MerchantFleet { good } = *play {
                    self.fleets.push(good);
                }
            }
            Event::ProgressCardDiscarded { seat, card: Some(card), .. } => {
                *self.progress[seat.index()].get_mut(card) -= 1
            }
            Event::ProgressCardTaken { seat, from, card: Some(card) } => {
                *self.progress[from.index()].get_mut(card) -= 1;
                *self.progress[seat.index()].get_mut(card) += 1;
            }
            Event::DefenderOfCatan { seat } => self.defenders[seat.index()] += 1,
            Event::MerchantPlaced { seat, .. } => self.merchant = Some(seat),
            // CK-MET-1/3: a metropolis on a city of its holder, one per track and per city.
            Event::MetropolisPlaced { seat, track, vertex } => {
                assert!(self.metropolises.iter().all(|(t, _, v)| *t != track && *v != vertex), "CK-MET-2: {event:?}");
                self.metropolises.push((track, seat, vertex));
            }
            Event::MetropolisMoved { seat, track, from_seat, from, to } => {
                let held = self.metropolises.iter().position(|m| *m == (track, from_seat, from));
                let held = held.unwrap_or_else(|| panic!("CK-MET-3: {event:?} of a metropolis not held"));
                assert!(!self.is_metropolis(to), "CK-MET-2: {event:?}");
                self.metropolises[held] = (track, seat, to);
            }
            Event::BarbariansAttacked { .. } => {
                self.attacks += 1;
                // CK-BAR-9: every knight inactive, the ship back at the start.
                assert!(state.knights().iter().all(|k| !k.active), "active knights after an attack (CK-BAR-9)");
                assert_eq!(state.barbarian_position(), 0, "CK-BAR-9");
            }
            Event::TurnStarted { .. } => {
                self.crane = false;
                self.activated.clear();
                self.promoted.clear();
                self.face = None;
                self.red = None;
                self.attack = None;
                self.bandit = None;
                self.fleets.clear();
            }
            Event::KnightActivated { vertex, .. } => self.activated.push(vertex),
            Event::KnightPromoted { vertex, .. } => self.promoted.push(vertex),
            Event::DeserterKnightPlaced { seat, rank: MIGHTY, .. } => self.deserted_mighty.push(seat),
            Event::KnightDeserted { vertex, .. } | Event::KnightIntrigued { vertex, .. } => {
                self.activated.retain(|v| *v != vertex);
                self.promoted.retain(|v| *v != vertex);
            }
            Event::KnightMoved { from, to, .. } | Event::KnightDisplaced { from, to, .. } => {
                moved(&mut self.activated, from, to);
                moved(&mut self.promoted, from, to);
            }
            _ => {}
        }
    }

    /// The state's C&K invariants (see the module's documentation); `view` is the spectator's.
    pub fn check_state(&self, game: &Game, view: &GameView) {
        // CK-CMP-1: commodities are conserved.
        let mut commodities = *game.commodity_bank();
        for seat in game.seats() {
            commodities += *game.player(seat).unwrap().commodities();
        }
        // X56-11: the 5-6 player extension adds 6 of each.
        let per_kind = if game.config().five_six_extension { COMMODITIES_PER_KIND + 6 } else { COMMODITIES_PER_KIND };
        assert_eq!(commodities, Commodities::each(per_kind), "commodities not conserved (CK-CMP-1, X56-11)");
        // CK-CMP-2, CK-PC-7: the hands are what the log dealt; with the decks, the 54.
        let mut held = ProgressCards::default();
        for seat in game.seats() {
            assert_eq!(game.progress_cards(seat), self.progress[seat.index()], "{seat}'s progress cards");
            held += self.progress[seat.index()];
        }
        let decks = game.progress_decks();
        for card in ProgressCard::ALL {
            let (count, _) = printed(card);
            assert!(held.get(card) <= count, "{} {card:?} held", held.get(card));
            assert_eq!(held.get(card) + decks.get(card), count, "{card:?}: hands plus decks (CK-CMP-2)");
        }
        assert_eq!(held.total() + decks.total(), 3 * DECK, "the 54 progress cards (CK-CMP-2)");
        let ck = view.cities_and_knights.as_ref().expect("a C&K game's view has its part");
        for deck in &ck.decks {
            let drawn: u32 =
                ProgressCard::ALL.iter().filter(|c| printed(**c).1 == deck.track).map(|c| held.get(*c)).sum();
            assert_eq!(deck.cards_left, DECK - drawn, "the {:?} deck", deck.track);
        }
        // CK-GEN-2: no development cards, no Largest Army.
        assert_eq!(game.development_deck().total(), 0, "a development deck in C&K");
        assert_eq!(game.largest_army_holder(), None, "Largest Army in C&K");
        // CK-BAR-1/9: between moves, the ship stands short of its attack.
        let ship = game.barbarian_position();
        assert!(ship < self.steps, "the barbarians at {ship} of {}", self.steps);
        assert_eq!(game.barbarian_attacks(), self.attacks, "attacks");
        let mut on: HashSet<VertexId> = HashSet::new();
        for seat in game.seats() {
            let p = game.player(seat).unwrap();
            assert_eq!(p.dev_card_count() + p.knights_played_count(), 0, "{seat} has development cards (CK-GEN-2)");
            assert_eq!(game.defender_points(seat), self.defenders[seat.index()], "{seat}'s Defender cards");
            for track in Track::ALL {
                assert!(game.improvement_level(seat, track) <= TOP_LEVEL);
            }
            // CK-CMP-4, CK-KNT-2/3: knights.
            let knights: Vec<_> = game.knights().iter().filter(|k| k.seat == seat).collect();
            for rank in 1..=MIGHTY {
                let n = knights.iter().filter(|k| k.rank == rank).count();
                assert!(n <= KNIGHTS_PER_RANK, "{seat} has {n} knights of rank {rank} (CK-CMP-4)");
            }
            for k in &knights {
                assert!((1..=MIGHTY).contains(&k.rank), "{k:?}");
                assert!(on.insert(k.vertex), "two knights on {}", k.vertex);
                let v = game.board().vertex(k.vertex).expect("a knight on the board");
                assert!(game.board().vertex_is_buildable[v as usize], "{k:?} off the land");
                assert!(game.building_at(k.vertex).is_none(), "{k:?} on a building (CK-KNT-9)");
                // SEA-15: or ships.
                let at_route = k.vertex.edges().iter().any(|&e| route(game, seat, e));
                assert!(at_route, "{k:?} off its roads and ships");
                // CK-PC-7 Deserter: a mighty knight may join without Politics 3.
                if k.rank == MIGHTY && !self.deserted_mighty.contains(&seat) {
                    assert!(game.improvement_level(seat, Track::Politics) >= POLITICS_FOR_MIGHTY, "{k:?} (CK-KNT-3)");
                }
            }
            // CK-CMP-5, CK-WALL-1: walls under own cities.
            let walls = &ck.seats[seat.index()].walls;
            assert!(walls.len() <= WALLS_PER_SEAT, "{seat} has {} walls (CK-CMP-5)", walls.len());
            assert_eq!(walls.len() as u32, game.city_walls(seat));
            for &wall in walls {
                let city = game.building_at(wall);
                assert!(city.is_some_and(|b| b.seat == seat && b.kind == BuildingKind::City), "wall on {wall}");
            }
        }
        // CK-BAR-8: pillaged cities without a piece stand as settlements.
        for &(seat, vertex) in &self.pieceless {
            let building = game.building_at(vertex);
            assert!(
                building.is_some_and(|b| b.seat == seat && b.kind == BuildingKind::Settlement),
                "the pillaged city on {vertex}: {building:?}"
            );
        }
    }

    /// CK-PC-6, CK-CMP-1: every seat sees its own commodities and progress cards, other
    /// seats' as counts only (and their face-up VP cards); a spectator sees counts only.
    pub fn check_views(&self, game: &Game) {
        if game.is_over() {
            return;
        }
        for viewer in crate::seafarers::viewers(game) {
            let view = game.view(viewer);
            let you = match viewer {
                Viewer::Seat(seat) => Some(seat),
                Viewer::Spectator => None,
            };
            let own = you.map(|seat| *game.player(seat).unwrap().commodities());
            assert_eq!(view.hand.as_ref().and_then(|h| h.commodities), own, "{viewer:?}'s commodities");
            assert_eq!(view.commodity_bank, Some(*game.commodity_bank()));
            for p in &view.players {
                assert_eq!(p.commodities, None, "{viewer:?} sees {}'s commodities", p.seat);
                assert_eq!(p.commodity_count, Some(game.player(p.seat).unwrap().commodities().total()));
            }
            let ck = view.cities_and_knights.as_ref().expect("a C&K game's view has its part");
            for seat in &ck.seats {
                let cards = &self.progress[seat.seat.index()];
                let shown = (you == Some(seat.seat)).then_some(*cards);
                assert_eq!(seat.progress_cards, shown, "{viewer:?} sees {}'s progress cards", seat.seat);
                assert_eq!(seat.progress_card_count, cards.total());
                assert_eq!(seat.revealed_points, victory_point_cards(cards), "CK-EVT-3: face-up VP cards");
            }
        }
    }
}

/// Hidden cards of C&K events as `viewer` gets them: a discard's cards (its seat only), a
/// stolen commodity (thief and victim only), a drawn progress card (its seat only, but the
/// VP cards, face up for all: CK-EVT-3). `Some` with whether the hidden part is shown; `None`
/// for other events.
pub fn shown(event: &Event, redacted: &Event, viewer: Viewer) -> Option<(bool, bool)> {
    let sees = |seat: Seat| viewer == Viewer::Seat(seat);
    match (event, redacted) {
        (Event::CardsDiscarded { seat, .. }, Event::CardsDiscarded { cards, .. }) => {
            Some((cards.is_some(), sees(*seat)))
        }
        (Event::CommodityStolen { thief, victim, .. }, Event::CommodityStolen { commodity, .. }) => {
            Some((commodity.is_some(), sees(*thief) || sees(*victim)))
        }
        (Event::ProgressCardDrawn { seat, card, .. }, Event::ProgressCardDrawn { card: seen, .. }) => {
            let public = card.is_some_and(|c| victory_point_cards(&ProgressCards::of(c, 1)) > 0);
            Some((seen.is_some(), sees(*seat) || public))
        }
        (Event::ProgressCardDiscarded { seat, .. }, Event::ProgressCardDiscarded { card, .. }) => {
            Some((card.is_some(), sees(*seat)))
        }
        (Event::ProgressCardTaken { seat, from, .. }, Event::ProgressCardTaken { card, .. }) => {
            Some((card.is_some(), sees(*seat) || sees(*from)))
        }
        // CK-PC-7 Spy and Wedding: between the two seats concerned.
        (Event::ProgressCardsRevealed { seat, target, .. }, Event::ProgressCardsRevealed { cards, .. }) => {
            Some((cards.is_some(), sees(*seat) || sees(*target)))
        }
        (Event::CardsGiven { seat, to, .. }, Event::CardsGiven { cards, .. }) => {
            Some((cards.is_some(), sees(*seat) || sees(*to)))
        }
        // The trade deck's cards: what changes hands is seen by the two seats only (CK-PC-7).
        (Event::CommercialHarborOffered { seat, with, .. }, Event::CommercialHarborOffered { resource, .. }) => {
            Some((resource.is_some(), sees(*seat) || sees(*with)))
        }
        (Event::CommercialHarborAnswered { seat, to, .. }, Event::CommercialHarborAnswered { commodity, .. }) => {
            Some((commodity.is_some(), sees(*seat) || sees(*to)))
        }
        (Event::HandShown { seat, target, .. }, Event::HandShown { cards, .. }) => {
            Some((cards.is_some(), sees(*seat) || sees(*target)))
        }
        (Event::CardsTaken { seat, from, .. }, Event::CardsTaken { cards, .. }) => {
            Some((cards.is_some(), sees(*seat) || sees(*from)))
        }
        _ => None,
    }
}

/// Where knights are recruited, promoted and activated: the main phase, and with the 5-6
/// player extension a special building phase (X56-11).
fn knight_phase(state: &Game) -> bool {
    matches!(state.phase(), Phase::Main | Phase::SpecialBuilding { .. })
}

/// CK-KNT-2/6, SEA-15: whether `edge` holds a road or a ship of `seat`, along which its knights
/// are recruited and move.
pub fn route(game: &Game, seat: Seat, edge: EdgeId) -> bool {
    game.road_at(edge) == Some(seat) || game.ship_at(edge) == Some(seat)
}

/// The pieces a knight travels along.
#[derive(Clone, Copy, PartialEq)]
enum Routes {
    Roads,
    RoadsAndShips,
}

/// CK-KNT-6/7, SEA-15: the vertices `seat` reaches from `start` along its own roads and
/// ships, passing through no vertex that holds an opponent's building or knight (it may end
/// there; whether a knight may stop there is the caller's).
pub fn reachable(game: &Game, seat: Seat, start: VertexId) -> HashSet<VertexId> {
    reachable_along(game, seat, start, Routes::RoadsAndShips)
}

fn reachable_along(game: &Game, seat: Seat, start: VertexId, routes: Routes) -> HashSet<VertexId> {
    let blocked = |v: VertexId| {
        game.building_at(v).is_some_and(|b| b.seat != seat) || game.knight_at(v).is_some_and(|k| k.seat != seat)
    };
    let mut seen = HashSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some(at) = queue.pop_front() {
        if at != start && blocked(at) {
            continue;
        }
        for edge in at.edges() {
            let along = match routes {
                Routes::Roads => game.road_at(edge) == Some(seat),
                Routes::RoadsAndShips => route(game, seat, edge),
            };
            if !along {
                continue;
            }
            for next in edge.endpoints() {
                if seen.insert(next) {
                    queue.push_back(next);
                }
            }
        }
    }
    seen
}

/// Candidate moves of the trade deck's cards (CK-PC-7, CK-MER), listed or not: the merchant
/// on every `stride`-th hex, Master Merchant against every seat, Commercial Harbor exchanges
/// with every seat for every resource, each commodity given, and one and two cards of each
/// kind (and a mixed pair) taken from the seat a decision names.
pub fn trade_card_moves(game: &Game, seat: Seat, stride: usize, moves: &mut Vec<Move>) {
    let play = |play: ProgressPlay| Move::PlayProgressCard { play };
    for &hex in game.board().hexes.iter().step_by(stride) {
        moves.push(play(ProgressPlay::Merchant { hex }));
    }
    for other in game.seats() {
        moves.push(play(ProgressPlay::MasterMerchant { target: other }));
        for resource in Resource::ALL {
            moves.push(Move::CommercialHarborExchange { with: other, resource });
        }
    }
    for commodity in Commodity::ALL {
        moves.push(Move::GiveCommodity { commodity });
        moves.push(play(ProgressPlay::TradeMonopoly { commodity }));
        moves.push(play(ProgressPlay::MerchantFleet { good: Good::Commodity(commodity) }));
    }
    for resource in Resource::ALL {
        moves.push(play(ProgressPlay::ResourceMonopoly { resource }));
    }
    moves.push(play(ProgressPlay::CommercialHarbor));
    let hand = match game.phase() {
        Phase::CardDecision { decision: catan_engine::CardDecision::TakeCards { from, .. } } => game.hand_cards(*from),
        _ => game.hand_cards(seat),
    };
    let mut mixed = Cards::default();
    for resource in Resource::ALL {
        for n in [1, 2] {
            moves.push(Move::TakeCards { cards: Cards::of_resources(Resources::of(resource, n)) });
        }
        if hand.resources.get(resource) > 0 && mixed.total() < 2 {
            mixed.resources.set(resource, 1);
        }
    }
    for commodity in Commodity::ALL {
        for n in [1, 2] {
            moves.push(Move::TakeCards { cards: Cards::of_commodities(Commodities::of(commodity, n)) });
        }
        if hand.commodities.get(commodity) > 0 && mixed.total() < 2 {
            mixed.commodities.set(commodity, 1);
        }
    }
    moves.push(Move::TakeCards { cards: mixed });
}
