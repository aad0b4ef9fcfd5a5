//! Long work, bounded and visible: a progress line on a terminal (silent
//! when stderr is piped; `--progress[=SECS]` prints a plain line every few
//! seconds, and one when the work is done, for logs) and a memory budget
//! (`--max-memory`) that stops the work with an error saying how far it got.
//!
//! Two ways to watch:
//!
//! * a [`Meter`] is handed to the libraries as their stop check (the value
//!   solver's `with_stop`, the graph walks' `check`): it counts, shows and
//!   stops the work in line, so neither the progress nor the budget costs
//!   the libraries an interface of their own;
//! * a [`Watch`] is for library calls that take no stop check (a census, the
//!   atlas, the semigroup walk, the store's warm and verify): a thread shows
//!   what a counter says (or just the time and memory), and past the budget
//!   prints the error and ends the process with exit code 2. What those
//!   commands write is written atomically (levels, CSVs, store batches), so
//!   stopping there loses only the unfinished part.

use std::cell::{Cell, RefCell};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How progress is shown.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Show {
    /// A live line on a terminal's stderr; nothing when stderr is piped.
    Auto,
    /// A plain line on stderr at this interval (and one at the end),
    /// terminal or not.
    Lines(Duration),
}

/// The interval of `--progress=SECS`: a positive number of seconds.
pub fn parse_interval(s: &str) -> Result<Duration, String> {
    let x: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if !x.is_finite() || x <= 0.0 || x > 1e6 {
        return Err(format!("'{s}' is not a positive number of seconds"));
    }
    Ok(Duration::from_secs_f64(x))
}

/// The memory budget when none is given: half the machine's memory.
pub fn default_max_memory() -> u64 {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(8 << 30, |kb| kb * 1024);
    total / 2
}

/// Parse a memory size: `512M`, `4G`, `1.5G`, `64K`, `100B`, or a bare
/// number of MB (`4096`: nobody means a budget in bytes).
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    // `512MB`, `4GiB`: the unit letter is what counts.
    let t = ["iB", "ib", "B", "b"]
        .iter()
        .find_map(|b| {
            t.strip_suffix(b)
                .filter(|r| r.ends_with(|c: char| "kKmMgGtT".contains(c)))
        })
        .unwrap_or(t);
    let (num, mult) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('m' | 'M') => (&t[..t.len() - 1], 1 << 20),
        Some('g' | 'G') => (&t[..t.len() - 1], 1 << 30),
        Some('t' | 'T') => (&t[..t.len() - 1], 1 << 40),
        Some('b' | 'B') => (&t[..t.len() - 1], 1),
        _ => (t, 1 << 20),
    };
    let x: f64 = num
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a size (e.g. 512M, 4G)"))?;
    if !x.is_finite() || x <= 0.0 {
        return Err(format!("'{s}' is not a positive size"));
    }
    Ok((x * mult as f64) as u64)
}

pub use partizan_report::process::{peak_resident_bytes, resident_bytes};

/// What a long command shows: a live line on a terminal, plain lines for
/// logs, or nothing.
struct Display {
    label: String,
    unit: &'static str,
    start: Instant,
    bar: Option<ProgressBar>,
    every: Option<Duration>,
    last_line: Instant,
    /// Where the work is (a [`WatchCounter::note`]), shown before the count.
    note: String,
}

impl Display {
    fn new(label: String, unit: &'static str, show: Show) -> Display {
        let bar = (show == Show::Auto && std::io::stderr().is_terminal()).then(|| {
            let b = ProgressBar::new_spinner();
            b.set_style(
                ProgressStyle::with_template("{spinner} {prefix} {msg} [{elapsed}]")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b.set_prefix(label.clone());
            b.enable_steady_tick(Duration::from_millis(200));
            b
        });
        Display {
            label,
            unit,
            start: Instant::now(),
            bar,
            every: match show {
                Show::Lines(d) => Some(d),
                Show::Auto => None,
            },
            last_line: Instant::now(),
            note: String::new(),
        }
    }

    fn message(&self, n: u64, total: Option<u64>, rss: u64) -> String {
        let note = if self.note.is_empty() {
            String::new()
        } else {
            format!("{}  ", self.note)
        };
        if self.unit.is_empty() {
            // Work that cannot be counted from outside: the memory only.
            return format!("{note}{} MB", rss >> 20);
        }
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        let done = match total {
            Some(t) if t > 0 => format!(
                "{n}/{t} {} ({:.0}%)",
                self.unit,
                100.0 * n.min(t) as f64 / t as f64
            ),
            _ => format!("{n} {}", self.unit),
        };
        format!("{note}{done}  {}{} MB", rate(n, secs), rss >> 20)
    }

    /// Show `n` units done (of `total`), `rss` bytes resident.
    fn update(&mut self, n: u64, total: Option<u64>, rss: u64) {
        if let Some(b) = &self.bar {
            b.set_message(self.message(n, total, rss));
        } else if let Some(every) = self.every {
            if self.last_line.elapsed() >= every {
                self.last_line = Instant::now();
                eprintln!(
                    "{}: {}  {:.1} s",
                    self.label,
                    self.message(n, total, rss),
                    self.start.elapsed().as_secs_f64()
                );
            }
        }
    }

    /// Clear the live line; in line mode, one last line saying it is done.
    fn finish(&mut self, n: u64, total: Option<u64>) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
        if self.every.is_some() {
            self.every = None;
            eprintln!(
                "{}: done, {}  {:.1} s",
                self.label,
                self.message(n, total, resident_bytes()),
                self.start.elapsed().as_secs_f64()
            );
        }
    }

    /// Past the budget, for work that cannot be stopped in line: the error
    /// line, and exit code 2.
    fn give_up(&mut self, max_memory: u64, rss: u64, n: u64, total: Option<u64>) -> ! {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
        eprintln!("error: {}", self.over_budget(max_memory, rss, n, total));
        std::process::exit(2);
    }

    fn over_budget(&self, max_memory: u64, rss: u64, n: u64, total: Option<u64>) -> String {
        let of = total.map_or(String::new(), |t| format!(" of {t}"));
        let far = if self.unit.is_empty() {
            String::new()
        } else {
            format!("{n}{of} {} in ", self.unit)
        };
        format!(
            "{}: memory budget of {} MB reached ({} MB resident) after {far}{:.1} s; raise --max-memory to go further",
            self.label,
            max_memory >> 20,
            rss >> 20,
            self.start.elapsed().as_secs_f64()
        )
    }
}

/// Counts units of work, shows them, and watches the memory budget, in
/// line with the work (see the module's notes).
pub struct Meter {
    display: RefCell<Display>,
    count: Cell<u64>,
    max_memory: u64,
    over: Cell<Option<u64>>,
}

/// How often (in units) the meter looks at the clock and the memory.
const EVERY: u64 = 256;

impl Meter {
    /// A meter for `label`, counting `unit`s (e.g. "regions").
    pub fn new(label: impl Into<String>, unit: &'static str, show: Show, max_memory: u64) -> Meter {
        Meter {
            display: RefCell::new(Display::new(label.into(), unit, show)),
            count: Cell::new(0),
            max_memory,
            over: Cell::new(None),
        }
    }

    /// Count one unit; `true` means stop (the memory budget is spent).
    pub fn tick(&self) -> bool {
        let n = self.count.get() + 1;
        self.count.set(n);
        if !n.is_multiple_of(EVERY) {
            return false;
        }
        let rss = resident_bytes();
        if rss > self.max_memory {
            self.over.set(Some(rss));
            return true;
        }
        if let Ok(mut d) = self.display.try_borrow_mut() {
            d.update(n, None, rss);
        }
        false
    }

    /// Units counted so far.
    pub fn count(&self) -> u64 {
        self.count.get()
    }

    /// If the memory budget stopped the work: the error to print.
    pub fn over_budget(&self) -> Option<anyhow::Error> {
        let rss = self.over.get()?;
        let d = self.display.borrow();
        Some(anyhow::anyhow!(
            "{}",
            d.over_budget(self.max_memory, rss, self.count.get(), None)
        ))
    }
}

impl Drop for Meter {
    fn drop(&mut self) {
        if self.over.get().is_none() {
            let n = self.count.get();
            self.display.get_mut().finish(n, None);
        } else if let Some(b) = self.display.get_mut().bar.take() {
            b.finish_and_clear();
        }
    }
}

/// What a [`Watch`]'s thread reads.
struct Shared {
    count: AtomicU64,
    /// The total, when known (0: unknown).
    total: AtomicU64,
    done: AtomicBool,
    /// Where the work is, in words (empty: nothing said).
    note: std::sync::Mutex<String>,
}

/// Watches work that takes no stop check, from a thread: shows the counter
/// it is given (see [`Watch::add`], [`Watch::set`]) and, past the memory
/// budget, prints the error (how far the work got) and ends the process
/// with exit code 2.
pub struct Watch {
    shared: Arc<Shared>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// How often a watch looks at the memory and redraws (more often when
/// `--progress` asks for lines more often).
const WATCH_TICK: Duration = Duration::from_millis(100);

impl Watch {
    /// Start watching work called `label`, counted in `unit`s (out of
    /// `total` when known; an empty `unit`: not counted, only the time and
    /// memory are shown).
    pub fn start(
        label: impl Into<String>,
        unit: &'static str,
        total: Option<u64>,
        show: Show,
        max_memory: u64,
    ) -> Watch {
        let shared = Arc::new(Shared {
            count: AtomicU64::new(0),
            total: AtomicU64::new(total.unwrap_or(0)),
            done: AtomicBool::new(false),
            note: std::sync::Mutex::new(String::new()),
        });
        let tick = match show {
            Show::Lines(every) => every.clamp(Duration::from_millis(10), WATCH_TICK),
            Show::Auto => WATCH_TICK,
        };
        let mut display = Display::new(label.into(), unit, show);
        // Looked at once here, so a budget already spent stops the work
        // before it starts, however late the thread gets to run.
        let rss = resident_bytes();
        if rss > max_memory {
            display.give_up(max_memory, rss, 0, total);
        }
        let s = shared.clone();
        let thread = std::thread::spawn(move || {
            let read = |s: &Shared| {
                let t = s.total.load(Ordering::Relaxed);
                (s.count.load(Ordering::Relaxed), (t > 0).then_some(t))
            };
            let note = |s: &Shared| s.note.lock().map(|n| n.clone()).unwrap_or_default();
            while !s.done.load(Ordering::Acquire) {
                let rss = resident_bytes();
                let (n, total) = read(&s);
                display.note = note(&s);
                if rss > max_memory && !s.done.load(Ordering::Acquire) {
                    display.give_up(max_memory, rss, n, total);
                }
                display.update(n, total, rss);
                std::thread::sleep(tick);
            }
            let (n, total) = read(&s);
            display.note = note(&s);
            display.finish(n, total);
        });
        Watch {
            shared,
            thread: Some(thread),
        }
    }

    /// Count `n` more units.
    pub fn add(&self, n: u64) {
        self.shared.count.fetch_add(n, Ordering::Relaxed);
    }

    /// `done` units of `total` so far.
    pub fn set(&self, done: u64, total: u64) {
        self.shared.count.store(done, Ordering::Relaxed);
        self.shared.total.store(total, Ordering::Relaxed);
    }

    /// A counter the work can bump from any thread.
    pub fn counter(&self) -> WatchCounter {
        WatchCounter(self.shared.clone())
    }
}

/// A handle that adds to a [`Watch`]'s count (cheap to clone, `Send`).
#[derive(Clone)]
pub struct WatchCounter(Arc<Shared>);

impl WatchCounter {
    /// Count `n` more units.
    pub fn add(&self, n: u64) {
        self.0.count.fetch_add(n, Ordering::Relaxed);
    }

    /// Say where the work is (e.g. "level 18, shard 7 of 40"), shown before
    /// the count from the next line on.
    pub fn note(&self, text: String) {
        if let Ok(mut n) = self.0.note.lock() {
            *n = text;
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.shared.done.store(true, Ordering::Release);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The rate of `n` units in `secs` for a progress line, followed by two
/// spaces: "1234/s", "2.5/s", or for slow units (levels, shards) the
/// seconds each ("75 s each"); nothing before the first unit.
fn rate(n: u64, secs: f64) -> String {
    let r = n as f64 / secs;
    if n == 0 {
        String::new()
    } else if r >= 10.0 {
        format!("{r:.0}/s  ")
    } else if r >= 1.0 {
        format!("{r:.1}/s  ")
    } else {
        format!("{:.0} s each  ", secs / n as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_read_well_fast_or_slow() {
        assert_eq!(rate(0, 60.0), "");
        assert_eq!(rate(12_345, 1.0), "12345/s  ");
        assert_eq!(rate(5, 2.0), "2.5/s  ");
        // 17 levels in 1,020 s: not "0/s"
        assert_eq!(rate(17, 1020.0), "60 s each  ");
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2g"), Ok(2 << 30));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("4096"), Ok(4096 << 20));
        assert_eq!(parse_size("100B"), Ok(100));
        assert_eq!(parse_size("1K"), Ok(1024));
        assert_eq!(parse_size("512MB"), Ok(512 << 20));
        assert_eq!(parse_size("4GiB"), Ok(4 << 30));
        assert!(parse_size("B").is_err());
        assert!(parse_size("lots").is_err());
        assert!(parse_size("-1G").is_err());
        assert!(parse_size("0").is_err());
    }

    #[test]
    fn intervals_parse() {
        assert_eq!(parse_interval("5"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_interval("0.25"), Ok(Duration::from_millis(250)));
        assert!(parse_interval("0").is_err());
        assert!(parse_interval("-1").is_err());
        assert!(parse_interval("soon").is_err());
        assert!(parse_interval("inf").is_err());
    }

    #[test]
    fn a_tiny_budget_stops_and_says_how_far() {
        let m = Meter::new("test", "regions", Show::Lines(Duration::from_secs(5)), 1);
        let mut stopped = false;
        for _ in 0..EVERY {
            stopped = m.tick();
        }
        assert!(stopped);
        let e = m.over_budget().unwrap().to_string();
        assert!(e.contains(&format!("after {EVERY} regions")), "{e}");
        let roomy = Meter::new("test", "regions", Show::Auto, u64::MAX);
        assert!((0..2 * EVERY).all(|_| !roomy.tick()));
        assert!(roomy.over_budget().is_none());
        assert!(resident_bytes() > 0);
        assert!(default_max_memory() > 0);
    }
}
