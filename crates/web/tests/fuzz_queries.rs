//! Fuzz target (issue 38): the site's query strings, through the router
//! (tower's `oneshot`, no socket), on every page and API route. A
//! proptest-driven corpus run with a fixed seed and a fixed number of
//! cases, so it runs in `cargo test`: each case is a path and a query of
//! parameters the pages read (and strangers), with values drawn from
//! rulesets, boards, notations, numbers at and past every limit, raw and
//! percent-encoded bytes, repeated keys and very long values, or a query
//! of raw bytes. Each case asserts:
//!
//! * no panic and no 500: an answer (2xx, or a redirect), or a refusal (400, 404, 405) or
//!   "try again" (503) naming the problem;
//! * an answer within the site's budget (plus [`GRACE`]);
//! * the security headers on every answer.
//!
//! The long run, with the case count from `PARTIZAN_FUZZ_CASES`:
//!
//! ```sh
//! PARTIZAN_FUZZ_CASES=20000 cargo test --release -p partizan-web --test all fuzz_queries:: -- --ignored
//! ```

use crate::support;

use std::time::{Duration, Instant};

use partizan_census::atlas::{Atlas, AtlasConfig};
use partizan_census::DirStore;
use partizan_fuzzkit::{long_run_cases, run};
use partizan_web::{router, AppState, Limits};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Cases of the run in `cargo test`.
const CASES: u32 = 1500;
/// A request's budget (small, so that a heavy request is cut short).
const BUDGET: Duration = Duration::from_millis(300);
/// Time past the budget a request may take (the blocking pool's start, the
/// rendering, a loaded machine).
const GRACE: Duration = Duration::from_secs(20);

const PATHS: &[&str] = &[
    "/",
    "/api",
    "/api/health",
    "/api/value",
    "/api/graph",
    "/api/options",
    "/api/thermograph",
    "/api/game",
    "/api/job",
    "/api/outcome",
    "/grundy",
    "/api/grundy",
    "/atlas",
    "/api/atlas",
    "/parts",
    "/api/parts",
    "/sylver/trace",
    "/api/sylver/trace",
    "/outcome",
    "/api/job/cancel",
    "/explore",
    "/census",
    "/census/domineering",
    "/census/cram",
    "/census/snort",
    "/census/nosuch",
    "/api/census/domineering",
    "/api/census/col",
    "/semigroups",
    "/sylver",
    "/sylver/position",
    "/api/sylver/play",
    "/api/sylver/census",
    "/api/semigroups",
    "/api/explore",
    "/static/app.js",
    "/nosuch",
];

const KEYS: &[&str] = &[
    "ruleset",
    "board",
    "value",
    "game",
    "graph",
    "heaps",
    "up_to",
    "search",
    "max_cells",
    "rectangles",
    "depth",
    "play",
    "order",
    "min_temperature",
    "max_gaps",
    "kind",
    "first",
    "boards",
    "size",
    "overlay",
    "nimber",
    "max_genus",
    "generators",
    "format",
    "decompose",
    "wall_positions",
    "values",
    "table_mb",
    "right",
    "query",
    "one_row_down",
    "no_symmetry",
    "moves",
    "mode",
    "max_nodes",
    "limit",
    "kayles",
    "first_moves",
    "filter",
    "gaps",
    "text",
    "max_seconds",
    "misere",
    "id",
    "t",
    "",
    "board[]",
];

const VALUES: &[&str] = &[
    "domineering",
    "cram",
    "clobber",
    "konane",
    "amazons",
    "toads",
    "snort",
    "col",
    "nogo",
    "hackenbush-graph",
    "snort-graph",
    "col-graph",
    "nosuch",
    "...|...",
    "....|....|....",
    "xoxo|oxox",
    "T.TFTFF",
    "1-2,2-3,3-1",
    "g-1:b,1-2:r",
    "#",
    "",
    " ",
    "0",
    "1",
    "-1",
    "2",
    "16",
    "18",
    "64",
    "129",
    "1000",
    "100000",
    "99999999999",
    "18446744073709551616",
    "1e300",
    "NaN",
    "-0",
    "0.5",
    "*",
    "^",
    "{1|-1}",
    "{2|0||-1}",
    "Tiny(200000)",
    "^4096",
    "*1024",
    "2-8x2-8",
    "99999999999x2",
    "1-40x1-40",
    "0.07",
    "kayles",
    "path:10",
    "path:99999999999",
    "star:18446744073709551615",
    "sub:1,2,5",
    "allbut:1",
    "3,5,7",
    "1,2,3,4,5,6,7,8,10,11",
    "5,7",
    "left",
    "right",
    "both",
    "svg",
    "tikz",
    "json",
    "on",
    "off",
    "true",
    "%FF",
    "%C3%28",
    "%00",
    "%",
    "%%",
    "+",
    "&",
    "=",
    "<script>",
    "\"'><img src=x>",
    "ü",
    "⇑",
    "\u{202e}",
];

/// One request: a path and its query string.
fn request() -> impl Strategy<Value = String> {
    let pair = (
        prop::sample::select(KEYS),
        prop_oneof![
            4 => prop::sample::select(VALUES).prop_map(str::to_string),
            1 => "[ -~]{0,40}",
            1 => prop::collection::vec(any::<u8>(), 0..30).prop_map(|b| {
                b.iter().map(|x| format!("%{x:02X}")).collect::<String>()
            }),
            1 => (prop::sample::select(VALUES), 1usize..2000).prop_map(|(v, n)| v.repeat(n).chars().take(8000).collect()),
        ],
    );
    prop_oneof![
        6 => (prop::sample::select(PATHS), prop::collection::vec(pair, 0..6)).prop_map(
            |(path, pairs)| {
                let q: Vec<String> = pairs
                    .into_iter()
                    .map(|(k, v)| format!("{k}={}", encode(&v)))
                    .collect();
                format!("{path}?{}", q.join("&"))
            }
        ),
        1 => (prop::sample::select(PATHS), "[ -~]{0,80}").prop_map(|(path, q)| {
            // whatever a URI can carry, as it came
            let q: String = q.chars().filter(|c| !matches!(c, ' ' | '#' | '"' | '<' | '>' | '\\' | '^' | '`' | '{' | '|' | '}')).collect();
            format!("{path}?{q}")
        }),
    ]
}

/// Percent-encode what a URI cannot carry as it is (a value that already
/// holds `%XX` escapes keeps them: they are the raw bytes under test).
fn encode(v: &str) -> String {
    let mut out = String::new();
    for b in v.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'~'
            | b'%'
            | b'*'
            | b','
            | b':'
            | b'!'
            | b'('
            | b')'
            | b'+' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn fuzz(cases: u32) -> (u32, [u32; 6]) {
    let atlas = tempfile::tempdir().unwrap();
    Atlas::build(&AtlasConfig::new(6), &mut DirStore::new(atlas.path())).unwrap();
    let limits = Limits {
        budget: BUDGET,
        background_budget: Duration::from_secs(1),
        queue_wait: Duration::from_millis(100),
        max_census_cells: 8,
        max_genus: 16,
        max_sylver_gaps: 16,
        max_sylver_census_gaps: 10,
        ..Limits::default()
    };
    let app = router(AppState::build_with_atlas(
        limits,
        None,
        Some(atlas.path().to_path_buf()),
    ));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // answers by class: 2xx or a redirect, 400, 404, 405, 503, other
    let mut by_class = [0u32; 6];
    let seen = run(0x5EED_5173, cases, &request(), |uri| {
        let Ok(parsed) = uri.parse::<axum::http::Uri>() else {
            // not a URI at all: the front door's (tests/front_door.rs)
            return Ok(());
        };
        let started = Instant::now();
        let reply = rt.block_on(async {
            tokio::time::timeout(
                BUDGET + GRACE,
                support::router::get(&app, &parsed.to_string()),
            )
            .await
        });
        let Ok(reply) = reply else {
            return Err(TestCaseError::fail(format!(
                "{uri}: no answer in {:?}",
                BUDGET + GRACE
            )));
        };
        let code = reply.status.as_u16();
        let class = match code {
            200..=399 => 0,
            400 => 1,
            404 => 2,
            405 => 3,
            503 => 4,
            _ => 5,
        };
        by_class[class] += 1;
        if class == 5 {
            return Err(TestCaseError::fail(format!(
                "{uri}: {code} after {:?}: {}",
                started.elapsed(),
                reply.body.chars().take(300).collect::<String>()
            )));
        }
        if reply.header("x-content-type-options") != "nosniff"
            || !reply
                .header("content-security-policy")
                .starts_with("default-src 'none'")
        {
            return Err(TestCaseError::fail(format!("{uri}: no security headers")));
        }
        Ok(())
    });
    // stop the background job a slow request may have started
    rt.block_on(support::router::get(&app, "/api/job/cancel"));
    let c = by_class;
    eprintln!(
        "fuzz_queries: {seen} cases: {} answered, {} refused (400), {} not found, {} wrong method, {} try again (503)",
        c[0],
        c[1],
        c[2],
        c[3],
        c[4]
    );
    (seen, c)
}

#[test]
fn query_strings_never_crash_a_page() {
    let (cases, by_class) = fuzz(CASES);
    assert_eq!(cases, CASES);
    // the generator reaches both answers and refusals
    assert!(by_class[0] > 0 && by_class[1] > 0, "{by_class:?}");
}

/// The long run: `PARTIZAN_FUZZ_CASES` cases (default 20,000).
#[test]
#[ignore = "long fuzz run: PARTIZAN_FUZZ_CASES=N cargo test --release -p partizan-web --test all fuzz_queries:: -- --ignored"]
fn query_strings_long_run() {
    fuzz(long_run_cases(20_000));
}
