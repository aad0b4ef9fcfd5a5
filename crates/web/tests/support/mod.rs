//! Shared test support: a server on 127.0.0.1 port 0 in its own runtime, a
//! minimal blocking HTTP/1.1 client, and a minimal WebDriver client.

#![allow(dead_code)]

pub mod router;
pub mod webdriver;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use partizan_web::{AppState, Limits};

/// A site running on a background thread; stops when dropped.
pub struct TestServer {
    /// Where it listens.
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestServer {
    /// Start a site with these limits on 127.0.0.1, port 0.
    #[allow(dead_code)]
    pub fn start(limits: Limits) -> TestServer {
        TestServer::start_with_atlas(limits, None)
    }

    /// [`TestServer::start`] reading the value atlas from `atlas` (or none).
    pub fn start_with_atlas(limits: Limits, atlas: Option<std::path::PathBuf>) -> TestServer {
        TestServer::start_with(limits, None, atlas)
    }

    /// [`TestServer::start`] reading through (and adding to) the store at
    /// `path`, as `partizan serve` does.
    pub fn start_with_store(limits: Limits, path: &std::path::Path) -> TestServer {
        let store = partizan_store::Store::open(path).expect("store");
        TestServer::start_with(limits, Some(store), None)
    }

    /// A site with these limits, store and atlas.
    pub fn start_with(
        limits: Limits,
        store: Option<partizan_store::Store>,
        atlas: Option<std::path::PathBuf>,
    ) -> TestServer {
        let (tx_addr, rx_addr) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                    .await
                    .expect("bind");
                tx_addr.send(listener.local_addr().expect("addr")).ok();
                let state = AppState::build_with_atlas(limits, store, atlas);
                partizan_web::serve(listener, state, async {
                    let _ = stop_rx.await;
                })
                .await
                .expect("serve");
            });
        });
        let addr = rx_addr
            .recv_timeout(Duration::from_secs(10))
            .expect("server started");
        TestServer {
            addr,
            stop: Some(stop_tx),
            thread: Some(thread),
        }
    }

    /// The address of a path on this server.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A response: status, headers (lower-case names) and body.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!("not JSON ({e}): {}", self.text());
        })
    }
}

/// One HTTP/1.1 request with `Connection: close`, to a loopback address.
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    timeout: Duration,
) -> std::io::Result<Response> {
    assert!(addr.ip().is_loopback(), "tests only talk to loopback");
    let mut s = TcpStream::connect_timeout(&addr, timeout)?;
    s.set_read_timeout(Some(timeout))?;
    s.set_write_timeout(Some(timeout))?;
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes())?;
    // Read until the body is complete: by Content-Length, by the chunked
    // terminator, or by the server closing (some servers keep the
    // connection open despite `Connection: close`).
    let mut raw = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    loop {
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
            let body = raw.len() - (end + 4);
            let length = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            if let Some(n) = length {
                if body >= n {
                    raw.truncate(end + 4 + n);
                    break;
                }
            } else if head.contains("transfer-encoding: chunked") && raw.ends_with(b"0\r\n\r\n") {
                break;
            }
        }
        let n = s.read(&mut buf)?;
        if n == 0 {
            break;
        }
        raw.extend_from_slice(&buf[..n]);
    }
    parse_response(&raw)
}

/// A GET.
pub fn get(addr: SocketAddr, path: &str) -> Response {
    request(addr, "GET", path, None, Duration::from_secs(60)).expect("GET")
}

fn parse_response(raw: &[u8]) -> std::io::Result<Response> {
    let bad = |m: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, m.to_string());
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad("no header end"))?;
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().ok_or_else(|| bad("no status line"))?;
    let status: u16 = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("bad status line"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = raw[end + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    if chunked {
        body = dechunk(&body).ok_or_else(|| bad("bad chunked body"))?;
    }
    Ok(Response {
        status,
        headers,
        body,
    })
}

fn dechunk(mut b: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        let nl = b.windows(2).position(|w| w == b"\r\n")?;
        let size_text = std::str::from_utf8(&b[..nl]).ok()?;
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        b = &b[nl + 2..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(b.get(..size)?);
        b = b.get(size + 2..)?;
    }
}
