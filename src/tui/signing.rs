//! The signing worker: signs off the draw path, drops stale jobs, and re-hashes only from the
//! first changed byte of the body (cloned HMAC states at chunk boundaries).

use crate::core::incremental::IncrementalSigner;
use crate::core::{RequestSpec, Secret, SignableRequest, SignedRequest, SigningForm};

use super::model::SignedView;
use super::widgets::body_editor::LineMarks;
use super::worker::LatestOnly;

/// One request to sign: the request model (its body a shared snapshot of the editor's buffer),
/// the timestamp and the key.
#[derive(Clone, Debug)]
pub struct SignJob {
    pub id: u64,
    pub spec: RequestSpec,
    pub timestamp: String,
    pub key: Secret,
    pub body_rev: u64,
    /// First body byte changed since the previous job (None: unchanged).
    pub changed_from: Option<usize>,
    /// Check whether the body is JSON after signing (only when the body changed).
    pub check_json: bool,
    /// The form the path and query lines are signed in (the request view's Alt-F).
    pub form: SigningForm,
    /// The editor's line index of this body (the canonical panel reads the signed body's lines
    /// through it).
    pub body_marks: LineMarks,
}

impl SignJob {
    /// The request as written (its path and query as sent).
    pub fn request(&self) -> SignableRequest<'_> {
        self.spec.signable(&self.timestamp)
    }
}

/// The core's [`IncrementalSigner`] fed with the change points the editor reports: typing at
/// the end of a 16 MB body re-hashes only the last chunk.
#[derive(Default)]
pub struct Incremental {
    signer: IncrementalSigner,
}

impl Incremental {
    /// Sign the job, reusing saved states when the head and key are unchanged.
    pub fn sign(&mut self, job: &SignJob) -> Result<SignedView, String> {
        // Bytes before the first change are the same as in the previous job.
        let unchanged = job.changed_from.unwrap_or(job.spec.body.len());
        let signed = job
            .form
            .with_request(&job.request(), |req| {
                self.signer.sign(req, &job.key, unchanged)
            })
            .map_err(|e| e.to_string())?;
        let request =
            SignedRequest::from_signed(job.spec.clone(), job.timestamp.clone(), job.form, signed);
        Ok(SignedView {
            request: std::sync::Arc::new(request),
            body_rev: job.body_rev,
            body_marks: job.body_marks.clone(),
        })
    }

    /// How many bytes the last signature fed into the MAC.
    pub fn last_rehashed(&self) -> usize {
        self.signer.last_rehashed()
    }
}

/// Whether the body is JSON: `None` when it is, else one sentence with line and column.
pub fn json_problem(body: &[u8]) -> Option<String> {
    if body.is_empty() {
        return Some("the body is empty (not JSON); it is signed as typed".into());
    }
    match serde_json::from_slice::<serde::de::IgnoredAny>(body) {
        Ok(_) => None,
        Err(e) => Some(format!(
            "not valid JSON at line {} column {}: {}; it is signed as typed",
            e.line(),
            e.column(),
            e
        )),
    }
}

/// Fold a queued job into the one after it. Only the newest job matters, but it keeps the
/// earliest change point of the jobs it replaces (the incremental signer re-hashes from there)
/// and any JSON check asked for. The newest is the one with the higher id, whatever the order
/// they were queued in: the first signature, asked for while the workbench starts, is queued
/// after the first clock tick's; keeping it would leave the newer request unsigned ("updating…"
/// until the next edit or tick, and never with a frozen timestamp).
fn merge_jobs(older: SignJob, newer: SignJob) -> SignJob {
    let (older, mut newer) = if older.id > newer.id {
        (newer, older)
    } else {
        (older, newer)
    };
    newer.changed_from = match (older.changed_from, newer.changed_from) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    newer.check_json |= older.check_json;
    newer
}

/// What the signing worker answers: a signature, then (when the job asked) the JSON check of
/// the body (the request view takes both as its messages).
#[derive(Debug)]
pub enum SignAnswer {
    Signed {
        id: u64,
        result: Result<SignedView, String>,
    },
    JsonChecked {
        rev: u64,
        error: Option<String>,
    },
    /// The indexing-body judgement of the body (`docs/indexing-bodies.md`), after its JSON
    /// check: `None` when the route takes no indexing body or the body is not JSON.
    BodyJudged {
        rev: u64,
        judgement: Option<Box<crate::core::indexing_body::Judgement>>,
    },
}

/// The largest body the workbench judges: the 2 MB the vendor documents per indexing request
/// (`docs/server.md` rule R4). A larger body is refused for its size before its records matter,
/// and judging it would hold about ten times its size in parsed JSON (a 16 MiB body took the
/// workbench from 30 to 180 MiB).
pub const JUDGED_BODY_MAX: usize = crate::core::indexing_body::DOCUMENTED_MAX_BODY;

/// What the vendor's SDK would refuse in the job's body (`core::indexing_body`), for the
/// indexing routes the server judges and bodies up to [`JUDGED_BODY_MAX`].
pub fn body_judgement(spec: &RequestSpec) -> Option<crate::core::indexing_body::Judgement> {
    use crate::core::indexing_body::{judge_bytes, BodyKind};
    let kind = BodyKind::of(&spec.method.to_ascii_uppercase(), &spec.path)?;
    if spec.body.len() > JUDGED_BODY_MAX {
        return None;
    }
    judge_bytes(kind, &spec.body, None)
}

/// The body's judgement, asked for after its JSON check: the body revision and the request it
/// is judged for.
struct JudgeJob {
    rev: u64,
    spec: RequestSpec,
}

/// The signing thread (a [`LatestOnly`] worker) and the thread that judges an indexing body
/// after its JSON check (another, so a long judgement never holds up the next signature; it
/// too judges only the newest body). Dropping it stops both.
pub struct SignWorker(LatestOnly<SignJob>);

impl SignWorker {
    /// Start the worker; results go to `out`.
    pub fn spawn(out: impl Fn(SignAnswer) + Send + Sync + 'static) -> Self {
        let out = std::sync::Arc::new(out);
        let judged = std::sync::Arc::clone(&out);
        let judge = LatestOnly::spawn(
            "signscope-judge",
            |_older, newer| newer,
            move |job: JudgeJob| {
                let judgement = body_judgement(&job.spec).map(Box::new);
                judged(SignAnswer::BodyJudged {
                    rev: job.rev,
                    judgement,
                });
            },
        );
        let mut inc = Incremental::default();
        SignWorker(LatestOnly::spawn(
            "signscope-signer",
            merge_jobs,
            move |job: SignJob| {
                let result = inc.sign(&job);
                out(SignAnswer::Signed { id: job.id, result });
                if job.check_json {
                    let rev = job.body_rev;
                    let error = json_problem(&job.spec.body);
                    out(SignAnswer::JsonChecked { rev, error });
                    judge.submit(JudgeJob {
                        rev,
                        spec: job.spec,
                    });
                }
            },
        ))
    }

    pub fn submit(&self, job: SignJob) {
        self.0.submit(job);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Distance between saved MAC states in the body (the core's default chunk).
    const CHECKPOINT_EVERY: usize = crate::core::incremental::DEFAULT_CHUNK;
    use std::sync::mpsc;

    fn job(body: Vec<u8>, changed_from: Option<usize>) -> SignJob {
        SignJob {
            id: 1,
            spec: RequestSpec {
                method: "PUT".into(),
                path: "/v2/batch".into(),
                query: "a=1".into(),
                header_prefix: "SVC".into(),
                api_key: "pub".into(),
                auth_algo: "HmacSHA384".into(),
                content_type: "application/json".into(),
                body: body.into(),
            },
            timestamp: "2026-11-22T10:00:00.000Z".into(),
            key: Secret::new("rest"),
            body_rev: 1,
            changed_from,
            check_json: false,
            form: SigningForm::Standard,
            body_marks: crate::tui::widgets::body_editor::BodyEditor::new("").line_marks(),
        }
    }

    #[test]
    fn a_php_sdk_job_is_signed_in_the_php_sdk_form() {
        let mut j = job(b"[1]".to_vec(), None);
        j.spec.path = "/v2/batch/".into();
        let standard = Incremental::default().sign(&j).unwrap();
        j.form = SigningForm::PhpSdk;
        let mut inc = Incremental::default();
        let php = inc.sign(&j).unwrap();
        let want = SigningForm::PhpSdk.sign(&j.request(), &j.key).unwrap();
        assert_eq!(php.signature().to_string(), want.signature());
        assert_ne!(php.signature().to_string(), standard.signature());
        let php_text = SigningForm::PhpSdk.canonical(&j.request()).to_string();
        assert!(php_text.contains("\n/v2/batch\n?a=1\n"), "{php_text}");
        assert_eq!(php.canonical().len(), php_text.len());
        // The same signer, back to the standard form: the head changed, signed from scratch.
        j.form = SigningForm::Standard;
        assert_eq!(
            inc.sign(&j).unwrap().signature().to_string(),
            standard.signature()
        );
    }

    fn from_scratch(j: &SignJob) -> String {
        crate::core::sign(&j.request(), &j.key)
            .unwrap()
            .signature()
            .to_string()
    }

    #[test]
    fn incremental_equals_from_scratch_after_edits() {
        let mut inc = Incremental::default();
        let mut body = vec![b'x'; 3 * CHECKPOINT_EVERY + 17];
        let j = job(body.clone(), None);
        assert_eq!(
            inc.sign(&j).unwrap().signature().to_string(),
            from_scratch(&j)
        );
        body.push(b'y');
        let j = job(body.clone(), Some(body.len() - 1));
        assert_eq!(
            inc.sign(&j).unwrap().signature().to_string(),
            from_scratch(&j)
        );
        assert!(
            inc.last_rehashed() <= CHECKPOINT_EVERY + 18,
            "only the last chunk re-hashed"
        );
        body[CHECKPOINT_EVERY + 3] = b'z';
        let j = job(body.clone(), Some(CHECKPOINT_EVERY + 3));
        assert_eq!(
            inc.sign(&j).unwrap().signature().to_string(),
            from_scratch(&j)
        );
        body.truncate(10);
        let j = job(body.clone(), Some(10));
        assert_eq!(
            inc.sign(&j).unwrap().signature().to_string(),
            from_scratch(&j)
        );
        let mut j = job(body, None);
        j.spec.query = "b=2".into();
        assert_eq!(
            inc.sign(&j).unwrap().signature().to_string(),
            from_scratch(&j)
        );
    }

    #[test]
    fn skipped_jobs_keep_their_earliest_change_point() {
        let mut inc = Incremental::default();
        let mut body = vec![b'x'; 3 * CHECKPOINT_EVERY];
        inc.sign(&job(body.clone(), None)).unwrap();
        // Two edits queue up: one early in the body, then one at the end. Only the second job is
        // signed, so it must re-hash from the first edit, not from its own.
        body[5] = b'a';
        let mut first = job(body.clone(), Some(5));
        first.check_json = true;
        body.push(b'b');
        let mut second = job(body.clone(), Some(body.len() - 1));
        second.check_json = false;
        let merged = merge_jobs(first, second);
        assert_eq!(merged.changed_from, Some(5));
        assert!(merged.check_json, "a JSON check asked for is not lost");
        assert_eq!(merged.spec.body, bytes::Bytes::from(body.clone()));
        assert_eq!(
            inc.sign(&merged).unwrap().signature().to_string(),
            from_scratch(&merged)
        );
        // A job that left the body alone (a header edit) adds no change point, either way round.
        let header_edit = job(body.clone(), None);
        let merged = merge_jobs(header_edit.clone(), job(body.clone(), Some(7)));
        assert_eq!(merged.changed_from, Some(7));
        assert_eq!(
            merge_jobs(job(body, Some(7)), header_edit).changed_from,
            Some(7)
        );
    }

    #[test]
    fn a_job_queued_after_a_newer_one_does_not_replace_it() {
        let mut newer = job(b"[]".to_vec(), None);
        newer.id = 2;
        newer.timestamp = "2026-11-22T10:00:01.000Z".into();
        let mut older = job(b"[]".to_vec(), Some(0));
        older.id = 1;
        older.check_json = true;
        // Queued newest first (the startup job after the first tick's).
        let merged = merge_jobs(newer.clone(), older);
        assert_eq!(merged.id, 2);
        assert_eq!(merged.timestamp, newer.timestamp);
        assert_eq!(merged.changed_from, Some(0));
        assert!(merged.check_json);
    }

    #[test]
    fn empty_key_is_an_error_sentence() {
        let mut j = job(b"[]".to_vec(), None);
        j.key = Secret::new("");
        let err = Incremental::default().sign(&j).unwrap_err();
        assert!(err.contains("REST API key is empty"), "{err}");
    }

    #[test]
    fn json_problem_names_line_and_column() {
        assert_eq!(json_problem(b"[1, 2]"), None);
        let p = json_problem(b"[1,\n 2,]").unwrap();
        assert!(p.contains("line 2"), "{p}");
        assert!(json_problem(b"").is_some());
    }

    #[test]
    fn worker_answers_the_newest_job() {
        let (tx, rx) = mpsc::channel();
        let w = SignWorker::spawn(move |m| {
            let _ = tx.send(m);
        });
        let mut j = job(b"[]".to_vec(), None);
        j.check_json = true;
        let want = from_scratch(&j);
        w.submit(j);
        match rx.recv().unwrap() {
            SignAnswer::Signed { id, result } => {
                assert_eq!(id, 1);
                assert_eq!(result.unwrap().signature().to_string(), want);
            }
            other => panic!("unexpected {other:?}"),
        }
        match rx.recv().unwrap() {
            SignAnswer::JsonChecked { rev, error } => {
                assert_eq!(rev, 1);
                assert_eq!(error, None);
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    /// A body over the documented 2 MB is not judged (it is refused for its size first, and
    /// its parsed JSON would hold ten times its size); one under it is.
    #[test]
    fn a_body_over_the_documented_limit_is_not_judged() {
        let record = r#"{"id": 42, "type": "KLEVU_CMS", "name": "a name of some length"},"#;
        let body = |n: usize| {
            let mut b = String::from("[");
            b.push_str(&record.repeat(n));
            b.pop();
            b.push(']');
            b.into_bytes()
        };
        let small = job(body(10), None);
        assert!(body_judgement(&small.spec).is_some());
        let n = JUDGED_BODY_MAX / record.len() + 1;
        let big = job(body(n), None);
        assert!(big.spec.body.len() > JUDGED_BODY_MAX);
        assert!(serde_json::from_slice::<serde_json::Value>(&big.spec.body).is_ok());
        assert!(body_judgement(&big.spec).is_none());
    }

    /// After a body's JSON check the worker judges it for the route (`PUT /v2/batch` here) on
    /// a thread of its own; a route that takes no indexing body gets no judgement.
    #[test]
    fn worker_judges_an_indexing_body_after_its_json_check() {
        let (tx, rx) = mpsc::channel();
        let w = SignWorker::spawn(move |m| {
            let _ = tx.send(m);
        });
        let judged = |rx: &mpsc::Receiver<SignAnswer>| loop {
            if let SignAnswer::BodyJudged { rev, judgement } = rx.recv().unwrap() {
                return (rev, judgement);
            }
        };
        let mut j = job(br#"[{"id": 42, "type": "KLEVU_PRODUCT"}]"#.to_vec(), None);
        j.check_json = true;
        j.body_rev = 3;
        w.submit(j.clone());
        let (rev, judgement) = judged(&rx);
        assert_eq!(rev, 3);
        let judgement = judgement.expect("a judgement for PUT /v2/batch");
        assert_eq!(judgement.problems[0].code, "ID_NOT_STRING");
        assert_eq!(judgement.problems[0].field_path, "/0/id");
        j.spec.method = "GET".into();
        j.id = 2;
        w.submit(j);
        assert_eq!(judged(&rx), (3, None));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn random_edits_match_from_scratch(
            len in 0usize..(3 * CHECKPOINT_EVERY),
            edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, any::<u8>()), 1..6)
        ) {
            let mut inc = Incremental::default();
            let mut body: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
            inc.sign(&job(body.clone(), None)).unwrap();
            for (at, kind, byte) in edits {
                let pos = if body.is_empty() { 0 } else { at.index(body.len()) };
                match kind {
                    0 => body.insert(pos, byte),
                    1 if !body.is_empty() => { body.remove(pos); }
                    _ => body.truncate(pos),
                }
                let j = job(body.clone(), Some(pos));
                prop_assert_eq!(inc.sign(&j).unwrap().signature().to_string(), from_scratch(&j));
            }
        }
    }
}
