//! The command palette (Ctrl-K): the actions of the current view and the global ones
//! (`crate::tui::palette::entries`) on a searching picker (`widgets::picker`): what is typed
//! filters them (every word in the row: the name or its keys), Enter runs the selected one.

use ratatui::layout::Rect;
use ratatui::Frame;

use super::component::{on_pick, Ctx, PopupEffect, PopupInput};
use crate::tui::component::Component;
use crate::tui::palette::{self, Entry};
use crate::tui::theme::Theme;
use crate::tui::widgets::picker::{Picked, Picker, PickerText};

/// The picker over the entries: its filter, typed, and the selected entry among those shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Palette {
    pub picker: Picker,
}

impl Default for Palette {
    fn default() -> Self {
        Palette {
            picker: Picker::searching(),
        }
    }
}

/// The entries and their rows: the name, padded to the longest name so the keys line up
/// whatever the filter shows, then its keys.
fn rows(ctx: &Ctx<'_>) -> (Vec<Entry>, Vec<String>) {
    let entries = palette::entries(ctx.view, ctx.profiles);
    let name_w = entries.iter().map(|e| e.name.len()).max().unwrap_or(10);
    let rows = entries
        .iter()
        .map(|e| format!("{:<name_w$}  {}", e.name, e.keys))
        .collect();
    (entries, rows)
}

/// What the picker shows besides the rows: the view's name in its title.
fn text(name: &str) -> PickerText<'_> {
    PickerText {
        name,
        pick: "run",
        empty: "no action matches",
        width: 70,
    }
}

fn title(ctx: &Ctx<'_>) -> String {
    format!("Commands: {} view", ctx.view.title())
}

/// The answer to what the picker did: the picked entry's action, run.
fn answer(picked: Picked, entries: &[Entry]) -> Vec<PopupEffect> {
    on_pick(picked, |i| PopupEffect::Run(entries[i].action))
}

impl Component for Palette {
    type Msg = PopupInput;
    type Effect = PopupEffect;
    type Ctx<'a> = Ctx<'a>;

    fn update(&mut self, input: PopupInput, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        let (entries, rows) = rows(ctx);
        let title = title(ctx);
        let (screen, text) = (ctx.screen(), text(&title));
        let picked = match input {
            PopupInput::Key(key) => self.picker.on_key(&key, screen, &text, &rows),
            PopupInput::Mouse(m) => self.picker.on_mouse(&m, screen, &text, &rows),
        };
        answer(picked, &entries)
    }

    fn draw(&self, frame: &mut Frame, area: Rect, ctx: &Ctx<'_>, theme: &Theme) {
        let (_, rows) = rows(ctx);
        let title = title(ctx);
        self.picker.draw(frame, area, &text(&title), &rows, theme);
    }
}
