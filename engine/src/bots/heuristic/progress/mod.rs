//! Cities & Knights progress cards (CK-PC-2..7): when a card is worth playing, with which
//! parameters, which card to discard over the hand limit (CK-PC-5), and the answers to the
//! decisions cards ask for.
//!
//! A play is scored in one of three bands: worth it now (`PLAY_CARD_NOW` less a margin per
//! card, so that cards that bring cards come before the builds they pay for), kept (just
//! below ending the turn: held for a better moment, but still better than a discard when
//! the hand is over the limit), or harmful (`POINTLESS`). A discard is always below a play
//! that is not harmful: playing a card is never worse than throwing it away.

use serde_json::Value;

use crate::{
    board::Terrain,
    ext::cities_knights::{Good, ProgressCard, ProgressPlay, Track},
    model::{Cards, Commodities, Commodity},
    EdgeId, HexCoord, Move, Phase, Resource, Resources, Seat, VertexId,
};

use super::{
    cities_knights::{commodity_of, track_of, NEAR},
    estimate::{missing, pips},
    tier, BuildingKind, Ctx,
};

/// A play kept for later: just below ending the turn.
const KEPT: f64 = tier::END_TURN - 5.0;
/// A discard: below every play that is not harmful.
const DISCARD: f64 = tier::END_TURN - 8.0;

impl Ctx<'_> {
    /// `play_progress_card`: the card's gain now, in its band.
    pub(super) fn score_progress_play(&self, play: &ProgressPlay) -> f64 {
        if self.ck.is_none() {
            return tier::UNKNOWN;
        }
        match play {
            ProgressPlay::Alchemist { red, white } => self.score_alchemist(*red, *white),
            ProgressPlay::Crane => self.score_crane(),
            ProgressPlay::Engineer { vertex } => self.score_engineer(*vertex),
            ProgressPlay::Inventor { hexes } => self.score_inventor(hexes[0], hexes[1]),
            ProgressPlay::Irrigation => self.score_harvest(Terrain::Fields, Resource::Grain),
            ProgressPlay::Mining => self.score_harvest(Terrain::Mountains, Resource::Ore),
            ProgressPlay::Medicine { vertex } => self.score_medicine(*vertex),
            ProgressPlay::RoadBuilding => self.score_road_building(),
            ProgressPlay::Smith { knights } => self.score_smith(knights),
            ProgressPlay::CommercialHarbor => self.score_commercial_harbor(),
            ProgressPlay::MasterMerchant { target } => self.score_master_merchant(*target),
            ProgressPlay::Merchant { hex } => self.score_merchant(*hex),
            ProgressPlay::MerchantFleet { good } => self.score_merchant_fleet(*good),
            ProgressPlay::ResourceMonopoly { resource } => self.score_resource_monopoly(*resource),
            ProgressPlay::TradeMonopoly { commodity } => self.score_trade_monopoly(*commodity),
            ProgressPlay::Bishop { hex } => self.score_bishop(*hex),
            ProgressPlay::Deserter { target } => tier::PLAY_CARD_NOW - 130.0 + self.threat(*target),
            ProgressPlay::Diplomat { edge, to } => self.score_diplomat(*edge, *to),
            ProgressPlay::Intrigue { vertex } => self.score_intrigue(*vertex),
            ProgressPlay::Saboteur => self.score_saboteur(),
            ProgressPlay::Spy { target } => self.score_spy(*target),
            ProgressPlay::Warlord => self.score_warlord(),
            ProgressPlay::Wedding => self.score_wedding(),
        }
    }

    /// `discard_progress_card`: the least useful card goes.
    pub(super) fn score_progress_discard(&self, card: ProgressCard) -> f64 {
        DISCARD - self.progress_keep_value(card)
    }

    /// How much the bot wants to keep `card` (0 to about 5).
    pub(super) fn progress_keep_value(&self, card: ProgressCard) -> f64 {
        let cities = self.own_count(BuildingKind::City);
        let behind = self.others_ahead() > 0;
        match card {
            ProgressCard::Printer | ProgressCard::Constitution => 100.0,
            ProgressCard::Merchant => 3.5,
            ProgressCard::Medicine => {
                if self.own_count(BuildingKind::Settlement) > 0 && self.cities_left > 0 {
                    4.0
                } else {
                    0.5
                }
            }
            ProgressCard::Alchemist | ProgressCard::ResourceMonopoly => 3.0,
            ProgressCard::Wedding | ProgressCard::MasterMerchant | ProgressCard::Saboteur => {
                if behind {
                    3.0
                } else {
                    0.5
                }
            }
            ProgressCard::Irrigation => f64::from(self.touching(Terrain::Fields)).min(3.0),
            ProgressCard::Mining => f64::from(self.touching(Terrain::Mountains)).min(3.0),
            ProgressCard::Crane | ProgressCard::Engineer => {
                if cities > 0 {
                    2.5
                } else {
                    1.0
                }
            }
            ProgressCard::Smith | ProgressCard::Warlord => {
                1.0 + 0.5 * self.game.knights().iter().filter(|k| k.seat == self.me).count().min(3) as f64
            }
            ProgressCard::RoadBuilding | ProgressCard::TradeMonopoly | ProgressCard::Bishop => 2.0,
            ProgressCard::Spy | ProgressCard::Deserter => 1.5,
            ProgressCard::Inventor | ProgressCard::MerchantFleet | ProgressCard::CommercialHarbor => 1.0,
            ProgressCard::Diplomat | ProgressCard::Intrigue => 0.5,
        }
    }

    /// Moves of a card's follow-up or decision that this bot does not know by name (they
    /// come with the cards' effects): judged from their fields, so that the bot answers
    /// sensibly, and never stalls, whatever is asked. Cards given away should be the least
    /// useful, cards taken the most useful, a knight removed the weakest.
    pub(super) fn score_card_follow_up(&self, mv: &Move) -> f64 {
        match serde_json::to_value(mv) {
            Ok(Value::Object(fields)) => self.score_follow_up_fields(&fields),
            _ => tier::UNKNOWN,
        }
    }

    /// [`Ctx::score_card_follow_up`] on the move's JSON fields.
    fn score_follow_up_fields(&self, fields: &serde_json::Map<String, Value>) -> f64 {
        let kind = fields.get("type").and_then(Value::as_str).unwrap_or_default();
        let deciding = matches!(self.game.phase(), Phase::CardDecision { .. });
        let giving = ["give", "discard", "exchange", "offer", "remove"].iter().any(|w| kind.contains(w));
        let taking = kind.contains("take") || kind.contains("choose");
        let mut value = 0.0;
        let mut known = false;
        for (key, field) in fields {
            let sign = if giving { -1.0 } else { 1.0 };
            let cards = serde_json::from_value::<Cards>(field.clone())
                .ok()
                .or_else(|| serde_json::from_value::<Resources>(field.clone()).ok().map(Cards::of_resources))
                .or_else(|| serde_json::from_value::<Commodities>(field.clone()).ok().map(Cards::of_commodities));
            if let Some(cards) = cards.filter(|c| !c.is_empty()) {
                known = true;
                value += sign * self.cards_worth(&cards, giving);
            } else if let Ok(resource) = serde_json::from_value::<Resource>(field.clone()) {
                known = true;
                value += sign * self.cards_worth(&Cards::of_resources(Resources::of(resource, 1)), giving);
            } else if let Ok(commodity) = serde_json::from_value::<Commodity>(field.clone()) {
                known = true;
                value += sign * self.cards_worth(&Cards::of_commodities(Commodities::of(commodity, 1)), giving);
            } else if let Ok(card) = serde_json::from_value::<ProgressCard>(field.clone()) {
                known = true;
                value += sign * self.progress_keep_value(card);
            } else if let Ok(vertex) = serde_json::from_value::<VertexId>(field.clone()) {
                if let Some(knight) = self.game.knight_at(vertex).filter(|k| k.seat == self.me) {
                    known = true;
                    value -= f64::from(knight.rank) + if knight.active { 0.5 } else { 0.0 };
                }
            } else if matches!(key.as_str(), "seat" | "target" | "with" | "to" | "from") {
                if let Ok(seat) = serde_json::from_value::<Seat>(field.clone()) {
                    if seat != self.me && seat.index() < self.players {
                        known = true;
                        value += 0.1 * self.threat(seat);
                    }
                }
            }
        }
        if !known {
            return tier::UNKNOWN;
        }
        let value = value.clamp(-4.0, 4.0);
        if deciding || taking {
            // Among the answers to a decision, the best for the bot.
            tier::END_TURN + 5.0 + value
        } else {
            // A follow-up in the main phase (an exchange a card opened): before ending the turn.
            tier::END_TURN + 2.0 + 0.25 * value
        }
    }

    /// What cards are worth to the bot, about 1 per card it wants: to gain, or (`giving`)
    /// to lose from its hand.
    fn cards_worth(&self, cards: &Cards, giving: bool) -> f64 {
        let Some(ck) = &self.ck else { return 0.0 };
        let now = self.cards_value(&self.hand, &ck.commodities);
        let change = if giving {
            now - self.cards_value(&(self.hand - cards.resources), &(ck.commodities - cards.commodities))
        } else {
            self.cards_value(&(self.hand + cards.resources), &(ck.commodities + cards.commodities)) - now
        };
        0.5 * f64::from(cards.total()) + 2.0 * change
    }

    /// The bot's buildings of `kind`.
    fn own_count(&self, kind: BuildingKind) -> u32 {
        self.buildings.iter().flatten().filter(|b| b.seat == self.me && b.kind == kind).count() as u32
    }

    /// Opponents with more points than the bot.
    fn others_ahead(&self) -> u32 {
        let mine = self.points.get(self.me.index()).copied().unwrap_or(0);
        self.seats_other().filter(|s| self.points.get(s.index()).copied().unwrap_or(0) > mine).count() as u32
    }

    fn seats_other(&self) -> impl Iterator<Item = Seat> + '_ {
        self.game.seats().filter(move |&s| s != self.me)
    }

    /// Cards (resources and commodities) `seat` holds: a public count.
    fn cards_held(&self, seat: Seat) -> u32 {
        self.game.hand_cards(seat).total()
    }

    /// Hexes of `terrain` touching one of the bot's buildings, each once.
    fn touching(&self, terrain: Terrain) -> u32 {
        (0..self.board.hexes.len() as u8)
            .filter(|&h| self.board.terrain[h as usize] == terrain)
            .filter(|&h| {
                self.board.hex_vertices[h as usize]
                    .iter()
                    .any(|&v| self.buildings.get(v as usize).copied().flatten().is_some_and(|b| b.seat == self.me))
            })
            .count() as u32
    }

    /// What a roll of `sum` gives `seat`: weighted cards, a city's commodity included.
    fn roll_gain(&self, seat: Seat, sum: u8) -> f64 {
        let mut gain = 0.0;
        for (v, b) in self.buildings.iter().enumerate() {
            let Some(b) = b.filter(|b| b.seat == seat) else { continue };
            for h in self.board.land_hexes_of(v as u16) {
                if Some(h) == self.robber || self.board.numbers[h as usize] != Some(sum) {
                    continue;
                }
                let terrain = self.board.terrain[h as usize];
                let Some(r) = terrain.resource() else { continue };
                let weight = if seat == self.me { self.weight[r.index()] } else { 1.0 };
                gain += match (b.kind, commodity_of(terrain)) {
                    (BuildingKind::City, Some(_)) => weight + 0.8,
                    (BuildingKind::City, None) => 2.0 * weight,
                    _ => weight,
                };
            }
        }
        gain
    }

    /// Alchemist (CK-PC-7): the dice whose sum produces most for the bot, when that beats
    /// what a roll brings on average; a 7 only when the robber may move and the others hold
    /// big hands while the bot's is safe. A low red die opens the progress draws of the bot's
    /// tracks on a gate.
    fn score_alchemist(&self, red: u8, white: u8) -> f64 {
        let Some(ck) = &self.ck else { return tier::UNKNOWN };
        let sum = red + white;
        let value_of = |sum: u8| -> f64 {
            if sum == 7 {
                let robber_moves =
                    !self.game.config().robber_waits_for_first_attack || self.game.barbarian_attacks() > 0;
                let limit = 7 + 2 * ck.walls;
                let mine = self.hand.total() + ck.commodities.total();
                let theirs: f64 =
                    self.seats_other().map(|s| f64::from(self.cards_held(s).saturating_sub(7) / 2) * 0.3).sum();
                let steal = if robber_moves { 1.0 } else { 0.0 };
                let loss = if mine > limit { 0.6 * f64::from(mine / 2) } else { 0.0 };
                return steal + theirs - loss;
            }
            let others: f64 = self.seats_other().map(|s| self.roll_gain(s, sum) * 0.1 * self.threat(s)).sum();
            self.roll_gain(self.me, sum) - 0.3 * others
        };
        let expected: f64 = (2..=12u8).filter(|&s| s != 7).map(|s| pips(Some(s)) / 36.0 * value_of(s)).sum();
        let draws = Track::ALL
            .iter()
            .filter(|&&t| {
                let level = ck.levels[t as usize];
                level >= 1 && red <= level + 1
            })
            .count() as f64;
        let value = value_of(sum) + 0.1 * draws;
        if value >= (2.0 * expected).max(1.5) {
            tier::PLAY_CARD_NOW - 100.0 + value
        } else {
            KEPT + 0.1 * value
        }
    }

    /// Crane: before an improvement the bot can afford with it (level 1 is free with it), to
    /// save a commodity or to build a level it could not pay in full.
    fn score_crane(&self) -> f64 {
        let Some(ck) = &self.ck else { return tier::UNKNOWN };
        if self.own_count(BuildingKind::City) == 0 || self.game.ext.cities_knights.card_turn.crane {
            return KEPT;
        }
        let ready = Commodity::ALL.iter().any(|&c| {
            let level = ck.levels[track_of(c) as usize];
            level < 5 && ck.commodities.get(c) >= u32::from(level)
        });
        if ready {
            tier::PLAY_CARD_NOW - 50.0
        } else {
            KEPT
        }
    }

    /// Engineer: a free wall (two more cards under the hand limit, CK-WALL-2) on the city
    /// the bot would least like to lose.
    fn score_engineer(&self, vertex: VertexId) -> f64 {
        let production = self.board.vertex(vertex).map_or(0.0, |v| self.commodity_value(v));
        tier::PLAY_CARD_NOW - 150.0 + 0.01 * production
    }

    /// Inventor: swapping two number tokens, for the pips the bot gains less those of the
    /// opponents (weighted by their threat).
    fn score_inventor(&self, a: HexCoord, b: HexCoord) -> f64 {
        let (Some(ha), Some(hb)) = (self.board.hex(a), self.board.hex(b)) else { return tier::POINTLESS };
        let (pa, pb) = (pips(self.board.numbers[ha as usize]), pips(self.board.numbers[hb as usize]));
        let stake = |h: u8| -> (f64, f64) {
            let weight = self.board.terrain[h as usize].resource().map_or(0.0, |r| self.weight[r.index()]);
            let (mut mine, mut theirs) = (0.0, 0.0);
            for &v in &self.board.hex_vertices[h as usize] {
                let Some(b) = self.buildings.get(v as usize).copied().flatten() else { continue };
                let mult = if b.kind == BuildingKind::City { 2.0 } else { 1.0 };
                if b.seat == self.me {
                    mine += mult * weight;
                } else {
                    theirs += mult * 0.2 * self.threat(b.seat);
                }
            }
            (mine, theirs)
        };
        let ((mine_a, theirs_a), (mine_b, theirs_b)) = (stake(ha), stake(hb));
        let gain = (pb - pa) * (mine_a - theirs_a) + (pa - pb) * (mine_b - theirs_b);
        if gain >= 2.0 {
            tier::PLAY_CARD_NOW - 120.0 + gain
        } else {
            KEPT + 0.1 * gain.max(-40.0)
        }
    }

    /// Irrigation, Mining: 2 cards per hex of `terrain` touching the bot's buildings.
    fn score_harvest(&self, terrain: Terrain, resource: Resource) -> f64 {
        let hexes = self.touching(terrain);
        if hexes == 0 {
            return tier::POINTLESS;
        }
        let gain = 2.0 * f64::from(hexes) * self.weight[resource.index()];
        tier::PLAY_CARD_NOW - 60.0 + gain
    }

    /// Medicine: a city for 2 ore + 1 grain, better than paying the full price.
    fn score_medicine(&self, vertex: VertexId) -> f64 {
        if self.cities_left == 0 {
            return tier::POINTLESS;
        }
        self.score_city(vertex) + 30.0
    }

    /// Smith: free promotions, wanted for the defence and the Defender point.
    fn score_smith(&self, knights: &[VertexId]) -> f64 {
        let promoted = knights.iter().filter(|&&v| self.game.knight_at(v).is_some_and(|k| k.seat == self.me)).count();
        let active = knights.iter().filter(|&&v| self.game.knight_at(v).is_some_and(|k| k.active)).count();
        tier::PLAY_CARD_NOW - 130.0 + 2.0 * promoted as f64 + 0.5 * active as f64
    }

    /// Commercial Harbor: at the end of the turn, when the bot has resources to offer and the
    /// others have cities that bring commodities.
    fn score_commercial_harbor(&self) -> f64 {
        let others_have =
            self.seats_other().any(|s| self.game.hand_cards(s).commodities.total() > 0 || self.cards_held(s) > 0);
        if self.hand.total() >= 2 && others_have {
            tier::END_TURN + 3.0
        } else {
            KEPT
        }
    }

    /// Master Merchant: two cards of a richer leader.
    fn score_master_merchant(&self, target: Seat) -> f64 {
        let cards = self.cards_held(target);
        if cards == 0 {
            return KEPT;
        }
        tier::PLAY_CARD_NOW - 90.0 + 0.2 * f64::from(cards.min(10)) + 0.3 * self.threat(target)
    }

    /// Merchant: a point while the bot holds it, and 2:1 on the hex's resource.
    fn score_merchant(&self, hex: HexCoord) -> f64 {
        let Some(h) = self.board.hex(hex) else { return tier::POINTLESS };
        let resource_value = self.board.terrain[h as usize].resource().map_or(0.0, |r| {
            let surplus = self.hand.get(r).saturating_sub(self.goals.first().map_or(0, |g| g.cost.get(r)));
            0.5 * self.weight[r.index()] + 0.2 * f64::from(surplus) + 0.05 * pips(self.board.numbers[h as usize])
        });
        let ours = self.game.ext.cities_knights.merchant.is_some_and(|m| m.seat == self.me);
        if ours {
            KEPT + 0.1 * resource_value
        } else {
            tier::PLAY_CARD_NOW - 10.0 + resource_value
        }
    }

    /// Merchant Fleet: when the good's surplus at 2:1 buys what a goal misses.
    fn score_merchant_fleet(&self, good: Good) -> f64 {
        let Some(ck) = &self.ck else { return tier::UNKNOWN };
        let short = self.goals.first().map_or(0, |g| missing(&self.hand, &g.cost));
        let (surplus, rate) = match good {
            Good::Resource(r) => {
                let need = self.goals.first().map_or(0, |g| g.cost.get(r));
                (self.hand.get(r).saturating_sub(need), self.rates[r.index()])
            }
            Good::Commodity(c) => {
                let keep = self.commodity_wanted(ck, c);
                let rate = if ck.levels[Track::Trade as usize] >= 3 { 2 } else { 4 };
                (ck.commodities.get(c).saturating_sub(keep), rate)
            }
        };
        let more = surplus / 2 - surplus / rate.max(1);
        if short > 0 && more > 0 {
            tier::PLAY_CARD_NOW - 300.0 + f64::from(more.min(short))
        } else {
            KEPT + 0.1 * f64::from(surplus)
        }
    }

    /// Resource Monopoly: two cards of `r` from each opponent, as many as they likely hold.
    fn score_resource_monopoly(&self, r: Resource) -> f64 {
        let expected: f64 = self
            .seats_other()
            .map(|s| {
                let prod = self.production.get(s.index()).copied().unwrap_or([0.0; 5]);
                let share = (prod[r.index()] + 0.5) / (prod.iter().sum::<f64>() + 2.5);
                (f64::from(self.game.hand_cards(s).resources.total()) * share).min(2.0)
            })
            .sum();
        let needed = self.goals.first().is_some_and(|g| g.cost.get(r) > self.hand.get(r));
        let value = expected * if needed { 1.5 } else { 0.8 };
        if value >= 2.5 {
            tier::PLAY_CARD_NOW - 60.0 + value
        } else {
            KEPT + 0.1 * value
        }
    }

    /// Trade Monopoly: a `c` from each opponent whose cities bring it, when the bot wants it.
    fn score_trade_monopoly(&self, c: Commodity) -> f64 {
        let Some(ck) = &self.ck else { return tier::UNKNOWN };
        let makers = self
            .seats_other()
            .filter(|&s| {
                self.buildings.iter().enumerate().any(|(v, b)| {
                    b.is_some_and(|b| b.seat == s && b.kind == BuildingKind::City)
                        && self
                            .board
                            .land_hexes_of(v as u16)
                            .any(|h| commodity_of(self.board.terrain[h as usize]) == Some(c))
                })
            })
            .count() as f64;
        let wanted = self.commodity_wanted(ck, c) > ck.commodities.get(c);
        let value = makers * if wanted { 1.0 } else { 0.3 };
        if value >= 1.5 {
            tier::PLAY_CARD_NOW - 70.0 + value
        } else {
            KEPT + 0.1 * value
        }
    }

    /// Bishop: the robber where it hurts the leaders most, a card from each victim.
    fn score_bishop(&self, hex: HexCoord) -> f64 {
        let Some(h) = self.board.hex(hex) else { return tier::POINTLESS };
        let victims: f64 = self.board.hex_vertices[h as usize]
            .iter()
            .filter_map(|&v| self.buildings.get(v as usize).copied().flatten())
            .filter(|b| b.seat != self.me)
            .map(|b| b.seat)
            .fold(Vec::new(), |mut seats, s| {
                if !seats.contains(&s) {
                    seats.push(s);
                }
                seats
            })
            .into_iter()
            .map(|s| self.theft_value(Some(s)))
            .sum();
        let value = self.robber_score(hex, None) + victims;
        let freed = self.robber.is_some_and(|r| {
            self.board.hex_vertices[r as usize]
                .iter()
                .any(|&v| self.buildings.get(v as usize).copied().flatten().is_some_and(|b| b.seat == self.me))
        });
        if value < 0.0 {
            tier::POINTLESS
        } else if value >= 6.0 || freed {
            tier::PLAY_CARD_NOW - 100.0 + value.min(50.0)
        } else {
            KEPT + 0.1 * value
        }
    }

    /// Diplomat: an opponent's road when it holds the Longest Road; the bot's own road only
    /// to a place that leads somewhere better.
    fn score_diplomat(&self, edge: EdgeId, to: Option<EdgeId>) -> f64 {
        let Some(e) = self.board.edge(edge) else { return tier::POINTLESS };
        let Some(owner) = self.roads.get(e as usize).copied().flatten() else { return KEPT };
        if owner == self.me {
            let lead = |e: u16| self.road_lead.get(e as usize).copied().filter(|l| l.is_finite()).unwrap_or(0.0);
            return match to.and_then(|t| self.board.edge(t)) {
                Some(t) if lead(t) > lead(e) + 1.0 => tier::PLAY_CARD_NOW - 250.0 + lead(t) - lead(e),
                _ => tier::POINTLESS,
            };
        }
        if self.game.longest_road_holder() == Some(owner) {
            tier::PLAY_CARD_NOW - 200.0 + self.threat(owner)
        } else {
            KEPT + 0.1 * self.threat(owner)
        }
    }

    /// Intrigue: chasing a knight off a site the bot could settle.
    fn score_intrigue(&self, vertex: VertexId) -> f64 {
        let owner = self.game.knight_at(vertex).map(|k| k.seat);
        let threat = owner.map_or(0.0, |s| self.threat(s));
        match self.board.vertex(vertex) {
            Some(v) if self.is_free_site(v) && self.settlements_left > 0 => tier::PLAY_CARD_NOW - 200.0 + threat,
            _ => KEPT + 0.1 * threat,
        }
    }

    /// Saboteur: when the bot is behind, the seats at or above its points lose half their
    /// cards.
    fn score_saboteur(&self) -> f64 {
        let mine = self.points.get(self.me.index()).copied().unwrap_or(0);
        let loss: f64 = self
            .seats_other()
            .filter(|s| self.points.get(s.index()).copied().unwrap_or(0) >= mine)
            .map(|s| f64::from(self.cards_held(s) / 2) * 0.2 * self.threat(s))
            .sum();
        if loss <= 0.0 {
            tier::POINTLESS
        } else if self.others_ahead() > 0 && loss >= 1.5 {
            tier::PLAY_CARD_NOW - 250.0 + loss
        } else {
            KEPT + 0.1 * loss
        }
    }

    /// Spy: a progress card of the seat that holds most of them.
    fn score_spy(&self, target: Seat) -> f64 {
        let cards = self.game.progress_cards(target).total() - self.game.progress_points(target);
        if cards == 0 {
            return KEPT;
        }
        tier::PLAY_CARD_NOW - 160.0 + 0.5 * f64::from(cards) + 0.1 * self.threat(target)
    }

    /// Warlord: every knight active for free, when two wait or an attack is near.
    fn score_warlord(&self) -> f64 {
        let Some(ck) = &self.ck else { return tier::UNKNOWN };
        let idle = self.game.knights().iter().filter(|k| k.seat == self.me && !k.active).count() as f64;
        if idle >= 2.0 || (idle >= 1.0 && ck.steps_left <= NEAR) {
            tier::PLAY_CARD_NOW - 140.0 + idle
        } else if idle >= 1.0 {
            KEPT + idle
        } else {
            tier::POINTLESS
        }
    }

    /// Wedding: two cards from every seat ahead of the bot.
    fn score_wedding(&self) -> f64 {
        let mine = self.points.get(self.me.index()).copied().unwrap_or(0);
        let gain: u32 = self
            .seats_other()
            .filter(|s| self.points.get(s.index()).copied().unwrap_or(0) > mine)
            .map(|s| self.cards_held(s).min(2))
            .sum();
        if gain >= 2 {
            tier::PLAY_CARD_NOW - 90.0 + f64::from(gain)
        } else if gain == 1 {
            KEPT + 1.0
        } else {
            tier::POINTLESS
        }
    }
}

#[cfg(test)]
mod tests;
