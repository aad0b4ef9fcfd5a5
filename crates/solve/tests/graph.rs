//! Position-graph and recursion-tree counts against the essays' figures,
//! and the product identity on boards that fall apart.

use partizan_games::{Amazons, Board, Clobber, Cram, Domineering, Konane, Ruleset};
use partizan_solve::graph::{counts, positions, region_report, tree_nodes};
use partizan_solve::regions::{region_board, regions};

fn dom(text: &str) -> Board {
    Domineering.parse(text).expect("test board parses")
}

#[test]
fn domineering_4x4_graph_and_tree() {
    let b = dom("....|....|....|....");
    assert_eq!(positions(&Domineering, &b), 5_700);
    assert_eq!(tree_nodes(&Domineering, &b), 6_257_129);
    let c = counts(&Domineering, &b);
    assert_eq!((c.positions, c.tree_nodes), (5_700, 6_257_129));
}

#[test]
fn domineering_4x5_and_5x4() {
    let four_by_five = dom(".....|.....|.....|.....");
    let five_by_four = dom("....|....|....|....|....");
    assert_eq!(positions(&Domineering, &four_by_five), 58_830);
    assert_eq!(positions(&Domineering, &five_by_four), 58_830);
}

#[test]
fn domineering_4x5_one_interior_cell_blocked() {
    // Row 2, column 2 (1-based): an interior cell next to the corner
    // cells' neighbours, and by symmetry any of its four images.
    for text in [
        ".....|.#...|.....|.....",
        ".....|...#.|.....|.....",
        ".....|.....|.#...|.....",
        ".....|.....|...#.|.....",
    ] {
        assert_eq!(positions(&Domineering, &dom(text)), 24_864, "{text}");
    }
    // The centre column's interior cells give a different count.
    assert_ne!(positions(&Domineering, &dom(".....|..#..|.....|.....")), 24_864);
}

#[test]
fn amazons_2x4_followers() {
    let b = Amazons.parse("L...|R...").unwrap();
    assert_eq!(positions(&Amazons, &b), 2_784);
}

fn assert_product<R: Ruleset>(r: &R, text: &str, parts: usize) {
    let b = r.parse(text).unwrap();
    let rep = region_report(r, &b).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(rep.regions.len(), parts, "{text}");
    let product: u64 = rep.regions.iter().map(|x| x.positions).product();
    assert_eq!(product, rep.positions, "{text}");
    // Independently of the report: the regions' boards counted again.
    let again: u64 = regions(r, &b)
        .into_iter()
        .map(|m| positions(r, &region_board(&b, m)))
        .product();
    assert_eq!(again, positions(r, &b), "{text}");
}

#[test]
fn product_identity_on_blocked_boards() {
    // A wall down the middle of a 4x5.
    assert_product(&Domineering, "..#..|..#..|..#..|..#..", 2);
    // A blocked staircase.
    assert_product(&Domineering, "#....|.#...|..#..|...#.", 2);
    assert_product(&Domineering, "..#..|.#...|#....|.....", 1);
    assert_product(&Domineering, ".#...|.#...|..###|.#...", 4);
    assert_product(&Cram, "..#..|..#..|###..|..#..", 3);
    assert_product(&Clobber, "xo.ox|ox.xo|.....|xoxo.", 3);
    assert_product(&Konane, "xo.#x.|.x#o.x|##.#..", 3);
    assert_product(&Amazons, "L.#..|..#..|##.#R", 3);
}

#[test]
fn product_identity_refuses_a_false_split() {
    // The identity is a check, not a description: a Konane board split by
    // a fill over emptiness would not satisfy it. Count by hand.
    let k = Konane;
    let b = k.parse(".xo.").unwrap();
    let whole = positions(&k, &b);
    let halves = positions(&k, &region_board(&b, 0b0011)) * positions(&k, &region_board(&b, 0b1100));
    assert_ne!(whole, halves);
    // And the rule-derived regions do satisfy it.
    assert!(region_report(&k, &b).is_ok());
}
