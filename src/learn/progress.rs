//! The learner's place in the lesson and scores per exercise level, kept as `learn.json` in the
//! data directory (written atomically; a missing file is a fresh start).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

/// The file name in the data directory.
pub const FILE_NAME: &str = "learn.json";

/// Tried and solved exercises of one level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelScore {
    pub tried: u32,
    pub solved: u32,
}

/// Everything remembered between runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Lesson steps done (the next step to show is this index).
    pub lesson_step: usize,
    /// Scores by level.
    pub scores: BTreeMap<u8, LevelScore>,
    /// The seed of the next exercise (each exercise moves it on).
    pub next_seed: u64,
}

impl Progress {
    /// Count one exercise of `level`.
    pub fn record(&mut self, level: u8, solved: bool) {
        let s = self.scores.entry(level).or_default();
        s.tried += 1;
        s.solved += u32::from(solved);
    }

    /// `level 1: 2/3 solved` lines, one per level tried.
    pub fn score_lines(&self) -> Vec<String> {
        self.scores
            .iter()
            .map(|(l, s)| format!("level {l}: {}/{} solved", s.solved, s.tried))
            .collect()
    }
}

/// The progress file in `data_dir`.
pub fn path(data_dir: &Path) -> PathBuf {
    data_dir.join(FILE_NAME)
}

/// Read the progress; a missing file is a fresh start.
pub fn load(data_dir: &Path) -> anyhow::Result<Progress> {
    let p = path(data_dir);
    match std::fs::read(&p) {
        Ok(bytes) => serde_json::from_slice(&bytes).with_context(|| {
            format!(
                "the lesson progress file {} is not valid; delete it to start again",
                p.display()
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Progress::default()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", p.display())),
    }
}

/// Write the progress atomically, private to the user.
pub fn save(data_dir: &Path, progress: &Progress) -> anyhow::Result<()> {
    // Private like every directory signscope creates (`store::private`).
    crate::store::private::create_private_dir(data_dir)
        .with_context(|| format!("cannot create the data directory {}", data_dir.display()))?;
    let json = serde_json::to_vec_pretty(progress)?;
    crate::store::profile::write_atomic(&path(data_dir), &json, 0o600)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_survives_a_save_and_a_missing_file_is_a_fresh_start() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path()).unwrap(), Progress::default());
        let mut p = Progress {
            lesson_step: 4,
            next_seed: 9,
            ..Progress::default()
        };
        p.record(1, true);
        p.record(1, false);
        p.record(2, true);
        save(dir.path(), &p).unwrap();
        assert_eq!(load(dir.path()).unwrap(), p);
        assert_eq!(
            p.score_lines(),
            ["level 1: 1/2 solved", "level 2: 1/1 solved"]
        );
    }

    #[test]
    fn a_broken_file_is_one_sentence_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(path(dir.path()), "{").unwrap();
        let err = format!("{:#}", load(dir.path()).unwrap_err());
        assert!(
            err.contains("learn.json") && err.contains("not valid"),
            "{err}"
        );
    }
}
