//! Exact dyadic rationals `num / 2^exp`, the values of numbers in short games.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::error::{ParseError, ValueError};

/// Largest denominator exponent a [`Dyadic`] may carry.
pub const MAX_EXP: u32 = 62;

/// An exact dyadic rational `num / 2^exp`, always normalised: `num` is odd or
/// `exp == 0`, and `exp <= MAX_EXP`. Arithmetic is checked: a result outside
/// the representable range is a [`ValueError`], never a wrap or a panic.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Dyadic {
    num: i64,
    exp: u32,
}

impl Dyadic {
    /// Zero.
    pub const ZERO: Dyadic = Dyadic { num: 0, exp: 0 };
    /// One.
    pub const ONE: Dyadic = Dyadic { num: 1, exp: 0 };
    /// One half.
    pub const HALF: Dyadic = Dyadic { num: 1, exp: 1 };
    /// Minus one.
    pub const MINUS_ONE: Dyadic = Dyadic { num: -1, exp: 0 };

    /// The integer `n`.
    #[must_use]
    pub const fn from_int(n: i64) -> Dyadic {
        Dyadic { num: n, exp: 0 }
    }

    /// `num / 2^exp`, normalised (common factors of two cancelled).
    pub fn new(num: i64, exp: u32) -> Result<Dyadic, ValueError> {
        Self::from_wide(i128::from(num), exp)
    }

    /// Normalises a wide numerator; fails if the result does not fit.
    pub(crate) fn from_wide(mut num: i128, mut exp: u32) -> Result<Dyadic, ValueError> {
        if num == 0 {
            return Ok(Dyadic::ZERO);
        }
        let tz = num.trailing_zeros().min(exp);
        num >>= tz;
        exp -= tz;
        if exp > MAX_EXP {
            return Err(ValueError::ExponentTooLarge);
        }
        let num = i64::try_from(num).map_err(|_| ValueError::Overflow)?;
        Ok(Dyadic { num, exp })
    }

    /// The numerator (odd unless the value is an integer).
    #[must_use]
    pub const fn num(self) -> i64 {
        self.num
    }

    /// The exponent of the denominator `2^exp`.
    #[must_use]
    pub const fn exp(self) -> u32 {
        self.exp
    }

    /// Numerator scaled to denominator `2^e` (requires `e >= self.exp`, `e <= MAX_EXP`).
    fn wide_at(self, e: u32) -> i128 {
        i128::from(self.num) << (e - self.exp)
    }

    /// `self + o`.
    pub fn checked_add(self, o: Dyadic) -> Result<Dyadic, ValueError> {
        let e = self.exp.max(o.exp);
        Self::from_wide(self.wide_at(e) + o.wide_at(e), e)
    }

    /// `self - o`.
    pub fn checked_sub(self, o: Dyadic) -> Result<Dyadic, ValueError> {
        let e = self.exp.max(o.exp);
        Self::from_wide(self.wide_at(e) - o.wide_at(e), e)
    }

    /// `-self`.
    pub fn checked_neg(self) -> Result<Dyadic, ValueError> {
        Self::from_wide(-i128::from(self.num), self.exp)
    }

    /// `self * k` for a small integer `k`.
    pub fn checked_mul_int(self, k: i64) -> Result<Dyadic, ValueError> {
        Self::from_wide(i128::from(self.num) * i128::from(k), self.exp)
    }

    /// `self / 2^k`.
    pub fn checked_div_pow2(self, k: u32) -> Result<Dyadic, ValueError> {
        if self.num == 0 {
            return Ok(Dyadic::ZERO);
        }
        let e = self
            .exp
            .checked_add(k)
            .ok_or(ValueError::ExponentTooLarge)?;
        Self::from_wide(i128::from(self.num), e)
    }

    /// `(self + o) / 2`, the midpoint.
    pub fn checked_mid(self, o: Dyadic) -> Result<Dyadic, ValueError> {
        let e = self.exp.max(o.exp);
        Self::from_wide(self.wide_at(e) + o.wide_at(e), e + 1)
    }

    /// Whether the value is an integer.
    #[must_use]
    pub const fn is_integer(self) -> bool {
        self.exp == 0
    }

    /// Whether the value is negative.
    #[must_use]
    pub const fn is_negative(self) -> bool {
        self.num < 0
    }

    /// Whether the value is positive.
    #[must_use]
    pub const fn is_positive(self) -> bool {
        self.num > 0
    }

    /// Whether the value is zero.
    #[must_use]
    pub const fn is_zero(self) -> bool {
        self.num == 0
    }

    /// The largest integer `<= self`.
    #[must_use]
    pub const fn floor(self) -> i64 {
        self.num >> self.exp
    }

    /// The smallest integer `>= self`.
    #[must_use]
    pub const fn ceil(self) -> i64 {
        if self.exp == 0 {
            self.num
        } else {
            (self.num >> self.exp) + 1
        }
    }

    /// The simplest dyadic strictly between `lo` and `hi` (each bound may be
    /// absent, meaning unbounded), by the simplicity rule: an integer of least
    /// magnitude if one fits, else the one with the smallest denominator.
    /// Requires `lo < hi` when both are given.
    pub fn simplest_between(lo: Option<Dyadic>, hi: Option<Dyadic>) -> Result<Dyadic, ValueError> {
        match (lo, hi) {
            (None, None) => Ok(Dyadic::ZERO),
            (Some(l), None) => {
                if l.num < 0 {
                    Ok(Dyadic::ZERO)
                } else {
                    Self::from_wide(i128::from(l.floor()) + 1, 0)
                }
            }
            (None, Some(h)) => {
                if h.num > 0 {
                    Ok(Dyadic::ZERO)
                } else {
                    Self::from_wide(i128::from(h.ceil()) - 1, 0)
                }
            }
            (Some(l), Some(h)) => {
                if l.num < 0 && h.num > 0 {
                    return Ok(Dyadic::ZERO);
                }
                if h.num <= 0 {
                    let r = Self::simplest_between(Some(h.checked_neg()?), Some(l.checked_neg()?))?;
                    return r.checked_neg();
                }
                // 0 <= l < h
                let emax = l.exp.max(h.exp);
                for k in 0..=(emax + 1) {
                    if k > MAX_EXP {
                        return Err(ValueError::ExponentTooLarge);
                    }
                    // c = floor(l * 2^k) + 1
                    let lw = if k >= l.exp {
                        i128::from(l.num) << (k - l.exp)
                    } else {
                        i128::from(l.num) >> (l.exp - k)
                    };
                    let c = lw + 1;
                    // c / 2^k < h  <=>  c * 2^(E-k) < h * 2^(E-h.exp), E = max(k, h.exp)
                    let e = k.max(h.exp);
                    if (c << (e - k)) < (i128::from(h.num) << (e - h.exp)) {
                        return Self::from_wide(c, k);
                    }
                }
                Err(ValueError::ExponentTooLarge)
            }
        }
    }
}

impl Ord for Dyadic {
    #[inline]
    fn cmp(&self, o: &Dyadic) -> Ordering {
        if self.exp == o.exp {
            return self.num.cmp(&o.num);
        }
        let e = self.exp.max(o.exp);
        self.wide_at(e).cmp(&o.wide_at(e))
    }
}

impl PartialOrd for Dyadic {
    fn partial_cmp(&self, o: &Dyadic) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl Default for Dyadic {
    fn default() -> Dyadic {
        Dyadic::ZERO
    }
}

impl From<i32> for Dyadic {
    fn from(n: i32) -> Dyadic {
        Dyadic::from_int(i64::from(n))
    }
}

impl fmt::Display for Dyadic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exp == 0 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, 1u64 << self.exp)
        }
    }
}

impl FromStr for Dyadic {
    type Err = ParseError;

    /// Parses `n`, `-n`, `n/d` or `-n/d` where `d` is a power of two.
    fn from_str(s: &str) -> Result<Dyadic, ParseError> {
        let t = s.trim_start();
        let lead = s.len() - t.len();
        let t = t.trim_end();
        let (neg, body, off) = match t.strip_prefix('-') {
            Some(rest) => (true, rest, lead + 1),
            None => (false, t, lead),
        };
        let (n_str, d_str) = match body.split_once('/') {
            Some((a, b)) => (a, Some(b)),
            None => (body, None),
        };
        let parse_u = |x: &str, at: usize| -> Result<u128, ParseError> {
            if x.is_empty() || !x.bytes().all(|b| b.is_ascii_digit()) {
                return Err(ParseError::new(at, "expected digits"));
            }
            x.parse::<u128>()
                .map_err(|_| ParseError::new(at, "number too large"))
        };
        let n = parse_u(n_str, off)?;
        let exp = match d_str {
            None => 0,
            Some(d) => {
                let at = off + n_str.len() + 1;
                let d = parse_u(d, at)?;
                if d == 0 || !d.is_power_of_two() {
                    return Err(ParseError::new(at, "denominator must be a power of two"));
                }
                d.trailing_zeros()
            }
        };
        let n = i128::try_from(n).map_err(|_| ParseError::new(off, "number too large"))?;
        let n = if neg { -n } else { n };
        Dyadic::from_wide(n, exp).map_err(|e| ParseError::new(off, e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Dyadic {
        s.parse().unwrap()
    }

    #[test]
    fn normalises_and_displays() {
        assert_eq!(Dyadic::new(6, 2).unwrap(), d("3/2"));
        assert_eq!(Dyadic::new(4, 2).unwrap(), Dyadic::ONE);
        assert_eq!(Dyadic::new(0, 5).unwrap(), Dyadic::ZERO);
        assert_eq!(Dyadic::ZERO.to_string(), "0");
        assert_eq!(d("3/2").to_string(), "3/2");
        assert_eq!(d("-1/4").to_string(), "-1/4");
        assert_eq!(d("-2/4").to_string(), "-1/2");
        assert_eq!(d("-7").to_string(), "-7");
        assert_eq!(d("6/4").exp(), 1);
        assert_eq!(d("6/4").num(), 3);
    }

    #[test]
    fn parse_errors() {
        assert!("1/3".parse::<Dyadic>().is_err());
        assert!("".parse::<Dyadic>().is_err());
        assert!("abc".parse::<Dyadic>().is_err());
        assert!("1/0".parse::<Dyadic>().is_err());
        let e = "5/x".parse::<Dyadic>().unwrap_err();
        assert_eq!(e.offset, 2);
        assert!("99999999999999999999999".parse::<Dyadic>().is_err());
    }

    #[test]
    fn arithmetic_and_order() {
        assert_eq!(d("1/2").checked_add(d("1/4")).unwrap(), d("3/4"));
        assert_eq!(d("1/2").checked_add(d("1/2")).unwrap(), Dyadic::ONE);
        assert_eq!(d("1/2").checked_sub(d("3/4")).unwrap(), d("-1/4"));
        assert_eq!(d("3/2").checked_neg().unwrap(), d("-3/2"));
        assert_eq!(d("1").checked_mid(d("2")).unwrap(), d("3/2"));
        assert!(d("-1/2") < d("-1/4"));
        assert!(d("7/8") < Dyadic::ONE);
        assert!(d("-3") < d("-5/2"));
        assert_eq!(d("5/2").floor(), 2);
        assert_eq!(d("-5/2").floor(), -3);
        assert_eq!(d("-5/2").ceil(), -2);
        assert_eq!(d("3").ceil(), 3);
    }

    #[test]
    fn overflow_is_an_error() {
        let big = Dyadic::from_int(i64::MAX);
        assert_eq!(big.checked_add(Dyadic::ONE), Err(ValueError::Overflow));
        assert_eq!(
            Dyadic::from_int(i64::MIN).checked_neg(),
            Err(ValueError::Overflow)
        );
        let tiny = Dyadic::new(1, MAX_EXP).unwrap();
        assert_eq!(tiny.checked_div_pow2(1), Err(ValueError::ExponentTooLarge));
        assert!(Dyadic::new(1, MAX_EXP + 1).is_err());
        assert_eq!(Dyadic::new(2, MAX_EXP + 1).unwrap(), tiny);
    }

    #[test]
    fn simplest() {
        let s = |l: Option<&str>, h: Option<&str>| {
            Dyadic::simplest_between(l.map(d), h.map(d))
                .unwrap()
                .to_string()
        };
        assert_eq!(s(None, None), "0");
        assert_eq!(s(Some("0"), None), "1");
        assert_eq!(s(Some("3/2"), None), "2");
        assert_eq!(s(Some("-3/2"), None), "0");
        assert_eq!(s(None, Some("0")), "-1");
        assert_eq!(s(None, Some("-3/2")), "-2");
        assert_eq!(s(Some("0"), Some("1")), "1/2");
        assert_eq!(s(Some("1"), Some("2")), "3/2");
        assert_eq!(s(Some("0"), Some("1/2")), "1/4");
        assert_eq!(s(Some("1/4"), Some("1")), "1/2");
        assert_eq!(s(Some("1/2"), Some("3")), "1");
        assert_eq!(s(Some("-1"), Some("1")), "0");
        assert_eq!(s(Some("-2"), Some("-1")), "-3/2");
        assert_eq!(s(Some("-1"), Some("0")), "-1/2");
        assert_eq!(s(Some("5/8"), Some("7/8")), "3/4");
        assert_eq!(s(Some("3/8"), Some("1/2")), "7/16");
    }
}
