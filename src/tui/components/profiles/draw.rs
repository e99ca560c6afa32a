//! Layout and drawing of the profile manager.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row};
use ratatui::Frame;

use super::state::*;
use crate::store::KeySource;
use crate::tui::theme::{Theme, MEASURE};
use crate::tui::widgets::list::{self, ListView, Window};
use crate::tui::widgets::text::{max_scroll, wrap_spans};

/// Where the parts of the manager are (shared by [`draw`] and mouse hit testing).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProfilesLayout {
    /// The list box (with its border).
    pub list: Rect,
    /// The list rows on screen (indexes into the filtered list, [`ProfilesState::visible`]).
    pub window: Window,
    /// The detail box (with its border).
    pub detail: Rect,
    /// Edit mode: the heading row(s) of the form.
    pub edit_title: Option<Rect>,
    /// Edit mode: the rows each field takes (long values wrap).
    pub edit_fields: Vec<(EditField, Rect)>,
    pub footer: Rect,
}

/// The layout of the manager in `area` for the current state.
pub fn layout(area: Rect, state: &ProfilesState) -> ProfilesLayout {
    // The last row is the name prompt or the delete question, while one is open (the view's
    // messages are in the workbench's status line).
    let asking = matches!(state.mode, Mode::Name { .. } | Mode::ConfirmDelete(_));
    // A refused name's reason, whole, on its own rows above the prompt.
    let error_rows = name_error_rows(state, area.width).len() as u16;
    let [main, footer] = Layout::vertical([
        Constraint::Min(3),
        Constraint::Length(u16::from(asking) + error_rows),
    ])
    .areas(area);
    let list_w = if main.width >= 110 { 32 } else { 24 };
    let [list, detail] =
        Layout::horizontal([Constraint::Length(list_w), Constraint::Min(20)]).areas(main);
    let body = Block::new().borders(Borders::ALL).inner(list);
    let mut l = ProfilesLayout {
        list,
        window: state.list.window(body, state.visible().len()),
        detail,
        footer,
        ..ProfilesLayout::default()
    };
    if let Mode::Edit(form) = &state.mode {
        let inner = Block::new().borders(Borders::ALL).inner(detail);
        let bottom = inner.y + inner.height;
        let mut y = inner.y;
        for (field, spans) in edit_lines(form, state.revealed) {
            let h = wrap_spans(&spans, inner.width).len() as u16;
            let h = h.min(bottom.saturating_sub(y));
            if h == 0 {
                break;
            }
            let r = Rect::new(inner.x, y, inner.width, h);
            match field {
                Some(f) => l.edit_fields.push((f, r)),
                None => l.edit_title = Some(r),
            }
            y += h;
        }
    }
    l
}

/// The rows of a refused name's reason (wrapped to `width`, at most 3), while the name prompt
/// is open.
fn name_error_rows(state: &ProfilesState, width: u16) -> Vec<Line<'static>> {
    match (&state.mode, &state.name_error) {
        (Mode::Name { .. }, Some(why)) => {
            let mut rows = wrap_spans(&[Span::raw(why.clone())], width.max(1));
            rows.truncate(3);
            rows
        }
        _ => Vec::new(),
    }
}

/// The lines of the edit form: the heading (no field), then one per field.
fn edit_lines(form: &EditForm, revealed: bool) -> Vec<(Option<EditField>, Vec<Span<'static>>)> {
    let label = |s: &str| Span::styled(format!("{s:>14}: "), Style::new().bold());
    // The heading names the keys the footer names (Enter and Ctrl-S both save), or asks the
    // question Esc opened while the form holds changes.
    let heading = if form.asking_discard {
        Span::styled(
            format!(
                "Discard the changes to {}? d discards them, any other key keeps editing",
                form.name
            ),
            Style::new().bold().add_modifier(Modifier::REVERSED),
        )
    } else {
        Span::styled(
            format!(
                "Editing {} (Enter or {} saves, Esc leaves)",
                form.name,
                super::keys::FORM_KEYS.label_of(super::keys::FormAction::Save)
            ),
            Style::new().bold(),
        )
    };
    let mut out = vec![(None, vec![heading])];
    for f in EditField::ALL {
        let value = match f {
            EditField::IndexingUrl => form.indexing_url.text().to_string(),
            EditField::AnalyticsUrl => form.analytics_url.text().to_string(),
            EditField::HeaderPrefix => form.header_prefix.text().to_string(),
            EditField::ApiKey => form.api_key.text().to_string(),
            EditField::KeyKind => format!("< {} >", form.key_kind.label()),
            EditField::KeyValue => {
                let t = form.key_value.text();
                if form.key_kind == KeyKind::Stored && !revealed {
                    format!(
                        "{} ({} reveals)",
                        "•".repeat(t.chars().count()),
                        super::keys::FORM_KEYS.label_of(super::keys::FormAction::Reveal)
                    )
                } else {
                    t.to_string()
                }
            }
        };
        let lab = if f == EditField::KeyValue {
            form.key_kind.value_label()
        } else {
            f.label()
        };
        let v = Span::raw(value);
        let v = if form.focus == f {
            v.add_modifier(Modifier::REVERSED)
        } else {
            v
        };
        out.push((Some(f), vec![label(lab), v]));
    }
    out
}

/// Where the cursor of the focused text field is drawn: the label and the text before the
/// cursor, wrapped as the field is, end at it. None for the key-kind picker, while Esc's
/// question is open, or when the field is off screen.
fn edit_cursor(form: &EditForm, l: &ProfilesLayout) -> Option<ratatui::layout::Position> {
    if form.asking_discard {
        return None;
    }
    let mut form = form.clone();
    let focus = form.focus;
    let input = form.input_mut(focus)?;
    let before: String = input.text().chars().take(input.cursor()).collect();
    let (_, rect) = l.edit_fields.iter().find(|(f, _)| *f == focus)?;
    let label = Span::raw(format!("{:>14}: ", "")); // the label's width
    let rows = wrap_spans(&[label, Span::raw(before)], rect.width);
    let row = rows.len().saturating_sub(1) as u16;
    let col = rows.last().map_or(0, |r| r.width()) as u16;
    (row < rect.height && col < rect.width)
        .then(|| ratatui::layout::Position::new(rect.x + col, rect.y + row))
}

fn masked_key(source: &KeySource, revealed: bool) -> String {
    match source {
        KeySource::Stored(s) if revealed => format!("stored in the profile file: {}", s.expose()),
        KeySource::Stored(s) => format!(
            "stored in the profile file: {} (v reveals)",
            "•".repeat(s.len().clamp(3, 12))
        ),
        other => other.describe(),
    }
}

fn detail_title(state: &ProfilesState) -> String {
    if state.dir.as_os_str().is_empty() {
        " Profile ".to_string()
    } else {
        format!(" Profile files in {} ", state.dir.display())
    }
}

/// The detail pane's lines for the selected profile (browsing): what it holds, the files that
/// did not load, the keys.
fn detail_lines(state: &ProfilesState, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines: Vec<Line<'static>> = Vec::new();
    let label = |s: &str| Span::styled(format!("{s:>14}: "), Style::new().bold());
    if let Some(p) = state.selected_profile() {
        lines.push(Line::from(vec![
            label("Profile"),
            Span::raw(p.name.clone()),
        ]));
        let file = match state.file_of(p) {
            Some(path) => path.display().to_string(),
            None => "built in (no file)".to_string(),
        };
        lines.push(Line::from(vec![label("File"), Span::raw(file)]));
        lines.push(Line::from(vec![
            label("Indexing URL"),
            Span::raw(p.indexing_url.clone()),
        ]));
        lines.push(Line::from(vec![
            label("Analytics URL"),
            Span::raw(p.analytics_url.clone()),
        ]));
        lines.push(Line::from(vec![
            label("Header prefix"),
            Span::raw(p.header_prefix().to_string()),
        ]));
        lines.push(Line::from(vec![
            label("API key"),
            Span::raw(p.api_key().to_string()),
        ]));
        lines.push(Line::from(vec![
            label("REST key"),
            Span::raw(masked_key(&p.rest_key, state.revealed)),
        ]));
        lines.push(Line::from(vec![
            label("Request"),
            Span::raw(format!(
                "{} {}",
                p.request().method,
                crate::core::http_text::target(&p.request().path, &p.request().query)
            )),
        ]));
    }
    if !state.errors.is_empty() {
        lines.push(Line::from(""));
        lines.push(Line::styled("Files that did not load:", theme.warn()));
        for e in &state.errors {
            lines.push(Line::styled(e.clone(), theme.warn()));
        }
    }
    lines.push(Line::from(""));
    lines.push(
        Line::from(
            "Enter use  e edit  n new  c from current  D duplicate  r rename  d delete  v reveal",
        )
        .dim(),
    );
    lines
}

/// The detail pane's rows in `pane` (its lines wrapped to its width, as drawn).
fn detail_rows(state: &ProfilesState, pane: Rect, theme: &Theme) -> Vec<Line<'static>> {
    let width = Block::new().borders(Borders::ALL).inner(pane).width;
    detail_lines(state, theme)
        .into_iter()
        .flat_map(|l| {
            let style = l.style;
            wrap_spans(&l.spans, width)
                .into_iter()
                .map(move |r| r.style(style))
        })
        .collect()
}

/// How far the detail pane in `pane` scrolls: its last row on the pane's last row.
pub(super) fn detail_max_scroll(state: &ProfilesState, pane: Rect) -> u16 {
    max_scroll(detail_rows(state, pane, &MEASURE).len(), pane)
}

/// Draw the profile manager into `area`.
pub fn draw(frame: &mut Frame, area: Rect, state: &ProfilesState, current: &str, theme: &Theme) {
    let l = layout(area, state);
    draw_list(frame, &l, state, current, theme);
    if let Mode::Edit(form) = &state.mode {
        draw_form(frame, &l, state, form);
    } else {
        draw_detail(frame, l.detail, state, theme);
    }
    draw_footer(frame, l.footer, state, theme);
}

/// The profiles (only the rows on screen), the one in use and the built-in one marked.
fn draw_list(
    frame: &mut Frame,
    l: &ProfilesLayout,
    state: &ProfilesState,
    current: &str,
    theme: &Theme,
) {
    let list_area = l.list;
    let visible = state.visible();
    // Only the rows on screen are built.
    let rows = l
        .window
        .rows
        .iter()
        .filter_map(|(i, _)| state.profiles.get(*visible.get(*i)?))
        .map(|p| {
            let mut spans = vec![Span::raw(p.name.clone())];
            if p.name == current {
                spans.push(Span::styled(" (in use)", Style::new().bold()));
            }
            if p.is_demo() {
                spans.push(Span::styled(" built-in", Style::new().dim()));
            }
            Row::new([Cell::from(Line::from(spans))])
        })
        .collect();
    let title = state.list.title(
        "Profiles",
        visible.len(),
        state.profiles.len(),
        list_area.width,
    );
    list::draw(
        frame,
        list_area,
        ListView {
            block: Block::new().borders(Borders::ALL).title(title),
            header: None,
            widths: vec![Constraint::Fill(1)],
            rows,
            empty: "Nothing matches the filter (Esc clears it).".into(),
            highlight: true,
        },
        &state.list,
        &l.window,
        theme,
    );
}

/// The edit form in the detail pane, each line in the rows the layout gave it.
fn draw_form(frame: &mut Frame, l: &ProfilesLayout, state: &ProfilesState, form: &EditForm) {
    let detail_area = l.detail;
    // Each line in the rows the layout gave it (wrapped the same way), so a click on
    // a field lands on the field drawn there.
    let rects = l
        .edit_title
        .iter()
        .map(|r| (None, *r))
        .chain(l.edit_fields.iter().map(|(f, r)| (Some(*f), *r)));
    let content = edit_lines(form, state.revealed);
    let b = Block::new()
        .borders(Borders::ALL)
        .title(crate::tui::widgets::text::fit_title(
            detail_title(state),
            detail_area.width,
        ));
    frame.render_widget(b, detail_area);
    for (field, rect) in rects {
        if let Some((_, spans)) = content.iter().find(|(f, _)| *f == field) {
            let rows = wrap_spans(spans, rect.width);
            frame.render_widget(Paragraph::new(rows), rect);
        }
    }
    // The terminal cursor at the insertion point of the focused text field (as every
    // Request field shows it), so Left / Right show where typing goes.
    if let Some(at) = edit_cursor(form, l) {
        frame.set_cursor_position(at);
    }
}

/// The selected profile's details, scrolled.
fn draw_detail(frame: &mut Frame, detail_area: Rect, state: &ProfilesState, theme: &Theme) {
    // Rows wrapped here, so PageDown / PageUp (`update`) count the rows drawn.
    let skip = state
        .detail_scroll
        .min(detail_max_scroll(state, detail_area));
    let rows: Vec<Line> = detail_rows(state, detail_area, theme)
        .into_iter()
        .skip(usize::from(skip))
        .collect();
    frame.render_widget(
        Paragraph::new(rows).block(Block::new().borders(Borders::ALL).title(
            crate::tui::widgets::text::fit_title(detail_title(state), detail_area.width),
        )),
        detail_area,
    );
}

/// The name prompt or the delete confirmation, under a refused name's reasons.
fn draw_footer(frame: &mut Frame, footer: Rect, state: &ProfilesState, theme: &Theme) {
    let footer_line = match &state.mode {
        Mode::Name { for_, input } => {
            let what = match for_ {
                NameFor::New => "New profile name: ",
                NameFor::FromCurrent => "Name for a copy of the current profile: ",
                NameFor::Duplicate => "Name of the duplicate: ",
                NameFor::Rename => "New name: ",
            };
            // A refused name says why on the rows above (the prompt stays open).
            Line::from(vec![
                Span::styled(what, Style::new().bold()),
                Span::raw(input.text().to_string()),
                Span::raw("▏ (Enter ok, Esc cancel)"),
            ])
        }
        Mode::ConfirmDelete(name) => Line::styled(
            format!("Delete profile {name} and its file? y to confirm, any other key keeps it."),
            theme.error(),
        ),
        _ => Line::default(),
    };
    let mut rows: Vec<Line> = name_error_rows(state, footer.width)
        .into_iter()
        .map(|r| r.style(theme.error()))
        .collect();
    rows.push(footer_line);
    frame.render_widget(Paragraph::new(rows), footer);
}
