//! The rulesets the store knows by name. [`partizan_games::Ruleset`] is not
//! object-safe, so code that needs a ruleset from a stored name dispatches
//! through the crate-internal `with_rules!` macro.

/// Every ruleset name the store can dispatch on.
pub const KNOWN_RULESETS: &[&str] = &["amazons", "clobber", "cram", "domineering", "konane"];

/// Run `$body` with `$r` bound to the ruleset called `$name`, or evaluate
/// `$otherwise` when no ruleset has that name.
macro_rules! with_rules {
    ($name:expr, |$r:ident| $body:expr, $otherwise:expr) => {{
        match $name {
            "domineering" => {
                let $r = &partizan_games::Domineering;
                $body
            }
            "cram" => {
                let $r = &partizan_games::Cram;
                $body
            }
            "clobber" => {
                let $r = &partizan_games::Clobber;
                $body
            }
            "konane" => {
                let $r = &partizan_games::Konane;
                $body
            }
            "amazons" => {
                let $r = &partizan_games::Amazons;
                $body
            }
            _ => $otherwise,
        }
    }};
}
pub(crate) use with_rules;

/// A board in its ruleset's text notation, if the ruleset is known.
pub fn format_board(ruleset: &str, b: &partizan_games::Board) -> Option<String> {
    use partizan_games::Ruleset;
    with_rules!(ruleset, |r| Some(r.format(b)), None)
}

/// The characters a cell of a region may hold in a ruleset's notation (used
/// to enumerate every filling of a shape), if the ruleset is known.
pub fn cell_alphabet(ruleset: &str) -> Option<&'static [char]> {
    match ruleset {
        "domineering" | "cram" => Some(&['.']),
        "clobber" => Some(&['x', 'o']),
        "konane" => Some(&['x', 'o', '.']),
        "amazons" => Some(&['L', 'R', '.']),
        _ => None,
    }
}
