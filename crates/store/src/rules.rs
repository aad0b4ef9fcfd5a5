//! The rulesets the store knows: exactly the registry's
//! ([`partizan_games::Rules`]). A region table is named by the ruleset's
//! registry name, so a stored name maps back to a ruleset only by that exact
//! name (aliases are for people, not for files).

use partizan_games::{with_rules, Board, Rules};

/// The registered ruleset whose registry name is exactly `name`.
pub fn stored_rules(name: &str) -> Option<Rules> {
    Rules::ALL.iter().copied().find(|r| r.name() == name)
}

/// A board in its ruleset's text notation, if the ruleset is known.
pub fn format_board(ruleset: &str, b: &Board) -> Option<String> {
    stored_rules(ruleset).map(|rules| with_rules!(rules, |r| r.format(b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_map_back_exactly() {
        for &r in Rules::ALL {
            assert_eq!(stored_rules(r.name()), Some(r));
        }
        assert_eq!(stored_rules("Domineering"), None);
        assert_eq!(stored_rules("chess"), None);
    }
}
