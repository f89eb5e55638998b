//! [`InlineList`]: a list kept inline up to `N` entries and on the heap past them. For wire
//! lists that the rules keep short (a Smith's knights, the opponents a Commercial Harbor
//! reached) but a request may make as long as it likes: listing and copying them allocates
//! nothing (issue 28, part 5), and an overlong one still reads, to be refused by the rule
//! that counts it rather than by the parser. On the wire it is a plain JSON array.

use std::fmt;

use serde::{de, ser::SerializeSeq, Deserialize, Deserializer, Serialize, Serializer};

/// Up to `N` entries stored inline, any more on the heap. Reads as a slice.
#[derive(Clone)]
pub struct InlineList<T: Copy, const N: usize>(Repr<T, N>);

#[derive(Clone)]
enum Repr<T: Copy, const N: usize> {
    /// At least one entry; the slots past `len` hold copies of the first (a filler that
    /// needs no `Default`, which board coordinates lack).
    Inline { len: u8, items: [T; N] },
    /// Past `N` entries; and the empty list, as an empty `Vec` allocates nothing.
    Heap(Vec<T>),
}

impl<T: Copy, const N: usize> InlineList<T, N> {
    const FITS_A_BYTE: () = assert!(N > 0 && N <= u8::MAX as usize, "the inline length is a byte");

    pub const fn new() -> Self {
        let () = Self::FITS_A_BYTE;
        InlineList(Repr::Heap(Vec::new()))
    }

    pub fn push(&mut self, item: T) {
        match &mut self.0 {
            Repr::Heap(items) if items.capacity() == 0 => {
                self.0 = Repr::Inline { len: 1, items: [item; N] };
            }
            Repr::Heap(items) => items.push(item),
            Repr::Inline { len, items } => match items.get_mut(usize::from(*len)) {
                Some(slot) => {
                    *slot = item;
                    *len += 1;
                }
                None => {
                    let mut spilled = Vec::with_capacity(2 * N);
                    spilled.extend_from_slice(items);
                    spilled.push(item);
                    self.0 = Repr::Heap(spilled);
                }
            },
        }
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
        match &self.0 {
            Repr::Inline { len, items } => &items[..usize::from(*len)],
            Repr::Heap(items) => items,
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
        **self == **other
    }
}

impl<T: Copy + Eq, const N: usize> Eq for InlineList<T, N> {}

/// As the lists it replaced compared.
impl<T: Copy + PartialEq, const N: usize> PartialEq<Vec<T>> for InlineList<T, N> {
    fn eq(&self, other: &Vec<T>) -> bool {
        **self == **other
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
    fn reads_and_writes_as_a_json_array_of_any_length() {
        for n in 0..6u32 {
            let list: InlineList<u32, 2> = (0..n).collect();
            let vec: Vec<u32> = (0..n).collect();
            let json = serde_json::to_string(&list).unwrap();
            assert_eq!(json, serde_json::to_string(&vec).unwrap());
            assert_eq!(serde_json::from_str::<InlineList<u32, 2>>(&json).unwrap(), list);
            assert_eq!(list, vec);
        }
        // As a `Vec` reads it: the parser's message for a wrong shape is unchanged.
        let wrong = serde_json::from_str::<InlineList<u32, 2>>("{}").unwrap_err().to_string();
        assert_eq!(wrong, serde_json::from_str::<Vec<u32>>("{}").unwrap_err().to_string());
    }
}
