//! Fuzz target (issue 38): board text for every registered ruleset
//! (`Rules::ALL`), read by the ruleset's own `parse`. A proptest-driven
//! corpus run with a fixed seed and a fixed number of cases, so it runs in
//! `cargo test`: inputs are raw bytes, texts over each ruleset's own
//! alphabet (its glyphs, its example's characters, the row separators),
//! and mutations of its example (characters replaced, inserted, deleted,
//! rows repeated). Each case asserts:
//!
//! * no panic, and an answer within [`PER_CASE`] (bounded input: at most a
//!   few kilobytes);
//! * a board or a typed error ([`partizan_games::BoardError`]);
//! * a board prints, and the print reads back as the same board and prints
//!   the same again (the promise of `Ruleset::format`).
//!
//! The long run, with the case count from `PARTIZAN_FUZZ_CASES`:
//!
//! ```sh
//! PARTIZAN_FUZZ_CASES=200000 cargo test --release -p partizan-games --test all fuzz_boards:: -- --ignored
//! ```

use std::time::Duration;

use partizan_fuzzkit::{long_run_cases, run, within, MAIN_STACK};
use partizan_games::{with_rules, Rules};
use proptest::prelude::*;

/// How long one case may take before it counts as a hang.
const PER_CASE: Duration = Duration::from_secs(10);
/// Cases of the run in `cargo test`.
const CASES: u32 = 20_000;

/// One input: the ruleset (an index into `Rules::ALL`) and the text.
#[derive(Clone, Debug)]
struct Input {
    rules: usize,
    text: String,
}

/// The characters a ruleset's boards are written in: its glyphs, its
/// example's characters, the separators, and a few strangers.
fn alphabet(r: Rules) -> Vec<char> {
    let info = r.info();
    let mut cs: Vec<char> = info.glyphs.iter().map(|g| g.ch).collect();
    cs.extend(info.example.chars());
    cs.extend([
        '|', '\n', '\r', ' ', '#', '.', ',', '-', ':', '0', '9', 'é', '\0',
    ]);
    cs.sort_unstable();
    cs.dedup();
    cs
}

/// Texts over the ruleset's alphabet, a row length kept for a while so
/// that many are rectangular.
fn grammar(r: usize) -> impl Strategy<Value = Input> {
    let cs = alphabet(Rules::ALL[r]);
    (
        1usize..14,
        1usize..14,
        prop::collection::vec(any::<u16>(), 0..200),
    )
        .prop_map(move |(rows, cols, picks)| {
            let mut text = String::new();
            let mut k = 0;
            for row in 0..rows {
                if row > 0 {
                    text.push('|');
                }
                for _ in 0..cols {
                    let p = picks.get(k).copied().unwrap_or(0) as usize;
                    k += 1;
                    // mostly the ruleset's own glyphs, sometimes anything
                    let glyphs = Rules::ALL[r].info().glyphs;
                    let c = if !p.is_multiple_of(8) && !glyphs.is_empty() {
                        glyphs[p % glyphs.len()].ch
                    } else {
                        cs[p % cs.len()]
                    };
                    text.push(c);
                }
            }
            Input { rules: r, text }
        })
}

/// The example board, mutated.
fn mutation(r: usize) -> impl Strategy<Value = Input> {
    let cs = alphabet(Rules::ALL[r]);
    prop::collection::vec((0u8..5, any::<u16>(), any::<u16>()), 1..8).prop_map(move |edits| {
        let mut t: Vec<char> = Rules::ALL[r].info().example.chars().collect();
        for (op, a, b) in edits {
            let at = a as usize % (t.len() + 1);
            let c = cs[b as usize % cs.len()];
            match op {
                0 if at < t.len() => t[at] = c,
                1 => t.insert(at, c),
                2 if at < t.len() => {
                    t.remove(at);
                }
                3 => {
                    // repeat a stretch (rows, runs of cells)
                    let end = (at + 1 + b as usize % 12).min(t.len());
                    let piece: Vec<char> = t[at..end].to_vec();
                    for (i, c) in piece.into_iter().enumerate() {
                        t.insert(end + i, c);
                    }
                }
                _ => t.truncate(at),
            }
        }
        Input {
            rules: r,
            text: t.into_iter().collect(),
        }
    })
}

fn inputs() -> impl Strategy<Value = Input> {
    (0..Rules::ALL.len()).prop_flat_map(|r| {
        prop_oneof![
            3 => grammar(r),
            3 => mutation(r),
            1 => prop::collection::vec(any::<u8>(), 0..300)
                .prop_map(move |b| Input { rules: r, text: String::from_utf8_lossy(&b).into_owned() }),
            1 => "\\PC{0,300}".prop_map(move |text| Input { rules: r, text }),
        ]
    })
}

/// What a case found: `Ok(true)` a board (round-tripped), `Ok(false)` a
/// typed error.
fn check(input: &Input) -> Result<bool, String> {
    let rules = Rules::ALL[input.rules];
    with_rules!(rules, |r| {
        match r.parse(&input.text) {
            Err(e) => {
                let said = e.to_string();
                if said.is_empty() || said.contains('\n') {
                    return Err(format!("error not one line: {said:?}"));
                }
                Ok(false)
            }
            Ok(b) => {
                let printed = r.format(&b);
                let again = r
                    .parse(&printed)
                    .map_err(|e| format!("its print {printed:?} does not read back: {e}"))?;
                if again != b {
                    return Err(format!("its print {printed:?} reads back as another board"));
                }
                if r.format(&again) != printed {
                    return Err(format!("{printed:?} prints differently the second time"));
                }
                Ok(true)
            }
        }
    })
}

fn fuzz(cases: u32) -> (u32, u32) {
    let mut boards = 0u32;
    let seen = run(0x5EED_B0A7, cases, &inputs(), |input| {
        if within(PER_CASE, MAIN_STACK, move || check(&input))? {
            boards += 1;
        }
        Ok(())
    });
    eprintln!(
        "fuzz_boards: {seen} cases, {boards} boards, {} typed errors",
        seen - boards
    );
    (seen, boards)
}

#[test]
fn board_text_never_panics_and_boards_round_trip() {
    let (cases, boards) = fuzz(CASES);
    assert_eq!(cases, CASES);
    // the generators reach both sides: boards and refusals
    assert!(boards > CASES / 10 && boards < CASES, "{boards} boards");
}

/// The long run: `PARTIZAN_FUZZ_CASES` cases (default 100,000).
#[test]
#[ignore = "long fuzz run: PARTIZAN_FUZZ_CASES=N cargo test --release -p partizan-games --test all fuzz_boards:: -- --ignored"]
fn board_text_long_run() {
    fuzz(long_run_cases(100_000));
}
