//! The site in a real browser: headless Chromium over WebDriver.
//!
//! Needs Debian's `chromium` and `chromium-driver` packages (`.ci/run`
//! installs them). Skips, saying why, when `chromedriver` is absent.
//! Set `PARTIZAN_SCREENSHOT_DIR` to keep the screenshots it takes.

use crate::support;

use std::collections::HashSet;
use std::io::Cursor;
use std::time::Duration;

use partizan_web::Limits;
use serde_json::Value;
use support::webdriver::Browser;
use support::TestServer;

/// Distinct colours and the share of the commonest one in a PNG.
fn pixel_variety(png_bytes: &[u8]) -> (usize, f64, u32, u32) {
    let decoder = png::Decoder::new(Cursor::new(png_bytes));
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut buf).expect("PNG frame");
    let channels = info.color_type.samples();
    let bytes = &buf[..info.line_size * info.height as usize];
    let mut counts: std::collections::HashMap<&[u8], usize> = std::collections::HashMap::new();
    let mut total = 0usize;
    for row in bytes.chunks(info.line_size) {
        for px in row[..info.width as usize * channels].chunks(channels) {
            *counts.entry(px).or_default() += 1;
            total += 1;
        }
    }
    let top = counts.values().copied().max().unwrap_or(0);
    (
        counts.len(),
        top as f64 / total.max(1) as f64,
        info.width,
        info.height,
    )
}

fn region_fills(b: &Browser) -> Vec<String> {
    let v = b
        .execute(
            "return Array.from(document.querySelectorAll('#board rect[data-cell]'))\
             .filter(function(r){return r.dataset.region!==''})\
             .map(function(r){return r.getAttribute('fill')});",
        )
        .expect("fills");
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

fn whole_value(b: &Browser) -> String {
    let e = b.find("#whole-value").expect("value shown");
    b.text(&e).expect("value text")
}

/// Click a board cell and wait for the page the click navigates to.
fn click_cell(b: &Browser, i: usize) {
    let before = b.current_url().expect("url");
    let cell = b
        .find(&format!("#board rect[data-cell=\"{i}\"]"))
        .expect("cell");
    b.click(&cell).expect("click");
    let start = std::time::Instant::now();
    loop {
        let now = b.current_url().unwrap_or_default();
        let ready = b
            .execute("return document.readyState === 'complete' && !!document.querySelector('#whole-value');")
            .unwrap_or(Value::Bool(false));
        if now != before && ready == Value::Bool(true) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "click on cell {i} did not load a new page"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn save(name: &str, png: &[u8]) {
    if let Ok(dir) = std::env::var("PARTIZAN_SCREENSHOT_DIR") {
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(std::path::Path::new(&dir).join(name), png);
    }
}

/// Headless Chromium, or `None` (the test skips, saying why) where
/// chromedriver or chromium is missing.
fn start_browser(test: &str) -> Option<Browser> {
    match Browser::start() {
        Ok(b) => Some(b),
        Err(why) => {
            eprintln!("SKIPPED {test}: {why}");
            None
        }
    }
}

#[test]
fn explorer_and_census_in_headless_chromium() {
    let Some(browser) = start_browser("explorer_and_census_in_headless_chromium") else {
        return;
    };
    let server = TestServer::start(Limits::default());

    // A 4x4 board: one region.
    browser
        .goto(&server.url("/explore?ruleset=domineering&board=....|....|....|...."))
        .expect("open explorer");
    let first_value = whole_value(&browser);
    let fills: HashSet<String> = region_fills(&browser).into_iter().collect();
    assert_eq!(fills.len(), 1, "one region, one colour: {fills:?}");
    let count = browser
        .find("#region-count")
        .and_then(|e| browser.text(&e))
        .expect("count");
    assert_eq!(count, "1");

    // Click the second row's four cells: a wall, two regions.
    for i in 4..8 {
        click_cell(&browser, i);
    }
    let url = browser.current_url().expect("url");
    assert!(
        url.contains("board=....%7C%23%23%23%23%7C"),
        "board text rewritten: {url}"
    );
    let second_value = whole_value(&browser);
    assert_ne!(first_value, second_value, "value changes with the board");
    let fills: HashSet<String> = region_fills(&browser).into_iter().collect();
    assert_eq!(fills.len(), 2, "two regions in two colours: {fills:?}");
    let count = browser
        .find("#region-count")
        .and_then(|e| browser.text(&e))
        .expect("count");
    assert_eq!(count, "2");
    let identity = browser
        .find("#identity")
        .and_then(|e| browser.text(&e))
        .expect("identity");
    assert!(identity.contains("identity holds"), "{identity}");

    let png = browser.screenshot().expect("screenshot");
    save("explore.png", &png);
    let (colours, top_share, w, h) = pixel_variety(&png);
    assert!(w >= 800 && h >= 600, "screenshot {w}x{h}");
    assert!(colours > 20, "screenshot has only {colours} colours");
    assert!(
        top_share < 0.97,
        "screenshot is {:.1}% one colour",
        top_share * 100.0
    );

    // The census: click a shape, land on its explorer page.
    browser
        .goto(&server.url("/census/domineering?max_cells=5"))
        .expect("open census");
    browser
        .wait_for(
            "return !!document.querySelector('a.shape-link');",
            Duration::from_secs(60),
        )
        .expect("census shapes listed");
    let png = browser.screenshot().expect("screenshot");
    save("census.png", &png);
    let (colours, top_share, _, _) = pixel_variety(&png);
    assert!(
        colours > 20 && top_share < 0.97,
        "census screenshot looks blank"
    );
    let links = browser.find_all("a.shape-link").expect("links");
    assert!(links.len() > 10, "{} shapes", links.len());
    browser.click(&links[links.len() - 1]).expect("click shape");
    browser
        .wait_for(
            "return location.pathname === '/explore' && !!document.querySelector('#whole-value');",
            Duration::from_secs(30),
        )
        .expect("shape opens in the explorer");
    assert!(browser.find("#board").is_ok(), "the shape is drawn");
    let png = browser.screenshot().expect("screenshot");
    save("census-shape.png", &png);
    let (colours, top_share, _, _) = pixel_variety(&png);
    assert!(colours > 20 && top_share < 0.97);
}

/// Click a cell that does not (yet) make a move: no page load follows.
fn click_only(b: &Browser, i: usize) {
    let cell = b
        .find(&format!("#board rect[data-cell=\"{i}\"]"))
        .expect("cell");
    b.click(&cell).expect("click");
}

/// Wait for a page load to a different address with the explorer on it.
fn wait_new_page(b: &Browser, before: &str) {
    let start = std::time::Instant::now();
    loop {
        let now = b.current_url().unwrap_or_default();
        let ready = b
            .execute("return document.readyState === 'complete' && !!document.querySelector('#whole-value');")
            .unwrap_or(Value::Bool(false));
        if now != before && ready == Value::Bool(true) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no new page after {before}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn board_text(b: &Browser) -> String {
    b.execute("return document.getElementById('explorer').dataset.board;")
        .expect("board text")
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Elements wider than the viewport that no scrolling box of at most the
/// viewport's width contains, and the page's own horizontal overflow.
const OVERFLOW_JS: &str = r#"
var vw = document.documentElement.clientWidth, bad = [];
function contained(e) {
  for (var p = e.parentElement; p && p !== document.body; p = p.parentElement) {
    var ox = getComputedStyle(p).overflowX;
    if ((ox === 'auto' || ox === 'scroll' || ox === 'hidden') && p.getBoundingClientRect().width <= vw + 1) return true;
  }
  return false;
}
document.querySelectorAll('body *').forEach(function (e) {
  var r = e.getBoundingClientRect();
  if (r.width > vw + 1 && !contained(e)) bad.push(e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(r.width));
  else if (r.right > vw + 1 && !contained(e) && getComputedStyle(e).position !== 'fixed') bad.push(e.tagName + '#' + e.id + '.' + e.className + ' right ' + Math.round(r.right));
});
if (document.documentElement.scrollWidth > vw + 1) bad.push('page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + vw);
return bad.slice(0, 12);
"#;

#[test]
fn play_download_and_no_overflow_in_headless_chromium() {
    let Some(browser) = start_browser("play_download_and_no_overflow_in_headless_chromium") else {
        return;
    };
    // A small value atlas for the atlas page.
    let atlas = tempfile::tempdir().expect("atlas dir");
    let mut cfg = partizan_census::AtlasConfig::new(6);
    cfg.threads = 1;
    partizan_census::Atlas::build(&cfg, &mut partizan_census::DirStore::new(atlas.path()))
        .expect("atlas");
    let server = TestServer::start_with_atlas(Limits::default(), Some(atlas.path().into()));

    // A short Domineering game by clicks on a 3x3 board.
    browser
        .goto(&server.url("/explore?ruleset=domineering&board=...|...|..."))
        .expect("open explorer");
    browser
        .execute("sessionStorage.clear(); return true;")
        .expect("fresh history");
    let before = browser.current_url().unwrap();
    let left = browser.find("#mode-left").expect("mode switch");
    browser.click(&left).expect("play as Left");
    wait_new_page(&browser, &before);
    // The options list and the thermograph are there.
    let n_left = browser
        .find_all("#options-left a.option")
        .expect("options")
        .len();
    assert_eq!(n_left, 6, "Left has six vertical dominoes on 3x3");
    assert!(browser.find("#thermo-board").is_ok(), "thermograph drawn");
    assert!(browser.find("#best-Left").is_ok(), "best move named");
    let start_value = whole_value(&browser);
    // Left: a vertical domino on a1-a2 (cells 0 and 3), by two clicks.
    let before = browser.current_url().unwrap();
    click_only(&browser, 0);
    assert_eq!(
        browser.current_url().unwrap(),
        before,
        "one click is not a move"
    );
    click_only(&browser, 3);
    wait_new_page(&browser, &before);
    assert_eq!(board_text(&browser), "#..|#..|...");
    let mode = browser
        .execute("return document.querySelector('input[name=mode]:checked').value;")
        .unwrap();
    assert_eq!(mode, Value::from("right"), "the turn passes to Right");
    // Right: a horizontal domino on b3-c3 (cells 7 and 8).
    let before = browser.current_url().unwrap();
    click_only(&browser, 7);
    click_only(&browser, 8);
    wait_new_page(&browser, &before);
    assert_eq!(board_text(&browser), "#..|#..|.##");
    // Undo twice: back to the start; redo once.
    for _ in 0..2 {
        let before = browser.current_url().unwrap();
        let undo = browser.find("#undo").expect("undo");
        browser.click(&undo).expect("undo");
        wait_new_page(&browser, &before);
    }
    assert_eq!(board_text(&browser), "...|...|...");
    assert_eq!(whole_value(&browser), start_value);
    let before = browser.current_url().unwrap();
    let redo = browser.find("#redo").expect("redo");
    browser.click(&redo).expect("redo");
    wait_new_page(&browser, &before);
    assert_eq!(board_text(&browser), "#..|#..|...");

    // Download the board as SVG: catch the blob and check that it parses.
    let svg = download(&browser, "board", "svg");
    assert!(
        svg_count(&browser, &svg, "rect").is_some_and(|n| n >= 9),
        "the SVG download parses"
    );
    assert!(
        svg.starts_with("<?xml") && svg.contains("<svg"),
        "{svg:.80}"
    );
    save("downloaded-board.svg", svg.as_bytes());
    // The TikZ download is the text served beside the drawing.
    let tikz = download(&browser, "board", "tikz");
    assert!(tikz.contains("\\begin{tikzpicture}"));

    // Every page at 1400 and 800 pixels: screenshots, and nothing wider
    // than the viewport outside a box that scrolls.
    let pages = [
        ("home", "/"),
        ("value", "/value?values=%7B3%7C%7C2*%7C1*%7D%0A%5E%0A*"),
        (
            "explore",
            "/explore?ruleset=domineering&board=....|....|.%23..|....&mode=left",
        ),
        (
            "explore-clobber",
            "/explore?ruleset=clobber&board=xoxo|oxox",
        ),
        (
            "explore-amazons",
            "/explore?ruleset=amazons&board=L...|.%23..|...R",
        ),
        ("census", "/census/domineering?max_cells=6"),
        ("census-default", "/census/domineering"),
        ("census-cram", "/census/cram?max_cells=6"),
        ("sylver", "/sylver?max_gaps=10"),
        ("sylver-position", "/sylver/position?generators=5,7"),
        (
            "outcome-moves",
            "/outcome?ruleset=clobber&board=xoxo|oxox|xoxo&moves=on",
        ),
        (
            "explore-tags",
            "/explore?ruleset=domineering&board=..%23..|.%23...|%23....|...%23.",
        ),
        ("semigroups", "/semigroups?max_genus=12"),
        ("api", "/api"),
        ("outcome", "/outcome"),
        (
            "outcome-clobber",
            "/outcome?ruleset=clobber&board=xoxoxo|oxoxox|xoxoxo",
        ),
        ("grundy", "/grundy?game=0.07&up_to=200&heaps=3,7,12"),
        ("atlas", "/atlas?kind=nimber"),
        ("parts", "/parts"),
        ("sylver-trace", "/sylver/trace?gaps=1,2,3,4,7,8"),
    ];
    for width in [1400u32, 800] {
        browser.set_window_size(width, 1000).expect("resize");
        for (name, path) in pages {
            browser.goto(&server.url(path)).expect("open page");
            browser
                .wait_for(
                    "return document.readyState === 'complete';",
                    Duration::from_secs(60),
                )
                .expect("page loaded");
            let error = browser
                .execute("return !!document.getElementById('error');")
                .unwrap();
            assert_eq!(error, Value::Bool(false), "{name}: an error page");
            let png = browser.screenshot().expect("screenshot");
            save(&format!("{name}-{width}.png"), &png);
            let (colours, top_share, w, _) = pixel_variety(&png);
            assert!(
                colours > 20 && top_share < 0.99,
                "{name} at {width} looks blank"
            );
            assert!(w <= width, "{name}: screenshot {w} wide");
            let bad = browser.execute(OVERFLOW_JS).expect("overflow check");
            assert_eq!(
                bad.as_array().map(Vec::len),
                Some(0),
                "{name} at {width} px overflows: {bad}"
            );
        }
    }
}

/// Two-column lists (`dl.kv`) whose labels are not all in the left
/// column and values in the right, and option tags broken over two lines.
const LAYOUT_JS: &str = r#"
var bad = [];
document.querySelectorAll('dl.kv').forEach(function (dl) {
  var dts = Array.from(dl.children).filter(function (c) { return c.tagName === 'DT'; });
  var dds = Array.from(dl.children).filter(function (c) { return c.tagName === 'DD'; });
  Array.from(dl.children).forEach(function (c) {
    if (c.tagName !== 'DT' && c.tagName !== 'DD') bad.push((dl.id || 'dl') + ': a ' + c.tagName + ' in the list');
  });
  if (!dts.length) return;
  var left = Math.min.apply(null, dts.map(function (e) { return e.getBoundingClientRect().left; }));
  dts.forEach(function (e) {
    if (Math.abs(e.getBoundingClientRect().left - left) > 1) bad.push((dl.id || 'dl') + ': label "' + e.textContent + '" not in the left column');
  });
  dds.forEach(function (e) {
    if (e.getBoundingClientRect().left <= left + 1) bad.push((dl.id || 'dl') + ': value "' + e.textContent.slice(0, 30) + '" in the label column');
  });
});
document.querySelectorAll('.tag').forEach(function (t) {
  if (t.getClientRects().length !== 1) bad.push('tag "' + t.textContent + '" broken over lines');
});
return bad.slice(0, 12);
"#;

/// The researcher's pages in a real browser: the value page's drawing and
/// downloads, lists in two columns, whole option tags, the explorer's
/// short legend and its packing reading below the value, the census table
/// inside its page, the Sylver form keeping the generators, and the losing
/// first moves listed, at 1400 and 800 pixels.
#[test]
fn a_researcher_s_pages_in_headless_chromium() {
    let Some(browser) = start_browser("a_researcher_s_pages_in_headless_chromium") else {
        return;
    };
    let store = tempfile::tempdir().expect("store dir");
    let server = TestServer::start_with_store(Limits::default(), &store.path().join("s.redb"));
    let open = |path: &str| {
        browser.goto(&server.url(path)).expect("open page");
        browser
            .wait_for(
                "return document.readyState === 'complete';",
                Duration::from_secs(60),
            )
            .expect("page loaded");
    };
    let number = |script: &str| -> f64 {
        browser
            .execute(script)
            .expect("script")
            .as_f64()
            .unwrap_or(f64::NAN)
    };
    for width in [1400u32, 800] {
        browser.set_window_size(width, 1000).expect("resize");

        // The value page: reached from the header, every reading, the
        // thermograph drawn, its SVG download a real SVG.
        open("/");
        let link = browser.find("nav a[href='/value']").expect("header link");
        browser.click(&link).expect("click Values");
        browser
            .wait_for(
                "return location.pathname === '/value' && !!document.getElementById('values');",
                Duration::from_secs(30),
            )
            .expect("value page");
        browser
            .execute(
                "document.getElementById('values').value = '{3||2*|1*}\\n^';\
                 document.getElementById('value-form').submit(); return true;",
            )
            .expect("submit");
        browser
            .wait_for(
                "return !!document.getElementById('canonical-1') && document.readyState === 'complete';",
                Duration::from_secs(60),
            )
            .expect("analysed");
        let text = |id: &str| {
            browser
                .find(&format!("#{id}"))
                .and_then(|e| browser.text(&e))
                .unwrap_or_default()
        };
        assert_eq!(text("canonical-1"), "{3||2*|1*}");
        assert_eq!(text("mean-1"), "9/4");
        assert_eq!(text("temperature-1"), "3/4");
        assert_eq!(text("reduced-1"), "{3||2|1}");
        assert!(
            text("comparisons").contains("G1 > G2"),
            "{}",
            text("comparisons")
        );
        let drawn = number(
            "var s = document.getElementById('thermograph-1'); if (!s) return 0;\
             var r = s.getBoundingClientRect(); return r.width * (s.querySelectorAll('polyline,path,line').length > 2 ? 1 : 0);",
        );
        assert!(drawn > 200.0, "thermograph drawn {drawn} px wide");
        let svg = download(&browser, "thermograph-1", "svg");
        let lines = svg_count(&browser, &svg, "line,polyline,path");
        assert!(lines.is_some_and(|n| n > 2), "the thermograph's SVG parses");
        check_page(&browser, "value-typed", width);

        // The outcome page: labels left, values right; losing moves too.
        open("/outcome?ruleset=clobber&board=xoxo|oxox|xoxo&moves=on");
        let losing = text("first-moves-left");
        assert!(losing.contains(" lose"), "{losing}");
        check_page(&browser, "outcome-moves", width);
        // Again: answered from the store, its note outside the list.
        open("/outcome?ruleset=clobber&board=xoxo|oxox|xoxo");
        assert!(
            browser.find("#from-store").is_ok(),
            "answered from the store"
        );
        check_page(&browser, "outcome-from-store", width);

        // The explorer: whole tags, a short legend, the packing reading
        // below the value and the position graph.
        open("/explore?ruleset=domineering&board=..%23..|.%23...|%23....|...%23.");
        let legend =
            number("return document.getElementById('glyphs').getBoundingClientRect().height;");
        assert!(legend < 80.0, "the glyph legend is {legend} px tall");
        let below = number(
            "var y = function (id) { return document.getElementById(id).getBoundingClientRect().top; };\
             return y('interval') - Math.max(y('whole-value'), y('identity'));",
        );
        assert!(
            below > 0.0,
            "the packing reading is {below} px below the value"
        );
        let board_top =
            number("return document.getElementById('board').getBoundingClientRect().top;");
        assert!(board_top < 450.0, "the board starts {board_top} px down");
        check_page(&browser, "explore-tags", width);

        // The census at its default size: the table stays inside the page.
        open("/census/domineering");
        let out = number(
            "var m = document.querySelector('main').getBoundingClientRect().right, worst = -1e9;\
             document.querySelectorAll('main table').forEach(function (t) { worst = Math.max(worst, t.getBoundingClientRect().right - m); });\
             return worst;",
        );
        assert!(
            out <= 1.0,
            "a census table reaches {out} px past the page's right edge"
        );
        if width >= 1400 {
            // Wide enough to show every column without scrolling.
            let hidden = number(
                "var worst = 0; document.querySelectorAll('main table').forEach(function (t) {\
                 worst = Math.max(worst, t.scrollWidth - t.clientWidth); }); return worst;",
            );
            assert!(
                hidden <= 1.0,
                "{hidden} px of a census table hidden at {width} px"
            );
        }
        check_page(&browser, "census-default", width);
        open("/census/cram");
        check_page(&browser, "census-cram-default", width);

        // The Sylver form keeps the generators typed.
        open("/sylver/position?generators=5,7,10");
        let kept = browser
            .execute("return document.getElementById('generators').value;")
            .unwrap();
        assert_eq!(kept, Value::from("5,7,10"));
        check_page(&browser, "sylver-generators", width);
    }
}

/// Click the download button of picture `target` in `format` and return
/// what it would save (the blob is caught; no file is written).
fn download(b: &Browser, target: &str, format: &str) -> String {
    b.execute(
        "window.__dl = null; if (!window.__hooked) { window.__hooked = true; var orig = URL.createObjectURL;\
         URL.createObjectURL = function (x) { x.text().then(function (t) { window.__dl = t; }); return orig(x); };\
         HTMLAnchorElement.prototype.click = function () {}; } return true;",
    )
    .expect("hook downloads");
    let button = b
        .find(&format!(
            "button.dl[data-target={target}][data-format={format}]"
        ))
        .expect("download button");
    b.click(&button).expect("download");
    b.wait_for(
        "return typeof window.__dl === 'string';",
        Duration::from_secs(10),
    )
    .expect("downloaded");
    let text = b.execute("return window.__dl;").expect("download text");
    text.as_str().unwrap_or_default().to_string()
}

/// How many elements matching `selector` the SVG document `text` holds, as
/// the browser parses it; `None` when it is not an SVG document.
fn svg_count(b: &Browser, text: &str, selector: &str) -> Option<usize> {
    let script = format!(
        "var d = new DOMParser().parseFromString({}, 'image/svg+xml');\
         if (d.getElementsByTagName('parsererror').length || d.documentElement.tagName !== 'svg') return -1;\
         return d.querySelectorAll({}).length;",
        Value::from(text),
        Value::from(selector)
    );
    let n = b.execute(&script).expect("parse").as_i64().unwrap_or(-1);
    usize::try_from(n).ok()
}

/// A screenshot that is not blank, nothing wider than the viewport, and
/// the page's two-column lists and tags whole.
fn check_page(b: &Browser, name: &str, width: u32) {
    let png = b.screenshot().expect("screenshot");
    save(&format!("{name}-{width}.png"), &png);
    let (colours, top_share, _, _) = pixel_variety(&png);
    assert!(
        colours > 20 && top_share < 0.99,
        "{name} at {width} looks blank"
    );
    let error = b
        .execute("return !!document.getElementById('error');")
        .unwrap();
    assert_eq!(error, Value::Bool(false), "{name}: an error page");
    let bad = b.execute(OVERFLOW_JS).expect("overflow check");
    assert_eq!(
        bad.as_array().map(Vec::len),
        Some(0),
        "{name} at {width} px overflows: {bad}"
    );
    let bad = b.execute(LAYOUT_JS).expect("layout check");
    assert_eq!(
        bad.as_array().map(Vec::len),
        Some(0),
        "{name} at {width} px: {bad}"
    );
}
