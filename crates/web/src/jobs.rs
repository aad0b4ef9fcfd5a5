//! Long computations in the background: when a board the site accepts
//! needs more than a request's budget, its value goes on being computed
//! here — one at a time, with a longer budget, cancellable — and the answer
//! is kept (and written to the store, when the site has one) for the next
//! request. `GET /api/job` shows what runs; `GET /api/job/cancel` stops it.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use partizan_games::Board;
use partizan_report::BoardValue;
use partizan_solve::Savings;
use partizan_store::Store;
use serde::Serialize;

use crate::limits::Budget;

/// Where a background computation stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum JobState {
    /// Still searching.
    Running,
    /// Finished: the value report.
    Done {
        /// The report, as `/api/value` answers it.
        report: Box<BoardValue>,
    },
    /// Stopped by its own (longer) budget or by a cancel.
    Stopped {
        /// Why.
        reason: String,
    },
    /// Failed otherwise.
    Failed {
        /// The fault.
        error: String,
    },
}

/// One background computation.
#[derive(Debug, Clone)]
struct Job {
    ruleset: &'static str,
    board: String,
    savings: Savings,
    started: Instant,
    budget: Budget,
    state: Arc<Mutex<JobState>>,
}

/// What `/api/job` answers.
#[derive(Debug, Clone, Serialize)]
pub struct JobStatus {
    /// The ruleset.
    pub ruleset: &'static str,
    /// The board.
    pub board: String,
    /// Seconds since it started.
    pub elapsed_s: f64,
    /// Its budget in seconds.
    pub budget_s: f64,
    /// Where it stands.
    #[serde(flatten)]
    pub state: JobState,
}

/// The site's one background slot.
#[derive(Debug, Default)]
pub struct Jobs {
    job: Mutex<Option<Job>>,
}

/// What asking for a board's value in the background found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Started {
    /// Started now.
    New,
    /// This board is already being computed.
    Running(Duration),
    /// This board was computed: its report.
    Done(Box<BoardValue>),
    /// Another board occupies the slot.
    Busy(String),
}

impl Jobs {
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Job>> {
        self.job.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A finished report for this board, if the last job computed it.
    pub fn done(&self, ruleset: &str, board: &str, savings: Savings) -> Option<Box<BoardValue>> {
        let g = self.lock();
        let j = g.as_ref()?;
        if j.ruleset != ruleset || j.board != board || j.savings != savings {
            return None;
        }
        let st = j.state.lock().unwrap_or_else(|p| p.into_inner());
        match &*st {
            JobState::Done { report } => Some(report.clone()),
            _ => None,
        }
    }

    /// Compute `board`'s value in the background with `budget`, unless the
    /// slot holds another running job.
    pub fn start(
        &self,
        ruleset: &'static str,
        text: String,
        board: Board,
        savings: Savings,
        store: Option<Store>,
        budget: Duration,
    ) -> Started {
        let mut g = self.lock();
        if let Some(j) = g.as_ref() {
            let st = j.state.lock().unwrap_or_else(|p| p.into_inner()).clone();
            let same = j.ruleset == ruleset && j.board == text && j.savings == savings;
            match st {
                JobState::Running if same => return Started::Running(j.started.elapsed()),
                JobState::Running => {
                    return Started::Busy(format!(
                        "{} {} (running for {} s)",
                        j.ruleset,
                        j.board,
                        j.started.elapsed().as_secs()
                    ))
                }
                JobState::Done { report } if same => return Started::Done(report),
                _ => {}
            }
        }
        let state = Arc::new(Mutex::new(JobState::Running));
        let b = Budget::new(budget);
        let job = Job {
            ruleset,
            board: text,
            savings,
            started: Instant::now(),
            budget: b.clone(),
            state: state.clone(),
        };
        *g = Some(job);
        std::thread::spawn(move || {
            let r: Result<BoardValue, crate::WebError> = crate::with_ruleset!(ruleset, |r| {
                crate::report::value_report(r, &board, savings, store.as_ref(), &b)
            });
            let next = match r {
                Ok(v) => JobState::Done {
                    report: Box::new(v),
                },
                Err(e @ crate::WebError::OutOfTime(_)) => JobState::Stopped {
                    reason: if b.cancelled() {
                        "cancelled".to_string()
                    } else {
                        e.to_string()
                    },
                },
                Err(e) => JobState::Failed {
                    error: e.to_string(),
                },
            };
            *state.lock().unwrap_or_else(|p| p.into_inner()) = next;
        });
        Started::New
    }

    /// The current (or last) job, if any.
    pub fn status(&self) -> Option<JobStatus> {
        let g = self.lock();
        let j = g.as_ref()?;
        let state = j.state.lock().unwrap_or_else(|p| p.into_inner()).clone();
        Some(JobStatus {
            ruleset: j.ruleset,
            board: j.board.clone(),
            elapsed_s: j.started.elapsed().as_secs_f64(),
            budget_s: j.budget.total().as_secs_f64(),
            state,
        })
    }

    /// Ask the running job to stop; whether there was one.
    pub fn cancel(&self) -> bool {
        let g = self.lock();
        match g.as_ref() {
            Some(j) => {
                let running = matches!(
                    *j.state.lock().unwrap_or_else(|p| p.into_inner()),
                    JobState::Running
                );
                if running {
                    j.budget.cancel();
                }
                running
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use partizan_games::{Domineering, Ruleset};

    fn wait_done(j: &Jobs) -> JobStatus {
        for _ in 0..500 {
            let s = j.status().unwrap();
            if s.state != JobState::Running {
                return s;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("job did not finish");
    }

    #[test]
    fn one_at_a_time_and_the_answer_is_kept() {
        let jobs = Jobs::default();
        let b = Domineering.parse("...|...").unwrap();
        let t = "...|...".to_string();
        let s = jobs.start(
            "domineering",
            t.clone(),
            b,
            Savings::ALL,
            None,
            Duration::from_secs(60),
        );
        assert_eq!(s, Started::New);
        let st = wait_done(&jobs);
        let JobState::Done { report } = st.state else {
            panic!("{st:?}")
        };
        assert_eq!(report.value.value, "{2|-1/2}");
        assert!(jobs.done("domineering", &t, Savings::ALL).is_some());
        assert!(jobs.done("domineering", "..|..", Savings::ALL).is_none());
        assert!(matches!(
            jobs.start(
                "domineering",
                t,
                b,
                Savings::ALL,
                None,
                Duration::from_secs(60)
            ),
            Started::Done(_)
        ));
    }

    #[test]
    fn a_running_job_blocks_others_and_can_be_cancelled() {
        let jobs = Jobs::default();
        let text = "......|......|......|......|......|......";
        let b = Domineering.parse(text).unwrap();
        let s = jobs.start(
            "domineering",
            text.into(),
            b,
            Savings::ALL,
            None,
            Duration::from_secs(600),
        );
        assert_eq!(s, Started::New);
        let small = Domineering.parse("..|..").unwrap();
        assert!(matches!(
            jobs.start(
                "domineering",
                "..|..".into(),
                small,
                Savings::ALL,
                None,
                Duration::from_secs(5)
            ),
            Started::Busy(_)
        ));
        assert!(jobs.cancel());
        let st = wait_done(&jobs);
        assert_eq!(
            st.state,
            JobState::Stopped {
                reason: "cancelled".into()
            }
        );
        // The slot is free again.
        assert_eq!(
            jobs.start(
                "domineering",
                "..|..".into(),
                small,
                Savings::ALL,
                None,
                Duration::from_secs(5)
            ),
            Started::New
        );
    }
}
