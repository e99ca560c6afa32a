//! What signscope keeps on disk: profiles (TOML, one file each, atomic writes), where the REST
//! key comes from (environment, file, command, or stored on request), and the history of sends.
//!
//! Everything here is blocking `std::fs`; async callers run it on a blocking thread.

pub(crate) mod atomic;
mod error;
pub mod history;
pub(crate) mod io;
pub mod os_store;
pub mod paths;
pub mod private;
pub mod profile;
mod profile_data;
mod profile_toml;
pub mod secret_source;
pub mod suite_export;

pub use history::{History, HistoryEntry, RecordedRequest, RecordedResponse, RecordedTimings};
pub(crate) use io::io_reason;
pub use paths::{Paths, PathsError};
pub use profile::{
    LoadReport, Origin, ParseError, Profile, ProfileStore, Requests, SaveOptions, SaveOutcome,
    SavedRequest, StoreError, DEFAULT_REQUEST, DEMO_PROFILE, EMBEDDED_URL, SCHEMA_VERSION,
};
pub use secret_source::{KeyError, KeySource, RefError};
