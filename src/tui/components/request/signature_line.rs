//! The signature line under the panes: the signature shown and its state (updating, computed),
//! or why there is none, and beside it the server's verdict on the last send while the line
//! shows the signature it judged; never cut without a mark.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::state::{signed_view, RequestState};
use crate::tui::theme::Theme;
use crate::tui::widgets::text::clip_marked;

pub(super) fn draw_signature(frame: &mut Frame, area: Rect, req: &RequestState, theme: &Theme) {
    // `✓ computed` is about our signature only; the server's verdict on the last send is
    // shown apart, at the right. The signature is never cut for them: when the row is short
    // (80 columns), the state shrinks to `✓` and the verdict to `✗ 401`, or goes (the
    // response panel has it in full).
    // The verdict stands beside the signature it judged only: once the line shows another one
    // (the live timestamp ticked, a field changed), the verdict is in the response panel alone.
    let verdict = verdict_beside(req);
    let width = |spans: &[Span]| {
        spans
            .iter()
            .map(|s| s.content.chars().count())
            .sum::<usize>()
    };
    let (mut spans, state_short) = signature_spans(req, area, theme);
    let room = area.width as usize;
    // A signature wider than the row (under 68 columns) is cut with a mark, never silently: a
    // reader copying it by eye must see it is not whole (Alt-Y s copies it whole).
    if width(&spans) > room && spans.len() > 1 {
        spans.truncate(2);
        let keep = room.saturating_sub(4);
        let sig = clip_marked(&spans[1].content, keep);
        spans[1] = Span::styled(sig, spans[1].style);
    }
    let fits = |spans: &[Span], v: &str| width(spans) + 2 + v.chars().count() <= room;
    if let (Some((long, _, _)), Some(s)) = (&verdict, state_short) {
        if !fits(&spans, long) {
            spans.pop();
            spans.push(s);
        }
    }
    let shown = verdict.and_then(|(long, short, accepted)| {
        [long, short]
            .into_iter()
            .find(|v| fits(&spans, v))
            .map(|v| (v, accepted))
    });
    let Some((text, accepted)) = shown else {
        frame.render_widget(Paragraph::new(Line::from(spans)), area);
        return;
    };
    let vw = (text.chars().count() as u16 + 2).min(area.width);
    let left = Rect::new(area.x, area.y, area.width - vw, area.height);
    // One blank column before the verdict and one after it (it never touches the edge).
    let right = Rect::new(area.x + area.width - vw, area.y, vw - 1, area.height);
    frame.render_widget(Paragraph::new(Line::from(spans)), left);
    let style = if accepted { theme.ok() } else { theme.error() };
    frame.render_widget(
        Paragraph::new(Line::from(Span::styled(text, style)))
            .alignment(ratatui::layout::Alignment::Right),
        right,
    );
}

/// The server's verdict on the last send (long, short, and whether it accepted), when the
/// line shows the signature it judged.
fn verdict_beside(req: &RequestState) -> Option<(String, String, bool)> {
    let shown_signature = signed_view(req).map(|s| s.signature());
    req.response
        .as_ref()
        .filter(|r| {
            r.sent
                .as_ref()
                .is_none_or(|s| Some(s.signature.as_str()) == shown_signature)
        })
        .map(|r| {
            let (long, accepted) = server_verdict(r.status, r.code.as_deref());
            let short = format!("{} {}", if accepted { "✓" } else { "✗" }, r.status);
            (long, short, accepted)
        })
}

/// Our side of the signature line: the signature and its state (and the state's short form
/// for a short row), or why there is none.
fn signature_spans<'a>(
    req: &RequestState,
    area: Rect,
    theme: &Theme,
) -> (Vec<Span<'a>>, Option<Span<'a>>) {
    // A success mark never stands beside a rejection: once the server has rejected the last
    // send, our side says only "computed" (the signature was computed, not accepted).
    let rejected = req
        .response
        .as_ref()
        .is_some_and(|r| !server_verdict(r.status, r.code.as_deref()).1);
    match &req.sign.result {
        Some(Ok(s)) => {
            let (long, short, style) = if req.sign.updating() {
                (" updating…", " …", theme.warn())
            } else if rejected {
                (" computed", "", theme.dim())
            } else {
                (" ✓ computed", " ✓", theme.ok())
            };
            let spans = vec![
                Span::styled("sig ", theme.label()),
                Span::styled(s.signature().to_string(), theme.signature()),
                Span::styled(long, style),
            ];
            (spans, Some(Span::styled(short, style)))
        }
        // The reason whole when it fits; else a pointer to the Canonical text pane, which has it
        // wrapped (the part a cut would lose is the fix).
        Some(Err(e)) => {
            let room = (area.width as usize).saturating_sub(4);
            let why = if e.chars().count() <= room {
                e.clone()
            } else {
                clip_marked("not signed: the Canonical text pane says why", room)
            };
            (
                vec![
                    Span::styled("sig ", theme.label()),
                    Span::styled(why, theme.error()),
                ],
                None,
            )
        }
        None => (
            vec![
                Span::styled("sig ", theme.label()),
                Span::styled("updating…", theme.warn()),
            ],
            None,
        ),
    }
}

/// The server's verdict on the last send, in words: `server: accepted (200)` or
/// `server: rejected SIGNATURE_MISMATCH (401)`; and whether it accepted.
pub fn server_verdict(status: u16, code: Option<&str>) -> (String, bool) {
    if (200..300).contains(&status) {
        (format!("server: accepted ({status})"), true)
    } else {
        match code {
            Some(c) => (format!("server: rejected {c} ({status})"), false),
            None => (format!("server: rejected ({status})"), false),
        }
    }
}
