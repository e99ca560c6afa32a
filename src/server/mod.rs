//! The local verifying server: the offline stand-in for the real service, used by the TUI's demo
//! mode, by tests and by users' CI. One address serves:
//!
//! - the indexing API (any method under `/v2/`), every request verified with the core's
//!   [`verify`](crate::core::verify::verify) ([`indexing`]);
//! - the analytics collector, `POST /analytics/collect`, and the older analytics endpoints
//!   ([`collector`]);
//! - the inspection API under `/_inspect/` ([`inspect`]), backed by a bounded [`store::Store`],
//!   with a live stream of completed requests at `/_inspect/stream` ([`stream`]).
//!
//! Start it in-process on a listener the caller has bound, with [`start`] (as tasks of a tokio
//! runtime the caller owns: the workbench's, `signscope serve`'s, an async test's) or [`spawn`]
//! (a thread with a runtime of its own, for sync callers); both return the one [`Server`]
//! handle. From the command line: `signscope serve`.
//!
//! Robustness: connections are served by hyper's HTTP/1 server with a request-head timeout
//! (also the idle keep-alive timeout) and a head size limit (431 above it); bodies are read with
//! a size limit (413), a deadline and a minimum rate (408) and share a bytes budget
//! ([`body`]); a panic in a handler answers 500 in the vendor's
//! error shape and the server keeps serving.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::http::Method;
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post, put};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tower_http::catch_panic::CatchPanicLayer;

use crate::core::verify::VerifyOptions;
use crate::core::HeaderNames;

pub mod body;
pub mod collector;
pub mod config;
mod conn;
pub mod connections;
pub mod error;
pub mod forward;
pub mod guard;
pub mod har_out;
pub mod indexing;
pub mod inspect;
pub mod judge;
pub mod operations;
pub mod page;
pub mod store;
pub mod stream;
mod waiters;

pub use config::{fixed_clock, system_clock, Clock, ManualClock, ServerConfig};
pub use error::{ApiError, DebugEntry};
pub use store::{EventRecord, RequestRecord, Store, Summary};

/// The demo account (defined in the core, shared with the store's `demo` profile).
pub use crate::core::demo::{DEMO_API_KEY, DEMO_REST_KEY};

/// State shared by every handler.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<ServerConfig>,
    pub store: Arc<Store>,
    pub verify_options: Arc<VerifyOptions>,
    /// The vendor header names for the configured prefix (built once, not per request).
    pub header_names: Arc<HeaderNames>,
    /// The bytes budget of bodies being read or handled (see
    /// [`ServerConfig::body_budget_bytes`]).
    pub body_budget: body::BodyBudget,
    /// The indexing attributes each account has put (`PUT /v2/attributes/{name}`).
    pub attributes: Arc<operations::Attributes>,
    /// The recommendation views each client sent, to judge its later clicks against
    /// (`docs/events.md` rule E25; bounded, `core::collect::ViewMemory`).
    pub views: Arc<std::sync::Mutex<crate::core::collect::ViewMemory>>,
    /// Permits for signature diagnoses (see [`ServerConfig::max_diagnoses`]).
    pub diagnoses: Arc<tokio::sync::Semaphore>,
    /// Permits for hashing and checking large bodies on the blocking pool, one per core: a
    /// burst of large requests queues here instead of running dozens of CPU-bound threads
    /// that the runtime's threads (health, small requests) would have to share the cores with.
    pub hashing: Arc<tokio::sync::Semaphore>,
    /// The live stream of completed requests (`GET /_inspect/stream`).
    pub stream: Arc<stream::Hub>,
    /// Where indexing and collector requests are forwarded (none by default; see
    /// [`AppState::set_forwarding`]).
    pub forwarding: Arc<forward::Forwarding>,
    /// The bytes budget of inspection answers being written (see
    /// [`ServerConfig::answer_budget_bytes`]).
    pub answers: body::BodyBudget,
    /// One permit per live stream subscriber ([`ServerConfig::max_streams`]): the rest of the
    /// process's connections stay for ordinary requests.
    pub streams: Arc<tokio::sync::Semaphore>,
    /// A header prefix every account answers to besides its own (the workbench's in-process
    /// server follows the open profile's; `docs/server.md` rule R12). None by default.
    pub profile_prefix: Arc<std::sync::RwLock<Option<String>>>,
}

impl AppState {
    pub fn new(config: ServerConfig) -> Self {
        let verify_options = VerifyOptions {
            header_prefix: config.header_prefix.clone(),
            window_seconds: config.window_seconds,
        };
        let store =
            Store::new(config.max_stored, config.max_stored_bytes).with_measure(page::ListBytes);
        // The stream's ring keeps at most as many records as the store, in an eighth of its
        // bytes (a stream record holds previews only).
        let stream = Arc::new(stream::Hub::new(
            config.max_stored,
            config.max_stored_bytes / 8,
        ));
        // A forwarded body is held twice while it is handled (the proxy's copy, sent on, and the
        // local handler's): room for two of the largest.
        let forwarding = config.forward_indexing.is_some()
            || config.forward_analytics.is_some()
            || config.forward_switchable;
        let budget_bytes = if forwarding {
            config
                .body_budget_bytes
                .max(config.max_body.saturating_mul(2))
        } else {
            config.body_budget_bytes
        };
        let body_budget = body::BodyBudget::new(budget_bytes, config.max_body);
        let state = AppState {
            answers: body::BodyBudget::new(config.answer_budget_bytes, 1),
            streams: Arc::new(tokio::sync::Semaphore::new(config.max_streams)),
            forwarding: Arc::default(),
            profile_prefix: Arc::default(),
            stream,
            body_budget,
            attributes: Arc::default(),
            views: Arc::default(),
            diagnoses: Arc::new(tokio::sync::Semaphore::new(config.max_diagnoses)),
            hashing: Arc::new(tokio::sync::Semaphore::new(
                std::thread::available_parallelism().map_or(1, usize::from),
            )),
            header_names: Arc::new(HeaderNames::for_prefix(&config.header_prefix)),
            config: Arc::new(config),
            store: Arc::new(store),
            verify_options: Arc::new(verify_options),
        };
        let (indexing, analytics) = (
            state.config.forward_indexing.clone(),
            state.config.forward_analytics.clone(),
        );
        for why in state.set_forwarding(indexing.as_deref(), analytics.as_deref()) {
            // `serve` checks URLs before starting; an in-process caller's bad URL is logged.
            tracing::error!("not forwarding: {why}");
        }
        state
    }

    /// Every account answers to `prefix` too from the next request on (`None`: only to its own).
    pub fn set_profile_prefix(&self, prefix: Option<&str>) {
        *self
            .profile_prefix
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) =
            prefix.map(str::to_ascii_uppercase);
    }

    /// Whether the known account `api_key` answers to `prefix` (its own prefixes, or the
    /// profile's).
    pub fn answers_to(&self, api_key: &str, prefix: &str) -> bool {
        self.config.answers_to(api_key, prefix)
            || (self.config.accounts.contains_key(api_key)
                && self
                    .profile_prefix
                    .read()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .as_deref()
                    .is_some_and(|p| p.eq_ignore_ascii_case(prefix)))
    }

    /// Forward indexing requests to `indexing` and collector requests to `analytics` from the
    /// next request on (`None`: answer locally). Takes effect only on routes that carry the
    /// forwarding layer: those configured with a forward URL, or all of them when
    /// [`ServerConfig::forward_switchable`]. Returns why a URL cannot be used (that one is not
    /// forwarded to).
    pub fn set_forwarding(
        &self,
        indexing: Option<&str>,
        analytics: Option<&str>,
    ) -> Vec<forward::UpstreamError> {
        let mut notes = Vec::new();
        let mut make = |url: Option<&str>| {
            let url = url?;
            let (budget, answers) = (self.body_budget.clone(), self.answers.clone());
            match forward::Upstream::new(url, &self.config, budget, answers) {
                Ok(up) => Some(Arc::new(up)),
                Err(why) => {
                    notes.push(why);
                    None
                }
            }
        };
        let indexing = make(indexing);
        let analytics = make(analytics);
        self.forwarding.set(indexing, analytics);
        notes
    }
}

/// The routes, without the outer layers (see [`app`]).
pub fn routes(state: &AppState) -> Router<AppState> {
    let mut indexing = Router::new()
        .route("/v2", any(indexing::handle))
        .route("/v2/", any(indexing::handle))
        .route("/v2/{*rest}", any(indexing::handle));
    let switchable = state.config.forward_switchable;
    if switchable || state.config.forward_indexing.is_some() {
        let target = forward::Target::indexing(state.forwarding.clone());
        indexing =
            indexing.route_layer(axum::middleware::from_fn_with_state(target, forward::proxy));
    }
    // Every path under /analytics/: the collector, the older endpoints, and the rest (404
    // locally, forwarded with the others under an analytics upstream: docs/server.md rule W5).
    let handler = || any(collector::analytics);
    let mut collect = Router::new()
        .route("/analytics", handler())
        .route("/analytics/", handler())
        .route("/analytics/{*rest}", handler());
    if switchable || state.config.forward_analytics.is_some() {
        let target = forward::Target::analytics(state.forwarding.clone());
        collect = collect.route_layer(axum::middleware::from_fn_with_state(target, forward::proxy));
    }
    // Outermost, so that preflights are answered here and forwarded answers get the same
    // headers as local ones (docs/server.md rule W9).
    let collect = collect.route_layer(collector::cors());
    let mut router = Router::new()
        .merge(indexing)
        .merge(collect)
        .route("/_inspect/health", get(inspect::health))
        .route("/_inspect/requests", get(inspect::requests))
        .route("/_inspect/events", get(inspect::events))
        .route("/_inspect/summary", get(inspect::summary))
        .route("/_inspect/mark", get(inspect::mark))
        .route("/_inspect/reset", post(inspect::reset))
        .route("/_inspect/wait", get(inspect::wait))
        .route(crate::core::traffic::STREAM_PATH, get(stream::stream));
    if state.config.unverified_route {
        router = router.route("/_bench/unverified", put(indexing::unverified));
    }
    router
}

/// The complete application: routes, vendor-shaped 404/405, and the panic guard.
pub fn app(state: AppState) -> Router {
    finish(routes(&state), state)
}

/// Add fallbacks and the outer layers to a set of routes.
pub fn finish(routes: Router<AppState>, state: AppState) -> Router {
    routes
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            stream::observe,
        ))
        .with_state(state.clone())
        .layer(axum::middleware::map_response_with_state(
            state,
            server_date,
        ))
        .layer(CatchPanicLayer::custom(
            |_panic: Box<dyn std::any::Any + Send>| ApiError::internal().into_response(),
        ))
}

/// The `Date` header from the server's own clock (with `--clock-skew`), the one it checks
/// timestamps against: hyper's would give the machine's time, so a skewed server said two
/// different times and a client could not see its skew.
async fn server_date(
    axum::extract::State(st): axum::extract::State<AppState>,
    mut resp: Response,
) -> Response {
    // A forwarded answer keeps the upstream's Date (the one its timestamps are checked against).
    if resp.extensions().get::<forward::Forwarded>().is_some() {
        return resp;
    }
    if let Ok(v) = axum::http::HeaderValue::from_str(&http_date(st.config.now())) {
        resp.headers_mut().insert(axum::http::header::DATE, v);
    }
    resp
}

/// An IMF-fixdate (`Sun, 22 Nov 2026 10:00:00 GMT`). `httpdate` (already built for hyper)
/// formats it directly; chrono's `format` parsed its pattern on every response, about 2,600
/// instructions more per request (`benches/server_instructions.sh`, 1 KiB: 143,666 -> 140,328).
fn http_date(t: chrono::DateTime<chrono::Utc>) -> String {
    httpdate::fmt_http_date(t.into())
}

async fn not_found(method: Method, uri: axum::http::Uri) -> Response {
    ApiError::not_found(method.as_str(), uri.path()).into_response()
}

async fn method_not_allowed(method: Method, uri: axum::http::Uri) -> Response {
    ApiError::new(
        405,
        "METHOD_NOT_ALLOWED",
        format!("{} does not accept the method {}.", uri.path(), method),
    )
    .into_response()
}

/// A running local server, from [`start`] (tasks of a runtime the caller owns) or [`spawn`] (a
/// thread with a runtime of its own). Dropping it stops it: it stops accepting and ends the
/// open streams; a server on its own thread is also waited for.
pub struct Server {
    /// The address actually bound (useful with port 0).
    pub addr: SocketAddr,
    state: AppState,
    stop: Option<oneshot::Sender<()>>,
    /// The accept loop: a task of the caller's runtime, or the thread that owns its runtime.
    running: Running,
}

enum Running {
    Task(Option<tokio::task::JoinHandle<()>>),
    Thread(Option<std::thread::JoinHandle<()>>),
}

impl Server {
    /// `http://ADDR` (no trailing slash).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The inspection store, for in-process callers.
    pub fn store(&self) -> Arc<Store> {
        self.state.store.clone()
    }

    /// Bytes of the body budget held at the moment by bodies being read or handled (a test
    /// waits on it for the server to have taken in a stalled body, instead of sleeping).
    pub fn body_bytes_held(&self) -> usize {
        self.state.body_budget.size() - self.state.body_budget.available()
    }

    /// Every live stream record of this run, from the first one (those already published are
    /// in the backlog, `missing` counts those no longer held), then the rest as they come:
    /// `signscope serve --strict` and `--log-json` read the run through it.
    pub fn follow_all(
        &self,
    ) -> (
        Vec<Arc<stream::Published>>,
        u64,
        tokio::sync::broadcast::Receiver<Arc<stream::Published>>,
    ) {
        self.state.stream.subscribe(Some(0))
    }

    /// Change where requests are forwarded ([`AppState::set_forwarding`]): the workbench's
    /// in-process server follows the profile in use.
    pub fn set_forwarding(
        &self,
        indexing: Option<&str>,
        analytics: Option<&str>,
    ) -> Vec<forward::UpstreamError> {
        self.state.set_forwarding(indexing, analytics)
    }

    /// Every account answers to `prefix` too ([`AppState::set_profile_prefix`]): the
    /// workbench's in-process server follows the open profile's prefix.
    pub fn set_profile_prefix(&self, prefix: Option<&str>) {
        self.state.set_profile_prefix(prefix)
    }

    /// Stop accepting, let open requests finish (up to the configured grace), and return once
    /// the accept loop has ended.
    pub async fn shutdown(mut self) {
        self.signal_stop();
        match &mut self.running {
            Running::Task(task) => {
                if let Some(task) = task.take() {
                    let _ = task.await;
                }
            }
            Running::Thread(thread) => {
                if let Some(thread) = thread.take() {
                    let _ = tokio::task::spawn_blocking(move || thread.join()).await;
                }
            }
        }
    }

    /// Stop it from sync code: a server on its own thread is waited for (its port is closed
    /// when this returns); one on the caller's runtime ends on that runtime's threads.
    pub fn stop(self) {
        drop(self);
    }

    fn signal_stop(&mut self) {
        // Open streams never end by themselves: end them so the grace is not spent on them.
        self.state.stream.close();
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.signal_stop();
        if let Running::Thread(thread) = &mut self.running {
            if let Some(thread) = thread.take() {
                let _ = thread.join();
            }
        }
    }
}

/// Serve on `listener` as tasks of the tokio runtime `runtime` (the caller's: no thread or
/// runtime of its own). The listener is bound by the caller, so its address and a bind error are
/// known before anything runs. Returns at once; connections wait in the listen queue until the
/// runtime's threads accept them.
pub fn start(
    runtime: &tokio::runtime::Handle,
    config: ServerConfig,
    listener: std::net::TcpListener,
) -> io::Result<Server> {
    config.check().map_err(io::Error::other)?;
    listener.set_nonblocking(true)?;
    let addr = listener.local_addr()?;
    let _entered = runtime.enter();
    let listener = TcpListener::from_std(listener)?;
    tracing::debug!(%addr, accounts = config.accounts.len(), "local server listening");
    let state = AppState::new(config);
    // Outermost: a request from a rebinding page or a cross-site write is refused before it is
    // recorded or answered (docs/server.md rules L9-L10).
    let router = app(state.clone()).layer(axum::middleware::from_fn_with_state(
        state.clone(),
        guard::guard,
    ));
    let (stop_tx, stop_rx) = oneshot::channel();
    let task = runtime.spawn(accept_loop(listener, router, state.config.clone(), stop_rx));
    Ok(Server {
        addr,
        state,
        stop: Some(stop_tx),
        running: Running::Task(Some(task)),
    })
}

/// Serve on `listener` from a thread of its own, with its own runtime (2 worker threads): for
/// sync callers without a runtime (the CLI, tests). Listening when it returns.
pub fn spawn(config: ServerConfig, listener: std::net::TcpListener) -> io::Result<Server> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("signscope-server")
        .enable_all()
        .build()?;
    let mut server = start(runtime.handle(), config, listener)?;
    let Running::Task(task) = &mut server.running else {
        unreachable!("start runs the server as a task")
    };
    let task = task.take();
    // The thread owns the runtime: it waits for the accept loop (which ends on the stop signal,
    // after the grace) and then drops the runtime where blocking is allowed.
    let thread = std::thread::Builder::new()
        .name("signscope-server".into())
        .spawn(move || {
            if let Some(task) = task {
                let _ = runtime.block_on(task);
            }
        })?;
    server.running = Running::Thread(Some(thread));
    Ok(server)
}

async fn accept_loop(
    listener: TcpListener,
    router: Router,
    config: Arc<ServerConfig>,
    mut stop: oneshot::Receiver<()>,
) {
    let graceful = GracefulShutdown::new();
    let http = http1_builder(&config);
    let conns = Arc::new(connections::Connections::default());
    let limit = connections::connection_limit(
        config.max_connections,
        connections::raise_open_files_limit(),
    );
    loop {
        tokio::select! {
            _ = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    let stream = conn::StallGuard::new(stream, config.write_stall_timeout);
                    if !conns.make_room(limit) {
                        refuse(&http, stream, &config);
                        continue;
                    }
                    let place = conns.register();
                    let service = TowerToHyperService::new(counted(router.clone(), place.busy.clone(), peer));
                    let conn = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
                    tokio::spawn(async move {
                        // A client that misbehaves only ends its own connection; an idle one
                        // closed to make room ends here too.
                        tokio::select! {
                            _ = conn => {}
                            _ = place.close.notified() => {}
                        }
                        drop(place);
                    });
                }
                // E.g. too many open files: back off briefly and keep serving.
                Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    }
    drop(listener);
    let _ = tokio::time::timeout(config.shutdown_grace, graceful.shutdown()).await;
}

/// hyper's HTTP/1 server as this server configures it.
fn http1_builder(config: &ServerConfig) -> hyper::server::conn::http1::Builder {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_read_timeout)
        .max_header_size(config.max_header_bytes)
        .max_buf_size(config.max_header_bytes.max(8192) * 2)
        // A client that shuts down its write side after the body still gets its answer.
        .half_close(true)
        // The names' case as the client wrote them, which a forwarded request keeps
        // (docs/server.md rule W8).
        .preserve_header_case(true);
    http
}

/// `router`, counting each request on the connection as in flight from its head until its
/// answer's body is written or dropped (an idle connection is one with none).
fn counted(
    router: Router,
    busy: Arc<std::sync::atomic::AtomicUsize>,
    peer: SocketAddr,
) -> impl tower::Service<
    hyper::Request<hyper::body::Incoming>,
    Response = Response,
    Error = std::convert::Infallible,
    Future = impl std::future::Future<Output = Result<Response, std::convert::Infallible>> + Send,
> + Clone {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    tower::service_fn(move |mut req: hyper::Request<hyper::body::Incoming>| {
        // The collector tells clients apart by it when their events name no session or IP.
        req.extensions_mut()
            .insert(collector::ClientAddr(peer.ip()));
        let in_flight = connections::InFlight::enter(&busy);
        let router = router.clone();
        async move {
            let resp = router.oneshot(req).await?;
            Ok(resp.map(|body| {
                axum::body::Body::new(body.map_frame(move |frame| {
                    let _held = &in_flight;
                    frame
                }))
            }))
        }
    })
}

/// A connection beyond the limit with every connection busy: its request is answered 503 and
/// the connection closed.
fn refuse<S>(http: &hyper::server::conn::http1::Builder, stream: S, config: &ServerConfig)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let max = config.max_connections;
    let service = hyper::service::service_fn(move |_req| async move {
        let resp = ApiError::new(
            503,
            "TOO_MANY_CONNECTIONS",
            format!(
                "This server is serving as many connections as it can at once (at most {max}, and fewer under the open-files limit), all of them busy; close another client or raise the limit with ulimit -n, and connect again."
            ),
        )
        .into_response();
        Ok::<_, std::convert::Infallible>(connections::close_after(resp))
    });
    let conn = http.serve_connection(TokioIo::new(stream), service);
    tokio::spawn(async move {
        let _ = conn.await;
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower::ServiceExt;

    fn loopback() -> std::net::TcpListener {
        std::net::TcpListener::bind("127.0.0.1:0").unwrap()
    }

    #[test]
    fn http_dates_are_imf_fixdates() {
        use chrono::TimeZone;
        for (t, want) in [
            ((2026, 11, 22, 10, 0, 0), "Sun, 22 Nov 2026 10:00:00 GMT"),
            ((2000, 2, 29, 23, 59, 59), "Tue, 29 Feb 2000 23:59:59 GMT"),
            ((1999, 1, 1, 0, 0, 7), "Fri, 01 Jan 1999 00:00:07 GMT"),
        ] {
            let (y, mo, d, h, mi, s) = t;
            let at = chrono::Utc.with_ymd_and_hms(y, mo, d, h, mi, s).unwrap();
            assert_eq!(http_date(at), want);
            // The same text chrono's pattern gave.
            assert_eq!(
                http_date(at),
                at.format("%a, %d %b %Y %H:%M:%S GMT").to_string()
            );
        }
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_500_in_vendor_shape() {
        let state = AppState::new(ServerConfig::demo());
        let routes = routes(&state).route(
            "/_test/panic",
            get(|| async {
                if true {
                    panic!("boom");
                }
                "unreachable"
            }),
        );
        let app = finish(routes, state);
        let req = axum::http::Request::get("/_test/panic")
            .body(axum::body::Body::empty())
            .unwrap();
        let resp = app.clone().oneshot(req).await.unwrap();
        assert_eq!(resp.status(), 500);
        let bytes = axum::body::to_bytes(resp.into_body(), 1 << 20)
            .await
            .unwrap();
        let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(v["code"], "INTERNAL_ERROR");
        assert_eq!(v["status"], 500);
        assert!(!String::from_utf8_lossy(&bytes).contains("boom"));
        // and the app keeps answering
        let req = axum::http::Request::get("/_inspect/health")
            .body(axum::body::Body::empty())
            .unwrap();
        assert_eq!(app.oneshot(req).await.unwrap().status(), 200);
    }

    #[test]
    fn background_server_starts_and_stops() {
        let server = spawn(ServerConfig::demo(), loopback()).unwrap();
        assert_ne!(server.addr.port(), 0);
        let mut s = std::net::TcpStream::connect(server.addr).unwrap();
        use std::io::{Read, Write};
        s.write_all(
            b"GET /_inspect/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        assert!(out.starts_with("HTTP/1.1 200"), "{out}");
        let addr = server.addr;
        server.stop();
        assert!(std::net::TcpStream::connect(addr).is_err());
    }

    /// The workbench's way: bound first (the address known before anything runs), then served
    /// on a runtime it owns, with no thread of the server's own.
    #[test]
    fn a_server_on_the_callers_runtime_serves_its_bound_listener_until_dropped() {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let listener = loopback();
        let addr = listener.local_addr().unwrap();
        let server = start(rt.handle(), ServerConfig::demo(), listener).unwrap();
        assert_eq!(server.addr, addr);
        let get_health = || {
            use std::io::{Read, Write};
            let mut s = std::net::TcpStream::connect(addr)?;
            s.write_all(
                b"GET /_inspect/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
            )?;
            let mut out = String::new();
            s.read_to_string(&mut out)?;
            Ok::<_, std::io::Error>(out)
        };
        let out = get_health().unwrap();
        assert!(out.starts_with("HTTP/1.1 200"), "{out}");
        drop(server);
        // The accept loop ends on the runtime's thread; the port is then closed.
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while std::net::TcpStream::connect(addr).is_ok() {
            assert!(
                std::time::Instant::now() < deadline,
                "still listening on {addr}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}
