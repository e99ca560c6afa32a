//! The message log (Alt-M): every status message, in full, oldest first.

use crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::Frame;

use super::component::{scroll_key, Ctx, KeyPopup, PopupEffect};
use crate::tui::status::LOG_MESSAGES;
use crate::tui::theme::Theme;
use crate::tui::widgets::prompt::{centered, text_box, TextBox};
use crate::tui::widgets::text::wrap_words;

/// The log, scrolled to row `scroll` of its wrapped text (clamped when drawn, so `u16::MAX`
/// shows the newest messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Messages {
    pub scroll: u16,
}

impl Messages {
    /// Scrolled to the newest message.
    pub fn newest() -> Self {
        Messages { scroll: u16::MAX }
    }
}

/// The log's size on a screen of `area`: wide, nearly full height.
fn size(area: Rect) -> (u16, u16) {
    (
        area.width.saturating_sub(4).min(110),
        area.height.saturating_sub(2),
    )
}

/// The message log as rows wrapped to the width inside its box: each message in full, oldest
/// first, numbered so one message is told from the next.
pub fn messages_rows(ctx: &Ctx<'_>) -> Vec<String> {
    let w = size(ctx.screen()).0.saturating_sub(2) as usize;
    if ctx.log.is_empty() {
        return vec!["no messages yet".into()];
    }
    let num_w = ctx.log.len().to_string().len();
    let mut rows = vec![];
    for (i, m) in ctx.log.iter().enumerate() {
        let lead = format!("{:>num_w$} ", i + 1);
        let text_w = w.saturating_sub(lead.len()).max(1);
        // At spaces, as every other text: a word cut in two reads as two words.
        for (k, chunk) in wrap_words(m, text_w).into_iter().enumerate() {
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
pub fn messages_max_scroll(ctx: &Ctx<'_>) -> u16 {
    let (w, h) = size(ctx.screen());
    let inner_h = centered(ctx.screen(), w, h).height.saturating_sub(2);
    (messages_rows(ctx).len() as u16).saturating_sub(inner_h)
}

impl KeyPopup for Messages {
    /// Arrows and pages scroll; any other key closes the log.
    fn on_key(&mut self, key: &KeyEvent, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        let max = messages_max_scroll(ctx);
        match scroll_key(key, self.scroll.min(max), max) {
            Some(to) => {
                self.scroll = to;
                vec![]
            }
            None => vec![PopupEffect::Close],
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>, theme: &Theme) {
        let max = messages_max_scroll(ctx);
        let scroll = self.scroll.min(max);
        let hint = if max > 0 {
            format!(" ↑↓ PgUp PgDn scroll ({scroll}/{max}) · any other key closes ")
        } else {
            " any key closes ".to_string()
        };
        let (width, height) = size(area);
        let b = TextBox {
            title: format!(" Messages (last {LOG_MESSAGES}, oldest first) "),
            lines: messages_rows(ctx).into_iter().map(Line::from).collect(),
            width,
            height,
            scroll,
            hint: Some(hint),
        };
        text_box(frame, area, b, theme);
    }
}
