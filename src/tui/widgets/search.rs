//! The one search of the workbench: a regex typed in a prompt, matches highlighted where the
//! text is drawn, Enter / Down to the next match and Up to the previous one (both wrap around),
//! Esc closes, and "n of m" says where the current match is. The body editor and the response
//! pane are both [`Searchable`]; their keys, messages and counter are this module's.

use crossterm::event::{KeyCode, KeyEvent};

use super::line_input::LineInput;

/// Matches counted at most (the counter then says "n of 100000+"): counting is a pass over the
/// text after each key in the prompt, never per frame.
pub const COUNT_LIMIT: usize = 100_000;

/// Text a search moves through.
pub trait Searchable {
    /// Search for `pattern` from now on (empty: no search); the matches are highlighted where
    /// the text is drawn. A pattern that is not a regex clears the search and says why.
    fn set_search(&mut self, pattern: &str) -> Result<(), regex::Error>;
    /// Move to the next match (the previous one with `back`), the one at the current place
    /// included when `at_current`; wraps around. False when nothing matches.
    fn find(&mut self, back: bool, at_current: bool) -> bool;
    /// Which match is current (from 1) of how many (at most [`COUNT_LIMIT`]); None without a
    /// search or a match.
    fn position(&self) -> Option<(usize, usize)>;
}

/// The search prompt's state: the pattern being typed and where the last move left the
/// current match (counted once per key, drawn every frame).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchBox {
    pub input: LineInput,
    pub at: Option<(usize, usize)>,
}

/// What a key did to the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The prompt stays open; `Some` is a sentence for the status line (no match, a bad regex).
    Open(Option<String>),
    /// Esc: the prompt closed and the highlighting is gone.
    Closed,
}

/// A key in the search prompt, applied to `target`.
pub fn on_key(b: &mut SearchBox, target: &mut impl Searchable, key: &KeyEvent) -> Outcome {
    match key.code {
        KeyCode::Esc => {
            let _ = target.set_search("");
            b.at = None;
            Outcome::Closed
        }
        KeyCode::Enter | KeyCode::Down | KeyCode::Up => {
            let found = target.find(key.code == KeyCode::Up, false);
            b.at = target.position();
            let said = if let Err(e) = regex::bytes::Regex::new(b.input.text()) {
                Some(pattern_error(b.input.text(), &e))
            } else if !found {
                Some(format!("no match for {:?}", b.input.text()))
            } else {
                None
            };
            Outcome::Open(said)
        }
        _ => {
            b.input.edit(key);
            Outcome::Open(as_typed(b, target))
        }
    }
}

/// Pasted text goes into the pattern and is searched at once.
pub fn on_paste(b: &mut SearchBox, target: &mut impl Searchable, text: &str) -> Outcome {
    b.input.insert_str(text);
    Outcome::Open(as_typed(b, target))
}

/// Search for the pattern as it is now, from the current place; or say why it is not a regex.
fn as_typed(b: &mut SearchBox, target: &mut impl Searchable) -> Option<String> {
    let said = match target.set_search(b.input.text()) {
        Ok(()) => {
            target.find(false, true);
            None
        }
        Err(e) => Some(pattern_error(b.input.text(), &e)),
    };
    b.at = target.position();
    said
}

/// "3 of 12", "no match" (a pattern typed), or nothing (no pattern yet).
pub fn counter(b: &SearchBox) -> String {
    match b.at {
        Some((n, m)) if m >= COUNT_LIMIT => format!("{n} of {m}+"),
        Some((n, m)) => format!("{n} of {m}"),
        None if b.input.text().is_empty() => String::new(),
        None => "no match".into(),
    }
}

/// Which match starting at `at` is, from 1, and how many there are in `text` (counted to
/// [`COUNT_LIMIT`]); None when there is none.
pub fn position_in(re: &regex::bytes::Regex, text: &[u8], at: usize) -> Option<(usize, usize)> {
    let mut total = 0;
    let mut current = 0;
    for m in re.find_iter(text).take(COUNT_LIMIT) {
        total += 1;
        if m.start() <= at {
            current = total;
        }
    }
    (total > 0).then_some((current.max(1), total))
}

/// One sentence for a pattern that is not a regex: the regex crate's last line says why.
pub fn pattern_error(pattern: &str, e: &regex::Error) -> String {
    let text = e.to_string();
    let why = text
        .lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty())
        .unwrap_or("")
        .trim_start_matches("error: ");
    format!("the search pattern {pattern:?} is not a valid regex: {why}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_position_counts_matches_up_to_the_current_one() {
        let re = regex::bytes::Regex::new("ab").unwrap();
        assert_eq!(position_in(&re, b"ab ab ab", 0), Some((1, 3)));
        assert_eq!(position_in(&re, b"ab ab ab", 3), Some((2, 3)));
        assert_eq!(position_in(&re, b"ab ab ab", 6), Some((3, 3)));
        assert_eq!(position_in(&re, b"xyz", 0), None);
    }

    #[test]
    fn the_counter_says_n_of_m_no_match_or_nothing() {
        let mut b = SearchBox::default();
        assert_eq!(counter(&b), "");
        b.input.set("x");
        assert_eq!(counter(&b), "no match");
        b.at = Some((2, 7));
        assert_eq!(counter(&b), "2 of 7");
        b.at = Some((1, COUNT_LIMIT));
        assert_eq!(counter(&b), "1 of 100000+");
    }
}
