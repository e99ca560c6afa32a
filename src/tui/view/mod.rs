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

/// Where the parts of the request view are, for a given screen (shared by the view and by
/// mouse hit testing in `update`).
#[derive(Clone, Debug, Default)]
pub struct RequestLayout {
    pub fields_block: Rect,
    /// One row per field (the body's row is its whole editor area).
    pub fields: Vec<(Field, Rect)>,
    pub body: Rect,
    pub canonical: Rect,
    pub detail: Rect,
    pub signature: Rect,
}

/// The screen split into tab bar, main area and status line.
pub fn frame_layout(area: Rect) -> (Rect, Rect, Rect) {
    let tabs = Rect::new(area.x, area.y, area.width, 1.min(area.height));
    let status = Rect::new(
        area.x,
        area.y + area.height.saturating_sub(1),
        area.width,
        1.min(area.height),
    );
    let main = Rect::new(
        area.x,
        area.y + 1,
        area.width,
        area.height.saturating_sub(2),
    );
    (tabs, main, status)
}

/// Layout of the request view for a whole screen of `area`.
pub fn request_layout(area: Rect) -> RequestLayout {
    let (_, main, _) = frame_layout(area);
    let signature = Rect::new(
        main.x,
        main.y + main.height.saturating_sub(1),
        main.width,
        1.min(main.height),
    );
    let rest_h = main.height.saturating_sub(1);
    let left_w = (main.width * 45 / 100)
        .clamp(38.min(main.width), 60)
        .min(main.width);
    let right_w = main.width - left_w;
    let fields_h = 12.min(rest_h);
    let fields_block = Rect::new(main.x, main.y, left_w, fields_h);
    let body = Rect::new(main.x, main.y + fields_h, left_w, rest_h - fields_h);
    let canon_h = (rest_h * 58 / 100).max(12.min(rest_h));
    let canonical = Rect::new(main.x + left_w, main.y, right_w, canon_h);
    let detail = Rect::new(main.x + left_w, main.y + canon_h, right_w, rest_h - canon_h);
    let mut fields = Vec::new();
    for (i, f) in Field::ALL.iter().take(10).enumerate() {
        let y = fields_block.y + 1 + i as u16;
        if y + 1 < fields_block.y + fields_block.height {
            fields.push((
                *f,
                Rect::new(fields_block.x + 1, y, left_w.saturating_sub(2), 1),
            ));
        }
    }
    fields.push((Field::Body, body));
    RequestLayout {
        fields_block,
        fields,
        body,
        canonical,
        detail,
        signature,
    }
}

/// Draw the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    let theme = Theme::new(app.no_color);
    let area = frame.area();
    let (tabs, main, status) = frame_layout(area);
    draw_tabs(frame, tabs, app, &theme);
    match app.view {
        View::Request => request::draw(frame, area, app, &theme),
        View::Diagnose => diagnose::draw(frame, main, app, &theme),
        View::Events => super::components::events::draw(frame, main, &app.events),
        View::History => super::components::history::draw(frame, main, &app.history),
        View::Profiles => super::components::profiles::draw(frame, main, &app.profiles),
    }
    draw_status(frame, status, app, &theme);
    popup::draw(frame, area, app, &theme);
}

fn tab_label(v: View) -> String {
    format!(" {} {} ", v.key(), v.title())
}

/// Where each view's tab is in the tab bar `area` (the top row of the screen), for drawing and
/// for switching views with a click.
pub fn tab_layout(area: Rect) -> Vec<(View, Rect)> {
    let mut x = area.x;
    if area.width >= 90 {
        x += " signscope ".len() as u16;
    }
    let right = area.x + area.width;
    View::ALL
        .iter()
        .filter_map(|v| {
            let w = tab_label(*v).chars().count() as u16;
            let r = Rect::new(x, area.y, w.min(right.saturating_sub(x)), area.height);
            x = x.saturating_add(w);
            (r.width > 0).then_some((*v, r))
        })
        .collect()
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
