//! Move lists and the order in which searches try moves.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

pub use crate::bits::Bits;
use crate::error::SemigroupError;
use crate::semigroup::Semigroup;

/// The order in which every search tries a position's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// Smallest gap first (the essays' order).
    #[default]
    Increasing,
    /// Largest gap first.
    Decreasing,
    /// By the static score of [`Order::score`], best first, ties smallest
    /// first.
    Scored,
    /// The scored order reversed: worst score first, ties largest first (a
    /// control: what the search costs when the score's advice is inverted).
    #[serde(rename = "reverse-scored")]
    ReverseScored,
}

impl Order {
    /// All orders, for reports that compare them.
    pub const ALL: [Order; 4] = [
        Order::Increasing,
        Order::Decreasing,
        Order::Scored,
        Order::ReverseScored,
    ];

    /// The moves of `s` (its gaps other than 1) in this order.
    #[inline]
    #[must_use]
    pub fn moves(self, s: Semigroup) -> Moves {
        let mask = s.gap_mask() & !0b11;
        match self {
            Order::Increasing => Moves::Up(Bits(mask)),
            Order::Decreasing => Moves::Down(Bits(mask)),
            Order::Scored => {
                let mut list = MoveList::from_bits(Bits(mask));
                let m = s.multiplicity();
                let f = s.frobenius().unwrap_or(0);
                list.as_mut_slice()
                    .sort_by_key(|&x| (std::cmp::Reverse(score(m, f, u32::from(x))), x));
                Moves::Listed(list, 0)
            }
            Order::ReverseScored => {
                let mut list = MoveList::from_bits(Bits(mask));
                let m = s.multiplicity();
                let f = s.frobenius().unwrap_or(0);
                list.as_mut_slice()
                    .sort_by_key(|&x| (score(m, f, u32::from(x)), std::cmp::Reverse(x)));
                Moves::Listed(list, 0)
            }
        }
    }

    /// The moves of `s` in this order, collected.
    #[must_use]
    pub fn move_list(self, s: Semigroup) -> Vec<u32> {
        self.moves(s).collect()
    }

    /// The static score of naming `x` in `s` under [`Order::Scored`]
    /// (higher is tried first). See [`score`].
    #[must_use]
    pub fn score(s: Semigroup, x: u32) -> i32 {
        score(s.multiplicity(), s.frobenius().unwrap_or(0), x)
    }
}

/// The scoring rule of [`Order::Scored`], learned from the positions of genus
/// up to 18.
///
/// Each move `x` of a position with multiplicity `m` and Frobenius number
/// `F` falls in one of sixteen classes by four yes/no features: `x = F`,
/// `x ≡ -1 (mod m)`, `2x > F` (upper half) and `x < m`. The score is the
/// class's rank by the share of its survivors that win (move into a lost
/// position), measured over every survivor of every won position of genus
/// up to 18 (29,544 positions, 398,747 survivors). The winningest classes
/// are the upper-half ones, led by `x = F`; the least winning are the
/// small moves below the multiplicity in the lower half.
///
/// What it shows: it puts a winning move first in 21.8% of won positions to
/// genus 18 (increasing order: 6.9%), yet on the census to twenty gaps the
/// finishing search gets dearer (median 495 closures at sixteen gaps and
/// 2,409 at twenty, against 269 and 967 in increasing order), because small
/// moves, though they rarely win, are refuted cheaply. Against their own
/// dearer finishing search the proofs now win more often (fresh, kept,
/// two-sided, told: 27, 27, 30, 39 positions of 1,766), but against the
/// increasing finishing search only 3, 3, 3 and 29. Proof depths do not
/// depend on the order.
#[inline]
fn score(m: u32, f: u32, x: u32) -> i32 {
    let class = (usize::from(x == f) << 3)
        | (usize::from(x % m == m - 1) << 2)
        | (usize::from(2 * x > f) << 1)
        | usize::from(x < m);
    // Win rates (per mille) measured per class; classes never seen get 0.
    const RATE: [i32; 16] = [
        160, // 0000 lower half, >= m
        125, // 0001 lower half, < m
        169, // 0010 upper half, >= m
        269, // 0011 upper half, < m
        136, // 0100 = -1 mod m, lower half, >= m
        209, // 0101 = -1 mod m, lower half, < m
        125, // 0110 = -1 mod m, upper half, >= m
        273, // 0111 = -1 mod m, upper half, < m
        0, 0,   // x = F lies in the upper half
        218, // 1010 x = F, >= m
        0,   // 1011 x = F < m is also = -1 mod m
        0, 0, 232, // 1110 x = F, = -1 mod m, >= m
        800, // 1111 x = F = m - 1
    ];
    RATE[class]
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Order::Increasing => "increasing",
            Order::Decreasing => "decreasing",
            Order::Scored => "scored",
            Order::ReverseScored => "reverse-scored",
        })
    }
}

impl FromStr for Order {
    type Err = SemigroupError;

    fn from_str(s: &str) -> Result<Order, SemigroupError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "increasing" | "inc" => Ok(Order::Increasing),
            "decreasing" | "dec" => Ok(Order::Decreasing),
            "scored" => Ok(Order::Scored),
            "reverse-scored" | "reversed" => Ok(Order::ReverseScored),
            _ => Err(SemigroupError::UnknownOrder(s.to_string())),
        }
    }
}

/// A position's moves in some order, without allocation: straight off the
/// gap mask for the increasing and decreasing orders, from a fixed-capacity
/// sorted array for the scored one.
#[derive(Clone, Copy)]
pub enum Moves {
    /// Increasing.
    Up(Bits),
    /// Decreasing.
    Down(Bits),
    /// A sorted list and the position reached in it.
    Listed(MoveList, u8),
}

impl Iterator for Moves {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        match self {
            Moves::Up(b) => b.next(),
            Moves::Down(b) => b.next_back(),
            Moves::Listed(list, i) => {
                let x = list.as_slice().get(*i as usize).copied()?;
                *i += 1;
                Some(u32::from(x))
            }
        }
    }
}

impl Moves {
    /// Whether no moves are left.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        match self {
            Moves::Up(b) | Moves::Down(b) => b.0 == 0,
            Moves::Listed(list, i) => *i as usize >= list.len(),
        }
    }
}

/// A position's moves, in a fixed-capacity array (no allocation).
#[derive(Clone, Copy)]
pub struct MoveList {
    moves: [u8; 128],
    len: u8,
}

impl MoveList {
    #[inline]
    fn from_bits(bits: impl Iterator<Item = u32>) -> MoveList {
        let mut list = MoveList {
            moves: [0; 128],
            len: 0,
        };
        for x in bits {
            list.moves[list.len as usize] = x as u8;
            list.len += 1;
        }
        list
    }

    /// The moves as a slice.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[u8] {
        &self.moves[..self.len as usize]
    }

    #[inline]
    fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.moves[..self.len as usize]
    }

    /// The number of moves.
    #[inline]
    #[must_use]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there are no moves.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves, in order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.as_slice().iter().map(|&x| u32::from(x))
    }
}
