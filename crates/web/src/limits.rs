//! Request limits: a board-size cap per ruleset, a time budget per request,
//! and a bounded number of heavy requests at once. Heavy work runs on
//! tokio's blocking pool under a semaphore permit; it gets a [`Budget`] that
//! it checks as it goes, and the handler stops waiting when the budget is
//! spent (the work then sees the cancel flag and stops, still holding its
//! permit until it does, so the bound on concurrent work stays true).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;

use crate::error::WebError;

/// The limits a server runs under.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Time budget of one heavy request.
    pub budget: Duration,
    /// Heavy requests allowed to run at once; the rest wait up to
    /// `queue_wait` for a slot, then get 503.
    pub max_heavy: usize,
    /// How long a heavy request waits for a free slot before its 503.
    pub queue_wait: Duration,
    /// Budget of the one background computation a request that ran out of
    /// time hands its board to (`Duration::ZERO`: none).
    pub background_budget: Duration,
    /// Largest Sylver Coinage position (number of gaps) the site plays out.
    pub max_sylver_gaps: usize,
    /// Largest Sylver Coinage census (number of gaps).
    pub max_sylver_census_gaps: u32,
    /// Largest genus for semigroup counts.
    pub max_genus: u32,
    /// Largest region size (cells) for a census.
    pub max_census_cells: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            budget: Duration::from_secs(10),
            max_heavy: 4,
            queue_wait: Duration::from_secs(2),
            background_budget: Duration::from_secs(600),
            max_sylver_gaps: 32,
            max_sylver_census_gaps: 20,
            max_genus: 30,
            max_census_cells: 12,
        }
    }
}

impl Limits {
    /// The cell cap of a ruleset (by its canonical name): the registry's
    /// `site_cells`.
    pub fn cell_cap(&self, ruleset: &str) -> usize {
        partizan_games::Rules::from_name(ruleset).map_or(20, |r| r.info().site_cells)
    }

    /// Fail with a 400 if a board of `cells` cells is over the ruleset's cap.
    pub fn check_cells(&self, ruleset: &str, cells: usize) -> Result<(), WebError> {
        let cap = self.cell_cap(ruleset);
        if cells > cap {
            return Err(WebError::TooLarge {
                ruleset: ruleset.to_string(),
                cells,
                cap,
            });
        }
        Ok(())
    }
}

/// A deadline and a cancel flag handed to heavy work, which checks
/// [`Budget::check`] at convenient points and stops when it fails.
#[derive(Debug, Clone)]
pub struct Budget {
    deadline: Instant,
    budget: Duration,
    cancel: Arc<AtomicBool>,
}

impl Budget {
    /// A budget of `d` from now.
    pub fn new(d: Duration) -> Budget {
        Budget {
            deadline: Instant::now() + d,
            budget: d,
            cancel: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A budget that never runs out (for tools and tests).
    pub fn unlimited() -> Budget {
        Budget::new(Duration::from_secs(60 * 60 * 24 * 365))
    }

    /// Whether the work should stop: cancelled or past the deadline.
    pub fn expired(&self) -> bool {
        self.cancel.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }

    /// `Err(OutOfTime)` once the budget is spent.
    pub fn check(&self) -> Result<(), WebError> {
        if self.expired() {
            Err(self.out_of_time())
        } else {
            Ok(())
        }
    }

    /// The fault to report when the budget is spent.
    pub fn out_of_time(&self) -> WebError {
        WebError::OutOfTime(self.budget.as_millis() as u64)
    }

    /// A budget sharing this one's cancel flag whose deadline is at most `d`
    /// from now (and never later than this one's): for an optional step
    /// that may take only a share of what is left.
    pub fn within(&self, d: Duration) -> Budget {
        let soon = Instant::now() + d;
        Budget {
            deadline: self.deadline.min(soon),
            budget: self.budget,
            cancel: self.cancel.clone(),
        }
    }

    /// The time left before the deadline (zero once it has passed).
    pub fn remaining(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// A budget sharing this one's cancel flag whose deadline comes `margin`
    /// earlier: for an optional step that must leave time for what follows.
    pub fn reserve(&self, margin: Duration) -> Budget {
        Budget {
            deadline: self.deadline.checked_sub(margin).unwrap_or(self.deadline),
            budget: self.budget,
            cancel: self.cancel.clone(),
        }
    }

    /// Whether the work was asked to stop (as opposed to running out of time).
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The whole budget, as given.
    pub fn total(&self) -> Duration {
        self.budget
    }

    /// Ask the work to stop.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// Cancels a budget when dropped: the heavy work stops once nobody waits.
struct CancelOnDrop(Budget);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Run `work` on the blocking pool under a permit of `permits`, with a
/// budget of `budget`. Waits up to `wait` for a permit, then answers 503;
/// answers 503 when the budget runs out (cancelling the work). A panic is
/// a 500.
pub async fn run_heavy<T, F>(
    permits: &Arc<Semaphore>,
    max_heavy: usize,
    wait: Duration,
    budget: Duration,
    work: F,
) -> Result<T, WebError>
where
    T: Send + 'static,
    F: FnOnce(&Budget) -> Result<T, WebError> + Send + 'static,
{
    let permit = match permits.clone().try_acquire_owned() {
        Ok(p) => p,
        Err(_) => match tokio::time::timeout(wait, permits.clone().acquire_owned()).await {
            Ok(Ok(p)) => p,
            _ => return Err(WebError::Busy(max_heavy)),
        },
    };
    let b = Budget::new(budget);
    let inner = b.clone();
    // If the request goes away (the client hung up and the handler's future
    // is dropped), the work is told to stop too.
    let _guard = CancelOnDrop(b.clone());
    let handle = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        work(&inner)
    });
    // A little grace so that work which notices the deadline itself can
    // report it (with whatever it did finish) before we stop waiting.
    let grace = Duration::from_millis(250);
    match tokio::time::timeout(budget + grace, handle).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => {
            let what = if e.is_panic() {
                let p = e.into_panic();
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "panic".to_string())
            } else {
                "the work was cancelled".to_string()
            };
            Err(WebError::Internal(what))
        }
        Err(_) => {
            b.cancel();
            Err(b.out_of_time())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_by_ruleset() {
        let l = Limits::default();
        assert_eq!(l.cell_cap("domineering"), 30);
        assert_eq!(l.cell_cap("amazons"), 12);
        assert!(l.check_cells("amazons", 12).is_ok());
        assert!(matches!(
            l.check_cells("amazons", 13),
            Err(WebError::TooLarge { cap: 12, .. })
        ));
    }

    #[tokio::test]
    async fn busy_when_no_permit() {
        let sem = Arc::new(Semaphore::new(1));
        let _held = sem.clone().try_acquire_owned().unwrap();
        let r = run_heavy(&sem, 1, Duration::ZERO, Duration::from_secs(1), |_| Ok(1)).await;
        assert_eq!(r, Err(WebError::Busy(1)));
        let start = Instant::now();
        let r = run_heavy(
            &sem,
            1,
            Duration::from_millis(100),
            Duration::from_secs(1),
            |_| Ok(1),
        )
        .await;
        assert_eq!(r, Err(WebError::Busy(1)));
        assert!(
            start.elapsed() >= Duration::from_millis(100),
            "waited first"
        );
    }

    #[tokio::test]
    async fn a_request_waits_briefly_for_a_slot() {
        let sem = Arc::new(Semaphore::new(1));
        let held = sem.clone().try_acquire_owned().unwrap();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            drop(held);
        });
        let r = run_heavy(
            &sem,
            1,
            Duration::from_secs(2),
            Duration::from_secs(1),
            |_| Ok(7),
        )
        .await;
        assert_eq!(r, Ok(7));
    }

    #[tokio::test]
    async fn out_of_time_cancels_and_keeps_permit_until_done() {
        let sem = Arc::new(Semaphore::new(1));
        let r: Result<(), WebError> =
            run_heavy(&sem, 1, Duration::ZERO, Duration::from_millis(50), |b| {
                // Ignores its budget for a while, then honours the cancel flag.
                let start = Instant::now();
                while start.elapsed() < Duration::from_millis(600) {
                    std::thread::sleep(Duration::from_millis(5));
                }
                b.check()
            })
            .await;
        assert!(matches!(r, Err(WebError::OutOfTime(50))));
        // The work still holds its permit.
        assert!(sem.clone().try_acquire_owned().is_err());
        tokio::time::sleep(Duration::from_millis(700)).await;
        assert!(sem.clone().try_acquire_owned().is_ok());
    }

    #[tokio::test]
    async fn dropped_request_cancels_the_work() {
        let sem = Arc::new(Semaphore::new(1));
        let fut = run_heavy(&sem, 1, Duration::ZERO, Duration::from_secs(30), |b| {
            while !b.expired() {
                std::thread::sleep(Duration::from_millis(2));
            }
            b.check()
        });
        // Give up waiting after 50 ms: the future is dropped.
        assert!(tokio::time::timeout(Duration::from_millis(50), fut)
            .await
            .is_err());
        for _ in 0..200 {
            if sem.available_permits() == 1 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the abandoned work kept running");
    }

    #[tokio::test]
    async fn panic_is_internal() {
        let sem = Arc::new(Semaphore::new(1));
        let r: Result<(), WebError> =
            run_heavy(&sem, 1, Duration::ZERO, Duration::from_secs(30), |_| {
                panic!("boom")
            })
            .await;
        assert_eq!(r, Err(WebError::Internal("boom".into())));
    }
}
