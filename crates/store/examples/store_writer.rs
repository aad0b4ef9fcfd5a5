//! A helper process for the store's fault and concurrency tests.
//!
//! ```text
//! store_writer write PATH BATCH [START]
//!                                 write batches of genuine Domineering values
//!                                 forever, printing "committed N" after each
//! store_writer hold PATH          open the store, print "open", hold it until
//!                                 standard input closes
//! ```
//!
//! Batch `n` holds the boards of a 5×5 grid whose empty cells are the masks
//! `START + n·BATCH .. START + (n+1)·BATCH` (see [`batch_board`]), so a test can tell which
//! entries every reported batch must have left behind.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use partizan_core::Arena;
use partizan_games::{Board, Domineering};
use partizan_solve::{Savings, Solver};
use partizan_store::{
    encode_board, encode_value, Provenance, RawEntry, Record, Store, StoreOptions,
};

/// The board of mask `m`: a 5×5 grid whose empty cells are the bits of `m`.
fn batch_board(m: u64) -> Board {
    Board::new(5, 5, [(m as u128) & ((1 << 25) - 1), 0, 0]).expect("5x5 board")
}

fn write(path: PathBuf, batch: u64, start: u64) -> Result<(), String> {
    let store = Store::open(&path).map_err(|e| e.to_string())?;
    let mut arena = Arena::new();
    let mut solver = Solver::new(&Domineering, Savings::ALL).map_err(|e| e.to_string())?;
    let mut out = std::io::stdout();
    for n in 0u64.. {
        let mut entries = Vec::with_capacity(batch as usize);
        for m in start + n * batch..start + (n + 1) * batch {
            let b = batch_board(m);
            let v = solver.value(&mut arena, &b).map_err(|e| e.to_string())?;
            let enc = encode_value(&mut arena, v);
            entries.push(RawEntry {
                ruleset: "domineering".into(),
                key: encode_board(&b),
                record: Record {
                    provenance: Provenance::Computed,
                    computed_at: 1,
                    version: "test",
                    value: &enc,
                }
                .encode(),
            });
        }
        store.insert_regions(&entries).map_err(|e| e.to_string())?;
        writeln!(out, "committed {n}").map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn hold(path: PathBuf) -> Result<(), String> {
    let opts = StoreOptions {
        wait: std::time::Duration::ZERO,
        ..StoreOptions::default()
    };
    let _store = Store::open_with(&path, &opts).map_err(|e| e.to_string())?;
    println!("open");
    std::io::stdout().flush().map_err(|e| e.to_string())?;
    let mut sink = Vec::new();
    std::io::stdin()
        .read_to_end(&mut sink)
        .map_err(|e| e.to_string())?;
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = match args.as_slice() {
        [mode, path, batch, rest @ ..] if mode == "write" && rest.len() <= 1 => {
            let start = rest.first().map_or(Ok(0), |s| s.parse::<u64>());
            match (batch.parse(), start) {
                (Ok(b), Ok(s)) => write(PathBuf::from(path), b, s),
                _ => Err(format!("bad batch size or start '{batch}'")),
            }
        }
        [mode, path] if mode == "hold" => hold(PathBuf::from(path)),
        _ => Err("usage: store_writer write PATH BATCH [START] | store_writer hold PATH".into()),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
