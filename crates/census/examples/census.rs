//! Run the Domineering census (and Cram, boards) and print the tables.
//!
//! `cargo run --release -p partizan-census --example census -- 8`

use std::time::Instant;

use partizan_census::{board_census, BoardConfig, Census, CramCensus, DomineeringValues};
use partizan_core::Arena;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map(|s| s.parse()).transpose()?.unwrap_or(8);
    let what = args.get(2).map(String::as_str).unwrap_or("all");
    if what == "all" || what == "domineering" {
        let t = Instant::now();
        let mut arena = Arena::new();
        let mut values = DomineeringValues::new();
        let census = Census::domineering(n, &mut arena, &mut values)?;
        let secs = t.elapsed().as_secs_f64();
        print!("{}", census.report.render_text());
        println!(
            "\n[{secs:.3} s, {} values computed, {} forms in the arena]",
            values.stats().computed,
            arena.len()
        );
        if what == "all" {
            let t = Instant::now();
            let boards = board_census(&census, &mut arena, &BoardConfig::default())?;
            println!();
            print!("{}", boards.render_text());
            let numbers = BoardConfig {
                numbers_only: true,
                samples: 100_000,
                exhaustive_limit: 100_000,
                ..BoardConfig::default()
            };
            let boards = board_census(&census, &mut arena, &numbers)?;
            println!();
            print!("{}", boards.render_text());
            println!("[{:.3} s]", t.elapsed().as_secs_f64());
        }
    }
    if what == "all" || what == "cram" {
        let t = Instant::now();
        let cram = CramCensus::run(n)?;
        println!();
        print!("{}", cram.report.render_text());
        println!("[{:.3} s]", t.elapsed().as_secs_f64());
    }
    Ok(())
}
