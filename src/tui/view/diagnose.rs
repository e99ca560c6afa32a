//! The diagnose view: paste a captured request, pick a key source, read the verdict.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};
use ratatui::Frame;

use crate::tui::app::{App, DiagKey};
use crate::tui::theme::Theme;

/// Where the parts of the diagnose view are in its `area` (shared by the view and by mouse hit
/// testing in `update`).
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

pub fn draw(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let d = &app.diagnose;
    let DiagnoseLayout {
        input: input_area,
        report: report_area,
    } = layout(area);
    let key = match d.key {
        DiagKey::Profile => format!("profile key [{}]", app.key_info.source),
        DiagKey::Demo => "demo key".to_string(),
    };
    let b = Block::default()
        .borders(Borders::ALL)
        .border_style(if app.normal_mode {
            theme.border()
        } else {
            theme.focus_border()
        })
        .title(Span::styled(
            " Captured request (raw HTTP or curl) ",
            theme.title(),
        ))
        .title_bottom(Line::from(Span::styled(
            format!(" key: {key} · Alt-K change · Ctrl-G diagnose · Alt-L load into editor "),
            theme.dim(),
        )));
    let inner = b.inner(input_area);
    frame.render_widget(b, input_area);
    frame.render_widget(&d.input, inner);
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
        .border_style(theme.border())
        .title(verdict);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(rb)
            .scroll((d.report_scroll, 0)),
        report_area,
    );
}
