//! CGSuite notation, both ways.
//!
//! Printing: numbers `0`, `-3/2`; number-up-stars `*`, `*2`, `^`, `^^`, `^3`,
//! `v`, `vv`, `v3`, `^*`, `1/2^`, `-1v*3`; switches `±1`, `±{2|0}`,
//! `±{1,{2|0}}` (right options exactly the negatives of the left ones);
//! general forms `{a,b|c}`, where a side holding one compound option drops
//! that option's braces and the separator between the sides gets one bar more
//! than the deepest separator it encloses: `{2|0||-1}`, `{0||0|-1}`.
//! Options are listed in a fixed structural order (numbers first, ascending;
//! then other forms lexicographically by their sorted left, then right,
//! options), so printing does not depend on the arena's history.
//!
//! Parsing accepts all of the above plus `+-` for `±`, `↑`/`↓`, whitespace,
//! a leading `-` on any term (negation), `x±y` (sum), and braceless bar
//! expressions at the top level; separators are split at the unique deepest
//! run of bars.

use std::cmp::Ordering;
use std::fmt::Write;

use rustc_hash::FxHashMap;

use crate::dyadic::Dyadic;
use crate::error::{ParseError, ValueError};
use crate::game::{Arena, GameId, MAX_DEPTH, MAX_NIMBER, MAX_UP};

impl Arena {
    /// Structural total order on canonical forms used for printing and
    /// encoding: numbers first (by value), then everything else compared
    /// lexicographically by sorted left options, then sorted right options
    /// (a proper prefix first).
    pub fn structural_cmp(&mut self, a: GameId, b: GameId) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        match (self.as_number(a), self.as_number(b)) {
            (Some(x), Some(y)) => return x.cmp(&y),
            (Some(_), None) => return Ordering::Less,
            (None, Some(_)) => return Ordering::Greater,
            (None, None) => {}
        }
        let key = (u64::from(a.0) << 32) | u64::from(b.0);
        if let Some(&o) = self.order_cache.get(&key) {
            return o;
        }
        let la = self.sorted_left(a);
        let lb = self.sorted_left(b);
        let mut o = self.cmp_lists(&la, &lb);
        if o == Ordering::Equal {
            let ra = self.sorted_right(a);
            let rb = self.sorted_right(b);
            o = self.cmp_lists(&ra, &rb);
        }
        self.order_cache.insert(key, o);
        self.order_cache
            .insert((u64::from(b.0) << 32) | u64::from(a.0), o.reverse());
        o
    }

    fn cmp_lists(&mut self, a: &[GameId], b: &[GameId]) -> Ordering {
        for (&x, &y) in a.iter().zip(b) {
            let o = self.structural_cmp(x, y);
            if o != Ordering::Equal {
                return o;
            }
        }
        a.len().cmp(&b.len())
    }

    /// Sorts ids by [`Arena::structural_cmp`].
    pub fn sort_structural(&mut self, v: &mut [GameId]) {
        // insertion sort: option lists are short and the comparator needs &mut self
        for i in 1..v.len() {
            let mut j = i;
            while j > 0 && self.structural_cmp(v[j - 1], v[j]) == Ordering::Greater {
                v.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// Left options of `a` in structural order.
    pub fn sorted_left(&mut self, a: GameId) -> Vec<GameId> {
        let mut v = self.left_options(a).to_vec();
        self.sort_structural(&mut v);
        v
    }

    /// Right options of `a` in structural order.
    pub fn sorted_right(&mut self, a: GameId) -> Vec<GameId> {
        let mut v = self.right_options(a).to_vec();
        self.sort_structural(&mut v);
        v
    }

    /// Whether the right options of `a` are exactly the negatives of its left
    /// options (`a = ±{...}`).
    pub fn is_switch(&mut self, a: GameId) -> bool {
        let l = self.left_options(a).to_vec();
        if l.len() != self.right_options(a).len() {
            return false;
        }
        let mut neg: Vec<GameId> = l.iter().map(|&g| self.neg(g)).collect();
        neg.sort_unstable();
        neg == self.right_options(a)
    }

    /// CGSuite notation of `a`.
    pub fn display(&mut self, a: GameId) -> String {
        let mut memo = FxHashMap::default();
        self.fmt_game(a, &mut memo)
    }

    fn is_compound(&mut self, g: GameId) -> bool {
        self.as_nus(g).is_none() && !self.is_switch(g)
    }

    fn fmt_game(&mut self, g: GameId, memo: &mut FxHashMap<u32, String>) -> String {
        if let Some(s) = memo.get(&g.0) {
            return s.clone();
        }
        let s = if let Some(n) = self.as_nus(g) {
            fmt_nus(n.number, n.ups, n.nimber)
        } else if self.is_switch(g) {
            let l = self.sorted_left(g);
            let mut s = String::from("±");
            if l.len() == 1 {
                s.push_str(&self.fmt_game(l[0], memo));
            } else {
                s.push('{');
                for (i, &o) in l.iter().enumerate() {
                    if i > 0 {
                        s.push(',');
                    }
                    s.push_str(&self.fmt_game(o, memo));
                }
                s.push('}');
            }
            s
        } else {
            let (c, _) = self.fmt_general(g, memo);
            format!("{{{c}}}")
        };
        memo.insert(g.0, s.clone());
        s
    }

    /// Content of a compound form without its outer braces, and the number
    /// of bars in its top separator.
    fn fmt_general(&mut self, g: GameId, memo: &mut FxHashMap<u32, String>) -> (String, usize) {
        let l = self.sorted_left(g);
        let r = self.sorted_right(g);
        let (ls, ld) = self.fmt_side(&l, memo);
        let (rs, rd) = self.fmt_side(&r, memo);
        let bars = 1 + ld.max(rd);
        let mut s = ls;
        for _ in 0..bars {
            s.push('|');
        }
        s.push_str(&rs);
        (s, bars)
    }

    fn fmt_side(&mut self, opts: &[GameId], memo: &mut FxHashMap<u32, String>) -> (String, usize) {
        if opts.len() == 1 && self.is_compound(opts[0]) {
            return self.fmt_general(opts[0], memo);
        }
        let mut s = String::new();
        for (i, &o) in opts.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&self.fmt_game(o, memo));
        }
        (s, 0)
    }

    /// Parses CGSuite notation into a canonical form.
    pub fn parse(&mut self, s: &str) -> Result<GameId, ParseError> {
        let toks = lex(s)?;
        let mut p = Parser {
            toks: &toks,
            end: s.len(),
            depth: 0,
        };
        let ast = p.top()?;
        self.eval(&ast)
    }

    fn eval(&mut self, a: &Ast) -> Result<GameId, ParseError> {
        let at = |e: ValueError| ParseError::new(a.offset, e.to_string());
        match &a.kind {
            AstKind::Nus(x, k, m) => {
                if *m > MAX_NIMBER {
                    return Err(ParseError::new(
                        a.offset,
                        format!("nimber *{m} is too large"),
                    ));
                }
                self.nus(*x, *k, *m).map_err(at)
            }
            AstKind::Game(l, r) => {
                let mut lv = Vec::with_capacity(l.len());
                for o in l {
                    lv.push(self.eval(o)?);
                }
                let mut rv = Vec::with_capacity(r.len());
                for o in r {
                    rv.push(self.eval(o)?);
                }
                self.construct(&lv, &rv).map_err(at)
            }
            AstKind::Neg(t) => {
                let g = self.eval(t)?;
                Ok(self.neg(g))
            }
            AstKind::Pm(opts) => {
                let mut lv = Vec::with_capacity(opts.len());
                for o in opts {
                    lv.push(self.eval(o)?);
                }
                let rv: Vec<GameId> = lv.iter().map(|&g| self.neg(g)).collect();
                self.construct(&lv, &rv).map_err(at)
            }
            AstKind::Add(x, y) => {
                let g = self.eval(x)?;
                let h = self.eval(y)?;
                self.sum(g, h).map_err(at)
            }
        }
    }
}

fn fmt_nus(x: Dyadic, k: i32, m: u32) -> String {
    let mut s = String::new();
    if x.is_zero() && k == 0 && m == 0 {
        return "0".into();
    }
    if !x.is_zero() {
        let _ = write!(s, "{x}");
    }
    let (c, n) = if k > 0 { ('^', k) } else { ('v', -k) };
    match n {
        0 => {}
        1 => s.push(c),
        2 => {
            s.push(c);
            s.push(c);
        }
        _ => {
            let _ = write!(s, "{c}{n}");
        }
    }
    match m {
        0 => {}
        1 => s.push('*'),
        _ => {
            let _ = write!(s, "*{m}");
        }
    }
    s
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    LBrace,
    RBrace,
    Comma,
    Bars(usize),
    Pm,
    Minus,
    /// unsigned numerator, denominator exponent
    Num(Dyadic),
    Star(u32),
    /// signed up multiple
    Ups(i64),
}

fn lex(s: &str) -> Result<Vec<(Tok, usize)>, ParseError> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let digits = |i: usize| -> usize {
        let mut j = i;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        j
    };
    let parse_u32 = |from: usize, to: usize| -> Result<u32, ParseError> {
        s[from..to]
            .parse::<u32>()
            .map_err(|_| ParseError::new(from, "number too large"))
    };
    while i < b.len() {
        let c = b[i];
        let start = i;
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'{' => {
                out.push((Tok::LBrace, i));
                i += 1;
            }
            b'}' => {
                out.push((Tok::RBrace, i));
                i += 1;
            }
            b',' => {
                out.push((Tok::Comma, i));
                i += 1;
            }
            b'|' => {
                let mut j = i;
                while j < b.len() && b[j] == b'|' {
                    j += 1;
                }
                out.push((Tok::Bars(j - i), i));
                i = j;
            }
            b'+' => {
                if b.get(i + 1) == Some(&b'-') {
                    out.push((Tok::Pm, i));
                    i += 2;
                } else {
                    return Err(ParseError::new(i, "expected '+-'"));
                }
            }
            b'-' => {
                out.push((Tok::Minus, i));
                i += 1;
            }
            b'0'..=b'9' => {
                let j = digits(i);
                let mut end = j;
                if b.get(j) == Some(&b'/') {
                    let k = digits(j + 1);
                    if k == j + 1 {
                        return Err(ParseError::new(j + 1, "expected a denominator"));
                    }
                    end = k;
                }
                let x: Dyadic = s[i..end]
                    .parse()
                    .map_err(|e: ParseError| ParseError::new(i + e.offset, e.message))?;
                out.push((Tok::Num(x), i));
                i = end;
            }
            b'*' => {
                let j = digits(i + 1);
                let n = if j > i + 1 { parse_u32(i + 1, j)? } else { 1 };
                out.push((Tok::Star(n), i));
                i = j;
            }
            b'^' | b'v' => {
                let mut j = i;
                while j < b.len() && b[j] == c {
                    j += 1;
                }
                let run = (j - i) as i64;
                let k = digits(j);
                let n = if k > j {
                    if run > 1 {
                        return Err(ParseError::new(j, "repeat count after a repeated arrow"));
                    }
                    i64::from(parse_u32(j, k)?)
                } else {
                    run
                };
                out.push((Tok::Ups(if c == b'^' { n } else { -n }), i));
                i = k;
            }
            _ => {
                let ch = s[i..].chars().next().unwrap_or('?');
                let len = ch.len_utf8();
                match ch {
                    '±' => out.push((Tok::Pm, i)),
                    '↑' | '↓' => {
                        let mut j = i;
                        let mut run = 0i64;
                        while s[j..].starts_with(ch) {
                            j += len;
                            run += 1;
                        }
                        let k = digits(j);
                        let n = if k > j {
                            if run > 1 {
                                return Err(ParseError::new(
                                    j,
                                    "repeat count after a repeated arrow",
                                ));
                            }
                            i64::from(parse_u32(j, k)?)
                        } else {
                            run
                        };
                        out.push((Tok::Ups(if ch == '↑' { n } else { -n }), i));
                        i = k;
                        continue;
                    }
                    _ => {
                        return Err(ParseError::new(
                            start,
                            format!("unexpected character '{ch}'"),
                        ))
                    }
                }
                i += len;
            }
        }
    }
    Ok(out)
}

#[derive(Debug)]
struct Ast {
    offset: usize,
    kind: AstKind,
}

#[derive(Debug)]
enum AstKind {
    Nus(Dyadic, i32, u32),
    Game(Vec<Ast>, Vec<Ast>),
    Neg(Box<Ast>),
    Pm(Vec<Ast>),
    Add(Box<Ast>, Box<Ast>),
}

struct Parser<'a> {
    toks: &'a [(Tok, usize)],
    end: usize,
    /// current nesting of terms, bounded by [`MAX_DEPTH`]
    depth: usize,
}

impl Parser<'_> {
    fn off(&self, i: usize) -> usize {
        self.toks.get(i).map_or(self.end, |t| t.1)
    }

    fn top(&mut self) -> Result<Ast, ParseError> {
        let n = self.toks.len();
        if n == 0 {
            return Err(ParseError::new(0, "empty input"));
        }
        if self.top_bars(0, n)?.is_some() {
            return self.content(0, n);
        }
        self.term_exact(0, n)
    }

    /// Index of the matching `}` for the `{` at `i`.
    fn matching(&self, i: usize, j: usize) -> Result<usize, ParseError> {
        let mut depth = 0usize;
        for k in i..j {
            match self.toks[k].0 {
                Tok::LBrace => depth += 1,
                Tok::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(k);
                    }
                }
                _ => {}
            }
        }
        Err(ParseError::new(self.off(i), "unclosed '{'"))
    }

    /// The unique deepest top-level bar run in `[i, j)`, if any bars.
    fn top_bars(&self, i: usize, j: usize) -> Result<Option<usize>, ParseError> {
        let mut depth = 0i64;
        let mut best: Option<(usize, usize)> = None; // (run, index)
        let mut dup = false;
        for k in i..j {
            match self.toks[k].0 {
                Tok::LBrace => depth += 1,
                Tok::RBrace => {
                    depth -= 1;
                    if depth < 0 {
                        return Err(ParseError::new(self.off(k), "unmatched '}'"));
                    }
                }
                Tok::Bars(n) if depth == 0 => match best {
                    Some((m, _)) if m > n => {}
                    Some((m, _)) if m == n => dup = true,
                    _ => {
                        best = Some((n, k));
                        dup = false;
                    }
                },
                _ => {}
            }
        }
        match best {
            Some((n, k)) if dup => Err(ParseError::new(
                self.off(k),
                format!("ambiguous: more than one separator of {n} bar(s) at the same level"),
            )),
            Some((_, k)) => Ok(Some(k)),
            None => Ok(None),
        }
    }

    /// The content of a game between braces (or a braceless bar expression).
    fn content(&mut self, i: usize, j: usize) -> Result<Ast, ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(ParseError::new(self.off(i), "nested too deeply"));
        }
        self.depth += 1;
        let c = self.content_inner(i, j);
        self.depth -= 1;
        c
    }

    fn content_inner(&mut self, i: usize, j: usize) -> Result<Ast, ParseError> {
        let Some(k) = self.top_bars(i, j)? else {
            return Err(ParseError::new(self.off(i), "expected '|' in a game"));
        };
        let l = self.side(i, k)?;
        let r = self.side(k + 1, j)?;
        Ok(Ast {
            offset: self.off(i),
            kind: AstKind::Game(l, r),
        })
    }

    fn side(&mut self, i: usize, j: usize) -> Result<Vec<Ast>, ParseError> {
        if i == j {
            return Ok(Vec::new());
        }
        if self.top_bars(i, j)?.is_some() {
            return Ok(vec![self.content(i, j)?]);
        }
        self.list(i, j)
    }

    /// Comma-separated terms in `[i, j)` (no top-level bars).
    fn list(&mut self, i: usize, j: usize) -> Result<Vec<Ast>, ParseError> {
        let mut out = Vec::new();
        let mut depth = 0i64;
        let mut from = i;
        for k in i..=j {
            let at_end = k == j;
            if !at_end {
                match self.toks[k].0 {
                    Tok::LBrace => depth += 1,
                    Tok::RBrace => depth -= 1,
                    _ => {}
                }
            }
            if at_end || (depth == 0 && self.toks[k].0 == Tok::Comma) {
                if from == k {
                    return Err(ParseError::new(self.off(k), "expected a value"));
                }
                out.push(self.term_exact(from, k)?);
                from = k + 1;
            }
        }
        Ok(out)
    }

    fn term_exact(&mut self, i: usize, j: usize) -> Result<Ast, ParseError> {
        let mut p = i;
        let t = self.term(&mut p, j)?;
        if p != j {
            return Err(ParseError::new(self.off(p), "unexpected token"));
        }
        Ok(t)
    }

    fn term(&mut self, p: &mut usize, j: usize) -> Result<Ast, ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(ParseError::new(self.off(*p), "nested too deeply"));
        }
        self.depth += 1;
        let t = self.term_inner(p, j);
        self.depth -= 1;
        t
    }

    fn term_inner(&mut self, p: &mut usize, j: usize) -> Result<Ast, ParseError> {
        if *p >= j {
            return Err(ParseError::new(self.off(*p), "expected a value"));
        }
        let off = self.off(*p);
        match self.toks[*p].0 {
            Tok::Pm => {
                *p += 1;
                let opts = self.pm_arg(p, j)?;
                Ok(Ast {
                    offset: off,
                    kind: AstKind::Pm(opts),
                })
            }
            Tok::LBrace => {
                let k = self.matching(*p, j)?;
                let g = self.content(*p + 1, k)?;
                *p = k + 1;
                Ok(g)
            }
            Tok::Minus => {
                if matches!(self.toks.get(*p + 1), Some((Tok::Num(_), _))) && *p + 1 < j {
                    *p += 1;
                    self.simple(p, j, true, off)
                } else {
                    *p += 1;
                    let t = self.term(p, j)?;
                    Ok(Ast {
                        offset: off,
                        kind: AstKind::Neg(Box::new(t)),
                    })
                }
            }
            Tok::Num(_) | Tok::Star(_) | Tok::Ups(_) => self.simple(p, j, false, off),
            Tok::RBrace | Tok::Comma | Tok::Bars(_) => {
                Err(ParseError::new(off, "expected a value"))
            }
        }
    }

    /// `[number][ups][star]`, optionally followed by `±arg`.
    fn simple(
        &mut self,
        p: &mut usize,
        j: usize,
        negate: bool,
        off: usize,
    ) -> Result<Ast, ParseError> {
        let mut x = Dyadic::ZERO;
        let mut k: i64 = 0;
        let mut m: u32 = 0;
        if *p < j {
            if let Tok::Num(v) = self.toks[*p].0 {
                x = if negate {
                    v.checked_neg()
                        .map_err(|e| ParseError::new(self.off(*p), e.to_string()))?
                } else {
                    v
                };
                *p += 1;
            }
        }
        if *p < j {
            if let Tok::Ups(n) = self.toks[*p].0 {
                if n.abs() > MAX_UP {
                    return Err(ParseError::new(self.off(*p), "up multiple too large"));
                }
                k = n;
                *p += 1;
            }
        }
        if *p < j {
            if let Tok::Star(n) = self.toks[*p].0 {
                m = n;
                *p += 1;
            }
        }
        let base = Ast {
            offset: off,
            kind: AstKind::Nus(x, k as i32, m),
        };
        if *p < j && self.toks[*p].0 == Tok::Pm {
            let pm_off = self.off(*p);
            *p += 1;
            let opts = self.pm_arg(p, j)?;
            return Ok(Ast {
                offset: off,
                kind: AstKind::Add(
                    Box::new(base),
                    Box::new(Ast {
                        offset: pm_off,
                        kind: AstKind::Pm(opts),
                    }),
                ),
            });
        }
        Ok(base)
    }

    /// The argument of `±`: `{a,b,...}` (a set of options), `{a|b}` (one
    /// compound option), or a single term.
    fn pm_arg(&mut self, p: &mut usize, j: usize) -> Result<Vec<Ast>, ParseError> {
        if *p < j && self.toks[*p].0 == Tok::LBrace {
            let k = self.matching(*p, j)?;
            let inner = if self.top_bars(*p + 1, k)?.is_some() {
                vec![self.content(*p + 1, k)?]
            } else {
                self.list(*p + 1, k)?
            };
            *p = k + 1;
            return Ok(inner);
        }
        Ok(vec![self.term(p, j)?])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt(a: &mut Arena, s: &str) -> String {
        let g = a.parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        a.display(g)
    }

    #[test]
    fn required_round_trips() {
        let mut a = Arena::new();
        for s in [
            "0",
            "-3/2",
            "*",
            "*2",
            "^",
            "v*",
            "±1",
            "{2|0||-1}",
            "{0,{1|0}|-1}",
            "{2|-1/2}",
            "{^^*|*,v}",
            "±{3,{4|0,{1|0,*}},{4|{0,{1/2|0}|v},±1,±{1,{2|0}}}}",
            "{0||0|-1}",
            "{4|0,{1|0,*}}",
            "±{3|1}",
            "±{1,{2|0}}",
            "^^",
            "^3",
            "vv",
            "v3",
            "^*",
            "1/2^",
            "-1v*3",
            "1*",
            "-1/4*2",
            "^3*",
            "v3*5",
        ] {
            assert_eq!(rt(&mut a, s), s, "round trip of {s}");
        }
        assert_eq!(rt(&mut a, "{1|-1}"), "±1");
        assert_eq!(rt(&mut a, "+-1"), "±1");
        assert_eq!(rt(&mut a, " { 1 | - 1 } "), "±1");
        assert_eq!(rt(&mut a, "{{2|0}|-1}"), "{2|0||-1}");
        assert_eq!(rt(&mut a, "{0|{0|-1}}"), "{0||0|-1}");
        assert_eq!(rt(&mut a, "↑↑*"), "^^*");
        assert_eq!(rt(&mut a, "↓3"), "v3");
        assert_eq!(rt(&mut a, "-^"), "v");
        assert_eq!(rt(&mut a, "-{2|0}"), "{0|-2}");
        assert_eq!(rt(&mut a, "3±1"), "{4|2}");
        assert_eq!(rt(&mut a, "2|0||-1"), "{2|0||-1}");
        assert_eq!(rt(&mut a, "{|}"), "0");
        assert_eq!(rt(&mut a, "{0|}"), "1");
        assert_eq!(rt(&mut a, "{|0}"), "-1");
        assert_eq!(rt(&mut a, "{0|1}"), "1/2");
        assert_eq!(rt(&mut a, "{0|0}"), "*");
        assert_eq!(rt(&mut a, "{0,*|0,*}"), "*2");
        assert_eq!(rt(&mut a, "{0|*}"), "^");
        assert_eq!(rt(&mut a, "{*|0}"), "v");
        assert_eq!(rt(&mut a, "{0,*|0}"), "^*");
        assert_eq!(rt(&mut a, "*0"), "0");
        assert_eq!(rt(&mut a, "{{2|0}|{0|-2}}"), "0");
        assert_eq!(rt(&mut a, "{{3|1}|{-1|-3}}"), "±{3|1}");
        assert_eq!(rt(&mut a, "{{3|1}|{0|-2}}"), "{3|1||0|-2}");
    }

    #[test]
    fn sums_print() {
        let mut a = Arena::new();
        let up = a.up();
        let star = a.star();
        let us = a.sum(up, star).unwrap();
        let uus = a.sum(up, us).unwrap();
        assert_eq!(a.display(uus), "^^*");
        let d = a.neg(uus);
        assert_eq!(a.display(d), "vv*");
    }

    #[test]
    fn parse_errors_name_offsets() {
        let mut a = Arena::new();
        let cases: [(&str, usize); 9] = [
            ("", 0),
            ("{1|2", 0),
            ("{1|2}}", 5),
            ("{1|2|3}", 2),
            ("{1,|2}", 3),
            ("1/3", 2),
            ("{1 x|2}", 3),
            ("{1 2|3}", 3),
            ("+1", 0),
        ];
        for (s, off) in cases {
            let e = a.parse(s).expect_err(s);
            assert_eq!(e.offset, off, "{s}: {e}");
        }
        assert!(a.parse("*99999").is_err());
        let deep = "{".repeat(100_000) + &"}".repeat(100_000);
        assert!(a.parse(&deep).is_err());
        let deep = "-".repeat(100_000) + "1";
        assert!(a.parse(&deep).is_err());
        let deep = "{".repeat(3000) + "0" + &"|}".repeat(3000);
        assert_eq!(a.parse(&deep).unwrap_err().message, "nested too deeply");
        let ok = "{".repeat(300) + "0" + &"|}".repeat(300);
        let g = a.parse(&ok).unwrap();
        assert_eq!(a.display(g), "300");
        // exact arithmetic that leaves the dyadic range is an error, not a panic
        let tiny = "{0|".repeat(80) + &"}".repeat(80);
        assert!(a.parse(&tiny).is_err());
        assert!(a.parse("^999999").is_err());
        assert!(a.parse("{|}|").is_ok() || a.parse("{|}|").is_err());
    }
}
