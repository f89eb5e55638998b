//! Scenario tests TC-01 .. TC-70 of RULES.md section 9 (base game, 5-6 players, Jungle, Big
//! River, Seafarers, Wonders of Catan), one test per case, each named after its case and
//! citing the rule ids it checks, and focused scenarios on small custom boards. Positions are built with the engine's validated `Setup` (so every "given"
//! position is one the rules allow), then one move is decided: a rejection must carry the
//! exact error code and leave the game unchanged; an acceptance is applied and the new state
//! checked.

#[path = "common/islands.rs"]
mod islands;
#[path = "common/sea.rs"]
mod sea;
#[path = "scenarios/support.rs"]
mod support;

#[path = "scenarios/building.rs"]
mod building;
#[path = "scenarios/cities_knights.rs"]
mod cities_knights;
#[path = "scenarios/ck_card_parameters.rs"]
mod ck_card_parameters;
#[path = "scenarios/ck_five_six.rs"]
mod ck_five_six;
#[path = "scenarios/ck_politics_cards.rs"]
mod ck_politics_cards;
#[path = "scenarios/ck_progress_hand.rs"]
mod ck_progress_hand;
#[path = "scenarios/ck_science_cards.rs"]
mod ck_science_cards;
#[path = "scenarios/ck_seafarers.rs"]
mod ck_seafarers;
#[path = "scenarios/ck_trade_cards.rs"]
mod ck_trade_cards;
#[path = "scenarios/ck_trading.rs"]
mod ck_trading;
#[path = "scenarios/development.rs"]
mod development;
#[path = "scenarios/geometry.rs"]
mod geometry;
#[path = "scenarios/longest_road.rs"]
mod longest_road;
#[path = "scenarios/robber.rs"]
mod robber;
#[path = "scenarios/seafarers.rs"]
mod seafarers;
#[path = "scenarios/setup.rs"]
mod setup;
#[path = "scenarios/small_board.rs"]
mod small_board;
#[path = "scenarios/trading.rs"]
mod trading;
#[path = "scenarios/turn_limit.rs"]
mod turn_limit;
#[path = "scenarios/variants.rs"]
mod variants;
#[path = "scenarios/victory.rs"]
mod victory;
#[path = "scenarios/wonders.rs"]
mod wonders;
