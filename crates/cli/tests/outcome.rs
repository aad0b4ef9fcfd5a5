//! `partizan outcome` end to end: the JSON shape, winning moves that are
//! real moves, the published 6 x 6 answer, and bad input; `--first
//! left|right`, Domineering's own checkpoint and the per-ruleset parallel
//! default; tables over rectangles (`--rectangles`).

use std::collections::HashMap;
use std::process::{Command, Output};

use crate::support;

fn run(args: &[&str]) -> Output {
    support::output(support::partizan().args(args).arg("--no-store"))
}

fn json(args: &[&str]) -> serde_json::Value {
    support::json_of(args, &run(args))
}

fn fails(args: &[&str], needle: &str) {
    support::assert_fails(args, &run(args), needle);
}

/// A search its budget stopped: exit code 3 (not 2, which is bad input)
/// and one line on standard output saying nothing is decided, and why.
fn undecided(args: &[&str], needle: &str) {
    let out = run(args);
    assert_eq!(out.status.code(), Some(3), "{args:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.trim_end().lines().count(), 1, "one line: {text}");
    assert!(text.starts_with("undecided: "), "{text}");
    assert!(
        text.to_lowercase().contains(&needle.to_lowercase()),
        "{args:?}: {text} should mention {needle}"
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn six_by_six_domineering_is_a_first_player_win_with_moves() {
    let b = "......|......|......|......|......|......";
    let v = json(&["outcome", "domineering", b, "--json"]);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["left_first_wins"], true);
    assert_eq!(v["right_first_wins"], true);
    // Left's winning move is a vertical domino, Right's a horizontal one.
    let l = v["first_players"]["left"]["move"]["cells"]
        .as_array()
        .unwrap();
    let r = v["first_players"]["right"]["move"]["cells"]
        .as_array()
        .unwrap();
    assert_eq!(l.len(), 2);
    assert_eq!(l[0][1], l[1][1], "same column: {l:?}");
    assert_eq!(r[0][0], r[1][0], "same row: {r:?}");
    assert!(v["first_players"]["left"]["nodes"].as_u64().unwrap() > 0);
    for k in ["bytes", "capacity", "filled", "probes", "hits"] {
        assert!(v["table"][k].is_u64(), "table.{k}");
    }
    assert!(v["time_ms"].is_number());
    assert!(v["stats"]["nodes"].is_u64());
}

#[test]
fn one_thread_and_two_agree_and_text_names_the_moves() {
    let b = "....|....|....";
    let one = json(&["outcome", "domineering", b, "--threads", "1", "--json"]);
    let two = json(&["outcome", "domineering", b, "--threads", "2", "--json"]);
    assert_eq!(one["outcome"], two["outcome"]);
    let par = json(&[
        "outcome",
        "domineering",
        b,
        "--threads",
        "2",
        "--parallel",
        "first-players",
        "--json",
    ]);
    assert_eq!(one["outcome"], par["outcome"]);
    assert_eq!(one["outcome"], "R");
    // Any number of threads: both ways of sharing, 3, 4 and 7 threads.
    for threads in ["3", "4", "7"] {
        for parallel in ["first-players", "root-split"] {
            let v = json(&[
                "outcome",
                "domineering",
                ".....|.....|.....|.....",
                "--threads",
                threads,
                "--parallel",
                parallel,
                "--json",
            ]);
            let base = json(&[
                "outcome",
                "domineering",
                ".....|.....|.....|.....",
                "--threads",
                "1",
                "--json",
            ]);
            assert_eq!(v["outcome"], base["outcome"], "{threads} {parallel}");
        }
    }
    let out = run(&["outcome", "domineering", b]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().next(), Some("R"));
    assert!(text.contains("Right first: wins with r"), "{text}");
    assert!(text.contains("Left first: loses"), "{text}");
}

#[test]
fn misere_outcomes_are_answered() {
    let v = json(&["outcome", "domineering", "..|..", "--misere", "--json"]);
    assert_eq!(v["convention"], "misere");
    // Misère 2x2: every first move leaves the opponent without a move, and
    // under misère play the player who cannot move wins.
    assert_eq!(v["outcome"], "P");
}

#[test]
fn bad_input_and_limits_are_one_line_errors() {
    fails(&["outcome", "domineering", "..|."], "row 2");
    fails(&["outcome", "chess", ".."], "unknown ruleset");
    fails(
        &["outcome", "domineering", "..", "--threads", "0"],
        "threads",
    );
    fails(
        &["outcome", "domineering", "..", "--ordering", "best"],
        "ordering",
    );
    fails(
        &["outcome", "domineering", "..", "--max-nodes", "0"],
        "--max-nodes must be at least 1",
    );
    fails(
        &[
            "outcome",
            "domineering",
            "..",
            "--table-mb",
            "64",
            "--max-memory",
            "32",
        ],
        "max-memory",
    );
    // A search the budget stops is undecided (exit 3), not bad input. The
    // budget is looked at every few thousand nodes, so the boards must
    // need more than that: 8x8 on Domineering's own search, 6x6 on the
    // general engine.
    undecided(
        &[
            "outcome",
            "domineering",
            "........|........|........|........|........|........|........|........",
            "--max-nodes",
            "100",
        ],
        "budget",
    );
    undecided(
        &[
            "outcome",
            "domineering",
            "......|......|......|......|......|......",
            "--general",
            "--max-nodes",
            "100",
        ],
        "budget",
    );
}

#[test]
fn certificates_are_written_and_checked() {
    let dir = std::env::temp_dir().join(format!("partizan-cert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cert.txt");
    let f = file.to_str().unwrap();
    let v = json(&[
        "outcome",
        "domineering",
        ".....|.....|.....|.....",
        "--certificate",
        f,
        "--json",
    ]);
    assert_eq!(v["outcome"], "L");
    let c = json(&["check", f, "--json"]);
    // The shape of `report::CheckReport`.
    let mut keys: Vec<&str> = c.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "board",
            "check",
            "convention",
            "left_first_wins",
            "outcome",
            "right_first_wins",
            "ruleset",
            "time_ms",
            "valid"
        ]
    );
    assert_eq!(c["board"], ".....|.....|.....|.....");
    assert_eq!(c["right_first_wins"], false);
    let text = run(&["check", f]);
    assert!(String::from_utf8_lossy(&text.stdout).starts_with("valid: domineering"));
    assert_eq!(c["valid"], true);
    assert_eq!(c["outcome"], "L");
    assert!(c["check"]["positions"].as_u64().unwrap() > 10);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("\npositions whole\ncutoffs bounds\n"),
        "{text}"
    );
    // The proof that leans on no finer bound: split positions, accepted
    // too.
    let split = dir.join("split.txt");
    let s = split.to_str().unwrap();
    let v = json(&[
        "outcome",
        "domineering",
        ".....|.....|.....|.....",
        "--certificate",
        s,
        "--split-certificate",
        "--json",
    ]);
    assert_eq!(v["outcome"], "L");
    let split_text = std::fs::read_to_string(&split).unwrap();
    assert!(split_text.contains("\npositions split\ncutoffs bounds\n"));
    let cs = json(&["check", s, "--json"]);
    assert_eq!(cs["valid"], true);
    assert_eq!(cs["outcome"], "L");
    // Larger to check: the whole proof ends its lines by the counts, the
    // split one values regions all along.
    let work = |c: &serde_json::Value| {
        c["check"]["positions"].as_u64().unwrap() + c["check"]["valued"].as_u64().unwrap()
    };
    assert!(work(&cs) > work(&c), "{cs} {c}");
    fails(
        &["outcome", "domineering", "..|..", "--split-certificate"],
        "--certificate",
    );
    // A false claim is refused with one line and exit code 2.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, text.replace("claim right loses", "claim right wins")).unwrap();
    fails(&["check", bad.to_str().unwrap()], "proof fails");
    fails(
        &["check", dir.join("none.txt").to_str().unwrap()],
        "cannot read",
    );
    std::fs::write(&bad, "not a certificate\n").unwrap();
    fails(&["check", bad.to_str().unwrap()], "line 1");
    // A certificate that cannot be written is an error, and leaves nothing.
    let nowhere = dir.join("no-such-dir").join("cert.txt");
    fails(
        &[
            "outcome",
            "domineering",
            "...|...",
            "--certificate",
            nowhere.to_str().unwrap(),
        ],
        "cannot write the certificate",
    );
    assert!(!dir.join("no-such-dir").exists());
    // A folder is not replaced by a certificate.
    fails(
        &[
            "outcome",
            "domineering",
            "...|...",
            "--certificate",
            dir.to_str().unwrap(),
        ],
        "is a directory",
    );
    assert!(dir.is_dir());
    // A pipe (`/dev/stdout` into `partizan check -`'s like) is written to,
    // not replaced: here the certificate comes out on standard output.
    #[cfg(unix)]
    {
        let out = run(&[
            "outcome",
            "domineering",
            ".....|.....|.....|.....",
            "--certificate",
            "/dev/stdout",
            "--json",
        ]);
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with("partizan-certificate 2\n"), "{text}");
        let piped = dir.join("piped.txt");
        std::fs::write(&piped, text.split("\n{").next().unwrap()).unwrap();
        let c = json(&["check", piped.to_str().unwrap(), "--json"]);
        assert_eq!(c["outcome"], "L");
    }
    // `-`: the certificate alone on standard output (the report on
    // standard error), and `check -` reads it from standard input.
    let out = run(&[
        "outcome",
        "domineering",
        ".....|.....|.....|.....",
        "--certificate",
        "-",
        "--json",
    ]);
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(report["outcome"], "L");
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
    for (input, ok) in [(out.stdout.clone(), true), (b"garbage\n".to_vec(), false)] {
        use std::io::Write as _;
        let mut child = support::partizan()
            .args(["check", "-", "--json"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&input).unwrap();
        let checked = child.wait_with_output().unwrap();
        if ok {
            assert!(checked.status.success());
            let c: serde_json::Value = serde_json::from_slice(&checked.stdout).unwrap();
            assert_eq!(
                (c["valid"].as_bool(), c["outcome"].as_str()),
                (Some(true), Some("L"))
            );
        } else {
            assert_eq!(checked.status.code(), Some(2));
            // --json: the error is a JSON object on standard output.
            let e: serde_json::Value = serde_json::from_slice(&checked.stdout).unwrap();
            assert!(e["error"].as_str().unwrap().contains("line 1"), "{e}");
        }
    }
    // A name ending in .gz is written compressed and `check` reads it back
    // (found by its magic bytes, whatever it is called).
    let zipped = dir.join("cert.txt.gz");
    let z = json(&[
        "outcome",
        "domineering",
        ".....|.....|.....|.....",
        "--certificate",
        zipped.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(z["outcome"], "L");
    let bytes = std::fs::read(&zipped).unwrap();
    assert_eq!(&bytes[..2], &[0x1f, 0x8b]);
    assert!(bytes.len() < text.len());
    let renamed = dir.join("no-suffix");
    std::fs::write(&renamed, &bytes).unwrap();
    let c = json(&["check", renamed.to_str().unwrap(), "--json"]);
    assert_eq!(
        (c["valid"].as_bool(), c["outcome"].as_str()),
        (Some(true), Some("L"))
    );
    std::fs::write(&renamed, &bytes[..bytes.len() / 2]).unwrap();
    fails(&["check", renamed.to_str().unwrap()], "certificate");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A certificate run stopped by a kill (SIGTERM) or Ctrl-C (SIGINT) ends
/// with one line and exit code 2 and leaves no half-written file behind.
#[cfg(unix)]
#[test]
fn a_killed_certificate_run_leaves_nothing_behind() {
    use std::process::Stdio;
    for signal in ["-TERM", "-INT"] {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cert.txt");
        // 7 x 8 Domineering: about a minute, far past the signal.
        let board = ["........"; 7].join("|");
        let child = support::partizan()
            .args([
                "outcome",
                "domineering",
                &board,
                "--no-store",
                "--certificate",
            ])
            .arg(&file)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Wait for the temporary file: the search is under way.
        let started = std::time::Instant::now();
        while std::fs::read_dir(dir.path()).unwrap().next().is_none() {
            assert!(started.elapsed().as_secs() < 60, "no temporary file");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        let killed = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{signal}: {err}");
        assert!(err.contains("interrupted"), "{signal}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{signal}: {err}");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert!(left.is_empty(), "{signal}: {left:?}");
    }
}

/// The binary with a store of its own at `store`.
fn run_in(store: &std::path::Path, args: &[&str]) -> Output {
    support::output(support::partizan().args(args).arg("--store").arg(store))
}

fn json_in(store: &std::path::Path, args: &[&str]) -> serde_json::Value {
    support::json_of(args, &run_in(store, args))
}

#[test]
fn a_solved_board_is_answered_from_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    let b = "xoxo|oxox|xoxo";
    let args = ["outcome", "clobber", b, "--json"];
    let first = json_in(&store, &args);
    assert_eq!(first["from_store"], false);
    assert!(first["stats"]["nodes"].as_u64().unwrap() > 0);
    let second = json_in(&store, &args);
    assert_eq!(second["from_store"], true);
    assert_eq!(second["stats"]["nodes"], 0);
    for k in ["outcome", "left_first_wins", "right_first_wins"] {
        assert_eq!(second[k], first[k], "{k}");
    }
    for p in ["left", "right"] {
        assert_eq!(second["first_players"][p]["nodes"], 0);
        assert_eq!(
            second["first_players"][p]["wins"],
            first["first_players"][p]["wins"]
        );
    }
    let text = run_in(&store, &args[..3]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("from store"));
    // Misère play is another question.
    let m = json_in(&store, &["outcome", "clobber", b, "--misere", "--json"]);
    assert_eq!(m["from_store"], false);
    // `store stats` counts the two stored outcomes on their own, not as
    // census results.
    let stats = json_in(&store, &["store", "stats", "--json"]);
    assert_eq!(stats["outcome_entries"], 2, "{stats}");
    assert_eq!(stats["census_entries"], 0, "{stats}");
    let text = run_in(&store, &["store", "stats"]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("\noutcomes 2\n"), "{text}");
    assert!(text.contains("\ncensus   0\n"), "{text}");
    // The store keeps outcomes, not nimbers: `--nimber` searches a stored
    // board again (Cram 4 x 5: Beling's nimber 2).
    let cram = ["outcome", "cram", "....|....|....|....|....", "--json"];
    assert_eq!(json_in(&store, &cram)["from_store"], false);
    assert_eq!(json_in(&store, &cram)["from_store"], true);
    let mut asked = cram.to_vec();
    asked.push("--nimber");
    let n = json_in(&store, &asked);
    assert_eq!(
        (n["from_store"].clone(), n["nimber"].clone()),
        (false.into(), 2.into())
    );
}

#[test]
fn a_stored_outcome_that_cannot_be_right_is_searched_again() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    let b = "xoxo|oxox|xoxo";
    let truth = json_in(&store, &["outcome", "clobber", b, "--json"]);
    // A whole, checksummed row whose moves are no moves of the board.
    {
        let s = partizan_store::Store::open(&store).unwrap();
        let bogus = partizan_store::StoredOutcome {
            ruleset: "clobber".into(),
            board: b.into(),
            convention: "normal".into(),
            left_first_wins: true,
            right_first_wins: true,
            left_move: Some("oooo|oooo|oooo".into()),
            right_move: Some("xxxx|xxxx|xxxx".into()),
            nodes: 1,
            partizan_version: "test".into(),
            computed_at: 0,
            provenance: partizan_store::Provenance::Computed,
        };
        s.put_outcome(&bogus).unwrap();
    }
    let out = run_in(&store, &["outcome", "clobber", b, "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["from_store"], false, "searched again");
    assert_eq!(v["outcome"], truth["outcome"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning"));
    // ... and the row is replaced by the search's answer.
    let again = json_in(&store, &["outcome", "clobber", b, "--json"]);
    assert_eq!(again["from_store"], true);
}

#[test]
fn a_stopped_run_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("run.ckpt");
    let ck = ck.to_str().unwrap();
    let b = "xoxox|oxoxo|xoxox|oxoxo";
    let base = [
        "outcome",
        "clobber",
        b,
        "--threads",
        "1",
        "--checkpoint",
        ck,
    ];
    let mut stopped: Vec<&str> = base.to_vec();
    stopped.extend(["--max-nodes", "20000"]);
    undecided(&stopped, "resume");
    let mut resumed: Vec<&str> = base.to_vec();
    resumed.push("--json");
    let v = json(&resumed);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["resumed"]["sessions"], 1);
    assert!(v["resumed"]["entries_loaded"].as_u64().unwrap() > 0);
    let whole = json(&["outcome", "clobber", b, "--threads", "1", "--json"]);
    let total = v["resumed"]["nodes_before"].as_u64().unwrap()
        + v["resumed"]["nodes_now"].as_u64().unwrap();
    assert!(total < 2 * whole["stats"]["nodes"].as_u64().unwrap());
    // The same checkpoint for another board is refused, in one line.
    fails(
        &[
            "outcome",
            "clobber",
            "oxoxo|xoxox|oxoxo|xoxox",
            "--checkpoint",
            ck,
        ],
        "checkpoint",
    );
    // A damaged one too.
    let mut bytes = std::fs::read(ck).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(ck, bytes).unwrap();
    fails(&base, "damaged");
    fails(
        &[
            "outcome",
            "clobber",
            b,
            "--checkpoint",
            ck,
            "--certificate",
            "x",
        ],
        "cannot be combined",
    );
    fails(
        &["outcome", "clobber", b, "--max-seconds", "0"],
        "max-seconds",
    );
}

/// Every registered ruleset (as `partizan rulesets` lists them) is named in
/// `outcome --help` and searched on its example board, by its default path
/// and by the general engine, both agreeing with the outcome of its exact
/// value (normal play) — so a new ruleset is searched with no edit outside
/// its own file and the registry line.
#[test]
fn outcome_runs_on_every_registered_rulesets_example() {
    let list = json(&["rulesets", "--json"]);
    let list = list.as_array().expect("a list");
    assert!(list.len() >= 16, "{} rulesets", list.len());
    let help = run(&["outcome", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    for r in list {
        let name = r["name"].as_str().unwrap();
        let example = r["example"].as_str().unwrap();
        assert!(help.contains(name), "outcome --help omits {name}");
        let value = json(&["value", name, example, "--json"]);
        // A loopy ruleset's outcome comes from its graph: no general engine.
        let extras: &[&[&str]] = if r["loopy"] == true {
            &[&[]]
        } else {
            &[&[], &["--general"]]
        };
        for &extra in extras {
            let mut args = vec!["outcome", name, example, "--json", "--threads", "1"];
            args.extend_from_slice(extra);
            let v = json(&args);
            assert_eq!(v["outcome"], value["outcome"], "{name} {example} {extra:?}");
        }
    }
}

/// 4 rows x 5 columns of Domineering: L (Lachmann, Moore and Rapaport's
/// table; `tests/outcome.rs` pins it too).
const L_BOARD: &str = ".....|.....|.....|.....";

#[test]
fn one_first_player_is_searched_alone_and_names_no_class() {
    let both = json(&["outcome", "domineering", L_BOARD, "--json"]);
    assert_eq!(both["outcome"], "L");
    assert_eq!(both["first"], "both");
    for (first, other) in [("left", "right"), ("right", "left")] {
        for engine in [None, Some("--general")] {
            let mut args = vec![
                "outcome",
                "domineering",
                L_BOARD,
                "--first",
                first,
                "--json",
            ];
            args.extend(engine);
            let v = json(&args);
            assert!(v["outcome"].is_null(), "{v}");
            assert_eq!(v["first"], first);
            let key = format!("{first}_first_wins");
            assert_eq!(v[&key], both[&key], "{args:?}");
            assert!(v[format!("{other}_first_wins")].is_null());
            assert!(v["first_players"].get(other).is_none(), "{v}");
            assert!(v["first_players"][first]["nodes"].as_u64().unwrap() > 0);
            assert_eq!(v["saved_to_store"], false);
        }
    }
    let out = run(&["outcome", "domineering", L_BOARD, "--first", "left"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("outcome class unknown"), "{text}");
    assert!(text.contains("Left first: wins with r"), "{text}");
    assert!(text.contains("Right first: not searched"), "{text}");
    // With one side, first-players has nothing to split: it still answers.
    let v = json(&[
        "outcome",
        "domineering",
        L_BOARD,
        "--first",
        "right",
        "--threads",
        "2",
        "--parallel",
        "first-players",
        "--json",
    ]);
    assert_eq!(v["right_first_wins"], false);
    fails(
        &["outcome", "domineering", L_BOARD, "--first", "up"],
        "unknown first player 'up'",
    );
}

#[test]
fn a_one_sided_certificate_checks_and_proves_no_class() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cert.txt");
    let f = file.to_str().unwrap();
    let v = json(&[
        "outcome",
        "domineering",
        L_BOARD,
        "--first",
        "right",
        "--certificate",
        f,
        "--json",
    ]);
    assert_eq!(v["right_first_wins"], false);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("claim right loses") && !text.contains("claim left"));
    let c = json(&["check", f, "--json"]);
    assert_eq!(c["valid"], true);
    assert!(c["outcome"].is_null(), "{c}");
    assert!(c["left_first_wins"].is_null());
    assert_eq!(c["right_first_wins"], false);
    let out = run(&["check", f]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("Right moving first loses"));
    // A claim for the other side, which the proof does not cover: a
    // false one fails; a true one the checker proves by its own search.
    let bad = dir.path().join("bad.txt");
    std::fs::write(
        &bad,
        text.replace("claim right loses", "claim left loses\nclaim right loses"),
    )
    .unwrap();
    fails(&["check", bad.to_str().unwrap()], "proof fails");
    std::fs::write(
        &bad,
        text.replace("claim right loses", "claim left wins\nclaim right loses"),
    )
    .unwrap();
    let c = json(&["check", bad.to_str().unwrap(), "--json"]);
    assert_eq!(c["outcome"], "L", "{c}");
    assert!(c["check"]["searched"].as_u64().unwrap() > 0, "{c}");
}

/// 8 x 6 Domineering (8 rows, 6 columns): L (Lachmann, Moore and
/// Rapaport), about 195,000 nodes on Domineering's own search.
const EIGHT_BY_SIX: &str = "......|......|......|......|......|......|......|......";

#[test]
fn domineerings_own_search_resumes_from_its_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("d.ckpt");
    let ck = ck.to_str().unwrap();
    let base = [
        "outcome",
        "domineering",
        EIGHT_BY_SIX,
        "--threads",
        "1",
        "--checkpoint",
        ck,
    ];
    let mut stopped = base.to_vec();
    stopped.extend(["--max-nodes", "8192"]);
    undecided(&stopped, "resume");
    let mut resumed = base.to_vec();
    resumed.push("--json");
    let v = json(&resumed);
    assert_eq!(v["outcome"], "L");
    assert_eq!(v["resumed"]["sessions"], 1);
    // Domineering's own search ran: its checkpoint names that engine, not
    // the general one (both value small regions now, so the count of
    // regions valued no longer tells them apart).
    let header = std::fs::read(ck).unwrap();
    let names = |w: &[u8]| header.windows(w.len()).any(|x| x == w);
    assert!(names(b"domineering") && !names(b"general"));
    let text = run(&["outcome", "domineering", EIGHT_BY_SIX, "--checkpoint", ck]);
    assert!(text.status.success());
    assert!(String::from_utf8_lossy(&text.stdout).contains("checkpoint"));
    // A damaged checkpoint: one line, exit 2.
    let mut bytes = std::fs::read(ck).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 1;
    std::fs::write(ck, bytes).unwrap();
    fails(&base, "damaged");
}

#[test]
fn help_lists_the_new_options_and_each_rulesets_parallel_default() {
    let out = support::partizan()
        .args(["outcome", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("--first"), "{help}");
    assert!(help.contains("domineering root-split"), "{help}");
    assert!(help.contains("clobber first-players"), "{help}");
    assert!(help.contains("refuted first moves"), "{help}");
}

/// `--nimber` prints the nimber of an impartial position (Beling's
/// published Cram nimbers, the solve crate's test data), in the text and
/// the JSON; without it there is none; where no nimber search runs it is
/// a one-line error.
#[test]
fn cram_nimbers_are_printed_when_asked() {
    let table = include_str!("../../solve/tests/data/cram_nimbers.txt");
    let mut seen = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<usize> = line.split('\t').map(|x| x.parse().unwrap()).collect();
        let (h, w, want) = (f[0], f[1], f[2]);
        if h * w > 28 {
            continue;
        }
        let b = vec![".".repeat(w); h].join("|");
        for threads in ["1", "2"] {
            let v = json(&[
                "outcome",
                "cram",
                &b,
                "--nimber",
                "--json",
                "--threads",
                threads,
            ]);
            assert_eq!(v["nimber"], want, "{h} x {w} on {threads} threads");
            assert_eq!(v["outcome"], if want == 0 { "P" } else { "N" });
            assert_eq!(v["config"]["threads"], threads.parse::<u32>().unwrap());
        }
        let out = run(&["outcome", "cram", &b, "--nimber"]);
        let text = String::from_utf8_lossy(&out.stdout);
        let shown = match want {
            0 => "0".to_string(),
            1 => "*".to_string(),
            n => format!("*{n}"),
        };
        assert!(text.contains(&format!("nimber: {shown}\n")), "{text}");
        seen += 1;
    }
    assert!(seen >= 4, "{seen} boards");
    let v = json(&["outcome", "cram", "....|....|....|....", "--json"]);
    assert!(v.get("nimber").is_none(), "{v}");
    let b = "...|...";
    fails(&["outcome", "domineering", b, "--nimber"], "not impartial");
    fails(
        &["outcome", "cram", b, "--nimber", "--misere"],
        "normal play",
    );
    fails(
        &["outcome", "cram", b, "--nimber", "--general"],
        "--general",
    );
}

/// `--checkpoint` on Cram keeps the nimber search's memo: stopped by a
/// node budget, resumed to the end, with the nimber asked; no note about
/// another engine.
#[test]
fn a_checkpointed_cram_search_resumes_the_nimber_search() {
    let dir = tempfile::tempdir().unwrap();
    let ck = dir.path().join("c.ckpt");
    let ck = ck.to_str().unwrap();
    let b = ".......|.......|.......|......#";
    let base = [
        "outcome",
        "cram",
        b,
        "--threads",
        "1",
        "--nimber",
        "--checkpoint",
        ck,
    ];
    let mut stopped = base.to_vec();
    stopped.extend(["--max-nodes", "10000"]);
    undecided(&stopped, "resume");
    let bytes = std::fs::read(ck).unwrap();
    assert!(
        bytes.windows(9).any(|w| w == b"nimbers-1"),
        "the nimber engine's checkpoint"
    );
    let mut resumed = base.to_vec();
    resumed.push("--json");
    let out = run(&resumed);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("general engine"), "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["nimber"], 1);
    assert_eq!(v["resumed"]["sessions"], 1);
    assert!(v["resumed"]["entries_loaded"].as_u64().unwrap() > 0);
    let whole = json(&["outcome", "cram", b, "--threads", "1", "--nimber", "--json"]);
    assert_eq!(whole["nimber"], 1);
    assert!(
        v["resumed"]["nodes_now"].as_u64().unwrap() < whole["stats"]["nodes"].as_u64().unwrap()
    );
}

/// `--moves` judges every first move: on 4 x 4 Domineering the moves that
/// win are the ones each first player's own winning move is among, and
/// the list agrees with a search of each position after a move.
#[test]
fn every_first_move_is_judged() {
    let b = "....|....|....|....";
    let v = json(&["outcome", "domineering", b, "--moves", "--json"]);
    let plain = json(&["outcome", "domineering", b, "--json"]);
    assert!(plain.get("first_moves").is_none());
    for (side, opp) in [("left", "right"), ("right", "left")] {
        let moves = v["first_moves"][side].as_array().unwrap();
        assert_eq!(moves.len(), 12, "{side}");
        let best = &v["first_players"][side]["move"]["board"];
        let mine = moves.iter().find(|m| &m["board"] == best).unwrap();
        assert_eq!(mine["wins"], true, "{side}: the reported winning move wins");
        for m in moves {
            // Each position after a move, searched with the opponent first.
            let after = json(&[
                "outcome",
                "domineering",
                m["board"].as_str().unwrap(),
                "--first",
                opp,
                "--json",
            ]);
            let opp_wins = after[format!("{opp}_first_wins")].as_bool().unwrap();
            assert_eq!(m["wins"].as_bool(), Some(!opp_wins), "{side} {m}");
        }
        assert!(moves.iter().any(|m| m["mirror_of"]["index"].is_u64()));
    }
    let text =
        String::from_utf8_lossy(&run(&["outcome", "domineering", b, "--moves"]).stdout).to_string();
    assert!(
        text.contains("Left's first moves: 4 of 12 win: r2c1-r3c1 r2c2-r3c2 r2c3-r3c3 r2c4-r3c4"),
        "{text}"
    );
    fails(
        &[
            "outcome",
            "domineering",
            b,
            "--moves",
            "--certificate",
            "x.txt",
        ],
        "--moves cannot be combined",
    );
    // --max-seconds stops the judgement too (one deadline for the whole
    // command): 8 x 8's outcome takes about a second, the judgement of
    // its first moves half a minute. The outcome stands; the judgement
    // cut short is left out with a warning, as on the site.
    let big = ["........"; 8].join("|");
    let out = run(&[
        "outcome",
        "domineering",
        &big,
        "--moves",
        "--max-seconds",
        "3",
        "--json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((&v["decided"], &v["outcome"]), (&true.into(), &"N".into()));
    assert!(v.get("first_moves").is_none(), "{v}");
    let warned = v["warnings"].as_array().unwrap();
    assert!(warned
        .iter()
        .any(|w| w.as_str().unwrap().contains("time limit")));
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning: the first moves"));
}

// Tables over rectangles (`outcome RULESET --rectangles ROWSxCOLS`),
// checked cell by cell against the published tables the solver's own
// tests use (Bullock's Domineering outcomes, Beling's Cram nimbers).

/// `(rows, cols) -> entry` of a published table in the solver's test data
/// (`rows cols entry` per line, `#` comments).
fn published(file: &str) -> HashMap<(usize, usize), String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../solve/tests/data")
        .join(file);
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                (f[0].parse().unwrap(), f[1].parse().unwrap()),
                f[2].to_string(),
            )
        })
        .collect()
}

#[test]
fn a_domineering_table_agrees_with_bullocks_and_is_stored() {
    let want = published("domineering_outcomes.txt");
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("store.db");
    let args = [
        "--json",
        "outcome",
        "domineering",
        "--rectangles",
        "1-6x1-6",
    ];
    let t = json_in(&store, &args);
    assert_eq!(t["ruleset"], "domineering");
    assert_eq!(t["convention"], "normal");
    let cells = t["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 36);
    for (i, c) in cells.iter().enumerate() {
        let (r, k) = (c["rows"].as_u64().unwrap(), c["cols"].as_u64().unwrap());
        // Row by row, in order.
        assert_eq!((r, k), (1 + i as u64 / 6, 1 + i as u64 % 6));
        let board = c["board"].as_str().unwrap();
        assert_eq!(board, vec![".".repeat(k as usize); r as usize].join("|"));
        assert_eq!(
            c["outcome"].as_str().unwrap(),
            want[&(r as usize, k as usize)],
            "{r} x {k}"
        );
        assert!(c["stopped"].is_null());
        assert_eq!(c["from_store"], false);
    }
    // The second run answers every board from the store, the same table.
    let again = json_in(&store, &args);
    let cells2 = again["cells"].as_array().unwrap();
    for (a, b) in cells.iter().zip(cells2) {
        assert_eq!(a["outcome"], b["outcome"]);
        assert_eq!(b["from_store"], true);
        assert_eq!(b["nodes"], 0);
    }
    // The text form: the grid, rows down and columns across.
    let out = run_in(
        &store,
        &["outcome", "domineering", "--rectangles", "4-6x4-6"],
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1].split_whitespace().collect::<Vec<_>>(),
        ["4", "5", "6"]
    );
    for (i, r) in (4..=6).enumerate() {
        let row: Vec<&str> = lines[2 + i].split_whitespace().collect();
        let expected: Vec<String> = std::iter::once(r.to_string())
            .chain((4..=6).map(|k| want[&(r, k)].clone()))
            .collect();
        assert_eq!(row, expected, "{text}");
    }
    assert!(
        text.contains("9 boards") && text.contains("9 from the store"),
        "{text}"
    );
}

#[test]
fn cram_nimbers_agree_with_belings() {
    let want = published("cram_nimbers.txt");
    let t = json(&[
        "--json",
        "outcome",
        "cram",
        "--rectangles",
        "4-5x4-6",
        "--nimber",
    ]);
    let cells = t["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 6);
    for c in cells {
        let (r, k) = (
            c["rows"].as_u64().unwrap() as usize,
            c["cols"].as_u64().unwrap() as usize,
        );
        // Beling lists rows <= columns; a transpose has the same nimber.
        let published = &want[&(r.min(k), r.max(k))];
        assert_eq!(&c["nimber"].to_string(), published, "{r} x {k}");
        let class = if published == "0" { "P" } else { "N" };
        assert_eq!(c["outcome"], class);
    }
}

#[test]
fn clobber_tables_are_of_checkerboards() {
    let t = json(&["--json", "outcome", "clobber", "--rectangles", "2x3"]);
    let c = &t["cells"][0];
    assert_eq!(c["board"], "xox|oxo");
    // 2 x 3 Clobber's outcome, searched as the board itself.
    let one = json(&["--json", "outcome", "clobber", "xox|oxo"]);
    assert_eq!(c["outcome"], one["outcome"]);
}

/// Kōnane's tables search its opening (the checkerboard less two
/// adjacent stones from the middle), Amazons' one queen each in opposite
/// corners: each cell the answer of that board searched alone.
#[test]
fn konane_and_amazons_tables_are_of_their_openings() {
    let t = json(&["--json", "outcome", "konane", "--rectangles", "3-4x3-5"]);
    let cells = t["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 6);
    assert_eq!(cells[4]["board"], "xoxo|o..x|xoxo|oxox");
    for c in cells {
        let board = c["board"].as_str().unwrap();
        assert_eq!(board.matches('.').count(), 2, "{board}");
        let one = json(&["--json", "outcome", "konane", board]);
        assert_eq!(c["outcome"], one["outcome"], "{board}");
    }
    let t = json(&["--json", "outcome", "amazons", "--rectangles", "2-3"]);
    let cells = t["cells"].as_array().unwrap();
    assert_eq!(cells[3]["board"], "L..|...|..R");
    for c in cells {
        let board = c["board"].as_str().unwrap();
        assert!(board.starts_with('L') && board.ends_with('R'), "{board}");
        let one = json(&["--json", "outcome", "amazons", board]);
        assert_eq!(c["outcome"], one["outcome"], "{board}");
    }
    // 1 x 1 has no room for two queens: named, not "no standard rectangle".
    fails(
        &["outcome", "amazons", "--rectangles", "1-2"],
        "no 1 x 1 rectangle",
    );
}

#[test]
fn a_board_a_limit_stops_is_a_question_mark() {
    // 6 x 8 Domineering (R, Bullock) takes far more than 2,000 nodes.
    let t = json(&[
        "--json",
        "outcome",
        "domineering",
        "--rectangles",
        "2x3-4",
        "--max-nodes",
        "2000",
    ]);
    assert!(t["cells"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["stopped"].is_null()));
    let out = run(&[
        "outcome",
        "domineering",
        "--rectangles",
        "6x7-8",
        "--max-nodes",
        "2000",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        ["6", "?", "?"],
        "{text}"
    );
    assert!(
        lines[3].starts_with("6 x 7: ") && lines[3].contains("2000"),
        "{text}"
    );
}

#[test]
fn bad_tables_are_one_line_errors() {
    for (args, needle) in [
        (
            vec!["outcome", "domineering", "--rectangles", "0x3"],
            "at least 1",
        ),
        (
            vec!["outcome", "domineering", "--rectangles", "5-2"],
            "backwards",
        ),
        (
            vec!["outcome", "domineering", "--rectangles", "1-40"],
            "at most 1024",
        ),
        (
            vec!["outcome", "domineering", "--rectangles", "12x12"],
            "too many cells",
        ),
        (
            vec!["outcome", "toads", "--rectangles", "4"],
            "no standard rectangle",
        ),
        (
            vec!["outcome", "domineering", "...", "--rectangles", "4"],
            "cannot be used",
        ),
        (
            vec!["outcome", "domineering", "--rectangles", "4", "--moves"],
            "cannot be used",
        ),
        (vec!["outcome", "domineering"], "BOARD"),
        (
            vec![
                "outcome",
                "domineering",
                "--rectangles",
                "4",
                "--format",
                "png",
            ],
            "svg or tikz",
        ),
        (
            vec![
                "--json",
                "outcome",
                "domineering",
                "--rectangles",
                "4",
                "--format",
                "svg",
            ],
            "give one of them",
        ),
        (
            vec![
                "--json",
                "outcome",
                "domineering",
                "..|..",
                "--format",
                "svg",
            ],
            "give one of them",
        ),
        (
            vec![
                "outcome",
                "domineering",
                "..|..",
                "--format",
                "svg",
                "--certificate",
                "-",
            ],
            "both write to standard output",
        ),
        (
            vec!["outcome", "snort-graph", "1-2,2-3,3-4", "--format", "svg"],
            "positions are graphs",
        ),
    ] {
        fails(&args, needle);
    }
}

/// A graph position's winning moves are named by the vertex or edge
/// played, not by the cells of its internal grid.
#[test]
fn a_graph_positions_moves_are_named_by_vertex_or_edge() {
    let path = "1-2,2-3,3-4";
    let rep = json(&["--json", "outcome", "snort-graph", path, "--moves"]);
    let out = run(&["outcome", "snort-graph", path, "--moves"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("r1c1"), "{text}");
    // Snort on a path of four: a move colours a vertex, named by its
    // label; the JSON keeps the position after it.
    assert!(rep["first_players"]["left"]["move"]["board"].is_string());
    assert!(text.contains("Left first: wins with vertex "), "{text}");
    let listed = text
        .lines()
        .find(|l| l.starts_with("Left's first moves:"))
        .unwrap();
    assert!(listed.contains("of 4 win"), "{text}");
    for v in listed.split("vertex ").skip(1) {
        let label: usize = v.trim().parse().unwrap();
        assert!((1..=4).contains(&label), "{text}");
    }
    // Hackenbush on a graph: a move cuts an edge, named by its ends.
    let out = run(&["outcome", "hackenbush-graph", "g-1:b,1-2:r,2-g:g"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("wins with edge "), "{text}");
    // A grid's moves keep their cells.
    // (which winning move two threads find first may vary; the list of
    // every first move is in the rules' order)
    let grid = run(&["outcome", "domineering", "..|..", "--moves"]);
    assert!(
        String::from_utf8_lossy(&grid.stdout)
            .contains("Left's first moves: 2 of 2 win: r1c1-r2c1 r1c2-r2c2"),
        "{}",
        String::from_utf8_lossy(&grid.stdout)
    );
}

/// `--format svg|tikz` with a BOARD draws the answer: a panel per first
/// player, the winning first move marked (two dots and a bar for a
/// domino), every winning first move with `--moves` — as many as the JSON
/// says win.
#[test]
fn an_answer_is_drawn_with_its_winning_moves() {
    let board = "....|....|....|....|....";
    let rep = json(&["--json", "outcome", "domineering", board, "--moves"]);
    let svg = |extra: &[&str]| {
        let mut args = vec!["outcome", "domineering", board, "--format", "svg"];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let one = svg(&[]);
    let winners = [&rep["left_first_wins"], &rep["right_first_wins"]]
        .iter()
        .filter(|w| w.as_bool() == Some(true))
        .count();
    // Each winning first move: a bar and two dots.
    assert_eq!(one.matches("<circle").count(), 2 * winners, "{one}");
    assert_eq!(one.matches("<polyline").count(), winners);
    assert!(one.contains("domineering 5 x 4"), "{one}");
    let all = svg(&["--moves"]);
    let mut wins = 0;
    for side in ["left", "right"] {
        let moves = rep["first_moves"][side].as_array().unwrap();
        let k = moves.iter().filter(|m| m["wins"] == true).count();
        let caption = format!(
            "{} first: {k} of {} first moves win",
            if side == "left" { "Left" } else { "Right" },
            moves.len()
        );
        assert!(all.contains(&caption), "{caption}: {all}");
        wins += k;
    }
    assert_eq!(all.matches("<polyline").count(), wins);
    let blue = all.matches("stroke=\"#1d4ed8\"").count();
    let red = all.matches("stroke=\"#b91c1c\"").count();
    assert_eq!(blue + red, wins);
    let tikz = run(&["outcome", "domineering", board, "--format", "tikz"]);
    assert!(String::from_utf8_lossy(&tikz.stdout).contains("\\begin{tikzpicture}"));
    // An impartial board's nimber is in the title (Beling: 4 x 5 Cram is *2).
    let cram = run(&[
        "outcome",
        "cram",
        ".....|.....|.....|.....",
        "--nimber",
        "--format",
        "svg",
    ]);
    let cram = String::from_utf8_lossy(&cram.stdout);
    assert!(
        cram.contains("cram 4 x 5, N: the first player wins (nimber *2)"),
        "{cram}"
    );
}

/// `--format svg|tikz` draws the table: every board's answer in its cell,
/// on its class's colour, the same answers as the text form's grid.
#[test]
fn a_table_is_drawn_as_svg_and_tikz() {
    let want = published("domineering_outcomes.txt");
    let svg = run(&[
        "outcome",
        "domineering",
        "--rectangles",
        "2-5x2-5",
        "--format",
        "svg",
    ]);
    assert!(svg.status.success());
    let svg = String::from_utf8(svg.stdout).unwrap();
    assert!(svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"));
    // One cell per board, its sign the published class, in row order.
    let signs: Vec<&str> = svg
        .split("<text")
        .filter_map(|t| {
            let (attrs, rest) = t.split_once('>')?;
            let sign = rest.split("</text>").next()?;
            (attrs.contains("font-size=\"12\"")).then_some(sign)
        })
        .collect();
    let expected: Vec<String> = (2..=5)
        .flat_map(|r| (2..=5).map(move |k| (r, k)))
        .map(|rk| want[&rk].clone())
        .collect();
    assert_eq!(signs, expected, "{svg}");
    let colours = [
        ("L", "#81a1c1"),
        ("R", "#d08770"),
        ("N", "#ebcb8b"),
        ("P", "#d8dee9"),
    ];
    for (class, colour) in colours {
        let n = expected.iter().filter(|e| *e == class).count();
        assert_eq!(
            svg.matches(&format!("fill=\"{colour}\"")).count(),
            n,
            "{class}"
        );
    }
    let tikz = run(&[
        "outcome",
        "domineering",
        "--rectangles",
        "2-5x2-5",
        "--format",
        "tikz",
    ]);
    assert!(tikz.status.success());
    let tikz = String::from_utf8(tikz.stdout).unwrap();
    assert!(tikz.contains("\\begin{tikzpicture}") && tikz.contains("\\end{tikzpicture}"));
    assert_eq!(tikz.matches("rectangle (").count(), 1 + 1 + 16);
}

/// `--jobs`: the job-level search on local workers gives the plain
/// search's class, resumes from its tree file, and refuses bad input and
/// a damaged file in one line.
#[test]
fn jobs_decide_like_the_plain_search_and_resume() {
    let board = ".....|.....|.....|.....";
    let plain = json(&["--json", "outcome", "domineering", board]);
    let jobs = json(&[
        "--json",
        "outcome",
        "domineering",
        board,
        "--jobs",
        "2",
        "--job-nodes",
        "1",
    ]);
    assert_eq!(jobs["class"], plain["outcome"], "{jobs}");
    assert_eq!(plain["outcome"], "L");
    assert_eq!(jobs["searches"].as_array().map(Vec::len), Some(2));
    for s in jobs["searches"].as_array().unwrap() {
        assert_eq!(s["counts"]["lies"], serde_json::json!({}));
        assert!(s["counts"]["accepted"].as_u64().unwrap() >= 1, "{s}");
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tree");
    let key = dir.path().join("key");
    let with_file = |extra: &[&str]| {
        support::partizan()
            .args([
                "outcome",
                "domineering",
                board,
                "--jobs",
                "1",
                "--first",
                "left",
            ])
            .args(["--jobs-file", file.to_str().unwrap()])
            .args(extra)
            .arg("--no-store")
            .env("PARTIZAN_KEY", &key)
            .output()
            .unwrap()
    };
    let first = with_file(&[]);
    assert!(first.status.success());
    let again = with_file(&[]);
    assert!(again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("resumed"));
    // The resumed tree still names the winning move it proved.
    let said = String::from_utf8_lossy(&again.stdout).to_string();
    assert!(said.contains("Left first wins with "), "{said}");
    assert!(said.contains(": 0 jobs"), "{said}");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replacen("\tW\t", "\tX\t", 1)).unwrap();
    let damaged = with_file(&[]);
    assert_eq!(damaged.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&damaged.stderr).contains("damaged"));
    fails(&["outcome", "domineering", board, "--jobs", "0"], "--jobs");
    fails(
        &[
            "outcome",
            "domineering",
            board,
            "--jobs",
            "2",
            "--job-nodes",
            "0",
        ],
        "--job-nodes",
    );
    fails(
        &["outcome", "domineering", board, "--jobs", "2", "--misere"],
        "--misere",
    );
    fails(
        &[
            "outcome",
            "domineering",
            board,
            "--jobs",
            "2",
            "--jobs-file",
            "x",
        ],
        "--first",
    );
}
