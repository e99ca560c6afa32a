//! The events view's pure transition: keys, paste, mouse and the results of effects.

use std::path::PathBuf;

use bytes::Bytes;
use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Position, Rect};

use super::draw::{layout, preview_max_scroll, preview_page, preview_page_up, response_max_scroll};
use super::items;
use super::keys::{Action, KEYS};
use super::message::{EventsEffect, EventsMsg, SendReport};
use super::parts::EventsLayout;
use super::state::{completions, EventsState, Field, Focus, Mode, PromptKind};
use crate::core::events::Level;
use crate::core::visible::counted;
use crate::tui::component::Clip;
use crate::tui::widgets::{wheel, LineInput};

/// The next suggestion for the field: the list logic as a whole, or the last tag.
fn complete(field: Field, text: &str) -> Option<String> {
    let cands = completions(field, text);
    if cands.is_empty() {
        return None;
    }
    let (head, last) = match field {
        Field::Tags => match text.rfind(',') {
            Some(i) => (
                text[..=i].to_string() + " ",
                text[i + 1..].trim().to_string(),
            ),
            None => (String::new(), text.trim().to_string()),
        },
        _ => (String::new(), text.trim().to_string()),
    };
    let upper = last.to_ascii_uppercase();
    // Cycle when the text already is a suggestion; otherwise complete the typed prefix.
    let next = if let Some(i) = cands.iter().position(|c| *c == last) {
        cands[(i + 1) % cands.len()].clone()
    } else {
        cands
            .iter()
            .find(|c| c.to_ascii_uppercase().starts_with(&upper))
            .or_else(|| {
                cands.iter().find(|c| {
                    c.to_ascii_uppercase()
                        .contains(upper.trim_start_matches("RECSPAGETYPE:"))
                })
            })
            .unwrap_or(&cands[0])
            .clone()
    };
    Some(head + &next)
}

/// Handle a message; pure (no I/O): what needs I/O comes back as effects. When the batch
/// changed, its validation is done here for small batches, else asked for as an
/// [`EventsEffect::Validate`] (the view says "validating…" until the answer for the current
/// revision arrives; answers for older revisions are dropped).
pub fn update(state: &mut EventsState, msg: EventsMsg) -> Vec<EventsEffect> {
    update_on_screen(state, msg, true)
}

/// [`update`] for the view on screen or not. Off screen (another view shown or a popup over it,
/// as when a profile loads before the workbench's first frame) a changed batch is validated by
/// the worker, off the draw path, and the preview follows no field; opening the view validates
/// what the worker has not answered yet ([`EventsState::ensure_current`]).
pub fn update_on_screen(
    state: &mut EventsState,
    msg: EventsMsg,
    on_screen: bool,
) -> Vec<EventsEffect> {
    let before = state.rev;
    let mut effects = update_msg(state, msg);
    if state.rev != state.requested && state.validating() {
        state.requested = state.rev;
        if state.validate_inline() && on_screen {
            let v = state.validate_job().run();
            state.apply(v);
        } else {
            effects.push(EventsEffect::Validate(Box::new(state.validate_job())));
        }
    }
    if state.rev != before && state.shown_rev == state.rev && on_screen {
        follow_edit(state);
    }
    effects
}

/// After an edit of a field, the preview shows the line the field writes (it stayed wherever
/// it was scrolled, the change out of sight).
fn follow_edit(state: &mut EventsState) {
    let Focus::Field(field) = state.focus else {
        return;
    };
    let Some(member) = EventsState::field_member(field) else {
        return;
    };
    let Some(pane) = layout(state.area, state).preview else {
        return;
    };
    let quoted = format!("\"{member}\"");
    if let Some(line) = state.preview.lines().position(|l| l.contains(&quoted)) {
        state.preview_scroll = super::draw::preview_showing(state, pane, line);
    }
}

fn update_msg(state: &mut EventsState, msg: EventsMsg) -> Vec<EventsEffect> {
    match msg {
        EventsMsg::Key(key) if key.kind != KeyEventKind::Release => on_key(state, key),
        EventsMsg::Key(_) => Vec::new(),
        EventsMsg::Run(action) => run(state, action),
        EventsMsg::Paste(text) => {
            on_paste(state, &text);
            Vec::new()
        }
        EventsMsg::Mouse(mouse, area) => {
            on_mouse(state, mouse, area);
            Vec::new()
        }
        EventsMsg::Validated(v) => {
            state.apply(*v);
            Vec::new()
        }
        EventsMsg::SetTarget {
            analytics_url,
            api_key,
            local,
        } => {
            state.analytics_url.set(analytics_url);
            state.local = local;
            if state.mode == Mode::Form {
                state.api_key.set(api_key);
            }
            state.refresh();
            Vec::new()
        }
        EventsMsg::LoadBatch(text) => said(state.load_text(&text)),
        EventsMsg::Starter => {
            state.reset_to_starter();
            Vec::new()
        }
        EventsMsg::FileLoaded { path, text } | EventsMsg::LoadFile { path, text } => {
            state.prompt_sent = None;
            let how = state.load_text(&text);
            let say = format!("{} ({})", how, path.display());
            state.last_path = Some(path);
            said(say)
        }
        EventsMsg::FileSaved(path) => {
            state.prompt_sent = None;
            let say = format!("Batch saved to {}.", path.display());
            state.last_path = Some(path);
            said(say)
        }
        EventsMsg::FileExists(path) => file_exists(state, path),
        EventsMsg::FileError(why) => file_error(state, why),
        EventsMsg::Sent(result) => sent(state, result),
        EventsMsg::Stored(result) => {
            state.stored = Some(result);
            Vec::new()
        }
    }
}

/// A paste goes where typing would: the open prompt (over its prefilled path), the cell being
/// edited, or the focused field or raw editor.
fn on_paste(state: &mut EventsState, text: &str) {
    if let Some((_, input)) = &mut state.prompt {
        if std::mem::take(&mut state.prompt_prefilled) {
            input.set("");
        }
        input.insert_str(text);
    } else if let Some(input) = &mut state.editing {
        input.insert_str(text);
    } else {
        match state.focus {
            Focus::Field(field) => {
                state.input_mut(field).insert_str(text);
                state.refresh();
            }
            Focus::Raw => {
                if state.raw.insert_str(text).is_some() {
                    state.refresh();
                }
            }
            Focus::Items | Focus::Problems | Focus::Response => {}
        }
    }
}

/// A save to a new file found one there: the prompt asks again, Enter now replaces it.
fn file_exists(state: &mut EventsState, path: PathBuf) -> Vec<EventsEffect> {
    let say = format!(
        "{} already exists; Enter replaces it, Esc keeps it.",
        path.display()
    );
    state.prompt = Some((PromptKind::Save, LineInput::new(path.display().to_string())));
    state.replace_ok = Some(path);
    said(say)
}

/// A file could not be read or written: the path entered comes back in the prompt, to be
/// fixed.
fn file_error(state: &mut EventsState, why: String) -> Vec<EventsEffect> {
    match state.prompt_sent.take() {
        Some((kind, path)) if state.prompt.is_none() => {
            state.prompt = Some((kind, LineInput::new(path)));
            said(format!(
                "{why}; fix the path and press Enter (Esc cancels)."
            ))
        }
        _ => said(why),
    }
}

/// The collector answered (or the send failed): the response pane shows it; the local
/// collector is asked for the events it kept, the ones just sent.
fn sent(state: &mut EventsState, result: Result<SendReport, String>) -> Vec<EventsEffect> {
    state.sending = false;
    let ok = matches!(result, Ok(ref r) if (200..300).contains(&r.status));
    let mut effects = said(match &result {
        Ok(r) => format!("Collector answered {} in {} ms.", r.status, r.elapsed_ms),
        Err(why) => why.clone(),
    });
    state.response = Some(result);
    state.response_scroll = 0;
    state.stored = None;
    if state.local && (ok || matches!(state.response, Some(Ok(_)))) {
        effects.push(EventsEffect::FetchStored {
            url: format!(
                "{}/_inspect/events?limit={}",
                state.analytics_url.text().trim_end_matches('/'),
                state.sent_events.max(1)
            ),
        });
    }
    effects
}

/// Run one action of the view's table (from its key, the copy menu or the command palette).
pub fn run(state: &mut EventsState, action: Action) -> Vec<EventsEffect> {
    match action {
        Action::Send => send(state),
        Action::CopyBatch => {
            state.ensure_current();
            let what = match state.mode {
                Mode::Form => format!(
                    "the batch JSON ({})",
                    counted(state.preview_events, "event")
                ),
                Mode::Raw => "the raw batch JSON".to_string(),
            };
            vec![EventsEffect::Copy(Clip {
                text: state.preview.clone(),
                what,
            })]
        }
        Action::ToggleShape => said(match state.toggle_shape() {
            Some(shape) => format!(
                "Events in the {} shape (every value kept); {} switches back.",
                shape.name(),
                KEYS.label_of(Action::ToggleShape)
            ),
            None => format!(
                "The shape is switched in the form: {} back to it first.",
                KEYS.label_of(Action::NextMode)
            ),
        }),
        Action::ToggleOrder => {
            if state.mode == Mode::Raw {
                return said(format!(
                    "What the form writes is switched in the form: {} back to it first.",
                    KEYS.label_of(Action::NextMode)
                ));
            }
            state.order = !state.order;
            state.refresh();
            said(if state.order {
                format!(
                    "The form writes its products as one order_purchase event (order_id {} is a placeholder); {} switches back.",
                    crate::core::events::compose::ORDER_ID_PLACEHOLDER,
                    KEYS.label_of(Action::ToggleOrder)
                )
            } else {
                format!(
                    "The form writes the recommendation list (its view and clicks); {} switches to an order.",
                    KEYS.label_of(Action::ToggleOrder)
                )
            })
        }
        Action::NextMode => said(match state.mode {
            Mode::Form => {
                state.enter_raw();
                "Raw JSON mode: the batch as text.".into()
            }
            Mode::Raw => match state.leave_raw() {
                Ok(()) => "Back to the form.".into(),
                Err(why) => why,
            },
        }),
        Action::Open => {
            let start = state
                .last_path
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            state.prompt_prefilled = !start.is_empty();
            state.prompt = Some((PromptKind::Load, LineInput::new(start)));
            Vec::new()
        }
        Action::Save => {
            let start = state
                .last_path
                .as_ref()
                .map(|p| p.display().to_string())
                // The file written is shown whole, resolved against the working directory.
                .unwrap_or_else(|| {
                    crate::tui::widgets::prompt::resolved("batch.json")
                        .display()
                        .to_string()
                });
            state.prompt_prefilled = true;
            state.prompt = Some((PromptKind::Save, LineInput::new(start)));
            Vec::new()
        }
    }
}

fn on_key(state: &mut EventsState, key: KeyEvent) -> Vec<EventsEffect> {
    // A path prompt takes every key.
    if let Some((kind, input)) = state.prompt.take() {
        return prompt_key(state, kind, input, key);
    }
    // Editing a cell in place.
    if let Some(input) = state.editing.take() {
        items::edit_key(state, input, key);
        return Vec::new();
    }
    // Keys that work everywhere in the view (the workbench's one keymap: Ctrl-G / F9 send,
    // Ctrl-S saves, Ctrl-P switches what the pane shows, Ctrl-O opens; copies are in the copy
    // menu, Alt-Y).
    if let Some(action) = KEYS.lookup(&key) {
        return run(state, action);
    }
    if state.focus == Focus::Response && response_key(state, key) {
        return Vec::new();
    }
    if view_key(state, &key) {
        return Vec::new();
    }
    focused_key(state, key)
}

/// A key while the path prompt is open: Esc cancels, Enter asks for the file, the rest edits
/// (typing replaces a prefilled path).
fn prompt_key(
    state: &mut EventsState,
    kind: PromptKind,
    mut input: LineInput,
    key: KeyEvent,
) -> Vec<EventsEffect> {
    let prefilled = std::mem::take(&mut state.prompt_prefilled);
    match key.code {
        KeyCode::Esc => {
            state.replace_ok = None;
            said("Cancelled.".into())
        }
        KeyCode::Enter => {
            let path = input.text().trim().to_string();
            if path.is_empty() {
                state.prompt = Some((kind, input));
                return said("Type a file path first.".into());
            }
            state.prompt_sent = Some((kind, path.clone()));
            // A relative path names a file in the working directory: the effect and the
            // message that follows carry the whole path.
            let path: PathBuf = crate::tui::widgets::prompt::resolved(&path);
            state.ensure_current();
            match kind {
                PromptKind::Load => vec![EventsEffect::LoadFile(path)],
                // A file of this session (loaded or saved here) or one the user agreed to
                // replace is overwritten; any other path only when nothing is there.
                PromptKind::Save
                    if state.last_path.as_ref() == Some(&path)
                        || state.replace_ok.as_ref() == Some(&path) =>
                {
                    state.replace_ok = None;
                    vec![EventsEffect::SaveFile(path, state.preview.clone())]
                }
                PromptKind::Save => {
                    vec![EventsEffect::SaveNewFile(path, state.preview.clone())]
                }
            }
        }
        _ => {
            let typed = matches!(key.code, KeyCode::Char(_)) && crate::tui::keymap::plain(&key);
            if prefilled && typed {
                input.set("");
            }
            input.handle_key(&key);
            state.prompt = Some((kind, input));
            Vec::new()
        }
    }
}

/// The view's own moves, whatever has the focus: Tab / Shift-Tab between the panes, and the
/// preview's pages (by its height less a line, so nothing is skipped, stopping with its last
/// line on its last row). Whether the key was one.
fn view_key(state: &mut EventsState, key: &KeyEvent) -> bool {
    match key.code {
        KeyCode::Tab => state.cycle_focus(false),
        KeyCode::BackTab => state.cycle_focus(true),
        KeyCode::PageDown | KeyCode::PageUp => {
            if let Some(pane) = layout(state.area, state).preview {
                let page = preview_page(state, pane);
                let s = state.preview_scroll;
                state.preview_scroll = if key.code == KeyCode::PageDown {
                    s.saturating_add(page)
                        .min(preview_max_scroll(state, pane).max(s))
                } else {
                    preview_page_up(state, pane)
                };
            }
        }
        _ => return false,
    }
    true
}

/// A key for the focused pane: a field (Ctrl-N completes), the raw editor, the problems list
/// (Enter jumps to the problem) or the items table.
fn focused_key(state: &mut EventsState, key: KeyEvent) -> Vec<EventsEffect> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match state.focus {
        Focus::Field(field) => {
            match key.code {
                KeyCode::Char('n') if ctrl => {
                    if let Some(next) = complete(field, state.input(field).text()) {
                        state.input_mut(field).set(next);
                    }
                }
                KeyCode::Down | KeyCode::Enter => state.cycle_focus(false),
                KeyCode::Up => state.cycle_focus(true),
                _ => {
                    state.input_mut(field).handle_key(&key);
                }
            }
            state.refresh();
        }
        Focus::Raw => {
            if state.raw.input(key).is_some() {
                state.refresh();
            }
        }
        Focus::Problems => match key.code {
            KeyCode::Up | KeyCode::Char('k') => {
                state.problem_sel = state.problem_sel.saturating_sub(1);
                state.problems_top = state.problems_top.min(state.problem_sel);
            }
            KeyCode::Down | KeyCode::Char('j') => {
                state.problem_sel =
                    (state.problem_sel + 1).min(state.problems.len().saturating_sub(1))
            }
            KeyCode::Enter => return said(state.jump_to_problem(state.problem_sel)),
            _ => {}
        },
        Focus::Items => return said(items::items_key(state, key)),
        // Its keys are taken by `on_key`.
        Focus::Response => {}
    }
    Vec::new()
}

/// The response pane has the focus: the arrows scroll it a line, PageUp / PageDown by its height
/// less a line (nothing is skipped), Home / End to its ends; it stops at its last line. False
/// for any other key.
fn response_key(state: &mut EventsState, key: KeyEvent) -> bool {
    let Some(pane) = layout(state.area, state).response else {
        return false;
    };
    let max = response_max_scroll(state, pane);
    let page = pane.height.saturating_sub(3).max(1);
    let s = state.response_scroll.min(max);
    state.response_scroll = match key.code {
        KeyCode::Down | KeyCode::Char('j') => s.saturating_add(1),
        KeyCode::Up | KeyCode::Char('k') => s.saturating_sub(1),
        KeyCode::PageDown => s.saturating_add(page),
        KeyCode::PageUp => s.saturating_sub(page),
        KeyCode::Home => 0,
        KeyCode::End => max,
        _ => return false,
    }
    .min(max);
    true
}

fn send(state: &mut EventsState) -> Vec<EventsEffect> {
    if state.analytics_url.text().trim().is_empty() {
        return said("Set the analytics URL before sending.".into());
    }
    // What is sent, and the problem count in the status, are those of the current batch.
    state.ensure_current();
    let errors = state
        .problems
        .iter()
        .filter(|p| p.level == Level::Error)
        .count();
    state.sending = true;
    state.sent_events = state.preview_events;
    state.sent_rev = Some(state.rev);
    let say = if errors > 0 {
        format!(
            "Sending a batch with {errors} problem(s) to {}…",
            state.collect_url()
        )
    } else {
        format!("Sending to {}…", state.collect_url())
    };
    vec![
        EventsEffect::Status(say),
        EventsEffect::SendEvents {
            analytics_url: state.analytics_url.text().trim().to_string(),
            body: Bytes::from(state.preview.clone()),
        },
    ]
}

/// A status message as the effect that says it (nothing when empty).
fn said(text: String) -> Vec<EventsEffect> {
    if text.is_empty() {
        return Vec::new();
    }
    vec![EventsEffect::Status(text)]
}

/// Click to focus a field, a pane or an item row (and its column); the wheel scrolls the
/// preview and the response, and moves the selection in the items and problems lists.
fn on_mouse(state: &mut EventsState, m: MouseEvent, area: Rect) {
    let pos = Position::new(m.column, m.row);
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            if state.prompt.is_some() {
                return; // the path prompt keeps the keyboard until Enter or Esc
            }
            // Leaving a cell by clicking elsewhere keeps what was typed, as Enter does.
            if let Some(input) = state.editing.take() {
                state.commit_cell(input.text());
                state.refresh();
            }
            let l = layout(area, state);
            keep_windows(state, &l);
            if let Some((f, _)) = l.fields.iter().find(|(_, r)| r.contains(pos)) {
                state.set_focus(Focus::Field(*f));
            } else if let Some(items) = l.items.filter(|r| r.contains(pos)) {
                state.set_focus(Focus::Items);
                items::items_mouse(state, &m, items, &l.items_window);
                if l.item_rows.iter().any(|(_, r)| r.contains(pos)) {
                    let col = l
                        .item_columns
                        .iter()
                        .find(|(_, r)| (r.x..r.x + r.width).contains(&pos.x));
                    if let Some((c, _)) = col {
                        state.col = *c;
                    }
                }
            } else if l.problems.contains(pos) {
                state.set_focus(Focus::Problems);
                if let Some((i, _)) = l.problem_rows.iter().find(|(_, r)| r.contains(pos)) {
                    state.problem_sel = *i;
                }
            } else if l.raw.is_some_and(|r| r.contains(pos)) {
                state.set_focus(Focus::Raw);
            }
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let down = m.kind == MouseEventKind::ScrollDown;
            let l = layout(area, state);
            keep_windows(state, &l);
            if let Some(r) = l.preview.filter(|r| r.contains(pos)) {
                let max = preview_max_scroll(state, r).max(state.preview_scroll);
                state.preview_scroll = wheel(state.preview_scroll, m.kind, max);
            } else if l.response.is_some_and(|r| r.contains(pos)) {
                state.response_scroll = wheel(state.response_scroll, m.kind, u16::MAX);
            } else if l.problems.contains(pos) {
                let last = state.problems.len().saturating_sub(1);
                state.problem_sel = if down {
                    (state.problem_sel + 1).min(last)
                } else {
                    state.problem_sel.saturating_sub(1)
                };
            } else if let Some(items) = l.items.filter(|r| r.contains(pos)) {
                if state.editing.is_none() {
                    items::items_mouse(state, &m, items, &l.items_window);
                }
            } else if l.raw.is_some_and(|r| r.contains(pos)) {
                // The editor scrolls its own view (the text does not change).
                if state.raw.input(ratatui_textarea::Input::from(m)).is_some() {
                    state.refresh();
                }
            }
        }
        _ => {}
    }
}

/// Pin the item and problem windows where they are on screen, so that a click or the wheel
/// moves the selection within them instead of jumping them.
fn keep_windows(state: &mut EventsState, l: &EventsLayout) {
    if !l.items_window.rows.is_empty() {
        state.items_list.top = l.items_window.first;
    }
    if let Some((i, _)) = l.problem_rows.first() {
        state.problems_top = *i;
    }
}
