//! Ruleset names on the command line: the games registry, and dispatch from
//! a name to generic code.

use partizan_games::Rules;

/// The ruleset a command-line name means (case-insensitive, aliases
/// accepted), or an error listing the known names.
pub fn rules(name: &str) -> anyhow::Result<Rules> {
    if let Some(l) = partizan_loopy::LoopyRules::from_name(name) {
        anyhow::bail!(
            "{l} is a loopy ruleset (its positions can recur): `partizan value` and \
`partizan outcome` take it, this command only short rulesets"
        );
    }
    Ok(Rules::from_name(name)?)
}

/// Run `$body` with `$r` bound to the ruleset named `$name` (a `&str` or
/// `String`), or fail with an error naming the unknown ruleset.
#[macro_export]
macro_rules! with_ruleset {
    ($name:expr, |$r:ident| $body:expr) => {{
        let rules = $crate::rulesets::rules(&$name)?;
        partizan_games::with_rules!(rules, |$r| $body)
    }};
}
