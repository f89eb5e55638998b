//! Scenarios: the maps of the Seafarers expansion a game can be played on, Wonders of Catan
//! among them.

use actix_web::{get, http::header, HttpResponse};
use catan_engine::{GameConfig, ScenarioId};
use serde::Serialize;
use utoipa::ToSchema;

/// The victory points a scenario needs with a number of players.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScenarioTarget {
    pub players: u8,
    pub vp_target: u8,
}

/// A scenario: pass its `id` as `scenario` in `POST /api/v1/games` (Seafarers is then
/// switched on; with 5 or 6 players add `"variant": "seafarers+five_six"`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ScenarioSummary {
    pub id: ScenarioId,
    /// The variant a game on this scenario is: `seafarers`, or `seafarers+wonders` for
    /// Wonders of Catan (which brings rules of its own); the game's `variant` says the same.
    #[schema(example = "seafarers")]
    pub variant: String,
    pub title: &'static str,
    pub description: &'static str,
    /// The player counts the scenario has a map for.
    pub player_counts: Vec<u8>,
    /// The victory points to win, by player count (SEA-14).
    pub vp_targets: Vec<ScenarioTarget>,
}

/// The scenarios.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScenarioList {
    pub scenarios: Vec<ScenarioSummary>,
}

/// Every scenario, with its player counts, victory point targets and a one-line description.
pub fn scenario_list() -> ScenarioList {
    let scenarios = ScenarioId::ALL
        .iter()
        .map(|&id| {
            let player_counts = id.player_counts();
            let vp_targets = player_counts
                .iter()
                .filter_map(|&players| id.vp_target(players).map(|vp_target| ScenarioTarget { players, vp_target }))
                .collect();
            let config = GameConfig { seafarers: true, scenario: Some(id), ..GameConfig::default() };
            ScenarioSummary {
                id,
                variant: config.variant_name(),
                title: id.title(),
                description: id.description(),
                player_counts,
                vp_targets,
            }
        })
        .collect();
    ScenarioList { scenarios }
}

/// List the scenarios a game can be played on.
#[utoipa::path(
    tag = "games",
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The scenarios", body = ScenarioList),
        (status = 401, description = "A token was sent but is not valid (`unauthorized`)", body = crate::error::Problem, content_type = "application/problem+json"),
    )
)]
#[get("/scenarios")]
pub async fn list_scenarios(_caller: crate::auth::MaybeAuthUser) -> HttpResponse {
    HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "public, max-age=3600")).json(scenario_list())
}
