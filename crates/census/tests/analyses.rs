//! The analyses (`census ... --analyses`) against brute-force recounts
//! written here independently: runs read off the board text, holes by
//! counting the components of the empty cells, shading in floating point,
//! Cram packings by recursion over cells and outcomes by a plain win/loss
//! search. Figures at eight cells are the essays' (where they come out).

use std::collections::{BTreeMap, HashMap};

use partizan_census::analyses::{self, has_hole};
use partizan_census::{Catalogue, Census, CramCensus, DomineeringValues, Group, Shape};
use partizan_core::{Arena, Dyadic};

fn census(n: usize) -> Census {
    let mut arena = Arena::new();
    Census::domineering(n, &mut arena, &mut DomineeringValues::new()).unwrap()
}

fn f(d: Dyadic) -> f64 {
    d.num() as f64 / (1u64 << d.exp()) as f64
}

fn grid(s: &Shape) -> Vec<Vec<bool>> {
    s.to_text()
        .split('|')
        .map(|row| row.chars().map(|c| c == '.').collect())
        .collect()
}

/// Holes by counting 4-connected components of the non-cells in the box
/// padded by one: more than one component means a hole.
fn holed_by_components(s: &Shape) -> bool {
    let g = grid(s);
    let (h, w) = (g.len() + 2, g[0].len() + 2);
    let cell = |r: usize, c: usize| r > 0 && c > 0 && r < h - 1 && c < w - 1 && g[r - 1][c - 1];
    let mut label = vec![vec![0u32; w]; h];
    let mut comps = 0;
    for r0 in 0..h {
        for c0 in 0..w {
            if cell(r0, c0) || label[r0][c0] != 0 {
                continue;
            }
            comps += 1;
            let mut q = vec![(r0, c0)];
            label[r0][c0] = comps;
            while let Some((r, c)) = q.pop() {
                let nb = [
                    (r.wrapping_sub(1), c),
                    (r + 1, c),
                    (r, c.wrapping_sub(1)),
                    (r, c + 1),
                ];
                for (nr, nc) in nb {
                    if nr < h && nc < w && !cell(nr, nc) && label[nr][nc] == 0 {
                        label[nr][nc] = comps;
                        q.push((nr, nc));
                    }
                }
            }
        }
    }
    comps > 1
}

#[test]
fn holes_match_oeis_a001419_and_a_component_count() {
    // A001419: polyominoes with holes, n = 1..12
    let published = [0, 0, 0, 0, 0, 0, 1, 6, 37, 195, 979, 4663];
    let c = Catalogue::build(Group::Square, 12);
    for n in 1..=12 {
        let holed = c.of_size(n).iter().filter(|s| has_hole(s)).count();
        assert_eq!(holed, published[n - 1], "size {n}");
    }
    for s in Catalogue::build(Group::RowPreserving, 10).iter() {
        assert_eq!(has_hole(s), holed_by_components(s), "{s}");
    }
}

/// Per cell (row-major): lengths of its row run and column run, from the
/// text split on holes.
fn runs_by_text(s: &Shape) -> Vec<(u32, u32)> {
    let g = grid(s);
    let (h, w) = (g.len(), g[0].len());
    let mut hl = vec![vec![0u32; w]; h];
    let mut vl = vec![vec![0u32; w]; h];
    for r in 0..h {
        let mut c = 0;
        while c < w {
            let start = c;
            while c < w && g[r][c] {
                c += 1;
            }
            hl[r][start..c].fill((c - start) as u32);
            c += 1;
        }
    }
    for c in 0..w {
        let mut r = 0;
        while r < h {
            let start = r;
            while r < h && g[r][c] {
                r += 1;
            }
            for row in &mut vl[start..r] {
                row[c] = (r - start) as u32;
            }
            r += 1;
        }
    }
    let mut out = Vec::new();
    for r in 0..h {
        for c in 0..w {
            if g[r][c] {
                out.push((hl[r][c], vl[r][c]));
            }
        }
    }
    out
}

fn pearson(v: &[(f64, f64)]) -> f64 {
    let n = v.len() as f64;
    let mx = v.iter().map(|p| p.0).sum::<f64>() / n;
    let my = v.iter().map(|p| p.1).sum::<f64>() / n;
    let cov: f64 = v.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let vx: f64 = v.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let vy: f64 = v.iter().map(|p| (p.1 - my).powi(2)).sum();
    cov / (vx * vy).sqrt()
}

#[test]
fn domineering_analyses_match_a_recount_to_eight() {
    let c = census(8);
    let a = analyses::domineering(&c).unwrap();

    // the magnitude rule on the hot regions
    let mag = |k: i64| match k.abs() {
        0 => "0",
        1 => "1",
        2 => "2",
        _ => "more",
    };
    let mut hot: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for r in c.records.iter().filter(|r| r.number.is_none()) {
        let k = Dyadic::from_int(r.reading.count);
        let e = hot.entry(mag(r.reading.count)).or_default();
        e.0 += 1;
        e.1 += u64::from(r.right_stop <= k && k <= r.left_stop);
    }
    for (k, (n, between)) in &hot {
        let h = &a.hot_by_count[*k];
        assert_eq!((h.shapes, h.count_between_stops), (*n, *between), "{k}");
    }
    let total: u64 = a.hot_by_count.values().map(|h| h.count_between_stops).sum();
    assert_eq!(total, 619);

    // the count-nothing regions of eight cells: 80, of which 16 exact
    assert_eq!(
        (a.count_zero_largest.shapes, a.count_zero_largest.exact),
        (80, 16)
    );

    // shading toward nought, recomputed in floating point (exact for quarters)
    let nums: Vec<(f64, f64)> = c
        .records
        .iter()
        .filter_map(|r| r.number.map(|v| (r.reading.count as f64, f(v))))
        .collect();
    let shade = |cnt: f64, s: f64| cnt.signum() * (cnt.abs() - s).max(0.0);
    for (q, row) in a.shading.uniform.iter().enumerate() {
        let s = q as f64 / 4.0;
        let exact = nums.iter().filter(|&&(k, v)| shade(k, s) == v).count() as u64;
        assert_eq!(row.exact, exact, "uniform shade {s}");
    }
    assert_eq!(a.shading.unshaded_exact, 141);
    let mut best_total = nums.iter().filter(|&&(k, v)| k == 0.0 && v == 0.0).count() as u64;
    for class in [1.0, 2.0, 3.0] {
        let in_class = |k: f64| {
            if class < 3.0 {
                k.abs() == class
            } else {
                k.abs() >= 3.0
            }
        };
        let best = (0..=4)
            .map(|q| {
                nums.iter()
                    .filter(|&&(k, v)| in_class(k) && shade(k, q as f64 / 4.0) == v)
                    .count() as u64
            })
            .max()
            .unwrap();
        best_total += best;
    }
    assert_eq!(a.shading.by_magnitude_exact, best_total);
    assert!(a.shading.by_magnitude_exact >= a.shading.best_uniform_exact);

    // the seventy
    let seventy: Vec<_> = c
        .records
        .iter()
        .filter(|r| {
            r.number
                .is_some_and(|v| v.is_integer() && v != Dyadic::from_int(r.reading.count))
        })
        .collect();
    assert_eq!(seventy.len(), 70);
    assert_eq!(a.seventy.shapes, 70);
    assert!(seventy.iter().all(|r| {
        let v = r.number.unwrap().num();
        (r.reading.count - v).abs() == 1
    }));
    let caught = seventy
        .iter()
        .filter(|r| {
            let v = r.number.unwrap().num();
            r.reading.low <= v && v <= r.reading.high
        })
        .count() as u64;
    assert_eq!(a.seventy.caught, caught);
    // the reading of the data: 26 of the seventy, not "most"
    assert_eq!(caught, 26);
    assert_eq!(
        a.seventy.caught + a.seventy.missed_point + a.seventy.missed_other_side,
        70
    );

    // long even runs: shares from the text, correlation recomputed
    let long = |l: u32| l >= 4 && l.is_multiple_of(2);
    let mut pts = Vec::new();
    let mut ex = Vec::new();
    for r in &c.records {
        let Some(v) = r.number else { continue };
        let runs = runs_by_text(&r.shape);
        let share =
            runs.iter().filter(|&&(h, w)| long(h) || long(w)).count() as f64 / runs.len() as f64;
        let e = r.reading.count as f64 - f(v);
        pts.push((share, e.abs()));
        if r.reading.count != 0 {
            ex.push((share, (r.reading.count as f64).signum() * e));
        }
    }
    let row = &a.long_even_runs[0];
    assert_eq!((row.min_len, row.direction), (4, "either"));
    assert_eq!(row.shapes, 315);
    assert_eq!(row.nonzero, ex.len() as u64);
    assert!((row.r_abs_error.unwrap() - pearson(&pts)).abs() < 1e-9);
    assert!((row.r_exaggeration.unwrap() - pearson(&ex)).abs() < 1e-9);
    let binned: u64 = row.bins.iter().map(|b| b.shapes).sum();
    assert_eq!(binned, 315);

    // holes: the two classes add up to the whole census
    let holed = c
        .records
        .iter()
        .filter(|r| holed_by_components(&r.shape))
        .count() as u64;
    assert_eq!(a.with_holes.totals.shapes, holed);
    assert_eq!(a.simply_connected.totals.shapes + holed, 1042);
    assert_eq!(
        a.simply_connected.totals.exact + a.with_holes.totals.exact,
        141
    );
    let holed_exact = c
        .records
        .iter()
        .filter(|r| holed_by_components(&r.shape) && r.exact())
        .count() as u64;
    assert_eq!(a.with_holes.totals.exact, holed_exact);

    // point intervals against wider ones
    assert_eq!(a.points.point.shapes + a.points.wide.shapes, 315);
    assert_eq!(a.points.point.exact + a.points.wide.exact, 141);
    assert_eq!(a.points.point.exact, a.points.point.contained);
}

#[test]
fn analyses_render_and_serialise() {
    let c = census(6);
    let a = analyses::domineering(&c).unwrap();
    let t = a.render_text();
    assert!(t.contains("The seventy"), "{t}");
    assert!(t.contains("Second catalogue"), "{t}");
    let v: serde_json::Value = serde_json::from_str(&a.to_json().unwrap()).unwrap();
    assert_eq!(v["ruleset"], "domineering");
    assert_eq!(v["shading"]["unshaded_exact"], c.report.totals.exact);
    let cram = analyses::cram(&CramCensus::run(6).unwrap()).unwrap();
    assert!(cram.render_text().contains("largest packing's parity"));
    let v: serde_json::Value = serde_json::from_str(&cram.to_json().unwrap()).unwrap();
    assert_eq!(v["totals"]["shapes"], 1 + 1 + 2 + 5 + 12 + 35);
}

type Cell = (usize, usize);

/// Cells of a shape as (row, col) in a set, for the Cram twins.
fn cells(s: &Shape) -> Vec<(usize, usize)> {
    let g = grid(s);
    let mut out = Vec::new();
    for (r, row) in g.iter().enumerate() {
        for (c, &x) in row.iter().enumerate() {
            if x {
                out.push((r, c));
            }
        }
    }
    out
}

/// Every set of disjoint dominoes (a matching) over `free`, by recursion on
/// the first free cell: left out, or paired with its right or lower
/// neighbour. Calls `f` with the size and the cells left uncovered.
fn matchings(
    free: &[(usize, usize)],
    left_out: &mut Vec<(usize, usize)>,
    size: u32,
    f: &mut dyn FnMut(u32, &[Cell]),
) {
    let Some((&first, rest)) = free.split_first() else {
        f(size, left_out);
        return;
    };
    left_out.push(first);
    matchings(rest, left_out, size, f);
    left_out.pop();
    for nb in [(first.0, first.1 + 1), (first.0 + 1, first.1)] {
        if let Some(i) = rest.iter().position(|&x| x == nb) {
            let mut r = rest.to_vec();
            r.remove(i);
            matchings(&r, left_out, size + 1, f);
        }
    }
}

fn adjacent(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1
}

/// (largest matching, smallest maximal matching) by enumerating them all.
fn packings_by_enumeration(s: &Shape) -> (u32, u32) {
    let (mut max, mut min) = (0, u32::MAX);
    matchings(&cells(s), &mut Vec::new(), 0, &mut |k, uncovered| {
        max = max.max(k);
        let maximal = !uncovered
            .iter()
            .any(|&a| uncovered.iter().any(|&b| adjacent(a, b)));
        if maximal {
            min = min.min(k);
        }
    });
    (max, min)
}

/// Whether the player to move wins Cram on this set of cells.
fn first_player_wins(
    free: Vec<(usize, usize)>,
    memo: &mut HashMap<Vec<(usize, usize)>, bool>,
) -> bool {
    if let Some(&w) = memo.get(&free) {
        return w;
    }
    let mut win = false;
    'moves: for (i, &a) in free.iter().enumerate() {
        for (j, &b) in free.iter().enumerate() {
            if j > i && adjacent(a, b) {
                let rest: Vec<_> = free
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != i && k != j)
                    .map(|(_, &x)| x)
                    .collect();
                if !first_player_wins(rest, memo) {
                    win = true;
                    break 'moves;
                }
            }
        }
    }
    memo.insert(free, win);
    win
}

#[test]
fn cram_analyses_match_a_recount_to_eight() {
    let census = CramCensus::run(8).unwrap();
    let a = analyses::cram(&census).unwrap();
    let mut memo = HashMap::new();
    let (mut points, mut max_right, mut min_right, mut wide_right, mut p) = (0, 0, 0, 0, 0);
    for r in &census.records {
        let (max, min) = packings_by_enumeration(&r.shape);
        let wins = first_player_wins(cells(&r.shape), &mut memo);
        assert_eq!(wins, r.nim != 0, "{}", r.shape);
        p += u64::from(!wins);
        max_right += u64::from((max % 2 == 1) == wins);
        min_right += u64::from((min % 2 == 1) == wins);
        if max == min {
            points += 1;
            // a fixed game length decides the game
            assert_eq!(max % 2 == 1, wins, "{}", r.shape);
        } else {
            wide_right += u64::from((max % 2 == 1) == wins);
        }
    }
    let t = &a.totals;
    assert_eq!(t.shapes, 1 + 1 + 2 + 5 + 12 + 35 + 108 + 369);
    assert_eq!(t.p_positions, p);
    assert_eq!(t.points, points);
    assert_eq!(t.max_parity_right, max_right);
    assert_eq!(t.min_parity_right, min_right);
    assert_eq!(t.wide_max_parity_right, wide_right);
    assert_eq!(t.max_parity_right, t.points + t.wide_max_parity_right);
    assert_eq!(a.with_holes.shapes, 1 + 6);
    assert_eq!(a.simply_connected.shapes + a.with_holes.shapes, t.shapes);
}

/// The figures README's table quotes for eight cells.
#[test]
fn the_figures_at_eight_cells() {
    let a = analyses::domineering(&census(8)).unwrap();
    let hot: Vec<(u64, u64)> = ["0", "1", "2", "more"]
        .iter()
        .map(|k| {
            let h = &a.hot_by_count[*k];
            (h.count_between_stops, h.shapes)
        })
        .collect();
    assert_eq!(hot, [(253, 285), (286, 360), (72, 74), (8, 8)]);
    let uniform: Vec<u64> = a.shading.uniform.iter().map(|r| r.exact).collect();
    assert_eq!(uniform, [141, 57, 57, 37, 69]);
    assert_eq!(a.shading.best_uniform, "0");
    assert_eq!(a.shading.by_magnitude_exact, 161);
    let two = &a.shading.by_magnitude[1];
    assert_eq!(
        (two.magnitude.as_str(), two.best_shade.as_str()),
        ("2", "1")
    );
    let r = &a.long_even_runs[0];
    let round = |x: Option<f64>| (x.unwrap() * 100.0).round() as i64;
    assert_eq!(
        (
            round(r.r_abs_error),
            round(r.r_exaggeration),
            round(r.partial)
        ),
        (-29, 2, 1)
    );
    assert_eq!(
        (a.seventy.missed_point, a.seventy.missed_other_side),
        (42, 2)
    );
    assert_eq!(a.with_holes.totals.shapes, 12);
    assert_eq!((a.points.point.exact, a.points.point.shapes), (45, 145));
    let c = analyses::cram(&CramCensus::run(8).unwrap()).unwrap();
    assert_eq!((c.totals.points, c.totals.max_parity_right), (102, 320));
}

/// The twelve-cell figures (about 10 s in a release build):
/// `cargo test --release -p partizan-census --test all analyses:: -- --ignored`.
#[test]
#[ignore]
fn the_figures_at_twelve_cells() {
    let a = analyses::domineering(&census(12)).unwrap();
    let (h, s) = (&a.with_holes, &a.simply_connected);
    assert_eq!(h.totals.shapes, 11_707);
    assert_eq!(
        (h.totals.numbers, h.totals.exact, h.totals.contained),
        (1_437, 561, 1_215)
    );
    assert_eq!(
        (s.totals.numbers, s.totals.exact, s.totals.contained),
        (22_562, 7_222, 16_478)
    );
    assert_eq!(
        (a.points.point.exact, a.points.point.shapes),
        (1_448, 4_842)
    );
    // shading gains nothing at twelve cells, even fitted per magnitude
    assert_eq!(
        (a.shading.unshaded_exact, a.shading.by_magnitude_exact),
        (7_783, 7_783)
    );
    // the favoured player's long even runs: r = +0.22, +0.19 with |count| fixed
    let r = &a.long_even_runs[1];
    assert_eq!((r.min_len, r.direction), (4, "favoured"));
    let round = |x: Option<f64>| (x.unwrap() * 100.0).round() as i64;
    assert_eq!((round(r.r_exaggeration), round(r.partial)), (22, 19));
    let c = analyses::cram(&CramCensus::run(12).unwrap()).unwrap();
    let t = &c.totals;
    assert_eq!(
        (
            t.shapes,
            t.points,
            t.max_parity_right,
            t.wide_max_parity_right,
            t.wide
        ),
        (87_146, 2_093, 50_470, 48_377, 85_053)
    );
}
