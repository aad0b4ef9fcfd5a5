//! partizan-web: the local site. Server-rendered pages with SVG drawings
//! computed live, and a JSON API mirroring the command line's `--json`.
//!
//! * `/value` — values typed in CGSuite notation: canonical form, outcome,
//!   stops, mean, temperature, atomic weight, reduced form, incentives and
//!   the thermograph drawn (SVG, PNG, TikZ); several added and compared;
//! * `/explore` — a board, its regions in colour, each region's value and
//!   position-graph size, the whole board's value, and the position-graph
//!   identity (the drawing is refused when the identity fails); play by
//!   clicks for either player with undo and redo, both players' options
//!   with values and incentives, the best moves, a game tree, thermographs,
//!   and every picture downloadable as SVG, PNG or TikZ;
//! * `/census/RULESET` — the region census tables, plots and filters;
//! * `/sylver` and `/sylver/position` — Sylver Coinage census and positions;
//! * `/semigroups` — numerical semigroup counts by genus;
//! * `/outcome` — who wins a board too large to value (the outcome search
//!   under a time, node and table budget), or a table over rectangles;
//! * `/grundy` — the impartial engine: Grundy sequences, periods proved;
//! * `/atlas` — the Domineering value atlas, when one is built;
//! * `/parts` and `/sylver/trace` — the essays' parts table and told-proof trace;
//! * `/api` and `/api/...` — the JSON API.
//!
//! Every request runs under [`Limits`]: a cell cap per ruleset, a time
//! budget, and a bounded number of heavy requests (the rest wait briefly,
//! then get 503; store hits need no slot). A board that runs out of time on
//! a site with a store goes on in one background slot (`/api/job`). Bad
//! input is a 400 naming the problem. Every answer carries a
//! Content-Security-Policy without inline scripts (the one script is
//! `/static/app.js`), `nosniff` and `no-referrer`.
//!
//! ```no_run
//! let config = partizan_web::Config::default();
//! partizan_web::run(config, |addr| println!("open http://{addr}/")).unwrap();
//! ```

#![warn(missing_docs)]

pub mod error;
pub mod front_door;
pub mod graphs;
pub mod html;
pub mod identity;
pub mod jobs;
pub mod limits;
mod pages;
pub mod play;
pub mod report;
pub mod rules;
pub mod svg;
pub mod thermograph;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use axum::Router;
use partizan_store::{Store, StoreError};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

pub use error::{ApiError, PageError, WebError};
pub use identity::{check_identity, Identity};
pub use limits::{Budget, Limits};

/// The default port of `partizan serve`.
pub const DEFAULT_PORT: u16 = 7878;

/// How to run the site.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on; the site only ever binds loopback by default.
    pub addr: SocketAddr,
    /// The persistent value table to read through (and add to), if any.
    pub store: Option<Store>,
    /// Request limits.
    pub limits: Limits,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)),
            store: None,
            limits: Limits::default(),
        }
    }
}

/// Shared state of a running site: limits, the heavy-work permits and caches.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

/// Store reads answered at once without a heavy-work slot.
pub const LIGHT_SLOTS: usize = 16;

struct Inner {
    limits: Limits,
    permits: Arc<Semaphore>,
    light: Arc<Semaphore>,
    jobs: jobs::Jobs,
    store: Option<Store>,
    atlas: Option<std::path::PathBuf>,
    cache: pages::Cache,
}

impl AppState {
    /// State for a site with these limits and no store.
    pub fn new(limits: Limits) -> AppState {
        AppState::build(limits, None)
    }

    /// State for a site reading region values through the store at `path`
    /// (created if absent).
    pub fn with_store(limits: Limits, path: &Path) -> Result<AppState, StoreError> {
        let store = Store::open(path)?;
        Ok(AppState::build(limits, Some(store)))
    }

    /// State for a site reading through an already opened store (or none),
    /// and the atlas in its default directory
    /// ([`partizan_census::DirStore::default_dir`]).
    pub fn build(limits: Limits, store: Option<Store>) -> AppState {
        AppState::build_with_atlas(limits, store, partizan_census::DirStore::default_dir())
    }

    /// [`AppState::build`] reading the atlas from `atlas` (or none).
    pub fn build_with_atlas(
        limits: Limits,
        store: Option<Store>,
        atlas: Option<std::path::PathBuf>,
    ) -> AppState {
        let permits = Arc::new(Semaphore::new(limits.max_heavy));
        AppState {
            inner: Arc::new(Inner {
                limits,
                permits,
                light: Arc::new(Semaphore::new(LIGHT_SLOTS)),
                jobs: jobs::Jobs::default(),
                store,
                atlas,
                cache: pages::Cache::default(),
            }),
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// The store's path, if the site reads through a store.
    pub fn store_path(&self) -> Option<&Path> {
        self.inner.store.as_ref().map(|s| s.path())
    }

    /// The atlas directory the site reads, if any.
    pub(crate) fn atlas_dir(&self) -> Option<&Path> {
        self.inner.atlas.as_deref()
    }

    /// A handle on the store (cheap to clone), if any.
    pub(crate) fn store_handle(&self) -> Option<Store> {
        self.inner.store.clone()
    }

    /// After a request ran out of time on `board`: hand it to the
    /// background slot (when the limits allow one and the site has a
    /// store) and answer what that did — computing, already done, or the slot is busy with another.
    pub(crate) fn hand_off(
        &self,
        ruleset: &'static str,
        text: &str,
        board: partizan_games::Board,
        savings: partizan_solve::Savings,
        fault: WebError,
    ) -> Result<Box<partizan_report::BoardValue>, WebError> {
        let l = &self.inner.limits;
        // Only a site with a store hands work off: what the background
        // finds is kept there for every later request.
        if l.background_budget.is_zero()
            || self.inner.store.is_none()
            || !matches!(fault, WebError::OutOfTime(_))
        {
            return Err(fault);
        }
        let what = format!("{ruleset} {text}");
        match self.inner.jobs.start(
            ruleset,
            text.to_string(),
            board,
            savings,
            self.inner.store.clone(),
            l.background_budget,
        ) {
            jobs::Started::Done(v) => Ok(v),
            jobs::Started::New | jobs::Started::Running(_) => Err(WebError::Background {
                budget_ms: l.budget.as_millis() as u64,
                board: what,
            }),
            jobs::Started::Busy(other) => Err(WebError::Unavailable(format!(
                "the computation ran past this request's budget of {} ms, and the one background slot is busy with {other}; retry later or cancel it with /api/job/cancel",
                l.budget.as_millis()
            ))),
        }
    }

    /// The background computation slot.
    pub fn jobs(&self) -> &jobs::Jobs {
        &self.inner.jobs
    }

    pub(crate) fn cache(&self) -> &pages::Cache {
        &self.inner.cache
    }

    /// Take one heavy-work slot and hold it until the permit is dropped
    /// (`None` when all are taken). For tests and tools that need to see
    /// the 503 path.
    pub fn hold_permit(&self) -> Option<OwnedSemaphorePermit> {
        self.inner.permits.clone().try_acquire_owned().ok()
    }

    /// Free heavy-work slots right now.
    pub fn free_permits(&self) -> usize {
        self.inner.permits.available_permits()
    }

    /// Run heavy work on the blocking pool under a permit and the budget.
    pub(crate) async fn heavy<T, F>(&self, work: F) -> Result<T, WebError>
    where
        T: Send + 'static,
        F: FnOnce(&Budget) -> Result<T, WebError> + Send + 'static,
    {
        let l = &self.inner.limits;
        limits::run_heavy(
            &self.inner.permits,
            l.max_heavy,
            l.queue_wait,
            l.budget,
            work,
        )
        .await
    }

    /// Run a cheap read of the store on the blocking pool without a
    /// heavy-work slot (a store hit takes milliseconds; it must not wait
    /// behind searches). At most [`LIGHT_SLOTS`] at once; `None` when they
    /// are taken, when there is no store, or when the store cannot answer
    /// alone (`work` returns `None`): the caller then takes the heavy path.
    pub(crate) async fn store_only<T, F>(&self, work: F) -> Option<T>
    where
        T: Send + 'static,
        F: FnOnce(&Store) -> Option<T> + Send + 'static,
    {
        let store = self.inner.store.clone()?;
        let permit = self.inner.light.clone().try_acquire_owned().ok()?;
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work(&store)
        })
        .await
        .ok()
        .flatten()
    }
}

/// The site's router over this state.
pub fn router(state: AppState) -> Router {
    pages::routes().with_state(state)
}

/// How long a client may take to send a request's headers before its
/// connection is closed (a half-sent request must not hold a connection).
pub const HEADER_READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// How long shutdown waits for requests in flight before it closes every
/// connection anyway.
pub const SHUTDOWN_DEADLINE: std::time::Duration = std::time::Duration::from_secs(3);

/// Serve the site on an already bound listener until `shutdown` ends (ctrl-c
/// when run from [`run`]). Each connection must send its headers within
/// [`HEADER_READ_TIMEOUT`]; at shutdown, requests in flight get
/// [`SHUTDOWN_DEADLINE`] to finish, then every connection is dropped.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with(
        listener,
        state,
        shutdown,
        HEADER_READ_TIMEOUT,
        SHUTDOWN_DEADLINE,
    )
    .await
}

/// [`serve`] with explicit timeouts (tests use short ones).
pub async fn serve_with(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    header_timeout: std::time::Duration,
    deadline: std::time::Duration,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;

    let app = router(state);
    let (close_tx, close_rx) = tokio::sync::watch::channel(false);
    let mut conns = tokio::task::JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => {
                let (stream, _) = match accepted {
                    Ok(x) => x,
                    // Out of file descriptors and the like: back off, go on.
                    Err(_) => {
                        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                        continue;
                    }
                };
                let service = TowerToHyperService::new(app.clone());
                let mut close = close_rx.clone();
                conns.spawn(async move {
                    let mut builder = hyper::server::conn::http1::Builder::new();
                    builder
                        .timer(TokioTimer::new())
                        .header_read_timeout(header_timeout);
                    // heads hyper would refuse by itself are refused
                    // by the front door, with the site's headers
                    let stream = front_door::Guarded::new(stream);
                    let conn = builder.serve_connection(TokioIo::new(stream), service);
                    let mut conn = std::pin::pin!(conn);
                    tokio::select! {
                        _ = conn.as_mut() => {}
                        _ = close.changed() => {
                            conn.as_mut().graceful_shutdown();
                            let _ = conn.await;
                        }
                    }
                });
                // Reap finished connections so the set stays small.
                while conns.try_join_next().is_some() {}
            }
        }
    }
    drop(listener);
    let _ = close_tx.send(true);
    let drain = async { while conns.join_next().await.is_some() {} };
    if tokio::time::timeout(deadline, drain).await.is_err() {
        conns.abort_all();
    }
    Ok(())
}

/// Why [`run`] could not serve.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The port is taken by another process.
    #[error("port {port} on {ip} is already in use (is another `partizan serve` running?); choose another with --port N, or --port 0 for any free port")]
    PortInUse {
        /// The address's IP.
        ip: std::net::IpAddr,
        /// The port asked for.
        port: u16,
    },
    /// Binding the address failed otherwise.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address asked for.
        addr: SocketAddr,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The runtime or the listener failed.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

/// Bind `config.addr`, call `ready` with the actual address (the port may
/// have been 0), and serve until ctrl-c. Builds its own tokio runtime.
/// A taken port is [`RunError::PortInUse`], whose message names the port
/// and suggests `--port`.
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), RunError> {
    let state = AppState::build(config.limits.clone(), config.store.clone());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let listener = TcpListener::bind(config.addr)
            .await
            .map_err(|e| bind_error(config.addr, e))?;
        let addr = listener.local_addr()?;
        ready(addr);
        serve(listener, state, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
        Ok(())
    })
}

/// The fault of a failed bind: a taken port names the port.
pub fn bind_error(addr: SocketAddr, e: std::io::Error) -> RunError {
    if e.kind() == std::io::ErrorKind::AddrInUse {
        RunError::PortInUse {
            ip: addr.ip(),
            port: addr.port(),
        }
    } else {
        RunError::Bind { addr, source: e }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_port_names_it_and_suggests_port() {
        let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = taken.local_addr().unwrap();
        let config = Config {
            addr,
            ..Config::default()
        };
        let e = run(config, |_| {}).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, RunError::PortInUse { .. }), "{msg}");
        assert!(msg.contains(&addr.port().to_string()), "{msg}");
        assert!(msg.contains("--port"), "{msg}");
    }
}
