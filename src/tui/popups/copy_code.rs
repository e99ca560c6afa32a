//! Copy as code (Alt-P): pick a language (`crate::codegen::Lang`); the program that signs
//! the request being edited is copied.

use ratatui::layout::Rect;
use ratatui::Frame;

use super::component::{on_pick, Ctx, PopupEffect, PopupInput};
use crate::codegen::Lang;
use crate::tui::component::Clip;
use crate::tui::component::Component;
use crate::tui::theme::Theme;
use crate::tui::widgets::picker::{Picked, Picker, PickerText};
use clap::ValueEnum;

/// The language picker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyCode {
    pub picker: Picker,
}

const TEXT: PickerText<'static> = PickerText {
    name: "Copy as code",
    pick: "copy",
    empty: "",
    width: 50,
};

fn rows() -> Vec<String> {
    Lang::value_variants()
        .iter()
        .map(|l| format!("{:<7} {}", l.name(), l.file_name()))
        .collect()
}

/// The program (in `lang`) that signs the request being edited, as a copy; or why not, in the
/// status line.
fn copy_code(ctx: &Ctx<'_>, lang: Lang) -> PopupEffect {
    // The signed request shown: the program signs the same text (in the form chosen) with the
    // same timestamp, so it prints the same signature.
    let sign = &ctx.request.sign;
    let signed = match (&sign.result, sign.updating()) {
        (Some(Ok(s)), false) => s.request.clone(),
        (Some(Err(e)), false) => {
            return PopupEffect::Status(format!("cannot write the program: {e}"))
        }
        _ => {
            return PopupEffect::Status(
                "the signature is still updating; try again in a moment".into(),
            )
        }
    };
    let opts = crate::codegen::CodeOptions::default();
    match crate::codegen::render_signed(&signed, lang, &opts) {
        Ok(text) => {
            let from_file = crate::codegen::body_read_from_file(&signed.spec().body);
            let mut what = format!(
                "the {} program ({}; the REST key from ${}",
                lang.name(),
                lang.file_name(),
                opts.rest_key_env
            );
            if from_file {
                what.push_str(&format!(", the body from {}", opts.body_file));
            }
            what.push(')');
            PopupEffect::Copy(Clip { text, what })
        }
        Err(e) => PopupEffect::Status(format!("cannot write the program: {e}")),
    }
}

impl CopyCode {
    fn answer(&self, picked: Picked, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        on_pick(picked, |i| copy_code(ctx, Lang::value_variants()[i]))
    }
}

impl Component for CopyCode {
    type Msg = PopupInput;
    type Effect = PopupEffect;
    type Ctx<'a> = Ctx<'a>;

    fn update(&mut self, input: PopupInput, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        let picked = match input {
            PopupInput::Key(key) => self.picker.on_key(&key, ctx.screen(), &TEXT, &rows()),
            PopupInput::Mouse(m) => self.picker.on_mouse(&m, ctx.screen(), &TEXT, &rows()),
        };
        self.answer(picked, ctx)
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _: &Ctx<'_>, theme: &Theme) {
        self.picker.draw(frame, area, &TEXT, &rows(), theme);
    }
}
