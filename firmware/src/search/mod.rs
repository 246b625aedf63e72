//! Game-tree search: limits, results and the engines games plug into.

pub mod negamax;

use crate::game::Score;

/// Most plies a principal variation holds in the generic search.
pub const MAX_PV: usize = 16;

/// A principal variation: the expected line of best play from the root.
pub type Pv<M> = heapless::Vec<M, MAX_PV>;

/// How far a search may go. Zero means "no limit" for every field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: u8,
    /// Most nodes to visit.
    pub nodes: u64,
    /// Most clock ticks to spend (the service converts milliseconds with the clock's rate).
    pub ticks: u64,
}

/// The outcome of a search, or of one completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// Best move found; `None` when the root has no legal move.
    pub best: Option<M>,
    /// Score of `best` from the root side's point of view.
    pub score: Score,
    /// Depth of the deepest completed iteration.
    pub depth: u8,
    /// Nodes visited in total.
    pub nodes: u64,
    /// Principal variation, starting with `best`.
    pub pv: Pv<M>,
}

/// What the search asks of its caller while it runs.
pub trait Control<M> {
    /// Called every few nodes (see [`poll_every`]): return `true` to stop now
    /// (a `stop` command arrived, or time ran out).
    fn poll(&mut self, nodes: u64) -> bool;
    /// Called after each completed iteration (drives the streamed `info` lines).
    fn iteration(&mut self, result: &SearchResult<M>) {
        let _ = result;
    }
}

/// Nodes between two calls to [`Control::poll`] for engines that have not
/// measured their cost per node (see [`poll_every`]).
pub const POLL_INTERVAL: u64 = 256;

/// Board clock ticks allowed between two polls: 5 ms at the micro:bit's 16 MHz,
/// so `stop` and a move time are honoured within 10 ms of board time even on the
/// slowest board.
pub const POLL_BUDGET_TICKS: u64 = 80_000;

/// Nodes between two polls for an engine whose node costs about
/// `board_ticks_per_node` ticks on the slowest board (its most expensive
/// nodes, as the HIL report measures them): the largest power of two whose nodes
/// fit [`POLL_BUDGET_TICKS`], at least 1. A power of two keeps the test a mask.
pub const fn poll_every(board_ticks_per_node: u64) -> u64 {
    let mut every = 1;
    while every * 2 * board_ticks_per_node <= POLL_BUDGET_TICKS && every < POLL_INTERVAL {
        every *= 2;
    }
    every
}

/// A control that never stops early and reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoControl;

impl<M> Control<M> for NoControl {
    fn poll(&mut self, _nodes: u64) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polls_fit_the_budget() {
        assert_eq!(
            poll_every(100_000),
            1,
            "a node over the budget: poll each one"
        );
        assert_eq!(poll_every(80_000), 1);
        assert_eq!(poll_every(40_000), 2);
        assert_eq!(poll_every(500), 128);
        assert_eq!(poll_every(1), POLL_INTERVAL, "never rarer than the default");
        for cost in [1, 7, 480, 2_700, 13_600, 60_000, 200_000] {
            let every = poll_every(cost);
            assert!(every.is_power_of_two());
            assert!(every == 1 || every * cost <= POLL_BUDGET_TICKS, "{cost}");
        }
    }
}
