//! A session: the profile store, the history, the profile in use, and the in-process local
//! server when that profile uses it. The one place that applies the last-used policy
//! (`docs/architecture.md`, "Last used profile").

use crate::client::{ClientOptions, LazyClient};
use crate::core::spec::{SigningParams, Timestamp};
use crate::core::Secret;
use crate::server::{self, Server, ServerConfig};
use crate::store::{
    History, Paths, Profile, ProfileStore, SaveOptions, SaveOutcome, DEMO_PROFILE, EMBEDDED_URL,
};

use super::embedded::embedded_config;
use super::error::EngineError;
use super::send::Sender;

/// The on-disk side of a run and the profile in use. Blocking (it reads files and may start the
/// in-process server): open it once, then send through [`Session::sender`].
pub struct Session {
    store: ProfileStore,
    history: History,
    profile: Profile,
    /// The in-process local server, started the first time a profile names `embedded`.
    embedded: Option<Server>,
    /// Its address, bound but not served yet ([`Session::reserve_embedded`]).
    reserved: Option<std::net::TcpListener>,
    http: LazyClient,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("profile", &self.profile.name)
            .field("embedded", &self.embedded.as_ref().map(|s| s.url()))
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Open the profile named, or the default one, in the user's directories.
    pub fn open(name: Option<&str>) -> Result<Session, EngineError> {
        Session::open_in(Paths::discover()?, name, ClientOptions::default())
    }

    /// Open a profile in these directories: the one named; else the last used one while it
    /// still loads; else the only saved profile; else `demo` when none is saved. With several
    /// saved profiles and no usable last used one, the caller must choose. The profile opened
    /// becomes the last used one.
    pub fn open_in(
        paths: Paths,
        name: Option<&str>,
        opts: ClientOptions,
    ) -> Result<Session, EngineError> {
        let session = Session::open_unmarked_in(paths, name, opts)?;
        session.mark_last_used();
        Ok(session)
    }

    /// [`Session::open_in`] without marking the profile opened as the last used one: the caller
    /// does it with [`Session::last_used_marker`] when it suits it (the workbench after its
    /// first frame: the write syncs the state file to disk, several milliseconds).
    pub fn open_unmarked_in(
        paths: Paths,
        name: Option<&str>,
        opts: ClientOptions,
    ) -> Result<Session, EngineError> {
        let store = ProfileStore::open(&paths);
        let profile = match name {
            Some(n) => store.load(n)?,
            None => match store.last_used().map(|n| store.load(&n)) {
                Some(Ok(p)) => p,
                _ => {
                    let saved = store.saved_names();
                    match saved.as_slice() {
                        [] => Profile::demo(),
                        [only] => store.load(only)?,
                        many => {
                            return Err(EngineError::ChooseProfile {
                                names: many.join(", "),
                            })
                        }
                    }
                }
            },
        };
        Ok(Session {
            history: History::open(&paths),
            store,
            profile,
            embedded: None,
            reserved: None,
            http: LazyClient::new(opts),
        })
    }

    /// Open another profile in the same directories; it becomes the last used one. On error the
    /// current profile stays.
    pub fn switch(&mut self, name: &str) -> Result<&Profile, EngineError> {
        self.profile = self.store.load(name)?;
        self.mark_last_used();
        Ok(&self.profile)
    }

    /// Save `profile` and make it the current, last used profile.
    pub fn save(
        &mut self,
        mut profile: Profile,
        opts: SaveOptions,
    ) -> Result<SaveOutcome, EngineError> {
        let outcome = self.store.save_with(&profile, opts)?;
        profile.mark_saved(&outcome);
        self.profile = profile;
        self.mark_last_used();
        Ok(outcome)
    }

    /// What marks the current profile as the last used one, to run anywhere (a blocking
    /// thread); a failure is logged, not fatal.
    pub fn last_used_marker(&self) -> impl FnOnce() + Send + 'static {
        let (store, name) = (self.store.clone(), self.profile.name.clone());
        move || {
            if let Err(e) = store.set_last_used(&name) {
                tracing::debug!(error = %e, "last used profile not remembered");
            }
        }
    }

    /// Remember the current profile as the last used one, now.
    fn mark_last_used(&self) {
        self.last_used_marker()();
    }

    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The profile, to edit in place (saving is [`Session::save`]).
    pub fn profile_mut(&mut self) -> &mut Profile {
        &mut self.profile
    }

    pub fn store(&self) -> &ProfileStore {
        &self.store
    }

    pub fn history(&self) -> &History {
        &self.history
    }

    /// The URL of the in-process server, starting it on first use (the demo account on a free
    /// loopback port, on a thread of its own: the CLI has no runtime to lend it).
    pub fn embedded_url(&mut self) -> Result<String, EngineError> {
        if let Some(s) = &self.embedded {
            return Ok(s.url());
        }
        let server_error = |e: std::io::Error| EngineError::Server {
            reason: e.to_string(),
        };
        if let Some(listener) = &self.reserved {
            return Ok(format!(
                "http://{}",
                listener.local_addr().map_err(server_error)?
            ));
        }
        let server = std::net::TcpListener::bind(("127.0.0.1", 0))
            .and_then(|listener| server::spawn(ServerConfig::demo(), listener))
            .map_err(server_error)?;
        let url = server.url();
        self.embedded = Some(server);
        Ok(url)
    }

    /// Start the in-process server on `listener` (bound by the caller: the workbench binds
    /// `--listen` before it takes the screen), configured for the current profile
    /// ([`embedded_config`]): as tasks of `runtime`, or on a thread of its own without one. One
    /// already running is stopped. Returns why a forward URL of the profile cannot be used.
    pub fn start_embedded(
        &mut self,
        listener: std::net::TcpListener,
        runtime: Option<&tokio::runtime::Handle>,
    ) -> Result<Option<String>, EngineError> {
        let (config, note) = embedded_config(&self.profile);
        let started = match runtime {
            Some(rt) => server::start(rt, config, listener),
            None => server::spawn(config, listener),
        };
        let server = started.map_err(|e| EngineError::Server {
            reason: e.to_string(),
        })?;
        // A profile of a real account signs X-KLEVU-* (or its own prefix): the in-process
        // server answers to it (`docs/server.md` rule R12).
        server.set_profile_prefix(Some(self.profile.header_prefix()));
        self.embedded = Some(server);
        Ok(note)
    }

    /// Keep `listener` as the in-process server's address without serving on it yet: its URL
    /// resolves at once (the workbench shows it in its first frame, drawn before the server is
    /// built), and connections wait in its backlog until [`Session::serve_reserved`]. Returns
    /// why a forward URL of the profile cannot be used.
    pub fn reserve_embedded(&mut self, listener: std::net::TcpListener) -> Option<String> {
        self.reserved = Some(listener);
        embedded_config(&self.profile).1
    }

    /// Serve on the reserved address as tasks of `runtime` (nothing when none is reserved).
    pub fn serve_reserved(&mut self, runtime: &tokio::runtime::Handle) -> Result<(), EngineError> {
        match self.reserved.take() {
            Some(listener) => self.start_embedded(listener, Some(runtime)).map(drop),
            None => Ok(()),
        }
    }

    /// Point the in-process server's forwarding at the current profile's upstreams (none when
    /// it names none): a profile switch changes where requests go from the next one on, on the
    /// same address (`docs/server.md` rule W10). Returns why a URL of the profile cannot be
    /// used; `None` also when no in-process server runs.
    pub fn forward_embedded(&self) -> Option<String> {
        let server = self.embedded.as_ref()?;
        server.set_profile_prefix(Some(self.profile.header_prefix()));
        let (config, note) = embedded_config(&self.profile);
        let refused = server.set_forwarding(
            config.forward_indexing.as_deref(),
            config.forward_analytics.as_deref(),
        );
        tracing::debug!(
            profile = %self.profile.name,
            indexing = ?config.forward_indexing,
            analytics = ?config.forward_analytics,
            "in-process server forwarding set"
        );
        let notes: Vec<String> = note
            .into_iter()
            .chain(refused.iter().map(ToString::to_string))
            .collect();
        (!notes.is_empty()).then(|| notes.join("; "))
    }

    /// The URL of the in-process server when it runs (without starting it).
    pub fn running_embedded_url(&self) -> Option<String> {
        self.embedded.as_ref().map(Server::url)
    }

    /// The base URL a profile URL stands for (`embedded`: the in-process server).
    pub fn resolve_url(&mut self, url: &str) -> Result<String, EngineError> {
        if url == EMBEDDED_URL {
            self.embedded_url()
        } else {
            Ok(url.to_string())
        }
    }

    /// The current profile's indexing base URL.
    pub fn indexing_url(&mut self) -> Result<String, EngineError> {
        let url = self.profile.indexing_url.clone();
        self.resolve_url(&url)
    }

    /// The current profile's analytics base URL.
    pub fn analytics_url(&mut self) -> Result<String, EngineError> {
        let url = self.profile.analytics_url.clone();
        self.resolve_url(&url)
    }

    /// The current profile's REST key, read now from its source (never printed).
    pub fn key(&self) -> Result<Secret, EngineError> {
        self.profile
            .rest_key
            .resolve()
            .map_err(|reason| EngineError::Key {
                profile: self.profile.name.clone(),
                reason,
            })
    }

    /// The profile's key with a timestamp choice.
    pub fn signing_params(&self, timestamp: Timestamp) -> Result<SigningParams, EngineError> {
        Ok(SigningParams {
            key: self.key()?,
            timestamp,
            form: Default::default(),
        })
    }

    /// A handle that sends with this session's client and records in its history under the
    /// current profile's name and its selected request's name. Cheap to clone; owned by a
    /// tokio task.
    pub fn sender(&self) -> Sender {
        Sender::new(
            self.http.clone(),
            self.profile.name.clone(),
            Some(self.history.clone()),
            Some(self.store.clone()),
        )
        .with_request_name(Some(self.profile.selected_request().name.clone()))
        .with_in_process(self.running_embedded_url())
    }

    /// Whether the current profile is the built-in demo.
    pub fn is_demo(&self) -> bool {
        self.profile.name == DEMO_PROFILE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Session {
        /// The in-process server when it runs (without starting it).
        pub(crate) fn embedded(&self) -> Option<&Server> {
            self.embedded.as_ref()
        }
    }
}
