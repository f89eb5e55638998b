//! [`Phases`]: the phases a decision interrupted, in the order they resume. Every
//! `phase_changed` event carries one and the game keeps one, so it is copied on most moves;
//! kept inline up to the depth self-play usually reaches (a 7's discard interrupts the
//! robber, which interrupts the main phase), and past it in a buffer an earlier list left
//! behind, changing phases allocates nothing (issue 28, part 5). On the wire it is a plain
//! JSON array.

use std::{cell::RefCell, fmt};

use serde::{de, ser::SerializeSeq, Deserialize, Deserializer, Serialize, Serializer};

use super::Phase;

/// How many phases fit inline: a third would add a phase's size to every `phase_changed`
/// event, hence to every event.
const INLINE: usize = 2;

/// A list of phases, stored inline while it holds at most two. Reads as a slice.
pub struct Phases(Repr);

impl Clone for Phases {
    fn clone(&self) -> Self {
        Phases(self.0.clone())
    }

    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0);
    }
}

enum Repr {
    /// The slots past `len` hold `Phase::GameOver`, which owns nothing.
    Inline {
        len: u8,
        items: [Phase; INLINE],
    },
    Heap(Spilled),
}

/// Copies only the phases held: the list is copied on most moves and is most often empty,
/// and the slots past its length are `GameOver`, which owns nothing. Each slot is written
/// once, where it lands: a copy built apart and then moved stalled on reading back the
/// narrower stores that built it (4 % of a random base game).
impl Clone for Repr {
    fn clone(&self) -> Self {
        match self {
            Repr::Inline { len, items: [first, second] } => {
                let held =
                    |slot: usize, phase: &Phase| if usize::from(*len) > slot { phase.clone() } else { Phase::GameOver };
                Repr::Inline { len: *len, items: [held(0, first), held(1, second)] }
            }
            Repr::Heap(spilled) => Repr::Heap(spilled.clone()),
        }
    }

    /// In place while both lists are inline: the game takes the list of every
    /// `phase_changed` it applies.
    fn clone_from(&mut self, source: &Self) {
        match (&mut *self, source) {
            (Repr::Inline { len, items }, Repr::Inline { len: source_len, items: source_items }) => {
                let (held, was_held) = (usize::from(*source_len), usize::from(*len));
                for (slot, (to, from)) in items.iter_mut().zip(source_items).enumerate() {
                    if slot < held {
                        to.clone_from(from);
                    } else if slot < was_held {
                        *to = Phase::GameOver;
                    }
                }
                *len = *source_len;
            }
            _ => *self = source.clone(),
        }
    }
}

/// Spare buffers kept per thread for the lists that outgrow the inline room (at most this
/// many: more than a game and its look-ahead copies hold at once).
const SPARES_KEPT: usize = 8;

thread_local! {
    /// Emptied buffers of spilled lists, for the next to spill. Deeper nesting is rare but
    /// real in Cities & Knights (a 7's discards, interrupted by the progress cards over the
    /// limit the same roll drew, CK-PC-5), and such a list is copied into the game and its
    /// look-ahead copies: taking a spare buffer instead of allocating keeps those moves
    /// from allocating, as the look-ahead copies themselves are reused (`Game::with_copy`).
    static SPARES: RefCell<Vec<Vec<Phase>>> = const { RefCell::new(Vec::new()) };
}

/// A spilled list's buffer: taken from the thread's spares, and given back when dropped.
struct Spilled(Vec<Phase>);

// Cold: lists seldom spill, and kept out of line these leave the common paths that copy and
// drop lists as small as they were before the spares.
impl Spilled {
    #[cold]
    fn new() -> Self {
        // `try_with`: while the thread exits, the spares may be gone.
        let spare = SPARES.try_with(|spares| spares.borrow_mut().pop()).ok().flatten();
        Spilled(spare.unwrap_or_else(|| Vec::with_capacity(2 * INLINE)))
    }
}

impl Clone for Spilled {
    #[cold]
    fn clone(&self) -> Self {
        let mut copy = Spilled::new();
        copy.0.extend_from_slice(&self.0);
        copy
    }
}

impl Drop for Spilled {
    #[cold]
    fn drop(&mut self) {
        let mut buffer = std::mem::take(&mut self.0);
        // No phase holds a list of phases: emptying the buffer never comes back here.
        buffer.clear();
        if buffer.capacity() > 0 {
            let _ = SPARES.try_with(|spares| {
                let mut spares = spares.borrow_mut();
                if spares.len() < SPARES_KEPT {
                    spares.push(buffer);
                }
            });
        }
    }
}

impl Phases {
    pub const fn new() -> Self {
        Phases(Repr::Inline { len: 0, items: [Phase::GameOver, Phase::GameOver] })
    }

    pub fn push(&mut self, phase: Phase) {
        match &mut self.0 {
            Repr::Inline { len, items } => match items.get_mut(usize::from(*len)) {
                Some(slot) => {
                    *slot = phase;
                    *len += 1;
                }
                None => {
                    let mut spilled = Spilled::new();
                    spilled.0.extend(items.iter_mut().map(|item| std::mem::replace(item, Phase::GameOver)));
                    spilled.0.push(phase);
                    self.0 = Repr::Heap(spilled);
                }
            },
            Repr::Heap(items) => items.0.push(phase),
        }
    }

    pub fn clear(&mut self) {
        *self = Phases::new();
    }

    /// The phases as a slice (as `Vec::as_slice`, which this list replaced in events).
    pub fn as_slice(&self) -> &[Phase] {
        self
    }

    /// Whether the list is empty (for `skip_serializing_if`).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for Phases {
    fn default() -> Self {
        Phases::new()
    }
}

impl std::ops::Deref for Phases {
    type Target = [Phase];
    fn deref(&self) -> &[Phase] {
        match &self.0 {
            Repr::Inline { len, items } => &items[..usize::from(*len)],
            Repr::Heap(items) => &items.0,
        }
    }
}

impl<'a> IntoIterator for &'a Phases {
    type Item = &'a Phase;
    type IntoIter = std::slice::Iter<'a, Phase>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl FromIterator<Phase> for Phases {
    fn from_iter<I: IntoIterator<Item = Phase>>(phases: I) -> Self {
        let mut list = Phases::new();
        list.extend(phases);
        list
    }
}

impl Extend<Phase> for Phases {
    fn extend<I: IntoIterator<Item = Phase>>(&mut self, phases: I) {
        for phase in phases {
            self.push(phase);
        }
    }
}

impl From<Vec<Phase>> for Phases {
    fn from(phases: Vec<Phase>) -> Self {
        phases.into_iter().collect()
    }
}

impl From<&[Phase]> for Phases {
    fn from(phases: &[Phase]) -> Self {
        phases.iter().cloned().collect()
    }
}

impl<const N: usize> From<[Phase; N]> for Phases {
    fn from(phases: [Phase; N]) -> Self {
        phases.into_iter().collect()
    }
}

impl From<Phases> for Vec<Phase> {
    fn from(phases: Phases) -> Self {
        match phases.0 {
            Repr::Inline { len, items } => items.into_iter().take(usize::from(len)).collect(),
            Repr::Heap(mut items) => std::mem::take(&mut items.0),
        }
    }
}

impl PartialEq for Phases {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for Phases {}

impl PartialEq<Vec<Phase>> for Phases {
    fn eq(&self, other: &Vec<Phase>) -> bool {
        **self == **other
    }
}

impl PartialEq<[Phase]> for Phases {
    fn eq(&self, other: &[Phase]) -> bool {
        **self == *other
    }
}

impl fmt::Debug for Phases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Phases {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for phase in self.iter() {
            seq.serialize_element(phase)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Phases {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Items;
        impl<'de> de::Visitor<'de> for Items {
            type Value = Phases;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of phases")
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut list = Phases::new();
                while let Some(phase) = seq.next_element()? {
                    list.push(phase);
                }
                Ok(list)
            }
        }
        deserializer.deserialize_seq(Items)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_as_a_json_array_of_any_length() {
        for n in 0..5 {
            let list: Phases = (0..n).map(|i| Phase::RoadBuilding { roads_left: i }).collect();
            let json = serde_json::to_string(&list).unwrap();
            let vec: Vec<Phase> = list.clone().into();
            assert_eq!(json, serde_json::to_string(&vec).unwrap());
            assert_eq!(serde_json::from_str::<Phases>(&json).unwrap(), list);
            assert_eq!(list.len(), usize::from(n));
            assert_eq!(list, vec);
        }
    }
}
