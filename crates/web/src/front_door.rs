//! The front door: every request head is read and checked here before
//! hyper sees it, so that the answers hyper would otherwise write by itself
//! (400 for a malformed head or raw bytes in the path, 414 for a long URI,
//! 431 for too many or too large headers) are written by the site instead,
//! with the security headers every page carries ([`SECURITY_HEADERS`]).
//!
//! [`Guarded`] wraps a connection's stream. Reading, it hands hyper only
//! whole request heads that pass the same checks hyper makes (the same
//! parser, `httparse`, with limits at or inside hyper's), then exactly the
//! body its `Content-Length` announces; the site takes no chunked bodies
//! (411). A head that fails is never handed over: hyper reads the end of
//! the stream instead, finishes the responses it owes, and when it shuts
//! the stream down the refusal is written, then the connection closes.

use std::collections::VecDeque;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll, Waker};

use hyper::http::{HeaderName, Method, StatusCode, Uri};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::html::SECURITY_HEADERS;

/// The longest request target: hyper's own limit (past it hyper answers
/// 414 by itself).
pub const MAX_URI: usize = (u16::MAX - 1) as usize;
/// The largest request head, request line and headers together (hyper's
/// own buffer goes to about 408 KiB before its 431).
pub const MAX_HEAD: usize = 128 << 10;
/// The most header lines (hyper's default).
pub const MAX_HEADERS: usize = 100;
/// The longest header name (hyper's 431 starts at 64 KiB).
pub const MAX_HEADER_NAME: usize = (1 << 16) - 1;
/// The largest request body: the site's routes are all `GET`, so a body
/// is never read; one is passed through only up to this size.
pub const MAX_BODY: u64 = 1 << 20;

/// Where a connection's reading stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum State {
    /// At the start of a request head.
    Head,
    /// Inside a body: this many bytes are still to come.
    Body(u64),
}

/// A connection's stream with the front door's checks on what is read
/// (see the module documentation).
pub struct Guarded<S> {
    inner: S,
    /// Bytes read from the client that hyper has not read yet.
    buf: Vec<u8>,
    /// How many bytes at the front of `buf` hyper may read.
    released: usize,
    /// How far `buf` was searched for the end of a head.
    scanned: usize,
    state: State,
    /// The client closed its side.
    eof: bool,
    /// The answer to a refused head, written when hyper shuts down.
    refusal: Option<Vec<u8>>,
    /// How much of the refusal is written.
    refusal_written: usize,
    /// The responses hyper has written, followed.
    out: Outgoing,
    /// Whether each request handed to hyper, in order, is a `HEAD` (its
    /// response has no body), until its response is written.
    owed: VecDeque<bool>,
    /// Hyper's read, waiting for the responses it owes before it is told
    /// the stream ended.
    waiting: Option<Waker>,
}

impl<S> Guarded<S> {
    /// Guard `inner`.
    pub fn new(inner: S) -> Guarded<S> {
        Guarded {
            inner,
            buf: Vec::new(),
            released: 0,
            scanned: 0,
            state: State::Head,
            eof: false,
            refusal: None,
            refusal_written: 0,
            out: Outgoing::default(),
            owed: VecDeque::new(),
            waiting: None,
        }
    }

    /// Hand hyper what the buffer holds of the current request, or refuse
    /// its head: `true` when something changed.
    fn advance(&mut self) -> bool {
        match self.state {
            State::Body(left) => {
                let n = left.min(self.buf.len() as u64);
                if n == 0 {
                    return false;
                }
                self.released = n as usize;
                self.state = if n == left {
                    State::Head
                } else {
                    State::Body(left - n)
                };
                true
            }
            State::Head => {
                if !self.head_may_be_complete() {
                    if self.buf.len() > MAX_HEAD {
                        let too_long_a_line = !self.buf.contains(&b'\n');
                        self.refuse(if too_long_a_line && self.buf.len() > MAX_URI {
                            Refusal::new(StatusCode::URI_TOO_LONG, "the request target is too long")
                        } else {
                            Refusal::new(
                                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                                "the request head is too large",
                            )
                        });
                        return true;
                    }
                    return false;
                }
                match check_head(&self.buf) {
                    Ok(None) => false,
                    Ok(Some((len, body))) => {
                        self.owed.push_back(self.buf.starts_with(b"HEAD "));
                        self.released = len;
                        self.scanned = 0;
                        self.state = if body > 0 {
                            State::Body(body)
                        } else {
                            State::Head
                        };
                        true
                    }
                    Err(r) => {
                        self.refuse(r);
                        true
                    }
                }
            }
        }
    }

    /// Whether the buffer holds an empty line (the end of a head, `\n\n`
    /// or `\n\r\n`) past what was searched before: the head is parsed only
    /// then, so a client sending a byte at a time costs one pass.
    fn head_may_be_complete(&mut self) -> bool {
        let from = self.scanned.saturating_sub(2);
        let tail = &self.buf[from..];
        let found =
            tail.windows(2).any(|w| w == b"\n\n") || tail.windows(3).any(|w| w == b"\n\r\n");
        self.scanned = self.buf.len();
        found
    }

    /// Follow what hyper wrote; a finished response settles the request
    /// it answers, and may let a waiting read end the stream.
    fn wrote(&mut self, parts: &[&[u8]]) {
        for part in parts {
            let finished = self.out.feed(part, &mut self.owed);
            if finished && self.refusal.is_some() {
                if let Some(w) = self.waiting.take() {
                    w.wake();
                }
            }
        }
    }

    fn refuse(&mut self, r: Refusal) {
        self.refusal = Some(r.response());
        self.buf.clear();
        self.released = 0;
    }
}

/// The responses hyper writes, followed just far enough to tell where each
/// ends: a head up to its empty line, then the body its `Content-Length`
/// says (none after a `HEAD`, a 1xx, 204 or 304). A body framed otherwise
/// (chunked: the site writes none) loses the count, and a refusal then
/// ends the stream at once.
#[derive(Debug, Default)]
struct Outgoing {
    /// The current response head so far.
    head: Vec<u8>,
    /// Body bytes still to come.
    body: u64,
    /// Lost count: the framing was not followed.
    lost: bool,
}

/// The longest response head followed.
const MAX_RESPONSE_HEAD: usize = 64 << 10;

impl Outgoing {
    /// Follow `bytes`; `true` if a response finished among them.
    fn feed(&mut self, mut bytes: &[u8], owed: &mut VecDeque<bool>) -> bool {
        let mut finished = false;
        while !bytes.is_empty() && !self.lost {
            if self.body > 0 {
                let n = self.body.min(bytes.len() as u64);
                self.body -= n;
                bytes = &bytes[n as usize..];
                if self.body == 0 {
                    owed.pop_front();
                    finished = true;
                }
                continue;
            }
            // in a head: up to its empty line
            let start = self.head.len().saturating_sub(3);
            self.head.extend_from_slice(bytes);
            let Some(end) = self.head[start..]
                .windows(4)
                .position(|w| w == b"\r\n\r\n")
                .map(|i| start + i + 4)
            else {
                self.lost = self.head.len() > MAX_RESPONSE_HEAD;
                return finished;
            };
            let rest = self.head.split_off(end);
            let head = std::mem::take(&mut self.head);
            // what of `bytes` was past the head
            bytes = &bytes[bytes.len() - rest.len()..];
            match response_body(&head, owed.front().copied().unwrap_or(false)) {
                None => {}
                Some(Some(0)) => {
                    owed.pop_front();
                    finished = true;
                }
                Some(Some(n)) => self.body = n,
                Some(None) => self.lost = true,
            }
        }
        finished
    }
}

/// The body length of a response with this head: `None` for an interim
/// (1xx) response, `Some(None)` when it is not a `Content-Length` body.
fn response_body(head: &[u8], after_head_request: bool) -> Option<Option<u64>> {
    let status: u16 = std::str::from_utf8(head.get(9..12)?).ok()?.parse().ok()?;
    if (100..200).contains(&status) {
        return None;
    }
    if after_head_request || status == 204 || status == 304 {
        return Some(Some(0));
    }
    let text = String::from_utf8_lossy(head).to_ascii_lowercase();
    Some(
        text.lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok()),
    )
}

/// Why a head is refused: its status and a one-line reason.
struct Refusal {
    status: StatusCode,
    why: &'static str,
}

impl Refusal {
    fn new(status: StatusCode, why: &'static str) -> Refusal {
        Refusal { status, why }
    }

    /// The whole response: status line, the site's security headers, and
    /// the reason as plain text.
    fn response(&self) -> Vec<u8> {
        let body = format!("{}\n", self.why);
        let mut head = format!(
            "HTTP/1.1 {} {}\r\ncontent-type: text/plain; charset=utf-8\r\n",
            self.status.as_u16(),
            self.status.canonical_reason().unwrap_or("")
        );
        for (name, value) in SECURITY_HEADERS {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!(
            "connection: close\r\ncontent-length: {}\r\n\r\n",
            body.len()
        ));
        let mut out = head.into_bytes();
        out.extend_from_slice(body.as_bytes());
        out
    }
}

fn bad(why: &'static str) -> Refusal {
    Refusal::new(StatusCode::BAD_REQUEST, why)
}

/// Check a request head at the front of `buf` as hyper would: `None` if
/// it is not complete yet, else its length and the body length that
/// follows it, or the refusal hyper's own answer would have been (and the
/// site's own refusals: a `CONNECT`, a chunked or oversized body).
fn check_head(buf: &[u8]) -> Result<Option<(usize, u64)>, Refusal> {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    let len = match req.parse(buf) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(Refusal::new(
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "too many header lines",
            ))
        }
        Err(httparse::Error::Version) => return Err(bad("not HTTP version 1.0 or 1.1")),
        Err(_) => return Err(bad("a malformed request head")),
    };
    if len > MAX_HEAD {
        return Err(Refusal::new(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "the request head is too large",
        ));
    }
    let (Some(method), Some(path), Some(version)) = (req.method, req.path, req.version) else {
        return Err(bad("a malformed request head"));
    };
    if path.len() > MAX_URI {
        return Err(Refusal::new(
            StatusCode::URI_TOO_LONG,
            "the request target is too long",
        ));
    }
    let method = Method::from_bytes(method.as_bytes()).map_err(|_| bad("a malformed method"))?;
    if method == Method::CONNECT {
        return Err(Refusal::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "this site is not a proxy",
        ));
    }
    Uri::try_from(path).map_err(|_| bad("a malformed request target"))?;
    let mut length: Option<u64> = None;
    for h in req.headers.iter() {
        if h.name.len() > MAX_HEADER_NAME {
            return Err(Refusal::new(
                StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
                "a header name is too long",
            ));
        }
        let name = HeaderName::from_bytes(h.name.as_bytes())
            .map_err(|_| bad("a malformed header name"))?;
        if name == hyper::header::TRANSFER_ENCODING {
            return Err(if version == 0 {
                bad("HTTP/1.0 has no Transfer-Encoding")
            } else {
                Refusal::new(
                    StatusCode::LENGTH_REQUIRED,
                    "this site takes no chunked request bodies",
                )
            });
        }
        if name == hyper::header::CONTENT_LENGTH {
            let n = digits(h.value).ok_or_else(|| bad("a malformed Content-Length"))?;
            if length.is_some_and(|m| m != n) {
                return Err(bad("two different Content-Lengths"));
            }
            length = Some(n);
        }
    }
    let body = length.unwrap_or(0);
    if body > MAX_BODY {
        return Err(Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "this site reads no request bodies",
        ));
    }
    Ok(Some((len, body)))
}

/// A Content-Length value: ASCII digits only, as hyper reads it.
fn digits(v: &[u8]) -> Option<u64> {
    if v.is_empty() {
        return None;
    }
    v.iter().try_fold(0u64, |n, &b| {
        if b.is_ascii_digit() {
            n.checked_mul(10)?.checked_add(u64::from(b - b'0'))
        } else {
            None
        }
    })
}

impl<S: AsyncRead + Unpin> AsyncRead for Guarded<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        out: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.released > 0 {
                let n = this.released.min(out.remaining());
                out.put_slice(&this.buf[..n]);
                this.buf.drain(..n);
                this.released -= n;
                return Poll::Ready(Ok(()));
            }
            // A refused head: the end of the stream, once hyper has written
            // every response it owes (told earlier, hyper would take the
            // end for a client gone and drop the requests in flight).
            if this.refusal.is_some() {
                if this.owed.is_empty() || this.out.lost {
                    return Poll::Ready(Ok(()));
                }
                this.waiting = Some(cx.waker().clone());
                return Poll::Pending;
            }
            if this.advance() {
                continue;
            }
            if this.eof {
                return Poll::Ready(Ok(()));
            }
            let mut chunk = [0u8; 8192];
            let mut rb = ReadBuf::new(&mut chunk);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut rb))?;
            if rb.filled().is_empty() {
                this.eof = true;
            } else {
                this.buf.extend_from_slice(rb.filled());
            }
        }
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Guarded<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let n = ready!(Pin::new(&mut this.inner).poll_write(cx, data))?;
        this.wrote(&[&data[..n]]);
        Poll::Ready(Ok(n))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let n = ready!(Pin::new(&mut this.inner).poll_write_vectored(cx, bufs))?;
        let mut left = n;
        let parts: Vec<&[u8]> = bufs
            .iter()
            .map(|b| {
                let take = left.min(b.len());
                left -= take;
                &b[..take]
            })
            .collect();
        this.wrote(&parts);
        Poll::Ready(Ok(n))
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    /// Hyper is done with the connection: write a refusal it left (after
    /// every response hyper wrote), then close.
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if let Some(r) = &this.refusal {
            while this.refusal_written < r.len() {
                let n =
                    ready!(Pin::new(&mut this.inner).poll_write(cx, &r[this.refusal_written..]))?;
                if n == 0 {
                    return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
                }
                this.refusal_written += n;
            }
            ready!(Pin::new(&mut this.inner).poll_flush(cx))?;
        }
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(head: &[u8]) -> Option<u16> {
        match check_head(head) {
            Ok(_) => None,
            Err(r) => Some(r.status.as_u16()),
        }
    }

    #[test]
    fn heads_are_checked_as_hyper_checks_them() {
        assert!(matches!(
            check_head(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
            Ok(Some((27, 0)))
        ));
        assert!(matches!(check_head(b"GET / HTTP/1.1\r\nHo"), Ok(None)));
        assert!(matches!(
            check_head(b"GET / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"),
            Ok(Some((37, 5)))
        ));
        assert_eq!(status(b"GET /\xff HTTP/1.1\r\n\r\n"), Some(400));
        assert_eq!(status(b"GET /a b HTTP/1.1\r\n\r\n"), Some(400));
        assert_eq!(status(b"GET / HTTP/9.9\r\n\r\n"), Some(400));
        assert_eq!(status(b"\x00\x01\r\n\r\n"), Some(400));
        assert_eq!(status(b"GET / HTTP/1.1\r\nHo st: x\r\n\r\n"), Some(400));
        let long = [b"GET /".as_slice(), &[b'a'; 70_000], b" HTTP/1.1\r\n\r\n"].concat();
        assert_eq!(status(&long), Some(414));
        let many: Vec<u8> = [
            b"GET / HTTP/1.1\r\n".to_vec(),
            (0..101)
                .flat_map(|i| format!("X-{i}: y\r\n").into_bytes())
                .collect(),
            b"\r\n".to_vec(),
        ]
        .concat();
        assert_eq!(status(&many), Some(431));
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"),
            Some(400)
        );
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n"),
            Some(400)
        );
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nContent-Length: 99999999999\r\n\r\n"),
            Some(413)
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            Some(411)
        );
        assert_eq!(status(b"CONNECT x:1 HTTP/1.1\r\n\r\n"), Some(405));
    }

    #[test]
    fn a_refusal_carries_the_security_headers() {
        let r = String::from_utf8(bad("a malformed request head").response()).unwrap();
        assert!(r.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{r}");
        for (name, value) in SECURITY_HEADERS {
            assert!(r.contains(&format!("\r\n{name}: {value}\r\n")), "{r}");
        }
        assert!(r.ends_with("\r\n\r\na malformed request head\n"), "{r}");
    }
}
