//! The profile manager: list, create (from scratch or from the current profile), rename,
//! duplicate, delete (after confirmation), and edit base URLs, header prefix, API key and REST
//! key source. Shows where each profile file lives. The REST key is never drawn unless revealed.
//!
//! Self-contained component (notes/CONTRACTS.md, TUI section): [`update`] is pure and asks for
//! file work through [`ProfilesEffect`]s.

use std::path::PathBuf;

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, List, ListItem, ListState, Paragraph, Wrap};
use ratatui::Frame;

use super::line_input::LineInput;
use super::theme::Theme;
use crate::core::Secret;
use crate::store::profile::validate_name;
use crate::store::{KeySource, Profile};

/// Messages of the profile manager.
#[derive(Clone, Debug)]
pub enum ProfilesMsg {
    Key(KeyEvent),
    /// Pasted text: goes to the name prompt or the focused field of the edit form (one line).
    Paste(String),
    /// A mouse event and the manager's area on screen (for hit testing with [`layout`]).
    Mouse(MouseEvent, Rect),
    /// The profiles as loaded (demo first), files that did not load (one sentence each), the
    /// directory profile files live in, and the name of the profile in use.
    Loaded {
        profiles: Vec<Profile>,
        errors: Vec<String>,
        dir: PathBuf,
        current: String,
    },
    /// The profile in use changed (e.g. its fields were edited in the request view).
    Current(Box<Profile>),
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
    fn label(self) -> &'static str {
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
    Stored,
    /// The demo account's published key (for copies of the demo profile).
    Demo,
}

impl KeyKind {
    const ALL: [KeyKind; 5] = [
        KeyKind::Env,
        KeyKind::File,
        KeyKind::Command,
        KeyKind::Stored,
        KeyKind::Demo,
    ];
    fn label(self) -> &'static str {
        match self {
            KeyKind::Env => "environment variable",
            KeyKind::File => "file",
            KeyKind::Command => "command",
            KeyKind::Stored => "stored in the profile file",
            KeyKind::Demo => "the demo account's published key",
        }
    }
    fn value_label(self) -> &'static str {
        match self {
            KeyKind::Env => "variable name",
            KeyKind::File => "file path",
            KeyKind::Command => "program and arguments",
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
    indexing_url: LineInput,
    analytics_url: LineInput,
    header_prefix: LineInput,
    api_key: LineInput,
    pub key_kind: KeyKind,
    key_value: LineInput,
    /// The profile being edited (fields the form does not show are kept).
    base: Profile,
}

impl EditForm {
    fn new(p: &Profile) -> Self {
        let (kind, value) = match &p.rest_key {
            KeySource::Env(v) => (KeyKind::Env, v.clone()),
            KeySource::File(path) => (KeyKind::File, path.display().to_string()),
            KeySource::Command(argv) => (KeyKind::Command, argv.join(" ")),
            KeySource::Stored(s) => (KeyKind::Stored, s.expose().to_string()),
            KeySource::Demo => (KeyKind::Demo, String::new()),
        };
        EditForm {
            name: p.name.clone(),
            focus: EditField::IndexingUrl,
            indexing_url: LineInput::new(p.indexing_url.clone()),
            analytics_url: LineInput::new(p.analytics_url.clone()),
            header_prefix: LineInput::new(p.request.header_prefix.clone()),
            api_key: LineInput::new(p.request.api_key.clone()),
            key_kind: kind,
            key_value: LineInput::new(value),
            base: p.clone(),
        }
    }

    fn input_mut(&mut self, f: EditField) -> Option<&mut LineInput> {
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
    fn to_profile(&self) -> Result<Profile, String> {
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
            KeyKind::Command => {
                let argv: Vec<String> = value.split_whitespace().map(String::from).collect();
                if argv.is_empty() {
                    return Err("Give the command that prints the REST key.".into());
                }
                KeySource::Command(argv)
            }
            KeyKind::Stored => {
                if value.is_empty() {
                    return Err("The REST key is empty; type it or pick another source.".into());
                }
                KeySource::Stored(Secret::new(value))
            }
            KeyKind::Demo => KeySource::Demo,
        };
        let base = self.base.clone();
        Ok(Profile {
            indexing_url: self.indexing_url.text().trim().to_string(),
            analytics_url: self.analytics_url.text().trim().to_string(),
            request: crate::core::RequestSpec {
                header_prefix: self.header_prefix.text().trim().to_string(),
                api_key: self.api_key.text().to_string(),
                ..base.request.clone()
            },
            rest_key,
            ..base
        })
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
    pub current: Option<Profile>,
    pub selected: usize,
    /// First row of the list window (see [`super::view::window_first`]).
    top: usize,
    pub mode: Mode,
    /// Show stored REST keys in clear.
    pub revealed: bool,
    pub status: String,
    /// Draw without colours (NO_COLOR).
    pub no_color: bool,
}

impl Default for ProfilesState {
    fn default() -> Self {
        ProfilesState {
            profiles: vec![Profile::demo()],
            errors: Vec::new(),
            dir: PathBuf::new(),
            current: None,
            selected: 0,
            top: 0,
            mode: Mode::Browse,
            revealed: false,
            status: String::new(),
            no_color: Theme::no_color_from_env(),
        }
    }
}

impl ProfilesState {
    pub fn selected_profile(&self) -> Option<&Profile> {
        self.profiles.get(self.selected)
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

    pub fn is_text_input_focused(&self) -> bool {
        match &self.mode {
            Mode::Browse | Mode::ConfirmDelete(_) => false,
            Mode::Name { .. } => true,
            Mode::Edit(form) => form.focus != EditField::KeyKind,
        }
    }

    pub fn help(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            ("Up / Down, j / k", "select a profile"),
            ("Enter", "use the selected profile"),
            ("e", "edit URLs, prefix, API key, REST key source"),
            ("n / c", "new profile from scratch / from the current one"),
            ("D / r", "duplicate / rename the selected profile"),
            ("d", "delete the selected profile (asks first)"),
            ("v", "reveal or hide a stored REST key"),
            ("edit: Tab / Shift-Tab", "next / previous field"),
            (
                "edit: Left / Right",
                "REST key from: change the source kind",
            ),
            ("edit: Ctrl-S or Enter", "save; Esc: cancel"),
            (
                "Mouse",
                "click a profile: select it; wheel: move; edit: click a field",
            ),
        ]
    }
}

/// Handle a message; pure.
pub fn update(state: &mut ProfilesState, msg: ProfilesMsg) -> Vec<ProfilesEffect> {
    match msg {
        ProfilesMsg::Paste(text) => {
            match &mut state.mode {
                Mode::Name { input, .. } => input.insert_str(&text),
                Mode::Edit(form) => {
                    let focus = form.focus;
                    if let Some(input) = form.input_mut(focus) {
                        input.insert_str(&text);
                    }
                }
                _ => {}
            }
            Vec::new()
        }
        ProfilesMsg::Loaded {
            profiles,
            errors,
            dir,
            current,
        } => {
            let keep = state.selected_profile().map(|p| p.name.clone());
            state.profiles = profiles;
            state.errors = errors;
            state.dir = dir;
            state.current = state
                .profiles
                .iter()
                .find(|p| p.name == current)
                .cloned()
                .or(state.current.take());
            if let Some(name) = keep {
                if let Some(i) = state.profiles.iter().position(|p| p.name == name) {
                    state.selected = i;
                }
            }
            state.selected = state.selected.min(state.profiles.len().saturating_sub(1));
            Vec::new()
        }
        ProfilesMsg::Current(p) => {
            state.current = Some(*p);
            Vec::new()
        }
        ProfilesMsg::Done(msg) => {
            state.status = msg;
            Vec::new()
        }
        ProfilesMsg::Failed(msg) => {
            state.status = msg;
            Vec::new()
        }
        ProfilesMsg::Mouse(m, area) => {
            on_mouse(state, m, area);
            Vec::new()
        }
        ProfilesMsg::Key(k) if k.kind == KeyEventKind::Release => Vec::new(),
        ProfilesMsg::Key(k) => on_key(state, k),
    }
}

fn on_key(state: &mut ProfilesState, key: KeyEvent) -> Vec<ProfilesEffect> {
    let mode = std::mem::replace(&mut state.mode, Mode::Browse);
    match mode {
        Mode::Browse => browse_key(state, key),
        Mode::ConfirmDelete(name) => {
            if matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
                state.status = format!("Deleting profile {name}…");
                vec![ProfilesEffect::DeleteProfile(name)]
            } else {
                state.status = format!("Kept profile {name}.");
                Vec::new()
            }
        }
        Mode::Name { for_, mut input } => match key.code {
            KeyCode::Esc => {
                state.status = "Cancelled.".into();
                Vec::new()
            }
            KeyCode::Enter => name_entered(state, for_, input),
            _ => {
                input.handle_key(&key);
                state.mode = Mode::Name { for_, input };
                Vec::new()
            }
        },
        Mode::Edit(mut form) => {
            let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
            let step = |f: EditField, back: bool| {
                let i = EditField::ALL.iter().position(|x| *x == f).unwrap_or(0);
                let n = EditField::ALL.len();
                EditField::ALL[if back { (i + n - 1) % n } else { (i + 1) % n }]
            };
            match key.code {
                KeyCode::Esc => {
                    state.status = "Edit cancelled; nothing saved.".into();
                    return Vec::new();
                }
                KeyCode::Char('s') if ctrl => return save_form(state, form),
                KeyCode::Enter => return save_form(state, form),
                KeyCode::Tab | KeyCode::Down => form.focus = step(form.focus, false),
                KeyCode::BackTab | KeyCode::Up => form.focus = step(form.focus, true),
                KeyCode::Char('v') if ctrl => state.revealed = !state.revealed,
                KeyCode::Left | KeyCode::Right | KeyCode::Char(' ')
                    if form.focus == EditField::KeyKind =>
                {
                    let i = KeyKind::ALL
                        .iter()
                        .position(|k| *k == form.key_kind)
                        .unwrap_or(0);
                    let n = KeyKind::ALL.len();
                    let next = if key.code == KeyCode::Left {
                        (i + n - 1) % n
                    } else {
                        (i + 1) % n
                    };
                    form.key_kind = KeyKind::ALL[next];
                    // A value typed for one kind means nothing for another (and must not leak
                    // a stored key into a file path shown in clear).
                    form.key_value.set("");
                }
                _ => {
                    let focus = form.focus;
                    if let Some(input) = form.input_mut(focus) {
                        input.handle_key(&key);
                    }
                }
            }
            state.mode = Mode::Edit(form);
            Vec::new()
        }
    }
}

fn save_form(state: &mut ProfilesState, form: Box<EditForm>) -> Vec<ProfilesEffect> {
    match form.to_profile() {
        Ok(p) => {
            state.status = format!("Saving profile {}…", p.name);
            // The edited profile keeps its stored body.
            let source = Some(form.base.name.clone());
            vec![ProfilesEffect::SaveProfile(Box::new(p), source)]
        }
        Err(why) => {
            state.status = why;
            state.mode = Mode::Edit(form);
            Vec::new()
        }
    }
}

fn browse_key(state: &mut ProfilesState, key: KeyEvent) -> Vec<ProfilesEffect> {
    let n = state.profiles.len();
    let selected = state.selected_profile().cloned();
    let name_prompt = |for_: NameFor, start: String| Mode::Name {
        for_,
        input: LineInput::new(start),
    };
    match key.code {
        KeyCode::Up | KeyCode::Char('k') => {
            state.selected = state.selected.saturating_sub(1);
            state.top = state.top.min(state.selected);
        }
        KeyCode::Down | KeyCode::Char('j') => {
            state.selected = (state.selected + 1).min(n.saturating_sub(1))
        }
        KeyCode::Char('v') => state.revealed = !state.revealed,
        KeyCode::Enter => {
            if let Some(p) = selected {
                state.status = format!("Using profile {}.", p.name);
                return vec![ProfilesEffect::Activate(p.name)];
            }
        }
        KeyCode::Char('n') => state.mode = name_prompt(NameFor::New, String::new()),
        KeyCode::Char('c') => {
            if state.current.is_some() {
                state.mode = name_prompt(NameFor::FromCurrent, String::new());
            } else {
                state.status = "No profile is in use to copy from.".into();
            }
        }
        KeyCode::Char('D') => {
            if let Some(p) = selected {
                state.mode = name_prompt(NameFor::Duplicate, format!("{}-copy", p.name));
            }
        }
        KeyCode::Char('r') => {
            match selected {
                Some(p) if p.is_demo() => state.status =
                    "The demo profile is built in and cannot be renamed; duplicate it (D) instead."
                        .into(),
                Some(p) => state.mode = name_prompt(NameFor::Rename, p.name),
                None => {}
            }
        }
        KeyCode::Char('e') => {
            match selected {
                Some(p) if p.is_demo() => state.status =
                    "The demo profile is built in and read-only; duplicate it (D) to edit a copy."
                        .into(),
                Some(p) => state.mode = Mode::Edit(Box::new(EditForm::new(&p))),
                None => {}
            }
        }
        KeyCode::Char('d') | KeyCode::Delete => match selected {
            Some(p) if p.is_demo() => {
                state.status = "The demo profile is built in and cannot be deleted.".into()
            }
            Some(p) => {
                state.status = format!(
                    "Delete profile {}? y to confirm, any other key keeps it.",
                    p.name
                );
                state.mode = Mode::ConfirmDelete(p.name);
            }
            None => {}
        },
        _ => {}
    }
    if matches!(state.mode, Mode::Name { .. }) {
        // The prompt's footer shows the status after it: only a refused name from now on.
        state.status.clear();
    }
    Vec::new()
}

fn name_entered(state: &mut ProfilesState, for_: NameFor, input: LineInput) -> Vec<ProfilesEffect> {
    let name = input.text().trim().to_string();
    let refuse = |state: &mut ProfilesState, why: String, input: LineInput| {
        state.status = why;
        state.mode = Mode::Name { for_, input };
        Vec::new()
    };
    if let Err(e) = validate_name(&name) {
        return refuse(state, format!("{e}."), input);
    }
    if name == crate::store::DEMO_PROFILE || state.profiles.iter().any(|p| p.name == name) {
        return refuse(
            state,
            format!("A profile named {name} already exists; pick another name."),
            input,
        );
    }
    let fresh = |mut p: Profile| {
        p.name = name.clone();
        p.origin = None;
        p
    };
    let selected = state.selected_profile().cloned();
    // The profile copied from (its stored body goes with the copy), if any.
    let base = match for_ {
        NameFor::New => None,
        NameFor::FromCurrent => match state.current.clone() {
            Some(p) => Some(p),
            None => return refuse(state, "No profile is in use to copy from.".into(), input),
        },
        NameFor::Duplicate | NameFor::Rename => match selected {
            Some(p) => Some(p),
            None => return Vec::new(),
        },
    };
    let source = base.as_ref().map(|p| p.name.clone());
    let profile = base.map_or_else(|| Profile::new(name.clone()), fresh);
    // The demo's key source and "embedded" server only make sense on the demo profile... but a
    // copy of the demo that keeps talking to the local server is exactly what a learner wants,
    // so URLs are kept; the demo key source is kept too (it resolves to the published demo key).
    state.status = format!("Saving profile {name}…");
    match for_ {
        NameFor::Rename => {
            let from = state
                .selected_profile()
                .map(|p| p.name.clone())
                .unwrap_or_default();
            vec![ProfilesEffect::RenameProfile {
                from,
                profile: Box::new(profile),
            }]
        }
        _ => vec![ProfilesEffect::SaveProfile(Box::new(profile), source)],
    }
}

/// Browsing: a click selects the profile under it, the wheel over the list moves the selection.
/// Editing: a click on a field focuses it. Prompts and the delete confirmation ignore the mouse
/// (a stray click must not answer them).
fn on_mouse(state: &mut ProfilesState, m: MouseEvent, area: Rect) {
    let l = layout(area, state);
    // The window stays where it is on screen; the selection moves within it.
    state.top = l.first;
    let pos = Position::new(m.column, m.row);
    let click = m.kind == MouseEventKind::Down(MouseButton::Left);
    match &mut state.mode {
        Mode::Browse => match m.kind {
            _ if click => {
                if let Some((i, _)) = l.rows.iter().find(|(_, r)| r.contains(pos)) {
                    state.selected = *i;
                }
            }
            MouseEventKind::ScrollDown if l.list.contains(pos) => {
                state.selected = (state.selected + 1).min(state.profiles.len().saturating_sub(1))
            }
            MouseEventKind::ScrollUp if l.list.contains(pos) => {
                state.selected = state.selected.saturating_sub(1)
            }
            _ => {}
        },
        Mode::Edit(form) if click => {
            if let Some((f, _)) = l.edit_fields.iter().find(|(_, r)| r.contains(pos)) {
                form.focus = *f;
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------------
// Drawing

/// Where the parts of the manager are (shared by [`draw`] and mouse hit testing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProfilesLayout {
    /// The list box (with its border).
    pub list: Rect,
    /// Index of the first profile on screen.
    pub first: usize,
    /// The list rows on screen: index into the profiles and the row.
    pub rows: Vec<(usize, Rect)>,
    /// The detail box (with its border).
    pub detail: Rect,
    /// Edit mode: the heading row(s) of the form.
    pub edit_title: Option<Rect>,
    /// Edit mode: the rows each field takes (long values wrap).
    pub edit_fields: Vec<(EditField, Rect)>,
    pub footer: Rect,
}

/// The layout of the manager in `area` for the current state.
pub fn layout(area: Rect, state: &ProfilesState) -> ProfilesLayout {
    let [main, footer] = Layout::vertical([Constraint::Min(3), Constraint::Length(1)]).areas(area);
    let list_w = if main.width >= 110 { 32 } else { 24 };
    let [list, detail] =
        Layout::horizontal([Constraint::Length(list_w), Constraint::Min(20)]).areas(main);
    let body = Block::new().borders(Borders::ALL).inner(list);
    let first = super::view::window_first(state.top, state.selected, usize::from(body.height));
    let rows = (first..state.profiles.len())
        .take(usize::from(body.height))
        .enumerate()
        .map(|(k, i)| (i, Rect::new(body.x, body.y + k as u16, body.width, 1)))
        .collect();
    let mut l = ProfilesLayout {
        list,
        first,
        rows,
        detail,
        footer,
        ..ProfilesLayout::default()
    };
    if let Mode::Edit(form) = &state.mode {
        let inner = Block::new().borders(Borders::ALL).inner(detail);
        let bottom = inner.y + inner.height;
        let mut y = inner.y;
        for (field, spans) in edit_lines(form, state.revealed) {
            let h = super::view::wrap_spans(&spans, inner.width).len() as u16;
            let h = h.min(bottom.saturating_sub(y));
            if h == 0 {
                break;
            }
            let r = Rect::new(inner.x, y, inner.width, h);
            match field {
                Some(f) => l.edit_fields.push((f, r)),
                None => l.edit_title = Some(r),
            }
            y += h;
        }
    }
    l
}

/// The lines of the edit form: the heading (no field), then one per field.
fn edit_lines(form: &EditForm, revealed: bool) -> Vec<(Option<EditField>, Vec<Span<'static>>)> {
    let label = |s: &str| Span::styled(format!("{s:>14}: "), Style::new().bold());
    let mut out = vec![(
        None,
        vec![Span::styled(
            format!("Editing {} (Enter saves, Esc cancels)", form.name),
            Style::new().bold(),
        )],
    )];
    for f in EditField::ALL {
        let value = match f {
            EditField::IndexingUrl => form.indexing_url.text().to_string(),
            EditField::AnalyticsUrl => form.analytics_url.text().to_string(),
            EditField::HeaderPrefix => form.header_prefix.text().to_string(),
            EditField::ApiKey => form.api_key.text().to_string(),
            EditField::KeyKind => format!("< {} >", form.key_kind.label()),
            EditField::KeyValue => {
                let t = form.key_value.text();
                if form.key_kind == KeyKind::Stored && !revealed {
                    format!("{} (Ctrl-V reveals)", "•".repeat(t.chars().count()))
                } else {
                    t.to_string()
                }
            }
        };
        let lab = if f == EditField::KeyValue {
            form.key_kind.value_label()
        } else {
            f.label()
        };
        let v = Span::raw(value);
        let v = if form.focus == f {
            v.add_modifier(Modifier::REVERSED)
        } else {
            v
        };
        out.push((Some(f), vec![label(lab), v]));
    }
    out
}

fn masked_key(source: &KeySource, revealed: bool) -> String {
    match source {
        KeySource::Stored(s) if revealed => format!("stored in the profile file: {}", s.expose()),
        KeySource::Stored(s) => format!(
            "stored in the profile file: {} (v reveals)",
            "•".repeat(s.len().clamp(3, 12))
        ),
        other => other.describe(),
    }
}

fn detail_title(state: &ProfilesState) -> String {
    if state.dir.as_os_str().is_empty() {
        " Profile ".to_string()
    } else {
        format!(" Profile files in {} ", state.dir.display())
    }
}

/// Draw the profile manager into `area`.
pub fn draw(frame: &mut Frame, area: Rect, state: &ProfilesState) {
    let theme = Theme::new(state.no_color);
    let l = layout(area, state);
    let (list_area, detail_area, footer) = (l.list, l.detail, l.footer);

    let items: Vec<ListItem> = state
        .profiles
        .iter()
        .map(|p| {
            let mut spans = vec![Span::raw(p.name.clone())];
            if state.current.as_ref().map(|c| &c.name) == Some(&p.name) {
                spans.push(Span::styled(" (in use)", Style::new().bold()));
            }
            if p.is_demo() {
                spans.push(Span::styled(" built-in", Style::new().dim()));
            }
            ListItem::new(Line::from(spans))
        })
        .collect();
    let list = List::new(items)
        .block(
            Block::new()
                .borders(Borders::ALL)
                .title(format!(" Profiles ({}) ", state.profiles.len())),
        )
        .highlight_style(Style::new().add_modifier(Modifier::REVERSED));
    // The window starts where the layout says, so a click hits the row drawn there.
    let mut ls = ListState::default()
        .with_offset(l.first)
        .with_selected(Some(state.selected));
    frame.render_stateful_widget(list, list_area, &mut ls);

    let mut lines: Vec<Line> = Vec::new();
    let label = |s: &str| Span::styled(format!("{s:>14}: "), Style::new().bold());
    match &state.mode {
        Mode::Edit(form) => {
            // Each line in the rows the layout gave it (wrapped the same way), so a click on
            // a field lands on the field drawn there.
            let rects = l
                .edit_title
                .iter()
                .map(|r| (None, *r))
                .chain(l.edit_fields.iter().map(|(f, r)| (Some(*f), *r)));
            let content = edit_lines(form, state.revealed);
            let b = Block::new()
                .borders(Borders::ALL)
                .title(detail_title(state));
            frame.render_widget(b, detail_area);
            for (field, rect) in rects {
                if let Some((_, spans)) = content.iter().find(|(f, _)| *f == field) {
                    let rows = super::view::wrap_spans(spans, rect.width);
                    frame.render_widget(Paragraph::new(rows), rect);
                }
            }
        }
        _ => {
            if let Some(p) = state.selected_profile() {
                lines.push(Line::from(vec![
                    label("Profile"),
                    Span::raw(p.name.clone()),
                ]));
                let file = match state.file_of(p) {
                    Some(path) => path.display().to_string(),
                    None => "built in (no file)".to_string(),
                };
                lines.push(Line::from(vec![label("File"), Span::raw(file)]));
                lines.push(Line::from(vec![
                    label("Indexing URL"),
                    Span::raw(p.indexing_url.clone()),
                ]));
                lines.push(Line::from(vec![
                    label("Analytics URL"),
                    Span::raw(p.analytics_url.clone()),
                ]));
                lines.push(Line::from(vec![
                    label("Header prefix"),
                    Span::raw(p.request.header_prefix.clone()),
                ]));
                lines.push(Line::from(vec![
                    label("API key"),
                    Span::raw(p.request.api_key.clone()),
                ]));
                lines.push(Line::from(vec![
                    label("REST key"),
                    Span::raw(masked_key(&p.rest_key, state.revealed)),
                ]));
                lines.push(Line::from(vec![
                    label("Request"),
                    Span::raw(format!(
                        "{} {}{}{}",
                        p.request.method,
                        p.request.path,
                        if p.request.query.is_empty() { "" } else { "?" },
                        p.request.query
                    )),
                ]));
            }
            if !state.errors.is_empty() {
                lines.push(Line::from(""));
                lines.push(Line::styled("Files that did not load:", theme.warn()));
                for e in &state.errors {
                    lines.push(Line::styled(e.clone(), theme.warn()));
                }
            }
            lines.push(Line::from(""));
            lines.push(
                Line::from("Enter use  e edit  n new  c from current  D duplicate  r rename  d delete  v reveal")
                    .dim(),
            );
        }
    }
    if !matches!(state.mode, Mode::Edit(_)) {
        frame.render_widget(
            Paragraph::new(lines)
                .block(
                    Block::new()
                        .borders(Borders::ALL)
                        .title(detail_title(state)),
                )
                .wrap(Wrap { trim: false }),
            detail_area,
        );
    }

    let footer_line = match &state.mode {
        Mode::Name { for_, input } => {
            let what = match for_ {
                NameFor::New => "New profile name: ",
                NameFor::FromCurrent => "Name for a copy of the current profile: ",
                NameFor::Duplicate => "Name of the duplicate: ",
                NameFor::Rename => "New name: ",
            };
            // A refused name says why on the same line (the prompt stays open).
            let mut spans = vec![
                Span::styled(what, Style::new().bold()),
                Span::raw(input.text().to_string()),
                Span::raw("▏ (Enter ok, Esc cancel)"),
            ];
            if !state.status.is_empty() {
                spans.push(Span::raw("  "));
                spans.push(Span::styled(state.status.clone(), theme.error()));
            }
            Line::from(spans)
        }
        Mode::ConfirmDelete(name) => Line::styled(
            format!("Delete profile {name} and its file? y to confirm, any other key keeps it."),
            theme.error(),
        ),
        _ => Line::from(state.status.clone()),
    };
    frame.render_widget(Paragraph::new(footer_line), footer);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> ProfilesMsg {
        ProfilesMsg::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }
    fn type_text(s: &mut ProfilesState, text: &str) {
        for c in text.chars() {
            update(s, key(KeyCode::Char(c)));
        }
    }

    fn shop() -> Profile {
        Profile {
            indexing_url: "http://127.0.0.1:7001".into(),
            analytics_url: "http://127.0.0.1:7002".into(),
            request: crate::core::RequestSpec {
                header_prefix: "KLEVU".into(),
                api_key: "shop-public".into(),
                ..crate::core::RequestSpec::default()
            },
            rest_key: KeySource::Stored(Secret::new("s3cr3t-rest-key")),
            ..Profile::new("shop")
        }
    }

    fn loaded() -> ProfilesState {
        let mut s = ProfilesState::default();
        update(
            &mut s,
            ProfilesMsg::Loaded {
                profiles: vec![Profile::demo(), shop()],
                errors: vec![
                    "/cfg/profiles/bad.toml line 3 column 1 is not valid: expected `=`".into(),
                ],
                dir: PathBuf::from("/cfg/profiles"),
                current: "demo".into(),
            },
        );
        s
    }

    #[test]
    fn delete_needs_confirmation_and_other_keys_keep_the_profile() {
        let mut s = loaded();
        s.selected = 1;
        assert!(update(&mut s, key(KeyCode::Char('d'))).is_empty());
        assert!(matches!(s.mode, Mode::ConfirmDelete(ref n) if n == "shop"));
        assert!(update(&mut s, key(KeyCode::Char('n'))).is_empty());
        assert!(matches!(s.mode, Mode::Browse));
        assert!(s.status.contains("Kept"));
        update(&mut s, key(KeyCode::Char('d')));
        let effects = update(&mut s, key(KeyCode::Char('y')));
        assert_eq!(effects, vec![ProfilesEffect::DeleteProfile("shop".into())]);
    }

    #[test]
    fn the_demo_profile_cannot_be_deleted_renamed_or_edited() {
        let mut s = loaded();
        s.selected = 0;
        for c in ['d', 'r', 'e'] {
            assert!(update(&mut s, key(KeyCode::Char(c))).is_empty());
            assert!(matches!(s.mode, Mode::Browse), "{c}");
            assert!(s.status.contains("built in"), "{c}: {}", s.status);
        }
    }

    #[test]
    fn new_from_scratch_from_current_duplicate_and_rename() {
        let mut s = loaded();
        update(&mut s, key(KeyCode::Char('n')));
        assert!(s.is_text_input_focused());
        type_text(&mut s, "staging");
        let effects = update(&mut s, key(KeyCode::Enter));
        match &effects[..] {
            [ProfilesEffect::SaveProfile(p, None)] => {
                assert_eq!(p.name, "staging");
                assert_eq!(
                    p.request.header_prefix,
                    Profile::new("x").request.header_prefix
                );
            }
            other => panic!("{other:?}"),
        }
        // From the current (demo) profile: keeps its settings.
        update(&mut s, key(KeyCode::Char('c')));
        type_text(&mut s, "learn");
        match &update(&mut s, key(KeyCode::Enter))[..] {
            [ProfilesEffect::SaveProfile(p, Some(source))] => {
                assert_eq!(source, "demo", "keeps the body of the profile it copies");
                assert_eq!(p.name, "learn");
                assert_eq!(p.request.api_key, Profile::demo().request.api_key);
            }
            other => panic!("{other:?}"),
        }
        // Duplicate the selected one: name prefilled.
        s.selected = 1;
        update(&mut s, key(KeyCode::Char('D')));
        match &update(&mut s, key(KeyCode::Enter))[..] {
            [ProfilesEffect::SaveProfile(p, Some(source))] => {
                assert_eq!(source, "shop");
                assert_eq!(p.name, "shop-copy");
                assert_eq!(p.request.api_key, "shop-public");
                assert_eq!(p.rest_key, shop().rest_key);
            }
            other => panic!("{other:?}"),
        }
        // Rename.
        update(&mut s, key(KeyCode::Char('r')));
        update(
            &mut s,
            ProfilesMsg::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
        );
        type_text(&mut s, "shop2");
        match &update(&mut s, key(KeyCode::Enter))[..] {
            [ProfilesEffect::RenameProfile { from, profile }] => {
                assert_eq!(from, "shop");
                assert_eq!(profile.name, "shop2");
                assert_eq!(profile.indexing_url, "http://127.0.0.1:7001");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_or_taken_names_are_refused_and_the_prompt_stays() {
        let mut s = loaded();
        update(&mut s, key(KeyCode::Char('n')));
        type_text(&mut s, "shop");
        assert!(update(&mut s, key(KeyCode::Enter)).is_empty());
        assert!(s.status.contains("already exists"), "{}", s.status);
        assert!(matches!(s.mode, Mode::Name { .. }));
        update(
            &mut s,
            ProfilesMsg::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
        );
        type_text(&mut s, "a b");
        assert!(update(&mut s, key(KeyCode::Enter)).is_empty());
        assert!(
            s.status.contains("not a usable profile name"),
            "{}",
            s.status
        );
        update(&mut s, key(KeyCode::Esc));
        assert!(matches!(s.mode, Mode::Browse));
    }

    #[test]
    fn editing_changes_urls_prefix_and_key_source() {
        let mut s = loaded();
        s.selected = 1;
        update(&mut s, key(KeyCode::Char('e')));
        // Indexing URL is focused: replace it.
        update(
            &mut s,
            ProfilesMsg::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
        );
        type_text(&mut s, "http://127.0.0.1:9000");
        update(&mut s, key(KeyCode::Tab));
        update(&mut s, key(KeyCode::Tab));
        update(&mut s, key(KeyCode::Backspace));
        type_text(&mut s, "X");
        update(&mut s, key(KeyCode::Tab));
        update(&mut s, key(KeyCode::Tab)); // key kind
        assert!(!s.is_text_input_focused());
        update(&mut s, key(KeyCode::Right)); // Stored -> Demo
        update(&mut s, key(KeyCode::Right)); // Demo -> Env (wraps)
        update(&mut s, key(KeyCode::Tab));
        type_text(&mut s, "SHOP_REST_KEY");
        let effects = update(&mut s, key(KeyCode::Enter));
        match &effects[..] {
            [ProfilesEffect::SaveProfile(p, Some(source))] => {
                assert_eq!(source, "shop");
                assert_eq!(p.name, "shop");
                assert_eq!(p.indexing_url, "http://127.0.0.1:9000");
                assert_eq!(p.analytics_url, "http://127.0.0.1:7002");
                assert_eq!(p.request.header_prefix, "KLEVX");
                assert_eq!(p.rest_key, KeySource::Env("SHOP_REST_KEY".into()));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_copy_of_the_demo_keeps_the_demo_key_source_when_edited() {
        let mut s = loaded();
        let mut copy = Profile::demo();
        copy.name = "learn".into();
        s.profiles.push(copy);
        s.selected = 2;
        update(&mut s, key(KeyCode::Char('e')));
        update(&mut s, key(KeyCode::Char('/')));
        match &update(&mut s, key(KeyCode::Enter))[..] {
            [ProfilesEffect::SaveProfile(p, _)] => {
                assert_eq!(p.rest_key, KeySource::Demo);
                assert!(p.indexing_url.ends_with('/'));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_empty_key_source_is_refused_with_a_sentence() {
        let mut s = loaded();
        s.selected = 1;
        update(&mut s, key(KeyCode::Char('e')));
        for _ in 0..4 {
            update(&mut s, key(KeyCode::Tab));
        }
        update(&mut s, key(KeyCode::Left)); // Stored -> Command, value cleared
        assert!(update(&mut s, key(KeyCode::Enter)).is_empty());
        assert!(s.status.contains("command"), "{}", s.status);
        assert!(matches!(s.mode, Mode::Edit(_)), "nothing lost");
    }

    fn render(state: &ProfilesState, w: u16, h: u16) -> String {
        crate::tui::test_util::render_text(w, h, |f| draw(f, f.area(), state))
    }

    #[test]
    fn a_paste_goes_to_the_focused_field_of_the_edit_form() {
        let mut s = loaded();
        s.selected = 1;
        update(&mut s, key(KeyCode::Char('e')));
        let Mode::Edit(form) = &s.mode else {
            panic!("not editing")
        };
        let focus = form.focus;
        update(&mut s, ProfilesMsg::Paste("-pasted\r\n".into()));
        let Mode::Edit(form) = &mut s.mode else {
            panic!("not editing")
        };
        let text = form.input_mut(focus).expect("a text field first").text();
        assert!(text.ends_with("-pasted"), "{text:?}");
    }

    /// A refused name used to be invisible: the prompt line replaced the status that said why,
    /// so Enter seemed to do nothing.
    #[test]
    fn a_refused_name_says_why_while_the_prompt_stays_open() {
        let mut s = loaded();
        s.status = "saved /cfg/profiles/shop.toml".into();
        update(&mut s, key(KeyCode::Char('n')));
        let screen = render(&s, 150, 12);
        assert!(
            !screen.contains("saved /cfg"),
            "old status on the prompt:\n{screen}"
        );
        type_text(&mut s, "a/b");
        assert!(update(&mut s, key(KeyCode::Enter)).is_empty());
        assert!(matches!(s.mode, Mode::Name { .. }), "the prompt stays open");
        let screen = render(&s, 150, 12);
        let footer = screen.lines().last().unwrap();
        assert!(footer.contains("New profile name: a/b"), "{footer}");
        assert!(
            footer.contains("\"a/b\" is not a usable profile name"),
            "{footer}"
        );
        // Taken name, when renaming.
        update(&mut s, key(KeyCode::Esc));
        s.selected = 1;
        update(&mut s, key(KeyCode::Char('r')));
        assert!(update(&mut s, key(KeyCode::Enter)).is_empty());
        let screen = render(&s, 150, 12);
        let footer = screen.lines().last().unwrap();
        assert!(
            footer.contains("A profile named shop already exists"),
            "{footer}"
        );
    }

    #[test]
    fn draws_list_file_location_and_masks_the_rest_key_unless_revealed() {
        let mut s = loaded();
        s.selected = 1;
        for (w, h) in [(80, 24), (120, 40)] {
            let screen = render(&s, w, h);
            assert!(screen.contains("Profiles (2)"), "{w}x{h}\n{screen}");
            assert!(screen.contains("demo (in use)"), "{w}x{h}\n{screen}");
            assert!(
                screen.contains("/cfg/profiles/shop.toml"),
                "{w}x{h}\n{screen}"
            );
            assert!(
                screen.contains("http://127.0.0.1:7001"),
                "{w}x{h}\n{screen}"
            );
            assert!(screen.contains("KLEVU"), "{w}x{h}\n{screen}");
            assert!(screen.contains("bad.toml line 3"), "{w}x{h}\n{screen}");
            assert!(
                !screen.contains("s3cr3t"),
                "{w}x{h}: key shown unrevealed\n{screen}"
            );
        }
        update(&mut s, key(KeyCode::Char('v')));
        assert!(render(&s, 120, 40).contains("s3cr3t-rest-key"));
        // In the edit form too.
        update(&mut s, key(KeyCode::Char('v')));
        update(&mut s, key(KeyCode::Char('e')));
        let screen = render(&s, 80, 24);
        assert!(screen.contains("Editing shop"), "{screen}");
        assert!(!screen.contains("s3cr3t"), "{screen}");
        // Delete confirmation is on screen.
        update(&mut s, key(KeyCode::Esc));
        update(&mut s, key(KeyCode::Char('d')));
        assert!(render(&s, 80, 24).contains("Delete profile shop and its file?"));
    }

    // -----------------------------------------------------------------------------------------
    // Mouse: events aimed at cells from `layout`, the layout `draw` uses.

    use crate::tui::test_util::{click_in, render_buffer, reversed, wheel_in};

    fn area(w: u16, h: u16) -> Rect {
        crate::tui::view::frame_layout(Rect::new(0, 0, w, h)).1
    }

    fn mouse(s: &mut ProfilesState, m: MouseEvent, a: Rect) {
        update(s, ProfilesMsg::Mouse(m, a));
    }

    #[test]
    fn clicking_a_profile_selects_it_and_it_is_drawn_highlighted() {
        for (w, h) in [(80, 24), (120, 40)] {
            let a = area(w, h);
            let mut s = loaded();
            assert_eq!(s.selected, 0);
            let l = layout(a, &s);
            let (i, r) = l.rows[1];
            mouse(&mut s, click_in(r), a);
            assert_eq!(s.selected, i, "{w}x{h}");
            assert_eq!(s.selected_profile().unwrap().name, "shop");
            let buf = render_buffer(w, h, |f| draw(f, a, &s));
            assert!(
                reversed(&buf, r.y, r.x, r.x + 4),
                "{w}x{h}: shop highlighted"
            );
            let (_, demo) = l.rows[0];
            assert!(!reversed(&buf, demo.y, demo.x, demo.x + 4), "{w}x{h}");
            // The detail follows the selection.
            let screen = render(&s, w, h);
            assert!(screen.contains("/cfg/profiles/shop.toml"), "{screen}");
        }
    }

    #[test]
    fn the_wheel_over_the_list_moves_the_selection_within_bounds() {
        let a = area(80, 24);
        let mut s = loaded();
        let list = layout(a, &s).list;
        mouse(&mut s, wheel_in(list, true), a);
        assert_eq!(s.selected, 1);
        mouse(&mut s, wheel_in(list, true), a);
        assert_eq!(s.selected, 1, "stays on the last profile");
        mouse(&mut s, wheel_in(list, false), a);
        assert_eq!(s.selected, 0);
        // The wheel over the detail pane does not move the selection.
        let detail = layout(a, &s).detail;
        mouse(&mut s, wheel_in(detail, true), a);
        assert_eq!(s.selected, 0);
    }

    #[test]
    fn in_edit_mode_a_click_focuses_the_field_under_it() {
        for (w, h) in [(80, 24), (120, 40)] {
            let a = area(w, h);
            let mut s = loaded();
            s.selected = 1;
            update(&mut s, key(KeyCode::Char('e')));
            let l = layout(a, &s);
            assert_eq!(l.edit_fields.len(), EditField::ALL.len(), "{l:?}");
            for f in [
                EditField::HeaderPrefix,
                EditField::KeyKind,
                EditField::IndexingUrl,
            ] {
                let (_, r) = *l.edit_fields.iter().find(|(g, _)| *g == f).unwrap();
                mouse(&mut s, click_in(r), a);
                let Mode::Edit(form) = &s.mode else {
                    panic!("still editing")
                };
                assert_eq!(form.focus, f, "{w}x{h}");
            }
            // Typing goes to the clicked field.
            let (_, r) = *l
                .edit_fields
                .iter()
                .find(|(g, _)| *g == EditField::HeaderPrefix)
                .unwrap();
            mouse(&mut s, click_in(r), a);
            type_text(&mut s, "X");
            let Mode::Edit(form) = &s.mode else {
                panic!("still editing")
            };
            assert_eq!(form.header_prefix.text(), "KLEVUX");
            // The clicked field is drawn highlighted where the layout put it.
            let buf = render_buffer(w, h, |f| draw(f, a, &s));
            assert!(reversed(&buf, r.y, r.x + 16, r.x + 22), "{w}x{h}");
            // Clicks on the list do not change the profile being edited.
            mouse(&mut s, click_in(l.rows[0].1), a);
            assert_eq!(s.selected, 1);
            assert!(matches!(s.mode, Mode::Edit(_)));
        }
    }

    #[test]
    fn long_values_wrap_and_the_fields_below_are_still_hit() {
        let a = area(80, 24);
        let mut s = loaded();
        s.selected = 1;
        update(&mut s, key(KeyCode::Char('e')));
        // A long indexing URL takes more than one row.
        type_text(&mut s, &"/very-long-path-segment".repeat(4));
        let l = layout(a, &s);
        let (_, url) = l.edit_fields[0];
        assert!(url.height > 1, "{url:?}");
        let (_, api) = *l
            .edit_fields
            .iter()
            .find(|(f, _)| *f == EditField::ApiKey)
            .unwrap();
        let screen = crate::tui::test_util::render_text(80, 24, |f| draw(f, a, &s));
        let row = screen.lines().nth(usize::from(api.y)).unwrap();
        assert!(row.contains("API key: shop-public"), "{row:?}\n{screen}");
        mouse(&mut s, click_in(api), a);
        let Mode::Edit(form) = &s.mode else {
            panic!("still editing")
        };
        assert_eq!(form.focus, EditField::ApiKey);
    }

    #[test]
    fn prompts_and_the_delete_confirmation_ignore_clicks() {
        let a = area(80, 24);
        let mut s = loaded();
        s.selected = 1;
        update(&mut s, key(KeyCode::Char('d')));
        let l = layout(a, &s);
        mouse(&mut s, click_in(l.rows[0].1), a);
        assert!(matches!(s.mode, Mode::ConfirmDelete(_)));
        assert_eq!(s.selected, 1);
    }
}
