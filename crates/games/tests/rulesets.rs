//! Move counts, text format and symmetry behaviour of each ruleset.

use partizan_games::{
    Amazons, Board, BoardError, Clobber, Cram, Domineering, Konane, Player, Ruleset, Transform,
};

fn count<R: Ruleset>(r: &R, text: &str, p: Player) -> usize {
    let b = r.parse(text).expect("test board parses");
    let mut n = 0;
    r.options(&b, p, |_| n += 1);
    n
}

fn options<R: Ruleset>(r: &R, b: &Board, p: Player) -> Vec<Board> {
    let mut v = Vec::new();
    r.options(b, p, |o| v.push(o));
    v.sort();
    v
}

#[test]
fn domineering_move_counts() {
    let d = Domineering;
    assert_eq!(count(&d, "..|..", Player::Left), 2);
    assert_eq!(count(&d, "..|..", Player::Right), 2);
    assert_eq!(count(&d, "...|...|...", Player::Left), 6);
    assert_eq!(count(&d, "...|...|...", Player::Right), 6);
    assert_eq!(count(&d, "..#|...", Player::Left), 2);
    assert_eq!(count(&d, "..#|...", Player::Right), 3);
    assert_eq!(count(&d, ".", Player::Left), 0);
    assert_eq!(count(&d, "....", Player::Left), 0);
    assert_eq!(count(&d, "....", Player::Right), 3);
}

#[test]
fn domineering_option_boards() {
    let d = Domineering;
    let b = d.parse("..|..").unwrap();
    let left = options(&d, &b, Player::Left);
    let want: Vec<Board> = {
        let mut v = vec![d.parse("#.|#.").unwrap(), d.parse(".#|.#").unwrap()];
        v.sort();
        v
    };
    assert_eq!(left, want);
}

#[test]
fn cram_move_counts() {
    let c = Cram;
    assert_eq!(count(&c, "..|..", Player::Left), 4);
    assert_eq!(count(&c, "..|..", Player::Right), 4);
    assert_eq!(count(&c, "..#|...", Player::Right), 5);
    assert!(c.impartial());
}

#[test]
fn clobber_move_counts() {
    let c = Clobber;
    assert_eq!(count(&c, "xox", Player::Left), 2);
    assert_eq!(count(&c, "xox", Player::Right), 2);
    assert_eq!(count(&c, "xo|ox", Player::Left), 4);
    assert_eq!(count(&c, "xo|ox", Player::Right), 4);
    assert_eq!(count(&c, "xx.o", Player::Left), 0);
    assert_eq!(count(&c, "xxo", Player::Left), 1);
    let b = c.parse("xo").unwrap();
    assert_eq!(options(&c, &b, Player::Left), vec![c.parse(".x").unwrap()]);
    assert_eq!(options(&c, &b, Player::Right), vec![c.parse("o.").unwrap()]);
}

#[test]
fn konane_move_counts() {
    let k = Konane;
    assert_eq!(count(&k, "xo.o.", Player::Left), 2);
    assert_eq!(count(&k, "xo.o.", Player::Right), 0);
    let b = k.parse("xo.o.").unwrap();
    let want = {
        let mut v = vec![k.parse("..xo.").unwrap(), k.parse("....x").unwrap()];
        v.sort();
        v
    };
    assert_eq!(options(&k, &b, Player::Left), want);
    // Vertical, both players.
    assert_eq!(count(&k, "x|o|.|x|o|.", Player::Left), 2);
    assert_eq!(count(&k, ".|x|o|.", Player::Left), 1);
    assert_eq!(count(&k, ".|x|o|.", Player::Right), 1);
    // A hole stops a jump.
    assert_eq!(count(&k, "xo#", Player::Left), 0);
}

#[test]
fn amazons_move_counts() {
    let a = Amazons;
    assert_eq!(count(&a, "L.|..", Player::Left), 9);
    assert_eq!(count(&a, "L.|..", Player::Right), 0);
    // One row: queen at the left end of four cells. Moves to col 1, 2, 3;
    // arrows: from 1 -> {0, 2, 3}, from 2 -> {0,1,3} (through 1), from 3 -> {0,1,2}.
    assert_eq!(count(&a, "L...", Player::Left), 9);
    // A queen blocks slides and arrows.
    assert_eq!(count(&a, "L.R.", Player::Left), 1);
    assert_eq!(count(&a, "L.R.", Player::Right), 2 + 2);
}

#[test]
fn parse_errors_name_row_and_column() {
    let d = Domineering;
    let e = d.parse("..|.").unwrap_err();
    assert_eq!(
        e,
        BoardError::Ragged {
            row: 2,
            len: 1,
            expected: 2
        }
    );
    assert_eq!(e.to_string(), "ragged rows: row 2 has 1 cells, expected 2");
    let e = d.parse("..|.z").unwrap_err();
    assert_eq!(e.to_string(), "unknown character 'z' at row 2, column 2");
    let e = d.parse("..|x.").unwrap_err();
    assert!(matches!(
        e,
        BoardError::PieceNotAllowed {
            row: 2,
            col: 1,
            ch: 'x',
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        "stones not allowed on a domineering board: 'x' at row 2, column 1"
    );
    assert_eq!(d.parse("").unwrap_err(), BoardError::Empty);
    assert_eq!(d.parse(" \n | ").unwrap_err(), BoardError::Empty);
    let long = ".".repeat(129);
    assert_eq!(
        d.parse(&long).unwrap_err().to_string(),
        "too many cells: 129x1 = 129 > 128"
    );
    assert!(d.parse(&".".repeat(128)).is_ok());
    // A board with no queens is a legal position in which nobody can move.
    let empty = Amazons.parse("..|..").unwrap();
    for p in [Player::Left, Player::Right] {
        let mut n = 0;
        Amazons.options(&empty, p, |_| n += 1);
        assert_eq!(n, 0);
    }
    let e = Amazons.parse("L.|.x").unwrap_err();
    assert!(e.to_string().contains("row 2, column 2"), "{e}");
    let e = Clobber.parse("xo|L.").unwrap_err();
    assert!(e.to_string().contains("queens"), "{e}");
    let e = Konane.parse("xo.|o!").unwrap_err();
    assert!(
        matches!(e, BoardError::Ragged { row: 2, len: 2, .. }),
        "{e}"
    );
}

#[test]
fn newlines_and_bars_agree() {
    let d = Domineering;
    assert_eq!(d.parse("..#\n...\n").unwrap(), d.parse("..#|...").unwrap());
    assert_eq!(d.format(&d.parse("..#\n...").unwrap()), "..#|...");
}

#[test]
fn format_round_trips() {
    fn rt<R: Ruleset>(r: &R, text: &str) {
        let b = r.parse(text).unwrap();
        assert_eq!(r.format(&b), text);
        assert_eq!(r.parse(&r.format(&b)).unwrap(), b);
    }
    rt(&Domineering, "..#.|#...|....");
    rt(&Cram, ".#.|...");
    rt(&Clobber, "xo.x|.oxo");
    rt(&Konane, "xo.#|.ox.|#..x");
    rt(&Amazons, "L..#|...R|#...");
    // Clobber treats '#' as a stoneless cell, printed as '.'.
    assert_eq!(Clobber.parse("x#o").unwrap(), Clobber.parse("x.o").unwrap());
}

#[test]
fn domineering_transpose_swaps_players() {
    let d = Domineering;
    for text in [
        "..#.|....|.#..",
        "...|..#",
        "....|....|....|.##.",
        "#...|....|...#",
    ] {
        let b = d.parse(text).unwrap();
        for t in Transform::ALL {
            let tb = b.transform(t);
            for p in Player::BOTH {
                let q = if t.swaps_axes() { p.opponent() } else { p };
                let mut mine: Vec<Board> = options(&d, &b, p)
                    .into_iter()
                    .map(|o| o.transform(t))
                    .collect();
                mine.sort();
                assert_eq!(mine, options(&d, &tb, q), "{text} {t:?} {p:?}");
            }
        }
    }
}

#[test]
fn stone_games_colour_swap_swaps_players() {
    fn check<R: Ruleset>(r: &R, text: &str) {
        let b = r.parse(text).unwrap();
        for s in r.symmetries() {
            let sb = r.apply(&b, *s);
            for p in Player::BOTH {
                let q = if s.negates { p.opponent() } else { p };
                let mut mine: Vec<Board> = options(r, &b, p)
                    .into_iter()
                    .map(|o| r.apply(&o, *s))
                    .collect();
                mine.sort();
                assert_eq!(mine, options(r, &sb, q), "{text} {s:?} {p:?}");
            }
        }
    }
    check(&Clobber, "xox.|oxo.|..x.");
    check(&Konane, "xo.o.|.x.x.|o.ox.");
    check(&Amazons, "L..|.#R|...");
    check(&Cram, "...|..#");
}

#[test]
fn symmetry_lists() {
    assert_eq!(Domineering.symmetries().len(), 8);
    assert_eq!(
        Domineering
            .symmetries()
            .iter()
            .filter(|s| s.negates)
            .count(),
        4
    );
    assert!(Domineering
        .symmetries()
        .iter()
        .all(|s| s.negates == s.transform.swaps_axes()));
    assert_eq!(Cram.symmetries().len(), 8);
    assert!(Cram.symmetries().iter().all(|s| !s.negates));
    for r in [
        Clobber.symmetries(),
        Konane.symmetries(),
        Amazons.symmetries(),
    ] {
        assert_eq!(r.len(), 16);
        assert_eq!(r.iter().filter(|s| s.negates).count(), 8);
    }
}

#[test]
fn konane_relation_reaches_two_cells() {
    let k = Konane;
    let b = k.parse("xo.o.").unwrap();
    // From cell 4 the relation reaches 2 and 3 (the run 2..4).
    assert_eq!(k.related(&b, 1 << 4), 0b11100);
    // With a single colour left there are no hops, ever.
    let b = k.parse("x..x.").unwrap();
    assert_eq!(k.related(&b, 0b11111), 0);
}

#[test]
fn amazons_queens_do_not_separate() {
    let a = Amazons;
    let b = a.parse("..#..|.L#R.|..#..").unwrap();
    // The wall of burnt cells separates; queens sit inside their regions.
    let left = a.related(&b, 1 << 6);
    assert_eq!(left & b.bit(1, 3), 0);
    assert_ne!(left & b.bit(1, 0), 0);
    // A dead pocket (no queen can reach it) relates to nothing.
    let b = a.parse("L#.|##.").unwrap();
    assert_eq!(a.related(&b, b.bit(0, 2)), 0);
}

#[test]
fn may_split_examples() {
    let d = Domineering;
    // Covering the middle of a 1x5 strip splits it.
    let before = d.parse(".....").unwrap();
    let after = d.parse(".##..").unwrap();
    assert!(d.may_split(&before, &after));
    // Covering an end does not.
    let after = d.parse("##...").unwrap();
    assert!(!d.may_split(&before, &after));
    // A domino in the middle of a 4x4 leaves the ring joined.
    let before = d.parse("....|....|....|....").unwrap();
    let after = d.parse("....|.#..|.#..|....").unwrap();
    assert!(!d.may_split(&before, &after));
}

#[test]
fn board_new_validates() {
    assert!(Board::new(4, 4, [0xffff, 0, 0]).is_ok());
    assert!(Board::new(4, 4, [0x1ffff, 0, 0]).is_err());
    assert!(Board::new(16, 9, [0; 3]).is_err());
}
