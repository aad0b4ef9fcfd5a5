//! Partizan misère canonical forms against the definition and against
//! published counts.
//!
//! The twin here is a brute-force misère search of literal sums: the forms
//! are read only as game trees (their options), and `o-(G + X)` is found by
//! playing `G + X` out, with no comparison, no reduction and no theorem.
//! The engine's `G >= H` must agree with "`o-(G + X) >= o-(H + X)` for
//! every `X` tried", both ways: sound (no `X` refutes a `>=` it claims) and
//! complete on what was tried (every `>=` it denies is refuted by some `X`).

use rustc_hash::FxHashMap;

use partizan_games::{Board, Clobber, Domineering, Player, Ruleset};
use partizan_misere::board::PartizanBoardForms;
use partizan_misere::partizan::{FormId, PartizanArena, PartizanOutcome, Universe};
use partizan_misere::{GameId, MisereArena};

/// Brute-force misère outcomes of literal sums of forms (as trees).
struct Twin {
    memo: FxHashMap<Vec<FormId>, (bool, bool)>,
}

impl Twin {
    fn new() -> Self {
        Self {
            memo: FxHashMap::default(),
        }
    }

    /// Whether Left wins moving first, and moving second, on the sum of
    /// `parts` played out move by move.
    fn wins(&mut self, a: &PartizanArena, parts: &[FormId]) -> (bool, bool) {
        let mut key: Vec<FormId> = parts
            .iter()
            .copied()
            .filter(|&p| p != FormId::ZERO)
            .collect();
        key.sort_unstable();
        if let Some(&w) = self.memo.get(&key) {
            return w;
        }
        let mut any_left = false;
        let mut first = false;
        'left: for i in 0..key.len() {
            for &o in a.left(key[i]) {
                any_left = true;
                let mut next = key.clone();
                next[i] = o;
                if self.wins(a, &next).1 {
                    first = true;
                    break 'left;
                }
            }
        }
        // No Left move: Left, to move, wins at once.
        let first = first || !any_left;
        let mut any_right = false;
        let mut second = true;
        'right: for i in 0..key.len() {
            for &o in a.right(key[i]) {
                any_right = true;
                let mut next = key.clone();
                next[i] = o;
                if !self.wins(a, &next).0 {
                    second = false;
                    break 'right;
                }
            }
        }
        // No Right move: Right, to move, wins at once.
        let second = any_right && second;
        let w = (first, second);
        self.memo.insert(key, w);
        w
    }

    fn outcome(&mut self, a: &PartizanArena, parts: &[FormId]) -> PartizanOutcome {
        let (f, s) = self.wins(a, parts);
        PartizanOutcome::from_wins(f, s)
    }
}

/// Every form `{A | B}` with `A`, `B` sets of the given forms (among dicots
/// only those with `A`, `B` both empty or both not).
fn next_day(a: &mut PartizanArena, earlier: &[FormId]) -> Vec<FormId> {
    let n = earlier.len();
    let subsets: Vec<Vec<FormId>> = (0..1u32 << n)
        .map(|m| {
            (0..n)
                .filter(|i| m >> i & 1 == 1)
                .map(|i| earlier[i])
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    for l in &subsets {
        for r in &subsets {
            if a.universe() == Universe::Dicot && l.is_empty() != r.is_empty() {
                continue;
            }
            out.push(a.game(l, r).unwrap());
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

fn born_by(a: &mut PartizanArena, day: u32) -> Vec<FormId> {
    let mut forms = vec![FormId::ZERO];
    for _ in 0..day {
        forms = next_day(a, &forms);
    }
    forms
}

/// `ge` against the definition on the probes: sound and complete.
fn check_against_definition(a: &mut PartizanArena, games: &[FormId], probes: &[FormId]) -> usize {
    let mut twin = Twin::new();
    let rows: Vec<Vec<PartizanOutcome>> = games
        .iter()
        .map(|&g| probes.iter().map(|&x| twin.outcome(a, &[g, x])).collect())
        .collect();
    let mut related = 0;
    for (i, &g) in games.iter().enumerate() {
        for (j, &h) in games.iter().enumerate() {
            let claimed = a.ge(g, h);
            let refuted = rows[i]
                .iter()
                .zip(&rows[j])
                .position(|(x, y)| !x.at_least(*y));
            match (claimed, refuted) {
                (true, Some(k)) => panic!(
                    "{} >= {} is claimed but X = {} refutes it",
                    a.display(g),
                    a.display(h),
                    a.display(probes[k])
                ),
                (false, None) => panic!(
                    "{} >= {} is denied but no probe refutes it",
                    a.display(g),
                    a.display(h)
                ),
                (true, None) => related += 1,
                (false, Some(_)) => {}
            }
        }
    }
    related
}

/// Random games born by day 3 (up to three options a side, from `day2`).
fn random_day_3(a: &mut PartizanArena, day2: &[FormId], n: usize, seed: u64) -> Vec<FormId> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let mut pick = || -> Vec<FormId> {
            (0..rng.usize(0..4))
                .map(|_| day2[rng.usize(..day2.len())])
                .collect()
        };
        let (l, r) = (pick(), pick());
        out.push(a.game(&l, &r).unwrap());
    }
    out
}

/// Integers to +-n and the ends `{ | n}`, `{-n | }`: the long ends a
/// refutation in the general universe can need.
fn long_probes(a: &mut PartizanArena, n: i64) -> Vec<FormId> {
    let mut out = Vec::new();
    for k in -n..=n {
        let g = a.integer(k).unwrap();
        out.push(g);
        if k >= 0 {
            out.push(a.game(&[], &[g]).unwrap());
        } else {
            out.push(a.game(&[g], &[]).unwrap());
        }
    }
    out
}

#[test]
fn the_general_universe_has_256_games_born_by_day_2() {
    // Siegel, "Misère canonical forms of partizan games" (Games of No
    // Chance 4): 1, 4 and 256 games born by days 0, 1 and 2.
    let mut a = PartizanArena::new(Universe::General);
    let counts: Vec<usize> = (0..=2).map(|d| born_by(&mut a, d).len()).collect();
    assert_eq!(counts, [1, 4, 256]);
}

#[test]
fn general_comparison_matches_the_definition_on_day_2() {
    let mut a = PartizanArena::new(Universe::General);
    let games = born_by(&mut a, 2);
    let mut probes = games.clone();
    probes.extend(long_probes(&mut a, 4));
    // Some refutations need a probe born on day 3 (`-2 >= {0|-1}` is one).
    probes.extend(random_day_3(&mut a, &games, 3000, 2));
    probes.sort_unstable();
    probes.dedup();
    let related = check_against_definition(&mut a, &games, &probes);
    // Every game is at least itself; some distinct pairs are comparable.
    assert!(related > games.len(), "{related} related pairs");
}

#[test]
fn dicot_comparison_matches_the_definition_on_day_2_against_day_3() {
    let mut a = PartizanArena::new(Universe::Dicot);
    let games = born_by(&mut a, 2);
    let probes = born_by(&mut a, 3);
    let related = check_against_definition(&mut a, &games, &probes);
    assert!(related > games.len(), "{related} related pairs");
}

#[test]
fn published_identities() {
    let mut g = PartizanArena::new(Universe::General);
    let mut d = PartizanArena::new(Universe::Dicot);
    // * + * = 0 among dicots (Allen; Dorbec, Renault, Siegel, Sopena) but
    // not in general: only 0 is invertible there (Mesdal and Ottaway,
    // "Simplification of partizan games in misère play", INTEGERS 7).
    let s = d.nim(1).unwrap();
    assert_eq!(d.sum(s, s).unwrap(), FormId::ZERO);
    let s = g.nim(1).unwrap();
    assert_ne!(g.sum(s, s).unwrap(), FormId::ZERO);
    for x in born_by(&mut g, 2) {
        if x == FormId::ZERO {
            continue;
        }
        let c = g.conjugate(x).unwrap();
        let sum = g.sum(x, c).unwrap();
        assert_ne!(sum, FormId::ZERO, "{} + its conjugate", g.display(x));
    }
    // Misère outcomes of the small forms (by the definition: the player
    // with no move wins).
    let one = g.integer(1).unwrap();
    assert_eq!(g.outcome(FormId::ZERO), PartizanOutcome::N);
    assert_eq!(g.outcome(one), PartizanOutcome::R);
    let star = g.nim(1).unwrap();
    assert_eq!(g.outcome(star), PartizanOutcome::P);
}

#[test]
fn impartial_games_are_equal_modulo_dicots_as_modulo_impartial_games() {
    // Renault (INTEGERS 15, 2015): for impartial G, H, G = H modulo dicots
    // exactly when G = H modulo impartial games. Games born by day 4 fall
    // in 22 classes (ONAG ch. 12).
    let mut imp = MisereArena::new();
    let mut d = PartizanArena::new(Universe::Dicot);
    let mut level: Vec<(GameId, FormId)> = vec![(GameId::ZERO, FormId::ZERO)];
    for day in 1..=4 {
        let n = level.len();
        let mut next = Vec::new();
        for m in 0..1u32 << n {
            let chosen: Vec<(GameId, FormId)> = (0..n)
                .filter(|i| m >> i & 1 == 1)
                .map(|i| level[i])
                .collect();
            let gi: Vec<GameId> = chosen.iter().map(|c| c.0).collect();
            let gd: Vec<FormId> = chosen.iter().map(|c| c.1).collect();
            next.push((imp.game(&gi).unwrap(), d.game(&gd, &gd).unwrap()));
        }
        // The two equalities partition the games alike.
        for x in &next {
            for y in &next {
                assert_eq!(x.0 == y.0, x.1 == y.1, "day {day}");
            }
        }
        next.sort_unstable();
        next.dedup();
        level = next;
        let classes = [2, 3, 5, 22][day - 1];
        assert_eq!(level.len(), classes, "day {day}");
    }
}

#[test]
fn forms_are_unique_among_day_3_dicots() {
    // Equal forms are one id: group day-3 dicots by their outcomes against
    // day-1 probes (equal games agree there) and compare within groups.
    let mut a = PartizanArena::new(Universe::Dicot);
    let games = born_by(&mut a, 3);
    let probes = born_by(&mut a, 1);
    let mut twin = Twin::new();
    let mut groups: FxHashMap<Vec<PartizanOutcome>, Vec<FormId>> = FxHashMap::default();
    for &g in &games {
        let key = probes.iter().map(|&x| twin.outcome(&a, &[g, x])).collect();
        groups.entry(key).or_default().push(g);
    }
    let mut compared = 0;
    for group in groups.values() {
        for (i, &x) in group.iter().enumerate() {
            for &y in &group[i + 1..] {
                compared += 1;
                assert!(
                    !(a.ge(x, y) && a.ge(y, x)),
                    "{} and {} are equal but have two forms",
                    a.display(x),
                    a.display(y)
                );
            }
        }
    }
    assert!(compared > 0);
}

#[test]
fn canonical_forms_are_fixed_points_and_sums_commute() {
    for universe in [Universe::General, Universe::Dicot] {
        let mut a = PartizanArena::new(universe);
        let games = born_by(&mut a, 2);
        for &g in &games {
            let (l, r) = (a.left(g).to_vec(), a.right(g).to_vec());
            assert_eq!(a.game(&l, &r).unwrap(), g);
            let c = a.conjugate(g).unwrap();
            assert_eq!(a.conjugate(c).unwrap(), g);
        }
        let mut rng = fastrand::Rng::with_seed(40);
        let mut twin = Twin::new();
        for _ in 0..200 {
            let (x, y, z) = (
                games[rng.usize(..games.len())],
                games[rng.usize(..games.len())],
                games[rng.usize(..games.len())],
            );
            let xy = a.sum(x, y).unwrap();
            assert_eq!(xy, a.sum(y, x).unwrap());
            let xy_z = a.sum(xy, z).unwrap();
            let yz = a.sum(y, z).unwrap();
            let x_yz = a.sum(x, yz).unwrap();
            assert_eq!(
                xy_z,
                x_yz,
                "{universe:?}: {} vs {}",
                a.display(xy_z),
                a.display(x_yz)
            );
            // The reduced sum has the literal sum's outcome.
            assert_eq!(a.outcome(xy_z), twin.outcome(&a, &[x, y, z]));
        }
    }
}

/// Brute-force misère outcome of a board, by its moves.
fn board_wins<R: Ruleset>(
    rules: &R,
    b: &Board,
    memo: &mut FxHashMap<Board, (bool, bool)>,
) -> (bool, bool) {
    if let Some(&w) = memo.get(b) {
        return w;
    }
    let mut lefts = Vec::new();
    rules.options(b, Player::Left, |c| lefts.push(c));
    let mut rights = Vec::new();
    rules.options(b, Player::Right, |c| rights.push(c));
    let first = lefts.is_empty() || lefts.iter().any(|c| board_wins(rules, c, memo).1);
    let second = !rights.is_empty() && rights.iter().all(|c| board_wins(rules, c, memo).0);
    memo.insert(*b, (first, second));
    (first, second)
}

fn boards_add_up<R: Ruleset>(rules: &R, universe: Universe, parts: &[&str], gap: &str) {
    let mut a = PartizanArena::new(universe);
    let mut forms = PartizanBoardForms::new(rules, 1_000_000);
    let mut memo = FxHashMap::default();
    let mut checked = 0;
    for x in parts {
        for y in parts {
            // Two regions side by side, kept apart by a gap column.
            let rows_x: Vec<&str> = x.split('|').collect();
            let rows_y: Vec<&str> = y.split('|').collect();
            let h = rows_x.len().max(rows_y.len());
            let wx = rows_x[0].len();
            let wy = rows_y[0].len();
            let row = |rows: &[&str], i: usize, w: usize| {
                rows.get(i).map_or("#".repeat(w), |s| (*s).to_string())
            };
            let text: Vec<String> = (0..h)
                .map(|i| format!("{}{gap}{}", row(&rows_x, i, wx), row(&rows_y, i, wy)))
                .collect();
            let whole = rules.parse(&text.join("|")).unwrap();
            let bx = rules.parse(x).unwrap();
            let by = rules.parse(y).unwrap();
            let (gx, gy, gw) = (
                forms.form(&mut a, &bx).unwrap(),
                forms.form(&mut a, &by).unwrap(),
                forms.form(&mut a, &whole).unwrap(),
            );
            let sum = a.sum(gx, gy).unwrap();
            // One form per value: the board's form is the forms' sum.
            assert_eq!(
                gw,
                sum,
                "{universe:?} {x} + {y}: {} vs {}",
                a.display(gw),
                a.display(sum)
            );
            let (f, s) = board_wins(rules, &whole, &mut memo);
            assert_eq!(
                a.outcome(sum),
                PartizanOutcome::from_wins(f, s),
                "{x} + {y}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 9);
}

#[test]
fn domineering_sums_agree_with_search() {
    boards_add_up(
        &Domineering,
        Universe::General,
        &[
            "..", ".|.", "...", "..|..", "...|#..", "..|.#", "....", ".|.|.",
        ],
        "#",
    );
}

#[test]
fn clobber_sums_agree_with_search_in_both_universes() {
    for universe in [Universe::General, Universe::Dicot] {
        boards_add_up(
            &Clobber,
            universe,
            &[
                "xo", "xox", "oxo", "xoxo", "xo|ox", "xx|oo", "xoo", "x.o|oxx",
            ],
            ".",
        );
    }
}

#[test]
fn forms_are_unique_and_sound_among_random_day_3_games() {
    // General universe: 1,500 random games born by day 3. Equal games
    // share one form, and every `>=` claimed survives the day-2 probes.
    let mut a = PartizanArena::new(Universe::General);
    let day2 = born_by(&mut a, 2);
    let mut games = random_day_3(&mut a, &day2, 1500, 7);
    games.sort_unstable();
    games.dedup();
    let mut twin = Twin::new();
    let rows: Vec<Vec<PartizanOutcome>> = games
        .iter()
        .map(|&g| day2.iter().map(|&x| twin.outcome(&a, &[g, x])).collect())
        .collect();
    let mut claimed = 0;
    for (i, &g) in games.iter().enumerate() {
        for (j, &h) in games.iter().enumerate() {
            if i == j || !a.ge(g, h) {
                continue;
            }
            claimed += 1;
            assert!(
                rows[i].iter().zip(&rows[j]).all(|(x, y)| x.at_least(*y)),
                "{} >= {} is refuted",
                a.display(g),
                a.display(h)
            );
            assert!(
                !a.ge(h, g),
                "{} and {} are equal with two forms",
                a.display(g),
                a.display(h)
            );
        }
    }
    assert!(claimed > 0);
}

#[test]
fn forms_print_and_parse_back() {
    // Printed forms read back (as literal trees) to the same form; the
    // counted length is the printed one.
    let mut core = partizan_core::Arena::new();
    for universe in [Universe::General, Universe::Dicot] {
        let mut a = PartizanArena::new(universe);
        let mut games = born_by(&mut a, 2);
        if universe == Universe::Dicot {
            games = born_by(&mut a, 3);
        }
        for g in games {
            let len = a.display_len(g);
            let text = a.display(g);
            assert_eq!(len, text.len(), "{text}");
            let lit = core.parse_literal(&text).unwrap();
            assert_eq!(a.from_literal(&core, &lit).unwrap(), g, "{text}");
        }
    }
    // Notation: `-x` is the conjugate, `x + y` the misère sum, `1` = {0|}.
    let mut a = PartizanArena::new(Universe::General);
    let lit = core.parse_literal("{1|*} + -{1|*}").unwrap();
    let g = a.from_literal(&core, &lit).unwrap();
    let one = a.integer(1).unwrap();
    let star = a.nim(1).unwrap();
    let x = a.game(&[one], &[star]).unwrap();
    let cx = a.conjugate(x).unwrap();
    assert_eq!(g, a.sum(x, cx).unwrap());
    assert_eq!(a.display(x), "{1|*}");
    assert_eq!(a.display(cx), "{*|-1}");
}
