//! `signscope key set|get|delete PROFILE`: a profile's REST key in the operating system's key
//! store (`keyring:signscope/PROFILE`, `docs/profiles.md`, "The operating system's key store").
//!
//! `set` reads the key without echo on a terminal (from stdin otherwise), files it in the store
//! and points the profile at it; with `--from-profile` it moves a key an earlier version kept in
//! the profile file in clear. `get` prints the key only with `--reveal`. No output or error here
//! contains the key, except `get --reveal`'s one line.

use std::io::{IsTerminal, Read, Write};

use anyhow::{anyhow, bail, Context};

use crate::core::Secret;
use crate::store::os_store::{self, DEFAULT_SERVICE};
use crate::store::{KeySource, Paths, Profile, ProfileStore};

#[derive(Debug, clap::Args)]
pub struct KeyArgs {
    #[command(subcommand)]
    pub command: KeyCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum KeyCommand {
    /// Keep a profile's REST key in the operating system's key store (keyring:signscope/PROFILE)
    /// and point the profile at it. The key is read without echo from the terminal, or from
    /// stdin when it is not one.
    Set {
        profile: String,
        /// Move the key the profile file holds in clear (written by an earlier version on an
        /// explicit answer) instead of reading one; the file then keeps only the reference.
        #[arg(long)]
        from_profile: bool,
    },
    /// Say whether the profile's key-store entry holds a key; print it only with --reveal.
    Get {
        profile: String,
        /// Print the key itself on stdout.
        #[arg(long)]
        reveal: bool,
    },
    /// Remove the profile's entry from the operating system's key store.
    Delete { profile: String },
}

pub fn run(args: KeyArgs) -> anyhow::Result<u8> {
    let store = ProfileStore::open(&Paths::discover()?);
    match args.command {
        KeyCommand::Set {
            profile,
            from_profile,
        } => set(&store, &profile, from_profile),
        KeyCommand::Get { profile, reveal } => get(&store, &profile, reveal),
        KeyCommand::Delete { profile } => delete(&store, &profile),
    }
}

/// The key-store entry of a profile: the one it points at, else `signscope/PROFILE`.
fn entry_of(p: &Profile) -> (String, String) {
    match &p.rest_key {
        KeySource::Keyring { service, account } => (service.clone(), account.clone()),
        _ => (DEFAULT_SERVICE.to_string(), p.name.clone()),
    }
}

fn set(store: &ProfileStore, name: &str, from_profile: bool) -> anyhow::Result<u8> {
    let mut p = store.load(name)?;
    if p.is_demo() {
        bail!("the demo profile's key is published and built in; `signscope profile new NAME --from demo` makes a profile whose key you can set");
    }
    let key = if from_profile {
        match &p.rest_key {
            KeySource::Stored(s) => s.clone(),
            other => bail!(
                "profile \"{name}\" holds no REST key in its file (its key comes from the {}); `signscope key set {name}` without --from-profile reads one",
                other.describe()
            ),
        }
    } else {
        read_new_key(name)?
    };
    let (service, account) = (DEFAULT_SERVICE.to_string(), p.name.clone());
    os_store::write(&service, &account, &key)?;
    p.rest_key = KeySource::Keyring {
        service: service.clone(),
        account: account.clone(),
    };
    let outcome = store.save(&p).with_context(|| {
        format!("the key is in the operating-system key store as keyring:{service}/{account}, but profile \"{name}\" was not changed")
    })?;
    println!("{}", outcome.message());
    println!(
        "the REST key of profile \"{name}\" is kept in the operating-system key store as keyring:{service}/{account}; the profile reads it from there"
    );
    Ok(0)
}

/// The key typed (no echo) on a terminal, or all of stdin otherwise; one trailing newline
/// dropped, an empty key refused.
fn read_new_key(name: &str) -> anyhow::Result<Secret> {
    let stdin = std::io::stdin();
    let text = if stdin.is_terminal() {
        eprint!("REST key of profile \"{name}\" (not shown): ");
        std::io::stderr().flush()?;
        let typed = read_without_echo();
        eprintln!();
        typed?
    } else {
        let mut text = String::new();
        stdin
            .lock()
            .read_to_string(&mut text)
            .context("cannot read the REST key from standard input")?;
        text
    };
    let key = Secret::from_read_text(text);
    if key.is_empty() {
        bail!("no REST key was given; nothing was stored (type it, or pipe it on standard input)");
    }
    Ok(key)
}

/// A line typed on the terminal with echo off (raw mode): Enter ends it, Backspace removes a
/// character, Ctrl-C or Ctrl-D on an empty line abandons it.
fn read_without_echo() -> anyhow::Result<String> {
    crossterm::terminal::enable_raw_mode().context("cannot switch the terminal off echo")?;
    let result = read_raw_line();
    let _ = crossterm::terminal::disable_raw_mode();
    result
}

fn read_raw_line() -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    let mut stdin = std::io::stdin().lock();
    let mut b = [0u8; 1];
    loop {
        if stdin.read(&mut b)? == 0 {
            break;
        }
        match b[0] {
            b'\r' | b'\n' => break,
            0x03 => bail!("cancelled; nothing was stored"),
            0x04 if bytes.is_empty() => bail!("cancelled; nothing was stored"),
            0x7f | 0x08 => {
                // Remove one character (a UTF-8 sequence's continuation bytes with it).
                while let Some(last) = bytes.pop() {
                    if last & 0xC0 != 0x80 {
                        break;
                    }
                }
            }
            c => bytes.push(c),
        }
    }
    String::from_utf8(bytes)
        .map_err(|_| anyhow!("the REST key typed is not UTF-8 text; nothing was stored"))
}

fn get(store: &ProfileStore, name: &str, reveal: bool) -> anyhow::Result<u8> {
    let p = store.load(name)?;
    let (service, account) = entry_of(&p);
    let key = os_store::read(&service, &account)?;
    if reveal {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", key.expose())?;
    } else {
        drop(key);
        println!(
            "keyring:{service}/{account} holds a REST key; `signscope key get {name} --reveal` prints it"
        );
    }
    Ok(0)
}

fn delete(store: &ProfileStore, name: &str) -> anyhow::Result<u8> {
    let p = store.load(name)?;
    let (service, account) = entry_of(&p);
    os_store::delete(&service, &account)?;
    println!("removed keyring:{service}/{account} from the operating-system key store");
    if matches!(p.rest_key, KeySource::Keyring { .. }) {
        println!(
            "profile \"{name}\" still reads its key from there; `signscope key set {name}` stores a new one"
        );
    }
    Ok(0)
}
