//! Checking an `order_purchase` event (`docs/events.md` rules E19-E20): the event of the
//! vendor's PHP SDK's `CollectService` and of its order-sync module, checked as that SDK's own
//! validator checks it, with the item identity of rule E18.

use serde_json::Value;

use super::check::{ev_path, item_path, Checker};
use super::read::{EventRec, ItemRec, Raw, Shaped};
use super::types::{codes, Level};
use crate::core::events::nested::Shape;

impl Checker {
    pub(super) fn check_order(&mut self, i: usize, ev: &EventRec<'_>) {
        self.check_version(i, &ev.version, true);
        self.check_profile(i, Shape::Nested, &ev.profile, true);
        let items = match &ev.data {
            None => {
                self.push(
                    Level::Error,
                    ev_path(i, "event_data"),
                    codes::REQUIRED,
                    None,
                    "event_data is required in an order_purchase event: {\"items\": [...]}."
                        .to_owned(),
                );
                return;
            }
            Some(Shaped::Wrong(v)) => {
                self.event_data_not_object(i, v, "the order's items");
                return;
            }
            Some(Shaped::Ok(d)) => &d.items,
        };
        let path = || ev_path(i, "event_data.items");
        match items {
            None => self.push(
                Level::Error,
                path(),
                codes::REQUIRED,
                None,
                "event_data.items is required in an order_purchase event: the order's lines."
                    .to_owned(),
            ),
            Some(Shaped::Wrong(v)) => {
                let what = "event_data.items must be an array of order lines";
                self.wrong_type(path(), what, v);
            }
            Some(Shaped::Ok(items)) if items.is_empty() => self.push(
                Level::Error,
                path(),
                codes::EMPTY,
                Some(Value::Array(vec![])),
                "event_data.items of an order_purchase event must hold at least one order line."
                    .to_owned(),
            ),
            Some(Shaped::Ok(items)) => {
                for (j, item) in items.iter().enumerate() {
                    self.check_order_item(i, j, item);
                }
            }
        }
    }

    fn check_order_item(&mut self, i: usize, j: usize, item: &Shaped<ItemRec<'_>>) {
        let shape = Shape::Nested;
        let it = match item {
            Shaped::Ok(it) => it,
            Shaped::Wrong(v) => {
                let what = "Each entry of items must be an order line object";
                self.wrong_type(format!("[{i}].event_data.items[{j}]"), what, v);
                return;
            }
        };
        self.check_dups(&it.dups, |n| item_path(shape, i, j, n));
        let owner = "order_purchase item";
        let path = |f: &'static str| move || item_path(shape, i, j, f);
        // Required, non-empty strings (the SDK's validator: "missing or empty").
        self.order_string(&it.name, path("item_name"), "item_name", owner);
        let id = self.order_string(&it.item_id, path("item_id"), "item_id", owner);
        let group = self.order_string(&it.group, path("item_group_id"), "item_group_id", owner);
        let variant = self.order_string(
            &it.variant,
            path("item_variant_id"),
            "item_variant_id",
            owner,
        );
        if let (Some(id), Some(g), Some(v)) = (id, group, variant) {
            self.check_identity(shape, i, j, id, g, v);
        }
        // Strings when present.
        for (raw, name) in [
            (&it.order_id, "order_id"),
            (&it.order_line_id, "order_line_id"),
        ] {
            if let Some(Raw::Other(v)) = raw {
                if !v.is_null() {
                    let what = format!("{name} must be a JSON string");
                    self.wrong_type(item_path(shape, i, j, name), &what, v);
                }
            }
        }
        self.check_unit_price(i, j, &it.unit_price);
        if let Some(c) = self.order_string(&it.currency, path("currency"), "currency", owner) {
            self.check_currency(item_path(shape, i, j, "currency"), c);
        }
        match &it.units {
            None => {}
            Some(Raw::Other(Value::Number(n))) if n.as_u64().is_some() => {}
            Some(raw) => {
                let v = match raw {
                    Raw::Str(s) => Value::from(&**s),
                    Raw::Other(v) => v.clone(),
                };
                self.push(
                    Level::Error,
                    item_path(shape, i, j, "units"),
                    codes::TYPE,
                    Some(v),
                    "units must be a non-negative JSON integer (e.g. 2), not text or a fraction."
                        .to_owned(),
                );
            }
        }
    }

    /// A required member of an order line: a non-empty string (null and `""` are missing, as
    /// the SDK's validator has them).
    fn order_string<'r>(
        &mut self,
        raw: &'r Option<Raw<'_>>,
        path: impl Fn() -> String,
        name: &str,
        owner: &str,
    ) -> Option<&'r str> {
        let null = matches!(raw, Some(Raw::Other(Value::Null)));
        self.nonempty(if null { &None } else { raw }, path, name, owner)
    }

    /// `unit_price`: required; a JSON number or a numeric string, not negative.
    fn check_unit_price(&mut self, i: usize, j: usize, raw: &Option<Raw<'_>>) {
        let path = item_path(Shape::Nested, i, j, "unit_price");
        let (value, amount) = match raw {
            None | Some(Raw::Other(Value::Null)) => {
                self.string(&None, || path, "unit_price", "order_purchase item", true);
                return;
            }
            Some(Raw::Str(s)) if s.is_empty() => {
                self.push(
                    Level::Error,
                    path,
                    codes::EMPTY,
                    Some(Value::from("")),
                    "unit_price must not be empty.".to_owned(),
                );
                return;
            }
            Some(Raw::Str(s)) => (Value::from(&**s), numeric_text(s)),
            Some(Raw::Other(v)) => (v.clone(), v.as_f64()),
        };
        match amount {
            Some(a) if a >= 0.0 => {}
            Some(_) => self.push(
                Level::Error,
                path,
                codes::FORMAT,
                Some(value),
                "unit_price must not be negative.".to_owned(),
            ),
            None => self.push(
                Level::Error,
                path,
                codes::FORMAT,
                Some(value),
                "unit_price must be a number or a numeric string (e.g. 19.99 or \"19.99\")."
                    .to_owned(),
            ),
        }
    }
}

/// The amount of a numeric string as PHP's `is_numeric` reads it: optional leading whitespace,
/// a sign, digits with an optional fraction and exponent (trailing whitespace too since PHP 8).
fn numeric_text(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\r' | '\u{b}' | '\u{c}'));
    let digits = t.trim_start_matches(['+', '-']);
    let first = digits.chars().next()?;
    // `f64::from_str` also reads "inf" and "NaN", which PHP does not.
    if !(first.is_ascii_digit() || first == '.') || t.len() - digits.len() > 1 {
        return None;
    }
    t.parse::<f64>().ok().filter(|a| a.is_finite())
}

#[cfg(test)]
mod tests {
    use super::numeric_text;

    #[test]
    fn numeric_strings_are_read_as_php_reads_them() {
        for (s, want) in [
            ("19.99", Some(19.99)),
            (" 5", Some(5.0)),
            ("1e3", Some(1000.0)),
            (".5", Some(0.5)),
            ("-2", Some(-2.0)),
            ("inf", None),
            ("NaN", None),
            ("", None),
            ("12,50", None),
            ("+-1", None),
        ] {
            assert_eq!(numeric_text(s), want, "{s:?}");
        }
    }
}
