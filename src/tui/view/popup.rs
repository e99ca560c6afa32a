//! The router's popups: help, quit confirmation, profile switch. (The request view draws its
//! own prompts.)

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use crate::tui::app::{App, Popup};
use crate::tui::layout::View;
use crate::tui::theme::Theme;
use crate::tui::widgets::prompt::centered;

/// Keys that work in every view.
pub const GLOBAL_KEYS: &[(&str, &str)] = &[
    (
        "F1 / Alt-1 / ?",
        "this help (? only when no text field has focus)",
    ),
    (
        "F2..F6 / Alt-2..Alt-6",
        "Request, Events, History, Profiles, Diagnose views",
    ),
    (
        "Ctrl-C / Ctrl-Q",
        "quit (asks only when there are unsaved edits)",
    ),
    ("q", "quit, when no text field has focus (press Esc first)"),
    ("Click a tab", "switch to that view (mouse)"),
];

/// Keys of the request view.
pub const REQUEST_KEYS: &[(&str, &str)] = &[
    (
        "Tab / Shift-Tab",
        "next / previous field (Up/Down too, outside the body)",
    ),
    ("Up / Down on Method", "cycle GET, POST, PUT, PATCH, DELETE"),
    (
        "Ctrl-G / F9",
        "send the request (signed again at send time)",
    ),
    (
        "Ctrl-T",
        "freeze the timestamp / make it live again (typing in it freezes it)",
    ),
    (
        "F7 / F8",
        "format / minify the body as JSON (changes the signature)",
    ),
    ("Ctrl-O", "edit the body in $EDITOR"),
    (
        "Ctrl-F",
        "search the body (Enter/Down next, Up previous, Esc close)",
    ),
    (
        "Ctrl-U / Ctrl-R",
        "undo / redo in the body; in a one-line field Ctrl-U clears to its start (Ctrl-R on REST key: reveal)",
    ),
    (
        "Shift-arrows",
        "select in the body; Ctrl-X cuts, Ctrl-Y pastes",
    ),
    ("Alt-< / Alt->", "top / end of the body"),
    ("Alt-R", "reveal / mask the REST key"),
    (
        "Alt-Y / Alt-H / Alt-C",
        "copy signature / headers / request as curl",
    ),
    (
        "Ctrl-P",
        "next detail panel: Pipeline, Headers, Response, Diff",
    ),
    ("PageUp / PageDown", "scroll the detail panel"),
    ("Ctrl-L", "switch profile (popup list)"),
    ("Ctrl-S / Alt-S", "save the profile / save as a new name"),
    ("Esc", "leave the field: single-key shortcuts below"),
    ("s y H c", "(after Esc) send, copy signature, headers, curl"),
    (
        "f m t e",
        "(after Esc) format, minify, toggle timestamp, $EDITOR",
    ),
    ("p w W r", "(after Esc) profiles, save, save as, reveal key"),
    (
        "j k / J K / d",
        "(after Esc) scroll canonical / detail, next detail panel",
    ),
    ("i / Enter", "(after Esc) back to editing"),
    (
        "Mouse",
        "click a field to focus it; wheel scrolls the panel under it",
    ),
];

/// Keys of the diagnose view.
pub const DIAGNOSE_KEYS: &[(&str, &str)] = &[
    (
        "(type / paste)",
        "a raw HTTP request or a curl command line",
    ),
    ("Ctrl-G / F9", "verify and diagnose it"),
    (
        "Alt-K",
        "key source: the profile's REST key or the demo key",
    ),
    ("Alt-L", "load the captured request into the request editor"),
    (
        "Mouse",
        "click the capture to type in it; wheel scrolls the box under it",
    ),
];

/// The bindings listed by the help popup of a view.
pub fn bindings(app: &App) -> Vec<(&'static str, &'static str)> {
    let mut v: Vec<(&str, &str)> = GLOBAL_KEYS.to_vec();
    match app.view {
        View::Request => v.extend_from_slice(REQUEST_KEYS),
        View::Diagnose => v.extend_from_slice(DIAGNOSE_KEYS),
        View::Events => v.extend(app.events.help()),
        View::History => v.extend(app.history.help()),
        View::Profiles => v.extend(app.profiles.help()),
    }
    v
}

/// Rows of the help popup's text: the bindings and the closing line.
fn help_rows(app: &App) -> u16 {
    bindings(app).len() as u16 + 1
}

/// How far the help popup scrolls: the rows that do not fit the terminal (inside the border).
pub fn help_max_scroll(app: &App) -> u16 {
    help_rows(app).saturating_sub(app.size.1.saturating_sub(2))
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let Some(popup) = &app.popup else { return };
    let mut scroll = 0;
    let mut hint = None;
    let (title, lines, w, h): (String, Vec<Line>, u16, u16) = match popup {
        Popup::Help { scroll: s } => {
            let max = help_max_scroll(app);
            scroll = (*s).min(max);
            if max > 0 {
                hint = Some(format!(" ↑↓ PgUp PgDn scroll ({}/{max}) ", scroll));
            }
            let b = bindings(app);
            let key_w = b.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(10);
            let lines: Vec<Line> = b
                .iter()
                .map(|(k, d)| {
                    Line::from(vec![
                        Span::styled(format!("{k:<key_w$}  "), theme.label()),
                        Span::raw(*d),
                    ])
                })
                .chain(std::iter::once(Line::from(Span::styled(
                    if max > 0 {
                        "any other key closes this help"
                    } else {
                        "any key closes this help"
                    },
                    theme.dim(),
                ))))
                .collect();
            let h = lines.len() as u16 + 2;
            (format!(" Help: {} view ", app.view.title()), lines, 100, h)
        }
        Popup::ConfirmQuit => (
            " Quit? ".into(),
            vec![
                Line::from("There are unsaved edits to this profile."),
                Line::from("y / Enter: quit without saving"),
                Line::from("s: save, then quit"),
                Line::from("any other key: stay"),
            ],
            46,
            6,
        ),
        Popup::Profiles { names, selected } => {
            let mut lines: Vec<Line> = names
                .iter()
                .enumerate()
                .map(|(i, n)| {
                    if i == *selected {
                        Line::from(Span::styled(format!("> {n}"), theme.active_tab()))
                    } else {
                        Line::from(format!("  {n}"))
                    }
                })
                .collect();
            if lines.is_empty() {
                lines.push(Line::from(Span::styled(
                    "no saved profiles yet",
                    theme.dim(),
                )));
            }
            lines.push(Line::from(Span::styled(
                "Enter load · Esc close",
                theme.dim(),
            )));
            let h = lines.len() as u16 + 2;
            (" Switch profile ".into(), lines, 40, h)
        }
    };
    let rect = centered(area, w, h);
    frame.render_widget(Clear, rect);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.focus_border())
        .title(Span::styled(title, theme.title()));
    if let Some(hint) = hint {
        block = block.title_bottom(Span::styled(hint, theme.dim()));
    }
    frame.render_widget(Paragraph::new(lines).block(block).scroll((scroll, 0)), rect);
}
