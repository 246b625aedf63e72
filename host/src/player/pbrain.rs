//! An external Gomocup (Piskvork) brain as a [`Player`]: the whole board each turn
//! (`BOARD` … `DONE`, or `BEGIN` on an empty board), the rule and the clocks as `INFO`,
//! and the brain's `x,y` answer read back into Sente's notation.

use std::time::Duration;

use sente_firmware::games::gomoku::{parse_point, write_point};

use super::process::Process;
use super::{Player, Turn, TurnTime};
use crate::engine::{EngineError, Watch};
use crate::gomocup::{parse_xy, point_to_xy};
use crate::reply::BestMove;

/// How long a brain may take to answer `START`.
const HANDSHAKE: Duration = Duration::from_secs(20);

/// A running Gomocup brain.
pub struct PbrainPlayer {
    process: Process,
    name: String,
    /// The moves the brain knows (its board), in play order.
    known: Vec<String>,
}

/// Piskvork's `INFO rule` bits for a Sente rule name: 1 exactly five, 4 renju, 8 caro.
pub fn rule_bits(rule: &str) -> u32 {
    match rule {
        "standard" => 1,
        "renju" => 4,
        "caro" => 8,
        _ => 0,
    }
}

impl PbrainPlayer {
    /// Starts `command` and does the handshake (`START 15` → `OK`, `ABOUT`).
    pub fn start(command: &str) -> anyhow::Result<Self> {
        let mut process = Process::start(command)?;
        process.send("START 15")?;
        let ok = process.until(HANDSHAKE, |l| l == "OK" || l.starts_with("ERROR"))?;
        if ok != "OK" {
            anyhow::bail!("{command}: START 15 answered {ok:?}");
        }
        process.send("ABOUT")?;
        let about = process.until(HANDSHAKE, |l| l.contains('=') || l.starts_with("ERROR"))?;
        let name = about
            .split(',')
            .find_map(|kv| {
                let (k, v) = kv.split_once('=')?;
                (k.trim() == "name").then(|| v.trim().trim_matches('"').to_string())
            })
            .unwrap_or_else(|| command.to_string());
        Ok(Self {
            process,
            name,
            known: Vec::new(),
        })
    }

    /// Clears the brain's board (`RESTART`, or `START` for brains without it).
    fn restart(&mut self) -> Result<(), EngineError> {
        self.known.clear();
        self.process.send("RESTART")?;
        let ok = self
            .process
            .until(HANDSHAKE, |l| l == "OK" || l.starts_with("ERROR"))?;
        if ok != "OK" {
            self.process.send("START 15")?;
            self.process.until(HANDSHAKE, |l| l == "OK")?;
        }
        Ok(())
    }

    /// `x,y` of a move in Sente's notation.
    fn xy(mv: &str) -> Result<(u8, u8), EngineError> {
        parse_point(mv)
            .map(point_to_xy)
            .map_err(|e| EngineError::Protocol(format!("move {mv}: {e}")))
    }

    /// The answer to a move request: `x,y`, skipping `MESSAGE`, `DEBUG` and such.
    fn answer(&mut self, turn: &Turn<'_>, watch: &mut dyn Watch) -> Result<String, EngineError> {
        let limit = match turn.time {
            TurnTime::Unlimited => Duration::from_secs(600),
            TurnTime::MoveTime(t) => t * 4 + Duration::from_secs(5),
            TurnTime::Clocks { own, .. } => own.left + Duration::from_secs(5),
        };
        let started = std::time::Instant::now();
        let mut stopped = false;
        loop {
            if !stopped && watch.stop() {
                // Yixin's stop; brains without it just answer when their time is up.
                self.process.send("YXSTOP")?;
                stopped = true;
            }
            if started.elapsed() > limit {
                return Err(EngineError::Timeout(limit));
            }
            let Some(line) = self.process.recv(Duration::from_millis(5))? else {
                continue;
            };
            let word = line.split_whitespace().next().unwrap_or("");
            match word {
                "MESSAGE" | "DEBUG" | "UNKNOWN" | "" => {}
                "ERROR" => return Err(EngineError::Protocol(line)),
                _ => return Ok(line),
            }
        }
    }
}

impl Player for PbrainPlayer {
    fn describe(&self) -> String {
        format!("{} ({})", self.name, self.process.command())
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.known.clear();
        self.restart()
    }

    fn go(&mut self, turn: &Turn<'_>, watch: &mut dyn Watch) -> Result<BestMove, EngineError> {
        if turn.game != "gomoku" {
            return Err(EngineError::Protocol(format!(
                "a Gomocup brain plays gomoku, not {}",
                turn.game
            )));
        }
        let p = &mut self.process;
        p.send(&format!(
            "INFO rule {}",
            rule_bits(turn.rule.unwrap_or("free"))
        ))?;
        match turn.time {
            TurnTime::Unlimited => {}
            TurnTime::MoveTime(t) => {
                p.send(&format!("INFO timeout_turn {}", t.as_millis().max(1)))?;
                p.send("INFO timeout_match 0")?;
            }
            TurnTime::Clocks { own, .. } => {
                let turn_cap = own.per_move_cap.unwrap_or(own.left);
                p.send(&format!(
                    "INFO timeout_turn {}",
                    turn_cap.as_millis().max(1)
                ))?;
                p.send(&format!(
                    "INFO timeout_match {}",
                    own.left.as_millis().max(1)
                ))?;
                p.send(&format!("INFO time_left {}", own.left.as_millis().max(1)))?;
            }
        }
        // Yixin-Board's search limits, when the match sets them (a brain that
        // does not know them ignores them, as the protocol asks of every
        // unknown INFO key, and plays by its clock).
        if turn.nodes > 0 {
            p.send(&format!("INFO max_node {}", turn.nodes))?;
        }
        if turn.depth > 0 {
            p.send(&format!("INFO max_depth {}", turn.depth))?;
        }
        let history = turn.history;
        let follows = history.len() == self.known.len() + 1 && history.starts_with(&self.known);
        if history.is_empty() {
            if !self.known.is_empty() {
                self.restart()?;
            }
            self.process.send("BEGIN")?;
        } else if follows {
            // The opponent's reply to the brain's last move, as a manager sends it.
            let (x, y) = Self::xy(&history[history.len() - 1])?;
            self.process.send(&format!("TURN {x},{y}"))?;
        } else {
            // Field 1: the mover's own stones; 2: the opponent's.
            self.restart()?;
            self.process.send("BOARD")?;
            let mover = history.len() % 2;
            for (i, mv) in history.iter().enumerate() {
                let (x, y) = Self::xy(mv)?;
                let field = if i % 2 == mover { 1 } else { 2 };
                self.process.send(&format!("{x},{y},{field}"))?;
            }
            self.process.send("DONE")?;
        }
        self.known = history.to_vec();
        let line = self.answer(turn, watch)?;
        let point = parse_xy(&line).map_err(|e| EngineError::Protocol(format!("{line:?}: {e}")))?;
        let mut best = String::new();
        let _ = write_point(point, &mut best);
        self.known.push(best.clone());
        Ok(BestMove {
            pv: vec![best.clone()],
            best,
            ..BestMove::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_bits_are_piskvorks() {
        assert_eq!(rule_bits("free"), 0);
        assert_eq!(rule_bits("standard"), 1);
        assert_eq!(rule_bits("renju"), 4);
        assert_eq!(rule_bits("caro"), 8);
    }
}
