//! Talking protocol v1 to any [`Board`]: requests, final replies, errors.

use std::fmt;
use std::io;
use std::time::Duration;

use crate::board::{Board, HostBoard, SerialBoard};
use crate::reply::{BestMove, ReplyLine};
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
}

impl GoRequest {
    /// The request line.
    pub fn line(&self) -> String {
        let mut s = format!("go {}", self.game);
        for (key, value, default) in [
            ("depth", u64::from(self.depth), 0),
            ("nodes", self.nodes, 0),
            ("movetime", u64::from(self.movetime_ms), 0),
            ("level", u64::from(self.level), 0),
            ("seed", self.seed, 0),
        ] {
            if value != default {
                s.push_str(&format!(" {key}={value}"));
            }
        }
        if self.info {
            s.push_str(" info=1");
        }
        s.push_str(" pos ");
        s.push_str(&self.position);
        s
    }
}

/// Why a request failed.
#[derive(Debug)]
pub enum EngineError {
    /// The board went away (unplugged, QEMU ended, thread ended).
    Gone(io::Error),
    /// No final reply within the time allowed.
    Timeout(Duration),
    /// The board answered `error <code> <message>`.
    Refused {
        /// Error code.
        code: String,
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
            Self::Refused { code, message } => write!(f, "board refused: {code} {message}"),
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

/// A protocol v1 conversation with one board.
pub struct EngineLink {
    board: Box<dyn Board>,
}

impl EngineLink {
    /// Wraps an open board.
    pub fn new(board: Box<dyn Board>) -> Self {
        Self { board }
    }

    /// Opens a board by name: `host` (the in-process engine in the host profile),
    /// `host-board` (the in-process engine in the board profile, as the reference
    /// board runs it), `sim` (QEMU started here), or a serial port path.
    pub fn open(spec: &str) -> io::Result<Self> {
        let board: Box<dyn Board> = match spec {
            "host" => Box::new(HostBoard::new()),
            "host-board" => Box::new(HostBoard::reference_board()),
            "sim" => Box::new(SimBoard::start()?),
            path => {
                let mut b = SerialBoard::open(path)?;
                b.handshake(Duration::from_secs(5))?;
                Box::new(b)
            }
        };
        Ok(Self::new(board))
    }

    /// The underlying board.
    pub fn board(&mut self) -> &mut dyn Board {
        self.board.as_mut()
    }

    /// What the board is.
    pub fn describe(&self) -> String {
        self.board.describe()
    }

    /// Sends a line and collects replies up to the first line that is not `info`.
    /// `info` lines are passed to `on_info` and included in the returned transcript.
    pub fn exchange(
        &mut self,
        line: &str,
        timeout: Duration,
        on_info: &mut dyn FnMut(&ReplyLine),
    ) -> Result<Vec<ReplyLine>, EngineError> {
        self.board.send_line(line)?;
        self.collect(timeout, on_info)
    }

    /// Collects replies up to the first final (non-`info`) line.
    pub fn collect(
        &mut self,
        timeout: Duration,
        on_info: &mut dyn FnMut(&ReplyLine),
    ) -> Result<Vec<ReplyLine>, EngineError> {
        let mut lines = Vec::new();
        loop {
            let Some(text) = self.board.recv_line(timeout)? else {
                return Err(EngineError::Timeout(timeout));
            };
            let reply = ReplyLine::parse(&text);
            let done = reply.kind != "info";
            if !done {
                on_info(&reply);
            }
            lines.push(reply);
            if done {
                return Ok(lines);
            }
        }
    }

    /// `hello`: the board's identity line.
    pub fn hello(&mut self) -> Result<ReplyLine, EngineError> {
        let mut lines = self.exchange("hello", Duration::from_secs(5), &mut |_| {})?;
        let last = lines
            .pop()
            .ok_or_else(|| EngineError::Protocol(String::new()))?;
        if last.kind == "hello" {
            Ok(last)
        } else {
            Err(Self::refusal(last))
        }
    }

    /// Runs a search; `on_info` sees each completed iteration.
    pub fn go(
        &mut self,
        request: &GoRequest,
        on_info: &mut dyn FnMut(&BestMove),
    ) -> Result<BestMove, EngineError> {
        let timeout = if request.movetime_ms > 0 {
            Duration::from_millis(u64::from(request.movetime_ms) * 20 + 5_000)
        } else {
            DEFAULT_TIMEOUT
        };
        let mut lines = self.exchange(&request.line(), timeout, &mut |l| {
            if let Some(b) = BestMove::from_line(l) {
                on_info(&b)
            }
        })?;
        let last = lines
            .pop()
            .ok_or_else(|| EngineError::Protocol(String::new()))?;
        BestMove::from_line(&last)
            .filter(|_| last.kind == "bestmove")
            .ok_or_else(|| Self::refusal(last))
    }

    fn refusal(line: ReplyLine) -> EngineError {
        match line.error() {
            Some((code, message)) => EngineError::Refused {
                code: code.to_string(),
                message,
            },
            None => EngineError::Protocol(line.raw),
        }
    }
}

/// Standard input's lines, read by a thread so an engine loop can watch for `stop`
/// while a board searches (`sente engine …`).
pub fn stdin_lines() -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in io::stdin().lock().lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}
