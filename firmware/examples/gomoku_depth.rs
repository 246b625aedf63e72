//! Where a host-profile gomoku search spends its time: each position of a file
//! (one `rule stones…` position a line, `#` lines skipped) is searched in the
//! host profile with a move time, and every completed iteration is printed
//! with its time, nodes and nodes per second, then a summary (average depth,
//! time used, nodes per second). The 76 free and 78 renju middle games of
//! docs/strength.md's depth figures are `examples/positions/gomoku-free.txt`
//! and `gomoku-renju.txt`.
//!
//! `cargo run --release -p sente-firmware --example gomoku_depth -- FILE [MS] [LEVEL]`
//! (`NODES=N`: a node budget instead of the clock; `DEPTH=D`: at most `D`
//! plies, e.g. `DEPTH=1` for little more than the root's VCF and VCT;
//! `QUIET=1`: the summary only)
use std::time::Instant;

use sente_firmware::engine::{
    BoardGame, EngineReply, EngineRequest, Poll, Profile, RootMoves, Workspace,
};
use sente_firmware::games::gomoku::{GomokuEngine, search};
use sente_firmware::search::Limits;

/// A poll with a wall clock in microseconds (the host's ticks).
struct Clock {
    start: Instant,
    ticks: u64,
    verbose: bool,
    last: Option<(u8, u64, u64)>,
}

impl Poll for Clock {
    fn poll(&mut self, _nodes: u64) -> bool {
        self.elapsed_ticks() >= self.ticks
    }
    fn elapsed_ticks(&mut self) -> u64 {
        self.start.elapsed().as_micros() as u64
    }
    fn info(&mut self, reply: &EngineReply) {
        let us = self.elapsed_ticks();
        if self.verbose {
            println!(
                "  depth {:2} score {:6} nodes {:8} {:7.1} ms {:6.0} kN/s pv {}",
                reply.depth,
                reply.score,
                reply.nodes,
                us as f64 / 1000.0,
                reply.nodes as f64 * 1000.0 / us.max(1) as f64,
                reply.pv
            );
        }
        self.last = Some((reply.depth, reply.nodes, us));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = args.get(1).expect("usage: gomoku_depth FILE [MS] [LEVEL]");
    let ms: u64 = args.get(2).map_or(200, |a| a.parse().expect("ms"));
    let level: u8 = args.get(3).map_or(0, |a| a.parse().expect("level"));
    let verbose = std::env::var_os("QUIET").is_none();
    // NODES=N: a node budget instead of the clock (load-independent).
    let nodes_limit: u64 = std::env::var("NODES").map_or(0, |n| n.parse().expect("nodes"));
    let depth_limit: u8 = std::env::var("DEPTH").map_or(0, |n| n.parse().expect("depth"));
    let text = std::fs::read_to_string(file).expect("readable file");
    // The host's tables at their largest (transposition table, VCF memo and
    // static-score cache).
    let words = search::HOST_TABLE_WORDS + search::HOST_SCORE_WORDS;
    let mut arena = vec![0u64; words];
    let (mut n, mut depth, mut nodes, mut time) = (0u64, 0u64, 0u64, 0u64);
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let request = EngineRequest {
            position: line,
            limits: Limits {
                ticks: if nodes_limit == 0 && depth_limit == 0 {
                    ms * 1000
                } else {
                    0
                },
                nodes: nodes_limit,
                depth: depth_limit,
            },
            level,
            seed: 0,
            roots: RootMoves::All,
        };
        let mut clock = Clock {
            start: Instant::now(),
            ticks: if nodes_limit == 0 && depth_limit == 0 {
                ms * 1000
            } else {
                u64::MAX
            },
            verbose,
            last: None,
        };
        if verbose {
            println!("{line}");
        }
        // Each position from empty tables: a timed request reads what the
        // last ones left (session 45), and these positions are cut from the
        // same games. (The engine fills its tables again, inside the time.)
        arena.fill(0);
        let mut work = Workspace::new(Profile::Host, &mut arena);
        GomokuEngine::search(&request, &mut clock, &mut work).expect("valid position");
        let total = clock.elapsed_ticks();
        let (d, k, _) = clock.last.unwrap_or((0, 0, 0));
        if verbose {
            println!("  answered in {:.1} ms", total as f64 / 1000.0);
        }
        n += 1;
        depth += u64::from(d);
        nodes += k;
        time += total;
    }
    let n = n.max(1);
    println!(
        "{n} positions: depth {:.2}, {:.1} ms a move, {:.0} kN/s",
        depth as f64 / n as f64,
        time as f64 / n as f64 / 1000.0,
        nodes as f64 * 1000.0 / time.max(1) as f64
    );
}
