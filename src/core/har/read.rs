//! Reading a HAR (HTTP Archive 1.2) one entry at a time (`docs/har.md`).
//!
//! A HAR is one JSON document, `{"log": {"version", "creator", "pages", "entries": [...]}}`,
//! often tens or hundreds of megabytes (every response body of a page is in it). It is read
//! with serde_json's streaming deserializer and a [`DeserializeSeed`] over `log.entries`: each
//! element is taken as its raw JSON text ([`RawValue`]: checked, not built into a tree), handed
//! to the caller as an [`EntryView`] that borrows from that text, and dropped before the next
//! one is read. Memory: the reader's buffer plus the largest single entry, whatever the
//! file's size. Response bodies, the bulk of a browser's capture, are decoded only when the
//! caller asks for one.
//!
//! A HAR is untrusted input. An element that is valid JSON but not an entry (a missing
//! `request`, a number for a URL, a bad base64 body) is reported by its index and the reading
//! goes on; JSON that is not valid ends the reading with the line and column, after the entries
//! already handed over. Nothing in here panics on any input (`fuzz/fuzz_targets/har.rs`).

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;
use std::ops::ControlFlow;

use base64::Engine;
use bytes::Bytes;
use chrono::{DateTime, Utc};
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::core::events::json_error_reason;
use crate::core::time::parse_timestamp;

/// What a HAR's `log` says of itself, and how many entries it had.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HarLog {
    /// `log.version`, e.g. `1.2`.
    pub version: Option<String>,
    /// `log.creator.name` and `.version`, e.g. `("WebInspector", "537.36")`.
    pub creator: Option<(String, String)>,
    /// Elements of `log.entries` (good and bad).
    pub entries: usize,
}

/// Why a HAR could not be read to its end. One sentence each.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HarError {
    /// Not a HAR at all (not a JSON object, or no `log.entries` array).
    #[error("{0}")]
    NotHar(String),
    /// The JSON is broken (cut short, or not JSON) after `after` entries were read.
    #[error("the HAR is not valid JSON at line {line}, column {column} ({why}); {after} entries before it were read")]
    Syntax {
        after: usize,
        line: usize,
        column: usize,
        why: String,
    },
    /// The caller stopped the reading (it keeps its own reason, e.g. a closed output).
    #[error("the reading of the HAR was stopped before its end")]
    Stopped,
}

/// An element of `log.entries` that is valid JSON but not a usable entry.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("entry {index}: {why}")]
pub struct BadEntry {
    /// Its position in `log.entries`, from 0.
    pub index: usize,
    /// Why, in one sentence.
    pub why: String,
}

/// A header or query pair of a HAR (`{"name": ..., "value": ...}`).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct NameValue<'a> {
    #[serde(borrow)]
    pub name: Cow<'a, str>,
    #[serde(borrow, default)]
    pub value: Cow<'a, str>,
}

/// `request.postData` or `response.content`: text or base64 (`encoding`), or form params.
#[derive(Debug, Deserialize)]
struct Body<'a> {
    #[serde(borrow, default, rename = "mimeType")]
    mime_type: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    text: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    encoding: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    params: Option<Vec<NameValue<'a>>>,
    size: Option<f64>,
    /// A capture tool's mark that it cut the body (`true`, or the bytes left out).
    #[serde(default, rename = "_truncated")]
    truncated: Option<serde_json::Value>,
    #[serde(borrow, default)]
    comment: Option<Cow<'a, str>>,
}

#[derive(Debug, Deserialize)]
struct RequestRaw<'a> {
    #[serde(borrow)]
    method: Cow<'a, str>,
    #[serde(borrow)]
    url: Cow<'a, str>,
    #[serde(borrow, default)]
    headers: Vec<NameValue<'a>>,
    #[serde(borrow, default, rename = "postData")]
    post_data: Option<Body<'a>>,
    #[serde(default, rename = "bodySize")]
    body_size: Option<f64>,
}

#[derive(Debug, Deserialize)]
struct ResponseRaw<'a> {
    status: Option<f64>,
    /// Kept as raw text: decoded only when asked for ([`EntryView::response_body`]).
    #[serde(borrow, default)]
    content: Option<&'a RawValue>,
}

#[derive(Debug, Deserialize)]
struct EntryRaw<'a> {
    #[serde(borrow, default, rename = "startedDateTime")]
    started: Option<Cow<'a, str>>,
    #[serde(borrow)]
    request: RequestRaw<'a>,
    #[serde(borrow, default)]
    response: Option<ResponseRaw<'a>>,
}

/// One entry of a HAR, borrowed from its JSON text.
#[derive(Debug)]
pub struct EntryView<'a> {
    /// Its position in `log.entries`, from 0.
    pub index: usize,
    raw: EntryRaw<'a>,
}

/// The parts of an entry's URL, exactly as written (nothing decoded or normalised: the query
/// is signed as sent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlParts<'u> {
    /// `http` or `https` (lower-cased by the caller when it compares).
    pub scheme: &'u str,
    /// The host, without the port, brackets kept off an IPv6 literal.
    pub host: &'u str,
    pub port: Option<u16>,
    /// Starts with `/` (`/` when the URL has no path).
    pub path: &'u str,
    /// Without the `?`; empty when there is none.
    pub query: &'u str,
}

/// Split an absolute URL (`https://host:port/path?query#fragment`) into its parts; `None` when
/// it is not one (no scheme, no host, a port that is not a number).
pub fn split_url(url: &str) -> Option<UrlParts<'_>> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme.is_empty()
        || !scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    {
        return None;
    }
    let rest = rest.split('#').next().unwrap_or("");
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, target) = rest.split_at(end);
    // user:password@ is not part of the host.
    let hostport = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let (host, port) = if let Some(v6) = hostport.strip_prefix('[') {
        let (h, after) = v6.split_once(']')?;
        match after.strip_prefix(':') {
            Some(p) => (h, Some(p.parse().ok()?)),
            None if after.is_empty() => (h, None),
            None => return None,
        }
    } else {
        match hostport.rsplit_once(':') {
            Some((h, p)) if !p.is_empty() => (h, Some(p.parse().ok()?)),
            Some((h, _)) => (h, None),
            None => (hostport, None),
        }
    };
    if host.is_empty() {
        return None;
    }
    let (path, query) = match target.split_once('?') {
        Some((p, q)) => (p, q),
        None => (target, ""),
    };
    Some(UrlParts {
        scheme,
        host,
        port,
        path: if path.is_empty() { "/" } else { path },
        query,
    })
}

/// A decoded request or response body and what was noticed while decoding it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DecodedBody {
    pub bytes: Bytes,
    pub mime_type: Option<String>,
    /// Remarks such as "the form was given as fields and rebuilt".
    pub notes: Vec<String>,
    /// Why the capture does not hold the whole body, when it does not (`docs/har.md` rule
    /// H12): "the capture holds 2,048 of the request body's 10,000 bytes". A body not kept
    /// whole is not judged.
    pub cut: Option<String>,
}

/// Why a captured body cannot be read (the end of a sentence naming the entry).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BodyError {
    #[error("its {what} is marked base64 but is not ({reason})")]
    NotBase64 { what: &'static str, reason: String },
    #[error("its {what} has the encoding \"{encoding}\"; only base64 (or none: text) can be read")]
    Encoding {
        what: &'static str,
        encoding: String,
    },
    #[error("its response content is not readable ({0})")]
    Content(String),
}

fn decode_body(
    b: &Body<'_>,
    declared_size: Option<f64>,
    what: &'static str,
) -> Result<DecodedBody, BodyError> {
    let mut notes = Vec::new();
    let bytes: Vec<u8> = match (&b.text, &b.params) {
        (Some(text), _) => match b.encoding.as_deref() {
            None | Some("") => text.as_bytes().to_vec(),
            Some(e) if e.eq_ignore_ascii_case("base64") => {
                // Some writers wrap base64 at 76 columns.
                let clean: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
                base64::engine::general_purpose::STANDARD
                    .decode(&clean)
                    .map_err(|e| BodyError::NotBase64 {
                        what,
                        reason: e.to_string(),
                    })?
            }
            Some(other) => {
                return Err(BodyError::Encoding {
                    what,
                    encoding: crate::core::visible::escape_visible(other.as_bytes()),
                })
            }
        },
        (None, Some(params)) if !params.is_empty() => {
            // Some writers give a form post as its fields only; rebuilt as the browser sends one.
            notes.push(format!(
                "the capture gives its {what} as {} form fields, not as text: rebuilt as application/x-www-form-urlencoded",
                params.len()
            ));
            let enc = |s: &str| {
                percent_encoding::utf8_percent_encode(s, percent_encoding::NON_ALPHANUMERIC)
                    .to_string()
            };
            params
                .iter()
                .map(|p| format!("{}={}", enc(&p.name), enc(&p.value)))
                .collect::<Vec<_>>()
                .join("&")
                .into_bytes()
        }
        _ => Vec::new(),
    };
    let cut = if b.text.is_some() {
        cut_reason(b, bytes.len(), declared_size.or(b.size), what)
    } else {
        None
    };
    Ok(DecodedBody {
        bytes: Bytes::from(bytes),
        mime_type: b.mime_type.as_deref().map(str::to_string),
        notes,
        cut,
    })
}

/// Why a body's text is not the whole body: the capture tool says it cut it (`_truncated`, a
/// `comment` saying so), or it is shorter than its declared size.
fn cut_reason(b: &Body<'_>, held: usize, size: Option<f64>, what: &str) -> Option<String> {
    if let Some(size) = size
        .filter(|s| *s >= 0.0 && s.is_finite())
        .map(|s| s as u64)
    {
        if (held as u64) < size {
            return Some(format!(
                "the capture holds {held} of the {what}'s {size} bytes"
            ));
        }
    }
    let marked = match &b.truncated {
        Some(serde_json::Value::Bool(t)) => *t,
        Some(serde_json::Value::Number(n)) => n.as_f64().is_some_and(|n| n > 0.0),
        _ => false,
    };
    if marked {
        return Some(format!(
            "the capture tool marked its {what} as cut (_truncated)"
        ));
    }
    b.comment.as_deref().filter(|c| says_cut(c)).map(|c| {
        format!(
            "the capture says of its {what}: \"{}\"",
            crate::core::visible::escape_visible(c.as_bytes())
        )
    })
}

/// Whether a capture tool's comment on a body says that the body was cut.
fn says_cut(comment: &str) -> bool {
    let c = comment.to_ascii_lowercase();
    [
        "truncat",
        "only the first",
        "not recorded",
        "not kept",
        "omitted",
        "partial",
        "cut ",
    ]
    .iter()
    .any(|w| c.contains(w))
}

impl<'a> EntryView<'a> {
    /// `startedDateTime` as written.
    pub fn started_text(&self) -> Option<&str> {
        self.raw.started.as_deref()
    }

    /// `startedDateTime` as a time (any RFC 3339 form); `None` when absent or not a time.
    pub fn started(&self) -> Option<DateTime<Utc>> {
        parse_timestamp(self.raw.started.as_deref()?).map(|t| t.time)
    }

    pub fn method(&self) -> &str {
        &self.raw.request.method
    }

    pub fn url(&self) -> &str {
        &self.raw.request.url
    }

    /// The request headers in order, HTTP/2 pseudo-headers (`:authority`...) left out.
    pub fn request_headers(&self) -> impl Iterator<Item = (&str, &str)> {
        self.raw
            .request
            .headers
            .iter()
            .filter(|h| !h.name.starts_with(':'))
            .map(|h| (h.name.as_ref(), h.value.as_ref()))
    }

    /// The request body (`postData`): empty when there is none. A body the capture did not
    /// keep whole says why in `cut`: no `postData` text for a body that had bytes (`bodySize`
    /// or `Content-Length` above 0; mitmproxy writes a GET's body so), a tool's mark, or fewer
    /// bytes than declared.
    pub fn request_body(&self) -> Result<DecodedBody, BodyError> {
        let declared = self.raw.request.body_size.filter(|s| *s > 0.0);
        let length = self
            .request_headers()
            .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
            .and_then(|(_, v)| v.trim().parse::<u64>().ok())
            .filter(|n| *n > 0);
        let mut d = match &self.raw.request.post_data {
            Some(b) => decode_body(b, declared, "request body")?,
            None => DecodedBody::default(),
        };
        let has_text =
            self.raw.request.post_data.as_ref().is_some_and(|b| {
                b.text.is_some() || b.params.as_ref().is_some_and(|p| !p.is_empty())
            });
        if d.cut.is_none() && !has_text {
            if let Some(n) = declared.map(|s| s as u64).or(length) {
                d.cut = Some(format!(
                    "the capture holds none of the request body's {n} bytes"
                ));
            }
        }
        if d.cut.is_none() && has_text {
            if let Some(n) = length.filter(|n| (d.bytes.len() as u64) < *n) {
                d.cut = Some(format!(
                    "the capture holds {} of the request body's {n} bytes (its Content-Length)",
                    d.bytes.len()
                ));
            }
        }
        Ok(d)
    }

    /// Whether the capture has no answer to the request (a response with status 0, as
    /// browsers and `history --output har` write a request that was not sent or not answered;
    /// some tools write -1).
    pub fn not_answered(&self) -> bool {
        self.raw
            .response
            .as_ref()
            .and_then(|r| r.status)
            .is_some_and(|s| s <= 0.0)
    }

    /// The response status, when the entry has a response with one (browsers write `0` for a
    /// request that got no answer: `None` here too).
    pub fn response_status(&self) -> Option<u16> {
        let s = self.raw.response.as_ref()?.status?;
        (s.is_finite() && (100.0..1000.0).contains(&s)).then_some(s as u16)
    }

    /// The response body, decoded now (text or base64); `None` when the capture has none.
    pub fn response_body(&self) -> Option<Result<DecodedBody, BodyError>> {
        let raw = self.raw.response.as_ref()?.content?;
        Some(
            serde_json::from_str::<Body<'_>>(raw.get())
                .map_err(|e| BodyError::Content(json_error_reason(&e)))
                .and_then(|b| decode_body(&b, None, "response body")),
        )
    }
}

/// Read `log.entries` of a HAR from any serde_json deserializer (a reader or a slice), calling
/// `each` with every element in order: an [`EntryView`], or a [`BadEntry`] for one that is valid
/// JSON but not an entry. `each` returns `ControlFlow::Break(())` to stop (the caller keeps its
/// own reason, typed as it likes). The entries already handed over
/// stay handed over whatever the result.
pub fn read_har<'de, D, F>(de: D, each: F) -> Result<HarLog, HarError>
where
    D: Deserializer<'de, Error = serde_json::Error>,
    F: FnMut(Result<EntryView<'_>, BadEntry>) -> ControlFlow<()>,
{
    let state = State {
        each: RefCell::new(each),
        log: RefCell::new(HarLog::default()),
        stopped: RefCell::new(false),
        saw_entries: RefCell::new(false),
    };
    let result = de.deserialize_any(RootVisitor(&state));
    if *state.stopped.borrow() {
        return Err(HarError::Stopped);
    }
    let log = state.log.into_inner();
    match result {
        Ok(()) if state.saw_entries.into_inner() => Ok(log),
        Ok(()) => Err(HarError::NotHar(
            "the file is JSON but not a HAR: it has no log.entries array (save it from the browser's Network panel with \"Save all as HAR\")".into(),
        )),
        Err(e) if e.is_syntax() || e.is_eof() || e.is_io() => Err(HarError::Syntax {
            after: log.entries,
            line: e.line(),
            column: e.column(),
            why: json_error_reason(&e),
        }),
        Err(e) => Err(HarError::NotHar(format!(
            "the file is JSON but not a HAR: {}",
            json_error_reason(&e)
        ))),
    }
}

/// Read a HAR held in memory (see [`read_har`]).
pub fn read_har_slice<F>(bytes: &[u8], each: F) -> Result<HarLog, HarError>
where
    F: FnMut(Result<EntryView<'_>, BadEntry>) -> ControlFlow<()>,
{
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let log = read_har(&mut de, each)?;
    de.end().map_err(|e| HarError::Syntax {
        after: log.entries,
        line: e.line(),
        column: e.column(),
        why: json_error_reason(&e),
    })?;
    Ok(log)
}

/// Whether `bytes` look like the start of a JSON document (a HAR) rather than raw HTTP or a
/// curl command: the first non-blank byte is `{` or `[` (neither starts a request line).
pub fn looks_like_json(bytes: &[u8]) -> bool {
    let start = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    start
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| matches!(b, b'{' | b'['))
}

struct State<F> {
    each: RefCell<F>,
    log: RefCell<HarLog>,
    stopped: RefCell<bool>,
    saw_entries: RefCell<bool>,
}

struct RootVisitor<'s, F>(&'s State<F>);

impl<'de, F> Visitor<'de> for RootVisitor<'_, F>
where
    F: FnMut(Result<EntryView<'_>, BadEntry>) -> ControlFlow<()>,
{
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a HAR: a JSON object with a \"log\" member")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            if key == "log" {
                map.next_value_seed(LogSeed(self.0))?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

struct LogSeed<'s, F>(&'s State<F>);

impl<'de, F> DeserializeSeed<'de> for LogSeed<'_, F>
where
    F: FnMut(Result<EntryView<'_>, BadEntry>) -> ControlFlow<()>,
{
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

#[derive(Deserialize)]
struct Creator {
    #[serde(default)]
    name: String,
    #[serde(default)]
    version: String,
}

impl<'de, F> Visitor<'de> for LogSeed<'_, F>
where
    F: FnMut(Result<EntryView<'_>, BadEntry>) -> ControlFlow<()>,
{
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("the HAR's log: an object with an \"entries\" array")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            match key.as_ref() {
                "entries" => {
                    *self.0.saw_entries.borrow_mut() = true;
                    map.next_value_seed(EntriesSeed(self.0))?;
                }
                "version" => {
                    let v = map.next_value::<serde_json::Value>()?;
                    self.0.log.borrow_mut().version = Some(match v {
                        serde_json::Value::String(s) => s,
                        other => other.to_string(),
                    });
                }
                "creator" => {
                    if let Ok(c) = Creator::deserialize(map.next_value::<serde_json::Value>()?) {
                        self.0.log.borrow_mut().creator = Some((c.name, c.version));
                    }
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(())
    }
}

struct EntriesSeed<'s, F>(&'s State<F>);

impl<'de, F> DeserializeSeed<'de> for EntriesSeed<'_, F>
where
    F: FnMut(Result<EntryView<'_>, BadEntry>) -> ControlFlow<()>,
{
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, F> Visitor<'de> for EntriesSeed<'_, F>
where
    F: FnMut(Result<EntryView<'_>, BadEntry>) -> ControlFlow<()>,
{
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("log.entries: an array of entries")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        loop {
            let index = self.0.log.borrow().entries;
            // Owned raw text: a reader's buffer cannot be borrowed from.
            let Some(raw) = seq.next_element::<Box<RawValue>>()? else {
                return Ok(());
            };
            self.0.log.borrow_mut().entries += 1;
            let item = match serde_json::from_str::<EntryRaw<'_>>(raw.get()) {
                Ok(raw) => match check(&raw) {
                    Ok(()) => Ok(EntryView { index, raw }),
                    Err(why) => Err(BadEntry {
                        index,
                        why: why.to_string(),
                    }),
                },
                Err(e) => Err(BadEntry {
                    index,
                    why: format!("it is not a HAR entry: {}", json_error_reason(&e)),
                }),
            };
            if (self.0.each.borrow_mut())(item).is_break() {
                *self.0.stopped.borrow_mut() = true;
                return Err(de::Error::custom("stopped by the caller"));
            }
        }
    }
}

/// Why an entry cannot be judged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum EntryError {
    #[error("its request.method \"{0}\" is not an HTTP method")]
    Method(String),
    #[error("its request.url \"{0}\" is not an absolute URL such as https://host/path")]
    Url(String),
}

/// What an entry must have to be judged: a method and an absolute URL.
fn check(raw: &EntryRaw<'_>) -> Result<(), EntryError> {
    let m = raw.request.method.as_ref();
    if !crate::core::http_text::is_token(m) {
        return Err(EntryError::Method(crate::core::visible::escape_visible(
            m.as_bytes(),
        )));
    }
    if split_url(&raw.request.url).is_none() {
        return Err(EntryError::Url(crate::core::visible::escape_visible(
            raw.request.url.as_bytes(),
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MITM: &[u8] = include_bytes!("../../../tests/data/har/mitmproxy-indexing.har");

    fn indices(bytes: &[u8]) -> (Vec<(usize, bool)>, Result<HarLog, HarError>) {
        let mut seen = Vec::new();
        let r = read_har_slice(bytes, |item| {
            seen.push(match item {
                Ok(e) => (e.index, true),
                Err(b) => (b.index, false),
            });
            ControlFlow::Continue(())
        });
        (seen, r)
    }

    #[test]
    fn a_real_capture_reads_entry_by_entry() {
        let (seen, r) = indices(MITM);
        assert_eq!(seen.len(), 6);
        assert!(seen.iter().enumerate().all(|(i, (j, ok))| i == *j && *ok));
        let log = r.unwrap();
        assert_eq!(log.entries, 6);
        assert_eq!(log.creator.unwrap().0, "mitmproxy");
    }

    #[test]
    fn every_cut_of_a_capture_is_an_error_after_the_entries_before_it_never_a_panic() {
        for cut in (0..MITM.len()).step_by(61) {
            let (seen, r) = indices(&MITM[..cut]);
            assert!(seen.iter().enumerate().all(|(i, (j, _))| i == *j));
            match r {
                Err(HarError::Syntax { after, .. }) => assert_eq!(after, seen.len()),
                Err(HarError::NotHar(_)) => assert!(seen.is_empty()),
                other => panic!("cut at {cut}: {other:?}"),
            }
        }
    }

    #[test]
    fn urls_split_exactly_as_written() {
        let u = split_url("https://user:pw@[::1]:8443/v2/batch/?b=2&a=%41#frag").unwrap();
        assert_eq!(
            (u.scheme, u.host, u.port, u.path, u.query),
            ("https", "::1", Some(8443), "/v2/batch/", "b=2&a=%41")
        );
        let u = split_url("http://stats.ksearchnet.com").unwrap();
        assert_eq!((u.host, u.path, u.query), ("stats.ksearchnet.com", "/", ""));
        for bad in [
            "",
            "/v2/batch",
            "http://",
            "http://h:port/",
            "://h/",
            "http://[::1/",
        ] {
            assert!(split_url(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn bodies_decode_from_text_base64_and_params() {
        let har = br#"{"log":{"entries":[
          {"request":{"method":"POST","url":"http://h/a","postData":{"text":"W1td\n","encoding":"base64"}}},
          {"request":{"method":"POST","url":"http://h/a","postData":{"mimeType":"application/x-www-form-urlencoded","params":[{"name":"a b","value":"1&2"}]}}},
          {"request":{"method":"POST","url":"http://h/a","bodySize":10,"postData":{"text":"[]"}}},
          {"request":{"method":"POST","url":"http://h/a","postData":{"text":"x","encoding":"gzip"}}}
        ]}}"#;
        let mut out = Vec::new();
        read_har_slice(har, |item| {
            out.push(item.unwrap().request_body());
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(out[0].as_ref().unwrap().bytes, &b"[[]"[..]);
        let form = out[1].as_ref().unwrap();
        assert_eq!(form.bytes, &b"a%20b=1%262"[..]);
        assert!(form.notes[0].contains("form fields"));
        assert_eq!(
            out[2].as_ref().unwrap().cut.as_deref(),
            Some("the capture holds 2 of the request body's 10 bytes")
        );
        assert_eq!(out[0].as_ref().unwrap().cut, None);
        assert!(out[3].as_ref().unwrap_err().to_string().contains("gzip"));
    }

    #[test]
    fn bodies_not_kept_whole_say_why_and_unanswered_entries_are_told() {
        let har = br#"{"log":{"entries":[
          {"request":{"method":"GET","url":"http://h/a","bodySize":-1,"headers":[{"name":"Content-Length","value":"12"}]},"response":{"status":200}},
          {"request":{"method":"POST","url":"http://h/a","bodySize":5}},
          {"request":{"method":"POST","url":"http://h/a","postData":{"text":"[1","_truncated":true}}},
          {"request":{"method":"POST","url":"http://h/a","postData":{"text":"[1","comment":"Body truncated at 2 bytes"}}},
          {"request":{"method":"POST","url":"http://h/a","headers":[{"name":"content-length","value":"9"}],"postData":{"text":"[1"}}},
          {"request":{"method":"POST","url":"http://h/a","bodySize":2,"postData":{"text":"[]","comment":"from the shop"}},"response":{"status":0}},
          {"request":{"method":"GET","url":"http://h/a","bodySize":0},"response":{"status":-1}}
        ]}}"#;
        let mut out = Vec::new();
        read_har_slice(har, |item| {
            let e = item.unwrap();
            out.push((e.request_body().unwrap().cut, e.not_answered()));
            ControlFlow::Continue(())
        })
        .unwrap();
        let cut: Vec<Option<&str>> = out.iter().map(|(c, _)| c.as_deref()).collect();
        assert_eq!(
            cut,
            [
                Some("the capture holds none of the request body's 12 bytes"),
                Some("the capture holds none of the request body's 5 bytes"),
                Some("the capture tool marked its request body as cut (_truncated)"),
                Some("the capture says of its request body: \"Body truncated at 2 bytes\""),
                Some("the capture holds 2 of the request body's 9 bytes (its Content-Length)"),
                None,
                None,
            ]
        );
        let unanswered: Vec<bool> = out.iter().map(|(_, n)| *n).collect();
        assert_eq!(unanswered, [false, false, false, false, false, true, true]);
    }

    #[test]
    fn a_caller_that_breaks_stops_the_reading_after_that_entry() {
        let mut seen = 0;
        let r = read_har_slice(MITM, |_| {
            seen += 1;
            ControlFlow::Break(())
        });
        assert_eq!(seen, 1);
        assert!(matches!(r, Err(HarError::Stopped)), "{r:?}");
    }
}
