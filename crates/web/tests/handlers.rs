//! Handler tests on the router itself (no sockets): status codes, JSON
//! shapes, 400s for bad input, 503s for a full house or a spent budget.

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

#[tokio::test]
async fn pages_answer_200() {
    let app = app();
    for uri in [
        "/",
        "/api",
        "/explore",
        "/explore?ruleset=domineering&board=..%23..|.%23...|%23....",
        "/explore?ruleset=clobber&board=xoxo|oxo.",
        "/explore?ruleset=konane&board=xox.|o.ox",
        "/explore?ruleset=amazons&board=L..%23|.%23..|..%23R",
        "/explore?ruleset=cram&board=...|...",
        "/census",
        "/census/domineering?max_cells=5",
        "/census/domineering?max_cells=5&filter=missed&size=4",
        "/census/cram?max_cells=5",
        "/semigroups?max_genus=12",
        "/sylver?max_gaps=10",
        "/sylver/position?gaps=1,2,3,4,5,6,7,8,10,11,13,14,16,19,28",
        "/sylver/position?generators=5,7",
    ] {
        let mut r = get(&app, uri).await;
        if r.status == StatusCode::SEE_OTHER {
            let to = r.header("location");
            r = get(&app, &to).await;
        }
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.body);
        assert!(r.header("content-type").starts_with("text/html"), "{uri}");
        assert!(r.body.contains("<nav>"), "{uri}");
    }
}

#[tokio::test]
async fn explorer_draws_regions_and_states_the_identity() {
    let r = get(&app(), "/explore?ruleset=domineering&board=..%23..|..%23..").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.body.contains("<svg"));
    assert!(r.body.contains("id=\"board\""));
    assert!(r.body.contains("the identity holds"));
    assert_eq!(r.body.matches("class=\"region-row\"").count(), 2);
    assert!(r.body.contains("id=\"interval\""));
}

#[tokio::test]
async fn unknown_path_is_404() {
    let r = get(&app(), "/no/such/page").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.body.contains("/no/such/page"));
}

#[tokio::test]
async fn api_value_has_the_cli_shape() {
    let r = get(&app(), "/api/value?ruleset=domineering&board=...|...").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(r.header("content-type").starts_with("application/json"));
    assert!(
        r.body.ends_with("}\n"),
        "pretty JSON with a newline, as printed"
    );
    let v = r.json();
    for k in [
        "value",
        "outcome",
        "left_stop",
        "right_stop",
        "mean",
        "temperature",
        "is_number",
        "ruleset",
        "board",
        "stats",
        "savings",
    ] {
        assert!(v.get(k).is_some(), "missing {k}");
    }
    assert_eq!(v["ruleset"], "domineering");
    assert_eq!(v["board"], "...|...");
    assert_eq!(v["savings"]["decompose"], "every-node");
    assert!(v["stats"]["nodes"].as_u64().unwrap() > 0);
    // The same bytes as the library's report printed the CLI's way.
    let b = {
        use partizan_games::Ruleset;
        partizan_games::Domineering.parse("...|...").unwrap()
    };
    let direct = partizan_web::report::value_report(
        &partizan_games::Domineering,
        &b,
        partizan_solve::Savings::ALL,
        None,
        &partizan_web::Budget::unlimited(),
    )
    .unwrap();
    assert_eq!(
        r.body,
        serde_json::to_string_pretty(&direct).unwrap() + "\n"
    );
}

#[tokio::test]
async fn api_graph_and_explore() {
    let app = app();
    let r = get(&app, "/api/graph?ruleset=domineering&board=..%23..|..%23..").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    assert_eq!(v["positions"], v["product"]);
    assert_eq!(v["regions"].as_array().unwrap().len(), 2);
    assert!(v["tree_nodes"].as_u64().is_some());

    let r = get(
        &app,
        "/api/explore?ruleset=domineering&board=..%23..|..%23..",
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    assert_eq!(v["identity"]["checked"], true);
    assert_eq!(v["identity"]["holds"], true);
    assert_eq!(v["regions"].as_array().unwrap().len(), 2);
    assert_eq!(v["value_is_sum_of_regions"], true);
    assert!(v["value"]["value"].is_string());
}

#[tokio::test]
async fn census_semigroup_and_sylver_json() {
    let app = app();
    let r = get(&app, "/api/census/domineering?max_cells=6").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    assert_eq!(v["ruleset"], "domineering");
    assert_eq!(v["totals"]["shapes"], 104, "regions of up to 6 cells");
    assert!(v["by_size"]["6"].is_object());

    let r = get(&app, "/api/census/cram?max_cells=4").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert_eq!(r.json()["ruleset"], "cram");

    let r = get(&app, "/api/semigroups?max_genus=20").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    assert_eq!(v["counts"][17], 8045);
    assert_eq!(v["counts"][20], 37396);

    let r = get(
        &app,
        "/api/sylver/play?gaps=1,2,3,4,5,6,7,8,10,11,13,14,16,19,28",
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    assert_eq!(v["outcome"], "win");
    assert_eq!(v["genus"], 15);
    assert!(v["winning_moves"]
        .as_array()
        .unwrap()
        .contains(&Value::from(7)));
    let r = get(&app, "/api/sylver/play?generators=5,7").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);

    let r = get(&app, "/api/sylver/census?max_gaps=12").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let v = r.json();
    assert_eq!(
        v["totals"]["positions"], 180,
        "irreducible positions to 12 gaps"
    );
}

#[tokio::test]
async fn bad_input_is_400_naming_the_problem() {
    let app = app();
    let cases = [
        (
            "/api/value?ruleset=chess&board=..",
            "unknown_ruleset",
            "chess",
        ),
        (
            "/api/value?ruleset=domineering&board=..|.",
            "bad_board",
            "ragged",
        ),
        (
            "/api/value?ruleset=domineering&board=..x",
            "bad_board",
            "stones",
        ),
        ("/api/value?ruleset=domineering", "bad_param", "board"),
        ("/api/value?board=..", "bad_param", "ruleset"),
        (
            "/api/value?ruleset=amazons&board=L...|....|...R|....",
            "too_large",
            "at most 12",
        ),
        (
            "/api/value?ruleset=domineering&board=.......|.......|.......|.......|.......",
            "too_large",
            "35 cells",
        ),
        (
            "/api/graph?ruleset=domineering&board=",
            "bad_param",
            "board",
        ),
        (
            "/api/value?ruleset=domineering&board=..&decompose=sideways",
            "bad_param",
            "decompose",
        ),
        (
            "/api/explore?ruleset=cram&board=..%3F",
            "bad_board",
            "unknown character",
        ),
        ("/api/census/clobber", "bad_param", "no census"),
        ("/api/census/chess", "unknown_ruleset", "chess"),
        ("/api/census/domineering?max_cells=99", "bad_param", "limit"),
        (
            "/api/census/domineering?max_cells=x",
            "bad_param",
            "not a number",
        ),
        ("/api/semigroups?max_genus=1000", "bad_param", "limit"),
        ("/api/sylver/play?gaps=1,4", "bad_param", "cannot be a gap"),
        (
            "/api/sylver/play?generators=4,6",
            "bad_param",
            "common divisor",
        ),
        ("/api/sylver/play", "bad_param", "missing"),
        (
            "/api/sylver/play?gaps=1,2&generators=3",
            "bad_param",
            "not both",
        ),
        ("/api/sylver/census?max_gaps=64", "bad_param", "limit"),
    ];
    for (uri, kind, needle) in cases {
        let r = get(&app, uri).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{uri}: {}", r.body);
        let v = r.json();
        assert_eq!(v["kind"], kind, "{uri}");
        assert!(
            v["error"].as_str().unwrap().contains(needle),
            "{uri}: {}",
            v["error"]
        );
    }
    // Pages answer a 400 page, never a 500.
    for uri in [
        "/explore?ruleset=domineering&board=..|.",
        "/explore?ruleset=chess",
        "/explore?ruleset=amazons&board=L...|....|...R|....",
        "/census/konane",
        "/semigroups?max_genus=-3",
        "/sylver/position?gaps=banana",
    ] {
        let r = get(&app, uri).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{uri}");
        assert!(r.header("content-type").starts_with("text/html"));
        assert!(r.body.contains("id=\"error\""), "{uri}");
    }
}

#[tokio::test]
async fn busy_is_503_with_retry_after() {
    let state = AppState::new(Limits {
        max_heavy: 2,
        ..Limits::default()
    });
    let held: Vec<_> = (0..2).map(|_| state.hold_permit().unwrap()).collect();
    assert!(state.hold_permit().is_none());
    let app = router(state.clone());
    let r = get(&app, "/api/value?ruleset=domineering&board=..|..").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(r.header("retry-after"), "1");
    assert_eq!(r.json()["kind"], "busy");
    let r = get(&app, "/explore?ruleset=domineering&board=..|..").await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(r.body.contains("retry"));
    // Light pages still answer.
    assert_eq!(get(&app, "/api/health").await.status, StatusCode::OK);
    drop(held);
    let r = get(&app, "/api/value?ruleset=domineering&board=..|..").await;
    assert_eq!(r.status, StatusCode::OK);
}

#[tokio::test]
async fn spent_budget_is_503_and_frees_the_permit() {
    let state = AppState::new(Limits {
        budget: Duration::from_millis(30),
        max_heavy: 1,
        ..Limits::default()
    });
    let app = router(state.clone());
    // A full 5x6 board is far beyond 30 ms.
    let r = get(
        &app,
        "/api/value?ruleset=domineering&board=......|......|......|......|......",
    )
    .await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.body);
    assert_eq!(r.json()["kind"], "out_of_time");
    // The solver noticed and stopped: its permit comes back soon.
    let mut freed = false;
    for _ in 0..100 {
        if state.free_permits() == 1 {
            freed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(freed, "the cancelled work kept its permit");
}

#[tokio::test]
async fn explorer_reads_through_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("values.redb");
    let uri = "/api/explore?ruleset=domineering&board=...%23...|...%23...";
    {
        let app = router(AppState::with_store(Limits::default(), &path).unwrap());
        let v = get(&app, uri).await.json();
        assert_eq!(
            v["regions"][0]["source"]["computed"]["store_hits"], 0,
            "{v}"
        );
    }
    // A fresh site on the same store finds the regions there.
    let state = AppState::with_store(Limits::default(), &path).unwrap();
    assert_eq!(state.store_path(), Some(path.as_path()));
    let app = router(state);
    let v = get(&app, uri).await.json();
    assert_eq!(v["regions"][0]["source"], "store", "{v}");
    assert_eq!(v["regions"][1]["source"], "table", "{v}");
    let page = get(
        &app,
        "/explore?ruleset=domineering&board=...%23...|...%23...",
    )
    .await;
    assert!(page.body.contains("<td>store</td>"));
}
