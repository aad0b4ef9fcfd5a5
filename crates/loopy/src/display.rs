//! Game graphs written in CGSuite's loopy notation.
//!
//! A short part is written as its normal-play canonical form (`1/2`, `^*`);
//! a position that play can return to is `a{...}`, named by a letter where
//! a follower refers back to it, and `pass` where an option is the position
//! being written itself. The stoppers `on = {pass|}`, `off = {|pass}`,
//! `over = {0|pass}`, `under = {pass|0}`, `upon = {pass|*}` and
//! `dud = {pass|pass}` are written by name.

use partizan_core::Arena;
use rustc_hash::FxHashMap;

use crate::graph::Graph;
use crate::stopper::short_value;

/// Longest text written; past it the text ends in `...`.
pub const MAX_TEXT: usize = 100_000;

/// The graph's root in notation (options sorted by their text, so the text
/// does not depend on node numbering).
#[must_use]
pub fn display(g: &Graph, core: &mut Arena) -> String {
    let g = g.trimmed();
    let short = g.short_nodes();
    let mut shorts = FxHashMap::default();
    let mut texts: FxHashMap<u32, String> = FxHashMap::default();
    for x in 0..g.len() as u32 {
        if short[x as usize] {
            if let Ok(v) = short_value(&g, x, core, &mut shorts) {
                texts.insert(x, core.display(v));
            }
        }
    }
    // Back references: the nodes an option refers to while they are being
    // written (other than the one being written, which is `pass`).
    let mut labels: FxHashMap<u32, String> = FxHashMap::default();
    let mut w = Writer {
        g: &g,
        texts: &texts,
        labels: &mut labels,
        stack: Vec::new(),
        visits: 0,
    };
    w.find_labels(g.root());
    w.stack.clear();
    let mut out = String::new();
    w.write(g.root(), &mut out);
    out
}

struct Writer<'a> {
    g: &'a Graph,
    texts: &'a FxHashMap<u32, String>,
    labels: &'a mut FxHashMap<u32, String>,
    stack: Vec<u32>,
    visits: usize,
}

impl Writer<'_> {
    fn name(&self, x: u32) -> Option<&'static str> {
        let (l, r) = (self.g.left(x), self.g.right(x));
        let text = |y: &u32| self.texts.get(y).map(String::as_str);
        match (l, r) {
            ([a], []) if *a == x => Some("on"),
            ([], [a]) if *a == x => Some("off"),
            ([a], [b]) if *a == x && *b == x => Some("dud"),
            ([z], [a]) if *a == x && text(z) == Some("0") => Some("over"),
            ([a], [z]) if *a == x && text(z) == Some("0") => Some("under"),
            ([a], [z]) if *a == x && text(z) == Some("*") => Some("upon"),
            _ => None,
        }
    }

    fn find_labels(&mut self, x: u32) {
        if self.texts.contains_key(&x) || self.name(x).is_some() || self.stack.len() > 10_000 {
            return;
        }
        self.stack.push(x);
        let opts: Vec<u32> = self
            .g
            .left(x)
            .iter()
            .chain(self.g.right(x))
            .copied()
            .collect();
        for y in opts {
            if let Some(i) = self.stack.iter().position(|&s| s == y) {
                if i + 1 != self.stack.len() && !self.labels.contains_key(&y) {
                    let k = self.labels.len();
                    self.labels.insert(y, label(k));
                }
            } else if self.visits < MAX_TEXT {
                self.visits += 1;
                self.find_labels(y);
            }
        }
        self.stack.pop();
    }

    fn write(&mut self, x: u32, out: &mut String) {
        if out.len() > MAX_TEXT {
            if !out.ends_with("...") {
                out.push_str("...");
            }
            return;
        }
        if let Some(t) = self.texts.get(&x) {
            out.push_str(t);
            return;
        }
        if let Some(n) = self.name(x) {
            out.push_str(n);
            return;
        }
        if let Some(&top) = self.stack.last() {
            if top == x {
                out.push_str("pass");
                return;
            }
        }
        if self.stack.contains(&x) {
            out.push_str(&self.labels[&x]);
            return;
        }
        self.stack.push(x);
        if let Some(l) = self.labels.get(&x) {
            out.push_str(l);
        }
        out.push('{');
        let side = |w: &mut Self, opts: &[u32]| -> String {
            let mut parts: Vec<String> = opts
                .iter()
                .map(|&y| {
                    let mut s = String::new();
                    w.write(y, &mut s);
                    s
                })
                .collect();
            parts.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
            parts.join(",")
        };
        let l = side(self, self.g.left(x));
        let r = side(self, self.g.right(x));
        out.push_str(&l);
        out.push('|');
        out.push_str(&r);
        out.push('}');
        self.stack.pop();
    }
}

/// Labels `a`, `b`, ... (`v` skipped: it is down), then `a1`, `b1`, ...
fn label(k: usize) -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuwxyz";
    let c = LETTERS[k % LETTERS.len()] as char;
    let round = k / LETTERS.len();
    if round == 0 {
        c.to_string()
    } else {
        format!("{c}{round}")
    }
}
