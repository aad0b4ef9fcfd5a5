//! Values that a short text makes deep: `Tiny(200000)` is a few
//! characters, but its canonical form reaches the integer `-200000`, a
//! chain of a million forms, and `^4096` is a chain of four thousand. Every
//! operation the CLI's `analyse` and `game` offer must answer them (or
//! refuse them with an error) on a thread with the main thread's 8 MiB of
//! stack, never overflow it: `analyse 'Tiny(200000)'` once aborted with a
//! stack overflow in the remote-star walk.
//!
//! A stack overflow aborts the whole test binary, so a regression shows as
//! this binary failing, with the value and operation printed just before.

use partizan_core::{Arena, Dyadic, GameId};

/// The main thread's stack on Linux (what `partizan` runs its commands on).
const MAIN_STACK: usize = 8 << 20;

type Op = fn(&mut Arena, GameId);

fn ops() -> Vec<(&'static str, Op)> {
    vec![
        ("display", |a, g| {
            let _ = a.display(g);
        }),
        ("display_latex", |a, g| {
            let _ = a.display_latex(g);
        }),
        ("size_summary", |a, g| {
            let _ = a.size_summary(g);
        }),
        ("atomic_weight", |a, g| {
            let _ = a.atomic_weight(g);
        }),
        ("two_ahead", |a, g| {
            let _ = a.two_ahead(g);
        }),
        ("far_star", |a, g| {
            let _ = a.far_star(g);
        }),
        ("is_all_small", |a, g| {
            let _ = a.is_all_small(g);
        }),
        ("reduced", |a, g| {
            let _ = a.reduced(g);
        }),
        ("infinitesimal_part", |a, g| {
            let _ = a.infinitesimal_part(g);
        }),
        ("thermograph", |a, g| {
            let _ = a.thermograph(g);
        }),
        ("cool", |a, g| {
            let _ = a.cool(g, Dyadic::from_int(1));
        }),
        ("freeze", |a, g| {
            let _ = a.freeze(g);
        }),
        ("orthodox_form", |a, g| {
            let _ = a.orthodox_form(g);
        }),
        ("incentives", |a, g| {
            let _ = a.incentives(g);
        }),
        ("toolkit", |a, g| {
            let _ = a.toolkit(g);
        }),
        ("neg", |a, g| {
            let _ = a.neg(g);
        }),
        ("outcome", |a, g| {
            let _ = a.outcome(g);
        }),
        ("sum with *", |a, g| {
            let s = a.star();
            drop(a.sum(g, s));
        }),
        ("sum with itself", |a, g| drop(a.sum(g, g))),
        ("encode and decode", |a, g| {
            let bytes = a.encode(g);
            drop(Arena::new().decode(&bytes));
        }),
    ]
}

/// Short texts with deep canonical forms (`Tiny(200000)` is the value of
/// the report; the integer limit, `1048575`, only costs the test more time).
const DEEP: [&str; 9] = [
    "Tiny(200000)",
    "Miny(200000)",
    "200000Tiny(200000)",
    "{200000|-200000}",
    "{200000||0|-200000}",
    "{0|^4096}",
    "^4096*",
    "{^4096|v4096}",
    "{*1024|0}",
];

#[test]
fn deep_values_stay_inside_the_main_threads_stack() {
    let worker = std::thread::Builder::new()
        .stack_size(MAIN_STACK)
        .spawn(|| {
            for text in DEEP {
                for (name, op) in ops() {
                    // printed first: an overflow aborts before any report
                    eprintln!("{text}: {name}");
                    let mut a = Arena::new();
                    let g = a.parse(text).expect("parses");
                    op(&mut a, g);
                }
            }
        })
        .expect("thread starts");
    worker.join().expect("no panic");
}
