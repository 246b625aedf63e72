//! [`XiangqiEngine`]: the game as the board's service loop calls it.

use super::book;
use super::search::{
    BOARD_MAX_DEPTH, BOARD_MOVE_STACK, BOARD_PLY, BOARD_PV, HISTORY_WORDS, HOST_MAX_DEPTH,
    HOST_MOVE_STACK, HOST_PLY, HOST_PV, Iteration, Searcher, fill,
};
use super::state::Xiangqi;
use super::tt::Tt;
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
        let profile = work.profile();
        let cap = match profile {
            Profile::Board => BOARD_MAX_DEPTH,
            Profile::Host => HOST_MAX_DEPTH,
        };
        let mut max_depth = match request.limits.depth {
            0 => cap,
            d => d.min(cap),
        };
        if request.level == 1 {
            max_depth = max_depth.min(WEAK_DEPTH);
        }
        let stack = match profile {
            Profile::Board => BOARD_MOVE_STACK,
            Profile::Host => HOST_MOVE_STACK,
        };
        // The move stack and the history counters first, the transposition
        // table in the rest.
        let arena = work.take(usize::MAX);
        if arena.len() < stack + HISTORY_WORDS {
            return Err(ParseError(
                "the arena is too small for the xiangqi move stack",
            ));
        }
        let (moves, rest) = arena.split_at_mut(stack);
        let (history, table) = rest.split_at_mut(HISTORY_WORDS);
        let tables = Tables {
            moves,
            history,
            tt: Tt::new(table),
        };
        let it = match profile {
            Profile::Board => {
                run::<BOARD_PLY, BOARD_PV>(&mut root, request, max_depth, tables, poll)
            }
            Profile::Host => run::<HOST_PLY, HOST_PV>(&mut root, request, max_depth, tables, poll),
        };
        send_answer(poll, &|reply| fill(&root, &it, reply));
        Ok(())
    }

    fn perft(position: &str, depth: u8) -> Result<u64, ParseError> {
        let game = Xiangqi::parse_position(position)?;
        Ok(game.position().clone().perft(depth))
    }
}

/// The search's tables, carved out of the arena.
struct Tables<'t> {
    moves: &'t mut [u64],
    history: &'t mut [u64],
    tt: Tt<'t>,
}

/// One search with the profile's sizes.
#[inline(never)]
fn run<const PLY: usize, const PV: usize>(
    root: &mut Xiangqi,
    request: &EngineRequest<'_>,
    max_depth: u8,
    t: Tables<'_>,
    poll: &mut dyn Poll,
) -> Iteration {
    Searcher::<PLY, PV>::new(request.limits, t.moves, t.history, t.tt, poll).run(root, max_depth)
}
