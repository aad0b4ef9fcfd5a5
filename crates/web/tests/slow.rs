//! Slow clients on a real socket: half-sent requests are closed after the
//! header-read timeout, the site keeps answering meanwhile, and shutdown
//! finishes within its deadline even with half-sent requests open.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use partizan_web::{serve_with, AppState, Limits};

const HEADER_TIMEOUT: Duration = Duration::from_millis(400);
const DEADLINE: Duration = Duration::from_millis(500);

fn half_sent(addr: std::net::SocketAddr) -> TcpStream {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        .expect("write");
    s
}

/// Whether the server closed the connection within `within`.
fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    s.set_read_timeout(Some(within)).ok();
    let mut buf = [0u8; 512];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            // hyper may answer 408 before closing: read on to the end.
            Ok(_) => continue,
            Err(e) => {
                return !matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                )
            }
        }
    }
}

#[test]
fn half_sent_requests_are_closed_and_shutdown_has_a_deadline() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let server = rt.spawn(serve_with(
        listener,
        AppState::new(Limits::default()),
        async {
            let _ = stop_rx.await;
        },
        HEADER_TIMEOUT,
        DEADLINE,
    ));

    // 100 half-sent requests, and a whole one that must still be answered.
    let mut slow: Vec<TcpStream> = (0..100).map(|_| half_sent(addr)).collect();
    let mut ok = TcpStream::connect(addr).unwrap();
    ok.write_all(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    ok.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");

    let start = Instant::now();
    for (i, s) in slow.iter_mut().enumerate() {
        assert!(
            closed_within(s, Duration::from_secs(3)),
            "half-sent request {i} still open after {:?}",
            start.elapsed()
        );
    }
    assert!(start.elapsed() < Duration::from_secs(3));

    // Shutdown with half-sent requests open ends within the deadline.
    let _held: Vec<TcpStream> = (0..20).map(|_| half_sent(addr)).collect();
    std::thread::sleep(Duration::from_millis(50));
    let t = Instant::now();
    stop_tx.send(()).unwrap();
    rt.block_on(async {
        tokio::time::timeout(Duration::from_secs(3), server)
            .await
            .expect("shutdown ended within its deadline")
            .unwrap()
            .unwrap();
    });
    assert!(
        t.elapsed() < DEADLINE + Duration::from_secs(1),
        "{:?}",
        t.elapsed()
    );
}
