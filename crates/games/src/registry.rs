//! The ruleset registry: one list naming every grid ruleset, and the one
//! dispatch point from a name (or a [`Rules`] value) to generic code.
//!
//! [`Ruleset`] is generic over its option callback, so it is not object
//! safe; front ends instead hold a [`Rules`] and dispatch with
//! [`with_rules!`](crate::with_rules) (a `match` over every variant) or
//! [`Rules::visit`]. Adding a ruleset is one file implementing [`Ruleset`]
//! plus one line in the list below: the CLI, the site, the store and the
//! census enumerate [`Rules::ALL`] and never match on names.
//!
//! ```
//! use partizan_games::{with_rules, Rules, Ruleset};
//! let rules: Rules = "Kōnane".parse().unwrap();
//! assert_eq!(rules.name(), "konane");
//! let text = with_rules!(rules, |r| r.format(&r.parse("xo.|.ox").unwrap()));
//! assert_eq!(text, "xo.|.ox");
//! assert!("chess".parse::<Rules>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use crate::ruleset::{Ruleset, RulesetInfo};

/// Expands `$cb! { $($pre)* ; Variant => path::Type, ... }` with the
/// registry's list: the one place a ruleset is registered.
#[macro_export]
#[doc(hidden)]
macro_rules! __registry {
    ($cb:ident ! { $($pre:tt)* }) => {
        $crate::$cb! { $($pre)* ;
            Domineering => $crate::domineering::Domineering,
            Cram => $crate::cram::Cram,
            Clobber => $crate::clobber::Clobber,
            Konane => $crate::konane::Konane,
            Amazons => $crate::amazons::Amazons,
            ToadsAndFrogs => $crate::toads::ToadsAndFrogs,
            Snort => $crate::snort::Snort,
            Col => $crate::col::Col,
            TopplingDominoes => $crate::toppling::TopplingDominoes,
            Fission => $crate::fission::Fission,
            Hackenbush => $crate::hackenbush::HackenbushStrings,
            NoGo => $crate::nogo::NoGo,
            HackenbushGraph => $crate::hackenbush_graph::HackenbushGraph,
            SnortGraph => $crate::graph_placement::SnortGraph,
            ColGraph => $crate::graph_placement::ColGraph,
            Elephants => $crate::elephants::Elephants,
        }
    };
}

#[macro_export]
#[doc(hidden)]
macro_rules! __define_rules {
    ( ; $($v:ident => $ty:path),* $(,)?) => {
        /// Every registered ruleset, by name. `Rules::ALL` lists them in
        /// registry order; dispatch with [`with_rules!`](crate::with_rules).
        #[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Ord, PartialOrd)]
        pub enum Rules {
            $(
                #[doc = concat!("See [`", stringify!($v), "`](", stringify!($ty), ").")]
                $v,
            )*
        }

        impl Rules {
            /// Every registered ruleset, in registry order.
            pub const ALL: &'static [Rules] = &[$(Rules::$v),*];

            /// Run a visitor on the ruleset.
            pub fn visit<V: Visit>(self, v: V) -> V::Output {
                match self {
                    $(Rules::$v => v.visit(&$ty),)*
                }
            }

            /// The ruleset's description.
            pub fn info(self) -> &'static RulesetInfo {
                match self {
                    $(Rules::$v => Ruleset::info(&$ty),)*
                }
            }
        }
    };
}

#[macro_export]
#[doc(hidden)]
macro_rules! __with_rules_arms {
    ($rules:expr, $r:ident, $body:expr ; $($v:ident => $ty:path),* $(,)?) => {
        match $rules {
            $($crate::Rules::$v => {
                #[allow(unused_imports)]
                use $crate::Ruleset as _;
                let $r = &$ty;
                $body
            })*
        }
    };
}

/// Run `$body` with `$r` bound to the ruleset a [`Rules`] names (a
/// reference to its zero-sized type, so the body is compiled once per
/// ruleset and generic code runs at full speed). The [`Ruleset`] trait is
/// in scope inside the body.
///
/// ```
/// use partizan_games::{with_rules, Rules, Ruleset};
/// for &rules in Rules::ALL {
///     let name = with_rules!(rules, |r| r.name());
///     assert_eq!(name, rules.name());
/// }
/// ```
#[macro_export]
macro_rules! with_rules {
    ($rules:expr, |$r:ident| $body:expr) => {
        $crate::__registry!(__with_rules_arms! { $rules, $r, $body })
    };
}

__registry!(__define_rules! {});

/// Code generic over a ruleset, run through [`Rules::visit`].
pub trait Visit {
    /// What the visit returns.
    type Output;
    /// Run on the ruleset `r`.
    fn visit<R: Ruleset>(self, r: &R) -> Self::Output;
}

impl Rules {
    /// Short lower-case name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// Every name, in registry order.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Rules::ALL.iter().map(|r| r.name())
    }

    /// The ruleset called `name` (case-insensitive; aliases accepted).
    pub fn from_name(name: &str) -> Result<Rules, UnknownRuleset> {
        let lower = name.trim().to_lowercase();
        Rules::ALL
            .iter()
            .copied()
            .find(|r| {
                let i = r.info();
                i.name == lower || i.aliases.iter().any(|a| a.to_lowercase() == lower)
            })
            .ok_or_else(|| UnknownRuleset {
                name: name.chars().take(60).collect(),
            })
    }
}

impl FromStr for Rules {
    type Err = UnknownRuleset;
    fn from_str(s: &str) -> Result<Rules, UnknownRuleset> {
        Rules::from_name(s)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that no registered ruleset answers to.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct UnknownRuleset {
    /// The name asked for (at most 60 characters of it).
    pub name: String,
}

impl fmt::Display for UnknownRuleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = Rules::names().collect();
        write!(
            f,
            "unknown ruleset '{}' (known: {})",
            self.name,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownRuleset {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;

    #[test]
    fn names_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &r in Rules::ALL {
            assert!(seen.insert(r.name()), "duplicate name {}", r.name());
            assert_eq!(Rules::from_name(r.name()), Ok(r));
            assert_eq!(Rules::from_name(&r.name().to_uppercase()), Ok(r));
            for a in r.info().aliases {
                assert_eq!(Rules::from_name(a), Ok(r));
            }
            assert_eq!(with_rules!(r, |x| x.name()), r.name());
        }
        assert_eq!(Rules::from_name("Kōnane"), Ok(Rules::Konane));
        let e = Rules::from_name("chess").unwrap_err();
        assert!(e.to_string().contains("known: domineering, cram"));
    }

    #[test]
    fn every_example_parses_and_formats_back() {
        for &r in Rules::ALL {
            let info = r.info();
            let b: Board = with_rules!(r, |x| x.parse(info.example)).unwrap();
            assert_eq!(with_rules!(r, |x| x.format(&b)), info.example, "{r}");
            assert!(info.site_cells >= b.width() * b.height(), "{r}");
            for ch in info.edit_cycle.chars().chain(info.fillings.iter().copied()) {
                assert!(
                    info.glyphs.iter().any(|g| g.ch == ch),
                    "{r}: {ch:?} is not one of its glyphs"
                );
            }
            assert!(
                info.glyphs.iter().any(|g| g.layer.is_none()),
                "{r} has no hole glyph"
            );
        }
    }

    #[test]
    fn rectangles_are_boards_of_their_size() {
        let mut with = Vec::new();
        for &r in Rules::ALL {
            for (rows, cols) in [(1, 1), (2, 3), (4, 5), (8, 16)] {
                let Some(text) = with_rules!(r, |x| x.rectangle(rows, cols)) else {
                    continue;
                };
                let b: Board = with_rules!(r, |x| x.parse(&text)).unwrap();
                assert_eq!((b.height(), b.width()), (rows, cols), "{r}");
                assert_eq!(with_rules!(r, |x| x.format(&b)), text, "{r}");
                let filled = with_rules!(r, |x| x.cells(&b)).count_ones() as usize;
                assert_eq!(filled, rows * cols, "{r}: every cell in play");
                with.push(r.to_string());
            }
        }
        with.dedup();
        for name in [
            "domineering",
            "cram",
            "clobber",
            "konane",
            "amazons",
            "snort",
            "col",
            "nogo",
        ] {
            assert!(with.iter().any(|w| w == name), "{name} has no rectangle");
        }
    }

    struct Count;
    impl Visit for Count {
        type Output = usize;
        fn visit<R: Ruleset>(self, r: &R) -> usize {
            r.symmetries().len()
        }
    }

    #[test]
    fn visit_reaches_the_ruleset() {
        assert_eq!(Rules::Domineering.visit(Count), 8);
        assert_eq!(Rules::Cram.visit(Count), 8);
        assert_eq!(Rules::Clobber.visit(Count), 16);
    }
}
