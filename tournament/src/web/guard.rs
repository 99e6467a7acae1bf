//! Who may ask: the checks every request passes before it is answered.
//!
//! - **Host**: the name the browser used must be the server's own address
//!   and port. For a loopback bind that is `127.0.0.1:PORT`,
//!   `localhost:PORT` or `[::1]:PORT`; otherwise the address the
//!   connection arrived on (or the name given to `--host`). A page on
//!   another site that rebinds its name to this machine (DNS rebinding)
//!   sends its own name, and is refused.
//! - **Origin**: when the browser names the page that makes the request,
//!   it must be this server's page (`http://` and the Host). A page of
//!   another site may send requests, never with this origin.
//! - **Token**: a secret of 128 bits from the operating system's random
//!   source, made when the server starts and written into its pages.
//!   Every request but the page itself (`/`) carries it, in the header
//!   [`TOKEN_HEADER`] or, for the links the browser follows on its own
//!   (a download, a game of `--watch`), as `?token=`. A request without
//!   it is refused.
//!
//! Each refusal is a 403 with a one-line JSON error.

use super::routes::Reply;
use files::error::{Error, Result};
use rand::RngCore as _;
use std::net::IpAddr;

/// The request header that carries the token.
pub const TOKEN_HEADER: &str = "x-carcassonne-token";

/// The checks of one server.
#[derive(Clone, Debug)]
pub struct Guard {
    token: String,
    port: u16,
    /// Host names (lower case, IPv6 in brackets) accepted on any
    /// connection: the loopback names for a loopback bind, the bound
    /// address, the name given to `--host`.
    names: Vec<String>,
}

/// What a request says about itself.
#[derive(Clone, Copy, Debug, Default)]
pub struct Asking<'a> {
    /// The path and query (`/api/new?x`).
    pub url: &'a str,
    /// The `Host` header.
    pub host: Option<&'a str>,
    /// The `Origin` header.
    pub origin: Option<&'a str>,
    /// The token header.
    pub token: Option<&'a str>,
    /// The address the connection arrived on.
    pub local: Option<IpAddr>,
}

/// A fresh secret: 128 bits of the operating system's random source as
/// 32 hexadecimal digits.
///
/// # Errors
/// The operating system gives no random bytes.
pub fn new_token() -> Result<String> {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| Error::Internal(format!("no random bytes from the system: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// A seed from the operating system's random source.
///
/// # Errors
/// The operating system gives no random bytes.
pub fn random_seed() -> Result<u64> {
    let mut bytes = [0u8; 8];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| Error::Internal(format!("no random bytes from the system: {e}")))?;
    Ok(u64::from_le_bytes(bytes))
}

/// An address as it stands in a URL or a Host header (IPv6 in brackets,
/// an IPv4 address mapped into IPv6 as IPv4).
pub fn url_host(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => format!("[{v6}]"),
        },
    }
}

impl Guard {
    /// The checks of a server bound to `bound` (port `port`), started
    /// with `--host host`, whose pages hold `token`.
    pub fn new(token: String, host: &str, bound: IpAddr, port: u16) -> Guard {
        let mut names = Vec::new();
        if bound.is_loopback() {
            names.extend(["localhost", "127.0.0.1", "[::1]"].map(str::to_string));
        }
        if !bound.is_unspecified() {
            names.push(url_host(bound));
        }
        let given = host.trim_start_matches('[').trim_end_matches(']');
        if given.parse::<IpAddr>().is_err() && !given.is_empty() {
            names.push(given.to_ascii_lowercase());
        }
        names.dedup();
        Guard { token, port, names }
    }

    /// `Ok` when the request may be answered, else the 403 to send.
    pub fn check(&self, asking: &Asking<'_>) -> std::result::Result<(), Reply> {
        let Some(host) = asking.host else {
            return Err(Reply::error(403, "refused: the request names no Host"));
        };
        let host = host.trim().to_ascii_lowercase();
        if !self.host_is_ours(&host, asking.local) {
            return Err(Reply::error(
                403,
                format!("refused: Host {host:?} is not this server's address"),
            ));
        }
        if let Some(origin) = asking.origin {
            if !origin
                .trim()
                .eq_ignore_ascii_case(&format!("http://{host}"))
            {
                return Err(Reply::error(
                    403,
                    format!("refused: a request from another page (Origin {origin:?})"),
                ));
            }
        }
        if needs_token(asking.url) {
            let given = asking.token.or_else(|| query_token(asking.url));
            if !given.is_some_and(|t| same_secret(t.trim().as_bytes(), self.token.as_bytes())) {
                return Err(Reply::error(
                    403,
                    "refused: the request lacks this server's token (reload the page)",
                ));
            }
        }
        Ok(())
    }

    /// Whether `host` (lower case) names this server.
    fn host_is_ours(&self, host: &str, local: Option<IpAddr>) -> bool {
        let (name, port) = match split_port(host) {
            Some(parts) => parts,
            None => return false,
        };
        if port.unwrap_or(80) != self.port {
            return false;
        }
        if self.names.iter().any(|n| n == name) {
            return true;
        }
        // The address the connection arrived on (a bind to every
        // interface): by number, and by the loopback names over loopback.
        match local {
            Some(ip) if ip.is_loopback() || ip.to_canonical().is_loopback() => {
                matches!(name, "localhost" | "127.0.0.1" | "[::1]") || name == url_host(ip)
            }
            Some(ip) => name == url_host(ip),
            None => false,
        }
    }
}

/// `name[:port]` of a Host header; `None` when malformed.
fn split_port(host: &str) -> Option<(&str, Option<u16>)> {
    let (name, port) = if host.starts_with('[') {
        let end = host.find(']')?;
        let rest = &host[end + 1..];
        let port = match rest.strip_prefix(':') {
            Some(p) => Some(p),
            None if rest.is_empty() => None,
            None => return None,
        };
        (&host[..=end], port)
    } else {
        match host.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        }
    };
    if name.is_empty() {
        return None;
    }
    let port = match port {
        Some(p) => Some(p.parse::<u16>().ok()?),
        None => None,
    };
    Some((name, port))
}

/// Every request but the page itself (`/`) and its icon needs the token;
/// the path is cut as [`super::routes::App::handle`] cuts it.
fn needs_token(url: &str) -> bool {
    let path = url.split(['?', '#']).next().unwrap_or("");
    let mut parts = path.split('/').filter(|p| !p.is_empty());
    !matches!(
        (parts.next(), parts.next()),
        (None, _) | (Some("favicon.ico"), None)
    )
}

/// The `token=` of a query.
fn query_token(url: &str) -> Option<&str> {
    let query = url.split_once('?')?.1;
    let query = query.split('#').next().unwrap_or("");
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("token="))
}

/// `a == b` in a time that does not depend on where they differ.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loopback() -> Guard {
        Guard::new(
            "ab".repeat(16),
            "127.0.0.1",
            "127.0.0.1".parse().unwrap(),
            8123,
        )
    }

    fn ask<'a>(
        url: &'a str,
        host: &'a str,
        origin: Option<&'a str>,
        token: Option<&'a str>,
    ) -> Asking<'a> {
        Asking {
            url,
            host: Some(host),
            origin,
            token,
            local: Some("127.0.0.1".parse().unwrap()),
        }
    }

    #[test]
    fn tokens_and_seeds_are_fresh() {
        let a = new_token().unwrap();
        assert_eq!(a.len(), 32);
        assert_ne!(a, new_token().unwrap());
        assert_ne!(random_seed().unwrap(), random_seed().unwrap());
    }

    #[test]
    fn loopback_hosts_are_accepted_others_refused() {
        let g = loopback();
        let t = "ab".repeat(16);
        for host in [
            "127.0.0.1:8123",
            "localhost:8123",
            "LOCALHOST:8123",
            "[::1]:8123",
        ] {
            assert!(
                g.check(&ask("/api/new", host, None, Some(&t))).is_ok(),
                "{host}"
            );
        }
        for host in [
            "attacker.example:8123",
            "attacker.example",
            "127.0.0.1:8124",
            "127.0.0.1",
            "localhost.attacker.example:8123",
            "[::1]x:8123",
            "::1:8123",
            "",
            ":8123",
            "127.0.0.1:99999",
            "0.0.0.0:8123",
        ] {
            let e = g.check(&ask("/", host, None, None)).unwrap_err();
            assert_eq!(e.status, 403, "{host}");
            let text = String::from_utf8(e.body).unwrap();
            assert!(!text.contains('\n') && text.contains("Host"), "{text}");
        }
        let none = Asking {
            url: "/",
            ..Asking::default()
        };
        assert_eq!(g.check(&none).unwrap_err().status, 403);
    }

    #[test]
    fn origins_must_be_the_page_itself() {
        let g = loopback();
        let t = "ab".repeat(16);
        let host = "localhost:8123";
        assert!(g
            .check(&ask(
                "/api/new",
                host,
                Some("http://localhost:8123"),
                Some(&t)
            ))
            .is_ok());
        for origin in [
            "http://attacker.example",
            "http://127.0.0.1:8123", // another name than the Host used
            "https://localhost:8123",
            "null",
            "http://localhost:8123.attacker.example",
        ] {
            let e = g
                .check(&ask("/api/new", host, Some(origin), Some(&t)))
                .unwrap_err();
            assert_eq!(e.status, 403, "{origin}");
            assert!(String::from_utf8(e.body).unwrap().contains("Origin"));
        }
    }

    #[test]
    fn every_request_but_the_page_needs_the_token() {
        let g = loopback();
        let t = "ab".repeat(16);
        let host = "127.0.0.1:8123";
        assert!(g.check(&ask("/", host, None, None)).is_ok());
        assert!(g.check(&ask("/?speed=0", host, None, None)).is_ok());
        assert!(g.check(&ask("/favicon.ico", host, None, None)).is_ok());
        for url in [
            "/api/new",
            "//api/new",
            "/watch/status",
            "/api/game/x/record",
            "/anything",
        ] {
            let e = g.check(&ask(url, host, None, None)).unwrap_err();
            assert_eq!(e.status, 403, "{url}");
            assert!(String::from_utf8(e.body).unwrap().contains("token"));
            assert!(g
                .check(&ask(url, host, None, Some("cd".repeat(16).as_str())))
                .is_err());
            assert!(g.check(&ask(url, host, None, Some(&t[1..]))).is_err());
            assert!(g.check(&ask(url, host, None, Some(&t))).is_ok(), "{url}");
        }
        let with_query = format!("/watch/game/0?token={t}");
        assert!(g.check(&ask(&with_query, host, None, None)).is_ok());
        assert!(g
            .check(&ask("/watch/game/0?token=", host, None, None))
            .is_err());
    }

    #[test]
    fn any_interface_accepts_the_address_connected_to() {
        let g = Guard::new("t".to_string(), "0.0.0.0", "0.0.0.0".parse().unwrap(), 80);
        let mut a = Asking {
            url: "/",
            host: Some("192.168.1.5"),
            local: Some("192.168.1.5".parse().unwrap()),
            ..Asking::default()
        };
        assert!(g.check(&a).is_ok());
        a.host = Some("192.168.1.6:80");
        assert!(g.check(&a).is_err());
        a.host = Some("localhost");
        assert!(g.check(&a).is_err(), "localhost over a LAN connection");
        a.local = Some("127.0.0.1".parse().unwrap());
        assert!(g.check(&a).is_ok());
        let named = Guard::new(
            "t".to_string(),
            "box.lan",
            "10.0.0.2".parse().unwrap(),
            9000,
        );
        a.host = Some("box.lan:9000");
        a.local = Some("10.0.0.2".parse().unwrap());
        assert!(named.check(&a).is_ok());
        a.host = Some("10.0.0.2:9000");
        assert!(named.check(&a).is_ok());
        let v6 = Guard::new("t".to_string(), "::1", "::1".parse().unwrap(), 9000);
        a.host = Some("[::1]:9000");
        a.local = Some("::1".parse().unwrap());
        assert!(v6.check(&a).is_ok());
    }
}
