//! Query strings, read one way for every handler: [`Query`] is actix's `web::Query` with the
//! wrong parameter named in the problem's `errors` (`#/limit`: `must be a whole number (got
//! "abc")`), as [`crate::http::json`] names a body's fields.

use actix_web::{dev::Payload, FromRequest, HttpRequest};
use serde::de::DeserializeOwned;

use crate::error::ApiError;

/// A query string read as `T`; 400 `invalid_query` naming the parameter otherwise.
#[derive(Debug)]
pub struct Query<T>(pub T);

impl<T> Query<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Query<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned> FromRequest for Query<T> {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(parse(req.query_string()).map(Query))
    }
}

/// Reads a query string as `T`.
///
/// # Errors
/// 400 `invalid_query` naming the parameter that does not fit.
pub fn parse<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    let deserializer = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
    serde_path_to_error::deserialize(deserializer).map_err(|error| {
        let name = error.path().iter().find_map(|segment| match segment {
            serde_path_to_error::Segment::Map { key } => Some(key.clone()),
            _ => None,
        });
        let message = error.into_inner().to_string();
        let given = name.as_deref().and_then(|name| {
            form_urlencoded::parse(query.as_bytes()).find(|(key, _)| key == name).map(|(_, value)| value.into_owned())
        });
        let detail = plain(&message, given.as_deref());
        match name {
            Some(name) => {
                ApiError::bad_request("invalid_query", format!("{name} {detail}")).at(format!("#/{name}"), detail)
            }
            None => ApiError::bad_request("invalid_query", message),
        }
    })
}

/// The parse errors of a parameter's value in plain words.
fn plain(message: &str, given: Option<&str>) -> String {
    let got = given.map_or(String::new(), |value| format!(" (got \"{value}\")"));
    let rule = match message {
        "invalid digit found in string" | "cannot parse integer from empty string" => "must be a whole number",
        "number too large to fit in target type" => "is too large",
        "number too small to fit in target type" => "is too small",
        "provided string was not `true` or `false`" => "must be true or false",
        other => {
            if let Some(rest) = other.strip_prefix("unknown variant `") {
                let allowed = rest.split_once(", expected ").map_or("", |(_, allowed)| allowed);
                let allowed = allowed.trim_start_matches("one of ").replace('`', "");
                return format!("must be one of {allowed}{got}");
            }
            return other.to_owned();
        }
    };
    format!("{rule}{got}")
}
