//! Views: draw only. They read the App and never change it or block.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use super::app::{App, Field, View};
use super::theme::Theme;
pub use crate::tui::widgets::list_window::window_first;
pub use crate::tui::widgets::text::{clip, json_line, styled_line, wrap_chars, wrap_spans};

pub mod diagnose;
pub mod popup;
pub mod request;

/// Draw the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let theme = Theme::new(app.no_color);
    let area = frame.area();
    let (tabs, main, status) = frame_layout(area);
    draw_tabs(frame, tabs, app, &theme);
    match app.view {
        View::Request => request::draw(frame, area, app, &theme),
        View::Diagnose => diagnose::draw(frame, main, app, &theme),
        View::Events => super::events_view::draw(frame, main, &app.events),
        View::History => super::history_view::draw(frame, main, &app.history),
        View::Profiles => super::profiles_view::draw(frame, main, &app.profiles),
    }
    draw_status(frame, status, app, &theme);
    popup::draw(frame, area, app, &theme);
}

fn draw_tabs(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let mut spans = vec![];
    if area.width >= 90 {
        spans.push(Span::styled(" signscope ", theme.title()));
    }
    for (v, _) in tab_layout(area) {
        let style = if v == app.view {
            theme.active_tab()
        } else {
            theme.dim()
        };
        spans.push(Span::styled(tab_label(v), style));
    }
    spans.push(Span::styled(" F1 help", theme.dim()));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_status(frame: &mut Frame, area: Rect, app: &App, theme: &Theme) {
    let dirty = if app.dirty { "*" } else { "" };
    let target = super::update::target_url(app);
    let text = format!(
        " {}{} │ {} {} │ {}",
        app.profile_name,
        dirty,
        app.method.text().to_ascii_uppercase(),
        target,
        app.status
    );
    frame.render_widget(Paragraph::new(text).style(theme.status()), area);
}

#[cfg(test)]
mod tests;
