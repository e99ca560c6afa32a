//! Copy as code, tested by running it: every generated program is run with the real interpreter
//! or compiler, for the five public vectors and a set of awkward requests, and must print the
//! headers the core computes, byte for byte. A language whose toolchain is missing is skipped
//! with one printed line (`.ci/run` installs them all).

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use clap::ValueEnum;
use std::path::Path;
use std::process::{Command, Stdio};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::Value;
use signscope::codegen::{body_read_from_file, render, CodeOptions, Lang, INLINE_BODY_MAX};
use signscope::core::{sign, Secret, SignableRequest};

const VECTORS: &str = include_str!("data/signing.json");
const KEY_ENV: &str = "SIGNSCOPE_TEST_REST_KEY";

/// One request to generate a program for.
struct Case {
    name: String,
    method: String,
    path: String,
    query: String,
    timestamp: String,
    api_key: String,
    prefix: String,
    body: Vec<u8>,
    rest_key: String,
    /// The vector's own signature, for the public vectors.
    published: Option<String>,
}

impl Case {
    fn request(&self) -> SignableRequest<'_> {
        SignableRequest {
            method: &self.method,
            path: &self.path,
            query: &self.query,
            header_prefix: &self.prefix,
            timestamp: &self.timestamp,
            api_key: &self.api_key,
            auth_algo: "HmacSHA384",
            content_type: "application/json",
            body: &self.body,
        }
    }

    /// The five header lines the program must print.
    fn expected(&self) -> String {
        let signed = sign(&self.request(), &Secret::new(self.rest_key.clone())).unwrap();
        if let Some(published) = &self.published {
            assert_eq!(signed.signature(), published, "{}: the core", self.name);
        }
        signed
            .headers
            .iter()
            .map(|(n, v)| format!("{n}: {v}\n"))
            .collect()
    }
}

fn awkward(name: &str, method: &str, path: &str, query: &str, body: &[u8], key: &str) -> Case {
    Case {
        name: name.to_string(),
        method: method.to_string(),
        path: path.to_string(),
        query: query.to_string(),
        timestamp: "2026-11-22T10:00:00.000Z".to_string(),
        api_key: "klevu-1234567890".to_string(),
        prefix: "SVC".to_string(),
        body: body.to_vec(),
        rest_key: key.to_string(),
        published: None,
    }
}

fn cases() -> Vec<Case> {
    let v: Value = serde_json::from_str(VECTORS).unwrap();
    let mut cases: Vec<Case> = v["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap().to_string();
            assert_eq!(s("auth_algo"), "HmacSHA384");
            assert_eq!(s("content_type"), "application/json");
            Case {
                name: s("name"),
                method: s("method"),
                path: s("path"),
                query: s("query"),
                timestamp: s("timestamp"),
                api_key: s("api_key"),
                prefix: s("header_prefix"),
                body: STANDARD.decode(s("body_b64")).unwrap(),
                rest_key: s("rest_key"),
                published: Some(s("signature")),
            }
        })
        .collect();
    assert_eq!(cases.len(), 5, "the five public vectors");
    let big: Vec<u8> = format!(
        "[{}]",
        (0..200)
            .map(|i| format!("{{\"id\": \"sku-{i}\", \"name\": \"n°{i}\"}}"))
            .collect::<Vec<_>>()
            .join(",\n ")
    )
    .into_bytes();
    assert!(big.len() > INLINE_BODY_MAX);
    cases.extend([
        awkward(
            "empty query, lower-case method",
            "put",
            "/v2/batch/",
            "",
            b"[]",
            "k",
        ),
        awkward(
            "non-ASCII body",
            "PUT",
            "/v2/batch",
            "",
            "[{\"name\":\"Crème brûlée ✓ 日本\",\"nbsp\":\"a\u{a0}b\",\"bom\":\"\u{feff}\"}]"
                .as_bytes(),
            "ABCDE1234567890",
        ),
        awkward(
            "LF, CRLF, tabs and spaces in the body",
            "PATCH",
            "/v2/batch",
            "",
            b"[\n  {\"a\": 1},\r\n\t{\"b\": \"x  \"}  \n]\n\n",
            "ABCDE1234567890",
        ),
        awkward(
            "a query with %20 and a plus",
            "GET",
            "/v2/attributes",
            "q=red%20shoes&x=a+b",
            b"",
            "ABCDE1234567890",
        ),
        awkward(
            "quotes, backslashes and interpolation characters",
            "PUT",
            "/v2/attributes/it's",
            "a=$HOME&b=#{x}",
            br#"{"s":"it's \"quoted\" \\n $x #{y} ${z} %s `id` {$w}"}"#,
            "ABCDE1234567890",
        ),
        awkward(
            "a key with spaces and non-ASCII",
            "DELETE",
            "/v2/attributes/colour",
            "",
            b"",
            " cl\u{e9} secr\u{e8}te ",
        ),
        awkward(
            "a large body read from a file",
            "PUT",
            "/v2/batch",
            "",
            &big,
            "rest-secret-key",
        ),
        trojan_source(),
        awkward(
            "a body that is not UTF-8",
            "PUT",
            "/v2/batch",
            "",
            b"[\"\xff\xfe\x00\"]\n",
            "rest-secret-key",
        ),
    ]);
    cases
}

/// A body whose text reads differently on screen from what it is: a right-to-left override
/// and an isolate (U+202E, U+2066), a C1 CSI (U+009B), a CR and an ESC sequence.
fn trojan_source() -> Case {
    awkward(
        "Trojan Source: bidi overrides, C1 controls, CR and ESC",
        "PUT",
        "/v2/batch",
        "",
        "[{\"id\":\"admin\u{202E} \u{2066}// ok\u{2069}\u{009B}2J\r\u{1b}[2J\"}]".as_bytes(),
        "ABCDE1234567890",
    )
}

/// Generated code wrote such characters into its string literals as they are: the program
/// read one way in an editor or a terminal and did another ("Trojan Source"). Now every
/// language writes them as escapes (the programs still sign the same bytes: every case above
/// runs, this one too).
#[test]
fn generated_code_holds_no_character_that_hides_what_it_is() {
    let case = trojan_source();
    for &lang in Lang::value_variants() {
        let code = render(
            &case.request(),
            lang,
            &CodeOptions {
                rest_key_env: KEY_ENV,
                body_file: "body.json",
            },
        )
        .unwrap();
        let hidden: Vec<String> = code
            .chars()
            .filter(|&c| hides_itself(c) || (c.is_control() && c != '\n' && c != '\t'))
            .map(|c| format!("U+{:04X}", c as u32))
            .collect();
        assert!(hidden.is_empty(), "{lang:?}: {hidden:?} in\n{code}");
    }
}

/// How to run a program of one language in its directory, or why it cannot be run here.
struct Runner {
    /// Commands that must work for the language to be run (`--version` style checks).
    needs: &'static [&'static [&'static str]],
    /// Build steps, then the run step, with `{file}` standing for the program's file name.
    steps: &'static [&'static [&'static str]],
}

fn runner(lang: Lang) -> Runner {
    match lang {
        Lang::Python => Runner {
            needs: &[&["python3", "--version"]],
            steps: &[&["python3", "{file}"]],
        },
        Lang::Node => Runner {
            needs: &[&["node", "--version"]],
            steps: &[&["node", "{file}"]],
        },
        Lang::Php => Runner {
            needs: &[&["php", "--version"]],
            steps: &[&["php", "{file}"]],
        },
        Lang::Ruby => Runner {
            needs: &[&["ruby", "--version"]],
            steps: &[&["ruby", "{file}"]],
        },
        Lang::Go => Runner {
            needs: &[&["go", "version"]],
            steps: &[&["go", "run", "{file}"]],
        },
        // The JDK's source launcher compiles and runs one file.
        Lang::Java => Runner {
            needs: &[&["java", "-version"], &["javac", "-version"]],
            steps: &[&["java", "{file}"]],
        },
        // Mono's compiler and runtime (Debian packages mono-mcs); .NET's `dotnet` needs a
        // project around the file, so it is not used here.
        Lang::Csharp => Runner {
            needs: &[&["mcs", "--version"], &["mono", "--version"]],
            steps: &[
                &["mcs", "-nologo", "-out:Sign.exe", "{file}"],
                &["mono", "Sign.exe"],
            ],
        },
        Lang::Shell => Runner {
            needs: &[&["sh", "-c", "true"], &["openssl", "version"]],
            steps: &[&["sh", "{file}"]],
        },
    }
}

fn works(cmd: &[&str]) -> bool {
    Command::new(cmd[0])
        .args(&cmd[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Write the program (and the body file when it reads one) into `dir` and run it.
fn run_program(lang: Lang, dir: &Path, case: &Case) -> String {
    let req = case.request();
    let code = render(
        &req,
        lang,
        &CodeOptions {
            rest_key_env: KEY_ENV,
            body_file: "body.json",
        },
    )
    .unwrap();
    std::fs::write(dir.join(lang.file_name()), &code).unwrap();
    if body_read_from_file(&case.body) {
        std::fs::write(dir.join("body.json"), &case.body).unwrap();
    }
    let mut stdout = Vec::new();
    for step in runner(lang).steps {
        let args: Vec<&str> = step
            .iter()
            .map(|a| if *a == "{file}" { lang.file_name() } else { a })
            .collect();
        let out = Command::new(args[0])
            .args(&args[1..])
            .current_dir(dir)
            .env(KEY_ENV, &case.rest_key)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{lang:?} / {}: `{}` failed: {}\n--- program ---\n{code}",
            case.name,
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        stdout = out.stdout;
    }
    String::from_utf8(stdout).unwrap()
}

fn check_language(lang: Lang) {
    let r = runner(lang);
    if let Some(missing) = r.needs.iter().find(|c| !works(c)) {
        println!(
            "skipped: {} programs not run, `{}` is not available here (.ci/run installs it)",
            lang.name(),
            missing[0]
        );
        return;
    }
    let cases = cases();
    assert!(cases.iter().any(|c| body_read_from_file(&c.body)));
    for case in &cases {
        let dir = tempfile::tempdir().unwrap();
        let printed = run_program(lang, dir.path(), case);
        assert_eq!(
            printed,
            case.expected(),
            "{lang:?} / {}: the program's headers differ from the core's",
            case.name
        );
    }
}

#[test]
fn python_programs_print_the_cores_signature() {
    check_language(Lang::Python);
}

#[test]
fn node_programs_print_the_cores_signature() {
    check_language(Lang::Node);
}

#[test]
fn php_programs_print_the_cores_signature() {
    check_language(Lang::Php);
}

#[test]
fn ruby_programs_print_the_cores_signature() {
    check_language(Lang::Ruby);
}

#[test]
fn go_programs_print_the_cores_signature() {
    check_language(Lang::Go);
}

#[test]
fn java_programs_print_the_cores_signature() {
    check_language(Lang::Java);
}

#[test]
fn csharp_programs_print_the_cores_signature() {
    check_language(Lang::Csharp);
}

#[test]
fn shell_programs_print_the_cores_signature() {
    check_language(Lang::Shell);
}

/// A program made wrong on purpose (its query line signed with a '?') must print another
/// signature: the comparison above can fail.
#[test]
fn a_program_with_a_classic_mistake_prints_another_signature() {
    if !works(&["python3", "--version"]) {
        println!("skipped: python3 is not available here (.ci/run installs it)");
        return;
    }
    let case = &cases()[1];
    let dir = tempfile::tempdir().unwrap();
    let code = render(
        &case.request(),
        Lang::Python,
        &CodeOptions {
            rest_key_env: KEY_ENV,
            body_file: "body.json",
        },
    )
    .unwrap()
    .replace("text += \"test=1\"", "text += \"?test=1\"");
    std::fs::write(dir.path().join("sign.py"), code).unwrap();
    let out = Command::new("python3")
        .arg("sign.py")
        .current_dir(dir.path())
        .env(KEY_ENV, &case.rest_key)
        .output()
        .unwrap();
    assert!(out.status.success());
    let printed = String::from_utf8(out.stdout).unwrap();
    assert!(printed.starts_with("X-SVC-TIMESTAMP: "), "{printed}");
    assert_ne!(printed, case.expected());
}

/// The CLI prints the program on stdout, and nothing else there: `> sign.py` gives a program.
#[test]
fn sign_output_code_prints_a_program_that_runs() {
    if !works(&["python3", "--version"]) {
        println!("skipped: python3 is not available here (.ci/run installs it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = assert_cmd::Command::cargo_bin("signscope")
        .unwrap()
        .args([
            "sign",
            "--method",
            "PUT",
            "--path",
            "/v2/batch",
            "--query",
            "test=1",
            "--timestamp",
            "2026-11-22T10:00:00.000Z",
            "--api-key",
            "klevu-1234567890",
            "--rest-key-env",
            "MY_REST_KEY",
            "--body",
            "{}",
            "--output",
            "code",
            "--lang",
            "python",
        ])
        .env("MY_REST_KEY", "ABCDE1234567890")
        .output()
        .unwrap();
    assert!(out.status.success());
    let code = String::from_utf8(out.stdout).unwrap();
    assert!(
        !code.contains("ABCDE1234567890"),
        "the REST key is never written into code"
    );
    std::fs::write(dir.path().join("sign.py"), &code).unwrap();
    let run = Command::new("python3")
        .arg("sign.py")
        .current_dir(dir.path())
        .env("MY_REST_KEY", "ABCDE1234567890")
        .output()
        .unwrap();
    let printed = String::from_utf8(run.stdout).unwrap();
    assert!(
        printed.ends_with(
            "Authorization: Bearer miSgfzeCN0Gcqz9c+PoxqCLEo34PV+1YakTFrvn3VBepCayhyv96rCs/GOT4a3+Z\n"
        ),
        "{printed}"
    );
}

#[test]
fn output_code_without_a_language_is_one_sentence() {
    let out = assert_cmd::Command::cargo_bin("signscope")
        .unwrap()
        .args([
            "sign",
            "--method",
            "PUT",
            "--path",
            "/",
            "--api-key",
            "k",
            "--rest-key-env",
            "K",
            "--body",
            "",
            "--output",
            "code",
        ])
        .env("K", "x")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--lang"), "{err}");
}

/// A character that hides what it is on screen (a C1 control such as U+009B, a CSI; a
/// bidirectional embedding, override or isolate; a zero-width character): written out here,
/// not taken from the code under test.
fn hides_itself(c: char) -> bool {
    ('\u{0080}'..='\u{009F}').contains(&c)
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}')
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{FEFF}')
}
