//! HTTP around the handlers: the middleware (CORS, compression and entity tags, the body
//! deadline, compressed request bodies, panics answered as 500s), the rate limits and quotas handlers call, and the answers for methods a path
//! does not take.

pub mod body_timeout;
pub mod catch_panic;
pub mod compression;
pub mod cors;
pub mod inflate;
pub mod json;
pub mod limits;
pub mod methods;
pub mod query;

/// The most bytes a request body may hold (inflated, when it came compressed).
pub const JSON_LIMIT: usize = 64 * 1024;

/// The most bytes a game record may hold at `POST /games/import` ([`IMPORT_PATH`]), inflated:
/// a long 6-player Cities & Knights game's full record is under 2 MiB.
pub const IMPORT_LIMIT: usize = 8 * 1024 * 1024;

/// The one path whose bodies may be larger than [`JSON_LIMIT`].
pub const IMPORT_PATH: &str = "/api/v1/games/import";

/// The body limit of a request to `path`: what the middleware that inflates bodies holds
/// them to before the route's own extractor sees them.
pub fn body_limit(path: &str) -> usize {
    if path == IMPORT_PATH {
        IMPORT_LIMIT
    } else {
        JSON_LIMIT
    }
}

/// Sets `response` as the `status` answer of every operation that takes a body, in the
/// OpenAPI document (once its paths are collected from the routes): what the middleware
/// around the body extractors answers.
fn document_on_bodies(openapi: &mut utoipa::openapi::OpenApi, status: &str, response: &utoipa::openapi::Response) {
    for item in openapi.paths.paths.values_mut() {
        let operations = [&mut item.post, &mut item.put, &mut item.patch, &mut item.delete];
        for operation in operations.into_iter().flatten() {
            if operation.request_body.is_some() {
                operation.responses.responses.insert(status.into(), response.clone().into());
            }
        }
    }
}
