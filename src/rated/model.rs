//! The rating model: Weng-Lin (the OpenSkill model, Bradley-Terry with full pairing) from the
//! `skillratings` crate, every seat a team of one, fed the finish order of a rated game.
//!
//! - A rating is `rating` (mu, the estimated skill) and `deviation` (sigma, its uncertainty);
//!   a new account starts at 25 and 25/3 in every pool, the crate's defaults.
//! - `score = rating - 3 * deviation` is what leaderboards sort by: a rating that is 99.7 %
//!   sure to be exceeded, so that a new account's lucky first game does not top the board.
//! - `beta` (the skill gap that gives a 67 % chance to finish ahead) is the crate's 25/6, and
//!   the uncertainty floor its 10^-6: Catan's dice are noisy, but the model learns that from
//!   the outcomes.
//! - The finish order ([`finish_order`]): the winner first, then the others by victory points
//!   (hidden cards included: the game is over), equal points sharing a place; a seat that was
//!   abandoned (on the turn timer's autoplay when the game ended) is last, whatever its points,
//!   sharing last place with any other abandoned seat.
//! - One account in several seats (a built-in bot seated twice) has one rating before the game;
//!   each of its seats is rated as a player of that rating, and its new rating is the mean of
//!   its seats' new ratings and deviations.

use catan_engine::{Game, Seat};
use serde::Serialize;
use skillratings::{
    weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating},
    MultiTeamOutcome,
};
use utoipa::ToSchema;

/// The model's name and parameters, as the docs and `GET /api/v1/leaderboards` state them.
pub const MODEL: &str = "Weng-Lin (OpenSkill, Bradley-Terry full pairing; skillratings 0.29), beta 25/6, \
                         initial rating 25 and deviation 25/3; score = rating - 3 * deviation";

/// A rating in one pool.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ToSchema)]
pub struct Rating {
    /// The estimated skill (mu); a new account has 25.
    pub rating: f64,
    /// The uncertainty of `rating` (sigma); a new account has 25/3.
    pub deviation: f64,
}

impl Default for Rating {
    fn default() -> Self {
        let initial = WengLinRating::new();
        Rating { rating: initial.rating, deviation: initial.uncertainty }
    }
}

impl Rating {
    /// What leaderboards sort by: `rating - 3 * deviation`.
    pub fn score(self) -> f64 {
        self.rating - 3.0 * self.deviation
    }
}

/// A seat's place in a finished game: 1 is first; equal places are ties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finish {
    pub seat: Seat,
    pub place: u32,
    /// On the turn timer's autoplay when the game ended.
    pub abandoned: bool,
}

/// The finish order of a finished game (see the module docs): one [`Finish`] per seat, in
/// seat order. `abandoned[i]` says whether seat `i` was abandoned.
pub fn finish_order(game: &Game, abandoned: &[bool]) -> Vec<Finish> {
    let seats: Vec<Seat> = game.seats().collect();
    let points: Vec<u32> = seats.iter().map(|&seat| game.victory_points(seat)).collect();
    let gone = |seat: Seat| abandoned.get(seat.index()).copied().unwrap_or(false);
    let places = places(game.winner().map(Seat::index), &points, abandoned);
    seats.iter().zip(places).map(|(&seat, place)| Finish { seat, place, abandoned: gone(seat) }).collect()
}

/// The place of each seat of a finished game (1 is first, equal places are ties) from its
/// winner, every seat's victory points and which seats were abandoned (a missing entry: not
/// abandoned), as [`finish_order`] orders them. For a game known only from outside, as the
/// ladder reads a game played on a server.
pub fn places(winner: Option<usize>, points: &[u32], abandoned: &[bool]) -> Vec<u32> {
    let gone = |seat: usize| abandoned.get(seat).copied().unwrap_or(false);
    // Sort keys: (abandoned, not the winner, fewer points): smaller is better.
    // Abandoned seats all share one key: last, whatever their points.
    let key = |seat: usize| {
        if gone(seat) {
            (true, true, std::cmp::Reverse(0))
        } else {
            (false, winner != Some(seat), std::cmp::Reverse(points[seat]))
        }
    };
    (0..points.len())
        .map(|seat| {
            let mine = key(seat);
            // Standard competition ranking: one plus the number of seats strictly ahead.
            let ahead = (0..points.len()).filter(|&other| key(other) < mine).count();
            u32::try_from(ahead).unwrap_or(u32::MAX).saturating_add(1)
        })
        .collect()
}

/// One account's part in a rated game and what it did to the account's rating.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingChange<K> {
    pub account: K,
    pub before: Rating,
    pub after: Rating,
    /// Its best place, if it held several seats.
    pub place: u32,
}

/// Rates one game: `seats[i]` is who held seat `i` and their rating before the game (the same
/// account may hold several seats, with the same rating), `places[i]` that seat's place. Returns
/// one change per account, in the order of their first seat.
pub fn rate_game<K: Clone + PartialEq>(seats: &[(K, Rating)], places: &[u32]) -> Vec<RatingChange<K>> {
    let ratings: Vec<[WengLinRating; 1]> =
        seats.iter().map(|(_, r)| [WengLinRating { rating: r.rating, uncertainty: r.deviation }]).collect();
    let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> =
        ratings.iter().zip(places).map(|(team, &place)| (&team[..], MultiTeamOutcome::new(place as usize))).collect();
    let rated = weng_lin_multi_team(&teams, &WengLinConfig::new());
    let mut changes: Vec<(RatingChange<K>, u32)> = Vec::new();
    for (((account, before), &place), after) in seats.iter().zip(places).zip(&rated) {
        let after = Rating { rating: after[0].rating, deviation: after[0].uncertainty };
        match changes.iter_mut().find(|(change, _)| change.account == *account) {
            Some((change, seats_held)) => {
                // A running mean over the account's seats.
                let n = f64::from(*seats_held);
                change.after.rating = (change.after.rating * n + after.rating) / (n + 1.0);
                change.after.deviation = (change.after.deviation * n + after.deviation) / (n + 1.0);
                change.place = change.place.min(place);
                *seats_held += 1;
            }
            None => changes.push((RatingChange { account: account.clone(), before: *before, after, place }, 1)),
        }
    }
    changes.into_iter().map(|(change, _)| change).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// A finished game's order: the winner first, the rest by points with ties sharing a
    /// place; an abandoned seat last whatever its points, even the winner's.
    /// A game known from outside (the ladder reads one from a server): the winner first, then by
    /// points with ties sharing a place, the abandoned seat last whatever its points.
    #[test]
    fn places_from_points_put_the_winner_first_and_abandoned_seats_last() {
        assert_eq!(places(Some(2), &[5, 11, 10, 5], &[false, true, false, false]), vec![2, 4, 1, 2]);
        assert_eq!(places(Some(0), &[10, 3, 4], &[]), vec![1, 3, 2]);
        assert_eq!(places(Some(1), &[12, 10], &[false, false]), vec![2, 1], "the winner first, not the most points");
    }

    #[test]
    fn the_finish_order_puts_the_winner_first_and_abandoned_seats_last() {
        let config = catan_engine::GameConfig { turn_limit: Some(400), ..catan_engine::GameConfig::for_players(4) };
        let kinds = [catan_engine::bots::BotKind::Heuristic; 4];
        let record = catan_engine::sim::play_bots_game(config, 3, &kinds).unwrap();
        let game = record.game;
        let winner = game.winner().expect("the game ends");
        let order = finish_order(&game, &[false; 4]);
        for finish in &order {
            let ahead = order
                .iter()
                .filter(|other| {
                    // Only the winner is ahead of a seat that is not the winner, and any seat
                    // with more points that is not the winner either.
                    finish.seat != winner
                        && (other.seat == winner || game.victory_points(other.seat) > game.victory_points(finish.seat))
                })
                .count() as u32;
            assert_eq!(finish.place, ahead + 1, "{order:?}");
        }
        assert_eq!(order[winner.index()].place, 1);

        let mut abandoned = [false; 4];
        abandoned[winner.index()] = true;
        let other = game.seats().find(|&s| s != winner).unwrap();
        abandoned[other.index()] = true;
        let order = finish_order(&game, &abandoned);
        assert_eq!(order[winner.index()].place, 3, "abandoned seats share the last places: {order:?}");
        assert_eq!(order[other.index()].place, 3, "{order:?}");
        assert!(order[winner.index()].abandoned);
        assert!(order.iter().filter(|f| !f.abandoned).all(|f| f.place <= 2), "{order:?}");
    }

    /// Two players: `rate_game` must give what the crate's own one-on-one update gives for a
    /// win, since it only re-shapes its input.
    #[test]
    fn two_players_agree_with_the_crates_one_on_one_update() {
        let a = Rating { rating: 25.0, deviation: 25.0 / 3.0 };
        let b = Rating { rating: 25.0, deviation: 25.0 / 3.0 };
        let changes = rate_game(&[("a", a), ("b", b)], &[1, 2]);
        // Two equal new players: the winner gains exactly what the loser loses.
        let gain = changes[0].after.rating - 25.0;
        let loss = 25.0 - changes[1].after.rating;
        assert!(gain > 0.0 && close(gain, loss), "{changes:?}");
        // And it is what the crate's two-player function says for a win.
        let (one, two) = skillratings::weng_lin::weng_lin(
            &WengLinRating::new(),
            &WengLinRating::new(),
            &skillratings::Outcomes::WIN,
            &WengLinConfig::new(),
        );
        assert!(close(changes[0].after.rating, one.rating) && close(changes[1].after.rating, two.rating));
        assert!(close(changes[0].after.deviation, one.uncertainty));
    }

    #[test]
    fn the_crates_multi_team_example_gives_its_published_numbers() {
        // From the docs of skillratings::weng_lin::weng_lin_multi_team (0.29): team two first,
        // team one second, team three third; rounded to two decimals as published.
        let t1 = [WengLinRating::new(), (30.0, 1.2).into(), (21.0, 6.5).into()];
        let t2 = [WengLinRating::new(), (41.0, 1.4).into(), (19.2, 4.3).into()];
        let t3 = [WengLinRating::new(), (29.4, 1.6).into(), (17.2, 2.1).into()];
        let teams = [
            (&t1[..], MultiTeamOutcome::new(2)),
            (&t2[..], MultiTeamOutcome::new(1)),
            (&t3[..], MultiTeamOutcome::new(3)),
        ];
        let rated = weng_lin_multi_team(&teams, &WengLinConfig::new());
        let hundredths: Vec<Vec<f64>> =
            rated.iter().map(|team| team.iter().map(|p| (p.rating * 100.0).round()).collect()).collect();
        assert_eq!(
            hundredths,
            vec![vec![2538.0, 3001.0, 2123.0], vec![2796.0, 4108.0, 1999.0], vec![2166.0, 2928.0, 1699.0]]
        );
    }

    /// Hand-checked: in a free-for-all of equal new players, Weng-Lin's update for a player is
    /// sigma^2 / c * sum over the others of (score - p), with c = sqrt(2 beta^2 + 2 sigma^2) and
    /// p = 1/2 for equal ratings; so first of three gains sigma^2/c, second nothing, third
    /// loses sigma^2/c.
    #[test]
    fn three_equal_players_move_by_the_hand_computed_amounts() {
        let new = Rating::default();
        let changes = rate_game(&[(0, new), (1, new), (2, new)], &[2, 1, 3]);
        let sigma2 = new.deviation.powi(2);
        let c = (2.0 * (25.0_f64 / 6.0).powi(2) + 2.0 * sigma2).sqrt();
        let step = sigma2 / c * (1.0 - 0.5) * 2.0;
        assert!(close(changes[1].after.rating, 25.0 + step), "{changes:?}");
        assert!(close(changes[0].after.rating, 25.0), "{changes:?}");
        assert!(close(changes[2].after.rating, 25.0 - step), "{changes:?}");
        assert!(changes.iter().all(|c| c.after.deviation < new.deviation), "every game makes the model surer");
    }

    /// Four players, the last two tied: ties share a place, so the tied pair moves alike, and
    /// the whole field's gains and losses cancel out (equal ratings and deviations).
    #[test]
    fn four_players_with_a_shared_place() {
        let new = Rating::default();
        let changes = rate_game(&[("w", new), ("x", new), ("y", new), ("z", new)], &[1, 2, 3, 3]);
        let sigma2 = new.deviation.powi(2);
        let c = (2.0 * (25.0_f64 / 6.0).powi(2) + 2.0 * sigma2).sqrt();
        let unit = sigma2 / c * 0.5;
        // First: three wins (+3 units); second: a win, a loss (+1 unit... one loss to w: -1, two wins: +2 => +1);
        // the tied pair: two losses and a draw (-2 units).
        let expected = [25.0 + 3.0 * unit, 25.0 + unit, 25.0 - 2.0 * unit, 25.0 - 2.0 * unit];
        for (change, want) in changes.iter().zip(expected) {
            assert!(close(change.after.rating, want), "{changes:?}");
        }
        let total: f64 = changes.iter().map(|c| c.after.rating - 25.0).sum();
        assert!(total.abs() < 1e-9);
    }

    /// Six players, and one account (a built-in bot) in two seats: it is rated once, with the
    /// mean of its seats' new ratings and its best place.
    #[test]
    fn six_players_and_an_account_in_two_seats() {
        let new = Rating::default();
        let strong = Rating { rating: 35.0, deviation: 2.0 };
        let seats = [("bot", strong), ("a", new), ("bot", strong), ("b", new), ("c", new), ("d", new)];
        let places = [2, 1, 6, 3, 4, 5];
        let changes = rate_game(&seats, &places);
        assert_eq!(changes.iter().map(|c| c.account).collect::<Vec<_>>(), ["bot", "a", "b", "c", "d"]);
        let bot = &changes[0];
        assert_eq!((bot.place, bot.before), (2, strong));
        // Each seat alone, as the crate rates it.
        let alone: Vec<[WengLinRating; 1]> =
            seats.iter().map(|(_, r)| [WengLinRating { rating: r.rating, uncertainty: r.deviation }]).collect();
        let teams: Vec<_> =
            alone.iter().zip(places).map(|(t, p)| (&t[..], MultiTeamOutcome::new(p as usize))).collect();
        let rated = weng_lin_multi_team(&teams, &WengLinConfig::new());
        assert!(close(bot.after.rating, (rated[0][0].rating + rated[2][0].rating) / 2.0));
        assert!(close(bot.after.deviation, (rated[0][0].uncertainty + rated[2][0].uncertainty) / 2.0));
        // The winner, a new account that beat a strong one, gains most.
        assert!(changes[1].after.rating > changes[2].after.rating);
        assert!(changes[2].after.rating > changes[3].after.rating && changes[3].after.rating > changes[4].after.rating);
    }
}
