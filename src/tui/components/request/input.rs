//! The request view's input: keys, the mouse and pastes, to the open prompt (save as, search,
//! a request's name, the REST key's choice), the action the key table names, or the focused
//! pane. Pure: what needs I/O comes back as effects.

use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::body_pane::{body_changed, reformat_body};
use super::copy::{
    copy_body, copy_canonical, copy_curl, copy_headers, copy_response, copy_signature,
    copy_suite_entry,
};
use super::detail_pane::{cycle_detail, cycle_detail_if_title, scroll_detail, show_sent};
use super::fields_pane::field_changed;
use super::key_choice;
use super::keys::{Action, KEYS, NORMAL_KEYS};
use super::layout::request_layout;
use super::message::RequestEffect;
use super::requests;
use super::response_pane::PaneTarget;
use super::send::{cancel_send, send};
use super::sign::{resign_if, toggle_form, toggle_timestamp};
use super::state::{Detail, Field, NameAction, Prompt, RequestState, SearchIn};
use crate::tui::model::CurrentProfile;
use crate::tui::widgets::search;
use crate::tui::widgets::LineInput;

/// A key for the request view: its open prompt takes it first.
pub(super) fn on_key(
    req: &mut RequestState,
    profile: &CurrentProfile,
    key: KeyEvent,
) -> Vec<RequestEffect> {
    match req.prompt.take() {
        Some(prompt) => prompt_key(req, prompt, key),
        None => request_key(req, profile, key),
    }
}

/// Keys of an open prompt (save as, search).
fn prompt_key(req: &mut RequestState, prompt: Prompt, key: KeyEvent) -> Vec<RequestEffect> {
    match prompt {
        Prompt::SaveAs(mut edit) => match key.code {
            KeyCode::Esc => vec![],
            KeyCode::Enter => {
                let name = edit.text().trim().to_string();
                if name.is_empty() {
                    req.status = "type a profile name to save as".into();
                    req.prompt = Some(Prompt::SaveAs(edit));
                    vec![]
                } else {
                    key_choice::save_or_ask(req, name, true)
                }
            }
            _ => {
                edit.edit(&key);
                req.prompt = Some(Prompt::SaveAs(edit));
                vec![]
            }
        },
        Prompt::RequestName { action, edit } => {
            let changed = requests::name_prompt_key(req, action, edit, key);
            resign_if(req, changed)
        }
        Prompt::DeleteRequest => {
            let changed = requests::delete_prompt_key(req, key);
            resign_if(req, changed)
        }
        Prompt::KeyChoice(choice) => key_choice::on_key(req, choice, key),
        Prompt::Search(within, mut b) => {
            let outcome = match within {
                SearchIn::Body => search::on_key(&mut b, &mut req.body, &key),
                SearchIn::Response => search::on_key(&mut b, &mut PaneTarget { req }, &key),
            };
            if let search::Outcome::Open(said) = outcome {
                if let Some(said) = said {
                    req.status = said;
                }
                req.prompt = Some(Prompt::Search(within, b));
            }
            vec![]
        }
    }
}

/// A paste (line ends already as the user copied them): into the open prompt, the focused
/// field (as one line) or the body.
pub(super) fn on_paste(req: &mut RequestState, text: &str) -> Vec<RequestEffect> {
    match req.prompt.take() {
        // The search box takes a pasted pattern (one line) and searches at once.
        Some(Prompt::Search(within, mut b)) => {
            let outcome = match within {
                SearchIn::Body => search::on_paste(&mut b, &mut req.body, text),
                SearchIn::Response => search::on_paste(&mut b, &mut PaneTarget { req }, text),
            };
            if let search::Outcome::Open(Some(said)) = outcome {
                req.status = said;
            }
            req.prompt = Some(Prompt::Search(within, b));
            return vec![];
        }
        Some(other) => {
            req.prompt = Some(other);
            return vec![];
        }
        None => {}
    }
    if req.normal_mode {
        return vec![];
    }
    if req.focus == Field::Body {
        let changed = req.body.insert_str(text);
        body_changed(req, changed)
    } else {
        let focus = req.focus;
        if let Some(edit) = req.line_edit_mut(focus) {
            edit.insert_str(text);
        }
        field_changed(req, focus)
    }
}

/// Keys of the request view: the table's actions ([`KEYS`], then [`NORMAL_KEYS`] in normal
/// mode), the keys that move between fields, then editing.
fn request_key(
    req: &mut RequestState,
    profile: &CurrentProfile,
    key: KeyEvent,
) -> Vec<RequestEffect> {
    if let Some(action) = KEYS.lookup(&key) {
        return run(req, profile, action);
    }
    match key.code {
        KeyCode::Tab => {
            req.normal_mode = false;
            req.focus = req.focus.next();
            return vec![];
        }
        KeyCode::BackTab => {
            req.normal_mode = false;
            req.focus = req.focus.prev();
            return vec![];
        }
        KeyCode::Esc => {
            req.normal_mode = true;
            return vec![];
        }
        _ => {}
    }
    if req.normal_mode {
        return match NORMAL_KEYS.lookup(&key) {
            Some(action) => run(req, profile, action),
            None => vec![],
        };
    }
    field_key(req, key)
}

/// Run one action of the request view (from its key or from the command palette).
pub fn run(req: &mut RequestState, profile: &CurrentProfile, action: Action) -> Vec<RequestEffect> {
    match action {
        Action::Send => return send(req),
        Action::CancelSend => return cancel_send(req),
        Action::ToggleTimestamp => return toggle_timestamp(req),
        Action::ToggleForm => return toggle_form(req),
        Action::Format => return reformat_body(req, true),
        Action::Minify => return reformat_body(req, false),
        Action::EditExternally => {
            return vec![RequestEffect::EditBody(req.body.text().to_string())]
        }
        // The Response panel when it is shown and the cursor is not in the body; else the body.
        Action::Search => {
            let within = if req.detail == Detail::Response
                && req.response.is_some()
                && (req.normal_mode || req.focus != Field::Body)
            {
                SearchIn::Response
            } else {
                req.focus = Field::Body;
                req.normal_mode = false;
                SearchIn::Body
            };
            req.prompt = Some(Prompt::Search(within, Default::default()));
        }
        Action::ShowSent => show_sent(req),
        Action::ShowProblems => return super::body_pane::show_problems(req),
        Action::RevealKey => req.key_info.revealed = !req.key_info.revealed,
        Action::CopySignature => return copy_signature(req),
        Action::CopyHeaders => return copy_headers(req),
        Action::CopyCurl => return copy_curl(req),
        Action::CopyBody => return copy_body(req),
        Action::CopyCanonical => return copy_canonical(req),
        Action::CopyResponse => return copy_response(req),
        Action::CopySuite => return copy_suite_entry(req),
        Action::NextDetail => cycle_detail(req),
        Action::DetailPageDown => scroll_detail(req, req.detail_page.get()),
        Action::DetailPageUp => {
            req.detail_scroll = req
                .detail_scroll
                .min(req.detail_max.get())
                .saturating_sub(req.detail_page.get())
        }
        Action::SwitchProfile => return vec![RequestEffect::ListProfiles],
        Action::Save => return save_current(req, profile),
        Action::SaveAs => {
            req.prompt = Some(Prompt::SaveAs(LineInput::new(profile.name.clone())));
        }
        Action::Edit => req.normal_mode = false,
        Action::ScrollCanonicalDown => {
            req.canon_scroll = req.canon_scroll.saturating_add(1).min(req.canon_max.get())
        }
        Action::ScrollCanonicalUp => {
            req.canon_scroll = req.canon_scroll.min(req.canon_max.get()).saturating_sub(1)
        }
        Action::CanonicalTop => req.canon_scroll = 0,
        Action::CanonicalEnd => req.canon_scroll = req.canon_max.get(),
        Action::ScrollDetailDown => scroll_detail(req, 1),
        Action::ScrollDetailUp => req.detail_scroll = req.detail_scroll.saturating_sub(1),
        Action::NextRequest | Action::PrevRequest => {
            let delta = if action == Action::NextRequest { 1 } else { -1 };
            let changed = requests::step(req, delta);
            return resign_if(req, changed);
        }
        Action::AddRequest => requests::ask_name(req, NameAction::Add),
        Action::DuplicateRequest => requests::ask_name(req, NameAction::Duplicate),
        Action::RenameRequest => requests::ask_name(req, NameAction::Rename),
        Action::DeleteRequest => requests::ask_delete(req),
        Action::MoveRequestUp => requests::move_selected(req, -1),
        Action::MoveRequestDown => requests::move_selected(req, 1),
    }
    vec![]
}

/// Keys that edit the focused field: the body's editor, or the one-line field's.
fn field_key(req: &mut RequestState, key: KeyEvent) -> Vec<RequestEffect> {
    if req.focus == Field::Body {
        super::body_pane::key(req, key)
    } else {
        super::fields_pane::key(req, key)
    }
}

/// The mouse over the request view (`screen` is the whole terminal).
pub(super) fn on_mouse(req: &mut RequestState, m: MouseEvent, screen: Rect) -> Vec<RequestEffect> {
    let l = request_layout(screen);
    let pos = Position::new(m.column, m.row);
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            for (field, rect) in &l.fields {
                if rect.contains(pos) {
                    req.focus = *field;
                    req.normal_mode = false;
                    if *field == Field::Body {
                        // Put the cursor where the click was (inside the block's border).
                        let (dy, dx) = (
                            m.row.saturating_sub(rect.y + 1),
                            m.column.saturating_sub(rect.x + 1),
                        );
                        req.body.click(dy as usize, dx as usize);
                    }
                    return vec![];
                }
            }
            if l.detail.contains(pos) {
                cycle_detail_if_title(req, &l, pos);
            }
            vec![]
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let down = m.kind == MouseEventKind::ScrollDown;
            let step = |v: usize| {
                if down {
                    v.saturating_add(3)
                } else {
                    v.saturating_sub(3)
                }
            };
            if l.canonical.contains(pos) {
                req.canon_scroll = step(req.canon_scroll);
            } else if l.detail.contains(pos) {
                req.detail_scroll = step(req.detail_scroll).min(req.detail_max.get());
            } else if l.body.contains(pos) {
                let input = ratatui_textarea::Input::from(m);
                req.body.input(input);
            }
            vec![]
        }
        _ => vec![],
    }
}

/// Save under the current name; the built-in demo profile can only be saved as a new name. A
/// typed REST key asks first where it goes (`key_choice.rs`).
pub fn save_current(req: &mut RequestState, profile: &CurrentProfile) -> Vec<RequestEffect> {
    if profile.is_demo {
        req.status = "the demo profile is built in: save it under a new name".into();
        req.prompt = Some(Prompt::SaveAs(LineInput::default()));
        return vec![];
    }
    key_choice::save_or_ask(req, profile.name.clone(), false)
}
