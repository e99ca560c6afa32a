//! What the events view's drawing, its items table and its mouse hit tests share: the layout
//! struct, the table's columns, and the box and focus styles.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders};

use super::state::{Column, Field};
use crate::tui::widgets::list::Window;

pub(super) fn block<'a>(title: impl Into<Line<'a>>, focused: bool) -> Block<'a> {
    let b = Block::new().borders(Borders::ALL).title(title);
    if focused {
        b.border_style(Style::new().add_modifier(Modifier::BOLD))
            .title_style(Style::new().add_modifier(Modifier::BOLD))
    } else {
        b
    }
}

/// Spacing between the items table's columns (the list widget's table keeps ratatui's, 1).
pub(super) const ITEM_SPACING: u16 = 1;

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
    /// The list widget's window over the items the filter shows (what it draws and what the
    /// mouse hits).
    pub items_window: Window,
    /// The item rows on screen: index into the items, and the row.
    pub item_rows: Vec<(usize, Rect)>,
    /// The editable columns on screen, as their header cells (x and width apply to every row).
    pub item_columns: Vec<(Column, Rect)>,
    /// Every column on screen, as its header cell.
    pub item_table: Vec<(TableCol, Rect)>,
    /// Some columns are off screen (the table scrolls with Left/Right).
    pub items_scrolled: bool,
    /// The raw JSON editor (raw mode).
    pub raw: Option<Rect>,
    pub preview: Option<Rect>,
    pub problems: Rect,
    /// The problems on screen: index, and the rows it takes (messages wrap).
    pub problem_rows: Vec<(usize, Rect)>,
    pub response: Option<Rect>,
    pub footer: Rect,
}

/// The columns of the items table: the index, the click mark, the seven editable cells and the
/// item_id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableCol {
    Index,
    Clicked,
    Edit(Column),
    ItemId,
}

impl TableCol {
    pub const ALL: [TableCol; 10] = [
        TableCol::Index,
        TableCol::Clicked,
        TableCol::Edit(Column::GroupId),
        TableCol::Edit(Column::VariantId),
        TableCol::Edit(Column::Name),
        TableCol::Edit(Column::Price),
        TableCol::Edit(Column::Currency),
        TableCol::Edit(Column::Brand),
        TableCol::Edit(Column::Category),
        TableCol::ItemId,
    ];
    pub fn title(self) -> &'static str {
        match self {
            TableCol::Index => "#",
            TableCol::Clicked => "clk",
            TableCol::Edit(c) => c.title(),
            TableCol::ItemId => "item_id",
        }
    }
}
