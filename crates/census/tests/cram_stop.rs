//! `CramCensus::run_until` (Ctrl-C in the Python package): stopped, it
//! returns `None`; never stopped, exactly what `run` returns.

use std::cell::Cell;

use partizan_census::CramCensus;

#[test]
fn run_until_stops_and_otherwise_matches_run() {
    let raised = || true;
    assert!(CramCensus::run_until(8, &raised).unwrap().is_none());
    // stop after 100 questions: still None, not a partial census
    let asked = Cell::new(0);
    let later = || {
        asked.set(asked.get() + 1);
        asked.get() > 100
    };
    assert!(CramCensus::run_until(8, &later).unwrap().is_none());
    let lowered = || false;
    let a = CramCensus::run_until(8, &lowered).unwrap().unwrap();
    let b = CramCensus::run(8).unwrap();
    assert_eq!(a.records.len(), b.records.len());
    assert!(a
        .records
        .iter()
        .zip(&b.records)
        .all(|(x, y)| x.shape == y.shape && x.nim == y.nim));
}
