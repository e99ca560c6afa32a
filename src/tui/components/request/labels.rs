//! The request view's small helpers, shared by its panes: the canonical panel's short labels and
//! form names, and escaped text as spans with its markers styled.

use ratatui::style::Style;
use ratatui::text::Span;

use crate::core::{LineLabel, SigningForm};
use crate::tui::theme::Theme;

/// A short label for narrow screens.
pub(super) fn compact_label(l: LineLabel) -> &'static str {
    match l {
        LineLabel::Method => "METHOD",
        LineLabel::Path => "PATH",
        LineLabel::Query => "QUERY",
        LineLabel::Timestamp => "TS",
        LineLabel::ApiKey => "APIKEY",
        LineLabel::AuthAlgo => "ALGO",
        LineLabel::ContentType => "CTYPE",
        LineLabel::Body => "BODY",
    }
}

/// How the canonical panel's title names a form.
pub(super) fn form_title(form: SigningForm) -> &'static str {
    match form {
        SigningForm::Standard => "standard",
        SigningForm::PhpSdk => "PHP SDK",
    }
}

/// Split escaped text so the escape markers (`\n`, `\t`, `\xNN`, `\u{..}`, `·`) stand out.
pub(super) fn visible_spans(text: &str, base: Style, theme: &Theme) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    let mut plain = String::new();
    let mut chars = text.chars().peekable();
    let marker = theme.marker().patch(base);
    while let Some(c) = chars.next() {
        if c == '·' {
            if !plain.is_empty() {
                spans.push(Span::styled(std::mem::take(&mut plain), base));
            }
            spans.push(Span::styled("·", marker));
        } else if c == '\\' {
            if !plain.is_empty() {
                spans.push(Span::styled(std::mem::take(&mut plain), base));
            }
            let mut esc = String::from('\\');
            if let Some(&n) = chars.peek() {
                esc.push(n);
                chars.next();
                if n == 'x' {
                    for _ in 0..2 {
                        if let Some(h) = chars.next() {
                            esc.push(h);
                        }
                    }
                } else if n == 'u' {
                    for h in chars.by_ref() {
                        esc.push(h);
                        if h == '}' {
                            break;
                        }
                    }
                }
            }
            let style = if esc == "\\\\" { base } else { marker };
            spans.push(Span::styled(esc, style));
        } else {
            plain.push(c);
        }
    }
    if !plain.is_empty() {
        spans.push(Span::styled(plain, base));
    }
    spans
}
