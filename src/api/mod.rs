//! The HTTP API: routes, the OpenAPI document, and the shared state handlers see.

pub mod board;
pub mod games;
pub mod health;
pub mod methods;
pub mod moves;
pub mod play;
pub mod responses;
pub mod scenarios;
pub mod spec;
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

use std::sync::Arc;

use crate::{bots::BotRunner, db::DbPool, notify::Notifier, reads::Reads};

/// What every handler can reach through `web::Data<AppState>`.
#[derive(Debug, Clone)]
pub struct AppState {
    pub pool: DbPool,
    pub notifier: Notifier,
    /// Plays the built-in bots' moves; poke it after every commit.
    pub bots: BotRunner,
    /// What this process knows of each game's latest version, and the bytes it served for
    /// each version ([`crate::reads`]).
    pub reads: Arc<Reads>,
    /// On SQLite, this process's claim on the database file, held while any handler can run
    /// ([`crate::sole_server`]).
    pub sole_server: Option<Arc<crate::sole_server::SoleServer>>,
    /// Anyone may join a seeded game (`Config::sandbox`).
    pub sandbox: bool,
    /// Revoked tokens ([`crate::revocation`]).
    pub revocations: Arc<crate::revocation::Revocations>,
    /// Rate limits and the cap on unfinished games ([`crate::limits`]).
    pub limits: Arc<crate::limits::Limits>,
    /// The password hashing pool ([`crate::hashing`]).
    pub hasher: Arc<crate::hashing::Hasher>,
    /// Stream tickets for browsers ([`crate::stream_tickets`]).
    pub tickets: Arc<crate::stream_tickets::StreamTickets>,
    /// The origins allowed to call from a browser ([`crate::cors`]).
    pub cors: Arc<crate::cors::Cors>,
}

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
            .service(games::get_game)
            .service(board::board_picture)
            .service(moves::list_moves)
            .service(users::register_user)
            .service(users::me)
            .service(users::create_token)
            .service(tokens::revoke_current_token)
            .service(games::create_game)
            .service(games::list_games)
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
            .service(trades::withdraw_trade),
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
