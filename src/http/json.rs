//! Request bodies, read one way for every handler: [`Json`] is actix's `web::Json` (the body
//! limit, `Content-Type`, syntax errors: [`crate::error::json_error`]) plus two rules.
//!
//! - A body is a JSON object. Serde would read a derived struct from an array too (its fields
//!   in order: `["alice", "password"]` as credentials), which no client means and the spec
//!   does not allow: anything but an object is 400 `malformed_body`.
//! - A body that does not fit names the wrong field: the problem's `errors` hold a JSON
//!   pointer and what the field must be in plain words (`#/options/vp_target`: `must be an
//!   integer from 0 to 255 (got 300)`), not serde's message about Rust types.
//! - A whole number written with a fraction or an exponent (`3.0`, `1e2`) is the integer it
//!   equals: JSON Schema's `integer` takes it (any number whose fractional part is zero), so
//!   the server does too, where serde would refuse it for an integer field ([`whole_numbers`]).

use actix_web::{dev::Payload, web, FromRequest, HttpRequest};
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::ApiError;

/// A JSON object body read as `T` (see the module's doc).
#[derive(Debug)]
pub struct Json<T>(pub T);

impl<T> Json<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Json<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let body = web::Json::<Value>::from_request(req, payload);
        Box::pin(async move {
            let mut value = body.await?.into_inner();
            whole_numbers(&mut value);
            Ok(Json(from_value(&value)?))
        })
    }
}

/// Writes every number of `value` that is a whole number within `i64` or `u64` as that
/// integer (`3.0` as `3`, `1e2` as `100`), as JSON Schema reads them; other numbers (`2.5`,
/// `1e300`) stay as they are.
pub fn whole_numbers(value: &mut Value) {
    match value {
        Value::Number(number) if number.is_f64() => {
            let Some(float) = number.as_f64() else { return };
            // 2^63 and 2^64 as floats: the first value outside each range.
            let integer = if float.fract() != 0.0 {
                None
            } else if (-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&float) {
                Some(serde_json::Number::from(float as i64))
            } else if (0.0..18_446_744_073_709_551_616.0).contains(&float) {
                Some(serde_json::Number::from(float as u64))
            } else {
                None
            };
            if let Some(integer) = integer {
                *number = integer;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_numbers),
        Value::Object(fields) => fields.values_mut().for_each(whole_numbers),
        _ => {}
    }
}

/// Refuses a body that is not a JSON object (400 `malformed_body`).
///
/// # Errors
/// For an array, a string, a number, a boolean or null.
pub fn object(value: &Value) -> Result<&serde_json::Map<String, Value>, ApiError> {
    value.as_object().ok_or_else(|| {
        let what = kind(value);
        ApiError::bad_request("malformed_body", format!("the body must be a JSON object, not {what}"))
            .at("#", format!("must be an object (got {what})"))
    })
}

/// Reads an object body as `T`: 400 `malformed_body` naming the wrong field otherwise.
///
/// # Errors
/// When the body is not an object or does not fit `T`.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, ApiError> {
    object(value)?;
    serde_path_to_error::deserialize(value).map_err(|error| {
        let pointer = pointer_of(error.path());
        malformed(value, &pointer, &error.into_inner().to_string())
    })
}

/// The 400 `malformed_body` for serde's `message` about the body `value`, which went wrong at
/// or under `pointer` (the deepest place serde's path reached): the field named, the message
/// said in plain words.
pub fn malformed(value: &Value, pointer: &str, message: &str) -> ApiError {
    let (pointer, detail) = field_error(value, pointer, message);
    let at = if pointer == "#" { String::new() } else { format!(" at {pointer}") };
    ApiError::bad_request("malformed_body", format!("the body does not fit this request{at}: {detail}"))
        .at(pointer, detail)
}

/// Checks a query parameter against the bounds the spec gives it: 400 `invalid_query` naming
/// it (`#/limit`) when it is outside.
///
/// # Errors
/// When `value` is below `min` or above `max`.
pub fn in_range<N: PartialOrd + std::fmt::Display>(name: &str, value: N, min: N, max: N) -> Result<N, ApiError> {
    if value < min || value > max {
        let detail = if max.to_string() == i64::MAX.to_string() {
            format!("must be an integer from {min} up (got {value})")
        } else {
            format!("must be an integer from {min} to {max} (got {value})")
        };
        return Err(ApiError::bad_request("invalid_query", format!("{name} {detail}")).at(format!("#/{name}"), detail));
    }
    Ok(value)
}

/// A path of serde_path_to_error as a JSON pointer in its URI fragment form.
fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut pointer = String::from("#");
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
            Segment::Map { key } | Segment::Enum { variant: key } => push(&mut pointer, key),
            Segment::Unknown => break,
        }
    }
    pointer
}

/// Appends a key to a pointer, escaped (RFC 6901).
fn push(pointer: &mut String, key: &str) {
    pointer.push('/');
    pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
}

/// The value at a pointer of [`pointer_of`]'s form.
fn at<'a>(value: &'a Value, pointer: &str) -> Option<&'a Value> {
    value.pointer(pointer.strip_prefix('#').unwrap_or(pointer))
}

/// Where and what: serde's `message` about the value at `pointer` (or somewhere under it, when
/// serde's path stopped at an enum) turned into a field and a plain rule.
///
/// Serde's messages are of a few shapes (`missing field`, `unknown field`, `invalid type`,
/// `invalid value`, `invalid length`, `unknown variant`); each names the field or the value,
/// and the value is looked for under `pointer` when the path does not reach it (a move is an
/// internally tagged enum, which serde reads without a path).
pub fn field_error(value: &Value, pointer: &str, message: &str) -> (String, String) {
    let message = strip_position(message);
    let mut pointer = pointer.to_owned();
    if let Some(field) = quoted_after(message, "missing field ") {
        push(&mut pointer, field);
        return (pointer, "is required".into());
    }
    if let Some(field) = quoted_after(message, "unknown field ") {
        if !pointer.ends_with(&format!("/{field}")) {
            push(&mut pointer, field);
        }
        let rest = &message["unknown field ".len() + field.len() + 2..];
        let detail = if let Some(list) = rest.strip_prefix(", expected one of ") {
            format!("is not a field here (the fields are {})", list.replace('`', ""))
        } else if let Some(name) = rest.strip_prefix(", expected ") {
            format!("is not a field here (the field is {})", name.replace('`', ""))
        } else if rest.starts_with(", there are no fields") {
            "is not a field here (it takes none)".into()
        } else {
            // The engine's own: "unknown field `x`: `roll_dice` takes no fields".
            let note = rest.trim_start_matches(':').trim().replace('`', "");
            if note.is_empty() {
                "is not a field here".into()
            } else {
                format!("is not a field here ({note})")
            }
        };
        return (pointer, detail);
    }
    if let Some(name) = quoted_after(message, "unknown variant ") {
        let rest = &message["unknown variant ".len() + name.len() + 2..];
        let allowed =
            rest.strip_prefix(", expected one of ").or_else(|| rest.strip_prefix(", expected ")).unwrap_or("");
        let pointer = locate(value, &pointer, &|v| v.as_str() == Some(name));
        let detail = if allowed.is_empty() {
            format!("`{name}` is not a name this field takes")
        } else {
            format!("must be one of {} (got \"{name}\")", allowed.replace('`', ""))
        };
        return (pointer, detail);
    }
    for opening in ["invalid type: ", "invalid value: "] {
        let Some(rest) = message.strip_prefix(opening) else { continue };
        let Some((unexpected, expected)) = rest.rsplit_once(", expected ") else { continue };
        let pointer = locate(value, &pointer, &|v| matches_unexpected(v, unexpected));
        return (pointer, format!("must be {} (got {})", plain_expected(expected), plain_unexpected(unexpected)));
    }
    if let Some(rest) = message.strip_prefix("invalid length ") {
        if let Some((length, expected)) = rest.split_once(", expected ") {
            let n: Option<usize> = length.parse().ok();
            let pointer = locate(value, &pointer, &|v| v.as_array().is_some_and(|a| Some(a.len()) == n));
            return (pointer, format!("must be {} (got {length} items)", plain_expected(expected)));
        }
    }
    (pointer, message.to_owned())
}

/// The name in backquotes right after `opening` at the start of `message`.
fn quoted_after<'a>(message: &'a str, opening: &str) -> Option<&'a str> {
    let rest = message.strip_prefix(opening)?.strip_prefix('`')?;
    rest.find('`').map(|end| &rest[..end])
}

/// Drops serde_json's ` at line 1 column 22`.
fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(at) if message[at..].contains(" column ") => &message[..at],
        _ => message,
    }
}

/// The one place under `pointer` whose value passes `test`, else `pointer` itself: when serde
/// lost the path inside an enum, the wrong value is found by what serde says it was.
fn locate(value: &Value, pointer: &str, test: &dyn Fn(&Value) -> bool) -> String {
    let Some(start) = at(value, pointer) else { return pointer.to_owned() };
    if test(start) && !(start.is_object() || start.is_array()) {
        return pointer.to_owned();
    }
    let mut found = Vec::new();
    walk(start, pointer.to_owned(), test, &mut found, true);
    match found.as_slice() {
        [only] => only.clone(),
        _ => pointer.to_owned(),
    }
}

fn walk(value: &Value, pointer: String, test: &dyn Fn(&Value) -> bool, found: &mut Vec<String>, top: bool) {
    if !top && test(value) {
        found.push(pointer.clone());
    }
    match value {
        Value::Object(fields) => {
            for (key, field) in fields {
                let mut inner = pointer.clone();
                push(&mut inner, key);
                walk(field, inner, test, found, false);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                walk(item, format!("{pointer}/{index}"), test, found, false);
            }
        }
        _ => {}
    }
}

/// Tests if `value` is what serde's `Unexpected` text describes (`string "four"`, `integer
/// `300``, `floating point `1.5``, `boolean `true``, `map`, `sequence`, `null`).
fn matches_unexpected(value: &Value, unexpected: &str) -> bool {
    if let Some(text) = unexpected.strip_prefix("string ") {
        return value.as_str().is_some_and(|s| format!("{s:?}") == text);
    }
    if let Some(number) = unexpected.strip_prefix("integer `").and_then(|n| n.strip_suffix('`')) {
        return value.as_number().is_some_and(|n| n.to_string() == number);
    }
    if unexpected.starts_with("floating point") {
        return value.as_number().is_some_and(serde_json::Number::is_f64);
    }
    if let Some(flag) = unexpected.strip_prefix("boolean `").and_then(|b| b.strip_suffix('`')) {
        return value.as_bool().is_some_and(|b| b.to_string() == flag);
    }
    match unexpected {
        "map" => value.is_object(),
        "sequence" => value.is_array(),
        "null" | "unit value" => value.is_null(),
        _ => false,
    }
}

/// What a value is, in words.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Serde's `Unexpected` in JSON's words: `string "four"` stays, `integer `300`` is `300`,
/// `map` is `an object`, `sequence` `an array`.
fn plain_unexpected(unexpected: &str) -> String {
    for opening in ["integer `", "floating point `", "boolean `"] {
        if let Some(inner) = unexpected.strip_prefix(opening).and_then(|n| n.strip_suffix('`')) {
            return inner.to_owned();
        }
    }
    match unexpected {
        "map" => "an object".into(),
        "sequence" => "an array".into(),
        "unit value" => "null".into(),
        other => other.to_owned(),
    }
}

/// Serde's `expected` (Rust's types) in JSON's words.
fn plain_expected(expected: &str) -> String {
    let integer = |min: i128, max: i128| format!("an integer from {min} to {max}");
    match expected {
        "u8" => integer(0, u8::MAX.into()),
        "u16" => integer(0, u16::MAX.into()),
        "u32" => integer(0, u32::MAX.into()),
        "u64" | "usize" => integer(0, u64::MAX.into()),
        "i8" => integer(i8::MIN.into(), i8::MAX.into()),
        "i16" => integer(i16::MIN.into(), i16::MAX.into()),
        "i32" => integer(i32::MIN.into(), i32::MAX.into()),
        "i64" | "isize" => integer(i64::MIN.into(), i64::MAX.into()),
        "f32" | "f64" => "a number".into(),
        "a boolean" => "true or false".into(),
        "a string" | "a borrowed string" | "a char" => "a string".into(),
        "a sequence" | "a tuple" => "an array".into(),
        "a map" | "unit" => "an object".into(),
        "fewer elements in array" => "an array with fewer items".into(),
        other if other.starts_with("struct ") => "an object".into(),
        other if other.starts_with("internally tagged enum ") => "an object with a `type`".into(),
        other if other.starts_with("an array of length ") => {
            format!("an array of {} items", &other["an array of length ".len()..])
        }
        other if other.starts_with("a tuple of size ") => {
            format!("an array of {} items", &other["a tuple of size ".len()..])
        }
        other => other.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        target: Option<u8>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Outer {
        name: String,
        #[serde(default)]
        options: Option<Inner>,
        #[serde(default)]
        cards: Vec<u32>,
    }

    fn problem(body: Value) -> Vec<crate::error::FieldError> {
        let error = from_value::<Outer>(&body).unwrap_err();
        error.problem().errors.unwrap()
    }

    #[test]
    fn arrays_and_scalars_are_not_bodies() {
        for body in [json!(["alice", null]), json!("alice"), json!(3), json!(null)] {
            let error = from_value::<Outer>(&body).unwrap_err();
            assert_eq!(error.code(), "malformed_body");
            assert_eq!(error.problem().errors.unwrap()[0].pointer, "#");
        }
    }

    #[test]
    fn the_wrong_field_is_named_in_plain_words() {
        let errors = problem(json!({"name": "a", "options": {"target": "four"}}));
        assert_eq!(errors[0].pointer, "#/options/target");
        assert_eq!(errors[0].detail, "must be an integer from 0 to 255 (got string \"four\")");
        let errors = problem(json!({"name": "a", "options": {"target": 300}}));
        assert_eq!(errors[0].detail, "must be an integer from 0 to 255 (got 300)");
        let errors = problem(json!({"options": {}}));
        assert_eq!((errors[0].pointer.as_str(), errors[0].detail.as_str()), ("#/name", "is required"));
        let errors = problem(json!({"name": "a", "colour": 1}));
        assert_eq!(errors[0].pointer, "#/colour");
        assert!(errors[0].detail.starts_with("is not a field here"), "{errors:?}");
        let errors = problem(json!({"name": "a", "cards": [1, -2]}));
        assert_eq!(errors[0].pointer, "#/cards/1");
    }

    #[test]
    fn a_value_inside_an_enum_is_found_by_what_serde_says_it_was() {
        let body = json!({"type": "discard", "resources": [1, 0, "two", 0, 0]});
        let (pointer, detail) = field_error(&body, "#", "invalid type: string \"two\", expected u32");
        assert_eq!(pointer, "#/resources/2");
        assert_eq!(detail, "must be an integer from 0 to 4294967295 (got string \"two\")");
        let body = json!({"type": "fly_away"});
        let (pointer, _) = field_error(&body, "#", "unknown variant `fly_away`, expected one of `a`, `b`");
        assert_eq!(pointer, "#/type");
        let (pointer, detail) = field_error(&json!({}), "#", "missing field `type` at line 1 column 2");
        assert_eq!((pointer.as_str(), detail.as_str()), ("#/type", "is required"));
    }
}
