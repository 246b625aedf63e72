//! `sente engine xiangqi`: the host engine or a board as a UCI (or UCCI) xiangqi engine.
//!
//! Speaks UCI as Pikafish and Fairy-Stockfish do for xiangqi (`position startpos|fen … moves …`,
//! `go depth|nodes|movetime|wtime/btime/winc/binc/movestogo|infinite|searchmoves|perft N`, `stop`,
//! `bestmove`), and UCCI as ElephantEye does when the first command is `ucci` (`go time T
//! increment I | movestogo N`, `setoption hashsize|usebook …`, `nobestmove`, `bye`). Each `go`
//! becomes one protocol v1 request on the [`EngineLink`], which gets the whole position; `stop`
//! reaches the engine within a few milliseconds.
//!
//! Whatever a GUI sends, the adapter answers and goes on: every `go` gets exactly one
//! `bestmove` for the position it was asked about, bad input gets an `info string`, an
//! illegal move in `position … moves` keeps the legal moves before it, huge numbers
//! saturate, and a lost board is reopened by the link.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

use sente_firmware::engine::{MAX_EXCLUDE, RootMoves};
use sente_firmware::game::{Game, MATE, MATE_BOUND, Notation};
use sente_firmware::games::xiangqi::Xiangqi;
use sente_firmware::games::xiangqi::board::Move;

use crate::board::{DEFAULT_HASH_MB, MAX_HASH_MB};
use crate::engine::{self, EngineLink, GoRequest, Spec, Watch};
use crate::multipv::{self, LineWatch};
use crate::reply::BestMove;
use crate::timeman::{self, Clock};

/// Longest request line the board reads.
const MAX_LINE: usize = sente_firmware::protocol::MAX_LINE;

/// Time kept in reserve for the link and the GUI (UCI's `Move Overhead`, by default):
/// taken off `movetime` and off the clock's share.
const OVERHEAD: Duration = Duration::from_millis(30);
/// Most `Move Overhead` a GUI may set, in milliseconds.
const MAX_OVERHEAD_MS: u64 = 5_000;

/// The legal moves of the game's position, whether or not our rules have
/// ended the game there (a repetition, dead material, the natural-move
/// limit): what a GUI may still play.
fn legal_moves(game: &Xiangqi) -> Vec<Move> {
    let mut buf = [Move::default(); sente_firmware::games::xiangqi::movegen::MAX_MOVES];
    let n = game.clone().legal_moves(&mut buf);
    buf[..n].to_vec()
}

/// The game so far, as the GUI gave it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GamePosition {
    /// `startpos` or a FEN.
    pub root: String,
    /// ICCS moves from the root.
    pub moves: Vec<String>,
}

impl GamePosition {
    /// The start position.
    pub fn start() -> Self {
        Self {
            root: "startpos".into(),
            moves: Vec::new(),
        }
    }

    /// Reads the arguments of `position` (`startpos …` or `fen <fen> …`, then `moves …`).
    /// A bad root is an error; an illegal or unreadable move ends the move list there:
    /// the position keeps the legal moves before it, and the second value says why the
    /// rest was dropped.
    pub fn parse(args: &str) -> Result<(Self, Option<String>), String> {
        let (head, moves): (&str, Vec<String>) = match args.split_once(" moves") {
            Some((h, m)) => (h.trim(), m.split_whitespace().map(str::to_string).collect()),
            None => (
                args.trim().strip_suffix("moves").unwrap_or(args).trim(),
                Vec::new(),
            ),
        };
        let root = if head == "startpos" {
            "startpos".to_string()
        } else if let Some(fen) = head.strip_prefix("fen ") {
            fen.trim().to_string()
        } else {
            return Err(format!("position: expected startpos or fen, got {head:?}"));
        };
        let mut game = Xiangqi::parse_position(&root).map_err(|e| format!("position: {e}"))?;
        let mut kept = Vec::new();
        let mut dropped = None;
        for m in moves {
            // A legal move is played even after what our rules call the end
            // (a repetition, dead material, the natural-move limit): the GUI
            // judges the game, and the position must be the one it plays.
            match game.parse_move(&m) {
                Ok(mv) => {
                    game.make(mv);
                    kept.push(m);
                }
                Err(e) => {
                    dropped = Some(format!("move {m} is not legal here ({e})"));
                    break;
                }
            }
        }
        let dropped = dropped.map(|why| {
            format!(
                "{why}: kept the position after the {} legal moves before it",
                kept.len()
            )
        });
        Ok((Self { root, moves: kept }, dropped))
    }

    /// The library's game after the first `played` moves.
    pub fn game(&self, played: usize) -> Result<Xiangqi, String> {
        let mut game = Xiangqi::parse_position(&self.root).map_err(|e| format!("position: {e}"))?;
        for m in &self.moves[..played.min(self.moves.len())] {
            let mv = game.parse_move(m).map_err(|e| format!("move {m}: {e}"))?;
            game.make(mv);
        }
        Ok(game)
    }

    /// The position text for a request whose line without the position is `head`
    /// bytes long: the root and every move when they fit in a request line, else the
    /// FEN reached earlier plus as many recent moves as fit (the board's repetition
    /// detection sees those).
    pub fn wire_within(&self, head: usize) -> Result<String, String> {
        let all = self.moves.len();
        for recent in (0..=all).rev() {
            let base = if recent == all {
                self.root.clone()
            } else {
                let game = self.game(all - recent)?;
                let mut fen = String::new();
                let _ = game.position().write_fen(&mut fen);
                format!("{fen} - - {} 1", game.quiet())
            };
            let mut text = base;
            if recent > 0 {
                text.push_str(" moves ");
                text.push_str(&self.moves[all - recent..].join(" "));
            }
            if head + text.len() <= MAX_LINE {
                return Ok(text);
            }
        }
        Err("position does not fit a request line".into())
    }

    /// [`GamePosition::wire_within`] for the longest request head a host sends.
    pub fn wire(&self) -> Result<String, String> {
        self.wire_within(longest_head())
    }

    /// Red (0) or black (1) to move.
    pub fn side_to_move(&self) -> Result<u8, String> {
        Ok(self.game(self.moves.len())?.player_to_move())
    }
}

/// Bytes of the longest `go xiangqi … pos ` head a host sends.
pub fn longest_head() -> usize {
    crate::engine::longest_head("xiangqi")
}

/// UCI's score text (`cp 35`, `mate 3`, `mate -2`); UCCI's is the bare number.
pub fn score_text(score: i32, ucci: bool) -> String {
    if ucci {
        score.to_string()
    } else if score.abs() >= MATE_BOUND {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

/// Whether `word` is written as an ICCS move (`h2e2`): how `searchmoves` tells its
/// moves from the words after them.
fn is_iccs(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() == 4
        && (b'a'..=b'i').contains(&b[0])
        && b[1].is_ascii_digit()
        && (b'a'..=b'i').contains(&b[2])
        && b[3].is_ascii_digit()
}

/// The limits of one `go`, UCI's and UCCI's words alike.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoArgs {
    /// `depth N`.
    pub depth: Option<u64>,
    /// `nodes N`.
    pub nodes: Option<u64>,
    /// `movetime MS`.
    pub movetime: Option<u64>,
    /// Red's and black's clocks (`wtime`/`btime`; UCCI's `time` is the mover's).
    pub time: [Option<u64>; 2],
    /// Increments (`winc`/`binc`; UCCI's `increment`).
    pub inc: [Option<u64>; 2],
    /// UCCI's `time`, the mover's clock.
    pub mover_time: Option<u64>,
    /// UCCI's `increment`.
    pub mover_inc: Option<u64>,
    /// `movestogo N`.
    pub moves_to_go: Option<u64>,
    /// `infinite` (or `ponder`): until `stop`.
    pub infinite: bool,
    /// `ponder`: searching on the opponent's time; after `ponderhit` the search goes
    /// on as the limits without `ponder` say.
    pub ponder: bool,
    /// `perft N`.
    pub perft: Option<u64>,
    /// `searchmoves m1 m2 …`: the root moves to choose from (empty: every one).
    pub searchmoves: Vec<String>,
    /// Words not understood.
    pub unknown: Vec<String>,
}

impl GoArgs {
    /// Reads `go`'s arguments; numbers saturate.
    pub fn parse(args: &str) -> Self {
        let mut out = Self::default();
        let mut words = args.split_whitespace().peekable();
        while let Some(word) = words.next() {
            let mut value = || words.next().and_then(timeman::saturating_ms);
            match word {
                "depth" => out.depth = value(),
                "nodes" => out.nodes = value(),
                "movetime" => out.movetime = value(),
                "wtime" => out.time[0] = value(),
                "btime" => out.time[1] = value(),
                "winc" => out.inc[0] = value(),
                "binc" => out.inc[1] = value(),
                "time" => out.mover_time = value(),
                "increment" => out.mover_inc = value(),
                "movestogo" => out.moves_to_go = value(),
                "opptime" | "oppincrement" | "oppmovestogo" | "mate" => {
                    let _ = value();
                }
                "infinite" => out.infinite = true,
                "ponder" => {
                    out.infinite = true;
                    out.ponder = true;
                }
                "draw" => {}
                "perft" => out.perft = value(),
                "searchmoves" => {
                    while let Some(mv) = words.next_if(|w| is_iccs(w)) {
                        out.searchmoves.push(mv.to_string());
                    }
                }
                other => out.unknown.push(other.to_string()),
            }
        }
        out
    }

    /// The mover's clock, if the GUI gave one (`side` 0 = red).
    pub fn clock(&self, side: u8) -> Option<Clock> {
        let s = usize::from(side.min(1));
        let left = self.time[s].or(self.mover_time)?;
        let inc = self.inc[s].or(self.mover_inc).unwrap_or(0);
        Some(Clock {
            left: Duration::from_millis(left),
            increment: Duration::from_millis(inc),
            moves_to_go: self.moves_to_go.map(|n| n.min(u64::from(u32::MAX)) as u32),
            per_move_cap: None,
        })
    }

    /// The move time the engine gets (`None`: no time limit), `overhead` (the link's
    /// and the GUI's latency) kept in reserve so that the answer arrives in time.
    pub fn move_time(&self, side: u8, overhead: Duration) -> Option<Duration> {
        if self.infinite {
            return None;
        }
        if let Some(ms) = self.movetime {
            let asked = Duration::from_millis(ms);
            return Some(asked.saturating_sub(overhead).max(Duration::from_millis(1)));
        }
        self.clock(side).map(|c| timeman::move_time(&c, overhead))
    }
}

/// Whether a `go` has no bound at all (no depth, nodes or time): it runs until `stop`.
fn request_unbounded(args: &GoArgs) -> bool {
    args.depth.is_none() && args.nodes.is_none()
}

/// The engine loop.
pub struct UciEngine<W: Write> {
    link: EngineLink,
    out: W,
    position: GamePosition,
    level: u8,
    use_book: bool,
    ucci: bool,
    /// Time kept in reserve for the link and the GUI (`Move Overhead`).
    overhead: Duration,
    /// UCCI's `banmoves`: moves the engine must not play in this position (the
    /// GUI's repetition rulings), until the next `position`.
    banned: Vec<String>,
    /// `MultiPV`: lines to show (1: the plain search).
    multipv: usize,
    /// Commands that arrived while the board searched, to run after it.
    pending: VecDeque<String>,
    /// `quit` arrived during a search.
    quitting: bool,
}

/// What the GUI hears and may say while a search runs.
struct Searching<'a, W: Write> {
    out: &'a mut W,
    input: &'a Receiver<String>,
    pending: &'a mut VecDeque<String>,
    ucci: bool,
    start: Instant,
    quitting: &'a mut bool,
    /// A search without a limit: only `stop` (or the end of input) ends it.
    infinite: bool,
    /// The input ended (the GUI went away): stop and finish.
    closed: bool,
    /// `stop`, `ponderhit` or `quit` ended the search.
    stopped: bool,
    /// `go ponder`: the move time the search gets, counted from its start, once
    /// `ponderhit` comes (`None`: `ponderhit` ends it at once).
    ponder_time: Option<Duration>,
    /// After `ponderhit`: when the search ends.
    deadline: Option<Instant>,
    /// Nodes of the last `info` line.
    reported_nodes: u64,
}

impl<W: Write> Searching<'_, W> {
    /// Writes `info depth D [multipv K] score … nodes N time … nps … [pv …]` (the
    /// line's pv, or its best move when it has none).
    fn write_info(&mut self, depth: u32, multipv: Option<usize>, nodes: u64, line: &BestMove) {
        self.reported_nodes = nodes;
        let ms = self.start.elapsed().as_millis();
        let nps = (u128::from(nodes) * 1000) / ms.max(1);
        let multipv = multipv.map_or(String::new(), |k| format!(" multipv {k}"));
        let pv = if !line.pv.is_empty() {
            format!(" pv {}", line.pv.join(" "))
        } else if !line.best.is_empty() {
            format!(" pv {}", line.best)
        } else {
            String::new()
        };
        let _ = writeln!(
            self.out,
            "info depth {depth}{multipv} score {} nodes {nodes} time {ms} nps {nps}{pv}",
            score_text(line.score, self.ucci),
        );
        let _ = self.out.flush();
    }

    /// After a search without a limit (`go infinite`, `go ponder`, a bare `go`) that
    /// ended by itself (a book move, a forced mate): UCI sends no `bestmove` before
    /// `stop`, `ponderhit` or `quit`, so wait for one, answering `isready` meanwhile.
    /// Any other command ends the wait and runs after the answer.
    fn hold_answer(&mut self) {
        while self.infinite && !self.stopped && !self.closed {
            if self.stop() || !self.pending.is_empty() {
                return;
            }
            match self.input.recv() {
                Ok(line) => self.pending.push_back(line),
                Err(_) => self.closed = true,
            }
        }
    }
}

impl<W: Write> LineWatch for Searching<'_, W> {
    fn started(&self) -> Instant {
        self.start
    }
    fn ended(&self) -> bool {
        self.stopped || *self.quitting
    }
    fn show(&mut self, depth: u32, k: usize, nodes: u64, line: &BestMove) {
        self.write_info(depth, Some(k), nodes, line);
    }
}

impl<W: Write> Watch for Searching<'_, W> {
    fn info(&mut self, b: &BestMove) {
        self.write_info(b.depth, None, b.nodes, b);
    }

    fn stop(&mut self) -> bool {
        loop {
            match self.input.try_recv() {
                Ok(line) => self.pending.push_back(line),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    self.closed = true;
                    break;
                }
            }
        }
        // The lines that act on this search (`stop`, `ponderhit`, `quit`, `isready`)
        // do so wherever they wait, up to the next `go`: a line of its own (say a
        // `setoption` sent during `go infinite`) must not hide the `stop` behind it.
        // The others, and everything from the next `go` on, run after this search,
        // in order. `quit` ends everything wherever it is.
        if self.pending.iter().any(|c| c.trim() == "quit") {
            *self.quitting = true;
            self.stopped = true;
            return true;
        }
        let mut k = 0;
        while let Some(line) = self.pending.get(k) {
            match line.trim() {
                "isready" => {
                    self.pending.remove(k);
                    let _ = writeln!(self.out, "readyok");
                    let _ = self.out.flush();
                }
                "stop" => {
                    self.pending.remove(k);
                    self.stopped = true;
                    return true;
                }
                // The move pondered on was played: the search goes on as a normal
                // one (its time counted from its start), or ends now without a time.
                "ponderhit" => {
                    self.pending.remove(k);
                    self.infinite = false;
                    match self.ponder_time.take() {
                        Some(time) => self.deadline = Some(self.start + time),
                        None => {
                            self.stopped = true;
                            return true;
                        }
                    }
                }
                l if l == "go" || l.starts_with("go ") => break,
                _ => k += 1,
            }
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
            return true;
        }
        // Without input nobody can send `stop`: a search without a limit ends.
        self.closed && self.infinite
    }
}

impl<W: Write> UciEngine<W> {
    /// An engine over `link`, writing to `out`.
    pub fn new(link: EngineLink, out: W) -> Self {
        Self {
            link,
            out,
            position: GamePosition::start(),
            level: 0,
            use_book: true,
            overhead: OVERHEAD,
            banned: Vec::new(),
            multipv: 1,
            ucci: false,
            pending: VecDeque::new(),
            quitting: false,
        }
    }

    fn say(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    /// Handles commands from `input` until `quit` or its end.
    pub fn run(&mut self, input: Receiver<String>) -> io::Result<()> {
        loop {
            if self.quitting {
                return self.quit();
            }
            let line = match self.pending.pop_front() {
                Some(line) => line,
                None => match input.recv() {
                    Ok(line) => line,
                    Err(_) => return Ok(()),
                },
            };
            if !self.command(line.trim(), &input)? {
                return Ok(());
            }
        }
    }

    fn quit(&mut self) -> io::Result<()> {
        if self.ucci {
            self.say("bye")?;
        }
        Ok(())
    }

    /// One command; `false` after `quit`.
    fn command(&mut self, line: &str, input: &Receiver<String>) -> io::Result<bool> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word {
            "" => {}
            "uci" | "ucci" => {
                self.ucci = word == "ucci";
                let board = self.link.describe();
                self.say(&format!("id name Sente xiangqi ({board})"))?;
                self.say("id author Sente")?;
                if self.ucci {
                    self.say(&format!(
                        "option hashsize type spin min 1 max {MAX_HASH_MB} default {DEFAULT_HASH_MB}"
                    ))?;
                    self.say("option usebook type check default true")?;
                    self.say("option level type spin min 0 max 2 default 0")?;
                    self.say(&format!(
                        "option moveoverhead type spin min 0 max {MAX_OVERHEAD_MS} default {}",
                        OVERHEAD.as_millis()
                    ))?;
                } else {
                    self.say(&format!(
                        "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
                    ))?;
                    self.say("option name Clear Hash type button")?;
                    self.say(&format!(
                        "option name MultiPV type spin default 1 min 1 max {}",
                        multipv::MAX_LINES
                    ))?;
                    self.say("option name Ponder type check default false")?;
                    self.say("option name UseBook type check default true")?;
                    self.say("option name Level type spin default 0 min 0 max 2")?;
                    self.say(&format!(
                        "option name Move Overhead type spin default {} min 0 max {MAX_OVERHEAD_MS}",
                        OVERHEAD.as_millis()
                    ))?;
                }
                self.say(if self.ucci { "ucciok" } else { "uciok" })?;
            }
            "isready" => self.say("readyok")?,
            "ucinewgame" => {
                self.position = GamePosition::start();
                self.clear_hash()?;
            }
            "setoption" => self.set_option(rest)?,
            "position" => match GamePosition::parse(rest) {
                Ok((p, dropped)) => {
                    self.position = p;
                    self.banned.clear();
                    if let Some(why) = dropped {
                        self.say(&format!("info string {why}"))?;
                    }
                }
                Err(e) => self.say(&format!("info string {e}; keeping the previous position"))?,
            },
            "go" => self.go(rest, input)?,
            "banmoves" => self.ban(rest)?,
            "stop" | "ponderhit" | "probe" => {}
            "quit" => {
                self.quit()?;
                return Ok(false);
            }
            _ => self.say(&format!("info string unknown command: {word}"))?,
        }
        Ok(true)
    }

    /// `setoption name <n> value <v>` (UCI) or `setoption <n> <v>` (UCCI).
    fn set_option(&mut self, rest: &str) -> io::Result<()> {
        let (name, value) = match rest.strip_prefix("name ") {
            Some(r) => match r.split_once(" value ") {
                Some((n, v)) => (n.trim(), v.trim()),
                None => (r.trim(), ""),
            },
            None => rest.split_once(' ').unwrap_or((rest, "")),
        };
        let value = value.trim();
        match name.to_ascii_lowercase().as_str() {
            "level" => match value.parse::<u8>() {
                Ok(level) if level <= 2 => self.level = level,
                _ => self.say("info string Level must be 0, 1 or 2")?,
            },
            "usebook" | "ownbook" => match value.to_ascii_lowercase().as_str() {
                "true" | "on" | "1" => self.use_book = true,
                "false" | "off" | "0" => self.use_book = false,
                _ => self.say("info string UseBook must be true or false")?,
            },
            "hash" | "hashsize" => match timeman::saturating_ms(value) {
                Some(mb) => self.set_hash(mb)?,
                None => self.say("info string Hash must be a number of megabytes")?,
            },
            "clear hash" | "clearhash" => self.clear_hash()?,
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=multipv::MAX_LINES).contains(&n) => self.multipv = n,
                _ => self.say(&format!(
                    "info string MultiPV must be 1..{}",
                    multipv::MAX_LINES
                ))?,
            },
            // The engine ponders when the GUI says `go ponder`; the option only tells
            // the GUI that it may.
            "ponder" => match value.to_ascii_lowercase().as_str() {
                "true" | "false" => {}
                _ => self.say("info string Ponder must be true or false")?,
            },
            "move overhead" | "moveoverhead" => match timeman::saturating_ms(value) {
                Some(ms) if ms <= MAX_OVERHEAD_MS => self.overhead = Duration::from_millis(ms),
                _ => self.say(&format!(
                    "info string Move Overhead must be 0..{MAX_OVERHEAD_MS} milliseconds"
                ))?,
            },
            _ => self.say(&format!("info string unknown option: {name}"))?,
        }
        Ok(())
    }

    /// Resizes the host engine's arena (its transposition tables).
    fn set_hash(&mut self, mb: u64) -> io::Result<()> {
        let mb = usize::try_from(mb)
            .unwrap_or(MAX_HASH_MB)
            .clamp(1, MAX_HASH_MB);
        match self.link.spec() {
            Some(Spec::Host(now)) if *now == mb => Ok(()),
            Some(Spec::Host(_)) => match EngineLink::open_spec(Spec::Host(mb)) {
                Ok(link) => {
                    self.link = link;
                    Ok(())
                }
                Err(e) => self.say(&format!("info string cannot resize the hash: {e}")),
            },
            _ => self.say("info string Hash sets the host engine's memory; a board has its own"),
        }
    }

    /// The root moves a search may play: the GUI's `searchmoves` (those legal here,
    /// or every move when none is) less UCCI's banned moves. A list too long for one
    /// request is sent as the moves left out when that is shorter; when neither fits,
    /// an `info string` says so and every move not banned is searched.
    fn root_moves(
        &mut self,
        legal: &[String],
        searchmoves: &[String],
    ) -> io::Result<RootMoves<String>> {
        let banned = engine::all_but(&self.banned);
        if searchmoves.is_empty() {
            return Ok(banned);
        }
        let mut chosen: Vec<&str> = Vec::new();
        for mv in searchmoves {
            if !legal.contains(mv) {
                self.say(&format!("info string searchmoves: {mv} is not legal here"))?;
            } else if banned.allows(mv) && !chosen.contains(&mv.as_str()) {
                chosen.push(mv);
            }
        }
        let left_out: Vec<&str> = legal
            .iter()
            .map(String::as_str)
            .filter(|m| !chosen.contains(m))
            .collect();
        Ok(if chosen.is_empty() {
            self.say("info string searchmoves: no legal move allowed; searching every move")?;
            banned
        } else if left_out.is_empty() {
            RootMoves::All
        } else if chosen.len() <= MAX_EXCLUDE {
            engine::only(&chosen)
        } else if left_out.len() <= MAX_EXCLUDE {
            engine::all_but(&left_out)
        } else {
            self.say(&format!(
                "info string searchmoves: at most {MAX_EXCLUDE} moves, or all but {MAX_EXCLUDE}; searching every move"
            ))?;
            banned
        })
    }

    /// UCCI's `banmoves m1 m2 …`: the engine plays none of them in the current
    /// position (the list replaces an earlier one; a move that is not legal here is
    /// reported and left out).
    fn ban(&mut self, moves: &str) -> io::Result<()> {
        self.banned.clear();
        let game = match self.position.game(self.position.moves.len()) {
            Ok(g) => g,
            Err(e) => return self.say(&format!("info string banmoves: {e}")),
        };
        for text in moves.split_whitespace() {
            if game.parse_move(text).is_err() {
                self.say(&format!("info string banmoves: {text} is not legal here"))?;
            } else if self.banned.len() >= MAX_EXCLUDE {
                self.say(&format!(
                    "info string banmoves: at most {MAX_EXCLUDE} moves; {text} left out"
                ))?;
            } else if !self.banned.iter().any(|b| b == text) {
                self.banned.push(text.to_string());
            }
        }
        Ok(())
    }

    /// Empties the host engine's transposition tables (a fresh arena of the same
    /// size: `Clear Hash`, `ucinewgame`), which its searches limited by the clock
    /// keep between moves; a board keeps its own, which every request starts
    /// afresh anyway.
    fn clear_hash(&mut self) -> io::Result<()> {
        if let Some(Spec::Host(mb)) = self.link.spec() {
            match EngineLink::open_spec(Spec::Host(*mb)) {
                Ok(link) => self.link = link,
                Err(e) => self.say(&format!("info string cannot clear the hash: {e}"))?,
            }
        }
        Ok(())
    }

    /// The level sent to the engine: the GUI's, without the book if it said so or
    /// `book` is false (several lines come from searches: the book has one move).
    fn wire_level(&self, book: bool) -> u8 {
        if !(self.use_book && book) && self.level == 0 {
            2
        } else {
            self.level
        }
    }

    fn no_move(&mut self) -> io::Result<()> {
        self.say(if self.ucci {
            "nobestmove"
        } else {
            "bestmove (none)"
        })
    }

    fn go(&mut self, args: &str, input: &Receiver<String>) -> io::Result<()> {
        let args = GoArgs::parse(args);
        if let Some(depth) = args.perft {
            return self.perft(depth.min(u64::from(u8::MAX)) as u8);
        }
        if !args.unknown.is_empty() {
            self.say(&format!(
                "info string go: ignored {}",
                args.unknown.join(" ")
            ))?;
        }
        let game = match self.position.game(self.position.moves.len()) {
            Ok(g) => g,
            Err(e) => {
                self.say(&format!("info string {e}"))?;
                return self.no_move();
            }
        };
        // Only a position without a legal move has no best move: one that
        // our rules call drawn or decided by repetition still gets a move (a
        // GUI that plays on, by its own rules, needs one), so the position's
        // moves, not the game's (none once the game is over).
        let moves = legal_moves(&game);
        if moves.is_empty() {
            return self.no_move();
        }
        let side = game.player_to_move();
        let movetime = args.move_time(side, self.overhead);
        let legal: Vec<String> = moves
            .iter()
            .map(|&mv| {
                let mut text = String::new();
                let _ = game.write_move(mv, &mut text);
                text
            })
            .collect();
        let roots = self.root_moves(&legal, &args.searchmoves)?;
        let lines = self
            .multipv
            .min(legal.iter().filter(|m| roots.allows(m)).count());
        // Room for the longest list a request of this search sends: the GUI's
        // list, and with several lines one move (and a comma) more a line.
        let listed: usize = roots.listed().map(|m| m.len() + 1).sum();
        let extra = if lines > 1 || !roots.is_all() {
            " exclude=".len() + listed + lines.saturating_sub(1) * 5
        } else {
            0
        };
        let position = match self.position.wire_within(longest_head() + extra) {
            Ok(w) => w,
            Err(e) => {
                self.say(&format!("info string {e}"))?;
                return self.no_move();
            }
        };
        let request = GoRequest {
            game: "xiangqi".into(),
            position,
            depth: args.depth.map_or(0, |d| d.clamp(1, 255) as u8),
            nodes: args.nodes.unwrap_or(0),
            movetime_ms: movetime.map_or(0, timeman::wire_ms),
            // The book answers a game's move, not an analysis (`go infinite`)
            // nor a ponder search: those search, as Fruit's book does.
            level: self.wire_level(lines == 1 && !args.infinite && !args.ponder),
            seed: 0,
            info: true,
            roots,
        };
        let mut watch = Searching {
            out: &mut self.out,
            input,
            pending: &mut self.pending,
            ucci: self.ucci,
            start: Instant::now(),
            quitting: &mut self.quitting,
            infinite: args.infinite || movetime.is_none() && request_unbounded(&args),
            closed: false,
            stopped: false,
            ponder_time: if args.ponder {
                GoArgs {
                    infinite: false,
                    ..args.clone()
                }
                .move_time(side, self.overhead)
            } else {
                None
            },
            deadline: None,
            reported_nodes: 0,
        };
        let answer = if lines > 1 {
            let limits = multipv::Limits {
                lines,
                depth: request.depth,
                nodes: request.nodes,
                time: movetime,
            };
            multipv::search(&mut self.link, &request, &mut watch, &limits)
        } else {
            let answer = self.link.go(&request, &mut watch);
            // The nodes of an unfinished last iteration are the search's too: a
            // last `info` line gives the total, as GUIs and match runners count it.
            if let Ok(b) = &answer
                && b.nodes > watch.reported_nodes
                && !b.best.is_empty()
                && b.best != "none"
            {
                watch.info(b);
            }
            answer
        };
        watch.hold_answer();
        match answer {
            Ok(b) if b.best != "none" && !b.best.is_empty() => {
                self.say(&format!("bestmove {}", b.best))
            }
            Ok(_) => self.no_move(),
            Err(e) => {
                self.say(&format!("info string engine: {e}"))?;
                // Still a legal move the GUI allows, so a game in a GUI goes on.
                match legal.iter().find(|m| request.roots.allows(m)) {
                    Some(text) => self.say(&format!("bestmove {text}")),
                    None => self.no_move(),
                }
            }
        }
    }

    /// `go perft N`: each root move with its count, then the total (Stockfish's format).
    fn perft(&mut self, depth: u8) -> io::Result<()> {
        let game = match self.position.game(self.position.moves.len()) {
            Ok(g) => g,
            Err(e) => return self.say(&format!("info string {e}")),
        };
        let root_moves = legal_moves(&game);
        let mut total = 0u64;
        for mv in root_moves {
            let mut text = String::new();
            let _ = game.write_move(mv, &mut text);
            let count = if depth <= 1 {
                1
            } else {
                let mut child = self.position.clone();
                child.moves.push(text.clone());
                let wire = match child.wire() {
                    Ok(w) => w,
                    Err(e) => return self.say(&format!("info string {e}")),
                };
                match self.link.perft("xiangqi", depth - 1, &wire) {
                    Ok(n) => n,
                    Err(e) => return self.say(&format!("info string engine: {e}")),
                }
            };
            total += count;
            self.say(&format!("{text}: {count}"))?;
        }
        self.say("")?;
        self.say(&format!("Nodes searched: {total}"))
    }
}

/// Runs `sente engine xiangqi` on stdin/stdout.
pub fn main(board: &str) -> anyhow::Result<()> {
    let link = EngineLink::open(board)?;
    UciEngine::new(link, io::stdout()).run(crate::engine::stdin_lines())?;
    Ok(())
}

#[cfg(test)]
mod tests;
