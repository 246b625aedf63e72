//! An external UCI or UCCI xiangqi engine (Pikafish, Fairy-Stockfish, ElephantEye, …)
//! as a [`Player`]: `position startpos moves …` with ICCS moves (ranks 0–9, as those
//! engines speak), `go` with the turn's limits or clocks, `bestmove` back.

use std::time::Duration;

use sente_firmware::game::MATE;

use super::process::Process;
use super::{Player, Turn, TurnTime};
use crate::engine::{EngineError, Watch};
use crate::reply::BestMove;

/// Which of the two protocols the engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI (Pikafish, Fairy-Stockfish).
    Uci,
    /// UCCI (ElephantEye and its kin).
    Ucci,
}

/// How long an engine may take to say it is ready.
const HANDSHAKE: Duration = Duration::from_secs(20);

/// A running UCI/UCCI engine.
pub struct UciPlayer {
    process: Process,
    dialect: Dialect,
    name: String,
}

impl UciPlayer {
    /// Starts `command` and does the handshake (`uci`/`ucci` … `uciok`/`ucciok`, `isready`).
    pub fn start(command: &str, dialect: Dialect) -> anyhow::Result<Self> {
        let mut process = Process::start(command)?;
        let (hello, ok) = match dialect {
            Dialect::Uci => ("uci", "uciok"),
            Dialect::Ucci => ("ucci", "ucciok"),
        };
        process.send(hello)?;
        let mut name = command.to_string();
        process.until(HANDSHAKE, |line| {
            if let Some(n) = line.strip_prefix("id name ") {
                name = n.trim().to_string();
            }
            line == ok
        })?;
        let mut player = Self {
            process,
            dialect,
            name,
        };
        player.ready()?;
        Ok(player)
    }

    fn ready(&mut self) -> Result<(), EngineError> {
        self.process.send("isready")?;
        self.process.until(HANDSHAKE, |l| l == "readyok")?;
        Ok(())
    }

    /// The `go` line for `turn`.
    fn go_line(&self, turn: &Turn<'_>) -> String {
        let mut go = String::from("go");
        if turn.depth > 0 {
            go.push_str(&format!(" depth {}", turn.depth));
        }
        if turn.nodes > 0 {
            go.push_str(&format!(" nodes {}", turn.nodes));
        }
        let ms = |d: Duration| d.as_millis().max(1);
        match (turn.time, self.dialect) {
            (TurnTime::Unlimited, _) => {}
            (TurnTime::MoveTime(t), Dialect::Uci) => go.push_str(&format!(" movetime {}", ms(t))),
            // UCCI has no fixed move time: the whole clock for one move.
            (TurnTime::MoveTime(t), Dialect::Ucci) => {
                go.push_str(&format!(" time {} movestogo 1", ms(t)))
            }
            (TurnTime::Clocks { own, opponent }, Dialect::Uci) => {
                // The mover's clock is red's (`w`) or black's (`b`).
                let red_to_move = turn.history.len().is_multiple_of(2);
                let (w, b) = if red_to_move {
                    (own.left, opponent)
                } else {
                    (opponent, own.left)
                };
                let inc = ms(own.increment);
                go.push_str(&format!(
                    " wtime {} btime {} winc {inc} binc {inc}",
                    ms(w),
                    ms(b)
                ));
                if let Some(n) = own.moves_to_go {
                    go.push_str(&format!(" movestogo {n}"));
                }
            }
            (TurnTime::Clocks { own, opponent }, Dialect::Ucci) => {
                go.push_str(&format!(" time {}", ms(own.left)));
                match own.moves_to_go {
                    Some(n) => go.push_str(&format!(" movestogo {n}")),
                    None => go.push_str(&format!(" increment {}", own.increment.as_millis())),
                }
                go.push_str(&format!(" opptime {}", ms(opponent)));
            }
        }
        if go == "go" {
            // Neither a limit nor a clock: a search that never ends. Bound it.
            go.push_str(" depth 64");
        }
        go
    }
}

/// How long to wait for `bestmove`.
fn timeout(turn: &Turn<'_>) -> Duration {
    let grace = Duration::from_secs(5);
    match turn.time {
        TurnTime::Unlimited => Duration::from_secs(600),
        TurnTime::MoveTime(t) => t * 4 + grace,
        TurnTime::Clocks { own, .. } => own.left + grace,
    }
}

/// Reads an `info` line's depth, score, nodes and principal variation.
pub fn parse_info(line: &str, into: &mut BestMove) -> bool {
    let Some(rest) = line.strip_prefix("info ") else {
        return false;
    };
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut i = 0;
    let mut any = false;
    while i < words.len() {
        let next = |k: usize| words.get(i + k).copied().unwrap_or("");
        match words[i] {
            "string" => break,
            "depth" => {
                into.depth = next(1).parse().unwrap_or(into.depth);
                any = true;
                i += 2;
            }
            "nodes" => {
                into.nodes = next(1).parse().unwrap_or(into.nodes);
                i += 2;
            }
            "score" => match next(1) {
                "cp" => {
                    into.score = next(2).parse().unwrap_or(into.score);
                    i += 3;
                }
                "mate" => {
                    let m: i32 = next(2).parse().unwrap_or(0);
                    let plies = (m.abs() * 2 - i32::from(m > 0)).max(0);
                    into.score = if m > 0 { MATE - plies } else { -(MATE - plies) };
                    i += 3;
                }
                // UCCI: a bare number.
                n => {
                    into.score = n.parse().unwrap_or(into.score);
                    i += 2;
                }
            },
            "pv" => {
                into.pv = words[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            _ => i += 1,
        }
    }
    any
}

impl Player for UciPlayer {
    fn describe(&self) -> String {
        format!("{} ({})", self.name, self.process.command())
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        if self.dialect == Dialect::Uci {
            self.process.send("ucinewgame")?;
        }
        self.ready()
    }

    fn go(&mut self, turn: &Turn<'_>, watch: &mut dyn Watch) -> Result<BestMove, EngineError> {
        if turn.game != "xiangqi" {
            return Err(EngineError::Protocol(format!(
                "a UCI/UCCI engine plays xiangqi, not {}",
                turn.game
            )));
        }
        let position = if turn.history.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", turn.history.join(" "))
        };
        self.process.send(&position)?;
        self.process.send(&self.go_line(turn))?;
        let limit = timeout(turn);
        let started = std::time::Instant::now();
        let mut best = BestMove::default();
        let mut stop_sent = false;
        loop {
            if !stop_sent && watch.stop() {
                self.process.send("stop")?;
                stop_sent = true;
            }
            if started.elapsed() > limit {
                return Err(EngineError::Timeout(limit));
            }
            let Some(line) = self.process.recv(Duration::from_millis(5))? else {
                continue;
            };
            if parse_info(&line, &mut best) {
                watch.info(&best);
            } else if let Some(rest) = line.strip_prefix("bestmove") {
                // `bestmove X [ponder Y] [draw|resign]`.
                best.best = match rest.split_whitespace().next() {
                    Some("(none)") | None => "none".to_string(),
                    Some(mv) => mv.to_string(),
                };
                return Ok(best);
            } else if line == "nobestmove" {
                best.best = "none".into();
                return Ok(best);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_uci_and_ucci_info_lines() {
        let mut b = BestMove::default();
        assert!(parse_info(
            "info depth 7 seldepth 9 score cp -35 nodes 12345 nps 1 time 5 pv h2e2 h9g7",
            &mut b
        ));
        assert_eq!((b.depth, b.score, b.nodes), (7, -35, 12345));
        assert_eq!(b.pv, ["h2e2", "h9g7"]);
        assert!(parse_info("info depth 5 score 120 pv b0c2", &mut b));
        assert_eq!(b.score, 120);
        parse_info("info depth 9 score mate 2 pv a0a9", &mut b);
        assert_eq!(b.score, MATE - 3);
        parse_info("info depth 9 score mate -1 pv a0a9", &mut b);
        assert_eq!(b.score, -(MATE - 2));
        assert!(!parse_info(
            "info string hello depth 3",
            &mut BestMove::default()
        ));
    }
}
