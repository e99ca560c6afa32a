//! Key bindings as data: a table of (action, keys, name, help) that the dispatcher looks keys up
//! in, the help popup and the footer list and the command palette runs by name, so they cannot
//! drift. Each table has a section name; the user's keys file (`crate::tui::user_keys`) rebinds
//! an action by section and action name, and every reader asks the table for an action's keys
//! ([`Table::keys`]), so the dispatcher, the help and the footer all follow the file.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// One key: a code and the Ctrl / Alt modifiers it needs (Shift is part of the character).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeySpec {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

impl KeySpec {
    /// Ctrl + a character.
    pub const fn ctrl(c: char) -> KeySpec {
        KeySpec {
            code: KeyCode::Char(c),
            mods: KeyModifiers::CONTROL,
        }
    }

    /// Alt + a character.
    pub const fn alt(c: char) -> KeySpec {
        KeySpec {
            code: KeyCode::Char(c),
            mods: KeyModifiers::ALT,
        }
    }

    /// A function key.
    pub const fn f(n: u8) -> KeySpec {
        KeySpec::key(KeyCode::F(n))
    }

    /// A character typed alone (the single-key shortcuts of normal mode).
    pub const fn char(c: char) -> KeySpec {
        KeySpec::key(KeyCode::Char(c))
    }

    /// Any other key, without modifiers.
    pub const fn key(code: KeyCode) -> KeySpec {
        KeySpec {
            code,
            mods: KeyModifiers::NONE,
        }
    }

    /// Whether `key` is this key (Ctrl and Alt must match; Shift is ignored, it is in the char).
    pub fn matches(&self, key: &KeyEvent) -> bool {
        let wanted = KeyModifiers::CONTROL | KeyModifiers::ALT;
        self.code == key.code && (key.modifiers & wanted) == self.mods
    }

    /// How help and the palette write the key: "Ctrl-G", "Alt-Y", "F9", "s", "PageDown".
    pub fn label(&self) -> String {
        let key = match self.code {
            KeyCode::Char(' ') => "Space".into(),
            KeyCode::Char(c) if self.mods.is_empty() => c.to_string(),
            KeyCode::Char(c) => c.to_ascii_uppercase().to_string(),
            KeyCode::F(n) => format!("F{n}"),
            // The name of the key: "PageDown", "Enter", "Esc", "Down".
            other => format!("{other:?}"),
        };
        let mut out = String::new();
        if self.mods.contains(KeyModifiers::CONTROL) {
            out.push_str("Ctrl-");
        }
        if self.mods.contains(KeyModifiers::ALT) {
            out.push_str("Alt-");
        }
        out.push_str(&key);
        out
    }
}

/// Whether `key` is pressed without Ctrl and Alt (Shift is part of the character).
pub fn plain(key: &KeyEvent) -> bool {
    !key.modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

/// What kind of thing an action does. The same key does the same kind of thing in every view
/// (a test over every table checks it), so Ctrl-S never sends and Ctrl-G never saves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Send a request or a batch (Ctrl-G / F9).
    Send,
    /// Write something to disk (Ctrl-S).
    Save,
    /// Open the copy menu or copy one thing (Alt-Y).
    Copy,
    Undo,
    Redo,
    /// Move the selection, the focus or a scroll position; show another panel or view.
    Navigate,
    /// Load something into an editor or a view (from a file, a record, a capture).
    Load,
    /// Change the text or data being edited (format, add, delete, rename, move...).
    Edit,
    /// Switch a setting on or off (timestamp, key source, pause, shape...).
    Toggle,
    /// Look something up: search, verify, diagnose, a hint.
    Inspect,
    /// Open a popup or a menu (help, palette, log, pickers).
    Open,
    Quit,
}

/// An action that says what kind of thing it does.
pub trait Kinded {
    fn kind(&self) -> Kind;
}

/// One action of a view and the keys that run it.
#[derive(Clone, Copy, Debug)]
pub struct Binding<A: 'static> {
    pub action: A,
    pub keys: &'static [KeySpec],
    /// The action's name in the command palette, e.g. "send the request".
    pub name: &'static str,
    /// What help says it does.
    pub help: &'static str,
}

/// One row of a view's key table (a `const fn`, so the tables stay `const`).
pub const fn bind<A>(
    action: A,
    keys: &'static [KeySpec],
    name: &'static str,
    help: &'static str,
) -> Binding<A> {
    Binding {
        action,
        keys,
        name,
        help,
    }
}

/// What every editable text does (the body editor and each one-line field). The widgets match
/// keys with `widgets::line_input::undo_key`, which a test checks against this table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextAction {
    Undo,
    Redo,
}

impl Kinded for TextAction {
    fn kind(&self) -> Kind {
        match self {
            TextAction::Undo => Kind::Undo,
            TextAction::Redo => Kind::Redo,
        }
    }
}

/// Undo / redo in every editable text.
pub const TEXT_KEYS: Table<TextAction> = Table::new(
    "text",
    &[
        bind(
            TextAction::Undo,
            &[KeySpec::ctrl('z')],
            "undo",
            "undo in every text: the body and each field",
        ),
        bind(
            TextAction::Redo,
            &[KeySpec::ctrl('y')],
            "redo",
            "redo in every text (Ctrl-Shift-Z too)",
        ),
    ],
);

impl<A> Binding<A> {
    /// The word the footer shows for it: the first word of its name (or of its help, after a
    /// "(after Esc)" mark), "$EDITOR" for the action that opens it.
    pub fn short(&self) -> &'static str {
        let text = if self.name.is_empty() {
            self.help.trim_start_matches("(after Esc) ")
        } else {
            self.name
        };
        if text.contains("$EDITOR") {
            return "$EDITOR";
        }
        text.split([' ', ',']).next().unwrap_or(text)
    }
}

/// Keys as help shows them: "Ctrl-G / F9".
pub fn keys_label(keys: &[KeySpec]) -> String {
    keys.iter()
        .map(KeySpec::label)
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The name of an action in the keys file: its variant in kebab case ("send",
/// "detail-page-down", "show-request" for `Show(Request)`).
pub fn action_id<A: std::fmt::Debug>(action: &A) -> String {
    let mut out = String::new();
    for c in format!("{action:?}").chars() {
        if c.is_ascii_uppercase() {
            if !out.is_empty() && !out.ends_with('-') {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

/// One key table of a view (or of the router): its section in the keys file and its bindings
/// with their default keys. Derefs to the bindings; ask [`Table::keys`] for an action's keys.
pub struct Table<A: 'static> {
    /// "global", "request", "request.normal", "request.copy", ...
    pub section: &'static str,
    pub bindings: &'static [Binding<A>],
}

impl<A> std::ops::Deref for Table<A> {
    type Target = [Binding<A>];
    fn deref(&self) -> &[Binding<A>] {
        self.bindings
    }
}

impl<A: Copy + std::fmt::Debug> Table<A> {
    pub const fn new(section: &'static str, bindings: &'static [Binding<A>]) -> Table<A> {
        Table { section, bindings }
    }

    /// The keys of `b`: the user's from the keys file when it rebinds the action, else the
    /// table's own.
    pub fn keys(&self, b: &Binding<A>) -> std::borrow::Cow<'static, [KeySpec]> {
        USER_KEYS.with(|u| {
            let user = u.borrow();
            // Without a keys file (the usual case) nothing is built per key press or frame.
            if user.is_empty() {
                return std::borrow::Cow::Borrowed(b.keys);
            }
            match user.get(&(self.section.to_string(), action_id(&b.action))) {
                Some(keys) => std::borrow::Cow::Owned(keys.clone()),
                None => std::borrow::Cow::Borrowed(b.keys),
            }
        })
    }

    /// The keys of `b` as help, the footer and the palette write them.
    pub fn label(&self, b: &Binding<A>) -> String {
        keys_label(&self.keys(b))
    }

    /// The keys of `action` as help writes them ("" when the table has no such action): what
    /// titles and hints name, so they say the key the dispatcher runs.
    pub fn label_of(&self, action: A) -> String
    where
        A: PartialEq,
    {
        self.bindings
            .iter()
            .find(|b| b.action == action)
            .map(|b| self.label(b))
            .unwrap_or_default()
    }

    /// The first key of `action` ("Ctrl-G" of "Ctrl-G / F9"): the one a sentence names.
    pub fn first_label_of(&self, action: A) -> String
    where
        A: PartialEq,
    {
        let label = self.label_of(action);
        label.split(" / ").next().unwrap_or_default().to_string()
    }

    /// The action bound to `key`, if any.
    pub fn lookup(&self, key: &KeyEvent) -> Option<A> {
        self.bindings
            .iter()
            .find(|b| self.keys(b).iter().any(|k| k.matches(key)))
            .map(|b| b.action)
    }
}

/// The user's bindings: (section, action name) -> keys.
pub type UserKeys = HashMap<(String, String), Vec<KeySpec>>;

thread_local! {
    /// The keys file's bindings, installed once at start ([`install`]). Per thread because the
    /// workbench's update and draw both run on the thread that starts it (the event loop is
    /// `block_on` on that thread), and so that each test's `TestApp` has its own.
    static USER_KEYS: RefCell<Rc<UserKeys>> = RefCell::new(Rc::default());
}

/// The first key the keys file gives action `action` (its name in the file, e.g.
/// "show-request") of `section`, as help writes it; `None` when the file does not rebind it.
/// For a label drawn where the table cannot be named (the tab bar: the global table names the
/// views, so `layout` cannot name it back).
pub fn user_label(section: &str, action: &str) -> Option<String> {
    USER_KEYS.with(|u| {
        u.borrow()
            .get(&(section.to_string(), action.to_string()))
            .and_then(|keys| keys.first().map(KeySpec::label))
    })
}

/// Use `keys` from now on (an empty map: every table's own keys).
pub fn install(keys: UserKeys) {
    USER_KEYS.with(|u| *u.borrow_mut() = Rc::new(keys));
}

/// The keys a keys file can name besides characters, `Space` and F1-F12.
const NAMED_KEYS: [KeyCode; 14] = {
    use KeyCode::*;
    [
        PageDown, PageUp, Enter, Esc, Down, Up, Left, Right, Home, End, Tab, Backspace, Delete,
        Insert,
    ]
};

/// Parse a key as help writes it: "Ctrl-G", "Alt-Y", "Alt-PageDown", "F9", "Enter", "s"; the
/// inverse of [`KeySpec::label`]. `None` when it is not one.
pub fn parse_key(text: &str) -> Option<KeySpec> {
    let mut mods = KeyModifiers::NONE;
    let mut rest = text;
    loop {
        let lower = rest.to_ascii_lowercase();
        if rest.len() > 5 && lower.starts_with("ctrl-") {
            mods |= KeyModifiers::CONTROL;
            rest = &rest[5..];
        } else if rest.len() > 4 && lower.starts_with("alt-") {
            mods |= KeyModifiers::ALT;
            rest = &rest[4..];
        } else {
            break;
        }
    }
    let mut chars = rest.chars();
    let code = match (chars.next(), chars.next()) {
        (Some(c), None) if !c.is_control() && c != ' ' => {
            // With a modifier the label writes the letter in upper case; the key is the letter.
            KeyCode::Char(if mods.is_empty() {
                c
            } else {
                c.to_ascii_lowercase()
            })
        }
        _ if rest.eq_ignore_ascii_case("space") => KeyCode::Char(' '),
        // A named key by the name its label writes ("PageDown", "Esc").
        _ => match NAMED_KEYS
            .into_iter()
            .find(|k| format!("{k:?}").eq_ignore_ascii_case(rest))
        {
            Some(k) => k,
            None => match rest
                .to_ascii_lowercase()
                .strip_prefix('f')
                .map(str::parse::<u8>)
            {
                Some(Ok(n @ 1..=12)) => KeyCode::F(n),
                _ => return None,
            },
        },
    };
    Some(KeySpec { code, mods })
}

#[cfg(test)]
#[path = "keys_tests.rs"]
mod views_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum A {
        Send,
        Copy,
    }

    const TABLE: Table<A> = Table::new(
        "test",
        &[
            Binding {
                action: A::Send,
                keys: &[KeySpec::ctrl('g'), KeySpec::f(9)],
                name: "send",
                help: "send it",
            },
            Binding {
                action: A::Copy,
                keys: &[KeySpec::alt('y'), KeySpec::char('H')],
                name: "copy",
                help: "copy it",
            },
        ],
    );

    #[test]
    fn keys_are_found_with_their_modifiers_and_labelled_as_help_writes_them() {
        let k = |code, mods| KeyEvent::new(code, mods);
        assert_eq!(
            TABLE.lookup(&k(KeyCode::Char('g'), KeyModifiers::CONTROL)),
            Some(A::Send)
        );
        assert_eq!(
            TABLE.lookup(&k(KeyCode::F(9), KeyModifiers::NONE)),
            Some(A::Send)
        );
        assert_eq!(
            TABLE.lookup(&k(KeyCode::Char('g'), KeyModifiers::NONE)),
            None
        );
        assert_eq!(
            TABLE.lookup(&k(KeyCode::Char('y'), KeyModifiers::ALT)),
            Some(A::Copy)
        );
        // Shift is in the character.
        assert_eq!(
            TABLE.lookup(&k(KeyCode::Char('H'), KeyModifiers::SHIFT)),
            Some(A::Copy)
        );
        assert_eq!(
            TABLE.lookup(&k(KeyCode::Char('H'), KeyModifiers::CONTROL)),
            None
        );
        assert_eq!(TABLE.label(&TABLE[0]), "Ctrl-G / F9");
        assert_eq!(TABLE.label(&TABLE[1]), "Alt-Y / H");
    }
}
