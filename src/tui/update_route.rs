//! Where each component's effects go (the router's half that is not input): a status to the
//! status line, what only the router can do (load into another view, send again, answer a
//! popup) done here, the rest to the runtime as a [`Command`]. A child of `update`, whose
//! state changes these are.

use super::*;

/// A component's effect as the router handles it. Every component's effects go through the one
/// loop [`route_effects`]: a status message goes to the status line, what only the router can
/// do (load into another component, send again) is done here, the rest goes to the runtime as a
/// [`Command`].
pub(super) trait RoutedEffect {
    fn route(self, app: &mut App) -> Vec<Command>;
}

/// Route every effect a component's `update` returned (and what routing them queued).
pub(super) fn route_effects<E: RoutedEffect>(app: &mut App, effects: Vec<E>) -> Vec<Command> {
    let mut out = vec![];
    for e in effects {
        out.extend(e.route(app));
    }
    out.extend(route_queued(app));
    out
}

/// What a popup or the unsaved-edits question asked of a view ([`App::send`]), in order.
pub(super) fn route_queued(app: &mut App) -> Vec<Command> {
    let mut out = vec![];
    while let Some(next) = app.queued.pop_front() {
        out.extend(route(app, next));
    }
    out
}

/// A status message for the status line (no command).
pub(super) fn say(app: &mut App, status: String) -> Vec<Command> {
    app.say(status);
    vec![]
}

/// The lesson view's effects: its status goes to the status line, the rest to the runtime.
impl RoutedEffect for LessonEffect {
    fn route(self, app: &mut App) -> Vec<Command> {
        match self {
            LessonEffect::Status(s) => say(app, s),
            other => vec![Command::Lesson(other)],
        }
    }
}

/// The request view's effects go to the runtime; a save carries the Events view's batch when it
/// has unsaved edits (the profile's `events`), whichever key asked for the save.
impl RoutedEffect for RequestEffect {
    fn route(self, app: &mut App) -> Vec<Command> {
        vec![match self {
            RequestEffect::Sign(job) => Command::Sign(job),
            RequestEffect::Send(job) => Command::Send(job),
            RequestEffect::EditBody(text) => Command::EditBody(text),
            RequestEffect::Copy(clip) => Command::Copy(clip),
            RequestEffect::ListProfiles => Command::ListProfiles,
            RequestEffect::SaveProfile(mut save) => {
                save.events = app.events.batch_to_save();
                save.analytics_url = app.events.url_to_save();
                Command::SaveProfile(save)
            }
            RequestEffect::ResolveKey(read) => Command::ResolveKey(read),
            RequestEffect::CancelKey(id) => Command::CancelKey(id),
            RequestEffect::CancelSend(id) => Command::CancelSend(id),
            RequestEffect::ShowProblems => {
                app.popup = Some(Popup::body_problems(&app.popup_ctx()));
                return vec![];
            }
            RequestEffect::Status(s) => return say(app, s),
        }]
    }
}

/// The diagnose view's effects, with the REST key and header prefix of the request view (the
/// profile's) that a capture is read and verified with.
impl RoutedEffect for DiagnoseEffect {
    fn route(self, app: &mut App) -> Vec<Command> {
        match self {
            DiagnoseEffect::Status(s) => say(app, s),
            DiagnoseEffect::ListProfiles => vec![Command::ListProfiles],
            effect => {
                let key = match &effect {
                    DiagnoseEffect::Diagnose {
                        key: DiagKey::Demo, ..
                    } => crate::core::Secret::new(crate::core::demo::DEMO_REST_KEY),
                    _ => app.request.key(),
                };
                let prefix = app.request.prefix.text().to_string();
                vec![Command::Diagnose {
                    effect,
                    key,
                    prefix,
                }]
            }
        }
    }
}

/// The traffic view's effects: loading a request goes to the request view (through
/// `unsaved::load_or_ask`, as every load into the editor does) or to the Diagnose view.
impl RoutedEffect for TrafficEffect {
    fn route(self, app: &mut App) -> Vec<Command> {
        match self {
            TrafficEffect::Status(s) => say(app, s),
            // A HAR's requests are verified with the profile's REST key, as the in-process
            // server would.
            effect @ (TrafficEffect::OpenHar(_)
            | TrafficEffect::WriteHar { .. }
            | TrafficEffect::WriteReceivedHar { .. }) => vec![Command::Traffic {
                effect,
                key: app.request.key(),
            }],
            TrafficEffect::Copy(clip) => vec![Command::Copy(clip)],
            TrafficEffect::SendAgain { request, url } => {
                let what = format!(
                    "the Traffic request {} {url} ({} bytes)",
                    request.spec.method,
                    request.spec.body.len()
                );
                send_again(app, *request, url, what)
            }
            // Asks save / discard / cancel first when the editor has unsaved edits.
            TrafficEffect::LoadIntoRequest {
                request,
                timestamp,
                note,
            } => unsaved::load_or_ask(
                app,
                PendingLoad::Request(RequestLoad {
                    request,
                    timestamp,
                    what: "the Traffic request".into(),
                    note,
                }),
            ),
            TrafficEffect::Diagnose { capture } => {
                app.view = View::Diagnose;
                update(app, Message::Diagnose(DiagnoseMsg::Open(capture)))
            }
        }
    }
}

/// The events view's effects go to the runtime as they are; its status goes to the status line.
impl RoutedEffect for EventsEffect {
    fn route(self, app: &mut App) -> Vec<Command> {
        match self {
            EventsEffect::Status(s) => say(app, s),
            EventsEffect::Copy(clip) => vec![Command::Copy(clip)],
            other => vec![Command::Events(other)],
        }
    }
}

/// The history view's effects: loading an entry goes to another component (the request or the
/// events view); the rest goes to the runtime as it is.
impl RoutedEffect for HistoryEffect {
    fn route(self, app: &mut App) -> Vec<Command> {
        match self {
            HistoryEffect::Status(s) => say(app, s),
            HistoryEffect::Copy(clip) => vec![Command::Copy(clip)],
            HistoryEffect::LoadIntoEvents { body } => unsaved::load_or_ask(
                app,
                PendingLoad::Batch {
                    text: body,
                    path: None,
                    what: "the history entry's batch".into(),
                },
            ),
            HistoryEffect::LoadIntoRequest(row) => {
                let (request, timestamp) = row_request(&row, app.request.prefix.text());
                unsaved::load_or_ask(
                    app,
                    PendingLoad::Request(RequestLoad {
                        request: Box::new(request),
                        timestamp,
                        what: "the history entry".into(),
                        note: None,
                    }),
                )
            }
            HistoryEffect::Resend(row) => resend(app, &row),
            other => vec![Command::History(other)],
        }
    }
}

/// Send a history entry's request again (see [`send_again`]).
fn resend(app: &mut App, row: &history::HistoryRow) -> Vec<Command> {
    let (request, _old_timestamp) = row_request(row, app.request.prefix.text());
    let what = format!(
        "{} {} ({} bytes, the entry of {})",
        request.spec.method,
        row.url,
        request.spec.body.len(),
        row.full_time()
    );
    send_again(app, request, row.url.clone(), what)
}

/// Send a request of the History or Traffic view again through the engine, as the request view
/// sends: signed again now (live timestamp) with the profile's REST key, to `url`. The editor is
/// not changed; the status says what was sent (`what`), then how it was answered.
fn send_again(app: &mut App, request: EditorRequest, url: String, what: String) -> Vec<Command> {
    if request.url.is_empty() {
        return say(
            app,
            format!("cannot send {what} again: its URL has no scheme and host"),
        );
    }
    let key = app.request.key();
    // Signed here, in the documented form (what a correct client signs), with the clock as the
    // runtime read it before this key (it ticks before input when the second has moved on): the
    // send then sends this signed request as it is.
    let timestamp = crate::core::time::format_timestamp(app.request.now);
    let signed = match crate::core::SignedRequest::sign(
        request.spec,
        timestamp,
        crate::core::SigningForm::Standard,
        &key,
    ) {
        Ok(s) => s,
        Err(e) => {
            return say(app, format!("cannot send {what} again: {e}"));
        }
    };
    let id = app.request.next_id();
    let what = format!("{what}, signed again now with the profile's REST key");
    app.say(format!("sending {what}…"));
    app.sent_again = Some((id, what));
    vec![Command::Send(Box::new(crate::tui::effect::SendJob {
        id,
        request_name: None,
        url,
        base_url: request.url,
        key,
        signed: std::sync::Arc::new(signed),
    }))]
}

/// The profile manager's effects: activating a profile loads it into the request view.
impl RoutedEffect for ProfilesEffect {
    fn route(self, app: &mut App) -> Vec<Command> {
        match self {
            ProfilesEffect::Status(s) => say(app, s),
            ProfilesEffect::Activate(name) => unsaved::load_or_ask(app, PendingLoad::Profile(name)),
            other => vec![Command::Profiles(other)],
        }
    }
}

/// The request of a past send, and the timestamp it was signed with (read from its
/// `X-...-TIMESTAMP` header): the request model the entry names, with the base URL split from
/// its URL. Entries written before they named it are read back from the URL and the headers
/// (path and query from the URL, the prefix from the timestamp header, else `prefix`).
pub(super) fn row_request(row: &history::HistoryRow, prefix: &str) -> (EditorRequest, String) {
    let (base, target) = match row.url.find("://") {
        Some(i) => match row.url[i + 3..].find('/') {
            Some(j) => row.url.split_at(i + 3 + j),
            None => (row.url.as_str(), "/"),
        },
        None => ("", row.url.as_str()),
    };
    let header = |name: &str| {
        row.request_headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let spec = match &row.spec {
        Some(spec) => spec.clone(),
        None => {
            let (path, query) = target.split_once('?').unwrap_or((target, ""));
            let prefix = row
                .request_headers
                .iter()
                .find_map(|(n, _)| {
                    let u = n.to_ascii_uppercase();
                    u.strip_prefix("X-")
                        .and_then(|r| r.strip_suffix("-TIMESTAMP"))
                        .map(str::to_string)
                })
                .unwrap_or_else(|| prefix.to_string());
            let names = crate::core::HeaderNames::for_prefix(&prefix);
            RequestSpec {
                method: row.method.clone(),
                path: path.to_string(),
                query: query.to_string(),
                api_key: header(&names.api_key),
                content_type: header("Content-Type"),
                auth_algo: header(&names.auth_algo),
                header_prefix: prefix,
                body: bytes::Bytes::from(row.request_body.clone()),
            }
        }
    };
    let names = crate::core::HeaderNames::for_prefix(&spec.header_prefix);
    let timestamp = header(&names.timestamp);
    let request = EditorRequest {
        url: base.to_string(),
        spec,
    };
    (request, timestamp)
}

/// A popup's answer to a key or a click: it stays open unless it asked to close; its effects
/// are routed as every view's are.
pub(super) fn popup_answered(
    app: &mut App,
    popup: Popup,
    effects: Vec<PopupEffect>,
) -> Vec<Command> {
    if !popups::closes(&effects) {
        app.popup = Some(popup);
    }
    route_effects(app, effects)
}

/// The popups' effects (`crate::tui::popups`): what they ask of a view goes through the router.
impl RoutedEffect for PopupEffect {
    fn route(self, app: &mut App) -> Vec<Command> {
        match self {
            // Done by `popup_answered`.
            PopupEffect::Close => vec![],
            PopupEffect::Status(s) => say(app, s),
            PopupEffect::Run(action) => run_palette(app, action),
            PopupEffect::Copy(clip) => vec![Command::Copy(clip)],
            PopupEffect::Request(m) => {
                app.view = View::Request;
                update(app, Message::Request(m))
            }
            PopupEffect::Quit => {
                app.quit = true;
                vec![Command::Quit]
            }
            // The save may ask a question of the request view (a name, the typed key).
            // The profile editor's changes first (its form may refuse them: then nothing
            // quits and the form says why); the profile's own edits follow once it is saved.
            PopupEffect::SaveThenQuit if app.profiles.unsaved_draft().is_some() => {
                app.view = View::Profiles;
                let cmds = update(
                    app,
                    Message::Profiles(ProfilesMsg::Run(
                        crate::tui::components::profiles::keys::FormAction::Save,
                    )),
                );
                app.quit_after_draft_save = app.profiles.unsaved_draft().is_none();
                cmds
            }
            PopupEffect::SaveThenQuit => {
                app.view = View::Request;
                app.quit_after_save = true;
                update(app, Message::Request(RequestMsg::Save))
            }
            PopupEffect::SaveThenLoad(load) => {
                app.view = View::Request;
                app.load_after_save = Some(load);
                update(app, Message::Request(RequestMsg::Save))
            }
            PopupEffect::Load(load) => unsaved::run_load(app, load),
            PopupEffect::LoadOrAsk(load) => unsaved::load_or_ask(app, load),
        }
    }
}
