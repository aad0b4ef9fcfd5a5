//! The atlas index: one file per level, `level-NN.index.pzal`, from which
//! `partizan atlas find` answers in milliseconds without reading the level.
//!
//! A level's entries (square-group classes in catalogue order) are written
//! twice more, grouped: by value (for `--value`) and by class of value, a
//! class being a kind and a temperature (for `--kind` and
//! `--min-temperature`). A find reads the small directories and then only
//! the start of the matching groups, merged in catalogue order, up to
//! `--limit`; the totals come from the directories' counts. Memory is a
//! few pages per level, whatever the level's size.
//!
//! File layout (version [`INDEX_VERSION`], little-endian): a sequence of
//! pages of [`PAGE`] bytes, each `PAGE - 8` bytes of payload and a tag: the
//! first 8 bytes of a keyed BLAKE3 MAC under the user's key
//! ([`partizan_seal::user_key`]) of (the level file's checksum, the page
//! number, the payload), so every page is checked as it is read, a page of
//! another level's index (or of an index of this level before it was
//! rebuilt) does not check, and neither does an index edited by hand or
//! made with another user's key, whatever checksums were computed again
//! (version 1 had an FNV-1a checksum there, which a forger can compute: it
//! is passed over, and `partizan atlas index` or `atlas seal` writes it
//! again). An index is this user's cache: two users' indexes of one level
//! differ in their tags. The payloads, end to end, hold:
//!
//! ```text
//! values    n x { u64 encoding offset, u32 length, u32 negative's index,
//!                 u8 kind tag, u64 a, i64 b, i64 temperature numerator,
//!                 u32 temperature exponent }       the level's new values
//! encodings their canonical encodings, end to end
//! hashes    n x { u64 FNV-1a of the encoding, u32 value index }, sorted
//! groups    per value: its entries' shapes (see below)
//! lists     per class: its entries' shapes and value indices
//! value dir per value with entries: { u32 value, u64 entries, u64 doubles
//!           (entries standing for two regions), u64 offset, u64 bytes },
//!           sorted by value
//! class dir per class: { u8 kind tag, u64 a, i64 b, i64 t num, u32 t exp,
//!           u64 regions, u64 entries, u64 offset, u64 bytes }, sorted
//! (padding to the last page)
//! header    the last page: magic "PZATIDX1", u32 version, u32 cells,
//!           u32 value base, u32 n, u64 level file length, u64 level file
//!           checksum, then the offsets and counts of the sections
//! ```
//!
//! A group or list spells its entries in catalogue order: `varint 0, u8
//! width, u8 height, varint mask` where the box changes, else `varint
//! (mask - previous mask)`; a list follows each with `varint value`. The
//! index holds no printed notation: a value is printed from its encoding
//! when it is listed.
//!
//! An index is believed only when its header page checks against the level
//! file beside it (length and checksum) and its value base follows the
//! level below; anything else (missing, stale, damaged, another version) is
//! passed over with a note and the query is answered the slow way.

use std::collections::{BinaryHeap, HashMap};
use std::path::{Path, PathBuf};

use partizan_core::{Arena, Dyadic};

use crate::atlas::{
    class_regions, AtlasError, Query, QueryAnswer, RegionRow, StoredValue, ValueFilter, ValueKind,
};
use crate::atlas_store::{commit_file, io_err, kind_code, kind_of, put_varint, Fnv, Src};
use crate::shape::Shape;

/// Bytes a page takes on disk (its last 8 are its checksum).
pub const PAGE: usize = 4096;
const PAYLOAD: usize = PAGE - 8;
const MAGIC: &[u8; 8] = b"PZATIDX1";
/// The index file format version.
pub const INDEX_VERSION: u32 = 2;
/// Entries gathered in memory at once while an index is written (a larger
/// level is read again for each batch of values or classes).
pub const INDEX_BATCH: usize = 1 << 25;
const VREC: usize = 45;
const HREC: usize = 12;
const VDIR: usize = 36;
const CDIR: usize = 61;

/// A level file's length and checksum (its last 8 bytes): what an index
/// is tied to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LevelTail {
    pub(crate) len: u64,
    pub(crate) sum: u64,
}

/// The tail of a level file's bytes, before they are written: what
/// [`level_tail`] reads back from the file.
pub(crate) fn tail_of(bytes: &[u8]) -> LevelTail {
    let mut t = [0u8; 8];
    if let Some(last) = bytes.len().checked_sub(8).map(|at| &bytes[at..]) {
        t.copy_from_slice(last);
    }
    LevelTail {
        len: bytes.len() as u64,
        sum: u64::from_le_bytes(t),
    }
}

/// The tail of the level file at `path`, `None` if there is none.
pub(crate) fn level_tail(path: &Path) -> Result<Option<LevelTail>, AtlasError> {
    use std::os::unix::fs::FileExt;
    let f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(path, e)),
    };
    let len = f.metadata().map_err(|e| io_err(path, e))?.len();
    if len < 16 {
        return Err(AtlasError::Corrupt {
            path: path.display().to_string(),
            detail: "too short for a level".into(),
        });
    }
    let mut t = [0u8; 8];
    f.read_exact_at(&mut t, len - 8)
        .map_err(|e| io_err(path, e))?;
    Ok(Some(LevelTail {
        len,
        sum: u64::from_le_bytes(t),
    }))
}

/// What a page's tag is keyed by: the user's key and the level file's
/// checksum.
#[derive(Clone, Copy)]
pub(crate) struct PageKey {
    pub(crate) key: &'static partizan_seal::Key,
    pub(crate) level: u64,
}

const PAGE_DOMAIN: &str = "partizan atlas index page 2";

fn page_tag(k: PageKey, page: u64, payload: &[u8]) -> u64 {
    let mut m = k.key.mac(PAGE_DOMAIN);
    m.update(&k.level.to_le_bytes())
        .update(&page.to_le_bytes())
        .update(payload);
    let tag = m.finish();
    u64::from_le_bytes(tag[..8].try_into().expect("8 bytes"))
}

/// Writes payload bytes as checksummed pages, to a temporary name renamed
/// over the target at the end.
struct PagedWriter {
    file: std::io::BufWriter<std::fs::File>,
    page: Vec<u8>,
    pages: u64,
    salt: PageKey,
    tmp: PathBuf,
    path: PathBuf,
}

impl PagedWriter {
    fn create(path: &Path, salt: PageKey) -> Result<PagedWriter, AtlasError> {
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let file = std::fs::File::create(&tmp).map_err(|e| io_err(&tmp, e))?;
        Ok(PagedWriter {
            file: std::io::BufWriter::with_capacity(1 << 20, file),
            page: Vec::with_capacity(PAGE),
            pages: 0,
            salt,
            tmp,
            path: path.to_path_buf(),
        })
    }

    /// The logical offset (payload bytes written so far).
    fn pos(&self) -> u64 {
        self.pages * PAYLOAD as u64 + self.page.len() as u64
    }

    fn put(&mut self, mut b: &[u8]) -> Result<(), AtlasError> {
        while !b.is_empty() {
            let n = (PAYLOAD - self.page.len()).min(b.len());
            self.page.extend_from_slice(&b[..n]);
            b = &b[n..];
            if self.page.len() == PAYLOAD {
                self.emit()?;
            }
        }
        Ok(())
    }

    fn emit(&mut self) -> Result<(), AtlasError> {
        use std::io::Write;
        self.page.resize(PAYLOAD, 0);
        let sum = page_tag(self.salt, self.pages, &self.page);
        self.page.extend_from_slice(&sum.to_le_bytes());
        self.file
            .write_all(&self.page)
            .map_err(|e| io_err(&self.tmp, e))?;
        self.page.clear();
        self.pages += 1;
        Ok(())
    }

    /// Pad to a page boundary, write `header` as the last page, sync and
    /// rename.
    fn finish(mut self, header: &[u8]) -> Result<(), AtlasError> {
        if !self.page.is_empty() {
            self.emit()?;
        }
        assert!(header.len() <= PAYLOAD, "an index header fits a page");
        self.page.extend_from_slice(header);
        self.emit()?;
        commit_file(self.file, &self.tmp, &self.path)
    }
}

/// A value's class: its kind and temperature.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct ClassKey {
    tag: u8,
    a: u64,
    b: i64,
    t_num: i64,
    t_exp: u32,
}

impl ClassKey {
    fn of(kind: ValueKind, t: Dyadic) -> ClassKey {
        let (tag, a, b) = kind_code(kind);
        ClassKey {
            tag,
            a,
            b,
            t_num: t.num(),
            t_exp: t.exp(),
        }
    }
}

/// Encodes a group's or a list's entries.
#[derive(Default)]
struct ListWriter {
    buf: Vec<u8>,
    prev: Option<Shape>,
}

impl ListWriter {
    fn entry(&mut self, s: Shape, v: Option<u32>) {
        match self.prev {
            Some(q) if (q.width(), q.height()) == (s.width(), s.height()) => {
                put_varint(&mut self.buf, s.bits() - q.bits());
            }
            _ => {
                put_varint(&mut self.buf, 0);
                self.buf.push(s.width() as u8);
                self.buf.push(s.height() as u8);
                put_varint(&mut self.buf, s.bits());
            }
        }
        if let Some(v) = v {
            put_varint(&mut self.buf, u128::from(v));
        }
        self.prev = Some(s);
    }
}

/// Replays a level's entries, in catalogue order, into a callback (as
/// often as asked: a large level is read once per batch).
pub(crate) type Replay<'a> =
    dyn FnMut(&mut dyn FnMut(Shape, u32) -> Result<(), AtlasError>) -> Result<(), AtlasError> + 'a;

/// Write the index of level `cells` (its new values start at `base`;
/// `all` is every value to this level, for the negatives, kinds and
/// temperatures of old values) tied to the level file's `tail`. `batch`
/// bounds the entries held at once.
#[allow(clippy::too_many_arguments)] // each is one fact about the index
pub(crate) fn write_index(
    path: &Path,
    key: &'static partizan_seal::Key,
    cells: usize,
    base: u32,
    all: &[StoredValue],
    tail: LevelTail,
    replay: &mut Replay<'_>,
    batch: usize,
) -> Result<(), AtlasError> {
    let top = all.len() as u32;
    let class_of = |v: u32| {
        let f = &all[v as usize].facts;
        ClassKey::of(f.kind, f.temperature)
    };
    // pass 1: counts per value and per class
    let mut vcount: HashMap<u32, (u64, u64)> = HashMap::new();
    let mut ccount: HashMap<ClassKey, (u64, u64)> = HashMap::new();
    replay(&mut |s, v| {
        if v >= top {
            return Err(AtlasError::Corrupt {
                path: format!("level {cells}"),
                detail: format!("value index {v} beyond {top}"),
            });
        }
        let neg = all[v as usize].facts.neg;
        let k = class_regions(s, v, neg).1;
        let e = vcount.entry(v).or_default();
        e.0 += 1;
        let (c1, c2) = (class_of(v), class_of(neg));
        let e = ccount.entry(c1).or_default();
        e.0 += 1;
        e.1 += 1;
        if k == 2 {
            vcount.get_mut(&v).expect("counted").1 += 1;
            let e = ccount.entry(c2).or_default();
            e.0 += 1;
            if c2 != c1 {
                e.1 += 1;
            }
        }
        Ok(())
    })?;
    let mut w = PagedWriter::create(
        path,
        PageKey {
            key,
            level: tail.sum,
        },
    )?;
    // values, encodings, hashes
    let new = &all[base as usize..];
    let values_off = w.pos();
    let mut enc_at = 0u64;
    let mut rec = Vec::with_capacity(VREC);
    for v in new {
        rec.clear();
        rec.extend_from_slice(&enc_at.to_le_bytes());
        rec.extend_from_slice(&(v.encoding.len() as u32).to_le_bytes());
        rec.extend_from_slice(&v.facts.neg.to_le_bytes());
        let (tag, a, b) = kind_code(v.facts.kind);
        rec.push(tag);
        rec.extend_from_slice(&a.to_le_bytes());
        rec.extend_from_slice(&b.to_le_bytes());
        rec.extend_from_slice(&v.facts.temperature.num().to_le_bytes());
        rec.extend_from_slice(&v.facts.temperature.exp().to_le_bytes());
        w.put(&rec)?;
        enc_at += v.encoding.len() as u64;
    }
    let enc_off = w.pos();
    for v in new {
        w.put(&v.encoding)?;
    }
    let hash_off = w.pos();
    let mut hashes: Vec<(u64, u32)> = new
        .iter()
        .enumerate()
        .map(|(i, v)| (enc_hash(&v.encoding), base + i as u32))
        .collect();
    hashes.sort_unstable();
    for (h, i) in hashes {
        w.put(&h.to_le_bytes())?;
        w.put(&i.to_le_bytes())?;
    }
    // groups by value, in batches of values
    let mut vals: Vec<u32> = vcount.keys().copied().collect();
    vals.sort_unstable();
    let mut vdir: Vec<(u32, u64, u64, u64, u64)> = Vec::with_capacity(vals.len());
    for run in batches(&vals, |v| vcount[v].0, batch) {
        if let &[only] = run {
            // one value (perhaps heavier than the batch): streamed
            let at = stream_list(&mut w, replay, cells, |_, v| (v == only).then_some(None))?;
            vdir.push((only, vcount[&only].0, vcount[&only].1, at.0, at.1));
            continue;
        }
        let (lo, hi) = (run[0], run[run.len() - 1]);
        let mut got: Vec<(u32, Shape)> = Vec::new();
        replay(&mut |s, v| {
            if (lo..=hi).contains(&v) {
                got.push((v, s));
            }
            Ok(())
        })?;
        got.sort_unstable();
        for g in got.chunk_by(|x, y| x.0 == y.0) {
            let mut lw = ListWriter::default();
            for &(_, s) in g {
                lw.entry(s, None);
            }
            let v = g[0].0;
            vdir.push((v, vcount[&v].0, vcount[&v].1, w.pos(), lw.buf.len() as u64));
            w.put(&lw.buf)?;
        }
    }
    // lists by class, in batches of classes
    let mut classes: Vec<ClassKey> = ccount.keys().copied().collect();
    classes.sort_unstable();
    let cid: HashMap<ClassKey, u32> = classes
        .iter()
        .enumerate()
        .map(|(i, &c)| (c, i as u32))
        .collect();
    let ids: Vec<u32> = (0..classes.len() as u32).collect();
    let mut cdir: Vec<(ClassKey, u64, u64, u64, u64)> = Vec::with_capacity(classes.len());
    for run in batches(&ids, |&c| ccount[&classes[c as usize]].1, batch) {
        if let &[only] = run {
            // one class (perhaps heavier than the batch): streamed
            let at = stream_list(&mut w, replay, cells, |s, v| {
                let neg = all[v as usize].facts.neg;
                let c1 = cid[&class_of(v)];
                let hit =
                    c1 == only || (class_regions(s, v, neg).1 == 2 && cid[&class_of(neg)] == only);
                hit.then_some(Some(v))
            })?;
            let c = classes[only as usize];
            let (regions, entries) = ccount[&c];
            cdir.push((c, regions, entries, at.0, at.1));
            continue;
        }
        let (lo, hi) = (run[0], run[run.len() - 1]);
        let mut got: Vec<(u32, Shape, u32)> = Vec::new();
        replay(&mut |s, v| {
            let neg = all[v as usize].facts.neg;
            let c1 = cid[&class_of(v)];
            if (lo..=hi).contains(&c1) {
                got.push((c1, s, v));
            }
            if class_regions(s, v, neg).1 == 2 {
                let c2 = cid[&class_of(neg)];
                if c2 != c1 && (lo..=hi).contains(&c2) {
                    got.push((c2, s, v));
                }
            }
            Ok(())
        })?;
        got.sort_unstable();
        for g in got.chunk_by(|x, y| x.0 == y.0) {
            let mut lw = ListWriter::default();
            for &(_, s, v) in g {
                lw.entry(s, Some(v));
            }
            let c = classes[g[0].0 as usize];
            let (regions, entries) = ccount[&c];
            cdir.push((c, regions, entries, w.pos(), lw.buf.len() as u64));
            w.put(&lw.buf)?;
        }
    }
    let vdir_off = w.pos();
    let mut rec = Vec::with_capacity(CDIR);
    for &(v, e, d, off, len) in &vdir {
        rec.clear();
        rec.extend_from_slice(&v.to_le_bytes());
        for x in [e, d, off, len] {
            rec.extend_from_slice(&x.to_le_bytes());
        }
        w.put(&rec)?;
    }
    let cdir_off = w.pos();
    for &(c, r, e, off, len) in &cdir {
        rec.clear();
        rec.push(c.tag);
        rec.extend_from_slice(&c.a.to_le_bytes());
        rec.extend_from_slice(&c.b.to_le_bytes());
        rec.extend_from_slice(&c.t_num.to_le_bytes());
        rec.extend_from_slice(&c.t_exp.to_le_bytes());
        for x in [r, e, off, len] {
            rec.extend_from_slice(&x.to_le_bytes());
        }
        w.put(&rec)?;
    }
    let data_end = w.pos();
    let h = Header {
        cells: cells as u32,
        base,
        n: top - base,
        tail,
        values_off,
        enc_off,
        hash_off,
        vdir_off,
        nvdir: vdir.len() as u64,
        cdir_off,
        ncdir: cdir.len() as u64,
        data_end,
    };
    w.finish(&h.encode())
}

/// Bytes of a streamed list held before they are written.
const STREAM_FLUSH: usize = 1 << 16;

/// Write one group or list straight from a replay of the level, holding
/// none of its entries: those that `pick` takes (with `Some(value)` to
/// spell the value too), in the replay's catalogue order (checked: the
/// deltas need it). Returns where the list starts and its bytes.
fn stream_list(
    w: &mut PagedWriter,
    replay: &mut Replay<'_>,
    cells: usize,
    mut pick: impl FnMut(Shape, u32) -> Option<Option<u32>>,
) -> Result<(u64, u64), AtlasError> {
    let start = w.pos();
    let mut lw = ListWriter::default();
    replay(&mut |s, v| {
        let Some(listed) = pick(s, v) else {
            return Ok(());
        };
        if lw.prev.is_some_and(|q| q >= s) {
            return Err(AtlasError::Corrupt {
                path: format!("level {cells}"),
                detail: format!("entries out of catalogue order at {s}"),
            });
        }
        lw.entry(s, listed);
        if lw.buf.len() >= STREAM_FLUSH {
            w.put(&lw.buf)?;
            lw.buf.clear();
        }
        Ok(())
    })?;
    w.put(&lw.buf)?;
    Ok((start, w.pos() - start))
}

/// Consecutive runs of `items` whose weights sum to at most `batch` (a
/// single heavier item makes a run of its own, which is streamed).
fn batches<T>(items: &[T], weight: impl Fn(&T) -> u64, batch: usize) -> Vec<&[T]> {
    let mut out = Vec::new();
    let (mut start, mut sum) = (0, 0u64);
    for (i, x) in items.iter().enumerate() {
        let wt = weight(x);
        if i > start && sum + wt > batch as u64 {
            out.push(&items[start..i]);
            (start, sum) = (i, 0);
        }
        sum += wt;
    }
    if start < items.len() {
        out.push(&items[start..]);
    }
    out
}

fn enc_hash(enc: &[u8]) -> u64 {
    let mut h = Fnv::new();
    h.update(enc);
    h.0
}

/// The last page of an index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Header {
    cells: u32,
    base: u32,
    n: u32,
    tail: LevelTail,
    values_off: u64,
    enc_off: u64,
    hash_off: u64,
    vdir_off: u64,
    nvdir: u64,
    cdir_off: u64,
    ncdir: u64,
    data_end: u64,
}

impl Header {
    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(128);
        out.extend_from_slice(MAGIC);
        for x in [INDEX_VERSION, self.cells, self.base, self.n] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        for x in [
            self.tail.len,
            self.tail.sum,
            self.values_off,
            self.enc_off,
            self.hash_off,
            self.vdir_off,
            self.nvdir,
            self.cdir_off,
            self.ncdir,
            self.data_end,
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    fn decode(b: &[u8]) -> Result<Header, String> {
        if &b[..8] != MAGIC {
            return Err("not an atlas index (magic)".into());
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let version = u32_at(8);
        if version != INDEX_VERSION {
            return Err(format!(
                "index format version {version}, this build reads {INDEX_VERSION}"
            ));
        }
        let at = |k: usize| u64_at(24 + 8 * k);
        Ok(Header {
            cells: u32_at(12),
            base: u32_at(16),
            n: u32_at(20),
            tail: LevelTail {
                len: at(0),
                sum: at(1),
            },
            values_off: at(2),
            enc_off: at(3),
            hash_off: at(4),
            vdir_off: at(5),
            nvdir: at(6),
            cdir_off: at(7),
            ncdir: at(8),
            data_end: at(9),
        })
    }
}

/// A value as the index lists it.
#[derive(Clone, Copy, Debug)]
struct ValueRec {
    enc_at: u64,
    enc_len: u32,
    neg: u32,
    kind: ValueKind,
    temperature: Dyadic,
}

/// One directory row: a value's group or a class's list.
#[derive(Clone, Copy, Debug)]
struct ListRef {
    entries: u64,
    off: u64,
    len: u64,
}

/// An index file opened for reading: its header checked against the level
/// file, pages read and checked on demand.
pub(crate) struct LevelIndex {
    file: std::fs::File,
    path: String,
    salt: PageKey,
    h: Header,
    cache: HashMap<u64, Box<[u8]>>,
}

impl LevelIndex {
    /// The index at `path` of level `cells` whose values start at `base`,
    /// tied to the level file's `tail`: an error (the reason it is not
    /// believed) when missing, stale, damaged or inconsistent.
    pub(crate) fn open(
        path: &Path,
        key: &'static partizan_seal::Key,
        cells: usize,
        base: u32,
        tail: LevelTail,
    ) -> Result<LevelIndex, String> {
        let name = path.display().to_string();
        let file = std::fs::File::open(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                format!("{name} is missing (run `partizan atlas index`)")
            } else {
                format!("{name}: {e}")
            }
        })?;
        let len = file.metadata().map_err(|e| format!("{name}: {e}"))?.len();
        if len < PAGE as u64 || !len.is_multiple_of(PAGE as u64) {
            return Err(format!("{name}: not whole pages"));
        }
        let mut ix = LevelIndex {
            file,
            path: name.clone(),
            salt: PageKey {
                key,
                level: tail.sum,
            },
            h: Header::default(),
            cache: HashMap::new(),
        };
        let last = len / PAGE as u64 - 1;
        let page = match ix.page(last) {
            Ok(page) => page,
            Err(_) => {
                // an index of another format says so (its tag is not this one's)
                let mut raw = vec![0u8; PAYLOAD];
                let read = std::os::unix::fs::FileExt::read_exact_at(
                    &ix.file,
                    &mut raw,
                    last * PAGE as u64,
                );
                return Err(match read.map(|()| Header::decode(&raw)) {
                    Ok(Err(e)) if e.contains("version") => format!("{name}: {e}"),
                    _ => format!("{name} does not belong to its level file or to your key (stale, damaged, another user's or edited)"),
                });
            }
        };
        let h = Header::decode(page).map_err(|e| format!("{name}: {e}"))?;
        if h.tail != tail {
            return Err(format!("{name} was made for another level file"));
        }
        if h.cells as usize != cells || h.base != base {
            return Err(format!(
                "{name} holds {} cells from value {}, expected {cells} from {base}",
                h.cells, h.base
            ));
        }
        let n = u64::from(h.n);
        // saturating: a forged count cannot wrap round into a small size
        let end = |off: u64, count: u64, size: usize| {
            off.saturating_add(count.saturating_mul(size as u64))
        };
        let ordered = end(h.values_off, n, VREC) <= h.enc_off
            && h.enc_off <= h.hash_off
            && end(h.hash_off, n, HREC) <= h.vdir_off
            && end(h.vdir_off, h.nvdir, VDIR) <= h.cdir_off
            && end(h.cdir_off, h.ncdir, CDIR) == h.data_end
            && h.data_end <= last * PAYLOAD as u64;
        if !ordered {
            return Err(format!("{name}: sections out of place"));
        }
        ix.h = h;
        Ok(ix)
    }

    /// Read and check every page (what `partizan atlas index` does before
    /// it keeps an index; a find checks only the pages it reads).
    pub(crate) fn check_pages(&mut self) -> Result<(), AtlasError> {
        let pages = self.h.data_end.div_ceil(PAYLOAD as u64);
        for k in 0..pages {
            self.page(k)?;
        }
        Ok(())
    }

    /// Values this level introduced.
    pub(crate) fn range(&self) -> (u32, u32) {
        (self.h.base, self.h.base + self.h.n)
    }

    fn bad(&self, detail: &str) -> AtlasError {
        AtlasError::Corrupt {
            path: self.path.clone(),
            detail: detail.into(),
        }
    }

    fn page(&mut self, k: u64) -> Result<&[u8], AtlasError> {
        use std::os::unix::fs::FileExt;
        if !self.cache.contains_key(&k) {
            if self.cache.len() >= 1024 {
                self.cache.clear();
            }
            let mut b = vec![0u8; PAGE];
            self.file
                .read_exact_at(&mut b, k * PAGE as u64)
                .map_err(|e| self.bad(&format!("read page {k}: {e}")))?;
            let sum = u64::from_le_bytes(b[PAYLOAD..].try_into().expect("8 bytes"));
            b.truncate(PAYLOAD);
            if page_tag(self.salt, k, &b) != sum {
                return Err(self.bad(&format!("page {k}: checksum mismatch")));
            }
            self.cache.insert(k, b.into());
        }
        Ok(&self.cache[&k])
    }

    /// `len` payload bytes from logical offset `at` (within the data).
    fn read(&mut self, at: u64, len: usize) -> Result<Vec<u8>, AtlasError> {
        if at.saturating_add(len as u64) > self.h.data_end {
            return Err(self.bad("read past the data"));
        }
        let mut out = Vec::with_capacity(len);
        let mut p = at;
        while out.len() < len {
            let (k, i) = (p / PAYLOAD as u64, (p % PAYLOAD as u64) as usize);
            let n = (PAYLOAD - i).min(len - out.len());
            let page = self.page(k)?;
            out.extend_from_slice(&page[i..i + n]);
            p += n as u64;
        }
        Ok(out)
    }

    fn value_rec(&mut self, v: u32) -> Result<ValueRec, AtlasError> {
        let i = u64::from(v - self.h.base);
        let b = self.read(self.h.values_off + i * VREC as u64, VREC)?;
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        let kind = kind_of(b[16], u64_at(17), u64_at(25) as i64).ok_or_else(|| self.bad("kind"))?;
        let temperature = Dyadic::new(u64_at(33) as i64, u32_at(41))
            .map_err(|e| self.bad(&format!("dyadic: {e}")))?;
        Ok(ValueRec {
            enc_at: u64_at(0),
            enc_len: u32_at(8),
            neg: u32_at(12),
            kind,
            temperature,
        })
    }

    fn encoding(&mut self, r: &ValueRec) -> Result<Vec<u8>, AtlasError> {
        if r.enc_at.saturating_add(u64::from(r.enc_len)) > self.h.hash_off - self.h.enc_off {
            return Err(self.bad("encoding out of place"));
        }
        self.read(self.h.enc_off + r.enc_at, r.enc_len as usize)
    }

    /// The index of the value with encoding `enc` among this level's.
    fn find(&mut self, enc: &[u8]) -> Result<Option<u32>, AtlasError> {
        let want = enc_hash(enc);
        let (mut lo, mut hi) = (0u64, u64::from(self.h.n));
        while lo < hi {
            let mid = (lo + hi) / 2;
            let b = self.read(self.h.hash_off + mid * HREC as u64, 8)?;
            if u64::from_le_bytes(b.try_into().expect("8 bytes")) < want {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for i in lo..u64::from(self.h.n) {
            let b = self.read(self.h.hash_off + i * HREC as u64, HREC)?;
            if u64::from_le_bytes(b[..8].try_into().expect("8 bytes")) != want {
                break;
            }
            let v = u32::from_le_bytes(b[8..].try_into().expect("4 bytes"));
            let (a, z) = self.range();
            if !(a..z).contains(&v) {
                return Err(self.bad("hashed value out of range"));
            }
            let r = self.value_rec(v)?;
            if self.encoding(&r)? == enc {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    /// Value `v`'s group in this level: (entries, doubles, the list).
    fn group(&mut self, v: u32) -> Result<Option<(u64, ListRef)>, AtlasError> {
        let (mut lo, mut hi) = (0u64, self.h.nvdir);
        while lo < hi {
            let mid = (lo + hi) / 2;
            let b = self.read(self.h.vdir_off + mid * VDIR as u64, VDIR)?;
            let got = u32::from_le_bytes(b[..4].try_into().expect("4 bytes"));
            if got == v {
                let u = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
                let (entries, doubles) = (u(4), u(12));
                if doubles > entries {
                    return Err(self.bad("more doubles than entries"));
                }
                return Ok(Some((
                    doubles,
                    ListRef {
                        entries,
                        off: u(20),
                        len: u(28),
                    },
                )));
            }
            if got < v {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok(None)
    }

    /// Every class of this level: (kind, temperature, regions, the list).
    fn classes(&mut self) -> Result<Vec<(ValueKind, Dyadic, u64, ListRef)>, AtlasError> {
        let n = usize::try_from(self.h.ncdir).map_err(|_| self.bad("class count"))?;
        let b = self.read(self.h.cdir_off, n * CDIR)?;
        b.chunks_exact(CDIR)
            .map(|r| {
                let u = |i: usize| u64::from_le_bytes(r[i..i + 8].try_into().expect("8 bytes"));
                let kind = kind_of(r[0], u(1), u(9) as i64).ok_or_else(|| self.bad("kind"))?;
                let t_exp = u32::from_le_bytes(r[25..29].try_into().expect("4 bytes"));
                let t = Dyadic::new(u(17) as i64, t_exp)
                    .map_err(|e| self.bad(&format!("dyadic: {e}")))?;
                Ok((
                    kind,
                    t,
                    u(29),
                    ListRef {
                        entries: u(37),
                        off: u(45),
                        len: u(53),
                    },
                ))
            })
            .collect()
    }
}

/// A group or list read entry by entry (a page at a time).
struct ListCursor {
    at: u64,
    end: u64,
    left: u64,
    value: Option<u32>,
    prev: Option<Shape>,
    buf: Vec<u8>,
    pos: usize,
}

impl ListCursor {
    /// A value's group (`value` is its index) or a class's list (`None`:
    /// each entry carries its value).
    fn new(r: ListRef, value: Option<u32>) -> ListCursor {
        ListCursor {
            at: r.off,
            end: r.off.saturating_add(r.len),
            left: r.entries,
            value,
            prev: None,
            buf: Vec::new(),
            pos: 0,
        }
    }

    fn byte(&mut self, ix: &mut LevelIndex) -> Result<u8, AtlasError> {
        if self.pos == self.buf.len() {
            let n = (self.end - self.at).min(PAYLOAD as u64) as usize;
            if n == 0 {
                return Err(ix.bad("list runs past its end"));
            }
            self.buf = ix.read(self.at, n)?;
            self.at += n as u64;
            self.pos = 0;
        }
        self.pos += 1;
        Ok(self.buf[self.pos - 1])
    }

    fn varint(&mut self, ix: &mut LevelIndex) -> Result<u128, AtlasError> {
        ListSrc {
            cur: self,
            ix,
            got: Vec::with_capacity(1),
        }
        .varint()
    }

    /// The next entry (shape of `cells` cells, strictly after the one
    /// before; value below `top`), `None` at the end.
    fn next(
        &mut self,
        ix: &mut LevelIndex,
        cells: usize,
        top: u32,
    ) -> Result<Option<(Shape, u32)>, AtlasError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let head = self.varint(ix)?;
        let (w, h, bits) = match self.prev {
            Some(q) if head != 0 => {
                let bits = q
                    .bits()
                    .checked_add(head)
                    .ok_or_else(|| ix.bad("mask step"))?;
                (q.width(), q.height(), bits)
            }
            _ if head != 0 => return Err(ix.bad("first entry without a box")),
            _ => {
                let (w, h) = (self.byte(ix)? as usize, self.byte(ix)? as usize);
                (w, h, self.varint(ix)?)
            }
        };
        let s = Shape::new(w, h, bits).map_err(|e| ix.bad(&format!("shape: {e}")))?;
        if s.len() != cells || self.prev.is_some_and(|p| p >= s) {
            return Err(ix.bad(&format!("shape {s} out of order or size")));
        }
        self.prev = Some(s);
        let v = match self.value {
            Some(v) => v,
            None => u32::try_from(self.varint(ix)?).map_err(|_| ix.bad("value"))?,
        };
        if v >= top {
            return Err(ix.bad(&format!("value index {v} beyond {top}")));
        }
        Ok(Some((s, v)))
    }
}

/// A list read through the files' common decoder ([`Src`]).
struct ListSrc<'a> {
    cur: &'a mut ListCursor,
    ix: &'a mut LevelIndex,
    got: Vec<u8>,
}

impl Src for ListSrc<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], AtlasError> {
        self.got.clear();
        for _ in 0..n {
            let b = self.cur.byte(self.ix)?;
            self.got.push(b);
        }
        Ok(&self.got)
    }
    fn bad(&self, detail: &str) -> AtlasError {
        self.ix.bad(detail)
    }
}

/// The indexes of levels `1..=n` of a directory, opened and checked in
/// turn, with what a query needs of their values.
pub(crate) struct IndexSet {
    levels: Vec<LevelIndex>,
    recs: HashMap<u32, ValueRec>,
    shown: HashMap<u32, String>,
    arena: Arena,
}

impl IndexSet {
    /// Open the indexes of levels `1..=max` (`index(c)` and `level(c)`
    /// name the files of size `c`); the reason when one is not believed.
    pub(crate) fn open(
        max: usize,
        key: &'static partizan_seal::Key,
        index: impl Fn(usize) -> PathBuf,
        level: impl Fn(usize) -> PathBuf,
    ) -> Result<IndexSet, String> {
        let mut levels: Vec<LevelIndex> = Vec::with_capacity(max);
        let mut base = 0u32;
        for c in 1..=max {
            let tail = level_tail(&level(c))
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("{} is missing", level(c).display()))?;
            let ix = LevelIndex::open(&index(c), key, c, base, tail)?;
            base = ix.range().1;
            levels.push(ix);
        }
        Ok(IndexSet {
            levels,
            recs: HashMap::new(),
            shown: HashMap::new(),
            arena: Arena::new(),
        })
    }

    fn rec(&mut self, v: u32) -> Result<ValueRec, AtlasError> {
        if let Some(r) = self.recs.get(&v) {
            return Ok(*r);
        }
        let Some(ix) = self.levels.iter_mut().find(|ix| {
            let (a, z) = ix.range();
            (a..z).contains(&v)
        }) else {
            return Err(AtlasError::Corrupt {
                path: "atlas index".into(),
                detail: format!("value {v} in no level"),
            });
        };
        let r = ix.value_rec(v)?;
        self.recs.insert(v, r);
        Ok(r)
    }

    /// Value `v`'s row fields: notation (printed from its encoding now),
    /// kind label, temperature.
    fn row(&mut self, s: Shape, v: u32) -> Result<RegionRow, AtlasError> {
        let r = self.rec(v)?;
        if !self.shown.contains_key(&v) {
            let ix = self
                .levels
                .iter_mut()
                .find(|ix| (ix.range().0..ix.range().1).contains(&v))
                .expect("rec found its level");
            let enc = ix.encoding(&r)?;
            let g = self
                .arena
                .decode(&enc)
                .map_err(|source| AtlasError::Decode { index: v, source })?;
            let text = self.arena.display(g);
            self.shown.insert(v, text);
        }
        Ok(RegionRow {
            cells: s.len(),
            board: s.to_text(),
            value: self.shown[&v].clone(),
            kind: r.kind.label(),
            temperature: r.temperature.to_string(),
        })
    }

    /// Answer `q` (its filters `f`) over levels `1..=max`.
    pub(crate) fn query(
        &mut self,
        q: &Query,
        f: &ValueFilter,
        max: usize,
    ) -> Result<QueryAnswer, AtlasError> {
        let t0 = std::time::Instant::now();
        let top = self.levels[max - 1].range().1;
        let mut total = 0u64;
        let mut hits: Vec<RegionRow> = Vec::new();
        // the value asked for, if any, and whether it passes the filters
        let wanted = match &f.encoding {
            Some(enc) => {
                let mut found = None;
                for ix in &mut self.levels[..max] {
                    if let Some(v) = ix.find(enc)? {
                        found = Some(v);
                        break;
                    }
                }
                match found {
                    Some(u) => {
                        let r = self.rec(u)?;
                        if !f.accepts(r.kind, r.temperature) {
                            return Ok(answer(0, hits, t0, None));
                        }
                        Some((u, r.neg))
                    }
                    None => return Ok(answer(0, hits, t0, None)),
                }
            }
            None => None,
        };
        for c in 1..=max {
            let mut lists: Vec<ListCursor> = Vec::new();
            let ix = &mut self.levels[c - 1];
            match wanted {
                Some((u, nu)) => {
                    let gu = ix.group(u)?;
                    let gn = if nu == u { None } else { ix.group(nu)? };
                    if let Some((d, r)) = gu {
                        total += r.entries + if nu == u { d } else { 0 };
                        lists.push(ListCursor::new(r, Some(u)));
                    }
                    if let Some((d, r)) = gn {
                        total += d;
                        lists.push(ListCursor::new(r, Some(nu)));
                    }
                }
                None => {
                    for (kind, t, regions, r) in ix.classes()? {
                        if f.accepts(kind, t) {
                            total += regions;
                            lists.push(ListCursor::new(r, None));
                        }
                    }
                }
            }
            if hits.len() < q.limit {
                self.list(c, top, lists, q.limit, &mut hits, |me, v| match wanted {
                    Some((u, _)) => Ok(v == u),
                    None => {
                        let r = me.rec(v)?;
                        Ok(f.accepts(r.kind, r.temperature))
                    }
                })?;
            }
        }
        Ok(answer(total, hits, t0, None))
    }

    /// Merge `lists` of level `cells` in catalogue order (an entry in two
    /// lists once) and list the regions `ok` selects until `limit`.
    fn list(
        &mut self,
        cells: usize,
        top: u32,
        mut lists: Vec<ListCursor>,
        limit: usize,
        hits: &mut Vec<RegionRow>,
        ok: impl Fn(&mut IndexSet, u32) -> Result<bool, AtlasError>,
    ) -> Result<(), AtlasError> {
        use std::cmp::Reverse;
        let mut heap = BinaryHeap::with_capacity(lists.len());
        for (k, l) in lists.iter_mut().enumerate() {
            if let Some((s, v)) = l.next(&mut self.levels[cells - 1], cells, top)? {
                heap.push(Reverse((s, k, v)));
            }
        }
        let mut last: Option<Shape> = None;
        while let Some(Reverse((s, k, v))) = heap.pop() {
            if hits.len() >= limit {
                break;
            }
            if last != Some(s) {
                last = Some(s);
                let neg = self.rec(v)?.neg;
                let (r, n) = class_regions(s, v, neg);
                for &(rs, rv) in r.iter().take(n) {
                    if hits.len() < limit && ok(self, rv)? {
                        hits.push(self.row(rs, rv)?);
                    }
                }
            }
            if let Some((s, v)) = lists[k].next(&mut self.levels[cells - 1], cells, top)? {
                heap.push(Reverse((s, k, v)));
            }
        }
        Ok(())
    }
}

fn answer(
    total: u64,
    regions: Vec<RegionRow>,
    t0: std::time::Instant,
    note: Option<String>,
) -> QueryAnswer {
    QueryAnswer {
        total,
        regions,
        seconds: t0.elapsed().as_secs_f64(),
        source: "index",
        note,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atlas::{Atlas, AtlasConfig, NoStore};

    static TEST_KEY: partizan_seal::Key = partizan_seal::Key::from_bytes([0x11; 32]);

    /// [`write_index`] under the test key.
    fn write_test_index(
        path: &Path,
        cells: usize,
        base: u32,
        all: &[StoredValue],
        tail: LevelTail,
        replay: &mut Replay<'_>,
        batch: usize,
    ) -> Result<(), AtlasError> {
        write_index(path, &TEST_KEY, cells, base, all, tail, replay, batch)
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    /// The bytes of a tiny index (level 4: 4 classes) are pinned: a change
    /// of layout must come with a new [`INDEX_VERSION`].
    #[test]
    fn golden_index_of_level_four() {
        let atlas = Atlas::build(&AtlasConfig::new(4), &mut NoStore).unwrap();
        let base = Atlas::build(&AtlasConfig::new(3), &mut NoStore)
            .unwrap()
            .values()
            .len() as u32;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("level-04.index.pzal");
        let tail = LevelTail {
            len: 1234,
            sum: 0x0123_4567_89ab_cdef,
        };
        let entries = atlas.entries(4).to_vec();
        let mut replay = |f: &mut dyn FnMut(Shape, u32) -> Result<(), AtlasError>| {
            entries.iter().try_for_each(|&(s, v)| f(s, v))
        };
        write_test_index(&path, 4, base, atlas.values(), tail, &mut replay, 2).unwrap();
        let b = std::fs::read(&path).unwrap();
        assert_eq!(b.len(), 2 * PAGE);
        // the header page: magic, version 2, 4 cells, values from 4, 7 new,
        // the level's length and checksum, the sections
        assert_eq!(
            hex(&b[PAGE..PAGE + 104]),
            "505a41544944583102000000040000000400000007000000d204000000000000\
             efcdab896745230100000000000000003b010000000000008b01000000000000\
             0c020000000000000500000000000000c0020000000000000500000000000000\
             f103000000000000"
        );
        // the first value record (value 4: its encoding at offset 0, 8
        // bytes, its negative value 5, an integer, temperature -1)
        assert_eq!(
            hex(&b[..VREC]),
            "000000000000000008000000050000000000000000000000000000000000000000\
             ffffffffffffffff00000000"
        );
        // every byte: the tags of both pages (under the test key), and FNV-1a
        // of the file
        assert_eq!(hex(&b[PAGE - 8..PAGE]), "aff37d0a41a24ca4");
        assert_eq!(hex(&b[2 * PAGE - 8..]), "9938fce0a58bce36");
        let mut h = Fnv::new();
        h.update(&b);
        assert_eq!(format!("{:016x}", h.0), "a681523c20c6c750");
    }

    /// The batch size (entries held at a time, the level read again per
    /// batch) changes how an index is written, never its bytes.
    #[test]
    fn an_index_does_not_depend_on_its_batch() {
        let atlas = Atlas::build(&AtlasConfig::new(8), &mut NoStore).unwrap();
        let base = Atlas::build(&AtlasConfig::new(7), &mut NoStore)
            .unwrap()
            .values()
            .len() as u32;
        let dir = tempfile::tempdir().unwrap();
        let tail = LevelTail { len: 99, sum: 7 };
        let entries = atlas.entries(8).to_vec();
        let mut replay = |f: &mut dyn FnMut(Shape, u32) -> Result<(), AtlasError>| {
            entries.iter().try_for_each(|&(s, v)| f(s, v))
        };
        let mut files = Vec::new();
        for batch in [1, 3, 50, 369, INDEX_BATCH] {
            let path = dir.path().join(format!("ix-{batch}"));
            write_test_index(&path, 8, base, atlas.values(), tail, &mut replay, batch).unwrap();
            files.push(std::fs::read(&path).unwrap());
        }
        assert!(files.windows(2).all(|w| w[0] == w[1]));
        // at batch 1 every group and list is streamed from the replay,
        // which must then come in catalogue order: two entries of one
        // value swapped are refused, not written as a wrong index
        let v = entries[entries.len() / 2].1;
        let mut same = entries.iter().enumerate().filter(|e| e.1 .1 == v);
        let (i, j) = (same.next().unwrap().0, same.next().unwrap().0);
        let mut swapped = entries.clone();
        swapped.swap(i, j);
        let mut replay = |f: &mut dyn FnMut(Shape, u32) -> Result<(), AtlasError>| {
            swapped.iter().try_for_each(|&(s, v)| f(s, v))
        };
        let path = dir.path().join("ix-swapped");
        let err =
            write_test_index(&path, 8, base, atlas.values(), tail, &mut replay, 1).unwrap_err();
        assert!(err.to_string().contains("catalogue order"), "{err}");
    }
}
