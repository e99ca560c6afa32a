//! The request flags `sign`, `send` and `profile request add` share (`#[command(flatten)]`):
//! method, path, query and the body as text or from a file.

use std::path::PathBuf;

/// The parts of a request given on the command line; each one left out comes from the
/// command's base request (a profile's saved request, or the defaults).
#[derive(Debug, Clone, Default, clap::Args)]
#[command(group = clap::ArgGroup::new("body_source").multiple(false))]
pub struct RequestFlags {
    /// HTTP method, signed upper-cased (default: the saved request's).
    #[arg(long, value_name = "M")]
    pub method: Option<String>,
    /// URL path, e.g. /v2/batch, signed exactly as given (default: the saved request's).
    #[arg(long, value_name = "P")]
    pub path: Option<String>,
    /// Query string, signed exactly as given (default: the saved request's, else empty); a
    /// leading '?' is not part of the query and is left out (stderr says so).
    #[arg(long, value_name = "Q")]
    pub query: Option<String>,
    /// Read the body from this file, byte for byte ('-' reads standard input).
    #[arg(long, value_name = "FILE", group = "body_source")]
    pub body_file: Option<PathBuf>,
    /// The body as text (default: the saved request's).
    #[arg(long, value_name = "TEXT", group = "body_source")]
    pub body: Option<String>,
}

impl RequestFlags {
    /// The `--query` value as it is sent and signed: one leading `?` is the URL's separator, not
    /// part of the query (`docs/signing.md` rule S4), so it is left out, and stderr says so.
    pub fn query(&self) -> Option<String> {
        let typed = self.query.as_deref()?;
        let (sent, removed) = crate::core::spec::query_as_sent(typed);
        if removed {
            eprintln!(
                "note: --query: {}",
                crate::core::spec::query_mark_note(sent)
            );
        }
        Some(sent.to_string())
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    const FLAGS: [&str; 5] = ["method", "path", "query", "body_file", "body"];

    fn command(path: &[&str]) -> clap::Command {
        let mut cmd = super::super::Cli::command();
        cmd.build();
        for name in path {
            cmd = cmd
                .find_subcommand(name)
                .unwrap_or_else(|| panic!("no subcommand {name}"))
                .clone();
        }
        cmd
    }

    /// The three commands that take a request read the same flags: one declaration, so the
    /// names, value names and help cannot drift apart (the body flags' help of `profile request
    /// add` says that the file is kept, on purpose).
    #[test]
    fn sign_send_and_request_add_share_the_request_flags() {
        let commands = [
            command(&["sign"]),
            command(&["send"]),
            command(&["profile", "request", "add"]),
        ];
        for id in FLAGS {
            let seen: Vec<(String, String, String)> = commands
                .iter()
                .map(|c| {
                    let a = c
                        .get_arguments()
                        .find(|a| a.get_id() == id)
                        .unwrap_or_else(|| panic!("{} has no --{id}", c.get_name()));
                    let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
                    let value = format!("{:?}", a.get_value_names());
                    (a.get_long().unwrap_or_default().to_string(), value, help)
                })
                .collect();
            let compared = if id.starts_with("body") { 2 } else { 3 };
            for s in &seen[1..compared] {
                assert_eq!(s, &seen[0], "--{id}");
            }
            assert_eq!(seen[2].0, seen[0].0, "--{id}");
            assert_eq!(seen[2].1, seen[0].1, "--{id}");
        }
    }

    /// The body comes from one place: text and file together are refused by every command.
    #[test]
    fn a_body_and_a_body_file_together_are_refused_everywhere() {
        for args in [
            &[
                "signscope",
                "sign",
                "--method",
                "PUT",
                "--path",
                "/v2/batch",
            ][..],
            &["signscope", "send"][..],
            &["signscope", "profile", "request", "add", "p", "r"][..],
        ] {
            let mut argv: Vec<&str> = args.to_vec();
            argv.extend(["--body", "[]", "--body-file", "b.json"]);
            let err = <super::super::Cli as clap::Parser>::try_parse_from(&argv).unwrap_err();
            assert_eq!(
                err.kind(),
                clap::error::ErrorKind::ArgumentConflict,
                "{argv:?}"
            );
        }
    }
}
