//! `update(&mut App, Message) -> Vec<Command>`: the router, and the only place state changes.
//! Global keys first (quit, help, views), then the router's popups, then the focused component;
//! the runtime's answers go to the component they belong to. Pure: no I/O, no clock (time
//! arrives in `Message::Tick`), no terminal.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, MouseButton, MouseEventKind};
use ratatui::layout::{Position, Rect};

use super::app::{App, GlobalAction, Popup, GLOBAL_KEYS};
use super::component::Component;
use super::components::diagnose::{DiagKey, DiagnoseEffect, DiagnoseMsg};
use super::components::events::{EventsEffect, EventsMsg};
use super::components::history::{self, HistoryEffect, HistoryMsg};
use super::components::lesson::{self, LessonEffect, LessonMsg};
use super::components::profiles::{ProfilesEffect, ProfilesMsg};
use super::components::request::{self, RequestEffect, RequestMsg};
use super::components::traffic::{self, TrafficEffect, TrafficMsg};
use super::effect::Command;
use super::layout::{frame_layout, tab_layout, View};
use super::message::Message;
use super::model::{CurrentProfile, EditorRequest};
use super::model::{PendingLoad, RequestLoad};
use super::palette::PaletteAction;
use super::popups::{self, PopupEffect, PopupInput};
use super::unsaved;
use crate::core::RequestSpec;

#[path = "update_route.rs"]
mod route;
#[cfg(test)]
use route::row_request;
use route::{popup_answered, route_effects, route_queued, say};

/// Handle one message.
pub fn update(app: &mut App, msg: Message) -> Vec<Command> {
    let mut cmds = route(app, msg);
    cmds.extend(route_queued(app));
    // The lesson follows the request being edited, wherever it was edited.
    if app.lesson.watching() {
        let draft = lesson::draft_of(&app.request);
        let effects = lesson::observe(&mut app.lesson, draft, app.request.now);
        cmds.extend(route_effects(app, effects));
    }
    cmds
}

fn route(app: &mut App, msg: Message) -> Vec<Command> {
    match msg {
        Message::Key(key) => on_terminal_key(app, key),
        Message::Mouse(m) => on_mouse(app, m),
        // Not into a box no one can see: the clipboard still holds it for a bigger window.
        Message::Paste(_) if app.too_small() => vec![],
        Message::Paste(text) => on_paste(app, &text),
        Message::Resize(w, h) => {
            app.size = (w, h);
            vec![]
        }
        Message::Tick(now) => update(app, Message::Request(RequestMsg::Tick(now))),
        Message::Request(RequestMsg::SendDone { id, result })
            if app.sent_again.as_ref().is_some_and(|(sent, _)| *sent == id) =>
        {
            sent_again_done(app, result)
        }
        Message::Copied(Ok(what)) => say(app, format!("copied {what}")),
        Message::Copied(Err(e)) | Message::Status(e) => say(app, e),
        Message::ProfileList(Ok(names)) => {
            app.popup = Some(Popup::switch_profile(names, &app.profile.name));
            vec![]
        }
        Message::ProfileList(Err(e)) | Message::ProfileLoaded(Err(e)) => say(app, e),
        Message::ProfileLoaded(Ok(p)) => profile_loaded(app, p),
        Message::ProfileRenamed { from, to } => {
            // The App owns the profile's name: a rename of the one in use follows here.
            if app.profile.name == from {
                app.profile.name = to;
            }
            vec![]
        }
        Message::ProfileSaved(Ok(name)) => profile_saved(app, name),
        Message::ProfileSaved(Err(e)) => profile_save_failed(app, e),
        Message::LoadRequest { request, timestamp } => load_capture(app, request, timestamp),
        Message::Terminate => {
            app.quit = true;
            vec![Command::Quit]
        }
        Message::Request(m) => {
            let ctx = request::RequestCtx {
                profile: &app.profile,
                cursor: app.popup.is_none(),
            };
            let effects = app.request.update(m, &ctx);
            route_effects(app, effects)
        }
        Message::Diagnose(m) => {
            let effects = app
                .diagnose
                .update(m, &app.request.key_info.source.as_str());
            route_effects(app, effects)
        }
        // A file read for the Events view replaces its batch: asked first while it is unsaved.
        Message::Events(EventsMsg::FileLoaded { path, text }) => unsaved::load_or_ask(
            app,
            PendingLoad::Batch {
                what: format!("the batch from {}", path.display()),
                text,
                path: Some(path),
            },
        ),
        Message::Events(m) => events_msg(app, m),
        Message::History(m) => {
            let effects = app.history.update(m, &());
            route_effects(app, effects)
        }
        Message::Profiles(m) => profiles_msg(app, m),
        Message::Traffic(m) => {
            app.traffic.account = (
                app.request.api_key.text().to_string(),
                app.request.auth_algo.text().to_string(),
            );
            let effects = app.traffic.update(m, &());
            route_effects(app, effects)
        }
        Message::Lesson(m) => {
            let effects = app.lesson.update(m, &());
            route_effects(app, effects)
        }
    }
}

/// A key from the terminal: releases are ignored; a window too small for the workbench has
/// its own few keys.
fn on_terminal_key(app: &mut App, key: KeyEvent) -> Vec<Command> {
    if key.kind == KeyEventKind::Release {
        return vec![];
    }
    if app.too_small() {
        return on_key_too_small(app, key);
    }
    on_key(app, key)
}

/// The profile was saved under `name` (a new one for Save As and for the demo profile): it is
/// the one in use; a quit or a load that waited for the save goes on.
fn profile_saved(app: &mut App, name: String) -> Vec<Command> {
    app.profile = CurrentProfile {
        name: name.clone(),
        is_demo: false,
    };
    let mut cmds = update(app, Message::Request(RequestMsg::Saved(name)));
    app.events.on_profile_saved(true);
    if app.quit_after_save {
        app.quit = true;
        cmds.push(Command::Quit);
    } else if let Some(load) = app.load_after_save.take() {
        cmds.extend(unsaved::run_load(app, *load));
    }
    cmds
}

/// The save failed: the edits stay in memory (the user can save elsewhere, Alt-S) and what
/// waited for the save does not happen.
fn profile_save_failed(app: &mut App, e: String) -> Vec<Command> {
    app.events.on_profile_saved(false);
    let cmds = update(app, Message::Request(RequestMsg::SaveFailed));
    app.quit_after_save = false;
    app.load_after_save = None;
    let save_as = crate::tui::components::request::keys::KEYS
        .label_of(crate::tui::components::request::keys::Action::SaveAs);
    app.say(format!(
        "{e} (edits kept; {save_as} saves under another name)"
    ));
    cmds
}

/// A capture loaded into the request editor (asked first while it has unsaved edits). Its host
/// is where its client sent it, not where the editor sends: the URL field stays, and the status
/// says so.
fn load_capture(
    app: &mut App,
    request: Box<crate::tui::model::EditorRequest>,
    timestamp: String,
) -> Vec<Command> {
    let note = format!(
        "its host was not taken: it is sent to {} (the URL field)",
        app.request.url.text()
    );
    unsaved::load_or_ask(
        app,
        PendingLoad::Request(RequestLoad {
            request,
            timestamp,
            what: "the captured request".into(),
            note: Some(note),
        }),
    )
}

/// A message of the Events view. An edit makes the sentence on the status line stale ("Item
/// deleted: Ctrl-Z brings it back." after more edits): it goes; what this message says comes
/// after.
fn events_msg(app: &mut App, m: EventsMsg) -> Vec<Command> {
    let before = app.events.rev();
    let on_screen = app.view == View::Events && app.popup.is_none();
    let effects = app.events.update(m, &on_screen);
    if app.events.rev() != before {
        app.edited();
    }
    route_effects(app, effects)
}

/// A message of the Profiles view. The quit waiting for the profile editor's save: the other
/// edits are saved next (their save quits), or the workbench quits now; a failed save quits
/// nothing.
fn profiles_msg(app: &mut App, m: ProfilesMsg) -> Vec<Command> {
    let after_save = match &m {
        ProfilesMsg::Done(_) => Some(true),
        ProfilesMsg::Failed(_) => Some(false),
        _ => None,
    };
    let effects = app.profiles.update(m, &app.profile.name.as_str());
    let mut cmds = route_effects(app, effects);
    if let Some(ok) = after_save.filter(|_| app.quit_after_draft_save) {
        app.quit_after_draft_save = false;
        if ok && app.unsaved() {
            cmds.extend(route_effects(app, vec![PopupEffect::SaveThenQuit]));
        } else if ok {
            app.quit = true;
            cmds.push(Command::Quit);
        }
    }
    cmds
}

/// A history or Traffic request sent again was answered: the answer goes to the status line
/// (the new entry appears in the history list).
fn sent_again_done(
    app: &mut App,
    result: Result<crate::tui::model::ResponseView, String>,
) -> Vec<Command> {
    let what = app
        .sent_again
        .take()
        .map(|(_, what)| what)
        .unwrap_or_default();
    let said = match result {
        Ok(r) => format!(
            "sent {what}: {}{} in {:.0} ms",
            r.status,
            r.code
                .as_deref()
                .map(|c| format!(" {c}"))
                .unwrap_or_default(),
            r.elapsed_ms
        ),
        Err(e) => format!("send failed ({what}): {e}"),
    };
    say(app, said)
}

/// A profile was loaded: the Events view gets its analytics target and batch, the profile
/// manager its current profile, the request view its request, key and saved requests.
fn profile_loaded(app: &mut App, mut p: crate::tui::model::LoadedProfile) -> Vec<Command> {
    let mut cmds = update(
        app,
        Message::Events(EventsMsg::SetTarget {
            analytics_url: p.analytics_url.clone(),
            api_key: p.request.spec.api_key.clone(),
            local: p.local,
        }),
    );
    match p.events.take() {
        Some(batch) => cmds.extend(update(app, Message::Events(EventsMsg::LoadBatch(batch)))),
        // Loaded over unsaved edits of the batch, the user chose to discard them (a save
        // would have marked them saved): they are not carried into this profile.
        None if app.events.batch_unsaved() => {
            cmds.extend(update(app, Message::Events(EventsMsg::Starter)))
        }
        None => {}
    }
    // The batch shown is the profile's (or the one kept from before, saved in the profile
    // left; this profile holds it only once it is edited and saved).
    app.events.mark_saved();
    app.profile = CurrentProfile {
        name: p.name.clone(),
        is_demo: p.is_demo,
    };
    cmds.extend(update(
        app,
        Message::Request(RequestMsg::ProfileLoaded(Box::new(p))),
    ));
    cmds
}

/// Switch to a view; the history and profile views re-read their files when opened, the Events
/// view shows its batch validated (the worker may not have answered for the profile's target).
fn switch_view(app: &mut App, v: View) -> Vec<Command> {
    app.view = v;
    match v {
        View::Events => {
            app.events.opened();
            vec![]
        }
        View::History => vec![Command::ReloadHistory],
        View::Profiles => vec![Command::ReloadProfiles],
        View::Lesson => {
            let effects = app.lesson.update(LessonMsg::Opened, &());
            route_effects(app, effects)
        }
        _ => vec![],
    }
}

fn request_quit(app: &mut App) -> Vec<Command> {
    if app.unsaved_anywhere() {
        app.popup = Some(Popup::confirm_quit());
        vec![]
    } else {
        app.quit = true;
        vec![Command::Quit]
    }
}

fn on_key(app: &mut App, key: KeyEvent) -> Vec<Command> {
    if let Some(mut popup) = app.popup.take() {
        let effects = popup.update(PopupInput::Key(key), &app.popup_ctx());
        return popup_answered(app, popup, effects);
    }
    // A prompt of the request view takes every key until it closes.
    if app.view == View::Request && app.request.prompt.is_some() {
        let cmds = update(app, Message::Request(RequestMsg::Key(key)));
        // Closed without saving: a load (or the quit) waiting for that save does not happen.
        if app.request.prompt.is_none()
            && !cmds.iter().any(|c| matches!(c, Command::SaveProfile(_)))
        {
            app.load_after_save = None;
            app.quit_after_save = false;
        }
        return cmds;
    }
    // Esc while the REST key is being read stops the read (a key command waiting for a PIN).
    if key.code == KeyCode::Esc && key.modifiers.is_empty() {
        let cmds = update(app, Message::Request(RequestMsg::CancelKeyRead));
        if !cmds.is_empty() {
            return cmds;
        }
    }
    // Ctrl-C with a selection in the body copies it, as in a terminal's editor: quitting at
    // once would answer a copy by closing the workbench.
    if app.view == View::Request
        && key.code == KeyCode::Char('c')
        && key.modifiers == crossterm::event::KeyModifiers::CONTROL
        && app.request.focus == crate::tui::components::request::Field::Body
        && app.request.body.selected_text().is_some()
    {
        let effects = crate::tui::components::request::copy_selection_or_say(&mut app.request);
        return route_effects(app, effects);
    }
    // Global keys.
    if let Some(action) = GLOBAL_KEYS.lookup(&key) {
        return run_global(app, action);
    }
    if !app.text_input_focused() {
        match key.code {
            KeyCode::Char('?') => return run_global(app, GlobalAction::Help),
            KeyCode::Char('q') => return request_quit(app),
            _ => {}
        }
    }
    // A send key where nothing is sent gets an answer that says where it sends (a typed
    // character in a profile field is text, not a key).
    if let Some(view) = sends_nothing(app, &key) {
        app.say(crate::tui::send_keys::nothing_to_send(view));
        return vec![];
    }
    match app.view {
        View::Request => update(app, Message::Request(RequestMsg::Key(key))),
        View::Diagnose => {
            let main = frame_layout(Rect::new(0, 0, app.size.0, app.size.1)).1;
            update(app, Message::Diagnose(DiagnoseMsg::Key(key, main)))
        }
        View::Events => {
            app.events.area = frame_layout(Rect::new(0, 0, app.size.0, app.size.1)).1;
            update(app, Message::Events(EventsMsg::Key(key)))
        }
        View::History => {
            app.history.area = frame_layout(Rect::new(0, 0, app.size.0, app.size.1)).1;
            update(app, Message::History(HistoryMsg::Key(key)))
        }
        View::Profiles => {
            app.profiles.area = frame_layout(Rect::new(0, 0, app.size.0, app.size.1)).1;
            update(app, Message::Profiles(ProfilesMsg::Key(key)))
        }
        View::Traffic => {
            app.traffic.area = frame_layout(Rect::new(0, 0, app.size.0, app.size.1)).1;
            update(app, Message::Traffic(TrafficMsg::Key(key)))
        }
        View::Lesson => {
            let now = app.request.now;
            app.lesson.area = frame_layout(Rect::new(0, 0, app.size.0, app.size.1)).1;
            update(app, Message::Lesson(LessonMsg::Key(key, now)))
        }
    }
}

/// The view's name when `key` is a send key of the views that send, pressed in one that sends
/// nothing and does not bind the key itself.
fn sends_nothing(app: &App, key: &KeyEvent) -> Option<&'static str> {
    let typed = matches!(key.code, KeyCode::Char(_)) && crate::tui::keymap::plain(key);
    if typed || !crate::tui::send_keys::is_send_key(key) {
        return None;
    }
    match app.view {
        View::Lesson if crate::tui::components::lesson::KEYS.lookup(key).is_none() => {
            Some("the lesson")
        }
        View::Profiles
            if crate::tui::components::profiles::FORM_KEYS
                .lookup(key)
                .is_none() =>
        {
            Some("the profile manager")
        }
        _ => None,
    }
}

/// Run one global action (from its key or from the palette): most open a popup.
fn run_global(app: &mut App, action: GlobalAction) -> Vec<Command> {
    if let Some(p) = Popup::of_action(action, &app.popup_ctx()) {
        app.popup = Some(p);
        return vec![];
    }
    match action {
        GlobalAction::Show(v) => switch_view(app, v),
        _ => request_quit(app),
    }
}

/// Run what the palette offers, in the view it was opened on.
fn run_palette(app: &mut App, action: PaletteAction) -> Vec<Command> {
    match action {
        PaletteAction::Global(a) => run_global(app, a),
        PaletteAction::Request(a) => update(app, Message::Request(RequestMsg::Run(a))),
        PaletteAction::Events(a) => update(app, Message::Events(EventsMsg::Run(a))),
        PaletteAction::History(a) => update(app, Message::History(HistoryMsg::Run(a))),
        PaletteAction::Traffic(a) => {
            let effects = traffic::run(&mut app.traffic, a);
            route_effects(app, effects)
        }
        PaletteAction::Profiles(a) => update(app, Message::Profiles(ProfilesMsg::Run(a))),
        PaletteAction::Lesson(a) => {
            let now = app.request.now;
            update(app, Message::Lesson(LessonMsg::Run(a, now)))
        }
        PaletteAction::Diagnose(a) => update(app, Message::Diagnose(DiagnoseMsg::Run(a))),
    }
}

/// The line ends of a bracketed paste as the user copied them. Many terminals (xterm, VTE,
/// tmux, Windows Terminal) send each LF of a paste as CR, and crossterm passes the text on
/// unchanged, so a multi-line paste arrives as one line joined by bare CRs. A paste with no LF
/// but with CRs is taken as converted. When its first line ends in two CRs it was CRLF text
/// (xterm and tmux send CRLF as CR CR): a run of `n` CRs is `n / 2` line ends, rounded up (a
/// LF-only part, such as the body of a raw request, keeps its lines). Otherwise each CR was
/// one LF. A paste holding any LF is kept as it is: its CRs are the user's.
pub fn paste_line_ends(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\n') || !text.contains('\r') {
        return std::borrow::Cow::Borrowed(text);
    }
    let first_run = text
        .split(|c| c != '\r')
        .find(|run| !run.is_empty())
        .map_or(0, str::len);
    let crlf = first_run == 2;
    let mut out = String::with_capacity(text.len());
    let mut run = 0usize;
    let flush = |out: &mut String, run: &mut usize| {
        let ends = if crlf { run.div_ceil(2) } else { *run };
        out.extend(std::iter::repeat_n('\n', ends));
        *run = 0;
    };
    for c in text.chars() {
        if c == '\r' {
            run += 1;
        } else {
            flush(&mut out, &mut run);
            out.push(c);
        }
    }
    flush(&mut out, &mut run);
    std::borrow::Cow::Owned(out)
}

fn on_paste(app: &mut App, text: &str) -> Vec<Command> {
    let text = &*paste_line_ends(text);
    if app.popup.is_some() {
        return vec![];
    }
    match app.view {
        View::Request => update(app, Message::Request(RequestMsg::Paste(text.to_string()))),
        View::Diagnose => update(app, Message::Diagnose(DiagnoseMsg::Paste(text.to_string()))),
        View::Events => update(app, Message::Events(EventsMsg::Paste(text.to_string()))),
        View::History => update(app, Message::History(HistoryMsg::Paste(text.to_string()))),
        View::Profiles => update(app, Message::Profiles(ProfilesMsg::Paste(text.to_string()))),
        View::Traffic => update(app, Message::Traffic(TrafficMsg::Paste(text.to_string()))),
        View::Lesson => vec![],
    }
}

/// A key while the "terminal too small" screen hides the view: typed blind it would edit a
/// field, send, or answer a question no one can see (a `d` discarded the edits behind a quit
/// question). Only the quit key is read, and only when quitting loses nothing; the screen says
/// so.
fn on_key_too_small(app: &mut App, key: KeyEvent) -> Vec<Command> {
    let quit = crate::tui::global_keys::GLOBAL_KEYS.lookup(&key)
        == Some(crate::tui::global_keys::GlobalAction::Quit);
    // Where quitting would ask, the question could not be seen: the key waits.
    if quit && app.popup.is_none() && !app.unsaved_anywhere() {
        return request_quit(app);
    }
    vec![]
}

/// Mouse input: a click on a tab switches views; everything else goes to the view under it,
/// hit tested with the layout the view draws with (from `app.size`).
fn on_mouse(app: &mut App, m: crossterm::event::MouseEvent) -> Vec<Command> {
    if let Some(mut popup) = app.popup.take() {
        let effects = popup.update(PopupInput::Mouse(m), &app.popup_ctx());
        return popup_answered(app, popup, effects);
    }
    if app.view == View::Request && app.request.prompt.is_some() {
        return vec![];
    }
    // The "terminal too small" screen has no tabs or panes to click.
    if app.too_small() {
        return vec![];
    }
    let screen = Rect::new(0, 0, app.size.0, app.size.1);
    let (tabs, main, _) = frame_layout(screen);
    let pos = Position::new(m.column, m.row);
    if m.kind == MouseEventKind::Down(MouseButton::Left) && tabs.contains(pos) {
        return match tab_layout(tabs).iter().find(|(_, r)| r.contains(pos)) {
            Some((v, _)) if *v != app.view => switch_view(app, *v),
            _ => vec![],
        };
    }
    match app.view {
        View::Events => update(app, Message::Events(EventsMsg::Mouse(m, main))),
        View::History => update(app, Message::History(HistoryMsg::Mouse(m, main))),
        View::Profiles => update(app, Message::Profiles(ProfilesMsg::Mouse(m, main))),
        View::Traffic => update(app, Message::Traffic(TrafficMsg::Mouse(m, main))),
        View::Diagnose => update(app, Message::Diagnose(DiagnoseMsg::Mouse(m, main))),
        View::Request => update(app, Message::Request(RequestMsg::Mouse(m, screen))),
        View::Lesson => vec![],
    }
}

#[cfg(test)]
#[path = "update_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "update_input_tests.rs"]
mod input_tests;
