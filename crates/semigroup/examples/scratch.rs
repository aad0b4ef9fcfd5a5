use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args[1].as_str();
    let g: u32 = args[2].parse().unwrap();
    let t = Instant::now();
    match what {
        "tree" | "par" => {
            let c = partizan_semigroup::count_by_genus(g, what == "par").unwrap();
            let total: u64 = c.iter().sum();
            println!("{:?}\ntotal {} in {:?}", c, total, t.elapsed());
        }
        "census" => {
            let order = args.get(3).map(|s| s.parse().unwrap()).unwrap_or_default();
            let r = partizan_semigroup::census(g, order).unwrap();
            let el = t.elapsed();
            println!("{}", r);
            println!("closures {:?}", total_closures(&r));
            println!("in {:?}", el);
        }
        "outcomes" => {
            let r = partizan_semigroup::outcomes(g).unwrap();
            println!("{}\nin {:?}", r, t.elapsed());
        }
        _ => {
            let s = partizan_semigroup::Semigroup::parse_gaps(what).unwrap();
            println!("{}", partizan_semigroup::play(&s).unwrap());
        }
    }
}
#[allow(dead_code)]
fn total_closures(r: &partizan_semigroup::CensusReport) -> [u64; 5] {
    let mut t = [0u64; 5];
    for p in &r.positions {
        t[0] += p.finishing.closures;
        t[1] += p.fresh.counts.closures;
        t[2] += p.kept.counts.closures;
        t[3] += p.two_sided.counts.closures;
        t[4] += p.told.counts.closures;
    }
    t
}
