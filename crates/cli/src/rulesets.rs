//! Ruleset names on the command line, and dispatch to generic code.

/// The rulesets the command line knows, by name.
pub const NAMES: &[&str] = &["domineering", "cram", "clobber", "konane", "amazons"];

/// Run `$body` with `$r` bound to the ruleset named `$name` (a `&str`), or
/// fail with an error naming the unknown ruleset.
#[macro_export]
macro_rules! with_ruleset {
    ($name:expr, |$r:ident| $body:expr) => {{
        use partizan_games::{Amazons, Clobber, Cram, Domineering, Konane};
        match $name.to_ascii_lowercase().as_str() {
            "domineering" => {
                let $r = &Domineering;
                $body
            }
            "cram" => {
                let $r = &Cram;
                $body
            }
            "clobber" => {
                let $r = &Clobber;
                $body
            }
            "konane" | "kōnane" => {
                let $r = &Konane;
                $body
            }
            "amazons" => {
                let $r = &Amazons;
                $body
            }
            other => Err(anyhow::anyhow!(
                "unknown ruleset '{}' (known: {})",
                other,
                $crate::rulesets::NAMES.join(", ")
            )),
        }
    }};
}
