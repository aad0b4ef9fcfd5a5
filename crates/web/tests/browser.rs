//! The site in a real browser: headless Chromium over WebDriver.
//!
//! Needs Debian's `chromium` and `chromium-driver` packages (`.ci/run`
//! installs them). Skips, saying why, when `chromedriver` is absent.
//! Set `PARTIZAN_SCREENSHOT_DIR` to keep the screenshots it takes.

mod support;

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

#[test]
fn explorer_and_census_in_headless_chromium() {
    let browser = match Browser::start() {
        Ok(b) => b,
        Err(why) => {
            eprintln!("SKIPPED explorer_and_census_in_headless_chromium: {why}");
            return;
        }
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
