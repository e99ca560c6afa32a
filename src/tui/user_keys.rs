//! The user's keys file, `keys.toml` in the config directory: one TOML table per key table
//! (`[global]`, `[request]`, `[request.normal]`, `[request.copy]`, `[events]`, ...), one line
//! per action to rebind, its keys written as help writes them:
//!
//! ```toml
//! [request]
//! send = ["Ctrl-E", "F9"]
//! format = "Alt-B"
//!
//! [global]
//! palette = "Ctrl-P"
//! ```
//!
//! The file is read once, before the workbench takes the terminal; a bad entry is one sentence
//! naming the file, the table and the fix, and the workbench does not start (nothing is lost:
//! the file is only read). What it rebinds is installed in `keymap`, which the dispatcher, the
//! help, the footer and the palette all read.

use std::fmt::Debug;
use std::path::Path;

use super::app::{GLOBAL_COPY_KEYS, GLOBAL_KEYS};
use super::components::{diagnose, events, history, lesson, profiles, request, traffic};
use super::keymap::{self, action_id, KeySpec, Table, UserKeys, TEXT_KEYS};

/// The file's name in the config directory.
pub const FILE_NAME: &str = "keys.toml";

/// One key table as the file names it: its section, and each action's name and default keys.
pub struct Section {
    pub name: &'static str,
    pub actions: Vec<(String, Vec<KeySpec>)>,
}

fn section<A: Copy + Debug>(t: &Table<A>) -> Section {
    Section {
        name: t.section,
        actions: t
            .iter()
            .map(|b| (action_id(&b.action), b.keys.to_vec()))
            .collect(),
    }
}

/// Every key table the file can rebind, in the order help lists them.
pub fn sections() -> Vec<Section> {
    vec![
        section(&GLOBAL_KEYS),
        section(&GLOBAL_COPY_KEYS),
        section(&TEXT_KEYS),
        section(&request::keys::KEYS),
        section(&request::keys::NORMAL_KEYS),
        section(&request::keys::COPY_KEYS),
        section(&events::KEYS),
        section(&events::COPY_KEYS),
        section(&history::KEYS),
        section(&history::COPY_KEYS),
        section(&profiles::FORM_KEYS),
        section(&diagnose::KEYS),
        section(&traffic::KEYS),
        section(&traffic::COPY_KEYS),
        section(&lesson::KEYS),
    ]
}

/// The sections whose keys are looked up together with `name`'s (the router's keys come before
/// every view's; a view's normal-mode keys after its own; the copy menu offers the view's
/// letters and the global ones), so one key in two of them would shadow an action.
fn shares_keys_with(name: &str) -> Vec<String> {
    let mut with = vec![name.to_string()];
    match name.split_once('.') {
        Some((_, "copy")) => with.push("global.copy".into()),
        Some((view, _)) => {
            with.push(view.to_string());
            with.push("global".into());
        }
        None if name == "text" => {}
        None => with.push("global".into()),
    }
    with
}

/// The file's bindings, checked: a TOML table per key table, an action name of that table per
/// line, each key one help would write. `Err` is one sentence naming the fix (`file` is how
/// the sentence names the file).
pub fn parse(text: &str, file: &str) -> Result<UserKeys, String> {
    let doc: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let line = e
            .span()
            .map(|s| text[..s.start.min(text.len())].lines().count().max(1))
            .unwrap_or(1);
        format!(
            "{file} line {line}: {}; fix that line (or remove the file to use the default keys)",
            e.message().trim_end_matches('.')
        )
    })?;
    let all = sections();
    let names: Vec<&str> = all.iter().map(|s| s.name).collect();
    let mut out = UserKeys::new();
    for (table_name, entries) in flat_tables(&doc, file)? {
        let table_name = table_name.as_str();
        let Some(sec) = all.iter().find(|s| s.name == table_name) else {
            return Err(format!(
                "{file}: [{table_name}] is not a key table; use one of {}",
                names.join(", ")
            ));
        };
        for (action, value) in entries {
            if !sec.actions.iter().any(|(id, _)| *id == action) {
                let ids: Vec<&str> = sec.actions.iter().map(|(id, _)| id.as_str()).collect();
                return Err(format!(
                    "{file}: [{table_name}] has no action {action:?}; its actions are {}",
                    ids.join(", ")
                ));
            }
            let texts: Vec<String> = match value {
                toml::Value::String(s) => vec![s],
                toml::Value::Array(a) => a
                    .into_iter()
                    .map(|v| v.as_str().map(str::to_string).ok_or(()))
                    .collect::<Result<_, _>>()
                    .map_err(|_| list_error(file, table_name, &action))?,
                _ => return Err(list_error(file, table_name, &action)),
            };
            let keys = texts
                .iter()
                .map(|t| {
                    keymap::parse_key(t).ok_or_else(|| {
                        format!(
                            "{file}: [{table_name}] {action} = {t:?}: {t:?} is not a key; write keys as help does (Ctrl-G, Alt-Y, F9, PageDown, Enter, s)"
                        )
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            out.insert((table_name.to_string(), action), keys);
        }
    }
    check_clashes(&all, &out, file)?;
    Ok(out)
}

fn list_error(file: &str, table: &str, action: &str) -> String {
    format!("{file}: [{table}] {action} must be a key in quotes or a list of them, e.g. {action} = [\"Ctrl-E\", \"F9\"]")
}

/// The (action, value) lines of one table of the file.
type Lines = Vec<(String, toml::Value)>;

/// `[request.normal]` is a TOML table inside `[request]`: the file's tables by their dotted
/// names, each with its (action, value) lines.
fn flat_tables(doc: &toml::Table, file: &str) -> Result<Vec<(String, Lines)>, String> {
    let mut out = vec![];
    for (name, value) in doc {
        let toml::Value::Table(t) = value else {
            return Err(format!(
                "{file}: {name} is outside every table; put it under its table, e.g. [request]"
            ));
        };
        let mut lines = vec![];
        for (k, v) in t {
            match v {
                toml::Value::Table(sub) => out.push((
                    format!("{name}.{k}"),
                    sub.iter().map(|(a, v)| (a.clone(), v.clone())).collect(),
                )),
                _ => lines.push((k.clone(), v.clone())),
            }
        }
        out.push((name.clone(), lines));
    }
    Ok(out)
}

/// A key the file binds that another action of a table looked up with it also has.
fn check_clashes(all: &[Section], user: &UserKeys, file: &str) -> Result<(), String> {
    let keys_of = |sec: &Section, id: &str, default: &[KeySpec]| -> Vec<KeySpec> {
        user.get(&(sec.name.to_string(), id.to_string()))
            .cloned()
            .unwrap_or_else(|| default.to_vec())
    };
    for ((table, action), keys) in user {
        for other_name in shares_keys_with(table) {
            let Some(other) = all.iter().find(|s| s.name == other_name) else {
                continue;
            };
            for (id, default) in &other.actions {
                if other.name == table && id == action {
                    continue;
                }
                let theirs = keys_of(other, id, default);
                if let Some(k) = keys.iter().find(|k| theirs.contains(k)) {
                    return Err(format!(
                        "{file}: [{table}] {action} = {:?} is already {id} in [{}]; rebind that one too or choose another key",
                        k.label(),
                        other.name
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Read `<config_dir>/keys.toml` when it exists and install what it rebinds. `Err`: one
/// sentence (the workbench says it before taking the terminal and does not start).
pub fn load(config_dir: &Path) -> Result<(), String> {
    let path = config_dir.join(FILE_NAME);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            keymap::install(UserKeys::new());
            return Ok(());
        }
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    keymap::install(parse(&text, &path.display().to_string())?);
    Ok(())
}

#[cfg(test)]
mod tests;
