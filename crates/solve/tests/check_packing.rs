//! The checker's packing of vulnerable placements
//! (`partizan_check::leaves::decide_by_packing`) on random 6 x 6 to 8 x 8
//! Domineering positions, held against the search's outcome (the
//! exhaustive test on every board of up to 20 cells is in
//! `crates/check/tests/packing.rs`).

use partizan_check::leaves::{decide_by_counts, decide_by_packing, domineering_counts};
use partizan_games::{Board, Domineering, Player, Ruleset};
use partizan_solve::outcome::Convention;
use partizan_solve::search::{solve, Control, SearchConfig};

use crate::common;
use common::{random_board, Rng};

/// The movers of `b` the packing decides (tail 0), each asserted to be
/// decided as the search decides it.
fn packing_agrees(b: &Board, config: &SearchConfig) -> Vec<Player> {
    let said: Vec<_> = Player::BOTH
        .into_iter()
        .filter_map(|m| decide_by_packing(b, 0, 0, m).map(|w| (m, w)))
        .collect();
    if said.is_empty() {
        return Vec::new();
    }
    let got = solve(&Domineering, b, config, &Control::default())
        .expect("search")
        .outcomes()
        .expect("decided");
    for &(mover, w) in &said {
        let want = match mover {
            Player::Left => got.left_first,
            Player::Right => got.right_first,
        };
        assert_eq!(w, want, "{}, {mover:?} to move", Domineering.format(b));
    }
    said.into_iter().map(|(m, _)| m).collect()
}

#[test]
fn packing_decides_random_large_boards_as_the_search_does() {
    let mut rng = Rng(2002);
    let mut config = SearchConfig::new(Convention::Normal);
    config.table_bytes = 1 << 22;
    let (mut decided, mut beyond_counts) = (0, 0);
    for i in 0..2000 {
        let (h, w) = (6 + i % 3, 6 + (i / 3) % 3);
        let holes = 3 + rng.below(3);
        let b = random_board(&mut rng, h, w, holes);
        let (l, r) = (
            domineering_counts(&b, Player::Left),
            domineering_counts(&b, Player::Right),
        );
        for mover in packing_agrees(&b, &config) {
            decided += 1;
            beyond_counts += usize::from(decide_by_counts(l, r, 0, 0, mover).is_none());
        }
    }
    eprintln!("decided {decided}, of which the counts alone do not {beyond_counts}");
    // Some hundreds decided, most of them beyond the counts (the numbers
    // found when the test was written: 519, 389).
    assert!(decided > 400, "decided {decided}");
    assert!(beyond_counts > 250, "beyond the counts {beyond_counts}");
}

/// How often each rule decides random 7 x 7 positions (an experiment, not
/// a test: `--ignored --nocapture`).
#[test]
#[ignore]
fn packing_against_the_search_bounds() {
    use partizan_solve::search::domineering::Pos;
    let mut rng = Rng(99);
    let (mut fine, mut counts, mut packing, mut tried) = (0, 0, 0, 0);
    let mut shown = 0;
    for _ in 0..20000 {
        let holes = 2 + rng.below(4);
        let b = random_board(&mut rng, 7, 7, holes);
        let (l, r) = (
            domineering_counts(&b, Player::Left),
            domineering_counts(&b, Player::Right),
        );
        let p = Pos::new(&b).expect("fits");
        for m in Player::BOTH {
            tried += 1;
            let f = p.fine_cut_for(m).or(p.simple_cut_for(m));
            let c = decide_by_counts(l, r, 0, 0, m);
            let k = decide_by_packing(&b, 0, 0, m).or(c);
            fine += usize::from(f.is_some());
            counts += usize::from(c.is_some());
            packing += usize::from(k.is_some());
            if f.is_some() && k.is_none() && shown < 12 {
                shown += 1;
                let o = m.opponent();
                eprintln!(
                    "{} {m:?} to move, fine says {f:?}\n  mover {:?} {:?}\n  other {:?} {:?}",
                    Domineering.format(&b),
                    partizan_check::leaves::domineering_packing(&b, m),
                    domineering_counts(&b, m),
                    partizan_check::leaves::domineering_packing(&b, o),
                    domineering_counts(&b, o),
                );
            }
        }
    }
    eprintln!("of {tried}: search bounds {fine}, counts {counts}, counts or packing {packing}");
}

/// The positions a proof meets: reached from the empty 6 x 6, 7 x 7 and
/// 7 x 8 boards by random play (each player in turn, 4 to 20 moves), where
/// the packing decides, against the search (tail 0).
#[test]
fn packing_decides_positions_of_random_play_as_the_search_does() {
    let mut rng = Rng(1729);
    let mut config = SearchConfig::new(Convention::Normal);
    config.table_bytes = 1 << 22;
    let mut decided = 0;
    for i in 0..1500 {
        let (h, w) = [(6, 6), (7, 7), (7, 8)][i % 3];
        let mut b = Domineering
            .parse(&vec![".".repeat(w); h].join("|"))
            .unwrap();
        let plies = 4 + rng.below(17);
        let mut mover = if rng.below(2) == 0 {
            Player::Left
        } else {
            Player::Right
        };
        for _ in 0..plies {
            let mut options = Vec::new();
            Domineering.options(&b, mover, |o| {
                options.push(o);
            });
            if options.is_empty() {
                break;
            }
            b = options[rng.below(options.len() as u64) as usize];
            mover = mover.opponent();
        }
        decided += packing_agrees(&b, &config).len();
    }
    eprintln!("decided {decided}");
    assert!(decided > 50, "decided {decided}");
}
