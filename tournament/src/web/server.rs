//! The HTTP side: hyper's HTTP/1 server on a single-threaded tokio
//! runtime, and a fixed [`Pool`] of worker threads that answer.
//!
//! What one client, or many, can cost it is bounded before anything is
//! read ([`Limits`]):
//!
//! - the request line and headers: at most [`Limits::max_head`] bytes and
//!   [`Limits::max_headers`] headers (hyper answers 431 and closes), read
//!   within [`Limits::header_timeout`] (the same clock closes a connection
//!   idle between requests);
//! - the body: a declared length over [`MAX_BODY`] is refused (413, the
//!   connection closed) without reading it; a chunked body is cut at
//!   [`MAX_BODY`] bytes and must arrive within [`Limits::body_timeout`];
//! - connections: at most [`Limits::max_connections`] open (also kept
//!   under the open-file limit, which is raised to its hard limit at
//!   start); one more is answered 503 and closed. An idle connection is a
//!   few kilobytes of one task on the runtime, never a thread;
//! - work: requests pass the [`guard`](super::guard) (Host, Origin,
//!   token), then go to the pool: [`Limits::workers`] threads made at
//!   start, a queue of [`Limits::queue`]; a request that finds the queue
//!   full is answered 503;
//! - errors of `accept` (no file descriptor left, …) are written once to
//!   stderr and retried after a short sleep: they never end the server.

use super::guard::{Asking, Guard, TOKEN_HEADER};
use super::pool::Pool;
use super::routes::{App, Reply, MAX_BODY};
use files::error::{Error, Result};
use http_body_util::{BodyExt as _, Full, Limited};
use hyper::body::{Body as _, Bytes, Incoming};
use hyper::header::{HeaderValue, CONNECTION, CONTENT_TYPE};
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::future::{poll_fn, Future as _};
use std::net::{IpAddr, SocketAddr};
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;
use tokio::io::AsyncWrite as _;
use tokio::net::TcpStream;
use tokio::sync::{oneshot, Notify};

/// What the server allows each client and all of them.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections open at once (more are answered 503 and closed).
    pub max_connections: usize,
    /// Time to send the request line and headers (and to start the next
    /// request on a kept-alive connection).
    pub header_timeout: Duration,
    /// Time to send the body.
    pub body_timeout: Duration,
    /// Bytes of the request line and headers (at least 8192: hyper's
    /// least buffer).
    pub max_head: usize,
    /// Headers of a request.
    pub max_headers: usize,
    /// Worker threads.
    pub workers: usize,
    /// Requests waiting for a worker.
    pub queue: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 4096,
            header_timeout: Duration::from_secs(15),
            body_timeout: Duration::from_secs(15),
            max_head: 16 * 1024,
            max_headers: 64,
            workers: 8,
            queue: 64,
        }
    }
}

/// File descriptors kept for everything but connections (records, bots'
/// pipes, the runtime).
const FD_RESERVE: u64 = 256;
/// Over-cap connections answered at once; more are closed unanswered.
const MAX_REFUSING: usize = 64;
/// Pause after an `accept` error (no descriptor left, …) before retrying.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// A running server.
pub struct Server {
    listener: Mutex<Option<std::net::TcpListener>>,
    shared: Arc<Shared>,
    addr: SocketAddr,
    stop: Arc<Notify>,
}

/// What every connection's task shares.
struct Shared {
    app: Arc<App>,
    guard: Guard,
    pool: Pool,
    limits: Limits,
    /// Connections open now.
    open: AtomicUsize,
    /// Over-cap connections being answered 503 now.
    refusing: AtomicUsize,
}

impl Server {
    /// Bind `host:port` (port 0: any free port) with the default
    /// [`Limits`].
    ///
    /// # Errors
    /// The address cannot be bound, or the worker threads not made.
    pub fn bind(app: App, host: &str, port: u16) -> Result<Server> {
        Server::bind_with(app, host, port, Limits::default())
    }

    /// Bind `host:port` with `limits`.
    ///
    /// # Errors
    /// As [`Server::bind`].
    pub fn bind_with(app: App, host: &str, port: u16, mut limits: Limits) -> Result<Server> {
        let files = raise_open_file_limit();
        let room = usize::try_from(files.saturating_sub(FD_RESERVE)).unwrap_or(usize::MAX);
        limits.max_connections = limits.max_connections.min(room).max(16);
        limits.max_head = limits.max_head.max(8192);
        let bare = host.trim_start_matches('[').trim_end_matches(']');
        let listener = std::net::TcpListener::bind((bare, port)).map_err(|e| {
            Error::Invalid(format!("--host {host} --port {port}: cannot listen: {e}"))
        })?;
        let addr = listener
            .local_addr()
            .map_err(|e| Error::Internal(format!("the server has no address: {e}")))?;
        let guard = Guard::new(app.token().to_string(), bare, addr.ip(), addr.port());
        let pool = Pool::new(limits.workers, limits.queue)?;
        Ok(Server {
            listener: Mutex::new(Some(listener)),
            shared: Arc::new(Shared {
                app: Arc::new(app),
                guard,
                pool,
                limits,
                open: AtomicUsize::new(0),
                refusing: AtomicUsize::new(0),
            }),
            addr,
            stop: Arc::new(Notify::new()),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The limits in force (the connection cap as lowered to fit the
    /// open-file limit).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn limits(&self) -> &Limits {
        &self.shared.limits
    }

    /// The application behind it (tests look at its games).
    #[cfg(test)]
    pub fn app(&self) -> &App {
        &self.shared.app
    }

    /// The secret token the pages carry.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn token(&self) -> &str {
        self.shared.app.token()
    }

    /// Answer requests until [`Server::stop`] (or forever). Returns at
    /// once when called a second time.
    pub fn run(&self) {
        let Some(listener) = self
            .listener
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        else {
            return;
        };
        let runtime = match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(r) => r,
            Err(e) => {
                eprintln!("carcassonne web: cannot start the server: {e}");
                return;
            }
        };
        runtime.block_on(serve(listener, self.shared.clone(), self.stop.clone()));
    }

    /// Stop answering: [`Server::run`] returns and its connections close.
    /// Only the tests stop a server; the command's runs until it is
    /// killed.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn stop(&self) {
        self.stop.notify_one();
    }
}

/// Raise the soft limit of open files to the hard one (at most 2^20);
/// the soft limit now in force.
fn raise_open_file_limit() -> u64 {
    use nix::sys::resource::{getrlimit, setrlimit, Resource};
    let Ok((soft, hard)) = getrlimit(Resource::RLIMIT_NOFILE) else {
        return 1024;
    };
    let want = hard.min(1 << 20);
    if want > soft && setrlimit(Resource::RLIMIT_NOFILE, want, hard).is_ok() {
        return want;
    }
    soft
}

/// The accept loop.
async fn serve(listener: std::net::TcpListener, shared: Arc<Shared>, stop: Arc<Notify>) {
    let listener = match listener
        .set_nonblocking(true)
        .and_then(|()| tokio::net::TcpListener::from_std(listener))
    {
        Ok(l) => l,
        Err(e) => {
            eprintln!("carcassonne web: cannot listen: {e}");
            return;
        }
    };
    tokio::spawn(reap_idle_games(shared.clone()));
    let mut failing = 0u64;
    loop {
        let accepted = {
            let mut stopped = pin!(stop.notified());
            poll_fn(|cx| {
                if stopped.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(None);
                }
                listener.poll_accept(cx).map(Some)
            })
            .await
        };
        match accepted {
            None => return,
            Some(Ok((stream, _peer))) => {
                if failing > 0 {
                    eprintln!("carcassonne web: accepting connections again ({failing} failed)");
                    failing = 0;
                }
                connection(&shared, stream);
            }
            // The client gave up before it was accepted: nothing to say.
            Some(Err(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionAborted | std::io::ErrorKind::ConnectionReset
                ) => {}
            Some(Err(e)) => {
                if failing == 0 {
                    eprintln!(
                        "carcassonne web: cannot accept a connection ({e}); retrying every {} ms",
                        ACCEPT_PAUSE.as_millis()
                    );
                }
                failing += 1;
                tokio::time::sleep(ACCEPT_PAUSE).await;
            }
        }
    }
}

/// End the games of quiet tabs now and then (on the pool: ending a game
/// may stop bot processes).
async fn reap_idle_games(shared: Arc<Shared>) {
    let every =
        (shared.app.config.idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(30));
    let mut tick = tokio::time::interval(every);
    loop {
        tick.tick().await;
        let app = shared.app.clone();
        let _ = shared.pool.submit(Box::new(move || app.end_idle()));
    }
}

/// Counts a connection open until dropped.
struct Slot(Arc<Shared>, fn(&Shared) -> &AtomicUsize);

impl Drop for Slot {
    fn drop(&mut self) {
        (self.1)(&self.0).fetch_sub(1, Ordering::AcqRel);
    }
}

/// Take a slot of `counter` when fewer than `cap` are taken.
fn take_slot(
    shared: &Arc<Shared>,
    counter: fn(&Shared) -> &AtomicUsize,
    cap: usize,
) -> Option<Slot> {
    counter(shared)
        .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
            (n < cap).then_some(n + 1)
        })
        .ok()
        .map(|_| Slot(shared.clone(), counter))
}

/// Serve one accepted connection on its own task (or refuse it).
fn connection(shared: &Arc<Shared>, stream: TcpStream) {
    let Some(slot) = take_slot(shared, |s| &s.open, shared.limits.max_connections) else {
        if let Some(slot) = take_slot(shared, |s| &s.refusing, MAX_REFUSING) {
            tokio::spawn(refuse(stream, slot));
        }
        return;
    };
    let _ = stream.set_nodelay(true);
    let local = stream.local_addr().ok().map(|a| a.ip());
    let shared = shared.clone();
    tokio::spawn(async move {
        let _slot = slot;
        let limits = &shared.limits;
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout)
            .max_buf_size(limits.max_head)
            .max_headers(limits.max_headers)
            .keep_alive(true);
        let answering = shared.clone();
        let service = hyper::service::service_fn(move |request| {
            let shared = answering.clone();
            async move { Ok::<_, Infallible>(answer(&shared, request, local).await) }
        });
        let _ = http.serve_connection(TokioIo::new(stream), service).await;
    });
}

/// Answer a connection over the cap: 503, then close (reading what it
/// sent for up to a second first, so the answer is not lost to a reset).
async fn refuse(mut stream: TcpStream, _slot: Slot) {
    let body = r#"{"error":"too many connections are open: try again later"}"#;
    let text = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\nretry-after: 5\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(text.as_bytes());
    let _ = poll_fn(|cx| Pin::new(&mut stream).poll_shutdown(cx)).await;
    let drain = async {
        let mut scratch = [0u8; 4096];
        loop {
            if stream.readable().await.is_err() {
                return;
            }
            match stream.try_read(&mut scratch) {
                Ok(0) => return, // the client closed
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(_) => return,
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), drain).await;
}

/// The first value of header `name`, if it is given once and is text.
fn single<'a>(
    request: &'a Request<Incoming>,
    name: &str,
) -> std::result::Result<Option<&'a str>, ()> {
    let mut values = request.headers().get_all(name).iter();
    match (values.next(), values.next()) {
        (None, _) => Ok(None),
        (Some(v), None) => v.to_str().map(Some).map_err(|_| ()),
        (Some(_), Some(_)) => Err(()),
    }
}

/// One request: the guard, the body, then the pool.
async fn answer(
    shared: &Arc<Shared>,
    request: Request<Incoming>,
    local: Option<IpAddr>,
) -> Response<Full<Bytes>> {
    let url = request
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    let method = request.method().as_str().to_string();
    let (host, origin, token) = match (
        single(&request, "host"),
        single(&request, "origin"),
        single(&request, TOKEN_HEADER),
    ) {
        (Ok(h), Ok(o), Ok(t)) => (h, o, t),
        _ => {
            let e = Reply::error(
                400,
                "Host, Origin and the token are given once each, as text",
            );
            return respond(e, true);
        }
    };
    let asking = Asking {
        url: &url,
        host,
        origin,
        token,
        local,
    };
    if let Err(refused) = shared.guard.check(&asking) {
        return respond(refused, false);
    }
    let body = request.into_body();
    if body.size_hint().lower() > MAX_BODY as u64 {
        let e = Reply::error(413, format!("a request holds at most {MAX_BODY} bytes"));
        return respond(e, true);
    }
    let read = tokio::time::timeout(
        shared.limits.body_timeout,
        Limited::new(body, MAX_BODY).collect(),
    )
    .await;
    let body = match read {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            let e = Reply::error(413, format!("a request holds at most {MAX_BODY} bytes"));
            return respond(e, true);
        }
        Ok(Err(e)) => {
            return respond(
                Reply::error(400, format!("cannot read the request: {e}")),
                true,
            )
        }
        Err(_) => {
            let e = Reply::error(408, "the request's body came too slowly");
            return respond(e, true);
        }
    };
    let (send, receive) = oneshot::channel();
    let app = shared.app.clone();
    let job = Box::new(move || {
        let _ = send.send(app.handle(&method, &url, &body));
    });
    if shared.pool.submit(job).is_err() {
        let e = Reply::error(503, "the server is busy: try again in a moment");
        return respond(e, false);
    }
    match receive.await {
        Ok(reply) => respond(reply, false),
        Err(_) => respond(
            Reply::error(500, "the request failed inside the server"),
            false,
        ),
    }
}

/// A [`Reply`] as an HTTP response (`close`: and the connection ends).
fn respond(reply: Reply, close: bool) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(reply.body)));
    *response.status_mut() = hyper::StatusCode::from_u16(reply.status)
        .unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(reply.content_type));
    for (name, value) in [
        ("cache-control", "no-store"),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
        ("x-frame-options", "DENY"),
        ("content-security-policy", "frame-ancestors 'none'"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if let Some(name) = &reply.download {
        if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
            headers.insert("content-disposition", v);
        }
    }
    if close {
        headers.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    response
}
