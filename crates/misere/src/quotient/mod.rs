//! Misère quotients of heap games (Plambeck and Siegel, "Misère quotients
//! for impartial games", JCTA 2008), computed heap by heap as their
//! MisereSolver does.
//!
//! Let `A_n` be every sum of heaps of at most `n` tokens. Two sums are
//! indistinguishable when adding any sum of `A_n` gives both the same
//! misère outcome; the classes form a finite commutative monoid `Q_n`
//! (when the game allows), the *misère quotient*, with its *P-portion* (the
//! classes of P-positions) and the map `phi` from heaps to elements. A sum's
//! outcome is then read off at once: multiply its heaps' elements and ask
//! whether the product lies in the P-portion.
//!
//! Heap `n` is added to `Q_{n-1}`:
//!
//! * **Conservative extension.** If heap `n` behaves like an element `x`
//!   already present, `Q_n = Q_{n-1}` with `phi(n) = x`; each candidate `x`
//!   is tried by the exact check of [`trial`].
//! * **Expansion.** Otherwise heap `n` becomes a new generator: the trial
//!   `Q_{n-1} × C(2, 2)` is checked; when some word comes out wrong the
//!   heaps in it are freed (given cyclic components of their own, the rest
//!   regenerated from the trial), the trial is re-marked and reduced, and
//!   the check runs again, until a trial is consistent (exact) or the
//!   budget runs out (which is said, never guessed past).
//!
//! Whatever heuristics choose the trials, an answer is only given by a
//! trial that passed the exact check, reduced.
//!
//! **Periodicity.** For an octal game whose moves remove at most `k`
//! tokens, if the computed `phi` satisfies `phi(m + p) = phi(m)` for
//! `n0 <= m` through heap `N >= 2 (n0 + p) + k - 1` (three-heap games:
//! `3 (n0 + p) + k - 1`), then every later heap's options have the same
//! images as the heap `p` below it, so it is indistinguishable from that
//! heap, the quotient never changes again and `phi` is periodic forever.
//! (A heap whose option images equal another's is equivalent to it in any
//! closed set that contains both: by induction on the rest of the sum.)

mod presentation;
pub(crate) mod trial;

use serde::Serialize;

use partizan_impartial::HeapGame;
use rustc_hash::FxHashMap;

use crate::{MisereError, Outcome};
pub use presentation::Presentation;
use trial::{reduce, walk, Elem, Failure, HeapMoves, Trial};

/// An explicit finite commutative monoid: elements `0..len`, `0` the
/// identity, products in a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    n: usize,
    mul: Vec<u32>,
}

impl Table {
    /// The trivial monoid `{1}`.
    #[must_use]
    pub fn trivial() -> Self {
        Self { n: 1, mul: vec![0] }
    }

    pub(crate) fn from_products(n: usize, mul: Vec<u32>) -> Self {
        Self { n, mul }
    }

    /// The number of elements.
    #[must_use]
    pub fn len(&self) -> usize {
        self.n
    }

    /// Always false: a monoid has its identity.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The product of two elements.
    #[must_use]
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        self.mul[a as usize * self.n + b as usize]
    }

    /// The index and period of `x`: the least `i` and `p > 0` with
    /// `x^i = x^(i+p)`.
    #[must_use]
    pub fn index_period(&self, x: u32) -> (u32, u32) {
        let mut seen: Vec<u32> = vec![0];
        let mut y = 0;
        loop {
            y = self.mul(y, x);
            if let Some(i) = seen.iter().position(|&z| z == y) {
                return (i as u32, (seen.len() - i) as u32);
            }
            seen.push(y);
        }
    }
}

/// How far to compute and how much work to allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuotientOptions {
    /// The largest heap to include.
    pub up_to: usize,
    /// Stop at the first heap where the quotient is proved periodic.
    pub stop_when_periodic: bool,
    /// Most states one check may walk.
    pub max_states: usize,
    /// Most work (states extended, summed over every check) overall.
    pub max_work: u64,
}

/// The default work budget: about a minute's worth on one core.
pub const DEFAULT_MAX_WORK: u64 = 2_000_000_000;

impl Default for QuotientOptions {
    fn default() -> Self {
        Self {
            up_to: 100,
            stop_when_periodic: true,
            max_states: 2_000_000,
            max_work: DEFAULT_MAX_WORK,
        }
    }
}

/// Whether the quotient is known for every heap, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Stability {
    /// `phi(m + period) = phi(m)` for every `m >= from`, proved from the
    /// heaps through `checked_to`: the quotient is that of the whole game.
    Periodic {
        /// Where the period starts.
        from: usize,
        /// The period of `phi`.
        period: usize,
        /// The heap the proof needed the computation to reach.
        checked_to: usize,
    },
    /// Computed through the asked heap; not (yet) proved periodic.
    Partial,
    /// The budget ran out at this heap; the quotient shown is exact through
    /// the heap before.
    OutOfBudget {
        /// The heap whose addition did not finish.
        heap: usize,
        /// What ran out.
        reason: String,
    },
}

/// The misère quotient of a heap game through some heap.
#[derive(Debug, Clone)]
pub struct MisereQuotient {
    game: HeapGame,
    table: Table,
    p: Vec<bool>,
    phi: Vec<u32>,
    expansions: Vec<usize>,
    stability: Stability,
    work: u64,
    checks: usize,
    states: u64,
}

impl MisereQuotient {
    /// Compute the quotient of `game` heap by heap through `opts.up_to` (or
    /// until periodicity is proved, or the budget runs out: see
    /// [`Self::stability`]).
    pub fn compute(game: &HeapGame, opts: QuotientOptions) -> Result<Self, MisereError> {
        let mut search = Search::new(game, opts);
        let mut stability = Stability::Partial;
        for n in 1..=opts.up_to {
            if let Err(reason) = search.add_heap(n) {
                stability = Stability::OutOfBudget { heap: n, reason };
                break;
            }
            if let Some(periodic) = search.periodicity() {
                stability = periodic;
                if opts.stop_when_periodic {
                    break;
                }
            }
        }
        Ok(Self {
            game: game.clone(),
            table: search.table,
            p: search.p,
            phi: search.phi,
            expansions: search.expansions,
            stability,
            work: search.work,
            checks: search.checks,
            states: search.states,
        })
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> &HeapGame {
        &self.game
    }

    /// The monoid.
    #[must_use]
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// `|Q|`, the order of the quotient.
    #[must_use]
    pub fn order(&self) -> usize {
        self.table.len()
    }

    /// Whether an element is in the P-portion.
    #[must_use]
    pub fn is_p(&self, x: u32) -> bool {
        self.p[x as usize]
    }

    /// The size of the P-portion.
    #[must_use]
    pub fn p_portion_size(&self) -> usize {
        self.p.iter().filter(|&&p| p).count()
    }

    /// The largest heap computed exactly.
    #[must_use]
    pub fn computed_to(&self) -> usize {
        self.phi.len() - 1
    }

    /// The heaps where the quotient grew (new generators or a finer monoid).
    #[must_use]
    pub fn expansions(&self) -> &[usize] {
        &self.expansions
    }

    /// Whether the quotient is that of the whole game.
    #[must_use]
    pub fn stability(&self) -> &Stability {
        &self.stability
    }

    /// The work counter (elements and states extended, summed over every
    /// check), the number of checks run and the states they walked.
    #[must_use]
    pub fn work(&self) -> (u64, usize, u64) {
        (self.work, self.checks, self.states)
    }

    /// `phi(h)`, the element of heap `h`: computed, or read from the proved
    /// period.
    #[must_use]
    pub fn element_of_heap(&self, h: usize) -> Option<u32> {
        if h < self.phi.len() {
            return Some(self.phi[h]);
        }
        match self.stability {
            Stability::Periodic { from, period, .. } => Some(self.phi[from + (h - from) % period]),
            _ => None,
        }
    }

    /// The misère outcome of a sum of heaps, from the quotient (`None` for a
    /// heap past what is known).
    #[must_use]
    pub fn outcome(&self, heaps: &[usize]) -> Option<Outcome> {
        let mut x = 0;
        for &h in heaps {
            x = self.table.mul(x, self.element_of_heap(h)?);
        }
        Some(if self.p[x as usize] {
            Outcome::P
        } else {
            Outcome::N
        })
    }

    /// Generators, relations, normal forms and the P-portion in words.
    #[must_use]
    pub fn presentation(&self) -> Presentation {
        Presentation::of(&self.table, &self.p, &self.phi)
    }
}

/// The state of a heap-by-heap computation.
struct Search {
    game: HeapGame,
    opts: QuotientOptions,
    heaps: Vec<HeapMoves>,
    table: Table,
    p: Vec<bool>,
    phi: Vec<u32>,
    expansions: Vec<usize>,
    work: u64,
    checks: usize,
    states: u64,
}

impl Search {
    fn new(game: &HeapGame, opts: QuotientOptions) -> Self {
        Self {
            game: game.clone(),
            opts,
            heaps: vec![HeapMoves {
                heap: 0,
                options: Vec::new(),
            }],
            table: Table::trivial(),
            p: vec![false],
            phi: vec![0],
            expansions: Vec::new(),
            work: 0,
            checks: 0,
            states: 0,
        }
    }

    fn budget(&self) -> Result<(), String> {
        if self.work > self.opts.max_work {
            Err(format!("work budget of {} spent", self.opts.max_work))
        } else {
            Ok(())
        }
    }

    fn run(
        &mut self,
        trial: &Trial,
        known: &FxHashMap<Elem, bool>,
        stop_early: bool,
    ) -> Result<trial::Walk, String> {
        self.budget()?;
        self.checks += 1;
        walk(
            trial,
            &self.heaps,
            known,
            stop_early,
            self.opts.max_states,
            &mut self.work,
        )
        .inspect(|w| {
            self.states += w.states as u64;
        })
        .map_err(|e| e.to_string())
    }

    /// Add heap `n`; on `Err` the state is still the exact quotient through
    /// `n - 1`.
    fn add_heap(&mut self, n: usize) -> Result<(), String> {
        let mut options = Vec::new();
        self.game
            .heap_options(n, |parts| options.push(parts.to_vec()));
        let moves = HeapMoves { heap: n, options };
        if moves.options.is_empty() {
            // A heap without moves is the empty game.
            self.heaps.push(moves);
            self.phi.push(0);
            return Ok(());
        }
        let heap_is_p = moves.options.iter().all(|parts| {
            let x = parts.iter().fold(0, |x, &h| self.table.mul(x, self.phi[h]));
            !self.p[x as usize]
        });
        self.heaps.push(moves);
        let known: FxHashMap<Elem, bool> = (0..self.table.len())
            .map(|x| (x as Elem, self.p[x]))
            .collect();
        let old_phi: Vec<Elem> = self.phi.iter().map(|&x| Elem::from(x)).collect();
        for x in 0..self.table.len() as u32 {
            if self.p[x as usize] != heap_is_p {
                continue;
            }
            let mut phi = old_phi.clone();
            phi.push(Elem::from(x));
            let trial = Trial {
                base: self.table.clone(),
                cycles: Vec::new(),
                phi,
            };
            let w = self.run(&trial, &known, true).inspect_err(|_| {
                self.heaps.pop();
            })?;
            if w.failure.is_none() {
                self.phi.push(x);
                return Ok(());
            }
        }
        let result = self.expand(n);
        if result.is_err() {
            self.heaps.pop();
        }
        result
    }

    /// Heap `n` is no old element: find the new quotient.
    fn expand(&mut self, n: usize) -> Result<(), String> {
        let mut trial = Trial {
            base: self.table.clone(),
            cycles: vec![(2, 2)],
            phi: Vec::new(),
        };
        trial.phi = self.phi.iter().map(|&x| trial.pack(x, &[0])).collect();
        trial.phi.push(trial.pack(0, &[1]));
        let none = FxHashMap::default();
        let mut w = self.run(&trial, &none, false)?;
        let mut rounds = 0;
        while let Some(failure) = w.failure.take() {
            rounds += 1;
            if rounds > 200 {
                return Err(format!("no consistent trial after {rounds} recalibrations"));
            }
            let (next, next_walk) = self.recalibrate(&trial, &w, &failure)?;
            trial = next;
            w = next_walk;
        }
        let (table, p, phi) = reduce(&trial, &w.marks);
        self.table = table;
        self.p = p;
        self.phi = phi;
        self.expansions.push(n);
        Ok(())
    }

    /// A trial that gets `failure` right, with any new failure heavier:
    /// the heaps of the failing word are freed, fewest first.
    fn recalibrate(
        &mut self,
        trial: &Trial,
        w: &trial::Walk,
        failure: &Failure,
    ) -> Result<(Trial, trial::Walk), String> {
        let (base, _, rphi) = reduce(trial, &w.marks);
        let support: Vec<usize> = (0..failure.word.len())
            .filter(|&h| failure.word[h] > 0 && !self.heaps[h].options.is_empty())
            .collect();
        let none = FxHashMap::default();
        for size in 1..=support.len() {
            for subset in subsets(&support, size) {
                let mut cand = Trial {
                    base: base.clone(),
                    cycles: Vec::new(),
                    phi: Vec::new(),
                };
                for &h in &subset {
                    // The free component must be finer than the element it
                    // replaces (its index at least, its period a multiple),
                    // and keep the failing word's exponent apart.
                    let (index, period) = base.index_period(rphi[h]);
                    let index = index.max(failure.word[h].saturating_sub(1)).max(1);
                    let period = lcm(period, 2.max(2 * (index.saturating_sub(4) / 2)));
                    cand.cycles.push((index, period));
                }
                let zeros = vec![0; subset.len()];
                cand.phi = (0..rphi.len())
                    .map(|h| match subset.iter().position(|&s| s == h) {
                        Some(i) => {
                            let mut ks = zeros.clone();
                            ks[i] = 1;
                            cand.pack(0, &ks)
                        }
                        None => cand.pack(rphi[h], &zeros),
                    })
                    .collect();
                let cw = self.run(&cand, &none, false)?;
                let fixed = cw.marks.get(&cand.image(&failure.word)) == Some(&failure.should_be_p);
                if fixed {
                    return Ok((cand, cw));
                }
            }
        }
        Err(format!(
            "could not recalibrate at the word {:?} ({} tokens)",
            failure.word,
            trial::tokens(failure.weight)
        ))
    }

    /// The least period (then least start) that the periodicity argument
    /// proves from the heaps computed, for octal games.
    fn periodicity(&self) -> Option<Stability> {
        let code = self.game.code()?;
        let k = code.max_removal();
        let three = code.max_heaps() == 3;
        let last = self.phi.len() - 1;
        for period in 1..=last / 2 {
            // The least start for this period: scan down from the end.
            let mut from = last - period + 1;
            while from > 0 && self.phi[from - 1] == self.phi[from - 1 + period] {
                from -= 1;
            }
            // (a start before 1 is read as 1: heap 0 is the empty game)
            let from = from.max(1);
            let need = if three {
                3 * (from + period) + k
            } else {
                2 * (from + period) + k
            };
            if last + 1 >= need {
                return Some(Stability::Periodic {
                    from,
                    period,
                    checked_to: need.saturating_sub(1),
                });
            }
        }
        None
    }
}

fn lcm(a: u32, b: u32) -> u32 {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}

/// The subsets of `items` of the given size, in lexicographic order.
fn subsets(items: &[usize], size: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut pick = Vec::with_capacity(size);
    fn go(
        items: &[usize],
        size: usize,
        start: usize,
        pick: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if pick.len() == size {
            out.push(pick.clone());
            return;
        }
        for i in start..items.len() {
            pick.push(items[i]);
            go(items, size, i + 1, pick, out);
            pick.pop();
        }
    }
    go(items, size, 0, &mut pick, &mut out);
    out
}
