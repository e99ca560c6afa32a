//! The request view's state: the fields, the body editor, the signing and response state, the
//! profile being edited and the open prompt.

use std::path::PathBuf;

use chrono::{DateTime, Utc};

use crate::core::spec::{query_as_sent, query_as_typed};
use crate::core::time::format_timestamp;
use crate::core::RequestSpec;
use crate::core::{LineLabel, Secret, SigningForm};
use crate::store::DEFAULT_REQUEST;
use crate::tui::model::{EditorRequest, KeyInfo, ResponseView, SignedView};
use crate::tui::widgets::body_editor::BodyEditor;
use crate::tui::widgets::search::SearchBox;
use crate::tui::widgets::LineInput;

/// The editable fields of the request view, in Tab order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    Url,
    Method,
    Path,
    Query,
    Prefix,
    ApiKey,
    RestKey,
    ContentType,
    AuthAlgo,
    Timestamp,
    Body,
}

impl Field {
    pub const ALL: [Field; 11] = [
        Field::Url,
        Field::Method,
        Field::Path,
        Field::Query,
        Field::Prefix,
        Field::ApiKey,
        Field::RestKey,
        Field::ContentType,
        Field::AuthAlgo,
        Field::Timestamp,
        Field::Body,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Field::Url => "URL",
            Field::Method => "Method",
            Field::Path => "Path",
            Field::Query => "Query",
            Field::Prefix => "Prefix",
            Field::ApiKey => "API key",
            Field::RestKey => "REST key",
            Field::ContentType => "Content-T",
            Field::AuthAlgo => "Algorithm",
            Field::Timestamp => "Timestamp",
            Field::Body => "Body",
        }
    }

    /// The canonical lines this field produces (highlighted while it has focus).
    pub fn canonical_lines(self) -> &'static [LineLabel] {
        match self {
            Field::Url | Field::RestKey => &[],
            Field::Method => &[LineLabel::Method],
            Field::Path => &[LineLabel::Path],
            Field::Query => &[LineLabel::Query],
            Field::Prefix => &[LineLabel::Timestamp, LineLabel::ApiKey, LineLabel::AuthAlgo],
            Field::ApiKey => &[LineLabel::ApiKey],
            Field::ContentType => &[LineLabel::ContentType],
            Field::AuthAlgo => &[LineLabel::AuthAlgo],
            Field::Timestamp => &[LineLabel::Timestamp],
            Field::Body => &[LineLabel::Body],
        }
    }

    pub fn next(self) -> Field {
        crate::tui::widgets::cycle(&Field::ALL, self, false)
    }
    pub fn prev(self) -> Field {
        crate::tui::widgets::cycle(&Field::ALL, self, true)
    }
}

/// The signing state: which job was asked for last, and the latest answer.
#[derive(Clone, Debug, Default)]
pub struct SignState {
    /// Id of the newest job asked for.
    pub requested: u64,
    /// Id of the job the shown result belongs to.
    pub shown: u64,
    pub result: Option<Result<SignedView, String>>,
}

impl SignState {
    /// True while the shown signature is older than the fields.
    pub fn updating(&self) -> bool {
        self.shown != self.requested
    }
}

/// What we know of the body: a shared snapshot of its bytes (the signer reads it on its thread),
/// and the JSON check.
#[derive(Clone, Debug, Default)]
pub struct BodyState {
    /// Bumped on every change of the bytes.
    pub rev: u64,
    /// The first byte that changed since the last signing job (None: nothing changed).
    pub changed_from: Option<usize>,
    /// `Some(message)` when the body is not valid JSON (it is signed anyway).
    pub json_error: Option<String>,
    /// The revision the JSON check belongs to.
    pub json_rev: u64,
    /// What the vendor's SDK would refuse in the body (`docs/indexing-bodies.md`), for the
    /// indexing routes the server judges; judged off the draw path with the JSON check.
    pub problems: Option<Box<crate::core::indexing_body::Judgement>>,
    /// The route the body was last judged for (a new method or path judges it again).
    pub judged_for: Option<crate::core::indexing_body::BodyKind>,
}

/// The detail panel under the canonical text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    Pipeline,
    Headers,
    Response,
    Diff,
}

impl Detail {
    pub const ALL: [Detail; 4] = [
        Detail::Pipeline,
        Detail::Headers,
        Detail::Response,
        Detail::Diff,
    ];
    pub fn title(self) -> &'static str {
        match self {
            Detail::Pipeline => "Pipeline",
            Detail::Headers => "Headers",
            Detail::Response => "Response",
            Detail::Diff => "Diff",
        }
    }
}

/// What the search prompt searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchIn {
    Body,
    /// The Response panel: the answer, or the exchange as sent (`response_pane.rs`).
    Response,
}

/// What the Response panel shows, as a key: (the response's send id, formatted, as sent). A
/// search found in other text is not drawn over this one.
pub type PaneKey = (u64, bool, bool);

/// The search over the Response panel's text (`response_pane.rs`): every match (line, byte
/// range in it), in order, and the current one.
#[derive(Clone, Debug, Default)]
pub struct PaneSearch {
    pub(super) re: Option<regex::bytes::Regex>,
    pub(super) matches: Vec<(usize, std::ops::Range<usize>)>,
    pub(super) current: Option<usize>,
    /// The text the matches were found in.
    pub(super) key: Option<PaneKey>,
}

/// A prompt of the request view, drawn over it and taking its keys until closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prompt {
    /// Type a name to save the profile as.
    SaveAs(LineInput),
    /// Search the body, or the Response panel (`widgets::search`).
    Search(SearchIn, SearchBox),
    /// Type a name for a new, copied or renamed request of the profile.
    RequestName { action: NameAction, edit: LineInput },
    /// Delete the selected request? (y)
    DeleteRequest,
    /// The REST key was typed: store it in the profile file, keep the profile's key source, or
    /// cancel the save (`key_choice.rs`).
    KeyChoice(KeyChoice),
}

/// One request of the profile as the workbench holds it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    /// Its values while another request is in the editor (the selected entry's are stale: the
    /// editor has them). The prefix and API key are the account's (the editor's fields).
    pub spec: RequestSpec,
    pub body_file: Option<PathBuf>,
    /// The form it is signed in (the editor's `form` for the selected entry).
    pub form: SigningForm,
    /// Edits not saved yet.
    pub dirty: bool,
}

/// The requests of the profile being edited, in order, and the one in the editor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestsList {
    pub entries: Vec<Entry>,
    pub selected: usize,
    /// Added, copied, renamed, deleted or moved since the profile was loaded or saved.
    pub changed: bool,
}

impl Default for RequestsList {
    fn default() -> Self {
        RequestsList {
            entries: vec![Entry {
                name: DEFAULT_REQUEST.to_string(),
                ..Entry::default()
            }],
            selected: 0,
            changed: false,
        }
    }
}

/// What a name prompt of the list does with the name typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameAction {
    Add,
    Duplicate,
    Rename,
}

impl NameAction {
    pub fn title(self) -> &'static str {
        match self {
            NameAction::Add => " New request ",
            NameAction::Duplicate => " Copy the request as ",
            NameAction::Rename => " Rename the request ",
        }
    }
}

impl RequestsList {
    /// The list of a loaded profile; the selected request's body is in the editor, not here.
    pub fn of_profile(p: &crate::store::Profile) -> RequestsList {
        RequestsList {
            entries: p
                .requests()
                .iter()
                .map(|r| Entry {
                    name: r.name.clone(),
                    spec: r.spec.clone(),
                    body_file: r.body_file.clone(),
                    form: r.form,
                    dirty: false,
                })
                .collect(),
            selected: p.selected_index(),
            changed: false,
        }
    }

    /// Whether a request other than the editor's, or the list itself, has unsaved changes.
    pub fn unsaved(&self) -> bool {
        self.changed
            || self
                .entries
                .iter()
                .enumerate()
                .any(|(i, e)| i != self.selected && e.dirty)
    }

    /// The signing form of the selected request.
    pub fn selected_form(&self) -> SigningForm {
        self.entries
            .get(self.selected)
            .map_or(SigningForm::Standard, |e| e.form)
    }

    pub fn selected_name(&self) -> &str {
        self.entries
            .get(self.selected)
            .map_or(DEFAULT_REQUEST, |e| e.name.as_str())
    }

    pub fn position(&self, name: &str) -> Option<usize> {
        self.entries.iter().position(|e| e.name == name)
    }
}

/// The methods offered when cycling with Up/Down on the method field.
pub const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// The save waiting for the user's choice about the typed key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyChoice {
    /// The profile name to save under.
    pub name: String,
    /// A save under a new name (Alt-S): a new file, whatever the current one became.
    pub as_new: bool,
}

/// What the choice does to the key, applied once the save succeeded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyOutcome {
    /// The typed key is now the profile's key, stored in its file.
    Stored,
    /// The typed key is now the profile's key, kept in the operating system's key store under
    /// this account of the `signscope` service.
    OsStore { account: String },
    /// The typed key was dropped: the editor goes back to the key of the profile's source.
    Dropped,
}

/// The label of the REST key field while the key is being read (`key_read.rs`).
pub const RESOLVING: &str = "resolving the REST key… Esc cancels";

/// The key source label of a key typed in the workbench.
pub const TYPED_KEY: &str = "typed (not saved)";

/// All state of the request view.
/// The profile it edits is not held here: the App owns it (`CurrentProfile`), and `update`
/// is given it.
pub struct RequestState {
    /// Edits of the request in the editor since it was loaded or saved (the other requests'
    /// are in `requests`; [`RequestState::unsaved`] says whether the profile has any).
    pub dirty: bool,
    /// The profile's named requests; the editor holds the selected one.
    pub requests: RequestsList,

    pub focus: Field,
    /// Normal mode: no field takes text; single keys are shortcuts (q, ?, s, y, ...).
    pub normal_mode: bool,
    pub detail: Detail,
    pub prompt: Option<Prompt>,

    pub url: LineInput,
    pub method: LineInput,
    pub path: LineInput,
    pub query: LineInput,
    pub prefix: LineInput,
    pub api_key: LineInput,
    pub rest_key: LineInput,
    /// Where the key in the REST key field comes from, and whether it is shown. The key itself
    /// is the field's text (`rest_key`, read through [`RequestState::key`]): its one holder.
    pub key_info: KeyLabel,
    pub content_type: LineInput,
    pub auth_algo: LineInput,
    pub timestamp: LineInput,
    /// Live: the timestamp follows the clock (1 s ticks); frozen: the typed value is used.
    pub ts_live: bool,
    /// The form the path and query lines are signed (and sent) in: standard, or the vendor's
    /// PHP SDK form (Alt-F; `docs/signing.md`). Saved with the request.
    pub form: SigningForm,
    /// The body editor; it owns the body bytes (`body.bytes()`), shared with the signer.
    pub body: BodyEditor,
    pub body_state: BodyState,

    /// The last time the runtime told us (ticks). `update` never reads the clock.
    pub now: DateTime<Utc>,

    pub sign: SignState,
    pub response: Option<ResponseView>,
    pub sending: bool,
    /// Id of the send we wait for (answers to older sends are ignored).
    pub pending_send: Option<u64>,
    /// Ctrl-G came while the signature was updating: the request is sent once it is signed
    /// (the send sends the signed request shown, never one signed apart).
    pub send_when_signed: bool,
    next_id: u64,

    /// Scroll offset of the canonical panel (rows), when the body is not focused.
    pub canon_scroll: usize,
    /// The largest useful `canon_scroll` at the last draw (its last line at the pane's bottom):
    /// scrolling keys stop there, so Up works at once after scrolling past the end.
    pub canon_max: std::cell::Cell<usize>,
    pub detail_scroll: usize,
    /// The largest useful `detail_scroll` (the last line at the top), as the last frame found
    /// it: the scroll keys stop there instead of scrolling into a blank panel.
    pub detail_max: std::cell::Cell<usize>,
    /// The Response panel shows the request as the engine sent it for that response, not the
    /// answer (`response_pane.rs`).
    pub show_sent: bool,
    /// The search over the Response panel's text.
    pub pane_search: PaneSearch,
    /// How far PageDown / PageUp move the detail panel, as the last frame found it: the lines
    /// wholly on screen less one (the last of them tops the next page, so nothing is skipped).
    pub detail_page: std::cell::Cell<usize>,
    /// What the view said while handling the current message: emptied at the end of every
    /// `update` into its one `RequestEffect::Status` (the workbench's one status channel),
    /// never drawn or read anywhere else. It stays a field, private to the view, because the
    /// view's helpers in four files say things from inside calls that return other values
    /// (a changed flag, a key-read id); making each of them return what it says is a larger
    /// change than this outbox.
    pub(super) status: String,
    /// Why the profile's REST key source gave no key (an unset environment variable, an
    /// unreadable file...): said instead of "the key is empty" until a key is typed.
    pub key_error: Option<String>,
    /// The key the profile's source gave (or why not): what a typed key is compared with, so
    /// the label follows the truth when the field is edited back to it (undo included).
    pub profile_key: ProfileKey,
    /// The REST key is being read from the profile's source off the UI thread (this job id);
    /// Esc cancels.
    pub key_resolving: Option<u64>,
    /// What the key choice of the save under way does, applied and said once it succeeds.
    pub key_choice_made: Option<KeyOutcome>,
}

/// What the REST key field's label says: where its key comes from, and whether it is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyLabel {
    /// e.g. "demo key", "environment variable SHOP_KEY", "typed (not saved)".
    pub source: String,
    pub revealed: bool,
}

/// The REST key as the profile's source gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileKey {
    pub secret: Secret,
    /// The source's description (`environment variable SHOP_KEY`, `command `pass ...``).
    pub source: String,
    /// Why the source gave no key.
    pub error: Option<String>,
}

impl RequestState {
    pub fn new(request: EditorRequest, key: KeyInfo, now: DateTime<Utc>) -> Self {
        let mut req = RequestState {
            dirty: false,
            requests: Default::default(),
            focus: Field::Body,
            normal_mode: false,
            detail: Detail::Pipeline,
            prompt: None,
            url: LineInput::default(),
            method: LineInput::default(),
            path: LineInput::default(),
            query: LineInput::default(),
            prefix: LineInput::default(),
            api_key: LineInput::default(),
            rest_key: LineInput::new(key.secret.expose()),
            profile_key: ProfileKey {
                secret: key.secret.clone(),
                source: key.source.clone(),
                error: None,
            },
            key_resolving: None,
            key_choice_made: None,
            key_info: KeyLabel {
                source: key.source,
                revealed: key.revealed,
            },
            content_type: LineInput::default(),
            auth_algo: LineInput::default(),
            timestamp: LineInput::new(format_timestamp(now)),
            ts_live: true,
            form: SigningForm::Standard,
            body: BodyEditor::new(""),
            body_state: BodyState::default(),
            now,
            sign: SignState::default(),
            response: None,
            sending: false,
            pending_send: None,
            send_when_signed: false,
            next_id: 0,
            canon_scroll: 0,
            canon_max: std::cell::Cell::new(usize::MAX),
            key_error: None,
            detail_scroll: 0,
            detail_max: std::cell::Cell::new(usize::MAX),
            detail_page: std::cell::Cell::new(1),
            show_sent: false,
            pane_search: Default::default(),
            status: String::new(),
        };
        req.set_request(&request);
        req
    }

    /// Load a request into the editor (a profile, a capture, a past send): the one function
    /// that fills the fields from the request model.
    pub fn set_request(&mut self, r: &EditorRequest) {
        let spec = &r.spec;
        self.url.set(&r.url);
        self.method.set(&spec.method);
        self.path.set(&spec.path);
        // A query that starts with '?' gets the separator written before it, so that the field
        // gives it back unchanged (`docs/signing.md` rule S4).
        self.query.set(query_as_typed(&spec.query));
        self.prefix.set(&spec.header_prefix);
        self.api_key.set(&spec.api_key);
        self.content_type.set(&spec.content_type);
        self.auth_algo.set(&spec.auth_algo);
        // A loaded body starts a fresh editor (no undo back into another profile's body).
        self.body = BodyEditor::new(&spec.body_text());
        self.body_changed_at(0);
        self.dirty = false;
    }

    /// The request the fields describe, as the one request model: the one function that reads
    /// the fields. The body is the editor's buffer, shared, not copied.
    pub fn spec(&self) -> RequestSpec {
        RequestSpec {
            method: self.method.text().to_string(),
            path: self.path.text().to_string(),
            query: self.query_as_sent().to_string(),
            header_prefix: self.prefix.text().to_string(),
            api_key: self.api_key.text().to_string(),
            content_type: self.content_type.text().to_string(),
            auth_algo: self.auth_algo.text().to_string(),
            body: self.body.shared(),
        }
    }

    /// The part of the target (`"path"` or `"query"`) the send would refuse because the URL
    /// parser re-encodes it (a space in the query): the engine's own check, run on the fields
    /// so that the field is flagged before the send (`docs/signing.md` rule S13).
    pub fn refused_part(&self) -> Option<&'static str> {
        let spec = RequestSpec {
            method: self.method.text().to_string(),
            path: self.path.text().to_string(),
            query: self.query_as_sent().to_string(),
            ..RequestSpec::default()
        };
        // Any valid base: the path and query checks do not depend on it.
        match crate::engine::check_target_of("http://localhost", &spec) {
            Err(crate::engine::BuildError::WouldBeReencoded { part, .. }) => Some(part),
            _ => None,
        }
    }

    /// The request and the base URL it goes to.
    pub fn editor_request(&self) -> EditorRequest {
        EditorRequest {
            url: self.url.text().to_string(),
            spec: self.spec(),
        }
    }

    /// Whether the profile has unsaved edits: in the editor, in another of its requests, or in
    /// the list of requests itself.
    pub fn unsaved(&self) -> bool {
        self.dirty || self.requests.unsaved() || self.key_typed()
    }

    /// Whether the key in the field was typed (differs from the one the profile's source gave):
    /// saving it needs the user's choice (`key_choice.rs`).
    pub fn key_typed(&self) -> bool {
        self.key_info.source == TYPED_KEY
    }

    pub fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// The query as sent and signed: the field without its leading `?` (`docs/signing.md`
    /// rule S4).
    pub fn query_as_sent(&self) -> &str {
        query_as_sent(self.query.text()).0
    }

    /// The single-line editor of a field (None for the body).
    pub fn line_edit(&self, f: Field) -> Option<&LineInput> {
        Some(match f {
            Field::Url => &self.url,
            Field::Method => &self.method,
            Field::Path => &self.path,
            Field::Query => &self.query,
            Field::Prefix => &self.prefix,
            Field::ApiKey => &self.api_key,
            Field::RestKey => &self.rest_key,
            Field::ContentType => &self.content_type,
            Field::AuthAlgo => &self.auth_algo,
            Field::Timestamp => &self.timestamp,
            Field::Body => return None,
        })
    }

    pub fn line_edit_mut(&mut self, f: Field) -> Option<&mut LineInput> {
        Some(match f {
            Field::Url => &mut self.url,
            Field::Method => &mut self.method,
            Field::Path => &mut self.path,
            Field::Query => &mut self.query,
            Field::Prefix => &mut self.prefix,
            Field::ApiKey => &mut self.api_key,
            Field::RestKey => &mut self.rest_key,
            Field::ContentType => &mut self.content_type,
            Field::AuthAlgo => &mut self.auth_algo,
            Field::Timestamp => &mut self.timestamp,
            Field::Body => return None,
        })
    }

    /// The body changed from byte `at` on: a new revision, and the signer re-hashes from the
    /// earliest change since its last job.
    pub fn body_changed_at(&mut self, at: usize) {
        self.body_state.rev += 1;
        self.body_state.changed_from = Some(self.body_state.changed_from.map_or(at, |c| c.min(at)));
    }

    /// The live timestamp text for the clock value we know.
    pub fn live_timestamp(&self) -> String {
        format_timestamp(self.now)
    }

    /// The REST key in use: the field's text (an empty key when none is set).
    pub fn key(&self) -> Secret {
        Secret::new(self.rest_key.text())
    }
}

/// The signed request shown, whether or not it is up to date with the fields.
pub fn signed_view(req: &RequestState) -> Option<&SignedView> {
    req.sign.result.as_ref().and_then(|r| r.as_ref().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state_with(body: &str) -> RequestState {
        let key = KeyInfo {
            secret: Secret::new("k"),
            source: "test".into(),
            revealed: false,
        };
        let mut r = EditorRequest::demo("http://127.0.0.1:1");
        r.spec.body = bytes::Bytes::copy_from_slice(body.as_bytes());
        RequestState::new(r, key, Utc::now())
    }

    #[test]
    fn body_changes_record_the_earliest_change_since_the_last_job() {
        let mut req = state_with("ab\ncd");
        assert_eq!(&req.body.bytes()[..], b"ab\ncd");
        assert_eq!(req.body_state.changed_from, Some(0));
        let rev = req.body_state.rev;
        req.body_state.changed_from = None;
        req.body_changed_at(5);
        req.body_changed_at(3);
        req.body_changed_at(4);
        assert_eq!(req.body_state.changed_from, Some(3));
        assert_eq!(req.body_state.rev, rev + 3);
        // The signable request borrows the editor's bytes.
        assert_eq!(req.signable().body, b"ab\ncd");
    }

    #[test]
    fn the_fields_yield_one_request_spec_that_shares_the_body_and_loads_back_the_same() {
        let mut req = state_with("[1, 2, 3]");
        req.query.set("a=1");
        req.prefix.set("KLEVU");
        let r = req.editor_request();
        assert_eq!(r.url, "http://127.0.0.1:1");
        assert_eq!(r.spec.query, "a=1");
        assert_eq!(r.spec.header_prefix, "KLEVU");
        assert_eq!(r.spec.api_key, crate::core::demo::DEMO_API_KEY);
        assert_eq!(&r.spec.body[..], b"[1, 2, 3]");
        assert_eq!(
            r.spec.body.as_ptr(),
            req.body.bytes().as_ptr(),
            "the body is the editor's buffer, not a copy"
        );
        let mut other = state_with("");
        other.set_request(&r);
        assert_eq!(other.editor_request(), r);
        assert_eq!(other.signable().query, "a=1");
    }
}
