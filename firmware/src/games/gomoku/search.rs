//! The strong engine: iterative-deepening principal-variation search over
//! threat-ordered candidates, with threat-space search (VCF and VCT) at the root
//! and in the tree. One piece of code in two sizes ([`BoardSearcher`],
//! [`HostSearcher`]).
//!
//! * Candidates: empty points at most two points from a stone along a line, read
//!   with the rule's line-pattern tables ([`super::lines::PointPatterns`]) and
//!   ranked by attack plus defence value; the best [`Settings::width`] are kept
//!   (on the host, up to twelve more at deep nodes).
//! * Threats decide first: a five wins at once; an opponent five point must be
//!   blocked (the only move searched, without using up depth; two of them, or a
//!   block forbidden to black, lose); an open four of the side to move wins;
//!   against an open three only the answers are searched (points where the
//!   opponent would make a four, and the side to move's own fours).
//! * Leaves are scored by the stones' line patterns ([`super::eval::Eval`]); a
//!   leaf where the opponent has a four is searched on, and the host's leaves
//!   look for a VCF of the side to move ([`Settings::leaf_vcf`]).
//! * Late quiet moves are searched shallower first (late-move reductions,
//!   `ln(depth) × ln(index) / 0.94` plies, one more at null-window nodes, late
//!   threats below the root one less than quiet moves in renju, and there a
//!   move that leaves the opponent's open three standing far from the last
//!   moves up to three more; a node with no table move at depth 4 or more one
//!   ply shallower; in every rule), and,
//!   near the leaves, quiet moves
//!   from index `2 + depth` on are not searched (move-count pruning); every move
//!   after the first is searched with a null window first (PVS). Host only.
//! * The host keeps every empty point's line patterns per direction and reads
//!   a point again only in the directions a move changed (see
//!   `HostPart::points`): the scan of a node reads a few dozen windows instead
//!   of eight per near point.
//! * Before the tree search, a VCF search ([`super::vcf`]) and on the host a VCT
//!   search ([`super::vct`]) for the side to move: a forced win is played at once.
//!
//! Renju-aware throughout: black's candidates never include forbidden points,
//! white wins when black's only defence is a forbidden point.
//!
//! # Two sizes, one engine
//! The searcher is generic over its sizes (the ply cap with its triangular PV
//! table, the candidates per node): [`BoardSearcher`] is the board's (5 plies, 12
//! candidates, the stack of a 2 KB board) and runs in the board profile on the
//! board and on the host that mirrors it; [`HostSearcher`] is the host profile's
//! ([`HOST_MAX_PLY`] plies, a transposition table in the workspace's arena, its
//! own time). The board profile counts every figure in nodes and work units,
//! never in time, so the same request gives the same answer on the host and the
//! board; the host profile searches until the clock says stop.
//!
//! # Stack (gomoku runs in 2 KB of RAM in all)
//! One searcher (the position, the evaluation sums, one shared triangular PV
//! table, the root's candidates, the answer) lives in the frame of [`answer`];
//! the position is parsed into it in place. The recursive frames stay small: an
//! alpha-beta node or VCF node keeps its state in one struct that out-of-line
//! helpers work on; the scan, the pattern reads and the renju forbidden-point
//! test (done on the board itself, its nesting walked with a fixed-size stack)
//! each run in frames of their own above the deepest node only. The VCF depth is
//! bounded by [`MAX_VCF_DEPTH`], the board's alpha-beta by [`MAX_PLY`].

use super::board::{BLACK, FullLine, POINTS, Point, Rotated, distance, parse_point};
use super::engine::fill;
use super::eval::{Eval, PatternSink};
use super::host_eval::{self, Both, Histogram, HostEval, HostWeights, PointClasses};
use super::host_net::{CodeSums, CodeTable};
use super::lines::{
    FOUR, HostTable, OPEN_FOUR, Pattern, PatternSum, PointPatterns, THREE, THREE_THREE,
};
use super::point_class::{self, PointClass};
use super::position::{CENTER_POINT, Gomoku, NO_POINT};
use super::rules::Rule;
use crate::engine::{EngineRequest, Poll, Profile, RootMoves, Workspace, send_answer, send_info};
use crate::game::{Game, INFINITY, MATE, MATE_BOUND, Notation, Score};
use crate::search::poll_every;
use crate::text::ParseError;

/// Nodes between two polls: a node of the strong level costs up to ~110,000
/// ticks on the micro:bit v1 (its VCF leaves; the HIL report's gomoku-strong
/// rows), so every node polls.
const POLL_EVERY: u64 = poll_every(110_000);

/// Nodes between two polls of the host (its clock read at every node cost
/// 2 % of its time; 256 nodes are a third of a millisecond).
const HOST_POLL_EVERY: u64 = crate::search::POLL_INTERVAL;

/// Work budget of level 0 per move on the board, in points analysed (see
/// [`Settings::work`]). One unit costs about 900 ticks on the board (a point's
/// four line windows read and looked up for both colours), a node [`NODE_WORK`]
/// units; with the fixed cost of a request the worst HIL scenario stays within
/// the board's 4.8 M ticks (0.3 s at 16 MHz).
pub const DEFAULT_WORK: u32 = 2_300;
/// Work counted per node visited (making and taking back a move with its
/// evaluation update, the leaf's score).
pub const NODE_WORK: u32 = 4;
/// Work counted per renju forbidden-point test (the recursive test of a point
/// where black makes two threes or more: about ten points' analysis on the board).
pub const FORBIDDEN_WORK: u32 = 10;
/// Most plies the board's alpha-beta goes from the root, extensions included (a
/// node at `MAX_PLY` is a leaf). Bounded by the board's 2 KB of RAM: each ply
/// takes one alpha-beta frame, and the deepest node that still ranks its moves
/// needs room for the scan and the renju forbidden test.
pub const MAX_PLY: u8 = 5;
/// Most plies of the host's alpha-beta.
pub const HOST_MAX_PLY: u8 = 60;
/// Longest principal variation kept.
pub const PV_LEN: usize = 12;
/// Most candidate moves kept at a node on the board.
pub const MAX_WIDTH: usize = 12;
/// Most candidate moves kept at a node on the host.
pub const HOST_WIDTH: usize = 40;
/// Most candidate moves of a host node widened because every move kept loses
/// (see `Searcher::widen`).
pub const HOST_WIDEST: usize = 112;

/// Most fours the board's VCF search plays in a row, whatever
/// [`Settings::vcf_depth`] asks: the VCF recursion takes one frame per four,
/// and gomoku must run in 2 KB of RAM in all.
pub const MAX_VCF_DEPTH: u8 = 8;
/// Most fours of the host's VCF search.
pub const HOST_VCF_DEPTH: u8 = 40;

/// A principal variation.
pub type Pv = heapless::Vec<Point, PV_LEN>;

/// Size of the triangular PV table of a search to `plies` plies.
pub const fn pv_table(plies: usize) -> usize {
    plies * (plies + 1) / 2
}

/// The board's searcher: [`MAX_PLY`] plies, [`MAX_WIDTH`] candidates.
pub type BoardSearcher<'p> =
    Searcher<'p, { MAX_PLY as usize + 1 }, { pv_table(MAX_PLY as usize) }, MAX_WIDTH, 0>;
/// The host's searcher: [`HOST_MAX_PLY`] plies, [`HOST_WIDTH`] candidates.
pub type HostSearcher<'p> = Searcher<
    'p,
    { HOST_MAX_PLY as usize + 1 },
    { pv_table(HOST_MAX_PLY as usize) },
    HOST_WIDEST,
    1,
>;

/// How the strong engine searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Most nodes in total (0 = no limit).
    pub nodes: u64,
    /// Most work in total (0 = no limit): one unit per candidate point analysed
    /// (move ordering) or read by the VCF search, [`NODE_WORK`] per node.
    /// Deterministic like a node count, and close to proportional to the board's
    /// time, unlike nodes.
    pub work: u32,
    /// Most clock ticks (0 = none): the host's time. The search deepens until the
    /// service's poll says the time is up (a move's time is its own: what it leaves
    /// is lost) and answers with the root move that beat the others last, in the
    /// iteration cut short too (session 29: against the rule of no iteration after
    /// half the time, 200 ms a move, +19 ± 41 free and +37 ± 36 renju).
    pub ticks: u32,
    /// Deepest alpha-beta iteration (plies).
    pub depth: u8,
    /// Candidates searched at the root.
    pub root_width: u8,
    /// Candidates searched below the root (on the host, more at deep
    /// nodes: `host_width`).
    pub width: u8,
    /// Most fours the attacker plays in the root's VCF search.
    pub vcf_depth: u8,
    /// Most work the root's VCF search may use (0 = no own limit).
    pub vcf_work: u32,
    /// Most fours of the VCF search at the leaves (0: none).
    pub leaf_vcf: u8,
    /// Most threes and fours the attacker plays in the root's VCT search (0: none).
    pub vct_depth: u8,
    /// Most nodes the root's VCT search may use.
    pub vct_nodes: u32,
    /// Late quiet moves are searched shallower first (late-move reductions).
    pub reductions: bool,
    /// Most fours of the opponent's VCF looked for after a root move that is
    /// about to become the best (0: none; see `Searcher::root_check`).
    pub root_vcf: u8,
    /// A leaf where the side to move has an open three (and the opponent no
    /// four) is a win.
    pub leaf_threes: bool,
    /// A candidate is urgent (never reduced nor pruned, ranked first) when the
    /// side to move makes a three or more there, or the opponent would make this
    /// class or more.
    pub urgent: u8,
    /// The host's evaluation weights ([`host_eval`]; `None`: the board's
    /// [`Eval::score`], the only one the board runs).
    pub weights: Option<&'static HostEval>,
}

impl Settings {
    /// Level 0 on the board: the board's work budget.
    pub const DEFAULT: Settings = Settings {
        nodes: 0,
        work: DEFAULT_WORK,
        ticks: 0,
        depth: MAX_PLY,
        root_width: 6,
        width: 5,
        vcf_depth: 8,
        vcf_work: DEFAULT_WORK / 8,
        leaf_vcf: 0,
        vct_depth: 0,
        vct_nodes: 0,
        reductions: false,
        leaf_threes: true,
        urgent: THREE,
        root_vcf: 6,
        weights: None,
    };
    /// Level 2 on the board: no budget of its own, wider; VCF to 7 fours (its
    /// eighth four's frames would pass the 2 KB build's stack in renju).
    pub const STRONG: Settings = Settings {
        nodes: 0,
        work: 0,
        ticks: 0,
        depth: MAX_PLY,
        root_width: 12,
        width: 8,
        vcf_depth: 7,
        vcf_work: 2_000_000,
        leaf_vcf: 0,
        vct_depth: 0,
        vct_nodes: 0,
        reductions: false,
        leaf_threes: true,
        urgent: THREE,
        root_vcf: 0,
        weights: None,
    };
    /// The host profile: its own time, deep iterations, a VCF and a short VCT
    /// at the root.
    pub const HOST: Settings = Settings {
        nodes: 0,
        work: 0,
        ticks: 0,
        depth: HOST_MAX_PLY - 4,
        root_width: HOST_WIDTH as u8,
        width: 10,
        vcf_depth: 30,
        vcf_work: 0,
        leaf_vcf: 0,
        vct_depth: 8,
        // The root's VCT finds the quick wins within 3,000 nodes (about 4 ms
        // a move); a failed search uses its whole budget, so 30,000 (until
        // session 53: up to a sixth of a 200 ms move's time) cost more
        // than its deeper wins were worth (session 53, 200 ms a move: +21
        // Elo, +4 … +38, over 1,000 paired games against 30,000).
        vct_nodes: 3_000,
        reductions: true,
        leaf_threes: true,
        // Only the points where the opponent would make two threats at once
        // (a double three, a four-three, an open four or two fours) are
        // urgent: the blocks of its twos (session 26: against pela 42 %
        // instead of 31 % free, 65 % instead of 57 % renju, 52 games each) and
        // from session 47 of its single threes and closed fours (a plain four
        // point of the opponent's) are ranked, reduced and pruned like quiet
        // moves. When the opponent has an open three, the scan keeps only the
        // answers anyway.
        urgent: THREE_THREE,
        // A root move about to become the best is checked for the
        // opponent's VCF beyond the search's horizon (`Searcher::root_check`;
        // renju only: `parse_into` turns it off in the other rules).
        root_vcf: 30,
        // Fitted to self-play positions (gomoku_tune): at 30,000 nodes a move
        // against the board's evaluation 58.0 % free and 57.8 % renju (200
        // paired games each); session 26's fine point classes (free only)
        // against session 23's coarse ones 51.2 % free (200 games), and
        // against pela free at 200 ms a move 42.9 % against 37.2 % (156
        // paired games, +5.8 ± 8.4 points). Session 34's threat tables and
        // refitted weights at 200 ms a move against session 26's: free
        // +71 ± 28 Elo (400 paired games), against pela free 50.7 % over
        // 208 games (session 33's engine on the same seeds: 41.8 %). Session
        // 35's renju threat tables, one per colour to move, against session
        // 23's renju weights: +45 (+23 … +69) Elo (600 paired games); session
        // 36's refits on four times the positions +47 (+21 … +72) more.
        weights: Some(&host_eval::TUNED),
    };
}

/// Nodes of the host's check for the opponent's VCT after a root move about
/// to become the best (`Searcher::root_threat`; in renju, and at level 2 of
/// the host profile in every rule: in free gomoku at 30,000 nodes a move
/// against main even, −3 ± 26, and against pela at 200 ms a move 34.6 %
/// against main's 38.1 % over 156 paired free games; in renju at 200 ms a
/// move a gain, session 46): of the wins the host's root
/// VCT found in the positions of lost games against pela, half took 12 nodes
/// or fewer and nine in ten at most 3,000; failed searches use the whole
/// budget (5,000 nodes a check lost −45 ± 29 Elo at 30,000 nodes a move).
pub const ROOT_VCT_NODES: u32 = 1_000;

/// The host profile (not its level 2) ranks its candidates with a bonus by
/// the points' fine classes (`Searcher::class_bonus`). Off: tried in
/// session 26 with the fine-class evaluation, at 30,000 nodes a move against
/// main 49.5 % free and 54.2 % renju (200 games each), against pela free at
/// 200 ms a move 38.9 % against the same evaluation without it 45.2 %
/// (104 paired games, −6.2 ± 11.6 points), and 18 % fewer nodes a second.
pub const CLASS_ORDER: bool = false;

/// The ranking bonus of a point by the side to move's fine class there
/// (the potential below a three: two open twos, a closed three and more).
const CLASS_ORDER_MINE: [u16; point_class::CLASSES] = {
    let mut t = [0; point_class::CLASSES];
    t[point_class::J_FLEX2_2X as usize] = 100;
    t[point_class::I_BLOCK3_PLUS as usize] = 100;
    t
};

/// The ranking bonus of a point by the opponent's fine class there (its
/// next move's double three or four-three to come: defended early).
const CLASS_ORDER_THEIRS: [u16; point_class::CLASSES] = {
    let mut t = [0; point_class::CLASSES];
    t[point_class::J_FLEX2_2X as usize] = 200;
    t[point_class::I_BLOCK3_PLUS as usize] = 200;
    t
};

/// Most words of the arena the host takes for its transposition table and VCF
/// memo (16 MB: far more than a move's search fills, and cleared in a few
/// milliseconds).
pub const HOST_TABLE_WORDS: usize = 1 << 21;

/// Most words of the arena the host takes for its static-score cache (2 MB: an
/// eighth of [`HOST_TABLE_WORDS`], the share it has of any smaller arena).
pub const HOST_SCORE_WORDS: usize = HOST_TABLE_WORDS / 8;

impl Settings {
    /// Experimental variant (A/B tests through level 2 of the host profile):
    /// the host with session 23's weights, one set for every rule (on the
    /// coarse point classes: main's evaluation before session 26; its
    /// requests also check the opponent's VCT after the root's best moves,
    /// [`ROOT_VCT_NODES`] each: `HostPart::root_vct`).
    pub const HOST_B: Settings = Settings {
        weights: Some(&host_eval::PREVIOUS),
        ..Settings::HOST
    };
}

/// Nodes of a host search given no limit at all (neither time, nodes nor depth):
/// about a second.
pub const HOST_DEFAULT_NODES: u64 = 200_000;

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
    /// A point where the side to move makes an open four (or a double four), or
    /// `NO_POINT`.
    pub open_four: Point,
    /// Candidates from this index on are quiet (no three or four for either side).
    pub quiet: u8,
}

/// Inserts `p` with `value` into the candidates `moves[..len]`, ranked by
/// `values` (best first; ties: the earlier point first), if it is among the
/// best `width` (`width <= W`).
fn rank<const W: usize>(
    moves: &mut [Point; W],
    values: &mut [u16; W],
    len: &mut u8,
    p: Point,
    value: u16,
    width: usize,
) {
    let n = usize::from(*len);
    if W > MAX_WIDTH {
        // The host's: one pass from the end, each lower candidate moved a
        // place down as it is passed (not a search, then two calls of
        // `memmove`); when all places are taken, the last one's is the first.
        let width = width.min(W);
        let mut i = n.min(width);
        if i == width {
            match width.checked_sub(1) {
                Some(last) if values[last] < value => i = last,
                _ => return,
            }
        }
        while i > 0 && values[i - 1] < value {
            moves[i] = moves[i - 1];
            values[i] = values[i - 1];
            i -= 1;
        }
        moves[i] = p;
        values[i] = value;
        *len = (n + 1).min(width) as u8;
        return;
    }
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

/// Most answers to an open three a scan keeps (the blocks of the opponent's
/// fours and the side to move's own fours: rarely more than eight).
const ANSWERS: usize = 16;

/// Ranking value of a threat (one of the two sides making a three or more):
/// above every quiet point (whose values stay below it).
const URGENT: u16 = 1 << 15;

/// The ranking value of a point: the attack and defence values (saturated
/// below [`URGENT`]) and [`URGENT`] for a threat.
fn ranking(mine: u16, theirs: u16, urgent: bool) -> u16 {
    let value = (u32::from(mine) + u32::from(theirs)).min(u32::from(URGENT) - 1) as u16;
    if urgent { value | URGENT } else { value }
}

/// A scan's state (see [`Searcher::scan`]), worked on out of line.
struct ScanState<const W: usize> {
    /// What the scan saw; `len` counts the ranked candidates.
    scan: Scan,
    /// The ranked candidates' values.
    values: [u16; W],
    /// The answers to an open three (see [`Searcher::scan`]), to rank if
    /// needed (the first [`ANSWERS`] in point order), and their number.
    answers: [Point; ANSWERS],
    answer_count: u8,
    /// The opponent has an open three (a point where it makes an open four).
    threatened: bool,
    /// Candidates kept.
    width: u8,
    /// Renju forbidden-point tests made (see [`FORBIDDEN_WORK`]).
    tests: u8,
    /// The opponent's class from which a point is urgent (see [`Settings::urgent`]).
    theirs_urgent: u8,
}

impl<const W: usize> ScanState<W> {
    /// Analyses the near point `p` of `pos` and ranks it into `moves` (out of
    /// line: the board's; the host's scan inlines [`ScanState::consider_in`]).
    #[inline(never)]
    fn consider(&mut self, pos: &mut Gomoku, moves: &mut [Point; W], p: Point, pp: PointPatterns) {
        self.consider_in(pos, moves, p, pp);
    }

    /// [`ScanState::consider`] in line.
    #[inline(always)]
    fn consider_in(
        &mut self,
        pos: &mut Gomoku,
        moves: &mut [Point; W],
        p: Point,
        mut pp: PointPatterns,
    ) {
        let me = usize::from(pos.player_to_move());
        self.tests = self.tests.saturating_add(u8::from(pp.maybe_forbidden));
        pp.resolve(pos.board_mut(), p);
        let (mine, theirs) = (pp.threat[me], pp.threat[me ^ 1]);
        if mine.class == super::lines::FIVE {
            self.scan.win = p;
        }
        if theirs.class == super::lines::FIVE {
            self.scan.threats = self.scan.threats.saturating_add(1);
            self.scan.threat = p;
        }
        if mine.forbidden {
            return;
        }
        if mine.class == OPEN_FOUR {
            self.scan.open_four = p;
        }
        self.threatened |= theirs.class >= OPEN_FOUR;
        let urgent = mine.class >= THREE || theirs.class >= self.theirs_urgent;
        self.keep(moves, p, ranking(mine.value, theirs.value, urgent));
        if (mine.class >= FOUR || theirs.class >= FOUR)
            && let Some(slot) = self.answers.get_mut(usize::from(self.answer_count))
        {
            *slot = p;
            self.answer_count += 1;
        }
    }

    /// Ranks the point `p` of ranking value `value` into `moves` (all a
    /// quiet point, see [`CachedPoint::quiet`], asks of the scan).
    #[inline(always)]
    fn keep(&mut self, moves: &mut [Point; W], p: Point, value: u16) {
        let width = usize::from(self.width);
        // The host's candidates are many points for few places: those below
        // the last kept one are passed over here, not in a call of `rank`.
        let kept_out = W > MAX_WIDTH
            && usize::from(self.scan.len) >= width
            && width
                .checked_sub(1)
                .and_then(|last| self.values.get(last))
                .is_some_and(|&v| v >= value);
        if !kept_out {
            rank(moves, &mut self.values, &mut self.scan.len, p, value, width);
        }
    }

    /// The index from which the ranked candidates are quiet.
    fn quiet_from(&self) -> u8 {
        let len = usize::from(self.scan.len);
        self.values[..len]
            .iter()
            .position(|&v| v < URGENT)
            .unwrap_or(len) as u8
    }
}

/// `true` when `a` and `b` lie on one line at most four points apart.
pub(super) fn related(a: Point, b: Point) -> bool {
    let (ar, ac) = ((a / 15) as i8, (a % 15) as i8);
    let (br, bc) = ((b / 15) as i8, (b % 15) as i8);
    let (dr, dc) = (br - ar, bc - ac);
    (dr == 0 || dc == 0 || dr == dc || dr == -dc) && dr.abs().max(dc.abs()) <= 4
}

/// The ordering value of a near point whose patterns are `pp` for `me`, the
/// side to move (own value plus the opponent's there), as
/// [`ScanState::consider`] ranks it. The renju test is not made: the point is
/// one the first pass kept (not forbidden for the side to move), and the
/// test's frames would stand on this second pass's.
#[inline(never)]
fn point_value(pp: PointPatterns, me: u8, theirs_urgent: u8) -> u16 {
    let me = usize::from(me & 1);
    let (mine, theirs) = (pp.threat[me], pp.threat[me ^ 1]);
    let urgent = mine.class >= THREE || theirs.class >= theirs_urgent;
    ranking(mine.value, theirs.value, urgent)
}

/// One alpha-beta node's state (see [`Searcher::alphabeta`]).
struct Frame<const W: usize> {
    /// Candidates, best first.
    moves: [Point; W],
    /// Number of candidates, the next one to search and the first quiet one.
    count: u8,
    next: u8,
    quiet: u8,
    /// Distance from the root.
    ply: u8,
    /// Depth left (the children's depth once the node is entered).
    depth: i8,
    /// The window and the best score so far (scores fit 16 bits: an `i16`
    /// here keeps the board's recursive frames small).
    alpha: i16,
    beta: i16,
    best: i16,
    /// A move raised alpha (the score is exact, not an upper bound).
    raised: bool,
    /// The best move so far.
    best_move: Point,
}

impl<const W: usize> Frame<W> {
    /// A node at `ply` with `depth` left and the window (`alpha`, `beta`), no
    /// candidates yet.
    #[inline(always)]
    fn new(ply: u8, depth: i8, alpha: Score, beta: Score) -> Self {
        Frame {
            moves: [NO_POINT; W],
            count: 0,
            next: 0,
            quiet: 0,
            ply,
            depth,
            alpha: alpha as i16,
            beta: beta as i16,
            best: -INFINITY as i16,
            raised: false,
            best_move: NO_POINT,
        }
    }
}

/// Transposition-table entry fields (one `u64`): move (8 bits), score (16),
/// depth (6), bound (2), generation (8), key check (24).
mod tt {
    /// No entry / no bound.
    #[cfg_attr(target_os = "none", allow(dead_code))]
    pub const EMPTY: u64 = 0;
    /// The score is an upper bound (every move failed low).
    pub const UPPER: u8 = 1;
    /// The score is a lower bound (a move failed high).
    pub const LOWER: u8 = 2;
    /// The score is exact.
    pub const EXACT: u8 = 3;

    /// Packs an entry.
    pub fn pack(key: u64, generation: u8, mv: u8, score: i16, depth: u8, bound: u8) -> u64 {
        u64::from(mv)
            | u64::from(score as u16) << 8
            | u64::from(depth & 63) << 24
            | u64::from(bound & 3) << 30
            | u64::from(generation) << 32
            | (key >> 40) << 40
    }

    /// `(move, score, depth, bound)` of `entry` if it is `key`'s, and of
    /// this generation unless `any_generation` (the host's
    /// [`super::Reuse::Kept`]).
    pub fn unpack(
        entry: u64,
        key: u64,
        generation: u8,
        any_generation: bool,
    ) -> Option<(u8, i16, u8, u8)> {
        let bound = (entry >> 30 & 3) as u8;
        if bound == 0
            || !(any_generation || (entry >> 32) as u8 == generation)
            || entry >> 40 != key >> 40
        {
            return None;
        }
        Some((
            entry as u8,
            (entry >> 8) as u16 as i16,
            (entry >> 24 & 63) as u8,
            bound,
        ))
    }
}

/// Static-score cache entry fields (one `u64`): score (16 bits), a mark (8:
/// never 0, so that an empty entry matches nothing), key check (40). A
/// static score is a function of the position alone under the rule and the
/// weights (the arena's [`Context`]), so an entry whose key matches is the
/// score itself, whichever request wrote it: reading it changes no answer.
mod score_cache {
    /// The mark of a written entry.
    const MARK: u64 = 1 << 16;

    /// Packs an entry.
    pub fn pack(key: u64, score: i16) -> u64 {
        (key & !0xFF_FFFF) | MARK | u64::from(score as u16)
    }

    /// The entry's score when it belongs to `key`.
    pub fn unpack(entry: u64, key: u64) -> Option<i16> {
        (entry & 0xFF_0000 == MARK && entry >> 24 == key >> 24).then_some(entry as u16 as i16)
    }
}

/// The arena's header word: a tag, the [`Context`] of the last request and
/// its generation, so a new request ignores the entries of the last ones
/// without clearing the table (unless it keeps them, [`Reuse::Kept`]).
#[cfg_attr(target_os = "none", allow(dead_code))]
const TT_TAG: u64 = 0x676F_6D6F_6B75_0000;

/// What the host's tables' entries depend on beyond the position: the rule
/// and the evaluation's weights (the request's level). A request of another
/// context than the last one's clears the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Context(u8);

impl Context {
    /// The context of a request for `rule` at engine level `level`.
    #[cfg_attr(target_os = "none", allow(dead_code))]
    pub(super) fn new(rule: Rule, level: u8) -> Self {
        Context(rule as u8 | u8::from(level == 2) << 4)
    }
}

/// Whether a host request reads what the last requests left in the tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Reuse {
    /// Only this request's entries are read (its answer, nodes and scores
    /// are the same whatever came before): a request limited by nodes or
    /// depth alone, whose answer must be reproducible.
    #[default]
    Fresh,
    /// The entries of the last requests (since the tables were cleared) are
    /// read too, as a GUI's engine keeps its hash between moves: a request
    /// limited by the clock, whose answer depends on time anyway. The
    /// next move's search starts from what the last one found.
    Kept,
}

/// The searcher's state: the working position, its evaluation sums, the node count.
pub struct Searcher<'p, const PLIES: usize, const TRI: usize, const W: usize, const R: usize> {
    pub(super) pos: Gomoku,
    pub(super) eval: Eval,
    pub(super) nodes: u64,
    /// Work done so far and its limit (0 = none), see [`Settings::work`].
    pub(super) work: u32,
    pub(super) work_limit: u32,
    pub(super) aborted: bool,
    /// The poll asked to stop (as opposed to a node budget running out).
    pub(super) stopped: bool,
    pub(super) settings: Settings,
    /// The VCF line (see [`Searcher::vcf`]), then the principal variation of
    /// [`Searcher::found`].
    pub(super) line: Pv,
    /// What the search found so far (the answer, see [`answer`]).
    pub(super) found: Found,
    /// The root's candidates (in the scan's order) and their number.
    root_moves: [Point; W],
    root_len: u8,
    /// The root moves not to play (the request's `exclude=`, checked when it
    /// was parsed): read only at the root.
    exclude: &'p str,
    /// Principal variations by ply (triangular: row `ply` starts at
    /// [`Searcher::pv_start`]) and their lengths: one table instead of a PV per frame.
    pv: [Point; TRI],
    pv_len: [u8; PLIES],
    pub(super) poll: &'p mut dyn Poll,
    /// What only the host keeps (`R` = 1; nothing on the board).
    host: [HostPart<'p>; R],
}

/// The host's part of a searcher: the key, the tables, the clock's soft limit
/// and the board's lines as rotated words.
pub(super) struct HostPart<'p> {
    /// Zobrist key of the stones (the side to move follows from their count).
    hash: u64,
    /// The VCF (and VCT) memo of failed searches ([`super::vcf::solve`]).
    memo: &'p mut [u64],
    /// The transposition table.
    tt: &'p mut [u64],
    /// The static scores of this request's positions ([`score_cache`]): a
    /// leaf reached again through other moves is not scored again.
    scores: &'p mut [u64],
    /// This request's generation tag of the table's entries.
    generation: u8,
    /// Whether the last requests' entries are read.
    reuse: Reuse,
    /// Clock ticks after which a sub-search (the root's VCF and VCT) gives up
    /// (0: none).
    soft_deadline: u64,
    /// The board's columns and diagonals.
    rot: Rotated,
    /// The line-pattern tables of black and white under the request's rule.
    tables: [HostTable; 2],
    /// Every empty point's line patterns and what they add up to: a move marks
    /// the directions it changes on the empty points within a window's reach
    /// along its four lines, and a point is read again in those directions
    /// only when asked for (an occupied point's entry is left as it was when
    /// its stone was played, and is right again when the stone is taken back;
    /// entries of the root's stones are meaningless).
    points: [CachedPoint; POINTS],
    /// Each stone's line pattern per direction ([`host_update`]; entries of
    /// empty points are meaningless).
    stones: [[Pattern; 4]; POINTS],
    /// The stones' line patterns counted by pattern (the host evaluation's
    /// features, kept move by move beside [`Searcher::eval`]).
    hist: Histogram,
    /// What this request's root check found after each root move
    /// ([`Searcher::root_threat`]): [`UNCHECKED`], [`SAFE`], or [`SAFE`] + the
    /// length of the opponent's winning line.
    root_threat: [u8; POINTS],
    /// Nodes of each root check of `Searcher::root_threat` (0: none): kept
    /// here, not in [`Settings`], so that the board's settings (on its 2 KB
    /// build's stack) stay their size.
    root_vct: u32,
    /// The candidates' ranking adds a bonus by the points' fine classes
    /// ([`Searcher::class_bonus`]).
    class_order: bool,
    /// What the moves played and not yet taken back changed in
    /// [`HostPart::points`]: each point's entry as it was before a refresh
    /// changed it ([`HostPart::refresh`]), so that taking a move back puts the
    /// entries back instead of marking them to be read again.
    undo: UndoLog,
    /// The moves played and not yet taken back (a ring of 256: the last
    /// ones), and their number (mod 256).
    played: [Point; 256],
    played_len: u8,
}

/// Refreshed points' entries kept by [`HostPart::undo`].
const UNDO_ENTRIES: usize = 1024;
/// Marks of [`HostPart::mark_points`] kept by [`HostPart::undo`].
const UNDO_MARKS: usize = 4096;
/// Most points one move marks ([`HostPart::mark_points`]: those within
/// [`super::board::REACH`] of it on its four lines).
const MOVE_MARKS: usize = 8 * super::board::REACH as usize;
/// Moves played at once whose changes [`HostPart::undo`] can follow (the
/// search's plies and the leaves' VCF lines; deeper moves are taken back by
/// marking their points again).
const UNDO_MOVES: usize = 128;
/// [`UndoLog::starts`]: the move's entries are not all in the log (it was
/// full, or a move after it was taken back without them): taking it back marks
/// its points to be read again.
const LOST: u16 = 1 << 15;

/// The entries of [`HostPart::points`] as they were before the moves being
/// searched changed them (see [`HostPart::undo`]).
struct UndoLog {
    /// The points whose entries are kept, in the order they were changed.
    points: [Point; UNDO_ENTRIES],
    /// Their entries before the change.
    entries: [CachedPoint; UNDO_ENTRIES],
    /// Entries in the log.
    len: u16,
    /// The points a move marked, each with its marks before the move.
    marked: [(Point, u8); UNDO_MARKS],
    /// Marks in the log.
    marks: u16,
    /// Per move played and not taken back: where its entries start in the
    /// log, with [`LOST`] when some of them (or of its marks) are not there.
    starts: [u16; UNDO_MOVES],
    /// Per move played and not taken back: where its marks start.
    mark_starts: [u16; UNDO_MOVES],
    /// Moves played and not taken back.
    moves: u16,
    /// The stones' line patterns the moves changed ([`host_update`]), so
    /// that taking a move back puts them back instead of reading them again.
    changes: [StoneChange; UNDO_CHANGES],
    /// Changes in the log.
    changed: u16,
    /// Per move played and not taken back: where its changes start, with
    /// [`LOST`] when some of them are not there.
    change_starts: [u16; UNDO_MOVES],
}

/// One stone's line pattern in one direction changed by a move: the
/// stone, the direction (bits 0–1) and colour (bit 2), the pattern before
/// and after.
#[derive(Clone, Copy, Debug, Default)]
struct StoneChange {
    stone: Point,
    dir_colour: u8,
    old: Pattern,
    new: Pattern,
}

/// Stone-pattern changes kept by [`UndoLog::changes`].
const UNDO_CHANGES: usize = 4096;

impl UndoLog {
    /// An empty log.
    fn new() -> Self {
        UndoLog {
            points: [NO_POINT; UNDO_ENTRIES],
            entries: [CachedPoint::default(); UNDO_ENTRIES],
            len: 0,
            marked: [(NO_POINT, 0); UNDO_MARKS],
            marks: 0,
            starts: [0; UNDO_MOVES],
            mark_starts: [0; UNDO_MOVES],
            moves: 0,
            changes: [StoneChange::default(); UNDO_CHANGES],
            changed: 0,
            change_starts: [0; UNDO_MOVES],
        }
    }

    /// Empties the log (a new root).
    fn clear(&mut self) {
        self.len = 0;
        self.marks = 0;
        self.moves = 0;
        self.changed = 0;
    }

    /// Opens the log of a move played.
    #[inline(always)]
    fn open(&mut self) {
        let i = usize::from(self.moves);
        if let (Some(start), Some(marks)) = (self.starts.get_mut(i), self.mark_starts.get_mut(i)) {
            *start = self.len;
            *marks = self.marks;
        }
        if let Some(start) = self.change_starts.get_mut(i) {
            *start = self.changed;
        }
        self.moves += 1;
    }

    /// Keeps a stone's pattern change in the last move's log (or marks that
    /// log [`LOST`] when it is full; nothing beyond [`UNDO_MOVES`] moves).
    #[inline(always)]
    fn keep_change(&mut self, change: StoneChange) {
        let Some(last) = usize::from(self.moves).checked_sub(1) else {
            return;
        };
        let Some(start) = self.change_starts.get_mut(last) else {
            return;
        };
        match self.changes.get_mut(usize::from(self.changed)) {
            Some(slot) => {
                *slot = change;
                self.changed += 1;
            }
            None => *start |= LOST,
        }
    }

    /// The last move's stone-pattern changes, when all are in the log
    /// (`None` otherwise), taken out of it.
    #[inline(always)]
    fn take_changes(&mut self) -> Option<core::ops::Range<usize>> {
        let last = usize::from(self.moves).checked_sub(1)?;
        let start = *self.change_starts.get(last)?;
        let end = usize::from(self.changed);
        self.changed = start & !LOST;
        (start & LOST == 0).then_some(usize::from(start)..end)
    }

    /// `true` when a move is open and its marks ([`HostPart::mark_points`]:
    /// at most [`MOVE_MARKS`]) fit in the log; marks the move's log [`LOST`]
    /// when they may not.
    #[inline(always)]
    fn room_for_marks(&mut self) -> bool {
        let Some(last) = usize::from(self.moves).checked_sub(1) else {
            return false;
        };
        if usize::from(self.marks) + MOVE_MARKS <= UNDO_MARKS {
            return true;
        }
        if let Some(start) = self.starts.get_mut(last) {
            *start |= LOST;
        }
        false
    }

    /// Keeps `entry`, the point `p`'s before a change, in the last move's log
    /// (or marks that log [`LOST`] if it is full; nothing when no move is open).
    #[inline(always)]
    fn keep(&mut self, p: Point, entry: &CachedPoint) {
        let Some(last) = usize::from(self.moves).checked_sub(1) else {
            return;
        };
        let i = usize::from(self.len);
        if let (Some(slot), Some(kept)) = (self.points.get_mut(i), self.entries.get_mut(i)) {
            *slot = p;
            *kept = *entry;
            self.len += 1;
        } else if let Some(start) = self.starts.get_mut(last) {
            *start |= LOST;
        }
    }
}

/// [`HostPart::root_threat`]: not looked at yet.
const UNCHECKED: u8 = 0;
/// [`HostPart::root_threat`]: no VCT of the opponent found after the move.
const SAFE: u8 = 1;

/// One empty point's line patterns per colour and direction and their sums
/// (see [`HostPart::points`]).
#[derive(Clone, Copy, Debug, Default)]
struct CachedPoint {
    patterns: [[Pattern; 4]; 2],
    /// Each colour's four patterns added up ([`PatternSum::of`]).
    pattern_sums: [PatternSum; 2],
    sums: PointPatterns,
    /// The fine class of each colour ([`super::point_class`]; the host
    /// evaluation's point features).
    classes: [PointClass; 2],
    /// The point's ranking value in a scan ([`ranking`]: the two colours'
    /// values added up, the same for either side to move) when it is quiet:
    /// neither colour makes a three or more there and no renju test is due
    /// (then the scan notes nothing else of it); [`NOT_QUIET`] otherwise.
    quiet: u16,
    /// Directions whose patterns are to be read again.
    dirty: u8,
}

/// [`CachedPoint::quiet`] of a point that is not quiet (above every quiet
/// point's value).
const NOT_QUIET: u16 = u16::MAX;

/// The ranking value of a point whose patterns are `pp` when it is quiet
/// (see [`CachedPoint::quiet`]), `None` when it is not.
#[inline(always)]
fn quiet_ranking(pp: PointPatterns) -> Option<u16> {
    let [black, white] = pp.threat;
    (black.class < THREE && white.class < THREE && !pp.maybe_forbidden)
        .then(|| ranking(black.value, white.value, false))
}

/// Steps between neighbouring points along each of [`super::board::DIRS`].
const DIR_STEP: [i16; 4] = [1, 15, 16, -14];

impl HostPart<'_> {
    /// Reads every empty point's patterns and every stone's from scratch.
    fn read_points(&mut self, board: &super::board::Board, rule: Rule) {
        let tables = HostTable::both(rule);
        for p in 0..POINTS as u8 {
            if let Some(side) = board.get(p) {
                let lines = self.rot.lines(board, p);
                let table = tables[usize::from(side & 1)];
                self.stones[usize::from(p)] =
                    core::array::from_fn(|d| table.pattern(&lines[d], side));
                continue;
            }
            if !board.is_empty(p) {
                continue;
            }
            let lines = self.rot.lines(board, p);
            let e = &mut self.points[usize::from(p)];
            for (d, line) in lines.iter().enumerate() {
                e.patterns[0][d] = tables[0].pattern(line, 0);
                e.patterns[1][d] = tables[1].pattern(line, 1);
            }
            e.pattern_sums = [PatternSum::of(e.patterns[0]), PatternSum::of(e.patterns[1])];
            e.refresh_sums(rule);
            e.dirty = 0;
        }
    }

    /// Marks the empty points within a window's reach of `p` along the four
    /// whole lines through it, `lines` (without `p`'s stone), as to be read
    /// again in that line's direction: the only patterns a stone put on or
    /// taken from `p` changes (read when asked for, [`HostPart::point`]: the
    /// VCF search plays many moves and reads few points). An occupied point
    /// is not marked: moves are taken back in the reverse order, so when its
    /// stone is taken back the board is again the one its entry was left in.
    /// With `keep`, each point's marks before are kept in the undo log
    /// ([`HostPart::undo`], the move played having opened its log).
    #[inline(never)]
    fn mark_points(&mut self, p: Point, lines: &[FullLine; 4], keep: bool) {
        let log = &mut self.undo;
        let keep = keep && log.room_for_marks();
        let mut n = usize::from(log.marks);
        for (d, line) in lines.iter().enumerate() {
            let at = line.at;
            let mut near = line.empty_near();
            while near != 0 {
                let i = near.trailing_zeros() as u8;
                near &= near - 1;
                let q = i16::from(p) + (i16::from(i) - i16::from(at)) * DIR_STEP[d];
                if let Some(e) = self.points.get_mut(q as usize) {
                    if keep && let Some(slot) = log.marked.get_mut(n) {
                        *slot = (q as Point, e.dirty);
                        n += 1;
                    }
                    e.dirty |= 1 << d;
                }
            }
        }
        log.marks = n as u16;
    }

    /// Puts the points' entries back as they were before the last move, on
    /// `p`, was played (`lines`: its four whole lines without it): the
    /// entries and marks it kept in the undo log, or when some are not there,
    /// marks of [`HostPart::mark_points`] on the points it changed (then the
    /// move before it is taken back the same way: its log lacks what this
    /// move's refreshes changed).
    #[inline(never)]
    fn restore_points(&mut self, p: Point, lines: &[FullLine; 4]) {
        let log = &mut self.undo;
        log.moves = log.moves.saturating_sub(1);
        let last = usize::from(log.moves);
        let start = log.starts.get(last).copied().unwrap_or(LOST);
        if start & LOST == 0 {
            let (from, to) = (usize::from(start), usize::from(log.len));
            let points = log.points.get(from..to).unwrap_or_default();
            let entries = log.entries.get(from..to).unwrap_or_default();
            for (&q, entry) in points.iter().zip(entries).rev() {
                if let Some(e) = self.points.get_mut(usize::from(q)) {
                    *e = *entry;
                }
            }
            log.len = start;
            let marks = log.mark_starts.get(last).copied().unwrap_or(0);
            let marked = log.marked.get(usize::from(marks)..usize::from(log.marks));
            for &(q, dirty) in marked.unwrap_or_default().iter().rev() {
                if let Some(e) = self.points.get_mut(usize::from(q)) {
                    e.dirty = dirty;
                }
            }
            log.marks = marks;
            return;
        }
        if let Some(&marks) = log.mark_starts.get(last) {
            log.len = start & !LOST;
            log.marks = marks;
        }
        if let Some(before) = last.checked_sub(1).and_then(|i| log.starts.get_mut(i)) {
            *before |= LOST;
        }
        self.mark_points(p, lines, false);
    }

    /// The empty point `p`'s patterns, read again in the directions marked
    /// (the kept sums as they are when none is: inlined into the callers).
    #[inline(always)]
    fn point(&mut self, board: &super::board::Board, p: Point, rule: Rule) -> PointPatterns {
        match self.points.get(usize::from(p)) {
            Some(e) if e.dirty == 0 => e.sums,
            Some(_) => self.refresh(board, p, rule),
            None => PointPatterns::default(),
        }
    }

    /// The empty point `p`'s [`CachedPoint::quiet`] value, read again in the
    /// directions marked, when it is quiet and the ranking adds no class
    /// bonus ([`HostPart::class_order`]).
    #[inline(always)]
    fn quiet(&mut self, board: &super::board::Board, p: Point, rule: Rule) -> Option<u16> {
        if self.class_order {
            return None;
        }
        if self.points.get(usize::from(p))?.dirty != 0 {
            self.refresh(board, p, rule);
        }
        let quiet = self.points.get(usize::from(p))?.quiet;
        (quiet < URGENT).then_some(quiet)
    }

    /// [`HostPart::point`] of a point with directions marked: only those
    /// directions' windows are read, and the sums and classes are worked out
    /// again only when a pattern changed.
    #[inline(never)]
    fn refresh(&mut self, board: &super::board::Board, p: Point, rule: Rule) -> PointPatterns {
        let rot = &self.rot;
        let Some(e) = self.points.get_mut(usize::from(p)) else {
            return PointPatterns::default();
        };
        self.undo.keep(p, e);
        let tables = &self.tables;
        let mut dirty = e.dirty;
        e.dirty = 0;
        // The colours whose patterns changed (bit `side`).
        let mut changed = 0u8;
        while dirty != 0 {
            let d = dirty.trailing_zeros() as usize & 3;
            dirty &= dirty - 1;
            let w = rot.window(board, p, d);
            let new = [tables[0].pattern(&w, 0), tables[1].pattern(&w, 1)];
            for (side, &n) in new.iter().enumerate() {
                let old = e.patterns[side][d];
                if n != old {
                    e.patterns[side][d] = n;
                    e.pattern_sums[side] = e.pattern_sums[side].replaced(old, n);
                    changed |= 1 << side;
                }
            }
        }
        if changed != 0 {
            if changed & 1 != 0 {
                e.refresh_side(0, rule);
            }
            if changed & 2 != 0 {
                e.refresh_side(1, rule);
            }
            e.quiet = quiet_ranking(e.sums).unwrap_or(NOT_QUIET);
        }
        e.sums
    }

    /// The fine classes (`[black, white]`) of the empty point `p`, whose
    /// entry has directions marked, as [`HostPart::refresh`] would leave
    /// them, with the patterns they are read from, the entry left as it is.
    #[inline(never)]
    fn peek_classes(
        &self,
        board: &super::board::Board,
        p: Point,
    ) -> ([PointClass; 2], [[Pattern; 4]; 2]) {
        let Some(e) = self.points.get(usize::from(p)) else {
            return ([point_class::NO_CLASS; 2], [[0; 4]; 2]);
        };
        let tables = &self.tables;
        let mut patterns = e.patterns;
        let mut dirty = e.dirty;
        // The colours whose patterns changed (bit `side`).
        let mut changed = 0u8;
        while dirty != 0 {
            let d = dirty.trailing_zeros() as usize & 3;
            dirty &= dirty - 1;
            let w = self.rot.window(board, p, d);
            for (side, kept) in patterns.iter_mut().enumerate() {
                let n = tables[side].pattern(&w, side as u8);
                if n != kept[d] {
                    kept[d] = n;
                    changed |= 1 << side;
                }
            }
        }
        let classes = core::array::from_fn(|side| {
            if changed >> side & 1 != 0 {
                point_class::of_patterns(patterns[side]).0
            } else {
                e.classes[side]
            }
        });
        (classes, patterns)
    }

    /// The empty point `p`'s fine classes (`[black, white]`), read again in
    /// the directions marked.
    #[cfg(test)]
    fn classes(&mut self, board: &super::board::Board, p: Point, rule: Rule) -> [PointClass; 2] {
        self.point(board, p, rule);
        self.points
            .get(usize::from(p))
            .map_or([point_class::NO_CLASS; 2], |e| e.classes)
    }

    /// How many near points of `pos` ([`near_row`]) are of each fine class,
    /// by colour: each point's classes read again in the directions marked,
    /// and with `keep` kept ([`HostPart::refresh`]); without it only worked
    /// out ([`HostPart::peek_classes`]: a leaf's, whose move is taken back
    /// next, so that the entries it would change need not be put back).
    /// With `codes` (a network's code table and the side to move, 0 black,
    /// 1 white), each point's rows of the table added up too (zero
    /// without).
    #[inline(never)]
    fn near_classes(
        &mut self,
        pos: &Gomoku,
        keep: bool,
        codes: Option<(&CodeTable, usize)>,
    ) -> (PointClasses, CodeSums) {
        let (board, rule) = (pos.board(), pos.rule());
        let mut sums = CodeSums::default();
        // Counted by class modulo 16 (every class is below
        // `point_class::CLASSES`, 13): no bounds check a point.
        let mut counts = [[0u16; 16]; 2];
        // The rows' stones read once, two empty rows each side: row `r`'s
        // near points ([`near_row`]) from `occupied[r..r + 5]`.
        let mut occupied = [0u16; 19];
        for (r, o) in occupied[2..17].iter_mut().enumerate() {
            *o = board.row_occupied(r as i8);
        }
        let spread = |o: u16, k: u32| o | (o << k) | (o >> k);
        for (r, rows) in (0..15u8).zip(occupied.windows(5)) {
            let &[above2, above, row, below, below2] = rows else {
                continue;
            };
            let mut near = (spread(above, 1) | spread(below, 1))
                | (spread(above2, 2) | spread(below2, 2))
                | (spread(row, 1) | spread(row, 2));
            near &= 0x7FFF & !row;
            while near != 0 {
                let p = r * 15 + near.trailing_zeros() as u8;
                near &= near - 1;
                let Some(e) = self.points.get(usize::from(p)) else {
                    continue;
                };
                let ([black, white], patterns) = if e.dirty == 0 {
                    (e.classes, e.patterns)
                } else if keep {
                    self.refresh(board, p, rule);
                    self.points
                        .get(usize::from(p))
                        .map_or(([0; 2], [[0; 4]; 2]), |e| (e.classes, e.patterns))
                } else {
                    self.peek_classes(board, p)
                };
                if let Some((table, own)) = codes {
                    table.add_point(&patterns, [black, white], own, &mut sums);
                }
                counts[0][usize::from(black & 15)] += 1;
                counts[1][usize::from(white & 15)] += 1;
            }
        }
        let classes = core::array::from_fn(|side| core::array::from_fn(|c| counts[side][c]));
        (classes, sums)
    }

    /// The point codes ([`point_class::code`], `[black, white]`) of the
    /// empty point `p` as its patterns were last read ([`HostPart::classes`]
    /// reads them again): worked out when asked for (only evaluations with
    /// [`HostWeights::codes`] ask).
    #[inline(always)]
    fn codes(&self, p: Point) -> [u16; 2] {
        self.points
            .get(usize::from(p))
            .map_or([0; 2], |e| e.patterns.map(point_class::code))
    }
}

impl CachedPoint {
    /// The sums and fine classes of the patterns (the classes from their
    /// tables, [`point_class::of_patterns`]; the values from the kept sums).
    #[inline(always)]
    fn refresh_sums(&mut self, rule: Rule) {
        self.refresh_side(0, rule);
        self.refresh_side(1, rule);
        self.quiet = quiet_ranking(self.sums).unwrap_or(NOT_QUIET);
    }

    /// [`CachedPoint::refresh_sums`] of one colour's patterns (`side`; black's
    /// also say whether the renju test is due), [`CachedPoint::quiet`] left
    /// as it was: a refresh works out again only the colours whose patterns
    /// changed.
    #[inline(always)]
    fn refresh_side(&mut self, side: usize, rule: Rule) {
        let side = side & 1;
        let (fine, class, maybe) = point_class::of_patterns(self.patterns[side]);
        self.classes[side] = fine;
        self.sums.threat[side] = self.pattern_sums[side].threat_of_class(class);
        if side == 0 {
            self.sums.maybe_forbidden = maybe && rule.has_forbidden();
        }
    }
}

impl HostPart<'_> {
    /// Asks the processor for the position's slots in the table and in the
    /// static-score cache, read soon by the node's probe or its leaf score
    /// (a random slot of a table of megabytes is a cache miss: the probe
    /// waited on it for 13 % of the host's time).
    #[inline(always)]
    fn prefetch_slots(&self) {
        if let Some(slot) = self.tt.get(slot_of(self.hash, self.tt.len())) {
            prefetch(slot);
        }
        if let Some(slot) = self.scores.get(slot_of(self.hash, self.scores.len())) {
            prefetch(slot);
        }
    }

    fn new() -> Self {
        HostPart {
            hash: 0,
            memo: &mut [],
            tt: &mut [],
            scores: &mut [],
            generation: 0,
            reuse: Reuse::Fresh,
            soft_deadline: 0,
            rot: Rotated::default(),
            tables: HostTable::both(Rule::Free),
            points: [CachedPoint::default(); POINTS],
            stones: [[0; 4]; POINTS],
            hist: Histogram::default(),
            root_threat: [UNCHECKED; POINTS],
            root_vct: 0,
            class_order: false,
            undo: UndoLog::new(),
            played: [NO_POINT; 256],
            played_len: 0,
        }
    }
}

/// The slot of key `hash` in a table of `len` entries (0, out of range, for
/// an empty table): the one mapping of the transposition table, the VCF memo
/// and the static-score cache.
#[inline(always)]
fn slot_of(hash: u64, len: usize) -> usize {
    hash.checked_rem(len as u64).map_or(0, |slot| slot as usize)
}

/// Brings the cache line of `entry` into the processor's cache ahead of its
/// use (x86-64 hosts; nothing elsewhere): a hint, no access.
#[inline(always)]
fn prefetch<T>(entry: &T) {
    #[cfg(target_arch = "x86_64")]
    safe_arch::prefetch_t0(entry);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = entry;
}

/// Zobrist keys: one per colour and point.
static ZOBRIST: [[u64; POINTS]; 2] = {
    let mut t = [[0u64; POINTS]; 2];
    let mut x: u64 = 0x5EED_1234_ABCD_0001;
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < POINTS {
            // SplitMix64.
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            t[c][p] = z ^ (z >> 31);
            p += 1;
        }
        c += 1;
    }
    t
};

/// [`Eval::update`] and the host's [`Histogram`] together, for a stone of
/// `side` put on (`add`) or taken from the empty point `p` whose four whole
/// lines without its stone are `lines` ([`super::eval::update_into`]'s
/// changes; `tables`: black's and white's line patterns under the rule): each stone's patterns are kept in `stones` ([`HostPart::stones`]),
/// so that only the patterns after the move are looked up; a stone put on
/// keeps the changes in `log` for [`host_undo`].
#[inline(never)]
#[allow(clippy::too_many_arguments)] // the host's parts, borrowed apart from the sink's
fn host_update(
    sink: &mut Both<'_>,
    stones: &mut [[Pattern; 4]; POINTS],
    p: Point,
    lines: &[FullLine; 4],
    side: u8,
    add: bool,
    tables: [HostTable; 2],
    log: &mut UndoLog,
) {
    for (d, without) in lines.iter().enumerate() {
        let at = without.at;
        // The board after the move: with the stone when it is put on.
        let with = without.with_stone(side);
        let now = if add { with } else { *without };
        let mut near = without.stones_near();
        while near != 0 {
            let i = near.trailing_zeros() as u8;
            near &= near - 1;
            let colour = u8::from(without.white >> i & 1 != 0);
            let q = i16::from(p) + (i16::from(i) - i16::from(at)) * DIR_STEP[d];
            let Some(kept) = stones.get_mut(q as usize) else {
                continue;
            };
            let new = tables[usize::from(colour)].pattern(&now.window(i), colour);
            let old = kept[d];
            if new != old {
                sink.add_pattern(colour, old, -1);
                sink.add_pattern(colour, new, 1);
                kept[d] = new;
                if add {
                    log.keep_change(StoneChange {
                        stone: q as Point,
                        dir_colour: d as u8 | colour << 2,
                        old,
                        new,
                    });
                }
            }
        }
        if let Some(kept) = stones.get_mut(usize::from(p)) {
            if add {
                let own = tables[usize::from(side)].pattern(&with.window(at), side);
                kept[d] = own;
                sink.add_pattern(side, own, 1);
            } else {
                sink.add_pattern(side, kept[d], -1);
            }
        }
    }
}

/// Takes the stone `side` on `p` back from the patterns and counts as
/// [`host_update`] left them, from the move's `changes` in `log` (each
/// stone's pattern put back) instead of reading the lines again.
#[inline(never)]
fn host_undo(
    sink: &mut Both<'_>,
    stones: &mut [[Pattern; 4]; POINTS],
    p: Point,
    side: u8,
    log: &UndoLog,
    changes: core::ops::Range<usize>,
) {
    for c in log.changes.get(changes).unwrap_or_default().iter().rev() {
        let colour = c.dir_colour >> 2 & 1;
        if let Some(kept) = stones.get_mut(usize::from(c.stone)) {
            kept[usize::from(c.dir_colour & 3)] = c.old;
        }
        sink.add_pattern(colour, c.new, -1);
        sink.add_pattern(colour, c.old, 1);
    }
    if let Some(kept) = stones.get(usize::from(p)) {
        for &pattern in kept {
            sink.add_pattern(side, pattern, -1);
        }
    }
}

/// The Zobrist key of a board.
pub(super) fn zobrist(pos: &Gomoku) -> u64 {
    let mut h = 0;
    for p in 0..POINTS as u8 {
        if let Some(side) = pos.at(p) {
            h ^= ZOBRIST[usize::from(side)][usize::from(p)];
        }
    }
    h
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

/// Every empty point near a stone (see `near_row`), row by row.
pub fn for_each_near(pos: &Gomoku, f: impl FnMut(Point)) {
    let board = pos.board();
    for_each_near_of(pos, |row| board.row_occupied(row), f);
}

impl<'p, const PLIES: usize, const TRI: usize, const W: usize, const R: usize>
    Searcher<'p, PLIES, TRI, W, R>
{
    /// The ply cap: a node at this ply is a leaf.
    const MAX_PLY: u8 = (PLIES - 1) as u8;
    /// The host's sizes (rotated words, a transposition table, principal-variation
    /// windows); the board's searcher runs a plain alpha-beta in small frames.
    const HOST: bool = R > 0;

    /// Where row `ply` of the PV table starts (`ply <= MAX_PLY`).
    fn pv_start(ply: usize) -> usize {
        let max = PLIES - 1;
        ply * max - ply * ply.saturating_sub(1) / 2
    }

    /// A searcher on `pos` with `settings` (tests and the VCF solver; [`answer`]
    /// builds its own in place).
    pub(super) fn new(pos: &Gomoku, settings: Settings, poll: &'p mut dyn Poll) -> Self {
        let mut s = Self::blank(poll);
        s.pos = *pos;
        s.eval = Eval::from_board(pos.board(), pos.rule());
        s.reset_host();
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
            eval: Eval::default(),
            line: Pv::new(),
            found: Found {
                best: None,
                score: 0,
                depth: 0,
                nodes: 0,
            },
            root_moves: [NO_POINT; W],
            root_len: 0,
            exclude: "",
            pv: [NO_POINT; TRI],
            pv_len: [0; PLIES],
            nodes: 0,
            work: 0,
            work_limit: settings.work,
            aborted: false,
            stopped: false,
            settings,
            poll,
            host: core::array::from_fn(|_| HostPart::new()),
        }
    }

    /// Takes the tables out of `arena` (a ninth for the static-score cache, the
    /// rest but the header word for the VCF memo and the transposition table)
    /// for a request of `context`, and starts a new generation of entries: a
    /// [`Reuse::Fresh`] request ignores the last requests' entries, so the
    /// tables need not be cleared (they are, once every 255 requests and when
    /// the arena held something else or another context's entries).
    #[cfg_attr(target_os = "none", allow(dead_code))]
    fn attach_table(&mut self, arena: &'p mut [u64], context: Context) {
        let cache_words = arena.len() / 9;
        let (arena, scores) = arena.split_at_mut(arena.len() - cache_words);
        let Some((header, table)) = arena.split_first_mut() else {
            return;
        };
        let tag = TT_TAG | u64::from(context.0) << 8;
        let generation = if *header & !0xFF == tag {
            (*header as u8).wrapping_add(1)
        } else {
            0
        };
        if generation == 0 {
            table.fill(tt::EMPTY);
            scores.fill(0);
        }
        let generation = generation.max(1);
        *header = tag | u64::from(generation);
        // A quarter for the VCF memo, the rest for the alpha-beta.
        let (memo, tt) = table.split_at_mut(table.len() / 4);
        if let Some(host) = self.host.first_mut() {
            host.generation = generation;
            host.memo = memo;
            host.tt = tt;
            host.scores = scores;
        }
    }

    /// Sets the host's key and rotated words to the position's.
    pub(super) fn reset_host(&mut self) {
        let (hash, rot) = (zobrist(&self.pos), Rotated::from_board(self.pos.board()));
        if let Some(host) = self.host.first_mut() {
            host.hash = hash;
            host.rot = rot;
            host.tables = HostTable::both(self.pos.rule());
            host.read_points(self.pos.board(), self.pos.rule());
            host.undo.clear();
            host.played_len = 0;
            host.hist = Histogram::from_board(self.pos.board(), self.pos.rule());
            host.root_threat = [UNCHECKED; POINTS];
        }
    }

    /// The Zobrist key of the position (0 on the board).
    pub(super) fn hash(&self) -> u64 {
        self.host.first().map_or(0, |h| h.hash)
    }

    /// The VCF memo (empty on the board).
    pub(super) fn memo(&self) -> &[u64] {
        self.host.first().map_or(&[], |h| &*h.memo)
    }

    /// The VCF memo, to write (empty on the board).
    pub(super) fn memo_mut(&mut self) -> &mut [u64] {
        match self.host.first_mut() {
            Some(h) => h.memo,
            None => &mut [],
        }
    }

    /// The memo's slot for a position of key `key` (the VCF's and the VCT's
    /// keys differ) and the entry that marks it failed with `depth` fours or
    /// threats left: the key's upper 48 bits, the request's generation and
    /// the depth (never 0); `None` without a memo.
    pub(super) fn memo_slot(&self, key: u64, depth: u8) -> Option<(usize, u64)> {
        let host = self.host.first().filter(|h| !h.memo.is_empty())?;
        Some((
            slot_of(key, host.memo.len()),
            (key & !0xFFFF) | u64::from(host.generation) << 8 | u64::from(depth),
        ))
    }

    /// `true` when the memo's `slot` holds `entry`'s position as failed with
    /// at least `entry`'s depth left, found by this request (or by an earlier
    /// one, when the request keeps their entries: [`Reuse::Kept`]).
    pub(super) fn memo_holds(&self, slot: usize, entry: u64) -> bool {
        let Some(host) = self.host.first() else {
            return false;
        };
        let mask = match host.reuse {
            Reuse::Fresh => !0xFF,
            Reuse::Kept => !0xFFFF,
        };
        let stored = host.memo[slot];
        stored != 0 && stored & mask == entry & mask && stored & 0xFF >= entry & 0xFF
    }

    /// Gives the VCF solver its memo (host searchers only).
    pub(super) fn set_memo(&mut self, memo: &'p mut [u64]) {
        if let Some(host) = self.host.first_mut() {
            host.memo = memo;
        }
    }

    /// Sets the soft deadline of a sub-search (host only; 0: none).
    fn set_soft_deadline(&mut self, ticks: u64) {
        if let Some(host) = self.host.first_mut() {
            host.soft_deadline = ticks;
        }
    }

    /// Counts a node; `true` when the search must stop (node limit or poll).
    pub(super) fn visit(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.nodes += 1;
        self.work = self.work.saturating_add(NODE_WORK);
        let mut late = false;
        let every = if Self::HOST {
            HOST_POLL_EVERY
        } else {
            POLL_EVERY
        };
        if self.nodes.is_multiple_of(every) {
            if self.poll.poll(self.nodes) {
                self.stopped = true;
            }
            let soft = self.host.first().map_or(0, |h| h.soft_deadline);
            late = soft != 0 && self.poll.elapsed_ticks() > soft;
        }
        self.aborted = self.stopped
            || late
            || (self.settings.nodes != 0 && self.nodes >= self.settings.nodes)
            || (self.work_limit != 0 && self.work >= self.work_limit);
        self.aborted
    }

    /// Plays `p` for the side to move, keeping the evaluation and the key in
    /// step (out of line: inlined, its address arithmetic would be kept in every
    /// recursive frame).
    #[inline(never)]
    pub(super) fn play(&mut self, p: Point) -> Point {
        let side = self.pos.player_to_move();
        let lines = self.full_lines(p);
        let rule = self.pos.rule();
        match self.host.first_mut() {
            Some(host) => {
                // The child's key first: its slots in the table and the
                // static-score cache are fetched while the patterns update.
                host.hash ^= ZOBRIST[usize::from(side & 1)][usize::from(p) % POINTS];
                host.prefetch_slots();
                host.undo.open();
                host_update(
                    &mut Both(&mut self.eval, &mut host.hist),
                    &mut host.stones,
                    p,
                    &lines,
                    side,
                    true,
                    host.tables,
                    &mut host.undo,
                );
            }
            None => self.eval.update(&lines, side, true, rule),
        }
        if let Some(host) = self.host.first_mut() {
            host.rot.toggle(p, side);
            host.mark_points(p, &lines, true);
            host.played[usize::from(host.played_len)] = p;
            host.played_len = host.played_len.wrapping_add(1);
        }
        self.pos.make(p)
    }

    /// Takes back `p` (the last move) with what [`Searcher::play`] returned.
    #[inline(never)]
    pub(super) fn take_back(&mut self, p: Point, undo: Point) {
        self.pos.unmake(p, undo);
        let side = self.pos.player_to_move();
        if let Some(host) = self.host.first_mut() {
            host.hash ^= ZOBRIST[usize::from(side & 1)][usize::from(p) % POINTS];
            host.rot.toggle(p, side);
            host.played_len = host.played_len.wrapping_sub(1);
        }
        let lines = self.full_lines(p);
        let rule = self.pos.rule();
        match self.host.first_mut() {
            Some(host) => {
                let mut sink = Both(&mut self.eval, &mut host.hist);
                match host.undo.take_changes() {
                    Some(changes) => {
                        host_undo(&mut sink, &mut host.stones, p, side, &host.undo, changes);
                    }
                    None => host_update(
                        &mut sink,
                        &mut host.stones,
                        p,
                        &lines,
                        side,
                        false,
                        host.tables,
                        &mut host.undo,
                    ),
                }
                host.restore_points(p, &lines);
            }
            None => self.eval.update(&lines, side, false, rule),
        }
    }

    /// The four whole lines through `p` (from the rotated words when kept).
    #[inline(always)]
    fn full_lines(&self, p: Point) -> [FullLine; 4] {
        let board = self.pos.board();
        match self.host.first() {
            Some(host) => host.rot.full_lines(board, p),
            None => board.full_lines(p),
        }
    }

    /// What a stone on the empty point `p` makes for each colour (its windows
    /// from the rotated words when kept), the renju test not yet run: on the
    /// host the kept point read in place ([`HostPart::point`]), on the board
    /// the call out of line it always was.
    #[inline(always)]
    pub(super) fn read_point(&mut self, p: Point) -> PointPatterns {
        if Self::HOST {
            let (board, rule) = (self.pos.board(), self.pos.rule());
            if let Some(host) = self.host.first_mut() {
                return host.point(board, p, rule);
            }
        }
        self.read_point_out(p)
    }

    /// [`Searcher::read_point`] out of line (the board's).
    #[inline(never)]
    fn read_point_out(&mut self, p: Point) -> PointPatterns {
        let (board, rule) = (self.pos.board(), self.pos.rule());
        match self.host.first_mut() {
            Some(host) => host.point(board, p, rule),
            None => PointPatterns::read(board, p, rule),
        }
    }

    /// `pp` with the host's ordering bonus of the point's fine classes added
    /// to each side's value when `HostPart::class_order` is set
    /// ([`CLASS_ORDER_MINE`], [`CLASS_ORDER_THEIRS`]; `pp` as it is otherwise
    /// and on the board).
    #[inline(always)]
    fn class_bonus(&self, p: Point, mut pp: PointPatterns) -> PointPatterns {
        let Some(host) = self.host.first().filter(|h| h.class_order) else {
            return pp;
        };
        let Some(e) = host.points.get(usize::from(p)) else {
            return pp;
        };
        let me = usize::from(self.pos.player_to_move() & 1);
        let bonus = |table: &[u16; point_class::CLASSES], c: PointClass| {
            table[usize::from(c) % point_class::CLASSES]
        };
        let mine = &mut pp.threat[me].value;
        *mine = mine.saturating_add(bonus(&CLASS_ORDER_MINE, e.classes[me]));
        let theirs = &mut pp.threat[me ^ 1].value;
        *theirs = theirs.saturating_add(bonus(&CLASS_ORDER_THEIRS, e.classes[me ^ 1]));
        pp
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
    pub(super) fn scan(&mut self, width: usize, moves: &mut [Point; W]) -> Scan {
        let mut st = ScanState::<W> {
            scan: Scan {
                len: 0,
                win: NO_POINT,
                threats: 0,
                threat: NO_POINT,
                open_four: NO_POINT,
                quiet: 0,
            },
            values: [0; W],
            answers: [NO_POINT; ANSWERS],
            answer_count: 0,
            threatened: false,
            width: width.min(W) as u8,
            tests: 0,
            theirs_urgent: self.settings.urgent,
        };
        let mut work = 0u32;
        for r in 0..15u8 {
            let mut near = near_row(&self.pos, r as i8);
            while near != 0 {
                let p = r * 15 + near.trailing_zeros() as u8;
                near &= near - 1;
                work += 1;
                if Self::HOST {
                    let (board, rule) = (self.pos.board(), self.pos.rule());
                    if let Some(value) = self.host.first_mut().and_then(|h| h.quiet(board, p, rule))
                    {
                        st.keep(moves, p, value);
                        continue;
                    }
                }
                let pp = self.read_point(p);
                let pp = self.class_bonus(p, pp);
                if Self::HOST {
                    st.consider_in(&mut self.pos, moves, p, pp);
                } else {
                    st.consider(&mut self.pos, moves, p, pp);
                }
            }
        }
        work += u32::from(st.tests) * FORBIDDEN_WORK;
        self.work = self.work.saturating_add(work);
        if st.threatened && st.scan.open_four == NO_POINT {
            self.rank_answers(&mut st, moves);
        }
        moves[usize::from(st.scan.len)..].fill(NO_POINT);
        st.scan.quiet = st.quiet_from();
        st.scan
    }

    /// Ranks the answers of scan `st` into `moves` instead of all the
    /// candidates (a second look at those few points, not counted as work).
    #[inline(never)]
    fn rank_answers(&mut self, st: &mut ScanState<W>, moves: &mut [Point; W]) {
        let me = self.pos.player_to_move();
        let width = usize::from(st.width);
        st.scan.len = 0;
        for i in 0..usize::from(st.answer_count) {
            let p = st.answers[i];
            let value = point_value(self.read_point(p), me, st.theirs_urgent);
            rank(moves, &mut st.values, &mut st.scan.len, p, value, width);
        }
    }

    /// The table entry of the current position: `(move, score, depth, bound)`.
    #[inline(never)]
    fn probe(&self, ply: u8) -> Option<(Point, Score, u8, u8)> {
        let host = self.host.first()?;
        if host.tt.is_empty() {
            return None;
        }
        let slot = slot_of(host.hash, host.tt.len());
        let any = host.reuse == Reuse::Kept;
        let (mv, score, depth, bound) = tt::unpack(host.tt[slot], host.hash, host.generation, any)?;
        Some((mv, from_table(Score::from(score), ply), depth, bound))
    }

    /// Stores the current position's result in the table.
    #[inline(never)]
    fn store(&mut self, ply: u8, depth: i8, score: Score, bound: u8, mv: Point) {
        if self.aborted {
            return;
        }
        let Some(host) = self.host.first_mut() else {
            return;
        };
        if host.tt.is_empty() {
            return;
        }
        let slot = slot_of(host.hash, host.tt.len());
        let score = to_table(score, ply) as i16;
        host.tt[slot] = tt::pack(
            host.hash,
            host.generation,
            mv,
            score,
            depth.max(0) as u8,
            bound,
        );
    }

    /// A node's first steps, out of line so that the recursive
    /// [`Searcher::alphabeta`] frame stays small: counts the node, scores leaves
    /// and immediate wins, and looks the position up in the table (a cut-off, or
    /// the table's move, left in `f.best_move` for [`Searcher::expand`]).
    #[inline(never)]
    fn enter(&mut self, f: &mut Frame<W>) -> Option<Score> {
        let (depth, ply) = (f.depth, f.ply);
        self.pv_len[usize::from(ply)] = 0;
        if self.visit() || usize::from(self.pos.stones()) == POINTS {
            return Some(0);
        }
        let me = self.pos.player_to_move();
        if self.eval.has_four(me) {
            return Some(MATE - Score::from(ply) - 1);
        }
        let quiet = !self.eval.has_four(me ^ 1);
        if ply >= Self::MAX_PLY || (depth <= 0 && quiet) {
            return Some(self.leaf(ply));
        }
        if !Self::HOST {
            return None;
        }
        if let Some((mv, score, d, bound)) = self.probe(ply) {
            f.best_move = mv;
            let cut = i16::from(d) >= i16::from(depth)
                && ply > 0
                && match bound {
                    tt::EXACT => true,
                    tt::LOWER => score >= Score::from(f.beta),
                    tt::UPPER => score <= Score::from(f.alpha),
                    _ => false,
                };
            if cut {
                return Some(score);
            }
        }
        None
    }

    /// The node's candidates (also out of line, and called after
    /// [`Searcher::enter`] has returned, so that the scan's frames stand on the
    /// alpha-beta frame alone): finds wins, losses and forced blocks, and ranks
    /// the candidates into `f.moves`, the table's move first.
    #[inline(never)]
    fn expand(&mut self, f: &mut Frame<W>) -> Option<Score> {
        let (depth, ply) = (f.depth, f.ply);
        let tt_move = core::mem::replace(&mut f.best_move, NO_POINT);
        let me = self.pos.player_to_move();
        let win_now = MATE - Score::from(ply) - 1;
        let width = if ply == 0 {
            self.settings.root_width
        } else if Self::HOST {
            host_width(self.settings.width, depth)
        } else {
            self.settings.width
        };
        // Host, the opponent having a four: its five points found without
        // a scan ([`Searcher::blocks_of_four`]), the block searched as below.
        if Self::HOST
            && ply > 0
            && self.eval.has_four(me ^ 1)
            && let Some((threats, threat)) = self.blocks_of_four()
        {
            if threats >= 2 || (me == BLACK && self.pos.is_forbidden(threat)) {
                return Some(-(win_now - 1));
            }
            f.moves[0] = threat;
            f.count = 1;
            f.quiet = 1;
            return None;
        }
        let scan = self.scan(usize::from(width), &mut f.moves);
        if scan.win != NO_POINT {
            self.pv[Self::pv_start(usize::from(ply))] = scan.win;
            self.pv_len[usize::from(ply)] = 1;
            return Some(win_now);
        }
        if scan.threats >= 2 {
            return Some(-(win_now - 1));
        }
        if scan.threats == 1 {
            if me == BLACK && self.pos.is_forbidden(scan.threat) {
                return Some(-(win_now - 1));
            }
            f.moves[0] = scan.threat;
            f.count = 1;
            f.quiet = 1;
            return None;
        }
        if scan.open_four != NO_POINT {
            self.pv[Self::pv_start(usize::from(ply))] = scan.open_four;
            self.pv_len[usize::from(ply)] = 1;
            return Some(win_now - 2);
        }
        if depth <= 0 || scan.len == 0 {
            return Some(self.static_score(me));
        }
        let count = usize::from(scan.len);
        f.count = scan.len;
        f.depth = depth - 1;
        if Self::HOST && ply > 0 && tt_move == NO_POINT && depth >= IIR_DEPTH {
            // No move from the table: an internal iterative reduction.
            f.depth -= 1;
        }
        f.quiet = scan.quiet;
        if tt_move != NO_POINT
            && let Some(i) = f.moves[..count].iter().position(|&m| m == tt_move)
        {
            f.moves[..=i].rotate_right(1);
            if usize::from(f.quiet) <= i {
                f.quiet = f.quiet.saturating_add(1).min(scan.len);
            }
        }
        None
    }

    /// Host, below the root, the opponent having a four: its five points
    /// (how many, and one of them), read within four points of its last
    /// move on the lines where that stone makes a four (`B4`, `F4`, `D4`):
    /// a four it had before that move would have been blocked, or the side
    /// to move would have a four of its own and have won. `None` when none
    /// is there (the scan then looks everywhere).
    #[inline(never)]
    fn blocks_of_four(&mut self) -> Option<(u8, Point)> {
        let last = self.pos.last_move()?;
        let opp = usize::from(self.pos.player_to_move() & 1) ^ 1;
        let (mut threats, mut threat) = (0u8, NO_POINT);
        let kept = self.host.first()?.stones[usize::from(last)];
        for (d, pattern) in kept.into_iter().enumerate() {
            // Only the lines where its stone makes a four.
            if !matches!(
                pattern,
                super::lines::B4 | super::lines::F4 | super::lines::D4
            ) {
                continue;
            }
            for k in (-4i8..=4).filter(|&k| k != 0) {
                let Some(q) = super::board::step(last, d, k) else {
                    continue;
                };
                if !self.pos.board().is_empty(q) {
                    continue;
                }
                let mut pp = self.read_point(q);
                pp.resolve(self.pos.board_mut(), q);
                if pp.threat[opp].class == super::lines::FIVE {
                    threats += 1;
                    threat = q;
                }
            }
        }
        (threats > 0).then_some((threats, threat))
    }

    /// Widens node `f` (host only): when every one of its candidates searched
    /// loses (and its scan filled the node's width, [`host_width`]), the
    /// other near points are searched too, up to [`HOST_WIDEST`] (a defence
    /// that ranks low by the patterns, e.g. the point a coming four would
    /// need). `true` when there are more to search, from `f.next` on.
    #[inline(never)]
    fn widen(&mut self, f: &mut Frame<W>) -> bool {
        // Below a scanned node `f.depth` is its children's depth, at most its
        // own less one (reductions only lower it), so this width is at most
        // the one its scan asked for: a scan that found fewer found every
        // point there is. (A forced block's node keeps its own depth and one
        // candidate: never widened.)
        if !Self::HOST
            || f.ply == 0
            || Score::from(f.best) > -MATE_BOUND
            || f.count < host_width(self.settings.width, f.depth.saturating_add(1))
            || f.next < f.count
        {
            return false;
        }
        let mut moves = [NO_POINT; W];
        let scan = self.scan(W, &mut moves);
        // The first candidates are the ones searched (the same ranking, wider;
        // the table's move may have come first: searched twice at worst).
        f.moves = moves;
        f.count = scan.len;
        f.quiet = scan.quiet.max(f.next);
        f.next < f.count
    }

    /// Widens the root's candidates to the near points beyond
    /// [`Settings::root_width`], up to [`HOST_WIDEST`] (host only, when every
    /// candidate lost an iteration): `true` when there are more.
    #[inline(never)]
    fn widen_root(&mut self) -> bool {
        if !Self::HOST
            || usize::from(self.root_len) < usize::from(self.settings.root_width)
            || usize::from(self.settings.root_width) >= W
        {
            return false;
        }
        let before = self.root_len;
        let width = self.settings.root_width;
        self.settings.root_width = W as u8;
        self.root_scan();
        self.settings.root_width = width;
        self.root_len > before
    }

    /// A leaf's score for the side to move at `ply` (the opponent has no four):
    /// an open three of its own wins (it makes a straight four the opponent
    /// cannot meet; not for black under renju, whose straight-four point may be
    /// forbidden); a VCF within [`Settings::leaf_vcf`] fours wins; otherwise the
    /// pattern sums ([`Eval::score`]).
    #[inline(never)]
    fn leaf(&mut self, ply: u8) -> Score {
        let me = self.pos.player_to_move();
        let renju_black = me == BLACK && self.pos.rule().has_forbidden();
        if self.settings.leaf_threes {
            // On the host only when the opponent has no three of any kind: its
            // fours might answer the straight four (a false win would end the
            // deepening and pick a move that does not win).
            let countered = Self::HOST && self.eval.has_three(me ^ 1);
            if self.eval.has_open_three(me) && !renju_black && !countered {
                return MATE - Score::from(ply) - 3;
            }
            // Two open threes of the opponent (or more) and not a three of its
            // own to answer with fours: one is blocked, the other becomes a
            // straight four.
            let renju_white = me != BLACK && self.pos.rule().has_forbidden();
            if self.eval.open_threes(me ^ 1) >= 2 && !self.eval.has_three(me) && !renju_white {
                return -(MATE - Score::from(ply) - 4);
            }
        }
        if self.settings.leaf_vcf > 0 && self.eval.threes(me) >= 2 {
            let line = core::mem::take(&mut self.line);
            let won = self.vcf(self.settings.leaf_vcf);
            let len = self.line.len() as Score;
            self.line = line;
            if self.aborted {
                return 0;
            }
            if won {
                return MATE - Score::from(ply) - len.max(1);
            }
        }
        self.static_score(me)
    }

    /// The static evaluation for `me`: [`Eval::score`], or on the host with
    /// [`Settings::weights`] the tuned [`host_eval`] score. The near points
    /// read again are not kept (see [`HostPart::near_classes`]): its callers,
    /// a leaf and a node without candidates or depth, return the score, and
    /// their move is taken back next.
    #[inline(never)]
    fn static_score(&mut self, me: u8) -> Score {
        self.static_score_of(me, false)
    }

    /// [`Searcher::static_score`] with the near points read again kept (host
    /// only: reverse futility, whose node is searched on when it does not
    /// fail high).
    #[inline(never)]
    fn kept_static_score(&mut self, me: u8) -> Score {
        self.static_score_of(me, true)
    }

    /// [`Searcher::static_score`], the near points read again kept with
    /// `keep` (see [`HostPart::near_classes`]).
    #[inline(always)]
    fn static_score_of(&mut self, me: u8, keep: bool) -> Score {
        let Some(set) = self.settings.weights.filter(|_| Self::HOST) else {
            return self.eval.score(me);
        };
        let key = self.hash();
        // The position's slot in the cache (none without one).
        let slot = self
            .host
            .first()
            .filter(|host| !host.scores.is_empty())
            .map(|host| slot_of(key, host.scores.len()));
        if let (Some(slot), Some(host)) = (slot, self.host.first())
            && let Some(score) = score_cache::unpack(host.scores[slot], key)
        {
            return Score::from(score);
        }
        let score = self.fresh_static_score(set, me, keep);
        if let (Some(slot), Some(host)) = (slot, self.host.first_mut())
            && let Ok(kept) = i16::try_from(score)
        {
            host.scores[slot] = score_cache::pack(key, kept);
        }
        score
    }

    /// [`Searcher::static_score_of`] with the host's weights `set`, worked
    /// out from the position (not from the cache).
    #[inline(always)]
    fn fresh_static_score(&mut self, set: &HostEval, me: u8, keep: bool) -> Score {
        let weights = set.weights(self.pos.rule(), me);
        let mut points: PointClasses = [[0; host_eval::CLASSES]; 2];
        let mut net_codes = CodeSums::default();
        if weights.uses_points()
            && !self.eval.has_four(me)
            && let Some(host) = self.host.first_mut()
        {
            let table = weights.net.and_then(|n| n.codes.as_ref());
            let own = usize::from(me & 1);
            (points, net_codes) = host.near_classes(&self.pos, keep, table.map(|t| (t, own)));
        }
        // The point codes' values: a second pass over the points just read
        // (none without codes, so that the other weights pay nothing).
        let mut code_sum = 0;
        if let (Some(values), Some(host)) = (weights.codes, self.host.first())
            && !self.eval.has_four(me)
        {
            let own = usize::from(me & 1);
            for_each_near(&self.pos, |p| {
                let codes = host.codes(p);
                code_sum += HostWeights::code_value(values, true, codes[own])
                    + HostWeights::code_value(values, false, codes[own ^ 1]);
            });
        }
        let hist = self.host.first().map(|h| h.hist).unwrap_or_default();
        weights.score(&self.eval, &hist, &points, code_sum, &net_codes, me)
    }

    /// Row `ply` of the PV table becomes `mv` followed by row `ply + 1`.
    #[inline(never)]
    fn update_pv(&mut self, ply: u8, mv: Point) {
        let max = PLIES - 1;
        let ply = usize::from(ply).min(max - 1);
        let (start, child) = (Self::pv_start(ply), Self::pv_start(ply + 1));
        let n = usize::from(self.pv_len[ply + 1]).min(max - ply - 1);
        self.pv[start] = mv;
        self.pv.copy_within(child..child + n, start + 1);
        self.pv_len[ply] = n as u8 + 1;
    }

    /// Negamax alpha-beta with a principal-variation window; `depth` may be
    /// negative (a leaf searched on because of a threat). Its principal variation
    /// is left in row `ply` of the PV table. One frame per ply: the node's state
    /// is one [`Frame`] that the out-of-line [`Searcher::enter`] and
    /// [`Searcher::improve`] work on, so the compiler keeps it in place instead
    /// of spilling copies of its fields.
    fn alphabeta(&mut self, depth: i8, ply: u8, alpha: Score, beta: Score) -> Score {
        let mut f = Frame::new(ply, depth, alpha, beta);
        if let Some(score) = self.enter(&mut f) {
            return score;
        }
        if Self::HOST
            && let Some(score) = self.reverse_futility(&f)
        {
            return score;
        }
        let likely_high = Self::HOST && self.likely_fail_high(&f);
        if let Some(score) = self.expand(&mut f) {
            return score;
        }
        if likely_high {
            // Every move a ply shallower (the node searches candidates: the
            // opponent has no four, so this is no forced block).
            f.depth -= 1;
        }
        while let Some(&mv) = f.moves.get(usize::from(f.next)) {
            if f.next >= f.count || (Self::HOST && self.prune(&f)) {
                if Self::HOST && self.widen(&mut f) {
                    continue;
                }
                break;
            }
            let undo = self.play(mv);
            let score = if Self::HOST {
                // The first move with the full window, the others with a null
                // window first (late quiet ones shallower), again in full when
                // they beat alpha.
                let (depth, alpha, beta) = self.window(&f);
                let mut score = -self.alphabeta(depth, f.ply + 1, -beta, -alpha);
                if self.research(&f, depth, score) {
                    score = -self.alphabeta(
                        f.depth,
                        f.ply + 1,
                        -Score::from(f.beta),
                        -Score::from(f.alpha),
                    );
                }
                score
            } else {
                // The board's small frames: a plain alpha-beta.
                -self.alphabeta(
                    f.depth,
                    f.ply + 1,
                    -Score::from(f.beta),
                    -Score::from(f.alpha),
                )
            };
            self.take_back(mv, undo);
            if self.aborted {
                return 0;
            }
            if self.improve(&mut f, mv, score) {
                break;
            }
            f.next += 1;
        }
        if Self::HOST {
            self.finish(&f);
        }
        Score::from(f.best)
    }

    /// Reverse futility pruning (host, every rule; session 42): a null-window
    /// node from depth 1 to [`RFP_DEPTH`], the opponent without a four (and
    /// without a three of any kind beyond [`RFP_THREE_DEPTH`]), whose static
    /// score is at least beta plus [`RFP_MARGIN`] for each ply of its depth
    /// and one more fails high with that score, unsearched.
    #[inline(never)]
    fn reverse_futility(&mut self, f: &Frame<W>) -> Option<Score> {
        let (alpha, beta) = (Score::from(f.alpha), Score::from(f.beta));
        let me = self.pos.player_to_move();
        if beta - alpha != 1
            || !(1..=RFP_DEPTH).contains(&f.depth)
            || beta.abs() >= MATE_BOUND
            || self.eval.has_four(me ^ 1)
            || (f.depth > RFP_THREE_DEPTH && self.eval.has_three(me ^ 1))
        {
            return None;
        }
        let score = self.kept_static_score(me);
        (score - RFP_MARGIN * (Score::from(f.depth) + 1) >= beta).then_some(score)
    }

    /// Host, every rule but renju: `true` when null-window node `f` (below
    /// the root, depth 2 or more, the opponent without a four) will most
    /// likely fail high: its static score is at least beta plus
    /// [`FH_MARGIN`] a ply of its depth, less [`FH_BIAS`], plus [`FH_THREE`]
    /// when the opponent has an open three. Its moves are then searched a ply
    /// shallower (Rapfi's fail-high reduction; session 54).
    #[inline(never)]
    fn likely_fail_high(&mut self, f: &Frame<W>) -> bool {
        let (alpha, beta) = (Score::from(f.alpha), Score::from(f.beta));
        let me = self.pos.player_to_move();
        if beta - alpha != 1
            || f.ply == 0
            || f.depth < 2
            || beta.abs() >= MATE_BOUND
            || self.pos.rule().has_forbidden()
            || self.eval.has_four(me ^ 1)
        {
            return false;
        }
        let margin = FH_MARGIN * Score::from(f.depth) - FH_BIAS
            + FH_THREE * Score::from(self.eval.has_open_three(me ^ 1));
        self.kept_static_score(me) >= beta + margin
    }

    /// The depth and window the move `f.next` of node `f` is searched with first.
    #[inline(never)]
    fn window(&self, f: &Frame<W>) -> (i8, Score, Score) {
        if f.next == 0 {
            return (f.depth, Score::from(f.alpha), Score::from(f.beta));
        }
        // Late moves from the third on are reduced by `reduction`, one ply
        // more at a null-window node (session 27; renju from session 43).
        // Urgent ones (threats; never at the root) as far as quiet ones,
        // except in renju, where they are reduced one ply less (session 47:
        // free +43 Elo as far, renju −32 over 110 games).
        let urgent = f.next < f.quiet;
        let reduce =
            self.settings.reductions && (!urgent || f.ply > 0) && f.next >= 2 && f.depth >= 2;
        let r = if reduce {
            let null_window = i32::from(f.beta) - i32::from(f.alpha) == 1;
            let less = urgent && self.pos.rule().has_forbidden();
            let r = reduction(f.depth, f.next) + i8::from(null_window) - i8::from(less)
                + self.useless_defence(f.ply);
            r.clamp(0, f.depth - 1)
        } else {
            0
        };
        (f.depth - r, Score::from(f.alpha), Score::from(f.alpha) + 1)
    }

    /// Host, renju: the further reduction of the move just played at node
    /// `ply` when it leaves the opponent's open three standing (Rapfi's
    /// useless defence: a four of the side to move's own in answer to the
    /// three, or a block of one of two): two plies when it is more than four
    /// points from the opponent's last move, one more when more than four
    /// from the side to move's last one. (At 200 ms a move against the search
    /// without it, session 50: renju +54 Elo (+24 … +85) over 400 paired
    /// games, free −19 over 200.)
    fn useless_defence(&self, ply: u8) -> i8 {
        let Some(h) = self.host.first() else {
            return 0;
        };
        if ply < 2
            || !self.pos.rule().has_forbidden()
            || !self.eval.has_open_three(self.pos.player_to_move())
        {
            return 0;
        }
        // From ply 2 on, the last three moves played are this search's.
        let back = |n: u8| h.played[usize::from(h.played_len.wrapping_sub(n))];
        let mv = back(1);
        2 * i8::from(distance(mv, back(2)) > 4) + i8::from(distance(mv, back(3)) > 4)
    }

    /// `true` when the move just searched at `depth` with [`Searcher::window`]'s
    /// window must be searched again with node `f`'s full depth and window.
    #[inline(never)]
    fn research(&self, f: &Frame<W>, depth: i8, score: Score) -> bool {
        !self.aborted
            && f.next > 0
            && score > Score::from(f.alpha)
            && (depth < f.depth || score < Score::from(f.beta))
    }

    /// `true` when node `f`'s remaining moves are left unsearched (move-count
    /// pruning, with the reductions): quiet moves from index `2 + depth` on near
    /// the leaves (host only: the board does not reduce).
    #[inline(never)]
    fn prune(&self, f: &Frame<W>) -> bool {
        self.settings.reductions
            && f.next >= f.quiet
            && f.depth < 4
            && Score::from(f.best) > -MATE_BOUND
            && i16::from(f.next) >= 2 + i16::from(f.depth.max(0))
    }

    /// Takes in the score of the move `mv` at node `f`; `true` on a cut-off.
    #[inline(never)]
    fn improve(&mut self, f: &mut Frame<W>, mv: Point, score: Score) -> bool {
        if score > Score::from(f.best) {
            f.best = score as i16;
            f.best_move = mv;
            if score > Score::from(f.alpha) {
                f.alpha = score as i16;
                f.raised = true;
                self.update_pv(f.ply, mv);
                let cut = Score::from(f.alpha) >= Score::from(f.beta);
                // A principal-variation node below the root whose alpha a move
                // raised searches its other moves a ply shallower (host only,
                // not in renju; Rapfi's and Stockfish's reduction after an
                // alpha improvement).
                if Self::HOST
                    && !cut
                    && f.ply > 0
                    && AIR_DEPTHS.contains(&f.depth)
                    && !self.pos.rule().has_forbidden()
                {
                    f.depth -= 1;
                }
                return cut;
            }
        }
        false
    }

    /// Stores node `f`'s result in the table.
    #[inline(never)]
    fn finish(&mut self, f: &Frame<W>) {
        if !Self::HOST {
            return;
        }
        let bound = if Score::from(f.best) >= Score::from(f.beta) {
            tt::LOWER
        } else if f.raised {
            tt::EXACT
        } else {
            tt::UPPER
        };
        // The children's depth + 1 is the node's (a forced block's node is
        // credited one ply more than it searched).
        self.store(f.ply, f.depth + 1, Score::from(f.best), bound, f.best_move);
    }

    /// Root search: one iteration with `first` searched first; the principal
    /// variation is left in row 0 of the PV table. `None` when stopped before the
    /// first move was searched; otherwise the best score and whether the
    /// iteration completed.
    #[inline(never)]
    fn root(&mut self, depth: u8, first: Point) -> Option<(Score, bool)> {
        let mut f = Frame {
            moves: self.root_moves,
            count: self.root_len.min(W as u8),
            next: 0,
            quiet: self.root_len,
            ply: 0,
            depth: depth as i8 - 1,
            alpha: -INFINITY as i16,
            beta: INFINITY as i16,
            best: -INFINITY as i16,
            raised: false,
            best_move: NO_POINT,
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
            let score = if Self::HOST {
                let (depth, alpha, beta) = self.window(&f);
                let mut score = -self.alphabeta(depth, 1, -beta, -alpha);
                if self.research(&f, depth, score) {
                    score =
                        -self.alphabeta(f.depth, 1, -Score::from(f.beta), -Score::from(f.alpha));
                }
                score
            } else {
                -self.alphabeta(f.depth, 1, -Score::from(f.beta), -Score::from(f.alpha))
            };
            let score = self.root_check(&f, score);
            // (The board's root frame stays as it was: no call at all.)
            let score = if Self::HOST {
                self.root_threat(&f, mv, score)
            } else {
                score
            };
            self.take_back(mv, undo);
            if self.aborted {
                return (f.next > 0).then_some((Score::from(f.alpha), false));
            }
            self.root_improve(&mut f, mv, score);
            f.next += 1;
        }
        Some((Score::from(f.alpha), true))
    }

    /// A root move about to become the best (its `score` beats node `f`'s
    /// alpha) is checked for a VCF of the opponent beyond the search's horizon
    /// (within [`Settings::root_vcf`] fours): found, the move is lost.
    #[inline(never)]
    fn root_check(&mut self, f: &Frame<W>, score: Score) -> Score {
        let fours = self.settings.root_vcf;
        if fours == 0
            || self.aborted
            || (score <= Score::from(f.alpha) && self.pv_len[0] != 0)
            || score.abs() >= MATE_BOUND
        {
            return score;
        }
        // At most four times the root's own VCF budget (a budget of its own:
        // running out of it only ends this check).
        let overall = self.work_limit;
        if self.settings.vcf_work != 0 {
            let end = self.work.saturating_add(self.settings.vcf_work * 4);
            self.work_limit = if overall == 0 { end } else { end.min(overall) };
        }
        let line = core::mem::take(&mut self.line);
        let won = self.vcf(fours);
        let len = self.line.len() as Score;
        self.line = line;
        self.work_limit = overall;
        let lost = won && !self.aborted;
        if self.aborted && !self.stopped && !self.out_of_limits() {
            self.aborted = false;
        }
        if lost { -(MATE - 1 - len) } else { score }
    }

    /// Host only: a root move `mv` (just played) about to become the best (its
    /// `score` beats node `f`'s alpha, or it is the iteration's first) is
    /// checked for a VCT of the opponent within `HostPart::root_vct` nodes:
    /// found, the move is lost. Each move is checked once a request (the
    /// answer does not depend on the iteration); a single root move (a forced
    /// block) is not checked.
    #[inline(never)]
    fn root_threat(&mut self, f: &Frame<W>, mv: Point, score: Score) -> Score {
        let budget = self.host.first().map_or(0, |h| u64::from(h.root_vct));
        if !Self::HOST
            || budget == 0
            || self.aborted
            || self.root_len <= 1
            || (score <= Score::from(f.alpha) && self.pv_len[0] != 0)
            || score.abs() >= MATE_BOUND
        {
            return score;
        }
        let seen = self
            .host
            .first()
            .map_or(SAFE, |h| h.root_threat[usize::from(mv) % POINTS]);
        if seen != UNCHECKED {
            return if seen == SAFE {
                score
            } else {
                -(MATE - 1 - Score::from(seen - SAFE))
            };
        }
        // A node budget of its own: running out of it only ends this check.
        let overall = self.settings.nodes;
        let end = self.nodes.saturating_add(budget);
        self.settings.nodes = if overall == 0 { end } else { end.min(overall) };
        let line = core::mem::take(&mut self.line);
        let won = self.vct(self.settings.vct_depth);
        let len = self.line.len().min(usize::from(u8::MAX - SAFE)) as u8;
        self.line = line;
        self.settings.nodes = overall;
        if self.aborted {
            if self.stopped || self.out_of_limits() {
                return score;
            }
            self.aborted = false;
        }
        let lost = won && len > 0;
        if let Some(host) = self.host.first_mut() {
            host.root_threat[usize::from(mv) % POINTS] = if lost { SAFE + len } else { SAFE };
        }
        if lost {
            -(MATE - 1 - Score::from(len))
        } else {
            score
        }
    }

    /// `true` when the search's own limits (nodes, work) are used up.
    fn out_of_limits(&self) -> bool {
        (self.settings.nodes != 0 && self.nodes >= self.settings.nodes)
            || (self.work_limit != 0 && self.work >= self.work_limit)
    }

    /// Takes in the score of the root move `mv` (the first move always counts).
    #[inline(never)]
    fn root_improve(&mut self, f: &mut Frame<W>, mv: Point, score: Score) {
        if score > Score::from(f.alpha) || self.pv_len[0] == 0 {
            f.alpha = score as i16;
            self.update_pv(0, mv);
        }
    }

    /// The root's scan: its candidates go to [`Searcher::root_moves`].
    #[inline(never)]
    fn root_scan(&mut self) -> Scan {
        let mut moves = [NO_POINT; W];
        let mut scan = self.scan(usize::from(self.settings.root_width), &mut moves);
        if !self.exclude.is_empty() {
            self.drop_excluded(&mut scan, &mut moves);
        }
        if Self::HOST && self.pos.stones() == 1 {
            Self::keep_neighbours(&self.pos, &mut scan, &mut moves);
        }
        self.root_moves = moves;
        self.root_len = scan.len;
        scan
    }

    /// The host's answer to a lone first stone is one of its eight neighbours
    /// (as in every opening of the game's theory, the RIF's 26 renju openings
    /// among them): the candidates `moves[..scan.len]` are cut down to those,
    /// in their order, unless none is left. (The evaluation was fitted on
    /// positions of four stones or more; on one stone a 200,000-node search
    /// preferred a point two away, h6 or f6 for h8.)
    fn keep_neighbours(pos: &Gomoku, scan: &mut Scan, moves: &mut [Point; W]) {
        let Some(stone) = pos.last_move() else {
            return;
        };
        let near = |p: Point| distance(p, stone) <= 1;
        let len = usize::from(scan.len);
        if !moves[..len].iter().any(|&p| near(p)) {
            return;
        }
        let mut kept = 0;
        for i in 0..len {
            if near(moves[i]) {
                moves[kept] = moves[i];
                kept += 1;
            }
        }
        scan.len = kept as u8;
        scan.quiet = scan.quiet.min(scan.len);
    }

    /// Whether `p` is a root move the request excluded.
    fn excluded(&self, p: Point) -> bool {
        !self.exclude.is_empty() && listed_points(self.exclude).any(|q| q == p)
    }

    /// Takes the excluded points out of the root's `scan` and candidates
    /// `moves`: another winning point stands in for an excluded one, and when
    /// every candidate is excluded the other near points are the candidates
    /// (unranked: facing a threat, they are all that is left).
    #[inline(never)]
    fn drop_excluded(&mut self, scan: &mut Scan, moves: &mut [Point; W]) {
        let (mut kept, mut quiet) = (0, 0);
        for i in 0..usize::from(scan.len) {
            if !self.excluded(moves[i]) {
                moves[kept] = moves[i];
                kept += 1;
                if i < usize::from(scan.quiet) {
                    quiet = kept;
                }
            }
        }
        let all_gone = scan.len > 0 && kept == 0;
        let me = usize::from(self.pos.player_to_move());
        let win_excluded = self.excluded(scan.win);
        let mut win = NO_POINT;
        for r in 0..15u8 {
            let mut near = near_row(&self.pos, r as i8);
            while near != 0 {
                let p = r * 15 + near.trailing_zeros() as u8;
                near &= near - 1;
                if self.excluded(p) || !self.pos.is_legal(p) {
                    continue;
                }
                if win_excluded && win == NO_POINT {
                    let mut pp = self.read_point(p);
                    pp.resolve(self.pos.board_mut(), p);
                    if pp.threat[me].class == super::lines::FIVE {
                        win = p;
                    }
                }
                if all_gone && kept < W {
                    // Every candidate excluded: the near points instead.
                    moves[kept] = p;
                    kept += 1;
                }
            }
        }
        if win_excluded {
            scan.win = win;
        }
        if self.excluded(scan.open_four) {
            scan.open_four = NO_POINT;
        }
        moves[kept..].fill(NO_POINT);
        scan.len = kept as u8;
        scan.quiet = if all_gone { 0 } else { quiet as u8 };
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
            // Threat-space search first: a VCF (then a VCT) wins outright.
            if self.vcf_first() || self.vct_first() {
                return;
            }
        } else {
            self.root_moves = [forced; W];
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
            // The centre, or the nearest point to it not excluded.
            let centre = |p: &Point| {
                let r = i16::from(p / 15) - i16::from(CENTER_POINT / 15);
                let c = i16::from(p % 15) - i16::from(CENTER_POINT % 15);
                r * r + c * c
            };
            self.found.best = (0..POINTS as u8)
                .filter(|&p| !self.excluded(p))
                .min_by_key(centre);
            let first = self.found.best?;
            self.found.depth = 1;
            self.found.nodes = 1;
            let _ = self.line.push(first);
            self.report();
            return None;
        }
        self.visit();
        let scan = self.root_scan();
        let me = self.pos.player_to_move();
        self.found.best = Some(self.root_moves[0]).filter(|&m| m != NO_POINT);
        if self.found.best.is_none() {
            // Every point near the stones is forbidden for black (or excluded):
            // any legal point.
            self.found.best =
                (0..POINTS as u8).find(|&p| self.pos.is_legal(p) && !self.excluded(p));
            // Every legal point excluded: no move.
            self.found.best?;
        }
        // Immediate win, or a single forced block.
        let forced = if scan.win != NO_POINT {
            Some((scan.win, MATE - 1))
        } else if scan.threats >= 2 {
            // Lost: one of the five points blocked, if black may play there
            // (renju) and it is not excluded; otherwise the first candidate
            // (never a forbidden or excluded point).
            if (me == BLACK && self.pos.is_forbidden(scan.threat)) || self.excluded(scan.threat) {
                self.found.best.map(|b| (b, -(MATE - 2)))
            } else {
                Some((scan.threat, -(MATE - 2)))
            }
        } else if scan.threats == 1 {
            let lost =
                (me == BLACK && self.pos.is_forbidden(scan.threat)) || self.excluded(scan.threat);
            if lost {
                self.found.best.map(|b| (b, -(MATE - 2)))
            } else {
                Some((scan.threat, 0))
            }
        } else if scan.open_four != NO_POINT {
            Some((scan.open_four, MATE - 3))
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
        self.set_soft_deadline(u64::from(self.settings.ticks / 6));
        let won = self.vcf(self.settings.vcf_depth);
        self.set_soft_deadline(0);
        self.work_limit = overall;
        self.threat_answer(won)
    }

    /// After the root's VCF or VCT search (`won`: it found a win, its line in
    /// `self.line`): `true` when the answer is known (the win's first move,
    /// unless excluded, reported as the answer; or a budget used up).
    fn threat_answer(&mut self, won: bool) -> bool {
        if won
            && let Some(&first) = self.line.first()
            && !self.excluded(first)
        {
            self.found.best = Some(first);
            self.found.score = MATE - self.line.len() as Score;
            self.found.depth = self.line.len() as u8;
            self.found.nodes = self.nodes;
            self.report();
            return true;
        }
        self.line.clear();
        self.out_of_budget()
    }

    /// `true` when the search must end now (stopped, or a budget is used up);
    /// otherwise clears the abort of a sub-search's own budget.
    fn out_of_budget(&mut self) -> bool {
        if self.stopped
            || (self.settings.nodes != 0 && self.nodes >= self.settings.nodes)
            || (self.work_limit != 0 && self.work >= self.work_limit)
        {
            self.found.nodes = self.nodes;
            return true;
        }
        self.aborted = false;
        false
    }

    /// The VCT search at the root (see [`super::vct`]), within
    /// [`Settings::vct_nodes`]: `true` when the answer is known.
    #[inline(never)]
    fn vct_first(&mut self) -> bool {
        if self.settings.vct_depth == 0 {
            return false;
        }
        let overall = self.settings.nodes;
        // At most a fifth of the node budget.
        let budget = if overall == 0 {
            u64::from(self.settings.vct_nodes)
        } else {
            u64::from(self.settings.vct_nodes).min(overall / 5)
        };
        let end = self.nodes.saturating_add(budget);
        self.settings.nodes = if overall == 0 { end } else { end.min(overall) };
        // At most a sixth of the time.
        self.set_soft_deadline(u64::from(self.settings.ticks / 6));
        let won = self.vct(self.settings.vct_depth);
        self.settings.nodes = overall;
        self.set_soft_deadline(0);
        self.threat_answer(won)
    }

    /// Iterative deepening over [`Searcher::root_moves`] until a limit ends it,
    /// reporting each completed iteration (and an unfinished one whose first
    /// move is done).
    #[inline(never)]
    fn deepen(&mut self) {
        let last = self.settings.depth.max(1);
        let mut depth = 0;
        while depth < last {
            depth += 1;
            let first = self.found.best.unwrap_or(NO_POINT);
            let Some((mut score, mut complete)) = self.root(depth, first) else {
                break;
            };
            if Self::HOST && complete && score <= -MATE_BOUND && self.widen_root() {
                // Every candidate loses: the iteration again over all of them.
                let Some(again) = self.root(depth, first) else {
                    break;
                };
                (score, complete) = again;
            }
            if self.completed(depth, score, complete) || !complete {
                break;
            }
        }
        self.found.nodes = self.nodes;
    }

    /// Takes in and reports an iteration; `true` when deepening is over.
    #[inline(never)]
    fn completed(&mut self, depth: u8, score: Score, complete: bool) -> bool {
        let len = usize::from(self.pv_len[0]);
        if len > 0 {
            self.found.best = Some(self.pv[0]);
        }
        self.found.score = score;
        self.found.depth = if complete { depth } else { depth - 1 };
        self.found.nodes = self.nodes;
        self.line.clear();
        let _ = self.line.extend_from_slice(&self.pv[..len.min(PV_LEN)]);
        if complete {
            self.report();
        }
        score.abs() >= MATE_BOUND || self.root_len <= 1
    }
}

/// The points of an `exclude=` list (already checked by [`parse_into`]).
fn listed_points(list: &str) -> impl Iterator<Item = Point> + '_ {
    list.split(',').filter_map(|m| parse_point(m).ok())
}

/// Divisor of [`reduction`]'s product of two `ln × 16` (256 = `× 1`; session
/// 27, in renju from session 43: see [`reduction`]).
const LMR_DIVISOR: u32 = 240;

/// Deepest node of the host's reverse futility pruning
/// ([`Searcher::reverse_futility`]). At 100,000 nodes a move, depth 8.75 →
/// 9.21 on 76 free middle games, 8.06 → 8.46 on 78 renju ones; at 200 ms a
/// move against the search without it, free +35 Elo and renju +42 (600 paired
/// games each; docs/strength.md, session 42).
const RFP_DEPTH: i8 = 4;
/// Deepest node where reverse futility pruning applies although the opponent
/// has a three (of any kind): deeper, the static score misses the three's
/// tactics more often (2.5–3.4 % of the pruned nodes at depth 3–4 did not fail
/// high, against 0.3–0.5 % without a three).
const RFP_THREE_DEPTH: i8 = 2;
/// The reverse futility margin a ply (of the node's depth, plus one): beta
/// plus 128 at depth 1, 320 at depth 4 (at the free middle games' null-window
/// nodes of depth 1 to 4, the opponent without a four, a static score this far
/// above beta failed high in 99.3 % to 97.8 % of them).
const RFP_MARGIN: Score = 64;

/// [`Searcher::likely_fail_high`]'s margin a ply (Rapfi's `failHighMargin`:
/// `15·depth − 9`, `+ 87` when the opponent has a four or an open three). At
/// 200 ms a move against the search without it (session 54): free +42 Elo
/// (+20 … +64) over 600 paired games, renju −9 over 200 (not there); depth at
/// 100,000 nodes 10.18 → 10.82 free.
const FH_MARGIN: Score = 15;
/// [`Searcher::likely_fail_high`]'s bias.
const FH_BIAS: Score = 9;
/// [`Searcher::likely_fail_high`]'s margin more when the opponent has an open three.
const FH_THREE: Score = 87;

/// Children's depths at which a host node below the root whose alpha a move
/// raised (a principal-variation node: the move did not cut) searches its
/// other moves a ply shallower ([`Searcher::improve`]; nodes of depth 3 to 11,
/// as Rapfi's and Stockfish's "depth > 2 && depth < 12"; every rule but
/// renju). At 200 ms a move against the search without it (session 49, 400
/// paired games a rule): free +41 Elo (+16 … +66), renju −30 (not there).
const AIR_DEPTHS: core::ops::RangeInclusive<i8> = 2..=10;

/// A host node at least this deep below the root with no move from the table
/// is searched one ply shallower (internal iterative reduction; every rule,
/// renju from session 43).
const IIR_DEPTH: i8 = 4;

/// `ln(i)` × 16 for `i` < 32 (0 for 0 and 1).
const LN16: [u8; 32] = [
    0, 0, 11, 18, 22, 26, 29, 31, 33, 35, 37, 38, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 49, 50,
    51, 52, 52, 53, 53, 54, 54, 55,
];

/// Plies a late quiet move at index `index` is reduced by at `depth` (its
/// children's depth): `ln(depth) × ln(index) × 256 / LMR_DIVISOR`, rounded
/// (`/ 1.25` measured against `/ 2`: fixed 60,000 nodes a move against the
/// old level 2, renju 92 % against 86 % of the same 100 games, free 87 %
/// against 85 %; `/ 0.94` with session 27's other reductions, see
/// `Searcher::window`: at 200 ms a move free +100 ± 41 and +33 ± 48 in
/// session 27; renju, with reverse futility pruning, depth 8.46 → 9.87 at
/// 100,000 nodes and +31 (+5 … +58) Elo over 600 paired games in session 43).
fn reduction(depth: i8, index: u8) -> i8 {
    let d = u32::from(LN16[usize::from(depth.max(0) as u8).min(31)]);
    let i = u32::from(LN16[usize::from(index).min(31)]);
    ((d * i + LMR_DIVISOR / 2) / LMR_DIVISOR) as i8
}

/// Candidates a host node below the root searches at `depth` (the node's
/// own depth, its children's plus one): `base` ([`Settings::width`]), and
/// [`WIDE_STEP`] more for each ply beyond [`WIDE_FROM`], up to
/// [`WIDE_PLIES`] plies. Session 68, at 200 ms a move against ten
/// everywhere, 400 paired games a rule: free +57 Elo (+30 … +84), renju
/// +104 (+70 … +139); one more a ply instead: free +57, renju +42 over
/// 800. The extra candidates are late moves, reduced as any: the depth at
/// 100,000 nodes went from 10.45 to 10.42 on the free middle games, from
/// 10.00 to 9.77 on the renju ones.
fn host_width(base: u8, depth: i8) -> u8 {
    base.saturating_add(WIDE_STEP * (depth - WIDE_FROM).clamp(0, WIDE_PLIES) as u8)
}

/// Depth beyond which a host node searches more than [`Settings::width`]
/// candidates ([`host_width`]).
const WIDE_FROM: i8 = 6;
/// Candidates [`host_width`] adds a ply of depth beyond [`WIDE_FROM`].
const WIDE_STEP: u8 = 2;
/// Plies beyond [`WIDE_FROM`] that add candidates (at most
/// `WIDE_STEP × WIDE_PLIES` more).
const WIDE_PLIES: i8 = 6;

/// A score as the table keeps it: mate scores counted from the node, not the root.
fn to_table(score: Score, ply: u8) -> Score {
    if score >= MATE_BOUND {
        score + Score::from(ply)
    } else if score <= -MATE_BOUND {
        score - Score::from(ply)
    } else {
        score
    }
}

/// A score from the table, as seen from the root at `ply`.
fn from_table(score: Score, ply: u8) -> Score {
    if score >= MATE_BOUND {
        score - Score::from(ply)
    } else if score <= -MATE_BOUND {
        score + Score::from(ply)
    } else {
        score
    }
}

/// Searches `request`'s position with the strong engine in `work`'s profile
/// (see [`Settings`]: level 0 on the board [`Settings::DEFAULT`], level 2 on the
/// board [`Settings::STRONG`], the host [`Settings::HOST`]), tightened by the
/// request's node, depth and time limits, and gives the answer through `poll`,
/// each completed iteration streamed as `info` first. Fails only when the
/// position is not valid.
pub fn answer(
    request: &EngineRequest<'_>,
    poll: &mut dyn Poll,
    work: &mut Workspace<'_>,
) -> Result<(), ParseError> {
    #[cfg(not(target_os = "none"))]
    if work.profile() == Profile::Host {
        return answer_host(request, poll, work);
    }
    let _ = (Profile::Board, &work);
    answer_board(request, poll)
}

/// [`answer`] in the board profile. The searcher lives in this frame, the bottom
/// of every search's stack: the position is parsed into it in place, and the
/// search itself runs in frames of its own.
#[inline(never)]
fn answer_board(request: &EngineRequest<'_>, poll: &mut dyn Poll) -> Result<(), ParseError> {
    let mut s = BoardSearcher::blank(poll);
    parse_into(&mut s, request, Profile::Board)?;
    s.search();
    send_answer(s.poll, &|reply| fill(&s.pos, &s.found, &s.line, reply));
    Ok(())
}

/// [`answer`] in the host profile: the transposition table in the arena.
#[cfg(not(target_os = "none"))]
#[inline(never)]
fn answer_host(
    request: &EngineRequest<'_>,
    poll: &mut dyn Poll,
    work: &mut Workspace<'_>,
) -> Result<(), ParseError> {
    let words = (work.arena_bytes() / 8).min(HOST_TABLE_WORDS + HOST_SCORE_WORDS);
    let arena = work.take(words);
    let mut s = HostSearcher::blank(poll);
    parse_into(&mut s, request, Profile::Host)?;
    s.attach_table(arena, Context::new(s.pos.rule(), request.level));
    s.search();
    send_answer(s.poll, &|reply| fill(&s.pos, &s.found, &s.line, reply));
    Ok(())
}

/// Sets the searcher up for `request`: parses its position, counts its
/// patterns, picks the level's settings and tightens them by the request's
/// limits (out of line: the temporaries stay off the search's stack).
#[inline(never)]
fn parse_into<'p, const P: usize, const T: usize, const W: usize, const R: usize>(
    s: &mut Searcher<'p, P, T, W, R>,
    request: &EngineRequest<'p>,
    profile: Profile,
) -> Result<(), ParseError> {
    s.pos = Gomoku::parse_position(request.position)?;
    super::engine::excluded_points(request)?;
    s.exclude = match request.roots {
        RootMoves::Except(list) => list,
        _ => "",
    };
    s.eval = Eval::from_board(s.pos.board(), s.pos.rule());
    s.reset_host();
    let limits = request.limits;
    let mut settings = match (profile, request.level) {
        (Profile::Host, 2) => Settings::HOST_B,
        (Profile::Host, _) => Settings::HOST,
        (Profile::Board, 0) => Settings::DEFAULT,
        (Profile::Board, _) => Settings::STRONG,
    };
    if limits.nodes != 0 {
        settings.nodes = if settings.nodes == 0 {
            limits.nodes
        } else {
            settings.nodes.min(limits.nodes)
        };
    }
    if limits.depth != 0 {
        settings.depth = settings.depth.min(limits.depth);
    }
    let max_vcf = match profile {
        Profile::Board => MAX_VCF_DEPTH,
        Profile::Host => HOST_VCF_DEPTH,
    };
    settings.vcf_depth = settings.vcf_depth.min(max_vcf);
    // The host's root checks for the opponent's threats beyond the horizon
    // (session 46, equal time): the VCF check in renju only (free −5 Elo over
    // 600 games, renju +20 (+0 … +40) over 1,000), the VCT check in renju and
    // at level 2, the A/B variant (renju +44 (+23 … +65) over 800 games, free
    // −33 over 398). `R > 0`: not in the board's code.
    let renju = s.pos.rule().has_forbidden();
    if R > 0 && !renju {
        settings.root_vcf = 0;
    }
    if profile == Profile::Host {
        settings.ticks = u32::try_from(limits.ticks).unwrap_or(u32::MAX);
        if limits.ticks == 0 && limits.nodes == 0 && limits.depth == 0 {
            settings.nodes = HOST_DEFAULT_NODES;
        }
    }
    s.settings = settings;
    s.work_limit = settings.work;
    if let Some(host) = s.host.first_mut() {
        host.root_vct = if request.level == 2 || renju {
            ROOT_VCT_NODES
        } else {
            0
        };
        host.class_order = CLASS_ORDER && request.level != 2;
        host.reuse = if limits.ticks != 0 {
            Reuse::Kept
        } else {
            Reuse::Fresh
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::einstein::SplitMix64;
    use crate::games::gomoku::lines::Table;
    use crate::games::gomoku::tests_support::NoPoll;

    /// The ordering bonus by fine class: the opponent's double-two point
    /// (black's g9 with h8 and h10 on the board, white to move) ranks higher
    /// with it; nothing changes without it or on the board's searcher.
    #[test]
    fn class_bonus_raises_the_opponents_double_two_point() {
        use crate::game::Notation;
        let pos = Gomoku::parse_position("free h8a1h10").unwrap();
        let g9 = parse_point("g9").unwrap();
        let mut poll = NoPoll;
        let mut s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
        let plain = s.read_point(g9);
        s.host[0].class_order = false;
        assert_eq!(s.class_bonus(g9, plain), plain);
        s.host[0].class_order = true;
        let black = usize::from(BLACK);
        let raised = s.class_bonus(g9, plain);
        assert_eq!(
            s.host[0].points[usize::from(g9)].classes[black],
            point_class::J_FLEX2_2X
        );
        assert_eq!(
            raised.threat[black].value,
            plain.threat[black].value + CLASS_ORDER_THEIRS[usize::from(point_class::J_FLEX2_2X)]
        );
        assert_eq!(raised.threat[black ^ 1], plain.threat[black ^ 1]);
        let mut poll = NoPoll;
        let mut b = BoardSearcher::new(&pos, Settings::DEFAULT, &mut poll);
        let p = b.read_point(g9);
        assert_eq!(b.class_bonus(g9, p), p);
    }

    /// Reverse futility pruning: in every rule a null-window node whose static
    /// score is far enough above beta fails high with it unsearched; never at
    /// a full window, at depth 0 or beyond [`RFP_DEPTH`], beyond
    /// [`RFP_THREE_DEPTH`] when the opponent has a three, or when the opponent
    /// has a four.
    #[test]
    fn reverse_futility_fails_high_only_where_it_applies() {
        use crate::game::Notation;
        // White to move; in the last two black has an open three h8-h10.
        for (text, deepest) in [
            ("free h8i9h9", RFP_DEPTH),
            ("standard h8i9h9", RFP_DEPTH),
            ("caro h8i9h9", RFP_DEPTH),
            ("renju h8i9h9", RFP_DEPTH),
            ("free h8i9h9a1h10", RFP_THREE_DEPTH),
            ("renju h8i9h9a1h10", RFP_THREE_DEPTH),
        ] {
            let pos = Gomoku::parse_position(text).unwrap();
            let mut poll = NoPoll;
            let mut s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
            let score = s.static_score(s.pos.player_to_move());
            for depth in 0..=RFP_DEPTH + 1 {
                let margin = RFP_MARGIN * (Score::from(depth) + 1);
                let (low, high) = (score - margin, score - margin + 1);
                let pruned = (1..=deepest).contains(&depth);
                let frame = |alpha, beta| Frame::<HOST_WIDEST>::new(1, depth, alpha, beta);
                let at = s.reverse_futility(&frame(low - 1, low));
                assert_eq!(at, pruned.then_some(score), "{text} depth {depth}");
                let above = s.reverse_futility(&frame(high - 1, high));
                assert_eq!(above, None, "{text} depth {depth}");
                let wide = s.reverse_futility(&frame(low - 2, low));
                assert_eq!(wide, None, "{text} depth {depth}");
            }
        }
        // Black's four h5-h8 (white to move): no pruning, whatever the score.
        let pos = Gomoku::parse_position("free h8i9h7i10h6i11h5").unwrap();
        let mut poll = NoPoll;
        let mut s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
        let beta = -MATE_BOUND + 2;
        assert!(s.static_score(s.pos.player_to_move()) - RFP_MARGIN * 2 >= beta);
        let f = Frame::<HOST_WIDEST>::new(1, 1, beta - 1, beta);
        assert_eq!(s.reverse_futility(&f), None);
    }

    /// Black h8 and h9, white i9 (white to move), in every rule.
    const H8_I9_H9: [&str; 4] = [
        "free h8i9h9",
        "standard h8i9h9",
        "caro h8i9h9",
        "renju h8i9h9",
    ];

    /// Late-move reductions in every rule (renju too, from session 43): at
    /// depth 4 the fifth candidate, quiet, is searched `ln 4 × ln 4 / 0.94`
    /// = 2 plies shallower at a full window and one more at a null window; an
    /// urgent one as far below the root (one ply less in renju, session 47)
    /// and not at all at the root; the first two candidates never.
    #[test]
    fn late_moves_are_reduced_in_every_rule() {
        use crate::game::Notation;
        for text in H8_I9_H9 {
            let pos = Gomoku::parse_position(text).unwrap();
            let mut poll = NoPoll;
            let s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
            // A late urgent move's ply less than a quiet one's (renju).
            let less = i8::from(pos.rule().has_forbidden());
            // (ply, next, quiet, beta) → the child's depth; alpha 0.
            for (ply, next, quiet, beta, depth) in [
                (1, 4, 2, 100, 2),
                (1, 4, 2, 1, 1),
                (1, 4, 5, 100, 2 + less),
                (1, 4, 5, 1, 1 + less),
                (0, 4, 5, 100, 4),
                (1, 1, 0, 1, 4),
            ] {
                let mut f = Frame::<HOST_WIDEST>::new(ply, 4, 0, beta);
                (f.next, f.quiet) = (next, quiet);
                assert_eq!(
                    s.window(&f),
                    (depth, 0, 1),
                    "{text} {ply} {next} {quiet} {beta}"
                );
            }
        }
    }

    /// Renju's useless defences (session 50): with black's open three
    /// h7–h9 standing, white's move two plies below the root is reduced two
    /// plies more when it is more than four points from black's last move and
    /// one more when more than four from white's own last one; a block is not,
    /// nor is any move in the other rules.
    #[test]
    fn renju_useless_defences_are_reduced_more() {
        use crate::game::Notation;
        for rule in ["free", "standard", "caro", "renju"] {
            let pos = Gomoku::parse_position(&format!("{rule} h7a1h8b2h9")).unwrap();
            let renju = pos.rule().has_forbidden();
            // White's move → the further plies (renju).
            for (mv, more) in [("a15", 3), ("j12", 1), ("n2", 2), ("h10", 0)] {
                let mut poll = NoPoll;
                let mut s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
                for m in ["o1", "h12", mv] {
                    s.play(parse_point(m).unwrap());
                }
                let more = if renju { more } else { 0 };
                // Depth 8, the fifth candidate, quiet: 3 plies at a full window,
                // 4 at a null window (see `late_moves_are_reduced_in_every_rule`).
                for (beta, plies) in [(100, 3), (1, 4)] {
                    let mut f = Frame::<HOST_WIDEST>::new(2, 8, 0, beta);
                    (f.next, f.quiet) = (4, 0);
                    let depth = 8 - (plies + more).min(7);
                    assert_eq!(s.window(&f), (depth, 0, 1), "{rule} {mv} {beta}");
                }
            }
        }
    }

    #[test]
    fn keys_map_into_their_tables() {
        // An empty table has no slot: 0, which its `get` refuses.
        assert_eq!(slot_of(0x9E37_79B9_7F4A_7C15, 0), 0);
        assert_eq!(slot_of(10, 7), 3);
        for len in [1usize, 7, 1000, HOST_TABLE_WORDS] {
            for key in [0u64, 1, 0x9E37_79B9_7F4A_7C15, u64::MAX] {
                assert!(slot_of(key, len) < len, "{key} in {len}");
                assert_eq!(slot_of(key, len) as u64, key % len as u64);
            }
        }
    }

    #[test]
    fn nodes_far_above_beta_are_searched_a_ply_shallower() {
        use crate::game::Notation;
        // Black to move with a two (white's stones far off), then white to
        // move against black's open three (its margin 87 more).
        for (text, three) in [("h8a1i8b2", 0), ("h7a1h8a3h9", FH_THREE)] {
            for rule in ["free", "standard", "caro", "renju"] {
                let pos = Gomoku::parse_position(&format!("{rule} {text}")).unwrap();
                let mut poll = NoPoll;
                let mut s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
                let me = s.pos.player_to_move();
                let score = s.static_score(me);
                let renju = s.pos.rule().has_forbidden();
                for depth in [2i8, 5, 9] {
                    let beta = score - (FH_MARGIN * Score::from(depth) - FH_BIAS + three);
                    let null = |ply, beta| Frame::<HOST_WIDEST>::new(ply, depth, beta - 1, beta);
                    assert_eq!(s.likely_fail_high(&null(2, beta)), !renju, "{rule} {text}");
                    assert!(!s.likely_fail_high(&null(2, beta + 1)), "{rule} {text}");
                    // Never at the root nor at a full window.
                    assert!(!s.likely_fail_high(&null(0, beta)));
                    let full = Frame::<HOST_WIDEST>::new(2, depth, beta - 10, beta);
                    assert!(!s.likely_fail_high(&full));
                }
                // Nor at depth 1, whose children are leaves either way.
                assert!(!s.likely_fail_high(&Frame::new(2, 1, score - 1001, score - 1000)));
            }
        }
    }

    #[test]
    fn stone_patterns_come_back_beyond_the_undo_log() {
        // 200 moves: those past the log's 128 are taken back by reading the
        // lines again, the others from the log; either way the counts and
        // the stones' patterns are the ones read from scratch.
        for rule in [Rule::Free, Rule::Renju] {
            let mut poll = NoPoll;
            let mut s = HostSearcher::new(&Gomoku::new(rule), Settings::HOST, &mut poll);
            let mut played = std::vec::Vec::new();
            let mut rng = SplitMix64::new(0x9E37_79B9_7F4A_7C15);
            while played.len() < 200 {
                let p = rng.below(POINTS as u32) as Point;
                if s.pos.board().is_empty(p) {
                    played.push((p, s.play(p)));
                }
            }
            while let Some((mv, undo)) = played.pop() {
                s.take_back(mv, undo);
                if played.len() % 25 == 0 {
                    let board = s.pos.board();
                    assert_eq!(s.host[0].hist, Histogram::from_board(board, rule));
                    assert_eq!(s.eval, Eval::from_board(board, rule));
                    for p in 0..POINTS as u8 {
                        if let Some(side) = board.get(p) {
                            let lines = board.lines(p);
                            let table = Table::for_side(rule, side);
                            let fresh: [Pattern; 4] =
                                core::array::from_fn(|d| table.pattern(&lines[d], side));
                            assert_eq!(s.host[0].stones[usize::from(p)], fresh, "stone {p}");
                        }
                    }
                }
            }
            assert_eq!(s.host[0].undo.changed, 0);
        }
    }

    #[test]
    fn blocks_of_a_four_are_read_on_the_last_moves_lines() {
        // Dense random games (near points only) in every rule: wherever the
        // opponent has a four and the side to move none, the five points
        // read on the last move's lines are the ones the full scan finds.
        let mut checked = 0;
        let mut rng = SplitMix64::new(0x2545_F491_4F6C_DD1D);
        for game in 0..160 {
            let rule = [Rule::Free, Rule::Standard, Rule::Renju, Rule::Caro][game % 4];
            let mut poll = NoPoll;
            let mut s = HostSearcher::new(&Gomoku::new(rule), Settings::HOST, &mut poll);
            s.play(CENTER_POINT);
            // As in a search: a four is blocked at once (or the game ends).
            while s.pos.outcome().is_none() && s.pos.stones() < 120 {
                let me = s.pos.player_to_move();
                if s.eval.has_four(me) {
                    break;
                }
                if s.eval.has_four(me ^ 1) {
                    let mut moves = [NO_POINT; HOST_WIDEST];
                    let scan = s.scan(HOST_WIDEST, &mut moves);
                    let blocks = s.blocks_of_four();
                    assert_eq!(
                        blocks.map(|b| b.0),
                        Some(scan.threats),
                        "{rule:?} game {game}"
                    );
                    checked += 1;
                    if scan.threats != 1 || !s.pos.is_legal(scan.threat) {
                        break;
                    }
                    assert_eq!(blocks.map(|b| b.1), Some(scan.threat));
                    s.play(scan.threat);
                    continue;
                }
                let mut near = std::vec::Vec::new();
                for_each_near(&s.pos, |p| near.push(p));
                near.retain(|&p| s.pos.is_legal(p));
                if near.is_empty() {
                    break;
                }
                s.play(near[rng.below(near.len() as u32) as usize]);
            }
        }
        assert!(checked > 200, "{checked} positions checked");
    }

    /// Where the point `at` ranks among `searcher`'s candidates (every near
    /// point scanned) and the index of the first quiet one.
    fn rank_in<const P: usize, const T: usize, const W: usize, const R: usize>(
        searcher: &mut Searcher<'_, P, T, W, R>,
        at: &str,
    ) -> (usize, u8) {
        let p = parse_point(at).unwrap();
        let mut moves = [NO_POINT; W];
        let scan = searcher.scan(W, &mut moves);
        (moves.iter().position(|&m| m == p).unwrap(), scan.quiet)
    }

    /// [`rank_in`] for the host profile's searcher of the position `text`.
    fn host_rank(text: &str, at: &str) -> (usize, u8) {
        use crate::game::Notation;
        let pos = Gomoku::parse_position(text).unwrap();
        let mut poll = NoPoll;
        rank_in(&mut HostSearcher::new(&pos, Settings::HOST, &mut poll), at)
    }

    /// The opponent's plain four point (a block of its closed three) is
    /// urgent on the board (ranked before the quiet candidates, never reduced
    /// nor pruned) and a quiet candidate on the host, in every rule; the
    /// opponent's four-three point is urgent on both.
    #[test]
    fn the_opponents_plain_four_point_is_urgent_on_the_board_only() {
        use crate::game::Notation;
        // White to move; black's three h8-h10 is closed by white's h7: black
        // makes a four at h11 or h12.
        for rule in ["free", "standard", "renju", "caro"] {
            let text = format!("{rule} h8h7h9a1h10");
            let (at, quiet) = host_rank(&text, "h11");
            assert_eq!(quiet, 0, "{rule}: host, h11 at {at}");
            let pos = Gomoku::parse_position(&text).unwrap();
            let mut poll = NoPoll;
            let mut board = BoardSearcher::new(&pos, Settings::DEFAULT, &mut poll);
            let (at, quiet) = rank_in(&mut board, "h11");
            assert!(at < usize::from(quiet), "{rule}: board, h11 at {at}");
        }
        // With black's g10 and i12 too, h11 is black's four-three point
        // (the four h8-h11 and the open three g10-h11-i12): urgent on the
        // host too.
        let (at, quiet) = host_rank("free h8h7h9a1h10o1g10a15i12", "h11");
        assert!(at < usize::from(quiet), "host, h11 at {at}");
    }

    /// Internal iterative reduction alike in every rule (renju too, from
    /// session 43): a node below the root from [`IIR_DEPTH`] on without a move
    /// from the table searches its moves one ply shallower; with one, or at
    /// the root, or shallower, it does not.
    #[test]
    fn a_node_without_a_table_move_is_reduced_in_every_rule() {
        use crate::game::Notation;
        for text in H8_I9_H9 {
            let pos = Gomoku::parse_position(text).unwrap();
            let g10 = parse_point("g10").unwrap();
            // (ply, depth, table move) → the children's depth.
            for (ply, depth, table, children) in [
                (1, IIR_DEPTH, NO_POINT, IIR_DEPTH - 2),
                (1, IIR_DEPTH + 2, NO_POINT, IIR_DEPTH),
                (1, IIR_DEPTH, g10, IIR_DEPTH - 1),
                (1, IIR_DEPTH - 1, NO_POINT, IIR_DEPTH - 2),
                (0, IIR_DEPTH, NO_POINT, IIR_DEPTH - 1),
            ] {
                let mut poll = NoPoll;
                let mut s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
                let mut f = Frame::<HOST_WIDEST>::new(ply, depth, -INFINITY, INFINITY);
                f.best_move = table;
                assert_eq!(s.expand(&mut f), None, "{text}");
                assert_eq!(f.depth, children, "{text} {ply} {depth} {table}");
            }
        }
    }

    /// A host node below the root keeps [`Settings::width`] candidates up
    /// to depth [`WIDE_FROM`] and [`WIDE_STEP`] more a ply beyond it, for
    /// at most [`WIDE_PLIES`] plies (session 68).
    #[test]
    fn deep_host_nodes_search_more_candidates() {
        use crate::game::Notation;
        let base = Settings::HOST.width;
        for text in H8_I9_H9 {
            let pos = Gomoku::parse_position(text).unwrap();
            // (ply, depth) → candidates kept.
            for (ply, depth, count) in [
                (1, 2, base),
                (1, WIDE_FROM, base),
                (1, WIDE_FROM + 1, base + WIDE_STEP),
                (3, WIDE_FROM + 4, base + 4 * WIDE_STEP),
                (1, WIDE_FROM + WIDE_PLIES, base + 12),
                (1, 40, base + 12),
            ] {
                let mut poll = NoPoll;
                let mut s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
                let mut f = Frame::<HOST_WIDEST>::new(ply, depth, -INFINITY, INFINITY);
                assert_eq!(s.expand(&mut f), None, "{text}");
                assert_eq!(f.count, count, "{text} {ply} {depth}");
            }
        }
    }

    /// `widen` searches a lost host node's other near points only when its
    /// scan filled the node's width ([`host_width`] at its depth); a scan
    /// that found fewer found every near point there is and is not made
    /// again (no work counted: a lone stone has 16 near points, fewer than
    /// 22). A node not lost is never widened.
    #[test]
    fn only_a_lost_node_with_a_full_scan_is_widened() {
        use crate::game::Notation;
        for (text, depth) in [
            ("free h8", 2),
            ("free h8", WIDE_FROM + 3),
            ("free h8", WIDE_FROM + 6),
            ("free a1", 2),
            ("free h8i9h9", WIDE_FROM + 3),
            ("renju h8i9h9", WIDE_FROM + 6),
            ("renju a1", WIDE_FROM + 6),
        ] {
            let pos = Gomoku::parse_position(text).unwrap();
            let mut near = 0u8;
            for_each_near(&pos, |_| near += 1);
            let mut poll = NoPoll;
            let mut s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
            let mut f = Frame::<HOST_WIDEST>::new(1, depth, -INFINITY, INFINITY);
            assert_eq!(s.expand(&mut f), None, "{text}");
            let count = f.count;
            let full = count == host_width(Settings::HOST.width, depth);
            assert!(full || count == near, "{text} {depth}: {count} of {near}");
            // Every candidate searched, none lost: never widened.
            f.next = f.count;
            f.best = 0;
            assert!(!s.widen(&mut f), "{text} {depth}");
            // Every one lost: scanned again when the scan was full, and
            // widened to every near point when there are more.
            f.best = -(MATE - 2) as i16;
            let work = s.work;
            assert_eq!(s.widen(&mut f), full && count < near, "{text} {depth}");
            assert_eq!(f.count, if full { near } else { count }, "{text} {depth}");
            assert_eq!(s.work > work, full, "{text} {depth}");
        }
    }

    /// A won position is found won in every window, pruned or searched, at
    /// every null window and depth up to [`RFP_DEPTH`] + 1: in free gomoku
    /// black to move with an open three h8-h10 (white's stones scattered)
    /// makes a straight four (from depth 3), and in renju white's four i5,
    /// whose only block j5 is forbidden for black, wins (from depth 1).
    #[test]
    fn a_won_position_fails_high_in_every_window() {
        use crate::game::Notation;
        for (text, shallowest) in [("free h8a1h9o1h10a15", 3), ("renju e5f5j6g5j7h5k6a15l7", 1)] {
            let pos = Gomoku::parse_position(text).unwrap();
            for depth in shallowest..=RFP_DEPTH + 1 {
                for beta in (-MATE_BOUND + 1..MATE_BOUND).step_by(997) {
                    let mut poll = NoPoll;
                    let mut s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
                    let score = s.alphabeta(depth, 1, beta - 1, beta);
                    assert!(score >= beta, "{text} depth {depth} beta {beta}: {score}");
                }
            }
        }
    }

    /// The reduction after an alpha improvement: a principal-variation node
    /// below the root whose alpha a move raised searches its other moves a ply
    /// shallower while its children's depth is in [`AIR_DEPTHS`], in every
    /// rule but renju; never on a cut-off, at the root, at other depths or on
    /// the board.
    #[test]
    fn a_raised_alpha_reduces_the_other_moves() {
        use crate::game::Notation;
        let g10 = parse_point("g10").unwrap();
        for text in H8_I9_H9 {
            let pos = Gomoku::parse_position(text).unwrap();
            let renju = pos.rule().has_forbidden();
            let mut poll = NoPoll;
            let mut s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
            // (ply, children's depth, score) in the window (0, 100) → the
            // children's depth after (unless renju), and whether the move
            // cut off.
            for (ply, depth, score, after, cut) in [
                (1, 2, 50, 1, false),
                (3, 10, 50, 9, false),
                (1, 11, 50, 11, false),
                (1, 1, 50, 1, false),
                (0, 6, 50, 6, false),
                (1, 6, 100, 6, true),
                (1, 6, -5, 6, false),
            ] {
                let mut f = Frame::<HOST_WIDEST>::new(ply, depth, 0, 100);
                let at = format!("{text}: {ply} {depth} {score}");
                assert_eq!(s.improve(&mut f, g10, score), cut, "{at}");
                assert_eq!(f.depth, if renju { depth } else { after }, "{at}");
            }
            let mut poll = NoPoll;
            let mut b = BoardSearcher::new(&pos, Settings::DEFAULT, &mut poll);
            let mut f = Frame::<MAX_WIDTH>::new(1, 4, 0, 100);
            assert!(!b.improve(&mut f, g10, 50));
            assert_eq!(f.depth, 4, "{text}: board");
        }
    }

    /// The static-score cache: a position reached again through other moves
    /// (the same stones in another order) is scored from its entry, in every
    /// rule; an entry holds the score worked out afresh; another key does not
    /// read it, nor does an empty entry.
    #[test]
    fn a_transposed_position_is_scored_from_the_cache() {
        use crate::game::Notation;
        for text in H8_I9_H9 {
            let pos = Gomoku::parse_position(text).unwrap();
            let [a, b, c, d] = ["g10", "j8", "g8", "k10"].map(|m| parse_point(m).unwrap());
            let mut arena = std::vec![0u64; 900];
            let mut poll = NoPoll;
            let mut s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
            s.attach_table(&mut arena, Context::new(pos.rule(), 0));
            // The score after the moves, the entry's and a fresh one; `plant`
            // first writes an entry of its own for the position.
            let score_after = |s: &mut HostSearcher<'_>, moves: [Point; 4], plant: Option<i16>| {
                let undo = moves.map(|m| (m, s.play(m)));
                let me = s.pos.player_to_move();
                let host = &mut s.host[0];
                let slot = slot_of(host.hash, host.scores.len());
                if let Some(v) = plant {
                    host.scores[slot] = score_cache::pack(host.hash, v);
                }
                let score = s.static_score(me);
                let host = &s.host[0];
                let entry = score_cache::unpack(host.scores[slot], host.hash);
                let fresh = s.fresh_static_score(&host_eval::TUNED, me, false);
                for (m, u) in undo.into_iter().rev() {
                    s.take_back(m, u);
                }
                (score, entry, fresh)
            };
            let (first, entry, fresh) = score_after(&mut s, [a, b, c, d], None);
            assert_eq!((entry, fresh), (Some(first as i16), first), "{text}");
            let (again, entry, _) = score_after(&mut s, [c, d, a, b], None);
            assert_eq!((again, entry), (first, Some(first as i16)), "{text}");
            // A planted entry is what the transposed position reads.
            let planted = first as i16 + 1;
            let (read, _, fresh) = score_after(&mut s, [c, b, a, d], Some(planted));
            assert_eq!((read, fresh), (Score::from(planted), first), "{text}");
        }
        let key = 0x1234_5678_9ABC_DEF0;
        let entry = score_cache::pack(key, -7);
        assert_eq!(score_cache::unpack(entry, key), Some(-7));
        assert_eq!(score_cache::unpack(entry, key ^ 0xFF_FFFF), Some(-7));
        assert_eq!(score_cache::unpack(entry, key ^ 1 << 24), None);
        assert_eq!(score_cache::unpack(0, 0), None);
        assert_eq!(score_cache::unpack(score_cache::pack(0, 0), 0), Some(0));
    }

    /// The host's root checks for the opponent's threats beyond the horizon
    /// (session 46): in renju at every level, VCF and VCT; in the other rules
    /// the VCT check at level 2 alone and no VCF check.
    #[test]
    fn renju_host_requests_check_the_opponents_threats_at_the_root() {
        use crate::engine::{EngineRequest, RootMoves};
        for (position, level, vcf, vct) in [
            ("renju h8i9", 0, 30, ROOT_VCT_NODES),
            ("renju h8i9", 2, 30, ROOT_VCT_NODES),
            ("free h8i9", 0, 0, 0),
            ("free h8i9", 2, 0, ROOT_VCT_NODES),
            ("standard h8i9", 0, 0, 0),
        ] {
            let request = EngineRequest {
                position,
                limits: crate::search::Limits::default(),
                level,
                seed: 0,
                roots: RootMoves::All,
            };
            let mut poll = NoPoll;
            let mut s = HostSearcher::blank(&mut poll);
            parse_into(&mut s, &request, Profile::Host).unwrap();
            let found = (s.settings.root_vcf, s.host[0].root_vct);
            assert_eq!(found, (vcf, vct), "{position} level {level}");
        }
    }

    /// The host's tables between requests: a [`Reuse::Fresh`] request reads
    /// neither the table entries nor the VCF memo's failures of the last
    /// requests, a [`Reuse::Kept`] one reads both, and a request of another
    /// [`Context`] (rule or weights) finds the tables cleared.
    #[test]
    fn the_last_requests_entries_are_read_only_when_kept() {
        let pos = Gomoku::parse_position(H8_I9_H9[0]).unwrap();
        let mv = parse_point("g10").unwrap();
        let mut arena = std::vec![0u64; 900];
        let context = Context::new(pos.rule(), 0);
        let mut poll = NoPoll;
        // The first request leaves an entry and a failure.
        let mut s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
        s.attach_table(&mut arena, context);
        s.store(0, 3, 42, tt::EXACT, mv);
        s.remember_failure(5);
        assert_eq!(s.probe(0), Some((mv, 42, 3, tt::EXACT)));
        assert!(s.memo_failed(5) && s.memo_failed(4) && !s.memo_failed(6));
        drop(s);
        for (reuse, context, read) in [
            (Reuse::Fresh, context, false),
            (Reuse::Kept, context, true),
            (Reuse::Kept, Context::new(pos.rule(), 2), false),
            (Reuse::Kept, Context::new(Rule::Renju, 0), false),
        ] {
            let mut poll = NoPoll;
            let mut s = HostSearcher::new(&pos, Settings::HOST, &mut poll);
            s.host[0].reuse = reuse;
            s.attach_table(&mut arena, context);
            let found = (s.probe(0).is_some(), s.memo_failed(5));
            assert_eq!(found, (read, read), "{reuse:?} {context:?}");
            // Each leaves the entry and the failure for the next.
            s.store(0, 3, 42, tt::EXACT, mv);
            s.remember_failure(5);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// The host's `rank` (one pass) keeps the same candidates in the same
        /// order as the board's (a search, then `copy_within`): the best
        /// `width` by value, the earlier point first among equal values.
        #[test]
        fn host_rank_equals_board_rank(
            values in proptest::collection::vec(0u16..8, 0..40),
            width in 0usize..=MAX_WIDTH,
        ) {
            let mut host = ([NO_POINT; HOST_WIDTH], [0u16; HOST_WIDTH], 0u8);
            let mut board = ([NO_POINT; MAX_WIDTH], [0u16; MAX_WIDTH], 0u8);
            for (p, &value) in values.iter().enumerate() {
                rank(&mut host.0, &mut host.1, &mut host.2, p as Point, value, width);
                rank(&mut board.0, &mut board.1, &mut board.2, p as Point, value, width);
            }
            let len = usize::from(board.2);
            proptest::prop_assert_eq!(host.2, board.2);
            proptest::prop_assert_eq!(&host.0[..len], &board.0[..len]);
            proptest::prop_assert_eq!(&host.1[..len], &board.1[..len]);
        }

        /// The host's points, stones' patterns and pattern counts kept move by
        /// move equal a fresh reading, after moves played and taken back (and
        /// the network's code sums from them); the host score equals the one
        /// computed from scratch.
        #[test]
        fn cached_points_equal_fresh_reads(
            picks in proptest::collection::vec(0usize..225, 1..80),
            back in 0usize..40,
            rule in 0usize..4,
        ) {
            let rule = [Rule::Free, Rule::Standard, Rule::Renju, Rule::Caro][rule];
            let mut poll = NoPoll;
            let mut s = HostSearcher::new(&Gomoku::new(rule), Settings::HOST, &mut poll);
            let mut played = std::vec::Vec::new();
            for pick in picks {
                let mut legal = heapless::Vec::<Point, POINTS>::new();
                s.pos.generate(&mut legal);
                if legal.is_empty() || s.pos.outcome().is_some() {
                    break;
                }
                let mv = legal[pick % legal.len()];
                played.push((mv, s.play(mv)));
                // Points read between the moves (as a scan would), so that
                // taking the moves back puts the entries back from the
                // undo log (and from marks once it is full).
                if pick % 3 != 0 {
                    let mut near = std::vec::Vec::new();
                    for_each_near(&s.pos, |p| near.push(p));
                    for p in near {
                        s.read_point(p);
                    }
                }
            }
            for i in 0..back.min(played.len()) {
                let (mv, undo) = played.pop().unwrap();
                s.take_back(mv, undo);
                if i % 2 == 0 {
                    let mut near = std::vec::Vec::new();
                    for_each_near(&s.pos, |p| near.push(p));
                    for p in near {
                        s.read_point(p);
                    }
                }
            }
            // The near points' class counts, points still marked read again.
            let fresh = host_eval::point_classes(&s.pos);
            // The network's code sums too, from the points as peeked, then
            // as refreshed.
            let me = s.pos.player_to_move();
            let table = super::super::host_net::tests::test_table(point_class::K_BLOCK3);
            let want = table.sums_of(&s.pos, me);
            for keep in [false, true] {
                let own = usize::from(me & 1);
                let (classes, sums) = s.host[0].near_classes(&s.pos, keep, Some((&table, own)));
                proptest::prop_assert_eq!(classes, fresh);
                proptest::prop_assert_eq!(sums, want);
            }
            proptest::prop_assert_eq!(s.host[0].near_classes(&s.pos, true, None).0, fresh);
            for p in 0..POINTS as u8 {
                if s.pos.board().is_empty(p) {
                    let fresh = PointPatterns::read(s.pos.board(), p, rule);
                    proptest::prop_assert_eq!(s.read_point(p), fresh, "point {}", p);
                    let lines = s.pos.board().lines(p);
                    let patterns: [[Pattern; 4]; 2] = core::array::from_fn(|side| {
                        let table = Table::for_side(rule, side as u8);
                        core::array::from_fn(|d| table.pattern(&lines[d], side as u8))
                    });
                    let classes: [PointClass; 2] = patterns.map(point_class::classify);
                    let codes = patterns.map(point_class::code);
                    let (board, host) = (s.pos.board(), &mut s.host[0]);
                    proptest::prop_assert_eq!(host.classes(board, p, rule), classes, "point {}", p);
                    proptest::prop_assert_eq!(host.quiet(board, p, rule), quiet_ranking(fresh), "point {}", p);
                    proptest::prop_assert_eq!(host.codes(p), codes, "point {}", p);
                }
            }
            let fresh = Histogram::from_board(s.pos.board(), rule);
            proptest::prop_assert_eq!(s.host[0].hist, fresh);
            proptest::prop_assert_eq!(s.eval, Eval::from_board(s.pos.board(), rule));
            for p in 0..POINTS as u8 {
                if let Some(side) = s.pos.board().get(p) {
                    let lines = s.pos.board().lines(p);
                    let table = Table::for_side(rule, side);
                    let fresh: [Pattern; 4] =
                        core::array::from_fn(|d| table.pattern(&lines[d], side));
                    proptest::prop_assert_eq!(s.host[0].stones[usize::from(p)], fresh, "stone {}", p);
                }
            }
            // A threat table whose entries all differ (for free and renju
            // with black to move).
            static THREAT: [i16; host_eval::THREATS] = {
                let mut t = [0; host_eval::THREATS];
                let mut m = 0;
                while m < host_eval::THREATS {
                    t[m] = ((m * 37) % 501) as i16 - 250;
                    m += 1;
                }
                t
            };
            // Point-code values that all differ (free only).
            static CODES: host_eval::Codes = {
                let mut t = [[0; host_eval::CODES]; 2];
                let mut c = 0;
                while c < host_eval::CODES {
                    t[0][c] = ((c * 29) % 301) as i16 - 150;
                    t[1][c] = ((c * 53) % 211) as i16 - 105;
                    c += 1;
                }
                t
            };
            static WEIGHTS: HostEval = HostEval {
                free: host_eval::HostWeights {
                    own_points: [1, 3, 7, 15, 31, 63, 127, 2, 9, 17, 40, 70, 150],
                    opp_points: [2, 5, 11, 23, 47, 95, 191, 4, 6, 20, 33, 88, 170],
                    threat: Some(&THREAT),
                    codes: Some(&CODES),
                    ..host_eval::TUNED_S23
                },
                renju: [
                    host_eval::HostWeights {
                        own_points: [3, 1, 9, 15, 30, 65, 120, 5, 8, 19, 44, 71, 140],
                        tempo: 7,
                        threat: Some(&THREAT),
                        ..host_eval::TUNED_S23
                    },
                    host_eval::HostWeights {
                        opp_points: [5, 2, 13, 21, 40, 99, 190, 7, 3, 25, 37, 90, 160],
                        three_to_move: 99,
                        ..host_eval::TUNED_S23
                    },
                ],
            };
            s.settings.weights = Some(&WEIGHTS);
            let me = s.pos.player_to_move();
            let x = host_eval::position_features(&s.pos);
            let w = WEIGHTS.weights(rule, me).to_vec();
            let threat = WEIGHTS.weights(rule, me).threat.map_or(0, |t| {
                let points = host_eval::point_classes(&s.pos);
                i32::from(t[host_eval::threat_mask(&points, me)])
            });
            let codes = host_eval::code_sum(WEIGHTS.weights(rule, me), &s.pos, me);
            let dot: i32 = x.iter().zip(w.iter()).map(|(&x, &w)| x * i32::from(w)).sum::<i32>()
                + threat
                + codes;
            let expected = if s.eval.has_four(me) {
                super::super::eval::FOUR_TO_MOVE
            } else {
                dot.clamp(-(MATE_BOUND - 1), MATE_BOUND - 1)
            };
            proptest::prop_assert_eq!(s.static_score(me), expected);
        }
    }
}
