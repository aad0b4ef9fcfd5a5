//! Merging a level's shard files into the level ([`DirStore::merge_shards`]).
//!
//! Streamed, so that no step holds the level's entries, and with every value
//! held once: memory is the values to the level and the summary's groups.
//! The shards repeat the values they share (at 19 cells a value is in
//! several of 40 shards), so their lists are read a shard at a time into
//! one pool of distinct encodings, each shard keeping only a map from its
//! indices into the pool; the values take their final indices, in order of
//! first appearance in the merged level, as the first pass meets them.

use super::{DirStore, FactsMaker, LeanValue, LevelWriter, ShardStream, SummaryBuilder};
use crate::atlas::{AtlasError, StoredValue};
use crate::encoding_index::EncodingIndex;
use crate::rng::SplitMix64;
use crate::shape::Shape;

/// What a merge made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The size.
    pub cells: usize,
    /// Classes in the merged level.
    pub classes: u64,
    /// Values the level introduced.
    pub new_values: u64,
    /// Classes sampled from the shards and valued again by the board
    /// engine before anything was written, all agreeing.
    pub verified: u64,
}

/// Classes of each shard that a merge values again by default
/// ([`DirStore::merge_shards`]).
pub const VERIFY_PER_SHARD: usize = 64;

/// Where a merge is, for a progress display: `done` of `total` units
/// (shards while pooling, entries in the passes; 0 of 0 where nothing is
/// counted) in `step`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MergeStep {
    /// What the merge is doing, in words.
    pub step: &'static str,
    /// Units done in this step.
    pub done: u64,
    /// Units in this step.
    pub total: u64,
}

/// Entries between two progress calls of a pass.
const EVERY: u64 = 1 << 20;

impl DirStore {
    /// [`DirStore::merge_shards_with`] without progress, checking
    /// [`VERIFY_PER_SHARD`] classes of each shard.
    pub fn merge_shards(&mut self, cells: usize, count: usize) -> Result<Merged, AtlasError> {
        self.merge_shards_with(cells, count, VERIFY_PER_SHARD, &mut |_| {})
    }

    /// Combine the `count` shard files of size `cells` into the level file
    /// (the levels below must be present). The merged level is exactly what
    /// an unsharded build writes: entries in catalogue order, values
    /// interned in order of first appearance, each followed by its negative.
    ///
    /// Streamed, so no step holds the level: the shards' value lists are
    /// pooled a shard at a time (each distinct encoding once), then a k-way
    /// merge of the sorted shard files runs twice (the first pass gives the
    /// values their indices and groups the summary, the second writes the
    /// entries behind the values). Memory is the values, each once, and the
    /// summary's groups, not the entries; the summary and the level's head
    /// are written as they are produced. The shard files are kept.
    /// `progress` hears where it is, now and then.
    ///
    /// A shard is another process's word (a cluster worker's, perhaps), so
    /// before anything is written `verify` classes of each shard, drawn at
    /// random with a seed the shards' writers cannot know, are valued again
    /// by the board engine (the solve crate's general solver on the games
    /// crate's Domineering: none of the atlas's own valuing), and one that
    /// disagrees with its shard is an error naming the shard and the class.
    /// A sample, not a proof: a shard with a fraction `f` of its entries
    /// wrong passes with probability about `(1 - f)^verify`.
    pub fn merge_shards_with(
        &mut self,
        cells: usize,
        count: usize,
        verify: usize,
        progress: &mut dyn FnMut(MergeStep),
    ) -> Result<Merged, AtlasError> {
        if count == 0 {
            return Err(AtlasError::BadShard { index: 0, count });
        }
        // the values below, from the summaries (not the entries: at 18
        // cells those would be 68 M of them)
        let below = self.values_below(cells)?;
        let base = below.len() as u32;
        // pass 0: the shards' values into one pool, a shard at a time
        let mut pool = Pool::new(&below);
        let mut remap: Vec<Vec<u32>> = Vec::with_capacity(count);
        let mut streams = Vec::with_capacity(count);
        let mut say = |step, done, total| {
            progress(MergeStep { step, done, total });
        };
        for k in 0..count {
            say("pooling the shards' values", k as u64, count as u64);
            let mut st = self.open_shard(cells, k, count, base)?;
            remap.push(pool.add_shard(k, std::mem::take(&mut st.values))?);
            streams.push(st);
        }
        let entries: u64 = streams.iter().map(|s| s.left).sum();
        // pass 1: final indices in order of first appearance, and the
        // summary's groups
        let mut fin = vec![u32::MAX; pool.values.len()];
        let mut order: Vec<(u32, u32)> = Vec::new();
        let mut summary = SummaryBuilder::default();
        let mut total = 0u64;
        let seed = std::hash::BuildHasher::hash_one(&std::hash::RandomState::new(), cells);
        let mut samples: Vec<Sample> = (0..count)
            .map(|k| Sample::new(verify, seed ^ k as u64))
            .collect();
        kway_merge(&mut streams, |k, s, v| {
            let p = if v < base {
                v
            } else {
                remap[k][(v - base) as usize]
            };
            samples[k].offer(s, p);
            let g = if p < base {
                p
            } else {
                pool.intern(p, &mut fin, &mut order)
            };
            let neg = if g < base {
                below[g as usize].facts.neg
            } else {
                order[(g - base) as usize].1
            };
            summary.add(s, g, neg);
            total += 1;
            if total.is_multiple_of(EVERY) {
                say("pass 1 of 2: values and summary", total, entries);
            }
            Ok(())
        })?;
        for st in streams {
            st.finish()?;
        }
        say("valuing sampled classes again", 0, 0);
        let verified = check_samples(
            &samples,
            &|p| pool.encoding(p),
            &|k| format!("shard {k}"),
            &AtlasError::Shards,
        )?;
        drop(samples);
        for m in &mut remap {
            for p in m.iter_mut().filter(|p| **p >= base) {
                *p = fin[(*p - base) as usize];
            }
        }
        drop(fin);
        // the values in merged order, with their facts (no notation: the
        // files hold none); each encoding moves out of the pool
        let mut facts = FactsMaker {
            bare: true,
            ..FactsMaker::default()
        };
        let mut values = Vec::with_capacity(order.len());
        for (at, &(i, neg)) in order.iter().enumerate() {
            let encoding = std::mem::take(&mut pool.values[(i - base) as usize].encoding);
            values.push(facts.stored(LeanValue { encoding, neg }, base + at as u32)?);
        }
        drop(order);
        drop(pool);
        // summary first (as save_level): a kill between the two leaves no
        // level without its summary
        say("writing the summary", 0, 0);
        summary.write(&self.summary_path(cells), self.key, cells, base, &values)?;
        drop(summary);
        // pass 2: the level file, streamed
        let mut out = LevelWriter::create(
            &self.path(cells, None),
            self.key,
            cells,
            base,
            &values,
            total,
        )?;
        let mut streams = (0..count)
            .map(|k| {
                let mut st = self.open_shard(cells, k, count, base)?;
                st.values = Vec::new();
                Ok(st)
            })
            .collect::<Result<Vec<_>, AtlasError>>()?;
        let mut written = 0u64;
        kway_merge(&mut streams, |k, s, v| {
            let g = if v < base {
                v
            } else {
                remap[k][(v - base) as usize]
            };
            written += 1;
            if written.is_multiple_of(EVERY) {
                say("pass 2 of 2: the level file", written, total);
            }
            out.entry(&s, g)
        })?;
        for st in streams {
            st.finish()?;
        }
        out.finish()?;
        drop(remap);
        let new_values = values.len() as u64;
        let mut all = below;
        all.extend(values);
        say("writing the index", 0, 0);
        self.index_from_file(cells, base, &all)?;
        Ok(Merged {
            cells,
            classes: total,
            new_values,
            verified,
        })
    }

    /// Shard `k` of `count` of size `cells`, opened for streaming (missing
    /// is an error).
    fn open_shard(
        &self,
        cells: usize,
        k: usize,
        count: usize,
        base: u32,
    ) -> Result<ShardStream, AtlasError> {
        let path = self.path(cells, Some((k, count)));
        ShardStream::open(&path, cells, Some((k, count)), base)?
            .ok_or_else(|| AtlasError::Shards(format!("{} is missing", path.display())))
    }
}

/// The distinct values the shards introduce, each encoding once, found by
/// encoding. A value's id is its index below the level (`< base`) or
/// `base` plus its place in the pool.
struct Pool<'a> {
    below: &'a [StoredValue],
    base: u32,
    /// The pooled values, their `neg` an id.
    values: Vec<LeanValue>,
    /// Encoding → id, below and pooled.
    ids: EncodingIndex,
}

impl<'a> Pool<'a> {
    /// A pool that knows the values below (a shard's "new" value equal to
    /// one of them is that value).
    fn new(below: &'a [StoredValue]) -> Pool<'a> {
        let mut pool = Pool {
            below,
            base: below.len() as u32,
            values: Vec::new(),
            ids: EncodingIndex::with_capacity(below.len() * 3),
        };
        for (i, v) in below.iter().enumerate() {
            pool.ids
                .find_or_file(&v.encoding, i as u32, |id| &below[id as usize].encoding);
        }
        pool
    }

    /// The encoding of pooled or below value `id`.
    fn encoding(&self, id: u32) -> &[u8] {
        encoding_in(self.below, &self.values, id)
    }

    /// Shard `k`'s values: the id of each (a value already pooled or below
    /// is that value; a new one is pooled, its negative as an id).
    fn add_shard(&mut self, k: usize, values: Vec<LeanValue>) -> Result<Vec<u32>, AtlasError> {
        let base = self.base;
        let mut map = Vec::with_capacity(values.len());
        let mut fresh = Vec::new();
        for lv in values {
            let id = base + self.values.len() as u32;
            let (below, pooled) = (self.below, &self.values);
            let known = self
                .ids
                .find_or_file(&lv.encoding, id, |i| encoding_in(below, pooled, i));
            if let Some(known) = known {
                map.push(known);
                continue;
            }
            self.values.push(lv);
            fresh.push(id);
            map.push(id);
        }
        for id in fresh {
            let v = &mut self.values[(id - base) as usize];
            if v.neg >= base {
                v.neg = *map.get((v.neg - base) as usize).ok_or_else(|| {
                    AtlasError::Shards(format!("shard {k}: value {} missing", v.neg))
                })?;
            }
        }
        Ok(map)
    }

    /// The final index of pooled value `id`, given (with its negative right
    /// after it, if that is new too) the first time it is met; `order`
    /// holds, in final order, each value's pool id and its negative's final
    /// index.
    fn intern(&self, id: u32, fin: &mut [u32], order: &mut Vec<(u32, u32)>) -> u32 {
        let base = self.base;
        let i = (id - base) as usize;
        if fin[i] != u32::MAX {
            return fin[i];
        }
        let g = base + order.len() as u32;
        fin[i] = g;
        order.push((id, g));
        let n = self.values[i].neg;
        let ng = if n < base {
            n
        } else {
            let j = (n - base) as usize;
            if fin[j] == u32::MAX {
                fin[j] = base + order.len() as u32;
                order.push((n, g));
            }
            fin[j]
        };
        order[(g - base) as usize].1 = ng;
        g
    }
}

/// The encoding of value `id`: one of `below` (the sizes below), else of
/// `pooled` (the level's, numbered on from them).
fn encoding_in<'e>(below: &'e [StoredValue], pooled: &'e [LeanValue], id: u32) -> &'e [u8] {
    match id.checked_sub(below.len() as u32) {
        None => &below[id as usize].encoding,
        Some(i) => &pooled[i as usize].encoding,
    }
}

/// A uniform sample of one shard's entries (reservoir sampling): each
/// class with the pool id of the value its shard gives it.
pub(super) struct Sample {
    want: usize,
    seen: u64,
    rng: SplitMix64,
    picked: Vec<(Shape, u32)>,
}

impl Sample {
    pub(super) fn new(want: usize, seed: u64) -> Sample {
        Sample {
            want,
            seen: 0,
            rng: SplitMix64::new(seed),
            picked: Vec::with_capacity(want.min(1 << 16)),
        }
    }

    pub(super) fn offer(&mut self, s: Shape, id: u32) {
        if self.want == 0 {
            return;
        }
        self.seen += 1;
        if self.picked.len() < self.want {
            self.picked.push((s, id));
        } else {
            let j = self.rng.below(self.seen);
            if let Some(slot) = self.picked.get_mut(j as usize) {
                *slot = (s, id);
            }
        }
    }
}

/// Value every sampled class again with the board engine (on rayon's
/// threads, a solver each) and compare with the value its file gave it
/// (`encoding(id)`); the classes checked, or the first disagreement,
/// `fail(message)` with sample `k`'s file named `name(k)`.
pub(super) fn check_samples<'e>(
    samples: &[Sample],
    encoding: &(dyn Fn(u32) -> &'e [u8] + Sync),
    name: &(dyn Fn(usize) -> String + Sync),
    fail: &(dyn Fn(String) -> AtlasError + Sync),
) -> Result<u64, AtlasError> {
    use partizan_solve::{Savings, Solver};
    use rayon::prelude::*;
    let all: Vec<(usize, Shape, u32)> = samples
        .iter()
        .enumerate()
        .flat_map(|(k, sm)| sm.picked.iter().map(move |&(s, id)| (k, s, id)))
        .collect();
    let engine_err = |e: &dyn std::fmt::Display| fail(format!("the board engine: {e}"));
    all.par_iter()
        .map_init(
            || {
                (
                    Solver::new(&partizan_games::Domineering, Savings::ALL),
                    partizan_core::Arena::new(),
                )
            },
            |(solver, arena), &(k, s, id)| {
                let solver = solver.as_mut().map_err(|e| engine_err(e))?;
                let board = s.to_board();
                let g = solver.value(arena, &board).map_err(|e| engine_err(&e))?;
                let said = arena.decode(encoding(id)).ok();
                if said == Some(g) {
                    return Ok(());
                }
                let said = said.map_or_else(
                    || "a value that does not decode".to_string(),
                    |h| arena.display(h),
                );
                Err(fail(format!(
                    "{}: class {} is {said} there, {} by the board engine",
                    name(k),
                    s.to_text(),
                    arena.display(g)
                )))
            },
        )
        .collect::<Result<Vec<()>, AtlasError>>()?;
    Ok(all.len() as u64)
}

/// Merge sorted shard streams in catalogue order, calling `f(shard, shape,
/// value)` on every entry; a shape in two shards is an error.
fn kway_merge(
    streams: &mut [ShardStream],
    mut f: impl FnMut(usize, Shape, u32) -> Result<(), AtlasError>,
) -> Result<(), AtlasError> {
    use std::cmp::Reverse;
    let mut heap = std::collections::BinaryHeap::with_capacity(streams.len());
    for (k, st) in streams.iter_mut().enumerate() {
        if let Some((s, v)) = st.next()? {
            heap.push(Reverse((s, k, v)));
        }
    }
    let mut last: Option<Shape> = None;
    while let Some(Reverse((s, k, v))) = heap.pop() {
        if last == Some(s) {
            return Err(AtlasError::Shards(format!("{s} is in two shards")));
        }
        last = Some(s);
        f(k, s, v)?;
        if let Some((s, v)) = streams[k].next()? {
            heap.push(Reverse((s, k, v)));
        }
    }
    Ok(())
}
