//! An estimate of the work left, from measured quantities only: how fast
//! the root's proof and disproof numbers have been falling over the last
//! jobs, and how long those jobs took.
//!
//! Over a sliding window of the last [`WINDOW`] answers, the least-squares
//! slope of each number against jobs done gives its fall per job; a
//! number over its fall per job is the jobs left until it reaches 0 (the
//! root decided) at that rate, and of the two numbers the one that gets
//! there first is taken (a first player who loses is shown by the
//! disproof number falling while the proof number stays put or rises).
//! Those jobs at the window's wall time per job are the time left. Nothing
//! is said ("no estimate yet") until the window spans [`MIN_JOBS`] jobs,
//! nor while neither number is falling (flat or rising, as while
//! unresolved jobs are expanded into children faster than jobs are
//! decided), nor for a number that was infinite in the window. It is a
//! rate, not a bound: the numbers jump when a subtree is decided or
//! expanded, and the estimate follows the window.

use std::collections::VecDeque;

use serde::Serialize;

/// Answers the window holds.
pub const WINDOW: usize = 256;

/// Jobs the window must span before anything is estimated.
pub const MIN_JOBS: u64 = 32;

/// One measurement, taken after an answer is applied.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Jobs done so far (handed out or searched by the master).
    pub jobs: u64,
    /// Milliseconds since the start.
    pub ms: u64,
    /// The root's proof number.
    pub pn: u64,
    /// The root's disproof number.
    pub dn: u64,
}

/// The work left at the current rate.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// Jobs left.
    pub jobs_left: u64,
    /// Seconds left.
    pub secs_left: f64,
    /// The number estimated: `proof` (the first player is winning) or
    /// `disproof`.
    pub number: &'static str,
    /// How much it falls per job over the window.
    pub fall_per_job: f64,
    /// The window's wall seconds per job.
    pub secs_per_job: f64,
}

/// How much `number` falls per job over `window` (least squares against
/// jobs done); `None` where it is not falling or was infinite.
fn fall_per_job(window: &[Sample], number: impl Fn(&Sample) -> u64) -> Option<f64> {
    if window.iter().any(|s| number(s) == u64::MAX) {
        return None;
    }
    let n = window.len() as f64;
    let mx = window.iter().map(|s| s.jobs as f64).sum::<f64>() / n;
    let my = window.iter().map(|s| number(s) as f64).sum::<f64>() / n;
    let (mut sxy, mut sxx) = (0.0, 0.0);
    for s in window {
        let dx = s.jobs as f64 - mx;
        sxy += dx * (number(s) as f64 - my);
        sxx += dx * dx;
    }
    let fall = -sxy / sxx;
    (fall.is_finite() && fall > 0.0).then_some(fall)
}

/// The estimate from `window` (oldest first); `None` when the rate is not
/// measurable yet or neither number is falling (see the module comment).
pub fn estimate(window: &[Sample]) -> Option<Estimate> {
    let (first, last) = (window.first()?, window.last()?);
    let span = last.jobs.checked_sub(first.jobs)?;
    if span < MIN_JOBS || last.ms <= first.ms || last.pn == 0 || last.dn == 0 {
        return None;
    }
    let secs_per_job = (last.ms - first.ms) as f64 / 1000.0 / span as f64;
    let side = |name: &'static str, number: fn(&Sample) -> u64| {
        let fall = fall_per_job(window, number)?;
        let jobs_left = (number(last) as f64 / fall).ceil();
        Some(Estimate {
            jobs_left: jobs_left as u64,
            secs_left: jobs_left * secs_per_job,
            number: name,
            fall_per_job: fall,
            secs_per_job,
        })
    };
    let p = side("proof", |s| s.pn);
    let d = side("disproof", |s| s.dn);
    match (p, d) {
        (Some(p), Some(d)) => Some(if d.jobs_left < p.jobs_left { d } else { p }),
        (p, d) => p.or(d),
    }
}

/// The sliding window of one search.
#[derive(Clone, Debug, Default)]
pub struct Estimator {
    window: VecDeque<Sample>,
}

impl Estimator {
    /// Add a measurement (one with no more jobs than the last replaces it:
    /// the window's points are one per job count).
    pub fn push(&mut self, s: Sample) {
        if self.window.back().is_some_and(|b| b.jobs >= s.jobs) {
            self.window.pop_back();
        }
        self.window.push_back(s);
        while self.window.len() > WINDOW {
            self.window.pop_front();
        }
    }

    /// The estimate now ([`estimate`] over the window).
    pub fn estimate(&mut self) -> Option<Estimate> {
        estimate(self.window.make_contiguous())
    }
}

/// "about N jobs / T left at the current rate", or "no estimate yet".
pub fn describe(e: Option<&Estimate>) -> String {
    match e {
        None => "no estimate yet".to_string(),
        Some(e) => format!(
            "about {} jobs / {} left at the current rate",
            e.jobs_left,
            duration_text(e.secs_left)
        ),
    }
}

/// Seconds as a short text: 40 s, 12 min, 3.5 h, 2.1 days.
pub fn duration_text(secs: f64) -> String {
    if secs < 90.0 {
        format!("{secs:.0} s")
    } else if secs < 90.0 * 60.0 {
        format!("{:.0} min", secs / 60.0)
    } else if secs < 48.0 * 3600.0 {
        format!("{:.1} h", secs / 3600.0)
    } else {
        format!("{:.1} days", secs / 86400.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples one a job, a job every 100 ms, the smaller number `f(job)`.
    fn seq(jobs: u64, f: impl Fn(u64) -> u64) -> Vec<Sample> {
        (0..jobs)
            .map(|j| Sample {
                jobs: j,
                ms: j * 100,
                pn: f(j),
                dn: u64::MAX - 1,
            })
            .collect()
    }

    #[test]
    fn a_steady_fall_gives_the_jobs_and_time_left() {
        // 1000 falling by 2 a job: after 100 jobs, 802 left, 401 jobs.
        let w = seq(100, |j| 1000 - 2 * j);
        let e = estimate(&w).unwrap();
        assert!((e.fall_per_job - 2.0).abs() < 1e-9, "{e:?}");
        assert_eq!(e.jobs_left, 401);
        // 99 jobs in 9.9 s: 0.1 s a job
        assert!((e.secs_left - 40.1).abs() < 1e-6, "{e:?}");
        assert_eq!(
            describe(Some(&e)),
            "about 401 jobs / 40 s left at the current rate"
        );
    }

    #[test]
    fn flat_or_rising_numbers_give_no_estimate() {
        assert_eq!(estimate(&seq(200, |_| 500)), None);
        assert_eq!(estimate(&seq(200, |j| 500 + j)), None);
        // falling then rising more: the trend over the window is up
        assert_eq!(
            estimate(&seq(200, |j| if j < 50 { 500 - j } else { j * 3 })),
            None
        );
        assert_eq!(describe(None), "no estimate yet");
    }

    #[test]
    fn too_few_jobs_or_an_infinite_number_give_no_estimate() {
        assert_eq!(estimate(&[]), None);
        assert_eq!(estimate(&seq(MIN_JOBS as usize as u64, |j| 1000 - j)), None);
        assert!(estimate(&seq(MIN_JOBS + 1, |j| 1000 - j)).is_some());
        let mut w = seq(100, |j| 1000 - j);
        w[3].pn = u64::MAX;
        w[3].dn = u64::MAX;
        assert_eq!(estimate(&w), None);
    }

    #[test]
    fn the_number_that_reaches_zero_first_counts_and_the_window_slides() {
        // dn falls while pn is smaller but rising: dn is the one estimated
        let w: Vec<Sample> = (0..100)
            .map(|j| Sample {
                jobs: j,
                ms: j * 10,
                pn: 50 + j / 10,
                dn: 300 - j,
            })
            .collect();
        let e = estimate(&w).unwrap();
        assert_eq!((e.jobs_left, e.number), (201, "disproof"));
        // both fall: the one that gets to 0 sooner
        let w: Vec<Sample> = (0..100)
            .map(|j| Sample {
                jobs: j,
                ms: j * 10,
                pn: 1000 - j,
                dn: 600 - j,
            })
            .collect();
        let e = estimate(&w).unwrap();
        assert_eq!((e.jobs_left, e.number), (501, "disproof"));
        // a long rise, then a fall: the window only sees the fall
        let mut est = Estimator::default();
        for j in 0..1000 {
            let n = if j < 600 {
                100 + j
            } else {
                700 - (j - 600) / 2
            };
            est.push(Sample {
                jobs: j,
                ms: j,
                pn: n,
                dn: u64::MAX - 1,
            });
        }
        let e = est.estimate().unwrap();
        assert!((e.fall_per_job - 0.5).abs() < 0.01, "{e:?}");
        // equal job counts keep the last sample only
        est.push(Sample {
            jobs: 999,
            ms: 2000,
            pn: 10,
            dn: 10,
        });
        assert_eq!(est.window.len(), WINDOW);
        assert_eq!(est.window.back().unwrap().pn, 10);
    }
}
