//! The profile manager's pure transition: keys, mouse, and the results of file work.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::draw::{detail_max_scroll, layout};
use super::keys::{FormAction, FORM_KEYS};
use super::state::*;
use crate::store::profile::validate_name;
use crate::store::Profile;
use crate::tui::widgets::list::Outcome;
use crate::tui::widgets::{cycle, wheel, LineInput};
use ratatui::widgets::{Block, Borders};

/// Handle a message; pure. `current` names the profile in use (the App owns it): it is marked,
/// not deleted, and `c` copies it.
pub fn update(state: &mut ProfilesState, current: &str, msg: ProfilesMsg) -> Vec<ProfilesEffect> {
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
                Mode::Browse => state.list.paste(&text),
                Mode::ConfirmDelete(_) => {}
            }
            Vec::new()
        }
        ProfilesMsg::Loaded {
            profiles,
            errors,
            dir,
        } => {
            // The same profile stays selected (by name: the list is sorted), or the one just
            // created or renamed.
            let keep = state
                .follow
                .take()
                .or_else(|| state.selected_profile().map(|p| p.name.clone()));
            state.profiles = profiles;
            state.errors = errors;
            state.dir = dir;
            let visible = state.visible();
            if let Some(name) = keep {
                let at = visible.iter().position(|i| state.profiles[*i].name == name);
                if let Some(at) = at {
                    state.list.selected = at;
                }
            }
            state.list.clamp(visible.len());
            Vec::new()
        }
        ProfilesMsg::Done(msg) | ProfilesMsg::Failed(msg) => vec![ProfilesEffect::Status(msg)],
        ProfilesMsg::Mouse(m, area) => {
            on_mouse(state, m, area);
            Vec::new()
        }
        ProfilesMsg::Key(k) if k.kind == KeyEventKind::Release => Vec::new(),
        ProfilesMsg::Key(k) => on_key(state, current, k),
        ProfilesMsg::Run(action) => match std::mem::replace(&mut state.mode, Mode::Browse) {
            Mode::Edit(form) => run_form(state, form, action),
            other => {
                state.mode = other;
                Vec::new()
            }
        },
    }
}

fn on_key(state: &mut ProfilesState, current: &str, key: KeyEvent) -> Vec<ProfilesEffect> {
    let mode = std::mem::replace(&mut state.mode, Mode::Browse);
    match mode {
        Mode::Browse => browse_key(state, current, key),
        Mode::ConfirmDelete(name) => {
            if matches!(key.code, KeyCode::Char('y') | KeyCode::Char('Y')) {
                vec![
                    ProfilesEffect::Status(format!("Deleting profile {name}…")),
                    ProfilesEffect::DeleteProfile(name),
                ]
            } else {
                said(format!("Kept profile {name}."))
            }
        }
        Mode::Name { for_, mut input } => {
            // A refusal shows until the next key (Enter refuses again if still so).
            state.name_error = None;
            match key.code {
                KeyCode::Esc => said("Cancelled.".into()),
                KeyCode::Enter => name_entered(state, current, for_, input),
                _ => {
                    input.handle_key(&key);
                    state.mode = Mode::Name { for_, input };
                    Vec::new()
                }
            }
        }
        Mode::Edit(form) => edit_key(state, form, key),
    }
}

/// A key in the edit form: the answer to "discard the changes?", a form action, moving between
/// fields, cycling the key kind, or typing into the focused field.
fn edit_key(
    state: &mut ProfilesState,
    mut form: Box<EditForm>,
    key: KeyEvent,
) -> Vec<ProfilesEffect> {
    // The answer to "discard the changes?": `d` discards, any other key keeps editing
    // (and does nothing else, so a key typed in a hurry is not a field edit either).
    if form.asking_discard {
        form.asking_discard = false;
        let plain = crate::tui::keymap::plain(&key);
        if plain && matches!(key.code, KeyCode::Char('d') | KeyCode::Char('D')) {
            return said(format!(
                "Changes to {} discarded; nothing saved.",
                form.name
            ));
        }
        let kept = format!(
            "Kept the changes to {}: Enter or {} saves.",
            form.name,
            FORM_KEYS.label_of(FormAction::Save)
        );
        state.mode = Mode::Edit(form);
        return said(kept);
    }
    if let Some(action) = FORM_KEYS.lookup(&key) {
        return run_form(state, form, action);
    }
    match key.code {
        // Esc with typed changes asks first (one key must not drop them).
        KeyCode::Esc if form.changed() => {
            form.asking_discard = true;
            let ask = format!(
                "Discard the changes to {}? d discards them, any other key keeps editing.",
                form.name
            );
            state.mode = Mode::Edit(form);
            return said(ask);
        }
        KeyCode::Esc => return said("Edit closed; nothing was changed.".into()),
        KeyCode::Enter => return save_form(state, form),
        KeyCode::Tab | KeyCode::Down => form.focus = cycle(&EditField::ALL, form.focus, false),
        KeyCode::BackTab | KeyCode::Up => form.focus = cycle(&EditField::ALL, form.focus, true),
        KeyCode::Left | KeyCode::Right | KeyCode::Char(' ') if form.focus == EditField::KeyKind => {
            form.key_kind = cycle(&KeyKind::ALL, form.key_kind, key.code == KeyCode::Left);
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

fn save_form(state: &mut ProfilesState, form: Box<EditForm>) -> Vec<ProfilesEffect> {
    match form.to_profile().and_then(|p| usable_urls(&p).map(|()| p)) {
        Ok(p) => {
            let saving = format!("Saving profile {}…", p.name);
            // The edited profile keeps its stored body.
            let source = Some(form.base.name.clone());
            vec![
                ProfilesEffect::Status(saving),
                ProfilesEffect::SaveProfile(Box::new(p), source),
            ]
        }
        Err(why) => {
            state.mode = Mode::Edit(form);
            said(why)
        }
    }
}

/// A URL no send could use is refused when the form is saved, naming the field, as
/// `profile new` refuses it (`docs/profiles.md`); `embedded` names the in-process server and
/// an empty URL is one not set yet (a new profile's).
fn usable_urls(p: &Profile) -> Result<(), String> {
    for (field, url) in [
        (EditField::IndexingUrl, &p.indexing_url),
        (EditField::AnalyticsUrl, &p.analytics_url),
    ] {
        if !url.is_empty() && url != crate::store::EMBEDDED_URL {
            crate::engine::check_target_of(url, &crate::core::RequestSpec::default())
                .map_err(|e| format!("{}: {e}; nothing was saved.", field.label()))?;
        }
    }
    Ok(())
}

fn browse_key(state: &mut ProfilesState, current: &str, key: KeyEvent) -> Vec<ProfilesEffect> {
    // The list's keys first: `/` and, while it is open, the filter's typing.
    let n = state.visible().len();
    match state.list.on_key(&key, n) {
        Outcome::Ignored => {}
        // Another profile: its detail from the top.
        Outcome::Moved | Outcome::Filtered => {
            state.detail_scroll = 0;
            return Vec::new();
        }
        _ => return Vec::new(),
    }
    let selected = state.selected_profile().cloned();
    // What to say in the status line, if anything.
    let mut say = String::new();
    let name_prompt = |for_: NameFor, start: String| Mode::Name {
        for_,
        input: LineInput::new(start),
    };
    match key.code {
        // The detail pane pages by its height less a row (nothing is skipped) to its last row.
        KeyCode::PageDown | KeyCode::PageUp => page_detail(state, key.code == KeyCode::PageDown),
        KeyCode::Char('v') => state.revealed = !state.revealed,
        KeyCode::Enter => {
            // Nothing said here: the load may wait for the unsaved-edits question (or be
            // cancelled there); the request view says "profile X loaded" once it is.
            if let Some(p) = selected {
                return vec![ProfilesEffect::Activate(p.name)];
            }
        }
        KeyCode::Char('n') => state.mode = name_prompt(NameFor::New, String::new()),
        KeyCode::Char('c') => {
            if state.in_use(current).is_some() {
                state.mode = name_prompt(NameFor::FromCurrent, String::new());
            } else {
                say = "No profile is in use to copy from.".into();
            }
        }
        KeyCode::Char('D') => {
            if let Some(p) = selected {
                state.mode = name_prompt(NameFor::Duplicate, format!("{}-copy", p.name));
            }
        }
        KeyCode::Char('r') => {
            match selected {
                Some(p) if p.is_demo() => say =
                    "The demo profile is built in and cannot be renamed; duplicate it (D) instead."
                        .into(),
                Some(p) => state.mode = name_prompt(NameFor::Rename, p.name),
                None => {}
            }
        }
        KeyCode::Char('e') => match selected {
            Some(p) if p.is_demo() => {
                say = "The demo profile is built in and read-only; duplicate it (D) to edit a copy."
                    .into()
            }
            Some(p) => state.mode = Mode::Edit(Box::new(EditForm::new(&p))),
            None => {}
        },
        KeyCode::Char('d') | KeyCode::Delete => say = ask_delete(state, current, selected),
        _ => {}
    }
    said(say)
}

/// The detail pane pages by its height less a row (nothing is skipped) to its last row.
fn page_detail(state: &mut ProfilesState, down: bool) {
    let pane = layout(state.area, state).detail;
    let page = Block::new()
        .borders(Borders::ALL)
        .inner(pane)
        .height
        .saturating_sub(1)
        .max(1);
    let max = detail_max_scroll(state, pane);
    let s = state.detail_scroll.min(max);
    state.detail_scroll = if down {
        s.saturating_add(page).min(max)
    } else {
        s.saturating_sub(page)
    };
}

/// Delete asks to confirm, unless the profile is the built-in one or the one in use (deleting
/// its file under the workbench would leave it editing a profile that no longer exists).
/// Returns what to say.
fn ask_delete(state: &mut ProfilesState, current: &str, selected: Option<Profile>) -> String {
    match selected {
        Some(p) if p.is_demo() => "The demo profile is built in and cannot be deleted.".into(),
        Some(p) if p.name == current => format!(
            "Profile {} is in use, so it was not deleted; open another profile first (select it, Enter), then delete {}.",
            p.name, p.name
        ),
        Some(p) => {
            let ask = format!(
                "Delete profile {}? y to confirm, any other key keeps it.",
                p.name
            );
            state.mode = Mode::ConfirmDelete(p.name);
            ask
        }
        None => String::new(),
    }
}

/// A status message as the effect that says it (nothing when empty).
fn said(text: String) -> Vec<ProfilesEffect> {
    if text.is_empty() {
        return Vec::new();
    }
    vec![ProfilesEffect::Status(text)]
}

fn name_entered(
    state: &mut ProfilesState,
    current: &str,
    for_: NameFor,
    input: LineInput,
) -> Vec<ProfilesEffect> {
    let name = input.text().trim().to_string();
    let refuse = |state: &mut ProfilesState, why: String, input: LineInput| {
        state.mode = Mode::Name { for_, input };
        state.name_error = Some(why.clone());
        said(why)
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
        NameFor::FromCurrent => match state.in_use(current).cloned() {
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
    let saving = ProfilesEffect::Status(format!("Saving profile {name}…"));
    state.follow = Some(name.clone());
    let save = match for_ {
        NameFor::Rename => {
            let from = state
                .selected_profile()
                .map(|p| p.name.clone())
                .unwrap_or_default();
            ProfilesEffect::RenameProfile {
                from,
                profile: Box::new(profile),
            }
        }
        _ => ProfilesEffect::SaveProfile(Box::new(profile), source),
    };
    vec![saving, save]
}

/// Browsing: a click selects the profile under it, the wheel over the list moves the selection.
/// Editing: a click on a field focuses it. Prompts and the delete confirmation ignore the mouse
/// (a stray click must not answer them).
fn on_mouse(state: &mut ProfilesState, m: MouseEvent, area: Rect) {
    let l = layout(area, state);
    let pos = Position::new(m.column, m.row);
    let click = m.kind == MouseEventKind::Down(MouseButton::Left);
    let n = state.visible().len();
    match &mut state.mode {
        // The wheel over the detail pane scrolls it; elsewhere the list takes the mouse.
        Mode::Browse if l.detail.contains(pos) => {
            let max = detail_max_scroll(state, l.detail);
            state.detail_scroll = wheel(state.detail_scroll.min(max), m.kind, max);
        }
        Mode::Browse if state.list.on_mouse(&m, l.list, &l.window, n) == Outcome::Moved => {
            state.detail_scroll = 0;
        }
        Mode::Edit(form) if click => {
            if let Some((f, _)) = l.edit_fields.iter().find(|(_, r)| r.contains(pos)) {
                form.focus = *f;
            }
        }
        _ => {}
    }
}

/// Run an action of the edit form (from its key or from the command palette).
fn run_form(
    state: &mut ProfilesState,
    mut form: Box<EditForm>,
    action: FormAction,
) -> Vec<ProfilesEffect> {
    let say = match action {
        FormAction::Save => return save_form(state, form),
        FormAction::Reveal => {
            state.revealed = !state.revealed;
            String::new()
        }
        FormAction::VendorPreset => form.next_vendor_preset(),
    };
    state.mode = Mode::Edit(form);
    said(say)
}
