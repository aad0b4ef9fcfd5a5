//! Where a decided job's time goes: the budgeted search, the certificate
//! (the prover, writing text as a worker does) and the master's check
//! (reading the text a record at a time as it replays it), on the positions two plies
//! below a Domineering rectangle (Left first at the root; the first
//! POSITIONS of them, 40 unless told):
//!
//! ```text
//! cargo run --release -p partizan-jobs --example cert_cost -- 7 7 [POSITIONS]
//! ```

use std::ops::ControlFlow;
use std::time::Instant;

use partizan_check::{check_reader, CertReader};
use partizan_games::{Domineering, Player, Ruleset};
use partizan_solve::outcome::Convention;
use partizan_solve::search::certificate::write_certificate;
use partizan_solve::search::{solve, Control, First, SearchConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: Vec<usize> = std::env::args()
        .skip(1)
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?;
    let (rows, cols, count) = match a[..] {
        [rows, cols] => (rows, cols, 40),
        [rows, cols, count] => (rows, cols, count),
        _ => return Err("usage: cert_cost ROWS COLS [POSITIONS (40)]".into()),
    };
    let root = Domineering.parse(&vec![".".repeat(cols); rows].join("|"))?;
    let mut boards = Vec::new();
    Domineering.options(&root, Player::Left, |o| {
        Domineering.options(&o, Player::Right, |p| boards.push(p))
    });
    boards.truncate(count);
    let mut cfg = SearchConfig::for_ruleset(&Domineering, Convention::Normal);
    cfg.first = First::Left;
    cfg.table_bytes = 16 << 20;
    let ctl = Control::default();
    let (mut ts, mut tc, mut tk, mut nodes) = (0.0, 0.0, 0.0, 0);
    let mut sum = partizan_check::CheckReport::default();
    for b in &boards {
        let t = Instant::now();
        let rep = solve(&Domineering, b, &cfg, &ctl)?;
        ts += t.elapsed().as_secs_f64();
        nodes += rep.total().nodes;
        // As a worker writes it (text) and the master checks it (reads
        // the text, then replays it).
        let t = Instant::now();
        let mut text = Vec::new();
        write_certificate(&Domineering, b, &cfg, &ctl, &mut text)?;
        tc += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let reader = CertReader::new(&text[..])?;
        let r = check_reader(&Domineering, reader, u64::MAX, &mut |_| {
            ControlFlow::Continue(())
        })?;
        tk += t.elapsed().as_secs_f64();
        sum += r;
    }
    let n = boards.len() as f64;
    println!(
        "{} positions two plies deep: search {:.2} ms ({} nodes), certificate {:.2} ms, check {:.2} ms ({} positions) per position",
        boards.len(),
        1e3 * ts / n,
        nodes / boards.len() as u64,
        1e3 * tc / n,
        1e3 * tk / n,
        sum.positions / boards.len() as u64
    );
    let per = |x: u64| x / boards.len() as u64;
    println!(
        "per certificate: {} records; the check: {} decided by values, {} by counts, {} terminal, {} searched, {} region positions valued",
        per(sum.records),
        per(sum.by_value),
        per(sum.by_bounds),
        per(sum.terminal),
        per(sum.searched),
        per(sum.valued)
    );
    Ok(())
}
