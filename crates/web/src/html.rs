//! Page layout: escaping, the shared frame (nav bar, one CSS block, a few
//! lines of plain JavaScript for sortable tables) and small table helpers.
//! Pages are Rust format strings; there is no front-end build step.

use std::fmt::Write as _;

/// Escape text for HTML element content and double-quoted attributes (the
/// same escaping the pictures use).
pub use partizan_report::picture::escape;

/// At most `max` characters of `s`, with an ellipsis when cut.
pub fn shorten(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
        t.push('…');
        t
    }
}

/// Percent-encode a query-string value (everything but unreserved characters).
pub fn url_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

/// The explorer's address for a ruleset and board.
pub fn explore_href(ruleset: &str, board: &str) -> String {
    format!(
        "/explore?ruleset={}&amp;board={}",
        url_encode(ruleset),
        url_encode(board)
    )
}

/// The navigation entries: (key, label, address).
const NAV: &[(&str, &str, &str)] = &[
    ("value", "Values", "/value"),
    ("explore", "Board explorer", "/explore"),
    ("outcome", "Who wins", "/outcome"),
    ("census", "Census", "/census/domineering"),
    ("sylver", "Sylver Coinage", "/sylver"),
    ("semigroups", "Semigroups", "/semigroups"),
    ("grundy", "Grundy", "/grundy"),
    ("loopy", "Loopy", "/loopy"),
    ("atlas", "Atlas", "/atlas"),
    ("parts", "Parts", "/parts"),
    ("api", "JSON API", "/api"),
];

/// The site's one stylesheet.
pub const CSS: &str = r#"
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d2430;background:#f6f7f9}
nav{background:#1f2a3a;padding:.6rem 1.2rem;display:flex;flex-wrap:wrap;gap:.4rem 1.2rem;align-items:center;min-height:46px}
nav a{color:#c9d4e3;text-decoration:none;font-weight:500}
nav a.brand{color:#fff;font-weight:700;letter-spacing:.02em;margin-right:.6rem}
nav a.on{color:#fff;border-bottom:2px solid #7fb3ff;padding-bottom:2px}
main{max-width:1160px;margin:0 auto;padding:1.1rem 1.4rem 3rem}
h1{font-size:1.55rem;margin:.4rem 0 .6rem}
h2{font-size:1.2rem;margin:1.6rem 0 .5rem;border-bottom:1px solid #dde2ea;padding-bottom:.2rem}
h3{font-size:1.02rem;margin:1rem 0 .4rem}
p{max-width:52rem}
a{color:#2457a6}
code,kbd,.mono{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,monospace;font-size:.93em}
table{border-collapse:collapse;margin:.4rem 0 1rem;background:#fff;font-size:.92rem}
th,td{border:1px solid #dde2ea;padding:.25rem .55rem;text-align:left;vertical-align:top}
th{background:#eef1f6;font-weight:600;font-size:.88rem}
.scroll{overflow-x:auto;max-width:100%}
main:has(table.wide){max-width:1400px}
table.compact th,table.compact td{padding:.2rem .4rem;font-size:.85rem}
table.compact th{font-size:.8rem}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td.num{white-space:nowrap}
table.sortable th{cursor:pointer;user-select:none}
table.sortable th:after{content:" \2195";color:#9aa6b8;font-size:.8em}
.card{background:#fff;border:1px solid #dde2ea;border-radius:6px;padding:.8rem 1rem;margin:.6rem 0}
.card>h3:first-child{margin-top:.1rem}
.row{display:flex;gap:1.4rem;flex-wrap:wrap;align-items:flex-start}
.error{color:#a4161a;background:#fff1f0;border:1px solid #f3b8b5;border-radius:5px;padding:.6rem .8rem}
.refused{color:#7a4d00;background:#fff8e6;border:1px solid #f0d08a;border-radius:5px;padding:.6rem .8rem}
.ok{color:#1b6b2f}
.val{max-width:26rem;overflow-wrap:anywhere}
.muted{color:#6b7687}
.swatch{display:inline-block;width:.95em;height:.95em;border:1px solid #555;vertical-align:-.12em;margin-right:.3em}
form.inline{display:flex;gap:.6rem;align-items:center;flex-wrap:wrap;margin:.4rem 0 .8rem}
form.stack{display:flex;flex-direction:column;gap:.35rem;margin:.4rem 0 .8rem;max-width:52rem}
textarea{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.95em;padding:.35rem .45rem;border:1px solid #b9c2cf;border-radius:4px;width:100%;resize:vertical}
input[type=text]{font-family:ui-monospace,"DejaVu Sans Mono",monospace;padding:.3rem .45rem;min-width:18rem;border:1px solid #b9c2cf;border-radius:4px}
select,button{padding:.3rem .5rem;border:1px solid #b9c2cf;border-radius:4px;background:#fff}
button{cursor:pointer;background:#2457a6;color:#fff;border-color:#2457a6}
a.button{display:inline-block;padding:.3rem .6rem;border-radius:4px;background:#2457a6;color:#fff;text-decoration:none}
svg{background:#fff;max-width:100%;height:auto}
table{display:block;overflow-x:auto;max-width:100%}
.card{max-width:100%;overflow-x:auto}
p,dd,li,summary{overflow-wrap:anywhere}
rect.picked{stroke:#d00000;stroke-width:4}
.dlbar{margin:.3rem 0;display:flex;gap:.35rem;flex-wrap:wrap;align-items:center;font-size:.85rem}
.dlbar button{padding:.1rem .45rem;font-size:.82rem;background:#fff;color:#2457a6}
ul.opts{list-style:none;padding:0;margin:.2rem 0;columns:2 14rem}
ul.opts li{break-inside:avoid;margin:.1rem 0}
.tag{font-size:.75rem;border-radius:3px;padding:0 .3rem;margin-left:.3rem;background:#eef1f6;color:#445;display:inline-block;white-space:nowrap;overflow-wrap:normal}
.tag.best{background:#d8f3dc;color:#1b6b2f}
.tag.dom{background:#fde2e1;color:#a4161a}
.tag.rev{background:#fff3c4;color:#7a4d00}
.tag.orth{background:#dbeafe;color:#1e3a8a}
details.tree{margin-left:1rem}
details.tree summary{cursor:pointer}
.terms dt{font-weight:600}
.terms dd{margin:0 0 .4rem 1rem;color:#445}
svg text{font-family:system-ui,"DejaVu Sans",sans-serif}
.filters a{margin-right:.55rem}
.filters a.on{font-weight:700;text-decoration:none;color:#1d2430}
dl.kv{display:grid;grid-template-columns:max-content auto;gap:.15rem .9rem;margin:.3rem 0}
dl.kv dt{color:#6b7687}
dl.kv dd{margin:0;font-variant-numeric:tabular-nums}
"#;

/// The site's one script (sortable tables, downloads, the explorer's
/// click-to-move and undo), served at [`APP_JS_PATH`] so that the
/// Content-Security-Policy can forbid inline scripts.
pub const APP_JS: &str = include_str!("app.js");

/// Where [`APP_JS`] is served.
pub const APP_JS_PATH: &str = "/static/app.js";

/// The Content-Security-Policy every answer carries: scripts only from this
/// site (no inline script, so an injected `<script>` cannot run), styles
/// from the page, images from the site or from `data:`/`blob:` URLs (the
/// PNG download draws the SVG through one).
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The headers every answer carries, by name (lower case) and value: the
/// Content-Security-Policy, no MIME sniffing, no referrer sent elsewhere.
/// The router adds them to its answers, the front door
/// ([`crate::front_door`]) to the refusals it writes before the router.
pub const SECURITY_HEADERS: [(&str, &str); 3] = [
    ("content-security-policy", CSP),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
];

/// Wrap a page body in the site frame. `active` is the nav key to highlight.
pub fn page(title: &str, active: &str, body: &str) -> String {
    let mut nav = String::new();
    for (key, label, href) in NAV {
        let class = if *key == active { " class=\"on\"" } else { "" };
        let _ = write!(nav, "<a href=\"{href}\"{class}>{label}</a>");
    }
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
<title>{title} — partizan</title><style>{CSS}</style></head>\n<body>\
<nav><a class=\"brand\" href=\"/\">partizan</a>{nav}</nav>\n<main>\n{body}\n</main>\
<script src=\"{APP_JS_PATH}\" defer></script></body></html>\n",
        title = escape(title)
    )
}

/// Format a count with thin thousands separators (`58,830`).
pub fn thousands(n: u128) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A percentage with one decimal, or a dash for an empty denominator.
pub fn percent(hits: u64, total: u64) -> String {
    if total == 0 {
        "—".to_string()
    } else {
        format!("{:.1}%", 100.0 * hits as f64 / total as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            escape("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn url_encodes_board_text() {
        assert_eq!(url_encode("..#|.L R"), "..%23%7C.L%20R");
    }

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(58830), "58,830");
        assert_eq!(thousands(6257129), "6,257,129");
    }

    #[test]
    fn page_has_nav_and_escaped_title() {
        let p = page("a<b", "census", "<p>x</p>");
        assert!(p.contains("a&lt;b — partizan"));
        assert!(p.contains("<a href=\"/census/domineering\" class=\"on\">"));
        assert!(p.contains("<p>x</p>"));
    }
}
