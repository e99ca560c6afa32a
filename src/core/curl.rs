//! curl command lines: parse one as people paste it (from docs, browsers' "Copy as cURL",
//! scripts), and print one that sends a signed request with its exact body.
//!
//! The parser understands shell quoting (`'...'`, `"..."`, `$'...'`, backslashes), line
//! continuations (`\` at the end of a line), `-X/--request`, `-H/--header`,
//! `-d/--data/--data-raw/--data-binary/--data-ascii/--json`, `--url`, `-G/--get`, `-I/--head`,
//! `-T/--upload-file`, and skips other common options. It is pure: a body given as `@file` is
//! not read but reported in [`CurlCommand::body_file`].

use super::http_text::{split_target, trim_ows};
use super::received::ReceivedRequest;
use super::visible::{escape_visible, is_hidden};

/// Why a curl command could not be read. One sentence each.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("the command is empty; paste a command that starts with `curl`")]
    Empty,
    #[error("the command must start with `curl`, got \"{0}\"")]
    NotCurl(String),
    #[error("a quote opened at character {0} is never closed")]
    UnclosedQuote(usize),
    #[error("the option {0} needs a value after it")]
    MissingValue(String),
    #[error("the command has no URL")]
    NoUrl,
    #[error("the URL \"{0}\" must start with http:// or https://")]
    BadUrl(String),
    #[error("the option {0} is not supported here (it changes the body in ways signscope cannot reproduce)")]
    Unsupported(String),
    #[error("the body is read from the file \"{0}\"; load that file as the body instead")]
    BodyFromFile(String),
}

/// A parsed curl command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CurlCommand {
    /// The request curl would send (method, path, query, the explicit headers plus the
    /// Content-Type curl adds for `-d`, and the inline body).
    pub request: ReceivedRequest,
    /// The URL as given.
    pub url: String,
    /// When the body comes from a file (`-d @file`, `--data-binary @file`, `-T file`), its path;
    /// `-` means stdin. The body in `request` is then empty.
    pub body_file: Option<String>,
    /// How curl reads that file into the body (see [`BodyFileRead`]).
    pub body_file_read: BodyFileRead,
    /// Remarks, e.g. the Content-Type curl adds on its own.
    pub notes: Vec<String>,
}

/// How curl turns a body file into the body it sends (`docs/verification.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BodyFileRead {
    /// `--data-binary @FILE`, `--json @FILE`, `-T FILE`: the file byte for byte.
    #[default]
    Binary,
    /// `-d @FILE`, `--data @FILE`, `--data-ascii @FILE`: every CR and LF of the file is dropped
    /// (curl sends a multi-line file as one line).
    StripNewlines,
}

impl BodyFileRead {
    /// The body curl sends for a file holding `bytes`.
    pub fn apply(self, mut bytes: Vec<u8>) -> Vec<u8> {
        if self == BodyFileRead::StripNewlines {
            bytes.retain(|&b| b != b'\r' && b != b'\n');
        }
        bytes
    }

    /// The option that reads it, as a user would write it.
    pub fn describe(self) -> &'static str {
        match self {
            BodyFileRead::Binary => "byte for byte (--data-binary)",
            BodyFileRead::StripNewlines => "without its CR and LF characters (-d / --data)",
        }
    }
}

/// Split a command line into words the way a POSIX shell would (no expansion of variables).
pub fn shell_words(cmd: &str) -> Result<Vec<Vec<u8>>, ParseError> {
    let b = cmd.as_bytes();
    let mut words = Vec::new();
    let mut cur: Vec<u8> = Vec::new();
    let mut in_word = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
                i += 1;
            }
            b'\\' => {
                // Line continuation (also with CRLF), or an escaped character.
                if b[i + 1..].starts_with(b"\r\n") {
                    i += 3;
                } else if i + 1 < b.len() {
                    if b[i + 1] != b'\n' {
                        cur.push(b[i + 1]);
                        in_word = true;
                    }
                    i += 2;
                } else {
                    i += 1;
                }
            }
            b'\'' => {
                let start = i;
                let end = b[i + 1..]
                    .iter()
                    .position(|&x| x == b'\'')
                    .ok_or(ParseError::UnclosedQuote(start + 1))?;
                cur.extend_from_slice(&b[i + 1..i + 1 + end]);
                in_word = true;
                i += end + 2;
            }
            b'"' => {
                let start = i;
                i += 1;
                loop {
                    match b.get(i) {
                        None => return Err(ParseError::UnclosedQuote(start + 1)),
                        Some(b'"') => {
                            i += 1;
                            break;
                        }
                        Some(b'\\') if matches!(b.get(i + 1), Some(b'$' | b'`' | b'"' | b'\\')) => {
                            cur.push(b[i + 1]);
                            i += 2;
                        }
                        Some(b'\\') if b.get(i + 1) == Some(&b'\n') => i += 2,
                        Some(&x) => {
                            cur.push(x);
                            i += 1;
                        }
                    }
                }
                in_word = true;
            }
            b'$' if b.get(i + 1) == Some(&b'\'') => {
                let start = i;
                i += 2;
                loop {
                    match b.get(i) {
                        None => return Err(ParseError::UnclosedQuote(start + 1)),
                        Some(b'\'') => {
                            i += 1;
                            break;
                        }
                        Some(b'\\') => {
                            let (bytes, used) = ansi_c_escape(&b[i + 1..]);
                            cur.extend_from_slice(&bytes);
                            i += 1 + used;
                        }
                        Some(&x) => {
                            cur.push(x);
                            i += 1;
                        }
                    }
                }
                in_word = true;
            }
            _ => {
                cur.push(c);
                in_word = true;
                i += 1;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// One escape inside `$'...'` (after the backslash): the bytes it stands for and how many
/// input bytes it used.
fn ansi_c_escape(s: &[u8]) -> (Vec<u8>, usize) {
    let Some(&c) = s.first() else {
        return (b"\\".to_vec(), 0);
    };
    let simple = match c {
        b'n' => Some(b'\n'),
        b't' => Some(b'\t'),
        b'r' => Some(b'\r'),
        b'a' => Some(7),
        b'b' => Some(8),
        b'e' | b'E' => Some(27),
        b'f' => Some(12),
        b'v' => Some(11),
        b'\\' => Some(b'\\'),
        b'\'' => Some(b'\''),
        b'"' => Some(b'"'),
        b'?' => Some(b'?'),
        _ => None,
    };
    if let Some(x) = simple {
        return (vec![x], 1);
    }
    let hex_run = |max: usize| {
        s[1..]
            .iter()
            .take(max)
            .take_while(|b| b.is_ascii_hexdigit())
            .count()
    };
    match c {
        b'x' => {
            let n = hex_run(2);
            if n == 0 {
                return (b"\\x".to_vec(), 1);
            }
            // At most two hex digits: the value fits a byte.
            (vec![digits_value(&s[1..1 + n], 16) as u8], 1 + n)
        }
        b'u' | b'U' => {
            let n = hex_run(if c == b'u' { 4 } else { 8 });
            let ch = (n > 0)
                .then(|| digits_value(&s[1..1 + n], 16))
                .and_then(char::from_u32);
            match ch {
                Some(ch) => (ch.to_string().into_bytes(), 1 + n),
                None => (vec![b'\\', c], 1),
            }
        }
        b'0'..=b'7' => {
            let n = s
                .iter()
                .take(3)
                .take_while(|b| (b'0'..=b'7').contains(b))
                .count();
            (vec![(digits_value(&s[..n], 8) & 0xff) as u8], n)
        }
        other => (vec![b'\\', other], 1),
    }
}

/// The value of ASCII digits already checked to be digits of `radix` (at most 8 of them, so
/// the value fits a u32).
fn digits_value(digits: &[u8], radix: u32) -> u32 {
    digits.iter().fold(0u32, |acc, &b| {
        acc.wrapping_mul(radix)
            .wrapping_add(char::from(b).to_digit(radix).unwrap_or(0))
    })
}

/// Options that take a value and that signscope ignores.
const SKIP_WITH_VALUE: &[&str] = &[
    "-o",
    "--output",
    "-u",
    "--user",
    "-A",
    "--user-agent",
    "-e",
    "--referer",
    "-b",
    "--cookie",
    "-c",
    "--cookie-jar",
    "-m",
    "--max-time",
    "--connect-timeout",
    "--retry",
    "-x",
    "--proxy",
    "--cacert",
    "--cert",
    "-E",
    "--key",
    "-w",
    "--write-out",
    "--resolve",
    "--limit-rate",
    "-r",
    "--range",
    "-U",
    "--proxy-user",
    "--max-redirs",
    "-y",
    "--speed-time",
    "-Y",
    "--speed-limit",
    "-z",
    "--time-cond",
    "--interface",
    "--connect-to",
    "--retry-delay",
    "--retry-max-time",
    "--oauth2-bearer",
    "--cert-type",
    "--key-type",
    "--proto",
    "--proto-redir",
    "--dns-servers",
    "--trace",
    "--trace-ascii",
    "--stderr",
    "--unix-socket",
    "--noproxy",
    "-D",
    "--dump-header",
];

/// Short options that take a value (the rest of a cluster, or the next word).
const SHORT_WITH_VALUE: &[u8] = b"XHdouAebcmxwFTrEKUyYzD";

fn text(w: &[u8]) -> String {
    String::from_utf8_lossy(w).into_owned()
}

#[derive(Default)]
struct State {
    method: Option<String>,
    url: Option<String>,
    headers: Vec<(String, Vec<u8>)>,
    data: Vec<Vec<u8>>,
    has_data: bool,
    body_file: Option<String>,
    body_file_read: BodyFileRead,
    get: bool,
    head: bool,
    upload: bool,
    json: bool,
}

impl State {
    fn data(&mut self, opt: &str, value: Vec<u8>) {
        self.has_data = true;
        // curl reads `@FILE` for every data option but --data-raw; --data-binary and --json
        // send the file as it is, -d / --data / --data-ascii drop its CR and LF.
        let raw = opt == "--data-raw";
        if !raw && value.first() == Some(&b'@') {
            self.body_file = Some(text(&value[1..]));
            self.body_file_read = if opt == "--data-binary" || opt == "--json" {
                BodyFileRead::Binary
            } else {
                BodyFileRead::StripNewlines
            };
        } else {
            self.data.push(value);
        }
        if opt == "--json" {
            self.json = true;
        }
    }

    fn header(&mut self, value: &[u8]) {
        let (name, val) = match value.iter().position(|&b| b == b':') {
            Some(i) => (&value[..i], &value[i + 1..]),
            None => match value.strip_suffix(b";") {
                // `-H "Name;"` sends an empty header.
                Some(n) => (n, &b""[..]),
                None => (value, &b""[..]),
            },
        };
        let name = text(name).trim().to_string();
        let v = trim_ows(val);
        if v.is_empty() && !value.ends_with(b";") {
            // `-H "Name:"` removes a header curl would add.
            self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(&name));
            return;
        }
        self.headers.push((name, v.to_vec()));
    }

    fn apply(&mut self, opt: &str, value: Vec<u8>) -> Result<(), ParseError> {
        match opt {
            "-X" | "--request" => self.method = Some(text(&value)),
            "-H" | "--header" => self.header(&value),
            "-d" | "--data" | "--data-raw" | "--data-binary" | "--data-ascii" | "--json" => {
                self.data(opt, value)
            }
            "-T" | "--upload-file" => {
                self.upload = true;
                self.has_data = true;
                self.body_file = Some(text(&value));
                self.body_file_read = BodyFileRead::Binary;
            }
            "--url" => self.url = Some(text(&value)),
            "-F" | "--form" | "--data-urlencode" | "-K" | "--config" => {
                return Err(ParseError::Unsupported(opt.to_string()))
            }
            _ => {}
        }
        Ok(())
    }
}

fn takes_value(opt: &str) -> bool {
    matches!(
        opt,
        "-X" | "--request"
            | "-H"
            | "--header"
            | "-d"
            | "--data"
            | "--data-raw"
            | "--data-binary"
            | "--data-ascii"
            | "--json"
            | "-T"
            | "--upload-file"
            | "--url"
            | "-F"
            | "--form"
            | "--data-urlencode"
            | "-K"
            | "--config"
    ) || SKIP_WITH_VALUE.contains(&opt)
}

/// Parse a curl command, reporting a body file instead of reading it.
pub fn parse_curl_command(cmd: &str) -> Result<CurlCommand, ParseError> {
    let words = shell_words(cmd)?;
    let mut it = words.into_iter().peekable();
    let first = it.next().ok_or(ParseError::Empty)?;
    let program = text(&first);
    if program.rsplit('/').next() != Some("curl") && program != "curl.exe" {
        return Err(ParseError::NotCurl(escape_visible(&first)));
    }
    let mut st = read_options(it)?;
    let url = st.url.clone().ok_or(ParseError::NoUrl)?;
    let (path, mut query) = url_target(&url)?;

    let mut body: Vec<u8> = st.data.join(&b'&');
    if st.get && st.has_data {
        let q = String::from_utf8_lossy(&body).into_owned();
        query = if query.is_empty() {
            q
        } else {
            format!("{query}&{q}")
        };
        body.clear();
        st.has_data = false;
    }
    let method = match st.method.clone() {
        Some(m) => m,
        None if st.head => "HEAD".to_string(),
        None if st.upload => "PUT".to_string(),
        None if st.has_data => "POST".to_string(),
        None => "GET".to_string(),
    };
    let mut notes = implied_headers(&mut st);
    if let Some(f) = &st.body_file {
        notes.push(format!("the body is read from the file \"{f}\""));
    }

    Ok(CurlCommand {
        request: ReceivedRequest {
            method,
            path,
            query,
            headers: st.headers,
            body: bytes::Bytes::from(body),
        },
        url,
        body_file: st.body_file,
        body_file_read: st.body_file_read,
        notes,
    })
}

/// The options after the program's name: the first word that is no option is the URL, `--`
/// ends the options, long options and clusters of short ones are applied to the state.
fn read_options(
    mut it: std::iter::Peekable<std::vec::IntoIter<Vec<u8>>>,
) -> Result<State, ParseError> {
    let mut st = State::default();
    let mut only_args = false;
    while let Some(w) = it.next() {
        let word = text(&w);
        if only_args || !word.starts_with('-') || word == "-" {
            if st.url.is_none() {
                st.url = Some(word);
            }
            continue;
        }
        if word == "--" {
            only_args = true;
            continue;
        }
        if word.starts_with("--") {
            match word.as_str() {
                "--get" => st.get = true,
                "--head" => st.head = true,
                opt if takes_value(opt) => {
                    let v = it
                        .next()
                        .ok_or_else(|| ParseError::MissingValue(opt.to_string()))?;
                    st.apply(opt, v)?;
                }
                _ => {} // a flag without a value (--compressed, --silent, --location, ...)
            }
            continue;
        }
        read_short_cluster(&w[1..], &mut it, &mut st)?;
    }
    Ok(st)
}

/// A cluster of short options such as -sSL or -XPUT or -H'A: b': flags until the first option
/// that takes a value, whose value is the rest of the cluster or else the next word.
fn read_short_cluster(
    bytes: &[u8],
    it: &mut std::iter::Peekable<std::vec::IntoIter<Vec<u8>>>,
    st: &mut State,
) -> Result<(), ParseError> {
    for (j, &c) in bytes.iter().enumerate() {
        if SHORT_WITH_VALUE.contains(&c) {
            let opt = format!("-{}", c as char);
            let rest = bytes[j + 1..].to_vec();
            let v = if rest.is_empty() {
                it.next()
                    .ok_or_else(|| ParseError::MissingValue(opt.clone()))?
            } else {
                rest
            };
            return st.apply(&opt, v);
        }
        match c {
            b'G' => st.get = true,
            b'I' => st.head = true,
            _ => {}
        }
    }
    Ok(())
}

/// The path and query of the URL curl would request (http:// assumed for a bare host, the
/// fragment dropped); another scheme is refused.
fn url_target(url: &str) -> Result<(String, String), ParseError> {
    let lower = url.to_ascii_lowercase();
    let (mut path, mut query) = if lower.starts_with("http://") || lower.starts_with("https://") {
        split_target(url)
    } else if url.contains("://") {
        return Err(ParseError::BadUrl(url.to_string()));
    } else {
        // curl assumes http:// for a bare host.
        split_target(&format!("http://{url}"))
    };
    if let Some(i) = path.find('#') {
        path.truncate(i);
    }
    if let Some(i) = query.find('#') {
        query.truncate(i);
    }
    Ok((path, query))
}

/// The headers curl adds itself (`--json`'s two, a form Content-Type for `-d`), added to the
/// state's; the notes that say so.
fn implied_headers(st: &mut State) -> Vec<String> {
    let mut notes = Vec::new();
    let has = |n: &str, h: &[(String, Vec<u8>)]| h.iter().any(|(x, _)| x.eq_ignore_ascii_case(n));
    if st.json {
        for name in ["Content-Type", "Accept"] {
            if !has(name, &st.headers) {
                st.headers.push((name.into(), b"application/json".to_vec()));
            }
        }
    } else if st.has_data && !st.upload && !has("Content-Type", &st.headers) {
        st.headers.push((
            "Content-Type".into(),
            b"application/x-www-form-urlencoded".to_vec(),
        ));
        notes.push(
            "curl adds `Content-Type: application/x-www-form-urlencoded` to -d bodies; add -H 'Content-Type: application/json'"
                .to_string(),
        );
    }
    notes
}

/// Quote a word for a POSIX shell: as it is when it is made only of safe characters, otherwise
/// with [`shell_single_quoted`].
pub fn shell_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_@%+=:,./-".contains(&b));
    if safe {
        s.to_string()
    } else {
        shell_single_quoted(s)
    }
}

/// Whether a character cannot be written as it is into a shell word someone will read: one
/// that hides what it is (`core::visible::is_hidden`) or a control character other than LF
/// and tab.
fn hides(c: char) -> bool {
    is_hidden(c) || (c.is_control() && c != '\n' && c != '\t')
}

/// A POSIX shell single-quoted word (a `'` inside becomes `'\''`; nothing else is special).
/// A character that hides what it is (a bidi override, a C1 control: "Trojan Source") or a
/// control character other than LF and tab is not written as it is: each becomes
/// `"$(printf '\ooo...')"`, the octal escapes of its bytes, joined to the quoted runs around it
/// into one word (POSIX sh has no `$'...'`; none of these is a newline, which `$(...)` would
/// drop). Used by printed curl commands and generated shell programs alike.
pub fn shell_single_quoted(value: &str) -> String {
    let flush = |out: &mut String, run: &mut String| {
        if !run.is_empty() {
            out.push_str(&format!("'{}'", run.replace('\'', r"'\''")));
            run.clear();
        }
    };
    let mut out = String::with_capacity(value.len() + 2);
    let mut run = String::new();
    for c in value.chars() {
        if hides(c) {
            flush(&mut out, &mut run);
            let mut buf = [0u8; 4];
            let octal: String = c
                .encode_utf8(&mut buf)
                .bytes()
                .map(|b| format!("\\{b:03o}"))
                .collect();
            out.push_str(&format!("\"$(printf '{octal}')\""));
        } else {
            run.push(c);
        }
    }
    flush(&mut out, &mut run);
    if out.is_empty() {
        out.push_str("''");
    }
    out
}

/// Where the printed command takes the body from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CurlBody<'a> {
    /// `--data-binary @FILE`: curl sends the file's bytes exactly.
    File(&'a str),
    /// The bytes themselves, embedded so that the shell passes them unchanged.
    Inline(&'a [u8]),
}

/// Whether bytes can sit inside single quotes and still be read by a person: UTF-8 text with no
/// control characters other than LF and tab, and nothing that hides what it is.
fn quotable(body: &[u8]) -> bool {
    match std::str::from_utf8(body) {
        Ok(s) => !s.chars().any(hides),
        Err(_) => false,
    }
}

/// A `printf` format string (in single quotes) whose output is exactly `body`: every byte that
/// is not printable ASCII or LF becomes a `\NNN` octal escape, `\` and `%` are doubled, `'`
/// becomes `\047`.
pub fn printf_format(body: &[u8]) -> String {
    let mut s = String::with_capacity(body.len() + 2);
    s.push('\'');
    for &b in body {
        match b {
            b'\\' => s.push_str("\\\\"),
            b'%' => s.push_str("%%"),
            b'\n' => s.push('\n'),
            0x20..=0x7e if b != b'\'' => s.push(b as char),
            other => s.push_str(&format!("\\{other:03o}")),
        }
    }
    s.push('\'');
    s
}

/// Print a curl command that sends `method url` with `headers` and the exact body.
///
/// A file body is sent with `--data-binary @FILE`. An inline body that is readable text is
/// single-quoted after `--data-raw` (so a leading `@` is not read as a file name); any other body (binary, NUL bytes, control characters) is produced by `printf`
/// with octal escapes and piped in with `--data-binary @-`, so every byte arrives unchanged.
pub fn to_curl(
    method: &str,
    url: &str,
    headers: &[(String, String)],
    body: CurlBody<'_>,
) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut prefix = String::new();
    lines.push(format!(
        "curl -X {} {}",
        shell_quote(&method.to_ascii_uppercase()),
        shell_quote(url)
    ));
    for (n, v) in headers {
        lines.push(format!("-H {}", shell_quote(&format!("{n}: {v}"))));
    }
    match body {
        CurlBody::File(path) => lines.push(format!("--data-binary @{}", shell_quote(path))),
        CurlBody::Inline([]) => lines.push("--data-raw ''".to_string()),
        CurlBody::Inline(b) if quotable(b) => {
            let s = std::str::from_utf8(b).expect("checked by quotable");
            // --data-raw, not --data-binary: a body starting with '@' must not name a file.
            lines.push(format!("--data-raw {}", shell_quote(s)));
        }
        CurlBody::Inline(b) => {
            prefix = format!("printf {} | ", printf_format(b));
            lines.push("--data-binary @-".to_string());
        }
    }
    format!("{prefix}{}", lines.join(" \\\n  "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parse a curl command into the request it sends. A body read from a file is an error here
    /// ([`ParseError::BodyFromFile`]); use [`parse_curl_command`] to get the file name instead.
    fn parse_curl(cmd: &str) -> Result<ReceivedRequest, ParseError> {
        let c = parse_curl_command(cmd)?;
        if let Some(f) = c.body_file {
            return Err(ParseError::BodyFromFile(f));
        }
        Ok(c.request)
    }

    fn words(s: &str) -> Vec<String> {
        shell_words(s).unwrap().iter().map(|w| text(w)).collect()
    }

    #[test]
    fn shell_quoting_and_continuations() {
        assert_eq!(
            words("a 'b c' \"d \\\"e\\\" $x\" f\\ g"),
            ["a", "b c", "d \"e\" $x", "f g"]
        );
        assert_eq!(
            words("curl \\\n  -X PUT \\\r\n  x"),
            ["curl", "-X", "PUT", "x"]
        );
        assert_eq!(words("$'a\\nb\\x41\\u00e9\\047'"), ["a\nbA\u{e9}'"]);
        assert_eq!(words("'it'\\''s'"), ["it's"]);
        assert_eq!(
            shell_words("curl 'abc").unwrap_err(),
            ParseError::UnclosedQuote(6)
        );
        assert_eq!(
            shell_words("x \"abc").unwrap_err(),
            ParseError::UnclosedQuote(3)
        );
    }

    #[test]
    fn parses_a_typical_pasted_command() {
        let cmd = r#"curl -X PUT 'https://indexing.example.com/v2/batch?test=1' \
  -H 'X-SVC-TIMESTAMP: 2026-11-22T10:00:00.000Z' \
  -H "X-SVC-APIKEY: pub" \
  -H 'Content-Type: application/json' \
  -H 'Authorization: Bearer abc=' \
  --data-raw '[{"id": "1"}]'"#;
        let c = parse_curl_command(cmd).unwrap();
        let r = &c.request;
        assert_eq!(r.method, "PUT");
        assert_eq!(r.path, "/v2/batch");
        assert_eq!(r.query, "test=1");
        assert_eq!(r.header_text("x-svc-apikey"), "pub");
        assert_eq!(r.header_text("authorization"), "Bearer abc=");
        assert_eq!(&r.body[..], br#"[{"id": "1"}]"#);
        assert_eq!(r.headers.len(), 4);
        assert!(c.notes.is_empty());
        assert_eq!(c.body_file, None);
    }

    #[test]
    fn data_defaults_method_and_content_type_and_joins_with_ampersand() {
        let c = parse_curl_command("curl -sS http://h/p -d a=1 --data b=2").unwrap();
        assert_eq!(c.request.method, "POST");
        assert_eq!(&c.request.body[..], b"a=1&b=2");
        assert_eq!(
            c.request.header_text("content-type"),
            "application/x-www-form-urlencoded"
        );
        assert_eq!(c.notes.len(), 1);
        let c = parse_curl_command("curl http://h/p --json '{}'").unwrap();
        assert_eq!(c.request.header_text("content-type"), "application/json");
    }

    #[test]
    fn clustered_and_attached_short_options() {
        let c =
            parse_curl_command("curl -sSL -XPUT -H'A: 1' -d@body.json h.example/v2/batch").unwrap();
        assert_eq!(c.request.method, "PUT");
        assert_eq!(c.request.header_text("a"), "1");
        assert_eq!(c.body_file.as_deref(), Some("body.json"));
        assert_eq!(c.request.path, "/v2/batch");
        assert!(c.request.body.is_empty());
        assert_eq!(
            parse_curl("curl -d @x http://h/").unwrap_err(),
            ParseError::BodyFromFile("x".into())
        );
        // --data-raw does not treat @ specially.
        let r = parse_curl("curl --data-raw @x http://h/").unwrap();
        assert_eq!(&r.body[..], b"@x");
    }

    #[test]
    fn a_body_file_is_read_as_curl_reads_it_binary_or_without_line_ends() {
        let file = b"[\r\n  {\"a\": 1}\n]\n".to_vec();
        for (cmd, read) in [
            ("curl --data-binary @b.json http://h/", BodyFileRead::Binary),
            ("curl --json @b.json http://h/", BodyFileRead::Binary),
            ("curl -T b.json http://h/", BodyFileRead::Binary),
            ("curl -d @b.json http://h/", BodyFileRead::StripNewlines),
            ("curl -d@b.json http://h/", BodyFileRead::StripNewlines),
            ("curl --data @b.json http://h/", BodyFileRead::StripNewlines),
            (
                "curl --data-ascii @b.json http://h/",
                BodyFileRead::StripNewlines,
            ),
        ] {
            let c = parse_curl_command(cmd).unwrap();
            assert_eq!(c.body_file.as_deref(), Some("b.json"), "{cmd}");
            assert_eq!(c.body_file_read, read, "{cmd}");
        }
        assert_eq!(BodyFileRead::Binary.apply(file.clone()), file);
        assert_eq!(
            BodyFileRead::StripNewlines.apply(file),
            b"[  {\"a\": 1}]".to_vec()
        );
    }

    #[test]
    fn get_moves_data_to_the_query_and_skipped_options_keep_their_values() {
        let c = parse_curl_command("curl -G -d q=1 -o out.txt --max-time 5 'http://h/s?a=b#frag'")
            .unwrap();
        assert_eq!(c.request.method, "GET");
        assert_eq!(c.request.query, "a=b&q=1");
        assert!(c.request.body.is_empty());
        assert_eq!(c.url, "http://h/s?a=b#frag");
    }

    #[test]
    fn fuzz_regression_get_data_starting_with_hash_is_not_a_file() {
        // Found by the curl fuzz target: -d#@file.json is inline data, moved to the query by -G.
        let c = parse_curl_command("curl -sSL $'http://h/p' -d#@file.json -G --url x").unwrap();
        assert_eq!(c.request.query, "#@file.json");
        assert_eq!(c.body_file, None);
        assert!(c.request.body.is_empty());
        // --url replaces the earlier positional URL.
        assert_eq!(c.url, "x");
        assert_eq!(c.request.path, "/");
    }

    #[test]
    fn fuzz_regression_inline_body_starting_with_at_is_not_a_file() {
        // Found by the curl fuzz target: printed with --data-binary, curl would read file "K{...".
        let body = br#"@K{"a":$1}]"#;
        let cmd = to_curl("PUT", "http://h/", &[], CurlBody::Inline(body));
        let c = parse_curl_command(&cmd).unwrap();
        assert_eq!(c.body_file, None, "{cmd}");
        assert_eq!(&c.request.body[..], body);
    }

    #[test]
    fn errors_are_sentences() {
        assert_eq!(parse_curl("").unwrap_err(), ParseError::Empty);
        assert!(matches!(
            parse_curl("wget http://x").unwrap_err(),
            ParseError::NotCurl(_)
        ));
        assert_eq!(
            parse_curl("curl -X").unwrap_err(),
            ParseError::MissingValue("-X".into())
        );
        assert_eq!(parse_curl("curl -X PUT").unwrap_err(), ParseError::NoUrl);
        assert!(matches!(
            parse_curl("curl ftp://x/").unwrap_err(),
            ParseError::BadUrl(_)
        ));
        assert_eq!(
            parse_curl("curl -F a=b http://x/").unwrap_err().to_string(),
            "the option -F is not supported here (it changes the body in ways signscope cannot reproduce)"
        );
    }

    #[test]
    fn printed_command_parses_back_to_the_same_request() {
        let headers = vec![
            ("X-SVC-APIKEY".to_string(), "pub".to_string()),
            ("Content-Type".to_string(), "application/json".to_string()),
        ];
        let body = b"[{\"name\": \"it's 100% \\\"ok\\\"\"}]\n";
        let cmd = to_curl(
            "put",
            "http://127.0.0.1:8080/v2/batch?x=1",
            &headers,
            CurlBody::Inline(body),
        );
        let r = parse_curl(&cmd).unwrap();
        assert_eq!(r.method, "PUT");
        assert_eq!(r.query, "x=1");
        assert_eq!(&r.body[..], body);
        assert_eq!(r.headers.len(), 2);

        let cmd = to_curl(
            "PUT",
            "http://h/v2/batch",
            &headers,
            CurlBody::File("my body.json"),
        );
        assert!(cmd.ends_with("--data-binary @'my body.json'"), "{cmd}");
        let c = parse_curl_command(&cmd).unwrap();
        assert_eq!(c.body_file.as_deref(), Some("my body.json"));
    }

    #[test]
    fn binary_body_goes_through_printf() {
        let body = b"a\0b\xff'%\\\r\n";
        let cmd = to_curl("PUT", "http://h/", &[], CurlBody::Inline(body));
        assert!(
            cmd.starts_with("printf 'a\\000b\\377\\047%%\\\\\\015\n' | curl"),
            "{cmd}"
        );
        assert!(cmd.ends_with("--data-binary @-"));
    }

    #[test]
    fn shell_quote_is_minimal_and_safe() {
        assert_eq!(shell_quote("abc/d.json"), "abc/d.json");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("$HOME"), "'$HOME'");
    }
}
