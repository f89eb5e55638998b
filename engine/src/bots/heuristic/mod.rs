//! A rule-of-thumb bot that plays to win: no search, a fixed amount of work per decision.
//!
//! Every legal move gets a score; the best one is played (ties broken by the bot's seeded
//! RNG, so a bot is deterministic given its seed). Scores fall in tiers, so that "what kind
//! of move" is decided first and "which one" second:
//!
//! * **Placement** (setup and later settlements): expected production, i.e. the pips of the
//!   adjacent number tokens (B-GEO-15), weighted by how scarce the resource is on the board
//!   and in the bot's own production, plus harbour value.
//! * **Building toward points**: city > settlement > road (or ship) toward the best free site
//!   within three roads or six ships > development card. Bank trades are made only when they
//!   complete the build the bot is saving for (or to shed cards above seven at the end of a
//!   turn).
//! * **Seafarers**: routes are planned over land and sea at once (a ship continues only a
//!   ship, a road only a road, except at the bot's own buildings), so the shorter of the two
//!   wins; a site on an island where the bot has no building yet counts its island bonus, a
//!   gold hex a card of choice, a vertex by the fog the card its reveal brings. An idle ship
//!   (at the open end of no better route) moves to where the best route starts; a coastal
//!   setup settlement takes a ship when the sea leads somewhere better than the land.
//! * **Robber and pirate**: the robber on the hex that costs the opponents the most,
//!   weighted toward the leader (most public points), never on the bot's own hexes when it
//!   can avoid them; the pirate where the same theft costs the bot least and holds up the
//!   leader's ships. It steals from the leader among the eligible victims.
//! * **Wonders of Catan**: claim a wonder the moment a condition holds (the one whose stage
//!   cost the bot's production pays soonest), then build its stages before anything else and
//!   spend no card the next stage needs on other builds (unless leading in stages within two
//!   points of the target). Without a wonder, steer toward a free one's condition: cities
//!   first, settlements on the strait or wasteland, a city on a harbour. No Longest Road
//!   card is chased where the scenario has none.
//! * **Cities & Knights**: the setup city on the best site counting the commodities its
//!   forest, pasture and mountains bring; city improvements whenever affordable (commodities
//!   buy nothing else; level 3 of trade first for its 2:1 commodity trade); knights recruited,
//!   promoted and activated up to the strength that keeps the bot's cities safe from the
//!   barbarians (stronger than another seat with a city, or enough for the defence to win),
//!   and up to the Defender of Catan point when that costs at most two more; with no city or
//!   settlement left to save for, more strength (the Defender point is the way to 13). Knights
//!   stay put (moving or chasing deactivates them). A city wall when the hand tends to exceed
//!   the limit; commodity trades only from commodities no improvement soon needs, toward a
//!   goal; discards keep what the goals and the next improvements need; the city lost to the
//!   barbarians is the one that produces least; a Defender draws from science, then politics.
//!   Progress cards are played when they gain something now (the Alchemist's dice that
//!   produce most for the bot, never a 7 but to rob big hands; a Crane before an affordable
//!   improvement; Irrigation and Mining on the bot's fields and mountains; Medicine as a
//!   cheap city; a Merchant for its point; monopolies, Wedding, Master Merchant and Saboteur
//!   against the leaders; Smith and Warlord for the knights; ...), else kept; over the hand
//!   limit a card is played rather than discarded, and the least useful one goes.
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
//!
//! The code is split by concern; each file adds the methods of its concern to [`Ctx`], the
//! facts of one decision:
//!
//! * `context`: [`Ctx`], what the seat may see, gathered once per decision;
//! * `estimate`: pips, production, what a resource and a hand are worth;
//! * `placement`: settlement sites, in setup and later;
//! * `roads`: routes of roads and ships toward free sites (and fog), and Longest Road;
//! * `ships`: building and moving ships, the setup ship;
//! * `building`: what to save for, cities and buying development cards;
//! * `cards`: playing the progress cards (year of plenty, monopoly, road building);
//! * `robber`: robber, pirate and knight targets, and discards on a 7;
//! * `trading`: bank rates and trades, and answers to domestic trade offers;
//! * `wonders`: claiming a wonder, its stages, and steering toward a wonder's condition;
//! * `pirates`: The Pirate Islands: ships along the lane to the fortress, warships, attacks
//!   and the steal after a 7;
//! * `cities_knights`: commodities, improvements, knights, walls, commodity trades and the
//!   decisions of Cities & Knights;
//! * `progress`: Cities & Knights progress cards: when and how to play each, which to
//!   discard over the hand limit, and the answers to the decisions cards ask for.
//!
//! This file holds the bot, the score tiers and the dispatch of a move to its concern.

mod building;
mod cards;
mod cities_knights;
mod context;
mod estimate;
mod pirates;
mod placement;
mod progress;
mod roads;
mod robber;
mod ships;
mod trading;
mod wonders;

use crate::{rng::Rng, Game, Move, Seat};

use super::Bot;
use context::Ctx;
// Imported once here for the submodules (`use super::...`).
use crate::{cost, Building, BuildingKind, SetupStep, TradeOffer};

/// Scores closer than this are ties.
const EPSILON: f64 = 1e-9;
/// Hands bigger than this at the end of a turn risk a 7: the bot spends or trades down.
const SHED_ABOVE: u32 = 5;

/// Score tiers: a move's kind puts it in a tier; its own merit orders it within the tier.
mod tier {
    /// Claiming a wonder is free (but for a ship) and opens the scenario's goal.
    pub const CLAIM_WONDER: f64 = 1500.0;
    pub const PLAY_CARD_NOW: f64 = 1200.0;
    /// A wonder stage: four win outright, and points win only with the stage lead.
    pub const WONDER_STAGE: f64 = 1100.0;
    pub const CITY: f64 = 1000.0;
    pub const SETTLEMENT: f64 = 900.0;
    /// Moving a ship is free: done before the trades and builds that extend its route.
    pub const MOVE_SHIP: f64 = 860.0;
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

impl Ctx<'_> {
    /// The score of `mv`, one of the legal `moves`: setup placements and moves of play are
    /// scored by the concern they belong to.
    fn score(&self, mv: &Move, moves: &[Move]) -> f64 {
        match self.setup {
            Some(step) => self.score_setup(mv, step),
            None => self.score_play(mv, moves),
        }
    }

    fn score_play(&self, mv: &Move, moves: &[Move]) -> f64 {
        match mv {
            Move::RollDice => tier::ROLL,
            Move::EndTurn => tier::END_TURN,
            // Wonders of Catan: nothing that sets the next stage back (see `wonders`).
            _ if self.delays_stage(mv) => tier::POINTLESS,
            Move::BuildCity { vertex } => self.score_city(*vertex),
            Move::BuildSettlement { vertex } => self.score_settlement(*vertex),
            Move::BuildRoad { edge } => self.score_road(*edge),
            Move::BuildShip { edge } => self.score_lane_ship(*edge).unwrap_or_else(|| self.score_ship(*edge)),
            Move::MoveShip { from, to } => {
                self.score_lane_move(*from, *to).unwrap_or_else(|| self.score_move_ship(*from, *to))
            }
            Move::PlaceHarbour { edge } => self.score_harbour_site(*edge),
            Move::BuyDevelopmentCard => self.score_buy_card(&cost::DEVELOPMENT_CARD),
            // Discoveries buy nothing else (JUN-5): spend as many as the purchase allows.
            Move::BuyDevelopmentCardWithDiscoveries { replaces } => {
                self.score_buy_card(&(cost::DEVELOPMENT_CARD - *replaces)) + 10.0 * f64::from(replaces.total())
            }
            // Gold (RIV-5): take the cards that are worth most to the hand.
            Move::ChooseGoldResources { resources } => self.hand_value(&(self.hand + *resources)),
            Move::ClaimWonder { wonder } => self.score_claim(*wonder),
            Move::BuildWonderStage => self.score_stage(),
            Move::TradeWithBank { give, get } => self.score_bank_trade(give, get),
            Move::Discard { resources } => self.score_discard(resources),
            Move::MoveRobber { hex, steal_from } => self.robber_score(*hex, *steal_from),
            Move::MovePirate { hex, steal_from } => self.pirate_score(*hex, *steal_from),
            Move::PlayKnight { hex, steal_from, bandit } => self.score_knight(*hex, *steal_from, *bandit, moves),
            Move::PlayYearOfPlenty { resources } => self.score_year_of_plenty(resources),
            Move::PlayMonopoly { resource } => self.score_monopoly(*resource),
            Move::PlayRoadBuilding => self.score_road_building(),
            // The Pirate Islands (see `pirates`).
            Move::PlayWarship { .. } => tier::PLAY_CARD_NOW,
            Move::AttackFortress => self.score_attack(),
            Move::ChooseStealVictim { steal_from } => self.score_steal_any(*steal_from),
            Move::AcceptTrade { offer_id } => self.score_accept(*offer_id),
            Move::DeclineTrade { .. } => 0.0,
            Move::ConfirmTrade { offer_id, with } => self.score_confirm(*offer_id, *with),
            Move::WithdrawTrade { .. } => tier::UNKNOWN,
            // Cities & Knights (see `cities_knights`).
            Move::DiscardCards { cards } => self.score_discard_cards(cards),
            Move::TradeCardsWithBank { give, get } => self.score_card_trade(give, get),
            Move::BuildImprovement { track, city } => self.score_improvement(*track, *city),
            Move::RecruitKnight { .. } => self.score_knight_strength(false),
            Move::PromoteKnight { .. } => self.score_knight_strength(true),
            Move::ActivateKnight { .. } => self.score_activate(),
            Move::BuildCityWall { vertex } => self.score_wall(*vertex),
            // Moving or chasing deactivates a knight the barbarians need.
            Move::MoveKnight { .. } | Move::ChaseRobber { .. } => tier::POINTLESS,
            Move::ChooseCityToLose { vertex } => self.score_city_to_lose(*vertex),
            Move::ChooseProgressDeck { track } => self.score_progress_deck(*track),
            // Cities & Knights progress cards (see `progress`).
            Move::PlayProgressCard { play } => self.score_progress_play(play),
            Move::DiscardProgressCard { card } => self.score_progress_discard(*card),
            Move::OfferTrade { .. } | Move::DisplaceKnight { .. } | Move::RelocateKnight { .. } => tier::UNKNOWN,
            // Moves added since (the answers and follow-ups of progress cards): judged from
            // their fields. Unreachable while every move above is named.
            #[allow(unreachable_patterns)]
            _ if self.ck.is_some() => self.score_card_follow_up(mv),
            #[allow(unreachable_patterns)]
            _ => tier::UNKNOWN,
        }
    }
}
