//! Scenarios: the maps of the Seafarers expansion a game can be played on.

use actix_web::{get, http::header, HttpResponse};
use catan_engine::ScenarioId;
use serde::Serialize;
use utoipa::ToSchema;

/// The victory points a scenario needs with a number of players.
#[derive(Debug, Serialize, ToSchema)]
pub struct ScenarioTarget {
    pub players: u8,
    pub vp_target: u8,
}

/// A scenario: pass its `id` as `scenario` in `POST /api/v1/games` with `"variant":
/// "seafarers"` (with 5 or 6 players, `"seafarers+five_six"`).
#[derive(Debug, Serialize, ToSchema)]
pub struct ScenarioSummary {
    pub id: ScenarioId,
    /// The variant the scenario belongs to: `seafarers`.
    pub variant: &'static str,
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
            ScenarioSummary {
                id,
                variant: "seafarers",
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
    responses((status = 200, description = "The scenarios", body = ScenarioList))
)]
#[get("/scenarios")]
pub async fn list_scenarios() -> HttpResponse {
    HttpResponse::Ok().insert_header((header::CACHE_CONTROL, "public, max-age=3600")).json(scenario_list())
}
