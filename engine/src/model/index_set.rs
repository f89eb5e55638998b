//! [`IndexSet`]: a set of board indices (vertices or edges) as bit words on the stack, walked
//! in ascending (board) order, and the two steps every such walk is made of: a run of 64
//! pieces made one word without a branch ([`word_of`]), and a word's set bits, lowest first
//! ([`ones`]). The game's kept piece sets, the Seafarers ship listings and the trail search's
//! scan of a board too large for the kept sets all walk their pieces so.

/// The word whose bit `j` says whether `is` holds for `chunk[j]`; `chunk` holds at most 64.
#[inline(always)]
pub(crate) fn word_of<T>(chunk: &[T], is: impl Fn(&T) -> bool) -> u64 {
    chunk.iter().enumerate().fold(0, |word, (j, item)| word | u64::from(is(item)) << j)
}

/// The positions of `word`'s set bits, lowest first.
#[inline(always)]
pub(crate) fn ones(mut word: u64) -> impl Iterator<Item = u16> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let bit = word.trailing_zeros() as u16;
            word &= word - 1;
            bit
        })
    })
}

/// The indices of `items` for which `is` holds, ascending, over a slice of any length: the
/// mostly empty board is skipped a word at a time.
pub(crate) fn indices_where<'a, T>(
    items: &'a [T],
    is: impl Fn(&T) -> bool + Copy + 'a,
) -> impl Iterator<Item = usize> + 'a {
    items
        .chunks(64)
        .enumerate()
        .flat_map(move |(i, chunk)| ones(word_of(chunk, is)).map(move |bit| i * 64 + usize::from(bit)))
}

/// Up to `WORDS * 64` indices, walked in ascending order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct IndexSet<const WORDS: usize>(pub(crate) [u64; WORDS]);

impl<const WORDS: usize> Default for IndexSet<WORDS> {
    fn default() -> Self {
        IndexSet([0; WORDS])
    }
}

impl<const WORDS: usize> IndexSet<WORDS> {
    /// The occupied-word mask of [`IndexSet::iter_or`] is one `u64`.
    const FITS_A_MASK: () = assert!(WORDS > 0 && WORDS <= 64, "a set's words are one u64 mask");

    /// How many indices the set can hold.
    pub(crate) const CAPACITY: usize = WORDS * 64;

    /// The indices of `items` for which `is` holds (those past the capacity left out).
    pub(crate) fn of<T>(items: &[T], is: impl Fn(&T) -> bool + Copy) -> Self {
        let mut set = IndexSet::default();
        for (word, chunk) in set.0.iter_mut().zip(items.chunks(64)) {
            *word = word_of(chunk, is);
        }
        set
    }

    /// The same indices in a set of another width (those past its capacity left out).
    pub(crate) fn widen<const TO: usize>(&self) -> IndexSet<TO> {
        let mut wider = IndexSet::default();
        for (to, &from) in wider.0.iter_mut().zip(&self.0) {
            *to = from;
        }
        wider
    }

    /// Puts `i` in the set or takes it out; an index past the capacity is left out.
    pub(crate) fn set(&mut self, i: u16, on: bool) {
        if let Some(word) = self.0.get_mut(usize::from(i) / 64) {
            *word = *word & !(1 << (i % 64)) | u64::from(on) << (i % 64);
        }
    }

    pub(crate) fn insert(&mut self, i: u16) {
        self.set(i, true);
    }

    pub(crate) fn remove(&mut self, i: u16) {
        self.set(i, false);
    }

    pub(crate) fn contains(&self, i: u16) -> bool {
        self.0.get(usize::from(i) / 64).is_some_and(|word| word & (1 << (i % 64)) != 0)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.iter().all(|&word| word == 0)
    }

    /// The indices, ascending, word by word: for a set whose words are mostly in use (the
    /// game's kept sets, 8 words for boards of up to 512 indices).
    #[inline(always)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| ones(word).map(move |bit| i as u16 * 64 + bit))
    }

    /// The indices, ascending, for a set made for the largest board and mostly empty on any
    /// other: see [`IndexSet::iter_or`].
    #[inline(always)]
    pub(crate) fn iter_sparse(&self) -> impl Iterator<Item = u16> + '_ {
        self.iter_or(self)
    }

    /// The indices in this set or in `other`, ascending. The words holding any are found
    /// first, without a branch, so that the walk skips the empty rest of a set made for the
    /// largest board (a Seafarers listing walks such sets for every ship); for a set whose
    /// words are mostly in use, finding them costs more than [`IndexSet::iter`]'s walk.
    #[inline(always)]
    pub(crate) fn iter_or<'a>(&'a self, other: &'a Self) -> impl Iterator<Item = u16> + 'a {
        let () = Self::FITS_A_MASK;
        let word = move |i: usize| self.0[i] | other.0[i];
        let mut occupied = (0..WORDS).fold(0u64, |mask, i| mask | u64::from(word(i) != 0) << i);
        // `ones` over `ones`, written as one loop: nested adapters cost the ship listings.
        let (mut base, mut rest) = (0u16, 0u64);
        std::iter::from_fn(move || {
            while rest == 0 {
                if occupied == 0 {
                    return None;
                }
                let i = occupied.trailing_zeros() as usize;
                occupied &= occupied - 1;
                (base, rest) = (i as u16 * 64, word(i));
            }
            let bit = rest.trailing_zeros() as u16;
            rest &= rest - 1;
            Some(base + bit)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_indices_in_ascending_order_across_words() {
        let picked = [0u16, 5, 63, 64, 200, 511];
        let mut set = IndexSet::<8>::default();
        for &i in picked.iter().rev() {
            set.insert(i);
        }
        set.insert(512); // past the capacity: left out
        assert_eq!(set.iter().collect::<Vec<_>>(), picked);
        assert!(set.contains(200) && !set.contains(201));
        set.remove(200);
        assert_eq!(set.iter().count(), picked.len() - 1);

        let mut other = IndexSet::<8>::default();
        other.insert(1);
        other.insert(300);
        assert_eq!(set.iter_or(&other).collect::<Vec<_>>(), [0, 1, 5, 63, 64, 300, 511]);
        assert_eq!(set.widen::<24>().iter().collect::<Vec<_>>(), set.iter().collect::<Vec<_>>());
    }

    #[test]
    fn builds_from_pieces_as_the_slice_walk_finds_them() {
        let pieces: Vec<bool> = (0..700).map(|i| i % 7 == 0 || i == 699).collect();
        let walked: Vec<usize> = indices_where(&pieces, |&p| p).collect();
        assert_eq!(walked, (0..700).filter(|i| i % 7 == 0 || *i == 699).collect::<Vec<_>>());
        let set = IndexSet::<24>::of(&pieces, |&p| p);
        assert_eq!(set.iter().map(usize::from).collect::<Vec<_>>(), walked);
        let narrow = IndexSet::<8>::of(&pieces, |&p| p);
        assert_eq!(narrow.iter().map(usize::from).collect::<Vec<_>>(), walked[..walked.len() - 27]);
    }
}
