//! The import rules of `docs/architecture.md`, checked on the source text:
//!
//! - no file-level import cycle in `src/` (two files importing each other, or a longer loop);
//!   a child that imports through its parent's re-exports while the parent re-exports it is such
//!   a loop;
//! - each layer imports only the layers `docs/architecture.md` allows it ([`ALLOWED`]): `core`
//!   nothing outside itself, nor `net`; `client` and `server` only `core` and `net`, `store`
//!   only `core`; the front ends (`cli`,
//!   `tui`) neither each other nor `server` or `client` (only the stream client below both);
//! - no file in `src/` is over 1,000 lines outside its test modules;
//! - one component protocol: the workbench's global `Message` holds no view's message, and
//!   every view has its own `update(&mut State, Msg) -> Vec<Effect>`; every view and popup
//!   implements the one `Component` trait (`src/tui/component.rs`) and the router calls the
//!   views through it;
//! - only the TUI test fixture (`src/tui/test_util.rs`) builds a ratatui `TestBackend` or an
//!   `App` (besides the workbench's own start): every TUI test and bench draws through it;
//! - `unsafe` code only in the audited places ([`AUDITED_UNSAFE`]), each `#[allow(unsafe_code)]`
//!   next to a `SAFETY` comment;
//! - nothing in the repository cites a document outside it or a tracker's or work session's
//!   number (rules are cited as `docs/...`).
//!
//! Imports are `use crate::...`, `use super::...`, `use self::...`, a `use` of a child module by
//! its name (`pub use request::X` in a `mod.rs`), and inline `crate::a::b` / `super::a` paths.
//! Each is resolved to the file of the longest module prefix it names. Test modules are left
//! out: an inline `#[cfg(test)] mod x { ... }` wherever it stands (the code after it is checked),
//! and the file of a `#[cfg(test)] mod x;` (found through its `#[path]` when it has one).

// Test code: an unwrap that fails is a failed test, with its message (clippy.toml allows
// unwrap inside #[test] functions only; this covers the helpers too).
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The longest a source file may be outside its test modules.
const MAX_LINES: usize = 1_000;

/// A module path such as `["core", "sign"]` (empty for the crate root).
type ModPath = Vec<String>;

struct SourceFile {
    /// Relative to `src/`, e.g. `core/sign.rs`.
    rel: String,
    module: ModPath,
    /// The text outside its test modules, comments and string literals blanked out.
    code: String,
    lines_outside_tests: usize,
}

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module a file defines: `lib.rs` the root, `a/mod.rs` and `a.rs` the module `a`.
fn module_of(rel: &str) -> ModPath {
    let stem = rel.strip_suffix(".rs").expect("a .rs file");
    let mut parts: Vec<String> = stem.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
        parts.pop();
    }
    parts
}

/// Blank out comments, string and char literals (keeping line breaks), so that a path in a
/// comment or a message is not taken for an import.
fn strip_comments_and_strings(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |c: u8| if c == b'\n' { b'\n' } else { b' ' };
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if b[i] == b'r' && matches!(b.get(i + 1), Some(b'"') | Some(b'#')) && {
            let prev = if i == 0 { b' ' } else { b[i - 1] };
            !(prev.is_ascii_alphanumeric() || prev == b'_')
        } {
            // Raw string r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(b[i]);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == b'"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&b'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &c in &b[i..j.min(b.len())] {
                out.push(blank(c));
            }
            i = j;
        } else if b[i] == b'"' {
            out.push(b' ');
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    out.push(b' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(b' ');
            i += 1;
        } else if b[i] == b'\'' {
            // A char literal ('a', '\n', '\u{..}'), not a lifetime ('a without a closing quote).
            let end = if b.get(i + 1) == Some(&b'\\') {
                b[i + 2..]
                    .iter()
                    .position(|&c| c == b'\'')
                    .map(|p| i + 2 + p)
            } else if b.get(i + 2) == Some(&b'\'') {
                Some(i + 2)
            } else {
                // A multi-byte char literal: the closing quote within 5 bytes.
                (i + 2..(i + 6).min(b.len())).find(|&k| b[k] == b'\'' && b[i + 1] >= 0x80)
            };
            match end {
                Some(e) => {
                    out.extend(std::iter::repeat_n(b' ', e + 1 - i));
                    i = e + 1;
                }
                None => {
                    out.push(b'\'');
                    i += 1;
                }
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The test modules a file declares, found on its code with comments and strings blanked:
/// `#[cfg(test)]` (other attributes may follow) on a `mod`.
#[derive(Debug, Default, PartialEq)]
struct TestModules {
    /// Byte ranges of the inline ones (`mod tests { ... }`), braces included.
    inline: Vec<std::ops::Range<usize>>,
    /// The out-of-line ones (`mod tests;`): the module's name and its `#[path]`, if any. Their
    /// files are test code; the code after such a declaration is not.
    files: Vec<(String, Option<String>)>,
}

fn test_modules(code: &str, original: &str) -> TestModules {
    let attr = regex::Regex::new(
        r"#\[cfg\(test\)\]((?:\s*#\[[^\]]*\])*)\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+([A-Za-z_][A-Za-z0-9_]*)\s*([{;])",
    )
    .expect("test module regex");
    let path_attr = regex::Regex::new(r#"#\[path\s*=\s*"([^"]+)"\s*\]"#).expect("path regex");
    let mut found = TestModules::default();
    for c in attr.captures_iter(code) {
        let whole = c.get(0).expect("match");
        if &c[3] == ";" {
            // The path is a string literal, blanked in `code`: read it from the original text.
            let attrs = c.get(1).expect("group");
            let path = path_attr
                .captures(&original[attrs.range()])
                .map(|p| p[1].to_string());
            found.files.push((c[2].to_string(), path));
            continue;
        }
        let open = whole.end() - 1;
        let mut depth = 0usize;
        let mut end = code.len();
        for (i, b) in code.bytes().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        found.inline.push(whole.start()..end);
    }
    found
}

/// `code` without its inline test modules (line breaks kept), and how many lines are left
/// outside them.
fn without_test_modules(code: &str, inline: &[std::ops::Range<usize>]) -> (String, usize) {
    let mut out = code.as_bytes().to_vec();
    let mut test_lines = 0;
    for r in inline {
        test_lines += code[r.clone()].matches('\n').count() + 1;
        for b in &mut out[r.clone()] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    let lines = code.lines().count().saturating_sub(test_lines);
    (String::from_utf8_lossy(&out).into_owned(), lines)
}

/// The files of the out-of-line test modules that `rel` declares (paths relative to `src/`).
fn test_module_files(rel: &str, files: &[(String, Option<String>)]) -> Vec<String> {
    let dir = match rel.rsplit_once('/') {
        Some((d, _)) => format!("{d}/"),
        None => String::new(),
    };
    let file = rel.rsplit('/').next().unwrap_or(rel);
    // A `mod x;` in `a/b.rs` is `a/b/x.rs`; in `a/mod.rs` or `lib.rs` it is `a/x.rs`.
    let child_dir = if file == "mod.rs" || file == "lib.rs" {
        dir.clone()
    } else {
        format!("{dir}{}/", file.trim_end_matches(".rs"))
    };
    files
        .iter()
        .flat_map(|(name, path)| match path {
            Some(p) => vec![format!("{dir}{p}")],
            None => vec![
                format!("{child_dir}{name}.rs"),
                format!("{child_dir}{name}/mod.rs"),
            ],
        })
        .collect()
}

fn load() -> Vec<SourceFile> {
    let src = src_dir();
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    let mut files = Vec::new();
    let mut test_files = BTreeSet::new();
    for p in paths {
        let rel = p
            .strip_prefix(&src)
            .expect("under src/")
            .to_string_lossy()
            .replace('\\', "/");
        if rel == "main.rs" || rel.starts_with("bin/") {
            continue; // the binary is its own crate
        }
        let text = std::fs::read_to_string(&p)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
        let stripped = strip_comments_and_strings(&text);
        let tests = test_modules(&stripped, &text);
        test_files.extend(test_module_files(&rel, &tests.files));
        let (code, lines_outside_tests) = without_test_modules(&stripped, &tests.inline);
        files.push(SourceFile {
            module: module_of(&rel),
            code,
            lines_outside_tests,
            rel,
        });
    }
    // A file that is a test module is test code as a whole.
    files.retain(|f| !test_files.contains(&f.rel));
    files
}

/// Expand a `use` tree such as `a::{b, c::{d, e as f}, self}` into paths.
fn expand_use_tree(tree: &str) -> Vec<Vec<String>> {
    fn split_top(s: &str) -> Vec<&str> {
        let mut parts = Vec::new();
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in s.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&s[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&s[start..]);
        parts
    }
    fn go(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let tree = tree.trim();
        if tree.is_empty() {
            return;
        }
        if let Some(open) = tree.find('{') {
            let head = tree[..open].trim().trim_end_matches("::");
            let inner = tree[open + 1..].trim_end().trim_end_matches('}');
            let mut p = prefix.to_vec();
            p.extend(
                head.split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string),
            );
            for part in split_top(inner) {
                go(&p, part, out);
            }
        } else {
            let path = tree.split(" as ").next().unwrap_or(tree);
            let mut p = prefix.to_vec();
            for seg in path.split("::").map(str::trim) {
                if seg == "self" || seg == "*" || seg.is_empty() {
                    continue;
                }
                p.push(seg.to_string());
            }
            out.push(p);
        }
    }
    let mut out = Vec::new();
    go(&[], tree, &mut out);
    out
}

/// Every module path a file's code names: `use` trees and inline `crate::`/`super::` paths.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let use_re = regex::Regex::new(r"(?s)\buse\s+([^;]+);").expect("use regex");
    for c in use_re.captures_iter(code) {
        out.extend(expand_use_tree(&c[1]));
    }
    let inline =
        regex::Regex::new(r"\b(?:crate|self|super)(?:\s*::\s*(?:super|[A-Za-z_][A-Za-z0-9_]*))+")
            .expect("path regex");
    for m in inline.find_iter(code) {
        let before = &code[..m.start()];
        // `use` trees were expanded above (this also skips `pub(crate) use` and `pub(super)`).
        let before = before.trim_end();
        let visibility = before.ends_with("pub(") || before.ends_with("pub(in");
        if before.ends_with("use") || visibility {
            continue;
        }
        out.push(
            m.as_str()
                .split("::")
                .map(|s| s.trim().to_string())
                .collect(),
        );
    }
    out
}

/// The file a path leads to, seen from `from` (the module of the file that names it): the
/// longest prefix that is a module with a file. `None` for other crates (`std::`, `serde::`).
fn resolve(path: &[String], from: &ModPath, modules: &BTreeMap<ModPath, String>) -> Option<String> {
    let first = path.first()?;
    let (mut base, rest): (ModPath, &[String]) = match first.as_str() {
        "crate" => (Vec::new(), &path[1..]),
        "self" => (from.clone(), &path[1..]),
        "super" => {
            let mut b = from.clone();
            let mut i = 0;
            while path.get(i).is_some_and(|s| s == "super") {
                b.pop();
                i += 1;
            }
            (b, &path[i..])
        }
        child => {
            // `use request::X` in a module that has a child `request`.
            let mut m = from.clone();
            m.push(child.to_string());
            if !modules.contains_key(&m) {
                return None;
            }
            (from.clone(), path)
        }
    };
    // The crate root only declares modules: a path that names nothing below it is not an import.
    let mut found = if base.is_empty() {
        None
    } else {
        modules.get(&base).cloned()
    };
    for seg in rest {
        base.push(seg.clone());
        match modules.get(&base) {
            Some(f) => found = Some(f.clone()),
            None => break,
        }
    }
    found
}

/// File -> the files it imports (itself excluded).
fn graph(files: &[SourceFile]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeMap<ModPath, String> = files
        .iter()
        .map(|f| (f.module.clone(), f.rel.clone()))
        .collect();
    let mut g = BTreeMap::new();
    for f in files {
        let targets: BTreeSet<String> = named_paths(&f.code)
            .iter()
            .filter_map(|p| resolve(p, &f.module, &modules))
            .filter(|t| *t != f.rel)
            .collect();
        g.insert(f.rel.clone(), targets);
    }
    g
}

/// The strongly connected components with more than one file (Tarjan).
fn cycles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        next: usize,
        out: Vec<Vec<String>>,
    }
    impl<'a> T<'a> {
        fn visit(&mut self, v: &'a str) {
            self.index.insert(v, self.next);
            self.low.insert(v, self.next);
            self.next += 1;
            self.stack.push(v);
            self.on.insert(v);
            for w in self.g.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let l = self.low[w].min(self.low[v]);
                    self.low.insert(v, l);
                } else if self.on.contains(w) {
                    let l = self.index[w].min(self.low[v]);
                    self.low.insert(v, l);
                }
            }
            if self.low[v] == self.index[v] {
                let mut comp = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on.remove(w);
                    comp.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
}

fn layer(rel: &str) -> &str {
    let first = rel.split('/').next().unwrap_or(rel);
    first.strip_suffix(".rs").unwrap_or(first)
}

#[test]
fn no_file_level_import_cycles() {
    let g = graph(&load());
    let found: Vec<Vec<String>> = cycles(&g);
    let described: Vec<String> = found
        .iter()
        .map(|comp| {
            let edges: Vec<String> = comp
                .iter()
                .flat_map(|a| {
                    g[a].iter()
                        .filter(|b| comp.contains(b))
                        .map(move |b| format!("{a} -> {b}"))
                })
                .collect();
            format!("{} ({})", comp.join(", "), edges.join("; "))
        })
        .collect();
    assert!(
        described.is_empty(),
        "files that import each other (directly or around a loop):\n{}",
        described.join("\n")
    );
}

/// What each top-level module (a "layer": the first part of a file's path under `src/`) may
/// import besides itself, as `docs/architecture.md` ("Layers and import rules") states it. A
/// target is a layer, or one file of a layer (`client/stream.rs`).
const ALLOWED: &[(&str, &[&str])] = &[
    ("core", &[]),
    ("net", &[]),
    ("client", &["core", "net"]),
    ("store", &["core"]),
    ("server", &["core", "net"]),
    ("codegen", &["core"]),
    ("logging", &["core", "store"]),
    ("learn", &["core", "store"]),
    ("engine", &["core", "client", "store", "server", "logging"]),
    ("cli", FRONT_END),
    ("tui", FRONT_END),
    // The crate root only declares the modules.
    ("lib", &[]),
];

/// What the two front ends import: never each other, never the server or the HTTP client
/// (the engine starts the one and sends with the other), except the stream client below both.
const FRONT_END: &[&str] = &[
    "core",
    "engine",
    "store",
    "codegen",
    "learn",
    "logging",
    "client/stream.rs",
];

/// The front-end files that import the server: `signscope serve`, its command line, and its CI
/// flags (`serve_ci.rs`: the ready file, the run's verdict, the JSON log).
const SERVER_COMMANDS: &[&str] = &["cli/serve.rs", "cli/serve_ci.rs"];

/// The imports of `g` that `docs/architecture.md` does not allow, one line each.
fn wrong_way_imports(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut wrong = Vec::new();
    for (from, targets) in g {
        let from_layer = layer(from);
        let Some((_, allowed)) = ALLOWED.iter().find(|(l, _)| *l == from_layer) else {
            wrong.push(format!(
                "{from}: a new layer; add it to docs/architecture.md and to ALLOWED"
            ));
            continue;
        };
        for to in targets {
            let to_layer = layer(to);
            let ok = to_layer == from_layer
                || allowed.contains(&to_layer)
                || allowed.contains(&to.as_str())
                || (to_layer == "server" && SERVER_COMMANDS.contains(&from.as_str()));
            if !ok {
                wrong.push(format!("{from} imports {to}"));
            }
        }
    }
    wrong
}

#[test]
fn layers_import_only_what_docs_architecture_allows() {
    let wrong = wrong_way_imports(&graph(&load()));
    assert!(
        wrong.is_empty(),
        "imports that run the wrong way (docs/architecture.md):\n{}",
        wrong.join("\n")
    );
    // The rules themselves: a front end reaching the other, the server or the client's sending
    // side is found; the stream client and the server command are not.
    let g = |edges: &[(&str, &str)]| {
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
        }
        g
    };
    let found = wrong_way_imports(&g(&[
        ("tui/runtime/perform/traffic.rs", "cli/watch.rs"),
        ("cli/mod.rs", "tui/mod.rs"),
        ("tui/mod.rs", "server/mod.rs"),
        ("cli/send.rs", "client.rs"),
        ("client.rs", "logging.rs"),
        ("tui/runtime/perform/traffic.rs", "client/stream.rs"),
        ("cli/serve.rs", "server/mod.rs"),
        ("engine/session.rs", "server/mod.rs"),
        ("core/sign.rs", "core/request.rs"),
    ]));
    assert_eq!(
        found,
        [
            "cli/mod.rs imports tui/mod.rs",
            "cli/send.rs imports client.rs",
            "client.rs imports logging.rs",
            "tui/mod.rs imports server/mod.rs",
            "tui/runtime/perform/traffic.rs imports cli/watch.rs",
        ]
    );
}

/// Where the workbench's rooms are broken (`docs/architecture.md`, "The workbench"): a
/// component (`tui/components/X/`) that imports the runtime, a runtime file that reaches past a
/// component's face (its `mod.rs`) into one of its files, and a component file that does I/O
/// itself (the runtime performs every effect).
fn room_breaches(g: &BTreeMap<String, BTreeSet<String>>, files: &[SourceFile]) -> Vec<String> {
    const COMPONENTS: &str = "tui/components/";
    const RUNTIME: &str = "tui/runtime/";
    /// Paths that do I/O or start threads, as a component's code would name them.
    const IO: &[&str] = &[
        "tokio::",
        "std::fs",
        "std::process",
        "std::thread",
        "std::net",
        "std::env",
        "arboard::",
    ];
    let face = |to: &str| {
        to.strip_prefix(COMPONENTS)
            .is_some_and(|rest| rest == "mod.rs" || rest.split('/').nth(1) == Some("mod.rs"))
    };
    let mut found = Vec::new();
    for (from, targets) in g {
        for to in targets {
            if from.starts_with(COMPONENTS) && to.starts_with(RUNTIME) {
                found.push(format!("{from} imports the runtime ({to})"));
            }
            if from.starts_with(RUNTIME) && to.starts_with(COMPONENTS) && !face(to) {
                found.push(format!("{from} reaches into {to}"));
            }
        }
    }
    for f in files.iter().filter(|f| f.rel.starts_with(COMPONENTS)) {
        for io in IO.iter().filter(|io| f.code.contains(*io)) {
            found.push(format!("{} does I/O itself ({io})", f.rel));
        }
    }
    found
}

#[test]
fn components_are_pure_and_the_runtime_uses_their_faces() {
    let files = load();
    let found = room_breaches(&graph(&files), &files);
    assert!(
        found.is_empty(),
        "every effect is performed in tui/runtime/, through each component's mod.rs \
         (docs/architecture.md, \"The workbench\"):\n{}",
        found.join("\n")
    );
    // The check finds what it looks for; a component's face and its own files are allowed.
    let files = vec![
        file("lib.rs", "pub mod tui;"),
        file("tui/mod.rs", "pub mod components; pub mod runtime;"),
        file("tui/components/mod.rs", "pub mod traffic;"),
        file("tui/components/traffic/mod.rs", "pub mod feed; pub use feed::Msg;"),
        file(
            "tui/components/traffic/feed.rs",
            "fn f() { tokio::spawn(async {}); crate::tui::runtime::Effects::new(); }\n// std::fs",
        ),
        file("tui/runtime/mod.rs", "pub mod perform;"),
        file(
            "tui/runtime/perform.rs",
            "use crate::tui::components::traffic::Msg;\nuse crate::tui::components::traffic::feed::spawn;",
        ),
        file("tui/runtime/ok.rs", "use crate::tui::components::traffic::Msg; fn f() { std::fs::read(\"x\"); }"),
    ];
    assert_eq!(
        room_breaches(&graph(&files), &files),
        [
            "tui/components/traffic/feed.rs imports the runtime (tui/runtime/mod.rs)",
            "tui/runtime/perform.rs reaches into tui/components/traffic/feed.rs",
            "tui/components/traffic/feed.rs does I/O itself (tokio::)",
        ]
    );
}

#[test]
fn no_source_file_is_over_1000_lines_outside_its_tests() {
    let long: Vec<String> = load()
        .iter()
        .filter(|f| f.lines_outside_tests > MAX_LINES)
        .map(|f| format!("src/{} ({} lines)", f.rel, f.lines_outside_tests))
        .collect();
    assert!(
        long.is_empty(),
        "split along responsibilities:\n{}",
        long.join("\n")
    );
}

/// Where a view's code reads the colour setting itself instead of drawing with the one
/// `&Theme` the frame passes it: a call that reads the environment or builds a theme of its own.
fn own_colour_reads(code: &str) -> Vec<&'static str> {
    ["no_color_from_env", "env::var", "Theme::new("]
        .into_iter()
        .filter(|n| code.contains(n))
        .collect()
}

/// `NO_COLOR` is read once, at the workbench's start, into the one `Theme` of the App; every
/// view draws with the `&Theme` it is given (`docs/architecture.md`, "The workbench").
#[test]
fn no_view_reads_no_color_itself() {
    let found: Vec<String> = load()
        .iter()
        .filter(|f| f.rel.starts_with("tui/components/") && !f.rel.ends_with("tests.rs"))
        .filter_map(|f| {
            let reads = own_colour_reads(&f.code);
            (!reads.is_empty()).then(|| format!("src/{}: {}", f.rel, reads.join(", ")))
        })
        .collect();
    assert!(
        found.is_empty(),
        "these views choose their colours themselves; take `theme: &Theme` in draw instead:\n{}",
        found.join("\n")
    );
    // The check finds what it looks for.
    assert_eq!(
        own_colour_reads("let t = Theme::new(Theme::no_color_from_env());"),
        ["no_color_from_env", "Theme::new("]
    );
    assert!(own_colour_reads("fn draw(f: &mut Frame, theme: &Theme) { theme.ok(); }").is_empty());
}

/// The messages of the global `Message` that are no view's own: the terminal's input, the
/// clock, a signal, and the runtime's answers that several views take (a profile loaded, saved,
/// renamed, listed; a copy done; a sentence for the status line; a capture to load into the
/// editor, which may ask first). Every other message is a view's, wrapped as `View(ViewMsg)`.
const GLOBAL_MESSAGES: &[&str] = &[
    "Key",
    "Mouse",
    "Paste",
    "Resize",
    "Tick",
    "Terminate",
    "Copied",
    "Status",
    "ProfileLoaded",
    "ProfileRenamed",
    "ProfileList",
    "ProfileSaved",
    "LoadRequest",
];

/// The variants of `enum name` in `code` (comments already blanked), each with what follows
/// its name up to the next variant: `("Events", "(EventsMsg)")`.
fn enum_variants(code: &str, name: &str) -> Vec<(String, String)> {
    let Some(start) = code.find(&format!("enum {name} {{")) else {
        return vec![];
    };
    let body = &code[start + name.len() + 7..];
    let (mut depth, mut out, mut cur) = (0i32, Vec::new(), String::new());
    for c in body.chars() {
        match c {
            '{' | '(' | '<' => depth += 1,
            '}' | ')' | '>' if depth == 0 => break,
            '}' | ')' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out.iter()
        .map(|v| v.trim())
        .filter(|v| !v.is_empty())
        .map(|v| {
            let v = v.trim_start_matches(|c: char| c == '#' || c.is_whitespace());
            let end = v
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(v.len());
            (v[..end].to_string(), v[end..].split_whitespace().collect())
        })
        .collect()
}

/// What is wrong with the one component protocol (`docs/architecture.md`, "The workbench"):
/// a variant of `Message` that is neither global ([`GLOBAL_MESSAGES`]) nor a view's message
/// wrapped (`Request(RequestMsg)` for the view `components/request`), and a view without its own
/// `update(&mut State, Msg) -> Vec<Effect>`.
fn protocol_breaches(message_code: &str, views: &[(String, String)]) -> Vec<String> {
    let camel = |dir: &str| {
        let mut c = dir.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    };
    let wrappers: BTreeSet<(String, String)> = views
        .iter()
        .map(|(dir, _)| (camel(dir), format!("({}Msg)", camel(dir))))
        .collect();
    let mut bad: Vec<String> = enum_variants(message_code, "Message")
        .into_iter()
        .filter(|(name, _)| !GLOBAL_MESSAGES.contains(&name.as_str()))
        .filter(|v| !wrappers.contains(v))
        .map(|(name, rest)| {
            format!("Message::{name}{rest} is a view's message: move it into that view's own Msg")
        })
        .collect();
    for (dir, code) in views {
        let update = code.find("pub fn update(").map(|i| {
            let sig = &code[i..];
            // What the view is given besides its message (the profile in use) may come
            // first; rustfmt may end a long argument list with a comma.
            sig[..sig.find('{').unwrap_or(sig.len())]
                .split_whitespace()
                .collect::<String>()
                .replace(",)", ")")
        });
        let want = format!("{}Msg)->Vec<{}Effect>", camel(dir), camel(dir));
        if !update.as_deref().is_some_and(|u| u.ends_with(&want)) {
            bad.push(format!(
                "components/{dir} has no `pub fn update(&mut State, {0}Msg) -> Vec<{0}Effect>`",
                camel(dir)
            ));
        }
    }
    bad
}

/// One component protocol: the global `Message` holds only global messages and one wrapper per
/// view, and every view has its own `update(&mut State, Msg) -> Vec<Effect>`.
#[test]
fn one_component_protocol_no_view_message_in_the_global_message() {
    let files = load();
    let message = files
        .iter()
        .find(|f| f.rel == "tui/message.rs")
        .expect("src/tui/message.rs");
    let mut views: BTreeMap<String, String> = BTreeMap::new();
    for f in &files {
        if let Some(rest) = f.rel.strip_prefix("tui/components/") {
            if let Some((dir, _)) = rest.split_once('/') {
                views.entry(dir.to_string()).or_default().push_str(&f.code);
            }
        }
    }
    let views: Vec<(String, String)> = views.into_iter().collect();
    assert!(
        views.len() >= 7,
        "the views: {:?}",
        views.iter().map(|v| &v.0).collect::<Vec<_>>()
    );
    let bad = protocol_breaches(&message.code, &views);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The check finds what it looks for: a view's answer in the global Message, a view whose
    // update returns the runtime's commands.
    let msg = "pub enum Message { Key(KeyEvent), Signed { id: u64, result: Result<A, B> }, Request(RequestMsg), }";
    let view = |code: &str| vec![("request".to_string(), code.to_string())];
    let ok = "pub fn update(req: &mut RequestState, msg: RequestMsg) -> Vec<RequestEffect> {}";
    assert_eq!(
        protocol_breaches(msg, &view(ok)).len(),
        1,
        "{:?}",
        protocol_breaches(msg, &view(ok))
    );
    assert!(protocol_breaches(msg, &view(ok))[0].starts_with("Message::Signed"));
    let free = "pub fn on_key(req: &mut RequestState, key: KeyEvent) -> Vec<Command> {}";
    let good = "pub enum Message { Key(KeyEvent), Request(RequestMsg) }";
    assert!(protocol_breaches(good, &view(ok)).is_empty());
    assert_eq!(protocol_breaches(good, &view(free)).len(), 1);
}

/// Where the one component trait (`tui/component.rs`, `docs/architecture.md`, "The
/// workbench") is not used: a view (`components/X`, its code in `views`) that does not
/// implement it with its own message and effects (`type Msg = XMsg;`, `type Effect =
/// XEffect;`), a popup module (`popups`) that does not implement it, and the router or the
/// screen (`callers`) calling a view's free `update` or `draw` instead of the trait.
fn trait_breaches(
    views: &[(String, String)],
    popups: &[(String, String)],
    callers: &[(&str, &str)],
) -> Vec<String> {
    let camel = |dir: &str| {
        let mut c = dir.chars();
        c.next()
            .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
            .unwrap_or_default()
    };
    let flat = |code: &str| code.split_whitespace().collect::<String>();
    let mut bad = Vec::new();
    for (dir, code) in views {
        let code = flat(code);
        let x = camel(dir);
        let own = [format!("typeMsg={x}Msg;"), format!("typeEffect={x}Effect;")];
        if !code.contains("implComponentfor") || !own.iter().all(|t| code.contains(t.as_str())) {
            bad.push(format!(
                "components/{dir} does not implement `Component` with its own {x}Msg and {x}Effect"
            ));
        }
    }
    for (rel, code) in popups {
        // A popup that answers keys only implements `KeyPopup`, whose one impl makes it a
        // `Component` (`tui/popups/component.rs`).
        let code = flat(code);
        if !code.contains("implComponentfor") && !code.contains("implKeyPopupfor") {
            bad.push(format!("{rel} does not implement `Component`"));
        }
    }
    for (rel, code) in callers {
        let code = flat(code);
        for view in views.iter().map(|(dir, _)| dir) {
            for f in ["update", "draw", "draw_with_cursor"] {
                if code.contains(&format!("{view}::{f}(")) {
                    bad.push(format!(
                        "{rel} calls {view}::{f} instead of the `Component` trait"
                    ));
                }
            }
        }
    }
    bad
}

/// Every view and every popup is a `Component` (one trait: state, messages, effects, update,
/// draw), and the router and the screen call the views through it.
#[test]
fn every_view_and_popup_implements_the_one_component_trait() {
    let files = load();
    let mut views: BTreeMap<String, String> = BTreeMap::new();
    let mut popups = Vec::new();
    for f in &files {
        if let Some((dir, _)) = f
            .rel
            .strip_prefix("tui/components/")
            .and_then(|r| r.split_once('/'))
        {
            views.entry(dir.to_string()).or_default().push_str(&f.code);
        }
        let popup = f.rel.strip_prefix("tui/popups/");
        if popup.is_some_and(|p| !["mod.rs", "component.rs"].contains(&p) && !p.contains('/')) {
            popups.push((f.rel.clone(), f.code.clone()));
        }
    }
    let views: Vec<(String, String)> = views.into_iter().collect();
    assert!(
        views.len() >= 7 && popups.len() >= 9,
        "{views:?} {popups:?}"
    );
    let code = |rel: &str| {
        files
            .iter()
            .find(|f| f.rel == rel)
            .map_or("", |f| f.code.as_str())
    };
    let callers = [
        ("tui/update.rs", code("tui/update.rs")),
        ("tui/view/mod.rs", code("tui/view/mod.rs")),
    ];
    let bad = trait_breaches(&views, &popups, &callers);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The check finds what it looks for: a view on free functions only, one implementing the
    // trait with another view's message, a popup without it, a caller of a free `update`.
    let view = |dir: &str, code: &str| (dir.to_string(), code.to_string());
    let good =
        "impl Component for HistoryState { type Msg = HistoryMsg; type Effect = HistoryEffect; }";
    let views = [
        view(
            "history",
            "pub fn update(s: &mut HistoryState, msg: HistoryMsg) -> Vec<HistoryEffect> {}",
        ),
        view(
            "events",
            "impl Component for EventsState { type Msg = HistoryMsg; type Effect = EventsEffect; }",
        ),
    ];
    let popups = [(
        "tui/popups/help.rs".to_string(),
        "fn on_key() {}".to_string(),
    )];
    let callers = [(
        "tui/update.rs",
        "let fx = history::update(&mut app.history, m);",
    )];
    assert_eq!(
        trait_breaches(&views, &popups, &callers),
        [
            "components/history does not implement `Component` with its own HistoryMsg and HistoryEffect",
            "components/events does not implement `Component` with its own EventsMsg and EventsEffect",
            "tui/popups/help.rs does not implement `Component`",
            "tui/update.rs calls history::update instead of the `Component` trait",
        ]
    );
    assert!(trait_breaches(&[view("history", good)], &[], &[]).is_empty());
    let key_popup = [(
        "tui/popups/help.rs".to_string(),
        "impl KeyPopup for Help {}".to_string(),
    )];
    assert!(trait_breaches(&[], &key_popup, &[]).is_empty());
}

/// What is wrong with the popups' structure (`docs/architecture.md`, "The workbench"): the
/// router (`update_code`) naming a popup (`Popup::Help`: its keys belong in the popup's own
/// module), and a variant of `enum Popup` (in `popups_code`) that does not wrap a type of its
/// own module `tui/popups/<module>.rs` (one of `files`).
fn popup_breaches(update_code: &str, popups_code: &str, files: &[&str]) -> Vec<String> {
    let mut bad: Vec<String> = update_code
        .match_indices("Popup::")
        .filter_map(|(i, _)| {
            let rest = &update_code[i + 7..];
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let name = &rest[..end];
            name.starts_with(|c: char| c.is_ascii_uppercase()).then(|| {
                format!("update.rs names Popup::{name}: its keys go in its module in tui/popups/")
            })
        })
        .collect();
    let variants = enum_variants(popups_code, "Popup");
    if variants.is_empty() {
        bad.push("tui/popups/mod.rs has no `enum Popup`".into());
    }
    for (name, rest) in variants {
        let module = rest
            .strip_prefix('(')
            .and_then(|r| r.split_once("::"))
            .map(|(m, _)| m.to_string());
        match module {
            Some(m) if files.contains(&format!("tui/popups/{m}.rs").as_str()) => {}
            _ => bad.push(format!(
                "Popup::{name}{rest} is not a type of its own module in tui/popups/"
            )),
        }
    }
    bad
}

/// One module per popup: the router names no popup, and each popup is a type of its own file.
#[test]
fn each_popup_is_its_own_module_and_the_router_names_none() {
    let files = load();
    let code = |rel: &str| {
        &files
            .iter()
            .find(|f| f.rel == rel)
            .unwrap_or_else(|| panic!("src/{rel}"))
            .code
    };
    let rels: Vec<&str> = files.iter().map(|f| f.rel.as_str()).collect();
    let bad = popup_breaches(code("tui/update.rs"), code("tui/popups/mod.rs"), &rels);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The check finds what it looks for: a popup matched in the router, a popup whose state
    // is not its module's.
    let popups = "pub enum Popup { Help(help::Help), Quit { sure: bool }, }";
    let found = popup_breaches(
        "fn on_key() { match p { Popup::Help(h) => {} } Popup::of_action(a) }",
        popups,
        &["tui/popups/help.rs"],
    );
    assert_eq!(
        found,
        [
            "update.rs names Popup::Help: its keys go in its module in tui/popups/",
            "Popup::Quit{sure:bool} is not a type of its own module in tui/popups/",
        ]
    );
}

/// What breaks the one status channel (`docs/architecture.md`, "The workbench"), in the files
/// `(rel, code)` of `src/tui`: a view's state with a `pub status: String` of its own (its
/// messages are its `Status` effect), and the App's status line set anywhere but `App::say`
/// (`app.status = ...` outside `tui/app.rs`, or `self.status =` in it more than once).
fn status_breaches(files: &[(&str, &str)]) -> Vec<String> {
    let assigns = |code: &str, receiver: &str| {
        code.match_indices(&format!("{receiver}.status"))
            .filter(|(i, m)| {
                let rest = code[i + m.len()..].trim_start();
                rest.starts_with('=') && !rest.starts_with("==")
            })
            .count()
    };
    let mut bad = vec![];
    for (rel, code) in files {
        let squeezed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
        if rel.starts_with("tui/components/") && squeezed.contains("pub status: String") {
            bad.push(format!(
                "{rel}: a view keeps its own `pub status: String`; say it as its Status effect"
            ));
        }
        if *rel != "tui/app.rs" && assigns(code, "app") > 0 {
            bad.push(format!("{rel}: sets app.status; say it with App::say"));
        }
        if *rel == "tui/app.rs" && assigns(code, "self") > 1 {
            bad.push(format!("{rel}: sets self.status outside App::say"));
        }
    }
    bad
}

/// The files of `src/tui` as `(rel, code)`, the form the workbench's checks read.
fn tui_files(files: &[SourceFile]) -> Vec<(&str, &str)> {
    files
        .iter()
        .filter(|f| f.rel.starts_with("tui/"))
        .map(|f| (f.rel.as_str(), f.code.as_str()))
        .collect()
}

/// One status channel: the App's status line is set only by `App::say`, and no view keeps a
/// status of its own.
#[test]
fn one_status_channel_set_only_by_app_say() {
    let files = load();
    let tui = tui_files(&files);
    assert!(tui.iter().any(|(r, _)| *r == "tui/app.rs"));
    let bad = status_breaches(&tui);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The check finds what it looks for.
    let found = status_breaches(&[
        (
            "tui/components/events/state.rs",
            "pub struct EventsState { pub status:\n String, }",
        ),
        ("tui/update.rs", "fn say(app: &mut App) { app.status = s; }"),
        ("tui/view/mod.rs", "if app.status == s {}"),
        (
            "tui/app.rs",
            "fn say(&mut self) { self.status = t; } fn f(&mut self) { self.status = u; }",
        ),
    ]);
    assert_eq!(found.len(), 3, "{found:?}");
}

/// What gives the profile in use or the REST key in use a second holder (`docs/architecture.md`,
/// "The workbench"), in the files `(rel, code)` of `src/tui`: a view's state keeping the
/// profile's name or kind (`profile_name`, `is_demo`) or a copy of it (`current:
/// Option<Profile>`) — the App owns it (`App::profile`) and hands it to `update` and `draw` —
/// and the request view's state keeping the key in a `Secret` besides the one its profile's
/// source gave (`ProfileKey`): the key in use is the REST key field's text.
fn owner_breaches(files: &[(&str, &str)]) -> Vec<String> {
    // A field holding a key: a `Secret`, or a `KeyInfo` (which carries one).
    let holders = regex::Regex::new(r"pub \w+: (Secret|KeyInfo),").unwrap();
    let mut bad = vec![];
    for (rel, code) in files {
        if !(rel.starts_with("tui/components/") && rel.ends_with("state.rs")) {
            continue;
        }
        let squeezed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
        for copy in [
            "profile_name: String",
            "is_demo: bool",
            "current: Option<Profile>",
        ] {
            if squeezed.contains(copy) {
                bad.push(format!(
                    "{rel}: `{copy}` keeps a copy of the profile in use; read the App's (`CurrentProfile`) given to update/draw"
                ));
            }
        }
        if holders.find_iter(&squeezed).count() > 1 {
            bad.push(format!(
                "{rel}: the REST key is kept twice; the key in use is the field's text"
            ));
        }
    }
    bad
}

/// One owner each: the profile in use is the App's, the REST key in use the field's text.
#[test]
fn the_profile_in_use_and_the_rest_key_have_one_owner_each() {
    let files = load();
    let tui = tui_files(&files);
    assert!(tui
        .iter()
        .any(|(r, _)| *r == "tui/components/request/state.rs"));
    let bad = owner_breaches(&tui);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The check finds what it looks for.
    let found = owner_breaches(&[
        (
            "tui/components/request/state.rs",
            "pub struct RequestState { pub profile_name:\n String, pub is_demo: bool, \
             pub key_info: KeyInfo, } pub struct ProfileKey { pub secret: Secret, } \
             fn new(key: KeyInfo, now: Now) {}",
        ),
        (
            "tui/components/profiles/state.rs",
            "pub struct ProfilesState { pub current: Option<Profile>, }",
        ),
        // A message carrying a load is not a holder.
        (
            "tui/components/request/message.rs",
            "pub struct ProfileLoad { pub is_demo: bool, }",
        ),
    ]);
    assert_eq!(found.len(), 4, "{found:?}");
}

/// A source file of a checker's own test: `code` as the checker reads it.
fn file(rel: &str, code: &str) -> SourceFile {
    SourceFile {
        rel: rel.to_string(),
        module: module_of(rel),
        code: strip_comments_and_strings(code),
        lines_outside_tests: 1,
    }
}

/// The checker itself: a loop, a parent re-export and a wrong-way import are all found.
#[test]
fn the_checker_finds_what_it_looks_for() {
    let files = vec![
        file("lib.rs", "pub mod core; pub mod store;"),
        file(
            "core/mod.rs",
            "pub mod a; pub mod b;\npub use a::{A, B as C};",
        ),
        file("core/a.rs", "use super::b::Thing;\n// use crate::store::x;"),
        file(
            "core/b.rs",
            "fn f() { crate::core::a::g(); let s = \"crate::store\"; }",
        ),
        file(
            "store/mod.rs",
            "use crate::core::A;\nuse crate::{server::X, core::b};",
        ),
        file(
            "core/c.rs",
            "pub(crate) use crate::core::A;\npub(super) fn f() { g(crate::store::x) }",
        ),
    ];
    let g = graph(&files);
    assert_eq!(
        g["core/a.rs"],
        BTreeSet::from(["core/b.rs".to_string()]),
        "comments are not imports"
    );
    assert_eq!(
        g["core/b.rs"],
        BTreeSet::from(["core/a.rs".to_string()]),
        "strings are not imports; inline paths are"
    );
    assert_eq!(
        g["store/mod.rs"],
        BTreeSet::from(["core/b.rs".to_string(), "core/mod.rs".to_string()]),
        "use trees are expanded; a module without a file (server here) is not resolved"
    );
    assert_eq!(
        g["core/c.rs"],
        BTreeSet::from(["core/mod.rs".to_string(), "store/mod.rs".to_string()]),
        "visibilities are not paths; an argument is"
    );
    let found = cycles(&g);
    assert_eq!(
        found,
        vec![vec!["core/a.rs".to_string(), "core/b.rs".to_string()]]
    );
    // A child importing through the parent that re-exports it.
    let files = vec![
        file("core/mod.rs", "pub mod a;\npub use a::A;"),
        file("core/a.rs", "use crate::core::Other;"),
    ];
    assert_eq!(cycles(&graph(&files)).len(), 1);
    assert_eq!(
        expand_use_tree("crate::a::{b, c::{d, e as f}, self}"),
        vec![
            vec!["crate", "a", "b"],
            vec!["crate", "a", "c", "d"],
            vec!["crate", "a", "c", "e"],
            vec!["crate", "a"],
        ]
    );
    // Test modules: an inline one is cut out wherever it stands (the code after it is still
    // checked); a declared one (`mod x;`) names a test file and cuts nothing.
    let text = r#"fn a() {}
#[cfg(test)]
fn helper() { crate::store::x() }
#[cfg(test)]
#[path = "keys_tests.rs"]
mod views_tests;
#[cfg(test)]
mod tests {
    fn t() { let s = "}"; crate::server::y() }
}
fn after() { crate::client::z() }
"#;
    let code = strip_comments_and_strings(text);
    let tests = test_modules(&code, text);
    assert_eq!(
        tests.files,
        [("views_tests".to_string(), Some("keys_tests.rs".to_string()))]
    );
    assert_eq!(tests.inline.len(), 1);
    let (kept, lines) = without_test_modules(&code, &tests.inline);
    assert_eq!(lines, 7, "the four lines of `mod tests` are not counted");
    assert!(kept.contains("crate::store::x") && kept.contains("crate::client::z"));
    assert!(!kept.contains("crate::server::y"), "{kept}");
    assert_eq!(
        test_module_files("tui/keymap.rs", &tests.files),
        ["tui/keys_tests.rs"]
    );
    assert_eq!(
        test_module_files(
            "tui/components/diagnose/mod.rs",
            &[("body_file_tests".to_string(), None)]
        ),
        [
            "tui/components/diagnose/body_file_tests.rs",
            "tui/components/diagnose/body_file_tests/mod.rs"
        ]
    );
    assert_eq!(
        test_module_files("store/profile.rs", &[("t".to_string(), None)]),
        ["store/profile/t.rs", "store/profile/t/mod.rs"]
    );
}

/// Every `.rs` file under the repository's `src/`, `tests/`, `benches/` and `examples/`.
fn all_rust_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    for dir in ["src", "tests", "benches", "examples"] {
        if root.join(dir).is_dir() {
            rust_files(&root.join(dir), &mut files);
        }
    }
    files
}

/// True when `code` calls `App::new` (not `TestApp::new` or another type's `new`).
fn builds_an_app(code: &str) -> bool {
    code.match_indices("App::new(").any(|(at, _)| {
        !code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// The files, other than the fixture, whose code (comments and strings aside) names
/// `TestBackend` or builds an `App` (the workbench itself builds its one in `src/tui/mod.rs`).
fn test_terminals_outside_the_fixture(files: &[(String, String)]) -> Vec<String> {
    files
        .iter()
        .filter(|(rel, _)| rel != "src/tui/test_util.rs")
        .filter(|(rel, text)| {
            let code = strip_comments_and_strings(text);
            code.contains("TestBackend") || (rel != "src/tui/mod.rs" && builds_an_app(&code))
        })
        .map(|(rel, _)| rel.clone())
        .collect()
}

#[test]
fn only_the_tui_test_fixture_builds_a_test_terminal() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files: Vec<(String, String)> = all_rust_files()
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
            (rel, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    assert!(files.iter().any(|(rel, _)| rel == "src/tui/test_util.rs"));
    let found = test_terminals_outside_the_fixture(&files);
    assert!(
        found.is_empty(),
        "draw through src/tui/test_util.rs (TestApp, component_buffer, render_buffer) instead:\n{}",
        found.join("\n")
    );
}

/// What a line cites that is not in the repository: the contract's source documents, a
/// tracker's issue number or a work session's number.
fn outside_citations(line: &str) -> Vec<String> {
    let docs = [
        ["decisions", "md"].join("."),
        ["service-interface", "md"].join("."),
    ];
    let mut found: Vec<String> = docs
        .iter()
        .filter(|d| line.contains(d.as_str()))
        .cloned()
        .collect();
    for word in ["issue ", "session "] {
        for (at, _) in line.match_indices(word) {
            if line[at + word.len()..].starts_with(|c: char| c.is_ascii_digit()) {
                found.push(format!("{word}N"));
            }
        }
    }
    found
}

/// Every text file of the repository (build output and git's own files aside).
fn repository_text_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            if name != "target" && name != ".git" {
                repository_text_files(&p, out);
            }
        } else {
            out.push(p);
        }
    }
}

#[test]
fn nothing_cites_documents_or_numbers_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    repository_text_files(root, &mut files);
    let mut found = vec![];
    for p in files {
        // Binary files (images, fixtures) are not prose.
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            for what in outside_citations(line) {
                found.push(format!(
                    "{}:{}: {what}",
                    p.strip_prefix(root).unwrap().display(),
                    n + 1
                ));
            }
        }
    }
    assert!(
        found.is_empty(),
        "cite the repository's docs/... instead:\n{}",
        found.join("\n")
    );
}

/// The two checks above find what they look for.
#[test]
fn the_fixture_and_citation_checks_find_what_they_look_for() {
    let files = vec![
        (
            "src/tui/test_util.rs".to_string(),
            "Terminal::new(TestBackend::new(1, 1))".to_string(),
        ),
        (
            "benches/x.rs".to_string(),
            "let t = ratatui::backend::TestBackend::new(1, 1);".to_string(),
        ),
        (
            "src/tui/y.rs".to_string(),
            "// a TestBackend in a comment\nlet s = \"TestBackend\";".to_string(),
        ),
    ];
    assert_eq!(test_terminals_outside_the_fixture(&files), ["benches/x.rs"]);
    let apps = vec![
        (
            "src/tui/mod.rs".to_string(),
            "let a = App::new(x);".to_string(),
        ),
        (
            "src/tui/z_tests.rs".to_string(),
            "let a = TestApp::new(80, 24);".to_string(),
        ),
        (
            "tests/w.rs".to_string(),
            "let a = signscope::tui::app::App::new(x);".to_string(),
        ),
    ];
    assert_eq!(test_terminals_outside_the_fixture(&apps), ["tests/w.rs"]);
    let line = format!(
        "see {} and {} (tracker {}7, work {}2)",
        ["decisions", "md"].join("."),
        ["service-interface", "md"].join("."),
        "issue ",
        "session "
    );
    assert_eq!(outside_citations(&line).len(), 4, "{line}");
    assert!(outside_citations("an issue with 2 sessions, docs/signing.md").is_empty());
}

/// The audited places where `unsafe_code` (denied crate-wide in Cargo.toml's `[lints]`) is
/// allowed: the file and how many `#[allow(unsafe_code)]` it holds. A new one is added here on
/// purpose, with its SAFETY comment.
const AUDITED_UNSAFE: &[(&str, usize)] = &[
    // glibc's mmap threshold in the workbench and malloc_trim in the server: the RSS follows
    // what the process holds.
    ("src/tui/mod.rs", 1),
    ("src/server/store.rs", 1),
    // SIGPIPE's default action for commands without sockets (`signscope history | head -1`).
    ("src/cli/mod.rs", 1),
    // kill(pid, 0): is the process holding a lock still alive.
    ("src/store/private.rs", 1),
    // getrlimit/setrlimit: the server raises its soft open-files limit to the hard one.
    ("src/server/connections.rs", 1),
];

/// Each `#[allow(unsafe_code)]` of `text`: its line, and whether a `SAFETY` comment is within
/// four lines of it.
fn unsafe_allowances(text: &str) -> Vec<(usize, bool)> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| {
            l.contains("#[allow(unsafe_code)]") || l.contains("#![allow(unsafe_code)]")
        })
        .map(|(i, _)| {
            let near = &lines[i.saturating_sub(4)..(i + 5).min(lines.len())];
            (i + 1, near.iter().any(|l| l.contains("SAFETY")))
        })
        .collect()
}

#[test]
fn unsafe_code_is_allowed_only_in_the_audited_places_each_with_its_safety_comment() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    rust_files(&src_dir(), &mut files);
    let mut found: BTreeMap<String, usize> = BTreeMap::new();
    let mut unexplained = vec![];
    for p in files {
        let rel = p.strip_prefix(root).unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&p).unwrap();
        for (line, explained) in unsafe_allowances(&text) {
            *found.entry(rel.clone()).or_default() += 1;
            if !explained {
                unexplained.push(format!("{rel}:{line}"));
            }
        }
    }
    let audited: BTreeMap<String, usize> = AUDITED_UNSAFE
        .iter()
        .map(|(f, n)| (f.to_string(), *n))
        .collect();
    assert_eq!(found, audited, "unsafe code outside the audited places");
    assert!(
        unexplained.is_empty(),
        "no SAFETY comment next to:\n{}",
        unexplained.join("\n")
    );
    let sample = "fn f() {\n    #[allow(unsafe_code)]\n    unsafe { g() }\n}\n";
    assert_eq!(unsafe_allowances(sample), [(2, false)]);
}

/// The longest a function outside tests may be, signature to closing brace.
const MAX_FN_LINES: usize = 100;

/// The functions in `code` (comments, strings and test modules blanked) longer than
/// [`MAX_FN_LINES`]: each as its name, the line its `fn` stands on, and its length in lines.
/// A function's length runs from its `fn` to its closing brace; one declared without a body
/// (`fn f();` in a trait) has none.
fn long_functions(code: &str) -> Vec<(String, usize, usize)> {
    let fn_name = regex::Regex::new(r"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)").expect("fn regex");
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    for c in fn_name.captures_iter(code) {
        let start = c.get(0).expect("match").start();
        let Some(open) = body_start(&bytes[c.get(0).expect("match").end()..]) else {
            continue;
        };
        let open = c.get(0).expect("match").end() + open;
        let mut depth = 0usize;
        let mut close = code.len();
        for (i, b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        close = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        let lines = code[start..close].matches('\n').count() + 1;
        if lines > MAX_FN_LINES {
            let line = code[..start].matches('\n').count() + 1;
            out.push((c[1].to_string(), line, lines));
        }
    }
    out
}

/// Where a signature's body opens (the offset of its `{`), or `None` when it ends in `;`
/// first: brackets, parentheses and generics may hold either.
fn body_start(after_name: &[u8]) -> Option<usize> {
    let mut depth = 0i32;
    for (i, b) in after_name.iter().enumerate() {
        match b {
            b'(' | b'[' | b'<' => depth += 1,
            b')' | b']' => depth -= 1,
            // `->` is no closing angle bracket.
            b'>' if i == 0 || after_name[i - 1] != b'-' => depth -= 1,
            b'{' if depth <= 0 => return Some(i),
            b';' if depth <= 0 => return None,
            _ => {}
        }
    }
    None
}

#[test]
fn no_function_outside_tests_is_over_100_lines() {
    let long: Vec<String> = load()
        .iter()
        .flat_map(|f| {
            long_functions(&f.code)
                .into_iter()
                .map(|(name, line, lines)| {
                    format!("src/{}:{line} fn {name} ({lines} lines)", f.rel)
                })
        })
        .collect();
    assert!(
        long.is_empty(),
        "split each along what its parts do (one function per effect family, a validator per \
         rule group, a draw per panel region), never into numbered parts:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_long_function_check_finds_what_it_looks_for() {
    let body = "    x();\n".repeat(MAX_FN_LINES - 2);
    let fits = format!("fn fits(a: [u8; 2]) -> Vec<u8> {{\n{body}}}\n");
    assert!(
        long_functions(&fits).is_empty(),
        "exactly the limit is allowed"
    );
    let over = format!("trait T {{ fn decl(&self); }}\nfn over<F: Fn() -> u8>(f: F) {{\n    {{ f(); }}\n{body}}}\n");
    assert_eq!(
        long_functions(&over),
        vec![("over".to_string(), 2, MAX_FN_LINES + 1)]
    );
}
