//! The engines: best-reply search (alpha-beta for two players) with iterative
//! deepening and a width limit, and the greedy one-ply baseline.
//!
//! **Best-reply search** (BRS, Schadd & Winands 2011, who found it stronger than
//! paranoid and max^n search in Chinese checkers): MAX layers are moves of the
//! root player, MIN layers the moves of *all* opponents merged, of which only the
//! best reply is played; layers alternate. With two players this is plain
//! alpha-beta. Scores are from the root player's view: the strongest opponent's
//! remaining cost minus the root player's ([`super::eval::evaluate`]).
//!
//! **Ordering and width**: at each node the moves are scored by the rows they
//! gain for their mover (long jumps first) and only the best [`WIDTH`] are
//! searched, kept in a small sorted buffer while the generator streams moves,
//! so no full move list is ever stored. Ties keep generation order (pieces and
//! destinations in hole order). At the root the previous iteration's best move
//! is searched first.
//!
//! **Memory** (the board has 2 KB of RAM for everything): the search does not
//! recurse. It walks an explicit stack of [`MAX_DEPTH`] 48-byte records (the
//! node's candidate moves, window, best score and principal variation), so the
//! whole search costs about 340 bytes plus the move generator's frames while a
//! node gathers its moves.

use super::eval::{evaluate, gain};
use super::rules::{Checkers, Move};
use crate::engine::Poll;
use crate::game::{Game, INFINITY, MATE, MATE_BOUND, Outcome, Score};
use crate::search::{Limits, poll_every};

/// Nodes between two polls: a node costs up to ~15,000 ticks on the micro:bit v1
/// (six players; the HIL report's checkers rows).
const POLL_EVERY: u64 = poll_every(15_000);

/// Deepest iteration (plies) and longest principal variation.
pub const MAX_DEPTH: u8 = 7;
/// Moves searched at a node (the best by one-ply gain).
pub const WIDTH: usize = 12;

/// A principal variation: at most [`MAX_DEPTH`] moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line {
    moves: [Move; MAX_DEPTH as usize],
    len: u8,
}

impl Default for Line {
    fn default() -> Self {
        Self {
            moves: [Move::PASS; MAX_DEPTH as usize],
            len: 0,
        }
    }
}

impl Line {
    /// The moves, first to last.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..usize::from(self.len).min(MAX_DEPTH as usize)]
    }

    /// `first` followed by `rest` (cut to [`MAX_DEPTH`] moves).
    fn set(&mut self, first: Move, rest: &Line) {
        self.moves[0] = first;
        let n = rest.as_slice().len().min(MAX_DEPTH as usize - 1);
        self.moves[1..=n].copy_from_slice(&rest.moves[..n]);
        self.len = n as u8 + 1;
    }

    /// Just `mv`.
    pub fn single(mv: Move) -> Self {
        let mut line = Line::default();
        line.set(mv, &Line::default());
        line
    }
}

/// Keeps the best [`WIDTH`] moves offered, by ordering key, in a frame's move
/// buffer, best first; ties keep arrival order. The keys live only while a
/// node gathers its moves.
struct Picker<'a> {
    moves: &'a mut [Move; WIDTH],
    keys: [i8; WIDTH],
    len: u8,
}

impl<'a> Picker<'a> {
    fn new(moves: &'a mut [Move; WIDTH]) -> Self {
        Self {
            moves,
            keys: [0; WIDTH],
            len: 0,
        }
    }

    fn offer(&mut self, mv: Move, key: i8) {
        let mut i = usize::from(self.len);
        if i >= WIDTH {
            if self.keys[WIDTH - 1] >= key {
                return;
            }
            i = WIDTH - 1;
        } else {
            self.len += 1;
        }
        while i > 0 && self.keys[i - 1] < key {
            self.keys[i] = self.keys[i - 1];
            self.moves[i] = self.moves[i - 1];
            i -= 1;
        }
        self.keys[i] = key;
        self.moves[i] = mv;
    }

    /// Streams player `p`'s moves in, keyed by the rows they gain for `p`.
    #[inline(never)]
    fn gather(&mut self, pos: &Checkers, p: u8) {
        let goal = usize::from(pos.goal(p));
        pos.for_each_move_of(p, |mv| self.offer(mv, gain(goal, mv)));
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Best move (`None` when the game is over).
    pub best: Option<Move>,
    /// Score for the side to move.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u8,
    /// Nodes visited.
    pub nodes: u64,
    /// Principal variation (root player and best replies alternating).
    pub pv: Line,
}

/// One ply of the explicit search stack (the search does not recurse, so a
/// ply costs this record and nothing else: 48 bytes).
#[derive(Clone, Copy)]
struct Frame {
    /// Candidate moves, best first.
    moves: [Move; WIDTH],
    len: u8,
    /// Index of the next move to try (the current one is `next - 1`).
    next: u8,
    /// Player of the current move.
    player: u8,
    /// Window and best score so far (scores fit in 16 bits: |score| <= INFINITY).
    alpha: i16,
    beta: i16,
    best: i16,
    /// Principal variation from this node.
    pv: Line,
}

impl Frame {
    const EMPTY: Frame = Frame {
        moves: [Move::PASS; WIDTH],
        len: 0,
        next: 0,
        player: 0,
        alpha: 0,
        beta: 0,
        best: 0,
        pv: Line {
            moves: [Move::PASS; MAX_DEPTH as usize],
            len: 0,
        },
    };
}

/// A score stored in 16 bits (every score lies within `-INFINITY..=INFINITY`).
fn narrow(score: Score) -> i16 {
    score.clamp(-INFINITY, INFINITY) as i16
}

struct Searcher<'p> {
    poll: &'p mut dyn Poll,
    limits: Limits,
    nodes: u64,
    root: u8,
    /// Best root move of the previous iteration, searched first.
    first: Move,
    aborted: bool,
    /// Some node was cut off by the depth limit (not by a game end): if an
    /// iteration never hits the horizon, deeper ones cannot change anything.
    horizon: bool,
    /// The search stack: frame `ply` belongs to the node `ply` plies below the
    /// root; even plies are MAX layers (root player), odd plies MIN layers.
    frames: &'p mut [Frame; MAX_DEPTH as usize],
}

impl Searcher<'_> {
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if (self.limits.nodes != 0 && self.nodes >= self.limits.nodes)
            || (self.nodes.is_multiple_of(POLL_EVERY) && self.poll.poll(self.nodes))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Side to move at a node of ply `ply`: the root player on MAX layers, the
    /// next player on MIN layers (any opponent may actually reply there).
    fn turn_at(&self, pos: &Checkers, ply: usize) -> u8 {
        if ply.is_multiple_of(2) {
            self.root
        } else {
            (self.root + 1) % pos.players()
        }
    }

    /// Enters the node at `ply` (its move already made): returns its score if it
    /// is a leaf (finished game, horizon, or the search was stopped), otherwise
    /// fills its frame and returns `None`.
    #[inline(never)]
    fn enter(
        &mut self,
        pos: &Checkers,
        ply: usize,
        depth: u8,
        alpha: Score,
        beta: Score,
    ) -> Option<Score> {
        if self.visit() {
            return Some(0);
        }
        let plies = ply as Score;
        match pos.outcome() {
            Some(Outcome::Draw) => return Some(0),
            Some(Outcome::Win(p)) if p == self.root => return Some(MATE - plies),
            Some(Outcome::Win(_)) => return Some(-(MATE - plies)),
            None if ply >= usize::from(depth) || ply >= MAX_DEPTH as usize => {
                self.horizon = true;
                return Some(evaluate(pos, self.root));
            }
            None => {}
        }
        let max = ply.is_multiple_of(2);
        let (root, first) = (self.root, self.first);
        let f = self.frames.get_mut(ply)?;
        let mut pick = Picker::new(&mut f.moves);
        let n = pos.players();
        if max {
            pick.gather(pos, root);
        } else {
            for i in 1..n {
                pick.gather(pos, (root + i) % n);
            }
        }
        if pick.len == 0 {
            pick.offer(Move::PASS, 0);
        }
        let len = pick.len;
        if ply == 0
            && let Some(i) = f.moves[..usize::from(len)].iter().position(|&m| m == first)
        {
            f.moves[..=i].rotate_right(1);
        }
        f.len = len;
        f.next = 0;
        f.alpha = narrow(alpha);
        f.beta = narrow(beta);
        f.best = narrow(if max { -INFINITY } else { INFINITY });
        f.pv.len = 0;
        None
    }

    /// Takes back the current move of the node at `ply`.
    fn undo(&mut self, pos: &mut Checkers, ply: usize) {
        let f = &self.frames[ply];
        let mv = f.moves[usize::from(f.next).saturating_sub(1) % WIDTH];
        pos.unmake_as(f.player, mv);
        pos.set_turn(self.turn_at(pos, ply));
    }

    /// The child of the node at `ply` scored `score` (with principal variation `child`).
    fn back_up(&mut self, ply: usize, score: Score, child: &Line) {
        let score = narrow(score);
        let f = &mut self.frames[ply];
        let mv = f.moves[usize::from(f.next).saturating_sub(1) % WIDTH];
        if ply.is_multiple_of(2) {
            if score > f.best {
                f.best = score;
                if score > f.alpha {
                    f.alpha = score;
                    f.pv.set(mv, child);
                }
            }
        } else if score < f.best {
            f.best = score;
            if score < f.beta {
                f.beta = score;
                f.pv.set(mv, child);
            }
        }
    }

    /// One alpha-beta iteration to `depth` plies over the explicit stack.
    /// Returns the root score (0 if stopped); `pos` is restored either way.
    fn iterate(&mut self, pos: &mut Checkers, depth: u8) -> Score {
        if let Some(score) = self.enter(pos, 0, depth, -INFINITY, INFINITY) {
            return score;
        }
        let mut ply = 0usize;
        loop {
            let f = &mut self.frames[ply];
            if f.next < f.len && f.alpha < f.beta {
                let mv = f.moves[usize::from(f.next) % WIDTH];
                f.next += 1;
                let (alpha, beta) = (Score::from(f.alpha), Score::from(f.beta));
                let player = if ply.is_multiple_of(2) {
                    self.root
                } else if mv == Move::PASS {
                    self.turn_at(pos, ply)
                } else {
                    pos.owner(mv.from).unwrap_or(0)
                };
                self.frames[ply].player = player;
                pos.make_as(player, mv);
                pos.set_turn(self.turn_at(pos, ply + 1));
                match self.enter(pos, ply + 1, depth, alpha, beta) {
                    None => ply += 1,
                    Some(score) => {
                        self.undo(pos, ply);
                        if self.aborted {
                            for p in (0..ply).rev() {
                                self.undo(pos, p);
                            }
                            return 0;
                        }
                        self.back_up(ply, score, &Line::default());
                    }
                }
            } else {
                let (score, child) = (Score::from(f.best), f.pv);
                if ply == 0 {
                    return score;
                }
                ply -= 1;
                self.undo(pos, ply);
                self.back_up(ply, score, &child);
            }
        }
    }
}

/// Best-reply search of `game` for its side to move (made and unmade in place,
/// so it is unchanged afterwards), iterative deepening within `limits` (depth
/// 0 = up to [`MAX_DEPTH`]). Calls `on_iteration` after each completed
/// iteration. Returns the last completed iteration (or, if none completed, the
/// move gaining the most rows).
pub fn search(
    game: &mut Checkers,
    limits: Limits,
    poll: &mut dyn Poll,
    on_iteration: &mut dyn FnMut(&Found, &mut dyn Poll),
) -> Found {
    let root = game.turn();
    let mut found = Found {
        best: None,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: Line::default(),
    };
    if let Some(outcome) = game.outcome() {
        found.score = match outcome {
            Outcome::Draw => 0,
            Outcome::Win(p) if p == root => MATE,
            Outcome::Win(_) => -MATE,
        };
        return found;
    }
    let mut frames = [Frame::EMPTY; MAX_DEPTH as usize];
    let mut pick = Picker::new(&mut frames[0].moves);
    pick.gather(game, root);
    if pick.len == 0 {
        // Blocked: the only move is a pass.
        found.best = Some(Move::PASS);
        found.pv = Line::single(Move::PASS);
        return found;
    }
    let first = frames[0].moves[0];
    found.best = Some(first);
    let max_depth = if limits.depth == 0 {
        MAX_DEPTH
    } else {
        limits.depth.min(MAX_DEPTH)
    };
    let mut s = Searcher {
        poll,
        limits,
        nodes: 0,
        root,
        first,
        aborted: false,
        horizon: false,
        frames: &mut frames,
    };
    for depth in 1..=max_depth {
        s.horizon = false;
        let score = s.iterate(game, depth);
        if s.aborted {
            break;
        }
        let pv = s.frames[0].pv;
        s.first = pv.as_slice().first().copied().unwrap_or(s.first);
        found.best = Some(s.first);
        found.score = score;
        found.depth = depth;
        found.nodes = s.nodes;
        found.pv = pv;
        on_iteration(&found, &mut *s.poll);
        let proven = score.abs() >= MATE_BOUND && Score::from(depth) >= MATE - score.abs();
        if !s.horizon || proven {
            break;
        }
    }
    found.nodes = s.nodes;
    found
}

/// Level 1, the baseline: the move that gains the most rows for the side to
/// move (an immediate win first; ties: first in generation order, i.e. lowest
/// `from`, then lowest `to`). `None` when the game is over.
pub fn greedy(pos: &Checkers) -> Option<Move> {
    if pos.outcome().is_some() {
        return None;
    }
    let p = pos.turn();
    let goal = usize::from(pos.goal(p));
    let mut best: Option<(bool, i8, Move)> = None;
    let mut scratch = pos.clone();
    pos.for_each_move_of(p, |mv| {
        scratch.make_as(p, mv);
        let wins = scratch.has_won(p);
        scratch.unmake_as(p, mv);
        let key = (wins, gain(goal, mv));
        if best.is_none_or(|(w, g, _)| key > (w, g)) {
            best = Some((key.0, key.1, mv));
        }
    });
    Some(best.map_or(Move::PASS, |(_, _, mv)| mv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Notation;

    pub(crate) use crate::engine::QuietPoll as Free;

    fn run(pos: &Checkers, limits: Limits) -> Found {
        search(&mut pos.clone(), limits, &mut Free, &mut |_, _| {})
    }

    #[test]
    fn picker_keeps_the_best_in_order() {
        let mut moves = [Move::PASS; WIDTH];
        let mut pick = Picker::new(&mut moves);
        let keys = [1i8, 5, 3, 5, 0, 7, 2, 2, 2, 2, 2, 2, 2, 2, -1, 6];
        for (i, &key) in keys.iter().enumerate() {
            pick.offer(
                Move {
                    from: i as u8,
                    to: 0,
                },
                key,
            );
        }
        assert_eq!(usize::from(pick.len), WIDTH);
        let got: Vec<u8> = moves.iter().map(|m| m.from).collect();
        assert_eq!(got, [5, 15, 1, 3, 2, 6, 7, 8, 9, 10, 11, 12]);
    }

    #[test]
    fn takes_a_win_in_one() {
        // Player 0 has nine pieces in its goal (the top triangle); d3 (hole 8) is
        // empty and the tenth piece waits below it on e7 (hole 16).
        let pos = Checkers::parse_position(
            "players=2 pieces=10 turn=0 00010203040506070910/38393a3b3c3d3e3f4041",
        )
        .unwrap();
        let found = run(
            &pos,
            Limits {
                depth: 3,
                ..Limits::default()
            },
        );
        let best = found.best.unwrap();
        let mut after = pos.clone();
        after.make(best);
        assert_eq!(after.outcome(), Some(Outcome::Win(0)), "{best:?}");
        assert!(found.score >= MATE_BOUND);
        assert_eq!(
            greedy(&pos).map(|m| {
                let mut a = pos.clone();
                a.make(m);
                a.outcome()
            }),
            Some(Some(Outcome::Win(0)))
        );
    }

    #[test]
    fn search_is_deterministic_and_respects_node_limits() {
        let pos = Checkers::start(2, 10).unwrap();
        let limits = Limits {
            nodes: 3000,
            ..Limits::default()
        };
        let a = run(&pos, limits);
        let b = run(&pos, limits);
        assert_eq!(a, b);
        assert_eq!(a.nodes, 3000);
        assert!(a.best.is_some() && a.depth >= 2);
        let c = run(
            &pos,
            Limits {
                depth: 3,
                ..Limits::default()
            },
        );
        assert_eq!(c.depth, 3);
        assert_eq!(c.pv.as_slice().len(), 3);
        assert_eq!(c.pv.as_slice().first().copied(), c.best);
    }

    #[test]
    fn multi_player_search_gives_legal_moves() {
        for n in [3, 4, 6] {
            let pos = Checkers::start(n, 10).unwrap();
            let f = run(
                &pos,
                Limits {
                    depth: 3,
                    ..Limits::default()
                },
            );
            let mv = f.best.unwrap();
            assert!(pos.pieces_of(0).contains(&mv.from) && pos.reachable(mv.from).has(mv.to));
        }
    }

    #[test]
    fn game_over_gives_no_move() {
        let pos = Checkers::parse_position(
            "players=2 pieces=10 turn=1 00010203040506070809/38393a3b3c3d3e3f4041",
        )
        .unwrap();
        let f = run(&pos, Limits::default());
        assert_eq!(f.best, None);
        assert_eq!(f.score, -MATE);
        assert_eq!(greedy(&pos), None);
    }
}
