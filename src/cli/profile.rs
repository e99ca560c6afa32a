//! `signscope profile`: list, show, create, edit, delete profiles; print where they live; manage
//! a profile's named requests (`profile request ...`, in `profile_request.rs`).
//! `show` and `list` describe where the REST key comes from, never the key; `new` and `edit`
//! keep a reference to it, never the key (but on `--store-rest-key-from-stdin`).

use std::io::Read;

use anyhow::{anyhow, Context};

use crate::core::Secret;
use crate::store::{KeySource, Paths, Profile, ProfileStore};

#[derive(Debug, clap::Args)]
pub struct ProfileArgs {
    #[command(subcommand)]
    pub command: ProfileCommand,
}

// `New` carries every flag of `profile new`; the enum is parsed once per run, so its size does
// not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, clap::Subcommand)]
pub enum ProfileCommand {
    /// List the profiles (the built-in demo first); unreadable files are reported with their line.
    List,
    /// Show one profile (the REST key's source, never the key).
    Show { name: String },
    /// Delete a saved profile.
    Delete { name: String },
    /// Print the profile directory, the data directory and the history file.
    Path,
    /// Create a profile.
    New(NewArgs),
    /// Change a saved profile's account settings or where its REST key comes from (the file's
    /// comments and layout are kept; what is not given stays as it is).
    Edit(EditArgs),
    /// List, add, copy, rename, move or delete a profile's named requests.
    Request(super::profile_request::RequestArgs),
}

#[derive(Debug, clap::Args)]
pub struct NewArgs {
    pub name: String,
    /// Start from this profile (e.g. `demo`) instead of the defaults.
    #[arg(long, value_name = "NAME")]
    pub from: Option<String>,
    #[command(flatten)]
    pub account: AccountArgs,
    /// Read the REST key from standard input now and store it in the profile file (which is
    /// then readable by you only, mode 0600); `signscope key set` keeps it in the operating
    /// system's key store instead.
    #[arg(long, conflicts_with = "rest_key_ref")]
    pub store_rest_key_from_stdin: bool,
}

#[derive(Debug, clap::Args)]
pub struct EditArgs {
    pub name: String,
    #[command(flatten)]
    pub account: AccountArgs,
}

/// The account settings `profile new` and `profile edit` take; each one not given is left as
/// it is.
#[derive(Debug, clap::Args)]
pub struct AccountArgs {
    /// Fill in a vendor's public settings: `klevu` sets the prefix KLEVU and the vendor's
    /// indexing and analytics URLs (the flags below still override them; keys stay yours).
    #[arg(long, value_name = "VENDOR", value_parser = crate::core::vendor::VendorPreset::named)]
    pub vendor: Option<&'static crate::core::vendor::VendorPreset>,
    #[arg(long, value_name = "URL")]
    pub indexing_url: Option<String>,
    #[arg(long, value_name = "URL")]
    pub analytics_url: Option<String>,
    /// The public API key.
    #[arg(long, value_name = "KEY")]
    pub api_key: Option<String>,
    /// Where the REST key is read from when sending: the profile keeps this reference, never
    /// the key.
    #[command(flatten)]
    pub key: super::keys::RestKeyArgs,
    /// Header prefix (SVC by default; KLEVU for a real account).
    #[arg(long, value_name = "X")]
    pub header_prefix: Option<String>,
}

impl AccountArgs {
    /// Whether any setting was given.
    fn given(&self) -> bool {
        self.vendor.is_some()
            || self.indexing_url.is_some()
            || self.analytics_url.is_some()
            || self.api_key.is_some()
            || self.key.given()
            || self.header_prefix.is_some()
    }

    /// Set on `p` what was given: a vendor's settings first, the flags over them. A key
    /// reference that cannot be read as one is refused (never echoed) and `p` is left as it is.
    fn apply(self, p: &mut Profile) -> anyhow::Result<()> {
        let source = self.key.source()?;
        if let Some(v) = self.vendor {
            p.set_header_prefix(v.header_prefix);
            p.indexing_url = v.indexing_url.to_string();
            p.analytics_url = v.analytics_url.to_string();
        }
        if let Some(u) = self.indexing_url {
            p.indexing_url = u;
        }
        if let Some(u) = self.analytics_url {
            p.analytics_url = u;
        }
        if let Some(k) = self.api_key {
            p.set_api_key(&k);
        }
        if let Some(x) = self.header_prefix {
            p.set_header_prefix(&x);
        }
        if let Some(source) = source {
            p.rest_key = source;
        }
        Ok(())
    }
}

pub fn run(args: ProfileArgs) -> anyhow::Result<u8> {
    let paths = Paths::discover()?;
    let store = ProfileStore::open(&paths);
    match args.command {
        ProfileCommand::List => list(&store),
        ProfileCommand::Show { name } => {
            let p = store.load(&name)?;
            print!("{}", show(&p));
            Ok(0)
        }
        ProfileCommand::Delete { name } => {
            let path = store.delete(&name)?;
            println!("deleted profile \"{name}\" ({})", path.display());
            Ok(0)
        }
        ProfileCommand::Path => {
            println!("profiles: {}", paths.profiles_dir().display());
            println!("data:     {}", paths.data_dir.display());
            println!("history:  {}", paths.history_file().display());
            Ok(0)
        }
        ProfileCommand::New(a) => new(&store, a),
        ProfileCommand::Edit(a) => edit(&store, a),
        ProfileCommand::Request(a) => super::profile_request::run(&store, a),
    }
}

fn list(store: &ProfileStore) -> anyhow::Result<u8> {
    let report = store.list();
    let last = store.last_used();
    for p in &report.profiles {
        let mark = if last.as_deref() == Some(p.name.as_str()) {
            "*"
        } else {
            " "
        };
        println!(
            "{mark} {:<20} {:<40} key: {}",
            p.name,
            p.indexing_url,
            p.rest_key.describe()
        );
    }
    for e in &report.errors {
        eprintln!("signscope: warning: {e}");
    }
    Ok(if report.errors.is_empty() { 0 } else { 1 })
}

/// The profile as `field: value` lines; the key only as its source.
pub fn show(p: &Profile) -> String {
    let mut out = String::new();
    let mut line = |k: &str, v: &str| out.push_str(&format!("{k:<14} {v}\n"));
    line("name:", &p.name);
    if let Some(o) = &p.origin {
        line("file:", &o.path.display().to_string());
    } else if p.is_demo() {
        line("file:", "(built in)");
    }
    line("indexing_url:", &p.indexing_url);
    line("analytics_url:", &p.analytics_url);
    line("header_prefix:", p.header_prefix());
    line("api_key:", p.api_key());
    line("rest_key:", &p.rest_key.describe());
    if let Some(e) = &p.events {
        line("events:", &format!("{} bytes", e.len()));
    }
    line("requests:", &p.requests().len().to_string());
    for l in super::profile_request::list_text(p).lines() {
        line("", l);
    }
    out
}

fn new(store: &ProfileStore, a: NewArgs) -> anyhow::Result<u8> {
    // The name first: a name that can never be saved is the error to fix, not a missing URL
    // found before it, nor an "already exists" for a name such as `../profiles/shop` that the
    // path built from it happens to reach.
    if a.name == crate::store::DEMO_PROFILE {
        return Err(crate::store::StoreError::DemoIsBuiltIn.into());
    }
    crate::store::profile::validate_name(&a.name)?;
    let target = store.paths().profile_file(&a.name);
    if target.exists() {
        return Err(crate::store::StoreError::AlreadyExists { path: target }.into());
    }
    let mut p = match &a.from {
        Some(from) => {
            let mut base = store.load(from)?;
            base.name = a.name.clone();
            base.origin = None;
            base
        }
        None => Profile::new(a.name.clone()),
    };
    a.account.apply(&mut p)?;
    if a.store_rest_key_from_stdin {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read the REST key from standard input")?;
        let key = Secret::from_read_text(text);
        if key.is_empty() {
            return Err(anyhow!(
                "standard input held no REST key; nothing was saved"
            ));
        }
        p.rest_key = KeySource::Stored(key);
    }
    if p.indexing_url.is_empty() {
        return Err(anyhow!(
            "profile \"{}\" needs --indexing-url (or --from an existing profile)",
            p.name
        ));
    }
    if p.analytics_url.is_empty() {
        p.analytics_url = p.indexing_url.clone();
    }
    check_urls(&p)?;
    // Another `profile new` of this name may have won since the check above.
    let outcome = store.create(&p)?;
    println!("{}", outcome.message());
    Ok(0)
}

/// `profile edit`: load, set what was given, check the URLs as `new` does, save over the same
/// file (its comments kept; a file changed on disk meanwhile is not overwritten). A new key
/// reference replaces a key kept in the file in clear, which is then gone from it.
fn edit(store: &ProfileStore, a: EditArgs) -> anyhow::Result<u8> {
    if a.name == crate::store::DEMO_PROFILE {
        return Err(crate::store::StoreError::DemoIsBuiltIn.into());
    }
    if !a.account.given() {
        return Err(anyhow!(
            "profile edit {} changes nothing: give --rest-key REF, --indexing-url, --analytics-url, --api-key, --header-prefix or --vendor",
            a.name
        ));
    }
    let mut p = store.load(&a.name)?;
    let was_stored = p.rest_key.is_stored();
    a.account.apply(&mut p)?;
    check_urls(&p)?;
    let outcome = store.save(&p)?;
    println!("{}", outcome.message());
    if was_stored && !p.rest_key.is_stored() {
        println!("the REST key the file kept in clear is no longer in it");
    }
    Ok(0)
}

/// A URL that no send could use is refused now, naming its flag, not at the first send.
fn check_urls(p: &Profile) -> anyhow::Result<()> {
    for (flag, url) in [
        ("--indexing-url", &p.indexing_url),
        ("--analytics-url", &p.analytics_url),
    ] {
        if url != crate::store::EMBEDDED_URL {
            crate::engine::check_target_of(url, &crate::core::RequestSpec::default())
                .map_err(|e| anyhow!("{flag}: {e}; nothing was saved"))?;
        }
    }
    Ok(())
}
