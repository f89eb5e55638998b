//! Building positions with [`catan_engine::Setup`]: every position reached in play round-trips
//! (`round_trip`); each validation refuses what it must, naming its rule (`validation`, and
//! `seafarers` for ships, the pirate and Seafarers' memory); and `Setup::position` never panics and accepts only games the rules can play (`mutations`).

#[path = "common/islands.rs"]
mod islands;
#[path = "position/mutations.rs"]
mod mutations;
#[path = "position/round_trip.rs"]
mod round_trip;
#[path = "common/sea.rs"]
mod sea;
#[path = "position/seafarers.rs"]
mod seafarers;
#[path = "position/validation.rs"]
mod validation;
