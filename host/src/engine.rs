//! The engine link: protocol v1 to any Sente board (the host engine, the simulated
//! board, a board on a serial port), with one cancellable `go`.
//!
//! Requests and replies are the firmware's own typed messages
//! ([`sente_firmware::protocol`]): the host prints [`Request`]s and parses [`Reply`]s,
//! never hand-built strings. Every request carries an `id=N` the board echoes on
//! each line of its reply, so a late line of an earlier request (a `bestmove` that
//! crossed a `stop`) is recognised and dropped, never taken for the answer.
//!
//! A board that is lost (unplugged, QEMU ended, a fault reported on the line) is
//! reopened and the request sent again: the protocol is stateless, so nothing is lost.

use std::fmt;
use std::io;
use std::time::{Duration, Instant};

use sente_firmware::engine::{EngineRequest, RootMoves};
use sente_firmware::protocol::{Command, ErrorCode, Reply, ReplyKind, Request, RequestId};
use sente_firmware::search::Limits;

use crate::board::{Board, HostBoard, SerialBoard};
use crate::reply::{BestMove, BoardInfo};
use crate::sim::SimBoard;

/// One `go` request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoRequest {
    /// Game name on the wire (`ttt`, …).
    pub game: String,
    /// Position in the game's text form.
    pub position: String,
    /// Depth limit (0 = none).
    pub depth: u8,
    /// Node limit (0 = none).
    pub nodes: u64,
    /// Time limit in milliseconds of board time (0 = none).
    pub movetime_ms: u32,
    /// Engine level (0 = default).
    pub level: u8,
    /// Seed for randomness.
    pub seed: u64,
    /// Ask for streamed `info` lines.
    pub info: bool,
    /// The root moves the engine may play (`exclude=` / `only=`, comma-separated).
    pub roots: RootMoves<String>,
}

impl GoRequest {
    /// The typed request, tagged with `id`.
    pub fn request(&self, id: Option<RequestId>) -> Request<'_> {
        Request {
            id,
            command: Command::Go {
                game: &self.game,
                request: EngineRequest {
                    position: &self.position,
                    limits: Limits {
                        depth: self.depth,
                        nodes: self.nodes,
                        ticks: 0,
                    },
                    level: self.level,
                    seed: self.seed,
                    roots: self.roots.as_deref(),
                },
                movetime_ms: self.movetime_ms,
                info: self.info,
            },
        }
    }

    /// The request line without an id (what a person would type).
    pub fn line(&self) -> String {
        self.request(None).to_string()
    }

    /// How long to wait for the answer: the time limit with room for a slow board,
    /// or [`DEFAULT_TIMEOUT`].
    pub fn timeout(&self) -> Duration {
        if self.movetime_ms > 0 {
            Duration::from_millis(u64::from(self.movetime_ms) * 20) + Duration::from_secs(5)
        } else {
            DEFAULT_TIMEOUT
        }
    }
}

/// Every legal root move but `moves` (`exclude=`; every move when none is given).
pub fn all_but<S: AsRef<str>>(moves: &[S]) -> RootMoves<String> {
    if moves.is_empty() {
        RootMoves::All
    } else {
        RootMoves::Except(join(moves))
    }
}

/// Only `moves` (`only=`).
pub fn only<S: AsRef<str>>(moves: &[S]) -> RootMoves<String> {
    RootMoves::Only(join(moves))
}

fn join<S: AsRef<str>>(moves: &[S]) -> String {
    moves
        .iter()
        .map(AsRef::as_ref)
        .collect::<Vec<_>>()
        .join(",")
}

/// Bytes of the longest `go <game> … pos ` head a host sends (every option at its
/// widest, an id included): a position of at most `MAX_LINE` minus this fits every
/// request.
pub fn longest_head(game: &str) -> usize {
    let widest = GoRequest {
        game: game.into(),
        position: String::new(),
        depth: u8::MAX,
        nodes: u64::MAX,
        movetime_ms: u32::MAX,
        level: u8::MAX,
        seed: u64::MAX,
        info: true,
        roots: RootMoves::All,
    };
    widest.request(Some(RequestId(u32::MAX))).to_string().len()
}

/// Why a request failed.
#[derive(Debug)]
pub enum EngineError {
    /// The board went away (unplugged, QEMU ended, thread ended) and could not be reopened.
    Gone(io::Error),
    /// No final reply within the time allowed.
    Timeout(Duration),
    /// The board answered `error <code> <message>`.
    Refused {
        /// Error code.
        code: ErrorCode,
        /// Message.
        message: String,
    },
    /// The board said something this host does not understand.
    Protocol(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Gone(e) => write!(f, "{e}"),
            Self::Timeout(d) => write!(f, "no answer within {d:?}"),
            Self::Refused { code, message } => {
                write!(f, "board refused: {} {message}", code.as_str())
            }
            Self::Protocol(line) => write!(f, "unexpected reply: {line}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<io::Error> for EngineError {
    fn from(e: io::Error) -> Self {
        Self::Gone(e)
    }
}

/// How long to wait for a final reply when the request itself has no time limit.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// How often a waiting link asks its [`Watch`] whether to stop.
const WATCH_INTERVAL: Duration = Duration::from_millis(2);

/// How many times a lost board is reopened for one request.
const RECONNECTS: u32 = 2;

/// What a caller hears, and can say, while a request runs.
pub trait Watch {
    /// A completed iteration (`info` line).
    fn info(&mut self, info: &BestMove) {
        let _ = info;
    }
    /// Asked every few milliseconds while waiting: `true` stops the search (its
    /// answer, the best move so far, is still awaited and returned).
    fn stop(&mut self) -> bool {
        false
    }
}

/// A [`Watch`] that ignores everything.
pub struct Quiet;
impl Watch for Quiet {}

/// A [`Watch`] that passes `info` lines to a closure.
pub struct OnInfo<F: FnMut(&BestMove)>(pub F);
impl<F: FnMut(&BestMove)> Watch for OnInfo<F> {
    fn info(&mut self, info: &BestMove) {
        (self.0)(info);
    }
}

/// How a link was opened, so a lost board can be opened again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// The in-process engine in the host profile with an arena of this many MB.
    Host(usize),
    /// The in-process engine in the board profile (the reference board's arena).
    HostBoard,
    /// A simulated board (its firmware in its simulator), started here: the board's
    /// name (`sim` alone: the default board, the micro:bit v1).
    Sim(String),
    /// A board on this serial port.
    Serial(String),
}

impl Spec {
    /// Reads `host`, `host-board`, `sim`, `sim:BOARD` or a serial port path.
    pub fn parse(text: &str) -> Self {
        match text {
            "host" => Self::Host(crate::board::DEFAULT_HASH_MB),
            "host-board" => Self::HostBoard,
            "sim" => Self::Sim(crate::boards::DEFAULT.name.to_string()),
            _ => match text.strip_prefix("sim:") {
                Some(board) => Self::Sim(board.to_string()),
                None => Self::Serial(text.to_string()),
            },
        }
    }

    /// Opens the board.
    pub fn open(&self) -> io::Result<Box<dyn Board>> {
        Ok(match self {
            Self::Host(mb) => Box::new(HostBoard::try_host(*mb)?),
            Self::HostBoard => Box::new(HostBoard::reference_board()),
            Self::Sim(board) => Box::new(SimBoard::start(crate::boards::lookup(board)?)?),
            Self::Serial(path) => {
                let mut b = SerialBoard::open(path)?;
                b.handshake(Duration::from_secs(5))?;
                Box::new(b)
            }
        })
    }
}

/// A protocol v1 conversation with one board.
pub struct EngineLink {
    board: Box<dyn Board>,
    /// How to open the board again (`None`: a board given by the caller, not reopened).
    spec: Option<Spec>,
    next_id: u32,
}

impl EngineLink {
    /// Wraps an open board (which is not reopened if it is lost).
    pub fn new(board: Box<dyn Board>) -> Self {
        Self {
            board,
            spec: None,
            next_id: 1,
        }
    }

    /// Opens a board by name: `host` (the in-process engine in the host profile),
    /// `host-board` (the in-process engine in the board profile, as the reference
    /// board runs it), `sim` or `sim:BOARD` (a simulated board started here), or a
    /// serial port path.
    pub fn open(spec: &str) -> io::Result<Self> {
        Self::open_spec(Spec::parse(spec))
    }

    /// Opens a board from its [`Spec`].
    pub fn open_spec(spec: Spec) -> io::Result<Self> {
        Ok(Self {
            board: spec.open()?,
            spec: Some(spec),
            next_id: 1,
        })
    }

    /// How the board was opened (`None` for a board given by the caller).
    pub fn spec(&self) -> Option<&Spec> {
        self.spec.as_ref()
    }

    /// The underlying board.
    pub fn board(&mut self) -> &mut dyn Board {
        self.board.as_mut()
    }

    /// What the board is.
    pub fn describe(&self) -> String {
        self.board.describe()
    }

    /// Opens the board again after it was lost.
    fn reopen(&mut self) -> io::Result<()> {
        let spec = self.spec.clone().ok_or_else(|| {
            io::Error::new(io::ErrorKind::BrokenPipe, "board gone (not reopened)")
        })?;
        self.board = spec.open()?;
        Ok(())
    }

    /// Sends one line verbatim and collects reply lines up to the first final one
    /// (any line that is not `info`); `on_line` sees each line. For `sente raw` and the
    /// HIL rig, which send requests exactly as written.
    pub fn exchange(
        &mut self,
        line: &str,
        timeout: Duration,
        on_line: &mut dyn FnMut(&str),
    ) -> Result<Vec<String>, EngineError> {
        self.board.send_line(line)?;
        self.collect(timeout, on_line)
    }

    /// Collects reply lines up to the first final one (see [`EngineLink::exchange`]).
    pub fn collect(
        &mut self,
        timeout: Duration,
        on_line: &mut dyn FnMut(&str),
    ) -> Result<Vec<String>, EngineError> {
        let mut lines = Vec::new();
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(text) = self.board.recv_line(left)? else {
                return Err(EngineError::Timeout(timeout));
            };
            on_line(&text);
            let done = Reply::parse(&text).map_or(true, |r| r.kind.is_final());
            lines.push(text);
            if done {
                return Ok(lines);
            }
        }
    }

    /// Sends `command` tagged with a fresh id and returns the final line of its reply
    /// (as text: parse it with [`Reply::parse`]); `info` lines go to `watch`, and lines
    /// of other requests are dropped. A lost board is reopened and the request sent
    /// again (up to `RECONNECTS` times).
    pub fn request(
        &mut self,
        command: Command<'_>,
        timeout: Duration,
        watch: &mut dyn Watch,
    ) -> Result<String, EngineError> {
        let mut attempt = 0;
        loop {
            match self.request_once(command, timeout, watch) {
                Err(EngineError::Gone(e)) if attempt < RECONNECTS && self.spec.is_some() => {
                    attempt += 1;
                    if let Err(again) = self.reopen() {
                        return Err(EngineError::Gone(io::Error::new(
                            e.kind(),
                            format!("{e}; reopening failed: {again}"),
                        )));
                    }
                }
                other => return other,
            }
        }
    }

    fn request_once(
        &mut self,
        command: Command<'_>,
        timeout: Duration,
        watch: &mut dyn Watch,
    ) -> Result<String, EngineError> {
        let id = RequestId(self.next_id);
        self.next_id = self.next_id.wrapping_add(1).max(1);
        let line = Request {
            id: Some(id),
            command,
        }
        .to_string();
        self.board.send_line(&line)?;
        let deadline = Instant::now() + timeout;
        let mut stop_sent = false;
        // The board was busy with an earlier request (one this link gave up on): it is
        // stopped, and this request sent again once that one has answered.
        let mut resend = false;
        loop {
            if !stop_sent && watch.stop() {
                self.board.send_line("stop")?;
                stop_sent = true;
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineError::Timeout(timeout));
            }
            let Some(text) = self.board.recv_line(WATCH_INTERVAL.min(deadline - now))? else {
                continue;
            };
            let Ok(reply) = Reply::parse(&text) else {
                // Noise (a board booting, a person's terminal echo): not an answer.
                continue;
            };
            match (reply.id, reply.kind) {
                (None, ReplyKind::Error(ErrorCode::Busy, _)) => {
                    if !resend {
                        self.board.send_line("stop")?;
                    }
                    resend = true;
                }
                (Some(got), ReplyKind::Error(ErrorCode::Busy, _)) if got == id => {
                    if !resend {
                        self.board.send_line("stop")?;
                    }
                    resend = true;
                }
                // The earlier request's answer (or a `stop` that found the board idle):
                // the board is free now.
                (_, kind) if resend && kind.is_final() => {
                    resend = false;
                    self.board.send_line(&line)?;
                }
                // `stop` crossed an answer on the wire: nothing to do.
                (None, ReplyKind::Error(ErrorCode::Idle, _)) => {}
                // A line the board could not read carries no id: ours is the only
                // line sent, so this is its answer.
                (None, ReplyKind::Error(ErrorCode::TooLong | ErrorCode::BadByte, _)) => {
                    return Ok(text);
                }
                // A fault report: the board restarts, the request is lost with it.
                (None, ReplyKind::Error(ErrorCode::Panic | ErrorCode::HardFault, message)) => {
                    return Err(EngineError::Gone(io::Error::new(
                        io::ErrorKind::ConnectionReset,
                        format!("board restarted: {message}"),
                    )));
                }
                (Some(got), kind) if got == id => match kind {
                    ReplyKind::Info(search) => watch.info(&BestMove::from_search(&search)),
                    _ => return Ok(text),
                },
                // A line of an earlier request (or of none): not this request's answer.
                _ => {}
            }
        }
    }

    /// `hello`: the board's identity.
    pub fn hello(&mut self) -> Result<BoardInfo, EngineError> {
        let text = self.request(Command::Hello, Duration::from_secs(5), &mut Quiet)?;
        let reply = Reply::parse(&text).map_err(|_| EngineError::Protocol(text.clone()))?;
        match reply.kind {
            ReplyKind::Hello(h) => Ok(BoardInfo::from_hello(&h)),
            kind => Err(refusal(kind, &text)),
        }
    }

    /// `perft`: the leaf count of the legal move tree.
    pub fn perft(&mut self, game: &str, depth: u8, position: &str) -> Result<u64, EngineError> {
        let command = Command::Perft {
            game,
            depth,
            position,
        };
        let text = self.request(command, DEFAULT_TIMEOUT, &mut Quiet)?;
        let reply = Reply::parse(&text).map_err(|_| EngineError::Protocol(text.clone()))?;
        match reply.kind {
            ReplyKind::Perft(p) => Ok(p.nodes),
            kind => Err(refusal(kind, &text)),
        }
    }

    /// Runs a search: `watch` sees each completed iteration and may stop it.
    pub fn go(
        &mut self,
        request: &GoRequest,
        watch: &mut dyn Watch,
    ) -> Result<BestMove, EngineError> {
        let text = self.request(request.request(None).command, request.timeout(), watch)?;
        let reply = Reply::parse(&text).map_err(|_| EngineError::Protocol(text.clone()))?;
        match reply.kind {
            ReplyKind::BestMove(search) => Ok(BestMove::from_search(&search)),
            kind => Err(refusal(kind, &text)),
        }
    }
}

/// The error for a final line that is not the answer asked for.
fn refusal(kind: ReplyKind<'_>, text: &str) -> EngineError {
    match kind {
        ReplyKind::Error(code, message) => EngineError::Refused {
            code,
            message: message.to_string(),
        },
        _ => EngineError::Protocol(text.to_string()),
    }
}

/// Standard input's lines, read by a thread so an engine loop can watch for `stop`
/// while a board searches (`sente engine …`). See [`reader_lines`].
pub fn stdin_lines() -> std::sync::mpsc::Receiver<String> {
    reader_lines(io::stdin())
}

/// The lines of `input`, read by a thread. Bytes that are not UTF-8 are replaced
/// (U+FFFD), never the end of input: only end of file or a read error ends it.
pub fn reader_lines<R: io::Read + Send + 'static>(input: R) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut input = io::BufReader::new(input);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf);
                    let line = line.trim_end_matches(['\n', '\r']).to_string();
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_that_are_not_utf8_do_not_end_the_input() {
        let rx = reader_lines(io::Cursor::new(b"uci\n\xff\xfe bad\r\nisready\n".to_vec()));
        let lines: Vec<String> = rx.iter().collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert_eq!(lines[0], "uci");
        assert_eq!(lines[2], "isready");
    }

    #[test]
    fn a_late_answer_of_an_earlier_request_is_not_taken_for_the_next() {
        let mut link = EngineLink::open("host").unwrap();
        let slow = GoRequest {
            game: "ttt".into(),
            position: ".........".into(),
            depth: 9,
            ..GoRequest::default()
        };
        // Start a search and abandon it (as a GUI's `stop` racing `go` would).
        link.board()
            .send_line(&slow.request(Some(RequestId(999))).to_string())
            .unwrap();
        let quick = GoRequest {
            game: "ttt".into(),
            position: "xx./oo./...".into(),
            depth: 1,
            ..GoRequest::default()
        };
        let best = link.go(&quick, &mut Quiet).unwrap();
        assert_eq!(best.best, "c3");
        assert_eq!(best.depth, 1);
    }

    #[test]
    fn a_lost_host_board_is_reopened_and_the_request_sent_again() {
        let mut link = EngineLink::open("host").unwrap();
        // Replace the board with one whose thread has ended.
        let mut dead = HostBoard::host(1);
        dead.close();
        link.board = Box::new(dead);
        let request = GoRequest {
            game: "ttt".into(),
            position: "xx./oo./...".into(),
            ..GoRequest::default()
        };
        assert_eq!(link.go(&request, &mut Quiet).unwrap().best, "c3");
    }

    #[test]
    fn stop_ends_a_search_with_its_best_move_so_far() {
        let mut link = EngineLink::open("host").unwrap();
        let long = GoRequest {
            game: "xiangqi".into(),
            position: "startpos".into(),
            level: 2,
            ..GoRequest::default()
        };
        struct StopAfter(Instant);
        impl Watch for StopAfter {
            fn stop(&mut self) -> bool {
                self.0.elapsed() > Duration::from_millis(50)
            }
        }
        let started = Instant::now();
        let best = link.go(&long, &mut StopAfter(Instant::now())).unwrap();
        assert!(started.elapsed() < Duration::from_secs(30));
        assert_ne!(best.best, "none");
        // The link is in step: the next request gets its own answer.
        let quick = GoRequest {
            game: "ttt".into(),
            position: "xx./oo./...".into(),
            ..GoRequest::default()
        };
        assert_eq!(link.go(&quick, &mut Quiet).unwrap().best, "c3");
    }
}
