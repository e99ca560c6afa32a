//! The fields pane: the one-line fields of the request (method, path, query, the headers' values,
//! the timestamp, the REST key, the URL) in the box whose title lists the profile's saved
//! requests; each value with its remark (the key's source, a live or frozen timestamp, what the
//! send would refuse), and the keys that edit them.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::layout::RequestLayout;
use super::message::RequestEffect;
use super::sign::resign;
use super::state::{Field, RequestState, METHODS, TYPED_KEY};
use crate::core::visible::escape_visible;
use crate::tui::theme::Theme;
use crate::tui::widgets::pane;
use crate::tui::widgets::text::{clip_marked, fit_title};
use crate::tui::widgets::Edit;

/// A key for the focused one-line field: Enter and the arrows move between fields (Up and Down
/// step the method through [`METHODS`] on its field), any other key edits the value.
pub(super) fn key(req: &mut RequestState, key: KeyEvent) -> Vec<RequestEffect> {
    let focus = req.focus;
    if key.code == KeyCode::Enter {
        req.focus = focus.next();
        return vec![];
    }
    if focus == Field::Method && matches!(key.code, KeyCode::Up | KeyCode::Down) {
        let cur = METHODS
            .iter()
            .position(|m| m.eq_ignore_ascii_case(req.method.text()));
        let n = METHODS.len();
        let next = match (cur, key.code) {
            (Some(i), KeyCode::Down) => (i + 1) % n,
            (Some(i), _) => (i + n - 1) % n,
            (None, _) => 0,
        };
        req.method.set(METHODS[next]);
        req.dirty = true;
        return resign(req);
    }
    if matches!(key.code, KeyCode::Up) {
        req.focus = focus.prev();
        return vec![];
    }
    if matches!(key.code, KeyCode::Down) {
        req.focus = focus.next();
        return vec![];
    }
    let changed = req
        .line_edit_mut(focus)
        .is_some_and(|edit| edit.edit(&key) == Edit::Changed);
    if !changed {
        return vec![];
    }
    field_changed(req, focus)
}

pub(super) fn draw_fields(
    frame: &mut Frame,
    l: &RequestLayout,
    req: &RequestState,
    theme: &Theme,
    cursor_shown: bool,
) {
    let editing = !req.normal_mode;
    draw_fields_block(frame, l, req, theme);
    for (field, rect) in &l.fields {
        if *field == Field::Body {
            continue;
        }
        let Some(edit) = req.line_edit(*field) else {
            continue;
        };
        let focused = req.focus == *field && editing;
        let label_style = if req.focus == *field {
            theme.focus_label()
        } else {
            theme.label()
        };
        let value_w = (rect.width as usize).saturating_sub(11);
        let (shown, extra) = field_shown(req, *field, edit.text());
        let extra_style = if extra.contains('⚠') {
            theme.warn()
        } else {
            theme.dim()
        };
        let cursor = edit.cursor();
        let (value, skip) = scrolled_value(&shown, value_w, focused.then_some(cursor));
        let room = value_w.saturating_sub(value.chars().count());
        // The timestamp's `live` / `frozen` goes whole or not at all: a `…` after a whole
        // timestamp reads as a cut timestamp (the bottom border says which it is anyway).
        let extra = if *field == Field::Timestamp && extra.chars().count() > room {
            String::new()
        } else {
            clip_marked(&extra, room)
        };
        let line = Line::from(vec![
            Span::styled(format!("{:<10}", field.label()), label_style),
            Span::raw(" "),
            Span::raw(value.clone()),
            Span::styled(extra, extra_style),
        ]);
        frame.render_widget(Paragraph::new(line), *rect);
        let masked = *field == Field::RestKey && !req.key_info.revealed;
        if focused && !masked && cursor_shown {
            let x = rect.x + 11 + (cursor - skip) as u16;
            if x < rect.x + rect.width {
                frame.set_cursor_position((x, rect.y));
            }
        }
    }
}

/// The fields' box: the profile's saved requests in its title, the edited one in brackets
/// (Alt-Up / Alt-Down switch), and whether the timestamp is live or frozen at its bottom.
fn draw_fields_block(frame: &mut Frame, l: &RequestLayout, req: &RequestState, theme: &Theme) {
    let editing = !req.normal_mode;
    let toggle = super::keys::KEYS.label_of(super::keys::Action::ToggleTimestamp);
    let ts = if req.ts_live {
        Span::styled(format!(" timestamp live · {toggle} freeze "), theme.dim())
    } else {
        Span::styled(format!(" timestamp frozen · {toggle} live "), theme.warn())
    };
    let mut title = vec![Span::styled(" Request ", theme.title())];
    if req.requests.entries.len() > 1
        || req.requests.selected_name() != crate::store::DEFAULT_REQUEST
    {
        let width = (l.fields_block.width as usize).saturating_sub(12);
        for (name, selected) in super::requests::title_names(req, width) {
            let style = if selected {
                theme.focus_label()
            } else {
                theme.dim()
            };
            title.push(Span::styled(name, style));
            title.push(Span::raw(" "));
        }
    }
    let w = l.fields_block.width;
    let b = pane(
        fit_title(Line::from(title), w),
        req.focus != Field::Body && editing,
        theme,
    )
    .title_bottom(fit_title(Line::from(ts), w));
    frame.render_widget(b, l.fields_block);
}

/// A field's value as shown (the REST key masked unless revealed) and the remark beside it: the
/// key's source, the timestamp's state, or a warning of what the send would refuse or change.
fn field_shown(req: &RequestState, field: Field, text: &str) -> (String, String) {
    match field {
        // A fixed-width mask: not even the key's length shows.
        Field::RestKey if !req.key_info.revealed => (
            if text.is_empty() {
                String::new()
            } else {
                "•".repeat(8)
            },
            format!("  [{}]", req.key_info.source),
        ),
        Field::RestKey => (text.to_string(), format!("  [{}]", req.key_info.source)),
        Field::Timestamp => (
            text.to_string(),
            if req.ts_live {
                "  live".into()
            } else {
                "  frozen".into()
            },
        ),
        Field::Method => (text.to_string(), "  ↑↓".into()),
        // One leading '?' is the URL's separator, not part of the query (`docs/signing.md`
        // rule S4): every view, copy and the send leave it out; say so beside it.
        Field::Query if text.starts_with('?') => (text.to_string(), "  ⚠ '?' left out".into()),
        // A path or query the URL parser would re-encode is refused at the send (the bytes
        // signed would not be the bytes sent): say so beside it, before the send.
        Field::Query | Field::Path
            if req.refused_part()
                == Some(if field == Field::Query {
                    "query"
                } else {
                    "path"
                }) =>
        {
            (text.to_string(), "  ⚠ %-encode".into())
        }
        // A header value with a space or tab at an edge is refused at the send (HTTP drops
        // it in transit, so the server would check another value: `docs/signing.md` S13):
        // say so beside the field, before the send.
        Field::ApiKey | Field::ContentType | Field::AuthAlgo
            if text.starts_with([' ', '\t']) || text.ends_with([' ', '\t']) =>
        {
            (text.to_string(), "  ⚠ space".into())
        }
        _ => (text.to_string(), String::new()),
    }
}

/// The value made visible in `value_w` columns, scrolled to keep the cursor (when focused) in
/// view, and how many characters the scroll skips: `›` / `‹` say it goes on (never over the
/// cursor).
fn scrolled_value(shown: &str, value_w: usize, cursor: Option<usize>) -> (String, usize) {
    let visible = escape_visible(shown.as_bytes());
    let skip = match cursor {
        Some(c) if c >= value_w => c + 1 - value_w,
        _ => 0,
    };
    let mut value: Vec<char> = visible.chars().skip(skip).take(value_w).collect();
    let cursor_col = cursor.map(|c| c - skip);
    if visible.chars().count() > skip + value_w && value_w > 1 && cursor_col != Some(value_w - 1) {
        value[value_w - 1] = '›';
    }
    if skip > 0 && !value.is_empty() && cursor_col != Some(0) {
        value[0] = '‹';
    }
    (value.into_iter().collect(), skip)
}

/// After a one-line field changed: freeze the timestamp if typed, track the key, re-sign.
pub(super) fn field_changed(req: &mut RequestState, focus: Field) -> Vec<RequestEffect> {
    match focus {
        Field::Timestamp => req.ts_live = false,
        Field::RestKey => {
            // Back to the profile's key (Ctrl-Z, or typed again): the profile's label, and
            // nothing to save. A typed key is not an edit of the profile: saving asks where it
            // goes (`key_choice.rs`), and `unsaved` counts it.
            let text = req.rest_key.text();
            let pk = &req.profile_key;
            if text == pk.secret.expose() && req.key_resolving.is_none() {
                req.key_info.source = pk.source.clone();
                req.key_error = pk.error.clone();
            } else {
                req.key_info.source = TYPED_KEY.into();
                // The sentence about the source's failure is no longer true of the key used.
                if req.key_error.take().is_some() {
                    req.status = "signing with the typed REST key (not saved)".into();
                }
            }
        }
        _ => {}
    }
    if !matches!(focus, Field::Timestamp | Field::RestKey) {
        req.dirty = true;
    }
    if focus == Field::Url {
        return vec![];
    }
    resign(req)
}
