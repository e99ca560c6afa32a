//! A text file of captured requests, one per block: raw HTTP/1.1 requests or curl commands, as
//! users keep them beside a HAR (`docs/har.md`, "Request files").
//!
//! Blocks are separated by a line that starts with `###` (the `.http` file convention of the
//! editors' REST clients); the line break before that line ends the block, it is not part of a
//! body. Curl commands may also simply follow one another: a line starting with `curl ` after a
//! line that does not continue with `\` starts a new one. Leading blank lines and comment lines
//! (`#`, `//`) of a block are skipped.

/// One block: where it starts and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block<'a> {
    /// The line of the file the request starts on, from 1.
    pub line: usize,
    pub text: &'a [u8],
    /// Whether it is a curl command (else raw HTTP).
    pub curl: bool,
}

/// The lines of `bytes` with their starting offsets (each line keeps its LF).
fn lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut pos = 0;
    std::iter::from_fn(move || {
        if pos >= bytes.len() {
            return None;
        }
        let start = pos;
        let end = memchr::memchr(b'\n', &bytes[pos..]).map_or(bytes.len(), |i| pos + i + 1);
        pos = end;
        Some((start, &bytes[start..end]))
    })
}

fn is_curl_start(line: &[u8]) -> bool {
    line.starts_with(b"curl ") || line.starts_with(b"curl\t")
}

fn is_skippable(line: &[u8]) -> bool {
    let t = line.trim_ascii();
    t.is_empty() || t.starts_with(b"#") || t.starts_with(b"//")
}

/// Split a request file into its blocks (see the module documentation).
pub fn split_blocks(bytes: &[u8]) -> Vec<Block<'_>> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    // First the `###` sections: (first line number, start, end).
    let mut sections: Vec<(usize, usize, usize)> = Vec::new();
    let mut start = 0;
    let mut first_line = 1;
    for (n, (off, line)) in lines(bytes).enumerate() {
        if line.starts_with(b"###") {
            // The LF (or CRLF) before the separator belongs to it.
            let mut end = off;
            if end > start && bytes[end - 1] == b'\n' {
                end -= 1;
                if end > start && bytes[end - 1] == b'\r' {
                    end -= 1;
                }
            }
            sections.push((first_line, start, end));
            start = off + line.len();
            first_line = n + 2;
        }
    }
    sections.push((first_line, start, bytes.len()));

    let mut out = Vec::new();
    for (first, s, e) in sections {
        let section = &bytes[s..e];
        // Skip leading blank and comment lines.
        let mut skip = 0;
        let mut line_no = first;
        for (off, line) in lines(section) {
            if !is_skippable(line) {
                skip = off;
                break;
            }
            skip = off + line.len();
            line_no += 1;
        }
        let body = &section[skip..];
        if body.trim_ascii().is_empty() {
            continue;
        }
        if !is_curl_start(body) {
            out.push(Block {
                line: line_no,
                text: body,
                curl: false,
            });
            continue;
        }
        // One or more curl commands.
        let mut cmd_start = 0;
        let mut cmd_line = line_no;
        let mut continued = false;
        for (n, (off, line)) in lines(body).enumerate() {
            if off > 0 && !continued && is_curl_start(line) {
                out.push(Block {
                    line: cmd_line,
                    text: body[cmd_start..off].trim_ascii_end(),
                    curl: true,
                });
                cmd_start = off;
                cmd_line = line_no + n;
            }
            continued = line.trim_ascii_end().ends_with(b"\\");
        }
        out.push(Block {
            line: cmd_line,
            text: body[cmd_start..].trim_ascii_end(),
            curl: true,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_keep_bodies_exact_and_drop_the_separator_line_break() {
        let file = b"### first\r\nPUT /v2/batch HTTP/1.1\r\nContent-Type: application/json\r\n\r\n[1]\r\n### second\nGET /v2/attributes HTTP/1.1\n\n";
        let b = split_blocks(file);
        assert_eq!(b.len(), 2, "{b:?}");
        assert!(
            b[0].text.ends_with(b"\r\n\r\n[1]"),
            "{:?}",
            String::from_utf8_lossy(b[0].text)
        );
        assert_eq!(b[0].line, 2);
        assert!(b[1].text.starts_with(b"GET /v2/attributes"));
        assert_eq!(b[1].line, 7);
        assert!(!b[0].curl);
    }

    #[test]
    fn curl_commands_split_where_a_new_one_starts() {
        let file = b"# two commands\ncurl -X PUT 'http://h/v2/batch' \\\n  -H 'a: b' \\\n  --data-binary '[]'\n\ncurl http://h/v2/attributes\n";
        let b = split_blocks(file);
        assert_eq!(b.len(), 2, "{b:?}");
        assert!(b.iter().all(|x| x.curl));
        assert!(b[0].text.ends_with(b"--data-binary '[]'"));
        assert_eq!(b[0].line, 2);
        assert_eq!(b[1].text, b"curl http://h/v2/attributes");
        assert_eq!(b[1].line, 6);
        // A "curl " at the start of a continued line is an argument, not a new command.
        let cont = split_blocks(b"curl -H 'x: y' \\\ncurl\n");
        assert_eq!(cont.len(), 1);
    }

    #[test]
    fn empty_and_comment_only_sections_are_not_blocks() {
        assert!(split_blocks(b"").is_empty());
        assert!(split_blocks(b"###\n# nothing\n###\n\n").is_empty());
    }
}
