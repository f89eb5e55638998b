//! Browsers: CORS for the origins in `CATAN_CORS_ORIGINS`, and `OPTIONS` on every path of the
//! API.
//!
//! With no origin configured (the default) the server sends no CORS header at all: only pages
//! of its own origin may call it from a browser. With origins configured, a request whose
//! `Origin` is one of them gets `Access-Control-Allow-Origin` (that origin, or `*` when the
//! list is `*`) and the response headers a client reads in `Access-Control-Expose-Headers`;
//! its preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered 204 with the
//! path's methods, the request headers the API reads, and `Access-Control-Max-Age`. No
//! credentials mode: the API authenticates with `Authorization`, never with cookies.
//!
//! `OPTIONS` on any path of the API is a 204 with `Allow` (never a 405), whatever the origin.

use std::time::Duration;

use actix_web::{
    body::{EitherBody, MessageBody},
    dev::{ServiceRequest, ServiceResponse},
    http::{
        header::{self, HeaderMap, HeaderValue},
        Method,
    },
    middleware::Next,
    web, HttpResponse,
};

use super::methods;

/// The request headers a browser may send (`Access-Control-Allow-Headers`).
pub const ALLOWED_HEADERS: &str =
    "Authorization, Content-Type, If-Match, If-None-Match, Idempotency-Key, Last-Event-ID";
/// The response headers a browser script may read (`Access-Control-Expose-Headers`).
pub const EXPOSED_HEADERS: &str = "ETag, Location, Retry-After, RateLimit-Limit, RateLimit-Remaining, \
     RateLimit-Reset, RateLimit-Policy, Idempotent-Replayed";
/// How long a browser may cache a preflight answer, in seconds (browsers cap it: Chromium at
/// 2 hours).
pub const MAX_AGE_SECONDS: u32 = 7200;

/// What browsers may do: CORS origins (`CATAN_CORS_ORIGINS`) and the lifetime of stream
/// tickets (`CATAN_STREAM_TICKET_SECONDS`, [`crate::auth::stream_tickets`]).
#[derive(Debug, Clone)]
pub struct BrowserConfig {
    /// Origins allowed to call the API from a browser (`https://app.example.com`), or `*`
    /// for any. Empty: none but the server's own.
    pub cors_origins: Vec<String>,
    /// How long a stream ticket may wait before opening a stream.
    pub stream_ticket_lifetime: Duration,
}

impl Default for BrowserConfig {
    fn default() -> Self {
        BrowserConfig {
            cors_origins: Vec::new(),
            stream_ticket_lifetime: crate::auth::stream_tickets::DEFAULT_LIFETIME,
        }
    }
}

impl BrowserConfig {
    /// Reads `CATAN_CORS_ORIGINS` (comma-separated) and `CATAN_STREAM_TICKET_SECONDS`.
    pub fn from_env() -> BrowserConfig {
        let defaults = BrowserConfig::default();
        BrowserConfig {
            cors_origins: std::env::var("CATAN_CORS_ORIGINS")
                .map(|list| list.split(',').map(str::trim).filter(|o| !o.is_empty()).map(str::to_owned).collect())
                .unwrap_or_default(),
            stream_ticket_lifetime: std::env::var("CATAN_STREAM_TICKET_SECONDS")
                .ok()
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|seconds| *seconds > 0)
                .map_or(defaults.stream_ticket_lifetime, Duration::from_secs),
        }
    }
}

/// The allowed origins, normalised.
#[derive(Debug, Default)]
pub struct Cors {
    any: bool,
    /// Lower case, without a trailing `/`.
    origins: Vec<String>,
}

fn normalise(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

impl Cors {
    pub fn new(origins: &[String]) -> Cors {
        Cors {
            any: origins.iter().any(|o| o.trim() == "*"),
            origins: origins.iter().filter(|o| o.trim() != "*").map(|o| normalise(o)).collect(),
        }
    }

    /// Whether any origin is configured (then responses vary by `Origin`).
    pub fn enabled(&self) -> bool {
        self.any || !self.origins.is_empty()
    }

    /// The `Access-Control-Allow-Origin` value for a request from `origin`, if it is allowed.
    fn allow_origin(&self, origin: Option<&HeaderValue>) -> Option<HeaderValue> {
        let origin = origin?;
        if self.any {
            return Some(HeaderValue::from_static("*"));
        }
        let normal = normalise(origin.to_str().ok()?);
        self.origins.contains(&normal).then(|| origin.clone())
    }
}

fn append_vary(headers: &mut HeaderMap, value: &'static str) {
    headers.append(header::VARY, HeaderValue::from_static(value));
}

/// The middleware: answers `OPTIONS` and preflights, and adds the CORS headers to responses
/// for allowed origins.
///
/// # Errors
/// Those of the wrapped service.
pub async fn cors(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let cors = req.app_data::<web::Data<Cors>>().map(|cors| cors.clone().into_inner()).unwrap_or_default();
    let allow_origin = cors.allow_origin(req.headers().get(header::ORIGIN));
    if req.method() == Method::OPTIONS {
        if let Some(allow) = methods::allow_header(req.path()) {
            let mut response = HttpResponse::NoContent();
            response.insert_header((header::ALLOW, allow.clone()));
            let preflight = req.headers().contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
            if let (Some(origin), true) = (&allow_origin, preflight) {
                response
                    .insert_header((header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone()))
                    .insert_header((header::ACCESS_CONTROL_ALLOW_METHODS, allow))
                    .insert_header((header::ACCESS_CONTROL_ALLOW_HEADERS, ALLOWED_HEADERS))
                    .insert_header((header::ACCESS_CONTROL_MAX_AGE, MAX_AGE_SECONDS.to_string()));
            }
            let mut response = response.finish();
            if cors.enabled() {
                append_vary(response.headers_mut(), "Origin");
                append_vary(response.headers_mut(), "Access-Control-Request-Method");
                append_vary(response.headers_mut(), "Access-Control-Request-Headers");
            }
            return Ok(req.into_response(response).map_into_right_body());
        }
    }
    let mut response = next.call(req).await?;
    if cors.enabled() {
        let headers = response.headers_mut();
        if let Some(origin) = allow_origin {
            headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
            headers.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, HeaderValue::from_static(EXPOSED_HEADERS));
        }
        append_vary(headers, "Origin");
    }
    Ok(response.map_into_left_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_match_exactly_in_any_case_without_a_trailing_slash() {
        let cors = Cors::new(&["https://app.example.com/".into(), "http://localhost:5173".into()]);
        let allowed = |origin: &str| cors.allow_origin(Some(&HeaderValue::from_str(origin).unwrap()));
        assert_eq!(allowed("https://app.example.com").unwrap(), "https://app.example.com");
        assert_eq!(allowed("HTTPS://App.Example.com").unwrap(), "HTTPS://App.Example.com");
        assert!(allowed("http://localhost:5173").is_some());
        assert!(allowed("http://localhost:5174").is_none());
        assert!(allowed("https://app.example.com.evil.test").is_none());
        assert!(allowed("null").is_none());
        assert!(cors.allow_origin(None).is_none());
        assert!(!Cors::new(&[]).enabled());
        let any = Cors::new(&["*".into()]);
        assert_eq!(any.allow_origin(Some(&HeaderValue::from_static("https://x.test"))).unwrap(), "*");
    }
}
