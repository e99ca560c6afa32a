//! The guided lesson: about ten short steps over a live request. Each step explains one part of
//! the signing text (docs/signing.md), asks the learner to do one thing to the request, and
//! notices when it is done by a goal predicate over the request as it was when the step began
//! and as it is now. Pure: the clock is an input, nothing is read or written here.

use chrono::{DateTime, Duration, Utc};

use crate::core::spec::query_as_sent;
use crate::core::time::{format_timestamp, parse_timestamp};
use crate::core::visible::escape_visible;
use crate::core::{sign, LineLabel, Secret, SignableRequest};

/// The request being edited in the lesson, owned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    pub method: String,
    pub path: String,
    pub query: String,
    pub header_prefix: String,
    pub timestamp: String,
    /// A frozen timestamp is kept as typed; a live one follows the clock.
    pub timestamp_frozen: bool,
    pub api_key: String,
    pub rest_key: String,
    pub auth_algo: String,
    pub content_type: String,
    pub body: Vec<u8>,
}

impl Draft {
    /// The lesson's starting request (the demo account's keys), timestamped `now`.
    pub fn start(now: DateTime<Utc>) -> Draft {
        Draft {
            method: "PUT".into(),
            path: "/v2/batch".into(),
            query: String::new(),
            header_prefix: crate::core::DEFAULT_HEADER_PREFIX.into(),
            timestamp: format_timestamp(now),
            timestamp_frozen: false,
            api_key: "demo-public-key".into(),
            rest_key: "demo-rest-key".into(),
            auth_algo: crate::core::AUTH_ALGO.into(),
            content_type: crate::core::CONTENT_TYPE_JSON.into(),
            body: br#"[{"id":"sku-1","type":"KLEVU_CMS"}]"#.to_vec(),
        }
    }

    /// The request as the signer sees it: as the request view signs it, the query field
    /// without its one leading `?` (`docs/signing.md` rules S4 and S15).
    pub fn signable(&self) -> SignableRequest<'_> {
        SignableRequest {
            method: &self.method,
            path: &self.path,
            query: self.query_as_sent(),
            header_prefix: &self.header_prefix,
            timestamp: &self.timestamp,
            api_key: &self.api_key,
            auth_algo: &self.auth_algo,
            content_type: &self.content_type,
            body: &self.body,
        }
    }

    /// The query as sent and signed ([`query_as_sent`]), whatever was typed.
    pub fn query_as_sent(&self) -> &str {
        query_as_sent(&self.query).0
    }

    /// A live timestamp follows the clock; a frozen one stays as it is.
    pub fn tick(&mut self, now: DateTime<Utc>) {
        if !self.timestamp_frozen {
            self.timestamp = format_timestamp(now);
        }
    }

    /// The signing text's eight lines, made visible, and the signature (`None` with an empty
    /// REST key).
    pub fn lines_and_signature(&self) -> ([(LineLabel, String); 8], Option<String>) {
        let req = self.signable();
        let canonical = req.canonical();
        let lines = canonical
            .lines()
            .map(|l| (l.label, escape_visible(l.bytes)));
        let signature = sign(&req, &Secret::new(self.rest_key.clone()))
            .ok()
            .map(|s| s.signature().to_string());
        (lines, signature)
    }

    /// Apply one editing command of the line-based lesson (`method POST`, `query test=1`,
    /// `body+ TEXT`...). Values are taken as typed after the first space; `\n` and `\s` in a
    /// body stand for a LF and a space.
    pub fn apply(&mut self, command: &str) -> Result<(), UnknownCommand> {
        let (verb, value) = command.split_once(' ').unwrap_or((command, ""));
        match verb {
            "method" => self.method = value.to_string(),
            "path" => self.path = value.to_string(),
            "query" => self.query = value.to_string(),
            "apikey" => self.api_key = value.to_string(),
            "key" => self.rest_key = value.to_string(),
            "algo" => self.auth_algo = value.to_string(),
            "prefix" => self.header_prefix = value.to_string(),
            "timestamp" => {
                self.timestamp = value.to_string();
                self.timestamp_frozen = true;
            }
            "freeze" => self.timestamp_frozen = true,
            "live" => self.timestamp_frozen = false,
            "body" => self.body = unescape(value).into_bytes(),
            "body+" => self.body.extend_from_slice(unescape(value).as_bytes()),
            _ => {
                return Err(UnknownCommand {
                    verb: verb.to_string(),
                })
            }
        }
        Ok(())
    }
}

/// A line of the lesson that is no editing command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("\"{verb}\" is not a lesson command; try: {known}", known = COMMANDS.join(", "))]
pub struct UnknownCommand {
    pub verb: String,
}

/// The editing commands of the line-based lesson.
pub const COMMANDS: [&str; 12] = [
    "method M",
    "path P",
    "query Q",
    "timestamp T",
    "freeze",
    "live",
    "apikey K",
    "key K",
    "algo A",
    "prefix X",
    "body TEXT",
    "body+ TEXT",
];

fn unescape(v: &str) -> String {
    v.replace("\\n", "\n").replace("\\s", " ")
}

/// What a goal predicate sees: the request when the step began, the request now, the time now.
pub struct Progress<'a> {
    pub start: &'a Draft,
    pub now: &'a Draft,
    pub clock: DateTime<Utc>,
}

/// One step of the lesson.
pub struct Step {
    pub title: &'static str,
    /// Why this part is there (two or three sentences).
    pub explanation: &'static str,
    /// The one thing to do, phrased for the line-based lesson and the workbench alike.
    pub task: &'static str,
    /// A hint naming the command that does it in `signscope learn`.
    pub hint: &'static str,
    pub goal: fn(&Progress<'_>) -> bool,
}

/// The lesson, in order.
pub const STEPS: [Step; 10] = [
    Step {
        title: "The method line",
        explanation: "The signing text starts with the HTTP method in upper case and one LF. \
                      A server that receives PUT signs PUT: a client that signs another method \
                      gets a mismatch.",
        task: "Change the method to POST and watch the first line and the signature change.",
        hint: "method POST",
        goal: |p| p.now.method.eq_ignore_ascii_case("POST") && p.now.method != p.start.method,
    },
    Step {
        title: "The path line",
        explanation: "The second line is the path exactly as sent, without host or query. \
                      Nothing is trimmed: /v2/batch and /v2/batch/ are two different texts.",
        task: "Add a trailing '/' to the path.",
        hint: "path /v2/batch/",
        goal: |p| p.now.path.ends_with('/') && p.now.path != p.start.path,
    },
    Step {
        title: "The query line",
        explanation: "The third line is the query string without its '?', exactly as sent: not \
                      decoded, not sorted.",
        task: "Add the query test=1.",
        hint: "query test=1",
        goal: |p| {
            let q = p.now.query_as_sent();
            !q.is_empty() && !q.starts_with('?')
        },
    },
    Step {
        title: "The empty query line",
        explanation: "With no query the line is still there, empty: the path line is followed \
                      by two LFs. Leaving the empty line out is a classic mismatch.",
        task: "Remove the query again and see the empty line stay.",
        hint: "query",
        goal: |p| p.now.query_as_sent().is_empty() && !p.start.query_as_sent().is_empty(),
    },
    Step {
        title: "The timestamp line",
        explanation: "X-SVC-TIMESTAMP=<value>: the header's value, byte for byte. A live \
                      timestamp changes the text (and the signature) every millisecond; \
                      freezing it keeps one text to study.",
        task: "Freeze the timestamp.",
        hint: "freeze",
        goal: |p| p.now.timestamp_frozen,
    },
    Step {
        title: "The timestamp window",
        explanation: "The server accepts a timestamp at most 10 minutes before or after its \
                      own clock. A correct signature over an old timestamp is still refused.",
        task: "Set the timestamp more than 10 minutes in the past.",
        hint: "timestamp 2020-01-01T00:00:00.000Z",
        goal: |p| {
            p.now.timestamp_frozen
                && parse_timestamp(&p.now.timestamp)
                    .is_some_and(|t| p.clock - t.time > Duration::seconds(600))
        },
    },
    Step {
        title: "The API key line",
        explanation: "X-SVC-APIKEY=<public key>: the public API key is signed and sent. It is \
                      not the secret; the REST key never appears in the text.",
        task: "Change the public API key.",
        hint: "apikey my-public-key",
        goal: |p| p.now.api_key != p.start.api_key,
    },
    Step {
        title: "The key",
        explanation: "The REST key is the HMAC key: changing it leaves every line of the text \
                      as it is and changes the whole signature. A trailing newline read from a \
                      file is a different key.",
        task: "Change the REST key and see that the text does not change.",
        hint: "key another-rest-key",
        goal: |p| !p.now.rest_key.is_empty() && p.now.rest_key != p.start.rest_key,
    },
    Step {
        title: "The body boundary",
        explanation: "One LF ends the Content-Type line; then come the body bytes exactly as \
                      sent, and nothing after them. A space or a LF at the end is part of what \
                      is signed.",
        task: "Add a trailing space to the body.",
        hint: "body+ \\s",
        goal: |p| p.now.body.ends_with(b" ") && !p.start.body.ends_with(b" "),
    },
    Step {
        title: "The encoding",
        explanation: "The text is signed as UTF-8 bytes: an é is two bytes. A client that signs \
                      \\u00e9 escapes and sends UTF-8 (or the reverse) signs another text. The \
                      48-byte HMAC is then sent in standard base64, not hex.",
        task: "Add a non-ASCII letter (such as é) to the body.",
        hint: "body+ é",
        goal: |p| !p.now.body.is_ascii() && p.now.body != p.start.body,
    },
];

/// The lines of the signing text that differ between two drafts, as `(label, before, after)`.
pub fn changed_lines(before: &Draft, after: &Draft) -> Vec<(LineLabel, String, String)> {
    let (a, _) = before.lines_and_signature();
    let (b, _) = after.lines_and_signature();
    a.into_iter()
        .zip(b)
        .filter(|(x, y)| x.1 != y.1)
        .map(|((label, x), (_, y))| (label, x, y))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> DateTime<Utc> {
        "2026-11-22T10:00:00Z".parse().unwrap()
    }

    /// A query typed with its '?' is signed as the request view signs it (without the '?'),
    /// and the query step is done: one signed request everywhere (`docs/signing.md` S15).
    #[test]
    fn a_query_typed_with_its_mark_is_signed_without_it() {
        let mut typed = Draft::start(clock());
        typed.apply("query ?test=1").unwrap();
        let mut plain = Draft::start(clock());
        plain.apply("query test=1").unwrap();
        assert_eq!(typed.lines_and_signature(), plain.lines_and_signature());
        let (lines, _) = typed.lines_and_signature();
        assert_eq!(lines[2], (LineLabel::Query, "test=1".to_string()));
        let start = Draft::start(clock());
        let p = Progress {
            start: &start,
            now: &typed,
            clock: clock(),
        };
        let query_step = STEPS.iter().position(|s| s.hint == "query test=1").unwrap();
        assert!((STEPS[query_step].goal)(&p));
    }

    /// Each step's hint, applied to the draft as the previous steps left it, reaches its goal;
    /// before it, the goal is not reached.
    #[test]
    fn the_hints_walk_the_lesson_from_first_to_last_step() {
        let mut draft = Draft::start(clock());
        for (i, step) in STEPS.iter().enumerate() {
            let start = draft.clone();
            let p = Progress {
                start: &start,
                now: &draft,
                clock: clock(),
            };
            assert!(
                !(step.goal)(&p),
                "step {} is done before anything is done",
                i + 1
            );
            draft.apply(step.hint).unwrap();
            let p = Progress {
                start: &start,
                now: &draft,
                clock: clock(),
            };
            assert!(
                (step.goal)(&p),
                "step {}: the hint {:?} does not reach the goal",
                i + 1,
                step.hint
            );
        }
    }

    #[test]
    fn changing_the_rest_key_changes_no_line_and_the_signature() {
        let a = Draft::start(clock());
        let mut b = a.clone();
        b.apply("key other").unwrap();
        assert!(changed_lines(&a, &b).is_empty());
        assert_ne!(a.lines_and_signature().1, b.lines_and_signature().1);
    }

    #[test]
    fn a_method_change_shows_in_the_method_line_only() {
        let a = Draft::start(clock());
        let mut b = a.clone();
        b.apply("method post").unwrap();
        let changed = changed_lines(&a, &b);
        assert_eq!(changed, [(LineLabel::Method, "PUT".into(), "POST".into())]);
    }

    #[test]
    fn a_live_timestamp_follows_the_clock_and_a_frozen_one_stays() {
        let mut d = Draft::start(clock());
        d.tick(clock() + Duration::seconds(1));
        assert_eq!(d.timestamp, "2026-11-22T10:00:01.000Z");
        d.apply("freeze").unwrap();
        d.tick(clock() + Duration::seconds(5));
        assert_eq!(d.timestamp, "2026-11-22T10:00:01.000Z");
    }

    #[test]
    fn an_unknown_command_is_one_sentence_listing_the_commands() {
        let err = Draft::start(clock())
            .apply("frobnicate")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("\"frobnicate\" is not a lesson command"),
            "{err}"
        );
        assert!(err.contains("body+ TEXT"));
    }
}
