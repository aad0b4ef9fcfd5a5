//! The value atlas: every Domineering region up to 21 cells with its value,
//! computed bottom-up by size on every core, kept lean, persisted level by
//! level, and read back for reports and queries.
//!
//! # What is stored
//!
//! One entry per class of regions under all eight symmetries of the square
//! (a transpose swaps the players and negates the value, so a class stands
//! for one or two regions up to Domineering's four row-preserving
//! symmetries: the representative with value `v` and, when different, its
//! transpose with `-v`). An entry is the [`Shape`] (24 bytes) and the index
//! of its value (4 bytes). Values are interned: each distinct canonical form
//! is kept once, as its stable binary encoding ([`partizan_core::serial`])
//! with its facts (notation, kind, stops, temperature, the index of its
//! negative). No display string per region, no option lists: the options'
//! components are looked up in the table when a value is computed.
//!
//! # Both cores
//!
//! [`Arena`] is not `Sync`, so each worker thread has its own arena. The
//! table of smaller sizes is shared read-only; a worker decodes a value into
//! its arena the first time it needs it (from the interned encoding), and
//! hands back the encodings of the values it computed. The main thread then
//! interns them by encoding (byte equality is value equality), in shape
//! order, so value indices do not depend on which worker did what.
//!
//! # Levels
//!
//! A move removes two cells, so the values of size `n` need sizes up to
//! `n - 2` only. Each finished size is a [`Level`], handed to an
//! [`AtlasStore`]; a build resumes from the levels a store already holds
//! (see [`crate::atlas_store::DirStore`], a checksummed, versioned file per
//! level).
//!
//! ```text
//!   ..    the 2x2 square: one class, value ±1 (its own negative),
//!   ..    one region; a hot switch of temperature 1
//! ```

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use partizan_core::{Arena, DecodeError, Dyadic, GameId, ValueError};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::catalogue::{Catalogue, FREE_POLYOMINOES};
use crate::encoding_index::EncodingIndex;
use crate::shape::{split_mask, Group, Shape, ShapeMap, Sym};

/// Why an atlas could not be built, loaded or queried.
#[derive(Debug, Error)]
pub enum AtlasError {
    /// `max_cells` of 0 or above [`Shape::MAX_CELLS`].
    #[error("atlas sizes run from 1 to {max} cells, got {requested}")]
    MaxCells {
        /// What was asked for.
        requested: usize,
        /// [`Shape::MAX_CELLS`].
        max: usize,
    },
    /// A build setting past its limit ([`MAX_THREADS`], [`MAX_SHARDS`]).
    #[error("{0}")]
    Limit(String),
    /// A shard named as `K/N` with `K >= N` or `N == 0`.
    #[error("shard {index}/{count} does not exist (want 0 <= K < N)")]
    BadShard {
        /// `K`.
        index: usize,
        /// `N`.
        count: usize,
    },
    /// Arithmetic in an arena failed.
    #[error(transparent)]
    Value(#[from] ValueError),
    /// An interned encoding did not decode.
    #[error("value {index} does not decode: {source}")]
    Decode {
        /// The value index.
        index: u32,
        /// What the decoder said.
        source: DecodeError,
    },
    /// A component of an option was not in the table (sizes out of order).
    #[error("component {0} of an option is not in the table")]
    MissingComponent(String),
    /// A stored level failed its checks: the atlas refuses to believe it.
    #[error("{path}: {detail}")]
    Corrupt {
        /// The file.
        path: String,
        /// What was wrong.
        detail: String,
    },
    /// A level or summary file without a seal of the user's key, or not
    /// the file its seal names: written elsewhere, by an older partizan or
    /// by hand, so not believed ([`crate::DirStore::adopt`] checks one and
    /// seals it).
    #[error("{path} is not believed: {why}; {advice}")]
    Unsealed {
        /// The file.
        path: String,
        /// Why not.
        why: String,
        /// What to do: `partizan atlas seal`, or first a key file where
        /// this process has none (its seals would be refused too).
        advice: String,
    },
    /// Sealing was asked of a process whose key no later process shares
    /// (no key file could be kept): what it sealed would be refused.
    #[error("cannot seal: {0}")]
    NoKey(String),
    /// Reading or writing a level failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The levels of the store do not reach the size asked for.
    #[error("the atlas holds sizes up to {have} cells, {want} asked (build it first)")]
    NotBuilt {
        /// Largest size stored.
        have: usize,
        /// Size asked for.
        want: usize,
    },
    /// A level file is missing below one that is present (deleted or
    /// moved): the directory is not an atlas of the smaller size.
    #[error("{path} is missing, though the atlas has levels up to {top} cells: build the atlas again to {top} cells (or remove the levels above {missing})")]
    MissingLevel {
        /// The missing level file.
        path: String,
        /// Its size in cells.
        missing: usize,
        /// The largest level present.
        top: usize,
    },
    /// Shard files to merge disagree or are missing.
    #[error("shards do not merge: {0}")]
    Shards(String),
    /// A query's value notation did not parse.
    #[error("value {text:?}: {detail}")]
    Notation {
        /// The text given.
        text: String,
        /// What the parser said.
        detail: String,
    },
    /// An unknown `--kind`.
    #[error("unknown kind {0:?} (integer, fraction, number, nimber, up, down, tiny, miny, infinitesimal, number+infinitesimal, switch, hot)")]
    UnknownKind(String),
    /// JSON serialisation failed.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    /// The build was stopped by its caller ([`Atlas::build_until`]); what
    /// it finished is in the store and a rerun resumes from there.
    #[error(
        "stopped before the end; the levels and parts it finished are kept and a rerun resumes"
    )]
    Interrupted,
    /// The build spent its budget of parts ([`AtlasConfig::part_budget`]);
    /// what it finished is in the store and a rerun resumes from there.
    #[error("stopped after {parts} parts (budget); the store keeps them and a rerun resumes")]
    Stopped {
        /// Parts computed before stopping.
        parts: usize,
    },
}

/// What a value is, in the atlas's classification. Every short game falls in
/// exactly one: a number, an infinitesimal-ish game (equal stops), or a hot
/// game (left stop above right stop).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ValueKind {
    /// An integer (zero included).
    Integer,
    /// A non-integer number `p / 2^k`; `denominator = 2^k`.
    Fraction {
        /// `2^k`.
        denominator: u64,
    },
    /// A nimber `*n`, `n >= 1`.
    Nimber {
        /// `n`.
        n: u32,
    },
    /// `k.^ + *m` with `k != 0` (ups for `k > 0`, downs for `k < 0`).
    Ups {
        /// The up multiple `k`.
        multiple: i32,
        /// The nimber part `m`.
        nim: u32,
    },
    /// `{0 || 0 | -G}` with `G > 0`: a tiny.
    Tiny,
    /// `{G | 0 || 0}` with `G > 0`: a miny.
    Miny,
    /// Any other infinitesimal (both stops 0, not one of the above).
    Infinitesimal,
    /// A nonzero number plus an infinitesimal (equal nonzero stops, not a
    /// number).
    NumberPlusInfinitesimal,
    /// A hot switch `±G` (right options the negatives of the left ones).
    Switch,
    /// Any other hot game.
    Hot,
}

impl ValueKind {
    /// The kind names a query may give ([`ValueKind::matches`]).
    pub const NAMES: [&str; 13] = [
        "integer",
        "fraction",
        "number",
        "nimber",
        "up",
        "down",
        "tiny",
        "miny",
        "infinitesimal",
        "number+infinitesimal",
        "switch",
        "hot",
        "hot-not-switch",
    ];

    /// The coarse family, as `--kind` names it: `integer`, `fraction`,
    /// `nimber`, `up`, `down`, `tiny`, `miny`, `infinitesimal`,
    /// `number+infinitesimal`, `switch`, `hot`.
    #[must_use]
    pub fn family(self) -> &'static str {
        match self {
            ValueKind::Integer => "integer",
            ValueKind::Fraction { .. } => "fraction",
            ValueKind::Nimber { .. } => "nimber",
            ValueKind::Ups { multiple, .. } if multiple > 0 => "up",
            ValueKind::Ups { .. } => "down",
            ValueKind::Tiny => "tiny",
            ValueKind::Miny => "miny",
            ValueKind::Infinitesimal => "infinitesimal",
            ValueKind::NumberPlusInfinitesimal => "number+infinitesimal",
            ValueKind::Switch => "switch",
            ValueKind::Hot => "hot",
        }
    }

    /// A label with the detail: `fraction /4`, `nimber *3`, `ups 2 *`, ...
    #[must_use]
    pub fn label(self) -> String {
        match self {
            ValueKind::Fraction { denominator } => format!("fraction /{denominator}"),
            ValueKind::Nimber { n } => {
                if n == 1 {
                    "nimber *".into()
                } else {
                    format!("nimber *{n}")
                }
            }
            ValueKind::Ups { multiple, nim } => {
                let star = match nim {
                    0 => String::new(),
                    1 => " *".into(),
                    m => format!(" *{m}"),
                };
                let word = if multiple > 0 { "ups" } else { "downs" };
                format!("{word} {}{star}", multiple.unsigned_abs())
            }
            other => other.family().to_string(),
        }
    }

    /// Whether this is a number.
    #[must_use]
    pub fn is_number(self) -> bool {
        matches!(self, ValueKind::Integer | ValueKind::Fraction { .. })
    }

    /// Whether a `--kind` name selects this kind (`number` selects both
    /// integers and fractions, `hot` both switches and other hot games).
    pub fn matches(self, name: &str) -> Result<bool, AtlasError> {
        let name = name.trim().to_ascii_lowercase();
        if !Self::NAMES.contains(&name.as_str()) {
            return Err(AtlasError::UnknownKind(name));
        }
        Ok(match name.as_str() {
            "number" => self.is_number(),
            "hot" => matches!(self, ValueKind::Switch | ValueKind::Hot),
            "hot-not-switch" => self == ValueKind::Hot,
            n => self.family() == n,
        })
    }
}

/// Classify a canonical form.
pub fn classify(arena: &mut Arena, g: GameId) -> ValueKind {
    if let Some(x) = arena.as_number(g) {
        return if x.exp() == 0 {
            ValueKind::Integer
        } else {
            ValueKind::Fraction {
                denominator: 1u64 << x.exp(),
            }
        };
    }
    if let Some(n) = arena.as_nus(g) {
        if n.number == Dyadic::ZERO {
            if n.ups == 0 {
                return ValueKind::Nimber { n: n.nimber };
            }
            return ValueKind::Ups {
                multiple: n.ups,
                nim: n.nimber,
            };
        }
        return ValueKind::NumberPlusInfinitesimal;
    }
    let (ls, rs) = (arena.left_stop(g), arena.right_stop(g));
    if ls > rs {
        return if arena.is_switch(g) {
            ValueKind::Switch
        } else {
            ValueKind::Hot
        };
    }
    if ls != Dyadic::ZERO {
        return ValueKind::NumberPlusInfinitesimal;
    }
    if is_tiny(arena, g) {
        return ValueKind::Tiny;
    }
    let n = arena.neg(g);
    if is_tiny(arena, n) {
        return ValueKind::Miny;
    }
    ValueKind::Infinitesimal
}

/// `{0 || 0 | -G}` with `G > 0`, in canonical form.
fn is_tiny(arena: &mut Arena, g: GameId) -> bool {
    let zero = arena.zero();
    let (l, r) = (arena.left_options(g), arena.right_options(g));
    if l != [zero] || r.len() != 1 {
        return false;
    }
    let h = r[0];
    let (hl, hr) = (arena.left_options(h), arena.right_options(h));
    if hl != [zero] || hr.len() != 1 {
        return false;
    }
    let k = hr[0];
    arena.lt(k, zero)
}

/// The facts kept with an interned value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueFacts {
    /// CGSuite notation.
    pub display: String,
    /// The classification.
    pub kind: ValueKind,
    /// Left stop.
    pub left_stop: Dyadic,
    /// Right stop.
    pub right_stop: Dyadic,
    /// Temperature (negative for numbers, 0 for infinitesimals).
    pub temperature: Dyadic,
    /// Index of the negative of this value.
    pub neg: u32,
}

/// One interned value: its stable encoding and its facts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredValue {
    /// [`partizan_core::serial`] encoding.
    pub encoding: Box<[u8]>,
    /// Facts derived from it.
    pub facts: ValueFacts,
}

/// One finished size: the values it introduced and its entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// The size (cells).
    pub cells: usize,
    /// Number of values interned before this level.
    pub value_base: u32,
    /// The values this level introduced (indices `value_base..`).
    pub values: Vec<StoredValue>,
    /// Square-group classes of this size, sorted, with value indices.
    pub entries: Vec<(Shape, u32)>,
}

/// Somewhere finished levels are kept, so a build can stop and resume and a
/// query can read them. [`crate::atlas_store::DirStore`] keeps files; a
/// database can implement the same two calls.
pub trait AtlasStore {
    /// The stored level of `cells` cells whose values start at
    /// `value_base`, or `None` if the store does not have it. A stored level
    /// that fails its checks is an error, never `None`.
    fn load_level(&mut self, cells: usize, value_base: u32) -> Result<Option<Level>, AtlasError>;

    /// Whether the store holds the level of `cells` cells (a cheap look,
    /// nothing read or checked). A store that answers `false` always has
    /// every level grown and checked against the catalogue on loading.
    fn has_level(&mut self, _cells: usize) -> bool {
        false
    }

    /// The stored level of `cells` cells without holding its entries: each
    /// is passed to `each` in order (an error from `each` ends the read
    /// with it), then its values are returned; `None` if not stored. A
    /// store checks what it reads as [`AtlasStore::load_level`] does (the
    /// value indices against the level's values included) and may have
    /// passed entries on before it finds the file corrupt: the caller keeps
    /// nothing from a read that fails. The values' notation may be left
    /// unprinted. By default the level is loaded whole and replayed.
    fn stream_level(
        &mut self,
        cells: usize,
        value_base: u32,
        each: &mut dyn FnMut(Shape, u32) -> Result<(), AtlasError>,
    ) -> Result<Option<Vec<StoredValue>>, AtlasError> {
        let Some(level) = self.load_level(cells, value_base)? else {
            return Ok(None);
        };
        for &(s, v) in &level.entries {
            each(s, v)?;
        }
        Ok(Some(level.values))
    }

    /// Keep a finished level (replacing any earlier copy).
    fn save_level(&mut self, level: &Level) -> Result<(), AtlasError>;

    /// Keep one slice (`index` of `count`) of a level, for a later merge.
    fn save_shard(&mut self, level: &Level, index: usize, count: usize) -> Result<(), AtlasError>;

    /// The stored part `index` of `count` of size `cells` (a contiguous run
    /// of its classes in catalogue order, see [`AtlasConfig::part_size`])
    /// whose values start at `value_base`, or `None`. A store that keeps no
    /// parts always answers `None`.
    fn load_part(
        &mut self,
        _cells: usize,
        _value_base: u32,
        _index: usize,
        _count: usize,
    ) -> Result<Option<Level>, AtlasError> {
        Ok(None)
    }

    /// Keep a finished part of a level (so a killed build resumes inside
    /// the level).
    fn save_part(&mut self, _part: &Level, _index: usize, _count: usize) -> Result<(), AtlasError> {
        Ok(())
    }

    /// Forget the parts of a size once its whole level is saved.
    fn remove_parts(&mut self, _cells: usize, _count: usize) -> Result<(), AtlasError> {
        Ok(())
    }

    /// The stored shard `index` of `count` of size `cells` whose values
    /// start at `value_base`, or `None` (a store that keeps no shards).
    fn load_shard(
        &mut self,
        _cells: usize,
        _value_base: u32,
        _index: usize,
        _count: usize,
    ) -> Result<Option<Level>, AtlasError> {
        Ok(None)
    }

    /// Merge the `count` stored shards of size `cells` into its level (and
    /// forget the shards); returns the classes and the new values. A store
    /// that keeps no shards cannot.
    fn merge_level(&mut self, cells: usize, count: usize) -> Result<(u64, u64), AtlasError> {
        Err(AtlasError::Shards(format!(
            "this store keeps no shards to merge ({cells} cells, {count} shards)"
        )))
    }

    /// The build is about to value `step` (called for computed work only,
    /// not for what the store already holds). Nothing by default.
    fn progress(&mut self, _step: BuildStep) {}

    /// The build's thread count (told once, before any level), which a
    /// store may use for its own work: [`crate::DirStore`] writes a level's
    /// summary and index side by side with two or more. Ignored by default.
    fn threads(&mut self, _threads: usize) {}
}

/// Where a build is: the piece of work about to be valued, handed to
/// [`AtlasStore::progress`] (the one channel a caller has into a build, so
/// a progress line can say "shard 7 of 40, part 2 of 9").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildStep {
    /// The size being valued.
    pub cells: usize,
    /// `Some((k, n))`: shard `k` (from 0) of `n` of that size.
    pub shard: Option<(usize, usize)>,
    /// Part `j` (from 0) of `m` of the shard or the level.
    pub part: (usize, usize),
}

impl std::fmt::Display for BuildStep {
    /// `level 18, shard 7 of 40, part 2 of 9` (counted from 1; no part
    /// when there is one).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "level {}", self.cells)?;
        if let Some((k, n)) = self.shard {
            write!(f, ", shard {} of {n}", k + 1)?;
        }
        if self.part.1 > 1 {
            write!(f, ", part {} of {}", self.part.0 + 1, self.part.1)?;
        }
        Ok(())
    }
}

/// A store that keeps nothing (a build from scratch, held in memory).
#[derive(Debug, Default, Clone, Copy)]
pub struct NoStore;

impl AtlasStore for NoStore {
    fn load_level(&mut self, _: usize, _: u32) -> Result<Option<Level>, AtlasError> {
        Ok(None)
    }
    fn save_level(&mut self, _: &Level) -> Result<(), AtlasError> {
        Ok(())
    }
    fn save_shard(&mut self, _: &Level, _: usize, _: usize) -> Result<(), AtlasError> {
        Ok(())
    }
}

/// How a build went, per size.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LevelStats {
    /// The size.
    pub cells: usize,
    /// Square-group classes valued (or loaded).
    pub classes: u64,
    /// Values first seen at this size.
    pub new_values: u64,
    /// Whether the level came from the store instead of being computed.
    pub loaded: bool,
    /// Wall seconds spent on the level (catalogue growth included).
    pub seconds: f64,
    /// Shapes valued by each worker thread.
    pub per_thread: Vec<u64>,
    /// How often a worker's arena was started afresh to bound memory.
    pub arena_resets: u64,
}

/// A built (or loaded) atlas.
#[derive(Clone, Debug)]
pub struct Atlas {
    values: Vec<StoredValue>,
    levels: Vec<Vec<(Shape, u32)>>,
    /// Build statistics per size (empty for an atlas only loaded).
    pub stats: Vec<LevelStats>,
}

/// A worker's arena and its view of the interned values.
struct Worker {
    arena: Arena,
    local: Vec<Option<GameId>>,
    new: HashMap<Box<[u8]>, u32>,
    /// Encodings first met in the chunk being valued (codes
    /// `new.len() - fresh.len()..`), handed to the interner with it.
    fresh: Vec<Box<[u8]>>,
    valued: u64,
    resets: u64,
    scratch: Scratch,
}

/// Forms a worker's arena may hold before it starts afresh (between chunks
/// of 512 shapes): about 0.5 GB a worker.
const ARENA_FORMS: usize = 1 << 21;

/// Classes per part of a level by default ([`AtlasConfig::part_size`]).
pub const PART_SIZE: usize = 1 << 20;

/// Reused buffers of one worker (nothing allocated per shape).
#[derive(Default)]
struct Scratch {
    left: Vec<GameId>,
    right: Vec<GameId>,
    parts: Vec<Shape>,
    ids: Vec<GameId>,
    /// Every option's components, canonical, and whether the symmetry
    /// that made each canonical swaps the axes (its value negated).
    comps: Vec<(Shape, bool)>,
    /// Where each option's components end in `comps`, and whether it is
    /// Left's (a vertical domino).
    ends: Vec<(usize, bool)>,
    /// The value index of each of `comps` (`None`: not in the table).
    found: Vec<Option<u32>>,
}

impl Worker {
    fn new() -> Worker {
        Worker {
            arena: Arena::new(),
            local: Vec::new(),
            new: HashMap::new(),
            fresh: Vec::new(),
            valued: 0,
            resets: 0,
            scratch: Scratch::default(),
        }
    }

    /// Start a fresh arena when this one holds more than [`ARENA_FORMS`]
    /// forms (sums and intermediate forms pile up; the values themselves
    /// are re-decoded on demand, and the codes handed back are encodings,
    /// not ids, so nothing already computed is lost).
    fn trim(&mut self) {
        if self.arena.len() > ARENA_FORMS {
            self.arena = Arena::new();
            self.local.clear();
            self.resets += 1;
        }
    }

    fn get(&mut self, values: &[StoredValue], idx: u32) -> Result<GameId, AtlasError> {
        let i = idx as usize;
        if i >= self.local.len() {
            self.local.resize(values.len().max(i + 1), None);
        }
        if let Some(g) = self.local[i] {
            return Ok(g);
        }
        let g = self
            .arena
            .decode(&values[i].encoding)
            .map_err(|source| AtlasError::Decode { index: idx, source })?;
        self.local[i] = Some(g);
        Ok(g)
    }

    /// Value a connected shape from its options; returns a worker-local code
    /// of its encoding.
    fn value(
        &mut self,
        table: &Table,
        values: &[StoredValue],
        shape: &Shape,
    ) -> Result<u32, AtlasError> {
        let mut sc = std::mem::take(&mut self.scratch);
        let r = self.value_with(table, values, shape, &mut sc);
        self.scratch = sc;
        r
    }

    fn value_with(
        &mut self,
        table: &Table,
        values: &[StoredValue],
        shape: &Shape,
        sc: &mut Scratch,
    ) -> Result<u32, AtlasError> {
        let Scratch {
            left,
            right,
            parts,
            ids,
            comps,
            ends,
            found,
        } = sc;
        let (w, h) = (shape.width(), shape.height());
        let cells = shape.bits();
        left.clear();
        right.clear();
        // Three passes: every option's components made canonical; then
        // all of them looked up in the table, one after another (past 17
        // cells the table is gigabytes and a look-up waits on memory, so
        // look-ups that depend on nothing else are left to overlap);
        // then the sums.
        comps.clear();
        ends.clear();
        for (slots, step, vertical) in [
            (shape.vertical_slots(), w, true),
            (shape.horizontal_slots(), 1, false),
        ] {
            let mut s = slots;
            while s != 0 {
                let i = s.trailing_zeros() as usize;
                s &= s - 1;
                let rest = cells & !(1u128 << i) & !(1u128 << (i + step));
                parts.clear();
                if rest != 0 {
                    split_mask(rest, w, h, |p| parts.push(p));
                }
                for p in parts.iter() {
                    let (canon, sym) = p.canonical_with(Group::Square);
                    comps.push((canon, sym.swaps_axes()));
                }
                ends.push((comps.len(), vertical));
            }
        }
        found.clear();
        found.extend(comps.iter().map(|(c, _)| table.get(c)));
        let mut start = 0;
        for &(end, vertical) in ends.iter() {
            ids.clear();
            for (&(canon, swapped), &idx) in comps[start..end].iter().zip(&found[start..end]) {
                let Some(idx) = idx else {
                    return Err(AtlasError::MissingComponent(canon.to_text()));
                };
                let g = self.get(values, idx)?;
                ids.push(if swapped { self.arena.neg(g) } else { g });
            }
            start = end;
            let g = match ids.len() {
                0 => self.arena.zero(),
                1 => ids[0],
                _ => self.arena.sum_all(ids)?,
            };
            if vertical {
                left.push(g);
            } else {
                right.push(g);
            }
        }
        left.sort_unstable();
        left.dedup();
        right.sort_unstable();
        right.dedup();
        let g = self.arena.construct(left, right)?;
        let enc: Box<[u8]> = self.arena.encode(g).into_boxed_slice();
        self.valued += 1;
        if let Some(&c) = self.new.get(&enc) {
            return Ok(c);
        }
        let c = self.new.len() as u32;
        self.new.insert(enc.clone(), c);
        self.fresh.push(enc);
        Ok(c)
    }
}

/// How to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AtlasConfig {
    /// Largest size (1 to [`Shape::MAX_CELLS`]).
    pub max_cells: usize,
    /// Worker threads for the values (at least 1).
    pub threads: usize,
    /// `Some((k, n))`: value only shard `k` of `n` of the top size: the
    /// classes grown from the `k`-th of `n` contiguous slices of the size
    /// below (every class has one parent, so the shards are disjoint and
    /// the top size is never grown whole), saved with
    /// [`AtlasStore::save_shard`] and combined by
    /// [`crate::DirStore::merge_shards`]. With every size below in the
    /// store (and `keep_entries` off), those sizes are streamed, not grown,
    /// and only the slice of the size below is held.
    pub shard: Option<(usize, usize)>,
    /// `Some(n)`: value the top size as `n` such shards one after another,
    /// each saved when done (those the store already holds are checked
    /// against the catalogue and skipped, so a killed build resumes), then
    /// merged into the level by [`AtlasStore::merge_level`] (a streaming
    /// merge; the shards are removed). No step holds the top level.
    pub shards: Option<usize>,
    /// A size of more classes than this is valued in contiguous parts of
    /// this many (catalogue order), each saved to the store when done, so a
    /// killed build loses at most one part. The level is the same whatever
    /// the part size.
    pub part_size: usize,
    /// Stop with [`AtlasError::Stopped`] after computing this many parts
    /// (of levels cut in parts): a budget, and the hook that tests a kill
    /// in the middle of a level.
    pub part_budget: Option<usize>,
    /// Keep every level's entries in the returned atlas. `false` keeps only
    /// the statistics (the store has the levels): the lean way to build a
    /// large atlas.
    pub keep_entries: bool,
}

impl AtlasConfig {
    /// `max_cells` on every core rayon sees, no shard.
    #[must_use]
    pub fn new(max_cells: usize) -> AtlasConfig {
        AtlasConfig {
            max_cells,
            threads: rayon::current_num_threads(),
            shard: None,
            shards: None,
            part_size: PART_SIZE,
            part_budget: None,
            keep_entries: true,
        }
    }
}

/// The most worker threads a build takes (each holds a worker's tables).
pub const MAX_THREADS: usize = 1024;
/// The most shards the top size is cut into in one build (each shard reads
/// every region one size smaller again; the 18-cell level took 40).
pub const MAX_SHARDS: usize = 4096;

/// Check an atlas size bound.
pub fn check_atlas_cells(max_cells: usize) -> Result<usize, AtlasError> {
    if max_cells == 0 || max_cells > Shape::MAX_CELLS {
        return Err(AtlasError::MaxCells {
            requested: max_cells,
            max: Shape::MAX_CELLS,
        });
    }
    Ok(max_cells)
}

/// The value index of every class the options of the size being valued
/// can hold: one map a size, each with room for its own classes (one map
/// for all sizes rounds their sum up to a power of two of buckets: 4.4 GB
/// for the 67 M classes to 17 cells that a 19-cell build looks up, where
/// a map a size takes 3.0 GB; to 18 cells, for 20, 17.7 against 11.8 GB).
#[derive(Default)]
struct Table(Vec<ShapeMap<u32>>);

impl Table {
    #[inline]
    fn get(&self, s: &Shape) -> Option<u32> {
        self.0.get(s.len())?.get(s).copied()
    }

    fn size(&mut self, cells: usize) -> &mut ShapeMap<u32> {
        if self.0.len() <= cells {
            self.0.resize_with(cells + 1, ShapeMap::default);
        }
        &mut self.0[cells]
    }

    /// Room for `n` more classes of `cells` cells.
    fn reserve(&mut self, cells: usize, n: usize) {
        self.size(cells).reserve(n);
    }

    fn insert(&mut self, s: Shape, v: u32) {
        self.size(s.len()).insert(s, v);
    }
}

/// The state of a build between levels.
struct Builder {
    table: Table,
    values: Vec<StoredValue>,
    /// Encoding → index of `values` (and, while a level is interned, of
    /// its fresh values), the encodings read from the values.
    index: EncodingIndex,
    master: Arena,
    levels: Vec<Vec<(Shape, u32)>>,
    /// The build's threads, for growth.
    pool: Option<rayon::ThreadPool>,
    /// Raised to stop the build between chunks ([`Atlas::build_until`]).
    stop: Arc<AtomicBool>,
    /// Print new values' notation (a shard task's file holds none, and
    /// its atlas is not queried: rows print a value without one).
    notation: bool,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            table: Table::default(),
            values: Vec::new(),
            index: EncodingIndex::default(),
            master: Arena::new(),
            levels: Vec::new(),
            pool: None,
            stop: Arc::default(),
            notation: true,
        }
    }

    /// The classes of `cells` cells grown from slice `k` of `n` of `prev`
    /// (the whole size for `(0, 1)`), on the build's pool; interrupted when
    /// the build's stop is raised during the growth.
    fn grow(
        &self,
        prev: &[Shape],
        cells: usize,
        shard: (usize, usize),
    ) -> Result<Vec<Shape>, AtlasError> {
        let stop: &AtomicBool = &self.stop;
        let f = || shard_shapes(prev, cells, shard, stop);
        match &self.pool {
            Some(p) => p.install(f),
            None => f(),
        }
        .ok_or(AtlasError::Interrupted)
    }

    /// Take a stored level: its values, and its entries into the table when
    /// `into_table` (a size is looked up only by sizes two larger).
    fn adopt(&mut self, level: Level, into_table: bool, keep: bool) -> Result<(), AtlasError> {
        if level.value_base as usize != self.values.len() {
            return Err(AtlasError::Corrupt {
                path: format!("level {}", level.cells),
                detail: format!(
                    "values start at {}, expected {}",
                    level.value_base,
                    self.values.len()
                ),
            });
        }
        self.adopt_values(level.values);
        let n = self.values.len() as u32;
        if into_table {
            self.table.reserve(level.cells, level.entries.len());
        }
        for &(s, v) in &level.entries {
            if v >= n {
                return Err(AtlasError::Corrupt {
                    path: format!("level {}", level.cells),
                    detail: format!("value index {v} of {s} out of range"),
                });
            }
            if into_table {
                self.table.insert(s, v);
            }
        }
        self.levels
            .push(if keep { level.entries } else { Vec::new() });
        Ok(())
    }

    /// Forget `values`, a shard's, once saved and taken off the end of the
    /// values (the next shard interns from the same base), and the forms
    /// they left in the master arena (interning decodes from encodings, so
    /// a fresh arena loses nothing; kept, it grows with every shard's
    /// values, the likely cause of an 18-cell run's RSS rising from 5.3 GB
    /// after one shard to 8.0 GB after eight).
    fn forget(&mut self, values: &[StoredValue]) {
        for v in values {
            self.index.remove(&v.encoding);
        }
        self.master = Arena::new();
    }

    fn adopt_values(&mut self, values: Vec<StoredValue>) {
        for v in values {
            let all = &self.values;
            self.index
                .find_or_file(&v.encoding, all.len() as u32, |i| &all[i as usize].encoding);
            self.values.push(v);
        }
    }

    /// Value `shapes` a part (`part_size` classes) at a time, each part
    /// announced to the store as `step` (with its part of the several, or
    /// `step`'s own when there is one), the workers' counts added to
    /// `valued` and `resets`. The workers' maps of the values they met
    /// start afresh at each part; the values are interned in shape order
    /// all the same, so nothing depends on the part size.
    fn value_in_parts<S: AtlasStore>(
        &mut self,
        workers: &mut [Worker],
        store: &mut S,
        shapes: &[Shape],
        part_size: usize,
        step: BuildStep,
        (valued, resets): (&mut [u64], &mut u64),
    ) -> Result<Vec<(Shape, u32)>, AtlasError> {
        let m = shapes.len().div_ceil(part_size).max(1);
        let mut entries = Vec::with_capacity(shapes.len());
        for j in 0..m {
            store.progress(BuildStep {
                part: if m > 1 { (j, m) } else { step.part },
                ..step
            });
            let piece =
                &shapes[(j * part_size).min(shapes.len())..((j + 1) * part_size).min(shapes.len())];
            entries.extend(self.value_and_intern(workers, piece)?);
            for (v, w) in valued.iter_mut().zip(workers.iter()) {
                *v += w.valued;
                *resets += w.resets;
            }
        }
        Ok(entries)
    }

    /// Value `shapes` on the workers and intern the results in shape order
    /// (indices independent of the schedule); the entries. The interning
    /// runs beside the valuing (see [`value_level`]).
    fn value_and_intern(
        &mut self,
        workers: &mut [Worker],
        shapes: &[Shape],
    ) -> Result<Vec<(Shape, u32)>, AtlasError> {
        let base = self.values.len() as u32;
        let interner = Interner {
            index: &mut self.index,
            below: &self.values,
            master: &mut self.master,
            base,
            fresh: Vec::new(),
            notation: self.notation,
        };
        let (entries, fresh) = value_level(
            workers,
            &self.table,
            &self.values,
            shapes,
            interner,
            &self.stop,
        )?;
        self.values.extend(fresh);
        Ok(entries)
    }
}

/// Interning a level's values: an encoding met for the first time (in
/// shape order) gets the next index from `base` on, with its facts, and
/// its negative the one after (unless known).
struct Interner<'a> {
    index: &'a mut EncodingIndex,
    /// The values interned before, `base` of them.
    below: &'a [StoredValue],
    master: &'a mut Arena,
    base: u32,
    fresh: Vec<StoredValue>,
    /// Print each new value's notation (a shard task's file holds none).
    notation: bool,
}

impl Interner<'_> {
    /// The index of `enc`, if interned.
    fn find(&self, enc: &[u8]) -> Option<u32> {
        let (below, base, fresh) = (self.below, self.base, &self.fresh);
        self.index.find(enc, |i| match i.checked_sub(base) {
            None => &below[i as usize].encoding,
            Some(k) => &fresh[k as usize].encoding,
        })
    }

    /// Intern an encoding (and its negative); returns its index.
    fn intern(&mut self, enc: Box<[u8]>) -> Result<u32, AtlasError> {
        if let Some(i) = self.find(&enc) {
            return Ok(i);
        }
        // the master arena only decodes new values for their facts and
        // negatives (everything kept is an encoding), so it starts afresh
        // past a worker's bound instead of holding every form of a shard's
        // million new values
        if self.master.len() > ARENA_FORMS {
            *self.master = Arena::new();
        }
        let i = self.base + self.fresh.len() as u32;
        let g = self
            .master
            .decode(&enc)
            .map_err(|source| AtlasError::Decode { index: i, source })?;
        let facts = facts_of(self.master, g, i, self.notation)?;
        self.index.file(&enc, i);
        self.fresh.push(StoredValue {
            encoding: enc,
            facts,
        });
        let n = self.master.neg(g);
        let neg_enc: Box<[u8]> = self.master.encode(n).into_boxed_slice();
        let j = match self.find(&neg_enc) {
            Some(j) => j,
            None => {
                let j = self.base + self.fresh.len() as u32;
                let mut facts = facts_of(self.master, n, j, self.notation)?;
                facts.neg = i;
                self.index.file(&neg_enc, j);
                self.fresh.push(StoredValue {
                    encoding: neg_enc,
                    facts,
                });
                j
            }
        };
        self.fresh[(i - self.base) as usize].facts.neg = j;
        Ok(i)
    }
}

/// A valued chunk on its way to the interner.
struct Chunk {
    worker: usize,
    /// Each shape's worker-local code.
    codes: Vec<u32>,
    /// The worker's encodings first met in this chunk, from code `first` on.
    first: u32,
    fresh: Vec<Box<[u8]>>,
}

/// The interner's side of a level: chunks interned in order.
struct InternState<'a> {
    interner: Interner<'a>,
    /// The next chunk to intern.
    next: usize,
    /// Per worker: its local codes' interned indices.
    remap: Vec<Vec<u32>>,
    entries: Vec<(Shape, u32)>,
    failed: Option<AtlasError>,
}

impl InternState<'_> {
    /// Intern `chunk`, the next in order, of `shapes`.
    fn take(&mut self, chunk: Chunk, shapes: &[Shape]) {
        let c = self.next;
        self.next += 1;
        if self.failed.is_some() {
            return;
        }
        let Chunk {
            worker,
            codes,
            first,
            mut fresh,
        } = chunk;
        let remap = &mut self.remap[worker];
        debug_assert_eq!(remap.len(), first as usize);
        remap.resize(first as usize + fresh.len(), u32::MAX);
        for (shape, code) in shapes[c * CHUNK..].iter().zip(codes) {
            let slot = &mut remap[code as usize];
            if *slot == u32::MAX {
                // met first here: its encoding came with this chunk (each
                // once: the slot is set below)
                let Some(enc) = code
                    .checked_sub(first)
                    .and_then(|k| fresh.get_mut(k as usize))
                    .map(std::mem::take)
                else {
                    self.failed = Some(AtlasError::Corrupt {
                        path: "atlas build".into(),
                        detail: format!("worker code {code} arrived without its value"),
                    });
                    return;
                };
                match self.interner.intern(enc) {
                    Ok(i) => *slot = i,
                    Err(e) => {
                        self.failed = Some(e);
                        return;
                    }
                }
            }
            self.entries.push((*shape, *slot));
        }
    }
}

/// Shapes a worker values between two looks at the shared counter.
const CHUNK: usize = 512;

/// A level's (or part's) entries and the values it added.
type Valued = (Vec<(Shape, u32)>, Vec<StoredValue>);

/// Value `shapes` (connected, square-canonical, one size) on the workers
/// and intern the values in shape order as the chunks come in: a worker
/// that finishes a chunk and finds the interner free interns every chunk
/// that is next in order, so the (serial) interning runs beside the other
/// workers' valuing instead of after it, on the same threads. Returns the
/// entries and the new values (indices from `interner.base` on).
fn value_level(
    workers: &mut [Worker],
    table: &Table,
    values: &[StoredValue],
    shapes: &[Shape],
    interner: Interner<'_>,
    stop: &AtomicBool,
) -> Result<Valued, AtlasError> {
    let chunks = shapes.len().div_ceil(CHUNK);
    let next = AtomicUsize::new(0);
    for w in workers.iter_mut() {
        w.new.clear();
        w.fresh.clear();
        w.valued = 0;
        w.resets = 0;
    }
    // One worker interns at the end (interleaved, its valuing and the
    // interning only evict each other's caches: 5% slower at 14 cells).
    let eager = workers.len() > 1;
    let ready: Mutex<BTreeMap<usize, Chunk>> = Mutex::new(BTreeMap::new());
    let state = Mutex::new(InternState {
        interner,
        next: 0,
        remap: vec![Vec::new(); workers.len()],
        entries: Vec::with_capacity(shapes.len()),
        failed: None,
    });
    // Intern every chunk that is next in order and has arrived.
    let drain = |st: &mut InternState<'_>| loop {
        let Some(chunk) = ready
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&st.next)
        else {
            return;
        };
        st.take(chunk, shapes);
    };
    let results: Vec<Result<(), AtlasError>> = std::thread::scope(|s| {
        let handles: Vec<_> = workers
            .iter_mut()
            .enumerate()
            .map(|(wi, w)| {
                let (next, ready, state, drain, eager) = (&next, &ready, &state, &drain, eager);
                s.spawn(move || loop {
                    if stop.load(Ordering::Relaxed) {
                        return Err(AtlasError::Interrupted);
                    }
                    let c = next.fetch_add(1, Ordering::Relaxed);
                    if c >= chunks {
                        return Ok(());
                    }
                    let piece = &shapes[c * CHUNK..((c + 1) * CHUNK).min(shapes.len())];
                    let mut codes = Vec::with_capacity(piece.len());
                    for shape in piece {
                        codes.push(w.value(table, values, shape)?);
                    }
                    let fresh = std::mem::take(&mut w.fresh);
                    let first = (w.new.len() - fresh.len()) as u32;
                    ready.lock().unwrap_or_else(PoisonError::into_inner).insert(
                        c,
                        Chunk {
                            worker: wi,
                            codes,
                            first,
                            fresh,
                        },
                    );
                    if eager {
                        if let Ok(mut st) = state.try_lock() {
                            drain(&mut st);
                        }
                    }
                    w.trim();
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    for r in results {
        r?;
    }
    let mut st = state.into_inner().unwrap_or_else(PoisonError::into_inner);
    drain(&mut st);
    if let Some(e) = st.failed {
        return Err(e);
    }
    if st.next != chunks {
        return Err(AtlasError::Corrupt {
            path: "atlas build".into(),
            detail: format!("interned {} of {chunks} chunks", st.next),
        });
    }
    Ok((st.entries, st.interner.fresh))
}

/// The classes of `cells` cells grown from slice `k` of `n` of `prev` (the
/// classes of `cells - 1`, sorted): shard `k` of the size. The slices'
/// children are disjoint (each class has one canonical parent) and together
/// the whole size; the one cell is shard 0's.
/// `None` when `stop` was raised during the growth.
fn shard_shapes(
    prev: &[Shape],
    cells: usize,
    (k, n): (usize, usize),
    stop: &AtomicBool,
) -> Option<Vec<Shape>> {
    if cells == 1 {
        return Some(if k == 0 {
            vec![Shape::from_cells([(0, 0)]).expect("one cell")]
        } else {
            Vec::new()
        });
    }
    let (lo, hi) = (prev.len() * k / n, prev.len() * (k + 1) / n);
    Catalogue::grow_from_until(&prev[lo..hi], Group::Square, stop)
}

/// Shapes checked together by [`CatalogueCheck`] (on the build's threads).
const CHECK_BATCH: usize = 1 << 16;

/// Believes a stored level's shapes to be the catalogue of their size
/// without growing it: every shape a region of `cells` cells (connected),
/// in canonical form under the square's symmetries, each larger than the
/// one before (so all distinct), and as many of them as there are classes
/// ([`FREE_POLYOMINOES`], OEIS A000105). Distinct classes as many as the
/// classes are all of them, in catalogue order: the same shapes that
/// growing the catalogue and comparing would accept, at a fraction of its
/// time and memory (what a shard task of 19 cells cannot afford: 192 M
/// shapes of 18 cells).
pub(crate) struct CatalogueCheck {
    cells: usize,
    seen: u64,
    last: Option<Shape>,
}

impl CatalogueCheck {
    pub(crate) fn new(cells: usize) -> CatalogueCheck {
        CatalogueCheck {
            cells,
            seen: 0,
            last: None,
        }
    }

    fn bad(&self, what: String) -> AtlasError {
        AtlasError::Corrupt {
            path: format!("level {}", self.cells),
            detail: format!("{what}: differs from the catalogue"),
        }
    }

    /// The next run of shapes, in file order (checked on `pool`).
    pub(crate) fn run(
        &mut self,
        shapes: &[Shape],
        pool: Option<&rayon::ThreadPool>,
    ) -> Result<(), AtlasError> {
        use rayon::prelude::*;
        let cells = self.cells;
        let wrong =
            |s: &Shape| s.len() != cells || !s.is_connected() || s.canonical(Group::Square) != *s;
        let find = || shapes.par_iter().find_first(|s| wrong(s)).copied();
        if let Some(s) = match pool {
            Some(p) => p.install(find),
            None => find(),
        } {
            return Err(self.bad(format!(
                "{s} is not a region of {cells} cells in canonical form"
            )));
        }
        let mut last = self.last;
        for s in shapes {
            if last.is_some_and(|l| l >= *s) {
                return Err(self.bad(format!("{s} out of order")));
            }
            last = Some(*s);
        }
        self.last = last;
        self.seen += shapes.len() as u64;
        Ok(())
    }

    /// After the last shape: the count.
    pub(crate) fn finish(&self) -> Result<(), AtlasError> {
        let want = FREE_POLYOMINOES[self.cells];
        if self.seen != want {
            return Err(self.bad(format!("{} classes, where there are {want}", self.seen)));
        }
        Ok(())
    }
}

impl Builder {
    /// A shard task's sizes below its top read from the store alone, the
    /// catalogue not grown: each size streamed once and its shapes checked
    /// by [`CatalogueCheck`]; sizes up to `max - 2` into the table (the
    /// top's options look them up), and of size `max - 1` only the parents
    /// of shard `k` of `n` kept, returned (the shard's classes grow from
    /// them: the same slice [`shard_shapes`] takes). So a shard of 19 cells
    /// holds neither the 192 M shapes of 18 cells nor the level's file or
    /// entries, only the table, the values and its slice. `Ok(None)` (and
    /// nothing read) when a size below is not stored: the build then grows
    /// and checks as usual.
    fn below_from_store<S: AtlasStore>(
        &mut self,
        store: &mut S,
        max: usize,
        (k, n): (usize, usize),
        stats: &mut Vec<LevelStats>,
    ) -> Result<Option<Vec<Shape>>, AtlasError> {
        if max < 2 || !(1..max).all(|c| store.has_level(c)) {
            return Ok(None);
        }
        // The table is filled on a thread of its own, so a size's inserts
        // (a wait on memory each) go on while the next size is read and
        // checked; it comes back whole, or with the error.
        let mut table = std::mem::take(&mut self.table);
        let (tx, rx) = std::sync::mpsc::sync_channel::<TableWork>(8);
        let read = std::thread::scope(|scope| {
            let inserter = scope.spawn(move || {
                for work in rx {
                    match work {
                        TableWork::Reserve(cells, n) => table.reserve(cells, n),
                        TableWork::Insert(shapes, vals) => {
                            for (s, v) in shapes.into_iter().zip(vals) {
                                table.insert(s, v);
                            }
                        }
                    }
                }
                table
            });
            let read = self.levels_below_from_store(store, max, (k, n), stats, &tx);
            drop(tx);
            self.table = inserter
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
            read
        })?;
        Ok(Some(read))
    }

    /// [`Builder::below_from_store`]'s sizes one after another, their
    /// shapes for the table sent to `table`.
    fn levels_below_from_store<S: AtlasStore>(
        &mut self,
        store: &mut S,
        max: usize,
        (k, n): (usize, usize),
        stats: &mut Vec<LevelStats>,
        table: &std::sync::mpsc::SyncSender<TableWork>,
    ) -> Result<Vec<Shape>, AtlasError> {
        let mut parents = Vec::new();
        for (cells, &total) in FREE_POLYOMINOES.iter().enumerate().take(max).skip(1) {
            let t0 = std::time::Instant::now();
            let base = self.values.len() as u32;
            let (lo, hi) = (
                total * k as u64 / n as u64,
                total * (k as u64 + 1) / n as u64,
            );
            let into_table = cells + 2 <= max;
            // the inserter stopped only by a panic, which its join raises
            let send = |work| table.send(work).map_err(|_| AtlasError::Interrupted);
            if into_table {
                // room first: a map growing by doubling holds its old
                // buckets beside the new
                send(TableWork::Reserve(cells, total as usize))?;
            }
            let mut top_value = 0u32;
            let mut at = 0u64;
            let (pool, stop) = (self.pool.as_ref(), &self.stop);
            // A pipeline: this thread decodes the file (and keeps the
            // parents), a second checks each batch of shapes against the
            // catalogue and hands it to the table's thread, so the three
            // overlap.
            let (tx, rx) = std::sync::mpsc::sync_channel::<(Vec<Shape>, Vec<u32>)>(4);
            let values = std::thread::scope(|scope| {
                let checker = scope.spawn(move || -> Result<(), AtlasError> {
                    let mut check = CatalogueCheck::new(cells);
                    for (shapes, vals) in rx {
                        check.run(&shapes, pool)?;
                        if !vals.is_empty() {
                            send(TableWork::Insert(shapes, vals))?;
                        }
                    }
                    check.finish()
                });
                let mut shapes: Vec<Shape> = Vec::with_capacity(CHECK_BATCH);
                let mut vals: Vec<u32> = Vec::new();
                let mut each = |s: Shape, v: u32| -> Result<(), AtlasError> {
                    shapes.push(s);
                    if into_table {
                        vals.push(v);
                    } else if (lo..hi).contains(&at) {
                        parents.push(s);
                    }
                    top_value = top_value.max(v);
                    at += 1;
                    if shapes.len() == CHECK_BATCH {
                        let full = (
                            std::mem::replace(&mut shapes, Vec::with_capacity(CHECK_BATCH)),
                            std::mem::take(&mut vals),
                        );
                        // a closed channel: the checker stopped, and says why
                        if tx.send(full).is_err() || stop.load(Ordering::Relaxed) {
                            return Err(AtlasError::Interrupted);
                        }
                    }
                    Ok(())
                };
                let streamed = store.stream_level(cells, base, &mut each);
                let last = (std::mem::take(&mut shapes), std::mem::take(&mut vals));
                if streamed.is_ok() {
                    // an error here is the checker's, reported below
                    let _ = tx.send(last);
                }
                drop(tx);
                let checked = checker
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e));
                match (streamed, checked) {
                    (Err(AtlasError::Interrupted), Err(e)) | (Ok(_), Err(e)) => Err(e),
                    (streamed, _) => streamed,
                }
            })?
            .ok_or_else(|| AtlasError::Corrupt {
                path: format!("level {cells}"),
                detail: "removed while the build read the levels".into(),
            })?;
            let new_values = values.len() as u64;
            if at > 0 && u64::from(top_value) >= u64::from(base) + new_values {
                return Err(AtlasError::Corrupt {
                    path: format!("level {cells}"),
                    detail: format!("value index {top_value} out of range"),
                });
            }
            self.adopt_values(values);
            self.levels.push(Vec::new());
            stats.push(LevelStats {
                cells,
                classes: total,
                new_values,
                loaded: true,
                seconds: t0.elapsed().as_secs_f64(),
                ..LevelStats::default()
            });
        }
        Ok(parents)
    }
}

/// Work for the thread that fills a shard task's table.
enum TableWork {
    /// Room for this many classes of this size.
    Reserve(usize, usize),
    /// Shapes and their value indices.
    Insert(Vec<Shape>, Vec<u32>),
}

impl Builder {
    /// The top size `cells` as `n` shards one after another
    /// ([`AtlasConfig::shards`]): each grown from its slice of `prev`,
    /// valued and saved (or, stored already, checked and skipped), then the
    /// store merges them. Never holds the level (unless `keep`).
    #[allow(clippy::too_many_arguments)]
    fn top_in_shards<S: AtlasStore>(
        &mut self,
        workers: &mut [Worker],
        store: &mut S,
        prev: &[Shape],
        (cells, n): (usize, usize),
        keep: bool,
        (budget, part_size): (Option<usize>, usize),
        parts_done: &mut usize,
    ) -> Result<LevelStats, AtlasError> {
        let base = self.values.len() as u32;
        let corrupt = |what: String| AtlasError::Corrupt {
            path: format!("level {cells}"),
            detail: format!("{what} differs from the catalogue"),
        };
        // a level merged already: checked slice by slice
        if let Some(level) = store.load_level(cells, base)? {
            let mut total = 0;
            for k in 0..n {
                let slice = self.grow(prev, cells, (k, n))?;
                total += slice.len();
                if slice
                    .iter()
                    .any(|s| level.entries.binary_search_by_key(s, |e| e.0).is_err())
                {
                    return Err(corrupt(format!("shard {k} of {n}")));
                }
            }
            if total != level.entries.len() {
                return Err(corrupt("the class count".into()));
            }
            let st = LevelStats {
                cells,
                classes: total as u64,
                new_values: level.values.len() as u64,
                loaded: true,
                ..LevelStats::default()
            };
            self.adopt(level, false, keep)?;
            return Ok(st);
        }
        let mut per_thread = vec![0u64; workers.len()];
        let mut resets = 0u64;
        for k in 0..n {
            let slice = self.grow(prev, cells, (k, n))?;
            if let Some(sh) = store.load_shard(cells, base, k, n)? {
                if sh.entries.len() != slice.len()
                    || sh.entries.iter().zip(&slice).any(|(e, s)| e.0 != *s)
                {
                    return Err(corrupt(format!("stored shard {k} of {n}")));
                }
                continue;
            }
            if budget.is_some_and(|p| *parts_done >= p) {
                return Err(AtlasError::Stopped { parts: *parts_done });
            }
            let step = BuildStep {
                cells,
                shard: Some((k, n)),
                part: (0, 1),
            };
            let entries = self.value_in_parts(
                workers,
                store,
                &slice,
                part_size,
                step,
                (&mut per_thread, &mut resets),
            )?;
            // the shard's values moved into it, not copied; forgotten
            // after (the next shard interns from the same base, as in its
            // own process)
            let shard = Level {
                cells,
                value_base: base,
                values: self.values.split_off(base as usize),
                entries,
            };
            store.save_shard(&shard, k, n)?;
            self.forget(&shard.values);
            for w in workers.iter_mut() {
                w.local.clear();
            }
            *parts_done += 1;
        }
        let (classes, new_values) = store.merge_level(cells, n)?;
        if keep {
            let level = store
                .load_level(cells, base)?
                .ok_or_else(|| AtlasError::Shards(format!("no level {cells} after the merge")))?;
            self.adopt(level, false, true)?;
        } else {
            self.levels.push(Vec::new());
        }
        Ok(LevelStats {
            cells,
            classes,
            new_values,
            loaded: false,
            seconds: 0.0,
            per_thread,
            arena_resets: resets,
        })
    }
}

/// The facts of `g` (its `neg` filled in by the caller).
pub(crate) fn facts_of(
    arena: &mut Arena,
    g: GameId,
    index: u32,
    notation: bool,
) -> Result<ValueFacts, AtlasError> {
    Ok(ValueFacts {
        display: if notation {
            arena.display(g)
        } else {
            String::new()
        },
        kind: classify(arena, g),
        left_stop: arena.left_stop(g),
        right_stop: arena.right_stop(g),
        temperature: arena.try_temperature(g)?,
        neg: index,
    })
}

impl Atlas {
    /// Build the atlas to `config.max_cells` cells, resuming from (and
    /// saving every finished level to) `store`.
    ///
    /// ```
    /// use partizan_census::atlas::{Atlas, AtlasConfig, NoStore};
    /// let atlas = Atlas::build(&AtlasConfig::new(8), &mut NoStore).unwrap();
    /// // the census's 1,042 regions to eight cells
    /// assert_eq!((1..=8).map(|n| atlas.regions_of_size(n)).sum::<u64>(), 1042);
    /// ```
    pub fn build<S: AtlasStore>(config: &AtlasConfig, store: &mut S) -> Result<Atlas, AtlasError> {
        Atlas::build_until(config, store, Arc::default())
    }

    /// [`Atlas::build`] that ends with [`AtlasError::Interrupted`] soon
    /// after `stop` is raised (between chunks of a few hundred regions),
    /// what it finished kept in the store (levels, parts, shards), so a
    /// rerun resumes: how a caller with a memory budget or a Ctrl-C
    /// handler stops a build without killing the process.
    pub fn build_until<S: AtlasStore>(
        config: &AtlasConfig,
        store: &mut S,
        stop: Arc<AtomicBool>,
    ) -> Result<Atlas, AtlasError> {
        let max = check_atlas_cells(config.max_cells)?;
        if let Some((k, n)) = config.shard {
            if n == 0 || k >= n || config.shards.is_some() {
                return Err(AtlasError::BadShard { index: k, count: n });
            }
        }
        if config.shards == Some(0) {
            return Err(AtlasError::BadShard { index: 0, count: 0 });
        }
        if let Some(n) = config.shards.filter(|&n| n > MAX_SHARDS) {
            return Err(AtlasError::Limit(format!(
                "{n} shards; at most {MAX_SHARDS} (each reads every region one size smaller)"
            )));
        }
        if config.threads > MAX_THREADS {
            return Err(AtlasError::Limit(format!(
                "{} threads; at most {MAX_THREADS}",
                config.threads
            )));
        }
        let threads = config.threads.max(1);
        store.threads(threads);
        let part_size = config.part_size.max(1);
        let keep = config.keep_entries;
        let mut parts_done = 0usize;
        let mut b = Builder::new();
        b.stop = stop;
        b.notation = config.shard.is_none();
        // growth runs on rayon: on `threads` of them, not every core (a
        // pool that cannot start leaves it on rayon's global pool)
        b.pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok();
        let mut workers: Vec<Worker> = (0..threads).map(|_| Worker::new()).collect();
        let mut stats = Vec::new();
        let mut prev: Vec<Shape> = Vec::new();
        // a shard task on a store that holds the sizes below reads them
        // without growing them, and keeps only its parents of size max - 1;
        // shards in turn read them the same way, keeping every parent
        let mut first = 1;
        let mut parents_only = false;
        let lean = config.shard.or(config.shards.map(|_| (0, 1)));
        if let (Some(slice), false) = (lean, keep) {
            if let Some(parents) = b.below_from_store(store, max, slice, &mut stats)? {
                prev = parents;
                first = max;
                parents_only = config.shard.is_some();
            }
        }
        for cells in first..=max {
            let t0 = std::time::Instant::now();
            if let (true, Some(n)) = (cells == max, config.shards) {
                let st = b.top_in_shards(
                    &mut workers,
                    store,
                    &prev,
                    (cells, n),
                    keep,
                    (config.part_budget, part_size),
                    &mut parts_done,
                )?;
                stats.push(LevelStats {
                    seconds: t0.elapsed().as_secs_f64(),
                    ..st
                });
                break;
            }
            let top_shard = if cells == max { config.shard } else { None };
            // grow this size's classes from the previous size (a shard:
            // from its slice of it)
            let slice = match top_shard {
                Some(shard) if !parents_only => shard,
                _ => (0, 1),
            };
            let shapes: Vec<Shape> = b.grow(&prev, cells, slice)?;
            drop(std::mem::take(&mut prev));
            // sizes up to max - 2 are looked up by larger ones
            let into_table = cells + 2 <= max;
            let base = b.values.len() as u32;
            if top_shard.is_none() {
                if let Some(level) = store.load_level(cells, base)? {
                    if level.entries.len() != shapes.len()
                        || level.entries.iter().zip(&shapes).any(|(e, s)| e.0 != *s)
                    {
                        return Err(AtlasError::Corrupt {
                            path: format!("level {cells}"),
                            detail: "stored shapes differ from the catalogue".into(),
                        });
                    }
                    let new_values = level.values.len() as u64;
                    b.adopt(level, into_table, keep)?;
                    stats.push(LevelStats {
                        cells,
                        classes: shapes.len() as u64,
                        new_values,
                        loaded: true,
                        seconds: t0.elapsed().as_secs_f64(),
                        per_thread: Vec::new(),
                        arena_resets: 0,
                    });
                    prev = shapes;
                    continue;
                }
            }
            let mine: &[Shape] = &shapes;
            let mut valued = vec![0u64; threads];
            let mut resets = 0u64;
            // contiguous parts, each saved as it finishes (one part when
            // the level is small or a shard)
            let count = if top_shard.is_some() {
                1
            } else {
                mine.len().div_ceil(part_size).max(1)
            };
            let mut entries: Vec<(Shape, u32)> = Vec::new();
            if count > 1 {
                entries.reserve(mine.len());
            }
            for k in 0..count {
                let range = k * part_size..((k + 1) * part_size).min(mine.len());
                let piece = if count == 1 { mine } else { &mine[range] };
                let part_base = b.values.len() as u32;
                if count > 1 {
                    if let Some(part) = store.load_part(cells, part_base, k, count)? {
                        if part.entries.len() != piece.len()
                            || part.entries.iter().zip(piece).any(|(e, s)| e.0 != *s)
                            || part
                                .entries
                                .iter()
                                .any(|e| e.1 as usize >= part_base as usize + part.values.len())
                        {
                            return Err(AtlasError::Corrupt {
                                path: format!("level {cells} part {k} of {count}"),
                                detail: "stored part differs from the catalogue".into(),
                            });
                        }
                        b.adopt_values(part.values);
                        entries.extend(part.entries);
                        continue;
                    }
                    if config.part_budget.is_some_and(|p| parts_done >= p) {
                        return Err(AtlasError::Stopped { parts: parts_done });
                    }
                }
                // (a shard, one part, may be valued in several)
                let step = BuildStep {
                    cells,
                    shard: top_shard,
                    part: (k, count),
                };
                let got = b.value_in_parts(
                    &mut workers,
                    store,
                    piece,
                    part_size,
                    step,
                    (&mut valued, &mut resets),
                )?;
                if count > 1 {
                    parts_done += 1;
                    store.save_part(
                        &Level {
                            cells,
                            value_base: part_base,
                            values: b.values[part_base as usize..].to_vec(),
                            entries: got.clone(),
                        },
                        k,
                        count,
                    )?;
                }
                if count == 1 {
                    entries = got;
                } else {
                    entries.extend(got);
                }
            }
            // the new values lent to the level while it is saved, then
            // taken back (a copy would hold them twice at the peak)
            let mut level = Level {
                cells,
                value_base: base,
                values: b.values.split_off(base as usize),
                entries,
            };
            let new_values = level.values.len() as u64;
            let saved = match top_shard {
                Some((k, n)) => store.save_shard(&level, k, n),
                None => store.save_level(&level),
            };
            b.values.append(&mut level.values);
            saved?;
            if count > 1 {
                store.remove_parts(cells, count)?;
            }
            if into_table {
                b.table.reserve(cells, level.entries.len());
                for &(s, v) in &level.entries {
                    b.table.insert(s, v);
                }
            }
            stats.push(LevelStats {
                cells,
                classes: level.entries.len() as u64,
                new_values,
                loaded: false,
                seconds: t0.elapsed().as_secs_f64(),
                per_thread: valued,
                arena_resets: resets,
            });
            b.levels.push(if keep { level.entries } else { Vec::new() });
            prev = shapes;
        }
        Ok(Atlas {
            values: b.values,
            levels: b.levels,
            stats,
        })
    }

    /// Read an atlas of `max_cells` cells from a store, without computing
    /// anything; fails with [`AtlasError::NotBuilt`] if a level is missing.
    pub fn load<S: AtlasStore>(store: &mut S, max_cells: usize) -> Result<Atlas, AtlasError> {
        let max = check_atlas_cells(max_cells)?;
        let mut values: Vec<StoredValue> = Vec::new();
        let mut levels = Vec::new();
        for cells in 1..=max {
            let Some(level) = store.load_level(cells, values.len() as u32)? else {
                return Err(AtlasError::NotBuilt {
                    have: cells - 1,
                    want: max,
                });
            };
            values.extend(level.values);
            let n = values.len() as u32;
            if let Some(bad) = level.entries.iter().find(|e| e.1 >= n) {
                return Err(AtlasError::Corrupt {
                    path: format!("level {cells}"),
                    detail: format!("value index {} out of range", bad.1),
                });
            }
            levels.push(level.entries);
        }
        if let Some(bad) = values.iter().find(|v| v.facts.neg as usize >= values.len()) {
            return Err(AtlasError::Corrupt {
                path: "values".into(),
                detail: format!("negative index {} out of range", bad.facts.neg),
            });
        }
        Ok(Atlas {
            values,
            levels,
            stats: Vec::new(),
        })
    }

    /// Largest size held.
    #[must_use]
    pub fn max_cells(&self) -> usize {
        self.levels.len()
    }

    /// The interned values.
    #[must_use]
    pub fn values(&self) -> &[StoredValue] {
        &self.values
    }

    /// The square-group classes of one size with their value indices.
    #[must_use]
    pub fn entries(&self, cells: usize) -> &[(Shape, u32)] {
        if cells == 0 || cells > self.levels.len() {
            return &[];
        }
        &self.levels[cells - 1]
    }

    /// The regions (row-preserving classes) of one class: the representative
    /// with its value index and, when different, its transpose with the
    /// negative's index.
    #[must_use]
    pub fn regions_of(&self, entry: &(Shape, u32)) -> ([(Shape, u32); 2], usize) {
        let (s, v) = *entry;
        class_regions(s, v, self.values[v as usize].facts.neg)
    }

    /// Regions (row-preserving classes, the census's count) of one size.
    #[must_use]
    pub fn regions_of_size(&self, cells: usize) -> u64 {
        self.entries(cells)
            .iter()
            .map(|e| self.regions_of(e).1 as u64)
            .sum()
    }

    /// Every region of `1..=max_cells` with its value index, in size order.
    pub fn regions(&self) -> impl Iterator<Item = (Shape, u32)> + '_ {
        self.levels.iter().flatten().flat_map(move |e| {
            let (r, n) = self.regions_of(e);
            r.into_iter().take(n)
        })
    }

    /// The atlas's report: kinds by size, the hottest regions, the largest
    /// nimber, first occurrences, the temperature question.
    #[must_use]
    pub fn report(&self, hottest: usize) -> AtlasReport {
        AtlasReport::tally(self, hottest)
    }

    /// The index of a value given in CGSuite notation, if any region has it
    /// (or its negative).
    pub fn find_value(&self, text: &str) -> Result<Option<u32>, AtlasError> {
        find_value_in(&self.values, text)
    }

    /// Regions matching a query, smallest first, at most `limit`, plus the
    /// total number of matches. (Over the whole atlas in memory; a
    /// [`crate::atlas_store::DirStore`] answers the same from its small
    /// summary files without loading the entries.)
    pub fn query(&self, q: &Query) -> Result<QueryAnswer, AtlasError> {
        let t0 = std::time::Instant::now();
        let max = q
            .max_cells
            .unwrap_or(self.max_cells())
            .min(self.max_cells());
        let ok = matching_values(&self.values, q)?;
        let mut hits = Vec::new();
        let mut total = 0u64;
        for cells in 1..=max {
            for e in self.entries(cells) {
                let n = self.values[e.1 as usize].facts.neg as usize;
                if !ok[e.1 as usize] && !ok[n] {
                    continue;
                }
                let (r, k) = self.regions_of(e);
                for &(s, v) in r.iter().take(k) {
                    if ok[v as usize] {
                        total += 1;
                        if hits.len() < q.limit {
                            hits.push(self.region_row(s, v));
                        }
                    }
                }
            }
        }
        Ok(QueryAnswer {
            total,
            regions: hits,
            seconds: t0.elapsed().as_secs_f64(),
            source: "levels",
            note: None,
        })
    }

    fn region_row(&self, s: Shape, v: u32) -> RegionRow {
        region_row(&self.values, s, v)
    }
}

/// The row of region `s` with value index `v`.
pub(crate) fn region_row(values: &[StoredValue], s: Shape, v: u32) -> RegionRow {
    let sv = &values[v as usize];
    let f = &sv.facts;
    RegionRow {
        cells: s.len(),
        board: s.to_text(),
        value: if f.display.is_empty() {
            // read by a reader, not printed yet: printed now
            let mut arena = Arena::new();
            match arena.decode(&sv.encoding) {
                Ok(g) => arena.display(g),
                Err(e) => format!("(value {v} does not decode: {e})"),
            }
        } else {
            f.display.clone()
        },
        kind: f.kind.label(),
        temperature: f.temperature.to_string(),
    }
}

/// The index of a value in notation among `values`, if interned.
pub(crate) fn find_value_in(values: &[StoredValue], text: &str) -> Result<Option<u32>, AtlasError> {
    let mut arena = Arena::new();
    let g = arena.parse(text).map_err(|e| AtlasError::Notation {
        text: text.into(),
        detail: e.to_string(),
    })?;
    let enc = arena.encode(g);
    Ok(values
        .iter()
        .position(|v| *v.encoding == *enc)
        .map(|i| i as u32))
}

/// A query's filters, parsed and checked once (a bad value, kind or
/// temperature is an error before anything is read): the one test of
/// whether a value is selected, shared by the scan, the summaries and the
/// index.
#[derive(Clone, Debug)]
pub(crate) struct ValueFilter {
    /// The encoding of the value asked for.
    pub(crate) encoding: Option<Vec<u8>>,
    kind: Option<String>,
    min_t: Option<Dyadic>,
}

impl ValueFilter {
    pub(crate) fn new(q: &Query) -> Result<ValueFilter, AtlasError> {
        let encoding = match &q.value {
            Some(text) => {
                let mut arena = Arena::new();
                let g = arena.parse(text).map_err(|e| AtlasError::Notation {
                    text: text.clone(),
                    detail: e.to_string(),
                })?;
                Some(arena.encode(g))
            }
            None => None,
        };
        if let Some(k) = &q.kind {
            ValueKind::Integer.matches(k)?;
        }
        let min_t = match &q.min_temperature {
            Some(t) => Some(t.parse::<Dyadic>().map_err(|e| AtlasError::Notation {
                text: t.clone(),
                detail: e.to_string(),
            })?),
            None => None,
        };
        Ok(ValueFilter {
            encoding,
            kind: q.kind.clone(),
            min_t,
        })
    }

    /// Whether a value of this kind and temperature passes the kind and
    /// temperature filters (the value filter is by index, elsewhere).
    pub(crate) fn accepts(&self, kind: ValueKind, temperature: Dyadic) -> bool {
        let by_kind = match &self.kind {
            Some(k) => kind.matches(k).unwrap_or(false),
            None => true,
        };
        by_kind && self.min_t.is_none_or(|t| temperature >= t)
    }
}

/// Which value indices a query selects.
pub(crate) fn matching_values(values: &[StoredValue], q: &Query) -> Result<Vec<bool>, AtlasError> {
    let f = ValueFilter::new(q)?;
    let value = f
        .encoding
        .as_ref()
        .map(|enc| values.iter().position(|v| *v.encoding == **enc));
    Ok(values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let by_value = match value {
                Some(Some(want)) => want == i,
                Some(None) => false,
                None => true,
            };
            by_value && f.accepts(v.facts.kind, v.facts.temperature)
        })
        .collect())
}

/// The regions of one square-group class: the representative with value
/// `v` and, when different, its transpose with `neg`.
pub(crate) fn class_regions(s: Shape, v: u32, neg: u32) -> ([(Shape, u32); 2], usize) {
    let a = s.canonical(Group::RowPreserving);
    let t = s.transform(Sym::Transpose).canonical(Group::RowPreserving);
    if a == t {
        ([(a, v), (a, v)], 1)
    } else {
        ([(a, v), (t, neg)], 2)
    }
}

/// A query of the atlas (`partizan atlas find`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Query {
    /// A value in CGSuite notation (`*2`, `^`, `{1|-1}`).
    pub value: Option<String>,
    /// Temperature at least this (a dyadic, `2`, `3/2`).
    pub min_temperature: Option<String>,
    /// A kind name ([`ValueKind::matches`]).
    pub kind: Option<String>,
    /// Sizes up to this (default: all).
    pub max_cells: Option<usize>,
    /// At most this many regions listed.
    pub limit: usize,
}

/// One region in a report or an answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RegionRow {
    /// Cells.
    pub cells: usize,
    /// Board text (rows of `.` and `#` joined by `|`).
    pub board: String,
    /// Value in CGSuite notation.
    pub value: String,
    /// Kind label.
    pub kind: String,
    /// Temperature.
    pub temperature: String,
}

/// The answer to a [`Query`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueryAnswer {
    /// Matching regions in all.
    pub total: u64,
    /// The first matches (smallest sizes first).
    pub regions: Vec<RegionRow>,
    /// Seconds the query took (after loading).
    pub seconds: f64,
    /// What answered: `index` (the level index files), `summaries` or
    /// `levels` (the loaded entries, scanned).
    pub source: &'static str,
    /// Why a faster source was not used (an index missing, stale or
    /// damaged), if one was passed over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Counts of value kinds among the regions of one size.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct KindTally {
    /// Regions (row-preserving classes).
    pub regions: u64,
    /// Square-group classes.
    pub classes: u64,
    /// Integers (zero included).
    pub integers: u64,
    /// Of which zero.
    pub zeros: u64,
    /// Fractions by denominator.
    pub fractions: BTreeMap<u64, u64>,
    /// Nimbers by `n`.
    pub nimbers: BTreeMap<u32, u64>,
    /// Ups (positive) and downs (negative) by multiple, nimber part ignored.
    pub ups: BTreeMap<i32, u64>,
    /// Tinies.
    pub tinies: u64,
    /// Minies.
    pub minies: u64,
    /// Other infinitesimals.
    pub other_infinitesimals: u64,
    /// Number plus infinitesimal.
    pub number_plus_infinitesimal: u64,
    /// Hot switches.
    pub switches: u64,
    /// Other hot games.
    pub other_hot: u64,
    /// Hot regions (switches included) by temperature, coolest first.
    pub hot_by_temperature: Vec<TemperatureCount>,
    /// The largest temperature at this size.
    pub max_temperature: String,
    /// Regions hotter than 2.
    pub hotter_than_two: u64,
}

/// Regions of one temperature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TemperatureCount {
    /// The temperature.
    pub temperature: String,
    /// Regions that hot.
    pub regions: u64,
}

/// Where a kind first appears.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FirstOccurrence {
    /// The kind label.
    pub kind: String,
    /// The first region with it (smallest size, then catalogue order).
    pub region: RegionRow,
}

/// The atlas's tables.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AtlasReport {
    /// Largest size.
    pub max_cells: usize,
    /// Distinct values interned (negatives included).
    pub distinct_values: u64,
    /// Per size.
    pub by_size: BTreeMap<usize, KindTally>,
    /// The hottest regions (one per class), hottest first.
    pub hottest: Vec<RegionRow>,
    /// The largest nimber and a first region with it.
    pub largest_nimber: Option<RegionRow>,
    /// First occurrence of each kind label, in order of appearance.
    pub first_occurrences: Vec<FirstOccurrence>,
    /// Per size: is some single region hotter than 2?
    pub hotter_than_two: BTreeMap<usize, bool>,
}

/// The report's tallies, fed a size at a time, each size's entries in
/// catalogue order: what [`Atlas::report`] runs over the atlas in memory and
/// [`crate::DirStore::report`] over the level files as they stream past
/// (at 19 cells the levels do not fit in memory; the values do).
pub(crate) struct ReportTally {
    hottest_n: usize,
    by_size: BTreeMap<usize, KindTally>,
    firsts: Vec<FirstOccurrence>,
    seen: std::collections::HashSet<String>,
    hot: Vec<(Dyadic, usize, Shape, u32)>,
    largest: Option<(u32, Shape, u32)>,
    /// The size being fed: its tally, hottest temperature and hot regions
    /// by temperature.
    t: KindTally,
    max_t: Option<Dyadic>,
    temps: BTreeMap<Dyadic, u64>,
}

impl ReportTally {
    pub(crate) fn new(hottest_n: usize) -> ReportTally {
        ReportTally {
            hottest_n,
            by_size: BTreeMap::new(),
            firsts: Vec::new(),
            seen: std::collections::HashSet::new(),
            hot: Vec::new(),
            largest: None,
            t: KindTally::default(),
            max_t: None,
            temps: BTreeMap::new(),
        }
    }

    /// The next entry (a square-group class) of size `cells`; `values`
    /// holds every value to that size.
    pub(crate) fn entry(&mut self, values: &[StoredValue], cells: usize, e: (Shape, u32)) {
        let two = Dyadic::from_int(2);
        let (rs, k) = class_regions(e.0, e.1, values[e.1 as usize].facts.neg);
        let f0 = &values[e.1 as usize].facts;
        self.hot.push((f0.temperature, cells, rs[0].0, e.1));
        if self.hot.len() > 4 * self.hottest_n.max(1) + 64 {
            self.hot.sort_by_key(|h| std::cmp::Reverse(h.0));
            self.hot.truncate(self.hottest_n);
        }
        let t = &mut self.t;
        for &(s, v) in rs.iter().take(k) {
            let f = &values[v as usize].facts;
            t.regions += 1;
            match f.kind {
                ValueKind::Integer => {
                    t.integers += 1;
                    if f.left_stop == Dyadic::ZERO {
                        t.zeros += 1;
                    }
                }
                ValueKind::Fraction { denominator } => {
                    *t.fractions.entry(denominator).or_default() += 1;
                }
                ValueKind::Nimber { n } => {
                    *t.nimbers.entry(n).or_default() += 1;
                    if self.largest.is_none_or(|l| n > l.0) {
                        self.largest = Some((n, s, v));
                    }
                }
                ValueKind::Ups { multiple, .. } => {
                    *t.ups.entry(multiple).or_default() += 1;
                }
                ValueKind::Tiny => t.tinies += 1,
                ValueKind::Miny => t.minies += 1,
                ValueKind::Infinitesimal => t.other_infinitesimals += 1,
                ValueKind::NumberPlusInfinitesimal => t.number_plus_infinitesimal += 1,
                ValueKind::Switch => t.switches += 1,
                ValueKind::Hot => t.other_hot += 1,
            }
            if matches!(f.kind, ValueKind::Switch | ValueKind::Hot) {
                *self.temps.entry(f.temperature).or_default() += 1;
                if f.temperature > two {
                    t.hotter_than_two += 1;
                }
            }
            if self.max_t.is_none_or(|m| f.temperature > m) {
                self.max_t = Some(f.temperature);
            }
            let label = f.kind.label();
            if !self.seen.contains(&label) {
                self.seen.insert(label.clone());
                self.firsts.push(FirstOccurrence {
                    kind: label,
                    region: region_row(values, s, v),
                });
            }
        }
    }

    /// Size `cells` is done: it had `classes` entries.
    pub(crate) fn end_size(&mut self, cells: usize, classes: u64) {
        let mut t = std::mem::take(&mut self.t);
        t.classes = classes;
        t.hot_by_temperature = std::mem::take(&mut self.temps)
            .into_iter()
            .map(|(k, v)| TemperatureCount {
                temperature: k.to_string(),
                regions: v,
            })
            .collect();
        t.max_temperature = self.max_t.take().map(|m| m.to_string()).unwrap_or_default();
        self.by_size.insert(cells, t);
    }

    /// The report of sizes `1..=max_cells`, every one fed and ended.
    pub(crate) fn finish(mut self, values: &[StoredValue], max_cells: usize) -> AtlasReport {
        let hot = &mut self.hot;
        hot.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        hot.truncate(self.hottest_n);
        let hotter_than_two = self
            .by_size
            .iter()
            .map(|(&c, t)| (c, t.hotter_than_two > 0))
            .collect();
        AtlasReport {
            max_cells,
            distinct_values: values.len() as u64,
            by_size: self.by_size,
            hottest: self
                .hot
                .iter()
                .map(|&(_, _, s, v)| region_row(values, s, v))
                .collect(),
            largest_nimber: self.largest.map(|(_, s, v)| region_row(values, s, v)),
            first_occurrences: self.firsts,
            hotter_than_two,
        }
    }
}

impl AtlasReport {
    fn tally(atlas: &Atlas, hottest_n: usize) -> AtlasReport {
        let mut tally = ReportTally::new(hottest_n);
        for cells in 1..=atlas.max_cells() {
            for &e in atlas.entries(cells) {
                tally.entry(&atlas.values, cells, e);
            }
            tally.end_size(cells, atlas.entries(cells).len() as u64);
        }
        tally.finish(&atlas.values, atlas.max_cells())
    }

    /// The report as pretty JSON.
    pub fn to_json(&self) -> Result<String, AtlasError> {
        Ok(serde_json::to_string_pretty(self)?)
    }

    /// One CSV row per (size, kind): `cells,family,detail,regions`.
    #[must_use]
    pub fn to_csv(&self) -> String {
        let mut out = String::from("cells,family,detail,regions\n");
        for (c, t) in &self.by_size {
            let mut row = |fam: &str, det: &str, n: u64| {
                if n > 0 {
                    out.push_str(&format!("{c},{fam},{det},{n}\n"));
                }
            };
            row("integer", "", t.integers);
            for (d, n) in &t.fractions {
                row("fraction", &format!("/{d}"), *n);
            }
            for (k, n) in &t.nimbers {
                row("nimber", &format!("*{k}"), *n);
            }
            for (k, n) in &t.ups {
                row(if *k > 0 { "up" } else { "down" }, &k.to_string(), *n);
            }
            row("tiny", "", t.tinies);
            row("miny", "", t.minies);
            row("infinitesimal", "", t.other_infinitesimals);
            row("number+infinitesimal", "", t.number_plus_infinitesimal);
            row("switch", "", t.switches);
            row("hot", "not a switch", t.other_hot);
            for tc in &t.hot_by_temperature {
                row("hot by temperature", &tc.temperature, tc.regions);
            }
        }
        out
    }

    /// The tables as text.
    #[must_use]
    pub fn render_text(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Domineering value atlas to {} cells: {} distinct values",
            self.max_cells, self.distinct_values
        );
        let _ = writeln!(
            s,
            "\ncells    regions  integers  fractions   nimbers  ups/downs  tiny/miny  other-inf  num+inf  switches  other-hot  max-temp  >2"
        );
        for (c, t) in &self.by_size {
            let fr: u64 = t.fractions.values().sum();
            let nim: u64 = t.nimbers.values().sum();
            let ups: u64 = t.ups.values().sum();
            let _ = writeln!(
                s,
                "{c:>5} {:>10} {:>9} {:>10} {:>9} {:>10} {:>10} {:>10} {:>8} {:>9} {:>10} {:>9} {:>3}",
                t.regions,
                t.integers,
                fr,
                nim,
                ups,
                t.tinies + t.minies,
                t.other_infinitesimals,
                t.number_plus_infinitesimal,
                t.switches,
                t.other_hot,
                t.max_temperature,
                t.hotter_than_two
            );
        }
        let _ = writeln!(s, "\nfractions by denominator, nimbers, ups by multiple:");
        for (c, t) in &self.by_size {
            let fr: Vec<String> = t
                .fractions
                .iter()
                .map(|(d, n)| format!("/{d}:{n}"))
                .collect();
            let nim: Vec<String> = t.nimbers.iter().map(|(k, n)| format!("*{k}:{n}")).collect();
            let ups: Vec<String> = t.ups.iter().map(|(k, n)| format!("{k}:{n}")).collect();
            let _ = writeln!(
                s,
                "{c:>5}  fractions [{}]  nimbers [{}]  ups [{}]",
                fr.join(" "),
                nim.join(" "),
                ups.join(" ")
            );
        }
        let _ = writeln!(s, "\nhot regions by temperature:");
        for (c, t) in &self.by_size {
            let h: Vec<String> = t
                .hot_by_temperature
                .iter()
                .map(|tc| format!("{}:{}", tc.temperature, tc.regions))
                .collect();
            let _ = writeln!(s, "{c:>5}  {}", h.join(" "));
        }
        let _ = writeln!(s, "\nhottest regions:");
        for r in &self.hottest {
            let _ = writeln!(
                s,
                "  t = {:<6} {:>2} cells  {:<24} {}",
                r.temperature, r.cells, r.board, r.value
            );
        }
        // pictures of the three hottest (Left plays vertically)
        for r in self.hottest.iter().take(3) {
            let _ = writeln!(s, "\n  {} = {} (t = {}):", r.board, r.value, r.temperature);
            for row in r.board.split('|') {
                let _ = writeln!(s, "    {row}");
            }
        }
        if let Some(r) = &self.largest_nimber {
            let _ = writeln!(
                s,
                "\nlargest nimber: {} ({} cells, {})",
                r.value, r.cells, r.board
            );
        }
        let _ = writeln!(s, "\nfirst occurrences:");
        for f in &self.first_occurrences {
            let _ = writeln!(
                s,
                "  {:<22} {:>2} cells  {:<24} {}",
                f.kind, f.region.cells, f.region.board, f.region.value
            );
        }
        let _ = writeln!(s, "\nis any single region hotter than 2?");
        for (c, &yes) in &self.hotter_than_two {
            let t = &self.by_size[c];
            let _ = writeln!(
                s,
                "  {c:>2} cells: {} (hottest {})",
                if yes { "yes" } else { "no" },
                t.max_temperature
            );
        }
        s
    }
}
