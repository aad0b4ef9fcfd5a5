//! The front page: what each page illustrates, with a few boards and
//! positions from the essays to start from.

use axum::extract::State;
use axum::response::Html;

use crate::html::{explore_href, page};
use crate::AppState;

/// Boards from "Finding the parts": twenty squares each, blocked differently.
pub(crate) const EXAMPLES: &[(&str, &str, &str)] = &[
    (
        "domineering",
        "....|....|....|....|....",
        "nothing blocked: one region",
    ),
    (
        "domineering",
        "....|....|.#..|....|....",
        "one square blocked: still one region",
    ),
    (
        "domineering",
        "....|....|####|....|....",
        "a wall: two halves",
    ),
    ("domineering", "...#|..#.|.#..|#...|....", "a staircase"),
    (
        "domineering",
        "..#..|.#...|#....|...#.",
        "a few regions of different shapes",
    ),
    (
        "clobber",
        "xoxo|oxox|xo..",
        "Clobber: stones, empty squares separate",
    ),
    (
        "konane",
        "xox.|o.ox|....",
        "Kōnane: a single gap does not separate",
    ),
    ("amazons", "L..#|.#..|..#R", "Amazons: queens and arrows"),
];

pub(crate) async fn home(State(state): State<AppState>) -> Html<String> {
    // The census page's own default: the largest census the site allows.
    let cells = state.limits().max_census_cells;
    let mut ex = String::new();
    for (r, b, what) in EXAMPLES {
        ex.push_str(&format!(
            "<li><a href=\"{}\">{} <code>{}</code></a> — {}</li>\n",
            explore_href(r, b),
            r,
            crate::html::escape(b),
            crate::html::escape(what)
        ));
    }
    let body = format!(
        r#"<h1>partizan</h1>
<p>Exact combinatorial game theory, computed live. Every drawing on these pages is computed when
you ask for it, and every drawing that illustrates an identity is refused when the identity
fails on that input.</p>
<div class="row">
<div class="card" style="flex:1;min-width:300px">
<h3><a href="/value">Values</a></h3>
<p>Type a value in CGSuite notation — <a href="/value?values=%7B3%7C%7C2*%7C1*%7D"><code>{{3||2*|1*}}</code></a> —
and get its canonical form, stops, mean, temperature, atomic weight, reduced form, incentives
and thermograph; several values are added and compared.</p>
<h3><a href="/explore">Board explorer</a></h3>
<p>Type a board or click its cells. The board falls into regions — components of the relation
“some move touches both cells” — and the whole board's position graph is the product of the
regions' graphs. The explorer shows both numbers and draws the regions only when they agree.</p>
<ul>{ex}</ul>
</div>
<div class="card" style="flex:1;min-width:300px">
<h3><a href="/census/domineering">Region census</a></h3>
<p id="census-blurb">Every Domineering region up to {cells} squares: its value beside the packing readings — the
count of odd runs, and the interval from pessimistic to optimistic packings — with hit rates by
size and the distribution of errors (the essays' figures are <a href="/census/domineering?max_cells=8">at eight squares</a>).</p>
<h3><a href="/sylver">Sylver Coinage</a></h3>
<p>Positions are numerical semigroups. A position page marks each move struck (the pairing test
strikes it), survivor, or winning, with the remoteness and a winning line.
Try <a href="/sylver/position?gaps=1,2,3,4,5,6,7,8,10,11,13,14,16,19,28">the fifteen-gap position</a>
from <em>A different question at every depth</em>.</p>
<h3><a href="/semigroups">Semigroups</a></h3>
<p>How many numerical semigroups of each genus, with the growth plotted on a log scale.</p>
<h3><a href="/api">JSON API</a></h3>
<p>The same reports as the command line's <code>--json</code>.</p>
</div>
</div>"#
    );
    Html(page("Home", "", &body))
}
