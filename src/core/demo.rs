//! The demo account of the local server and of the built-in `demo` profile (`docs/server.md`
//! rule R9). In the core so that the store (the demo profile's key) and the server (its account)
//! share it without importing each other.

/// The demo account's public API key (printed by `signscope serve --demo`).
pub const DEMO_API_KEY: &str = "demo-public-key";
/// The demo account's REST key. It is a demo-only secret, published on purpose so the offline
/// demo works with no setup; never use it for a real account.
pub const DEMO_REST_KEY: &str = "demo-rest-key-0123456789";
