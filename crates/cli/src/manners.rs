//! The command line's manners: `--help` grouped by what a command works
//! on, shell completions and the man page (clap_complete, clap_mangen),
//! usage errors that keep clap's "did you mean", errors as JSON objects
//! under `--json`, the exit codes, and `--version` with the commit.

use std::io::Write as _;

use clap::{Args, Command};
use serde_json::json;

/// `partizan --version`: the package version and the commit it was built
/// from (`build.rs`; "unknown commit" outside a git checkout).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("PARTIZAN_COMMIT"),
    ")"
);

/// The exit codes, one meaning each (listed under `partizan --help`).
pub mod code {
    /// Bad input or any other failure: the one-line error says which.
    pub const BAD_INPUT: u8 = 2;
    /// A search stopped by its budget (`--max-seconds`, `--max-nodes`)
    /// before deciding: nothing is claimed (`"decided": false`).
    pub const UNDECIDED: u8 = 3;
    /// `compare --exit-status`: G < H.
    pub const LESS: u8 = 4;
    /// `compare --exit-status`: G > H.
    pub const GREATER: u8 = 5;
    /// `compare --exit-status`: G || H (confused).
    pub const CONFUSED: u8 = 6;
    /// A result written but not whole (`store export` leaving damaged
    /// rows out); the one-line error says what is missing.
    pub const PARTIAL: u8 = 7;
}

/// A finished command that asks for an exit code other than 0, having
/// printed its answer already (an undecided search, `compare
/// --exit-status`). `main` exits with the code and prints nothing more.
#[derive(Debug)]
pub struct Exit(pub u8);

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "exit code {}", self.0)
    }
}

impl std::error::Error for Exit {}

/// What `partizan --help` says after the commands and options.
const AFTER_HELP: &str = "Exit codes: 0 done (and `compare --exit-status`: equal); 2 bad input or \
another failure, with a one-line error; 3 a search stopped by its budget (--max-seconds, \
--max-nodes) before deciding, answered \"decided\": false; `compare --exit-status`: 4 less, \
5 greater, 6 confused; 7 a result written but not whole (store export leaving \
damaged rows out).\nWith --json, an error is a JSON object {\"error\", \"kind\", \
\"exit_code\"} on standard output (nothing on standard error), so a script reads one stream; \
on standard error when standard output carries a certificate (--certificate -).";

/// The commands by what they work on: (heading, command names).
const GROUPS: &[(&str, &[&str])] = &[
    (
        "Values (CGSuite notation)",
        &["game", "compare", "analyse", "loopy"],
    ),
    (
        "Boards",
        &[
            "value",
            "options",
            "draw",
            "graph",
            "decompose",
            "parts",
            "check-regions",
            "rulesets",
        ],
    ),
    ("Search (who wins)", &["outcome", "check", "job-worker"]),
    (
        "Censuses",
        &["census", "atlas", "semigroups", "sylver", "grundy"],
    ),
    ("Store", &["store"]),
    ("Site", &["serve"]),
    ("Shell", &["completions", "man", "help"]),
];

/// The commands listed under [`GROUPS`]' headings, aligned, each with its
/// one-line description; a command no group names goes under "Other".
fn grouped_commands(cmd: &Command) -> String {
    let subs: Vec<(String, String)> = cmd
        .get_subcommands()
        .map(|s| {
            let about = s.get_about().map(|a| a.to_string()).unwrap_or_default();
            (s.get_name().to_string(), about)
        })
        .chain(
            // clap adds `help` when the help is built; list it anyway.
            (!cmd.get_subcommands().any(|s| s.get_name() == "help")).then(|| {
                (
                    "help".to_string(),
                    "Print this message or the help of the given subcommand(s)".to_string(),
                )
            }),
        )
        .collect();
    let width = subs.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let line = |name: &str, about: &str| format!("  {name:<width$}  {about}\n");
    let mut out = String::new();
    let mut listed: Vec<&str> = Vec::new();
    for (heading, names) in GROUPS {
        let mut block = String::new();
        for name in *names {
            if let Some((n, about)) = subs.iter().find(|(n, _)| n == name) {
                block.push_str(&line(n, about));
                listed.push(n);
            }
        }
        if !block.is_empty() {
            out.push_str(&format!("{heading}:\n{block}\n"));
        }
    }
    let others: String = subs
        .iter()
        .filter(|(n, _)| !listed.contains(&n.as_str()))
        .map(|(n, about)| line(n, about))
        .collect();
    if !others.is_empty() {
        out.push_str(&format!("Other:\n{others}\n"));
    }
    out
}

/// The top-level command with its grouped help, its exit codes and the
/// version with the commit.
pub fn command(cmd: Command) -> Command {
    let groups = grouped_commands(&cmd);
    // The template is literal text apart from clap's {tags}: braces in the
    // descriptions must not read as tags.
    let groups = groups.replace('{', "{{").replace('}', "}}");
    let template = format!(
        "{{before-help}}{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{groups}Options:\n{{options}}{{after-help}}"
    );
    cmd.version(VERSION)
        .help_template(template)
        .after_help(AFTER_HELP)
}

/// Arguments of `partizan completions`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  partizan completions bash > ~/.local/share/bash-completion/completions/partizan\n  \
partizan completions zsh > ~/.zfunc/_partizan\n  \
partizan completions fish > ~/.config/fish/completions/partizan.fish"
)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh or fish (also elvish, powershell).
    pub shell: clap_complete::Shell,
}

/// `partizan completions SHELL`: the completion script on standard output.
pub fn completions(args: CompletionsArgs, cmd: &mut Command) -> anyhow::Result<()> {
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, cmd, "partizan", &mut buf);
    print!("{}", String::from_utf8_lossy(&buf));
    Ok(())
}

/// Arguments of `partizan man`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  partizan man | man -l -\n  partizan man outcome > partizan-outcome.1"
)]
pub struct ManArgs {
    /// A command whose own page to write (default: the page of partizan
    /// itself, which lists every command).
    pub command: Option<String>,
}

/// `partizan man [COMMAND]`: the man page (roff) on standard output.
pub fn man(args: ManArgs, cmd: Command) -> anyhow::Result<()> {
    let mut cmd = cmd;
    cmd.build();
    let page = match &args.command {
        None => cmd,
        Some(name) => {
            let names: Vec<String> = cmd
                .get_subcommands()
                .map(|s| s.get_name().to_string())
                .collect();
            let Some(sub) = cmd.find_subcommand(name).cloned() else {
                anyhow::bail!("no command '{name}' (commands: {})", names.join(", "));
            };
            // The page is titled partizan-NAME (a one-shot command: the
            // name may live until the process ends).
            let title: &'static str = Box::leak(format!("partizan-{name}").into_boxed_str());
            sub.name(title).version(VERSION).display_name(title)
        }
    };
    let mut buf = Vec::new();
    clap_mangen::Man::new(page).render(&mut buf)?;
    print!("{}", String::from_utf8_lossy(&buf));
    Ok(())
}

/// Whether the raw arguments ask for `--json` (before any `--`), for the
/// errors clap raises before the flags are read.
pub fn json_asked() -> bool {
    std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

/// A clap usage error as one line: its first line, with clap's tip ("a
/// similar subcommand exists: 'value'") kept, and the names a "...were not
/// provided:" line announces.
pub fn usage_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut lines = text.lines();
    let mut first = lines
        .next()
        .unwrap_or("error: bad arguments")
        .trim_start_matches("error: ")
        .to_string();
    let rest: Vec<&str> = lines.collect();
    if first.ends_with(':') {
        // "...were not provided:" and the names below it.
        let names: Vec<&str> = rest
            .iter()
            .take_while(|l| !l.trim().is_empty())
            .map(|l| l.trim())
            .collect();
        first = format!("{first} {}", names.join(", "));
    }
    let tips: Vec<&str> = rest
        .iter()
        .map(|l| l.trim())
        .filter_map(|l| l.strip_prefix("tip: "))
        .collect();
    if tips.is_empty() {
        format!("{first} (see --help)")
    } else {
        format!("{first}; {} (see --help)", tips.join("; "))
    }
}

/// Whether standard output carries a certificate (`--certificate -`):
/// then even a JSON error goes to standard error, as the report does.
fn stdout_taken() -> bool {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    args.windows(2)
        .any(|w| w[0] == "--certificate" && w[1] == "-")
        || args.iter().any(|a| a == "--certificate=-")
}

/// Report an error the way the arguments ask: a JSON object on standard
/// output under `--json` (on standard error when standard output carries
/// a certificate), else `error: LINE` on standard error.
pub fn report_error(json: bool, kind: &str, line: &str, code: u8) {
    if json {
        let v = json!({"error": line, "kind": kind, "exit_code": code});
        let text = serde_json::to_string_pretty(&v).unwrap_or_default();
        if stdout_taken() {
            eprintln!("{text}");
            return;
        }
        let mut o = std::io::stdout().lock();
        // A closed pipe has no reader to tell; the exit code still says it.
        let _ = writeln!(o, "{text}");
        let _ = o.flush();
    } else {
        eprintln!("error: {line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cli() -> Command {
        use clap::CommandFactory;
        command(crate::Cli::command())
    }

    #[test]
    fn every_command_is_in_a_group() {
        let cmd = cli();
        let grouped: Vec<&str> = GROUPS.iter().flat_map(|(_, n)| n.iter().copied()).collect();
        for s in cmd.get_subcommands() {
            assert!(
                grouped.contains(&s.get_name()),
                "`{}` is in no group of --help",
                s.get_name()
            );
        }
        assert!(!grouped_commands(&cmd).contains("Other:"));
    }

    #[test]
    fn the_command_is_well_formed() {
        cli().debug_assert();
    }
}
