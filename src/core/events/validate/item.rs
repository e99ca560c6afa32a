//! Checking tags, items and their positions.

use serde_json::Value;

use super::check::{
    field_name, field_path, has_empty_level, is_decimal, item_path, json_type, Checker,
};
use super::read::{ItemRec, Raw, Shaped};
use super::types::{codes, Level};
use crate::core::events::model::PAGE_TYPE_TAG;
use crate::core::events::nested::Shape;

impl Checker {
    pub(super) fn check_tag(&mut self, shape: Shape, i: usize, t: usize, tag: &Raw<'_>) {
        let path = || format!("{}[{t}]", field_path(shape, i, "tags"));
        let s = match tag {
            Raw::Str(s) => s,
            Raw::Other(v) => {
                let what = "Each entry of event_tags must be a \"name:value\" string";
                self.wrong_type(path(), what, v);
                return;
            }
        };
        match s.split_once(':') {
            Some((name, value)) if !name.trim().is_empty() && !value.trim().is_empty() => {
                if name == PAGE_TYPE_TAG && value != value.to_ascii_uppercase() {
                    let msg = format!(
                        "The vendor's scripts send page types in upper case: write \"{PAGE_TYPE_TAG}:{}\".",
                        value.to_ascii_uppercase()
                    );
                    self.push(Level::Warning, path(), codes::PAGE_TYPE_CASE, Some(Value::from(&**s)), msg);
                }
            }
            _ => self.push(
                Level::Error,
                path(),
                codes::FORMAT,
                Some(Value::from(&**s)),
                "Each entry of event_tags has the form name:value (e.g. \"recsPageType:HOME\"), with a non-empty name and value.".to_owned(),
            ),
        }
    }

    /// Checks one item; returns its item_id and index when both are usable.
    pub(super) fn check_item<'r>(
        &mut self,
        shape: Shape,
        i: usize,
        j: usize,
        item: &'r Shaped<ItemRec<'_>>,
    ) -> Option<(&'r str, u64)> {
        let it = match item {
            Shaped::Ok(it) => it,
            Shaped::Wrong(v) => {
                let path = format!("[{i}].{}[{j}]", field_name(shape, "items"));
                self.wrong_type(path, "Each entry of items must be an item object", v);
                return None;
            }
        };
        self.check_dups(&it.dups, |n| item_path(shape, i, j, n));
        let usable_id = self.check_item_ids(shape, i, j, it);
        self.check_item_labels(shape, i, j, it);
        self.check_item_price(shape, i, j, it);
        let index = self.check_index(shape, i, j, &it.index)?;
        Some((usable_id?, index))
    }

    /// `item_id`, `item_group_id` and `item_variant_id`: each present and not blank, and together
    /// one identity. Returns the id when usable.
    fn check_item_ids<'r>(
        &mut self,
        shape: Shape,
        i: usize,
        j: usize,
        it: &'r ItemRec<'_>,
    ) -> Option<&'r str> {
        let at = |f: &'static str| move || item_path(shape, i, j, f);
        let id = self.nonempty(&it.item_id, at("item_id"), "item_id", "item");
        let group = self.nonempty(&it.group, at("item_group_id"), "item_group_id", "item");
        let variant = self.nonempty(
            &it.variant,
            at("item_variant_id"),
            "item_variant_id",
            "item",
        );
        match (id, group, variant) {
            (Some(id), Some(g), Some(v)) => self.check_identity(shape, i, j, id, g, v),
            _ => None,
        }
    }

    /// The optional texts of an item: `item_name`, `item_brand` and `item_category` (whose
    /// levels must not be empty).
    fn check_item_labels(&mut self, shape: Shape, i: usize, j: usize, it: &ItemRec<'_>) {
        let at = |f: &'static str| move || item_path(shape, i, j, f);
        self.string(&it.name, at("item_name"), "item_name", "item", false);
        self.string(&it.brand, at("item_brand"), "item_brand", "item", false);
        let category = self.string(
            &it.category,
            at("item_category"),
            "item_category",
            "item",
            false,
        );
        if let Some(c) = category {
            if has_empty_level(c) {
                self.push(
                    Level::Warning,
                    item_path(shape, i, j, "item_category"),
                    codes::CATEGORY_EMPTY_LEVEL,
                    Some(Value::from(c)),
                    "item_category has an empty level (a ';' at either end, or three in a row); one ';' separates levels and ';;' separates category paths.".to_owned(),
                );
            }
        }
    }

    /// `price` (a decimal written as text) and `currency`, both required.
    fn check_item_price(&mut self, shape: Shape, i: usize, j: usize, it: &ItemRec<'_>) {
        let at = |f: &'static str| move || item_path(shape, i, j, f);
        if let Some(p) = self.string(&it.price, at("price"), "price", "item", true) {
            if !is_decimal(p) {
                self.push(
                    Level::Error,
                    item_path(shape, i, j, "price"),
                    codes::FORMAT,
                    Some(Value::from(p)),
                    "price must be a non-negative decimal number written as text, with '.' as the decimal point (e.g. \"19.99\").".to_owned(),
                );
            }
        }
        if let Some(c) = self.string(&it.currency, at("currency"), "currency", "item", true) {
            self.check_currency(item_path(shape, i, j, "currency"), c);
        }
    }

    /// Item identity (`docs/events.md` rule E18, see [`identity`]); returns the id when usable.
    pub(super) fn check_identity<'r>(
        &mut self,
        shape: Shape,
        i: usize,
        j: usize,
        id: &'r str,
        g: &str,
        v: &str,
    ) -> Option<&'r str> {
        const NAMES: IdNames = IdNames {
            id: "item_id",
            group: "item_group_id",
            variant: "item_variant_id",
        };
        let verdict = identity(id, g, v);
        let Some(message) = verdict.message(NAMES, id, g, v) else {
            return Some(id);
        };
        let (level, field, code, value) = match verdict {
            Identity::LikelyVariant(_) => (Level::Warning, NAMES.variant, codes::VARIANT_ID, v),
            _ => (Level::Error, NAMES.id, codes::MISMATCH, id),
        };
        self.push(
            level,
            item_path(shape, i, j, field),
            code,
            Some(Value::from(value)),
            message,
        );
        verdict.usable().then_some(id)
    }

    /// `currency`: three upper-case letters.
    pub(super) fn check_currency(&mut self, path: String, c: &str) {
        let b = c.as_bytes();
        if b.len() == 3 && b.iter().all(u8::is_ascii_uppercase) {
            return;
        }
        let msg = if b.len() == 3 && b.iter().all(u8::is_ascii_alphabetic) {
            format!(
                "currency must be three upper-case letters: write \"{}\".",
                c.to_ascii_uppercase()
            )
        } else {
            "currency must be three upper-case letters (an ISO 4217 code such as \"EUR\")."
                .to_owned()
        };
        self.push(Level::Error, path, codes::FORMAT, Some(Value::from(c)), msg);
    }

    pub(super) fn check_index(
        &mut self,
        shape: Shape,
        i: usize,
        j: usize,
        raw: &Option<Raw<'_>>,
    ) -> Option<u64> {
        let path = || item_path(shape, i, j, "index");
        let v = self.index_value(raw, path(), "item")?;
        let n = match v {
            Value::Number(n) if n.as_u64().is_some() => n.as_u64().unwrap_or(0),
            Value::Number(n) if n.as_i64().is_some() => 0,
            _ => {
                let msg = format!(
                    "index must be a JSON integer (e.g. 1), not {}.",
                    if v.is_number() {
                        "a fraction"
                    } else {
                        json_type(v)
                    }
                );
                self.push(Level::Error, path(), codes::TYPE, Some(v.clone()), msg);
                return None;
            }
        };
        if n < 1 {
            self.push(
                Level::Error,
                path(),
                codes::FORMAT,
                Some(v.clone()),
                "index is the 1-based position in the list: the first item is 1.".to_owned(),
            );
            return None;
        }
        if let Some(first) = self.seen_index.insert(n, j) {
            // Keep the first holder for later duplicates.
            self.seen_index.insert(n, first);
            self.push(
                Level::Error,
                path(),
                codes::DUPLICATE_INDEX,
                Some(v.clone()),
                format!("index {n} is already used by [{i}].{}[{first}]; each position appears once in a list.", field_name(shape, "items")),
            );
        }
        Some(n)
    }

    /// An `index` member as its JSON value; a missing one (`REQUIRED`, in every `owner`) or a
    /// string (`TYPE`) is reported here.
    pub(super) fn index_value<'r>(
        &mut self,
        raw: &'r Option<Raw<'_>>,
        path: String,
        owner: &str,
    ) -> Option<&'r Value> {
        match raw {
            None => self.push(
                Level::Error,
                path,
                codes::REQUIRED,
                None,
                format!("index is required in every {owner}."),
            ),
            Some(Raw::Str(s)) => self.push(
                Level::Error,
                path,
                codes::TYPE,
                Some(Value::from(&**s)),
                "index must be a JSON integer (e.g. 1), not a string.".to_owned(),
            ),
            Some(Raw::Other(v)) => return Some(v),
        }
        None
    }
}

/// The names an account's three ids go by where they are judged: `item_id`, `item_group_id`,
/// `item_variant_id` in a collector event; `klevu_productId`, ... on the older endpoints.
#[derive(Clone, Copy, Debug)]
pub struct IdNames {
    pub id: &'static str,
    pub group: &'static str,
    pub variant: &'static str,
}

/// What rule E18 (`docs/events.md`) says of a record's id, its group id and its variant id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Identity<'a> {
    /// `id` is `group-variant`, or all three are equal (a simple product), or `id` is the
    /// variant's own id with another group id (a record whose id is its variant's).
    Valid,
    /// The variant id is the whole id, which is itself `group-SUFFIX`: valid, but the variant
    /// is probably SUFFIX (a warning; @klevu/core 5.x's documented click without `variantId`).
    LikelyVariant(&'a str),
    /// The group id sent as the variant id (the older SDKs' bug): an error; the fix is the
    /// variant id given.
    GroupAsVariant(&'a str),
    /// Neither of the valid forms: an error.
    Mismatch,
}

/// Judge three ids by rule E18.
pub fn identity<'a>(id: &'a str, g: &str, v: &str) -> Identity<'a> {
    let joined = id.len() == g.len() + 1 + v.len()
        && id.starts_with(g)
        && id.ends_with(v)
        && id.as_bytes()[g.len()] == b'-';
    if joined || (id == g && id == v) {
        return Identity::Valid;
    }
    // The part of the id after "group-", when the id has that form.
    let suffix = id
        .strip_prefix(g)
        .and_then(|rest| rest.strip_prefix('-'))
        .filter(|s| !s.is_empty());
    if id == v {
        return suffix.map_or(Identity::Valid, Identity::LikelyVariant);
    }
    if v == g {
        Identity::GroupAsVariant(suffix.unwrap_or(id))
    } else {
        Identity::Mismatch
    }
}

impl Identity<'_> {
    /// Whether the id can be used (it is valid, perhaps with a warning).
    pub fn usable(self) -> bool {
        matches!(self, Identity::Valid | Identity::LikelyVariant(_))
    }

    /// The sentence a warning or error says, under these names; `None` when valid.
    pub fn message(self, n: IdNames, id: &str, g: &str, v: &str) -> Option<String> {
        let IdNames {
            id: i,
            group,
            variant,
        } = n;
        Some(match self {
            Identity::Valid => return None,
            Identity::LikelyVariant(suffix) => format!("{variant} is the whole {i} \"{id}\", which is {group} + \"-\" + \"{suffix}\": the variant id is probably \"{suffix}\" (pass the variant id to the SDK's click)."),
            Identity::GroupAsVariant(fix) => format!("{variant} is the group id \"{g}\", so {i} \"{id}\" is neither {group} + \"-\" + {variant} nor the variant's own id: the older SDKs' bug that sends the group id as the variant id; send \"{fix}\" as {variant}."),
            Identity::Mismatch => format!("{i} must equal {group} + \"-\" + {variant} (here \"{g}-{v}\"), or the variant's own id (\"{v}\"), or, for a simple product, all three ids the same."),
        })
    }
}
