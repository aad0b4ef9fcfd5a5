//! Fuzz target (issue 38): value notation, read by `Arena::parse`. A
//! proptest-driven corpus run with a fixed seed and a fixed number of
//! cases, so it runs in `cargo test`: inputs are raw bytes, token strings
//! of the notation's grammar (numbers at and past the arena's limits,
//! nimbers, ups, uptimals, tinies, switches, braces and bars, sums), and
//! mutations of the forms the notation tests pin. Each case asserts:
//!
//! * no panic, and an answer within [`PER_CASE`] (inputs of at most a few
//!   hundred bytes);
//! * a value or a typed [`ParseError`] whose offset lies inside the input
//!   and whose message is one line;
//! * a value prints, and the print reads back as the same value and prints
//!   the same again (parsing and printing round-trip).
//!
//! The long run, with the case count from `PARTIZAN_FUZZ_CASES`:
//!
//! ```sh
//! PARTIZAN_FUZZ_CASES=100000 cargo test --release -p partizan-core --test all fuzz_notation:: -- --ignored
//! ```

use std::time::Duration;

use partizan_core::{Arena, ParseError};
use partizan_fuzzkit::{long_run_cases, run, within, MAIN_STACK};
use proptest::prelude::*;

/// How long one case may take before it counts as unbounded work.
const PER_CASE: Duration = Duration::from_secs(10);
/// Cases of the run in `cargo test`.
const CASES: u32 = 2000;

/// Forms the notation's own tests pin, each a valid input.
const CORPUS: &[&str] = &[
    "0",
    "3/2",
    "-1/4",
    "*",
    "*2",
    "^",
    "v",
    "^^*",
    "v3*2",
    "{1|-1}",
    "±1",
    "{2|0||-1}",
    "{1|0} + ^ - *2",
    "9/8+*",
    "73/16+v9*8",
    "{0||0|vvv}",
    "{0||0|-3/2}",
    "{0|||0||-1|-3}",
    "{5||3|1|||0||||0}",
    "+_2",
    "-_2",
    "Tiny(2)",
    "Miny(1/2)",
    "1Tiny(2)",
    "1Miny({3|1})",
    "±(1,{2|0})",
    "±(1*)",
    "(1 + 1) - (^)",
    "⇑",
    "⇓*",
    "{3||2+*|1+*}",
    "{1-1|2}",
    "^[4]",
    "^<3>",
    "v<2>*",
    "1+^[2]",
    "-1/2v[3]*",
    "{1|^<2>*}",
    "{10|{8|{6|{4|{2|0}}}}}",
    "{0|*||*|||*||||*}",
    "{|}|",
    "{^3|vv}",
    "{3||2*|1*}",
];

/// Tokens of the grammar, limits included.
const TOKENS: &[&str] = &[
    "0",
    "1",
    "2",
    "7",
    "3/2",
    "-1/4",
    "1/1024",
    "1048575",
    "1048576",
    "99999999999999999999",
    "*",
    "*2",
    "*1024",
    "*1025",
    "^",
    "v",
    "^^",
    "v3",
    "^4096",
    "^4097",
    "^<2>",
    "^[3]",
    "v<256>",
    "^[257]",
    "⇑",
    "⇓",
    "±",
    "+",
    "-",
    "{",
    "}",
    "|",
    "||",
    "|||",
    ",",
    "(",
    ")",
    "Tiny(",
    "Miny(",
    "+_",
    "-_",
    " ",
    ".",
    "*-",
    "^*",
    "1/3",
    "0x10",
    "∞",
];

fn tokens() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(TOKENS), 0..30).prop_map(|t| t.concat())
}

fn mutation() -> impl Strategy<Value = String> {
    (
        prop::sample::select(CORPUS),
        prop::collection::vec((0u8..4, any::<u16>(), prop::sample::select(TOKENS)), 1..6),
    )
        .prop_map(|(base, edits)| {
            let mut t: Vec<char> = base.chars().collect();
            for (op, at, tok) in edits {
                let at = at as usize % (t.len() + 1);
                match op {
                    0 => {
                        for (i, c) in tok.chars().enumerate() {
                            t.insert(at + i, c);
                        }
                    }
                    1 if at < t.len() => {
                        t.remove(at);
                    }
                    2 => t.truncate(at),
                    _ => {
                        // a whole corpus form in place of a character
                        let form = CORPUS[at % CORPUS.len()];
                        if at < t.len() {
                            t.remove(at);
                        }
                        for (i, c) in form.chars().enumerate() {
                            t.insert(at + i, c);
                        }
                    }
                }
            }
            t.into_iter().collect()
        })
}

fn inputs() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => tokens(),
        3 => mutation(),
        1 => prop::collection::vec(any::<u8>(), 0..200)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        1 => "\\PC{0,100}",
    ]
}

/// `Ok(true)`: a value, round-tripped; `Ok(false)`: a typed error.
fn check(text: &str) -> Result<bool, String> {
    let mut a = Arena::new();
    match a.parse(text) {
        Err(ParseError { offset, message }) => {
            if offset > text.len() || message.is_empty() || message.contains('\n') {
                return Err(format!("a bad error: at {offset}: {message:?}"));
            }
            Ok(false)
        }
        Ok(g) => {
            let printed = a.display(g);
            let again = a
                .parse(&printed)
                .map_err(|e| format!("its print {printed:?} does not read back: {e}"))?;
            if again != g {
                return Err(format!("its print {printed:?} reads back as another value"));
            }
            let mut fresh = Arena::new();
            let h = fresh
                .parse(&printed)
                .map_err(|e| format!("{printed:?} does not read in a new arena: {e}"))?;
            if fresh.display(h) != printed {
                return Err(format!("{printed:?} prints differently in a new arena"));
            }
            Ok(true)
        }
    }
}

fn fuzz(cases: u32) -> (u32, u32) {
    let mut values = 0u32;
    // on the main thread's stack, which the CLI parses on
    let seen = run(0x5EED_0A1E, cases, &inputs(), |text| {
        if within(PER_CASE, MAIN_STACK, move || check(&text))? {
            values += 1;
        }
        Ok(())
    });
    eprintln!(
        "fuzz_notation: {seen} cases, {values} values, {} typed errors",
        seen - values
    );
    (seen, values)
}

#[test]
fn notation_never_panics_and_values_round_trip() {
    let (cases, values) = fuzz(CASES);
    assert_eq!(cases, CASES);
    assert!(values > CASES / 10 && values < CASES, "{values} values");
}

/// The long run: `PARTIZAN_FUZZ_CASES` cases (default 100,000).
#[test]
#[ignore = "long fuzz run: PARTIZAN_FUZZ_CASES=N cargo test --release -p partizan-core --test all fuzz_notation:: -- --ignored"]
fn notation_long_run() {
    fuzz(long_run_cases(100_000));
}
