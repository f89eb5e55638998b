//! The spectator page (`GET /games/{game_id}`): an HTML page for every game, linked from the
//! game resource; a helpful 404 page for anything else. What it shows in a browser is
//! checked by `scripts/browser-check` in headless Chromium.

use reqwest::{blocking::Response, StatusCode};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::{
    both_backends,
    helpers::{spawn_app, Backend, TestApp},
};

fn header(response: &Response, name: &str) -> String {
    response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned()
}

fn page(app: &TestApp, path: &str) -> (StatusCode, String, String, String) {
    let response = app.client.get(app.url(path)).send().expect("GET the page");
    let status = response.status();
    let content_type = header(&response, "content-type");
    let csp = header(&response, "content-security-policy");
    (status, content_type, csp, response.text().expect("the body"))
}

fn game_has_a_page_linked_from_its_resource(backend: Backend) {
    let app = spawn_app(backend);
    let alice = app.register(&format!("alice-{}", &Uuid::new_v4().simple().to_string()[..8]));
    let created = app.create_game(&alice, &json!({"max_players": 2}));
    let id = created["id"].as_str().unwrap().to_owned();
    let links = &created["links"];
    assert_eq!(links["spectator"], format!("/games/{id}"));
    assert_eq!(links["self"], format!("/api/v1/games/{id}"));
    assert_eq!(links["board_svg"], format!("/api/v1/games/{id}/board.svg"));
    assert_eq!(links["moves"], format!("/api/v1/games/{id}/moves"));
    assert_eq!(links["stream"], format!("/api/v1/games/{id}/stream"));

    // An open game has its page already (it shows the seats taken), and so does a running one.
    let (status, content_type, csp, body) = page(&app, links["spectator"].as_str().unwrap());
    assert_eq!(status, StatusCode::OK);
    assert_eq!(content_type, "text/html; charset=utf-8");
    assert!(body.contains(&format!("data-game=\"{id}\"")), "{body}");
    assert!(csp.contains("script-src 'self'"), "{csp}");
    let (game, _) = app.started_game(2, 7);
    let game_json = app.game(&game, None);
    let (status, _, _, body) = page(&app, game_json["links"]["spectator"].as_str().unwrap());
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains(&format!("data-game=\"{game}\"")));
    assert_eq!(game_json["links"]["spectator"], format!("/games/{game}"));
}

both_backends!(game_has_a_page_linked_from_its_resource);

#[test]
fn the_page_loads_its_script_and_style_from_this_server() {
    let app = spawn_app(Backend::Sqlite);
    let alice = app.register("pagefiles");
    let id = app.create_game(&alice, &json!({}))["id"].as_str().unwrap().to_owned();
    let (_, _, _, body) = page(&app, &format!("/games/{id}"));
    for (path, content_type, needle) in [
        ("/spectator/spectator.js", "text/javascript; charset=utf-8", "EventSource"),
        ("/spectator/spectator.css", "text/css; charset=utf-8", "--seat-0"),
    ] {
        assert!(body.contains(&format!("\"{path}\"")), "the page names {path}");
        let response = app.client.get(app.url(path)).send().expect("GET");
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(header(&response, "content-type"), content_type);
        assert_eq!(header(&response, "x-content-type-options"), "nosniff");
        assert!(response.text().unwrap().contains(needle), "{path}");
    }
    // HEAD answers the page's and its files' headers without a body.
    for path in [format!("/games/{id}"), "/spectator/spectator.js".to_owned(), "/spectator/spectator.css".to_owned()] {
        let response = app.client.head(app.url(&path)).send().expect("HEAD");
        assert_eq!(response.status(), StatusCode::OK, "HEAD {path}");
        assert!(!header(&response, "content-type").is_empty(), "HEAD {path}");
        assert!(response.text().unwrap().is_empty(), "HEAD {path} has no body");
    }
    // Nothing from elsewhere: the page works offline.
    assert!(!body.contains("http://") && !body.contains("https://"), "{body}");
}

#[test]
fn an_unknown_game_is_a_404_page_that_says_what_is_missing() {
    let app = spawn_app(Backend::Sqlite);
    let unknown = Uuid::new_v4();
    let (status, content_type, _, body) = page(&app, &format!("/games/{unknown}"));
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(content_type, "text/html; charset=utf-8");
    assert!(body.contains(&format!("There is no game <code>{unknown}</code>")), "{body}");
    assert!(body.contains("/swagger-ui/"));

    // Not a game id at all: the same page, with the path's text escaped.
    let (status, content_type, _, body) = page(&app, "/games/%3Cscript%3Ealert(1)%3C%2Fscript%3E");
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(content_type, "text/html; charset=utf-8");
    assert!(!body.contains("<script>alert"), "{body}");
    assert!(body.contains("&lt;script&gt;alert(1)"), "{body}");
}

#[test]
fn the_page_is_not_part_of_the_api_document_but_swagger_ui_names_it() {
    let spec: Value = serde_json::from_str(&catan_server::api::openapi_json()).unwrap();
    assert!(spec["paths"].as_object().unwrap().keys().all(|path| path.starts_with("/api/v1/") || path == "/healthz"));
    let description = spec["info"]["description"].as_str().unwrap();
    assert!(description.contains("/games/{game_id}") && description.contains("links.spectator"), "{description}");
    let links = &spec["components"]["schemas"]["GameLinks"];
    assert!(links["required"].as_array().unwrap().contains(&json!("spectator")), "{links}");
    assert!(spec["components"]["schemas"]["GameResponse"]["required"].as_array().unwrap().contains(&json!("links")));
}

#[test]
fn a_post_to_a_page_is_an_api_404() {
    let app = spawn_app(Backend::Sqlite);
    let response = app.client.post(app.url(&format!("/games/{}", Uuid::new_v4()))).send().expect("POST");
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert_eq!(header(&response, "content-type"), "application/problem+json");
}
