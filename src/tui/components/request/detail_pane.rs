//! The detail pane: its tabs (Pipeline, Headers, Response, Diff) and their scroll; the
//! Pipeline (the four steps from the canonical bytes to the header) and Headers tabs are drawn
//! here, the Response tab by `response_pane.rs` and the Diff tab by `diff.rs`.

use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::canonical_pane::unsigned_lines;
use super::keys::{Action, KEYS};
use super::labels::{form_title, visible_spans};
use super::layout::RequestLayout;
use super::state::{signed_view, Detail, RequestState};
use crate::core::visible::escape_visible;
use crate::core::SigningForm;
use crate::tui::theme::Theme;
use crate::tui::widgets::pane;
use crate::tui::widgets::text::{fit_title, styled_line, styled_words, wrap_chars, wrap_spans};

pub(super) fn draw_detail(frame: &mut Frame, area: Rect, req: &RequestState, theme: &Theme) {
    let mut title = vec![Span::raw(" ")];
    for d in Detail::ALL {
        let style = if d == req.detail {
            theme.active_tab()
        } else {
            theme.dim()
        };
        // The Response tab says when it shows the request as sent instead of the answer.
        let name = if d == Detail::Response && req.show_sent {
            "Sent"
        } else {
            d.title()
        };
        title.push(Span::styled(format!(" {name} "), style));
    }
    // The key that cycles them when it fits (help and the footer name it too).
    let used: usize = title.iter().map(|s| s.width()).sum();
    if used + 8 <= (area.width as usize).saturating_sub(2) {
        title.push(Span::styled(
            format!(" {} ", KEYS.label_of(Action::NextDetail)),
            theme.dim(),
        ));
    }
    let b = pane(fit_title(Line::from(title), area.width), false, theme);
    let inner = b.inner(area);
    frame.render_widget(b, area);
    if inner.height == 0 {
        return;
    }
    let w = inner.width as usize;
    let h = inner.height as usize;
    let lines: Vec<Line> = match req.detail {
        Detail::Pipeline => pipeline_lines(req, w, theme),
        Detail::Headers => headers_lines(req, w, theme),
        Detail::Response => return super::response_pane::draw(frame, inner, req, theme),
        Detail::Diff => super::diff::diff_lines(req, w, theme),
    };
    req.detail_max.set(lines.len().saturating_sub(h));
    req.detail_page.set(h.saturating_sub(1).max(1));
    let skip = req.detail_scroll.min(req.detail_max.get());
    let shown: Vec<Line> = lines.into_iter().skip(skip).take(h).collect();
    frame.render_widget(Paragraph::new(shown), inner);
}

fn pipeline_lines(req: &RequestState, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    // Each heading wraps to the panel's width: never cut.
    let step = |out: &mut Vec<Line<'static>>, n: &str, title: &str, why: &str| {
        out.extend(wrap_spans(
            &[
                Span::styled(format!("{n} {title}"), theme.title()),
                Span::styled(format!(" — {why}"), theme.dim()),
            ],
            w as u16,
        ));
    };
    // Every step reads the signed request: the text in its form, its digest, its signature.
    let Some(s) = signed_view(req) else {
        let why = match &req.sign.result {
            Some(Err(e)) => e.clone(),
            _ => "signing…".into(),
        };
        out.extend(styled_words(&why, w, theme.warn()));
        return out;
    };
    let canonical = s.canonical();
    let form_note = match s.form() {
        SigningForm::Standard => String::new(),
        f => format!(" (in the {} form)", form_title(f)),
    };
    step(
        &mut out,
        "1",
        "canonical bytes",
        &format!("the exact text signed{form_note}: 7 lines + body, joined by LF"),
    );
    let mut preview = escape_visible(canonical.head().as_bytes());
    let body = canonical.body();
    let cut = body.len().min(160);
    preview.push_str(&escape_visible(&body[..cut]));
    if body.len() > cut {
        preview.push_str(&format!("… (+{} bytes)", body.len() - cut));
    }
    // Six rows of it at most (the canonical panel has it whole): a cut says so with `…`.
    let mut rows = wrap_chars(&preview, w);
    if rows.len() > 6 {
        rows.truncate(6);
        if let Some(last) = rows.last_mut() {
            last.pop();
            last.push('…');
        }
    }
    for chunk in rows {
        out.push(Line::from(visible_spans(&chunk, Style::default(), theme)));
    }
    step(
        &mut out,
        "2",
        "HMAC-SHA384 digest",
        "keyed with the REST key; 48 bytes, in hex",
    );
    for chunk in wrap_chars(&s.digest_hex(), w) {
        out.push(Line::from(chunk));
    }
    step(
        &mut out,
        "3",
        "base64",
        "standard alphabet with padding: the signature",
    );
    for chunk in wrap_chars(s.signature(), w) {
        out.push(Line::from(Span::styled(chunk, theme.signature())));
    }
    step(&mut out, "4", "header", "sent as the Authorization header");
    for chunk in wrap_chars(&format!("Authorization: Bearer {}", s.signature()), w) {
        out.push(Line::from(chunk));
    }
    out
}

fn headers_lines(req: &RequestState, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    let dim = |text: &str| styled_words(text, w, theme.dim());
    let mut out = dim("Exact headers to send (the body goes byte for byte):");
    match signed_view(req) {
        Some(s) => {
            let own: Vec<(String, String)> = s
                .headers()
                .into_iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect();
            for (n, v) in &own {
                let text = format!("{n}: {v}");
                for (k, chunk) in wrap_chars(&text, w).into_iter().enumerate() {
                    if k == 0 && chunk.len() > n.len() {
                        let (a, b) = chunk.split_at(n.len() + 1);
                        out.push(styled_line(vec![
                            (a.to_string(), theme.label()),
                            (b.to_string(), Style::default()),
                        ]));
                    } else {
                        out.push(Line::from(chunk));
                    }
                }
            }
            // What the HTTP client adds on its own goes on the wire too: shown apart, as the
            // sending code computes it (`engine::added_headers`), marked as not signed.
            let added = crate::engine::added_headers(req.url.text(), &own, s.spec().body.len());
            out.extend(dim("Added by the HTTP client, not signed:"));
            for (n, v) in added {
                for chunk in wrap_chars(&format!("{n}: {v}"), w) {
                    out.push(Line::from(Span::styled(chunk, theme.dim())));
                }
            }
            out.extend(dim(&copy_hint()));
        }
        None => out.extend(unsigned_lines(req, w as u16, theme)),
    }
    out
}

/// The copy menu's letters for what the Pipeline panel shows, from the keymap ("Alt-Y copy: s
/// signature · h headers · ...").
fn copy_hint() -> String {
    use super::keys::COPY_KEYS;
    let l = |a| COPY_KEYS.label_of(a);
    format!(
        "{}copy: {} signature · {} headers · {} curl · {} canonical text",
        crate::tui::global_keys::copy_key(""),
        l(Action::CopySignature),
        l(Action::CopyHeaders),
        l(Action::CopyCurl),
        l(Action::CopyCanonical)
    )
}

/// The Response panel, showing the request as sent for the response (again: the answer).
pub(super) fn show_sent(req: &mut RequestState) {
    if req.response.is_none() {
        req.status = format!(
            "nothing was sent yet: {} sends the request",
            KEYS.label_of(Action::Send)
        );
        return;
    }
    req.show_sent = req.detail != Detail::Response || !req.show_sent;
    req.detail = Detail::Response;
    req.detail_scroll = 0;
    req.detail_max.set(usize::MAX);
}

pub(super) fn cycle_detail(req: &mut RequestState) {
    req.detail = crate::tui::widgets::cycle(&Detail::ALL, req.detail, false);
    req.show_sent = false;
    req.detail_scroll = 0;
    req.detail_max.set(usize::MAX);
}

pub(super) fn cycle_detail_if_title(req: &mut RequestState, l: &RequestLayout, pos: Position) {
    if pos.y == l.detail.y {
        cycle_detail(req);
    }
}

/// Scroll the detail panel down by `n` rows, no further than its last line.
pub(super) fn scroll_detail(req: &mut RequestState, n: usize) {
    req.detail_scroll = req
        .detail_scroll
        .saturating_add(n)
        .min(req.detail_max.get());
}
