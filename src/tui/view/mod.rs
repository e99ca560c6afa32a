//! Drawing the whole screen: the tab bar, the current view's component, the status line and
//! the router's popups. Draw only: it reads the App and never changes it or blocks.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::app::App;
use super::component::Component;
use super::components::request;
use super::layout::{brand_fits, frame_layout, tab_label, tab_layout, tab_titles, View};
use super::theme::Theme;

pub mod footer;

#[cfg(test)]
pub(crate) mod no_cut;

/// Draw the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let theme = app.theme;
    let area = frame.area();
    if crate::tui::layout::too_small(area) {
        draw_too_small(
            frame,
            area,
            app.unsaved_anywhere() || app.popup.is_some(),
            &theme,
        );
        return;
    }
    let (tabs, main, status) = frame_layout(area);
    draw_tabs(frame, tabs, app, &theme);
    // The terminal cursor shows where typing goes: never through a popup over the view.
    let cursor = app.popup.is_none();
    match app.view {
        View::Request => {
            let ctx = request::RequestCtx {
                profile: &app.profile,
                cursor,
            };
            app.request.draw(frame, area, &ctx, &theme)
        }
        View::Diagnose => {
            let key_source = app.request.key_info.source.as_str();
            app.diagnose.draw(frame, main, &key_source, &theme)
        }
        View::Events => app.events.draw(frame, main, &cursor, &theme),
        View::History => app.history.draw(frame, main, &(), &theme),
        View::Profiles => app
            .profiles
            .draw(frame, main, &app.profile.name.as_str(), &theme),
        View::Traffic => app.traffic.draw(frame, main, &(), &theme),
        View::Lesson => app.lesson.draw(frame, main, &(), &theme),
    }
    if let Some(row) = crate::tui::layout::footer_row(area) {
        let text = footer::line(&footer::items(app), row.width as usize);
        frame.render_widget(Paragraph::new(text).style(theme.dim()), row);
    }
    draw_status(frame, status, app, &theme);
    if let Some(popup) = &app.popup {
        popup.draw(frame, area, &app.popup_ctx(), &theme);
    }
}

/// The whole screen when the terminal is below the size the views are laid out for: how big it
/// is, what it needs, and that keys wait for a bigger window (nothing typed blind; the quit key
/// quits only when that loses nothing and no question is open: `kept`).
fn draw_too_small(frame: &mut Frame, area: Rect, kept: bool, theme: &Theme) {
    let (w, h) = crate::tui::layout::MIN_SIZE;
    let quit =
        crate::tui::global_keys::GLOBAL_KEYS.label_of(crate::tui::global_keys::GlobalAction::Quit);
    // The table's last quit key (Ctrl-Q; Ctrl-C comes first only as the habit).
    let quit = quit.rsplit(" / ").next().unwrap_or_default();
    let keys = if kept {
        "keys wait for it; the edits are kept".to_string()
    } else {
        format!("keys wait for it, {quit} quits")
    };
    let text = format!(
        "Terminal too small: {}x{}. signscope needs at least {w}x{h}; enlarge the window ({keys}).",
        area.width, area.height,
    );
    let wrap = |t: &str| crate::tui::widgets::text::wrap_words(t, area.width as usize);
    let mut rows = wrap(&text);
    if rows.len() > area.height as usize {
        // A tiny window: the short form.
        rows = wrap(&format!(
            "{}x{} too small; needs {w}x{h}",
            area.width, area.height
        ));
    }
    let lines: Vec<Line> = rows
        .into_iter()
        .map(|l| Line::styled(l, theme.warn()))
        .collect();
    let top = area.height.saturating_sub(lines.len() as u16) / 2;
    let rows = Rect::new(area.x, area.y + top, area.width, area.height - top);
    frame.render_widget(
        Paragraph::new(lines).alignment(ratatui::layout::Alignment::Center),
        rows,
    );
}

fn draw_tabs(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let mut spans = vec![];
    if brand_fits(area.width) {
        spans.push(Span::styled(super::layout::BRAND, theme.title()));
    }
    let titles = tab_titles(area.width);
    for (v, _) in tab_layout(area) {
        let style = if v == app.view {
            theme.active_tab()
        } else {
            theme.dim()
        };
        spans.push(Span::styled(tab_label(v, titles), style));
    }
    spans.push(Span::styled(super::layout::help_hint(), theme.dim()));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_status(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    if app.view == View::Traffic {
        // The address to point an application at, always in sight on this view.
        let t = &app.traffic;
        let to = if t.address.is_empty() {
            "no local server".to_string()
        } else if t.watching {
            format!("watching {}", t.address)
        } else {
            format!("point applications at {}", t.address)
        };
        let text = format!(" {to} │ {}", app.status);
        frame.render_widget(
            Paragraph::new(fit_status(&text, area.width)).style(theme.status()),
            area,
        );
        return;
    }
    let req = &app.request;
    // Every unsaved edit of the profile counts (the request's and the Events view's), as the
    // unsaved-edits questions count them.
    let dirty = if app.unsaved() { "*" } else { "" };
    // In the request view, the method and URL of the signed request (what Ctrl-G sends there),
    // not of the fields. Another view's Ctrl-G sends something else (or nothing): the room goes
    // to its messages.
    let text = if app.view == View::Request {
        let target = match (request::signed_view(req), &req.sign.result) {
            (Some(s), _) => format!("{} {}", s.method(), s.url(req.url.text())),
            // The reason is in the Canonical text pane; the bar says only that it failed.
            (None, Some(Err(_))) => "not signed".to_string(),
            (None, _) => "signing…".to_string(),
        };
        format!(" {}{} │ {target} │ {}", app.profile.name, dirty, app.status)
    } else {
        format!(" {}{} │ {}", app.profile.name, dirty, app.status)
    };
    frame.render_widget(
        Paragraph::new(fit_status(&text, area.width)).style(theme.status()),
        area,
    );
}

/// The status line cut to the screen's width, ending in "… Alt-M" when it was longer: the
/// message log (Alt-M) keeps the message whole.
fn fit_status(text: &str, width: u16) -> String {
    let width = width as usize;
    if crate::tui::widgets::text::text_width(text) <= width {
        return text.to_string();
    }
    let log = crate::tui::global_keys::GLOBAL_KEYS
        .label_of(crate::tui::global_keys::GlobalAction::Messages);
    let more = format!("… {}", log.split(" / ").next().unwrap_or_default());
    let keep = width.saturating_sub(more.chars().count());
    let mut out: String = text.chars().take(keep).collect();
    out.push_str(&more);
    out
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod screen_tests;

#[cfg(test)]
mod no_cut_tests;

#[cfg(test)]
mod scroll_tests;

#[cfg(test)]
mod unsigned_tests;
