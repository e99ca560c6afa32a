//! The message log: every status message of the workbench, kept in full (the status line shows
//! only the latest, cut to the width; Alt-M shows them all).

/// How many status messages the message log keeps.
pub const LOG_MESSAGES: usize = 100;

/// The last [`LOG_MESSAGES`] status messages of every view, in full (the status line shows
/// only the latest, cut to the width).
#[derive(Clone, Debug, Default)]
pub struct MessageLog {
    messages: std::collections::VecDeque<String>,
}

impl MessageLog {
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
