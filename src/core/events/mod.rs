//! Recommendation events: model, composer, the form's draft and validation (`docs/events.md`).
//! Pure: no I/O.

pub mod compose;
pub mod draft;
pub mod model;
pub mod nested;
pub mod validate;

pub use compose::{ItemDraft, ListDraft};
pub use draft::{draft_from_value, form_batch, DraftError, ItemRest, Unshown};
pub use model::{
    derive_item_id, Batch, Event, Item, UserProfile, KNOWN_EVENTS, KNOWN_LIST_LOGICS,
    KNOWN_PAGE_TYPES, ORDER_PURCHASE, PAGE_TYPE_TAG, SELECT_RECS_LIST, VIEW_RECS_LIST,
};
pub use nested::{list_id_of, EventData, NestedEvent, Shape, StaticContent, EVENT_VERSION};
pub use validate::{
    check_json, codes, event_of_path, identity, json_error_reason, problem_value, validate,
    validate_bytes, IdNames, Identity, Level, Omitted, Problem, Report, MAX_JSON_DEPTH,
    MAX_LISTED_PROBLEMS,
};

#[cfg(test)]
mod tests;

#[cfg(test)]
mod shape_tests;

#[cfg(test)]
mod sdk_tests;
