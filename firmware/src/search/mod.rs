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
    /// Called every [`POLL_INTERVAL`] nodes: return `true` to stop now
    /// (a `stop` command arrived, or time ran out).
    fn poll(&mut self, nodes: u64) -> bool;
    /// Called after each completed iteration (drives the streamed `info` lines).
    fn iteration(&mut self, result: &SearchResult<M>) {
        let _ = result;
    }
}

/// Nodes between two calls to [`Control::poll`].
pub const POLL_INTERVAL: u64 = 256;

/// A control that never stops early and reports nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoControl;

impl<M> Control<M> for NoControl {
    fn poll(&mut self, _nodes: u64) -> bool {
        false
    }
}
