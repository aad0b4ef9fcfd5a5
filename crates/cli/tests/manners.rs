//! The command line's manners: clap's "did you mean" kept, completions and
//! the man page, `--help` grouped, examples on `value --help`, errors as
//! JSON objects under `--json`, an undecided search's own exit code,
//! `compare --exit-status`, `rulesets` aligned, `--version` with the
//! commit, and `game -- --1`.

use std::process::{Command, Output, Stdio};

fn partizan() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_partizan"));
    c.env(
        "PARTIZAN_STORE",
        std::env::temp_dir().join(format!("partizan-manners-{}.redb", std::process::id())),
    );
    c
}

fn run(args: &[&str]) -> Output {
    partizan().args(args).output().expect("binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).to_string()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// A command that succeeds; its standard output.
fn ok(args: &[&str]) -> String {
    let out = run(args);
    assert!(out.status.success(), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn a_mistyped_command_or_flag_gets_clap_s_suggestion_in_one_line() {
    let out = run(&["vlaue", "domineering", ".."]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(
        err.starts_with("error: unrecognized subcommand 'vlaue'"),
        "{err}"
    );
    assert!(err.contains("'value'"), "the suggestion is kept: {err}");
    let out = run(&["value", "domineering", "..", "--jsno"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains("'--json'"), "{err}");
}

#[test]
fn bash_completion_loads_and_knows_the_commands() {
    let script = ok(&["completions", "bash"]);
    assert!(script.contains("outcome") && script.contains("--max-seconds"));
    // Bash itself reads the script and registers the completion.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("partizan.bash");
    std::fs::write(&file, &script).unwrap();
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source '{}' && complete -p partizan",
            file.display()
        ))
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("partizan"), "{}", stdout(&out));
    // And it completes: the words after `partizan ou` are `outcome`.
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source '{}'; COMP_WORDS=(partizan ou); COMP_CWORD=1; COMP_LINE='partizan ou'; \
             COMP_POINT=${{#COMP_LINE}}; _partizan partizan ou partizan; echo \"${{COMPREPLY[@]}}\"",
            file.display()
        ))
        .output()
        .expect("bash runs");
    assert_eq!(stdout(&out).trim(), "outcome", "{}", stderr(&out));
}

#[test]
fn zsh_and_fish_completions_name_every_command() {
    let zsh = ok(&["completions", "zsh"]);
    assert!(zsh.starts_with("#compdef partizan"), "{zsh:.80}");
    let fish = ok(&["completions", "fish"]);
    for cmd in ["value", "outcome", "census", "serve", "completions"] {
        assert!(zsh.contains(&format!("'{cmd}:")), "zsh lacks {cmd}");
        assert!(fish.contains(&format!("-a \"{cmd}\"")), "fish lacks {cmd}");
    }
    assert!(fish.contains("complete -c partizan"));
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2), "an unknown shell is bad input");
}

#[test]
fn the_man_page_is_roff_that_renders() {
    let page = ok(&["man"]);
    assert!(page.contains(".TH partizan 1"), "{page:.200}");
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH SUBCOMMANDS", ".SH VERSION"] {
        assert!(page.contains(section), "{section} missing");
    }
    assert!(page.contains("partizan\\-outcome"), "commands listed");
    let one = ok(&["man", "outcome"]);
    assert!(one.contains(".TH partizan-outcome 1"), "{one:.200}");
    assert!(one.contains("max\\-seconds"));
    let out = run(&["man", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no command 'nope'"));
    // nroff (groff), where installed, typesets it.
    if let Ok(mut child) = Command::new("nroff")
        .arg("-man")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(page.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let text = stdout(&out).replace('\u{8}', "");
        assert!(out.status.success());
        assert!(!stderr(&out).contains("warning"), "{}", stderr(&out));
        assert!(text.contains("SYNOPSIS") || text.contains("SSYYNNOOPPSSIISS"));
    }
}

#[test]
fn help_lists_the_commands_in_groups() {
    let help = ok(&["--help"]);
    let headings = [
        "Values (CGSuite notation):",
        "Boards:",
        "Search (who wins):",
        "Censuses:",
        "Store:",
        "Site:",
    ];
    let mut at = 0;
    for h in headings {
        let i = help[at..]
            .find(h)
            .unwrap_or_else(|| panic!("{h} missing or out of order:\n{help}"));
        at += i;
    }
    // Each command listed once, under its group.
    let group_of = |cmd: &str| {
        let line = help
            .lines()
            .position(|l| l.split_whitespace().next() == Some(cmd) && l.starts_with("  "))
            .unwrap_or_else(|| panic!("{cmd} not listed:\n{help}"));
        help.lines()
            .take(line)
            .filter(|l| l.ends_with(':') && !l.starts_with(' '))
            .last()
            .unwrap()
            .to_string()
    };
    assert_eq!(group_of("analyse"), "Values (CGSuite notation):");
    assert_eq!(group_of("value"), "Boards:");
    assert_eq!(group_of("outcome"), "Search (who wins):");
    assert_eq!(group_of("census"), "Censuses:");
    assert_eq!(group_of("store"), "Store:");
    assert_eq!(group_of("serve"), "Site:");
    assert!(!help.contains("\nCommands:"), "the flat list is gone");
    assert!(help.contains("Exit codes:"));
}

#[test]
fn value_help_has_examples_that_run() {
    let help = ok(&["value", "--help"]);
    let examples = help
        .split("Examples:")
        .nth(1)
        .expect("an Examples: section");
    let first = examples
        .lines()
        .find(|l| l.trim_start().starts_with("partizan value"))
        .expect("an example");
    // The first example runs and prints what its comment says.
    let (cmd, says) = first.split_once('#').unwrap();
    assert!(
        cmd.contains("partizan value domineering '...|...'"),
        "{cmd}"
    );
    assert_eq!(
        ok(&["value", "domineering", "...|...", "--no-store"]).trim(),
        says.trim()
    );
}

#[test]
fn json_errors_are_objects_on_standard_output() {
    for args in [
        &["value", "domineering", "..|.", "--json"][..],
        &["--json", "value", "chess", ".."][..],
        &["vlaue", "--json"][..],
        &["game", "{1|", "--json"][..],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(stderr(&out), "", "{args:?}: nothing on stderr");
        let v: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert!(v["error"].as_str().is_some_and(|s| !s.is_empty()), "{v}");
        assert_eq!(v["exit_code"], 2);
        assert!(v["kind"] == "usage" || v["kind"] == "error", "{v}");
    }
    let out = run(&["vlaue", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["kind"], "usage");
    assert!(v["error"].as_str().unwrap().contains("'value'"));
    // Without --json the error stays one line on stderr.
    let out = run(&["value", "domineering", "..|."]);
    assert_eq!(stdout(&out), "");
    assert!(stderr(&out).starts_with("error: "));
}

#[test]
fn a_search_its_budget_stops_is_undecided_with_exit_code_3() {
    let eight = ["........"; 8].join("|");
    let args = [
        "outcome",
        "domineering",
        &eight,
        "--max-nodes",
        "1000",
        "--no-store",
        "--json",
    ];
    let out = run(&args);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["decided"], false);
    assert!(v["outcome"].is_null());
    assert_eq!(v["ruleset"], "domineering");
    assert_eq!(v["board"], eight.as_str());
    assert_eq!(v["nodes"], 1000);
    assert!(v["reason"].as_str().unwrap().contains("node budget"));
    // A decided search says so.
    let v: serde_json::Value = serde_json::from_str(&ok(&[
        "outcome",
        "domineering",
        "...|...",
        "--no-store",
        "--json",
    ]))
    .unwrap();
    assert_eq!((&v["decided"], &v["outcome"]), (&true.into(), &"N".into()));
}

#[test]
fn compare_exit_status_tells_the_order() {
    for (g, h, sym, code) in [
        ("{1|0} + ^", "{1|0} + ^", "=", 0),
        ("0", "1", "<", 4),
        ("^", "0", ">", 5),
        ("*", "0", "||", 6),
    ] {
        let out = run(&["compare", g, h, "--exit-status"]);
        assert_eq!(out.status.code(), Some(code), "{g} vs {h}");
        assert_eq!(stdout(&out).trim(), sym);
        // Without the flag, exit 0 whatever the order.
        assert_eq!(run(&["compare", g, h]).status.code(), Some(0));
    }
    let out = run(&["compare", "{1|", "0", "--exit-status"]);
    assert_eq!(out.status.code(), Some(2), "bad input stays 2");
}

#[test]
fn rulesets_are_listed_in_aligned_columns() {
    let text = ok(&["rulesets"]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 32, "{text}");
    // Every description starts in one column, after the longest name.
    let column = |l: &str| {
        let name_end = l.find(' ').unwrap_or(0);
        name_end + l[name_end..].len() - l[name_end..].trim_start().len()
    };
    let col = column(lines[0]);
    for (k, l) in lines.iter().enumerate() {
        let c = if k % 2 == 0 {
            column(l)
        } else {
            l.len() - l.trim_start().len()
        };
        assert_eq!(c, col, "line {}: {l}", k + 1);
    }
    assert!(text.contains("toads-and-frogs  "), "{text}");
}

#[test]
fn version_names_the_commit() {
    let v = ok(&["--version"]);
    assert!(
        v.starts_with(concat!("partizan ", env!("CARGO_PKG_VERSION"), " (")),
        "{v}"
    );
    let git = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    match git {
        Ok(g) if g.status.success() => {
            let head = String::from_utf8_lossy(&g.stdout).trim().to_string();
            let hash = v
                .trim()
                .strip_suffix(')')
                .and_then(|s| s.rsplit_once("commit "))
                .map(|(_, h)| h.to_string())
                .unwrap_or_else(|| panic!("no commit in {v}"));
            assert!(hash.len() >= 7 && head.starts_with(&hash), "{v} vs {head}");
        }
        _ => assert!(v.contains("unknown commit"), "{v}"),
    }
}

#[test]
fn a_value_after_double_dash_may_start_with_dashes() {
    assert_eq!(ok(&["game", "--", "--1"]).trim(), "1");
    assert_eq!(ok(&["game", "--", "-1", "--1/2"]).trim(), "-1/2");
    assert!(ok(&["game", "--json", "--", "--1"]).contains("\"value\": \"1\""));
}

/// The README's first screen says what partizan computes in three lines,
/// each with an example whose printed answer is what it says.
#[test]
fn the_readme_s_three_lines_are_true() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md");
    // The first command lines stay the site and the test suite.
    let first: Vec<&str> = readme
        .lines()
        .filter(|l| l.starts_with("cargo ") || l.starts_with("partizan "))
        .take(2)
        .collect();
    assert!(
        first[0].starts_with("cargo run --release -- serve"),
        "{first:?}"
    );
    assert!(first[1].starts_with("cargo test --workspace"), "{first:?}");
    let head: Vec<&str> = readme.lines().take(20).collect();
    let mut seen = Vec::new();
    for what in ["**Values**", "**Thermographs**", "**Who wins**"] {
        let line = head
            .iter()
            .find(|l| l.starts_with(&format!("- {what}")))
            .unwrap_or_else(|| panic!("{what} is not on the first screen"));
        // `partizan ...` prints `ANSWER`
        let (before, after) = line.split_once("` prints `").expect("an example");
        let command = &before[before.rfind('`').unwrap() + 1..];
        let answer = &after[..after.find('`').unwrap()];
        let words = shell_words(
            command
                .strip_prefix("partizan ")
                .expect("a partizan command"),
        );
        let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
        args.push("--no-store");
        let out = ok(&args);
        assert_eq!(out.lines().next(), Some(answer), "{command}");
        seen.push(what);
    }
    assert_eq!(seen.len(), 3);
}

/// Words of a command line, with single-quoted words kept whole.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}
