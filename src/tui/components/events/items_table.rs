//! The items table of the events form: what each cell shows, column widths from the text and
//! sideways scrolling, its layout, and its drawing through the one list widget
//! (`widgets::list`), which draws the box, the header, the window's rows and the empty list.

use ratatui::layout::{Constraint, Rect};
use ratatui::style::Stylize;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Row};
use ratatui::Frame;
use serde_json::Value;

use super::parts::{block, EventsLayout, TableCol, ITEM_SPACING};
use super::state::{cell, focused_style, Column, EventsState, Focus};
use crate::tui::theme::Theme;
use crate::tui::widgets::list::{self, ListView};

/// What the items table shows in row `r`, column by column (see [`TableCol`]), and whether the
/// value is kept as read from the batch (an item_id or index other than the derived one).
fn item_texts(state: &EventsState, r: usize) -> Vec<(String, bool)> {
    let item = &state.draft.items[r];
    let rest = state.extras.items.get(r);
    let as_read = |member: &str, derived: String| match rest.and_then(|x| x.as_read.get(member)) {
        Some(Some(Value::String(v))) => (v.clone(), true),
        Some(Some(v)) => (v.to_string(), true),
        Some(None) => ("(none)".to_string(), true),
        None => (derived, false),
    };
    let mut out = Vec::with_capacity(TableCol::ALL.len());
    for c in TableCol::ALL {
        out.push(match c {
            TableCol::Index => as_read("index", (r + 1).to_string()),
            TableCol::Clicked => ((if item.clicked { "[x]" } else { "[ ]" }).into(), false),
            TableCol::Edit(col) => (cell(item, col).to_string(), false),
            TableCol::ItemId => as_read(
                "item_id",
                crate::core::events::derive_item_id(&item.group_id, &item.variant_id),
            ),
        });
    }
    out
}

/// Each column's widest text in `rows` (title included; the cell being edited with its cursor),
/// at most `cap`.
fn natural_widths(state: &EventsState, rows: &[usize], cap: u16) -> Vec<u16> {
    let texts: Vec<Vec<(String, bool)>> = rows.iter().map(|r| item_texts(state, *r)).collect();
    TableCol::ALL
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let cells = texts.iter().map(|t| t[k].0.chars().count());
            let mut w = cells.chain([c.title().len()]).max().unwrap_or(1);
            if *c == TableCol::Edit(state.col) {
                if let Some(input) = &state.editing {
                    w = w.max(input.text().chars().count() + 1);
                }
            }
            w.min(usize::from(cap)) as u16
        })
        .collect()
}

/// The width the items table needs to show every column of `rows` in full.
fn table_width(state: &EventsState, rows: &[usize]) -> u16 {
    let natural = natural_widths(state, rows, u16::MAX);
    natural.iter().sum::<u16>() + (natural.len() as u16 - 1) * ITEM_SPACING
}

/// The width of the columns `ks` of `natural` side by side.
fn run_width(natural: &[u16], ks: &[usize]) -> u16 {
    ks.iter()
        .map(|k| natural[*k])
        .sum::<u16>()
        .saturating_add(ks.len().saturating_sub(1) as u16 * ITEM_SPACING)
}

/// The columns (indexes into [`TableCol::ALL`]) that fit in `width` when editable column `sel`
/// is selected: all of them when they fit, else `#` and the click mark, and the window of the
/// other columns that ends at the selected one (at the item_id when the last editable column
/// is selected) and takes in as many as fit on either side.
fn window_columns(natural: &[u16], width: u16, sel: usize) -> Vec<usize> {
    let all: Vec<usize> = (0..TableCol::ALL.len()).collect();
    if run_width(natural, &all) <= width {
        return all;
    }
    let sel = 2 + sel;
    let end = if sel + 2 == TableCol::ALL.len() {
        sel + 1
    } else {
        sel
    };
    let mut first = end;
    while first > 2 {
        let run: Vec<usize> = [0, 1].into_iter().chain(first - 1..=end).collect();
        if run_width(natural, &run) > width {
            break;
        }
        first -= 1;
    }
    let first = first.min(sel);
    let mut last = end;
    while last + 1 < TableCol::ALL.len() {
        let run: Vec<usize> = [0, 1].into_iter().chain(first..=last + 1).collect();
        if run_width(natural, &run) > width {
            break;
        }
        last += 1;
    }
    [0, 1].into_iter().chain(first..=last).collect()
}

/// The columns on screen and their widths. Each column is as wide as its widest text in the
/// rows shown (title included), so nothing is cut; when they do not all fit, the table scrolls
/// horizontally ([`window_columns`]), moving with Left/Right. Room left over widens the name
/// column when every column is shown; a table that scrolls pads none (the room it cannot use
/// is at its right end).
fn item_widths(state: &EventsState, width: u16, rows: &[usize]) -> (Vec<(TableCol, u16)>, bool) {
    // A column never gets wider than the table beside `#` and the click mark.
    let natural = natural_widths(state, rows, width.saturating_sub(8).max(1));
    let shown = window_columns(&natural, width, state.col.index());
    let scrolled = shown.len() < TableCol::ALL.len();
    let used = run_width(&natural, &shown);
    let mut out: Vec<(TableCol, u16)> = shown
        .into_iter()
        .map(|k| (TableCol::ALL[k], natural[k]))
        .collect();
    if let Some((_, w)) = out
        .iter_mut()
        .find(|(c, _)| *c == TableCol::Edit(Column::Name) && !scrolled)
    {
        *w += width.saturating_sub(used);
    }
    (out, scrolled)
}

/// The form's width on a wide screen whose main area is `width` columns, for the item rows
/// `rows`: 58% of it, more (up to two thirds) when the items table needs it to show every
/// column. A table that does not fit in two thirds scrolls sideways: the form is then only as
/// wide as the widest window of columns Left/Right can show (the same at every column, so the
/// layout does not move while scrolling), and the room the table cannot use goes to the
/// preview, the problems and the response beside it.
pub(super) fn form_width(state: &EventsState, rows: &[usize], width: u16) -> u16 {
    let (least, most) = (width * 58 / 100, width * 2 / 3);
    let whole = table_width(state, rows).saturating_add(2);
    if whole <= most {
        return whole.max(least);
    }
    // Inside the form's border, as `layout_items` measures it.
    let inner = most.saturating_sub(2);
    let natural = natural_widths(state, rows, inner.saturating_sub(8).max(1));
    let widest = (0..Column::ALL.len())
        .map(|sel| run_width(&natural, &window_columns(&natural, inner, sel)))
        .max()
        .unwrap_or(inner);
    widest.saturating_add(2).clamp(least, most)
}

/// The rows shown are a window that keeps the selected row on screen.
pub(super) fn layout_items(l: &mut EventsLayout, area: Rect, state: &EventsState) {
    l.items = Some(area);
    let inner = block("", false).inner(area);
    // Under the header; the list widget's window over the items the filter shows.
    let body = Rect::new(
        inner.x,
        inner.y + 1,
        inner.width,
        inner.height.saturating_sub(1),
    );
    (l.items_window, l.item_rows) = state.items_window(body);
    let rows: Vec<usize> = l.item_rows.iter().map(|(i, _)| *i).collect();
    let (widths, scrolled) = item_widths(state, inner.width, &rows);
    l.items_scrolled = scrolled;
    let mut x = inner.x;
    for (c, w) in widths {
        let rect = Rect::new(x, inner.y, w, 1.min(inner.height));
        l.item_table.push((c, rect));
        if let TableCol::Edit(col) = c {
            l.item_columns.push((col, rect));
        }
        x = x.saturating_add(w + ITEM_SPACING);
    }
}

pub(super) fn draw_items(frame: &mut Frame, l: &EventsLayout, state: &EventsState, theme: &Theme) {
    let Some(area) = l.items else { return };
    let focused = state.focus == Focus::Items;
    let clicked = state.draft.items.iter().filter(|i| i.clicked).count();
    let mut title = vec![Span::raw(format!(
        " Items ({}, {} clicked) ",
        state.draft.items.len(),
        clicked
    ))];
    let filter = state.items_list.filter();
    if state.items_list.typing() {
        title.push(Span::raw(format!("filter: {filter}▏ ")));
    } else if !filter.is_empty() {
        title.push(Span::raw(format!(
            "{} shown · filter: {filter} · Esc clears ",
            l.item_rows.len().max(state.visible_items().len())
        )));
    }
    if l.items_scrolled {
        title.push(Span::raw("←/→ more columns "));
    }
    let kept = state.extras.rows_with_ids_as_read();
    if kept > 0 {
        title.push(Span::styled(
            format!("{kept} as read, f derives item_id/index "),
            theme.warn(),
        ));
    }
    let blk = block(
        crate::tui::widgets::text::fit_title(Line::from(title), area.width),
        focused,
    );
    let header = Row::new(
        l.item_table
            .iter()
            .map(|(c, _)| Cell::from(c.title()).bold()),
    );
    let warn = theme.warn();
    // Rows are built only for the window the layout shows.
    let rows = l.item_rows.iter().map(|(r, _)| {
        let r = *r;
        let texts = item_texts(state, r);
        let cells = l.item_table.iter().map(|(c, _)| {
            let k = TableCol::ALL.iter().position(|x| x == c).unwrap_or(0);
            let (text, kept) = &texts[k];
            match c {
                TableCol::Edit(col) => {
                    let selected = focused && r == state.row && *col == state.col;
                    let text = match (&state.editing, selected) {
                        (Some(input), true) => format!("{}▏", input.text()),
                        _ => text.clone(),
                    };
                    let cell = Cell::from(text);
                    if selected {
                        cell.style(focused_style())
                    } else {
                        cell
                    }
                }
                TableCol::Clicked => Cell::from(text.clone()),
                _ if *kept => Cell::from(text.clone()).style(warn),
                _ => Cell::from(text.clone()).dim(),
            }
        });
        Row::new(cells.collect::<Vec<_>>())
    });
    let widths: Vec<Constraint> = l
        .item_table
        .iter()
        .map(|(_, r)| Constraint::Length(r.width))
        .collect();
    let empty = if state.draft.items.is_empty() {
        "No items: press a to add one."
    } else {
        "No item matches the filter (Esc clears it)."
    };
    // The list marks its selection itself: the selected cell, not the row.
    let view = ListView {
        block: blk,
        header: Some(header),
        widths,
        rows: rows.collect(),
        empty: empty.to_string(),
        highlight: false,
    };
    list::draw(frame, area, view, &state.items_list, &l.items_window, theme);
}
