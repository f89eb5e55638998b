//! Who sits where in each game of a ladder, and each game's seed (see the ladder's module docs
//! and docs/ladder.md).

use super::Entrant;
use crate::rated::Pool;

/// Every lineup of `entrants` in `seats` seats, in the order they are dealt, and how many games
/// make a group (after every whole group, every entrant has held every seat in proportion to
/// the seats it holds). Each lineup lists each seat's entrant by its index in `entrants`.
///
/// Built-in bots only: [`builtin_lineups`], in groups of one game per entrant. With an
/// account: [`account_lineups`], in groups of one game per seat.
pub fn lineups(entrants: &[Entrant], seats: u8) -> (Vec<Vec<usize>>, usize) {
    let accounts: Vec<bool> = entrants.iter().map(Entrant::is_account).collect();
    if accounts.iter().any(|&account| account) {
        (account_lineups(&accounts, seats), usize::from(seats))
    } else {
        (builtin_lineups(entrants.len(), seats), entrants.len())
    }
}

/// Every lineup of `entrants` entrants in `seats` seats (each entrant in at least one seat),
/// in groups of `entrants` lineups, each a lineup and its shifts to the next entrant (entrant
/// `e` becomes `e + 1 mod entrants`): a group puts every entrant in every seat exactly once.
pub fn builtin_lineups(entrants: usize, seats: u8) -> Vec<Vec<usize>> {
    let mut dealt: Vec<Vec<usize>> = Vec::new();
    for lineup in assignments(entrants, seats) {
        if !dealt.contains(&lineup) {
            for shift in 0..entrants {
                dealt.push(lineup.iter().map(|&e| (e + shift) % entrants).collect());
            }
        }
    }
    dealt
}

/// Every lineup in which each account (`accounts[e]`) holds exactly one seat (a server seats an
/// account once per game) and every other entrant at least one, in groups of `seats` lineups:
/// a lineup and its rotations (seat `s` of rotation `r` gets the entrant of seat
/// `s + r mod seats`), so that a group puts every entrant in every seat as often as it holds
/// seats. The set is closed under any change of seats, so after all the lineups every entrant
/// has also met every mix of the others equally often.
pub fn account_lineups(accounts: &[bool], seats: u8) -> Vec<Vec<usize>> {
    let n = usize::from(seats);
    let fits = |lineup: &[usize]| {
        accounts.iter().enumerate().all(|(entrant, &account)| {
            let held = lineup.iter().filter(|&&e| e == entrant).count();
            if account {
                held == 1
            } else {
                held >= 1
            }
        })
    };
    let mut dealt: Vec<Vec<usize>> = Vec::new();
    for lineup in assignments(accounts.len(), seats).filter(|lineup| fits(lineup)) {
        if !dealt.contains(&lineup) {
            for rotation in 0..n {
                dealt.push((0..n).map(|seat| lineup[(seat + rotation) % n]).collect());
            }
        }
    }
    dealt
}

/// Every assignment of `entrants` entrants to `seats` seats in which every entrant holds a
/// seat, in lexicographic order (seat 0 most significant); none if there are more entrants
/// than seats.
fn assignments(entrants: usize, seats: u8) -> impl Iterator<Item = Vec<usize>> {
    let seats = usize::from(seats);
    let mut next = (entrants > 0 && entrants <= seats).then(|| vec![0; seats]);
    std::iter::from_fn(move || loop {
        let lineup = next.take()?;
        // The next assignment, if any.
        if let Some(seat) = lineup.iter().rposition(|&e| e + 1 < entrants) {
            let mut following = lineup.clone();
            following[seat] += 1;
            following[seat + 1..].fill(0);
            next = Some(following);
        }
        if (0..entrants).all(|e| lineup.contains(&e)) {
            return Some(lineup);
        }
    })
}

/// The seed of game `game` of `pool` played with `players` seats, in the ladder seeded `master`.
pub fn game_seed(master: u64, pool: Pool, players: u8, game: u32) -> u64 {
    // FNV-1a of the name: the same on every platform and build, unlike std's hasher.
    let name =
        pool.name().bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    [name, u64::from(players), u64::from(game)].into_iter().fold(splitmix64(master), |h, x| splitmix64(h ^ x))
}

/// splitmix64's output function: nearby inputs (game 7, game 8) give unrelated seeds.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_lineups_seat_everyone_and_balance_each_seat_per_group() {
        for (entrants, seats, count) in [(2, 2, 2), (2, 4, 14), (2, 6, 62), (3, 3, 6), (3, 4, 36)] {
            let all = builtin_lineups(entrants, seats);
            assert_eq!(all.len(), count, "{entrants} entrants, {seats} seats: k! S(n, k) lineups");
            for (i, lineup) in all.iter().enumerate() {
                assert!((0..entrants).all(|e| lineup.contains(&e)));
                assert!(!all[..i].contains(lineup), "each lineup once");
            }
            for group in all.chunks(entrants) {
                for seat in 0..usize::from(seats) {
                    let mut held: Vec<usize> = group.iter().map(|lineup| lineup[seat]).collect();
                    held.sort_unstable();
                    assert_eq!(held, (0..entrants).collect::<Vec<_>>(), "each entrant once in seat {seat}");
                }
            }
        }
        assert!(builtin_lineups(3, 2).is_empty());
    }

    #[test]
    fn account_lineups_seat_each_account_once_and_balance_each_seat_per_group() {
        // (accounts, seats, lineups): one account and two bots at four seats: the account in
        // one of 4 seats, the bots in the other 3 each at least once (2^3 - 2 ways) = 24; two
        // accounts and one bot at 4 seats: 4 * 3 places for the accounts = 12; three accounts
        // at three seats: 3! = 6; one account and one bot at three seats: 3.
        for (accounts, seats, count) in [
            (vec![true, false, false], 4, 24),
            (vec![false, true, true], 4, 12),
            (vec![true, true, true], 3, 6),
            (vec![true, false], 3, 3),
        ] {
            let all = account_lineups(&accounts, seats);
            assert_eq!(all.len(), count, "{accounts:?} at {seats} seats");
            for (i, lineup) in all.iter().enumerate() {
                assert!(!all[..i].contains(lineup), "each lineup once: {lineup:?}");
                for (entrant, &account) in accounts.iter().enumerate() {
                    let held = lineup.iter().filter(|&&e| e == entrant).count();
                    assert!(if account { held == 1 } else { held >= 1 }, "{lineup:?}");
                }
            }
            for group in all.chunks(usize::from(seats)) {
                for entrant in 0..accounts.len() {
                    let held = group[0].iter().filter(|&&e| e == entrant).count();
                    for seat in 0..usize::from(seats) {
                        let times = group.iter().filter(|lineup| lineup[seat] == entrant).count();
                        assert_eq!(times, held, "entrant {entrant} in seat {seat} of {group:?}");
                    }
                }
            }
        }
        assert!(account_lineups(&[true, true, true], 2).is_empty());
        assert!(account_lineups(&[true, true], 3).is_empty(), "two accounts cannot fill three seats");
    }

    #[test]
    fn game_seeds_differ_by_pool_seats_and_game_and_are_stable() {
        let seed = game_seed(1, Pool::Base, 4, 0);
        assert_eq!(seed, game_seed(1, Pool::Base, 4, 0));
        assert_ne!(seed, game_seed(1, Pool::Base, 4, 1));
        assert_ne!(seed, game_seed(1, Pool::Base, 3, 0));
        assert_ne!(seed, game_seed(1, Pool::Seafarers, 4, 0));
        assert_ne!(seed, game_seed(2, Pool::Base, 4, 0));
    }
}
