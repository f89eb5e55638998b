//! Public profiles: an account's kind, ratings per pool and rating history.

use actix_web::{get, web, HttpRequest, HttpResponse};

use crate::{
    app::AppState,
    auth::MaybeAuthUser,
    error::{ApiError, Problem},
    store::{self, db::with_conn, ratings},
    views::ratings::{profile, public_json, ProfileResponse},
};

/// How many rated games a profile lists.
const HISTORY: i64 = 50;

/// Get a user's public profile.
///
/// Any account, in any case of its name, including the built-in bots' (`builtin:heuristic`,
/// `builtin:random`): its kind, its ratings per pool (rating, deviation, score, games), how
/// many games it has played, and its latest rated games with what each did to its rating. No
/// token needed. Cacheable: `ETag` (304 on `If-None-Match`) and `Cache-Control: public,
/// max-age=10`.
#[utoipa::path(
    tag = "ratings",
    params(("username" = String, Path, description = "The account's name, in any case")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The profile", body = ProfileResponse,
         headers(("ETag" = String, description = "Of the body"), ("Cache-Control" = String, description = "`public, max-age=10`"))),
        (status = 304, description = "Not modified (`If-None-Match`)"),
        (status = 401, description = "A token was sent but is not valid", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such user", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
    )
)]
#[get("/users/{username}")]
pub async fn get_profile(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    path: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    state.limits.read(&req, user.0.as_ref().map(|u| u.id)).await?;
    let name = path.into_inner();
    let body = with_conn(&state.pool, move |conn| {
        let user = store::find_user_by_name(conn, &name)?
            .ok_or_else(|| ApiError::NotFound(format!("there is no user {name:?}")))?;
        let builtin = user.username.strip_prefix("builtin:").filter(|_| user.kind == "builtin");
        let played = ratings::finished_games(conn, &user.id, builtin)?;
        let rated = ratings::ratings_of(conn, &user.id)?;
        let history = ratings::history_of(conn, &user.id, HISTORY)?;
        profile(&user, played, &rated, &history)
    })
    .await?;
    public_json(req.headers(), &body)
}
