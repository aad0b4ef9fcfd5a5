//! Brute-force twins of the move generators of the rulesets added to the
//! registry after the first five: each game's rules written out cell by
//! cell on the board text, against the bitboard options, on random
//! positions.

use partizan_games::{
    Board, Col, Fission, HackenbushStrings, NoGo, Player, Ruleset, Snort, ToadsAndFrogs,
    TopplingDominoes,
};
use proptest::prelude::*;

type Grid = Vec<Vec<char>>;

fn grid(text: &str) -> Grid {
    text.split('|').map(|r| r.chars().collect()).collect()
}

fn text(g: &Grid) -> String {
    let rows: Vec<String> = g.iter().map(|r| r.iter().collect()).collect();
    rows.join("|")
}

/// Toads (`T`, east) and frogs (`F`, west): step onto `.`, or jump one
/// opposing piece onto the `.` beyond it.
fn toads_twin(g: &Grid, p: Player) -> Vec<String> {
    let (me, them, dir) = match p {
        Player::Left => ('T', 'F', 1i64),
        Player::Right => ('F', 'T', -1i64),
    };
    let mut out = Vec::new();
    for (r, row) in g.iter().enumerate() {
        let at =
            |c: i64| -> Option<char> { usize::try_from(c).ok().and_then(|c| row.get(c).copied()) };
        for c in 0..row.len() as i64 {
            if at(c) != Some(me) {
                continue;
            }
            let target = if at(c + dir) == Some('.') {
                Some(c + dir)
            } else if at(c + dir) == Some(them) && at(c + 2 * dir) == Some('.') {
                Some(c + 2 * dir)
            } else {
                None
            };
            if let Some(t) = target {
                let mut h = g.clone();
                h[r][c as usize] = '.';
                h[r][t as usize] = me;
                out.push(text(&h));
            }
        }
    }
    out
}

/// The run of non-gap cells around column `c` of `row`.
fn run(row: &[char], c: usize) -> (usize, usize) {
    let gap = |ch: char| ch == '.' || ch == '#';
    let mut s = c;
    while s > 0 && !gap(row[s - 1]) {
        s -= 1;
    }
    let mut e = c;
    while e + 1 < row.len() && !gap(row[e + 1]) {
        e += 1;
    }
    (s, e)
}

/// Toppling Dominoes (`both`) and Hackenbush strings (east only).
fn topple_twin(g: &Grid, p: Player, both: bool) -> Vec<String> {
    let me = if p == Player::Left { 'L' } else { 'R' };
    let mut out = Vec::new();
    for (r, row) in g.iter().enumerate() {
        for c in 0..row.len() {
            if row[c] != me && row[c] != 'G' {
                continue;
            }
            let (s, e) = run(row, c);
            let mut ranges = vec![(c, e)];
            if both {
                ranges.push((s, c));
            }
            for (a, b) in ranges {
                let mut h = g.clone();
                h[r][a..=b].fill('.');
                out.push(text(&h));
            }
        }
    }
    out
}

/// Fission: a stone with `.` both sides along the player's axis splits.
fn fission_twin(g: &Grid, p: Player) -> Vec<String> {
    let (dr, dc) = if p == Player::Left {
        (1i64, 0i64)
    } else {
        (0, 1)
    };
    let at = |r: i64, c: i64| -> Option<char> {
        let r = usize::try_from(r).ok()?;
        let c = usize::try_from(c).ok()?;
        g.get(r).and_then(|row| row.get(c)).copied()
    };
    let mut out = Vec::new();
    for r in 0..g.len() as i64 {
        for c in 0..g[0].len() as i64 {
            if at(r, c) == Some('x')
                && at(r - dr, c - dc) == Some('.')
                && at(r + dr, c + dc) == Some('.')
            {
                let mut h = g.clone();
                h[r as usize][c as usize] = '.';
                h[(r - dr) as usize][(c - dc) as usize] = 'x';
                h[(r + dr) as usize][(c + dc) as usize] = 'x';
                out.push(text(&h));
            }
        }
    }
    out
}

/// Snort and Col on coloured cells: colour a `.` that has no orthogonal
/// neighbour of the forbidden colour (the opponent's in Snort, one's own in
/// Col).
fn placement_twin(g: &Grid, p: Player, snort: bool) -> Vec<String> {
    let me = if p == Player::Left { 'L' } else { 'R' };
    let them = if p == Player::Left { 'R' } else { 'L' };
    let bad = if snort { them } else { me };
    let mut out = Vec::new();
    for r in 0..g.len() {
        for c in 0..g[r].len() {
            if g[r][c] != '.' {
                continue;
            }
            let near = [
                (r.wrapping_sub(1), c),
                (r + 1, c),
                (r, c.wrapping_sub(1)),
                (r, c + 1),
            ];
            let blocked = near
                .iter()
                .any(|&(a, b)| g.get(a).and_then(|row| row.get(b)) == Some(&bad));
            if !blocked {
                let mut h = g.clone();
                h[r][c] = me;
                out.push(text(&h));
            }
        }
    }
    out
}

/// The groups of `g` (orthogonally connected stones of one colour), each
/// with whether it has a liberty.
fn groups(g: &Grid) -> Vec<(Vec<(usize, usize)>, bool)> {
    let h = g.len();
    let w = g[0].len();
    let mut seen = vec![vec![false; w]; h];
    let mut out = Vec::new();
    for r in 0..h {
        for c in 0..w {
            let colour = g[r][c];
            if seen[r][c] || (colour != 'x' && colour != 'o') {
                continue;
            }
            let mut stack = vec![(r, c)];
            seen[r][c] = true;
            let mut cells = Vec::new();
            let mut liberty = false;
            while let Some((a, b)) = stack.pop() {
                cells.push((a, b));
                let near = [
                    (a.wrapping_sub(1), b),
                    (a + 1, b),
                    (a, b.wrapping_sub(1)),
                    (a, b + 1),
                ];
                for (y, x) in near {
                    match g.get(y).and_then(|row| row.get(x)) {
                        Some('.') => liberty = true,
                        Some(&ch) if ch == colour && !seen[y][x] => {
                            seen[y][x] = true;
                            stack.push((y, x));
                        }
                        _ => {}
                    }
                }
            }
            out.push((cells, liberty));
        }
    }
    out
}

/// NoGo by the usual rule, on positions whose groups all have a liberty:
/// a stone may go on any `.` after which every group still has one.
fn nogo_twin(g: &Grid, p: Player) -> Vec<String> {
    let me = if p == Player::Left { 'x' } else { 'o' };
    let mut out = Vec::new();
    for r in 0..g.len() {
        for c in 0..g[r].len() {
            if g[r][c] != '.' {
                continue;
            }
            let mut h = g.clone();
            h[r][c] = me;
            if groups(&h).iter().all(|(_, liberty)| *liberty) {
                out.push(text(&h));
            }
        }
    }
    out
}

/// The ruleset's options against the twin's, as sorted boards.
fn twin_agrees<R: Ruleset>(r: &R, board: &str, twin: impl Fn(&Grid, Player) -> Vec<String>) {
    let b = r.parse(board).expect("board parses");
    let g = grid(board);
    for p in Player::BOTH {
        let mut got = Vec::new();
        r.options(&b, p, |o| got.push(o));
        let mut want: Vec<Board> = twin(&g, p)
            .iter()
            .map(|t| r.parse(t).expect("twin board parses"))
            .collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{} {board} {p:?}", r.name());
    }
}

/// A random board text over `alphabet`, up to `w` x `h`.
fn piece_board(alphabet: &'static str, w: usize, h: usize) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().collect();
    (1..=w, 1..=h).prop_flat_map(move |(w, h)| {
        let chars = chars.clone();
        proptest::collection::vec(proptest::sample::select(chars), w * h).prop_map(move |cells| {
            let rows: Vec<String> = cells.chunks(w).map(|r| r.iter().collect()).collect();
            rows.join("|")
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn toads_twin_agrees(b in piece_board("TF.#", 8, 3)) {
        twin_agrees(&ToadsAndFrogs, &b, toads_twin);
    }

    #[test]
    fn toppling_twin_agrees(b in piece_board("LRG.", 8, 3)) {
        twin_agrees(&TopplingDominoes, &b, |g, p| topple_twin(g, p, true));
    }

    #[test]
    fn hackenbush_twin_agrees(b in piece_board("LRG.", 8, 3)) {
        twin_agrees(&HackenbushStrings, &b, |g, p| topple_twin(g, p, false));
    }

    #[test]
    fn fission_twin_agrees(b in piece_board("x..#", 5, 5)) {
        twin_agrees(&Fission, &b, fission_twin);
    }

    #[test]
    fn snort_twin_agrees(b in piece_board("LR..#", 5, 4)) {
        twin_agrees(&Snort, &b, |g, p| placement_twin(g, p, true));
    }

    #[test]
    fn nogo_twin_agrees(b in piece_board("xo...#", 5, 4)) {
        // The twin knows only positions reachable by play.
        prop_assume!(groups(&grid(&b)).iter().all(|(_, liberty)| *liberty));
        twin_agrees(&NoGo, &b, nogo_twin);
    }

    #[test]
    fn col_twin_agrees(b in piece_board("LR..#", 5, 4)) {
        twin_agrees(&Col, &b, |g, p| placement_twin(g, p, false));
    }
}
