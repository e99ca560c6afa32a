//! Drawing the lesson view: the step (what the part is, what to do) over the signing text of the
//! request in the editor with what changed since the step began; or an exercise (what the server
//! received, then the pick list or the client's settings, then the diagnosis). Fits 80x24.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Wrap};
use ratatui::Frame;

use super::state::{Action, ExerciseState, LessonState, Mode, KEYS, TUI_HINTS};
use crate::core::LineLabel;
use crate::learn::exercise::{short_label, API_KEY, REST_KEY};
use crate::learn::lesson::{changed_lines, STEPS};
use crate::tui::theme::{Theme, MEASURE};
use crate::tui::widgets::text::{clip_marked, max_scroll, wrapped_rows};

/// Draw the view in `area` (the main area of the frame).
pub fn draw(frame: &mut Frame, area: Rect, s: &LessonState, theme: &Theme) {
    match s.mode {
        Mode::Lesson => draw_lesson(frame, area, s, theme),
        Mode::Exercise => draw_exercise(frame, area, s, theme),
    }
}

/// A pane `width` columns wide titled `title` (cut with `…` where it does not fit).
fn block<'a>(title: String, width: u16, theme: &Theme) -> Block<'a> {
    let title = Span::styled(title, theme.title());
    crate::tui::widgets::pane(
        crate::tui::widgets::text::fit_title(title, width),
        false,
        theme,
    )
}

/// Rows `text` takes wrapped at `width`.
fn rows(lines: &[Line], width: u16) -> u16 {
    wrapped_rows(lines, width).min(usize::from(u16::MAX)) as u16
}

/// How to do step `step` in the workbench, naming the keys the keymap has (the request view's
/// key and the timestamp toggle can be rebound in the keys file).
fn tui_hint(step: usize) -> String {
    use crate::tui::components::request::keys as request_keys;
    use crate::tui::global_keys::{GlobalAction, GLOBAL_KEYS};
    let edit = GLOBAL_KEYS.first_label_of(GlobalAction::Show(crate::tui::layout::View::Request));
    let freeze = request_keys::KEYS.first_label_of(request_keys::Action::ToggleTimestamp);
    TUI_HINTS[step]
        .replace("F2", &edit)
        .replace("Ctrl-T", &freeze)
}

/// The step box (title, lines) and the banner under the signing text (a step done, a progress
/// file that could not be read); None until the progress is read.
fn lesson_parts(
    s: &LessonState,
    theme: &Theme,
) -> Option<(String, Vec<Line<'static>>, Vec<Line<'static>>)> {
    let progress = s.progress.as_ref()?;
    let step = progress.lesson_step.min(STEPS.len());
    let mut top: Vec<Line> = vec![];
    let title = if step == STEPS.len() {
        top.push(Line::from(format!(
            "The lesson is done: every line of the signing text, the window, the key and the \
             encoding. {} starts an exercise; {} starts the lesson again.",
            KEYS.label_of(Action::Exercises),
            KEYS.label_of(Action::Restart)
        )));
        format!(" Lesson · {} steps done ", STEPS.len())
    } else {
        let st = &STEPS[step];
        top.push(Line::from(st.explanation));
        top.push(Line::from(vec![
            Span::styled("Do: ", theme.highlight()),
            Span::raw(st.task),
        ]));
        if s.hint {
            top.push(Line::from(vec![
                Span::styled("How: ", theme.label()),
                Span::raw(tui_hint(step)),
            ]));
        }
        format!(
            " Lesson · step {} of {}: {} ",
            step + 1,
            STEPS.len(),
            st.title
        )
    };
    let mut banner: Vec<Line> = vec![];
    if let Some(d) = &s.done {
        let what = if d.changes.is_empty() {
            "no line changed".to_string()
        } else {
            d.changes
                .iter()
                .map(|(l, _, _)| l.as_str())
                .collect::<Vec<_>>()
                .join(", ")
                + " changed"
        };
        let sig = if d.signature_before == d.signature_after {
            "the signature did not change"
        } else {
            "the signature changed"
        };
        banner.push(Line::from(vec![
            Span::styled(format!("✓ Step {} done: ", d.step + 1), theme.ok()),
            Span::raw(format!("{what}; {sig}.")),
        ]));
    }
    if let Some(e) = &s.progress_error {
        banner.push(Line::from(Span::styled(e.clone(), theme.warn())));
    }
    Some((title, top, banner))
}

/// The step box, the signing-text pane and the banner in `area` (the keys are the workbench
/// footer's: one hint row, `super::hints`).
fn lesson_areas(area: Rect, top: &[Line], banner: &[Line]) -> [Rect; 3] {
    let top_h = rows(top, area.width.saturating_sub(2)) + 2;
    let banner_h = rows(banner, area.width);
    Layout::vertical([
        Constraint::Length(top_h),
        Constraint::Min(4),
        Constraint::Length(banner_h),
    ])
    .areas(area)
}

/// The signing-text pane of the lesson in `area` (None until the progress is read).
pub(super) fn text_pane(area: Rect, s: &LessonState) -> Option<Rect> {
    let (_, top, banner) = lesson_parts(s, &MEASURE)?;
    Some(lesson_areas(area, &top, &banner)[1])
}

/// How far the signing text in `pane` scrolls: its last row on the pane's last row.
pub(super) fn text_max_scroll(s: &LessonState, pane: Rect) -> u16 {
    max_scroll(
        text_rows(s, pane.width.saturating_sub(2), &MEASURE).len(),
        pane,
    )
}

fn draw_lesson(frame: &mut Frame, area: Rect, s: &LessonState, theme: &Theme) {
    let Some((title, top, banner)) = lesson_parts(s, theme) else {
        frame.render_widget(
            Paragraph::new("Reading the lesson progress...").block(block(
                " Lesson ".into(),
                area.width,
                theme,
            )),
            area,
        );
        return;
    };
    let [top_a, text_a, banner_a] = lesson_areas(area, &top, &banner);
    frame.render_widget(
        Paragraph::new(top)
            .wrap(Wrap { trim: false })
            .block(block(title, top_a.width, theme)),
        top_a,
    );
    draw_text(frame, text_a, s, theme);
    frame.render_widget(Paragraph::new(banner).wrap(Wrap { trim: false }), banner_a);
}

/// The signing text of the request in the editor, a changed line marked with what it was.
fn draw_text(frame: &mut Frame, area: Rect, s: &LessonState, theme: &Theme) {
    let b = block(
        " The request in the editor: signing text (* changed since the step began) ".into(),
        area.width,
        theme,
    );
    let out = text_rows(s, area.width.saturating_sub(2), theme);
    let skip = s.text_scroll.min(text_max_scroll(s, area));
    let shown: Vec<Line> = out.into_iter().skip(usize::from(skip)).collect();
    frame.render_widget(Paragraph::new(shown).block(b), area);
}

/// The rows of the signing text at `width` (each line wrapped, marked `↪`), then the
/// signature (and what it was when the step began, when it changed).
fn text_rows(s: &LessonState, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let Some(now) = &s.seen else {
        return vec![];
    };
    let (lines, sig) = now.lines_and_signature();
    let changed = s
        .start
        .as_ref()
        .map(|start| changed_lines(start, now))
        .unwrap_or_default();
    let mut out: Vec<Line> = vec![];
    for (label, text) in lines {
        let end = if label == LineLabel::Body { "" } else { "\\n" };
        let was = changed.iter().find(|(l, _, _)| *l == label);
        let (mark, style) = match was {
            Some(_) => ("*", theme.highlight()),
            None => (" ", Style::default()),
        };
        let mut value = vec![(format!("{text}{end}"), style)];
        if let Some((_, before, _)) = was {
            value.push((format!("  was {before}"), theme.dim()));
        }
        let lead = Span::styled(format!("{mark}{:<13}", label.as_str()), theme.label());
        push_wrapped(&mut out, lead, value, width, theme);
    }
    let before = s.start.as_ref().and_then(|d| d.lines_and_signature().1);
    let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "(none: no REST key)".into());
    let w = width;
    push_wrapped(
        &mut out,
        Span::styled(" signature    ", theme.label()),
        vec![(shown(&sig), theme.signature())],
        w,
        theme,
    );
    if before != sig {
        push_wrapped(
            &mut out,
            Span::styled(" was          ", theme.dim()),
            vec![(shown(&before), theme.dim())],
            w,
            theme,
        );
    }
    out
}

/// One labelled line of the signing text wrapped between characters to `width` (signing text:
/// no space is dropped), each continuation row marked `↪` under the label so a wrap never
/// reads as another line.
fn push_wrapped(
    out: &mut Vec<Line<'static>>,
    lead: Span<'static>,
    value: Vec<(String, Style)>,
    width: u16,
    theme: &Theme,
) {
    let lead_w = lead.width();
    let text_w = (width as usize).saturating_sub(lead_w).max(1);
    let mut rows: Vec<Vec<Span<'static>>> = vec![vec![lead]];
    let mut used = 0;
    for (text, style) in value {
        let mut piece = String::new();
        for c in text.chars() {
            if used == text_w {
                if !piece.is_empty() {
                    rows.last_mut()
                        .expect("a row")
                        .push(Span::styled(std::mem::take(&mut piece), style));
                }
                rows.push(vec![Span::styled(
                    format!("{:>w$} ", "↪", w = lead_w.saturating_sub(1)),
                    theme.dim(),
                )]);
                used = 0;
            }
            piece.push(c);
            used += 1;
        }
        if !piece.is_empty() {
            rows.last_mut()
                .expect("a row")
                .push(Span::styled(piece, style));
        }
    }
    out.extend(rows.into_iter().map(Line::from));
}

fn draw_exercise(frame: &mut Frame, area: Rect, s: &LessonState, theme: &Theme) {
    let Some(ex) = &s.exercise else {
        frame.render_widget(
            Paragraph::new(format!(
                "{} starts an exercise at level 1, {} at level 2.",
                KEYS.label_of(Action::Level1),
                KEYS.label_of(Action::Level2)
            ))
            .block(block(" Exercise ".into(), area.width, theme)),
            area,
        );
        return;
    };
    let scores = s
        .progress
        .as_ref()
        .map(|p| p.score_lines().join(" · "))
        .unwrap_or_default();
    let bottom: Vec<Line> = bottom_lines(ex, theme);
    let bottom_title = if ex.outcome.is_some() {
        " Diagnosis (PageDown / PageUp) ".to_string()
    } else if ex.fixing {
        " The client's settings: fix them until the server accepts ".to_string()
    } else {
        format!(
            " What did the client get wrong? (tick {}) ",
            ex.exercise.mistakes.len()
        )
    };
    let [server_a, bottom_a] = exercise_panes(area, ex);
    // The title names the exercise's accounts; cut with `…` where it does not fit.
    let title = format!(
        " Level {} · the server received (account {API_KEY}, REST key {REST_KEY}) ",
        ex.exercise.level
    );
    let title = clip_marked(&title, usize::from(server_a.width.saturating_sub(2)));
    frame.render_widget(
        Paragraph::new(server_lines(ex))
            .wrap(Wrap { trim: false })
            .scroll((ex.server_scroll.min(server_max_scroll(ex, server_a)), 0))
            .block(block(title, server_a.width, theme)),
        server_a,
    );
    let mut b = block(
        clip_marked(&bottom_title, usize::from(bottom_a.width.saturating_sub(2))),
        bottom_a.width,
        theme,
    );
    if !scores.is_empty() {
        b = b.title_bottom(crate::tui::widgets::text::fit_title(
            Span::styled(format!(" {scores} "), theme.dim()),
            bottom_a.width,
        ));
    }
    frame.render_widget(
        Paragraph::new(bottom)
            .wrap(Wrap { trim: false })
            .scroll((ex.scroll.min(bottom_max_scroll(ex, bottom_a)), 0))
            .block(b),
        bottom_a,
    );
}

/// What the server received, a line each.
fn server_lines(ex: &ExerciseState) -> Vec<Line<'static>> {
    ex.exercise
        .server_view()
        .lines()
        .map(|l| Line::from(l.to_string()))
        .collect()
}

/// The "server received" pane and the pane under it (the list, the settings or the diagnosis)
/// in the view's `area`; shared by the drawing and the scroll keys.
pub(super) fn exercise_panes(area: Rect, ex: &ExerciseState) -> [Rect; 2] {
    let want = rows(&bottom_lines(ex, &MEASURE), area.width.saturating_sub(2)) + 2;
    let bottom_h = want.min(area.height.saturating_sub(7)).max(3);
    Layout::vertical([Constraint::Min(4), Constraint::Length(bottom_h)]).areas(area)
}

/// How far the rows of `lines` wrapped in `pane` (with its border) scroll: the last row on the
/// pane's last row.
fn lines_max_scroll(lines: &[Line], pane: Rect) -> u16 {
    max_scroll(wrapped_rows(lines, pane.width.saturating_sub(2)), pane)
}

/// How far what the server received scrolls in its pane.
pub(super) fn server_max_scroll(ex: &ExerciseState, pane: Rect) -> u16 {
    lines_max_scroll(&server_lines(ex), pane)
}

/// How far the pane under it (the diagnosis, once answered) scrolls.
pub(super) fn bottom_max_scroll(ex: &ExerciseState, pane: Rect) -> u16 {
    lines_max_scroll(&bottom_lines(ex, &MEASURE), pane)
}

fn bottom_lines(ex: &ExerciseState, theme: &Theme) -> Vec<Line<'static>> {
    if let Some(o) = &ex.outcome {
        let mut v = vec![if o.solved {
            Line::from(Span::styled("Right.", theme.ok()))
        } else {
            Line::from(Span::styled("Not quite.", theme.error()))
        }];
        v.extend(o.report.iter().map(|l| Line::from(l.clone())));
        return v;
    }
    if ex.fixing {
        let mut v: Vec<Line> = ex
            .knobs
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let cur = i == ex.knob_cursor;
                Line::from(vec![
                    Span::styled(
                        format!("{}{:<13}", if cur { "›" } else { " " }, k.name),
                        theme.label(),
                    ),
                    Span::styled(
                        k.value(),
                        if cur {
                            theme.highlight()
                        } else {
                            Style::default()
                        },
                    ),
                ])
            })
            .collect();
        if let Some(Err(e)) = &ex.last_send {
            v.push(Line::from(Span::styled(
                format!("refused: {e}"),
                theme.error(),
            )));
        }
        return v;
    }
    ex.exercise
        .choices
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let cur = i == ex.cursor;
            let tick = if ex.picked[i] { "[x]" } else { "[ ]" };
            Line::from(vec![
                Span::styled(
                    format!(
                        "{}{tick} {}. the client ",
                        if cur { "›" } else { " " },
                        i + 1
                    ),
                    theme.label(),
                ),
                Span::styled(
                    short_label(m),
                    if cur {
                        theme.highlight()
                    } else {
                        Style::default()
                    },
                ),
            ])
        })
        .collect()
}
