//! Profiles and the history: the workbench's own profile (list, switch, save the editor's
//! request), the profile manager's saves, renames and deletes, and the lists the Profiles and
//! History views show.

use tokio::sync::mpsc::UnboundedSender;

use super::super::profile::{open_current, stored_body, without_body};
use super::{Effects, NO_SESSION};
use crate::core::Secret;
use crate::engine::Session;
use crate::store::{KeySource, Profile, SaveOptions, EMBEDDED_URL};
use crate::tui::components::history::{HistoryMsg, HistoryRow};
use crate::tui::components::profiles::{ProfilesEffect, ProfilesMsg};
use crate::tui::components::request::{AccountChange, RequestMsg};
use crate::tui::effect::ProfileSave;
use crate::tui::message::Message;
use crate::tui::model::LoadedProfile;

/// The forward URLs (indexing, analytics) a save of the profile in use changes to.
type ForwardChange = (Option<String>, Option<String>);

impl Effects {
    /// The profile switcher's list: the demo profile, then the saved ones.
    pub(super) fn list_profiles(&mut self) {
        let msg = match &self.session {
            Some(sess) => {
                let mut names = vec![crate::store::DEMO_PROFILE.to_string()];
                names.extend(sess.store().saved_names());
                Ok(names)
            }
            None => Err(NO_SESSION.into()),
        };
        self.answer(Message::ProfileList(msg));
    }

    /// Switch to the profile `name` and hand it to the workbench; the in-process server
    /// forwards where it says.
    pub(super) fn load_profile(&mut self, name: &str) {
        tracing::debug!(profile = %name, "load profile");
        let msg = self.switch_profile(name);
        let loaded = msg.is_ok();
        self.answer(Message::ProfileLoaded(msg));
        if loaded {
            if let Some(note) = self.forward_for_profile() {
                self.answer(Message::Status(note));
            }
        }
    }

    /// Save the editor's request in the session's profile; answered with `ProfileSaved`.
    pub(super) fn save_profile(&mut self, job: ProfileSave) {
        tracing::debug!(
            profile = %job.name,
            typed_key = job.typed_key.is_some(),
            requests = job.requests.len(),
            "save profile"
        );
        let msg = self.save_editor_profile(job);
        match &msg {
            Ok(saved) => tracing::debug!(profile = %saved, "profile save done"),
            Err(e) => tracing::debug!(error = %e, "profile save failed"),
        }
        self.answer(Message::ProfileSaved(msg));
    }

    pub(super) fn reload_history(&mut self) {
        let Some(sess) = &self.session else { return };
        let history = sess.history().clone();
        // Entries sent to the in-process server (the demo's) go to this run's, not to the port
        // of the run that recorded them.
        let in_process = sess.running_embedded_url();
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let (entries, warnings) = history.load(1000);
            let rows = entries
                .iter()
                .map(|e| {
                    let mut row = HistoryRow::from(e);
                    row.url = e.request.url_now(&e.profile, in_process.as_deref());
                    row
                })
                .collect();
            let _ = tx.send(Message::History(HistoryMsg::Loaded { rows, warnings }));
        });
    }

    pub(super) fn reload_profiles(&mut self) {
        let Some(sess) = &self.session else { return };
        let report = sess.store().list();
        let msg = ProfilesMsg::Loaded {
            profiles: report.profiles.into_iter().map(without_body).collect(),
            errors: report.errors.iter().map(|e| e.to_string()).collect(),
            dir: sess.store().dir(),
        };
        self.answer(Message::Profiles(msg));
    }

    /// The profile manager's save, rename or delete; answered with `ProfilesMsg::Done` or
    /// `Failed`, then (the profile in use saved) the request view's account change, then the
    /// list again.
    pub(super) fn profiles_effect(&mut self, e: ProfilesEffect) {
        let Some(sess) = self.session.as_mut() else {
            let _ = self
                .tx
                .send(Message::Profiles(ProfilesMsg::Failed(NO_SESSION.into())));
            return;
        };
        tracing::debug!(effect = profiles_effect_name(&e), "profile manager");
        let forward_change = forward_change(sess, &e);
        // Said after the manager's own answer, so that the status line ends with what the
        // request view kept.
        let mut account = None;
        let result = match e {
            ProfilesEffect::SaveProfile(p, source) => {
                manager_save(sess, *p, source.as_deref(), &mut account)
            }
            ProfilesEffect::DeleteProfile(name) => sess
                .store()
                .delete(&name)
                .map(|path| format!("deleted profile {name} ({})", path.display()))
                .map_err(|e| e.to_string()),
            ProfilesEffect::RenameProfile { from, profile } => {
                manager_rename(sess, &from, *profile, &self.tx)
            }
            ProfilesEffect::Activate(_) | ProfilesEffect::Status(_) => return,
        };
        let msg = self.manager_outcome(result, forward_change);
        self.answer(Message::Profiles(msg));
        if let Some(change) = account {
            let msg = RequestMsg::AccountSaved(Box::new(change));
            self.answer(Message::Request(msg));
        }
        self.reload_profiles();
    }

    /// The manager's answer; a save that changed the forward URLs of the profile in use moves
    /// the in-process server's forwarding too, and says so.
    fn manager_outcome(
        &mut self,
        result: Result<String, String>,
        forward_change: Option<ForwardChange>,
    ) -> ProfilesMsg {
        match result {
            Ok(mut m) => {
                tracing::debug!(outcome = %m, "profile manager done");
                if let (Some((indexing, analytics)), Some(sess)) =
                    (forward_change, self.session.as_mut())
                {
                    sess.profile_mut().forward_indexing = indexing;
                    sess.profile_mut().forward_analytics = analytics;
                    if let Some(note) = self.forward_for_profile() {
                        m = format!("{m}; {note}");
                    }
                }
                ProfilesMsg::Done(m)
            }
            Err(e) => {
                tracing::debug!(error = %e, "profile manager failed");
                ProfilesMsg::Failed(e)
            }
        }
    }

    /// Switch the session to another profile (it becomes the last used one) and hand it to the
    /// workbench.
    fn switch_profile(&mut self, name: &str) -> Result<LoadedProfile, String> {
        let sess = self.session.as_mut().ok_or(NO_SESSION)?;
        sess.switch(name).map_err(|e| e.to_string())?;
        let (loaded, note) = open_current(sess);
        if let Some(note) = note {
            tracing::debug!(note = %note, "profile URL not resolved");
        }
        Ok(loaded)
    }

    /// Point the in-process server's forwarding at the current profile's upstreams (none when
    /// it names none): a profile switch changes where requests go from the next one on, on the
    /// same address (`docs/server.md` rule W10). Returns why a URL of the profile cannot be
    /// used, for the status line.
    fn forward_for_profile(&mut self) -> Option<String> {
        self.session.as_ref()?.forward_embedded()
    }

    /// Save the editor's request under `job.name` in the session's profile (its key source and
    /// file state kept; a typed key stored only when the user chose that; the Events batch when
    /// it was edited). `as_new`: saved under a new name, a new file. The saved profile becomes
    /// the current, last used one.
    fn save_editor_profile(&mut self, job: ProfileSave) -> Result<String, String> {
        let sess = self.session.as_mut().ok_or(NO_SESSION)?;
        let embedded = sess.running_embedded_url();
        let mut p = sess.profile().clone();
        if job.as_new || p.name != job.name {
            p.origin = None; // a new file
        }
        if let Some(batch) = job.events {
            p.events = Some(batch);
        }
        p.name = job.name;
        if !job.requests.is_empty() {
            p.replace_requests(job.requests, job.selected_request)
                .map_err(|e| e.to_string())?;
        }
        // The in-process server's URL changes every run: saved as `embedded`.
        let as_saved = |url: String| {
            if Some(&url) == embedded.as_ref() {
                EMBEDDED_URL.to_string()
            } else {
                url
            }
        };
        let request = job.request;
        p.indexing_url = as_saved(request.url);
        if let Some(url) = job.analytics_url {
            p.analytics_url = as_saved(url);
        }
        // The prefix and the public key are the account's: every request of the profile uses
        // them.
        p.set_header_prefix(&request.spec.header_prefix);
        p.set_api_key(&request.spec.api_key);
        // The editor's buffer itself (shared): the body is not copied to be saved.
        *p.request_mut() = request.spec;
        if let Some(k) = job.typed_key {
            p.rest_key = if job.typed_key_to_os_store {
                keep_in_os_store(&p.name, &k)?
            } else {
                KeySource::Stored(k)
            };
        }
        sess.save(p, SaveOptions::default())
            .map_err(|e| e.to_string())?;
        // The body lives in the editor; the session keeps the profile without it.
        sess.profile_mut().request_mut().body = bytes::Bytes::new();
        Ok(sess.profile().name.clone())
    }
}

/// File a key typed in the workbench in the operating system's key store as
/// `keyring:signscope/NAME`: the reference the profile keeps. Without a store, nothing is saved
/// and the sentence names the other choices.
fn keep_in_os_store(name: &str, key: &Secret) -> Result<KeySource, String> {
    let service = crate::store::os_store::DEFAULT_SERVICE;
    crate::store::os_store::write(service, name, key).map_err(|e| {
        format!("not saved: {e}; save again and choose s to store the key in the profile file, or k to keep the profile's key source")
    })?;
    Ok(KeySource::Keyring {
        service: service.to_string(),
        account: name.to_string(),
    })
}

/// The profile in use, saved by the manager with other forward URLs: the in-process server
/// follows.
fn forward_change(sess: &Session, e: &ProfilesEffect) -> Option<ForwardChange> {
    match e {
        ProfilesEffect::SaveProfile(p, _)
            if p.name == sess.profile().name
                && (p.forward_indexing != sess.profile().forward_indexing
                    || p.forward_analytics != sess.profile().forward_analytics) =>
        {
            Some((p.forward_indexing.clone(), p.forward_analytics.clone()))
        }
        _ => None,
    }
}

/// The manager's save of `p` (its body from the file `source` names); the profile in use: the
/// session holds what was saved (the next Ctrl-S starts from it, with no conflict) and the
/// request view follows (`account`).
fn manager_save(
    sess: &mut Session,
    mut p: Profile,
    source: Option<&str>,
    account: &mut Option<AccountChange>,
) -> Result<String, String> {
    // A handle (cheap): the session itself changes when the profile in use is saved.
    let store = sess.store().clone();
    let body = stored_body(&store, source)?;
    p.request_mut().body = body;
    let outcome = store.save(&p).map_err(|e| e.to_string())?;
    if p.name == sess.profile().name {
        let change = account_change(sess, &p);
        let mut saved = p;
        saved.request_mut().body = bytes::Bytes::new();
        saved.mark_saved(&outcome);
        *sess.profile_mut() = saved;
        let change = change(sess);
        *account = Some(change).filter(AccountChange::changes_anything);
    }
    Ok(outcome.message())
}

/// The manager's rename of `from` to `profile`'s name (saved under the new name, the old file
/// deleted). The profile in use follows its file: the next Ctrl-S saves under the new name,
/// not the old one again.
fn manager_rename(
    sess: &mut Session,
    from: &str,
    mut profile: Profile,
    tx: &UnboundedSender<Message>,
) -> Result<String, String> {
    let store = sess.store().clone();
    profile.request_mut().body = stored_body(&store, Some(from))?;
    let outcome = store
        .save(&profile)
        .and_then(|o| store.delete(from).map(|_| o))
        .map_err(|e| e.to_string())?;
    if sess.profile().name == from {
        sess.profile_mut().name = profile.name.clone();
        sess.profile_mut().mark_saved(&outcome);
        let _ = tx.send(Message::ProfileRenamed {
            from: from.to_string(),
            to: profile.name.clone(),
        });
    }
    Ok(format!("renamed {from} to {}", profile.name))
}

/// The account values of the profile in use before a save of `new`; the returned closure
/// completes them with the session's values after it (URLs as the fields show them: the
/// in-process server's address for `embedded`).
fn account_change(sess: &mut Session, new: &Profile) -> impl FnOnce(&mut Session) -> AccountChange {
    let url = sess.indexing_url().unwrap_or_default();
    let old = sess.profile();
    let before = (
        url,
        old.request().header_prefix.clone(),
        old.request().api_key.clone(),
    );
    let key_source = (old.rest_key != new.rest_key).then(|| new.rest_key.clone());
    let name = new.name.clone();
    move |sess| {
        let url = sess.indexing_url().unwrap_or_default();
        let p = sess.profile();
        AccountChange {
            name,
            url: (before.0, url),
            prefix: (before.1, p.request().header_prefix.clone()),
            api_key: (before.2, p.request().api_key.clone()),
            key_source,
        }
    }
}

fn profiles_effect_name(e: &ProfilesEffect) -> &'static str {
    match e {
        ProfilesEffect::SaveProfile(..) => "save",
        ProfilesEffect::DeleteProfile(_) => "delete",
        ProfilesEffect::RenameProfile { .. } => "rename",
        ProfilesEffect::Activate(_) => "activate",
        ProfilesEffect::Status(_) => "status",
    }
}
