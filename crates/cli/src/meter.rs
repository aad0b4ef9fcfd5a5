//! Long work, bounded and visible: a progress line on a terminal (silent
//! when stderr is piped; `--progress` prints a plain line every few seconds
//! for logs) and a memory budget (`--max-memory`) that stops the work with
//! an error saying how far it got.
//!
//! A [`Meter`] is handed to the libraries as their stop check (the value
//! solver's `with_stop`, the graph walks' `check`), so neither the progress
//! nor the budget costs the libraries an interface of their own.

use std::cell::Cell;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How progress is shown.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Show {
    /// A live line on a terminal's stderr; nothing when stderr is piped.
    Auto,
    /// A plain line on stderr every few seconds, terminal or not.
    Lines,
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

/// Parse a memory size: `512M`, `4G`, `1.5G`, or bytes.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (num, mult) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('m' | 'M') => (&t[..t.len() - 1], 1 << 20),
        Some('g' | 'G') => (&t[..t.len() - 1], 1 << 30),
        Some('t' | 'T') => (&t[..t.len() - 1], 1 << 40),
        _ => (t, 1),
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

/// The process's resident memory, in bytes (Linux; 0 where unknown).
pub fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

/// Counts units of work, shows them, and watches the memory budget.
pub struct Meter {
    label: String,
    unit: &'static str,
    start: Instant,
    count: Cell<u64>,
    last_line: Cell<Instant>,
    bar: Option<ProgressBar>,
    lines: bool,
    max_memory: u64,
    over: Cell<Option<u64>>,
}

/// How often (in units) the meter looks at the clock and the memory.
const EVERY: u64 = 256;

impl Meter {
    /// A meter for `label`, counting `unit`s (e.g. "regions").
    pub fn new(label: impl Into<String>, unit: &'static str, show: Show, max_memory: u64) -> Meter {
        let label = label.into();
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
        Meter {
            label,
            unit,
            start: Instant::now(),
            count: Cell::new(0),
            last_line: Cell::new(Instant::now()),
            bar,
            lines: show == Show::Lines,
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
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        let msg = format!(
            "{n} {}  {:.0}/s  {} MB",
            self.unit,
            n as f64 / secs,
            rss >> 20
        );
        if let Some(b) = &self.bar {
            b.set_message(msg);
        } else if self.lines && self.last_line.get().elapsed() >= Duration::from_secs(5) {
            self.last_line.set(Instant::now());
            eprintln!("{}: {msg}  {:.0} s", self.label, secs);
        }
        false
    }

    /// Units counted so far.
    pub fn count(&self) -> u64 {
        self.count.get()
    }

    /// If the memory budget stopped the work: the error to print.
    pub fn over_budget(&self) -> Option<anyhow::Error> {
        self.over.get().map(|rss| {
            anyhow::anyhow!(
                "memory budget of {} MB reached ({} MB resident) after {} {} in {:.1} s; raise --max-memory to go further",
                self.max_memory >> 20,
                rss >> 20,
                self.count.get(),
                self.unit,
                self.start.elapsed().as_secs_f64()
            )
        })
    }
}

impl Drop for Meter {
    fn drop(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2g"), Ok(2 << 30));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("-1G").is_err());
        assert!(parse_size("0").is_err());
    }

    #[test]
    fn a_tiny_budget_stops_and_says_how_far() {
        let m = Meter::new("test", "regions", Show::Lines, 1);
        let mut stopped = false;
        for _ in 0..EVERY {
            stopped = m.tick();
        }
        assert!(stopped);
        let e = m.over_budget().unwrap().to_string();
        assert!(e.contains(&format!("after {EVERY} regions")), "{e}");
        let roomy = Meter::new("test", "regions", Show::Lines, u64::MAX);
        assert!((0..2 * EVERY).all(|_| !roomy.tick()));
        assert!(roomy.over_budget().is_none());
        assert!(resident_bytes() > 0);
        assert!(default_max_memory() > 0);
    }
}
