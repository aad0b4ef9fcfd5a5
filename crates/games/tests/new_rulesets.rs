//! The rulesets added to the registry after the first five (Toads and
//! Frogs, Snort, Col, Toppling Dominoes, Fission, Hackenbush strings,
//! NoGo): published values, value rules from the theory, and the generic
//! checks (related-set fast path, text
//! round trip, moves inside the relation, soundness of the regions,
//! symmetry, every saving against the brute-force solver) run on every
//! entry of `Rules::ALL`.

use std::collections::HashMap;

use partizan_core::{Arena, GameId};
use partizan_games::{
    derived_related, flood, with_rules, Board, Col, Fission, HackenbushStrings, Player, Rules,
    Ruleset, Snort, ToadsAndFrogs, TopplingDominoes, Visit,
};
use partizan_solve::regions::regions;
use partizan_solve::{soundness, Decompose, Savings, SolveError, Solver};
use proptest::prelude::*;

use crate::common;
use common::may_merge;

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

// ---------------------------------------------------------------------------
// Generic checks on every registered ruleset.

/// Every check a ruleset's claims can be held to on one board.
struct Checks<'a> {
    text: &'a str,
    set: u128,
    /// Boards of at most this many cells are also valued under every
    /// saving and symmetry.
    max_cells: usize,
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
        // Search knowledge: mobility is the number of options, and the move
        // bounds hold against every line of play (either player moving, in
        // any order) on small boards.
        for p in Player::BOTH {
            let mut n = 0;
            r.options(&b, p, |_| n += 1);
            assert_eq!(r.mobility(&b, p), n, "{name} {} {p:?}", self.text);
        }
        if b.width() * b.height() > self.max_cells {
            return;
        }
        for p in Player::BOTH {
            if let Some(mb) = r.move_bounds(&b, p) {
                let most = most_moves(r, &b, p, &mut HashMap::new());
                assert!(mb.safe <= mb.max, "{name} {}", self.text);
                assert!(most <= mb.max, "{name} {} {p:?}: {most} moves", self.text);
                assert!(mb.safe <= most, "{name} {} {p:?}: {most} moves", self.text);
            }
        }
        // Values: symmetry images are equal or negated, and every saving
        // agrees with the plain solver.
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

/// The most moves `p` can make from `b` over any sequence of moves by
/// either player (the brute-force twin of a [`Ruleset::move_bounds`]
/// maximum).
fn most_moves<R: Ruleset>(r: &R, b: &Board, p: Player, memo: &mut HashMap<Board, u32>) -> u32 {
    if let Some(&m) = memo.get(b) {
        return m;
    }
    let mut kids = Vec::new();
    r.options(b, p, |o| kids.push((o, 1)));
    r.options(b, p.opponent(), |o| kids.push((o, 0)));
    let m = kids
        .into_iter()
        .map(|(o, k)| k + most_moves(r, &o, p, memo))
        .max()
        .unwrap_or(0);
    memo.insert(*b, m);
    m
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
        Rules::ALL[k].visit(Checks { text: &text, set, max_cells: 8 });
    }
}

#[test]
fn generic_checks_on_examples() {
    for &rules in Rules::ALL {
        rules.visit(Checks {
            text: rules.info().example,
            set: 0x5555,
            max_cells: 8,
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
    let merge = may_merge(ToadsAndFrogs);
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

// ---------------------------------------------------------------------------
// Graph rulesets: Hackenbush on graphs, Snort and Col on graphs.

use partizan_games::graph_placement::{ColGraph, SnortGraph};
use partizan_games::hackenbush_graph::{edge_list, HackenbushGraph};

/// A random grounded graph as an edge list: each edge joins a vertex
/// already reached from the ground (0) to any of `0..=4`, so every edge
/// stands on the ground; colours from `colours` (0 blue, 1 red, 2 green).
fn grounded_graph(colours: &'static [usize]) -> impl Strategy<Value = Vec<(usize, usize, usize)>> {
    proptest::collection::vec(
        (any::<usize>(), 0usize..5, proptest::sample::select(colours)),
        1..=6,
    )
    .prop_map(|raw| {
        let mut reached = vec![0usize];
        raw.into_iter()
            .map(|(a, v, c)| {
                let u = reached[a % reached.len()];
                // No loop at the ground (it would not be an edge).
                let v = if u == 0 && v == 0 { 1 } else { v };
                if !reached.contains(&v) {
                    reached.push(v);
                }
                (u, v, c)
            })
            .collect()
    })
}

fn hackenbush_text(edges: &[(usize, usize, usize)]) -> String {
    let name = |v: usize| {
        if v == 0 {
            "g".to_string()
        } else {
            v.to_string()
        }
    };
    edges
        .iter()
        .map(|&(u, v, c)| format!("{}-{}:{}", name(u), name(v), ["b", "r", "g"][c]))
        .collect::<Vec<_>>()
        .join(",")
}

/// The edges of a Hackenbush graph board read straight from its rows
/// (row, ends, layer): the twin's view of a position.
fn decode_hackenbush(b: &Board) -> Vec<Option<(usize, usize, usize)>> {
    let w = b.width();
    (0..b.height())
        .map(|r| {
            let cols: Vec<(usize, usize)> = (0..w)
                .flat_map(|c| (0..3).map(move |k| (c, k)))
                .filter(|&(c, k)| b.layer(k) >> (r * w + c) & 1 == 1)
                .collect();
            match cols.as_slice() {
                [] => None,
                [(c, k)] => Some((*c, *c, *k)),
                [(c, k), (d, _)] => Some((*c, *d, *k)),
                _ => panic!("row {r} has {} cells", cols.len()),
            }
        })
        .collect()
}

/// Brute-force twin of the Hackenbush move generator: cut one edge of the
/// mover's colour (or green), then keep what a search from the ground
/// still reaches.
fn hackenbush_twin(
    edges: &[Option<(usize, usize, usize)>],
    p: Player,
) -> Vec<Vec<Option<(usize, usize, usize)>>> {
    let own = if p == Player::Left { 0 } else { 1 };
    let mut out = Vec::new();
    for (i, e) in edges.iter().enumerate() {
        let Some((_, _, c)) = *e else { continue };
        if c != own && c != 2 {
            continue;
        }
        let mut left: Vec<Option<(usize, usize, usize)>> = edges.to_vec();
        left[i] = None;
        let mut seen = std::collections::HashSet::from([0usize]);
        loop {
            let before = seen.len();
            for &(u, v, _) in left.iter().flatten() {
                if seen.contains(&u) || seen.contains(&v) {
                    seen.insert(u);
                    seen.insert(v);
                }
            }
            if seen.len() == before {
                break;
            }
        }
        for e in left.iter_mut() {
            if matches!(*e, Some((u, _, _)) if !seen.contains(&u)) {
                *e = None;
            }
        }
        out.push(left);
    }
    out
}

/// Green Hackenbush by the fusion and colon principles, no search: fuse
/// the ends of every edge on a cycle (it becomes a loop, worth *1), then
/// a vertex is worth the nim-sum of its loops and of (branch + 1) over the
/// bridges leading away from the ground.
fn green_by_principles(edges: &[(usize, usize)]) -> u32 {
    let connected = |skip: usize, a: usize, b: usize| {
        let mut seen = std::collections::HashSet::from([a]);
        loop {
            let before = seen.len();
            for (i, &(u, v)) in edges.iter().enumerate() {
                if i != skip && (seen.contains(&u) || seen.contains(&v)) {
                    seen.insert(u);
                    seen.insert(v);
                }
            }
            if seen.len() == before {
                return seen.contains(&b);
            }
        }
    };
    let bridge: Vec<bool> = edges
        .iter()
        .enumerate()
        .map(|(i, &(u, v))| u != v && !connected(i, u, v))
        .collect();
    // Fuse the ends of every non-bridge.
    let mut comp: Vec<usize> = (0..5).collect();
    loop {
        let mut changed = false;
        for (i, &(u, v)) in edges.iter().enumerate() {
            if !bridge[i] && comp[u] != comp[v] {
                let (a, b) = (comp[u].min(comp[v]), comp[u].max(comp[v]));
                comp.iter_mut().filter(|c| **c == b).for_each(|c| *c = a);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    fn worth(
        x: usize,
        from: Option<usize>,
        edges: &[(usize, usize)],
        bridge: &[bool],
        comp: &[usize],
    ) -> u32 {
        let mut g = 0;
        for (i, &(u, v)) in edges.iter().enumerate() {
            let (cu, cv) = (comp[u], comp[v]);
            if !bridge[i] {
                if cu == x {
                    g ^= 1;
                }
            } else if cu == x || cv == x {
                let y = if cu == x { cv } else { cu };
                if Some(i) != from {
                    // Bridges form a tree on the fused vertices; `from` is
                    // the bridge we came down.
                    g ^= worth(y, Some(i), edges, bridge, comp) + 1;
                }
            }
        }
        g
    }
    worth(comp[0], None, edges, &bridge, &comp)
}

#[test]
fn green_principles_by_hand() {
    // A stalk of two is *2; two stalks of one on the ground are 0; a
    // triangle on the ground (three loops after fusing) is *; a square *0.
    assert_eq!(green_by_principles(&[(0, 1), (1, 2)]), 2);
    assert_eq!(green_by_principles(&[(0, 1), (0, 2)]), 0);
    assert_eq!(green_by_principles(&[(0, 1), (1, 2), (2, 0)]), 1);
    assert_eq!(green_by_principles(&[(0, 1), (1, 2), (2, 3), (3, 0)]), 0);
    // A Y: a stalk carrying two branches of one: 1 + (1 xor 1) = 1.
    assert_eq!(green_by_principles(&[(0, 1), (1, 2), (1, 3)]), 1);
}

/// A random Snort/Col graph as an edge list: `n` vertices, each named
/// with a state from `. l r # L R`, and a random set of edges.
fn placement_graph() -> impl Strategy<Value = String> {
    (1usize..=5).prop_flat_map(|n| {
        (
            proptest::collection::vec(
                proptest::sample::select(vec!['.', '.', '.', 'l', 'r', '#', 'L', 'R']),
                n,
            ),
            proptest::collection::vec(any::<bool>(), n * (n - 1) / 2),
        )
            .prop_map(move |(states, edges)| {
                let mut items: Vec<String> = states
                    .iter()
                    .enumerate()
                    .map(|(v, s)| format!("{}:{s}", v + 1))
                    .collect();
                let mut k = 0;
                for i in 0..n {
                    for j in i + 1..n {
                        if edges[k] {
                            items.push(format!("{}-{}", i + 1, j + 1));
                        }
                        k += 1;
                    }
                }
                items.join(",")
            })
    })
}

/// A Snort/Col graph board read straight from its matrix: each vertex's
/// layer (`None`: gone) and the edges.
type Placement = (Vec<Option<usize>>, Vec<(usize, usize)>);

fn decode_placement(b: &Board) -> Placement {
    let n = b.width();
    let at = |r: usize, c: usize| (0..3).find(|&k| b.layer(k) >> (r * n + c) & 1 == 1);
    let states = (0..n).map(|v| at(v, v)).collect();
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if at(i, j).is_some() {
                edges.push((i, j));
            }
        }
    }
    (states, edges)
}

/// Brute-force twin of the Snort (`snort`) or Col move generator on the
/// decoded position: colour a vertex the mover may take, then tint each
/// live neighbour against the forbidden player (dead if it was that
/// player's alone) and drop the edges at gone vertices.
fn placement_twin(pos: &Placement, p: Player, snort: bool) -> Vec<Placement> {
    let (states, edges) = pos;
    let own = if p == Player::Left { 1 } else { 2 };
    // The layer a cell keeps when the forbidden player loses it.
    let forbidden_is_left = (p == Player::Left) != snort;
    let mut out = Vec::new();
    for v in 0..states.len() {
        if !matches!(states[v], Some(k) if k == 0 || k == own) {
            continue;
        }
        let mut s = states.clone();
        s[v] = None;
        for &(a, b) in edges {
            let u = if a == v {
                b
            } else if b == v {
                a
            } else {
                continue;
            };
            s[u] = match (s[u], forbidden_is_left) {
                (Some(0), true) => Some(2),
                (Some(0), false) => Some(1),
                (Some(1), true) | (Some(2), false) => None,
                (x, _) => x,
            };
        }
        let e = edges
            .iter()
            .copied()
            .filter(|&(a, b)| s[a].is_some() && s[b].is_some())
            .collect();
        out.push((s, e));
    }
    out
}

/// A grid Snort/Col board as the same game on its grid graph.
fn grid_as_graph(text: &str) -> String {
    let rows: Vec<Vec<char>> = text.split('|').map(|r| r.chars().collect()).collect();
    let w = rows[0].len();
    let id = |r: usize, c: usize| r * w + c + 1;
    let mut items = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            items.push(format!("{}:{ch}", id(r, c)));
            if c + 1 < w {
                items.push(format!("{}-{}", id(r, c), id(r, c + 1)));
            }
            if r + 1 < rows.len() {
                items.push(format!("{}-{}", id(r, c), id(r + 1, c)));
            }
        }
    }
    items.join(",")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    /// The generic checks (round trip, related sets, moves inside the
    /// relation, soundness, symmetry images, every saving against the
    /// plain solver) on random Hackenbush graphs and Snort/Col graphs.
    #[test]
    fn generic_checks_on_graphs(
        edges in grounded_graph(&[0, 1, 2]),
        placement in placement_graph(),
        set in any::<u128>(),
    ) {
        let text = hackenbush_text(&edges);
        prop_assert!(HackenbushGraph.parse(&text).is_ok(), "{}", text);
        Rules::HackenbushGraph.visit(Checks { text: &text, set, max_cells: 40 });
        for rules in [Rules::SnortGraph, Rules::ColGraph] {
            let ok = with_rules!(rules, |r| r.parse(&placement).is_ok());
            prop_assert!(ok, "{} {}", rules, placement);
            rules.visit(Checks { text: &placement, set, max_cells: 25 });
        }
    }

    /// Each graph ruleset's options are the brute-force twin's.
    #[test]
    fn graph_moves_match_their_twins(
        edges in grounded_graph(&[0, 1, 2]),
        placement in placement_graph(),
    ) {
        let b = HackenbushGraph.parse(&hackenbush_text(&edges)).unwrap();
        for p in Player::BOTH {
            let mut got = Vec::new();
            HackenbushGraph.options(&b, p, |o| got.push(decode_hackenbush(&o)));
            prop_assert_eq!(&got, &hackenbush_twin(&decode_hackenbush(&b), p), "{}", edge_list(&b));
        }
        for (snort, rules) in [(true, Rules::SnortGraph), (false, Rules::ColGraph)] {
            let (b, got) = with_rules!(rules, |r| {
                let b = r.parse(&placement).unwrap();
                let mut got = Vec::new();
                for p in Player::BOTH {
                    r.options(&b, p, |o| got.push(decode_placement(&o)));
                }
                (b, got)
            });
            let pos = decode_placement(&b);
            let mut want = placement_twin(&pos, Player::Left, snort);
            want.extend(placement_twin(&pos, Player::Right, snort));
            prop_assert_eq!(got, want, "{} {}", rules, placement);
        }
    }

    /// Blue-red strings typed as graphs take Berlekamp's values, and
    /// strings side by side on the ground add (two strings of five: ten
    /// edges by eleven vertices is as much as a board holds).
    #[test]
    fn graph_strings_follow_berlekamp(strings in proptest::collection::vec("[LR]{1,5}", 1..=2)) {
        let mut arena = Arena::new();
        let mut items = Vec::new();
        let mut next = 1;
        let mut want = arena.zero();
        for s in &strings {
            let mut below = "g".to_string();
            for ch in s.chars() {
                items.push(format!("{below}-{next}:{}", if ch == 'L' { 'b' } else { 'r' }));
                below = next.to_string();
                next += 1;
            }
            let v = arena.parse(&berlekamp(s)).expect("number");
            want = arena.sum(want, v).expect("sum");
        }
        let text = items.join(",");
        prop_assert!(HackenbushGraph.parse(&text).is_ok(), "{}", text);
        prop_assert_eq!(value_of(&HackenbushGraph, &mut arena, &text), want, "{}", text);
    }

    /// Green graphs are the nimbers the fusion and colon principles give.
    #[test]
    fn green_graphs_follow_fusion_and_colon(edges in grounded_graph(&[2])) {
        let mut arena = Arena::new();
        let text = hackenbush_text(&edges);
        let pairs: Vec<(usize, usize)> = edges.iter().map(|&(u, v, _)| (u, v)).collect();
        let want = arena.nimber(green_by_principles(&pairs));
        prop_assert_eq!(value_of(&HackenbushGraph, &mut arena, &text), want, "{}", text);
    }

    /// Snort and Col on a grid graph are Snort and Col on the grid.
    #[test]
    fn grid_graphs_are_grids(text in piece_board(".lr#LR", 3, 3)) {
        let mut arena = Arena::new();
        let graph = grid_as_graph(&text);
        let snort = value_of(&Snort, &mut arena, &text);
        prop_assert_eq!(value_of(&SnortGraph, &mut arena, &graph), snort, "{} as {}", text, graph);
        let col = value_of(&Col, &mut arena, &text);
        prop_assert_eq!(value_of(&ColGraph, &mut arena, &graph), col, "{} as {}", text, graph);
    }
}

/// Published outcomes (who wins when each player starts), from the
/// values: Left starting wins exactly when the value is > 0 or fuzzy.
#[test]
fn published_outcomes() {
    use partizan_core::Outcome;
    let data = include_str!("data/outcomes.tsv");
    let mut checked = 0;
    for (n, line) in data.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 4, "line {}: {line:?}", n + 1);
        let rules: Rules = f[0].parse().expect("known ruleset");
        let mut arena = Arena::new();
        let v = with_rules!(rules, |r| {
            let b = r.parse(f[1]).expect("board parses");
            value(r, &mut arena, &b, Savings::ALL)
        });
        let outcome = arena.outcome(v);
        let winner = match (f[2], outcome) {
            (_, Outcome::L) | ("left", Outcome::N) | ("right", Outcome::P) => "left",
            _ => "right",
        };
        assert_eq!(
            winner,
            f[3],
            "line {}: {} {} is {outcome}",
            n + 1,
            f[0],
            f[1]
        );
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} outcomes");
}
