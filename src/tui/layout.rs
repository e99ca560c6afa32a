//! Where things are on the screen: the frame (tab bar, main area, status line) and the tabs.
//! Drawing and mouse hit testing both use these functions, so a click lands where the view drew.
//! Each component lays out its own main area (`components/*/layout`).

use ratatui::layout::Rect;

/// The top-level views (F2..F7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    Request,
    Events,
    History,
    Profiles,
    Diagnose,
    Traffic,
    Lesson,
}

impl View {
    pub const ALL: [View; 7] = [
        View::Request,
        View::Events,
        View::History,
        View::Profiles,
        View::Diagnose,
        View::Traffic,
        View::Lesson,
    ];
    pub fn title(self) -> &'static str {
        match self {
            View::Request => "Request",
            View::Events => "Events",
            View::History => "History",
            View::Profiles => "Profiles",
            View::Diagnose => "Diagnose",
            View::Traffic => "Traffic",
            View::Lesson => "Lesson",
        }
    }
    /// The key that shows the view, as the tab bar names it: the keys file's when it rebinds
    /// `show-<view>` in `[global]`, else the function key.
    pub fn key(self) -> String {
        let id = format!("show-{}", self.title().to_ascii_lowercase());
        crate::tui::keymap::user_label("global", &id).unwrap_or_else(|| self.default_key().into())
    }

    fn default_key(self) -> &'static str {
        match self {
            View::Request => "F2",
            View::Events => "F3",
            View::History => "F4",
            View::Profiles => "F5",
            View::Diagnose => "F6",
            View::Traffic => "F7",
            View::Lesson => "F8",
        }
    }
}

/// The smallest screen the views are laid out for (columns, rows): below it every pane would be
/// a sliver (the canonical text one column wide at 40x12), so the frame says how small the
/// terminal is and what it needs instead ([`too_small`]).
pub const MIN_SIZE: (u16, u16) = (60, 19);

/// Whether a screen of `area` is below [`MIN_SIZE`].
pub fn too_small(area: Rect) -> bool {
    area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1
}

/// Below this many rows the screen has no footer row (the views need the room).
pub const FOOTER_MIN_ROWS: u16 = 16;

/// The screen split into tab bar, main area and status line (and, on a screen of at least
/// [`FOOTER_MIN_ROWS`], the footer row between the main area and the status line:
/// [`footer_row`]).
pub fn frame_layout(area: Rect) -> (Rect, Rect, Rect) {
    let tabs = Rect::new(area.x, area.y, area.width, 1.min(area.height));
    let status = Rect::new(
        area.x,
        area.y + area.height.saturating_sub(1),
        area.width,
        1.min(area.height),
    );
    let footer = u16::from(area.height >= FOOTER_MIN_ROWS);
    let main = Rect::new(
        area.x,
        area.y + 1,
        area.width,
        area.height.saturating_sub(2 + footer),
    );
    (tabs, main, status)
}

/// The footer row (the keys that work where the cursor is), above the status line.
pub fn footer_row(area: Rect) -> Option<Rect> {
    (area.height >= FOOTER_MIN_ROWS)
        .then(|| Rect::new(area.x, area.y + area.height - 2, area.width, 1))
}

/// How much of each tab's title the tab bar shows: the whole titles when they fit, short ones
/// below that (80 columns), the function keys alone on very narrow screens. Every tab, the
/// active one included, is always in the bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TabTitles {
    Full,
    Short,
    Keys,
}

/// The brand shown left of the tabs when everything fits.
pub const BRAND: &str = " signscope ";
/// The help hint right of the tabs.
pub fn help_hint() -> String {
    let key = crate::tui::keymap::user_label("global", "help").unwrap_or_else(|| "F1".into());
    format!(" {key} help")
}

impl View {
    /// The title in at most 7 columns, for the tab bar at 80 columns.
    pub fn short_title(self) -> &'static str {
        match self {
            View::Request => "Req",
            View::Events => "Events",
            View::History => "Hist",
            View::Profiles => "Prof",
            View::Diagnose => "Diag",
            View::Traffic => "Traffic",
            View::Lesson => "Lesson",
        }
    }
}

fn labels_width(titles: TabTitles) -> usize {
    View::ALL
        .iter()
        .map(|v| tab_label(*v, titles).chars().count())
        .sum()
}

/// The titles that fit in a tab bar `width` columns wide (with the help hint).
pub fn tab_titles(width: u16) -> TabTitles {
    let room = (width as usize).saturating_sub(help_hint().chars().count());
    [TabTitles::Full, TabTitles::Short]
        .into_iter()
        .find(|t| labels_width(*t) <= room)
        .unwrap_or(TabTitles::Keys)
}

/// Whether the brand fits left of the whole titles.
pub fn brand_fits(width: u16) -> bool {
    BRAND.len() + labels_width(TabTitles::Full) + help_hint().chars().count() <= width as usize
}

pub fn tab_label(v: View, titles: TabTitles) -> String {
    match titles {
        TabTitles::Full => format!(" {} {} ", v.key(), v.title()),
        TabTitles::Short => format!(" {} {} ", v.key(), v.short_title()),
        TabTitles::Keys => format!(" {} ", v.key()),
    }
}

/// Where each view's tab is in the tab bar `area` (the top row of the screen), for drawing and
/// for switching views with a click.
pub fn tab_layout(area: Rect) -> Vec<(View, Rect)> {
    let mut x = area.x;
    if brand_fits(area.width) {
        x += BRAND.len() as u16;
    }
    let titles = tab_titles(area.width);
    let right = area.x + area.width;
    View::ALL
        .iter()
        .filter_map(|v| {
            let w = tab_label(*v, titles).chars().count() as u16;
            let r = Rect::new(x, area.y, w.min(right.saturating_sub(x)), area.height);
            x = x.saturating_add(w);
            (r.width > 0).then_some((*v, r))
        })
        .collect()
}
