//! Switch profile (Ctrl-L): the saved profiles' names; the one picked is loaded (asking first
//! when unsaved edits would be lost).

use ratatui::layout::Rect;
use ratatui::Frame;

use super::component::{on_pick, Ctx, PopupEffect, PopupInput};
use crate::tui::component::Component;
use crate::tui::model::PendingLoad;
use crate::tui::theme::Theme;
use crate::tui::widgets::picker::{Picked, Picker, PickerText};

/// The names, and the picker over them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profiles {
    pub names: Vec<String>,
    pub picker: Picker,
}

const TEXT: PickerText<'static> = PickerText {
    name: "Switch profile",
    pick: "load",
    empty: "no saved profiles yet",
    width: 50,
};

impl Profiles {
    /// The picker over `names`, on `current` when it is one of them.
    pub fn open(names: Vec<String>, current: &str) -> Self {
        let selected = names.iter().position(|n| n == current).unwrap_or(0);
        let picker = Picker::new(selected, names.len());
        Profiles { names, picker }
    }

    fn answer(&self, picked: Picked) -> Vec<PopupEffect> {
        on_pick(picked, |i| {
            PopupEffect::LoadOrAsk(PendingLoad::Profile(self.names[i].clone()))
        })
    }
}

impl Component for Profiles {
    type Msg = PopupInput;
    type Effect = PopupEffect;
    type Ctx<'a> = Ctx<'a>;

    fn update(&mut self, input: PopupInput, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        let (screen, names) = (ctx.screen(), &self.names);
        let picked = match input {
            PopupInput::Key(key) => self.picker.on_key(&key, screen, &TEXT, names),
            PopupInput::Mouse(m) => self.picker.on_mouse(&m, screen, &TEXT, names),
        };
        self.answer(picked)
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _: &Ctx<'_>, theme: &Theme) {
        self.picker.draw(frame, area, &TEXT, &self.names, theme);
    }
}
