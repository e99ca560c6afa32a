//! `signscope serve`: run the local verifying server until Ctrl-C or SIGTERM.
//!
//! The first stdout line is exactly `listening on http://ADDR` (flushed at once), so scripts can
//! pass `--addr 127.0.0.1:0` and read the port. REST keys never appear on the command line:
//! `--account API_KEY=REF` names one by reference (`env:NAME`, `file:PATH`, `cmd:COMMAND`,
//! `keyring:SERVICE/ACCOUNT`, or an environment variable's bare name).

use std::io::Write;
use std::net::SocketAddr;

use anyhow::{bail, Context};

use crate::core::{Secret, SigningForm};
use crate::store::{KeyError, KeySource};

use super::keys::{account_key_source, resolve, valid_env_name};
use crate::server::{self, ServerConfig, DEMO_API_KEY, DEMO_REST_KEY};

use super::serve_ci::{write_ready_file, RunFollower};

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default; port 0 picks a free port).
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,

    /// An account: its public API key and its REST key by reference, e.g. `--account
    /// acme=env:ACME_REST_KEY` (or `keyring:signscope/acme`, `file:PATH`, `cmd:COMMAND`; a bare
    /// `ACME_REST_KEY` names an environment variable); `@PREFIX` after it adds a header prefix
    /// that account answers to besides --header-prefix (`--account acme=ACME_REST_KEY@KLEVU`).
    /// Repeatable.
    #[arg(long = "account", value_name = "API_KEY=REF[@PREFIX]")]
    pub accounts: Vec<String>,

    /// Add the demo account and print its (demo-only, public) keys.
    #[arg(long)]
    pub demo: bool,

    /// Largest accepted request body in bytes (larger ones get 413).
    #[arg(long, value_name = "BYTES", default_value_t = server::config::DEFAULT_MAX_BODY)]
    pub max_body: usize,

    /// Seconds added to the server clock before checking timestamps (may be negative).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 0,
        allow_negative_numbers = true
    )]
    pub clock_skew: i64,

    /// How many requests, and how many events, to keep for inspection (oldest dropped first).
    #[arg(long, value_name = "N", default_value_t = server::config::DEFAULT_MAX_STORED)]
    pub max_stored: usize,

    /// Vendor header prefix (`SVC`; a real account uses `KLEVU`).
    #[arg(long, value_name = "PREFIX", default_value = crate::core::DEFAULT_HEADER_PREFIX)]
    pub header_prefix: String,

    /// Also accept signatures made in this signing form (repeatable): `php-sdk` accepts what
    /// the vendor's PHP SDK signs ('?' before the query, trailing '/' trimmed; docs/signing.md),
    /// with a warning on each such request. By default only the documented form is accepted.
    #[arg(long = "accept-form", value_name = "FORM")]
    pub accept_forms: Vec<SigningForm>,

    /// Forward every indexing request, once verified and recorded, byte for byte to this base
    /// URL (e.g. the real service) and answer with its answer.
    #[arg(long, value_name = "URL")]
    pub forward_indexing: Option<String>,

    /// Forward every collector request, once validated and recorded, to this base URL.
    #[arg(long, value_name = "URL")]
    pub forward_analytics: Option<String>,

    /// At most this many signature diagnoses run at once; a mismatch that finds none free gets
    /// its verdict and expected signing text with "diagnosis skipped: server busy".
    #[arg(long, value_name = "N", default_value_t = server::config::DEFAULT_MAX_DIAGNOSES)]
    pub max_diagnoses: usize,

    /// Also serve requests naming this host (repeatable; `*.example.test` allows the names
    /// under it). IP addresses and localhost are always served; another name is refused, as a
    /// web page reaching this server through DNS rebinding would send it.
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_hosts: Vec<String>,

    #[command(flatten)]
    pub ci: super::serve_ci::CiArgs,

    /// Also serve `PUT /_bench/unverified` (no signature check; for measuring verification cost).
    #[arg(long, hide = true)]
    pub unverified_route: bool,
}

/// Parse one `--account API_KEY=REF[@PREFIX]` and read the key: REF is a reference (`env:NAME`,
/// `file:PATH`, `cmd:COMMAND`, `keyring:SERVICE/ACCOUNT`, read by the store's one resolver) or
/// the bare name of an environment variable (read through `env`). `@PREFIX` is the part after
/// the last '@' when it is letters, digits, '-' or '_'. An error never repeats what follows the
/// `=`: where a reference belongs, a pasted key is common.
fn account(
    spec: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> anyhow::Result<(String, Secret, Option<String>)> {
    let Some((api_key, rest)) = spec.split_once('=') else {
        bail!("--account must have the form API_KEY=REF (the REST key by reference, e.g. acme=env:ACME_REST_KEY)");
    };
    let (reference, prefix) = match rest.rsplit_once('@') {
        Some((r, p)) if valid_env_name(r) || (!r.is_empty() && valid_prefix(p)) => (r, Some(p)),
        _ => (rest, None),
    };
    if let Some(p) = prefix.filter(|p| !valid_prefix(p)) {
        bail!("the prefix {p:?} in --account {api_key}=…@{p} must be letters, digits, '-' or '_' (e.g. KLEVU)");
    }
    if api_key.is_empty() || reference.is_empty() {
        bail!("--account {api_key:?}=… must have the form API_KEY=REF with both parts non-empty");
    }
    let source = account_key_source("--account", api_key, reference)?;
    let secret = match &source {
        // The environment as given (the tests give their own).
        KeySource::Env(var) => {
            let value = env(var).ok_or_else(|| KeyError::EnvMissing { var: var.clone() })?;
            let secret = Secret::from_read_text(value);
            if secret.is_empty() {
                return Err(KeyError::Empty {
                    source_desc: source.describe(),
                })
                .with_context(|| format!("--account {api_key}=…"));
            }
            secret
        }
        other => resolve(other)?,
    };
    Ok((
        api_key.to_string(),
        secret,
        prefix.map(str::to_ascii_uppercase),
    ))
}

fn valid_prefix(p: &str) -> bool {
    !p.is_empty()
        && p.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The server configuration for these arguments.
pub fn config(
    args: &ServeArgs,
    env: &dyn Fn(&str) -> Option<String>,
) -> anyhow::Result<ServerConfig> {
    let mut cfg = if args.demo {
        ServerConfig::demo()
    } else {
        ServerConfig::new()
    };
    for spec in &args.accounts {
        let (api_key, secret, prefix) = account(spec, env)?;
        if let Some(p) = prefix {
            cfg.account_prefixes
                .entry(api_key.clone())
                .or_default()
                .push(p);
        }
        cfg.accounts.insert(api_key, secret);
    }
    if !valid_prefix(&args.header_prefix) {
        bail!(
            "--header-prefix {:?} must be letters, digits, '-' or '_' (e.g. SVC or KLEVU)",
            args.header_prefix
        );
    }
    if args.max_body == 0 {
        bail!("--max-body must be at least 1 byte");
    }
    if args.max_stored == 0 {
        bail!("--max-stored must be at least 1");
    }
    if let Err(why) = server::config::check_clock_skew(args.clock_skew) {
        bail!("{why}");
    }
    cfg.header_prefix = args.header_prefix.to_ascii_uppercase();
    cfg.max_body = args.max_body;
    cfg.clock_skew_seconds = args.clock_skew;
    cfg.max_stored = args.max_stored;
    cfg.unverified_route = args.unverified_route;
    cfg.accept_forms = args
        .accept_forms
        .iter()
        .copied()
        .filter(|f| *f != SigningForm::Standard)
        .collect();
    for (flag, url) in [
        ("--forward-indexing", &args.forward_indexing),
        ("--forward-analytics", &args.forward_analytics),
    ] {
        if let Some(url) = url {
            if let Err(why) = server::forward::check_url(url) {
                bail!("{flag} {why}");
            }
        }
    }
    cfg.forward_indexing = args.forward_indexing.clone();
    cfg.forward_analytics = args.forward_analytics.clone();
    cfg.max_diagnoses = args.max_diagnoses;
    cfg.allowed_hosts = args.allow_hosts.clone();
    Ok(cfg)
}

pub fn run(args: ServeArgs) -> anyhow::Result<u8> {
    let cfg = config(&args, &|name| std::env::var(name).ok())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("could not start the async runtime")?;
    runtime.block_on(serve(args, cfg))
}

async fn serve(args: ServeArgs, cfg: ServerConfig) -> anyhow::Result<u8> {
    // Listen for the stop signals before announcing the address, so that a script that reads
    // the first line and sends SIGTERM at once always gets a clean stop.
    let stop = stop_signal()?;
    let log = args.ci.open()?;
    let no_accounts = cfg.accounts.is_empty();
    let prefix = cfg.header_prefix.clone();
    let forms = cfg.accept_forms.clone();
    let server = std::net::TcpListener::bind(args.addr)
        .and_then(|listener| server::start(&tokio::runtime::Handle::current(), cfg, listener))
        .with_context(|| format!("could not listen on {}", args.addr))?;
    let run = RunFollower::start(&server, log);
    if let Some(path) = &args.ci.ready_file {
        write_ready_file(path, &server)?;
    }
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening on {}", server.url())?;
        if args.demo {
            writeln!(out, "demo account (demo-only keys, published on purpose; never use them for a real account):")?;
            writeln!(out, "  X-{prefix}-APIKEY: {DEMO_API_KEY}")?;
            writeln!(out, "  REST key:        {DEMO_REST_KEY}")?;
        }
        writeln!(
            out,
            "indexing API: {url}/v2/...   collector: {url}/analytics/collect   inspection: {url}/_inspect/summary",
            url = server.url()
        )?;
        for form in forms {
            writeln!(
                out,
                "also accepting signatures in the {} form ({}), each with a warning",
                form.name(),
                form.description()
            )?;
        }
        if let Some(up) = &args.forward_indexing {
            writeln!(out, "forwarding indexing requests to {up}")?;
        }
        if let Some(up) = &args.forward_analytics {
            writeln!(out, "forwarding collector requests to {up}")?;
        }
        writeln!(out, "live: signscope watch --url {}", server.url())?;
        out.flush()?;
    }
    if no_accounts {
        eprintln!("signscope: warning: no accounts configured (use --demo or --account API_KEY=REF); every signed request will be rejected as UNKNOWN_API_KEY");
    }
    if !server.addr.ip().is_loopback() {
        eprintln!(
            "signscope: warning: listening on {}, which is not a loopback address; anyone who can reach it can use this server",
            server.addr
        );
    }
    tokio::select! {
        _ = stop => {}
        _ = run.idle(args.ci.exit_after_idle) => {}
    }
    let dropped = {
        let s = server.store().summary();
        (s.dropped_requests, s.dropped_events)
    };
    server.shutdown().await;
    let verdict = run.finish().await;
    let report = verdict.report(dropped);
    if args.ci.summary_to_stderr() {
        eprint!("{report}");
    } else {
        print!("{report}");
        std::io::stdout().flush()?;
    }
    Ok(u8::from(args.ci.strict && verdict.failed()))
}

/// A future that completes on SIGTERM or SIGINT (Ctrl-C); the handlers are installed now.
#[cfg(unix)]
fn stop_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate()).context("could not listen for SIGTERM")?;
    let mut int = signal(SignalKind::interrupt()).context("could not listen for SIGINT")?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    })
}

#[cfg(not(unix))]
fn stop_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    Ok(async {
        let _ = tokio::signal::ctrl_c().await;
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn parse(args: &[&str]) -> ServeArgs {
        #[derive(Parser)]
        struct T {
            #[command(flatten)]
            a: ServeArgs,
        }
        T::try_parse_from(std::iter::once("serve").chain(args.iter().copied()))
            .unwrap()
            .a
    }

    fn env(name: &str) -> Option<String> {
        match name {
            "ACME_KEY" => Some("acme-rest\n".into()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn an_account_key_may_be_any_reference() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("acme.key");
        std::fs::write(&f, "acme-file-key\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let spec = format!("acme=file:{}@KLEVU", f.display());
        let cfg = config(&parse(&["--account", &spec]), &env).unwrap();
        assert_eq!(cfg.accounts["acme"].expose(), "acme-file-key");
        assert_eq!(cfg.prefixes_for("acme"), ["SVC", "KLEVU"]);
        let cfg = config(&parse(&["--account", "acme=cmd:printf cmd-key"]), &env).unwrap();
        assert_eq!(cfg.accounts["acme"].expose(), "cmd-key");
        let err = config(&parse(&["--account", "acme=cmd:true"]), &env).unwrap_err();
        assert!(format!("{err:#}").contains("is empty"), "{err:#}");
    }

    #[test]
    fn an_account_may_answer_to_another_prefix() {
        let cfg = config(&parse(&["--account", "acme=ACME_KEY@klevu"]), &env).unwrap();
        assert_eq!(cfg.prefixes_for("acme"), ["SVC", "KLEVU"]);
        assert!(cfg.answers_to("acme", "KLEVU") && cfg.answers_to("acme", "svc"));
        let cfg = config(&parse(&["--account", "acme=ACME_KEY"]), &env).unwrap();
        assert_eq!(cfg.prefixes_for("acme"), ["SVC"]);
        let err = config(&parse(&["--account", "acme=ACME_KEY@X Y"]), &env).unwrap_err();
        assert!(err.to_string().contains("must be letters"), "{err}");
        // The demo account answers to SVC and KLEVU.
        let cfg = config(&parse(&["--demo"]), &env).unwrap();
        assert_eq!(
            cfg.prefixes_for(crate::core::demo::DEMO_API_KEY),
            ["SVC", "KLEVU"]
        );
    }

    #[test]
    fn defaults_are_loopback_2mb_and_no_skew() {
        let a = parse(&[]);
        assert_eq!(a.addr, "127.0.0.1:8080".parse::<SocketAddr>().unwrap());
        let cfg = config(&a, &env).unwrap();
        assert_eq!(cfg.max_body, 2 * 1024 * 1024);
        assert_eq!(cfg.clock_skew_seconds, 0);
        assert_eq!(cfg.max_stored, 10_000);
        assert!(cfg.accounts.is_empty());
    }

    #[test]
    fn accounts_come_from_the_environment() {
        let a = parse(&[
            "--account",
            "acme=ACME_KEY",
            "--demo",
            "--clock-skew",
            "-30",
        ]);
        let cfg = config(&a, &env).unwrap();
        assert_eq!(cfg.accounts["acme"].expose(), "acme-rest");
        assert_eq!(cfg.accounts[DEMO_API_KEY].expose(), DEMO_REST_KEY);
        assert_eq!(cfg.clock_skew_seconds, -30);
    }

    #[test]
    fn a_missing_or_empty_variable_is_one_clear_sentence() {
        let err = config(&parse(&["--account", "acme=NOPE"]), &env).unwrap_err();
        let text = format!("{err:#}");
        assert!(text.contains("NOPE") && text.contains("not set"), "{text}");
        let err = config(&parse(&["--account", "acme=EMPTY"]), &env).unwrap_err();
        assert!(format!("{err:#}").contains("empty"));
        let err = config(&parse(&["--account", "acme"]), &env).unwrap_err();
        assert!(format!("{err:#}").contains("API_KEY=REF"));
        // A REST key pasted where the variable's name belongs is refused and never repeated.
        for pasted in ["k3y+/Pasted==", "k3y+/Pasted@x", "9pasted"] {
            let spec = format!("acme={pasted}");
            let err = config(&parse(&["--account", &spec]), &env).unwrap_err();
            let text = format!("{err:#}");
            assert!(text.contains("environment variable"), "{text}");
            assert!(
                !text.contains("Pasted") && !text.contains("9pasted"),
                "{text}"
            );
        }
        let err = config(&parse(&["--header-prefix", "X Y"]), &env).unwrap_err();
        assert!(format!("{err:#}").contains("--header-prefix"));
        let err = config(&parse(&["--forward-indexing", "ftp://x"]), &env).unwrap_err();
        let text = format!("{err:#}");
        assert!(
            text.starts_with("--forward-indexing \"ftp://x\" must start with http"),
            "{text}"
        );
        let err = config(&parse(&["--forward-analytics", "nonsense"]), &env).unwrap_err();
        assert!(format!("{err:#}").contains("--forward-analytics"));
        let cfg = config(&parse(&["--forward-indexing", "https://example.com"]), &env).unwrap();
        assert_eq!(cfg.forward_indexing.as_deref(), Some("https://example.com"));
        assert_eq!(cfg.forward_analytics, None);
    }

    #[test]
    fn accept_form_adds_the_php_sdk_form() {
        assert!(config(&parse(&[]), &env).unwrap().accept_forms.is_empty());
        let cfg = config(&parse(&["--accept-form", "php-sdk"]), &env).unwrap();
        assert_eq!(cfg.accept_forms, [SigningForm::PhpSdk]);
        // The documented form is always accepted; naming it adds nothing.
        let cfg = config(&parse(&["--accept-form", "standard"]), &env).unwrap();
        assert!(cfg.accept_forms.is_empty());
        #[derive(clap::Parser, Debug)]
        struct T {
            #[command(flatten)]
            a: ServeArgs,
        }
        let err =
            <T as clap::Parser>::try_parse_from(["serve", "--accept-form", "php"]).unwrap_err();
        assert!(err.to_string().contains("use standard or php-sdk"), "{err}");
    }
}
