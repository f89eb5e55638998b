//! Logging: `tracing` to stderr, filtered by `RUST_LOG` (default `info`).
//!
//! A client's malformed request (a bad request line, headers over actix's limit) is answered
//! 400 or 431 by actix-http's connection dispatcher before the application sees it, and the
//! dispatcher logs it at ERROR (`stream error: request parse error: ...`) though the server
//! is fine: those events are dropped ([`ClientMistakes`]); actix also logs each at TRACE
//! (`RUST_LOG=actix_http=trace` shows them). Its other errors are kept.

use tracing::{field::Field, Event, Level, Subscriber};
use tracing_subscriber::{
    field::Visit,
    layer::{Context, SubscriberExt},
    util::SubscriberInitExt,
    EnvFilter, Layer,
};

/// Installs the global subscriber once; later calls do nothing.
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::registry()
        .with(ClientMistakes)
        .with(filter)
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .try_init();
}

/// Where actix-http logs the requests it could not parse.
const DISPATCHER: &str = "actix_http::h1::dispatcher";

/// How actix-http's dispatcher words a request it could not parse.
const PARSE_ERROR: &str = "stream error: request parse error";

/// Drops actix-http's ERROR events about requests it could not parse: a client's mistake,
/// already answered with a 400 or 431, is no error of the server's.
#[derive(Debug, Clone, Copy)]
pub struct ClientMistakes;

/// Reads an event's message.
struct Message(Option<String>);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = Some(format!("{value:?}"));
        }
    }
}

impl<S: Subscriber> Layer<S> for ClientMistakes {
    fn event_enabled(&self, event: &Event<'_>, _: Context<'_, S>) -> bool {
        let meta = event.metadata();
        if *meta.level() != Level::ERROR || meta.target() != DISPATCHER {
            return true;
        }
        let mut message = Message(None);
        event.record(&mut message);
        !message.0.is_some_and(|m| m.starts_with(PARSE_ERROR))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    /// Keeps the messages of the events that reach it.
    #[derive(Clone, Default)]
    struct Seen(Arc<Mutex<Vec<String>>>);

    impl<S: Subscriber> Layer<S> for Seen {
        fn on_event(&self, event: &Event<'_>, _: Context<'_, S>) {
            let mut message = Message(None);
            event.record(&mut message);
            self.0.lock().unwrap().push(message.0.unwrap_or_default());
        }
    }

    #[test]
    fn a_clients_malformed_request_is_not_logged_as_an_error() {
        let seen = Seen::default();
        let subscriber = tracing_subscriber::registry().with(ClientMistakes).with(seen.clone());
        tracing::subscriber::with_default(subscriber, || {
            tracing::error!(target: "actix_http::h1::dispatcher", "stream error: request parse error: invalid Header provided");
            tracing::error!(target: "actix_http::h1::dispatcher", "stream error: request parse error: message head is too large");
            tracing::error!(target: "actix_http::h1::dispatcher", "Response payload stream error: broken");
            tracing::error!(target: "catan_server", "stream error: request parse error: our own words");
            tracing::warn!(target: "actix_http::h1::dispatcher", "stream error: request parse error: at warn");
        });
        let seen = seen.0.lock().unwrap().clone();
        assert_eq!(
            seen,
            [
                "Response payload stream error: broken",
                "stream error: request parse error: our own words",
                "stream error: request parse error: at warn"
            ]
        );
    }
}
