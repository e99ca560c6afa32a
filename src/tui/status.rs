//! The message log: every status message of the workbench, kept in full (the status line shows
//! only the latest, cut to the width; Alt-M shows them all).

/// How many status messages the message log keeps.
pub const LOG_MESSAGES: usize = 100;

/// The last [`LOG_MESSAGES`] status messages of every view, in full (the status line and a
/// view's footer show only the latest, cut to the width).
#[derive(Clone, Debug, Default)]
pub struct MessageLog {
    messages: std::collections::VecDeque<String>,
    /// The last text seen from each source, so a message is logged once when it appears.
    seen: Vec<String>,
}

impl MessageLog {
    /// Log the current text of source `i` when it is new and not empty.
    pub fn observe(&mut self, i: usize, text: &str) {
        if self.seen.len() <= i {
            self.seen.resize(i + 1, String::new());
        }
        if text.is_empty() || self.seen[i] == text {
            return;
        }
        self.seen[i] = text.to_string();
        self.push(text.to_string());
    }

    pub fn push(&mut self, text: String) {
        if self.messages.len() == LOG_MESSAGES {
            self.messages.pop_front();
        }
        self.messages.push_back(text);
    }

    /// Oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &String> {
        self.messages.iter()
    }

    pub fn len(&self) -> usize {
        self.messages.len()
    }

    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
}
