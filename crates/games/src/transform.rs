//! The eight symmetries of a rectangle (the dihedral group of the square,
//! acting on boards of any shape) and a ruleset's use of them.

/// A geometric transform of a board. Transforms that swap the axes
/// (`Transpose`, `AntiTranspose`, `Rot90`, `Rot270`) also swap width and
/// height, so they are defined on non-square boards too.
///
/// For a cell at (row r, col c) of a board `W` wide and `H` high the image is:
///
/// ```text
/// Identity      (r, c)              FlipRows  (H-1-r, c)
/// FlipCols      (r, W-1-c)          Rot180    (H-1-r, W-1-c)
/// Transpose     (c, r)              AntiTranspose (W-1-c, H-1-r)
/// Rot90 (clockwise) (c, H-1-r)      Rot270    (W-1-c, r)
/// ```
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, Ord, PartialOrd)]
pub enum Transform {
    /// Leave the board alone.
    Identity,
    /// Mirror top-bottom (row r becomes row H-1-r).
    FlipRows,
    /// Mirror left-right (column c becomes column W-1-c).
    FlipCols,
    /// Half turn.
    Rot180,
    /// Mirror in the main diagonal: rows become columns.
    Transpose,
    /// Mirror in the anti-diagonal.
    AntiTranspose,
    /// Quarter turn clockwise.
    Rot90,
    /// Quarter turn anticlockwise.
    Rot270,
}

impl Transform {
    /// All eight transforms, identity first.
    pub const ALL: [Transform; 8] = [
        Transform::Identity,
        Transform::FlipRows,
        Transform::FlipCols,
        Transform::Rot180,
        Transform::Transpose,
        Transform::AntiTranspose,
        Transform::Rot90,
        Transform::Rot270,
    ];

    /// The transform as "flip rows?, flip columns?, then transpose?".
    #[must_use]
    #[inline]
    pub const fn parts(self) -> (bool, bool, bool) {
        match self {
            Transform::Identity => (false, false, false),
            Transform::FlipRows => (true, false, false),
            Transform::FlipCols => (false, true, false),
            Transform::Rot180 => (true, true, false),
            Transform::Transpose => (false, false, true),
            Transform::Rot90 => (true, false, true),
            Transform::Rot270 => (false, true, true),
            Transform::AntiTranspose => (true, true, true),
        }
    }

    /// Whether the transform exchanges rows and columns (and so width and
    /// height; in Domineering it exchanges the players).
    #[must_use]
    #[inline]
    pub const fn swaps_axes(self) -> bool {
        self.parts().2
    }

    /// Image of the cell (row, col) of a `width` x `height` board.
    #[must_use]
    #[inline]
    pub const fn map_cell(
        self,
        row: usize,
        col: usize,
        width: usize,
        height: usize,
    ) -> (usize, usize) {
        let (fr, fc, t) = self.parts();
        let r = if fr { height - 1 - row } else { row };
        let c = if fc { width - 1 - col } else { col };
        if t {
            (c, r)
        } else {
            (r, c)
        }
    }

    /// Action on centred coordinates, used to compose transforms.
    const fn act(self, p: (i32, i32)) -> (i32, i32) {
        let (fr, fc, t) = self.parts();
        let x = if fr { -p.0 } else { p.0 };
        let y = if fc { -p.1 } else { p.1 };
        if t {
            (y, x)
        } else {
            (x, y)
        }
    }

    fn from_act(image: (i32, i32)) -> Transform {
        let probe = (1, 2);
        for t in Transform::ALL {
            if t.act(probe) == image {
                return t;
            }
        }
        // The probe's images under the eight transforms are all distinct.
        unreachable!("the dihedral group is closed")
    }

    /// `self` followed by `next`: `b.transform(a).transform(n) ==
    /// b.transform(a.then(n))`.
    #[must_use]
    pub fn then(self, next: Transform) -> Transform {
        Transform::from_act(next.act(self.act((1, 2))))
    }

    /// The transform that undoes `self`.
    #[must_use]
    pub fn inverse(self) -> Transform {
        match self {
            Transform::Rot90 => Transform::Rot270,
            Transform::Rot270 => Transform::Rot90,
            t => t,
        }
    }
}

/// A symmetry a ruleset folds positions by: a geometric transform, and
/// whether the image's value is the negative of the original's (players
/// swap: a transpose in Domineering, a colour swap in Clobber).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug)]
pub struct Symmetry {
    /// The geometric part.
    pub transform: Transform,
    /// Whether the image has the negated value.
    pub negates: bool,
}

impl Symmetry {
    /// A symmetry from its parts.
    #[must_use]
    pub const fn new(transform: Transform, negates: bool) -> Symmetry {
        Symmetry { transform, negates }
    }

    /// Apply to a board whose players own layers `a` and `b`: the transform,
    /// then, when the symmetry negates, the two colours exchanged (the
    /// `Ruleset::apply` of every game whose negating symmetries swap colours).
    #[must_use]
    #[inline]
    pub fn apply_swapping(self, board: &crate::Board, a: usize, b: usize) -> crate::Board {
        let t = board.transform(self.transform);
        if self.negates {
            t.swap_layers(a, b)
        } else {
            t
        }
    }
}

/// The four transforms that keep rows as rows keep the value; the four that
/// exchange rows and columns negate it (Domineering, Fission: the players'
/// move directions swap with the axes).
pub const AXIS_SWAP_NEGATES: [Symmetry; 8] = [
    Symmetry::new(Transform::Identity, false),
    Symmetry::new(Transform::FlipRows, false),
    Symmetry::new(Transform::FlipCols, false),
    Symmetry::new(Transform::Rot180, false),
    Symmetry::new(Transform::Transpose, true),
    Symmetry::new(Transform::AntiTranspose, true),
    Symmetry::new(Transform::Rot90, true),
    Symmetry::new(Transform::Rot270, true),
];

/// The eight transforms, none negating (impartial games, Cram).
pub const GEOMETRIC: [Symmetry; 8] = [
    Symmetry::new(Transform::Identity, false),
    Symmetry::new(Transform::FlipRows, false),
    Symmetry::new(Transform::FlipCols, false),
    Symmetry::new(Transform::Rot180, false),
    Symmetry::new(Transform::Transpose, false),
    Symmetry::new(Transform::AntiTranspose, false),
    Symmetry::new(Transform::Rot90, false),
    Symmetry::new(Transform::Rot270, false),
];

/// The eight transforms, and the eight again with a colour swap that
/// negates (stone and queen games: Clobber, Konane, Amazons).
pub const GEOMETRIC_AND_COLOUR_SWAP: [Symmetry; 16] = [
    Symmetry::new(Transform::Identity, false),
    Symmetry::new(Transform::FlipRows, false),
    Symmetry::new(Transform::FlipCols, false),
    Symmetry::new(Transform::Rot180, false),
    Symmetry::new(Transform::Transpose, false),
    Symmetry::new(Transform::AntiTranspose, false),
    Symmetry::new(Transform::Rot90, false),
    Symmetry::new(Transform::Rot270, false),
    Symmetry::new(Transform::Identity, true),
    Symmetry::new(Transform::FlipRows, true),
    Symmetry::new(Transform::FlipCols, true),
    Symmetry::new(Transform::Rot180, true),
    Symmetry::new(Transform::Transpose, true),
    Symmetry::new(Transform::AntiTranspose, true),
    Symmetry::new(Transform::Rot90, true),
    Symmetry::new(Transform::Rot270, true),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_laws() {
        for a in Transform::ALL {
            assert_eq!(a.then(a.inverse()), Transform::Identity);
            assert_eq!(Transform::Identity.then(a), a);
            for b in Transform::ALL {
                for c in Transform::ALL {
                    assert_eq!(a.then(b).then(c), a.then(b.then(c)));
                }
            }
        }
        let r = Transform::Rot90;
        assert_eq!(r.then(r), Transform::Rot180);
        assert_eq!(r.then(r).then(r), Transform::Rot270);
        assert_eq!(r.then(r).then(r).then(r), Transform::Identity);
        assert_eq!(
            Transform::Transpose.then(Transform::Transpose),
            Transform::Identity
        );
        assert_eq!(
            Transform::FlipRows.then(Transform::FlipCols),
            Transform::Rot180
        );
    }

    #[test]
    fn map_cell_matches_table() {
        // 3 wide, 2 high.
        assert_eq!(Transform::Rot90.map_cell(0, 0, 3, 2), (0, 1));
        assert_eq!(Transform::Rot270.map_cell(0, 0, 3, 2), (2, 0));
        assert_eq!(Transform::AntiTranspose.map_cell(0, 0, 3, 2), (2, 1));
        assert_eq!(Transform::Transpose.map_cell(1, 2, 3, 2), (2, 1));
    }
}
