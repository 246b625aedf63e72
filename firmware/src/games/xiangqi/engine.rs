//! [`XiangqiEngine`]: the game as the board's service loop calls it.

use super::board::Square;
use super::book;
use super::search::{
    BOARD_MAX_DEPTH, BOARD_MOVE_STACK, BOARD_PLY, BOARD_PV, BOARD_PVT, HISTORY_WORDS,
    HOST_HISTORY_WORDS, HOST_MAX_DEPTH, HOST_MOVE_STACK, HOST_PLY, HOST_PV, HOST_PVT, Iteration,
    RootList, Searcher, fill,
};
use super::state::Xiangqi;
use super::tt::Tt;
use crate::engine::{
    BoardGame, EngineRequest, MAX_EXCLUDE, Poll, Profile, Workspace, send_answer, send_info,
};
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
        // The position and the listed moves are parsed (and the book asked)
        // out of line: their temporaries stay off this frame, which the
        // search runs on top of.
        let mut root = Xiangqi::empty();
        let mut listed = [(0, 0); MAX_EXCLUDE];
        let Some(count) = prepare(request, poll, &mut root, &mut listed)? else {
            return Ok(());
        };
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
        // The host's history has continuation counters too.
        let history_words = match profile {
            Profile::Board => HISTORY_WORDS,
            Profile::Host => HOST_HISTORY_WORDS,
        };
        // The move stack and the history counters first, the transposition
        // table in the rest.
        let arena = work.take(usize::MAX);
        if arena.len() < stack + history_words {
            return Err(ParseError(
                "the arena is too small for the xiangqi move stack",
            ));
        }
        // What the table's entries depend on beyond the position, for the
        // host's requests that keep the table (a board request reads its own
        // entries only): the profile's evaluation and pruning, and level 1's
        // depth cap (its search must not take deeper results).
        let context = match profile {
            Profile::Board => 0,
            Profile::Host => 1 | (u8::from(request.level == 1) << 1),
        };
        let (moves, rest) = arena.split_at_mut(stack);
        let (history, table) = rest.split_at_mut(history_words);
        let tables = Tables {
            moves,
            history,
            tt: Tt::new(table, context),
            roots: RootList {
                moves: &listed[..count],
                only: request.roots.is_only(),
            },
        };
        let it = match profile {
            Profile::Board => {
                run::<BOARD_PLY, BOARD_PV, BOARD_PVT>(&mut root, request, max_depth, tables, poll)
            }
            Profile::Host => {
                run::<HOST_PLY, HOST_PV, HOST_PVT>(&mut root, request, max_depth, tables, poll)
            }
        };
        send_answer(poll, &|reply| fill(&root, &it, reply));
        Ok(())
    }

    fn perft(position: &str, depth: u8) -> Result<u64, ParseError> {
        let game = Xiangqi::parse_position(position)?;
        Ok(game.position().clone().perft(depth))
    }
}

/// Parses a request's position into `root` and its listed root moves into
/// `listed`; answers from the book when it may (`None`), else gives how many
/// moves are listed. Out of line, so that the parsed game's temporary copy
/// and the book's reply stay off the frame the search runs on top of.
#[inline(never)]
fn prepare(
    request: &EngineRequest<'_>,
    poll: &mut dyn Poll,
    root: &mut Xiangqi,
    listed: &mut [(Square, Square); MAX_EXCLUDE],
) -> Result<Option<usize>, ParseError> {
    *root = Xiangqi::parse_position(request.position)?;
    // The listed root moves, by their squares (one that is not legal here
    // is no move: excluded, it excludes nothing; as the only choice, it
    // adds none).
    let mut count = 0;
    for text in request.roots.listed() {
        let slot = listed
            .get_mut(count)
            .ok_or(ParseError("exclude=/only=: at most 16 moves"))?;
        *slot = super::notation::parse_iccs(text)
            .map_err(|_| ParseError("exclude=/only=: a move is not ICCS (h2e2)"))?;
        count += 1;
    }
    // The book answers only when every move may be played.
    if request.level != 2
        && request.roots.is_all()
        && let Some(mv) = book::pick(root.position(), request.seed)
    {
        let mut it = Iteration {
            best: Some(mv),
            ..Iteration::default()
        };
        let _ = it.pv.push(mv);
        send_info(poll, &|reply| fill(root, &it, reply));
        send_answer(poll, &|reply| fill(root, &it, reply));
        return Ok(None);
    }
    Ok(Some(count))
}

/// The search's tables, carved out of the arena.
struct Tables<'t> {
    moves: &'t mut [u64],
    history: &'t mut [u64],
    tt: Tt<'t>,
    /// The request's listed root moves.
    roots: RootList<'t>,
}

/// One search with the profile's sizes.
#[inline(never)]
fn run<const PLY: usize, const PV: usize, const PVT: usize>(
    root: &mut Xiangqi,
    request: &EngineRequest<'_>,
    max_depth: u8,
    t: Tables<'_>,
    poll: &mut dyn Poll,
) -> Iteration {
    let mut searcher =
        Searcher::<PLY, PV, PVT>::new(request.limits, t.moves, t.history, t.tt, poll);
    searcher.restrict_root(t.roots);
    searcher.run(root, max_depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{EngineReply, RootMoves, ask};
    use crate::game::Game;
    use crate::search::Limits;

    fn search(position: &str, exclude: &str) -> Result<EngineReply, ParseError> {
        ask_roots(
            position,
            if exclude.is_empty() {
                RootMoves::All
            } else {
                RootMoves::Except(exclude)
            },
        )
    }

    fn ask_roots(position: &str, roots: RootMoves<&str>) -> Result<EngineReply, ParseError> {
        let request = EngineRequest {
            position,
            limits: Limits {
                depth: 3,
                ..Limits::default()
            },
            level: 0,
            seed: 0,
            roots,
        };
        ask::<XiangqiEngine>(&request)
    }

    #[test]
    fn excluded_root_moves_are_not_played_and_the_book_steps_aside() {
        let best = search("startpos", "").unwrap().best;
        let mut banned = std::string::String::from(best.as_str());
        for _ in 0..3 {
            let reply = search("startpos", &banned).unwrap();
            assert!(!banned.split(',').any(|m| m == reply.best.as_str()));
            assert!(
                Xiangqi::parse_position("startpos")
                    .unwrap()
                    .parse_move(&reply.best)
                    .is_ok()
            );
            banned.push(',');
            banned.push_str(&reply.best);
        }
    }

    #[test]
    fn with_every_legal_move_excluded_there_is_no_move() {
        // Red's king has e1 and f0 (d0 would face the black king).
        let position = "3k5/9/9/9/9/9/9/9/9/4K3p w";
        let game = Xiangqi::parse_position(position).unwrap();
        let mut moves = <Xiangqi as Game>::Moves::default();
        game.generate(&mut moves);
        let mut all = std::vec::Vec::new();
        for &mv in moves.iter() {
            let mut text = std::string::String::new();
            game.write_move(mv, &mut text).unwrap();
            all.push(text);
        }
        assert_eq!(all.len(), 2, "{all:?}");
        let reply = search(position, &all[..1].join(",")).unwrap();
        assert_eq!(reply.best.as_str(), all[1]);
        assert_eq!(
            search(position, &all.join(",")).unwrap().best.as_str(),
            "none"
        );
    }

    #[test]
    fn unreadable_or_too_many_exclusions_are_errors() {
        assert!(search("startpos", "h2").is_err());
        let many = ["a0a1"; 17].join(",");
        assert!(search("startpos", &many).is_err());
        assert!(search("startpos", &["a0a1"; 16].join(",")).is_ok());
    }

    #[test]
    fn only_the_listed_root_moves_are_played_and_the_book_steps_aside() {
        // Neither is the book's nor the search's choice from the start.
        for list in ["a3a4", "a3a4,i0i1", "i0i1,a3a4,h7h8"] {
            let reply = ask_roots("startpos", RootMoves::Only(list)).unwrap();
            assert!(
                list.split(',').any(|m| m == reply.best.as_str()),
                "{list}: {reply:?}"
            );
            assert!(reply.depth >= 1, "searched, not the book: {reply:?}");
        }
        // A move that is not legal is no choice: the legal one is played, and
        // with none legal there is no move.
        let reply = ask_roots("startpos", RootMoves::Only("h7h8,c3c4")).unwrap();
        assert_eq!(reply.best.as_str(), "c3c4");
        let reply = ask_roots("startpos", RootMoves::Only("h7h8")).unwrap();
        assert_eq!(reply.best.as_str(), "none");
        assert!(ask_roots("startpos", RootMoves::Only("h2")).is_err());
        assert!(ask_roots("startpos", RootMoves::Only(&["a0a1"; 17].join(","))).is_err());
    }

    /// A middle game out of the book (both sides developed).
    const MIDDLE: &str = "startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b2d2 b7b3 g3g4 c6c5";

    /// Asks `request` in the host profile over `arena`.
    fn ask_host(request: &EngineRequest<'_>, arena: &mut [u64]) -> EngineReply {
        crate::engine::ask_in::<XiangqiEngine>(
            request,
            &mut crate::engine::QuietPoll,
            &mut Workspace::new(Profile::Host, arena),
        )
        .unwrap()
    }

    /// A host request (no book) with `limits`.
    fn host_request(position: &str, limits: Limits, level: u8) -> EngineRequest<'_> {
        EngineRequest {
            position,
            limits,
            level,
            seed: 0,
            roots: RootMoves::All,
        }
    }

    /// A request limited by the clock (the test's poll never stops it: its
    /// nodes or depth do).
    fn timed(limits: Limits) -> Limits {
        Limits { ticks: 1, ..limits }
    }

    fn host_arena() -> std::vec::Vec<u64> {
        std::vec![0u64; 1 << 18]
    }

    #[test]
    fn a_host_request_limited_by_depth_or_nodes_answers_as_in_a_fresh_arena() {
        let by_nodes = Limits {
            nodes: 6_000,
            ..Limits::default()
        };
        let by_depth = Limits {
            depth: 4,
            ..Limits::default()
        };
        let child = std::format!("{MIDDLE} h0h6");
        for limits in [by_nodes, by_depth] {
            let request = host_request(MIDDLE, limits, 2);
            let fresh = ask_host(&request, &mut host_arena());
            let mut arena = host_arena();
            // Timed requests (which keep the table) and others before it, of the
            // position, its parent and a child, with a restricted root too.
            let parent = &MIDDLE[..MIDDLE.rfind(' ').unwrap()];
            for earlier in [
                host_request(parent, timed(by_nodes), 2),
                host_request(MIDDLE, timed(by_depth), 2),
                host_request(&child, by_nodes, 0),
                host_request(MIDDLE, by_depth, 1),
                EngineRequest {
                    roots: RootMoves::Only("h0h6"),
                    ..host_request(MIDDLE, timed(by_nodes), 2)
                },
                host_request(MIDDLE, timed(by_nodes), 2),
            ] {
                ask_host(&earlier, &mut arena);
                let again = ask_host(&request, &mut arena);
                assert_eq!(
                    (
                        &again.best,
                        again.score,
                        again.depth,
                        again.nodes,
                        &again.pv
                    ),
                    (
                        &fresh.best,
                        fresh.score,
                        fresh.depth,
                        fresh.nodes,
                        &fresh.pv
                    ),
                    "after {:?}",
                    earlier.limits
                );
            }
        }
    }

    #[test]
    fn a_timed_host_request_reads_the_earlier_requests_entries() {
        let limits = timed(Limits {
            depth: 5,
            ..Limits::default()
        });
        let request = host_request(MIDDLE, limits, 2);
        let mut arena = host_arena();
        let fresh = ask_host(&request, &mut arena);
        let kept = ask_host(&request, &mut arena);
        assert!(kept.nodes < fresh.nodes / 2, "{kept:?} {fresh:?}");
        assert_eq!(kept.depth, fresh.depth);
        // Level 1 (depth 3 at most) is another context: a fresh table, not
        // the deeper searches' results.
        let weak = host_request(MIDDLE, limits, 1);
        let alone = ask_host(&weak, &mut host_arena());
        let after = ask_host(&weak, &mut arena);
        assert_eq!(
            (&after.best, after.score, after.nodes),
            (&alone.best, alone.score, alone.nodes)
        );
    }

    #[test]
    fn a_host_request_with_a_restricted_root_leaves_no_entry_for_it() {
        let key = Xiangqi::parse_position(MIDDLE).unwrap().position().key();
        let mut arena = host_arena();
        let limits = timed(Limits {
            depth: 3,
            ..Limits::default()
        });
        for roots in [
            RootMoves::All,
            RootMoves::Only("h0h6,c3c4"),
            RootMoves::All,
            RootMoves::Except("h0h6"),
        ] {
            ask_host(
                &EngineRequest {
                    roots,
                    ..host_request(MIDDLE, limits, 2)
                },
                &mut arena,
            );
            // The table as the next request of the same context finds it.
            let tt = Tt::new(&mut arena[HOST_MOVE_STACK + HOST_HISTORY_WORDS..], 1);
            assert_eq!(
                tt.probe::<true>(key, 0).is_some(),
                roots.is_all(),
                "{roots:?}"
            );
        }
    }

    #[test]
    fn a_mate_left_out_of_the_only_list_is_not_played() {
        // Red mates at once with a0a8 (two rooks and the flying general); given
        // only a quiet rook move, that is what it plays, and it mates later.
        let position = "4k4/9/9/9/9/9/9/9/9/R2K1R3 w";
        let mate = ask_roots(position, RootMoves::All).unwrap();
        assert_eq!(mate.best.as_str(), "a0a8");
        assert_eq!(mate.score, crate::game::MATE - 1, "{mate:?}");
        let reply = ask_roots(position, RootMoves::Only("a0a1,f0f1")).unwrap();
        assert!(["a0a1", "f0f1"].contains(&reply.best.as_str()), "{reply:?}");
        assert!(reply.score < crate::game::MATE - 1, "{reply:?}");
    }
}
