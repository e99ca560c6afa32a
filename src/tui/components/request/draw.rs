//! The request view's draw: its panes where `layout.rs` places them (the fields and the body,
//! the signing text, the detail tabs, the signature line; each pane's draw in its own file),
//! and the open prompt over them.

use ratatui::layout::Rect;
use ratatui::Frame;

use super::body_pane::draw_body;
use super::canonical_pane::draw_canonical;
use super::detail_pane::draw_detail;
use super::fields_pane::draw_fields;
use super::layout::request_layout;
use super::signature_line::draw_signature;
use super::state::{Prompt, RequestState, SearchIn};
use crate::tui::theme::Theme;
use crate::tui::widgets::prompt::{self, PromptText};
use crate::tui::widgets::search;

/// Draw the request view on the whole `screen`; `cursor`: whether it may place the terminal
/// cursor (not while a popup covers it).
pub fn draw(frame: &mut Frame, screen: Rect, req: &RequestState, theme: &Theme, cursor: bool) {
    let l = request_layout(screen);
    draw_fields(frame, &l, req, theme, cursor);
    draw_body(frame, l.body, req, theme, cursor);
    draw_canonical(frame, l.canonical, req, theme);
    draw_detail(frame, l.detail, req, theme);
    draw_signature(frame, l.signature, req, theme);
    draw_prompt(frame, screen, req, theme);
}

/// The open prompt (save as, search), over the view.
fn draw_prompt(frame: &mut Frame, screen: Rect, req: &RequestState, theme: &Theme) {
    let (text, edit) = match &req.prompt {
        None => return,
        Some(Prompt::SaveAs(edit)) => (
            PromptText {
                title: " Save profile as ",
                lead: "name: ",
                hint: "Enter save · Esc cancel",
                width: 44,
            },
            edit,
        ),
        Some(Prompt::Search(within, b)) => {
            let title = match within {
                SearchIn::Body => " Search body (regex) ",
                SearchIn::Response if req.show_sent => " Search the request as sent (regex) ",
                SearchIn::Response => " Search response (regex) ",
            };
            // Where the current match is, before the keys (the keys go first when cut).
            let count = search::counter(b);
            let hint = if count.is_empty() {
                "Enter/Down next · Up previous · Esc close".to_string()
            } else {
                format!("{count} · Enter/Down next · Up previous · Esc close")
            };
            let text = PromptText {
                title,
                lead: "/",
                hint: &hint,
                width: 58,
            };
            prompt::draw(frame, screen, &text, &b.input, theme);
            return;
        }
        Some(Prompt::RequestName { action, edit }) => (
            PromptText {
                title: action.title(),
                lead: "name: ",
                hint: "Enter apply · Esc cancel",
                width: 50,
            },
            edit,
        ),
        Some(Prompt::KeyChoice(_)) => {
            super::key_choice::draw(frame, screen, req, theme);
            return;
        }
        Some(Prompt::DeleteRequest) => {
            let edit = crate::tui::widgets::LineInput::default();
            let text = PromptText {
                title: " Delete the request? ",
                lead: "y deletes, any other key keeps it: ",
                hint: "Ctrl-S then saves the profile without it",
                width: 50,
            };
            prompt::draw(frame, screen, &text, &edit, theme);
            return;
        }
    };
    prompt::draw(frame, screen, &text, edit, theme);
}
