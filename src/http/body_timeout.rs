//! A deadline for request bodies: a client that sends a request's head and then stalls in
//! the middle of its body is answered 408 `request_timeout` (and the connection closed) once
//! [`BodyTimeout`] has passed since the head arrived, instead of holding a connection and a
//! worker's attention forever. actix's own `client_request_timeout` covers only the head; the
//! body is read later, by the extractors, so the deadline wraps the body stream here.

use std::{
    cell::Cell,
    future::Future,
    pin::Pin,
    rc::Rc,
    task::{Context, Poll},
    time::Duration,
};

use actix_web::{
    body::{EitherBody, MessageBody},
    dev::{Payload, ServiceRequest, ServiceResponse},
    error::PayloadError,
    http::header,
    middleware::Next,
    web::Bytes,
    HttpMessage, ResponseError,
};
use futures_util::{Stream, StreamExt};

use crate::error::ApiError;

/// How long a request's body may take to arrive, counted from its head (app data).
#[derive(Debug, Clone, Copy)]
pub struct BodyTimeout(pub Duration);

/// A body stream that fails once its deadline has passed, and says so in `expired`.
struct Deadline {
    inner: Payload,
    sleep: Pin<Box<tokio::time::Sleep>>,
    expired: Rc<Cell<bool>>,
}

impl Stream for Deadline {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if let Poll::Ready(item) = self.inner.poll_next_unpin(cx) {
            return Poll::Ready(item);
        }
        if self.sleep.as_mut().poll(cx).is_ready() {
            self.expired.set(true);
            let timed_out = std::io::Error::new(std::io::ErrorKind::TimedOut, "the request body stalled");
            return Poll::Ready(Some(Err(PayloadError::Io(timed_out))));
        }
        Poll::Pending
    }
}

/// Tests if the request says it has a body.
fn has_body(req: &ServiceRequest) -> bool {
    let headers = req.headers();
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().parse::<u64>().map_or(true, |n| n > 0))
}

/// The middleware: puts a deadline on the body of every request that has one, and answers
/// 408 when the body did not arrive in time (whichever extractor was reading it).
///
/// # Errors
/// The inner service's.
pub async fn limit(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let timeout = req.app_data::<BodyTimeout>().copied();
    let expired = Rc::new(Cell::new(false));
    if let (Some(BodyTimeout(timeout)), true) = (timeout, has_body(&req)) {
        let inner = req.take_payload();
        let deadline = Deadline { inner, sleep: Box::pin(tokio::time::sleep(timeout)), expired: Rc::clone(&expired) };
        let stream: Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>> = Box::pin(deadline);
        req.set_payload(Payload::from(stream));
    }
    let res = next.call(req).await?;
    if !expired.get() {
        return Ok(res.map_into_left_body());
    }
    let detail = "the request body did not arrive in time; send it whole, promptly".to_owned();
    let mut response =
        ApiError::Http { status: actix_web::http::StatusCode::REQUEST_TIMEOUT, code: "request_timeout", detail }
            .error_response();
    // The rest of the body may still come: the connection cannot carry another request.
    response.head_mut().set_connection_type(actix_web::http::ConnectionType::Close);
    let (req, _) = res.into_parts();
    Ok(ServiceResponse::new(req, response).map_into_right_body())
}

/// Documents the 408 on every operation that takes a body, in the OpenAPI document (once
/// its paths are collected from the routes).
pub fn document(openapi: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    let response = ResponseBuilder::new()
        .description(
            "The body did not arrive within the body timeout (`CATAN_BODY_TIMEOUT_SECONDS`, default 10 s) \
             of the request's head (`request_timeout`); the connection is closed",
        )
        .content(
            "application/problem+json",
            ContentBuilder::new().schema(Some(Ref::from_schema_name("Problem"))).build(),
        )
        .build();
    super::document_on_bodies(openapi, "408", &response);
}
