//! The events view's state: the form, the raw editor, the items, focus and prompts.

use std::path::PathBuf;

use ratatui::style::{Modifier, Style};
use serde_json::Value;

use super::message::SendReport;
use super::validate::INLINE_VALIDATE_ITEMS;
use crate::core::events::{
    self as ev, form_batch, ItemDraft, ItemRest, ListDraft, Problem, Unshown, KNOWN_LIST_LOGICS,
    KNOWN_PAGE_TYPES, PAGE_TYPE_TAG,
};
use crate::tui::widgets::body_editor::BodyEditor;
use crate::tui::widgets::list::ListState;
use crate::tui::widgets::LineInput;

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
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Column {
    #[default]
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
    pub(super) fn from_json_key(key: &str) -> Option<Column> {
        match key {
            "item_id" | "index" => Some(Column::GroupId),
            _ => Column::ALL.into_iter().find(|c| c.member() == key),
        }
    }
    /// The item member the column edits (as `core::events::model::Item` names it).
    pub(super) fn member(self) -> &'static str {
        match self {
            Column::GroupId => "item_group_id",
            Column::VariantId => "item_variant_id",
            Column::Name => "item_name",
            Column::Price => "price",
            Column::Currency => "currency",
            Column::Brand => "item_brand",
            Column::Category => "item_category",
        }
    }
    pub(super) fn index(self) -> usize {
        Column::ALL.iter().position(|c| *c == self).unwrap_or(0)
    }
}

pub(super) fn cell_mut(item: &mut ItemDraft, col: Column) -> &mut String {
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

pub(super) fn cell(item: &ItemDraft, col: Column) -> &str {
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
    /// The collector's response (and what the local collector stored), once there is one: the
    /// arrows, PageUp / PageDown and Home / End scroll it.
    Response,
}

impl Default for Focus {
    fn default() -> Self {
        Focus::Field(Field::ListId)
    }
}

/// Form or raw JSON.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    #[default]
    Form,
    Raw,
}

/// What a path prompt will do with the path typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    Load,
    Save,
}

/// The items as they were before one change: what Ctrl-Z puts back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ItemsSnapshot {
    pub(super) items: Vec<ItemDraft>,
    pub(super) rest: Vec<ItemRest>,
    pub(super) row: usize,
}

/// The undo and redo stacks of the items table.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ItemsHistory {
    pub(super) undo: Vec<ItemsSnapshot>,
    pub(super) redo: Vec<ItemsSnapshot>,
}

impl ItemsHistory {
    /// Forget every step (another batch was loaded: its items are not an edit of these).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }
}

/// All state of the events view (its `Default` is blank: the view starts from
/// [`EventsState::new`] or [`EventsState::starter`]).
#[derive(Default)]
pub struct EventsState {
    pub analytics_url: LineInput,
    pub local: bool,
    pub draft: ListDraft,
    pub(super) api_key: LineInput,
    pub(super) list_id: LineInput,
    pub(super) list_name: LineInput,
    pub(super) list_logic: LineInput,
    pub(super) tags: LineInput,
    pub(super) user_ip: LineInput,
    pub(super) extras: Unshown,
    pub focus: Focus,
    pub mode: Mode,
    /// The form writes its products as one `order_purchase` event (the PHP SDK's
    /// CollectService, `docs/events.md` rule E23) instead of the recommendation list's view and
    /// clicks (Alt-B switches).
    pub order: bool,
    /// Selected row and column of the items table.
    pub row: usize,
    pub col: Column,
    /// The cell being edited in place.
    pub(super) editing: Option<LineInput>,
    /// The raw JSON editor: the request body's windowed editor, so a key costs the same at
    /// any batch size.
    pub(super) raw: BodyEditor,
    /// The batch as it will be sent (pretty JSON in form mode, the raw text in raw mode).
    pub(super) preview: String,
    /// Number of events in the preview (0 when it is not a JSON array).
    pub(super) preview_events: usize,
    pub problems: Vec<Problem>,
    /// What the validator counted but did not list.
    pub omitted: ev::Omitted,
    pub problem_sel: usize,
    pub(super) prompt: Option<(PromptKind, LineInput)>,
    pub last_path: Option<PathBuf>,
    /// A path the user agreed to replace (Enter again after "already exists").
    pub(super) replace_ok: Option<PathBuf>,
    pub sending: bool,
    /// Number of events in the batch last sent.
    pub(super) sent_events: usize,
    pub response: Option<Result<SendReport, String>>,
    pub stored: Option<Result<String, String>>,
    /// Why a load put the batch in the raw editor (the form cannot show it), shown under the
    /// editor while the batch stays raw: a fact about the batch, not a message (messages are
    /// the view's `Status` effect).
    pub(super) raw_why: Option<String>,
    pub(super) preview_scroll: u16,
    /// The items table as a list: its window, `/` filter and the mouse (its selection is
    /// `row`, see `items.rs`).
    pub(super) items_list: ListState,
    /// Undo / redo of the changes to the items (Ctrl-Z / Ctrl-Y in the table).
    pub(super) items_history: ItemsHistory,
    /// Where the problems window was last put by the mouse (see
    /// [`crate::tui::widgets::list::window_first`]).
    pub(super) problems_top: usize,
    /// Lines of the preview shown.
    pub(super) preview_lines: usize,
    pub(super) response_scroll: u16,
    /// The view's area on screen (set by the router before each key), so keys scroll a pane by
    /// its height and stop at its last line.
    pub area: ratatui::layout::Rect,
    /// Revision of the form / raw text: bumped by every change.
    pub(super) rev: u64,
    /// The newest revision a validation was asked for.
    pub(super) requested: u64,
    /// The revision the preview and problems on screen belong to.
    pub(super) shown_rev: u64,
    /// Batches with more items than this are validated off the draw path
    /// ([`INLINE_VALIDATE_ITEMS`]; tests set 0 to exercise the worker path).
    pub inline_max_items: usize,
    /// The batch's exact bytes as loaded (a file, the profile, a history entry) and the
    /// revision they stand for: until the first edit, they are what is validated, shown and
    /// sent, byte for byte (the form shows their values).
    pub(super) exact: Option<(u64, std::sync::Arc<Vec<u8>>)>,
    /// The revision the profile holds (loaded with it or saved to it); another one is an
    /// unsaved edit of the profile.
    pub(super) saved_rev: u64,
    /// The revision a profile save under way carries.
    pub(super) saving_rev: Option<u64>,
    /// The analytics URL as the profile holds it (resolved, as the field shows it): another
    /// one typed in the field is an unsaved edit of the profile's `analytics_url`.
    pub(super) saved_url: String,
    /// The analytics URL a profile save under way carries.
    pub(super) saving_url: Option<String>,
    /// The path prompt holds text it was opened with (the last path, `batch.json`): the first
    /// character typed replaces it, as a selected text is replaced (a path typed after it
    /// made `batch.json/tmp/x.json`); any other key edits it.
    pub(super) prompt_prefilled: bool,
    /// The path last entered in the prompt, until the read or write answers: an error opens
    /// the prompt again with it, so a typo is fixed, not typed again.
    pub(super) prompt_sent: Option<(PromptKind, String)>,
    /// The revision of the batch last sent: the response beside another one is marked as
    /// answering the batch as it was sent.
    pub(super) sent_rev: Option<u64>,
}

impl EventsState {
    /// The workbench's view before a profile gives it a target: its starter batch is validated
    /// by the first message (the profile's target), after the first frame, which never shows
    /// this view.
    pub(crate) fn starter() -> Self {
        EventsState::unvalidated("http://127.0.0.1:8080", "")
    }

    /// A view targeting `analytics_url`, with a starter list of one item.
    pub fn new(analytics_url: &str, api_key: &str) -> Self {
        let mut state = EventsState::unvalidated(analytics_url, api_key);
        state.ensure_current();
        state
    }

    /// [`EventsState::new`] with the starter batch not validated yet.
    fn unvalidated(analytics_url: &str, api_key: &str) -> Self {
        let draft = starter_draft(api_key);
        let mut state = EventsState {
            analytics_url: LineInput::new(analytics_url),
            area: ratatui::layout::Rect::new(0, 1, 80, 21),
            inline_max_items: INLINE_VALIDATE_ITEMS,
            saved_url: analytics_url.to_string(),
            ..EventsState::default()
        };
        state.set_draft(draft, Unshown::default());
        // The starter batch is no edit of any profile.
        state.mark_saved();
        state
    }

    /// The starter batch in place of an edited one whose edits a profile load discarded, when
    /// the profile loaded holds no batch of its own: kept, the other profile's edits were
    /// shown (and saved by the next save) as this one's.
    pub(super) fn reset_to_starter(&mut self) {
        let draft = starter_draft(self.api_key.text());
        self.mode = Mode::Form;
        if !matches!(self.focus, Focus::Field(_) | Focus::Items | Focus::Problems) {
            self.focus = Focus::Field(Field::ListId);
        }
        self.set_draft(draft, Unshown::default());
        self.exact = None;
        self.raw_why = None;
        self.response = None;
        self.sent_rev = None;
    }
    /// The member of the batch a field writes, as the flat shape names it (none: the URL is
    /// not in the batch).
    pub(super) fn field_member(field: Field) -> Option<&'static str> {
        Some(match field {
            Field::AnalyticsUrl => return None,
            Field::ApiKey => "event_apikey",
            Field::ListId => "event_list_id",
            Field::ListName => "event_list_name",
            Field::ListLogic => "event_list_logic",
            Field::Tags => "event_tags",
            Field::UserIp => "user_profile",
        })
    }

    pub(super) fn max_preview_scroll(&self) -> u16 {
        self.preview_lines.saturating_sub(1).min(u16::MAX as usize) as u16
    }

    /// Move focus (the raw editor shows its cursor only while it has focus).
    pub(super) fn set_focus(&mut self, focus: Focus) {
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
            || (self.focus == Focus::Items && self.items_list.typing())
            || matches!(self.focus, Focus::Field(_) | Focus::Raw)
    }

    /// Key bindings of this view, for the help popup.
    pub fn help(&self) -> Vec<(&'static str, &'static str)> {
        vec![
            (
                "Tab / Shift-Tab",
                "next / previous field, items table, problems",
            ),
            ("Ctrl-N", "list logic / tags: next suggestion"),
            ("Up/Down, Left/Right, hjkl", "items: move the selection"),
            (
                "/",
                "items: filter the rows (every word in a cell; Enter keeps it, Esc clears it)",
            ),
            (
                "Enter / e",
                "items: edit the cell, the preview following each key (Enter keeps, Esc puts it back)",
            ),
            (
                "Space / c",
                "items: mark the item clicked (adds a select event)",
            ),
            (
                "a / y / d",
                "items: add (then Enter edits it) / duplicate / delete the item",
            ),
            (
                "Ctrl-Z / Ctrl-Y",
                "undo / redo in the items table: the last change to its items (add, delete, edit, move...)",
            ),
            (
                "f",
                "items: give every item its derived item_id (group-variant) and index (position); a loaded batch keeps its own until then",
            ),
            ("K / J, Alt-Up / Alt-Down", "items: move the item up / down"),
            ("Enter", "problems: jump to the field of the problem"),
            ("PageUp / PageDown", "scroll the preview"),
            (
                "Panes",
                "preview, problems and response wrap long lines; the items table scrolls sideways with Left/Right when its columns do not fit; the raw editor scrolls sideways",
            ),
            (
                "Mouse",
                "click a field, item cell or problem: focus it; wheel: scroll the pane",
            ),
        ]
    }

    /// The URL a send goes to.
    pub fn collect_url(&self) -> String {
        crate::engine::collect_url(self.analytics_url.text().trim())
    }

    pub(super) fn input(&self, f: Field) -> &LineInput {
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

    pub(super) fn input_mut(&mut self, f: Field) -> &mut LineInput {
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
    pub(super) fn set_draft(&mut self, draft: ListDraft, mut extras: Unshown) {
        self.api_key.set(draft.api_key.clone());
        self.list_id.set(draft.list_id.clone());
        self.list_name.set(draft.list_name.clone());
        self.list_logic.set(draft.list_logic.clone());
        self.tags.set(draft.tags.join(", "));
        self.user_ip.set(draft.user_ip.clone().unwrap_or_default());
        extras.fit(&draft);
        self.extras = extras;
        self.draft = draft;
        self.row = self.row.min(self.draft.items.len().saturating_sub(1));
        // Another batch: undoing into the items of the one before would mix the two. A batch
        // the form reads is a recommendation list.
        self.items_history.clear();
        self.order = false;
        self.refresh();
    }

    /// Copy the top fields into the draft.
    pub(super) fn sync_fields(&mut self) {
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

    /// Switch the form's batch between the flat and the nested event shape (every value kept);
    /// `None` in the raw JSON mode, whose text is the user's.
    pub fn toggle_shape(&mut self) -> Option<ev::Shape> {
        if self.mode != Mode::Form {
            return None;
        }
        self.extras.shape = match self.extras.shape {
            ev::Shape::Flat => ev::Shape::Nested,
            ev::Shape::Nested => ev::Shape::Flat,
        };
        self.refresh();
        Some(self.extras.shape)
    }

    /// The shape the form writes the batch in.
    pub fn shape(&self) -> ev::Shape {
        self.extras.shape
    }

    /// The batch of the form, with the members the form does not show put back.
    pub fn form_batch(&self) -> Value {
        if self.order {
            return self.draft.to_order_json(ev::compose::ORDER_ID_PLACEHOLDER);
        }
        form_batch(&self.draft, &self.extras)
    }

    /// After any change: a new revision, whose preview and problems `update` asks for (inline
    /// for small batches, else from the worker).
    pub(super) fn refresh(&mut self) {
        if self.mode == Mode::Form {
            self.sync_fields();
        }
        self.rev += 1;
    }

    pub(super) fn focus_order(&self) -> Vec<Focus> {
        match self.mode {
            Mode::Form => Field::ALL
                .iter()
                .map(|f| Focus::Field(*f))
                .chain([Focus::Items, Focus::Problems])
                .chain(self.has_response().then_some(Focus::Response))
                .collect(),
            Mode::Raw => [Focus::Raw, Focus::Problems]
                .into_iter()
                .chain(self.has_response().then_some(Focus::Response))
                .collect(),
        }
    }

    /// Whether the response pane is shown (a response, what was stored, or a send under way).
    pub fn has_response(&self) -> bool {
        self.response.is_some() || self.stored.is_some() || self.sending
    }

    pub(super) fn cycle_focus(&mut self, back: bool) {
        let order = self.focus_order();
        self.set_focus(crate::tui::widgets::cycle(&order, self.focus, back));
    }

    /// The user typed `text` into the selected cell: it is what that member says from now on
    /// (a value kept as read for it is dropped).
    pub(super) fn commit_cell(&mut self, text: &str) {
        if let Some(item) = self.draft.items.get_mut(self.row) {
            *cell_mut(item, self.col) = text.to_string();
            self.extras.fit(&self.draft);
            self.extras.items[self.row].edited(self.col.member());
        }
    }

    pub(super) fn items_changed(&mut self) {
        self.extras.fit(&self.draft);
        self.refresh();
    }

    /// Jump to the field a problem is about; what to say in the status line when it cannot
    /// (empty: nothing).
    pub(super) fn jump_to_problem(&mut self, idx: usize) -> String {
        // The problems shown must be those of the current batch for their paths to be right.
        self.ensure_current();
        let Some(problem) = self.problems.get(idx).cloned() else {
            return String::new();
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
                return String::new();
            }
            if let Err(why) = self.leave_raw() {
                return why;
            }
        }
        let path = problem.path.clone();
        match target_of_path(&path, &self.draft) {
            Some(Target::Field(f)) => self.focus = Focus::Field(f),
            Some(Target::Item(row, col)) => {
                self.focus = Focus::Items;
                self.row = row.min(self.draft.items.len().saturating_sub(1));
                self.col = col;
            }
            None => return format!("No form field shows {path}."),
        }
        String::new()
    }
}

pub(super) enum Target {
    Field(Field),
    Item(usize, Column),
}

/// Map a problem path such as `[1].items[0].currency` of the form's batch to a form field. The
/// form's batch is the view event, then one select event per clicked row in row order, then the
/// events the form does not show: a select event's item is its clicked row (whatever index it
/// carries), and a path into an event the form does not show has no field.
pub(super) fn target_of_path(path: &str, draft: &ListDraft) -> Option<Target> {
    let rest = path.strip_prefix('[')?;
    let (event_idx, rest) = rest.split_once(']')?;
    let event_idx: usize = event_idx.parse().ok()?;
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    let clicked: Vec<usize> = draft.clicked().collect();
    if event_idx > clicked.len() {
        return None;
    }
    if let Some(after) = rest.strip_prefix("items[") {
        let (item_idx, after) = after.split_once(']')?;
        let item_idx: usize = item_idx.parse().ok()?;
        let key = after.strip_prefix('.').unwrap_or(after);
        let col = Column::from_json_key(key.split(['.', '[']).next().unwrap_or(""))
            .unwrap_or(Column::GroupId);
        let row = match event_idx {
            0 => item_idx,
            i => clicked[i - 1],
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

pub(super) fn completions(field: Field, text: &str) -> Vec<String> {
    match field {
        Field::ListLogic => KNOWN_LIST_LOGICS.iter().map(|s| s.to_string()).collect(),
        Field::Tags => {
            let _ = text;
            KNOWN_PAGE_TYPES
                .iter()
                .map(|p| format!("{PAGE_TYPE_TAG}:{p}"))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The style of the focused row or cell.
pub(super) fn focused_style() -> Style {
    Style::new().add_modifier(Modifier::REVERSED)
}

/// The starter list of one item a new view (and a discarded batch's place) shows.
fn starter_draft(api_key: &str) -> ListDraft {
    ListDraft {
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
    }
}
