//! The `partizan` binary end to end: JSON shapes, figures, and bad input.

use std::process::Output;

use crate::support;

/// The binary with a store of this test process's own.
fn run(args: &[&str]) -> Output {
    let store = std::env::temp_dir().join(format!("partizan-cli-test-{}.redb", std::process::id()));
    support::output(support::partizan().args(args).env("PARTIZAN_STORE", store))
}

fn json(args: &[&str]) -> serde_json::Value {
    support::json_of(args, &run(args))
}

/// A failing command: exit code 2 and one line on stderr naming `needle`.
fn fails(args: &[&str], needle: &str) {
    support::assert_fails(args, &run(args), needle);
}

#[test]
fn value_json_has_the_promised_keys() {
    let v = json(&["value", "domineering", "...|...", "--json", "--no-store"]);
    assert_eq!(v["value"], "{2|-1/2}");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["left_stop"], "2");
    assert_eq!(v["right_stop"], "-1/2");
    assert_eq!(v["temperature"], "5/4");
    assert_eq!(v["is_number"], false);
    assert!(v["stats"]["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn value_text_is_the_canonical_form() {
    let out = run(&["value", "domineering", "....|....|....", "--no-store"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "-3/2");
}

#[test]
fn graph_json_counts_and_regions() {
    let v = json(&["graph", "domineering", "....|....|....|....", "--json"]);
    assert_eq!(v["positions"], 5700);
    assert_eq!(v["tree_nodes"], 6_257_129u64);
    assert_eq!(v["product"], 5700);
    assert_eq!(v["regions"].as_array().unwrap().len(), 1);
    assert_eq!(v["regions"][0]["cells"], 16);
    // A wall splits the board: the product of the regions is the whole.
    let v = json(&["graph", "domineering", "..#..|..#..|..#..", "--json"]);
    let regions = v["regions"].as_array().unwrap();
    assert_eq!(regions.len(), 2);
    let product: u64 = regions
        .iter()
        .map(|r| r["positions"].as_u64().unwrap())
        .product();
    assert_eq!(v["positions"].as_u64().unwrap(), product);
}

#[test]
fn every_ruleset_answers_value_and_graph() {
    for (r, b) in [
        ("domineering", "...|..."),
        ("cram", "...|..."),
        ("clobber", "xox|ox."),
        ("konane", "..ox"),
        ("amazons", "L..|..R"),
    ] {
        let v = json(&["value", r, b, "--json", "--no-store"]);
        assert!(v["value"].is_string(), "{r}");
        let g = json(&["graph", r, b, "--json"]);
        assert!(g["positions"].as_u64().unwrap() >= 1, "{r}");
    }
}

#[test]
fn misere_values_and_outcomes_agree() {
    let f = json(&[
        "value",
        "domineering",
        "...|...",
        "--misere",
        "--no-store",
        "--json",
    ]);
    let v = json(&["outcome", "domineering", "...|...", "--misere", "--json"]);
    assert_eq!(v["convention"], "misere");
    assert_eq!(f["forms"][0]["universe"], "general");
    assert_eq!(f["forms"][0]["outcome"], v["outcome"]);
}

#[test]
fn bad_boards_are_named() {
    fails(&["value", "domineering", "...|..", "--no-store"], "row 2");
    fails(
        &["value", "domineering", "..z|...", "--no-store"],
        "column 3",
    );
    fails(&["value", "domineering", "", "--no-store"], "empty");
    let big = vec![".".repeat(12); 11].join("|");
    fails(&["value", "domineering", &big, "--no-store"], "128");
    fails(&["value", "domineering", "x.|..", "--no-store"], "x");
    // An Amazons board without queens is a legal position: nobody moves.
    let v = json(&["value", "amazons", "...|...", "--json", "--no-store"]);
    assert_eq!(v["value"], "0");
}

#[test]
fn unknown_ruleset_is_named() {
    fails(
        &["value", "chess", "...", "--no-store"],
        "unknown ruleset 'chess'",
    );
    fails(&["graph", "go", "..."], "unknown ruleset 'go'");
}

#[test]
fn census_json_totals_match_the_essays() {
    let v = json(&["census", "domineering", "--max-cells", "8", "--json"]);
    let t = &v["totals"];
    assert_eq!(t["shapes"], 1042);
    assert_eq!(t["numbers"], 315);
    assert_eq!(t["exact"], 141);
    assert_eq!(t["contained"], 209);
    assert_eq!(t["points"], 505);
    assert_eq!(t["hot"], 727);
    assert_eq!(t["count_between_stops"], 619);
    assert_eq!(t["interval_meets_stops"], 661);
    assert!(v["by_size"].is_array() || v["by_size"].is_object());
}

#[test]
fn census_analyses_json() {
    let v = json(&[
        "census",
        "domineering",
        "--max-cells",
        "8",
        "--analyses",
        "--json",
    ]);
    let a = &v["analyses"];
    assert_eq!(a["seventy"]["shapes"], 70);
    assert_eq!(a["seventy"]["caught"], 26);
    assert_eq!(a["count_zero_largest"]["shapes"], 80);
    assert_eq!(a["count_zero_largest"]["exact"], 16);
    assert_eq!(a["shading"]["unshaded_exact"], 141);
    let v = json(&["census", "cram", "--max-cells", "8", "--analyses", "--json"]);
    assert_eq!(v["analyses"]["totals"]["shapes"], 533);
}

#[test]
fn census_csv_is_written_whole() {
    let dir = std::env::temp_dir().join(format!("partizan-cli-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("shapes.csv");
    let out = run(&[
        "census",
        "domineering",
        "--max-cells",
        "5",
        "--csv",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        text.lines().count(),
        1 + 1 + 2 + 3 + 9 + 21,
        "header + one row per shape"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temporary file left behind");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn census_bad_input_is_named() {
    fails(&["census", "domineering", "--max-cells", "0"], "max");
    fails(&["census", "domineering", "--max-cells", "99"], "99");
    fails(
        &["census", "chess", "--max-cells", "4"],
        "unknown ruleset 'chess'",
    );
    fails(
        &[
            "census",
            "domineering",
            "--max-cells",
            "4",
            "--csv",
            "/nonexistent-dir/x.csv",
        ],
        "/nonexistent-dir",
    );
}

#[test]
fn semigroup_counts_json() {
    let v = json(&["semigroups", "count", "--max-genus", "10", "--json"]);
    let want = [1, 1, 2, 4, 7, 12, 23, 39, 67, 118, 204];
    let got: Vec<u64> = v["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(got, want);
}

#[test]
fn sylver_census_json_by_genus() {
    let v = json(&["sylver", "census", "--max-gaps", "16", "--json"]);
    let by_genus = v["by_genus"].as_array().expect("by_genus is a list");
    let total: u64 = by_genus
        .iter()
        .map(|g| g["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(total, 583);
    let at16 = by_genus
        .iter()
        .find(|g| g["min_gaps"] == 16)
        .expect("genus 16");
    assert_eq!(at16["finishing_median_closures"].as_f64().unwrap(), 269.0);
}

#[test]
fn sylver_play_and_its_errors() {
    let v = json(&["sylver", "play", "5,7", "--json"]);
    assert!(v["remoteness"].as_u64().is_some());
    let v = json(&["sylver", "play", "--gaps", "1,2,3", "--json"]);
    assert!(v["remoteness"].as_u64().is_some());
    fails(&["sylver", "play", "4,6"], "common divisor");
    fails(&["sylver", "play", "0,3"], "0");
    fails(&["sylver", "play", "-3,5"], "-3");
    fails(&["sylver", "play", "x,5"], "x");
    fails(&["semigroups", "count", "--max-genus", "99"], "99");
}

#[test]
fn game_notation_canonicalises_and_adds() {
    let v = json(&["game", "{1|-1}", "--json"]);
    assert_eq!(v["value"], "±1");
    let v = json(&["game", "^", "^*", "--json"]);
    assert_eq!(v["value"], "^^*");
    let v = json(&["game", "{2|0||-1}", "-3/2", "--json"]);
    assert_eq!(v["outcome"], "R");
    fails(&["game", "{1|-1"], "at byte 0");
    fails(&["game", "1/3"], "1/3");
}

#[test]
fn registry_lists_every_ruleset_and_regions_check() {
    let v = json(&["rulesets", "--json"]);
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    for n in ["domineering", "cram", "clobber", "konane", "amazons"] {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    let v = json(&["check-regions", "domineering", "..#..|..#..", "--json"]);
    assert_eq!(v["regions"], 2);
    assert_eq!(v["sound"], true);
    assert_eq!(v["complete"], true);
    assert!(v["moves"].as_u64().unwrap() > 0);
    // Kōnane's relation keeps the cautionary board whole.
    let v = json(&["check-regions", "konane", ".xo.|.ox.|.xo.", "--json"]);
    assert_eq!(v["regions"], 1);
    fails(
        &["check-regions", "chess", "..."],
        "unknown ruleset 'chess'",
    );
}

#[test]
fn no_subcommand_prints_the_commands() {
    let out = support::output(&mut support::partizan());
    let text =
        String::from_utf8_lossy(&out.stderr).to_string() + &String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Usage"), "{text}");
    for cmd in ["value", "census", "rulesets", "serve"] {
        assert!(text.contains(cmd), "{cmd} not listed: {text}");
    }
}

#[test]
fn game_accepts_flags_after_values() {
    let v = json(&["game", "^", "*", "--no-store", "--json"]);
    assert_eq!(v["value"], "^*");
    fails(&["game", "1", "--bogus"], "unknown flag '--bogus'");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    for args in [
        &["semigroups", "count", "--max-genus", "25", "--json"][..],
        &["census", "domineering", "--max-cells", "8"][..],
        &["graph", "domineering", "....|....|....", "--json"][..],
    ] {
        let mut child = support::partizan()
            .args(args)
            .arg("--no-store")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 10];
        let mut stdout = child.stdout.take().unwrap();
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {err}");
    }
}

#[test]
fn a_memory_budget_stops_long_work_saying_how_far() {
    fails(
        &[
            "graph",
            "domineering",
            ".....|.....|.....|.....",
            "--max-memory",
            "1M",
        ],
        "memory budget of 1 MB reached",
    );
    fails(
        &[
            "value",
            "domineering",
            ".....|.....|.....|.....|.....",
            "--no-store",
            "--max-memory",
            "1M",
        ],
        "regions searched",
    );
    fails(
        &["value", "domineering", "..", "--max-memory", "lots"],
        "not a size",
    );
    // Within the budget the answer comes out as before.
    let v = json(&[
        "graph",
        "domineering",
        "....|....|....|....",
        "--max-memory",
        "2G",
        "--json",
    ]);
    assert_eq!(v["positions"], 5700);
}

#[cfg(unix)]
#[test]
fn csv_never_replaces_a_link_or_a_device() {
    let dir = std::env::temp_dir().join(format!("partizan-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("target.txt");
    std::fs::write(&target, "keep me").unwrap();
    let link = dir.join("link.csv");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let l = link.to_str().unwrap();
    fails(
        &["census", "domineering", "--max-cells", "4", "--csv", l],
        "not a regular file",
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me");
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    fails(
        &[
            "census",
            "domineering",
            "--max-cells",
            "4",
            "--csv",
            "/dev/null",
        ],
        "not a regular file",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn finding_the_parts_table_and_playouts() {
    let v = json(&[
        "parts",
        "domineering",
        ".....|.....|.....|.....",
        ".#...|..#..|..#..|..#..",
        "..#..|..#..|..#..|..#..",
        "--json",
    ]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows[0]["whole"], 58830);
    assert_eq!(rows[0]["saved"], 0);
    assert_eq!(rows[1]["whole"], 2187);
    assert_eq!(rows[1]["sum"], 108);
    assert_eq!(rows[1]["saved_per_square"], 103.95);
    assert_eq!(rows[2]["product"], 2916);
    assert_eq!(rows[2]["squares"], 20);
    let v = json(&[
        "parts",
        "domineering",
        "..|..|..",
        "--wall-positions",
        "--json",
    ]);
    assert_eq!(v["rows"].as_array().unwrap().len(), 2 + 3);
    let v = json(&[
        "parts",
        "domineering",
        "....|....|....",
        "--playouts",
        "100",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(v["by_depth"]["0"]["positions"], 100);
    assert!(v["time_ratio"].as_f64().unwrap() > 0.0);
    fails(
        &["parts", "domineering", "..", "--playouts", "0"],
        "--playouts takes",
    );
}

#[test]
fn sylver_trace_remoteness_and_reverse_scored() {
    let v = json(&[
        "sylver",
        "trace",
        "1,2,3,4,5,6,7,8,10,11,13,14,16,19,28",
        "--json",
    ]);
    assert_eq!(v["depth"], 7);
    assert_eq!(v["proved"], true);
    let twice = v["asked_repeatedly"].as_array().unwrap();
    assert!(
        twice
            .iter()
            .any(|p| p["position"] == serde_json::json!([1, 2, 3, 4, 7, 8])
                || p["position"] == "1,2,3,4,7,8"),
        "{twice:?}"
    );
    let v = json(&[
        "sylver",
        "census",
        "--max-gaps",
        "10",
        "--remoteness",
        "--json",
    ]);
    assert!(v["totals"]["remoteness"]["median_ratio"].as_f64().unwrap() > 0.0);
    let v = json(&[
        "sylver",
        "census",
        "--max-gaps",
        "10",
        "--order",
        "reverse-scored",
        "--json",
    ]);
    assert_eq!(v["order"], "reverse-scored");
    fails(&["sylver", "trace", "1"], "lost for the player to move");
    fails(
        &[
            "sylver",
            "census",
            "--max-gaps",
            "10",
            "--order",
            "sideways",
        ],
        "reverse-scored",
    );
}

#[test]
fn options_and_size_aware_printing() {
    let v = json(&["options", "domineering", "...|...", "--json"]);
    assert_eq!(v["value"]["value"], "{2|-1/2}");
    assert_eq!(v["left"].as_array().unwrap().len(), 3);
    assert!(v["right"]
        .as_array()
        .unwrap()
        .iter()
        .any(|o| o["value"] == "-1/2" && o["canonical"] == true));
    fails(&["options", "domineering", "..|."], "ragged");
    // A long form is summarised unless asked for; --out writes it whole.
    let dir = std::env::temp_dir().join(format!("partizan-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("form.txt");
    let o = run(&[
        "value",
        "clobber",
        "xoxo|oxox|xoxo",
        "--no-store",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    let full = std::fs::read_to_string(&out).unwrap();
    if full.trim().len() > 2000 {
        assert!(text.starts_with("(a canonical form of"), "{text}");
    } else {
        assert_eq!(text.trim(), full.trim());
    }
    let o = run(&["value", "clobber", "xoxo|oxox|xoxo", "--no-store", "--full"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), full.trim());
    let v = json(&[
        "value",
        "domineering",
        "....|....|....|....",
        "--json",
        "--no-store",
    ]);
    assert!(v["size"]["subpositions"].as_u64().unwrap() > 3);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sums_across_rulesets_in_game_and_analyse() {
    let v = json(&[
        "game",
        "clobber:xo.ox + domineering:..|.. + 3/2 + *",
        "--json",
    ]);
    let w = json(&[
        "game",
        "clobber:xo.ox",
        "domineering:..|..",
        "3/2",
        "*",
        "--json",
    ]);
    assert_eq!(v["value"], w["value"]);
    let v = json(&["game", "domineering:..|.. + -{1|-1}", "--json"]);
    assert_eq!(v["value"], "0");
    let o = run(&["compare", "domineering:..|..", "{1|-1}"]);
    assert!(o.status.success());
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "=");
    fails(&["game", "clobber:xq"], "bad clobber board");
}

#[test]
fn graph_rulesets_and_the_empty_region_census() {
    let v = json(&[
        "value",
        "hackenbush-graph",
        "g-1:b,1-2:r",
        "--json",
        "--no-store",
    ]);
    assert_eq!(v["value"], "1/2");
    let v = json(&["value", "col-graph", "1-2", "--json", "--no-store"]);
    assert_eq!(v["value"], "0");
    fails(
        &["value", "hackenbush-graph", "g-1:b,2-3:r", "--no-store"],
        "not connected to the ground at item 2",
    );
    fails(&["value", "snort-graph", "1-2,2-x", "--no-store"], "item 2");
    let v = json(&["census", "snort", "--max-cells", "4", "--json"]);
    assert_eq!(v["total"]["shapes"], 9);
    assert_eq!(v["by_size"][1]["hot"], 1);
    fails(
        &["census", "snort-graph", "--max-cells", "4"],
        "not empty grid shapes",
    );
}
