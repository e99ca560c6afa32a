//! The body pane: the body editor, its JSON check and what the vendor's SDK would refuse in it
//! (`docs/indexing-bodies.md`, judged off the draw path) on the bottom border, the list of those
//! problems (Alt-H) and Enter to one's place, and what changes the body (its keys and the clipboard's, a format or minify,
//! the external editor's answer); every change re-signs from the first changed byte.

use crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

use super::message::RequestEffect;
use super::sign::resign;
use super::state::{Field, RequestState};
use crate::core::indexing_body::{shown_path, BodyProblem};
use crate::core::json::pointer_offset;
use crate::core::visible::line_col;
use crate::tui::theme::Theme;
use crate::tui::widgets::pane;
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
    let problems = req
        .body_state
        .problems
        .as_deref()
        .and_then(|j| Some((j, j.problems.first()?)));
    let bottom = match (&req.body_state.json_error, problems) {
        (Some(e), _) => Line::from(Span::styled(format!(" ⚠ {e} "), theme.warn())),
        // The first problem (and how many there are), the key that goes to each.
        (None, Some((j, p))) => {
            let n = j.problems.len() + j.more_errors + j.more_warnings;
            let more = if n > 1 {
                format!(" +{}", n - 1)
            } else {
                String::new()
            };
            Line::from(Span::styled(
                format!(
                    " ⚠ {} {}{more} · {} ",
                    p.code,
                    shown_path(&p.field_path),
                    super::keys::KEYS.label_of(super::keys::Action::ShowProblems)
                ),
                theme.warn(),
            ))
        }
        (None, None) if req.body_state.json_rev == req.body_state.rev && len > 0 => {
            Line::from(Span::styled(" JSON ✓ ", theme.ok()))
        }
        (None, None) => Line::from(""),
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
    let b = pane(fit_title(Line::from(title), area.width), focused, theme)
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

/// The indexing-body judgement of body revision `rev` (it follows that revision's JSON check).
pub(super) fn on_body_judged(
    req: &mut RequestState,
    rev: u64,
    judgement: Option<Box<crate::core::indexing_body::Judgement>>,
) {
    if rev >= req.body_state.json_rev {
        req.body_state.problems = judgement;
    }
}

/// Alt-H: the list of the body's problems (a popup the router opens), or why there is none.
pub(super) fn show_problems(req: &mut RequestState) -> Vec<RequestEffect> {
    match req.body_state.problems.as_deref() {
        Some(j) if !j.problems.is_empty() => vec![RequestEffect::ShowProblems],
        Some(_) => {
            req.status = "the body has nothing the vendor's SDK would refuse".into();
            vec![]
        }
        None => {
            req.status = format!(
                "no problems to list: {} bodies are judged (docs/indexing-bodies.md)",
                JUDGED_ROUTES
            );
            vec![]
        }
    }
}

/// The routes whose bodies are judged, as the status line names them.
const JUDGED_ROUTES: &str = "PUT/PATCH /v2/batch, PUT /v2/batch/delete and PUT /v2/attributes/NAME";

/// Enter on a problem of the list: the body's cursor to its place (the value its `fieldPath`
/// names in the body as it is now, or the nearest value on the way there), the problem said
/// whole in the status line.
pub(super) fn go_to_problem(req: &mut RequestState, p: &BodyProblem) {
    let text = req.body.text();
    let offset = pointer_offset(text, &p.field_path).unwrap_or(0);
    let (line, column) = line_col(text, offset);
    req.body.move_to(offset);
    req.focus = Field::Body;
    req.normal_mode = false;
    // Where first: at 80 columns the status line has room for little after the request.
    req.status = format!(
        "line {line}, column {column}: {} at {}: {}",
        p.code,
        shown_path(&p.field_path),
        p.description
    );
}

/// The JSON check of body revision `rev`.
pub(super) fn on_json_checked(req: &mut RequestState, rev: u64, error: Option<String>) {
    if rev >= req.body_state.json_rev {
        req.body_state.json_rev = rev;
        req.body_state.json_error = error;
    }
}

#[cfg(test)]
mod tests {
    use crate::tui::components::request::{Field, RequestMsg};
    use crate::tui::message::Message;
    use crate::tui::signing::{body_judgement, SignAnswer};
    use crate::tui::test_util::TestApp;

    /// What the signing worker answers after a body's JSON check, as the runtime hands it on.
    fn judged(t: &mut TestApp) {
        let rev = t.request.body_state.rev;
        let spec = t.request.spec();
        let judgement = body_judgement(&spec).map(Box::new);
        t.update(Message::Request(RequestMsg::Signing(
            SignAnswer::JsonChecked { rev, error: None },
        )));
        t.update(Message::Request(RequestMsg::Signing(
            SignAnswer::BodyJudged { rev, judgement },
        )));
    }

    /// A record the vendor's SDK would refuse: the Body's bottom border names the problem at
    /// 80x24; Alt-H lists the problems, Enter puts the cursor on the picked one's place and says
    /// it whole, Esc closes the list and leaves the cursor; another route lists none.
    #[test]
    fn the_body_lists_its_indexing_problems_and_enter_goes_to_one() {
        use crate::tui::popups::Popup;
        use crossterm::event::KeyCode;
        let body =
            "[\n  {\"id\": 42, \"type\": \"KLEVU_PRODUCT\"},\n  {\"id\": \"b\", \"type\": \"\"}\n]";
        let mut t = TestApp::with_body(80, 24, body);
        t.sign_now();
        judged(&mut t);
        t.assert_line("⚠ ID_NOT_STRING /0/id +");
        t.assert_line("· Alt-H ");
        t.request.focus = Field::Method;
        t.alt('h');
        assert!(
            matches!(t.popup, Some(Popup::BodyProblems(_))),
            "{:?}",
            t.popup
        );
        t.assert_line("error   ID_NOT_STRING /0/id");
        t.assert_line("TYPE_REQUIRED /1/type");
        // Esc: back, nothing moved.
        t.press(KeyCode::Esc);
        assert_eq!(t.popup, None);
        assert_eq!(t.request.focus, Field::Method);
        t.alt('h');
        t.press(KeyCode::Enter);
        assert_eq!(t.popup, None);
        assert_eq!(t.request.focus, Field::Body);
        assert_eq!(t.request.body.cursor_offset(), body.find("42").unwrap());
        assert!(
            t.status
                .starts_with("line 2, column 10: ID_NOT_STRING at /0/id: "),
            "{}",
            t.status
        );
        // The empty type of the second record, picked by the filter.
        t.alt('h');
        t.press(KeyCode::Char('/'));
        t.type_str("type_required");
        t.press(KeyCode::Enter);
        t.press(KeyCode::Enter);
        assert_eq!(t.request.body.cursor_offset(), body.find("\"\"").unwrap());
        assert!(
            t.status
                .starts_with("line 3, column 23: TYPE_REQUIRED at /1/type: "),
            "{}",
            t.status
        );
        // A GET takes no indexing body: judged again for the new route, nothing to list.
        t.request.method.set("GET");
        t.sign_now();
        judged(&mut t);
        t.assert_no_line("ID_NOT_STRING");
        t.alt('h');
        assert_eq!(t.popup, None);
        assert!(
            t.status.starts_with("no problems to list: "),
            "{}",
            t.status
        );
    }
}
