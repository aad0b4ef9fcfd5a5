//! Canonical forms against the definition of misère equivalence, the genus
//! rule against its definition, and the algebra of sums, on random games.

use proptest::prelude::*;
use rustc_hash::FxHashMap;

use partizan_misere::brute::Forest;
use partizan_misere::{GameId, MisereArena};

/// A random game tree of the given depth: returns the forest node and its
/// canonical form (built bottom-up from the same tree).
fn random_game(
    rng: &mut fastrand::Rng,
    depth: u32,
    forest: &mut Forest,
    arena: &mut MisereArena,
) -> (u32, GameId) {
    if depth == 0 {
        return (forest.add(Vec::new()), GameId::ZERO);
    }
    let width = rng.usize(0..=3);
    let mut nodes = Vec::new();
    let mut forms = Vec::new();
    for _ in 0..width {
        let d = rng.u32(0..depth);
        let (n, g) = random_game(rng, d, forest, arena);
        nodes.push(n);
        forms.push(g);
    }
    (forest.add(nodes), arena.game(&forms).unwrap())
}

/// A canonical form as a fresh tree in the forest.
fn to_tree(arena: &MisereArena, g: GameId, forest: &mut Forest) -> u32 {
    let kids: Vec<u32> = arena
        .options(g)
        .to_vec()
        .into_iter()
        .map(|o| to_tree(arena, o, forest))
        .collect();
    forest.add(kids)
}

#[test]
fn distinct_forms_born_by_day_four_are_told_apart() {
    // Conway: distinct canonical forms are not equivalent. For the 22 games
    // born by day 4, a distinguishing game is found among them and the sums
    // of two of them.
    let mut arena = MisereArena::new();
    let games = arena.born_by(4).unwrap();
    let mut forest = Forest::new();
    let trees: Vec<u32> = games
        .iter()
        .map(|&g| to_tree(&arena, g, &mut forest))
        .collect();
    let mut memo = FxHashMap::default();
    for i in 0..games.len() {
        for j in 0..i {
            let told = trees.iter().enumerate().any(|(k, &x)| {
                trees[..=k].iter().any(|&y| {
                    forest.outcome(&[trees[i], x, y], &mut memo)
                        != forest.outcome(&[trees[j], x, y], &mut memo)
                }) || forest.outcome(&[trees[i], x], &mut memo)
                    != forest.outcome(&[trees[j], x], &mut memo)
            });
            assert!(
                told,
                "{} and {} not told apart",
                arena.display(games[i], 80),
                arena.display(games[j], 80)
            );
        }
    }
}

#[test]
fn equal_forms_are_equivalent_by_definition() {
    // Random trees of depth up to 5 whose canonical forms agree give the
    // same misère outcome with every game born by day 4 added, and so do
    // their sums with each other; different forms are told apart by one of
    // them or by a sum of two.
    let mut rng = fastrand::Rng::with_seed(40);
    let mut arena = MisereArena::new();
    let tests = arena.born_by(4).unwrap();
    let mut forest = Forest::new();
    let xs: Vec<u32> = tests
        .iter()
        .map(|&g| to_tree(&arena, g, &mut forest))
        .collect();
    let mut memo = FxHashMap::default();
    let mut by_form: FxHashMap<GameId, Vec<u32>> = FxHashMap::default();
    for _ in 0..300 {
        let depth = rng.u32(1..=5);
        let (node, form) = random_game(&mut rng, depth, &mut forest, &mut arena);
        by_form.entry(form).or_default().push(node);
    }
    let mut equal_pairs = 0;
    for nodes in by_form.values() {
        for w in nodes.windows(2) {
            equal_pairs += 1;
            for &x in &xs {
                assert_eq!(
                    forest.outcome(&[w[0], x], &mut memo),
                    forest.outcome(&[w[1], x], &mut memo)
                );
            }
        }
    }
    assert!(
        equal_pairs > 50,
        "only {equal_pairs} pairs with equal forms"
    );
    // Canonical idempotence: a form rebuilt from its own tree is itself.
    for (&form, _) in by_form.iter() {
        let mut f2 = Forest::new();
        let t = to_tree(&arena, form, &mut f2);
        let again = rebuild(&f2, t, &mut arena);
        assert_eq!(again, form);
    }
}

fn rebuild(forest: &Forest, node: u32, arena: &mut MisereArena) -> GameId {
    let kids: Vec<GameId> = forest
        .options(node)
        .to_vec()
        .into_iter()
        .map(|k| rebuild(forest, k, arena))
        .collect();
    arena.game(&kids).unwrap()
}

#[test]
fn genus_rule_matches_its_definition() {
    // g_n = G-(G + n *2), searched on the trees themselves, against the
    // genus the arena computes by the mex rule.
    let mut rng = fastrand::Rng::with_seed(7);
    let mut arena = MisereArena::new();
    let mut forest = Forest::new();
    let two = forest.nim(2);
    let mut memo = FxHashMap::default();
    for _ in 0..120 {
        let depth = rng.u32(1..=4);
        let (node, form) = random_game(&mut rng, depth, &mut forest, &mut arena);
        let genus = arena.genus(form);
        for n in 0..6usize {
            let mut parts = vec![node];
            parts.extend(std::iter::repeat_n(two, n));
            assert_eq!(
                forest.misere_nim_value(&parts, &mut memo),
                genus.term(n),
                "{genus} at {n}"
            );
        }
        assert_eq!(arena.nim_value(form), genus.plus);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn sums_are_commutative_and_associative(seed in any::<u64>()) {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut arena = MisereArena::new();
        let mut forest = Forest::new();
        let (_, a) = random_game(&mut rng, 3, &mut forest, &mut arena);
        let (_, b) = random_game(&mut rng, 3, &mut forest, &mut arena);
        let (_, c) = random_game(&mut rng, 2, &mut forest, &mut arena);
        let ab = arena.sum(a, b).unwrap();
        prop_assert_eq!(ab, arena.sum(b, a).unwrap());
        let ab_c = arena.sum(ab, c).unwrap();
        let bc = arena.sum(b, c).unwrap();
        prop_assert_eq!(ab_c, arena.sum(a, bc).unwrap());
        prop_assert_eq!(arena.sum(a, GameId::ZERO).unwrap(), a);
    }

    #[test]
    fn sum_outcomes_match_the_search(seed in any::<u64>()) {
        // The canonical form of a sum has the outcome the search finds on
        // the two trees side by side.
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut arena = MisereArena::new();
        let mut forest = Forest::new();
        let (x, a) = random_game(&mut rng, 4, &mut forest, &mut arena);
        let (y, b) = random_game(&mut rng, 4, &mut forest, &mut arena);
        let s = arena.sum(a, b).unwrap();
        let mut memo = FxHashMap::default();
        prop_assert_eq!(arena.outcome(s), forest.outcome(&[x, y], &mut memo));
        prop_assert_eq!(arena.misere_nim_value(s), forest.misere_nim_value(&[x, y], &mut memo));
    }
}
