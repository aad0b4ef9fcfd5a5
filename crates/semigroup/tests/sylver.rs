//! Sylver Coinage against a brute-force twin that knows nothing of
//! semigroups: positions are lists of gaps, closures are computed number by
//! number, and every move is tried (no pairing test).

use std::collections::HashMap;

use partizan_semigroup::sylver::finish::FinishingSearch;
use partizan_semigroup::sylver::pairing::{is_struck, survivors};
use partizan_semigroup::sylver::proofs::{
    deepening_proof, told_proof, told_proof_steps, ProofKind,
};
use partizan_semigroup::sylver::remoteness::Remoteness;
use partizan_semigroup::sylver::Order;
use partizan_semigroup::{for_each_semigroup, play, Outcome, Semigroup};

/// Naming `x` when the gaps are `gaps`: the numbers still not sums.
fn naive_name(gaps: &[u32], x: u32) -> Vec<u32> {
    let top = *gaps.last().unwrap_or(&0) as usize;
    let mut member: Vec<bool> = (0..=top).map(|n| !gaps.contains(&(n as u32))).collect();
    for n in 0..=top {
        if n >= x as usize && member[n - x as usize] {
            member[n] = true;
        }
    }
    (1..=top as u32).filter(|&n| !member[n as usize]).collect()
}

/// Won for the player to move, trying every number but 1, with remoteness.
fn naive_remoteness(gaps: &[u32], memo: &mut HashMap<Vec<u32>, u32>) -> u32 {
    if let Some(&r) = memo.get(gaps) {
        return r;
    }
    let mut best_win = None;
    let mut longest = 0;
    let mut any = false;
    for &x in gaps.iter().filter(|&&x| x != 1) {
        any = true;
        let r = naive_remoteness(&naive_name(gaps, x), memo);
        if r.is_multiple_of(2) {
            best_win = Some(best_win.map_or(r, |b: u32| b.min(r)));
        } else {
            longest = longest.max(r);
        }
    }
    let r = match best_win {
        Some(r) => r + 1,
        None if !any => 0,
        None => longest + 1,
    };
    memo.insert(gaps.to_vec(), r);
    r
}

fn all_positions(max_genus: u32) -> Vec<Semigroup> {
    let mut v = Vec::new();
    for_each_semigroup(max_genus, |s| v.push(s)).unwrap();
    v
}

#[test]
fn pairing_test_is_sound_on_small_positions() {
    // Irreducible positions other than <2,3> are won for the player to move,
    // and <2,3> is lost: so moves into irreducible positions lose.
    let mut memo = HashMap::new();
    let mut irreducible = 0;
    for s in all_positions(13) {
        let won = naive_remoteness(&s.gap_list(), &mut memo) % 2 == 1;
        if s.is_irreducible() {
            irreducible += 1;
            assert_eq!(won, s != Semigroup::ONLY_GAP_ONE, "{s:?}");
            assert_eq!(is_struck(s), s != Semigroup::ONLY_GAP_ONE);
        }
    }
    assert!(irreducible > 100);
}

#[test]
fn finishing_search_and_remoteness_match_brute_force() {
    let mut memo = HashMap::new();
    let mut search = FinishingSearch::new(Order::Increasing);
    let mut decreasing = FinishingSearch::new(Order::Decreasing);
    let mut scored = FinishingSearch::new(Order::Scored);
    let mut remote = Remoteness::new();
    let mut lost = 0;
    for s in all_positions(14) {
        let r = naive_remoteness(&s.gap_list(), &mut memo);
        let won = r % 2 == 1;
        assert_eq!(search.wins(s), won, "{s:?}");
        assert_eq!(decreasing.wins(s), won, "{s:?}");
        assert_eq!(scored.wins(s), won, "{s:?}");
        assert_eq!(remote.remoteness(s), r, "{s:?}");
        if let Some(x) = search.winning_move(s) {
            // the first winning move in increasing order, among survivors
            let t = naive_name(&s.gap_list(), x);
            assert_eq!(naive_remoteness(&t, &mut memo) % 2, 0);
            let first = s.gaps().filter(|&y| y != 1).find(|&y| {
                naive_remoteness(&naive_name(&s.gap_list(), y), &mut memo).is_multiple_of(2)
            });
            assert_eq!(first, Some(x));
        } else {
            lost += 1;
        }
    }
    assert!(lost > 10);
}

#[test]
fn closure_matches_naive_naming() {
    for s in all_positions(12) {
        for x in s.gaps() {
            assert_eq!(s.adjoin(x).gap_list(), naive_name(&s.gap_list(), x));
        }
    }
}

#[test]
fn proofs_agree_with_the_finishing_search() {
    let mut check = FinishingSearch::new(Order::Increasing);
    for s in all_positions(12) {
        let won = check.wins(s);
        for order in Order::ALL {
            for kind in [ProofKind::Fresh, ProofKind::Kept, ProofKind::TwoSided] {
                let p = deepening_proof(s, kind, order);
                assert_eq!(p.is_some(), won, "{kind} {s:?}");
                if let Some(p) = p {
                    assert!(!check.wins(s.adjoin(p.winning_move)));
                    assert!(p.depth % 2 == 1);
                    let t = told_proof(s, p.depth, order).unwrap();
                    assert_eq!(t.winning_move, p.winning_move);
                    if p.depth >= 3 {
                        assert!(told_proof(s, p.depth - 2, order).is_none());
                    }
                }
            }
        }
    }
}

#[test]
fn small_examples() {
    // <2,3>: only 1 is left, the player to move loses.
    let s = Semigroup::ONLY_GAP_ONE;
    let r = play(&s).unwrap();
    assert_eq!(r.outcome, Outcome::Loss);
    assert_eq!(r.remoteness, 0);
    assert_eq!(r.winning_move, None);
    // gaps {1,2,3} = <4,5,6,7>: both moves reach irreducible positions
    // ({1,3} and {1,2}), so it is lost, in two moves.
    let s = Semigroup::parse_gaps("1,2,3").unwrap();
    let r = play(&s).unwrap();
    assert_eq!(r.outcome, Outcome::Loss);
    assert_eq!(r.survivors, Vec::<u32>::new());
    assert_eq!(r.struck, vec![2, 3]);
    assert_eq!(r.remoteness, 2);
    // gaps {1,2,3,4}: naming 4 leaves {1,2,3}.
    let s = Semigroup::parse_gaps("1,2,3,4").unwrap();
    let r = play(&s).unwrap();
    assert_eq!(r.outcome, Outcome::Win);
    assert_eq!(r.winning_move, Some(4));
    assert_eq!(r.winning_moves, vec![4]);
    assert_eq!(r.remoteness, 3);
    // <5,7> is symmetric, so won for the player to move.
    let s = Semigroup::parse_generators("5,7").unwrap();
    let r = play(&s).unwrap();
    assert_eq!(r.outcome, Outcome::Win);
    assert!(r.irreducible);
    let x = r.winning_move.unwrap();
    assert!(r.winning_moves.contains(&x));
    assert!(r.remoteness % 2 == 1);
    assert!(survivors(s, Order::Increasing).contains(&x));
    assert!(play(&Semigroup::NATURALS).is_err());
}

#[test]
fn the_essays_example_root() {
    // Gaps 1-8, 10, 11, 13, 14, 16, 19, 28: fifteen gaps, proved at depth 7.
    let s = Semigroup::parse_gaps("1,2,3,4,5,6,7,8,10,11,13,14,16,19,28").unwrap();
    assert!(s.is_irreducible());
    assert_eq!(s.genus(), 15);
    let p = deepening_proof(s, ProofKind::Fresh, Order::Increasing).unwrap();
    assert_eq!(p.depth, 7);
    // On the way the told proof asks about gaps {1,2,3,4,7,8} twice: with
    // three moves left, where naming 8 proves it won, and with one move
    // left, where nothing does.
    let inner = Semigroup::parse_gaps("1,2,3,4,7,8").unwrap();
    let steps: Vec<_> = told_proof_steps(s, 7, Order::Increasing)
        .into_iter()
        .filter(|st| st.position == inner)
        .map(|st| (st.depth, st.proved_by))
        .collect();
    assert_eq!(steps, vec![(1, None), (3, Some(8))]);
}

#[test]
fn the_trace_shows_the_inner_position_asked_at_two_depths() {
    let s = Semigroup::parse_gaps("1,2,3,4,5,6,7,8,10,11,13,14,16,19,28").unwrap();
    let t = partizan_semigroup::trace(s, None, Order::Increasing).unwrap();
    assert_eq!(t.depth, 7);
    assert!(t.proved);
    let inner = Semigroup::parse_gaps("1,2,3,4,7,8").unwrap();
    let rep = t
        .asked_repeatedly
        .iter()
        .find(|p| p.position == inner)
        .expect("{1,2,3,4,7,8} is asked at two depths");
    assert_eq!(rep.asked, vec![(1, None), (3, Some(8))]);
    // The trace is the told proof's steps, regrouped.
    let steps = told_proof_steps(s, 7, Order::Increasing);
    assert_eq!(t.evaluations, steps.len() as u64);
    let asked: usize = t.trace.iter().map(|p| p.asked.len()).sum();
    assert_eq!(asked, steps.len());
    // A lost position has nothing to trace.
    let lost = Semigroup::parse_gaps("1").unwrap();
    assert!(partizan_semigroup::trace(lost, None, Order::Increasing).is_err());
}

#[test]
fn the_remoteness_proof_is_a_proof_and_no_shorter_than_the_shallowest() {
    use partizan_semigroup::sylver::proofs::remoteness_proof;
    let mut check = FinishingSearch::new(Order::Increasing);
    let mut rem = Remoteness::new();
    for s in all_positions(11) {
        let won = check.wins(s);
        let p = remoteness_proof(s);
        assert_eq!(p.is_some(), won, "{s:?}");
        if let Some(p) = p {
            assert!(!check.wins(s.adjoin(p.winning_move)), "{s:?}");
            assert_eq!(p.depth, rem.remoteness(s));
            let d = deepening_proof(s, ProofKind::Fresh, Order::Increasing).unwrap();
            assert!(p.depth >= d.depth, "{s:?}");
            assert!(p.counts.closures > 0);
        }
    }
}

#[test]
fn reverse_scored_is_the_scored_order_backwards() {
    let s = Semigroup::parse_gaps("1,2,3,4,5,6,7,8,10,11,13,14,16,19,28").unwrap();
    let mut fwd = Order::Scored.move_list(s);
    let back = Order::ReverseScored.move_list(s);
    assert_eq!(back.len(), fwd.len());
    fwd.reverse();
    // Equal scores are broken the other way too, so the lists are mirror images.
    assert_eq!(back, fwd);
    assert_eq!(
        "reverse-scored".parse::<Order>().unwrap(),
        Order::ReverseScored
    );
    assert_eq!(Order::ReverseScored.to_string(), "reverse-scored");
}
