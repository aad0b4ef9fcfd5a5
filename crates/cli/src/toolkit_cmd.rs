//! `partizan compare G H` and `partizan analyse VALUE...`: the everyday
//! operations of the subject on values written in CGSuite notation.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Args;
use partizan_core::thermo::Trajectory;
use partizan_core::{Arena, Dyadic, GameId};
use partizan_report::picture::{self, Format};
use partizan_report::MAX_VALUE_TEXT;
use serde_json::{json, Map, Value};

/// Arguments of `partizan compare`.
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  partizan compare '{1|0} + ^' '^'          # >\n  \
partizan compare '*' 0 --exit-status && echo equal   # exit 6: confused\n  \
partizan compare 'clobber:xo.ox' '{1|-1}'"
)]
pub struct CompareArgs {
    /// The first value, in CGSuite notation (`{1|0} + ^`, `±1`, `Tiny(2)`).
    #[arg(allow_hyphen_values = true)]
    pub g: String,
    /// The second value.
    #[arg(allow_hyphen_values = true)]
    pub h: String,
    /// Say the answer by the exit code too, for scripts: 0 for =, 4 for <,
    /// 5 for >, 6 for || (2 stays bad input).
    #[arg(long)]
    pub exit_status: bool,
}

/// `partizan compare G H`: prints `<`, `>`, `=` or `||` (confused), exit 0
/// (with `--exit-status`, the exit code says which).
pub fn compare(args: CompareArgs, json_out: bool) -> Result<()> {
    let mut a = Arena::new();
    let g = parse(&mut a, &args.g, "G")?;
    let h = parse(&mut a, &args.h, "H")?;
    let c = a.compare(g, h);
    if json_out {
        let out = json!({
            "g": a.display(g),
            "h": a.display(h),
            "comparison": c.symbol(),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!("{c}");
    }
    use crate::manners::{code, Exit};
    use partizan_core::Comparison;
    match c {
        _ if !args.exit_status => Ok(()),
        Comparison::Equal => Ok(()),
        Comparison::Less => Err(Exit(code::LESS).into()),
        Comparison::Greater => Err(Exit(code::GREATER).into()),
        Comparison::Confused => Err(Exit(code::CONFUSED).into()),
    }
}

/// Values longer than this are summarised unless `--full`.
const DEFAULT_LIMIT: usize = 2000;

/// Arguments of `partizan analyse`.
///
/// With no operation flag it prints everything: the value (or, above
/// `--limit` characters, its size), outcome, stops, mean, temperature,
/// atomic weight, reduced canonical form, infinitesimal part, orthodox
/// form, options, incentives and thermograph. With operation flags it prints only those,
/// and an operation undefined on the value is an error (exit 2).
#[derive(Args, Debug)]
#[command(
    after_help = "With no operation flag, prints everything: the value (or, above --limit \
characters, its size), outcome, stops, mean, temperature, atomic weight and what the two-ahead \
rule says, reduced canonical form, infinitesimal part, orthodox form, options, incentives, thermograph walls \
as breakpoints (temperature, value). With operation flags (--atomic-weight, --reduced, \
--thermograph, --cool, --heat, --overheat, --freeze, --orthodox, --incentives) it prints only those, and an operation \
undefined on the value (atomic weight of a non-atomic game, cooling at -1 or below) is a \
one-line error, exit 2. --format svg|tikz draws the thermograph as a picture instead (to \
stdout), its walls' exact breakpoints in a comment.\n\nExamples:\n  partizan analyse '{3||2*|1*}'\n  partizan analyse '^^*' --atomic-weight\n  \
partizan analyse '{2|-1/2}' --cool 1 --freeze --json\n  partizan analyse '{1|0} + ^ - *2' --latex\n  \
partizan analyse '{3||2*|1*}' --thermograph --format svg > t.svg"
)]
pub struct AnalyseArgs {
    /// Values in CGSuite notation; several are added together.
    #[arg(required = true, allow_hyphen_values = true)]
    pub values: Vec<String>,
    /// Only the atomic weight (an error if the value is not atomic).
    #[arg(long)]
    pub atomic_weight: bool,
    /// Only the reduced canonical form (and the infinitesimal part).
    #[arg(long)]
    pub reduced: bool,
    /// Only the thermograph: each wall's breakpoints (temperature, value).
    #[arg(long)]
    pub thermograph: bool,
    /// Only the value cooled by T (a number above -1), G_T.
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    pub cool: Option<String>,
    /// Only the value heated by T (any value), ∫^T G.
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    pub heat: Option<String>,
    /// Only the value overheated from S to T, ∫^T_S G.
    #[arg(long, num_args = 2, value_names = ["S", "T"], allow_hyphen_values = true)]
    pub overheat: Option<Vec<String>>,
    /// Only the value frozen (cooled by its own temperature).
    #[arg(long)]
    pub freeze: bool,
    /// Only an orthodox form: the same thermograph, each player keeping
    /// only the options some temperature makes best.
    #[arg(long)]
    pub orthodox: bool,
    /// Only the incentives (each a difference of two games this large: slow
    /// for forms of thousands of subpositions).
    #[arg(long)]
    pub incentives: bool,
    /// Print values in LaTeX math notation.
    #[arg(long)]
    pub latex: bool,
    /// Print every value in full, however long.
    #[arg(long)]
    pub full: bool,
    /// Write the full value to FILE (the terminal gets the summary).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Values longer than this many characters are summarised, not printed.
    #[arg(long, default_value_t = DEFAULT_LIMIT, value_name = "CHARS")]
    pub limit: usize,
    /// Draw the thermograph as a picture instead: svg or tikz (to stdout;
    /// `> t.svg`). The walls' exact breakpoints are written in a comment.
    #[arg(long, value_name = "svg|tikz")]
    pub format: Option<String>,
    /// Misère play instead: the values read as game trees, exactly as
    /// written (braces are not simplified under normal play; `1`, `*2`,
    /// `1/2` stand for their normal-play trees, `-x` swaps the players),
    /// and their sum's misère canonical form in the universe of all games,
    /// among dicots when it is one, and its genus when it is impartial.
    #[arg(long)]
    pub misere: bool,
}

impl AnalyseArgs {
    /// Whether any operation other than the thermograph was asked for, or
    /// LaTeX, or a file.
    fn operations(&self) -> bool {
        self.atomic_weight
            || self.reduced
            || self.cool.is_some()
            || self.heat.is_some()
            || self.overheat.is_some()
            || self.freeze
            || self.orthodox
            || self.incentives
            || self.latex
            || self.out.is_some()
    }
}

/// A picture format named on the command line.
fn format_of(text: &str) -> Result<Format> {
    text.parse::<Format>().map_err(|e| anyhow::anyhow!("{e}"))
}

/// The thermograph of `g` as a picture file's text.
pub fn thermograph_picture(a: &mut Arena, g: GameId, title: &str, format: &str) -> Result<String> {
    let format = format_of(format)?;
    let th = a.thermograph(g)?;
    Ok(picture::pick(
        picture::thermograph(&th, "thermograph", title, 480.0),
        format,
    ))
}

/// A title for a picture: the value's notation, or its size when long.
fn title_of(a: &mut Arena, g: GameId) -> String {
    if a.display_len(g) <= 60 {
        a.display(g)
    } else {
        let s = a.size_summary(g);
        format!(
            "a value of {} characters, birthday {}",
            s.printed_len, s.birthday
        )
    }
}

/// `partizan value RULESET BOARD --thermograph [--format svg|tikz]`: the
/// thermograph of a board's value (`value`, its canonical form) as wall
/// breakpoints, or drawn.
pub fn value_thermograph(value: &str, format: Option<&str>, json_out: bool) -> Result<()> {
    let mut a = Arena::new();
    let g = a
        .parse(value)
        .context("the board's value did not read back")?;
    match format {
        Some(f) => {
            let title = title_of(&mut a, g);
            print!("{}", thermograph_picture(&mut a, g, &title, f)?);
        }
        None => {
            let th = a.thermograph(g)?;
            if json_out {
                println!("{}", serde_json::to_string_pretty(&thermograph_json(&th))?);
            } else {
                println!("left wall: {}", wall_text(&th.left));
                println!("right wall: {}", wall_text(&th.right));
            }
        }
    }
    Ok(())
}

/// Arguments of `partizan draw`.
#[derive(Args, Debug)]
#[command(
    after_help = "Pictures go to stdout, as SVG (the default) or TikZ:\n  \
partizan draw domineering '...|...' > board.svg\n  \
partizan draw clobber 'xox|ox.' --format tikz > board.tex\n  \
partizan draw amazons 'L...|...R' --thermograph --format svg > thermograph.svg\n  \
partizan draw snort-graph '1-2,2-3,3-1,3:l' > graph.svg\n\
Graph rulesets (snort-graph, col-graph, hackenbush-graph) are drawn as graphs.\n\
The site draws boards and thermographs with the same code."
)]
pub struct DrawArgs {
    /// Ruleset (see `partizan rulesets`).
    pub ruleset: String,
    /// Board text: rows separated by '|' or newlines.
    pub board: String,
    /// Draw the thermograph of the board's value instead of the board.
    #[arg(long)]
    pub thermograph: bool,
    /// svg or tikz.
    #[arg(long, default_value = "svg", value_name = "svg|tikz")]
    pub format: String,
}

/// `partizan draw RULESET BOARD`: the board (or its thermograph) as SVG or TikZ.
pub fn draw(args: DrawArgs) -> Result<()> {
    let rules = crate::rulesets::rules(&args.ruleset)?;
    let format = format_of(&args.format)?;
    if args.thermograph {
        let mut a = Arena::new();
        let g =
            partizan_report::term_value(&mut a, &format!("{}:{}", rules.name(), args.board), 1)?;
        let title = format!("{} {}", rules.name(), args.board.replace('\n', "|"));
        print!("{}", thermograph_picture(&mut a, g, &title, &args.format)?);
        return Ok(());
    }
    let p = picture::position_picture(rules, &args.board, "board")?;
    print!("{}", picture::pick(p, format));
    Ok(())
}

/// A value in notation, or a board written `RULESET:BOARD`, or a sum of
/// such pieces joined by ` + ` (see `partizan_report::term_value`).
fn parse(a: &mut Arena, text: &str, what: &str) -> Result<GameId> {
    if text.contains(':') {
        return partizan_report::term_value(a, text, 1).with_context(|| format!("in {what}"));
    }
    a.parse(text)
        .with_context(|| format!("bad value notation in {what} '{text}'"))
}

fn dyadic(text: &str, what: &str) -> Result<Dyadic> {
    text.trim()
        .parse::<Dyadic>()
        .with_context(|| format!("{what} must be a dyadic number such as 1 or -1/2, not '{text}'"))
}

/// Prints values within the size limit.
struct Shower {
    latex: bool,
    full: bool,
    limit: usize,
}

impl Shower {
    /// The value's text, or `None` when it is over the limit.
    fn text(&self, a: &mut Arena, g: GameId) -> Option<String> {
        let len = a.display_len(g);
        if (!self.full && len > self.limit) || len > MAX_VALUE_TEXT {
            return None;
        }
        Some(if self.latex {
            a.display_latex(g)
        } else {
            a.display(g)
        })
    }

    fn show(&self, a: &mut Arena, g: GameId) -> String {
        match self.text(a, g) {
            Some(t) => t,
            None => {
                let s = a.size_summary(g);
                let how = if s.printed_len > MAX_VALUE_TEXT {
                    "too long to print"
                } else {
                    "use --full or --out FILE"
                };
                format!(
                    "<{} characters: {} left and {} right options, {} subpositions, birthday {}; {how}>",
                    s.printed_len, s.left_options, s.right_options, s.subpositions, s.birthday
                )
            }
        }
    }

    fn json(&self, a: &mut Arena, g: GameId) -> Value {
        self.text(a, g).map_or(Value::Null, Value::String)
    }

    fn list(&self, a: &mut Arena, gs: &[GameId]) -> String {
        let v: Vec<String> = gs.iter().map(|&g| self.show(a, g)).collect();
        if v.is_empty() {
            "(none)".into()
        } else {
            v.join(", ")
        }
    }

    fn json_list(&self, a: &mut Arena, gs: &[GameId]) -> Value {
        Value::Array(gs.iter().map(|&g| self.json(a, g)).collect())
    }
}

fn wall_json(w: &Trajectory) -> Value {
    Value::Array(
        w.points()
            .iter()
            .map(|(t, x)| json!([t.to_string(), x.to_string()]))
            .collect(),
    )
}

/// A thermograph in JSON: both walls' breakpoints, mast, temperature and
/// CGSuite's `Thermograph(...)` text.
fn thermograph_json(th: &partizan_core::thermo::Thermograph) -> Value {
    json!({
        "left_wall": wall_json(&th.left),
        "right_wall": wall_json(&th.right),
        "mast": th.mast.to_string(),
        "temperature": th.temperature.to_string(),
        "cgsuite": th.cgsuite(),
    })
}

fn wall_text(w: &Trajectory) -> String {
    let v: Vec<String> = w
        .points()
        .iter()
        .map(|(t, x)| format!("({t}, {x})"))
        .collect();
    v.join(" ")
}

/// Re-reads flags that the hyphen-friendly value list swallowed (everything
/// after the first value lands in it): words `--name` are flags, with as
/// many following words as the flag takes.
fn reparse(args: AnalyseArgs) -> Result<(AnalyseArgs, bool)> {
    #[derive(clap::Parser, Debug)]
    #[command(name = "partizan analyse", no_binary_name = true)]
    struct Wrap {
        #[command(flatten)]
        a: AnalyseArgs,
        #[arg(long)]
        json: bool,
        /// the global store flags, accepted here and unused
        #[arg(long)]
        no_store: bool,
        #[arg(long)]
        store: Option<PathBuf>,
    }
    let is_flag =
        |w: &str| w.starts_with("--") && w[2..].starts_with(|c: char| c.is_ascii_alphabetic());
    if !args.values.iter().any(|w| is_flag(w)) {
        return Ok((args, false));
    }
    let mut flags: Vec<String> = Vec::new();
    let mut values: Vec<String> = Vec::new();
    let mut it = args.values.into_iter();
    while let Some(w) = it.next() {
        if is_flag(&w) {
            let name = w.split('=').next().unwrap_or_default().to_string();
            let takes = match name.as_str() {
                _ if w.contains('=') => 0,
                "--cool" | "--heat" | "--out" | "--limit" | "--store" | "--format" => 1,
                "--overheat" => 2,
                _ => 0,
            };
            flags.push(w);
            for _ in 0..takes {
                if let Some(v) = it.next() {
                    // keep hyphenated arguments attached to their flag
                    let last = flags.pop().unwrap_or_default();
                    flags.push(if takes == 1 {
                        format!("{last}={v}")
                    } else {
                        last
                    });
                    if takes == 2 {
                        flags.push(v);
                    }
                }
            }
        } else {
            values.push(w);
        }
    }
    // the flags given before the values still count
    let mut argv: Vec<String> = Vec::new();
    if args.atomic_weight {
        argv.push("--atomic-weight".into());
    }
    if args.reduced {
        argv.push("--reduced".into());
    }
    if args.thermograph {
        argv.push("--thermograph".into());
    }
    if args.freeze {
        argv.push("--freeze".into());
    }
    if args.misere {
        argv.push("--misere".into());
    }
    if args.orthodox {
        argv.push("--orthodox".into());
    }
    if args.incentives {
        argv.push("--incentives".into());
    }
    if args.latex {
        argv.push("--latex".into());
    }
    if args.full {
        argv.push("--full".into());
    }
    if let Some(t) = args.cool {
        argv.push(format!("--cool={t}"));
    }
    if let Some(t) = args.heat {
        argv.push(format!("--heat={t}"));
    }
    if let Some(st) = args.overheat {
        argv.push("--overheat".into());
        argv.extend(st);
    }
    if let Some(p) = args.out {
        argv.push(format!("--out={}", p.display()));
    }
    if args.limit != DEFAULT_LIMIT {
        argv.push(format!("--limit={}", args.limit));
    }
    if let Some(f) = args.format {
        argv.push(format!("--format={f}"));
    }
    argv.extend(flags);
    argv.push("--".into());
    argv.extend(values);
    let w = <Wrap as clap::Parser>::try_parse_from(argv).map_err(|e| {
        let text = e.render().to_string();
        anyhow::anyhow!(
            "{}",
            text.lines()
                .next()
                .unwrap_or("bad arguments")
                .trim_start_matches("error: ")
        )
    })?;
    Ok((w.a, w.json))
}

/// `partizan analyse VALUE...`.
pub fn analyse(args: AnalyseArgs, json_out: bool) -> Result<()> {
    let (args, json_late) = reparse(args)?;
    let json_out = json_out || json_late;
    if args.misere {
        if args.operations() || args.thermograph || args.format.is_some() {
            bail!("--misere gives the misère canonical forms alone: the normal-play operations (--reduced, --cool, --thermograph, ...) do not apply under misère play");
        }
        return crate::values::print_misere_game(&args.values, json_out);
    }
    let mut a = Arena::new();
    let mut g = a.zero();
    for (i, text) in args.values.iter().enumerate() {
        if text.starts_with("--") && text[2..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            bail!("unknown option '{text}' for analyse (see --help)");
        }
        let h = parse(&mut a, text, &format!("argument {}", i + 1))?;
        g = a.sum(g, h)?;
    }
    if let Some(f) = &args.format {
        if args.operations() || json_out {
            bail!("--format draws the thermograph alone: drop the other operations, --latex, --out and --json");
        }
        let title = title_of(&mut a, g);
        print!("{}", thermograph_picture(&mut a, g, &title, f)?);
        return Ok(());
    }
    let sh = Shower {
        latex: args.latex,
        full: args.full,
        limit: args.limit,
    };
    if let Some(path) = &args.out {
        let len = a.display_len(g);
        if len > MAX_VALUE_TEXT {
            bail!("--out: the value has {len} characters, more than the {MAX_VALUE_TEXT} that are written");
        }
        let text = if args.latex {
            a.display_latex(g)
        } else {
            a.display(g)
        };
        std::fs::write(path, text + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }

    // the operations asked for, in a fixed order: (name, text, json)
    let mut fields: Vec<(&str, String, Value)> = Vec::new();
    let only = args.atomic_weight
        || args.reduced
        || args.thermograph
        || args.cool.is_some()
        || args.heat.is_some()
        || args.overheat.is_some()
        || args.freeze
        || args.orthodox
        || args.incentives;

    if args.atomic_weight {
        let w = a.atomic_weight(g)?;
        let (t, j) = (sh.show(&mut a, w), sh.json(&mut a, w));
        fields.push(("atomic_weight", t, j));
    }
    if args.reduced {
        let r = a.reduced(g)?;
        let (t, j) = (sh.show(&mut a, r), sh.json(&mut a, r));
        fields.push(("reduced_canonical_form", t, j));
        let e = a.infinitesimal_part(g)?;
        let (t, j) = (sh.show(&mut a, e), sh.json(&mut a, e));
        fields.push(("infinitesimal_part", t, j));
    }
    if args.thermograph {
        let th = a.thermograph(g)?;
        fields.push(("left_wall", wall_text(&th.left), wall_json(&th.left)));
        fields.push(("right_wall", wall_text(&th.right), wall_json(&th.right)));
    }
    if let Some(t) = &args.cool {
        let t = dyadic(t, "the cooling temperature")?;
        let c = a.cool(g, t)?;
        let (s, j) = (sh.show(&mut a, c), sh.json(&mut a, c));
        fields.push(("cooled", s, j));
    }
    if let Some(t) = &args.heat {
        let t = parse(&mut a, t, "the heating temperature")?;
        let h = a.heat(g, t)?;
        let (s, j) = (sh.show(&mut a, h), sh.json(&mut a, h));
        fields.push(("heated", s, j));
    }
    if let Some(st) = &args.overheat {
        let (Some(s), Some(t)) = (st.first(), st.get(1)) else {
            bail!("--overheat takes two values, S and T");
        };
        let s = parse(&mut a, s, "the overheating base S")?;
        let t = parse(&mut a, t, "the overheating temperature T")?;
        let h = a.overheat(g, s, t)?;
        let (s, j) = (sh.show(&mut a, h), sh.json(&mut a, h));
        fields.push(("overheated", s, j));
    }
    if args.freeze {
        let f = a.freeze(g)?;
        let (s, j) = (sh.show(&mut a, f), sh.json(&mut a, f));
        fields.push(("frozen", s, j));
    }
    if args.orthodox {
        let o = a.orthodox_form(g)?;
        let (s, j) = (sh.show(&mut a, o), sh.json(&mut a, o));
        fields.push(("orthodox_form", s, j));
    }
    if args.incentives {
        let inc = a.incentives(g)?;
        let (s, j) = (sh.list(&mut a, &inc.left), sh.json_list(&mut a, &inc.left));
        fields.push(("left_incentives", s, j));
        let (s, j) = (
            sh.list(&mut a, &inc.right),
            sh.json_list(&mut a, &inc.right),
        );
        fields.push(("right_incentives", s, j));
    }

    if only {
        if json_out {
            let mut m = Map::new();
            m.insert("value".into(), sh.json(&mut a, g));
            for (k, _, v) in fields {
                m.insert(k.into(), v);
            }
            println!("{}", serde_json::to_string_pretty(&Value::Object(m))?);
        } else if fields.len() == 1 {
            println!("{}", fields[0].1);
        } else {
            for (k, t, _) in fields {
                println!("{}: {t}", k.replace('_', " "));
            }
        }
        return Ok(());
    }
    full_report(&mut a, g, &sh, json_out)
}

/// Everything about `g`, text or JSON.
fn full_report(a: &mut Arena, g: GameId, sh: &Shower, json_out: bool) -> Result<()> {
    let t = a.toolkit(g)?;
    let size = t.size;
    let outcome = t.outcome.to_string();
    let (ls, rs) = (t.left_stop, t.right_stop);
    let (mean, temp) = (t.mean, t.temperature);
    let aw = t.atomic_weight.clone();
    let two = t.two_ahead;
    let (rcf, inf) = (t.reduced, t.infinitesimal_part);
    let lo = a.left_options(g).to_vec();
    let ro = a.right_options(g).to_vec();
    let inc = t.incentives.clone();
    let skipped = format!(
        "(not computed: over {} subpositions; ask --incentives or --reduced)",
        partizan_core::toolkit::INCENTIVE_LIMIT
    );
    let th = t.thermograph.clone();
    if json_out {
        let (aw_v, aw_err) = match &aw {
            Ok(w) => (sh.json(a, *w), Value::Null),
            Err(e) => (Value::Null, Value::String(e.to_string())),
        };
        let out = json!({
            "value": sh.json(a, g),
            "size": {
                "left_options": size.left_options,
                "right_options": size.right_options,
                "subpositions": size.subpositions,
                "birthday": size.birthday,
                "characters": size.printed_len,
            },
            "outcome": outcome,
            "left_stop": ls.to_string(),
            "right_stop": rs.to_string(),
            "mean": mean.to_string(),
            "temperature": temp.to_string(),
            "is_infinitesimal": t.infinitesimal,
            "is_all_small": t.all_small,
            "frozen": sh.json(a, t.frozen),
            "orthodox_form": t.orthodox_form.map(|o| sh.json(a, o)),
            "atomic_weight": aw_v,
            "atomic_weight_error": aw_err,
            "two_ahead": two.map(|t| json!({
                "left_wins": t.left_wins,
                "left_wins_first": t.left_wins_first,
                "right_wins": t.right_wins,
                "right_wins_first": t.right_wins_first,
            })),
            "reduced_canonical_form": sh.json(a, rcf),
            "infinitesimal_part": inf.map(|e| sh.json(a, e)),
            "left_options": sh.json_list(a, &lo),
            "right_options": sh.json_list(a, &ro),
            "left_incentives": inc.as_ref().map(|i| sh.json_list(a, &i.left)),
            "right_incentives": inc.as_ref().map(|i| sh.json_list(a, &i.right)),
            "thermograph": thermograph_json(&th),
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(());
    }
    println!("value: {}", sh.show(a, g));
    println!(
        "size: {} left and {} right options, {} subpositions, birthday {}, {} characters",
        size.left_options, size.right_options, size.subpositions, size.birthday, size.printed_len
    );
    println!("outcome: {outcome}");
    println!("stops: left {ls}, right {rs}");
    println!("mean: {mean}");
    println!("temperature: {temp}");
    match &aw {
        Ok(w) => println!("atomic weight: {}", sh.show(a, *w)),
        Err(e) => println!("atomic weight: undefined ({e})"),
    }
    if let Some(t) = two {
        let says = match t.outcome() {
            Some(o) => format!("outcome {o}"),
            None if t.left_wins_first => "Left wins moving first".into(),
            None if t.right_wins_first => "Right wins moving first".into(),
            None => "nothing".into(),
        };
        println!("two-ahead rule: {says}");
    }
    println!("reduced canonical form: {}", sh.show(a, rcf));
    match inf {
        Some(e) => println!("infinitesimal part: {}", sh.show(a, e)),
        None => println!("infinitesimal part: {skipped}"),
    }
    println!("frozen: {}", sh.show(a, t.frozen));
    match t.orthodox_form {
        Some(o) => println!("orthodox form: {}", sh.show(a, o)),
        None => println!(
            "orthodox form: (not computed: over {} subpositions; ask --orthodox)",
            partizan_core::toolkit::INCENTIVE_LIMIT
        ),
    }
    println!("left options: {}", sh.list(a, &lo));
    println!("right options: {}", sh.list(a, &ro));
    match &inc {
        Some(i) => {
            println!("left incentives: {}", sh.list(a, &i.left));
            println!("right incentives: {}", sh.list(a, &i.right));
        }
        None => println!("incentives: {skipped}"),
    }
    println!("thermograph left wall: {}", wall_text(&th.left));
    println!("thermograph right wall: {}", wall_text(&th.right));
    Ok(())
}

/// Arguments of `partizan loopy`.
#[derive(clap::Args, Debug)]
pub struct LoopyArgs {
    /// Values in CGSuite's loopy notation, added together: `{pass|}` (on),
    /// `a{0|{*|a}}` (a labelled position its followers return to), `over`,
    /// `upon`, `dud`, `tis`, short values such as `1/2` or `^*`.
    #[arg(required = true, allow_hyphen_values = true)]
    pub values: Vec<String>,
    /// Compare with this value (both must be stoppers): >, <, = or ||.
    #[arg(long, value_name = "VALUE", allow_hyphen_values = true)]
    pub compare: Option<String>,
    /// Most positions a graph may have. A stopper's simplest form compares
    /// every pair of its positions: 1,250 positions took 2.8 s and 245 MB
    /// here, and time and memory grow with the square.
    #[arg(long, default_value_t = 1_000, value_name = "N")]
    pub max_positions: usize,
}

/// `partizan loopy VALUE...`.
pub fn loopy(args: LoopyArgs, long: &crate::Long, json_out: bool) -> Result<()> {
    // Values may start with '-', so flags after them arrive among them.
    let mut json_out = json_out;
    let mut compare = args.compare.clone();
    let mut max_positions = args.max_positions;
    let mut values = Vec::new();
    let mut it = args.values.iter();
    while let Some(v) = it.next() {
        let (name, inline) = match v.split_once('=') {
            Some((n, x)) if n.starts_with("--") => (n, Some(x.to_string())),
            _ => (v.as_str(), None),
        };
        let mut arg = |flag: &str| -> Result<String> {
            let next = || {
                it.next()
                    .filter(|w| {
                        !(w.starts_with("--")
                            && w[2..].starts_with(|c: char| c.is_ascii_alphabetic()))
                    })
                    .cloned()
            };
            inline
                .clone()
                .or_else(next)
                .ok_or_else(|| anyhow::anyhow!("{flag} needs a value"))
        };
        match name {
            "--json" => json_out = true,
            "--no-store" => {}
            "--compare" => compare = Some(arg("--compare")?),
            "--max-positions" => {
                let text = arg("--max-positions")?;
                max_positions = text
                    .parse()
                    .map_err(|_| anyhow::anyhow!("--max-positions: '{text}' is not a count"))?;
            }
            flag if flag.starts_with("--")
                && flag[2..].starts_with(|c: char| c.is_ascii_alphabetic()) =>
            {
                bail!("unknown flag '{flag}' for loopy (see --help)")
            }
            _ => values.push(v.clone()),
        }
    }
    // Time and memory shown on a terminal; past --max-memory, exit 2.
    let watch = long.watch("loopy", "", None);
    let report = partizan_report::loopy_value(&values, compare.as_deref(), max_positions)?;
    drop(watch);
    crate::print_report(&report, &report.text(), json_out)
}

/// `partizan value RULESET BOARD` and `partizan outcome RULESET BOARD` for
/// a loopy ruleset: the position graph explored, its outcome with draws,
/// and (not for `outcome`) the value, part by part, with progress shown
/// and the memory budget kept (`--max-memory`).
pub fn loopy_board(
    rules: partizan_loopy::LoopyRules,
    board: &str,
    only_outcome: bool,
    store: &crate::store_cmd::StoreChoice,
    long: &crate::Long,
    json_out: bool,
) -> Result<()> {
    // The value is kept in the store, and a stored one is checked against
    // the board's graph before it is believed.
    let (st, busy) = if only_outcome {
        (None, None)
    } else {
        store.open_unless_busy()?
    };
    if let Some(e) = busy {
        eprintln!("warning: {e}; running without the store");
    }
    let watch = long.watch(
        format!(
            "{} {}",
            if only_outcome { "outcome" } else { "value" },
            rules
        ),
        "",
        None,
    );
    let counter = watch.counter();
    // About 200 bytes a position explored (the graph and its index).
    let limits = partizan_report::BoardLimits {
        max_positions: usize::try_from(long.max_memory / 200)
            .unwrap_or(usize::MAX)
            .max(1_000),
        only_outcome,
        ..partizan_report::BoardLimits::default()
    };
    let mut progress = |stage: &str, done: usize, total: Option<usize>| {
        counter.note(match total {
            Some(t) => format!("{stage} {done}/{t}"),
            None => format!("{stage} {done}"),
        });
    };
    let report = partizan_report::loopy_board(rules, board, &limits, st.as_ref(), &mut progress)?;
    drop(watch);
    crate::print_report(&report, &report.text(), json_out)
}
