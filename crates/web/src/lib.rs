//! partizan-web: the local site. Server-rendered pages with SVG drawings
//! computed live, and a JSON API mirroring the command line's `--json`.
//!
//! * `/explore` — a board, its regions in colour, each region's value and
//!   position-graph size, the whole board's value, and the position-graph
//!   identity (the drawing is refused when the identity fails);
//! * `/census/RULESET` — the region census tables, plots and filters;
//! * `/sylver` and `/sylver/position` — Sylver Coinage census and positions;
//! * `/semigroups` — numerical semigroup counts by genus;
//! * `/api` and `/api/...` — the JSON API.
//!
//! Every request runs under [`Limits`]: a cell cap per ruleset, a time
//! budget, and a bounded number of heavy requests (the rest get 503). Bad
//! input is a 400 naming the problem.
//!
//! ```no_run
//! let config = partizan_web::Config::default();
//! partizan_web::run(config, |addr| println!("open http://{addr}/")).unwrap();
//! ```

#![warn(missing_docs)]

pub mod error;
pub mod graphs;
pub mod html;
pub mod identity;
pub mod limits;
mod pages;
pub mod report;
pub mod rules;
pub mod svg;

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

struct Inner {
    limits: Limits,
    permits: Arc<Semaphore>,
    store: Option<Store>,
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

    /// State for a site reading through an already opened store (or none).
    pub fn build(limits: Limits, store: Option<Store>) -> AppState {
        let permits = Arc::new(Semaphore::new(limits.max_heavy));
        AppState {
            inner: Arc::new(Inner {
                limits,
                permits,
                store,
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

    /// A handle on the store (cheap to clone), if any.
    pub(crate) fn store_handle(&self) -> Option<Store> {
        self.inner.store.clone()
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
        limits::run_heavy(&self.inner.permits, l.max_heavy, l.budget, work).await
    }
}

/// The site's router over this state.
pub fn router(state: AppState) -> Router {
    pages::routes().with_state(state)
}

/// Serve the site on an already bound listener until the future ends
/// (ctrl-c when run from [`run`]).
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(state))
        .with_graceful_shutdown(shutdown)
        .await
}

/// Bind `config.addr`, call `ready` with the actual address (the port may
/// have been 0), and serve until ctrl-c. Builds its own tokio runtime.
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let state = AppState::build(config.limits.clone(), config.store.clone());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let listener = TcpListener::bind(config.addr).await?;
        let addr = listener.local_addr()?;
        ready(addr);
        serve(listener, state, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
    })
}
