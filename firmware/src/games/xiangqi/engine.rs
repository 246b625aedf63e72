//! [`XiangqiEngine`]: the game as the board's service loop calls it.

use super::book;
use super::search::{BOARD_MOVE_STACK, HOST_MOVE_STACK, Iteration, MAX_DEPTH, Searcher, fill};
use super::state::Xiangqi;
use crate::engine::{BoardGame, EngineRequest, Poll, Profile, Workspace, send_answer, send_info};
use crate::game::Notation;
use crate::text::ParseError;

/// Deepest iteration at level 1 (the weaker level).
pub const WEAK_DEPTH: u8 = 3;

/// Xiangqi on the wire (`xiangqi`): see the module documentation for the
/// position and move forms and the levels.
pub struct XiangqiEngine;

impl BoardGame for XiangqiEngine {
    const NAME: &'static str = "xiangqi";

    fn search(
        request: &EngineRequest<'_>,
        poll: &mut dyn Poll,
        work: &mut Workspace<'_>,
    ) -> Result<(), ParseError> {
        let mut root = Xiangqi::parse_position(request.position)?;
        if request.level != 2
            && let Some(mv) = book::pick(root.position(), request.seed)
        {
            let mut it = Iteration {
                best: Some(mv),
                ..Iteration::default()
            };
            let _ = it.pv.push(mv);
            send_info(poll, &|reply| fill(&root, &it, reply));
            send_answer(poll, &|reply| fill(&root, &it, reply));
            return Ok(());
        }
        let mut max_depth = match request.limits.depth {
            0 => MAX_DEPTH,
            d => d.min(MAX_DEPTH),
        };
        if request.level == 1 {
            max_depth = max_depth.min(WEAK_DEPTH);
        }
        let it = match work.profile() {
            Profile::Board => run::<BOARD_MOVE_STACK>(&mut root, request, max_depth, poll),
            Profile::Host => run::<HOST_MOVE_STACK>(&mut root, request, max_depth, poll),
        };
        send_answer(poll, &|reply| fill(&root, &it, reply));
        Ok(())
    }

    fn perft(position: &str, depth: u8) -> Result<u64, ParseError> {
        let game = Xiangqi::parse_position(position)?;
        Ok(game.position().clone().perft(depth))
    }
}

/// One search with a move stack of `STACK` moves (the profile's size).
#[inline(never)]
fn run<const STACK: usize>(
    root: &mut Xiangqi,
    request: &EngineRequest<'_>,
    max_depth: u8,
    poll: &mut dyn Poll,
) -> Iteration {
    Searcher::<STACK>::new(request.limits, poll).run(root, max_depth)
}
