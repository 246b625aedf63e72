//! [`CheckersEngine`]: Chinese checkers as the board serves it.

use core::fmt::Write;

use super::eval::evaluate;
use super::notation::write_move;
use super::rules::{Checkers, Move};
use super::search::{Found, Line, greedy, search};
use crate::engine::{
    BoardGame, EngineReply, EngineRequest, MOVE_TEXT, PV_TEXT, Poll, Workspace, send_answer,
    send_info,
};
use crate::game::{Game, Notation};
use crate::search::Limits;
use crate::text::ParseError;

/// Chinese checkers on the wire (`checkers`). Levels: 0 = best-reply search
/// (alpha-beta for two players), 1 = greedy one-ply baseline. The engines are
/// deterministic and do not use the request's seed.
pub struct CheckersEngine;

/// Writes a search result into the wire reply `r` (in place: replies are big
/// for the board's stack).
fn write_reply(found: &Found, r: &mut EngineReply) {
    r.score = found.score;
    r.depth = found.depth;
    r.nodes = found.nodes;
    r.best.clear();
    r.pv.clear();
    match found.best {
        Some(mv) => {
            let _ = write_move(mv, &mut r.best);
        }
        None => {
            let _ = r.best.push_str("none");
        }
    }
    for (i, &mv) in found.pv.as_slice().iter().enumerate() {
        let mut one = heapless::String::<MOVE_TEXT>::new();
        if write_move(mv, &mut one).is_err()
            || r.pv.len() + one.len() + usize::from(i > 0) > PV_TEXT
        {
            break;
        }
        if i > 0 {
            let _ = r.pv.push(' ');
        }
        let _ = r.pv.write_str(&one);
    }
}

/// Leaf count of the legal move tree (passes included), streaming moves
/// instead of storing lists, so it runs on the board.
pub fn perft(pos: &mut Checkers, depth: u8) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.outcome().is_some() {
        return 0;
    }
    let p = pos.turn();
    let mut pieces = [0u8; 15];
    let own = pos.pieces_of(p);
    let n = own.len().min(15);
    pieces[..n].copy_from_slice(&own[..n]);
    let mut total = 0;
    let mut any = false;
    for &from in &pieces[..n] {
        // Destinations first (the position changes while the moves are played).
        for to in pos.reachable(from).iter() {
            any = true;
            total += if depth == 1 {
                1
            } else {
                let mv = Move { from, to };
                pos.make(mv);
                let t = perft(pos, depth - 1);
                pos.unmake(mv, ());
                t
            };
        }
    }
    if !any {
        pos.make(Move::PASS);
        total = perft(pos, depth - 1);
        pos.unmake(Move::PASS, ());
    }
    total
}

/// Level 0: the best-reply search, one `info` line per completed iteration.
#[inline(never)]
fn level_search(pos: &mut Checkers, limits: Limits, poll: &mut dyn Poll) -> Found {
    search(pos, limits, poll, &mut |f, poll| {
        send_info(poll, &|reply| write_reply(f, reply))
    })
}

/// Level 1: the greedy one-ply move, scored by the evaluation after it.
#[inline(never)]
fn level_greedy(pos: &mut Checkers, poll: &mut dyn Poll) -> Found {
    let best = greedy(pos);
    let mut found = Found {
        best,
        score: 0,
        depth: u8::from(best.is_some()),
        nodes: 1,
        pv: Line::default(),
    };
    if let Some(mv) = best {
        let me = pos.turn();
        pos.make(mv);
        found.score = evaluate(pos, me);
        found.pv = Line::single(mv);
    }
    send_info(poll, &|reply| write_reply(&found, reply));
    found
}

impl BoardGame for CheckersEngine {
    const NAME: &'static str = "checkers";

    fn search(
        request: &EngineRequest<'_>,
        poll: &mut dyn Poll,
        _work: &mut Workspace<'_>,
    ) -> Result<(), ParseError> {
        if request.level > 1 {
            return Err(ParseError("checkers levels: 0 (search) or 1 (greedy)"));
        }
        // Parsed in place, in a call of its own: the parser's frames are gone
        // before the search starts.
        let mut pos = Checkers::EMPTY;
        pos.parse_into(request.position)?;
        let pos = &mut pos;
        let found = match request.level {
            0 => level_search(pos, request.limits, poll),
            _ => level_greedy(pos, poll),
        };
        send_answer(poll, &|reply| write_reply(&found, reply));
        Ok(())
    }

    fn perft(position: &str, depth: u8) -> Result<u64, ParseError> {
        let mut pos = Checkers::parse_position(position)?;
        Ok(perft(&mut pos, depth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Recorder {
        infos: u32,
        stop_at: u64,
    }
    impl Poll for Recorder {
        fn poll(&mut self, nodes: u64) -> bool {
            self.stop_at != 0 && nodes >= self.stop_at
        }
        fn info(&mut self, _reply: &EngineReply) {
            self.infos += 1;
        }
    }

    fn request(position: &str, level: u8, limits: Limits) -> Result<EngineReply, ParseError> {
        let req = EngineRequest {
            position,
            limits,
            level,
            seed: 7,
            roots: crate::engine::RootMoves::All,
        };
        crate::engine::ask_with::<CheckersEngine>(
            &req,
            &mut Recorder {
                infos: 0,
                stop_at: 0,
            },
        )
    }

    #[test]
    fn search_and_greedy_reply_with_legal_moves() {
        let depth3 = Limits {
            depth: 3,
            ..Limits::default()
        };
        let r = request("start 2", 0, depth3).unwrap();
        let pos = Checkers::start(2, 10).unwrap();
        assert!(pos.parse_move(&r.best).is_ok(), "{}", r.best);
        assert_eq!(r.depth, 3);
        assert_eq!(r.pv.split(' ').count(), 3);
        assert_eq!(r, request("start 2", 0, depth3).unwrap(), "deterministic");
        let g = request("start 2", 1, Limits::default()).unwrap();
        assert!(pos.parse_move(&g.best).is_ok());
        assert!(request("start 2", 2, depth3).is_err());
        assert!(request("start 7", 0, depth3).is_err());
    }

    #[test]
    fn answers_match_the_simulated_board() {
        // Replies of the firmware in QEMU (`go checkers depth=3 pos start 2`,
        // `go checkers nodes=5000 pos start 2`): the host must give the same.
        let r = request(
            "start 2",
            0,
            Limits {
                depth: 3,
                ..Limits::default()
            },
        )
        .unwrap();
        assert_eq!(
            (r.best.as_str(), r.score, r.depth, r.nodes, r.pv.as_str()),
            ("o1-m5", 46, 3, 240, "o1-m5 c1-e7 q1-m7")
        );
        let r = request(
            "start 2",
            0,
            Limits {
                nodes: 5000,
                ..Limits::default()
            },
        )
        .unwrap();
        assert_eq!(
            (r.best.as_str(), r.score, r.depth, r.nodes, r.pv.as_str()),
            ("o1-m5", 30, 5, 5000, "o1-m5 c1-e7 m5-l5 a1-e5 q1-k5")
        );
    }

    #[test]
    fn stops_when_polled_and_streams_iterations() {
        let mut rec = Recorder {
            infos: 0,
            stop_at: 2048,
        };
        let req = EngineRequest {
            position: "start 2",
            limits: Limits::default(),
            level: 0,
            seed: 0,
            roots: crate::engine::RootMoves::All,
        };
        let r = crate::engine::ask_with::<CheckersEngine>(&req, &mut rec).unwrap();
        assert!(r.nodes <= 2048 && r.depth >= 1, "{r:?}");
        assert_eq!(u32::from(r.depth), rec.infos);
    }

    #[test]
    fn streaming_perft_matches_the_generic_one() {
        for (text, depth) in [
            ("start 2", 3),
            ("start 3", 2),
            ("start 6", 2),
            ("start 2 pieces=15", 2),
        ] {
            let mut pos = Checkers::parse_position(text).unwrap();
            assert_eq!(
                CheckersEngine::perft(text, depth).unwrap(),
                crate::engine::perft(&mut pos, depth),
                "{text}"
            );
        }
        assert!(CheckersEngine::perft("start 9", 1).is_err());
    }
}
