//! Which waiting seeks make a game: seekers of one pool, seat count and ratedness (the store
//! selects those), distinct accounts, each inside every other's rating range. Oldest first, so
//! that nobody waits behind a newer seeker who fits the same game.

/// A waiting seek, as matching needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct Seeker<'a> {
    pub account: &'a str,
    /// The account's rating in the seek's pool.
    pub rating: f64,
    /// The ratings the seeker accepts as opponents, inclusive; `None` accepts any.
    pub range: Option<(f64, f64)>,
}

impl Seeker<'_> {
    fn accepts(&self, other: &Seeker<'_>) -> bool {
        self.range.is_none_or(|(low, high)| (low..=high).contains(&other.rating))
    }

    /// Two seekers can share a game: different accounts, each in the other's range.
    pub fn fits(&self, other: &Seeker<'_>) -> bool {
        self.account != other.account && self.accepts(other) && other.accepts(self)
    }
}

/// The seekers of `waiting` (oldest first) that join `first` in a game of `seats`: each fits
/// `first` and every one chosen before it. Returns their indexes, at most `seats - 1`; fewer when
/// not enough fit (the caller then waits, or fills the rest with bots).
pub fn companions(first: &Seeker<'_>, waiting: &[Seeker<'_>], seats: usize) -> Vec<usize> {
    let mut chosen: Vec<usize> = Vec::with_capacity(seats.saturating_sub(1));
    for (index, candidate) in waiting.iter().enumerate() {
        if chosen.len() + 1 >= seats {
            break;
        }
        if candidate.fits(first) && chosen.iter().all(|&other| candidate.fits(&waiting[other])) {
            chosen.push(index);
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeker(account: &str, rating: f64, range: Option<(f64, f64)>) -> Seeker<'_> {
        Seeker { account, rating, range }
    }

    #[test]
    fn the_oldest_fitting_seekers_fill_the_game() {
        let first = seeker("new", 25.0, None);
        let waiting =
            [seeker("a", 20.0, None), seeker("b", 30.0, None), seeker("c", 26.0, None), seeker("d", 22.0, None)];
        assert_eq!(companions(&first, &waiting, 4), vec![0, 1, 2]);
        assert_eq!(companions(&first, &waiting, 2), vec![0]);
    }

    #[test]
    fn ranges_bind_both_ways_and_an_account_plays_once() {
        let first = seeker("new", 25.0, Some((20.0, 30.0)));
        let waiting = [
            seeker("new", 25.0, None),                 // the same account
            seeker("low", 10.0, None),                 // outside the new seeker's range
            seeker("picky", 28.0, Some((29.0, 40.0))), // the new seeker is outside theirs
            seeker("ok", 21.0, Some((0.0, 100.0))),
            seeker("later", 29.0, Some((21.5, 40.0))), // fits the new seeker, not `ok`
            seeker("last", 24.0, None),
        ];
        assert_eq!(companions(&first, &waiting, 3), vec![3, 5]);
        assert_eq!(companions(&first, &waiting, 6), vec![3, 5]);
    }
}
