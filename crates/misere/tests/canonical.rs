//! Misère canonical forms and genera against published values.

use partizan_impartial::HeapGame;
use partizan_misere::heap::HeapForms;
use partizan_misere::MisereArena;

#[test]
fn games_born_by_day_four() {
    // ONAG ch. 12: 1, 2, 3, 5, 22 misère-distinct impartial games born by days 0-4.
    let mut arena = MisereArena::new();
    let counts: Vec<usize> = (0..=4).map(|d| arena.born_by(d).unwrap().len()).collect();
    assert_eq!(counts, [1, 2, 3, 5, 22]);
}

/// The terms `g_0..g_7` of a genus as CGSuite prints it: `n` alone for the
/// genus of a nim heap, `n^n` for a tame game with that genus, else the
/// superscript digits (or a parenthesised list) continued by alternating
/// the last two.
fn cgsuite_terms(text: &str) -> (u32, Vec<u32>) {
    let (base, sup) = text.split_once('^').unwrap_or((text, ""));
    let g: u32 = base.parse().unwrap();
    let digits: Vec<u32> = if let Some(list) = sup.strip_prefix('(') {
        list.trim_end_matches(')')
            .split(',')
            .map(|d| d.parse().unwrap())
            .collect()
    } else {
        sup.chars().map(|c| c.to_digit(10).unwrap()).collect()
    };
    let digits = match digits.len() {
        0 if g < 2 => vec![1 - g, g ^ 2, g],
        0 => vec![g, g ^ 2],
        1 => {
            assert_eq!(digits[0], g, "a one-digit superscript is read only as tame");
            vec![g, g ^ 2]
        }
        _ => digits,
    };
    let len = digits.len();
    let terms = (0..8)
        .map(|n| {
            if n < len {
                digits[n]
            } else {
                digits[len - 2 + ((n - len) & 1)]
            }
        })
        .collect();
    (g, terms)
}

fn check_genera(code: &str, cgsuite: &[&str], misere_values: &[u32]) {
    let mut arena = MisereArena::new();
    let game = HeapGame::parse(code).unwrap();
    let forms = HeapForms::compute(&mut arena, &game, cgsuite.len() - 1).unwrap();
    for (n, text) in cgsuite.iter().enumerate() {
        let form = forms.form(n).unwrap();
        let genus = arena.genus(form);
        let (plus, terms) = cgsuite_terms(text);
        let ours: Vec<u32> = (0..8).map(|i| genus.term(i)).collect();
        assert_eq!(
            (genus.plus, ours),
            (plus, terms),
            "{code} heap {n}: ours {genus}, CGSuite {text}"
        );
        assert_eq!(
            arena.misere_nim_value(form),
            misere_values[n],
            "{code} heap {n}"
        );
    }
}

// Genus and misère nim value of heaps 0-20, as CGSuite's own regression test
// pins them: aaron-siegel/cgsuite, lib/core/src/test/scala/org/cgsuite/lang/
// GameHeapTest.scala (commit e909ab8b, 2024), `[rs(n).Genus for n from 0 to
// 20]` and `.MisereNimValue`.

#[test]
fn kayles_genera_as_cgsuite_pins_them() {
    check_genera(
        "0.77",
        &[
            "0", "1", "2", "3", "1", "4^146", "3", "2^2", "1^1", "4^046", "2^2", "6^46", "4^046",
            "1^1", "2^2", "7^57", "1^13", "4^64", "3^31", "2^20", "1^031",
        ],
        &[
            1, 0, 2, 3, 0, 1, 3, 2, 1, 0, 2, 4, 0, 1, 2, 5, 1, 6, 3, 2, 0,
        ],
    );
}

#[test]
fn dawsons_kayles_genera_as_cgsuite_pins_them() {
    check_genera(
        "0.07",
        &[
            "0", "0", "1", "1", "2", "0", "3", "1", "1", "0", "3^1431", "3", "2^0520", "2",
            "4^146", "0", "5^057", "2^0520", "2", "3^1431", "3",
        ],
        &[
            1, 1, 0, 0, 2, 1, 3, 0, 0, 1, 1, 3, 0, 2, 1, 1, 0, 0, 2, 1, 3,
        ],
    );
}

#[test]
fn hexadecimal_0_3f_genera_as_cgsuite_pins_them() {
    check_genera(
        "0.3f",
        &[
            "0",
            "1",
            "2",
            "0",
            "1",
            "2",
            "3^1431",
            "4^0564",
            "5^46",
            "3^1431",
            "4^0564",
            "5^4875",
            "6^(1,9,10,8)",
            "7^075",
            "8^6875",
            "6^(1,9,10,8)",
            "7^075",
            "8^(6,10,8)",
            "9^(1,9,12,11,9)",
            "10^(0,11,13,9,11)",
            "11^(6,10,8)",
        ],
        &[
            1, 0, 2, 1, 0, 2, 1, 0, 4, 1, 0, 4, 1, 0, 6, 1, 0, 6, 1, 0, 6,
        ],
    );
}

#[test]
fn quaternary_0_312_genera_as_plambeck_gives_them() {
    // T. Plambeck, plambeck.org/oldhtml/mathematics/games/misere/quaternary/
    // 0312 (solved 4 February 2003): heaps 1-6 have genus 1^{03131},
    // 2^{20}, 0^{02}, 2^{1420}, 0^{02}, 1^{13}.
    let mut arena = MisereArena::new();
    let forms = HeapForms::compute(&mut arena, &HeapGame::parse("0.312").unwrap(), 6).unwrap();
    let want: [(u32, &[u32]); 6] = [
        (1, &[0, 3, 1, 3, 1]),
        (2, &[2, 0, 2, 0]),
        (0, &[0, 2, 0, 2]),
        (2, &[1, 4, 2, 0, 2, 0]),
        (0, &[0, 2, 0, 2]),
        (1, &[1, 3, 1, 3]),
    ];
    for (n, (plus, terms)) in want.iter().enumerate() {
        let genus = arena.genus(forms.form(n + 1).unwrap());
        let ours: Vec<u32> = (0..terms.len()).map(|i| genus.term(i)).collect();
        assert_eq!(
            (genus.plus, ours.as_slice()),
            (*plus, *terms),
            "heap {}",
            n + 1
        );
    }
}

#[test]
#[ignore = "4 million reductions, about 30 s and 1.5 GB: cargo test -p partizan-misere --test all day_five -- --ignored"]
fn games_born_by_day_five() {
    // ONAG ch. 12: 4,171,780 misère-distinct impartial games born by day 5.
    let mut arena = MisereArena::with_limit(6_000_000);
    assert_eq!(arena.born_by(5).unwrap().len(), 4_171_780);
}

#[test]
fn forms_as_cgsuite_pins_them() {
    // aaron-siegel/cgsuite, lib/core/src/test/scala/org/cgsuite/lang/
    // MisereCanonicalGameTestCase.scala: (input, canonical options,
    // birthday, genus terms, misère outcome). CGSuite's `*[2#]` is {*2}.
    type Case<'a> = (&'a str, &'a str, u32, (u32, [u32; 4]), &'a str);
    let cases: [Case; 7] = [
        ("*2", "*2", 2, (2, [2, 0, 2, 0]), "N"),
        ("{*2}", "{*2}", 3, (0, [0, 2, 0, 2]), "P"),
        ("{{*2}}", "{{*2}}", 4, (1, [1, 3, 1, 3]), "N"),
        ("*2 + *2", "{*2, *3}", 4, (0, [0, 2, 0, 2]), "P"),
        ("{{*2}, 0}", "{0, {*2}}", 4, (1, [2, 0, 2, 0]), "N"),
        ("{{*2}, *}", "{*, {*2}}", 4, (2, [1, 4, 2, 0]), "N"),
        ("{*4 + *2}", "", 7, (0, [0, 2, 0, 2]), "P"),
    ];
    let mut arena = MisereArena::new();
    for (input, shown, birthday, (plus, terms), outcome) in cases {
        let g = arena.parse(input).unwrap();
        let genus = arena.genus(g);
        let ours: Vec<u32> = (0..4).map(|i| genus.term(i)).collect();
        assert_eq!(arena.birthday(g), birthday, "{input}");
        assert_eq!(
            (genus.plus, ours.as_slice()),
            (plus, terms.as_slice()),
            "{input}: {genus}"
        );
        assert_eq!(arena.outcome(g).letter(), outcome, "{input}");
        // (CGSuite writes the last one's option as the sum *[4[2]].)
        if !shown.is_empty() {
            assert_eq!(arena.display(g, 200), shown, "{input}");
        }
    }
}
