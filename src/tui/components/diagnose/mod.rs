//! The diagnose view: paste a captured request (raw HTTP or curl), pick a key source, read the
//! verifier's verdict and the diagnosis (`docs/diagnosis.md`); load the capture into the request
//! view to fix it there.
//!
//! A component (see `docs/architecture.md`, "The workbench"): [`DiagnoseState`] is its state,
//! [`on_key`] / [`on_mouse`] / [`on_paste`] its update, [`draw`] its view, [`layout`] shared by
//! both. Reading and verifying a capture is [`capture`] (pure).

#[cfg(test)]
mod after_signing_tests;
#[cfg(test)]
mod body_file_tests;
pub mod capture;
#[cfg(test)]
mod prefix_tests;

use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;
use ratatui_textarea::TextArea;

use crate::core::Secret;
use crate::tui::effect::Command;
use crate::tui::keymap::{self, Binding, KeySpec, Table};
use crate::tui::theme::Theme;
use crate::tui::widgets::text::wrap_spans;

/// Which key source the diagnose view uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagKey {
    /// The REST key of the current profile.
    Profile,
    /// The demo account's key.
    Demo,
}

/// State of the diagnose view.
pub struct DiagnoseState {
    pub input: TextArea<'static>,
    /// The client's own signing text, when the user pastes it (Alt-T shows this box in the
    /// capture's place); compared byte by byte with the expected text when no known mistake
    /// explains a mismatch, as `verify --client-text` does.
    pub client_text: TextArea<'static>,
    /// The top box shows (and takes keys for) the client's signing text, not the capture.
    pub on_client_text: bool,
    pub key: DiagKey,
    /// Verdict and findings as lines (computed by a command).
    pub report: Vec<String>,
    pub ok: Option<bool>,
    /// Rows of the report scrolled off the top (mouse wheel).
    pub report_scroll: u16,
    /// Normal mode: the capture box takes no text (Esc toggles).
    pub normal_mode: bool,
    /// The body file of a pasted curl command, loaded: its name as the command writes it and
    /// its bytes (read as curl reads them when verified).
    pub body_file: Option<(String, bytes::Bytes)>,
    /// The question "load body from FILE? y/n" and the action to run once it is loaded.
    pub offer: Option<(String, Action)>,
    /// The body file being read (the runtime answers with [`on_body_file`]).
    pub reading: Option<(String, Action)>,
}

impl Default for DiagnoseState {
    fn default() -> Self {
        let mut input = TextArea::default();
        input.set_placeholder_text("Paste a raw HTTP request or a curl command, then press Ctrl-G");
        let mut client_text = TextArea::default();
        client_text.set_placeholder_text(
            "Optional: paste the text the client signed (Alt-T back to the capture), then Ctrl-G",
        );
        DiagnoseState {
            input,
            client_text,
            on_client_text: false,
            key: DiagKey::Profile,
            report: Vec::new(),
            ok: None,
            report_scroll: 0,
            normal_mode: false,
            body_file: None,
            offer: None,
            reading: None,
        }
    }
}

/// A paste goes into the box shown (the capture, or the client's signing text), line ends and
/// all.
pub fn on_paste(d: &mut DiagnoseState, text: &str) {
    d.shown_mut().insert_str(text);
}

impl DiagnoseState {
    /// The box shown at the top: the capture, or the client's signing text.
    pub fn shown_mut(&mut self) -> &mut TextArea<'static> {
        if self.on_client_text {
            &mut self.client_text
        } else {
            &mut self.input
        }
    }

    /// The client's signing text as pasted (`None` when its box is empty).
    pub fn client_text(&self) -> Option<String> {
        let text = self.client_text.lines().join("\n");
        (!text.is_empty()).then_some(text)
    }
}

/// The verdict of a capture: accepted or not, and the report lines.
pub fn on_diagnosed(d: &mut DiagnoseState, ok: bool, lines: Vec<String>) {
    d.ok = Some(ok);
    d.report = lines;
    d.report_scroll = 0;
}

/// The diagnose view: a click in the captured request focuses it (leaves normal mode); the
/// wheel scrolls the box under the pointer.
pub fn on_mouse(d: &mut DiagnoseState, m: MouseEvent, main: Rect) {
    let l = layout(main);
    let pos = Position::new(m.column, m.row);
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) if l.input.contains(pos) => {
            d.normal_mode = false;
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp if l.report.contains(pos) => {
            d.report_scroll = if m.kind == MouseEventKind::ScrollDown {
                d.report_scroll
                    .saturating_add(3)
                    .min(report_max_scroll(d, l.report))
            } else {
                d.report_scroll.saturating_sub(3)
            };
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp if l.input.contains(pos) => {
            d.shown_mut().input(ratatui_textarea::Input::from(m));
        }
        _ => {}
    }
}

/// Everything the diagnose view can do by key or by name.
/// How far the verdict scrolls in `report` (its box, with the border): until its last wrapped
/// row is the box's bottom row.
fn report_max_scroll(d: &DiagnoseState, report: Rect) -> u16 {
    let inner_w = report.width.saturating_sub(2);
    let rows: usize = d
        .report
        .iter()
        .map(|line| wrap_spans(&[Span::raw(line)], inner_w).len())
        .sum();
    let shown = usize::from(report.height.saturating_sub(2));
    rows.saturating_sub(shown).min(u16::MAX as usize) as u16
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Diagnose,
    ToggleKey,
    LoadIntoEditor,
    ToggleClientText,
}

impl keymap::Kinded for Action {
    fn kind(&self) -> keymap::Kind {
        match self {
            // The view's "go" key: the capture goes through the verifier (Ctrl-G / F9).
            Action::Diagnose => keymap::Kind::Send,
            Action::ToggleKey => keymap::Kind::Toggle,
            Action::LoadIntoEditor => keymap::Kind::Load,
            Action::ToggleClientText => keymap::Kind::Toggle,
        }
    }
}

/// The diagnose view's key bindings: the dispatcher, help and the palette read this table.
pub const KEYS: Table<Action> = Table::new(
    "diagnose",
    &[
        Binding {
            action: Action::Diagnose,
            keys: &[KeySpec::ctrl('g'), KeySpec::f(9)],
            name: "verify and diagnose the capture",
            help: "verify and diagnose it",
        },
        Binding {
            action: Action::ToggleKey,
            keys: &[KeySpec::alt('k')],
            name: "switch the key source",
            help: "key source: the profile's REST key or the demo key",
        },
        Binding {
            action: Action::LoadIntoEditor,
            keys: &[KeySpec::alt('l')],
            name: "load the capture into the request editor",
            help: "load the captured request into the request editor",
        },
        Binding {
            action: Action::ToggleClientText,
            keys: &[KeySpec::alt('t')],
            name: "paste the client's own signing text",
            help: "show the client's signing text box (or the capture again)",
        },
    ],
);

/// Help rows for what is not an action of its own.
pub const CONTEXT_KEYS: &[(&str, &str)] = &[
    (
        "(type / paste)",
        "a raw HTTP request or a curl command line (or, after Alt-T, the client's signing text)",
    ),
    (
        "Tab / Esc",
        "move the focus between the capture and the verdict",
    ),
    (
        "Up / Down / PageUp / PageDown / Home / End",
        "scroll the verdict (when it has the focus); i or Enter: back to typing",
    ),
    (
        "Mouse",
        "click the capture to type in it; wheel scrolls the box under it",
    ),
];

/// Keys of the diagnose view; `profile_key` and `prefix` are those of the request being edited.
pub fn on_key(
    d: &mut DiagnoseState,
    key: KeyEvent,
    profile_key: &Secret,
    prefix: &str,
    main: Rect,
) -> Vec<Command> {
    // The question "load body from FILE? y/n" takes the next key.
    if let Some((file, then)) = d.offer.take() {
        match key.code {
            KeyCode::Char('y') | KeyCode::Char('Y') => {
                d.report = vec![format!("reading the body file {file}…")];
                d.reading = Some((file.clone(), then));
                return vec![Command::ReadCaptureBody { file }];
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
    if let Some(action) = keymap::lookup(&KEYS, &key) {
        return run(d, action, profile_key, prefix);
    }
    if d.normal_mode {
        if key.code == KeyCode::Esc {
            d.normal_mode = false;
        } else {
            report_key(d, key, main);
        }
        return vec![];
    }
    // Tab and Esc move the focus to the verdict (the one focus key of every view: Tab).
    if matches!(key.code, KeyCode::Esc | KeyCode::Tab | KeyCode::BackTab) {
        d.normal_mode = true;
        return vec![];
    }
    d.shown_mut().input(ratatui_textarea::Input::from(key));
    vec![]
}

/// Run one action of the diagnose view (from its key or from the command palette).
pub fn run(
    d: &mut DiagnoseState,
    action: Action,
    profile_key: &Secret,
    prefix: &str,
) -> Vec<Command> {
    // A curl command that reads its body from a file: offer to load it first.
    let body = match action {
        Action::Diagnose | Action::LoadIntoEditor => match body_file_or_offer(d, action) {
            Ok(body) => body,
            Err(()) => return vec![],
        },
        Action::ToggleKey | Action::ToggleClientText => None,
    };
    match action {
        Action::Diagnose => {
            let key = match d.key {
                DiagKey::Profile => profile_key.clone(),
                DiagKey::Demo => Secret::new(crate::core::demo::DEMO_REST_KEY),
            };
            vec![Command::Diagnose {
                text: d.input.lines().join("\n"),
                body,
                client_text: d.client_text(),
                key,
                prefix: prefix.to_string(),
            }]
        }
        Action::ToggleKey => {
            d.key = match d.key {
                DiagKey::Profile => DiagKey::Demo,
                DiagKey::Demo => DiagKey::Profile,
            };
            vec![]
        }
        Action::ToggleClientText => {
            d.on_client_text = !d.on_client_text;
            d.normal_mode = false;
            vec![]
        }
        Action::LoadIntoEditor => vec![Command::ParseCapture {
            text: d.input.lines().join("\n"),
            body,
            prefix: prefix.to_string(),
        }],
    }
}

/// The loaded body file of the pasted curl command (None when it names none); Err when the
/// view asks "load body from FILE? y/n" first (or the command reads stdin, which cannot be).
fn body_file_or_offer(d: &mut DiagnoseState, action: Action) -> Result<Option<bytes::Bytes>, ()> {
    let Some(file) = capture::curl_body_file(&d.input.lines().join("\n")) else {
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
pub fn on_body_file(
    d: &mut DiagnoseState,
    file: String,
    result: Result<Vec<u8>, String>,
    profile_key: &Secret,
    prefix: &str,
) -> Vec<Command> {
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
            run(d, then, profile_key, prefix)
        }
        Err(why) => {
            d.ok = None;
            d.report = vec![why];
            vec![]
        }
    }
}

/// Where the parts of the diagnose view are in its `area` (shared by the view and by mouse hit
/// testing in [`on_mouse`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DiagnoseLayout {
    /// The captured-request box (with its border).
    pub input: Rect,
    /// The verdict and findings box (with its border).
    pub report: Rect,
}

pub fn layout(area: Rect) -> DiagnoseLayout {
    let input_h = (area.height / 2).max(5).min(area.height);
    DiagnoseLayout {
        input: Rect::new(area.x, area.y, area.width, input_h),
        report: Rect::new(area.x, area.y + input_h, area.width, area.height - input_h),
    }
}

/// Draw the view; `key_source` says where the profile's REST key comes from.
pub fn draw(frame: &mut Frame, area: Rect, d: &DiagnoseState, key_source: &str, theme: &Theme) {
    let DiagnoseLayout {
        input: input_area,
        report: report_area,
    } = layout(area);
    let key = match d.key {
        DiagKey::Profile => format!("profile key [{key_source}]"),
        DiagKey::Demo => "demo key".to_string(),
    };
    let b = Block::default()
        .borders(Borders::ALL)
        .border_style(if d.normal_mode {
            theme.border()
        } else {
            theme.focus_border()
        })
        .title(Span::styled(
            if d.on_client_text {
                " Client's signing text (compared when nothing explains a mismatch) "
            } else {
                " Captured request (raw HTTP or curl) "
            },
            theme.title(),
        ))
        .title_bottom(Line::from(Span::styled(
            // The keys that fit (F1 lists them all); the key in use always.
            format!(
                " {} ",
                crate::tui::widgets::text::fit_parts(
                    &[
                        &format!("key: {key}"),
                        "Alt-K change",
                        "Ctrl-G diagnose",
                        if d.on_client_text {
                            "Alt-T capture"
                        } else if d.client_text.is_empty() {
                            "Alt-T client text"
                        } else {
                            "Alt-T client text (pasted)"
                        },
                        "Alt-L load into editor",
                    ],
                    " · ",
                    (input_area.width as usize).saturating_sub(4),
                )
            ),
            theme.dim(),
        )));
    let inner = b.inner(input_area);
    frame.render_widget(b, input_area);
    let shown = if d.on_client_text {
        &d.client_text
    } else {
        &d.input
    };
    frame.render_widget(shown, inner);
    // The box scrolls horizontally with the cursor: `›` / `‹` say where lines go on.
    crate::tui::widgets::text::mark_long_lines(frame, inner, shown, theme.dim());
    let verdict = match d.ok {
        Some(true) => Span::styled(" Verdict: accepted ", theme.ok()),
        Some(false) => Span::styled(" Verdict: rejected ", theme.error()),
        None => Span::styled(" Verdict ", theme.title()),
    };
    let lines: Vec<Line> = if d.report.is_empty() {
        vec![Line::from(Span::styled(
            "Paste a request above and press Ctrl-G.",
            theme.dim(),
        ))]
    } else {
        d.report.iter().map(|l| Line::from(l.clone())).collect()
    };
    let rb = Block::default()
        .borders(Borders::ALL)
        .border_style(if d.normal_mode {
            theme.focus_border()
        } else {
            theme.border()
        })
        .title(verdict)
        .title_bottom(Line::from(Span::styled(
            if d.normal_mode {
                " ↑↓ PgUp PgDn scroll · i / Tab: type "
            } else {
                " Tab: scroll the verdict "
            },
            theme.dim(),
        )));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(rb)
            .scroll((d.report_scroll.min(report_max_scroll(d, report_area)), 0)),
        report_area,
    );
}
