//! HTTP around the handlers: the middleware (CORS, compression and entity tags, the body
//! deadline, compressed request bodies, panics answered as 500s), the rate limits and quotas handlers call, and the answers for methods a path
//! does not take.

pub mod body_timeout;
pub mod catch_panic;
pub mod compression;
pub mod cors;
pub mod inflate;
pub mod limits;
pub mod methods;

/// The most bytes a request body may hold (inflated, when it came compressed).
pub const JSON_LIMIT: usize = 64 * 1024;
