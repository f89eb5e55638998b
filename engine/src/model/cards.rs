//! Cards counted by kind: resource cards now, commodities (Cities & Knights) next. One generic
//! [`Counts`] serves hands, the bank, decks, costs, trade sides and bank rates of any kind.

use std::{
    fmt,
    hash::Hash,
    marker::PhantomData,
    ops::{Add, AddAssign, Sub, SubAssign},
};

use serde::{
    de::{self, MapAccess, Visitor},
    ser::SerializeMap,
    Deserialize, Deserializer, Serialize, Serializer,
};

/// A kind of card that is counted: each kind has a dense index and a snake_case name.
pub trait CardKind: Copy + Eq + fmt::Debug + 'static {
    /// Every kind, in index order (the order of serialization and of [`Counts::nth_card`]).
    const ALL: &'static [Self];
    /// The kinds' names, in index order.
    const NAMES: &'static [&'static str];
    /// One count per kind, e.g. `[u32; 5]`.
    type Array: Copy + Default + PartialEq + Eq + Hash + fmt::Debug + AsRef<[u32]> + AsMut<[u32]>;
    fn index(self) -> usize;
    fn name(self) -> &'static str;
}

/// A count of cards per kind of `K`. Serialized as an object naming every kind; missing
/// names count as zero and unknown names are refused.
pub struct Counts<K: CardKind> {
    counts: K::Array,
    _kind: PhantomData<K>,
}

impl<K: CardKind> Clone for Counts<K> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<K: CardKind> Copy for Counts<K> {}
impl<K: CardKind> Default for Counts<K> {
    fn default() -> Self {
        Counts { counts: K::Array::default(), _kind: PhantomData }
    }
}
impl<K: CardKind> PartialEq for Counts<K> {
    fn eq(&self, other: &Self) -> bool {
        self.counts == other.counts
    }
}
impl<K: CardKind> Eq for Counts<K> {}
impl<K: CardKind> Hash for Counts<K> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.counts.hash(state);
    }
}
impl<K: CardKind> fmt::Debug for Counts<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut map = f.debug_map();
        for &kind in K::ALL {
            map.entry(&kind.name(), &self.get(kind));
        }
        map.finish()
    }
}

impl<K: CardKind> Counts<K> {
    /// No cards.
    pub fn zero() -> Self {
        Counts::default()
    }

    /// Returns a bundle from one count per kind, in index order.
    pub const fn from_array(counts: K::Array) -> Self {
        Counts { counts, _kind: PhantomData }
    }

    /// Returns `count` cards of one kind.
    pub fn of(kind: K, count: u32) -> Self {
        let mut bundle = Self::default();
        bundle.set(kind, count);
        bundle
    }

    /// Returns `count` cards of every kind.
    pub fn each(count: u32) -> Self {
        let mut bundle = Self::default();
        let counts: &mut [u32] = bundle.counts.as_mut();
        counts.fill(count);
        bundle
    }

    pub fn get(&self, kind: K) -> u32 {
        self.counts.as_ref()[kind.index()]
    }

    pub fn get_mut(&mut self, kind: K) -> &mut u32 {
        &mut self.counts.as_mut()[kind.index()]
    }

    pub fn set(&mut self, kind: K, count: u32) {
        *self.get_mut(kind) = count;
    }

    /// The counts in index order.
    pub fn as_slice(&self) -> &[u32] {
        self.counts.as_ref()
    }

    /// Returns the number of cards (saturating: bundles from clients may hold absurd counts,
    /// which must be rejected, never overflow).
    pub fn total(&self) -> u32 {
        self.counts.as_ref().iter().fold(0u32, |sum, &n| sum.saturating_add(n))
    }

    pub fn is_empty(&self) -> bool {
        self.counts.as_ref().iter().all(|&n| n == 0)
    }

    /// Tests if every count of `other` is covered by this bundle.
    pub fn contains(&self, other: &Self) -> bool {
        self.counts.as_ref().iter().zip(other.counts.as_ref()).all(|(a, b)| a >= b)
    }

    /// Returns the kinds with a non-zero count.
    pub fn kinds(&self) -> impl Iterator<Item = K> + '_ {
        // The held kinds as a bit mask made without a branch, then walked bit by bit: a hand
        // of 25 kinds of progress card holds a few, and is listed on every move.
        let counts = self.counts.as_ref();
        let mut held = counts.iter().enumerate().fold(0u64, |mask, (i, &n)| mask | u64::from(n > 0) << (i % 64));
        std::iter::from_fn(move || {
            if held == 0 {
                return None;
            }
            let i = held.trailing_zeros() as usize;
            held &= held - 1;
            K::ALL.get(i).copied()
        })
    }

    /// Tests if the two bundles share a kind (B-TRD-8).
    pub fn overlaps(&self, other: &Self) -> bool {
        self.counts.as_ref().iter().zip(other.counts.as_ref()).any(|(&a, &b)| a > 0 && b > 0)
    }

    /// Returns `self - other`, or `None` if a count would go negative.
    pub fn checked_sub(&self, other: &Self) -> Option<Self> {
        self.contains(other).then(|| *self - *other)
    }

    /// Returns the `index`-th card when the cards are laid out by kind in index order; turns
    /// a random index into a concrete card.
    pub fn nth_card(&self, mut index: u32) -> Option<K> {
        for &kind in K::ALL {
            let count = self.get(kind);
            if index < count {
                return Some(kind);
            }
            index -= count;
        }
        None
    }

    /// Adds `other` into this bundle.
    pub fn add(&mut self, other: &Self) {
        *self += *other;
    }

    fn zip_with(self, other: Self, f: impl Fn(u32, u32) -> u32) -> Self {
        let mut out = self;
        for (a, b) in out.counts.as_mut().iter_mut().zip(other.counts.as_ref()) {
            *a = f(*a, *b);
        }
        out
    }
}

impl<K: CardKind> Add for Counts<K> {
    type Output = Self;
    fn add(self, other: Self) -> Self {
        self.zip_with(other, u32::saturating_add)
    }
}

impl<K: CardKind> AddAssign for Counts<K> {
    fn add_assign(&mut self, other: Self) {
        *self = *self + other;
    }
}

/// Saturating: callers check [`Counts::contains`] first; `apply` must never panic.
impl<K: CardKind> Sub for Counts<K> {
    type Output = Self;
    fn sub(self, other: Self) -> Self {
        self.zip_with(other, u32::saturating_sub)
    }
}

impl<K: CardKind> SubAssign for Counts<K> {
    fn sub_assign(&mut self, other: Self) {
        *self = *self - other;
    }
}

impl<K: CardKind> Serialize for Counts<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(K::ALL.len()))?;
        for &kind in K::ALL {
            map.serialize_entry(kind.name(), &self.get(kind))?;
        }
        map.end()
    }
}

impl<'de, K: CardKind> Deserialize<'de> for Counts<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CountsVisitor<K>(PhantomData<K>);
        impl<'de, K: CardKind> Visitor<'de> for CountsVisitor<K> {
            type Value = Counts<K>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "an object counting cards by kind ({})", K::NAMES.join(", "))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Counts<K>, A::Error> {
                let mut counts = Counts::<K>::default();
                let mut seen = K::Array::default();
                while let Some(name) = access.next_key::<std::borrow::Cow<'de, str>>()? {
                    let Some(&kind) = K::ALL.iter().find(|k| k.name() == name) else {
                        return Err(de::Error::unknown_field(&name, K::NAMES));
                    };
                    if seen.as_ref()[kind.index()] != 0 {
                        return Err(de::Error::duplicate_field(kind.name()));
                    }
                    seen.as_mut()[kind.index()] = 1;
                    counts.set(kind, access.next_value()?);
                }
                Ok(counts)
            }
        }
        deserializer.deserialize_map(CountsVisitor(PhantomData))
    }
}

const RESOURCE_NAMES: [&str; 5] = ["lumber", "brick", "wool", "grain", "ore"];
const DEV_CARD_NAMES: [&str; 5] = ["knight", "road_building", "year_of_plenty", "monopoly", "victory_point"];

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
        RESOURCE_NAMES[self as usize]
    }
}

impl CardKind for Resource {
    const ALL: &'static [Resource] = &Resource::ALL;
    const NAMES: &'static [&'static str] = &RESOURCE_NAMES;
    type Array = [u32; 5];
    fn index(self) -> usize {
        self as usize
    }
    fn name(self) -> &'static str {
        Resource::name(self)
    }
}

/// A count of cards per resource type: a hand, the bank, a cost or one side of a trade.
///
/// Serialized as an object with the five resource names; missing names count as zero.
pub type Resources = Counts<Resource>;

impl Counts<Resource> {
    pub const ZERO: Resources = Counts::from_array([0; 5]);

    pub const fn new(lumber: u32, brick: u32, wool: u32, grain: u32, ore: u32) -> Self {
        Counts::from_array([lumber, brick, wool, grain, ore])
    }

    /// Returns the resource types with a non-zero count.
    pub fn types(&self) -> impl Iterator<Item = Resource> + '_ {
        self.kinds()
    }
}

/// The five kinds of development card (B-CMP-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum DevCard {
    Knight,
    RoadBuilding,
    YearOfPlenty,
    Monopoly,
    VictoryPoint,
}

impl DevCard {
    pub const ALL: [DevCard; 5] =
        [DevCard::Knight, DevCard::RoadBuilding, DevCard::YearOfPlenty, DevCard::Monopoly, DevCard::VictoryPoint];

    pub const fn name(self) -> &'static str {
        DEV_CARD_NAMES[self as usize]
    }
}

impl CardKind for DevCard {
    const ALL: &'static [DevCard] = &DevCard::ALL;
    const NAMES: &'static [&'static str] = &DEV_CARD_NAMES;
    type Array = [u32; 5];
    fn index(self) -> usize {
        self as usize
    }
    fn name(self) -> &'static str {
        DevCard::name(self)
    }
}

/// A count of development cards per kind: a hand, or the deck's remaining composition.
pub type DevCards = Counts<DevCard>;

impl Counts<DevCard> {
    /// Returns a count from the five kinds' numbers, in [`DevCard::ALL`] order.
    pub const fn new(knight: u32, road_building: u32, year_of_plenty: u32, monopoly: u32, victory_point: u32) -> Self {
        Counts::from_array([knight, road_building, year_of_plenty, monopoly, victory_point])
    }
}

const COMMODITY_NAMES: [&str; 3] = ["paper", "cloth", "coin"];

/// One of the three commodities of Cities & Knights (CK-CMP-1): paper from forest, cloth from
/// pasture, coin from mountains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Commodity {
    Paper,
    Cloth,
    Coin,
}

impl Commodity {
    pub const ALL: [Commodity; 3] = [Commodity::Paper, Commodity::Cloth, Commodity::Coin];

    pub const fn name(self) -> &'static str {
        COMMODITY_NAMES[self as usize]
    }

    /// The resource whose hexes also yield this commodity to a city (CK-PROD-2).
    pub const fn resource(self) -> Resource {
        match self {
            Commodity::Paper => Resource::Lumber,
            Commodity::Cloth => Resource::Wool,
            Commodity::Coin => Resource::Ore,
        }
    }

    /// The commodity a city takes besides one `resource` (CK-PROD-2), if any.
    pub fn of_resource(resource: Resource) -> Option<Commodity> {
        Commodity::ALL.into_iter().find(|c| c.resource() == resource)
    }
}

impl CardKind for Commodity {
    const ALL: &'static [Commodity] = &Commodity::ALL;
    const NAMES: &'static [&'static str] = &COMMODITY_NAMES;
    type Array = [u32; 3];
    fn index(self) -> usize {
        self as usize
    }
    fn name(self) -> &'static str {
        Commodity::name(self)
    }
}

/// A count of commodity cards per kind (Cities & Knights): a hand, the bank, a cost.
pub type Commodities = Counts<Commodity>;

impl Counts<Commodity> {
    pub const NONE: Commodities = Counts::from_array([0; 3]);

    pub const fn new(paper: u32, cloth: u32, coin: u32) -> Self {
        Counts::from_array([paper, cloth, coin])
    }
}

/// Cards of a hand in Cities & Knights: resources and commodities (CK-7-1 counts both).
/// Serialized as `{"resources": {...}, "commodities": {...}}`, either absent when empty.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Cards {
    #[serde(default, skip_serializing_if = "Counts::is_empty")]
    pub resources: Resources,
    #[serde(default, skip_serializing_if = "Counts::is_empty")]
    pub commodities: Commodities,
}

impl Cards {
    pub const fn new(resources: Resources, commodities: Commodities) -> Self {
        Cards { resources, commodities }
    }

    pub fn of_resources(resources: Resources) -> Self {
        Cards { resources, commodities: Commodities::NONE }
    }

    pub fn of_commodities(commodities: Commodities) -> Self {
        Cards { resources: Resources::ZERO, commodities }
    }

    /// The number of cards (saturating).
    pub fn total(&self) -> u32 {
        self.resources.total().saturating_add(self.commodities.total())
    }

    pub fn is_empty(&self) -> bool {
        self.resources.is_empty() && self.commodities.is_empty()
    }

    /// Tests if every count of `other` is covered.
    pub fn contains(&self, other: &Cards) -> bool {
        self.resources.contains(&other.resources) && self.commodities.contains(&other.commodities)
    }

    /// The counts of all eight kinds, resources first: one weight per card kind for a draw.
    pub fn weights(&self) -> [u32; 8] {
        let mut weights = [0; 8];
        weights[..5].copy_from_slice(self.resources.as_slice());
        weights[5..].copy_from_slice(self.commodities.as_slice());
        weights
    }

    /// The kinds with a non-zero count: how many different kinds the cards hold.
    pub fn kind_count(&self) -> usize {
        self.resources.kinds().count() + self.commodities.kinds().count()
    }
}

/// Building costs (B-BLD-1).
pub mod cost {
    use super::Resources;

    pub const ROAD: Resources = Resources::new(1, 1, 0, 0, 0);
    pub const SETTLEMENT: Resources = Resources::new(1, 1, 1, 1, 0);
    pub const CITY: Resources = Resources::new(0, 0, 0, 2, 3);
    pub const DEVELOPMENT_CARD: Resources = Resources::new(0, 0, 1, 1, 1);
    /// A ship (Seafarers, SEA-1).
    pub const SHIP: Resources = Resources::new(1, 0, 1, 0, 0);
}

#[cfg(feature = "openapi")]
pub(crate) mod schema {
    //! The OpenAPI schemas of the counts clients see: an object with one integer per kind.
    use serde_json::json;
    use utoipa::openapi::{
        schema::{ObjectBuilder, Schema, SchemaType, Type},
        KnownFormat, RefOr, SchemaFormat,
    };

    use super::{CardKind, Counts, DevCard, Resource};

    pub(crate) fn object_of<K: CardKind>(description: &str, strict: bool) -> ObjectBuilder {
        let mut object = ObjectBuilder::new().description(Some(description));
        for &kind in K::ALL {
            object = object.property(
                kind.name(),
                ObjectBuilder::new()
                    .schema_type(SchemaType::new(Type::Integer))
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
                    .default(Some(0.into()))
                    .minimum(Some(0))
                    // A move naming more than 100 of one kind is refused (`invalid_card_count`).
                    .maximum(Some(100)),
            );
        }
        if strict {
            object = object.additional_properties(Some(utoipa::openapi::schema::AdditionalProperties::FreeForm(false)));
        }
        object
    }

    impl utoipa::PartialSchema for Counts<Resource> {
        // `example` is what the derived schemas of the other types emit too.
        #[allow(deprecated)]
        fn schema() -> RefOr<Schema> {
            let example = json!({"lumber": 1, "brick": 1, "wool": 0, "grain": 0, "ore": 0});
            object_of::<Resource>(
                "A count of cards per resource type: a hand, the bank, a cost or one side of a trade.\n\n\
                 Serialized as an object with the five resource names; missing names count as zero.",
                true,
            )
            .example(Some(example))
            .into()
        }
    }
    impl utoipa::ToSchema for Counts<Resource> {
        fn name() -> std::borrow::Cow<'static, str> {
            "Resources".into()
        }
    }

    impl utoipa::PartialSchema for Counts<super::Commodity> {
        fn schema() -> RefOr<Schema> {
            object_of::<super::Commodity>(
                "A count of commodity cards per kind (Cities & Knights); missing names count as zero.",
                true,
            )
            .into()
        }
    }
    impl utoipa::ToSchema for Counts<super::Commodity> {
        fn name() -> std::borrow::Cow<'static, str> {
            "Commodities".into()
        }
    }

    impl utoipa::PartialSchema for Counts<DevCard> {
        fn schema() -> RefOr<Schema> {
            object_of::<DevCard>(
                "A count of development cards per kind: a hand, or the deck's remaining composition.",
                false,
            )
            .into()
        }
    }
    impl utoipa::ToSchema for Counts<DevCard> {
        fn name() -> std::borrow::Cow<'static, str> {
            "DevCards".into()
        }
    }
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
    fn missing_names_deserialize_as_zero_and_unknown_names_are_refused() {
        let parsed: Resources = serde_json::from_str(r#"{"ore": 3}"#).unwrap();
        assert_eq!(parsed, Resources::of(Resource::Ore, 3));
        assert!(serde_json::from_str::<Resources>(r#"{"gold": 1}"#).is_err());
        assert!(serde_json::from_str::<Resources>(r#"{"ore": 1, "ore": 2}"#).is_err());
        assert!(serde_json::from_str::<Resources>(r#"{"ore": -1}"#).is_err());
    }

    #[test]
    fn serializes_every_kind_by_name_in_order() {
        let json = serde_json::to_string(&DevCards::new(1, 0, 2, 0, 0)).unwrap();
        assert_eq!(json, r#"{"knight":1,"road_building":0,"year_of_plenty":2,"monopoly":0,"victory_point":0}"#);
    }
}
