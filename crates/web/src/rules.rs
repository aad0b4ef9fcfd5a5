//! Rulesets by name, and board text under the site's limits.

use partizan_games::{Board, Ruleset};

use crate::error::WebError;
use crate::limits::Limits;

/// The rulesets the site knows, by canonical name.
pub const NAMES: &[&str] = &["domineering", "cram", "clobber", "konane", "amazons"];

/// The longest board text accepted (before parsing).
pub const MAX_BOARD_TEXT: usize = 400;

/// The canonical name of a ruleset, or a 400 naming the unknown one.
pub fn canonical(name: &str) -> Result<&'static str, WebError> {
    let lower = name.trim().to_lowercase();
    let n = match lower.as_str() {
        "kōnane" => "konane",
        other => other,
    };
    NAMES
        .iter()
        .copied()
        .find(|k| *k == n)
        .ok_or_else(|| WebError::UnknownRuleset {
            name: name.to_string(),
            known: NAMES.join(", "),
        })
}

/// Run `$body` with `$r` bound to the ruleset named `$name`, or return the
/// unknown-ruleset fault.
#[macro_export]
#[doc(hidden)]
macro_rules! with_ruleset {
    ($name:expr, |$r:ident| $body:expr) => {{
        match $crate::rules::canonical($name) {
            Err(e) => Err(e),
            Ok("domineering") => {
                let $r = &partizan_games::Domineering;
                $body
            }
            Ok("cram") => {
                let $r = &partizan_games::Cram;
                $body
            }
            Ok("clobber") => {
                let $r = &partizan_games::Clobber;
                $body
            }
            Ok("konane") => {
                let $r = &partizan_games::Konane;
                $body
            }
            Ok(_) => {
                let $r = &partizan_games::Amazons;
                $body
            }
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
    match name {
        "clobber" => "xo.",
        "konane" => "xo.#",
        "amazons" => ".#LR",
        _ => ".#",
    }
}

/// A board to start from when none is given.
pub fn default_board(name: &str) -> &'static str {
    match name {
        "clobber" => "xoxo|oxox",
        "konane" => "xox.|o.ox|x.xo",
        "amazons" => "L...|.#..|...R",
        _ => "....|....|.#..|....",
    }
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
