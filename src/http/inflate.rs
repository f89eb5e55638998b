//! Compressed request bodies, inflated as a stream that stops at the body limit.
//!
//! actix-web's own decoder inflates each arriving chunk whole before any extractor sees it,
//! so a 64 kB gzip body that inflates to 63 MB cost 63 MB before it was refused (issue 32:
//! 16 such requests held a gigabyte). Here a request with `Content-Encoding: gzip`
//! (`x-gzip`) or `deflate` gets its payload replaced by one that inflates a piece at a time
//! and fails with [`PayloadError::Overflow`] (413 `payload_too_large`) as soon as the inflated
//! bytes pass [`BodyLimit`]: no request costs more than its limit plus one piece of output.
//! The header is removed, so the extractors do not inflate again. Any other coding
//! (`br`, `zstd`, a list of several) is 415 `unsupported_content_encoding`, with
//! `Accept-Encoding` naming the ones taken (RFC 9110 15.5.16); `identity` is as none.

use std::{
    io::{self, Write},
    pin::Pin,
    task::{Context, Poll},
};

use actix_web::{
    body::{EitherBody, MessageBody},
    dev::{Payload, ServiceRequest, ServiceResponse},
    error::PayloadError,
    http::{
        header::{self, HeaderValue},
        StatusCode,
    },
    middleware::Next,
    web::Bytes,
    HttpMessage, HttpResponse, ResponseError,
};
use flate2::write::{GzDecoder, ZlibDecoder};
use futures_util::{Stream, StreamExt};

use crate::error::{ApiError, BodyLimit};

/// The request codings this server inflates.
const ACCEPTED: &str = "gzip, deflate";

/// The codings a request can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Coding {
    Gzip,
    Deflate,
}

/// What `Content-Encoding` asks: `Ok(None)` for no coding, `Err(())` for one not taken.
fn coding_of(value: &HeaderValue) -> Result<Option<Coding>, ()> {
    let value = value.to_str().map_err(|_| ())?;
    let mut codings = value.split(',').map(str::trim).filter(|c| !c.is_empty() && !c.eq_ignore_ascii_case("identity"));
    let coding = match codings.next() {
        None => return Ok(None),
        Some(c) if c.eq_ignore_ascii_case("gzip") || c.eq_ignore_ascii_case("x-gzip") => Coding::Gzip,
        Some(c) if c.eq_ignore_ascii_case("deflate") => Coding::Deflate,
        Some(_) => return Err(()),
    };
    // Stacked codings are legal HTTP but no client sends them for a JSON body.
    if codings.next().is_some() {
        return Err(());
    }
    Ok(Some(coding))
}

/// Where the decoder writes: the output of the current piece, refusing past the limit.
#[derive(Debug)]
struct Capped {
    piece: Vec<u8>,
    total: usize,
    limit: usize,
    overflowed: bool,
}

impl Write for Capped {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.total + buf.len() > self.limit {
            self.overflowed = true;
            return Err(io::Error::other("the inflated body passes the limit"));
        }
        self.total += buf.len();
        self.piece.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

enum Decoder {
    Gzip(GzDecoder<Capped>),
    Deflate(ZlibDecoder<Capped>),
}

impl Decoder {
    fn new(coding: Coding, limit: usize) -> Self {
        let out = Capped { piece: Vec::new(), total: 0, limit, overflowed: false };
        match coding {
            Coding::Gzip => Self::Gzip(GzDecoder::new(out)),
            Coding::Deflate => Self::Deflate(ZlibDecoder::new(out)),
        }
    }

    fn out(&mut self) -> &mut Capped {
        match self {
            Self::Gzip(d) => d.get_mut(),
            Self::Deflate(d) => d.get_mut(),
        }
    }

    fn write_all(&mut self, input: &[u8]) -> io::Result<()> {
        match self {
            Self::Gzip(d) => d.write_all(input),
            Self::Deflate(d) => d.write_all(input),
        }
    }

    fn finish(&mut self) -> io::Result<()> {
        match self {
            Self::Gzip(d) => d.try_finish(),
            Self::Deflate(d) => d.try_finish(),
        }
    }

    /// Feeds `input` (or, with `None`, the end) and takes the bytes it inflated to.
    fn feed(&mut self, input: Option<&[u8]>) -> Result<Bytes, PayloadError> {
        let fed = match input {
            Some(input) => self.write_all(input),
            None => self.finish(),
        };
        let out = self.out();
        let piece = Bytes::from(std::mem::take(&mut out.piece));
        match fed {
            Ok(()) => Ok(piece),
            Err(_) if out.overflowed => Err(PayloadError::Overflow),
            Err(e) => Err(PayloadError::Io(io::Error::new(io::ErrorKind::InvalidData, e))),
        }
    }
}

/// The inflating payload: each compressed chunk in, its inflated bytes out, until the end,
/// a corrupt stream or the limit; nothing is read after a failure.
struct Inflating {
    inner: Payload,
    decoder: Decoder,
    done: bool,
}

impl Stream for Inflating {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            if self.done {
                return Poll::Ready(None);
            }
            let input = match self.inner.poll_next_unpin(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Err(e))) => {
                    self.done = true;
                    return Poll::Ready(Some(Err(e)));
                }
                Poll::Ready(Some(Ok(chunk))) => Some(chunk),
                Poll::Ready(None) => None,
            };
            let end = input.is_none();
            let fed = self.decoder.feed(input.as_deref());
            self.done = end || fed.is_err();
            match fed {
                Ok(piece) if piece.is_empty() => continue,
                item => return Poll::Ready(Some(item)),
            }
        }
    }
}

/// The middleware: inflates `gzip` and `deflate` request bodies within the body limit, and
/// refuses other codings.
///
/// # Errors
/// The inner service's.
pub async fn inflate(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let Some(value) = req.headers().get(header::CONTENT_ENCODING) else {
        return Ok(next.call(req).await?.map_into_left_body());
    };
    let coding = match coding_of(value) {
        Ok(coding) => coding,
        Err(()) => {
            let detail = format!(
                "a request body may be sent with Content-Encoding {ACCEPTED} or none, not {:?}",
                String::from_utf8_lossy(value.as_bytes())
            );
            let mut response: HttpResponse = ApiError::Http {
                status: StatusCode::UNSUPPORTED_MEDIA_TYPE,
                code: "unsupported_content_encoding",
                detail,
            }
            .error_response();
            response.headers_mut().insert(header::ACCEPT_ENCODING, HeaderValue::from_static(ACCEPTED));
            return Ok(req.into_response(response).map_into_right_body());
        }
    };
    let headers = req.headers_mut();
    headers.remove(header::CONTENT_ENCODING);
    if let Some(coding) = coding {
        // The length was the compressed body's; the extractors check the limit as they read.
        headers.remove(header::CONTENT_LENGTH);
        // The route's limit: the route is not resolved yet, so its own data is not there.
        let limit = req.app_data::<BodyLimit>().map_or(super::JSON_LIMIT, |l| l.0).max(super::body_limit(req.path()));
        let inflating = Inflating { inner: req.take_payload(), decoder: Decoder::new(coding, limit), done: false };
        let stream: Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>> = Box::pin(inflating);
        req.set_payload(Payload::from(stream));
    }
    Ok(next.call(req).await?.map_into_left_body())
}

/// Documents the 415 of every operation that takes a body with both of its causes (each
/// handler documents the one for a body that is not JSON).
pub fn document(openapi: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::{header::HeaderBuilder, ContentBuilder, ObjectBuilder, Ref, ResponseBuilder, Type};
    let description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`); \
                       or it is compressed with a coding other than gzip or deflate \
                       (`unsupported_content_encoding`, with `Accept-Encoding` naming those taken)";
    let accepted = HeaderBuilder::new()
        .schema(ObjectBuilder::new().schema_type(Type::String))
        .description(Some("The request codings taken: `gzip, deflate`"))
        .build();
    let response = ResponseBuilder::new()
        .description(description)
        .header("Accept-Encoding", accepted)
        .content(
            "application/problem+json",
            ContentBuilder::new().schema(Some(Ref::from_schema_name("Problem"))).build(),
        )
        .build();
    super::document_on_bodies(openapi, "415", &response);
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::{write::GzEncoder, Compression};

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    /// Feeds `compressed` in chunks of `chunk` bytes; returns the pieces and the first error.
    fn inflate_all(
        coding: Coding,
        compressed: &[u8],
        chunk: usize,
        limit: usize,
    ) -> (Vec<Bytes>, Option<PayloadError>, usize) {
        let mut decoder = Decoder::new(coding, limit);
        let mut pieces = Vec::new();
        let mut fed = 0;
        for input in compressed.chunks(chunk).map(Some).chain(std::iter::once(None)) {
            fed += input.map_or(0, <[u8]>::len);
            match decoder.feed(input) {
                Ok(piece) => pieces.push(piece),
                Err(e) => return (pieces, Some(e), fed),
            }
        }
        (pieces, None, fed)
    }

    #[test]
    fn codings_named_in_the_header() {
        let coding = |v: &'static str| coding_of(&HeaderValue::from_static(v));
        assert_eq!(coding("gzip"), Ok(Some(Coding::Gzip)));
        assert_eq!(coding("x-gzip"), Ok(Some(Coding::Gzip)));
        assert_eq!(coding(" GZIP "), Ok(Some(Coding::Gzip)));
        assert_eq!(coding("deflate"), Ok(Some(Coding::Deflate)));
        assert_eq!(coding("identity"), Ok(None));
        assert_eq!(coding("identity, gzip"), Ok(Some(Coding::Gzip)));
        assert_eq!(coding(""), Ok(None));
        assert_eq!(coding("br"), Err(()));
        assert_eq!(coding("zstd"), Err(()));
        assert_eq!(coding("gzip, gzip"), Err(()));
        assert_eq!(coding("deflate, br"), Err(()));
    }

    #[test]
    fn a_body_inflates_to_what_was_compressed() {
        let body = br#"{"username":"ada","password":"correct horse battery"}"#.repeat(20);
        let (pieces, error, _) = inflate_all(Coding::Gzip, &gzip(&body), 7, 64 * 1024);
        assert!(error.is_none());
        assert_eq!(pieces.concat(), body);
    }

    /// Issue 32: a 64 kB bomb that inflates to 63 MB stops at the limit, having produced no
    /// more than the limit, and reads no further input once it has passed it.
    #[test]
    fn a_bomb_stops_at_the_limit() {
        let bomb = gzip(&vec![b' '; 63 << 20]);
        assert!(bomb.len() < 128 << 10, "the bomb is small: {}", bomb.len());
        let limit = 64 * 1024;
        let (pieces, error, fed) = inflate_all(Coding::Gzip, &bomb, 16 * 1024, limit);
        assert!(matches!(error, Some(PayloadError::Overflow)), "{error:?}");
        let inflated: usize = pieces.iter().map(Bytes::len).sum();
        assert!(inflated <= limit, "inflated {inflated} bytes");
        assert!(fed <= 16 * 1024, "read {fed} compressed bytes after the limit was passed");
    }

    #[test]
    fn a_corrupt_or_cut_body_is_invalid_data() {
        let mut compressed = gzip(b"{\"a\":1}");
        let last = compressed.len() - 1;
        compressed[last] ^= 0xff;
        let (_, error, _) = inflate_all(Coding::Gzip, &compressed, 4, 1024);
        assert!(matches!(error, Some(PayloadError::Io(_))), "{error:?}");
        let cut = gzip(&[b'x'; 500]);
        let (_, error, _) = inflate_all(Coding::Gzip, &cut[..cut.len() / 2], 4, 1024);
        assert!(matches!(error, Some(PayloadError::Io(_))), "{error:?}");
        let (_, error, _) = inflate_all(Coding::Deflate, b"not zlib at all", 4, 1024);
        assert!(matches!(error, Some(PayloadError::Io(_))), "{error:?}");
    }
}
