//! Property tests: algebraic laws of the interned engine, and agreement with
//! a brute-force twin that plays explicit game trees (no canonical forms, no
//! caches shared with the engine).

use std::collections::HashMap;
use std::rc::Rc;

use partizan_core::{Arena, Comparison, Dyadic, GameId, Outcome};
use proptest::prelude::*;

/// An explicit (non-canonical) game tree.
#[derive(Debug)]
struct Tree {
    l: Vec<Rc<Tree>>,
    r: Vec<Rc<Tree>>,
}

type T = Rc<Tree>;

fn key(t: &T) -> usize {
    Rc::as_ptr(t) as usize
}

/// Brute-force play on a sum of trees (each possibly negated).
#[derive(Default)]
struct Play {
    memo: HashMap<(Vec<(usize, bool)>, bool), bool>,
}

impl Play {
    fn moves(pos: &[(T, bool)], left: bool) -> Vec<Vec<(T, bool)>> {
        let mut out = Vec::new();
        for (i, (t, neg)) in pos.iter().enumerate() {
            // Left moves to left options of t, or (if negated) to negated right options
            let opts = if left != *neg { &t.l } else { &t.r };
            for o in opts {
                let mut p = pos.to_vec();
                p[i] = (Rc::clone(o), *neg);
                out.push(p);
            }
        }
        out
    }

    /// Does the player to move (`left`) win moving first?
    fn wins(&mut self, pos: &[(T, bool)], left: bool) -> bool {
        let mut k: Vec<(usize, bool)> = pos.iter().map(|(t, n)| (key(t), *n)).collect();
        k.sort_unstable();
        if let Some(&v) = self.memo.get(&(k.clone(), left)) {
            return v;
        }
        let mut res = false;
        for p in Self::moves(pos, left) {
            if !self.wins(&p, !left) {
                res = true;
                break;
            }
        }
        self.memo.insert((k, left), res);
        res
    }

    /// `sum(pos) >= 0`: Right moving first loses.
    fn geq0(&mut self, pos: &[(T, bool)]) -> bool {
        !self.wins(pos, false)
    }

    /// `g <= h` by play on `h - g`.
    fn leq(&mut self, g: &T, h: &T) -> bool {
        self.geq0(&[(Rc::clone(h), false), (Rc::clone(g), true)])
    }
}

/// The engine's value of a tree, via `construct` at every node.
fn value(a: &mut Arena, t: &T, memo: &mut HashMap<usize, GameId>) -> GameId {
    if let Some(&g) = memo.get(&key(t)) {
        return g;
    }
    let l: Vec<GameId> = t.l.iter().map(|o| value(a, o, memo)).collect();
    let r: Vec<GameId> = t.r.iter().map(|o| value(a, o, memo)).collect();
    let g = a.construct(&l, &r).unwrap();
    memo.insert(key(t), g);
    g
}

/// The canonical form of `g` as an explicit tree.
fn tree_of(a: &Arena, g: GameId, memo: &mut HashMap<GameId, T>) -> T {
    if let Some(t) = memo.get(&g) {
        return Rc::clone(t);
    }
    let t = Rc::new(Tree {
        l: a.left_options(g)
            .iter()
            .map(|&o| tree_of(a, o, memo))
            .collect(),
        r: a.right_options(g)
            .iter()
            .map(|&o| tree_of(a, o, memo))
            .collect(),
    });
    memo.insert(g, Rc::clone(&t));
    t
}

/// Slow twin of `leq`: the bare recursive definition, no caches, no shortcuts.
fn slow_leq(a: &Arena, g: GameId, h: GameId) -> bool {
    a.left_options(g).iter().all(|&gl| !slow_leq(a, h, gl))
        && a.right_options(h).iter().all(|&hr| !slow_leq(a, hr, g))
}

/// Slow twin of `sum`: the definition `{G^L+H, G+H^L | G^R+H, G+H^R}` through
/// `construct`, without the number-up-star or number-translation fast paths.
fn slow_sum(
    a: &mut Arena,
    g: GameId,
    h: GameId,
    memo: &mut HashMap<(GameId, GameId), GameId>,
) -> GameId {
    if let Some(&s) = memo.get(&(g, h)) {
        return s;
    }
    let mut l = Vec::new();
    let mut r = Vec::new();
    for gl in a.left_options(g).to_vec() {
        l.push(slow_sum(a, gl, h, memo));
    }
    for hl in a.left_options(h).to_vec() {
        l.push(slow_sum(a, g, hl, memo));
    }
    for gr in a.right_options(g).to_vec() {
        r.push(slow_sum(a, gr, h, memo));
    }
    for hr in a.right_options(h).to_vec() {
        r.push(slow_sum(a, g, hr, memo));
    }
    let s = a.construct(&l, &r).unwrap();
    memo.insert((g, h), s);
    s
}

fn arb_tree(depth: u32, width: usize) -> impl Strategy<Value = T> {
    let leaf = Just(Rc::new(Tree {
        l: vec![],
        r: vec![],
    }));
    leaf.prop_recursive(depth, 64, width as u32, move |inner| {
        (
            prop::collection::vec(inner.clone(), 0..=width),
            prop::collection::vec(inner, 0..=width),
        )
            .prop_map(|(l, r)| Rc::new(Tree { l, r }))
    })
}

fn small() -> impl Strategy<Value = T> {
    arb_tree(4, 3)
}

/// Small canonical values used as leaves of the richer generator.
const POOL: &[&str] = &[
    "0", "1", "-1", "2", "1/2", "-1/2", "3/4", "*", "*2", "^", "v", "^*", "±1", "{2|0}", "{0|-2}",
    "{1|*}", "{3|1}", "±1/2", "{1/2|-1}",
];

fn pool_tree(i: usize) -> T {
    let mut a = Arena::new();
    let g = a.parse(POOL[i]).unwrap();
    tree_of(&a, g, &mut HashMap::new())
}

/// Random option sets over small canonical values: hotter, richer games.
fn rich() -> impl Strategy<Value = T> {
    let leaf = (0..POOL.len()).prop_map(pool_tree);
    leaf.prop_recursive(2, 24, 3, |inner| {
        (
            prop::collection::vec(inner.clone(), 0..=3),
            prop::collection::vec(inner, 0..=3),
        )
            .prop_map(|(l, r)| Rc::new(Tree { l, r }))
    })
}

fn cfg(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(cfg(256))]

    #[test]
    fn leq_agrees_with_play(g in small(), h in small()) {
        let mut a = Arena::new();
        let mut m = HashMap::new();
        let (vg, vh) = (value(&mut a, &g, &mut m), value(&mut a, &h, &mut m));
        let mut p = Play::default();
        prop_assert_eq!(a.leq(vg, vh), p.leq(&g, &h));
        prop_assert_eq!(a.leq(vh, vg), p.leq(&h, &g));
        prop_assert_eq!(vg == vh, p.leq(&g, &h) && p.leq(&h, &g));
        prop_assert_eq!(a.leq(vg, vh), slow_leq(&a, vg, vh));
    }

    #[test]
    fn canonical_form_equals_original(g in small()) {
        let mut a = Arena::new();
        let mut m = HashMap::new();
        let vg = value(&mut a, &g, &mut m);
        let c = tree_of(&a, vg, &mut HashMap::new());
        let mut p = Play::default();
        prop_assert!(p.leq(&g, &c) && p.leq(&c, &g));
        // canonical: no dominated options, no reversible options
        let l = a.left_options(vg).to_vec();
        let r = a.right_options(vg).to_vec();
        for &x in &l {
            for &y in &l {
                prop_assert!(x == y || !a.leq(x, y));
            }
            for &xr in a.right_options(x).to_vec().iter() {
                prop_assert!(!a.leq(xr, vg), "reversible left option");
            }
        }
        for &x in &r {
            for &y in &r {
                prop_assert!(x == y || !a.leq(x, y));
            }
            for &xl in a.left_options(x).to_vec().iter() {
                prop_assert!(!a.leq(vg, xl), "reversible right option");
            }
        }
    }

    #[test]
    fn outcome_agrees_with_play(g in small()) {
        let mut a = Arena::new();
        let vg = value(&mut a, &g, &mut HashMap::new());
        let mut p = Play::default();
        let lf = p.wins(&[(Rc::clone(&g), false)], true);
        let rf = p.wins(&[(Rc::clone(&g), false)], false);
        let expect = match (lf, rf) {
            (true, false) => Outcome::L,
            (false, true) => Outcome::R,
            (true, true) => Outcome::N,
            (false, false) => Outcome::P,
        };
        prop_assert_eq!(a.outcome(vg), expect);
    }

    #[test]
    fn sum_agrees_with_play(g in small(), h in small(), k in arb_tree(3, 2)) {
        let mut a = Arena::new();
        let mut m = HashMap::new();
        let (vg, vh, vk) = (value(&mut a, &g, &mut m), value(&mut a, &h, &mut m), value(&mut a, &k, &mut m));
        let s = a.sum(vg, vh).unwrap();
        let mut p = Play::default();
        // s <= k  iff  k - g - h >= 0
        let by_play = p.geq0(&[(Rc::clone(&k), false), (Rc::clone(&g), true), (Rc::clone(&h), true)]);
        prop_assert_eq!(a.leq(s, vk), by_play);
        let by_play = p.geq0(&[(Rc::clone(&k), true), (Rc::clone(&g), false), (Rc::clone(&h), false)]);
        prop_assert_eq!(a.leq(vk, s), by_play);
        // fast paths (number-up-star, translation) = the bare definition
        let slow = slow_sum(&mut a, vg, vh, &mut HashMap::new());
        prop_assert_eq!(s, slow);
    }

    #[test]
    fn group_laws(g in small(), h in small(), k in small()) {
        let mut a = Arena::new();
        let mut m = HashMap::new();
        let (vg, vh, vk) = (value(&mut a, &g, &mut m), value(&mut a, &h, &mut m), value(&mut a, &k, &mut m));
        let z = a.zero();
        let ng = a.neg(vg);
        prop_assert_eq!(a.sum(vg, ng).unwrap(), z);
        prop_assert_eq!(a.neg(ng), vg);
        prop_assert_eq!(a.sum(vg, vh).unwrap(), a.sum(vh, vg).unwrap());
        let gh = a.sum(vg, vh).unwrap();
        let hk = a.sum(vh, vk).unwrap();
        prop_assert_eq!(a.sum(gh, vk).unwrap(), a.sum(vg, hk).unwrap());
        prop_assert_eq!(a.sum_all(&[vg, vh, vk]).unwrap(), a.sum(gh, vk).unwrap());
        prop_assert_eq!(a.sum(vg, z).unwrap(), vg);
        // order laws
        prop_assert!(a.leq(vg, vg));
        if a.leq(vg, vh) && a.leq(vh, vg) {
            prop_assert_eq!(vg, vh);
        }
        if a.leq(vg, vh) && a.leq(vh, vk) {
            prop_assert!(a.leq(vg, vk));
        }
        // order is translation invariant: g <= h iff g + k <= h + k
        let gk = a.sum(vg, vk).unwrap();
        let hk2 = a.sum(vh, vk).unwrap();
        prop_assert_eq!(a.leq(vg, vh), a.leq(gk, hk2));
        // negation reverses order
        let nh = a.neg(vh);
        prop_assert_eq!(a.leq(vg, vh), a.leq(nh, ng));
        prop_assert_eq!(a.confused(vg, vh), !a.leq(vg, vh) && !a.leq(vh, vg));
        prop_assert_eq!(a.lt(vg, vh), a.leq(vg, vh) && vg != vh);
    }

    #[test]
    fn notation_round_trips(g in small(), h in small()) {
        let mut a = Arena::new();
        let mut m = HashMap::new();
        let (vg, vh) = (value(&mut a, &g, &mut m), value(&mut a, &h, &mut m));
        let s = a.sum(vg, vh).unwrap();
        for x in [vg, vh, s] {
            let text = a.display(x);
            let back = a.parse(&text);
            prop_assert_eq!(back, Ok(x), "{}", text);
            // and printing is independent of the arena's history
            let mut fresh = Arena::new();
            let y = fresh.parse(&text).unwrap();
            prop_assert_eq!(fresh.display(y), text.clone());
            // the binary encoding round-trips and is history-independent too
            let bytes = a.encode(x);
            prop_assert_eq!(a.decode(&bytes), Ok(x));
            prop_assert_eq!(fresh.decode(&bytes), Ok(y));
            prop_assert_eq!(fresh.encode(y), bytes);
        }
    }

    #[test]
    fn thermograph_laws(g in small(), h in small()) {
        let mut a = Arena::new();
        let mut m = HashMap::new();
        let (vg, vh) = (value(&mut a, &g, &mut m), value(&mut a, &h, &mut m));
        let (mg, mh) = (a.mean(vg), a.mean(vh));
        let s = a.sum(vg, vh).unwrap();
        // the mean is additive
        prop_assert_eq!(a.mean(s), mg.checked_add(mh).unwrap());
        // and lies between the stops
        prop_assert!(a.right_stop(vg) <= mg && mg <= a.left_stop(vg));
        let ng = a.neg(vg);
        prop_assert_eq!(a.mean(ng), mg.checked_neg().unwrap());
        prop_assert_eq!(a.temperature(ng), a.temperature(vg));
        let t = a.temperature(vg);
        prop_assert!(t >= Dyadic::MINUS_ONE);
        if a.is_number(vg) {
            prop_assert!(t < Dyadic::ZERO);
        } else {
            prop_assert!(t >= Dyadic::ZERO);
        }
        // walls at temperature 0 are the stops (for non-numbers)
        if !a.is_number(vg) {
            let th = a.thermograph(vg).unwrap();
            prop_assert_eq!(th.left.value_at(Dyadic::ZERO).unwrap(), a.left_stop(vg));
            prop_assert_eq!(th.right.value_at(Dyadic::ZERO).unwrap(), a.right_stop(vg));
            prop_assert_eq!(th.mast, mg);
        }
        // stops of the sum are bounded by the stops of the parts
        let (lg, rg, lh, rh) = (a.left_stop(vg), a.right_stop(vg), a.left_stop(vh), a.right_stop(vh));
        let (ls, rs) = (a.left_stop(s), a.right_stop(s));
        prop_assert!(rg.checked_add(rh).unwrap() <= rs);
        prop_assert!(ls <= lg.checked_add(lh).unwrap());
    }
}

proptest! {
    #![proptest_config(cfg(128))]

    #[test]
    fn rich_leq_and_canonical_agree_with_play(g in rich(), h in rich()) {
        let mut a = Arena::new();
        let mut m = HashMap::new();
        let (vg, vh) = (value(&mut a, &g, &mut m), value(&mut a, &h, &mut m));
        let mut p = Play::default();
        prop_assert_eq!(a.leq(vg, vh), p.leq(&g, &h));
        prop_assert_eq!(a.leq(vh, vg), p.leq(&h, &g));
        prop_assert_eq!(a.leq(vg, vh), slow_leq(&a, vg, vh));
        let c = tree_of(&a, vg, &mut HashMap::new());
        prop_assert!(p.leq(&g, &c) && p.leq(&c, &g));
        let text = a.display(vg);
        prop_assert_eq!(a.parse(&text), Ok(vg), "{}", text);
    }

    #[test]
    fn rich_sums(g in rich(), h in rich()) {
        let mut a = Arena::new();
        let mut m = HashMap::new();
        let (vg, vh) = (value(&mut a, &g, &mut m), value(&mut a, &h, &mut m));
        let s = a.sum(vg, vh).unwrap();
        prop_assert_eq!(s, slow_sum(&mut a, vg, vh, &mut HashMap::new()));
        // s - g = h, checked by play against the explicit trees
        let ct = tree_of(&a, s, &mut HashMap::new());
        let mut p = Play::default();
        prop_assert!(p.geq0(&[(Rc::clone(&ct), false), (Rc::clone(&g), true), (Rc::clone(&h), true)]));
        prop_assert!(p.geq0(&[(Rc::clone(&ct), true), (Rc::clone(&g), false), (Rc::clone(&h), false)]));
        let (mg, mh) = (a.mean(vg), a.mean(vh));
        prop_assert_eq!(a.mean(s), mg.checked_add(mh).unwrap());
        let text = a.display(s);
        prop_assert_eq!(a.parse(&text), Ok(s), "{}", text);
    }
}

proptest! {
    #![proptest_config(cfg(1024))]

    #[test]
    fn parser_never_panics(s in "[-0-9/{}|,*^v± +]{0,40}") {
        let mut a = Arena::new();
        if let Ok(g) = a.parse(&s) {
            // whatever parses prints to something that parses back to it
            let text = a.display(g);
            prop_assert_eq!(a.parse(&text), Ok(g), "{} -> {}", s, text);
        }
    }

    #[test]
    fn decoder_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..48)) {
        let mut a = Arena::new();
        let mut b = b"PZG\x01".to_vec();
        b.extend_from_slice(&bytes);
        if let Ok(g) = a.decode(&b) {
            prop_assert_eq!(a.encode(g), b);
        }
    }
}

proptest! {
    #![proptest_config(cfg(512))]

    #[test]
    fn number_fast_paths(p in -64i64..64, e in 0u32..5, q in -64i64..64, f in 0u32..5, k in -3i32..=3, n in 0u32..4) {
        let mut a = Arena::new();
        let x = Dyadic::new(p, e).unwrap();
        let y = Dyadic::new(q, f).unwrap();
        let gx = a.number(x).unwrap();
        let gy = a.number(y).unwrap();
        // number + number
        let s = a.sum(gx, gy).unwrap();
        prop_assert_eq!(a.as_number(s), Some(x.checked_add(y).unwrap()));
        prop_assert_eq!(s, slow_sum(&mut a, gx, gy, &mut HashMap::new()));
        // number comparison
        prop_assert_eq!(a.leq(gx, gy), x <= y);
        prop_assert_eq!(a.leq(gx, gy), slow_leq(&a, gx, gy));
        // number-up-star sums and comparisons against the general path
        let u = a.nus(x, k, n).unwrap();
        let v = a.nus(y, -k, n ^ 1).unwrap();
        let s = a.sum(u, v).unwrap();
        prop_assert_eq!(s, slow_sum(&mut a, u, v, &mut HashMap::new()));
        prop_assert_eq!(a.leq(u, v), slow_leq(&a, u, v));
        prop_assert_eq!(a.leq(v, u), slow_leq(&a, v, u));
        // parse/print of the number
        let text = a.display(gx);
        prop_assert_eq!(text.parse::<Dyadic>().unwrap(), x);
    }
}

// ---------------------------------------------------------------------
// The toolkit's laws (atomic weight, reduced forms, temperature theory),
// checked against brute-force play on the explicit trees where possible.

/// An all-small tree: every node has options for both players or none.
fn all_small_tree(depth: u32, width: usize) -> impl Strategy<Value = T> {
    let leaf = Just(Rc::new(Tree {
        l: vec![],
        r: vec![],
    }));
    leaf.prop_recursive(depth, 48, width as u32, move |inner| {
        (
            prop::collection::vec(inner.clone(), 1..=width),
            prop::collection::vec(inner, 1..=width),
        )
            .prop_map(|(l, r)| Rc::new(Tree { l, r }))
    })
}

/// No subposition of `g` has equal stops without being a number (a reduced
/// canonical form keeps no `x + infinitesimal` but `x` itself).
fn numberish_free(a: &Arena, g: GameId) -> bool {
    let mut stack = vec![g];
    let mut seen = std::collections::HashSet::new();
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        if !a.is_number(x) && a.left_stop(x) == a.right_stop(x) {
            return false;
        }
        stack.extend(a.left_options(x).iter().copied());
        stack.extend(a.right_options(x).iter().copied());
    }
    true
}

/// The literal definition of heating by `t` on a canonical form (no memo,
/// the sum through the slow twin).
fn slow_heat(a: &mut Arena, g: GameId, t: GameId) -> GameId {
    if a.is_number(g) {
        return g;
    }
    let nt = a.neg(t);
    let mut l = Vec::new();
    for gl in a.left_options(g).to_vec() {
        let h = slow_heat(a, gl, t);
        l.push(slow_sum(a, h, t, &mut HashMap::new()));
    }
    let mut r = Vec::new();
    for gr in a.right_options(g).to_vec() {
        let h = slow_heat(a, gr, t);
        r.push(slow_sum(a, h, nt, &mut HashMap::new()));
    }
    a.construct(&l, &r).unwrap()
}

/// The literal definition of overheating `∫^t_s` (integers become `n` copies
/// of `s`, added one at a time).
fn slow_overheat(a: &mut Arena, g: GameId, s: GameId, t: GameId) -> GameId {
    if let Some(x) = a.as_number(g) {
        if x.is_integer() {
            let n = x.num();
            let unit = if n < 0 { a.neg(s) } else { s };
            let mut acc = a.zero();
            for _ in 0..n.unsigned_abs() {
                acc = slow_sum(a, acc, unit, &mut HashMap::new());
            }
            return acc;
        }
    }
    let nt = a.neg(t);
    let mut l = Vec::new();
    for gl in a.left_options(g).to_vec() {
        let h = slow_overheat(a, gl, s, t);
        l.push(slow_sum(a, h, t, &mut HashMap::new()));
    }
    let mut r = Vec::new();
    for gr in a.right_options(g).to_vec() {
        let h = slow_overheat(a, gr, s, t);
        r.push(slow_sum(a, h, nt, &mut HashMap::new()));
    }
    a.construct(&l, &r).unwrap()
}

proptest! {
    #![proptest_config(cfg(256))]

    #[test]
    fn atomic_weight_laws(g in all_small_tree(3, 2), h in all_small_tree(3, 2)) {
        let mut a = Arena::new();
        let mut m = HashMap::new();
        let (vg, vh) = (value(&mut a, &g, &mut m), value(&mut a, &h, &mut m));
        prop_assert!(a.is_all_small(vg) && a.is_infinitesimal(vg));
        let wg = a.atomic_weight(vg).unwrap();
        let wh = a.atomic_weight(vh).unwrap();
        // additive on sums
        let s = a.sum(vg, vh).unwrap();
        let ws = a.atomic_weight(s).unwrap();
        prop_assert_eq!(ws, a.sum(wg, wh).unwrap(), "{} + {}", a.display(vg), a.display(vh));
        // odd under negation
        let ng = a.neg(vg);
        prop_assert_eq!(a.atomic_weight(ng).unwrap(), a.neg(wg));
        // adding a nimber changes nothing, adding ^ adds 1
        let s3 = a.nimber(3);
        let gs = a.sum(vg, s3).unwrap();
        prop_assert_eq!(a.atomic_weight(gs).unwrap(), wg);
        let up = a.up();
        let gu = a.sum(vg, up).unwrap();
        let one = a.integer(1).unwrap();
        prop_assert_eq!(a.atomic_weight(gu).unwrap(), a.sum(wg, one).unwrap());
        // the two-ahead rule agrees with play on the explicit tree
        let ta = a.two_ahead(vg).unwrap();
        let mut p = Play::default();
        let lf = p.wins(&[(Rc::clone(&g), false)], true);
        let rf = p.wins(&[(Rc::clone(&g), false)], false);
        if ta.left_wins {
            prop_assert!(lf && !rf, "aw {} >= 2 but {} is not > 0", a.display(wg), a.display(vg));
        }
        if ta.left_wins_first {
            prop_assert!(lf, "aw {} >= 1 but Left loses first in {}", a.display(wg), a.display(vg));
        }
        if ta.right_wins {
            prop_assert!(rf && !lf);
        }
        if ta.right_wins_first {
            prop_assert!(rf);
        }
        prop_assert_eq!(ta.outcome().is_some(), ta.left_wins || ta.right_wins);
    }

    #[test]
    fn reduced_form_laws(g in small(), e in all_small_tree(3, 2)) {
        let mut a = Arena::new();
        let mut m = HashMap::new();
        let (vg, ve) = (value(&mut a, &g, &mut m), value(&mut a, &e, &mut m));
        let r = a.reduced(vg).unwrap();
        // idempotent
        prop_assert_eq!(a.reduced(r).unwrap(), r);
        // equal modulo infinitesimals
        let d = a.sub(vg, r).unwrap();
        prop_assert!(a.is_infinitesimal(d), "{} - {}", a.display(vg), a.display(r));
        prop_assert_eq!(a.infinitesimal_part(vg).unwrap(), d);
        // the same for G plus any infinitesimal
        let ge = a.sum(vg, ve).unwrap();
        prop_assert_eq!(a.reduced(ge).unwrap(), r, "{} + {}", a.display(vg), a.display(ve));
        // and the stops are kept
        prop_assert_eq!(a.left_stop(r), a.left_stop(vg));
        prop_assert_eq!(a.right_stop(r), a.right_stop(vg));
        prop_assert!(numberish_free(&a, r), "{} has a numberish non-number", a.display(r));
    }

    #[test]
    fn reduced_form_laws_on_hot_games(g in rich(), e in all_small_tree(2, 2)) {
        let mut a = Arena::new();
        let mut m = HashMap::new();
        let (vg, ve) = (value(&mut a, &g, &mut m), value(&mut a, &e, &mut m));
        let r = a.reduced(vg).unwrap();
        prop_assert_eq!(a.reduced(r).unwrap(), r);
        let d = a.sub(vg, r).unwrap();
        prop_assert!(a.is_infinitesimal(d));
        let ge = a.sum(vg, ve).unwrap();
        prop_assert_eq!(a.reduced(ge).unwrap(), r);
        prop_assert!(numberish_free(&a, r), "{} has a numberish non-number", a.display(r));
    }

    #[test]
    fn temperature_laws(g in rich()) {
        let mut a = Arena::new();
        let vg = value(&mut a, &g, &mut HashMap::new());
        let th = a.thermograph(vg).unwrap();
        let (t, mean) = (a.temperature(vg), a.mean(vg));
        // the walls meet the mast at the temperature and stay there above
        if !a.is_number(vg) {
            prop_assert_eq!(th.left.value_at(t).unwrap(), mean);
            prop_assert_eq!(th.right.value_at(t).unwrap(), mean);
            let above = t.checked_add(Dyadic::ONE).unwrap();
            prop_assert_eq!(th.left.value_at(above).unwrap(), mean);
            // breakpoints are the walls' own values
            for (bt, bx) in th.left.points() {
                prop_assert_eq!(th.left.value_at(bt).unwrap(), bx);
            }
        }
        // cooling by t <= temperature: the stops of G_t are the walls at t
        for k in 0..4 {
            let s = Dyadic::new(k, 1).unwrap(); // 0, 1/2, 1, 3/2
            if s > t || a.is_number(vg) {
                continue;
            }
            let c = a.cool(vg, s).unwrap();
            prop_assert_eq!(a.left_stop(c), th.left.value_at(s).unwrap(), "{} cooled by {}", a.display(vg), s);
            prop_assert_eq!(a.right_stop(c), th.right.value_at(s).unwrap());
            prop_assert_eq!(a.mean(c), mean);
        }
        // above its temperature a game cools to its mean
        let hot = t.checked_add(Dyadic::HALF).unwrap();
        let c = a.cool(vg, hot).unwrap();
        if !a.as_number(vg).is_some_and(Dyadic::is_integer) {
            prop_assert_eq!(a.as_number(c), Some(mean));
        }
        // freezing leaves the mean plus an infinitesimal
        let f = a.freeze(vg).unwrap();
        let mg = a.number(mean).unwrap();
        let d = a.sub(f, mg).unwrap();
        prop_assert!(a.is_infinitesimal(d), "freeze of {} is {}", a.display(vg), a.display(f));
        // cooling by 0 changes nothing
        prop_assert_eq!(a.cool(vg, Dyadic::ZERO).unwrap(), vg);
        // incentives: every option's incentive is at most a kept one
        let inc = a.incentives(vg).unwrap();
        for gl in a.left_options(vg).to_vec() {
            let d = a.sub(gl, vg).unwrap();
            let mut ok = false;
            for &k in &inc.left {
                ok |= a.leq(d, k);
            }
            prop_assert!(ok);
        }
        // orthodox options exist for both players of a non-number at any t
        if !a.is_number(vg) {
            let o = a.orthodox(vg, t).unwrap();
            prop_assert!(!o.left.is_empty() && !o.right.is_empty());
        }
    }

    #[test]
    fn heating_and_overheating_agree_with_their_definitions(g in small(), k in 0usize..4) {
        let mut a = Arena::new();
        let vg = value(&mut a, &g, &mut HashMap::new());
        let t = a.parse(["1", "*", "1/2", "^"][k]).unwrap();
        prop_assert_eq!(a.heat(vg, t).unwrap(), slow_heat(&mut a, vg, t));
        let one = a.integer(1).unwrap();
        prop_assert_eq!(a.overheat(vg, one, t).unwrap(), slow_overheat(&mut a, vg, one, t));
        let s = a.star();
        prop_assert_eq!(a.overheat(vg, s, one).unwrap(), slow_overheat(&mut a, vg, s, one));
        // heating by 0 is the identity
        let z = a.zero();
        prop_assert_eq!(a.heat(vg, z).unwrap(), vg);
    }

    #[test]
    fn comparison_and_size_agree_with_play(g in small(), h in small()) {
        let mut a = Arena::new();
        let mut m = HashMap::new();
        let (vg, vh) = (value(&mut a, &g, &mut m), value(&mut a, &h, &mut m));
        let mut p = Play::default();
        let expect = match (p.leq(&g, &h), p.leq(&h, &g)) {
            (true, true) => Comparison::Equal,
            (true, false) => Comparison::Less,
            (false, true) => Comparison::Greater,
            (false, false) => Comparison::Confused,
        };
        prop_assert_eq!(a.compare(vg, vh), expect);
        let s = a.size_summary(vg);
        prop_assert_eq!(s.printed_len, a.display(vg).len());
        let t = tree_of(&a, vg, &mut HashMap::new());
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![t];
        while let Some(x) = stack.pop() {
            if seen.insert(key(&x)) {
                stack.extend(x.l.iter().cloned());
                stack.extend(x.r.iter().cloned());
            }
        }
        prop_assert_eq!(s.subpositions, seen.len());
    }

    #[test]
    fn tiny_and_uptimal_notation_round_trips(p in -8i64..8, e in 0u32..3, q in 1i64..8, f in 0u32..2, n in 1u32..5) {
        let mut a = Arena::new();
        let x = Dyadic::new(p, e).unwrap();
        let s = Dyadic::new(q, f).unwrap();
        for text in [format!("{x}+Tiny({s})"), format!("{x}+Miny({s})"), format!("^<{n}>"), format!("v[{n}]*")] {
            let g = a.parse(&text).unwrap();
            let printed = a.display(g);
            prop_assert_eq!(a.parse(&printed), Ok(g), "{} -> {}", text, printed);
            let tex = a.display_latex(g);
            prop_assert!(!tex.is_empty());
        }
    }

    /// Every uptimal expansion is recognised from its game (the recogniser
    /// builds its candidate and checks it is the game, so this is the
    /// completeness half), and the game prints and parses back.
    #[test]
    fn uptimal_expansions_are_recognised(p in -4i64..4, e in 0u32..2, m in 0u32..5, ds in proptest::collection::vec(-2i32..3, 0..4)) {
        let mut a = Arena::new();
        let mut c = ds.clone();
        while c.last() == Some(&0) {
            c.pop();
        }
        let want = partizan_core::notation::UptimalExpansion {
            number: Dyadic::new(p, e).unwrap(),
            nimber: m,
            coefficients: c,
        };
        let g = a.expansion_game(&want).unwrap();
        prop_assert_eq!(a.uptimal_expansion(g).unwrap(), Some(want.clone()));
        let printed = a.display(g);
        prop_assert_eq!(a.parse(&printed), Ok(g), "{}", printed);
        // a unit or a unit sum prints compactly
        if want.coefficients.len() >= 2 && (want.is_unit() || want.is_unit_sum()) {
            prop_assert!(!printed.contains('{'), "{:?} printed {}", want, printed);
        }
    }

    /// The orthodox form against its definition: the thermograph (so mean,
    /// temperature and stops) of G, and every option needed — dropping any
    /// one of them changes the thermograph.
    #[test]
    fn orthodox_form_keeps_the_thermograph(g in rich()) {
        let mut a = Arena::new();
        let mut m = HashMap::new();
        let vg = value(&mut a, &g, &mut m);
        let o = a.orthodox_form(vg).unwrap();
        let (tg, to) = (a.thermograph(vg).unwrap(), a.thermograph(o).unwrap());
        prop_assert_eq!(tg.cgsuite(), to.cgsuite());
        prop_assert_eq!(a.mean(vg), a.mean(o));
        prop_assert_eq!(a.temperature(vg), a.temperature(o));
        prop_assert_eq!(a.left_stop(vg), a.left_stop(o));
        prop_assert_eq!(a.right_stop(vg), a.right_stop(o));
        let (l, r) = (a.left_options(o).to_vec(), a.right_options(o).to_vec());
        for i in 0..l.len() {
            let mut fewer = l.clone();
            fewer.remove(i);
            let h = a.construct(&fewer, &r).unwrap();
            prop_assert_ne!(a.thermograph(h).unwrap().cgsuite(), tg.cgsuite());
        }
        for i in 0..r.len() {
            let mut fewer = r.clone();
            fewer.remove(i);
            let h = a.construct(&l, &fewer).unwrap();
            prop_assert_ne!(a.thermograph(h).unwrap().cgsuite(), tg.cgsuite());
        }
        // numbers are their own orthodox forms
        if a.is_number(vg) {
            prop_assert_eq!(o, vg);
        }
    }
}
