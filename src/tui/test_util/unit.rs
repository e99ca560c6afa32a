//! The fixture's helpers only the crate's own unit tests use (the benches and the integration
//! tests build on [`TestApp`] alone).

use crossterm::event::{KeyCode, MouseButton, MouseEvent, MouseEventKind};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::Frame;

use super::*;
use crate::tui::layout::View;

impl TestApp {
    /// A left click on the cell (`x`, `y`).
    pub fn click(&mut self, x: u16, y: u16) -> Vec<Command> {
        self.update(Message::Mouse(click_at(x, y)))
    }

    /// A new terminal size (the screen and the App's idea of it).
    pub fn resize(&mut self, w: u16, h: u16) -> Vec<Command> {
        self.term.backend_mut().resize(w, h);
        self.update(Message::Resize(w, h))
    }

    /// Draw and find `needle` on screen: (column, row) of its first character.
    pub fn find(&mut self, needle: &str) -> Option<(u16, u16)> {
        find_in(&self.lines(), needle)
    }

    /// The demo workbench with a keys file (`crate::tui::user_keys`) holding `text`; `Err` is
    /// the sentence the workbench would say at start.
    pub fn with_keys_file(w: u16, h: u16, text: &str) -> Result<TestApp, String> {
        let keys = crate::tui::user_keys::parse(text, "keys.toml")?;
        let t = TestApp::new(w, h);
        crate::tui::keymap::install(keys);
        Ok(t)
    }

    /// What the signing worker answers for `job` (the fixture's own incremental signer).
    pub fn signer_sign(
        &mut self,
        job: &crate::tui::signing::SignJob,
    ) -> crate::tui::model::SignedView {
        match self.signer.sign(job) {
            Ok(v) => v,
            Err(e) => panic!("signing {job:?}: {e}"),
        }
    }

    /// The rows inside the border of the pane that `area` finds in the drawn state.
    pub fn pane_rows(&mut self, area: impl Fn(&TestApp) -> Rect) -> Vec<String> {
        let a = area(self);
        let lines = self.lines();
        (a.y + 1..a.y + a.height - 1)
            .map(|y| lines[usize::from(y)].clone())
            .collect()
    }

    /// Press PageDown in a pane until it stops moving (at most `max` presses), asserting that
    /// each page starts on a row of the page before (nothing skipped); every row seen. The
    /// pane ends on its last page.
    pub fn page_down_through(
        &mut self,
        max: usize,
        area: impl Fn(&TestApp) -> Rect,
    ) -> Vec<String> {
        let mut seen = self.pane_rows(&area);
        for _ in 0..max {
            let before = self.pane_rows(&area);
            self.press(KeyCode::PageDown);
            let after = self.pane_rows(&area);
            if after == before {
                break;
            }
            // The new page starts on a row of the one before (its last, or, on the last page,
            // one above it).
            let first = after.first().cloned().unwrap_or_default();
            assert!(before.contains(&first), "skipped:\n{before:#?}\n{after:#?}");
            seen.extend(after);
        }
        seen
    }

    /// Draw and panic (showing the screen) unless some row contains `needle`; returns that row.
    pub fn assert_line(&mut self, needle: &str) -> String {
        let lines = self.lines();
        match lines.iter().find(|l| l.contains(needle)) {
            Some(l) => l.clone(),
            None => panic!("{needle:?} is not on screen:\n{}", lines.join("\n")),
        }
    }

    /// Draw and panic (showing the screen) if some row contains `needle`.
    pub fn assert_no_line(&mut self, needle: &str) {
        let lines = self.lines();
        if let Some(l) = lines.iter().find(|l| l.contains(needle)) {
            panic!("{needle:?} is on screen ({l:?}):\n{}", lines.join("\n"));
        }
    }
}

/// A 200 answer (send id 1) whose body is these plain-text lines.
pub fn plain_response(lines: Vec<String>) -> crate::tui::model::ResponseView {
    crate::tui::model::ResponseView {
        id: 1,
        status: 200,
        raw: std::sync::Arc::new(crate::tui::model::FormattedBody { lines, json: false }),
        ..Default::default()
    }
}

/// [`component_buffer`] as text, one line per row.
pub fn component_text<S>(
    w: u16,
    h: u16,
    view: View,
    slot: fn(&mut App) -> &mut S,
    state: &mut S,
) -> String {
    buffer_lines(&component_buffer(w, h, view, slot, state)).join("\n")
}

/// Draw once into a `w`x`h` TestBackend and return the screen as text, one line per row.
pub fn render_text(w: u16, h: u16, draw: impl FnOnce(&mut Frame)) -> String {
    buffer_lines(&render_buffer(w, h, draw)).join("\n")
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
pub fn reversed(buf: &Buffer, y: u16, x0: u16, x1: u16) -> bool {
    (x0..x1).all(|x| buf[(x, y)].modifier.contains(Modifier::REVERSED))
}

/// Where `needle` starts in `rows`: (column in chars, row).
pub fn find_in(rows: &[String], needle: &str) -> Option<(u16, u16)> {
    rows.iter().enumerate().find_map(|(y, r)| {
        r.find(needle)
            .map(|bx| (r[..bx].chars().count() as u16, y as u16))
    })
}

/// A `w`x`h` workbench showing `view`, drawn with `state` in the component's place (`slot`):
/// the state is swapped in for the draw and back out. How a component's own tests draw it: in
/// the area, and with the tabs and status line, the App gives it.
pub fn component_buffer<S>(
    w: u16,
    h: u16,
    view: View,
    slot: fn(&mut App) -> &mut S,
    state: &mut S,
) -> Buffer {
    let mut t = TestApp::new(w, h);
    t.app.view = view;
    std::mem::swap(slot(&mut t.app), state);
    let buf = t.draw().clone();
    std::mem::swap(slot(&mut t.app), state);
    buf
}

fn mouse(kind: MouseEventKind, column: u16, row: u16) -> MouseEvent {
    MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }
}

/// A left click on the cell (`x`, `y`).
pub fn click_at(x: u16, y: u16) -> MouseEvent {
    mouse(MouseEventKind::Down(MouseButton::Left), x, y)
}

impl crate::tui::components::request::RequestState {
    /// The request as the signer sees it, borrowing the fields.
    pub fn signable(&self) -> crate::core::SignableRequest<'_> {
        crate::core::SignableRequest {
            method: self.method.text(),
            path: self.path.text(),
            query: self.query_as_sent(),
            header_prefix: self.prefix.text(),
            timestamp: self.timestamp.text(),
            api_key: self.api_key.text(),
            auth_algo: self.auth_algo.text(),
            content_type: self.content_type.text(),
            body: self.body.bytes(),
        }
    }
}
