//! What Domineering's static knowledge decides about empty rectangles
//! *without any search* (Uiterwijk's "perfect solving", CGW 2013: 67 of
//! the 81 rectangles from 2 x 2 to 10 x 10, Vertical to move, by counts of
//! move types in the start position). Here: the fast path's cutoff rules
//! ([`Pos::simple_cut_for`], [`Pos::fine_cut_for`]) applied to the empty
//! board, each decision checked against the published table where it has
//! the board, and the number decided pinned, so a weaker rule shows.
//!
//! ```sh
//! cargo test -p partizan-solve --test all domineering_knowledge:: -- --nocapture
//! ```

use partizan_games::{Domineering, Player, Ruleset};
use partizan_solve::search::domineering::Pos;

use crate::common;
use common::domineering_table as published;

/// Does `mover`, moving first, win a board of class `class`?
fn first_wins(class: &str, mover: Player) -> bool {
    match mover {
        Player::Left => class == "L" || class == "N",
        Player::Right => class == "R" || class == "N",
    }
}

/// The root decisions on (rows, cols) for Left (vertical) moving first:
/// `Some(true)` Left wins, `Some(false)` Left loses.
fn root_decision(rows: usize, cols: usize) -> Option<bool> {
    let b = Domineering
        .parse(&vec![".".repeat(cols); rows].join("|"))
        .expect("rectangle");
    let p = Pos::new(&b).expect("fits");
    let simple = p.simple_cut_for(Player::Left);
    let fine = p.fine_cut_for(Player::Left);
    if let (Some(a), Some(b)) = (simple, fine) {
        assert_eq!(a, b, "{rows} x {cols}: the two rules disagree");
    }
    simple.or(fine)
}

#[test]
fn root_knowledge_decides_rectangles_as_published() {
    let table = published();
    let mut decided = Vec::new();
    for rows in 2..=10 {
        for cols in 2..=10 {
            let Some(w) = root_decision(rows, cols) else {
                continue;
            };
            decided.push(format!("{rows}x{cols}:{}", if w { "V" } else { "H" }));
            if let Some((_, _, class)) = table.iter().find(|(r, c, _)| (*r, *c) == (rows, cols)) {
                assert_eq!(
                    w,
                    first_wins(class, Player::Left),
                    "{rows} x {cols} (published {class}), Left first"
                );
            }
        }
    }
    eprintln!(
        "decided with no search, Vertical first, of the 81 rectangles 2x2..10x10: {} ({})",
        decided.len(),
        decided.join(" ")
    );
    // Pinned: what the rules decide today (a weaker rule fails here; a
    // stronger one adds boards and should add them here).
    for want in DECIDED {
        assert!(
            decided.iter().any(|d| d == want),
            "{want} no longer decided"
        );
    }
}

/// What the root rules decide of the 81 rectangles (measured; 10 against
/// Uiterwijk's 67).
const DECIDED: [&str; 10] = [
    "2x2:V", "2x3:V", "2x4:H", "2x5:V", "2x8:H", "3x2:V", "6x2:V", "6x3:V", "7x2:V", "10x2:V",
];
