//! Domestic trade offers as resources: the whole lifecycle over HTTP, every rejection code,
//! offers to chosen seats, counter-offers, expiry at the end of the turn, races, and the
//! `trade_offers` projection checked against the log.

use std::sync::Barrier;

use reqwest::{blocking::Response, StatusCode};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::{
    both_backends,
    helpers::{assert_problem, spawn_app, Backend, TestApp, User},
};

both_backends!(
    trade_offers_live_through_their_whole_lifecycle,
    racing_trade_actions_have_exactly_one_outcome,
    confirming_checks_both_hands_again,
    commodities_are_traded_between_players_in_cities_and_knights
);

pub const RESOURCES: [&str; 5] = ["lumber", "brick", "wool", "grain", "ore"];

/// A moment to trade: the active seat, the resource it gives, the resource it wants, and the
/// other seats that hold the wanted one.
#[derive(Debug, Clone)]
pub struct TradeSpot {
    pub active: usize,
    pub give: &'static str,
    pub want: &'static str,
    pub holders: Vec<usize>,
}

impl TestApp {
    pub fn trades_url(&self, id: &str, rest: &str) -> String {
        self.url(&format!("/api/v1/games/{id}/trades{rest}"))
    }

    pub fn offer(&self, id: &str, user: &User, body: &Value) -> Response {
        self.send(self.client.post(self.trades_url(id, "")).bearer_auth(&user.token).json(body))
    }

    /// `action` is `accept`, `decline` or `confirm` (with a body), or `withdraw`.
    pub fn trade_action(&self, id: &str, user: &User, trade: u64, action: &str, body: Option<&Value>) -> Response {
        let request = match action {
            "withdraw" => self.client.delete(self.trades_url(id, &format!("/{trade}"))),
            _ => self.client.post(self.trades_url(id, &format!("/{trade}/{action}"))),
        };
        let request = match body {
            Some(body) => request.json(body),
            None => request,
        };
        self.send(request.bearer_auth(&user.token))
    }

    pub fn trade(&self, id: &str, trade: u64) -> Value {
        let response = self.send(self.client.get(self.trades_url(id, &format!("/{trade}"))));
        assert_eq!(response.status(), StatusCode::OK);
        response.json().expect("json")
    }

    pub fn hand(&self, id: &str, user: &User) -> Value {
        self.game(id, Some(&user.token))["hand"]["resources"].clone()
    }

    /// Plays (first legal move; rolling when it may) until `spot` finds a main phase to its
    /// liking, ending turns that do not suit it.
    pub fn play_until<T>(&self, id: &str, users: &[User], mut spot: impl FnMut(&TestApp, usize) -> Option<T>) -> T {
        for _ in 0..600 {
            let game = self.game(id, None);
            assert_eq!(game["status"], "playing", "the game ended before the wanted position");
            let phase = game["turn"]["phase"]["name"].as_str().expect("phase").to_owned();
            let seat = game["turn"]["waiting_for"][0].as_u64().expect("someone must act") as usize;
            if phase == "main" {
                if let Some(found) = spot(self, seat) {
                    return found;
                }
            }
            let legal = self.legal_moves(id, &users[seat]);
            let moves = legal["moves"].as_array().expect("moves");
            let pick = |kind: &str| moves.iter().find(|m| m["type"] == kind);
            let mv = match phase.as_str() {
                "pre_roll" => pick("roll_dice"),
                "main" => pick("end_turn"),
                _ => None,
            }
            .unwrap_or(&moves[0]);
            assert_eq!(self.submit(id, &users[seat], mv).status(), StatusCode::CREATED, "move {mv}");
        }
        panic!("no wanted position within 600 moves");
    }

    /// Plays to a main phase where the active seat holds some resource and `holders_needed`
    /// other seats all hold another.
    pub fn trade_spot(&self, id: &str, users: &[User], holders_needed: usize) -> TradeSpot {
        self.play_until(id, users, |app, active| {
            let hands: Vec<Value> = users.iter().map(|u| app.hand(id, u)).collect();
            for give in RESOURCES {
                if hands[active][give].as_u64().unwrap_or(0) == 0 {
                    continue;
                }
                for want in RESOURCES.into_iter().filter(|w| *w != give) {
                    let holders: Vec<usize> =
                        (0..users.len()).filter(|&s| s != active && hands[s][want].as_u64().unwrap_or(0) > 0).collect();
                    if holders.len() >= holders_needed {
                        return Some(TradeSpot { active, give, want, holders });
                    }
                }
            }
            None
        })
    }

    /// Every seat's hand plus the bank: what no trade may change.
    pub fn cards_in_play(&self, id: &str, users: &[User]) -> [u64; 5] {
        let bank = self.game(id, None)["bank"].clone();
        let hands: Vec<Value> = users.iter().map(|u| self.hand(id, u)).collect();
        RESOURCES.map(|r| bank[r].as_u64().unwrap() + hands.iter().map(|h| h[r].as_u64().unwrap_or(0)).sum::<u64>())
    }

    pub fn check_trades_projection(&self, id: &str) {
        let mut conn = self.pool.get().expect("a connection");
        let game = Uuid::parse_str(id).unwrap();
        assert!(
            catan_server::store::trades::check_projection(&mut conn, game).unwrap(),
            "trade_offers agrees with the log"
        );
        let check = catan_server::store::check_replay(&mut conn, game).unwrap();
        assert!(check.contiguous && check.matches_snapshot, "{check:?}");
    }
}

fn created(response: Response) -> Value {
    assert_eq!(response.status(), StatusCode::CREATED, "created");
    assert!(response.headers().get("location").is_some());
    response.json().unwrap()
}

fn ok(response: Response) -> Value {
    let status = response.status();
    let body: Value = response.json().unwrap();
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

fn count(hand: &Value, resource: &str) -> u64 {
    hand[resource].as_u64().unwrap_or(0)
}

fn trade_offers_live_through_their_whole_lifecycle(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(3, 7);

    // Trading happens in the main phase only.
    let setup_seat = crate::games::active_seat(&app, &id);
    let body = json!({"give": {"lumber": 1}, "get": {"ore": 1}});
    assert_problem(app.offer(&id, &users[setup_seat], &body), 422, "wrong_phase");

    let spot = app.trade_spot(&id, &users, 2);
    let TradeSpot { active, give, want, .. } = spot.clone();
    let (b, c) = (spot.holders[0], spot.holders[1]);
    let (a_user, b_user, c_user) = (&users[active], &users[b], &users[c]);
    let before = app.cards_in_play(&id, &users);

    // Every rejection, with the engine's code.
    let cases = [
        (b_user, json!({"give": {want: 1}, "get": {give: 1}, "to": [c]}), 422, "trade_partner_not_allowed"),
        (a_user, json!({"give": {}, "get": {want: 1}}), 422, "empty_trade_side"),
        (a_user, json!({"give": {give: 1}, "get": {}}), 422, "empty_trade_side"),
        (a_user, json!({"give": {give: 1}, "get": {give: 1}}), 422, "same_resource_trade"),
        (a_user, json!({"give": {give: 30}, "get": {want: 1}}), 422, "insufficient_resources"),
        (a_user, json!({"give": {give: 1}, "get": {want: 1}, "to": [active]}), 422, "trade_partner_not_allowed"),
        (a_user, json!({"give": {give: 1}, "get": {want: 1}, "to": [9]}), 422, "unknown_seat"),
        (a_user, json!({"give": {give: 1}, "get": {want: 1}, "counter_to": 99}), 422, "offer_not_found"),
        (a_user, json!({"give": {give: 1000}, "get": {want: 1}}), 422, "invalid_card_count"),
        (a_user, json!({"give": {"gold": 1}, "get": {want: 1}}), 400, "malformed_body"),
    ];
    for (user, body, status, code) in cases {
        assert_problem(app.offer(&id, user, &body), status, code);
    }
    let stranger = app.register("stranger");
    let offer = json!({"give": {give: 1}, "get": {want: 1}});
    assert_problem(app.offer(&id, &stranger, &offer), 403, "forbidden");
    let anonymous = app.send(app.client.post(app.trades_url(&id, "")).json(&offer));
    assert_problem(anonymous, 401, "unauthorized");

    // An offer to everyone: both others answer.
    let trade = created(app.offer(&id, a_user, &offer));
    let t = trade["id"].as_u64().unwrap();
    assert_eq!(trade["status"], "open");
    assert_eq!(trade["from"], active);
    assert_eq!(trade["to"].as_array().unwrap().len(), 2);
    assert!(trade["responses"].as_array().unwrap().iter().all(|r| r["answer"] == "pending"));
    assert_eq!(app.trade(&id, t), trade);
    assert_eq!(app.game(&id, None)["trade_offers"][0]["id"], t, "the game view shows the open offer");

    let declined = ok(app.trade_action(&id, b_user, t, "decline", None));
    assert_eq!(declined["status"], "open");
    assert_problem(app.trade_action(&id, b_user, t, "decline", None), 422, "already_responded");
    let declined = ok(app.trade_action(&id, c_user, t, "decline", None));
    assert_eq!(declined["status"], "declined", "every addressee declined");
    // C changes their mind while the offer is still open.
    let accepted = ok(app.trade_action(&id, c_user, t, "accept", None));
    assert_eq!(accepted["status"], "accepted");
    assert_eq!(accepted["accepted_by"], json!([c]));
    assert!(accepted["responses"].as_array().unwrap().contains(&json!({"seat": c, "answer": "accepted"})));
    assert_problem(app.trade_action(&id, c_user, t, "accept", None), 422, "already_responded");
    assert_problem(app.trade_action(&id, a_user, t, "accept", None), 422, "not_an_addressee");
    assert_problem(app.trade_action(&id, b_user, t, "withdraw", None), 422, "not_the_offerer");
    assert_problem(app.trade_action(&id, c_user, t, "confirm", Some(&json!({"with": c}))), 422, "not_the_offerer");
    assert_problem(
        app.trade_action(&id, a_user, t, "confirm", Some(&json!({"with": b}))),
        422,
        "partner_has_not_accepted",
    );

    // The offerer completes it with C: the cards change hands.
    let (a_before, c_before) = (app.hand(&id, a_user), app.hand(&id, c_user));
    let completed = ok(app.trade_action(&id, a_user, t, "confirm", Some(&json!({"with": c}))));
    assert_eq!(completed["status"], "completed");
    assert_eq!(completed["completed_with"], c);
    let (a_after, c_after) = (app.hand(&id, a_user), app.hand(&id, c_user));
    assert_eq!(count(&a_after, give) + 1, count(&a_before, give));
    assert_eq!(count(&a_after, want), count(&a_before, want) + 1);
    assert_eq!(count(&c_after, give), count(&c_before, give) + 1);
    assert_eq!(count(&c_after, want) + 1, count(&c_before, want));
    assert_eq!(app.cards_in_play(&id, &users), before, "cards are conserved");
    assert_problem(app.trade_action(&id, b_user, t, "accept", None), 409, "trade_closed");
    assert_problem(app.trade_action(&id, a_user, t, "withdraw", None), 409, "trade_closed");
    assert_problem(app.trade_action(&id, b_user, 99, "accept", None), 404, "not_found");
    assert_problem(app.send(app.client.get(app.trades_url(&id, "/abc"))), 404, "not_found");

    // An offer to a chosen seat, answered by a counter-offer from that seat.
    let holder = if count(&app.hand(&id, b_user), want) > 0 { b } else { c };
    let (h_user, other) = (&users[holder], if holder == b { c_user } else { b_user });
    let a_hand = app.hand(&id, a_user);
    let a_give = RESOURCES.into_iter().find(|r| *r != want && count(&a_hand, r) > 0).expect("A holds something");
    let chosen = created(app.offer(&id, a_user, &json!({"give": {a_give: 1}, "get": {want: 1}, "to": [holder]})));
    let t2 = chosen["id"].as_u64().unwrap();
    assert_eq!(t2, t + 1, "trade ids are the engine's offer ids");
    assert_eq!(chosen["to"], json!([holder]));
    assert_problem(app.trade_action(&id, other, t2, "accept", None), 422, "not_an_addressee");
    let counter_body = json!({"give": {want: 1}, "get": {a_give: 1}, "counter_to": t2});
    let counter = created(app.offer(&id, h_user, &counter_body));
    let t3 = counter["id"].as_u64().unwrap();
    assert_eq!(counter["counter_to"], t2);
    assert_eq!(counter["from"], holder);
    assert_eq!(counter["to"], json!([active]), "a counter from a non-active seat goes to the active player");
    ok(app.trade_action(&id, a_user, t3, "accept", None));
    let done = ok(app.trade_action(&id, h_user, t3, "confirm", Some(&json!({"with": active}))));
    assert_eq!(done["status"], "completed");
    // The answered offer is withdrawn by its offerer.
    let withdrawn = ok(app.trade_action(&id, a_user, t2, "withdraw", None));
    assert_eq!(withdrawn["status"], "withdrawn");
    assert_eq!(app.cards_in_play(&id, &users), before, "cards are conserved");

    // Open offers expire when the turn ends; each seat may hold at most 8 open offers.
    let a_hand = app.hand(&id, a_user);
    let a_give = RESOURCES.into_iter().find(|r| count(&a_hand, r) > 0).expect("A holds something");
    let a_want = RESOURCES.into_iter().find(|r| *r != a_give).unwrap();
    let mut open = Vec::new();
    for _ in 0..8 {
        let trade = created(app.offer(&id, a_user, &json!({"give": {a_give: 1}, "get": {a_want: 1}})));
        open.push(trade["id"].as_u64().unwrap());
    }
    let ninth = json!({"give": {a_give: 1}, "get": {a_want: 1}});
    assert_problem(app.offer(&id, a_user, &ninth), 422, "too_many_open_offers");
    ok(app.trade_action(&id, b_user, open[0], "decline", None));
    let end_turn = app.submit(&id, a_user, &json!({"type": "end_turn"}));
    assert_eq!(end_turn.status(), StatusCode::CREATED);
    for t in &open {
        assert_eq!(app.trade(&id, *t)["status"], "expired");
    }
    assert_problem(app.trade_action(&id, b_user, open[1], "accept", None), 409, "trade_closed");

    // The list, filtered by status.
    let list = |query: &str| -> Value { app.send(app.client.get(app.trades_url(&id, query))).json().unwrap() };
    let all = list("");
    assert_eq!(all["trades"].as_array().unwrap().len(), 11);
    let ids: Vec<u64> = all["trades"].as_array().unwrap().iter().map(|t| t["id"].as_u64().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "oldest first");
    assert_eq!(list("?status=expired")["trades"].as_array().unwrap().len(), 8);
    assert_eq!(list("?status=completed")["trades"].as_array().unwrap().len(), 2);
    assert_eq!(list("?status=withdrawn")["trades"][0]["id"], t2);
    assert!(list("?status=open")["trades"].as_array().unwrap().is_empty());
    assert_problem(app.send(app.client.get(app.trades_url(&id, "?status=bogus"))), 400, "invalid_query");

    // Each change was a move in the log.
    let log = app.log(&id, None, 0);
    let kinds: Vec<&str> = log["entries"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    for kind in ["offer_trade", "accept_trade", "decline_trade", "confirm_trade", "withdraw_trade"] {
        assert!(kinds.contains(&kind), "{kind} is in the log");
    }
    assert!(log["entries"].as_array().unwrap().iter().any(|e| e["events"]
        .as_array()
        .unwrap()
        .iter()
        .any(|ev| ev["type"] == "trades_expired")));
    app.check_trades_projection(&id);
}

/// Sends the requests at once (each from its own thread, released together).
fn race(app: &TestApp, id: &str, requests: Vec<(&User, u64, &str, Option<Value>)>) -> Vec<Response> {
    let barrier = Barrier::new(requests.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = requests
            .iter()
            .map(|(user, trade, action, body)| {
                let barrier = &barrier;
                scope.spawn(move || {
                    barrier.wait();
                    app.trade_action(id, user, *trade, action, body.as_ref())
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

fn racing_trade_actions_have_exactly_one_outcome(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(3, 7);
    let spot = app.trade_spot(&id, &users, 2);
    let (a, b, c) = (&users[spot.active], &users[spot.holders[0]], &users[spot.holders[1]]);
    let offer = json!({"give": {spot.give: 1}, "get": {spot.want: 1}});
    let before = app.cards_in_play(&id, &users);
    let hands_before: Vec<Value> = users.iter().map(|u| app.hand(&id, u)).collect();

    // Two accepts and a withdraw at once: the withdraw lands, and an accept either landed
    // before it or is told the trade is closed.
    let t = created(app.offer(&id, a, &offer))["id"].as_u64().unwrap();
    let responses = race(&app, &id, vec![(b, t, "accept", None), (c, t, "accept", None), (a, t, "withdraw", None)]);
    let statuses: Vec<u16> = responses.into_iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(statuses[2], 200, "the offerer may always withdraw an open offer");
    assert!(statuses[..2].iter().all(|s| *s == 200 || *s == 409), "{statuses:?}");
    let trade = app.trade(&id, t);
    assert_eq!(trade["status"], "withdrawn");
    let landed = statuses[..2].iter().filter(|s| **s == 200).count();
    assert_eq!(trade["accepted_by"].as_array().unwrap().len(), landed);

    // Both accept; then two confirms and a withdraw at once: exactly one wins.
    let t = created(app.offer(&id, a, &offer))["id"].as_u64().unwrap();
    ok(app.trade_action(&id, b, t, "accept", None));
    ok(app.trade_action(&id, c, t, "accept", None));
    let (b_seat, c_seat) = (spot.holders[0], spot.holders[1]);
    let responses = race(
        &app,
        &id,
        vec![
            (a, t, "confirm", Some(json!({"with": b_seat}))),
            (a, t, "confirm", Some(json!({"with": c_seat}))),
            (a, t, "withdraw", None),
        ],
    );
    let statuses: Vec<u16> = responses.into_iter().map(|r| r.status().as_u16()).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), 1, "exactly one outcome: {statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 409).count(), 2, "the others see a closed trade: {statuses:?}");
    let trade = app.trade(&id, t);
    let hands: Vec<Value> = users.iter().map(|u| app.hand(&id, u)).collect();
    let moved = |seat: usize| hands[seat] != hands_before[seat];
    match statuses.iter().position(|s| *s == 200).unwrap() {
        0 => assert_eq!(
            (trade["status"].as_str(), trade["completed_with"].as_u64()),
            (Some("completed"), Some(b_seat as u64))
        ),
        1 => assert_eq!(
            (trade["status"].as_str(), trade["completed_with"].as_u64()),
            (Some("completed"), Some(c_seat as u64))
        ),
        _ => assert_eq!(trade["status"], "withdrawn"),
    }
    let exchanged = trade["status"] == "completed";
    assert_eq!(moved(spot.active), exchanged);
    assert_eq!(u8::from(moved(b_seat)) + u8::from(moved(c_seat)), u8::from(exchanged), "one partner at most");
    assert_eq!(app.cards_in_play(&id, &users), before, "hands are conserved");
    app.check_trades_projection(&id);
}

/// An acceptance does not hold the cards: when the accepter has given them away meanwhile,
/// confirming is refused and nothing moves.
fn confirming_checks_both_hands_again(backend: Backend) {
    let app = spawn_app(backend);
    let (id, users) = app.started_game(3, 7);
    // The active seat holds two cards it may give; some other seat holds exactly one of a
    // third kind.
    let (active, partner, want, gives) = app.play_until(&id, &users, |app, active| {
        let hands: Vec<Value> = users.iter().map(|u| app.hand(&id, u)).collect();
        for want in RESOURCES {
            let Some(partner) = (0..users.len()).find(|&s| s != active && count(&hands[s], want) == 1) else {
                continue;
            };
            let mut gives: Vec<&str> = Vec::new();
            for r in RESOURCES.into_iter().filter(|r| *r != want) {
                for _ in 0..count(&hands[active], r) {
                    gives.push(r);
                }
            }
            if gives.len() >= 2 {
                return Some((active, partner, want, [gives[0], gives[1]]));
            }
        }
        None
    });
    let (a, b) = (&users[active], &users[partner]);
    let first = created(app.offer(&id, a, &json!({"give": {gives[0]: 1}, "get": {want: 1}, "to": [partner]})));
    let second = created(app.offer(&id, a, &json!({"give": {gives[1]: 1}, "get": {want: 1}, "to": [partner]})));
    let (t1, t2) = (first["id"].as_u64().unwrap(), second["id"].as_u64().unwrap());
    ok(app.trade_action(&id, b, t1, "accept", None));
    ok(app.trade_action(&id, b, t2, "accept", None));
    let with = json!({"with": partner});
    assert_eq!(ok(app.trade_action(&id, a, t2, "confirm", Some(&with)))["status"], "completed");
    let hands: Vec<Value> = users.iter().map(|u| app.hand(&id, u)).collect();
    assert_problem(app.trade_action(&id, a, t1, "confirm", Some(&with)), 422, "insufficient_resources");
    assert_eq!(users.iter().map(|u| app.hand(&id, u)).collect::<Vec<_>>(), hands, "nothing moved");
    assert_eq!(app.trade(&id, t1)["status"], "accepted", "still open");
    app.check_trades_projection(&id);
}

pub const COMMODITIES: [&str; 3] = ["paper", "cloth", "coin"];

impl TestApp {
    /// A seat's commodities, as its own view shows them (Cities & Knights).
    pub fn commodities(&self, id: &str, user: &User) -> Value {
        self.game(id, Some(&user.token))["hand"]["commodities"].clone()
    }

    /// The commodities of all hands together, per kind (a trade between players leaves the
    /// bank alone).
    pub fn commodities_in_hands(&self, id: &str, users: &[User]) -> [u64; 3] {
        let hands: Vec<Value> = users.iter().map(|u| self.commodities(id, u)).collect();
        COMMODITIES.map(|c| hands.iter().map(|h| count(h, c)).sum::<u64>())
    }
}

/// CK-TRD-1 over HTTP: in a Cities & Knights game an offer names commodities
/// (`give_commodities`, `get_commodities`), under the domestic trade rules, and the cards
/// change hands on confirmation; the trade resource shows them, the `trade_offers`
/// projection stores them, and a base game refuses them (`not_in_this_game`).
fn commodities_are_traded_between_players_in_cities_and_knights(backend: Backend) {
    let app = spawn_app(backend);
    // A base game: commodities are not part of its rules.
    let (base, base_users) = app.started_game(3, 7);
    let seat = app.play_until(&base, &base_users, |_, active| Some(active));
    let body = json!({"give": {"lumber": 1}, "get": {}, "get_commodities": {"coin": 1}});
    assert_problem(app.offer(&base, &base_users[seat], &body), 422, "not_in_this_game");

    let request = json!({"max_players": 3, "board": "beginner", "seed": 11, "variant": "cities_and_knights"});
    let (id, users) = app.started_game_with(3, &request);
    // A main phase where the active seat holds a commodity and another seat a resource.
    let (active, commodity, partner, resource) = app.play_until(&id, &users, |app, active| {
        let held = app.commodities(&id, &users[active]);
        let commodity = COMMODITIES.into_iter().find(|c| count(&held, c) > 0)?;
        (0..users.len()).filter(|&s| s != active).find_map(|s| {
            let hand = app.hand(&id, &users[s]);
            RESOURCES.into_iter().find(|r| count(&hand, r) > 0).map(|r| (active, commodity, s, r))
        })
    });
    let (a_user, p_user) = (&users[active], &users[partner]);
    let resources_before = app.cards_in_play(&id, &users);
    let commodities_before = app.commodities_in_hands(&id, &users);

    // The domestic trade rules, on commodities.
    let other = COMMODITIES.into_iter().find(|c| *c != commodity).unwrap();
    let cases = [
        (json!({"give": {}, "get": {}, "give_commodities": {commodity: 1}}), 422, "empty_trade_side"),
        (
            json!({"give": {}, "get": {}, "give_commodities": {commodity: 1}, "get_commodities": {commodity: 1}}),
            422,
            "same_resource_trade",
        ),
        (json!({"give": {}, "get": {resource: 1}, "give_commodities": {commodity: 30}}), 422, "insufficient_resources"),
        (json!({"give": {}, "get": {resource: 1}, "give_commodities": {commodity: 1000}}), 422, "invalid_card_count"),
        (json!({"give": {}, "get": {resource: 1}, "give_commodities": {"gold": 1}}), 400, "malformed_body"),
    ];
    for (body, status, code) in cases {
        assert_problem(app.offer(&id, a_user, &body), status, code);
    }

    // One commodity for one resource, to the partner.
    let body = json!({"give": {}, "get": {resource: 1}, "give_commodities": {commodity: 1}, "to": [partner]});
    let trade = created(app.offer(&id, a_user, &body));
    let t = trade["id"].as_u64().unwrap();
    assert_eq!(trade["give_commodities"][commodity], 1);
    assert!(trade.get("get_commodities").is_none(), "an empty side is omitted: {trade}");
    assert_eq!(app.trade(&id, t), trade);
    assert_eq!(app.game(&id, None)["trade_offers"][0]["give_commodities"][commodity], 1, "offers are public");
    // A counter-offer asking for another commodity the offerer lacks cannot be accepted.
    if count(&app.commodities(&id, a_user), other) == 0 {
        let counter = json!({"give": {resource: 1}, "get": {}, "get_commodities": {other: 1}, "counter_to": t});
        let countered = created(app.offer(&id, p_user, &counter));
        assert_eq!(countered["get_commodities"][other], 1);
        let c = countered["id"].as_u64().unwrap();
        assert_problem(app.trade_action(&id, a_user, c, "accept", None), 422, "insufficient_resources");
        ok(app.trade_action(&id, p_user, c, "withdraw", None));
    }

    ok(app.trade_action(&id, p_user, t, "accept", None));
    let (a_before, p_before) = (app.commodities(&id, a_user), app.commodities(&id, p_user));
    let (a_hand, p_hand) = (app.hand(&id, a_user), app.hand(&id, p_user));
    let done = ok(app.trade_action(&id, a_user, t, "confirm", Some(&json!({"with": partner}))));
    assert_eq!(done["status"], "completed");
    assert_eq!(done["give_commodities"][commodity], 1);
    let (a_after, p_after) = (app.commodities(&id, a_user), app.commodities(&id, p_user));
    assert_eq!(count(&a_after, commodity) + 1, count(&a_before, commodity));
    assert_eq!(count(&p_after, commodity), count(&p_before, commodity) + 1);
    assert_eq!(count(&app.hand(&id, a_user), resource), count(&a_hand, resource) + 1);
    assert_eq!(count(&app.hand(&id, p_user), resource) + 1, count(&p_hand, resource));
    assert_eq!(app.cards_in_play(&id, &users), resources_before, "resources are conserved");
    assert_eq!(app.commodities_in_hands(&id, &users), commodities_before, "commodities are conserved");

    // The log carries the commodities: the completed trade event names them.
    let log = app.whole_log(&id, None);
    let completed = log
        .iter()
        .flat_map(|entry| entry["events"].as_array().cloned().unwrap_or_default())
        .find(|event| event["type"] == "trade_completed")
        .expect("a trade_completed event");
    assert_eq!(completed["give_commodities"][commodity], 1, "{completed}");
    app.check_trades_projection(&id);
}
