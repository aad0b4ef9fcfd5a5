//! The explorer's new answers and the site's safety: security headers on
//! every answer, no echoed value unescaped (a probe in every query
//! parameter of every page), JSON errors on every `/api/` path, the play
//! API, the store answering without a heavy-work slot, and no store path in
//! any answer.

use std::time::Duration;

use axum::http::StatusCode;
use axum::Router;
use partizan_web::{router, AppState, Limits};
use serde_json::Value;

use crate::support;
use support::router::get;

fn app() -> Router {
    router(AppState::new(Limits::default()))
}

/// Every page and API path with the query parameters it reads.
const PAGES: &[(&str, &[&str])] = &[
    ("/", &[]),
    ("/value", &["values"]),
    ("/api/analyse", &["values"]),
    ("/explore", &["ruleset", "board", "mode", "overlay"]),
    ("/census", &[]),
    ("/census/domineering", &["max_cells", "filter", "size"]),
    ("/census/cram", &["max_cells", "filter", "size"]),
    ("/semigroups", &["max_genus"]),
    ("/sylver", &["max_gaps"]),
    ("/sylver/position", &["gaps", "generators"]),
    ("/api", &[]),
    ("/api/health", &[]),
    (
        "/api/value",
        &["ruleset", "board", "decompose", "no_symmetry"],
    ),
    ("/api/graph", &["ruleset", "board"]),
    ("/api/explore", &["ruleset", "board"]),
    ("/api/options", &["ruleset", "board"]),
    (
        "/api/thermograph",
        &["ruleset", "board", "values", "format"],
    ),
    ("/api/game", &["values"]),
    ("/api/census/domineering", &["max_cells"]),
    ("/api/semigroups", &["max_genus"]),
    ("/api/sylver/play", &["gaps", "generators"]),
    ("/api/sylver/census", &["max_gaps"]),
    (
        "/outcome",
        &["ruleset", "board", "play", "max_nodes", "table_mb"],
    ),
    (
        "/api/outcome",
        &["ruleset", "board", "play", "max_nodes", "table_mb"],
    ),
    ("/loopy", &["values", "compare", "ruleset", "board"]),
    ("/api/loopy", &["values", "compare", "ruleset", "board"]),
    ("/grundy", &["game", "up_to", "search", "heaps", "misere"]),
    (
        "/api/grundy",
        &["game", "up_to", "search", "heaps", "misere"],
    ),
    (
        "/atlas",
        &["value", "kind", "min_temperature", "max_cells", "limit"],
    ),
    (
        "/parts",
        &["ruleset", "boards", "one_row_down", "wall_positions"],
    ),
    (
        "/api/parts",
        &["ruleset", "boards", "one_row_down", "wall_positions"],
    ),
    ("/sylver/trace", &["gaps", "generators", "depth", "order"]),
    ("/api/sylver/trace", &["gaps", "depth", "order"]),
];

/// Good values for the parameters a probe is not in, so that the probe
/// reaches the code that echoes it.
fn good(param: &str) -> &'static str {
    match param {
        "ruleset" => "domineering",
        "board" => "..%7C..",
        "max_cells" => "4",
        "max_genus" => "8",
        "max_gaps" => "6",
        "gaps" => "1,2,3",
        "values" => "1",
        "boards" => "..%7C..",
        "game" => "kayles",
        _ => "",
    }
}

#[tokio::test]
async fn a_script_probe_in_any_parameter_is_never_echoed_raw() {
    let app = app();
    let probe = "%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E"; // "><script>alert(1)</script>
    let mut checked = 0;
    for (path, params) in PAGES {
        let mut names: Vec<&str> = params.to_vec();
        names.push("unknown_param");
        for target in &names {
            let mut q: Vec<String> = params
                .iter()
                .filter(|p| p != &target)
                .filter(|p| !good(p).is_empty())
                .map(|p| format!("{p}={}", good(p)))
                .collect();
            q.push(format!("{target}={probe}"));
            let uri = format!("{path}?{}", q.join("&"));
            let r = get(&app, &uri).await;
            assert!(
                !r.body.contains("\"><script>") && !r.body.contains("<script>alert"),
                "{uri} echoes the probe raw:\n{}",
                r.body
            );
            // Only the site's own script tag, never an inline one.
            assert_eq!(
                r.body.matches("<script").count(),
                r.body
                    .matches("<script src=\"/static/app.js\" defer></script>")
                    .count(),
                "{uri}"
            );
            assert!(r.status != StatusCode::INTERNAL_SERVER_ERROR, "{uri}");
            checked += 1;
        }
    }
    assert!(checked > 50, "{checked} probes");
    // And in the path.
    let r = get(&app, "/census/%22%3E%3Cscript%3E").await;
    assert!(!r.body.contains("\"><script>"), "{}", r.body);
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let app = app();
    for uri in [
        "/",
        "/explore?ruleset=domineering&board=..|..",
        "/api/health",
        "/api/value?ruleset=domineering&board=..|..",
        "/api/value?ruleset=chess&board=..",
        "/no/such/page",
        "/api/no/such/endpoint",
        "/static/app.js",
    ] {
        let r = get(&app, uri).await;
        let csp = r.header("content-security-policy");
        assert!(csp.contains("script-src 'self'"), "{uri}: {csp}");
        assert!(
            !csp.contains("unsafe-inline'; img")
                || !csp.contains("script-src 'self' 'unsafe-inline'")
        );
        assert_eq!(r.header("x-content-type-options"), "nosniff", "{uri}");
        assert!(!r.header("referrer-policy").is_empty(), "{uri}");
    }
    let js = get(&app, "/static/app.js").await;
    assert_eq!(js.status, StatusCode::OK);
    assert!(js
        .header("content-type")
        .starts_with("application/javascript"));
    assert!(js.body.contains("table.sortable"));
}

#[tokio::test]
async fn unknown_api_paths_answer_json() {
    let app = app();
    for uri in ["/api/nope", "/api/value/extra", "/api/census"] {
        let r = get(&app, uri).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{uri}");
        assert!(
            r.header("content-type").starts_with("application/json"),
            "{uri}"
        );
        assert_eq!(r.json()["kind"], "not_found", "{uri}");
    }
    // Outside /api/ a 404 is a page.
    let r = get(&app, "/nope").await;
    assert!(r.header("content-type").starts_with("text/html"));
}

#[tokio::test]
async fn options_api_lists_moves_values_and_incentives() {
    let app = app();
    let r = get(&app, "/api/options?ruleset=domineering&board=..|..").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    // The report layer's fields: what `partizan options --json` prints.
    let shared = partizan_report::board_options(
        partizan_games::Rules::Domineering,
        "..|..",
        &partizan_report::Options::default(),
    )
    .unwrap();
    let mut want = serde_json::to_value(&shared).unwrap();
    want["stats"] = v["stats"].clone();
    assert_eq!(v, want);
    assert_eq!(v["value"]["value"], "±1");
    assert_eq!(v["left"].as_array().unwrap().len(), 2);
    let o = &v["left"][0];
    assert_eq!(o["value"], "1");
    assert_eq!(o["incentive"], "{2|0}");
    assert_eq!(o["cells"].as_array().unwrap().len(), 2);
    assert_eq!(o["best"], true);
    assert_eq!(o["dominated"], false);
    assert_eq!(v["right"][0]["value"], "-1");
    // Every ruleset gets options.
    for uri in [
        "/api/options?ruleset=clobber&board=xo|ox",
        "/api/options?ruleset=konane&board=xo.|...",
        "/api/options?ruleset=amazons&board=L..|..R",
        "/api/options?ruleset=cram&board=...|...",
    ] {
        let r = get(&app, uri).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.body);
        assert!(!r.json()["left"].as_array().unwrap().is_empty(), "{uri}");
    }
    let r = get(&app, "/api/options?ruleset=domineering&board=..|.").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.json()["kind"], "bad_board");
}

#[tokio::test]
async fn thermograph_and_game_apis() {
    let app = app();
    let r = get(&app, "/api/thermograph?values=%7B3%7C-1%7D").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    assert_eq!(v["thermograph"]["mast"], "1");
    assert_eq!(v["thermograph"]["temperature"], "2");
    let r = get(
        &app,
        "/api/thermograph?ruleset=domineering&board=...|...&format=svg",
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.header("content-type").starts_with("image/svg+xml"));
    assert!(r.body.starts_with("<svg") && r.body.contains("class=\"mast\""));
    let r = get(&app, "/api/thermograph?values=1/2&format=tikz").await;
    assert!(r.body.contains("\\begin{tikzpicture}"), "{}", r.body);
    // The notation calculator adds up.
    let r = get(&app, "/api/game?values=%7B2%7C0%7C%7C-1%7D;-3/2").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    assert_eq!(v["terms"].as_array().unwrap().len(), 2);
    let r2 = get(&app, "/api/game?values=1/2;1/2").await.json();
    assert_eq!(r2["value"], "1");
    assert_eq!(r2["outcome"], "L");
    let r = get(&app, "/api/game?values=%7B1%7C").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.json()["kind"], "bad_param");
}

#[tokio::test]
async fn explorer_page_plays_and_draws() {
    let app = app();
    let r = get(&app, "/explore?ruleset=domineering&board=...|...&mode=left").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("id=\"options-left\""));
    assert!(r.body.contains("class=\"option\""));
    assert!(r.body.contains("id=\"best-Left\""));
    assert!(r.body.contains("id=\"thermo-board\""));
    assert!(r.body.contains("id=\"tikz-board\""));
    assert!(r.body.contains("id=\"tree\""));
    assert!(r.body.contains("value=\"left\" id=\"mode-left\" checked"));
    // Clean drawing: no run overlay unless asked.
    assert!(!r.body.contains("class=\"run "));
    let r = get(
        &app,
        "/explore?ruleset=domineering&board=...|...&overlay=runs",
    )
    .await;
    assert!(r.body.contains("class=\"run "));
    // Every ruleset in the registry gets the explorer with options.
    for rules in partizan_games::Rules::ALL {
        let i = rules.info();
        let uri = format!(
            "/explore?ruleset={}&board={}&mode=left",
            i.name,
            partizan_web::html::url_encode(i.example)
        );
        let r = get(&app, &uri).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}");
        assert!(r.body.contains("id=\"options-left\""), "{uri}");
    }
    let r = get(
        &app,
        "/explore?ruleset=domineering&board=..|..&mode=sideways",
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn store_hits_answer_without_a_slot_and_the_path_stays_private() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("private-name.redb");
    let state = AppState::with_store(
        Limits {
            max_heavy: 1,
            queue_wait: Duration::from_millis(50),
            ..Limits::default()
        },
        &path,
    )
    .unwrap();
    let app = router(state.clone());
    let uri = "/api/value?ruleset=domineering&board=....|....|....";
    let first = get(&app, uri).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    // Every slot taken: a board the store holds still answers, at once.
    let held = state.hold_permit().unwrap();
    let t = std::time::Instant::now();
    let again = get(&app, uri).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert!(t.elapsed() < Duration::from_secs(2));
    assert_eq!(again.json()["value"], first.json()["value"]);
    assert_eq!(again.json()["stats"]["distinct"], 0);
    // A board it does not hold waits briefly, then gets its 503.
    let miss = get(&app, "/api/value?ruleset=domineering&board=.....|.....").await;
    assert_eq!(miss.status, StatusCode::SERVICE_UNAVAILABLE);
    drop(held);
    let name = "private-name";
    for uri in [
        uri,
        "/api/health",
        "/api/explore?ruleset=domineering&board=..|..",
        "/api/options?ruleset=domineering&board=..|..",
        "/explore?ruleset=domineering&board=..|..",
        "/api",
        "/",
    ] {
        let r = get(&app, uri).await;
        assert!(!r.body.contains(name), "{uri} shows the store path");
        assert!(
            !r.body.contains(&dir.path().display().to_string()),
            "{uri} shows the store directory"
        );
    }
}

#[tokio::test]
async fn a_long_computation_finishes_in_the_background() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bg.redb");
    let state = AppState::with_store(
        Limits {
            budget: Duration::from_millis(30),
            background_budget: Duration::from_secs(120),
            ..Limits::default()
        },
        &path,
    )
    .unwrap();
    let app = router(state.clone());
    async fn wait_state(app: &Router, want: &str) -> Value {
        for _ in 0..1200 {
            let j = get(app, "/api/job").await.json();
            if j["state"] == want {
                return j;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the background job never reached '{want}'");
    }
    // A board far beyond the budget goes to the background slot ...
    let huge = "/api/value?ruleset=domineering&board=......|......|......|......|......";
    let r = get(&app, huge).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.body);
    assert_eq!(r.json()["kind"], "computing_in_background", "{}", r.body);
    // ... which is then busy: another board is refused, saying with what.
    let uri = "/api/value?ruleset=domineering&board=......|......|......|......";
    let other = get(&app, uri).await;
    assert_eq!(other.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        other.body.contains("background slot is busy"),
        "{}",
        other.body
    );
    // The explorer on the same board says so and reloads until it is done.
    let page = get(
        &app,
        "/explore?ruleset=domineering&board=......|......|......|......|......",
    )
    .await;
    assert_eq!(page.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(page.body.contains("id=\"background\""), "{}", page.body);
    assert!(page.body.contains("http-equiv=\"refresh\""));
    // It can be cancelled.
    assert_eq!(get(&app, "/api/job/cancel").await.json()["cancelled"], true);
    let j = wait_state(&app, "stopped").await;
    assert_eq!(j["reason"], "cancelled");
    // A board that finishes in the background is answered afterwards.
    let r = get(&app, uri).await;
    assert_eq!(r.json()["kind"], "computing_in_background", "{}", r.body);
    let j = wait_state(&app, "done").await;
    let shared = partizan_report::board_value(
        partizan_games::Rules::Domineering,
        "......|......|......|......",
        &partizan_report::Options::default(),
    )
    .unwrap();
    assert_eq!(j["report"]["value"], shared.value.value);
    let r = get(&app, uri).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["value"], shared.value.value);
    // So is the explorer page (issue 17: it answered 503 here while
    // /api/value answered): its value comes from the store, and what the
    // budget leaves no time for (options, graph) is left out, not a 503.
    let page = get(
        &app,
        "/explore?ruleset=domineering&board=......|......|......|......",
    )
    .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    let shown = format!(
        "id=\"whole-value\">{}<",
        partizan_web::html::escape(&shared.value.value)
    );
    assert!(page.body.contains(&shown), "{}", page.body);
    let api = get(
        &app,
        "/api/explore?ruleset=domineering&board=......|......|......|......",
    )
    .await;
    assert_eq!(api.status, StatusCode::OK, "{}", api.body);
    assert_eq!(api.json()["value"]["value"], shared.value.value);
    assert_eq!(api.json()["regions"][0]["source"], "store");
}

#[tokio::test]
async fn outcome_grundy_parts_trace_and_atlas_apis() {
    let app = app();
    // The outcome search agrees with the value: {2|-1/2} is N.
    let r = get(&app, "/api/outcome?ruleset=domineering&board=...|...").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    assert_eq!(v["decided"], true);
    assert_eq!(v["outcome"], "N");
    assert_eq!(v["first_players"]["left"]["wins"], true);
    // Out of budget: unknown, never a guess; boards past the explorer's cap
    // are searched (8x8 is 64 cells).
    let r = get(
        &app,
        "/api/outcome?ruleset=domineering&board=........|........|........|........|........|........|........|........&max_nodes=1000",
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    assert_eq!(v["decided"], false, "{v}");
    assert!(v["outcome"].is_null());
    assert!(v["reason"].as_str().unwrap().contains("node budget"));
    // The explorer offers the search for a board too large to value.
    let page = get(
        &app,
        "/explore?ruleset=domineering&board=........|........|........|........|........|........|........|........",
    )
    .await;
    assert_eq!(page.status, StatusCode::BAD_REQUEST);
    assert!(page.body.contains("id=\"who-wins\""), "{}", page.body);
    assert!(page
        .body
        .contains("href=\"/outcome?ruleset=domineering&amp;board="));
    let page = get(&app, "/outcome?ruleset=domineering&board=...%7C...").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(
        page.body.contains("<b class=\"mono\">N</b>"),
        "{}",
        page.body
    );
    // The answer drawn for a paper: both winning first moves marked (a
    // domino each: a bar and two dots), with its downloads.
    assert!(
        page.body.contains("<svg id=\"answer-picture\""),
        "{}",
        page.body
    );
    assert_eq!(page.body.matches("class=\"mark\"").count(), 2 * 3);
    assert!(page
        .body
        .contains("data-target=\"answer-picture\" data-format=\"png\""));
    for (uri, kind) in [
        ("/api/outcome?ruleset=domineering&board=..|.", "bad_board"),
        (
            "/api/outcome?ruleset=domineering&board=..|..&table_mb=100000",
            "bad_param",
        ),
        ("/api/grundy?game=0.9q", "bad_param"),
        ("/api/grundy?game=0.07&up_to=100000000", "bad_param"),
        ("/api/parts?boards=......|......|......|......", "too_large"),
        ("/api/sylver/trace?gaps=2", "bad_param"),
    ] {
        let r = get(&app, uri).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{uri}: {}", r.body);
        assert!(r.header("content-type").starts_with("application/json"));
        assert_eq!(r.json()["kind"], kind, "{uri}: {}", r.body);
    }
    // Dawson's Kayles: period 34 proved.
    let r = get(&app, "/api/grundy?game=0.07&up_to=200").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["period"], 34);
    // Misère play: 0.75's quotient, what `partizan grundy 0.75 --misere
    // --json` prints, and its section of the page; a bad switch is a 400.
    let r = get(&app, "/api/grundy?game=0.75&misere=1&heaps=1,2").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["order"], 8);
    assert_eq!(r.json()["stability"]["kind"], "periodic");
    assert_eq!(r.json()["sum"]["heaps"], serde_json::json!([1, 2]));
    let page = get(&app, "/grundy?game=0.75&misere=1").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    assert!(page
        .body
        .contains("id=\"misere-order\">order 8, P-portion 2 elements<"));
    let r = get(&app, "/api/grundy?game=node-kayles&graph=path:6&misere=1").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["genus"], "1^031");
    let r = get(&app, "/api/grundy?game=0.75&misere=2").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.body);
    assert_eq!(r.json()["kind"], "bad_param");
    // The parts table: a 2x2 board is one region, so its whole graph is
    // the product of its regions' graphs.
    let r = get(&app, "/api/parts?ruleset=domineering&boards=..%7C..").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let row = &r.json()["rows"][0];
    assert_eq!(row["regions"], 1);
    assert_eq!(row["whole"], row["product"]);
    let r = get(&app, "/api/sylver/trace?gaps=1,2,3,4,7,8").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.json()["evaluations"].as_u64().unwrap() > 0);

    // The atlas: none built is a 503 saying how to build one; a built one
    // is read.
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::build_with_atlas(Limits::default(), None, Some(dir.path().into()));
    let atlas_app = router(state);
    let r = get(&atlas_app, "/api/atlas").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.body);
    assert!(r.json()["error"]
        .as_str()
        .unwrap()
        .contains("partizan atlas build"));
    let page = get(&atlas_app, "/atlas").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("id=\"atlas-missing\""));
    let mut cfg = partizan_census::AtlasConfig::new(5);
    cfg.threads = 1;
    partizan_census::Atlas::build(&cfg, &mut partizan_census::DirStore::new(dir.path())).unwrap();
    let r = get(&atlas_app, "/api/atlas").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["max_cells"], 5);
    let r = get(&atlas_app, "/api/atlas?kind=nimber").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    for row in r.json()["regions"].as_array().unwrap() {
        assert!(row["value"].as_str().unwrap().starts_with('*'), "{row}");
    }
    let page = get(&atlas_app, "/atlas?value=1").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("id=\"atlas-found\""));
    assert!(page.body.contains("<svg id=\"atlas-hot-1\""));
}

/// An impartial ruleset's board in the explorer shows its misère form (a
/// Cram strip 1 x 12 is Dawson's Kayles heap 12: genus 2^0520, P, as
/// CGSuite pins it), in the page and in /api/explore; a partizan board its
/// forms in the general universe (and among dicots for Clobber).
#[tokio::test]
async fn the_explorer_shows_an_impartial_board_under_misere_play() {
    let app = app();
    let r = get(&app, "/explore?ruleset=cram&board=............").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.body.contains("<h2>Misère play</h2>"), "{}", r.body);
    assert!(r
        .body
        .contains("id=\"misere-genus\">2^0520 (G+ = 2, G− = 0)"));
    assert!(r.body.contains("P: the player to move loses"));
    assert!(r.body.contains("impartial games"));
    let r = get(&app, "/api/explore?ruleset=cram&board=....|....").await;
    assert_eq!(r.status, StatusCode::OK);
    let m = &r.json()["misere"];
    assert_eq!(m["outcome"], "N", "{m}");
    assert_eq!(m["genus"], "0^120", "{m}");
    let r = get(&app, "/explore?ruleset=domineering&board=...|...").await;
    assert!(r.body.contains("<h2>Misère play</h2>"), "{}", r.body);
    assert!(r.body.contains("id=\"misere-general\""), "{}", r.body);
    assert!(
        r.body.contains("L: Left wins, whoever starts"),
        "{}",
        r.body
    );
    assert!(!r.body.contains("id=\"misere-dicot\""));
    let r = get(&app, "/explore?ruleset=clobber&board=xoxo|oxox").await;
    assert!(r.body.contains("id=\"misere-dicot\""), "{}", r.body);
    assert!(r.body.contains("<code>*</code>"), "{}", r.body);
    let r = get(&app, "/api/explore?ruleset=domineering&board=...|...").await;
    let m = &r.json()["misere"];
    assert_eq!(m["forms"][0]["universe"], "general", "{m}");
    assert_eq!(m["forms"][0]["outcome"], "L", "{m}");
}

/// The loopy page and API: CGSuite's sided and stopper examples.
#[tokio::test]
async fn the_loopy_page_answers_cgsuites_examples() {
    let app = app();
    let r = get(&app, "/loopy?values=dud").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(
        r.body
            .contains("id=\"loopy-sides\"><code>on &amp; off</code>"),
        "{}",
        r.body
    );
    let r = get(
        &app,
        "/loopy?values=%7B0%7Cpass%7D;%7B0%7Cpass%7D&compare=1%2F64",
    )
    .await;
    assert!(
        r.body.contains("id=\"loopy-form-out\"><code>over</code>"),
        "{}",
        r.body
    );
    assert!(r.body.contains("G &lt; 1/64"), "{}", r.body);
    let r = get(&app, "/api/loopy?values=a%7B%7B%7Ca%7D%7C%7D").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["sides"], serde_json::json!(["1", "0"]));
    let r = get(&app, "/loopy?values=%7Bpass").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.body.contains("unclosed"), "{}", r.body);
    let r = get(&app, "/api/loopy?values=dud&compare=0").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}

/// Boards of loopy rulesets on the loopy page and API.
#[tokio::test]
async fn the_loopy_page_values_loopy_boards() {
    let app = app();
    let r = get(
        &app,
        "/loopy?ruleset=fox-and-geese&board=.F..%7C....%7C....%7CG.G.",
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(
        r.body.contains("id=\"loopy-form-out\"><code>over</code>"),
        "{}",
        r.body
    );
    assert!(
        r.body.contains("id=\"loopy-stops\">Left 0, Right 0"),
        "{}",
        r.body
    );
    let r = get(&app, "/api/loopy?ruleset=btf&board=T..F").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["sides"], serde_json::json!(["*", "*"]));
    assert_eq!(r.json()["ruleset"], "backsliding-toads");
    let r = get(&app, "/loopy?ruleset=fox-and-geese&board=F%7CG%7CF").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.body.contains("more than one fox"), "{}", r.body);
    let r = get(&app, "/api/loopy?ruleset=chess&board=..").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
}
