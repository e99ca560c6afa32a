//! A run's results as text: progress lines, JUnit XML, TAP and JSON (pure).

use std::fmt::Write;

use super::judge::Check;

/// One test case: a request of a suite (or of a capture, `signscope check`) and its checks.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Case {
    /// The file it comes from, as the user named it.
    pub file: String,
    pub line: usize,
    pub name: String,
    pub checks: Vec<Check>,
    /// Why it could not run at all (a key that cannot be read, an unknown variable).
    pub error: Option<String>,
    pub duration_ms: f64,
    /// The diagnosis sentence of a refused signature, shown with a failure.
    pub diagnosis: Option<String>,
}

impl Case {
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.checks.iter().all(|c| c.passed)
    }

    /// `file:line`.
    pub fn place(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }

    /// One line per failure: `file:line: name: what: expected X, got Y`, then the diagnosis.
    pub fn failures(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .error
            .iter()
            .map(|e| format!("{}: {}: {e}", self.place(), self.name))
            .collect();
        for c in self.checks.iter().filter(|c| !c.passed) {
            out.push(format!(
                "{}: {}: {}: expected {}, got {}",
                self.place(),
                self.name,
                c.what,
                c.expected,
                c.actual
            ));
        }
        if !out.is_empty() {
            out.extend(self.diagnosis.iter().map(|d| format!("  diagnosis: {d}")));
        }
        out
    }
}

/// Totals of a run.
pub fn counts(cases: &[Case]) -> (usize, usize, usize) {
    let failed = cases.iter().filter(|c| !c.passed()).count();
    let checks = cases.iter().map(|c| c.checks.len()).sum();
    (cases.len(), failed, checks)
}

/// The progress line of one case (`ok`/`FAIL`, name, checks, time), coloured when asked.
pub fn progress_line(case: &Case, colour: bool) -> String {
    let (mark, paint) = if case.passed() {
        ("ok  ", "\x1b[32m")
    } else {
        ("FAIL", "\x1b[31m")
    };
    let mark = if colour {
        format!("{paint}{mark}\x1b[0m")
    } else {
        mark.to_string()
    };
    let passed = case.checks.iter().filter(|c| c.passed).count();
    format!(
        "{mark} {} ({}/{} checks, {:.0} ms)  {}",
        case.name,
        passed,
        case.checks.len(),
        case.duration_ms,
        case.place()
    )
}

/// The closing line: cases, failures, checks.
pub fn summary_line(cases: &[Case]) -> String {
    let (n, failed, checks) = counts(cases);
    format!("{n} requests, {failed} failed, {checks} checks")
}

fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 cannot carry other control characters at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// JUnit XML: one `<testsuite>` per file, one `<testcase>` per request, a `<failure>` naming
/// `file:line`, expected and actual (the shape of `tests/data/junit/junit-10.xsd`).
pub fn junit(cases: &[Case], timestamp: &str) -> String {
    let mut files: Vec<&str> = Vec::new();
    for c in cases {
        if !files.contains(&c.file.as_str()) {
            files.push(&c.file);
        }
    }
    let (n, failed, _) = counts(cases);
    let total: f64 = cases.iter().map(|c| c.duration_ms).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"signscope\" tests=\"{n}\" failures=\"{failed}\" errors=\"0\" time=\"{:.3}\">",
        total / 1000.0
    );
    for (id, file) in files.iter().enumerate() {
        let mine: Vec<&Case> = cases.iter().filter(|c| c.file == *file).collect();
        let fails = mine.iter().filter(|c| !c.passed()).count();
        let time: f64 = mine.iter().map(|c| c.duration_ms).sum();
        let _ = writeln!(
            out,
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{fails}\" errors=\"0\" id=\"{id}\" package=\"signscope\" hostname=\"localhost\" skipped=\"0\" time=\"{:.3}\" timestamp=\"{timestamp}\">",
            xml_escape(file),
            mine.len(),
            time / 1000.0
        );
        out.push_str("    <properties/>\n");
        for c in mine {
            junit_case(&mut out, c);
        }
        out.push_str("    <system-out/>\n    <system-err/>\n  </testsuite>\n");
    }
    out.push_str("</testsuites>\n");
    out
}

fn junit_case(out: &mut String, c: &Case) {
    let _ = write!(
        out,
        "    <testcase name=\"{}\" classname=\"{}\" time=\"{:.3}\"",
        xml_escape(&c.name),
        xml_escape(&c.place()),
        c.duration_ms / 1000.0
    );
    let failures = c.failures();
    if failures.is_empty() {
        out.push_str("/>\n");
        return;
    }
    let _ = writeln!(
        out,
        ">\n      <failure message=\"{}\" type=\"expectation\">{}</failure>\n    </testcase>",
        xml_escape(&failures[0]),
        xml_escape(&failures.join("\n"))
    );
}

/// TAP version 13: one test point per request, the failures as YAML-ish comments.
pub fn tap(cases: &[Case]) -> String {
    let mut out = format!("TAP version 13\n1..{}\n", cases.len());
    for (i, c) in cases.iter().enumerate() {
        let ok = if c.passed() { "ok" } else { "not ok" };
        let _ = writeln!(
            out,
            "{ok} {} - {} ({})",
            i + 1,
            c.name.replace('#', "\\#"),
            c.place()
        );
        for f in c.failures() {
            let _ = writeln!(out, "# {f}");
        }
    }
    out
}

/// One JSON document: totals and every case with its checks.
pub fn json(cases: &[Case]) -> String {
    let (n, failed, checks) = counts(cases);
    let list: Vec<serde_json::Value> = cases
        .iter()
        .map(|c| {
            serde_json::json!({
                "file": c.file,
                "line": c.line,
                "name": c.name,
                "passed": c.passed(),
                "duration_ms": c.duration_ms,
                "error": c.error,
                "diagnosis": c.diagnosis,
                "checks": c.checks,
            })
        })
        .collect();
    let v = serde_json::json!({"requests": n, "failed": failed, "checks": checks, "cases": list});
    format!("{v:#}\n")
}
