//! Catalogue counts pinned to the published polyomino counts.
//!
//! Data: OEIS A001168 (fixed polyominoes with n cells) and A000105 (free
//! polyominoes), n = 1..18, copied from oeis.org.

use partizan_census::{count_fixed, Catalogue, Group};

/// A001168, n = 1..18.
const FIXED: [u64; 18] = [
    1, 2, 6, 19, 63, 216, 760, 2725, 9910, 36446, 135268, 505861, 1903890, 7204874, 27394666,
    104592937, 400795844, 1540820542,
];

/// A000105, n = 1..18.
const FREE: [u64; 18] = [
    1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655, 17073, 63600, 238591, 901971, 3426576, 13079255,
    50107909, 192622052,
];

fn check(n: usize) {
    let free = Catalogue::build(Group::Square, n);
    let counts: Vec<u64> = free.counts().iter().map(|&c| c as u64).collect();
    assert_eq!(counts, FREE[..n], "free classes");
    assert_eq!(free.fixed_counts(), FIXED[..n], "free orbits");
    let dom = Catalogue::build(Group::RowPreserving, n);
    assert_eq!(dom.fixed_counts(), FIXED[..n], "row-preserving orbits");
}

/// The library's copy of A000105, which a shard task trusts to believe a
/// stored level is the whole catalogue of its size, against this file's.
#[test]
fn the_librarys_class_counts_are_the_published_ones() {
    assert_eq!(partizan_census::FREE_POLYOMINOES[1..=18], FREE);
    assert_eq!(partizan_census::FREE_POLYOMINOES[0], 1);
    let free = Catalogue::build(Group::Square, 10);
    let counts: Vec<u64> = free.counts().iter().map(|&c| c as u64).collect();
    assert_eq!(partizan_census::FREE_POLYOMINOES[1..=10], counts[..]);
}

#[test]
fn catalogues_to_twelve_cells_match_the_published_counts() {
    check(12);
    assert_eq!(count_fixed(12), FIXED[..12]);
}

/// Past the old 15-cell limit of the `u64` shape (16 cells: 26 M
/// row-preserving classes, about 1.5 GB while growing). Run with
/// `cargo test --release -p partizan-census --test all oeis:: -- --ignored`.
#[test]
#[ignore]
fn catalogues_to_sixteen_cells_match_the_published_counts() {
    let dom = Catalogue::build(Group::RowPreserving, 16);
    assert_eq!(dom.fixed_counts(), FIXED[..16]);
}
