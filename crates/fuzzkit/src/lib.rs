//! The harness of partizan's fuzz targets (issue 38): every parser of
//! untrusted input has a proptest-driven corpus run in its crate's
//! `tests/fuzz_*.rs`, run by `cargo test` with a fixed seed and a fixed
//! number of cases, and a long run behind `#[ignore]` whose case count
//! comes from `PARTIZAN_FUZZ_CASES`:
//!
//! ```sh
//! PARTIZAN_FUZZ_CASES=100000 cargo test --release -p partizan-games --test all fuzz_boards:: -- --ignored
//! ```
//!
//! A case runs on its own thread ([`within`]): a panic is a failure, and
//! so is a case that does not answer within its time (a hang or unbounded
//! work), while proptest shrinks a failure to the smallest input it finds.

#![warn(missing_docs)]

use std::sync::mpsc;
use std::time::Duration;

pub use proptest;
use proptest::strategy::Strategy;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};

/// The case count of a long run: `PARTIZAN_FUZZ_CASES`, else `default`.
#[must_use]
pub fn long_run_cases(default: u32) -> u32 {
    std::env::var("PARTIZAN_FUZZ_CASES")
        .ok()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(default)
}

/// Run `case` on `cases` inputs of `strategy`, drawn from the fixed `seed`
/// (the same inputs every run; no regression files are written). A failing
/// case panics with proptest's report: the failure and the smallest input
/// found that fails. Returns the number of cases run.
pub fn run<S: Strategy>(
    seed: u64,
    cases: u32,
    strategy: &S,
    mut case: impl FnMut(S::Value) -> Result<(), TestCaseError>,
) -> u32 {
    let mut runner = TestRunner::new(Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..Config::default()
    });
    // proptest asks for `Fn`: the case and the count are borrowed inside
    let seen = std::cell::Cell::new(0u32);
    let case = std::cell::RefCell::new(&mut case);
    if let Err(e) = runner.run(strategy, |input| {
        seen.set(seen.get() + 1);
        (case.borrow_mut())(input)
    }) {
        panic!("{e}");
    }
    seen.get()
}

/// `work()` on a thread of its own with `stack` bytes of stack (8 MiB is
/// the main thread's, on which the command-line tool runs): its value, or a
/// failure when it fails (`Err(why)`), panics, or gives no answer within
/// `limit` (the thread is then left behind; the test fails anyway).
pub fn within<T: Send + 'static>(
    limit: Duration,
    stack: usize,
    work: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, TestCaseError> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            let _ = tx.send(r);
        })
        .map_err(|e| TestCaseError::fail(format!("no thread: {e}")))?;
    match rx.recv_timeout(limit) {
        Ok(Ok(Ok(v))) => Ok(v),
        Ok(Ok(Err(why))) => Err(TestCaseError::fail(why)),
        Ok(Err(_)) => Err(TestCaseError::fail("panicked")),
        Err(_) => Err(TestCaseError::fail(format!("no answer in {limit:?}"))),
    }
}

/// The main thread's stack on Linux.
pub const MAIN_STACK: usize = 8 << 20;

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_run_is_the_same_every_time_and_counts_its_cases() {
        let mut first = Vec::new();
        assert_eq!(
            run(7, 50, &any::<u32>(), |x| {
                first.push(x);
                Ok(())
            }),
            50
        );
        let mut again = Vec::new();
        run(7, 50, &any::<u32>(), |x| {
            again.push(x);
            Ok(())
        });
        assert_eq!(first, again);
    }

    #[test]
    fn a_panic_an_error_and_a_hang_are_failures() {
        let quick = Duration::from_secs(10);
        assert_eq!(within(quick, MAIN_STACK, || Ok(3)).ok(), Some(3));
        assert!(within(quick, MAIN_STACK, || -> Result<(), String> {
            panic!("boom")
        })
        .is_err());
        assert!(within(quick, MAIN_STACK, || -> Result<(), String> {
            Err("no".into())
        })
        .is_err());
        let hang = within(
            Duration::from_millis(50),
            MAIN_STACK,
            || -> Result<(), String> {
                std::thread::sleep(Duration::from_secs(5));
                Ok(())
            },
        );
        assert!(hang.unwrap_err().to_string().contains("no answer"));
    }

    #[test]
    #[should_panic(expected = "minimal failing input")]
    fn a_failing_case_panics_with_its_smallest_input() {
        run(1, 100, &(0u32..1000), |x| {
            if x >= 10 {
                Err(TestCaseError::fail("too big"))
            } else {
                Ok(())
            }
        });
    }
}
