//! Writing HAR 1.2 (`docs/har.md`): every field the specification requires, with `-1` where a
//! size or a time is not known, so that Chrome's DevTools ("Import HAR file"), Firefox and the
//! `har-validator` schema all take it.
//!
//! Written as a stream: the caller hands over one [`Exchange`] at a time and the document's
//! frame is written around them, so a long history is never held whole.

use std::io::{self, Write};

use base64::Engine;
use serde_json::{json, Map, Value};

/// The creator named in the HAR's `log.creator`.
pub const CREATOR: &str = "signscope";

/// One request and its answer, as a HAR entry.
#[derive(Clone, Debug, Default)]
pub struct Exchange<'a> {
    /// When the request started, RFC 3339 (`YYYY-MM-DDThh:mm:ss.mmmZ`).
    pub started: String,
    /// Total time in milliseconds, when known.
    pub time_ms: Option<f64>,
    pub method: &'a str,
    /// Absolute URL: scheme, host, path and query.
    pub url: String,
    pub headers: &'a [(String, String)],
    /// The body as recorded (possibly only its start: see `body_size`).
    pub body: &'a [u8],
    /// The body's full size in bytes, when known (larger than `body` when it was cut).
    pub body_size: Option<usize>,
    pub response: Option<ExchangeResponse<'a>>,
    /// Where the time went, when measured.
    pub timings: Option<Timings>,
    /// A remark on the entry (`entry.comment`), e.g. the local verdict.
    pub comment: Option<String>,
    /// Extra members of the entry (names start with `_`, as the specification asks of custom
    /// fields), e.g. `_signscope` with the verdict.
    pub custom: Option<(String, Value)>,
}

/// The answer of an [`Exchange`].
#[derive(Clone, Debug, Default)]
pub struct ExchangeResponse<'a> {
    pub status: u16,
    pub headers: &'a [(String, String)],
    /// The body as recorded, when it was (`None`: not recorded).
    pub body: Option<&'a [u8]>,
    /// Its full size in bytes, when known.
    pub body_size: Option<u64>,
}

/// `timings`, in milliseconds; `None` is written as `-1` (not applicable or not known).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    pub blocked: Option<f64>,
    pub dns: Option<f64>,
    pub connect: Option<f64>,
    pub ssl: Option<f64>,
    pub send: Option<f64>,
    pub wait: Option<f64>,
    pub receive: Option<f64>,
}

/// A HAR being written: [`HarWriter::begin`], one [`HarWriter::entry`] per exchange,
/// [`HarWriter::finish`].
pub struct HarWriter<W: Write> {
    out: W,
    first: bool,
}

impl<W: Write> HarWriter<W> {
    /// Write the document's start; `version` is signscope's own (the creator's version).
    pub fn begin(mut out: W, version: &str) -> io::Result<Self> {
        let creator = json!({"name": CREATOR, "version": version});
        write!(
            out,
            "{{\"log\":{{\"version\":\"1.2\",\"creator\":{creator},\"pages\":[],\"entries\":["
        )?;
        Ok(HarWriter { out, first: true })
    }

    /// Go on writing a document whose start (and `first`: whether no entry yet) was written
    /// before, to another writer: a document written a chunk at a time.
    pub fn resume(out: W, first: bool) -> Self {
        HarWriter { out, first }
    }

    /// The writer, with no end written (see [`HarWriter::resume`]).
    pub fn into_inner(self) -> W {
        self.out
    }

    pub fn entry(&mut self, e: &Exchange<'_>) -> io::Result<()> {
        self.next_entry()?;
        serde_json::to_writer(&mut self.out, &entry_value(e))?;
        Ok(())
    }

    /// The separator before an entry: one entry a line.
    fn next_entry(&mut self) -> io::Result<()> {
        if !self.first {
            self.out.write_all(b",")?;
        }
        self.first = false;
        self.out.write_all(b"\n")
    }

    /// An entry already written as JSON (one of another HAR document's entries).
    fn raw_entry(&mut self, json: &str) -> io::Result<()> {
        self.next_entry()?;
        self.out.write_all(json.as_bytes())
    }

    /// Close the document and give the writer back.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.write_all(b"\n]}}\n")?;
        Ok(self.out)
    }
}

/// The whole HAR of `exchanges` as one string.
pub fn to_har_string<'a>(
    version: &str,
    exchanges: impl IntoIterator<Item = Exchange<'a>>,
) -> String {
    let mut w = HarWriter::begin(Vec::new(), version).expect("writing to memory");
    for e in exchanges {
        w.entry(&e).expect("writing to memory");
    }
    String::from_utf8(w.finish().expect("writing to memory")).expect("serde_json writes UTF-8")
}

/// Pages of one HAR export (each a whole HAR 1.2 document, e.g. the pages of
/// `/_inspect/requests?format=har&all=true`, `docs/server.md` rule R15) as one document written
/// by `version`: every page's entries, page after page, each kept as its bytes came. Also the
/// number of entries; one sentence naming the page that is not a HAR document.
pub fn join_pages<S: AsRef<str>>(version: &str, pages: &[S]) -> Result<(String, usize), String> {
    #[derive(serde::Deserialize)]
    struct Page<'a> {
        #[serde(borrow)]
        log: Log<'a>,
    }
    #[derive(serde::Deserialize)]
    struct Log<'a> {
        #[serde(borrow)]
        entries: Vec<&'a serde_json::value::RawValue>,
    }
    let mut w = HarWriter::begin(Vec::new(), version).expect("writing to memory");
    let mut n = 0;
    for (i, page) in pages.iter().enumerate() {
        let page: Page<'_> = serde_json::from_str(page.as_ref())
            .map_err(|e| format!("page {} of the export is not a HAR document: {e}", i + 1))?;
        for raw in page.log.entries {
            w.raw_entry(raw.get()).expect("writing to memory");
            n += 1;
        }
    }
    let out = w.finish().expect("writing to memory");
    Ok((
        String::from_utf8(out).expect("the pages were UTF-8 text"),
        n,
    ))
}

fn ms(v: Option<f64>) -> Value {
    match v.filter(|t| t.is_finite() && *t >= 0.0) {
        // Three decimals: microseconds, as browsers write them.
        Some(t) => json!((t * 1000.0).round() / 1000.0),
        None => json!(-1),
    }
}

fn header_list(headers: &[(String, String)]) -> Value {
    Value::Array(
        headers
            .iter()
            .map(|(n, v)| json!({"name": n, "value": v}))
            .collect(),
    )
}

/// The first value of a header (name matched in any case).
fn header_value<'h>(headers: &'h [(String, String)], name: &str) -> Option<&'h str> {
    headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// A body as HAR text into `postData` or `content`: UTF-8 as it is, anything else base64 with
/// `encoding`.
fn put_body_text(into: &mut Map<String, Value>, body: &[u8]) {
    match std::str::from_utf8(body) {
        Ok(t) => into.insert("text".into(), json!(t)),
        Err(_) => {
            let text = base64::engine::general_purpose::STANDARD.encode(body);
            into.insert("text".into(), json!(text));
            into.insert("encoding".into(), json!("base64"))
        }
    };
}

fn query_list(url: &str) -> Value {
    let query = url
        .split('#')
        .next()
        .and_then(|u| u.split_once('?'))
        .map_or("", |(_, q)| q);
    // HAR's queryString holds the decoded pairs; the URL keeps them as sent.
    Value::Array(
        form_urlencoded::parse(query.as_bytes())
            .map(|(n, v)| json!({"name": n, "value": v}))
            .collect(),
    )
}

fn entry_value(e: &Exchange<'_>) -> Value {
    let (timings, time) = timings_value(e);
    let mut entry = Map::new();
    entry.insert("startedDateTime".into(), json!(e.started));
    entry.insert("time".into(), ms(Some(time)));
    entry.insert("request".into(), request_value(e));
    entry.insert("response".into(), response_value(e.response.as_ref()));
    entry.insert("cache".into(), json!({}));
    entry.insert("timings".into(), timings);
    if let Some(c) = &e.comment {
        entry.insert("comment".into(), json!(c));
    }
    if let Some((name, value)) = &e.custom {
        entry.insert(name.clone(), value.clone());
    }
    Value::Object(entry)
}

/// The entry's `request`: method, URL, headers, the query's decoded pairs and the body
/// (`postData`, saying when only its start was recorded).
fn request_value(e: &Exchange<'_>) -> Value {
    let mut request = Map::new();
    request.insert("method".into(), json!(e.method));
    request.insert("url".into(), json!(e.url));
    request.insert("httpVersion".into(), json!("HTTP/1.1"));
    request.insert("cookies".into(), json!([]));
    request.insert("headers".into(), header_list(e.headers));
    request.insert("queryString".into(), query_list(&e.url));
    request.insert("headersSize".into(), json!(-1));
    let body_size = e.body_size.unwrap_or(e.body.len());
    request.insert(
        "bodySize".into(),
        json!(
            if e.body.is_empty() && body_size == 0 && e.method.eq_ignore_ascii_case("GET") {
                0
            } else {
                body_size
            }
        ),
    );
    if !e.body.is_empty() || body_size > 0 {
        let mime = header_value(e.headers, "content-type").unwrap_or("");
        let mut post = Map::new();
        post.insert("mimeType".into(), json!(mime));
        post.insert("params".into(), json!([]));
        put_body_text(&mut post, e.body);
        if e.body.len() < body_size {
            post.insert(
                "comment".into(),
                json!(format!(
                    "only the first {} of the body's {body_size} bytes were recorded",
                    e.body.len()
                )),
            );
        }
        request.insert("postData".into(), Value::Object(post));
    }
    Value::Object(request)
}

/// The entry's `response`; status 0, as browsers write it, when no answer was received.
fn response_value(response: Option<&ExchangeResponse<'_>>) -> Value {
    match response {
        Some(r) => {
            let mime = header_value(r.headers, "content-type").unwrap_or("");
            let mut content = Map::new();
            let recorded = r.body.map_or(0, <[u8]>::len) as u64;
            content.insert("size".into(), json!(r.body_size.unwrap_or(recorded)));
            content.insert("mimeType".into(), json!(mime));
            if let Some(body) = r.body {
                put_body_text(&mut content, body);
                if r.body_size.is_some_and(|n| n > recorded) {
                    content.insert(
                        "comment".into(),
                        json!(format!("only the first {recorded} bytes were recorded")),
                    );
                }
            } else {
                content.insert("comment".into(), json!("the body was not recorded"));
            }
            json!({
                "status": r.status,
                "statusText": reason(r.status),
                "httpVersion": "HTTP/1.1",
                "cookies": [],
                "headers": header_list(r.headers),
                "content": Value::Object(content),
                "redirectURL": header_value(r.headers, "location").unwrap_or(""),
                "headersSize": -1,
                "bodySize": r.body_size.map_or(json!(-1), |n| json!(n)),
            })
        }
        // No answer (the request failed): status 0, as browsers write it.
        None => json!({
            "status": 0,
            "statusText": "",
            "httpVersion": "",
            "cookies": [],
            "headers": [],
            "content": {"size": 0, "mimeType": ""},
            "redirectURL": "",
            "headersSize": -1,
            "bodySize": -1,
            "comment": "no answer was received",
        }),
    }
}

/// The entry's `timings` and its whole `time`. `send`, `wait` and `receive` are required and may
/// not be -1; when the split is not known the whole time is counted as waiting (the HAR
/// specification's own suggestion for what cannot be told apart), and 0 when even that is
/// unknown.
fn timings_value(e: &Exchange<'_>) -> (Value, f64) {
    let t = e.timings.unwrap_or_default();
    let total = e.time_ms.filter(|t| t.is_finite() && *t >= 0.0);
    let (send, wait, receive) = match (t.send, t.wait, t.receive) {
        (None, None, None) => (Some(0.0), Some(total.unwrap_or(0.0)), Some(0.0)),
        (s, w, r) => (s.or(Some(0.0)), w.or(Some(0.0)), r.or(Some(0.0))),
    };
    let timings = json!({
        "blocked": ms(t.blocked),
        "dns": ms(t.dns),
        "connect": ms(t.connect),
        "ssl": ms(t.ssl),
        "send": ms(send),
        "wait": ms(wait),
        "receive": ms(receive),
    });
    let time = total.unwrap_or_else(|| {
        [t.blocked, t.dns, t.connect, send, wait, receive]
            .iter()
            .flatten()
            .filter(|v| **v > 0.0)
            .sum()
    });
    (timings, time)
}

/// The reason phrase of a status, for `statusText` (empty when not a common one).
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "",
    }
}

/// `Bearer ***` for an Authorization value (the scheme kept, the signature masked).
pub fn redact_authorization(value: &str) -> String {
    match value.split_once(' ') {
        Some((scheme, _)) => format!("{scheme} ***"),
        None => "***".to_string(),
    }
}

/// The headers with Authorization masked ([`redact_authorization`]) when `redact` is set.
pub fn headers_for_export(headers: &[(String, String)], redact: bool) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(n, v)| {
            if redact && n.eq_ignore_ascii_case("authorization") {
                (n.clone(), redact_authorization(v))
            } else {
                (n.clone(), v.clone())
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(urls: &[&str]) -> String {
        let exchanges: Vec<Exchange<'_>> = urls
            .iter()
            .map(|u| Exchange {
                started: "2026-11-22T10:00:00.000Z".into(),
                method: "POST",
                url: (*u).into(),
                body: b"[ 1 ]",
                ..Exchange::default()
            })
            .collect();
        to_har_string("0", exchanges)
    }

    #[test]
    fn query_string_holds_the_decoded_pairs() {
        let q = query_list("http://a/p?a=1&b=x%20y+z&&c&d==e&%E2%82%AC=%ff#f=g");
        assert_eq!(
            q,
            json!([
                {"name": "a", "value": "1"},
                {"name": "b", "value": "x y z"},
                {"name": "c", "value": ""},
                {"name": "d", "value": "=e"},
                {"name": "€", "value": "\u{FFFD}"},
            ])
        );
    }

    #[test]
    fn pages_join_into_one_document_with_every_entry_as_it_came() {
        let (one, two) = (page(&["http://a/1", "http://a/2"]), page(&["http://a/3"]));
        let (text, n) = join_pages("9.9", &[one.clone(), two]).unwrap();
        assert_eq!(n, 3);
        let har: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(har["log"]["creator"]["version"], "9.9");
        let urls: Vec<&str> = har["log"]["entries"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["request"]["url"].as_str().unwrap())
            .collect();
        assert_eq!(urls, ["http://a/1", "http://a/2", "http://a/3"]);
        // Each entry's bytes as the page had them.
        let first_entry = one.lines().nth(1).unwrap().trim_end_matches(',');
        assert!(text.contains(first_entry), "{text}");
        // No page, no entry: still a HAR document.
        let (empty, n) = join_pages::<String>("9.9", &[]).unwrap();
        assert_eq!(n, 0);
        assert!(
            serde_json::from_str::<Value>(&empty).unwrap()["log"]["entries"]
                .as_array()
                .unwrap()
                .is_empty()
        );
        let err = join_pages("9.9", &[page(&["http://a/1"]), "<html>".into()]).unwrap_err();
        assert!(
            err.starts_with("page 2 of the export is not a HAR document"),
            "{err}"
        );
    }
}
