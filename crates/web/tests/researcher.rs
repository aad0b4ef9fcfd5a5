//! A researcher's day on the site, answer by answer (the browser test
//! looks at the same pages drawn): the value page, the outcome page's
//! answer list and losing first moves, the explorer's legend and packing
//! reading, the home page's census size, and the Sylver Coinage form.

use axum::http::StatusCode;
use axum::Router;
use partizan_web::{router, AppState, Limits};

use crate::support;
use support::router::get;

fn app() -> Router {
    router(AppState::new(Limits::default()))
}

/// The text of the element with id `id` (tags dropped).
fn by_id(html: &str, id: &str) -> String {
    let at = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no #{id}"));
    let start = at + html[at..].find('>').unwrap() + 1;
    let tag_start = html[..at].rfind('<').unwrap();
    let tag: String = html[tag_start + 1..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    let end = start + html[start..].find(&format!("</{tag}>")).unwrap();
    let mut out = String::new();
    let mut inside = false;
    for c in html[start..end].chars() {
        match c {
            '<' => inside = true,
            '>' => inside = false,
            c if !inside => out.push(c),
            _ => {}
        }
    }
    out.replace("&gt;", ">")
        .replace("&lt;", "<")
        .replace("&amp;", "&")
}

/// Every `<dl class="kv"...>` holds only `<dt>` and `<dd>` children: no
/// paragraph takes a column of the two-column grid.
fn kv_lists_are_pairs(html: &str) {
    let mut rest = html;
    while let Some(i) = rest.find("<dl class=\"kv\"") {
        let end = i + rest[i..].find("</dl>").unwrap();
        let inner = &rest[i..end];
        assert!(!inner.contains("<p"), "a <p> inside a kv list: {inner}");
        let dts = inner.matches("<dt").count();
        let dds = inner.matches("<dd").count();
        assert_eq!(dts, dds, "labels and values pair up: {inner}");
        rest = &rest[end..];
    }
}

#[tokio::test]
async fn the_value_page_answers_everything_cgsuite_shows() {
    let app = app();
    let home = get(&app, "/").await;
    assert!(
        home.body.contains("<a href=\"/value\""),
        "the header links the value page"
    );
    let r = get(&app, "/value?values=%7B3%7C%7C2*%7C1*%7D").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let b = &r.body;
    // CGSuite's readings of {3||2*|1*}.
    assert_eq!(by_id(b, "canonical-1"), "{3||2*|1*}");
    assert_eq!(by_id(b, "outcome-1"), "L (Left wins)");
    assert_eq!(by_id(b, "stops-1"), "Left 3, Right 2");
    assert_eq!(by_id(b, "mean-1"), "9/4");
    assert_eq!(by_id(b, "temperature-1"), "3/4");
    assert!(by_id(b, "atomic-1").starts_with("undefined"));
    assert_eq!(by_id(b, "reduced-1"), "{3||2|1}");
    assert!(!by_id(b, "incentives-left-1").is_empty());
    // The thermograph drawn, with its downloads.
    assert!(b.contains("<svg id=\"thermograph-1\""));
    for f in ["svg", "png", "tikz"] {
        assert!(
            b.contains(&format!(
                "data-target=\"thermograph-1\" data-format=\"{f}\""
            )),
            "{f} download"
        );
    }
    assert!(b.contains("id=\"tikz-thermograph-1\""));
    // One value: no sum, no comparisons.
    assert!(!b.contains("id=\"calculator\""));
    kv_lists_are_pairs(b);
}

#[tokio::test]
async fn several_values_are_added_differenced_and_compared() {
    let app = app();
    let r = get(&app, "/value?values=%5E%0D%0A*%3B%5E*").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    let b = &r.body;
    assert_eq!(by_id(b, "sum"), "G1 + G2 + G3 = ^^");
    let table = by_id(b, "comparisons");
    for row in ["G1G2^*G1 || G2", "G1G3*G1 || G3", "G2G3vG2 < G3"] {
        assert!(table.contains(row), "{row} in {table}");
    }
    assert!(b.contains("id=\"value-sum\""), "the sum has its own card");
    assert_eq!(by_id(b, "canonical-sum"), "^^");
    // The textarea keeps what was typed.
    assert!(b.contains(">^\r\n*;^*</textarea>"), "{b}");
    // The JSON is the report layer's calculation.
    let j = get(&app, "/api/analyse?values=%5E;*;%5E*").await;
    assert_eq!(j.status, StatusCode::OK);
    let want =
        serde_json::to_value(partizan_report::calculate(&["^", "*", "^*"]).unwrap()).unwrap();
    assert_eq!(j.json(), want);
    assert_eq!(j.json()["values"][0]["atomic_weight"], "1");
}

#[tokio::test]
async fn bad_notation_keeps_the_form_and_names_the_problem() {
    let app = app();
    let r = get(&app, "/value?values=1%3B%7B1%7C").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(by_id(&r.body, "error").contains("argument 2"), "{}", r.body);
    assert!(r.body.contains(">1;{1|</textarea>"));
    let j = get(&app, "/api/analyse?values=%7B1%7C").await;
    assert_eq!(j.status, StatusCode::BAD_REQUEST);
    assert_eq!(j.json()["kind"], "bad_param");
    let many = get(&app, &format!("/value?values={}", "1;".repeat(9))).await;
    assert_eq!(many.status, StatusCode::BAD_REQUEST);
    // The empty page offers an example.
    let empty = get(&app, "/value").await;
    assert_eq!(empty.status, StatusCode::OK);
    assert!(
        empty.body.contains("/value?values=%7B3%7C%7C2"),
        "an example link"
    );
}

#[tokio::test]
async fn the_outcome_answer_lists_pairs_and_losing_first_moves() {
    // With a store, as `partizan serve` runs: the first answer is saved,
    // the second comes from the store; both pages print their notes
    // outside the two-column list.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.redb");
    let app = router(AppState::with_store(Limits::default(), &path).unwrap());
    let uri = "/outcome?ruleset=clobber&board=xoxo%7Coxox%7Cxoxo&moves=on";
    let first = get(&app, uri).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert!(first.body.contains("id=\"saved\""), "saved in the store");
    kv_lists_are_pairs(&first.body);
    let again = get(&app, "/outcome?ruleset=clobber&board=xoxo%7Coxox%7Cxoxo").await;
    assert!(again.body.contains("id=\"from-store\""));
    kv_lists_are_pairs(&again.body);
    // Winning and losing first moves, both listed and counted.
    let v = get(
        &app,
        "/api/outcome?ruleset=clobber&board=xoxo%7Coxox%7Cxoxo&moves=1",
    )
    .await
    .json();
    for side in ["left", "right"] {
        let moves = v["first_moves"][side].as_array().unwrap();
        let wins = moves.iter().filter(|m| m["wins"] == true).count();
        let loses = moves.len() - wins;
        let text = by_id(&first.body, &format!("first-moves-{side}"));
        assert!(
            text.contains(&format!("{wins} of {} win", moves.len())),
            "{text}"
        );
        assert!(text.contains(&format!("{loses} lose")), "{text}");
        assert!(loses > 0, "{side}: a board with losing first moves");
        // Every losing move is named and links to its own search.
        for m in moves.iter().filter(|m| m["wins"] == false) {
            let after = m["board"].as_str().unwrap().replace('|', "%7C");
            assert!(first.body.contains(&after), "{side}: {m}");
        }
    }
}

#[tokio::test]
async fn the_explorer_shows_its_ruleset_s_glyphs_and_the_packing_reading_last() {
    let app = app();
    let r = get(
        &app,
        "/explore?ruleset=domineering&board=..%23..%7C.%23...%7C%23....%7C...%23.",
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    let glyphs = by_id(&r.body, "glyphs");
    assert!(glyphs.contains("Domineering"), "{glyphs}");
    for other in ["Amazons", "Clobber", "Toads", "queen", "stone"] {
        assert!(!glyphs.contains(other), "{other} in {glyphs}");
    }
    // The packing reading stays, after the value's readings and the
    // position graph.
    let at = |needle: &str| {
        r.body
            .find(needle)
            .unwrap_or_else(|| panic!("{needle} missing"))
    };
    assert!(at("id=\"interval\"") > at("id=\"whole-value\""));
    assert!(at("id=\"interval\"") > at("id=\"orthodox-form\""));
    assert!(at("id=\"interval\"") > at("id=\"identity\""));
    kv_lists_are_pairs(&r.body);
    // Amazons has its own glyphs.
    let r = get(&app, "/explore?ruleset=amazons&board=L..%7C..R").await;
    let glyphs = by_id(&r.body, "glyphs");
    assert!(
        glyphs.contains("queen") && !glyphs.contains("Domineering"),
        "{glyphs}"
    );
}

#[tokio::test]
async fn the_home_page_names_the_census_size_the_census_page_shows() {
    let limits = Limits {
        max_census_cells: 5,
        ..Limits::default()
    };
    let app = router(AppState::new(limits));
    let home = get(&app, "/").await;
    let blurb = by_id(&home.body, "census-blurb");
    assert!(blurb.contains("up to 5 squares"), "{blurb}");
    let census = get(&app, "/census/domineering").await;
    assert_eq!(census.status, StatusCode::OK);
    assert!(census.body.contains("Every region of up to 5 cells"));
}

#[tokio::test]
async fn the_sylver_page_keeps_the_generators_typed() {
    let app = app();
    let r = get(&app, "/sylver/position?generators=5,7,10").await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(
        r.body.contains("id=\"generators\" value=\"5,7,10\""),
        "the typed generators stay in the form"
    );
    // By gaps: the gaps box keeps them, the generators box shows the
    // position's minimal generators.
    let r = get(&app, "/sylver/position?gaps=1,2,3,4,6,8,9,11,13,16,18,23").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.body);
    assert!(
        r.body.contains("id=\"generators\" value=\"5,7\""),
        "{}",
        r.body
    );
    // A bad one: the form again, with what was typed and the problem.
    let r = get(&app, "/sylver/position?generators=0,x").await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.body.contains("id=\"generators\" value=\"0,x\""));
    assert!(r.body.contains("id=\"error\""));
}
