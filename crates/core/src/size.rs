//! The size of a canonical form, measured without printing it, so that a
//! front end can summarise a value of millions of characters instead of
//! writing it out.
//!
//! ```
//! use partizan_core::Arena;
//! let mut a = Arena::new();
//! let g = a.parse("{2|0||-1}").unwrap();
//! let s = a.size_summary(g);
//! assert_eq!((s.left_options, s.right_options), (1, 1));
//! assert_eq!(s.subpositions, 6); // itself, {2|0}, 2, 1, 0, -1
//! assert_eq!(s.birthday, 4);
//! assert_eq!(s.printed_len, "{2|0||-1}".len());
//! ```

use rustc_hash::FxHashSet;

use crate::game::{Arena, GameId};

/// How big a canonical form is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SizeSummary {
    /// Number of Left options of the canonical form.
    pub left_options: usize,
    /// Number of Right options.
    pub right_options: usize,
    /// Distinct subpositions of the canonical form, the form itself
    /// included (CGSuite's `FollowerCount`).
    pub subpositions: usize,
    /// Birthday (height of the canonical game tree).
    pub birthday: u32,
    /// Length in bytes of the CGSuite notation of the form.
    pub printed_len: usize,
}

impl Arena {
    /// The distinct subpositions of `a`'s canonical form, `a` included.
    #[must_use]
    pub fn subposition_count(&self, a: GameId) -> usize {
        let mut seen = FxHashSet::default();
        let mut stack = vec![a];
        seen.insert(a);
        while let Some(g) = stack.pop() {
            for &h in self.left_options(g).iter().chain(self.right_options(g)) {
                if seen.insert(h) {
                    stack.push(h);
                }
            }
        }
        seen.len()
    }

    /// The [`SizeSummary`] of `a`.
    pub fn size_summary(&mut self, a: GameId) -> SizeSummary {
        SizeSummary {
            left_options: self.left_options(a).len(),
            right_options: self.right_options(a).len(),
            subpositions: self.subposition_count(a),
            birthday: self.birthday(a),
            printed_len: self.display_len(a),
        }
    }
}
