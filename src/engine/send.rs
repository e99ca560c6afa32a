//! Sending: sign once, send, build the exchange, record it.

use bytes::Bytes;
use chrono::Utc;

use crate::client::{self, ClientOptions, LazyClient, OutgoingRequest};
use crate::core::spec::{RequestSpec, SigningParams};
use crate::core::{Secret, SignedRequest};
use crate::store::history::DEFAULT_BODY_CAP;
use crate::store::{History, ProfileStore};

use super::error::EngineError;
use super::exchange::{Exchange, ExchangeKind, ServerAnswer};
use super::outgoing::{check_target_of, events_request, outgoing, with_extra_headers, BuildError};
use super::record::history_entry;

/// One signed indexing request to send.
#[derive(Clone, Debug)]
pub struct SendRequest {
    /// `http(s)://host[:port]`, no path (the profile's indexing URL, resolved).
    pub base_url: String,
    pub request: RequestSpec,
    pub params: SigningParams,
}

/// Why [`Sender::get_text`] has no text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GetTextError {
    #[error("could not read what the collector stored from {url}: {reason}")]
    Request { url: String, reason: String },
    #[error("the answer from {url} was cut off: {reason}")]
    CutOff { url: String, reason: String },
}

/// Sends and records under one profile name. Cheap to clone (the HTTP client and the paths are
/// shared); `Send + 'static`, so a tokio task can own it.
#[derive(Clone, Debug)]
pub struct Sender {
    http: LazyClient,
    profile: String,
    /// The name of the profile's saved request that signed sends come from (recorded in the
    /// history entry).
    request_name: Option<String>,
    history: Option<History>,
    store: Option<ProfileStore>,
    /// The in-process server's base URL: a send there is recorded as going to "the in-process
    /// server", which a later run re-sends to its own (`RecordedRequest::in_process`).
    in_process: Option<String>,
    /// Headers added to every request after its own (a suite request's `headers`).
    extra_headers: Vec<(String, String)>,
}

impl Sender {
    /// A sender; `history` None records nothing, `store` None marks no profile as last used.
    pub fn new(
        http: LazyClient,
        profile: String,
        history: Option<History>,
        store: Option<ProfileStore>,
    ) -> Self {
        Sender {
            http,
            profile,
            request_name: None,
            history,
            store,
            in_process: None,
            extra_headers: Vec::new(),
        }
    }

    /// Record sends to `base` (the in-process server's URL) as going to the in-process server.
    pub fn with_in_process(mut self, base: Option<String>) -> Self {
        self.in_process = base;
        self
    }

    /// Add these headers, after its own, to every request this sender sends (refused, as an
    /// [`EngineError`], when one would replace a header the request or HTTP sets).
    pub fn with_extra_headers(mut self, headers: Vec<(String, String)>) -> Self {
        self.extra_headers = headers;
        self
    }

    /// A sender with a client of its own that records nothing and marks no profile (the
    /// workbench's before a session is open).
    pub fn unrecorded() -> Self {
        Sender::new(
            LazyClient::new(ClientOptions::default()),
            String::new(),
            None,
            None,
        )
    }

    /// `GET url` with this sender's client, and the answer's body as text (what a collector
    /// stored, for the events view). Nothing is recorded.
    pub async fn get_text(&self, url: &str) -> Result<String, GetTextError> {
        let request = |reason: String| GetTextError::Request {
            url: url.to_string(),
            reason,
        };
        let (http, _) = self.http.get().map_err(|e| request(e.to_string()))?;
        let r = http
            .get(url)
            .send()
            .await
            .map_err(|e| request(e.to_string()))?;
        r.text().await.map_err(|e| GetTextError::CutOff {
            url: url.to_string(),
            reason: e.to_string(),
        })
    }

    /// Record signed sends as coming from the profile's saved request `name`.
    pub fn with_request_name(mut self, name: Option<String>) -> Self {
        self.request_name = name;
        self
    }

    /// Whether this sender records its sends in a history file.
    pub fn records(&self) -> bool {
        self.history.is_some()
    }

    /// Sign (once, with the clock read now when the timestamp is live), send, and record a
    /// signed indexing request. A network failure is an exchange with an error response; a
    /// request that cannot be sent as signed is an [`EngineError`].
    pub async fn send(&self, req: SendRequest) -> Result<Exchange, EngineError> {
        let SendRequest {
            base_url,
            request,
            params,
        } = req;
        // Checked before the body is hashed: a request that cannot go is refused at once.
        check_target_of(&base_url, &request)?;
        // Signing hashes the whole body: off the async threads.
        let (signed, key, sent_at) = tokio::task::spawn_blocking(move || {
            let now = Utc::now();
            let timestamp = params.timestamp.text_at(now).into_owned();
            let signed = SignedRequest::sign(request, timestamp, params.form, &params.key)
                .map_err(BuildError::from)?;
            Ok::<_, EngineError>((signed, params.key, now))
        })
        .await
        .map_err(|e| EngineError::Runtime(format!("signing stopped: {e}")))??;
        self.send_signed_at(&base_url, signed, key, sent_at).await
    }

    /// Send and record a request signed already, exactly as it was signed (the workbench sends
    /// the signed request it shows): nothing is signed again.
    pub async fn send_signed(
        &self,
        base_url: &str,
        signed: SignedRequest,
        key: Secret,
    ) -> Result<Exchange, EngineError> {
        self.send_signed_at(base_url, signed, key, Utc::now()).await
    }

    async fn send_signed_at(
        &self,
        base_url: &str,
        signed: SignedRequest,
        key: Secret,
        sent_at: chrono::DateTime<Utc>,
    ) -> Result<Exchange, EngineError> {
        // The key never reaches the debug log, even typed into the URL by mistake.
        crate::logging::redact_in_logs(&key);
        let out = outgoing(base_url, &signed)?;
        let mut exchange = self
            .exchange(
                ExchangeKind::Request,
                out,
                signed.spec().clone(),
                Some(signed.timestamp().to_string()),
                Some(key),
                sent_at,
            )
            .await?;
        exchange.form = signed.form();
        exchange.signed = Some(signed);
        Ok(exchange)
    }

    /// Post an event batch, byte for byte, to `{analytics_url}/analytics/collect` and record
    /// it. `key`, when known, is redacted from the record although the collector takes none.
    pub async fn send_events(
        &self,
        analytics_url: &str,
        body: Bytes,
        key: Option<Secret>,
    ) -> Result<Exchange, EngineError> {
        let out = events_request(analytics_url, body.clone());
        let spec = RequestSpec {
            method: out.method.clone(),
            path: crate::core::COLLECT_PATH.to_string(),
            query: String::new(),
            header_prefix: String::new(),
            api_key: String::new(),
            auth_algo: String::new(),
            ..RequestSpec::default()
        }
        .with_body(body);
        self.exchange(ExchangeKind::Events, out, spec, None, key, Utc::now())
            .await
    }

    async fn exchange(
        &self,
        kind: ExchangeKind,
        out: OutgoingRequest,
        spec: RequestSpec,
        timestamp: Option<String>,
        key: Option<Secret>,
        sent_at: chrono::DateTime<Utc>,
    ) -> Result<Exchange, EngineError> {
        let out = with_extra_headers(out, &self.extra_headers)?;
        let response = match self.http.get() {
            Ok((http, probe)) => client::send_probed(http, probe, &out, &self.http.options()).await,
            Err(e) => Err(e),
        };
        let answer = match &response {
            Ok(r) => ServerAnswer::parse(&r.body),
            Err(_) => ServerAnswer::default(),
        };
        let mut entry = history_entry(
            &self.profile,
            kind.as_str(),
            sent_at,
            (kind == ExchangeKind::Request).then_some(&spec),
            &out,
            response.as_ref(),
            key.as_ref(),
            DEFAULT_BODY_CAP,
        );
        if kind == ExchangeKind::Request {
            entry.request_name = self.request_name.clone();
        }
        entry.request.in_process = self.in_process.as_deref().is_some_and(|base| {
            out.url
                .strip_prefix(base.trim_end_matches('/'))
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '?']))
        });
        let (history, store, profile, record) = (
            self.history.clone(),
            self.store.clone(),
            self.profile.clone(),
            entry.clone(),
        );
        let mut warnings = tokio::task::spawn_blocking(move || {
            let mut warnings = Vec::new();
            if let Some(h) = history {
                if let Err(e) = h.append(&record) {
                    warnings.push(format!("the send was not recorded in the history: {e}"));
                }
            }
            if let Some(s) = store {
                if let Err(e) = s.set_last_used(&profile) {
                    warnings.push(format!("the last used profile was not remembered: {e}"));
                }
            }
            warnings
        })
        .await
        .map_err(|e| EngineError::Runtime(format!("recording the send stopped: {e}")))?;
        if let Ok(r) = &response {
            warnings.extend(r.body_cut_short.clone());
            warnings.extend(r.clock_skew_warning.clone());
        }
        Ok(Exchange {
            kind,
            profile: self.profile.clone(),
            sent_at,
            spec,
            timestamp,
            form: Default::default(),
            signed: None,
            request: out,
            response,
            answer,
            entry,
            warnings,
        })
    }

    /// [`Sender::send`] on a current-thread runtime, for blocking callers (the CLI).
    pub fn send_blocking(&self, req: SendRequest) -> Result<Exchange, EngineError> {
        block_on(self.send(req))
    }

    /// [`Sender::send_events`] on a current-thread runtime, for blocking callers (the CLI).
    pub fn send_events_blocking(
        &self,
        analytics_url: &str,
        body: Bytes,
        key: Option<Secret>,
    ) -> Result<Exchange, EngineError> {
        block_on(self.send_events(analytics_url, body, key))
    }
}

fn block_on<T>(
    fut: impl std::future::Future<Output = Result<T, EngineError>>,
) -> Result<T, EngineError> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| EngineError::Runtime(format!("cannot start the async runtime: {e}")))?
        .block_on(fut)
}
