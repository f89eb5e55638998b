//! Logging: `tracing` to stderr, filtered by `RUST_LOG` (default `info`).
//!
//! A client's malformed request (a bad request line, headers over actix's limit) is answered
//! 400 or 431 by actix-http's connection dispatcher before the application sees it, and the
//! dispatcher logs it at ERROR (`stream error: request parse error: ...`) though the server
//! is fine: [`ClientMistakes`] writes those as WARN lines instead. `tracing` has no way to
//! lower an event's level, and an event logged from inside a layer is dropped, so the layer
//! writes the line itself. actix's other errors are kept as they are.

use std::io::Write;

use tracing::{field::Field, level_filters::LevelFilter, Event, Level, Subscriber};
use tracing_subscriber::{
    field::Visit,
    fmt::MakeWriter,
    layer::{Context, SubscriberExt},
    util::SubscriberInitExt,
    EnvFilter, Layer,
};

/// Installs the global subscriber once; later calls do nothing.
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::registry()
        .with(ClientMistakes::new(std::io::stderr))
        .with(filter)
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .try_init();
}

/// Where actix-http logs the requests it could not parse.
const DISPATCHER: &str = "actix_http::h1::dispatcher";

/// How actix-http's dispatcher words a request it could not parse.
const PARSE_ERROR: &str = "stream error: request parse error";

/// Turns actix-http's ERROR events about requests it could not parse into WARN lines: a
/// client's mistake, already answered with a 400 or 431, is no error of the server's.
#[derive(Debug, Clone, Copy)]
pub struct ClientMistakes<W> {
    writer: W,
}

impl<W> ClientMistakes<W> {
    pub fn new(writer: W) -> Self {
        ClientMistakes { writer }
    }
}

/// Reads an event's message.
struct Message(Option<String>);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = Some(format!("{value:?}"));
        }
    }
}

impl<S: Subscriber, W: for<'w> MakeWriter<'w> + 'static> Layer<S> for ClientMistakes<W> {
    fn event_enabled(&self, event: &Event<'_>, _: Context<'_, S>) -> bool {
        let meta = event.metadata();
        if *meta.level() != Level::ERROR || meta.target() != DISPATCHER {
            return true;
        }
        let mut message = Message(None);
        event.record(&mut message);
        let Some(message) = message.0.filter(|m| m.starts_with(PARSE_ERROR)) else {
            return true;
        };
        // The most verbose level any filter lets through: quiet (`RUST_LOG=error`) stays quiet.
        if LevelFilter::current() >= LevelFilter::WARN {
            let at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
            let _ =
                writeln!(self.writer.make_writer(), "{at}  WARN {DISPATCHER}: a client's malformed request: {message}");
        }
        false
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

    /// A writer into memory.
    #[derive(Clone, Default)]
    struct Written(Arc<Mutex<Vec<u8>>>);

    impl Write for Written {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().write(bytes)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'w> MakeWriter<'w> for Written {
        type Writer = Written;
        fn make_writer(&'w self) -> Written {
            self.clone()
        }
    }

    #[test]
    fn a_clients_malformed_request_is_logged_as_a_warning_not_an_error() {
        let seen = Seen::default();
        let written = Written::default();
        let subscriber = tracing_subscriber::registry().with(ClientMistakes::new(written.clone())).with(seen.clone());
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
        let written = String::from_utf8(written.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = written.lines().collect();
        assert_eq!(lines.len(), 2, "{written}");
        assert!(lines[0].ends_with(
            " WARN actix_http::h1::dispatcher: a client's malformed request: \
             stream error: request parse error: invalid Header provided"
        ));
        assert!(lines[1].ends_with("request parse error: message head is too large"));
    }
}
