//! A live server on 127.0.0.1 (port 0) and what a hostile local client
//! can send it: each test checks the refusal, then that the server still
//! answers a plain request within a second.

use super::super::routes::App;
use super::super::server::{Limits, Server};
use super::app;
use engine::Rules;
use std::io::{Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A server running on its own thread, stopped when dropped.
struct Live {
    server: Arc<Server>,
    thread: Option<JoinHandle<()>>,
    addr: SocketAddr,
}

impl Live {
    fn start(name: &str, limits: Limits) -> Live {
        let app: App = app(name, &["random"], 2, Rules::default());
        let server = Arc::new(Server::bind_with(app, "127.0.0.1", 0, limits).unwrap());
        let addr = server.addr();
        let running = server.clone();
        let thread = Some(std::thread::spawn(move || running.run()));
        Live {
            server,
            thread,
            addr,
        }
    }

    fn host(&self) -> String {
        format!("127.0.0.1:{}", self.addr.port())
    }

    fn token(&self) -> String {
        self.server.token().to_string()
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream
    }

    /// Send `raw`, read until the server closes (or 10 s): what came
    /// back, possibly cut by a reset.
    fn send(&self, raw: &[u8]) -> String {
        let mut stream = self.connect();
        let _ = stream.write_all(raw);
        read_all(&mut stream)
    }

    /// A request with Host (and more `headers`, each ending in CRLF).
    fn request(&self, method: &str, path: &str, headers: &str, body: &str) -> String {
        let raw = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n{body}",
            self.host(),
            body.len()
        );
        self.send(raw.as_bytes())
    }

    /// The page within a second, or why not.
    fn answers_quickly(&self) {
        let start = Instant::now();
        let page = self.request("GET", "/", "", "");
        let took = start.elapsed();
        assert!(page.starts_with("HTTP/1.1 200"), "the page: {page:.200}");
        assert!(took < Duration::from_secs(1), "the page took {took:?}");
        let token = format!("X-Carcassonne-Token: {}\r\n", self.token());
        let game = self.request("POST", "/api/new", &token, "");
        assert!(game.starts_with("HTTP/1.1 200"), "a new game: {game:.300}");
    }

    fn open_games(&self) -> usize {
        self.server.app().open_games()
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.server.stop();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn read_all(stream: &mut TcpStream) -> String {
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The JSON error of a response: one line.
fn error_line(response: &str) -> String {
    let body = &response[response.find("\r\n\r\n").map_or(0, |i| i + 4)..];
    let value: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|e| {
        panic!("not a JSON error ({e}): {response}");
    });
    let text = value["error"].as_str().unwrap().to_string();
    assert!(!text.contains('\n'), "{text}");
    text
}

#[test]
fn a_huge_content_length_is_refused_unread() {
    let live = Live::start("live-length", Limits::default());
    // The request of issue 41 that aborted the server.
    let host = live.host();
    for raw in [
        format!("GET / HTTP/1.1\r\nHost: {host}\r\nContent-Length: 40000000000\r\n\r\n"),
        format!(
            "POST /api/new HTTP/1.1\r\nHost: {host}\r\nX-Carcassonne-Token: {}\r\nContent-Length: 18446744000000000000\r\n\r\n{{",
            live.token()
        ),
        format!("GET / HTTP/1.1\r\nHost: {host}\r\nContent-Length: 66000\r\nExpect: 100-continue\r\n\r\n"),
    ] {
        let answer = live.send(raw.as_bytes());
        assert!(answer.starts_with("HTTP/1.1 413"), "{raw:.80}: {answer:.200}");
        assert!(error_line(&answer).contains("at most"), "{answer}");
        live.answers_quickly();
    }
    // Lengths hyper cannot take at all (past 2^64 - 2, two of them).
    for length in [
        "Content-Length: 18446744073709551615\r\n",
        "Content-Length: 99999999999999999999999\r\n",
        "Content-Length: 5\r\nContent-Length: 6\r\n",
    ] {
        let raw = format!("GET / HTTP/1.1\r\nHost: {host}\r\n{length}\r\n");
        let answer = live.send(raw.as_bytes());
        assert!(
            answer.starts_with("HTTP/1.1 4") && answer.contains("connection: close"),
            "{length}: {answer:.200}"
        );
        live.answers_quickly();
    }
    // A chunked body past the bound is cut there.
    let mut raw = format!(
        "POST /api/new HTTP/1.1\r\nHost: {host}\r\nX-Carcassonne-Token: {}\r\nTransfer-Encoding: chunked\r\n\r\n",
        live.token()
    )
    .into_bytes();
    for _ in 0..40 {
        raw.extend_from_slice(b"1000\r\n");
        raw.extend_from_slice(&[b' '; 0x1000]);
        raw.extend_from_slice(b"\r\n");
    }
    raw.extend_from_slice(b"0\r\n\r\n");
    let games = live.open_games();
    let answer = live.send(&raw);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer:.200}");
    assert_eq!(live.open_games(), games, "a refused request started a game");
    live.answers_quickly();
}

#[test]
fn a_huge_header_is_cut_off_and_the_connection_closed() {
    let live = Live::start("live-header", Limits::default());
    // 4 MB in one header line: the server reads 16 kB of it, answers
    // 431 and closes; the writer sees the connection end long before.
    let mut stream = live.connect();
    let head = format!("GET / HTTP/1.1\r\nHost: {}\r\nX-Big: ", live.host());
    stream.write_all(head.as_bytes()).unwrap();
    let line = vec![b'a'; 64 * 1024];
    let mut sent = 0;
    let mut cut = false;
    while sent < 4 << 20 {
        if stream.write_all(&line).is_err() {
            cut = true;
            break;
        }
        sent += line.len();
    }
    let answer = read_all(&mut stream);
    assert!(
        cut || answer.starts_with("HTTP/1.1 431"),
        "4 MB of header were taken: {answer:.200}"
    );
    // The same with the head's end in sight: the answer is 431.
    let answer = live.send(
        format!(
            "GET / HTTP/1.1\r\nHost: {}\r\nX-Big: {}\r\n\r\n",
            live.host(),
            "a".repeat(20_000)
        )
        .as_bytes(),
    );
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 431"),
        "{answer:.200}"
    );
    // Too many headers; a request line past the bound.
    let many: String = (0..200).map(|i| format!("X-{i}: {i}\r\n")).collect();
    let answer = live.request("GET", "/", &many, "");
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 431"),
        "{answer:.200}"
    );
    let answer = live.request("GET", &format!("/{}", "a".repeat(40_000)), "", "");
    assert!(
        answer.is_empty()
            || answer.starts_with("HTTP/1.1 431")
            || answer.starts_with("HTTP/1.1 414"),
        "{answer:.200}"
    );
    live.answers_quickly();
}

#[test]
fn three_hundred_idle_connections_do_not_stop_it() {
    let live = Live::start("live-idle", Limits::default());
    let idle: Vec<TcpStream> = (0..300).map(|_| live.connect()).collect();
    // Half of them sent half a request.
    for (i, mut s) in idle.iter().enumerate() {
        if i % 2 == 0 {
            s.write_all(b"GET / HTTP/1.1\r\nHo").unwrap();
        }
    }
    live.answers_quickly();
    drop(idle);
    live.answers_quickly();
}

#[test]
fn connections_over_the_cap_are_refused_with_503_and_idle_ones_time_out() {
    let limits = Limits {
        max_connections: 20,
        header_timeout: Duration::from_millis(600),
        ..Limits::default()
    };
    let live = Live::start("live-cap", limits);
    assert_eq!(live.server.limits().max_connections, 20);
    let mut idle: Vec<TcpStream> = (0..20).map(|_| live.connect()).collect();
    // Give the server the time to accept them all.
    std::thread::sleep(Duration::from_millis(100));
    let answer = live.request("GET", "/", "", "");
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer:.200}");
    assert!(error_line(&answer).contains("too many connections"));
    // The header timeout closes the idle ones (well within 10 s)…
    let start = Instant::now();
    for s in &mut idle {
        let mut byte = [0u8; 1];
        assert!(
            matches!(s.read(&mut byte), Ok(0) | Err(_)),
            "an idle connection got an answer"
        );
    }
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    drop(idle);
    std::thread::sleep(Duration::from_millis(100));
    // …and the server answers again.
    live.answers_quickly();
}

#[test]
fn another_host_origin_or_no_token_is_refused() {
    let live = Live::start("live-guard", Limits::default());
    let port = live.addr.port();
    let token = format!("X-Carcassonne-Token: {}\r\n", live.token());
    // Issue 41: a text/plain POST from another site, its name rebound to
    // this machine, started a game and read its view.
    let rebound = format!(
        "POST /api/new HTTP/1.1\r\nHost: attacker.example:{port}\r\nOrigin: http://attacker.example:{port}\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{{}}"
    );
    let answer = live.send(rebound.as_bytes());
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer:.300}");
    assert!(error_line(&answer).contains("Host"));
    for host in [
        format!("attacker.example:{port}"),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
        "127.0.0.1".to_string(),
    ] {
        let raw = format!("GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        let answer = live.send(raw.as_bytes());
        assert!(answer.starts_with("HTTP/1.1 403"), "{host}: {answer:.300}");
    }
    let answer = live.send(b"GET / HTTP/1.0\r\n\r\n");
    assert!(answer.starts_with("HTTP/1.0 403"), "no Host: {answer:.300}");
    // Two Hosts.
    let answer = live.send(
        format!(
            "GET / HTTP/1.1\r\nHost: {}\r\nHost: attacker.example\r\nConnection: close\r\n\r\n",
            live.host()
        )
        .as_bytes(),
    );
    assert!(
        answer.starts_with("HTTP/1.1 400"),
        "two Hosts: {answer:.300}"
    );
    // Our Host, another page's Origin, with the token.
    let origin = format!("{token}Origin: http://attacker.example\r\n");
    let answer = live.request("POST", "/api/new", &origin, "{}");
    assert!(answer.starts_with("HTTP/1.1 403"), "{answer:.300}");
    assert!(error_line(&answer).contains("Origin"));
    // Without the token, or a wrong one.
    for headers in [
        String::new(),
        "X-Carcassonne-Token: 00000000000000000000000000000000\r\n".to_string(),
    ] {
        for (method, path) in [
            ("POST", "/api/new"),
            ("GET", "/watch/status"),
            ("GET", "/api/game/x"),
        ] {
            let answer = live.request(method, path, &headers, "");
            assert!(
                answer.starts_with("HTTP/1.1 403"),
                "{method} {path}: {answer:.300}"
            );
            assert!(error_line(&answer).contains("token"));
        }
    }
    assert_eq!(live.open_games(), 0, "a refused request started a game");
    // The page's own requests pass: its origin, its token; localhost too.
    let own = format!("{token}Origin: http://{}\r\n", live.host());
    let answer = live.request("POST", "/api/new", &own, "{}");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer:.300}");
    let local = format!(
        "POST /api/new HTTP/1.1\r\nHost: localhost:{port}\r\nOrigin: http://localhost:{port}\r\n{token}Connection: close\r\nContent-Length: 0\r\n\r\n"
    );
    assert!(live.send(local.as_bytes()).starts_with("HTTP/1.1 200"));
    let query = format!("/api/game/nothing?token={}", live.token());
    let answer = live.request("GET", &query, "", "");
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer:.300}");
    live.answers_quickly();
}

#[test]
fn a_slow_body_is_cut_off() {
    let limits = Limits {
        body_timeout: Duration::from_millis(300),
        ..Limits::default()
    };
    let live = Live::start("live-slow", limits);
    let mut stream = live.connect();
    let raw = format!(
        "POST /api/new HTTP/1.1\r\nHost: {}\r\nX-Carcassonne-Token: {}\r\nContent-Length: 10\r\n\r\n{{",
        live.host(),
        live.token()
    );
    stream.write_all(raw.as_bytes()).unwrap();
    let start = Instant::now();
    let answer = read_all(&mut stream);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:.200}");
    assert!(start.elapsed() < Duration::from_secs(5));
    live.answers_quickly();
}
