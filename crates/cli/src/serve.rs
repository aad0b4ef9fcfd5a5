//! `partizan serve`: the local site (board explorer, censuses, Sylver
//! Coinage, semigroups, JSON API) on 127.0.0.1.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use crate::store_cmd::StoreChoice;

/// Arguments of `partizan serve` (the store comes from the global
/// `--store PATH` / `--no-store`, as for every command).
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port on 127.0.0.1 (0 picks a free one).
    #[arg(long, default_value_t = partizan_web::DEFAULT_PORT)]
    pub port: u16,
    /// Time budget of one heavy request, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    pub budget_ms: u64,
    /// Heavy requests allowed at once (the rest are answered 503).
    #[arg(long, default_value_t = 4)]
    pub max_heavy: usize,
}

/// `partizan serve [--port N]`: print the address to open and serve until
/// interrupted, reading region values through the store unless `--no-store`.
pub fn serve(args: ServeArgs, store: &StoreChoice) -> Result<()> {
    let (st, busy) = store.open_unless_busy()?;
    if let Some(e) = busy {
        eprintln!("warning: {e}; serving without the store");
    }
    let limits = partizan_web::Limits {
        budget: Duration::from_millis(args.budget_ms.max(1)),
        max_heavy: args.max_heavy.max(1),
        ..partizan_web::Limits::default()
    };
    let store_line = st
        .as_ref()
        .map(|s| format!("reading values through the store at {}", s.path().display()));
    let config = partizan_web::Config {
        addr: SocketAddr::from(([127, 0, 0, 1], args.port)),
        store: st,
        limits,
    };
    partizan_web::run(config, |addr| {
        println!("partizan: serving on http://{addr}/ (ctrl-c to stop)");
        if let Some(line) = store_line {
            println!("{line}");
        }
    })?;
    Ok(())
}
