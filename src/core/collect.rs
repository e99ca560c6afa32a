//! Judging one request received by the analytics collector: what the local collector answers
//! and records (`docs/server.md` rules R6, R11), and what any other reader of a captured
//! collector request (a HAR check, the workbench) concludes from it. Pure: the request comes in
//! whole, nothing is read from anywhere else.
//!
//! - `POST /analytics/collect`: a JSON array of events, validated (`docs/events.md`); a
//!   multipart form there is named as such, with its `[object Object]` part (rule E22).
//! - The older endpoints (`n-search/search`, `productTracking`, the category trackers,
//!   `dataTracking`; rule E21): their fields are read from the query or the form and judged by
//!   what each endpoint documents (`older`).

use memchr::memmem;
use serde_json::{json, Map, Value};

mod views;
pub use views::{ViewMemory, MAX_CLIENTS, MAX_ID_BYTES, MAX_ITEMS, MAX_LIST_ITEMS};

use super::events::{
    codes, identity, problem_value, validate_bytes, IdNames, Identity, Level, Omitted, Report,
};
use super::received::ReceivedRequest;
use super::request::CONTENT_TYPE_JSON;
use super::visible::counted;

/// The collector's path.
pub const COLLECT_PATH: &str = "/analytics/collect";
/// The prefix of every analytics path.
pub const ANALYTICS_PREFIX: &str = "/analytics/";
/// The older endpoints still sent by the vendor's SDKs, under [`ANALYTICS_PREFIX`]
/// (`docs/events.md` rule E21).
pub const OLDER_ENDPOINTS: [&str; 5] = [
    "n-search/search",
    "productTracking",
    "categoryProductViewTracking",
    "categoryProductClickTracking",
    "dataTracking",
];
/// The field of the older endpoints that carries the public API key.
pub const OLDER_API_KEY_FIELD: &str = "klevu_apiKey";
/// The text JavaScript makes of an object put into a form: the SDK bug of rule E22.
pub const OBJECT_OBJECT: &str = "[object Object]";

/// Which analytics endpoint a path names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// `/analytics/collect`.
    Collect,
    /// One of [`OLDER_ENDPOINTS`].
    Older(&'static str),
}

impl Endpoint {
    /// The endpoint of a path (a trailing `/` names the same one), or `None`.
    pub fn of(path: &str) -> Option<Endpoint> {
        let rest = path.strip_prefix(ANALYTICS_PREFIX)?;
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        if rest == "collect" {
            return Some(Endpoint::Collect);
        }
        OLDER_ENDPOINTS
            .iter()
            .find(|e| **e == rest)
            .map(|e| Endpoint::Older(e))
    }
}

/// What the collector concludes from one request.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub endpoint: Endpoint,
    /// 200 when accepted, 400 otherwise.
    pub status: u16,
    /// The answer's JSON body.
    pub answer: Value,
    /// Every problem (errors and warnings), as serialised [`Problem`]s.
    pub problems: Vec<Value>,
    /// Events in the batch (0 when the body is not an array); 1 for an older endpoint.
    pub events: usize,
    /// Problems past the listing limit.
    pub omitted: Omitted,
    /// What the request carried, as JSON: the batch, a form's fields, or an older endpoint's
    /// fields (`None` when the body is not JSON and not a form).
    pub parsed: Option<Value>,
}

impl Judgement {
    pub fn accepted(&self) -> bool {
        self.status == 200
    }
}

/// Judge a request to an analytics path; `None` when the path names no endpoint.
pub fn judge(req: &ReceivedRequest) -> Option<Judgement> {
    Some(match Endpoint::of(&req.path)? {
        Endpoint::Collect => judge_collect(req),
        Endpoint::Older(name) => judge_older(req, name),
    })
}

/// A batch's judgement with the views its clients sent before (`docs/events.md` rule E25):
/// [`ViewMemory::judge`] on its events (`client` is the request's address, for an event that
/// names no session or IP), the answer made again when that changed its problems. The memory
/// is read and updated in the order requests are handed in.
pub fn judge_with_views(j: Judgement, views: &mut ViewMemory, client: &str) -> Judgement {
    let mut j = j;
    let changed = match j
        .parsed
        .as_ref()
        .filter(|_| j.endpoint == Endpoint::Collect)
    {
        Some(batch) => views.judge(batch, client, &mut j.problems, &mut j.omitted),
        None => false,
    };
    if !changed {
        return j;
    }
    let report = Report {
        problems: Vec::new(),
        events: j.events,
        omitted: j.omitted,
    };
    batch_judgement(j.problems, report, j.parsed)
}

fn content_type(req: &ReceivedRequest) -> Option<String> {
    req.header("content-type")
        .map(|v| String::from_utf8_lossy(v).into_owned())
}

/// `POST /analytics/collect` (the caller routes only that method here).
pub fn judge_collect(req: &ReceivedRequest) -> Judgement {
    let ct = content_type(req);
    if let Some(form) = multipart_fields(ct.as_deref(), &req.body) {
        return form_judgement(form);
    }
    let report = validate_bytes(&req.body);
    let mut problems: Vec<Value> = report
        .problems
        .iter()
        .map(|p| serde_json::to_value(p).unwrap_or(Value::Null))
        .collect();
    if ct.as_deref() != Some(CONTENT_TYPE_JSON) {
        problems.push(problem_value(
            "warning",
            "",
            "CONTENT_TYPE",
            ct.map(Value::from),
            "the Content-Type header should be application/json",
        ));
    }
    let parsed: Option<Value> = serde_json::from_slice(&req.body).ok();
    batch_judgement(problems, report, parsed)
}

fn is_error(p: &Value) -> bool {
    p.get("level").and_then(Value::as_str) == Some("error")
}

fn batch_judgement(problems: Vec<Value>, report: Report, parsed: Option<Value>) -> Judgement {
    let Report {
        events, omitted, ..
    } = report;
    let errors: Vec<&Value> = problems.iter().filter(|p| is_error(p)).collect();
    let ok = errors.is_empty() && omitted.errors == 0;
    let answer = if ok {
        let warnings: Vec<&Value> = problems.iter().filter(|p| !is_error(p)).collect();
        json!({"accepted": events, "rejected": 0, "warnings": warnings})
    } else {
        let bad_events = count_bad_events(&errors, &omitted.error_events, events);
        let message = if parsed.is_none() {
            match errors
                .first()
                .and_then(|p| p.get("message"))
                .and_then(Value::as_str)
            {
                // The validator's message already says "The body is not valid JSON: ...".
                Some(m) => m.to_string(),
                None => "The body is not valid JSON.".to_string(),
            }
        } else {
            let n = errors.len() + omitted.errors;
            let mut m = format!(
                "The batch was not accepted: {} in {bad_events} of {}.",
                counted(n, "problem"),
                counted(events, "event")
            );
            if !omitted.is_empty() {
                m.push_str(&format!(
                    " The first {} problems are listed; {} more ({}, {}) are counted in \"omitted\".",
                    problems.len(),
                    omitted.total(),
                    counted(omitted.errors, "error"),
                    counted(omitted.warnings, "warning"),
                ));
            }
            m
        };
        let mut answer = rejection(message, &problems, events);
        if !omitted.is_empty() {
            answer["omitted"] = json!({"errors": omitted.errors, "warnings": omitted.warnings});
        }
        answer
    };
    Judgement {
        endpoint: Endpoint::Collect,
        status: if ok { 200 } else { 400 },
        answer,
        problems,
        events,
        omitted,
        parsed,
    }
}

/// The 400 answer in the vendor's error shape, with the collector's counts and problems.
fn rejection(message: String, problems: &[Value], events: usize) -> Value {
    let debug: Vec<Value> = problems
        .iter()
        .map(|p| json!({"message": problem_line(p)}))
        .collect();
    json!({
        "status": 400,
        "code": "VALIDATION_ERROR",
        "message": message,
        "debug": debug,
        "accepted": 0,
        "rejected": events,
        "problems": problems,
    })
}

/// `path: CODE: message` for one problem, e.g. `[0].items[2].currency: FORMAT: ...`.
pub fn problem_line(p: &Value) -> String {
    let path = p.get("path").and_then(Value::as_str).unwrap_or("");
    let msg = p.get("message").and_then(Value::as_str).unwrap_or("");
    let code = p.get("code").and_then(Value::as_str).unwrap_or("");
    if path.is_empty() {
        format!("{code}: {msg}")
    } else {
        format!("{path}: {code}: {msg}")
    }
}

/// The event a problem belongs to, from its path (`[3].items[0].price` -> 3).
pub fn event_index(p: &Value) -> Option<usize> {
    super::events::event_of_path(p.get("path").and_then(Value::as_str)?)
}

/// Events with an error: listed ones, plus those whose errors were past the list's limit.
pub fn count_bad_events(errors: &[&Value], omitted_error_events: &[usize], events: usize) -> usize {
    let mut seen: std::collections::BTreeSet<usize> =
        omitted_error_events.iter().copied().collect();
    let mut whole = false;
    for e in errors {
        match event_index(e) {
            Some(i) => {
                seen.insert(i);
            }
            None => whole = true,
        }
    }
    if whole {
        events
    } else {
        seen.len()
    }
}

fn problem(level: Level, path: &str, code: &str, value: Option<Value>, message: String) -> Value {
    problem_value(level.as_str(), path, code, value, &message)
}

/// A multipart form posted where a JSON batch is expected: named, with its parts, and the
/// `[object Object]` part called the SDK bug it is (rule E22).
fn form_judgement(fields: Vec<(String, String)>) -> Judgement {
    let names: Vec<&str> = fields.iter().map(|(n, _)| n.as_str()).collect();
    let objects: Vec<&str> = fields
        .iter()
        .filter(|(_, v)| v == OBJECT_OBJECT)
        .map(|(n, _)| n.as_str())
        .collect();
    let mut message = format!(
        "The body is a multipart form (parts: {}), not a JSON array of events",
        names.join(", ")
    );
    if objects.is_empty() {
        message.push_str("; send the events as JSON with Content-Type: application/json.");
    } else {
        message.push_str(&format!(
            "; its part {} is the text \"{OBJECT_OBJECT}\", which is what JavaScript makes of an object put into a form: the event data was lost before it was sent. This is @klevu/core 5.x's buy (and its replay of a failed send); send the event as JSON (KlevuEvents.buy cannot: post it yourself until the SDK is fixed).",
            objects
                .iter()
                .map(|n| format!("\"{n}\""))
                .collect::<Vec<_>>()
                .join(" and ")
        ));
    }
    let value = Value::Object(
        fields
            .iter()
            .map(|(n, v)| (n.clone(), Value::from(v.as_str())))
            .collect::<Map<_, _>>(),
    );
    let problems = vec![problem(
        Level::Error,
        "",
        codes::MULTIPART_FORM,
        Some(value.clone()),
        message.clone(),
    )];
    Judgement {
        endpoint: Endpoint::Collect,
        status: 400,
        answer: rejection(message, &problems, 1),
        problems,
        events: 1,
        omitted: Omitted::default(),
        parsed: Some(value),
    }
}

// The older endpoints (`docs/events.md` rule E21): their fields read from the query and the
// form, judged by what the vendor documents for each endpoint (the same fields `@klevu/core`'s
// request types mark required), a field sent without its `klevu_` prefix named as misnamed, the
// three ids judged as on the collector (rule E18), and what the vendor's own SDKs leave out in
// a flow they support a warning, never a refusal.

/// The names the older endpoints give the three ids.
const IDS: IdNames = IdNames {
    id: "klevu_productId",
    group: "klevu_productGroupId",
    variant: "klevu_productVariantId",
};

/// The fields an older endpoint requires (`docs/events.md` rule E21), the API key first.
pub fn required_fields(name: &str) -> &'static [&'static str] {
    match name {
        "n-search/search" => &[
            "klevu_apiKey",
            "klevu_term",
            "klevu_totalResults",
            "klevu_typeOfQuery",
        ],
        "productTracking" => &[
            "klevu_apiKey",
            "klevu_keywords",
            "klevu_productId",
            "klevu_productGroupId",
            "klevu_productVariantId",
        ],
        "categoryProductViewTracking" => &[
            "klevu_apiKey",
            "klevu_categoryName",
            "klevu_categoryPath",
            "klevu_productIds",
        ],
        "categoryProductClickTracking" => &[
            "klevu_apiKey",
            "klevu_categoryName",
            "klevu_categoryPath",
            "klevu_productId",
            "klevu_productGroupId",
            "klevu_productVariantId",
        ],
        _ => &["klevu_apiKey"],
    }
}

/// Why a missing required field is only a warning: a flow of the vendor's own SDK that sends
/// the request without it (checked in each `@klevu/core` version's code).
fn sdk_omits(name: &str, field: &str, fields: &Map<String, Value>) -> Option<&'static str> {
    let kind = fields.get("klevu_type").and_then(Value::as_str);
    (name == "productTracking" && field == "klevu_keywords" && kind == Some("checkout")).then_some(
        "@klevu/core 1.x-3.x's checkout (KlevuEvents.buy, klevu_type=checkout) sends none: a purchase has no search term",
    )
}

/// An older endpoint's request: its fields from the query and the body (multipart or
/// URL-encoded form), recorded whatever they are, and judged.
fn judge_older(req: &ReceivedRequest, name: &'static str) -> Judgement {
    let fields = older_fields(req);
    let mut map = Map::new();
    for (k, v) in &fields {
        // A repeated field keeps its first value (the record's `fields` shows them all).
        map.entry(k.clone())
            .or_insert_with(|| Value::from(v.as_str()));
    }
    let problems = older_problems(name, &map);
    let errors: Vec<&str> = problems
        .iter()
        .filter(|p| p.get("level").and_then(Value::as_str) == Some("error"))
        .filter_map(|p| p.get("message").and_then(Value::as_str))
        .collect();
    let (status, answer) = if errors.is_empty() {
        let key = map.get(OLDER_API_KEY_FIELD).cloned().unwrap_or(Value::Null);
        let mut answer =
            json!({"recorded": true, "endpoint": name, "apikey": key, "fields": fields.len()});
        if !problems.is_empty() {
            answer["warnings"] = Value::from(problems.clone());
        }
        (200, answer)
    } else {
        let message = match errors.as_slice() {
            [one] => (*one).to_string(),
            many => format!(
                "The request to /analytics/{name} was not accepted ({}): {}",
                counted(many.len(), "problem"),
                many.join(" ")
            ),
        };
        (400, rejection(message, &problems, 1))
    };
    let parsed = json!({
        "endpoint": name,
        "method": req.method,
        "fields": Value::Object(map),
    });
    Judgement {
        endpoint: Endpoint::Older(name),
        status,
        answer,
        problems,
        events: 1,
        omitted: Omitted::default(),
        parsed: Some(parsed),
    }
}

/// The fields of the query, then of a multipart or URL-encoded form body, in order.
fn older_fields(req: &ReceivedRequest) -> Vec<(String, String)> {
    let mut fields: Vec<(String, String)> = form_urlencoded::parse(req.query.as_bytes())
        .into_owned()
        .collect();
    let ct = content_type(req);
    if let Some(form) = multipart_fields(ct.as_deref(), &req.body) {
        fields.extend(form);
    } else if ct
        .as_deref()
        .is_some_and(|c| c.starts_with("application/x-www-form-urlencoded"))
    {
        fields.extend(form_urlencoded::parse(&req.body).into_owned());
    }
    fields
}

/// Every problem of an older endpoint's fields: each required field missing, empty or sent
/// without its prefix, then the three ids' identity.
fn older_problems(name: &str, fields: &Map<String, Value>) -> Vec<Value> {
    let required = required_fields(name);
    let mut problems: Vec<Value> = required
        .iter()
        .filter_map(|field| required_problem(name, field, fields))
        .collect();
    let text = |f: &str| {
        fields
            .get(f)
            .and_then(Value::as_str)
            .filter(|v| !v.trim().is_empty())
    };
    if let (Some(id), Some(g), Some(v)) = (text(IDS.id), text(IDS.group), text(IDS.variant)) {
        let verdict = identity(id, g, v);
        if let Some(message) = verdict.message(IDS, id, g, v) {
            problems.push(match verdict {
                Identity::LikelyVariant(_) => problem(
                    Level::Warning,
                    IDS.variant,
                    codes::VARIANT_ID,
                    Some(Value::from(v)),
                    message,
                ),
                _ => problem(
                    Level::Error,
                    IDS.id,
                    codes::MISMATCH,
                    Some(Value::from(id)),
                    message,
                ),
            });
        }
    }
    problems
}

/// What is wrong with one required field, if anything.
fn required_problem(name: &str, field: &str, fields: &Map<String, Value>) -> Option<Value> {
    let value = fields.get(field).and_then(Value::as_str);
    if let Some(v) = value {
        return v.trim().is_empty().then(|| {
            problem(
                Level::Error,
                field,
                codes::EMPTY,
                Some(Value::from(v)),
                format!("{field} is empty: /analytics/{name} needs its value."),
            )
        });
    }
    // The same field without its prefix (`apiKey`, `term`), in any case.
    let bare = field.strip_prefix("klevu_").unwrap_or(field);
    if let Some((sent, v)) = fields.iter().find(|(k, _)| k.eq_ignore_ascii_case(bare)) {
        return Some(problem(
            Level::Error,
            sent,
            codes::MISNAMED,
            Some(v.clone()),
            format!("{sent} is misnamed: /analytics/{name} reads this field only as {field} (with its klevu_ prefix); send it as {field}."),
        ));
    }
    if let Some(why) = sdk_omits(name, field, fields) {
        return Some(problem(
            Level::Warning,
            field,
            codes::RECOMMENDED,
            None,
            format!("{field} is missing, which /analytics/{name} documents as required; accepted because {why}."),
        ));
    }
    let message = if field == OLDER_API_KEY_FIELD {
        format!("{field} is missing: every request to /analytics/{name} carries the account's public API key (in the query, or as a form field when posted).")
    } else {
        format!(
            "{field} is missing: /analytics/{name} requires {} (in the query, or as form fields when posted).",
            required_fields(name).join(", ")
        )
    };
    Some(problem(Level::Error, field, codes::REQUIRED, None, message))
}

/// The fields of a `multipart/form-data` body, in order, when it is one: named by its
/// Content-Type, or (without one, as a beacon may be relayed) recognised by its first line.
/// Values are text (lossy UTF-8), each cut at 4 KiB. `None` when the body is not such a form.
pub fn multipart_fields(content_type: Option<&str>, body: &[u8]) -> Option<Vec<(String, String)>> {
    let declared = content_type
        .filter(|c| {
            c.get(..19)
                .is_some_and(|p| p.eq_ignore_ascii_case("multipart/form-data"))
        })
        .and_then(|c| {
            c.split(';').find_map(|p| {
                let (k, v) = p.trim().split_once('=')?;
                k.eq_ignore_ascii_case("boundary")
                    .then(|| v.trim_matches('"').to_owned())
            })
        });
    let boundary = match declared {
        Some(b) => b,
        None => {
            // `--BOUNDARY\r\n` and a Content-Disposition right after it.
            let first = body.split(|&b| b == b'\n').next()?;
            let first = first.strip_suffix(b"\r").unwrap_or(first);
            let b = first.strip_prefix(b"--")?;
            if b.is_empty()
                || b.len() > 200
                || !body
                    .windows(20)
                    .any(|w| w.eq_ignore_ascii_case(b"content-disposition:"))
            {
                return None;
            }
            String::from_utf8(b.to_vec()).ok()?
        }
    };
    let delimiter = format!("--{boundary}");
    let mut fields = Vec::new();
    let mut parts = split(body, delimiter.as_bytes()).into_iter();
    parts.next()?; // the preamble
    for part in parts {
        if part.starts_with(b"--") {
            break; // the closing delimiter
        }
        let part = part.strip_prefix(b"\r\n").unwrap_or(part);
        let part = part.strip_suffix(b"\r\n").unwrap_or(part);
        let (head, value) = match memmem::find(part, b"\r\n\r\n") {
            Some(at) => (&part[..at], &part[at + 4..]),
            None => (part, &b""[..]),
        };
        let head = String::from_utf8_lossy(head);
        let name = head
            .lines()
            .find(|l| {
                l.get(..20)
                    .is_some_and(|p| p.eq_ignore_ascii_case("content-disposition:"))
            })
            .and_then(|l| {
                l.split(';').find_map(|p| {
                    let (k, v) = p.trim().split_once('=')?;
                    (k == "name").then(|| v.trim_matches('"').to_owned())
                })
            })
            .unwrap_or_default();
        let value = &value[..value.len().min(4096)];
        fields.push((name, String::from_utf8_lossy(value).into_owned()));
    }
    (!fields.is_empty()).then_some(fields)
}

fn split<'a>(mut hay: &'a [u8], delim: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    while let Some(at) = memmem::find(hay, delim) {
        out.push(&hay[..at]);
        hay = &hay[at + delim.len()..];
    }
    out.push(hay);
    out
}

#[cfg(test)]
mod tests;
