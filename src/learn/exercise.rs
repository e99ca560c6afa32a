//! Exercises: signscope makes a request whose signature carries a mistake from the diagnosis
//! catalogue (docs/diagnosis.md), one at level 1 and two at once at level 2, shows only what a
//! server would see, and the learner names the mistake(s) from a short list. Deterministic from
//! a seed; every generated exercise is checked with [`diagnose`], so the diagnosis that explains
//! it afterwards names exactly the mistakes the learner had to find. Pure: time is an input.

use chrono::{DateTime, Utc};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use crate::core::diagnose::head::Head;
use crate::core::diagnose::{Diagnosis, Encoding, Mistake, Part, Signing, CATALOGUE};
use crate::core::time::format_timestamp;
use crate::core::verify::ReceivedRequest;
use crate::core::{Secret, AUTH_ALGO, CONTENT_TYPE_JSON, DEFAULT_HEADER_PREFIX};

/// The account every exercise is signed for.
pub const API_KEY: &str = "exercise-public-key";
/// Its REST key (the server knows it; the exercise's client made its mistakes with it).
pub const REST_KEY: &str = "exercise-rest-key";

/// One exercise.
#[derive(Clone, Debug)]
pub struct Exercise {
    pub level: u8,
    pub seed: u64,
    /// When the client signed it (the server's clock in the fix form of the exercise).
    pub time: DateTime<Utc>,
    /// Which request it is (an index into the exercise requests).
    base: usize,
    /// What the server receives, Authorization header included.
    pub request: ReceivedRequest,
    /// The mistakes the client made: the answer.
    pub mistakes: Vec<Mistake>,
    /// The short list to pick from (holds the answer), in display order.
    pub choices: Vec<Mistake>,
}

/// A request before any mistake: its body is one the vendor's SDK sends
/// (`docs/indexing-bodies.md`), so the request without a mistake is accepted whole.
struct Base {
    method: &'static str,
    path: &'static str,
    query: &'static str,
    body: &'static str,
}

const BASES: [Base; 3] = [
    Base {
        method: "PUT",
        path: "/v2/batch",
        query: "test=1",
        body: r#"[{"id":"faq/delivery","type":"KLEVU_CMS"}]"#,
    },
    Base {
        method: "PATCH",
        path: "/v2/batch/",
        query: "",
        body: r#"{"sku-2":[{"op":"replace","path":"/attributes/name","value":{"default":"Boots"}}]}"#,
    },
    Base {
        method: "PUT",
        path: "/v2/attributes/colour",
        query: "",
        body: r#"{"attributeName":"colour","datatype":"STRING","label":{"default":"Colour"}}"#,
    },
];

/// The mistakes exercises draw from on `base`: every mistake of the catalogue that can be made
/// there and changes the signature, each in its first such form (`Mistake::made_in`) whose
/// signature no simpler mistake gives (keys sorted in a body whose keys are already sorted
/// sign what re-serialising it does; the diagnosis names the simpler, docs/diagnosis.md D1).
/// No mistake is named here: a mistake added to the catalogue is drawn too.
fn pool(base: &Base, timestamp: &str) -> Vec<Mistake> {
    let right = signing(base, timestamp);
    let made: Vec<Vec<(Mistake, String)>> = CATALOGUE
        .iter()
        .map(|d| {
            Mistake::made_in(d, &right)
                .into_iter()
                .map(|(m, s)| (m, s.signature()))
                .collect()
        })
        .collect();
    // Which mistake each signature is told as: the simplest that gives it.
    let mut owner: std::collections::HashMap<&str, (u8, &str)> = Default::default();
    for (m, sig) in made.iter().flatten() {
        let this = (m.rewrite_rank(), m.code());
        let e = owner.entry(sig.as_str()).or_insert(this);
        *e = (*e).min(this);
    }
    made.iter()
        .filter_map(|forms| {
            forms
                .iter()
                .find(|(m, sig)| owner[sig.as_str()] == (m.rewrite_rank(), m.code()))
                .map(|(m, _)| m.clone())
        })
        .collect()
}

/// The documented signing of `base` at `timestamp`, before any mistake.
fn signing(base: &Base, timestamp: &str) -> Signing {
    let head = Head::expected(
        base.method,
        base.path,
        base.query,
        DEFAULT_HEADER_PREFIX,
        [
            timestamp.to_string(),
            API_KEY.to_string(),
            AUTH_ALGO.to_string(),
            CONTENT_TYPE_JSON.to_string(),
        ],
    );
    Signing::expected(head, base.body.as_bytes(), REST_KEY.as_bytes())
}

/// The signature a client making `mistakes` sends for `base` at `timestamp`: each mistake made
/// as the catalogue defines it (`Mistake::apply`), the same definition the diagnosis uses.
fn mistaken_signature(base: &Base, timestamp: &str, mistakes: &[Mistake]) -> String {
    let mut signing = signing(base, timestamp);
    for m in mistakes {
        m.apply(&mut signing);
    }
    signing.signature()
}

/// The request the server receives: the correct parts, the mistaken signature.
fn received(base: &Base, timestamp: &str, signature: &str) -> ReceivedRequest {
    let prefix = DEFAULT_HEADER_PREFIX;
    let headers = [
        (format!("X-{prefix}-TIMESTAMP"), timestamp.to_string()),
        (format!("X-{prefix}-APIKEY"), API_KEY.to_string()),
        (format!("X-{prefix}-AUTH-ALGO"), AUTH_ALGO.to_string()),
        ("Content-Type".to_string(), CONTENT_TYPE_JSON.to_string()),
        ("Authorization".to_string(), format!("Bearer {signature}")),
    ];
    ReceivedRequest {
        method: base.method.to_string(),
        path: base.path.to_string(),
        query: base.query.to_string(),
        headers: headers
            .into_iter()
            .map(|(n, v)| (n, v.into_bytes()))
            .collect(),
        body: bytes::Bytes::from_static(base.body.as_bytes()),
    }
}

fn codes(ms: &[Mistake]) -> Vec<&'static str> {
    let mut c: Vec<_> = ms.iter().map(Mistake::code).collect();
    c.sort_unstable();
    c
}

/// Draws tried before an exercise the diagnosis does not name exactly is given anyway.
const MAX_ATTEMPTS: u32 = 100;

/// The exercise of `level` (1 or 2; other values are clamped) for `seed`, timestamped `now`.
/// The same level, seed and time give the same exercise.
pub fn generate(level: u8, seed: u64, now: DateTime<Utc>) -> Exercise {
    let level = level.clamp(1, 2);
    let mut rng = StdRng::seed_from_u64(seed ^ (u64::from(level) << 56));
    let timestamp = format_timestamp(now);
    // Nearly every draw is named exactly (a URL-safe signature without '+' or '/' is not); the
    // bound only keeps a future change of the catalogue from looping forever.
    let mut attempt = 0;
    loop {
        attempt += 1;
        let base_index = rng.random_range(0..BASES.len());
        let base = &BASES[base_index];
        let mut candidates = pool(base, &timestamp);
        candidates.shuffle(&mut rng);
        let mut mistakes: Vec<Mistake> = Vec::new();
        for m in &candidates {
            if mistakes.len() == level as usize {
                break;
            }
            if mistakes
                .iter()
                .all(|x| knob_of(x.part()) != knob_of(m.part()))
            {
                mistakes.push(m.clone());
            }
        }
        let signature = mistaken_signature(base, &timestamp, &mistakes);
        let request = received(base, &timestamp, &signature);
        // Only what the diagnosis names exactly is asked: the explanation afterwards then
        // agrees with the answer (a URL-safe signature without '+' or '/' is plain base64).
        let found = diagnose_exercise(
            &request,
            DEFAULT_HEADER_PREFIX,
            &Secret::new(REST_KEY),
            &signature,
        );
        if codes(&found.findings) != codes(&mistakes) && attempt < MAX_ATTEMPTS {
            continue;
        }
        let mut choices: Vec<Mistake> = candidates
            .iter()
            .filter(|c| !mistakes.iter().any(|m| m.code() == c.code()))
            .take(if level == 1 { 3 } else { 4 })
            .cloned()
            .chain(mistakes.iter().cloned())
            .collect();
        choices.shuffle(&mut rng);
        return Exercise {
            level,
            seed,
            time: now,
            base: base_index,
            request,
            mistakes,
            choices,
        };
    }
}

impl Exercise {
    /// The request as a server sees it: request line, headers, blank line, body.
    pub fn server_view(&self) -> String {
        let r = &self.request;
        let target = crate::core::http_text::target(&r.path, &r.query);
        let mut s = format!("{} {target} HTTP/1.1\n", r.method);
        for (n, v) in &r.headers {
            s.push_str(&format!("{n}: {}\n", String::from_utf8_lossy(v)));
        }
        s.push('\n');
        s.push_str(&String::from_utf8_lossy(&r.body));
        s.push('\n');
        s
    }

    /// Whether the picked choices (indexes into [`Exercise::choices`]) are exactly the mistakes.
    pub fn is_answer(&self, picked: &[usize]) -> bool {
        let mut got: Vec<&'static str> = picked
            .iter()
            .filter_map(|&i| self.choices.get(i))
            .map(Mistake::code)
            .collect();
        got.sort_unstable();
        got.dedup();
        got == codes(&self.mistakes)
    }

    /// The client's settings, one per part of the signing, as the exercise's client has them:
    /// the "fix" form of the exercise changes them until the server accepts the request.
    pub fn knobs(&self) -> Vec<Knob> {
        let base = &BASES[self.base];
        let timestamp = self.timestamp();
        let pool = pool(base, &timestamp);
        KNOBS
            .iter()
            .filter_map(|&(parts, name)| {
                let mut options = vec![None];
                options.extend(
                    pool.iter()
                        .filter(|m| parts.contains(&m.part()))
                        .cloned()
                        .map(Some),
                );
                if options.len() < 2 {
                    return None;
                }
                let chosen = options
                    .iter()
                    .position(|o| {
                        o.as_ref()
                            .is_some_and(|m| self.mistakes.iter().any(|x| x.code() == m.code()))
                    })
                    .unwrap_or(0);
                Some(Knob {
                    name,
                    parts,
                    options,
                    chosen,
                    base: self.base,
                    timestamp: timestamp.clone(),
                })
            })
            .collect()
    }

    /// The request a client with these settings sends (same parts, its signature).
    pub fn request_with(&self, knobs: &[Knob]) -> ReceivedRequest {
        let base = &BASES[self.base];
        let mistakes: Vec<Mistake> = knobs.iter().filter_map(|k| k.mistake().cloned()).collect();
        let ts = self.timestamp();
        received(base, &ts, &mistaken_signature(base, &ts, &mistakes))
    }

    /// The timestamp the request was signed with.
    pub fn timestamp(&self) -> String {
        self.request
            .header_text(&format!("X-{DEFAULT_HEADER_PREFIX}-TIMESTAMP"))
    }

    /// What the local server answers to the request a client with these settings sends at
    /// `now`: `Ok` when accepted, else why it is refused. The check is the server's own
    /// verifier (`core::verify`) with the exercise account.
    pub fn send_with(
        &self,
        knobs: &[Knob],
        now: DateTime<Utc>,
    ) -> Result<(), crate::core::verify::Rejection> {
        let keys: std::collections::HashMap<String, Secret> =
            [(API_KEY.to_string(), Secret::new(REST_KEY))].into();
        let plan = crate::core::verify::DiagnosisPlan::Run(exercise_options());
        crate::core::verify::verify_all(
            &self.request_with(knobs),
            &keys,
            &crate::core::VerifyOptions::default(),
            now,
            &plan,
        )
        .into_result()
        .map(|_| ())
    }

    /// The diagnosis of the request, as the server's key sees it: the explanation afterwards.
    pub fn diagnosis(&self) -> Diagnosis {
        let sig = crate::core::diagnose::provided_signature(&self.request).unwrap_or_default();
        diagnose_exercise(
            &self.request,
            DEFAULT_HEADER_PREFIX,
            &Secret::new(REST_KEY),
            &sig,
        )
    }
}

/// The client's settings, each covering parts of the signing, in the order they are listed;
/// an exercise's two mistakes are of two settings. Every part is covered, so every mistake of
/// the catalogue can be fixed.
const KNOBS: [(&[Part], &str); 11] = [
    (&[Part::Method], "method line"),
    (&[Part::Path], "path line"),
    (&[Part::Query], "query line"),
    (&[Part::LineEnd], "line ends"),
    (&[Part::NameCase, Part::NamePrefix], "header names"),
    (&[Part::Order], "header lines"),
    (&[Part::Timestamp, Part::ContentType], "header value"),
    (&[Part::Body], "body"),
    (&[Part::Key], "HMAC key"),
    (&[Part::Hash], "HMAC"),
    (&[Part::Encoding], "signature"),
];

/// The setting (an index into [`KNOBS`]) that covers a part.
fn knob_of(part: Part) -> usize {
    KNOBS
        .iter()
        .position(|(parts, _)| parts.contains(&part))
        .unwrap_or(KNOBS.len())
}

/// One setting of the exercise's client: the part it covers, what it can do there (`None`:
/// the documented way) and what it does now.
#[derive(Clone, Debug)]
pub struct Knob {
    pub name: &'static str,
    parts: &'static [Part],
    pub options: Vec<Option<Mistake>>,
    pub chosen: usize,
    base: usize,
    timestamp: String,
}

impl Knob {
    /// The mistake the setting makes now, if any.
    pub fn mistake(&self) -> Option<&Mistake> {
        self.options.get(self.chosen).and_then(Option::as_ref)
    }

    /// Move to the next option (wrapping).
    pub fn cycle(&mut self) {
        self.chosen = (self.chosen + 1) % self.options.len();
    }

    /// What the client does with this setting now, shown as the value it signs or sends (so
    /// that telling the right one from a wrong one takes knowing the rule, not reading a label).
    pub fn value(&self) -> String {
        self.value_of(self.options.get(self.chosen).and_then(Option::as_ref))
    }

    /// What the client signs or sends in this setting's parts with mistake `m` made (or none):
    /// read off the signing the mistake gives, so no mistake is named here.
    fn value_of(&self, m: Option<&Mistake>) -> String {
        let base = &BASES[self.base];
        let right = signing(base, &self.timestamp);
        let mut s = right.clone();
        if let Some(m) = m {
            m.apply(&mut s);
        }
        let mut values: Vec<String> = Vec::new();
        for &part in self.parts {
            let v = part_value(part, &s, &right);
            if !values.contains(&v) {
                values.push(v);
            }
        }
        values.join(", ")
    }
}

/// What a signing has in one part, as a learner reads it (`right`: the documented signing, for
/// the body and key, which are told by how they differ from it).
fn part_value(part: Part, s: &Signing, right: &Signing) -> String {
    const NAMES: [&str; 4] = ["TIMESTAMP", "APIKEY", "AUTH-ALGO", "Content-Type"];
    let h = &s.head;
    let name = |n: String| {
        if h.lower_names {
            n.to_ascii_lowercase()
        } else {
            n
        }
    };
    match part {
        Part::Method => h.method.clone(),
        Part::Path => h.path.clone(),
        Part::Query => match h.query.as_deref() {
            None => "left out".into(),
            Some("") => "an empty line".into(),
            Some(q) => q.to_string(),
        },
        Part::LineEnd => if h.eol == "\n" { "LF" } else { "CRLF" }.into(),
        // The prefix shows in the names.
        Part::NameCase | Part::NamePrefix => format!(
            "{}=, {}=",
            name(format!("X-{}-TIMESTAMP", h.prefix)),
            name("Content-Type".into())
        ),
        Part::Order => h
            .order
            .iter()
            .map(|&i| NAMES[i as usize])
            .collect::<Vec<_>>()
            .join(", "),
        Part::Timestamp => h.values[0].clone(),
        Part::ContentType => h.values[3].clone(),
        Part::Body => changed_value("the bytes sent", &s.body, &right.body),
        Part::Key if s.key == API_KEY.as_bytes() => "the public API key".into(),
        Part::Key => changed_value("the REST key", &s.key, &right.key),
        Part::Hash => format!("HMAC-SHA{}", s.hash.digest_algorithm().output_len() * 8),
        Part::Encoding => match s.encoding {
            Encoding::Base64 => "base64",
            Encoding::Hex => "hex",
            Encoding::UrlSafe => "URL-safe base64",
            Encoding::Unpadded => "base64 without its padding",
        }
        .into(),
    }
}

/// Bytes told by how they differ from the right ones (`name`): the same, the same then more,
/// or the bytes themselves with invisible characters shown, cut around where they differ.
fn changed_value(name: &str, got: &[u8], right: &[u8]) -> String {
    use crate::core::visible::escape_visible;
    if got == right {
        return name.to_string();
    }
    if let Some(tail) = got.strip_prefix(right) {
        return format!("{name}, then {}", escape_visible(tail));
    }
    if got.is_empty() {
        return "nothing".into();
    }
    const SHOWN: usize = 48;
    let text: Vec<char> = escape_visible(got).chars().collect();
    let same = text
        .iter()
        .zip(escape_visible(right).chars())
        .take_while(|(a, b)| **a == *b)
        .count();
    let start = same.saturating_sub(SHOWN / 3);
    let end = (start + SHOWN).min(text.len());
    format!(
        "{}{}{}",
        if start > 0 { "…" } else { "" },
        text[start..end].iter().collect::<String>(),
        if end < text.len() { "…" } else { "" }
    )
}

/// The diagnosis of an exercise's request: an exercise's clock read twice is one unit off (the
/// mistake's first form), so the clock search stays at its narrowest (±5 units, not the 4 MiB
/// budget's thousands of instants for these short bodies).
fn diagnose_exercise(req: &ReceivedRequest, prefix: &str, key: &Secret, sig: &str) -> Diagnosis {
    crate::core::diagnose::diagnose_with(req, prefix, key, sig, &exercise_options())
}

/// The diagnosis options of every exercise request, its checks in the fix form too.
fn exercise_options() -> crate::core::diagnose::DiagnoseOptions {
    crate::core::diagnose::DiagnoseOptions {
        clock_budget_bytes: Some(0),
        ..Default::default()
    }
}

/// A short name of a mistake for a pick list (the diagnosis explains it in full afterwards).
pub fn short_label(m: &Mistake) -> &'static str {
    m.label()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{verify, VerifyOptions};
    use std::collections::HashMap;

    /// The levels: how many mistakes the request carries.
    const LEVELS: [u8; 2] = [1, 2];

    impl Knob {
        /// Every option's value, in order.
        fn values(&self) -> Vec<String> {
            self.options
                .iter()
                .map(|o| self.value_of(o.as_ref()))
                .collect()
        }
    }

    fn now() -> DateTime<Utc> {
        "2026-11-22T10:00:00Z".parse().unwrap()
    }

    #[test]
    fn the_same_seed_gives_the_same_exercise_and_others_differ() {
        let a = generate(1, 7, now());
        let b = generate(1, 7, now());
        assert_eq!(a.server_view(), b.server_view());
        assert_eq!(codes(&a.mistakes), codes(&b.mistakes));
        let distinct: std::collections::BTreeSet<Vec<&str>> = (0..40)
            .map(|s| codes(&generate(1, s, now()).mistakes))
            .collect();
        assert!(distinct.len() >= 8, "{distinct:?}");
    }

    #[test]
    fn levels_carry_one_then_two_mistakes_of_different_parts_named_by_the_diagnosis() {
        for seed in 0..25 {
            for level in LEVELS {
                let e = generate(level, seed, now());
                assert_eq!(e.mistakes.len(), level as usize, "seed {seed}");
                if level == 2 {
                    assert_ne!(e.mistakes[0].part(), e.mistakes[1].part());
                }
                assert_eq!(
                    codes(&e.diagnosis().findings),
                    codes(&e.mistakes),
                    "seed {seed}"
                );
                assert!(e.choices.len() == if level == 1 { 4 } else { 6 });
            }
        }
    }

    #[test]
    fn every_mistake_of_the_catalogue_a_request_can_carry_is_drawn_and_named_exactly() {
        // The pool walks the catalogue: every mistake that changes an exercise request's
        // signature is in it, made alone it is what the diagnosis names (so `generate` can
        // give it), and level-1 exercises over enough seeds draw each one.
        let ts = format_timestamp(now());
        let mut pooled = std::collections::BTreeSet::new();
        for base in &BASES {
            let right = signing(base, &ts);
            let pool = pool(base, &ts);
            for d in CATALOGUE {
                if !Mistake::made_in(d, &right).is_empty() {
                    // Left out only where a simpler mistake signs the same.
                    let simpler = pool.iter().any(|m| {
                        m.rewrite_rank() <= d.rank
                            && Mistake::made_in(d, &right).iter().any(|(_, s)| {
                                mistaken_signature(base, &ts, std::slice::from_ref(m))
                                    == s.signature()
                            })
                    });
                    assert!(
                        pool.iter().any(|m| m.code() == d.code) || simpler,
                        "{} changes {} but is not drawn",
                        d.code,
                        base.path
                    );
                }
            }
            for m in &pool {
                let sig = mistaken_signature(base, &ts, std::slice::from_ref(m));
                let req = received(base, &ts, &sig);
                let found =
                    diagnose_exercise(&req, DEFAULT_HEADER_PREFIX, &Secret::new(REST_KEY), &sig);
                assert_eq!(
                    codes(&found.findings),
                    vec![m.code()],
                    "{m:?} on {}",
                    base.path
                );
                pooled.insert(m.code());
            }
        }
        assert!(pooled.len() >= 25, "{pooled:?}");
        let mut drawn = std::collections::BTreeSet::new();
        for seed in 0..1000 {
            drawn.extend(generate(1, seed, now()).mistakes.iter().map(Mistake::code));
            if drawn.len() == pooled.len() {
                break;
            }
        }
        let never: Vec<_> = pooled.difference(&drawn).collect();
        assert!(never.is_empty(), "never drawn: {never:?}");
    }

    #[test]
    fn the_server_rejects_every_exercise_request() {
        let keys: HashMap<String, Secret> = [(API_KEY.to_string(), Secret::new(REST_KEY))].into();
        for seed in 0..10 {
            let e = generate(1, seed, now());
            let outcome = verify(&e.request, &keys, &VerifyOptions::default(), now());
            assert!(outcome.is_err(), "seed {seed}");
        }
    }

    #[test]
    fn only_the_exact_set_of_mistakes_is_the_answer() {
        let e = generate(2, 3, now());
        let right: Vec<usize> = (0..e.choices.len())
            .filter(|&i| e.mistakes.iter().any(|m| m.code() == e.choices[i].code()))
            .collect();
        assert_eq!(right.len(), 2);
        assert!(e.is_answer(&right));
        assert!(e.is_answer(&[right[1], right[0]]));
        assert!(!e.is_answer(&right[..1]));
        let wrong = (0..e.choices.len()).find(|i| !right.contains(i)).unwrap();
        assert!(!e.is_answer(&[right[0], right[1], wrong]));
        assert!(!e.is_answer(&[right[0], wrong]));
    }

    #[test]
    fn the_server_view_shows_the_request_and_its_signature() {
        let e = generate(1, 1, now());
        let view = e.server_view();
        assert!(view.contains("Authorization: Bearer "), "{view}");
        assert!(
            view.contains("X-SVC-TIMESTAMP: 2026-11-22T10:00:00.000Z"),
            "{view}"
        );
    }

    #[test]
    fn fixing_the_clients_settings_until_the_server_accepts_solves_the_exercise() {
        for seed in 0..30 {
            for level in LEVELS {
                let e = generate(level, seed, now());
                let mut knobs = e.knobs();
                let wrong: Vec<&str> = knobs
                    .iter()
                    .filter_map(|k| k.mistake().map(Mistake::code))
                    .collect();
                assert_eq!(wrong.len(), level as usize, "seed {seed}: {wrong:?}");
                // As the exercise has them, the server refuses, with the same signature.
                assert_eq!(e.request_with(&knobs).headers, e.request.headers);
                assert!(e.send_with(&knobs, now()).is_err());
                // Fixing only one of two is still refused.
                if level == 2 {
                    let i = knobs.iter().position(|k| k.mistake().is_some()).unwrap();
                    knobs[i].chosen = 0;
                    assert!(e.send_with(&knobs, now()).is_err(), "seed {seed}");
                }
                for k in &mut knobs {
                    k.chosen = 0;
                }
                assert_eq!(e.send_with(&knobs, now()), Ok(()), "seed {seed}");
                // Every option reads as a different value.
                for k in &knobs {
                    let v = k.values();
                    let set: std::collections::BTreeSet<_> = v.iter().collect();
                    assert_eq!(set.len(), v.len(), "{}: {v:?}", k.name);
                }
            }
        }
    }

    #[test]
    fn a_setting_cycles_through_its_options_and_names_what_it_signs() {
        let e = generate(1, 2, now());
        let mut k = e
            .knobs()
            .into_iter()
            .find(|k| k.name == "signature")
            .unwrap();
        k.chosen = 0;
        assert_eq!(k.value(), "base64");
        k.cycle();
        assert!(k.mistake().is_some());
        for _ in 1..k.options.len() {
            k.cycle();
        }
        assert_eq!(k.chosen, 0);
    }
}
