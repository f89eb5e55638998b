//! HTTP around the handlers: the middleware (CORS, compression and entity tags, the body
//! deadline), the rate limits and quotas handlers call, and the answers for methods a path
//! does not take.

pub mod body_timeout;
pub mod compression;
pub mod cors;
pub mod limits;
pub mod methods;
