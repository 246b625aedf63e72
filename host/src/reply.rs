//! Owned forms of the board's typed replies ([`sente_firmware::protocol::Reply`]),
//! for keeping answers after the line they came in is gone.

use sente_firmware::engine::Profile;
use sente_firmware::protocol::{Hello, Search};

/// The answer to a `go` request (or one `info` iteration of it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BestMove {
    /// The move (`none` when the position has no legal move; empty in `info` lines);
    /// two-word moves (`setup 615243`) stay whole.
    pub best: String,
    /// Score from the side to move's point of view.
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Clock ticks the board spent (host: microseconds).
    pub ticks: u64,
    /// Peak stack bytes (0 on the host and in `info` lines).
    pub stack: u32,
    /// Arena bytes the engine took (0 in `info` lines).
    pub arena: u64,
    /// Principal variation.
    pub pv: Vec<String>,
}

impl BestMove {
    /// The owned form of a `bestmove` or `info` line. An `info` line's move is the
    /// first move of its principal variation.
    pub fn from_search(s: &Search<'_>) -> Self {
        let pv: Vec<String> = s.pv_moves().map(str::to_string).collect();
        Self {
            best: if s.best.is_empty() {
                pv.first().cloned().unwrap_or_default()
            } else {
                s.best.to_string()
            },
            score: s.score,
            depth: u32::from(s.depth),
            nodes: s.nodes,
            ticks: s.ticks,
            stack: s.stack.unwrap_or(0),
            arena: s.arena.unwrap_or(0),
            pv,
        }
    }
}

/// What a board's `hello` says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardInfo {
    /// Board name.
    pub board: String,
    /// Firmware version.
    pub fw: String,
    /// Clock ticks per second.
    pub hz: u32,
    /// RAM in bytes.
    pub ram: u32,
    /// Static RAM in bytes.
    pub statics: u32,
    /// The engines' profile.
    pub profile: Profile,
    /// Bytes of the engines' arena.
    pub arena: u64,
    /// Games served.
    pub games: Vec<String>,
}

impl BoardInfo {
    /// The owned form of a `hello` line.
    pub fn from_hello(h: &Hello<'_>) -> Self {
        Self {
            board: h.board.to_string(),
            fw: h.fw.to_string(),
            hz: h.hz,
            ram: h.ram,
            statics: h.statics,
            profile: h.profile,
            arena: h.arena,
            games: h.games.split(',').map(str::to_string).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente_firmware::protocol::{Reply, ReplyKind};

    #[test]
    fn keeps_bestmove_and_info_lines() {
        let r = Reply::parse(
            "bestmove setup 615243 score=0 depth=0 nodes=0 ticks=1 stack=9 arena=0 pv setup 615243",
        )
        .unwrap();
        let ReplyKind::BestMove(s) = r.kind else {
            panic!()
        };
        let b = BestMove::from_search(&s);
        assert_eq!((b.best.as_str(), b.stack), ("setup 615243", 9));
        assert_eq!(b.pv, ["setup", "615243"]);
        let r = Reply::parse("info depth=2 score=1 nodes=36 ticks=3 pv b2 a3").unwrap();
        let ReplyKind::Info(s) = r.kind else { panic!() };
        assert_eq!(BestMove::from_search(&s).best, "b2");
    }
}
