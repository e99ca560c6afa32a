//! What a web page must not do to the local server (`docs/server.md` rules L9 and L10).
//!
//! - **DNS rebinding**: a page on a public name that its DNS then points at 127.0.0.1 is, to
//!   the browser, the same origin as the server: it could read `/_inspect/requests` (bodies,
//!   signatures) and send anything. Its requests carry that name in `Host`, so a `Host` that is
//!   not an IP address, `localhost` (or a name under `.localhost`, which browsers resolve to
//!   loopback themselves) or a name the user allowed (`serve --allow-host`) is refused. An IP
//!   address cannot be rebound, so any is accepted (a phone posting events to the machine's
//!   LAN address keeps working). CORS is about `Origin` and stays as it is: the collector
//!   answers pages of any origin.
//! - **Cross-site writes**: a page of any origin can send a `no-cors` `POST` with a "simple"
//!   content type without the browser asking the server first. The inspection routes that
//!   change state (`POST /_inspect/reset`) therefore require `Content-Type: application/json`
//!   or an `X-Signscope` header, which a browser sends to another origin only after a
//!   preflight that this server never grants.
//!
//! The guard wraps the server as it listens ([`super::start`]); the router called in-process
//! (`check` judging a capture's requests, which carry the real service's `Host`) is not
//! guarded.

use axum::extract::{Request, State};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use super::AppState;

/// The host part of a `Host` value (`name`, `name:port`, `[v6]:port`), lower-cased.
fn host_name(value: &str) -> String {
    let v = value.trim();
    let host = if let Some(rest) = v.strip_prefix('[') {
        // An IPv6 literal keeps its brackets off.
        rest.split(']').next().unwrap_or(rest)
    } else {
        v.rsplit_once(':').map_or(v, |(h, port)| {
            if port.bytes().all(|b| b.is_ascii_digit()) {
                h
            } else {
                v
            }
        })
    };
    host.trim_end_matches('.').to_ascii_lowercase()
}

/// Whether a request naming `host` may be served: an IP address, `localhost`, a name under
/// `.localhost`, or one of `allowed` (compared without case; `*.example.test` allows the
/// names under it).
pub fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let name = host_name(host);
    if name.parse::<std::net::IpAddr>().is_ok()
        || name == "localhost"
        || name.ends_with(".localhost")
    {
        return true;
    }
    allowed.iter().any(|a| {
        let a = a.trim().trim_end_matches('.').to_ascii_lowercase();
        match a.strip_prefix("*.") {
            Some(parent) => name.ends_with(&format!(".{parent}")),
            None => a == name,
        }
    })
}

/// Whether a state-changing inspection request carries what a page cannot send to another
/// origin without a preflight.
fn preflighted(req: &Request) -> bool {
    let json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
    json || req.headers().contains_key("x-signscope")
}

pub async fn guard(State(st): State<AppState>, req: Request, next: Next) -> Response {
    let host = req
        .uri()
        .authority()
        .map(|a| a.as_str().to_string())
        .or_else(|| {
            req.headers()
                .get(header::HOST)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
        });
    if let Some(host) = host {
        if !host_allowed(&host, &st.config.allowed_hosts) {
            let name = crate::core::visible::escape_visible(host_name(&host).as_bytes());
            return ApiError::new(
                403,
                "HOST_NOT_ALLOWED",
                format!(
                    "The Host {name} is not an address of this server; a web page may be reaching it through DNS rebinding. Use 127.0.0.1 or localhost, or start the server with --allow-host {name} if that name is yours."
                ),
            )
            .into_response();
        }
    }
    let path = req.uri().path();
    let writes = path.starts_with("/_inspect/")
        && !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if writes && !preflighted(&req) {
        return ApiError::new(
            403,
            "CROSS_SITE_WRITE",
            format!(
                "{} {path} needs a Content-Type: application/json header (or X-Signscope: 1), which a web page cannot send here without the browser asking first; e.g. curl -X POST -H 'Content-Type: application/json' URL.",
                req.method()
            ),
        )
        .into_response();
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_that_cannot_be_rebound_or_were_allowed_are_served() {
        let none: Vec<String> = vec![];
        for ok in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "[::1]:8080",
            "[::1]",
            "localhost:8080",
            "LOCALHOST",
            "app.localhost:3000",
            "192.168.1.5:8080",
            "localhost.",
        ] {
            assert!(host_allowed(ok, &none), "{ok}");
        }
        for bad in [
            "evil.test:8080",
            "localhost.evil.test",
            "127.0.0.1.nip.io",
            "evil-localhost:80",
            "",
        ] {
            assert!(!host_allowed(bad, &none), "{bad}");
        }
        let allowed = vec!["dev.shop.test".to_string(), "*.tunnel.test".to_string()];
        assert!(host_allowed("dev.shop.test:8080", &allowed));
        assert!(host_allowed("DEV.SHOP.TEST", &allowed));
        assert!(host_allowed("a.tunnel.test", &allowed));
        assert!(!host_allowed("tunnel.test", &allowed));
        assert!(!host_allowed("evil.test", &allowed));
    }
}
