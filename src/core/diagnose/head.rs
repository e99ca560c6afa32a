//! The head of the signing text (its seven short lines) as a client may have built it: the
//! expected head, and one [`HeadMod`] per head mistake that can apply to a request. Mods that
//! change different parts compose, which is how pairs of head mistakes are built.

use chrono::{DateTime, Duration, SecondsFormat, Utc};

use super::catalogue::Mistake;
use crate::core::canonical::LineLabel;
use crate::core::form::SigningForm;
use crate::core::time::parse_timestamp;

/// The host of the vendor's indexing service, tried as a full URL on the path line.
pub const VENDOR_INDEXING_HOST: &str = "indexing.ksearchnet.com";

/// The query the vendor documents for its indexing API (a test request), tried as a query
/// removed after signing when the request has none.
const VENDOR_TEST_QUERY: &str = "test=1";

/// A query with more parameters than this is not searched for one added after signing.
const MAX_QUERY_PARAMS: usize = 16;

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

/// The unit a clock read twice is searched in: the precision the timestamp was sent in
/// (a millisecond, or a second for a timestamp in whole seconds); `None` for microseconds (two
/// reads differ by an unforeseeable number of them) or a text that is no timestamp.
pub fn clock_unit_ms(ts: &str) -> Option<i64> {
    parse_timestamp(ts)?;
    match form_of(ts).0 {
        SecondsFormat::Secs => Some(1000),
        SecondsFormat::Millis => Some(1),
        _ => None,
    }
}

/// Offsets (milliseconds, signed minus sent) tried for a timestamp read twice: outward from
/// the header's instant one unit at a time, `reach` units each way; each with whether it is
/// tried in pairs (one unit either way, what two reads of one clock in one function give).
fn timestamp_offsets_ms(unit: i64, reach: i64) -> Vec<(i64, bool)> {
    (1..=reach)
        .flat_map(|i| [(i * unit, i == 1), (-i * unit, i == 1)])
        .collect()
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
        self.with_all(&[m])
    }

    /// This head with several mods applied together: their changes in a fixed order (decode,
    /// then sort or trim, then `?` and the full URL), so `?` goes before a sorted query and a
    /// full URL ends in the trimmed path, whatever order the mods are given in.
    pub fn with_all(&self, mods: &[&HeadMod]) -> Head {
        let mut changes: Vec<&Change> = mods.iter().flat_map(|m| m.changes.iter()).collect();
        changes.sort_by_key(|c| c.rank());
        let mut h = self.clone();
        for c in changes {
            h.apply(c);
        }
        h
    }

    /// This head with one change made.
    pub fn apply(&mut self, c: &Change) {
        match c {
            Change::Method(s) => self.method = s.clone(),
            Change::PathDecoded => self.path = percent_decoded(&self.path, false),
            Change::PathTrimmed => {
                self.path = SigningForm::PhpSdk.path_line(&self.path).into_owned();
            }
            Change::PathUrl(prefix) => self.path = format!("{prefix}{}", self.path),
            Change::QueryDecoded { plus } => {
                self.query = self.query.as_deref().map(|q| percent_decoded(q, *plus));
            }
            Change::QuerySorted => {
                self.query = self.query.as_deref().map(|q| {
                    let mut params: Vec<&str> = q.split('&').collect();
                    params.sort_unstable();
                    params.join("&")
                });
            }
            Change::QueryMark => {
                self.query = Some(format!("?{}", self.query.as_deref().unwrap_or("")))
            }
            Change::PhpQuery => {
                let q = self.query.as_deref().unwrap_or("");
                self.query = Some(SigningForm::PhpSdk.query_line(q).into_owned());
            }
            Change::QueryOmitted => self.query = None,
            Change::Query(q) => self.query = Some(q.clone()),
            Change::LowerNames => self.lower_names = true,
            Change::Prefix(p) => self.prefix = p.clone(),
            Change::Order(o) => self.order = *o,
            Change::Crlf => self.eol = "\r\n",
            Change::Timestamp(t) => self.values[0] = t.clone(),
            Change::ContentType(c) => self.values[3] = c.clone(),
        }
    }
}

/// One change to the head. Path and query changes transform the line as it is (so two of them
/// compose); the others set a value.
#[derive(Clone, Debug)]
pub enum Change {
    Method(String),
    PathDecoded,
    PathTrimmed,
    /// The scheme and host put before the path.
    PathUrl(String),
    QueryDecoded {
        plus: bool,
    },
    QuerySorted,
    QueryMark,
    /// The PHP SDK's query line: `?` and the trimmed query, empty for no query.
    PhpQuery,
    QueryOmitted,
    /// The query line as signed before the query was changed after signing.
    Query(String),
    LowerNames,
    Prefix(String),
    Order([u8; 4]),
    Crlf,
    Timestamp(String),
    ContentType(String),
}

impl Change {
    /// When a change is applied among others: decoding first, then sorting and trimming, then
    /// the `?` and the scheme and host.
    fn rank(&self) -> u8 {
        match self {
            Change::Query(_) => 0,
            Change::PathDecoded | Change::QueryDecoded { .. } => 1,
            Change::QuerySorted | Change::PathTrimmed => 2,
            Change::QueryMark | Change::PhpQuery | Change::PathUrl(_) => 3,
            _ => 4,
        }
    }
}

/// One head mistake (or the PHP SDK's two at once) as a change to the head.
#[derive(Clone, Debug)]
pub struct HeadMod {
    pub mistakes: Vec<Mistake>,
    changes: Vec<Change>,
    /// Tried in pairs with other mistakes (docs/diagnosis.md D1 lists the forms tried alone).
    pub pairable: bool,
}

impl HeadMod {
    /// A head mistake as a mod of `base` (its change is `Mistake::head_change`, the one
    /// definition of it); `None` for a mistake outside the head.
    pub fn of(m: Mistake, base: &Head) -> Option<HeadMod> {
        let change = m.head_change(base)?;
        Some(HeadMod {
            mistakes: vec![m],
            changes: vec![change],
            pairable: true,
        })
    }

    /// Whether this mod is a change made after signing.
    pub fn after_signing(&self) -> bool {
        self.mistakes.iter().any(Mistake::after_signing)
    }

    /// Whether two mods can be made by one client together (docs/diagnosis.md D1): no mistake
    /// in both, and each two of their mistakes change different parts of the text, or the same
    /// line in ways that compose (a `?` before a sorted or decoded query; a full URL, trimmed
    /// or decoded path).
    pub fn composes_with(&self, other: &HeadMod) -> bool {
        self.mistakes
            .iter()
            .all(|a| other.mistakes.iter().all(|b| co_occur(a, b)))
    }
}

/// Whether two mistakes can be made together: different ones that change different parts, or
/// the same path or query line in ways that compose.
pub fn co_occur(a: &Mistake, b: &Mistake) -> bool {
    use Mistake::*;
    if a.code() == b.code() {
        return false;
    }
    if a.part() != b.part() {
        return true;
    }
    let line = |m: &Mistake| match m {
        QuestionMarkBeforeQuery
        | QueryPercentDecoded { .. }
        | QueryParamsSorted
        | QueryAddedAfterSigning { .. }
        | QueryRemovedAfterSigning { .. } => 1,
        TrailingSlashTrimmed | FullUrlAsPath { .. } | PathPercentDecoded => 2,
        _ => 0,
    };
    line(a) != 0 && line(a) == line(b)
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
            t.timestamp_subsec_nanos().is_multiple_of(1_000_000),
        ),
        (
            SecondsFormat::Micros,
            t.timestamp_subsec_nanos().is_multiple_of(1_000),
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

/// The order of the four header lines sorted by name, as a client that keeps its headers in a
/// sorted map signs them: Content-Type, APIKEY, AUTH-ALGO, TIMESTAMP (`C` sorts before `X`, in
/// either case).
pub const NAME_SORTED_ORDER: [u8; 4] = [3, 1, 2, 0];

/// Every head mistake that can apply to a request whose expected head is `base`, in the order
/// they are tried. `host` is the request's Host header, if any; `sent_order` the order its four
/// signed headers came in (by their index in the required order), when all four came once.
pub fn head_mods(
    base: &Head,
    host: Option<&str>,
    sent_order: Option<[u8; 4]>,
    clock_reach: i64,
) -> Vec<HeadMod> {
    let mut mods = Vec::new();
    let query = base.query.clone().unwrap_or_default();
    let path = base.path.clone();
    // Each mistake's change is its own (`Mistake::head_change`); only mods that change the head
    // are kept (a pair of them is then a change too, or the search tries it once, as the
    // single it equals). `pairable`: tried in pairs, not only alone.
    let base_bytes = base.bytes();
    let mut push = |m: Mistake, pairable: bool| {
        if let Some(hm) = HeadMod::of(m, base) {
            if base.with(&hm).bytes() != base_bytes {
                mods.push(HeadMod { pairable, ..hm });
            }
        }
    };

    push(Mistake::QuestionMarkBeforeQuery, true);
    push(Mistake::EmptyQueryLineOmitted, true);
    push(Mistake::TrailingSlashTrimmed, true);
    push(Mistake::CrlfLineEndings, true);
    push(Mistake::LowercaseHeaderNames, true);
    push(Mistake::LowercaseMethod, true);
    if query.contains('%') || query.contains('+') {
        let mut seen = vec![query.clone()];
        for plus in [false, true] {
            let d = percent_decoded(&query, plus);
            if !seen.contains(&d) {
                seen.push(d);
                push(Mistake::QueryPercentDecoded { plus }, true);
            }
        }
    }
    if query.contains('&') {
        push(Mistake::QueryParamsSorted, true);
    }
    // Changes after signing (tried alone and with the PHP SDK form): parameters added to the
    // URL (each one, or all), or the vendor's documented `test=1` removed from it.
    if query.is_empty() {
        let removed = VENDOR_TEST_QUERY.to_string();
        push(Mistake::QueryRemovedAfterSigning { removed }, false);
    } else {
        let params: Vec<&str> = query.split('&').collect();
        let mut seen = vec![query.clone()];
        if params.len() <= MAX_QUERY_PARAMS {
            for (i, p) in params.iter().enumerate() {
                let signed = without_param(&query, i);
                if !seen.contains(&signed) {
                    seen.push(signed);
                    push(
                        Mistake::QueryAddedAfterSigning {
                            added: p.to_string(),
                        },
                        false,
                    );
                }
            }
        }
        if !seen.contains(&String::new()) {
            push(
                Mistake::QueryAddedAfterSigning {
                    added: query.clone(),
                },
                false,
            );
        }
    }
    let mut urls: Vec<String> = Vec::new();
    if let Some(h) = host.filter(|h| !h.is_empty()) {
        urls.push(format!("https://{h}"));
        urls.push(format!("http://{h}"));
    }
    let vendor = format!("https://{VENDOR_INDEXING_HOST}");
    if !urls.contains(&vendor) {
        urls.push(vendor);
    }
    for url in urls {
        push(Mistake::FullUrlAsPath { url }, true);
    }
    if path.contains('%') {
        push(Mistake::PathPercentDecoded, true);
    }
    let ts = base.values[0].clone();
    if let Some(parsed) = parse_timestamp(&ts) {
        // A set, not a list: the clock search may try thousands of instants (a list made
        // this loop quadratic, half a second of a small body's diagnosis).
        let mut seen = std::collections::HashSet::from([ts.clone()]);
        for f in forms(parsed.time) {
            if seen.insert(f.clone()) {
                push(Mistake::TimestampFormDiffers { signed: f }, true);
            }
        }
        let unit = clock_unit_ms(&ts).unwrap_or(0);
        for (off, pairable) in timestamp_offsets_ms(unit, clock_reach) {
            if let Some(text) = shifted_timestamp(&ts, off) {
                if seen.insert(text) {
                    push(Mistake::TimestampDiffers { offset_ms: off }, pairable);
                }
            }
        }
    }
    for ct in CONTENT_TYPE_VARIANTS {
        if ct != base.values[3] {
            push(
                Mistake::ContentTypeDiffers {
                    signed: ct.to_string(),
                },
                true,
            );
        }
    }
    for p in KNOWN_PREFIXES {
        if p != base.prefix {
            let m = Mistake::HeaderPrefixDiffers {
                signed: p.to_string(),
                sent: base.prefix.clone(),
            };
            push(m, true);
        }
    }
    // In pairs: the order the headers were sent in, and sorted by name (what a client that
    // builds both from one map, or from a sorted one, signs); every other order alone.
    let paired_orders: Vec<[u8; 4]> = sent_order.into_iter().chain([NAME_SORTED_ORDER]).collect();
    for order in other_orders() {
        push(
            Mistake::HeaderLinesReordered { order },
            paired_orders.contains(&order),
        );
    }
    mods
}

/// A query without its `i`-th parameter (`&`-separated).
pub fn without_param(query: &str, i: usize) -> String {
    query
        .split('&')
        .enumerate()
        .filter(|&(j, _)| j != i)
        .map(|(_, p)| p)
        .collect::<Vec<_>>()
        .join("&")
}

/// A timestamp text moved by `offset_ms`, written in the same form (precision and zone
/// style); `None` for a text that is no timestamp.
pub fn shifted_timestamp(text: &str, offset_ms: i64) -> Option<String> {
    let parsed = parse_timestamp(text)?;
    let (fmt, z) = form_of(text);
    Some((parsed.time + Duration::milliseconds(offset_ms)).to_rfc3339_opts(fmt, z))
}

/// The PHP SDK's form as one mod, when it is two mistakes at once for this request.
pub fn php_sdk_mod(base: &Head) -> Option<HeadMod> {
    let query = base.query.clone().unwrap_or_default();
    let mistakes = php_sdk_mistakes(&base.path, &query);
    (mistakes.len() == 2).then(|| HeadMod {
        mistakes,
        changes: vec![Change::PathTrimmed, Change::PhpQuery],
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
