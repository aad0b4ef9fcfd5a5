//! Impartial games under misère play, interned in their misère canonical
//! forms (Conway, ONAG ch. 12; Siegel, *Combinatorial Game Theory* V.1).
//!
//! Two impartial games are misère-equivalent when no impartial `X` tells
//! them apart: `o-(G + X) = o-(H + X)` for every `X`. Every game has a
//! unique simplest equivalent, its canonical form, reached by deleting
//! reversible options. Here a game is a set of option ids, each already
//! canonical, and [`MisereArena::game`] reduces it:
//!
//! * **The rule.** Let `C` be canonical and `S` the options of `G` that do
//!   not have `C` as an option. If the game `{S}` is (canonically) `C`, then
//!   `G = C`: every extra option `D` of `G` has the answer `D -> C = {S}`, so
//!   whoever moves to `D` can be sent back to where they were. The endgame
//!   proviso (ONAG's) is the case `S` empty: `G = 0` only if `G` is a misère
//!   N-position (some option is a P-position), since `0` itself is one.
//!   Proof sketch: compare `o-(G + X)` and `o-({S} + X)` by induction on `X`;
//!   the only place the answer-back argument fails is `{S} + X` with no move
//!   at all, which needs `S` and `X` empty, and that is the proviso.
//! * **The candidates.** A reversible option `D` of `G` has an option equal
//!   to `G`, so if `G` is not already canonical its canonical form is one of
//!   its options' options. Only those with `G`'s normal and misère nim values
//!   (both invariants) are tried, and each costs one smaller reduction.
//!
//! That a game with no reversible option is its own canonical form, and
//! that two such games are equal only when identical, is Conway's theorem;
//! the crate's tests check it where it can be counted: 1, 2, 3, 5 and 22
//! distinct games born by days 0-4 (ONAG ch. 12), every pair of them told
//! apart by some game, and canonical equality against the definition on
//! random games.
//!
//! Sums are formed option by option and reduced, cached by id pair.

use std::fmt::Write as _;

use rustc_hash::FxHashMap;
use serde::Serialize;

use crate::genus::{mex, Genus};
use crate::MisereError;

/// A misère canonical form: an index into its [`MisereArena`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct GameId(pub u32);

impl GameId {
    /// The empty game, `0`, the first form of every arena.
    pub const ZERO: Self = Self(0);
}

/// Who wins a game under misère play (the player who moves last loses).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum Outcome {
    /// The player to move wins.
    N,
    /// The player to move loses.
    P,
}

impl Outcome {
    /// `"N"` or `"P"`.
    #[must_use]
    pub fn letter(self) -> &'static str {
        match self {
            Self::N => "N",
            Self::P => "P",
        }
    }
}

#[derive(Debug)]
struct Node {
    options: Box<[GameId]>,
    plus: u32,
    minus: u32,
    birthday: u32,
    /// `Some(n)` for the nim heap `*n`.
    nim: Option<u32>,
}

/// The default limit on distinct canonical forms an arena holds.
pub const DEFAULT_MAX_GAMES: usize = 5_000_000;

/// Interned misère canonical forms with cached sums and genera.
#[derive(Debug)]
pub struct MisereArena {
    nodes: Vec<Node>,
    canonical: FxHashMap<Box<[GameId]>, GameId>,
    reduced: FxHashMap<Box<[GameId]>, GameId>,
    sums: FxHashMap<(GameId, GameId), GameId>,
    genera: Vec<Option<Genus>>,
    nims: Vec<GameId>,
    max_games: usize,
}

impl Default for MisereArena {
    fn default() -> Self {
        Self::new()
    }
}

impl MisereArena {
    /// An arena holding only `0`, with the default size limit.
    #[must_use]
    pub fn new() -> Self {
        Self::with_limit(DEFAULT_MAX_GAMES)
    }

    /// An arena that refuses to hold more than `max_games` forms
    /// ([`MisereError::TooManyGames`]): the budget of every computation in it.
    #[must_use]
    pub fn with_limit(max_games: usize) -> Self {
        let zero = Node {
            options: Box::new([]),
            plus: 0,
            minus: 1,
            birthday: 0,
            nim: Some(0),
        };
        let mut canonical = FxHashMap::default();
        canonical.insert(Box::<[GameId]>::from([]), GameId::ZERO);
        Self {
            nodes: vec![zero],
            canonical,
            reduced: FxHashMap::default(),
            sums: FxHashMap::default(),
            genera: vec![None],
            nims: vec![GameId::ZERO],
            max_games,
        }
    }

    /// Distinct canonical forms held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: an arena holds at least `0`.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Every canonical form born by day `day` (the forms whose options are
    /// forms born by the day before), in id order: 1, 2, 3, 5, 22, 4171780
    /// of them for days 0-5 (ONAG ch. 12). Day 5 takes 2^22 reductions;
    /// later days are out of reach (refused as [`MisereError::TooManyGames`]
    /// once the subsets would pass the arena's limit).
    pub fn born_by(&mut self, day: u32) -> Result<Vec<GameId>, MisereError> {
        let mut forms = vec![GameId::ZERO];
        for _ in 0..day {
            let n = forms.len();
            if n >= 40 || (1usize << n) > self.max_games.saturating_mul(2) {
                return Err(MisereError::TooManyGames {
                    limit: self.max_games,
                });
            }
            let mut next = Vec::with_capacity(1 << n);
            for mask in 0u64..(1 << n) {
                let opts: Vec<GameId> = (0..n)
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| forms[i])
                    .collect();
                next.push(self.game(&opts)?);
            }
            next.sort_unstable();
            next.dedup();
            forms = next;
        }
        Ok(forms)
    }

    /// The canonical options of a form, ordered by id.
    #[must_use]
    pub fn options(&self, g: GameId) -> &[GameId] {
        &self.nodes[g.0 as usize].options
    }

    /// `G+`: the normal-play nim value.
    #[must_use]
    pub fn nim_value(&self, g: GameId) -> u32 {
        self.nodes[g.0 as usize].plus
    }

    /// `G-`: the misère nim value (1 for `0`, else the mex of the options').
    /// It is 0 exactly for misère P-positions.
    #[must_use]
    pub fn misere_nim_value(&self, g: GameId) -> u32 {
        self.nodes[g.0 as usize].minus
    }

    /// The misère outcome.
    #[must_use]
    pub fn outcome(&self, g: GameId) -> Outcome {
        if self.misere_nim_value(g) == 0 {
            Outcome::P
        } else {
            Outcome::N
        }
    }

    /// The birthday of the canonical form (its height as a tree).
    #[must_use]
    pub fn birthday(&self, g: GameId) -> u32 {
        self.nodes[g.0 as usize].birthday
    }

    /// The nim heap `*n` (canonical under misère play as under normal play).
    pub fn nim(&mut self, n: u32) -> Result<GameId, MisereError> {
        while self.nims.len() <= n as usize {
            let options = self.nims.clone();
            let g = self.game(&options)?;
            self.nims.push(g);
        }
        Ok(self.nims[n as usize])
    }

    /// `Some(n)` when the form is the nim heap `*n`.
    #[must_use]
    pub fn as_nim(&self, g: GameId) -> Option<u32> {
        self.nodes[g.0 as usize].nim
    }

    /// The canonical form of the game whose options are these forms (any
    /// order, repeats allowed).
    pub fn game(&mut self, options: &[GameId]) -> Result<GameId, MisereError> {
        let mut opts = options.to_vec();
        opts.sort_unstable();
        opts.dedup();
        self.reduce(opts)
    }

    fn reduce(&mut self, opts: Vec<GameId>) -> Result<GameId, MisereError> {
        if let Some(&g) = self.canonical.get(opts.as_slice()) {
            return Ok(g);
        }
        if let Some(&g) = self.reduced.get(opts.as_slice()) {
            return Ok(g);
        }
        let plus = mex(&mut opts.iter().map(|&o| self.nim_value(o)).collect());
        let minus = mex(&mut opts.iter().map(|&o| self.misere_nim_value(o)).collect());
        let mut candidates: Vec<GameId> = opts
            .iter()
            .flat_map(|&d| self.options(d).iter().copied())
            .filter(|&c| self.nim_value(c) == plus && self.misere_nim_value(c) == minus)
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        let mut answer = None;
        for c in candidates {
            let rest: Vec<GameId> = opts
                .iter()
                .copied()
                .filter(|&d| self.options(d).binary_search(&c).is_err())
                .collect();
            if rest.is_empty() {
                // The endgame proviso: G = 0 needs G to be an N-position.
                if c == GameId::ZERO && opts.iter().any(|&d| self.misere_nim_value(d) == 0) {
                    answer = Some(c);
                    break;
                }
                continue;
            }
            if self.reduce(rest)? == c {
                answer = Some(c);
                break;
            }
        }
        let g = match answer {
            Some(c) => c,
            None => self.intern(opts.clone(), plus, minus)?,
        };
        self.reduced.insert(opts.into_boxed_slice(), g);
        Ok(g)
    }

    fn intern(&mut self, opts: Vec<GameId>, plus: u32, minus: u32) -> Result<GameId, MisereError> {
        if self.nodes.len() >= self.max_games {
            return Err(MisereError::TooManyGames {
                limit: self.max_games,
            });
        }
        let birthday = 1 + opts.iter().map(|&o| self.birthday(o)).max().unwrap_or(0);
        let id = GameId(self.nodes.len() as u32);
        // *n has exactly the options *0, ..., *(n-1).
        let n = opts.len();
        let nim = opts
            .iter()
            .all(|&o| self.as_nim(o).is_some_and(|k| (k as usize) < n))
            .then_some(n as u32);
        let options: Box<[GameId]> = opts.into_boxed_slice();
        self.canonical.insert(options.clone(), id);
        self.nodes.push(Node {
            options,
            plus,
            minus,
            birthday,
            nim,
        });
        self.genera.push(None);
        Ok(id)
    }

    /// The canonical form of the sum `a + b`.
    pub fn sum(&mut self, a: GameId, b: GameId) -> Result<GameId, MisereError> {
        if a == GameId::ZERO {
            return Ok(b);
        }
        if b == GameId::ZERO {
            return Ok(a);
        }
        let key = (a.min(b), a.max(b));
        if let Some(&s) = self.sums.get(&key) {
            return Ok(s);
        }
        let mut opts = Vec::with_capacity(self.options(a).len() + self.options(b).len());
        for i in 0..self.options(a).len() {
            let a1 = self.options(a)[i];
            opts.push(self.sum(a1, b)?);
        }
        for i in 0..self.options(b).len() {
            let b1 = self.options(b)[i];
            opts.push(self.sum(a, b1)?);
        }
        let s = self.game(&opts)?;
        self.sums.insert(key, s);
        Ok(s)
    }

    /// The canonical form of a sum of several forms.
    pub fn sum_all(&mut self, parts: &[GameId]) -> Result<GameId, MisereError> {
        parts
            .iter()
            .try_fold(GameId::ZERO, |acc, &p| self.sum(acc, p))
    }

    /// The genus `g^{g0 g1 ...}` (computed from the options' genera by the
    /// mex rule, cached).
    pub fn genus(&mut self, g: GameId) -> Genus {
        if let Some(known) = &self.genera[g.0 as usize] {
            return known.clone();
        }
        // Children first, without recursion on deep forms: an explicit stack.
        let mut stack = vec![g];
        while let Some(&top) = stack.last() {
            let pending: Vec<GameId> = self
                .options(top)
                .iter()
                .copied()
                .filter(|o| self.genera[o.0 as usize].is_none())
                .collect();
            if pending.is_empty() {
                stack.pop();
                if self.genera[top.0 as usize].is_none() {
                    let genus = {
                        let opts = self.options(top);
                        let list: Vec<&Genus> = opts
                            .iter()
                            .filter_map(|o| self.genera[o.0 as usize].as_ref())
                            .collect();
                        Genus::of_options(list.iter().copied())
                    };
                    self.genera[top.0 as usize] = Some(genus);
                }
            } else {
                stack.extend(pending);
            }
        }
        self.genera[g.0 as usize]
            .clone()
            .unwrap_or_else(|| Genus::new(0, vec![1, 2, 0]))
    }

    /// The form in CGSuite-like braces: `0`, `*`, `*2` for nim heaps,
    /// `{*2}`, `{0, {*2}}` otherwise (options in id order). Forms longer
    /// than `max_chars` end in `...`.
    #[must_use]
    pub fn display(&self, g: GameId, max_chars: usize) -> String {
        let mut out = String::new();
        self.write_form(g, &mut out, max_chars);
        if out.len() > max_chars {
            let mut cut = max_chars;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push_str("...");
        }
        out
    }

    fn write_form(&self, g: GameId, out: &mut String, max_chars: usize) {
        if out.len() > max_chars {
            return;
        }
        match self.as_nim(g) {
            Some(0) => out.push('0'),
            Some(1) => out.push('*'),
            Some(n) => {
                let _ = write!(out, "*{n}");
            }
            None => {
                out.push('{');
                for (i, &o) in self.options(g).iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    self.write_form(o, out, max_chars);
                }
                out.push('}');
            }
        }
    }

    /// Read a form written as [`Self::display`] writes it: `0`, `*`, `*n`,
    /// `{a, b, ...}` (nested), and sums `a + b`.
    pub fn parse(&mut self, text: &str) -> Result<GameId, MisereError> {
        let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        let mut at = 0;
        let g = self.parse_sum(&chars, &mut at)?;
        if at != chars.len() {
            return Err(bad_form(text, at));
        }
        Ok(g)
    }

    fn parse_sum(&mut self, s: &[char], at: &mut usize) -> Result<GameId, MisereError> {
        let mut g = self.parse_atom(s, at)?;
        while s.get(*at) == Some(&'+') {
            *at += 1;
            let h = self.parse_atom(s, at)?;
            g = self.sum(g, h)?;
        }
        Ok(g)
    }

    fn parse_atom(&mut self, s: &[char], at: &mut usize) -> Result<GameId, MisereError> {
        let text: String = s.iter().collect();
        match s.get(*at) {
            Some('0') => {
                *at += 1;
                Ok(GameId::ZERO)
            }
            Some('*') => {
                *at += 1;
                let start = *at;
                while s.get(*at).is_some_and(char::is_ascii_digit) {
                    *at += 1;
                }
                let digits: String = s[start..*at].iter().collect();
                let n = if digits.is_empty() {
                    1
                } else {
                    digits.parse::<u32>().map_err(|_| bad_form(&text, start))?
                };
                if n > 4096 {
                    return Err(bad_form(&text, start));
                }
                self.nim(n)
            }
            Some('{') => {
                *at += 1;
                let mut opts = Vec::new();
                if s.get(*at) == Some(&'}') {
                    *at += 1;
                    return Ok(GameId::ZERO);
                }
                loop {
                    opts.push(self.parse_sum(s, at)?);
                    match s.get(*at) {
                        Some(',') => *at += 1,
                        Some('}') => {
                            *at += 1;
                            break;
                        }
                        _ => return Err(bad_form(&text, *at)),
                    }
                }
                self.game(&opts)
            }
            _ => Err(bad_form(&text, *at)),
        }
    }
}

fn bad_form(text: &str, at: usize) -> MisereError {
    MisereError::Unsupported(format!(
        "misère form {text:?}: unexpected text at character {at} (write forms like 0, *, *2, {{*2, 0}}, *2 + *2)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_days() {
        let mut a = MisereArena::new();
        let star = a.nim(1).unwrap();
        let two = a.nim(2).unwrap();
        // {*} = 0 (the endgame proviso is met: * is a P-position).
        assert_eq!(a.game(&[star]).unwrap(), GameId::ZERO);
        // {0, *2} = * and {*, *2} = 0.
        assert_eq!(a.game(&[GameId::ZERO, two]).unwrap(), star);
        assert_eq!(a.game(&[star, two]).unwrap(), GameId::ZERO);
        // {*2} is canonical (CGSuite: *[2#], birthday 3, genus 0^0..., P).
        let two_sharp = a.game(&[two]).unwrap();
        assert_eq!(a.birthday(two_sharp), 3);
        assert_eq!(a.outcome(two_sharp), Outcome::P);
        // * + * = {*} = 0 among impartial games.
        assert_eq!(a.sum(star, star).unwrap(), GameId::ZERO);
        assert_eq!(a.display(two_sharp, 100), "{*2}");
    }

    #[test]
    fn parse_round_trips() {
        let mut a = MisereArena::new();
        for text in ["0", "*", "*3", "{*2}", "{0, {*2}}", "{*2, *3}"] {
            let g = a.parse(text).unwrap();
            assert_eq!(a.display(g, 1000), text);
        }
        let g = a.parse("*2 + *2").unwrap();
        assert_eq!(a.display(g, 100), "{*2, *3}");
        assert!(a.parse("{*2").is_err());
        assert!(a.parse("x").is_err());
    }
}
