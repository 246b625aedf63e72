//! The xiangqi engine: iterative-deepening principal-variation search with
//! quiescence (captures), a small transposition table, killer and history
//! ordering, MVV-LVA, check extension, null-move pruning and the AXF
//! repetition rules inside the tree.
//!
//! Everything lives in one [`Searcher`] on the request's stack; its size is
//! fixed (no allocation) and identical on host and board, so the same request
//! gives the same answer bit for bit.

use super::board::{Move, NO_SQUARE, Square, slot_color, slot_kind};
use super::eval::{VALUE, evaluate, has_pieces};
use super::movegen::{MAX_MOVES, Sink};
use super::rules::Verdict;
use super::state::{NATURAL_LIMIT, Xiangqi};
use crate::engine::{EngineReply, Poll, send_info, write_reply};
use crate::game::{INFINITY, MATE, MATE_BOUND, Score};
use crate::search::{Limits, POLL_INTERVAL};

/// Transposition-table entries (8 bytes each: 2 KB).
pub const TT_ENTRIES: usize = 256;
/// Moves the board profile's shared move stack holds (6 bytes each with the
/// ordering score). A node whose moves do not fit in what is left is searched
/// by quiescence (captures, or evasions in check), which needs fewer.
pub const BOARD_MOVE_STACK: usize = 384;
/// Moves the host profile's move stack holds: every node of the deepest
/// search fits (`MAX_PLY` plies of at most [`MAX_MOVES`] moves).
pub const HOST_MOVE_STACK: usize = MAX_PLY * MAX_MOVES;
/// Deepest ply the search goes (extensions included).
pub const MAX_PLY: usize = 20;
/// Longest principal variation kept.
pub const PV_MAX: usize = 8;
/// Deepest iteration when the request gives no depth limit.
pub const MAX_DEPTH: u8 = 16;
/// Repetitions closer to the root than this are judged by the AXF rules
/// (perpetual check / chase); deeper ones count as draws, which keeps the
/// stack bounded.
pub const JUDGE_PLY: usize = 12;

/// Depth reduction of the null-move search (besides the pass itself).
pub const NULL_REDUCTION: i32 = 2;

/// splitmix64 finaliser: the engine's only source of "randomness".
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const EXACT: u8 = 0;
const LOWER: u8 = 1;
const UPPER: u8 = 2;

#[derive(Clone, Copy, Default)]
struct TtEntry {
    check: u16,
    from: u8,
    to: u8,
    score: i16,
    depth: u8,
    flag: u8,
}

/// What a completed iteration found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Iteration {
    /// Best move (`None` without legal moves).
    pub best: Option<Move>,
    /// Score for the side to move.
    pub score: Score,
    /// Depth of the iteration.
    pub depth: u8,
    /// Nodes so far.
    pub nodes: u64,
    /// Principal variation.
    pub pv: heapless::Vec<Move, PV_MAX>,
}

/// Search state: tables, a move stack of `STACK` moves and counters (all
/// fixed-size: the profile picks `STACK`).
pub struct Searcher<'p, const STACK: usize> {
    tt: [TtEntry; TT_ENTRIES],
    moves: [Move; STACK],
    scores: [i16; STACK],
    killers: [[Move; 2]; MAX_PLY],
    history: [[u8; 90]; 7],
    pv: [[Move; PV_MAX]; PV_MAX],
    pv_len: [u8; PV_MAX],
    nodes: u64,
    limits: Limits,
    aborted: bool,
    root_best: Move,
    poll: &'p mut dyn Poll,
}

fn mate_score(verdict: Verdict, ply: usize) -> Score {
    match verdict {
        Verdict::Win => MATE - ply as Score,
        Verdict::Loss => -(MATE - ply as Score),
        Verdict::Draw => 0,
    }
}

impl<'p, const STACK: usize> Searcher<'p, STACK> {
    /// A searcher with empty tables. `poll` is asked every [`POLL_INTERVAL`]
    /// nodes whether to stop, and told about every completed iteration.
    pub fn new(limits: Limits, poll: &'p mut dyn Poll) -> Self {
        Self {
            tt: [TtEntry::default(); TT_ENTRIES],
            moves: [Move::NULL; STACK],
            scores: [0; STACK],
            killers: [[Move::NULL; 2]; MAX_PLY],
            history: [[0; 90]; 7],
            pv: [[Move::NULL; PV_MAX]; PV_MAX],
            pv_len: [0; PV_MAX],
            nodes: 0,
            limits,
            aborted: false,
            root_best: Move::NULL,
            poll,
        }
    }

    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if self.limits.nodes != 0 && self.nodes >= self.limits.nodes {
            self.aborted = true;
        }
        if self.nodes.is_multiple_of(POLL_INTERVAL) && self.poll.poll(self.nodes) {
            self.aborted = true;
        }
        self.aborted
    }

    fn tt_slot(key: u64) -> usize {
        (key as usize) & (TT_ENTRIES - 1)
    }

    fn tt_check(key: u64) -> u16 {
        (key >> 48) as u16
    }

    fn tt_store(&mut self, key: u64, mv: Move, score: Score, depth: i32, flag: u8, ply: usize) {
        let score = if score >= MATE_BOUND {
            score + ply as Score
        } else if score <= -MATE_BOUND {
            score - ply as Score
        } else {
            score
        };
        let e = &mut self.tt[Self::tt_slot(key)];
        if e.check != Self::tt_check(key) || depth as u8 >= e.depth {
            *e = TtEntry {
                check: Self::tt_check(key),
                from: mv.from,
                to: mv.to,
                score: score.clamp(-INFINITY, INFINITY) as i16,
                depth: depth.clamp(0, 255) as u8,
                flag,
            };
        }
    }

    fn set_pv(&mut self, ply: usize, mv: Move) {
        if ply >= PV_MAX {
            return;
        }
        self.pv[ply][0] = mv;
        let mut len = 1;
        if ply + 1 < PV_MAX {
            let child = usize::from(self.pv_len[ply + 1]);
            for i in 0..child.min(PV_MAX - 1) {
                self.pv[ply][i + 1] = self.pv[ply + 1][i];
                len += 1;
            }
        }
        self.pv_len[ply] = len as u8;
    }

    fn history_of(&self, mv: Move) -> u8 {
        let color = slot_color(mv.piece);
        let to = if color == 0 { mv.to } else { 89 - mv.to };
        self.history[slot_kind(mv.piece) as usize][usize::from(to)]
    }

    fn reward(&mut self, mv: Move, depth: i32, ply: usize) {
        let color = slot_color(mv.piece);
        let to = usize::from(if color == 0 { mv.to } else { 89 - mv.to });
        let kind = slot_kind(mv.piece) as usize;
        let bonus = depth.clamp(1, 32) as u8;
        if self.history[kind][to] > 255 - bonus {
            for row in self.history.iter_mut() {
                for h in row.iter_mut() {
                    *h /= 2;
                }
            }
        }
        self.history[kind][to] += bonus;
        if ply < MAX_PLY && self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
    }

    /// Generates into the stack at `base`; returns the count, or `None` when
    /// the moves do not all fit.
    fn generate(&mut self, g: &Xiangqi, base: usize, quiet: bool) -> Option<usize> {
        let mut sink = Sink::new(self.moves.get_mut(base..)?);
        g.position().pseudo_moves(&mut sink, quiet);
        (!sink.overflowed()).then_some(sink.len())
    }

    fn order(&mut self, base: usize, n: usize, hash_move: (Square, Square), ply: usize) {
        for i in base..base + n {
            let mv = self.moves[i];
            let score: i32 = if (mv.from, mv.to) == hash_move || (ply == 0 && mv == self.root_best)
            {
                30_000
            } else if mv.captured != 0 {
                // MVV-LVA.
                20_000 + VALUE[slot_kind(mv.captured) as usize].min(1000) * 8
                    - slot_kind(mv.piece) as i32
            } else if ply < MAX_PLY && mv == self.killers[ply][0] {
                15_000
            } else if ply < MAX_PLY && mv == self.killers[ply][1] {
                14_000
            } else {
                i32::from(self.history_of(mv))
            };
            self.scores[i] = score.clamp(-32_000, 32_000) as i16;
        }
    }

    /// Swaps the best-scored remaining move to position `i` and returns it.
    fn pick(&mut self, i: usize, end: usize) -> Move {
        let mut best = i;
        for j in i + 1..end {
            if self.scores[j] > self.scores[best] {
                best = j;
            }
        }
        self.moves.swap(i, best);
        self.scores.swap(i, best);
        self.moves[i]
    }

    fn quiesce(
        &mut self,
        g: &mut Xiangqi,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        base: usize,
    ) -> Score {
        #[cfg(test)]
        super::stack_probe::note();
        if self.visit() {
            return 0;
        }
        if ply < PV_MAX {
            self.pv_len[ply] = 0;
        }
        // In check there is no standing pat: every evasion is tried, and none
        // means mate (a capture that checks is not "just material").
        let in_check = g.position().in_check() && ply < MAX_PLY;
        let stand = evaluate(g.position());
        if !in_check {
            if stand >= beta || ply >= MAX_PLY {
                return stand;
            }
            alpha = alpha.max(stand);
        }
        let Some(n) = self.generate(g, base, in_check) else {
            return stand;
        };
        self.order(base, n, (NO_SQUARE, NO_SQUARE), MAX_PLY);
        let mut best = if in_check {
            -(MATE - ply as Score)
        } else {
            stand
        };
        for i in base..base + n {
            let mv = self.pick(i, base + n);
            let me = g.position().side();
            let risky = in_check || g.position().may_expose(mv);
            g.push(mv);
            if risky && g.position().attacked_king(me) {
                g.pop();
                continue;
            }
            let score = -self.quiesce(g, ply + 1, -beta, -alpha, base + n);
            g.pop();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    #[allow(clippy::too_many_arguments)] // the classic PVS signature, kept readable
    fn search(
        &mut self,
        g: &mut Xiangqi,
        mut depth: i32,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        base: usize,
        null_ok: bool,
    ) -> Score {
        #[cfg(test)]
        super::stack_probe::note();
        if ply < PV_MAX {
            self.pv_len[ply] = 0;
        }
        if ply > 0 {
            if let Some(v) = g.repetition(ply, ply < JUDGE_PLY) {
                return mate_score(v, ply);
            }
            if g.quiet() >= NATURAL_LIMIT {
                return 0;
            }
        }
        let in_check = g.position().in_check();
        if in_check && ply < MAX_PLY {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(g, ply, alpha, beta, base);
        }
        if self.visit() {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let key = g.position().key();
        let e = self.tt[Self::tt_slot(key)];
        let mut hash_move = (NO_SQUARE, NO_SQUARE);
        if e.check == Self::tt_check(key) && e.flag <= UPPER && (e.from, e.to) != (0, 0) {
            hash_move = (e.from, e.to);
            let mut s = Score::from(e.score);
            if s >= MATE_BOUND {
                s -= ply as Score;
            } else if s <= -MATE_BOUND {
                s += ply as Score;
            }
            if !pv_node && ply > 0 && i32::from(e.depth) >= depth {
                let cut = match e.flag {
                    EXACT => true,
                    LOWER => s >= beta,
                    _ => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        // Null move: not in check, not in pawn-only endings.
        let me = g.position().side();
        if null_ok
            && !pv_node
            && !in_check
            && depth >= 3
            && has_pieces(g.position(), me)
            && evaluate(g.position()) >= beta
        {
            // The reduced search keeps at least one full-width ply: the opponent's
            // quiet mating threats (a horse or cannon check) are then seen, where
            // quiescence (captures only) would stand pat on them.
            g.push(Move::NULL);
            let reduced = (depth - 1 - NULL_REDUCTION).max(1);
            let score = -self.search(g, reduced, ply + 1, -beta, -beta + 1, base, false);
            g.pop();
            if self.aborted {
                return 0;
            }
            if score >= beta && score < MATE_BOUND {
                return beta;
            }
        }
        let Some(n) = self.generate(g, base, true) else {
            return self.quiesce(g, ply, alpha, beta, base);
        };
        self.order(base, n, hash_move, ply);
        let (mut best, mut best_move, mut legal) = (-INFINITY, Move::NULL, 0);
        let alpha0 = alpha;
        for i in base..base + n {
            let mv = self.pick(i, base + n);
            let risky = in_check || g.position().may_expose(mv);
            g.push(mv);
            if risky && g.position().attacked_king(me) {
                g.pop();
                continue;
            }
            legal += 1;
            let next = base + n;
            let score = if legal == 1 {
                -self.search(g, depth - 1, ply + 1, -beta, -alpha, next, true)
            } else {
                let s = -self.search(g, depth - 1, ply + 1, -alpha - 1, -alpha, next, true);
                if s > alpha && s < beta && !self.aborted {
                    -self.search(g, depth - 1, ply + 1, -beta, -alpha, next, true)
                } else {
                    s
                }
            };
            g.pop();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if score >= beta {
                        if mv.captured == 0 {
                            self.reward(mv, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        if legal == 0 {
            // No legal move loses, in check or not.
            return -(MATE - ply as Score);
        }
        let flag = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        self.tt_store(key, best_move, best, depth, flag, ply);
        best
    }

    /// Iterative deepening up to `max_depth` from `g` (left as it was found);
    /// every completed iteration is streamed through [`Poll::info`].
    pub fn run(&mut self, g: &mut Xiangqi, max_depth: u8) -> Iteration {
        let mut result = Iteration::default();
        let n = self.generate(g, 0, true).unwrap_or(0);
        result.best = self.moves[..n]
            .iter()
            .copied()
            .find(|&m| g.position().clone().is_legal(m));
        if result.best.is_none() {
            result.score = -MATE;
            return result;
        }
        for depth in 1..=max_depth.max(1) {
            let score = self.search(g, i32::from(depth), 0, -INFINITY, INFINITY, 0, false);
            if self.aborted {
                break;
            }
            let len = usize::from(self.pv_len[0]);
            if len > 0 {
                self.root_best = self.pv[0][0];
            }
            result.best = Some(self.root_best)
                .filter(|m| !m.is_null())
                .or(result.best);
            result.score = score;
            result.depth = depth;
            result.nodes = self.nodes;
            result.pv.clear();
            for &m in &self.pv[0][..len] {
                let _ = result.pv.push(m);
            }
            if result.pv.is_empty()
                && let Some(b) = result.best
            {
                let _ = result.pv.push(b);
            }
            send_info(self.poll, &|reply| fill(g, &result, reply));
            if score.abs() >= MATE_BOUND && Score::from(depth) >= MATE - score.abs() {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }
}

/// Writes an iteration into `reply` in text form, for the wire.
pub fn fill(root: &Xiangqi, it: &Iteration, reply: &mut EngineReply) {
    write_reply(root, it.best, it.score, it.depth, it.nodes, &it.pv, reply);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::QuietPoll;
    use crate::game::Notation;

    /// Quiescence may not stand pat in check: a checked side is scored by its
    /// evasions, and none is mate (here black is mated by two rooks; standing
    /// pat would call the position "a rook down").
    #[test]
    fn quiescence_in_check_tries_evasions_and_sees_mate() {
        let mut poll = QuietPoll;
        let mut s = Searcher::<BOARD_MOVE_STACK>::new(Limits::default(), &mut poll);
        let mut g = Xiangqi::parse_position("R3k4/1R7/9/9/9/9/9/9/9/3K5 b").unwrap();
        assert_eq!(s.quiesce(&mut g, 3, -INFINITY, INFINITY, 0), -(MATE - 3));
        // In check with an evasion: the score is the evasion's, not the static one.
        let mut g = Xiangqi::parse_position("4k4/9/9/9/9/9/9/9/4R4/3K5 b").unwrap();
        let q = s.quiesce(&mut g, 0, -INFINITY, INFINITY, 0);
        assert!(q > -MATE_BOUND && q < 0, "{q}");
    }
}
