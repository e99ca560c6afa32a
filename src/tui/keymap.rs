//! Key bindings as data: a table of (action, keys, name, help) that the dispatcher looks keys up
//! in, the help popup lists and the command palette runs by name, so the three cannot drift.

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
            KeyCode::Char(c) if self.mods.is_empty() => c.to_string(),
            KeyCode::Char(c) => c.to_ascii_uppercase().to_string(),
            KeyCode::F(n) => format!("F{n}"),
            KeyCode::PageDown => "PageDown".into(),
            KeyCode::PageUp => "PageUp".into(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Down => "Down".into(),
            KeyCode::Up => "Up".into(),
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
pub const TEXT_KEYS: &[Binding<TextAction>] = &[
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
];

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

    /// The keys as help shows them: "Ctrl-G / F9".
    pub fn keys_label(&self) -> String {
        self.keys
            .iter()
            .map(KeySpec::label)
            .collect::<Vec<_>>()
            .join(" / ")
    }
}

/// The action bound to `key` in `table`, if any.
pub fn lookup<A: Copy>(table: &[Binding<A>], key: &KeyEvent) -> Option<A> {
    table
        .iter()
        .find(|b| b.keys.iter().any(|k| k.matches(key)))
        .map(|b| b.action)
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

    const TABLE: &[Binding<A>] = &[
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
    ];

    #[test]
    fn keys_are_found_with_their_modifiers_and_labelled_as_help_writes_them() {
        let k = |code, mods| KeyEvent::new(code, mods);
        assert_eq!(
            lookup(TABLE, &k(KeyCode::Char('g'), KeyModifiers::CONTROL)),
            Some(A::Send)
        );
        assert_eq!(
            lookup(TABLE, &k(KeyCode::F(9), KeyModifiers::NONE)),
            Some(A::Send)
        );
        assert_eq!(
            lookup(TABLE, &k(KeyCode::Char('g'), KeyModifiers::NONE)),
            None
        );
        assert_eq!(
            lookup(TABLE, &k(KeyCode::Char('y'), KeyModifiers::ALT)),
            Some(A::Copy)
        );
        // Shift is in the character.
        assert_eq!(
            lookup(TABLE, &k(KeyCode::Char('H'), KeyModifiers::SHIFT)),
            Some(A::Copy)
        );
        assert_eq!(
            lookup(TABLE, &k(KeyCode::Char('H'), KeyModifiers::CONTROL)),
            None
        );
        assert_eq!(TABLE[0].keys_label(), "Ctrl-G / F9");
        assert_eq!(TABLE[1].keys_label(), "Alt-Y / H");
    }
}
