//! Shared helpers for TestBackend draw tests.

use ratatui::backend::TestBackend;
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
