//! Server configuration: accounts, limits, timeouts and the (injectable) clock.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::core::{Secret, SigningForm, DEFAULT_HEADER_PREFIX};

use super::{DEMO_API_KEY, DEMO_REST_KEY};

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
pub const DEFAULT_MAX_BODY: usize = 2 * 1024 * 1024;
/// Default number of stored requests and of stored events kept for inspection.
pub const DEFAULT_MAX_STORED: usize = 10_000;
/// Default cap on the bytes of bodies and events kept for inspection (all records together).
pub const DEFAULT_MAX_STORED_BYTES: usize = 64 * 1024 * 1024;
/// Default number of bodies handled at once.
pub const DEFAULT_MAX_IN_FLIGHT: usize = 64;

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
    /// Vendor header prefix (`SVC` by default, `KLEVU` for the real service).
    pub header_prefix: String,
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
    /// Largest request head (request line plus headers) in bytes; larger ones get 431.
    pub max_header_bytes: usize,
    /// Serve `PUT /_bench/unverified`, which does everything `PUT /v2/batch` does except
    /// verifying the signature (to measure the cost of verification). Off by default.
    pub unverified_route: bool,
    /// How long [`super::RunningServer::shutdown`] waits for open requests to finish.
    pub shutdown_grace: Duration,
    /// At most this many request bodies are read and handled at once (others wait their turn),
    /// so memory stays bounded by about `max_in_flight * max_body` plus the store's cap.
    pub max_in_flight: usize,
    /// Signing forms accepted besides the documented one (`--accept-form php-sdk`); a request
    /// accepted in one of them is recorded with a warning naming the form (docs/signing.md).
    pub accept_forms: Vec<SigningForm>,
    /// At most this many signature diagnoses run at once; a mismatch that finds none free is
    /// answered with its verdict and expected text, and "diagnosis skipped: server busy".
    pub max_diagnoses: usize,
}

impl ServerConfig {
    /// A server with no accounts (every signed request is rejected as UNKNOWN_API_KEY).
    pub fn new() -> Self {
        ServerConfig {
            accounts: HashMap::new(),
            header_prefix: DEFAULT_HEADER_PREFIX.to_string(),
            max_body: DEFAULT_MAX_BODY,
            clock_skew_seconds: 0,
            max_stored: DEFAULT_MAX_STORED,
            max_stored_bytes: DEFAULT_MAX_STORED_BYTES,
            clock: system_clock(),
            window_seconds: DEFAULT_WINDOW_SECONDS,
            header_read_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_secs(30),
            max_header_bytes: 32 * 1024,
            unverified_route: false,
            shutdown_grace: Duration::from_secs(5),
            max_in_flight: DEFAULT_MAX_IN_FLIGHT,
            accept_forms: Vec::new(),
            max_diagnoses: DEFAULT_MAX_DIAGNOSES,
        }
    }

    /// A server with the demo account ([`DEMO_API_KEY`] / [`DEMO_REST_KEY`]) and prefix `SVC`.
    pub fn demo() -> Self {
        ServerConfig::new().with_account(DEMO_API_KEY, Secret::new(DEMO_REST_KEY))
    }

    /// Add (or replace) an account.
    pub fn with_account(mut self, api_key: impl Into<String>, rest_key: Secret) -> Self {
        self.accounts.insert(api_key.into(), rest_key);
        self
    }

    /// The server's current time: the clock plus the configured skew.
    pub fn now(&self) -> DateTime<Utc> {
        (self.clock)() + chrono::Duration::seconds(self.clock_skew_seconds)
    }
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
            .field("max_body", &self.max_body)
            .field("clock_skew_seconds", &self.clock_skew_seconds)
            .field("max_stored", &self.max_stored)
            .field("max_stored_bytes", &self.max_stored_bytes)
            .field("window_seconds", &self.window_seconds)
            .field("header_read_timeout", &self.header_read_timeout)
            .field("body_timeout", &self.body_timeout)
            .field("max_header_bytes", &self.max_header_bytes)
            .field("unverified_route", &self.unverified_route)
            .field("max_in_flight", &self.max_in_flight)
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
}
