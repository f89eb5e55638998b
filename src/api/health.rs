//! Liveness: 200 once the database answers, a 503 problem otherwise.

use actix_web::{get, web, HttpResponse};
use diesel::{sql_query, RunQueryDsl};
use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    app::AppState,
    error::{ApiError, Problem},
    store::db::with_conn_within,
};

/// The server is up and its database answers.
#[derive(Debug, Serialize, ToSchema)]
pub struct Health {
    /// Always `"ok"`.
    pub status: String,
    /// `postgresql` or `sqlite`.
    pub database: String,
}

/// The longest the health check waits for a database connection: while the database is
/// down, a load balancer hears 503 at once instead of after the pool's timeout.
pub const HEALTH_TIMEOUT: std::time::Duration = std::time::Duration::from_millis(500);

/// Check liveness and database reachability.
#[utoipa::path(
    tag = "health",
    responses(
        (status = 200, description = "Up, and the database answers", body = Health),
        (status = 503, description = "The database is unreachable (`database_unavailable`): answered within about half a second", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/healthz")]
pub async fn healthz(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let database = with_conn_within(&state.pool, HEALTH_TIMEOUT, |conn| {
        sql_query("SELECT 1").execute(conn).map_err(|e| {
            tracing::warn!(error = %e, "database health check failed");
            ApiError::Unavailable
        })?;
        Ok(match conn {
            crate::store::db::DbConnection::Pg(_) => "postgresql",
            crate::store::db::DbConnection::Sqlite(_) => "sqlite",
        })
    })
    .await?;
    Ok(HttpResponse::Ok().json(Health { status: "ok".into(), database: database.into() }))
}
