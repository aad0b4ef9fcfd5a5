//! Iteration over the set bits of a 128-bit mask.

/// The positions of the set bits of a `u128`, lowest first (and highest
/// first from the back).
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u128);

impl Iterator for Bits {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(i)
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for Bits {
    #[inline]
    fn next_back(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let i = 127 - self.0.leading_zeros();
            self.0 &= !(1u128 << i);
            Some(i)
        }
    }
}

impl ExactSizeIterator for Bits {}
