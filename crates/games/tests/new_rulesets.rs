//! The rulesets added to the registry after the first five (Toads and
//! Frogs, Snort, Col, Toppling Dominoes, Fission, Hackenbush strings,
//! NoGo):
//! published values, value rules from the theory, brute-force twins of each
//! move generator, and the generic checks (related-set fast path, text
//! round trip, moves inside the relation, soundness of the regions,
//! symmetry, every saving against the brute-force solver) run on every
//! entry of `Rules::ALL`.

use partizan_core::{Arena, GameId};
use partizan_games::{
    derived_related, flood, with_rules, Board, Col, Fission, HackenbushStrings, NoGo, Player,
    Rules, Ruleset, Snort, ToadsAndFrogs, TopplingDominoes, Visit,
};
use partizan_solve::regions::regions;
use partizan_solve::{soundness, Decompose, Savings, SolveError, Solver};
use proptest::prelude::*;

/// Memo on, decomposition and symmetry off: the reference the other
/// savings are held to (no region or symmetry claim is trusted).
const PLAIN: Savings = Savings {
    memo: true,
    decompose: Decompose::Off,
    symmetry: false,
};

fn value<R: Ruleset>(r: &R, arena: &mut Arena, b: &Board, savings: Savings) -> GameId {
    let mut s = Solver::new(r, savings).expect("solver");
    s.value(arena, b).expect("value")
}

fn value_of<R: Ruleset>(r: &R, arena: &mut Arena, text: &str) -> GameId {
    let b = r.parse(text).expect("test board parses");
    value(r, arena, &b, Savings::ALL)
}

// ---------------------------------------------------------------------------
// Published values.

#[test]
fn published_values() {
    let data = include_str!("data/values.tsv");
    let mut checked = 0;
    for (n, line) in data.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 3, "line {}: {line:?}", n + 1);
        let rules: Rules = f[0].parse().expect("known ruleset");
        let mut arena = Arena::new();
        let want = arena.parse(f[2]).expect("value notation");
        let (all, plain) = with_rules!(rules, |r| {
            let b = r.parse(f[1]).expect("board parses");
            (
                value(r, &mut arena, &b, Savings::ALL),
                value(r, &mut arena, &b, PLAIN),
            )
        });
        assert_eq!(all, plain, "line {}: savings change the value", n + 1);
        assert_eq!(
            all,
            want,
            "line {}: {} {}: got {}, published {}",
            n + 1,
            f[0],
            f[1],
            arena.display(all),
            f[2]
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} published values");
}

// ---------------------------------------------------------------------------
// Value rules from the theory.

/// Berlekamp's rule for a blue-red Hackenbush string read from the ground:
/// the first run of one colour counts one each, every edge after the first
/// change of colour half the one before, with its colour's sign.
fn berlekamp(s: &str) -> String {
    let sign = |c: char| if c == 'L' { 1i64 } else { -1 };
    let chars: Vec<char> = s.chars().collect();
    let Some(&first) = chars.first() else {
        return "0".into();
    };
    let run = chars.iter().take_while(|&&c| c == first).count();
    let k = (chars.len() - run) as u32;
    // value * 2^k
    let mut num = (sign(first) * run as i64) << k;
    for (i, &c) in chars[run..].iter().enumerate() {
        num += sign(c) << (k - 1 - i as u32);
    }
    let mut den = 1i64 << k;
    while den > 1 && num % 2 == 0 {
        num /= 2;
        den /= 2;
    }
    if den == 1 {
        num.to_string()
    } else {
        format!("{num}/{den}")
    }
}

#[test]
fn berlekamp_rule_by_hand() {
    assert_eq!(berlekamp("LLR"), "3/2");
    assert_eq!(berlekamp("LR"), "1/2");
    assert_eq!(berlekamp("LRR"), "1/4");
    assert_eq!(berlekamp("LRL"), "3/4");
    assert_eq!(berlekamp("RRL"), "-3/2");
    assert_eq!(berlekamp("LLL"), "3");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Blue-red strings take Berlekamp's values; a sum of strings on
    /// several rows is the sum of their values.
    #[test]
    fn hackenbush_strings_follow_berlekamp(rows in proptest::collection::vec("[LR]{1,7}", 1..=3)) {
        let mut arena = Arena::new();
        let width = rows.iter().map(String::len).max().unwrap_or(1);
        let text: Vec<String> = rows.iter().map(|r| format!("{r:.<width$}")).collect();
        let got = value_of(&HackenbushStrings, &mut arena, &text.join("|"));
        let mut want = arena.zero();
        for r in &rows {
            let v = arena.parse(&berlekamp(r)).expect("number");
            want = arena.sum(want, v).expect("sum");
        }
        prop_assert_eq!(got, want, "{:?}", rows);
    }

    /// A green string of n edges, and a row of n green dominoes, is *n
    /// (either player may leave any shorter string or row: a Nim heap).
    #[test]
    fn green_strings_and_rows_are_nimbers(n in 1usize..=9) {
        let mut arena = Arena::new();
        let want = arena.nimber(n as u32);
        let text = "G".repeat(n);
        prop_assert_eq!(value_of(&HackenbushStrings, &mut arena, &text), want);
        prop_assert_eq!(value_of(&TopplingDominoes, &mut arena, &text), want);
    }

    /// A row of n blue dominoes is the integer n.
    #[test]
    fn blue_rows_are_integers(n in 1usize..=9) {
        let mut arena = Arena::new();
        let want = arena.integer(n as i64).expect("small");
        prop_assert_eq!(value_of(&TopplingDominoes, &mut arena, &"L".repeat(n)), want);
    }

    /// Winning Ways: every Col position is a number or a number plus *.
    #[test]
    fn col_is_number_or_number_star(text in piece_board("LR.#", 4, 3)) {
        let mut arena = Arena::new();
        let g = value_of(&Col, &mut arena, &text);
        let star = arena.star();
        let shifted = arena.sum(g, star).expect("sum");
        prop_assert!(arena.is_number(g) || arena.is_number(shifted), "{} = {}", text, arena.display(g));
    }
}

// ---------------------------------------------------------------------------
// Brute-force twins: each game's rules written out cell by cell on the text.

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

// ---------------------------------------------------------------------------
// Generic checks on every registered ruleset.

/// Every check a ruleset's claims can be held to on one board.
struct Checks<'a> {
    text: &'a str,
    set: u128,
}

impl Visit for Checks<'_> {
    type Output = ();
    fn visit<R: Ruleset>(self, r: &R) {
        let Ok(b) = r.parse(self.text) else {
            return;
        };
        let name = r.name();
        // Text round trip.
        assert_eq!(
            r.parse(&r.format(&b)).as_ref(),
            Ok(&b),
            "{name} {}",
            self.text
        );
        // The related-set fast path against the footprints.
        let set = self.set & b.full();
        assert_eq!(
            r.related(&b, set),
            derived_related(r, &b, set),
            "{name} {}",
            self.text
        );
        for one in partizan_games::each_bit(b.full()) {
            assert_eq!(
                r.related(&b, one),
                derived_related(r, &b, one),
                "{name} {}",
                self.text
            );
        }
        // Every move's changes lie in one footprint-connected set, and the
        // regions are sound below the root.
        for p in Player::BOTH {
            r.options(&b, p, |o| {
                let changed = (0..3).fold(0, |acc, k| acc | (b.layer(k) ^ o.layer(k)));
                let seed = changed & changed.wrapping_neg();
                let comp = flood(seed, r.cells(&b), |s| r.related(&b, s) | s);
                assert_eq!(
                    changed & !comp,
                    0,
                    "{name} {} -> {}",
                    r.format(&b),
                    r.format(&o)
                );
            });
        }
        let parts = regions(r, &b);
        if let Err(v) = soundness::check(r, &b, &parts, 2_000) {
            panic!("{name} {}: {v}", self.text);
        }
        // Values: symmetry images are equal or negated, and every saving
        // agrees with the plain solver.
        if b.width() * b.height() > 8 {
            return;
        }
        let mut arena = Arena::new();
        let base = value(r, &mut arena, &b, PLAIN);
        let neg = arena.neg(base);
        for &s in r.symmetries() {
            let img = value(r, &mut arena, &r.apply(&b, s), PLAIN);
            let want = if s.negates { neg } else { base };
            assert_eq!(img, want, "{name} {} under {s:?}", self.text);
        }
        let mut modes = vec![Decompose::Off, Decompose::EveryNode, Decompose::Conditional];
        if r.only_falls_apart() {
            modes.push(Decompose::RootOnly);
        }
        for decompose in modes {
            for symmetry in [false, true] {
                let s = Savings {
                    memo: true,
                    decompose,
                    symmetry,
                };
                assert_eq!(
                    value(r, &mut arena, &b, s),
                    base,
                    "{name} {} {s:?}",
                    self.text
                );
            }
        }
    }
}

/// A random board over all of a ruleset's glyphs (and a wrong letter now and
/// then, which must be refused rather than misread).
fn any_board() -> impl Strategy<Value = (usize, String, u128)> {
    (0..Rules::ALL.len()).prop_flat_map(|k| {
        let mut chars: Vec<char> = Rules::ALL[k].info().glyphs.iter().map(|g| g.ch).collect();
        chars.extend(Rules::ALL[k].info().fillings.iter().copied());
        let chars: &'static [char] = Box::leak(chars.into_boxed_slice());
        let alphabet: &'static str = Box::leak(chars.iter().collect::<String>().into_boxed_str());
        (Just(k), piece_board(alphabet, 4, 3), any::<u128>())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn generic_checks_on_every_ruleset((k, text, set) in any_board()) {
        Rules::ALL[k].visit(Checks { text: &text, set });
    }
}

#[test]
fn generic_checks_on_examples() {
    for &rules in Rules::ALL {
        rules.visit(Checks {
            text: rules.info().example,
            set: 0x5555,
        });
    }
}

// ---------------------------------------------------------------------------
// Text formats.

#[test]
fn tinted_text_reads_coloured_cells() {
    // Snort: a cell next to Left's colour is Left's alone; Col: Right's.
    assert_eq!(Snort.format(&Snort.parse("L..R").unwrap()), "#lr#");
    assert_eq!(Col.format(&Col.parse("L..R").unwrap()), "#rl#");
    // Next to both colours a cell is dead, in both games.
    assert_eq!(Snort.format(&Snort.parse("L.R").unwrap()), "###");
    assert_eq!(Col.format(&Col.parse("L.R").unwrap()), "###");
    // A tint and a colour agreeing, and disagreeing.
    // (cells diagonal to a colour are not its neighbours).
    assert_eq!(Snort.format(&Snort.parse("Ll|r.").unwrap()), "#l|#.");
    assert_eq!(Col.format(&Col.parse("Lr|l.").unwrap()), "#r|#.");
}

#[test]
fn board_errors_name_row_and_column() {
    let e = ToadsAndFrogs.parse("T.F|.Q.").unwrap_err().to_string();
    assert!(e.contains("row 2, column 2"), "{e}");
    let e = Snort.parse("..|.x").unwrap_err().to_string();
    assert!(e.contains("stones") && e.contains("row 2, column 2"), "{e}");
    let e = Fission.parse("x..|..").unwrap_err().to_string();
    assert!(e.contains("row 2"), "{e}");
    let e = TopplingDominoes.parse("LRx").unwrap_err().to_string();
    assert!(e.contains("column 3"), "{e}");
    assert!(HackenbushStrings.parse("").is_err());
}

#[test]
fn option_counts_by_hand() {
    let count = |rules: Rules, text: &str, p: Player| {
        with_rules!(rules, |r| {
            let b = r.parse(text).unwrap();
            let mut n = 0;
            r.options(&b, p, |_| n += 1);
            n
        })
    };
    // cgt-tools' examples: T.TFTFF has one move each way but Right's.
    assert_eq!(count(Rules::ToadsAndFrogs, "T.TFTFF", Player::Left), 1);
    assert_eq!(count(Rules::ToadsAndFrogs, ".F.F", Player::Right), 2);
    // LRRLL: Left 6 topplings, Right 4.
    assert_eq!(count(Rules::TopplingDominoes, "LRRLL", Player::Left), 6);
    assert_eq!(count(Rules::TopplingDominoes, "LRRLL", Player::Right), 4);
    assert_eq!(count(Rules::Hackenbush, "LRRLL", Player::Left), 3);
    assert_eq!(count(Rules::Fission, "...|.x.|...", Player::Left), 1);
    assert_eq!(count(Rules::Fission, ".x.|...", Player::Left), 0);
    assert_eq!(count(Rules::Snort, "...", Player::Left), 3);
    assert_eq!(count(Rules::Col, "L..", Player::Left), 1);
    assert_eq!(count(Rules::NoGo, ".x.", Player::Left), 2);
    assert_eq!(count(Rules::NoGo, ".x.", Player::Right), 0);
    // An o in the corner would have no liberty.
    assert_eq!(count(Rules::NoGo, ".x|xx|..", Player::Right), 2);
}

// ---------------------------------------------------------------------------
// Root-only decomposition (issue 18).

/// A ruleset that declares, conservatively, that its boards may grow
/// together: the same game as `R` otherwise.
struct MayMerge<R>(R);

impl<R: Ruleset> Ruleset for MayMerge<R> {
    fn info(&self) -> &'static partizan_games::RulesetInfo {
        self.0.info()
    }
    fn options<F: FnMut(Board)>(&self, b: &Board, p: Player, f: F) {
        self.0.options(b, p, f);
    }
    fn footprints<F: FnMut(u128)>(&self, b: &Board, f: F) {
        self.0.footprints(b, f);
    }
    fn cells(&self, b: &Board) -> u128 {
        self.0.cells(b)
    }
    fn symmetries(&self) -> &'static [partizan_games::Symmetry] {
        self.0.symmetries()
    }
    fn apply(&self, b: &Board, s: partizan_games::Symmetry) -> Board {
        self.0.apply(b, s)
    }
    fn only_falls_apart(&self) -> bool {
        false
    }
    fn impartial(&self) -> bool {
        self.0.impartial()
    }
    fn may_split(&self, before: &Board, after: &Board) -> bool {
        self.0.may_split(before, after)
    }
}

#[test]
fn root_only_is_refused_where_boards_may_merge() {
    let root_only = Savings {
        decompose: Decompose::RootOnly,
        ..Savings::ALL
    };
    // Every registered ruleset: refused exactly when it does not promise
    // that its boards only fall apart.
    for &rules in Rules::ALL {
        with_rules!(rules, |r| {
            match Solver::new(r, root_only) {
                Ok(_) => assert!(r.only_falls_apart(), "{rules}"),
                Err(SolveError::RootOnlyUnsound(name)) => {
                    assert!(!r.only_falls_apart());
                    assert_eq!(name, r.name());
                }
                Err(e) => panic!("{rules}: {e}"),
            }
        });
    }
    let merge = MayMerge(ToadsAndFrogs);
    assert!(matches!(
        Solver::new(&merge, root_only),
        Err(SolveError::RootOnlyUnsound("toads-and-frogs"))
    ));
    // The other modes still value it, and agree.
    let mut arena = Arena::new();
    let b = merge.parse("TT.F.TF|T.TFTFF").unwrap();
    let base = value(&merge, &mut arena, &b, PLAIN);
    for decompose in [Decompose::EveryNode, Decompose::Conditional] {
        let s = Savings {
            decompose,
            ..Savings::ALL
        };
        assert_eq!(value(&merge, &mut arena, &b, s), base);
    }
}
