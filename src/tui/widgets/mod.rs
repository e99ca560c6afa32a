//! Widgets shared by the views: they know nothing of the App, the messages or the views that
//! use them (see `docs/architecture.md`, "The workbench").
//!
//! - [`line_input`]: the one single-line text input;
//! - [`body_editor`]: the multi-line editor for bodies up to many megabytes;
//! - [`picker`]: a popup list to choose one row from, on the one list;
//! - [`prompt`]: a popup asking for one line (save as, search);
//! - [`search`]: the one search (a regex, next / previous, "n of m") over the body or a pane;
//! - [`list`]: the one list: selection, window, follow-newest, `/` filter, mouse;
//! - [`text`]: cutting, wrapping and JSON highlighting of text to draw.

pub mod body_editor;
pub mod line_input;
pub mod list;
pub mod picker;
pub mod prompt;
pub mod search;
pub mod text;

pub use line_input::{Edit, LineInput};

use crossterm::event::MouseEventKind;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders};

use crate::tui::theme::Theme;

/// The item after `current` in `all` (before it when `back`), round from the end to the start;
/// from the first when `current` is not in `all`.
pub fn cycle<T: Copy + PartialEq>(all: &[T], current: T, back: bool) -> T {
    let i = all.iter().position(|x| *x == current).unwrap_or(0);
    let n = all.len();
    all[if back { (i + n - 1) % n } else { (i + 1) % n }]
}

/// Where one notch of the wheel (`kind`) scrolls a pane that is at row `at`: three rows, no
/// further than `max`; `at` for any other mouse event.
pub fn wheel(at: u16, kind: MouseEventKind, max: u16) -> u16 {
    match kind {
        MouseEventKind::ScrollDown => at.saturating_add(3).min(max),
        MouseEventKind::ScrollUp => at.saturating_sub(3),
        _ => at,
    }
}

/// A pane's box: all borders, the focused one marked, `title` at its top.
pub fn pane<'a>(title: impl Into<Line<'a>>, focused: bool, theme: &Theme) -> Block<'a> {
    let border = if focused {
        theme.focus_border()
    } else {
        theme.border()
    };
    Block::new()
        .borders(Borders::ALL)
        .border_style(border)
        .title(title)
}
