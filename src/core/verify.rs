//! Verification of a received request, as the local server and `signscope verify` do it.
//!
//! Order of the checks (`docs/verification.md` rules V1-V6):
//! 1. each required header present exactly once (names matched case-insensitively);
//! 2. `Authorization: Bearer <token>` well-formed;
//! 3. the API key known, the algorithm exactly `HmacSHA384`, the Content-Type exactly
//!    `application/json`, the timestamp RFC 3339;
//! 4. the signature, compared in constant time (a mismatch carries a [`Diagnosis`]);
//! 5. only then the time window (±600 s inclusive), so that a clock error is reported only for an
//!    otherwise valid request.
//!
//! The signing text always uses the canonical upper-case names (`X-SVC-TIMESTAMP=...`), whatever
//! case the client used on the wire. Time is an argument: nothing here reads the clock.

use std::collections::HashMap;
use std::fmt;

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use chrono::{DateTime, Utc};
use subtle::ConstantTimeEq;

use super::diagnose::{diagnose_with, DiagnoseOptions, Diagnosis};
pub use super::received::ReceivedRequest;
use super::request::{
    HeaderNames, SignableRequest, AUTHORIZATION_HEADER, AUTH_ALGO, CONTENT_TYPE_HEADER,
    CONTENT_TYPE_JSON, DEFAULT_HEADER_PREFIX,
};
use super::secret::Secret;
use super::sign::{digest_canonical, DIGEST_LEN};
use super::time::{format_timestamp, parse_timestamp, ParsedTimestamp};
use super::visible::escape_visible;

/// Where the verifier finds the REST key of a public API key.
pub trait KeyStore {
    fn rest_key(&self, api_key: &str) -> Option<Secret>;

    /// The other accounts known (API key, REST key), so a diagnosis can recognise a signature
    /// made with another account's key. None by default.
    fn other_accounts(&self, api_key: &str) -> Vec<(String, Secret)> {
        let _ = api_key;
        Vec::new()
    }
}

impl KeyStore for HashMap<String, Secret> {
    fn rest_key(&self, api_key: &str) -> Option<Secret> {
        self.get(api_key).cloned()
    }

    fn other_accounts(&self, api_key: &str) -> Vec<(String, Secret)> {
        let mut out: Vec<(String, Secret)> = self
            .iter()
            .filter(|(k, _)| k.as_str() != api_key)
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }
}

/// One REST key, for `signscope verify`: bound to one API key, or (when `api_key` is `None`) used
/// for whatever API key the request names.
#[derive(Clone, Debug)]
pub struct SingleKey {
    pub api_key: Option<String>,
    pub secret: Secret,
}

impl KeyStore for SingleKey {
    fn rest_key(&self, api_key: &str) -> Option<Secret> {
        match &self.api_key {
            Some(k) if k != api_key => None,
            _ => Some(self.secret.clone()),
        }
    }
}

/// Settings of the verifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyOptions {
    /// The vendor prefix of the header names (`SVC`, or `KLEVU` for a real account).
    pub header_prefix: String,
    /// Accepted clock difference in seconds, inclusive (600 = ten minutes each way).
    pub window_seconds: i64,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            header_prefix: DEFAULT_HEADER_PREFIX.to_string(),
            window_seconds: 600,
        }
    }
}

/// A request that passed every check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accepted {
    pub api_key: String,
    /// Things that were accepted but deserve a remark (e.g. a timestamp not in the rule-9 form).
    pub warnings: Vec<String>,
}

/// What the verifier signed when the signature did not match, and why it may differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The signature the client sent (the token after `Bearer `).
    pub provided: String,
    /// Which known client mistakes reproduce the provided signature.
    pub diagnosis: Diagnosis,
}

impl Mismatch {
    /// The exact bytes the verifier signed.
    pub fn canonical(&self) -> Vec<u8> {
        self.diagnosis.expected_canonical()
    }
}

/// Why a request was refused. `Display` is one sentence; [`Rejection::code`] is stable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("the required header {name} is missing")]
    MissingHeader { name: String },
    #[error("the header {name} appears {count} times; send it exactly once")]
    DuplicateHeader { name: String, count: usize },
    #[error("the Authorization header must be `Bearer <base64 signature>`, got {shown}: {reason}")]
    MalformedAuthorization { shown: String, reason: String },
    #[error("no REST key is known for the API key {api_key} in {header}")]
    UnknownApiKey { header: String, api_key: String },
    #[error("the algorithm in {header} must be exactly HmacSHA384, got {got}")]
    WrongAlgorithm { header: String, got: String },
    #[error("the timestamp in {header} is not an RFC 3339 time such as 2026-11-22T10:00:00.000Z: got {got}")]
    InvalidTimestamp { header: String, got: String },
    #[error("{}", window_sentence(*skew_ms, server_time, *window_seconds))]
    TimestampOutOfWindow {
        /// Request time minus server time, in whole seconds rounded away from zero.
        skew_seconds: i64,
        /// The same difference in milliseconds.
        skew_ms: i64,
        server_time: DateTime<Utc>,
        window_seconds: i64,
    },
    #[error("the Content-Type must be exactly application/json, got {got}")]
    UnsupportedContentType { got: String },
    #[error("{}", mismatch_sentence(.0))]
    SignatureMismatch(Box<Mismatch>),
    #[error("the request's headers carry the prefix {found} (X-{found}-APIKEY, ...), but {}; start the server with --header-prefix {found} (or sign with the prefix {})", wrong_prefix_whom(api_key, expected), expected.join(" or "))]
    WrongPrefix {
        /// The prefix of the request's vendor headers.
        found: String,
        /// The prefixes the server expects for this API key.
        expected: Vec<String>,
        /// The API key in the request's `X-<found>-APIKEY` header (empty when none).
        api_key: String,
    },
}

fn wrong_prefix_whom(api_key: &str, expected: &[String]) -> String {
    let prefixes = expected
        .iter()
        .map(|p| format!("X-{p}-*"))
        .collect::<Vec<_>>()
        .join(" or ");
    if api_key.is_empty() {
        format!("this server expects {prefixes}")
    } else {
        format!("this server expects {prefixes} for the API key {api_key}")
    }
}

/// [`request_prefix`], else the documented `SVC`: the prefix a captured request is verified
/// with.
pub fn prefix_or_default(req: &ReceivedRequest) -> String {
    request_prefix(req).unwrap_or_else(|| super::request::DEFAULT_HEADER_PREFIX.to_string())
}

/// The prefix of the vendor headers a request carries, from its first `X-<PREFIX>-APIKEY`,
/// `X-<PREFIX>-TIMESTAMP` or `X-<PREFIX>-AUTH-ALGO` header, upper case; `None` when it has none.
/// A captured request is read with its own prefix (`docs/verification.md` rule V11).
pub fn request_prefix(req: &ReceivedRequest) -> Option<String> {
    prefix_of_names(req.headers.iter().map(|(name, _)| name.as_str()))
}

/// [`request_prefix`] of header names alone.
pub fn prefix_of_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Option<String> {
    names.into_iter().find_map(|name| {
        let upper = name.to_ascii_uppercase();
        let rest = upper.strip_prefix("X-")?;
        ["-APIKEY", "-TIMESTAMP", "-AUTH-ALGO"]
            .iter()
            .find_map(|suffix| rest.strip_suffix(suffix))
            .filter(|p| !p.is_empty())
            .map(str::to_owned)
    })
}

fn window_sentence(skew_ms: i64, server_time: &DateTime<Utc>, window: i64) -> String {
    let dir = if skew_ms > 0 { "ahead of" } else { "behind" };
    let abs = skew_ms.unsigned_abs();
    format!(
        "the timestamp is {}.{:03} s {dir} the server time {} (allowed: ±{window} s); sign the request again with the current time, from a clock that is set right",
        abs / 1000,
        abs % 1000,
        format_timestamp(*server_time)
    )
}

fn mismatch_sentence(m: &Mismatch) -> String {
    format!(
        "the signature does not match the request: {}",
        m.diagnosis.summary()
    )
}

/// The verifier's refusal codes (`docs/verification.md` rule V8), stable and never renamed:
/// [`Rejection::code`] gives each refusal its own, and [`is_refusal_code`] looks a code up in
/// [`refusal_codes::ALL`], so the two read one list.
pub mod refusal_codes {
    pub const MISSING_HEADER: &str = "MISSING_HEADER";
    pub const DUPLICATE_HEADER: &str = "DUPLICATE_HEADER";
    pub const MALFORMED_AUTHORIZATION: &str = "MALFORMED_AUTHORIZATION";
    pub const UNKNOWN_API_KEY: &str = "UNKNOWN_API_KEY";
    pub const INVALID_ALGORITHM: &str = "INVALID_ALGORITHM";
    pub const INVALID_TIMESTAMP: &str = "INVALID_TIMESTAMP";
    pub const TIMESTAMP_OUT_OF_WINDOW: &str = "TIMESTAMP_OUT_OF_WINDOW";
    pub const UNSUPPORTED_CONTENT_TYPE: &str = "UNSUPPORTED_CONTENT_TYPE";
    pub const SIGNATURE_MISMATCH: &str = "SIGNATURE_MISMATCH";
    pub const WRONG_HEADER_PREFIX: &str = "WRONG_HEADER_PREFIX";

    /// Every refusal code, one per [`super::Rejection`] variant.
    pub const ALL: [&str; 10] = [
        MISSING_HEADER,
        DUPLICATE_HEADER,
        MALFORMED_AUTHORIZATION,
        UNKNOWN_API_KEY,
        INVALID_ALGORITHM,
        INVALID_TIMESTAMP,
        TIMESTAMP_OUT_OF_WINDOW,
        UNSUPPORTED_CONTENT_TYPE,
        SIGNATURE_MISMATCH,
        WRONG_HEADER_PREFIX,
    ];
}

/// Whether an answer's `code` is one of the verifier's refusals (`docs/verification.md` rule
/// V8): the local verdict rejected the request.
pub fn is_refusal_code(code: &str) -> bool {
    refusal_codes::ALL.contains(&code)
}

impl Rejection {
    /// The stable error code (used in the server's error body and by scripts).
    pub fn code(&self) -> &'static str {
        self.code_and_status().0
    }

    /// The HTTP status for this rejection: 400 for a missing or malformed header or timestamp,
    /// 401 for unknown key, bad algorithm, mismatch, or out-of-window, 415 for the content type.
    pub fn status(&self) -> u16 {
        self.code_and_status().1
    }

    fn code_and_status(&self) -> (&'static str, u16) {
        use refusal_codes::*;
        match self {
            Rejection::MissingHeader { .. } => (MISSING_HEADER, 400),
            Rejection::DuplicateHeader { .. } => (DUPLICATE_HEADER, 400),
            Rejection::MalformedAuthorization { .. } => (MALFORMED_AUTHORIZATION, 400),
            Rejection::UnknownApiKey { .. } => (UNKNOWN_API_KEY, 401),
            Rejection::WrongAlgorithm { .. } => (INVALID_ALGORITHM, 401),
            Rejection::InvalidTimestamp { .. } => (INVALID_TIMESTAMP, 400),
            Rejection::TimestampOutOfWindow { .. } => (TIMESTAMP_OUT_OF_WINDOW, 401),
            Rejection::UnsupportedContentType { .. } => (UNSUPPORTED_CONTENT_TYPE, 415),
            Rejection::SignatureMismatch(_) => (SIGNATURE_MISMATCH, 401),
            Rejection::WrongPrefix { .. } => (WRONG_HEADER_PREFIX, 400),
        }
    }

    /// The mismatch details, when this is a signature mismatch.
    pub fn mismatch(&self) -> Option<&Mismatch> {
        match self {
            Rejection::SignatureMismatch(m) => Some(m),
            _ => None,
        }
    }
}

/// A header value as visible text, short enough for one sentence.
fn shown(value: &[u8]) -> String {
    const MAX: usize = 80;
    let cut = &value[..value.len().min(MAX)];
    let mut s = format!("\"{}\"", escape_visible(cut));
    if value.len() > MAX {
        s.push_str(&format!(" (… {} bytes in all)", value.len()));
    }
    s
}

fn exactly_one<'r>(req: &'r ReceivedRequest, name: &'r str) -> Result<&'r [u8], Rejection> {
    let mut values = req.header_values(name);
    let first = values.next().ok_or_else(|| Rejection::MissingHeader {
        name: name.to_string(),
    })?;
    let more = values.count();
    if more > 0 {
        return Err(Rejection::DuplicateHeader {
            name: name.to_string(),
            count: more + 1,
        });
    }
    Ok(first)
}

/// Split `Bearer <token>` and check the token looks like a base64 signature (standard or
/// URL-safe alphabet, so that a URL-safe signature reaches the diagnosis instead of being
/// refused as malformed).
pub fn bearer_token(value: &[u8]) -> Result<&str, Rejection> {
    let bad = |reason: &str| Rejection::MalformedAuthorization {
        shown: shown(value),
        reason: reason.to_string(),
    };
    let text = std::str::from_utf8(value).map_err(|_| bad("it is not valid UTF-8"))?;
    let (scheme, token) = text
        .split_once(' ')
        .ok_or_else(|| bad("there is no space between `Bearer` and the signature"))?;
    if !scheme.eq_ignore_ascii_case("Bearer") {
        return Err(bad("the scheme must be `Bearer`"));
    }
    if token.is_empty() {
        return Err(bad("the signature is empty"));
    }
    if !token
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_'))
    {
        return Err(bad("the signature contains characters that are not base64"));
    }
    Ok(token)
}

/// Verify a received request against the key store at time `now`: the first failing check, a
/// signature mismatch with its full diagnosis (see [`verify_all`] for every failing check).
pub fn verify(
    req: &ReceivedRequest,
    keys: &dyn KeyStore,
    opts: &VerifyOptions,
    now: DateTime<Utc>,
) -> Result<Accepted, Rejection> {
    verify_all(req, keys, opts, now, &DiagnosisPlan::default()).into_result()
}

/// Whether a signature mismatch gets a diagnosis, and with what.
#[derive(Clone, Debug)]
pub enum DiagnosisPlan {
    /// Diagnose (the key store's other accounts are added to the options).
    Run(DiagnoseOptions),
    /// Do not search; the mismatch carries the expected text and this reason.
    Skip(String),
}

impl Default for DiagnosisPlan {
    fn default() -> Self {
        DiagnosisPlan::Run(DiagnoseOptions::default())
    }
}

/// Every failing check of a request, in the verifier's order (the first is the verdict).
#[derive(Clone, Debug)]
pub struct Checked {
    /// The accepted request, when no check failed.
    pub accepted: Option<Accepted>,
    /// Every failing check; empty when accepted.
    pub failures: Vec<Rejection>,
}

impl Checked {
    /// The verdict: accepted, or the first failing check.
    pub fn into_result(mut self) -> Result<Accepted, Rejection> {
        match self.accepted.take() {
            Some(a) => Ok(a),
            None => Err(self.failures.swap_remove(0)),
        }
    }

    /// The signature mismatch among the failures, if any.
    pub fn mismatch(&self) -> Option<&Mismatch> {
        self.failures.iter().find_map(Rejection::mismatch)
    }

    /// The verdict in lines, as `signscope verify` prints it and the workbench's Diagnose view
    /// shows it: `accepted: ...` and one `warning: ...` line per warning; or
    /// `rejected (STATUS CODE): ...` for the verdict, then one `also failing (STATUS CODE): ...`
    /// line for every other failing check, in the verifier's order.
    pub fn verdict_lines(&self) -> Vec<String> {
        if let Some(a) = &self.accepted {
            let mut lines = vec![a.to_string()];
            lines.extend(a.warnings.iter().map(|w| format!("warning: {w}")));
            return lines;
        }
        self.failures
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let lead = if i == 0 { "rejected" } else { "also failing" };
                format!("{lead} ({} {}): {r}", r.status(), r.code())
            })
            .collect()
    }
}

/// Run every check that can run and report each that fails: missing or repeated headers and a
/// malformed Authorization stop there; otherwise a wrong algorithm, Content-Type or timestamp
/// syntax, the signature (when the algorithm and Content-Type are the required ones) and the
/// time window are all reported together.
pub fn verify_all(
    req: &ReceivedRequest,
    keys: &dyn KeyStore,
    opts: &VerifyOptions,
    now: DateTime<Utc>,
    plan: &DiagnosisPlan,
) -> Checked {
    let names = HeaderNames::for_prefix(&opts.header_prefix);
    let stop = |failures: Vec<Rejection>| Checked {
        accepted: None,
        failures,
    };
    // 1. presence, exactly once: every missing or repeated header is reported.
    let [ts_raw, api_raw, algo_raw, ct_raw, auth_raw] = match present_once(req, &names) {
        Ok(raw) => raw,
        Err(presence) => return stop(presence),
    };

    // 2. Authorization shape.
    let token = match bearer_token(auth_raw) {
        Ok(t) => t,
        Err(e) => return stop(vec![e]),
    };

    // 3. values.
    let unknown = || Rejection::UnknownApiKey {
        header: names.api_key.clone(),
        api_key: shown(api_raw),
    };
    let Ok(api_key) = std::str::from_utf8(api_raw) else {
        return stop(vec![unknown()]);
    };
    let Some(secret) = keys.rest_key(api_key).filter(|s| !s.is_empty()) else {
        return stop(vec![unknown()]);
    };
    let mut failures = Vec::new();
    let algo_ok = algo_raw == AUTH_ALGO.as_bytes();
    if !algo_ok {
        failures.push(Rejection::WrongAlgorithm {
            header: names.auth_algo.clone(),
            got: shown(algo_raw),
        });
    }
    let ct_ok = ct_raw == CONTENT_TYPE_JSON.as_bytes();
    if !ct_ok {
        failures.push(Rejection::UnsupportedContentType { got: shown(ct_raw) });
    }
    let ts_text = std::str::from_utf8(ts_raw).ok();
    let ts = ts_text.and_then(parse_timestamp);
    if ts.is_none() {
        failures.push(Rejection::InvalidTimestamp {
            header: names.timestamp.clone(),
            got: shown(ts_raw),
        });
    }

    // 4. signature, constant-time.
    if algo_ok && ct_ok {
        let signed = Signed {
            api_key,
            timestamp: ts_text.unwrap_or(""),
            secret: &secret,
            token,
        };
        failures.extend(signature_failure(req, keys, opts, plan, &signed));
    }

    // 5. time window (inclusive at ±window seconds).
    failures.extend(ts.as_ref().and_then(|ts| window_failure(ts, now, opts)));
    if !failures.is_empty() {
        // The verdict keeps the verifier's order: value checks, then the signature, then time.
        return stop(failures);
    }
    Checked {
        accepted: Some(Accepted {
            api_key: api_key.to_string(),
            warnings: timestamp_warnings(ts.as_ref(), ts_raw),
        }),
        failures: Vec::new(),
    }
}

/// The five headers' values, each present exactly once (the timestamp, API key, algorithm,
/// Content-Type and Authorization, in that order), or every missing or repeated one.
fn present_once<'r>(
    req: &'r ReceivedRequest,
    names: &'r HeaderNames,
) -> Result<[&'r [u8]; 5], Vec<Rejection>> {
    let mut presence = Vec::new();
    let mut raw: [&[u8]; 5] = [b""; 5];
    for (i, name) in [
        names.timestamp.as_str(),
        names.api_key.as_str(),
        names.auth_algo.as_str(),
        CONTENT_TYPE_HEADER,
        AUTHORIZATION_HEADER,
    ]
    .into_iter()
    .enumerate()
    {
        match exactly_one(req, name) {
            Ok(v) => raw[i] = v,
            Err(e) => presence.push(e),
        }
    }
    if presence.is_empty() {
        Ok(raw)
    } else {
        Err(presence)
    }
}

/// What the request's signature is checked with: its key's name and secret, the timestamp as
/// sent, and the token of its Authorization.
struct Signed<'a> {
    api_key: &'a str,
    timestamp: &'a str,
    secret: &'a Secret,
    token: &'a str,
}

/// The signature mismatch, with its diagnosis as planned, when the token is not the request's
/// signature (compared in constant time).
fn signature_failure(
    req: &ReceivedRequest,
    keys: &dyn KeyStore,
    opts: &VerifyOptions,
    plan: &DiagnosisPlan,
    s: &Signed<'_>,
) -> Option<Rejection> {
    let signable = SignableRequest {
        method: &req.method,
        path: &req.path,
        query: &req.query,
        header_prefix: &opts.header_prefix,
        timestamp: s.timestamp,
        api_key: s.api_key,
        auth_algo: AUTH_ALGO,
        content_type: CONTENT_TYPE_JSON,
        body: &req.body,
    };
    let digest = digest_canonical(&signable.canonical(), s.secret)
        .expect("the key was checked to be non-empty");
    if signature_matches(&digest, s.token) {
        return None;
    }
    let diagnosis = match plan {
        DiagnosisPlan::Run(o) => {
            let mut o = o.clone();
            o.other_accounts.extend(keys.other_accounts(s.api_key));
            diagnose_with(req, &opts.header_prefix, s.secret, s.token, &o)
        }
        DiagnosisPlan::Skip(reason) => {
            Diagnosis::skipped(req, &opts.header_prefix, s.secret, s.token, reason)
        }
    };
    Some(Rejection::SignatureMismatch(Box::new(Mismatch {
        provided: s.token.to_string(),
        diagnosis,
    })))
}

/// The timestamp out of the window (inclusive at ±window seconds) around `now`, if it is.
fn window_failure(
    ts: &ParsedTimestamp,
    now: DateTime<Utc>,
    opts: &VerifyOptions,
) -> Option<Rejection> {
    let skew_ms = (ts.time - now).num_milliseconds();
    if skew_ms.abs() <= opts.window_seconds.saturating_mul(1000) {
        return None;
    }
    let secs = skew_ms.abs() / 1000 + i64::from(skew_ms.abs() % 1000 != 0);
    Some(Rejection::TimestampOutOfWindow {
        skew_seconds: secs * skew_ms.signum(),
        skew_ms,
        server_time: now,
        window_seconds: opts.window_seconds,
    })
}

/// The remarks on an accepted request's timestamp: a leap second, or a form other than the
/// documented one.
fn timestamp_warnings(ts: Option<&ParsedTimestamp>, ts_raw: &[u8]) -> Vec<String> {
    let mut warnings = Vec::new();
    // chrono reads `:60` as a leap second (a nanosecond count past one second): accepted, as
    // RFC 3339 allows it, but no clock a client should sign with produces one.
    if ts.is_some_and(|t| t.time.timestamp_subsec_nanos() >= 1_000_000_000) {
        warnings.push(format!(
            "the timestamp {} names a leap second (:60), which RFC 3339 allows but a client's clock should not produce (UTC clocks repeat or smear :59 instead)",
            shown(ts_raw)
        ));
    } else if let Some(ts) = ts.filter(|t| !t.known_form()) {
        // The PHP SDK's `date('c')` form is the vendor's own client's: no remark (rule V3).
        warnings.push(format!(
            "the timestamp {} is valid RFC 3339 but not in the form YYYY-MM-DDThh:mm:ss.mmmZ (e.g. {})",
            shown(ts_raw),
            format_timestamp(ts.time)
        ));
    }
    warnings
}

/// Compare a provided base64 token with the expected digest in constant time. The expected
/// signature is encoded and the two byte strings are compared with `subtle` (the length is not
/// secret).
pub fn signature_matches(expected: &[u8; DIGEST_LEN], provided: &str) -> bool {
    let want = STANDARD.encode(expected);
    want.as_bytes().ct_eq(provided.as_bytes()).into()
}

impl fmt::Display for Accepted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "accepted: the signature is valid for API key {}",
            self.api_key
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sign::sign;
    use chrono::TimeZone;

    const TS: &str = "2026-11-22T10:00:00.000Z";
    const REST: &str = "rest-key-0123";

    fn now() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 22, 10, 0, 0).unwrap()
    }

    fn keys() -> HashMap<String, Secret> {
        HashMap::from([("pub-key".to_string(), Secret::new(REST))])
    }

    fn signed_with(ts: &str, key: &str) -> ReceivedRequest {
        let req = SignableRequest::new(
            "PUT",
            "/v2/batch",
            "test=1",
            ts,
            "pub-key",
            br#"[{"id":"1"}]"#,
        );
        let s = sign(&req, &Secret::new(key)).unwrap();
        ReceivedRequest::from_signed(&req, &s.headers)
    }

    fn good() -> ReceivedRequest {
        signed_with(TS, REST)
    }

    fn check(req: &ReceivedRequest) -> Result<Accepted, Rejection> {
        verify(req, &keys(), &VerifyOptions::default(), now())
    }

    fn set_header(req: &mut ReceivedRequest, name: &str, value: &str) {
        for (n, v) in req.headers.iter_mut() {
            if n.eq_ignore_ascii_case(name) {
                *v = value.as_bytes().to_vec();
            }
        }
    }

    #[test]
    fn a_correct_request_is_accepted_without_warnings() {
        let a = check(&good()).unwrap();
        assert_eq!(a.api_key, "pub-key");
        assert!(a.warnings.is_empty());
    }

    #[test]
    fn header_names_are_matched_case_insensitively() {
        let mut r = good();
        for (n, _) in r.headers.iter_mut() {
            *n = n.to_ascii_lowercase();
        }
        assert!(check(&r).is_ok());
    }

    fn expect_mismatch(r: &ReceivedRequest, what: &str) {
        let err = check(r).expect_err(what);
        assert_eq!(err.code(), "SIGNATURE_MISMATCH", "{what}: {err}");
        assert_eq!(err.status(), 401);
    }

    #[test]
    fn every_tampered_part_is_rejected() {
        let mut r = good();
        r.body = bytes::Bytes::from_static(br#"[{"id":"2"}]"#);
        expect_mismatch(&r, "body");

        let mut r = good();
        r.method = "POST".into();
        expect_mismatch(&r, "method");

        let mut r = good();
        r.path = "/v2/batch2".into();
        expect_mismatch(&r, "path");

        let mut r = good();
        r.query = "test=2".into();
        expect_mismatch(&r, "query");

        let mut r = good();
        set_header(&mut r, "X-SVC-TIMESTAMP", "2026-11-22T10:00:00.001Z");
        expect_mismatch(&r, "timestamp");

        // A different but known API key: the signature was made for the other one.
        let mut r = good();
        set_header(&mut r, "X-SVC-APIKEY", "other-key");
        let mut ks = keys();
        ks.insert("other-key".into(), Secret::new(REST));
        let err = verify(&r, &ks, &VerifyOptions::default(), now()).unwrap_err();
        assert_eq!(err.code(), "SIGNATURE_MISMATCH", "api key");

        // The algorithm and content type headers are checked for their exact value before the
        // signature, so tampering with them is refused too (with their own codes).
        let mut r = good();
        set_header(&mut r, "X-SVC-AUTH-ALGO", "hmacsha384");
        assert_eq!(check(&r).unwrap_err().code(), "INVALID_ALGORITHM");
        let mut r = good();
        set_header(&mut r, "Content-Type", "application/json; charset=utf-8");
        let err = check(&r).unwrap_err();
        assert_eq!(err.code(), "UNSUPPORTED_CONTENT_TYPE");
        assert_eq!(err.status(), 415);

        // Signed with another key.
        expect_mismatch(&signed_with(TS, "another-rest-key"), "key");
    }

    #[test]
    fn window_edges_are_inclusive_at_600_seconds() {
        let at = |offset_ms: i64| {
            let t = now() + chrono::Duration::milliseconds(offset_ms);
            check(&signed_with(&format_timestamp(t), REST))
        };
        assert!(at(600_000).is_ok());
        assert!(at(-600_000).is_ok());
        for off in [601_000, -601_000, 600_001, -600_001] {
            let err = at(off).unwrap_err();
            assert_eq!(err.code(), "TIMESTAMP_OUT_OF_WINDOW", "{off}");
            assert_eq!(err.status(), 401);
        }
        match at(-601_000).unwrap_err() {
            Rejection::TimestampOutOfWindow {
                skew_seconds,
                server_time,
                ..
            } => {
                assert_eq!(skew_seconds, -601);
                assert_eq!(server_time, now());
            }
            other => panic!("{other:?}"),
        }
        let msg = at(601_000).unwrap_err().to_string();
        assert!(msg.contains("601.000 s ahead of"), "{msg}");
        assert!(msg.contains("2026-11-22T10:00:00.000Z"), "{msg}");
    }

    #[test]
    fn signature_is_checked_before_the_window() {
        let old = format_timestamp(now() - chrono::Duration::hours(2));
        let r = signed_with(&old, "wrong-key");
        assert_eq!(check(&r).unwrap_err().code(), "SIGNATURE_MISMATCH");
    }

    #[test]
    fn other_rfc3339_forms_are_accepted_with_a_warning_but_not_the_php_sdks() {
        let a = check(&signed_with("2026-11-22T10:00:00Z", REST)).unwrap();
        assert_eq!(a.warnings.len(), 1);
        assert!(a.warnings[0].contains("2026-11-22T10:00:00.000Z"));
        // PHP's date('c'), as the vendor's PHP SDK sends it (docs/verification.md rule V3).
        let a = check(&signed_with("2026-11-22T10:00:00+00:00", REST)).unwrap();
        assert_eq!(a.warnings, Vec::<String>::new());
    }

    #[test]
    fn a_capture_is_read_with_its_own_prefix() {
        let mut r = signed_with("2026-11-22T10:00:00.000Z", REST);
        assert_eq!(request_prefix(&r).as_deref(), Some("SVC"));
        for (n, _) in &mut r.headers {
            *n = n.replace("X-SVC-", "x-klevu-");
        }
        assert_eq!(request_prefix(&r).as_deref(), Some("KLEVU"));
        r.headers.retain(|(n, _)| !n.starts_with("x-klevu"));
        assert_eq!(request_prefix(&r), None);
    }

    #[test]
    fn missing_and_duplicate_headers_are_named() {
        for name in [
            "X-SVC-TIMESTAMP",
            "X-SVC-APIKEY",
            "X-SVC-AUTH-ALGO",
            "Content-Type",
            "Authorization",
        ] {
            let mut r = good();
            r.headers.retain(|(n, _)| n != name);
            let err = check(&r).unwrap_err();
            assert_eq!(err.code(), "MISSING_HEADER");
            assert_eq!(err.status(), 400);
            assert!(err.to_string().contains(name), "{err}");

            let mut r = good();
            let dup = r.headers.iter().find(|(n, _)| n == name).unwrap().clone();
            r.headers.push((dup.0.to_ascii_lowercase(), dup.1));
            let err = check(&r).unwrap_err();
            assert_eq!(err.code(), "DUPLICATE_HEADER");
            assert!(err.to_string().contains(name), "{err}");
        }
    }

    #[test]
    fn malformed_authorization_unknown_key_and_bad_timestamp() {
        for bad in ["Basic abc", "Bearer", "Bearer ", "Bearer a b", "Bearer ***"] {
            let mut r = good();
            set_header(&mut r, "Authorization", bad);
            let err = check(&r).unwrap_err();
            assert_eq!(err.code(), "MALFORMED_AUTHORIZATION", "{bad}");
            assert_eq!(err.status(), 400);
        }
        let mut r = good();
        set_header(&mut r, "X-SVC-APIKEY", "nobody");
        let err = check(&r).unwrap_err();
        assert_eq!(err.code(), "UNKNOWN_API_KEY");
        assert!(err.to_string().contains("nobody"));

        let mut r = good();
        set_header(&mut r, "X-SVC-TIMESTAMP", "yesterday");
        let err = check(&r).unwrap_err();
        assert_eq!(err.code(), "INVALID_TIMESTAMP");
        assert_eq!(err.status(), 400);
    }

    #[test]
    fn prefix_is_a_setting() {
        let req = SignableRequest {
            header_prefix: "klevu",
            ..SignableRequest::new("PUT", "/v2/batch", "", TS, "pub-key", b"[]")
        };
        let s = sign(&req, &Secret::new(REST)).unwrap();
        let r = ReceivedRequest::from_signed(&req, &s.headers);
        let opts = VerifyOptions {
            header_prefix: "KLEVU".into(),
            ..Default::default()
        };
        assert!(verify(&r, &keys(), &opts, now()).is_ok());
        assert_eq!(check(&r).unwrap_err().code(), "MISSING_HEADER");
    }

    #[test]
    fn single_key_store_binds_an_api_key_when_given() {
        let any = SingleKey {
            api_key: None,
            secret: Secret::new(REST),
        };
        assert!(verify(&good(), &any, &VerifyOptions::default(), now()).is_ok());
        let other = SingleKey {
            api_key: Some("someone-else".into()),
            secret: Secret::new(REST),
        };
        let err = verify(&good(), &other, &VerifyOptions::default(), now()).unwrap_err();
        assert_eq!(err.code(), "UNKNOWN_API_KEY");
    }

    #[test]
    fn rejection_text_never_contains_the_key() {
        let err = check(&signed_with(TS, "wrong-key")).unwrap_err();
        let text = format!("{err} {err:?}");
        assert!(!text.contains(REST));
    }
}
