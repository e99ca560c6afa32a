//! A response as the request view shows it, built off the draw path: the raw and the
//! pretty-printed body, and what an error body says (code, message, job id, and on a signature
//! mismatch the server's canonical text next to ours, `docs/server.md` rule R5).

use std::sync::Arc;

use crate::engine::ServerAnswer;
use crate::tui::model::{AnswerProblems, FormattedBody, MismatchView, ResponseView};

/// Responses up to this size are formatted before they are shown; larger ones are shown raw
/// first and formatted on a blocking thread.
pub const FORMAT_INLINE_LIMIT: usize = 256 * 1024;

/// Pretty-print a JSON body into lines (None when it is not JSON).
pub fn format_json(body: &[u8]) -> Option<FormattedBody> {
    // Transcode token by token: no `Value` tree is built (6 MB of JSON would be hundreds of
    // thousands of small allocations). Trailing data after the value makes it "not JSON".
    let mut de = serde_json::Deserializer::from_slice(body);
    let mut out = Vec::with_capacity(body.len() * 2);
    let mut ser = serde_json::Serializer::pretty(&mut out);
    serde_transcode::transcode(&mut de, &mut ser).ok()?;
    de.end().ok()?;
    let text = String::from_utf8(out).ok()?;
    Some(FormattedBody {
        lines: text.lines().map(str::to_string).collect(),
        json: true,
    })
}

/// Build the view of a response: raw lines, formatted lines (when `format_now`), and what the
/// error body says (code, message, job id, and the server's canonical text on a mismatch), from
/// the server's answer already parsed (the engine's exchange carries it).
#[allow(clippy::too_many_arguments)] // the parts of one response, each used once
pub fn response_view(
    id: u64,
    status: u16,
    headers: Vec<(String, String)>,
    body: &[u8],
    elapsed_ms: f64,
    format_now: bool,
    answer: ServerAnswer,
    our_canonical: Vec<String>,
) -> ResponseView {
    let text = String::from_utf8_lossy(body);
    let looks_json = matches!(text.trim_start().chars().next(), Some('{') | Some('['));
    let raw = Arc::new(FormattedBody {
        lines: text.lines().map(str::to_string).collect(),
        json: looks_json,
    });
    let mut view = ResponseView {
        id,
        status,
        elapsed_ms,
        headers,
        body_len: body.len(),
        raw,
        ..Default::default()
    };
    if format_now && looks_json {
        view.formatted = format_json(body).map(Arc::new);
    }
    // The answer is read by the engine's one parser (`docs/server.md` rule R5); the view only
    // adds our own canonical lines next to the server's.
    view.job_id = answer.job_id;
    view.code = answer.code;
    view.message = answer.message;
    if !answer.problems.is_empty() || answer.more_problems > 0 {
        view.problems = Some(Arc::new(AnswerProblems {
            lines: answer.problems,
            more: answer.more_problems,
        }));
    }
    view.mismatch = answer.mismatch.map(|m| MismatchView {
        theirs: m.canonical_lines(),
        ours: our_canonical,
        diagnosis: m.summary(),
    });
    view
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_json_pretty_prints_like_serde_json_and_refuses_what_is_not_json() {
        let body = br#"{"b":[1,2.5,{"c":null}],"a":"x\u00e9","n":-3,"t":true,"e":{},"l":[]}"#;
        let v: serde_json::Value = serde_json::from_slice(body).unwrap();
        let want = serde_json::to_string_pretty(&v).unwrap();
        let got = format_json(body).unwrap();
        assert_eq!(got.lines.join("\n"), want);
        assert!(got.json);
        assert_eq!(format_json(b"[1] [2]"), None, "trailing data");
        assert_eq!(format_json(b"{\"a\":"), None, "truncated");
        assert_eq!(format_json(b""), None);
    }

    #[test]
    fn mismatch_debug_of_the_local_server_becomes_a_diff() {
        let body = serde_json::json!({
            "status": 401, "code": "SIGNATURE_MISMATCH", "message": "The signature does not match.",
            "debug": [
                {"message": "canonical: PUT\\n/v2/batch\\na=1\\nX-SVC-TIMESTAMP=t\\n[]"},
                {"message": "provided signature: abc"},
                {"message": "diagnosis: the client put a '?' before the query"},
                {"message": "finding QUERY_QUESTION_MARK: a '?' was signed"}
            ]
        });
        let bytes = serde_json::to_vec(&body).unwrap();
        let ours =
            crate::core::visible::visible_lines(b"PUT\n/v2/batch\n?a=1\nX-SVC-TIMESTAMP=t\n[]");
        let v = response_view(
            3,
            401,
            vec![],
            &bytes,
            1.0,
            true,
            ServerAnswer::parse(&bytes),
            ours,
        );
        assert_eq!(v.code.as_deref(), Some("SIGNATURE_MISMATCH"));
        let m = v.mismatch.expect("a diff");
        assert_eq!(
            m.theirs,
            [
                "PUT\\n",
                "/v2/batch\\n",
                "a=1\\n",
                "X-SVC-TIMESTAMP=t\\n",
                "[]"
            ]
        );
        assert_eq!(m.ours[2], "?a=1\\n");
        let d = m.diagnosis.unwrap();
        assert!(
            d.starts_with("the client put a '?'") && d.contains("QUERY_QUESTION_MARK"),
            "{d}"
        );
    }

    #[test]
    fn accepted_batch_shows_the_job_id_and_big_bodies_wait_for_formatting() {
        let body = br#"{"message":"Job submitted successfully.","jobId":"j-1"}"#;
        let v = response_view(
            1,
            200,
            vec![],
            body,
            1.0,
            true,
            ServerAnswer::parse(body),
            vec![],
        );
        assert_eq!(v.job_id.as_deref(), Some("j-1"));
        assert!(
            v.formatted.as_ref().unwrap().lines.len() > 1,
            "pretty-printed"
        );
        let v = response_view(
            1,
            200,
            vec![],
            body,
            1.0,
            false,
            ServerAnswer::parse(body),
            vec![],
        );
        assert!(
            v.formatted.is_none() && v.raw.json,
            "raw first, formatting later"
        );
        assert_eq!(format_json(b"not json"), None);
    }
}
