//! Amazons' search knowledge against brute force: the bit-parallel
//! mobility against the option count, and the region-aware move bounds
//! against exhaustive play on random small boards with holes and one or
//! two queens each.

use std::collections::HashMap;

use partizan_games::amazons::Amazons;
use partizan_games::{Board, Player, Ruleset};
use proptest::prelude::*;

/// A random board: `h` x `w`, each cell a hole with probability
/// `holes`/10, then `l` Left and `r` Right queens on distinct non-hole
/// cells (fewer when there is no room).
fn board(h: usize, w: usize, holes: u8, l: usize, r: usize, picks: &[u8]) -> Board {
    let mut cells: Vec<char> = (0..h * w)
        .map(|i| if picks[i] % 10 < holes { '#' } else { '.' })
        .collect();
    let mut k = h * w;
    for (glyph, n) in [('L', l), ('R', r)] {
        for _ in 0..n {
            let open: Vec<usize> = (0..h * w).filter(|&i| cells[i] == '.').collect();
            if open.is_empty() {
                break;
            }
            cells[open[picks[k % picks.len()] as usize % open.len()]] = glyph;
            k += 1;
        }
    }
    let text = cells
        .chunks(w)
        .map(|row| row.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("|");
    Amazons.parse(&text).expect("generated boards parse")
}

/// The most moves `p` can make over any line of play (either player
/// moving, in any order): what `max` must bound.
fn most_moves(b: &Board, p: Player, memo: &mut HashMap<Board, u32>) -> u32 {
    if let Some(&m) = memo.get(b) {
        return m;
    }
    let mut kids = Vec::new();
    Amazons.options(b, p, |o| kids.push((o, 1)));
    Amazons.options(b, p.opponent(), |o| kids.push((o, 0)));
    let m = kids
        .into_iter()
        .map(|(o, k)| k + most_moves(&o, p, memo))
        .max()
        .unwrap_or(0);
    memo.insert(*b, m);
    m
}

/// The moves `p` can be sure to make: `p` moves when `to_move`, else the
/// opponent moves or passes, as harmfully as possible. What `safe` must
/// not exceed (the cutoff lets the opponent play anything in between).
fn sure_moves(b: &Board, p: Player, to_move: bool, memo: &mut HashMap<(Board, bool), u32>) -> u32 {
    if let Some(&m) = memo.get(&(*b, to_move)) {
        return m;
    }
    let m = if to_move {
        let mut kids = Vec::new();
        Amazons.options(b, p, |o| kids.push(o));
        kids.into_iter()
            .map(|o| 1 + sure_moves(&o, p, false, memo))
            .max()
            .unwrap_or(0)
    } else {
        let mut kids = Vec::new();
        Amazons.options(b, p.opponent(), |o| kids.push(o));
        let pass = sure_moves(b, p, true, memo);
        kids.into_iter()
            .map(|o| sure_moves(&o, p, true, memo))
            .fold(pass, u32::min)
    };
    memo.insert((*b, to_move), m);
    m
}

fn options(b: &Board, p: Player) -> u32 {
    let mut n = 0;
    Amazons.options(b, p, |_| n += 1);
    n
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Mobility counts the options, on boards up to 6 x 6 with up to four
    /// queens each.
    #[test]
    fn mobility_is_the_option_count(
        h in 1usize..=6, w in 1usize..=6, holes in 0u8..6,
        l in 0usize..=4, r in 0usize..=4,
        picks in proptest::collection::vec(any::<u8>(), 48),
    ) {
        let b = board(h, w, holes, l, r, &picks);
        for p in Player::BOTH {
            prop_assert_eq!(Amazons.mobility(&b, p), options(&b, p), "{}", Amazons.format(&b));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// On random 2 x 3 .. 3 x 4 boards with holes and one or two queens
    /// each: `safe <= sure moves` and `max >= the longest line`, for every
    /// path budget (a budget only shortens paths).
    #[test]
    fn bounds_hold_against_exhaustive_play(
        h in 2usize..=3, w in 3usize..=4, holes in 1u8..5,
        l in 1usize..=2, r in 1usize..=2,
        picks in proptest::collection::vec(any::<u8>(), 24),
    ) {
        let b = board(h, w, holes, l, r, &picks);
        for p in Player::BOTH {
            let most = most_moves(&b, p, &mut HashMap::new());
            let sure = sure_moves(&b, p, true, &mut HashMap::new());
            for budget in [0, 1, 3, 8, 64, 10_000] {
                let mb = Amazons::bounds(&b, p, budget);
                prop_assert!(mb.safe <= sure, "{} {p:?} {budget}: safe {} > {sure}", Amazons.format(&b), mb.safe);
                prop_assert!(mb.max >= most, "{} {p:?} {budget}: max {} < {most}", Amazons.format(&b), mb.max);
            }
            prop_assert_eq!(Amazons.move_bounds(&b, p), Some(Amazons::bounds(&b, p, 64)));
        }
    }
}

/// The bounds are not vacuous: on boards split by walls of burnt cells,
/// each player alone on a side (the opponent's side kept small, so that
/// brute force stays quick), the path bound finds most sure moves and the
/// maximum ignores the other side.
#[test]
fn bounds_are_tight_on_private_territories() {
    let mut tight = 0;
    let mut seen = 0;
    for text in [
        "L..#R.|...###|...#..",
        "L...|....|####|..R#",
        "L.L.|....|####|R...",
        "..L.|.#..|####|R#..",
        "L#.|.#.|.#R",
        "L..#.|...#.|.#.#R",
    ] {
        let b = Amazons.parse(text).unwrap();
        for p in Player::BOTH {
            let mb = Amazons.move_bounds(&b, p).unwrap();
            let sure = sure_moves(&b, p, true, &mut HashMap::new());
            let most = most_moves(&b, p, &mut HashMap::new());
            assert!(mb.safe <= sure && most <= mb.max, "{text} {p:?}");
            // Alone in its territory, a player's every move is sure.
            assert_eq!(sure, most, "{text} {p:?}");
            seen += 1;
            tight += u32::from(mb.safe == sure && mb.max == most);
        }
    }
    // Holes can make a territory defective (a path misses cells a queen
    // could still fill), but most of these are exact.
    assert!(tight * 4 >= seen * 3, "{tight} of {seen} tight");
}
