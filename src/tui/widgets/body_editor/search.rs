//! Search over the whole body (a regex on its bytes; the widget highlights the matches in its
//! window), the body's side of the workbench's one search (`widgets::search`).

use super::chars::next_char;
use super::BodyEditor;

impl BodyEditor {
    /// Set the search pattern (empty: no search). The widget highlights matches in the window.
    /// A pattern that is not a valid regex clears the search (the previous one must not stay
    /// in use while the box shows another).
    pub fn set_search_pattern(&mut self, pattern: &str) -> Result<(), regex::Error> {
        self.search = None;
        let _ = self.ta.set_search_pattern("");
        if pattern.is_empty() {
            return Ok(());
        }
        let re = regex::bytes::Regex::new(pattern)?;
        self.ta.set_search_pattern(pattern)?;
        self.search = Some(re);
        Ok(())
    }

    /// Move to the next match after the cursor (at the cursor too when `at_cursor`), wrapping
    /// around to the top. False when the pattern matches nowhere.
    pub fn search_forward(&mut self, at_cursor: bool) -> bool {
        let Some(re) = &self.search else {
            return false;
        };
        let cur = self.cursor_offset();
        let from = if at_cursor {
            cur
        } else {
            next_char(&self.text, cur)
        };
        let found = re
            .find_at(&self.text, from)
            .or_else(|| re.find(&self.text))
            .map(|m| m.start());
        match found {
            Some(at) => {
                self.show(at);
                true
            }
            None => false,
        }
    }

    /// Move to the previous match before the cursor, wrapping around to the bottom.
    pub fn search_back(&mut self, at_cursor: bool) -> bool {
        let Some(re) = &self.search else {
            return false;
        };
        let cur = self.cursor_offset();
        let limit = if at_cursor { cur + 1 } else { cur };
        let mut before = None;
        let mut last = None;
        for m in re.find_iter(&self.text) {
            if m.start() < limit {
                before = Some(m.start());
            }
            last = Some(m.start());
        }
        match before.or(last) {
            Some(at) => {
                self.show(at);
                true
            }
            None => false,
        }
    }
}

/// The body is searched with the workbench's one search (`widgets::search`): the regex runs
/// over the whole body, the widget highlights the matches in its window.
impl crate::tui::widgets::search::Searchable for BodyEditor {
    fn set_search(&mut self, pattern: &str) -> Result<(), regex::Error> {
        self.set_search_pattern(pattern)
    }
    fn find(&mut self, back: bool, at_current: bool) -> bool {
        if back {
            self.search_back(at_current)
        } else {
            self.search_forward(at_current)
        }
    }
    /// Which match the cursor is on (from 1) of how many the whole body holds.
    fn position(&self) -> Option<(usize, usize)> {
        let re = self.search.as_ref()?;
        crate::tui::widgets::search::position_in(re, &self.text, self.cursor_offset())
    }
}
