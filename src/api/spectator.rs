//! The spectator page's handlers (`GET /games/{game_id}` and its script and style): outside
//! `/api/v1`, not part of the API nor of its OpenAPI document. The page itself is drawn in
//! [`crate::views::spectator`].

use actix_web::{web, HttpResponse};
use uuid::Uuid;

use crate::{
    app::AppState,
    error::ApiError,
    store::{self, db::with_conn},
    views::spectator,
};

/// `GET /games/{game_id}`: the spectator page, or a 404 page that says where to look.
///
/// # Errors
/// A database failure (a problem body, as everywhere).
pub async fn page(state: web::Data<AppState>, path: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let raw = path.into_inner();
    let Ok(id) = Uuid::parse_str(&raw) else { return Ok(spectator::not_found(&raw)) };
    let found = with_conn(&state.pool, move |conn| store::game_version(conn, id)).await?;
    if found.is_none() {
        return Ok(spectator::not_found(&raw));
    }
    Ok(spectator::page(id))
}

/// The page's script.
pub async fn script() -> HttpResponse {
    spectator::script()
}

/// The page's style sheet.
pub async fn style() -> HttpResponse {
    spectator::style()
}
