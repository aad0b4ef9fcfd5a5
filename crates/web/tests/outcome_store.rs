//! The site's outcome search through a store: a board solved once is
//! answered "from store" with 0 nodes (JSON and page), even with every
//! heavy-work slot taken; a row that is damaged or cannot be right is
//! searched again with a warning and replaced; a read-only store is read
//! but never written.

use std::time::Duration;

use axum::http::StatusCode;
use axum::Router;
use partizan_store::{outcomes::outcome_key, Store, StoreOptions, StoredOutcome};
use partizan_web::{router, AppState, Limits};
use serde_json::Value;

use crate::support;
use support::router::{get, Reply};

async fn api(app: &Router, board: &str) -> Value {
    let Reply { status, body, .. } = get(
        app,
        &format!(
            "/api/outcome?ruleset=clobber&board={}",
            board.replace('|', "%7C")
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    serde_json::from_str(&body).unwrap()
}

fn limits() -> Limits {
    Limits {
        max_heavy: 1,
        queue_wait: Duration::from_millis(50),
        ..Limits::default()
    }
}

/// 3x4 Clobber, checkerboard: a search of tens of thousands of nodes.
const BOARD: &str = "xoxo|oxox|xoxo";

#[tokio::test]
async fn a_second_request_is_answered_from_the_store_with_0_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::with_store(limits(), &dir.path().join("s.sqlite")).unwrap();
    let app = router(state.clone());
    let first = api(&app, BOARD).await;
    assert_eq!(first["decided"], true);
    assert_eq!(first["from_store"], false);
    assert_eq!(first["saved_to_store"], true);
    assert!(first["stats"]["nodes"].as_u64().unwrap() > 0);
    // Every heavy-work slot taken: the stored board still answers.
    let held = state.hold_permit().unwrap();
    let second = api(&app, BOARD).await;
    assert_eq!(second["from_store"], true, "{second}");
    assert_eq!(second["stats"]["nodes"], 0);
    for k in ["outcome", "left_first_wins", "right_first_wins"] {
        assert_eq!(second[k], first[k], "{k}");
    }
    for p in ["left", "right"] {
        assert_eq!(second["first_players"][p]["nodes"], 0);
        assert_eq!(
            second["first_players"][p]["move"],
            first["first_players"][p]["move"]
        );
    }
    let Reply {
        status, body: page, ..
    } = get(&app, "/outcome?ruleset=clobber&board=xoxo%7Coxox%7Cxoxo").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("id=\"from-store\""), "{page}");
    assert!(page.contains("(from store)"), "{page}");
    drop(held);
    // Misère play is another question.
    let Reply { body, .. } = get(
        &app,
        "/api/outcome?ruleset=clobber&board=xoxo%7Coxox%7Cxoxo&play=misere",
    )
    .await;
    let m: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(m["from_store"], false);
}

#[tokio::test]
async fn a_row_that_cannot_be_right_is_searched_again_and_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite");
    let truth = {
        let state = AppState::with_store(limits(), &path).unwrap();
        api(&router(state), BOARD).await
    };
    let store = Store::open(&path).unwrap();
    let bogus = StoredOutcome {
        ruleset: "clobber".into(),
        board: BOARD.into(),
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
    // 1. Whole and checksummed, but its moves are no moves of the board.
    store.put_outcome(&bogus).unwrap();
    let app = router(AppState::build(limits(), Some(store.clone())));
    let v = api(&app, BOARD).await;
    assert_eq!(v["from_store"], false, "searched again: {v}");
    assert_eq!(v["outcome"], truth["outcome"]);
    assert!(v["stats"]["nodes"].as_u64().unwrap() > 0);
    let w = v["warnings"][0].as_str().unwrap();
    assert!(w.contains("not one of the board's"), "{w}");
    let again = api(&app, BOARD).await;
    assert_eq!(again["from_store"], true, "replaced: {again}");
    // 2. A record filed under another board's key (damaged): the page
    // searches again and shows the warning.
    let mut other = bogus.clone();
    other.board = "xoxo|oxox".into();
    store
        .put_census(
            &outcome_key("clobber", "normal", BOARD),
            &serde_json::to_value(&other).unwrap(),
        )
        .unwrap();
    let Reply {
        status, body: page, ..
    } = get(&app, "/outcome?ruleset=clobber&board=xoxo%7Coxox%7Cxoxo").await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("Warning: store:"), "{page}");
    assert!(!page.contains("id=\"from-store\""));
    assert!(page.contains(&format!(
        "<b class=\"mono\">{}</b>",
        truth["outcome"].as_str().unwrap()
    )));
    assert_eq!(api(&app, BOARD).await["from_store"], true);
}

#[tokio::test]
async fn a_read_only_store_is_read_but_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.sqlite");
    // Solve one board into the store, then serve it read-only.
    {
        let state = AppState::with_store(limits(), &path).unwrap();
        api(&router(state), BOARD).await;
    }
    let ro = Store::open_with(&path, &StoreOptions::read_only()).unwrap();
    let app = router(AppState::build(limits(), Some(ro)));
    assert_eq!(api(&app, BOARD).await["from_store"], true);
    let other = "oxox|xoxo|oxox";
    let v = api(&app, other).await;
    assert_eq!(v["from_store"], false);
    assert_eq!(v["saved_to_store"], false);
    assert!(v.get("warnings").is_none(), "{v}");
    assert_eq!(api(&app, other).await["from_store"], false);
}

#[tokio::test]
async fn one_first_player_is_answered_without_a_class_and_never_stored() {
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::with_store(limits(), &dir.path().join("s.sqlite")).unwrap();
    let app = router(state.clone());
    let board = BOARD.replace('|', "%7C");
    let Reply { status, body, .. } = get(
        &app,
        &format!("/api/outcome?ruleset=clobber&board={board}&first=left"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let left: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(left["decided"], true);
    assert!(left["outcome"].is_null(), "{left}");
    assert_eq!(left["saved_to_store"], false);
    assert!(left["first_players"].get("right").is_none());
    // Nothing stored: the whole board is searched, then stored.
    let whole = api(&app, BOARD).await;
    assert_eq!(whole["from_store"], false);
    assert_eq!(whole["left_first_wins"], left["left_first_wins"]);
    // Now a one-sided question is answered from the stored whole board.
    let Reply { body, .. } = get(
        &app,
        &format!("/api/outcome?ruleset=clobber&board={board}&first=right"),
    )
    .await;
    let right: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(right["from_store"], true, "{right}");
    assert!(right["outcome"].is_null());
    assert_eq!(right["right_first_wins"], whole["right_first_wins"]);
    // A bad value is a 400 naming the parameter.
    let Reply { status, body, .. } = get(
        &app,
        &format!("/api/outcome?ruleset=clobber&board={board}&first=up"),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.contains("first"), "{body}");
    // The page has the form field.
    let Reply {
        status, body: page, ..
    } = get(
        &app,
        &format!("/outcome?ruleset=clobber&board={board}&first=left"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(page.contains("name=\"first\""), "{page}");
    assert!(page.contains("Outcome class unknown"), "{page}");
}

#[tokio::test]
async fn a_nimber_is_searched_even_for_a_stored_board_and_refused_where_there_is_none() {
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::with_store(limits(), &dir.path().join("s.sqlite")).unwrap();
    let app = router(state.clone());
    // Cram 4 x 5: Beling's published nimber 2. Stored first as an outcome.
    let cram = "/api/outcome?ruleset=cram&board=.....%7C.....%7C.....%7C.....";
    let ask = |url: String| {
        let app = app.clone();
        async move {
            let Reply { status, body, .. } = get(&app, &url).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            serde_json::from_str::<Value>(&body).unwrap()
        }
    };
    assert_eq!(ask(cram.to_string()).await["saved_to_store"], true);
    let stored = ask(cram.to_string()).await;
    assert_eq!(stored["from_store"], true);
    assert!(stored.get("nimber").is_none(), "{stored}");
    let n = ask(format!("{cram}&nimber=1")).await;
    assert_eq!(n["from_store"], false, "{n}");
    assert_eq!(n["nimber"], 2, "{n}");
    assert_eq!(n["outcome"], "N");
    let Reply { status, body, .. } = get(
        &app,
        "/outcome?ruleset=cram&board=.....%7C.....%7C.....%7C.....&nimber=1",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("Nimber <b class=\"mono\">*2</b>"), "{body}");
    assert!(
        body.contains("name=\"nimber\" value=\"1\" checked"),
        "{body}"
    );
    // No nimber for a partizan ruleset or misère play: a 400 naming why.
    for (url, why) in [
        (
            "/api/outcome?ruleset=domineering&board=...%7C...&nimber=1",
            "not impartial",
        ),
        (
            "/api/outcome?ruleset=cram&board=...%7C...&nimber=1&play=misere",
            "normal play",
        ),
        (
            "/api/outcome?ruleset=cram&board=...%7C...&nimber=maybe",
            "nimber",
        ),
    ] {
        let Reply { status, body, .. } = get(&app, url).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{url}: {body}");
        assert!(body.contains(why), "{url}: {body}");
    }
}

#[tokio::test]
async fn a_table_over_rectangles_is_each_boards_answer_and_stored() {
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::with_store(limits(), &dir.path().join("s.sqlite")).unwrap();
    let app = router(state.clone());
    let Reply { status, body, .. } =
        get(&app, "/api/outcome?ruleset=domineering&rectangles=2-4x2-5").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let t: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(t["ruleset"], "domineering");
    let cells = t["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 12);
    for c in cells {
        assert!(c["stopped"].is_null(), "{c}");
        assert_eq!(c["from_store"], false);
        // Each cell is the board's own answer, now read from the store.
        let Reply { body, .. } = get(
            &app,
            &format!(
                "/api/outcome?ruleset=domineering&board={}",
                c["board"].as_str().unwrap().replace('|', "%7C")
            ),
        )
        .await;
        let one: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(one["outcome"], c["outcome"], "{c}");
        assert_eq!(one["from_store"], true);
    }
    // 4 x 5 is L (Lachmann, Moore and Rapaport), 2 x 4 R.
    assert_eq!(cells[11]["outcome"], "L");
    assert_eq!(cells[2]["outcome"], "R");
    // The page: the grid, each answer a link to its board's search.
    let Reply { status, body, .. } =
        get(&app, "/outcome?ruleset=domineering&rectangles=2-4x2-5").await;
    assert_eq!(status, StatusCode::OK);
    assert!(body.contains("id=\"rectangles\""), "{body}");
    assert!(body.contains("<th>5</th>"));
    assert!(body.contains("title=\"4 x 5\">L</a>"), "{body}");
    assert!(
        body.contains("board=.....%7C.....%7C.....%7C....."),
        "{body}"
    );
    assert!(body.contains("name=\"rectangles\" value=\"2-4x2-5\""));
    // The legend names the signs shown, and the table is drawn for a
    // paper with its downloads (the CLI's --format picture).
    assert!(
        body.contains("Rows down, columns across; L Left wins"),
        "{body}"
    );
    assert!(body.contains("<svg id=\"rectangles-picture\""), "{body}");
    assert!(body.contains("data-target=\"rectangles-picture\" data-format=\"tikz\""));
    assert!(body.contains("id=\"tikz-rectangles-picture\""));
    // A node budget too small leaves `?` cells with the reason.
    let Reply { body, .. } = get(
        &app,
        "/api/outcome?ruleset=domineering&rectangles=6x7-8&max_nodes=1000",
    )
    .await;
    let t: Value = serde_json::from_str(&body).unwrap();
    for c in t["cells"].as_array().unwrap() {
        assert!(c["outcome"].is_null());
        assert!(
            c["stopped"].as_str().unwrap().contains("node budget"),
            "{c}"
        );
    }
    // Bad tables are 400s naming the parameter.
    for (q, why) in [
        ("rectangles=0x2", "at least 1"),
        ("rectangles=1-9", "at most 64"),
        ("rectangles=12x12", "too many cells"),
        ("rectangles=2&moves=1", "moves"),
    ] {
        let Reply { status, body, .. } =
            get(&app, &format!("/api/outcome?ruleset=domineering&{q}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{q}: {body}");
        assert!(body.contains(why), "{q}: {body}");
    }
    let Reply { status, body, .. } = get(&app, "/api/outcome?ruleset=toads&rectangles=4").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("no standard rectangle"), "{body}");
}
