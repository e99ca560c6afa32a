//! Server configuration: accounts, limits, timeouts and the (injectable) clock.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::core::{Secret, SigningForm, DEFAULT_HEADER_PREFIX};

use crate::core::demo::{DEMO_API_KEY, DEMO_REST_KEY};

/// Where the server reads "now" from. Tests inject a fixed or manually driven clock to probe
/// the edges of the timestamp window.
pub type Clock = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

/// The system clock.
pub fn system_clock() -> Clock {
    Arc::new(Utc::now)
}

/// A clock that always reads `t`.
pub fn fixed_clock(t: DateTime<Utc>) -> Clock {
    Arc::new(move || t)
}

/// A clock a test can move: `set` changes what the server reads from then on.
#[derive(Clone)]
pub struct ManualClock(Arc<Mutex<DateTime<Utc>>>);

impl ManualClock {
    pub fn new(t: DateTime<Utc>) -> Self {
        ManualClock(Arc::new(Mutex::new(t)))
    }

    pub fn set(&self, t: DateTime<Utc>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = t;
    }

    pub fn now(&self) -> DateTime<Utc> {
        *self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The [`Clock`] to put in a [`ServerConfig`].
    pub fn clock(&self) -> Clock {
        let this = self.clone();
        Arc::new(move || this.now())
    }
}

/// Default request body limit: the vendor's documented 2 MB (`docs/server.md` rule R4).
pub const DEFAULT_MAX_BODY: usize = crate::core::indexing_body::DOCUMENTED_MAX_BODY;
/// Default number of stored requests and of stored events kept for inspection.
pub const DEFAULT_MAX_STORED: usize = 10_000;
/// Default cap on the bytes of bodies and events kept for inspection (all records together).
pub const DEFAULT_MAX_STORED_BYTES: usize = 64 * 1024 * 1024;
/// Default bytes budget shared by all bodies being read or handled at once (as much as 64
/// bodies of the default limit).
pub const DEFAULT_BODY_BUDGET_BYTES: usize = 64 * DEFAULT_MAX_BODY;
/// Default total time a client has to send its body.
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// Default minimum average rate of a body, in bytes per second, after the grace period.
pub const DEFAULT_MIN_BODY_RATE: u64 = 1024;
/// Default grace period before the minimum rate applies.
pub const DEFAULT_BODY_RATE_GRACE: Duration = Duration::from_secs(2);
/// Largest `--clock-skew` accepted, in seconds (10 years of 365.25 days).
pub const MAX_CLOCK_SKEW_SECONDS: i64 = 315_576_000;
/// Default bytes shared by all inspection answers being written (`docs/server.md` rule L5).
pub const DEFAULT_ANSWER_BUDGET_BYTES: usize = 16 * 1024 * 1024;
/// Default time a client may leave the server unable to write to it before its connection is
/// closed (`docs/server.md` rule L8).
pub const DEFAULT_WRITE_STALL_TIMEOUT: Duration = Duration::from_secs(30);
/// Default number of live stream subscribers (`docs/server.md` rule W3).
pub const DEFAULT_MAX_STREAMS: usize = 64;
/// Most connections served at once (and never more than the open-files limit less a reserve:
/// `docs/server.md` rule L12).
pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;
/// Default number of signature diagnoses run at once (docs/diagnosis.md).
pub const DEFAULT_MAX_DIAGNOSES: usize = 2;
/// Default timestamp window in seconds either side of server time (`docs/verification.md` rule V2).
pub const DEFAULT_WINDOW_SECONDS: i64 = 600;

/// Everything the server needs to run. Build it with [`ServerConfig::demo`] or
/// [`ServerConfig::new`] and adjust the public fields.
#[derive(Clone)]
pub struct ServerConfig {
    /// Public API key -> REST key.
    pub accounts: HashMap<String, Secret>,
    /// Vendor header prefix (`SVC` by default, `KLEVU` for the real service): every account
    /// answers to it.
    pub header_prefix: String,
    /// Further prefixes an account answers to, by public API key (`docs/server.md` rule R12):
    /// the demo account answers to `SVC` and `KLEVU`.
    pub account_prefixes: HashMap<String, Vec<String>>,
    /// Largest accepted request body in bytes; larger bodies answer 413.
    pub max_body: usize,
    /// Added to the clock's reading before checking timestamps (simulates a skewed server).
    pub clock_skew_seconds: i64,
    /// How many requests, and how many events, the inspection store keeps (oldest dropped).
    pub max_stored: usize,
    /// Cap on the bytes kept by the inspection store (bodies and events together).
    pub max_stored_bytes: usize,
    /// Where "now" comes from.
    pub clock: Clock,
    /// Accepted timestamp distance from server time, in seconds (600).
    pub window_seconds: i64,
    /// A client must send its complete request head within this time (also the idle
    /// keep-alive timeout); otherwise the connection is closed.
    pub header_read_timeout: Duration,
    /// A client must send its complete body within this time; otherwise it gets 408.
    pub body_timeout: Duration,
    /// After `body_rate_grace`, a body must have arrived at an average of at least this many
    /// bytes per second; otherwise it gets 408 (0: no minimum).
    pub min_body_rate: u64,
    /// How long a body may take before the minimum rate applies.
    pub body_rate_grace: Duration,
    /// Largest request head (request line plus headers) in bytes; larger ones get 431.
    pub max_header_bytes: usize,
    /// Serve `PUT /_bench/unverified`, which does everything `PUT /v2/batch` does except
    /// verifying the signature (to measure the cost of verification). Off by default.
    pub unverified_route: bool,
    /// How long [`super::Server::shutdown`] waits for open requests to finish.
    pub shutdown_grace: Duration,
    /// Forward every indexing request, once verified and recorded, to this base URL and answer
    /// with the upstream's answer (`docs/server.md` rule W5).
    pub forward_indexing: Option<String>,
    /// The same for collector requests.
    pub forward_analytics: Option<String>,
    /// Forwarding can be changed while the server runs ([`super::AppState::set_forwarding`]):
    /// the workbench's in-process server forwards per profile and follows a profile switch
    /// (`docs/server.md` rule W10). Off for `serve`, whose routes then carry no forwarding
    /// layer unless a forward URL is given.
    pub forward_switchable: bool,
    /// Bytes shared by all request bodies being read or handled at once: each body takes its
    /// bytes as they arrive (a stalled client holds only what it sent) and gives them back once
    /// answered; a body that finds the budget spent waits (within its deadline). At least
    /// `max_body`.
    pub body_budget_bytes: usize,
    /// Signing forms accepted besides the documented one (`--accept-form php-sdk`); a request
    /// accepted in one of them is recorded with a warning naming the form (docs/signing.md).
    pub accept_forms: Vec<SigningForm>,
    /// At most this many signature diagnoses run at once; a mismatch that finds none free is
    /// answered with its verdict and expected text, and "diagnosis skipped: server busy".
    pub max_diagnoses: usize,
    /// Threads one diagnosis hashes on at most (`None`: every core when it is the only one
    /// running, docs/diagnosis.md D7). `check` judges a window of requests on every core
    /// already, so its judges diagnose each mismatch on one thread (no threads started per
    /// round of the search, none competing with the other judges).
    pub diagnosis_threads: Option<usize>,
    /// Bytes shared by all inspection answers (pages) being written: each chunk takes its
    /// bytes before it is made and gives them back once written (`docs/server.md` rule L5).
    pub answer_budget_bytes: usize,
    /// A connection the server cannot write to for this long (its client stopped reading) is
    /// closed (`docs/server.md` rule L8).
    pub write_stall_timeout: Duration,
    /// Most live stream subscribers at once; past it a stream request answers 503.
    pub max_streams: usize,
    /// Most connections at once (under the open-files limit less a reserve); past it the
    /// oldest idle keep-alive connection is closed, or, when all are busy, the new one is
    /// answered 503 and closed (`docs/server.md` rule L12).
    pub max_connections: usize,
    /// Host names served besides IP addresses and `localhost` (`serve --allow-host`); a
    /// request naming another host is refused (`docs/server.md` rule L9).
    pub allowed_hosts: Vec<String>,
}

impl ServerConfig {
    /// A server with no accounts (every signed request is rejected as UNKNOWN_API_KEY).
    pub fn new() -> Self {
        ServerConfig {
            accounts: HashMap::new(),
            header_prefix: DEFAULT_HEADER_PREFIX.to_string(),
            account_prefixes: HashMap::new(),
            max_body: DEFAULT_MAX_BODY,
            clock_skew_seconds: 0,
            max_stored: DEFAULT_MAX_STORED,
            max_stored_bytes: DEFAULT_MAX_STORED_BYTES,
            clock: system_clock(),
            window_seconds: DEFAULT_WINDOW_SECONDS,
            header_read_timeout: Duration::from_secs(30),
            body_timeout: DEFAULT_BODY_TIMEOUT,
            min_body_rate: DEFAULT_MIN_BODY_RATE,
            body_rate_grace: DEFAULT_BODY_RATE_GRACE,
            max_header_bytes: 32 * 1024,
            unverified_route: false,
            shutdown_grace: Duration::from_secs(5),
            forward_indexing: None,
            forward_analytics: None,
            forward_switchable: false,
            body_budget_bytes: DEFAULT_BODY_BUDGET_BYTES,
            accept_forms: Vec::new(),
            max_diagnoses: DEFAULT_MAX_DIAGNOSES,
            diagnosis_threads: None,
            answer_budget_bytes: DEFAULT_ANSWER_BUDGET_BYTES,
            write_stall_timeout: DEFAULT_WRITE_STALL_TIMEOUT,
            max_streams: DEFAULT_MAX_STREAMS,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            allowed_hosts: Vec::new(),
        }
    }

    /// A server with the demo account ([`DEMO_API_KEY`] / [`DEMO_REST_KEY`]), which answers to
    /// the prefix `SVC` and to the real accounts' `KLEVU` (`docs/server.md` rule R12).
    pub fn demo() -> Self {
        let mut cfg = ServerConfig::new().with_account(DEMO_API_KEY, Secret::new(DEMO_REST_KEY));
        cfg.account_prefixes.insert(
            DEMO_API_KEY.to_string(),
            vec![DEFAULT_HEADER_PREFIX.to_string(), "KLEVU".to_string()],
        );
        cfg
    }

    /// The prefixes the account `api_key` answers to, upper case, the server's own first.
    pub fn prefixes_for(&self, api_key: &str) -> Vec<String> {
        let mut out = vec![self.header_prefix.to_ascii_uppercase()];
        for p in self.account_prefixes.get(api_key).into_iter().flatten() {
            let p = p.to_ascii_uppercase();
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }

    /// Whether a known account `api_key` answers to `prefix` (any case).
    pub fn answers_to(&self, api_key: &str, prefix: &str) -> bool {
        self.accounts.contains_key(api_key)
            && self
                .prefixes_for(api_key)
                .iter()
                .any(|p| p.eq_ignore_ascii_case(prefix))
    }

    /// Add (or replace) an account.
    pub fn with_account(mut self, api_key: impl Into<String>, rest_key: Secret) -> Self {
        self.accounts.insert(api_key.into(), rest_key);
        self
    }

    /// The server's current time: the clock plus the configured skew (a skew that would leave
    /// chrono's range is not added; [`ServerConfig::check`] refuses it before the server starts).
    pub fn now(&self) -> DateTime<Utc> {
        let now = (self.clock)();
        chrono::Duration::try_seconds(self.clock_skew_seconds)
            .and_then(|skew| now.checked_add_signed(skew))
            .unwrap_or(now)
    }

    /// Why this configuration cannot run.
    pub fn check(&self) -> Result<(), ConfigError> {
        check_clock_skew(self.clock_skew_seconds)
    }
}

/// A clock skew of more than ten years either way is refused: it is a typo (milliseconds for
/// seconds), and far enough out it would push the server's time out of range.
pub fn check_clock_skew(seconds: i64) -> Result<(), ConfigError> {
    if seconds.unsigned_abs() > MAX_CLOCK_SKEW_SECONDS as u64 {
        return Err(ConfigError::ClockSkew(seconds));
    }
    Ok(())
}

/// A server configuration that cannot run (one sentence naming the fix).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("--clock-skew {0} is more than ten years ({MAX_CLOCK_SKEW_SECONDS} seconds) either way; give the skew in seconds")]
    ClockSkew(i64),
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig::new()
    }
}

impl fmt::Debug for ServerConfig {
    /// Never shows a REST key: accounts are listed by public key only.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut keys: Vec<&String> = self.accounts.keys().collect();
        keys.sort();
        f.debug_struct("ServerConfig")
            .field("accounts", &keys)
            .field("header_prefix", &self.header_prefix)
            .field("account_prefixes", &self.account_prefixes)
            .field("max_body", &self.max_body)
            .field("clock_skew_seconds", &self.clock_skew_seconds)
            .field("max_stored", &self.max_stored)
            .field("max_stored_bytes", &self.max_stored_bytes)
            .field("window_seconds", &self.window_seconds)
            .field("header_read_timeout", &self.header_read_timeout)
            .field("body_timeout", &self.body_timeout)
            .field("max_header_bytes", &self.max_header_bytes)
            .field("unverified_route", &self.unverified_route)
            .field("min_body_rate", &self.min_body_rate)
            .field("body_rate_grace", &self.body_rate_grace)
            .field("body_budget_bytes", &self.body_budget_bytes)
            .field("accept_forms", &self.accept_forms)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn debug_never_shows_rest_keys() {
        let cfg = ServerConfig::demo().with_account("acme", Secret::new("very-secret-rest-key"));
        let text = format!("{cfg:?}");
        assert!(text.contains("acme"), "{text}");
        assert!(!text.contains("very-secret-rest-key"), "{text}");
        assert!(!text.contains(DEMO_REST_KEY), "{text}");
    }

    #[test]
    fn skew_is_added_to_the_clock() {
        let t = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
        let mut cfg = ServerConfig::demo();
        cfg.clock = fixed_clock(t);
        cfg.clock_skew_seconds = -30;
        assert_eq!(cfg.now(), t - chrono::Duration::seconds(30));
        let manual = ManualClock::new(t);
        cfg.clock = manual.clock();
        manual.set(t + chrono::Duration::seconds(5));
        assert_eq!(cfg.now(), t - chrono::Duration::seconds(25));
    }

    #[test]
    fn skews_beyond_ten_years_are_refused_and_never_panic() {
        let t = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
        let mut cfg = ServerConfig::demo();
        cfg.clock = fixed_clock(t);
        for ok in [0, 315_576_000, -315_576_000, 86_400] {
            cfg.clock_skew_seconds = ok;
            assert_eq!(cfg.check(), Ok(()), "{ok}");
        }
        for bad in [
            315_576_001,
            -315_576_001,
            300_000_000_000,
            i64::MAX,
            i64::MIN,
        ] {
            cfg.clock_skew_seconds = bad;
            let err = cfg.check().unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("--clock-skew {bad} is more than ten years")),
                "{err}"
            );
            assert!(!err.contains('\n'));
            // Reading the time with such a skew does not panic either.
            let _ = cfg.now();
        }
    }
}
