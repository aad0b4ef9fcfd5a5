//! Value encodings → value ids without a second copy of each encoding.
//!
//! The build's interner and the merge's pool both look values up by their
//! encoding. Keyed by the encodings themselves, a map holds a copy of every
//! encoding the owner already keeps in its value list (about 1 GB a task at
//! 19 cells). [`EncodingIndex`] keys a 64-bit hash instead and compares the
//! owner's encoding (read through `encoding(id)`) on a hit; an encoding whose
//! hash an earlier one took is kept in a small clash map, by encoding.

use std::collections::HashMap;
use std::hash::BuildHasher;

/// Encoding → id, the encodings held by the owner, not by the index.
/// `S` hashes the encodings (in the tests, a hash under which half the
/// encodings clash: 64-bit hashes of real encodings almost never do).
#[derive(Default)]
pub(crate) struct EncodingIndex<S = std::hash::RandomState> {
    hasher: S,
    /// Hash of an encoding → the id of the first filed value with that hash.
    ids: HashMap<u64, u32>,
    /// Encodings whose hash an earlier filed value took, by encoding.
    clash: HashMap<Box<[u8]>, u32>,
}

impl EncodingIndex {
    /// An index with room for `n` encodings.
    pub(crate) fn with_capacity(n: usize) -> EncodingIndex {
        EncodingIndex {
            ids: HashMap::with_capacity(n),
            ..EncodingIndex::default()
        }
    }
}

impl<S: BuildHasher> EncodingIndex<S> {
    fn hash(&self, enc: &[u8]) -> u64 {
        self.hasher.hash_one(enc)
    }

    /// The id filed for `enc`, where `encoding(id)` is the owner's
    /// encoding of every filed id.
    pub(crate) fn find<'e>(
        &self,
        enc: &[u8],
        encoding: impl FnOnce(u32) -> &'e [u8],
    ) -> Option<u32> {
        match self.ids.get(&self.hash(enc)) {
            None => None,
            Some(&id) if encoding(id) == enc => Some(id),
            Some(_) => self.clash.get(enc).copied(),
        }
    }

    /// File `enc` as value `id`; `enc` must not be filed already (look it
    /// up with [`EncodingIndex::find`] first).
    pub(crate) fn file(&mut self, enc: &[u8], id: u32) {
        let h = self.hash(enc);
        if let std::collections::hash_map::Entry::Vacant(e) = self.ids.entry(h) {
            e.insert(id);
        } else {
            self.clash.insert(enc.into(), id);
        }
    }

    /// The id filed for `enc` (as [`EncodingIndex::find`]), else `None`
    /// with `enc` filed as `id`: one hash for the look-up and the filing.
    pub(crate) fn find_or_file<'e>(
        &mut self,
        enc: &[u8],
        id: u32,
        encoding: impl FnOnce(u32) -> &'e [u8],
    ) -> Option<u32> {
        let h = self.hash(enc);
        match self.ids.entry(h) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(id);
                None
            }
            std::collections::hash_map::Entry::Occupied(e) if encoding(*e.get()) == enc => {
                Some(*e.get())
            }
            std::collections::hash_map::Entry::Occupied(_) => {
                if let Some(&known) = self.clash.get(enc) {
                    return Some(known);
                }
                self.clash.insert(enc.into(), id);
                None
            }
        }
    }

    /// Unfile `enc`, filed before; an encoding of the same hash that had
    /// clashed with it takes its place, so it stays findable.
    pub(crate) fn remove(&mut self, enc: &[u8]) {
        if self.clash.remove(enc).is_some() {
            return;
        }
        let h = self.hash(enc);
        if self.ids.remove(&h).is_none() || self.clash.is_empty() {
            return;
        }
        let heir = self.clash.keys().find(|k| self.hash(k) == h).cloned();
        if let Some(k) = heir {
            let id = self.clash.remove(&k).expect("the key was just found");
            self.ids.insert(h, id);
        }
    }

    /// How many encodings are filed.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.ids.len() + self.clash.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hashes every encoding to its first byte's parity: half the
    /// encodings clash with each other.
    #[derive(Default)]
    struct Parity;

    struct ParityHasher(u64);

    impl std::hash::Hasher for ParityHasher {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            self.0 = bytes.first().map_or(0, |b| u64::from(b % 2));
        }
        fn write_usize(&mut self, _: usize) {
            // the slice's length prefix: not hashed
        }
    }

    impl BuildHasher for Parity {
        type Hasher = ParityHasher;
        fn build_hasher(&self) -> ParityHasher {
            ParityHasher(0)
        }
    }

    /// File, find and remove encodings in `ix` (its hash given), checking
    /// every answer against a plain map.
    fn exercise<S: BuildHasher>(mut ix: EncodingIndex<S>) {
        let encs: Vec<Box<[u8]>> = (0u32..600)
            .map(|i| {
                let mut e = vec![(i % 7) as u8];
                e.extend_from_slice(&i.to_le_bytes()[..1 + (i % 3) as usize]);
                e.into()
            })
            .collect();
        let mut plain: HashMap<Box<[u8]>, u32> = HashMap::new();
        for (i, e) in encs.iter().enumerate() {
            let known = plain.get(e).copied();
            // filed both ways: looked up then filed, and in one step
            if i % 2 == 0 {
                let found = ix.find(e, |id| &encs[id as usize]);
                assert_eq!(found, known);
                if found.is_none() {
                    ix.file(e, i as u32);
                }
            } else {
                assert_eq!(ix.find_or_file(e, i as u32, |id| &encs[id as usize]), known);
            }
            plain.entry(e.clone()).or_insert(i as u32);
        }
        assert_eq!(ix.len(), plain.len());
        let check = |ix: &EncodingIndex<S>, plain: &HashMap<Box<[u8]>, u32>| {
            for e in &encs {
                assert_eq!(ix.find(e, |id| &encs[id as usize]), plain.get(e).copied());
            }
            assert_eq!(ix.find(&[9, 9, 9, 9, 9, 9], |id| &encs[id as usize]), None);
        };
        check(&ix, &plain);
        // remove the filed ones in an order unlike filing's: the first filed
        // of a hash (the one the others clashed with) goes early
        let mut order: Vec<_> = plain.keys().cloned().collect();
        order.sort_by_key(|e| (e.len(), e.to_vec()));
        for (n, e) in order.iter().enumerate() {
            ix.remove(e);
            plain.remove(e);
            if n % 37 == 0 || plain.len() < 5 {
                check(&ix, &plain);
            }
        }
        assert_eq!(ix.len(), 0);
    }

    #[test]
    fn filed_encodings_are_found_and_removed() {
        exercise(EncodingIndex::with_capacity(10));
    }

    #[test]
    fn clashing_encodings_stay_findable_through_removals() {
        let ix = EncodingIndex {
            hasher: Parity,
            ids: HashMap::new(),
            clash: HashMap::new(),
        };
        exercise(ix);
    }
}
