//! The best few lines (UCI's `MultiPV`, Yixin's `YXNBEST n`), found by leaving out the
//! root moves of the lines already found.
//!
//! Each round deepens by one ply: the engine searches the position to that depth, then
//! again without the first line's move (`exclude=`, or the GUI's `only=` list less it),
//! and so on, each line shown by the front end ([`LineWatch::show`]). A search limited
//! by depth or nodes starts afresh (the same request gives the same answer, so no engine
//! reuses an earlier request's table): `n` lines cost about `n` one-line searches at each
//! depth. (The xiangqi host engine's searches limited by time keep their table.) A search
//! cut short (time, `stop`) ends the rounds; of an unfinished round only its first line
//! is shown, when it was completed.

use std::time::{Duration, Instant};

use sente_firmware::engine::MAX_EXCLUDE;

use crate::engine::{self, EngineError, EngineLink, GoRequest, Watch};
use crate::reply::BestMove;
use crate::timeman;

/// Most lines a search shows: the excluded moves (the lines before the last and the
/// GUI's banned moves) must fit one request.
pub const MAX_LINES: usize = MAX_EXCLUDE;

/// The front end of a multi-line search: the protocol that shows the lines and hears
/// `stop`.
pub trait LineWatch: Watch {
    /// When the search started (its time counts from then).
    fn started(&self) -> Instant;
    /// Whether the front end has ended the search (`stop`, `quit`, the input closed).
    fn ended(&self) -> bool;
    /// Shows line `k` (1: the best) of the round at `depth`; `nodes` counts the whole
    /// search so far.
    fn show(&mut self, depth: u32, k: usize, nodes: u64, line: &BestMove);
}

/// Deepest round when the GUI gives no depth (the engine stops deepening before).
const MAX_ROUNDS: u8 = 64;

/// The limits of a multi-line search.
pub struct Limits {
    /// Lines wanted (2 or more; fewer when the position has fewer moves).
    pub lines: usize,
    /// Deepest round (0: until time, nodes or `stop` end it).
    pub depth: u8,
    /// Nodes in all (0: none).
    pub nodes: u64,
    /// Time for the whole search (`None`: none).
    pub time: Option<Duration>,
}

/// Runs the rounds on `link`; `base` is the request of a one-line search (its
/// `roots` the GUI's banned moves or its only choices). Returns the deepest completed first line (a round
/// cut short after its first line counts), or an unfinished one when none completed.
pub fn search(
    link: &mut EngineLink,
    base: &GoRequest,
    watch: &mut impl LineWatch,
    limits: &Limits,
) -> Result<BestMove, EngineError> {
    let listed: Vec<&str> = base.roots.listed().collect();
    let deadline = limits.time.map(|t| watch.started() + t);
    let last_round = if limits.depth == 0 {
        MAX_ROUNDS
    } else {
        limits.depth
    };
    let mut nodes = 0u64;
    let mut answer: Option<BestMove> = None;
    'rounds: for depth in 1..=last_round {
        let mut found: Vec<BestMove> = Vec::new();
        for k in 1..=limits.lines {
            if watch.ended() {
                break 'rounds;
            }
            let mut request = base.clone();
            request.depth = depth;
            request.info = false;
            let shown = |m: &&str| found.iter().any(|l| l.best == *m);
            request.roots = if base.roots.is_only() {
                // The GUI's choices less the lines already found.
                let left: Vec<&str> = listed.iter().copied().filter(|m| !shown(m)).collect();
                if left.is_empty() {
                    break;
                }
                engine::only(&left)
            } else {
                // The GUI's banned moves and the lines already found.
                let excluded: Vec<&str> = listed
                    .iter()
                    .copied()
                    .chain(found.iter().map(|l| l.best.as_str()))
                    .collect();
                if excluded.len() > MAX_EXCLUDE {
                    break;
                }
                engine::all_but(&excluded)
            };
            let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let spent = left.is_some_and(|l| l < Duration::from_millis(1))
                || (limits.nodes > 0 && nodes >= limits.nodes);
            // Out of time or nodes: the round's first line when no round completed
            // (the first search always runs, however short its time).
            if spent && (answer.is_some() || !found.is_empty()) {
                if answer.is_none() {
                    answer = found.into_iter().next();
                }
                break 'rounds;
            }
            if let Some(left) = left {
                request.movetime_ms = timeman::wire_ms(left).max(1);
            }
            if limits.nodes > 0 {
                request.nodes = limits.nodes.saturating_sub(nodes).max(1);
            }
            let line = link.go(&request, watch)?;
            nodes += line.nodes;
            if line.best == "none" || line.best.is_empty() {
                // No move is left beside the lines found.
                break;
            }
            let complete = u8::try_from(line.depth).is_ok_and(|d| d >= depth);
            if !complete || watch.ended() {
                // The first line of a deeper round, complete, is the better answer
                // (shown alone); an unfinished first line answers only when no
                // round completed.
                let first = if k > 1 {
                    found.into_iter().next()
                } else if complete {
                    Some(line)
                } else {
                    answer.get_or_insert(line);
                    None
                };
                if let Some(first) = first {
                    watch.show(u32::from(depth), 1, nodes, &first);
                    answer = Some(first);
                }
                break 'rounds;
            }
            found.push(line);
        }
        // Shown best first (each line's search is its own: a later one may score
        // higher than the first).
        found.sort_by_key(|line| std::cmp::Reverse(line.score));
        for (k, line) in found.iter().enumerate() {
            watch.show(u32::from(depth), k + 1, nodes, line);
        }
        match found.into_iter().next() {
            Some(best) => answer = Some(best),
            None => break,
        }
    }
    answer.ok_or_else(|| EngineError::Protocol("no line was searched".into()))
}
