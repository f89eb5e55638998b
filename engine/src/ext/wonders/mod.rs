//! Wonders of Catan (WON, RULES 8.5): a Seafarers scenario with its own goal. The map, its
//! setup bans, the small-island bonus and the absent pirate are scenario data read by
//! Seafarers (`ext/seafarers/scenario/`); this folder holds what is Wonders' own: the wonder
//! cards (`cards.rs`), claiming a wonder and building its stages (`building.rs`), and the
//! victory rule (WON-11).

mod building;
pub(crate) mod cards;
pub(crate) mod position;
pub(crate) mod types;

use serde::{Deserialize, Serialize};

pub use cards::WonderCard;
pub(crate) use cards::WonderCardFile;
pub use types::{MarkedSet, Requirement, WonderId, WonderView, WONDER_STAGES};

use crate::position::{PositionError, PositionPart, Setup};
use crate::{
    chance::Chance,
    ext::{
        seafarers::scenario::{layout_for, ScenarioId},
        Extension,
    },
    game::Game,
    model::{Phase, Seat},
    protocol::{Event, Move, RuleError, SetupError, VictoryCondition},
    ruleset::{invalid, Components, Ruleset},
};

#[derive(Debug)]
pub(crate) struct Wonders {
    pub players: u8,
    /// `GameConfig::wonder_ship_reserved`.
    pub ship_reserved: bool,
}

impl Wonders {
    /// The wonder cards on offer with this many players (WON-1: five for 3-4).
    fn cards(&self) -> &'static [WonderCard] {
        layout_for(ScenarioId::Wonders, self.players).map_or(&[], |l| &l.wonders[..])
    }

    fn card(&self, wonder: WonderId) -> Option<&'static WonderCard> {
        self.cards().iter().find(|c| c.id == wonder)
    }
}

/// Who claimed which wonder, in the order of the claims, and the stages built.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct WondersState {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub claims: Vec<Claim>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Claim {
    pub seat: Seat,
    pub wonder: WonderId,
    pub stages: u8,
}

impl WondersState {
    pub(crate) fn is_unused(&self) -> bool {
        self.claims.is_empty()
    }

    fn of_seat(&self, seat: Seat) -> Option<&Claim> {
        self.claims.iter().find(|c| c.seat == seat)
    }

    fn of_wonder(&self, wonder: WonderId) -> Option<&Claim> {
        self.claims.iter().find(|c| c.wonder == wonder)
    }

    /// The stages `seat` has built (the progress marker of WON-5).
    pub(crate) fn stages_of(&self, seat: Seat) -> u8 {
        self.of_seat(seat).map_or(0, |c| c.stages)
    }
}

impl Game {
    /// The wonders of the game, in card order, with their owners and stages (WON-8..10); empty
    /// outside Wonders of Catan.
    pub fn wonders(&self) -> Vec<WonderView> {
        let Some(layout) = self.wonders_layout() else { return Vec::new() };
        layout
            .wonders
            .iter()
            .map(|card| {
                let claim = self.ext.wonders.of_wonder(card.id);
                WonderView {
                    wonder: card.id,
                    name: card.id.title().to_owned(),
                    requirements: card.requirements.clone(),
                    stage_cost: card.stage_cost,
                    stages: WONDER_STAGES,
                    owner: claim.map(|c| c.seat),
                    stages_built: claim.map_or(0, |c| c.stages),
                }
            })
            .collect()
    }

    /// The wonder `seat` has claimed and the stages it has built, if any (WON-8, WON-10).
    pub fn wonder_of(&self, seat: Seat) -> Option<(WonderId, u8)> {
        self.ext.wonders.of_seat(seat).map(|c| (c.wonder, c.stages))
    }

    /// Ships `seat` may still build: its supply, less the one kept for a wonder it has yet to
    /// claim (WON-8, `GameConfig::wonder_ship_reserved`).
    pub(crate) fn ships_to_build(&self, seat: Seat) -> u8 {
        let left = self.player(seat).map_or(0, |p| p.pieces_left().ships);
        let kept = self.rules().components.ship_kept_for_wonder && self.ext.wonders.of_seat(seat).is_none();
        left.saturating_sub(u8::from(kept))
    }

    /// The marked vertex sets of the map (WON-3), empty outside Wonders of Catan.
    pub fn marked_vertices(&self) -> Vec<(MarkedSet, Vec<crate::VertexId>)> {
        self.wonders_layout().map(|l| l.marked_vertices.clone()).unwrap_or_default()
    }

    /// The vertices of one marked set (WON-3, WON-9); none outside Wonders of Catan.
    pub(crate) fn marked_set(&self, set: MarkedSet) -> &'static [crate::VertexId] {
        let layout = self.wonders_layout();
        let found = layout.and_then(|l| l.marked_vertices.iter().find(|(s, _)| *s == set));
        found.map_or(&[], |(_, vertices)| &vertices[..])
    }

    fn wonders_layout(&self) -> Option<&'static crate::ext::seafarers::scenario::ScenarioLayout> {
        let config = self.config();
        (config.seafarers && config.scenario == Some(ScenarioId::Wonders))
            .then(|| layout_for(ScenarioId::Wonders, config.players))
            .flatten()
    }
}

impl Extension for Wonders {
    fn position_parts(&self) -> &'static [PositionPart] {
        &[PositionPart::Wonders]
    }

    fn place_position(&self, game: &mut Game, setup: &Setup) -> Result<(), PositionError> {
        position::place_wonders(game, &setup.wonders)
    }

    fn export_position(&self, game: &Game, setup: &mut Setup) {
        position::export(game, setup);
    }

    fn name(&self) -> &'static str {
        "wonders"
    }

    fn player_counts(&self) -> Option<(std::ops::RangeInclusive<u8>, &'static str)> {
        Some((ScenarioId::Wonders.players_allowed(), "Wonders of Catan is for 3 or 4 players"))
    }

    fn validate(&self, _rules: &Ruleset) -> Result<(), SetupError> {
        if self.cards().is_empty() {
            return Err(invalid("the Wonders of Catan map has no wonder cards".into()));
        }
        Ok(())
    }

    /// WON-7: no Longest Route card (route length is still measured for the conditions).
    fn components(&self, components: &mut Components) {
        components.longest_road_card = false;
        components.ship_kept_for_wonder = self.ship_reserved;
    }

    fn decide_purchase(
        &self,
        game: &Game,
        seat: Seat,
        mv: &Move,
        _chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Option<Result<(), RuleError>> {
        if !matches!(mv, Move::ClaimWonder { .. } | Move::BuildWonderStage) {
            return None;
        }
        // WON-8, WON-10: in the main phase of one's own turn only.
        if !matches!(game.phase(), Phase::Main) {
            return Some(Err(RuleError::WrongPhase("wonders are claimed and built in the main phase of your turn")));
        }
        let decided = match mv {
            Move::ClaimWonder { wonder } => self.decide_claim(game, seat, *wonder),
            _ => self.decide_stage(game, seat),
        };
        Some(decided.map(|mut decided| events.append(&mut decided)))
    }

    fn purchase_moves(&self, game: &Game, seat: Seat, moves: &mut Vec<Move>) {
        if matches!(game.phase(), Phase::Main) {
            self.wonder_moves(game, seat, moves);
        }
    }

    /// WON-3, WON-8..11: the marked vertices, the wonders, their owners and stages.
    fn view(&self, game: &Game, _you: Option<Seat>, _over: bool, view: &mut crate::view::GameView) {
        view.wonders = game.wonders();
        view.board.marked_vertices = game
            .marked_vertices()
            .into_iter()
            .map(|(set, vertices)| crate::view::MarkedVerticesView { set, vertices })
            .collect();
    }

    fn apply(&self, game: &mut Game, event: &Event) {
        match event {
            // WON-8: the claim marks the wonder with one of the seat's ships, for good.
            Event::WonderClaimed { seat, .. } => game.retire_ship(*seat),
            Event::WonderStageBuilt { seat, cost, .. } => {
                game.mark_built_or_bought();
                game.pay(*seat, cost);
            }
            _ => {}
        }
        let state = &mut game.ext.wonders;
        match event {
            Event::WonderClaimed { seat, wonder }
                if state.of_seat(*seat).is_none() && state.of_wonder(*wonder).is_none() =>
            {
                state.claims.push(Claim { seat: *seat, wonder: *wonder, stages: 0 });
            }
            Event::WonderStageBuilt { seat, stage, .. } => {
                if let Some(claim) = state.claims.iter_mut().find(|c| c.seat == *seat) {
                    claim.stages = claim.stages.max(*stage);
                }
            }
            _ => {}
        }
    }

    /// WON-11: the fourth stage wins whatever the points, so no target is out of reach.
    fn most_points(&self, _pieces: &crate::Pieces) -> Option<u32> {
        None
    }

    /// WON-11: the fourth stage wins at once; otherwise the target in points wins only with
    /// strictly more stages than every other seat.
    fn victory(&self, after: &Game, seat: Seat, points: u32, target: u32) -> Option<Option<VictoryCondition>> {
        let stages = |s: Seat| after.ext.wonders.stages_of(s);
        let own = stages(seat);
        if own >= WONDER_STAGES {
            return Some(Some(VictoryCondition::WonderCompleted));
        }
        let ahead = after.seats().filter(|&s| s != seat).all(|s| stages(s) < own);
        Some((points >= target && ahead).then_some(VictoryCondition::VictoryPointsAndWonderLead))
    }

    fn wins_whatever_the_points(&self, event: &Event) -> bool {
        matches!(event, Event::WonderStageBuilt { stage, .. } if *stage >= WONDER_STAGES)
    }
}
