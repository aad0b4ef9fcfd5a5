//! The atlas on disk: one checksummed, versioned file per finished size.
//!
//! ```text
//!   atlas/level-01.pzal ... level-15.pzal      finished sizes
//!   atlas/level-16.shard-0-of-2.pzal           one slice of a size (census --shard)
//! ```
//!
//! File layout (version 1, little-endian):
//!
//! ```text
//! magic     "PZATLAS1"                               8 bytes
//! version   u32 = 1
//! kind      u8: 0 level, 1 shard
//! cells     u32
//! shard     u32 index, u32 count (0, 1 for a level)
//! base      u32   values interned before this file
//! values    u32 n, then n x { u32 len, encoding, u32 len, notation,
//!                             kind (u8 tag, u64 a, i64 b), 3 x dyadic
//!                             (i64 num, u32 exp): left stop, right stop,
//!                             temperature, u32 negative's index }
//! entries   u64 n, then n x { u8 width, u8 height, u64 high, u64 low, u32 value }
//! checksum  u64 FNV-1a of every byte before it
//! ```
//!
//! Shard and part files (kind 1, version [`SHARD_VERSION`] = 2) are lean:
//! their new values are the canonical encodings alone (the facts are
//! derived again when the file is read, once per distinct value in a
//! merge), and the entries refer to values through a palette:
//!
//! ```text
//! (the same header, version 2, kind 1)
//! values    u32 n, then n x { varint len, encoding, u32 negative's index }
//! palette   u32 m, then m x u32: the value indices the entries use, the
//!           most used first
//! entries   u64 n, then n x { varint (palette position << 1 | new box),
//!                             if new box: u8 width, u8 height, varint mask
//!                             else: varint (mask - previous mask) }
//! checksum  u64 FNV-1a
//! ```
//!
//! (entries are sorted, so a mask is a small step from the one before; a
//! varint is LEB128). Version 1 spelled out every value's facts and took
//! 22 bytes an entry (an 18-cell shard of 10 M classes: 220 MB); three
//! shards of 13 or 14 cells are 4.4 times smaller in version 2 (see
//! `shard_sizes` in `tests/atlas.rs`). A version-1
//! shard or part (a build from before) is still read, by the version-1
//! entry reader.
//!
//! A file is written to a temporary name, synced and renamed, so a killed
//! build leaves either the whole level or none of it; a build resumes from
//! the levels present. Anything read is checked (magic, version, size,
//! checksum, lengths, indices) and a failure is an error naming the file:
//! a flipped bit never becomes a wrong value. [`AtlasStore`] is the trait a
//! database (the persistent value table) can implement later.
//!
//! Beside each level, `level-NN.summary.pzal` (same checks) holds the
//! level's new values and, per value, its entry counts and first
//! [`SUMMARY_LIST`] shapes: enough to answer most queries
//! ([`DirStore::query`]) without reading the entries; and
//! `level-NN.index.pzal` ([`crate::atlas_index`]) answers every query
//! reading only the pages it needs.
//!
//! Level and summary files are written in [`FORMAT_VERSION`] 2: the layout
//! above without the notation field (a value's notation is printed from its
//! encoding when the file is read), so the bytes of a level do not depend
//! on the printer of the build that wrote it. Version-1 files are read, the
//! notation they hold skipped.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use partizan_core::Dyadic;

use crate::atlas::{
    class_regions, facts_of, matching_values, region_row, Atlas, AtlasError, AtlasReport,
    AtlasStore, CatalogueCheck, Level, Query, QueryAnswer, ReportTally, StoredValue, ValueFacts,
    ValueFilter, ValueKind,
};
use crate::atlas_index::{
    level_tail, tail_of, write_index, IndexSet, LevelIndex, LevelTail, INDEX_BATCH,
};
use crate::shape::Shape;

mod adopt;
mod merge;
mod seal;

pub use adopt::Adopted;
pub use merge::{MergeStep, Merged, VERIFY_PER_SHARD};
use seal::{read_seal, seal_of, write_seal, Hashing, Sealed};

const MAGIC: &[u8; 8] = b"PZATLAS1";
const SUM_MAGIC: &[u8; 8] = b"PZATSUM1";
/// Entries listed per value in a summary file (a query listing more of one
/// value falls back to the full level files).
pub const SUMMARY_LIST: usize = 16;
/// The file format version of level and summary files this build writes:
/// version 2 keeps values as encodings and facts, without their printed
/// notation (printed when read), so a level's bytes do not depend on the
/// printer of the build that wrote it. Version 1 files (with the notation,
/// which is skipped and printed again) are still read.
pub const FORMAT_VERSION: u32 = 2;
/// The first format: values with their notation (level, summary and the
/// shard files of builds before [`SHARD_VERSION`]).
pub const OLD_VERSION: u32 = 1;
/// The interim format of builds of 2026-12-04: version 1's layout with the
/// version of the printer of its notations (a `u32`) after the version.
/// Read as version 1: the notation is skipped and printed again.
pub const NOTATION_VERSIONED: u32 = 3;
/// The format version of shard and part files this build writes (it reads
/// [`FORMAT_VERSION`] ones too).
pub const SHARD_VERSION: u32 = 2;

/// FNV-1a, 64 bits, fed in pieces (a file streamed in or out is summed
/// as it passes).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fnv(pub(crate) u64);

impl Fnv {
    pub(crate) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    pub(crate) fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// FNV-1a, 64 bits, of a whole buffer.
fn checksum(bytes: &[u8]) -> u64 {
    let mut h = Fnv::new();
    h.update(bytes);
    h.0
}

pub(crate) fn kind_code(k: ValueKind) -> (u8, u64, i64) {
    match k {
        ValueKind::Integer => (0, 0, 0),
        ValueKind::Fraction { denominator } => (1, denominator, 0),
        ValueKind::Nimber { n } => (2, u64::from(n), 0),
        ValueKind::Ups { multiple, nim } => (3, u64::from(nim), i64::from(multiple)),
        ValueKind::Tiny => (4, 0, 0),
        ValueKind::Miny => (5, 0, 0),
        ValueKind::Infinitesimal => (6, 0, 0),
        ValueKind::NumberPlusInfinitesimal => (7, 0, 0),
        ValueKind::Switch => (8, 0, 0),
        ValueKind::Hot => (9, 0, 0),
    }
}

pub(crate) fn kind_of(tag: u8, a: u64, b: i64) -> Option<ValueKind> {
    Some(match tag {
        0 => ValueKind::Integer,
        1 => ValueKind::Fraction { denominator: a },
        2 => ValueKind::Nimber {
            n: u32::try_from(a).ok()?,
        },
        3 => ValueKind::Ups {
            multiple: i32::try_from(b).ok()?,
            nim: u32::try_from(a).ok()?,
        },
        4 => ValueKind::Tiny,
        5 => ValueKind::Miny,
        6 => ValueKind::Infinitesimal,
        7 => ValueKind::NumberPlusInfinitesimal,
        8 => ValueKind::Switch,
        9 => ValueKind::Hot,
        _ => return None,
    })
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    put_u32(out, b.len() as u32);
    out.extend_from_slice(b);
}

fn put_dyadic(out: &mut Vec<u8>, d: Dyadic) {
    put_u64(out, d.num() as u64);
    put_u32(out, d.exp());
}

/// Everything of a level file before its entries: magic, header, values
/// and the entry count.
/// A level (`shard` `None`) is written in [`FORMAT_VERSION`], a shard in
/// this full layout in [`OLD_VERSION`] (what builds before lean shards
/// wrote; tests make such files).
fn level_head(
    out: &mut Vec<u8>,
    cells: usize,
    shard: Option<(usize, usize)>,
    value_base: u32,
    values: &[StoredValue],
    entries: u64,
) {
    let Ok(()) = level_head_to(out, cells, shard, value_base, values, entries);
}

/// [`level_head`] into any [`Sink`] (a file written as it goes).
fn level_head_to<S: Sink>(
    out: &mut S,
    cells: usize,
    shard: Option<(usize, usize)>,
    value_base: u32,
    values: &[StoredValue],
    entries: u64,
) -> Result<(), S::Error> {
    let version = if shard.is_some() {
        OLD_VERSION
    } else {
        FORMAT_VERSION
    };
    let b = out.buf();
    b.extend_from_slice(MAGIC);
    put_u32(b, version);
    b.push(u8::from(shard.is_some()));
    put_u32(b, cells as u32);
    let (k, n) = shard.unwrap_or((0, 1));
    put_u32(b, k as u32);
    put_u32(b, n as u32);
    put_u32(b, value_base);
    put_values(out, values, version == OLD_VERSION)?;
    put_u64(out.buf(), entries);
    Ok(())
}

/// Encode a level (or a shard of one) as file bytes.
#[must_use]
pub fn encode_level(level: &Level, shard: Option<(usize, usize)>) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + level.entries.len() * 22);
    level_head(
        &mut out,
        level.cells,
        shard,
        level.value_base,
        &level.values,
        level.entries.len() as u64,
    );
    for (s, v) in &level.entries {
        put_shape(&mut out, s);
        put_u32(&mut out, *v);
    }
    let sum = checksum(&out);
    put_u64(&mut out, sum);
    out
}

/// Encode a shard (or a part) of a level as file bytes in the compact
/// format ([`SHARD_VERSION`]): entries as palette positions and mask steps.
#[must_use]
pub fn encode_shard(level: &Level, shard: (usize, usize)) -> Vec<u8> {
    // the palette: the values used, most used first (ties by index)
    let mut uses: HashMap<u32, u64> = HashMap::new();
    for &(_, v) in &level.entries {
        *uses.entry(v).or_default() += 1;
    }
    let mut palette: Vec<(u32, u64)> = uses.into_iter().collect();
    palette.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let at: HashMap<u32, u32> = palette
        .iter()
        .enumerate()
        .map(|(i, &(v, _))| (v, i as u32))
        .collect();
    let mut out = Vec::with_capacity(64 + level.entries.len() * 5);
    out.extend_from_slice(MAGIC);
    put_u32(&mut out, SHARD_VERSION);
    out.push(1);
    put_u32(&mut out, level.cells as u32);
    put_u32(&mut out, shard.0 as u32);
    put_u32(&mut out, shard.1 as u32);
    put_u32(&mut out, level.value_base);
    put_u32(&mut out, level.values.len() as u32);
    for v in &level.values {
        put_varint(&mut out, v.encoding.len() as u128);
        out.extend_from_slice(&v.encoding);
        put_u32(&mut out, v.facts.neg);
    }
    put_u32(&mut out, palette.len() as u32);
    for &(v, _) in &palette {
        put_u32(&mut out, v);
    }
    put_u64(&mut out, level.entries.len() as u64);
    let mut prev: Option<Shape> = None;
    for (s, v) in &level.entries {
        let p = u128::from(at[v]) << 1;
        match prev {
            Some(q) if (q.width(), q.height()) == (s.width(), s.height()) => {
                put_varint(&mut out, p);
                put_varint(&mut out, s.bits().wrapping_sub(q.bits()));
            }
            _ => {
                put_varint(&mut out, p | 1);
                out.push(s.width() as u8);
                out.push(s.height() as u8);
                put_varint(&mut out, s.bits());
            }
        }
        prev = Some(*s);
    }
    let sum = checksum(&out);
    put_u64(&mut out, sum);
    out
}

/// LEB128: seven bits a byte, low first, the high bit saying more follow.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u128) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A value as a lean shard file keeps it: the encoding and the index of
/// its negative.
#[derive(Clone, Debug)]
struct LeanValue {
    encoding: Box<[u8]>,
    neg: u32,
}

/// The values of a file's head: with their facts (version 1) or lean.
enum HeadValues {
    Full(Vec<StoredValue>),
    Lean(Vec<LeanValue>),
}

impl HeadValues {
    fn len(&self) -> usize {
        match self {
            HeadValues::Full(v) => v.len(),
            HeadValues::Lean(v) => v.len(),
        }
    }

    /// Lean values (a version-1 file's facts are dropped: the merge derives
    /// them again, as for version 2).
    fn into_lean(self) -> Vec<LeanValue> {
        match self {
            HeadValues::Full(v) => v
                .into_iter()
                .map(|v| LeanValue {
                    encoding: v.encoding,
                    neg: v.facts.neg,
                })
                .collect(),
            HeadValues::Lean(v) => v,
        }
    }

    /// Values with their facts (derived, for lean ones, value by value in a
    /// fresh arena), the first of index `base`.
    fn into_full(self, base: u32) -> Result<Vec<StoredValue>, AtlasError> {
        match self {
            HeadValues::Full(v) => Ok(v),
            HeadValues::Lean(v) => {
                let mut facts = FactsMaker::default();
                v.into_iter()
                    .enumerate()
                    .map(|(i, lv)| facts.stored(lv, base + i as u32))
                    .collect()
            }
        }
    }
}

/// Derives a value's facts from its encoding, in an arena started afresh
/// every [`FactsMaker::RESET`] values (each encoding decodes on its own, so
/// a fresh arena loses nothing and memory stays bounded). `bare`: without
/// the notation (a merge writes none, and at 19 cells it would be
/// gigabytes of strings).
#[derive(Default)]
struct FactsMaker {
    arena: partizan_core::Arena,
    made: usize,
    bare: bool,
}

impl FactsMaker {
    const RESET: usize = 1 << 16;

    /// Value `lv` (index `index`) with its facts.
    fn stored(&mut self, lv: LeanValue, index: u32) -> Result<StoredValue, AtlasError> {
        self.made += 1;
        if self.made.is_multiple_of(Self::RESET) {
            self.arena = partizan_core::Arena::new();
        }
        let g = self
            .arena
            .decode(&lv.encoding)
            .map_err(|source| AtlasError::Decode { index, source })?;
        let mut facts = facts_of(&mut self.arena, g, index, !self.bare)?;
        facts.neg = lv.neg;
        Ok(StoredValue {
            encoding: lv.encoding,
            facts,
        })
    }
}

fn read_lean_values(r: &mut impl Src) -> Result<Vec<LeanValue>, AtlasError> {
    let nv = r.u32()? as usize;
    let mut values = Vec::with_capacity(nv.min(1 << 20));
    for _ in 0..nv {
        let len = usize::try_from(r.varint()?).map_err(|_| r.bad("encoding length"))?;
        let encoding: Box<[u8]> = r.take(len)?.into();
        let neg = r.u32()?;
        values.push(LeanValue { encoding, neg });
    }
    Ok(values)
}

/// How a kind-1 file spells its entries.
#[derive(Clone, Debug)]
enum EntryCode {
    /// Version 1: shape and value index in full, 22 bytes.
    Full,
    /// [`SHARD_VERSION`]: palette positions and mask steps.
    Compact {
        palette: Vec<u32>,
        prev: Option<Shape>,
    },
}

impl EntryCode {
    /// After the values: the palette of a compact file (its indices checked
    /// against `top`, the values' end).
    fn read(r: &mut impl Src, compact: bool, top: u64) -> Result<EntryCode, AtlasError> {
        if !compact {
            return Ok(EntryCode::Full);
        }
        let m = r.u32()? as usize;
        let mut palette = Vec::with_capacity(m.min(1 << 20));
        for _ in 0..m {
            let v = r.u32()?;
            if u64::from(v) >= top {
                return Err(r.bad(&format!("palette value {v} beyond {top}")));
            }
            palette.push(v);
        }
        Ok(EntryCode::Compact {
            palette,
            prev: None,
        })
    }

    /// The fewest bytes an entry takes (for checking the announced count).
    fn min_bytes(&self) -> u64 {
        match self {
            EntryCode::Full => 22,
            EntryCode::Compact { .. } => 2,
        }
    }

    /// The next entry: shape (of `cells` cells) and value index (not yet
    /// checked against the values' end).
    fn entry(&mut self, r: &mut impl Src, cells: usize) -> Result<(Shape, u32), AtlasError> {
        match self {
            EntryCode::Full => Ok((read_shape(r, cells)?, r.u32()?)),
            EntryCode::Compact { palette, prev } => {
                let head = r.varint()?;
                let v = usize::try_from(head >> 1)
                    .ok()
                    .and_then(|i| palette.get(i).copied())
                    .ok_or_else(|| r.bad("palette position out of range"))?;
                let (w, h, bits) = match *prev {
                    Some(q) if head & 1 == 0 => {
                        let step = r.varint()?;
                        let bits = q
                            .bits()
                            .checked_add(step)
                            .filter(|_| step > 0)
                            .ok_or_else(|| r.bad("mask step"))?;
                        (q.width(), q.height(), bits)
                    }
                    None if head & 1 == 0 => return Err(r.bad("first entry without a box")),
                    _ => {
                        let (w, h) = (r.u8()? as usize, r.u8()? as usize);
                        (w, h, r.varint()?)
                    }
                };
                let s = Shape::new(w, h, bits).map_err(|e| r.bad(&format!("shape: {e}")))?;
                if s.len() != cells {
                    return Err(r.bad(&format!("shape {s} has {} cells", s.len())));
                }
                *prev = Some(s);
                Ok((s, v))
            }
        }
    }
}

/// A level file written as it is produced (entries streamed in, never all
/// in memory), to a temporary name renamed over the target by
/// [`LevelWriter::finish`]: the same bytes [`encode_level`] gives.
struct LevelWriter {
    out: SummedFile,
    left: u64,
}

impl LevelWriter {
    /// The level file of `cells` cells whose new values are `values` (from
    /// `base`), with `entries` entries to come.
    fn create(
        path: &Path,
        key: &'static partizan_seal::Key,
        cells: usize,
        base: u32,
        values: &[StoredValue],
        entries: u64,
    ) -> Result<LevelWriter, AtlasError> {
        let mut out = SummedFile::create(path, key)?;
        level_head_to(&mut out, cells, None, base, values, entries)?;
        Ok(LevelWriter { out, left: entries })
    }

    fn entry(&mut self, s: &Shape, v: u32) -> Result<(), AtlasError> {
        if self.left == 0 {
            return Err(AtlasError::Shards("more entries than announced".into()));
        }
        self.left -= 1;
        put_shape(&mut self.out.buf, s);
        put_u32(&mut self.out.buf, v);
        self.out.spill()
    }

    fn finish(self) -> Result<(), AtlasError> {
        if self.left != 0 {
            return Err(AtlasError::Shards(format!("{} entries short", self.left)));
        }
        self.out.finish()
    }
}

/// Flush, sync and rename a file written under a temporary name into
/// place (a kill leaves the old file or the new one, never part of one).
pub(crate) fn commit_file(
    file: std::io::BufWriter<std::fs::File>,
    tmp: &Path,
    path: &Path,
) -> Result<(), AtlasError> {
    let f = file.into_inner().map_err(|e| io_err(tmp, e.into_error()))?;
    f.sync_all().map_err(|e| io_err(tmp, e))?;
    drop(f);
    std::fs::rename(tmp, path).map_err(|e| io_err(path, e))
}

/// How many entries an index written from a level file of `len` bytes
/// holds at a time: [`INDEX_BATCH`] (1 GB of entries) up to a level of 5 GB,
/// then an eighth of the level, at most 2^27 (4 GB): the level is read
/// again for every batch, and at 19 cells (19 GB) 2^25 would mean some 50
/// readings. The index's bytes do not depend on it.
fn file_index_batch(len: u64) -> usize {
    let entries = usize::try_from(len / 22).unwrap_or(usize::MAX);
    (entries / 8).clamp(INDEX_BATCH, 1 << 27)
}

pub(crate) fn io_err(path: &Path, source: std::io::Error) -> AtlasError {
    AtlasError::Io {
        path: path.display().to_string(),
        source,
    }
}

fn put_shape(out: &mut Vec<u8>, s: &Shape) {
    let bits = s.bits();
    out.push(s.width() as u8);
    out.push(s.height() as u8);
    put_u64(out, (bits >> 64) as u64);
    put_u64(out, bits as u64);
}

/// Values with their facts; the notation only in [`OLD_VERSION`]
/// (`notation`). Spilled value by value.
fn put_values<S: Sink>(
    out: &mut S,
    values: &[StoredValue],
    notation: bool,
) -> Result<(), S::Error> {
    put_u32(out.buf(), values.len() as u32);
    for v in values {
        let b = out.buf();
        put_bytes(b, &v.encoding);
        if notation {
            put_bytes(b, v.facts.display.as_bytes());
        }
        let (tag, x, y) = kind_code(v.facts.kind);
        b.push(tag);
        put_u64(b, x);
        put_u64(b, y as u64);
        put_dyadic(b, v.facts.left_stop);
        put_dyadic(b, v.facts.right_stop);
        put_dyadic(b, v.facts.temperature);
        put_u32(b, v.facts.neg);
        out.spill()?;
    }
    Ok(())
}

/// Where encoders put bytes: a buffer in memory, or a file written as it
/// goes ([`SummedFile`]), whose `spill` writes out a full buffer.
trait Sink {
    /// What spilling can fail with.
    type Error;
    /// The buffer to append to.
    fn buf(&mut self) -> &mut Vec<u8>;
    /// Hand on what the buffer holds, if it is worth it.
    fn spill(&mut self) -> Result<(), Self::Error>;
}

impl Sink for Vec<u8> {
    type Error = std::convert::Infallible;
    fn buf(&mut self) -> &mut Vec<u8> {
        self
    }
    fn spill(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// A file written as it is produced, summed (FNV-1a) as it passes, to a
/// temporary name renamed over the target by [`SummedFile::finish`], which
/// appends the sum: the bytes an encoder writing into memory and then
/// appending [`checksum`] gives.
struct SummedFile {
    file: std::io::BufWriter<std::fs::File>,
    buf: Vec<u8>,
    sum: Fnv,
    /// The file hashed as it passes, for its seal.
    hash: blake3::Hasher,
    len: u64,
    key: &'static partizan_seal::Key,
    tmp: PathBuf,
    path: PathBuf,
}

impl SummedFile {
    const FLUSH: usize = 1 << 20;

    fn create(path: &Path, key: &'static partizan_seal::Key) -> Result<SummedFile, AtlasError> {
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| io_err(path, e))?;
        }
        let file = std::fs::File::create(&tmp).map_err(|e| io_err(&tmp, e))?;
        Ok(SummedFile {
            file: std::io::BufWriter::new(file),
            buf: Vec::with_capacity(Self::FLUSH + 4096),
            sum: Fnv::new(),
            hash: blake3::Hasher::new(),
            len: 0,
            key,
            tmp,
            path: path.to_path_buf(),
        })
    }

    fn flush_buf(&mut self) -> Result<(), AtlasError> {
        use std::io::Write;
        self.sum.update(&self.buf);
        self.hash.update(&self.buf);
        self.len += self.buf.len() as u64;
        self.file
            .write_all(&self.buf)
            .map_err(|e| io_err(&self.tmp, e))?;
        self.buf.clear();
        Ok(())
    }

    /// Append the sum, seal the file and put it in place (the seal
    /// first: a kill between the two leaves no file unsealed).
    fn finish(mut self) -> Result<(), AtlasError> {
        self.flush_buf()?;
        let sum = self.sum.0;
        put_u64(&mut self.buf, sum);
        self.flush_buf()?;
        let sealed = Sealed {
            len: self.len,
            hash: *self.hash.finalize().as_bytes(),
        };
        write_seal(self.key, &self.path, &sealed)?;
        commit_file(self.file, &self.tmp, &self.path)
    }
}

impl Sink for SummedFile {
    type Error = AtlasError;
    fn buf(&mut self) -> &mut Vec<u8> {
        &mut self.buf
    }
    fn spill(&mut self) -> Result<(), AtlasError> {
        if self.buf.len() >= Self::FLUSH {
            self.flush_buf()?;
        }
        Ok(())
    }
}

/// One value's entries in a summary: how many, how many stand for two
/// regions, and the first [`SUMMARY_LIST`] shapes in catalogue order.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Group {
    value: u32,
    entries: u64,
    doubles: u64,
    first: Vec<Shape>,
}

/// A level's entries grouped by value, as they stream past in catalogue
/// order (for its summary file).
#[derive(Default)]
struct SummaryBuilder {
    groups: HashMap<u32, Group>,
    order: Vec<u32>,
}

impl SummaryBuilder {
    /// One entry; `neg` is the index of its value's negative.
    fn add(&mut self, s: Shape, v: u32, neg: u32) {
        let g = self.groups.entry(v).or_insert_with(|| {
            self.order.push(v);
            Group {
                value: v,
                entries: 0,
                doubles: 0,
                first: Vec::new(),
            }
        });
        g.entries += 1;
        if class_regions(s, v, neg).1 == 2 {
            g.doubles += 1;
        }
        if g.first.len() < SUMMARY_LIST {
            g.first.push(s);
        }
    }

    /// The summary file of a level of `cells` cells whose new values are
    /// `values` (from `base`).
    fn encode(&self, cells: usize, base: u32, values: &[StoredValue]) -> Vec<u8> {
        let mut out = Vec::new();
        let Ok(()) = self.emit(&mut out, cells, base, values);
        let sum = checksum(&out);
        put_u64(&mut out, sum);
        out
    }

    /// [`SummaryBuilder::encode`] written to `path` as it goes (at 19 cells
    /// the summary is gigabytes: it is never whole in memory).
    fn write(
        &self,
        path: &Path,
        key: &'static partizan_seal::Key,
        cells: usize,
        base: u32,
        values: &[StoredValue],
    ) -> Result<(), AtlasError> {
        let mut out = SummedFile::create(path, key)?;
        self.emit(&mut out, cells, base, values)?;
        out.finish()
    }

    /// The summary's bytes before its checksum.
    fn emit<S: Sink>(
        &self,
        out: &mut S,
        cells: usize,
        base: u32,
        values: &[StoredValue],
    ) -> Result<(), S::Error> {
        let b = out.buf();
        b.extend_from_slice(SUM_MAGIC);
        put_u32(b, FORMAT_VERSION);
        put_u32(b, cells as u32);
        put_u32(b, base);
        put_values(out, values, false)?;
        put_u32(out.buf(), self.order.len() as u32);
        for v in &self.order {
            let g = &self.groups[v];
            let b = out.buf();
            put_u32(b, g.value);
            put_u64(b, g.entries);
            put_u64(b, g.doubles);
            b.push(g.first.len() as u8);
            for s in &g.first {
                put_shape(b, s);
            }
            out.spill()?;
        }
        Ok(())
    }
}

/// A level's summary: its new values and its entries grouped by value.
fn encode_summary(level: &Level, all_values: &[StoredValue]) -> Vec<u8> {
    let mut b = SummaryBuilder::default();
    for &(s, v) in &level.entries {
        b.add(s, v, all_values[v as usize].facts.neg);
    }
    b.encode(level.cells, level.value_base, &level.values)
}

/// Where decoding reads from: a buffer in memory ([`Reader`]) or a file
/// streamed past ([`StreamSrc`]).
pub(crate) trait Src {
    /// The next `n` bytes.
    fn take(&mut self, n: usize) -> Result<&[u8], AtlasError>;
    /// A corruption error naming the file and the position.
    fn bad(&self, detail: &str) -> AtlasError;

    fn u8(&mut self) -> Result<u8, AtlasError> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, AtlasError> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn u64(&mut self) -> Result<u64, AtlasError> {
        let s = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(s);
        Ok(u64::from_le_bytes(a))
    }
    fn bytes(&mut self) -> Result<&[u8], AtlasError> {
        let n = self.u32()? as usize;
        self.take(n)
    }
    /// A LEB128 number of at most 128 bits.
    fn varint(&mut self) -> Result<u128, AtlasError> {
        let mut v = 0u128;
        for shift in (0..128).step_by(7) {
            let b = self.u8()?;
            let part = u128::from(b & 0x7f);
            if shift == 126 && part > 3 {
                return Err(self.bad("varint overflow"));
            }
            v |= part << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(self.bad("varint too long"))
    }
    fn dyadic(&mut self) -> Result<Dyadic, AtlasError> {
        let num = self.u64()? as i64;
        let exp = self.u32()?;
        Dyadic::new(num, exp).map_err(|e| self.bad(&format!("dyadic: {e}")))
    }
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
    path: &'a str,
}

impl Src for Reader<'_> {
    fn bad(&self, detail: &str) -> AtlasError {
        AtlasError::Corrupt {
            path: self.path.into(),
            detail: format!("{detail} (at byte {})", self.at),
        }
    }
    fn take(&mut self, n: usize) -> Result<&[u8], AtlasError> {
        if self.b.len() - self.at < n {
            return Err(self.bad("truncated"));
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
}

/// A file read front to back through a buffer of its own, its FNV checksum
/// summed as it passes (unless the file has a seal, which is checked instead).
struct StreamSrc {
    file: Hashing<std::fs::File>,
    /// Bytes read ahead: `buf[pos..end]` not yet taken.
    buf: Vec<u8>,
    pos: usize,
    end: usize,
    /// Bytes read from the file so far (never past `len`).
    read: u64,
    /// The file's FNV checksum of the bytes taken; `None` for a file with
    /// a seal, whose hash (of every byte) is checked instead.
    sum: Option<Fnv>,
    at: u64,
    len: u64,
    path: String,
}

impl StreamSrc {
    /// Bytes read from the file at a time (a few in this crate's own
    /// tests, so that entries and values straddle the reads).
    const CHUNK: usize = if cfg!(test) { 13 } else { 1 << 20 };

    fn new(file: std::fs::File, len: u64, path: &Path, summed: bool) -> StreamSrc {
        StreamSrc {
            file: Hashing::new(file),
            buf: Vec::new(),
            pos: 0,
            end: 0,
            read: 0,
            sum: summed.then(Fnv::new),
            at: 0,
            len,
            path: path.display().to_string(),
        }
    }

    /// The next `n` bytes, not summed (the checksum itself).
    fn raw(&mut self, n: usize) -> Result<&[u8], AtlasError> {
        use std::io::Read;
        if self.end - self.pos < n {
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.pos = 0;
            if self.buf.len() < n.max(Self::CHUNK) {
                self.buf.resize(n.max(Self::CHUNK), 0);
            }
            while self.end < n {
                let room = (self.buf.len() - self.end) as u64;
                let want = room.min(self.len - self.read) as usize;
                let got = match self.file.read(&mut self.buf[self.end..self.end + want]) {
                    Ok(0) => return Err(self.bad("truncated")),
                    Ok(got) => got,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(self.bad(&format!("read: {e}"))),
                };
                self.end += got;
                self.read += got as u64;
            }
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        self.at += n as u64;
        Ok(s)
    }
}

impl Src for StreamSrc {
    fn bad(&self, detail: &str) -> AtlasError {
        AtlasError::Corrupt {
            path: self.path.clone(),
            detail: format!("{detail} (at byte {})", self.at),
        }
    }
    fn take(&mut self, n: usize) -> Result<&[u8], AtlasError> {
        // the checksum's 8 bytes are not data
        if self.len.saturating_sub(8).saturating_sub(self.at) < n as u64 {
            return Err(self.bad("truncated"));
        }
        self.raw(n)?;
        let s = &self.buf[self.pos - n..self.pos];
        if let Some(sum) = &mut self.sum {
            sum.update(s);
        }
        Ok(s)
    }
}

/// One shard file streamed entry by entry (a shard of 18 cells is too
/// large to hold with its fellows): header and values read on opening,
/// every check of [`decode_level`] made as it goes, the checksum at
/// [`ShardStream::finish`].
struct ShardStream {
    src: StreamSrc,
    /// What the file's seal names, when it must have one (a level).
    sealed: Option<Sealed>,
    cells: usize,
    code: EntryCode,
    values: Vec<LeanValue>,
    top: u64,
    left: u64,
    last: Option<Shape>,
}

impl ShardStream {
    /// `None` when the file does not exist.
    fn open(
        path: &Path,
        cells: usize,
        shard: Option<(usize, usize)>,
        base: u32,
    ) -> Result<Option<ShardStream>, AtlasError> {
        Ok(
            ShardStream::open_with_values(path, cells, shard, base, None)?.map(
                |(mut st, values)| {
                    st.values = values.into_lean();
                    st
                },
            ),
        )
    }

    /// [`ShardStream::open`] with the values as the file holds them (a
    /// level's with their facts), handed back apart; with `sealed_by`, the
    /// file must have a seal of that key naming its bytes (checked at
    /// [`ShardStream::finish`]).
    fn open_with_values(
        path: &Path,
        cells: usize,
        shard: Option<(usize, usize)>,
        base: u32,
        sealed_by: Option<&partizan_seal::Key>,
    ) -> Result<Option<(ShardStream, HeadValues)>, AtlasError> {
        let file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_err(path, e)),
        };
        let sealed = sealed_by.map(|k| read_seal(k, path)).transpose()?;
        let len = file.metadata().map_err(|e| io_err(path, e))?.len();
        let mut src = StreamSrc::new(file, len, path, sealed.is_none());
        if len < 16 || src.take(8)? != MAGIC {
            return Err(src.bad("not an atlas file (magic)"));
        }
        let (values, code, ne) = read_head(&mut src, cells, shard, base)?;
        if ne > len / code.min_bytes() + 1 {
            return Err(src.bad("entry count larger than the file"));
        }
        let top = u64::from(base) + values.len() as u64;
        Ok(Some((
            ShardStream {
                src,
                sealed,
                cells,
                code,
                values: Vec::new(),
                top,
                left: ne,
                last: None,
            },
            values,
        )))
    }

    /// The next entry, checked (size, value index, order).
    fn next(&mut self) -> Result<Option<(Shape, u32)>, AtlasError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let (s, v) = self.code.entry(&mut self.src, self.cells)?;
        if u64::from(v) >= self.top {
            return Err(self
                .src
                .bad(&format!("value index {v} beyond {}", self.top)));
        }
        if self.last.is_some_and(|l| l >= s) {
            return Err(self.src.bad("entries not sorted"));
        }
        self.last = Some(s);
        Ok(Some((s, v)))
    }

    /// After the last entry: the checksum, the end of the file and, for a
    /// file opened as sealed, its seal.
    fn finish(self) -> Result<(), AtlasError> {
        let want = self.sealed;
        let path = PathBuf::from(&self.src.path);
        let got = self.finish_hashed()?;
        match want {
            Some(w) => seal::check(&path, &w, &got).map_err(|unsealed| {
                // the checksum was not summed (the seal's hash covers every
                // byte): damage is told from an edit by summing it now
                match checksum_of_file(&path) {
                    Ok(false) => AtlasError::Corrupt {
                        path: path.display().to_string(),
                        detail: "checksum mismatch".into(),
                    },
                    Ok(true) => unsealed,
                    Err(e) => e,
                }
            }),
            None => Ok(()),
        }
    }

    /// [`ShardStream::finish`] without the seal: the length and hash of
    /// the bytes read, for a seal.
    fn finish_hashed(mut self) -> Result<Sealed, AtlasError> {
        if self.left != 0 || self.src.at + 8 != self.src.len {
            return Err(self.src.bad("trailing bytes"));
        }
        let mut t = [0u8; 8];
        t.copy_from_slice(self.src.raw(8)?);
        if self
            .src
            .sum
            .as_ref()
            .is_some_and(|sum| sum.0 != u64::from_le_bytes(t))
        {
            return Err(AtlasError::Corrupt {
                path: self.src.path,
                detail: "checksum mismatch".into(),
            });
        }
        // every byte of the file has passed the hasher: `len` read
        Ok(self.src.file.sealed())
    }
}

/// Whether the file at `path` ends with the FNV checksum of the bytes
/// before it (read through once).
fn checksum_of_file(path: &Path) -> Result<bool, AtlasError> {
    use std::io::Read;
    let io = |e| io_err(path, e);
    let mut f = std::fs::File::open(path).map_err(io)?;
    let len = f.metadata().map_err(io)?.len();
    if len < 8 {
        return Ok(false);
    }
    let mut sum = Fnv::new();
    let mut left = len - 8;
    let mut buf = vec![0u8; 1 << 20];
    while left > 0 {
        let n = (buf.len() as u64).min(left) as usize;
        f.read_exact(&mut buf[..n]).map_err(io)?;
        sum.update(&buf[..n]);
        left -= n as u64;
    }
    let mut t = [0u8; 8];
    f.read_exact(&mut t).map_err(io)?;
    Ok(sum.0 == u64::from_le_bytes(t))
}

/// The level file at `path` streamed: each entry, checked, passed to
/// `each`, then the checksum; its values as the file holds them, or `None`
/// when there is no file.
fn stream_level_file(
    path: &Path,
    key: &partizan_seal::Key,
    cells: usize,
    base: u32,
    each: &mut dyn FnMut(Shape, u32) -> Result<(), AtlasError>,
) -> Result<Option<HeadValues>, AtlasError> {
    let Some((mut st, values)) = ShardStream::open_with_values(path, cells, None, base, Some(key))?
    else {
        return Ok(None);
    };
    while let Some((s, v)) = st.next()? {
        each(s, v)?;
    }
    st.finish()?;
    Ok(Some(values))
}

/// After a file's `version` (`newest` the one this build writes): refuses
/// an unknown version in one line, skips the interim format's printer
/// version, and says whether the values hold a notation (to skip).
fn read_notation_field(r: &mut impl Src, version: u32, newest: u32) -> Result<bool, AtlasError> {
    let with_notation = version == OLD_VERSION || version == NOTATION_VERSIONED;
    if !with_notation && version != newest {
        let mut v = [OLD_VERSION, NOTATION_VERSIONED, newest];
        v.sort_unstable();
        return Err(r.bad(&format!(
            "format version {version}, this build reads {}, {} and {}",
            v[0], v[1], v[2]
        )));
    }
    if version == NOTATION_VERSIONED {
        r.u32()?;
    }
    Ok(with_notation)
}

/// The header and values of a level file, after its magic: checked against
/// the expected size, shard and value base; returns the values, how the
/// entries are spelled (a shard or part: either version) and the entry
/// count.
fn read_head(
    r: &mut impl Src,
    cells: usize,
    shard: Option<(usize, usize)>,
    value_base: u32,
) -> Result<(HeadValues, EntryCode, u64), AtlasError> {
    let version = r.u32()?;
    let newest = if shard.is_some() {
        SHARD_VERSION
    } else {
        FORMAT_VERSION
    };
    let with_notation = read_notation_field(r, version, newest)?;
    let lean = shard.is_some() && version == SHARD_VERSION;
    let is_shard = r.u8()? == 1;
    let c = r.u32()? as usize;
    let (k, n) = (r.u32()? as usize, r.u32()? as usize);
    let got_shard = is_shard.then_some((k, n));
    if c != cells || got_shard != shard {
        return Err(r.bad(&format!(
            "holds {c} cells shard {got_shard:?}, expected {cells} cells shard {shard:?}"
        )));
    }
    let base = r.u32()?;
    if base != value_base {
        return Err(r.bad(&format!("values start at {base}, expected {value_base}")));
    }
    let values = if lean {
        HeadValues::Lean(read_lean_values(r)?)
    } else {
        HeadValues::Full(read_values(r, with_notation)?)
    };
    let top = u64::from(value_base) + values.len() as u64;
    if let HeadValues::Lean(v) = &values {
        if let Some(bad) = v.iter().find(|v| u64::from(v.neg) >= top) {
            return Err(r.bad(&format!("negative index {} beyond {top}", bad.neg)));
        }
    }
    let code = EntryCode::read(r, lean, top)?;
    let ne = r.u64()?;
    Ok((values, code, ne))
}

/// Decode file bytes into a level, checking everything; `want` is the
/// expected (cells, shard, value base). Every value's notation printed.
pub fn decode_level(
    bytes: &[u8],
    path: &str,
    cells: usize,
    shard: Option<(usize, usize)>,
    value_base: u32,
) -> Result<Level, AtlasError> {
    let mut level = decode_unprinted(bytes, path, cells, shard, value_base)?;
    print_values(&mut level.values, value_base)?;
    Ok(level)
}

/// [`decode_level`] with the notation of values read from a level file
/// left empty (a reader prints only the values it lists: at 16 cells,
/// printing all 719 K on loading took longer than reading them).
fn decode_unprinted(
    bytes: &[u8],
    path: &str,
    cells: usize,
    shard: Option<(usize, usize)>,
    value_base: u32,
) -> Result<Level, AtlasError> {
    let corrupt = |d: String| AtlasError::Corrupt {
        path: path.into(),
        detail: d,
    };
    let body = checked_body(bytes, MAGIC, path)?;
    let mut r = Reader {
        b: body,
        at: 8,
        path,
    };
    let (values, mut code, ne) = read_head(&mut r, cells, shard, value_base)?;
    let top = u64::from(value_base) + values.len() as u64;
    if ne > (body.len() as u64) / code.min_bytes() + 1 {
        return Err(r.bad("entry count larger than the file"));
    }
    let mut entries = Vec::with_capacity(ne as usize);
    for _ in 0..ne {
        let (s, v) = code.entry(&mut r, cells)?;
        if u64::from(v) >= top {
            return Err(r.bad(&format!("value index {v} beyond {top}")));
        }
        entries.push((s, v));
    }
    if r.at != body.len() {
        return Err(r.bad("trailing bytes"));
    }
    if entries.windows(2).any(|p| p[0].0 >= p[1].0) {
        return Err(corrupt("entries not sorted".into()));
    }
    Ok(Level {
        cells,
        value_base,
        values: values.into_full(value_base)?,
        entries,
    })
}

fn read_shape(r: &mut impl Src, cells: usize) -> Result<Shape, AtlasError> {
    let (w, h) = (r.u8()? as usize, r.u8()? as usize);
    let bits = (u128::from(r.u64()?) << 64) | u128::from(r.u64()?);
    let s = Shape::new(w, h, bits).map_err(|e| r.bad(&format!("shape: {e}")))?;
    if s.len() != cells {
        return Err(r.bad(&format!("shape {s} has {} cells", s.len())));
    }
    Ok(s)
}

/// Checked body of a file: magic and checksum verified.
fn checked_body<'a>(bytes: &'a [u8], magic: &[u8; 8], path: &str) -> Result<&'a [u8], AtlasError> {
    let corrupt = |d: &str| AtlasError::Corrupt {
        path: path.into(),
        detail: d.into(),
    };
    if bytes.len() < magic.len() + 8 || &bytes[..8] != magic {
        return Err(corrupt("not an atlas file (magic)"));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let mut t = [0u8; 8];
    t.copy_from_slice(tail);
    if checksum(body) != u64::from_le_bytes(t) {
        return Err(corrupt("checksum mismatch"));
    }
    Ok(body)
}

/// A level summary read back.
struct Summary {
    values: Vec<StoredValue>,
    groups: Vec<Group>,
}

fn decode_summary(
    bytes: &[u8],
    path: &str,
    cells: usize,
    base: u32,
) -> Result<Summary, AtlasError> {
    let body = checked_body(bytes, SUM_MAGIC, path)?;
    let mut r = Reader {
        b: body,
        at: 8,
        path,
    };
    let version = r.u32()?;
    let with_notation = read_notation_field(&mut r, version, FORMAT_VERSION)?;
    if r.u32()? as usize != cells || r.u32()? != base {
        return Err(r.bad("size or value base differs"));
    }
    let values = read_values(&mut r, with_notation)?;
    let top = u64::from(base) + values.len() as u64;
    let n = r.u32()? as usize;
    let mut groups = Vec::with_capacity(n.min(1 << 20));
    for _ in 0..n {
        let value = r.u32()?;
        if u64::from(value) >= top {
            return Err(r.bad("value index out of range"));
        }
        let (entries, doubles) = (r.u64()?, r.u64()?);
        let k = r.u8()? as usize;
        let mut first = Vec::with_capacity(k);
        for _ in 0..k {
            first.push(read_shape(&mut r, cells)?);
        }
        groups.push(Group {
            value,
            entries,
            doubles,
            first,
        });
    }
    if r.at != body.len() {
        return Err(r.bad("trailing bytes"));
    }
    Ok(Summary { values, groups })
}

/// Values with their facts, the notation left empty (printed by
/// [`print_values`] where it is wanted); an [`OLD_VERSION`] file's stored
/// notation (`notation`) is checked and skipped: it is what the printer of
/// its day wrote.
fn read_values(r: &mut impl Src, notation: bool) -> Result<Vec<StoredValue>, AtlasError> {
    let nv = r.u32()? as usize;
    let mut values = Vec::with_capacity(nv.min(1 << 20));
    for _ in 0..nv {
        let encoding: Box<[u8]> = r.bytes()?.into();
        if notation && std::str::from_utf8(r.bytes()?).is_err() {
            return Err(r.bad("notation"));
        }
        let display = String::new();
        let (tag, a, b) = (r.u8()?, r.u64()?, r.u64()? as i64);
        let kind = kind_of(tag, a, b).ok_or_else(|| r.bad("kind"))?;
        let left_stop = r.dyadic()?;
        let right_stop = r.dyadic()?;
        let temperature = r.dyadic()?;
        let neg = r.u32()?;
        values.push(StoredValue {
            encoding,
            facts: ValueFacts {
                display,
                kind,
                left_stop,
                right_stop,
                temperature,
                neg,
            },
        });
    }
    Ok(values)
}

/// Print the notation of every value whose notation is not yet printed
/// (`values` start at index `base`), on every core, each slice of
/// [`FactsMaker::RESET`] values in an arena of its own (at 16 cells the
/// 719 K values of a directory take about 5 s of one core).
fn print_values(values: &mut [StoredValue], base: u32) -> Result<(), AtlasError> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = values.len().div_ceil(threads).clamp(1, FactsMaker::RESET);
    let mut slices: Vec<(u32, &mut [StoredValue])> = Vec::new();
    let mut at = base;
    for c in values.chunks_mut(chunk) {
        let n = c.len() as u32;
        slices.push((at, c));
        at += n;
    }
    let next = std::sync::Mutex::new(slices);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| -> Result<(), AtlasError> {
                    while let Some((first, c)) = next.lock().expect("not poisoned").pop() {
                        let mut arena = partizan_core::Arena::new();
                        for (i, v) in c.iter_mut().enumerate() {
                            print_value(v, &mut arena, first + i as u32)?;
                        }
                    }
                    Ok(())
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().expect("a printer thread panicked"))
    })
}

/// Print value `index`'s notation from its encoding, if not yet printed.
fn print_value(
    v: &mut StoredValue,
    arena: &mut partizan_core::Arena,
    index: u32,
) -> Result<(), AtlasError> {
    if v.facts.display.is_empty() {
        let g = arena
            .decode(&v.encoding)
            .map_err(|source| AtlasError::Decode { index, source })?;
        v.facts.display = arena.display(g);
    }
    Ok(())
}

/// A directory of level files.
#[derive(Clone, Debug)]
pub struct DirStore {
    dir: PathBuf,
    /// A build's store (loading a level writes its index when it has none,
    /// and prints every value's notation, so a resumed build's values equal
    /// computed ones), or a reader's (`load_atlas`, a find: writes nothing,
    /// and a value's notation is printed when a row lists it).
    building: bool,
    /// Threads a build may use for the store's own work (two or more: a
    /// level's index is built beside its summary and level files).
    threads: usize,
    /// The key that seals what this store writes and must have sealed
    /// every level and summary it reads (see [`seal`]): the user's.
    key: &'static partizan_seal::Key,
}

impl DirStore {
    /// A store in `dir` (created when a level is first saved).
    #[must_use]
    pub fn new(dir: impl Into<PathBuf>) -> DirStore {
        DirStore {
            dir: dir.into(),
            building: true,
            threads: 1,
            key: &partizan_seal::user_key().key,
        }
    }

    /// This store reading and sealing with `key` instead of the user's
    /// (another user's or machine's store, as tests make it).
    #[must_use]
    pub fn with_key(self, key: &'static partizan_seal::Key) -> DirStore {
        DirStore { key, ..self }
    }

    /// The default atlas directory: `$PARTIZAN_ATLAS`, else `partizan/atlas`
    /// under `$XDG_DATA_HOME` or `~/.local/share` (`None` without a home).
    /// The command line and the site both read the atlas from here.
    #[must_use]
    pub fn default_dir() -> Option<PathBuf> {
        if let Some(p) = std::env::var_os("PARTIZAN_ATLAS") {
            return Some(PathBuf::from(p));
        }
        let data = match std::env::var_os("XDG_DATA_HOME") {
            Some(x) if !x.is_empty() => PathBuf::from(x),
            _ => PathBuf::from(std::env::var_os("HOME")?)
                .join(".local")
                .join("share"),
        };
        Some(data.join("partizan").join("atlas"))
    }

    /// The directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn part_path(&self, cells: usize, index: usize, count: usize) -> PathBuf {
        self.dir
            .join(format!("level-{cells:02}.part-{index}-of-{count}.pzal"))
    }

    fn path(&self, cells: usize, shard: Option<(usize, usize)>) -> PathBuf {
        match shard {
            None => self.dir.join(format!("level-{cells:02}.pzal")),
            Some((k, n)) => self
                .dir
                .join(format!("level-{cells:02}.shard-{k}-of-{n}.pzal")),
        }
    }

    /// Write `bytes` to `path`, with its seal (a level, summary or part)
    /// or without (a shard file, perhaps read on another machine: the
    /// merge samples it).
    fn write(&self, path: &Path, bytes: &[u8], sealed: bool) -> Result<(), AtlasError> {
        use std::io::Write;
        let io = |source| AtlasError::Io {
            path: path.display().to_string(),
            source,
        };
        std::fs::create_dir_all(&self.dir).map_err(io)?;
        // the seal first: a kill between the two leaves no file unsealed
        if sealed {
            write_seal(self.key, path, &seal_of(bytes))?;
        }
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let mut f = std::fs::File::create(&tmp).map_err(io)?;
        f.write_all(bytes).map_err(io)?;
        f.sync_all().map_err(io)?;
        drop(f);
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// `bytes`, read from the level, summary or part file `path`, are the
    /// ones its seal under this store's key names.
    fn check_sealed(&self, path: &Path, bytes: &[u8]) -> Result<(), AtlasError> {
        seal::check(path, &read_seal(self.key, path)?, &seal_of(bytes))
    }

    /// Seal the file at `path`, as it is on disk, with this store's key, as
    /// if this store had written it: for a caller that wrote it by other
    /// means and answers for it (tests forging what a holder of the key
    /// could). A directory from elsewhere is adopted with
    /// [`DirStore::adopt`], which checks before it seals.
    pub fn seal_as_written(&self, path: &Path) -> Result<(), AtlasError> {
        write_seal(self.key, path, &seal::seal_of_file(path)?)
    }

    fn read(
        &self,
        cells: usize,
        shard: Option<(usize, usize)>,
        base: u32,
    ) -> Result<Option<Level>, AtlasError> {
        // a level must have its seal; a shard (another machine's word,
        // perhaps) has none
        self.read_at(
            &self.path(cells, shard),
            cells,
            shard,
            base,
            shard.is_none(),
        )
    }

    /// The level, shard or part file at `path`, checked; with `sealed`,
    /// its bytes must be the ones its seal under this store's key names.
    fn read_at(
        &self,
        path: &Path,
        cells: usize,
        shard: Option<(usize, usize)>,
        base: u32,
        sealed: bool,
    ) -> Result<Option<Level>, AtlasError> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(AtlasError::Io {
                    path: path.display().to_string(),
                    source,
                })
            }
        };
        let mut level = decode_unprinted(&bytes, &path.display().to_string(), cells, shard, base)?;
        if sealed {
            self.check_sealed(path, &bytes)?;
        }
        if self.building {
            print_values(&mut level.values, base)?;
        }
        Ok(Some(level))
    }

    /// The index file of a level (see [`crate::atlas_index`]).
    #[must_use]
    pub fn index_path(&self, cells: usize) -> PathBuf {
        self.dir.join(format!("level-{cells:02}.index.pzal"))
    }

    /// Write the index of level `cells` from the level file on disk
    /// (streamed, [`file_index_batch`] entries held at a time, the level
    /// read again per batch); `all` is every value to this level.
    fn index_from_file(
        &self,
        cells: usize,
        base: u32,
        all: &[StoredValue],
    ) -> Result<(), AtlasError> {
        let path = self.path(cells, None);
        let tail = level_tail(&path)?.ok_or_else(|| AtlasError::NotBuilt {
            have: cells - 1,
            want: cells,
        })?;
        let mut replay = |f: &mut dyn FnMut(Shape, u32) -> Result<(), AtlasError>| {
            stream_level_file(&path, self.key, cells, base, f)?
                .map(|_| ())
                .ok_or(AtlasError::NotBuilt {
                    have: cells - 1,
                    want: cells,
                })
        };
        write_index(
            &self.index_path(cells),
            self.key,
            cells,
            base,
            all,
            tail,
            &mut replay,
            file_index_batch(tail.len),
        )
    }

    /// Write the index of an in-memory level just saved (`all`: every
    /// value to it).
    fn index_from_level(
        &self,
        level: &Level,
        all: &[StoredValue],
        tail: Option<LevelTail>,
    ) -> Result<(), AtlasError> {
        let path = self.path(level.cells, None);
        let tail = match tail {
            Some(t) => t,
            None => level_tail(&path)?.ok_or_else(|| AtlasError::NotBuilt {
                have: level.cells - 1,
                want: level.cells,
            })?,
        };
        let mut replay = |f: &mut dyn FnMut(Shape, u32) -> Result<(), AtlasError>| {
            level.entries.iter().try_for_each(|&(s, v)| f(s, v))
        };
        write_index(
            &self.index_path(level.cells),
            self.key,
            level.cells,
            level.value_base,
            all,
            tail,
            &mut replay,
            INDEX_BATCH,
        )
    }

    /// Whether the index of level `cells` (values from `base`) is believed
    /// (its header page checks against the level file; with `every_page`,
    /// every page checks): `Err` says why not.
    fn index_state(&self, cells: usize, base: u32, every_page: bool) -> Result<(), String> {
        let tail = level_tail(&self.path(cells, None))
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("level {cells} is missing"))?;
        let mut ix = LevelIndex::open(&self.index_path(cells), self.key, cells, base, tail)?;
        if every_page {
            ix.check_pages().map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// Write the index of every level to `max_cells` (default: every level
    /// present) that has none or one not believed (stale, damaged, another
    /// version); returns per level whether it was written. What
    /// `partizan atlas index` calls; a build writes them as it goes.
    pub fn write_indexes(
        &self,
        max_cells: Option<usize>,
    ) -> Result<Vec<(usize, bool)>, AtlasError> {
        let want = self.sizes_wanted(max_cells)?;
        let mut all: Vec<StoredValue> = Vec::new();
        let mut done = Vec::with_capacity(want);
        for c in 1..=want {
            let base = all.len() as u32;
            let sum = self
                .read_summary(c, base)?
                .ok_or_else(|| AtlasError::Corrupt {
                    path: self.summary_path(c).display().to_string(),
                    detail: "summary missing (load the atlas once to write it)".into(),
                })?;
            all.extend(sum.values);
            let stale = self.index_state(c, base, true).is_err();
            if stale {
                self.index_from_file(c, base, &all)?;
            }
            done.push((c, stale));
        }
        Ok(done)
    }

    fn summary_path(&self, cells: usize) -> PathBuf {
        self.dir.join(format!("level-{cells:02}.summary.pzal"))
    }

    /// The values of every level below `cells`, from the summaries.
    fn values_below(&self, cells: usize) -> Result<Vec<StoredValue>, AtlasError> {
        let mut values = Vec::new();
        for c in 1..cells {
            match self.read_summary(c, values.len() as u32)? {
                Some(s) => values.extend(s.values),
                None => {
                    return Err(AtlasError::NotBuilt {
                        have: c - 1,
                        want: cells - 1,
                    })
                }
            }
        }
        Ok(values)
    }

    fn read_summary(&self, cells: usize, base: u32) -> Result<Option<Summary>, AtlasError> {
        let path = self.summary_path(cells);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => {
                return Err(AtlasError::Io {
                    path: path.display().to_string(),
                    source,
                })
            }
        };
        let sum = decode_summary(&bytes, &path.display().to_string(), cells, base)?;
        self.check_sealed(&path, &bytes)?;
        Ok(Some(sum))
    }

    /// Answer a query from the summary files alone (values and, per value,
    /// counts and the first [`SUMMARY_LIST`] shapes), without reading the
    /// entries: the same answer as [`crate::atlas::Atlas::query`] on the
    /// loaded atlas. `Ok(None)` when the summaries cannot answer it (a
    /// summary is missing, or more regions are to be listed than they keep);
    /// then load the atlas and ask it.
    pub fn query(&self, q: &Query, max_cells: usize) -> Result<Option<QueryAnswer>, AtlasError> {
        let t0 = std::time::Instant::now();
        let mut values = Vec::new();
        let mut sums = Vec::with_capacity(max_cells);
        for c in 1..=max_cells {
            match self.read_summary(c, values.len() as u32)? {
                Some(s) => {
                    values.extend(s.values.iter().cloned());
                    sums.push(s);
                }
                None => return Ok(None),
            }
        }
        let ok = matching_values(&values, q)?;
        let mut arena = partizan_core::Arena::new();
        let max = q.max_cells.unwrap_or(max_cells).min(max_cells);
        let mut total = 0u64;
        let mut hits = Vec::new();
        for sum in sums.iter().take(max) {
            let mut cands: Vec<(Shape, u32)> = Vec::new();
            let mut cutoff: Option<Shape> = None;
            for g in &sum.groups {
                let neg = values[g.value as usize].facts.neg;
                let (a, b) = (ok[g.value as usize], ok[neg as usize]);
                total += u64::from(a) * g.entries + u64::from(b) * g.doubles;
                if !(a || b) {
                    continue;
                }
                cands.extend(g.first.iter().map(|&s| (s, g.value)));
                if (g.first.len() as u64) < g.entries {
                    let last = *g.first.last().expect("a group lists a shape");
                    cutoff = Some(cutoff.map_or(last, |c: Shape| c.min(last)));
                }
            }
            if hits.len() >= q.limit {
                continue;
            }
            cands.sort_unstable();
            for (s, v) in cands {
                if cutoff.is_some_and(|c| s > c) {
                    break;
                }
                let neg = values[v as usize].facts.neg;
                let (r, k) = class_regions(s, v, neg);
                for &(rs, rv) in r.iter().take(k) {
                    if ok[rv as usize] && hits.len() < q.limit {
                        print_value(&mut values[rv as usize], &mut arena, rv)?;
                        hits.push(region_row(&values, rs, rv));
                    }
                }
            }
            if hits.len() < q.limit && cutoff.is_some() {
                return Ok(None);
            }
        }
        Ok(Some(QueryAnswer {
            total,
            regions: hits,
            seconds: t0.elapsed().as_secs_f64(),
            source: "summaries",
            note: None,
        }))
    }

    /// The atlas to `max_cells` (default: every size present) read from
    /// the directory; [`AtlasError::NotBuilt`] if it holds less (or none).
    pub fn load_atlas(&mut self, max_cells: Option<usize>) -> Result<Atlas, AtlasError> {
        let want = self.sizes_wanted(max_cells)?;
        // a reader: a level without an index is read, not indexed
        let mut reader = DirStore {
            building: false,
            ..self.clone()
        };
        Atlas::load(&mut reader, want)
    }

    /// The atlas's report ([`Atlas::report`], the same tables) of the sizes
    /// to `max_cells` (default: every size present), from the level files
    /// streamed one after another: memory is the values, not the entries
    /// (loading the atlas to 18 cells took 15.9 GB; to 19 it would not fit
    /// in 24). Each level is checked as it streams (sizes, order, value
    /// indices, negatives, its checksum at the end) and believed only when
    /// its shapes are the catalogue (connected, canonical, increasing, as
    /// many as A000105 counts; checked on rayon's pool, every core).
    /// `progress` hears each size as it starts.
    pub fn report(
        &self,
        max_cells: Option<usize>,
        hottest: usize,
        progress: &mut dyn FnMut(usize),
    ) -> Result<AtlasReport, AtlasError> {
        const BATCH: usize = 1 << 16;
        let want = self.sizes_wanted(max_cells)?;
        let mut values: Vec<StoredValue> = Vec::new();
        let mut tally = ReportTally::new(hottest);
        for cells in 1..=want {
            progress(cells);
            let base = values.len() as u32;
            let path = self.path(cells, None);
            let (mut st, head) =
                ShardStream::open_with_values(&path, cells, None, base, Some(self.key))?.ok_or(
                    AtlasError::NotBuilt {
                        have: cells - 1,
                        want,
                    },
                )?;
            values.extend(head.into_full(base)?);
            // a value's negative is interned with it: never beyond its level
            if let Some(bad) = values[base as usize..]
                .iter()
                .find(|v| v.facts.neg as usize >= values.len())
            {
                return Err(AtlasError::Corrupt {
                    path: path.display().to_string(),
                    detail: format!("negative index {} out of range", bad.facts.neg),
                });
            }
            let mut check = CatalogueCheck::new(cells);
            let mut batch = Vec::with_capacity(BATCH);
            let mut classes = 0u64;
            while let Some(e) = st.next()? {
                batch.push(e.0);
                if batch.len() == BATCH {
                    check.run(&batch, None)?;
                    batch.clear();
                }
                tally.entry(&values, cells, e);
                classes += 1;
            }
            st.finish()?;
            check.run(&batch, None)?;
            check.finish()?;
            tally.end_size(cells, classes);
        }
        Ok(tally.finish(&values, want))
    }

    /// Answer `q` over the sizes to `q.max_cells` (default: every size
    /// present): from the summaries when they can, else from the loaded
    /// levels. Returns the answer, the seconds spent reading (summaries or
    /// levels) and the largest size searched. What both
    /// `partizan atlas find` and the Python package call.
    pub fn find(&self, q: &Query) -> Result<(QueryAnswer, f64, usize), AtlasError> {
        self.find_in(q, None)
    }

    /// [`DirStore::find`], falling back on `loaded` (an atlas already read
    /// from this directory, to at least the sizes asked) instead of reading
    /// the levels again: what the site calls, with the atlas it keeps.
    pub fn find_in(
        &self,
        q: &Query,
        loaded: Option<&Atlas>,
    ) -> Result<(QueryAnswer, f64, usize), AtlasError> {
        let want = self.sizes_wanted(q.max_cells)?;
        let t0 = std::time::Instant::now();
        // the query's own errors (a bad value, kind, temperature) first
        let filter = ValueFilter::new(q)?;
        let note = match self.indexed(q, &filter, want) {
            Ok(ans) => return Ok((ans, t0.elapsed().as_secs_f64(), want)),
            Err(why) => why,
        };
        let noted = |mut ans: QueryAnswer| {
            ans.note = Some(format!("index not used: {note}"));
            ans
        };
        if let Some(ans) = self.query(q, want)? {
            return Ok((noted(ans), t0.elapsed().as_secs_f64(), want));
        }
        if let Some(atlas) = loaded.filter(|a| a.max_cells() >= want) {
            let q = Query {
                max_cells: Some(want),
                ..q.clone()
            };
            return Ok((noted(atlas.query(&q)?), t0.elapsed().as_secs_f64(), want));
        }
        let mut reader = DirStore {
            building: false,
            ..self.clone()
        };
        let atlas = Atlas::load(&mut reader, want)?;
        let load_s = t0.elapsed().as_secs_f64();
        Ok((noted(atlas.query(q)?), load_s, want))
    }

    /// [`DirStore::find`] from the level index files alone, never the
    /// summaries or the levels (memory and time bounded at any size, what a
    /// server wants past the sizes it loads): `Ok(Err(why))` when an index
    /// is missing, stale or damaged; a bad query is an error as in `find`.
    pub fn find_indexed(&self, q: &Query) -> Result<Result<QueryAnswer, String>, AtlasError> {
        let want = self.sizes_wanted(q.max_cells)?;
        let filter = ValueFilter::new(q)?;
        Ok(self.indexed(q, &filter, want))
    }

    /// `q` answered from the index files of levels `1..=max`, or why not
    /// (an index missing, stale or damaged: then the caller reads the
    /// summaries or the levels, and says so).
    pub(crate) fn indexed(
        &self,
        q: &Query,
        filter: &ValueFilter,
        max: usize,
    ) -> Result<QueryAnswer, String> {
        let mut set = IndexSet::open(
            max,
            self.key,
            |c| self.index_path(c),
            |c| self.path(c, None),
        )?;
        set.query(q, filter, max).map_err(|e| e.to_string())
    }

    /// The sizes to read: `max_cells`, default every level present;
    /// [`AtlasError::NotBuilt`] when the directory holds fewer (or none).
    fn sizes_wanted(&self, max_cells: Option<usize>) -> Result<usize, AtlasError> {
        let have = self.levels_present()?;
        let want = max_cells.unwrap_or(have);
        if want == 0 || want > have {
            return Err(AtlasError::NotBuilt {
                have,
                want: want.max(1),
            });
        }
        Ok(want)
    }

    /// The largest size `n` such that every level `1..=n` has a file (not
    /// checked; loading checks). A level file missing below one that is
    /// there is [`AtlasError::MissingLevel`]: a directory with a level
    /// deleted would otherwise answer as a smaller atlas, without a word.
    pub fn levels_present(&self) -> Result<usize, AtlasError> {
        let mut n = 0;
        while n < Shape::MAX_CELLS && self.path(n + 1, None).exists() {
            n += 1;
        }
        if let Some(top) = (n + 2..=Shape::MAX_CELLS)
            .rev()
            .find(|&k| self.path(k, None).exists())
        {
            return Err(AtlasError::MissingLevel {
                path: self.path(n + 1, None).display().to_string(),
                missing: n + 1,
                top,
            });
        }
        Ok(n)
    }
}

impl AtlasStore for DirStore {
    fn load_level(&mut self, cells: usize, value_base: u32) -> Result<Option<Level>, AtlasError> {
        let level = self.read(cells, None, value_base)?;
        if let Some(l) = &level {
            // a directory from before summaries: add the missing one
            let no_summary = !self.summary_path(cells).exists();
            // a build killed between a level and its index, or an index
            // from before indexes: write it now
            let no_index = self.building && self.index_state(cells, value_base, false).is_err();
            if no_summary || no_index {
                let mut all = self.values_below(cells)?;
                all.extend(l.values.iter().cloned());
                if no_summary {
                    self.write(&self.summary_path(cells), &encode_summary(l, &all), true)?;
                }
                if no_index {
                    self.index_from_level(l, &all, None)?;
                }
            }
        }
        Ok(level)
    }

    fn save_level(&mut self, level: &Level) -> Result<(), AtlasError> {
        // the summary needs the negatives of old values too
        let below = if level.cells > 1 {
            self.values_below(level.cells)?
        } else {
            Vec::new()
        };
        let mut all = below;
        all.extend(level.values.iter().cloned());
        let sum = self.summary_path(level.cells);
        let path = self.path(level.cells, None);
        let bytes = encode_level(level, None);
        // summary first: a kill between the two leaves no level without
        // its summary (the level is then recomputed)
        let files = || -> Result<(), AtlasError> {
            self.write(&sum, &encode_summary(level, &all), true)?;
            self.write(&path, &bytes, true)
        };
        if self.threads < 2 {
            files()?;
            return self.index_from_level(level, &all, None);
        }
        // The index is tied to the level's length and last 8 bytes, known
        // from its bytes before they are written: it is built beside the
        // two files (an index whose level is missing or another is never
        // believed, so its order on disk does not matter).
        let tail = tail_of(&bytes);
        // the folder first: the index's own file goes in it too
        std::fs::create_dir_all(&self.dir).map_err(|e| io_err(&self.dir, e))?;
        let (index, files) = std::thread::scope(|s| {
            let ix = s.spawn(|| self.index_from_level(level, &all, Some(tail)));
            let files = files();
            (
                ix.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
                files,
            )
        });
        files?;
        index
    }

    fn threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    fn has_level(&mut self, cells: usize) -> bool {
        self.path(cells, None).is_file()
    }

    /// Streamed from the file (every check of [`decode_level`]: sizes,
    /// order, value indices, the checksum at the end), the values' notation
    /// left unprinted; a missing summary or index is not written here.
    fn stream_level(
        &mut self,
        cells: usize,
        value_base: u32,
        each: &mut dyn FnMut(Shape, u32) -> Result<(), AtlasError>,
    ) -> Result<Option<Vec<StoredValue>>, AtlasError> {
        stream_level_file(&self.path(cells, None), self.key, cells, value_base, each)?
            .map(|values| values.into_full(value_base))
            .transpose()
    }

    fn save_shard(&mut self, level: &Level, index: usize, count: usize) -> Result<(), AtlasError> {
        let path = self.path(level.cells, Some((index, count)));
        self.write(&path, &encode_shard(level, (index, count)), false)
    }

    /// A part has the layout of a shard file (kind 1, its index and count)
    /// under its own name, `level-NN.part-K-of-N.pzal`.
    fn load_part(
        &mut self,
        cells: usize,
        value_base: u32,
        index: usize,
        count: usize,
    ) -> Result<Option<Level>, AtlasError> {
        let path = self.part_path(cells, index, count);
        // a part this store did not seal is valued again, not believed
        match self.read_at(&path, cells, Some((index, count)), value_base, true) {
            Err(AtlasError::Unsealed { .. }) => Ok(None),
            read => read,
        }
    }

    fn save_part(&mut self, part: &Level, index: usize, count: usize) -> Result<(), AtlasError> {
        let path = self.part_path(part.cells, index, count);
        self.write(&path, &encode_shard(part, (index, count)), true)
    }

    fn load_shard(
        &mut self,
        cells: usize,
        value_base: u32,
        index: usize,
        count: usize,
    ) -> Result<Option<Level>, AtlasError> {
        self.read(cells, Some((index, count)), value_base)
    }

    fn merge_level(&mut self, cells: usize, count: usize) -> Result<(u64, u64), AtlasError> {
        let m = self.merge_shards(cells, count)?;
        self.remove_files(|k| self.path(cells, Some((k, count))), count)?;
        Ok((m.classes, m.new_values))
    }

    fn remove_parts(&mut self, cells: usize, count: usize) -> Result<(), AtlasError> {
        self.remove_files(|k| self.part_path(cells, k, count), count)
    }
}

impl DirStore {
    /// Remove files `name(0..count)`, those already gone ignored.
    fn remove_files(
        &self,
        name: impl Fn(usize) -> PathBuf,
        count: usize,
    ) -> Result<(), AtlasError> {
        for path in (0..count).flat_map(|k| {
            let p = name(k);
            [seal::seal_path(&p), p]
        }) {
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => {
                    return Err(AtlasError::Io {
                        path: path.display().to_string(),
                        source,
                    })
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atlas::{Atlas, AtlasConfig, NoStore, Query};

    /// Level 6 of a small atlas, as a level.
    fn level6() -> Level {
        let atlas = Atlas::build(&AtlasConfig::new(6), &mut NoStore).unwrap();
        let below = Atlas::build(&AtlasConfig::new(5), &mut NoStore).unwrap();
        let value_base = below.values().len() as u32;
        Level {
            cells: 6,
            value_base,
            values: atlas.values()[value_base as usize..].to_vec(),
            entries: atlas.entries(6).to_vec(),
        }
    }

    /// A copy of `bytes` with its version field set to `v` and the checksum
    /// made good again.
    fn with_version(bytes: &[u8], v: u32) -> Vec<u8> {
        let mut b = bytes[..bytes.len() - 8].to_vec();
        b[8..12].copy_from_slice(&v.to_le_bytes());
        let sum = checksum(&b);
        put_u64(&mut b, sum);
        b
    }

    /// A build on one thread writes each level's summary, level and index
    /// one after another; on two, the index beside the other two (tied to
    /// the level's tail taken from its bytes before they are written). The
    /// files are the same bytes either way, and every index is believed.
    #[test]
    fn one_and_two_threads_write_the_same_files() {
        let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
        for (d, threads) in dirs.iter().zip([1, 2]) {
            let mut cfg = AtlasConfig::new(9);
            cfg.threads = threads;
            // a folder the build makes
            let mut store = DirStore::new(d.path().join("atlas"));
            let atlas = Atlas::build(&cfg, &mut store).unwrap();
            assert_eq!(store.threads, threads);
            let mut base = 0u32;
            for (cells, st) in (1..=9).zip(&atlas.stats) {
                let level = std::fs::read(store.path(cells, None)).unwrap();
                assert_eq!(
                    Some(tail_of(&level)),
                    level_tail(&store.path(cells, None)).unwrap()
                );
                if let Err(e) = store.index_state(cells, base, true) {
                    panic!("level {cells} on {threads} threads: {e}");
                }
                base += st.new_values as u32;
            }
        }
        let dirs = dirs.each_ref().map(|d| d.path().join("atlas"));
        let mut names: Vec<_> = std::fs::read_dir(&dirs[0])
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert!(names.len() >= 27, "{names:?}");
        for n in &names {
            let a = std::fs::read(dirs[0].join(n)).unwrap();
            let b = std::fs::read(dirs[1].join(n)).unwrap();
            assert!(a == b, "{n:?} differs");
        }
        assert_eq!(tail_of(&[]).len, 0);
    }

    #[test]
    fn compact_shards_round_trip_and_unknown_versions_are_refused() {
        let level = level6();
        let compact = encode_shard(&level, (1, 2));
        let full = encode_level(&level, Some((1, 2)));
        assert!(
            compact.len() * 2 < full.len(),
            "{} vs {}",
            compact.len(),
            full.len()
        );
        let base = level.value_base;
        for bytes in [&compact, &full] {
            let back = decode_level(bytes, "s.pzal", 6, Some((1, 2)), base).unwrap();
            assert_eq!(
                back, level,
                "either version reads back the level, facts and all"
            );
        }
        // a version this build does not know: one line naming the file
        let err = decode_level(
            &with_version(&compact, 4),
            "x/s.pzal",
            6,
            Some((1, 2)),
            base,
        )
        .unwrap_err()
        .to_string();
        assert!(err.starts_with("x/s.pzal: format version 4"), "{err}");
        assert!(
            err.contains("reads 1, 2 and 3") && !err.contains('\n'),
            "{err}"
        );
        // a level file (kind 0) is version 1, 2 or 3
        let lv = encode_level(&level, None);
        let err = decode_level(&with_version(&lv, 4), "l.pzal", 6, None, base)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("format version 4, this build reads 1, 2 and 3"),
            "{err}"
        );
        // a flipped bit anywhere in a compact file is caught
        for at in [20, compact.len() / 2, compact.len() - 9] {
            let mut bad = compact.clone();
            bad[at] ^= 0x10;
            assert!(decode_level(&bad, "s.pzal", 6, Some((1, 2)), base).is_err());
        }
    }

    /// `level` with every value's notation replaced (what another printer
    /// would have written).
    fn other_printer(level: &Level) -> Level {
        let mut l = level.clone();
        for v in &mut l.values {
            v.facts.display = format!("old notation of {}", v.facts.display);
        }
        l
    }

    /// A level (and its summary) in the version-1 layout, notation and all,
    /// or in the interim version 3 (the same with a printer version).
    fn with_notation(level: &Level, all: &[StoredValue], version: u32) -> (Vec<u8>, Vec<u8>) {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        put_u32(&mut out, version);
        if version == NOTATION_VERSIONED {
            put_u32(&mut out, 7);
        }
        out.push(0);
        put_u32(&mut out, level.cells as u32);
        put_u32(&mut out, 0);
        put_u32(&mut out, 1);
        put_u32(&mut out, level.value_base);
        let Ok(()) = put_values(&mut out, &level.values, true);
        put_u64(&mut out, level.entries.len() as u64);
        for (s, v) in &level.entries {
            put_shape(&mut out, s);
            put_u32(&mut out, *v);
        }
        let sum = checksum(&out);
        put_u64(&mut out, sum);
        // the summary: the same head, values with their notation
        let new = encode_summary(level, all);
        let mut sm = Vec::new();
        sm.extend_from_slice(SUM_MAGIC);
        put_u32(&mut sm, version);
        if version == NOTATION_VERSIONED {
            put_u32(&mut sm, 7);
        }
        put_u32(&mut sm, level.cells as u32);
        put_u32(&mut sm, level.value_base);
        let Ok(()) = put_values(&mut sm, &level.values, true);
        // the groups are the same bytes in both versions: after the values
        let mut v2_head = Vec::new();
        let Ok(()) = put_values(&mut v2_head, &level.values, false);
        sm.extend_from_slice(&new[20 + v2_head.len()..new.len() - 8]);
        let sum = checksum(&sm);
        put_u64(&mut sm, sum);
        (out, sm)
    }

    /// Issue 42: a level's files hold no printed notation, so builds whose
    /// printers differ write the same bytes; a version-1 file's notation (an
    /// older printer's) is not believed but printed again when read.
    #[test]
    fn level_bytes_do_not_depend_on_the_printer() {
        let level = level6();
        let old = other_printer(&level);
        assert_eq!(encode_level(&level, None), encode_level(&old, None));
        let mut all = Atlas::build(&AtlasConfig::new(5), &mut NoStore)
            .unwrap()
            .values()
            .to_vec();
        all.extend(level.values.iter().cloned());
        let mut all_old = all.clone();
        for v in &mut all_old {
            v.facts.display = "x".into();
        }
        assert_eq!(encode_summary(&level, &all), encode_summary(&old, &all_old));
        // version 1 (or 3), written by an older printer: read back in this one's
        for version in [OLD_VERSION, NOTATION_VERSIONED] {
            let (v, s) = with_notation(&old, &all_old, version);
            let back = decode_level(&v, "l.pzal", 6, None, level.value_base).unwrap();
            assert_eq!(back, level, "version {version}: notation printed again");
            let sum = decode_summary(&s, "s.pzal", 6, level.value_base).unwrap();
            assert_eq!(sum.values.len(), level.values.len(), "version {version}");
        }
        let (v1, s1) = with_notation(&old, &all_old, OLD_VERSION);
        assert_ne!(v1, encode_level(&level, None));
        let back = decode_level(&v1, "l.pzal", 6, None, level.value_base).unwrap();
        assert_eq!(back, level, "notation printed again, not believed");
        let sum = decode_summary(&s1, "s.pzal", 6, level.value_base).unwrap();
        let now =
            decode_summary(&encode_summary(&level, &all), "s.pzal", 6, level.value_base).unwrap();
        assert_eq!(sum.groups, now.groups);
        assert!(sum.values.iter().all(|v| v.facts.display.is_empty()));
        assert_eq!(
            sum.values.iter().map(|v| &v.encoding).collect::<Vec<_>>(),
            level.values.iter().map(|v| &v.encoding).collect::<Vec<_>>()
        );
        // and a directory of version-1 files answers in today's notation
        let dir = tempfile::tempdir().unwrap();
        let mut store = DirStore::new(dir.path());
        Atlas::build(&AtlasConfig::new(6), &mut store).unwrap();
        std::fs::write(dir.path().join("level-06.pzal"), &v1).unwrap();
        std::fs::write(dir.path().join("level-06.summary.pzal"), &s1).unwrap();
        // files not written by this store are not believed until adopted
        let err = Atlas::load(&mut store, 6).unwrap_err();
        assert!(matches!(err, AtlasError::Unsealed { .. }), "{err}");
        let adopted = store.adopt(None, 200, &mut |_| {}).unwrap();
        assert_eq!(adopted.len(), 6);
        assert!(adopted[..5].iter().all(|a| a.was_sealed));
        // all of level 6's 35 classes valued again by the board engine
        assert_eq!((adopted[5].was_sealed, adopted[5].verified), (false, 35));
        // a build's store prints every notation on loading; a reader's
        // (load_atlas) prints those it lists
        let loaded = Atlas::load(&mut store, 6).unwrap();
        assert_eq!(
            &loaded.values()[level.value_base as usize..],
            &level.values[..]
        );
        let read = store.load_atlas(None).unwrap();
        assert!(read.values()[level.value_base as usize..]
            .iter()
            .all(|v| v.facts.display.is_empty()));
        assert_eq!(read.report(5), loaded.report(5));
        let q = Query {
            min_temperature: Some("1".into()),
            limit: 100,
            ..Query::default()
        };
        let (ans, _, _) = store.find(&q).unwrap();
        assert_eq!(
            ans.source, "index",
            "the build's store wrote level 6's index again for the changed level file"
        );
        assert!(ans.regions.iter().all(|r| !r.value.contains("old")));
        assert_eq!(ans.regions, loaded.query(&q).unwrap().regions);
        // without the index, the version-1 summaries answer the same
        std::fs::remove_file(store.index_path(6)).unwrap();
        let (slow, _, _) = store.find(&q).unwrap();
        assert_eq!(slow.source, "summaries");
        assert_eq!(slow.regions, ans.regions);
    }

    /// A level streamed 13 bytes a read: its entries, sealed or not. With
    /// a seal the checksum is not summed as it streams (the seal's hash
    /// covers every byte), yet a flipped bit is still called damage (the
    /// checksum summed once the seal disagrees), the same bytes with their
    /// checksum made good again an edit (not the file its seal names), and
    /// a cut file truncated.
    #[test]
    fn levels_stream_in_chunks_and_damage_is_told_from_an_edit() {
        let level = level6();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("level-06.pzal");
        let key = partizan_seal::Key::from_bytes([7; partizan_seal::KEY_LEN]);
        let streamed = |sealed: bool| -> Result<Vec<(Shape, u32)>, AtlasError> {
            let by = sealed.then_some(&key);
            let (mut st, _) =
                ShardStream::open_with_values(&path, 6, None, level.value_base, by)?.unwrap();
            let mut out = Vec::new();
            while let Some(e) = st.next()? {
                out.push(e);
            }
            st.finish()?;
            Ok(out)
        };
        let good = encode_level(&level, None);
        std::fs::write(&path, &good).unwrap();
        assert_eq!(streamed(false).unwrap(), level.entries);
        write_seal(&key, &path, &seal_of(&good)).unwrap();
        assert_eq!(streamed(true).unwrap(), level.entries);
        // the last entry given another class's value: a well-formed file
        let last = *level.entries.last().unwrap();
        let other = level.entries.iter().map(|e| e.1).find(|&v| v != last.1);
        let n = good.len();
        let mut edited = good.clone();
        edited[n - 12..n - 8].copy_from_slice(&other.unwrap().to_le_bytes());
        std::fs::write(&path, &edited).unwrap();
        let err = streamed(true).unwrap_err();
        assert!(err.to_string().contains("checksum mismatch"), "{err}");
        assert!(streamed(false)
            .unwrap_err()
            .to_string()
            .contains("checksum mismatch"));
        let sum = checksum(&edited[..n - 8]);
        edited[n - 8..].copy_from_slice(&sum.to_le_bytes());
        std::fs::write(&path, &edited).unwrap();
        let err = streamed(true).unwrap_err();
        assert!(matches!(err, AtlasError::Unsealed { .. }), "{err}");
        assert_ne!(
            streamed(false).unwrap(),
            level.entries,
            "unsealed, it reads"
        );
        std::fs::write(&path, &good[..n - 3]).unwrap();
        for sealed in [false, true] {
            let err = streamed(sealed).unwrap_err().to_string();
            assert!(
                err.contains("truncated") || err.contains("trailing"),
                "{err}"
            );
        }
    }

    #[test]
    fn varints_round_trip_and_overflow_is_refused() {
        for v in [0u128, 1, 127, 128, 300, u128::from(u64::MAX), u128::MAX] {
            let mut out = Vec::new();
            put_varint(&mut out, v);
            let mut r = Reader {
                b: &out,
                at: 0,
                path: "v",
            };
            assert_eq!(r.varint().unwrap(), v);
            assert_eq!(r.at, out.len());
        }
        let too_big = [0xffu8; 18]
            .iter()
            .copied()
            .chain([0x04])
            .collect::<Vec<_>>();
        let mut r = Reader {
            b: &too_big,
            at: 0,
            path: "v",
        };
        assert!(r.varint().is_err());
    }
}
