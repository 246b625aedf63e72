//! The strong engine: seed 002's alpha-beta done properly, plus a VCF solver.
//!
//! * Candidates: empty points at most two points from a stone along a line.
//! * One-ply ordering by [`analyze`]: own threat value plus the opponent's at the
//!   same point (attack and defence), keeping the best [`Settings::width`] only.
//! * Forced moves: a five wins at once; an opponent five threat must be blocked
//!   (the only move searched, without using up depth); two such threats lose.
//! * Iterative-deepening alpha-beta (negamax), the previous best move first at the
//!   root; leaves are scored by the incremental live-window counts
//!   ([`Counts::score`]), and a leaf where the opponent has a four is searched on.
//! * Before the alpha-beta, a VCF search ([`super::vcf`]) for the side to move.
//!
//! Renju-aware: black's candidates never include forbidden points, and white's
//! VCF wins when black's only defence is a forbidden point.
//!
//! Every figure is counted in nodes (alpha-beta and VCF positions visited), never
//! in time, so the same request gives the same answer on the host and the board.

use super::board::{BLACK, POINTS, Point};
use super::eval::{Counts, analyze};
use super::position::{CENTER_POINT, Gomoku, NO_POINT};
use crate::engine::Poll;
use crate::game::{Game, INFINITY, MATE, MATE_BOUND, Score};
use crate::search::POLL_INTERVAL;

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
/// Most plies the alpha-beta goes from the root, extensions included.
pub const MAX_PLY: u8 = 10;
/// Longest principal variation kept.
pub const PV_LEN: usize = 12;
/// Most candidate moves kept at a node.
pub const MAX_WIDTH: usize = 12;

/// A principal variation.
pub type Pv = heapless::Vec<Point, PV_LEN>;

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
}

impl Settings {
    /// Level 0: the board's budget.
    pub const DEFAULT: Settings = Settings {
        nodes: DEFAULT_NODES,
        work: DEFAULT_WORK,
        depth: 8,
        root_width: 8,
        width: 6,
        vcf_depth: 8,
        vcf_work: DEFAULT_WORK / 3,
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
    /// Principal variation.
    pub pv: Pv,
}

/// The candidates of one node and what the scan saw.
#[derive(Clone, Copy, Debug)]
pub(super) struct Scan {
    /// Candidates, best first.
    pub moves: [Point; MAX_WIDTH],
    /// Number of candidates.
    pub len: u8,
    /// A point where the side to move makes five, or `NO_POINT`.
    pub win: Point,
    /// Number of points where the opponent would make five.
    pub threats: u8,
    /// One of them.
    pub threat: Point,
}

/// Candidates ranked by value, best first (ties: the earlier point first).
#[derive(Clone, Copy)]
struct Ranked {
    moves: [Point; MAX_WIDTH],
    values: [u32; MAX_WIDTH],
    len: u8,
}

impl Default for Ranked {
    fn default() -> Self {
        Self {
            moves: [NO_POINT; MAX_WIDTH],
            values: [0; MAX_WIDTH],
            len: 0,
        }
    }
}

impl Ranked {
    /// Inserts `p` if it is among the best `width` (`width <= MAX_WIDTH`).
    fn insert(&mut self, p: Point, value: u32, width: usize) {
        let len = usize::from(self.len);
        let mut i = len.min(width);
        while i > 0 && self.values[i - 1] < value {
            i -= 1;
        }
        if i < width {
            let end = len.min(width - 1);
            self.moves.copy_within(i..end, i + 1);
            self.values.copy_within(i..end, i + 1);
            self.moves[i] = p;
            self.values[i] = value;
            self.len = (len + 1).min(width) as u8;
        }
    }
}

/// The searcher's state: the working position, its window counts, the node count.
pub(super) struct Searcher<'p> {
    pub pos: Gomoku,
    pub counts: Counts,
    pub nodes: u64,
    pub limit: u64,
    /// Work done so far and its limit (0 = none), see [`Settings::work`].
    pub work: u32,
    pub work_limit: u32,
    pub aborted: bool,
    /// The poll asked to stop (as opposed to a node budget running out).
    pub stopped: bool,
    pub settings: Settings,
    poll: &'p mut dyn Poll,
}

/// The empty points of row `r` at most two points from a stone along one of the
/// four lines (bit = column). Every point where a side can make a four or a five
/// is among them.
pub(super) fn near_row(pos: &Gomoku, r: i8) -> u16 {
    let board = pos.board();
    let spread = |o: u16, k: u32| o | (o << k) | (o >> k);
    let mut near = 0u16;
    for k in 1..=2 {
        near |=
            spread(board.row_occupied(r - k as i8), k) | spread(board.row_occupied(r + k as i8), k);
    }
    near |= spread(board.row_occupied(r), 1) | spread(board.row_occupied(r), 2);
    near & 0x7FFF & !board.row_occupied(r)
}

/// Every empty point near a stone (see [`near_row`]), row by row.
pub(super) fn for_each_near(pos: &Gomoku, mut f: impl FnMut(Point)) {
    for r in 0..15i8 {
        let mut near = near_row(pos, r);
        while near != 0 {
            let c = near.trailing_zeros() as u8;
            near &= near - 1;
            f(r as u8 * 15 + c);
        }
    }
}

impl<'p> Searcher<'p> {
    pub(super) fn new(pos: &Gomoku, settings: Settings, poll: &'p mut dyn Poll) -> Self {
        Self {
            pos: *pos,
            counts: Counts::from_board(pos.board()),
            nodes: 0,
            limit: settings.nodes,
            work: 0,
            work_limit: settings.work,
            aborted: false,
            stopped: false,
            settings,
            poll,
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
            || (self.limit != 0 && self.nodes >= self.limit)
            || (self.work_limit != 0 && self.work >= self.work_limit);
        self.aborted
    }

    /// Plays `p` for the side to move, keeping the counts in step.
    pub(super) fn play(&mut self, p: Point) -> Point {
        let side = self.pos.player_to_move();
        self.counts.update(self.pos.board(), p, side, true);
        self.pos.make(p)
    }

    /// Takes back `p` (the last move) with what [`Searcher::play`] returned.
    pub(super) fn take_back(&mut self, p: Point, undo: Point) {
        self.pos.unmake(p, undo);
        let side = self.pos.player_to_move();
        self.counts.update(self.pos.board(), p, side, false);
    }

    /// Scores the candidates of the current position and keeps the best `width`.
    /// When the opponent has an open three (a point where it would make an open
    /// four), only the answers are kept: points where the opponent would make a
    /// four (the blocks, the far ends included) and points where the side to move
    /// makes a four itself. Counts one unit of work per point analysed.
    #[inline(never)]
    pub(super) fn scan(&mut self, width: usize) -> Scan {
        let me = usize::from(self.pos.player_to_move());
        let rule = self.pos.rule();
        let mut scan = Scan {
            moves: [NO_POINT; MAX_WIDTH],
            len: 0,
            win: NO_POINT,
            threats: 0,
            threat: NO_POINT,
        };
        let width = width.min(MAX_WIDTH);
        let mut all = Ranked::default();
        let mut answers = Ranked::default();
        let mut threatened = false;
        let mut work = 0;
        let board = self.pos.board();
        for_each_near(&self.pos, |p| {
            work += 1;
            let t = analyze(board, p, rule);
            let (mine, theirs) = (t[me], t[me ^ 1]);
            if mine.five {
                scan.win = p;
            }
            if theirs.five {
                scan.threats = scan.threats.saturating_add(1);
                scan.threat = p;
            }
            threatened |= theirs.open_four && !theirs.forbidden;
            if mine.forbidden {
                return;
            }
            let value = mine.score + theirs.score;
            all.insert(p, value, width);
            if mine.fours > 0 || theirs.fours > 0 {
                answers.insert(p, value, width);
            }
        });
        self.work = self.work.saturating_add(work);
        let kept = if threatened { &answers } else { &all };
        scan.moves = kept.moves;
        scan.len = kept.len;
        scan
    }

    /// Negamax alpha-beta; `depth` may be negative (a leaf searched on because of a threat).
    fn alphabeta(
        &mut self,
        depth: i8,
        ply: u8,
        mut alpha: Score,
        beta: Score,
        pv: &mut Pv,
    ) -> Score {
        pv.clear();
        if self.visit() {
            return 0;
        }
        if usize::from(self.pos.stones()) == POINTS {
            return 0;
        }
        let me = self.pos.player_to_move();
        let quiet = self.counts.get(me ^ 1, 4) == 0;
        if ply >= MAX_PLY || (depth <= 0 && quiet) {
            return self.counts.score(me);
        }
        let width = if ply == 0 {
            self.settings.root_width
        } else {
            self.settings.width
        };
        let scan = self.scan(usize::from(width));
        let win_now = MATE - Score::from(ply) - 1;
        if scan.win != NO_POINT {
            let _ = pv.push(scan.win);
            return win_now;
        }
        if scan.threats >= 2 {
            return -(win_now - 1);
        }
        let forced = scan.threats == 1;
        if forced && me == BLACK && self.pos.is_forbidden(scan.threat) {
            return -(win_now - 1);
        }
        if !forced && depth <= 0 {
            return self.counts.score(me);
        }
        let (moves, count) = if forced {
            ([scan.threat; MAX_WIDTH], 1)
        } else {
            (scan.moves, usize::from(scan.len))
        };
        if count == 0 {
            return self.counts.score(me);
        }
        let child_depth = if forced { depth } else { depth - 1 };
        let mut best = -INFINITY;
        let mut child = Pv::new();
        for &mv in &moves[..count] {
            let undo = self.play(mv);
            let score = -self.alphabeta(child_depth, ply + 1, -beta, -alpha, &mut child);
            self.take_back(mv, undo);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    pv.clear();
                    let _ = pv.push(mv);
                    let _ = pv.extend_from_slice(&child[..child.len().min(PV_LEN - 1)]);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Root search: one alpha-beta iteration with `first` searched first.
    fn root(&mut self, depth: u8, scan: &Scan, first: Point, pv: &mut Pv) -> Option<Score> {
        let mut moves = scan.moves;
        let count = usize::from(scan.len);
        if let Some(i) = moves[..count].iter().position(|&m| m == first) {
            moves[..=i].rotate_right(1);
        }
        let (mut alpha, beta) = (-INFINITY, INFINITY);
        let mut child = Pv::new();
        pv.clear();
        for &mv in &moves[..count] {
            let undo = self.play(mv);
            let score = -self.alphabeta(depth as i8 - 1, 1, -beta, -alpha, &mut child);
            self.take_back(mv, undo);
            if self.aborted {
                return None;
            }
            if score > alpha || pv.is_empty() {
                alpha = score;
                pv.clear();
                let _ = pv.push(mv);
                let _ = pv.extend_from_slice(&child[..child.len().min(PV_LEN - 1)]);
            }
        }
        Some(alpha)
    }
}

/// Searches `pos` with the strong engine. `limits_nodes` / `limits_depth` are the
/// request's limits (0 = none); they tighten `settings`. Streams each completed
/// iteration through `report`.
pub fn search(
    pos: &Gomoku,
    mut settings: Settings,
    limits_nodes: u64,
    limits_depth: u8,
    poll: &mut dyn Poll,
    report: &mut dyn FnMut(&mut dyn Poll, &Found),
) -> Found {
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
    let mut found = Found {
        best: None,
        score: 0,
        depth: 0,
        nodes: 0,
        pv: Pv::new(),
    };
    if pos.outcome().is_some() {
        return found;
    }
    if pos.stones() == 0 {
        found.best = Some(CENTER_POINT);
        let _ = found.pv.push(CENTER_POINT);
        found.depth = 1;
        found.nodes = 1;
        report(poll, &found);
        return found;
    }
    let mut s = Searcher::new(pos, settings, poll);
    s.visit();
    let scan = s.scan(usize::from(settings.root_width));
    let me = pos.player_to_move();
    found.best = scan.moves.first().copied().filter(|&m| m != NO_POINT);
    if found.best.is_none() {
        // Every point near the stones is forbidden for black: any legal point.
        found.best = (0..POINTS as u8).find(|&p| pos.is_legal(p));
    }
    // Immediate win, or a single forced block.
    let forced = if scan.win != NO_POINT {
        Some((scan.win, MATE - 1))
    } else if scan.threats >= 2 {
        Some((scan.threat, -(MATE - 2)))
    } else if scan.threats == 1 {
        let lost = me == BLACK && pos.is_forbidden(scan.threat);
        if lost {
            found.best.map(|b| (b, -(MATE - 2)))
        } else {
            Some((scan.threat, 0))
        }
    } else {
        None
    };
    if let Some((mv, score)) = forced
        && (score != 0 || settings.depth <= 1)
    {
        found.best = Some(mv);
        found.score = score;
        found.depth = 1;
        found.nodes = s.nodes;
        let _ = found.pv.push(mv);
        report(s.poll, &found);
        return found;
    }
    // Threat-space search first: a VCF wins outright.
    if forced.is_none() {
        let mut line = Pv::new();
        let overall = s.work_limit;
        if settings.vcf_work != 0 {
            let end = s.work.saturating_add(settings.vcf_work);
            s.work_limit = if overall == 0 { end } else { end.min(overall) };
        }
        let won = s.vcf(settings.vcf_depth, &mut line);
        s.work_limit = overall;
        if won && let Some(&first) = line.first() {
            found.best = Some(first);
            found.score = MATE - line.len() as Score;
            found.depth = line.len() as u8;
            found.nodes = s.nodes;
            found.pv = line;
            report(s.poll, &found);
            return found;
        }
        if s.stopped || (s.limit != 0 && s.nodes >= s.limit) || (overall != 0 && s.work >= overall)
        {
            found.nodes = s.nodes;
            return found;
        }
        s.aborted = false;
    }
    let scan = if let Some((mv, _)) = forced {
        Scan {
            moves: [mv; MAX_WIDTH],
            len: 1,
            ..scan
        }
    } else {
        scan
    };
    let mut pv = Pv::new();
    for depth in 1..=settings.depth.max(1) {
        let first = found.best.unwrap_or(NO_POINT);
        let Some(score) = s.root(depth, &scan, first, &mut pv) else {
            break;
        };
        found.best = pv.first().copied().or(found.best);
        found.score = score;
        found.depth = depth;
        found.nodes = s.nodes;
        found.pv = pv.clone();
        report(s.poll, &found);
        if score.abs() >= MATE_BOUND || scan.len <= 1 {
            break;
        }
    }
    found.nodes = s.nodes;
    found
}
