//! Move generation: every move a seat may make now, each complete and accepted by `decide`.

use crate::{
    config::DevCardsBeforeRoll,
    moves::Move,
    resources::{cost, Resource, Resources},
    rules::bank_rates,
    state::{BuildingKind, DevCard, Game, Phase, Seat, SetupStep},
};

impl Game {
    /// Generates all moves `seat` may make now. New trade offers are the one exception (their
    /// space is unbounded): [`Game::may_offer_trade`] says whether the seat may make one.
    pub fn legal_moves(&self, seat: Seat) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.winner.is_some() || seat.index() >= self.players.len() {
            return moves;
        }
        match &self.phase {
            Phase::GameOver => {}
            Phase::Setup { seat: placing, step, .. } if *placing == seat => self.setup_moves(*step, &mut moves),
            Phase::Setup { .. } => {}
            Phase::Discard { pending } => {
                if let Some(owed) = pending.iter().find(|p| p.seat == seat) {
                    let hand = self.players[seat.index()].resources;
                    discard_choices(&hand, owed.count, &mut moves);
                }
            }
            Phase::GoldChoice { pending, .. } => {
                if let Some(owed) = pending.iter().find(|p| p.seat == seat) {
                    gold_choices(owed.count, &mut moves);
                }
            }
            Phase::SpecialBuilding { seat: builder } if *builder == seat => {
                moves.push(Move::EndTurn);
                self.build_and_buy_moves(seat, &mut moves);
                self.trade_responses(seat, &mut moves);
            }
            _ if seat != self.turn.active => self.trade_responses(seat, &mut moves),
            Phase::SpecialBuilding { .. } => self.trade_responses(seat, &mut moves),
            Phase::PreRoll => {
                moves.push(Move::RollDice);
                self.knight_moves(seat, &mut moves);
                if self.config.dev_cards_before_roll == DevCardsBeforeRoll::Any {
                    self.progress_moves(seat, &mut moves);
                }
            }
            Phase::MoveRobber => {
                self.robber_moves(seat, &mut moves, |hex, steal_from| Move::MoveRobber { hex, steal_from })
            }
            Phase::RoadBuilding { .. } => {
                for e in 0..self.board.edges.len() as u16 {
                    if self.road_site_is_legal(seat, e, None) {
                        moves.push(Move::BuildRoad { edge: self.board.edges[e as usize] });
                    }
                }
            }
            Phase::Main => self.main_moves(seat, &mut moves),
        }
        moves
    }

    /// Tests if `seat` may make a new trade offer now (B-TRD-5/6, B-TURN-6).
    pub fn may_offer_trade(&self, seat: Seat) -> bool {
        let phase_allows = match self.phase {
            Phase::Main => true,
            Phase::SpecialBuilding { .. } => {
                self.config.sbp_trade_with_previous_player && self.special_building_partner(seat).is_some()
            }
            _ => false,
        };
        phase_allows
            && self.winner.is_none()
            && seat.index() < self.players.len()
            && (self.config.allow_trade_build_interleaving || !self.turn.built_or_bought)
            && self.players[seat.index()].resources.total() > 0
            && self.offers.iter().filter(|o| o.from == seat).count() < crate::rules::MAX_OPEN_OFFERS_PER_SEAT
    }

    fn setup_moves(&self, step: SetupStep, moves: &mut Vec<Move>) {
        match step {
            SetupStep::PlaceSettlement => {
                for (v, vertex) in self.board.vertices.iter().enumerate() {
                    if self.check_setup_site(v as u16, *vertex).is_ok() {
                        moves.push(Move::BuildSettlement { vertex: *vertex });
                    }
                }
            }
            SetupStep::PlaceRoad { settlement } => {
                let Some(v) = self.board.vertex(settlement) else {
                    return;
                };
                for e in self.board.edges_of(v) {
                    let edge = self.board.edges[e as usize];
                    if self.check_road_site(e, edge).is_ok() {
                        moves.push(Move::BuildRoad { edge });
                    }
                }
            }
        }
    }

    fn robber_moves(
        &self,
        seat: Seat,
        moves: &mut Vec<Move>,
        make: impl Fn(crate::board::HexCoord, Option<Seat>) -> Move,
    ) {
        for h in 0..self.board.hexes.len() as u8 {
            if !self.is_robber_target(h) {
                continue;
            }
            let hex = self.board.hexes[h as usize];
            let victims = self.robber_victims(seat, h);
            if victims.is_empty() {
                moves.push(make(hex, None));
            }
            for victim in victims {
                moves.push(make(hex, Some(victim)));
            }
        }
    }

    fn knight_moves(&self, seat: Seat, moves: &mut Vec<Move>) {
        if self.check_playable(seat, DevCard::Knight).is_ok() {
            self.robber_moves(seat, moves, |hex, steal_from| Move::PlayKnight { hex, steal_from });
        }
    }

    fn progress_moves(&self, seat: Seat, moves: &mut Vec<Move>) {
        let player = &self.players[seat.index()];
        if self.check_playable(seat, DevCard::RoadBuilding).is_ok()
            && player.roads_left > 0
            && self.has_legal_road_site(seat, None)
        {
            moves.push(Move::PlayRoadBuilding);
        }
        if self.check_playable(seat, DevCard::YearOfPlenty).is_ok() {
            let count = self.year_of_plenty_count();
            for (i, first) in Resource::ALL.into_iter().enumerate() {
                if count == 1 {
                    if self.bank.get(first) > 0 {
                        moves.push(Move::PlayYearOfPlenty { resources: Resources::of(first, 1) });
                    }
                    continue;
                }
                for second in &Resource::ALL[i..] {
                    let take = Resources::of(first, 1) + Resources::of(*second, 1);
                    if self.bank.contains(&take) {
                        moves.push(Move::PlayYearOfPlenty { resources: take });
                    }
                }
            }
        }
        if self.check_playable(seat, DevCard::Monopoly).is_ok() {
            moves.extend(Resource::ALL.map(|resource| Move::PlayMonopoly { resource }));
        }
    }

    fn main_moves(&self, seat: Seat, moves: &mut Vec<Move>) {
        let hand = self.players[seat.index()].resources;
        moves.push(Move::EndTurn);
        self.build_and_buy_moves(seat, moves);
        self.knight_moves(seat, moves);
        self.progress_moves(seat, moves);
        if self.config.allow_trade_build_interleaving || !self.turn.built_or_bought {
            let rates = bank_rates(self, seat);
            for give in Resource::ALL {
                let rate = rates[give.index()];
                if hand.get(give) < rate {
                    continue;
                }
                for get in Resource::ALL {
                    if get != give && self.bank.get(get) > 0 {
                        moves.push(Move::TradeWithBank { give: Resources::of(give, rate), get: Resources::of(get, 1) });
                    }
                }
            }
            self.trade_responses(seat, moves);
        }
    }

    /// Roads, settlements, cities and development cards the seat can afford and place.
    fn build_and_buy_moves(&self, seat: Seat, moves: &mut Vec<Move>) {
        let player = &self.players[seat.index()];
        let hand = player.resources;
        if player.roads_left > 0 && hand.contains(&cost::ROAD) {
            for e in 0..self.board.edges.len() as u16 {
                if self.road_site_is_legal(seat, e, None) {
                    moves.push(Move::BuildRoad { edge: self.board.edges[e as usize] });
                }
            }
        }
        if player.settlements_left > 0 && hand.contains(&cost::SETTLEMENT) {
            for v in 0..self.board.vertices.len() as u16 {
                if self.settlement_site_is_legal(seat, v) {
                    moves.push(Move::BuildSettlement { vertex: self.board.vertices[v as usize] });
                }
            }
        }
        if player.cities_left > 0 && hand.contains(&cost::CITY) {
            for (v, building) in self.buildings.iter().enumerate() {
                if building.is_some_and(|b| b.seat == seat && b.kind == BuildingKind::Settlement) {
                    moves.push(Move::BuildCity { vertex: self.board.vertices[v] });
                }
            }
        }
        if self.deck.total() > 0 {
            if hand.contains(&cost::DEVELOPMENT_CARD) {
                moves.push(Move::BuyDevelopmentCard);
            }
            // JUN-5: every way to let discoveries stand in for part of the cost.
            if player.discoveries > 0 {
                for mask in 1u8..8 {
                    let replaces =
                        Resources::new(0, 0, u32::from(mask & 1), u32::from(mask >> 1 & 1), u32::from(mask >> 2));
                    if replaces.total() <= player.discoveries && hand.contains(&(cost::DEVELOPMENT_CARD - replaces)) {
                        moves.push(Move::BuyDevelopmentCardWithDiscoveries { replaces });
                    }
                }
            }
        }
    }

    /// Responses to open offers: accept/decline as an addressee, confirm/withdraw as offerer.
    fn trade_responses(&self, seat: Seat, moves: &mut Vec<Move>) {
        let open = match self.phase {
            Phase::Main => self.config.allow_trade_build_interleaving || !self.turn.built_or_bought,
            Phase::SpecialBuilding { .. } => self.config.sbp_trade_with_previous_player,
            _ => false,
        };
        if !open {
            return;
        }
        let hand = &self.players[seat.index()].resources;
        for offer in &self.offers {
            let offer_id = offer.id;
            if offer.from == seat {
                if hand.contains(&offer.give) {
                    for &with in &offer.accepted_by {
                        if self.players[with.index()].resources.contains(&offer.get) {
                            moves.push(Move::ConfirmTrade { offer_id, with });
                        }
                    }
                }
                moves.push(Move::WithdrawTrade { offer_id });
            } else if offer.to.contains(&seat) {
                if !offer.accepted_by.contains(&seat) && hand.contains(&offer.get) {
                    moves.push(Move::AcceptTrade { offer_id });
                }
                if !offer.declined_by.contains(&seat) {
                    moves.push(Move::DeclineTrade { offer_id });
                }
            }
        }
    }
}

/// Every way to discard exactly `count` cards from `hand` (B-ROB-1).
fn discard_choices(hand: &Resources, count: u32, moves: &mut Vec<Move>) {
    fn walk(hand: &Resources, index: usize, left: u32, chosen: Resources, moves: &mut Vec<Move>) {
        if index == Resource::ALL.len() {
            if left == 0 {
                moves.push(Move::Discard { resources: chosen });
            }
            return;
        }
        let resource = Resource::ALL[index];
        let rest_capacity: u32 = Resource::ALL[index + 1..].iter().map(|r| hand.get(*r)).sum();
        let max = hand.get(resource).min(left);
        let min = left.saturating_sub(rest_capacity);
        for take in min..=max {
            let mut next = chosen;
            next.set(resource, take);
            walk(hand, index + 1, left - take, next, moves);
        }
    }
    walk(hand, 0, count, Resources::ZERO, moves);
}

/// Every way to take `count` cards of free choice (RIV-5, SEA-9).
fn gold_choices(count: u32, moves: &mut Vec<Move>) {
    fn walk(index: usize, left: u32, chosen: Resources, moves: &mut Vec<Move>) {
        if index == Resource::ALL.len() - 1 {
            let mut last = chosen;
            last.set(Resource::ALL[index], left);
            moves.push(Move::ChooseGoldResources { resources: last });
            return;
        }
        for take in 0..=left {
            let mut next = chosen;
            next.set(Resource::ALL[index], take);
            walk(index + 1, left - take, next, moves);
        }
    }
    walk(0, count, Resources::ZERO, moves);
}
