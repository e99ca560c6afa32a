//! The store's errors: each reads as one sentence naming the file or profile.

use std::path::{Path, PathBuf};

use super::io::io_reason;
use crate::core::visible::line_col;

/// A profile file that could not be read, with where the problem is (1-based; 0 = unknown).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{} is not valid: {message}", path.display(), location(*line, *column))]
pub struct ParseError {
    pub path: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

fn location(line: usize, column: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(" line {line} column {column}")
    }
}

impl ParseError {
    pub(crate) fn from_toml(path: &Path, text: &str, e: &toml::de::Error) -> Self {
        let (line, column) = match e.span() {
            Some(span) => line_col(text, span.start),
            None => (0, 0),
        };
        ParseError {
            path: path.to_path_buf(),
            line,
            column,
            message: e.message().trim().to_string(),
        }
    }
}

/// Errors of the profile store; each reads as one sentence naming the file or profile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    #[error("\"{name}\" is not a usable profile name: use 1-64 letters, digits, '.', '_' or '-' (not starting with '.')")]
    BadName { name: String },
    #[error("the demo profile is built in and cannot be saved or deleted; create a new profile with `signscope profile new NAME --from demo`")]
    DemoIsBuiltIn,
    #[error("there is no profile named \"{name}\" (looked for {})", path.display())]
    NotFound { name: String, path: PathBuf },
    #[error("the profile file {0}")]
    Parse(ParseError),
    #[error("the profile file {} changed on disk since it was loaded, so nothing was written; save under another name, or load the profile again to take the other edit", path.display())]
    Conflict { path: PathBuf },
    #[error("a profile file {} already exists, so nothing was written; choose another name, or delete that profile first", path.display())]
    AlreadyExists { path: PathBuf },
    #[error("the profile file {} was deleted since it was opened, so nothing was written (a save does not bring a deleted profile back); save under a name to keep the edits", path.display())]
    DeletedMeanwhile { path: PathBuf },
    #[error("a profile named \"{name}\" was created meanwhile ({}), so nothing was written; choose another name, or load that profile", path.display())]
    CreatedMeanwhile { name: String, path: PathBuf },
    #[error("\"{name}\" is not a usable request name: use 1-64 letters, digits, spaces, '.', '_', '-' or '/' (not starting or ending with a space)")]
    BadRequestName { name: String },
    #[error("profile \"{profile}\" has no request named \"{name}\"; its requests are: {known}")]
    UnknownRequest {
        profile: String,
        name: String,
        known: String,
    },
    #[error("profile \"{profile}\" already has a request named \"{name}\"; choose another name")]
    RequestExists { profile: String, name: String },
    #[error("\"{name}\" is the only request of profile \"{profile}\" and cannot be deleted; a profile keeps at least one request")]
    LastRequest { profile: String, name: String },
    #[error("profile \"{profile}\", request \"{request}\": cannot read the body file {}: {reason}", path.display())]
    BodyFile {
        profile: String,
        request: String,
        path: PathBuf,
        reason: String,
    },
    #[error("cannot {action} {}: {reason}", path.display())]
    Io {
        action: &'static str,
        path: PathBuf,
        reason: String,
    },
}

impl StoreError {
    pub(crate) fn io(action: &'static str, path: &Path, e: &std::io::Error) -> Self {
        StoreError::Io {
            action,
            path: path.to_path_buf(),
            reason: io_reason(e),
        }
    }
}
