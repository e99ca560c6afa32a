//! The engine's errors.

use super::outgoing::BuildError;
use crate::client::ClientError;
use crate::store::{KeyError, PathsError, StoreError};

/// Why the engine could not do what was asked, in one sentence.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("several profiles exist ({names}); choose one with --profile NAME")]
    ChooseProfile { names: String },
    #[error(transparent)]
    Paths(#[from] PathsError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("profile \"{profile}\" has no usable REST key: {reason}")]
    Key { profile: String, reason: KeyError },
    #[error("the local server could not start on 127.0.0.1: {reason}")]
    Server { reason: String },
    #[error(transparent)]
    Build(#[from] BuildError),
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error("{0}")]
    Runtime(String),
}
