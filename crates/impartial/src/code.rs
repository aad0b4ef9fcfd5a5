//! Octal (and hexadecimal) codes of take-and-break games on heaps.
//!
//! A code `d0.d1d2d3...` says, for each `j`, what removing `j` tokens from a
//! heap may leave: digit `dj` is a sum of
//!
//! ```text
//! 1  remove all j tokens of a heap of exactly j (leave no heap)
//! 2  leave one non-empty heap
//! 4  leave two non-empty heaps (split the rest)
//! 8  leave three non-empty heaps (hexadecimal codes only)
//! ```
//!
//! So `0.77` is Kayles (knock down one pin or two adjacent ones, possibly
//! splitting the row), `0.07` is Dawson's Kayles, `0.137` is Dawson's Chess
//! and `0.333` is the subtraction game {1, 2, 3}. The digit before the point
//! (`j = 0`) may only split: `4.7` lets a player split a heap without taking.
//! Digits are read as hexadecimal, so `0.f` is legal; for digits up to 7 the
//! octal and hexadecimal readings agree.

use std::fmt;

use crate::ImpartialError;

/// Digits after the point an engine accepts (a removal of up to this many tokens).
pub const MAX_CODE_DIGITS: usize = 4096;

/// Bit of a digit: take the whole heap of exactly `j`.
pub const TAKE_ALL: u8 = 1;
/// Bit of a digit: leave one non-empty heap.
pub const LEAVE_ONE: u8 = 2;
/// Bit of a digit: leave two non-empty heaps.
pub const LEAVE_TWO: u8 = 4;
/// Bit of a digit: leave three non-empty heaps (hexadecimal games).
pub const LEAVE_THREE: u8 = 8;

/// A finite octal or hexadecimal code: `digits[j]` for removing `j` tokens.
///
/// Trailing zero digits are dropped, so equal games compare equal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OctalCode {
    digits: Vec<u8>,
}

impl OctalCode {
    /// Read a code such as `0.07`, `.137`, `4.7` or `0.f`.
    pub fn parse(text: &str) -> Result<Self, ImpartialError> {
        let code = text.trim();
        if code.is_empty() {
            return Err(ImpartialError::Empty { what: "octal code" });
        }
        let Some(point) = code.find('.') else {
            return Err(ImpartialError::CodeWithoutPoint { code: code.into() });
        };
        let (before, after) = (&code[..point], &code[point + 1..]);
        let digit = |offset: usize, c: char| -> Result<u8, ImpartialError> {
            c.to_digit(16)
                .map(|d| d as u8)
                .ok_or_else(|| ImpartialError::CodeDigit {
                    code: code.into(),
                    offset,
                    found: c,
                })
        };
        let mut digits = Vec::with_capacity(after.len() + 1);
        match before.chars().count() {
            0 => digits.push(0),
            1 => {
                let d = digit(0, before.chars().next().unwrap_or('0'))?;
                if d & (TAKE_ALL | LEAVE_ONE) != 0 {
                    return Err(ImpartialError::LeadingDigit {
                        code: code.into(),
                        found: d,
                    });
                }
                digits.push(d);
            }
            _ => {
                // Only one digit may stand before the point.
                let (offset, found) = before.char_indices().nth(1).unwrap_or((1, '?'));
                return Err(ImpartialError::CodeDigit {
                    code: code.into(),
                    offset,
                    found,
                });
            }
        }
        for (i, c) in after.char_indices() {
            digits.push(digit(point + 1 + i, c)?);
        }
        if digits.len() - 1 > MAX_CODE_DIGITS {
            return Err(ImpartialError::CodeTooLong {
                code: code.into(),
                digits: digits.len() - 1,
                max: MAX_CODE_DIGITS,
            });
        }
        Ok(Self::from_digits(digits))
    }

    /// A code from its digits, `digits[j]` for removing `j` tokens (bits of
    /// `digits[0]` other than 4 and 8 and bits above 8 are ignored).
    pub fn from_digits(mut digits: Vec<u8>) -> Self {
        if digits.is_empty() {
            digits.push(0);
        }
        for d in digits.iter_mut() {
            *d &= 0xf;
        }
        digits[0] &= LEAVE_TWO | LEAVE_THREE;
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        Self { digits }
    }

    /// The subtraction game whose moves take `s` tokens for each `s` in the
    /// set: the code with digit 3 at each element.
    pub fn subtraction(set: &[usize]) -> Self {
        let top = set.iter().copied().max().unwrap_or(0);
        let mut digits = vec![0u8; top + 1];
        for &s in set {
            if s > 0 {
                digits[s] = TAKE_ALL | LEAVE_ONE;
            }
        }
        Self::from_digits(digits)
    }

    /// The digits, `digits()[j]` for removing `j` tokens.
    #[must_use]
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The largest number of tokens one move removes: the position `k` of
    /// the last non-zero digit (0 for a game without moves or only splits).
    #[must_use]
    pub fn max_removal(&self) -> usize {
        self.digits.len() - 1
    }

    /// The most heaps one move leaves from one heap: 0, 1, 2 or 3.
    #[must_use]
    pub fn max_heaps(&self) -> u8 {
        let all = self.digits.iter().fold(0u8, |a, &d| a | d);
        if all & LEAVE_THREE != 0 {
            3
        } else if all & LEAVE_TWO != 0 {
            2
        } else if all & LEAVE_ONE != 0 {
            1
        } else {
            0
        }
    }

    /// Whether any digit uses the hexadecimal bit 8 (three heaps).
    #[must_use]
    pub fn is_hexadecimal(&self) -> bool {
        self.max_heaps() == 3
    }
}

impl fmt::Display for OctalCode {
    /// The canonical spelling: `0.07`, `4.7`, `0.f`; a code with nothing
    /// after the point prints as `4.0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex = |d: u8| char::from_digit(u32::from(d), 16).unwrap_or('?');
        write!(f, "{}.", hex(self.digits[0]))?;
        if self.digits.len() == 1 {
            return write!(f, "0");
        }
        for &d in &self.digits[1..] {
            write!(f, "{}", hex(d))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_the_classics() {
        for (text, shown) in [
            ("0.07", "0.07"),
            (".137", "0.137"),
            ("4.7", "4.7"),
            ("0.770", "0.77"),
            ("0.F", "0.f"),
            ("4.", "4.0"),
            ("0.", "0.0"),
        ] {
            let c = OctalCode::parse(text).unwrap();
            assert_eq!(c.to_string(), shown, "{text}");
            assert_eq!(OctalCode::parse(&c.to_string()).unwrap(), c);
        }
        let kayles = OctalCode::parse("0.77").unwrap();
        assert_eq!(kayles.digits(), &[0, 7, 7]);
        assert_eq!(kayles.max_removal(), 2);
        assert_eq!(kayles.max_heaps(), 2);
        assert_eq!(OctalCode::parse("0.333").unwrap().max_heaps(), 1);
        assert_eq!(OctalCode::parse("0.8").unwrap().max_heaps(), 3);
        assert_eq!(OctalCode::subtraction(&[1, 2, 3]).to_string(), "0.333");
    }

    #[test]
    fn rejects_bad_codes_with_the_reason() {
        assert!(matches!(
            OctalCode::parse(""),
            Err(ImpartialError::Empty { .. })
        ));
        assert!(matches!(
            OctalCode::parse("07"),
            Err(ImpartialError::CodeWithoutPoint { .. })
        ));
        assert_eq!(
            OctalCode::parse("0.0x7"),
            Err(ImpartialError::CodeDigit {
                code: "0.0x7".into(),
                offset: 3,
                found: 'x'
            })
        );
        assert!(matches!(
            OctalCode::parse("1.07"),
            Err(ImpartialError::LeadingDigit { found: 1, .. })
        ));
        assert!(matches!(
            OctalCode::parse("12.3"),
            Err(ImpartialError::CodeDigit { offset: 1, .. })
        ));
        assert!(matches!(
            OctalCode::parse("0.1.2"),
            Err(ImpartialError::CodeDigit { found: '.', .. })
        ));
    }
}
