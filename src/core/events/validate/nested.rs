//! Checking what only the nested shape has: `event_version`, the optional strings of
//! `event_data` and its `static_content` banners (`docs/events.md` rule E5).

use serde_json::Value;

use super::check::{ev_path, Checker};
use super::read::{BannerRec, DataRec, EventRec, Raw, Shaped, DATA_STRINGS};
use super::types::{codes, Level};
use crate::core::events::nested::EVENT_VERSION;

/// Banner resolutions the vendor's SDK sends.
const RESOLUTIONS: [&str; 2] = ["desktop", "mobile"];

impl Checker {
    /// `event_version`: required in an `order_purchase` event, recommended in the other nested
    /// events; the vendor's SDK sends [`EVENT_VERSION`].
    pub(super) fn check_version(&mut self, i: usize, version: &Option<Raw<'_>>, order: bool) {
        let at = ev_path(i, "event_version");
        match version {
            None if order => self.push(
                Level::Error,
                at,
                codes::REQUIRED,
                None,
                format!("event_version is required in an order_purchase event; the vendor's SDK sends \"{EVENT_VERSION}\"."),
            ),
            None => self.push(
                Level::Warning,
                at,
                codes::RECOMMENDED,
                None,
                format!("event_version is missing; the vendor's SDK sends \"{EVENT_VERSION}\" with every nested event."),
            ),
            Some(Raw::Str(v)) if v != EVENT_VERSION => {
                let then = if order {
                    format!("its rules for order_purchase are those of version {EVENT_VERSION}")
                } else {
                    "another version may be read differently".to_string()
                };
                let msg = format!("event_version is \"{EVENT_VERSION}\" in what the vendor's SDK sends; {then}.");
                self.push(Level::Warning, at, codes::FORMAT, Some(Value::from(&**v)), msg);
            }
            Some(Raw::Str(_)) => {}
            Some(Raw::Other(v)) => {
                let what = format!("event_version must be a JSON string such as \"{EVENT_VERSION}\"");
                self.wrong_type(at, &what, v);
            }
        }
    }

    /// The members of a nested event other than its list and items.
    pub(super) fn check_nested(&mut self, i: usize, ev: &EventRec<'_>, d: &DataRec<'_>) {
        self.check_version(i, &ev.version, false);
        // Flat members next to event_data are not read by a reader of the nested shape.
        for (name, present) in [
            ("event_list_id", ev.list_id.is_some()),
            ("event_list_name", ev.list_name.is_some()),
            ("event_list_logic", ev.list_logic.is_some()),
            ("event_tags", ev.tags.is_some()),
            ("items", ev.items.is_some()),
        ] {
            if present {
                self.push(
                    Level::Warning,
                    ev_path(i, name),
                    codes::MISMATCH,
                    None,
                    format!("{name} belongs to the flat shape; this event is nested (it has event_data), where the list's members go inside event_data."),
                );
            }
        }
        self.check_dups(&d.dups, |n| format!("[{i}].event_data.{n}"));
        for (name, raw) in DATA_STRINGS.iter().zip(&d.strings) {
            if let Some(Raw::Other(v)) = raw {
                let what = format!("event_data.{name} must be a JSON string");
                self.wrong_type(format!("[{i}].event_data.{name}"), &what, v);
            }
        }
        match &d.banners {
            None => {}
            Some(Shaped::Wrong(v)) => {
                let what = "event_data.static_content must be an array of banner objects";
                self.wrong_type(format!("[{i}].event_data.static_content"), what, v);
            }
            Some(Shaped::Ok(banners)) => {
                let mut seen = std::collections::HashMap::new();
                for (j, b) in banners.iter().enumerate() {
                    let path = |f: &str| format!("[{i}].event_data.static_content[{j}].{f}");
                    let b = match b {
                        Shaped::Ok(b) => b,
                        Shaped::Wrong(v) => {
                            let what = "Each entry of static_content must be a banner object";
                            let at = format!("[{i}].event_data.static_content[{j}]");
                            self.wrong_type(at, what, v);
                            continue;
                        }
                    };
                    self.check_banner(b, &path, j, &mut seen);
                }
            }
        }
    }

    fn check_banner(
        &mut self,
        b: &BannerRec<'_>,
        path: &dyn Fn(&str) -> String,
        j: usize,
        seen: &mut std::collections::HashMap<u64, usize>,
    ) {
        self.check_dups(&b.dups, path);
        if let Some(t) = self.nonempty(
            &b.content_type,
            || path("content_type"),
            "content_type",
            "banner",
        ) {
            if t != "image" {
                self.push(
                    Level::Warning,
                    path("content_type"),
                    codes::FORMAT,
                    Some(Value::from(t)),
                    "content_type is \"image\" in what the vendor's SDK sends.".to_owned(),
                );
            }
        }
        if let Some(r) = self.nonempty(&b.resolution, || path("resolution"), "resolution", "banner")
        {
            if !RESOLUTIONS.contains(&r) {
                self.push(
                    Level::Warning,
                    path("resolution"),
                    codes::FORMAT,
                    Some(Value::from(r)),
                    "resolution is \"desktop\" or \"mobile\" in what the vendor's SDK sends."
                        .to_owned(),
                );
            }
        }
        self.nonempty(
            &b.url,
            || path("banner_image_url"),
            "banner_image_url",
            "banner",
        );
        if let Some(Raw::Other(v)) = &b.alt {
            let what = "banner_alt_tag must be a JSON string";
            self.wrong_type(path("banner_alt_tag"), what, v);
        }
        self.check_banner_index(b, path, j, seen);
    }

    /// A banner's `index`: a JSON integer from 1, used once in the event.
    fn check_banner_index(
        &mut self,
        b: &BannerRec<'_>,
        path: &dyn Fn(&str) -> String,
        j: usize,
        seen: &mut std::collections::HashMap<u64, usize>,
    ) {
        let Some(index) = self.index_value(&b.index, path("index"), "banner") else {
            return;
        };
        match index.as_u64() {
            Some(n) if n >= 1 => {
                if let Some(first) = seen.insert(n, j) {
                    seen.insert(n, first);
                    self.push(
                        Level::Error,
                        path("index"),
                        codes::DUPLICATE_INDEX,
                        Some(index.clone()),
                        format!("index {n} is already used by static_content[{first}]; each banner position appears once."),
                    );
                }
            }
            _ => self.push(
                Level::Error,
                path("index"),
                codes::FORMAT,
                Some(index.clone()),
                "index is the banner's 1-based position: a JSON integer, the first is 1."
                    .to_owned(),
            ),
        }
    }
}
