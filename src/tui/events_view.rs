//! The events view: compose a recommendation list, preview the batch it becomes, validate it
//! live, edit it as raw JSON, and send it to the collector.
//!
//! Self-contained component (see notes/CONTRACTS.md, TUI section): [`EventsState`] holds all
//! state, [`update`] is pure and returns [`EventsEffect`]s for the runtime to execute, [`draw`]
//! only draws.
//!
//! The form is a [`ListDraft`] plus what the form cannot show: fields of the batch it does not
//! know (kept from a loaded file or from the raw JSON mode), so switching from raw JSON to the
//! form and back loses nothing.

use std::path::PathBuf;

use bytes::Bytes;
use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::{Constraint, Flex, Layout, Position, Rect};
use ratatui::style::{Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Cell, Paragraph, Row, Table};
use ratatui::Frame;
use serde_json::{Map, Value};

use super::body_editor::BodyEditor;
use super::line_input::LineInput;
use super::theme::Theme;
use crate::core::events::{
    self as ev, ItemDraft, Level, ListDraft, Problem, KNOWN_LIST_LOGICS, KNOWN_PAGE_TYPES,
};
use crate::core::visible::counted;

fn draft_to_value(draft: &ListDraft) -> Value {
    serde_json::to_value(draft.to_batch()).unwrap_or(Value::Array(Vec::new()))
}

/// Members of an event the form knows; any other member is kept as-is.
const EVENT_KEYS: &[&str] = &[
    "event",
    "event_apikey",
    "event_list_id",
    "event_tags",
    "event_list_name",
    "event_list_logic",
    "user_profile",
    "items",
];
/// Members of an item the form knows (item_id and index are derived).
const ITEM_KEYS: &[&str] = &[
    "item_id",
    "item_group_id",
    "item_variant_id",
    "item_name",
    "price",
    "currency",
    "item_brand",
    "item_category",
    "index",
];

/// The top fields of the form, in Tab order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    AnalyticsUrl,
    ApiKey,
    ListId,
    ListName,
    ListLogic,
    Tags,
    UserIp,
}

impl Field {
    pub const ALL: [Field; 7] = [
        Field::AnalyticsUrl,
        Field::ApiKey,
        Field::ListId,
        Field::ListName,
        Field::ListLogic,
        Field::Tags,
        Field::UserIp,
    ];
    pub fn label(self) -> &'static str {
        match self {
            Field::AnalyticsUrl => "Analytics URL",
            Field::ApiKey => "API key",
            Field::ListId => "List id",
            Field::ListName => "List name",
            Field::ListLogic => "List logic",
            Field::Tags => "Tags",
            Field::UserIp => "User IP",
        }
    }
}

/// The editable columns of the items table (item_id and index are derived, read-only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    GroupId,
    VariantId,
    Name,
    Price,
    Currency,
    Brand,
    Category,
}

impl Column {
    pub const ALL: [Column; 7] = [
        Column::GroupId,
        Column::VariantId,
        Column::Name,
        Column::Price,
        Column::Currency,
        Column::Brand,
        Column::Category,
    ];
    pub fn title(self) -> &'static str {
        match self {
            Column::GroupId => "group",
            Column::VariantId => "variant",
            Column::Name => "name",
            Column::Price => "price",
            Column::Currency => "cur",
            Column::Brand => "brand",
            Column::Category => "category",
        }
    }
    fn from_json_key(key: &str) -> Option<Column> {
        Some(match key {
            "item_group_id" | "item_id" | "index" => Column::GroupId,
            "item_variant_id" => Column::VariantId,
            "item_name" => Column::Name,
            "price" => Column::Price,
            "currency" => Column::Currency,
            "item_brand" => Column::Brand,
            "item_category" => Column::Category,
            _ => return None,
        })
    }
    fn index(self) -> usize {
        Column::ALL.iter().position(|c| *c == self).unwrap_or(0)
    }
}

fn cell_mut(item: &mut ItemDraft, col: Column) -> &mut String {
    match col {
        Column::GroupId => &mut item.group_id,
        Column::VariantId => &mut item.variant_id,
        Column::Name => &mut item.name,
        Column::Price => &mut item.price,
        Column::Currency => &mut item.currency,
        Column::Brand => &mut item.brand,
        Column::Category => &mut item.category,
    }
}

fn cell(item: &ItemDraft, col: Column) -> &str {
    match col {
        Column::GroupId => &item.group_id,
        Column::VariantId => &item.variant_id,
        Column::Name => &item.name,
        Column::Price => &item.price,
        Column::Currency => &item.currency,
        Column::Brand => &item.brand,
        Column::Category => &item.category,
    }
}

/// Where the keyboard goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    Field(Field),
    Items,
    Problems,
    /// The raw JSON editor (raw mode only).
    Raw,
}

/// Form or raw JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Form,
    Raw,
}

/// What a path prompt will do with the path typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    Load,
    Save,
}

/// The result of a send, as the runtime reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SendReport {
    pub status: u16,
    pub body: String,
    pub elapsed_ms: u64,
}

/// Messages of the events view: input, and the results of its effects.
#[derive(Clone, Debug)]
pub enum EventsMsg {
    Key(KeyEvent),
    /// Pasted text: goes to the path prompt, the cell being edited, the focused field (one
    /// line each) or the raw JSON editor (as it is).
    Paste(String),
    /// A mouse event and the view's area on screen (for hit testing with [`layout`]).
    Mouse(MouseEvent, Rect),
    /// A validation job finished (see [`ValidateJob`]); ignored unless it is for the current
    /// revision of the batch.
    Validated(Box<Validated>),
    /// The active profile's collector and public key (`local`: the embedded server, whose
    /// inspection API shows what was stored).
    SetTarget {
        analytics_url: String,
        api_key: String,
        local: bool,
    },
    /// Put a batch (JSON text) into the view, e.g. from history or a profile.
    LoadBatch(String),
    FileLoaded {
        path: PathBuf,
        text: String,
    },
    FileSaved(PathBuf),
    /// A save to a new path found a file there (nothing was written).
    FileExists(PathBuf),
    FileError(String),
    Sent(Result<SendReport, String>),
    /// The body of `GET {analytics_url}/_inspect/events`, or why it could not be read.
    Stored(Result<String, String>),
}

/// I/O the events view asks the runtime for.
#[derive(Clone, Debug, PartialEq)]
pub enum EventsEffect {
    /// Build and validate the batch off the draw path; answer with [`EventsMsg::Validated`].
    Validate(Box<ValidateJob>),
    SendEvents {
        url: String,
        body: Bytes,
    },
    FetchStored {
        url: String,
    },
    LoadFile(PathBuf),
    /// Write the batch to the path, replacing what is there.
    SaveFile(PathBuf, String),
    /// Write the batch to the path unless a file is there; answer [`EventsMsg::FileExists`].
    SaveNewFile(PathBuf, String),
    CopyText(String),
    Status(String),
}

/// Members of the batch the form does not show, kept so that nothing loaded is lost.
#[derive(Clone, Debug, Default, PartialEq)]
struct Extras {
    view: Map<String, Value>,
    select: Map<String, Value>,
    user_profile: Map<String, Value>,
    /// Per item row, same order as `draft.items`.
    items: Vec<Map<String, Value>>,
    /// Events that are neither the list's view event nor one of its select events.
    other_events: Vec<Value>,
}

/// What a validation job works on: the form (its draft and the members it does not show) or the
/// raw JSON text.
#[derive(Clone, Debug, PartialEq)]
enum JobInput {
    Form(Box<(ListDraft, Extras)>),
    /// The editor's bytes, shared (no copy on the draw path).
    Raw(std::sync::Arc<Vec<u8>>),
}

/// One revision of the batch to build and validate. The whole batch is validated every time:
/// rules span events (list ids, API key, clicks against views), so a partial check is not safe.
/// Small batches are validated inside `update`; bigger ones by the runtime on a worker thread
/// (`EventsEffect::Validate`), so a key press costs the same at any batch size.
#[derive(Clone, Debug, PartialEq)]
pub struct ValidateJob {
    pub rev: u64,
    input: JobInput,
}

/// The result of a [`ValidateJob`]: the batch text exactly as it would be sent, and its problems.
#[derive(Clone, Debug, PartialEq)]
pub struct Validated {
    pub rev: u64,
    pub preview: String,
    /// Number of events (0 when the text is not a JSON array).
    pub events: usize,
    /// Number of lines of the preview (bounds its scrolling).
    pub lines: usize,
    pub problems: Vec<Problem>,
    /// Problems past the validator's list limit (a raw batch can have that many).
    pub omitted: ev::Omitted,
}

impl ValidateJob {
    /// Build the batch text and validate it (pure; the cost grows with the batch).
    pub fn run(&self) -> Validated {
        let (preview, events, report) = match &self.input {
            JobInput::Form(form) => {
                let (draft, extras) = &**form;
                let mut batch = draft_to_value(draft);
                overlay_extras(&mut batch, draft, extras);
                let preview = serde_json::to_string_pretty(&batch).unwrap_or_default();
                let events = batch.as_array().map_or(0, Vec::len);
                (preview, events, ev::validate(&batch))
            }
            JobInput::Raw(bytes) => {
                let report = ev::validate_bytes(bytes);
                // The editor only ever holds text built from `str`s.
                let text = String::from_utf8_lossy(bytes).into_owned();
                (text, report.events, report)
            }
        };
        Validated {
            rev: self.rev,
            lines: preview.lines().count(),
            preview,
            events,
            problems: report.problems,
            omitted: report.omitted,
        }
    }
}

/// Batches up to this many items (form) are validated inside `update`: at that size it costs
/// well under a millisecond and the view never shows "validating…" between keys.
pub const INLINE_VALIDATE_ITEMS: usize = 100;
/// The same bound for the raw editor, in lines (about a dozen lines per pretty-printed item).
const INLINE_VALIDATE_LINES: usize = 1_200;

/// All state of the events view.
pub struct EventsState {
    pub analytics_url: LineInput,
    pub local: bool,
    pub draft: ListDraft,
    api_key: LineInput,
    list_id: LineInput,
    list_name: LineInput,
    list_logic: LineInput,
    tags: LineInput,
    user_ip: LineInput,
    extras: Extras,
    pub focus: Focus,
    pub mode: Mode,
    /// Selected row and column of the items table.
    pub row: usize,
    pub col: Column,
    /// The cell being edited in place.
    editing: Option<LineInput>,
    /// The raw JSON editor: the request body's windowed editor, so a key costs the same at
    /// any batch size.
    raw: BodyEditor,
    /// The batch as it will be sent (pretty JSON in form mode, the raw text in raw mode).
    preview: String,
    /// Number of events in the preview (0 when it is not a JSON array).
    preview_events: usize,
    pub problems: Vec<Problem>,
    /// What the validator counted but did not list.
    pub omitted: ev::Omitted,
    pub problem_sel: usize,
    prompt: Option<(PromptKind, LineInput)>,
    pub last_path: Option<PathBuf>,
    /// A path the user agreed to replace (Enter again after "already exists").
    replace_ok: Option<PathBuf>,
    pub sending: bool,
    /// Number of events in the batch last sent.
    sent_events: usize,
    pub response: Option<Result<SendReport, String>>,
    pub stored: Option<Result<String, String>>,
    pub status: String,
    preview_scroll: u16,
    /// Where the items and problems windows were last put by the mouse (see
    /// [`super::view::window_first`]).
    items_top: usize,
    problems_top: usize,
    /// Lines of the preview shown.
    preview_lines: usize,
    response_scroll: u16,
    /// Revision of the form / raw text: bumped by every change.
    rev: u64,
    /// The newest revision a validation was asked for.
    requested: u64,
    /// The revision the preview and problems on screen belong to.
    shown_rev: u64,
    /// Batches with more items than this are validated off the draw path
    /// ([`INLINE_VALIDATE_ITEMS`]; tests set 0 to exercise the worker path).
    pub inline_max_items: usize,
    /// Draw without colours (NO_COLOR).
    pub no_color: bool,
}

impl Default for EventsState {
    fn default() -> Self {
        EventsState::new("http://127.0.0.1:8080", "")
    }
}

impl EventsState {
    /// A view targeting `analytics_url`, with a starter list of one item.
    pub fn new(analytics_url: &str, api_key: &str) -> Self {
        let draft = ListDraft {
            api_key: api_key.to_string(),
            list_id: "list-1".into(),
            list_name: "Trending now".into(),
            list_logic: "TRENDING".into(),
            tags: vec!["recsPageType:HOME".into()],
            user_ip: None,
            items: vec![ItemDraft {
                group_id: "1001".into(),
                variant_id: "1".into(),
                name: "Example product".into(),
                price: "19.90".into(),
                currency: "EUR".into(),
                brand: "Acme".into(),
                category: "Home;;Kitchen".into(),
                clicked: false,
            }],
        };
        let mut state = EventsState {
            analytics_url: LineInput::new(analytics_url),
            local: false,
            api_key: LineInput::default(),
            list_id: LineInput::default(),
            list_name: LineInput::default(),
            list_logic: LineInput::default(),
            tags: LineInput::default(),
            user_ip: LineInput::default(),
            extras: Extras::default(),
            draft: ListDraft::default(),
            focus: Focus::Field(Field::ListId),
            mode: Mode::Form,
            row: 0,
            col: Column::GroupId,
            editing: None,
            raw: BodyEditor::default(),
            preview: String::new(),
            preview_events: 0,
            problems: Vec::new(),
            omitted: ev::Omitted::default(),
            problem_sel: 0,
            prompt: None,
            last_path: None,
            replace_ok: None,
            sending: false,
            sent_events: 0,
            response: None,
            stored: None,
            status: String::new(),
            preview_scroll: 0,
            items_top: 0,
            problems_top: 0,
            preview_lines: 0,
            response_scroll: 0,
            rev: 0,
            requested: 0,
            shown_rev: 0,
            inline_max_items: INLINE_VALIDATE_ITEMS,
            no_color: Theme::no_color_from_env(),
        };
        state.set_draft(draft, Extras::default());
        state.ensure_current();
        state
    }

    /// True while the preview and problems on screen are older than the form.
    pub fn validating(&self) -> bool {
        self.shown_rev != self.rev
    }

    /// A job for the current revision.
    pub fn validate_job(&self) -> ValidateJob {
        let input = match self.mode {
            Mode::Form => JobInput::Form(Box::new((self.draft.clone(), self.extras.clone()))),
            Mode::Raw => JobInput::Raw(std::sync::Arc::clone(self.raw.bytes())),
        };
        ValidateJob {
            rev: self.rev,
            input,
        }
    }

    /// Show a validation result if it is for the current revision; a stale one is dropped
    /// (returns false).
    fn apply(&mut self, v: Validated) -> bool {
        if v.rev != self.rev {
            return false;
        }
        self.preview = v.preview;
        self.preview_events = v.events;
        self.preview_lines = v.lines;
        self.problems = v.problems;
        self.omitted = v.omitted;
        self.problem_sel = self.problem_sel.min(self.problems.len().saturating_sub(1));
        self.preview_scroll = self.preview_scroll.min(self.max_preview_scroll());
        self.shown_rev = v.rev;
        true
    }

    /// Validate now if what is shown is stale (before sending, copying or saving the text,
    /// which must be the current batch).
    fn ensure_current(&mut self) {
        if self.validating() {
            let v = self.validate_job().run();
            self.requested = self.rev;
            self.apply(v);
        }
    }

    /// Whether the current revision is small enough to validate inside `update`.
    fn validate_inline(&self) -> bool {
        match self.mode {
            Mode::Form => self.draft.items.len() <= self.inline_max_items,
            Mode::Raw => {
                self.raw.line_count()
                    <= INLINE_VALIDATE_LINES.min(self.inline_max_items.saturating_mul(12))
            }
        }
    }

    fn max_preview_scroll(&self) -> u16 {
        self.preview_lines.saturating_sub(1).min(u16::MAX as usize) as u16
    }

    /// Pin the item and problem windows where they are on screen, so that a click or the wheel
    /// moves the selection within them instead of jumping them.
    fn keep_windows(&mut self, l: &EventsLayout) {
        if let Some((i, _)) = l.item_rows.first() {
            self.items_top = *i;
        }
        if let Some((i, _)) = l.problem_rows.first() {
            self.problems_top = *i;
        }
    }

    /// Move focus (the raw editor shows its cursor only while it has focus).
    fn set_focus(&mut self, focus: Focus) {
        self.focus = focus;
        self.raw.set_cursor_style(if self.focus == Focus::Raw {
            focused_style()
        } else {
            Style::new()
        });
    }

    /// True when keys go to a text input (so `?` and letters are text, not commands).
    pub fn is_text_input_focused(&self) -> bool {
        self.prompt.is_some()
            || self.editing.is_some()
            || matches!(self.focus, Focus::Field(_) | Focus::Raw)
    }

    /// Key bindings of this view, for the help popup.
    pub fn help(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            (
                "Tab / Shift-Tab",
                "next / previous field, items table, problems",
            ),
            (
                "Ctrl-S",
                "send the batch to {analytics_url}/analytics/collect",
            ),
            ("Ctrl-R", "switch between the form and raw JSON"),
            (
                "Ctrl-O / Ctrl-E",
                "load the batch from a file / save it to a file",
            ),
            ("Ctrl-Y", "copy the batch JSON"),
            ("Ctrl-N", "list logic / tags: next suggestion"),
            ("Up/Down, Left/Right, hjkl", "items: move the selection"),
            (
                "Enter / e",
                "items: edit the cell (Enter saves, Esc cancels)",
            ),
            (
                "Space / c",
                "items: mark the item clicked (adds a select event)",
            ),
            ("a / y / d", "items: add / duplicate / delete the item"),
            ("K / J, Alt-Up / Alt-Down", "items: move the item up / down"),
            ("Enter", "problems: jump to the field of the problem"),
            ("PageUp / PageDown", "scroll the preview"),
            (
                "Mouse",
                "click a field, item cell or problem: focus it; wheel: scroll the pane",
            ),
        ]
    }

    /// The batch JSON exactly as it would be sent.
    pub fn batch_text(&self) -> &str {
        &self.preview
    }

    /// The URL a send goes to.
    pub fn collect_url(&self) -> String {
        format!(
            "{}/analytics/collect",
            self.analytics_url.text().trim_end_matches('/')
        )
    }

    fn input(&self, f: Field) -> &LineInput {
        match f {
            Field::AnalyticsUrl => &self.analytics_url,
            Field::ApiKey => &self.api_key,
            Field::ListId => &self.list_id,
            Field::ListName => &self.list_name,
            Field::ListLogic => &self.list_logic,
            Field::Tags => &self.tags,
            Field::UserIp => &self.user_ip,
        }
    }

    fn input_mut(&mut self, f: Field) -> &mut LineInput {
        match f {
            Field::AnalyticsUrl => &mut self.analytics_url,
            Field::ApiKey => &mut self.api_key,
            Field::ListId => &mut self.list_id,
            Field::ListName => &mut self.list_name,
            Field::ListLogic => &mut self.list_logic,
            Field::Tags => &mut self.tags,
            Field::UserIp => &mut self.user_ip,
        }
    }

    /// Replace the form with `draft` (and the members it cannot show).
    fn set_draft(&mut self, draft: ListDraft, mut extras: Extras) {
        self.api_key.set(draft.api_key.clone());
        self.list_id.set(draft.list_id.clone());
        self.list_name.set(draft.list_name.clone());
        self.list_logic.set(draft.list_logic.clone());
        self.tags.set(draft.tags.join(", "));
        self.user_ip.set(draft.user_ip.clone().unwrap_or_default());
        extras.items.resize(draft.items.len(), Map::new());
        self.extras = extras;
        self.draft = draft;
        self.row = self.row.min(self.draft.items.len().saturating_sub(1));
        self.refresh();
    }

    /// Copy the top fields into the draft.
    fn sync_fields(&mut self) {
        self.draft.api_key = self.api_key.text().to_string();
        self.draft.list_id = self.list_id.text().to_string();
        self.draft.list_name = self.list_name.text().to_string();
        self.draft.list_logic = self.list_logic.text().to_string();
        self.draft.tags = self
            .tags
            .text()
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(String::from)
            .collect();
        let ip = self.user_ip.text().trim();
        self.draft.user_ip = (!ip.is_empty()).then(|| ip.to_string());
    }

    /// The batch of the form, with the members the form does not show put back.
    pub fn form_batch(&self) -> Value {
        let mut batch = draft_to_value(&self.draft);
        overlay_extras(&mut batch, &self.draft, &self.extras);
        batch
    }

    /// After any change: a new revision, whose preview and problems `update` asks for (inline
    /// for small batches, else from the worker).
    fn refresh(&mut self) {
        if self.mode == Mode::Form {
            self.sync_fields();
        }
        self.rev += 1;
    }

    fn focus_order(&self) -> Vec<Focus> {
        match self.mode {
            Mode::Form => Field::ALL
                .iter()
                .map(|f| Focus::Field(*f))
                .chain([Focus::Items, Focus::Problems])
                .collect(),
            Mode::Raw => vec![Focus::Raw, Focus::Problems],
        }
    }

    fn cycle_focus(&mut self, back: bool) {
        let order = self.focus_order();
        let pos = order.iter().position(|f| *f == self.focus).unwrap_or(0);
        let n = order.len();
        self.set_focus(
            order[if back {
                (pos + n - 1) % n
            } else {
                (pos + 1) % n
            }],
        );
    }

    fn enter_raw(&mut self) {
        self.ensure_current();
        let text = self.preview.clone();
        self.raw = BodyEditor::new(&text);
        self.mode = Mode::Raw;
        self.set_focus(Focus::Raw);
        self.refresh();
    }

    /// Back to the form; refused (nothing lost) when the raw text is not a JSON array.
    fn leave_raw(&mut self) -> Result<(), String> {
        let value: Value = serde_json::from_str(self.raw.text()).map_err(|e| {
            format!(
                "The raw JSON does not parse (line {} column {}); fix it before going back to the form.",
                e.line(),
                e.column()
            )
        })?;
        let (draft, extras) = draft_from_value(&value)?;
        self.mode = Mode::Form;
        self.focus = Focus::Field(Field::ListId);
        self.set_draft(draft, extras);
        Ok(())
    }

    /// Load a batch from JSON text into the form (or into the raw editor if the form cannot
    /// hold it, so nothing is lost).
    fn load_text(&mut self, text: &str) -> String {
        match serde_json::from_str::<Value>(text)
            .map_err(|e| format!("line {} column {}: {e}", e.line(), e.column()))
            .and_then(|v| draft_from_value(&v))
        {
            Ok((draft, extras)) => {
                self.mode = Mode::Form;
                if !matches!(self.focus, Focus::Field(_) | Focus::Items | Focus::Problems) {
                    self.focus = Focus::Field(Field::ListId);
                }
                self.set_draft(draft, extras);
                "Batch loaded into the form.".into()
            }
            Err(why) => {
                self.raw = BodyEditor::new(text);
                self.mode = Mode::Raw;
                self.set_focus(Focus::Raw);
                self.refresh();
                format!("Loaded as raw JSON (the form cannot show it: {why}).")
            }
        }
    }

    fn items_changed(&mut self) {
        self.extras.items.resize(self.draft.items.len(), Map::new());
        self.refresh();
    }

    /// Jump to the field a problem is about.
    fn jump_to_problem(&mut self, idx: usize) {
        // The problems shown must be those of the current batch for their paths to be right.
        self.ensure_current();
        let Some(problem) = self.problems.get(idx).cloned() else {
            return;
        };
        if self.mode == Mode::Raw {
            if let (Some(line), Some(col)) = (problem.line, problem.column) {
                // Byte offset of (line, column), both 1-based; clamped to the line (move_to
                // puts it on a char boundary).
                let start = self.raw.line_start(line.saturating_sub(1));
                let this = self.raw.lines_from(line.saturating_sub(1)).next();
                let target = start + col.saturating_sub(1).min(this.unwrap_or_default().len());
                self.raw.move_to(target);
                self.set_focus(Focus::Raw);
                return;
            }
            if let Err(why) = self.leave_raw() {
                self.status = why;
                return;
            }
        }
        let path = problem.path.clone();
        let batch = self.form_batch();
        match target_of_path(&path, &batch) {
            Some(Target::Field(f)) => self.focus = Focus::Field(f),
            Some(Target::Item(row, col)) => {
                self.focus = Focus::Items;
                self.row = row.min(self.draft.items.len().saturating_sub(1));
                self.col = col;
            }
            None => self.status = format!("No form field shows {path}."),
        }
    }
}

enum Target {
    Field(Field),
    Item(usize, Column),
}

/// Map a problem path such as `[1].items[0].currency` to a form field.
fn target_of_path(path: &str, batch: &Value) -> Option<Target> {
    let rest = path.strip_prefix('[')?;
    let (event_idx, rest) = rest.split_once(']')?;
    let event_idx: usize = event_idx.parse().ok()?;
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    if let Some(after) = rest.strip_prefix("items[") {
        let (item_idx, after) = after.split_once(']')?;
        let item_idx: usize = item_idx.parse().ok()?;
        let key = after.strip_prefix('.').unwrap_or(after);
        let col = Column::from_json_key(key.split(['.', '[']).next().unwrap_or(""))
            .unwrap_or(Column::GroupId);
        // Items of select events point back to their row through their index.
        let event = batch.get(event_idx)?;
        let row = if event.get("event").and_then(Value::as_str) == Some("view_recs_list") {
            item_idx
        } else {
            event
                .get("items")
                .and_then(|i| i.get(item_idx))
                .and_then(|i| i.get("index"))
                .and_then(Value::as_u64)
                .map(|i| (i as usize).saturating_sub(1))
                .unwrap_or(item_idx)
        };
        return Some(Target::Item(row, col));
    }
    let key = rest.split(['.', '[']).next().unwrap_or("");
    Some(Target::Field(match key {
        "event_apikey" => Field::ApiKey,
        "event_list_id" => Field::ListId,
        "event_list_name" => Field::ListName,
        "event_list_logic" => Field::ListLogic,
        "event_tags" => Field::Tags,
        "user_profile" => Field::UserIp,
        _ => return None,
    }))
}

fn str_of(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

fn unknown_members(obj: &Map<String, Value>, known: &[&str]) -> Map<String, Value> {
    obj.iter()
        .filter(|(k, _)| !known.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// Read a batch into the form: the first `view_recs_list` event gives the list and its items;
/// `select_recs_list` events of the same list mark items clicked. Anything else is kept aside.
fn draft_from_value(value: &Value) -> Result<(ListDraft, Extras), String> {
    let events = value
        .as_array()
        .ok_or("the batch must be a JSON array of events")?;
    let is_kind = |e: &Value, k: &str| e.get("event").and_then(Value::as_str) == Some(k);
    let view_pos = events
        .iter()
        .position(|e| is_kind(e, "view_recs_list"))
        .or(if events.is_empty() { None } else { Some(0) });
    let mut extras = Extras::default();
    let mut draft = ListDraft::default();
    let Some(view_pos) = view_pos else {
        return Ok((draft, extras));
    };
    let view = events[view_pos]
        .as_object()
        .ok_or("the first event of the batch is not a JSON object")?;
    draft.api_key = str_of(view.get("event_apikey"));
    draft.list_id = str_of(view.get("event_list_id"));
    draft.list_name = str_of(view.get("event_list_name"));
    draft.list_logic = str_of(view.get("event_list_logic"));
    draft.tags = match view.get("event_tags") {
        Some(Value::Array(tags)) => tags.iter().map(|t| str_of(Some(t))).collect(),
        Some(Value::Null) | None => Vec::new(),
        Some(_) => return Err("event_tags of the view event is not an array".into()),
    };
    match view.get("user_profile") {
        Some(Value::Object(up)) => {
            draft.user_ip = up.get("ip_address").map(|v| str_of(Some(v)));
            extras.user_profile = unknown_members(up, &["ip_address"]);
        }
        Some(Value::Null) | None => {}
        Some(_) => return Err("user_profile of the view event is not an object".into()),
    }
    extras.view = unknown_members(view, EVENT_KEYS);
    let items = match view.get("items") {
        Some(Value::Array(items)) => items.as_slice(),
        Some(Value::Null) | None => &[],
        Some(_) => return Err("items of the view event is not an array".into()),
    };
    for item in items {
        let obj = item
            .as_object()
            .ok_or("an item of the view event is not a JSON object")?;
        let mut group_id = str_of(obj.get("item_group_id"));
        let mut variant_id = str_of(obj.get("item_variant_id"));
        if group_id.is_empty() && variant_id.is_empty() {
            if let Some((g, v)) = str_of(obj.get("item_id")).split_once('-') {
                group_id = g.to_string();
                variant_id = v.to_string();
            }
        }
        draft.items.push(ItemDraft {
            group_id,
            variant_id,
            name: str_of(obj.get("item_name")),
            price: str_of(obj.get("price")),
            currency: str_of(obj.get("currency")),
            brand: str_of(obj.get("item_brand")),
            category: str_of(obj.get("item_category")),
            clicked: false,
        });
        extras.items.push(unknown_members(obj, ITEM_KEYS));
    }
    let item_ids: Vec<String> = items.iter().map(|i| str_of(i.get("item_id"))).collect();
    let mut first_select = true;
    for (pos, event) in events.iter().enumerate() {
        if pos == view_pos {
            continue;
        }
        let same_list = event.get("event_list_id") == view.get("event_list_id");
        let clicked_row = event
            .get("items")
            .and_then(Value::as_array)
            .filter(|items| items.len() == 1)
            .and_then(|items| {
                let id = str_of(items[0].get("item_id"));
                item_ids
                    .iter()
                    .position(|x| *x == id)
                    .filter(|row| !draft.items[*row].clicked)
            });
        match (is_kind(event, "select_recs_list") && same_list, clicked_row) {
            (true, Some(row)) => {
                draft.items[row].clicked = true;
                if first_select {
                    if let Some(obj) = event.as_object() {
                        extras.select = unknown_members(obj, EVENT_KEYS);
                    }
                    first_select = false;
                }
            }
            _ => extras.other_events.push(event.clone()),
        }
    }
    Ok((draft, extras))
}

/// Put the members the form does not show back into a batch built from the draft.
fn overlay_extras(batch: &mut Value, draft: &ListDraft, extras: &Extras) {
    let Some(events) = batch.as_array_mut() else {
        return;
    };
    let put = |target: &mut Value, members: &Map<String, Value>| {
        if let Some(obj) = target.as_object_mut() {
            for (k, v) in members {
                obj.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    };
    let clicked_rows: Vec<usize> = draft
        .items
        .iter()
        .enumerate()
        .filter(|(_, i)| i.clicked)
        .map(|(r, _)| r)
        .collect();
    for (pos, event) in events.iter_mut().enumerate() {
        let is_view = event.get("event").and_then(Value::as_str) == Some("view_recs_list");
        if is_view {
            put(event, &extras.view);
            if !extras.user_profile.is_empty() {
                if let Some(obj) = event.as_object_mut() {
                    let up = obj
                        .entry("user_profile")
                        .or_insert_with(|| Value::Object(Map::new()));
                    put(up, &extras.user_profile);
                }
            }
            if let Some(items) = event.get_mut("items").and_then(Value::as_array_mut) {
                for (row, item) in items.iter_mut().enumerate() {
                    if let Some(m) = extras.items.get(row) {
                        put(item, m);
                    }
                }
            }
        } else {
            put(event, &extras.select);
            let row = pos.checked_sub(1).and_then(|j| clicked_rows.get(j));
            if let (Some(row), Some(items)) =
                (row, event.get_mut("items").and_then(Value::as_array_mut))
            {
                if let (Some(item), Some(m)) = (items.first_mut(), extras.items.get(*row)) {
                    put(item, m);
                }
            }
        }
    }
    events.extend(extras.other_events.iter().cloned());
}

fn completions(field: Field, text: &str) -> Vec<String> {
    match field {
        Field::ListLogic => KNOWN_LIST_LOGICS.iter().map(|s| s.to_string()).collect(),
        Field::Tags => {
            let _ = text;
            KNOWN_PAGE_TYPES
                .iter()
                .map(|p| format!("recsPageType:{p}"))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The next suggestion for the field: the list logic as a whole, or the last tag.
fn complete(field: Field, text: &str) -> Option<String> {
    let cands = completions(field, text);
    if cands.is_empty() {
        return None;
    }
    let (head, last) = match field {
        Field::Tags => match text.rfind(',') {
            Some(i) => (
                text[..=i].to_string() + " ",
                text[i + 1..].trim().to_string(),
            ),
            None => (String::new(), text.trim().to_string()),
        },
        _ => (String::new(), text.trim().to_string()),
    };
    let upper = last.to_ascii_uppercase();
    // Cycle when the text already is a suggestion; otherwise complete the typed prefix.
    let next = if let Some(i) = cands.iter().position(|c| *c == last) {
        cands[(i + 1) % cands.len()].clone()
    } else {
        cands
            .iter()
            .find(|c| c.to_ascii_uppercase().starts_with(&upper))
            .or_else(|| {
                cands.iter().find(|c| {
                    c.to_ascii_uppercase()
                        .contains(upper.trim_start_matches("RECSPAGETYPE:"))
                })
            })
            .unwrap_or(&cands[0])
            .clone()
    };
    Some(head + &next)
}

/// Handle a message; pure (no I/O): what needs I/O comes back as effects. When the batch
/// changed, its validation is done here for small batches, else asked for as an
/// [`EventsEffect::Validate`] (the view says "validating…" until the answer for the current
/// revision arrives; answers for older revisions are dropped).
pub fn update(state: &mut EventsState, msg: EventsMsg) -> Vec<EventsEffect> {
    let mut effects = update_msg(state, msg);
    if state.rev != state.requested && state.validating() {
        state.requested = state.rev;
        if state.validate_inline() {
            let v = state.validate_job().run();
            state.apply(v);
        } else {
            effects.push(EventsEffect::Validate(Box::new(state.validate_job())));
        }
    }
    effects
}

fn update_msg(state: &mut EventsState, msg: EventsMsg) -> Vec<EventsEffect> {
    match msg {
        EventsMsg::Key(key) if key.kind != KeyEventKind::Release => on_key(state, key),
        EventsMsg::Key(_) => Vec::new(),
        EventsMsg::Paste(text) => {
            if let Some((_, input)) = &mut state.prompt {
                input.insert_str(&text);
            } else if let Some(input) = &mut state.editing {
                input.insert_str(&text);
            } else {
                match state.focus {
                    Focus::Field(field) => {
                        state.input_mut(field).insert_str(&text);
                        state.refresh();
                    }
                    Focus::Raw => {
                        if state.raw.insert_str(&text).is_some() {
                            state.refresh();
                        }
                    }
                    Focus::Items | Focus::Problems => {}
                }
            }
            Vec::new()
        }
        EventsMsg::Mouse(mouse, area) => {
            on_mouse(state, mouse, area);
            Vec::new()
        }
        EventsMsg::Validated(v) => {
            state.apply(*v);
            Vec::new()
        }
        EventsMsg::SetTarget {
            analytics_url,
            api_key,
            local,
        } => {
            state.analytics_url.set(analytics_url);
            state.local = local;
            if state.mode == Mode::Form {
                state.api_key.set(api_key);
            }
            state.refresh();
            Vec::new()
        }
        EventsMsg::LoadBatch(text) => {
            state.status = state.load_text(&text);
            Vec::new()
        }
        EventsMsg::FileLoaded { path, text } => {
            let how = state.load_text(&text);
            state.status = format!("{} ({})", how, path.display());
            state.last_path = Some(path);
            Vec::new()
        }
        EventsMsg::FileSaved(path) => {
            state.status = format!("Batch saved to {}.", path.display());
            state.last_path = Some(path);
            Vec::new()
        }
        EventsMsg::FileExists(path) => {
            state.status = format!(
                "{} already exists; Enter replaces it, Esc keeps it.",
                path.display()
            );
            state.prompt = Some((PromptKind::Save, LineInput::new(path.display().to_string())));
            state.replace_ok = Some(path);
            Vec::new()
        }
        EventsMsg::FileError(why) => {
            state.status = why;
            Vec::new()
        }
        EventsMsg::Sent(result) => {
            state.sending = false;
            let ok = matches!(result, Ok(ref r) if (200..300).contains(&r.status));
            state.status = match &result {
                Ok(r) => format!("Collector answered {} in {} ms.", r.status, r.elapsed_ms),
                Err(why) => why.clone(),
            };
            state.response = Some(result);
            state.response_scroll = 0;
            state.stored = None;
            if state.local && (ok || matches!(state.response, Some(Ok(_)))) {
                // The last events the collector kept: the ones just sent.
                vec![EventsEffect::FetchStored {
                    url: format!(
                        "{}/_inspect/events?limit={}",
                        state.analytics_url.text().trim_end_matches('/'),
                        state.sent_events.max(1)
                    ),
                }]
            } else {
                Vec::new()
            }
        }
        EventsMsg::Stored(result) => {
            state.stored = Some(result);
            Vec::new()
        }
    }
}

fn on_key(state: &mut EventsState, key: KeyEvent) -> Vec<EventsEffect> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);

    // A path prompt takes every key.
    if let Some((kind, mut input)) = state.prompt.take() {
        match key.code {
            KeyCode::Esc => {
                state.status = "Cancelled.".into();
                state.replace_ok = None;
            }
            KeyCode::Enter => {
                let path = input.text().trim().to_string();
                if path.is_empty() {
                    state.status = "Type a file path first.".into();
                    state.prompt = Some((kind, input));
                    return Vec::new();
                }
                let path = PathBuf::from(path);
                state.ensure_current();
                return match kind {
                    PromptKind::Load => vec![EventsEffect::LoadFile(path)],
                    // A file of this session (loaded or saved here) or one the user agreed to
                    // replace is overwritten; any other path only when nothing is there.
                    PromptKind::Save
                        if state.last_path.as_ref() == Some(&path)
                            || state.replace_ok.as_ref() == Some(&path) =>
                    {
                        state.replace_ok = None;
                        vec![EventsEffect::SaveFile(path, state.preview.clone())]
                    }
                    PromptKind::Save => {
                        vec![EventsEffect::SaveNewFile(path, state.preview.clone())]
                    }
                };
            }
            _ => {
                input.handle_key(&key);
                state.prompt = Some((kind, input));
            }
        }
        return Vec::new();
    }

    // Editing a cell in place.
    if let Some(mut input) = state.editing.take() {
        match key.code {
            KeyCode::Esc => {}
            KeyCode::Enter | KeyCode::Tab => {
                if let Some(item) = state.draft.items.get_mut(state.row) {
                    *cell_mut(item, state.col) = input.text().to_string();
                }
                if key.code == KeyCode::Tab {
                    let next = (state.col.index() + 1) % Column::ALL.len();
                    state.col = Column::ALL[next];
                }
                state.refresh();
            }
            _ => {
                input.handle_key(&key);
                state.editing = Some(input);
            }
        }
        return Vec::new();
    }

    // Keys that work everywhere in the view.
    if ctrl {
        match key.code {
            KeyCode::Char('s') => return send(state),
            KeyCode::Char('r') => {
                match state.mode {
                    Mode::Form => {
                        state.enter_raw();
                        state.status = "Raw JSON mode: the batch as text.".into();
                    }
                    Mode::Raw => match state.leave_raw() {
                        Ok(()) => state.status = "Back to the form.".into(),
                        Err(why) => state.status = why,
                    },
                }
                return Vec::new();
            }
            KeyCode::Char('o') => {
                let start = state
                    .last_path
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
                state.prompt = Some((PromptKind::Load, LineInput::new(start)));
                state.status.clear();
                return Vec::new();
            }
            KeyCode::Char('e') => {
                let start = state
                    .last_path
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| "batch.json".into());
                state.prompt = Some((PromptKind::Save, LineInput::new(start)));
                state.status.clear();
                return Vec::new();
            }
            KeyCode::Char('y') => {
                state.ensure_current();
                return vec![
                    EventsEffect::CopyText(state.preview.clone()),
                    EventsEffect::Status("Batch JSON copied.".into()),
                ];
            }
            _ => {}
        }
    }
    match key.code {
        KeyCode::Tab => {
            state.cycle_focus(false);
            return Vec::new();
        }
        KeyCode::BackTab => {
            state.cycle_focus(true);
            return Vec::new();
        }
        KeyCode::PageDown => {
            state.preview_scroll = state
                .preview_scroll
                .saturating_add(10)
                .min(state.max_preview_scroll());
            return Vec::new();
        }
        KeyCode::PageUp => {
            state.preview_scroll = state.preview_scroll.saturating_sub(10);
            return Vec::new();
        }
        _ => {}
    }

    match state.focus {
        Focus::Field(field) => {
            match key.code {
                KeyCode::Char('n') if ctrl => {
                    if let Some(next) = complete(field, state.input(field).text()) {
                        state.input_mut(field).set(next);
                    }
                }
                KeyCode::Down | KeyCode::Enter => state.cycle_focus(false),
                KeyCode::Up => state.cycle_focus(true),
                _ => {
                    state.input_mut(field).handle_key(&key);
                }
            }
            state.refresh();
        }
        Focus::Raw => {
            if state.raw.input(key).is_some() {
                state.refresh();
            }
        }
        Focus::Problems => match key.code {
            KeyCode::Up | KeyCode::Char('k') => {
                state.problem_sel = state.problem_sel.saturating_sub(1);
                state.problems_top = state.problems_top.min(state.problem_sel);
            }
            KeyCode::Down | KeyCode::Char('j') => {
                state.problem_sel =
                    (state.problem_sel + 1).min(state.problems.len().saturating_sub(1))
            }
            KeyCode::Enter => state.jump_to_problem(state.problem_sel),
            _ => {}
        },
        Focus::Items => items_key(state, key, alt),
    }
    Vec::new()
}

fn items_key(state: &mut EventsState, key: KeyEvent, alt: bool) {
    let n = state.draft.items.len();
    match key.code {
        KeyCode::Up if alt => move_item(state, true),
        KeyCode::Down if alt => move_item(state, false),
        KeyCode::Char('K') => move_item(state, true),
        KeyCode::Char('J') => move_item(state, false),
        KeyCode::Up | KeyCode::Char('k') => {
            state.row = state.row.saturating_sub(1);
            state.items_top = state.items_top.min(state.row);
        }
        KeyCode::Down | KeyCode::Char('j') => state.row = (state.row + 1).min(n.saturating_sub(1)),
        KeyCode::Left | KeyCode::Char('h') => {
            state.col = Column::ALL[state.col.index().saturating_sub(1)]
        }
        KeyCode::Right | KeyCode::Char('l') => {
            state.col = Column::ALL[(state.col.index() + 1).min(Column::ALL.len() - 1)]
        }
        KeyCode::Enter | KeyCode::Char('e') => {
            if let Some(item) = state.draft.items.get(state.row) {
                state.editing = Some(LineInput::new(cell(item, state.col)));
            }
        }
        KeyCode::Char(' ') | KeyCode::Char('c') => {
            if let Some(item) = state.draft.items.get_mut(state.row) {
                item.clicked = !item.clicked;
                state.refresh();
            }
        }
        KeyCode::Char('a') | KeyCode::Insert => {
            let at = if n == 0 { 0 } else { state.row + 1 };
            let template = state.draft.items.get(state.row).cloned();
            let item = ItemDraft {
                currency: template.map(|t| t.currency).unwrap_or_default(),
                ..ItemDraft::default()
            };
            state.draft.items.insert(at, item);
            state
                .extras
                .items
                .insert(at.min(state.extras.items.len()), Map::new());
            state.row = at;
            state.col = Column::GroupId;
            state.items_changed();
            state.editing = Some(LineInput::default());
        }
        KeyCode::Char('y') => {
            if let Some(item) = state.draft.items.get(state.row).cloned() {
                let extra = state
                    .extras
                    .items
                    .get(state.row)
                    .cloned()
                    .unwrap_or_default();
                state.draft.items.insert(state.row + 1, item);
                state
                    .extras
                    .items
                    .insert((state.row + 1).min(state.extras.items.len()), extra);
                state.row += 1;
                state.items_changed();
            }
        }
        KeyCode::Char('d') | KeyCode::Char('x') | KeyCode::Delete if state.row < n => {
            state.draft.items.remove(state.row);
            if state.row < state.extras.items.len() {
                state.extras.items.remove(state.row);
            }
            state.row = state.row.min(state.draft.items.len().saturating_sub(1));
            state.items_changed();
        }
        _ => {}
    }
}

fn move_item(state: &mut EventsState, up: bool) {
    let n = state.draft.items.len();
    let (a, b) = if up {
        if state.row == 0 || n == 0 {
            return;
        }
        (state.row - 1, state.row)
    } else {
        if state.row + 1 >= n {
            return;
        }
        (state.row, state.row + 1)
    };
    state.draft.items.swap(a, b);
    state.extras.items.resize(n, Map::new());
    state.extras.items.swap(a, b);
    state.row = if up { a } else { b };
    state.items_changed();
}

fn send(state: &mut EventsState) -> Vec<EventsEffect> {
    if state.analytics_url.text().trim().is_empty() {
        state.status = "Set the analytics URL before sending.".into();
        return Vec::new();
    }
    // What is sent, and the problem count in the status, are those of the current batch.
    state.ensure_current();
    let errors = state
        .problems
        .iter()
        .filter(|p| p.level == Level::Error)
        .count();
    state.sending = true;
    state.sent_events = state.preview_events;
    state.status = if errors > 0 {
        format!(
            "Sending a batch with {errors} problem(s) to {}…",
            state.collect_url()
        )
    } else {
        format!("Sending to {}…", state.collect_url())
    };
    vec![EventsEffect::SendEvents {
        url: state.collect_url(),
        body: Bytes::from(state.preview.clone()),
    }]
}

// ---------------------------------------------------------------------------------------------
// Drawing

fn focused_style() -> Style {
    Style::new().add_modifier(Modifier::REVERSED)
}

fn block<'a>(title: impl Into<Line<'a>>, focused: bool) -> Block<'a> {
    let b = Block::new().borders(Borders::ALL).title(title);
    if focused {
        b.border_style(Style::new().add_modifier(Modifier::BOLD))
            .title_style(Style::new().add_modifier(Modifier::BOLD))
    } else {
        b
    }
}

/// Widths of the items table's columns: #, clk, the seven editable columns, item_id.
const ITEM_WIDTHS: [Constraint; 10] = [
    Constraint::Length(2),
    Constraint::Length(3),
    Constraint::Min(5),
    Constraint::Min(4),
    Constraint::Fill(2),
    Constraint::Min(5),
    Constraint::Length(3),
    Constraint::Fill(1),
    Constraint::Fill(2),
    Constraint::Fill(1),
];
/// Spacing between the items table's columns.
const ITEM_SPACING: u16 = 1;

/// Where the parts of the events view are for a given area and state: [`draw`] draws with it
/// and mouse hit testing uses it, so a click lands on what is drawn under the pointer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventsLayout {
    /// 110 columns or more: form left, preview / problems / response right.
    pub wide: bool,
    /// The "List" box of the form (form mode).
    pub fields_block: Option<Rect>,
    /// Each top field: its label and value.
    pub fields: Vec<(Field, Rect)>,
    /// Width of the field labels before the value (label and ": ").
    pub label_w: u16,
    /// The completion row under the fields, when one fits.
    pub suggestions: Option<Rect>,
    /// The items table (form mode).
    pub items: Option<Rect>,
    /// The item rows on screen: index into the items, and the row.
    pub item_rows: Vec<(usize, Rect)>,
    /// The editable columns, as their header cells (x and width apply to every row).
    pub item_columns: Vec<(Column, Rect)>,
    /// The raw JSON editor (raw mode).
    pub raw: Option<Rect>,
    pub preview: Option<Rect>,
    pub problems: Rect,
    /// The problems on screen: index, and the rows it takes (messages wrap).
    pub problem_rows: Vec<(usize, Rect)>,
    pub response: Option<Rect>,
    pub footer: Rect,
}

/// The layout of the events view in `area`.
pub fn layout(area: Rect, state: &EventsState) -> EventsLayout {
    let [main, footer] = Layout::vertical([Constraint::Min(4), Constraint::Length(1)]).areas(area);
    let wide = main.width >= 110;
    let (left, right) = if wide {
        let [l, r] = Layout::horizontal([Constraint::Percentage(58), Constraint::Percentage(42)])
            .areas(main);
        (l, r)
    } else {
        let fields_h = if state.mode == Mode::Form { 6 } else { 0 };
        let items_h = if state.mode == Mode::Form {
            (state.draft.items.len() as u16 + 3).clamp(4, 8)
        } else {
            0
        };
        let [l, r] = Layout::vertical([Constraint::Length(fields_h + items_h), Constraint::Min(5)])
            .areas(main);
        (l, r)
    };
    let mut l = EventsLayout {
        wide,
        footer,
        ..EventsLayout::default()
    };
    match state.mode {
        Mode::Form => {
            let fields_h = if wide { 9 } else { 6 };
            let [fields_area, items_area] =
                Layout::vertical([Constraint::Length(fields_h), Constraint::Min(3)]).areas(left);
            layout_fields(&mut l, fields_area, state);
            layout_items(&mut l, items_area, state);
        }
        Mode::Raw => {
            if wide {
                l.raw = Some(left);
            }
        }
    }

    // Right (or bottom): preview | problems | response.
    let has_response = state.response.is_some() || state.sending;
    if wide {
        let resp_h = if has_response && state.mode == Mode::Form {
            10
        } else {
            0
        };
        let [preview, problems, response] = Layout::vertical([
            Constraint::Min(5),
            Constraint::Length((state.problems.len() as u16 + 2).clamp(3, 8)),
            Constraint::Length(resp_h),
        ])
        .areas(right);
        if state.mode == Mode::Form {
            l.preview = Some(preview);
            if has_response {
                l.response = Some(response);
            }
        } else {
            // The raw editor is on the left: the response takes the preview's place.
            l.response = Some(preview);
        }
        l.problems = problems;
    } else {
        let [a, b] = Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
            .areas(right);
        if state.mode == Mode::Form {
            l.preview = Some(a);
        } else {
            l.raw = Some(a);
        }
        if has_response {
            let [p, r] =
                Layout::vertical([Constraint::Percentage(40), Constraint::Percentage(60)]).areas(b);
            l.problems = p;
            l.response = Some(r);
        } else {
            l.problems = b;
        }
    }
    layout_problems(&mut l, state);
    l
}

/// Wide: one field per row. Narrow: two per row after the URL; the second starts at half the
/// width or one column after the first one's text, whichever is further right.
fn layout_fields(l: &mut EventsLayout, area: Rect, state: &EventsState) {
    l.fields_block = Some(area);
    let inner = block("", false).inner(area);
    let bottom = inner.y + inner.height;
    let row = |i: u16| (inner.y + i < bottom).then(|| inner.y + i);
    let rows_used;
    if l.wide {
        l.label_w = 15;
        for (i, f) in Field::ALL.iter().enumerate() {
            if let Some(y) = row(i as u16) {
                l.fields.push((*f, Rect::new(inner.x, y, inner.width, 1)));
            }
        }
        rows_used = Field::ALL.len() as u16;
    } else {
        l.label_w = 11;
        let pairs = [
            (Field::AnalyticsUrl, None),
            (Field::ApiKey, Some(Field::ListId)),
            (Field::ListName, Some(Field::ListLogic)),
            (Field::Tags, Some(Field::UserIp)),
        ];
        let right = inner.x + inner.width;
        for (i, (a, b)) in pairs.into_iter().enumerate() {
            let Some(y) = row(i as u16) else { break };
            let Some(b) = b else {
                l.fields.push((a, Rect::new(inner.x, y, inner.width, 1)));
                continue;
            };
            let used = l.label_w + field_value(state, a).0.chars().count() as u16;
            let b_x = (inner.x + (inner.width / 2).max(used + 1)).min(right);
            l.fields.push((a, Rect::new(inner.x, y, b_x - inner.x, 1)));
            l.fields.push((b, Rect::new(b_x, y, right - b_x, 1)));
        }
        rows_used = pairs.len() as u16;
    }
    if let Focus::Field(Field::ListLogic | Field::Tags) = state.focus {
        l.suggestions = row(rows_used).map(|y| Rect::new(inner.x, y, inner.width, 1));
    }
}

/// The rows shown are a window that keeps the selected row on screen.
fn layout_items(l: &mut EventsLayout, area: Rect, state: &EventsState) {
    l.items = Some(area);
    let inner = block("", false).inner(area);
    let visible = usize::from(area.height.saturating_sub(3).max(1));
    let first = super::view::window_first(state.items_top, state.row, visible);
    let body_y = inner.y + 1; // under the header
    for (k, idx) in (first..state.draft.items.len()).take(visible).enumerate() {
        let y = body_y + k as u16;
        if y < inner.y + inner.height {
            l.item_rows
                .push((idx, Rect::new(inner.x, y, inner.width, 1)));
        }
    }
    let cols = Layout::horizontal(ITEM_WIDTHS)
        .flex(Flex::Start)
        .spacing(ITEM_SPACING)
        .split(Rect::new(
            inner.x,
            inner.y,
            inner.width,
            1.min(inner.height),
        ));
    l.item_columns = Column::ALL
        .iter()
        .zip(cols.iter().skip(2))
        .map(|(c, r)| (*c, *r))
        .collect();
}

/// The problems shown: a window that starts where it was and moves only to keep the selected
/// problem fully visible, each problem taking as many rows as its wrapped text.
fn layout_problems(l: &mut EventsLayout, state: &EventsState) {
    let inner = block("", false).inner(l.problems);
    if inner.height == 0 || state.problems.is_empty() {
        return;
    }
    let rows_of = |i: usize| {
        super::view::wrap_spans(&problem_spans(state, &state.problems[i]), inner.width).len() as u16
    };
    let sel = state.problem_sel.min(state.problems.len() - 1);
    let top = state.problems_top.min(sel);
    // Does the selection fit in a window starting at `top`?
    let mut used = 0;
    let fits = (top..=sel).all(|i| {
        used += rows_of(i);
        used <= inner.height
    });
    let first = if fits {
        top
    } else {
        // The window that ends with the selection.
        let mut first = sel;
        let mut used = rows_of(sel);
        while first > 0 {
            let h = rows_of(first - 1);
            if used + h > inner.height {
                break;
            }
            used += h;
            first -= 1;
        }
        first
    };
    let bottom = inner.y + inner.height;
    let mut y = inner.y;
    for i in first..state.problems.len() {
        if y >= bottom {
            break;
        }
        let h = rows_of(i).min(bottom - y);
        l.problem_rows
            .push((i, Rect::new(inner.x, y, inner.width, h)));
        y += h;
    }
}

/// Click to focus a field, a pane or an item row (and its column); the wheel scrolls the
/// preview and the response, and moves the selection in the items and problems lists.
fn on_mouse(state: &mut EventsState, m: MouseEvent, area: Rect) {
    let pos = Position::new(m.column, m.row);
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            if state.prompt.is_some() {
                return; // the path prompt keeps the keyboard until Enter or Esc
            }
            // Leaving a cell by clicking elsewhere keeps what was typed, as Enter does.
            if let Some(input) = state.editing.take() {
                if let Some(item) = state.draft.items.get_mut(state.row) {
                    *cell_mut(item, state.col) = input.text().to_string();
                }
                state.refresh();
            }
            let l = layout(area, state);
            state.keep_windows(&l);
            if let Some((f, _)) = l.fields.iter().find(|(_, r)| r.contains(pos)) {
                state.set_focus(Focus::Field(*f));
            } else if l.items.is_some_and(|r| r.contains(pos)) {
                state.set_focus(Focus::Items);
                if let Some((idx, _)) = l.item_rows.iter().find(|(_, r)| r.contains(pos)) {
                    state.row = *idx;
                    let col = l
                        .item_columns
                        .iter()
                        .find(|(_, r)| (r.x..r.x + r.width).contains(&pos.x));
                    if let Some((c, _)) = col {
                        state.col = *c;
                    }
                }
            } else if l.problems.contains(pos) {
                state.set_focus(Focus::Problems);
                if let Some((i, _)) = l.problem_rows.iter().find(|(_, r)| r.contains(pos)) {
                    state.problem_sel = *i;
                }
            } else if l.raw.is_some_and(|r| r.contains(pos)) {
                state.set_focus(Focus::Raw);
            }
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let down = m.kind == MouseEventKind::ScrollDown;
            let l = layout(area, state);
            state.keep_windows(&l);
            let step = |v: u16, by: u16| {
                if down {
                    v.saturating_add(by)
                } else {
                    v.saturating_sub(by)
                }
            };
            if l.preview.is_some_and(|r| r.contains(pos)) {
                state.preview_scroll =
                    step(state.preview_scroll, 3).min(state.max_preview_scroll());
            } else if l.response.is_some_and(|r| r.contains(pos)) {
                state.response_scroll = step(state.response_scroll, 3);
            } else if l.problems.contains(pos) {
                let last = state.problems.len().saturating_sub(1);
                state.problem_sel = if down {
                    (state.problem_sel + 1).min(last)
                } else {
                    state.problem_sel.saturating_sub(1)
                };
            } else if l.items.is_some_and(|r| r.contains(pos)) && state.editing.is_none() {
                let last = state.draft.items.len().saturating_sub(1);
                state.row = if down {
                    (state.row + 1).min(last)
                } else {
                    state.row.saturating_sub(1)
                };
            } else if l.raw.is_some_and(|r| r.contains(pos)) {
                // The editor scrolls its own view (the text does not change).
                if state.raw.input(ratatui_textarea::Input::from(m)).is_some() {
                    state.refresh();
                }
            }
        }
        _ => {}
    }
}

/// Draw the events view into `area`.
pub fn draw(frame: &mut Frame, area: Rect, state: &EventsState) {
    let l = layout(area, state);
    if state.mode == Mode::Form {
        draw_fields(frame, &l, state);
        draw_items(frame, &l, state);
    }
    if let Some(r) = l.raw {
        draw_raw(frame, r, state);
    }
    if let Some(r) = l.preview {
        draw_preview(frame, r, state);
    }
    draw_problems(frame, &l, state);
    if let Some(r) = l.response {
        draw_response_or_stored(frame, r, state);
    }

    // Footer: prompt or status.
    let footer = l.footer;
    let line = if let Some((kind, input)) = &state.prompt {
        let label = match kind {
            PromptKind::Load => "Load batch from: ",
            PromptKind::Save => "Save batch to: ",
        };
        // What the prompt was told (a file already there, no path typed) follows it.
        let mut spans = vec![
            Span::styled(label, Style::new().bold()),
            Span::raw(input.text().to_string()),
            Span::raw("  (Enter ok, Esc cancel)"),
        ];
        if !state.status.is_empty() {
            spans.push(Span::raw("  "));
            spans.push(Span::styled(state.status.clone(), Style::new().bold()));
        }
        Line::from(spans)
    } else if !state.status.is_empty() {
        Line::from(state.status.clone())
    } else {
        Line::from("Ctrl-S send  Ctrl-R raw/form  Ctrl-O load  Ctrl-E save  Tab next  F1 help")
            .dim()
    };
    frame.render_widget(Paragraph::new(line), footer);
    if let Some((_, input)) = &state.prompt {
        let label_w = match state.prompt.as_ref().map(|p| p.0) {
            Some(PromptKind::Load) => 17,
            _ => 15,
        };
        frame.set_cursor_position((
            footer.x + (label_w + input.cursor() as u16).min(footer.width.saturating_sub(1)),
            footer.y,
        ));
    }
}

/// The text a field shows: its value, or a dim placeholder when empty (true).
fn field_value(state: &EventsState, f: Field) -> (&str, bool) {
    let text = state.input(f).text();
    if text.is_empty() {
        let placeholder = match f {
            Field::UserIp => "(none)",
            Field::Tags => "name:value, ...",
            _ => "",
        };
        (placeholder, true)
    } else {
        (text, false)
    }
}

fn field_spans<'a>(state: &'a EventsState, f: Field, label_w: u16) -> Vec<Span<'a>> {
    let focused = state.focus == Focus::Field(f);
    let label = format!(
        "{:>w$}: ",
        f.label(),
        w = usize::from(label_w.saturating_sub(2))
    );
    let value = match field_value(state, f) {
        (text, true) => Span::styled(text, Style::new().dim()),
        (text, false) => Span::raw(text),
    };
    let value = if focused {
        value.patch_style(focused_style())
    } else {
        value
    };
    vec![Span::styled(label, Style::new().bold()), value]
}

fn draw_fields(frame: &mut Frame, l: &EventsLayout, state: &EventsState) {
    let Some(area) = l.fields_block else { return };
    frame.render_widget(
        block(" List ", matches!(state.focus, Focus::Field(_))),
        area,
    );
    for (f, rect) in &l.fields {
        frame.render_widget(
            Paragraph::new(Line::from(field_spans(state, *f, l.label_w))),
            *rect,
        );
    }
    // Suggestions for completable fields.
    if let (Focus::Field(f), Some(rect)) = (state.focus, l.suggestions) {
        let cands = completions(f, state.input(f).text());
        frame.render_widget(
            Paragraph::new(Line::from(format!("Ctrl-N: {}", cands.join(" "))).dim()),
            rect,
        );
    }
    // Cursor in the focused field.
    if let Focus::Field(f) = state.focus {
        if let Some((_, rect)) = l.fields.iter().find(|(g, _)| *g == f) {
            let x = l.label_w + state.input(f).cursor() as u16;
            if x < rect.width {
                frame.set_cursor_position((rect.x + x, rect.y));
            }
        }
    }
}

fn draw_items(frame: &mut Frame, l: &EventsLayout, state: &EventsState) {
    let Some(area) = l.items else { return };
    let focused = state.focus == Focus::Items;
    let clicked = state.draft.items.iter().filter(|i| i.clicked).count();
    let title = format!(" Items ({}, {} clicked) ", state.draft.items.len(), clicked);
    let blk = block(title, focused);
    let header = Row::new(
        ["#", "clk"]
            .into_iter()
            .chain(Column::ALL.iter().map(|c| c.title()))
            .chain(["item_id"])
            .map(|t| Cell::from(t).bold()),
    );
    // Rows are built only for the window the layout shows.
    let rows = l.item_rows.iter().map(|(r, _)| {
        let r = *r;
        let item = &state.draft.items[r];
        let mut cells = vec![
            Cell::from((r + 1).to_string()).dim(),
            Cell::from(if item.clicked { "[x]" } else { "[ ]" }),
        ];
        for c in Column::ALL {
            let selected = focused && r == state.row && c == state.col;
            let text = match (&state.editing, selected) {
                (Some(input), true) => format!("{}▏", input.text()),
                _ => cell(item, c).to_string(),
            };
            let mut cell = Cell::from(text);
            if selected {
                cell = cell.style(focused_style());
            }
            cells.push(cell);
        }
        cells.push(Cell::from(format!("{}-{}", item.group_id, item.variant_id)).dim());
        Row::new(cells)
    });
    let table = Table::new(rows, ITEM_WIDTHS)
        .header(header)
        .block(blk)
        .flex(Flex::Start)
        .column_spacing(ITEM_SPACING);
    frame.render_widget(table, area);
    if state.draft.items.is_empty() && area.height > 3 {
        frame.render_widget(
            Paragraph::new("No items: press a to add one.").dim(),
            Rect::new(area.x + 2, area.y + 2, area.width.saturating_sub(4), 1),
        );
    }
}

fn draw_raw(frame: &mut Frame, area: Rect, state: &EventsState) {
    // The block is drawn around the editor rather than set on it, so drawing never clones
    // the text.
    let blk = block(
        " Batch JSON (raw, Ctrl-R: form) ",
        state.focus == Focus::Raw,
    );
    let inner = blk.inner(area);
    frame.render_widget(blk, area);
    frame.render_widget(state.raw.textarea(), inner);
}

fn draw_preview(frame: &mut Frame, area: Rect, state: &EventsState) {
    let title = if state.validating() {
        " Batch preview (validating…) ".to_string()
    } else {
        format!(
            " Batch preview ({}) ",
            counted(state.preview_events, "event")
        )
    };
    // Only the visible lines are handed to the widget: a long batch costs nothing per frame
    // beyond finding where the window starts.
    let height = area.height.saturating_sub(2) as usize;
    let lines: Vec<Line> = state
        .preview
        .lines()
        .skip(state.preview_scroll as usize)
        .take(height)
        .map(Line::raw)
        .collect();
    let mut p = Paragraph::new(lines).block(block(title, false));
    if state.validating() {
        p = p.dim();
    }
    frame.render_widget(p, area);
}

/// One problem as styled text: level, path, message.
fn problem_spans<'a>(state: &EventsState, p: &'a Problem) -> Vec<Span<'a>> {
    let (tag, style) = match p.level {
        Level::Error => ("error", Theme::new(state.no_color).error()),
        Level::Warning => ("warn ", Theme::new(state.no_color).warn()),
    };
    vec![
        Span::styled(format!("{tag} "), style),
        Span::styled(format!("{} ", p.path), Style::new().bold()),
        Span::raw(p.message.as_str()),
    ]
}

fn draw_problems(frame: &mut Frame, l: &EventsLayout, state: &EventsState) {
    let area = l.problems;
    let focused = state.focus == Focus::Problems;
    let listed_errors = state
        .problems
        .iter()
        .filter(|p| p.level == Level::Error)
        .count();
    let warnings = state.problems.len() - listed_errors + state.omitted.warnings;
    let errors = listed_errors + state.omitted.errors;
    let title = if state.validating() {
        " Problems: validating… ".to_string()
    } else if state.problems.is_empty() {
        " Problems: none, batch is valid ".to_string()
    } else {
        let listed = if state.omitted.is_empty() {
            String::new()
        } else {
            format!(" ({} shown)", state.problems.len())
        };
        format!(
            " Problems: {}, {}{listed} ",
            counted(errors, "error"),
            counted(warnings, "warning")
        )
    };
    frame.render_widget(block(title, focused), area);
    // Only the problems on screen are built, in the rows the layout gave them.
    for (i, rect) in &l.problem_rows {
        let spans = problem_spans(state, &state.problems[*i]);
        let mut rows = super::view::wrap_spans(&spans, rect.width);
        if focused && *i == state.problem_sel {
            rows = rows
                .into_iter()
                .map(|r| r.patch_style(focused_style()))
                .collect();
        }
        let mut p = Paragraph::new(rows);
        if state.validating() {
            p = p.dim();
        }
        frame.render_widget(p, *rect);
    }
}

fn pretty(text: &str) -> String {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| text.to_string())
}

fn draw_response_or_stored(frame: &mut Frame, area: Rect, state: &EventsState) {
    if area.height == 0 {
        return;
    }
    let mut lines: Vec<Line> = Vec::new();
    let title = match &state.response {
        None if state.sending => " Response: sending… ".to_string(),
        None => " Response ".to_string(),
        Some(Ok(r)) => format!(" Response: {} in {} ms ", r.status, r.elapsed_ms),
        Some(Err(_)) => " Response: failed ".to_string(),
    };
    match &state.response {
        Some(Ok(r)) => {
            let style = if (200..300).contains(&r.status) {
                Theme::new(state.no_color).ok()
            } else {
                Theme::new(state.no_color).error()
            };
            let mut head = vec![Span::styled(format!("HTTP {}", r.status), style)];
            if let Ok(v) = serde_json::from_str::<Value>(&r.body) {
                for k in ["accepted", "rejected"] {
                    if let Some(n) = v.get(k).and_then(Value::as_u64) {
                        head.push(Span::raw(format!("  {k}: {n}")));
                    }
                }
            }
            lines.push(Line::from(head));
            lines.extend(pretty(&r.body).lines().map(|l| Line::from(l.to_string())));
        }
        Some(Err(why)) => lines.push(Line::styled(
            why.clone(),
            Theme::new(state.no_color).error(),
        )),
        None => {}
    }
    match &state.stored {
        Some(Ok(text)) => {
            lines.push(Line::from("Stored by the local collector:").bold());
            lines.extend(pretty(text).lines().map(|l| Line::from(l.to_string())));
        }
        Some(Err(why)) => lines.push(Line::from(format!("Could not read what was stored: {why}"))),
        None => {}
    }
    frame.render_widget(
        Paragraph::new(lines)
            .block(block(title, false))
            .scroll((state.response_scroll, 0)),
        area,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> EventsMsg {
        EventsMsg::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }
    fn ctrl(c: char) -> EventsMsg {
        EventsMsg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
    }
    fn type_text(state: &mut EventsState, text: &str) {
        for c in text.chars() {
            update(state, key(KeyCode::Char(c)));
        }
    }
    fn batch(state: &EventsState) -> Value {
        serde_json::from_str(state.batch_text()).expect("preview is JSON")
    }

    /// A state with three items 1001-1, 1002-1, 1003-2, focus on the items table.
    fn three_items() -> EventsState {
        let mut s = EventsState::new("http://127.0.0.1:9", "demo-public-key");
        s.focus = Focus::Items;
        for (g, v) in [("1002", "1"), ("1003", "2")] {
            update(&mut s, key(KeyCode::Char('a')));
            type_text(&mut s, g);
            update(&mut s, key(KeyCode::Tab)); // commit and go to variant
            update(&mut s, key(KeyCode::Enter));
            type_text(&mut s, v);
            update(&mut s, key(KeyCode::Enter));
            s.col = Column::GroupId;
        }
        s
    }

    fn ids_and_indexes(v: &Value) -> Vec<(String, u64)> {
        v[0]["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["item_id"].as_str().unwrap().to_string(),
                    i["index"].as_u64().unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn adding_items_derives_ids_and_numbers_indexes_from_one() {
        let s = three_items();
        let v = batch(&s);
        assert_eq!(
            ids_and_indexes(&v),
            vec![
                ("1001-1".to_string(), 1),
                ("1002-1".to_string(), 2),
                ("1003-2".to_string(), 3)
            ]
        );
        assert_eq!(v.as_array().unwrap().len(), 1, "no click, no select event");
    }

    #[test]
    fn moving_deleting_and_duplicating_renumber_indexes() {
        let mut s = three_items();
        s.row = 2;
        update(&mut s, key(KeyCode::Char('K')));
        assert_eq!(s.row, 1);
        assert_eq!(
            ids_and_indexes(&batch(&s)),
            vec![
                ("1001-1".to_string(), 1),
                ("1003-2".to_string(), 2),
                ("1002-1".to_string(), 3)
            ]
        );
        update(
            &mut s,
            EventsMsg::Key(KeyEvent::new(KeyCode::Down, KeyModifiers::ALT)),
        );
        assert_eq!(s.row, 2);
        assert_eq!(ids_and_indexes(&batch(&s))[2].0, "1003-2");
        s.row = 0;
        update(&mut s, key(KeyCode::Char('d')));
        assert_eq!(
            ids_and_indexes(&batch(&s)),
            vec![("1002-1".to_string(), 1), ("1003-2".to_string(), 2)]
        );
        update(&mut s, key(KeyCode::Char('y')));
        assert_eq!(
            ids_and_indexes(&batch(&s)),
            vec![
                ("1002-1".to_string(), 1),
                ("1002-1".to_string(), 2),
                ("1003-2".to_string(), 3)
            ]
        );
    }

    #[test]
    fn clicked_items_produce_one_select_event_each_in_item_order() {
        let mut s = three_items();
        s.row = 2;
        update(&mut s, key(KeyCode::Char(' ')));
        s.row = 1;
        update(&mut s, key(KeyCode::Char(' ')));
        let v = batch(&s);
        let events = v.as_array().unwrap();
        assert_eq!(events.len(), 3);
        assert_eq!(events[0]["event"], "view_recs_list");
        assert_eq!(events[1]["event"], "select_recs_list");
        assert_eq!(events[1]["items"][0]["item_id"], "1002-1");
        assert_eq!(events[1]["items"][0]["index"], 2);
        assert_eq!(events[2]["items"][0]["item_id"], "1003-2");
        assert_eq!(events[1]["event_list_id"], events[0]["event_list_id"]);
        // Unmark: the select event goes away.
        update(&mut s, key(KeyCode::Char(' ')));
        assert_eq!(batch(&s).as_array().unwrap().len(), 2);
    }

    #[test]
    fn editing_a_cell_in_place_commits_on_enter_and_esc_cancels() {
        let mut s = three_items();
        s.row = 0;
        s.col = Column::Currency;
        update(&mut s, key(KeyCode::Enter));
        assert!(s.is_text_input_focused());
        update(&mut s, ctrl('u'));
        type_text(&mut s, "USD");
        update(&mut s, key(KeyCode::Enter));
        assert!(!s.is_text_input_focused());
        assert_eq!(batch(&s)[0]["items"][0]["currency"], "USD");
        update(&mut s, key(KeyCode::Enter));
        type_text(&mut s, "XX");
        update(&mut s, key(KeyCode::Esc));
        assert_eq!(batch(&s)[0]["items"][0]["currency"], "USD");
    }

    #[test]
    fn top_fields_feed_every_event_and_tags_complete_page_types() {
        let mut s = three_items();
        s.row = 0;
        update(&mut s, key(KeyCode::Char(' ')));
        s.focus = Focus::Field(Field::ListId);
        update(&mut s, ctrl('u'));
        type_text(&mut s, "banner-7");
        s.focus = Focus::Field(Field::Tags);
        update(&mut s, ctrl('u'));
        type_text(&mut s, "recsPageType:CAT");
        update(&mut s, ctrl('n'));
        s.focus = Focus::Field(Field::ListLogic);
        update(&mut s, ctrl('u'));
        type_text(&mut s, "newest");
        update(&mut s, ctrl('n'));
        let v = batch(&s);
        for e in v.as_array().unwrap() {
            assert_eq!(e["event_list_id"], "banner-7");
            assert_eq!(
                e["event_tags"],
                serde_json::json!(["recsPageType:CATEGORY"])
            );
            assert_eq!(e["event_list_logic"], "NEWEST_ARRIVALS");
            assert_eq!(e["event_apikey"], "demo-public-key");
        }
    }

    #[test]
    fn problem_paths_map_to_form_fields_and_item_cells() {
        let s = three_items();
        let mut b = batch(&s);
        b.as_array_mut().unwrap().push(serde_json::json!({
            "event": "select_recs_list", "items": [{"item_id": "1003-2", "index": 3}]
        }));
        match target_of_path("[0].items[1].currency", &b) {
            Some(Target::Item(1, Column::Currency)) => {}
            _ => panic!("view item 1 currency"),
        }
        match target_of_path("[1].items[0].item_id", &b) {
            Some(Target::Item(2, Column::GroupId)) => {}
            _ => panic!("select item maps back to row 2 through its index"),
        }
        match target_of_path("[0].user_profile.ip_address", &b) {
            Some(Target::Field(Field::UserIp)) => {}
            _ => panic!("ip address"),
        }
        match target_of_path("[0].event_list_logic", &b) {
            Some(Target::Field(Field::ListLogic)) => {}
            _ => panic!("list logic"),
        }
    }

    #[test]
    fn selecting_a_problem_jumps_to_its_field() {
        let mut s = three_items();
        s.problems = vec![Problem {
            level: Level::Error,
            path: "[0].items[2].currency".into(),
            code: "FORMAT".into(),
            value: None,
            message: "currency must be three upper-case letters".into(),
            line: None,
            column: None,
        }];
        s.focus = Focus::Problems;
        update(&mut s, key(KeyCode::Enter));
        assert_eq!(s.focus, Focus::Items);
        assert_eq!((s.row, s.col), (2, Column::Currency));
    }

    #[test]
    fn raw_mode_round_trip_keeps_unknown_fields() {
        let mut s = EventsState::new("http://127.0.0.1:9", "k");
        let text = r#"[
  {"event": "view_recs_list", "event_apikey": "k", "event_list_id": "L",
   "event_tags": ["recsPageType:HOME"], "event_list_name": "N", "event_list_logic": "SIMILAR",
   "x_experiment": "B", "user_profile": {"ip_address": "10.0.0.1", "segment": "gold"},
   "items": [
     {"item_id": "1-a", "item_group_id": "1", "item_variant_id": "a", "item_name": "One",
      "price": "1.00", "currency": "EUR", "item_brand": "b", "item_category": "c", "index": 1,
      "item_color": "red"},
     {"item_id": "2-b", "item_group_id": "2", "item_variant_id": "b", "item_name": "Two",
      "price": "2.00", "currency": "EUR", "item_brand": "b", "item_category": "c", "index": 2}
   ]},
  {"event": "select_recs_list", "event_apikey": "k", "event_list_id": "L",
   "event_tags": ["recsPageType:HOME"], "event_list_name": "N", "event_list_logic": "SIMILAR",
   "x_click_source": "email",
   "items": [{"item_id": "1-a", "item_group_id": "1", "item_variant_id": "a", "item_name": "One",
      "price": "1.00", "currency": "EUR", "item_brand": "b", "item_category": "c", "index": 1,
      "item_color": "red"}]},
  {"event": "custom_event", "foo": 1}
]"#;
        update(&mut s, ctrl('r'));
        assert_eq!(s.mode, Mode::Raw);
        s.raw = BodyEditor::new(text);
        update(&mut s, key(KeyCode::Char(' '))); // an edit refreshes
        update(&mut s, ctrl('r'));
        assert_eq!(s.mode, Mode::Form, "status: {}", s.status);
        assert!(s.draft.items[0].clicked);
        // Edit in the form: the unknown members stay, and follow their item when moved.
        s.focus = Focus::Items;
        s.row = 0;
        update(&mut s, key(KeyCode::Char('J')));
        let v = batch(&s);
        assert_eq!(v[0]["x_experiment"], "B");
        assert_eq!(v[0]["user_profile"]["segment"], "gold");
        assert_eq!(v[0]["user_profile"]["ip_address"], "10.0.0.1");
        assert_eq!(v[0]["items"][1]["item_id"], "1-a");
        assert_eq!(v[0]["items"][1]["index"], 2);
        assert_eq!(v[0]["items"][1]["item_color"], "red");
        assert!(v[0]["items"][0].get("item_color").is_none());
        assert_eq!(v[1]["x_click_source"], "email");
        assert_eq!(v[1]["items"][0]["item_color"], "red");
        assert_eq!(v[2], serde_json::json!({"event": "custom_event", "foo": 1}));
        // And back to raw: the text contains them too.
        update(&mut s, ctrl('r'));
        assert!(s.raw.text().contains("\"item_color\": \"red\""));
    }

    #[test]
    fn broken_raw_json_keeps_raw_mode_and_reports_syntax_with_position() {
        let mut s = EventsState::new("http://127.0.0.1:9", "k");
        update(&mut s, ctrl('r'));
        s.raw = BodyEditor::new("[\n  {\"event\": }\n]");
        update(&mut s, key(KeyCode::Char(' ')));
        assert!(s.problems.iter().any(|p| p.code == "JSON_SYNTAX"));
        update(&mut s, ctrl('r'));
        assert_eq!(s.mode, Mode::Raw, "refuses to leave: nothing lost");
        assert!(s.status.contains("does not parse"), "{}", s.status);
        let lines: Vec<&str> = s.raw.text().lines().collect();
        assert_eq!(lines[1], "  {\"event\": }");
        assert_eq!(lines[0], " [");
        // Selecting the problem puts the cursor on it.
        s.focus = Focus::Problems;
        update(&mut s, key(KeyCode::Enter));
        assert_eq!(s.focus, Focus::Raw);
        assert_eq!(s.raw.cursor_line(), 1);
        let at = s.raw.cursor_offset();
        assert_eq!(
            &s.raw.text()[at..at + 1],
            "}",
            "on the column the problem names"
        );
    }

    #[test]
    fn send_posts_the_preview_bytes_and_fetches_what_the_local_collector_stored() {
        let mut s = three_items();
        update(
            &mut s,
            EventsMsg::SetTarget {
                analytics_url: "http://127.0.0.1:4000/".into(),
                api_key: "demo-public-key".into(),
                local: true,
            },
        );
        let effects = update(&mut s, ctrl('s'));
        assert_eq!(
            effects,
            vec![EventsEffect::SendEvents {
                url: "http://127.0.0.1:4000/analytics/collect".into(),
                body: Bytes::from(s.batch_text().to_string()),
            }]
        );
        let effects = update(
            &mut s,
            EventsMsg::Sent(Ok(SendReport {
                status: 200,
                body: r#"{"accepted":1,"rejected":0}"#.into(),
                elapsed_ms: 3,
            })),
        );
        assert_eq!(
            effects,
            vec![EventsEffect::FetchStored {
                url: "http://127.0.0.1:4000/_inspect/events?limit=1".into()
            }]
        );
        assert!(s.status.contains("200"));
    }

    /// The title said "(1 events)".
    #[test]
    fn the_preview_title_counts_one_event_in_the_singular() {
        let s = EventsState::new("http://127.0.0.1:9", "k");
        assert_eq!(s.preview_events, 1, "a new list is one view event");
        let screen = crate::tui::test_util::render_text(120, 30, |f| draw(f, f.area(), &s));
        assert!(screen.contains("Batch preview (1 event)"), "{screen}");
    }

    /// Ctrl-E used to replace any file at the typed path without a word.
    #[test]
    fn saving_over_an_existing_file_asks_first() {
        let mut s = EventsState::new("http://127.0.0.1:9", "k");
        s.status = "Collector answered 200 in 3 ms.".into();
        update(&mut s, ctrl('e'));
        update(&mut s, ctrl('u'));
        type_text(&mut s, "/home/me/notes.txt");
        let path = PathBuf::from("/home/me/notes.txt");
        let effects = update(&mut s, key(KeyCode::Enter));
        assert_eq!(
            effects,
            vec![EventsEffect::SaveNewFile(
                path.clone(),
                s.batch_text().to_string()
            )]
        );
        // The runtime found a file there: the prompt comes back and says so.
        update(&mut s, EventsMsg::FileExists(path.clone()));
        let screen = crate::tui::test_util::render_text(160, 40, |f| draw(f, f.area(), &s));
        let footer = screen
            .lines()
            .find(|l| l.contains("Save batch to:"))
            .expect("the save prompt");
        assert!(
            footer.contains("/home/me/notes.txt already exists; Enter replaces it"),
            "{footer}"
        );
        // Esc keeps the file; asking again asks again.
        update(&mut s, key(KeyCode::Esc));
        update(&mut s, ctrl('e'));
        update(&mut s, ctrl('u'));
        type_text(&mut s, "/home/me/notes.txt");
        assert!(matches!(
            update(&mut s, key(KeyCode::Enter)).as_slice(),
            [EventsEffect::SaveNewFile(..)]
        ));
        // Enter after the warning replaces it.
        update(&mut s, EventsMsg::FileExists(path.clone()));
        assert_eq!(
            update(&mut s, key(KeyCode::Enter)),
            vec![EventsEffect::SaveFile(
                path.clone(),
                s.batch_text().to_string()
            )]
        );
        // The file saved to in this session is replaced without asking.
        update(&mut s, EventsMsg::FileSaved(path.clone()));
        update(&mut s, ctrl('e'));
        assert!(matches!(
            update(&mut s, key(KeyCode::Enter)).as_slice(),
            [EventsEffect::SaveFile(p, _)] if *p == path
        ));
    }

    #[test]
    fn load_and_save_go_through_a_path_prompt() {
        let mut s = EventsState::new("http://127.0.0.1:9", "k");
        update(&mut s, ctrl('e'));
        assert!(s.is_text_input_focused());
        update(&mut s, ctrl('u'));
        type_text(&mut s, "/tmp/b.json");
        let effects = update(&mut s, key(KeyCode::Enter));
        assert_eq!(
            effects,
            vec![EventsEffect::SaveNewFile(
                PathBuf::from("/tmp/b.json"),
                s.batch_text().to_string()
            )]
        );
        update(&mut s, EventsMsg::FileSaved(PathBuf::from("/tmp/b.json")));
        assert!(s.status.contains("/tmp/b.json"));
        update(&mut s, ctrl('o'));
        let effects = update(&mut s, key(KeyCode::Enter));
        assert_eq!(
            effects,
            vec![EventsEffect::LoadFile(PathBuf::from("/tmp/b.json"))]
        );
        update(
            &mut s,
            EventsMsg::FileLoaded {
                path: "/tmp/b.json".into(),
                text: "{not json".into(),
            },
        );
        assert_eq!(s.mode, Mode::Raw, "unparsable file lands in the raw editor");
        assert_eq!(s.raw.text().lines().next(), Some("{not json"));
    }

    fn render(state: &EventsState, w: u16, h: u16) -> String {
        crate::tui::test_util::render_text(w, h, |f| draw(f, f.area(), state))
    }

    #[test]
    fn draws_form_items_preview_and_response_at_80x24_and_120x40() {
        let mut s = three_items();
        s.row = 1;
        update(&mut s, key(KeyCode::Char(' ')));
        update(
            &mut s,
            EventsMsg::Sent(Ok(SendReport {
                status: 200,
                body: r#"{"accepted":2,"rejected":0}"#.into(),
                elapsed_ms: 4,
            })),
        );
        for (w, h) in [(80, 24), (120, 40)] {
            let screen = render(&s, w, h);
            assert!(screen.contains("Items (3, 1 clicked)"), "{w}x{h}\n{screen}");
            assert!(screen.contains("1002"), "{w}x{h}\n{screen}");
            assert!(screen.contains("[x]"), "{w}x{h}\n{screen}");
            assert!(
                screen.contains("Batch preview (2 events)"),
                "{w}x{h}\n{screen}"
            );
            assert!(screen.contains("view_recs_list"), "{w}x{h}\n{screen}");
            assert!(
                screen.contains("HTTP 200  accepted: 2  rejected: 0"),
                "{w}x{h}\n{screen}"
            );
            assert!(screen.contains("\"accepted\": 2"), "{w}x{h}\n{screen}");
            assert!(screen.contains("List id"), "{w}x{h}\n{screen}");
            if std::env::var("SHOW").is_ok() {
                println!("{screen}");
            }
        }
    }

    #[test]
    fn a_long_list_scrolls_to_the_selected_row_and_the_preview_scrolls() {
        let mut s = EventsState::new("http://127.0.0.1:9", "k");
        s.focus = Focus::Items;
        for _ in 0..30 {
            update(&mut s, key(KeyCode::Char('y')));
        }
        s.row = 29;
        s.draft.items[29].group_id = "LAST".into();
        s.refresh();
        let screen = render(&s, 120, 40);
        assert!(screen.contains("LAST-1"), "{screen}");
        assert!(screen.contains("│[ "), "{screen}");
        update(&mut s, key(KeyCode::PageDown));
        let screen = render(&s, 120, 40);
        assert!(
            !screen.contains("│[ "),
            "scrolled past the opening bracket\n{screen}"
        );
    }

    #[test]
    fn draws_raw_mode_and_problems() {
        let mut s = EventsState::new("http://127.0.0.1:9", "k");
        update(&mut s, ctrl('r'));
        s.raw = BodyEditor::new("[\n  {\"event\": }\n]");
        update(&mut s, key(KeyCode::Char(' ')));
        for (w, h) in [(80, 24), (120, 40)] {
            let screen = render(&s, w, h);
            assert!(screen.contains("Batch JSON (raw"), "{w}x{h}\n{screen}");
            assert!(screen.contains("{\"event\": }"), "{w}x{h}\n{screen}");
            assert!(screen.contains("1 error,"), "{w}x{h}\n{screen}");
        }
    }
}

#[cfg(test)]
mod validator_tests {
    use super::*;

    fn key(code: KeyCode) -> EventsMsg {
        EventsMsg::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn the_starter_list_is_valid_and_a_bad_currency_is_reported_and_jumped_to() {
        let mut s = EventsState::new("http://127.0.0.1:9", "demo-public-key");
        let errors: Vec<_> = s
            .problems
            .iter()
            .filter(|p| p.level == Level::Error)
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        s.focus = Focus::Items;
        update(&mut s, key(KeyCode::Char('y'))); // duplicate row 0 -> row 1
        s.col = Column::Currency;
        update(&mut s, key(KeyCode::Enter));
        update(&mut s, key(KeyCode::Backspace));
        update(&mut s, key(KeyCode::Backspace));
        update(&mut s, key(KeyCode::Backspace));
        for c in "eu".chars() {
            update(&mut s, key(KeyCode::Char(c)));
        }
        update(&mut s, key(KeyCode::Enter));
        let idx = s
            .problems
            .iter()
            .position(|p| p.path == "[0].items[1].currency")
            .unwrap_or_else(|| panic!("{:?}", s.problems));
        s.focus = Focus::Problems;
        s.row = 0;
        s.col = Column::GroupId;
        for _ in 0..idx {
            update(&mut s, key(KeyCode::Down));
        }
        update(&mut s, key(KeyCode::Enter));
        assert_eq!((s.focus, s.row, s.col), (Focus::Items, 1, Column::Currency));
    }
}

#[cfg(test)]
#[path = "events_view_tests.rs"]
mod mouse_and_validation_tests;
