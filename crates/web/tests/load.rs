//! Load check against 127.0.0.1 only, bounded in count and time: a few
//! hundred concurrent mixed requests (value, graph, explore, census,
//! semigroups, Sylver Coinage, bad input). Every answer must be what was
//! designed: 200, the 400/404 the bad input earns, or a 503 (busy or out of
//! time) — never a 500, never a dropped connection. Prints latency
//! percentiles; `scripts/load_check.sh` runs it in release mode.

mod support;

use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

use partizan_web::Limits;
use support::{request, TestServer};

/// Requests in the burst (all released at once).
const REQUESTS: usize = 300;
/// The whole check must finish within this.
const DEADLINE: Duration = Duration::from_secs(180);

/// (path, statuses other than 503 that are fine).
fn mix() -> Vec<(&'static str, &'static [u16])> {
    const OK: &[u16] = &[200];
    vec![
        ("/api/value?ruleset=domineering&board=....|....|....", OK),
        ("/api/value?ruleset=domineering&board=...|...|...", OK),
        ("/api/value?ruleset=cram&board=....|....", OK),
        ("/api/value?ruleset=clobber&board=xoxo|oxox", OK),
        ("/api/value?ruleset=konane&board=xox.|o.ox", OK),
        ("/api/value?ruleset=amazons&board=L..%23|..%23R", OK),
        ("/api/graph?ruleset=domineering&board=....|.%23..|....", OK),
        (
            "/api/graph?ruleset=domineering&board=..%23..|..%23..|..%23..",
            OK,
        ),
        (
            "/explore?ruleset=domineering&board=..%23..|.%23...|%23....|...%23.",
            OK,
        ),
        (
            "/explore?ruleset=domineering&board=....|....|%23%23%23%23|....",
            OK,
        ),
        ("/api/explore?ruleset=clobber&board=xox.|o.ox", OK),
        ("/census/domineering?max_cells=6", OK),
        ("/api/census/domineering?max_cells=7", OK),
        ("/census/cram?max_cells=6", OK),
        ("/semigroups?max_genus=20", OK),
        (
            "/api/sylver/play?gaps=1,2,3,4,5,6,7,8,10,11,13,14,16,19,28",
            OK,
        ),
        ("/sylver/position?generators=5,7", OK),
        ("/explore?ruleset=domineering&board=.....|.....|.....|.....", OK),
        ("/api/graph?ruleset=domineering&board=.....|.....|.....|.....", OK),
        ("/", OK),
        ("/api/health", OK),
        ("/api/value?ruleset=chess&board=..", &[400]),
        ("/api/value?ruleset=domineering&board=..|.", &[400]),
        ("/explore?ruleset=amazons&board=L...|....|...R|....", &[400]),
        ("/api/graph?ruleset=domineering", &[400]),
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
                    let ok = allowed.contains(&status) || status == 503;
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
    assert!(
        by_status.get(&200).copied().unwrap_or(0) >= REQUESTS / 3,
        "too few requests served: {by_status:?}"
    );

    // The server is still serving, every permit came back, and a request
    // turned away during the burst succeeds when retried.
    let mut retried = 0;
    for r in results.iter().filter(|r| r.status == 503).take(5) {
        let again = request(addr, "GET", r.path, None, Duration::from_secs(60)).expect("retry");
        assert_eq!(again.status, 200, "retry of {}", r.path);
        retried += 1;
    }
    let health =
        request(addr, "GET", "/api/health", None, Duration::from_secs(10)).expect("health");
    assert_eq!(health.status, 200);
    let v = health.json();
    assert_eq!(v["free_permits"], v["max_heavy"], "permits leaked: {v}");
    println!("retried {retried} turned-away requests: all answered 200");
    assert!(
        start.elapsed() < DEADLINE,
        "load check ran past {DEADLINE:?}"
    );
}
