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

    /// CGSuite notation of `a` (CGSuite's plain-text output: options in
    /// its deterministic order, `Tiny(x)`/`Miny(x)` for tinies and minies,
    /// at most four bars before braces are forced).
    pub fn display(&mut self, a: GameId) -> String {
        let mut p = Printer::<String>::new(Mode::Plain);
        p.run(self, a)
    }

    /// The length in bytes of [`Arena::display`] of `a`, computed without
    /// building the string (so front ends can refuse to print a form of
    /// millions of characters).
    pub fn display_len(&mut self, a: GameId) -> usize {
        let mut p = Printer::<usize>::new(Mode::Plain);
        p.run(self, a)
    }

    /// `a` in LaTeX math notation: `\{2 \mid 0 \,\|\, 0\}`, `\uparrow`,
    /// `\Uparrow`, `3{\cdot}\uparrow`, `\ast 2`, `\pm 1`, `{+_{2}}`, ...
    /// (to be set in math mode).
    pub fn display_latex(&mut self, a: GameId) -> String {
        let mut p = Printer::<String>::new(Mode::Latex);
        p.run(self, a)
    }

    /// Whether `a` is a tiny `x + Tiny(s) = {x || x | x - s}` or a miny
    /// `x + Miny(s) = {x + s | x || x}` (CGSuite's `IsNumberTiny`, for
    /// non-numbers): `Some((tiny, x, s))`.
    pub fn as_tiny(&mut self, a: GameId) -> Result<Option<(bool, GameId, GameId)>, ValueError> {
        if self.as_nus(a).is_some() {
            return Ok(None);
        }
        let (l, r) = (
            self.left_options(a).to_vec(),
            self.right_options(a).to_vec(),
        );
        if l.len() != 1 || r.len() != 1 {
            return Ok(None);
        }
        let (gl, gr) = (l[0], r[0]);
        if let Some(x) = self.as_number(gl) {
            let (rl, rr) = (
                self.left_options(gr).to_vec(),
                self.right_options(gr).to_vec(),
            );
            if rl.len() == 1 && rr.len() == 1 && rl[0] == gl && self.try_mean(rr[0])? < x {
                let s = self.sub(gl, rr[0])?;
                return Ok(Some((true, gl, s)));
            }
        }
        if let Some(x) = self.as_number(gr) {
            let (ll, lr) = (
                self.left_options(gl).to_vec(),
                self.right_options(gl).to_vec(),
            );
            if ll.len() == 1 && lr.len() == 1 && lr[0] == gr && self.try_mean(ll[0])? > x {
                let s = self.sub(ll[0], gr)?;
                return Ok(Some((false, gr, s)));
            }
        }
        Ok(None)
    }

    /// Recognises `a` as one of the uptimals CGSuite writes compactly:
    /// `x + ^<n> + *m` (a unit, written `^<n>`, `v<n>`) or `x + ^[n] + *m`
    /// (a unit sum `^ + ^<2> + ... + ^<n>`, written `^[n]`, `v[n]`) for
    /// `n >= 2`. Up multiples `x + k.^ + *m` are number-up-stars instead
    /// ([`Arena::as_nus`]); other uptimals print as forms
    /// ([`Arena::uptimal_expansion`]).
    pub fn as_uptimal(&mut self, a: GameId) -> Result<Option<Uptimal>, ValueError> {
        let Some(e) = self.uptimal_expansion(a)? else {
            return Ok(None);
        };
        let n = e.coefficients.len();
        if n < 2 || !(e.is_unit() || e.is_unit_sum()) {
            return Ok(None);
        }
        Ok(Some(Uptimal {
            number: e.number,
            up: e.coefficients[n - 1] > 0,
            order: n as u32,
            sum: e.is_unit_sum(),
            nimber: e.nimber,
        }))
    }

    /// The uptimal expansion of `a`, if `a` is an uptimal: a number plus a
    /// nimber plus `d_1.^ + d_2.^<2> + ... + d_k.^<k>` (CGSuite's
    /// `UptimalExpansion`; numbers, nimbers and number-up-stars included).
    /// CGSuite orders uptimals by their expansions when it prints options.
    ///
    /// An uptimal whose last coefficient is positive has exactly one Right
    /// option, itself an uptimal, from whose expansion only two expansions
    /// for `a` are possible (one raising the same digits, one a digit
    /// longer); each candidate is built as a sum and accepted only when it
    /// *is* `a` (so a recognised expansion is never wrong). Negative last
    /// coefficients are the mirror image, through the single Left option.
    pub fn uptimal_expansion(&mut self, a: GameId) -> Result<Option<UptimalExpansion>, ValueError> {
        if let Some(n) = self.as_nus(a) {
            let coefficients = if n.ups == 0 { vec![] } else { vec![n.ups] };
            return Ok(Some(UptimalExpansion {
                number: n.number,
                nimber: n.nimber,
                coefficients,
            }));
        }
        if let Some(e) = self.expansion_memo.get(&a) {
            return Ok(e.clone());
        }
        let e = self.find_expansion(a)?;
        self.expansion_memo.insert(a, e.clone());
        Ok(e)
    }

    fn find_expansion(&mut self, a: GameId) -> Result<Option<UptimalExpansion>, ValueError> {
        let n = self.node(a);
        if n.lstop != n.rstop || (n.l_len != 1 && n.r_len != 1) {
            return Ok(None);
        }
        for positive in [true, false] {
            // seen from the side whose last coefficient is positive: the
            // single option against that side, and the others
            let (single, others) = if positive {
                (
                    self.right_options(a).to_vec(),
                    self.left_options(a).to_vec(),
                )
            } else {
                (
                    self.left_options(a).to_vec(),
                    self.right_options(a).to_vec(),
                )
            };
            if single.len() != 1 {
                continue;
            }
            let flip = |e: UptimalExpansion| if positive { e } else { e.negate() };
            let Some(r) = self.uptimal_expansion(single[0])?.map(flip) else {
                continue;
            };
            let mut longest = 0;
            let mut all = true;
            for &o in &others {
                match self.uptimal_expansion(o)?.map(flip) {
                    Some(e) if e.number == r.number => longest = longest.max(e.coefficients.len()),
                    _ => {
                        all = false;
                        break;
                    }
                }
            }
            if !all {
                continue;
            }
            let k = r.coefficients.len();
            let mut candidates = Vec::new();
            if r.coefficients.last().is_some_and(|&d| d > 0) {
                candidates.push(r.increment(k));
            }
            candidates.push(r.increment(k.max(longest) + 1));
            for c in candidates {
                let c = flip(c);
                if self.expansion_game(&c)? == a {
                    return Ok(Some(c));
                }
            }
        }
        Ok(None)
    }

    /// The game of an uptimal expansion, built as a sum.
    pub fn expansion_game(&mut self, e: &UptimalExpansion) -> Result<GameId, ValueError> {
        let x = self.number(e.number)?;
        let m = self.nimber(e.nimber);
        let mut g = self.sum(x, m)?;
        for (i, &d) in e.coefficients.iter().enumerate() {
            if d == 0 {
                continue;
            }
            let mut u = self.unit_uptimal(i as u32 + 1)?;
            if d < 0 {
                u = self.neg(u);
            }
            for _ in 0..d.unsigned_abs() {
                g = self.sum(g, u)?;
            }
        }
        Ok(g)
    }

    /// `^<n>`, built once: `^<1> = ^`, `^<k> = ^[k] - ^[k-1]`.
    fn unit_uptimal(&mut self, n: u32) -> Result<GameId, ValueError> {
        while (self.unit_games.len() as u32) < n {
            let k = self.unit_games.len() as u32 + 1;
            let g = self.uptimal_game(k, false)?;
            self.unit_games.push(g);
        }
        Ok(self.unit_games[n as usize - 1])
    }

    /// `^<n>` (or `^[n]` when `sum`): `^[1] = ^`, `^[k+1] = {^[k] | *}`,
    /// `^<k> = ^[k] - ^[k-1]`.
    pub(crate) fn uptimal_game(&mut self, n: u32, sum: bool) -> Result<GameId, ValueError> {
        let star = self.star();
        let mut prev = self.zero();
        let mut cur = self.up();
        for _ in 1..n {
            prev = cur;
            cur = self.construct(&[cur], &[star])?;
        }
        if sum {
            Ok(cur)
        } else {
            self.sub(cur, prev)
        }
    }

    /// CGSuite's deterministic order on canonical forms, used for printing:
    /// numbers (by value), then nimbers, then other number-up-stars (by
    /// number, up multiple, nimber), then the rest lexicographically by
    /// sorted options.
    pub fn print_cmp(&mut self, a: GameId, b: GameId) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        let rank = |ar: &Arena, g: GameId| -> u8 {
            if ar.is_number(g) {
                0
            } else if ar.as_nimber(g).is_some() {
                1
            } else if ar.as_nus(g).is_some() {
                2
            } else {
                3
            }
        };
        let (mut ra, mut rb) = (rank(self, a), rank(self, b));
        // uptimals rank with the number-up-stars
        let (ua, ub) = (
            self.uptimal_expansion(a).ok().flatten(),
            self.uptimal_expansion(b).ok().flatten(),
        );
        if ua.is_some() && ra > 2 {
            ra = 2;
        }
        if ub.is_some() && rb > 2 {
            rb = 2;
        }
        if ra != rb {
            return ra.cmp(&rb);
        }
        match (ra, ua, ub) {
            (0, _, _) => return self.as_number(a).cmp(&self.as_number(b)),
            (1, _, _) => return self.as_nimber(a).cmp(&self.as_nimber(b)),
            (2, Some(x), Some(y)) => return x.cgsuite_cmp(&y),
            _ => {}
        }
        let key = (u64::from(a.0) << 32) | u64::from(b.0);
        if let Some(&o) = self.print_order_cache.get(&key) {
            return o;
        }
        let la = self.print_sorted(a, true);
        let lb = self.print_sorted(b, true);
        let mut o = self.print_cmp_lists(&la, &lb);
        if o == Ordering::Equal {
            let ra = self.print_sorted(a, false);
            let rb = self.print_sorted(b, false);
            o = self.print_cmp_lists(&ra, &rb);
        }
        self.print_order_cache.insert(key, o);
        self.print_order_cache
            .insert((u64::from(b.0) << 32) | u64::from(a.0), o.reverse());
        o
    }

    fn print_cmp_lists(&mut self, a: &[GameId], b: &[GameId]) -> Ordering {
        for (&x, &y) in a.iter().zip(b) {
            let o = self.print_cmp(x, y);
            if o != Ordering::Equal {
                return o;
            }
        }
        a.len().cmp(&b.len())
    }

    /// Options of `a` for one side in [`Arena::print_cmp`] order.
    pub fn print_sorted(&mut self, a: GameId, left: bool) -> Vec<GameId> {
        let mut v = if left {
            self.left_options(a).to_vec()
        } else {
            self.right_options(a).to_vec()
        };
        for i in 1..v.len() {
            let mut j = i;
            while j > 0 && self.print_cmp(v[j - 1], v[j]) == Ordering::Greater {
                v.swap(j - 1, j);
                j -= 1;
            }
        }
        v
    }

    /// Parses CGSuite notation into a canonical form.
    pub fn parse(&mut self, s: &str) -> Result<GameId, ParseError> {
        self.eval(&syntax(s)?)
    }

    /// Parses CGSuite notation into a game tree taken literally: braces
    /// are not simplified (`{1|*}` stays a game whose options are `1` and
    /// `*`), while a named value (`3/2`, `*2`, `^`, `Tiny(1)`) stands for
    /// its normal-play canonical form, read as a tree. Engines with other
    /// notions of equality (misère play) build their own forms from it.
    pub fn parse_literal(&mut self, s: &str) -> Result<Literal, ParseError> {
        self.literal(&syntax(s)?)
    }

    fn literal(&mut self, a: &Ast) -> Result<Literal, ParseError> {
        let list = |arena: &mut Arena, v: &[Ast]| -> Result<Vec<Literal>, ParseError> {
            v.iter().map(|o| arena.literal(o)).collect()
        };
        Ok(match &a.kind {
            AstKind::Game(l, r) => Literal::Game(list(self, l)?, list(self, r)?),
            AstKind::Neg(t) => Literal::Neg(Box::new(self.literal(t)?)),
            AstKind::Pm(opts) => {
                let l = list(self, opts)?;
                let r = l
                    .iter()
                    .map(|o| Literal::Neg(Box::new(o.clone())))
                    .collect();
                Literal::Game(l, r)
            }
            AstKind::Add(x, y) => {
                Literal::Sum(Box::new(self.literal(x)?), Box::new(self.literal(y)?))
            }
            AstKind::Nus(..) | AstKind::Uptimal(..) | AstKind::Tiny(..) => {
                Literal::Form(self.eval(a)?)
            }
        })
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
            AstKind::Uptimal(up, n, sum) => {
                let g = self.uptimal_game(*n, *sum).map_err(at)?;
                Ok(if *up { g } else { self.neg(g) })
            }
            AstKind::Tiny(tiny, x) => {
                let x = self.eval(x)?;
                let z = self.zero();
                if *tiny {
                    // {0 || 0 | -x}
                    let nx = self.neg(x);
                    let inner = self.construct(&[z], &[nx]).map_err(at)?;
                    self.construct(&[z], &[inner]).map_err(at)
                } else {
                    // {x | 0 || 0}
                    let inner = self.construct(&[x], &[z]).map_err(at)?;
                    self.construct(&[inner], &[z]).map_err(at)
                }
            }
        }
    }
}

/// The pieces of `[i, j)` between separators at nesting depth 0: each
/// `(from, to)`, empty pieces included (`depth(k)` is +1 at an opening
/// bracket, -1 at a closing one). Shared by the notation parsers.
pub fn top_level_pieces(
    i: usize,
    j: usize,
    depth: impl Fn(usize) -> i32,
    separator: impl Fn(usize) -> bool,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut d = 0;
    let mut from = i;
    for k in i..j {
        d += depth(k);
        if d == 0 && separator(k) {
            out.push((from, k));
            from = k + 1;
        }
    }
    out.push((from, j));
    out
}

/// The syntax tree of a text in notation.
fn syntax(s: &str) -> Result<Ast, ParseError> {
    let toks = lex(s)?;
    let mut p = Parser {
        toks: &toks,
        end: s.len(),
        depth: 0,
    };
    p.top()
}

/// A game tree as written ([`Arena::parse_literal`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Literal {
    /// A named value: its normal-play canonical form, as a tree.
    Form(GameId),
    /// `{left | right}`, options as written.
    Game(Vec<Literal>, Vec<Literal>),
    /// `-x`: Left and Right exchanged.
    Neg(Box<Literal>),
    /// `x + y`.
    Sum(Box<Literal>, Box<Literal>),
}

/// An uptimal CGSuite writes compactly: `number + (±)^<order> + *nimber`
/// (a unit) or `number + (±)^[order] + *nimber` (a unit sum).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Uptimal {
    /// The number part.
    pub number: Dyadic,
    /// `^` (true) or `v` (false).
    pub up: bool,
    /// The order `n >= 2`.
    pub order: u32,
    /// `^[n]` (true) or `^<n>` (false).
    pub sum: bool,
    /// The nimber part (0 or 1).
    pub nimber: u32,
}

impl Uptimal {
    /// The coefficients of `^, ^<2>, ..., ^<n>` in the uptimal expansion.
    #[must_use]
    pub fn coefficients(&self) -> Vec<i32> {
        let c = if self.up { 1 } else { -1 };
        let n = self.order as usize;
        if self.sum {
            vec![c; n]
        } else {
            let mut v = vec![0; n];
            v[n - 1] = c;
            v
        }
    }
}

/// An uptimal expansion (CGSuite's `UptimalExpansion`):
/// `number + *nimber + d_1.^ + d_2.^<2> + ... + d_k.^<k>`, the
/// coefficients `d_i` listed with no trailing zero.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct UptimalExpansion {
    /// The number part.
    pub number: Dyadic,
    /// The nimber part.
    pub nimber: u32,
    /// `d_1, ..., d_k`, the last non-zero.
    pub coefficients: Vec<i32>,
}

impl UptimalExpansion {
    /// The expansion with every digit below `to` raised by one (digits
    /// past the end count as 0) and the nimber part toggled with `*`.
    #[must_use]
    fn increment(&self, to: usize) -> UptimalExpansion {
        let n = to.max(self.coefficients.len());
        let mut c: Vec<i32> = (0..n)
            .map(|i| self.coefficients.get(i).copied().unwrap_or(0) + i32::from(i < to))
            .collect();
        while c.last() == Some(&0) {
            c.pop();
        }
        UptimalExpansion {
            number: self.number,
            nimber: self.nimber ^ 1,
            coefficients: c,
        }
    }

    /// The negative's expansion.
    #[must_use]
    pub fn negate(&self) -> UptimalExpansion {
        UptimalExpansion {
            number: Dyadic::ZERO.checked_sub(self.number).unwrap_or(self.number),
            nimber: self.nimber,
            coefficients: self.coefficients.iter().map(|d| -d).collect(),
        }
    }

    /// One digit `±1` and no other (`^<n>`, `v<n>`).
    #[must_use]
    pub fn is_unit(&self) -> bool {
        let nz: Vec<i32> = self
            .coefficients
            .iter()
            .copied()
            .filter(|&d| d != 0)
            .collect();
        nz.len() == 1 && nz[0].abs() == 1
    }

    /// Every digit the same `±1` (`^[n]`, `v[n]`).
    #[must_use]
    pub fn is_unit_sum(&self) -> bool {
        self.coefficients
            .first()
            .is_some_and(|&d| d.abs() == 1 && self.coefficients.iter().all(|&e| e == d))
    }

    /// CGSuite's order on expansions (`UptimalExpansion.compareTo`): number
    /// part, then the digits in turn, then the length, then the nimber.
    #[must_use]
    pub fn cgsuite_cmp(&self, other: &UptimalExpansion) -> Ordering {
        self.number
            .cmp(&other.number)
            .then_with(|| {
                for (p, q) in self.coefficients.iter().zip(&other.coefficients) {
                    if p != q {
                        return p.cmp(q);
                    }
                }
                self.coefficients.len().cmp(&other.coefficients.len())
            })
            .then(self.nimber.cmp(&other.nimber))
    }
}

/// Output flavour of the printer.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// CGSuite's plain text.
    Plain,
    /// LaTeX math.
    Latex,
}

/// What the printer accumulates: the text itself, or just its length.
pub(crate) trait Acc: Clone + Default {
    fn put(&mut self, s: &str);
    fn append(&mut self, o: &Self);
    /// The bytes a copy of this holds.
    fn held(&self) -> usize;
}

impl Acc for String {
    fn put(&mut self, s: &str) {
        self.push_str(s);
    }
    fn append(&mut self, o: &Self) {
        self.push_str(o);
    }
    fn held(&self) -> usize {
        self.len()
    }
}

impl Acc for usize {
    fn put(&mut self, s: &str) {
        *self = self.saturating_add(s.len());
    }
    fn append(&mut self, o: &Self) {
        *self = self.saturating_add(*o);
    }
    fn held(&self) -> usize {
        0
    }
}

/// CGSuite's cap on bars: a form needing this many gets braces instead.
const MAX_BARS: usize = 4;

/// The printer (after CGSuite's `appendTo`): memoised per form and context.
pub(crate) struct Printer<V> {
    mode: Mode,
    memo: FxHashMap<(u32, u8), (V, usize)>,
}

impl<V: Acc> Printer<V> {
    pub(crate) fn new(mode: Mode) -> Self {
        Printer {
            mode,
            memo: FxHashMap::default(),
        }
    }

    pub(crate) fn run(&mut self, a: &mut Arena, g: GameId) -> V {
        self.append(a, g, true, false).0
    }

    fn tok(&self, plain: &'static str, latex: &'static str) -> &'static str {
        match self.mode {
            Mode::Plain => plain,
            Mode::Latex => latex,
        }
    }

    fn bars(&self, n: usize) -> String {
        match (self.mode, n) {
            (Mode::Plain, _) => "|".repeat(n),
            (Mode::Latex, 1) => " \\mid ".into(),
            (Mode::Latex, 2) => " \\,\\|\\, ".into(),
            (Mode::Latex, _) => format!(" \\,{}\\, ", "|".repeat(n)),
        }
    }

    /// Appends `g`; returns the text and the number of bars it ends with
    /// at its top level (0 when it is braced or atomic).
    fn append(&mut self, a: &mut Arena, g: GameId, fb: bool, fp: bool) -> (V, usize) {
        let key = (g.0, u8::from(fb) | (u8::from(fp) << 1));
        if let Some(v) = self.memo.get(&key) {
            return v.clone();
        }
        let mut out = V::default();
        let mut bars = 0;
        let uptimal = if a.as_nus(g).is_none() {
            a.as_uptimal(g).ok().flatten()
        } else {
            None
        };
        if let Some(u) = uptimal {
            let compact = u.number.is_zero() && u.nimber == 0;
            if fp && !compact {
                out.put("(");
            }
            if !u.number.is_zero() {
                out.put(&fmt_number(u.number, self.mode));
            }
            let arrow = match (self.mode, u.up) {
                (Mode::Plain, true) => "^",
                (Mode::Plain, false) => "v",
                (Mode::Latex, true) => "\\uparrow",
                (Mode::Latex, false) => "\\downarrow",
            };
            out.put(arrow);
            let order = u.order.to_string();
            let (open, close) = match (self.mode, u.sum, u.up) {
                (Mode::Plain, false, _) => ("<", ">"),
                (Mode::Plain, true, _) => ("[", "]"),
                (Mode::Latex, false, true) => ("^{", "}"),
                (Mode::Latex, true, true) => ("^{[", "]}"),
                (Mode::Latex, false, false) => ("_{", "}"),
                (Mode::Latex, true, false) => ("_{[", "]}"),
            };
            out.put(open);
            out.put(&order);
            out.put(close);
            if u.nimber == 1 {
                out.put(self.tok("*", "\\ast"));
            } else if u.nimber > 1 {
                let m = u.nimber.to_string();
                out.put(self.tok("*", "\\ast "));
                out.put(&m);
            }
            if fp && !compact {
                out.put(")");
            }
        } else if let Some(n) = a.as_nus(g) {
            let (x, k, m) = (n.number, n.ups, n.nimber);
            let compact = (k == 0 && m == 0) || (x.is_zero() && (k == 0 || m == 0));
            let text = fmt_nus(x, k, m, self.mode);
            if fp && !compact {
                out.put("(");
                out.put(&text);
                out.put(")");
            } else {
                out.put(&text);
            }
        } else if a.is_switch(g) {
            let lo = a.print_sorted(g, true);
            out.put(self.tok("±", "\\pm "));
            if lo.len() > 1 {
                out.put(self.tok("{", "\\{"));
            }
            for (i, &o) in lo.iter().enumerate() {
                if i > 0 {
                    out.put(",");
                }
                let (v, _) = self.append(a, o, true, lo.len() == 1);
                out.append(&v);
            }
            if lo.len() > 1 {
                out.put(self.tok("}", "\\}"));
            }
        } else if let Ok(Some((tiny, x, sub))) = a.as_tiny(g) {
            if fp {
                out.put("(");
            }
            if x != a.zero() {
                let (v, _) = self.append(a, x, false, false);
                out.append(&v);
            }
            out.put(match (self.mode, tiny) {
                (Mode::Plain, true) => "Tiny(",
                (Mode::Plain, false) => "Miny(",
                (Mode::Latex, true) => "{+_{",
                (Mode::Latex, false) => "{-_{",
            });
            let (v, _) = self.append(a, sub, true, false);
            out.append(&v);
            out.put(self.tok(")", "}}"));
            if fp {
                out.put(")");
            }
        } else {
            let lo = a.print_sorted(g, true);
            let ro = a.print_sorted(g, false);
            let mut left = V::default();
            let mut right = V::default();
            let mut n = 0;
            for (side, opts) in [(&mut left, &lo), (&mut right, &ro)] {
                for (i, &o) in opts.iter().enumerate() {
                    if i > 0 {
                        side.put(",");
                    }
                    let (v, b) = self.append(a, o, opts.len() > 1, false);
                    side.append(&v);
                    n = n.max(b + 1);
                }
            }
            let n = n.max(1);
            let braces = fb || n >= MAX_BARS;
            if braces {
                out.put(self.tok("{", "\\{"));
            }
            out.append(&left);
            out.put(&self.bars(n));
            out.append(&right);
            if braces {
                out.put(self.tok("}", "\\}"));
            } else {
                bars = n;
            }
        }
        // Long texts are not kept: a form of 30 switches summed prints
        // 2 GB, and keeping the text of every subposition as well took
        // 21 GB; printed again, a long text costs about what copying it
        // would.
        if out.held() <= MEMO_TEXT {
            self.memo.insert(key, (out.clone(), bars));
        }
        (out, bars)
    }
}

/// The longest text the printer keeps for a subposition it meets again.
const MEMO_TEXT: usize = 4096;

fn fmt_number(x: Dyadic, mode: Mode) -> String {
    if mode == Mode::Plain || x.is_integer() {
        return x.to_string();
    }
    let sign = if x.is_negative() { "-" } else { "" };
    format!(
        "{sign}\\frac{{{}}}{{{}}}",
        x.num().unsigned_abs(),
        1u64 << x.exp()
    )
}

fn fmt_nus(x: Dyadic, k: i32, m: u32, mode: Mode) -> String {
    let mut s = String::new();
    if x.is_zero() && k == 0 && m == 0 {
        return "0".into();
    }
    if !x.is_zero() {
        s.push_str(&fmt_number(x, mode));
    }
    let n = k.unsigned_abs();
    match (mode, k > 0, n) {
        (_, _, 0) => {}
        (Mode::Plain, up, 1) => s.push(if up { '^' } else { 'v' }),
        (Mode::Plain, up, 2) => s.push_str(if up { "^^" } else { "vv" }),
        (Mode::Plain, up, _) => {
            let _ = write!(s, "{}{n}", if up { '^' } else { 'v' });
        }
        (Mode::Latex, up, 1) => s.push_str(if up { "\\uparrow " } else { "\\downarrow " }),
        (Mode::Latex, up, 2) => s.push_str(if up { "\\Uparrow " } else { "\\Downarrow " }),
        (Mode::Latex, up, _) => {
            let _ = write!(s, "{}{n}", if up { "\\uparrow " } else { "\\downarrow " });
        }
    }
    match (mode, m) {
        (_, 0) => {}
        (Mode::Plain, 1) => s.push('*'),
        (Mode::Plain, _) => {
            let _ = write!(s, "*{m}");
        }
        (Mode::Latex, 1) => s.push_str("\\ast "),
        (Mode::Latex, _) => {
            let _ = write!(s, "\\ast {m}");
        }
    }
    if mode == Mode::Latex {
        let t = s.trim_end().len();
        s.truncate(t);
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
    Plus,
    LParen,
    RParen,
    /// `Tiny` (true) or `Miny` (false), followed by a parenthesised argument
    TinyFn(bool),
    /// `+_` (true) or `-_` (false), followed by a term
    TinySub(bool),
    /// `^<n>` / `v<n>` (sum false) or `^[n]` / `v[n]` (sum true)
    Uptimal(bool, u32, bool),
}

/// Largest `n` accepted in `^<n>` and `^[n]`.
const MAX_UPTIMAL: u32 = 256;

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
            b'+' => match b.get(i + 1) {
                Some(&b'-') => {
                    out.push((Tok::Pm, i));
                    i += 2;
                }
                Some(&b'_') => {
                    out.push((Tok::TinySub(true), i));
                    i += 2;
                }
                _ => {
                    out.push((Tok::Plus, i));
                    i += 1;
                }
            },
            b'-' => {
                if b.get(i + 1) == Some(&b'_') {
                    out.push((Tok::TinySub(false), i));
                    i += 2;
                } else {
                    out.push((Tok::Minus, i));
                    i += 1;
                }
            }
            b'(' => {
                out.push((Tok::LParen, i));
                i += 1;
            }
            b')' => {
                out.push((Tok::RParen, i));
                i += 1;
            }
            b'T' | b'M' if s[i..].starts_with("Tiny") || s[i..].starts_with("Miny") => {
                out.push((Tok::TinyFn(c == b'T'), i));
                i += 4;
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
                if run == 1 && matches!(b.get(j), Some(&b'<') | Some(&b'[')) {
                    // CGSuite's uptimals: ^<n> (up-nth), ^[n] (^ + ^<2> + ... + ^<n>)
                    let close = if b[j] == b'<' { b'>' } else { b']' };
                    let k = digits(j + 1);
                    if k == j + 1 || b.get(k) != Some(&close) {
                        return Err(ParseError::new(j, "expected ^<n> or ^[n]"));
                    }
                    let n = parse_u32(j + 1, k)?;
                    if n == 0 || n > MAX_UPTIMAL {
                        return Err(ParseError::new(j + 1, "uptimal order out of range"));
                    }
                    out.push((Tok::Uptimal(c == b'^', n, close == b']'), i));
                    i = k + 1;
                    continue;
                }
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
                    '⇑' | '⇓' => {
                        let mut j = i;
                        let mut run = 0i64;
                        while s[j..].starts_with(ch) {
                            j += len;
                            run += 2;
                        }
                        out.push((Tok::Ups(if ch == '⇑' { run } else { -run }), i));
                        i = j;
                        continue;
                    }
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
    /// `Tiny(x)` (true) or `Miny(x)` (false)
    Tiny(bool, Box<Ast>),
    /// `^<n>` and `^[n]` (see [`Tok::Uptimal`])
    Uptimal(bool, u32, bool),
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
                Tok::LBrace | Tok::LParen => depth += 1,
                Tok::RBrace | Tok::RParen => {
                    depth -= 1;
                    if depth < 0 {
                        return Err(ParseError::new(self.off(k), "unmatched closing bracket"));
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
        let pieces = top_level_pieces(
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
                return Err(ParseError::new(self.off(k), "expected a value"));
            }
            out.push(self.term_exact(from, k)?);
        }
        Ok(out)
    }

    fn term_exact(&mut self, i: usize, j: usize) -> Result<Ast, ParseError> {
        let mut p = i;
        let t = self.expr(&mut p, j)?;
        if p != j {
            return Err(ParseError::new(self.off(p), "unexpected token"));
        }
        Ok(t)
    }

    /// Index of the matching `)` for the `(` at `i`.
    fn matching_paren(&self, i: usize, j: usize) -> Result<usize, ParseError> {
        let mut depth = 0usize;
        for k in i..j {
            match self.toks[k].0 {
                Tok::LParen => depth += 1,
                Tok::RParen => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(k);
                    }
                }
                _ => {}
            }
        }
        Err(ParseError::new(self.off(i), "unclosed '('"))
    }

    /// Terms joined by infix `+`, `-` and `±`; a tiny or miny written
    /// right after a term (`1Tiny(2)`, `1+_2`) is added to it.
    fn expr(&mut self, p: &mut usize, j: usize) -> Result<Ast, ParseError> {
        let mut acc = self.term(p, j)?;
        while *p < j {
            let off = self.off(*p);
            let rhs = match self.toks[*p].0 {
                Tok::Plus => {
                    *p += 1;
                    self.term(p, j)?
                }
                Tok::Minus => {
                    *p += 1;
                    let t = self.term(p, j)?;
                    Ast {
                        offset: off,
                        kind: AstKind::Neg(Box::new(t)),
                    }
                }
                Tok::Pm => {
                    *p += 1;
                    let opts = self.pm_arg(p, j)?;
                    Ast {
                        offset: off,
                        kind: AstKind::Pm(opts),
                    }
                }
                Tok::TinyFn(_) | Tok::TinySub(_) | Tok::Uptimal(..) => self.term(p, j)?,
                _ => break,
            };
            acc = Ast {
                offset: acc.offset,
                kind: AstKind::Add(Box::new(acc), Box::new(rhs)),
            };
        }
        Ok(acc)
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
            Tok::LParen => {
                let k = self.matching_paren(*p, j)?;
                let e = self.term_exact(*p + 1, k)?;
                *p = k + 1;
                Ok(e)
            }
            Tok::TinyFn(tiny) => {
                if *p + 1 >= j || self.toks[*p + 1].0 != Tok::LParen {
                    return Err(ParseError::new(off, "expected '(' after Tiny or Miny"));
                }
                let k = self.matching_paren(*p + 1, j)?;
                let e = self.term_exact(*p + 2, k)?;
                *p = k + 1;
                Ok(Ast {
                    offset: off,
                    kind: AstKind::Tiny(tiny, Box::new(e)),
                })
            }
            Tok::Uptimal(up, n, sum) => {
                *p += 1;
                let base = Ast {
                    offset: off,
                    kind: AstKind::Uptimal(up, n, sum),
                };
                // a star may follow, as in ^<2>*
                if let Some((Tok::Star(m), _)) = self.toks.get(*p) {
                    if *p < j {
                        let m = *m;
                        *p += 1;
                        return Ok(Ast {
                            offset: off,
                            kind: AstKind::Add(
                                Box::new(base),
                                Box::new(Ast {
                                    offset: off,
                                    kind: AstKind::Nus(Dyadic::ZERO, 0, m),
                                }),
                            ),
                        });
                    }
                }
                Ok(base)
            }
            Tok::TinySub(tiny) => {
                *p += 1;
                let e = self.term(p, j)?;
                Ok(Ast {
                    offset: off,
                    kind: AstKind::Tiny(tiny, Box::new(e)),
                })
            }
            Tok::RBrace | Tok::Comma | Tok::Bars(_) | Tok::Plus | Tok::RParen => {
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
        if *p < j && matches!(self.toks[*p].0, Tok::LBrace | Tok::LParen) {
            let k = if self.toks[*p].0 == Tok::LBrace {
                self.matching(*p, j)?
            } else {
                self.matching_paren(*p, j)?
            };
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
            "Tiny(1)",
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
        assert_eq!(rt(&mut a, "{0|{0|-1}}"), "Tiny(1)");
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
        // a braceless bar expression: "{|}|" is "{ {|} | }", the game {0|} = 1
        assert_eq!(a.parse("{|}|").map(|g| a.display(g)), Ok("1".to_string()));
        for bad in [
            "Tiny", "Tiny(", "Tiny()", "(1", "1)", "1+", "+_", "^ -", "±()",
        ] {
            assert!(a.parse(bad).is_err(), "{bad} should not parse");
        }
    }

    #[test]
    fn cgsuite_forms_parse_and_print() {
        let mut a = Arena::new();
        for (s, out) in [
            ("{1|0} + ^ - *2", "{1^*2|^*2}"),
            ("9/8+*", "9/8*"),
            ("6+^*", "6^*"),
            ("73/16+v9*8", "73/16v9*8"),
            ("{0||0|vvv}", "{0||0|v3}"),
            ("{^^^|vv}", "{^3|vv}"),
            ("{0||0|-3/2}", "Tiny(3/2)"),
            ("{0|||0||-1|-3}", "Tiny({3|1})"),
            ("{5||3|1|||0||||0}", "Miny({5||3|1})"),
            ("+_2", "Tiny(2)"),
            ("-_2", "Miny(2)"),
            ("Tiny(2)", "Tiny(2)"),
            ("Miny(1/2)", "Miny(1/2)"),
            ("1+Tiny(2)", "1Tiny(2)"),
            ("1Tiny(2)", "1Tiny(2)"),
            ("1+_2", "1Tiny(2)"),
            ("1Miny({3|1})", "1Miny({3|1})"),
            ("±(1,{2|0})", "±{1,{2|0}}"),
            ("±(1*)", "±(1*)"),
            ("±1*", "±(1*)"),
            ("(1)", "1"),
            ("(1 + 1) - (^)", "2v"),
            ("⇑", "^^"),
            ("⇓*", "vv*"),
            ("^^^", "^3"),
            ("{3||2+*|1+*}", "{3||2*|1*}"),
            ("2 - 3", "-1"),
            ("{1-1|2}", "1"),
        ] {
            assert_eq!(rt(&mut a, s), out, "{s}");
            assert_eq!(rt(&mut a, out), out, "printed form {out} round-trips");
        }
        // five bars are never printed: CGSuite braces the inner form instead
        assert_eq!(
            rt(&mut a, "{10|{8|{6|{4|{2|0}}}}}"),
            "{10|{8||||6|||4||2|0}}"
        );
    }

    #[test]
    fn uptimals_print_as_cgsuite_writes_them() {
        let mut a = Arena::new();
        for (s, out) in [
            ("{0|*||*|||*||||*}", "^[4]"),
            ("{0||0|v*}", "{0|^<2>}"),
            ("^<3>", "^<3>"),
            ("v<2>*", "v<2>*"),
            ("1+^[2]", "1^[2]"),
            ("-1/2v[3]*", "-1/2v[3]*"),
            ("{1|^<2>*}", "{1|^<2>*}"),
        ] {
            assert_eq!(rt(&mut a, s), out, "{s}");
            assert_eq!(rt(&mut a, out), out, "{out}");
        }
        let g = a.parse("^<2>").unwrap();
        assert_eq!(a.display_latex(g), "\\uparrow^{2}");
        let g = a.parse("v[3]").unwrap();
        assert_eq!(a.display_latex(g), "\\downarrow_{[3]}");
        // ^<2> = {0|v*}, and ^[2] = ^ + ^<2>
        let u2 = a.parse("{0|v*}").unwrap();
        assert_eq!(a.parse("^<2>"), Ok(u2));
        let s = a.parse("^ + ^<2>").unwrap();
        assert_eq!(a.parse("^[2]"), Ok(s));
    }

    #[test]
    fn latex() {
        let mut a = Arena::new();
        for (s, tex) in [
            ("{3|1||0}", r"\{3 \mid 1 \,\|\, 0\}"),
            // {2|0||0} is the miny Miny(2), as CGSuite prints it
            ("{2|0||0}", "{-_{2}}"),
            ("^", r"\uparrow"),
            ("^^*", r"\Uparrow \ast"),
            ("v3*2", r"\downarrow 3\ast 2"),
            ("-3/2", r"-\frac{3}{2}"),
            ("±1", r"\pm 1"),
            ("Tiny(2)", "{+_{2}}"),
            ("±1*", r"\pm (1\ast)"),
            (
                "{10|{8|{6|{4|{2|0}}}}}",
                r"\{10 \mid \{8 \,||||\, 6 \,|||\, 4 \,\|\, 2 \mid 0\}\}",
            ),
        ] {
            let g = a.parse(s).unwrap();
            assert_eq!(a.display_latex(g), tex, "{s}");
        }
    }
}
