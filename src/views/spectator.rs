//! The spectator page: `GET /games/{game_id}` serves one HTML page (with its script and style
//! at `/spectator/`) that draws a game from the public API, `board.svg`, the game resource
//! (with `?at=` for replays), the move log and the event stream. Everything it shows comes
//! from those endpoints, so it sees exactly what any client without a token sees; it is not
//! part of the JSON API and not in the OpenAPI document.
//!
//! The files are compiled into the binary: the page works offline, with no build step.

use actix_web::{
    http::{header, StatusCode},
    HttpResponse,
};
use uuid::Uuid;

// The picture's XML escaping serves HTML content and quoted attribute values alike.
use crate::error::HtmlPage;
use crate::views::picture::svg::escape as escape_html;

const PAGE: &str = include_str!("spectator/page.html");
const NOT_FOUND: &str = include_str!("spectator/not_found.html");
const SCRIPT: &str = include_str!("spectator/spectator.js");
const STYLE: &str = include_str!("spectator/spectator.css");

/// Where the page's script and style are served.
pub const SCRIPT_PATH: &str = "/spectator/spectator.js";
pub const STYLE_PATH: &str = "/spectator/spectator.css";

/// The page of a game, as a path on this server.
pub fn page_path(game: Uuid) -> String {
    format!("/games/{game}")
}

/// Only the page's own files run or style it, and it only talks to this server: a player's
/// name that slipped through unescaped could still not run a script.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
    img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

fn html(status: StatusCode, body: String) -> HttpResponse {
    let mut response = HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::CONTENT_SECURITY_POLICY, CSP))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "no-referrer"))
        .body(body);
    response.extensions_mut().insert(HtmlPage);
    response
}

/// The 404 page for `raw`, a game id or not, that says where to look.
pub fn not_found(raw: &str) -> HttpResponse {
    html(StatusCode::NOT_FOUND, NOT_FOUND.replace("{game_id}", &escape_html(raw)).replace("{style}", STYLE_PATH))
}

/// The page of game `id` (which exists).
pub fn page(id: Uuid) -> HttpResponse {
    let body = PAGE
        .replace("{game_id}", &escape_html(&id.to_string()))
        .replace("{script}", SCRIPT_PATH)
        .replace("{style}", STYLE_PATH);
    html(StatusCode::OK, body)
}

fn asset(content_type: &'static str, body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(content_type)
        // Small, and changed only by a new server: revalidated after five minutes.
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .body(body)
}

/// The page's script.
pub fn script() -> HttpResponse {
    asset("text/javascript; charset=utf-8", SCRIPT)
}

/// The page's style sheet.
pub fn style() -> HttpResponse {
    asset("text/css; charset=utf-8", STYLE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup() {
        assert_eq!(
            escape_html(r#"<script>alert("x&y")</script>'"#),
            "&lt;script&gt;alert(&quot;x&amp;y&quot;)&lt;/script&gt;&apos;"
        );
        assert_eq!(escape_html("alice"), "alice");
    }

    #[test]
    fn the_page_names_its_files_and_the_game() {
        for placeholder in ["{game_id}", "{script}", "{style}"] {
            assert!(PAGE.contains(placeholder), "{placeholder}");
        }
        assert!(NOT_FOUND.contains("{game_id}"));
    }
}
