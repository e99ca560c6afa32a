//! What a mistake is, whatever the mistake: a [`Def`] (everything about one mistake, one per
//! mistake in the catalogue, `catalogue.rs`), the [`Form`]s it takes in a request, and a
//! [`Mistake`] as a diagnosis names it (its definition and the specifics of its form). Nothing
//! here names a mistake: the search (`search.rs`) and the exercises (`src/learn/exercise.rs`)
//! go through the catalogue's definitions (docs/diagnosis.md, "Adding a mistake").

use std::fmt;
use std::hash::{Hash, Hasher};

use super::head::{Change, Head};
use super::signing::{How, Signing};
use crate::core::canonical::LineLabel;
use crate::core::secret::Secret;

/// The part of the signing text (or of the signing) a mistake changes: two mistakes can occur
/// together only when they change different parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    Method,
    Path,
    Query,
    NameCase,
    NamePrefix,
    Order,
    LineEnd,
    Timestamp,
    ContentType,
    Body,
    Key,
    Encoding,
    Hash,
}

/// The specifics of one form of a mistake (which order, which instant, which account...), what
/// tells two forms of one mistake apart when a diagnosis names it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Arg {
    None,
    Text(String),
    Ms(i64),
    Order([u8; 4]),
    Flag(bool),
    /// Two texts (the prefix signed and the one sent).
    Two(String, String),
}

/// Everything about one mistake: the catalogue (`catalogue.rs`) holds one per mistake.
pub struct Def {
    /// The stable upper-snake id (docs/diagnosis.md D4).
    pub code: &'static str,
    /// The part of the signing it changes.
    pub part: Part,
    /// It changes its line in a way that composes with the other such mistakes of its part
    /// (a `?` before a sorted query; a full URL of a trimmed path): they can co-occur.
    pub composes: bool,
    /// A change made to the request after it was signed (docs/diagnosis.md D8).
    pub after_signing: bool,
    /// How much it rewrites, for choosing between explanations that change as many bytes
    /// (docs/diagnosis.md D1): 0 an encoding or hash, 1 a character added or dropped, 2 line
    /// ends converted, 3 a value changed, 4 a body re-serialised, 5 keys sorted, 6 a body
    /// re-serialised after signing with its escapes changed. Lower is simpler.
    pub rank: u8,
    /// What happened, as the end of a sentence, without the specifics of its form.
    pub explanation: &'static str,
    /// A short name for a pick list, read after "the client " (the exercises).
    pub label: &'static str,
    /// The explanation with the specifics of a form (`None`: the explanation as it is).
    pub detail: fn(&Arg) -> Option<String>,
    /// The line of the vendor's PHP SDK form (docs/diagnosis.md D3) this mistake is, and the
    /// change the form makes on it.
    pub php_sdk: Option<(LineLabel, Change)>,
    /// The forms the search tries in a request, in the order they are tried (docs/diagnosis.md
    /// D1, "The forms tried"); a form may be this mistake with another (two body mistakes in
    /// one body), tried with the pairs.
    pub forms: fn(&'static Def, &Context<'_>) -> Vec<Form>,
}

impl Def {
    /// What an entry of the catalogue does not say: a mistake made while signing (not after),
    /// that composes with no other mistake of its part, of rank 3 (a value changed), described
    /// by its explanation alone, on no line of the PHP SDK form, with no forms.
    pub const PLAIN: Def = Def {
        code: "",
        part: Part::Method,
        composes: false,
        after_signing: false,
        rank: 3,
        explanation: "",
        label: "",
        detail: |_| None,
        php_sdk: None,
        forms: |_, _| Vec::new(),
    };
}

/// What the forms of a mistake can be made from: the request as received and what is known
/// around it.
#[derive(Clone, Copy)]
pub struct Context<'a> {
    /// The expected head.
    pub base: &'a Head,
    /// The body sent.
    pub body: &'a [u8],
    /// The REST key.
    pub key: &'a str,
    /// The other accounts known (API key, REST key).
    pub others: &'a [(String, Secret)],
    /// The Host header.
    pub host: Option<&'a str>,
    /// The order the four signed headers were sent in, when each came once.
    pub sent_order: Option<[u8; 4]>,
    /// Units of the timestamp's precision a clock read twice is searched each way.
    pub clock_reach: i64,
    /// The file a curl command read the body from with `-d @file`, as written.
    pub curl_file: Option<&'a [u8]>,
}

/// One form of a mistake (or of two body mistakes at once) and what it does to a signing.
#[derive(Clone, Debug)]
pub struct Form {
    pub mistakes: Vec<Mistake>,
    pub how: How,
    /// Tried in pairs with a mistake of another part, not only alone. A change after signing
    /// is tried alone and with the PHP SDK form.
    pub pairs: bool,
}

impl Form {
    /// A form of one mistake.
    pub fn of(def: &'static Def, arg: Arg, how: How, pairs: bool) -> Form {
        Form {
            mistakes: vec![Mistake::new(def, arg)],
            how,
            pairs,
        }
    }
}

/// A mistake as a diagnosis names it: its definition and the specifics of its form.
#[derive(Clone)]
pub struct Mistake {
    def: &'static Def,
    arg: Arg,
}

/// Units each way a clock read twice is tried when a mistake is made in a signing rather than
/// searched for: the search's narrowest reach (docs/diagnosis.md D1).
const MADE_CLOCK_REACH: i64 = 5;

impl Mistake {
    pub fn new(def: &'static Def, arg: Arg) -> Mistake {
        Mistake { def, arg }
    }

    /// Everything about this mistake.
    pub fn def(&self) -> &'static Def {
        self.def
    }

    /// A stable code for the mistake.
    pub fn code(&self) -> &'static str {
        self.def.code
    }

    /// The part of the signing this mistake changes.
    pub fn part(&self) -> Part {
        self.def.part
    }

    /// What happened, as the end of a sentence: "the client ..." for a mistake made while
    /// signing, "the request was signed, then changed: ..." for a change after signing
    /// ([`Mistake::after_signing`]). It describes; it does not tell anyone what to do.
    pub fn explanation(&self) -> &'static str {
        self.def.explanation
    }

    /// A short name for a pick list.
    pub fn label(&self) -> &'static str {
        self.def.label
    }

    /// True for a change made to the request after it was signed (named "the request was
    /// signed, then changed: ...", docs/diagnosis.md D8).
    pub fn after_signing(&self) -> bool {
        self.def.after_signing
    }

    /// How much a mistake rewrites ([`Def::rank`]). Lower is simpler.
    pub fn rewrite_rank(&self) -> u8 {
        self.def.rank
    }

    /// The whole sentence: "the client ..." or "the request was signed, then changed: ...".
    pub fn sentence(&self) -> String {
        if self.after_signing() {
            format!("the request was signed, then changed: {}", self.detail())
        } else {
            format!("the client {}", self.detail())
        }
    }

    /// The explanation with its specifics (e.g. the order the header lines were signed in).
    pub fn detail(&self) -> String {
        (self.def.detail)(&self.arg).unwrap_or_else(|| self.def.explanation.to_string())
    }

    /// Make this mistake in a signing, as a client does: its first form there that changes the
    /// signature (the exercises make their requests so; the search makes the same forms). False
    /// when it cannot be made there: a body that is not JSON cannot be re-serialised, another
    /// account's key is not known, a '/' cannot be trimmed from a path without one.
    pub fn apply(&self, s: &mut Signing) -> bool {
        match Mistake::made_in(self.def, s)
            .into_iter()
            .find(|(m, _)| m == self)
        {
            Some((_, made)) => {
                *s = made;
                true
            }
            None => false,
        }
    }

    /// Every form of `def` made in `s` that changes its signature: the mistake (with the
    /// specifics of that form) and the signing it gives, in the order of the forms.
    pub fn made_in(def: &'static Def, s: &Signing) -> Vec<(Mistake, Signing)> {
        let before = s.signature();
        forms_in(def, s)
            .into_iter()
            .filter_map(|f| {
                let [m] = &f.mistakes[..] else { return None };
                let mut made = s.clone();
                (f.how.make(&mut made) && made.signature() != before).then(|| (m.clone(), made))
            })
            .collect()
    }
}

/// The forms of `def` in a signing: its request is the signing's head and body, its key the
/// signing's (no other account, no Host header, the clock searched ±5 units).
fn forms_in(def: &'static Def, s: &Signing) -> Vec<Form> {
    let key = String::from_utf8_lossy(&s.key);
    let ctx = Context {
        base: &s.head,
        body: &s.body,
        key: &key,
        others: &[],
        host: None,
        sent_order: None,
        clock_reach: MADE_CLOCK_REACH,
        curl_file: None,
    };
    (def.forms)(def, &ctx)
}

/// Whether two mistakes can be made together (docs/diagnosis.md D1): different ones that change
/// different parts, or the same path or query line in ways that compose.
pub fn co_occur(a: &Mistake, b: &Mistake) -> bool {
    a.code() != b.code() && (a.part() != b.part() || (a.def.composes && b.def.composes))
}

impl PartialEq for Mistake {
    fn eq(&self, other: &Mistake) -> bool {
        self.def.code == other.def.code && self.arg == other.arg
    }
}

impl Eq for Mistake {}

impl Hash for Mistake {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.def.code.hash(h);
        self.arg.hash(h);
    }
}

impl fmt::Debug for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.arg {
            Arg::None => f.write_str(self.def.code),
            a => write!(f, "{}({a:?})", self.def.code),
        }
    }
}

impl fmt::Display for Mistake {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail())
    }
}
