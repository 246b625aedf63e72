//! The strong engine: seed 002's alpha-beta done properly, plus a VCF solver.
//!
//! * Candidates: empty points at most two points from a stone along a line.
//! * One-ply ordering by [`super::eval::analyze`]: own threat value plus the opponent's at the
//!   same point (attack and defence), keeping the best [`Settings::width`] only.
//! * Forced moves: a five wins at once; an opponent five threat must be blocked
//!   (the only move searched, without using up depth); two such threats lose.
//! * Iterative-deepening alpha-beta (negamax), the previous best move first at the
//!   root; leaves are scored by the incremental live-window counts
//!   ([`Counts::score`]), and a leaf where the opponent has a four is searched on;
//!   at level 2 a leaf also sees a forced block and an open four (`Searcher::leaf`).
//! * Before the alpha-beta, a VCF search ([`super::vcf`]) for the side to move.
//!
//! Renju-aware: black's candidates never include forbidden points, and white's
//! VCF wins when black's only defence is a forbidden point.
//!
//! Every figure is counted in nodes (alpha-beta and VCF positions visited), never
//! in time, so the same request gives the same answer on the host and the board.
//!
//! # Stack (gomoku runs in 2 KB of RAM in all)
//! One `Searcher` (~250 bytes: the position, window counts, one shared
//! triangular PV table, the root's candidates, the answer) lives in the frame of
//! [`answer`]; the position is parsed into it in place. The recursive frames stay
//! small: an alpha-beta node (64 bytes) or VCF node (64) keeps its state in one
//! struct that out-of-line helpers work on; the scan, the shape analysis and the
//! renju forbidden-point test (done on the board itself, no copy, its nesting
//! walked with a fixed-size stack) each run in frames of their own above the
//! deepest node only. The VCF depth is bounded by [`MAX_VCF_DEPTH`], the
//! alpha-beta's by [`MAX_PLY`]. Measured peak (HIL, QEMU, 2 KB build): 1,800
//! bytes of stack for level 0 (the full firmware too), 1,872 for level 2
//! (a renju search to `MAX_PLY`), with 104 bytes of statics.

use super::board::{BLACK, CENTER, POINTS, Point, PointSet};
use super::engine::fill;
use super::eval::{Counts, FOUR_TO_MOVE, analyze_in_place};
use super::position::{CENTER_POINT, Gomoku, NO_POINT};
use super::rules::Rule;
use super::shape::{completions, is_five, neighbours};
use crate::engine::{EngineRequest, Poll, send_answer, send_info};
use crate::game::{Game, INFINITY, MATE, MATE_BOUND, Notation, Score};
use crate::search::POLL_INTERVAL;
use crate::text::ParseError;

/// Node budget of level 0 per move (alpha-beta and VCF together): no cap of its
/// own; level 0 is bounded by [`DEFAULT_WORK`] instead.
pub const DEFAULT_NODES: u64 = 0;
/// Work budget of level 0 per move, in points analysed (see [`Settings::work`]).
/// One unit costs about 2,100 ticks on the board (a point's four line windows read
/// and classified for both colours), a node [`NODE_WORK`] units; with the fixed
/// cost of a request (parsing, counting the windows, ~0.15 M ticks) the worst HIL
/// scenario stays under 4.3 M ticks in QEMU (`-icount shift=6`), within the board's
/// 4.8 M ticks (0.3 s at 16 MHz).
pub const DEFAULT_WORK: u32 = 1_600;
/// Work counted per node visited (making and taking back a move with its window
/// counts, the leaf evaluation): about three points analysed on the board.
pub const NODE_WORK: u32 = 3;
/// Most plies the alpha-beta goes from the root, extensions included (a node
/// at `MAX_PLY` is a leaf). Bounded by the board's 2 KB of RAM: below the service
/// (~0.6 KB), the searcher (~0.27 KB) and the root's frames, each ply takes one
/// 64-byte alpha-beta frame, and the deepest node that still ranks its moves
/// needs ~0.6 KB more for the scan and the renju forbidden test (whose nesting
/// walk has a fixed size). Measured by the HIL rig (`gomoku-strong` suite): with
/// 6 plies the peak was 1,944 bytes of stack, the whole 2 KB with the statics;
/// with 5 it leaves a margin of one ply.
pub const MAX_PLY: u8 = 5;
/// Longest principal variation kept.
pub const PV_LEN: usize = 12;
/// Most candidate moves kept at a node.
pub const MAX_WIDTH: usize = 12;

/// Most fours the engine's VCF search plays in a row, whatever
/// [`Settings::vcf_depth`] asks (level 2's 16 included): the VCF recursion takes
/// one 64-byte frame per four (see `Searcher::vcf`), and gomoku must run in
/// 2 KB of RAM in all. With the service's frames (~0.56 KB), the searcher's
/// (~0.3 KB) and the deepest VCF node's scan (~0.35 KB), nine levels need
/// ~1.84 KB of stack.
pub const MAX_VCF_DEPTH: u8 = 8;

/// A principal variation.
pub type Pv = heapless::Vec<Point, PV_LEN>;

/// Moves kept in the shared triangular PV table: row `ply` holds at most
/// `MAX_PLY - ply` moves (a node at `MAX_PLY` is a leaf).
const PV_TABLE: usize = (MAX_PLY as usize) * (MAX_PLY as usize + 1) / 2;

/// Where row `ply` of the PV table starts (`ply <= MAX_PLY`).
fn pv_start(ply: usize) -> usize {
    ply * usize::from(MAX_PLY) - ply * ply.saturating_sub(1) / 2
}
/// How the strong engine searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Most nodes in total (0 = no limit).
    pub nodes: u64,
    /// Most work in total (0 = no limit): one unit per candidate point analysed
    /// (move ordering) or read by the VCF search. Deterministic like a node count,
    /// and close to proportional to the board's time, unlike nodes (an alpha-beta
    /// leaf costs almost nothing, an inner node a scan of every candidate).
    pub work: u32,
    /// Deepest alpha-beta iteration (plies).
    pub depth: u8,
    /// Candidates searched at the root.
    pub root_width: u8,
    /// Candidates searched below the root.
    pub width: u8,
    /// Most fours the attacker plays in the VCF search.
    pub vcf_depth: u8,
    /// Most work the VCF search may use (0 = no own limit).
    pub vcf_work: u32,
    /// Leaves look for threats the window counts cannot see (see
    /// `Searcher::leaf`): a five point of the opponent's that must be blocked,
    /// an open four of the side to move's.
    pub leaf_threats: bool,
}

impl Settings {
    /// Level 0: the board's budget.
    pub const DEFAULT: Settings = Settings {
        nodes: DEFAULT_NODES,
        work: DEFAULT_WORK,
        depth: MAX_PLY,
        root_width: 8,
        width: 6,
        vcf_depth: 8,
        vcf_work: DEFAULT_WORK / 3,
        leaf_threats: false,
    };
    /// Level 2: no node budget of its own, wider and deeper.
    pub const STRONG: Settings = Settings {
        nodes: 0,
        work: 0,
        depth: MAX_PLY,
        root_width: 12,
        width: 8,
        vcf_depth: 16,
        vcf_work: 2_000_000,
        leaf_threats: true,
    };
}

/// What the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// Best move (`None` only when no move is possible).
    pub best: Option<Point>,
    /// Score for the side to move.
    pub score: Score,
    /// Depth of the last completed iteration (the VCF's length for a VCF win).
    pub depth: u8,
    /// Nodes visited.
    pub nodes: u64,
}

/// What the scan of one node saw besides its candidates.
#[derive(Clone, Copy, Debug)]
pub(super) struct Scan {
    /// Number of candidates.
    pub len: u8,
    /// A point where the side to move makes five, or `NO_POINT`.
    pub win: Point,
    /// Number of points where the opponent would make five.
    pub threats: u8,
    /// One of them.
    pub threat: Point,
}

/// Inserts `p` with `value` into the candidates `moves[..len]`, ranked by
/// `values` (best first; ties: the earlier point first), if it is among the
/// best `width` (`width <= MAX_WIDTH`).
fn rank(
    moves: &mut [Point; MAX_WIDTH],
    values: &mut [u32; MAX_WIDTH],
    len: &mut u8,
    p: Point,
    value: u32,
    width: usize,
) {
    let n = usize::from(*len);
    let mut i = n.min(width);
    while i > 0 && values[i - 1] < value {
        i -= 1;
    }
    if i < width {
        let end = n.min(width - 1);
        moves.copy_within(i..end, i + 1);
        values.copy_within(i..end, i + 1);
        moves[i] = p;
        values[i] = value;
        *len = (n + 1).min(width) as u8;
    }
}

/// A scan's state (see [`Searcher::scan`]), worked on out of line.
struct ScanState {
    /// What the scan saw; `len` counts the ranked candidates.
    scan: Scan,
    /// The ranked candidates' values.
    values: [u32; MAX_WIDTH],
    /// The answers to an open three (see [`Searcher::scan`]), to rank if needed.
    answers: PointSet,
    /// The opponent has an open three.
    threatened: bool,
    /// Candidates kept.
    width: u8,
}

impl ScanState {
    /// Analyses the near point `p` of `pos` and ranks it into `moves`.
    #[inline(never)]
    fn consider(&mut self, pos: &mut Gomoku, moves: &mut [Point; MAX_WIDTH], p: Point) {
        let me = usize::from(pos.player_to_move());
        let rule = pos.rule();
        let t = analyze_in_place(pos.board_mut(), p, rule);
        let (mine, theirs) = (t[me], t[me ^ 1]);
        if mine.five {
            self.scan.win = p;
        }
        if theirs.five {
            self.scan.threats = self.scan.threats.saturating_add(1);
            self.scan.threat = p;
        }
        self.threatened |= theirs.open_four && !theirs.forbidden;
        if mine.forbidden {
            return;
        }
        let value = mine.score + theirs.score;
        let width = usize::from(self.width);
        rank(moves, &mut self.values, &mut self.scan.len, p, value, width);
        if mine.fours > 0 || theirs.fours > 0 {
            self.answers.insert(p);
        }
    }

    /// Ranks the answers into `moves` instead of all the candidates (a second
    /// look at those few points, not counted as work).
    #[inline(never)]
    fn rank_answers(&mut self, pos: &mut Gomoku, moves: &mut [Point; MAX_WIDTH]) {
        let width = usize::from(self.width);
        self.scan.len = 0;
        for p in 0..POINTS as u8 {
            if self.answers.contains(p) {
                let value = point_value(pos, p);
                rank(moves, &mut self.values, &mut self.scan.len, p, value, width);
            }
        }
    }
}

/// The ordering value of the near point `p` for the side to move (own value
/// plus the opponent's there), as [`ScanState::consider`] ranks it.
#[inline(never)]
fn point_value(pos: &mut Gomoku, p: Point) -> u32 {
    let me = usize::from(pos.player_to_move());
    let rule = pos.rule();
    let t = analyze_in_place(pos.board_mut(), p, rule);
    t[me].score + t[me ^ 1].score
}

/// One alpha-beta node's state (see [`Searcher::alphabeta`]).
struct Frame {
    /// Candidates, best first.
    moves: [Point; MAX_WIDTH],
    /// Number of candidates and the next one to search.
    count: u8,
    next: u8,
    /// Distance from the root.
    ply: u8,
    /// Depth left (the children's depth once the node is entered).
    depth: i8,
    /// The window and the best score so far.
    alpha: Score,
    beta: Score,
    best: Score,
}

/// How an alpha-beta node goes on after [`Searcher::enter`].
enum Node {
    /// Its score is known without searching a move.
    Leaf(Score),
    /// Search this many candidates (one: the forced block), at this depth.
    Moves(u8, i8),
}

/// The searcher's state: the working position, its window counts, the node count.
pub(super) struct Searcher<'p> {
    pub pos: Gomoku,
    pub counts: Counts,
    pub nodes: u64,
    /// Work done so far and its limit (0 = none), see [`Settings::work`].
    pub work: u32,
    pub work_limit: u32,
    pub aborted: bool,
    /// The poll asked to stop (as opposed to a node budget running out).
    pub stopped: bool,
    pub settings: Settings,
    /// The VCF line (see [`Searcher::vcf`]), then the principal variation of
    /// [`Searcher::found`].
    pub line: Pv,
    /// What the search found so far (the answer, see [`answer`]).
    pub found: Found,
    /// The root's candidates (in the scan's order) and their number.
    root_moves: [Point; MAX_WIDTH],
    root_len: u8,
    /// Principal variations by ply (triangular: row `ply` starts at
    /// [`pv_start`]) and their lengths: one table instead of a PV per frame.
    pv: [Point; PV_TABLE],
    pv_len: [u8; MAX_PLY as usize + 1],
    poll: &'p mut dyn Poll,
    /// The VCF solver's memo of failed searches ([`super::vcf::solve`]); empty
    /// in the engine.
    pub memo: &'p mut [u64],
}

/// The empty points of row `r` at most two points from a stone along one of the
/// four lines (bit = column). Every point where a side can make a four or a five
/// is among them.
pub(super) fn near_row(pos: &Gomoku, r: i8) -> u16 {
    let board = pos.board();
    near_row_of(pos, r, |row| board.row_occupied(row))
}

/// The empty points of row `r` at most two points along a line from a stone
/// of `stones` (row → its stones' bits).
#[inline(always)]
fn near_row_of(pos: &Gomoku, r: i8, stones: impl Fn(i8) -> u16) -> u16 {
    let spread = |o: u16, k: u32| o | (o << k) | (o >> k);
    let mut near = 0u16;
    for k in 1..=2 {
        near |= spread(stones(r - k as i8), k) | spread(stones(r + k as i8), k);
    }
    near |= spread(stones(r), 1) | spread(stones(r), 2);
    near & 0x7FFF & !pos.board().row_occupied(r)
}

/// Every empty point near a stone of `stones` (see [`near_row_of`]), row by row.
#[inline(always)]
fn for_each_near_of(pos: &Gomoku, stones: impl Fn(i8) -> u16, mut f: impl FnMut(Point)) {
    for r in 0..15i8 {
        let mut near = near_row_of(pos, r, &stones);
        while near != 0 {
            let c = near.trailing_zeros() as u8;
            near &= near - 1;
            f(r as u8 * 15 + c);
        }
    }
}

/// Every empty point at most two points from a stone of `side` along one of the
/// four lines, row by row: every point where `side` makes a four or a five.
fn for_each_near_own(pos: &Gomoku, side: u8, f: impl FnMut(Point)) {
    let board = pos.board();
    for_each_near_of(pos, |row| board.row_stones(side, row), f);
}

/// How many points make a five for `side` in `pos`, and one of them.
#[inline(never)]
fn five_points(pos: &Gomoku, side: u8) -> (u8, Point) {
    let exact = pos.rule().exact(side);
    let board = pos.board();
    let (mut count, mut point) = (0u8, NO_POINT);
    for_each_near_own(pos, side, |p| {
        let five = board.lines(p).iter().any(|l| {
            let own = l.own(side) | CENTER;
            neighbours(own) >= 4 && is_five(own, exact)
        });
        if five {
            count = count.saturating_add(1);
            point = p;
        }
    });
    (count, point)
}

/// `true` when `side` has a point in `pos` that makes two five points at once
/// (a straight four or a double four; the renju forbidden test is not made).
#[inline(never)]
fn makes_open_four(pos: &Gomoku, side: u8) -> bool {
    let exact = pos.rule().exact(side);
    let board = pos.board();
    let mut found = false;
    for_each_near_own(pos, side, |p| {
        if found {
            return;
        }
        let mut points = 0;
        for l in board.lines(p) {
            let own = l.own(side) | CENTER;
            if neighbours(own) >= 3 {
                points += completions(own, l.blocked(side), exact).count_ones();
            }
        }
        found = points >= 2;
    });
    found
}

/// Every empty point near a stone (see [`near_row`]), row by row.
pub(super) fn for_each_near(pos: &Gomoku, f: impl FnMut(Point)) {
    let board = pos.board();
    for_each_near_of(pos, |row| board.row_occupied(row), f);
}

impl<'p> Searcher<'p> {
    /// A searcher on `pos` with `settings` (tests and the VCF solver; [`answer`]
    /// builds its own in place).
    pub(super) fn new(pos: &Gomoku, settings: Settings, poll: &'p mut dyn Poll) -> Self {
        let mut s = Self::blank(poll);
        s.pos = *pos;
        s.counts = Counts::from_board(pos.board());
        s.settings = settings;
        s.work_limit = settings.work;
        s
    }

    /// A searcher on the empty free-rule board, level 0's settings (see
    /// [`answer`]: built in place, without a position to copy).
    fn blank(poll: &'p mut dyn Poll) -> Self {
        let settings = Settings::DEFAULT;
        Self {
            pos: Gomoku::new(Rule::Free),
            counts: Counts::default(),
            line: Pv::new(),
            found: Found {
                best: None,
                score: 0,
                depth: 0,
                nodes: 0,
            },
            root_moves: [NO_POINT; MAX_WIDTH],
            root_len: 0,
            pv: [NO_POINT; PV_TABLE],
            pv_len: [0; MAX_PLY as usize + 1],
            nodes: 0,
            work: 0,
            work_limit: settings.work,
            aborted: false,
            stopped: false,
            settings,
            poll,
            memo: &mut [],
        }
    }

    /// Counts a node; `true` when the search must stop (node limit or poll).
    pub(super) fn visit(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.nodes += 1;
        self.work = self.work.saturating_add(NODE_WORK);
        if self.nodes.is_multiple_of(POLL_INTERVAL) && self.poll.poll(self.nodes) {
            self.stopped = true;
        }
        self.aborted = self.stopped
            || (self.settings.nodes != 0 && self.nodes >= self.settings.nodes)
            || (self.work_limit != 0 && self.work >= self.work_limit);
        self.aborted
    }

    /// Plays `p` for the side to move, keeping the counts in step (out of line:
    /// inlined, its address arithmetic would be kept in every recursive frame).
    #[inline(never)]
    pub(super) fn play(&mut self, p: Point) -> Point {
        let side = self.pos.player_to_move();
        self.counts.update(self.pos.board(), p, side, true);
        self.pos.make(p)
    }

    /// Takes back `p` (the last move) with what [`Searcher::play`] returned.
    #[inline(never)]
    pub(super) fn take_back(&mut self, p: Point, undo: Point) {
        self.pos.unmake(p, undo);
        let side = self.pos.player_to_move();
        self.counts.update(self.pos.board(), p, side, false);
    }

    /// Scores the candidates of the current position and keeps the best `width`
    /// in `moves`, best first.
    /// When the opponent has an open three (a point where it would make an open
    /// four), only the answers are kept: points where the opponent would make a
    /// four (the blocks, the far ends included) and points where the side to move
    /// makes a four itself. Counts one unit of work per point analysed.
    ///
    /// The answers are only marked during the pass (one bit per point) and ranked
    /// by a second look at those few points when they are needed: a second ranked
    /// list would cost its whole size on the deepest frame of the search.
    #[inline(never)]
    pub(super) fn scan(&mut self, width: usize, moves: &mut [Point; MAX_WIDTH]) -> Scan {
        let mut st = ScanState {
            scan: Scan {
                len: 0,
                win: NO_POINT,
                threats: 0,
                threat: NO_POINT,
            },
            values: [0; MAX_WIDTH],
            answers: PointSet::new(),
            threatened: false,
            width: width.min(MAX_WIDTH) as u8,
        };
        let mut work = 0u32;
        for r in 0..15u8 {
            let mut near = near_row(&self.pos, r as i8);
            while near != 0 {
                let p = r * 15 + near.trailing_zeros() as u8;
                near &= near - 1;
                work += 1;
                st.consider(&mut self.pos, moves, p);
            }
        }
        self.work = self.work.saturating_add(work);
        if st.threatened {
            st.rank_answers(&mut self.pos, moves);
        }
        moves[usize::from(st.scan.len)..].fill(NO_POINT);
        st.scan
    }

    /// A node's first steps, out of line so that the recursive
    /// [`Searcher::alphabeta`] frame stays small: counts the node, scores leaves,
    /// finds wins, losses and forced blocks, and ranks the candidates into `moves`.
    #[inline(never)]
    fn enter(&mut self, f: &mut Frame) -> Option<Score> {
        let (depth, ply) = (f.depth, f.ply);
        match self.classify(depth, ply, &mut f.moves) {
            Node::Leaf(score) => Some(score),
            Node::Moves(count, child_depth) => {
                f.count = count;
                f.depth = child_depth;
                None
            }
        }
    }

    /// [`Searcher::enter`]'s work: what the node at `ply` with `depth` to go is.
    #[inline(always)]
    fn classify(&mut self, depth: i8, ply: u8, moves: &mut [Point; MAX_WIDTH]) -> Node {
        self.pv_len[usize::from(ply)] = 0;
        if self.visit() {
            return Node::Leaf(0);
        }
        if usize::from(self.pos.stones()) == POINTS {
            return Node::Leaf(0);
        }
        let me = self.pos.player_to_move();
        let quiet = self.counts.get(me ^ 1, 4) == 0;
        if ply >= MAX_PLY || (depth <= 0 && quiet) {
            return Node::Leaf(self.leaf(ply));
        }
        let width = if ply == 0 {
            self.settings.root_width
        } else {
            self.settings.width
        };
        let scan = self.scan(usize::from(width), moves);
        let win_now = MATE - Score::from(ply) - 1;
        if scan.win != NO_POINT {
            self.pv[pv_start(usize::from(ply))] = scan.win;
            self.pv_len[usize::from(ply)] = 1;
            return Node::Leaf(win_now);
        }
        if scan.threats >= 2 {
            return Node::Leaf(-(win_now - 1));
        }
        let forced = scan.threats == 1;
        if forced && me == BLACK && self.pos.is_forbidden(scan.threat) {
            return Node::Leaf(-(win_now - 1));
        }
        if !forced && depth <= 0 {
            return Node::Leaf(self.counts.score(me));
        }
        if forced {
            moves[0] = scan.threat;
            return Node::Moves(1, depth);
        }
        if scan.len == 0 {
            return Node::Leaf(self.counts.score(me));
        }
        Node::Moves(scan.len, depth - 1)
    }

    /// A leaf's score for the side to move at `ply`: the window counts
    /// ([`Counts::score`]), and with [`Settings::leaf_threats`] what they cannot
    /// see (a leaf at [`MAX_PLY`] may face a four: the block is forced):
    /// * the opponent has two five points: lost;
    /// * it has one: the side to move blocks it, and wins if that gives it two
    ///   five points of its own (an open four or a double four), otherwise the
    ///   counts score the position after the block;
    /// * no four of the opponent's, and the side to move can make an open four
    ///   (or a double four): won (the opponent has no five to answer with).
    ///
    /// Black's threats under renju are left to the counts (the forbidden test
    /// would need the deep frames a leaf must not add).
    #[inline(never)]
    fn leaf(&mut self, ply: u8) -> Score {
        let me = self.pos.player_to_move();
        let plain = self.counts.score(me);
        if !self.settings.leaf_threats
            || plain == FOUR_TO_MOVE
            || (me == BLACK && self.pos.rule().has_forbidden())
        {
            return plain;
        }
        let win_now = MATE - Score::from(ply) - 1;
        if self.counts.get(me ^ 1, 4) > 0 {
            let (fives, block) = five_points(&self.pos, me ^ 1);
            if fives >= 2 {
                return -(win_now - 1);
            }
            if fives == 0 {
                return plain;
            }
            let undo = self.play(block);
            let (mine, _) = five_points(&self.pos, me);
            let score = if mine >= 2 {
                win_now - 2
            } else {
                -self.counts.score(me ^ 1)
            };
            self.take_back(block, undo);
            return score;
        }
        if self.counts.get(me, 3) >= 2 && makes_open_four(&self.pos, me) {
            return win_now - 2;
        }
        plain
    }

    /// Row `ply` of the PV table becomes `mv` followed by row `ply + 1`.
    #[inline(never)]
    fn update_pv(&mut self, ply: u8, mv: Point) {
        let ply = usize::from(ply).min(usize::from(MAX_PLY) - 1);
        let (start, child) = (pv_start(ply), pv_start(ply + 1));
        let n = usize::from(self.pv_len[ply + 1]).min(usize::from(MAX_PLY) - ply - 1);
        self.pv[start] = mv;
        self.pv.copy_within(child..child + n, start + 1);
        self.pv_len[ply] = n as u8 + 1;
    }

    /// Negamax alpha-beta; `depth` may be negative (a leaf searched on because of
    /// a threat). Its principal variation is left in row `ply` of the PV table.
    /// One frame per ply: the node's state is one [`Frame`] that the out-of-line
    /// [`Searcher::enter`] and [`Searcher::improve`] work on, so the compiler
    /// keeps it in place instead of spilling copies of its fields.
    fn alphabeta(&mut self, depth: i8, ply: u8, alpha: Score, beta: Score) -> Score {
        let mut f = Frame {
            moves: [NO_POINT; MAX_WIDTH],
            count: 0,
            next: 0,
            ply,
            depth,
            alpha,
            beta,
            best: -INFINITY,
        };
        if let Some(score) = self.enter(&mut f) {
            return score;
        }
        while let Some(&mv) = f.moves.get(usize::from(f.next)) {
            if f.next >= f.count {
                break;
            }
            let undo = self.play(mv);
            let score = -self.alphabeta(f.depth, f.ply + 1, -f.beta, -f.alpha);
            self.take_back(mv, undo);
            if self.aborted {
                return 0;
            }
            if self.improve(&mut f, mv, score) {
                break;
            }
            f.next += 1;
        }
        f.best
    }

    /// Takes in the score of the move `mv` at node `f`; `true` on a cut-off.
    #[inline(never)]
    fn improve(&mut self, f: &mut Frame, mv: Point, score: Score) -> bool {
        if score > f.best {
            f.best = score;
            if score > f.alpha {
                f.alpha = score;
                self.update_pv(f.ply, mv);
                return f.alpha >= f.beta;
            }
        }
        false
    }

    /// Root search: one alpha-beta iteration with `first` searched first; the
    /// principal variation is left in row 0 of the PV table.
    #[inline(never)]
    fn root(&mut self, depth: u8, first: Point) -> Option<Score> {
        let mut f = Frame {
            moves: self.root_moves,
            count: self.root_len.min(MAX_WIDTH as u8),
            next: 0,
            ply: 0,
            depth: depth as i8 - 1,
            alpha: -INFINITY,
            beta: INFINITY,
            best: -INFINITY,
        };
        let count = usize::from(f.count);
        if let Some(i) = f.moves[..count].iter().position(|&m| m == first) {
            f.moves[..=i].rotate_right(1);
        }
        self.pv_len[0] = 0;
        while let Some(&mv) = f.moves.get(usize::from(f.next)) {
            if f.next >= f.count {
                break;
            }
            let undo = self.play(mv);
            let score = -self.alphabeta(f.depth, 1, -f.beta, -f.alpha);
            self.take_back(mv, undo);
            if self.aborted {
                return None;
            }
            self.root_improve(&mut f, mv, score);
            f.next += 1;
        }
        Some(f.alpha)
    }

    /// Takes in the score of the root move `mv` (the first move always counts).
    #[inline(never)]
    fn root_improve(&mut self, f: &mut Frame, mv: Point, score: Score) {
        if score > f.alpha || self.pv_len[0] == 0 {
            f.alpha = score;
            self.update_pv(0, mv);
        }
    }

    /// The root's scan: its candidates go to [`Searcher::root_moves`].
    #[inline(never)]
    fn root_scan(&mut self) -> Scan {
        let mut moves = [NO_POINT; MAX_WIDTH];
        let scan = self.scan(usize::from(self.settings.root_width), &mut moves);
        self.root_moves = moves;
        self.root_len = scan.len;
        scan
    }

    /// Streams [`Searcher::found`] as an `info` line.
    #[inline(never)]
    fn report(&mut self) {
        send_info(self.poll, &|reply| {
            fill(&self.pos, &self.found, &self.line, reply);
        });
    }

    /// The whole search of [`Searcher::pos`]: the answer is left in
    /// [`Searcher::found`] and [`Searcher::line`], each completed iteration is
    /// streamed as `info`.
    #[inline(never)]
    fn search(&mut self) {
        let Some(forced) = self.start() else {
            return;
        };
        if forced == NO_POINT {
            // Threat-space search first: a VCF wins outright.
            if self.vcf_first() {
                return;
            }
        } else {
            self.root_moves = [forced; MAX_WIDTH];
            self.root_len = 1;
        }
        self.deepen();
    }

    /// The root's first steps: a finished game, the empty board, an immediate
    /// win or loss and a forced block. `None` when the answer is known (and
    /// reported), otherwise the forced block or `NO_POINT`.
    #[inline(never)]
    fn start(&mut self) -> Option<Point> {
        if self.pos.outcome().is_some() {
            return None;
        }
        if self.pos.stones() == 0 {
            self.found.best = Some(CENTER_POINT);
            self.found.depth = 1;
            self.found.nodes = 1;
            let _ = self.line.push(CENTER_POINT);
            self.report();
            return None;
        }
        self.visit();
        let scan = self.root_scan();
        let me = self.pos.player_to_move();
        self.found.best = Some(self.root_moves[0]).filter(|&m| m != NO_POINT);
        if self.found.best.is_none() {
            // Every point near the stones is forbidden for black: any legal point.
            self.found.best = (0..POINTS as u8).find(|&p| self.pos.is_legal(p));
        }
        // Immediate win, or a single forced block.
        let forced = if scan.win != NO_POINT {
            Some((scan.win, MATE - 1))
        } else if scan.threats >= 2 {
            Some((scan.threat, -(MATE - 2)))
        } else if scan.threats == 1 {
            let lost = me == BLACK && self.pos.is_forbidden(scan.threat);
            if lost {
                self.found.best.map(|b| (b, -(MATE - 2)))
            } else {
                Some((scan.threat, 0))
            }
        } else {
            None
        };
        match forced {
            Some((mv, score)) if score != 0 || self.settings.depth <= 1 => {
                self.found.best = Some(mv);
                self.found.score = score;
                self.found.depth = 1;
                self.found.nodes = self.nodes;
                let _ = self.line.push(mv);
                self.report();
                None
            }
            Some((mv, _)) => Some(mv),
            None => Some(NO_POINT),
        }
    }

    /// The VCF search at the root, within [`Settings::vcf_work`]: `true` when
    /// the answer is known (a VCF win, reported, or the budget is used up).
    #[inline(never)]
    fn vcf_first(&mut self) -> bool {
        let overall = self.work_limit;
        if self.settings.vcf_work != 0 {
            let end = self.work.saturating_add(self.settings.vcf_work);
            self.work_limit = if overall == 0 { end } else { end.min(overall) };
        }
        let won = self.vcf(self.settings.vcf_depth);
        self.work_limit = overall;
        if won && let Some(&first) = self.line.first() {
            self.found.best = Some(first);
            self.found.score = MATE - self.line.len() as Score;
            self.found.depth = self.line.len() as u8;
            self.found.nodes = self.nodes;
            self.report();
            return true;
        }
        self.line.clear();
        if self.stopped
            || (self.settings.nodes != 0 && self.nodes >= self.settings.nodes)
            || (overall != 0 && self.work >= overall)
        {
            self.found.nodes = self.nodes;
            return true;
        }
        self.aborted = false;
        false
    }

    /// Iterative deepening over [`Searcher::root_moves`], reporting each
    /// completed iteration.
    #[inline(never)]
    fn deepen(&mut self) {
        for depth in 1..=self.settings.depth.max(1) {
            let first = self.found.best.unwrap_or(NO_POINT);
            let Some(score) = self.root(depth, first) else {
                break;
            };
            if self.completed(depth, score) {
                break;
            }
        }
        self.found.nodes = self.nodes;
    }

    /// Takes in and reports a completed iteration; `true` when deepening is over.
    #[inline(never)]
    fn completed(&mut self, depth: u8, score: Score) -> bool {
        let len = usize::from(self.pv_len[0]);
        if len > 0 {
            self.found.best = Some(self.pv[0]);
        }
        self.found.score = score;
        self.found.depth = depth;
        self.found.nodes = self.nodes;
        self.line.clear();
        let _ = self.line.extend_from_slice(&self.pv[..len.min(PV_LEN)]);
        self.report();
        score.abs() >= MATE_BOUND || self.root_len <= 1
    }
}

/// Searches `request`'s position with the strong engine (level 0: [`Settings::DEFAULT`],
/// otherwise [`Settings::STRONG`], tightened by the request's node and depth
/// limits) and gives the answer through `poll`, each completed iteration streamed
/// as `info` first. Fails only when the position is not valid.
///
/// The searcher lives in this frame, the bottom of every search's stack:
/// the position is parsed into it in place, and the search itself runs in
/// frames of its own.
#[inline(never)]
pub fn answer(request: &EngineRequest<'_>, poll: &mut dyn Poll) -> Result<(), ParseError> {
    let mut s = Searcher::blank(poll);
    parse_into(&mut s, request)?;
    s.search();
    send_answer(s.poll, &|reply| fill(&s.pos, &s.found, &s.line, reply));
    Ok(())
}

/// Sets the searcher up for `request`: parses its position, counts its windows,
/// picks the level's settings and tightens them by the request's limits (out of
/// line: the temporaries stay off the search's stack).
#[inline(never)]
fn parse_into(s: &mut Searcher<'_>, request: &EngineRequest<'_>) -> Result<(), ParseError> {
    s.pos = Gomoku::parse_position(request.position)?;
    s.counts = Counts::from_board(s.pos.board());
    let mut settings = if request.level == 0 {
        Settings::DEFAULT
    } else {
        Settings::STRONG
    };
    let (limits_nodes, limits_depth) = (request.limits.nodes, request.limits.depth);
    if limits_nodes != 0 {
        settings.nodes = if settings.nodes == 0 {
            limits_nodes
        } else {
            settings.nodes.min(limits_nodes)
        };
    }
    if limits_depth != 0 {
        settings.depth = settings.depth.min(limits_depth);
    }
    settings.vcf_depth = settings.vcf_depth.min(MAX_VCF_DEPTH);
    s.settings = settings;
    s.work_limit = settings.work;
    Ok(())
}
