//! Given/when/then tests for the rules of RULES.md that no other test cited (issue 27): one
//! test per rule or small group of rules, each naming the ids it checks, so that
//! `scripts/rules-coverage` finds every rule of RULES.md cited by a test. Positions are built
//! with the engine's validated `Setup` through the scenario tests' `support.rs`.

// Shared with the scenario tests, which use all of it; these tests use part.
#[allow(dead_code)]
#[path = "scenarios/support.rs"]
mod support;

#[path = "rule_coverage/base.rs"]
mod base;
#[path = "rule_coverage/cities_knights.rs"]
mod cities_knights;
#[path = "rule_coverage/expansions.rs"]
mod expansions;
