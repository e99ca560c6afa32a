//! Reading a pasted capture (raw HTTP or a curl command line) and verifying it with one key:
//! the verdict and the diagnosis (`docs/verification.md`, `docs/diagnosis.md`). Pure: the time
//! is an argument.

use chrono::Utc;

use crate::core::RequestSpec;
use crate::tui::model::EditorRequest;

/// Read a pasted capture: a curl command line or raw HTTP.
pub fn parse_capture(text: &str) -> Result<crate::core::verify::ReceivedRequest, String> {
    parse_capture_with(text, None)
}

fn is_curl(t: &str) -> bool {
    t.starts_with("curl ") || t.starts_with("curl\t")
}

/// The file a pasted curl command reads its body from (`-d @FILE`, `--data-binary @FILE`,
/// `-T FILE`; `-` is stdin), if it is one.
pub fn curl_body_file(text: &str) -> Option<String> {
    let t = text.trim_start();
    if !is_curl(t) {
        return None;
    }
    crate::core::curl::parse_curl_command(t).ok()?.body_file
}

/// Read a pasted capture; a curl command that reads its body from a file gets `body_file`
/// (the file's bytes), read as curl reads it (`docs/verification.md` rule V10).
pub fn parse_capture_with(
    text: &str,
    body_file: Option<&[u8]>,
) -> Result<crate::core::verify::ReceivedRequest, String> {
    let t = text.trim_start();
    if t.is_empty() {
        return Err("paste a raw HTTP request or a curl command first".into());
    }
    if is_curl(t) {
        let c = crate::core::curl::parse_curl_command(t)
            .map_err(|e| format!("could not read the curl command: {e}"))?;
        let mut req = c.request;
        match (c.body_file, body_file) {
            (Some(_), Some(bytes)) => {
                req.body = c.body_file_read.apply(bytes.to_vec()).into();
            }
            (Some(f), None) => {
                return Err(format!(
                    "could not read the curl command: {}",
                    crate::core::curl::ParseError::BodyFromFile(f)
                ))
            }
            (None, _) => {}
        }
        Ok(req)
    } else {
        crate::core::http_text::parse_raw_request(t.as_bytes())
            .map_err(|e| format!("could not read the raw HTTP request: {e}"))
    }
}

/// The prefix a capture is read with: its own headers' (`docs/verification.md` rule V11), else
/// `fallback` (the open profile's).
fn capture_prefix(req: &crate::core::verify::ReceivedRequest, fallback: &str) -> String {
    crate::core::verify::request_prefix(req).unwrap_or_else(|| fallback.to_ascii_uppercase())
}

/// The request (and timestamp) of a captured request; no base URL (the editor keeps its own).
/// Read with the capture's own header prefix; `prefix` (the profile's) when it has none.
pub fn capture_fields(
    req: &crate::core::verify::ReceivedRequest,
    prefix: &str,
) -> (EditorRequest, String) {
    let prefix = &capture_prefix(req, prefix);
    let names = crate::core::HeaderNames::for_prefix(prefix);
    let spec = RequestSpec {
        method: req.method.clone(),
        path: req.path.clone(),
        query: req.query.clone(),
        header_prefix: prefix.to_string(),
        api_key: req.header_text(&names.api_key),
        content_type: req.header_text("Content-Type"),
        auth_algo: req.header_text(&names.auth_algo),
        body: bytes::Bytes::copy_from_slice(&req.body),
    };
    let request = EditorRequest {
        url: String::new(),
        spec,
    };
    (request, req.header_text(&names.timestamp))
}

/// The time a capture is judged at: `now`, or (its own time, the Diagnose view's Alt-I) the
/// instant of its timestamp header, as `verify --now` judges a capture; with the line that
/// says which, when it is not now.
pub fn judged_at(
    text: &str,
    body_file: Option<&[u8]>,
    prefix: &str,
    own_time: bool,
    now: chrono::DateTime<Utc>,
) -> (chrono::DateTime<Utc>, Option<String>) {
    if !own_time {
        return (now, None);
    }
    let ts = parse_capture_with(text, body_file)
        .ok()
        .map(|req| capture_fields(&req, prefix).1)
        .unwrap_or_default();
    match crate::core::time::parse_timestamp(&ts) {
        Some(p) => (
            p.time,
            Some(format!(
                "Judged at the capture's own time, {ts} (its timestamp header), as verify --now does."
            )),
        ),
        None => (
            now,
            Some("The capture has no readable timestamp header: judged at the current time.".into()),
        ),
    }
}

/// Verify a capture with one key and explain the verdict: (accepted?, report lines).
pub fn diagnose_capture(
    text: &str,
    key: &crate::core::Secret,
    prefix: &str,
    now: chrono::DateTime<Utc>,
) -> (bool, Vec<String>) {
    diagnose_capture_with(text, None, None, key, prefix, now)
}

/// [`diagnose_capture`] of a curl command whose body file was loaded (`body_file`), with the
/// client's own signing text when pasted (`client_text`, compared byte by byte with the
/// expected one when no known mistake explains a mismatch, as `verify --client-text` does).
pub fn diagnose_capture_with(
    text: &str,
    body_file: Option<&[u8]>,
    client_text: Option<&[u8]>,
    key: &crate::core::Secret,
    prefix: &str,
    now: chrono::DateTime<Utc>,
) -> (bool, Vec<String>) {
    use crate::core::diagnose::DiagnoseOptions;
    use crate::core::verify::{verify_all, DiagnosisPlan, SingleKey, VerifyOptions};
    let req = match parse_capture_with(text, body_file) {
        Ok(r) => r,
        Err(e) => return (false, vec![e]),
    };
    // Verified as `verify` does: with the prefix of the capture's own headers.
    let prefix = &capture_prefix(&req, prefix);
    if key.is_empty() {
        return (
            false,
            // Run on the workbench's thread (the effect performer), where the keymap is.
            vec![format!(
                "the REST key is empty: set it in the request view or pick the demo key ({})",
                super::keys::KEYS.label_of(super::keys::Action::ToggleKey)
            )],
        );
    }
    let keys = SingleKey {
        api_key: None,
        secret: key.clone(),
    };
    let opts = VerifyOptions {
        header_prefix: prefix.to_string(),
        ..VerifyOptions::default()
    };
    // Every check, as `signscope verify` runs them: the verdict and each other failing check
    // are listed in the verifier's order, in the lines the CLI prints (`verdict_lines`).
    // The file as written is what a client may have signed, when curl changed it on reading
    // (`-d @file` drops its CR and LF bytes; docs/diagnosis.md D8).
    let curl_file = body_file
        .filter(|f| *f != &req.body[..])
        .map(<[u8]>::to_vec);
    let plan = DiagnosisPlan::Run(DiagnoseOptions {
        client_text: client_text.map(<[u8]>::to_vec),
        curl_file,
        ..DiagnoseOptions::default()
    });
    let checked = verify_all(&req, &keys, &opts, now, &plan);
    let verdict = checked.verdict_lines();
    let Some(rej) = checked.failures.first() else {
        return (true, verdict);
    };
    let diagnosis = match rej.mismatch().or_else(|| checked.mismatch()) {
        Some(m) => Some(m.diagnosis.clone()),
        None => crate::core::diagnose::provided_signature(&req)
            .map(|sig| crate::core::diagnose::diagnose(&req, prefix, key, &sig))
            .filter(|d| !d.signature_matches()),
    };
    // The conclusion first (one sentence), then the verdict and the other failing checks,
    // then the details with the expected text labelled line by line.
    let conclusion = match &diagnosis {
        Some(d) if rej.mismatch().is_some() => d.summary(),
        _ => rej.to_string(),
    };
    let mut lines = vec![format!("Conclusion: {conclusion}")];
    // The verdict's line ends with the same sentence (as `verify` prints it, where there is no
    // conclusion line): here it would be said twice in a few rows, so it points up instead.
    lines.extend(
        verdict
            .into_iter()
            .map(|l| match l.strip_suffix(conclusion.as_str()) {
                Some(head) if !conclusion.is_empty() => {
                    format!(
                        "{} (the conclusion above)",
                        head.trim_end_matches([':', ' '])
                    )
                }
                _ => l,
            }),
    );
    if let Some(d) = diagnosis {
        lines.push(String::new());
        if rej.mismatch().is_none() {
            lines.push(format!("signature: {}", d.summary()));
        }
        lines.extend(d.details_labelled().lines().map(str::to_string));
    }
    (false, lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::time::format_timestamp;

    #[test]
    fn diagnose_capture_explains_a_mismatch_and_accepts_a_good_request() {
        use crate::core::{sign, Secret, SignableRequest};
        let key = Secret::new("demo-rest-key-0123456789");
        let now = chrono::Utc::now();
        let ts = format_timestamp(now);
        let req = SignableRequest::new("PUT", "/v2/batch", "a=1", &ts, "pk", b"[]");
        let signed = sign(&req, &key).unwrap();
        let raw = crate::core::http_text::to_raw_request(&req, &signed, "127.0.0.1");
        let text = String::from_utf8(raw).unwrap();
        let (ok, lines) = diagnose_capture(&text, &key, "SVC", now);
        assert!(ok, "{lines:?}");
        // Sign "?a=1" instead: the classic mistake.
        let bad = SignableRequest::new("PUT", "/v2/batch", "?a=1", &ts, "pk", b"[]");
        let bad_sig = sign(&bad, &key).unwrap().signature().to_string();
        let tampered = text.replace(signed.signature(), &bad_sig);
        let (ok, lines) = diagnose_capture(&tampered, &key, "SVC", now);
        assert!(!ok);
        // The conclusion first, in words; the verdict apart; the expected text labelled.
        assert!(
            lines[0].starts_with("Conclusion: the client") && lines[0].contains('?'),
            "{lines:?}"
        );
        assert!(
            lines[1].starts_with("rejected (401 SIGNATURE_MISMATCH)"),
            "{lines:?}"
        );
        // The conclusion is said once; the verdict's line points to it.
        let conclusion = lines[0].trim_start_matches("Conclusion: ");
        assert_eq!(
            lines.iter().filter(|l| l.contains(conclusion)).count(),
            1,
            "{lines:#?}"
        );
        assert!(lines[1].ends_with("(the conclusion above)"), "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.trim_start().starts_with("QUERY") && l.ends_with("a=1\\n")),
            "{lines:?}"
        );
        // Loading it into the editor keeps the captured timestamp.
        let parsed = parse_capture(&text).unwrap();
        let (fields, t) = capture_fields(&parsed, "SVC");
        assert_eq!(
            (fields.spec.query.as_str(), t.as_str()),
            ("a=1", ts.as_str())
        );
        assert!(parse_capture("  ").is_err());
    }
}
