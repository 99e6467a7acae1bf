//! The requests the server answers, as one function from (method, path,
//! body) to a reply, so tests call it in-process without a socket.
//!
//! | request | answer |
//! |---|---|
//! | `GET /` | the page (and `/viewer` the replay page of a finished game, `--watch`'s pages: see [`super::watch`]) |
//! | `POST /api/new` `{"mode": "new"|"same"|"swap", "after": ID}` | a new game (`same`: the deck of game `after` again; `swap`: that deck with the person one seat on); its seat view |
//! | `GET /api/game/ID` | the seat view |
//! | `POST /api/game/ID/move` `{"action": "U (1, 0) r1 NNE"}` | the person's move; the seat view, or 400 and nothing changed |
//! | `POST /api/game/ID/step` | one agent action; the seat view |
//! | `POST /api/game/ID/close` | the game ends (the tab closed) |
//! | `GET /api/game/ID/record` | the record, once the game is over |
//! | `POST /api/game/ID/hint` | with `--hints`: the analysing agent's top three moves for the person's decision now ([`super::hints`]) |
//! | `GET /api/game/ID/analysis` | with `--hints`, once the game is over: the person's moves analysed (`{"status": "queued"|"running"|"done"|"failed", …}`; the first ask starts it) |
//!
//! Game ids are 32 hexadecimal digits made by the server; no part of a
//! request ever names a file. Who may ask (Host, Origin, the token) is
//! checked before, by [`super::guard`]; the pages carry the token
//! ([`App::token`]).

use super::session::Session;
use super::{assets, seat_json::seat_json, WebConfig};
use files::error::Error;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Most games at once (each tab holds one).
pub const MAX_GAMES: usize = 64;
/// Largest request body read.
pub const MAX_BODY: usize = 64 * 1024;

/// An answer.
#[derive(Clone, Debug)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Content type.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
    /// A file name to offer the download as.
    pub download: Option<String>,
}

impl Reply {
    fn json(status: u16, value: &Value) -> Reply {
        Reply {
            status,
            content_type: "application/json",
            body: value.to_string().into_bytes(),
            download: None,
        }
    }

    /// A JSON error `{"error": message}`.
    pub fn error(status: u16, message: impl std::fmt::Display) -> Reply {
        Reply::json(status, &json!({ "error": message.to_string() }))
    }

    /// A page or script.
    pub fn text(content_type: &'static str, body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.into(),
            download: None,
        }
    }
}

/// A game and what the page said last.
type Game = Arc<Mutex<Session>>;

/// The server's state: its settings and the games of the open tabs.
pub struct App {
    /// The settings.
    pub config: WebConfig,
    games: Mutex<HashMap<String, Game>>,
    started: AtomicU64,
    token: String,
    watcher: Option<super::watch::Watcher>,
    /// Hints being computed now (at most [`super::hints::MAX_HINTING`]).
    hinting: AtomicUsize,
    /// With `--hints`: the one thread that analyses finished games.
    analyst: Option<super::pool::Pool>,
}

impl App {
    /// A server with no games yet, and a fresh secret token for its pages
    /// ([`super::guard`]).
    ///
    /// # Errors
    /// The operating system gives no random bytes.
    pub fn new(config: WebConfig) -> files::error::Result<App> {
        let analyst = match config.hints {
            Some(_) => Some(super::pool::Pool::new(1, MAX_GAMES)?),
            None => None,
        };
        Ok(App {
            hinting: AtomicUsize::new(0),
            analyst,
            games: Mutex::new(HashMap::new()),
            started: AtomicU64::new(0),
            token: super::guard::new_token()?,
            watcher: config.watch.as_deref().map(super::watch::Watcher::new),
            config,
        })
    }

    /// The secret the page's requests carry.
    pub fn token(&self) -> &str {
        &self.token
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, Game>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Games open now.
    #[cfg(test)]
    pub fn open_games(&self) -> usize {
        self.games().len()
    }

    /// End the games no request has touched for the idle timeout.
    pub fn end_idle(&self) {
        let idle = self.config.idle;
        self.games().retain(|_, game| match game.try_lock() {
            Ok(session) => session.last_used.elapsed() < idle,
            Err(_) => true, // in use now
        });
    }

    /// Answer one request.
    pub fn handle(&self, method: &str, url: &str, body: &[u8]) -> Reply {
        let path = url.split(['?', '#']).next().unwrap_or("");
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        match (method, parts.as_slice()) {
            ("GET", []) => match &self.watcher {
                Some(_) => super::watch::page(&self.token),
                None => Reply::text("text/html; charset=utf-8", assets::page(&self.token)),
            },
            ("GET", ["favicon.ico"]) => Reply::error(404, "no icon"),
            ("GET", ["watch", rest @ ..]) => match &self.watcher {
                Some(watcher) => watcher.handle(rest),
                None => Reply::error(404, "not watching a tournament (start with --watch DIR)"),
            },
            ("POST", ["api", "new"]) => self.new_game(body),
            ("GET", ["api", "game", id]) => self.with_game(id, |s, id| Ok(seat_json(s, id))),
            ("POST", ["api", "game", id, "move"]) => {
                let action = match parse_body(body).and_then(|v| {
                    v.get("action")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .ok_or(BadBody::NoAction)
                }) {
                    Ok(a) => a,
                    Err(e) => return Reply::error(400, e),
                };
                self.with_game(id, |s, id| {
                    s.person_moves(&action)?;
                    Ok(seat_json(s, id))
                })
            }
            ("POST", ["api", "game", id, "step"]) => self.with_game(id, |s, id| {
                s.step()?;
                Ok(seat_json(s, id))
            }),
            ("POST", ["api", "game", id, "close"]) => match self.games().remove(*id) {
                Some(_) => Reply::json(200, &json!({ "closed": id })),
                None => Reply::error(404, format!("no game {id}")),
            },
            ("GET", ["api", "game", id, "record"]) => self.record(id),
            ("POST", ["api", "game", id, "hint"]) => self.hint(id),
            ("GET", ["api", "game", id, "analysis"]) => self.post_game(id),
            (_, ["api", ..]) | (_, ["watch", ..]) => {
                Reply::error(405, format!("{method} {path}: no such request"))
            }
            _ => Reply::error(404, format!("{path}: no such page")),
        }
    }

    /// A game by its id (tests look behind the view with it).
    #[cfg(test)]
    pub(crate) fn session_for_tests(&self, id: &str) -> Option<Game> {
        self.game(id)
    }

    fn game(&self, id: &str) -> Option<Game> {
        self.games().get(id).cloned()
    }

    fn with_game(
        &self,
        id: &str,
        f: impl FnOnce(&mut Session, &str) -> files::error::Result<Value>,
    ) -> Reply {
        let Some(game) = self.game(id) else {
            return Reply::error(404, format!("no game {id} (closed, or idle too long)"));
        };
        let mut session = game.lock().unwrap_or_else(|e| e.into_inner());
        session.last_used = Instant::now();
        match f(&mut session, id) {
            Ok(v) => Reply::json(200, &v),
            Err(Error::Invalid(e)) => Reply::error(400, e),
            Err(e) => Reply::error(500, e),
        }
    }

    fn new_game(&self, body: &[u8]) -> Reply {
        let request = if body.iter().all(u8::is_ascii_whitespace) {
            json!({})
        } else {
            match parse_body(body) {
                Ok(v) => v,
                Err(e) => return Reply::error(400, e),
            }
        };
        let mode = request.get("mode").and_then(Value::as_str).unwrap_or("new");
        let after = request.get("after").and_then(Value::as_str);
        let previous = after.and_then(|id| {
            let game = self.game(id)?;
            let s = game.lock().unwrap_or_else(|e| e.into_inner());
            Some((s.seed, s.person.index()))
        });
        let n = self.started.fetch_add(1, Ordering::Relaxed);
        let fresh_seed = match self.config.seed {
            Some(seed) => seed.wrapping_add(n),
            None => match super::guard::random_seed() {
                Ok(seed) => seed,
                Err(e) => return Reply::error(500, e),
            },
        };
        let players = self.config.players;
        let (seed, person) = match (mode, previous) {
            ("new", p) => (fresh_seed, p.map_or(0, |p| p.1)),
            ("same", Some((seed, person))) => (seed, person),
            ("swap", Some((seed, person))) => (seed, (person + 1) % players),
            ("same" | "swap", None) => {
                return Reply::error(
                    400,
                    format!("mode {mode}: give the game it follows as \"after\""),
                )
            }
            (other, _) => {
                return Reply::error(400, format!("mode {other:?}: give new, same or swap"))
            }
        };
        if let Some(id) = after {
            self.games().remove(id);
        }
        if self.games().len() >= MAX_GAMES {
            return Reply::error(503, format!("{MAX_GAMES} games are open: close a tab"));
        }
        let session = match Session::new(
            &self.config.agents,
            players,
            self.config.rules,
            seed,
            person,
            &self.config.out,
            self.config.hints.is_some(),
        ) {
            Ok(s) => s,
            Err(e) => return Reply::error(500, e),
        };
        let id = format!("{:032x}", rand::random::<u128>());
        let value = seat_json(&session, &id);
        self.games()
            .insert(id.clone(), Arc::new(Mutex::new(session)));
        Reply::json(200, &value)
    }

    /// A hint for the person's decision now: the one already shown, or
    /// a new one if fewer than [`super::hints::MAX_HINTING`] are being
    /// computed (else 503: ask again).
    fn hint(&self, id: &str) -> Reply {
        let Some(factory) = &self.config.hints else {
            return Reply::error(404, "hints are off (start the server with --hints)");
        };
        let Some(game) = self.game(id) else {
            return Reply::error(404, format!("no game {id} (closed, or idle too long)"));
        };
        let mut session = game.lock().unwrap_or_else(|e| e.into_inner());
        session.last_used = Instant::now();
        if let Some(shown) = session.shown_hint().filter(|_| session.persons_turn()) {
            return Reply::json(200, shown);
        }
        if self.hinting.fetch_add(1, Ordering::SeqCst) >= super::hints::MAX_HINTING {
            self.hinting.fetch_sub(1, Ordering::SeqCst);
            return Reply::error(503, "other hints are being computed: ask again");
        }
        let found = session.hint(factory);
        self.hinting.fetch_sub(1, Ordering::SeqCst);
        match found {
            Ok(v) => Reply::json(200, &v),
            Err(Error::Invalid(e)) => Reply::error(400, e),
            Err(e) => Reply::error(500, e),
        }
    }

    /// The person's moves analysed, once the game is over: queued on the
    /// analysis thread at the first ask, then its progress or result.
    fn post_game(&self, id: &str) -> Reply {
        let (Some(factory), Some(analyst)) = (&self.config.hints, &self.analyst) else {
            return Reply::error(404, "hints are off (start the server with --hints)");
        };
        let Some(game) = self.game(id) else {
            return Reply::error(404, format!("no game {id} (closed, or idle too long)"));
        };
        let mut session = game.lock().unwrap_or_else(|e| e.into_inner());
        session.last_used = Instant::now();
        let Some(record) = session.finished.clone() else {
            return Reply::error(409, "the game is not over");
        };
        let slot = match &session.post_game {
            Some(slot) => slot.clone(),
            None => {
                use super::hints::{post_game_job, PostGame};
                let slot = Arc::new(Mutex::new(PostGame::Queued));
                let job = post_game_job(
                    record,
                    session.person,
                    factory.clone(),
                    session.saved.clone(),
                    slot.clone(),
                );
                if analyst.submit(Box::new(job)).is_err() {
                    return Reply::error(503, "too many games wait for analysis: ask again");
                }
                session.post_game = Some(slot.clone());
                slot
            }
        };
        let state = slot.lock().unwrap_or_else(|e| e.into_inner()).clone();
        Reply::json(200, &super::hints::post_game_status(&state))
    }

    fn record(&self, id: &str) -> Reply {
        let Some(game) = self.game(id) else {
            return Reply::error(404, format!("no game {id}"));
        };
        let session = game.lock().unwrap_or_else(|e| e.into_inner());
        let Some(record) = &session.finished else {
            return Reply::error(409, "the game is not over: its record is hidden until then");
        };
        let mut body = serde_json::to_vec(record).unwrap_or_default();
        body.push(b'\n');
        let name = session
            .saved
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or_else(
                || "game.json".to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
        Reply {
            status: 200,
            content_type: "application/json",
            body,
            download: Some(name),
        }
    }
}

/// Why a request body was refused (answered with 400 and this line).
#[derive(Debug)]
enum BadBody {
    /// Not JSON.
    Json(serde_json::Error),
    /// JSON, but not an object.
    NotAnObject,
    /// A move request without its `action`.
    NoAction,
}

impl std::fmt::Display for BadBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BadBody::Json(e) => write!(f, "malformed JSON: {e}"),
            BadBody::NotAnObject => f.write_str("malformed request: give a JSON object"),
            BadBody::NoAction => f.write_str("give the move as {\"action\": \"…\"}"),
        }
    }
}

/// A request body as a JSON object.
fn parse_body(body: &[u8]) -> Result<Value, BadBody> {
    let value: Value = serde_json::from_slice(body).map_err(BadBody::Json)?;
    if !value.is_object() {
        return Err(BadBody::NotAnObject);
    }
    Ok(value)
}
