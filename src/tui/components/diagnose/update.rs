//! The diagnose view's pure transition: keys, mouse, pastes and the runtime's answers.

use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::capture;
use super::draw::{layout, report_max_scroll};
use super::keys::{Action, KEYS};
use super::message::{DiagnoseEffect, DiagnoseMsg};
use super::state::{DiagKey, DiagnoseState};
use crate::tui::keymap;
use crate::tui::widgets::wheel;

/// Handle one message of the diagnose view; pure (no I/O).
pub fn update(d: &mut DiagnoseState, msg: DiagnoseMsg) -> Vec<DiagnoseEffect> {
    match msg {
        DiagnoseMsg::Key(key, main) => on_key(d, key, main),
        DiagnoseMsg::Mouse(m, main) => {
            on_mouse(d, m, main);
            vec![]
        }
        DiagnoseMsg::Paste(text) => {
            on_paste(d, &text);
            vec![]
        }
        DiagnoseMsg::Run(action) => run(d, action),
        DiagnoseMsg::Open(capture) => {
            d.input.set_text(&capture);
            d.on_client_text = false;
            d.normal_mode = false;
            run(d, Action::Diagnose)
        }
        DiagnoseMsg::Diagnosed { ok, lines } => {
            on_diagnosed(d, ok, lines);
            vec![]
        }
        DiagnoseMsg::BodyFile { file, result } => on_body_file(d, file, result),
    }
}

/// A paste goes into the box shown (the capture, or the client's signing text), line ends and
/// all.
fn on_paste(d: &mut DiagnoseState, text: &str) {
    let _ = d.shown_mut().insert_str(text);
}

/// The verdict of a capture: accepted or not, and the report lines.
fn on_diagnosed(d: &mut DiagnoseState, ok: bool, lines: Vec<String>) {
    d.ok = Some(ok);
    d.report = lines;
    d.report_scroll = 0;
}

/// The diagnose view: a click in the captured request focuses it (leaves normal mode); the
/// wheel scrolls the box under the pointer.
fn on_mouse(d: &mut DiagnoseState, m: MouseEvent, main: Rect) {
    let l = layout(main);
    let pos = Position::new(m.column, m.row);
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) if l.input.contains(pos) => {
            d.normal_mode = false;
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp if l.report.contains(pos) => {
            d.report_scroll = wheel(d.report_scroll, m.kind, report_max_scroll(d, l.report));
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp if l.input.contains(pos) => {
            let _ = d.shown_mut().input(ratatui_textarea::Input::from(m));
        }
        _ => {}
    }
}

/// The verdict has the focus (Tab or Esc from the capture): the arrows, PageUp / PageDown and
/// Home / End scroll it; `i`, Enter and Tab go back to typing in the capture.
fn report_key(d: &mut DiagnoseState, key: KeyEvent, main: Rect) {
    let report = layout(main).report;
    let page = report.height.saturating_sub(3).max(1);
    let max = report_max_scroll(d, report);
    let s = d.report_scroll.min(max);
    d.report_scroll = match key.code {
        KeyCode::Down | KeyCode::Char('j') => s.saturating_add(1),
        KeyCode::Up | KeyCode::Char('k') => s.saturating_sub(1),
        KeyCode::PageDown | KeyCode::Char(' ') => s.saturating_add(page),
        KeyCode::PageUp => s.saturating_sub(page),
        KeyCode::Home | KeyCode::Char('g') => 0,
        KeyCode::End | KeyCode::Char('G') => max,
        KeyCode::Char('i') | KeyCode::Enter | KeyCode::Tab | KeyCode::BackTab => {
            d.normal_mode = false;
            s
        }
        _ => s,
    }
    .min(max);
}

/// Keys of the diagnose view.
fn on_key(d: &mut DiagnoseState, key: KeyEvent, main: Rect) -> Vec<DiagnoseEffect> {
    // The question "load body from FILE? y/n" takes the next key.
    if let Some((file, then)) = d.offer.take() {
        match key.code {
            KeyCode::Char('y') | KeyCode::Char('Y') => {
                d.report = vec![format!("reading the body file {file}…")];
                d.reading = Some((file.clone(), then));
                return vec![DiagnoseEffect::ReadBody { file }];
            }
            KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => {
                d.report = vec![format!(
                    "the body file {file} was not loaded, so nothing was verified (the body \
                     would be empty); Ctrl-G asks again"
                )];
                return vec![];
            }
            _ => {
                d.offer = Some((file, then));
                return vec![];
            }
        }
    }
    if let Some(action) = KEYS.lookup(&key) {
        return run(d, action);
    }
    // Normal mode (the request view's model): the keys scroll the verdict; `i` or Enter goes
    // back to typing, Esc stays.
    if d.normal_mode {
        report_key(d, key, main);
        return vec![];
    }
    // Esc: normal mode, as in the request view; Tab moves the focus to the verdict (the one
    // focus key of every view).
    if matches!(key.code, KeyCode::Esc | KeyCode::Tab | KeyCode::BackTab) {
        d.normal_mode = true;
        return vec![];
    }
    let _ = d.shown_mut().input(ratatui_textarea::Input::from(key));
    vec![]
}

/// Run one action of the diagnose view (from its key or from the command palette).
fn run(d: &mut DiagnoseState, action: Action) -> Vec<DiagnoseEffect> {
    // A curl command that reads its body from a file: offer to load it first.
    let body = match action {
        Action::Diagnose | Action::LoadIntoEditor => match body_file_or_offer(d, action) {
            Ok(body) => body,
            Err(()) => return vec![],
        },
        Action::ToggleKey
        | Action::ToggleClientText
        | Action::Clear
        | Action::SwitchProfile
        | Action::OwnTime => None,
    };
    match action {
        Action::Diagnose => {
            vec![DiagnoseEffect::Diagnose {
                text: d.input.text().to_string(),
                body,
                client_text: d.client_text(),
                key: d.key,
                own_time: d.own_time,
            }]
        }
        Action::ToggleKey => {
            d.key = match d.key {
                DiagKey::Profile => DiagKey::Demo,
                DiagKey::Demo => DiagKey::Profile,
            };
            // A verdict judged with the other key does not stand under this one's title: it
            // stays readable, marked as the other key's, until the next diagnosis.
            if d.ok.take().is_some() {
                d.report.insert(
                    0,
                    format!(
                        "The key changed: what follows was judged with the other key; {} judges \
                         again with this one.",
                        super::keys::KEYS.label_of(super::keys::Action::Diagnose)
                    ),
                );
                d.report_scroll = 0;
            }
            vec![]
        }
        Action::ToggleClientText => {
            d.on_client_text = !d.on_client_text;
            d.normal_mode = false;
            vec![]
        }
        Action::Clear => {
            let what = if d.on_client_text {
                "the client's signing text"
            } else {
                "the capture"
            };
            // One edit of the editor: Ctrl-Z brings the text back.
            let _ = d.shown_mut().set_text("");
            d.normal_mode = false;
            vec![DiagnoseEffect::Status(format!(
                "cleared {what} ({} brings it back)",
                keymap::TEXT_KEYS.label_of(keymap::TextAction::Undo)
            ))]
        }
        Action::LoadIntoEditor => vec![DiagnoseEffect::ParseCapture {
            text: d.input.text().to_string(),
            body,
        }],
        Action::SwitchProfile => vec![DiagnoseEffect::ListProfiles],
        Action::OwnTime => {
            d.own_time = !d.own_time;
            let when = if d.own_time {
                "at the capture's own time (its timestamp header), as verify --now does"
            } else {
                "at the current time"
            };
            vec![DiagnoseEffect::Status(format!(
                "the capture is judged {when}; {} judges it",
                super::keys::KEYS.label_of(Action::Diagnose)
            ))]
        }
    }
}

/// The loaded body file of the pasted curl command (None when it names none); Err when the
/// view asks "load body from FILE? y/n" first (or the command reads stdin, which cannot be).
fn body_file_or_offer(d: &mut DiagnoseState, action: Action) -> Result<Option<bytes::Bytes>, ()> {
    let Some(file) = capture::curl_body_file(d.input.text()) else {
        return Ok(None);
    };
    if let Some((_, bytes)) = d.body_file.as_ref().filter(|(f, _)| *f == file) {
        return Ok(Some(bytes.clone()));
    }
    d.ok = None;
    d.report_scroll = 0;
    if file == "-" {
        d.report = vec![
            "the curl command reads its body from stdin (@-): put the body in the command \
             (--data-binary '...') and press Ctrl-G again"
                .to_string(),
        ];
        return Err(());
    }
    d.report = vec![
        format!("The curl command reads its body from the file {file}."),
        format!("load body from {file}? y/n (a relative path is read from the working directory)"),
    ];
    d.offer = Some((file, action));
    Err(())
}

/// The body file asked for was read (or why not): run the action that waited for it.
fn on_body_file(
    d: &mut DiagnoseState,
    file: String,
    result: Result<Vec<u8>, String>,
) -> Vec<DiagnoseEffect> {
    let Some((want, then)) = d.reading.take() else {
        return vec![];
    };
    if want != file {
        d.reading = Some((want, then));
        return vec![];
    }
    match result {
        Ok(bytes) => {
            d.body_file = Some((file, bytes.into()));
            run(d, then)
        }
        Err(why) => {
            d.ok = None;
            d.report = vec![why];
            vec![]
        }
    }
}
