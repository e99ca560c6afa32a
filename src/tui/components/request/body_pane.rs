//! The body pane: the body editor, its JSON check on the bottom border, and what changes the
//! body (its keys and the clipboard's, a format or minify, the external editor's answer); every
//! change re-signs from the first changed byte.

use crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

use super::labels::block;
use super::message::RequestEffect;
use super::sign::resign;
use super::state::{Field, RequestState};
use crate::tui::theme::Theme;
use crate::tui::widgets::text::fit_title;

/// A key for the body's editor: the clipboard's keys on the selection first.
pub(super) fn key(req: &mut RequestState, key: KeyEvent) -> Vec<RequestEffect> {
    use super::clipboard::{body_key, SelectionKey};
    let cut = match body_key(req, &key) {
        SelectionKey::Copied(effects) => return effects,
        SelectionKey::Cut(copy) => Some(copy),
        SelectionKey::Other => None,
    };
    let input = ratatui_textarea::Input::from(key);
    let changed = req.body.input(input);
    let mut effects = body_changed(req, changed);
    effects.extend(cut);
    effects
}

pub(super) fn draw_body(
    frame: &mut Frame,
    area: Rect,
    req: &RequestState,
    theme: &Theme,
    cursor: bool,
) {
    let focused = req.focus == Field::Body && !req.normal_mode;
    let len = req.body.len();
    let mut title = vec![Span::styled(format!(" Body ({len} bytes) "), theme.title())];
    let bottom = match &req.body_state.json_error {
        Some(e) => Line::from(Span::styled(format!(" ⚠ {e} "), theme.warn())),
        None if req.body_state.json_rev == req.body_state.rev && len > 0 => {
            Line::from(Span::styled(" JSON ✓ ", theme.ok()))
        }
        None => Line::from(""),
    };
    if focused {
        title.push(Span::styled(
            format!(
                "{} find ",
                super::keys::KEYS.label_of(super::keys::Action::Search)
            ),
            theme.dim(),
        ));
    }
    let b = block(fit_title(Line::from(title), area.width), focused, theme)
        .title_bottom(fit_title(bottom, area.width));
    let inner = b.inner(area);
    frame.render_widget(b, area);
    frame.render_widget(req.body.textarea(), inner);
    // The body scrolls horizontally with the cursor (a wrap would hide where a line ends).
    crate::tui::widgets::text::mark_long_lines(frame, inner, req.body.textarea(), theme.dim());
    if focused && cursor {
        // The textarea draws its own cursor cell; also place the terminal cursor there.
        let c = req.body.textarea().screen_cursor();
        let (top, left) = req.body.textarea().scroll_offset();
        let y = inner.y + (c.row as u16).saturating_sub(top);
        let x = inner.x + (c.col as u16).saturating_sub(left);
        if y < inner.y + inner.height && x < inner.x + inner.width {
            frame.set_cursor_position((x, y));
        }
    }
}

/// After an edit of the body: `changed` is the first changed byte (None: nothing changed).
pub fn body_changed(req: &mut RequestState, changed: Option<usize>) -> Vec<RequestEffect> {
    let Some(at) = changed else {
        return vec![];
    };
    req.body_changed_at(at);
    req.dirty = true;
    resign(req)
}

/// Format (pretty) or minify the body as JSON. Invalid JSON is left alone with a status line.
pub(super) fn reformat_body(req: &mut RequestState, pretty: bool) -> Vec<RequestEffect> {
    let value: serde_json::Value = match serde_json::from_slice(req.body.bytes()) {
        Ok(v) => v,
        Err(e) => {
            req.status = format!(
                "cannot {} the body: not valid JSON at line {} column {}",
                if pretty { "format" } else { "minify" },
                e.line(),
                e.column()
            );
            return vec![];
        }
    };
    let text = match if pretty {
        serde_json::to_string_pretty(&value)
    } else {
        serde_json::to_string(&value)
    } {
        Ok(t) => t,
        Err(e) => {
            req.status = format!("cannot write the body back as JSON: {e}");
            return vec![];
        }
    };
    let changed = req.body.set_text(&text);
    req.status = if pretty {
        "body formatted"
    } else {
        "body minified"
    }
    .into();
    body_changed(req, changed)
}

/// The external editor returned.
pub(super) fn on_editor_done(
    req: &mut RequestState,
    result: Result<String, String>,
) -> Vec<RequestEffect> {
    match result {
        Ok(text) => {
            let changed = req.body.set_text(&text);
            req.status = match changed {
                Some(_) => "body read back from the editor",
                None => "the editor left the body unchanged",
            }
            .into();
            body_changed(req, changed)
        }
        Err(e) => {
            req.status = e;
            vec![]
        }
    }
}

/// The JSON check of body revision `rev`.
pub(super) fn on_json_checked(req: &mut RequestState, rev: u64, error: Option<String>) {
    if rev >= req.body_state.json_rev {
        req.body_state.json_rev = rev;
        req.body_state.json_error = error;
    }
}
