//! store (placeholder; see the issues).
