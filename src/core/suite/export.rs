//! A request written out as a suite entry (`docs/test.md`, "Writing the first suite"): its
//! method, path, query, content type and body (or its event batch), and its answer as the
//! expectation, so nobody writes the first suite by hand. Pure: the caller reads the profile,
//! the history and the file, and writes where the user asked. Never a key: the account's REST
//! key is written as a reference only.

use serde_json::Value;

use super::{parse, SuiteError};
use crate::core::RequestSpec;

/// What an answer looked like: its status and body text.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub status: u16,
    pub body: String,
}

/// A request to write as a suite entry.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportRequest {
    pub name: String,
    /// Method, path, query, content type and body; for an event batch only the body is used.
    pub spec: RequestSpec,
    /// An event batch for the collector rather than a signed indexing request.
    pub events: bool,
    /// Its answer, when it has one: the expectation.
    pub answer: Option<Answer>,
}

/// A TOML string literal of `s` (escaped as TOML needs).
fn quoted(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// The `[account]` section of a new suite: the API key and prefix of the profile and its REST
/// key as the reference `rest_key` (never the key).
pub fn head(api_key: &str, header_prefix: &str, rest_key: &str) -> String {
    format!(
        "# A suite for `signscope test` (docs/test.md).\n\n[account]\napi_key = {}\nrest_key = {}\nheader_prefix = {}\n",
        quoted(api_key),
        quoted(rest_key),
        quoted(header_prefix)
    )
}

/// The `[[request]]` entry of `r`, with `[request.expect]` from its answer: the status, for an
/// indexing request the verdict and the answer's `code`, and each top-level member of a JSON
/// object answer (`equals` for a value that is the same on every send, `exists` for ids, times
/// and nested values).
pub fn entry(r: &ExportRequest) -> String {
    let mut out = format!("[[request]]\nname = {}\n", quoted(&r.name));
    let body = String::from_utf8_lossy(&r.spec.body);
    if r.events {
        out.push_str(&format!("events = {}\n", quoted(&body)));
    } else {
        let s = &r.spec;
        out.push_str(&format!(
            "method = {}\npath = {}\n",
            quoted(&s.method),
            quoted(&s.path)
        ));
        if !s.query.is_empty() {
            out.push_str(&format!("query = {}\n", quoted(&s.query)));
        }
        if s.content_type != crate::core::CONTENT_TYPE_JSON {
            out.push_str(&format!("content_type = {}\n", quoted(&s.content_type)));
        }
        out.push_str(&format!("body = {}\n", quoted(&body)));
    }
    if let Some(a) = &r.answer {
        out.push_str(&expectations(a, r.events));
    }
    out
}

fn expectations(a: &Answer, events: bool) -> String {
    let mut out = format!("[request.expect]\nstatus = {}\n", a.status);
    let json: Option<Value> = serde_json::from_str(&a.body).ok();
    let code = json
        .as_ref()
        .and_then(|j| j.get("code")?.as_str().map(str::to_string));
    if !events {
        let refused = code
            .as_deref()
            .is_some_and(crate::core::verify::is_refusal_code);
        let verdict = if refused { "rejected" } else { "accepted" };
        out.push_str(&format!("verdict = \"{verdict}\"\n"));
    }
    if let Some(c) = &code {
        out.push_str(&format!("code = {}\n", quoted(c)));
    }
    let members: Vec<String> = match &json {
        Some(Value::Object(m)) => m
            .iter()
            .filter(|(k, _)| k.as_str() != "code")
            .map(|(k, v)| member(k, v))
            .collect(),
        _ => Vec::new(),
    };
    if !members.is_empty() {
        out.push_str("json = [\n");
        for m in members {
            out.push_str(&format!("  {m},\n"));
        }
        out.push_str("]\n");
    }
    out
}

/// One `json` expectation for a top-level member.
fn member(key: &str, v: &Value) -> String {
    let pointer = quoted(&crate::core::json::pointer("", key));
    let changes = |s: &str| {
        let t = s.as_bytes();
        // A UUID, or a time: different on every send.
        (s.len() == 36 && s.chars().filter(|c| *c == '-').count() == 4)
            || (t.len() >= 19 && t[4] == b'-' && t[7] == b'-' && t[10] == b'T')
    };
    let exact = match v {
        Value::String(s) if !changes(s) => Some(quoted(s)),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    };
    match exact {
        Some(e) => format!("{{ pointer = {pointer}, equals = {e} }}"),
        None => format!("{{ pointer = {pointer}, exists = true }}"),
    }
}

/// The suite text with `entry` added: after `existing` (a suite file's text, which must stay a
/// suite), or after `head` for a new one. The result is parsed before it is returned, so what
/// is written is a suite `signscope test` runs.
pub fn add_entry(existing: Option<&str>, head: &str, entry: &str) -> Result<String, SuiteError> {
    let text = match existing {
        Some(t) => {
            // The file's own mistakes are named where they are, before anything is added.
            parse(t)?;
            let sep = if t.ends_with("\n\n") {
                ""
            } else if t.ends_with('\n') {
                "\n"
            } else {
                "\n\n"
            };
            format!("{t}{sep}{entry}")
        }
        None => format!("{head}\n{entry}"),
    };
    parse(&text)?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(body: &str, answer: Option<(u16, &str)>) -> ExportRequest {
        ExportRequest {
            name: "add \"one\"".to_string(),
            spec: RequestSpec {
                query: "a=1".to_string(),
                ..RequestSpec::default()
            }
            .with_body(bytes::Bytes::from(body.to_string())),
            events: false,
            answer: answer.map(|(status, body)| Answer {
                status,
                body: body.to_string(),
            }),
        }
    }

    #[test]
    fn an_entry_with_its_answer_parses_back_as_the_request_and_its_expectations() {
        let answer = r#"{"message": "Job submitted successfully.", "jobId": "0b0e6c2a-0d7b-4f3e-9a55-1f2f3a4b5c6d", "n": 2}"#;
        let e = entry(&request("[{\"id\": \"x\"}]\n", Some((200, answer))));
        let text = add_entry(None, &head("pub", "SVC", "env:SHOP_KEY"), &e).unwrap();
        let s = parse(&text).unwrap();
        let r = &s.requests[0];
        assert_eq!(s.account.rest_key, "env:SHOP_KEY");
        assert_eq!(r.name, "add \"one\"");
        assert_eq!(r.body.as_deref(), Some("[{\"id\": \"x\"}]\n"));
        assert_eq!(r.query.as_deref(), Some("a=1"));
        assert_eq!(r.expect.status, Some(200));
        assert_eq!(r.expect.verdict.as_deref(), Some("accepted"));
        let json: Vec<_> = r
            .expect
            .json
            .iter()
            .map(|j| (j.pointer.as_str(), j.equals.clone(), j.exists))
            .collect();
        assert!(json.contains(&("/jobId", None, Some(true))), "{text}");
        assert!(
            json.contains(&("/message", Some("Job submitted successfully.".into()), None)),
            "{text}"
        );
        assert!(json.contains(&("/n", Some(2.into()), None)), "{text}");
    }

    #[test]
    fn a_refused_answer_expects_the_rejection_and_an_entry_appends_to_a_suite() {
        let refused = r#"{"code": "SIGNATURE_MISMATCH", "message": "no"}"#;
        let e = entry(&request("[]", Some((401, refused))));
        let first = add_entry(
            None,
            &head("pub", "SVC", "demo"),
            &entry(&request("[]", None)),
        )
        .unwrap();
        let both = add_entry(Some(&first), "", &e).unwrap();
        let s = parse(&both).unwrap();
        assert_eq!(s.requests.len(), 2);
        assert_eq!(s.requests[1].expect.verdict.as_deref(), Some("rejected"));
        assert_eq!(
            s.requests[1].expect.code.as_deref(),
            Some("SIGNATURE_MISMATCH")
        );
        assert!(add_entry(Some("not = [a suite"), "", &e).is_err());
    }
}
