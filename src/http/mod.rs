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
