//! Drawing the diagnose view, and where its parts are (shared with mouse hit testing).

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use ratatui::Frame;

use super::keys::{Action, KEYS};
use super::state::{DiagKey, DiagnoseState};
use crate::tui::theme::Theme;
use crate::tui::widgets::pane;
use crate::tui::widgets::text::{fit_title, max_scroll, wrap_spans};

/// Where the parts of the diagnose view are in its `area` (shared by the view and by mouse hit
/// testing in the update).
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
    draw_capture(frame, input_area, d, key_source, theme);
    draw_report(frame, report_area, d, theme);
}

/// The captured request (or the client's signing text) being typed, its keys along the bottom.
fn draw_capture(
    frame: &mut Frame,
    input_area: Rect,
    d: &DiagnoseState,
    key_source: &str,
    theme: &Theme,
) {
    let key = match d.key {
        DiagKey::Profile => format!("profile key [{key_source}]"),
        DiagKey::Demo => "demo key".to_string(),
    };
    let title = Span::styled(capture_title(d, input_area.width), theme.title());
    let b = pane(fit_title(title, input_area.width), !d.normal_mode, theme).title_bottom(
        Line::from(Span::styled(
            // The keys that fit (F1 lists them all); the key in use always.
            format!(
                " {} ",
                crate::tui::widgets::text::fit_parts(
                    &[
                        &format!("key: {key}"),
                        &format!("{} change", KEYS.first_label_of(Action::ToggleKey)),
                        &format!("{} diagnose", KEYS.first_label_of(Action::Diagnose)),
                        &format!(
                            "{} {}",
                            KEYS.first_label_of(Action::ToggleClientText),
                            if d.on_client_text {
                                "capture"
                            } else {
                                "client text"
                            }
                        ),
                        &format!(
                            "{} load into editor",
                            KEYS.first_label_of(Action::LoadIntoEditor)
                        ),
                    ],
                    " · ",
                    (input_area.width as usize).saturating_sub(4),
                )
            ),
            theme.dim(),
        )),
    );
    let inner = b.inner(input_area);
    frame.render_widget(b, input_area);
    let shown = d.shown().textarea();
    frame.render_widget(shown, inner);
    if d.shown().is_empty() {
        // Drawn over the empty box (the cursor cell keeps its style), wrapped at words: the
        // key that ends the sentence is the instruction, and it must not be cut.
        frame.render_widget(
            Paragraph::new(Span::styled(placeholder(d.on_client_text), theme.dim()))
                .wrap(Wrap { trim: false }),
            inner,
        );
    }
    // The box scrolls horizontally with the cursor: `›` / `‹` say where lines go on.
    crate::tui::widgets::text::mark_long_lines(frame, inner, shown, theme.dim());
}

/// The capture box's title: what the box holds and, over the capture, that a client's signing
/// text is pasted (it is compared at the next Ctrl-G, so the user must see it is there even
/// when the box shows the capture), in the first wording that fits `width`.
fn capture_title(d: &DiagnoseState, width: u16) -> String {
    if d.on_client_text {
        return " Client's signing text (compared when nothing explains a mismatch) ".into();
    }
    if d.client_text.is_empty() {
        return " Captured request (raw HTTP or curl) ".into();
    }
    let pasted = format!(
        "{} client text (pasted)",
        KEYS.first_label_of(Action::ToggleClientText)
    );
    let long = format!(" Captured request (raw HTTP or curl) · {pasted} ");
    if crate::tui::widgets::text::text_width(&long) + 2 <= usize::from(width) {
        long
    } else {
        format!(" Captured request · {pasted} ")
    }
}

/// The verdict and findings, scrolled.
fn draw_report(frame: &mut Frame, report_area: Rect, d: &DiagnoseState, theme: &Theme) {
    let verdict = match d.ok {
        Some(true) => Span::styled(" Verdict: accepted ", theme.ok()),
        Some(false) => Span::styled(" Verdict: rejected ", theme.error()),
        None => Span::styled(" Verdict ", theme.title()),
    };
    let lines: Vec<Line> = if d.report.is_empty() {
        vec![Line::from(Span::styled(
            format!(
                "Paste a request above and press {}.",
                KEYS.first_label_of(Action::Diagnose)
            ),
            theme.dim(),
        ))]
    } else {
        d.report.iter().map(|l| Line::from(l.clone())).collect()
    };
    let rb =
        pane(fit_title(verdict, report_area.width), d.normal_mode, theme).title_bottom(fit_title(
            Span::styled(
                if d.normal_mode {
                    " ↑↓ PgUp PgDn scroll · i / Enter: type "
                } else {
                    " Esc: scroll the verdict "
                },
                theme.dim(),
            ),
            report_area.width,
        ));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(rb)
            .scroll((d.report_scroll.min(report_max_scroll(d, report_area)), 0)),
        report_area,
    );
}

/// What the empty top box asks for: the capture, or the client's signing text.
pub(super) fn placeholder(client_text: bool) -> String {
    if client_text {
        format!(
            "Optional: paste the text the client signed ({} back to the capture), then {}",
            KEYS.first_label_of(Action::ToggleClientText),
            KEYS.first_label_of(Action::Diagnose)
        )
    } else {
        format!(
            "Paste a raw HTTP request or a curl command, then press {}",
            KEYS.first_label_of(Action::Diagnose)
        )
    }
}

/// How far the verdict scrolls in `report` (its box, with the border): until its last wrapped
/// row is the box's bottom row.
pub(super) fn report_max_scroll(d: &DiagnoseState, report: Rect) -> u16 {
    let inner_w = report.width.saturating_sub(2);
    let rows = d
        .report
        .iter()
        .map(|line| wrap_spans(&[Span::raw(line)], inner_w).len());
    max_scroll(rows.sum(), report)
}
