//! A rule-of-thumb bot that plays to win: no search, a fixed amount of work per decision.
//!
//! Every legal move gets a score; the best one is played (ties broken by the bot's seeded
//! RNG, so a bot is deterministic given its seed). Scores fall in tiers, so that "what kind
//! of move" is decided first and "which one" second:
//!
//! * **Placement** (setup and later settlements): expected production, i.e. the pips of the
//!   adjacent number tokens (B-GEO-15), weighted by how scarce the resource is on the board
//!   and in the bot's own production, plus harbour value.
//! * **Building toward points**: city > settlement > road toward the best free site within
//!   three roads > development card. Bank trades are made only when they complete the build
//!   the bot is saving for (or to shed cards above seven at the end of a turn).
//! * **Robber**: on the hex that costs the opponents the most, weighted toward the leader
//!   (most public points), never on the bot's own hexes when it can avoid them; it steals
//!   from the leader among the eligible victims.
//! * **Development cards**: a knight when the robber blocks the bot or for Largest Army,
//!   monopoly and year of plenty when they pay toward a build, road building when there is
//!   a site to reach.
//! * **Discards** keep the cards the next builds need; **trade offers** are accepted when
//!   they help and the offerer is not close to winning.
//!
//! The bot reads only what its own seat may see: the board, public points, hand sizes and
//! played knights of others, and its own hand (its playable development cards are read from
//! the legal moves, or from its own view when needed). Moves it does not know (rule variants
//! added later) get a low default score.

use crate::{
    board::{Board, HarbourKind, NONE},
    moves::Move,
    resources::{cost, Resource, Resources},
    rng::Rng,
    state::{
        Building, BuildingKind, Game, Phase, Seat, SetupStep, CITIES_PER_PLAYER, ROADS_PER_PLAYER,
        SETTLEMENTS_PER_PLAYER,
    },
};

use super::Bot;

/// Most roads the bot plans ahead to reach a free settlement site.
const MAX_ROAD_DEPTH: u8 = 3;
/// What a pip of each resource is worth before scarcity: lumber, brick, wool, grain, ore.
const BASE_WEIGHT: [f64; 5] = [1.0, 1.0, 0.9, 1.1, 1.1];
/// Scores closer than this are ties.
const EPSILON: f64 = 1e-9;
/// Hands bigger than this at the end of a turn risk a 7: the bot spends or trades down.
const SHED_ABOVE: u32 = 5;

/// Score tiers: a move's kind puts it in a tier; its own merit orders it within the tier.
mod tier {
    pub const PLAY_CARD_NOW: f64 = 1200.0;
    pub const CITY: f64 = 1000.0;
    pub const SETTLEMENT: f64 = 900.0;
    pub const TRADE_FOR_BUILD: f64 = 850.0;
    pub const ROAD_TO_SITE: f64 = 800.0;
    pub const DEV_CARD: f64 = 700.0;
    pub const CONFIRM_TRADE: f64 = 600.0;
    pub const ACCEPT_TRADE: f64 = 500.0;
    pub const ROLL: f64 = 100.0;
    pub const SPARE_CARD: f64 = 15.0;
    pub const END_TURN: f64 = 10.0;
    pub const UNKNOWN: f64 = 1.0;
    pub const POINTLESS: f64 = -10.0;
}

/// A heuristic bot; see the module documentation for how it decides.
#[derive(Debug, Clone)]
pub struct HeuristicBot {
    rng: Rng,
}

impl HeuristicBot {
    pub fn new(seed: u64) -> Self {
        HeuristicBot { rng: Rng::new(seed ^ 0x4855_5249_5354_4943) }
    }
}

impl Bot for HeuristicBot {
    fn choose(&mut self, game: &Game, seat: Seat, moves: &[Move]) -> usize {
        if moves.len() <= 1 {
            return 0;
        }
        let Some(ctx) = Ctx::new(game, seat) else {
            return fallback(moves);
        };
        let mut best: Vec<usize> = Vec::new();
        let mut best_score = f64::NEG_INFINITY;
        for (i, mv) in moves.iter().enumerate() {
            let score = ctx.score(mv, moves);
            if !score.is_finite() {
                continue;
            }
            if score > best_score + EPSILON {
                best_score = score;
                best.clear();
                best.push(i);
            } else if score >= best_score - EPSILON {
                best.push(i);
            }
        }
        match best.len() {
            0 => fallback(moves),
            1 => best[0],
            n => best[self.rng.below(n as u32) as usize],
        }
    }
}

/// The move to make when the bot cannot judge: end the turn, else roll, else the first.
fn fallback(moves: &[Move]) -> usize {
    moves
        .iter()
        .position(|m| matches!(m, Move::EndTurn))
        .or_else(|| moves.iter().position(|m| matches!(m, Move::RollDice)))
        .unwrap_or(0)
}

/// Ways to roll `n` with two dice, out of 36 (B-GEO-15).
fn pips(number: Option<u8>) -> f64 {
    match number {
        Some(n @ 2..=12) if n != 7 => f64::from(6 - (7 - i32::from(n)).abs()),
        _ => 0.0,
    }
}

/// Cards still missing from `hand` to pay `cost`.
fn missing(hand: &Resources, cost: &Resources) -> u32 {
    Resource::ALL.iter().map(|&r| cost.get(r).saturating_sub(hand.get(r))).sum()
}

/// Element-wise maximum of two bundles.
fn max_each(a: &Resources, b: &Resources) -> Resources {
    let mut out = Resources::ZERO;
    for r in Resource::ALL {
        out.set(r, a.get(r).max(b.get(r)));
    }
    out
}

/// The single resource type of a one-type bundle (bank trades, monopoly picks).
fn only_type(bundle: &Resources) -> Option<Resource> {
    let mut types = bundle.types();
    let first = types.next()?;
    types.next().is_none().then_some(first)
}

/// What one more road means for Longest Road.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RoadStake {
    None,
    /// Brings the bot within a road of the card, or keeps it ahead of a challenger.
    Contends,
    /// Wins the card.
    Takes,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GoalKind {
    Settlement,
    City,
    Road,
    DevCard,
}

/// Something the bot saves for, in priority order.
#[derive(Debug, Clone, Copy)]
struct Goal {
    kind: GoalKind,
    cost: Resources,
}

/// Everything one decision needs, computed once from what the seat may see.
struct Ctx<'a> {
    game: &'a Game,
    board: &'a Board,
    me: Seat,
    players: usize,
    hand: Resources,
    buildings: Vec<Option<Building>>,
    roads: Vec<Option<Seat>>,
    robber: Option<u8>,
    /// Per seat: pips produced per resource (robber ignored); public from the board.
    production: Vec<[f64; 5]>,
    /// What a pip of each resource is worth to the bot.
    weight: [f64; 5],
    /// Own bank rate per resource.
    rates: [u32; 5],
    /// Points as others see them; the bot's own entry counts its hidden VP cards too.
    points: Vec<u32>,
    hand_sizes: Vec<u32>,
    knights: Vec<u32>,
    vp_target: u32,
    settlements_left: u32,
    cities_left: u32,
    roads_left: u32,
    has_generic_harbour: bool,
    /// Per edge: the best free settlement site that a road there leads to (its score).
    road_lead: Vec<f64>,
    /// A settlement could be built now (a free site touches the bot's road).
    site_now: bool,
    goals: Vec<Goal>,
    road_lengths: std::cell::OnceCell<Vec<u32>>,
}

impl<'a> Ctx<'a> {
    fn new(game: &'a Game, me: Seat) -> Option<Ctx<'a>> {
        let board = game.board();
        let player = game.player(me)?;
        let players = usize::from(game.player_count());
        let buildings: Vec<Option<Building>> = board.vertices.iter().map(|&id| game.building_at(id)).collect();
        let roads: Vec<Option<Seat>> = board.edges.iter().map(|&id| game.road_at(id)).collect();
        let robber = game.robber_hex().and_then(|hex| board.hex(hex));

        let mut production = vec![[0.0; 5]; players];
        for (v, building) in buildings.iter().enumerate() {
            let Some(b) = building else { continue };
            let Some(seat_prod) = production.get_mut(b.seat.index()) else {
                continue;
            };
            let mult = if b.kind == BuildingKind::City { 2.0 } else { 1.0 };
            for h in board.land_hexes_of(v as u16) {
                if let Some(r) = board.terrain[h as usize].resource() {
                    seat_prod[r.index()] += mult * pips(board.numbers[h as usize]);
                }
            }
        }

        // Scarce resources on this board are worth more; so are the ones the bot lacks.
        let mut board_pips = [0.0; 5];
        for (h, terrain) in board.terrain.iter().enumerate() {
            if let Some(r) = terrain.resource() {
                board_pips[r.index()] += pips(board.numbers[h]);
            }
        }
        let mean = board_pips.iter().sum::<f64>() / 5.0;
        let own = production.get(me.index()).copied().unwrap_or([0.0; 5]);
        let mut weight = [1.0; 5];
        for r in Resource::ALL {
            let scarcity = (mean / board_pips[r.index()].max(1.0)).clamp(0.75, 1.5);
            let lack = if own[r.index()] < 0.5 { 1.25 } else { 1.0 };
            weight[r.index()] = scarcity * lack * BASE_WEIGHT[r.index()];
        }

        let mut rates = [4u32; 5];
        let mut has_generic_harbour = false;
        for (v, building) in buildings.iter().enumerate() {
            if !building.is_some_and(|b| b.seat == me) {
                continue;
            }
            match board.vertex_harbour.get(v).copied().flatten() {
                Some(HarbourKind::Generic3) => {
                    has_generic_harbour = true;
                    for rate in &mut rates {
                        *rate = (*rate).min(3);
                    }
                }
                Some(kind) => {
                    if let Some(r) = kind.special_resource() {
                        rates[r.index()] = 2;
                    }
                }
                None => {}
            }
        }

        let seats: Vec<Seat> = game.seats().collect();
        let points = seats
            .iter()
            .map(|&s| if s == me { game.victory_points(s) } else { game.public_victory_points(s) })
            .collect();
        let hand_sizes = seats.iter().map(|&s| game.player(s).map_or(0, |p| p.resources().total())).collect();
        let knights = seats.iter().map(|&s| game.player(s).map_or(0, |p| p.knights_played_count())).collect();

        let mut ctx = Ctx {
            game,
            board,
            me,
            players,
            hand: *player.resources(),
            buildings,
            roads,
            robber,
            production,
            weight,
            rates,
            points,
            hand_sizes,
            knights,
            vp_target: u32::from(game.config().vp_target),
            settlements_left: u32::from(SETTLEMENTS_PER_PLAYER).saturating_sub(player.settlements_on_board()),
            cities_left: u32::from(CITIES_PER_PLAYER).saturating_sub(player.cities_on_board()),
            roads_left: u32::from(ROADS_PER_PLAYER).saturating_sub(player.roads_on_board()),
            has_generic_harbour,
            road_lead: Vec::new(),
            site_now: false,
            goals: Vec::new(),
            road_lengths: std::cell::OnceCell::new(),
        };
        if !matches!(game.phase(), Phase::Setup { .. }) {
            ctx.plan_roads();
            ctx.plan_goals();
        }
        Some(ctx)
    }

    fn own_production(&self) -> [f64; 5] {
        self.production.get(self.me.index()).copied().unwrap_or([0.0; 5])
    }

    /// A vertex where anyone may settle: empty, with empty neighbours (B-BLD-4).
    fn is_free_site(&self, v: u16) -> bool {
        self.buildings.get(v as usize).is_some_and(Option::is_none)
            && self.board.neighbours_of(v).all(|n| self.buildings.get(n as usize).is_some_and(Option::is_none))
    }

    fn touches_own_road(&self, v: u16) -> bool {
        self.board.edges_of(v).any(|e| self.roads.get(e as usize).copied().flatten() == Some(self.me))
    }

    /// What a settlement on `v` would be worth to the bot: weighted expected production,
    /// new resource types, harbour.
    fn site_value(&self, v: u16) -> f64 {
        let own = self.own_production();
        let mut value = 0.0;
        let mut site_prod = [0.0; 5];
        for h in self.board.land_hexes_of(v) {
            let Some(r) = self.board.terrain[h as usize].resource() else {
                continue;
            };
            let p = pips(self.board.numbers[h as usize]);
            site_prod[r.index()] += p;
            let mut hex_value = p * self.weight[r.index()];
            if Some(h) == self.robber {
                hex_value *= 0.6;
            }
            value += hex_value;
        }
        let new_types = Resource::ALL.iter().filter(|r| site_prod[r.index()] > 0.0 && own[r.index()] < 0.5).count();
        value += 2.0 * new_types as f64;
        match self.board.vertex_harbour.get(v as usize).copied().flatten() {
            Some(HarbourKind::Generic3) if !self.has_generic_harbour => value += 1.5,
            Some(HarbourKind::Generic3) => {}
            Some(kind) => {
                if let Some(r) = kind.special_resource() {
                    let supply = own[r.index()] + site_prod[r.index()];
                    value += if supply >= 5.0 { 3.0 } else { 0.3 * supply };
                }
            }
            None => {}
        }
        value
    }

    /// Breadth-first search from the bot's network over free edges: for each edge the bot
    /// could build on now, the best free site it leads to within [`MAX_ROAD_DEPTH`] roads.
    fn plan_roads(&mut self) {
        let vertex_count = self.board.vertices.len();
        let mut dist = vec![u8::MAX; vertex_count];
        let mut first_edge = vec![NONE; vertex_count];
        let mut queue = std::collections::VecDeque::new();
        for v in 0..vertex_count as u16 {
            let here = self.buildings[v as usize];
            let own_building = here.is_some_and(|b| b.seat == self.me);
            let blocked = here.is_some_and(|b| b.seat != self.me);
            if own_building || (!blocked && self.touches_own_road(v)) {
                dist[v as usize] = 0;
                queue.push_back(v);
            }
        }
        self.site_now = self.settlements_left > 0
            && (0..vertex_count as u16)
                .any(|v| dist[v as usize] == 0 && self.is_free_site(v) && self.touches_own_road(v));
        while let Some(u) = queue.pop_front() {
            let d = dist[u as usize];
            if d >= MAX_ROAD_DEPTH {
                continue;
            }
            // Roads cannot continue through an opponent's building (B-BLD-3).
            if d > 0 && self.buildings[u as usize].is_some() {
                continue;
            }
            for e in self.board.edges_of(u) {
                if !self.board.edge_is_land[e as usize] || self.roads[e as usize].is_some() {
                    continue;
                }
                let x = self.board.other_end(e, u);
                if dist[x as usize] != u8::MAX {
                    continue;
                }
                dist[x as usize] = d + 1;
                first_edge[x as usize] = if d == 0 { e } else { first_edge[u as usize] };
                queue.push_back(x);
            }
        }
        self.road_lead = vec![f64::NEG_INFINITY; self.board.edges.len()];
        if self.settlements_left == 0 || self.roads_left == 0 {
            return;
        }
        for v in 0..vertex_count as u16 {
            let d = dist[v as usize];
            if d == 0 || d == u8::MAX || !self.is_free_site(v) {
                continue;
            }
            let e = first_edge[v as usize];
            let score = self.site_value(v) - 2.5 * f64::from(d - 1);
            if let Some(lead) = self.road_lead.get_mut(e as usize) {
                *lead = lead.max(score);
            }
        }
    }

    fn has_road_plan(&self) -> bool {
        self.road_lead.iter().any(|s| s.is_finite())
    }

    /// What to save for, most wanted first.
    fn plan_goals(&mut self) {
        let mut goals = Vec::new();
        let own_settlements =
            self.buildings.iter().flatten().filter(|b| b.seat == self.me && b.kind == BuildingKind::Settlement).count();
        if self.site_now {
            goals.push(Goal { kind: GoalKind::Settlement, cost: cost::SETTLEMENT });
        }
        if self.cities_left > 0 && own_settlements > 0 {
            goals.push(Goal { kind: GoalKind::City, cost: cost::CITY });
        }
        // Of settlement and city, save first for the one closer to hand.
        if goals.len() == 2 && self.eta(&goals[1].cost) < self.eta(&goals[0].cost) {
            goals.swap(0, 1);
        }
        if !self.site_now && self.has_road_plan() {
            goals.push(Goal { kind: GoalKind::Road, cost: cost::ROAD });
        }
        if self.game.development_deck().total() > 0 {
            goals.push(Goal { kind: GoalKind::DevCard, cost: cost::DEVELOPMENT_CARD });
        }
        self.goals = goals;
    }

    /// Rough turns until the bot holds `cost`: the slowest missing resource at its own
    /// production rate (a card a turn at worst, through trades).
    fn eta(&self, cost: &Resources) -> f64 {
        let own = self.own_production();
        Resource::ALL
            .iter()
            .map(|&r| {
                let short = cost.get(r).saturating_sub(self.hand.get(r));
                let per_turn = (own[r.index()] / 36.0 * self.players as f64).max(0.25);
                f64::from(short) / per_turn
            })
            .sum()
    }

    /// How much an opponent should be held back: more for more points, most for the leader
    /// and for anyone close to winning.
    fn threat(&self, seat: Seat) -> f64 {
        if seat == self.me {
            return 0.0;
        }
        let points = self.points.get(seat.index()).copied().unwrap_or(0);
        let best_other =
            self.points.iter().enumerate().filter(|(i, _)| *i != self.me.index()).map(|(_, p)| *p).max().unwrap_or(0);
        let mut threat = 1.0 + f64::from(points) / 2.0;
        if points == best_other {
            threat += 1.5;
        }
        if points + 2 >= self.vp_target {
            threat += 4.0;
        }
        threat
    }

    fn score(&self, mv: &Move, moves: &[Move]) -> f64 {
        match self.game.phase() {
            Phase::Setup { step, .. } => self.score_setup(mv, *step),
            _ => self.score_play(mv, moves),
        }
    }

    fn score_setup(&self, mv: &Move, step: SetupStep) -> f64 {
        match (mv, step) {
            (Move::BuildSettlement { vertex }, _) => {
                self.board.vertex(*vertex).map_or(tier::UNKNOWN, |v| self.site_value(v))
            }
            (Move::BuildRoad { edge }, SetupStep::PlaceRoad { settlement }) => {
                let (Some(e), Some(s)) = (self.board.edge(*edge), self.board.vertex(settlement)) else {
                    return tier::UNKNOWN;
                };
                // Point the road at the best free site two steps out.
                let x = self.board.other_end(e, s);
                self.board
                    .neighbours_of(x)
                    .filter(|&w| w != s && self.is_free_site(w))
                    .map(|w| self.site_value(w))
                    .fold(0.0, f64::max)
                    + 0.1 * self.board.neighbours_of(x).count() as f64
            }
            _ => tier::UNKNOWN,
        }
    }

    fn score_play(&self, mv: &Move, moves: &[Move]) -> f64 {
        let in_pre_roll = matches!(self.game.phase(), Phase::PreRoll);
        match mv {
            Move::RollDice => tier::ROLL,
            Move::EndTurn => tier::END_TURN,
            Move::BuildCity { vertex } => {
                tier::CITY + self.board.vertex(*vertex).map_or(0.0, |v| self.settlement_production(v))
            }
            Move::BuildSettlement { vertex } => {
                tier::SETTLEMENT + self.board.vertex(*vertex).map_or(0.0, |v| self.site_value(v))
            }
            Move::BuildRoad { edge } => self.score_road(*edge),
            Move::BuyDevelopmentCard => self.score_buy_card(&cost::DEVELOPMENT_CARD),
            // Discoveries buy nothing else (JUN-5): spend as many as the purchase allows.
            Move::BuyDevelopmentCardWithDiscoveries { replaces } => {
                self.score_buy_card(&(cost::DEVELOPMENT_CARD - *replaces)) + 10.0 * f64::from(replaces.total())
            }
            // Gold (RIV-5): take the cards that are worth most to the hand.
            Move::ChooseGoldResources { resources } => self.hand_value(&(self.hand + *resources)),
            Move::TradeWithBank { give, get } => self.score_bank_trade(give, get),
            Move::Discard { resources } => self.score_discard(resources),
            Move::MoveRobber { hex, steal_from } => self.robber_score(*hex, *steal_from),
            Move::PlayKnight { hex, steal_from } => {
                let placement = self.robber_score(*hex, *steal_from) / 100.0;
                if self.knight_is_urgent() {
                    if in_pre_roll {
                        tier::ROLL + 100.0 + placement
                    } else {
                        tier::PLAY_CARD_NOW - 50.0 + placement
                    }
                } else if in_pre_roll || self.holds_useful_progress_card(moves) {
                    tier::POINTLESS + placement
                } else {
                    tier::SPARE_CARD + placement
                }
            }
            Move::PlayYearOfPlenty { resources } => self.score_year_of_plenty(resources),
            Move::PlayMonopoly { resource } => self.score_monopoly(*resource),
            Move::PlayRoadBuilding => {
                if self.roads_left == 0 {
                    tier::POINTLESS
                } else if !self.site_now && self.has_road_plan() {
                    tier::PLAY_CARD_NOW - 100.0
                } else {
                    tier::SPARE_CARD - 2.0
                }
            }
            Move::AcceptTrade { offer_id } => self.score_accept(*offer_id),
            Move::DeclineTrade { .. } => 0.0,
            Move::ConfirmTrade { offer_id, with } => {
                let Some(offer) = self.offer(*offer_id) else {
                    return tier::UNKNOWN;
                };
                let after = self.hand - offer.give + offer.get;
                if self.hand_value(&after) > self.hand_value(&self.hand) && !self.near_win(*with) {
                    tier::CONFIRM_TRADE
                } else {
                    tier::POINTLESS
                }
            }
            Move::WithdrawTrade { .. } => tier::UNKNOWN,
            _ => tier::UNKNOWN,
        }
    }

    /// The production of the bot's settlement on `v` (what a city there doubles).
    fn settlement_production(&self, v: u16) -> f64 {
        self.board
            .land_hexes_of(v)
            .filter(|&h| Some(h) != self.robber)
            .filter_map(|h| {
                let r = self.board.terrain[h as usize].resource()?;
                Some(pips(self.board.numbers[h as usize]) * self.weight[r.index()])
            })
            .sum()
    }

    fn score_road(&self, edge: crate::board::EdgeId) -> f64 {
        let Some(e) = self.board.edge(edge) else {
            return tier::UNKNOWN;
        };
        let free = matches!(self.game.phase(), Phase::RoadBuilding { .. });
        let lead = self.road_lead.get(e as usize).copied().unwrap_or(f64::NEG_INFINITY);
        // Extending outward (the far end has none of the bot's roads) helps Longest Road.
        let [a, b] = self.board.edge_vertices[e as usize];
        let outward = !(self.touches_own_road(a) && self.touches_own_road(b));
        let extension = if outward { 1.0 } else { 0.0 };
        match self.longest_road_stake(e) {
            RoadStake::Takes => return tier::CITY + 20.0 + extension,
            RoadStake::Contends if lead.is_finite() => {}
            RoadStake::Contends => return tier::DEV_CARD + 20.0 + extension,
            RoadStake::None => {}
        }
        if lead.is_finite() {
            // With a site already in reach, a paid road may not eat the settlement's cards.
            let spare = self.hand.lumber >= 2 && self.hand.brick >= 2;
            if free || !self.site_now || spare {
                return tier::ROAD_TO_SITE + lead + extension;
            }
        }
        if free {
            return extension;
        }
        if self.hand.total() > SHED_ABOVE && self.settlements_left + self.roads_left > 0 {
            return tier::SPARE_CARD + 5.0 + extension;
        }
        tier::POINTLESS
    }

    /// Longest Road (B-LR): the bot's longest trail, with `extra` counted as its own road.
    /// Trails may end at, not pass through, an opponent's building.
    fn trail_length(&self, seat: Seat, extra: Option<u16>) -> u32 {
        let owns = |e: u16| extra == Some(e) || self.roads.get(e as usize).copied().flatten() == Some(seat);
        let mut used = vec![false; self.board.edges.len()];
        let mut best = 0;
        for e in 0..self.board.edges.len() as u16 {
            if !owns(e) {
                continue;
            }
            for start in self.board.edge_vertices[e as usize] {
                used[e as usize] = true;
                let end = self.board.other_end(e, start);
                best = best.max(1 + self.walk(seat, extra, end, &mut used));
                used[e as usize] = false;
            }
        }
        best
    }

    fn walk(&self, seat: Seat, extra: Option<u16>, v: u16, used: &mut [bool]) -> u32 {
        if self.buildings.get(v as usize).copied().flatten().is_some_and(|b| b.seat != seat) {
            return 0;
        }
        let mut best = 0;
        for e in self.board.edges_of(v) {
            let own = extra == Some(e) || self.roads.get(e as usize).copied().flatten() == Some(seat);
            if !own || used[e as usize] {
                continue;
            }
            used[e as usize] = true;
            best = best.max(1 + self.walk(seat, extra, self.board.other_end(e, v), used));
            used[e as usize] = false;
        }
        best
    }

    /// Road lengths of every seat, computed on first use (public: the roads are on the board).
    fn road_lengths(&self) -> &[u32] {
        self.road_lengths.get_or_init(|| (0..self.players as u8).map(|s| self.trail_length(Seat(s), None)).collect())
    }

    /// What a road on `e` does for Longest Road.
    fn longest_road_stake(&self, e: u16) -> RoadStake {
        let lengths = self.road_lengths();
        let mine = lengths.get(self.me.index()).copied().unwrap_or(0);
        let longer = self.trail_length(self.me, Some(e));
        if longer <= mine {
            return RoadStake::None;
        }
        let best_other =
            lengths.iter().enumerate().filter(|(i, _)| *i != self.me.index()).map(|(_, l)| *l).max().unwrap_or(0);
        match self.game.longest_road_holder() {
            Some(holder) if holder == self.me => {
                if best_other + 1 >= mine {
                    RoadStake::Contends
                } else {
                    RoadStake::None
                }
            }
            holder => {
                let to_beat = holder.and_then(|h| lengths.get(h.index()).copied()).unwrap_or(0).max(4);
                if longer > to_beat {
                    RoadStake::Takes
                } else if longer + 1 > to_beat {
                    RoadStake::Contends
                } else {
                    RoadStake::None
                }
            }
        }
    }

    fn score_buy_card(&self, price: &Resources) -> f64 {
        let after = self.hand - *price;
        let hurts = self.goals.iter().any(|g| {
            matches!(g.kind, GoalKind::City | GoalKind::Settlement)
                && missing(&after, &g.cost) > missing(&self.hand, &g.cost)
        });
        // Cards are points, knights and progress: worth buying whenever affordable, though
        // after the builds (and trades for builds) that the cards would delay.
        if hurts {
            tier::DEV_CARD - 300.0
        } else {
            tier::DEV_CARD
        }
    }

    /// A bank trade is worth it when it completes (with the trades that follow) the first
    /// goal it can complete, giving only cards that no more wanted goal needs.
    fn score_bank_trade(&self, give: &Resources, get: &Resources) -> f64 {
        let (Some(out), Some(into)) = (only_type(give), only_type(get)) else {
            return tier::POINTLESS;
        };
        let bank = self.game.bank();
        let mut reserved = Resources::ZERO;
        for (rank, goal) in self.goals.iter().enumerate() {
            let need = missing(&self.hand, &goal.cost);
            if need == 0 {
                // Affordable already: build it rather than trade.
                return tier::POINTLESS;
            }
            let keep = max_each(&reserved, &goal.cost);
            reserved = keep;
            let mut achievable = 0;
            for r in Resource::ALL {
                let surplus = self.hand.get(r).saturating_sub(keep.get(r));
                achievable += surplus / self.rates[r.index()].max(1);
            }
            let wanted = Resource::ALL
                .iter()
                .filter(|&&r| goal.cost.get(r) > self.hand.get(r))
                .all(|&r| bank.get(r) >= goal.cost.get(r) - self.hand.get(r));
            if achievable < need || !wanted {
                continue;
            }
            let gives_surplus = self.hand.get(out) >= give.get(out) + keep.get(out);
            let gets_needed = goal.cost.get(into) > self.hand.get(into);
            if gives_surplus && gets_needed {
                let surplus = self.hand.get(out).saturating_sub(keep.get(out));
                return tier::TRADE_FOR_BUILD - 10.0 * rank as f64 + 0.1 * f64::from(surplus);
            }
            return tier::POINTLESS;
        }
        // Nothing to complete: shed cards before a 7 can halve the hand, trading the most
        // plentiful card for one a goal lacks.
        if self.hand.total() > SHED_ABOVE {
            let wanted = self.goals.iter().position(|g| g.cost.get(into) > self.hand.get(into));
            let most = Resource::ALL.iter().map(|&r| self.hand.get(r)).max().unwrap_or(0);
            if let Some(rank) = wanted {
                if self.hand.get(out) == most && self.hand.get(out) > reserved.get(out) {
                    return tier::END_TURN + 3.0 - rank as f64 * 0.1;
                }
            }
        }
        tier::POINTLESS
    }

    /// How much the bot wants to keep the `k`-th card (1-based) of resource `r`.
    fn keep_value(&self, r: Resource, k: u32) -> f64 {
        let first = self.goals.first().map_or(0, |g| g.cost.get(r));
        let other = self.goals.iter().skip(1).map(|g| g.cost.get(r)).max().unwrap_or(0);
        let base = if k <= first {
            10.0
        } else if k <= other {
            5.0
        } else if k <= self.rates[r.index()] && self.rates[r.index()] == 2 {
            2.0
        } else {
            1.0
        };
        // Cards the bot rarely produces are harder to replace.
        let own = self.own_production()[r.index()];
        base + if own < 0.5 { 0.5 } else { 0.0 } - 0.01 * f64::from(k)
    }

    fn score_discard(&self, discard: &Resources) -> f64 {
        let mut lost = 0.0;
        for r in Resource::ALL {
            let held = self.hand.get(r);
            let gone = discard.get(r).min(held);
            for k in (held - gone + 1)..=held {
                lost += self.keep_value(r, k);
            }
        }
        -lost
    }

    /// Value of putting the robber on `hex` and stealing from `victim`.
    fn robber_score(&self, hex: crate::board::HexCoord, victim: Option<Seat>) -> f64 {
        let Some(h) = self.board.hex(hex) else {
            return 0.0;
        };
        let p = pips(self.board.numbers.get(h as usize).copied().flatten());
        let mut score = 0.0;
        for &v in self.board.hex_vertices.get(h as usize).into_iter().flatten() {
            let Some(Some(b)) = self.buildings.get(v as usize) else {
                continue;
            };
            let mult = if b.kind == BuildingKind::City { 2.0 } else { 1.0 };
            if b.seat == self.me {
                // Never on the bot's own hex while another will do.
                score -= 100.0 + 3.0 * p * mult;
            } else {
                score += p * mult * self.threat(b.seat);
            }
        }
        if let Some(victim) = victim {
            let cards = self.hand_sizes.get(victim.index()).copied().unwrap_or(0);
            score += 1.0 + 0.5 * self.threat(victim) + 0.2 * f64::from(cards.min(10));
        }
        score
    }

    /// Pips of the bot's own production that the robber blocks now.
    fn blocked_pips(&self) -> f64 {
        let Some(h) = self.robber else { return 0.0 };
        let p = pips(self.board.numbers.get(h as usize).copied().flatten());
        self.board
            .hex_vertices
            .get(h as usize)
            .into_iter()
            .flatten()
            .filter_map(|&v| self.buildings.get(v as usize).copied().flatten())
            .filter(|b| b.seat == self.me)
            .map(|b| if b.kind == BuildingKind::City { 2.0 * p } else { p })
            .sum()
    }

    /// A knight now frees the bot's production, or wins or defends Largest Army.
    fn knight_is_urgent(&self) -> bool {
        if self.blocked_pips() >= 2.0 {
            return true;
        }
        let mine = self.knights.get(self.me.index()).copied().unwrap_or(0);
        let holder = self.game.largest_army_holder();
        let best_other =
            self.knights.iter().enumerate().filter(|(i, _)| *i != self.me.index()).map(|(_, k)| *k).max().unwrap_or(0);
        if holder == Some(self.me) {
            best_other + 1 >= mine
        } else {
            let holder_knights = holder.and_then(|s| self.knights.get(s.index()).copied()).unwrap_or(2);
            mine + 1 > holder_knights
        }
    }

    /// Whether a progress card the bot could play now would be worth more than a knight.
    fn holds_useful_progress_card(&self, moves: &[Move]) -> bool {
        moves.iter().any(|m| match m {
            Move::PlayYearOfPlenty { resources } => self.score_year_of_plenty(resources) > tier::SPARE_CARD,
            Move::PlayMonopoly { resource } => self.score_monopoly(*resource) > tier::SPARE_CARD,
            Move::PlayRoadBuilding => !self.site_now && self.has_road_plan(),
            _ => false,
        })
    }

    fn score_year_of_plenty(&self, take: &Resources) -> f64 {
        let after = self.hand + *take;
        for (rank, goal) in self.goals.iter().enumerate() {
            let before = missing(&self.hand, &goal.cost);
            if before > 0 && missing(&after, &goal.cost) == 0 {
                return tier::PLAY_CARD_NOW - 10.0 * rank as f64;
            }
        }
        // Otherwise hold the card, unless it is late and the card would only rot.
        let progress =
            self.goals.first().map_or(0, |g| missing(&self.hand, &g.cost).saturating_sub(missing(&after, &g.cost)));
        tier::END_TURN - 5.0 + f64::from(progress)
    }

    /// Expected cards of `r` held by the others, from their hand sizes and what they produce.
    fn expected_cards(&self, r: Resource) -> f64 {
        self.production
            .iter()
            .zip(&self.hand_sizes)
            .enumerate()
            .filter(|(i, _)| *i != self.me.index())
            .map(|(_, (prod, &cards))| {
                let share = (prod[r.index()] + 0.5) / (prod.iter().sum::<f64>() + 2.5);
                f64::from(cards) * share
            })
            .sum()
    }

    fn score_monopoly(&self, r: Resource) -> f64 {
        let expected = self.expected_cards(r);
        let needed = self.goals.first().is_some_and(|g| g.cost.get(r) > self.hand.get(r));
        let use_factor = if needed {
            1.5
        } else if self.rates[r.index()] == 2 {
            1.2
        } else {
            0.6
        };
        let value = expected * use_factor;
        if value >= 3.0 {
            tier::PLAY_CARD_NOW - 60.0 + value
        } else {
            tier::END_TURN - 5.0 + value
        }
    }

    fn offer(&self, offer_id: u32) -> Option<&crate::state::TradeOffer> {
        self.game.open_offers().iter().find(|o| o.id == offer_id)
    }

    fn near_win(&self, seat: Seat) -> bool {
        self.points.get(seat.index()).copied().unwrap_or(0) + 2 >= self.vp_target
    }

    /// Progress of a hand toward the goals, with a little credit for sheer cards.
    fn hand_value(&self, hand: &Resources) -> f64 {
        let mut value = 0.0;
        for (rank, goal) in self.goals.iter().enumerate() {
            let covered: u32 = Resource::ALL.iter().map(|&r| hand.get(r).min(goal.cost.get(r))).sum();
            let total = goal.cost.total().max(1);
            let weight = 1.0 / (1.0 + rank as f64);
            value += weight * f64::from(covered) / f64::from(total);
            if covered == total {
                value += weight;
            }
        }
        // Cards above seven are a liability on a 7.
        let size = hand.total();
        value + 0.02 * f64::from(size.min(7)) - 0.05 * f64::from(size.saturating_sub(7))
    }

    /// Accept an offer made to the bot when it helps and does not feed a player near victory.
    fn score_accept(&self, offer_id: u32) -> f64 {
        let Some(offer) = self.offer(offer_id) else {
            return tier::POINTLESS;
        };
        if self.near_win(offer.from) {
            return tier::POINTLESS;
        }
        // The bot receives what the offerer gives and pays what the offerer wants.
        let after = self.hand - offer.get + offer.give;
        let gain = self.hand_value(&after) - self.hand_value(&self.hand);
        if gain > 0.05 && offer.give.total() >= offer.get.total() {
            tier::ACCEPT_TRADE + gain
        } else {
            tier::POINTLESS
        }
    }
}
