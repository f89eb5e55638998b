//! Responses that many operations share, declared once as OpenAPI response components so each
//! operation names them (`response = RateLimited`) instead of repeating their headers.

use utoipa::{
    openapi::{
        header::HeaderBuilder,
        schema::{ObjectBuilder, Type},
        Content, Ref, RefOr, Response, ResponseBuilder,
    },
    ToResponse,
};

/// `429 rate_limited`: a rate limit of [`crate::http::limits`] was hit.
pub struct RateLimited;

/// `503 server_busy`: every password check of [`crate::auth::hashing`] is busy.
pub struct ServerBusy;

fn problem_with_headers(description: &str, headers: &[(&str, Type, &str)]) -> Response {
    let content = Content::new(Some(Ref::from_schema_name("Problem")));
    let mut response = ResponseBuilder::new().description(description).content("application/problem+json", content);
    for (name, kind, about) in headers {
        let schema = ObjectBuilder::new().schema_type(kind.clone());
        response = response.header(*name, HeaderBuilder::new().schema(schema).description(Some(*about)).build());
    }
    response.build()
}

impl<'r> ToResponse<'r> for RateLimited {
    fn response() -> (&'r str, RefOr<Response>) {
        let headers = [
            ("Retry-After", Type::Integer, "Seconds to wait"),
            ("RateLimit-Limit", Type::Integer, "The limit's burst"),
            ("RateLimit-Remaining", Type::Integer, "Requests left now (0)"),
            ("RateLimit-Reset", Type::Integer, "Seconds until a request is allowed again"),
            ("RateLimit-Policy", Type::String, "`<burst>;w=<seconds to refill it>`"),
        ];
        let description = "Too many requests (`rate_limited`): wait `Retry-After` seconds. The `RateLimit-*` \
                           headers describe the limit that was hit";
        ("RateLimited", problem_with_headers(description, &headers).into())
    }
}

impl<'r> ToResponse<'r> for ServerBusy {
    fn response() -> (&'r str, RefOr<Response>) {
        let description = "Every password check is busy (`server_busy`): retry after `Retry-After` seconds";
        ("ServerBusy", problem_with_headers(description, &[("Retry-After", Type::Integer, "Seconds to wait")]).into())
    }
}
