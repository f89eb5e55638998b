//! Building positions with [`catan_engine::Setup`]: every position reached in play round-trips
//! (`round_trip`), and each validation refuses what it must, naming its rule (`validation`).

#[path = "position/round_trip.rs"]
mod round_trip;
#[path = "position/validation.rs"]
mod validation;
