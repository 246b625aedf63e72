//! [`EinsteinEngine`]: the game as the board serves it (levels, setups, seeded dice).

use core::fmt::Write;

use super::board::{Arrangement, Einstein, Move};
use super::eval::WIN;
use super::rng::SplitMix64;
use super::rules::Moves;
use super::search::{self, Budget};
use super::seed;
use crate::engine::{
    BoardGame, EngineReply, EngineRequest, Poll, Workspace, send_answer, send_info,
};
use crate::game::{Game, Notation, Score};
use crate::text::ParseError;

/// The strong level's setup: `setup 615243` (see [`Arrangement`] for the square order):
/// the middle numbers 3–5 on the front diagonal (`c5 b4 a3` for red), since once cubes
/// are lost the middle numbers inherit die faces from both sides; 6, 1, 2 behind.
/// Measured against random setups (strong engine both sides, 1000 games) it scores
/// 52.4 % ± 3.1 %: the setup matters little next to the play.
pub const STRONG_SETUP: Arrangement = Arrangement([6, 1, 5, 2, 4, 3]);

/// EinStein würfelt nicht! on the wire (`einstein`).
///
/// Levels (all deterministic for a given request, seed included):
/// - 0 (default), strong: expectiminimax with Star1 pruning and iterative deepening
///   ([`search`]); depth = steps searched, score = expected result ×1000 (1000 = sure win);
///   sets up with [`STRONG_SETUP`];
/// - 1, seed 001's Monte Carlo player ([`seed`]): M = 100 simulations of N = 7 plies
///   per candidate step (a depth limit sets N); score = average final evaluation
///   (±10000 for a win); sets up at random (seeded);
/// - 2, random: a uniformly random legal step or setup (seeded).
///
/// A position whose side to move has not rolled yet is answered with a seeded die
/// roll (`roll 4`), so the host can get reproducible dice from the seed.
pub struct EinsteinEngine;

/// Writes an answer into `out`: the move (`none` if there is none), also as the PV.
fn fill(out: &mut EngineReply, mv: Option<Move>, score: Score, depth: u8, nodes: u64) {
    out.score = score;
    out.depth = depth;
    out.nodes = nodes;
    out.best.clear();
    out.pv.clear();
    match mv {
        Some(mv) => {
            let _ = Einstein::start().write_move(mv, &mut out.best);
            let _ = out.pv.write_str(&out.best);
        }
        None => {
            let _ = out.best.push_str("none");
        }
    }
}

/// Streams one `info` line.
fn info(budget: &mut Budget<'_>, mv: Move, score: Score, depth: u8) {
    let nodes = budget.nodes;
    send_info(budget.poll(), &|r| fill(r, Some(mv), score, depth, nodes));
}

impl EinsteinEngine {
    /// The answer to a request about `pos` (level already checked): move, score,
    /// depth and nodes.
    fn decide(
        pos: &Einstein,
        request: &EngineRequest<'_>,
        poll: &mut dyn Poll,
    ) -> (Option<Move>, Score, u8, u64) {
        let mut rng = SplitMix64::new(request.seed);
        if let Some(w) = pos.winner() {
            return (None, if w == pos.side { WIN } else { -WIN }, 0, 0);
        }
        if pos.in_setup() {
            let arr = Self::choose_setup(request.level, &mut rng);
            return (Some(Move::Setup(arr)), 0, 0, 0);
        }
        if pos.roll().is_none() {
            return (Some(Move::Roll(rng.die())), 0, 0, 0);
        }
        let limits = request.limits;
        match request.level {
            0 => {
                let (depth, nodes) = search::plan(limits);
                let mut budget = Budget::new(poll, nodes);
                let found = search::search(pos, depth, &mut budget, |b, it| {
                    info(b, it.best, it.score, it.depth);
                });
                match found {
                    Some(it) => (Some(it.best), it.score, it.depth, budget.nodes),
                    None => (first_step(pos), 0, 0, budget.nodes),
                }
            }
            1 => {
                let mut budget = Budget::new(poll, limits.nodes);
                let plies = if limits.depth != 0 {
                    limits.depth
                } else {
                    seed::PLIES
                };
                let found = seed::choose(
                    pos,
                    seed::SIMULATIONS,
                    plies,
                    &mut rng,
                    &mut budget,
                    |b, c| info(b, c.best, c.score, plies),
                );
                match found {
                    Some(c) => (Some(c.best), c.score, plies, budget.nodes),
                    None => (first_step(pos), 0, 0, budget.nodes),
                }
            }
            _ => {
                let mut moves = Moves::new();
                pos.generate(&mut moves);
                let pick = moves.get(rng.below(moves.len() as u32) as usize).copied();
                (pick, 0, 0, 0)
            }
        }
    }

    /// The setup a level chooses.
    pub fn choose_setup(level: u8, rng: &mut SplitMix64) -> Arrangement {
        if level == 0 {
            STRONG_SETUP
        } else {
            Arrangement::nth(rng.below(720) as u16)
        }
    }
}

impl BoardGame for EinsteinEngine {
    const NAME: &'static str = "einstein";

    fn search(
        request: &EngineRequest<'_>,
        poll: &mut dyn Poll,
        _work: &mut Workspace<'_>,
    ) -> Result<(), ParseError> {
        let pos = Einstein::parse_position(request.position.trim())?;
        if request.level > 2 {
            return Err(ParseError(
                "einstein levels: 0 strong, 1 seed Monte Carlo, 2 random",
            ));
        }
        let (mv, score, depth, nodes) = Self::decide(&pos, request, poll);
        send_answer(poll, &|out| fill(out, mv, score, depth, nodes));
        Ok(())
    }

    /// Perft with chance plies: a roll counts as a ply (six children), and a setup
    /// position has 720 children.
    fn perft(position: &str, depth: u8) -> Result<u64, ParseError> {
        let mut pos = Einstein::parse_position(position.trim())?;
        Ok(perft(&mut pos, depth))
    }
}

/// The first legal step, when the search ran out before completing anything.
fn first_step(pos: &Einstein) -> Option<Move> {
    let mut moves = Moves::new();
    pos.generate(&mut moves);
    pos.order_moves(&mut moves);
    moves.first().copied()
}

/// Leaf count of the move tree to `depth`, setups and rolls included.
pub fn perft(pos: &mut Einstein, depth: u8) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.winner().is_some() {
        return 0;
    }
    if pos.in_setup() {
        let mut total = 0;
        for i in 0..720 {
            let mv = Move::Setup(Arrangement::nth(i));
            let undo = pos.make(mv);
            total += perft(pos, depth - 1);
            pos.unmake(mv, undo);
        }
        return total;
    }
    let mut moves = Moves::new();
    pos.generate(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let undo = pos.make(mv);
        total += perft(pos, depth - 1);
        pos.unmake(mv, undo);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;

    /// Records `info` lines; never stops.
    #[derive(Default)]
    pub(crate) struct Recorder {
        pub infos: std::vec::Vec<EngineReply>,
    }
    impl Poll for Recorder {
        fn poll(&mut self, _nodes: u64) -> bool {
            false
        }
        fn info(&mut self, reply: &EngineReply) {
            self.infos.push(reply.clone());
        }
    }

    fn ask(position: &str, level: u8, seed: u64, limits: Limits) -> EngineReply {
        let req = EngineRequest {
            position,
            limits,
            level,
            seed,
            roots: crate::engine::RootMoves::All,
        };
        crate::engine::ask_with::<EinsteinEngine>(&req, &mut Recorder::default()).unwrap()
    }

    const OPENING: &str =
        "r:a5=6,b5=1,c5=5,a4=2,b4=4,a3=3 b:e1=1,d1=2,c1=3,e2=4,d2=5,e3=6 turn=r roll=4";

    #[test]
    fn every_level_answers_and_is_deterministic() {
        let depth3 = Limits {
            depth: 3,
            ..Limits::default()
        };
        for level in 0..=2 {
            let a = ask(OPENING, level, 5, depth3);
            assert_eq!(a, ask(OPENING, level, 5, depth3));
            let pos = Einstein::parse_position(OPENING).unwrap();
            assert!(pos.parse_move(&a.best).is_ok(), "level {level}: {a:?}");
        }
        let mut rec = Recorder::default();
        let req = EngineRequest {
            position: OPENING,
            limits: depth3,
            level: 0,
            seed: 0,
            roots: crate::engine::RootMoves::All,
        };
        let r = crate::engine::ask_with::<EinsteinEngine>(&req, &mut rec).unwrap();
        assert_eq!(r.depth, 3);
        assert_eq!(rec.infos.len(), 3);
        assert_eq!(rec.infos.last(), Some(&r));
    }

    #[test]
    fn node_limits_are_exact() {
        for level in [0, 1] {
            let limits = Limits {
                nodes: 2000,
                ..Limits::default()
            };
            let r = ask(OPENING, level, 1, limits);
            assert_eq!(r.nodes, 2000, "level {level}");
        }
    }

    #[test]
    fn strong_and_seed_levels_take_a_win_in_one() {
        for level in [0, 1] {
            let r = ask(
                "r:d2=3,a5=1 b:b4=1,a4=2 turn=r roll=3",
                level,
                7,
                Limits::default(),
            );
            assert_eq!(r.best.as_str(), "3:e1", "level {level}");
        }
    }

    #[test]
    fn stop_from_the_service_is_prompt() {
        struct StopAt(u64);
        impl Poll for StopAt {
            fn poll(&mut self, nodes: u64) -> bool {
                nodes >= self.0
            }
            fn info(&mut self, _reply: &EngineReply) {}
        }
        for level in [0, 1] {
            let req = EngineRequest {
                position: OPENING,
                limits: Limits::default(),
                level,
                seed: 4,
                roots: crate::engine::RootMoves::All,
            };
            let r = crate::engine::ask_with::<EinsteinEngine>(&req, &mut StopAt(1024)).unwrap();
            assert_eq!(r.nodes, 1024, "level {level}");
            let pos = Einstein::parse_position(OPENING).unwrap();
            assert!(pos.parse_move(&r.best).is_ok());
        }
    }

    #[test]
    fn setups_rolls_and_finished_games() {
        let r = ask("start", 0, 0, Limits::default());
        assert_eq!(r.best.as_str(), "setup 615243");
        let a = ask("start", 2, 1, Limits::default());
        let b = ask("start", 2, 2, Limits::default());
        assert!(a.best.starts_with("setup ") && b.best.starts_with("setup "));
        assert!(Einstein::start().parse_move(&a.best).is_ok());
        let r = ask("r:a5=1 b:e1=2 turn=b", 0, 3, Limits::default());
        assert!(r.best.starts_with("roll "), "{r:?}");
        let r = ask("r:e1=1 b:c3=2 turn=b", 0, 3, Limits::default());
        assert_eq!(r.best.as_str(), "none");
        assert_eq!(r.score, -WIN);
        let req = EngineRequest {
            position: "start",
            limits: Limits::default(),
            level: 3,
            seed: 0,
            roots: crate::engine::RootMoves::All,
        };
        assert!(
            EinsteinEngine::search(&req, &mut Recorder::default(), &mut Workspace::bare()).is_err()
        );
        let req = EngineRequest {
            position: "r:z9=1",
            ..req
        };
        assert!(
            EinsteinEngine::search(&req, &mut Recorder::default(), &mut Workspace::bare()).is_err()
        );
    }

    #[test]
    fn perft_counts_setups_rolls_and_steps() {
        assert_eq!(EinsteinEngine::perft("start", 1), Ok(720));
        assert_eq!(EinsteinEngine::perft("start", 2), Ok(720 * 720));
        // after both setups: 6 rolls, each with 3 steps for red
        let setup = "r:a5=1,b5=2,c5=3,a4=4,b4=5,a3=6 b:e1=1,d1=2,c1=3,e2=4,d2=5,e3=6 turn=r";
        assert_eq!(EinsteinEngine::perft(setup, 1), Ok(6));
        assert_eq!(EinsteinEngine::perft(setup, 2), Ok(18));
        assert_eq!(EinsteinEngine::perft(setup, 3), Ok(18 * 6));
        assert_eq!(EinsteinEngine::perft(setup, 4), Ok(18 * 18));
        assert!(EinsteinEngine::perft("bad", 1).is_err());
    }
}
