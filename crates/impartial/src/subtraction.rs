//! Subtraction games: a move takes `s` tokens from one heap, `s` in a fixed
//! finite set. They are the octal games whose digits are all 0 or 3.

use std::fmt;

use crate::{ImpartialError, OctalCode};

/// The largest element a subtraction set may have.
pub const MAX_SUBTRACTION: u64 = crate::code::MAX_CODE_DIGITS as u64;

/// A finite subtraction set, sorted, without duplicates, elements >= 1.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SubtractionSet {
    elements: Vec<usize>,
}

impl SubtractionSet {
    /// Read a set written `1,2,5` (commas and/or spaces; braces allowed:
    /// `{1, 2, 5}`).
    pub fn parse(text: &str) -> Result<Self, ImpartialError> {
        let inner = text.trim().trim_start_matches('{').trim_end_matches('}');
        let mut elements = Vec::new();
        for part in inner
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|p| !p.is_empty())
        {
            let s: u64 = part.parse().map_err(|_| ImpartialError::BadNumber {
                what: "subtraction set",
                found: part.into(),
            })?;
            if s == 0 {
                return Err(ImpartialError::ZeroInSubtractionSet);
            }
            if s > MAX_SUBTRACTION {
                return Err(ImpartialError::SubtractionTooLarge {
                    found: s,
                    max: MAX_SUBTRACTION,
                });
            }
            elements.push(s as usize);
        }
        Self::new(elements)
    }

    /// A set from its elements (any order, duplicates dropped).
    pub fn new(mut elements: Vec<usize>) -> Result<Self, ImpartialError> {
        if elements.is_empty() {
            return Err(ImpartialError::Empty {
                what: "subtraction set",
            });
        }
        if elements.contains(&0) {
            return Err(ImpartialError::ZeroInSubtractionSet);
        }
        if let Some(&big) = elements.iter().find(|&&s| s as u64 > MAX_SUBTRACTION) {
            return Err(ImpartialError::SubtractionTooLarge {
                found: big as u64,
                max: MAX_SUBTRACTION,
            });
        }
        elements.sort_unstable();
        elements.dedup();
        Ok(Self { elements })
    }

    /// The elements, increasing.
    #[must_use]
    pub fn elements(&self) -> &[usize] {
        &self.elements
    }

    /// The same game as an octal code (digit 3 at every element).
    #[must_use]
    pub fn code(&self) -> OctalCode {
        OctalCode::subtraction(&self.elements)
    }
}

impl fmt::Display for SubtractionSet {
    /// `{1,2,5}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{")?;
        for (i, s) in self.elements.iter().enumerate() {
            if i > 0 {
                write!(f, ",")?;
            }
            write!(f, "{s}")?;
        }
        write!(f, "}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_round_trips_and_rejects() {
        let s = SubtractionSet::parse("{5, 2,2 1}").unwrap();
        assert_eq!(s.elements(), &[1, 2, 5]);
        assert_eq!(s.to_string(), "{1,2,5}");
        assert_eq!(SubtractionSet::parse(&s.to_string()).unwrap(), s);
        assert_eq!(s.code().to_string(), "0.33003");
        assert!(matches!(
            SubtractionSet::parse(" {} "),
            Err(ImpartialError::Empty { .. })
        ));
        assert_eq!(
            SubtractionSet::parse("1,0"),
            Err(ImpartialError::ZeroInSubtractionSet)
        );
        assert!(matches!(
            SubtractionSet::parse("1,x"),
            Err(ImpartialError::BadNumber { .. })
        ));
        assert!(matches!(
            SubtractionSet::parse("1,-2"),
            Err(ImpartialError::BadNumber { .. })
        ));
        assert!(matches!(
            SubtractionSet::parse("99999999"),
            Err(ImpartialError::SubtractionTooLarge { .. })
        ));
    }
}
