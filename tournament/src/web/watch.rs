//! `carcassonne web --watch DIR`: a tournament folder, live.
//!
//! The page polls `/watch/status` every two seconds; the server reads the
//! folder's `run.json` and what was appended to `games.csv` and
//! `records.jsonl` since the last poll (a [`Watcher`] keeps their byte
//! offsets, the rows parsed so far and the number of records), then
//! recomputes the table, the pairwise results and Elo from the rows (the
//! same [`tournament::results::summary::summarize`] that writes
//! `summary.csv` at the end). A file that shrank or was replaced is read
//! again from its start. One poll reads at most [`READ_PER_POLL`] bytes
//! of each file, a megabyte at a time, so a huge file is caught up over
//! several polls, and memory holds the parsed rows (at most
//! [`MAX_ROWS`]), never a file.
//!
//! `/watch/game/N` shows record N of `records.jsonl` in the replay viewer:
//! read by streaming from the nearest of the offsets kept every
//! [`STRIDE`] records, one line at a time (at most [`MAX_RECORD`] bytes).
//! Only those three files of the folder given on the command line are
//! read; a request names a number, never a file.

use super::assets;
use super::routes::Reply;
use files::error::{Error, Result};
use serde_json::{json, Value};
use std::fs::File;
use std::io::{BufRead as _, BufReader, Read as _, Seek as _, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tournament::results::schema::GameRow;

const WATCH_PAGE: &str = include_str!("watch.html");
const WATCH_SCRIPT: &str = include_str!("watch.js");

/// The number of the first game in links and requests: 0, as in the
/// `game` column of `games.csv` and `render --game`.
pub const FIRST_GAME: usize = 0;
/// Bytes of each file read by one poll at most (a file larger than that
/// is caught up over several polls).
pub const READ_PER_POLL: usize = 256 << 20;
/// Bytes held at once while reading.
const CHUNK: usize = 1 << 20;
/// Longest line of `games.csv` taken.
pub const MAX_ROW: usize = 64 * 1024;
/// Rows of `games.csv` kept (two to six per game); past them the table
/// stops growing and says so.
pub const MAX_ROWS: usize = 2_000_000;
/// Longest record read.
pub const MAX_RECORD: usize = 16 << 20;
/// Records between two kept offsets of `records.jsonl`.
pub const STRIDE: usize = 256;

/// The watch page (carrying the server's `token`).
pub fn page(token: &str) -> Reply {
    let html = WATCH_PAGE
        .replace(
            "/*STYLE*/",
            &format!("{}\n{}", assets::STYLE, assets::WEB_STYLE),
        )
        .replace("/*SCRIPT*/", WATCH_SCRIPT);
    Reply::text("text/html; charset=utf-8", assets::with_token(&html, token))
}

/// A tournament folder followed poll by poll.
pub struct Watcher {
    dir: PathBuf,
    tail: Mutex<Tail>,
}

/// What was read of the two growing files.
#[derive(Default)]
struct Tail {
    games: Follow,
    /// The header line of games.csv.
    header: Option<csv::StringRecord>,
    /// Complete lines of games.csv read (the header included).
    lines: usize,
    rows: Vec<GameRow>,
    /// Rows past [`MAX_ROWS`] not kept.
    dropped: usize,
    records: Follow,
    /// Complete non-blank lines of records.jsonl.
    count: usize,
    /// Offset of record `k * STRIDE` (0-based), for every such record
    /// begun.
    marks: Vec<u64>,
    /// Offset where the line being read began, and whether it holds more
    /// than blanks yet.
    line_start: u64,
    line_filled: bool,
}

/// A file read up to `offset`, known by device and inode.
#[derive(Default)]
struct Follow {
    offset: u64,
    id: Option<(u64, u64)>,
    /// A line begun but not ended (games.csv only).
    partial: Vec<u8>,
}

impl Follow {
    /// Open `path` where it was left; `None` when it does not exist.
    /// `true` with it when the file shrank or was replaced (read again
    /// from its start: the caller forgets what it made of it).
    fn open(&mut self, path: &Path) -> Result<Option<(File, bool)>> {
        let mut file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                *self = Follow::default();
                return Ok(None);
            }
            Err(e) => return Err(Error::io("read", path, e)),
        };
        let meta = file.metadata().map_err(|e| Error::io("read", path, e))?;
        if !meta.is_file() {
            return Err(Error::content(path, None, "not a regular file"));
        }
        use std::os::unix::fs::MetadataExt as _;
        let id = Some((meta.dev(), meta.ino()));
        let restart = self.id.is_some() && (self.id != id || meta.len() < self.offset);
        if restart {
            *self = Follow::default();
        }
        self.id = id;
        file.seek(SeekFrom::Start(self.offset))
            .map_err(|e| Error::io("read", path, e))?;
        Ok(Some((file, restart)))
    }
}

impl Watcher {
    /// Follow `dir` (nothing is read before the first poll).
    pub fn new(dir: &Path) -> Watcher {
        Watcher {
            dir: dir.to_path_buf(),
            tail: Mutex::new(Tail::default()),
        }
    }

    fn tail(&self) -> std::sync::MutexGuard<'_, Tail> {
        self.tail.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `/watch/…` requests.
    pub fn handle(&self, rest: &[&str]) -> Reply {
        match rest {
            ["status"] => match self.status() {
                Ok(v) => Reply::text("application/json", v.to_string()),
                Err(e) => Reply::error(500, e),
            },
            ["game", n] => match n
                .parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(FIRST_GAME))
            {
                Some(index) => self.game(index),
                None => Reply::error(
                    400,
                    format!("game {n:?}: give a game number from {FIRST_GAME}"),
                ),
            },
            _ => Reply::error(404, "no such page"),
        }
    }

    /// Progress, table and pairwise results of the folder now.
    ///
    /// # Errors
    /// run.json cannot be read; games.csv or records.jsonl cannot be read
    /// or holds a bad row.
    pub fn status(&self) -> Result<Value> {
        let info = tournament::results::output::read_run_info(&self.dir)?;
        let mut tail = self.tail();
        tail.read_games(&self.dir.join("games.csv"))?;
        tail.read_records(&self.dir.join("records.jsonl"))?;
        let labels = info.plan.agents.clone();
        let (summary, pairwise) = tournament::results::summary::summarize(&labels, &tail.rows);
        let games = tournament::results::summary::games(&tail.rows).count();
        Ok(json!({
            "name": info.settings.name,
            "status": format!("{:?}", info.status).to_lowercase(),
            "planned": info.plan.games_planned,
            "games": games,
            "records": tail.count,
            "first": FIRST_GAME,
            "players": info.settings.players,
            "rules": info.settings.rules.to_string(),
            "summary": summary,
            "pairwise": pairwise,
            "truncated": (tail.dropped > 0).then(|| format!(
                "the table holds the first {MAX_ROWS} rows of games.csv ({} more not counted)",
                tail.dropped
            )),
        }))
    }

    /// Record `index` (0-based) in the replay viewer.
    fn game(&self, index: usize) -> Reply {
        let path = self.dir.join("records.jsonl");
        let found = {
            let mut tail = self.tail();
            if let Err(e) = tail.read_records(&path) {
                return Reply::error(500, e);
            }
            if index >= tail.count {
                return Reply::error(
                    404,
                    format!(
                        "no game {} (records.jsonl holds {} so far)",
                        index + FIRST_GAME,
                        tail.count
                    ),
                );
            }
            let mark = index / STRIDE;
            tail.marks.get(mark).map(|&offset| (offset, mark * STRIDE))
        };
        let Some((offset, first)) = found else {
            return Reply::error(500, "records.jsonl: lost its place");
        };
        let record = match read_record(&path, offset, index - first) {
            Ok(r) => r,
            Err(e) => return Reply::error(404, e),
        };
        let history = match pictures::render::history::History::new(&record) {
            Ok(h) => h,
            Err(e) => return Reply::error(404, Error::content(&path, None, e)),
        };
        match pictures::viewer::page(&history) {
            Ok(page) => Reply::text("text/html; charset=utf-8", page),
            Err(e) => Reply::error(500, e),
        }
    }
}

impl Tail {
    /// Parse the complete lines appended to games.csv.
    fn read_games(&mut self, path: &Path) -> Result<()> {
        let Some((file, restart)) = self.games.open(path)? else {
            self.forget_games();
            return Ok(());
        };
        if restart {
            self.forget_games();
        }
        let mut reader = file.take(READ_PER_POLL as u64);
        loop {
            let mut lines = std::mem::take(&mut self.games.partial);
            let before = lines.len();
            let read = (&mut reader)
                .take(CHUNK as u64)
                .read_to_end(&mut lines)
                .map_err(|e| Error::io("read", path, e))?;
            if read == 0 {
                self.games.partial = lines;
                return Ok(());
            }
            self.games.offset += read as u64;
            let end = lines[before..]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| before + i + 1);
            self.games.partial = lines.split_off(end);
            let parsed = self.parse_rows(path, &lines);
            if parsed.is_err() || self.games.partial.len() > MAX_ROW {
                // Read again from the start at the next poll (and say so
                // again), rather than go on past a bad row or hold a line
                // that never ends.
                let line = self.lines + 1;
                self.games = Follow::default();
                self.forget_games();
                parsed?;
                return Err(Error::content(
                    path,
                    Some(line),
                    format!("a line longer than {MAX_ROW} bytes"),
                ));
            }
        }
    }

    /// Parse complete lines of games.csv (the first one read is the
    /// header).
    fn parse_rows(&mut self, path: &Path, lines: &[u8]) -> Result<()> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(lines);
        for record in reader.records() {
            let line = self.lines + 1;
            let record = record.map_err(|e| Error::content(path, Some(line), e))?;
            self.lines += 1;
            let Some(header) = &self.header else {
                self.header = Some(record);
                continue;
            };
            let row: GameRow = record
                .deserialize(Some(header))
                .map_err(|e| Error::content(path, Some(line), format!("not a game row ({e})")))?;
            if self.rows.len() < MAX_ROWS {
                self.rows.push(row);
            } else {
                self.dropped += 1;
            }
        }
        Ok(())
    }

    fn forget_games(&mut self) {
        self.header = None;
        self.lines = 0;
        self.rows = Vec::new();
        self.dropped = 0;
    }

    /// Count the records appended to records.jsonl, keeping an offset
    /// every [`STRIDE`] records.
    fn read_records(&mut self, path: &Path) -> Result<()> {
        let Some((file, restart)) = self.records.open(path)? else {
            self.forget_records();
            return Ok(());
        };
        if restart {
            self.forget_records();
        }
        let mut reader = file.take(READ_PER_POLL as u64);
        let mut buffer = vec![0u8; CHUNK];
        loop {
            let n = reader
                .read(&mut buffer)
                .map_err(|e| Error::io("read", path, e))?;
            if n == 0 {
                return Ok(());
            }
            for (i, &byte) in buffer[..n].iter().enumerate() {
                let at = self.records.offset + i as u64;
                if byte == b'\n' {
                    self.count += usize::from(self.line_filled);
                    self.line_filled = false;
                    self.line_start = at + 1;
                } else if !self.line_filled && !byte.is_ascii_whitespace() {
                    self.line_filled = true;
                    if self.count % STRIDE == 0 && self.marks.len() == self.count / STRIDE {
                        self.marks.push(self.line_start);
                    }
                }
            }
            self.records.offset += n as u64;
        }
    }

    fn forget_records(&mut self) {
        self.count = 0;
        self.marks = Vec::new();
        self.line_start = 0;
        self.line_filled = false;
    }
}

/// The `skip`-th non-blank line from `offset` of `path`, as a record
/// (the lines before it are passed over a buffer at a time).
fn read_record(path: &Path, offset: u64, skip: usize) -> Result<engine::Record> {
    let gone = || Error::content(path, None, "the record is gone (the file shrank)");
    let io = |e| Error::io("read", path, e);
    let mut file = File::open(path).map_err(io)?;
    file.seek(SeekFrom::Start(offset)).map_err(io)?;
    let mut reader = BufReader::with_capacity(64 * 1024, file);
    let mut seen = 0;
    while seen < skip {
        match skip_line(&mut reader).map_err(io)? {
            None => return Err(gone()),
            Some(filled) => seen += usize::from(filled),
        }
    }
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = (&mut reader)
            .take(MAX_RECORD as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(io)?;
        if n == 0 {
            return Err(gone());
        }
        if line.len() > MAX_RECORD {
            let what = format!("a record longer than {MAX_RECORD} bytes");
            return Err(Error::content(path, None, what));
        }
        if !line.iter().all(u8::is_ascii_whitespace) {
            return serde_json::from_slice(&line)
                .map_err(|e| Error::content(path, None, format!("bad record: {e}")));
        }
    }
}

/// Pass one line: `Some(whether it held more than blanks)`, `None` at the
/// end of the file.
fn skip_line(reader: &mut impl std::io::BufRead) -> std::io::Result<Option<bool>> {
    let mut filled = false;
    let mut any = false;
    loop {
        let buffer = reader.fill_buf()?;
        if buffer.is_empty() {
            return Ok(any.then_some(filled));
        }
        any = true;
        let end = buffer.iter().position(|&b| b == b'\n');
        let part = &buffer[..end.unwrap_or(buffer.len())];
        filled |= part.iter().any(|b| !b.is_ascii_whitespace());
        let used = end.map_or(buffer.len(), |i| i + 1);
        reader.consume(used);
        if end.is_some() {
            return Ok(Some(filled));
        }
    }
}
