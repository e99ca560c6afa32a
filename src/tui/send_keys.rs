//! What the workbench says about its send keys (the demo profile's first note, the answer of a
//! view that sends nothing), read from the views' key tables: a keys file that rebinds a view's
//! send changes what these sentences name, as it changes the dispatcher, the help and the footer.

use crossterm::event::KeyEvent;

use super::components::events::keys as events_keys;
use super::components::history::keys as history_keys;
use super::components::request::keys as request_keys;
use super::components::traffic::keys as traffic_keys;
use super::global_keys::{GlobalAction, GLOBAL_KEYS};

/// The views that send, each with its send key as a sentence writes it.
fn senders() -> [(&'static str, String); 4] {
    [
        (
            "Request",
            request_keys::KEYS.first_label_of(request_keys::Action::Send),
        ),
        (
            "Events",
            events_keys::KEYS.first_label_of(events_keys::Action::Send),
        ),
        (
            "History",
            history_keys::KEYS.first_label_of(history_keys::Action::Send),
        ),
        (
            "Traffic",
            traffic_keys::KEYS.first_label_of(traffic_keys::Action::Send),
        ),
    ]
}

/// "a, b and c".
fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// "Ctrl-G sends to the local server from Request, Events, History and Traffic"; with a keys
/// file that gives the views different send keys, each key with its views ("Ctrl-E sends to the
/// local server from Request; Ctrl-G from Events, History and Traffic").
pub fn send_note() -> String {
    let mut groups: Vec<(String, Vec<&str>)> = vec![];
    for (view, key) in senders() {
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, views)) => views.push(view),
            None => groups.push((key, vec![view])),
        }
    }
    groups
        .iter()
        .enumerate()
        .map(|(i, (key, views))| {
            let verb = if i == 0 {
                " sends to the local server"
            } else {
                ""
            };
            format!("{key}{verb} from {}", and_list(views))
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The first status line on the demo profile. It stays until another message replaces it, on
/// any view, so it names the send key of each view that sends.
pub fn demo_note() -> String {
    format!(
        "demo profile: {} · {} help",
        send_note(),
        GLOBAL_KEYS.first_label_of(GlobalAction::Help)
    )
}

/// Whether `key` is the send key of a view that sends: pressed where nothing is sent (the
/// profile manager, the lesson) it gets [`nothing_to_send`] as its answer, not silence.
pub fn is_send_key(key: &KeyEvent) -> bool {
    request_keys::KEYS.lookup(key) == Some(request_keys::Action::Send)
        || events_keys::KEYS.lookup(key) == Some(events_keys::Action::Send)
        || history_keys::KEYS.lookup(key) == Some(history_keys::Action::Send)
        || traffic_keys::KEYS.lookup(key) == Some(traffic_keys::Action::Send)
}

/// The answer to a send key in a view that sends nothing.
pub fn nothing_to_send(view: &str) -> String {
    format!("nothing to send in {view}: {}", send_note())
}
