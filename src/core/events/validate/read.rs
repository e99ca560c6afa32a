//! Reading: borrowed records filled by serde visitors (strings stay slices of the input, unknown
//! members are skipped with `Skip`, which still decodes their strings).

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{
    self, value::MapAccessDeserializer, value::SeqAccessDeserializer, Deserialize, Deserializer,
    MapAccess, SeqAccess, Visitor,
};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Reading: borrowed records filled by serde visitors.

/// A member read where a string is expected: the string, or what was there instead.
#[derive(Debug)]
pub(super) enum Raw<'a> {
    Str(Cow<'a, str>),
    Other(Value),
}

/// Something read where a particular shape is expected, or what was there instead.
#[derive(Debug)]
pub(super) enum Shaped<T> {
    Ok(T),
    Wrong(Value),
}

pub(super) trait Fallback: Sized {
    fn other(v: Value) -> Self;
}
impl Fallback for Raw<'_> {
    fn other(v: Value) -> Self {
        Raw::Other(v)
    }
}
impl<T> Fallback for Shaped<T> {
    fn other(v: Value) -> Self {
        Shaped::Wrong(v)
    }
}

macro_rules! fallback_scalars {
    () => {
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::Bool(v)))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::from(v)))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::from(v)))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::from(v)))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::Null))
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::Null))
        }
    };
}
macro_rules! fallback_str {
    () => {
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Fallback::other(Value::String(v.to_owned())))
        }
    };
}
macro_rules! fallback_seq {
    () => {
        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
            Ok(Fallback::other(Value::deserialize(
                SeqAccessDeserializer::new(seq),
            )?))
        }
    };
}
macro_rules! fallback_map {
    () => {
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
            Ok(Fallback::other(Value::deserialize(
                MapAccessDeserializer::new(map),
            )?))
        }
    };
}

impl<'de> Deserialize<'de> for Raw<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Raw<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Raw::Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Raw::Str(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Raw::Str(Cow::Owned(v)))
            }
            fallback_scalars!();
            fallback_seq!();
            fallback_map!();
        }
        d.deserialize_any(V)
    }
}

/// An object member name, borrowed from the input when it has no escapes.
pub(super) struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        d.deserialize_str(V)
    }
}

/// Read the value of a known member into `slot`, noting a repeated member name.
pub(super) fn read_member<'de, A, T>(
    map: &mut A,
    slot: &mut Option<T>,
    name: &'static str,
    dups: &mut Vec<&'static str>,
) -> Result<(), A::Error>
where
    A: MapAccess<'de>,
    T: Deserialize<'de>,
{
    let v = map.next_value::<T>()?;
    if slot.is_some() {
        dups.push(name);
    }
    // The last occurrence wins, as in serde_json::Value.
    *slot = Some(v);
    Ok(())
}

#[derive(Debug, Default)]
pub(super) struct EventRec<'a> {
    pub(super) event: Option<Raw<'a>>,
    pub(super) apikey: Option<Raw<'a>>,
    pub(super) list_id: Option<Raw<'a>>,
    pub(super) tags: Option<Shaped<Vec<Raw<'a>>>>,
    pub(super) list_name: Option<Raw<'a>>,
    pub(super) list_logic: Option<Raw<'a>>,
    pub(super) profile: Option<Shaped<ProfileRec<'a>>>,
    pub(super) items: Option<Shaped<Vec<Shaped<ItemRec<'a>>>>>,
    /// The nested shape's `event_version` and `event_data`.
    pub(super) version: Option<Raw<'a>>,
    pub(super) data: Option<Shaped<DataRec<'a>>>,
    pub(super) dups: Vec<&'static str>,
}

/// `event_data` of a nested event.
#[derive(Debug, Default)]
pub(super) struct DataRec<'a> {
    pub(super) list_id: Option<Raw<'a>>,
    pub(super) tags: Option<Shaped<Vec<Raw<'a>>>>,
    pub(super) list_name: Option<Raw<'a>>,
    pub(super) list_logic: Option<Raw<'a>>,
    /// `action`, `spot_id`, `spot_name`, `segment_id`, `segment_name`, in [`DATA_STRINGS`] order.
    pub(super) strings: [Option<Raw<'a>>; 5],
    pub(super) banners: Option<Shaped<Vec<Shaped<BannerRec<'a>>>>>,
    pub(super) items: Option<Shaped<Vec<Shaped<ItemRec<'a>>>>>,
    pub(super) dups: Vec<&'static str>,
}

/// Optional string members of `event_data`.
pub(super) const DATA_STRINGS: [&str; 5] = [
    "action",
    "spot_id",
    "spot_name",
    "segment_id",
    "segment_name",
];

/// One entry of `event_data.static_content`.
#[derive(Debug, Default)]
pub(super) struct BannerRec<'a> {
    pub(super) content_type: Option<Raw<'a>>,
    pub(super) resolution: Option<Raw<'a>>,
    pub(super) url: Option<Raw<'a>>,
    pub(super) alt: Option<Raw<'a>>,
    pub(super) index: Option<Raw<'a>>,
    pub(super) dups: Vec<&'static str>,
}

#[derive(Debug, Default)]
pub(super) struct ProfileRec<'a> {
    pub(super) ip: Option<Raw<'a>>,
    pub(super) session: Option<Raw<'a>>,
    /// `order_purchase` only (the PHP SDK's `UserProfile`).
    pub(super) email: Option<Raw<'a>>,
    pub(super) dups: Vec<&'static str>,
}

#[derive(Debug, Default)]
pub(super) struct ItemRec<'a> {
    pub(super) item_id: Option<Raw<'a>>,
    pub(super) group: Option<Raw<'a>>,
    pub(super) variant: Option<Raw<'a>>,
    pub(super) name: Option<Raw<'a>>,
    pub(super) price: Option<Raw<'a>>,
    pub(super) currency: Option<Raw<'a>>,
    pub(super) brand: Option<Raw<'a>>,
    pub(super) category: Option<Raw<'a>>,
    pub(super) index: Option<Raw<'a>>,
    /// The members of an `order_purchase` item (`docs/events.md` rule E20).
    pub(super) unit_price: Option<Raw<'a>>,
    pub(super) units: Option<Raw<'a>>,
    pub(super) order_id: Option<Raw<'a>>,
    pub(super) order_line_id: Option<Raw<'a>>,
    pub(super) dups: Vec<&'static str>,
}

/// A JSON `null` in an optional member means the member is absent (`docs/events.md` rule E17:
/// the vendor's SDK copies `"action": null` and the like from the merchant console).
pub(super) trait Nullable {
    fn is_null(&self) -> bool;
}
impl Nullable for Raw<'_> {
    fn is_null(&self) -> bool {
        matches!(self, Raw::Other(Value::Null))
    }
}
impl<T> Nullable for Shaped<T> {
    fn is_null(&self) -> bool {
        matches!(self, Shaped::Wrong(Value::Null))
    }
}

/// `slot` emptied when it holds a JSON `null`.
pub(super) fn null_as_absent<T: Nullable>(slot: &mut Option<T>) {
    if slot.as_ref().is_some_and(Nullable::is_null) {
        *slot = None;
    }
}

/// A record read from a JSON object: each member the validator knows goes into its slot (a
/// repeated name noted in `dups`), the others are skipped. One visitor, [`RecordVisitor`],
/// reads every record; a record only says which members it has ([`members!`]).
pub(super) trait Record<'de>: Default {
    /// Read the map's next value, the member `key`, into its slot; false when `key` is not
    /// one of this record's (the value is then still to be read).
    fn member<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error>;

    /// Called once every member is read.
    fn finish(&mut self) {}
}

/// The member table of a record: `"json name" => field`.
macro_rules! members {
    ($r:ident, $key:ident, $map:ident, { $($name:literal => $field:ident),+ $(,)? }) => {
        match $key {
            $($name => read_member($map, &mut $r.$field, $name, &mut $r.dups)?,)+
            _ => return Ok(false),
        }
    };
}

impl<'de> Record<'de> for EventRec<'de> {
    fn member<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        let r = self;
        members!(r, key, map, {
            "event" => event,
            "event_apikey" => apikey,
            "event_list_id" => list_id,
            "event_tags" => tags,
            "event_list_name" => list_name,
            "event_list_logic" => list_logic,
            "user_profile" => profile,
            "items" => items,
            "event_version" => version,
            "event_data" => data,
        });
        Ok(true)
    }
}

impl<'de> Record<'de> for DataRec<'de> {
    fn member<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        if let Some(n) = DATA_STRINGS.iter().position(|name| *name == key) {
            read_member(map, &mut self.strings[n], DATA_STRINGS[n], &mut self.dups)?;
            return Ok(true);
        }
        let r = self;
        members!(r, key, map, {
            "list_id" => list_id,
            "tags" => tags,
            "list_name" => list_name,
            "list_logic" => list_logic,
            "static_content" => banners,
            "items" => items,
        });
        Ok(true)
    }

    fn finish(&mut self) {
        // Every member of event_data but list_id is optional: null is absent (rule E17).
        for slot in &mut self.strings {
            null_as_absent(slot);
        }
        null_as_absent(&mut self.tags);
        null_as_absent(&mut self.list_name);
        null_as_absent(&mut self.list_logic);
        null_as_absent(&mut self.banners);
        null_as_absent(&mut self.items);
    }
}

impl<'de> Record<'de> for BannerRec<'de> {
    fn member<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        let r = self;
        members!(r, key, map, {
            "content_type" => content_type,
            "resolution" => resolution,
            "banner_image_url" => url,
            "banner_alt_tag" => alt,
            "index" => index,
        });
        Ok(true)
    }
}

impl<'de> Record<'de> for ProfileRec<'de> {
    fn member<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        let r = self;
        members!(r, key, map, {
            "ip_address" => ip,
            "sessionId" => session,
            "email" => email,
        });
        Ok(true)
    }

    fn finish(&mut self) {
        null_as_absent(&mut self.ip);
        null_as_absent(&mut self.session);
        null_as_absent(&mut self.email);
    }
}

impl<'de> Record<'de> for ItemRec<'de> {
    fn member<A: MapAccess<'de>>(&mut self, key: &str, map: &mut A) -> Result<bool, A::Error> {
        let r = self;
        members!(r, key, map, {
            "item_id" => item_id,
            "item_group_id" => group,
            "item_variant_id" => variant,
            "item_name" => name,
            "price" => price,
            "currency" => currency,
            "item_brand" => brand,
            "item_category" => category,
            "index" => index,
            "unit_price" => unit_price,
            "units" => units,
            "order_id" => order_id,
            "order_line_id" => order_line_id,
        });
        Ok(true)
    }
}

/// Reads an object into the record `R`, or keeps what was there instead.
struct RecordVisitor<R>(PhantomData<R>);

impl<'de, R: Record<'de>> Visitor<'de> for RecordVisitor<R> {
    type Value = Shaped<R>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut r = R::default();
        while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
            if !r.member(&k, &mut map)? {
                map.next_value::<Skip>()?;
            }
        }
        r.finish();
        Ok(Shaped::Ok(r))
    }
    fallback_scalars!();
    fallback_str!();
    fallback_seq!();
}

/// Reads an array of `T`, or keeps what was there instead.
struct ListVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for ListVisitor<T> {
    type Value = Shaped<Vec<T>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element::<T>()? {
            out.push(v);
        }
        Ok(Shaped::Ok(out))
    }
    fallback_scalars!();
    fallback_str!();
    fallback_map!();
}

/// `Deserialize` for the shapes the validator reads, each with its visitor.
macro_rules! read_with {
    ($visitor:ident: $($t:ty),+ $(,)?) => {
        $(impl<'de> Deserialize<'de> for Shaped<$t> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_any($visitor(PhantomData))
            }
        })+
    };
}

read_with!(RecordVisitor: EventRec<'de>, DataRec<'de>, BannerRec<'de>, ProfileRec<'de>, ItemRec<'de>);
read_with!(ListVisitor: Vec<Raw<'de>>, Vec<Shaped<ItemRec<'de>>>, Vec<Shaped<BannerRec<'de>>>);

/// Skips a value the validator does not look at (an unknown member). Unlike `IgnoredAny` it has
/// serde_json decode every string, so an invalid escape such as a lone surrogate (`"\uDADD"`) is
/// a syntax error here exactly as it is for `serde_json::Value`.
pub(super) struct Skip;

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Skip;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_unit<E: de::Error>(self) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_none<E: de::Error>(self) -> Result<Skip, E> {
                Ok(Skip)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
                while seq.next_element::<Skip>()?.is_some() {}
                Ok(Skip)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Skip, A::Error> {
                while map.next_entry::<Skip, Skip>()?.is_some() {}
                Ok(Skip)
            }
        }
        d.deserialize_any(V)
    }
}
