//! Counts of numerical semigroups by genus against the published ones.

use partizan_semigroup::tree::A007323;
use partizan_semigroup::{count_by_genus, for_each_semigroup};

#[test]
fn counts_to_genus_thirty() {
    let expected = &A007323[..=30];
    assert_eq!(count_by_genus(30, false).unwrap(), expected);
    assert_eq!(count_by_genus(30, true).unwrap(), expected);
    assert_eq!(expected[30], 5_646_773);
}

#[test]
fn every_genus_up_to_thirty_as_its_own_target() {
    // The walk's closed-form last levels must agree whatever the target.
    for g in 0..=30 {
        assert_eq!(count_by_genus(g, false).unwrap(), &A007323[..=g as usize]);
    }
}

#[test]
fn visiting_walk_counts() {
    let mut by_genus = [0u64; 21];
    for_each_semigroup(20, |s| by_genus[s.genus() as usize] += 1).unwrap();
    assert_eq!(by_genus[1..], A007323[1..=20]);
}

/// Genus 31 to 40 (about 2 * 10^9 semigroups): run with
/// `cargo test --release -p partizan-semigroup --test all tree:: -- --ignored`.
#[test]
#[ignore]
fn counts_to_genus_forty() {
    assert_eq!(count_by_genus(40, true).unwrap(), A007323[..=40]);
}

#[test]
fn shared_walk_on_two_threads_counts_to_thirty() {
    let t = partizan_semigroup::count_by_genus_on(30, 2).unwrap();
    assert_eq!(t.counts, &A007323[..=30]);
    assert_eq!(t.threads.len(), 2);
    let shared: u64 = t.threads.iter().map(|w| w.semigroups).sum();
    assert_eq!(shared + 2, t.counts.iter().sum::<u64>());
}

/// Balance on two threads at genus 40: each thread uses at least a quarter
/// of the CPU (the old fixed split gave one thread about 1%). Run with
/// `cargo test --release -p partizan-semigroup --test all tree::balance -- --ignored`.
#[test]
#[ignore]
fn balance_on_two_threads_at_genus_forty() {
    let t = partizan_semigroup::count_by_genus_on(40, 2).unwrap();
    assert_eq!(t.counts, A007323[..=40]);
    let cpu: Vec<f64> = t.threads.iter().filter_map(|w| w.cpu_seconds).collect();
    assert_eq!(cpu.len(), 2, "per-thread CPU readable on Linux");
    let total: f64 = cpu.iter().sum();
    for c in &cpu {
        assert!(*c >= total / 4.0, "unbalanced: {cpu:?}");
    }
}
