//! Styles. With `NO_COLOR` set (https://no-color.org) only bold / reverse / underline / dim are
//! used, so every distinction stays visible without colour.

use ratatui::style::{Color, Modifier, Style};

/// `Default` is the coloured theme, for what only measures text (how many rows a pane's text
/// takes) and draws nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Theme {
    pub no_color: bool,
}

/// What only measures text (how many rows it takes wrapped) draws with: styles do not change
/// how text wraps.
pub const MEASURE: Theme = Theme { no_color: true };

impl Theme {
    pub fn new(no_color: bool) -> Self {
        Theme { no_color }
    }

    /// Whether the environment asks for no colour (NO_COLOR set and not empty).
    pub fn no_color_from_env() -> bool {
        std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
    }

    fn color(&self, style: Style, fg: Color) -> Style {
        if self.no_color {
            style
        } else {
            style.fg(fg)
        }
    }

    pub fn base(&self) -> Style {
        Style::default()
    }
    pub fn label(&self) -> Style {
        self.color(Style::default(), Color::Cyan)
    }
    pub fn focus_label(&self) -> Style {
        self.color(
            Style::default().add_modifier(Modifier::BOLD | Modifier::REVERSED),
            Color::Yellow,
        )
    }
    /// A highlighted canonical line (the one the focused field produces).
    pub fn highlight(&self) -> Style {
        if self.no_color {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
                .bg(Color::Rgb(60, 60, 0))
                .fg(Color::White)
                .add_modifier(Modifier::BOLD)
        }
    }
    /// Escapes such as `\n`, `·`, `\u{00A0}`: what would otherwise be invisible.
    pub fn marker(&self) -> Style {
        self.color(Style::default().add_modifier(Modifier::DIM), Color::Magenta)
    }
    pub fn dim(&self) -> Style {
        Style::default().add_modifier(Modifier::DIM)
    }
    pub fn title(&self) -> Style {
        self.color(Style::default().add_modifier(Modifier::BOLD), Color::White)
    }
    pub fn active_tab(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }
    pub fn border(&self) -> Style {
        self.color(Style::default(), Color::DarkGray)
    }
    pub fn focus_border(&self) -> Style {
        self.color(Style::default().add_modifier(Modifier::BOLD), Color::Yellow)
    }
    pub fn ok(&self) -> Style {
        self.color(Style::default().add_modifier(Modifier::BOLD), Color::Green)
    }
    pub fn warn(&self) -> Style {
        self.color(Style::default().add_modifier(Modifier::BOLD), Color::Yellow)
    }
    pub fn error(&self) -> Style {
        self.color(Style::default().add_modifier(Modifier::BOLD), Color::Red)
    }
    pub fn removed(&self) -> Style {
        if self.no_color {
            Style::default().add_modifier(Modifier::CROSSED_OUT)
        } else {
            Style::default().fg(Color::Red)
        }
    }
    pub fn added(&self) -> Style {
        if self.no_color {
            Style::default().add_modifier(Modifier::UNDERLINED)
        } else {
            Style::default().fg(Color::Green)
        }
    }
    pub fn signature(&self) -> Style {
        self.color(
            Style::default().add_modifier(Modifier::BOLD),
            Color::LightGreen,
        )
    }
    pub fn json_key(&self) -> Style {
        self.color(Style::default(), Color::Cyan)
    }
    pub fn json_string(&self) -> Style {
        self.color(Style::default(), Color::Green)
    }
    pub fn json_number(&self) -> Style {
        self.color(Style::default(), Color::Yellow)
    }
    pub fn json_literal(&self) -> Style {
        self.color(Style::default(), Color::Magenta)
    }
    /// A match of the search (the body editor's widget uses the same blue).
    pub fn search_match(&self) -> Style {
        if self.no_color {
            Style::default().add_modifier(Modifier::UNDERLINED)
        } else {
            Style::default().bg(Color::Blue)
        }
    }
    /// The current match of the search ("n of m").
    pub fn search_current(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    }
    pub fn status(&self) -> Style {
        if self.no_color {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default().bg(Color::Blue).fg(Color::White)
        }
    }
}
