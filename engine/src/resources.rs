//! Resource types and counted bundles of resource cards (hands, the bank, costs).

use std::ops::{Add, AddAssign, Sub, SubAssign};

use serde::{Deserialize, Serialize};

/// One of the five resource types (B-CMP-1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    Lumber,
    Brick,
    Wool,
    Grain,
    Ore,
}

impl Resource {
    pub const ALL: [Resource; 5] = [Resource::Lumber, Resource::Brick, Resource::Wool, Resource::Grain, Resource::Ore];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Resource::Lumber => "lumber",
            Resource::Brick => "brick",
            Resource::Wool => "wool",
            Resource::Grain => "grain",
            Resource::Ore => "ore",
        }
    }
}

/// A count of cards per resource type: a hand, the bank, a cost or one side of a trade.
///
/// Serialized as an object with the five resource names; missing names count as zero.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"lumber": 1, "brick": 1, "wool": 0, "grain": 0, "ore": 0})))]
#[serde(default, deny_unknown_fields)]
pub struct Resources {
    pub lumber: u32,
    pub brick: u32,
    pub wool: u32,
    pub grain: u32,
    pub ore: u32,
}

impl Resources {
    pub const ZERO: Resources = Resources::new(0, 0, 0, 0, 0);

    pub const fn new(lumber: u32, brick: u32, wool: u32, grain: u32, ore: u32) -> Self {
        Resources { lumber, brick, wool, grain, ore }
    }

    /// Returns a bundle of `count` cards of one type.
    pub fn of(resource: Resource, count: u32) -> Self {
        let mut bundle = Resources::ZERO;
        bundle.set(resource, count);
        bundle
    }

    /// Returns `count` cards of every type.
    pub const fn each(count: u32) -> Self {
        Resources::new(count, count, count, count, count)
    }

    pub const fn get(&self, resource: Resource) -> u32 {
        match resource {
            Resource::Lumber => self.lumber,
            Resource::Brick => self.brick,
            Resource::Wool => self.wool,
            Resource::Grain => self.grain,
            Resource::Ore => self.ore,
        }
    }

    pub fn get_mut(&mut self, resource: Resource) -> &mut u32 {
        match resource {
            Resource::Lumber => &mut self.lumber,
            Resource::Brick => &mut self.brick,
            Resource::Wool => &mut self.wool,
            Resource::Grain => &mut self.grain,
            Resource::Ore => &mut self.ore,
        }
    }

    pub fn set(&mut self, resource: Resource, count: u32) {
        *self.get_mut(resource) = count;
    }

    /// Returns the number of cards in the bundle (saturating: bundles from clients may hold
    /// absurd counts, which must be rejected, never overflow).
    pub const fn total(&self) -> u32 {
        self.lumber
            .saturating_add(self.brick)
            .saturating_add(self.wool)
            .saturating_add(self.grain)
            .saturating_add(self.ore)
    }

    pub const fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// Tests if every count of `other` is covered by this bundle.
    pub const fn contains(&self, other: &Resources) -> bool {
        self.lumber >= other.lumber
            && self.brick >= other.brick
            && self.wool >= other.wool
            && self.grain >= other.grain
            && self.ore >= other.ore
    }

    /// Returns the types with a non-zero count.
    pub fn types(&self) -> impl Iterator<Item = Resource> + '_ {
        Resource::ALL.into_iter().filter(|r| self.get(*r) > 0)
    }

    /// Tests if the two bundles share a resource type (B-TRD-8).
    pub fn overlaps(&self, other: &Resources) -> bool {
        Resource::ALL.into_iter().any(|r| self.get(r) > 0 && other.get(r) > 0)
    }

    /// Returns `self - other`, or `None` if a count would go negative.
    pub fn checked_sub(&self, other: &Resources) -> Option<Resources> {
        self.contains(other).then(|| *self - *other)
    }

    /// Returns the `index`-th card when the cards are laid out by type in the order of
    /// [`Resource::ALL`]; used to turn a random index into a concrete stolen card.
    pub fn nth_card(&self, mut index: u32) -> Option<Resource> {
        for resource in Resource::ALL {
            let count = self.get(resource);
            if index < count {
                return Some(resource);
            }
            index -= count;
        }
        None
    }
}

impl Add for Resources {
    type Output = Resources;
    fn add(self, o: Resources) -> Resources {
        Resources::new(
            self.lumber + o.lumber,
            self.brick + o.brick,
            self.wool + o.wool,
            self.grain + o.grain,
            self.ore + o.ore,
        )
    }
}

impl AddAssign for Resources {
    fn add_assign(&mut self, o: Resources) {
        *self = *self + o;
    }
}

/// Saturating: callers check [`Resources::contains`] first; `apply` must never panic.
impl Sub for Resources {
    type Output = Resources;
    fn sub(self, o: Resources) -> Resources {
        Resources::new(
            self.lumber.saturating_sub(o.lumber),
            self.brick.saturating_sub(o.brick),
            self.wool.saturating_sub(o.wool),
            self.grain.saturating_sub(o.grain),
            self.ore.saturating_sub(o.ore),
        )
    }
}

impl SubAssign for Resources {
    fn sub_assign(&mut self, o: Resources) {
        *self = *self - o;
    }
}

/// Building costs (B-BLD-1).
pub mod cost {
    use super::Resources;

    pub const ROAD: Resources = Resources::new(1, 1, 0, 0, 0);
    pub const SETTLEMENT: Resources = Resources::new(1, 1, 1, 1, 0);
    pub const CITY: Resources = Resources::new(0, 0, 0, 2, 3);
    pub const DEVELOPMENT_CARD: Resources = Resources::new(0, 0, 1, 1, 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_card_walks_the_types_in_order() {
        let hand = Resources::new(0, 2, 0, 1, 0);
        assert_eq!(hand.nth_card(0), Some(Resource::Brick));
        assert_eq!(hand.nth_card(1), Some(Resource::Brick));
        assert_eq!(hand.nth_card(2), Some(Resource::Grain));
        assert_eq!(hand.nth_card(3), None);
    }

    #[test]
    fn overlap_detects_shared_types() {
        let wool_ore = Resources::new(0, 0, 1, 0, 1);
        assert!(wool_ore.overlaps(&Resources::of(Resource::Wool, 1)));
        assert!(!wool_ore.overlaps(&Resources::of(Resource::Brick, 3)));
    }

    #[test]
    fn missing_names_deserialize_as_zero() {
        let parsed: Resources = serde_json::from_str(r#"{"ore": 3}"#).unwrap();
        assert_eq!(parsed, Resources::of(Resource::Ore, 3));
        assert!(serde_json::from_str::<Resources>(r#"{"gold": 1}"#).is_err());
    }
}
