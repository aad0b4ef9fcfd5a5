//! Workers in other processes: a child process that speaks the line
//! protocol of [`crate::wire`] on its standard input and output.
//!
//! A [`Bridge`] is one child: `partizan job-worker` (one job at a time, on
//! this machine or behind `ssh`), or a bridge to a cluster (`python3 -m
//! partizan.jobs_bridge tcp://HOST:8786`, many jobs at once on Dask). Its
//! first line says it is ready and how many jobs it takes at once; then
//! each [`BridgeSlot`] (a [`Worker`]) sends a job and waits for the line
//! that answers it. Nothing a child writes is believed: a line that does
//! not read as a reply fails the job, one too long kills the child, and
//! the reply itself is judged by the master like any other.
//!
//! A child that dies takes its jobs with it (they fail, and the master
//! hands them out again); a local worker process is started again for
//! the next job, so a killed worker loses only the job it had.

use std::collections::HashMap;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::job::{Answer, Job, Reply};
use crate::wire::{
    job_to_line, job_to_line_telling, line_job_id, progress_from_line, read_line_bounded,
    reply_from_line, MAX_REPLY_LINE,
};
use crate::worker::Worker;

/// How often a waiting slot looks at its stop flag.
const POLL: Duration = Duration::from_millis(50);

/// How often a child that offers it tells the nodes of the job it runs.
const TELL_EVERY: Duration = Duration::from_secs(1);

/// The jobs out: where each one's answer goes, and the nodes its worker
/// has told so far.
type Waiting = Arc<Mutex<HashMap<u64, (Sender<String>, Arc<AtomicU64>)>>>;

/// One running child.
struct Running {
    child: Child,
    stdin: ChildStdin,
    waiting: Waiting,
    /// Set by the reader when the child's output ends (or is refused).
    ended: Arc<Mutex<Option<String>>>,
    /// The child's ready line offered to tell the nodes of a job as it
    /// runs (`"progress":true`).
    tells: bool,
}

/// A child process that runs jobs; see the module documentation.
pub struct Bridge {
    name: String,
    command: Vec<String>,
    /// Start the child again after it dies (a local worker process); a
    /// bridge to a cluster is not (its scheduler is gone, or refused us).
    respawn: bool,
    startup: Duration,
    slots: usize,
    running: Mutex<Option<Running>>,
}

#[derive(Deserialize)]
struct Ready {
    ready: bool,
    #[serde(default)]
    workers: Option<usize>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    why: Option<String>,
    #[serde(default)]
    progress: bool,
}

fn spawn(
    command: &[String],
) -> Result<(Child, ChildStdin, BufReader<std::process::ChildStdout>), String> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| "an empty worker command".to_string())?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    let stdin = child.stdin.take().ok_or("no standard input")?;
    let stdout = child.stdout.take().ok_or("no standard output")?;
    Ok((child, stdin, BufReader::new(stdout)))
}

impl Bridge {
    /// Start `command` and wait (up to `startup`) for its ready line:
    /// the bridge, or why it could not start (a scheduler it cannot
    /// reach, a program that is not there, a first line that is not a
    /// ready line).
    pub fn start(
        name: impl Into<String>,
        command: Vec<String>,
        respawn: bool,
        startup: Duration,
    ) -> Result<Arc<Bridge>, String> {
        let mut b = Bridge {
            name: name.into(),
            command,
            respawn,
            startup,
            slots: 1,
            running: Mutex::new(None),
        };
        let (run, ready) = b.launch()?;
        b.slots = ready.workers.unwrap_or(1).max(1);
        if let Some(n) = ready.name {
            b.name = n.chars().take(100).collect();
        }
        *b.running.get_mut().expect("fresh lock") = Some(run);
        Ok(Arc::new(b))
    }

    /// The bridge's name (from its ready line when it gives one).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How many jobs the child takes at once (its ready line's `workers`).
    pub fn slots(&self) -> usize {
        self.slots
    }

    /// Start the child and read its ready line.
    fn launch(&self) -> Result<(Running, Ready), String> {
        let (mut child, stdin, mut out) = spawn(&self.command)?;
        let (first_tx, first_rx) = mpsc::channel::<std::io::Result<Option<String>>>();
        let waiting: Waiting = Arc::default();
        let ended = Arc::new(Mutex::new(None::<String>));
        let (w, e) = (Arc::clone(&waiting), Arc::clone(&ended));
        let pid = child.id();
        std::thread::Builder::new()
            .name(format!("bridge-{pid}"))
            .spawn(move || {
                let first = read_line_bounded(&mut out, 1 << 16);
                let go_on = matches!(first, Ok(Some(_)));
                if first_tx.send(first).is_err() || !go_on {
                    return;
                }
                let why = loop {
                    match read_line_bounded(&mut out, MAX_REPLY_LINE) {
                        Ok(Some(line)) => {
                            let mut waiting = w.lock().unwrap_or_else(|p| p.into_inner());
                            // a job's nodes so far: shown, never believed
                            if let Some((id, nodes)) = progress_from_line(&line) {
                                if let Some((_, seen)) = waiting.get(&id) {
                                    seen.store(nodes, Relaxed);
                                }
                                continue;
                            }
                            let to = match line_job_id(&line) {
                                Some(id) if waiting.contains_key(&id) => waiting.remove(&id),
                                // one job out: whatever comes is its answer (judged)
                                _ if waiting.len() == 1 => {
                                    let id = *waiting.keys().next().expect("one");
                                    waiting.remove(&id)
                                }
                                _ => break "a line that answers no job out".to_string(),
                            };
                            if let Some((tx, _)) = to {
                                let _ = tx.send(line);
                            }
                        }
                        Ok(None) => break "its output ended".to_string(),
                        Err(err) => break err.to_string(),
                    }
                };
                *e.lock().unwrap_or_else(|p| p.into_inner()) = Some(why);
                // every job still out fails: their senders go
                w.lock().unwrap_or_else(|p| p.into_inner()).clear();
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let refuse = |child: &mut Child, why: String| {
            let _ = child.kill();
            let _ = child.wait();
            Err(why)
        };
        let line = match first_rx.recv_timeout(self.startup) {
            Ok(Ok(Some(line))) => line,
            Ok(Ok(None)) => {
                let status = child.wait().map(|s| s.to_string()).unwrap_or_default();
                return Err(format!(
                    "{} ended before it was ready ({status})",
                    self.command.join(" ")
                ));
            }
            Ok(Err(e)) => return refuse(&mut child, format!("{}: {e}", self.command.join(" "))),
            Err(_) => {
                return refuse(
                    &mut child,
                    format!(
                        "{} was not ready within {:?}",
                        self.command.join(" "),
                        self.startup
                    ),
                )
            }
        };
        let ready: Ready = match serde_json::from_str(&line) {
            Ok(r) => r,
            Err(_) => {
                let head: String = line.chars().take(100).collect();
                return refuse(
                    &mut child,
                    format!(
                        "{} did not start with a ready line: {head:?}",
                        self.command.join(" ")
                    ),
                );
            }
        };
        if !ready.ready {
            let why = ready.why.unwrap_or_else(|| "no reason given".into());
            return refuse(&mut child, why.chars().take(300).collect());
        }
        Ok((
            Running {
                child,
                stdin,
                waiting,
                ended,
                tells: ready.progress,
            },
            ready,
        ))
    }

    /// Send `job`: the channel its answer comes on, or why it cannot go;
    /// `seen` is kept at the nodes the child tells while the job runs.
    fn send(&self, job: &Job, seen: Arc<AtomicU64>) -> Result<Receiver<String>, String> {
        let mut guard = self.running.lock().unwrap_or_else(|p| p.into_inner());
        let dead = guard
            .as_ref()
            .and_then(|r| r.ended.lock().ok().and_then(|e| e.clone()));
        if let Some(why) = dead.or_else(|| guard.is_none().then(|| "stopped".to_string())) {
            if !self.respawn {
                return Err(format!("{} ended: {why}", self.name));
            }
            if let Some(mut old) = guard.take() {
                let _ = old.child.kill();
                let _ = old.child.wait();
            }
            *guard = Some(self.launch()?.0);
        }
        let run = guard.as_mut().expect("running");
        let (tx, rx) = mpsc::channel();
        run.waiting
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(job.id, (tx, seen));
        let line = if run.tells {
            job_to_line_telling(job, TELL_EVERY)
        } else {
            job_to_line(job)
        };
        if let Err(e) = writeln!(run.stdin, "{line}").and_then(|()| run.stdin.flush()) {
            run.waiting
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .remove(&job.id);
            return Err(format!("{}: cannot send a job: {e}", self.name));
        }
        Ok(rx)
    }

    /// The master no longer wants job `id`: a child of one job at a time
    /// is killed (started again for the next), a bridge of many is told.
    fn cancel(&self, id: u64) {
        let mut guard = self.running.lock().unwrap_or_else(|p| p.into_inner());
        let Some(run) = guard.as_mut() else { return };
        run.waiting
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&id);
        if self.slots == 1 {
            let _ = run.child.kill();
            let _ = run.child.wait();
            *guard = None;
        } else {
            let _ = writeln!(run.stdin, "{{\"cancel\":{id}}}").and_then(|()| run.stdin.flush());
        }
    }

    /// Why the child ended, if it has.
    fn ended(&self) -> Option<String> {
        let guard = self.running.lock().unwrap_or_else(|p| p.into_inner());
        match guard.as_ref() {
            Some(r) => r.ended.lock().ok().and_then(|e| e.clone()),
            None => Some("stopped".into()),
        }
    }

    /// Stop the child (closing its input, then killing it).
    pub fn shutdown(&self) {
        let mut guard = self.running.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(mut run) = guard.take() {
            drop(run.stdin);
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = run.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            let _ = run.child.kill();
            let _ = run.child.wait();
        }
    }

    /// The child's process id, while it runs (for tests that kill it).
    pub fn pid(&self) -> Option<u32> {
        let guard = self.running.lock().unwrap_or_else(|p| p.into_inner());
        guard.as_ref().map(|r| r.child.id())
    }

    /// One [`Worker`] per job the child takes at once, named after it.
    pub fn workers(self: &Arc<Bridge>, count: Option<usize>) -> Vec<Arc<dyn Worker>> {
        let n = count.unwrap_or(self.slots).max(1);
        (0..n)
            .map(|k| {
                Arc::new(BridgeSlot {
                    bridge: Arc::clone(self),
                    name: if n == 1 {
                        self.name.clone()
                    } else {
                        format!("{} #{k}", self.name)
                    },
                }) as Arc<dyn Worker>
            })
            .collect()
    }
}

impl Drop for Bridge {
    fn drop(&mut self) {
        if let Some(mut run) = self.running.get_mut().ok().and_then(Option::take) {
            let _ = run.child.kill();
            let _ = run.child.wait();
        }
    }
}

/// One job at a time through a [`Bridge`].
pub struct BridgeSlot {
    bridge: Arc<Bridge>,
    name: String,
}

impl Worker for BridgeSlot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn run(&self, job: &Job, stop: &AtomicBool) -> Reply {
        self.run_watched(job, stop, &AtomicU64::new(0))
    }

    fn run_watched(&self, job: &Job, stop: &AtomicBool, seen: &AtomicU64) -> Reply {
        let start = Instant::now();
        let told = Arc::new(AtomicU64::new(0));
        let failed = |why: String| Reply {
            job: job.id,
            answer: Answer::Failed(why),
            nodes: 0,
            elapsed: start.elapsed(),
        };
        let rx = match self.bridge.send(job, Arc::clone(&told)) {
            Ok(rx) => rx,
            Err(why) => return failed(why),
        };
        loop {
            match rx.recv_timeout(POLL) {
                Ok(line) => return reply_from_line(&line).unwrap_or_else(failed),
                Err(RecvTimeoutError::Timeout) => {
                    seen.store(told.load(Relaxed), Relaxed);
                    if stop.load(Relaxed) {
                        self.bridge.cancel(job.id);
                        return failed("stopped".into());
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let why = self.bridge.ended().unwrap_or_else(|| "gone".into());
                    return failed(format!("{} ended: {why}", self.bridge.name));
                }
            }
        }
    }
}
