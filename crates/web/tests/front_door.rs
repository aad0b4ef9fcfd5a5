//! Answers written before the router (issue 38): raw bytes in a path, a
//! malformed head, a URI too long (414), too many or too large headers
//! (431) were hyper's own bare answers, without the Content-Security-Policy
//! and `nosniff` every page carries. Each kind, on a real socket, now
//! carries them, and good requests around them are still served.

use crate::support;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use partizan_web::Limits;
use support::TestServer;

/// Send `raw` and read everything until the server closes (or 5 s pass).
fn exchange(server: &TestServer, raw: &[u8]) -> String {
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    // a refused head may be answered before all of it is sent
    let _ = s.write_all(raw);
    let mut got = Vec::new();
    let mut buf = [0u8; 16384];
    while let Ok(n) = s.read(&mut buf) {
        if n == 0 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// Every response head in `text` (several for pipelined requests), each
/// as its lines.
fn heads(text: &str) -> Vec<Vec<String>> {
    text.match_indices("HTTP/1.1 ")
        .map(|(at, _)| {
            let head = &text[at..];
            let end = head.find("\r\n\r\n").unwrap_or(head.len());
            head[..end].lines().map(str::to_lowercase).collect()
        })
        .collect()
}

fn assert_guarded(head: &[String], status: u16, what: &str) {
    assert!(
        head[0].starts_with(&format!("http/1.1 {status} ")),
        "{what}: {head:?}"
    );
    for needle in [
        "content-security-policy: default-src 'none'",
        "x-content-type-options: nosniff",
        "referrer-policy: no-referrer",
    ] {
        assert!(
            head.iter().any(|l| l.starts_with(needle)),
            "{what}: no {needle}: {head:?}"
        );
    }
}

#[test]
fn every_refusal_before_the_router_carries_the_security_headers() {
    let server = TestServer::start(Limits::default());
    let many_headers: Vec<u8> = [
        b"GET / HTTP/1.1\r\nHost: x\r\n".to_vec(),
        (0..200)
            .flat_map(|i| format!("X-{i}: y\r\n").into_bytes())
            .collect(),
        b"\r\n".to_vec(),
    ]
    .concat();
    let long_uri = [
        b"GET /".as_slice(),
        &[b'a'; 70_000],
        b" HTTP/1.1\r\nHost: x\r\n\r\n",
    ]
    .concat();
    let big_header = [
        b"GET / HTTP/1.1\r\nHost: x\r\nX-A: ".as_slice(),
        &vec![b'b'; 1_000_000],
        b"\r\n\r\n",
    ]
    .concat();
    let long_name = [
        b"GET / HTTP/1.1\r\nHost: x\r\n".as_slice(),
        &vec![b'n'; 70_000],
        b": v\r\n\r\n",
    ]
    .concat();
    let cases: Vec<(&str, Vec<u8>, u16)> = vec![
        (
            "raw byte 0xff in the path",
            b"GET /\xff\xfe HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
            400,
        ),
        (
            "invalid UTF-8 in the query",
            b"GET /explore?board=\xc3\x28 HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
            400,
        ),
        (
            "a space in the path",
            b"GET /a b HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
            400,
        ),
        (
            "an unknown version",
            b"GET / HTTP/9.9\r\nHost: x\r\n\r\n".to_vec(),
            400,
        ),
        ("garbage", b"\x00\x01\x02\r\n\r\n".to_vec(), 400),
        (
            "a bad header name",
            b"GET / HTTP/1.1\r\nHo st: x\r\n\r\n".to_vec(),
            400,
        ),
        (
            "two Content-Lengths",
            b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab".to_vec(),
            400,
        ),
        ("a URI past 65534 bytes", long_uri, 414),
        ("200 header lines", many_headers, 431),
        ("a header of a megabyte", big_header, 431),
        ("a header name of 70,000 bytes", long_name, 431),
        (
            "a chunked body",
            b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".to_vec(),
            411,
        ),
        (
            "CONNECT",
            b"CONNECT example.com:443 HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
            405,
        ),
    ];
    for (what, raw, status) in &cases {
        let text = exchange(&server, raw);
        let hs = heads(&text);
        assert_eq!(hs.len(), 1, "{what}: {text:?}");
        assert_guarded(&hs[0], *status, what);
    }
}

#[test]
fn good_requests_around_a_refusal_are_served_in_order() {
    let server = TestServer::start(Limits::default());
    // keep-alive: two good requests, then a bad one, answered in order
    let raw = b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n\
GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n\
GET /\xff HTTP/1.1\r\nHost: x\r\n\r\n";
    let text = exchange(&server, raw);
    let hs = heads(&text);
    assert_eq!(hs.len(), 3, "{text}");
    assert_guarded(&hs[0], 200, "first");
    assert_guarded(&hs[1], 200, "second");
    assert_guarded(&hs[2], 400, "the bad one, last");
    // a body of the length announced passes through to the router
    let text = exchange(
        &server,
        b"POST /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 5\r\n\r\nhello",
    );
    assert_guarded(
        &heads(&text)[0],
        405,
        "a POST with a body, through the router",
    );
    // a head sent a byte at a time still gets through
    let mut s = TcpStream::connect(server.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    for b in b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" {
        s.write_all(&[*b]).unwrap();
    }
    let mut got = String::new();
    s.read_to_string(&mut got).unwrap();
    assert_guarded(&heads(&got)[0], 200, "byte by byte");
}
