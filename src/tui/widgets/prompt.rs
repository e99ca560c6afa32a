//! A prompt: a small centred popup that asks for one line of text (save as, search).

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;

use super::line_input::LineInput;
use super::text::fit_title;
use crate::tui::theme::Theme;

/// What a prompt shows around its input.
#[derive(Clone, Copy, Debug)]
pub struct PromptText<'a> {
    /// The popup's title, e.g. " Save profile as ".
    pub title: &'a str,
    /// Text before the input on its row, e.g. "name: ".
    pub lead: &'a str,
    /// The keys, on the row under the input.
    pub hint: &'a str,
    /// The popup's width (cut to the screen).
    pub width: u16,
}

/// A `w` x `h` rectangle in the middle of `area` (cut to it).
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// Where the prompt is drawn on a screen of `area`.
pub fn prompt_area(area: Rect, text: &PromptText<'_>) -> Rect {
    centered(area, text.width, 4)
}

/// Draw the prompt over whatever is under it, with the terminal cursor on the input's cursor.
pub fn draw(
    frame: &mut Frame,
    area: Rect,
    text: &PromptText<'_>,
    input: &LineInput,
    theme: &Theme,
) {
    let rect = prompt_area(area, text);
    frame.render_widget(Clear, rect);
    let block = super::pane(
        fit_title(Span::styled(text.title, theme.title()), rect.width),
        true,
        theme,
    );
    let inner = block.inner(rect);
    let lines = vec![
        Line::from(format!("{}{}", text.lead, input.text())),
        Line::from(Span::styled(text.hint, theme.dim())),
    ];
    frame.render_widget(Paragraph::new(lines).block(block), rect);
    let x = inner.x as usize + text.lead.chars().count() + input.cursor();
    if inner.height > 0 && x < (inner.x + inner.width) as usize {
        frame.set_cursor_position((x as u16, inner.y));
    }
}

/// What [`text_box`] draws: a popup of lines in a `width` x `height` box (cut to the screen),
/// its title, an optional hint on its bottom border, scrolled down `scroll` rows.
pub struct TextBox<'a> {
    pub title: String,
    pub lines: Vec<Line<'a>>,
    pub width: u16,
    pub height: u16,
    pub scroll: u16,
    pub hint: Option<String>,
}

/// Draw a popup of text over whatever is under it, centred in `area`.
pub fn text_box(frame: &mut Frame, area: Rect, b: TextBox<'_>, theme: &Theme) {
    let rect = centered(area, b.width, b.height);
    frame.render_widget(Clear, rect);
    let mut block = super::pane(
        fit_title(Span::styled(b.title, theme.title()), rect.width),
        true,
        theme,
    );
    if let Some(hint) = b.hint {
        block = block.title_bottom(fit_title(Span::styled(hint, theme.dim()), rect.width));
    }
    frame.render_widget(
        Paragraph::new(b.lines).block(block).scroll((b.scroll, 0)),
        rect,
    );
}

/// The file a typed path names: a relative path joined to the working directory (as the file
/// system reads it), so a file prompt can show, and its message name, the file written or read
/// wherever the workbench was started.
pub fn resolved(typed: &str) -> std::path::PathBuf {
    let path = std::path::PathBuf::from(typed);
    if path.is_absolute() {
        return path;
    }
    std::env::current_dir().map_or(path.clone(), |dir| dir.join(&path))
}

/// What a file prompt shows after the typed text: ` → /abs/path` while the text is a relative
/// path (where it resolves to), nothing while it is absolute or empty.
pub fn resolved_note(typed: &str) -> String {
    let typed = typed.trim();
    if typed.is_empty() || std::path::Path::new(typed).is_absolute() {
        return String::new();
    }
    format!(" → {}", resolved(typed).display())
}
