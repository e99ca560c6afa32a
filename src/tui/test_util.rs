//! Shared helpers for TestBackend draw tests and mouse events aimed with layout structs.

use crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::{Frame, Terminal};

/// Draw once into a `w`x`h` TestBackend and return the screen as text, one line per row.
pub fn render_text(w: u16, h: u16, draw: impl FnOnce(&mut Frame)) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("a TestBackend terminal");
    term.draw(draw).expect("drawing into a TestBackend");
    let buf = term.backend().buffer();
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Draw once into a `w`x`h` TestBackend and return the buffer (for style assertions).
pub fn render_buffer(w: u16, h: u16, draw: impl FnOnce(&mut Frame)) -> ratatui::buffer::Buffer {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("a TestBackend terminal");
    term.draw(draw).expect("drawing into a TestBackend");
    term.backend().buffer().clone()
}

fn mouse(kind: MouseEventKind, column: u16, row: u16) -> MouseEvent {
    MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }
}

/// A left click on the middle of `r` (a cell a layout struct gave).
pub fn click_in(r: Rect) -> MouseEvent {
    assert!(r.width > 0 && r.height > 0, "nothing to click in {r:?}");
    mouse(
        MouseEventKind::Down(MouseButton::Left),
        r.x + r.width / 2,
        r.y + r.height / 2,
    )
}

/// A left click on the cell (`x`, `y`).
pub fn click_at(x: u16, y: u16) -> MouseEvent {
    mouse(MouseEventKind::Down(MouseButton::Left), x, y)
}

/// One notch of the wheel over the middle of `r`.
pub fn wheel_in(r: Rect, down: bool) -> MouseEvent {
    assert!(r.width > 0 && r.height > 0, "nothing to scroll in {r:?}");
    let kind = if down {
        MouseEventKind::ScrollDown
    } else {
        MouseEventKind::ScrollUp
    };
    mouse(kind, r.x + r.width / 2, r.y + r.height / 2)
}

/// True when every cell of row `y` between `x0` and `x1` (exclusive) is drawn reversed.
pub fn reversed(buf: &ratatui::buffer::Buffer, y: u16, x0: u16, x1: u16) -> bool {
    (x0..x1).all(|x| buf[(x, y)].modifier.contains(Modifier::REVERSED))
}
