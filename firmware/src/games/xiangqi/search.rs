//! The xiangqi engine: iterative deepening with aspiration windows over a
//! principal-variation search.
//!
//! - **Tree**: transposition table ([`super::tt`], in the request's arena),
//!   mate-distance pruning, check extension, reverse futility, null move (the
//!   reduced search keeps one full-width ply, so quiet mating checks are seen),
//!   internal iterative deepening, futility and late-move pruning of quiet
//!   moves, late-move reductions (in the host profile two plies more at
//!   expected cut nodes, guessed as Stockfish does; in the board profile
//!   none against a side without rook, horse or cannon); AXF repetition rules inside the tree
//!   (perpetual check and chase lose, other repetitions draw), the
//!   natural-move limit.
//! - **Quiescence**: captures, losing ones (static exchange evaluation,
//!   [`super::see`]) and hopeless ones (delta: the victim, or the exchange's
//!   gain, cannot bring the score near alpha) left out; in check every
//!   evasion and no standing pat, so mate is seen at the horizon. In the
//!   host profile its first ply (the main search's horizon) tries the quiet
//!   moves that give check too, from their own generator
//!   ([`Position::quiet_checks`](super::board::Position::quiet_checks)).
//! - **Evaluation cache**: the last static evaluations by key
//!   ([`EVAL_CACHE`] entries, both searches' and the node after a null
//!   move's), which give the same scores, so the same trees, for less.
//! - **Ordering**: hash move, winning and even captures (MVV-LVA), killers,
//!   history (with gravity, maluses for the quiet moves that failed; in the
//!   host profile, whose arena holds them, averaged with continuation
//!   counters kept per previous move), losing
//!   captures last; staged below the root: the hash move is tried before any
//!   move is generated, the captures are generated alone, the killers are
//!   checked against the position, and the quiet moves are generated and
//!   ordered only when none of these cut the node off; once every quiet
//!   move still to come is pruned unless it may give check, those not yet
//!   picked are cut down to the ones that may.
//!
//! Everything lives in one [`Searcher`] on the request's stack, generic over its
//! sizes: the board profile's ([`BOARD_PLY`], [`BOARD_MOVE_STACK`],
//! [`BOARD_PV`]) fit the micro:bit's RAM, the host profile's ([`HOST_PLY`],
//! [`HOST_MOVE_STACK`], [`HOST_PV`]) let it search deep. The same request with
//! the same sizes gives the same answer bit for bit.

use super::board::{Move, NO_SQUARE, Square, slot_color, slot_kind};
use super::eval::{VALUE, evaluate, evaluate_host, has_pieces, lazy, lazy_attack, phase, tempo};
use super::movegen::{MAX_MOVES, Sink, unpack};
use super::rules::Verdict;
use super::state::{NATURAL_LIMIT, Xiangqi};
use super::tt::{Bound, Hit, Tt, kept};
use crate::engine::{EngineReply, MAX_EXCLUDE, Poll, send_info, write_reply};
use crate::game::{INFINITY, MATE, MATE_BOUND, Score};
use crate::search::{Limits, poll_every};

/// Nodes between two polls, from the dearest node seen on the micro:bit v1
/// (8,100 ticks before the `xq-speed2` work, 2,800–7,100 since: the HIL
/// report's xiangqi search rows), so that polls come at least as often.
const POLL_EVERY: u64 = poll_every(8_100);

/// Deepest ply of the board profile (extensions and quiescence included).
pub const BOARD_PLY: usize = 20;
/// Moves the board profile's move stack holds (one arena word each, with the
/// ordering score). A node whose moves do not fit in what is left is searched
/// by quiescence (captures, or evasions in check), which needs fewer.
pub const BOARD_MOVE_STACK: usize = 320;
/// Longest principal variation the board profile keeps.
pub const BOARD_PV: usize = 8;
/// The board profile's triangular principal-variation table: `BOARD_PV (BOARD_PV + 1) / 2` moves.
pub const BOARD_PVT: usize = BOARD_PV * (BOARD_PV + 1) / 2;
/// Deepest iteration of the board profile when the request gives no depth.
pub const BOARD_MAX_DEPTH: u8 = 16;

/// Deepest ply of the host profile: below the 48 moves the game's history
/// keeps ([`super::rules::HISTORY`]), so every move the search plays can be
/// taken back.
pub const HOST_PLY: usize = 46;
/// Moves the host profile's move stack holds: every node of the deepest
/// search fits.
pub const HOST_MOVE_STACK: usize = HOST_PLY * MAX_MOVES;
/// Longest principal variation the host profile keeps.
pub const HOST_PV: usize = 24;
/// The host profile's triangular principal-variation table: `HOST_PV (HOST_PV + 1) / 2` moves.
pub const HOST_PVT: usize = HOST_PV * (HOST_PV + 1) / 2;
/// Deepest iteration of the host profile when the request gives no depth.
pub const HOST_MAX_DEPTH: u8 = 40;

/// Repetitions closer to the root than this are judged by the AXF rules
/// (perpetual check / chase); deeper ones count as draws, which keeps the
/// stack bounded.
pub const JUDGE_PLY: usize = 12;

/// Share of the time limit (in 1/16) after which the board profile starts no new
/// iteration (the host profile deepens until the time is up).
const SOFT_TIME_16THS: u64 = 9;
/// First aspiration window, half width.
const ASPIRATION: Score = 30;
/// Reverse futility margin per ply of depth.
const REVERSE_FUTILITY: Score = 110;
/// Futility margins by depth (1–3): a quiet move cannot raise the score more.
const FUTILITY: [Score; 4] = [0, 160, 320, 480];
/// Quiet moves the host profile searches at depths 1–3 before the rest are
/// pruned (two thirds of them where the position is not improving).
const HOST_LATE_MOVES: [u16; 4] = [0, 8, 13, 20];
/// [`HOST_LATE_MOVES`] for the board profile: fewer (session 32), so that its
/// one second reaches depth 4 in every HIL middle game; +13 ± 15 Elo over
/// 1,200 games at 4,000 nodes a move in the board profile. The host's shallow
/// nodes lie deeper below its root: the same numbers there gained at 20,000
/// nodes a move but not at equal time (`docs/strength.md`, session 32).
const BOARD_LATE_MOVES: [u16; 4] = [0, 5, 9, 14];
/// The host profile's quiescence stands pat on material and tables alone
/// when they are this far above beta (the rest of the evaluation rarely
/// moves a score as much).
const HOST_LAZY_MARGIN: Score = 300;
/// The board profile's quiescence stands pat on material, tables and the
/// attack terms ([`lazy_attack`]) when they lie this far above beta, plus
/// [`BOARD_LAZY_MARGIN_PHASE`] a phase unit (the rest of the evaluation,
/// mobility above all, strays further with more pieces on the board). In
/// the board's searches the rest of the evaluation moves material and
/// tables by 200 or more in about 9 % of the full evaluations asked for,
/// material, tables and the attack terms in 3.5 % (session 40); this margin
/// spares as many full evaluations as a flat 150 and takes the lazy value
/// on the wrong side of the bound about half as often.
const BOARD_LAZY_MARGIN: Score = 90;
/// [`BOARD_LAZY_MARGIN`]'s rise a phase unit (to 186 at the full phase).
const BOARD_LAZY_MARGIN_PHASE: Score = 3;
/// The board profile's null-window nodes take material and tables alone
/// ([`lazy`]) for their static evaluation when they lie this far from beta
/// (session 34 took 300: about +12 Elo over 800 games at 4,000 nodes a
/// move; session 39 200: 0 ± 20 Elo at 3,000 nodes, 175 scored −15).
const BOARD_NULL_WINDOW_LAZY_MARGIN: Score = 200;
/// Delta pruning margin in quiescence.
const DELTA: Score = 200;
/// An unknown static evaluation (a node in check, or not reached).
const NO_EVAL: Score = -INFINITY;
/// History values stay within this bound.
const HISTORY_MAX: i32 = 8192;

/// splitmix64 finaliser: the engine's only source of "randomness".
pub fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
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
    /// Principal variation (as much as the reply's text holds).
    pub pv: heapless::Vec<Move, 16>,
}

/// History counters by moving piece kind and destination (black's mirrored):
/// the arena's words read as `i16`s, four a word (a counter is one
/// halfword load: the Cortex-M0 has no faster way to a packed one).
struct History<'t>(&'t mut [i16]);

impl<'t> History<'t> {
    /// Counters of one table: a moving piece's kind and destination.
    const ENTRIES: usize = 7 * 90;
    /// Arena words the counters take.
    const WORDS: usize = Self::ENTRIES.div_ceil(4);
    /// Arena words of the continuation counters (host profile): one table
    /// per previous move's kind and destination.
    const CONT_WORDS: usize = (Self::ENTRIES * Self::ENTRIES).div_ceil(4);

    /// Where the continuation counters after `prev` (the move that led to
    /// the node) start, when the arena holds them (host profile) and `prev`
    /// is a move (not the null move).
    #[inline]
    fn cont_base(&self, prev: Option<Move>) -> Option<usize> {
        let prev = prev.filter(|m| m.piece != 0)?;
        (self.0.len() >= (Self::WORDS + Self::CONT_WORDS) * 4)
            .then(|| Self::WORDS * 4 + Self::index(prev) * Self::ENTRIES)
    }

    /// Zeroed counters over `words` (at least [`History::WORDS`]).
    fn new(words: &'t mut [u64]) -> Self {
        words.fill(0);
        Self(bytemuck::cast_slice_mut(words))
    }

    /// The counter of `mv`: its piece's kind and destination, black's
    /// destination mirrored (`HISTORY_BASE` gives `kind * 90`, plus 89
    /// for black, whose destination is then subtracted).
    #[inline]
    fn index(mv: Move) -> usize {
        let base = usize::from(HISTORY_BASE[usize::from(mv.piece & 63)]);
        if mv.piece & 32 == 0 {
            base + usize::from(mv.to)
        } else {
            base.wrapping_sub(usize::from(mv.to))
        }
    }

    #[inline]
    fn get(&self, i: usize) -> i32 {
        i32::from(self.0.get(i).copied().unwrap_or(0))
    }

    fn set(&mut self, i: usize, v: i32) {
        if let Some(c) = self.0.get_mut(i) {
            *c = v as i16;
        }
    }
}

const fn build_history_base() -> [u16; 64] {
    let mut t = [0u16; 64];
    let mut slot = 16;
    while slot < 48 {
        let kind = slot_kind(slot as u8) as u16;
        t[slot] = kind * 90 + if slot >= 32 { 89 } else { 0 };
        slot += 1;
    }
    t
}
/// [`History::index`]'s base by slot: `kind * 90`, plus 89 for black.
static HISTORY_BASE: [u16; 64] = build_history_base();

/// Arena words a search needs besides its move stack (the history counters).
pub const HISTORY_WORDS: usize = History::WORDS;
/// Arena words the host profile's history takes: the counters and the
/// continuation counters (by the previous move and the move).
pub const HOST_HISTORY_WORDS: usize = History::WORDS + History::CONT_WORDS;

/// The move that led to `g`'s position, if the game records one.
#[inline]
fn previous(g: &Xiangqi) -> Option<Move> {
    g.history().get(1).map(|e| e.mv)
}

/// A move as the low word of a move-stack entry (0 for none: never a real move).
#[inline]
fn packed(mv: Move) -> u32 {
    u32::from_le_bytes([mv.from, mv.to, mv.piece, mv.captured])
}

/// The position of the first word of `words` whose ordering score (the high
/// 32 bits) is `target`, two words a step ([`Searcher::pick`]'s search for
/// the next move of the previous pick's score).
#[inline(always)]
fn first_scoring(words: &[u64], target: i32) -> Option<usize> {
    let score = |w: u64| (w >> 32) as i32;
    let mut pairs = words.chunks_exact(2);
    let mut k = 0;
    for pair in &mut pairs {
        if score(pair[0]) == target {
            return Some(k);
        }
        if score(pair[1]) == target {
            return Some(k + 1);
        }
        k += 2;
    }
    match pairs.remainder() {
        [w] if score(*w) == target => Some(k),
        _ => None,
    }
}

/// [`Searcher::order`]'s scores: the hash move (or the root's best move),
/// then captures (their MVV-LVA value, below 8,000, plus `CAPTURE_SCORE` for
/// a good one, less it for a losing one), then the killers, then the quiet
/// moves by history.
const HASH_SCORE: i32 = 30_000;
/// See [`HASH_SCORE`].
const CAPTURE_SCORE: i32 = 20_000;
/// See [`HASH_SCORE`]: the first killer and the second.
const KILLER_SCORES: [i32; 2] = [15_000, 14_000];
// The quiet moves' picker tells the hash move and the killers by their
// scores: above any history's.
const _: () = assert!(HISTORY_MAX < KILLER_SCORES[1] && KILLER_SCORES[1] < KILLER_SCORES[0]);
/// Ordering score from which a capture counts as good: between the losing
/// captures (at most `-CAPTURE_SCORE` + 8,000) and the good ones (at least
/// `CAPTURE_SCORE` − 7).
const GOOD_CAPTURE: i32 = 10_000;

/// Where a node's move loop stands in its staged order: the hash move (before
/// anything is generated), the good captures (generated alone), the killers
/// (checked against the position), the quiet moves (generated only when
/// none of these cut off), the losing captures. The root generates
/// everything at once (`All`): its ordering knows the last iteration's best
/// move and the request's excluded moves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Every move, generated and ordered at once (the root).
    All,
    /// Picking from every move.
    AllPick,
    /// Captures to generate.
    Captures,
    /// Picking captures while they are good.
    GoodCaptures,
    /// Trying the killers.
    Killers,
    /// Quiet moves to generate.
    Quiets,
    /// Picking quiet moves.
    QuietPick,
    /// Picking quiet moves, to be cut down to those that may give check
    /// before the next pick (see [`Searcher::cut_to_checks`]).
    CutToChecks,
    /// Picking quiet moves cut down to those that may give check.
    CheckPick,
    /// Picking the remaining (losing) captures.
    BadCaptures,
    /// Nothing left.
    Done,
}

/// [`Searcher::play`]'s `checker` for a move in check that the picker found
/// may answer it (no square holds it).
const ANSWERS: Square = 0xFE;

/// [`Searcher::next_staged`]'s answer when no move is left (no move packs to 0).
const STAGED_END: u32 = 0;
/// [`Searcher::next_staged`]'s answer when the generated moves do not fit in
/// the move stack (no move packs to `u32::MAX`).
const STAGED_OVERFLOW: u32 = u32::MAX;

/// [`VALUE`] of the piece in each slot (256 entries: read by the byte,
/// without a mask), for the ordering and quiescence's delta tests.
const SLOT_VALUE: [i16; 256] = {
    let mut t = [0; 256];
    let mut s = 0;
    while s < 256 {
        t[s] = VALUE[slot_kind(s as u8) as usize] as i16;
        s += 1;
    }
    t
};

/// A capture's most-valuable-victim part by the victim's slot: its value
/// (at most 1,000: a king counts as no more than a rook) times 8, so that
/// the capturer's kind breaks ties.
const VICTIM_SCORE: [i16; 256] = {
    let mut t = [0; 256];
    let mut s = 0;
    while s < 256 {
        let v = VALUE[slot_kind(s as u8) as usize];
        t[s] = (if v < 1000 { v } else { 1000 } * 8) as i16;
        s += 1;
    }
    t
};

/// Takes in a quiescence child's `score`: raises `best` and `alpha`;
/// `true` on a cut-off (`score` reaches `beta`).
#[inline(always)]
fn raise(best: &mut Score, alpha: &mut Score, score: Score, beta: Score) -> bool {
    if score > *best {
        *best = score;
        if score > *alpha {
            *alpha = score;
            return score >= beta;
        }
    }
    false
}

/// [`VALUE`] of the piece in `slot`.
#[inline(always)]
fn slot_value(slot: u8) -> Score {
    Score::from(SLOT_VALUE[usize::from(slot)])
}

/// [`VICTIM_SCORE`] of the piece in `slot`.
#[inline(always)]
fn victim_score(slot: u8) -> Score {
    Score::from(VICTIM_SCORE[usize::from(slot)])
}

/// The state of a node's staged move order (see [`Searcher::next_staged`]).
struct Picker {
    stage: Stage,
    /// The hash move tried first, packed (0 for none).
    first: u32,
    /// The killers of the node's ply (a killer that is not a move of the
    /// position is cleared when its turn comes).
    killers: [u32; 2],
    /// The next killer to try.
    killer: u8,
    /// The next capture (or move, at the root) to pick; the first move
    /// generated before any is picked. (Positions in the move stack are kept
    /// in 16 bits, as the stack is shorter than that: the picker lives in the
    /// frame of every ply of the recursion.)
    capture: u16,
    /// The end of the captures (and the first quiet move).
    captures_end: u16,
    /// The next quiet move to pick.
    quiet: u16,
    /// The end of the generated moves (the children's move stack starts there).
    end: u16,
    /// [`Searcher::pick`]'s carried position, captures (or every move).
    after: u16,
    /// [`Searcher::pick`]'s carried position, quiet moves.
    after_quiet: u16,
    /// The piece giving check ([`Position::checker`](super::board::Position::checker)),
    /// when `in_check`.
    checker: Square,
    /// Whether the side to move is in check: a picked move that cannot answer
    /// it is passed over here, as [`Searcher::play`] would drop it unprobed.
    in_check: bool,
}

impl Picker {
    /// The order of a node at `ply` whose moves go to the stack at `base`,
    /// with the hash move `first` (tried before the picker is asked) and the
    /// ply's `killers`.
    fn new(ply: usize, base: usize, first: Option<Move>, killers: [u32; 2]) -> Self {
        Self {
            stage: if ply == 0 {
                Stage::All
            } else {
                Stage::Captures
            },
            first: first.map_or(0, packed),
            killers,
            killer: 0,
            capture: base as u16,
            captures_end: base as u16,
            quiet: base as u16,
            end: base as u16,
            after: 0,
            after_quiet: 0,
            checker: NO_SQUARE,
            in_check: false,
        }
    }

    /// Whether `mv` may answer the check (always, when not in check): the
    /// test [`Searcher::play`] makes before probing a move in check.
    #[inline(always)]
    fn may_answer(&self, g: &Xiangqi, mv: Move) -> bool {
        !self.in_check
            || (g.position().may_evade(mv) && !g.position().keeps_check(mv, self.checker))
    }

    /// The hash move's squares, for ordering: a hash move that is no move of
    /// the position gives none, as no generated move has its squares.
    fn hash(&self) -> Option<(Square, Square)> {
        let mv = unpack(u64::from(self.first));
        (self.first != 0).then_some((mv.from, mv.to))
    }
}

/// One node of [`Searcher::search`]: its window and what is known about it.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: usize,
    alpha: Score,
    beta: Score,
    base: usize,
    in_check: bool,
    /// Whether a null move may be tried, and whether the node is expected to
    /// fail high (read through [`Searcher::cut`]).
    entry: Entry,
    pv: bool,
    eval: Score,
    /// Whether the static evaluation is above the one of two plies before
    /// (the same side to move), or either is unknown.
    improving: bool,
    hash: Option<(Square, Square)>,
}

impl Node {
    /// A node to search with this window: nothing known about it yet.
    #[inline(always)]
    fn new(
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        base: usize,
        in_check: bool,
        entry: Entry,
    ) -> Self {
        Node {
            depth,
            ply,
            alpha,
            beta,
            base,
            in_check,
            entry,
            pv: beta - alpha > 1,
            eval: NO_EVAL,
            improving: true,
            hash: None,
        }
    }
}

/// What a parent tells the node it searches beyond the window, in one byte
/// (so that the board's frames keep their size): whether the node may try a
/// null move (not right after one), and whether it is expected to fail high,
/// a cut node (a null-window node reached through a reduced search, or
/// through a node expected to fail low: the host profile reduces its late
/// quiet moves two plies more).
#[derive(Clone, Copy)]
struct Entry(u8);

impl Entry {
    /// The root's: no null move, a PV node.
    const ROOT: Entry = Entry(0);
    const NULL_OK: u8 = 1;
    const CUT: u8 = 2;

    /// An entry with these two flags.
    #[inline(always)]
    const fn new(null_ok: bool, cut: bool) -> Entry {
        Entry((null_ok as u8 * Self::NULL_OK) | (cut as u8 * Self::CUT))
    }

    /// Whether the node may try a null move.
    #[inline(always)]
    const fn null_ok(self) -> bool {
        self.0 & Self::NULL_OK != 0
    }

    /// Whether the node is expected to fail high.
    #[inline(always)]
    const fn cut(self) -> bool {
        self.0 & Self::CUT != 0
    }
}

/// Where ply `ply`'s line starts in [`Searcher`]'s triangular principal
/// variation (rows of `pv`, `pv - 1`, … moves).
const fn pv_row(pv: usize, ply: usize) -> usize {
    ply * pv - ply * ply.saturating_sub(1) / 2
}

/// The root moves a request lists (`exclude=` or `only=`), as (from, to).
#[derive(Clone, Copy, Debug, Default)]
pub struct RootList<'a> {
    /// The listed moves.
    pub moves: &'a [(Square, Square)],
    /// Whether they are the only moves to play (else the ones not to play).
    pub only: bool,
}

/// Search state: tables, move stack and counters, sized by the profile:
/// `PLY` plies deep, `PV` moves of principal variation. The move stack (a
/// packed move and its ordering score per word) and the transposition table
/// live in the request's arena (`'t`).
// The fields the move loop reads most first (`repr(C)`): the Cortex-M0
// reaches them with short offsets.
#[repr(C)]
pub struct Searcher<'p, 't, const PLY: usize, const PV: usize, const PVT: usize> {
    moves: &'t mut [u64],
    history: History<'t>,
    /// The node count at which `left` runs out (see [`Self::nodes`]).
    mark: u64,
    /// Nodes left to visit before the next node that polls or reaches the
    /// node limit ([`Self::visit`]): the count of nodes is `mark - left`.
    left: u32,
    aborted: bool,
    root_best: Move,
    tt: Tt<'t>,
    killers: [[u32; 2]; PLY],
    /// Static evaluation of each ply's node on the current line
    /// ([`NO_EVAL`] in check or not evaluated), in 16 bits (every evaluation
    /// lies within ±[`INFINITY`]): the board's stack is short.
    evals: [i16; PLY],
    pv_len: [u8; PV],
    limits: Limits,
    /// The principal variation of each ply's node, triangular: ply `p`'s
    /// line (at most `PV - p` moves, all the root's line ever takes of it)
    /// from [`pv_row`]`(p)` on, `PVT = PV (PV + 1) / 2` moves in all.
    pv: [Move; PVT],
    /// The request's listed root moves (`exclude=` / `only=`), as (from, to);
    /// unused slots are (0, 0), which no move has.
    listed: [(Square, Square); MAX_EXCLUDE],
    /// Whether [`Searcher::listed`] are the only root moves to play (else the
    /// ones not to play).
    only: bool,
    poll: &'p mut dyn Poll,
    /// The last static evaluations by key ([`EVAL_CACHE`] entries, the
    /// entry from the key's bits 23–31, [`eval_slot`]), one word each: the
    /// key's bits 0–17 with the lowest set in the high 18 bits ([`eval_tag`];
    /// the low half of the key is all that quiescence keeps up to date, see
    /// [`Xiangqi::play_unrecorded`]), the score in the low 14 bits
    /// ([`eval_score`]; a score beyond ±8,191 is not kept). A hit returns the
    /// score [`Self::evaluate`] gave, so the trees are those of a search
    /// without the cache but for two positions whose keys agree in the 26
    /// bits tested (as rare as a false hit of the transposition table). An
    /// empty entry is 0, which no key finds (zeros are built in place: an
    /// array built by value was a second copy on the board's stack).
    eval_cache: [u32; EVAL_CACHE],
}

/// Entries of the searcher's cache of static evaluations (the key's top
/// nine bits pick one, `eval_slot`).
pub const EVAL_CACHE: usize = 512;

/// The cache entry of a key whose low half is `low`: its bits 23–31.
#[inline(always)]
fn eval_slot(low: u32) -> usize {
    (low >> 23) as usize
}

/// Mask of a cache entry's tag: its high 18 bits.
const EVAL_TAG: u32 = 0xFFFF_C000;

/// The tag of a cache entry for a key whose low half is `low`: its bits
/// 0–17 in the entry's high 18 bits, the lowest set (so never an empty
/// entry's 0).
#[inline(always)]
fn eval_tag(low: u32) -> u32 {
    (low << 14) | (1 << 14)
}

/// The score of a cache entry: its low 14 bits, signed.
#[inline(always)]
fn eval_score(e: u32) -> Score {
    ((e << 18) as i32) >> 18
}

fn mate_score(verdict: Verdict, ply: usize) -> Score {
    match verdict {
        Verdict::Win => MATE - ply as Score,
        Verdict::Loss => -(MATE - ply as Score),
        Verdict::Draw => 0,
    }
}

/// `ln(x)` in 1/1024 units for `x` in 1..64 (const, no floating point).
const fn ln_fixed(x: u32) -> i64 {
    // log2 by repeated squaring (16 fraction bits), times ln 2.
    let mut int = 31 - x.leading_zeros() as i64;
    let mut y = ((x as u64) << 16) >> int; // y in [1, 2) as 16.16 fixed point
    let mut frac: i64 = 0;
    let mut bit = 1i64 << 15;
    while bit > 0 {
        y = (y * y) >> 16;
        if y >= 2 << 16 {
            y >>= 1;
            frac |= bit;
        }
        bit >>= 1;
    }
    int = (int << 16) | frac; // log2(x) in 1/65536
    int * 45426 / 65536 * 1024 / 65536 // * ln 2 (45426 / 65536)
}

const fn build_reductions() -> [[u8; 64]; 64] {
    let mut t = [[0u8; 64]; 64];
    let mut d = 1;
    while d < 64 {
        let mut m = 1;
        while m < 64 {
            // 0.75 + ln(depth) ln(move) / 2.25, in 1/1024 units.
            let r = (768 + ln_fixed(d as u32) * ln_fixed(m as u32) * 4 / 9 / 1024) / 1024;
            t[d][m] = r as u8;
            m += 1;
        }
        d += 1;
    }
    t
}

/// Late-move reductions by `[depth][move number]` (both capped at 63).
static REDUCTIONS: [[u8; 64]; 64] = build_reductions();

/// Late-move reduction for the `n`-th legal move at `depth`.
fn reduction(depth: i32, n: u16) -> i32 {
    i32::from(REDUCTIONS[depth.clamp(1, 63) as usize][usize::from(n.clamp(1, 63))])
}

impl<'p, 't, const PLY: usize, const PV: usize, const PVT: usize> Searcher<'p, 't, PLY, PV, PVT> {
    /// Whether this searcher has the host profile's sizes. Its arena holds the
    /// continuation counters (the board profile's code does not look for them:
    /// the board's per-node cost stays as it was), and its move's time is all
    /// its own (what it leaves is lost), so it deepens until the time is up;
    /// the board's one-second rows stop at [`SOFT_TIME_16THS`].
    const HOST: bool = PLY >= HOST_PLY;

    /// The profile's quiet moves before late-move pruning, by depth.
    const LATE_MOVES: [u16; 4] = if Self::HOST {
        HOST_LATE_MOVES
    } else {
        BOARD_LATE_MOVES
    };

    /// The profile's margin for quiescence's lazy standing pat in `pos`.
    #[inline(always)]
    fn lazy_margin(pos: &super::board::Position) -> Score {
        if Self::HOST {
            HOST_LAZY_MARGIN
        } else {
            BOARD_LAZY_MARGIN + BOARD_LAZY_MARGIN_PHASE * phase(pos)
        }
    }

    /// The profile's lazy evaluation: material and tables ([`lazy`]), on
    /// the board with the attack terms too ([`lazy_attack`]).
    #[inline(always)]
    fn lazy(pos: &super::board::Position) -> Score {
        if Self::HOST {
            lazy(pos)
        } else {
            lazy_attack(pos)
        }
    }

    /// The profile's static evaluation: the host's with the threat terms
    /// ([`evaluate_host`]), the board's without ([`evaluate`]).
    #[inline(always)]
    fn evaluate(pos: &super::board::Position) -> Score {
        if Self::HOST {
            evaluate_host(pos)
        } else {
            evaluate(pos)
        }
    }

    /// The cached evaluation of the position whose key's low half is `low`.
    #[inline(always)]
    fn cached(&self, low: u32) -> Option<Score> {
        let e = self.eval_cache[eval_slot(low)];
        (e & EVAL_TAG == eval_tag(low)).then(|| eval_score(e))
    }

    /// [`Self::evaluate`] through the cache of the last evaluations by key.
    #[inline(always)]
    fn evaluate_cached(&mut self, pos: &super::board::Position) -> Score {
        let low = pos.key() as u32;
        if let Some(v) = self.cached(low) {
            return v;
        }
        let v = Self::evaluate(pos);
        self.cache_eval(low, v);
        v
    }

    /// The board profile's evaluation of a null-window node: from the cache
    /// if there, else material and tables alone ([`lazy`]) when they lie
    /// [`BOARD_NULL_WINDOW_LAZY_MARGIN`] or more from `beta`, else the full evaluation. Also
    /// whether the score is the full evaluation's.
    #[inline(always)]
    fn evaluate_lazy(&mut self, pos: &super::board::Position, beta: Score) -> (Score, bool) {
        let low = pos.key() as u32;
        if let Some(v) = self.cached(low) {
            return (v, true);
        }
        let l = lazy(pos);
        if (l - beta).abs() >= BOARD_NULL_WINDOW_LAZY_MARGIN {
            return (l, false);
        }
        let v = Self::evaluate(pos);
        self.cache_eval(low, v);
        (v, true)
    }

    /// Notes `v` as the evaluation of the position whose key's low half is
    /// `low` (kept if it fits in the entry's 14 bits: within ±8,191).
    #[inline(always)]
    fn cache_eval(&mut self, low: u32, v: Score) {
        if (-8192..8192).contains(&v) {
            self.eval_cache[eval_slot(low)] = eval_tag(low) | (v as u32 & 0x3FFF);
        }
    }

    /// Whether the request reads the transposition table's entries of the
    /// earlier requests ([`kept`]; never in the board profile).
    #[inline(always)]
    fn kept(&self) -> bool {
        kept(Self::HOST, &self.limits)
    }

    /// The transposition table's entry for `key` that the request reads.
    #[inline(always)]
    fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        if self.kept() {
            self.tt.probe::<true>(key, ply)
        } else {
            self.tt.probe::<false>(key, ply)
        }
    }

    /// Whether `n` is expected to fail high: never in the board profile, whose
    /// reductions do not look at it.
    #[inline(always)]
    fn cut(n: &Node) -> bool {
        Self::HOST && n.entry.cut()
    }

    /// Where the continuation counters after the move that led to `g`'s
    /// position start ([`History::cont_base`]); `None` in the board profile.
    #[inline]
    fn cont(&self, g: &Xiangqi) -> Option<usize> {
        if Self::HOST {
            self.history.cont_base(previous(g))
        } else {
            None
        }
    }

    /// A searcher with empty tables over the move stack `moves` and the
    /// transposition table `tt`. `poll` is asked every `POLL_EVERY` nodes
    /// whether to stop, and told about every completed iteration.
    pub fn new(
        limits: Limits,
        moves: &'t mut [u64],
        history: &'t mut [u64],
        tt: Tt<'t>,
        poll: &'p mut dyn Poll,
    ) -> Self {
        const { assert!(PVT == PV * (PV + 1) / 2, "PVT is the triangle of PV") };
        let (left, mark) = countdown(0, limits.nodes);
        Self {
            tt,
            moves,
            killers: [[0; 2]; PLY],
            evals: [NO_EVAL as i16; PLY],
            history: History::new(history),
            pv: [Move::NULL; PVT],
            pv_len: [0; PV],
            left,
            mark,
            limits,
            aborted: false,
            root_best: Move::NULL,
            listed: [(0, 0); MAX_EXCLUDE],
            only: false,
            poll,
            eval_cache: [0; EVAL_CACHE],
        }
    }

    /// The root moves the search may play (at most [`MAX_EXCLUDE`] listed; the
    /// rest are ignored).
    pub fn restrict_root(&mut self, roots: RootList<'_>) {
        for (slot, &mv) in self.listed.iter_mut().zip(roots.moves) {
            *slot = mv;
        }
        self.only = roots.only;
    }

    /// Removes the excluded root moves from `moves[base..end]` (keeping the
    /// others in order); returns the new end. (Out of line: inlined, its
    /// loads were hoisted into every call of [`Self::next_staged`].)
    #[inline(never)]
    fn drop_excluded(&mut self, base: usize, end: usize) -> usize {
        if self.lists_nothing() {
            return end;
        }
        let mut kept = base;
        for i in base..end {
            let word = self.moves[i];
            if !self.excluded(unpack(word)) {
                self.moves[kept] = word;
                kept += 1;
            }
        }
        kept
    }

    /// Whether `mv` is a root move the request left out. (Out of line, as
    /// [`Self::drop_excluded`]: only the root asks.)
    #[inline(never)]
    fn excluded(&self, mv: Move) -> bool {
        if self.lists_nothing() {
            return false;
        }
        self.listed.contains(&(mv.from, mv.to)) != self.only
    }

    /// Whether the request leaves every root move to the search (most list
    /// nothing; the list is filled from its start).
    #[inline]
    fn lists_nothing(&self) -> bool {
        !self.only && self.listed[0] == (0, 0)
    }

    /// Counts a node; whether the search must stop. (Inlined: the call
    /// cost more than the 8 bytes it adds to `prepare`'s frame.)
    /// A countdown to the next node that polls or reaches the node limit:
    /// most nodes pay one decrement and one test, not the 64-bit count and
    /// its two tests.
    #[inline(always)]
    fn visit(&mut self) -> bool {
        self.left -= 1;
        if self.left == 0 {
            self.checkpoint();
        }
        self.aborted
    }

    /// The nodes visited so far.
    fn nodes(&self) -> u64 {
        self.mark - u64::from(self.left)
    }

    /// The node [`Self::visit`] counted down to: stops at the node limit,
    /// polls every [`POLL_EVERY`] nodes, and counts down to the next such node.
    #[inline(never)]
    fn checkpoint(&mut self) {
        let nodes = self.mark;
        if self.limits.nodes != 0 && nodes >= self.limits.nodes {
            self.aborted = true;
        }
        if nodes.is_multiple_of(POLL_EVERY) && self.poll.poll(nodes) {
            self.aborted = true;
        }
        (self.left, self.mark) = countdown(nodes, self.limits.nodes);
    }

    /// (A function of its own: inlined, its index arithmetic grew the move
    /// loop's frame, which every ply of the recursion carries.)
    #[inline(never)]
    fn set_pv(&mut self, ply: usize, mv: Move) {
        if ply >= PV {
            return;
        }
        let at = pv_row(PV, ply);
        self.pv[at] = mv;
        let mut len = 1;
        if ply + 1 < PV {
            // Row `ply` holds `PV - ply` moves: the first `PV - 1 - ply` of
            // the child's line follow the move.
            let child = usize::from(self.pv_len[ply + 1]).min(PV - 1 - ply);
            let from = pv_row(PV, ply + 1);
            for i in 0..child {
                self.pv[at + 1 + i] = self.pv[from + i];
                len += 1;
            }
        }
        self.pv_len[ply] = len as u8;
    }

    /// Adds `bonus` to `mv`'s counter (and its continuation counter), with
    /// gravity. (Inlined into [`Self::reward`], its only caller.)
    #[inline(always)]
    fn nudge_history(&mut self, mv: Move, bonus: i32, cont: Option<usize>) {
        let i = History::index(mv);
        self.nudge_counter(i, bonus);
        if let Some(c) = cont {
            self.nudge_counter(c + i, bonus);
        }
    }

    #[inline(always)]
    fn nudge_counter(&mut self, i: usize, bonus: i32) {
        let h = self.history.get(i);
        let h = h + bonus - h * bonus.abs() / HISTORY_MAX;
        self.history.set(i, h.clamp(-HISTORY_MAX, HISTORY_MAX));
    }

    /// A quiet move caused a cut-off: killer, history bonus, and maluses for
    /// the quiet moves tried before it (`moves[base..at]` and `extra`, the
    /// hash move and killers tried before the quiet moves were generated; 0
    /// for none). Of `moves[base..at]` only those ordered at least as high
    /// as the cut-off move (`moves[at]`) count: all of them, as picking takes
    /// the best first, but for the moves a cut to the checks set aside
    /// unpicked ([`Self::cut_to_checks`]), of which those that would have
    /// been picked before it.
    #[inline(never)]
    fn reward(
        &mut self,
        mv: Move,
        depth: i32,
        ply: usize,
        (base, at): (usize, usize),
        extra: [u32; 2],
        cont: Option<usize>,
    ) {
        let bonus = (depth * depth).min(400);
        self.nudge_history(mv, bonus, cont);
        let score = |w: u64| (w >> 32) as i32;
        let floor = self.moves.get(at).map_or(i32::MIN, |&w| score(w));
        for i in base..at {
            let tried = unpack(self.moves[i]);
            if tried.captured == 0 && tried != mv && score(self.moves[i]) >= floor {
                self.nudge_history(tried, -bonus, cont);
            }
        }
        for word in extra {
            let tried = unpack(u64::from(word));
            if word != 0 && tried.captured == 0 && tried != mv {
                self.nudge_history(tried, -bonus, cont);
            }
        }
        let word = packed(mv);
        if ply < PLY && self.killers[ply][0] != word {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = word;
        }
    }

    /// Generates into the stack at `base`; returns the count, or `None` when
    /// the moves do not all fit.
    #[inline]
    fn generate(&mut self, g: &Xiangqi, base: usize, quiet: bool) -> Option<usize> {
        let mut sink = Sink::new(self.moves.get_mut(base..)?);
        g.position().pseudo_moves(&mut sink, quiet);
        (!sink.overflowed()).then_some(sink.len())
    }

    /// Generates the quiet moves that give check alone
    /// ([`Position::quiet_checks`](super::board::Position::quiet_checks)) into
    /// the stack at `base`; returns the count, or `None` when they do not all
    /// fit.
    #[inline]
    fn generate_checks(&mut self, g: &Xiangqi, base: usize) -> Option<usize> {
        let mut sink = Sink::new(self.moves.get_mut(base..)?);
        g.position().quiet_checks(&mut sink);
        (!sink.overflowed()).then_some(sink.len())
    }

    /// Generates the quiet moves alone into the stack at `base`; returns the
    /// count, or `None` when they do not all fit.
    #[inline]
    fn generate_quiet(&mut self, g: &Xiangqi, base: usize) -> Option<usize> {
        let mut sink = Sink::new(self.moves.get_mut(base..)?);
        g.position().quiet_moves(&mut sink);
        (!sink.overflowed()).then_some(sink.len())
    }

    /// Whether the killer packed in `word` is a move of this position: one
    /// of the side to move's pseudo-legal quiet moves. (A `bool` in a
    /// register: an `Option<Move>` came back through memory on the
    /// Cortex-M0.)
    #[inline(never)]
    fn is_killer_move(g: &Xiangqi, word: u32) -> bool {
        let mv = unpack(u64::from(word));
        let pos = g.position();
        word != 0
            && pos.at(mv.from) == mv.piece
            && pos.at(mv.to) == 0
            && slot_color(mv.piece) == pos.side()
            && pos.has_move(mv.piece, mv.from, mv.to)
    }

    /// The next move of a node's staged order (see [`Stage`]) after its
    /// hash move, packed; [`STAGED_END`] when none is left, [`STAGED_OVERFLOW`]
    /// when generated moves do not fit in the move stack. (A word, returned in
    /// a register: a `Result<Option<Move>, ()>` went through memory on the
    /// Cortex-M0.)
    #[inline(never)]
    fn next_staged(&mut self, g: &Xiangqi, p: &mut Picker, ply: usize) -> u32 {
        loop {
            match p.stage {
                Stage::All | Stage::Captures => {
                    let all = p.stage == Stage::All;
                    let base = usize::from(p.capture);
                    let Some(n) = self.generate(g, base, all) else {
                        return STAGED_OVERFLOW;
                    };
                    if all {
                        self.order(g, base, n, p.hash(), ply);
                    } else {
                        self.order_stage_captures(g, base, n, p.hash());
                    }
                    let mut end = base + n;
                    if all && ply == 0 {
                        end = self.drop_excluded(base, end);
                    }
                    p.end = end as u16;
                    p.captures_end = p.end;
                    p.stage = if all {
                        Stage::AllPick
                    } else {
                        Stage::GoodCaptures
                    };
                }
                Stage::AllPick | Stage::BadCaptures => {
                    let end = if p.stage == Stage::AllPick {
                        p.end
                    } else {
                        p.captures_end
                    };
                    if p.capture >= end {
                        if p.stage == Stage::BadCaptures {
                            p.stage = Stage::Done;
                        }
                        return STAGED_END;
                    }
                    let mut after = usize::from(p.after);
                    let mv = self.pick(usize::from(p.capture), usize::from(end), &mut after);
                    p.after = after as u16;
                    p.capture += 1;
                    if p.first != packed(mv) && p.may_answer(g, mv) {
                        return packed(mv);
                    }
                }
                Stage::GoodCaptures => {
                    if p.capture < p.captures_end {
                        let mut after = usize::from(p.after);
                        let at = usize::from(p.capture);
                        let mv = self.pick(at, usize::from(p.captures_end), &mut after);
                        p.after = after as u16;
                        if (self.moves[at] >> 32) as i32 >= GOOD_CAPTURE {
                            p.capture += 1;
                            if p.first != packed(mv) && p.may_answer(g, mv) {
                                return packed(mv);
                            }
                            continue;
                        }
                    }
                    p.after = 0;
                    p.stage = Stage::Killers;
                }
                Stage::Killers => {
                    let k = usize::from(p.killer);
                    if k >= 2 {
                        p.stage = Stage::Quiets;
                        continue;
                    }
                    p.killer += 1;
                    let word = p.killers[k];
                    if word != p.first && Self::is_killer_move(g, word) {
                        return word;
                    }
                    // Not a move here: not tried, so no malus.
                    p.killers[k] = 0;
                }
                Stage::Quiets => {
                    let Some(n) = self.generate_quiet(g, usize::from(p.end)) else {
                        return STAGED_OVERFLOW;
                    };
                    self.order_quiets(g, usize::from(p.end), n, p.hash(), ply);
                    p.quiet = p.end;
                    p.end += n as u16;
                    p.stage = Stage::QuietPick;
                }
                Stage::CutToChecks => self.cut_to_checks(g, p),
                Stage::QuietPick | Stage::CheckPick => {
                    if p.quiet >= p.end {
                        p.stage = Stage::BadCaptures;
                        continue;
                    }
                    let mut after = usize::from(p.after_quiet);
                    let w = self.pick_word(usize::from(p.quiet), usize::from(p.end), &mut after);
                    p.after_quiet = after as u16;
                    p.quiet += 1;
                    // The hash move and the killers, tried before, are the
                    // quiet moves scored above any history (`order_quiets`:
                    // the node's killers have not changed since the picker
                    // took them, and one that is no move here is not among
                    // the moves generated): one test passes them over.
                    if ((w >> 32) as i32) < KILLER_SCORES[1] && p.may_answer(g, unpack(w)) {
                        return w as u32;
                    }
                }
                Stage::Done => return STAGED_END,
            }
        }
    }

    /// [`Self::next_staged`] as a move (`Err` for an overflow), for the tests.
    #[cfg(test)]
    fn next_staged_move(
        &mut self,
        g: &Xiangqi,
        p: &mut Picker,
        ply: usize,
    ) -> Result<Option<Move>, ()> {
        match self.next_staged(g, p, ply) {
            STAGED_END => Ok(None),
            STAGED_OVERFLOW => Err(()),
            word => Ok(Some(unpack(u64::from(word)))),
        }
    }

    /// The move loop asks for this ([`Stage::CutToChecks`]) when it prunes
    /// every quiet move still to come (but the hash move and the killers)
    /// unless it may give check: the quiet moves not yet picked are cut
    /// down, in their order, to the ones that may
    /// ([`Position::may_give_check`](super::board::Position::may_give_check)),
    /// so the others are never picked. The others go before them, among the
    /// moves picked already, where a cut-off's maluses find them as they
    /// found them when every move was picked (see [`Self::reward`]).
    #[inline(never)]
    fn cut_to_checks(&mut self, g: &Xiangqi, p: &mut Picker) {
        let pos = g.position();
        // The side to move's row of the check table, found once.
        let view = pos.check_view(pos.side());
        // From the end down, each move that may check swapped to the end of
        // those kept so far: they keep their order.
        let quiet = usize::from(p.quiet);
        let list = &mut self.moves[quiet..usize::from(p.end)];
        let mut kept = list.len();
        for i in (0..list.len()).rev() {
            let word = list[i];
            if pos.may_give_check_in(view, unpack(word)) {
                kept -= 1;
                list[i] = list[kept];
                list[kept] = word;
            }
        }
        p.quiet = (quiet + kept) as u16;
        // What stays keeps its order, but not the positions `pick` carried.
        p.after_quiet = 0;
        p.stage = Stage::CheckPick;
    }

    /// The hash move `from`–`to` as a move of this position, if it is one
    /// of the side to move's pseudo-legal moves (a key collision can offer
    /// anything).
    #[inline(never)]
    fn hash_move(g: &Xiangqi, from: Square, to: Square) -> Option<Move> {
        let pos = g.position();
        let piece = pos.at(from);
        if piece == 0 || slot_color(piece) != pos.side() {
            return None;
        }
        pos.has_move(piece, from, to).then(|| Move {
            from,
            to,
            piece,
            captured: pos.at(to),
        })
    }

    /// [`Self::play`] unrecorded, for quiescence: a call of its own, so that
    /// quiescence's recursive frame stays small (the recorded play is
    /// inlined into the move loop, whose nodes are few on the stack).
    #[inline(never)]
    fn play_unrecorded(g: &mut Xiangqi, mv: Move, in_check: bool, checker: Square) -> Option<bool> {
        Self::play::<false>(g, mv, in_check, checker)
    }

    /// Plays `mv` if it is legal (the mover's king not left attacked;
    /// `in_check`: the mover is in check now) and tells whether it checks.
    /// `RECORDED`: with [`Xiangqi::push`] (take back with `pop`), else with
    /// [`Xiangqi::play_unrecorded`], for quiescence (take back with
    /// `take_back_unrecorded`). In check, `checker` is the piece giving it,
    /// or [`ANSWERS`] for a move the picker found may answer it
    /// ([`Picker::may_answer`]: the test is not made again).
    #[inline(always)]
    fn play<const RECORDED: bool>(
        g: &mut Xiangqi,
        mv: Move,
        in_check: bool,
        checker: Square,
    ) -> Option<bool> {
        let push = |g: &mut Xiangqi| {
            if RECORDED {
                g.push(mv);
            } else {
                g.play_unrecorded(mv);
            }
        };
        if in_check {
            // Most moves fail to answer a check: those that cannot are
            // dropped at once (the king's lines and surroundings untouched,
            // or the checker on `checker` left checking), the others probed
            // before playing.
            if checker != ANSWERS
                && (!g.position().may_evade(mv) || g.position().keeps_check(mv, checker))
            {
                return None;
            }
            let check = g.probe_move(mv, true)?;
            push(g);
            return Some(check);
        }
        let me = g.position().side();
        let risky = g.position().may_expose(mv);
        push(g);
        // Neither king was attacked before the move (the mover is not in
        // check here): only what the move changed is tested.
        if risky && g.position().attacked_after(me, mv) {
            if RECORDED {
                g.pop();
            } else {
                g.take_back_unrecorded(mv);
            }
            return None;
        }
        let pos = g.position();
        Some(pos.may_give_check(mv) && pos.attacked_after(me ^ 1, mv))
    }

    /// Whether capture `mv` is ordered among the good captures (the main
    /// search; quiescence uses the exchange test): it takes at least as much
    /// as it risks, or the piece taken is not defended.
    fn good_capture(g: &Xiangqi, mv: Move) -> bool {
        let victim = slot_value(mv.captured);
        let attacker = slot_value(mv.piece);
        victim >= attacker || !g.position().attacked_by(mv.to, slot_color(mv.captured))
    }

    /// The killers of `ply` (none past the deepest ply kept).
    #[inline(always)]
    fn killers_at(&self, ply: usize) -> [u32; 2] {
        self.killers.get(ply).copied().unwrap_or([0; 2])
    }

    /// A capture's ordering score: MVV-LVA, above the quiet moves when its
    /// exchange does not lose ([`Self::good_capture`]), below them when it does.
    #[inline(always)]
    fn capture_score(g: &Xiangqi, mv: Move) -> i32 {
        let mvv = victim_score(mv.captured) - slot_kind(mv.piece) as i32;
        if Self::good_capture(g, mv) {
            CAPTURE_SCORE + mvv
        } else {
            -CAPTURE_SCORE + mvv
        }
    }

    /// Scores `moves[base..base + n]` for picking: the hash move (and at the
    /// root the previous iteration's best) first, then captures by
    /// [`Self::capture_score`], the killers, and quiet moves by history.
    #[inline(never)]
    fn order(
        &mut self,
        g: &Xiangqi,
        base: usize,
        n: usize,
        hash: Option<(Square, Square)>,
        ply: usize,
    ) {
        let killers = self.killers_at(ply);
        // The hash move by its squares (the low 16 bits of a packed move), the
        // root's best move by its whole word (no real move packs to 0 or to
        // `u32::MAX`).
        let hash16 = hash_squares(hash);
        let root = if ply == 0 {
            packed(self.root_best)
        } else {
            u32::MAX
        };
        let cont = self.cont(g);
        let history = &self.history;
        score_moves(self.moves, base, n, |word| {
            if word & 0xFFFF == hash16 || word == root {
                HASH_SCORE
            } else if word >> 24 != 0 {
                Self::capture_score(g, unpack(u64::from(word)))
            } else {
                killer_or_quiet_score(history, cont, killers, word)
            }
        });
    }

    /// [`Self::order`] for the captures' stage (below the root, captures
    /// only): the same scores without the tests for the root's best move
    /// and for the killers.
    #[inline(always)]
    fn order_stage_captures(
        &mut self,
        g: &Xiangqi,
        base: usize,
        n: usize,
        hash: Option<(Square, Square)>,
    ) {
        let hash16 = hash_squares(hash);
        score_moves(self.moves, base, n, |word| {
            debug_assert!(word >> 24 != 0);
            if word & 0xFFFF == hash16 {
                HASH_SCORE
            } else {
                Self::capture_score(g, unpack(u64::from(word)))
            }
        });
    }

    /// [`Self::order`] for the quiet moves' stage (below the root, quiet
    /// moves only): the same scores without the tests for the root's best
    /// move and for captures.
    #[inline(never)]
    fn order_quiets(
        &mut self,
        g: &Xiangqi,
        base: usize,
        n: usize,
        hash: Option<(Square, Square)>,
        ply: usize,
    ) {
        debug_assert!(ply > 0);
        let killers = self.killers_at(ply);
        let hash16 = hash_squares(hash);
        let cont = self.cont(g);
        let history = &self.history;
        score_moves(self.moves, base, n, |word| {
            debug_assert!(word >> 24 == 0);
            if word & 0xFFFF == hash16 {
                HASH_SCORE
            } else {
                killer_or_quiet_score(history, cont, killers, word)
            }
        });
    }

    /// Captures ordered by MVV-LVA only (quiescence). (Inlined: quiescence's
    /// frame stays 160 bytes, and the call cost more.)
    #[inline(always)]
    fn order_captures(&mut self, base: usize, n: usize) {
        let history = &self.history;
        let Some(slice) = self.moves.get_mut(base..base + n) else {
            return;
        };
        for w in slice.iter_mut() {
            let mv = unpack(*w);
            let score = if mv.captured != 0 {
                victim_score(mv.captured) - slot_kind(mv.piece) as i32
            } else {
                history.get(History::index(mv)) / 4 - 4000
            };
            *w = (*w & 0xFFFF_FFFF) | (u64::from(score as u32) << 32);
        }
    }

    /// Swaps the best-scored remaining move to position `i` and returns it.
    /// (The first of equal scores wins, so the order is the same whatever
    /// the scan's form; one slice and an iterator keep bounds checks out of
    /// the loop on the board.)
    ///
    /// `after` carries the previous pick of the same loop (the one that put
    /// its move at `i - 1`): one past the position that move was taken from,
    /// 0 before the first pick. Every move before that position scores lower
    /// than it (it was the first best, and the move swapped into its place
    /// scores lower too), so the next move with its score after it, if any,
    /// is the first best now: only when a score runs out are all remaining
    /// moves scanned.
    #[inline(always)]
    fn pick(&mut self, i: usize, end: usize, after: &mut usize) -> Move {
        unpack(self.pick_word(i, end, after))
    }

    /// [`Self::pick`]'s move with its ordering score (the stack's word: the
    /// score in the high half); 0 where `pick` gives [`Move::NULL`].
    #[inline(always)]
    fn pick_word(&mut self, i: usize, end: usize, after: &mut usize) -> u64 {
        let score = |w: u64| (w >> 32) as i32;
        if *after != 0
            && let Some(&previous) = self.moves.get(i.wrapping_sub(1))
            && let Some(rest) = self.moves.get(*after..end)
            && let Some(k) = first_scoring(rest, score(previous))
        {
            let best = *after + k;
            self.moves.swap(i, best);
            *after = best + 1;
            return self.moves[i];
        }
        let Some(slice) = self.moves.get_mut(i..end) else {
            return 0;
        };
        if slice.is_empty() {
            return 0;
        }
        // The first move with the top score, in one pass, two moves a step:
        // a pair is looked into only when one of it beats the top so far.
        let mut top = score(slice[0]);
        let mut best = 0;
        let rest = &slice[1..];
        let mut pairs = rest.chunks_exact(2);
        let mut k = 1;
        for pair in &mut pairs {
            let (a, b) = (score(pair[0]), score(pair[1]));
            if a > top || b > top {
                if a > top {
                    top = a;
                    best = k;
                }
                if b > top {
                    top = b;
                    best = k + 1;
                }
            }
            k += 2;
        }
        if let [w] = pairs.remainder()
            && score(*w) > top
        {
            best = k;
        }
        slice.swap(0, best);
        *after = i + best + 1;
        slice[0]
    }

    /// Quiescence: the captures (in check, every evasion) from the stand-pat
    /// score. With `CHECKS` (the host's horizon node, the main search's
    /// depth 0), besides, the quiet moves that give check when the captures
    /// left the score below beta ([`Self::generate_checks`]), each answered by
    /// every evasion; the plies below are captures alone.
    fn quiesce<const CHECKS: bool>(
        &mut self,
        g: &mut Xiangqi,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        base: usize,
        in_check: bool,
    ) -> Score {
        #[cfg(test)]
        super::stack_probe::note();
        if ply < PV {
            self.pv_len[ply] = 0;
        }
        if self.visit() {
            return 0;
        }
        // In check there is no standing pat: every evasion is tried, and none
        // means mate (a capture that checks is not "just material").
        let in_check = in_check && ply + 1 < PLY;
        let stand = if in_check {
            -INFINITY
        } else {
            // The lazy evaluation ([`Self::lazy`]) decides when it is far outside the
            // window; the full evaluation only near it.
            let lazy = Self::lazy(g.position());
            let margin = Self::lazy_margin(g.position());
            if lazy - margin >= beta {
                return lazy;
            }
            let stand = if lazy + margin <= alpha {
                lazy + margin
            } else {
                self.evaluate_cached(g.position())
            };
            if stand >= beta || ply + 1 >= PLY {
                return stand;
            }
            alpha = alpha.max(stand);
            stand
        };
        let Some(n) = self.generate(g, base, in_check) else {
            return if in_check {
                self.evaluate_cached(g.position())
            } else {
                stand
            };
        };
        self.order_captures(base, n);
        let mut best = if in_check {
            -(MATE - ply as Score)
        } else {
            stand
        };
        // A piece giving check, found once: most evasions leave it checking.
        let checker = if in_check {
            g.position().checker(g.position().side())
        } else {
            NO_SQUARE
        };
        let mut after = 0;
        for i in base..base + n {
            let mv = self.pick(i, base + n, &mut after);
            if !in_check {
                // The captures come by victim, the most valuable first
                // (`order_captures`: `VICTIM_SCORE` rises with `VALUE`), and
                // alpha only rises: when one fails this test, all the rest do.
                let victim = slot_value(mv.captured);
                if stand + victim + DELTA <= alpha {
                    break;
                }
                // A capture that loses material in the exchange on its
                // square is left out, and one whose exchange cannot bring the
                // score near alpha (the exchange wins at least the victim
                // less the capturer: only when that does not settle it is the
                // exchange played out).
                let sure = victim - slot_value(mv.piece);
                if (sure < 0 || stand + sure + DELTA <= alpha)
                    && !g.see_at_least(mv, (alpha - stand - DELTA + 1).max(0))
                {
                    continue;
                }
            }
            let Some(check) = Self::play_unrecorded(g, mv, in_check, checker) else {
                continue;
            };
            let score = -self.quiesce::<false>(g, ply + 1, -beta, -alpha, base + n, check);
            g.take_back_unrecorded(mv);
            if self.aborted {
                return 0;
            }
            if raise(&mut best, &mut alpha, score, beta) {
                break;
            }
        }
        if CHECKS && !in_check && best < beta {
            let base = base + n;
            let Some(n) = self.generate_checks(g, base) else {
                return best;
            };
            for i in base..base + n {
                let mv = unpack(self.moves[i]);
                let Some(check) = Self::play::<false>(g, mv, false, NO_SQUARE) else {
                    continue;
                };
                let score = -self.quiesce::<false>(g, ply + 1, -beta, -alpha, base + n, check);
                g.take_back_unrecorded(mv);
                if self.aborted {
                    return 0;
                }
                if raise(&mut best, &mut alpha, score, beta) {
                    break;
                }
            }
        }
        best
    }

    #[allow(clippy::too_many_arguments)] // the classic PVS signature, kept readable
    #[inline(never)] // its node stays off the callers' frames
    fn search(
        &mut self,
        g: &mut Xiangqi,
        depth: i32,
        ply: usize,
        alpha: Score,
        beta: Score,
        base: usize,
        in_check: bool,
        entry: Entry,
    ) -> Score {
        let mut node = Node::new(depth, ply, alpha, beta, base, in_check, entry);
        match self.prepare(g, &mut node) {
            Some(score) => score,
            None => self.expand(g, &node),
        }
    }

    /// Everything before the move loop: rules, mate distance, extension,
    /// quiescence at the horizon, the transposition table, reverse futility,
    /// null move and internal iterative deepening. `Some` is the node's score.
    /// (Kept apart from [`Self::expand`] so the recursion's frames stay small
    /// on the board.)
    #[inline(never)]
    fn prepare(&mut self, g: &mut Xiangqi, n: &mut Node) -> Option<Score> {
        #[cfg(test)]
        super::stack_probe::note();
        let ply = n.ply;
        if ply < PV {
            self.pv_len[ply] = 0;
        }
        if ply > 0 {
            if let Some(v) = g.repetition_in_place(ply, ply < JUDGE_PLY) {
                return Some(mate_score(v, ply));
            }
            if g.quiet() >= NATURAL_LIMIT {
                return Some(0);
            }
            // Mate-distance pruning: no line from here beats a mate found nearer the root.
            n.alpha = n.alpha.max(-(MATE - ply as Score));
            n.beta = n.beta.min(MATE - ply as Score - 1);
            if n.alpha >= n.beta {
                return Some(n.alpha);
            }
        }
        if n.in_check && ply + 2 < PLY {
            n.depth += 1;
        }
        if n.depth <= 0 || ply + 2 >= PLY {
            return Some(if Self::HOST {
                self.quiesce::<true>(g, ply, n.alpha, n.beta, n.base, n.in_check)
            } else {
                self.quiesce::<false>(g, ply, n.alpha, n.beta, n.base, n.in_check)
            });
        }
        if self.visit() {
            return Some(0);
        }
        let key = g.position().key();
        if let Some(hit) = self.probe(key, ply) {
            n.hash = hit.mv;
            if !n.pv && hit.depth >= n.depth {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= n.beta,
                    Bound::Upper => hit.score <= n.alpha,
                };
                if cut {
                    return Some(hit.score);
                }
            }
        }
        // The static evaluation serves reverse futility, the null move and
        // futility pruning (non-PV nodes), and tells the nodes two plies on
        // whether their side's position is improving. The board's
        // null-window nodes far from beta take material and tables alone
        // (not cached: the cache holds full evaluations only).
        let mut exact = true;
        if !n.in_check {
            n.eval = if Self::HOST || n.pv {
                self.evaluate_cached(g.position())
            } else {
                let (v, e) = self.evaluate_lazy(g.position(), n.beta);
                exact = e;
                v
            };
        }
        if ply < PLY {
            self.evals[ply] = n.eval.clamp(-INFINITY, INFINITY) as i16;
        }
        if ply >= 2 && ply < PLY && n.eval != NO_EVAL && self.evals[ply - 2] != NO_EVAL as i16 {
            n.improving = n.eval > Score::from(self.evals[ply - 2]);
        }
        let (depth, beta) = (n.depth, n.beta);
        if !n.pv && !n.in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta with little depth left. Not
            // for a side without rook, horse or cannon: it may have no legal
            // move (which loses), and only its moves show that.
            if depth <= 4
                && n.eval - REVERSE_FUTILITY * (depth - i32::from(n.improving)).max(1) >= beta
                && has_pieces(g.position(), g.position().side())
            {
                return Some(n.eval);
            }
            // Null move. The reduced search keeps one full-width ply: the
            // opponent's quiet mating checks are then seen, where quiescence
            // (captures only) would stand pat on them.
            if n.entry.null_ok()
                && depth >= 2
                && n.eval >= beta
                && has_pieces(g.position(), g.position().side())
            {
                let r = 3 + depth / 4 + ((n.eval - beta) / 200).min(2);
                let reduced = (depth - 1 - r).max(1);
                g.push(Move::NULL);
                // The pass changes only the side to move, which turns the
                // evaluation around the tempo: noted for the node after it.
                let pos = g.position();
                if exact {
                    self.cache_eval(pos.key() as u32, 2 * tempo(pos) - n.eval);
                }
                let score = -self.search(
                    g,
                    reduced,
                    ply + 1,
                    -beta,
                    -beta + 1,
                    n.base,
                    false,
                    Entry::new(false, Self::HOST && !Self::cut(n)),
                );
                g.pop();
                if self.aborted {
                    return Some(0);
                }
                if score >= beta {
                    return Some(if score >= MATE_BOUND { beta } else { score });
                }
            }
        }
        // Internal iterative deepening: a PV node without a hash move finds one.
        if n.hash.is_none() && n.pv && depth >= 5 {
            self.search(
                g,
                depth - 2,
                ply,
                n.alpha,
                beta,
                n.base,
                n.in_check,
                Entry::new(false, Self::cut(n)),
            );
            if self.aborted {
                return Some(0);
            }
            n.hash = self.probe(key, ply).and_then(|h| h.mv);
        }
        None
    }

    /// The move loop of [`Self::search`] after [`Self::prepare`].
    #[inline(never)]
    fn expand(&mut self, g: &mut Xiangqi, node: &Node) -> Score {
        let Node {
            depth,
            ply,
            mut alpha,
            beta,
            base,
            in_check,
            pv: pv_node,
            eval,
            improving,
            hash,
            ..
        } = *node;
        let cut = Self::cut(node);
        // The hash move is tried before any move is generated: most cut-offs
        // come from it.
        let first = hash
            .and_then(|(from, to)| Self::hash_move(g, from, to))
            .filter(|&m| ply > 0 || !self.excluded(m));
        let mut pending = first;
        let killers = self.killers_at(ply);
        let mut picker = Picker::new(ply, base, first, killers);
        // No pruning of quiet moves against a side without rook, horse or
        // cannon: a quiet move that leaves it without a legal move mates.
        let prune = !pv_node
            && !in_check
            && depth <= 3
            && has_pieces(g.position(), g.position().side() ^ 1);
        let futile = prune && eval + FUTILITY[depth as usize] <= alpha;
        // Fewer quiet moves before pruning where the position is not improving.
        let late_moves = match (prune, improving) {
            (false, _) => 0,
            (true, true) => Self::LATE_MOVES[depth as usize],
            (true, false) => Self::LATE_MOVES[depth as usize] * 2 / 3,
        };
        let (mut best, mut best_move) = (-INFINITY, 0u32);
        let (mut legal, mut quiets) = (0u16, 0u16);
        let alpha0 = alpha;
        let cont = self.cont(g);
        // A piece giving check, found once: most evasions leave it checking.
        let checker = if in_check {
            g.position().checker(g.position().side())
        } else {
            NO_SQUARE
        };
        picker.in_check = in_check;
        picker.checker = checker;
        loop {
            let mut passed = checker;
            let mv = if let Some(mv) = pending.take() {
                mv
            } else {
                passed = ANSWERS;
                match self.next_staged(g, &mut picker, ply) {
                    STAGED_END => break,
                    STAGED_OVERFLOW => {
                        if legal == 0 {
                            return self.quiesce::<false>(g, ply, alpha, beta, base, in_check);
                        }
                        break;
                    }
                    word => unpack(u64::from(word)),
                }
            };
            let next = usize::from(picker.end);
            let quiet = mv.captured == 0;
            let word = packed(mv);
            let killer = word == killers[0] || word == killers[1];
            // A quiet move that will be pruned unless it checks: one that
            // cannot check is skipped unplayed, the others have legality and
            // check probed without playing them.
            if prune && quiet && !killer && best > -MATE_BOUND && (futile || quiets >= late_moves) {
                // The condition stays true for every quiet move still to
                // come: those that cannot check need not be picked.
                if picker.stage == Stage::QuietPick {
                    picker.stage = Stage::CutToChecks;
                }
                if !g.position().may_give_check(mv) {
                    quiets += 1;
                    continue;
                }
                match g.probe_possible_check(mv) {
                    None => continue,
                    Some(false) => {
                        legal += 1;
                        quiets += 1;
                        continue;
                    }
                    Some(true) => {}
                }
            }
            let Some(check) = Self::play::<true>(g, mv, in_check, passed) else {
                continue;
            };
            legal += 1;
            let special = check || !quiet || killer;
            if quiet {
                quiets += 1;
            }
            // A quiet move played here is a check, or one the pruning above
            // let through (not futile, fewer than `late_moves` quiet moves
            // before it): never pruned after playing.
            debug_assert!(
                !(prune && !special && best > -MATE_BOUND && (futile || quiets > late_moves))
            );
            // Principal-variation search: the first move with the full window;
            // the others with a null window (reduced when late and quiet),
            // searched again at full depth, then with the full window, while
            // they beat alpha.
            let full_depth = depth - 1;
            let mut d = full_depth;
            // On the board, no reduction against a side without rook, horse
            // or cannon (the side to move after `mv`), as there is no pruning
            // against it either: the board's quiescence tries captures alone,
            // so a reduced quiet move that prepares a quiet mate (a check the
            // bare side cannot answer) leaves the mate beyond the horizon,
            // where the host's first quiescence ply, with its quiet checks,
            // would see it.
            if legal > 2
                && depth >= 3
                && !special
                && !in_check
                && (Self::HOST || has_pieces(g.position(), g.position().side()))
            {
                d -= (reduction(depth, legal) - i32::from(pv_node)
                    + i32::from(!improving)
                    + 2 * i32::from(cut))
                .clamp(0, full_depth - 1);
            }
            let mut wide = legal == 1;
            let mut score;
            loop {
                let b = if wide { beta } else { alpha + 1 };
                // The child's node type as Stockfish guesses it: a full-window
                // child is a PV node, a reduced one is expected to fail high
                // (a cut node), and a null-window child at full depth takes
                // the opposite of this node's type.
                let child_cut = Self::HOST
                    && if wide {
                        false
                    } else if d < full_depth {
                        true
                    } else {
                        !cut
                    };
                let mut child = Node::new(
                    d,
                    ply + 1,
                    -b,
                    -alpha,
                    next,
                    check,
                    Entry::new(true, child_cut),
                );
                // The child built in this frame and searched by `prepare`
                // and `expand` called from here: no arguments go through the
                // stack and no frame lies between the plies.
                score = -match self.prepare(g, &mut child) {
                    Some(score) => score,
                    None => self.expand(g, &child),
                };
                if self.aborted || score <= alpha || (wide && d == full_depth) {
                    break;
                }
                if d < full_depth {
                    d = full_depth;
                } else if score < beta {
                    wide = true;
                } else {
                    break;
                }
            }
            g.pop();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_move = word;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                    if score >= beta {
                        if quiet {
                            // The quiet moves tried before this one.
                            let (range, extra) = match picker.stage {
                                Stage::AllPick => ((base, usize::from(picker.capture) - 1), [0; 2]),
                                Stage::QuietPick | Stage::CutToChecks | Stage::CheckPick => (
                                    (
                                        usize::from(picker.captures_end),
                                        usize::from(picker.quiet) - 1,
                                    ),
                                    [0; 2],
                                ),
                                // A killer: the hash move and the first
                                // killer (cleared when it was no move here)
                                // were tried before it.
                                Stage::Killers => ((base, base), [picker.first, picker.killers[0]]),
                                // The hash move, tried first.
                                _ => ((base, base), [0; 2]),
                            };
                            self.reward(mv, depth, ply, range, extra, cont);
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
        if best == -INFINITY {
            // Every legal move was pruned as hopeless: fail low.
            return alpha;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let mv = (best_move != 0).then(|| {
            let m = unpack(u64::from(best_move));
            (m.from, m.to)
        });
        if self.kept() {
            self.tt
                .store::<true>(g.position().key(), ply, mv, best, depth, bound);
        } else {
            self.tt
                .store::<false>(g.position().key(), ply, mv, best, depth, bound);
        }
        best
    }

    /// The root's first legal move that may be played. Out of line: its
    /// copy of the position stays off the frame the search runs on top of.
    #[inline(never)]
    fn first_legal(&mut self, g: &Xiangqi) -> Option<Move> {
        let n = self.generate(g, 0, true).unwrap_or(0);
        let mut probe = g.position().clone();
        self.moves[..n]
            .iter()
            .map(|&w| unpack(w))
            .find(|&m| probe.is_legal(m) && !self.excluded(m))
    }

    /// Iterative deepening up to `max_depth` from `g` (left as it was found);
    /// every completed iteration is streamed through [`Poll::info`].
    pub fn run(&mut self, g: &mut Xiangqi, max_depth: u8) -> Iteration {
        let mut result = Iteration {
            best: self.first_legal(g),
            ..Iteration::default()
        };
        if result.best.is_none() {
            result.score = -MATE;
            return result;
        }
        let in_check = g.position().in_check();
        let mut last: Score = 0;
        for depth in 1..=max_depth.max(1) {
            let mut delta = ASPIRATION;
            let (mut lo, mut hi) = if depth >= 4 && last.abs() < MATE_BOUND {
                (last - delta, last + delta)
            } else {
                (-INFINITY, INFINITY)
            };
            let score = loop {
                let s = self.search(g, i32::from(depth), 0, lo, hi, 0, in_check, Entry::ROOT);
                if self.aborted {
                    break s;
                }
                if s <= lo && lo > -INFINITY {
                    lo = (s - delta).max(-INFINITY);
                } else if s >= hi && hi < INFINITY {
                    hi = (s + delta).min(INFINITY);
                } else {
                    break s;
                }
                delta *= 3;
            };
            // A move that beat the others in a cut-short iteration still counts.
            if self.pv_len[0] > 0 {
                self.root_best = self.pv[0];
                result.best = Some(self.root_best);
            }
            if self.aborted {
                break;
            }
            last = score;
            result.score = score;
            result.depth = depth;
            result.nodes = self.nodes();
            result.pv.clear();
            let len = usize::from(self.pv_len[0]).min(PV);
            for &m in &self.pv[..len] {
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
            if !Self::HOST
                && self.limits.ticks > 0
                && self.poll.elapsed_ticks() * 16 >= self.limits.ticks * SOFT_TIME_16THS
            {
                break;
            }
        }
        // A root searched with some of its moves alone has an entry that
        // scores them, not the position: a later host request that keeps the
        // table must not read it (a board request reads its own entries only).
        if Self::HOST && !self.lists_nothing() {
            self.tt.forget(g.position().key());
        }
        result.nodes = self.nodes();
        result
    }
}

/// [`Searcher::visit`]'s countdown from `nodes` visited: the nodes to the
/// next multiple of [`POLL_EVERY`] or to the node `limit` (0: none),
/// whichever comes first, and the count of nodes there.
fn countdown(nodes: u64, limit: u64) -> (u32, u64) {
    let mut next = POLL_EVERY - nodes % POLL_EVERY;
    if limit > nodes {
        next = next.min(limit - nodes);
    }
    (next as u32, nodes + next)
}

/// The hash move by its squares, as the low 16 bits of a packed move
/// compare with them (`u32::MAX`, which no move's bits equal, without one).
#[inline(always)]
fn hash_squares(hash: Option<(Square, Square)>) -> u32 {
    hash.map_or(u32::MAX, |(from, to)| {
        u32::from(from) | (u32::from(to) << 8)
    })
}

/// Scores the moves `moves[base..base + n]`: each packed move (the word's
/// low half) gets `score(move)` in its high half.
#[inline(always)]
fn score_moves(moves: &mut [u64], base: usize, n: usize, mut score: impl FnMut(u32) -> i32) {
    let Some(slice) = moves.get_mut(base..base + n) else {
        return;
    };
    for w in slice.iter_mut() {
        let word = *w as u32;
        *w = u64::from(word) | (u64::from(score(word) as u32) << 32);
    }
}

/// A quiet move's ordering score: its history counter, with a continuation
/// base `cont` the mean of it and its continuation counter (halved to stay
/// within the quiet moves' range).
#[inline(always)]
fn quiet_score(history: &History<'_>, cont: Option<usize>, mv: Move) -> i32 {
    let i = History::index(mv);
    match cont {
        Some(c) => (history.get(i) + history.get(c + i)) / 2,
        None => history.get(i),
    }
}

/// A quiet move's ordering score (`word`, packed) in a node with `killers`:
/// a killer's fixed score, else [`quiet_score`].
#[inline(always)]
fn killer_or_quiet_score(
    history: &History<'_>,
    cont: Option<usize>,
    killers: [u32; 2],
    word: u32,
) -> i32 {
    if word == killers[0] {
        KILLER_SCORES[0]
    } else if word == killers[1] {
        KILLER_SCORES[1]
    } else {
        quiet_score(history, cont, unpack(u64::from(word)))
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
    use crate::game::{Game, Notation};

    /// Runs `f` with a board-profile searcher over fresh tables (no
    /// transposition table).
    fn with_searcher(f: impl FnOnce(&mut Searcher<'_, '_, BOARD_PLY, BOARD_PV, BOARD_PVT>)) {
        with_searcher_over(&mut [0u64; HISTORY_WORDS], f);
    }

    /// [`with_searcher`] with the history counters in `history` (the host
    /// profile's size holds the continuation counters too).
    fn with_searcher_over(
        history: &mut [u64],
        f: impl FnOnce(&mut Searcher<'_, '_, BOARD_PLY, BOARD_PV, BOARD_PVT>),
    ) {
        let mut poll = QuietPoll;
        let mut moves = [0u64; BOARD_MOVE_STACK];
        let mut s = Searcher::<BOARD_PLY, BOARD_PV, BOARD_PVT>::new(
            Limits::default(),
            &mut moves,
            history,
            Tt::new(&mut [], 0),
            &mut poll,
        );
        f(&mut s);
    }

    /// The cached evaluation is the evaluation, for positions reached by
    /// recorded moves and by quiescence's (the key's low half kept alone),
    /// looked up once (a miss) and again (a hit).
    #[test]
    fn the_evaluation_cache_gives_the_evaluation() {
        use crate::games::xiangqi::board::Position;
        with_searcher(|s| {
            let mut buf = [Move::default(); 128];
            for seed in 0..40u64 {
                let mut pos = Position::random_walk(seed, 10 + seed as usize);
                let mut state = seed;
                for _ in 0..6 {
                    for _ in 0..2 {
                        assert_eq!(s.evaluate_cached(&pos), evaluate(&pos));
                    }
                    let n = pos.legal_moves(&mut buf, true);
                    if n == 0 {
                        break;
                    }
                    state = mix(state);
                    pos.make_unkeyed(buf[(state % n as u64) as usize]);
                }
            }
        });
    }

    /// The continuation counters exist only where the arena holds them (the
    /// host profile), follow a real move only, and a cut-off's bonus reaches
    /// both the move's counter and its continuation counter after the
    /// previous move (not the counter after another move).
    #[test]
    fn continuation_counters_follow_the_previous_move() {
        let mut g = Xiangqi::parse_position(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .unwrap();
        let h2e2 = g.parse_move("h2e2").unwrap();
        g.make(h2e2);
        let h9g7 = g.parse_move("h9g7").unwrap();
        let mut small = [0u64; HISTORY_WORDS];
        assert_eq!(History::new(&mut small).cont_base(previous(&g)), None);
        let mut words = std::vec![0u64; HOST_HISTORY_WORDS];
        let history = History::new(&mut words);
        assert_eq!(history.cont_base(Some(Move::NULL)), None);
        let cont = history
            .cont_base(previous(&g))
            .expect("host-sized counters");
        assert_eq!(
            cont,
            History::WORDS * 4 + History::index(h2e2) * History::ENTRIES
        );
        with_searcher_over(&mut words, |s| {
            s.nudge_history(h9g7, 100, Some(cont));
            let i = History::index(h9g7);
            assert_eq!(s.history.get(i), 100);
            assert_eq!(s.history.get(cont + i), 100);
            // After another previous move only the move's own counter counts.
            let other = History::WORDS * 4 + (History::index(h2e2) + 1) * History::ENTRIES;
            assert_eq!(s.history.get(other + i), 0);
        });
    }

    /// Quiescence may not stand pat in check: a checked side is scored by its
    /// evasions, and none is mate (here black is mated by two rooks; standing
    /// pat would call the position "a rook down").
    #[test]
    fn quiescence_in_check_tries_evasions_and_sees_mate() {
        with_searcher(|s| {
            let mut g = Xiangqi::parse_position("R3k4/1R7/9/9/9/9/9/9/9/3K5 b").unwrap();
            assert_eq!(
                s.quiesce::<false>(&mut g, 3, -INFINITY, INFINITY, 0, true),
                -(MATE - 3)
            );
            // In check with an evasion: the score is the evasion's, not the static one.
            let mut g = Xiangqi::parse_position("4k4/9/9/9/9/9/9/9/4R4/3K5 b").unwrap();
            let q = s.quiesce::<false>(&mut g, 0, -INFINITY, INFINITY, 0, true);
            assert!(q > -MATE_BOUND && q < 0, "{q}");
        });
    }

    /// Picking with the previous pick's position gives the same moves in the
    /// same order, and leaves the stack as, a plain first-best selection.
    #[test]
    fn picking_after_the_previous_pick_matches_plain_selection() {
        with_searcher(|s| {
            let mut seed = 7u64;
            for round in 0..400 {
                seed = mix(seed);
                let (base, n) = ((seed % 40) as usize, 1 + (seed >> 8) as usize % 60);
                // Few distinct scores (many ties), some negative.
                let spread = 1 + (round % 9) as u64;
                let mut plain = std::vec::Vec::new();
                for k in 0..n {
                    seed = mix(seed);
                    let score = (seed % spread) as i32 - 3;
                    let word =
                        u64::from(0x0101_0000u32 + k as u32) | (u64::from(score as u32) << 32);
                    s.moves[base + k] = word;
                    plain.push(word);
                }
                let mut after = 0;
                for i in 0..n {
                    let top = plain[i..].iter().map(|&w| (w >> 32) as i32).max().unwrap();
                    let b = i + plain[i..]
                        .iter()
                        .position(|&w| (w >> 32) as i32 == top)
                        .unwrap();
                    plain.swap(i, b);
                    assert_eq!(
                        s.pick(base + i, base + n, &mut after),
                        unpack(plain[i]),
                        "round {round}"
                    );
                }
                assert_eq!(&s.moves[base..base + n], &plain[..], "round {round}");
            }
        });
    }

    /// The staged order (hash move, good captures, killers, quiet moves,
    /// losing captures) yields every pseudo-legal move exactly once, in
    /// that order of stages, the quiet moves best first, whatever the hash
    /// move and killers (moves of the position, of another one, or none).
    /// Once the quiet moves are cut down to those that may give check (at a
    /// random point while they are picked, or never), exactly the quiet
    /// moves that cannot and are neither the hash move nor a killer are
    /// left out from there.
    #[test]
    fn staged_order_yields_every_move_once_stage_by_stage() {
        with_searcher(|s| {
            let mut seed = 11u64;
            // Moves left out by cuts, over all rounds.
            let mut left_out = 0;
            for round in 0..600u64 {
                seed = mix(seed);
                let pos = super::super::board::Position::random_walk(seed, 2 + round as usize % 70);
                let other = super::super::board::Position::random_walk(mix(seed), 9);
                let g = Xiangqi::from_position(pos.clone(), 0);
                let mut all = [Move::NULL; MAX_MOVES];
                let mut sink = Sink::new(&mut all);
                pos.pseudo_moves(&mut sink, true);
                let n = sink.len();
                let all = &all[..n];
                let mut theirs = [Move::NULL; MAX_MOVES];
                let mut sink = Sink::new(&mut theirs);
                other.pseudo_moves(&mut sink, true);
                let m = sink.len().max(1);
                // Random history, hash move and killers.
                for i in 0..7 * 90 {
                    seed = mix(seed);
                    s.history.set(i, (seed % 2001) as i32 - 1000);
                }
                let pick_move = |seed: u64| -> Option<Move> {
                    match seed % 4 {
                        0 => None,
                        1 => Some(theirs[(seed >> 8) as usize % m]),
                        _ => all.get((seed >> 8) as usize % n.max(1)).copied(),
                    }
                };
                seed = mix(seed);
                let hash = pick_move(seed).map(|mv| (mv.from, mv.to));
                let first = hash.and_then(|(f, t)| {
                    Searcher::<BOARD_PLY, BOARD_PV, BOARD_PVT>::hash_move(&g, f, t)
                });
                let ply = (round % 4) as usize;
                let mut killers = [0u32; 2];
                for k in &mut killers {
                    seed = mix(seed);
                    *k = pick_move(seed)
                        .filter(|mv| mv.captured == 0)
                        .map_or(0, packed);
                }
                if killers[0] == killers[1] {
                    killers[1] = 0;
                }
                s.killers[ply] = killers;
                seed = mix(seed);
                let base = (seed >> 8) as usize % 40;
                // A killer is tried when it is a quiet move of the position.
                for k in killers {
                    let known = all.iter().any(|&mv| packed(mv) == k && mv.captured == 0);
                    assert_eq!(
                        Searcher::<BOARD_PLY, BOARD_PV, BOARD_PVT>::is_killer_move(&g, k),
                        known,
                        "round {round}: killer {:?}",
                        unpack(u64::from(k))
                    );
                }
                let mut p = Picker::new(ply, base, first, killers);
                let mut cut = false;
                let mut seen = std::vec::Vec::new();
                seen.extend(first);
                let mut last_class = 0;
                let mut last_quiet = i32::MAX;
                seed = mix(seed);
                let checks_from = (seed >> 8) as usize % (n + 20);
                let prunable = |mv: &Move| {
                    let word = packed(*mv);
                    mv.captured == 0
                        && word != killers[0]
                        && word != killers[1]
                        && Some(*mv) != first
                        && !pos.may_give_check(*mv)
                };
                loop {
                    if seen.len() >= checks_from && p.stage == Stage::QuietPick {
                        p.stage = Stage::CutToChecks;
                        cut = true;
                    }
                    let Some(mv) = s.next_staged_move(&g, &mut p, ply).unwrap() else {
                        break;
                    };
                    assert!(
                        !(cut && prunable(&mv)),
                        "round {round}: {mv:?} cannot check"
                    );
                    let word = packed(mv);
                    // 1 good capture, 2 killer, 3 quiet move, 4 losing capture.
                    let class = if mv.captured != 0 {
                        if Searcher::<BOARD_PLY, BOARD_PV, BOARD_PVT>::good_capture(&g, mv) {
                            1
                        } else {
                            4
                        }
                    } else if word == killers[0] || word == killers[1] {
                        2
                    } else {
                        3
                    };
                    if ply > 0 {
                        assert!(
                            class >= last_class,
                            "round {round}: {mv:?} after class {last_class}"
                        );
                        if class == 3 {
                            let h = s.history.get(History::index(mv));
                            assert!(h <= last_quiet, "round {round}: quiet moves best first");
                            last_quiet = h;
                        }
                    }
                    last_class = class;
                    seen.push(mv);
                }
                for mv in all {
                    let count = seen.iter().filter(|&&x| x == *mv).count();
                    if count == 0 && cut {
                        assert!(prunable(mv), "round {round}: {mv:?} left out");
                        left_out += 1;
                    } else {
                        assert_eq!(count, 1, "round {round}: {mv:?}");
                    }
                }
                if !cut {
                    assert_eq!(seen.len(), n, "round {round}: every move once");
                }
            }
            assert!(left_out > 1000, "cuts left out {left_out} moves");
        });
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        assert_eq!(reduction(3, 3), 1);
        assert_eq!(reduction(1, 1), 0);
        assert_eq!(reduction(10, 30), 4, "0.75 + ln 10 ln 30 / 2.25 = 4.23");
        assert!(reduction(20, 40) > reduction(4, 4));
    }
}

#[cfg(test)]
mod history_tests {
    use super::*;

    #[test]
    fn history_index_is_kind_and_mirrored_destination() {
        use super::super::board::{slot_color, slot_kind};
        for piece in 16..48u8 {
            for to in 0..90u8 {
                let mv = Move {
                    from: 0,
                    to,
                    piece,
                    captured: 0,
                };
                let t = if slot_color(piece) == 0 { to } else { 89 - to };
                let want = slot_kind(piece) as usize * 90 + usize::from(t);
                assert_eq!(History::index(mv), want);
            }
        }
    }

    #[test]
    fn history_counters_pack_four_to_a_word() {
        let mut words = [7u64; HISTORY_WORDS];
        let mut h = History::new(&mut words);
        for i in 0..7 * 90 {
            assert_eq!(h.get(i), 0);
            h.set(i, (i as i32 - 300) * 13);
        }
        for i in 0..7 * 90 {
            assert_eq!(h.get(i), (i as i32 - 300) * 13);
        }
        h.set(5, -HISTORY_MAX);
        assert_eq!(
            (h.get(4), h.get(5), h.get(6)),
            ((4 - 300) * 13, -HISTORY_MAX, (6 - 300) * 13)
        );
    }
}
