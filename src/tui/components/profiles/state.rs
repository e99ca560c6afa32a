//! The profile manager's state, messages and effects.

use std::path::PathBuf;

use crossterm::event::{KeyEvent, MouseEvent};
use ratatui::layout::Rect;

use crate::core::Secret;
use crate::store::{KeySource, Profile};
use crate::tui::widgets::list::ListState;
use crate::tui::widgets::LineInput;

/// Messages of the profile manager.
#[derive(Clone, Debug)]
pub enum ProfilesMsg {
    Key(KeyEvent),
    /// Run an action of the edit form (from the command palette, which needs no Alt).
    Run(super::keys::FormAction),
    /// Pasted text: goes to the name prompt, the focused field of the edit form or the list's
    /// filter (one line).
    Paste(String),
    /// A mouse event and the manager's area on screen (for hit testing with [`layout`]).
    Mouse(MouseEvent, Rect),
    /// The profiles as loaded (demo first), files that did not load (one sentence each) and
    /// the directory profile files live in.
    Loaded {
        profiles: Vec<Profile>,
        errors: Vec<String>,
        dir: PathBuf,
    },
    /// A save, delete or rename finished (a sentence for the status line).
    Done(String),
    Failed(String),
}

/// File work the profile manager asks for. After each, the App reloads the list
/// (`ProfilesMsg::Loaded`) and reports `Done`/`Failed`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProfilesEffect {
    /// Save the profile. The manager lists profiles without their bodies (a body can be many
    /// megabytes and stays on disk): the second field names the stored profile whose body the
    /// saved one keeps (None: an empty body).
    SaveProfile(Box<Profile>, Option<String>),
    DeleteProfile(String),
    /// Save `profile` under its (new) name with the body of `from`, then delete the file of `from`.
    RenameProfile {
        from: String,
        profile: Box<Profile>,
    },
    /// Switch the workbench to this profile.
    Activate(String),
    Status(String),
}

/// What a name prompt is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameFor {
    New,
    FromCurrent,
    Duplicate,
    Rename,
}

/// An editable field of a profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditField {
    IndexingUrl,
    AnalyticsUrl,
    HeaderPrefix,
    ApiKey,
    KeyKind,
    KeyValue,
}

impl EditField {
    pub const ALL: [EditField; 6] = [
        EditField::IndexingUrl,
        EditField::AnalyticsUrl,
        EditField::HeaderPrefix,
        EditField::ApiKey,
        EditField::KeyKind,
        EditField::KeyValue,
    ];
    pub(super) fn label(self) -> &'static str {
        match self {
            EditField::IndexingUrl => "Indexing URL",
            EditField::AnalyticsUrl => "Analytics URL",
            EditField::HeaderPrefix => "Header prefix",
            EditField::ApiKey => "API key",
            EditField::KeyKind => "REST key from",
            EditField::KeyValue => "REST key",
        }
    }
}

/// Kinds of REST key source a user can pick (the demo key belongs to the demo profile only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    Env,
    File,
    Command,
    /// An entry of the operating system's key store (`SERVICE/ACCOUNT`).
    Keyring,
    Stored,
    /// The demo account's published key (for copies of the demo profile).
    Demo,
}

impl KeyKind {
    pub(super) const ALL: [KeyKind; 6] = [
        KeyKind::Env,
        KeyKind::File,
        KeyKind::Command,
        KeyKind::Keyring,
        KeyKind::Stored,
        KeyKind::Demo,
    ];
    pub(super) fn label(self) -> &'static str {
        match self {
            KeyKind::Env => "environment variable",
            KeyKind::File => "file",
            KeyKind::Command => "command",
            KeyKind::Keyring => "the operating system's key store",
            KeyKind::Stored => "stored in the profile file",
            KeyKind::Demo => "the demo account's published key",
        }
    }
    pub(super) fn value_label(self) -> &'static str {
        match self {
            KeyKind::Env => "variable name",
            KeyKind::File => "file path",
            KeyKind::Command => "program and arguments",
            KeyKind::Keyring => "service/account",
            KeyKind::Stored => "the key (masked)",
            KeyKind::Demo => "(nothing to set)",
        }
    }
}

/// The edit form of one profile.
#[derive(Clone, Debug)]
pub struct EditForm {
    pub name: String,
    pub focus: EditField,
    pub(super) indexing_url: LineInput,
    pub(super) analytics_url: LineInput,
    pub(super) header_prefix: LineInput,
    pub(super) api_key: LineInput,
    pub key_kind: KeyKind,
    pub(super) key_value: LineInput,
    /// The profile being edited (fields the form does not show are kept).
    pub(super) base: Profile,
    /// Esc was pressed with changes in the form: the next key answers whether to discard them
    /// (`d`) or keep editing (any other key), so typed fields are never dropped by one key.
    pub(super) asking_discard: bool,
}

impl EditForm {
    /// Fill in the next vendor preset's public settings (prefix, indexing and analytics URLs;
    /// the keys stay the user's), as `profile new --vendor` does; returns what it did.
    pub fn next_vendor_preset(&mut self) -> String {
        use crate::core::vendor::PRESETS;
        let current = PRESETS.iter().position(|p| {
            p.header_prefix == self.header_prefix.text()
                && p.indexing_url == self.indexing_url.text()
        });
        let p = &PRESETS[current.map_or(0, |i| (i + 1) % PRESETS.len())];
        self.header_prefix.set(p.header_prefix);
        self.indexing_url.set(p.indexing_url);
        self.analytics_url.set(p.analytics_url);
        format!(
            "{} preset: prefix {}, indexing {}, analytics {}; the keys stay yours ({} saves)",
            p.name,
            p.header_prefix,
            p.indexing_url,
            p.analytics_url,
            super::keys::FORM_KEYS.label_of(super::keys::FormAction::Save)
        )
    }

    pub(crate) fn new(p: &Profile) -> Self {
        let (kind, value) = match &p.rest_key {
            KeySource::Env(v) => (KeyKind::Env, v.clone()),
            KeySource::File(path) => (KeyKind::File, path.display().to_string()),
            KeySource::Command(argv) => (KeyKind::Command, shell_words::join(argv)),
            KeySource::Keyring { service, account } => {
                (KeyKind::Keyring, format!("{service}/{account}"))
            }
            KeySource::Stored(s) => (KeyKind::Stored, s.expose().to_string()),
            KeySource::Demo => (KeyKind::Demo, String::new()),
        };
        EditForm {
            name: p.name.clone(),
            focus: EditField::IndexingUrl,
            indexing_url: LineInput::new(p.indexing_url.clone()),
            analytics_url: LineInput::new(p.analytics_url.clone()),
            header_prefix: LineInput::new(p.header_prefix().to_string()),
            api_key: LineInput::new(p.api_key().to_string()),
            key_kind: kind,
            key_value: LineInput::new(value),
            base: p.clone(),
            asking_discard: false,
        }
    }

    /// Whether a field differs from the profile the form was opened on (what a quit or Esc
    /// would lose).
    pub fn changed(&self) -> bool {
        let was = EditForm::new(&self.base);
        self.key_kind != was.key_kind
            || [
                (&self.indexing_url, &was.indexing_url),
                (&self.analytics_url, &was.analytics_url),
                (&self.header_prefix, &was.header_prefix),
                (&self.api_key, &was.api_key),
                (&self.key_value, &was.key_value),
            ]
            .iter()
            .any(|(a, b)| a.text() != b.text())
    }

    pub(super) fn input_mut(&mut self, f: EditField) -> Option<&mut LineInput> {
        Some(match f {
            EditField::IndexingUrl => &mut self.indexing_url,
            EditField::AnalyticsUrl => &mut self.analytics_url,
            EditField::HeaderPrefix => &mut self.header_prefix,
            EditField::ApiKey => &mut self.api_key,
            EditField::KeyValue => &mut self.key_value,
            EditField::KeyKind => return None,
        })
    }

    /// The profile the form describes, or why it cannot be saved (one sentence).
    pub(super) fn to_profile(&self) -> Result<Profile, String> {
        let value = self.key_value.text().to_string();
        let rest_key = match self.key_kind {
            KeyKind::Env => {
                let v = value.trim();
                if v.is_empty() {
                    return Err(
                        "Give the name of the environment variable holding the REST key.".into(),
                    );
                }
                KeySource::Env(v.to_string())
            }
            KeyKind::File => {
                let v = value.trim();
                if v.is_empty() {
                    return Err("Give the path of the file holding the REST key.".into());
                }
                KeySource::File(PathBuf::from(v))
            }
            KeyKind::Command if value.trim().is_empty() => {
                return Err("Give the command that prints the REST key.".into());
            }
            KeyKind::Command => format!("cmd:{value}")
                .parse()
                .map_err(|e: crate::store::RefError| format!("{e}."))?,
            KeyKind::Keyring => format!("keyring:{}", value.trim())
                .parse()
                .map_err(|e: crate::store::RefError| format!("{e}."))?,
            KeyKind::Stored => {
                if value.is_empty() {
                    return Err("The REST key is empty; type it or pick another source.".into());
                }
                KeySource::Stored(Secret::new(value))
            }
            KeyKind::Demo => KeySource::Demo,
        };
        let base = self.base.clone();
        let mut p = Profile {
            indexing_url: self.indexing_url.text().trim().to_string(),
            analytics_url: self.analytics_url.text().trim().to_string(),
            rest_key,
            ..base
        };
        p.set_header_prefix(self.header_prefix.text().trim());
        p.set_api_key(self.api_key.text());
        Ok(p)
    }
}

/// What the keyboard is doing in the manager.
#[derive(Clone, Debug)]
pub enum Mode {
    Browse,
    Edit(Box<EditForm>),
    Name { for_: NameFor, input: LineInput },
    ConfirmDelete(String),
}

/// All state of the profile manager.
#[derive(Clone, Debug)]
pub struct ProfilesState {
    pub profiles: Vec<Profile>,
    pub errors: Vec<String>,
    pub dir: PathBuf,
    /// The list's selection (into the filtered list), window and `/` filter.
    pub list: ListState,
    pub mode: Mode,
    /// Show stored REST keys in clear.
    pub revealed: bool,
    /// Rows of the detail pane scrolled off its top (PageDown / PageUp; back to the top when
    /// another profile is selected).
    pub detail_scroll: u16,
    /// The view's area on screen (set by the router before each key), so PageDown scrolls the
    /// detail pane by its height and stops at its last row.
    pub area: ratatui::layout::Rect,
    /// The profile the selection moves to when the list comes back (one just created or
    /// renamed: the list is sorted, so the row index would now be another profile).
    pub(super) follow: Option<String>,
    /// Why the name typed in the name prompt was refused: drawn whole above the prompt (the
    /// status line cuts a long sentence, and its end says what to type), until the next key.
    pub(super) name_error: Option<String>,
}

impl Default for ProfilesState {
    fn default() -> Self {
        ProfilesState {
            profiles: vec![Profile::demo()],
            errors: Vec::new(),
            dir: PathBuf::new(),
            list: ListState::default(),
            mode: Mode::Browse,
            revealed: false,
            detail_scroll: 0,
            area: ratatui::layout::Rect::default(),
            follow: None,
            name_error: None,
        }
    }
}

impl ProfilesState {
    /// The profiles the filter shows (indexes into `profiles`): every word in the name.
    pub fn visible(&self) -> Vec<usize> {
        let words = self.list.words();
        (0..self.profiles.len())
            .filter(|i| {
                let name = self.profiles[*i].name.to_lowercase();
                words.iter().all(|w| name.contains(w.as_str()))
            })
            .collect()
    }

    /// The profile in use (named `current`, as the App holds it), as listed.
    pub fn in_use(&self, current: &str) -> Option<&Profile> {
        self.profiles.iter().find(|p| p.name == current)
    }

    pub fn selected_profile(&self) -> Option<&Profile> {
        let i = *self.visible().get(self.list.selected)?;
        self.profiles.get(i)
    }

    /// Where a profile's file lives (None for the built-in demo).
    pub fn file_of(&self, p: &Profile) -> Option<PathBuf> {
        if p.is_demo() {
            return None;
        }
        Some(
            p.origin
                .as_ref()
                .map(|o| o.path.clone())
                .unwrap_or_else(|| self.dir.join(format!("{}.toml", p.name))),
        )
    }

    /// The name of the profile whose edit form holds changes not saved yet (the workbench asks
    /// before quitting, as it does for the request and Events edits).
    pub fn unsaved_draft(&self) -> Option<&str> {
        match &self.mode {
            Mode::Edit(form) if form.changed() => Some(&form.name),
            _ => None,
        }
    }

    pub fn is_text_input_focused(&self) -> bool {
        match &self.mode {
            Mode::Browse => self.list.typing(),
            Mode::ConfirmDelete(_) => false,
            Mode::Name { .. } => true,
            Mode::Edit(form) => form.focus != EditField::KeyKind,
        }
    }

    pub fn help(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("Up / Down, j / k", "select a profile"),
            (
                "/",
                "filter the list by name (Enter keeps it, Esc clears it)",
            ),
            ("Enter", "use the selected profile"),
            ("e", "edit URLs, prefix, API key, REST key source"),
            ("n / c", "new profile from scratch / from the current one"),
            ("D / r", "duplicate / rename the selected profile"),
            ("d", "delete the selected profile (asks first)"),
            ("v", "reveal or hide a stored REST key (Ctrl-V in the edit form)"),
            ("edit: Tab / Shift-Tab", "next / previous field"),
            (
                "edit: Left / Right",
                "REST key from: change the source kind",
            ),
            (
                "Mouse",
                "click a profile: select it; wheel: move; edit: click a field",
            ),
            ("PageDown / PageUp", "scroll the detail pane"),
            (
                "Panes",
                "the list cuts long names to its width; the detail pane shows the selected profile whole, wrapped",
            ),
        ]
    }
}
