//! Build (or resume) the value atlas and print its report with per-size
//! timings.
//!
//! `cargo run --release -p partizan-census --example atlas -- 13 2 /tmp/atlas`
//! (max cells, worker threads, store directory; no directory = in memory).

use partizan_census::atlas::{Atlas, AtlasConfig, NoStore};
use partizan_census::DirStore;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map(|s| s.parse()).transpose()?.unwrap_or(10);
    let threads: usize = args.get(2).map(|s| s.parse()).transpose()?.unwrap_or(2);
    let cfg = AtlasConfig {
        threads,
        // with a directory the levels go to disk as they finish; the report
        // then reads them back
        keep_entries: args.get(3).is_none(),
        ..AtlasConfig::new(n)
    };
    let t0 = std::time::Instant::now();
    let built = match args.get(3) {
        Some(dir) => Atlas::build(&cfg, &mut DirStore::new(dir))?,
        None => Atlas::build(&cfg, &mut NoStore)?,
    };
    let secs = t0.elapsed().as_secs_f64();
    for s in &built.stats {
        println!(
            "size {:>2}: {:>10} classes, {:>7} new values, {:>8.2} s{}  per thread {:?}, arena resets {}",
            s.cells,
            s.classes,
            s.new_values,
            s.seconds,
            if s.loaded { " (loaded)" } else { "" },
            s.per_thread,
            s.arena_resets
        );
    }
    println!("[built in {secs:.2} s on {threads} thread(s)]\n");
    let t1 = std::time::Instant::now();
    let atlas = match args.get(3) {
        Some(dir) => Atlas::load(&mut DirStore::new(dir), n)?,
        None => built,
    };
    let report = atlas.report(10);
    print!("{}", report.render_text());
    println!("[report in {:.2} s]", t1.elapsed().as_secs_f64());
    Ok(())
}
