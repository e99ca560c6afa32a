//! The help popup (`?`, F1): the key bindings of the current view, from the same tables the
//! dispatcher reads, scrolled when the terminal is too short for them.

use crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

use super::component::{scroll_key, Ctx, KeyPopup, PopupEffect};
use crate::tui::components::{diagnose, events, history, lesson, profiles, request, traffic};
use crate::tui::global_keys::GLOBAL_KEYS;
use crate::tui::keymap::Table;
use crate::tui::layout::View;
use crate::tui::palette;
use crate::tui::theme::Theme;
use crate::tui::widgets::prompt::{text_box, TextBox};
use crate::tui::widgets::text::wrap_words;

/// The help popup, scrolled down by `scroll` rows (a small terminal does not show it all).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Help {
    pub scroll: u16,
}

/// Rows of a key table: its keys as help writes them, and what they do.
fn rows_of<A: Copy + std::fmt::Debug>(
    table: &Table<A>,
) -> impl Iterator<Item = (String, String)> + '_ {
    table.iter().map(|b| (table.label(b), b.help.to_string()))
}

fn fixed_rows(rows: &[(&str, &str)]) -> Vec<(String, String)> {
    rows.iter()
        .map(|(k, d)| (k.to_string(), d.to_string()))
        .collect()
}

/// Keys that work in every view (the router's table, and clicking a tab).
pub fn global_rows() -> Vec<(String, String)> {
    rows_of(&GLOBAL_KEYS)
        .chain(fixed_rows(&[
            ("Click a tab", "switch to that view (mouse)"),
            (
                "In a picker",
                "(Ctrl-L, Alt-O, Alt-P, Alt-H) / filters, Esc clears it then closes, Enter or 1-9 picks, a click on the selected row picks",
            ),
        ]))
        .collect()
}

/// The copy menu's rows of a view: "Alt-Y s" and what it copies.
fn copy_rows(view: View) -> Vec<(String, String)> {
    palette::copy_entries(view)
        .into_iter()
        .map(|c| (c.entry.keys, c.help.to_string()))
        .collect()
}

/// Keys of the request view: its tables, then the keys that depend on where the cursor is.
pub fn request_rows() -> Vec<(String, String)> {
    rows_of(&request::keys::KEYS)
        .chain(copy_rows(View::Request))
        .chain(fixed_rows(request::keys::CONTEXT_KEYS))
        .chain(rows_of(&request::keys::NORMAL_KEYS))
        .collect()
}

/// Keys of the diagnose view.
pub fn diagnose_rows() -> Vec<(String, String)> {
    fixed_rows(&diagnose::CONTEXT_KEYS[..1])
        .into_iter()
        .chain(rows_of(&diagnose::KEYS))
        .chain(fixed_rows(&diagnose::CONTEXT_KEYS[1..]))
        .collect()
}

/// The bindings listed by the help popup of a view.
pub fn bindings(ctx: &Ctx<'_>) -> Vec<(String, String)> {
    let mut v = global_rows();
    match ctx.view {
        View::Request => v.extend(request_rows()),
        View::Diagnose => v.extend(diagnose_rows()),
        View::Events => v.extend(
            rows_of(&events::KEYS)
                .chain(copy_rows(View::Events))
                .chain(fixed_rows(&ctx.events.help())),
        ),
        View::History => v.extend(
            fixed_rows(&ctx.history.help())
                .into_iter()
                .chain(rows_of(&history::KEYS))
                .chain(copy_rows(View::History)),
        ),
        View::Profiles => v.extend(
            fixed_rows(&ctx.profiles.help())
                .into_iter()
                .chain(rows_of(&profiles::FORM_KEYS)),
        ),
        View::Traffic => v.extend(
            fixed_rows(traffic::CONTEXT_KEYS)
                .into_iter()
                .chain(rows_of(&traffic::KEYS))
                .chain(copy_rows(View::Traffic)),
        ),
        View::Lesson => v.extend(rows_of(&lesson::KEYS).chain(fixed_rows(lesson::CONTEXT_KEYS))),
    }
    v
}

/// The help popup's width on this terminal.
const HELP_W: u16 = 100;

/// The help popup's rows on this terminal: each binding as (keys column, a piece of what it
/// does), the description word-wrapped under itself so no row is cut at 80 columns.
pub fn help_table(ctx: &Ctx<'_>) -> Vec<(String, String)> {
    let b = bindings(ctx);
    let inner = HELP_W.min(ctx.size.0).saturating_sub(2) as usize;
    // The keys column is as wide as the longest keys, up to a quarter of the popup: one long
    // list of keys ("Up / Down / PageUp / PageDown / Home / End") would otherwise squeeze every
    // description into a narrow column; such keys wrap under themselves instead.
    let cap = (inner / 4).max(12);
    let key_w = b
        .iter()
        .map(|(k, _)| k.chars().count())
        .max()
        .unwrap_or(10)
        .min(cap);
    let desc_w = inner.saturating_sub(key_w + 2).max(12);
    let mut rows = vec![];
    for (k, d) in b {
        let keys = wrap_words(&k, key_w);
        let descs = wrap_words(&d, desc_w);
        for i in 0..keys.len().max(descs.len()) {
            let key = keys.get(i).map_or("", String::as_str);
            let piece = descs.get(i).cloned().unwrap_or_default();
            rows.push((format!("{key:<key_w$}  "), piece));
        }
    }
    rows
}

/// How far the help popup scrolls: the rows (the bindings and the closing line) that do not
/// fit the terminal inside the border.
pub fn help_max_scroll(ctx: &Ctx<'_>) -> u16 {
    let rows = help_table(ctx).len() as u16 + 1;
    rows.saturating_sub(ctx.size.1.saturating_sub(2))
}

impl KeyPopup for Help {
    /// Arrows and pages scroll a help taller than the terminal; any other key closes it (and
    /// every key does when it all fits).
    fn on_key(&mut self, key: &KeyEvent, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        let max = help_max_scroll(ctx);
        match scroll_key(key, self.scroll, max) {
            Some(to) if max > 0 => {
                self.scroll = to;
                vec![]
            }
            _ => vec![PopupEffect::Close],
        }
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>, theme: &Theme) {
        let max = help_max_scroll(ctx);
        let scroll = self.scroll.min(max);
        let lines: Vec<Line> = help_table(ctx)
            .into_iter()
            .map(|(k, d)| Line::from(vec![Span::styled(k, theme.label()), Span::raw(d)]))
            .chain(std::iter::once(Line::from(Span::styled(
                if max > 0 {
                    "any other key closes this help"
                } else {
                    "any key closes this help"
                },
                theme.dim(),
            ))))
            .collect();
        let height = lines.len() as u16 + 2;
        let b = TextBox {
            title: format!(" Help: {} view ", ctx.view.title()),
            lines,
            width: HELP_W,
            height,
            scroll,
            hint: (max > 0).then(|| format!(" ↑↓ PgUp PgDn scroll ({scroll}/{max}) ")),
        };
        text_box(frame, area, b, theme);
    }
}
