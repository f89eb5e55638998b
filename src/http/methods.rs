//! Which methods each documented path takes, read from the OpenAPI document once: a request
//! for a path the API has, with a method it does not take there, is a `405` naming the
//! methods in `Allow` (RFC 9110 15.5.6) instead of a `404` that says the path is unknown.

use std::sync::OnceLock;

use actix_web::{http::header, HttpRequest, HttpResponse, ResponseError};
use utoipa::openapi::OpenApi;

use crate::error::ApiError;

/// One documented path, as `/api/v1/games/{game_id}` splits into segments.
#[derive(Debug)]
struct Route {
    /// `None` for a `{parameter}` segment, which matches any one segment.
    segments: Vec<Option<String>>,
    /// Upper case, in the document's order.
    methods: Vec<&'static str>,
}

impl Route {
    fn matches(&self, path: &str) -> bool {
        let mut parts = path.trim_start_matches('/').split('/');
        let same = self.segments.iter().all(|segment| match (segment, parts.next()) {
            (Some(literal), Some(part)) => literal == part,
            (None, Some(part)) => !part.is_empty(),
            (_, None) => false,
        });
        same && parts.next().is_none()
    }
}

/// The documented paths, learned once per process ([`learn`]).
static ROUTES: OnceLock<Vec<Route>> = OnceLock::new();

fn routes() -> &'static [Route] {
    ROUTES.get().map_or(&[], Vec::as_slice)
}

/// Learns the documented paths and their methods from the API's document (`document` is
/// called once per process: [`crate::startup`] passes `crate::api::openapi`). Until then no
/// path is known.
pub fn learn(document: impl FnOnce() -> OpenApi) {
    let _ = ROUTES.get_or_init(|| {
        document()
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let segments = path
                    .trim_start_matches('/')
                    .split('/')
                    .map(|s| (!(s.starts_with('{') && s.ends_with('}'))).then(|| s.to_owned()))
                    .collect();
                let methods = [
                    ("GET", item.get.is_some()),
                    ("POST", item.post.is_some()),
                    ("PUT", item.put.is_some()),
                    ("PATCH", item.patch.is_some()),
                    ("DELETE", item.delete.is_some()),
                ]
                .into_iter()
                .filter_map(|(method, documented)| documented.then_some(method))
                .collect();
                Route { segments, methods }
            })
            .collect()
    });
}

/// The methods the API takes on `path`, if it has the path.
pub fn allowed(path: &str) -> Option<Vec<&'static str>> {
    let mut methods: Vec<&'static str> =
        routes().iter().filter(|route| route.matches(path)).flat_map(|route| route.methods.iter().copied()).collect();
    methods.dedup();
    (!methods.is_empty()).then_some(methods)
}

/// The methods of the API's `path` as `Allow` lists them, if the API has the path: the routed
/// ones, with HEAD for a GET and OPTIONS ([`crate::http::cors`] answers it on every path).
pub fn allow_header(path: &str) -> Option<String> {
    let mut methods = allowed(path)?;
    if methods.contains(&"GET") {
        methods.push("HEAD");
    }
    methods.push("OPTIONS");
    Some(methods.join(", "))
}

/// The default service: a known path with another method is a 405 with `Allow`, anything
/// else a 404 problem.
pub async fn unrouted(req: HttpRequest) -> HttpResponse {
    match allowed(req.path()) {
        Some(methods) => {
            let allow = allow_header(req.path()).unwrap_or_else(|| methods.join(", "));
            let detail = format!("{} {} is not served: this path takes {allow}", req.method(), req.path());
            let error = ApiError::Http {
                status: actix_web::http::StatusCode::METHOD_NOT_ALLOWED,
                code: "method_not_allowed",
                detail,
            };
            let mut response = error.error_response();
            if let Ok(value) = header::HeaderValue::from_str(&allow) {
                response.headers_mut().insert(header::ALLOW, value);
            }
            response
        }
        None => crate::error::not_found(req).await,
    }
}
