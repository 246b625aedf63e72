//! Hardware-in-the-loop: scenarios, board-versus-host comparison, transcripts and reports.
//!
//! A scenario is a request line. The board and the host engine (the same library
//! code) each answer it; move, score, depth, nodes and principal variation must be
//! equal, and the board's ticks and peak stack must stay within the suite's budget.

use serde::{Deserialize, Serialize};

use sente_firmware::protocol::{Command, Reply, ReplyKind, parse_request};

/// One scenario: a name and the request line sent verbatim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// Name (unique in its suite).
    pub name: String,
    /// Request line.
    pub request: String,
}

/// The clock the suites' tick budgets are written for: the micro:bit v1's 16 MHz. A
/// board with another clock is held to the same *time* (its ticks scaled to 16 MHz).
pub const REFERENCE_HZ: u32 = 16_000_000;

/// Limits every scenario of a suite must stay within on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    /// Most time for one request, in ticks of [`REFERENCE_HZ`] (16,000,000 = 1 s).
    pub ticks: u64,
    /// Most RAM in bytes: statics plus the arena taken plus peak stack.
    pub ram: u32,
}

/// A suite file: a budget line, optional budget lines for named boards, and scenario
/// lines.
///
/// ```text
/// # comment
/// budget ticks=16000000 ram=8192
/// budget board=stm32f405 ram=65536
/// empty board: go ttt pos .........
/// ```
///
/// Returns the budget of `board` (a board's line overrides the general one's fields).
pub fn parse_suite_for(text: &str, board: Option<&str>) -> Result<(Budget, Vec<Scenario>), String> {
    let mut budget: Option<Budget> = None;
    let mut own: Vec<(Option<u64>, Option<u32>)> = Vec::new();
    let mut scenarios: Vec<Scenario> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("budget ") {
            let field = |key: &str| {
                rest.split_whitespace()
                    .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
            };
            let number = |key: &str| field(key).and_then(|v| v.parse::<u64>().ok());
            let ram = number("ram").and_then(|r| u32::try_from(r).ok());
            match field("board") {
                Some(name) => {
                    if board == Some(name) {
                        own.push((number("ticks"), ram));
                    }
                }
                None => {
                    let missing = |key: &str| format!("line {}: budget needs {key}=", i + 1);
                    budget = Some(Budget {
                        ticks: number("ticks").ok_or_else(|| missing("ticks"))?,
                        ram: ram.ok_or_else(|| missing("ram"))?,
                    });
                }
            }
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
    let mut budget = budget.ok_or("missing 'budget ticks=N ram=N' line")?;
    for (ticks, ram) in own {
        budget.ticks = ticks.unwrap_or(budget.ticks);
        budget.ram = ram.unwrap_or(budget.ram);
    }
    Ok((budget, scenarios))
}

/// [`parse_suite_for`] with the general budget.
pub fn parse_suite(text: &str) -> Result<(Budget, Vec<Scenario>), String> {
    parse_suite_for(text, None)
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

/// The request the host mirror answers for the board's `request`, given the board's
/// final reply. The same request, except that a `movetime` (board time, which the host
/// cannot reproduce) becomes the limit at which the board's search actually ended:
/// `nodes=<n>` when the move time cut it short (the reply has `stop=`; an engine stops
/// at exactly that node either way), `depth=<d>` when it ended on its own after a
/// completed iteration (the engine begins no iteration late in its time). Either way the
/// same deterministic search runs, so every answer must still agree bit for bit.
pub fn mirror_request(request: &str, board_reply: &str) -> String {
    let (
        Ok(mut mirrored),
        Ok(Reply {
            kind: ReplyKind::BestMove(search),
            ..
        }),
    ) = (parse_request(request), Reply::parse(board_reply))
    else {
        return request.to_string();
    };
    let Command::Go {
        request: engine,
        movetime_ms,
        ..
    } = &mut mirrored.command
    else {
        return request.to_string();
    };
    if *movetime_ms == 0 {
        return request.to_string();
    }
    *movetime_ms = 0;
    match search.stop {
        Some(_) => engine.limits.nodes = search.nodes,
        None => engine.limits.depth = search.depth,
    }
    mirrored.to_string()
}

/// Replaces the timing and memory fields (which differ between runs and boards)
/// with placeholders, for snapshots.
pub fn redact(line: &str) -> String {
    line.split(' ')
        .map(|word| match word.split_once('=') {
            Some((
                k @ ("ticks" | "stack" | "ram" | "static" | "hz" | "board" | "arena" | "stop"),
                _,
            )) => {
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
    /// The board's clock (ticks per second; `hello`'s `hz=`).
    #[serde(default = "reference_hz")]
    pub hz: u32,
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

fn reference_hz() -> u32 {
    REFERENCE_HZ
}

impl Row {
    /// The request's RAM: statics (the arena left out), the arena it took, peak stack.
    pub fn ram(&self) -> u32 {
        self.statics + self.arena + self.stack
    }

    /// Milliseconds the request took at the board's clock.
    pub fn millis(&self) -> f64 {
        self.ticks as f64 * 1000.0 / f64::from(self.hz.max(1))
    }

    /// The request's time in ticks of [`REFERENCE_HZ`] (what budgets are written in).
    pub fn reference_ticks(&self) -> u64 {
        (u128::from(self.ticks) * u128::from(REFERENCE_HZ) / u128::from(self.hz.max(1))) as u64
    }

    /// Checks the row: agreement with the host, then the budget.
    pub fn check(&mut self, board: &str, host: &str) {
        self.problem = compare(board, host);
        if self.problem.is_none() {
            let ram = self.ram();
            if self.reference_ticks() > self.budget.ticks {
                self.problem = Some(format!(
                    "{} ticks ({:.1} ms) over the budget of {} ticks at 16 MHz ({:.1} ms)",
                    self.ticks,
                    self.millis(),
                    self.budget.ticks,
                    self.budget.ticks as f64 / 16_000.0
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

/// One HIL run: a board (or its 2 KB build) and its rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoardRun {
    /// The run's name: `hello`'s board name (`microbit-v1`, `microbit-v1-2k`, …).
    pub run: String,
    /// The board's name in the board table.
    pub board: String,
    /// Title for people.
    pub title: String,
    /// The board's clock.
    pub hz: u32,
    /// Every scenario's row.
    pub rows: Vec<Row>,
    /// Whether the HIL test run passed: a transcript that differs from its snapshot fails
    /// the run and no row. `None` in a report written before this was recorded.
    #[serde(default)]
    pub tests_passed: Option<bool>,
}

impl BoardRun {
    /// How many rows failed their own checks.
    pub fn failed_rows(&self) -> usize {
        self.rows.iter().filter(|r| r.problem.is_some()).count()
    }

    /// The run's verdict for people: its rows, and the snapshots' when the run failed.
    pub fn verdict(&self) -> String {
        let failed = self.failed_rows();
        let rows = format!(
            "{} scenarios, {} passed, {failed} failed",
            self.rows.len(),
            self.rows.len() - failed
        );
        if self.tests_passed == Some(false) {
            format!(
                "**FAILED**: {rows}, and a transcript differs from its snapshot (`cargo insta review`)"
            )
        } else {
            rows
        }
    }
}

/// Renders one run's rows as a Markdown report.
pub fn markdown(run: &BoardRun) -> String {
    let rows = &run.rows;
    let mhz = f64::from(run.hz) / 1e6;
    let mut s = format!(
        "# HIL report: {}\n\n{}.\n\n\
         Ticks are board clock ticks ({mhz} MHz; in QEMU with a fixed `-icount` SysTick counts instructions).\n\
         RAM = statics (the engines' arena left out) + the arena the request took + peak stack of the whole firmware during the request.\n\
         Budgets: ticks at 16 MHz (the same time on every board), RAM in bytes.\n\n\
         | suite | scenario | result | move | score | depth | nodes | ticks | ticks / node | ms @{mhz} MHz | stack | arena | RAM | budget ticks / RAM |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
        run.title,
        run.verdict(),
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
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.1} | {} | {} | {} | {} / {} |\n",
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
            r.ticks
                .checked_div(r.nodes)
                .map_or(String::new(), |t| t.to_string()),
            r.millis(),
            r.stack,
            r.arena,
            r.ram(),
            r.budget.ticks,
            r.budget.ram
        ));
    }
    s
}

/// Board time a search may take for [`cross_board`]'s "depth in the same time".
pub const SAME_TIME_MS: f64 = 1000.0;

/// One suite's figures on one run (see [`cross_board`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SuiteFigures {
    /// Scenarios run.
    pub scenarios: usize,
    /// Scenarios that failed.
    pub failed: usize,
    /// Ticks of all the suite's requests.
    pub ticks: u64,
    /// Milliseconds of all the suite's requests at the board's clock.
    pub millis: f64,
    /// The slowest request, in milliseconds.
    pub slowest_ms: f64,
    /// Peak RAM of any request (statics + arena taken + stack).
    pub peak_ram: u32,
    /// Peak stack of any request.
    pub peak_stack: u32,
    /// The deepest search that finished within [`SAME_TIME_MS`] of board time.
    pub depth_in_time: u32,
    /// The deepest search of the suite.
    pub depth: u32,
    /// Nodes of the requests that searched (nodes > 0).
    pub nodes: u64,
    /// Ticks of the requests that searched: with [`Self::nodes`] the suite's
    /// ticks a node.
    pub search_ticks: u64,
}

impl SuiteFigures {
    /// The figures of `suite` in `run`.
    pub fn of(run: &BoardRun, suite: &str) -> Self {
        let mut f = Self::default();
        for r in run.rows.iter().filter(|r| r.suite == suite) {
            f.scenarios += 1;
            f.failed += usize::from(r.problem.is_some());
            f.ticks += r.ticks;
            f.millis += r.millis();
            f.slowest_ms = f.slowest_ms.max(r.millis());
            f.peak_ram = f.peak_ram.max(r.ram());
            f.peak_stack = f.peak_stack.max(r.stack);
            f.depth = f.depth.max(r.depth);
            if r.nodes > 0 {
                f.nodes += r.nodes;
                f.search_ticks += r.ticks;
            }
            if r.millis() <= SAME_TIME_MS {
                f.depth_in_time = f.depth_in_time.max(r.depth);
            }
        }
        f
    }
}

/// The cross-board report: per suite, each run's ticks and milliseconds at its board's
/// clock, peak RAM and the depth reached in the same time; then each run's own table.
pub fn cross_board(runs: &[BoardRun]) -> String {
    let mut suites: Vec<&str> = Vec::new();
    for run in runs {
        for r in &run.rows {
            if !suites.contains(&r.suite.as_str()) {
                suites.push(&r.suite);
            }
        }
    }
    let mut s = String::from("# HIL report: every board\n\n");
    for run in runs {
        s.push_str(&format!(
            "- **{}** ({} MHz): {}{}\n",
            run.title,
            f64::from(run.hz) / 1e6,
            run.verdict(),
            if run.failed_rows() == 0 {
                "; every answer equal to the host engine's mirror of the board"
            } else {
                ""
            }
        ));
    }
    s.push_str(&format!(
        "\nPer suite and board: the suite's ticks and their milliseconds at the board's clock \
         (all scenarios, then the slowest one), the nodes of the scenarios that searched and \
         their ticks a node, the peak RAM and stack of any request, and the \
         deepest search that finished within {SAME_TIME_MS:.0} ms of board time \
         (of the deepest in the suite). The same requests run everywhere, so the columns compare \
         the boards directly.\n\n\
         | suite | board | scenarios | ticks | ms | slowest ms | nodes | ticks / node | peak RAM | peak stack | depth in {SAME_TIME_MS:.0} ms (of) |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n"
    ));
    for suite in &suites {
        for run in runs {
            let f = SuiteFigures::of(run, suite);
            if f.scenarios == 0 {
                continue;
            }
            s.push_str(&format!(
                "| {suite} | {} | {}{} | {} | {:.1} | {:.1} | {} | {} | {} | {} | {} ({}) |\n",
                run.run,
                f.scenarios,
                if f.failed > 0 {
                    format!(" (**{} failed**)", f.failed)
                } else {
                    String::new()
                },
                f.ticks,
                f.millis,
                f.slowest_ms,
                f.nodes,
                f.search_ticks
                    .checked_div(f.nodes)
                    .map_or(String::new(), |t| t.to_string()),
                f.peak_ram,
                f.peak_stack,
                f.depth_in_time,
                f.depth
            ));
        }
    }
    for run in runs {
        s.push('\n');
        s.push_str(&markdown(run).replacen("# HIL report: ", "## ", 1));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_time_is_mirrored_by_the_limit_the_board_stopped_at() {
        let req = "go xiangqi movetime=1000 pos 4k4/9/9/9/9/9/9/9/9/3K5 w moves a0a1";
        let cut = "bestmove h2e2 score=3 depth=4 nodes=4608 ticks=16000300 stack=1 arena=8 stop=16000000 pv h2e2";
        assert_eq!(
            mirror_request(req, cut),
            "go xiangqi nodes=4608 pos 4k4/9/9/9/9/9/9/9/9/3K5 w moves a0a1"
        );
        let done = "bestmove h2e2 score=3 depth=5 nodes=9000 ticks=9000000 stack=1 arena=8 pv h2e2";
        assert_eq!(
            mirror_request("go xiangqi depth=9 movetime=1000 pos startpos", done),
            "go xiangqi depth=5 pos startpos"
        );
        assert_eq!(
            mirror_request("go xiangqi depth=3 pos startpos", done),
            "go xiangqi depth=3 pos startpos"
        );
    }

    #[test]
    fn suite_files_parse_and_reject_mistakes() {
        let (b, s) = parse_suite("# x\nbudget ticks=10 ram=20\na: go ttt pos .........\n").unwrap();
        assert_eq!((b.ticks, b.ram), (10, 20));
        assert_eq!(s[0].request, "go ttt pos .........");
        assert!(parse_suite("a: go\n").is_err());
        assert!(parse_suite("budget ticks=1 ram=1\na: x\na: y\n").is_err());
        assert!(parse_suite("budget ticks=1 ram=1\nno colon\n").is_err());
        let text = "budget ticks=10 ram=20\nbudget board=big ram=99\na: go ttt pos .........\n";
        assert_eq!(parse_suite_for(text, Some("big")).unwrap().0.ram, 99);
        assert_eq!(parse_suite_for(text, Some("big")).unwrap().0.ticks, 10);
        assert_eq!(parse_suite_for(text, Some("small")).unwrap().0.ram, 20);
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

    /// A tic-tac-toe row answering `line` on both sides, within its budget's ticks.
    fn sample_row(line: &str) -> Row {
        Row {
            suite: "ttt".into(),
            name: "x".into(),
            request: String::new(),
            board: line.into(),
            host: line.into(),
            ticks: 50,
            hz: REFERENCE_HZ,
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
        }
    }

    #[test]
    fn budget_breaches_are_reported() {
        let line = "bestmove b2 score=0 depth=9 nodes=10 ticks=50 stack=900 arena=0 pv b2";
        let mut row = sample_row(line);
        row.check(line, line);
        assert!(row.problem.unwrap().contains("RAM"));
    }

    #[test]
    fn a_suites_ticks_a_node_count_only_the_requests_that_searched() {
        let line = "bestmove b2 score=0 depth=9 nodes=10 ticks=50 stack=900 arena=0 pv b2";
        let mut quiet = sample_row("ok");
        (quiet.nodes, quiet.ticks) = (0, 1_000);
        let mut deep = sample_row(line);
        (deep.nodes, deep.ticks) = (30, 150);
        let run = BoardRun {
            run: "b".into(),
            board: "b".into(),
            title: "t".into(),
            hz: REFERENCE_HZ,
            rows: vec![sample_row(line), quiet, deep],
            tests_passed: Some(true),
        };
        let f = SuiteFigures::of(&run, "ttt");
        assert_eq!(
            (f.scenarios, f.ticks, f.nodes, f.search_ticks),
            (3, 1_200, 40, 200)
        );
        assert!(cross_board(&[run]).contains("| 1200 | 0.1 | 0.1 | 40 | 5 |"));
    }

    #[test]
    fn a_failed_snapshot_fails_the_report_whose_rows_all_passed() {
        let line = "bestmove b2 score=0 depth=9 nodes=10 ticks=50 stack=900 arena=0 pv b2";
        let row = sample_row(line);
        let mut run = BoardRun {
            run: "b".into(),
            board: "b".into(),
            title: "t".into(),
            hz: REFERENCE_HZ,
            rows: vec![row],
            tests_passed: Some(true),
        };
        assert!(markdown(&run).contains("1 scenarios, 1 passed, 0 failed."));
        assert!(cross_board(std::slice::from_ref(&run)).contains("every answer equal"));
        run.tests_passed = Some(false);
        assert!(markdown(&run).contains("**FAILED**"));
        assert!(cross_board(std::slice::from_ref(&run)).contains("**FAILED**"));
        // A report written before the field existed still reads.
        let mut json: serde_json::Value = serde_json::to_value(&run).unwrap();
        json.as_object_mut().unwrap().remove("tests_passed");
        let old: BoardRun = serde_json::from_value(json).unwrap();
        assert_eq!(old.tests_passed, None);
        assert!(!markdown(&old).contains("FAILED"));
    }
}
