//! The head of the signing text (its seven short lines) as a client may have built it: the
//! expected head, and one [`HeadMod`] per head mistake that can apply to a request. Mods that
//! change different parts compose, which is how pairs of head mistakes are built.

use chrono::{DateTime, Duration, SecondsFormat, Utc};

use super::catalogue::{Mistake, Part};
use crate::core::canonical::LineLabel;
use crate::core::form::SigningForm;
use crate::core::time::parse_timestamp;

/// The host of the vendor's indexing service, tried as a full URL on the path line.
pub const VENDOR_INDEXING_HOST: &str = "indexing.ksearchnet.com";

/// The prefixes of the vendor header names a client may mix up.
const KNOWN_PREFIXES: [&str; 2] = ["SVC", "KLEVU"];

/// Content-Type values a client library may sign while sending `application/json`.
const CONTENT_TYPE_VARIANTS: [&str; 5] = [
    "application/json",
    "application/json; charset=utf-8",
    "application/json; charset=UTF-8",
    "application/json;charset=utf-8",
    "application/json;charset=UTF-8",
];

/// Offsets (milliseconds, signed minus sent) tried for a timestamp read twice.
fn timestamp_offsets_ms() -> impl Iterator<Item = i64> {
    let ms = (1..=10).flat_map(|i| [i, -i]);
    let secs = (1..=5).flat_map(|i| [i * 1000, -i * 1000]);
    ms.chain(secs)
}

/// The fields of a received request that the head is built from.
#[derive(Clone, Debug)]
pub struct Head {
    pub method: String,
    pub path: String,
    /// `None`: the query line is left out.
    pub query: Option<String>,
    pub lower_names: bool,
    pub prefix: String,
    /// The four header lines as signed, by their index in the required order.
    pub order: [u8; 4],
    pub eol: &'static str,
    pub values: [String; 4],
}

impl Head {
    /// The expected head of a request.
    pub fn expected(
        method: &str,
        path: &str,
        query: &str,
        prefix: &str,
        values: [String; 4],
    ) -> Head {
        Head {
            method: method.to_ascii_uppercase(),
            path: path.to_string(),
            query: Some(query.to_string()),
            lower_names: false,
            prefix: prefix.to_ascii_uppercase(),
            order: [0, 1, 2, 3],
            eol: "\n",
            values,
        }
    }

    /// The bytes of the head, each line followed by its end of line.
    pub fn bytes(&self) -> Vec<u8> {
        let mut h = String::with_capacity(256);
        h.push_str(&self.method);
        h.push_str(self.eol);
        h.push_str(&self.path);
        h.push_str(self.eol);
        if let Some(q) = &self.query {
            h.push_str(q);
            h.push_str(self.eol);
        }
        for &i in &self.order {
            let name = match i {
                0 => format!("X-{}-TIMESTAMP", self.prefix),
                1 => format!("X-{}-APIKEY", self.prefix),
                2 => format!("X-{}-AUTH-ALGO", self.prefix),
                _ => "Content-Type".to_string(),
            };
            if self.lower_names {
                h.push_str(&name.to_ascii_lowercase());
            } else {
                h.push_str(&name);
            }
            h.push('=');
            h.push_str(&self.values[i as usize]);
            h.push_str(self.eol);
        }
        h.into_bytes()
    }

    /// This head with a mod applied.
    pub fn with(&self, m: &HeadMod) -> Head {
        let mut h = self.clone();
        match &m.change {
            Change::Method(s) => h.method = s.clone(),
            Change::Path(s) => h.path = s.clone(),
            Change::Query(q) => h.query = q.clone(),
            Change::PathAndQuery(p, q) => {
                h.path = p.clone();
                h.query = q.clone();
            }
            Change::LowerNames => h.lower_names = true,
            Change::Prefix(p) => h.prefix = p.clone(),
            Change::Order(o) => h.order = *o,
            Change::Crlf => h.eol = "\r\n",
            Change::Timestamp(t) => h.values[0] = t.clone(),
            Change::ContentType(c) => h.values[3] = c.clone(),
        }
        h
    }
}

#[derive(Clone, Debug)]
enum Change {
    Method(String),
    Path(String),
    Query(Option<String>),
    PathAndQuery(String, Option<String>),
    LowerNames,
    Prefix(String),
    Order([u8; 4]),
    Crlf,
    Timestamp(String),
    ContentType(String),
}

/// One head mistake (or the PHP SDK's two at once) as a change to the head.
#[derive(Clone, Debug)]
pub struct HeadMod {
    pub mistakes: Vec<Mistake>,
    change: Change,
    /// Tried in pairs with other mistakes (header orders, clock offsets and the rarer forms of
    /// a mistake, such as microsecond timestamps or `http://` URLs, are tried alone).
    pub pairable: bool,
}

impl HeadMod {
    fn new(m: Mistake, change: Change) -> HeadMod {
        HeadMod {
            mistakes: vec![m],
            change,
            pairable: true,
        }
    }

    /// The parts this mod changes.
    pub fn parts(&self) -> Vec<Part> {
        self.mistakes.iter().map(Mistake::part).collect()
    }

    /// Whether two mods change different parts.
    pub fn composes_with(&self, other: &HeadMod) -> bool {
        let mine = self.parts();
        other.parts().iter().all(|p| !mine.contains(p))
    }
}

/// The mistakes that make up the vendor's PHP SDK form ([`SigningForm::PhpSdk`]) for this
/// request: empty when the form signs the documented text, as for `/v2/batch` with no query.
pub fn php_sdk_mistakes(path: &str, query: &str) -> Vec<Mistake> {
    SigningForm::PhpSdk
        .differing_lines(path, query)
        .into_iter()
        .filter_map(|line| match line {
            LineLabel::Path => Some(Mistake::TrailingSlashTrimmed),
            LineLabel::Query if !query.is_empty() && query != "0" => {
                Some(Mistake::QuestionMarkBeforeQuery)
            }
            _ => None,
        })
        .collect()
}

fn percent_decoded(s: &str, plus_as_space: bool) -> String {
    let s = if plus_as_space {
        s.replace('+', " ")
    } else {
        s.to_string()
    };
    percent_encoding::percent_decode_str(&s)
        .decode_utf8_lossy()
        .into_owned()
}

/// The timestamp forms of one instant: seconds, milliseconds or microseconds, `Z` or `+00:00`.
fn forms(t: DateTime<Utc>) -> Vec<String> {
    let mut out = Vec::new();
    for (fmt, exact) in [
        (SecondsFormat::Secs, t.timestamp_subsec_nanos() == 0),
        (
            SecondsFormat::Millis,
            t.timestamp_subsec_nanos() % 1_000_000 == 0,
        ),
        (
            SecondsFormat::Micros,
            t.timestamp_subsec_nanos() % 1_000 == 0,
        ),
    ] {
        if exact {
            out.push(t.to_rfc3339_opts(fmt, true));
            out.push(t.to_rfc3339_opts(fmt, false));
        }
    }
    out
}

/// The seconds format and zone style of a timestamp text, to write other instants like it.
fn form_of(text: &str) -> (SecondsFormat, bool) {
    let frac = text
        .split_once('.')
        .map(|(_, rest)| rest.bytes().take_while(u8::is_ascii_digit).count())
        .unwrap_or(0);
    let fmt = match frac {
        0 => SecondsFormat::Secs,
        1..=3 => SecondsFormat::Millis,
        _ => SecondsFormat::Micros,
    };
    (fmt, text.ends_with('Z') || text.ends_with('z'))
}

/// Every head mistake that can apply to a request whose expected head is `base`, in the order
/// they are tried. `host` is the request's Host header, if any.
pub fn head_mods(base: &Head, host: Option<&str>) -> Vec<HeadMod> {
    let mut mods = Vec::new();
    let query = base.query.clone().unwrap_or_default();
    let path = base.path.clone();

    mods.push(HeadMod::new(
        Mistake::QuestionMarkBeforeQuery,
        Change::Query(Some(format!("?{query}"))),
    ));
    if query.is_empty() {
        mods.push(HeadMod::new(
            Mistake::EmptyQueryLineOmitted,
            Change::Query(None),
        ));
    }
    let trimmed = SigningForm::PhpSdk.path_line(&path);
    if trimmed != path {
        mods.push(HeadMod::new(
            Mistake::TrailingSlashTrimmed,
            Change::Path(trimmed.to_string()),
        ));
    }
    mods.push(HeadMod::new(Mistake::CrlfLineEndings, Change::Crlf));
    mods.push(HeadMod::new(
        Mistake::LowercaseHeaderNames,
        Change::LowerNames,
    ));
    let lower_method = base.method.to_ascii_lowercase();
    if lower_method != base.method {
        mods.push(HeadMod::new(
            Mistake::LowercaseMethod,
            Change::Method(lower_method),
        ));
    }
    if query.contains('%') || query.contains('+') {
        let mut seen = vec![query.clone()];
        for plus in [false, true] {
            let d = percent_decoded(&query, plus);
            if !seen.contains(&d) {
                seen.push(d.clone());
                mods.push(HeadMod::new(
                    Mistake::QueryPercentDecoded,
                    Change::Query(Some(d)),
                ));
            }
        }
    }
    if query.contains('&') {
        let mut params: Vec<&str> = query.split('&').collect();
        params.sort_unstable();
        let sorted = params.join("&");
        if sorted != query {
            mods.push(HeadMod::new(
                Mistake::QueryParamsSorted,
                Change::Query(Some(sorted)),
            ));
        }
    }
    let mut urls: Vec<String> = Vec::new();
    if let Some(h) = host.filter(|h| !h.is_empty()) {
        urls.push(format!("https://{h}{path}"));
        urls.push(format!("http://{h}{path}"));
    }
    let vendor = format!("https://{VENDOR_INDEXING_HOST}{path}");
    if !urls.contains(&vendor) {
        urls.push(vendor);
    }
    for u in urls {
        // In pairs: the https forms (http is tried alone).
        let pairable = u.starts_with("https://");
        mods.push(HeadMod {
            pairable,
            ..HeadMod::new(Mistake::FullUrlAsPath, Change::Path(u))
        });
    }
    if path.contains('%') {
        let d = percent_decoded(&path, false);
        if d != path {
            mods.push(HeadMod::new(Mistake::PathPercentDecoded, Change::Path(d)));
        }
    }
    let ts = base.values[0].clone();
    if let Some(parsed) = parse_timestamp(&ts) {
        let mut seen = vec![ts.clone()];
        let (fmt, z) = form_of(&ts);
        for f in forms(parsed.time) {
            if !seen.contains(&f) {
                seen.push(f.clone());
                // In pairs: whole seconds, and the sent precision in the other zone style
                // (other precisions are tried alone).
                let pairable = !f.contains('.') || form_of(&f).0 == fmt;
                mods.push(HeadMod {
                    pairable,
                    ..HeadMod::new(
                        Mistake::TimestampFormDiffers { signed: f.clone() },
                        Change::Timestamp(f),
                    )
                });
            }
        }
        for off in timestamp_offsets_ms() {
            let t = parsed.time + Duration::milliseconds(off);
            let text = t.to_rfc3339_opts(fmt, z);
            if !seen.contains(&text) {
                seen.push(text.clone());
                mods.push(HeadMod {
                    pairable: false,
                    ..HeadMod::new(
                        Mistake::TimestampDiffers { offset_ms: off },
                        Change::Timestamp(text),
                    )
                });
            }
        }
    }
    for (i, ct) in CONTENT_TYPE_VARIANTS.into_iter().enumerate() {
        if ct != base.values[3] {
            // In pairs: `application/json` and its lower-case `; charset=utf-8` form.
            mods.push(HeadMod {
                pairable: i < 2,
                ..HeadMod::new(
                    Mistake::ContentTypeDiffers {
                        signed: ct.to_string(),
                    },
                    Change::ContentType(ct.to_string()),
                )
            });
        }
    }
    for p in KNOWN_PREFIXES {
        if p != base.prefix {
            mods.push(HeadMod::new(
                Mistake::HeaderPrefixDiffers {
                    signed: p.to_string(),
                    sent: base.prefix.clone(),
                },
                Change::Prefix(p.to_string()),
            ));
        }
    }
    for order in other_orders() {
        mods.push(HeadMod {
            pairable: false,
            ..HeadMod::new(
                Mistake::HeaderLinesReordered { order },
                Change::Order(order),
            )
        });
    }
    mods
}

/// The PHP SDK's form as one mod, when it is two mistakes at once for this request.
pub fn php_sdk_mod(base: &Head) -> Option<HeadMod> {
    let query = base.query.clone().unwrap_or_default();
    let mistakes = php_sdk_mistakes(&base.path, &query);
    (mistakes.len() == 2).then(|| HeadMod {
        mistakes,
        change: Change::PathAndQuery(
            SigningForm::PhpSdk.path_line(&base.path).into_owned(),
            Some(SigningForm::PhpSdk.query_line(&query).into_owned()),
        ),
        pairable: true,
    })
}

/// All orders of four items except the identity.
fn other_orders() -> Vec<[u8; 4]> {
    let mut out = Vec::with_capacity(23);
    for a in 0..4u8 {
        for b in 0..4u8 {
            for c in 0..4u8 {
                for d in 0..4u8 {
                    let o = [a, b, c, d];
                    let distinct = (0..4).all(|i| (0..4).all(|j| i == j || o[i] != o[j]));
                    if distinct && o != [0, 1, 2, 3] {
                        out.push(o);
                    }
                }
            }
        }
    }
    out
}
