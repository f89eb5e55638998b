//! Which methods each documented path takes, read from the OpenAPI document once: a request
//! for a path the API has, with a method it does not take there, is a `405` naming the
//! methods in `Allow` (RFC 9110 15.5.6) instead of a `404` that says the path is unknown.

use std::sync::OnceLock;

use actix_web::{http::header, HttpRequest, HttpResponse, ResponseError};

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

fn routes() -> &'static [Route] {
    static ROUTES: OnceLock<Vec<Route>> = OnceLock::new();
    ROUTES.get_or_init(|| {
        super::openapi()
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
    })
}

/// The methods the API takes on `path`, if it has the path.
pub fn allowed(path: &str) -> Option<Vec<&'static str>> {
    let mut methods: Vec<&'static str> =
        routes().iter().filter(|route| route.matches(path)).flat_map(|route| route.methods.iter().copied()).collect();
    methods.dedup();
    (!methods.is_empty()).then_some(methods)
}

/// The default service: a known path with another method is a 405 with `Allow`, anything
/// else a 404 problem.
pub async fn unrouted(req: HttpRequest) -> HttpResponse {
    match allowed(req.path()) {
        Some(methods) => {
            // With HEAD for a GET and OPTIONS ([`crate::cors`]), which every path answers.
            let allow = crate::cors::allow(req.path()).unwrap_or_else(|| methods.join(", "));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_paths_answer_their_methods_and_parameters_match_one_segment() {
        assert_eq!(allowed("/api/v1/games"), Some(vec!["GET", "POST"]));
        let id = "0190f0a1-0000-7000-8000-000000000000";
        assert_eq!(allowed(&format!("/api/v1/games/{id}")), Some(vec!["GET"]));
        assert_eq!(allowed(&format!("/api/v1/games/{id}/moves")), Some(vec!["GET", "POST"]));
        assert_eq!(allowed("/api/v1/tokens/current"), Some(vec!["DELETE"]));
        assert_eq!(allowed("/api/v1/nothing"), None);
        assert_eq!(allowed(&format!("/api/v1/games/{id}/moves/extra")), None);
        assert_eq!(allowed("/api/v1/games//moves"), None);
    }
}
