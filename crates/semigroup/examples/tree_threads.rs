//! The 2-thread / 1-thread wall ratio of the tree count, measured in one
//! run (so machine load from other processes hits both alike), with each
//! thread's CPU seconds and share of the semigroups.
//!
//! `cargo run --release -p partizan-semigroup --example tree_threads -- 42 2`
//! (genus, largest thread count; the counts are asserted against the
//! published ones, which the table has to genus 45).

use std::time::Instant;

use partizan_semigroup::count_by_genus_on;
use partizan_semigroup::tree::A007323;

fn main() {
    let mut args = std::env::args().skip(1);
    let genus: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let max_threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2);
    let t0 = Instant::now();
    let serial = partizan_semigroup::count_by_genus(genus, false).expect("genus at most 64");
    println!(
        "genus {genus}: serial walk {:.2} s wall (count {})",
        t0.elapsed().as_secs_f64(),
        serial[genus as usize]
    );
    let mut one = None;
    for threads in 1..=max_threads {
        let t0 = Instant::now();
        let r = count_by_genus_on(genus, threads).expect("genus at most 64");
        let wall = t0.elapsed().as_secs_f64();
        let n = (genus as usize).min(A007323.len() - 1);
        assert_eq!(r.counts[..=n], A007323[..=n], "published counts");
        assert_eq!(r.counts, serial, "shared walk = serial walk");
        let base = *one.get_or_insert(wall);
        println!(
            "genus {genus}: {threads} thread(s) {wall:.2} s wall, ratio to 1 thread {:.3}, count at genus {genus} = {}",
            wall / base,
            r.counts[genus as usize]
        );
        let total: u64 = r.threads.iter().map(|w| w.semigroups).sum();
        for (i, w) in r.threads.iter().enumerate() {
            println!(
                "  thread {i}: cpu {} s, waited {:.3} s, {:.1}% of the semigroups, {} jobs, {} donated",
                w.cpu_seconds.map_or("?".into(), |c| format!("{c:.2}")),
                w.waiting_seconds,
                100.0 * w.semigroups as f64 / total.max(1) as f64,
                w.jobs,
                w.donated
            );
        }
    }
}
