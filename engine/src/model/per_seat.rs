//! [`PerSeat`]: a list with at most one entry per seat, kept inline. Events that name what
//! several seats received (a roll's production) carry one, so that deciding and applying a
//! roll allocates nothing (issue 28, part 5). On the wire it is a plain JSON array.

use std::fmt;

use serde::{de, ser::SerializeSeq, Deserialize, Deserializer, Serialize, Serializer};

/// Most seats a game has (the 5-6 extension, X56).
pub const MAX_SEATS: usize = 6;

/// Up to [`MAX_SEATS`] entries, in order, stored inline. Reads as a slice.
#[derive(Clone, Copy)]
pub struct PerSeat<T: Copy + Default> {
    len: Len,
    items: [T; MAX_SEATS],
}

/// A list's length, 0 to [`MAX_SEATS`]. The byte's other values are free for an enum that
/// holds a list to keep its tag in: a progress card's discards (`CardDecision`) then fit in
/// a phase as a 7's discards do, and every phase and event stays as small.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Len {
    L0,
    L1,
    L2,
    L3,
    L4,
    L5,
    L6,
}

impl Len {
    const ALL: [Len; MAX_SEATS + 1] = [Len::L0, Len::L1, Len::L2, Len::L3, Len::L4, Len::L5, Len::L6];

    const fn get(self) -> usize {
        self as usize
    }
}

impl<T: Copy + Default> PerSeat<T> {
    pub fn new() -> Self {
        PerSeat { len: Len::L0, items: [T::default(); MAX_SEATS] }
    }

    /// The list of `item` alone.
    pub fn one(item: T) -> Self {
        let mut list = Self::new();
        list.items[0] = item;
        list.len = Len::L1;
        list
    }

    /// As the slice's, but a path serde's `skip_serializing_if` can name.
    pub fn is_empty(&self) -> bool {
        self.len == Len::L0
    }

    /// Appends `item`; returns it back when the list is full.
    ///
    /// # Errors
    /// `item` when the list already holds [`MAX_SEATS`] entries.
    pub fn try_push(&mut self, item: T) -> Result<(), T> {
        let len = self.len.get();
        if len == MAX_SEATS {
            return Err(item);
        }
        self.items[len] = item;
        self.len = Len::ALL[len + 1];
        Ok(())
    }
}

impl<T: Copy + Default> Default for PerSeat<T> {
    fn default() -> Self {
        PerSeat::new()
    }
}

impl<T: Copy + Default> std::ops::Deref for PerSeat<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len.get()]
    }
}

impl<T: Copy + Default> std::ops::DerefMut for PerSeat<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..self.len.get()]
    }
}

impl<'a, T: Copy + Default> IntoIterator for &'a PerSeat<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// Keeps the first [`MAX_SEATS`] items (a game has no more seats to list).
impl<T: Copy + Default> FromIterator<T> for PerSeat<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut list = PerSeat::new();
        for item in items.into_iter().take(MAX_SEATS) {
            let _ = list.try_push(item);
        }
        list
    }
}

/// For lists written out in full (tests, fixtures): keeps the first [`MAX_SEATS`] items.
impl<T: Copy + Default> From<Vec<T>> for PerSeat<T> {
    fn from(items: Vec<T>) -> Self {
        items.into_iter().collect()
    }
}

impl<T: Copy + Default + PartialEq> PartialEq for PerSeat<T> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Default + Eq> Eq for PerSeat<T> {}

/// As the lists it replaced in events and phases compared.
impl<T: Copy + Default + PartialEq> PartialEq<Vec<T>> for PerSeat<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        **self == **other
    }
}

impl<T: Copy + Default + fmt::Debug> fmt::Debug for PerSeat<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + Default + Serialize> Serialize for PerSeat<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for item in self.iter() {
            seq.serialize_element(item)?;
        }
        seq.end()
    }
}

impl<'de, T: Copy + Default + Deserialize<'de>> Deserialize<'de> for PerSeat<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Items<T>(std::marker::PhantomData<T>);
        impl<'de, T: Copy + Default + Deserialize<'de>> de::Visitor<'de> for Items<T> {
            type Value = PerSeat<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an array of at most {MAX_SEATS} entries, one per seat")
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut list = PerSeat::new();
                while let Some(item) = seq.next_element()? {
                    list.try_push(item).map_err(|_| de::Error::invalid_length(MAX_SEATS + 1, &self))?;
                }
                Ok(list)
            }
        }
        deserializer.deserialize_seq(Items(std::marker::PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_as_a_json_array_of_at_most_six() {
        let list: PerSeat<u32> = vec![3, 1, 4].into();
        assert_eq!(serde_json::to_string(&list).unwrap(), "[3,1,4]");
        assert_eq!(serde_json::from_str::<PerSeat<u32>>("[3,1,4]").unwrap(), list);
        assert_eq!(serde_json::from_str::<PerSeat<u32>>("[]").unwrap(), PerSeat::new());
        assert!(serde_json::from_str::<PerSeat<u32>>("[1,2,3,4,5,6,7]").is_err());
        let full: PerSeat<u32> = (0..9).collect();
        assert_eq!(*full, [0, 1, 2, 3, 4, 5]);
    }
}
