//! "Signature does not match": which client mistake, or pair of mistakes, reproduces the
//! provided signature, and when none does, what is known (docs/diagnosis.md).
//!
//! [`diagnose`] rebuilds the signing text the verifier expects from the received request, then
//! signs variants of it: every known mistake alone ([`catalogue`]), then every pair that can
//! co-occur, then the vendor's PHP SDK form with one more ([`search`]). A mistake is named only
//! when its signature equals the one the client sent; the smallest explanation is reported.
//! When nothing matches, [`Diagnosis::conclusion`] says what is known ([`conclusion`]).

pub mod body;
pub mod catalogue;
pub mod conclusion;
pub mod head;
pub mod mistake;
pub mod search;
pub mod signing;

use std::fmt::Write as _;

use bytes::Bytes;

pub use catalogue::{php_sdk_mistakes, CATALOGUE};
use mistake::Context;
pub use mistake::{Arg, Def, Mistake, Part};
pub use search::{DEFAULT_BUDGET, DEFAULT_CLOCK_BUDGET, SERVER_CLOCK_UNITS};
pub use signing::{Encoding, How, Signing};

use super::canonical::LineLabel;
use super::form::SigningForm;
use super::received::ReceivedRequest;
use super::request::{HeaderNames, SignableRequest, AUTHORIZATION_HEADER, CONTENT_TYPE_HEADER};
use super::secret::Secret;
use super::sign::{encode_signature, hmac_sha384};
use super::visible::{escape_visible, visible_lines};
use head::Head;
use search::{search, Problem};

/// Largest body shown whole in a text report (bytes).
pub const SHOWN_BODY_MAX: usize = 64 * 1024;

/// Inputs a diagnosis can use beyond the request and its key.
#[derive(Clone, Debug, Default)]
pub struct DiagnoseOptions {
    /// The other accounts the verifier knows (API key, REST key), to recognise a signature made
    /// with another account's key.
    pub other_accounts: Vec<(String, Secret)>,
    /// Bytes hashed at most ([`DEFAULT_BUDGET`] when `None`).
    pub budget_bytes: Option<u64>,
    /// Bytes the widening search for a clock read twice may hash ([`DEFAULT_CLOCK_BUDGET`]
    /// when `None`): a budget of work, not of time, so the same request always gets the same
    /// answer (docs/diagnosis.md D1).
    pub clock_budget_bytes: Option<u64>,
    /// Units of the timestamp's precision the clock search reaches each way at most, whatever
    /// its budget allows (`None`: no cap). The server diagnoses every mismatch it answers and
    /// caps it at [`SERVER_CLOCK_UNITS`]; `verify` and the Diagnose view do not (docs/diagnosis.md
    /// D9).
    pub clock_units_max: Option<u32>,
    /// The file a curl command read its body from with `-d @file` (which drops its CR and LF
    /// bytes), as written: tried as the body that was signed.
    pub curl_file: Option<Vec<u8>>,
    /// The client's own signing text, when at hand (compared byte by byte when nothing matches).
    pub client_text: Option<Vec<u8>>,
    /// The key the client signed with, when known (signscope is the client).
    pub client_key: Option<Secret>,
    /// Threads that hash variants at once (0 or 1: the caller's thread only). `verify` uses
    /// every core; the server one per diagnosis (it runs several at once).
    pub threads: usize,
}

/// The outcome of a diagnosis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnosis {
    /// The seven short lines the verifier signs, each with its LF.
    pub expected_head: String,
    /// The body it signs after them (shared with the request, not copied).
    pub body: Bytes,
    /// The signature of that text with the given key.
    pub expected_signature: String,
    /// The signature the client sent.
    pub provided_signature: String,
    /// The smallest explanation found: the mistakes that together reproduce the signature.
    pub findings: Vec<Mistake>,
    /// `Some("php-sdk")` when the explanation is exactly the vendor's PHP SDK signing form.
    pub client_form: Option<&'static str>,
    /// Bytes hashed by the search.
    pub hashed_bytes: u64,
    /// Signatures the search computed, in all and by round (exact, singles, pairs, the PHP
    /// SDK form with one more).
    pub signatures: u64,
    pub round_signatures: [u64; 4],
    /// The search stopped at its budget before it was complete.
    pub cut_short: bool,
    /// How far from the timestamp header's instant a clock read twice was tried, in ms each
    /// way (0 when the timestamp allows no such search).
    pub clock_reach_ms: i64,
    /// The step of that search in ms: the timestamp's precision (1, or 1000 for whole seconds).
    pub clock_step_ms: i64,
    /// Why no search ran (e.g. "server busy"), when it did not.
    pub skipped: Option<String>,
    /// What is known when nothing reproduces the signature, most telling first.
    pub conclusion: Vec<String>,
}

impl Diagnosis {
    /// A diagnosis that did not search (the verdict and the expected text only).
    pub fn skipped(
        req: &ReceivedRequest,
        header_prefix: &str,
        key: &Secret,
        provided_signature: &str,
        reason: &str,
    ) -> Diagnosis {
        let (head, _) = expected(req, header_prefix);
        let digest = hmac_sha384(key.expose().as_bytes(), &[head.as_bytes(), &req.body]);
        Diagnosis {
            expected_head: head,
            body: req.body.clone(),
            expected_signature: encode_signature(&digest),
            provided_signature: provided_signature.trim().to_string(),
            skipped: Some(reason.to_string()),
            conclusion: vec![format!("diagnosis skipped: {reason}")],
            ..Diagnosis::default()
        }
    }

    /// The exact text the verifier signs.
    pub fn expected_canonical(&self) -> Vec<u8> {
        [self.expected_head.as_bytes(), &self.body].concat()
    }

    /// True when the provided signature is the expected one (constant-time).
    pub fn signature_matches(&self) -> bool {
        use subtle::ConstantTimeEq;
        self.expected_signature
            .as_bytes()
            .ct_eq(self.provided_signature.as_bytes())
            .into()
    }

    /// The ids of the findings.
    pub fn ids(&self) -> Vec<&'static str> {
        self.findings.iter().map(Mistake::code).collect()
    }

    /// One sentence: the explanation, or the first thing known.
    pub fn summary(&self) -> String {
        if self.signature_matches() {
            return "the provided signature is the expected one; nothing to diagnose".to_string();
        }
        if self.findings.is_empty() {
            return self.conclusion.first().cloned().unwrap_or_else(|| {
                "no known client mistake reproduces the provided signature".to_string()
            });
        }
        let php = php_part(&self.findings, &self.expected_head);
        let rest: Vec<String> = self
            .findings
            .iter()
            .filter(|m| !php.contains(m))
            .map(Mistake::sentence)
            .collect();
        if php.is_empty() {
            return rest.join("; and ");
        }
        let (path, query) = path_and_query(&self.expected_head);
        let form = format!(
            "the client {}: {} (the verifier expects the documented form, docs/signing.md)",
            "signed as the vendor's PHP SDK signs",
            SigningForm::PhpSdk.differences(path, query).join(" and ")
        );
        if rest.is_empty() {
            form
        } else {
            format!("{form}; and {}", rest.join("; and "))
        }
    }

    /// A multi-line report: the summary, then the details.
    pub fn report(&self) -> String {
        format!("{}\n{}", self.summary(), self.details())
    }

    /// The expected text made visible line by line, without copying it; a body over
    /// [`SHOWN_BODY_MAX`] bytes shows its first and last 4 KiB around a line saying how much
    /// is left out (`verify --output json` carries the whole text).
    pub fn expected_lines(&self) -> Vec<String> {
        let mut lines = visible_lines(self.expected_head.as_bytes());
        lines.pop();
        match shown_edges(&self.body) {
            None => lines.extend(visible_lines(&self.body)),
            Some((first, last)) => {
                lines.extend(visible_lines(first));
                lines.push(format!(
                    "… {} bytes of the body not shown …",
                    self.body.len() - first.len() - last.len()
                ));
                lines.extend(visible_lines(last));
            }
        }
        lines
    }

    /// The expected text escaped on one line (`\n` marks each LF), as the local server's
    /// `canonical:` debug entry carries it: whole up to a body of [`SHOWN_BODY_MAX`] bytes;
    /// a larger body as its first and last 4 KiB around
    /// `…[N of the body's M bytes not shown]…`, so the answer stays small.
    pub fn expected_escaped(&self) -> String {
        match shown_edges(&self.body) {
            None => escape_visible(&self.expected_canonical()),
            Some((first, last)) => format!(
                "{}{}…[{} of the body's {} bytes not shown]…{}",
                escape_visible(self.expected_head.as_bytes()),
                escape_visible(first),
                self.body.len() - first.len() - last.len(),
                self.body.len(),
                escape_visible(last)
            ),
        }
    }

    /// The report without its summary line.
    pub fn details(&self) -> String {
        self.details_with(false)
    }

    /// [`Diagnosis::details`] with each line of the expected text labelled (METHOD, PATH,
    /// QUERY, TIMESTAMP, APIKEY, AUTH-ALGO, CONTENT-TYPE, BODY), as the Diagnose view shows it.
    pub fn details_labelled(&self) -> String {
        self.details_with(true)
    }

    fn details_with(&self, labelled: bool) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "expected signature: {}", self.expected_signature);
        let _ = writeln!(out, "provided signature: {}", self.provided_signature);
        for m in &self.findings {
            let _ = writeln!(out, "  {}: {}", m.code(), m.sentence());
        }
        let unexplained = self.findings.is_empty() && !self.signature_matches();
        if unexplained {
            for c in self.conclusion.iter().skip(1) {
                let _ = writeln!(out, "note: {c}");
            }
        }
        if unexplained || labelled {
            out.push_str("expected signing text (\\n marks each LF; nothing follows the body):\n");
            for (i, line) in self.expected_lines().into_iter().enumerate() {
                out.push_str("  ");
                if labelled {
                    let label = LineLabel::ALL[i.min(LineLabel::ALL.len() - 1)];
                    let _ = write!(out, "{:<13}", label.as_str());
                }
                out.push_str(&line);
                out.push('\n');
            }
        }
        out
    }
}

/// The first and last 4 KiB of a body over [`SHOWN_BODY_MAX`] bytes (cut at UTF-8 character
/// boundaries), or `None` when it is shown whole.
fn shown_edges(b: &[u8]) -> Option<(&[u8], &[u8])> {
    const EDGE: usize = 4096;
    if b.len() <= SHOWN_BODY_MAX {
        return None;
    }
    let continuation = |i: usize| b.get(i).is_some_and(|c| c & 0xC0 == 0x80);
    let mut end = EDGE;
    while end > EDGE - 4 && continuation(end) {
        end -= 1;
    }
    let mut start = b.len() - EDGE;
    while start < b.len() - EDGE + 4 && continuation(start) {
        start += 1;
    }
    Some((&b[..end], &b[start..]))
}

/// The mistakes of the PHP SDK form within `findings` (empty unless all of the form's are there).
fn php_part(findings: &[Mistake], head: &str) -> Vec<Mistake> {
    let (path, query) = path_and_query(head);
    let form = php_sdk_mistakes(path, query);
    if !form.is_empty() && form.iter().all(|m| findings.contains(m)) {
        form
    } else {
        Vec::new()
    }
}

/// The seven short lines the verifier signs for a received request (each with its LF), as
/// [`diagnose`] rebuilds them: header values as received, a missing header as empty.
pub fn expected_head(req: &ReceivedRequest, header_prefix: &str) -> String {
    expected(req, header_prefix).0
}

/// The path and query lines of an expected head.
fn path_and_query(head: &str) -> (&str, &str) {
    let mut lines = head.split('\n').skip(1);
    let path = lines.next().unwrap_or("");
    (path, lines.next().unwrap_or(""))
}

/// The expected head and the four signed header values of a received request.
fn expected(req: &ReceivedRequest, header_prefix: &str) -> (String, [String; 4]) {
    let names = HeaderNames::for_prefix(header_prefix);
    let values = [
        req.header_text(&names.timestamp),
        req.header_text(&names.api_key),
        req.header_text(&names.auth_algo),
        req.header_text(CONTENT_TYPE_HEADER),
    ];
    let signable = SignableRequest {
        method: &req.method,
        path: &req.path,
        query: &req.query,
        header_prefix,
        timestamp: &values[0],
        api_key: &values[1],
        auth_algo: &values[2],
        content_type: &values[3],
        body: b"",
    };
    (signable.canonical().head().to_string(), values)
}

/// The order the four signed headers came in (by their index in the required order: timestamp,
/// API key, algorithm, Content-Type), when each came exactly once.
fn sent_order(req: &ReceivedRequest, header_prefix: &str) -> Option<[u8; 4]> {
    let names = HeaderNames::for_prefix(header_prefix);
    let wanted = [
        names.timestamp.as_str(),
        names.api_key.as_str(),
        names.auth_algo.as_str(),
        CONTENT_TYPE_HEADER,
    ];
    let mut order = Vec::with_capacity(4);
    for (name, _) in &req.headers {
        if let Some(i) = wanted.iter().position(|w| w.eq_ignore_ascii_case(name)) {
            if order.contains(&(i as u8)) {
                return None;
            }
            order.push(i as u8);
        }
    }
    order.try_into().ok()
}

/// Recompute the expected signing text of a received request and find the smallest set of
/// client mistakes that reproduces `provided_signature` (the token after `Bearer `). Header
/// names are read case-insensitively; a missing header counts as an empty value.
pub fn diagnose(
    req: &ReceivedRequest,
    header_prefix: &str,
    key: &Secret,
    provided_signature: &str,
) -> Diagnosis {
    diagnose_with(
        req,
        header_prefix,
        key,
        provided_signature,
        &DiagnoseOptions::default(),
    )
}

/// [`diagnose`] with other accounts, a budget, and the client's own text or key.
pub fn diagnose_with(
    req: &ReceivedRequest,
    header_prefix: &str,
    key: &Secret,
    provided_signature: &str,
    opts: &DiagnoseOptions,
) -> Diagnosis {
    let (head_text, values) = expected(req, header_prefix);
    let base = Head::expected(&req.method, &req.path, &req.query, header_prefix, values);
    let head = head_text.as_bytes();
    debug_assert_eq!(base.bytes(), head);
    let body: &[u8] = &req.body;
    let key_bytes = key.expose().as_bytes();
    let expected_digest = hmac_sha384(key_bytes, &[head, body]);
    let expected_signature = encode_signature(&expected_digest);
    let provided = provided_signature.trim();
    let mut d = Diagnosis {
        expected_head: head_text.clone(),
        body: req.body.clone(),
        expected_signature,
        provided_signature: provided.to_string(),
        ..Diagnosis::default()
    };
    if d.signature_matches() {
        return d;
    }
    let others: Vec<(String, Secret)> = opts
        .other_accounts
        .iter()
        .filter(|(name, _)| name != &base.values[1])
        .cloned()
        .collect();
    let host = req
        .header("Host")
        .and_then(|h| std::str::from_utf8(h).ok())
        .map(str::trim);
    let problem = Problem {
        ctx: Context {
            base: &base,
            body,
            key: key.expose(),
            others: &others,
            host,
            sent_order: sent_order(req, header_prefix),
            clock_reach: 0,
            curl_file: opts.curl_file.as_deref(),
        },
        key: key_bytes,
        provided,
        budget: opts.budget_bytes.unwrap_or(DEFAULT_BUDGET),
        clock_budget: opts.clock_budget_bytes.unwrap_or(DEFAULT_CLOCK_BUDGET),
        clock_units_max: opts.clock_units_max.map_or(i64::MAX, i64::from),
        threads: opts.threads.max(1),
    };
    let outcome = search(&problem);
    d.findings = outcome.findings;
    d.hashed_bytes = outcome.hashed;
    d.signatures = outcome.signatures;
    d.round_signatures = outcome.round_signatures;
    d.cut_short = outcome.cut_short;
    d.clock_reach_ms = outcome.clock_reach_ms;
    d.clock_step_ms = head::clock_unit_ms(&base.values[0]).unwrap_or(0);
    if !d.findings.is_empty() {
        let php = php_part(&d.findings, &head_text);
        if !php.is_empty() && php.len() == d.findings.len() {
            d.client_form = Some(SigningForm::PhpSdk.name());
        }
        return d;
    }
    d.conclusion = conclude(&d, key, opts, outcome.skipped_tree);
    d
}

/// What is known when nothing reproduced the signature, most telling first. It describes what
/// was found and how far the search went; it tells no one what to do.
fn conclude(
    d: &Diagnosis,
    key: &Secret,
    opts: &DiagnoseOptions,
    skipped_tree: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    let head = d.expected_head.as_bytes();
    if !search::decodes_to_a_digest(&d.provided_signature) {
        out.push(format!(
            "the provided signature ({} characters) decodes to no HMAC digest (48 bytes for HMAC-SHA384) in base64 or hex, so it is not the signature of any text",
            d.provided_signature.len()
        ));
    }
    let clock = clock_words(d.clock_reach_ms, d.clock_step_ms);
    if let Some(client) = &opts.client_text {
        out.extend(conclusion::another_request(head, client));
        out.push(conclusion::compare_texts(
            head,
            &d.body,
            client,
            key.expose().as_bytes(),
            opts.client_key.as_ref().map(|k| k.expose().as_bytes()),
        ));
    } else if out.is_empty() {
        if d.cut_short {
            out.push(format!(
                "no client mistake or change after signing that was tried reproduces the provided signature; the search was cut short after hashing {} bytes (its budget)",
                d.hashed_bytes
            ));
        } else {
            out.push(format!(
                "no known client mistake or change after signing, alone or in pairs, reproduces the provided signature{clock}: the client's signing text differs from the expected one in a way not catalogued, or its REST key differs (the client's own signing text, given to verify --client-text or the Diagnose view, tells which)"
            ));
        }
    }
    if d.cut_short && opts.client_text.is_some() {
        out.push(format!(
            "the search was cut short after hashing {} bytes (its budget)",
            d.hashed_bytes
        ));
    }
    if skipped_tree {
        out.push(format!(
            "sorted-key bodies were not tried: the body is over {} bytes",
            body::TREE_MAX
        ));
    }
    out.extend(conclusion::invisible_body_bytes(&d.body));
    out
}

/// How far the clock search looked, as the end of a sentence ("" when it could not run), in
/// the steps it took: a millisecond timestamp is searched 1 ms at a time even when the reach is
/// a whole number of seconds.
fn clock_words(reach_ms: i64, step_ms: i64) -> String {
    match (reach_ms, step_ms) {
        (0, _) => String::new(),
        (ms, 1000) => format!(
            " (a clock read twice was tried up to {} s either side of the timestamp header, in 1 s steps)",
            ms / 1000
        ),
        (ms, _) => format!(
            " (a clock read twice was tried up to {ms} ms either side of the timestamp header, in 1 ms steps)"
        ),
    }
}

/// The token of an `Authorization: Bearer <token>` header of a received request, if present
/// (convenience for callers that diagnose a captured request).
pub fn provided_signature(req: &ReceivedRequest) -> Option<String> {
    let v = req.header(AUTHORIZATION_HEADER)?;
    let text = std::str::from_utf8(v).ok()?;
    let (scheme, token) = text.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("Bearer")
        .then(|| token.trim().to_string())
}

#[cfg(test)]
mod tests;
