//! Judging one answer against a suite request's expectations (pure): every expectation is one
//! [`Check`], passed or failed with what was expected and what came.

use serde_json::Value;

use super::{Expect, JsonExpect};

/// What one request of a suite got back, gathered by the caller.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observed {
    /// The HTTP status; None when nothing came back.
    pub status: Option<u16>,
    /// Why nothing came back.
    pub error: Option<String>,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub duration_ms: f64,
    /// The answer's `code`.
    pub code: Option<String>,
    /// Whether the local verdict refused the signature.
    pub rejected: bool,
    /// The diagnosis sentence of a refused signature.
    pub diagnosis: Option<String>,
    /// Finding codes named by the diagnosis.
    pub findings: Vec<String>,
    /// The events recorded from this batch (collector requests).
    pub events: Vec<Value>,
}

/// One expectation and how it went.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Check {
    /// What was checked (`status`, `json /jobId equals`, ...).
    pub what: String,
    pub expected: String,
    pub actual: String,
    pub passed: bool,
}

impl Check {
    fn new(what: impl Into<String>, expected: String, actual: String, passed: bool) -> Check {
        Check {
            what: what.into(),
            expected,
            actual,
            passed,
        }
    }
}

fn shown(v: Option<&str>) -> String {
    v.map_or_else(|| "(none)".to_string(), str::to_string)
}

/// Every check of `expect` against `seen`, in the order of `docs/test.md`. A request whose
/// answer never came fails each check with the reason.
pub fn judge(expect: &Expect, seen: &Observed) -> Vec<Check> {
    let mut checks = Vec::new();
    if let Some(s) = expect.status {
        let actual = seen.status.map_or_else(
            || format!("no answer ({})", shown(seen.error.as_deref())),
            |a| a.to_string(),
        );
        checks.push(Check::new(
            "status",
            s.to_string(),
            actual,
            seen.status == Some(s),
        ));
    }
    if let Some(v) = &expect.verdict {
        let actual = if seen.rejected {
            "rejected"
        } else {
            "accepted"
        };
        let ok = seen.status.is_some() && actual == v;
        checks.push(Check::new("verdict", v.clone(), actual.to_string(), ok));
    }
    if let Some(c) = &expect.code {
        let ok = seen.code.as_deref() == Some(c.as_str());
        checks.push(Check::new(
            "code",
            c.clone(),
            shown(seen.code.as_deref()),
            ok,
        ));
    }
    if let Some(d) = &expect.diagnosis {
        let ok = seen.findings.iter().any(|f| f == d);
        let actual = if seen.findings.is_empty() {
            shown(seen.diagnosis.as_deref())
        } else {
            seen.findings.join(", ")
        };
        checks.push(Check::new("diagnosis", d.clone(), actual, ok));
    }
    if let Some(bound) = expect.duration_below_ms {
        let ok = seen.status.is_some() && seen.duration_ms < bound as f64;
        let actual = format!("{:.1} ms", seen.duration_ms);
        checks.push(Check::new(
            "duration",
            format!("below {bound} ms"),
            actual,
            ok,
        ));
    }
    for (name, want) in &expect.headers {
        let got = seen
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str());
        let ok = got == Some(want.as_str());
        checks.push(Check::new(
            format!("header {name}"),
            want.clone(),
            shown(got),
            ok,
        ));
    }
    if !expect.json.is_empty() {
        let body = serde_json::from_slice::<Value>(&seen.body).ok();
        checks.extend(
            expect
                .json
                .iter()
                .flat_map(|j| json_checks(j, body.as_ref())),
        );
    }
    checks.extend(
        expect
            .events
            .iter()
            .map(|want| event_check(want, &seen.events)),
    );
    checks
}

fn json_checks(j: &JsonExpect, body: Option<&Value>) -> Vec<Check> {
    let at = body.and_then(|b| b.pointer(&j.pointer));
    let actual = match (body, at) {
        (None, _) => "the body is not JSON".to_string(),
        (Some(_), None) => "(no such field)".to_string(),
        (Some(_), Some(v)) => v.to_string(),
    };
    let mut out = Vec::new();
    let what = |k: &str| format!("json {} {k}", j.pointer);
    if let Some(e) = j.exists {
        out.push(Check::new(
            what("exists"),
            e.to_string(),
            (at.is_some()).to_string(),
            at.is_some() == e,
        ));
    }
    if let Some(want) = &j.equals {
        out.push(Check::new(
            what("equals"),
            want.to_string(),
            actual.clone(),
            at == Some(want),
        ));
    }
    if let Some(re) = &j.matches {
        let text = at.map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string));
        // The pattern was checked when the suite was parsed.
        let ok = text
            .as_deref()
            .is_some_and(|t| regex::Regex::new(re).is_ok_and(|r| r.is_match(t)));
        out.push(Check::new(what("matches"), re.clone(), actual, ok));
    }
    out
}

fn event_check(want: &serde_json::Map<String, Value>, events: &[Value]) -> Check {
    let want = Value::Object(want.clone());
    let ok = events.iter().any(|e| contains(e, &want));
    let actual = match events.len() {
        0 => "no event recorded".to_string(),
        n => format!("{n} event(s), none containing it"),
    };
    Check::new(
        "event recorded",
        want.to_string(),
        if ok { "recorded".into() } else { actual },
        ok,
    )
}

/// Whether `have` contains `want`: equal scalars, every key of an object (recursively), every
/// element of an array found in it.
pub fn contains(have: &Value, want: &Value) -> bool {
    match (have, want) {
        (Value::Object(h), Value::Object(w)) => w
            .iter()
            .all(|(k, wv)| h.get(k).is_some_and(|hv| contains(hv, wv))),
        (Value::Array(h), Value::Array(w)) => {
            w.iter().all(|wv| h.iter().any(|hv| contains(hv, wv)))
        }
        _ => have == want,
    }
}

/// The value captured at `pointer` of a JSON body, as text (a string without its quotes).
pub fn capture(body: &[u8], pointer: &str) -> Option<String> {
    let v: Value = serde_json::from_slice(body).ok()?;
    let at = v.pointer(pointer)?;
    Some(at.as_str().map_or_else(|| at.to_string(), str::to_string))
}
