//! `sente engine gomoku`: the host engine or a board as a Gomocup (Piskvork) brain.
//!
//! Speaks the Piskvork protocol on stdin/stdout: `START 15`, `RECTSTART 15,15`, `RESTART`,
//! `BEGIN`, `TURN x,y`, `TAKEBACK x,y`, `BOARD` … `DONE`, `INFO key value`, `SWAP2BOARD`,
//! `ABOUT`, `END`, plus Yixin-Board's `YXBOARD` … `DONE` (set the position without a reply
//! move), `YXNBEST n` (think and play; the best `n` lines shown, see [`crate::multipv`]),
//! `INFO show_detail` (Yixin-Board's `INFO PV` blocks), `YXBLOCK` / `YXBLOCKUNDO` … `DONE` and
//! `YXBLOCKRESET` (points not to play: the request's `exclude=`), `YXBALANCEONE bias` /
//! `YXBALANCETWO bias` (the stone or two stones that leave the score nearest to `bias`),
//! `YXHASHCLEAR`, `YXSTOP`, `YXSHOWFORBID` (black's renju forbidden points,
//! `FORBID xxyyxxyy….`) and `YXSHOWINFO` (`MESSAGE` lines: the engine's name and
//! `INFO MAX_THREAD_NUM 1`). Each move request becomes one protocol v1 `go gomoku` request to the
//! board, which gets every stone.
//!
//! Coordinates: Piskvork's `x,y` count from the top-left corner (x = column, y = row from the
//! top, both 0–14); the library's point is `row * 15 + col` with row 0 at the bottom, so
//! `x = p % 15`, `y = 14 - p / 15`.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

use sente_firmware::game::{Game, Notation};
use sente_firmware::games::gomoku::board::SIZE;
use sente_firmware::games::gomoku::search::HOST_DEFAULT_NODES;
use sente_firmware::games::gomoku::{BLACK, Gomoku, Point, Rule, parse_point};

use sente_firmware::engine::MAX_EXCLUDE;
use sente_firmware::protocol::RequestId;

use crate::board::MAX_HASH_MB;
use crate::engine::{self, EngineLink, GoRequest, Spec, Watch};
use crate::multipv::{self, LineWatch};
use crate::reply::BestMove;
use crate::timeman::{self, Clock};

/// Longest request line the board reads.
const MAX_LINE: usize = sente_firmware::protocol::MAX_LINE;

/// Piskvork's `x,y` for a point.
pub fn point_to_xy(p: Point) -> (u8, u8) {
    (p % SIZE, SIZE - 1 - p / SIZE)
}

/// The point at Piskvork's `x,y`.
pub fn xy_to_point(x: u8, y: u8) -> Option<Point> {
    (x < SIZE && y < SIZE).then(|| (SIZE - 1 - y) * SIZE + x)
}

/// Reads `x,y` (spaces allowed around the numbers).
pub fn parse_xy(text: &str) -> Result<Point, String> {
    let mut parts = text.split(',').map(str::trim);
    let (Some(x), Some(y), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!("expected x,y, got {text:?}"));
    };
    let (Ok(x), Ok(y)) = (x.parse::<u8>(), y.parse::<u8>()) else {
        return Err(format!("expected two numbers x,y, got {text:?}"));
    };
    xy_to_point(x, y).ok_or_else(|| format!("{x},{y} is off the 15x15 board (0..14)"))
}

/// `x,y` for a point.
fn xy_text(p: Point) -> String {
    let (x, y) = point_to_xy(p);
    format!("{x},{y}")
}

/// The library's name of a point (`h8`).
fn point_name(p: Point) -> String {
    let mut s = String::new();
    let _ = sente_firmware::games::gomoku::write_point(p, &mut s);
    s
}

/// The library's text of the game `moves` (black first) under `rule`.
fn position_text(rule: Rule, moves: &[Point]) -> String {
    let mut text = String::from(rule.name());
    for &p in moves {
        text.push(' ');
        text.push_str(&point_name(p));
    }
    text
}

/// Where a balancing stone may go: the legal empty points at most two points (in both
/// directions) from a stone, or the centre's 5x5 on an empty board.
fn balance_candidates(pos: &Gomoku) -> Vec<Point> {
    let size = SIZE as i32;
    let centre = size / 2;
    let near = |p: i32| -> bool {
        let (row, col) = (p / size, p % size);
        if pos.stones() == 0 {
            return (row - centre).abs() <= 2 && (col - centre).abs() <= 2;
        }
        (-2..=2).any(|dr: i32| {
            (-2..=2).any(|dc: i32| {
                let (r, c) = (row + dr, col + dc);
                (0..size).contains(&r)
                    && (0..size).contains(&c)
                    && pos.at((r * size + c) as Point).is_some()
            })
        })
    };
    (0..size * size)
        .filter(|&p| near(p) && pos.is_legal(p as Point))
        .map(|p| p as Point)
        .collect()
}

/// The rule from Piskvork's `INFO rule` bit field: 1 exactly five, 2 continuous game,
/// 4 renju, 8 caro (exactly five, not blocked at both ends; renju wins when both
/// are set). Returns the rule and a note about bits not followed.
pub fn rule_from_bits(bits: u32) -> (Rule, Option<&'static str>) {
    let rule = if bits & 4 != 0 {
        Rule::Renju
    } else if bits & 8 != 0 {
        Rule::Caro
    } else if bits & 1 != 0 {
        Rule::Standard
    } else {
        Rule::Free
    };
    let note = if bits & 12 == 12 {
        Some("renju and caro (bits 4 and 8) together: playing renju")
    } else if bits & 2 != 0 {
        Some("continuous game (bit 2) is not supported: each game ends at the first five")
    } else {
        None
    };
    (rule, note)
}

/// Clocks from `INFO` (milliseconds; `None` = not given).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clocks {
    /// `timeout_turn`: the limit for one move (0 = play as fast as possible).
    pub turn: Option<u64>,
    /// `timeout_match`: the limit for the whole game (0 = none).
    pub matches: Option<u64>,
    /// `time_left`: what is left of the game's time.
    pub left: Option<u64>,
}

/// Time kept in reserve for the manager and the link when the clocks set the move time
/// (beside a twentieth of the turn limit).
const OVERHEAD: Duration = Duration::from_millis(15);

impl Clocks {
    /// The time for one move (see [`timeman::move_time`]), or `None` without a clock:
    /// the turn limit caps it, and when the game has a time limit, what is left of it
    /// is shared over the moves still to come.
    pub fn movetime(&self) -> Option<Duration> {
        // A twentieth of the turn limit is kept back for the manager's own latency.
        let turn = self.turn.filter(|&t| t > 0).map(|t| {
            let t = Duration::from_millis(t);
            t - t / 20
        });
        let left = self
            .left
            .filter(|_| self.matches.is_some_and(|m| m > 0))
            .map(Duration::from_millis);
        match (turn, left) {
            (None, None) => None,
            (Some(turn), None) => Some(turn.saturating_sub(OVERHEAD).max(Duration::from_millis(1))),
            (turn, Some(left)) => Some(timeman::move_time(
                &Clock {
                    left,
                    increment: Duration::ZERO,
                    moves_to_go: None,
                    per_move_cap: turn,
                },
                OVERHEAD,
            )),
        }
    }
}

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Go,
    Quit,
}

/// The brain.
pub struct GomocupEngine<W: Write> {
    link: EngineLink,
    out: W,
    rule: Rule,
    /// The stones in play order, black first.
    moves: Vec<Point>,
    clocks: Clocks,
    /// The board's engine level (`level=` of each request): `--level` or `INFO level`.
    level: u8,
    /// Lines that arrived while the board searched, to run after it.
    pending: VecDeque<String>,
    /// Points no search may play (Yixin's `YXBLOCK`), until `YXBLOCKRESET`.
    blocked: Vec<Point>,
    /// `INFO SHOW_DETAIL` asks for Yixin-Board's `INFO PV …` blocks (bit 2).
    detail: bool,
    /// Yixin-Board's `INFO max_node`: most nodes a search may use (0 = no limit).
    max_nodes: u64,
    /// Yixin-Board's `INFO max_depth`: deepest iteration of a search (0 = no limit).
    max_depth: u8,
    /// A command of several searches (`SWAP2BOARD`, `YXBALANCE…`) was told to stop:
    /// its searches left take a millisecond each. Cleared before each command.
    halted: bool,
}

impl<W: Write> GomocupEngine<W> {
    /// A brain over `link`, writing to `out`.
    pub fn new(link: EngineLink, out: W) -> Self {
        Self {
            link,
            out,
            rule: Rule::Free,
            moves: Vec::new(),
            clocks: Clocks::default(),
            level: 0,
            pending: VecDeque::new(),
            blocked: Vec::new(),
            detail: false,
            max_nodes: 0,
            max_depth: 0,
            halted: false,
        }
    }

    /// The same brain playing at engine level `level` (see `docs/protocol.md`).
    pub fn with_level(mut self, level: u8) -> Self {
        self.level = level;
        self
    }

    fn say(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    /// The version `ABOUT` and `YXSHOWINFO` report: the crate's, and what
    /// plays (the host engine or a board).
    fn version(&self) -> String {
        format!("{} ({})", env!("CARGO_PKG_VERSION"), self.link.describe())
    }

    fn error(&mut self, message: &str) -> io::Result<()> {
        self.say(&format!("ERROR {message}"))
    }

    fn next_line(&mut self, input: &Receiver<String>) -> Option<String> {
        self.pending.pop_front().or_else(|| input.recv().ok())
    }

    /// The `x,y` lines up to `DONE` (`SWAP2BOARD`, `YXBLOCK`): the points and the first
    /// problem, or `None` when the input ended first.
    fn read_points(&mut self, input: &Receiver<String>) -> Option<(Vec<Point>, Option<String>)> {
        let mut points = Vec::new();
        let mut problem = None;
        loop {
            let l = self.next_line(input)?;
            let l = l.trim();
            if l.eq_ignore_ascii_case("DONE") {
                return Some((points, problem));
            }
            // Yixin-Board may send `x,y,colour`: the colour does not matter here.
            let xy = match l.split(',').count() {
                3 => l.rsplit_once(',').map_or(l, |(xy, _)| xy),
                _ => l,
            };
            match parse_xy(xy) {
                Ok(p) => points.push(p),
                Err(e) => {
                    problem.get_or_insert(e);
                }
            }
        }
    }

    /// Handles commands from `input` until `END` or its end.
    pub fn run(&mut self, input: Receiver<String>) -> io::Result<()> {
        while let Some(line) = self.next_line(&input) {
            self.halted = false;
            if self.command(line.trim(), &input)? == Flow::Quit {
                break;
            }
        }
        Ok(())
    }

    /// The position of the stones played so far.
    fn position(&self) -> Result<Gomoku, String> {
        Gomoku::parse_position(&position_text(self.rule, &self.moves))
            .map_err(|e| format!("position: {e}"))
    }

    fn command(&mut self, line: &str, input: &Receiver<String>) -> io::Result<Flow> {
        let (word, rest) = line.split_once([' ', '\t']).unwrap_or((line, ""));
        let rest = rest.trim();
        match word.to_ascii_uppercase().as_str() {
            "" => {}
            "START" => match rest.parse::<u32>() {
                Ok(15) => {
                    self.moves.clear();
                    self.say("OK")?;
                }
                _ => self.error(&format!(
                    "unsupported board size {rest:?}: this brain plays 15x15 only"
                ))?,
            },
            "RECTSTART" => {
                let size: Vec<&str> = rest.split(',').map(str::trim).collect();
                if size == ["15", "15"] {
                    self.moves.clear();
                    self.say("OK")?;
                } else {
                    self.error(&format!(
                        "unsupported board size {rest:?}: this brain plays 15,15 only"
                    ))?;
                }
            }
            "RESTART" => {
                self.moves.clear();
                self.say("OK")?;
            }
            "BEGIN" => {
                if self.moves.is_empty() {
                    return self.think(input, 1);
                }
                self.error("BEGIN needs an empty board (send START or RESTART first)")?;
            }
            "TURN" => {
                let played = parse_xy(rest).and_then(|p| {
                    let pos = self.position()?;
                    pos.parse_move(&point_name(p))
                        .map_err(|e| format!("{rest}: {e}"))
                });
                match played {
                    Ok(p) => {
                        self.moves.push(p);
                        return self.think(input, 1);
                    }
                    Err(e) => self.error(&format!("TURN {e}"))?,
                }
            }
            cmd @ ("BOARD" | "YXBOARD") => {
                let mut stones = Vec::new();
                let mut problem = None;
                loop {
                    let Some(l) = self.next_line(input) else {
                        return Ok(Flow::Quit);
                    };
                    let l = l.trim();
                    if l.eq_ignore_ascii_case("DONE") {
                        break;
                    }
                    match parse_stone(l) {
                        Ok(Some(s)) => stones.push(s),
                        Ok(None) => {}
                        Err(e) => {
                            problem.get_or_insert(e);
                        }
                    }
                }
                let result = problem.map_or_else(|| self.set_stones(&stones), Err);
                match result {
                    Err(e) => self.error(&format!("{cmd}: {e}"))?,
                    Ok(()) if cmd == "BOARD" => return self.think(input, 1),
                    Ok(()) => {}
                }
            }
            "INFO" => self.info(rest)?,
            "YXSHOWFORBID" => self.show_forbid()?,
            "SWAP2BOARD" => {
                let Some((stones, problem)) = self.read_points(input) else {
                    return Ok(Flow::Quit);
                };
                match problem {
                    Some(e) => self.error(&format!("SWAP2BOARD: {e}"))?,
                    None => self.swap2(&stones, input)?,
                }
            }
            "TAKEBACK" => match parse_xy(rest) {
                Ok(p) if self.moves.last() == Some(&p) => {
                    self.moves.pop();
                    self.say("OK")?;
                }
                Ok(_) => self.error(&format!(
                    "TAKEBACK {rest}: the last stone is {}",
                    self.moves
                        .last()
                        .map_or("none (the board is empty)".into(), |&l| xy_text(l))
                ))?,
                Err(e) => self.error(&format!("TAKEBACK {e}"))?,
            },
            "YXNBEST" => match rest.parse::<u16>() {
                Ok(n) if n >= 1 => {
                    return self.think(input, usize::from(n).min(multipv::MAX_LINES));
                }
                _ => self.error(&format!(
                    "YXNBEST: expected a count of 1 or more, got {rest:?}"
                ))?,
            },
            cmd @ ("YXBALANCEONE" | "YXBALANCETWO") => match rest.parse::<i32>() {
                Ok(bias) => self.balance(bias, cmd == "YXBALANCETWO", input)?,
                Err(_) => self.error(&format!("{cmd}: expected a score bias, got {rest:?}"))?,
            },
            "YXHASHCLEAR" => self.clear_hash()?,
            cmd @ ("YXBLOCK" | "YXBLOCKUNDO") => {
                let Some((points, problem)) = self.read_points(input) else {
                    return Ok(Flow::Quit);
                };
                match problem {
                    Some(e) => self.error(&format!("{cmd}: {e}"))?,
                    None if cmd == "YXBLOCKUNDO" => self.blocked.retain(|p| !points.contains(p)),
                    None => {
                        let mut blocked = self.blocked.clone();
                        for p in points {
                            if !blocked.contains(&p) {
                                blocked.push(p);
                            }
                        }
                        if blocked.len() > MAX_EXCLUDE {
                            self.error(&format!(
                                "YXBLOCK: at most {MAX_EXCLUDE} blocked points, got {}",
                                blocked.len()
                            ))?;
                        } else {
                            self.blocked = blocked;
                        }
                    }
                }
            }
            "YXBLOCKRESET" => self.blocked.clear(),
            "YXSTOP" | "STOP" => {}
            "ABOUT" => {
                let version = self.version();
                self.say(&format!(
                    "name=\"Sente\", version=\"{version}\", author=\"Sente authors\", \
                     country=\"-\", www=\"-\""
                ))?;
            }
            "YXSHOWINFO" => {
                // Yixin-Board asks once at start: the engine's name and what
                // its settings may ask for (one search thread).
                let version = self.version();
                self.say(&format!("MESSAGE Sente {version}"))?;
                self.say("MESSAGE INFO MAX_THREAD_NUM 1")?;
            }
            "END" => return Ok(Flow::Quit),
            other if other.starts_with("YX") => {
                self.error(&format!("unsupported Yixin command {word}"))?
            }
            _ => self.error(&format!("unknown command {word}"))?,
        }
        Ok(Flow::Go)
    }

    /// Replaces the game by `stones` (`(point, own)`), ordered into a play sequence: black
    /// moves first, and the side to move (this brain) is black when the counts are equal.
    fn set_stones(&mut self, stones: &[(Point, bool)]) -> Result<(), String> {
        let own: Vec<Point> = stones.iter().filter(|s| s.1).map(|s| s.0).collect();
        let theirs: Vec<Point> = stones.iter().filter(|s| !s.1).map(|s| s.0).collect();
        let (black, white) = if own.len() == theirs.len() {
            (own, theirs)
        } else if theirs.len() == own.len() + 1 {
            (theirs, own)
        } else {
            return Err(format!(
                "{} own and {} opponent stones cannot arise in play (the side to move has \
                 as many stones as the other, or one fewer)",
                own.len(),
                theirs.len()
            ));
        };
        let mut moves = Vec::with_capacity(black.len() + white.len());
        for (i, &b) in black.iter().enumerate() {
            moves.push(b);
            if let Some(&w) = white.get(i) {
                moves.push(w);
            }
        }
        let old = std::mem::replace(&mut self.moves, moves);
        if let Err(e) = self.position() {
            self.moves = old;
            return Err(e);
        }
        Ok(())
    }

    fn info(&mut self, rest: &str) -> io::Result<()> {
        let (key, value) = rest.split_once([' ', '\t']).unwrap_or((rest, ""));
        let value = value.trim();
        let number = || timeman::saturating_ms(value).ok_or(());
        match key.to_ascii_lowercase().as_str() {
            "level" => match value.parse::<u8>() {
                Ok(n) if n <= 2 => self.level = n,
                _ => {
                    return self.error(&format!(
                        "INFO level: expected 0 (default), 1 (pattern) or 2 (strong), got {value:?}"
                    ));
                }
            },
            "timeout_turn" | "timeout_match" | "time_left" | "rule" => {
                let Ok(n) = number() else {
                    return self.error(&format!("INFO {key}: not a number: {value:?}"));
                };
                match key.to_ascii_lowercase().as_str() {
                    "timeout_turn" => self.clocks.turn = Some(n),
                    "timeout_match" => self.clocks.matches = Some(n),
                    "time_left" => self.clocks.left = Some(n),
                    _ => {
                        let (rule, note) = rule_from_bits(n as u32);
                        self.rule = rule;
                        if let Some(note) = note {
                            self.say(&format!("MESSAGE {note}"))?;
                        }
                    }
                }
            }
            "max_memory" => {
                let Ok(bytes) = number() else {
                    return self.error(&format!("INFO max_memory: not a number: {value:?}"));
                };
                self.set_memory(bytes)?;
            }
            "max_node" | "max_depth" => {
                let Some(n) = search_limit(value) else {
                    return self.error(&format!("INFO {key}: not a number: {value:?}"));
                };
                if key.eq_ignore_ascii_case("max_node") {
                    self.max_nodes = n;
                } else {
                    self.max_depth = u8::try_from(n).unwrap_or(u8::MAX);
                }
            }
            "show_detail" => match value.parse::<u8>() {
                Ok(n) => self.detail = n & 2 != 0,
                Err(_) => {
                    return self.error(&format!("INFO show_detail: not a number: {value:?}"));
                }
            },
            // game_type, folder, evaluate, …: nothing to do.
            _ => {}
        }
        Ok(())
    }

    /// `INFO max_memory` (bytes, 0 = no limit): the host engine's arena takes half of
    /// it (the rest is the process itself), at most [`MAX_HASH_MB`].
    fn set_memory(&mut self, bytes: u64) -> io::Result<()> {
        let Some(Spec::Host(now)) = self.link.spec().cloned() else {
            return Ok(());
        };
        let mb = if bytes == 0 {
            crate::board::DEFAULT_HASH_MB
        } else {
            usize::try_from(bytes / 2 / (1 << 20)).unwrap_or(MAX_HASH_MB)
        }
        .clamp(1, MAX_HASH_MB);
        if mb != now {
            match EngineLink::open_spec(Spec::Host(mb)) {
                Ok(link) => self.link = link,
                Err(e) => self.error(&format!("INFO max_memory: {e}"))?,
            }
        }
        Ok(())
    }

    /// The engine's move and score (for the side to move) in the game `moves`, searched
    /// for a quarter of the turn's time (a tenth of a second without a clock).
    fn evaluate(
        &mut self,
        moves: &[Point],
        input: &Receiver<String>,
    ) -> Result<(Point, i32), String> {
        let movetime = self.clocks.movetime().unwrap_or(Duration::from_millis(100));
        let best = self.search(moves, movetime / 4, input)?;
        let p = parse_point(&best.best).map_err(|e| format!("engine: {e}"))?;
        Ok((p, best.score))
    }

    /// The engine's answer for the game `moves`, searched for `time`, or until
    /// `YXSTOP`/`STOP`/`END` (then the command's other searches take a millisecond
    /// each, [`GomocupEngine::halted`], and `END` waits for the command's answer).
    fn search(
        &mut self,
        moves: &[Point],
        time: Duration,
        input: &Receiver<String>,
    ) -> Result<BestMove, String> {
        let time = if self.halted {
            Duration::from_millis(1)
        } else {
            time
        };
        let pos = Gomoku::parse_position(&position_text(self.rule, moves))
            .map_err(|e| format!("position: {e}"))?;
        let mut wire = String::new();
        let _ = pos.write_position(&mut wire);
        let request = GoRequest {
            game: "gomoku".into(),
            position: wire,
            movetime_ms: timeman::wire_ms(time).max(1),
            level: self.level,
            ..GoRequest::default()
        };
        let mut watch = Thinking::new(input, &mut self.pending, &mut self.out, false, 0);
        let result = self.link.go(&request, &mut watch);
        let (stopped, quit) = (watch.stopped, watch.quit);
        if quit {
            self.pending.push_front("END".into());
        }
        self.halted |= stopped || quit;
        result.map_err(|e| format!("engine: {e}"))
    }

    /// The swap2 opening (Gomocup's `SWAP2BOARD`): with no stones, place three (black,
    /// white, black) picked for balance by the engine; with three, take white and play
    /// (or `SWAP` to black when black stands clearly better); with five, take white and
    /// play when white stands at least level, else `SWAP`.
    fn swap2(&mut self, stones: &[Point], input: &Receiver<String>) -> io::Result<()> {
        /// A score beyond which one side is "clearly better" in swap2's choices.
        const CLEAR: i32 = 60;
        let result = match stones.len() {
            0 => self.swap2_open(input),
            3 | 5 => match self.evaluate(stones, input) {
                Ok((mv, white)) => {
                    let take_white = if stones.len() == 3 {
                        white > -CLEAR
                    } else {
                        white >= 0
                    };
                    let mut moves = stones.to_vec();
                    if take_white {
                        moves.push(mv);
                    }
                    self.moves = moves;
                    Ok(if take_white {
                        xy_text(mv)
                    } else {
                        "SWAP".to_string()
                    })
                }
                Err(e) => Err(e),
            },
            n => Err(format!("SWAP2BOARD: 0, 3 or 5 stones, got {n}")),
        };
        match result {
            Ok(line) => self.say(&line),
            Err(e) => self.error(&e),
        }
    }

    /// Three stones (black, white, black) whose position the engine scores nearest
    /// to level, among a few shapes around the centre.
    fn swap2_open(&mut self, input: &Receiver<String>) -> Result<String, String> {
        const SHAPES: [[&str; 3]; 4] = [
            ["h8", "j9", "g10"],
            ["h8", "i10", "j7"],
            ["h8", "g6", "k9"],
            ["h8", "j8", "f9"],
        ];
        let mut best: Option<(i32, Vec<Point>)> = None;
        for shape in SHAPES {
            let stones: Vec<Point> = shape
                .iter()
                .map(|s| parse_point(s).map_err(|e| e.to_string()))
                .collect::<Result<_, _>>()?;
            let (_, white) = self.evaluate(&stones, input)?;
            if best.as_ref().is_none_or(|(b, _)| white.abs() < *b) {
                best = Some((white.abs(), stones));
            }
        }
        let (_, stones) = best.ok_or("no opening")?;
        self.moves = stones.clone();
        Ok(stones
            .iter()
            .map(|&p| xy_text(p))
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// `YXHASHCLEAR`: the host engine starts again with an empty transposition table (a
    /// fresh arena of the same size); a board keeps nothing between requests that
    /// the brain could clear.
    fn clear_hash(&mut self) -> io::Result<()> {
        let Some(spec @ Spec::Host(_)) = self.link.spec().cloned() else {
            return self.say("MESSAGE the engine keeps no table between moves: nothing to clear");
        };
        match EngineLink::open_spec(spec) {
            Ok(link) => {
                self.link = link;
                self.say("MESSAGE transposition table cleared")
            }
            Err(e) => self.error(&format!("YXHASHCLEAR: {e}")),
        }
    }

    /// Yixin's `YXBALANCEONE bias` / `YXBALANCETWO bias`: the stone (or the two stones,
    /// the side to move's and then the opponent's) after which the engine scores the
    /// position nearest to `bias` for the side that placed the first stone. The stones
    /// are played and answered as `x,y` (`x1,y1 x2,y2`). Each candidate (an empty point
    /// at most two points from a stone, the centre's 5x5 on an empty board) is searched
    /// for an equal share of the move time (a second without a clock).
    fn balance(&mut self, bias: i32, two: bool, input: &Receiver<String>) -> io::Result<()> {
        let result = self.balance_one(bias, input).and_then(|first| {
            if !two {
                return Ok(vec![first]);
            }
            self.moves.push(first);
            // The opponent's stone: nearest to the same balance seen from its side.
            let second = self.balance_one(-bias, input);
            self.moves.pop();
            Ok(vec![first, second?])
        });
        match result {
            Ok(stones) => {
                self.moves.extend(&stones);
                let line: Vec<String> = stones.iter().map(|&p| xy_text(p)).collect();
                self.say(&line.join(" "))
            }
            Err(e) => self.error(&e),
        }
    }

    /// The candidate point after which the position's score for the side placing it is
    /// nearest to `bias` (see [`Self::balance`]).
    fn balance_one(&mut self, bias: i32, input: &Receiver<String>) -> Result<Point, String> {
        let pos = self.position()?;
        if pos.outcome().is_some() {
            return Err("the game is over".into());
        }
        let candidates = balance_candidates(&pos);
        if candidates.is_empty() {
            return Err("no empty point to balance with".into());
        }
        let total = self.clocks.movetime().unwrap_or(Duration::from_secs(1));
        let share = (total / candidates.len() as u32).max(Duration::from_millis(1));
        let mut best: Option<(i32, Point)> = None;
        for p in candidates {
            let mut after = pos;
            after.make(p);
            // The opponent moves next: its score, negated, is the placer's.
            let score = match after.outcome() {
                Some(_) => sente_firmware::game::MATE,
                None => {
                    let mut moves = self.moves.clone();
                    moves.push(p);
                    -self.search(&moves, share, input)?.score
                }
            };
            let distance = score.saturating_sub(bias).saturating_abs();
            if best.is_none_or(|(d, _)| distance < d) {
                best = Some((distance, p));
            }
        }
        best.map(|(_, p)| p).ok_or_else(|| "no candidate".into())
    }

    /// `FORBID ` + `xxyy` for each of black's forbidden points + `.` (Yixin's and Rapfi's
    /// form). Like Rapfi, the list is empty unless the rule is renju and black is to move.
    fn show_forbid(&mut self) -> io::Result<()> {
        let pos = match self.position() {
            Ok(p) => p,
            Err(e) => return self.error(&e),
        };
        let mut line = String::from("FORBID ");
        if pos.player_to_move() == BLACK {
            for p in pos.forbidden_points().iter() {
                let (x, y) = point_to_xy(p);
                line.push_str(&format!("{x:02}{y:02}"));
            }
        }
        line.push('.');
        self.say(&line)
    }

    /// Searches the position and plays the best move (`lines` > 1: Yixin's `YXNBEST`,
    /// the best `lines` lines shown as they are found).
    fn think(&mut self, input: &Receiver<String>, lines: usize) -> io::Result<Flow> {
        let pos = match self.position() {
            Ok(p) => p,
            Err(e) => {
                self.error(&e)?;
                return Ok(Flow::Go);
            }
        };
        if pos.outcome().is_some() {
            self.error("the game is over")?;
            return Ok(Flow::Go);
        }
        if !pos.has_legal_move() {
            // The RIF rules' pass has no word in this protocol: say why, play nothing.
            self.error(
                "no legal move: every empty point is forbidden to black (renju); \
                 the RIF rules let black pass, which this protocol cannot say: a draw",
            )?;
            return Ok(Flow::Go);
        }
        let movetime = self.clocks.movetime();
        let mut wire = String::new();
        let _ = pos.write_position(&mut wire);
        let blocked: Vec<String> = self.blocked.iter().map(|&p| point_name(p)).collect();
        let request = GoRequest {
            game: "gomoku".into(),
            position: wire,
            movetime_ms: movetime.map_or(0, timeman::wire_ms),
            nodes: self.max_nodes,
            depth: self.max_depth,
            level: self.level,
            roots: engine::all_but(&blocked),
            ..GoRequest::default()
        };
        let line = request.request(Some(RequestId(u32::MAX))).to_string();
        if line.len() > MAX_LINE {
            self.error(&format!(
                "the board reads requests of at most {MAX_LINE} bytes, and this game of {} \
                 stones needs {}: it is too long for the board",
                self.moves.len(),
                line.len()
            ))?;
            return Ok(Flow::Go);
        }
        let mut watch = Thinking::new(input, &mut self.pending, &mut self.out, self.detail, lines);
        let result = if lines > 1 {
            // Without a clock or a limit, each line gets a one-line search's nodes
            // (the rounds would otherwise go on until `YXSTOP`).
            let unlimited = movetime.is_none() && self.max_nodes == 0 && self.max_depth == 0;
            let limits = multipv::Limits {
                lines,
                depth: self.max_depth,
                nodes: if unlimited {
                    HOST_DEFAULT_NODES * lines as u64
                } else {
                    self.max_nodes
                },
                time: movetime,
            };
            multipv::search(&mut self.link, &request, &mut watch, &limits)
        } else {
            self.link.go(&request, &mut watch)
        };
        let (quit, start) = (watch.quit, watch.start);
        match result {
            Ok(b) => match parse_point(&b.best) {
                Ok(p) if pos.is_legal(p) => {
                    self.moves.push(p);
                    let ms = start.elapsed().as_millis();
                    self.say(&format!(
                        "MESSAGE {} depth {} score {} nodes {} time {ms} ms",
                        b.best, b.depth, b.score, b.nodes
                    ))?;
                    self.say(&xy_text(p))?;
                }
                _ if b.best == "none" && !self.blocked.is_empty() => {
                    self.error("every legal point is blocked (YXBLOCK): no move")?
                }
                _ => self.error(&format!("engine: no legal move ({})", b.best))?,
            },
            Err(e) => self.error(&format!("engine: {e}"))?,
        }
        Ok(if quit { Flow::Quit } else { Flow::Go })
    }
}

/// What the brain hears while the engine thinks: `END` and `YXSTOP`/`STOP` stop it
/// (wherever they wait before the next command that thinks), everything else waits
/// for the answer.
struct Thinking<'a, W: Write> {
    input: &'a Receiver<String>,
    pending: &'a mut VecDeque<String>,
    out: &'a mut W,
    /// Yixin-Board's `INFO PV` blocks wanted (`INFO SHOW_DETAIL`).
    detail: bool,
    /// Lines asked for (`YXNBEST`).
    lines: usize,
    start: Instant,
    /// `YXSTOP`, `STOP` or `END` came.
    stopped: bool,
    quit: bool,
}

impl<'a, W: Write> Thinking<'a, W> {
    /// A watch over `input` from now on (`detail` and `lines`: see the fields).
    fn new(
        input: &'a Receiver<String>,
        pending: &'a mut VecDeque<String>,
        out: &'a mut W,
        detail: bool,
        lines: usize,
    ) -> Self {
        Thinking {
            input,
            pending,
            out,
            detail,
            lines,
            start: Instant::now(),
            stopped: false,
            quit: false,
        }
    }

    /// Writes line `k` (1: the best) of depth `depth`: Yixin-Board's `INFO PV` block when
    /// asked for, and with several lines a `MESSAGE (k) score | depth | pv` line.
    fn write_line(&mut self, depth: u32, k: usize, nodes: u64, line: &BestMove) {
        let pv: Vec<Point> = line
            .pv
            .iter()
            .chain(line.pv.is_empty().then_some(&line.best))
            .map_while(|m| parse_point(m).ok())
            .collect();
        let ms = self.start.elapsed().as_millis();
        if self.detail {
            let xy: Vec<String> = pv.iter().map(|&p| xy_text(p)).collect();
            let block = [
                format!("INFO PV {}", k - 1),
                format!("INFO NUMPV {}", self.lines),
                format!("INFO DEPTH {depth}"),
                format!("INFO NODES {}", line.nodes),
                format!("INFO TOTALNODES {nodes}"),
                format!("INFO TOTALTIME {ms}"),
                format!("INFO SPEED {}", u128::from(nodes) * 1000 / ms.max(1)),
                format!("INFO EVAL {}", line.score),
                format!("INFO BESTLINE {}", xy.join(" ")),
                "INFO PV DONE".to_string(),
            ];
            for l in block {
                let _ = writeln!(self.out, "{l}");
            }
        }
        if self.lines > 1 {
            let names: Vec<String> = pv.iter().map(|&p| point_name(p)).collect();
            let _ = writeln!(
                self.out,
                "MESSAGE ({k}) {} | {depth} | {}",
                line.score,
                names.join(" ")
            );
        }
        let _ = self.out.flush();
    }
}

impl<W: Write> LineWatch for Thinking<'_, W> {
    fn started(&self) -> Instant {
        self.start
    }
    fn ended(&self) -> bool {
        self.stopped || self.quit
    }
    fn show(&mut self, depth: u32, k: usize, nodes: u64, line: &BestMove) {
        self.write_line(depth, k, nodes, line);
    }
}

impl<W: Write> Watch for Thinking<'_, W> {
    fn info(&mut self, info: &BestMove) {
        if self.lines == 1 {
            self.write_line(info.depth, 1, info.nodes, info);
        }
    }

    fn stop(&mut self) -> bool {
        loop {
            match self.input.try_recv() {
                Ok(line) => self.pending.push_back(line),
                Err(TryRecvError::Empty) => break,
                // The manager went away: finish the move and end.
                Err(TryRecvError::Disconnected) => {
                    self.stopped = true;
                    return true;
                }
            }
        }
        // `END` ends everything wherever it waits; `STOP`/`YXSTOP` stops this search
        // wherever it waits up to the next command that starts one (a line of its own,
        // say an `INFO`, must not hide it). The other lines run after the move, in order.
        let act = self.pending.iter().enumerate().find_map(|(k, line)| {
            let line = line.trim().to_ascii_uppercase();
            match line.as_str() {
                "END" => return Some(Some((k, true))),
                "YXSTOP" | "STOP" => return Some(Some((k, false))),
                _ => {}
            }
            match line.split([' ', '\t']).next().unwrap_or("") {
                "BEGIN" | "TURN" | "BOARD" | "YXNBEST" | "SWAP2BOARD" | "YXBALANCEONE"
                | "YXBALANCETWO" => Some(None),
                _ => None,
            }
        });
        match act.flatten() {
            Some((k, end)) => {
                self.pending.remove(k);
                self.quit = end;
                self.stopped = !end;
                true
            }
            None => false,
        }
    }
}

/// One `x,y,field` line of `BOARD`: `Some((point, own))`, or `None` for field 3 (a
/// continuous game's old winning line, not played on).
fn parse_stone(line: &str) -> Result<Option<(Point, bool)>, String> {
    let (xy, field) = line
        .rsplit_once(',')
        .ok_or_else(|| format!("expected x,y,field, got {line:?}"))?;
    let p = parse_xy(xy)?;
    match field.trim() {
        "1" => Ok(Some((p, true))),
        "2" => Ok(Some((p, false))),
        "3" => Ok(None),
        f => Err(format!("field must be 1, 2 or 3, got {f:?} in {line:?}")),
    }
}

/// Runs `sente engine gomoku` on stdin/stdout.
pub fn main(board: &str, level: u8) -> anyhow::Result<()> {
    if level > 2 {
        anyhow::bail!("gomoku levels: 0 default, 1 pattern, 2 strong");
    }
    let link = EngineLink::open(board)?;
    GomocupEngine::new(link, io::stdout())
        .with_level(level)
        .run(crate::engine::stdin_lines())?;
    Ok(())
}

/// A Yixin-Board search limit (`INFO max_node`, `INFO max_depth`): a count,
/// where 0, a negative number and the largest 64-bit value (Yixin-Board's
/// "unlimited") all mean no limit (0). `None` when it is not a number.
fn search_limit(value: &str) -> Option<u64> {
    match value.parse::<u64>() {
        Ok(u64::MAX) => Some(0),
        Ok(n) => Some(n),
        Err(_) => value.parse::<i64>().ok().filter(|&n| n < 0).map(|_| 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente_firmware::game::Outcome;
    use std::sync::mpsc;

    fn engine() -> GomocupEngine<Vec<u8>> {
        let link = EngineLink::open_spec(Spec::Host(crate::board::DEFAULT_HASH_MB)).unwrap();
        GomocupEngine::new(link, Vec::new())
    }

    fn session(commands: &[&str]) -> String {
        String::from_utf8(session_engine(commands).out).unwrap()
    }

    /// Runs a session and returns the brain, for its state.
    fn session_engine(commands: &[&str]) -> GomocupEngine<Vec<u8>> {
        let (tx, rx) = mpsc::channel();
        for c in commands {
            tx.send(c.to_string()).unwrap();
        }
        drop(tx);
        let mut e = engine();
        e.run(rx).unwrap();
        e
    }

    /// Sends one command (with no further input) and returns what the brain wrote.
    fn step(e: &mut GomocupEngine<Vec<u8>>, line: &str) -> Vec<String> {
        let (_tx, rx) = mpsc::channel();
        e.out.clear();
        e.command(line, &rx).unwrap();
        String::from_utf8(e.out.clone())
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// The last line, which must be a move `x,y`.
    fn answer(lines: &[String]) -> Point {
        let last = lines.last().expect("no answer");
        parse_xy(last).unwrap_or_else(|e| panic!("{e}: {lines:?}"))
    }

    /// Runs a session whose input stays open (a search only ends by its clock or a
    /// stop, as with a manager), failing if it has not ended within 30 s.
    fn open_session(commands: &[&str]) -> (GomocupEngine<Vec<u8>>, String) {
        let (tx, rx) = mpsc::channel();
        for c in commands {
            tx.send(c.to_string()).unwrap();
        }
        let thread = std::thread::spawn(move || {
            let mut e = engine();
            e.run(rx).unwrap();
            e
        });
        let waited = Instant::now();
        while !thread.is_finished() {
            assert!(
                waited.elapsed() < Duration::from_secs(30),
                "no end: {commands:?}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        drop(tx);
        let e = thread.join().unwrap();
        let out = String::from_utf8(e.out.clone()).unwrap();
        (e, out)
    }

    /// A line sent while the brain thinks (an `INFO` here) does not hide the `YXSTOP`
    /// behind it: the move comes at once, then the line runs, in order.
    #[test]
    fn lines_before_a_stop_wait_for_the_move_and_do_not_hide_it() {
        let (e, out) = open_session(&[
            "START 15",
            "INFO timeout_turn 100000000",
            "BOARD",
            "7,7,2",
            "8,7,1",
            "7,8,2",
            "DONE",
            "INFO rule 4",
            "YXSTOP",
            "END",
        ]);
        assert_eq!(
            out.lines().filter(|l| parse_xy(l).is_ok()).count(),
            1,
            "{out}"
        );
        assert_eq!(
            e.rule,
            Rule::Renju,
            "the INFO line ran after the move: {out}"
        );
    }

    /// `SWAP2BOARD` and `YXBALANCE…` search several times: `YXSTOP` cuts them short
    /// and `END` ends the brain after their answer (found by fuzzing the brain as a
    /// process: they did not listen while searching).
    #[test]
    fn many_search_commands_hear_stop_and_end() {
        let board = ["INFO timeout_turn 50", "BOARD", "7,7,2", "8,8,1", "DONE"];
        for (command, end) in [
            (&["SWAP2BOARD", "DONE"][..], "YXSTOP"),
            (&["SWAP2BOARD", "7,7", "8,8", "6,8", "DONE"][..], "END"),
            (&["YXBALANCETWO 0"][..], "YXSTOP"),
        ] {
            let mut commands = vec!["START 15"];
            if command[0].starts_with("YXBALANCE") {
                commands.extend(board);
            }
            commands.push("INFO timeout_turn 100000000");
            commands.extend(command);
            commands.extend([end, "END"]);
            let (_, out) = open_session(&commands);
            let last = out.lines().last().unwrap_or_default();
            assert!(
                last == "SWAP" || last.split(' ').all(|xy| parse_xy(xy).is_ok()),
                "{command:?}: {out}"
            );
        }
    }

    /// Yixin's `YXNBEST` answers a move whatever the clock: at a millisecond a move
    /// (it answered an error: no line had been searched), and with no clock at all
    /// it ends by itself.
    #[test]
    fn several_lines_answer_a_move_at_any_clock() {
        for clock in ["INFO timeout_turn 1", "INFO max_node 3000"] {
            let (_, out) = open_session(&[
                "START 15",
                clock,
                "BOARD",
                "7,7,2",
                "8,8,1",
                "DONE",
                "YXNBEST 3",
                "END",
            ]);
            let moves = out.lines().filter(|l| parse_xy(l).is_ok()).count();
            assert_eq!(moves, 2, "{clock}: {out}");
            assert!(!out.contains("ERROR"), "{clock}: {out}");
        }
    }

    #[test]
    fn coordinates_follow_piskvork() {
        // a1 (bottom-left) is x=0, y=14; o15 (top-right) is x=14, y=0; h8 is 7,7.
        assert_eq!(point_to_xy(0), (0, 14));
        assert_eq!(point_to_xy(224), (14, 0));
        assert_eq!(parse_xy("7,7"), Ok(parse_point("h8").unwrap()));
        assert_eq!(parse_xy(" 0 , 0 "), Ok(parse_point("a15").unwrap()));
        for p in 0..225u8 {
            let (x, y) = point_to_xy(p);
            assert_eq!(xy_to_point(x, y), Some(p));
        }
        for bad in ["15,0", "0,15", "-1,3", "7", "7,7,7", "a,b", ""] {
            assert!(parse_xy(bad).is_err(), "{bad}");
        }
        assert_eq!(rule_from_bits(0).0, Rule::Free);
        assert_eq!(rule_from_bits(1).0, Rule::Standard);
        assert_eq!(rule_from_bits(4).0, Rule::Renju);
        assert_eq!(rule_from_bits(8), (Rule::Caro, None));
        assert_eq!(rule_from_bits(9), (Rule::Caro, None));
        assert_eq!(rule_from_bits(12).0, Rule::Renju);
        assert!(rule_from_bits(12).1.is_some());
        assert!(rule_from_bits(2).1.is_some());
    }

    #[test]
    fn time_limits_become_a_movetime_cap() {
        let c = |turn, matches, left| Clocks {
            turn,
            matches,
            left,
        };
        assert_eq!(c(None, None, None).movetime(), None);
        assert_eq!(c(Some(0), Some(0), None).movetime(), None);
        let ms = |c: Clocks| c.movetime().map(|d| d.as_millis());
        assert_eq!(ms(c(Some(200), None, None)), Some(175));
        assert_eq!(ms(c(Some(5000), None, None)), Some(4735));
        assert_eq!(ms(c(Some(5000), Some(180_000), Some(15_000))), Some(499));
        // time_left without a match limit is not a limit.
        assert_eq!(ms(c(Some(1000), Some(0), Some(300))), Some(935));
        assert_eq!(ms(c(Some(40), None, None)), Some(23));
        assert_eq!(ms(c(Some(10), None, None)), Some(1));
        // Huge numbers saturate (a manager's "no limit").
        assert!(c(Some(u64::MAX), None, None).movetime().is_some());
    }

    #[test]
    fn sizes_about_and_unknown_commands() {
        let out = session(&[
            "START 20",
            "START 15",
            "RECTSTART 15,15",
            "RECTSTART 20,15",
            "ABOUT",
            "FLIP",
            "YXQUERYDATABASEALL",
            "INFO max_memory 83886080",
            "INFO folder /tmp",
            "INFO timeout_turn soon",
            "END",
            "START 15",
        ]);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("ERROR "), "{out}");
        assert_eq!(lines[1..3], ["OK", "OK"], "{out}");
        assert!(lines[3].starts_with("ERROR "), "{out}");
        assert!(
            lines[4].starts_with("name=\"Sente\", version=\"")
                && lines[4].contains("author=")
                && lines[4].contains("country="),
            "{out}"
        );
        assert!(lines[5].starts_with("ERROR unknown command FLIP"), "{out}");
        assert!(
            lines[6].starts_with("ERROR unsupported Yixin command"),
            "{out}"
        );
        assert!(lines[7].starts_with("ERROR INFO timeout_turn"), "{out}");
        // Nothing after END.
        assert_eq!(lines.len(), 8, "{out}");
    }

    /// Yixin-Board's first command: the engine's name and its one search
    /// thread, as `MESSAGE` lines; no error, and the game goes on.
    #[test]
    fn yixin_asks_for_the_engines_information() {
        let out = session(&["YXSHOWINFO", "START 15", "END"]);
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("MESSAGE Sente "), "{out}");
        assert_eq!(lines[1..], ["MESSAGE INFO MAX_THREAD_NUM 1", "OK"], "{out}");
    }

    #[test]
    fn yixin_node_and_depth_limits_bound_the_search() {
        assert_eq!(search_limit("5000"), Some(5000));
        assert_eq!(search_limit("-1"), Some(0));
        assert_eq!(search_limit("18446744073709551615"), Some(0));
        assert_eq!(search_limit("many"), None);
        let nodes_of = |reply: &[String]| -> u64 {
            let message = reply
                .iter()
                .find(|l| l.starts_with("MESSAGE "))
                .unwrap_or_else(|| panic!("no MESSAGE: {reply:?}"));
            let words: Vec<&str> = message.split_whitespace().collect();
            let at = words.iter().position(|&w| w == "nodes").unwrap();
            words[at + 1].parse().unwrap()
        };
        let mut e = engine();
        step(&mut e, "START 15");
        step(&mut e, "INFO max_node 400");
        let reply = step(&mut e, "TURN 7,7");
        answer(&reply);
        // The host checks its limits every few hundred nodes: a little over.
        let nodes = nodes_of(&reply);
        assert!((1..2_000).contains(&nodes), "{reply:?}");
        step(&mut e, "INFO max_node -1");
        step(&mut e, "INFO max_depth 2");
        let reply = step(&mut e, "TURN 9,9");
        answer(&reply);
        assert!(reply.iter().any(|l| l.contains(" depth 2 ")), "{reply:?}");
        assert!(step(&mut e, "INFO max_depth deep")[0].starts_with("ERROR INFO max_depth"));
    }

    #[test]
    fn takeback_removes_the_last_stone_only() {
        let mut e = engine();
        assert_eq!(step(&mut e, "START 15"), ["OK"]);
        assert!(
            step(&mut e, "TAKEBACK 7,7")[0]
                .starts_with("ERROR TAKEBACK 7,7: the last stone is none")
        );
        let first = answer(&step(&mut e, "BEGIN"));
        assert!(
            step(&mut e, "TAKEBACK 0,0")[0].starts_with("ERROR TAKEBACK 0,0: the last stone is ")
        );
        assert!(step(&mut e, "TAKEBACK 15,3")[0].starts_with("ERROR TAKEBACK"));
        assert_eq!(
            step(&mut e, &format!("TAKEBACK {}", xy_text(first))),
            ["OK"]
        );
        assert!(e.moves.is_empty());
        // The same move again after BEGIN: the game went on from the empty board.
        assert_eq!(answer(&step(&mut e, "BEGIN")), first);
        assert_eq!(e.moves, [first]);
    }

    #[test]
    fn yixin_nbest_hashclear_and_bad_counts() {
        let mut e = session_engine(&[
            "START 15",
            "INFO max_node 10000",
            "YXBOARD",
            "7,7,2",
            "8,8,1",
            "DONE",
        ]);
        assert_eq!(String::from_utf8_lossy(&e.out), "OK\n");
        assert!(step(&mut e, "YXNBEST 0")[0].starts_with("ERROR YXNBEST"));
        assert!(step(&mut e, "YXNBEST many")[0].starts_with("ERROR YXNBEST"));
        assert_eq!(e.moves.len(), 2);
        let mv = answer(&step(&mut e, "YXNBEST 1"));
        assert_eq!(e.moves.len(), 3);
        assert_eq!(e.moves[2], mv);
        assert_eq!(
            step(&mut e, "YXHASHCLEAR"),
            ["MESSAGE transposition table cleared"]
        );
        assert_eq!(
            e.link.spec(),
            Some(&Spec::Host(crate::board::DEFAULT_HASH_MB))
        );
        // The game is kept.
        assert_eq!(e.moves.len(), 3);
    }

    /// Sends a command followed by its lines (`YXBLOCK` … `DONE`); returns what the
    /// brain wrote.
    fn step_lines(e: &mut GomocupEngine<Vec<u8>>, lines: &[&str]) -> Vec<String> {
        let (tx, rx) = mpsc::channel();
        for l in &lines[1..] {
            tx.send(l.to_string()).unwrap();
        }
        e.out.clear();
        e.command(lines[0], &rx).unwrap();
        String::from_utf8(e.out.clone())
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn yixin_nbest_shows_several_lines_and_plays_the_best() {
        let mut e = session_engine(&[
            "START 15",
            "INFO timeout_turn 300",
            "INFO show_detail 2",
            "YXBOARD",
            "7,7,2",
            "8,8,1",
            "7,8,2",
            "DONE",
        ]);
        let out = step(&mut e, "YXNBEST 3");
        assert!(out.iter().any(|l| l == "INFO PV 2"), "{out:?}");
        assert!(out.iter().any(|l| l == "INFO NUMPV 3"), "{out:?}");
        assert!(out.iter().any(|l| l == "INFO PV DONE"), "{out:?}");
        let messages: Vec<&str> = out
            .iter()
            .filter_map(|l| l.strip_prefix("MESSAGE ("))
            .collect();
        // Every round's lines start with different moves.
        let first_move = |m: &str| {
            m.rsplit(" | ")
                .next()
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string()
        };
        let rounds: Vec<&[&str]> = messages.chunk_by(|_, b| !b.starts_with("1)")).collect();
        assert!(rounds.iter().any(|r| r.len() == 3), "{messages:?}");
        for round in &rounds {
            let mut firsts: Vec<String> = round.iter().map(|m| first_move(m)).collect();
            firsts.sort();
            firsts.dedup();
            assert_eq!(firsts.len(), round.len(), "{round:?}");
        }
        // The move played is the last round's first line.
        let played = answer(&out);
        assert_eq!(e.moves.len(), 4);
        assert_eq!(e.moves[3], played);
        let last_first = rounds.last().unwrap()[0];
        assert_eq!(first_move(last_first), point_name(played), "{out:?}");
    }

    #[test]
    fn yixin_blocked_points_are_never_played() {
        // Black (this brain) wins at g8 (6,7) or l8 (11,7).
        let mut e = session_engine(&["START 15", "INFO timeout_turn 200"]);
        let board = [
            "YXBOARD", "7,7,1", "0,14,2", "8,7,1", "0,12,2", "9,7,1", "0,10,2", "10,7,1", "0,8,2",
            "DONE",
        ];
        step_lines(&mut e, &board);
        assert!(step_lines(&mut e, &["YXBLOCK", "6,7", "11,7,1", "DONE"]).is_empty());
        let mv = answer(&step(&mut e, "YXNBEST 1"));
        assert!(![xy_to_point(6, 7), xy_to_point(11, 7)].contains(&Some(mv)));
        step_lines(&mut e, &board);
        assert!(step_lines(&mut e, &["YXBLOCKUNDO", "11,7", "DONE"]).is_empty());
        assert_eq!(Some(answer(&step(&mut e, "YXNBEST 1"))), xy_to_point(11, 7));
        step_lines(&mut e, &board);
        step(&mut e, "YXBLOCKRESET");
        let mv = answer(&step(&mut e, "YXNBEST 1"));
        assert!([xy_to_point(6, 7), xy_to_point(11, 7)].contains(&Some(mv)));
        // Bad points are errors and change nothing.
        let out = step_lines(&mut e, &["YXBLOCK", "6,7", "15,3", "DONE"]);
        assert!(out[0].starts_with("ERROR YXBLOCK"), "{out:?}");
        assert!(e.blocked.is_empty());
        let mut lines = vec!["YXBLOCK".to_string()];
        lines.extend((0..17).map(|i| format!("{},{}", i % 15, i / 15)));
        lines.push("DONE".into());
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let out = step_lines(&mut e, &lines);
        assert!(out[0].starts_with("ERROR YXBLOCK: at most 16"), "{out:?}");
    }

    #[test]
    fn balance_places_stones_near_the_given_score() {
        let mut e = engine();
        for line in ["START 15", "INFO timeout_turn 200"] {
            step(&mut e, line);
        }
        // One stone on the empty board: a central point (the candidates), played.
        let out = step(&mut e, "YXBALANCEONE 0");
        let p = parse_xy(out.last().unwrap()).unwrap();
        assert_eq!(e.moves, [p]);
        assert!(balance_candidates(&Gomoku::new(Rule::Free)).contains(&p));
        // Two stones: the side to move's, then the opponent's, both played.
        let out = step(&mut e, "YXBALANCETWO 0");
        let two: Vec<Point> = out
            .last()
            .unwrap()
            .split(' ')
            .map(|xy| parse_xy(xy).unwrap())
            .collect();
        assert_eq!(two.len(), 2, "{out:?}");
        assert_eq!(e.moves[1..], two[..]);
        // A position where one move wins: balancing near a win picks the five.
        let mut e = session_engine(&[
            "START 15", "YXBOARD", "3,7,1", "3,0,2", "4,7,1", "3,2,2", "5,7,1", "3,4,2", "6,7,1",
            "3,14,2", "DONE",
        ]);
        assert_eq!(e.moves.len(), 8);
        let win = parse_xy(step(&mut e, "YXBALANCEONE 30000").last().unwrap()).unwrap();
        assert!(
            [parse_xy("2,7").unwrap(), parse_xy("7,7").unwrap()].contains(&win),
            "{win}"
        );
        assert!(step(&mut e, "YXBALANCEONE x")[0].starts_with("ERROR YXBALANCEONE"));
    }

    #[test]
    fn begin_turn_and_bad_input_keep_the_game() {
        let mut e = engine();
        assert_eq!(step(&mut e, "START 15"), ["OK"]);
        assert!(step(&mut e, "INFO max_node 10000").is_empty());
        let first = answer(&step(&mut e, "BEGIN"));
        assert_eq!(e.moves, [first]);
        // Off the board, unreadable, on a stone: ERROR, and nothing changes.
        let (x, y) = point_to_xy(first);
        for bad in [
            "TURN 15,3".to_string(),
            "TURN 3".to_string(),
            format!("TURN {x},{y}"),
        ] {
            let out = step(&mut e, &bad);
            assert_eq!(out.len(), 1, "{out:?}");
            assert!(out[0].starts_with("ERROR TURN "), "{bad}: {out:?}");
            assert_eq!(e.moves, [first]);
        }
        assert!(step(&mut e, "BEGIN")[0].starts_with("ERROR "));
        let reply = answer(&step(&mut e, "TURN 0,0"));
        assert_eq!(e.moves.len(), 3);
        assert_eq!(e.moves[2], reply);
        assert!(e.position().unwrap().at(reply).is_some());
    }

    #[test]
    fn level_comes_from_the_flag_or_info() {
        let mut e = engine().with_level(2);
        assert_eq!(e.level, 2);
        assert!(step(&mut e, "INFO level 1").is_empty());
        assert_eq!(e.level, 1);
        assert!(step(&mut e, "INFO level 7")[0].starts_with("ERROR INFO level"));
        assert_eq!(e.level, 1);
        // Level 1 (pattern) answers the opening at the centre, like every level.
        assert_eq!(step(&mut e, "START 15"), ["OK"]);
        let out = step(&mut e, "BEGIN");
        assert!(out.iter().any(|l| l == "7,7"), "{out:?}");
    }

    /// The brain (black, via BEGIN) against a scripted opponent that only plays far from
    /// the centre and never two stones next to each other: the brain makes five.
    #[test]
    fn whole_game_against_a_scripted_opponent_ends_in_five() {
        let mut e = engine();
        step(&mut e, "START 15");
        step(&mut e, "INFO rule 1");
        // A node budget keeps the debug build's game short (a search with no limit
        // uses the level's whole budget on every move).
        step(&mut e, "INFO max_node 10000");
        let mut reply = step(&mut e, "BEGIN");
        let mut script = (0..15u8)
            .step_by(2)
            .flat_map(|y| (0..15u8).step_by(2).map(move |x| (x, y)));
        for _ in 0..60 {
            let ours = answer(&reply);
            let pos = e.position().unwrap();
            assert_eq!(pos.last_move(), Some(ours));
            if pos.outcome().is_some() {
                assert!(pos.winning_line().is_some());
                assert_eq!(pos.at(ours), Some(BLACK));
                // The manager would stop here; asked anyway, the brain declines.
                let (x, y) = script
                    .find(|&(x, y)| pos.at(xy_to_point(x, y).unwrap()).is_none())
                    .unwrap();
                assert!(step(&mut e, &format!("TURN {x},{y}"))[0].starts_with("ERROR "));
                return;
            }
            let (x, y) = script
                .find(|&(x, y)| pos.at(xy_to_point(x, y).unwrap()).is_none())
                .unwrap();
            reply = step(&mut e, &format!("TURN {x},{y}"));
            assert!(reply[0].starts_with("MESSAGE "), "{reply:?}");
        }
        panic!("no five after 60 moves: {:?}", e.position());
    }

    /// Two brains play each other through TURN until one makes five or the board is
    /// full (a draw: two equal brains, each searching little on a loaded machine, can
    /// defend to the end); asked for a move after it, the other brain answers that the
    /// game is over.
    #[test]
    fn two_brains_play_a_whole_game() {
        let (mut black, mut white) = (engine(), engine());
        for e in [&mut black, &mut white] {
            assert_eq!(step(e, "START 15"), ["OK"]);
            // 50 ms a move: a whole game in a few seconds of a debug build.
            assert!(step(e, "INFO timeout_turn 100").is_empty());
        }
        let mut mv = answer(&step(&mut black, "BEGIN"));
        let mut sides = [white, black];
        for ply in 1..=225 {
            let (x, y) = point_to_xy(mv);
            let out = step(&mut sides[0], &format!("TURN {x},{y}"));
            let pos = sides[1].position().unwrap();
            if let Some(outcome) = pos.outcome() {
                assert!(out[0].starts_with("ERROR the game is over"), "{out:?}");
                // A win has its five; a draw is the full board (the stone count below).
                assert!(matches!(outcome, Outcome::Draw) || pos.winning_line().is_some());
                assert_eq!(sides[0].position().unwrap(), pos);
                // Every stone went through TURN or an answer.
                assert_eq!(usize::from(pos.stones()), ply);
                return;
            }
            mv = answer(&out);
            sides.swap(0, 1);
        }
        panic!("the game did not end");
    }

    #[test]
    fn renju_black_without_a_legal_move_is_told_so() {
        // A renju game whose board is full but for one point, forbidden to black.
        let moves = include_str!("matches/testdata/renju-one-forbidden-point.txt");
        let mut commands = vec!["START 15".to_string(), "INFO rule 4".into(), "BOARD".into()];
        for (i, m) in moves.split_whitespace().enumerate() {
            let (x, y) = point_to_xy(parse_point(m).unwrap());
            // Equal counts: the brain is black (field 1).
            commands.push(format!("{x},{y},{}", 1 + i % 2));
        }
        commands.extend(["DONE".into(), "END".into()]);
        let commands: Vec<&str> = commands.iter().map(String::as_str).collect();
        let out = session(&commands);
        let last = out.lines().last().unwrap();
        assert!(
            last.starts_with("ERROR no legal move: every empty point is forbidden"),
            "{out}"
        );
    }

    #[test]
    fn board_answers_a_legal_move_and_orders_the_stones() {
        // Own (1) and opponent (2) stones in any order; equal counts: the brain is black,
        // with an open four (4..7 on y=7) to finish at 3,7 or 8,7.
        let out = session(&[
            "START 15", "BOARD", "4,7,1", "0,0,2", "5,7,1", "0,2,2", "6,7,1", "0,4,2", "7,7,1",
            "0,6,2", "DONE", "END",
        ]);
        let last = out.lines().last().unwrap();
        assert!(["3,7", "8,7"].contains(&last), "{out}");
        // Opponent has one more stone: the brain is white and must block the four.
        let out = session(&[
            "START 15", "BOARD", "4,7,2", "5,7,2", "6,7,2", "7,7,2", "0,0,1", "0,2,1", "14,14,1",
            "2,0,1", "0,14,2", "DONE", "END",
        ]);
        let last = out.lines().last().unwrap();
        assert!(["3,7", "8,7"].contains(&last), "{out}");
        // Impossible counts, a bad line, a stone twice: ERROR, and the brain goes on.
        let out = session(&[
            "START 15", "BOARD", "4,7,1", "5,7,1", "DONE", "BOARD", "4,7,1", "4,7,9", "DONE",
            "BOARD", "4,7,1", "4,7,2", "DONE", "BOARD", "DONE", "END",
        ]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines
                .iter()
                .filter(|l| l.starts_with("ERROR BOARD"))
                .count(),
            3,
            "{out}"
        );
        assert_eq!(lines.last(), Some(&"7,7"), "{out}");
    }

    #[test]
    fn games_of_any_length_are_played() {
        // Colour by (col + 2 row) mod 4: no five anywhere. 70 stones of each colour:
        // the position goes packed (2 bits a point) in one request line.
        let colour = |q: Point| (q % 15 + 2 * (q / 15)) % 4 >= 2;
        let black: Vec<Point> = (0..225u8).filter(|&q| !colour(q)).take(70).collect();
        let white: Vec<Point> = (0..225u8).filter(|&q| colour(q)).take(70).collect();
        let mut commands = vec!["START 15".to_string(), "BOARD".to_string()];
        for (stones, field) in [(&black, 1), (&white, 2)] {
            for &p in stones {
                let (x, y) = point_to_xy(p);
                commands.push(format!("{x},{y},{field}"));
            }
        }
        commands.extend(["DONE", "ABOUT", "END"].map(String::from));
        let refs: Vec<&str> = commands.iter().map(String::as_str).collect();
        let out = session(&refs);
        let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
        assert_eq!(lines.len(), 3, "{out}");
        let (x, y) = lines[1].split_once(',').expect("a move");
        let p = xy_to_point(x.parse().unwrap(), y.parse().unwrap()).expect("on the board");
        assert!(!black.contains(&p) && !white.contains(&p), "{out}");
        assert!(lines[2].starts_with("name="), "{out}");
    }

    /// `recursive_double_three #7` of testdata/renju_forbidden.txt (mintaka's tests,
    /// cross-checked with Rapfi): black's forbidden points are the four `3`s. Four white
    /// stones in the corners make the counts those of a game with black to move.
    #[test]
    fn yxboard_and_yxshowforbid_under_renju() {
        let text = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/renju_forbidden.txt"
        ));
        let case = text
            .split("# ")
            .find(|c| c.starts_with("recursive_double_three #7"))
            .unwrap();
        // YXBOARD lines with black's and white's fields and the given corner stones for white.
        let yxboard = |black: u8, white: u8, corners: &[(u8, u8)]| {
            let mut lines = vec!["YXBOARD".to_string()];
            for line in case.lines().skip(1).filter(|l| !l.trim().is_empty()) {
                let (row, cells) = line.trim_start().split_once(' ').unwrap();
                let y = 15 - row.parse::<u8>().unwrap();
                for (x, c) in cells.bytes().enumerate() {
                    match c {
                        b'X' => lines.push(format!("{x},{y},{black}")),
                        b'O' => lines.push(format!("{x},{y},{white}")),
                        _ => {}
                    }
                }
            }
            lines.extend(corners.iter().map(|(x, y)| format!("{x},{y},{white}")));
            lines.push("DONE".into());
            lines
        };
        let mut expected = Vec::new();
        for line in case.lines().skip(1).filter(|l| !l.trim().is_empty()) {
            let (row, cells) = line.trim_start().split_once(' ').unwrap();
            let y = 15 - row.parse::<u8>().unwrap();
            for (x, c) in cells.bytes().enumerate() {
                if matches!(c, b'3' | b'4' | b'6') {
                    expected.push(format!("{x:02}{y:02}"));
                }
            }
        }
        assert_eq!(expected.len(), 4);
        let mut commands = vec!["INFO rule 4".to_string(), "START 15".into()];
        // 12 black and 12 white stones: black (the brain, field 1) to move.
        commands.extend(yxboard(1, 2, &[(0, 0), (14, 0), (0, 14), (14, 14)]));
        commands.push("YXSHOWFORBID".into());
        // Free rule: no forbidden points.
        commands.extend(["INFO rule 0", "YXSHOWFORBID", "INFO rule 4"].map(String::from));
        // 12 black and 11 white stones: white (now the brain, field 1) to move; like Rapfi,
        // the list is empty when black is not to move.
        commands.extend(yxboard(2, 1, &[(0, 0), (14, 0), (0, 14)]));
        commands.extend(["YXSHOWFORBID", "END"].map(String::from));
        let refs: Vec<&str> = commands.iter().map(String::as_str).collect();
        let out = session(&refs);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 4, "{out}");
        assert_eq!(lines[0], "OK", "{out}");
        let body = lines[1]
            .strip_prefix("FORBID ")
            .and_then(|b| b.strip_suffix('.'))
            .unwrap_or_else(|| panic!("{out}"));
        assert_eq!(body.len(), 16, "{out}");
        let mut got: Vec<String> = (0..4).map(|i| body[i * 4..i * 4 + 4].to_string()).collect();
        got.sort();
        expected.sort();
        assert_eq!(got, expected, "{out}");
        assert_eq!(lines[2..], ["FORBID .", "FORBID ."], "{out}");
    }

    /// A Gomocup command, valid or not: the protocol's words with numbers in and
    /// out of range, board lines, INFO keys, and lines of random printable text.
    fn command_line() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let num = || prop_oneof![(-2i32..18).prop_map(|n| n.to_string()), "[0-9a-z,-]{0,4}"];
        prop_oneof![
            Just("START 15".to_string()),
            num().prop_map(|n| format!("START {n}")),
            (num(), num()).prop_map(|(a, b)| format!("RECTSTART {a},{b}")),
            Just("BEGIN".to_string()),
            (num(), num()).prop_map(|(a, b)| format!("TURN {a},{b}")),
            (0u8..15, 0u8..15).prop_map(|(a, b)| format!("TURN {a},{b}")),
            Just("BOARD".to_string()),
            Just("YXBOARD".to_string()),
            (num(), num(), num()).prop_map(|(a, b, c)| format!("{a},{b},{c}")),
            (0u8..15, 0u8..15, 1u8..4).prop_map(|(a, b, c)| format!("{a},{b},{c}")),
            Just("DONE".to_string()),
            Just("RESTART".to_string()),
            Just("YXSHOWFORBID".to_string()),
            Just("ABOUT".to_string()),
            (num(), num()).prop_map(|(a, b)| format!("TAKEBACK {a},{b}")),
            num().prop_map(|n| format!("YXNBEST {n}")),
            Just("YXHASHCLEAR".to_string()),
            Just("YXBLOCK".to_string()),
            Just("YXBLOCKUNDO".to_string()),
            Just("YXBLOCKRESET".to_string()),
            (num(), num()).prop_map(|(a, b)| format!("{a},{b}")),
            (0u8..15, 0u8..15).prop_map(|(a, b)| format!("{a},{b}")),
            (
                prop_oneof![
                    Just("timeout_turn"),
                    Just("timeout_match"),
                    Just("time_left"),
                    Just("rule"),
                    Just("max_memory"),
                    Just("show_detail"),
                    Just("bogus")
                ],
                num()
            )
                .prop_map(|(k, v)| format!("INFO {k} {v}")),
            "[ -~]{0,24}".prop_filter("not END", |l| !l.trim().eq_ignore_ascii_case("END")),
        ]
    }

    #[test]
    fn swap2_places_three_stones_then_chooses() {
        let mut e = engine();
        assert_eq!(step(&mut e, "START 15"), ["OK"]);
        // No stones: the DONE comes through the channel.
        let (tx, rx) = mpsc::channel();
        tx.send("DONE".to_string()).unwrap();
        e.out.clear();
        e.command("SWAP2BOARD", &rx).unwrap();
        let out = String::from_utf8(e.out.clone()).unwrap();
        let placed: Vec<Point> = out
            .trim()
            .split(' ')
            .map(|xy| parse_xy(xy).unwrap_or_else(|err| panic!("{err}: {out}")))
            .collect();
        assert_eq!(placed.len(), 3, "{out}");
        assert_eq!(e.moves, placed);
        // Three stones given: a white move or SWAP.
        let (tx, rx) = mpsc::channel();
        for line in ["7,7", "8,8", "9,9", "DONE"] {
            tx.send(line.to_string()).unwrap();
        }
        e.out.clear();
        e.command("SWAP2BOARD", &rx).unwrap();
        let out = String::from_utf8(e.out.clone()).unwrap();
        let answer = out.trim();
        // Black's two stones on a diagonal with white's between them: the engine
        // scores white about 40–100 behind, around the "clearly better" line, and
        // its short timed search lands on either side. Either answer must keep
        // the game: `SWAP` leaves the three stones, a move is added as white's.
        if answer == "SWAP" {
            assert_eq!(e.moves.len(), 3, "{out}");
        } else {
            let mv = parse_xy(answer).unwrap_or_else(|err| panic!("{err}: {out}"));
            assert_eq!(e.moves.len(), 4);
            assert_eq!(e.moves[3], mv);
        }
        // A bad count is an error, and the brain goes on.
        let (tx, rx) = mpsc::channel();
        for line in ["7,7", "DONE"] {
            tx.send(line.to_string()).unwrap();
        }
        e.out.clear();
        e.command("SWAP2BOARD", &rx).unwrap();
        assert!(
            String::from_utf8(e.out.clone())
                .unwrap()
                .starts_with("ERROR ")
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]
        /// Whatever the manager sends (after `START 15`), the brain never panics, every line it
        /// writes is a protocol reply, and it still answers `ABOUT` at the end.
        #[test]
        fn any_command_sequence_is_survived(
            lines in proptest::collection::vec(command_line(), 0..24),
        ) {
            let mut commands = vec!["START 15"];
            commands.extend(lines.iter().map(String::as_str));
            // Closes a BOARD block left open, then asks for the brain's name.
            commands.extend(["DONE", "ABOUT"]);
            let e = session_engine(&commands);
            // Whatever happened, the brain's game is a legal one.
            proptest::prop_assert!(e.position().is_ok(), "{:?}", e.moves);
            proptest::prop_assert!(e.blocked.len() <= MAX_EXCLUDE, "{:?}", e.blocked);
            let out = String::from_utf8(e.out).unwrap();
            for line in out.lines() {
                let reply = ["OK", "ERROR", "MESSAGE", "DEBUG", "UNKNOWN", "FORBID", "INFO ", "name="]
                    .iter()
                    .any(|w| line.starts_with(w))
                    || line.split_once(',').is_some_and(|(x, y)| {
                        x.parse::<u8>().is_ok_and(|x| x < 15) && y.parse::<u8>().is_ok_and(|y| y < 15)
                    });
                proptest::prop_assert!(reply, "{line:?} in {out}");
            }
            proptest::prop_assert!(out.lines().last().is_some_and(|l| l.starts_with("name=")), "{out}");
        }
    }
}
