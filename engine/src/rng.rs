//! A tiny deterministic RNG (SplitMix64).
//!
//! Written here rather than taken from a crate so that the stream for a given seed can never
//! change under us with a dependency upgrade: a stored game must generate the same future
//! dice after any rebuild.

/// SplitMix64 generator (Steele, Lea and Flood, 2014).
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    /// Derives an independent stream for `(seed, stream)`, e.g. one per move of a game.
    pub fn for_stream(seed: u64, stream: u64) -> Self {
        let mut mixer = Rng::new(seed ^ stream.wrapping_mul(0xA24B_AED4_963E_E407));
        let state = mixer.next_u64() ^ stream;
        Rng::new(state)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Returns a uniform integer in `0..bound` (`bound > 0`), without modulo bias.
    pub fn below(&mut self, bound: u32) -> u32 {
        debug_assert!(bound > 0);
        let bound = u64::from(bound.max(1));
        loop {
            let x = self.next_u64();
            if kept(x, bound) {
                return (x % bound) as u32;
            }
        }
    }

    /// Returns a die roll, 1 to 6.
    pub fn die(&mut self) -> u8 {
        self.below(6) as u8 + 1
    }

    /// Shuffles a slice in place (Fisher-Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// Whether `below` keeps draw `x` for `bound`: `x` lies under the largest multiple of
/// `bound`, so that every remainder is equally likely. That zone ends within `bound` of the
/// top, so a draw under `2^64 - bound` is kept without working the zone out (a division
/// saved on almost every draw; the same draws are kept either way, so the stream is the same).
fn kept(x: u64, bound: u64) -> bool {
    x <= u64::MAX - bound || x < u64::MAX - (u64::MAX % bound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_for_a_seed_never_changes() {
        // Pinned values: a change here would silently alter every stored game's future.
        let mut rng = Rng::new(42);
        assert_eq!(rng.next_u64(), 0xBDD7_3226_2FEB_6E95);
    }

    #[test]
    fn a_draw_is_kept_exactly_when_it_lies_under_the_zone() {
        for bound in [1u64, 2, 3, 6, 7, 36, 1000, 65_537, u64::from(u32::MAX)] {
            let zone = u64::MAX - (u64::MAX % bound);
            let near_the_top = (0..2 * bound.min(5000)).map(|i| u64::MAX - i);
            for x in near_the_top.chain([0, 1, u64::MAX / 2, zone - 1, zone]) {
                assert_eq!(kept(x, bound), x < zone, "x {x} bound {bound}");
            }
        }
    }

    #[test]
    fn dice_cover_one_to_six() {
        let mut rng = Rng::new(7);
        let mut seen = [0u32; 7];
        for _ in 0..6000 {
            seen[rng.die() as usize] += 1;
        }
        assert_eq!(seen[0], 0);
        assert!(seen[1..].iter().all(|&n| n > 800), "{seen:?}");
    }
}
