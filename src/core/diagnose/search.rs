//! The search: sign variants of the expected text, one mistake at a time and then every pair
//! that can co-occur, until one reproduces the provided signature; the smallest explanation wins.
//!
//! Cost is bounded: the provided signature is decoded once into the digests it can be (base64,
//! unpadded, URL-safe, hex), so the encoding and the hash function cost no search; only the
//! hash functions whose digest length occurs are computed; every comparison is constant-time
//! (`subtle`); and the bytes hashed per diagnosis stop at a budget (the diagnosis says so).

use subtle::ConstantTimeEq;

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use super::body::{build, NotBuilt, Recipe, Styled, CACHE_MAX, TREE_MAX};
use super::catalogue::{php_sdk_form, CATALOGUE};
use super::head::{Change, Head};
use super::mistake::{co_occur, Context, Form, Mistake};
use super::signing::{Encoding, How};

/// Bytes hashed per diagnosis before the search stops (1 GiB: the full search of a 1 MB body,
/// about 750 signatures, fits; a body of hundreds of MB gets the cheapest checks only).
pub const DEFAULT_BUDGET: u64 = 1024 * 1024 * 1024;

/// A digest the provided signature can be, with the encoding mistake it implies.
struct Target {
    digest: Vec<u8>,
    encoding: Option<Mistake>,
}

/// Every digest the provided signature decodes to (48 or 32 bytes only): standard base64, then
/// each encoding of the catalogue.
fn targets(provided: &str, encodings: &[(Mistake, Encoding)]) -> Vec<Target> {
    let mut out: Vec<Target> = Vec::new();
    let decoded = std::iter::once((None, Encoding::Base64))
        .chain(encodings.iter().map(|(m, e)| (Some(m), *e)));
    for (mistake, e) in decoded {
        if let Some(digest) = e.decode(provided) {
            if matches!(digest.len(), 48 | 32) && !out.iter().any(|t| t.digest == digest) {
                out.push(Target {
                    digest,
                    encoding: mistake.cloned(),
                });
            }
        }
    }
    out
}

/// Every form of every mistake of the catalogue in a request, in the catalogue's order.
fn all_forms(c: &Context<'_>) -> Vec<Form> {
    CATALOGUE.iter().flat_map(|d| (d.forms)(d, c)).collect()
}

/// The encodings of the catalogue (they do not depend on the request).
fn encodings(forms: &[Form]) -> Vec<(Mistake, Encoding)> {
    forms
        .iter()
        .filter_map(|f| match (&f.how, &f.mistakes[..]) {
            (How::Encoding(e), [m]) => Some((m.clone(), *e)),
            _ => None,
        })
        .collect()
}

/// Whether the provided signature can be any digest at all (48 or 32 bytes in a known encoding).
pub fn decodes_to_a_digest(provided: &str) -> bool {
    let head = Head::expected("", "", "", "", Default::default());
    let c = Context {
        base: &head,
        body: b"",
        key: "",
        others: &[],
        host: None,
        sent_order: None,
        clock_reach: 0,
        curl_file: None,
    };
    !targets(provided.trim(), &encodings(&all_forms(&c))).is_empty()
}

/// A REST key a client may have signed with instead of the right one.
pub struct KeyVariant {
    pub mistake: Mistake,
    pub bytes: Vec<u8>,
}

/// The key forms of the catalogue: each different key once, never the right one or an empty one.
fn key_variants(forms: &[Form], key: &[u8]) -> Vec<KeyVariant> {
    let mut out: Vec<KeyVariant> = Vec::new();
    for f in forms {
        if let (How::Key(bytes), [m]) = (&f.how, &f.mistakes[..]) {
            if bytes != key && !bytes.is_empty() && !out.iter().any(|k| k.bytes == *bytes) {
                out.push(KeyVariant {
                    mistake: m.clone(),
                    bytes: bytes.clone(),
                });
            }
        }
    }
    out
}

/// One head mistake (or the PHP SDK form's two at once) as changes to the head.
#[derive(Clone, Debug)]
struct HeadMod {
    mistakes: Vec<Mistake>,
    changes: Vec<Change>,
    /// Tried in pairs with other mistakes (docs/diagnosis.md D1 lists the forms tried alone).
    pairable: bool,
}

impl HeadMod {
    /// Whether this mod is a change made after signing.
    fn after_signing(&self) -> bool {
        self.mistakes.iter().any(Mistake::after_signing)
    }

    /// Whether two mods can be made by one client together: each two of their mistakes can
    /// co-occur (docs/diagnosis.md D1).
    fn composes_with(&self, other: &HeadMod) -> bool {
        self.mistakes
            .iter()
            .all(|a| other.mistakes.iter().all(|b| co_occur(a, b)))
    }

    /// The head with this mod's changes (and another's) made.
    fn on(&self, base: &Head, other: Option<&HeadMod>) -> Head {
        base.with_all(
            self.changes
                .iter()
                .chain(other.iter().flat_map(|o| &o.changes)),
        )
    }
}

/// The head forms of the catalogue that change the head, in order (a pair of them is then a
/// change too, or the search tries it once, as the single it equals).
fn head_mods(forms: &[Form], base: &Head) -> Vec<HeadMod> {
    let base_bytes = base.bytes();
    forms
        .iter()
        .filter_map(|f| match &f.how {
            How::Head(c) => Some(HeadMod {
                mistakes: f.mistakes.clone(),
                changes: vec![c.clone()],
                pairable: f.pairs,
            }),
            _ => None,
        })
        .filter(|m| m.on(base, None).bytes() != base_bytes)
        .collect()
}

/// The PHP SDK's form as one mod, when it is two mistakes at once for this request.
fn php_sdk_mod(base: &Head) -> Option<HeadMod> {
    let query = base.query.clone().unwrap_or_default();
    let form = php_sdk_form(&base.path, &query);
    (form.len() == 2).then(|| {
        let (mistakes, changes) = form.into_iter().unzip();
        HeadMod {
            mistakes,
            changes,
            pairable: true,
        }
    })
}

/// A body the client may have signed: a recipe and the mistakes it is (two for a form of two
/// body mistakes at once).
#[derive(Clone, Debug)]
struct BodyForm {
    recipe: Recipe,
    mistakes: Vec<Mistake>,
    after_signing: bool,
}

/// The body forms of the catalogue with this many mistakes each.
fn body_forms(forms: &[Form], n: usize) -> Vec<BodyForm> {
    forms
        .iter()
        .filter_map(|f| match &f.how {
            How::Body(r) if f.mistakes.len() == n => Some(BodyForm {
                recipe: *r,
                mistakes: f.mistakes.clone(),
                after_signing: f.mistakes.iter().any(Mistake::after_signing),
            }),
            _ => None,
        })
        .collect()
}

/// The forms of a request the rounds are made of.
struct Variants {
    mods: Vec<HeadMod>,
    php: Option<HeadMod>,
    singles: Vec<BodyForm>,
    pairs: Vec<BodyForm>,
}

/// What the search found and what it cost.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// The smallest explanation (empty when none).
    pub findings: Vec<Mistake>,
    /// Bytes hashed.
    pub hashed: u64,
    /// Signatures computed (one per hash function tried).
    pub signatures: u64,
    /// Signatures computed by each round: exact, singles, pairs, the PHP SDK form with one more.
    pub round_signatures: [u64; 4],
    /// The budget ran out before the search was complete.
    pub cut_short: bool,
    /// Variants not tried because sorting keys needs a tree the body is too large for.
    pub skipped_tree: bool,
    /// How far from the timestamp header's instant a clock read twice was tried (ms each way).
    pub clock_reach_ms: i64,
}

/// Everything the search needs about one request: the forms' context (its clock reach is the
/// search's own) and the key, the signature and the budgets.
pub struct Problem<'a> {
    pub ctx: Context<'a>,
    pub key: &'a [u8],
    pub provided: &'a str,
    pub budget: u64,
    /// Bytes the widening clock search may hash (docs/diagnosis.md D1).
    pub clock_budget: u64,
    /// Units the clock search reaches each way at most, whatever its budget allows.
    pub clock_units_max: i64,
    /// Threads that hash at once (1: all on the caller's thread).
    pub threads: usize,
}

/// A key variant with its HMAC keys made once (ring derives the inner and outer pads when a
/// key is made; every signature with that key starts from them).
struct PreparedKey {
    /// The key's bytes (to count the bytes an explanation changes).
    bytes: Vec<u8>,
    /// Each hash function tried, with the mistake it is (none for HMAC-SHA384).
    macs: Vec<(Option<Mistake>, ring::hmac::Key)>,
}

/// One signature to try: a key and a head (by index) with the body of its task, and the
/// mistakes they make together.
struct Job {
    key: usize,
    head: usize,
    mistakes: Vec<Mistake>,
}

/// Jobs that share one body: the sent one (`None`) or a variant, built once for all of them.
struct Task {
    body: Option<Recipe>,
    jobs: Vec<Job>,
    /// Bytes the jobs hash (the body variant's length estimated as the sent body's).
    cost: u64,
}

/// The candidates of the search: heads by index (each distinct head once) and every
/// (key, head, body) tried so far, so no signature is computed twice.
struct Planner<'p> {
    p: &'p Problem<'p>,
    keys: &'p [KeyVariant],
    heads: Vec<Vec<u8>>,
    head_ids: HashMap<Vec<u8>, usize>,
    tried: HashSet<(usize, usize, Option<Recipe>)>,
    /// Jobs per task at most, so a task never costs more than a sixteenth of the budget
    /// (a huge body still gets its first variants tried before the budget runs out).
    chunk: usize,
    hash_count: u64,
}

impl<'p> Planner<'p> {
    fn head(&mut self, bytes: Vec<u8>) -> usize {
        if let Some(&i) = self.head_ids.get(&bytes) {
            return i;
        }
        self.heads.push(bytes.clone());
        self.head_ids.insert(bytes, self.heads.len() - 1);
        self.heads.len() - 1
    }

    /// Body length a recipe hashes (a restyled body is estimated as the sent one).
    fn body_len(&self, body: &Option<Recipe>) -> u64 {
        match body {
            Some(r) if r.empty => 0,
            Some(r) => self.p.ctx.body.len() as u64 + u64::from(r.trailing_lf),
            None => self.p.ctx.body.len() as u64,
        }
    }

    /// Tasks for one body and these (key, head, mistakes), each candidate once; split in
    /// chunks of at most `chunk` jobs.
    fn tasks(
        &mut self,
        body: Option<Recipe>,
        candidates: impl IntoIterator<Item = (usize, Vec<u8>, Vec<Mistake>)>,
    ) -> Vec<Task> {
        let mut jobs = Vec::new();
        for (key, head, mistakes) in candidates {
            let head = self.head(head);
            if self.tried.insert((key, head, body)) {
                jobs.push(Job {
                    key,
                    head,
                    mistakes,
                });
            }
        }
        let body_len = self.body_len(&body);
        let mut out = Vec::new();
        while !jobs.is_empty() {
            let rest = jobs.split_off(jobs.len().min(self.chunk));
            let cost = jobs
                .iter()
                .map(|j| self.heads[j.head].len() as u64 + body_len)
                .sum::<u64>()
                * self.hash_count;
            out.push(Task {
                body,
                jobs: std::mem::replace(&mut jobs, rest),
                cost,
            });
        }
        out
    }
}

/// What the workers share: the next task to claim and the budget taken so far.
struct Claims {
    next: usize,
    reserved: u64,
    cut_short: bool,
}

/// What one worker found and hashed.
#[derive(Default)]
struct Found {
    /// Each explanation with the bytes it changes.
    matches: Vec<(Vec<Mistake>, u64)>,
    hashed: u64,
    signatures: u64,
    skipped_tree: bool,
}

/// Search singles, then pairs, then the PHP SDK's form with one more mistake; each round is
/// complete before the next starts, and the search stops after the first round that explains
/// the signature (its explanations are the smallest) or when the budget runs out.
pub fn search(p: &Problem<'_>) -> Outcome {
    let reach = clock_reach(p);
    let ctx = Context {
        clock_reach: reach.0,
        ..p.ctx
    };
    let forms = all_forms(&ctx);
    let targets = targets(p.provided, &encodings(&forms));
    let hashes = hash_functions(&forms, &targets);
    let mut out = Outcome::default();
    if hashes.is_empty() {
        return out;
    }
    let variants = Variants {
        mods: head_mods(&forms, p.ctx.base),
        php: php_sdk_mod(p.ctx.base),
        singles: body_forms(&forms, 1),
        pairs: body_forms(&forms, 2),
    };
    let key_forms = key_variants(&forms, p.key);
    let prepare = |bytes: &[u8]| PreparedKey {
        bytes: bytes.to_vec(),
        macs: hashes
            .iter()
            .map(|(m, alg)| (m.clone(), ring::hmac::Key::new(*alg, bytes)))
            .collect(),
    };
    let keys: Vec<PreparedKey> = std::iter::once(prepare(p.key))
        .chain(key_forms.iter().map(|k| prepare(&k.bytes)))
        .collect();
    let per_task = (p.budget / 16 / (p.ctx.body.len() as u64 + 256)).max(1);
    let mut plan = Planner {
        p,
        keys: &key_forms,
        heads: Vec::new(),
        head_ids: HashMap::new(),
        tried: HashSet::new(),
        chunk: usize::try_from(per_task).unwrap_or(usize::MAX),
        hash_count: hashes.len() as u64,
    };
    // A body up to CACHE_MAX has each re-serialisation built once for every round.
    let styled = (p.ctx.body.len() <= CACHE_MAX).then(Styled::default);
    let mut found: Vec<(Vec<Mistake>, u64)> = Vec::new();
    out.clock_reach_ms = reach.1;
    for (i, round) in [Round::Exact, Round::Singles, Round::Pairs, Round::PhpAndOne]
        .into_iter()
        .enumerate()
    {
        let tasks = round.tasks(&mut plan, &variants, &mut out);
        let r = run_tasks(
            &tasks,
            &plan.heads,
            &keys,
            &targets,
            p,
            styled.as_ref(),
            out.hashed,
        );
        out.hashed += r.hashed;
        out.signatures += r.signatures;
        out.round_signatures[i] = r.signatures;
        out.skipped_tree |= r.skipped_tree;
        found = r.matches;
        if !found.is_empty() {
            break;
        }
        if r.cut_short {
            out.cut_short = true;
            break;
        }
    }
    out.findings = simplest(found);
    out
}

/// The right hash function, and each of the catalogue's, when a digest of its length is among
/// the targets.
fn hash_functions(
    forms: &[Form],
    targets: &[Target],
) -> Vec<(Option<Mistake>, ring::hmac::Algorithm)> {
    let mut hashes: Vec<(Option<Mistake>, ring::hmac::Algorithm)> = Vec::new();
    let wanted = |alg: &ring::hmac::Algorithm| {
        let len = alg.digest_algorithm().output_len();
        targets.iter().any(|t| t.digest.len() == len)
    };
    if wanted(&ring::hmac::HMAC_SHA384) {
        hashes.push((None, ring::hmac::HMAC_SHA384));
    }
    for f in forms {
        if let (How::Hash(alg), [m]) = (&f.how, &f.mistakes[..]) {
            if wanted(alg) {
                hashes.push((Some(m.clone()), *alg));
            }
        }
    }
    hashes
}

/// The simplest explanation (docs/diagnosis.md D1): the fewest mistakes (the round that found
/// it), then the fewest bytes changed, then the smaller rewrite; then a fixed order, whatever
/// thread found it first. Empty when nothing explains the signature.
fn simplest(mut found: Vec<(Vec<Mistake>, u64)>) -> Vec<Mistake> {
    found.sort_by_cached_key(|(ms, changed)| {
        (
            ms.len(),
            *changed,
            ms.iter().map(|m| u32::from(m.rewrite_rank())).sum::<u32>(),
            format!("{ms:?}"),
        )
    });
    found
        .into_iter()
        .next()
        .map(|(ms, _)| ms)
        .unwrap_or_default()
}

/// The widening clock search: how many units of the timestamp's precision it reaches each way
/// (outward from the header's instant, one unit at a time, while the signatures fit in
/// `p.clock_budget` bytes hashed, at least 5, at most `p.clock_units_max`), and that reach in
/// milliseconds. Pure: the budget is bytes, not time, so the same request always gets the same
/// search.
pub fn clock_reach(p: &Problem<'_>) -> (i64, i64) {
    let Some(unit_ms) = super::head::clock_unit_ms(&p.ctx.base.values[0]) else {
        return (0, 0);
    };
    let per_signature = p.ctx.body.len() as u64 + p.ctx.base.bytes().len() as u64 + 256;
    let most = MAX_CLOCK_MS / unit_ms;
    let by_budget = i64::try_from(p.clock_budget / per_signature / 2).unwrap_or(i64::MAX);
    let units = by_budget.min(p.clock_units_max).clamp(5.min(most), most);
    (units, units * unit_ms)
}

/// The clock search stops here whatever its budget: ten minutes either way is the verifier's
/// whole window (`docs/verification.md`).
const MAX_CLOCK_MS: i64 = 600_000;

/// Bytes the widening clock search hashes by default: 4 MiB, so a 16 KB body is searched
/// about ±125 ms (a millisecond timestamp) and a 1 MB body ±5 ms, within the diagnosis'
/// time budgets (`benches/README.md`).
pub const DEFAULT_CLOCK_BUDGET: u64 = 4 * 1024 * 1024;

/// The server's cap on the clock search (units each way, docs/diagnosis.md D9): it diagnoses
/// every mismatch it answers, on the request's path, so its search stays near the cost of the
/// rest of the search (128 instants against the ~9,500 a small body's 4 MiB budget buys) while
/// still reaching a clock read twice around a network call (±64 ms for a millisecond timestamp).
pub const SERVER_CLOCK_UNITS: u32 = 64;

/// The rounds of the search, smallest explanations first.
#[derive(Clone, Copy)]
enum Round {
    /// The right text and key: only the encoding or the hash function differ.
    Exact,
    /// One mistake: a key, a head, a body.
    Singles,
    /// Two mistakes that can co-occur.
    Pairs,
    /// The PHP SDK's form (two mistakes) with one more.
    PhpAndOne,
}

impl Round {
    fn tasks(self, plan: &mut Planner<'_>, v: &Variants, out: &mut Outcome) -> Vec<Task> {
        let recipes = applicable(plan.p.ctx.body, v.singles.clone(), out);
        match self {
            Round::Exact => plan.tasks(None, [(0, plan.p.ctx.base.bytes(), Vec::new())]),
            Round::Singles => single_tasks(plan, v, &recipes),
            Round::Pairs => pair_tasks(plan, v, &recipes, out),
            Round::PhpAndOne => php_tasks(plan, v, &recipes),
        }
    }
}

impl Planner<'_> {
    /// The mistake of key variant `k` (1-based: 0 is the key as given).
    fn key_mistake(&self, k: usize) -> Mistake {
        self.keys[k - 1].mistake.clone()
    }
}

/// One mistake: a key, a head, a body. Keys first, then heads, then bodies: a huge body gets
/// the cheap checks first.
fn single_tasks(plan: &mut Planner<'_>, v: &Variants, recipes: &[BodyForm]) -> Vec<Task> {
    let p = plan.p;
    let base = p.ctx.base.bytes();
    let mut c: Vec<(usize, Vec<u8>, Vec<Mistake>)> = (1..=plan.keys.len())
        .map(|k| (k, base.clone(), vec![plan.key_mistake(k)]))
        .collect();
    c.extend(
        v.mods
            .iter()
            .map(|m| (0, m.on(p.ctx.base, None).bytes(), m.mistakes.clone())),
    );
    let mut tasks = plan.tasks(None, c);
    for r in recipes {
        let c = [(0, base.clone(), r.mistakes.clone())];
        tasks.extend(plan.tasks(Some(r.recipe), c));
    }
    tasks
}

/// Two mistakes that can co-occur: two heads, a head and a key, a body and a key or a head,
/// two bodies. Every key variant pairs (docs/diagnosis.md D1).
fn pair_tasks(
    plan: &mut Planner<'_>,
    v: &Variants,
    recipes: &[BodyForm],
    out: &mut Outcome,
) -> Vec<Task> {
    let p = plan.p;
    let base = p.ctx.base.bytes();
    let paired_keys: Vec<usize> = (1..=plan.keys.len()).collect();
    let pairable: Vec<(&HeadMod, Vec<u8>)> = v
        .mods
        .iter()
        .filter(|m| m.pairable)
        .map(|m| (m, m.on(p.ctx.base, None).bytes()))
        .collect();
    // Two head mistakes that can co-occur; a head mistake and a key.
    let mut c = Vec::new();
    for (i, (a, _)) in pairable.iter().enumerate() {
        for (b, _) in &pairable[i + 1..] {
            if a.composes_with(b) {
                let ms = [a.mistakes.clone(), b.mistakes.clone()].concat();
                c.push((0, a.on(p.ctx.base, Some(b)).bytes(), ms));
            }
        }
    }
    for &k in &paired_keys {
        for (m, h) in &pairable {
            let ms = [m.mistakes.clone(), vec![plan.key_mistake(k)]].concat();
            c.push((k, h.clone(), ms));
        }
    }
    let mut tasks = plan.tasks(None, c);
    // A body mistake with a key or a head mistake (the body is built once for all);
    // a change after signing only with the PHP SDK form (the next round).
    for r in recipes.iter().filter(|r| !r.after_signing) {
        let mut c: Vec<_> = paired_keys
            .iter()
            .map(|&k| {
                let ms = [r.mistakes.clone(), vec![plan.key_mistake(k)]].concat();
                (k, base.clone(), ms)
            })
            .collect();
        c.extend(pairable.iter().map(|(m, h)| {
            (
                0,
                h.clone(),
                [m.mistakes.clone(), r.mistakes.clone()].concat(),
            )
        }));
        tasks.extend(plan.tasks(Some(r.recipe), c));
    }
    // Two body mistakes.
    for r in applicable(p.ctx.body, v.pairs.clone(), out) {
        tasks.extend(plan.tasks(Some(r.recipe), [(0, base.clone(), r.mistakes)]));
    }
    tasks
}

/// The PHP SDK's form (two mistakes) with one more: every other mistake that can co-occur with
/// it (one whose text is the form's alone is tried once, as the form).
fn php_tasks(plan: &mut Planner<'_>, v: &Variants, recipes: &[BodyForm]) -> Vec<Task> {
    let Some(php) = &v.php else {
        return Vec::new();
    };
    let p = plan.p;
    let php_bytes = php.on(p.ctx.base, None).bytes();
    let mut c: Vec<_> = v
        .mods
        .iter()
        .filter(|m| (m.pairable || m.after_signing()) && php.composes_with(m))
        .map(|m| {
            let ms = [php.mistakes.clone(), m.mistakes.clone()].concat();
            (0, php.on(p.ctx.base, Some(m)).bytes(), ms)
        })
        .collect();
    c.extend((1..=plan.keys.len()).map(|k| {
        let ms = [php.mistakes.clone(), vec![plan.key_mistake(k)]].concat();
        (k, php_bytes.clone(), ms)
    }));
    let mut tasks = plan.tasks(None, c);
    for r in recipes {
        let ms = [php.mistakes.clone(), r.mistakes.clone()].concat();
        tasks.extend(plan.tasks(Some(r.recipe), [(0, php_bytes.clone(), ms)]));
    }
    tasks
}

/// The body forms worth building for this body: a `\u` toggle needs non-ASCII text or escapes,
/// a slash toggle a slash; sorting keys needs a tree, built only up to [`TREE_MAX`] (the
/// outcome says when that left variants out).
fn applicable(body: &[u8], forms: Vec<BodyForm>, out: &mut Outcome) -> Vec<BodyForm> {
    let unicode = !body.is_ascii() || memchr::memmem::find(body, b"\\u").is_some();
    let slash = memchr::memchr(b'/', body).is_some();
    forms
        .into_iter()
        .filter(|f| {
            let r = &f.recipe;
            if matches!(r.style, Some((_, true))) && body.len() > TREE_MAX {
                out.skipped_tree = true;
                return false;
            }
            (!r.toggle_unicode || unicode) && (!r.toggle_slashes || slash)
        })
        .collect()
}

/// Run the tasks on `p.threads` threads; tasks are claimed in order, each with its cost taken
/// from the budget first, so what is tried before the budget runs out is the same whatever the
/// number of threads.
fn run_tasks(
    tasks: &[Task],
    heads: &[Vec<u8>],
    keys: &[PreparedKey],
    targets: &[Target],
    p: &Problem<'_>,
    styled: Option<&Styled>,
    hashed_before: u64,
) -> RoundOutcome {
    let claims = Mutex::new(Claims {
        next: 0,
        reserved: hashed_before,
        cut_short: false,
    });
    let work = || {
        let mut f = Found::default();
        loop {
            let task = {
                let mut c = claims.lock().unwrap_or_else(|e| e.into_inner());
                if c.cut_short || c.next >= tasks.len() {
                    break;
                }
                let t = &tasks[c.next];
                if c.reserved + t.cost > p.budget {
                    c.cut_short = true;
                    break;
                }
                c.next += 1;
                c.reserved += t.cost;
                t
            };
            run_task(task, heads, keys, targets, p, styled, &mut f);
        }
        f
    };
    let threads = p.threads.clamp(1, tasks.len().max(1));
    let results: Vec<Found> = if threads == 1 {
        vec![work()]
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads).map(|_| s.spawn(work)).collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        })
    };
    let mut r = RoundOutcome {
        cut_short: claims
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .cut_short,
        ..RoundOutcome::default()
    };
    for f in results {
        r.hashed += f.hashed;
        r.signatures += f.signatures;
        r.skipped_tree |= f.skipped_tree;
        for m in f.matches {
            if !r.matches.iter().any(|(ms, _)| *ms == m.0) {
                r.matches.push(m);
            }
        }
    }
    r
}

#[derive(Default)]
struct RoundOutcome {
    matches: Vec<(Vec<Mistake>, u64)>,
    hashed: u64,
    signatures: u64,
    cut_short: bool,
    skipped_tree: bool,
}

/// Bytes that differ between two texts: all but their common start and end (how much of the
/// sent text an explanation rewrites, docs/diagnosis.md D1).
fn changed_bytes(a: &[u8], b: &[u8]) -> u64 {
    let start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let end = a[start..]
        .iter()
        .rev()
        .zip(b[start..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    (a.len().max(b.len()) - start - end) as u64
}

/// Build the task's body (once) and sign it with every job's key and head.
fn run_task(
    task: &Task,
    heads: &[Vec<u8>],
    keys: &[PreparedKey],
    targets: &[Target],
    p: &Problem<'_>,
    styled: Option<&Styled>,
    f: &mut Found,
) {
    let body = p.ctx.body;
    let built;
    let (main, lf): (&[u8], bool) = match &task.body {
        None => (body, false),
        Some(r) => {
            let base = Recipe {
                trailing_lf: false,
                ..*r
            };
            let plain = !base.empty
                && base.style.is_none()
                && !base.toggle_unicode
                && !base.toggle_slashes
                && base.after.is_none();
            if plain {
                (body, r.trailing_lf)
            } else {
                match build(body, &base, styled, p.ctx.curl_file) {
                    Ok(b) => {
                        built = b;
                        (built.as_slice(), r.trailing_lf)
                    }
                    Err(NotBuilt::TooLargeForTree) => {
                        f.skipped_tree = true;
                        return;
                    }
                    Err(_) => return,
                }
            }
        }
    };
    let tail: &[u8] = if lf { b"\n" } else { b"" };
    let base_head = p.ctx.base.bytes();
    // The task's texts are distinct (one body; each key and head once), so once one reproduces
    // the signature no other can: the rest of the task is not hashed.
    let mut explained = false;
    for job in &task.jobs {
        if explained {
            break;
        }
        let head: &[u8] = &heads[job.head];
        for (h, mac) in &keys[job.key].macs {
            let mut ctx = ring::hmac::Context::with_key(mac);
            ctx.update(head);
            ctx.update(main);
            ctx.update(tail);
            let tag = ctx.sign();
            let digest = tag.as_ref();
            f.hashed += (head.len() + main.len() + tail.len()) as u64;
            f.signatures += 1;
            for t in targets {
                if t.digest.len() == digest.len() && bool::from(t.digest.ct_eq(digest)) {
                    let mut ms = job.mistakes.clone();
                    ms.extend(h.clone());
                    ms.extend(t.encoding.clone());
                    // What the explanation rewrites: head, body and key bytes.
                    let signed_body = [main, tail].concat();
                    let changed = changed_bytes(&base_head, head)
                        + changed_bytes(body, &signed_body)
                        + changed_bytes(p.key, &keys[job.key].bytes);
                    if !f.matches.iter().any(|(m, _)| *m == ms) {
                        f.matches.push((ms, changed));
                    }
                    explained = true;
                }
            }
        }
    }
}
