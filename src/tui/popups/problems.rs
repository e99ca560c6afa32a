//! The body's problems (Alt-H in the request view): what the vendor's SDK would refuse in an
//! indexing body (`docs/indexing-bodies.md`), as judged off the draw path; Enter puts the body's
//! cursor on the picked problem's place, Esc goes back to the body as it was.

use ratatui::layout::Rect;
use ratatui::Frame;

use super::component::{on_pick, Ctx, PopupEffect, PopupInput};
use crate::core::indexing_body::{shown_path, BodyProblem};
use crate::tui::component::Component;
use crate::tui::components::request::RequestMsg;
use crate::tui::theme::Theme;
use crate::tui::widgets::picker::{Picked, Picker, PickerText};

/// The problems listed when the popup opened (a judgement arriving meanwhile does not move the
/// rows under the selection), the count of those the judgement did not list, and the picker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BodyProblems {
    pub problems: Vec<BodyProblem>,
    pub unlisted: usize,
    pub picker: Picker,
}

impl BodyProblems {
    /// The request view's current judgement, its first problem selected.
    pub fn open(ctx: &Ctx<'_>) -> Self {
        let (problems, unlisted) = ctx
            .request
            .body_state
            .problems
            .as_deref()
            .map_or((vec![], 0), |j| {
                (j.problems.clone(), j.more_errors + j.more_warnings)
            });
        BodyProblems {
            picker: Picker::new(0, problems.len()),
            problems,
            unlisted,
        }
    }

    /// One row a problem: its level, code and place, then the sentence (cut at the box's edge;
    /// Enter says it whole in the status line).
    fn rows(&self) -> Vec<String> {
        self.problems
            .iter()
            .map(|p| {
                format!(
                    "{:<7} {} {}  {}",
                    p.level.as_str(),
                    p.code,
                    shown_path(&p.field_path),
                    p.description
                )
            })
            .collect()
    }

    fn name(&self) -> String {
        match self.unlisted {
            0 => "The body's problems".to_string(),
            n => format!("The body's problems ({n} more not listed)"),
        }
    }

    fn answer(&self, picked: Picked) -> Vec<PopupEffect> {
        on_pick(picked, |i| {
            PopupEffect::Request(RequestMsg::GoToProblem(Box::new(self.problems[i].clone())))
        })
    }
}

/// The box's look: as wide as the screen allows (the sentences are long).
fn text(name: &str) -> PickerText<'_> {
    PickerText {
        name,
        pick: "go to its place",
        empty: "no problems",
        width: 110,
    }
}

impl Component for BodyProblems {
    type Msg = PopupInput;
    type Effect = PopupEffect;
    type Ctx<'a> = Ctx<'a>;

    fn update(&mut self, input: PopupInput, ctx: &Ctx<'_>) -> Vec<PopupEffect> {
        let (name, rows, screen) = (self.name(), self.rows(), ctx.screen());
        let picked = match input {
            PopupInput::Key(key) => self.picker.on_key(&key, screen, &text(&name), &rows),
            PopupInput::Mouse(m) => self.picker.on_mouse(&m, screen, &text(&name), &rows),
        };
        self.answer(picked)
    }

    fn draw(&self, frame: &mut Frame, area: Rect, _: &Ctx<'_>, theme: &Theme) {
        let name = self.name();
        self.picker
            .draw(frame, area, &text(&name), &self.rows(), theme);
    }
}
