//! The in-process demo server for the workbench's unit tests that put requests through its
//! router (a test module: the workbench itself reaches the server through the engine only,
//! `docs/architecture.md`).

/// Run `f` on a current-thread runtime with the demo server's state (the in-process server the
/// workbench starts), for tests that put requests through its router.
pub(crate) fn on_demo_server<T, Fut>(f: impl FnOnce(crate::server::AppState) -> Fut) -> T
where
    Fut: std::future::Future<Output = T>,
{
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap_or_else(|e| panic!("a test runtime: {e}"));
    rt.block_on(f(crate::server::AppState::new(
        crate::server::ServerConfig::demo(),
    )))
}
