//! Fuzzing the certificate reader and checker (a proptest-driven corpus
//! run, fixed seed and case count, a few seconds): mutations of honest
//! certificates of small boards (bytes flipped, lines dropped, doubled,
//! swapped or cut, fields replaced by hostile text) must never panic,
//! must end within the position limit, and a certificate accepted must
//! claim only what minimax says. The long run:
//! `PROPTEST_CASES=20000 cargo test --release -p partizan-solve --test all certificate_fuzz:: -- --ignored`.

use partizan_games::{Board, Clobber, Domineering, Player, Ruleset, TopplingDominoes};
use partizan_solve::outcome::{wins_plain, Convention};
use partizan_solve::search::certificate::{
    check, check_reader, solve_with_certificate, CertReader, Certificate,
};
use partizan_solve::search::{Control, Knowledge, SearchConfig};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rustc_hash::FxHashMap;

/// Hostile field values.
const HOSTILE: &[&str] = &[
    "",
    "0",
    "-1",
    "99999999999999999999",
    "Tiny(200000)",
    "{{{{{{{{{{{{{{{{{{{{{{{{{{{{",
    "^<99999>",
    "*4294967295",
    "1/0",
    "\u{0}",
    "é",
    "........|........|........|........|........|........|........|........",
    "claim left wins",
    "move\tL\t..\t0\tboard\t..",
    "value-cells 64",
    "positions whole",
    "cutoffs bounds fine",
];

fn honest<R: Knowledge>(rules: &R, text: &str) -> (String, Board) {
    let b = rules.parse(text).unwrap();
    let mut cfg = SearchConfig::for_ruleset(rules, Convention::Normal);
    cfg.table_bytes = 1 << 20;
    let (_, cert) = solve_with_certificate(rules, &b, &cfg, &Control::default()).unwrap();
    (cert.to_text(), b)
}

#[derive(Debug, Clone)]
enum Mutation {
    FlipByte(usize, u8),
    DropLine(usize),
    DoubleLine(usize),
    SwapLines(usize, usize),
    Cut(usize),
    Field(usize, usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::FlipByte(i, b)),
        any::<usize>().prop_map(Mutation::DropLine),
        any::<usize>().prop_map(Mutation::DoubleLine),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::SwapLines(i, j)),
        any::<usize>().prop_map(Mutation::Cut),
        (any::<usize>(), any::<usize>(), any::<usize>())
            .prop_map(|(l, f, h)| Mutation::Field(l, f, h)),
    ]
}

fn apply(text: &str, muts: &[Mutation]) -> Vec<u8> {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut bytes_out = None;
    for m in muts {
        let n = lines.len().max(1);
        match *m {
            Mutation::FlipByte(i, b) => {
                let mut bytes = lines.join("\n").into_bytes();
                if !bytes.is_empty() {
                    let k = i % bytes.len();
                    bytes[k] ^= b | 1;
                }
                bytes_out = Some(bytes);
                break;
            }
            Mutation::DropLine(i) if !lines.is_empty() => {
                lines.remove(i % n);
            }
            Mutation::DoubleLine(i) if !lines.is_empty() => {
                let l = lines[i % n].clone();
                lines.insert(i % n, l);
            }
            Mutation::SwapLines(i, j) if !lines.is_empty() => lines.swap(i % n, j % n),
            Mutation::Cut(i) => lines.truncate(i % (n + 1)),
            Mutation::Field(l, f, h) if !lines.is_empty() => {
                let line = &mut lines[l % n];
                let sep = if line.contains('\t') { '\t' } else { ' ' };
                let mut fields: Vec<String> = line.split(sep).map(str::to_string).collect();
                let k = f % fields.len();
                fields[k] = HOSTILE[h % HOSTILE.len()].to_string();
                *line = fields.join(&sep.to_string());
            }
            _ => {}
        }
    }
    bytes_out.unwrap_or_else(|| {
        let mut s = lines.join("\n");
        s.push('\n');
        s.into_bytes()
    })
}

/// Read and check `bytes` as a certificate of `rules`: no panic, and an
/// accepted one claims only the truth of `root`'s board as it names it.
fn probe<R: Ruleset>(rules: &R, bytes: &[u8]) -> Result<bool, TestCaseError> {
    let Ok(reader) = CertReader::new(bytes) else {
        return Ok(false);
    };
    let h = reader.header().clone();
    let r = check_reader(rules, reader, 200_000, &mut |_| {
        std::ops::ControlFlow::Continue(())
    });
    if r.is_err() {
        return Ok(false);
    }
    // Accepted: every claim must be true of the board it names.
    let b = rules
        .parse(&h.board)
        .map_err(|e| TestCaseError::fail(format!("accepted an unreadable board: {e}")))?;
    let mut memo = FxHashMap::default();
    for p in [Player::Left, Player::Right] {
        if let Some(c) = h.claims.of(p) {
            let truth = wins_plain(rules, h.convention, &b, p, &mut memo);
            prop_assert_eq!(
                c,
                truth,
                "accepted a false claim: {}",
                String::from_utf8_lossy(bytes)
            );
        }
    }
    Ok(true)
}

fn run(cases: u32) {
    let seeds = [
        (honest(&Domineering, "....|....|.#..").0, 0u8),
        (honest(&Domineering, ".....|.....|....#").0, 0),
        (honest(&Clobber, "xoxo|oxox|xo.o").0, 1),
        (honest(&TopplingDominoes, "LRGLR|RLLGR").0, 2),
    ];
    let accepted = std::cell::Cell::new(0u32);
    let total = std::cell::Cell::new(0u32);
    for (text, which) in &seeds {
        let config = Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        };
        let mut runner = TestRunner::new_with_rng(
            config,
            TestRng::from_seed(RngAlgorithm::ChaCha, &[*which + 38; 32]),
        );
        runner
            .run(&prop::collection::vec(mutation(), 1..4), |muts| {
                let bytes = apply(text, &muts);
                total.set(total.get() + 1);
                let ok = match which {
                    0 => probe(&Domineering, &bytes)?,
                    1 => probe(&Clobber, &bytes)?,
                    _ => probe(&TopplingDominoes, &bytes)?,
                };
                accepted.set(accepted.get() + u32::from(ok));
                Ok(())
            })
            .unwrap();
        // The honest one itself is accepted.
        let cert = Certificate::parse(text).unwrap();
        let honest_ok = match which {
            0 => check(&Domineering, &cert, 1 << 20).is_ok(),
            1 => check(&Clobber, &cert, 1 << 20).is_ok(),
            _ => check(&TopplingDominoes, &cert, 1 << 20).is_ok(),
        };
        assert!(honest_ok);
    }
    eprintln!(
        "{} mutated certificates read and checked, {} accepted (all true)",
        total.get(),
        accepted.get()
    );
}

#[test]
fn mutated_certificates_never_panic_nor_pass_a_false_claim() {
    run(400);
}

#[test]
#[ignore]
fn mutated_certificates_long_run() {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(20_000);
    run(cases);
}
