//! The lesson view's effects: its progress file, shared with `signscope learn` (`learn.json`
//! in the data directory).

use super::Effects;
use crate::tui::components::lesson::{LessonEffect, LessonMsg};
use crate::tui::message::Message;

impl Effects {
    /// The lesson's progress file, shared with `signscope learn` (`learn.json` in the data
    /// directory).
    pub(super) fn lesson_effect(&mut self, e: LessonEffect) {
        let dir = crate::store::Paths::discover().map(|p| p.data_dir);
        match e {
            LessonEffect::LoadProgress => {
                let result = dir
                    .map_err(|e| e.to_string())
                    .and_then(|d| crate::learn::progress::load(&d).map_err(|e| format!("{e:#}")));
                let _ = self
                    .tx
                    .send(Message::Lesson(LessonMsg::ProgressLoaded(result)));
            }
            LessonEffect::SaveProgress(p) => {
                let saved = dir.map_err(|e| e.to_string()).and_then(|d| {
                    crate::learn::progress::save(&d, &p).map_err(|e| format!("{e:#}"))
                });
                if let Err(e) = saved {
                    tracing::debug!(error = %e, "lesson progress not saved");
                    let _ = self.tx.send(Message::Lesson(LessonMsg::SaveFailed(e)));
                }
            }
            LessonEffect::Status(_) => {}
        }
    }
}
