//! The HTTP API: the handlers, their routes, and the OpenAPI document. Handlers only: what
//! they share is in [`crate::app`], what they answer with in [`crate::views`].

pub mod board;
pub mod games;
pub mod get_game;
pub mod health;
pub mod leaderboards;
pub mod moves;
pub mod play;
pub mod positions;
pub mod profiles;
pub mod records;
pub mod responses;
pub mod scenarios;
pub mod seeks;
pub mod spec;
pub mod spectator;
pub mod stream;
pub mod tokens;
pub mod trades;
pub mod users;

use utoipa::{
    openapi::{
        security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
        OpenApi as OpenApiDoc,
    },
    Modify, OpenApi,
};
use utoipa_actix_web::{scope, service_config::ServiceConfig, AppExt};

/// The API document's fixed parts; paths and schemas are collected from the routes.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Catan game server",
        description = "Play Catan over HTTP. Register, create a game, let others join, start \
            it, then read `legal-moves` and POST any of them to `moves`. Every failure is an \
            RFC 9457 `application/problem+json` body with a stable `code`; rule violations \
            answer 422 with the rule's code (e.g. `not_your_turn`, `settlement_too_close`).\n\n\
            **Watch a game in a browser:** every game has a spectator page at \
            `/games/{game_id}` (its `links.spectator`; HTML, not part of this API, no token \
            needed): the board, the players' public state and the log as readable lines, updated \
            live from the event stream, with a slider to replay the game move by move.",
        license(name = "MIT OR Apache-2.0", identifier = "MIT OR Apache-2.0")
    ),
    components(responses(responses::RateLimited, responses::ServerBusy)),
    modifiers(&SecurityAddon),
    tags(
        (name = "users", description = "Accounts and tokens"),
        (name = "games", description = "Creating, joining, starting and viewing games"),
        (name = "moves", description = "Legal moves, submitting moves, and the move log"),
        (name = "positions", description = "Analysis: the legal moves of any position you send, and what a move makes of it (no game, no token, nothing stored)"),
        (name = "seeks", description = "Matchmaking: a place in a rating pool's queue, and the game it finds"),
        (name = "ratings", description = "Public profiles with ratings per pool, and leaderboards"),
        (name = "trades", description = "Domestic trade offers between players: each change is a move in the log"),
        (name = "health", description = "Liveness")
    )
)]
pub struct ApiDoc;

/// Declares the Bearer JWT scheme, so Swagger UI's Authorize button works.
struct SecurityAddon;

impl Modify for SecurityAddon {
    fn modify(&self, openapi: &mut OpenApiDoc) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .description(Some("A token from `POST /api/v1/users` or `POST /api/v1/tokens`."))
                    .build(),
            ),
        );
    }
}

/// Registers every documented route.
pub fn routes(cfg: &mut ServiceConfig) {
    cfg.service(
        // actix matches routes in this order, one pattern after another: the hot paths of
        // a game in progress come first.
        scope::scope("/api/v1")
            .service(moves::legal_moves)
            .service(moves::submit_move)
            // Before `/games/{game_id}`, which would take `export` for an id.
            .service(records::export_games)
            .service(get_game::get_game)
            .service(board::board_picture)
            .service(moves::list_moves)
            .service(users::register_user)
            .service(users::me)
            .service(users::change_me)
            .service(users::create_token)
            .service(tokens::revoke_current_token)
            .service(games::create_game)
            .service(games::list_games)
            .service(records::get_record)
            .service(scenarios::list_scenarios)
            .service(games::join_game)
            .service(games::start_game)
            .service(stream::stream_game)
            .service(stream::create_stream_ticket)
            .service(trades::create_trade)
            .service(trades::list_trades)
            .service(trades::get_trade)
            .service(trades::accept_trade)
            .service(trades::decline_trade)
            .service(trades::confirm_trade)
            .service(trades::withdraw_trade)
            .service(positions::game_position)
            .service(positions::legal_moves_of_position)
            .service(positions::move_on_position)
            .service(seeks::list_seeks)
            .service(seeks::create_seek)
            .service(seeks::get_seek)
            .service(seeks::cancel_seek)
            .service(profiles::get_profile)
            .service(leaderboards::get_leaderboard)
            // A record is larger than any other body: its own limit.
            .service(
                scope::scope("/games/import")
                    .app_data(crate::error::BodyLimit(crate::http::IMPORT_LIMIT))
                    .app_data(
                        actix_web::web::JsonConfig::default()
                            .limit(crate::http::IMPORT_LIMIT)
                            .content_type_required(true)
                            .error_handler(crate::error::json_error),
                    )
                    .service(records::import_game),
            ),
    )
    .service(health::healthz);
}

/// Returns the OpenAPI document of the routes, without starting a server.
pub fn openapi() -> OpenApiDoc {
    let mut doc =
        actix_web::App::new().into_utoipa_app().openapi(ApiDoc::openapi()).configure(routes).split_for_parts().1;
    spec::finish(&mut doc);
    doc
}

/// Returns the OpenAPI document as the pretty JSON committed in `openapi/openapi.json`.
pub fn openapi_json() -> String {
    let mut json = openapi().to_pretty_json().unwrap_or_default();
    json.push('\n');
    json
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::http::methods::{allowed, learn};

    use super::*;

    #[test]
    fn documented_paths_answer_their_methods_and_parameters_match_one_segment() {
        learn(openapi);
        assert_eq!(allowed("/api/v1/games"), Some(vec!["GET", "POST"]));
        let id = "0190f0a1-0000-7000-8000-000000000000";
        assert_eq!(allowed(&format!("/api/v1/games/{id}")), Some(vec!["GET"]));
        assert_eq!(allowed(&format!("/api/v1/games/{id}/moves")), Some(vec!["GET", "POST"]));
        assert_eq!(allowed("/api/v1/tokens/current"), Some(vec!["DELETE"]));
        assert_eq!(allowed("/api/v1/nothing"), None);
        assert_eq!(allowed(&format!("/api/v1/games/{id}/moves/extra")), None);
        assert_eq!(allowed("/api/v1/games//moves"), None);
    }

    #[test]
    fn the_finished_document_keeps_what_utoipa_wrote() {
        let doc = openapi();
        let json = serde_json::to_value(&doc).unwrap();
        let round_trip: OpenApiDoc = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(serde_json::to_value(&round_trip).unwrap(), json);
        let created = &json["paths"]["/api/v1/games"]["post"]["responses"]["201"]["headers"];
        for header in ["Location", "ETag", "Idempotent-Replayed"] {
            assert!(created[header].is_object(), "{header} of a created game");
        }
        let schemas = &json["components"]["schemas"];
        // Tuples are plain arrays of their length (openapi-python-client reads no prefixItems).
        assert!(!json.to_string().contains("prefixItems"));
        let dice = &schemas["TurnSetup"]["properties"]["dice"];
        assert_eq!(
            (&dice["minItems"], &dice["maxItems"], &dice["items"]["type"]),
            (&json!(2), &json!(2), &json!("integer"))
        );
        let pairs = &schemas["SeafarersSetup"]["properties"]["setup_settlements"]["items"];
        assert_eq!(pairs["items"]["oneOf"].as_array().map(Vec::len), Some(2), "{pairs}");
        for name in ["Move", "Event", "Phase"] {
            let mapping = schemas[name]["discriminator"]["mapping"].as_object().expect(name);
            assert_eq!(mapping.len(), schemas[name]["oneOf"].as_array().unwrap().len(), "{name}");
            for target in mapping.values() {
                let component = target.as_str().unwrap().trim_start_matches("#/components/schemas/");
                assert_eq!(schemas[component]["title"], component);
            }
        }
    }
}
