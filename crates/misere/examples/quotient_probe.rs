//! Compute a heap game's misère quotient and print its size: `cargo run
//! --release -p partizan-misere --example quotient_probe -- 0.07 34 3000000000`
//! (code, largest heap, work budget).

use partizan_impartial::HeapGame;
use partizan_misere::quotient::{MisereQuotient, QuotientOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let code = args.get(1).map_or("0.07", String::as_str);
    let up_to: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(40);
    let max_work: u64 = args
        .get(3)
        .and_then(|a| a.parse().ok())
        .unwrap_or(2_000_000_000);
    let game = HeapGame::parse(code).expect("a heap game");
    let start = std::time::Instant::now();
    let q = MisereQuotient::compute(
        &game,
        QuotientOptions {
            up_to,
            max_work,
            ..QuotientOptions::default()
        },
    )
    .expect("computed");
    println!(
        "{code}: order {} |P| {} through heap {} {:?}; grew at {:?}; work {:?}; {:.1} s",
        q.order(),
        q.p_portion_size(),
        q.computed_to(),
        q.stability(),
        q.expansions(),
        q.work(),
        start.elapsed().as_secs_f64()
    );
}
