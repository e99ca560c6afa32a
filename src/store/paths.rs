//! Where signscope keeps its files: the config dir (profiles) and the data dir (history, state).
//!
//! Locations come from `directories::ProjectDirs`; `SIGNSCOPE_CONFIG_DIR` and `SIGNSCOPE_DATA_DIR`
//! override them (tests and portable setups use these).

use std::path::{Path, PathBuf};

/// Environment variable that overrides the config dir.
pub const CONFIG_DIR_ENV: &str = "SIGNSCOPE_CONFIG_DIR";
/// Environment variable that overrides the data dir.
pub const DATA_DIR_ENV: &str = "SIGNSCOPE_DATA_DIR";

/// The two directories signscope writes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paths {
    /// Profiles live in `<config_dir>/profiles/<name>.toml`.
    pub config_dir: PathBuf,
    /// History (`history.jsonl`) and small state (`state.toml`).
    pub data_dir: PathBuf,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PathsError {
    #[error(
        "no home directory was found to keep profiles in; set {CONFIG_DIR_ENV} and {DATA_DIR_ENV}"
    )]
    NoHome,
    #[error("{var} is set but empty; give it a directory path or unset it")]
    EmptyOverride { var: &'static str },
}

impl Paths {
    /// Explicit locations (tests, `--config-dir`-like uses).
    pub fn new(config_dir: impl Into<PathBuf>, data_dir: impl Into<PathBuf>) -> Self {
        Paths {
            config_dir: config_dir.into(),
            data_dir: data_dir.into(),
        }
    }

    /// The platform directories, with the environment overrides applied.
    pub fn discover() -> Result<Paths, PathsError> {
        let config = override_dir(CONFIG_DIR_ENV)?;
        let data = override_dir(DATA_DIR_ENV)?;
        if let (Some(c), Some(d)) = (&config, &data) {
            return Ok(Paths::new(c, d));
        }
        let dirs = directories::ProjectDirs::from("", "", "signscope").ok_or(PathsError::NoHome)?;
        Ok(Paths {
            config_dir: config.unwrap_or_else(|| dirs.config_dir().to_path_buf()),
            data_dir: data.unwrap_or_else(|| dirs.data_dir().to_path_buf()),
        })
    }

    /// The directory holding one TOML file per profile.
    pub fn profiles_dir(&self) -> PathBuf {
        self.config_dir.join("profiles")
    }

    /// The file of one profile.
    pub fn profile_file(&self, name: &str) -> PathBuf {
        self.profiles_dir().join(format!("{name}.toml"))
    }

    /// The history file (JSON lines).
    pub fn history_file(&self) -> PathBuf {
        self.data_dir.join("history.jsonl")
    }

    /// Small state kept between runs (last used profile).
    pub fn state_file(&self) -> PathBuf {
        self.data_dir.join("state.toml")
    }
}

fn override_dir(var: &'static str) -> Result<Option<PathBuf>, PathsError> {
    match std::env::var_os(var) {
        None => Ok(None),
        Some(v) if v.is_empty() => Err(PathsError::EmptyOverride { var }),
        Some(v) => Ok(Some(Path::new(&v).to_path_buf())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_locations() {
        let p = Paths::new("/c", "/d");
        assert_eq!(
            p.profile_file("work"),
            PathBuf::from("/c/profiles/work.toml")
        );
        assert_eq!(p.history_file(), PathBuf::from("/d/history.jsonl"));
        assert_eq!(p.state_file(), PathBuf::from("/d/state.toml"));
    }
}
