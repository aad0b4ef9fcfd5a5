use std::time::Instant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let g: u32 = args[1].parse().unwrap();
    let par = args.get(2).map(|s| s == "par").unwrap_or(false);
    let t = Instant::now();
    let c = partizan_semigroup::count_by_genus(g, par).unwrap();
    let total: u64 = c.iter().sum();
    println!("{:?}\ntotal {} in {:?}", c, total, t.elapsed());
}
