//! CGSuite's loopy notation, read into a game graph.
//!
//! * `{L|R}` with options separated by commas and nested games by runs of
//!   bars (`{0||0|pass}`: the deepest run splits first), as for short games;
//!   a nested game written with bars is a position of its own.
//! * `pass`: the position being written (the innermost braces or bar game):
//!   `{pass|}` is `on`.
//! * `a{...}`: a position named `a`, which its followers may name again
//!   (`a{0|{*|a}}`).
//! * `on`, `off`, `over`, `under`, `upon`, `dud`, `tis`, `tisn`.
//! * anything else is a short value in the normal-play notation (`1/2`,
//!   `^*`, `v`, `-1`, `+-1`, `Tiny(2)`), `-x` is `x` with the players
//!   exchanged, `x + y` the sum.

use partizan_core::Arena;

use crate::graph::Graph;
use crate::LoopyError;

/// Most nested braces accepted.
const MAX_DEPTH: usize = 200;

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    LBrace,
    RBrace,
    Comma,
    Bars(usize),
    Plus,
    Minus,
    LParen,
    RParen,
    /// A word: `pass`, a loopy name or a label.
    Word(String),
    /// Normal-play notation, handed to the short-game parser.
    Short(String),
}

fn is_short_word(w: &str) -> bool {
    // Down arrows (`v`, `vv`, `v3`) and CGSuite's named functions.
    w.bytes().all(|c| c == b'v')
        || (w.starts_with('v') && w[1..].bytes().all(|c| c.is_ascii_digit()))
}

fn lex(s: &str) -> Result<Vec<(Tok, usize)>, LoopyError> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'{' | b'}' | b',' | b'(' | b')' => {
                let t = match c {
                    b'{' => Tok::LBrace,
                    b'}' => Tok::RBrace,
                    b',' => Tok::Comma,
                    b'(' => Tok::LParen,
                    _ => Tok::RParen,
                };
                out.push((t, i));
                i += 1;
            }
            b'|' => {
                while i < b.len() && b[i] == b'|' {
                    i += 1;
                }
                out.push((Tok::Bars(i - start), start));
            }
            b'+' if b.get(i + 1) != Some(&b'-') => {
                out.push((Tok::Plus, i));
                i += 1;
            }
            b'-' => {
                out.push((Tok::Minus, i));
                i += 1;
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let mut j = i;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                let w = &s[i..j];
                if w == "Tiny" || w == "Miny" {
                    // A function of the short notation: through its ')'.
                    let mut depth = 0i32;
                    let mut k = j;
                    while k < b.len() {
                        match b[k] {
                            b'(' => depth += 1,
                            b')' => {
                                depth -= 1;
                                if depth == 0 {
                                    k += 1;
                                    break;
                                }
                            }
                            _ => {}
                        }
                        k += 1;
                    }
                    out.push((Tok::Short(s[i..k].to_string()), i));
                    i = k;
                } else if is_short_word(w) {
                    let mut k = j;
                    while k < b.len() && matches!(b[k], b'*' | b'0'..=b'9') {
                        k += 1;
                    }
                    out.push((Tok::Short(s[i..k].to_string()), i));
                    i = k;
                } else {
                    out.push((Tok::Word(w.to_string()), i));
                    i = j;
                }
            }
            _ => {
                // A run of short notation: to the next delimiter.
                let mut j = i;
                while j < b.len() {
                    let d = b[j];
                    if matches!(
                        d,
                        b'{' | b'}' | b',' | b'|' | b' ' | b'(' | b')' | b'\t' | b'\n' | b'\r'
                    ) || (d == b'+' && b.get(j + 1) != Some(&b'-'))
                        || (d == b'-' && j > i && b[j - 1] != b'+')
                        || (d.is_ascii_alphabetic() && d != b'v')
                    {
                        break;
                    }
                    j += 1;
                }
                if j == i {
                    let ch = s[i..].chars().next().unwrap_or('?');
                    return Err(LoopyError::Parse {
                        offset: i,
                        message: format!("unexpected character '{ch}'"),
                    });
                }
                out.push((Tok::Short(s[i..j].to_string()), i));
                i = j;
            }
        }
    }
    Ok(out)
}

#[derive(Clone, Debug)]
enum Expr {
    Game(Option<String>, Vec<Expr>, Vec<Expr>),
    Pass(usize),
    Word(String, usize),
    Short(String, usize),
    Neg(Box<Expr>),
    Sum(Box<Expr>, Box<Expr>),
}

struct Parser<'a> {
    toks: &'a [(Tok, usize)],
    end: usize,
    depth: usize,
}

fn err(offset: usize, message: impl Into<String>) -> LoopyError {
    LoopyError::Parse {
        offset,
        message: message.into(),
    }
}

impl Parser<'_> {
    fn off(&self, i: usize) -> usize {
        self.toks.get(i).map_or(self.end, |t| t.1)
    }

    /// expr := term (('+' | '-') term)* over toks[i..j].
    fn expr(&mut self, i: usize, j: usize) -> Result<Expr, LoopyError> {
        let mut p = i;
        let mut acc = self.term(&mut p, j)?;
        while p < j {
            let neg = match self.toks[p].0 {
                Tok::Plus => false,
                Tok::Minus => true,
                _ => return Err(err(self.off(p), "expected '+', '-' or the end")),
            };
            p += 1;
            let mut t = self.term(&mut p, j)?;
            if neg {
                t = Expr::Neg(Box::new(t));
            }
            acc = Expr::Sum(Box::new(acc), Box::new(t));
        }
        Ok(acc)
    }

    fn term(&mut self, p: &mut usize, j: usize) -> Result<Expr, LoopyError> {
        if *p >= j {
            return Err(err(self.off(*p), "expected a value"));
        }
        let at = self.off(*p);
        match self.toks[*p].0.clone() {
            Tok::Minus => {
                *p += 1;
                Ok(Expr::Neg(Box::new(self.term(p, j)?)))
            }
            Tok::LParen => {
                let close = self.matching(*p, j, &Tok::LParen, &Tok::RParen)?;
                let e = self.expr(*p + 1, close)?;
                *p = close + 1;
                Ok(e)
            }
            Tok::LBrace => {
                let close = self.matching(*p, j, &Tok::LBrace, &Tok::RBrace)?;
                let g = self.braces(None, *p + 1, close)?;
                *p = close + 1;
                Ok(g)
            }
            Tok::Word(w) => {
                *p += 1;
                if *p < j && self.toks[*p].0 == Tok::LBrace {
                    let close = self.matching(*p, j, &Tok::LBrace, &Tok::RBrace)?;
                    let g = self.braces(Some(w), *p + 1, close)?;
                    *p = close + 1;
                    return Ok(g);
                }
                Ok(if w == "pass" {
                    Expr::Pass(at)
                } else {
                    Expr::Word(w, at)
                })
            }
            Tok::Short(s) => {
                *p += 1;
                Ok(Expr::Short(s, at))
            }
            _ => Err(err(at, "expected a value")),
        }
    }

    fn matching(&self, i: usize, j: usize, open: &Tok, close: &Tok) -> Result<usize, LoopyError> {
        let mut depth = 0;
        for k in i..j {
            if &self.toks[k].0 == open {
                depth += 1;
            } else if &self.toks[k].0 == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(k);
                }
            }
        }
        Err(err(self.off(i), "unclosed bracket"))
    }

    /// The inside of braces (toks[i..j]) as a game.
    fn braces(&mut self, label: Option<String>, i: usize, j: usize) -> Result<Expr, LoopyError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(err(self.off(i), "braces nested too deeply"));
        }
        let g = self.game(label, i, j)?;
        self.depth -= 1;
        Ok(g)
    }

    /// toks[i..j] holds top-level bars: split at the longest run.
    fn game(&mut self, label: Option<String>, i: usize, j: usize) -> Result<Expr, LoopyError> {
        let mut depth = 0i32;
        let mut best: Option<(usize, usize)> = None;
        let mut count = 0;
        for k in i..j {
            match self.toks[k].0 {
                Tok::LBrace | Tok::LParen => depth += 1,
                Tok::RBrace | Tok::RParen => depth -= 1,
                Tok::Bars(n) if depth == 0 => match best {
                    Some((_, m)) if m > n => {}
                    Some((_, m)) if m == n => count += 1,
                    _ => {
                        best = Some((k, n));
                        count = 1;
                    }
                },
                _ => {}
            }
        }
        let Some((k, _)) = best else {
            return Err(err(self.off(i), "expected '|' inside braces"));
        };
        if count > 1 {
            return Err(err(
                self.off(k),
                "ambiguous bars: several runs of the same length",
            ));
        }
        let left = self.side(i, k)?;
        let right = self.side(k + 1, j)?;
        Ok(Expr::Game(label, left, right))
    }

    /// One side: a bar game of its own, or options separated by commas.
    fn side(&mut self, i: usize, j: usize) -> Result<Vec<Expr>, LoopyError> {
        let mut depth = 0i32;
        let mut bars = false;
        for k in i..j {
            match self.toks[k].0 {
                Tok::LBrace | Tok::LParen => depth += 1,
                Tok::RBrace | Tok::RParen => depth -= 1,
                Tok::Bars(_) if depth == 0 => bars = true,
                _ => {}
            }
        }
        if bars {
            return Ok(vec![self.game(None, i, j)?]);
        }
        if i == j {
            return Ok(Vec::new());
        }
        let pieces = partizan_core::notation::top_level_pieces(
            i,
            j,
            |k| match self.toks[k].0 {
                Tok::LBrace | Tok::LParen => 1,
                Tok::RBrace | Tok::RParen => -1,
                _ => 0,
            },
            |k| self.toks[k].0 == Tok::Comma,
        );
        let mut out = Vec::with_capacity(pieces.len());
        for (from, k) in pieces {
            if from == k {
                return Err(err(self.off(k), "empty option"));
            }
            out.push(self.expr(from, k)?);
        }
        Ok(out)
    }
}

/// Reads notation into a game graph; short parts are built by `core`.
pub fn parse(s: &str, core: &mut Arena, max_nodes: usize) -> Result<Graph, LoopyError> {
    let toks = lex(s)?;
    if toks.is_empty() {
        return Err(err(0, "empty value"));
    }
    let mut p = Parser {
        toks: &toks,
        end: s.len(),
        depth: 0,
    };
    let e = p.expr(0, toks.len())?;
    let mut b = Builder {
        core,
        graph: Graph::default(),
        max_nodes,
    };
    let root = b.build(&e, &mut Vec::new())?;
    b.graph.set_root(root);
    Ok(b.graph.trimmed())
}

struct Builder<'a> {
    core: &'a mut Arena,
    graph: Graph,
    max_nodes: usize,
}

impl Builder<'_> {
    fn room(&self) -> Result<(), LoopyError> {
        if self.graph.len() > self.max_nodes {
            return Err(LoopyError::TooLarge {
                limit: self.max_nodes,
            });
        }
        Ok(())
    }

    /// The node of `e`; `scope` holds the positions being written, with
    /// their labels.
    fn build(
        &mut self,
        e: &Expr,
        scope: &mut Vec<(Option<String>, u32)>,
    ) -> Result<u32, LoopyError> {
        self.room()?;
        match e {
            Expr::Game(label, l, r) => {
                let x = self.graph.add();
                scope.push((label.clone(), x));
                let mut ls = Vec::with_capacity(l.len());
                for o in l {
                    ls.push(self.build(o, scope)?);
                }
                let mut rs = Vec::with_capacity(r.len());
                for o in r {
                    rs.push(self.build(o, scope)?);
                }
                scope.pop();
                self.graph.set(x, ls, rs);
                Ok(x)
            }
            Expr::Pass(at) => scope.last().map(|s| s.1).ok_or_else(|| {
                err(
                    *at,
                    "pass outside braces: it names the position being written",
                )
            }),
            Expr::Word(w, at) => {
                if let Some(&(_, x)) = scope
                    .iter()
                    .rev()
                    .find(|s| s.0.as_deref() == Some(w.as_str()))
                {
                    return Ok(x);
                }
                let g = named(w).ok_or_else(|| {
                    err(
                        *at,
                        format!("unknown name '{w}' (a label must be defined by an enclosing name{{...}}; the loopy names are on, off, over, under, upon, dud, tis, tisn)"),
                    )
                })?;
                let off = self.graph.append(&g);
                Ok(g.root() + off)
            }
            Expr::Short(s, at) => {
                let v = self
                    .core
                    .parse(s)
                    .map_err(|e| err(at + e.offset, e.message))?;
                let g = Graph::short(self.core, v);
                let off = self.graph.append(&g);
                Ok(g.root() + off)
            }
            Expr::Neg(x) => {
                let g = self.alone(x)?.neg();
                let off = self.graph.append(&g);
                Ok(g.root() + off)
            }
            Expr::Sum(x, y) => {
                let a = self.alone(x)?;
                let b = self.alone(y)?;
                let g = a.sum(&b, self.max_nodes)?;
                let off = self.graph.append(&g);
                Ok(g.root() + off)
            }
        }
    }

    /// A sub-expression as a graph of its own (sums and negatives cannot
    /// refer to positions around them).
    fn alone(&mut self, e: &Expr) -> Result<Graph, LoopyError> {
        let mut b = Builder {
            core: self.core,
            graph: Graph::default(),
            max_nodes: self.max_nodes,
        };
        let root = b.build(e, &mut Vec::new())?;
        b.graph.set_root(root);
        Ok(b.graph.trimmed())
    }
}

/// The named loopy values.
#[must_use]
pub fn named(name: &str) -> Option<Graph> {
    let mut g = Graph::default();
    let x = g.add();
    match name {
        "on" => g.set(x, vec![x], vec![]),
        "off" => g.set(x, vec![], vec![x]),
        "dud" => g.set(x, vec![x], vec![x]),
        "over" | "under" | "upon" => {
            let z = g.add();
            let opt = if name == "upon" {
                let s = g.add();
                g.set(s, vec![z], vec![z]);
                s
            } else {
                z
            };
            if name == "over" {
                g.set(x, vec![opt], vec![x]);
            } else {
                g.set(x, vec![x], vec![opt]);
            }
        }
        "tis" | "tisn" => {
            // tis = {tisn |}, tisn = { | tis}.
            let y = g.add();
            g.set(x, vec![y], vec![]);
            g.set(y, vec![], vec![x]);
            if name == "tisn" {
                g.set_root(y);
                return Some(g.trimmed());
            }
        }
        _ => return None,
    }
    g.set_root(x);
    Some(g.trimmed())
}

/// Every named value, for help texts.
pub const NAMES: [&str; 8] = ["on", "off", "over", "under", "upon", "dud", "tis", "tisn"];
