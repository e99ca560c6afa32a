//! HAR (HTTP Archive 1.2): the format browsers' DevTools, mitmproxy, Charles, Proxyman,
//! Fiddler, Postman and Insomnia save captured traffic in (`docs/har.md`).
//!
//! [`read`] reads one entry at a time from a file of any size; [`write`] writes the documents
//! signscope hands on. Pure: bytes and deserializers in, values and writers out.

pub mod read;
pub mod write;

pub use read::{
    looks_like_json, read_har, read_har_slice, split_url, BadEntry, DecodedBody, EntryView,
    HarError, HarLog, UrlParts,
};
pub use write::{headers_for_export, Exchange, ExchangeResponse, HarWriter, Timings};
