//! `sente engine xiangqi`: the host engine or a board as a UCI (or UCCI) xiangqi engine.
//!
//! Speaks UCI as Pikafish and Fairy-Stockfish do for xiangqi (`position startpos|fen … moves …`,
//! `go depth|nodes|movetime|wtime/btime…|infinite|perft N`, `stop`, `bestmove`), and UCCI when
//! the first command is `ucci`. Each `go` becomes one protocol v1 request to the board, which
//! gets the whole position; `stop` is passed on while it searches.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use sente_firmware::game::{Game, MATE, MATE_BOUND, Notation};
use sente_firmware::games::xiangqi::Xiangqi;
use sente_firmware::games::xiangqi::board::Move;

use crate::engine::EngineLink;
use crate::reply::{BestMove, ReplyLine};

/// Longest request line the board reads.
const MAX_LINE: usize = sente_firmware::protocol::MAX_LINE;

/// The game so far, as the GUI gave it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GamePosition {
    /// `startpos` or a FEN.
    pub root: String,
    /// ICCS moves from the root.
    pub moves: Vec<String>,
}

impl GamePosition {
    /// Reads the arguments of `position` (`startpos …` or `fen <fen> …`, then `moves …`).
    pub fn parse(args: &str) -> Result<Self, String> {
        let (head, moves) = match args.split_once("moves") {
            Some((h, m)) => (h.trim(), m.split_whitespace().map(str::to_string).collect()),
            None => (args.trim(), Vec::new()),
        };
        let root = if head == "startpos" {
            "startpos".to_string()
        } else if let Some(fen) = head.strip_prefix("fen ") {
            fen.trim().to_string()
        } else {
            return Err(format!("position: expected startpos or fen, got {head:?}"));
        };
        let pos = Self { root, moves };
        pos.game(pos.moves.len())?;
        Ok(pos)
    }

    /// The library's game after the first `played` moves.
    pub fn game(&self, played: usize) -> Result<Xiangqi, String> {
        let mut game = Xiangqi::parse_position(&self.root).map_err(|e| format!("position: {e}"))?;
        for m in &self.moves[..played] {
            let mv = game.parse_move(m).map_err(|e| format!("move {m}: {e}"))?;
            game.make(mv);
        }
        Ok(game)
    }

    /// The position text for a request: the root and every move when they fit in a request
    /// line, else the FEN reached earlier plus as many recent moves as fit (the board's
    /// repetition detection sees those).
    pub fn wire(&self, head: &str) -> Result<String, String> {
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
            if head.len() + 5 + text.len() <= MAX_LINE {
                return Ok(text);
            }
        }
        Err("position does not fit a request line".into())
    }

    /// Red (0) or black (1) to move.
    pub fn side_to_move(&self) -> Result<u8, String> {
        Ok(self.game(self.moves.len())?.player_to_move())
    }
}

/// UCI's score text: centipawns, or mate in moves (negative when being mated).
pub fn score_text(score: i32) -> String {
    if score.abs() >= MATE_BOUND {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

/// Time for one move from the clock fields of `go` (milliseconds).
fn budget(words: &[&str], side: u8) -> Option<u64> {
    let field = |key: &str| -> Option<u64> {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse().ok())
    };
    if let Some(ms) = field("movetime") {
        return Some(ms);
    }
    let (time, inc) = if side == 0 {
        ("wtime", "winc")
    } else {
        ("btime", "binc")
    };
    // UCCI: `go time T increment I` is the mover's clock.
    let left = field(time).or_else(|| field("time"))?;
    let inc = field(inc).or_else(|| field("increment")).unwrap_or(0);
    let to_go = field("movestogo").unwrap_or(30).max(1);
    Some(
        (left / to_go + inc * 3 / 4)
            .min(left.saturating_sub(50))
            .max(10),
    )
}

/// The engine loop.
pub struct UciEngine<W: Write> {
    link: EngineLink,
    out: W,
    position: GamePosition,
    level: u8,
    ucci: bool,
    /// Commands that arrived while the board searched, to run after it.
    pending: VecDeque<String>,
}

impl<W: Write> UciEngine<W> {
    /// An engine over `link`, writing to `out`.
    pub fn new(link: EngineLink, out: W) -> Self {
        Self {
            link,
            out,
            position: GamePosition {
                root: "startpos".into(),
                moves: Vec::new(),
            },
            level: 0,
            ucci: false,
            pending: VecDeque::new(),
        }
    }

    fn say(&mut self, line: &str) -> io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    /// Handles commands from `input` until `quit` or its end.
    pub fn run(&mut self, input: Receiver<String>) -> io::Result<()> {
        loop {
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
                self.say("option name Level type spin default 0 min 0 max 2")?;
                self.say(if self.ucci { "ucciok" } else { "uciok" })?;
            }
            "isready" => self.say("readyok")?,
            "ucinewgame" => {
                self.position = GamePosition {
                    root: "startpos".into(),
                    moves: Vec::new(),
                }
            }
            "setoption" => {
                let words: Vec<&str> = rest.split_whitespace().collect();
                if let Some(i) = words.iter().position(|w| w.eq_ignore_ascii_case("value"))
                    && words.iter().any(|w| w.eq_ignore_ascii_case("level"))
                {
                    match words.get(i + 1).and_then(|v| v.parse().ok()) {
                        Some(level) if level <= 2 => self.level = level,
                        _ => self.say("info string Level must be 0, 1 or 2")?,
                    }
                }
            }
            "position" => match GamePosition::parse(rest) {
                Ok(p) => self.position = p,
                Err(e) => self.say(&format!("info string {e}"))?,
            },
            "go" => self.go(rest, input)?,
            "stop" | "ponderhit" => {}
            "quit" => {
                if self.ucci {
                    self.say("bye")?;
                }
                return Ok(false);
            }
            _ => self.say(&format!("info string unknown command: {word}"))?,
        }
        Ok(true)
    }

    fn go(&mut self, args: &str, input: &Receiver<String>) -> io::Result<()> {
        let words: Vec<&str> = args.split_whitespace().collect();
        if words.first() == Some(&"perft") {
            let depth = words.get(1).and_then(|d| d.parse().ok()).unwrap_or(1);
            return self.perft(depth);
        }
        let number = |key: &str| -> Option<u64> {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1))
                .and_then(|v| v.parse().ok())
        };
        let mut head = format!("go xiangqi info=1 level={}", self.level);
        if let Some(d) = number("depth") {
            head.push_str(&format!(" depth={}", d.min(255)));
        }
        if let Some(n) = number("nodes") {
            head.push_str(&format!(" nodes={n}"));
        }
        let infinite = words.contains(&"infinite");
        let side = self.position.side_to_move().unwrap_or(0);
        // The board's clock may be slower than the GUI's; the host keeps the deadline too.
        let deadline = budget(&words, side).filter(|_| !infinite);
        if let Some(ms) = deadline {
            head.push_str(&format!(" movetime={ms}"));
        }
        let wire = match self.position.wire(&head) {
            Ok(w) => w,
            Err(e) => return self.say(&format!("info string {e}")),
        };
        let line = format!("{head} pos {wire}");
        if let Err(e) = self.link.board().send_line(&line) {
            self.say(&format!("info string board gone: {e}"))?;
            return self.say("bestmove (none)");
        }
        let start = Instant::now();
        let mut stop_sent = false;
        let mut infos = 0;
        loop {
            // `stop` (or `quit`) from the GUI while the board searches.
            // Commands run in order: only the one at the front of the queue may act on
            // this search (`stop`, `quit`, `isready`); the rest wait for it to finish.
            while let Ok(cmd) = input.try_recv() {
                self.pending.push_back(cmd);
            }
            match self.pending.front().map(|c| c.trim()) {
                Some("isready") => {
                    self.pending.pop_front();
                    self.say("readyok")?;
                }
                Some(cmd @ ("stop" | "quit")) => {
                    if cmd == "stop" {
                        self.pending.pop_front();
                    }
                    if !stop_sent {
                        let _ = self.link.board().send_line("stop");
                        stop_sent = true;
                    }
                }
                _ => {}
            }
            let text = match self.link.board().recv_line(Duration::from_millis(20)) {
                Ok(Some(t)) => t,
                Ok(None) => continue,
                Err(e) => {
                    self.say(&format!("info string board gone: {e}"))?;
                    return self.say("bestmove (none)");
                }
            };
            let reply = ReplyLine::parse(&text);
            if let Some(b) = BestMove::from_line(&reply) {
                let last = reply.kind == "bestmove";
                if last && infos > 0 {
                    let mv = if b.best == "none" {
                        "(none)".to_string()
                    } else {
                        b.best
                    };
                    return self.say(&format!("bestmove {mv}"));
                }
                infos += 1;
                let ms = start.elapsed().as_millis();
                let nps = (b.nodes as u128 * 1000).checked_div(ms.max(1)).unwrap_or(0);
                let pv = if b.pv.is_empty() {
                    String::new()
                } else {
                    format!(" pv {}", b.pv.join(" "))
                };
                self.say(&format!(
                    "info depth {} score {} nodes {} time {ms} nps {nps}{pv}",
                    b.depth,
                    score_text(b.score),
                    b.nodes
                ))?;
                if last {
                    let mv = if b.best == "none" {
                        "(none)".to_string()
                    } else {
                        b.best
                    };
                    return self.say(&format!("bestmove {mv}"));
                }
            } else if let Some((code, message)) = reply.error() {
                if code == "busy" {
                    continue;
                }
                self.say(&format!("info string board: {code} {message}"))?;
                return self.say("bestmove (none)");
            }
        }
    }

    /// `go perft N`: each root move with its count, then the total (Stockfish's format).
    fn perft(&mut self, depth: u8) -> io::Result<()> {
        let game = match self.position.game(self.position.moves.len()) {
            Ok(g) => g,
            Err(e) => return self.say(&format!("info string {e}")),
        };
        let mut moves = <Xiangqi as Game>::Moves::default();
        game.generate(&mut moves);
        let root_moves: Vec<Move> = moves.iter().copied().collect();
        let mut total = 0u64;
        for mv in root_moves {
            let mut text = String::new();
            let _ = game.write_move(mv, &mut text);
            let count = if depth <= 1 {
                1
            } else {
                let mut child = self.position.clone();
                child.moves.push(text.clone());
                let head = format!("perft xiangqi depth={}", depth - 1);
                let line = match child.wire(&head) {
                    Ok(w) => format!("{head} pos {w}"),
                    Err(e) => return self.say(&format!("info string {e}")),
                };
                match self
                    .link
                    .exchange(&line, crate::engine::DEFAULT_TIMEOUT, &mut |_| {})
                {
                    Ok(lines) => match lines.last().and_then(|l| l.num::<u64>("nodes")) {
                        Some(n) => n,
                        None => {
                            return self.say(&format!(
                                "info string board: {:?}",
                                lines.last().map(|l| &l.raw)
                            ));
                        }
                    },
                    Err(e) => return self.say(&format!("info string board: {e}")),
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
mod tests {
    use super::*;
    use crate::board::HostBoard;
    use std::sync::mpsc;

    fn session(commands: &[&str]) -> String {
        let (tx, rx) = mpsc::channel();
        for c in commands {
            tx.send(c.to_string()).unwrap();
        }
        drop(tx);
        let mut out = Vec::new();
        UciEngine::new(EngineLink::new(Box::new(HostBoard::new())), &mut out)
            .run(rx)
            .unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn scripted_uci_session_with_perft_and_search() {
        let out = session(&[
            "uci",
            "isready",
            "position startpos",
            "go perft 3",
            "position startpos moves h2e2 h9g7",
            "go depth 2",
            "setoption name Level value 2",
            "position fen 4k4/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1",
            "go depth 2",
            "quit",
        ]);
        assert!(out.starts_with("id name Sente xiangqi (host)\n"), "{out}");
        assert!(out.contains("uciok\nreadyok\n"), "{out}");
        assert!(out.contains("h2e2: "), "{out}");
        assert!(out.contains("\nNodes searched: 79666\n"), "{out}");
        assert_eq!(
            out.lines()
                .filter(|l| l.contains(": ") && !l.starts_with("Nodes"))
                .count(),
            44
        );
        assert!(out.contains("score mate 1"), "{out}");
        assert!(out.contains("bestmove f0f8\n"), "{out}");
        assert_eq!(out.matches("bestmove ").count(), 2, "{out}");
    }

    #[test]
    fn ucci_handshake_and_bad_input_keep_the_engine_alive() {
        let out = session(&[
            "ucci",
            "position fen nonsense",
            "flip",
            "go depth 1",
            "quit",
        ]);
        assert!(out.contains("ucciok"), "{out}");
        assert!(out.contains("info string position:"), "{out}");
        assert!(out.contains("info string unknown command: flip"), "{out}");
        assert!(out.contains("bestmove "), "{out}");
        assert!(out.trim_end().ends_with("bye"), "{out}");
    }

    #[test]
    fn long_games_send_a_fen_and_recent_moves() {
        let mut pos = GamePosition::parse("startpos").unwrap();
        // Horses out and back, repeatedly: a long legal game.
        for _ in 0..12 {
            pos.moves
                .extend(["h0g2", "h9g7", "g2h0", "g7h9"].map(String::from));
        }
        let head = "go xiangqi info=1 level=0";
        let wire = pos.wire(head).unwrap();
        assert!(head.len() + 5 + wire.len() <= MAX_LINE);
        assert!(wire.contains(" moves "), "{wire}");
        let sent = Xiangqi::parse_position(&wire).unwrap();
        let whole = pos.game(pos.moves.len()).unwrap();
        assert_eq!(sent.position().key(), whole.position().key());
    }

    #[test]
    fn scores_and_clocks() {
        assert_eq!(score_text(35), "cp 35");
        assert_eq!(score_text(MATE - 1), "mate 1");
        assert_eq!(score_text(-(MATE - 2)), "mate -1");
        assert_eq!(budget(&["movetime", "500"], 0), Some(500));
        assert_eq!(budget(&["wtime", "60000", "btime", "1000"], 0), Some(2000));
        assert_eq!(budget(&["wtime", "60000", "btime", "3000"], 1), Some(100));
        assert_eq!(budget(&["depth", "3"], 0), None);
    }

    /// A UCI/UCCI command, valid or not: positions from the start or from a
    /// FEN with random edits, legal and illegal moves, bounded searches,
    /// options, and lines of random printable text (none a search without a
    /// bound: `go` alone would think until `stop`).
    fn command_line() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        let moves = proptest::collection::vec(
            prop_oneof![
                Just("h2e2"),
                Just("h9g7"),
                Just("b0c2"),
                Just("c3c4"),
                Just("h7h0"),
                Just("e0e1"),
                Just("a0a1"),
                Just("i9i8"),
                Just("zz99"),
                Just("e9e8"),
            ],
            0..8,
        )
        .prop_map(|m| m.join(" "));
        let fen = proptest::collection::vec((0usize..80, proptest::char::range('0', 'z')), 0..4)
            .prop_map(|edits| {
                let mut fen: Vec<char> = START.chars().collect();
                for (at, c) in edits {
                    let at = at % fen.len();
                    fen[at] = c;
                }
                fen.into_iter().collect::<String>()
            });
        prop_oneof![
            Just("uci".to_string()),
            Just("ucci".to_string()),
            Just("isready".to_string()),
            Just("ucinewgame".to_string()),
            (0u8..5).prop_map(|n| format!("setoption name Level value {n}")),
            moves
                .clone()
                .prop_map(|m| format!("position startpos moves {m}")),
            (fen, moves).prop_map(|(f, m)| format!("position fen {f} moves {m}")),
            (1u8..3).prop_map(|d| format!("go depth {d}")),
            (1u32..400).prop_map(|n| format!("go nodes {n}")),
            (1u32..20).prop_map(|t| format!("go movetime {t}")),
            (1u8..3).prop_map(|d| format!("go perft {d}")),
            (0u32..3000, 0u32..3000)
                .prop_map(|(w, b)| format!("go wtime {w} btime {b} winc 0 binc 0")),
            Just("stop".to_string()),
            "[ -~]{0,24}".prop_filter("no unbounded search, no quit", |l| {
                let l = l.trim_start();
                !l.starts_with("go") && !l.starts_with("quit")
            }),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]
        /// Whatever the GUI sends, the adapter never panics or hangs, and it
        /// answers every `isready`, the last one included (a search still
        /// running answers it at once, as UCI asks).
        #[test]
        fn any_command_sequence_is_survived(
            lines in proptest::collection::vec(command_line(), 0..20),
        ) {
            let mut commands: Vec<&str> = lines.iter().map(String::as_str).collect();
            commands.push("isready");
            let out = session(&commands);
            // Every `isready` is answered once (during a search too, at once).
            let asked = commands.iter().filter(|c| c.trim() == "isready").count();
            let answered = out.lines().filter(|l| *l == "readyok").count();
            proptest::prop_assert_eq!(asked, answered, "{}", out);
        }
    }
}
