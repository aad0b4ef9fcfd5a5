//! Game values of regions, computed bottom-up by size.
//!
//! A move in Domineering or Cram removes two cells; what is left splits into
//! four-connected regions of fewer cells, each already in the table when
//! sizes are filled in order, and the option is the sum of their values. So
//! a region's value is one `construct` over option sums of table entries.
//!
//! The Domineering table is keyed by the canonical shape under all eight
//! symmetries: a transpose swaps the players and negates the value, so a
//! shape reached by an axis-swapping symmetry is looked up and negated. That
//! halves the canonical forms computed against a table keyed by the four
//! row-preserving symmetries.
//!
//! Values come into the census through [`ShapeValues`], so a different solver
//! can be plugged in.

use partizan_core::{Arena, GameId, ValueError};

use crate::shape::{split_mask, Group, Shape, ShapeMap};

/// A source of Domineering values for census shapes.
pub trait ShapeValues {
    /// What can go wrong computing a value.
    type Error: std::error::Error + Send + Sync + 'static;

    /// The value of the region `shape` (every cell free), interned in
    /// `arena`. The census asks in order of size, smallest first.
    fn value(&mut self, arena: &mut Arena, shape: &Shape) -> Result<GameId, Self::Error>;
}

/// Counters of what the bottom-up evaluator did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ValueStats {
    /// Shapes whose value was computed from options (table entries made).
    pub computed: u64,
    /// Requests answered from the table, top-level and component lookups.
    pub hits: u64,
    /// Component lookups that were not in the table yet and had to be
    /// computed on the spot: zero when shapes are asked for in size order.
    pub component_misses: u64,
    /// Options generated (moves, both players).
    pub options: u64,
}

/// Bottom-up Domineering evaluator over [`Shape`]s (the fast path).
///
/// ```text
///   ..    asked for "..|.." it removes each domino, looks up the
///   ..    remaining "..", sums, and constructs {-1 | 1} = ±1
/// ```
#[derive(Debug, Default)]
pub struct DomineeringValues {
    table: ShapeMap<GameId>,
    stats: ValueStats,
}

impl DomineeringValues {
    /// An empty table.
    #[must_use]
    pub fn new() -> DomineeringValues {
        DomineeringValues::default()
    }

    /// What the evaluator has done so far.
    #[must_use]
    pub fn stats(&self) -> ValueStats {
        self.stats
    }

    /// Number of table entries (square-group classes valued).
    #[must_use]
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether nothing has been valued yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Look up a region (any connected shape), computing it if absent.
    fn lookup(
        &mut self,
        arena: &mut Arena,
        shape: &Shape,
        top: bool,
    ) -> Result<GameId, ValueError> {
        let (canon, sym) = shape.canonical_with(Group::Square);
        let g = match self.table.get(&canon) {
            Some(&g) => {
                self.stats.hits += 1;
                g
            }
            None => {
                if !top {
                    self.stats.component_misses += 1;
                }
                let g = self.compute(arena, &canon)?;
                self.table.insert(canon, g);
                g
            }
        };
        Ok(if sym.swaps_axes() { arena.neg(g) } else { g })
    }

    /// Value of a region from its options.
    fn compute(&mut self, arena: &mut Arena, shape: &Shape) -> Result<GameId, ValueError> {
        self.stats.computed += 1;
        let (w, h) = (shape.width(), shape.height());
        let cells = shape.bits();
        let mut left = Vec::new();
        let mut right = Vec::new();
        let mut parts: Vec<Shape> = Vec::with_capacity(8);
        let mut ids: Vec<GameId> = Vec::with_capacity(8);
        for (slots, step, out) in [
            (shape.vertical_slots(), w, &mut left),
            (shape.horizontal_slots(), 1, &mut right),
        ] {
            let mut s = slots;
            while s != 0 {
                let i = s.trailing_zeros() as usize;
                s &= s - 1;
                self.stats.options += 1;
                let rest = cells & !(1u128 << i) & !(1u128 << (i + step));
                parts.clear();
                split_mask(rest, w, h, |p| parts.push(p));
                ids.clear();
                for p in &parts {
                    let g = self.lookup(arena, p, false)?;
                    ids.push(g);
                }
                let g = match ids.len() {
                    0 => arena.zero(),
                    1 => ids[0],
                    _ => arena.sum_all(&ids)?,
                };
                out.push(g);
            }
        }
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        arena.construct(&left, &right)
    }
}

impl ShapeValues for DomineeringValues {
    type Error = ValueError;

    fn value(&mut self, arena: &mut Arena, shape: &Shape) -> Result<GameId, ValueError> {
        // a disconnected shape is the sum of its parts
        let parts = shape.components();
        if parts.len() == 1 {
            return self.lookup(arena, shape, true);
        }
        let mut ids = Vec::with_capacity(parts.len());
        for p in &parts {
            ids.push(self.lookup(arena, p, true)?);
        }
        arena.sum_all(&ids)
    }
}

/// Bottom-up Cram evaluator: nim-values by mex over moves of the XOR of the
/// parts' nim-values, keyed by canonical shape under all eight symmetries.
#[derive(Debug, Default)]
pub struct CramValues {
    table: ShapeMap<u32>,
    stats: ValueStats,
}

impl CramValues {
    /// An empty table.
    #[must_use]
    pub fn new() -> CramValues {
        CramValues::default()
    }

    /// What the evaluator has done so far.
    #[must_use]
    pub fn stats(&self) -> ValueStats {
        self.stats
    }

    /// The nim-value of a shape (its components XORed).
    pub fn nim_value(&mut self, shape: &Shape) -> u32 {
        let mut x = 0;
        for p in shape.components() {
            x ^= self.lookup(&p, true);
        }
        x
    }

    fn lookup(&mut self, shape: &Shape, top: bool) -> u32 {
        let canon = shape.canonical(Group::Square);
        if let Some(&v) = self.table.get(&canon) {
            self.stats.hits += 1;
            return v;
        }
        if !top {
            self.stats.component_misses += 1;
        }
        let v = self.compute(&canon);
        self.table.insert(canon, v);
        v
    }

    fn compute(&mut self, shape: &Shape) -> u32 {
        self.stats.computed += 1;
        let (w, h) = (shape.width(), shape.height());
        let cells = shape.bits();
        // options of a region of n cells number fewer than 2n, so the mex is
        // below 2n <= 36 and a u128 of seen values suffices
        let mut seen = 0u128;
        let mut parts: Vec<Shape> = Vec::with_capacity(8);
        for (slots, step) in [(shape.vertical_slots(), w), (shape.horizontal_slots(), 1)] {
            let mut s = slots;
            while s != 0 {
                let i = s.trailing_zeros() as usize;
                s &= s - 1;
                self.stats.options += 1;
                let rest = cells & !(1u128 << i) & !(1u128 << (i + step));
                parts.clear();
                split_mask(rest, w, h, |p| parts.push(p));
                let mut x = 0u32;
                for p in &parts {
                    x ^= self.lookup(p, false);
                }
                if x < 128 {
                    seen |= 1 << x;
                }
            }
        }
        (!seen).trailing_zeros()
    }
}

impl ShapeValues for CramValues {
    type Error = ValueError;

    fn value(&mut self, arena: &mut Arena, shape: &Shape) -> Result<GameId, ValueError> {
        let n = self.nim_value(shape);
        Ok(arena.nimber(n))
    }
}
