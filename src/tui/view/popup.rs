//! The router's popups: help, quit confirmation, profile switch. (The request view draws its
//! own prompts.)

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use crate::tui::app::{App, Popup, GLOBAL_KEYS, LOG_MESSAGES};
use crate::tui::components::{diagnose, events, history, request, traffic};
use crate::tui::keymap::Table;
use crate::tui::layout::View;
use crate::tui::palette;
use crate::tui::theme::Theme;
use crate::tui::widgets::prompt::centered;
use crate::tui::widgets::text::wrap_chars;

/// Rows of a key table: its keys as help writes them, and what they do.
fn rows_of<A: Copy + std::fmt::Debug>(
    table: &Table<A>,
) -> impl Iterator<Item = (String, String)> + '_ {
    table.iter().map(|b| (table.label(b), b.help.to_string()))
}

fn fixed_rows(rows: &[(&str, &str)]) -> Vec<(String, String)> {
    rows.iter()
        .map(|(k, d)| (k.to_string(), d.to_string()))
        .collect()
}

/// Keys that work in every view (the router's table, and clicking a tab).
pub fn global_rows() -> Vec<(String, String)> {
    rows_of(&GLOBAL_KEYS)
        .chain(fixed_rows(&[(
            "Click a tab",
            "switch to that view (mouse)",
        )]))
        .collect()
}

/// The copy menu's rows of a view: "Alt-Y s" and what it copies.
fn copy_rows(view: View) -> Vec<(String, String)> {
    palette::copy_entries(view)
        .into_iter()
        .map(|c| (c.entry.keys, c.help.to_string()))
        .collect()
}

/// Keys of the request view: its tables, then the keys that depend on where the cursor is.
pub fn request_rows() -> Vec<(String, String)> {
    rows_of(&request::keys::KEYS)
        .chain(copy_rows(View::Request))
        .chain(fixed_rows(request::keys::CONTEXT_KEYS))
        .chain(rows_of(&request::keys::NORMAL_KEYS))
        .collect()
}

/// Keys of the diagnose view.
pub fn diagnose_rows() -> Vec<(String, String)> {
    fixed_rows(&diagnose::CONTEXT_KEYS[..1])
        .into_iter()
        .chain(rows_of(&diagnose::KEYS))
        .chain(fixed_rows(&diagnose::CONTEXT_KEYS[1..]))
        .collect()
}

/// The bindings listed by the help popup of a view.
pub fn bindings(app: &App) -> Vec<(String, String)> {
    let mut v = global_rows();
    match app.view {
        View::Request => v.extend(request_rows()),
        View::Diagnose => v.extend(diagnose_rows()),
        View::Events => v.extend(
            rows_of(&events::KEYS)
                .chain(copy_rows(View::Events))
                .chain(fixed_rows(&app.events.help())),
        ),
        View::History => v.extend(
            fixed_rows(&app.history.help())
                .into_iter()
                .chain(rows_of(&history::KEYS))
                .chain(copy_rows(View::History)),
        ),
        View::Profiles => v.extend(
            fixed_rows(&app.profiles.help())
                .into_iter()
                .chain(rows_of(&crate::tui::components::profiles::FORM_KEYS)),
        ),
        View::Traffic => v.extend(
            fixed_rows(traffic::CONTEXT_KEYS)
                .into_iter()
                .chain(rows_of(&traffic::KEYS))
                .chain(copy_rows(View::Traffic)),
        ),
        View::Lesson => v.extend(
            rows_of(&crate::tui::components::lesson::KEYS)
                .chain(fixed_rows(crate::tui::components::lesson::CONTEXT_KEYS)),
        ),
    }
    v
}

/// The help popup's width on this terminal.
const HELP_W: u16 = 100;

/// The help popup's rows on this terminal: each binding as (keys column, a piece of what it
/// does), the description word-wrapped under itself so no row is cut at 80 columns.
pub fn help_table(app: &App) -> Vec<(String, String)> {
    let b = bindings(app);
    let key_w = b.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(10);
    let inner = HELP_W.min(app.size.0).saturating_sub(2) as usize;
    let desc_w = inner.saturating_sub(key_w + 2).max(12);
    let mut rows = vec![];
    for (k, d) in b {
        for (i, piece) in word_wrap(&d, desc_w).into_iter().enumerate() {
            let key = if i == 0 { k.clone() } else { String::new() };
            rows.push((format!("{key:<key_w$}  "), piece));
        }
    }
    rows
}

/// Break `text` into rows of at most `width` chars at spaces (a longer word is split).
fn word_wrap(text: &str, width: usize) -> Vec<String> {
    let mut rows: Vec<String> = vec![];
    let mut row = String::new();
    for word in text.split(' ') {
        let (n, w) = (row.chars().count(), word.chars().count());
        if n > 0 && n + 1 + w > width {
            rows.push(std::mem::take(&mut row));
        }
        if !row.is_empty() {
            row.push(' ');
        }
        row.push_str(word);
        while row.chars().count() > width {
            let head: String = row.chars().take(width).collect();
            let tail: String = row.chars().skip(width).collect();
            rows.push(head);
            row = tail;
        }
    }
    rows.push(row);
    rows
}

/// Rows of the help popup's text: the bindings and the closing line.
fn help_rows(app: &App) -> u16 {
    help_table(app).len() as u16 + 1
}

/// How far the help popup scrolls: the rows that do not fit the terminal (inside the border).
pub fn help_max_scroll(app: &App) -> u16 {
    help_rows(app).saturating_sub(app.size.1.saturating_sub(2))
}

/// The message log's box on a screen of `area`: wide, nearly full height.
fn messages_rect(area: Rect) -> Rect {
    centered(
        area,
        area.width.saturating_sub(4).min(110),
        area.height.saturating_sub(2),
    )
}

/// The message log as rows wrapped to the width inside its box: each message in full, oldest
/// first, numbered so one message is told from the next.
pub fn messages_rows(app: &App) -> Vec<String> {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    let w = messages_rect(area).width.saturating_sub(2) as usize;
    if app.log.is_empty() {
        return vec!["no messages yet".into()];
    }
    let n = app.log.len();
    let num_w = n.to_string().len();
    let mut rows = vec![];
    for (i, m) in app.log.iter().enumerate() {
        let lead = format!("{:>num_w$} ", i + 1);
        let text_w = w.saturating_sub(lead.len()).max(1);
        for (k, chunk) in wrap_chars(m, text_w).into_iter().enumerate() {
            let lead = if k == 0 {
                lead.clone()
            } else {
                " ".repeat(lead.len())
            };
            rows.push(format!("{lead}{chunk}"));
        }
    }
    rows
}

/// How far the message log scrolls: the rows that do not fit its box.
pub fn messages_max_scroll(app: &App) -> u16 {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    let inner_h = messages_rect(area).height.saturating_sub(2);
    (messages_rows(app).len() as u16).saturating_sub(inner_h)
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    if let Some(Popup::Messages { scroll }) = &app.popup {
        return draw_messages(frame, area, app, *scroll, theme);
    }
    let Some(popup) = &app.popup else { return };
    let mut scroll = 0;
    let mut hint = None;
    // The palette's filter takes typing: the cursor goes there (column in the first row).
    let mut cursor_col = None;
    let (title, lines, w, h): (String, Vec<Line>, u16, u16) = match popup {
        Popup::Help { scroll: s } => {
            let max = help_max_scroll(app);
            scroll = (*s).min(max);
            if max > 0 {
                hint = Some(format!(" ↑↓ PgUp PgDn scroll ({}/{max}) ", scroll));
            }
            let lines: Vec<Line> = help_table(app)
                .into_iter()
                .map(|(k, d)| Line::from(vec![Span::styled(k, theme.label()), Span::raw(d)]))
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
            (
                format!(" Help: {} view ", app.view.title()),
                lines,
                HELP_W,
                h,
            )
        }
        Popup::Palette { filter, selected } => {
            let entries = palette::entries(app, filter.text());
            let name_w = entries.iter().map(|e| e.name.len()).max().unwrap_or(10);
            let mut lines = vec![Line::from(vec![
                Span::styled("> ", theme.label()),
                Span::raw(filter.text().to_string()),
            ])];
            cursor_col = Some(2 + filter.cursor() as u16);
            if entries.is_empty() {
                lines.push(Line::from(Span::styled("no action matches", theme.dim())));
            }
            lines.extend(entries.iter().enumerate().map(|(i, e)| {
                let text = format!("{:<name_w$}  {}", e.name, e.keys);
                if i == *selected {
                    Line::from(Span::styled(text, theme.active_tab()))
                } else {
                    Line::from(text)
                }
            }));
            lines.push(Line::from(Span::styled(
                "type to filter · Up/Down choose · Enter run · Esc close",
                theme.dim(),
            )));
            // Keep the selection on screen when the list is taller than the terminal.
            let inner_h = area.height.saturating_sub(2);
            let row = (*selected + 1) as u16;
            scroll = row.saturating_sub(inner_h.saturating_sub(2));
            let h = lines.len() as u16 + 2;
            (
                format!(" Commands: {} view ", app.view.title()),
                lines,
                70,
                h,
            )
        }
        // Drawn above.
        Popup::Messages { .. } => return,
        Popup::ConfirmLoad(load) => {
            let lines: Vec<Line> = crate::tui::unsaved::question(load)
                .into_iter()
                .map(Line::from)
                .collect();
            let w = 50.max(lines.iter().map(|l| l.width() as u16).max().unwrap_or(0) + 2);
            (" Unsaved edits ".into(), lines, w, 7)
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
        // Drawn by `draw_profiles` (the one list widget).
        Popup::Profiles { .. } => return draw_profiles(frame, area, popup, theme),
        Popup::Operations { selected } => {
            let items = crate::core::vendor::SDK_OPERATIONS
                .iter()
                .map(|o| format!("{:<6} {:<22} {}", o.method, o.path, o.what));
            let hint = "Enter / 1-6 set method and path · Esc close";
            let lines = numbered_picker(items, *selected, hint, theme);
            let h = lines.len() as u16 + 2;
            (" Indexing operations (the SDK's) ".into(), lines, 66, h)
        }
        Popup::Copy => {
            let copies = palette::copy_entries(app.view);
            let mut lines: Vec<Line> = copies
                .iter()
                .map(|c| {
                    Line::from(vec![
                        Span::styled(format!(" {}  ", c.key.label()), theme.label()),
                        Span::raw(c.help),
                    ])
                })
                .collect();
            lines.push(Line::from(Span::styled(
                "one letter copies · Esc cancels",
                theme.dim(),
            )));
            let w = lines
                .iter()
                .map(|l| l.width() as u16 + 2)
                .max()
                .unwrap_or(30)
                .min(area.width);
            let h = lines.len() as u16 + 2;
            (" Copy… ".into(), lines, w, h)
        }
        Popup::CopyCode { selected } => {
            let items = crate::codegen::Lang::ALL
                .iter()
                .map(|l| format!("{:<7} {}", l.name(), l.file_name()));
            let lines = numbered_picker(items, *selected, "Enter / 1-8 copy · Esc close", theme);
            let h = lines.len() as u16 + 2;
            (" Copy the request as code ".into(), lines, 34, h)
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
    if let (Some(col), 0) = (cursor_col, scroll) {
        let x = rect.x + 1 + col;
        if x + 1 < rect.x + rect.width && rect.height > 2 {
            frame.set_cursor_position((x, rect.y + 1));
        }
    }
}

/// The profile switch: the names as the one list (selection, `/` filter), a hint under them.
fn draw_profiles(frame: &mut Frame, area: Rect, popup: &Popup, theme: &Theme) {
    use crate::tui::widgets::list::{self, ListView};
    use ratatui::layout::Constraint;
    use ratatui::widgets::{Cell, Row};
    let Popup::Profiles { names, list: state } = popup else {
        return;
    };
    let shown: Vec<&String> = names
        .iter()
        .filter(|n| state.matches(&n.to_lowercase()))
        .collect();
    let w = 50.min(area.width);
    let h = (shown.len().max(1) as u16 + 3).min(area.height);
    let rect = centered(area, w, h);
    frame.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.focus_border())
        .title(Span::styled(
            state.title("Switch profile", shown.len(), names.len(), w),
            theme.title(),
        ))
        .title_bottom(Span::styled(
            " Enter load · / filter · Esc close ",
            theme.dim(),
        ));
    let inner = block.inner(rect);
    let window = state.window(inner, shown.len());
    let rows = window
        .rows
        .iter()
        .filter_map(|(i, _)| shown.get(*i))
        .map(|n| Row::new([Cell::from(n.to_string())]))
        .collect();
    let empty = if names.is_empty() {
        "no saved profiles yet"
    } else {
        "no profile matches the filter (Esc clears it)"
    };
    list::draw(
        frame,
        rect,
        ListView {
            block,
            header: None,
            widths: vec![Constraint::Fill(1)],
            rows,
            empty: empty.into(),
            highlight: true,
        },
        state,
        &window,
        theme,
    );
}

fn draw_messages(frame: &mut Frame, area: Rect, app: &App, scroll: u16, theme: &Theme) {
    let rect = messages_rect(area);
    let max = messages_max_scroll(app);
    let scroll = scroll.min(max);
    let lines: Vec<Line> = messages_rows(app).into_iter().map(Line::from).collect();
    let hint = if max > 0 {
        format!(" ↑↓ PgUp PgDn scroll ({scroll}/{max}) · any other key closes ")
    } else {
        " any key closes ".to_string()
    };
    frame.render_widget(Clear, rect);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.focus_border())
        .title(Span::styled(
            format!(" Messages (last {LOG_MESSAGES}, oldest first) "),
            theme.title(),
        ))
        .title_bottom(Span::styled(hint, theme.dim()));
    frame.render_widget(Paragraph::new(lines).block(block).scroll((scroll, 0)), rect);
}

/// A numbered list to pick from (`1 …`, `2 …`), the selected row marked `>`, and a hint row.
fn numbered_picker(
    items: impl Iterator<Item = String>,
    selected: usize,
    hint: &str,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let mut lines: Vec<Line> = items
        .enumerate()
        .map(|(i, item)| {
            let text = format!("{} {item}", i + 1);
            if i == selected {
                Line::from(Span::styled(format!("> {text}"), theme.active_tab()))
            } else {
                Line::from(format!("  {text}"))
            }
        })
        .collect();
    lines.push(Line::from(Span::styled(hint.to_string(), theme.dim())));
    lines
}
