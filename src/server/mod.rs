//! server (placeholder; see the issues).
