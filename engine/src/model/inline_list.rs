//! [`InlineList`]: a list of at most `N` entries kept inline. For wire lists that the rules
//! keep short (a Smith's knights, the opponents a Commercial Harbor reached) but a request may
//! make as long as it likes: listing, copying and dropping them costs no allocation and no
//! walk (issue 28, part 5), and an overlong one still reads, to be refused by the rule that
//! counts it ([`InlineList::sent`]) rather than by the parser. On the wire it is a plain JSON
//! array.

use std::fmt;

use serde::{de, ser::SerializeSeq, Deserialize, Deserializer, Serialize, Serializer};

/// Up to `N` entries stored inline; past them, only their number is kept. Reads as a slice of
/// the kept entries. Owns nothing on the heap, so the moves that hold one need no drop.
#[derive(Clone, Copy)]
pub struct InlineList<T: Copy, const N: usize> {
    /// How many entries were pushed; past `N`, the list is overlong.
    sent: u32,
    /// `None` while empty; else the entries, the slots past them holding copies of the first
    /// (a filler that needs no `Default`, which board coordinates lack).
    items: Option<[T; N]>,
}

impl<T: Copy, const N: usize> InlineList<T, N> {
    const FITS: () = assert!(N > 0 && N <= u32::MAX as usize, "a list keeps at least one entry");

    pub const fn new() -> Self {
        let () = Self::FITS;
        InlineList { sent: 0, items: None }
    }

    /// Appends `item`; past `N` entries, only counts it.
    pub fn push(&mut self, item: T) {
        let slot = self.sent as usize;
        match &mut self.items {
            None => self.items = Some([item; N]),
            Some(items) => {
                if let Some(slot) = items.get_mut(slot) {
                    *slot = item;
                }
            }
        }
        self.sent = self.sent.saturating_add(1);
    }

    /// How many entries the list was given: more than it reads as when it is overlong, which
    /// the rule that reads it refuses. An overlong list is never kept, so never written back.
    pub fn sent(&self) -> usize {
        self.sent as usize
    }
}

impl<T: Copy, const N: usize> Default for InlineList<T, N> {
    fn default() -> Self {
        InlineList::new()
    }
}

impl<T: Copy, const N: usize> std::ops::Deref for InlineList<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match &self.items {
            Some(items) => &items[..self.sent().min(N)],
            None => &[],
        }
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a InlineList<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy, const N: usize> FromIterator<T> for InlineList<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut list = InlineList::new();
        list.extend(items);
        list
    }
}

impl<T: Copy, const N: usize> Extend<T> for InlineList<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for item in items {
            self.push(item);
        }
    }
}

/// For lists written out in full (tests, fixtures).
impl<T: Copy, const N: usize> From<Vec<T>> for InlineList<T, N> {
    fn from(items: Vec<T>) -> Self {
        items.into_iter().collect()
    }
}

impl<T: Copy, const N: usize, const M: usize> From<[T; M]> for InlineList<T, N> {
    fn from(items: [T; M]) -> Self {
        items.into_iter().collect()
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq for InlineList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.sent == other.sent && **self == **other
    }
}

impl<T: Copy + Eq, const N: usize> Eq for InlineList<T, N> {}

/// As the lists it replaced compared.
impl<T: Copy + PartialEq, const N: usize> PartialEq<Vec<T>> for InlineList<T, N> {
    fn eq(&self, other: &Vec<T>) -> bool {
        self.sent() == other.len() && **self == **other
    }
}

impl<T: Copy + fmt::Debug, const N: usize> fmt::Debug for InlineList<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + Serialize, const N: usize> Serialize for InlineList<T, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for item in self.iter() {
            seq.serialize_element(item)?;
        }
        seq.end()
    }
}

impl<'de, T: Copy + Deserialize<'de>, const N: usize> Deserialize<'de> for InlineList<T, N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Items<T, const N: usize>(std::marker::PhantomData<T>);
        impl<'de, T: Copy + Deserialize<'de>, const N: usize> de::Visitor<'de> for Items<T, N> {
            type Value = InlineList<T, N>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut list = InlineList::new();
                while let Some(item) = seq.next_element()? {
                    list.push(item);
                }
                Ok(list)
            }
        }
        deserializer.deserialize_seq(Items::<T, N>(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_as_a_json_array_and_counts_an_overlong_one() {
        for n in 0..=2u32 {
            let list: InlineList<u32, 2> = (0..n).collect();
            let vec: Vec<u32> = (0..n).collect();
            let json = serde_json::to_string(&list).unwrap();
            assert_eq!(json, serde_json::to_string(&vec).unwrap());
            assert_eq!(serde_json::from_str::<InlineList<u32, 2>>(&json).unwrap(), list);
            assert_eq!(list, vec);
            assert_eq!(list.sent(), vec.len());
        }
        // Past its room a list reads as its kept entries, and says how many it was sent.
        let overlong: InlineList<u32, 2> = serde_json::from_str("[7, 8, 9, 10]").unwrap();
        assert_eq!((overlong.sent(), &overlong[..]), (4, &[7, 8][..]));
        assert_ne!(overlong, vec![7, 8]);
        // As a `Vec` reads it: the parser's message for a wrong shape is unchanged.
        let wrong = serde_json::from_str::<InlineList<u32, 2>>("{}").unwrap_err().to_string();
        assert_eq!(wrong, serde_json::from_str::<Vec<u32>>("{}").unwrap_err().to_string());
    }
}
