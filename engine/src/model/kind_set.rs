//! [`KindSet`]: a set of card kinds in one byte. A roll's production names the kinds the bank
//! ran short of (B-PROD-4, CK-PROD-4); held as a set, that list costs no allocation when a
//! roll finds the bank short (issue 28, part 5). On the wire it is a plain JSON array in the
//! kinds' index order, as the lists it replaced were written.

use std::{fmt, marker::PhantomData};

use serde::{de, ser::SerializeSeq, Deserialize, Deserializer, Serialize, Serializer};

use super::CardKind;

/// Some kinds of `K` (at most eight kinds: resources and commodities both fit).
pub struct KindSet<K: CardKind> {
    bits: u8,
    _kind: PhantomData<K>,
}

impl<K: CardKind> KindSet<K> {
    pub const EMPTY: Self = KindSet { bits: 0, _kind: PhantomData };

    pub fn insert(&mut self, kind: K) {
        self.bits |= 1 << kind.index();
    }

    pub fn contains(&self, kind: K) -> bool {
        self.bits & (1 << kind.index()) != 0
    }

    pub fn is_empty(&self) -> bool {
        self.bits == 0
    }

    pub fn len(&self) -> usize {
        self.bits.count_ones() as usize
    }

    /// The kinds in the set, in index order.
    pub fn iter(&self) -> impl Iterator<Item = K> + '_ {
        K::ALL.iter().copied().filter(|&kind| self.contains(kind))
    }
}

impl<K: CardKind> Clone for KindSet<K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K: CardKind> Copy for KindSet<K> {}

impl<K: CardKind> Default for KindSet<K> {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl<K: CardKind> PartialEq for KindSet<K> {
    fn eq(&self, other: &Self) -> bool {
        self.bits == other.bits
    }
}
impl<K: CardKind> Eq for KindSet<K> {}

impl<K: CardKind> FromIterator<K> for KindSet<K> {
    fn from_iter<I: IntoIterator<Item = K>>(kinds: I) -> Self {
        let mut set = Self::EMPTY;
        for kind in kinds {
            set.insert(kind);
        }
        set
    }
}

impl<K: CardKind> From<Vec<K>> for KindSet<K> {
    fn from(kinds: Vec<K>) -> Self {
        kinds.into_iter().collect()
    }
}

impl<K: CardKind> fmt::Debug for KindSet<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<K: CardKind + Serialize> Serialize for KindSet<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for kind in self.iter() {
            seq.serialize_element(&kind)?;
        }
        seq.end()
    }
}

impl<'de, K: CardKind + Deserialize<'de>> Deserialize<'de> for KindSet<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Kinds<K>(PhantomData<K>);
        impl<'de, K: CardKind + Deserialize<'de>> de::Visitor<'de> for Kinds<K> {
            type Value = KindSet<K>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of card kinds")
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut set = KindSet::EMPTY;
                while let Some(kind) = seq.next_element()? {
                    set.insert(kind);
                }
                Ok(set)
            }
        }
        deserializer.deserialize_seq(Kinds(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Commodity, Resource};

    #[test]
    fn reads_and_writes_as_a_json_array_in_index_order() {
        let set: KindSet<Resource> = vec![Resource::Ore, Resource::Brick].into();
        assert_eq!(serde_json::to_string(&set).unwrap(), r#"["brick","ore"]"#);
        assert_eq!(serde_json::from_str::<KindSet<Resource>>(r#"["brick","ore"]"#).unwrap(), set);
        assert_eq!(serde_json::from_str::<KindSet<Resource>>("[]").unwrap(), KindSet::EMPTY);
        assert!(serde_json::from_str::<KindSet<Resource>>(r#"["cloth"]"#).is_err());
        let commodities: KindSet<Commodity> = Commodity::ALL.iter().copied().collect();
        assert_eq!(commodities.len(), 3);
        assert_eq!(commodities.iter().collect::<Vec<_>>(), Commodity::ALL);
    }
}
