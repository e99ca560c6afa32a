//! Copy as code: the request being edited as a short, standalone program in the user's language
//! that builds the signing text line by line, computes HMAC-SHA384 with the language's standard
//! library (openssl for the shell), base64-encodes it and prints the headers.
//!
//! Each language is one readable template in `assets/codegen/` (rendered with minijinja); this
//! module only gives it the request's values as literals of that language and the notes on each
//! part of the scheme ([`notes`]). Pure: no I/O. The test in `tests/codegen.rs` runs every
//! program with the real interpreter or compiler and compares its signature with the core's.

pub mod explain;
mod lang;
mod literal;
pub mod notes;

use minijinja::syntax::SyntaxConfig;
use minijinja::value::Serde;
use minijinja::{Environment, UndefinedBehavior};
use serde::Serialize;

pub use lang::Lang;
pub use literal::literal;

use crate::core::{SignableRequest, SignedRequest, SigningForm};

/// A body larger than this is read from a file by the generated program instead of being
/// written into it as a literal.
pub const INLINE_BODY_MAX: usize = 2048;

/// Where the generated program takes what is not written into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeOptions<'a> {
    /// The environment variable holding the REST key (the key is never written into code).
    pub rest_key_env: &'a str,
    /// The file the program reads the body from when the body is larger than
    /// [`INLINE_BODY_MAX`] or not UTF-8 text.
    pub body_file: &'a str,
}

/// The default name of the environment variable the program reads the REST key from.
pub const DEFAULT_REST_KEY_ENV: &str = "SIGNSCOPE_REST_KEY";
/// The default file a program reads a large body from.
pub const DEFAULT_BODY_FILE: &str = "body.json";

impl Default for CodeOptions<'_> {
    fn default() -> Self {
        CodeOptions {
            rest_key_env: DEFAULT_REST_KEY_ENV,
            body_file: DEFAULT_BODY_FILE,
        }
    }
}

/// Why no program could be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodegenError {
    #[error(
        "the environment variable name \"{0}\" cannot be used in code: use letters, digits and '_', not starting with a digit"
    )]
    BadEnvName(String),
    #[error("the body file name is empty; give the file the program should read the body from")]
    EmptyBodyFile,
    #[error("the {0} template could not be rendered: {1}")]
    Template(&'static str, String),
}

/// Whether the program reads the body from a file rather than holding it as a literal.
pub fn body_read_from_file(body: &[u8]) -> bool {
    body.len() > INLINE_BODY_MAX || std::str::from_utf8(body).is_err()
}

#[derive(Serialize)]
struct Context<'a> {
    lang: &'static str,
    method: String,
    path: &'a str,
    query: &'a str,
    timestamp: &'a str,
    api_key: &'a str,
    auth_algo: &'a str,
    content_type: &'a str,
    timestamp_header: String,
    api_key_header: String,
    auth_algo_header: String,
    /// The body as text when it is written into the program.
    body: Option<&'a str>,
    /// The file the body is read from otherwise.
    body_file: Option<&'a str>,
    body_len: usize,
    key_env: &'a str,
    /// Comment lines saying the request is signed in a form other than the documented one.
    form_note: Option<String>,
    lines: &'static [notes::Note; 8],
    hmac: &'static notes::Note,
    base64: &'static notes::Note,
    header: &'static notes::Note,
}

/// An environment variable's name as a shell exports it: a letter or '_', then letters,
/// digits and '_'.
pub fn valid_env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The program that signs `req` in `lang`: it prints the signed headers, ending with
/// `Authorization: Bearer <signature>`, the same signature [`crate::core::sign`] computes
/// with the key found in `opts.rest_key_env`.
pub fn render(
    req: &SignableRequest<'_>,
    lang: Lang,
    opts: &CodeOptions<'_>,
) -> Result<String, CodegenError> {
    render_with_note(req, lang, opts, None)
}

/// The program that signs exactly what `signed` signed: the path and query lines as signed (in
/// the request's form), its timestamp, its body. It prints the same signature and headers.
pub fn render_signed(
    signed: &SignedRequest,
    lang: Lang,
    opts: &CodeOptions<'_>,
) -> Result<String, CodegenError> {
    let note = (signed.form() != SigningForm::Standard).then(|| {
        let c = lang.comment();
        let sent = signed.as_sent();
        format!(
            "{c}\n{c} This request is {}.\n{c} It is sent to {}; the path and query lines below are the ones signed.",
            signed.form().description(),
            crate::core::http_text::target(sent.path, sent.query)
        )
    });
    render_with_note(&signed.as_signed(), lang, opts, note)
}

fn render_with_note(
    req: &SignableRequest<'_>,
    lang: Lang,
    opts: &CodeOptions<'_>,
    form_note: Option<String>,
) -> Result<String, CodegenError> {
    if !valid_env_name(opts.rest_key_env) {
        return Err(CodegenError::BadEnvName(opts.rest_key_env.to_string()));
    }
    let from_file = body_read_from_file(req.body);
    if from_file && opts.body_file.is_empty() {
        return Err(CodegenError::EmptyBodyFile);
    }
    let names = req.header_names();
    let ctx = Context {
        lang: lang.name(),
        method: req.method.to_ascii_uppercase(),
        path: req.path,
        query: req.query,
        timestamp: req.timestamp,
        api_key: req.api_key,
        auth_algo: req.auth_algo,
        content_type: req.content_type,
        timestamp_header: names.timestamp,
        api_key_header: names.api_key,
        auth_algo_header: names.auth_algo,
        body: if from_file {
            None
        } else {
            std::str::from_utf8(req.body).ok()
        },
        body_file: from_file.then_some(opts.body_file),
        body_len: req.body.len(),
        key_env: opts.rest_key_env,
        form_note,
        lines: &notes::LINES,
        hmac: &notes::HMAC,
        base64: &notes::BASE64,
        header: &notes::HEADER,
    };
    let mut env = Environment::new();
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    let syntax = SyntaxConfig::builder()
        .keep_trailing_newline(true)
        .trim_blocks(true)
        .lstrip_blocks(true)
        .build()
        .map_err(|e| CodegenError::Template(lang.name(), format!("{e:#}")))?;
    env.set_syntax(syntax);
    env.add_filter("lit", move |v: String| literal(lang, &v));
    let fail = |e: minijinja::Error| CodegenError::Template(lang.name(), format!("{e:#}"));
    env.add_template(lang.file_name(), lang.template())
        .map_err(fail)?;
    env.get_template(lang.file_name())
        .and_then(|t| t.render(Serde(&ctx)))
        .map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    fn req(body: &[u8]) -> SignableRequest<'_> {
        SignableRequest::new(
            "put",
            "/v2/batch",
            "test=1",
            "2026-11-22T10:00:00.000Z",
            "klevu-1234567890",
            body,
        )
    }

    #[test]
    fn every_template_renders_with_the_key_from_the_environment() {
        for &lang in Lang::value_variants() {
            let code = render(&req(b"[]"), lang, &CodeOptions::default()).unwrap();
            assert!(code.contains(DEFAULT_REST_KEY_ENV), "{lang:?}");
            assert!(code.contains("/v2/batch"), "{lang:?}");
            // The method is written upper-cased, as it is signed ("put" only in comments).
            assert!(code.contains(&literal(lang, "PUT")), "{lang:?}");
            let mut code_lines = code.lines().map(str::trim_start);
            assert!(
                code_lines.all(|l| l.starts_with('#')
                    || l.starts_with("//")
                    || !l.contains(&literal(lang, "put"))),
                "{lang:?}"
            );
            assert!(
                !code.contains("body.json"),
                "{lang:?}: a small body is inline"
            );
        }
    }

    #[test]
    fn every_part_is_commented_with_its_pitfalls() {
        for &lang in Lang::value_variants() {
            let code = render(&req(b"[]"), lang, &CodeOptions::default()).unwrap();
            for note in notes::LINES.iter().chain([&notes::HMAC, &notes::BASE64]) {
                assert!(code.contains(note.pitfalls[0]), "{lang:?} {}", note.label);
                assert!(code.contains(note.pitfalls[1]), "{lang:?} {}", note.label);
            }
        }
    }

    #[test]
    fn a_large_or_binary_body_is_read_from_the_file() {
        let big = vec![b'x'; INLINE_BODY_MAX + 1];
        let binary = [0xff, 0xfe];
        for body in [&big[..], &binary[..]] {
            for &lang in Lang::value_variants() {
                let opts = CodeOptions {
                    rest_key_env: "K",
                    body_file: "payload.json",
                };
                let code = render(&req(body), lang, &opts).unwrap();
                assert!(code.contains("payload.json"), "{lang:?}");
                assert!(!code.contains("xxxxxxxxxx"), "{lang:?}");
            }
        }
    }

    #[test]
    fn a_bad_env_name_or_empty_body_file_is_one_sentence() {
        let opts = CodeOptions {
            rest_key_env: "1X;rm",
            body_file: "b",
        };
        let err = render(&req(b""), Lang::Python, &opts).unwrap_err();
        assert!(err.to_string().contains("\"1X;rm\""));
        let opts = CodeOptions {
            rest_key_env: "K",
            body_file: "",
        };
        let err = render(&req(&[0xff]), Lang::Go, &opts).unwrap_err();
        assert_eq!(err, CodegenError::EmptyBodyFile);
    }
}
