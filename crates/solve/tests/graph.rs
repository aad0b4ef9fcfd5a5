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
    // 4 rows x 5 columns, the interior cell in the middle column blocked
    // (row 2 or row 3, column 3, 1-based; the two are mirror images).
    for text in [".....|..#..|.....|.....", ".....|.....|..#..|....."] {
        assert_eq!(positions(&Domineering, &dom(text)), 24_864, "{text}");
    }
    // The other six interior cells (columns 2 and 4) give 25,466.
    for text in [
        ".....|.#...|.....|.....",
        ".....|...#.|.....|.....",
        ".....|.....|.#...|.....",
        ".....|.....|...#.|.....",
    ] {
        assert_eq!(positions(&Domineering, &dom(text)), 25_466, "{text}");
    }
    // Still one region: the pass finds nothing to split.
    assert_eq!(
        regions(&Domineering, &dom(".....|..#..|.....|.....")).len(),
        1
    );
}

#[test]
fn domineering_4x5_walls() {
    // A wall with one step: 2,187 positions, regions of 27 and 81.
    let b = dom(".#...|..#..|..#..|..#..");
    let rep = region_report(&Domineering, &b).unwrap();
    assert_eq!(rep.positions, 2_187);
    let mut each: Vec<u64> = rep.regions.iter().map(|r| r.positions).collect();
    each.sort_unstable();
    assert_eq!(each, vec![27, 81]);
    // A straight wall down the middle column: two 4x2 halves of 54.
    let b = dom("..#..|..#..|..#..|..#..");
    let rep = region_report(&Domineering, &b).unwrap();
    assert_eq!(rep.positions, 2_916);
    assert!(rep.regions.iter().all(|r| r.positions == 54));
}

#[test]
fn amazons_2x4_followers() {
    let b = Amazons.parse("L...|R...").unwrap();
    assert_eq!(positions(&Amazons, &b), 2_784);
}

fn assert_product<R: Ruleset>(r: &R, text: &str, parts: usize) {
    let b = r.parse(text).unwrap();
    let rep = region_report(r, &b).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(rep.regions.len(), parts, "{text}: {:?}", rep.regions);
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
    assert_product(&Domineering, "..#..|.#...|#....|.....", 2);
    assert_product(&Domineering, ".#...|..#..|..#..|..#..", 2);
    assert_product(&Domineering, ".#...|.#...|..###|.#...", 3);
    assert_product(&Cram, "..#..|..#..|###..|..#..", 3);
    assert_product(&Clobber, "xo.ox|ox.xo|.....|xoxo.", 3);
    // Runs of three: one run in row 1, one hooked group on the right and
    // three cells no run reaches.
    assert_product(&Konane, "xo.#x.|.x#o.x|##.#..", 5);
    // Two walled rooms, and a column no queen can ever reach (three dead
    // cells, each a region with one position).
    assert_product(&Amazons, "L.#..#.|..#..#.|..#.R#.", 5);
    // A diagonal gap does not separate queens' regions.
    assert_product(&Amazons, "L.#..|..#..|##.#R", 1);
}

#[test]
fn product_identity_refuses_a_false_split() {
    // The identity is a check, not a description: a Konane board split by
    // a fill over emptiness would not satisfy it. Count by hand.
    let k = Konane;
    let b = k.parse(".xo.").unwrap();
    let whole = positions(&k, &b);
    let halves =
        positions(&k, &region_board(&b, 0b0011)) * positions(&k, &region_board(&b, 0b1100));
    assert_ne!(whole, halves);
    // And the rule-derived regions do satisfy it.
    assert!(region_report(&k, &b).is_ok());
}

/// Konane with the wrong relation: a stone is joined only to the empty
/// cells next to it, and empty cells to each other (a fill over emptiness).
struct EmptyFillKonane;

impl Ruleset for EmptyFillKonane {
    fn info(&self) -> &'static partizan_games::RulesetInfo {
        partizan_games::Konane.info()
    }
    fn name(&self) -> &'static str {
        "konane-empty-fill"
    }
    fn parse(&self, text: &str) -> Result<Board, partizan_games::BoardError> {
        Konane.parse(text)
    }
    fn format(&self, b: &Board) -> String {
        Konane.format(b)
    }
    fn options<F: FnMut(Board)>(&self, b: &Board, p: partizan_games::Player, f: F) {
        Konane.options(b, p, f);
    }
    fn footprints<F: FnMut(partizan_games::Bits)>(&self, b: &Board, mut f: F) {
        let e = b.layer(2);
        for cell in partizan_games::each_bit(e) {
            for n in partizan_games::each_bit(b.neighbours4(cell) & b.cells()) {
                f(cell | n);
            }
        }
    }
    fn cells(&self, b: &Board) -> partizan_games::Bits {
        Konane.cells(b)
    }
    fn symmetries(&self) -> &'static [partizan_games::Symmetry] {
        Konane.symmetries()
    }
    fn apply(&self, b: &Board, s: partizan_games::Symmetry) -> Board {
        Konane.apply(b, s)
    }
    fn only_falls_apart(&self) -> bool {
        false
    }
    fn impartial(&self) -> bool {
        false
    }
    fn may_split(&self, _before: &Board, _after: &Board) -> bool {
        true
    }
}

#[test]
fn region_report_fails_loudly_on_a_wrong_relation() {
    let b = Konane.parse(".xo.").unwrap();
    assert_eq!(regions(&EmptyFillKonane, &b), vec![0b0011, 0b1100]);
    let err = region_report(&EmptyFillKonane, &b).unwrap_err();
    assert!(
        matches!(
            err,
            partizan_solve::graph::GraphError::ProductMismatch {
                whole: 3,
                product: 1,
                ..
            }
        ),
        "{err}"
    );
}
