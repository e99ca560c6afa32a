//! The indexing API: any method under `/v2/`, verified with [`crate::core::verify::verify`].
//!
//! Answers (`docs/server.md` rules R2-R5):
//! - a refused signature: the vendor's error shape with the verifier's code and status;
//!   for `SIGNATURE_MISMATCH`, `debug` holds, in order, `canonical: <the server's signing text,
//!   escaped; a body over 64 KiB as its first and last 4 KiB and how long it is>`, `provided signature: <token>`, `diagnosis: <one sentence>`, then one
//!   `finding <CODE>: <explanation>` per recognised client mistake. Never a key, never the
//!   expected signature (that would turn the server into a signing oracle);
//! - a verified request: the operation's answer ([`super::operations`]: batch, batch delete,
//!   attributes), e.g. `PUT /v2/batch` answers `200 {"message": "Job submitted successfully.",
//!   "jobId": "..."}` (plus `warnings` when the verifier had remarks);
//! - an operation that takes JSON, body not JSON: `400 VALIDATION_ERROR` naming line and column;
//! - any other verified request: `404 NOT_FOUND` saying the signature was valid and the
//!   operation is not emulated;
//! - with `accept_forms` (`serve --accept-form php-sdk`), a signature in such a form is accepted
//!   with a warning naming the form (docs/signing.md);
//! - a body over the limit: `413 PAYLOAD_TOO_LARGE`; a body too slow: `408 REQUEST_TIMEOUT`.
//!
//! Every request, whatever its fate, is recorded in the inspection store.

use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use bytes::Bytes;
use chrono::{DateTime, Utc};
use serde_json::json;

use crate::core::diagnose::{DiagnoseOptions, SERVER_CLOCK_UNITS};
use std::collections::BTreeSet;

use crate::core::events::{check_json, json_error_reason};
use crate::core::indexing_body::{judge_bytes, shown_path, BodyKind, Judgement, Level};
use crate::core::time::format_timestamp;
use crate::core::verify::{
    prefix_of_names, request_prefix, verify_all, Accepted, Checked, DiagnosisPlan, ReceivedRequest,
    Rejection, VerifyOptions,
};
use crate::core::HeaderNames;

use super::body::{admit_body, BodyError};
use super::error::ApiError;
use super::operations::{self, Operation};
use super::store::{preview, RequestRecord};
use super::stream;
use super::AppState;
use crate::core::traffic::{BodySeen, Verdict};

/// Bodies at least this large are verified and JSON-checked on the blocking pool, so that a slow
/// hash (or a diagnosis that re-hashes several variants) or parse never stalls other connections.
const BLOCKING_THRESHOLD: usize = 256 * 1024;

/// Longest header value kept for inspection (bytes).
const MAX_STORED_HEADER: usize = 1024;

/// At most `max` bytes of `text`, cut at a character boundary, marked with `…` when cut.
fn cap(text: &str, max: usize) -> String {
    match super::page::cut(text, max) {
        (kept, true) => format!("{kept}…"),
        (kept, false) => kept.to_string(),
    }
}

/// Handler for every method and path under `/v2/`.
pub async fn handle(State(st): State<AppState>, req: Request) -> Response {
    serve(st, req, true).await
}

/// `PUT /_bench/unverified`: the same work as `/v2/batch` (read, record, JSON check, answer)
/// without the signature check, to make verification's cost visible in benchmarks.
pub async fn unverified(State(st): State<AppState>, req: Request) -> Response {
    serve(st, req, false).await
}

/// What the request was, for the record.
struct Seen {
    headers: Vec<(String, String)>,
    method: String,
    path: String,
    query: String,
    api_key: Option<String>,
    /// What is wrong with its body, once judged (`docs/indexing-bodies.md`).
    body_problems: Option<BodySeen>,
}

async fn serve(st: AppState, req: Request, check_signature: bool) -> Response {
    let (parts, body) = req.into_parts();
    let seen = seen_of(&st, &parts);
    tracing::trace!(
        method = %seen.method,
        path = %seen.path,
        query_len = seen.query.len(),
        headers = ?seen.headers.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        "indexing request received"
    );
    // Bounded memory: a permit before taking in a body (released when answered).
    let (_permit, read) = admit_body(&st, &parts, body).await;
    let body = match read {
        Ok(b) => b,
        Err(e) => {
            let err = e.to_api_error(st.config.max_body);
            let verdict = match e {
                BodyError::Aborted(_) => Verdict::Aborted,
                _ => Verdict::Rejected,
            };
            let outcome = err_outcome(&err);
            let answer = err.into_response();
            return record(&st, seen, verdict, outcome, Vec::new(), &[], None, answer);
        }
    };

    let received = check_signature.then(|| ReceivedRequest {
        method: seen.method.clone(),
        path: seen.path.clone(),
        query: seen.query.clone(),
        headers: header_list(&parts.headers),
        body: body.clone(),
    });
    // The unverified bench route does what the batch route does.
    let (op, kind) = if check_signature {
        (
            Operation::of(&seen.method, &seen.path),
            BodyKind::of(&seen.method, &seen.path),
        )
    } else {
        (Operation::Batch, Some(BodyKind::Records))
    };
    let takes = Takes {
        json: op.takes_json(),
        kind,
    };
    let now = st.config.now();
    match decide_off_thread(&st, received, body.clone(), takes, now).await {
        Err(rejection) => refused_signature(&st, seen, &rejection, &body, now),
        Ok(verified) => answer_verified(&st, seen, &op, &body, verified),
    }
}

/// What the request was, read from its head: headers capped for inspection, and the API key
/// read with the request's own prefix (an account may answer to several, rule R12).
fn seen_of(st: &AppState, parts: &axum::http::request::Parts) -> Seen {
    Seen {
        headers: parts
            .headers
            .iter()
            .map(|(n, v)| {
                let value = crate::core::visible::utf8_or_escaped(v.as_bytes());
                (n.as_str().to_string(), cap(&value, MAX_STORED_HEADER))
            })
            .collect(),
        method: parts.method.as_str().to_string(),
        path: parts.uri.path().to_string(),
        query: parts.uri.query().unwrap_or("").to_string(),
        api_key: prefix_of_names(parts.headers.keys().map(|n| n.as_str()))
            .map(|p| HeaderNames::for_prefix(&p).api_key)
            .map_or_else(
                || parts.headers.get(st.header_names.api_key.as_str()),
                |name| parts.headers.get(name.as_str()),
            )
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned()),
        body_problems: None,
    }
}

/// The answer to a refused signature: the first failing check, every other one in `debug`.
fn refused_signature(
    st: &AppState,
    seen: Seen,
    rejection: &[Rejection],
    body: &[u8],
    now: DateTime<Utc>,
) -> Response {
    let mut err = rejection_error(&rejection[0], now);
    for also in &rejection[1..] {
        err = err.with_debug(format!("also failing {}: {}", also.code(), also));
    }
    let outcome = err_outcome(&err);
    let answer = err.into_response();
    let verdict = Verdict::Rejected;
    record(st, seen, verdict, outcome, Vec::new(), body, None, answer)
}

/// Signed correctly: the operation's answer, unless the body is not the JSON it takes, or not
/// a body the vendor's SDK would send (`docs/indexing-bodies.md`).
fn answer_verified(
    st: &AppState,
    mut seen: Seen,
    op: &Operation,
    body: &[u8],
    (accepted, not_json, judgement): Verified,
) -> Response {
    seen.body_problems = judgement.as_ref().and_then(BodySeen::of);
    if let Some(j) = judgement.as_ref().filter(|j| !j.is_ok()) {
        let (err, answer) = refused_body(j);
        let outcome = err_outcome(&err);
        let warnings = accepted.warnings;
        let verdict = Verdict::Accepted;
        return record(st, seen, verdict, outcome, warnings, body, None, answer);
    }
    // The answer's warnings name the body's too; the record keeps those in `body_problems`.
    let shown = match &judgement {
        Some(j) => body_warnings(&accepted.warnings, j),
        None => accepted.warnings.clone(),
    };
    let problems = judgement.map(|j| j.problems).filter(|p| !p.is_empty());
    // A job's answer is `200 Job submitted successfully.` with a new job id.
    let job_id = (op.is_job() && not_json.is_none()).then(new_job_id);
    let answer = match (not_json, &job_id) {
        (Some(e), _) => Err(not_json_error(&e, body)),
        (None, Some(id)) => Ok(json!({"message": JOB_SUBMITTED, "jobId": id})),
        (None, None) => operations::answer(
            op,
            &st.attributes,
            &accepted.api_key,
            &seen.method,
            &seen.path,
            body,
        ),
    };
    let mut value = match answer {
        Ok(value) => value,
        Err(err) => {
            let outcome = err_outcome(&err);
            let (verdict, warnings) = (Verdict::Accepted, accepted.warnings);
            let answer = err.into_response();
            return record(st, seen, verdict, outcome, warnings, body, None, answer);
        }
    };
    if let (Some(o), false) = (value.as_object_mut(), shown.is_empty()) {
        o.insert("warnings".into(), json!(shown));
        if let Some(p) = problems {
            o.insert("problems".into(), json!(p));
        }
    }
    let outcome = Outcome {
        status: 200,
        code: None,
        message: value
            .get("message")
            .and_then(|m| m.as_str())
            .unwrap_or("listed")
            .to_string(),
    };
    let (verdict, warnings) = (Verdict::Accepted, accepted.warnings);
    let answer = Json(value).into_response();
    record(st, seen, verdict, outcome, warnings, body, job_id, answer)
}

/// The answer to a batch taken.
const JOB_SUBMITTED: &str = "Job submitted successfully.";

/// The signature verdict (always accepted on the unverified route) and, for a body the batch
/// route takes, why it is not JSON. The JSON check runs only once the signature is accepted.
/// A refusal lists every failing check, the verdict first.
/// For a body the SDK's rules apply to, their judgement (`docs/indexing-bodies.md`).
type Decision = Result<Verified, Vec<Rejection>>;

/// A verified request: its acceptance, why its body is not JSON, the body's judgement.
type Verified = (Accepted, Option<serde_json::Error>, Option<Judgement>);

fn decide(
    st: &AppState,
    received: Option<&ReceivedRequest>,
    body: &[u8],
    takes: Takes,
    now: DateTime<Utc>,
) -> Decision {
    let accepted = match received {
        Some(r) => verify_in_forms(st, r, now)?,
        None => Accepted {
            api_key: String::new(),
            warnings: Vec::new(),
        },
    };
    // The collector's rule (depth limit, finite numbers, valid escapes), not a laxer one.
    let not_json = if takes.json {
        check_json(body).err()
    } else {
        None
    };
    let judgement = match (takes.kind, &not_json) {
        (Some(kind), None) => {
            let defined: BTreeSet<String> = st
                .attributes
                .list(&accepted.api_key)
                .iter()
                .filter_map(|a| a.get("attributeName")?.as_str().map(str::to_string))
                .collect();
            // No attribute put on this server says nothing of what the account defined (the
            // vendor's console defines them too): no "undefined" warnings until one is put
            // (docs/indexing-bodies.md).
            judge_bytes(kind, body, (!defined.is_empty()).then_some(&defined))
        }
        _ => None,
    };
    Ok((accepted, not_json, judgement))
}

/// What a verified body must be: JSON, and for an indexing body, one the SDK would send.
#[derive(Clone, Copy)]
struct Takes {
    json: bool,
    kind: Option<BodyKind>,
}

/// Verify in the documented form, then, when that signature does not match, in each extra form
/// the server accepts: the request is rewritten so that its standard text is the form's text
/// ([`crate::core::SigningForm::as_standard`]) and verified again (so the other checks, the time window
/// included, still apply). Accepted that way, it carries a warning naming the form.
fn verify_in_forms(
    st: &AppState,
    r: &ReceivedRequest,
    now: DateTime<Utc>,
) -> Result<Accepted, Vec<Rejection>> {
    let first = verify_checks(st, r, now);
    let mismatched = |failures: &[Rejection]| failures.iter().any(|f| f.mismatch().is_some());
    match &first {
        Err(failures) if mismatched(failures) => {}
        _ => return first,
    }
    for form in &st.config.accept_forms {
        let Some(rewritten) = form.as_standard(r) else {
            continue;
        };
        match verify_checks(st, &rewritten, now) {
            Ok(mut accepted) => {
                accepted
                    .warnings
                    .push(form.accepted_warning(&r.path, &r.query));
                return Ok(accepted);
            }
            Err(failures) if mismatched(&failures) => {}
            // Its signature matched in this form, but other checks (the time window) did not.
            Err(failures) => return Err(failures),
        }
    }
    first
}

/// [`decide`], on the blocking pool for large bodies: the hash and the JSON check are both
/// linear in the body (each about 2-3 ms per MiB here), so neither stalls other connections.
async fn decide_off_thread(
    st: &AppState,
    received: Option<ReceivedRequest>,
    body: Bytes,
    takes: Takes,
    now: DateTime<Utc>,
) -> Decision {
    let again = received.clone();
    let first = if body.len() < BLOCKING_THRESHOLD {
        decide(st, received.as_ref(), &body, takes, now)
    } else {
        // One large body per core at a time (the permit is held until the job is done).
        let permit = st.hashing.clone().acquire_owned().await;
        let st = st.clone();
        blocking(move || {
            let decision = decide(&st, received.as_ref(), &body, takes, now);
            drop(permit);
            decision
        })
        .await
    };
    match (first, again) {
        (Err(failures), Some(r)) if failures.iter().any(|f| f.mismatch().is_some()) => {
            Err(diagnose_if_free(st, r, now).await.unwrap_or(failures))
        }
        (other, _) => other,
    }
}

/// Run a blocking job on the blocking pool; a panic in it reaches the catch-panic layer (500).
async fn blocking<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> T {
    match tokio::task::spawn_blocking(job).await {
        Ok(v) => v,
        Err(e) => std::panic::resume_unwind(e.into_panic()),
    }
}

/// Every failing check again, this time with the mismatch diagnosed, when one of the
/// `max_diagnoses` permits is free (`None` when none is: the answer keeps "server busy"). The
/// search runs on the blocking pool, whatever the body size, so it never holds up the runtime's
/// threads (which answer `/_inspect/health` and other requests); the permit is released as soon
/// as it is done. It hashes on every core when nothing else is diagnosed or hashed at that
/// moment, on one otherwise ([`diagnosis_threads`]).
async fn diagnose_if_free(
    st: &AppState,
    r: ReceivedRequest,
    now: DateTime<Utc>,
) -> Option<Vec<Rejection>> {
    let permit = st.diagnoses.clone().try_acquire_owned().ok()?;
    let threads = diagnosis_threads(
        st.config.max_diagnoses - st.diagnoses.available_permits(),
        cores() - st.hashing.available_permits().min(cores()),
    )
    .min(st.config.diagnosis_threads.unwrap_or(usize::MAX));
    let st = st.clone();
    Some(
        blocking(move || {
            // Every mismatch answered is diagnosed on its way back, so the clock search is
            // capped (docs/diagnosis.md D9); `verify` and the Diagnose view search wider.
            let plan = DiagnosisPlan::Run(DiagnoseOptions {
                threads,
                clock_units_max: Some(SERVER_CLOCK_UNITS),
                ..DiagnoseOptions::default()
            });
            let checked = match verify_options_for(&st, &r) {
                Ok(opts) => verify_all(&r, &st.config.accounts, &opts, now, &plan),
                Err(wrong) => Checked {
                    accepted: None,
                    failures: vec![wrong],
                },
            };
            drop(permit);
            // The last diagnosis of a burst hands the memory its body variants used back to
            // the system (glibc keeps freed memory in its arenas otherwise).
            if r.body.len() >= BLOCKING_THRESHOLD
                && st.diagnoses.available_permits() == st.config.max_diagnoses
            {
                super::store::release_memory();
            }
            checked.failures
        })
        .await,
    )
}

/// The cores of the machine (read once).
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

/// Threads for a diagnosis, given the diagnoses running (this one included) and the large
/// bodies being hashed: every core when it is the only work of the kind, so one mismatch on an
/// idle server is diagnosed twice as fast on two cores; one thread when others run, so a burst
/// never has more CPU-bound threads than the diagnoses allowed (docs/diagnosis.md D7).
fn diagnosis_threads(diagnosing: usize, hashing: usize) -> usize {
    if diagnosing <= 1 && hashing == 0 {
        cores()
    } else {
        1
    }
}

/// The verdict, with every failing check; a signature mismatch is not diagnosed here (see
/// [`diagnose_if_free`]): it carries the expected text and "server busy" until it is.
fn verify_checks(
    st: &AppState,
    r: &ReceivedRequest,
    now: DateTime<Utc>,
) -> Result<Accepted, Vec<Rejection>> {
    let busy = DiagnosisPlan::Skip(DIAGNOSIS_BUSY.to_string());
    let opts = verify_options_for(st, r).map_err(|wrong| vec![wrong])?;
    let mut checked = verify_all(r, &st.config.accounts, &opts, now, &busy);
    match checked.accepted.take() {
        Some(a) if checked.failures.is_empty() => Ok(a),
        _ => Err(checked.failures),
    }
}

/// The verifier's options for this request: the server's prefix, or the request's own when its
/// account answers to that one too (`docs/server.md` rule R12). Headers with a prefix the
/// account does not answer to are refused naming both prefixes and the flag that changes it,
/// rather than as a missing `X-SVC-TIMESTAMP`.
fn verify_options_for(st: &AppState, r: &ReceivedRequest) -> Result<VerifyOptions, Rejection> {
    let own = st.verify_options.header_prefix.to_ascii_uppercase();
    let Some(found) = request_prefix(r).filter(|p| *p != own) else {
        return Ok((*st.verify_options).clone());
    };
    let api_key = r.header_text(&HeaderNames::for_prefix(&found).api_key);
    if st.answers_to(&api_key, &found) {
        return Ok(VerifyOptions {
            header_prefix: found,
            ..(*st.verify_options).clone()
        });
    }
    let expected = if st.config.accounts.contains_key(&api_key) {
        st.config.prefixes_for(&api_key)
    } else {
        vec![own]
    };
    Err(Rejection::WrongPrefix {
        found,
        expected,
        api_key,
    })
}

/// Why a mismatch was not diagnosed when every permit was taken.
const DIAGNOSIS_BUSY: &str = "server busy";

/// Header names as received (hyper gives them lower-cased) and raw values, in order.
fn header_list(headers: &HeaderMap) -> Vec<(String, Vec<u8>)> {
    headers
        .iter()
        .map(|(n, v)| (n.as_str().to_string(), v.as_bytes().to_vec()))
        .collect()
}

/// The error answer for a refused request.
pub fn rejection_error(rejection: &Rejection, now: DateTime<Utc>) -> ApiError {
    let mut err = ApiError::new(
        rejection.status(),
        rejection.code(),
        sentence(&rejection.to_string()),
    );
    match rejection {
        Rejection::SignatureMismatch(m) => {
            let d = &m.diagnosis;
            err = err
                .with_debug(format!("canonical: {}", d.expected_escaped()))
                .with_debug(format!("provided signature: {}", m.provided));
            err = match &d.skipped {
                Some(reason) => err.with_debug(format!("diagnosis skipped: {reason}")),
                None => err.with_debug(format!("diagnosis: {}", d.summary())),
            };
            for finding in &d.findings {
                err = err.with_debug(format!(
                    "finding {}: {}",
                    finding.code(),
                    finding.sentence()
                ));
            }
            if let Some(form) = d.client_form {
                err = err.with_debug(format!("client form: {form}"));
            }
            if d.findings.is_empty() && d.skipped.is_none() {
                for note in d.conclusion.iter().skip(1) {
                    err = err.with_debug(format!("note: {note}"));
                }
            }
        }
        Rejection::TimestampOutOfWindow { .. } | Rejection::InvalidTimestamp { .. } => {
            err = err.with_debug(format!("server time: {}", format_timestamp(now)));
        }
        _ => {}
    }
    err
}

/// The 400 for a body the vendor's SDK would refuse to send (`docs/indexing-bodies.md`): the
/// vendor's error shape, one `debug` line per listed problem, and the problems themselves,
/// machine-readable, with the count of those not listed.
fn refused_body(j: &Judgement) -> (ApiError, Response) {
    let errors = j.error_count();
    let first = j
        .problems
        .iter()
        .find(|p| p.level == Level::Error)
        .unwrap_or(&j.problems[0]);
    let mut err = ApiError::new(
        400,
        "VALIDATION_ERROR",
        format!(
            "The body has {errors} error{} the vendor's SDK would refuse to send, the first {} at {}: {}",
            if errors == 1 { "" } else { "s" },
            first.code,
            shown_path(&first.field_path),
            first.description
        ),
    );
    for p in &j.problems {
        err = err.with_debug(format!(
            "{} {} at {}: {}",
            p.level,
            p.code,
            shown_path(&p.field_path),
            p.rule
        ));
    }
    let mut value = serde_json::to_value(&err).unwrap_or_default();
    value["problems"] = json!(j.problems);
    if j.more_errors + j.more_warnings > 0 {
        value["moreProblems"] = json!(j.more_errors + j.more_warnings);
    }
    let answer = (axum::http::StatusCode::BAD_REQUEST, Json(value)).into_response();
    (err, answer)
}

/// The answer's warning lines: the verifier's, then the judgement's problems.
fn body_warnings(verifier: &[String], j: &Judgement) -> Vec<String> {
    let mut warnings = verifier.to_vec();
    for p in &j.problems {
        warnings.push(format!(
            "{} at {}: {}",
            p.code,
            shown_path(&p.field_path),
            p.description
        ));
    }
    if j.more_warnings > 0 {
        warnings.push(format!("and {} more warnings", j.more_warnings));
    }
    warnings
}

/// The 400 for a body that is not JSON. A UTF-8 byte order mark (Windows editors add one) is
/// named: it is invisible, and the parser only says "expected value" at line 1, column 1.
fn not_json_error(e: &serde_json::Error, body: &[u8]) -> ApiError {
    let reason = if body.starts_with(b"\xEF\xBB\xBF") {
        "it starts with a UTF-8 byte order mark (bytes EF BB BF), which JSON does not allow; send it without".to_string()
    } else {
        json_error_reason(e)
    };
    ApiError::new(
        400,
        "VALIDATION_ERROR",
        format!(
            "The request body is not valid JSON at line {}, column {}: {reason}.",
            e.line(),
            e.column(),
        ),
    )
    .with_debug(format!("line {}, column {}", e.line(), e.column()))
}

/// Upper-case the first letter and end with a period: the core's rejections read as clauses.
pub fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut out = match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect::<String>(),
        None => String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

fn new_job_id() -> String {
    let n: u128 = rand::random();
    let h = format!("{n:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

struct Outcome {
    status: u16,
    code: Option<String>,
    message: String,
}

fn err_outcome(err: &ApiError) -> Outcome {
    Outcome {
        status: err.status,
        code: Some(err.code.clone()),
        message: err.message.clone(),
    }
}

/// Store what became of a request and give back `answer` with its note for the live stream.
/// What was seen moves into the record; only the body preview is copied.
#[allow(clippy::too_many_arguments)]
fn record(
    st: &AppState,
    seen: Seen,
    verdict: Verdict,
    outcome: Outcome,
    warnings: Vec<String>,
    body: &[u8],
    job_id: Option<String>,
    mut answer: Response,
) -> Response {
    tracing::debug!(
        method = %seen.method,
        path = %seen.path,
        verdict = ?verdict,
        status = outcome.status,
        code = outcome.code.as_deref().unwrap_or("-"),
        body_len = body.len(),
        "indexing request answered"
    );
    let (text, truncated) = preview(body);
    let record = RequestRecord {
        seq: st.store.next_seq(),
        time: format_timestamp(st.config.now()),
        method: seen.method,
        path: seen.path,
        query: seen.query,
        api_key: seen.api_key,
        verdict,
        status: outcome.status,
        code: outcome.code,
        message: outcome.message,
        warnings,
        job_id,
        body_bytes: body.len(),
        body: text,
        body_truncated: truncated,
        headers: seen.headers,
        body_problems: seen.body_problems,
        answered: Default::default(),
    };
    stream::note_request(&mut answer, &record);
    st.store.add_request(record);
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_diagnosis_uses_every_core_and_one_among_others_one() {
        assert_eq!(diagnosis_threads(1, 0), cores());
        assert_eq!(diagnosis_threads(2, 0), 1);
        assert_eq!(diagnosis_threads(1, 1), 1);
    }

    #[test]
    fn sentences_start_upper_and_end_with_a_period() {
        assert_eq!(
            sentence("the header X is missing"),
            "The header X is missing."
        );
        assert_eq!(sentence("done."), "Done.");
        assert_eq!(sentence(""), ".");
    }

    #[test]
    fn json_errors_name_line_and_column() {
        let e = serde_json::from_slice::<serde::de::IgnoredAny>(b"{\n  \"a\": ,\n}").unwrap_err();
        let err = not_json_error(&e, b"{\n  \"a\": ,\n}");
        assert_eq!(err.code, "VALIDATION_ERROR");
        assert_eq!(
            err.message,
            "The request body is not valid JSON at line 2, column 8: expected value."
        );
        let bom = b"\xEF\xBB\xBF[]";
        let e = serde_json::from_slice::<serde::de::IgnoredAny>(bom).unwrap_err();
        assert_eq!(
            not_json_error(&e, bom).message,
            "The request body is not valid JSON at line 1, column 1: it starts with a UTF-8 byte order mark (bytes EF BB BF), which JSON does not allow; send it without."
        );
    }

    #[test]
    fn job_ids_look_like_uuids_and_differ() {
        let a = new_job_id();
        assert_eq!(a.len(), 36);
        assert_eq!(a.matches('-').count(), 4);
        assert_ne!(a, new_job_id());
    }
}
