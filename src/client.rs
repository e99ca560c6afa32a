//! HTTP client (placeholder).
