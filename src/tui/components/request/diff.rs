//! The Diff tab of the request view's detail panel: what we signed and what the server signed,
//! line by line, after a `SIGNATURE_MISMATCH` answer, with the conclusion first.

use ratatui::style::Style;
use ratatui::text::Line;

use super::state::RequestState;
use crate::core::LineLabel;
use crate::tui::theme::Theme;
use crate::tui::widgets::text::{clip, styled_line, styled_words, wrap_chars};

/// Width of the label column (as in the canonical panel).
const LABEL_W: usize = 13;

pub(super) fn diff_lines(req: &RequestState, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    let Some(m) = req.response.as_ref().and_then(|r| r.mismatch.as_ref()) else {
        return styled_words(
            "No mismatch to show. When the local server answers SIGNATURE_MISMATCH, what we \
             signed and what it signed appear here line by line.",
            w,
            theme.dim(),
        );
    };
    // The conclusion first, in words; then the diff, each line labelled.
    let mut out = styled_words(&diff_conclusion(m), w, theme.warn());
    out.push(styled_line(vec![
        ("- we signed  ".into(), theme.removed()),
        ("+ server signed".into(), theme.added()),
    ]));
    let n = m.ours.len().max(m.theirs.len());
    for i in 0..n {
        let a = m.ours.get(i);
        let b = m.theirs.get(i);
        let label = format!("{:<LABEL_W$}", diff_label(i).as_str());
        if a == b {
            diff_rows(
                &mut out,
                "  ",
                &label,
                a.map_or("", |s| s),
                Style::default(),
                w,
                theme,
            );
        } else {
            for (sign, text, style) in [("- ", a, theme.removed()), ("+ ", b, theme.added())] {
                if let Some(t) = text {
                    diff_rows(&mut out, sign, &label, t, style, w, theme);
                }
            }
        }
    }
    out
}

/// One line of the diff: its sign and label, the text wrapped (the panel scrolls), each
/// continuation row marked `↪` under the label so a wrap never reads as another line.
fn diff_rows(
    out: &mut Vec<Line<'static>>,
    sign: &str,
    label: &str,
    text: &str,
    style: Style,
    w: usize,
    theme: &Theme,
) {
    let text_w = w.saturating_sub(2 + LABEL_W).max(1);
    for (k, chunk) in wrap_chars(text, text_w).into_iter().enumerate() {
        let lead = if k == 0 {
            label.to_string()
        } else {
            format!("{:>LABEL_W$}", "↪ ")
        };
        out.push(styled_line(vec![
            (sign.into(), style),
            (lead, theme.label()),
            (chunk, style),
        ]));
    }
}

/// The label of line `i` of the server's signing text (seven head lines, then the body).
pub fn diff_label(i: usize) -> LineLabel {
    LineLabel::ALL[i.min(LineLabel::ALL.len() - 1)]
}

/// One sentence on a mismatch: the server's diagnosis when it gave one; otherwise what the two
/// texts show (the first line that differs, or, when they are the same, that the keys differ).
pub fn diff_conclusion(m: &crate::tui::model::MismatchView) -> String {
    if let Some(d) = &m.diagnosis {
        return format!("Conclusion: {d}");
    }
    let first = (0..m.ours.len().max(m.theirs.len())).find(|&i| m.ours.get(i) != m.theirs.get(i));
    match first {
        None => "Conclusion: we and the server signed the same text, so the REST keys differ: \
                 check the profile's REST key against the server's account"
            .to_string(),
        Some(i) => format!(
            "Conclusion: the texts first differ in the {} line (line {}): we signed {}, the server signed {}",
            diff_label(i).as_str(),
            i + 1,
            shown_line(m.ours.get(i)),
            shown_line(m.theirs.get(i)),
        ),
    }
}

fn shown_line(l: Option<&String>) -> String {
    match l {
        None => "nothing".to_string(),
        Some(t) => format!("“{}”", clip(t, 80)),
    }
}
