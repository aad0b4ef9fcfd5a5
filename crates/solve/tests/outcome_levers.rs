//! A measuring probe for the general outcome engine on any ruleset
//! (ignored: it prints node counts, and asserts only that both first
//! players were answered). Environment: RULESET (a registry name), BOARD,
//! THREADS (default 1), MB (table size, default 64).
//!
//! ```sh
//! RULESET=cram BOARD='......|......|......|......|......' \
//!   cargo test --release -p partizan-solve --test all outcome_levers:: -- --ignored --nocapture
//! ```
use partizan_games::{with_rules, Rules};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, SearchConfig};

#[test]
#[ignore]
fn probe() {
    let name = std::env::var("RULESET").unwrap_or("cram".into());
    let board = std::env::var("BOARD").unwrap_or("....|....|....".into());
    let threads = std::env::var("THREADS")
        .map(|v| v.parse().unwrap())
        .unwrap_or(1);
    let mb: usize = std::env::var("MB")
        .map(|v| v.parse().unwrap())
        .unwrap_or(64);
    let r: Rules = name.parse().expect("a registered ruleset");
    with_rules!(r, |rs| {
        let b = rs.parse(&board).expect("board");
        let mut cfg = SearchConfig::for_ruleset(rs, Convention::Normal);
        cfg.threads = threads;
        cfg.table_bytes = mb << 20;
        cfg.fast = false;
        let rep = solve(rs, &b, &cfg, &Control::default()).expect("search");
        println!(
            "{name} {board}: {} in {:.2?}; nodes {} (left {}, right {}); left {:?}; right {:?}",
            rep.outcomes().expect("both first players searched").class(),
            rep.elapsed,
            rep.total().nodes,
            rep.left.counts.nodes,
            rep.right.counts.nodes,
            rep.left.counts,
            rep.right.counts
        );
    });
}
