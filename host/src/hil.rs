//! Hardware-in-the-loop: scenarios, board-versus-host comparison, transcripts and reports.
//!
//! A scenario is a request line. The board and the host engine (the same library
//! code) each answer it; move, score, depth, nodes and principal variation must be
//! equal, and the board's ticks and peak stack must stay within the suite's budget.

use serde::{Deserialize, Serialize};

use sente_firmware::protocol::{Reply, ReplyKind};

/// One scenario: a name and the request line sent verbatim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// Name (unique in its suite).
    pub name: String,
    /// Request line.
    pub request: String,
}

/// Limits every scenario of a suite must stay within on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    /// Most board ticks for one request (16,000,000 = 1 s on the micro:bit).
    pub ticks: u64,
    /// Most RAM in bytes: statics plus peak stack.
    pub ram: u32,
}

/// A suite file: a budget line and scenario lines.
///
/// ```text
/// # comment
/// budget ticks=16000000 ram=8192
/// empty board: go ttt pos .........
/// ```
pub fn parse_suite(text: &str) -> Result<(Budget, Vec<Scenario>), String> {
    let mut budget = None;
    let mut scenarios: Vec<Scenario> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("budget ") {
            let field = |key: &str| {
                rest.split_whitespace()
                    .find_map(|w| w.strip_prefix(key)?.strip_prefix('=')?.parse::<u64>().ok())
            };
            let missing = |key: &str| format!("line {}: budget needs {key}=", i + 1);
            budget = Some(Budget {
                ticks: field("ticks").ok_or_else(|| missing("ticks"))?,
                ram: field("ram")
                    .and_then(|r| u32::try_from(r).ok())
                    .ok_or_else(|| missing("ram"))?,
            });
            continue;
        }
        let (name, request) = line
            .split_once(": ")
            .ok_or(format!("line {}: expected '<name>: <request>'", i + 1))?;
        if scenarios.iter().any(|s| s.name == name) {
            return Err(format!("line {}: duplicate scenario name {name:?}", i + 1));
        }
        scenarios.push(Scenario {
            name: name.trim().to_string(),
            request: request.trim().to_string(),
        });
    }
    Ok((
        budget.ok_or("missing 'budget ticks=N ram=N' line")?,
        scenarios,
    ))
}

/// Compares a board's final reply line with the host's; `None` when they agree:
/// the same kind, and for a search the same move, score, depth, nodes, arena and
/// principal variation (ticks and stack are the board's own).
pub fn compare(board: &str, host: &str) -> Option<String> {
    let (b, h) = match (Reply::parse(board), Reply::parse(host)) {
        (Ok(b), Ok(h)) => (b.kind, h.kind),
        _ => return Some(format!("unreadable reply: board {board:?}, host {host:?}")),
    };
    let differ = |what: &str, x: &dyn std::fmt::Debug, y: &dyn std::fmt::Debug| {
        Some(format!("{what} differs: board {x:?}, host {y:?}"))
    };
    match (b, h) {
        (ReplyKind::BestMove(x), ReplyKind::BestMove(y)) => {
            if x.best != y.best {
                differ("move", &x.best, &y.best)
            } else if x.score != y.score {
                differ("score", &x.score, &y.score)
            } else if x.depth != y.depth {
                differ("depth", &x.depth, &y.depth)
            } else if x.nodes != y.nodes {
                differ("nodes", &x.nodes, &y.nodes)
            } else if x.arena != y.arena {
                differ("arena", &x.arena, &y.arena)
            } else if x.pv != y.pv {
                differ("pv", &x.pv, &y.pv)
            } else {
                None
            }
        }
        (ReplyKind::Error(x, _), ReplyKind::Error(y, _)) => {
            (x != y).then(|| format!("error codes differ: {board:?} vs {host:?}"))
        }
        (ReplyKind::Perft(x), ReplyKind::Perft(y)) => {
            (x.nodes != y.nodes).then(|| differ("perft nodes", &x.nodes, &y.nodes))?
        }
        (x, y) if x.word() != y.word() => Some(format!("board said {board:?}, host said {host:?}")),
        _ => None,
    }
}

/// Replaces the timing and memory fields (which differ between runs and boards)
/// with placeholders, for snapshots.
pub fn redact(line: &str) -> String {
    line.split(' ')
        .map(|word| match word.split_once('=') {
            Some((k @ ("ticks" | "stack" | "ram" | "static" | "hz" | "board" | "arena"), _)) => {
                format!("{k}=[{k}]")
            }
            _ => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// One row of the HIL report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// Suite (game) name.
    pub suite: String,
    /// Scenario name.
    pub name: String,
    /// The request line.
    pub request: String,
    /// The board's final reply.
    pub board: String,
    /// The host engine's final reply.
    pub host: String,
    /// Board ticks for the request.
    pub ticks: u64,
    /// Peak stack bytes on the board.
    pub stack: u32,
    /// Static RAM bytes of the firmware other than the engines' arena.
    pub statics: u32,
    /// Bytes of the engines' arena the request took (the board's `arena=`).
    #[serde(default)]
    pub arena: u32,
    /// Depth reached (0 when not a search).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The suite's budget.
    pub budget: Budget,
    /// What went wrong, if anything.
    pub problem: Option<String>,
}

impl Row {
    /// The request's RAM: statics (the arena left out), the arena it took, peak stack.
    pub fn ram(&self) -> u32 {
        self.statics + self.arena + self.stack
    }

    /// Checks the row: agreement with the host, then the budget.
    pub fn check(&mut self, board: &str, host: &str) {
        self.problem = compare(board, host);
        if self.problem.is_none() {
            let ram = self.ram();
            if self.ticks > self.budget.ticks {
                self.problem = Some(format!(
                    "{} ticks over the budget of {}",
                    self.ticks, self.budget.ticks
                ));
            } else if ram > self.budget.ram {
                self.problem = Some(format!(
                    "{ram} bytes of RAM over the budget of {}",
                    self.budget.ram
                ));
            }
        }
    }
}

/// Renders rows as a Markdown report.
pub fn markdown(rows: &[Row], title: &str) -> String {
    let failed = rows.iter().filter(|r| r.problem.is_some()).count();
    let mut s = format!(
        "# HIL report: {title}\n\n{} scenarios, {} passed, {} failed.\n\n\
         Ticks are board clock ticks (16 MHz on the micro:bit; in QEMU with `-icount shift=6` one tick per instruction).\n\
         RAM = statics (the engines' arena left out) + the arena the request took + peak stack of the whole firmware during the request.\n\n\
         | suite | scenario | result | move | score | depth | nodes | ticks | ms @16 MHz | stack | arena | RAM | budget ticks / RAM |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        rows.len(),
        rows.len() - failed,
        failed
    );
    for r in rows {
        let reply = Reply::parse(&r.board).ok();
        let (mv, score) = match reply.map(|r| r.kind) {
            Some(ReplyKind::BestMove(s)) => (s.best.to_string(), s.score.to_string()),
            Some(ReplyKind::Error(code, _)) => (code.as_str().to_string(), String::new()),
            Some(kind) => (kind.word().to_string(), String::new()),
            None => ("?".to_string(), String::new()),
        };
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {:.1} | {} | {} | {} | {} / {} |\n",
            r.suite,
            r.name,
            r.problem
                .as_deref()
                .map_or("ok".to_string(), |p| format!("**FAIL** {p}")),
            mv,
            score,
            r.depth,
            r.nodes,
            r.ticks,
            r.ticks as f64 / 16_000.0,
            r.stack,
            r.arena,
            r.ram(),
            r.budget.ticks,
            r.budget.ram
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_files_parse_and_reject_mistakes() {
        let (b, s) = parse_suite("# x\nbudget ticks=10 ram=20\na: go ttt pos .........\n").unwrap();
        assert_eq!((b.ticks, b.ram), (10, 20));
        assert_eq!(s[0].request, "go ttt pos .........");
        assert!(parse_suite("a: go\n").is_err());
        assert!(parse_suite("budget ticks=1 ram=1\na: x\na: y\n").is_err());
        assert!(parse_suite("budget ticks=1 ram=1\nno colon\n").is_err());
    }

    #[test]
    fn comparison_ignores_timing_but_not_results() {
        let a = "bestmove b2 score=0 depth=9 nodes=10 ticks=5 stack=9 arena=0 pv b2 a3";
        let b = "bestmove b2 score=0 depth=9 nodes=10 ticks=7 stack=0 arena=0 pv b2 a3";
        assert_eq!(compare(a, b), None);
        let c = "bestmove b2 score=0 depth=9 nodes=11 ticks=7 stack=0 arena=0 pv b2 a3";
        assert!(compare(a, c).unwrap().contains("nodes"));
        let d = "bestmove a1 score=0 depth=9 nodes=10 ticks=7 stack=0 arena=0 pv a1";
        assert!(compare(a, d).is_some());
        let e = "bestmove b2 score=0 depth=9 nodes=10 ticks=7 stack=0 arena=8 pv b2 a3";
        assert!(compare(a, e).unwrap().contains("arena"));
        assert!(compare(a, "error busy x").is_some());
        assert!(compare(a, "nonsense").is_some());
        assert_eq!(
            redact("bestmove b2 ticks=55 stack=9 pv b2"),
            "bestmove b2 ticks=[ticks] stack=[stack] pv b2"
        );
    }

    #[test]
    fn budget_breaches_are_reported() {
        let line = "bestmove b2 score=0 depth=9 nodes=10 ticks=50 stack=900 arena=0 pv b2";
        let mut row = Row {
            suite: "ttt".into(),
            name: "x".into(),
            request: String::new(),
            board: line.into(),
            host: line.into(),
            ticks: 50,
            stack: 900,
            statics: 200,
            arena: 0,
            depth: 9,
            nodes: 10,
            budget: Budget {
                ticks: 100,
                ram: 1000,
            },
            problem: None,
        };
        row.check(line, line);
        assert!(row.problem.unwrap().contains("RAM"));
    }
}
