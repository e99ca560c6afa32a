//! Plain data that crosses the workbench's layers: the request the editor holds, a signing
//! result, a response as the request view shows it. No behaviour beyond construction.

use std::sync::Arc;

use crate::core::{RequestSpec, Secret, SignedRequest};

/// Where the REST key came from (shown next to the masked key; never the key itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyInfo {
    pub secret: Secret,
    /// e.g. "demo key", "env SIGNSCOPE_KEY", "typed (not saved)".
    pub source: String,
    pub revealed: bool,
}

/// The profile the workbench edits and sends with, as the workbench sees it: one owner, the
/// App (`App::profile`), set by the router when a profile loads, is saved under a name or is
/// renamed; the views read it through what `update` and `draw` are given. (The runtime's
/// `Session` holds the profile the engine sends with, on the other side of the effects.)
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CurrentProfile {
    pub name: String,
    /// The built-in demo profile: read-only, saved only under a new name.
    pub is_demo: bool,
}

/// A profile loaded by the runtime, as the router hands it to the views.
#[derive(Clone, Debug)]
pub struct LoadedProfile {
    pub name: String,
    pub is_demo: bool,
    /// The collector base URL (the embedded server's for the demo) and whether it is local.
    pub analytics_url: String,
    pub local: bool,
    /// The last edited event batch.
    pub events: Option<String>,
    /// The profile itself (for the profile manager).
    pub profile: Option<Box<crate::store::Profile>>,
    /// The request to edit (the body moved from the profile, not copied).
    pub request: EditorRequest,
    pub key: Option<Secret>,
    pub key_source: String,
    /// The key source to read off the UI thread (an environment variable, a file, a command):
    /// `key` is None until the runtime answers with `RequestMsg::KeyResolved`.
    pub key_to_read: Option<crate::store::KeySource>,
}

/// The request the editor is loaded with or holds: the one request model of the core
/// ([`RequestSpec`], body shared, never copied) and what is not part of the request, the base
/// URL it goes to. The REST key is apart ([`KeyInfo`]), as in the core's `SigningParams`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditorRequest {
    /// `http(s)://host[:port]`, as typed (a profile's indexing URL, resolved).
    pub url: String,
    pub spec: RequestSpec,
}

/// The demo request's body: one record (a CMS page) the vendor's SDK would send, short enough
/// for one line of the signing text (`docs/indexing-bodies.md`): the demo shows no body problem.
pub const DEMO_BODY: &str = r#"[{"id": "about-us", "type": "KLEVU_CMS"}]"#;

impl EditorRequest {
    /// The demo request (PUT /v2/batch, the demo API key, a one-item body) sent to `url`.
    pub fn demo(url: &str) -> Self {
        EditorRequest {
            url: url.to_string(),
            spec: RequestSpec {
                api_key: crate::core::demo::DEMO_API_KEY.into(),
                body: bytes::Bytes::from_static(DEMO_BODY.as_bytes()),
                ..RequestSpec::default()
            },
        }
    }
}

/// The result of a signing job: the request signed as the engine would send it now. Every
/// view of the request reads this one value (`docs/signing.md`, "One signed value"): the
/// canonical panel, the signature line, the pipeline, the headers, the status-line URL, every
/// copy, the generated code, the diff, and the send, which sends it as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedView {
    pub request: Arc<SignedRequest>,
    /// The revision of the editor's body that was signed.
    pub body_rev: u64,
    /// The line index of the signed body (its lines are read through it, never the editor's).
    pub body_marks: crate::tui::widgets::body_editor::LineMarks,
}

impl std::ops::Deref for SignedView {
    type Target = SignedRequest;
    fn deref(&self) -> &SignedRequest {
        &self.request
    }
}

/// A formatted response body, prepared off the draw path: the lines to draw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FormattedBody {
    pub lines: Vec<String>,
    /// True when the text is pretty-printed JSON (so the view highlights it).
    pub json: bool,
}

/// A response as the view shows it.
#[derive(Clone, Debug, Default)]
pub struct ResponseView {
    /// The send this answers.
    pub id: u64,
    pub status: u16,
    pub elapsed_ms: f64,
    pub headers: Vec<(String, String)>,
    pub body_len: usize,
    /// Raw body text split into lines (shown until the formatted text is ready).
    pub raw: Arc<FormattedBody>,
    pub formatted: Option<Arc<FormattedBody>>,
    pub scroll: usize,
    /// When the server said SIGNATURE_MISMATCH and carried its canonical text.
    pub mismatch: Option<MismatchView>,
    /// The job id the server gave (for accepted batches).
    pub job_id: Option<String>,
    /// The error code from the error body, if any.
    pub code: Option<String>,
    pub message: Option<String>,
    /// The problems the answer lists (an indexing body's or an event batch's), when it lists
    /// any.
    pub problems: Option<Arc<AnswerProblems>>,
    /// What the user should know besides the answer (the server's clock far off, the send not
    /// recorded in the history).
    pub warnings: Vec<String>,
    /// The request this answers, as the engine put it on the wire (`None` when unknown).
    pub sent: Option<Arc<SentView>>,
}

/// The problems an answer lists, one line each, and how many more it counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnswerProblems {
    pub lines: Vec<String>,
    pub more: usize,
}

/// A request as it went on the wire, from the engine's record of the send (never rebuilt from
/// the fields, which may have changed since): what the "as sent" view of the response shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SentView {
    /// The signature sent: the server's verdict belongs to it, not to the signature computed
    /// since (a live timestamp re-signs every second).
    pub signature: String,
    pub method: String,
    /// The full URL, `?query` included.
    pub url: String,
    /// The headers the engine set, in the order it set them, values as sent.
    pub headers: Vec<(String, String)>,
    /// The body's exact bytes.
    pub body: bytes::Bytes,
    /// The body's lines as shown: split at LF, bytes that are not UTF-8 as `\xNN` and what
    /// would act on the terminal escaped (`core::visible::escape_hidden`), built once.
    pub lines: Arc<FormattedBody>,
}

impl SentView {
    pub fn new(
        signature: String,
        method: String,
        url: String,
        headers: Vec<(String, String)>,
        body: bytes::Bytes,
    ) -> SentView {
        use crate::core::visible::{escape_hidden, utf8_or_escaped};
        let text = utf8_or_escaped(&body);
        let lines = if body.is_empty() {
            Vec::new()
        } else {
            text.split('\n').map(escape_hidden).collect()
        };
        SentView {
            signature,
            method,
            url,
            headers,
            body,
            lines: Arc::new(FormattedBody { lines, json: false }),
        }
    }
}

/// What we signed next to what the server signed, with the diagnosis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MismatchView {
    /// Our canonical text, visible lines.
    pub ours: Vec<String>,
    /// The server's canonical text, visible lines.
    pub theirs: Vec<String>,
    pub diagnosis: Option<String>,
}

/// A request from elsewhere (a past send, a captured request, a Traffic record) for the request
/// editor, its timestamp frozen to `timestamp`; `what` names it (in the unsaved-edits question,
/// then in the status line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestLoad {
    pub request: Box<EditorRequest>,
    pub timestamp: String,
    pub what: String,
    /// Said with the load, once it is done (what of the original is not reproduced).
    pub note: Option<String>,
}

/// Something that replaces what the request editor holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PendingLoad {
    /// Switch to the profile of this name (the runtime reads it).
    Profile(String),
    /// A request from elsewhere.
    Request(RequestLoad),
    /// A batch for the Events view (a file opened there, a history entry's batch): it
    /// replaces the batch being edited, so it asks while that one is unsaved.
    Batch {
        text: String,
        /// The file it was read from (the view remembers it for the next open and save).
        path: Option<std::path::PathBuf>,
        what: String,
    },
}

impl PendingLoad {
    /// What is about to be loaded, for the question: "profile prod", "the history entry".
    pub fn describe(&self) -> String {
        match self {
            PendingLoad::Profile(name) => format!("profile {name}"),
            PendingLoad::Request(RequestLoad { what, .. }) | PendingLoad::Batch { what, .. } => {
                what.clone()
            }
        }
    }
}
