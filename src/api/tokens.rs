//! Revoking a token: log out.

use actix_web::{delete, web, HttpResponse};

use crate::{
    app::AppState,
    auth::AuthUser,
    error::{ApiError, Problem},
};

/// Log out: revoke the token this request presents.
///
/// From the answer on, the token is refused with 401 by every server process, until it would
/// have expired anyway. Other tokens of the same user stay valid. A token issued by a server
/// without revocation (it has no `jti` claim) cannot be revoked: 422 `token_not_revocable`.
#[utoipa::path(
    tag = "users",
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, description = "No valid token (or it was already revoked)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "An old token without an id cannot be revoked (`token_not_revocable`); it expires as usual", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The database is unreachable (`database_unavailable`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/tokens/current")]
pub async fn revoke_current_token(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, ApiError> {
    let Some(jti) = user.token_id else {
        return Err(ApiError::unprocessable(
            "token_not_revocable",
            "this token was issued before tokens could be revoked; it expires as usual",
        ));
    };
    state.revocations.revoke(&state.pool, jti, user.token_expires).await?;
    Ok(HttpResponse::NoContent().finish())
}
