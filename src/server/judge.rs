//! The local server's judgement of a captured request, without a socket: `signscope check` and
//! the workbench's HAR import hand each captured request to this server's own routes (the
//! collector, the indexing API with its verification and diagnosis, whatever routes it has) at
//! the time it was captured, and take the stream record the server makes of it
//! (`docs/har.md`). Nothing is re-implemented here: a captured request is judged exactly as the
//! server judges one that arrives.
//!
//! One server instance per header prefix and API key met (the server's accounts map an API key
//! to its REST key and it answers one prefix), each with a clock set to the capture's time
//! before each request, a store that keeps one record (memory does not grow with the capture)
//! and no forwarding (nothing captured is ever sent anywhere). Judges made with
//! [`OfflineJudge::sibling`] share what one request can change for the next (the accounts'
//! attributes), so that several judge one capture on several cores.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Body;
use axum::Router;
use bytes::Bytes;
use chrono::{DateTime, Utc};
use tokio::sync::broadcast;
use tower::ServiceExt;

use crate::core::{ReceivedRequest, Secret};

use super::config::{ManualClock, ServerConfig};
use super::operations::{Attributes, Operation};
use super::stream::Published;
use super::AppState;
use crate::core::traffic::{RequestSeen, Route, StreamMessage};

/// Which captured requests the local server has a judgement on: those to its indexing API and
/// its collector (not its inspection API, not a shop's own pages).
pub fn judged_route(path: &str) -> bool {
    matches!(Route::of(path), Route::Indexing | Route::Collect)
}

/// Whether judging this request changes what later ones are judged against (or depends on
/// what earlier ones changed): `PUT` and `DELETE /v2/attributes/{name}` (a record using an
/// attribute no one put is warned about), and a collector request with recommendation events
/// (a click is judged against the views before it, `docs/events.md` rule E25). Judging in
/// parallel waits for every request before such a one, and it for the ones after, so these
/// are judged one at a time in the capture's order.
pub fn changes_later_judgements(req: &ReceivedRequest) -> bool {
    match Route::of(&req.path) {
        Route::Indexing => matches!(
            Operation::of(&req.method, &req.path),
            Operation::PutAttribute(_) | Operation::DeleteAttribute(_)
        ),
        Route::Collect => req.body.windows(RECS.len()).any(|w| w == RECS),
        _ => false,
    }
}

/// What every recommendation event's name ends with (`view_recs_list`, `select_recs_list`).
const RECS: &[u8] = b"_recs_list";

/// The REST keys a capture is verified with.
#[derive(Clone, Debug, Default)]
pub struct JudgeKeys {
    /// The key for any API key not named in `per_api` (`--rest-key-env` / `--rest-key-file`).
    pub default: Option<Secret>,
    /// API key -> its REST key (`--key API=ENV`).
    pub per_api: HashMap<String, Secret>,
}

impl JudgeKeys {
    fn for_api(&self, api_key: &str) -> Option<&Secret> {
        self.per_api.get(api_key).or(self.default.as_ref())
    }
}

struct Instance {
    router: Router,
    clock: ManualClock,
    records: broadcast::Receiver<Arc<Published>>,
}

/// Judges captured requests as the local server would (see the module documentation).
pub struct OfflineJudge {
    base: ServerConfig,
    keys: JudgeKeys,
    instances: HashMap<(String, String), Instance>,
    /// The attributes every account has put, shared by every instance and every sibling (as
    /// the real server keeps them per account, whatever the prefix).
    attributes: Arc<Attributes>,
    /// The recommendation views seen so far, shared the same way (`docs/events.md` rule E25).
    views: Arc<std::sync::Mutex<crate::core::collect::ViewMemory>>,
}

impl OfflineJudge {
    /// `base` gives the server's settings (accepted signing forms, window, body limit); its
    /// accounts, prefix, clock, store size and forwarding are set here.
    pub fn new(base: ServerConfig, keys: JudgeKeys) -> Self {
        OfflineJudge {
            base,
            keys,
            instances: HashMap::new(),
            attributes: Arc::default(),
            views: Arc::default(),
        }
    }

    /// Another judge with the same settings and keys that shares this one's attributes, for
    /// another thread.
    pub fn sibling(&self) -> Self {
        OfflineJudge {
            attributes: self.attributes.clone(),
            views: self.views.clone(),
            ..OfflineJudge::new(self.base.clone(), self.keys.clone())
        }
    }

    fn instance(&mut self, prefix: &str, api_key: &str) -> &mut Instance {
        let key = (prefix.to_string(), api_key.to_string());
        if !self.instances.contains_key(&key) {
            let clock = ManualClock::new(DateTime::<Utc>::UNIX_EPOCH);
            let mut config = self.base.clone();
            config.accounts = HashMap::new();
            if let Some(secret) = self.keys.for_api(api_key) {
                config.accounts.insert(api_key.to_string(), secret.clone());
            }
            config.header_prefix = prefix.to_string();
            config.clock = clock.clock();
            config.clock_skew_seconds = 0;
            config.max_stored = 1;
            config.max_stored_bytes = 4 * config.max_body.max(1);
            config.forward_indexing = None;
            config.forward_analytics = None;
            config.forward_switchable = false;
            config.unverified_route = false;
            // The judges run on every core already (engine::judging).
            config.diagnosis_threads = Some(1);
            let mut state = AppState::new(config);
            state.attributes = self.attributes.clone();
            state.views = self.views.clone();
            let (_, _, records) = state.stream.subscribe(None);
            let router = super::app(state);
            self.instances.insert(
                key.clone(),
                Instance {
                    router,
                    clock,
                    records,
                },
            );
        }
        self.instances.get_mut(&key).expect("inserted above")
    }

    /// Judge one captured request at `at` (its capture time): the stream record the server
    /// makes of it. `prefix` is the header prefix its headers carry. `Err` when the request
    /// cannot be put on the wire as captured (a header name HTTP does not allow).
    pub async fn judge(
        &mut self,
        req: &ReceivedRequest,
        prefix: &str,
        at: DateTime<Utc>,
    ) -> Result<RequestSeen, JudgeError> {
        let http = to_http(req)?;
        let (prefix, api_key) = if Route::of(&req.path) == Route::Indexing {
            let name = format!("X-{}-APIKEY", prefix.to_ascii_uppercase());
            (prefix, req.header_text(&name))
        } else {
            // The collector takes no key: one instance for every prefix.
            (crate::core::DEFAULT_HEADER_PREFIX, String::new())
        };
        let inst = self.instance(prefix, &api_key);
        inst.clock.set(at);
        let response = inst
            .router
            .clone()
            .oneshot(http)
            .await
            .unwrap_or_else(|never| match never {});
        drop(response);
        let mut last = None;
        loop {
            match inst.records.try_recv() {
                Ok(p) => last = Some(p),
                Err(broadcast::error::TryRecvError::Lagged(_)) => continue,
                Err(_) => break,
            }
        }
        let published = last.ok_or(JudgeError::NoRecord)?;
        match published.message().map(std::borrow::Cow::into_owned) {
            Some(StreamMessage::Request(r)) => Ok(*r),
            _ => Err(JudgeError::UnreadableRecord),
        }
    }
}

/// Why a captured request could not be judged (the end of a sentence naming the request).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    #[error("the method \"{0}\" is not an HTTP method")]
    Method(String),
    #[error("the target \"{0}\" has characters HTTP does not allow unencoded")]
    Target(String),
    #[error("the header name \"{0}\" is not allowed in HTTP")]
    HeaderName(String),
    #[error("the value of the header {0} has bytes HTTP does not allow")]
    HeaderValue(String),
    #[error("it cannot be made into an HTTP request ({0})")]
    Request(String),
    #[error("the local server made no record of it")]
    NoRecord,
    #[error("the local server's record of it could not be read")]
    UnreadableRecord,
}

/// The request as the server's router takes it: the captured headers (HTTP/2 pseudo-headers
/// and the framing headers left out; `Content-Length` set to the captured body's length).
fn to_http(req: &ReceivedRequest) -> Result<axum::http::Request<Body>, JudgeError> {
    let target = crate::core::http_text::target(&req.path, &req.query);
    let shown = |b: &[u8]| crate::core::visible::escape_visible(b);
    let mut builder = axum::http::Request::builder()
        .method(
            axum::http::Method::from_bytes(req.method.as_bytes())
                .map_err(|_| JudgeError::Method(shown(req.method.as_bytes())))?,
        )
        .uri(
            axum::http::Uri::try_from(target.as_str())
                .map_err(|_| JudgeError::Target(shown(target.as_bytes())))?,
        );
    for (name, value) in &req.headers {
        if name.starts_with(':')
            || name.eq_ignore_ascii_case("content-length")
            || name.eq_ignore_ascii_case("transfer-encoding")
        {
            continue;
        }
        let n = axum::http::HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| JudgeError::HeaderName(shown(name.as_bytes())))?;
        let v = axum::http::HeaderValue::from_bytes(value)
            .map_err(|_| JudgeError::HeaderValue(name.clone()))?;
        builder = builder.header(n, v);
    }
    if !req.body.is_empty() || !matches!(req.method.as_str(), "GET" | "HEAD" | "DELETE" | "OPTIONS")
    {
        builder = builder.header(axum::http::header::CONTENT_LENGTH, req.body.len());
    }
    builder
        .body(Body::from(Bytes::clone(&req.body)))
        .map_err(|e| JudgeError::Request(e.to_string()))
}
