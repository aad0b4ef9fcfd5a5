//! `partizan compare` and `partizan analyse` end to end: symbols, JSON
//! fields, size-aware printing, and one-line errors with exit code 2.

use std::process::Output;

use crate::support;

fn run(args: &[&str]) -> Output {
    support::output(support::partizan().args(args).arg("--no-store"))
}

/// Standard output without its trailing newline.
fn stdout(args: &[&str]) -> String {
    support::stdout_of(args, &run(args)).trim_end().to_string()
}

fn json(args: &[&str]) -> serde_json::Value {
    support::json_of(args, &run(args))
}

/// A failing command: exit code 2 and one line on stderr naming `needle`
/// (under `--json`, a JSON object on stdout).
fn fails(args: &[&str], needle: &str) {
    support::assert_fails(args, &run(args), needle);
}

#[test]
fn compare_prints_the_four_symbols() {
    assert_eq!(stdout(&["compare", "^", "0"]), ">");
    assert_eq!(stdout(&["compare", "v", "0"]), "<");
    assert_eq!(stdout(&["compare", "{1|-1}", "±1"]), "=");
    assert_eq!(stdout(&["compare", "^", "*"]), "||");
    // negative values and infix expressions
    assert_eq!(stdout(&["compare", "-1", "{1|0} + ^ - *2"]), "<");
    assert_eq!(stdout(&["compare", "^^*", "Tiny(1)"]), ">");
    let v = json(&["compare", "*", "0", "--json"]);
    assert_eq!(v["comparison"], "||");
    assert_eq!(v["g"], "*");
}

#[test]
fn analyse_reports_everything() {
    let v = json(&["analyse", "{2|-1/2}", "--json"]);
    assert_eq!(v["value"], "{2|-1/2}");
    assert_eq!(v["mean"], "3/4");
    assert_eq!(v["temperature"], "5/4");
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["atomic_weight"], serde_json::Value::Null);
    assert!(v["atomic_weight_error"]
        .as_str()
        .unwrap()
        .contains("infinitesimal"));
    assert_eq!(v["reduced_canonical_form"], "{2|-1/2}");
    assert_eq!(v["size"]["characters"], 8);
    assert_eq!(
        v["thermograph"]["cgsuite"],
        "Thermograph(3/4,[5/4],[0,-1],3/4,[5/4,-1/2],[0,1,0])"
    );
    assert_eq!(v["thermograph"]["left_wall"][0][0], "-1");
    let v = json(&["analyse", "^^*", "--json"]);
    assert_eq!(v["atomic_weight"], "2");
    assert_eq!(v["two_ahead"]["left_wins"], true);
    assert_eq!(v["left_incentives"][0], "vv*");
    let text = stdout(&["analyse", "{3||2*|1*}"]);
    assert!(text.contains("reduced canonical form: {3||2|1}"), "{text}");
    assert!(text.contains("atomic weight: undefined"), "{text}");
}

#[test]
fn analyse_single_operations() {
    assert_eq!(stdout(&["analyse", "{^3|vv}", "--atomic-weight"]), "{1|0}");
    assert_eq!(stdout(&["analyse", "--atomic-weight", "^", "^"]), "2");
    assert_eq!(stdout(&["analyse", "{2|-1/2}", "--cool", "1"]), "{1|1/2}");
    assert_eq!(stdout(&["analyse", "{2|-1/2}", "--freeze"]), "3/4*");
    assert_eq!(stdout(&["analyse", "{1|-1}", "--cool=-1/2"]), "±3/2");
    assert_eq!(stdout(&["analyse", "±1", "--heat", "1"]), "±2");
    assert_eq!(
        stdout(&["analyse", "{1|0}", "--overheat", "1", "1"]),
        "{2|-1}"
    );
    assert_eq!(
        stdout(&["analyse", "{2|0||0}", "--latex", "--reduced"]),
        "reduced canonical form: 0\ninfinitesimal part: {-_{2}}"
    );
    assert_eq!(
        stdout(&["analyse", "{3|1||0}", "--latex", "--reduced"]),
        "reduced canonical form: \\{3 \\mid 1 \\,\\|\\, 0\\}\ninfinitesimal part: 0"
    );
    // orthodox play drops Left's move to {2|0}: her move to 1 is never worse
    assert_eq!(stdout(&["analyse", "{{2|0},1|-1}", "--orthodox"]), "±1");
    let v = json(&["analyse", "{{2|0},1|-1}", "--json"]);
    assert_eq!(v["orthodox_form"], "±1");
    let v = json(&["analyse", "{2|0}", "--thermograph", "--json"]);
    assert_eq!(v["left_wall"][1], serde_json::json!(["1", "1"]));
}

#[test]
fn big_values_are_summarised() {
    let out = stdout(&["analyse", "{2|-1/2}", "--limit", "3"]);
    assert!(out.contains("value: <8 characters"), "{out}");
    assert!(out.contains("use --full or --out FILE"), "{out}");
    let out = stdout(&["analyse", "{2|-1/2}", "--limit", "3", "--full"]);
    assert!(out.contains("value: {2|-1/2}"), "{out}");
    let v = json(&["analyse", "{2|-1/2}", "--limit", "3", "--json"]);
    assert_eq!(v["value"], serde_json::Value::Null);
    assert_eq!(v["size"]["characters"], 8);
    let file = std::env::temp_dir().join(format!("partizan-toolkit-{}.txt", std::process::id()));
    let path = file.to_string_lossy().to_string();
    stdout(&["analyse", "{2|-1/2}", "--limit", "3", "--out", &path]);
    assert_eq!(std::fs::read_to_string(&file).unwrap().trim(), "{2|-1/2}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn bad_input_is_one_line_exit_2() {
    fails(&["compare", "{1|", "0"], "bad value notation");
    fails(&["analyse", "2", "--atomic-weight"], "infinitesimal");
    fails(&["analyse", "{1|^^^||^}", "--atomic-weight"], "not atomic");
    fails(
        &["analyse", "{2|-1}", "--cool", "-1"],
        "above temperature -1",
    );
    fails(&["analyse", "{2|-1}", "--cool", "x"], "dyadic number");
    fails(&["analyse", "{2|-1}", "--bogus"], "unknown option");
    fails(&["analyse", "Tiny("], "bad value notation");
}

/// The SVG parses as XML with an `<svg>` root.
fn svg_doc(text: &str) -> roxmltree::Document<'_> {
    let doc = roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc
}

#[test]
fn thermographs_are_drawn_as_svg_and_tikz() {
    // {3|-1}: mean 1, temperature 2; the left wall runs from (t, x) =
    // (-1, 4) to the mast at (2, 1), the right wall from (-1, -2)
    let svg = stdout(&["analyse", "{3|-1}", "--thermograph", "--format", "svg"]);
    let doc = svg_doc(&svg);
    assert!(doc
        .descendants()
        .any(|n| n.attribute("class") == Some("mast")));
    assert!(svg.contains("(-1, 4) (2, 1)"), "{svg}");
    let tikz = stdout(&["analyse", "{3|-1}", "--format=tikz"]);
    assert!(tikz.contains("\\begin{tikzpicture}") && tikz.ends_with("\\end{tikzpicture}"));
    assert!(
        tikz.contains("% left wall (temperature, value): (-1, 4) (2, 1)"),
        "{tikz}"
    );
    assert!(tikz.contains("(-1, -2) (2, 1)"), "{tikz}");
    // a board's value: Domineering ...|... = {2|-1/2}, mean 3/4, temperature 5/4
    let tikz = stdout(&[
        "value",
        "domineering",
        "...|...",
        "--thermograph",
        "--format",
        "tikz",
    ]);
    assert!(tikz.contains("mean 3/4, temperature 5/4"), "{tikz}");
    let walls = stdout(&["value", "domineering", "...|...", "--thermograph"]);
    assert!(walls.starts_with("left wall: (-1, 3)"), "{walls}");
    let svg = stdout(&[
        "draw",
        "domineering",
        "...|...",
        "--thermograph",
        "--format",
        "svg",
    ]);
    assert!(
        svg_doc(&svg)
            .descendants()
            .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("wall")))
            .count()
            == 2
    );
}

#[test]
fn boards_are_drawn_as_svg_and_tikz() {
    let svg = stdout(&["draw", "domineering", "...|..#"]);
    let doc = svg_doc(&svg);
    assert_eq!(
        doc.descendants()
            .filter(|n| n.attribute("data-cell").is_some())
            .count(),
        6
    );
    let svg = stdout(&["draw", "clobber", "xo|ox", "--format", "svg"]);
    assert_eq!(
        svg_doc(&svg)
            .descendants()
            .filter(|n| n.has_tag_name("circle"))
            .count(),
        4
    );
    let tikz = stdout(&["draw", "amazons", "L..|..R", "--format", "tikz"]);
    assert!(tikz.contains("\\begin{tikzpicture}"));
    // six squares and the bounding box
    assert_eq!(tikz.matches("rectangle").count(), 7, "{tikz}");
    fails(&["draw", "clobber", "xq"], "clobber");
    fails(
        &["draw", "domineering", "..", "--format", "png"],
        "svg or tikz",
    );
    fails(&["analyse", "^", "--format", "pdf"], "svg or tikz");
    fails(
        &["analyse", "^", "--format", "svg", "--json"],
        "--format draws",
    );
    fails(
        &["value", "domineering", "..", "--format", "png"],
        "svg or tikz",
    );
}

#[test]
fn loopy_values() {
    // CGSuite's CanonicalStopperTestCase: {pass|} is on; over is idempotent.
    let text = stdout(&["loopy", "{pass|}"]);
    assert!(text.contains("simplest form on"), "{text}");
    let v = json(&["loopy", "{0|pass}", "{0|pass}", "--json"]);
    assert_eq!(v["form"], "over");
    assert_eq!(v["stopper"], true);
    // Comparison of stoppers: over is positive and below every positive number.
    let text = stdout(&["loopy", "over", "--compare", "1/64"]);
    assert!(text.contains("over < 1/64"), "{text}");
    let v = json(&["loopy", "over", "--compare=0", "--json"]);
    assert_eq!(v["compared"][1], ">");
    // dud: a draw either way, not a stopper (SidedValueTestCase).
    let v = json(&["loopy", "dud", "--json"]);
    assert_eq!(v["outcome"], "D");
    assert_eq!(v["stopper"], false);
    assert_eq!(v["sides"][0], "on");
    assert_eq!(v["sides"][1], "off");
    let text = stdout(&["loopy", "tis"]);
    assert!(text.contains("1 & 0"), "{text}");
    // A short game keeps its canonical form.
    let v = json(&["loopy", "{1|1}", "--json"]);
    assert_eq!(v["form"], "1*");
    fails(&["loopy", "{pass|"], "unclosed");
    fails(&["loopy", "a"], "unknown name");
    fails(&["loopy", "dud", "--compare", "0"], "not a stopper");
    fails(&["loopy", "over", "--compare"], "needs a value");
    fails(&["loopy", "on + on", "--max-positions", "x"], "not a count");
}

#[test]
fn loopy_rulesets_through_value_and_outcome() {
    // A Fox and Geese board: the geese trap the fox; its value is a stopper.
    let text = stdout(&["value", "fox-and-geese", ".F..|....|....|G.G."]);
    assert!(text.contains("simplest form over"), "{text}");
    assert!(text.contains("stops: Left 0, Right 0"), "{text}");
    assert!(text.contains("strongly connected parts"), "{text}");
    let v = json(&["outcome", "fox-and-geese", ".F..|....|....|G.G.", "--json"]);
    assert_eq!(v["outcome"], "L");
    assert_eq!(v["form"], serde_json::Value::Null);
    // Backsliding Toads and Frogs: not a stopper; sides by sidling.
    let v = json(&["value", "btf", "T..F", "--json"]);
    assert_eq!(v["stopper"], false);
    assert_eq!(v["sides"], serde_json::json!(["*", "*"]));
    let list = stdout(&["rulesets"]);
    assert!(
        list.contains("fox-and-geese") && list.contains("backsliding-toads"),
        "{list}"
    );
    let v = json(&["rulesets", "--json"]);
    let loopy: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["loopy"] == true)
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(loopy, ["fox-and-geese", "backsliding-toads"]);
    fails(&["value", "fox-and-geese", "F|G|F"], "more than one fox");
    fails(&["value", "fox-and-geese", ".F|G.", "--misere"], "is loopy");
    fails(&["outcome", "btf", "T.F", "--certificate", "x"], "is loopy");
    fails(&["options", "btf", "T.F"], "loopy ruleset");
    fails(&["value", "backsliding-toads", "T?F"], "unknown character");
}
