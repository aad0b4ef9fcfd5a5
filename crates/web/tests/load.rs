//! Load check against 127.0.0.1 only, bounded in count and time: a few
//! hundred concurrent mixed requests (value, graph, explore, census,
//! semigroups, Sylver Coinage, bad input). Every answer must be what was
//! designed: 200, the 400/404 the bad input earns, or a 503 (busy or out of
//! time) — never a 500, never a dropped connection. Prints latency
//! percentiles; `scripts/load_check.sh` runs it in release mode.

use crate::support;

use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use partizan_web::Limits;
use support::{request, TestServer};

/// Requests in the burst (all released at once).
const REQUESTS: usize = 300;
/// The whole check must finish within this.
const DEADLINE: Duration = Duration::from_secs(180);

/// (path, the statuses that are its designed answers). Heavy requests may
/// be turned away with 503 (busy, or out of time); light pages and bad
/// input never take a heavy-work slot and must always get their answer.
fn mix() -> Vec<(&'static str, &'static [u16])> {
    const HEAVY: &[u16] = &[200, 503];
    const LIGHT: &[u16] = &[200];
    vec![
        ("/api/value?ruleset=domineering&board=....|....|....", HEAVY),
        ("/api/value?ruleset=domineering&board=...|...|...", HEAVY),
        ("/api/value?ruleset=cram&board=....|....", HEAVY),
        ("/api/value?ruleset=clobber&board=xoxo|oxox", HEAVY),
        ("/api/value?ruleset=konane&board=xox.|o.ox", HEAVY),
        ("/api/value?ruleset=amazons&board=L..%23|..%23R", HEAVY),
        (
            "/api/graph?ruleset=domineering&board=....|.%23..|....",
            HEAVY,
        ),
        (
            "/api/graph?ruleset=domineering&board=..%23..|..%23..|..%23..",
            HEAVY,
        ),
        (
            "/explore?ruleset=domineering&board=..%23..|.%23...|%23....|...%23.",
            HEAVY,
        ),
        (
            "/explore?ruleset=domineering&board=....|....|%23%23%23%23|....",
            HEAVY,
        ),
        ("/api/explore?ruleset=clobber&board=xox.|o.ox", HEAVY),
        (
            "/explore?ruleset=domineering&board=.....|.....|.....|.....",
            HEAVY,
        ),
        (
            "/api/graph?ruleset=domineering&board=.....|.....|.....|.....",
            HEAVY,
        ),
        ("/census/domineering?max_cells=6", HEAVY),
        ("/api/census/domineering?max_cells=7", HEAVY),
        ("/census/cram?max_cells=6", HEAVY),
        ("/semigroups?max_genus=20", HEAVY),
        (
            "/api/sylver/play?gaps=1,2,3,4,5,6,7,8,10,11,13,14,16,19,28",
            HEAVY,
        ),
        ("/sylver/position?generators=5,7", HEAVY),
        ("/", LIGHT),
        ("/api", LIGHT),
        ("/api/health", LIGHT),
        ("/api/value?ruleset=chess&board=..", &[400]),
        ("/api/value?ruleset=domineering&board=..|.", &[400]),
        ("/explore?ruleset=amazons&board=L...|....|...R|....", &[400]),
        ("/api/graph?ruleset=domineering", &[400]),
        ("/api/sylver/play?gaps=1,4", &[400]),
        ("/no/such/page", &[404]),
    ]
}

struct Outcome {
    path: &'static str,
    status: u16,
    kind: String,
    latency: Duration,
    ok: bool,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((p / 100.0) * (sorted.len() - 1) as f64).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[test]
fn a_burst_of_mixed_requests_gets_only_designed_answers() {
    let start = Instant::now();
    let server = TestServer::start(Limits::default());
    let addr = server.addr;
    let mix = mix();
    let barrier = Arc::new(Barrier::new(REQUESTS));
    let results = Arc::new(Mutex::new(Vec::with_capacity(REQUESTS)));
    let threads: Vec<_> = (0..REQUESTS)
        .map(|i| {
            let (path, allowed) = mix[i % mix.len()];
            let barrier = barrier.clone();
            let results = results.clone();
            std::thread::Builder::new()
                .stack_size(256 * 1024)
                .spawn(move || {
                    barrier.wait();
                    let t = Instant::now();
                    let r = request(addr, "GET", path, None, Duration::from_secs(90));
                    let latency = t.elapsed();
                    let (status, kind) = match &r {
                        Ok(resp) => {
                            let kind = serde_json::from_slice::<serde_json::Value>(&resp.body)
                                .ok()
                                .and_then(|v| v["kind"].as_str().map(str::to_string))
                                .unwrap_or_default();
                            (resp.status, kind)
                        }
                        Err(e) => (0, e.to_string()),
                    };
                    let ok = allowed.contains(&status);
                    results.lock().unwrap().push(Outcome {
                        path,
                        status,
                        kind,
                        latency,
                        ok,
                    });
                })
                .expect("spawn client")
        })
        .collect();
    for t in threads {
        t.join().expect("client thread");
    }
    let burst = start.elapsed();
    let results = results.lock().unwrap();
    assert_eq!(results.len(), REQUESTS);

    let mut by_status = std::collections::BTreeMap::new();
    for r in results.iter() {
        *by_status.entry(r.status).or_insert(0usize) += 1;
    }
    let mut all: Vec<Duration> = results.iter().map(|r| r.latency).collect();
    all.sort();
    let mut served: Vec<Duration> = results
        .iter()
        .filter(|r| r.status == 200)
        .map(|r| r.latency)
        .collect();
    served.sort();
    println!(
        "load check: {REQUESTS} concurrent requests in {:.2?}; statuses {by_status:?}",
        burst
    );
    println!(
        "latency all:  p50 {:.1?}  p90 {:.1?}  p99 {:.1?}  max {:.1?}",
        percentile(&all, 50.0),
        percentile(&all, 90.0),
        percentile(&all, 99.0),
        all.last().copied().unwrap_or_default()
    );
    println!(
        "latency 200s: p50 {:.1?}  p90 {:.1?}  p99 {:.1?}  ({} answered)",
        percentile(&served, 50.0),
        percentile(&served, 90.0),
        percentile(&served, 99.0),
        served.len()
    );

    let bad: Vec<String> = results
        .iter()
        .filter(|r| !r.ok)
        .map(|r| format!("{} -> {} {}", r.path, r.status, r.kind))
        .collect();
    assert!(bad.is_empty(), "undesigned answers: {bad:#?}");
    for r in results.iter().filter(|r| r.status == 503) {
        assert!(
            r.kind == "busy" || r.kind == "out_of_time" || r.kind.is_empty(),
            "{} -> 503 of kind {}",
            r.path,
            r.kind
        );
    }
    // The server recovers: every route, asked again one at a time, gets its
    // designed answer without a 503.
    let mut retried = 0;
    for (path, allowed) in &mix {
        let again = request(addr, "GET", path, None, Duration::from_secs(60)).expect("retry");
        let want: Vec<u16> = allowed.iter().copied().filter(|&s| s != 503).collect();
        assert!(
            want.contains(&again.status),
            "{path} -> {} after the burst",
            again.status
        );
        retried += 1;
    }
    let health =
        request(addr, "GET", "/api/health", None, Duration::from_secs(10)).expect("health");
    assert_eq!(health.status, 200);
    let v = health.json();
    assert_eq!(v["free_permits"], v["max_heavy"], "permits leaked: {v}");
    println!("after the burst: {retried} routes asked again, each got its designed answer");
    assert!(
        start.elapsed() < DEADLINE,
        "load check ran past {DEADLINE:?}"
    );
}
