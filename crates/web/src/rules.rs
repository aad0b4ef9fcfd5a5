//! Rulesets by name (the games registry), and board text under the site's
//! limits.

use partizan_games::{Board, Rules, Ruleset};

use crate::error::WebError;
use crate::limits::Limits;

/// The longest board text accepted (before parsing).
pub const MAX_BOARD_TEXT: usize = 400;

/// The ruleset a request names, or a 400 naming the unknown one.
pub fn rules(name: &str) -> Result<Rules, WebError> {
    Rules::from_name(name).map_err(|e| WebError::UnknownRuleset {
        name: e.name,
        known: names().join(", "),
    })
}

/// The canonical name of a ruleset, or a 400 naming the unknown one.
pub fn canonical(name: &str) -> Result<&'static str, WebError> {
    rules(name).map(Rules::name)
}

/// Every ruleset's name, in registry order.
pub fn names() -> Vec<&'static str> {
    Rules::names().collect()
}

/// Whether the essays' packing reading (domino runs, counts and intervals)
/// is defined for a ruleset: it is a reading of Domineering positions.
pub fn packing_reading(ruleset: &str) -> bool {
    ruleset == Rules::Domineering.name()
}

/// Run `$body` with `$r` bound to the ruleset named `$name`, or return the
/// unknown-ruleset fault.
#[macro_export]
#[doc(hidden)]
macro_rules! with_ruleset {
    ($name:expr, |$r:ident| $body:expr) => {{
        match $crate::rules::rules($name) {
            Err(e) => Err(e),
            Ok(rules) => partizan_games::with_rules!(rules, |$r| $body),
        }
    }};
}

/// Parse board text for a ruleset and check it against the cell cap:
/// a 400 naming the problem otherwise.
pub fn parse_board<R: Ruleset>(r: &R, text: &str, limits: &Limits) -> Result<Board, WebError> {
    if text.chars().count() > MAX_BOARD_TEXT {
        return Err(WebError::param(
            "board",
            format!("board text over {MAX_BOARD_TEXT} characters"),
        ));
    }
    let b = r.parse(text).map_err(|e| WebError::BadBoard {
        ruleset: r.name().to_string(),
        message: e.to_string(),
    })?;
    limits.check_cells(r.name(), b.width() * b.height())?;
    Ok(b)
}

/// The characters a click on a cell cycles through, per ruleset.
pub fn click_cycle(name: &str) -> &'static str {
    rules(name).map_or(".#", |r| r.info().edit_cycle)
}

/// A board to start from when none is given.
pub fn default_board(name: &str) -> &'static str {
    rules(name).map_or("....|....|.#..|....", |r| r.info().example)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(canonical("Domineering").unwrap(), "domineering");
        assert_eq!(canonical("kōnane").unwrap(), "konane");
        assert!(matches!(
            canonical("chess"),
            Err(WebError::UnknownRuleset { .. })
        ));
        // An unknown name is refused, never sent to some other ruleset.
        let r: Result<Board, WebError> =
            crate::with_ruleset!("amazon", |r| parse_board(r, "L.|.R", &Limits::default()));
        assert!(matches!(r, Err(WebError::UnknownRuleset { .. })));
    }

    #[test]
    fn parse_checks_the_cap() {
        let l = Limits::default();
        let r: Result<Board, WebError> =
            crate::with_ruleset!("amazons", |r| parse_board(r, "L...|....|...R|....", &l));
        assert!(matches!(
            r,
            Err(WebError::TooLarge {
                cells: 16,
                cap: 12,
                ..
            })
        ));
        let r: Result<Board, WebError> =
            crate::with_ruleset!("domineering", |r| parse_board(r, "..|.", &l));
        assert!(matches!(r, Err(WebError::BadBoard { .. })));
        let r: Result<Board, WebError> =
            crate::with_ruleset!("domineering", |r| parse_board(r, "..|..", &l));
        assert!(r.is_ok());
    }
}
