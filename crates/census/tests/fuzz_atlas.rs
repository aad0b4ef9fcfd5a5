//! Fuzz target (issue 38): atlas files as they are read back (the level
//! files `level-NN.pzal`, their summaries `level-NN.summary.pzal` and
//! their indexes `level-NN.index.pzal`,
//! through `DirStore::load_atlas` and `DirStore::find`). A proptest-driven
//! corpus run with a fixed seed and a fixed number of cases, so it runs in
//! `cargo test`: an atlas to 6 cells is built once, and each case damages
//! its files (bits flipped, bytes replaced, inserted, deleted, files cut
//! short, grown, swapped for another level's file or for random bytes,
//! deleted) before reading it all back. Each case asserts:
//!
//! * no panic, and an answer within [`PER_CASE`];
//! * an atlas or a typed [`AtlasError`] (one line);
//! * an atlas read back from damaged files answers exactly as the
//!   undamaged one of the levels left (a removed top level leaves a smaller
//!   atlas): the same report, the same answers to the same queries (never a
//!   wrong answer).
//!
//! The long run, with the case count from `PARTIZAN_FUZZ_CASES`:
//!
//! ```sh
//! PARTIZAN_FUZZ_CASES=20000 cargo test --release -p partizan-census --test all fuzz_atlas:: -- --ignored
//! ```

use std::path::{Path, PathBuf};
use std::time::Duration;

use partizan_census::atlas::{Atlas, AtlasConfig, AtlasError, Query};
use partizan_census::DirStore;
use partizan_fuzzkit::{long_run_cases, run, within, MAIN_STACK};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// How long one case may take before it counts as unbounded work.
const PER_CASE: Duration = Duration::from_secs(20);
/// Cases of the run in `cargo test`.
const CASES: u32 = 300;
/// The atlas's sizes.
const CELLS: usize = 6;

/// One change to the atlas's files.
#[derive(Clone, Debug)]
enum Damage {
    Flip {
        file: usize,
        at: usize,
        bit: u8,
    },
    Set {
        file: usize,
        at: usize,
        byte: u8,
    },
    Insert {
        file: usize,
        at: usize,
        bytes: Vec<u8>,
    },
    Delete {
        file: usize,
        at: usize,
        len: usize,
    },
    Cut {
        file: usize,
        at: usize,
    },
    Swap {
        file: usize,
        with: usize,
    },
    Random {
        file: usize,
        bytes: Vec<u8>,
    },
    Remove {
        file: usize,
    },
}

fn damage(files: usize) -> impl Strategy<Value = Damage> {
    let f = 0..files;
    prop_oneof![
        4 => (f.clone(), any::<usize>(), 0u8..8).prop_map(|(file, at, bit)| Damage::Flip { file, at, bit }),
        2 => (f.clone(), any::<usize>(), any::<u8>()).prop_map(|(file, at, byte)| Damage::Set { file, at, byte }),
        1 => (f.clone(), any::<usize>(), prop::collection::vec(any::<u8>(), 1..64))
            .prop_map(|(file, at, bytes)| Damage::Insert { file, at, bytes }),
        1 => (f.clone(), any::<usize>(), 1usize..64).prop_map(|(file, at, len)| Damage::Delete { file, at, len }),
        2 => (f.clone(), any::<usize>()).prop_map(|(file, at)| Damage::Cut { file, at }),
        1 => (f.clone(), f.clone()).prop_map(|(file, with)| Damage::Swap { file, with }),
        1 => (f.clone(), prop::collection::vec(any::<u8>(), 0..400)).prop_map(|(file, bytes)| Damage::Random { file, bytes }),
        1 => f.prop_map(|file| Damage::Remove { file }),
    ]
}

/// The atlas's files, by name, with their bytes.
fn files_of(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let b = std::fs::read(&p).unwrap();
            (p, b)
        })
        .collect();
    v.sort();
    v
}

/// What the atlas answers: its report and some queries, as JSON text.
fn answers(dir: &Path) -> Result<String, AtlasError> {
    let mut store = DirStore::new(dir);
    let atlas = store.load_atlas(None)?;
    let mut out = serde_json::to_string(&atlas.report(10)).unwrap();
    for q in [
        Query {
            limit: 20,
            ..Query::default()
        },
        Query {
            value: Some("*".into()),
            limit: 20,
            ..Query::default()
        },
        Query {
            min_temperature: Some("1".into()),
            limit: 20,
            ..Query::default()
        },
        Query {
            kind: Some("number".into()),
            limit: 5,
            ..Query::default()
        },
    ] {
        // from the index (else the summaries) and from the loaded levels
        let (found, _, cells) = store.find(&q)?;
        let (loaded, _, _) = store.find_in(&q, Some(&atlas))?;
        for a in [found, loaded] {
            out.push_str(&format!("\n{cells} {} {:?}", a.total, a.regions));
        }
    }
    Ok(out)
}

/// Read the damaged atlas on a guarded thread. `Ok(true)`: it answered
/// (as the undamaged atlas of the levels left); `Ok(false)`: refused.
fn read_back(dir: &Path, truth: &str) -> Result<bool, TestCaseError> {
    let d = dir.to_path_buf();
    match within(PER_CASE, MAIN_STACK, move || Ok(answers(&d)))? {
        Ok(got) if got == truth => Ok(true),
        Ok(got) => Err(TestCaseError::fail(format!(
            "a damaged atlas answered differently: {got}"
        ))),
        Err(e) => {
            let said = e.to_string();
            if said.is_empty() || said.contains('\n') {
                return Err(TestCaseError::fail(format!("error not one line: {said:?}")));
            }
            Ok(false)
        }
    }
}

fn apply(files: &[(PathBuf, Vec<u8>)], damages: &[Damage]) {
    let mut now: Vec<Option<Vec<u8>>> = files.iter().map(|(_, b)| Some(b.clone())).collect();
    for d in damages {
        let at_in = |b: &Vec<u8>, at: usize| if b.is_empty() { 0 } else { at % b.len() };
        match d {
            Damage::Flip { file, at, bit } => {
                if let Some(b) = now[*file].as_mut().filter(|b| !b.is_empty()) {
                    let i = at_in(b, *at);
                    b[i] ^= 1 << bit;
                }
            }
            Damage::Set { file, at, byte } => {
                if let Some(b) = now[*file].as_mut().filter(|b| !b.is_empty()) {
                    let i = at_in(b, *at);
                    b[i] = *byte;
                }
            }
            Damage::Insert { file, at, bytes } => {
                if let Some(b) = now[*file].as_mut() {
                    let i = at % (b.len() + 1);
                    b.splice(i..i, bytes.iter().copied());
                }
            }
            Damage::Delete { file, at, len } => {
                if let Some(b) = now[*file].as_mut().filter(|b| !b.is_empty()) {
                    let i = at_in(b, *at);
                    let end = (i + len).min(b.len());
                    b.drain(i..end);
                }
            }
            Damage::Cut { file, at } => {
                if let Some(b) = now[*file].as_mut() {
                    let i = at % (b.len() + 1);
                    b.truncate(i);
                }
            }
            Damage::Swap { file, with } => now[*file] = Some(files[*with].1.clone()),
            Damage::Random { file, bytes } => now[*file] = Some(bytes.clone()),
            Damage::Remove { file } => now[*file] = None,
        }
    }
    for ((path, _), b) in files.iter().zip(now) {
        match b {
            Some(b) => std::fs::write(path, b).unwrap(),
            None => {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

fn fuzz(cases: u32) -> (u32, u32) {
    let dir = tempfile::tempdir().unwrap();
    Atlas::build(&AtlasConfig::new(CELLS), &mut DirStore::new(dir.path())).unwrap();
    let files = files_of(dir.path());
    assert_eq!(
        files.len(),
        5 * CELLS,
        "a level file, a summary, their seals and an index per size"
    );
    // the undamaged answers of the atlas to each size: a removed top level
    // leaves a smaller atlas (a level missing below the top is refused)
    let truths: Vec<Option<String>> = (0..=CELLS)
        .map(|k| {
            if k == 0 {
                return None;
            }
            let smaller = tempfile::tempdir().unwrap();
            for (p, b) in &files {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                if (1..=k).any(|c| name.starts_with(&format!("level-{c:02}."))) {
                    std::fs::write(smaller.path().join(name), b).unwrap();
                }
            }
            Some(answers(smaller.path()).expect("the undamaged atlas reads"))
        })
        .collect();
    let mut answered = 0u32;
    let strategy = prop::collection::vec(damage(files.len()), 1..4);
    let seen = run(0x5EED_A71A, cases, &strategy, |damages| {
        apply(&files, &damages);
        let top = (1..=CELLS)
            .take_while(|c| dir.path().join(format!("level-{c:02}.pzal")).exists())
            .count();
        let r = read_back(dir.path(), truths[top].as_deref().unwrap_or("(no atlas)"));
        // the undamaged files back for the next case
        for (p, b) in &files {
            std::fs::write(p, b).unwrap();
        }
        if r? {
            answered += 1;
        }
        Ok(())
    });
    eprintln!(
        "fuzz_atlas: {seen} cases, {answered} answered as the undamaged atlas, {} refused",
        seen - answered
    );
    (seen, answered)
}

#[test]
fn damaged_atlas_files_are_refused_never_believed() {
    let (cases, _) = fuzz(CASES);
    assert_eq!(cases, CASES);
}

/// The long run: `PARTIZAN_FUZZ_CASES` cases (default 20,000).
#[test]
#[ignore = "long fuzz run: PARTIZAN_FUZZ_CASES=N cargo test --release -p partizan-census --test all fuzz_atlas:: -- --ignored"]
fn damaged_atlas_files_long_run() {
    fuzz(long_run_cases(20_000));
}
