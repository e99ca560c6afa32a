//! Bodies a client may have signed instead of the one it sent: nothing, a LF after it, the JSON
//! re-serialised (compact, Python's spacing, pretty, keys sorted), `\u` escapes and `\/` toggled,
//! a change after signing undone. A leaf: which mistake signs which body ([`Recipe`]) is the
//! catalogue's (`catalogue.rs`), which imports this module.
//!
//! Bounded memory: re-serialisations stream from the sent bytes to the variant's bytes
//! (`serde_transcode`, no tree of values); only sorting keys needs a tree, and it is built only for
//! bodies up to [`TREE_MAX`]. One variant is held at a time, and a variant that would grow past
//! a few times the body is dropped.

use std::io::Write;
use std::sync::{Arc, OnceLock};

/// Largest body whose keys are sorted through a `serde_json::Value` tree (bytes).
pub const TREE_MAX: usize = 1024 * 1024;

/// A variant larger than this multiple of the body (plus 4 KiB) is not built.
const GROWTH_MAX: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    Compact,
    Python,
    Pretty2,
    Pretty4,
}

/// A change made to the body after it was signed: the recipe undoes it, so the variant is
/// the body that was signed (docs/diagnosis.md D8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum After {
    /// A LF (CRLF when `crlf`) was appended: the variant is the body without it.
    LfAdded { crlf: bool },
    /// The line ends were converted, LF to CRLF (`to_crlf`) or CRLF to LF: the variant has
    /// them converted back.
    LineEnds { to_crlf: bool },
    /// Re-serialised: the variant is the recipe's style with its toggles, named as one change.
    Reserialised,
    /// Sent with curl's `-d @file`: the variant is the file as written (given by the caller).
    CurlFile,
    /// Sent with curl's `-d @file` from an indented JSON file: the variant is the body
    /// re-indented in `style`, with CRLF line ends when `crlf`, and a line end after it when
    /// `eol`, kept only when dropping its CR and LF bytes gives the body sent.
    CurlIndented { style: Style, crlf: bool, eol: bool },
}

/// How a body variant is made from the sent body.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Recipe {
    /// Signed no body at all.
    pub empty: bool,
    /// Re-serialised in a style, keys sorted or not.
    pub style: Option<(Style, bool)>,
    pub toggle_unicode: bool,
    pub toggle_slashes: bool,
    pub trailing_lf: bool,
    /// A change after signing this recipe undoes (named as that change alone).
    pub after: Option<After>,
}

/// A JSON form in words ("compact, non-ASCII as \u escapes, '/' as '\/'").
pub fn form_words(style: Style, unicode: bool, slashes: bool) -> String {
    let mut parts = vec![match style {
        Style::Compact => "compactly",
        Style::Python => "with Python's \", \" and \": \" spacing",
        Style::Pretty2 => "indented by 2 spaces",
        Style::Pretty4 => "indented by 4 spaces",
    }
    .to_string()];
    if unicode {
        parts.push("with non-ASCII characters as \\u escapes".to_string());
    }
    if slashes {
        parts.push("with '/' as '\\/'".to_string());
    }
    let mut text = parts.join(", ");
    if unicode && slashes && style != Style::Python {
        text.push_str(if matches!(style, Style::Pretty4) {
            " (as PHP's json_encode with JSON_PRETTY_PRINT writes it)"
        } else if style == Style::Compact {
            " (as PHP's json_encode writes it)"
        } else {
            ""
        });
    }
    text
}

/// Every style, in the order they are tried.
pub const STYLES: [Style; 4] = [
    Style::Compact,
    Style::Python,
    Style::Pretty2,
    Style::Pretty4,
];

/// Why a variant was not built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotBuilt {
    /// The recipe changes nothing for this body (or the body is not JSON).
    NotApplicable,
    /// Sorting keys needs a tree, and the body is over [`TREE_MAX`].
    TooLargeForTree,
    /// The variant would be more than a few times the body.
    TooLarge,
}

/// Largest body whose re-serialisations are kept for the whole diagnosis (bytes): each style
/// is then built once, not once per round and per recipe that starts from it (a 1 MB body's
/// eight take about 10 MB; a larger body builds them again each time, holding one at a time).
pub const CACHE_MAX: usize = 4 * 1024 * 1024;

/// The re-serialisations of one body (four styles, keys sorted or not), each built at most
/// once and shared by every recipe and thread of a search. Sorted styles other than compact
/// re-serialise the sorted compact text, so the tree of values is built once.
#[derive(Default)]
pub struct Styled {
    cells: [OnceLock<Result<Arc<Vec<u8>>, NotBuilt>>; 8],
}

impl Styled {
    fn get(
        &self,
        body: &[u8],
        style: Style,
        keys_sorted: bool,
        cap: usize,
    ) -> Result<Arc<Vec<u8>>, NotBuilt> {
        let i = STYLES.iter().position(|s| *s == style).unwrap_or(0) * 2 + usize::from(keys_sorted);
        self.cells[i]
            .get_or_init(|| match (keys_sorted, style) {
                (false, _) => restyle(body, style, cap).map(Arc::new),
                (true, Style::Compact) => sorted_style(body, Style::Compact, cap).map(Arc::new),
                (true, _) => {
                    let compact = self.get(body, Style::Compact, true, cap)?;
                    restyle(&compact, style, cap).map(Arc::new)
                }
            })
            .clone()
    }
}

fn sorted_style(body: &[u8], style: Style, cap: usize) -> Result<Vec<u8>, NotBuilt> {
    if body.len() > TREE_MAX {
        return Err(NotBuilt::TooLargeForTree);
    }
    sorted(body, style, cap)
}

/// Build the body a recipe gives (without the trailing LF, which is hashed separately), taking
/// its re-serialisation from `styled` when given.
pub fn build(
    body: &[u8],
    r: &Recipe,
    styled: Option<&Styled>,
    curl_file: Option<&[u8]>,
) -> Result<Arc<Vec<u8>>, NotBuilt> {
    let cap = body.len().saturating_mul(GROWTH_MAX) + 4096;
    match r.after {
        None | Some(After::Reserialised) => {}
        Some(a) => return undo(body, a, styled, curl_file, cap).map(Arc::new),
    }
    let stage: Option<Arc<Vec<u8>>> = match (r.empty, r.style) {
        (true, _) => Some(Arc::new(Vec::new())),
        (false, None) => None,
        (false, Some((style, keys_sorted))) => Some(match styled {
            Some(cache) => cache.get(body, style, keys_sorted, cap)?,
            None if keys_sorted => Arc::new(sorted_style(body, style, cap)?),
            None => Arc::new(restyle(body, style, cap)?),
        }),
    };
    let base: &[u8] = stage.as_deref().map_or(body, Vec::as_slice);
    let mut toggled: Option<Vec<u8>> = None;
    if r.toggle_unicode {
        toggled = Some(toggle_unicode(base).ok_or(NotBuilt::NotApplicable)?);
    }
    if r.toggle_slashes {
        let from = toggled.as_deref().unwrap_or(base);
        toggled = Some(toggle_slashes(from).ok_or(NotBuilt::NotApplicable)?);
    }
    let out = match (toggled, stage) {
        (Some(v), _) => Arc::new(v),
        (None, Some(v)) => v,
        (None, None) => Arc::new(body.to_vec()),
    };
    if out.len() > cap {
        return Err(NotBuilt::TooLarge);
    }
    if !r.trailing_lf && !r.empty && out.as_slice() == body {
        return Err(NotBuilt::NotApplicable);
    }
    Ok(out)
}

/// The body as it was signed, before a change made after signing (`a`).
fn undo(
    body: &[u8],
    a: After,
    styled: Option<&Styled>,
    curl_file: Option<&[u8]>,
    cap: usize,
) -> Result<Vec<u8>, NotBuilt> {
    let out = match a {
        After::LfAdded { crlf } => {
            let end: &[u8] = if crlf { b"\r\n" } else { b"\n" };
            body.strip_suffix(end)
                .ok_or(NotBuilt::NotApplicable)?
                .to_vec()
        }
        After::LineEnds { to_crlf: true } => crlf_to_lf(body),
        After::LineEnds { to_crlf: false } => lf_to_crlf(body),
        After::CurlFile => curl_file.ok_or(NotBuilt::NotApplicable)?.to_vec(),
        After::CurlIndented { style, crlf, eol } => {
            let pretty = match styled {
                Some(cache) => cache.get(body, style, false, cap)?,
                None => Arc::new(restyle(body, style, cap)?),
            };
            let mut file = if crlf {
                lf_to_crlf(&pretty)
            } else {
                pretty.to_vec()
            };
            if eol {
                file.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
            }
            // What curl sends from that file: every CR and LF dropped.
            let sent = file.iter().filter(|b| !matches!(b, b'\r' | b'\n'));
            if !sent.eq(body.iter()) {
                return Err(NotBuilt::NotApplicable);
            }
            file
        }
        After::Reserialised => return Err(NotBuilt::NotApplicable),
    };
    if out.len() > cap {
        return Err(NotBuilt::TooLarge);
    }
    if out.as_slice() == body {
        return Err(NotBuilt::NotApplicable);
    }
    Ok(out)
}

fn crlf_to_lf(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\r' && b.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// Each LF not already after a CR as CRLF.
fn lf_to_crlf(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len() + b.len() / 16);
    for (i, &c) in b.iter().enumerate() {
        if c == b'\n' && (i == 0 || b[i - 1] != b'\r') {
            out.push(b'\r');
        }
        out.push(c);
    }
    out
}

/// A writer that refuses to grow past `cap` bytes.
struct Capped<'v> {
    out: &'v mut Vec<u8>,
    cap: usize,
}

impl Write for Capped<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.out.len() + buf.len() > self.cap {
            return Err(std::io::Error::other("variant too large"));
        }
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Python's `json.dumps` default: `", "` and `": "` separators, everything on one line.
struct Spaced;

impl serde_json::ser::Formatter for Spaced {
    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        w.write_all(if first { b"" } else { b", " })
    }
    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.begin_array_value(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
}

/// Write what `de` reads in `style` to `w`; false when that failed (the cap was reached, or
/// `de` is not JSON).
fn write_styled<'de>(de: impl serde::Deserializer<'de>, style: Style, w: Capped<'_>) -> bool {
    use serde_json::{ser::PrettyFormatter, Serializer};
    let indent: &[u8] = if style == Style::Pretty2 {
        b"  "
    } else {
        b"    "
    };
    match style {
        Style::Compact => serde_transcode::transcode(de, &mut Serializer::new(w)).is_ok(),
        Style::Python => {
            serde_transcode::transcode(de, &mut Serializer::with_formatter(w, Spaced)).is_ok()
        }
        Style::Pretty2 | Style::Pretty4 => {
            let pretty = PrettyFormatter::with_indent(indent);
            serde_transcode::transcode(de, &mut Serializer::with_formatter(w, pretty)).is_ok()
        }
    }
}

fn restyle(body: &[u8], style: Style, cap: usize) -> Result<Vec<u8>, NotBuilt> {
    let mut out = Vec::with_capacity(body.len().min(cap));
    let w = Capped { out: &mut out, cap };
    let mut de = serde_json::Deserializer::from_slice(body);
    if !write_styled(&mut de, style, w) {
        return Err(if out.len() >= cap {
            NotBuilt::TooLarge
        } else {
            NotBuilt::NotApplicable
        });
    }
    de.end().map_err(|_| NotBuilt::NotApplicable)?;
    Ok(out)
}

fn sorted(body: &[u8], style: Style, cap: usize) -> Result<Vec<u8>, NotBuilt> {
    let mut value: serde_json::Value =
        serde_json::from_slice(body).map_err(|_| NotBuilt::NotApplicable)?;
    // Object keys sorted recursively by their UTF-8 bytes, as Python and PHP's ksort do.
    value.sort_all_objects();
    let mut out = Vec::with_capacity(body.len().min(cap));
    let w = Capped { out: &mut out, cap };
    if write_styled(&value, style, w) {
        Ok(out)
    } else {
        Err(NotBuilt::TooLarge)
    }
}

/// Non-ASCII characters written as `\uXXXX` escapes (lower-case hex, surrogate pairs past
/// U+FFFF, as PHP's `json_encode` and Python's `json.dumps` write them) when the bytes hold any;
/// otherwise such escapes turned back into UTF-8. `None` when there is neither.
pub fn toggle_unicode(b: &[u8]) -> Option<Vec<u8>> {
    if !b.is_ascii() {
        let text = std::str::from_utf8(b).ok()?;
        let mut out = Vec::with_capacity(b.len() + b.len() / 4);
        for c in text.chars() {
            if c.is_ascii() {
                out.push(c as u8);
            } else {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    write!(out, "\\u{u:04x}").expect("writing to memory");
                }
            }
        }
        return Some(out);
    }
    // Unescape \uXXXX escapes of non-ASCII characters (an escaped backslash is skipped).
    let mut out = Vec::with_capacity(b.len());
    let mut changed = false;
    let mut i = 0;
    let hex4 = |s: &[u8]| -> Option<u16> {
        let t = std::str::from_utf8(s.get(..4)?).ok()?;
        u16::from_str_radix(t, 16).ok()
    };
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            if b[i + 1] == b'u' {
                if let Some(u) = hex4(&b[i + 2..]) {
                    let (c, used) = if (0xD800..0xDC00).contains(&u) {
                        let low = (b.get(i + 6..i + 8) == Some(b"\\u"))
                            .then(|| hex4(&b[i + 8..]))
                            .flatten()
                            .filter(|l| (0xDC00..0xE000).contains(l));
                        match low {
                            Some(l) => (char::decode_utf16([u, l]).next().and_then(|r| r.ok()), 12),
                            None => (None, 6),
                        }
                    } else {
                        (char::from_u32(u32::from(u)), 6)
                    };
                    if let Some(c) = c.filter(|c| !c.is_ascii()) {
                        let mut buf = [0u8; 4];
                        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        changed = true;
                        i += used;
                        continue;
                    }
                }
            }
            out.extend_from_slice(&b[i..i + 2]);
            i += 2;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    changed.then_some(out)
}

/// `\/` turned into `/` when the bytes hold any; otherwise `/` written as `\/`. `None` when
/// there is no slash at all. An escaped backslash (`\\`) is kept as it is.
pub fn toggle_slashes(b: &[u8]) -> Option<Vec<u8>> {
    let escaped = has_escaped_slash(b);
    if !escaped && !b.contains(&b'/') {
        return None;
    }
    let mut out = Vec::with_capacity(b.len() + 16);
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if i + 1 < b.len() => {
                if escaped && b[i + 1] == b'/' {
                    out.push(b'/');
                } else {
                    out.extend_from_slice(&b[i..i + 2]);
                }
                i += 2;
            }
            b'/' if !escaped => {
                out.extend_from_slice(b"\\/");
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Some(out)
}

fn has_escaped_slash(b: &[u8]) -> bool {
    let mut i = 0;
    while i + 1 < b.len() {
        if b[i] == b'\\' {
            if b[i + 1] == b'/' {
                return true;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    false
}
