//! Moves: what the caller may do now, submitting a move, and reading the move log.

use std::time::Duration;

use std::sync::Arc;

use actix_web::{
    get,
    http::header::{self, ContentType},
    post,
    web::{self, Bytes},
    HttpRequest, HttpResponse,
};
use catan_engine::{Game, Move, Seat, Viewer};
use serde::Deserialize;
use utoipa::IntoParams;

use crate::{
    api::{games::parse_game_id, get_game::latest, play::play},
    app::AppState,
    auth::{AuthUser, MaybeAuthUser},
    error::{ApiError, Problem},
    http::json::{in_range, Json},
    reads::{self, EntryClass, Key, Latest, Reader, Reads},
    store::db::{with_conn, DbConnection},
    store::idempotency,
    store::replicas::with_read_conn,
    store::snapshots,
    store::{self, Applied, GameStatus, MoveRequest, Submitted},
    views::moves::{entry_for, LegalMovesResponse, MoveLogResponse, SubmitMoveResponse},
};
use uuid::Uuid;

/// The longest a log read may wait for new entries.
pub const MAX_WAIT_SECONDS: u64 = 30;

/// Where to read the log from, and how long to wait.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListMovesQuery {
    /// Entries with a greater seq (default 0: from the start).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// When nothing is newer, wait up to this many seconds (0 to 30) for a move.
    #[param(minimum = 0, maximum = 30)]
    pub wait: Option<u64>,
    /// At most this many entries, 1 to 1000 (default 500).
    #[param(minimum = 1, maximum = 1000)]
    pub limit: Option<u32>,
    /// `legal_moves`: the response also carries `legal_moves`, what `GET .../legal-moves`
    /// answers the caller at the game's newest version (needs a token), so that a bot plays
    /// with one long-poll and one move a turn. Another value is 400 `invalid_query`.
    pub include: Option<String>,
    /// `my_move`: with `wait`, answer only once the game waits for the caller's seat (its
    /// turn, a discard, a choice), or is over, or `wait` ran out, with every entry after
    /// `after` (needs a token). With `include=legal_moves` a bot then plays each move with
    /// one long-poll and one `POST`. Another value is 400 `invalid_query`.
    pub until: Option<String>,
}

/// Whether `until` asks to wait until the caller must move.
fn parse_until(until: Option<&str>) -> Result<bool, ApiError> {
    match until {
        None => Ok(false),
        Some("my_move") => Ok(true),
        Some(other) => Err(ApiError::bad_request("invalid_query", format!("until takes \"my_move\", not {other:?}"))
            .at_field("#/until")),
    }
}

/// What `include` may ask to add to a log page.
fn parse_include(include: Option<&str>) -> Result<bool, ApiError> {
    let Some(include) = include else {
        return Ok(false);
    };
    let mut wants_legal_moves = false;
    for part in include.split(',').map(str::trim) {
        match part {
            "legal_moves" => wants_legal_moves = true,
            other => {
                return Err(ApiError::bad_request(
                    "invalid_query",
                    format!("include takes \"legal_moves\", not {other:?}"),
                )
                .at_field("#/include"))
            }
        }
    }
    Ok(wants_legal_moves)
}

/// The most cards of one type a move may name. No game has more (19 per type in the base
/// game); the cap keeps absurd counts away from the engine's card arithmetic.
pub const MAX_CARDS_IN_MOVE: u32 = 100;

/// Rejects moves naming absurd card counts (422 `invalid_card_count`).
pub fn check_card_counts(mv: &Move) -> Result<(), ApiError> {
    let bundles: Vec<&[u32]> = match mv {
        Move::Discard { resources }
        | Move::PlayYearOfPlenty { resources }
        | Move::ChooseGoldResources { resources }
        | Move::BuyDevelopmentCardWithDiscoveries { replaces: resources } => vec![resources.as_slice()],
        Move::TradeWithBank { give, get } => vec![give.as_slice(), get.as_slice()],
        Move::DiscardCards { cards } | Move::GiveCards { cards } | Move::TakeCards { cards } => {
            vec![cards.resources.as_slice(), cards.commodities.as_slice()]
        }
        Move::TradeCardsWithBank { give, get } => vec![
            give.resources.as_slice(),
            give.commodities.as_slice(),
            get.resources.as_slice(),
            get.commodities.as_slice(),
        ],
        Move::OfferTrade { give, get, give_commodities, get_commodities, .. } => {
            vec![give.as_slice(), get.as_slice(), give_commodities.as_slice(), get_commodities.as_slice()]
        }
        _ => Vec::new(),
    };
    let too_many = bundles.iter().any(|bundle| bundle.iter().any(|count| *count > MAX_CARDS_IN_MOVE));
    if too_many {
        return Err(ApiError::unprocessable(
            "invalid_card_count",
            format!("a move names at most {MAX_CARDS_IN_MOVE} cards of one type"),
        ));
    }
    Ok(())
}

/// Reads `If-Match`: `"v<N>"` (also `W/"v<N>"`, `v<N>`, `<N>`, and an open game's
/// `"v0.<seats>"` as version 0); `*` matches any version.
fn parse_if_match(req: &HttpRequest) -> Result<Option<i64>, ApiError> {
    let Some(value) = req.headers().get(header::IF_MATCH) else {
        return Ok(None);
    };
    let bad = || ApiError::bad_request("invalid_if_match", "If-Match must be \"v<version>\"");
    let value = value.to_str().map_err(|_| bad())?.trim();
    if value == "*" {
        return Ok(None);
    }
    let tag = value.trim_start_matches("W/").trim_matches('"');
    let number = tag.strip_prefix('v').unwrap_or(tag);
    // An open game's tag, `"v0.<seats taken>"`, is version 0 (no move is played there).
    let number = number.strip_prefix("0.").filter(|seats| seats.parse::<u8>().is_ok()).map_or(number, |_| "0");
    number.parse().map(Some).map_err(|_| bad())
}

/// List the moves the caller may make now.
///
/// A seat's question: it needs a token (a bot that forgot its header must not read "nothing
/// to do"). Spectators see whom the game waits for in the game's `turn.waiting_for`.
#[utoipa::path(
    tag = "moves",
    params(("game_id" = Uuid, Path, description = "The game")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller's legal moves (empty for a user without a seat)", body = LegalMovesResponse),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 401, description = "No valid token (`unauthorized`, `token_expired`, `token_revoked`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{game_id}/legal-moves")]
pub async fn legal_moves(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = parse_game_id(path)?;
    state.limits.read(&req, Some(user.id)).await?;
    Ok(json_ok(legal_moves_body(&state, id, user.id).await?))
}

/// The body of `GET .../legal-moves` for `user` at the game's latest version: from memory when
/// this process knows that version, else read (and remembered) from the database.
async fn legal_moves_body(state: &AppState, id: Uuid, user: Uuid) -> Result<Bytes, ApiError> {
    let user = Some(user);
    // The latest version this process knows: its moves were served before, or the parsed
    // snapshot of that version is at hand.
    if let Some(latest) = latest(state, id).await? {
        let reader = latest.reader(user);
        let key = Key::LegalMoves { game: id, version: latest.version, reader };
        if let Some(body) = state.reads.get(&key) {
            return Ok(body);
        }
        if let Some((version, game)) = snapshots::cached(&id.to_string()).filter(|(v, _)| *v == latest.version) {
            let body = Bytes::from(serde_json::to_vec(&legal_moves_of(version, reader.seat(), Some(&game)))?);
            state.reads.insert(key, body.clone());
            return Ok(body);
        }
    }
    let reads = Arc::clone(&state.reads);
    let epoch = reads.epoch();
    with_conn(&state.pool, move |conn| {
        let (row, you, game) =
            store::find_game_and_seat(conn, id, user, false)?.ok_or_else(|| store::game_not_found(id))?;
        let response = legal_moves_of(row.version, you, game.as_deref());
        let body = Bytes::from(serde_json::to_vec(&response)?);
        let status = row.status();
        if status != GameStatus::Open {
            // The seats of a started game, read once per game and process.
            let seats = match reads.latest(id) {
                Some(_) => None,
                None => Some(reads::seats_of(&store::load_seats(conn, id)?)),
            };
            reads.learn(epoch, id, row.version, status, seats);
            reads.insert(Key::LegalMoves { game: id, version: row.version, reader: Reader::of(you) }, body.clone());
        }
        Ok(body)
    })
    .await
}

fn legal_moves_of(version: i64, you: Option<Seat>, game: Option<&Game>) -> LegalMovesResponse {
    let (moves, may_offer_trade) = match (game, you) {
        (Some(game), Some(seat)) => (game.legal_moves(seat), game.may_offer_trade(seat)),
        _ => (Vec::new(), false),
    };
    let waiting_for = game.map(Game::waiting_for).unwrap_or_default();
    LegalMovesResponse { version, you, waiting_for, may_offer_trade, moves }
}

fn json_ok(body: Bytes) -> HttpResponse {
    HttpResponse::Ok().content_type(ContentType::json()).body(body)
}

/// Submit a move for your own seat.
///
/// The body is a move as listed by `legal-moves`, e.g. `{"type": "roll_dice"}`. With
/// `If-Match: "v<N>"` the move is only played if the game is still at version N (else 412
/// `version_conflict` with the current version). On a sandbox server (`CATAN_SANDBOX=1`),
/// `roll_dice` may name its dice: `{"type": "roll_dice", "dice": [3, 4]}`.
#[utoipa::path(
    tag = "moves",
    params(
        ("game_id" = Uuid, Path, description = "The game"),
        ("If-Match" = Option<String>, Header, description = "Play only at this version: `\"v<N>\"`, the game's `ETag` (its weak form `W/\"v<N>\"` is taken too; an open game's `\"v0.<seats>\"` is version 0), or `*`"),
        ("Idempotency-Key" = Option<String>, Header, description = "A client-chosen key (1-255 visible ASCII characters). Retrying with the same key and move returns the first response (with `Idempotent-Replayed: true`) instead of moving twice; the same key with a different request is 422 `idempotency_key_reused`. Keys are per user and kept for 24 hours."),
    ),
    request_body = Move,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Played; the new version and the log entry", body = SubmitMoveResponse),
        (status = 400, description = "Malformed body (`malformed_body`) or If-Match", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 403, description = "You have no seat in this game", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "`game_not_started`, `idempotency_key_in_use`, or a lost race (`version_conflict`)", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "If-Match is stale (`version_conflict`, with `version`)", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Body too large", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The move breaks a rule; `code` names it (e.g. `not_your_turn`); `idempotency_key_reused`; `dice_not_allowed` (dice named on a server that is not a sandbox, or in another move than `roll_dice`) or `invalid_chance` (not two dice of 1 to 6)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "The body is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/games/{game_id}/moves")]
pub async fn submit_move(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
    req: HttpRequest,
    body: Json<serde_json::Value>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_game_id(path)?;
    // An object (the extractor refuses anything else); unknown fields are refused on every
    // move, also on those that take none.
    let mut value = body.into_inner();
    let dice = named_dice(&mut value, state.sandbox)?;
    let mv = Move::from_json(value.clone()).map_err(|e| crate::http::json::malformed(&value, "#", &e))?;
    check_card_counts(&mv)?;
    let idempotency = match dice {
        None => idempotency::claim(&req, user.id, &mv)?,
        Some(dice) => idempotency::claim(&req, user.id, &(&mv, dice))?,
    };
    let request = MoveRequest { mv, dice, if_match: parse_if_match(&req)?, idempotency };
    let respond = |_: &mut DbConnection, applied: &Applied| {
        let seat = applied.entry.seat.map(|s| Seat(s as u8));
        let viewer = seat.map_or(Viewer::Spectator, Viewer::Seat);
        let entry = entry_for(&applied.entry, viewer, applied.status == GameStatus::Finished)?;
        let waiting_for = applied.waiting_for.clone();
        Ok((201, SubmitMoveResponse { version: applied.version, status: applied.status, waiting_for, entry }))
    };
    Ok(match play(&state, id, user.id, request, respond).await? {
        Submitted::Replayed(stored) => stored.replay(),
        Submitted::Played { applied, response } => {
            HttpResponse::Created().insert_header((header::ETAG, format!("\"v{}\"", applied.version))).json(response)
        }
    })
}

/// Takes the `dice` a `roll_dice` names out of the body (`[red, white]`, each 1 to 6): only
/// a sandbox server (`CATAN_SANDBOX=1`) plays them.
///
/// # Errors
/// 400 `malformed_body` (not two integers), 422 `dice_not_allowed` (not a sandbox, or not a
/// roll), 422 `invalid_chance` (not two dice of 1 to 6).
pub fn named_dice(body: &mut serde_json::Value, sandbox: bool) -> Result<Option<(u8, u8)>, ApiError> {
    let Some(dice) = body.as_object_mut().and_then(|fields| fields.remove("dice")) else {
        return Ok(None);
    };
    let faces: Option<Vec<u64>> =
        dice.as_array().filter(|faces| faces.len() == 2).and_then(|faces| faces.iter().map(|f| f.as_u64()).collect());
    let Some(faces) = faces else {
        let detail = format!("must be two integers from 1 to 6, [red, white] (got {dice})");
        return Err(ApiError::bad_request(
            "malformed_body",
            format!("the body does not fit this request at #/dice: {detail}"),
        )
        .at("#/dice", detail));
    };
    if !sandbox {
        return Err(ApiError::unprocessable(
            "dice_not_allowed",
            "only a sandbox server (CATAN_SANDBOX=1) takes dice named in a move; here the game's seed rolls them",
        )
        .at_field("#/dice"));
    }
    if body.get("type").and_then(serde_json::Value::as_str) != Some("roll_dice") {
        return Err(
            ApiError::unprocessable("dice_not_allowed", "only `roll_dice` may name its dice").at_field("#/dice")
        );
    }
    match faces[..] {
        [red @ 1..=6, white @ 1..=6] => Ok(Some((red as u8, white as u8))),
        _ => Err(ApiError::unprocessable(
            "invalid_chance",
            format!("dice must be two dice of 1 to 6, [red, white] (B-CMP-9), not {dice}"),
        )
        .at("#/dice", format!("must be two integers from 1 to 6 (got {dice})"))),
    }
}

/// Read the move log after `after`, as the caller may see it; long-poll with `wait`.
///
/// While the game runs, other seats' hidden cards are removed from the events and their
/// move bodies are reduced to the move's type; after game over everything is shown.
#[utoipa::path(
    tag = "moves",
    params(("game_id" = Uuid, Path, description = "The game"), ListMovesQuery),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "Entries after `after` (possibly none after waiting)", body = MoveLogResponse),
        (status = 429, response = crate::api::responses::RateLimited),
        (status = 400, description = "Bad query (`invalid_query`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token was sent but is not valid", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/games/{game_id}/moves")]
pub async fn list_moves(
    state: web::Data<AppState>,
    user: MaybeAuthUser,
    path: web::Path<String>,
    query: crate::http::query::Query<ListMovesQuery>,
    req: HttpRequest,
) -> Result<HttpResponse, ApiError> {
    let id = parse_game_id(path)?;
    let after = in_range("after", query.after.unwrap_or(0), 0, i64::MAX)?;
    let wait = Duration::from_secs(in_range("wait", query.wait.unwrap_or(0), 0, MAX_WAIT_SECONDS)?);
    let limit = i64::from(in_range("limit", query.limit.unwrap_or(500), 1, 1000)?);
    let with_legal_moves = parse_include(query.include.as_deref())?;
    let until_my_move = parse_until(query.until.as_deref())?;
    let user = user.0.map(|u| u.id);
    let seat_question = match (with_legal_moves, until_my_move) {
        (true, _) => Some("include=legal_moves"),
        (_, true) => Some("until=my_move"),
        _ => None,
    };
    let user = match (seat_question, user) {
        // As on `legal-moves`: a bot that forgot its header must not read "nothing to do".
        (Some(what), None) => {
            return Err(ApiError::Unauthorized(format!("{what} answers a seat's question: send a bearer token")))
        }
        (_, user) => user,
    };
    // Subscribe before reading, so a commit between the read and the wait still wakes us.
    let mut versions = state.notifier.subscribe(id);
    let mut waited = false;
    let mut legal = None;
    if let (true, Some(caller)) = (until_my_move, user) {
        // Until the game waits for the caller (or is over, or the time is up): the bot's
        // whole wait between two of its moves is this one request.
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let now = legal_moves_now(&state, id, caller).await?;
            let seen = now.version;
            if now.caller_must_act || now.over || tokio::time::Instant::now() >= deadline {
                legal = Some(now.body);
                break;
            }
            waited = true;
            if tokio::time::timeout_at(deadline, versions.wait_for(|v| *v > seen)).await.is_err() {
                legal = Some(legal_moves_now(&state, id, caller).await?.body);
                break;
            }
        }
    }
    let mut page = read_page(&state, id, user, after, limit).await?;
    if !until_my_move && page.entries.is_empty() && !wait.is_zero() && page.status != GameStatus::Finished {
        waited = true;
        let woken = tokio::time::timeout(wait, versions.wait_for(|v| *v > after)).await.is_ok();
        if woken {
            page = read_page(&state, id, user, after, limit).await?;
        }
    }
    // A long-poll that follows a game (it waited, or asked to and brought a page of the
    // latest moves) costs nothing; any other read counts toward the reads limit, so a bot
    // following its game never meets it while a client re-reading whole logs does.
    let follows = waited || (!wait.is_zero() && page.entries.len() <= FREE_FOLLOW_ENTRIES);
    if !follows {
        state.limits.read(&req, user).await?;
    }
    if let (true, Some(caller)) = (with_legal_moves, user) {
        page.legal_moves = Some(match legal {
            Some(body) => body,
            None => legal_moves_body(&state, id, caller).await?,
        });
    }
    Ok(json_ok(page.body()))
}

/// The most entries a long-poll may bring without counting as a read: more than any turn
/// makes, fewer than catching up on a game from its start.
const FREE_FOLLOW_ENTRIES: usize = 100;

/// The caller's legal moves at the game's newest version, and what they say.
struct LegalNow {
    body: Bytes,
    version: i64,
    /// The caller's seat is among the seats the game waits for.
    caller_must_act: bool,
    /// Nobody is waited for: the game is over (or has not started).
    over: bool,
}

async fn legal_moves_now(state: &AppState, id: Uuid, user: Uuid) -> Result<LegalNow, ApiError> {
    /// The part of a [`LegalMovesResponse`] that says whom the game waits for.
    #[derive(Deserialize)]
    struct Head {
        version: i64,
        you: Option<Seat>,
        waiting_for: Vec<Seat>,
    }
    let body = legal_moves_body(state, id, user).await?;
    let head: Head = serde_json::from_slice(&body).map_err(ApiError::internal)?;
    Ok(LegalNow {
        caller_must_act: head.you.is_some_and(|seat| head.waiting_for.contains(&seat)),
        over: head.waiting_for.is_empty(),
        version: head.version,
        body,
    })
}

/// A page of the log, each entry already serialized for its reader.
struct Page {
    version: i64,
    status: GameStatus,
    entries: Vec<Bytes>,
    /// `include=legal_moves`: the caller's legal moves at the newest version, serialized.
    legal_moves: Option<Bytes>,
}

impl Page {
    /// The page as a [`MoveLogResponse`], byte for byte as serde writes it.
    fn body(&self) -> Bytes {
        let size = self.entries.iter().map(|e| e.len() + 1).sum::<usize>()
            + self.legal_moves.as_ref().map_or(0, |l| l.len() + 16)
            + 64;
        let mut body = Vec::with_capacity(size);
        body.extend_from_slice(
            format!(r#"{{"version":{},"status":"{}","entries":["#, self.version, self.status.as_str()).as_bytes(),
        );
        for (i, entry) in self.entries.iter().enumerate() {
            if i > 0 {
                body.push(b',');
            }
            body.extend_from_slice(entry);
        }
        body.push(b']');
        if let Some(moves) = &self.legal_moves {
            body.extend_from_slice(br#","legal_moves":"#);
            body.extend_from_slice(moves);
        }
        body.push(b'}');
        Bytes::from(body)
    }
}

/// The status at `latest` and the entries after `after` (at most `limit`, up to `latest`) as
/// `reader` sees them, when the cache holds every one of them (a log page, an SSE stream).
pub fn cached_entries(
    reads: &Reads,
    id: Uuid,
    latest: &Latest,
    reader: Reader,
    after: i64,
    limit: i64,
) -> Option<(GameStatus, Vec<Bytes>)> {
    let status = latest.status.or_else(|| {
        snapshots::cached(&id.to_string()).filter(|(v, _)| *v == latest.version).map(|(_, g)| GameStatus::of(&g))
    })?;
    let class = EntryClass::new(reader, status);
    // `after` is whatever the client sent (up to i64::MAX): the first seq saturates instead of
    // wrapping to i64::MIN, which made a key range of 2^63 entries (issue 32).
    let last = latest.version.min(after.saturating_add(limit));
    let keys = (after.saturating_add(1)..=last).map(|seq| Key::Entry { game: id, seq, class });
    let entries = reads.get_all(keys).into_iter().collect::<Option<Vec<_>>>()?;
    Some((status, entries))
}

/// Reads the entries after `after` (at most `limit`) for `user`: from memory when this
/// process is sure of the latest version and holds every entry, else from the database
/// (caching each entry as served).
async fn read_page(state: &AppState, id: Uuid, user: Option<Uuid>, after: i64, limit: i64) -> Result<Page, ApiError> {
    let mut known = None;
    if let Some(latest) = latest(state, id).await? {
        if let Some((status, entries)) = cached_entries(&state.reads, id, &latest, latest.reader(user), after, limit) {
            return Ok(Page { version: latest.version, status, entries, legal_moves: None });
        }
        known = Some(latest.version);
    }
    let reads = Arc::clone(&state.reads);
    let epoch = reads.epoch();
    with_read_conn(&state.pool, state.read_pool.as_ref(), id, known, move |conn| {
        let record = store::load_game(conn, id)?;
        let rows = store::load_entries(conn, &record.game, after, limit)?;
        reads.learn_record(epoch, &record);
        let status = record.game.status();
        let reader = Reader::of(user.and_then(|u| record.seat_of(u)));
        let class = EntryClass::new(reader, status);
        let over = status == GameStatus::Finished;
        let entries = rows
            .iter()
            .map(|row| {
                let key = Key::Entry { game: id, seq: row.seq, class };
                if let Some(bytes) = reads.get(&key) {
                    return Ok(bytes);
                }
                let bytes = Bytes::from(serde_json::to_vec(&entry_for(row, reader.viewer(), over)?)?);
                reads.insert(key, bytes.clone());
                Ok(bytes)
            })
            .collect::<Result<Vec<_>, ApiError>>()?;
        Ok(Page { version: record.game.version, status, entries, legal_moves: None })
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{DateTime, Utc};

    use crate::views::moves::{Hidden, HiddenMove, LoggedMove, MoveLogEntry};

    #[test]
    fn a_page_reads_exactly_as_serde_writes_it() {
        let entry = |seq| MoveLogEntry {
            seq,
            seat: Some(Seat(1)),
            kind: "end_turn".into(),
            mv: Some(LoggedMove::Hidden(HiddenMove { type_: "end_turn".into(), hidden: Hidden })),
            events: Vec::new(),
            bot: None,
            auto: false,
            created_at: DateTime::<Utc>::from_timestamp(1_700_000_000, 123_000).unwrap(),
            phase: "pre_roll".into(),
            waiting_for: vec![Seat(2)],
        };
        let legal = || LegalMovesResponse {
            version: 9,
            you: Some(Seat(2)),
            waiting_for: vec![Seat(2)],
            may_offer_trade: false,
            moves: vec![Move::RollDice],
        };
        let pages = [vec![], vec![entry(3)], vec![entry(3), entry(4), entry(5)]];
        for (entries, with_legal) in pages.iter().flat_map(|entries| [(entries, false), (entries, true)]) {
            let expected = serde_json::to_vec(&MoveLogResponse {
                version: 9,
                status: GameStatus::Playing,
                entries: entries.clone(),
                legal_moves: with_legal.then(legal),
            })
            .unwrap();
            let page = Page {
                version: 9,
                status: GameStatus::Playing,
                entries: entries.iter().map(|e| Bytes::from(serde_json::to_vec(e).unwrap())).collect(),
                legal_moves: with_legal.then(|| Bytes::from(serde_json::to_vec(&legal()).unwrap())),
            };
            assert_eq!(String::from_utf8(page.body().to_vec()).unwrap(), String::from_utf8(expected).unwrap());
        }
    }
}
