//! A measuring probe for the outcome search on Domineering rectangles
//! (ignored: it prints timings and node counts, and asserts nothing a
//! benchmark does not). Environment: SIZES=6x7,7x7 (rows x columns),
//! VC (value cells), ORD (natural|mobility|safety), BOUNDS=0, THREADS,
//! PAR (root-split|first-players), MB (table size).
//!
//! ```sh
//! SIZES=6x8 cargo test --release -p partizan-solve --test all outcome_probe:: -- --ignored --nocapture
//! ```
use partizan_games::{Domineering, Ruleset};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, MoveOrdering, SearchConfig};

fn rect(h: usize, w: usize) -> String {
    vec![".".repeat(w); h].join("|")
}

#[test]
#[ignore]
fn probe() {
    let sizes: Vec<(usize, usize)> = std::env::var("SIZES")
        .unwrap_or("6x6,6x7,7x7".into())
        .split(',')
        .map(|s| {
            let (a, b) = s.split_once('x').unwrap();
            (a.parse().unwrap(), b.parse().unwrap())
        })
        .collect();
    let vc: u32 = std::env::var("VC")
        .map(|v| v.parse().unwrap())
        .unwrap_or(12);
    let ord = std::env::var("ORD").unwrap_or("safety".into());
    let bounds = std::env::var("BOUNDS").map(|v| v != "0").unwrap_or(true);
    let threads = std::env::var("THREADS")
        .map(|v| v.parse().unwrap())
        .unwrap_or(1);
    for (h, w) in sizes {
        let b = Domineering.parse(&rect(h, w)).unwrap();
        let mut cfg = SearchConfig::new(Convention::Normal);
        cfg.value_cells = vc;
        cfg.ordering = ord.parse::<MoveOrdering>().unwrap();
        cfg.bounds = bounds;
        cfg.threads = threads;
        cfg.parallel = std::env::var("PAR")
            .unwrap_or("root-split".into())
            .parse()
            .unwrap();
        cfg.table_bytes = std::env::var("MB")
            .map(|v| v.parse::<usize>().unwrap())
            .unwrap_or(64)
            << 20;
        let progress = |p: &partizan_solve::search::Progress| {
            eprintln!(
                "  {} {} nodes {:.0}/s fill {} line {:?}",
                p.elapsed_ms, p.nodes, p.nodes_per_sec, p.table_filled, p.line
            );
        };
        let ctl = Control {
            progress: Some(&progress),
            interval: std::time::Duration::from_secs(30),
            ..Control::default()
        };
        let r = solve(&Domineering, &b, &cfg, &ctl).unwrap();
        println!(
            "{h}x{w}: {} in {:.2?}; left {:?} {:.2?}; right {:?} {:.2?}; table {:?}",
            r.outcomes().expect("both first players searched").class(),
            r.elapsed,
            r.left.counts,
            r.left.elapsed,
            r.right.counts,
            r.right.elapsed,
            r.table
        );
    }
}
