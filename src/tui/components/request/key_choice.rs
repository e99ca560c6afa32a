//! Saving a profile whose REST key was typed in the workbench. A typed key is kept only when
//! the user says so at the moment of saving, the operating system's key store offered first:
//! `o` keeps it there (`keyring:signscope/NAME`, the profile pointed at it), `s` stores it in
//! the profile file (mode 0600), `k` keeps the profile's key source (environment variable,
//! file, command...) and drops the typed key, Esc cancels the save. What was done is said once
//! the save succeeded.

use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::message::RequestEffect;
use super::requests;
use super::state::KeyLabel;
use super::state::{KeyChoice, KeyOutcome, Prompt, RequestState};
use crate::core::Secret;
use crate::store::KeySource;
use crate::tui::effect::ProfileSave;
use crate::tui::theme::Theme;
use crate::tui::widgets::pane;
use crate::tui::widgets::prompt::centered;

/// The save of the profile under `name` (`as_new`: a new file, Alt-S); `typed_key`: the typed
/// REST key to keep, only when the user chose that, in the operating system's key store when
/// `to_os_store`, else in the file.
pub fn save_command(
    req: &mut RequestState,
    name: String,
    as_new: bool,
    typed_key: Option<Secret>,
    to_os_store: bool,
) -> RequestEffect {
    let (list, selected) = requests::to_saved(req);
    RequestEffect::SaveProfile(Box::new(ProfileSave {
        name,
        as_new,
        requests: list,
        selected_request: selected,
        request: req.editor_request(),
        typed_key,
        typed_key_to_os_store: to_os_store,
        events: None,
        analytics_url: None,
    }))
}

/// Save under `name` now, or ask first when the REST key in the field was typed.
pub fn save_or_ask(req: &mut RequestState, name: String, as_new: bool) -> Vec<RequestEffect> {
    if !req.key_typed() {
        req.key_choice_made = None;
        return vec![save_command(req, name, as_new, None, false)];
    }
    req.status = "the REST key was typed: o keeps it in the operating system's key store, s in the profile file, k keeps the profile's key source, Esc cancels".into();
    req.prompt = Some(Prompt::KeyChoice(KeyChoice { name, as_new }));
    vec![]
}

/// A key while the question is open.
pub fn on_key(req: &mut RequestState, choice: KeyChoice, key: KeyEvent) -> Vec<RequestEffect> {
    match key.code {
        // The typed key kept: in the operating system's store (o) or in the profile file (s).
        KeyCode::Char(c @ ('o' | 'O' | 's' | 'S')) => {
            let os_store = c.eq_ignore_ascii_case(&'o');
            req.key_choice_made = Some(if os_store {
                KeyOutcome::OsStore {
                    account: choice.name.clone(),
                }
            } else {
                KeyOutcome::Stored
            });
            let typed = req.key();
            vec![save_command(
                req,
                choice.name,
                choice.as_new,
                Some(typed),
                os_store,
            )]
        }
        KeyCode::Char('k') | KeyCode::Char('K') => {
            req.key_choice_made = Some(KeyOutcome::Dropped);
            vec![save_command(req, choice.name, choice.as_new, None, false)]
        }
        KeyCode::Esc | KeyCode::Char('c') | KeyCode::Char('C') => {
            req.key_choice_made = None;
            req.status =
                "not saved; the typed REST key stays in the field only (nothing was written)"
                    .into();
            vec![]
        }
        _ => {
            req.prompt = Some(Prompt::KeyChoice(choice));
            vec![]
        }
    }
}

/// The save succeeded: apply the choice and say what it did (appended to the status).
pub fn on_saved(req: &mut RequestState) -> Option<String> {
    match req.key_choice_made.take()? {
        KeyOutcome::Stored => {
            kept_as(req, KeySource::Stored(req.key()));
            Some("the typed REST key is stored in the profile file (mode 0600)".into())
        }
        KeyOutcome::OsStore { account } => {
            let source = KeySource::Keyring {
                service: crate::store::os_store::DEFAULT_SERVICE.to_string(),
                account,
            };
            let said = format!(
                "the typed REST key is kept in the operating system's key store ({})",
                source.reference().unwrap_or_default()
            );
            kept_as(req, source);
            Some(said)
        }
        KeyOutcome::Dropped => {
            let pk = req.profile_key.clone();
            req.rest_key.set(pk.secret.expose());
            req.key_info = KeyLabel {
                source: pk.source.clone(),
                revealed: req.key_info.revealed,
            };
            req.key_error = pk.error;
            Some(format!(
                "the typed REST key was dropped (not written); the key comes from {}",
                pk.source
            ))
        }
    }
}

/// The typed key is now the profile's key, read from `source`.
fn kept_as(req: &mut RequestState, source: KeySource) {
    let source = source.describe();
    req.profile_key.secret = req.key();
    req.profile_key.source = source.clone();
    req.profile_key.error = None;
    req.key_info.source = source;
}

/// The question's lines.
pub fn lines(req: &RequestState) -> Vec<String> {
    vec![
        "The REST key in the field was typed here.".into(),
        "o: keep it in the operating system's key store".into(),
        "s: store it in the profile file (mode 0600)".into(),
        "k: keep the profile's key source and drop the typed key".into(),
        format!("   ({})", req.profile_key.source),
        "Esc: cancel (nothing is saved)".into(),
    ]
}

/// Draw the question over the view.
pub fn draw(frame: &mut Frame, screen: Rect, req: &RequestState, theme: &Theme) {
    let lines = lines(req);
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16;
    let width = (widest + 4).clamp(40, screen.width.saturating_sub(2).max(40));
    // Wrapped rows at that width, plus the borders.
    let inner = width.saturating_sub(2).max(1) as usize;
    let rows: usize = lines
        .iter()
        .map(|l| l.chars().count().div_ceil(inner).max(1))
        .sum();
    let rect = centered(screen, width, rows as u16 + 2);
    frame.render_widget(Clear, rect);
    let block = pane(
        Span::styled(" Save the typed REST key? ", theme.title()),
        true,
        theme,
    );
    let text: Vec<Line> = lines.into_iter().map(Line::from).collect();
    frame.render_widget(
        Paragraph::new(text).block(block).wrap(Wrap { trim: false }),
        rect,
    );
}
