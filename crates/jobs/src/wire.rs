//! The line protocol between a master and workers in other processes or
//! on other machines: one JSON object per line each way.
//!
//! ```text
//! master → worker   {"id":7,"ruleset":"domineering","board":"...","mover":"L","max_nodes":1048576,"table_bytes":16777216}
//!                   (and "certify":false when no certificate is wanted: the agreement of two workers)
//!                   (and "progress_ms":5000 to a worker whose ready line offered "progress":true)
//! master → worker   {"cancel":7}                      (a bridge of many jobs may drop one)
//! worker → master   {"progress":7,"nodes":12345}      (while job 7 runs, every progress_ms, when asked)
//! worker → master   {"job":7,"answer":"win","certificate":"...","nodes":12345,"elapsed_ms":40}
//!                   (no "certificate" for a job sent with "certify":false)
//!                   answer: "win" | "loss" (for the mover), "unresolved", "failed" (with "why")
//! bridge → master   {"ready":true,"workers":4,"name":"dask tcp://..."}   (first line of a bridge;
//!                   `partizan job-worker` adds "progress":true: it tells the nodes of a long job)
//!                   {"ready":false,"why":"..."}                           (it could not start)
//! ```
//!
//! The worker side is [`serve`] (what `partizan job-worker` runs) and
//! [`run_job_line`] (one job, what a Dask task calls through the Python
//! package). The master side reads replies with [`reply_from_line`]; a
//! line that does not read as a reply is a failure of the worker, and a
//! reply that does is still only a claim ([`crate::verify`]).

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use partizan_games::{with_rules, Player, Rules};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::job::{Answer, Job, Reply};
use crate::worker::{LocalWorker, Worker};

/// The most bytes of transposition table a worker gives one job by
/// default, whatever the job asks (a master cannot make a worker take all
/// its memory); the worker's owner may allow more
/// ([`serve`], `partizan job-worker --max-table-mb`).
pub const MAX_JOB_TABLE: usize = 1 << 30;

/// The longest reply line a master reads (a certificate is most of it); a
/// longer one is a failure of the worker, not memory without bound.
pub const MAX_REPLY_LINE: usize = 1 << 30;

/// Read one line of at most `max` bytes (without its newline); `None` at
/// the end of the stream; a longer line, or one that is not UTF-8, is an
/// error (memory stays bounded whatever the other side writes).
pub fn read_line_bounded(r: &mut impl BufRead, max: usize) -> std::io::Result<Option<String>> {
    let mut buf = Vec::new();
    let n = std::io::Read::take(&mut *r, max as u64 + 1).read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if buf.len() > max {
        return Err(std::io::Error::other(format!(
            "a line longer than {max} bytes"
        )));
    }
    String::from_utf8(buf)
        .map(Some)
        .map_err(|_| std::io::Error::other("a line that is not UTF-8"))
}

/// A job as one line of JSON (no newline).
pub fn job_to_line(job: &Job) -> String {
    serde_json::to_string(job).expect("a job serializes")
}

/// A job as one line of JSON that asks the worker to tell the nodes of
/// its search every `every` while it runs (`{"progress":ID,"nodes":N}`
/// lines before the reply): for a worker whose ready line offers it.
pub fn job_to_line_telling(job: &Job, every: Duration) -> String {
    let mut v = serde_json::to_value(job).expect("a job serializes");
    v["progress_ms"] = Value::from(every.as_millis().max(1) as u64);
    v.to_string()
}

/// The job and nodes a progress line of a worker tells
/// (`{"progress":ID,"nodes":N}`), or `None` for a line that is not one.
pub fn progress_from_line(line: &str) -> Option<(u64, u64)> {
    if !line.starts_with("{\"progress\":") || line.len() > 200 {
        return None;
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Told {
        progress: u64,
        nodes: u64,
    }
    let t: Told = serde_json::from_str(line).ok()?;
    Some((t.progress, t.nodes))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JobLine {
    id: u64,
    ruleset: String,
    board: String,
    mover: String,
    max_nodes: u64,
    table_bytes: usize,
    #[serde(default = "yes")]
    certify: bool,
    #[serde(default)]
    progress_ms: Option<u64>,
}

fn yes() -> bool {
    true
}

/// A job read from a line (the worker's side: a master's line that does
/// not read is answered with a failure).
pub fn job_from_line(line: &str) -> Result<Job, String> {
    job_and_telling(line).map(|(job, _)| job)
}

/// A job read from a line, with how often the master wants to be told
/// the nodes of its search (`None`: only the reply).
fn job_and_telling(line: &str) -> Result<(Job, Option<Duration>), String> {
    let j: JobLine = serde_json::from_str(line).map_err(|e| format!("not a job: {e}"))?;
    let every = j
        .progress_ms
        .map(|ms| Duration::from_millis(ms.clamp(100, 3_600_000)));
    let mover = match j.mover.as_str() {
        "L" => Player::Left,
        "R" => Player::Right,
        m => return Err(format!("not a job: mover {m:?} is neither L nor R")),
    };
    let job = Job {
        id: j.id,
        ruleset: j.ruleset,
        board: j.board,
        mover,
        max_nodes: j.max_nodes,
        table_bytes: j.table_bytes,
        certify: j.certify,
    };
    Ok((job, every))
}

/// A reply as one line of JSON (no newline), its job first.
pub fn reply_to_line(r: &Reply) -> String {
    #[derive(Serialize)]
    struct Out<'a> {
        job: u64,
        answer: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        certificate: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        why: Option<&'a str>,
        nodes: u64,
        elapsed_ms: u64,
    }
    let (answer, certificate, why) = match &r.answer {
        Answer::Decided {
            mover_wins,
            certificate,
        } => (
            if *mover_wins { "win" } else { "loss" },
            Some(certificate.as_str()).filter(|c| !c.is_empty()),
            None,
        ),
        Answer::Unresolved => ("unresolved", None, None),
        Answer::Failed(why) => ("failed", None, Some(why.as_str())),
    };
    serde_json::to_string(&Out {
        job: r.job,
        answer,
        certificate,
        why,
        nodes: r.nodes,
        elapsed_ms: r.elapsed.as_millis() as u64,
    })
    .expect("a reply serializes")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplyLine {
    job: u64,
    answer: String,
    #[serde(default)]
    certificate: Option<String>,
    #[serde(default)]
    why: Option<String>,
    #[serde(default)]
    nodes: u64,
    #[serde(default)]
    elapsed_ms: u64,
}

/// A reply read from a line (the master's side). An error says why the
/// line is not a reply; the master counts it as the worker's failure.
pub fn reply_from_line(line: &str) -> Result<Reply, String> {
    let short = |e: &dyn std::fmt::Display| -> String { e.to_string().chars().take(200).collect() };
    let r: ReplyLine =
        serde_json::from_str(line).map_err(|e| format!("not a reply: {}", short(&e)))?;
    let answer = match (r.answer.as_str(), r.certificate) {
        // Without a certificate (a job sent without `certify`, or a lie:
        // the judge of a job that wants one finds it empty).
        ("win" | "loss", certificate) => Answer::Decided {
            mover_wins: r.answer == "win",
            certificate: certificate.unwrap_or_default(),
        },
        ("unresolved", _) => Answer::Unresolved,
        ("failed", _) => Answer::Failed(r.why.unwrap_or_default()),
        (a, _) => return Err(format!("not a reply: answer {:?}", short(&a))),
    };
    Ok(Reply {
        job: r.job,
        answer,
        nodes: r.nodes,
        elapsed: Duration::from_millis(r.elapsed_ms),
    })
}

/// The job id a line from a bridge names (`job` of a reply), if it has one.
pub(crate) fn line_job_id(line: &str) -> Option<u64> {
    // Only the start of a long line is looked at for the id: replies put
    // it first, and a certificate need not be parsed twice.
    let head = line.get(..line.len().min(64)).unwrap_or(line);
    if let Some(rest) = head.strip_prefix("{\"job\":") {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        return digits.parse().ok();
    }
    serde_json::from_str::<Value>(line)
        .ok()?
        .get("job")
        .and_then(Value::as_u64)
}

/// What a line to a worker asks.
pub(crate) enum Request {
    /// A job, and how often to tell its nodes while it runs.
    Job(Job, Option<Duration>),
    /// A cancel (one job at a time: nothing to cancel but the process).
    Cancel,
}

/// Read a line a master sent: a job, or a cancel.
pub(crate) fn request_from_line(line: &str) -> Result<Request, String> {
    if let Ok(v) = serde_json::from_str::<Value>(line) {
        if v.get("cancel").and_then(Value::as_u64).is_some() {
            return Ok(Request::Cancel);
        }
    }
    job_and_telling(line).map(|(job, every)| Request::Job(job, every))
}

/// Search one job with this build's own search, for whichever ruleset it
/// names, with a table of at most `max_table` bytes (the worker owner's
/// limit, whatever the job asks), and answer (a bad job is answered with a
/// failure).
pub fn run_job(job: &Job, stop: &AtomicBool, max_table: usize) -> Reply {
    run_job_watched(job, stop, max_table, None)
}

/// [`run_job`], keeping `seen` (when given) at the nodes searched so far.
fn run_job_watched(
    job: &Job,
    stop: &AtomicBool,
    max_table: usize,
    seen: Option<&AtomicU64>,
) -> Reply {
    let rules = match Rules::from_name(&job.ruleset) {
        Ok(r) => r,
        Err(e) => return failed_reply(job.id, e.to_string()),
    };
    let mut job = job.clone();
    job.table_bytes = job.table_bytes.min(max_table);
    with_rules!(rules, |r| {
        let w = LocalWorker::new(*r, "job-worker");
        match seen {
            Some(seen) => w.run_watched(&job, stop, seen),
            None => w.run(&job, stop),
        }
    })
}

/// [`run_job`] on a thread of its own, calling `tell` with the nodes its
/// search has visited every `every` while it runs (when the count has
/// moved). An error of `tell` (the master is gone) stops the job and is
/// returned; a search that panics is answered with a failure.
pub fn run_job_telling<E>(
    job: &Job,
    max_table: usize,
    every: Duration,
    mut tell: impl FnMut(u64) -> Result<(), E>,
) -> Result<Reply, E> {
    let (stop, seen) = (AtomicBool::new(false), AtomicU64::new(0));
    std::thread::scope(|s| {
        let (tx, rx) = mpsc::channel();
        let (stop, seen) = (&stop, &seen);
        let search = s.spawn(move || {
            let _ = tx.send(run_job_watched(job, stop, max_table, Some(seen)));
        });
        let mut told = 0;
        loop {
            match rx.recv_timeout(every) {
                Ok(reply) => return Ok(reply),
                Err(RecvTimeoutError::Timeout) => {
                    let n = seen.load(Relaxed);
                    if n == told {
                        continue;
                    }
                    told = n;
                    if let Err(e) = tell(n) {
                        stop.store(true, Relaxed);
                        return Err(e);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let why = match search.join() {
                        Err(p) => crate::master::panic_message(p.as_ref()),
                        Ok(()) => "ended without a reply".into(),
                    };
                    return Ok(failed_reply(job.id, format!("the job's search: {why}")));
                }
            }
        }
    })
}

/// A failure of job `id`, as a reply.
fn failed_reply(id: u64, why: String) -> Reply {
    Reply {
        job: id,
        answer: Answer::Failed(why),
        nodes: 0,
        elapsed: Duration::ZERO,
    }
}

/// [`run_job`] on a line: the reply line (what a Dask task runs).
pub fn run_job_line(line: &str, max_table: usize) -> String {
    let stop = AtomicBool::new(false);
    match job_from_line(line.trim_end()) {
        Ok(job) => reply_to_line(&run_job(&job, &stop, max_table)),
        Err(why) => reply_to_line(&failed_reply(0, why)),
    }
}

/// [`run_job_telling`] on a line: the reply line, `tell` called with the
/// nodes so far every `every` (what a Dask task that reports its progress
/// runs).
pub fn run_job_line_telling<E>(
    line: &str,
    max_table: usize,
    every: Duration,
    tell: impl FnMut(u64) -> Result<(), E>,
) -> Result<String, E> {
    match job_from_line(line.trim_end()) {
        Ok(job) => run_job_telling(&job, max_table, every, tell).map(|r| reply_to_line(&r)),
        Err(why) => Ok(reply_to_line(&failed_reply(0, why))),
    }
}

/// A worker's loop: say it is ready (one job at a time), then read jobs
/// from `input`, one per line, and write each reply as a line to
/// `output`, until the input ends. A cancel line is ignored (one job at a
/// time: the master kills a process it no longer needs). What `partizan
/// job-worker` runs; returns the jobs answered. A job gets a table of at
/// most `max_table` bytes ([`MAX_JOB_TABLE`] unless the worker's owner
/// allows more).
pub fn serve(
    input: impl BufRead,
    mut output: impl Write,
    max_table: usize,
) -> std::io::Result<u64> {
    let stop = AtomicBool::new(false);
    let ready = serde_json::json!({
        "ready": true,
        "workers": 1,
        "name": format!("job-worker {}", std::process::id()),
        "progress": true,
    });
    writeln!(output, "{ready}")?;
    output.flush()?;
    let mut done = 0;
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let reply = match request_from_line(line.trim_end()) {
            Ok(Request::Cancel) => continue,
            Ok(Request::Job(job, None)) => run_job(&job, &stop, max_table),
            Ok(Request::Job(job, Some(every))) => run_job_telling(&job, max_table, every, |n| {
                let line = format!("{{\"progress\":{},\"nodes\":{n}}}", job.id);
                writeln!(output, "{line}").and_then(|()| output.flush())
            })?,
            Err(why) => failed_reply(0, why),
        };
        writeln!(output, "{}", reply_to_line(&reply))?;
        output.flush()?;
        done += 1;
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_and_replies_read_back() {
        let job = Job {
            id: 7,
            ruleset: "domineering".into(),
            board: "..|..".into(),
            mover: Player::Right,
            max_nodes: 100,
            table_bytes: 1 << 16,
            certify: true,
        };
        assert_eq!(job_from_line(&job_to_line(&job)).unwrap(), job);
        // `certify` is written only when false, so a line without it is a
        // job that wants a certificate.
        assert!(!job_to_line(&job).contains("certify"));
        let bare = Job {
            certify: false,
            ..job.clone()
        };
        assert!(job_to_line(&bare).contains("\"certify\":false"));
        assert_eq!(job_from_line(&job_to_line(&bare)).unwrap(), bare);
        for answer in [
            Answer::Decided {
                mover_wins: true,
                certificate: "a\nb".into(),
            },
            Answer::Decided {
                mover_wins: false,
                certificate: String::new(),
            },
            Answer::Unresolved,
            Answer::Failed("why \"so\"".into()),
        ] {
            let r = Reply {
                job: 12,
                answer,
                nodes: 5,
                elapsed: Duration::from_millis(9),
            };
            let line = reply_to_line(&r);
            assert!(!line.contains('\n'));
            assert_eq!(line_job_id(&line), Some(12));
            assert_eq!(reply_from_line(&line).unwrap(), r);
        }
    }

    #[test]
    fn lines_that_are_not_replies_are_refused() {
        for bad in [
            "",
            "garbage",
            "{}",
            "{\"job\":1}",
            "{\"job\":1,\"answer\":\"maybe\"}",
            "{\"job\":-1,\"answer\":\"unresolved\"}",
            "{\"job\":1,\"answer\":\"unresolved\",\"extra\":1}",
        ] {
            assert!(reply_from_line(bad).is_err(), "{bad}");
        }
        // A decided answer without a certificate reads (as one with an
        // empty certificate, which no judge of a job wanting one believes).
        assert_eq!(
            reply_from_line("{\"job\":1,\"answer\":\"win\"}")
                .unwrap()
                .answer,
            Answer::Decided {
                mover_wins: true,
                certificate: String::new()
            }
        );
        assert!(job_from_line("{\"id\":1}").is_err());
        assert!(job_from_line(
            "{\"id\":1,\"ruleset\":\"x\",\"board\":\"\",\"mover\":\"Q\",\"max_nodes\":1,\"table_bytes\":1}"
        )
        .is_err());
    }

    #[test]
    fn a_worker_loop_answers_every_line() {
        let job = Job {
            id: 3,
            ruleset: "domineering".into(),
            board: "...|...".into(),
            mover: Player::Left,
            max_nodes: 1 << 20,
            table_bytes: 1 << 16,
            certify: true,
        };
        let input = format!(
            "{}\n{{\"cancel\":3}}\nnot json\n{}\n",
            job_to_line(&job),
            job_to_line(&Job {
                ruleset: "no-such-game".into(),
                ..job.clone()
            })
        );
        let mut out = Vec::new();
        assert_eq!(serve(input.as_bytes(), &mut out, MAX_JOB_TABLE).unwrap(), 3);
        let text = String::from_utf8(out).unwrap();
        let first: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(
            (&first["ready"], &first["workers"]),
            (&Value::Bool(true), &Value::from(1))
        );
        let lines: Vec<Reply> = text
            .lines()
            .skip(1)
            .map(|l| reply_from_line(l).unwrap())
            .collect();
        assert!(
            matches!(lines[0].answer, Answer::Decided { .. }),
            "{:?}",
            lines[0]
        );
        assert_eq!(lines[0].job, 3);
        assert!(matches!(lines[1].answer, Answer::Failed(_)));
        assert!(matches!(&lines[2].answer, Answer::Failed(w) if w.contains("no-such-game")));
    }

    /// A job line that asks for progress is told the nodes of its search
    /// as it runs (every 100 ms here), the counts rising and never past
    /// the reply's, then answered as any job; the ready line offers it,
    /// and a line without the request gets only the reply.
    #[test]
    fn a_job_that_asks_is_told_its_nodes_as_it_runs() {
        let job = Job {
            id: 9,
            ruleset: "domineering".into(),
            board: ["........."; 9].join("|"),
            mover: Player::Left,
            // most of a second of a 9x9 search: unresolved
            max_nodes: 2_000_000,
            table_bytes: 1 << 22,
            certify: false,
        };
        let line = job_to_line_telling(&job, Duration::from_millis(100));
        assert_eq!(job_from_line(&line).unwrap(), job);
        for (input, told) in [(line, true), (job_to_line(&job), false)] {
            let mut out = Vec::new();
            assert_eq!(
                serve(format!("{input}\n").as_bytes(), &mut out, MAX_JOB_TABLE).unwrap(),
                1
            );
            let text = String::from_utf8(out).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let ready: Value = serde_json::from_str(lines[0]).unwrap();
            assert_eq!(ready["progress"], Value::Bool(true));
            let reply = reply_from_line(lines.last().unwrap()).unwrap();
            assert_eq!((reply.job, &reply.answer), (9, &Answer::Unresolved));
            let counts: Vec<u64> = lines[1..lines.len() - 1]
                .iter()
                .map(|l| {
                    let (id, n) = progress_from_line(l).unwrap_or_else(|| panic!("{l}"));
                    assert_eq!(id, 9);
                    n
                })
                .collect();
            if told {
                assert!(!counts.is_empty(), "{text}");
                assert!(counts.windows(2).all(|w| w[0] < w[1]), "{counts:?}");
                assert!(counts[0] > 0 && *counts.last().unwrap() <= reply.nodes);
            } else {
                assert!(counts.is_empty(), "{text}");
            }
        }
    }

    #[test]
    fn progress_lines_read_only_as_progress() {
        assert_eq!(
            progress_from_line("{\"progress\":3,\"nodes\":17}"),
            Some((3, 17))
        );
        for not in [
            "{\"job\":3,\"answer\":\"unresolved\"}",
            "{\"progress\":3}",
            "{\"progress\":3,\"nodes\":-1}",
            "{\"progress\":3,\"nodes\":1,\"answer\":\"win\"}",
            " {\"progress\":3,\"nodes\":1}",
            "garbage",
        ] {
            assert_eq!(progress_from_line(not), None, "{not}");
        }
        // a progress line is no reply
        assert!(reply_from_line("{\"progress\":3,\"nodes\":17}").is_err());
    }
}
