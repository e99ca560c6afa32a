//! The head of the signing text (its seven short lines) as a client may have built it: the
//! expected head and the [`Change`]s a mistake can make to it. A leaf: which mistake makes which
//! change is the catalogue's (`catalogue.rs`), which imports this module.

use chrono::{DateTime, Duration, SecondsFormat, Utc};

use crate::core::form::SigningForm;
use crate::core::time::parse_timestamp;

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

    /// This head with several changes made together, in a fixed order (decode, then sort or
    /// trim, then `?` and the full URL), so `?` goes before a sorted query and a full URL ends
    /// in the trimmed path, whatever order the changes are given in.
    pub fn with_all<'c>(&self, changes: impl IntoIterator<Item = &'c Change>) -> Head {
        let mut changes: Vec<&Change> = changes.into_iter().collect();
        changes.sort_by_key(|c| c.rank());
        let mut h = self.clone();
        for c in changes {
            h.apply(c);
        }
        h
    }

    /// Make one change in this head.
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

/// A path or query percent-decoded (`plus_as_space`: `+` read as a space, as form decoding does).
pub fn percent_decoded(s: &str, plus_as_space: bool) -> String {
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
pub fn timestamp_forms(t: DateTime<Utc>) -> Vec<String> {
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

/// All orders of four items except the identity.
pub fn other_orders() -> Vec<[u8; 4]> {
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
