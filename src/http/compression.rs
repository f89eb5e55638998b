//! HTTP hygiene around the handlers: compressed responses, entity tags that stay true of
//! what was sent, and `HEAD` for every `GET`.
//!
//! - Responses are compressed (gzip or deflate, as `Accept-Encoding` prefers) by actix-web's
//!   `Compress`, which runs inside this middleware. The event stream opts out
//!   ([`IDENTITY`]): it is served as written, so that each event leaves at once and no proxy
//!   holds a compressed block back.
//! - A compressed body is other bytes than the identity body, so its strong entity tag
//!   becomes weak: `W/"v12"` (RFC 9110 8.8.1; what nginx does too). `If-None-Match` compares
//!   weakly, so either form matches; a 304 carries the tag the 200 would have had.
//!   `If-Match` on moves takes the version in either form.
//! - `HEAD` is served by the `GET` handler, without the body (an endless stream is dropped
//!   at once rather than run for nobody).

use actix_web::{
    body::{BodySize, BodyStream, EitherBody, MessageBody},
    dev::{ServiceRequest, ServiceResponse},
    http::{
        header::{self, AcceptEncoding, Encoding, HeaderMap, HeaderValue},
        Method, StatusCode,
    },
    middleware::Next,
    web::Bytes,
    HttpMessage,
};

/// What a handler sets as `Content-Encoding` to have its body sent uncompressed; the header
/// is removed before the response leaves.
pub const IDENTITY: &str = "identity";

/// The encodings `Compress` offers (`compress-gzip`: gzip and deflate).
const OFFERED: [Encoding; 3] = [Encoding::identity(), Encoding::gzip(), Encoding::deflate()];

/// Tests if a response to a request that accepts `accept` gets compressed (when its body may
/// be), as `Compress` decides.
fn compresses(accept: Option<AcceptEncoding>) -> bool {
    accept.and_then(|accept| accept.negotiate(OFFERED.iter())).is_some_and(|chosen| chosen != Encoding::identity())
}

/// `"v3"` → `W/"v3"`; a weak tag stays as it is.
fn weaken(headers: &mut HeaderMap) {
    let Some(tag) = headers.get(header::ETAG).and_then(|v| v.to_str().ok()) else { return };
    if tag.starts_with("W/") {
        return;
    }
    if let Ok(weak) = HeaderValue::from_str(&format!("W/{tag}")) {
        headers.insert(header::ETAG, weak);
    }
}

/// The middleware; wrap it around `Compress`.
///
/// # Errors
/// Those of the wrapped service.
pub async fn hygiene(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let head = req.method() == Method::HEAD;
    if head {
        // Routed and served as the GET; the HTTP/1 codec still sends no body for a HEAD.
        req.head_mut().method = Method::GET;
    }
    let compresses = compresses(req.get_header::<AcceptEncoding>());
    let mut response = next.call(req).await?;
    let status = response.status();
    let headers = response.headers_mut();
    match headers.get(header::CONTENT_ENCODING) {
        Some(value) if value == IDENTITY => {
            headers.remove(header::CONTENT_ENCODING);
        }
        Some(_) => weaken(headers),
        None if status == StatusCode::NOT_MODIFIED && compresses => weaken(headers),
        None => {}
    }
    if head && response.response().body().size() == BodySize::Stream {
        let nothing = futures_util::stream::empty::<Result<Bytes, std::convert::Infallible>>();
        return Ok(response.map_body(|_, _| BodyStream::new(nothing)).map_into_boxed_body().map_into_right_body());
    }
    Ok(response.map_into_left_body())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepting(value: &str) -> Option<AcceptEncoding> {
        actix_web::test::TestRequest::default()
            .insert_header((header::ACCEPT_ENCODING, value))
            .to_http_request()
            .get_header::<AcceptEncoding>()
    }

    #[test]
    fn compression_follows_accept_encoding() {
        assert!(compresses(accepting("gzip")));
        assert!(compresses(accepting("gzip, deflate, br")));
        assert!(compresses(accepting("deflate")));
        assert!(!compresses(accepting("br")));
        assert!(!compresses(accepting("identity")));
        assert!(!compresses(accepting("gzip;q=0")));
        assert!(!compresses(None));
    }

    #[test]
    fn strong_tags_become_weak_once() {
        let mut headers = HeaderMap::new();
        headers.insert(header::ETAG, HeaderValue::from_static("\"v3\""));
        weaken(&mut headers);
        assert_eq!(headers.get(header::ETAG).unwrap(), "W/\"v3\"");
        weaken(&mut headers);
        assert_eq!(headers.get(header::ETAG).unwrap(), "W/\"v3\"");
    }
}
