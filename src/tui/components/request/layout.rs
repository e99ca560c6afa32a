//! Where the parts of the request view are on a screen: drawing and mouse hit testing both
//! use [`request_layout`].

use ratatui::layout::Rect;

use super::state::Field;
use crate::tui::layout::frame_layout;

/// Where the parts of the request view are, for a given screen (shared by the view and by
/// mouse hit testing in `update`).
#[derive(Clone, Debug, Default)]
pub struct RequestLayout {
    pub fields_block: Rect,
    /// One row per field (the body's row is its whole editor area).
    pub fields: Vec<(Field, Rect)>,
    pub body: Rect,
    pub canonical: Rect,
    pub detail: Rect,
    pub signature: Rect,
}

/// Layout of the request view for a whole screen of `area`.
pub fn request_layout(area: Rect) -> RequestLayout {
    let (_, main, _) = frame_layout(area);
    let signature = Rect::new(
        main.x,
        main.y + main.height.saturating_sub(1),
        main.width,
        1.min(main.height),
    );
    let rest_h = main.height.saturating_sub(1);
    let left_w = (main.width * 45 / 100)
        .clamp(38.min(main.width), 60)
        .min(main.width);
    let right_w = main.width - left_w;
    let fields_h = 12.min(rest_h);
    let fields_block = Rect::new(main.x, main.y, left_w, fields_h);
    let body = Rect::new(main.x, main.y + fields_h, left_w, rest_h - fields_h);
    let canon_h = (rest_h * 58 / 100).max(11.min(rest_h));
    let canonical = Rect::new(main.x + left_w, main.y, right_w, canon_h);
    let detail = Rect::new(main.x + left_w, main.y + canon_h, right_w, rest_h - canon_h);
    let mut fields = Vec::new();
    for (i, f) in Field::ALL.iter().take(10).enumerate() {
        let y = fields_block.y + 1 + i as u16;
        if y + 1 < fields_block.y + fields_block.height {
            fields.push((
                *f,
                Rect::new(fields_block.x + 1, y, left_w.saturating_sub(2), 1),
            ));
        }
    }
    fields.push((Field::Body, body));
    RequestLayout {
        fields_block,
        fields,
        body,
        canonical,
        detail,
        signature,
    }
}
