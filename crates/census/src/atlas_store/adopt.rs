//! Adopting levels this user's key did not seal ([`DirStore::adopt`],
//! `partizan atlas seal`): a directory from another machine or user, from
//! a partizan before seals, or one whose files were edited.
//!
//! What an adopted level is believed on: every check a read makes (sizes,
//! order, value indices, the checksum); its shapes are the catalogue
//! (connected, canonical, increasing, as many as A000105 counts); every new
//! value's encoding decodes, is distinct from every other value's, and its
//! facts (kind, stops, temperature) and negative are derived again from it
//! and must be the ones the file holds; and a sample of its classes, drawn
//! with a seed the file's writer cannot know, is valued again by the board
//! engine. The summary and the index are not adopted but written again from
//! the level. So a value forged for a class is caught with the probability
//! of that class being drawn: a sample, not a proof (building the level
//! again is the proof, and `cmp` against it the comparison).

use super::merge::{check_samples, Sample};
use super::seal::{can_seal_with, check, read_seal, seal_of_file, write_seal};
use super::{DirStore, FactsMaker, HeadValues, LeanValue, ShardStream, SummaryBuilder};
use crate::atlas::{AtlasError, CatalogueCheck, StoredValue, ValueFacts};
use crate::encoding_index::EncodingIndex;

/// What [`DirStore::adopt`] did with one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Adopted {
    /// The size.
    pub cells: usize,
    /// The level and its summary were sealed with the user's key already
    /// (and are the files their seals name): not checked again.
    pub was_sealed: bool,
    /// Classes in the level (0 when it was sealed already).
    pub classes: u64,
    /// Values the level introduced.
    pub new_values: u64,
    /// Classes valued again by the board engine, all agreeing.
    pub verified: u64,
    /// Whether its index was written (again).
    pub indexed: bool,
}

fn corrupt(path: &std::path::Path, detail: String) -> AtlasError {
    AtlasError::Corrupt {
        path: path.display().to_string(),
        detail,
    }
}

impl DirStore {
    /// Check and seal with this store's key every level to `max_cells`
    /// (default: every level present) that it has not sealed, with
    /// `verify` classes of each valued again by the board engine (see the
    /// module's notes for what is checked); a level sealed already is
    /// left as it is. Each level's summary and index are written again
    /// from it. `progress` hears each size as it starts. A level that
    /// fails a check is an error naming it, and nothing of it is sealed.
    pub fn adopt(
        &mut self,
        max_cells: Option<usize>,
        verify: usize,
        progress: &mut dyn FnMut(usize),
    ) -> Result<Vec<Adopted>, AtlasError> {
        const BATCH: usize = 1 << 16;
        can_seal_with(self.key)?;
        let want = self.sizes_wanted(max_cells)?;
        let mut all: Vec<StoredValue> = Vec::new();
        let mut seen = EncodingIndex::with_capacity(0);
        let mut done = Vec::with_capacity(want);
        let seed = std::hash::BuildHasher::hash_one(&std::hash::RandomState::new(), want);
        for cells in 1..=want {
            progress(cells);
            let base = all.len() as u32;
            let path = self.path(cells, None);
            if let Some(values) = self.sealed_values(cells, base)? {
                for (i, v) in values.iter().enumerate() {
                    seen.file(&v.encoding, base + i as u32);
                }
                all.extend(values);
                let indexed = self.index_state(cells, base, true).is_err();
                if indexed {
                    self.index_from_file(cells, base, &all)?;
                }
                done.push(Adopted {
                    cells,
                    was_sealed: true,
                    classes: 0,
                    new_values: all.len() as u64 - u64::from(base),
                    verified: 0,
                    indexed,
                });
                continue;
            }
            let (mut st, head) = ShardStream::open_with_values(&path, cells, None, base, None)?
                .ok_or(AtlasError::NotBuilt {
                    have: cells - 1,
                    want,
                })?;
            // the values: facts derived again from each encoding, and
            // compared with those the file holds
            let mut facts = FactsMaker {
                bare: true,
                ..FactsMaker::default()
            };
            let held: Vec<(LeanValue, Option<ValueFacts>)> = match head {
                HeadValues::Full(v) => v
                    .into_iter()
                    .map(|sv| {
                        let lv = LeanValue {
                            encoding: sv.encoding,
                            neg: sv.facts.neg,
                        };
                        (lv, Some(sv.facts))
                    })
                    .collect(),
                HeadValues::Lean(v) => v.into_iter().map(|lv| (lv, None)).collect(),
            };
            for (i, (lv, stored)) in held.into_iter().enumerate() {
                let index = base + i as u32;
                let v = facts.stored(lv, index)?;
                if let Some(a) = stored {
                    let b = &v.facts;
                    if (a.kind, a.left_stop, a.right_stop, a.temperature)
                        != (b.kind, b.left_stop, b.right_stop, b.temperature)
                    {
                        return Err(corrupt(
                            &path,
                            format!("value {index}: its facts are not those of its encoding"),
                        ));
                    }
                }
                if seen
                    .find_or_file(&v.encoding, index, |id| &all[id as usize].encoding)
                    .is_some()
                {
                    return Err(corrupt(&path, format!("value {index} is there twice")));
                }
                all.push(v);
            }
            self.check_negatives(&path, &all, base)?;
            // the entries: the catalogue, a sample, the summary's groups
            let mut check = CatalogueCheck::new(cells);
            let mut batch = Vec::with_capacity(BATCH);
            let mut sample = Sample::new(verify, seed ^ cells as u64);
            let mut summary = SummaryBuilder::default();
            let mut classes = 0u64;
            while let Some((s, v)) = st.next()? {
                batch.push(s);
                if batch.len() == BATCH {
                    check.run(&batch, None)?;
                    batch.clear();
                }
                sample.offer(s, v);
                summary.add(s, v, all[v as usize].facts.neg);
                classes += 1;
            }
            let sealed = st.finish_hashed()?;
            check.run(&batch, None)?;
            check.finish()?;
            let verified = check_samples(
                std::slice::from_ref(&sample),
                &|id| &all[id as usize].encoding,
                &|_| "sampled".to_string(),
                &|m| corrupt(&path, m),
            )?;
            // the summary written again (sealed as it is written), then the
            // level's seal, then its index (which reads the sealed level)
            summary.write(
                &self.summary_path(cells),
                self.key,
                cells,
                base,
                &all[base as usize..],
            )?;
            write_seal(self.key, &path, &sealed)?;
            self.index_from_file(cells, base, &all)?;
            done.push(Adopted {
                cells,
                was_sealed: false,
                classes,
                new_values: all.len() as u64 - u64::from(base),
                verified,
                indexed: true,
            });
        }
        Ok(done)
    }

    /// The values of level `cells` from its summary when the level and its
    /// summary are sealed with this store's key and are the files their
    /// seals name; `None` when either is not.
    fn sealed_values(
        &self,
        cells: usize,
        base: u32,
    ) -> Result<Option<Vec<StoredValue>>, AtlasError> {
        let path = self.path(cells, None);
        let Ok(want) = read_seal(self.key, &path) else {
            return Ok(None);
        };
        if check(&path, &want, &seal_of_file(&path)?).is_err() {
            return Ok(None);
        }
        match self.read_summary(cells, base) {
            Ok(Some(sum)) => Ok(Some(sum.values)),
            Ok(None) | Err(AtlasError::Unsealed { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Every value from `base` on: its negative's index names the value
    /// that is its negative.
    fn check_negatives(
        &self,
        path: &std::path::Path,
        all: &[StoredValue],
        base: u32,
    ) -> Result<(), AtlasError> {
        let mut arena = partizan_core::Arena::new();
        for (i, v) in all.iter().enumerate().skip(base as usize) {
            if i % (1 << 16) == 0 {
                arena = partizan_core::Arena::new();
            }
            let index = i as u32;
            let neg = v.facts.neg as usize;
            let Some(n) = all.get(neg) else {
                return Err(corrupt(
                    path,
                    format!("value {index}: negative {neg} out of range"),
                ));
            };
            let g = arena
                .decode(&v.encoding)
                .map_err(|source| AtlasError::Decode { index, source })?;
            let h = arena
                .decode(&n.encoding)
                .map_err(|source| AtlasError::Decode {
                    index: neg as u32,
                    source,
                })?;
            if arena.neg(g) != h {
                return Err(corrupt(
                    path,
                    format!("value {index}: value {neg} is not its negative"),
                ));
            }
        }
        Ok(())
    }
}
