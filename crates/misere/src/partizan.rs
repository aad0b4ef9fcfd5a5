//! Partizan games under misère play, in their canonical forms, in the
//! universe of all games or in the universe of dicots.
//!
//! A *universe* is the set of games a position may be added to. Two games
//! are equal modulo a universe `U` when `o-(G + X) = o-(H + X)` for every
//! `X` in `U`, and `G >= H` when `o-(G + X) >= o-(H + X)` for every `X`
//! (outcomes ordered `L > N, P > R`). Two universes are built:
//!
//! * [`Universe::General`], every game. No game other than `0` has an
//!   inverse here, and there are 256 games born by day 2 (Siegel, *Misère
//!   canonical forms of partizan games*, Games of No Chance 4).
//! * [`Universe::Dicot`], games in which, at every follower, either both
//!   players can move or neither can (Clobber is one). Here `* + * = 0`
//!   (Allen; Dorbec, Renault, Siegel and Sopena), and impartial games are
//!   equal modulo dicots exactly when they are equal modulo impartial games
//!   (Renault, *Binary dicots, a core of dicot games*, INTEGERS 15, 2015).
//!
//! **Comparison** is decided from the forms alone, by the theorem of
//! absolute combinatorial game theory (Larsson, Nowakowski and Santos;
//! for these universes Larsson, Milley, Nowakowski, Renault and Santos,
//! *Progress on misère dead ends*): `G >= H` modulo `U` exactly when
//!
//! * *maintenance*: every `H^L` has a `G^L >= H^L` or an `H^{LR} <= G`, and
//!   every `G^R` has an `H^R <= G^R` or a `G^{RL} >= H`; and
//! * *the proviso*, which in the general universe is Siegel's end condition
//!   (if `H` is a Left end, so is `G`; if `G` is a Right end, so is `H`),
//!   and among dicots, whose only end is `0`, is `o-(G) >= o-(H)`.
//!
//! **Canonical forms** are reached as in normal play: dominated options are
//! deleted and reversible ones bypassed. A Left option `G^L` reverses
//! through `G^{LR} <= G`; it is replaced by the Left options of `G^{LR}`.
//! In the general universe `G^{LR}` is never a Left end (the proviso would
//! make `G` one). Among dicots it may be `0`; then the game becomes `0`
//! if it equals `0`, and otherwise the option becomes `*` if that keeps the
//! value (each such step is checked by the comparison before it is taken,
//! so it never changes the value; this rule is checked by the uniqueness
//! tests, not quoted from a paper).
//! The crate's tests check the result against the definition (every pair
//! of games born by day 2 compared on every `X` born by day 2 and on
//! longer integers) and check uniqueness (equal games, one form).
//!
//! Forms are interned: one id per canonical form, so equality is equality
//! of ids; sums, conjugates and comparisons are cached.

use std::fmt::Write as _;

use rustc_hash::FxHashMap;
use serde::Serialize;

use partizan_core::{GameId as CoreId, Literal};

use crate::{GameId, MisereArena, MisereError};

/// Which games a form may be added to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Universe {
    /// Every short partizan game.
    General,
    /// Dicots: at every follower both players can move or neither can.
    Dicot,
}

impl Universe {
    /// A short name: `general` or `dicot`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::General => "general",
            Self::Dicot => "dicot",
        }
    }

    /// One line saying what the universe is.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match self {
            Self::General => "all partizan games (Siegel's misère canonical form: no restriction)",
            Self::Dicot => {
                "dicots (both players can move or neither can, at every follower): forms are equal when no dicot tells them apart"
            }
        }
    }
}

/// The misère outcome of a partizan game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum PartizanOutcome {
    /// Left wins, whoever starts.
    L,
    /// Right wins, whoever starts.
    R,
    /// The player to move wins.
    N,
    /// The player to move loses.
    P,
}

impl PartizanOutcome {
    /// From who wins each way: Left moving first, Left moving second.
    #[must_use]
    pub fn from_wins(left_first: bool, left_second: bool) -> Self {
        match (left_first, left_second) {
            (true, true) => Self::L,
            (false, false) => Self::R,
            (true, false) => Self::N,
            (false, true) => Self::P,
        }
    }

    /// `"L"`, `"R"`, `"N"` or `"P"`.
    #[must_use]
    pub fn letter(self) -> &'static str {
        match self {
            Self::L => "L",
            Self::R => "R",
            Self::N => "N",
            Self::P => "P",
        }
    }

    /// `self >= other` in the order `L > N, P > R`.
    #[must_use]
    pub fn at_least(self, other: Self) -> bool {
        let (a1, a2) = self.wins();
        let (b1, b2) = other.wins();
        (a1 || !b1) && (a2 || !b2)
    }

    /// Whether Left wins moving first and moving second.
    #[must_use]
    pub fn wins(self) -> (bool, bool) {
        match self {
            Self::L => (true, true),
            Self::R => (false, false),
            Self::N => (true, false),
            Self::P => (false, true),
        }
    }
}

/// A partizan misère canonical form: an index into its [`PartizanArena`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct FormId(pub u32);

impl FormId {
    /// `0 = { | }`, the first form of every arena.
    pub const ZERO: Self = Self(0);
}

#[derive(Debug)]
struct Node {
    left: Box<[FormId]>,
    right: Box<[FormId]>,
    birthday: u32,
    /// Left wins moving first, Left wins moving second.
    wins: (bool, bool),
    /// Every follower is a dicot.
    dicot: bool,
    /// At every follower Left's and Right's options are the same.
    impartial: bool,
    /// What the form is called when it has a short name.
    name: Option<Name>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Name {
    /// `n = {n-1 | }` for n > 0 and `-n = { | -(n-1)}`.
    Integer(i64),
    /// `*n`, the nim heap (n >= 1).
    Nim(u32),
}

/// The default limit on distinct canonical forms an arena holds.
pub const DEFAULT_MAX_FORMS: usize = 2_000_000;

type Sides = (Box<[FormId]>, Box<[FormId]>);

/// Interned misère canonical forms of partizan games in one universe.
#[derive(Debug)]
pub struct PartizanArena {
    universe: Universe,
    nodes: Vec<Node>,
    canonical: FxHashMap<Sides, FormId>,
    reduced: FxHashMap<Sides, FormId>,
    ge: FxHashMap<(FormId, FormId), bool>,
    sums: FxHashMap<(FormId, FormId), FormId>,
    conjugates: FxHashMap<FormId, FormId>,
    texts: FxHashMap<FormId, String>,
    lens: FxHashMap<FormId, usize>,
    max_forms: usize,
}

/// A game being reduced (not interned) or an interned form.
#[derive(Clone, Copy)]
enum View<'a> {
    Id(FormId),
    Sides(&'a [FormId], &'a [FormId]),
}

impl PartizanArena {
    /// An arena of `universe` holding only `0`, with the default size limit.
    #[must_use]
    pub fn new(universe: Universe) -> Self {
        Self::with_limit(universe, DEFAULT_MAX_FORMS)
    }

    /// An arena that refuses to hold more than `max_forms` forms.
    #[must_use]
    pub fn with_limit(universe: Universe, max_forms: usize) -> Self {
        let zero = Node {
            left: Box::new([]),
            right: Box::new([]),
            birthday: 0,
            wins: (true, false),
            dicot: true,
            impartial: true,
            name: Some(Name::Integer(0)),
        };
        let mut canonical = FxHashMap::default();
        canonical.insert((Box::from([]), Box::from([])), FormId::ZERO);
        Self {
            universe,
            nodes: vec![zero],
            canonical,
            reduced: FxHashMap::default(),
            ge: FxHashMap::default(),
            sums: FxHashMap::default(),
            conjugates: FxHashMap::default(),
            texts: FxHashMap::default(),
            lens: FxHashMap::default(),
            max_forms,
        }
    }

    /// The universe the forms are canonical in.
    #[must_use]
    pub fn universe(&self) -> Universe {
        self.universe
    }

    /// Distinct canonical forms held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: an arena holds at least `0`.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Left's options of a canonical form.
    #[must_use]
    pub fn left(&self, g: FormId) -> &[FormId] {
        &self.nodes[g.0 as usize].left
    }

    /// Right's options of a canonical form.
    #[must_use]
    pub fn right(&self, g: FormId) -> &[FormId] {
        &self.nodes[g.0 as usize].right
    }

    /// The birthday of the canonical form.
    #[must_use]
    pub fn birthday(&self, g: FormId) -> u32 {
        self.nodes[g.0 as usize].birthday
    }

    /// The misère outcome.
    #[must_use]
    pub fn outcome(&self, g: FormId) -> PartizanOutcome {
        let (a, b) = self.nodes[g.0 as usize].wins;
        PartizanOutcome::from_wins(a, b)
    }

    /// Whether the form and all its followers are dicots.
    #[must_use]
    pub fn is_dicot(&self, g: FormId) -> bool {
        self.nodes[g.0 as usize].dicot
    }

    fn sides(&self, v: View<'_>) -> (Vec<FormId>, Vec<FormId>) {
        match v {
            View::Id(g) => (self.left(g).to_vec(), self.right(g).to_vec()),
            View::Sides(l, r) => (l.to_vec(), r.to_vec()),
        }
    }

    fn wins_of(&self, l: &[FormId], r: &[FormId]) -> (bool, bool) {
        let first = l.is_empty() || l.iter().any(|&x| self.nodes[x.0 as usize].wins.1);
        let second = !r.is_empty() && r.iter().all(|&x| self.nodes[x.0 as usize].wins.0);
        (first, second)
    }

    /// `g >= h` modulo the arena's universe.
    pub fn ge(&mut self, g: FormId, h: FormId) -> bool {
        self.ge_view(View::Id(g), View::Id(h))
    }

    /// `g <= h`.
    pub fn le(&mut self, g: FormId, h: FormId) -> bool {
        self.ge(h, g)
    }

    /// Neither `g >= h` nor `h >= g`.
    pub fn confused(&mut self, g: FormId, h: FormId) -> bool {
        !self.ge(g, h) && !self.ge(h, g)
    }

    fn ge_view(&mut self, g: View<'_>, h: View<'_>) -> bool {
        if let (View::Id(a), View::Id(b)) = (g, h) {
            if a == b {
                return true;
            }
            if let Some(&c) = self.ge.get(&(a, b)) {
                return c;
            }
        }
        let (gl, gr) = self.sides(g);
        let (hl, hr) = self.sides(h);
        let answer = self.ge_sides(&gl, &gr, &hl, &hr);
        if let (View::Id(a), View::Id(b)) = (g, h) {
            self.ge.insert((a, b), answer);
        }
        answer
    }

    fn ge_sides(&mut self, gl: &[FormId], gr: &[FormId], hl: &[FormId], hr: &[FormId]) -> bool {
        // The proviso first: it is cheap.
        let proviso = match self.universe {
            Universe::General => {
                (!hl.is_empty() || gl.is_empty()) && (!gr.is_empty() || hr.is_empty())
            }
            Universe::Dicot => {
                let (g1, g2) = self.wins_of(gl, gr);
                let (h1, h2) = self.wins_of(hl, hr);
                (g1 || !h1) && (g2 || !h2)
            }
        };
        if !proviso {
            return false;
        }
        let g = View::Sides(gl, gr);
        let h = View::Sides(hl, hr);
        // Every H^L: some G^L >= H^L, or some H^{LR} <= G.
        for &x in hl {
            let answered = gl.iter().any(|&y| self.ge(y, x))
                || self
                    .right(x)
                    .to_vec()
                    .into_iter()
                    .any(|xr| self.ge_view(g, View::Id(xr)));
            if !answered {
                return false;
            }
        }
        // Every G^R: some H^R <= G^R, or some G^{RL} >= H.
        for &x in gr {
            let answered = hr.iter().any(|&y| self.ge(x, y))
                || self
                    .left(x)
                    .to_vec()
                    .into_iter()
                    .any(|xl| self.ge_view(View::Id(xl), h));
            if !answered {
                return false;
            }
        }
        true
    }

    fn eq_sides(&mut self, a: (&[FormId], &[FormId]), b: (&[FormId], &[FormId])) -> bool {
        self.ge_sides(a.0, a.1, b.0, b.1) && self.ge_sides(b.0, b.1, a.0, a.1)
    }

    /// The canonical form of `{left | right}`, each option canonical.
    pub fn game(&mut self, left: &[FormId], right: &[FormId]) -> Result<FormId, MisereError> {
        let mut l = left.to_vec();
        let mut r = right.to_vec();
        l.sort_unstable();
        l.dedup();
        r.sort_unstable();
        r.dedup();
        if self.universe == Universe::Dicot {
            if l.is_empty() != r.is_empty() {
                return Err(MisereError::Unsupported(
                    "not a dicot: one player can move and the other cannot".into(),
                ));
            }
            if l.iter().chain(&r).any(|&x| !self.is_dicot(x)) {
                return Err(MisereError::Unsupported(
                    "not a dicot: an option is not a dicot".into(),
                ));
            }
        }
        let key: Sides = (l.clone().into(), r.clone().into());
        if let Some(&g) = self.canonical.get(&key).or_else(|| self.reduced.get(&key)) {
            return Ok(g);
        }
        loop {
            l = self.undominated(&l, true);
            r = self.undominated(&r, false);
            if self.reverse_one(&mut l, &mut r, true) || self.reverse_one(&mut l, &mut r, false) {
                continue;
            }
            break;
        }
        let g = self.intern(l, r)?;
        self.reduced.insert(key, g);
        Ok(g)
    }

    /// The options no other option is at least as good as (for Left,
    /// `left`; for Right, at most as bad as).
    fn undominated(&mut self, opts: &[FormId], left: bool) -> Vec<FormId> {
        let mut kept: Vec<FormId> = Vec::with_capacity(opts.len());
        for &a in opts {
            let beaten = kept
                .iter()
                .any(|&b| if left { self.ge(b, a) } else { self.le(b, a) });
            if beaten {
                continue;
            }
            let mut i = 0;
            while i < kept.len() {
                let b = kept[i];
                let beats = if left { self.ge(a, b) } else { self.le(a, b) };
                if beats {
                    kept.swap_remove(i);
                } else {
                    i += 1;
                }
            }
            kept.push(a);
        }
        kept.sort_unstable();
        kept
    }

    /// Bypasses one reversible option of the side named (`left`), if there
    /// is one; returns whether the game changed.
    fn reverse_one(&mut self, l: &mut Vec<FormId>, r: &mut Vec<FormId>, left: bool) -> bool {
        let side = if left { l.clone() } else { r.clone() };
        for a in side {
            let answers = if left {
                self.right(a).to_vec()
            } else {
                self.left(a).to_vec()
            };
            for x in answers {
                // Left's a reverses through x when x <= G; Right's when x >= G.
                let reverses = if left {
                    self.ge_view(View::Sides(l, r), View::Id(x))
                } else {
                    self.ge_view(View::Id(x), View::Sides(l, r))
                };
                if !reverses {
                    continue;
                }
                let replacement = if left {
                    self.left(x).to_vec()
                } else {
                    self.right(x).to_vec()
                };
                let (own, other) = if left {
                    (&mut *l, &mut *r)
                } else {
                    (&mut *r, &mut *l)
                };
                if !replacement.is_empty() {
                    own.retain(|&y| y != a);
                    own.extend(replacement);
                    own.sort_unstable();
                    own.dedup();
                    return true;
                }
                // x is an end of the mover: among dicots, x = 0.
                if self.try_through_end(own, other, a, left) {
                    return true;
                }
            }
        }
        false
    }

    /// A reversal through an end (only among dicots): make the game `0`, or
    /// else replace the option by `*`, whichever is proved equal to the
    /// game first.
    fn try_through_end(
        &mut self,
        own: &mut Vec<FormId>,
        other: &mut Vec<FormId>,
        a: FormId,
        left: bool,
    ) -> bool {
        if self.universe != Universe::Dicot {
            return false;
        }
        let before = (own.clone(), other.clone());
        let check = |arena: &mut Self, o: &[FormId], t: &[FormId]| -> bool {
            let (bl, br, nl, nr) = if left {
                (&before.0[..], &before.1[..], o, t)
            } else {
                (&before.1[..], &before.0[..], t, o)
            };
            arena.eq_sides((bl, br), (nl, nr))
        };
        if check(self, &[], &[]) {
            own.clear();
            other.clear();
            return true;
        }
        let star = self.star_id();
        if a == star {
            return false;
        }
        let mut with_star = before.0.clone();
        with_star.retain(|&y| y != a);
        with_star.push(star);
        with_star.sort_unstable();
        with_star.dedup();
        if check(self, &with_star, &before.1) {
            *own = with_star;
            return true;
        }
        false
    }

    fn star_id(&mut self) -> FormId {
        self.intern(vec![FormId::ZERO], vec![FormId::ZERO])
            .expect("* fits in any arena")
    }

    fn intern(&mut self, l: Vec<FormId>, r: Vec<FormId>) -> Result<FormId, MisereError> {
        let key: Sides = (l.into(), r.into());
        if let Some(&g) = self.canonical.get(&key) {
            return Ok(g);
        }
        if self.nodes.len() >= self.max_forms {
            return Err(MisereError::TooManyGames {
                limit: self.max_forms,
            });
        }
        let (l, r) = (&key.0, &key.1);
        let birthday = l
            .iter()
            .chain(r.iter())
            .map(|&x| self.birthday(x) + 1)
            .max()
            .unwrap_or(0);
        let wins = self.wins_of(l, r);
        let dicot =
            l.is_empty() == r.is_empty() && l.iter().chain(r.iter()).all(|&x| self.is_dicot(x));
        let impartial = l == r && l.iter().all(|&x| self.nodes[x.0 as usize].impartial);
        let name = self.name_of(l, r);
        let id = FormId(self.nodes.len() as u32);
        self.nodes.push(Node {
            left: key.0.clone(),
            right: key.1.clone(),
            birthday,
            wins,
            dicot,
            impartial,
            name,
        });
        self.canonical.insert(key, id);
        Ok(id)
    }

    fn name_of(&self, l: &[FormId], r: &[FormId]) -> Option<Name> {
        let named = |x: FormId| self.nodes[x.0 as usize].name;
        match (l, r) {
            ([x], []) => match named(*x) {
                Some(Name::Integer(n)) if n >= 0 => Some(Name::Integer(n + 1)),
                _ => None,
            },
            ([], [x]) => match named(*x) {
                Some(Name::Integer(n)) if n <= 0 => Some(Name::Integer(n - 1)),
                _ => None,
            },
            _ if l == r && !l.is_empty() => {
                let mut seen = vec![false; l.len()];
                for &x in l {
                    let k = match named(x) {
                        Some(Name::Integer(0)) => 0,
                        Some(Name::Nim(k)) => k as usize,
                        _ => return None,
                    };
                    if k >= seen.len() || seen[k] {
                        return None;
                    }
                    seen[k] = true;
                }
                Some(Name::Nim(l.len() as u32))
            }
            _ => None,
        }
    }

    /// The integer `n` as a form (`n = {n-1 | }`, `-n = { | -(n-1)}`).
    pub fn integer(&mut self, n: i64) -> Result<FormId, MisereError> {
        let mut g = FormId::ZERO;
        for _ in 0..n.unsigned_abs() {
            g = if n > 0 {
                self.game(&[g], &[])?
            } else {
                self.game(&[], &[g])?
            };
        }
        Ok(g)
    }

    /// The nim heap `*n`.
    pub fn nim(&mut self, n: u32) -> Result<FormId, MisereError> {
        let mut heaps = vec![FormId::ZERO];
        for _ in 0..n {
            let h = self.game(&heaps, &heaps)?;
            heaps.push(h);
        }
        Ok(heaps[n as usize])
    }

    /// The conjugate `{G^R~ | G^L~}` (Left and Right exchanged).
    pub fn conjugate(&mut self, g: FormId) -> Result<FormId, MisereError> {
        if let Some(&c) = self.conjugates.get(&g) {
            return Ok(c);
        }
        let mut l = Vec::new();
        for x in self.right(g).to_vec() {
            l.push(self.conjugate(x)?);
        }
        let mut r = Vec::new();
        for x in self.left(g).to_vec() {
            r.push(self.conjugate(x)?);
        }
        let c = self.game(&l, &r)?;
        self.conjugates.insert(g, c);
        self.conjugates.insert(c, g);
        Ok(c)
    }

    /// The disjunctive sum, reduced.
    pub fn sum(&mut self, g: FormId, h: FormId) -> Result<FormId, MisereError> {
        if g == FormId::ZERO {
            return Ok(h);
        }
        if h == FormId::ZERO {
            return Ok(g);
        }
        let key = if g <= h { (g, h) } else { (h, g) };
        if let Some(&s) = self.sums.get(&key) {
            return Ok(s);
        }
        let mut l = Vec::new();
        let mut r = Vec::new();
        for x in self.left(g).to_vec() {
            l.push(self.sum(x, h)?);
        }
        for x in self.left(h).to_vec() {
            l.push(self.sum(g, x)?);
        }
        for x in self.right(g).to_vec() {
            r.push(self.sum(x, h)?);
        }
        for x in self.right(h).to_vec() {
            r.push(self.sum(g, x)?);
        }
        let s = self.game(&l, &r)?;
        self.sums.insert(key, s);
        Ok(s)
    }

    /// The form written out: `0`, integers `2` (`{1|}`) and `-1` (`{|0}`),
    /// nim heaps `*`, `*2`, otherwise `{a,b|c}` with options in a fixed
    /// order (shorter text first, then by text), so the text does not
    /// depend on the arena's history. Every name is the normal-play name
    /// of the same game tree, so the text parses back to the same form.
    pub fn display(&mut self, g: FormId) -> String {
        if let Some(t) = self.texts.get(&g) {
            return t.clone();
        }
        let node = &self.nodes[g.0 as usize];
        let text = match node.name {
            Some(Name::Integer(n)) => n.to_string(),
            Some(Name::Nim(1)) => "*".to_string(),
            Some(Name::Nim(n)) => format!("*{n}"),
            None => {
                let (l, r) = (node.left.to_vec(), node.right.to_vec());
                let mut out = String::from("{");
                out.push_str(&self.list(&l));
                out.push('|');
                out.push_str(&self.list(&r));
                out.push('}');
                out
            }
        };
        self.texts.insert(g, text.clone());
        text
    }

    /// The length of [`Self::display`]'s text, counted without building it
    /// (saturating: a form shared many times can have a text longer than
    /// memory).
    pub fn display_len(&mut self, g: FormId) -> usize {
        if let Some(t) = self.texts.get(&g) {
            return t.len();
        }
        if let Some(&n) = self.lens.get(&g) {
            return n;
        }
        let node = &self.nodes[g.0 as usize];
        let n = match node.name {
            Some(Name::Integer(k)) => k.to_string().len(),
            Some(Name::Nim(1)) => 1,
            Some(Name::Nim(k)) => 1 + k.to_string().len(),
            None => {
                let commas = node.left.len().saturating_sub(1) + node.right.len().saturating_sub(1);
                let opts: Vec<FormId> =
                    node.left.iter().chain(node.right.iter()).copied().collect();
                opts.into_iter().fold(2 + 1 + commas, |acc, x| {
                    acc.saturating_add(self.display_len(x))
                })
            }
        };
        self.lens.insert(g, n);
        n
    }

    /// [`Self::display`], or `None` when the text would pass `limit` bytes.
    pub fn display_within(&mut self, g: FormId, limit: usize) -> Option<String> {
        (self.display_len(g) <= limit).then(|| self.display(g))
    }

    fn list(&mut self, opts: &[FormId]) -> String {
        let mut texts: Vec<String> = opts.iter().map(|&x| self.display(x)).collect();
        texts.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
        let mut out = String::new();
        for (i, t) in texts.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{t}");
        }
        out
    }

    /// The form of a game tree written in CGSuite notation
    /// ([`partizan_core::Arena::parse_literal`]): braces as written, named
    /// values as their normal-play canonical trees, `-x` the conjugate,
    /// `x + y` the misère sum.
    pub fn from_literal(
        &mut self,
        core: &partizan_core::Arena,
        lit: &Literal,
    ) -> Result<FormId, MisereError> {
        let mut memo = FxHashMap::default();
        self.literal_in(core, lit, &mut memo)
    }

    fn literal_in(
        &mut self,
        core: &partizan_core::Arena,
        lit: &Literal,
        memo: &mut FxHashMap<CoreId, FormId>,
    ) -> Result<FormId, MisereError> {
        match lit {
            Literal::Form(g) => self.core_tree(core, *g, memo),
            Literal::Game(l, r) => {
                let mut ls = Vec::with_capacity(l.len());
                for x in l {
                    ls.push(self.literal_in(core, x, memo)?);
                }
                let mut rs = Vec::with_capacity(r.len());
                for x in r {
                    rs.push(self.literal_in(core, x, memo)?);
                }
                self.game(&ls, &rs)
            }
            Literal::Neg(x) => {
                let g = self.literal_in(core, x, memo)?;
                self.conjugate(g)
            }
            Literal::Sum(x, y) => {
                let g = self.literal_in(core, x, memo)?;
                let h = self.literal_in(core, y, memo)?;
                self.sum(g, h)
            }
        }
    }

    fn core_tree(
        &mut self,
        core: &partizan_core::Arena,
        g: CoreId,
        memo: &mut FxHashMap<CoreId, FormId>,
    ) -> Result<FormId, MisereError> {
        self.copy_tree(
            g,
            &|x| {
                (
                    core.left_options(x).to_vec(),
                    core.right_options(x).to_vec(),
                )
            },
            memo,
        )
    }

    /// The form of `other`'s form `g` in this arena's universe (its tree,
    /// reduced here): from the general universe into the dicots, say.
    pub fn import(&mut self, other: &PartizanArena, g: FormId) -> Result<FormId, MisereError> {
        let mut memo = FxHashMap::default();
        self.copy_tree(
            g,
            &|x| (other.left(x).to_vec(), other.right(x).to_vec()),
            &mut memo,
        )
    }

    /// The form of a game tree given by `options` (Left's, Right's), its
    /// nodes named by `T`, memoised in `memo`.
    fn copy_tree<T: Copy + Eq + std::hash::Hash>(
        &mut self,
        g: T,
        options: &dyn Fn(T) -> (Vec<T>, Vec<T>),
        memo: &mut FxHashMap<T, FormId>,
    ) -> Result<FormId, MisereError> {
        if let Some(&f) = memo.get(&g) {
            return Ok(f);
        }
        let (l, r) = options(g);
        let mut sides = [Vec::with_capacity(l.len()), Vec::with_capacity(r.len())];
        for (side, nodes) in sides.iter_mut().zip([l, r]) {
            for x in nodes {
                side.push(self.copy_tree(x, options, memo)?);
            }
        }
        let f = self.game(&sides[0], &sides[1])?;
        memo.insert(g, f);
        Ok(f)
    }

    /// Whether the form is an impartial tree: at every follower, Left's and
    /// Right's options are the same.
    #[must_use]
    pub fn is_impartial(&self, g: FormId) -> bool {
        self.nodes[g.0 as usize].impartial
    }

    /// The impartial misère canonical form of an impartial form (`None` if
    /// the form is not an impartial tree), in `arena`.
    pub fn impartial_form(
        &self,
        g: FormId,
        arena: &mut MisereArena,
    ) -> Option<Result<GameId, MisereError>> {
        if !self.is_impartial(g) {
            return None;
        }
        let mut memo = FxHashMap::default();
        Some(self.impartial_in(g, arena, &mut memo))
    }

    fn impartial_in(
        &self,
        g: FormId,
        arena: &mut MisereArena,
        memo: &mut FxHashMap<FormId, GameId>,
    ) -> Result<GameId, MisereError> {
        if let Some(&x) = memo.get(&g) {
            return Ok(x);
        }
        let mut opts = Vec::new();
        for &x in self.left(g) {
            opts.push(self.impartial_in(x, arena, memo)?);
        }
        let x = arena.game(&opts)?;
        memo.insert(g, x);
        Ok(x)
    }
}
