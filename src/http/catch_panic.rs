//! The last line of defence: a handler that panics answers 500 `internal_error` (a problem
//! body) instead of dropping the client's connection with no answer, which is what a panic
//! in an actix-web worker does by itself. Panics are bugs
//! (issue 32's sweep counts them); this only makes sure the client hears of one.

use std::panic::AssertUnwindSafe;

use actix_web::{
    body::MessageBody,
    dev::{ServiceRequest, ServiceResponse},
    middleware::Next,
};
use futures_util::FutureExt;

use crate::error::ApiError;

/// The middleware: runs the rest of the chain, turning a panic into a 500 problem.
///
/// # Errors
/// The inner service's.
pub async fn catch_panic(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    // Only the method and path are kept: a clone of the request would stop the router from
    // filling in its match info.
    let (method, path) = (req.method().clone(), req.path().to_owned());
    // The state a panicking handler leaves is its own request's: nothing else reads it.
    match AssertUnwindSafe(next.call(req)).catch_unwind().await {
        Ok(response) => response,
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!(%method, %path, %message, "a handler panicked");
            // As an error, answered by the dispatcher with the problem body.
            Err(ApiError::internal("the server failed on this request").into())
        }
    }
}

#[cfg(test)]
mod tests {
    use actix_web::{middleware::from_fn, test, web, App, HttpResponse};

    use super::*;

    #[actix_web::test]
    async fn a_panicking_handler_answers_a_500_problem_and_the_next_request_is_served() {
        let app = test::init_service(
            App::new()
                .wrap(from_fn(catch_panic))
                .route(
                    "/boom",
                    web::get().to(|| async {
                        if std::hint::black_box(true) {
                            panic!("issue 32: a handler that panics");
                        }
                        HttpResponse::Ok().finish()
                    }),
                )
                .route("/fine", web::get().to(|| async { HttpResponse::Ok().body("fine") })),
        )
        .await;
        let error = test::try_call_service(&app, test::TestRequest::get().uri("/boom").to_request())
            .await
            .err()
            .expect("the panic becomes an error, answered by the dispatcher");
        let response = error.error_response();
        assert_eq!(response.status(), 500);
        assert_eq!(response.headers().get("content-type").unwrap(), "application/problem+json");
        let body = actix_web::body::to_bytes(response.into_body()).await.unwrap();
        let body: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(body["code"], "internal_error");
        assert!(!body["detail"].as_str().unwrap().contains("handler that panics"), "the panic stays in the log");
        let response = test::call_service(&app, test::TestRequest::get().uri("/fine").to_request()).await;
        assert_eq!(response.status(), 200);
    }
}
