//! String literals for each generated language: the value must read back byte for byte, and
//! stay readable (printable text, including non-ASCII letters, is written as it is).

use super::lang::Lang;
use crate::core::visible::is_hidden;

/// `value` as a string literal of `lang`, whose UTF-8 bytes are exactly `value`'s.
pub fn literal(lang: Lang, value: &str) -> String {
    match lang {
        Lang::Shell => crate::core::curl::shell_single_quoted(value),
        Lang::Php => c_like(value, Escapes::PHP),
        Lang::Ruby => c_like(value, Escapes::RUBY),
        Lang::Python | Lang::Node | Lang::Go | Lang::Java | Lang::Csharp => {
            c_like(value, Escapes::PLAIN)
        }
    }
}

/// How one family of double-quoted literals spells the characters it cannot hold as they are.
struct Escapes {
    /// Characters that start an interpolation and need a backslash (`$` in PHP, `#` in Ruby).
    interpolation: &'static [char],
    /// `\u{feff}` (PHP, also accepted by Ruby) rather than `\ufeff`.
    braced_unicode: bool,
}

impl Escapes {
    const PLAIN: Escapes = Escapes {
        interpolation: &[],
        braced_unicode: false,
    };
    const PHP: Escapes = Escapes {
        interpolation: &['$'],
        braced_unicode: true,
    };
    const RUBY: Escapes = Escapes {
        interpolation: &['#'],
        braced_unicode: false,
    };
}

/// A double-quoted literal with backslash escapes. Control characters, DEL and the invisible
/// characters some compilers refuse or misread in source (BOM, line and paragraph separators)
/// are escaped; other text is kept, so the program shows the body as it is.
fn c_like(value: &str, esc: Escapes) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if esc.interpolation.contains(&c) => {
                out.push('\\');
                out.push(c);
            }
            // Control characters, and what `core::visible::is_hidden` names: the BOM, line
            // and paragraph separators (which some compilers refuse or misread), and the
            // bidirectional overrides that make code read differently from what it does
            // ("Trojan Source").
            c if c.is_control() || is_hidden(c) => {
                let code = c as u32;
                if esc.braced_unicode {
                    out.push_str(&format!("\\u{{{code:04x}}}"));
                } else if code <= 0xFFFF {
                    out.push_str(&format!("\\u{code:04x}"));
                } else {
                    // No control character lies outside the BMP; kept for completeness.
                    out.push(c);
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_literals_escape_quotes_backslashes_and_line_ends() {
        assert_eq!(
            literal(Lang::Python, "a\"b\\c\nd\re\tf"),
            r#""a\"b\\c\nd\re\tf""#
        );
        assert_eq!(literal(Lang::Java, "\u{1}\u{7f}"), r#""\u0001\u007f""#);
        assert_eq!(literal(Lang::Go, "\u{feff}x"), r#""\ufeffx""#);
    }

    #[test]
    fn non_ascii_text_is_kept_readable() {
        assert_eq!(literal(Lang::Node, "café ü"), "\"café ü\"");
    }

    #[test]
    fn interpolation_characters_are_escaped_where_they_interpolate() {
        assert_eq!(literal(Lang::Php, "$x {$y}"), r#""\$x {\$y}""#);
        assert_eq!(literal(Lang::Ruby, "#{x} $y"), r##""\#{x} $y""##);
        assert_eq!(literal(Lang::Python, "#{x} $y"), r##""#{x} $y""##);
        assert_eq!(literal(Lang::Php, "\u{1}"), r#""\u{0001}""#);
    }

    #[test]
    fn bidi_overrides_and_c1_controls_are_escaped_in_every_language() {
        let v = "a\u{202E}b\u{009B}c\u{2066}";
        assert_eq!(literal(Lang::Python, v), r#""a\u202eb\u009bc\u2066""#);
        assert_eq!(literal(Lang::Php, v), r#""a\u{202e}b\u{009b}c\u{2066}""#);
        assert_eq!(
            literal(Lang::Shell, v),
            r#"'a'"$(printf '\342\200\256')"'b'"$(printf '\302\233')"'c'"$(printf '\342\201\246')""#
        );
        assert_eq!(literal(Lang::Shell, ""), "''");
        assert_eq!(literal(Lang::Shell, "\r"), r#""$(printf '\015')""#);
    }

    #[test]
    fn shell_words_are_single_quoted() {
        assert_eq!(literal(Lang::Shell, "it's\n$x"), "'it'\\''s\n$x'");
    }
}
