//! The stoppable entry points (used by the Python package for Ctrl-C): a
//! raised flag abandons the work with `None`, a lowered one changes nothing.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use partizan_semigroup::{census, census_until, play, play_until, Order, Semigroup};

#[test]
fn a_stopped_census_returns_none_and_an_unstopped_one_the_census() {
    let raised = || true;
    assert!(census_until(12, Order::Increasing, false, &raised)
        .unwrap()
        .is_none());
    let lowered = || false;
    let r = census_until(12, Order::Increasing, false, &lowered)
        .unwrap()
        .unwrap();
    let plain = census(12, Order::Increasing).unwrap();
    assert_eq!(r.totals.positions, plain.totals.positions);
    assert_eq!(r.positions.len(), plain.positions.len());
}

#[test]
fn a_stopped_play_returns_none_and_an_unstopped_one_the_report() {
    let s = Semigroup::from_generators(&[9, 17]).unwrap();
    let raised = Arc::new(AtomicBool::new(true));
    assert!(play_until(&s, Some(raised)).unwrap().is_none());
    let lowered = Arc::new(AtomicBool::new(false));
    let r = play_until(&s, Some(lowered)).unwrap().unwrap();
    let plain = play(&s).unwrap();
    assert_eq!(r.winning_moves, plain.winning_moves);
    assert_eq!(r.remoteness, plain.remoteness);
    assert_eq!(r.outcome, plain.outcome);
}
