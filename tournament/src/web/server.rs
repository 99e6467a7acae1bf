//! The HTTP side: a [`tiny_http`] server on a loopback address, one
//! thread per request (an agent thinking blocks only its own request),
//! and a thread that ends the games of tabs gone quiet.

use super::routes::{App, Reply, MAX_BODY};
use files::error::{Error, Result};
use std::io::Read as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// A running server.
pub struct Server {
    http: Arc<tiny_http::Server>,
    app: Arc<App>,
    addr: SocketAddr,
}

impl Server {
    /// Bind `host:port` (port 0: any free port).
    ///
    /// # Errors
    /// The address cannot be bound.
    pub fn bind(app: App, host: &str, port: u16) -> Result<Server> {
        let http = tiny_http::Server::http((host, port)).map_err(|e| {
            Error::Invalid(format!("--host {host} --port {port}: cannot listen: {e}"))
        })?;
        let addr = http
            .server_addr()
            .to_ip()
            .ok_or_else(|| Error::Internal("the server has no IP address".to_string()))?;
        Ok(Server {
            http: Arc::new(http),
            app: Arc::new(app),
            addr,
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Answer requests until the server is dropped by [`Server::stop`]
    /// (or forever).
    pub fn run(&self) {
        let app = self.app.clone();
        let every =
            (app.config.idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(30));
        let reaper = Arc::downgrade(&app);
        std::thread::spawn(move || loop {
            std::thread::sleep(every);
            match reaper.upgrade() {
                Some(app) => app.end_idle(),
                None => return,
            }
        });
        for request in self.http.incoming_requests() {
            let app = app.clone();
            std::thread::spawn(move || answer(&app, request));
        }
    }

    /// Stop answering (the thread in [`Server::run`] returns). Only the
    /// tests stop a server; the command's runs until it is killed.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn stop(&self) {
        self.http.unblock();
    }
}

fn answer(app: &App, mut request: tiny_http::Request) {
    let mut body = Vec::new();
    let reply = match request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
    {
        Err(e) => Reply::error(400, format!("cannot read the request: {e}")),
        Ok(_) if body.len() > MAX_BODY => {
            Reply::error(413, format!("a request holds at most {MAX_BODY} bytes"))
        }
        Ok(_) => app.handle(request.method().as_str(), request.url(), &body),
    };
    let mut response = tiny_http::Response::from_data(reply.body).with_status_code(reply.status);
    let mut header = |name: &str, value: &str| {
        if let Ok(h) = tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(h);
        }
    };
    header("Content-Type", reply.content_type);
    header("Cache-Control", "no-store");
    header("X-Content-Type-Options", "nosniff");
    if let Some(name) = &reply.download {
        header(
            "Content-Disposition",
            &format!("attachment; filename=\"{name}\""),
        );
    }
    let _ = request.respond(response);
}
