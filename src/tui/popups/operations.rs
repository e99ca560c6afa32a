//! The SDK's indexing operations (Alt-O, `core::vendor::SDK_OPERATIONS`): pick one to set the
//! request's method and path.

use ratatui::layout::Rect;
use ratatui::Frame;

use super::component::{on_pick, Ctx, PopupEffect, PopupInput};
use crate::core::vendor::SDK_OPERATIONS;
use crate::tui::component::Component;
use crate::tui::components::request::RequestMsg;
use crate::tui::theme::Theme;
use crate::tui::widgets::picker::{Picked, Picker, PickerText};

/// The operation picker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Operations {
    pub picker: Picker,
}

const TEXT: PickerText<'static> = PickerText {
    name: "Indexing operations (the SDK's)",
    pick: "set method and path",
    empty: "",
    width: 70,
};

fn rows() -> Vec<String> {
    SDK_OPERATIONS
        .iter()
        .map(|o| format!("{:<6} {:<22} {}", o.method, o.path, o.what))
        .collect()
}

impl Operations {
    /// Opened on the operation the request has (method and path), else the first.
    pub fn open(ctx: &Ctx<'_>) -> Self {
        let r = ctx.request;
        let selected = SDK_OPERATIONS
            .iter()
            .position(|o| o.method == r.method.text() && o.path == r.path.text())
            .unwrap_or(0);
        Operations {
            picker: Picker::new(selected, SDK_OPERATIONS.len()),
        }
    }

    fn answer(picked: Picked) -> Vec<PopupEffect> {
        on_pick(picked, |i| {
            let op = SDK_OPERATIONS[i];
            let what = format!("{} {}: {}", op.method, op.path, op.what);
            let (method, path) = (op.method, op.path);
            PopupEffect::Request(RequestMsg::Preset { method, path, what })
        })
    }
}

impl Component for Operations {
    type Msg = PopupInput;
    type Effect = PopupEffect;
    type Ctx<'a> = Ctx<'a>;

    fn update(&mut self, input: PopupInput, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        Self::answer(match input {
            PopupInput::Key(key) => self.picker.on_key(&key, ctx.screen(), &TEXT, &rows()),
            PopupInput::Mouse(m) => self.picker.on_mouse(&m, ctx.screen(), &TEXT, &rows()),
        })
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _: &Ctx<'_>, theme: &Theme) {
        self.picker.draw(frame, area, &TEXT, &rows(), theme);
    }
}
