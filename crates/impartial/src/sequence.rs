//! Heap games and their Grundy sequences: computed, proved periodic, and
//! read at any `n` once proved.

use std::fmt;

use serde::Serialize;

use crate::allbut::AllBut;
use crate::engine::FastEngine;
use crate::period::{self, Periodicity};
use crate::{ImpartialError, OctalCode, SubtractionSet};

/// A game played on one heap of tokens, whose sums are sums of heaps.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum HeapGame {
    /// Nim: take any number of tokens; `G(n) = n`.
    Nim,
    /// An octal or hexadecimal take-and-break game.
    Octal(OctalCode),
    /// A subtraction game with a finite set.
    Subtraction(SubtractionSet),
    /// An all-but subtraction game: take any number except the excluded ones.
    AllBut(AllBut),
}

impl HeapGame {
    /// Read a heap game: an octal or hexadecimal code (`0.07`, `4.7`), a
    /// name (`nim`, `kayles` = 0.77, `dawsons-kayles` = 0.07,
    /// `dawsons-chess` = 0.137, `treblecross` = 0.007), a subtraction set
    /// `sub:1,2,5` (also `subtraction:` and `s:`), or an all-but subtraction
    /// game by its excluded set, `allbut:1,2` (also `all-but:`).
    pub fn parse(text: &str) -> Result<Self, ImpartialError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(ImpartialError::Empty { what: "game" });
        }
        let lower = t.to_ascii_lowercase();
        for prefix in ["allbut:", "all-but:"] {
            if let Some(rest) = lower.strip_prefix(prefix) {
                return Ok(Self::AllBut(AllBut::parse(rest)?));
            }
        }
        for prefix in ["subtraction:", "sub:", "s:"] {
            if let Some(rest) = lower.strip_prefix(prefix) {
                return Ok(Self::Subtraction(SubtractionSet::parse(rest)?));
            }
        }
        let named = match lower.as_str() {
            "nim" => return Ok(Self::Nim),
            "kayles" => Some("0.77"),
            "dawsons-kayles" | "dawson" | "dawsons" => Some("0.07"),
            "dawsons-chess" => Some("0.137"),
            "treblecross" => Some("0.007"),
            _ => None,
        };
        if let Some(code) = named {
            return OctalCode::parse(code).map(Self::Octal);
        }
        if t.contains('.') {
            return OctalCode::parse(t).map(Self::Octal);
        }
        Err(ImpartialError::UnknownGame { name: t.into() })
    }

    /// The game as an octal code (`None` for Nim and all-but games, whose
    /// codes are infinite).
    #[must_use]
    pub fn code(&self) -> Option<OctalCode> {
        match self {
            Self::Nim | Self::AllBut(_) => None,
            Self::Octal(c) => Some(c.clone()),
            Self::Subtraction(s) => Some(s.code()),
        }
    }

    /// `"nim"`, `"octal"`, `"hexadecimal"`, `"subtraction"` or `"all-but"`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Nim => "nim",
            Self::AllBut(_) => "all-but",
            Self::Octal(c) if c.is_hexadecimal() => "hexadecimal",
            Self::Octal(_) => "octal",
            Self::Subtraction(_) => "subtraction",
        }
    }
}

impl fmt::Display for HeapGame {
    /// `nim`, the canonical code `0.07`, or `sub:{1,2,5}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Nim => write!(f, "nim"),
            Self::Octal(c) => write!(f, "{c}"),
            Self::Subtraction(s) => write!(f, "sub:{s}"),
            Self::AllBut(a) => write!(f, "{a}"),
        }
    }
}

/// How far to look: values wanted, and how far to compute looking for a proof.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchOptions {
    /// The largest heap whose value is wanted.
    pub up_to: usize,
    /// Compute at least this many values by the recurrence while looking for
    /// a proof of periodicity (the computation stops as soon as one is found).
    pub search: usize,
    /// Stop computing once the engine's work counter passes this (units of
    /// about a nanosecond, see [`FastEngine::words_scanned`]): a budget, so a
    /// game whose values keep growing cannot run away.
    pub max_work: u64,
}

/// The most values a sequence computes (or a report lists), whatever
/// `up_to` and `search` ask: 64 MiB of values. Past it a value is known
/// only through a proved period.
pub const MAX_VALUES: usize = 1 << 24;

/// The default work budget of [`SearchOptions`]: a few seconds.
pub const DEFAULT_MAX_WORK: u64 = 3_000_000_000;

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            up_to: 100,
            search: 10_000,
            max_work: DEFAULT_MAX_WORK,
        }
    }
}

/// The Grundy sequence of a heap game: a computed prefix and, when proved,
/// its period, which gives every later value.
#[derive(Debug, Clone)]
pub struct GrundySequence {
    game: HeapGame,
    values: Vec<u32>,
    periodicity: Option<Periodicity>,
    apparent: Option<(usize, usize)>,
    saltus: Option<u32>,
    words_scanned: u64,
    out_of_budget: bool,
}

impl GrundySequence {
    /// Compute by the mex recurrence (fast engine) until periodicity is
    /// proved or `max(up_to + 1, search)` values are known (at most
    /// [`MAX_VALUES`]), or the work budget runs out. Proof attempts
    /// run at lengths growing by a quarter, so at most about 25% more values
    /// than the proof needs are computed.
    #[must_use]
    pub fn compute(game: &HeapGame, opts: SearchOptions) -> Self {
        let limit = opts
            .up_to
            .saturating_add(1)
            .max(opts.search)
            .clamp(1, MAX_VALUES);
        if let HeapGame::AllBut(a) = game {
            let (values, whole) = a.values_within(limit, opts.max_work);
            let arith = AllBut::apparent_period(&values);
            return Self {
                game: game.clone(),
                words_scanned: a.work_per_value() * values.len() as u64,
                values,
                periodicity: None,
                apparent: arith.map(|p| (p.period, p.from)),
                saltus: arith.map(|p| p.saltus),
                out_of_budget: !whole,
            };
        }
        let Some(code) = game.code() else {
            return Self {
                game: game.clone(),
                values: Vec::new(),
                periodicity: None,
                apparent: None,
                saltus: None,
                words_scanned: 0,
                out_of_budget: false,
            };
        };
        let (k, heaps) = (code.max_removal(), code.max_heaps());
        let mut engine = FastEngine::new(&code);
        let mut len = 128usize.min(limit);
        let mut out_of_budget;
        let periodicity = loop {
            out_of_budget = !engine.extend_within(len, opts.max_work);
            if let Some(p) = period::prove(engine.values(), k, heaps) {
                break Some(p);
            }
            if len == limit || out_of_budget {
                break None;
            }
            len = (len + len / 4).min(limit);
        };
        let values = engine.values().to_vec();
        let apparent = if periodicity.is_none() {
            period::apparent(&values)
        } else {
            None
        };
        Self {
            game: game.clone(),
            values,
            periodicity,
            apparent,
            saltus: None,
            words_scanned: engine.words_scanned(),
            out_of_budget,
        }
    }

    /// Whether the work budget stopped the computation early.
    #[must_use]
    pub fn out_of_budget(&self) -> bool {
        self.out_of_budget
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> &HeapGame {
        &self.game
    }

    /// `G(n)`, when known: computed, given by a proved period, or Nim.
    #[must_use]
    pub fn get(&self, n: usize) -> Option<u32> {
        if self.game == HeapGame::Nim {
            return u32::try_from(n).ok();
        }
        if n < self.values.len() {
            return Some(self.values[n]);
        }
        self.periodicity.as_ref().map(|p| p.value(&self.values, n))
    }

    /// The values computed by the recurrence, `G(0..computed)`.
    #[must_use]
    pub fn computed(&self) -> &[u32] {
        &self.values
    }

    /// The proved periodicity, if the theorem applied within the search.
    #[must_use]
    pub fn periodicity(&self) -> Option<&Periodicity> {
        self.periodicity.as_ref()
    }

    /// A period the computed values show but do not prove: `(period, from)`
    /// (for all-but games an arithmetic period, with [`Self::saltus`]).
    #[must_use]
    pub fn apparent(&self) -> Option<(usize, usize)> {
        self.apparent
    }

    /// The saltus of an all-but game's apparent arithmetic period.
    #[must_use]
    pub fn saltus(&self) -> Option<u32> {
        self.saltus
    }

    /// `G(0..=up_to)` when every one is known.
    #[must_use]
    pub fn values_through(&self, up_to: usize) -> Option<Vec<u32>> {
        (0..=up_to).map(|n| self.get(n)).collect()
    }

    /// The value of a sum of heaps: the nim-sum of their values.
    #[must_use]
    pub fn sum_value(&self, heaps: &[usize]) -> Option<u32> {
        heaps
            .iter()
            .try_fold(0u32, |acc, &h| self.get(h).map(|v| acc ^ v))
    }

    /// A serialisable report: what was computed and proved, the head of
    /// the sequence and, with `all_values`, every value through `up_to`
    /// (the first [`MAX_VALUES`] at most: a front end refuses to list more
    /// before it asks).
    #[must_use]
    pub fn report(&self, up_to: usize, all_values: bool) -> GrundyReport {
        let known = self.game == HeapGame::Nim || self.periodicity.is_some();
        let known_through = if known {
            up_to
        } else {
            up_to.min(self.values.len().saturating_sub(1))
        };
        let head_len = known_through.min(HEAD - 1);
        GrundyReport {
            game: self.game.to_string(),
            kind: self.game.kind(),
            code: self.game.code().map(|c| c.to_string()),
            computed: if self.game == HeapGame::Nim {
                0
            } else {
                self.values.len()
            },
            proved: self.periodicity.is_some(),
            period: self.periodicity.as_ref().map(|p| p.period),
            preperiod: self.periodicity.as_ref().map(|p| p.preperiod),
            exceptions: self
                .periodicity
                .as_ref()
                .map(|p| p.exceptions.clone())
                .unwrap_or_default(),
            proof_length: self.periodicity.as_ref().map(|p| p.proof_length),
            apparent_period: self.apparent.map(|a| a.0),
            apparent_preperiod: self.apparent.map(|a| a.1),
            apparent_saltus: self.saltus,
            up_to,
            known_through,
            head: (0..=head_len).filter_map(|n| self.get(n)).collect(),
            values: all_values.then(|| {
                (0..=known_through.min(MAX_VALUES - 1))
                    .filter_map(|n| self.get(n))
                    .collect()
            }),
            words_scanned: self.words_scanned,
            out_of_budget: self.out_of_budget,
        }
    }
}

/// How many values a report's head shows.
pub const HEAD: usize = 100;

/// What a front end shows about a Grundy sequence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GrundyReport {
    /// The game as written canonically (`0.07`, `sub:{1,2}`, `nim`).
    pub game: String,
    /// `nim`, `octal`, `hexadecimal`, `subtraction` or `all-but`.
    pub kind: &'static str,
    /// The octal code (none for Nim and all-but games).
    pub code: Option<String>,
    /// Values computed by the mex recurrence, `G(0..computed)`.
    pub computed: usize,
    /// Whether periodicity was proved by the periodicity theorem.
    pub proved: bool,
    /// The least period, when proved.
    pub period: Option<usize>,
    /// The least pre-period, when proved (periodic from this `n` on).
    pub preperiod: Option<usize>,
    /// The exceptional values: the `n` below the pre-period whose value
    /// differs from the periodic tail's at the same residue.
    pub exceptions: Vec<usize>,
    /// Values the proof needed.
    pub proof_length: Option<usize>,
    /// A period the values show without proof (`None` when proved).
    pub apparent_period: Option<usize>,
    /// Where the apparent period starts.
    pub apparent_preperiod: Option<usize>,
    /// For all-but games: `G(n + period) = G(n) + saltus` on the apparent period.
    pub apparent_saltus: Option<u32>,
    /// The largest heap asked about.
    pub up_to: usize,
    /// The largest heap whose value is known (`up_to` unless the values ran
    /// out before a proof).
    pub known_through: usize,
    /// `G(0), G(1), ...`: at most the first 100 values.
    pub head: Vec<u32>,
    /// Every value `G(0..=known_through)`, when asked for.
    pub values: Option<Vec<u32>>,
    /// The fast engine's work counter (its measured cost, in units of about
    /// a nanosecond).
    pub words_scanned: u64,
    /// Whether the work budget stopped the computation before `search`.
    pub out_of_budget: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_codes() {
        assert_eq!(
            HeapGame::parse("kayles").unwrap(),
            HeapGame::parse("0.77").unwrap()
        );
        assert_eq!(
            HeapGame::parse("dawsons-kayles").unwrap().to_string(),
            "0.07"
        );
        assert_eq!(HeapGame::parse("sub:2,1").unwrap().to_string(), "sub:{1,2}");
        assert_eq!(HeapGame::parse("NIM").unwrap(), HeapGame::Nim);
        assert!(matches!(
            HeapGame::parse("chess"),
            Err(ImpartialError::UnknownGame { .. })
        ));
        assert!(matches!(
            HeapGame::parse("sub:"),
            Err(ImpartialError::Empty { .. })
        ));
    }

    #[test]
    fn kayles_is_proved_with_period_12_from_71() {
        let s =
            GrundySequence::compute(&HeapGame::parse("0.77").unwrap(), SearchOptions::default());
        let p = s.periodicity().unwrap();
        assert_eq!((p.period, p.preperiod), (12, 71));
        // Far values come from the period: G(10^9) = G(71 + (10^9 - 71) mod 12).
        assert_eq!(s.get(1_000_000_000), s.get(p.fold(1_000_000_000)));
        assert!(s.computed().len() < 1024);
    }

    #[test]
    fn nim_and_sums() {
        let nim = GrundySequence::compute(&HeapGame::Nim, SearchOptions::default());
        assert_eq!(nim.get(12345), Some(12345));
        assert_eq!(nim.sum_value(&[3, 5, 6]), Some(0));
        let r = nim.report(5, true);
        assert_eq!(r.values, Some(vec![0, 1, 2, 3, 4, 5]));
    }

    #[test]
    fn unproved_reports_what_is_known() {
        // Search too short for Kayles' proof (it needs 168 values).
        let s = GrundySequence::compute(
            &HeapGame::parse("0.77").unwrap(),
            SearchOptions {
                up_to: 100,
                search: 100,
                ..SearchOptions::default()
            },
        );
        assert!(s.periodicity().is_none());
        assert_eq!(s.get(101), None);
        let r = s.report(500, false);
        assert!(!r.proved);
        assert_eq!(r.known_through, 100);
    }

    #[test]
    fn the_work_budget_stops_a_runaway_game() {
        // 0.8 (split into three, taking one) has values growing like n / 3.
        let s = GrundySequence::compute(
            &HeapGame::parse("0.8").unwrap(),
            SearchOptions {
                up_to: 10,
                search: 1_000_000,
                max_work: 1_000_000,
            },
        );
        assert!(s.out_of_budget());
        assert!(s.periodicity().is_none());
        assert!(s.computed().len() < 10_000);
        assert_eq!(s.get(9), Some(2));
    }

    #[test]
    fn an_all_but_game_keeps_to_the_budget_and_the_value_cap() {
        // all-but values are cheap, so a huge request once ran until an
        // allocation of hundreds of gigabytes aborted the process
        let game = HeapGame::parse("allbut:1").unwrap();
        let s = GrundySequence::compute(
            &game,
            SearchOptions {
                up_to: usize::MAX,
                search: 10,
                max_work: 1_000_000,
            },
        );
        assert!(s.out_of_budget());
        assert!(s.computed().len() > 1000 && s.computed().len() < 1_000_000);
        assert_eq!(
            s.report(usize::MAX, false).known_through,
            s.computed().len() - 1
        );
        let s = GrundySequence::compute(
            &game,
            SearchOptions {
                up_to: usize::MAX,
                search: usize::MAX,
                max_work: u64::MAX,
            },
        );
        assert!(!s.out_of_budget());
        assert_eq!(s.computed().len(), MAX_VALUES);
        // a proved period answers any heap, but a listing stops at the cap
        let kayles =
            GrundySequence::compute(&HeapGame::parse("0.77").unwrap(), SearchOptions::default());
        assert_eq!(kayles.report(usize::MAX, false).known_through, usize::MAX);
        assert_eq!(
            kayles.report(MAX_VALUES + 5, true).values.map(|v| v.len()),
            Some(MAX_VALUES)
        );
    }
}
