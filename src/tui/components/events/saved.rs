//! What the profile holds of the events view: the batch's revision saved with it and the
//! analytics URL, whether either was edited since, and the save under way that carries them.

use super::state::EventsState;

impl EventsState {
    /// The batch's revision: changes with every edit of the form, the items or the raw text.
    pub fn rev(&self) -> u64 {
        self.rev
    }

    /// Whether the batch or the analytics URL differs from what the profile holds (asked
    /// about before quitting or loading another profile; saved with the profile).
    pub fn unsaved(&self) -> bool {
        self.batch_unsaved() || self.url_unsaved()
    }

    /// Whether the batch differs from the one the profile holds (a load into the view would
    /// replace it).
    pub fn batch_unsaved(&self) -> bool {
        self.rev != self.saved_rev
    }

    fn url_unsaved(&self) -> bool {
        self.analytics_url.text().trim() != self.saved_url.trim()
    }

    /// The batch and the analytics URL as the profile now holds them (loaded with it, or just
    /// saved to it).
    pub fn mark_saved(&mut self) {
        self.saved_rev = self.rev;
        self.saving_rev = None;
        self.saved_url = self.analytics_url.text().to_string();
        self.saving_url = None;
    }

    /// The analytics URL to save with the profile when it was edited (the save under way
    /// carries it).
    pub fn url_to_save(&mut self) -> Option<String> {
        if !self.url_unsaved() {
            self.saving_url = None;
            return None;
        }
        let url = self.analytics_url.text().trim().to_string();
        self.saving_url = Some(url.clone());
        Some(url)
    }

    /// The batch text to save with the profile when it has unsaved edits (the save under way
    /// carries this revision).
    pub fn batch_to_save(&mut self) -> Option<String> {
        if !self.batch_unsaved() {
            self.saving_rev = None;
            return None;
        }
        self.ensure_current();
        self.saving_rev = Some(self.rev);
        Some(self.preview.clone())
    }

    /// The profile save finished: a batch it carried is the profile's now.
    pub fn on_profile_saved(&mut self, ok: bool) {
        if let (true, Some(rev)) = (ok, self.saving_rev) {
            self.saved_rev = rev;
        }
        if let (true, Some(url)) = (ok, self.saving_url.take()) {
            self.saved_url = url;
        }
        self.saving_rev = None;
        self.saving_url = None;
    }
}
