//! `partizan grundy` end to end: periods, JSON shape, sums, graphs, and bad
//! input (one line naming the problem, exit code 2).

use std::process::Output;

use crate::support;

fn run(args: &[&str]) -> Output {
    support::output(support::partizan().args(args))
}

fn stdout(args: &[&str]) -> String {
    support::stdout_of(args, &run(args))
}

fn json(args: &[&str]) -> serde_json::Value {
    support::json_of(args, &run(args))
}

/// A failing command: exit code 2 and one line on stderr naming `needle`.
fn fails(args: &[&str], needle: &str) {
    support::assert_fails(args, &run(args), needle);
}

#[test]
fn dawsons_kayles_text_names_period_and_preperiod() {
    let out = stdout(&["grundy", "0.07"]);
    assert!(out.contains("game 0.07 (octal)"), "{out}");
    assert!(out.contains("period 34, pre-period 53: proved"), "{out}");
    assert!(
        out.contains("exceptions (8): 0 1 15 17 18 32 35 52"),
        "{out}"
    );
    assert!(
        out.contains("G(0)..G(99): 0 0 1 1 2 0 3 1 1 0 3 3"),
        "{out}"
    );
}

#[test]
fn kayles_json_has_the_promised_keys() {
    let v = json(&["grundy", "kayles", "--json"]);
    assert_eq!(v["game"], "0.77");
    assert_eq!(v["kind"], "octal");
    assert_eq!(v["proved"], true);
    assert_eq!(v["period"], 12);
    assert_eq!(v["preperiod"], 71);
    assert_eq!(v["exceptions"].as_array().unwrap().len(), 14);
    assert_eq!(v["head"].as_array().unwrap().len(), 100);
    assert_eq!(v["head"][11], 6);
    assert!(v["computed"].as_u64().unwrap() >= 168);
    assert!(v["values"].is_null());
    assert!(v["elapsed_ms"].is_number());
}

/// A million values come from the proved period: all of them printed,
/// spot-checked against the period.
#[test]
fn a_million_values_of_dawsons_kayles() {
    let out = stdout(&["grundy", "0.07", "--up-to", "1000000", "--values"]);
    let values: Vec<(usize, u32)> = out
        .lines()
        .filter_map(|l| {
            let (n, v) = l.split_once(' ')?;
            Some((n.parse().ok()?, v.parse().ok()?))
        })
        .collect();
    assert_eq!(values.len(), 1_000_001);
    // G(n) = G(n - 34) from 53 + 34 on.
    for &(n, v) in values.iter().skip(87).step_by(9973) {
        assert_eq!(v, values[n - 34].1, "G({n})");
    }
    assert_eq!(values[1_000_000], (1_000_000, 2));
}

#[test]
fn sums_of_heaps() {
    let v = json(&["grundy", "kayles", "--heaps", "3,5,70", "--json"]);
    // G(3) ^ G(5) ^ G(70) = 3 ^ 4 ^ 6 = 1.
    assert_eq!(v["sum"]["value"], 1);
    assert_eq!(v["sum"]["outcome"], "N");
    let out = stdout(&["grundy", "nim", "--heaps", "3,5,6"]);
    assert!(out.contains("G(3 + 5 + 6) = 0 (P)"), "{out}");
    let v = json(&["grundy", "sub:1,2,3", "--heaps", "1000001", "--json"]);
    assert_eq!(v["sum"]["value"], 1);
    assert_eq!(v["kind"], "subtraction");
    assert_eq!(v["code"], "0.333");
}

#[test]
fn unproved_games_say_so() {
    let out = stdout(&["grundy", "0.6", "--search", "500"]);
    assert!(
        out.contains("not proved periodic within 500 values"),
        "{out}"
    );
    let v = json(&[
        "grundy", "0.6", "--search", "500", "--up-to", "2000", "--json",
    ]);
    assert_eq!(v["proved"], false);
    // Values through --up-to are computed even without a proof.
    assert_eq!(v["known_through"], 2000);
    assert_eq!(v["computed"], 2001);
    // Unless the work budget runs out first.
    fails(
        &["grundy", "0.6", "--max-work", "1000", "--heaps", "5000"],
        "no period",
    );
}

#[test]
fn all_but_subtraction_games() {
    let out = stdout(&["grundy", "allbut:1", "--up-to", "7"]);
    assert!(out.contains("game allbut:{1} (all-but)"), "{out}");
    assert!(
        out.contains("apparent arithmetic period 2, saltus 1"),
        "{out}"
    );
    assert!(out.contains("G(0)..G(7): 0 0 1 1 2 2 3 3"), "{out}");
    fails(&["grundy", "allbut:0"], "0 is not a move");
}

#[test]
fn graph_games() {
    let v = json(&["grundy", "node-kayles", "path:10", "--json"]);
    // Node Kayles on P_10 = Dawson's Kayles on 11 = 3.
    assert_eq!(v["value"], 3);
    assert_eq!(v["game"], "node-kayles");
    assert_eq!(v["outcome"], "N");
    let v = json(&["grundy", "kayles", "6: 0-1 2-3 3-4", "--json"]);
    // Components P_2, P_3, P_1 of Kayles: 2 ^ 3 ^ 1 = 0.
    assert_eq!(v["value"], 0);
    assert_eq!(v["components"].as_array().unwrap().len(), 3);
    let out = stdout(&["grundy", "kayles", "cycle:5"]);
    assert!(out.starts_with("kayles on 5: 0-1 0-4 1-2 2-3 3-4"), "{out}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    fails(&["grundy", "0.0x7"], "not a digit");
    fails(&["grundy", "07"], "unknown impartial game");
    fails(&["grundy", "1.07"], "before the point");
    fails(&["grundy", "sub:"], "empty subtraction set");
    fails(&["grundy", "sub:0,2"], "0 is not a move");
    fails(&["grundy", "kayles", "--heaps", "1,x"], "heaps");
    fails(&["grundy", "kayles", "3: 0-5"], "vertex 5");
    fails(&["grundy", "node-kayles", "3: 1-1"], "loop");
    fails(
        &["grundy", "node-kayles", "3: 0-1 2"],
        "should look like 0-1",
    );
    fails(&["grundy", "node-kayles", "65"], "at most 64");
    fails(&["grundy", "node-kayles"], "graph");
    fails(&["grundy", "0.07", "3: 0-1"], "not played on a graph");
    fails(
        &[
            "grundy",
            "node-kayles",
            "grid:8x8",
            "--max-positions",
            "1000",
        ],
        "more than 1000 positions",
    );
}

#[test]
fn misere_quotient_text_and_json() {
    // 0.75's misère quotient: order 8, two P-elements, proved periodic.
    let text = stdout(&["grundy", "0.75", "--misere"]);
    assert!(text.contains("order 8, P-portion 2 elements"), "{text}");
    assert!(
        text.contains("periodic from heap 8 with period 2"),
        "{text}"
    );
    let v = json(&[
        "grundy", "kayles", "--misere", "--heaps", "3,5,70", "--json",
    ]);
    assert_eq!(v["order"], 40);
    assert_eq!(v["p_portion_size"], 9);
    assert_eq!(v["stability"]["kind"], "periodic");
    assert_eq!(v["stability"]["period"], 12);
    assert_eq!(v["sum"]["heaps"], serde_json::json!([3, 5, 70]));
    assert!(v["sum"]["outcome"] == "N" || v["sum"]["outcome"] == "P");
    assert_eq!(v["generators"][0]["heap"], 1);
}

#[test]
fn misere_bad_input_and_budget() {
    fails(&["grundy", "0.0x7", "--misere"], "not a digit");
    fails(&["grundy", "sub:0,2", "--misere"], "0 is not a move");
    fails(
        &["grundy", "kayles", "--misere", "--heaps", "3,x"],
        "not a number",
    );
    // A budget too small to reach the heap asked about: said, exit 2.
    fails(
        &[
            "grundy",
            "kayles",
            "--misere",
            "--misere-work",
            "2000",
            "--heaps",
            "60",
        ],
        "past the quotient",
    );
    // A budget that stops the quotient itself is reported, not an error.
    let text = stdout(&["grundy", "kayles", "--misere", "--misere-work", "2000"]);
    assert!(text.contains("stopped at heap"), "{text}");
}

#[test]
fn misere_on_a_graph() {
    // Node Kayles on a path of 6 is Dawson's Chess heap 6: genus 1^031, a
    // misère P-position.
    let text = stdout(&["grundy", "node-kayles", "path:6", "--misere"]);
    assert!(text.contains("P: the player to move loses"), "{text}");
    assert!(text.contains("genus 1^031"), "{text}");
    let v = json(&["grundy", "kayles", "path:5", "--misere", "--json"]);
    assert_eq!(v["genus"], "4^146");
}

/// `value RULESET BOARD --misere` on an impartial ruleset: a Cram strip
/// 1 x n is a heap of Dawson's Kayles (0.07), so its genus is the one
/// CGSuite's GameHeapTest pins for heap n (the data crates/misere's
/// canonical.rs pins too), and each board's misère outcome, alone and
/// beside other regions, is what the outcome search finds under misère
/// play. A partizan ruleset is refused by name.
#[test]
fn value_misere_gives_an_impartial_board_its_misere_form() {
    let genera = [
        "0", "0", "1", "1", "2", "0", "3", "1", "1", "0", "3^1431", "3", "2^0520", "2", "4^146",
        "0", "5^057", "2^0520", "2", "3^1431", "3",
    ];
    // Heap 0 is no board; a genus written g alone is g^{g'...} with its
    // tail left off, so compare the head and, where given, the tail.
    for (n, want) in genera.iter().enumerate().skip(1) {
        let strip = ".".repeat(n);
        let v = json(&["--no-store", "value", "cram", &strip, "--misere", "--json"]);
        let genus = v["genus"].as_str().unwrap();
        if want.contains('^') {
            assert_eq!(genus, *want, "1 x {n}");
        } else {
            assert_eq!(genus.split('^').next(), Some(*want), "1 x {n}: {genus}");
        }
        assert!(v["universe"]
            .as_str()
            .unwrap()
            .starts_with("impartial games"));
    }
    for board in [
        "....|....",
        "....#..|....###",
        "....#....|....#....",
        "...|...|...",
        "....|..#.|....",
        ".....#.|.....#.",
    ] {
        let v = json(&["--no-store", "value", "cram", board, "--misere", "--json"]);
        let o = json(&["--no-store", "outcome", "cram", board, "--misere", "--json"]);
        let searched = o["outcome"].as_str().unwrap();
        // The outcome search names a class (N or P for an impartial game).
        assert_eq!(v["outcome"].as_str().unwrap(), searched, "{board}");
    }
    let text = stdout(&["--no-store", "value", "cram", "............", "--misere"]);
    assert!(text.contains("genus 2^0520 (G+ = 2, G- = 0)"), "{text}");
    assert!(text.contains("P: the player to move loses"), "{text}");
    fails(
        &[
            "--no-store",
            "value",
            "cram",
            "....|....|....|....",
            "--misere",
            "--misere-positions",
            "10",
        ],
        "more than 10 positions",
    );
    fails(
        &["--no-store", "value", "cram", "..|.", "--misere"],
        "bad cram board",
    );
}

#[test]
fn partizan_misere_forms_of_boards_and_trees() {
    // Partizan boards: the form in the general universe (and among dicots
    // for Clobber) has the misère outcome search's outcome.
    for (ruleset, board) in [
        ("domineering", "...|..."),
        ("domineering", "....|....|...."),
        ("clobber", "xoxo|oxox"),
        ("clobber", "xox|oxo|xox"),
        ("konane", "xox.|o.ox|x.xo"),
        ("toads-and-frogs", "TT..FF"),
    ] {
        let v = json(&["--no-store", "value", ruleset, board, "--misere", "--json"]);
        let o = json(&[
            "--no-store",
            "outcome",
            ruleset,
            board,
            "--misere",
            "--json",
        ]);
        let forms = v["forms"].as_array().unwrap();
        assert_eq!(forms[0]["universe"], "general");
        assert_eq!(
            forms.len(),
            if ruleset == "clobber" { 2 } else { 1 },
            "{ruleset}"
        );
        for f in forms {
            assert_eq!(f["outcome"], o["outcome"], "{ruleset} {board} {f}");
        }
    }
    let text = stdout(&["--no-store", "value", "clobber", "xoxo|oxox", "--misere"]);
    assert!(text.contains("universe dicot"), "{text}");
    assert!(text.contains("canonical form *\n"), "{text}");
    // Trees in notation, taken as written.
    let text = stdout(&["game", "--misere", "*", "*"]);
    assert!(text.contains("canonical form {*|*}"), "{text}");
    assert!(text.contains("universe dicot"), "{text}");
    assert!(text.contains("genus 0^120"), "{text}");
    let v = json(&["game", "{1|*}", "--misere", "--json"]);
    assert_eq!(v["forms"][0]["form"], "{1|*}");
    assert_eq!(v["forms"][0]["outcome"], "R");
    let text = stdout(&["analyse", "--misere", "*2+*2"]);
    assert!(text.contains("genus 0^02"), "{text}");
    fails(&["game", "--misere", "{1|"], "bad value");
    fails(&["analyse", "--misere", "--reduced", "*"], "misère");
    fails(
        &[
            "--no-store",
            "value",
            "domineering",
            "....|....|....",
            "--misere",
            "--misere-positions",
            "10",
        ],
        "more than 10 positions",
    );
}
