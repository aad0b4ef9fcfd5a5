//! Catching a panic of a storage engine on a damaged file without its
//! message: the caller turns the panic into a clear one-line error, and the
//! default panic hook must not print a Rust panic message and a backtrace
//! before it (a damaged v1 store once did).
//!
//! The hook is the process's, so it is wrapped once: it stays silent only
//! on a thread inside [`catch`], and otherwise does what the hook it
//! wrapped did.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
}

static WRAP: Once = Once::new();

/// `f()`, its panic (if any) caught and not printed.
pub(crate) fn catch<T>(f: impl FnOnce() -> T) -> std::thread::Result<T> {
    WRAP.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) {
                previous(info);
            }
        }));
    });
    let was = QUIET.with(|q| q.replace(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(was));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caught_panic_is_an_error_and_others_still_panic() {
        let r = catch(|| -> u32 { panic!("engine failed") });
        assert!(r.is_err());
        assert_eq!(catch(|| 7).ok(), Some(7));
        // outside `catch` a panic still propagates (and is printed)
        assert!(std::thread::spawn(|| panic!("not caught")).join().is_err());
    }
}
