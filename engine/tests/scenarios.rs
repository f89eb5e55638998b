//! Scenario tests TC-01 .. TC-70 of RULES.md section 9 (base game, 5-6 players, Jungle, Big
//! River, Seafarers, Wonders of Catan), one test per case, each named after its case and
//! citing the rule ids it checks, and focused scenarios on small custom boards. Positions are built with the engine's validated `Setup` (so every "given"
//! position is one the rules allow), then one move is decided: a rejection must carry the
//! exact error code and leave the game unchanged; an acceptance is applied and the new state
//! checked.
//!
//! One folder per ruleset (`scenarios/base/`, `five_six/`, `jungle/`, `big_river/`,
//! `seafarers/`, `wonders/`, `cities_knights/`), so a rule's tests are found from its rule
//! id or its folder; `support.rs` holds the given/when/then helpers.

#[path = "common/islands.rs"]
mod islands;
#[path = "common/sea.rs"]
mod sea;
#[path = "scenarios/support.rs"]
mod support;

#[path = "scenarios/big_river/big_river.rs"]
mod big_river;
#[path = "scenarios/base/building.rs"]
mod building;
#[path = "scenarios/cities_knights/cities_knights.rs"]
mod cities_knights;
#[path = "scenarios/cities_knights/ck_card_parameters.rs"]
mod ck_card_parameters;
#[path = "scenarios/cities_knights/ck_five_six.rs"]
mod ck_five_six;
#[path = "scenarios/cities_knights/ck_politics_cards.rs"]
mod ck_politics_cards;
#[path = "scenarios/cities_knights/ck_progress_hand.rs"]
mod ck_progress_hand;
#[path = "scenarios/cities_knights/ck_science_cards.rs"]
mod ck_science_cards;
#[path = "scenarios/cities_knights/ck_seafarers.rs"]
mod ck_seafarers;
#[path = "scenarios/cities_knights/ck_trade_cards.rs"]
mod ck_trade_cards;
#[path = "scenarios/cities_knights/ck_trading.rs"]
mod ck_trading;
#[path = "scenarios/seafarers/cloth_for_catan.rs"]
mod cloth_for_catan;
#[path = "scenarios/base/development.rs"]
mod development;
#[path = "scenarios/five_six/five_six.rs"]
mod five_six;
#[path = "scenarios/seafarers/forgotten_tribe.rs"]
mod forgotten_tribe;
#[path = "scenarios/base/geometry.rs"]
mod geometry;
#[path = "scenarios/jungle/jungle.rs"]
mod jungle;
#[path = "scenarios/base/longest_road.rs"]
mod longest_road;
#[path = "scenarios/seafarers/new_world.rs"]
mod new_world;
#[path = "scenarios/seafarers/pirate_islands.rs"]
mod pirate_islands;
#[path = "scenarios/base/robber.rs"]
mod robber;
#[path = "scenarios/seafarers/seafarers.rs"]
mod seafarers;
#[path = "scenarios/base/setup.rs"]
mod setup;
#[path = "scenarios/base/small_board.rs"]
mod small_board;
#[path = "scenarios/base/trading.rs"]
mod trading;
#[path = "scenarios/base/turn_limit.rs"]
mod turn_limit;
#[path = "scenarios/base/victory.rs"]
mod victory;
#[path = "scenarios/wonders/wonders.rs"]
mod wonders;
