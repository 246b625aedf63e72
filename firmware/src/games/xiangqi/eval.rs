//! Static evaluation (seed 004): material, piece-square tables, mobility,
//! coordination and king safety, each with a middle-game and an endgame value,
//! blended by the game phase; from the side to move's point of view.
//!
//! Scores are centipawns of an uncrossed pawn. Every term is a parameter of
//! [`WEIGHTS`]: a packed pair ([`pair`]: middle game in the low 16 bits,
//! endgame in the high 16 bits) counted by a feature of the position, so the
//! evaluation is linear in the parameters and can be tuned from games
//! ([`trace`] lists the features; the weights were fitted by Texel tuning on
//! self-play positions, see [`super::weights`]).
//!
//! - **Material and piece-square tables** ([`PSQ`]): material plus a table per
//!   kind (files mirrored, so 50 parameters per kind), red's view, mirrored
//!   for black, kept up to date by [`Position`]'s make and unmake (a node pays
//!   nothing for them).
//! - **Mobility**, counted without generating moves: empty squares a rook or
//!   a cannon can slide to (from the line tables), horse moves with a free leg
//!   to a square not held by its own side; one parameter per count.
//! - **Coordination**: crossed pawns side by side, horses guarding each other,
//!   rooks seeing each other.
//! - **King safety**: an enemy cannon on the king's file with nothing between
//!   (空头炮, the "empty-head cannon") or with two screens, a cannon on the
//!   king's back rank facing it (沉底炮), a horse on the palace centre in front
//!   of its king facing a cannon (窝心马); enemy attackers massed in the
//!   king's half (rook 3, horse and cannon 2, crossed pawn 1: one parameter
//!   per total), and times the advisors and elephants missing.
//! - **Threats** (the host profile's alone, [`evaluate_host`]: they cost the
//!   board about 10 % a node): their horses, rooks and cannons attacked by
//!   our pawns, and their rooks attacked by our horses and cannons (hand-set).
//! - **Phase**: rook 4, horse and cannon 2 each, both sides (32 at the start):
//!   the middle-game value weighs `phase / 32`.

use super::board::{
    FILE_OF, HORSE_PATHS, Kind, NO_SQUARE, Position, RANK_OF, RED, Square, TALLY_GUARDS,
    TALLY_UNITS, reverse_leg, slot_color, slot_kind, slot_row,
};
use super::weights::WEIGHTS;
use crate::game::Score;

/// A middle-game and an endgame value packed in one `i32`.
pub type Pair = i32;

/// Packs a middle-game and an endgame value.
pub const fn pair(mg: i32, eg: i32) -> Pair {
    (eg << 16) + mg
}

/// The middle-game half of a [`Pair`].
#[inline]
pub const fn mg(p: Pair) -> i32 {
    p as i16 as i32
}

/// The endgame half of a [`Pair`].
#[inline]
pub const fn eg(p: Pair) -> i32 {
    ((p + 0x8000) >> 16) as i16 as i32
}

/// Indices of the parameters in [`WEIGHTS`].
pub mod param {
    /// Material by kind (7).
    pub const MATERIAL: usize = 0;
    /// Piece-square tables: `PST + kind * 50 + rank * 5 + folded file` (350).
    pub const PST: usize = 7;
    /// Rook mobility by empty squares reachable, 0–17 (18).
    pub const ROOK_MOB: usize = 357;
    /// Cannon mobility by empty squares reachable, 0–17 (18).
    pub const CANNON_MOB: usize = 375;
    /// Horse mobility by moves, 0–8 (9).
    pub const HORSE_MOB: usize = 393;
    /// Attack units in the enemy half, 0–15 (16).
    pub const ATTACK: usize = 402;
    /// Attack units times the enemy's missing advisors.
    pub const NO_ADVISOR: usize = 418;
    /// Attack units times the enemy's missing elephants.
    pub const NO_ELEPHANT: usize = 419;
    /// A cannon facing the enemy king with nothing between.
    pub const HOLLOW_CANNON: usize = 420;
    /// A cannon facing the enemy king through two screens.
    pub const SCREENED_CANNON: usize = 421;
    /// A cannon on the enemy back rank facing the king.
    pub const BOTTOM_CANNON: usize = 422;
    /// The enemy's horse on its palace centre while our cannon is on that file.
    pub const BLOCKED_HORSE: usize = 423;
    /// Two crossed pawns side by side.
    pub const LINKED_PAWNS: usize = 424;
    /// Horses guarding each other.
    pub const HORSE_PAIR: usize = 425;
    /// Rooks seeing each other.
    pub const ROOK_PAIR: usize = 426;
    /// The side to move's bonus.
    pub const TEMPO: usize = 427;
    /// Central advisor shape (king home, both advisors on the back rank) and
    /// a cannon facing the king with nothing between (ElephantEye's).
    pub const SHAPE_HOLLOW: usize = 428;
    /// Side advisor shape (king home, one advisor on the palace centre) and a
    /// central cannon with two screens.
    pub const SHAPE_CENTRAL: usize = 429;
    /// Side shape, central cannon, and the king's free door attacked.
    pub const SHAPE_DOOR: usize = 430;
    /// Side shape, central cannon, and the enemy's own rook on its back rank
    /// beside the king (it cannot leave without opening the rank).
    pub const SHAPE_ROOK: usize = 431;
    /// The enemy king on its palace centre with both advisors.
    pub const KING_CENTRE: usize = 432;
    /// An enemy advisor missing while we have both rooks.
    pub const ADVISOR_LEAK: usize = 433;
    /// An enemy horse, rook or cannon attacked by our pawn.
    pub const THREAT_PAWN: usize = 434;
    /// An enemy rook attacked by our horse or cannon.
    pub const THREAT_ROOK: usize = 435;
    /// Number of parameters.
    pub const COUNT: usize = 436;
}

/// Piece values for capture ordering and exchange tests, by [`Kind`].
pub const VALUE: [Score; 7] = [5000, 200, 200, 420, 920, 440, 110];

/// The piece-square parameter of a red piece of `kind` on `sq`.
const fn pst_index(kind: usize, sq: usize) -> usize {
    let r = sq / 9;
    let f = sq % 9;
    let fold = if f > 4 { 8 - f } else { f };
    param::PST + kind * 50 + r * 5 + fold
}

const fn build_psq() -> [[Pair; 128]; 16] {
    let mut t = [[0; 128]; 16];
    let mut k = 0;
    while k < 7 {
        let mut s = 0;
        while s < 90 {
            let v = WEIGHTS[param::MATERIAL + k] + WEIGHTS[pst_index(k, s)];
            t[k][s] = v;
            // Black's piece on the mirrored square, from red's side.
            t[7 + k][89 - s] = -v;
            s += 1;
        }
        k += 1;
    }
    t
}

/// Material plus piece-square value by `[colour * 7 + kind][square]`, from
/// red's side (black's entries are negative): what [`Position::psq`] sums.
/// (Padded to 16 × 128, as [`super::board::ZOBRIST`], for unchecked masked indexing.)
pub static PSQ: [[Pair; 128]; 16] = build_psq();

/// [`PSQ`] of the piece in `slot` standing on `sq`.
#[inline]
pub fn psq(slot: u8, sq: Square) -> Pair {
    PSQ[slot_row(slot)][usize::from(sq & 0x7F)]
}

/// Full phase: all rooks, horses and cannons on the board.
pub const MAX_PHASE: i32 = 32;

/// Where the evaluation's features go: summed with the weights, or listed.
trait Terms {
    /// Feature `param` occurs `count` times for the side whose terms are
    /// being gathered.
    fn add(&mut self, param: usize, count: i32);
    /// The attack on their king: [`ATTACK_TERMS`]'s features at `index`
    /// ([`attack_index`]): the attack units, and those times their advisors
    /// and elephants gone.
    #[inline(always)]
    fn add_attack(&mut self, index: usize) {
        let units = index >> 4;
        let (advisors, elephants) = (index & 3, (index >> 2) & 3);
        self.add(param::ATTACK + units, 1);
        self.add(param::NO_ADVISOR, (units * (2 - advisors.min(2))) as i32);
        self.add(param::NO_ELEPHANT, (units * (2 - elephants.min(2))) as i32);
    }
    /// Feature `first + n` occurs once, `n` being a mobility count below
    /// 32 (`weights` holds the weights from `first` on, see [`mobility`]).
    #[inline(always)]
    fn add_mobility(&mut self, first: usize, _weights: &[Pair; 32], n: usize) {
        self.add(first + n, 1);
    }
}

/// Sums the weighted features of one side.
struct Sum(Pair);

impl Terms for Sum {
    #[inline(always)]
    fn add(&mut self, param: usize, count: i32) {
        self.0 += WEIGHTS[param] * count;
    }
    /// Read from [`ATTACK_TERMS`], masked: no bounds check.
    #[inline(always)]
    fn add_attack(&mut self, index: usize) {
        self.0 += ATTACK_TERMS[index & 255];
    }
    /// Read from the mobility's own table, masked: no bounds check, no cap.
    #[inline(always)]
    fn add_mobility(&mut self, _first: usize, weights: &[Pair; 32], n: usize) {
        self.0 += weights[n & 31];
    }
}

/// The weights of the `count` mobility parameters from `first` on, padded
/// with zeros to 32 entries (read masked, see [`Terms::add_mobility`]).
const fn mobility(first: usize, count: usize) -> [Pair; 32] {
    let mut t = [0; 32];
    let mut i = 0;
    while i < count {
        t[i] = WEIGHTS[first + i];
        i += 1;
    }
    t
}

/// The attack terms of a side by [`attack_index`]: its attack units (at
/// most 15) times 16 plus the other side's guards (advisors, plus 4 for
/// each elephant): [`param::ATTACK`] by the units, [`param::NO_ADVISOR`]
/// and [`param::NO_ELEPHANT`] times the units and the guards gone.
static ATTACK_TERMS: [Pair; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        let units = (i >> 4) as i32;
        let advisors = if i & 3 > 2 { 2 } else { (i & 3) as i32 };
        let elephants = if (i >> 2) & 3 > 2 {
            2
        } else {
            ((i >> 2) & 3) as i32
        };
        t[i] = WEIGHTS[param::ATTACK + (i >> 4)]
            + WEIGHTS[param::NO_ADVISOR] * units * (2 - advisors)
            + WEIGHTS[param::NO_ELEPHANT] * units * (2 - elephants);
        i += 1;
    }
    t
};

/// `us`'s index into [`ATTACK_TERMS`], from [`Position::tally`]: its
/// attack units (capped at 15) and the other side's guards.
#[inline(always)]
fn attack_index(tally: i32, us: u8) -> usize {
    let units = ((tally >> (TALLY_UNITS + 8 * u32::from(us))) & 0xFF).min(15);
    let guards = (tally >> (TALLY_GUARDS + 4 * u32::from(us ^ 1))) & 15;
    ((units << 4) | guards) as usize
}

/// Rook mobility weights by empty squares reachable (0–17).
static ROOK_MOBILITY: [Pair; 32] = mobility(param::ROOK_MOB, 18);
/// Cannon mobility weights by empty squares reachable (0–17).
static CANNON_MOBILITY: [Pair; 32] = mobility(param::CANNON_MOB, 18);
/// Horse mobility weights by moves (0–8).
static HORSE_MOBILITY: [Pair; 32] = mobility(param::HORSE_MOB, 9);

/// Whether a square holding the slot is open to a horse of each colour
/// (empty, or the other side's piece; not [`super::board::WALL`]): 1 for
/// red, 16 for black, so that the sums of both count side by side.
static OPEN: [u8; 256] = {
    let mut t = [0; 256];
    let mut slot = 0;
    while slot < 256 {
        t[slot] = ((slot >> 4) & 1 == 0) as u8 | ((((slot >> 5) & 1 == 0) as u8) << 4);
        slot += 1;
    }
    t
};

/// Horse moves from `sq` for `us`: a free leg, a target not held by our
/// own side ([`OPEN`]: both sides' counts are summed side by side, ours
/// taken at the end). Off-board steps read [`super::board::WALL_SQUARE`],
/// a blocked leg and a target of neither side, so no step needs a test for
/// the board's edge.
#[inline(always)]
fn horse_mobility(pos: &Position, sq: Square, us: u8) -> usize {
    let paths = &HORSE_PATHS[usize::from(sq)];
    let leg = |i: usize| {
        let [leg, a, b] = paths[i];
        if pos.at_cell(leg) == 0 {
            OPEN[usize::from(pos.at_cell(a))] + OPEN[usize::from(pos.at_cell(b))]
        } else {
            0
        }
    };
    let n = leg(0) + leg(1) + leg(2) + leg(3);
    usize::from((n >> (4 * us)) & 15)
}

/// Horse moves from `sq` (leg free, target not our own piece: `own` is
/// `slot >> 4` of our pieces), and whether it guards the square `mate` (its
/// partner): the walk [`horse_mobility`] and [`Position::horse_reaches`] replace,
/// kept for the tests.
#[cfg(test)]
fn horse_mobility_reference(pos: &Position, sq: Square, own: u8, mate: Square) -> (usize, bool) {
    let mut n = 0;
    let mut guards = false;
    let mut target = |to: Square| {
        // Empty squares and enemy pieces count; slots are 16..48, so
        // `slot >> 4` is 1 for red and 2 for black.
        if to == NO_SQUARE {
        } else if pos.at(to) >> 4 != own {
            n += 1;
        } else if to == mate {
            guards = true;
        }
    };
    // By leg: a free leg opens both of its targets.
    for &[leg, a, b] in &super::board::HORSE_LEGS[usize::from(sq)] {
        if leg != NO_SQUARE && pos.at(leg) == 0 {
            target(a);
            target(b);
        }
    }
    (n, guards)
}

/// Whether either horse, on `h1` and `h2`, guards the other:
/// [`Position::horse_reaches`] both ways, the squares' horse-step test
/// (the same both ways) made once, then the two legs.
#[inline(always)]
fn horses_guard(pos: &Position, h1: Square, h2: Square) -> bool {
    FILE_OF[usize::from(h1)].abs_diff(FILE_OF[usize::from(h2)]) <= 2
        && matches!(
            i16::from(h2) - i16::from(h1),
            7 | 11 | 17 | 19 | -7 | -11 | -17 | -19
        )
        && (pos.at(reverse_leg(h1, h2)) == 0 || pos.at(reverse_leg(h2, h1)) == 0)
}

/// Kind bits (`1 << Kind`) of the pieces a pawn's attack threatens: horse,
/// rook, cannon.
const MAJOR: u8 = (1 << Kind::Horse as u8) | (1 << Kind::Rook as u8) | (1 << Kind::Cannon as u8);

/// Their rooks attacked by our horses and cannons (a pass of its own, so
/// that the rooks' squares are not held through the other loops).
#[inline(always)]
fn rook_threats(pos: &Position, us: u8) -> i32 {
    let first = 16 + 16 * us;
    let mut n = 0;
    let mut slot = 16 + 16 * (us ^ 1) + 7;
    let last = slot + 1;
    while slot <= last {
        let r = pos.square_of(slot);
        slot += 1;
        if r == NO_SQUARE {
            continue;
        }
        // A captured horse's NO_SQUARE is never a horse step away, and a
        // captured cannon's has no screens.
        n += i32::from(pos.horse_reaches(pos.square_of(first + 5), r))
            + i32::from(pos.horse_reaches(pos.square_of(first + 6), r))
            + i32::from(pos.screens(pos.square_of(first + 9), r) == 1)
            + i32::from(pos.screens(pos.square_of(first + 10), r) == 1);
    }
    n
}

/// Their horses, rooks and cannons attacked by our pawns.
#[inline(always)]
fn pawn_threats(pos: &Position, us: u8) -> i32 {
    let them = us ^ 1;
    let mut n = 0;
    let mut slot = 16 + 16 * us + 11;
    while slot < 16 + 16 * us + 16 {
        let sq = pos.square_of(slot);
        slot += 1;
        if sq == NO_SQUARE {
            continue;
        }
        // The point ahead (past the last rank: an empty square or the wall).
        let ahead = if us == RED {
            sq + 9
        } else {
            sq.wrapping_sub(9)
        };
        n += i32::from(pos.holds(ahead, them, MAJOR));
        if crossed(us, sq) {
            let file = FILE_OF[usize::from(sq)];
            if file > 0 {
                n += i32::from(pos.holds(sq - 1, them, MAJOR));
            }
            if file < 8 {
                n += i32::from(pos.holds(sq + 1, them, MAJOR));
            }
        }
    }
    n
}

/// 1 where a piece of each colour has crossed the river (red's on ranks
/// 5–9, black's on 0–4), by `[colour][square]`: 256 entries a colour, so
/// that [`NO_SQUARE`] reads 0 with neither a test nor a bounds check.
static CROSSED: [[u8; 256]; 2] = {
    let mut t = [[0; 256]; 2];
    let mut sq = 0;
    while sq < 90 {
        t[if sq >= 45 { 0 } else { 1 }][sq] = 1;
        sq += 1;
    }
    t
};

/// Whether `sq`, or every square ORed into it, is on the board: squares
/// are below 90, [`NO_SQUARE`] has the top bit (one test for two squares).
#[inline(always)]
fn on_board(sq: Square) -> bool {
    sq < 0x80
}

/// Whether `sq` is across the river for `color`.
#[inline(always)]
fn crossed(color: u8, sq: Square) -> bool {
    // Ranks 5–9 are squares 45..90.
    (sq >= 45) == (color == RED)
}

/// Whether `color` has a rook, horse or cannon (null move is unsafe without one).
pub fn has_pieces(pos: &Position, color: u8) -> bool {
    let first = 16 + 16 * color;
    (first + 5..first + 11).any(|s| pos.square_of(s) != NO_SQUARE)
}

/// The game phase, [`MAX_PHASE`] with every rook, horse and cannon on the board.
#[inline]
pub fn phase(pos: &Position) -> i32 {
    i32::from(pos.phase_units()).min(MAX_PHASE)
}

/// The points of an advisor in its palace that make its shapes, by square:
/// 1 the back corner on its king's left (d0 for red, f9 for black), 2 the
/// one on its right, 4 the palace centre, 0 elsewhere. Both palaces in one
/// table (an advisor never leaves its own), 256 entries, so that
/// [`NO_SQUARE`] reads 0 with neither a test nor a bounds check.
static ADVISOR_SHAPE_CODES: [u8; 256] = {
    let mut t = [0; 256];
    t[3] = 1;
    t[5] = 2;
    t[13] = 4;
    t[89 - 3] = 1;
    t[89 - 5] = 2;
    t[89 - 13] = 4;
    t
};

/// The occupied points of a line (`occ`, a rank's or a file's occupancy)
/// strictly between its points `x` and `y`: none, one, two or more
/// pieces between are `0`, one bit, two bits, more.
#[inline(always)]
fn inner_points(occ: u16, x: u8, y: u8) -> u32 {
    u32::from(occ & INNER[usize::from((x << 4) | y)])
}

/// Whether `inner` ([`inner_points`]) holds exactly two points: a cannon's
/// screen and one more.
#[inline(always)]
fn two_points(inner: u32) -> bool {
    let rest = inner & inner.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// The points of a line strictly between `x` and `y`, by `x << 4 | y` (a
/// byte: no bounds check), for [`inner_points`].
static INNER: [u16; 256] = {
    let mut t = [0; 256];
    let mut x = 0;
    while x < 10 {
        let mut y = 0;
        while y < 10 {
            let (lo, hi) = if x < y { (x, y) } else { (y, x) };
            if hi > lo {
                t[(x << 4) | y] = ((1u32 << hi) - (2u32 << lo)) as u16;
            }
            y += 1;
        }
        x += 1;
    }
    t
};

/// Whether `a` and `b` share a rank or a file with nothing between.
#[inline(always)]
fn see_each_other(pos: &Position, a: Square, b: Square) -> bool {
    let (ia, ib) = (usize::from(a), usize::from(b));
    let (occ, x, y) = if RANK_OF[ia] == RANK_OF[ib] {
        (pos.rank_occ(RANK_OF[ia]), FILE_OF[ia], FILE_OF[ib])
    } else if FILE_OF[ia] == FILE_OF[ib] {
        (pos.file_occ(FILE_OF[ia]), RANK_OF[ia], RANK_OF[ib])
    } else {
        return false;
    };
    inner_points(occ, x, y) == 0
}

/// The enemy palace's advisor shape, from `them`'s side: [`CENTRAL_SHAPE`]
/// (king home, both advisors on the back rank), [`SIDE_SHAPE_LEFT`] or
/// [`SIDE_SHAPE_RIGHT`] (king home, one advisor on the palace centre, the other
/// in one back corner: the free corner, the door, is the other one),
/// anything else no shape. Read from their advisors' squares
/// ([`ADVISOR_SHAPE_CODES`]; two advisors never share a point, so their codes
/// add up without a carry).
#[inline(always)]
fn advisor_shape(pos: &Position, them: u8) -> u8 {
    let home = if them == RED { 4 } else { 89 - 4 };
    if pos.king(them) != home {
        return 0;
    }
    let first = 16 + 16 * them;
    ADVISOR_SHAPE_CODES[usize::from(pos.square_of(first + 1))]
        | ADVISOR_SHAPE_CODES[usize::from(pos.square_of(first + 2))]
}

/// [`advisor_shape`]'s central shape.
const CENTRAL_SHAPE: u8 = 1 | 2;
/// [`advisor_shape`]'s side shape with the advisors on the left corner
/// (d0 or f9) and the centre.
const SIDE_SHAPE_LEFT: u8 = 1 | 4;
/// [`advisor_shape`]'s side shape with the advisors on the right corner
/// (f0 or d9) and the centre.
const SIDE_SHAPE_RIGHT: u8 = 2 | 4;

/// The terms of their side advisor shape (`door` its free corner) against
/// our central cannon: rare, so out of line, where the main path's
/// registers do not pay for it.
#[inline(never)]
fn side_shape<T: Terms>(pos: &Position, us: u8, door: Square, t: &mut T) {
    let first = 16 + 16 * us;
    // Most calls have no cannon on the central file: they end here, before
    // the rest's values are set up.
    let central_file = |sq: Square| sq != NO_SQUARE && FILE_OF[usize::from(sq)] == 4;
    if !central_file(pos.square_of(first + 9)) && !central_file(pos.square_of(first + 10)) {
        return;
    }
    let them = us ^ 1;
    let their_first = 16 + 16 * them;
    let ks = pos.king(them);
    let home_rank = RANK_OF[usize::from(ks)];
    let mut central = false;
    for slot in [first + 9, first + 10] {
        let sq = pos.square_of(slot);
        if sq == NO_SQUARE {
            continue;
        }
        // Two screens between (the king is on the central file: the shape
        // needs it home).
        let inner = inner_points(pos.file_occ(4), RANK_OF[usize::from(sq)], home_rank);
        if FILE_OF[usize::from(sq)] == 4 && two_points(inner) {
            t.add(param::SHAPE_CENTRAL, 1);
            central = true;
        }
    }
    if central {
        if pos.attacked_by(door, us) {
            t.add(param::SHAPE_DOOR, 1);
        }
        for rook in [
            pos.square_of(their_first + 7),
            pos.square_of(their_first + 8),
        ] {
            if rook != NO_SQUARE
                && RANK_OF[usize::from(rook)] == home_rank
                && inner_points(pos.rank_occ(home_rank), FILE_OF[usize::from(rook)], 4) == 0
            {
                t.add(param::SHAPE_ROOK, 1);
            }
        }
    }
}

/// Mobility, coordination and the attack on the other king, for `us`
/// (counted positive for `us`: the caller gives them their sign), and with
/// `THREATS` (the host profile's) the threats on their pieces.
#[inline(always)]
fn side_terms<T: Terms, const THREATS: bool>(pos: &Position, us: u8, t: &mut T) {
    let them = us ^ 1;
    let first = 16 + 16 * us;
    let own = us + 1;
    // Horses.
    // Each kind's pieces in a counted loop over their slots (a loop over
    // an array of squares or slots kept the array on the stack).
    let mut slot = first + 5;
    while slot <= first + 6 {
        let sq = pos.square_of(slot);
        slot += 1;
        if sq == NO_SQUARE {
            continue;
        }
        t.add_mobility(
            param::HORSE_MOB,
            &HORSE_MOBILITY,
            horse_mobility(pos, sq, us),
        );
    }
    let (h1, h2) = (pos.square_of(first + 5), pos.square_of(first + 6));
    if h1 != NO_SQUARE && h2 != NO_SQUARE && horses_guard(pos, h1, h2) {
        t.add(param::HORSE_PAIR, 1);
    }
    // Rooks.
    let (r1, r2) = (pos.square_of(first + 7), pos.square_of(first + 8));
    while slot <= first + 8 {
        let sq = pos.square_of(slot);
        slot += 1;
        if sq != NO_SQUARE {
            // At most 8 squares along a rank and 9 along a file.
            t.add_mobility(param::ROOK_MOB, &ROOK_MOBILITY, usize::from(pos.reach(sq)));
        }
    }
    if on_board(r1 | r2) && see_each_other(pos, r1, r2) {
        t.add(param::ROOK_PAIR, 1);
    }
    let ks = pos.king(them);
    let their_first = 16 + 16 * them;
    // Their advisors' shape against our cannons (ElephantEye's).
    let shape = advisor_shape(pos, them);
    if shape == SIDE_SHAPE_LEFT || shape == SIDE_SHAPE_RIGHT {
        // The door: the back corner its advisors left free.
        let door = if shape == SIDE_SHAPE_LEFT { 5 } else { 3 };
        side_shape(pos, us, if them == RED { door } else { 89 - door }, t);
    }
    // Their advisors on the board (the low two bits of their guards).
    let tally = pos.tally();
    if (tally >> (TALLY_GUARDS + 4 * u32::from(them))) & 3 == 2 {
        let centre = if them == RED { 13 } else { 76 };
        if ks == centre {
            t.add(param::KING_CENTRE, 1);
        }
    } else if r1 != NO_SQUARE && r2 != NO_SQUARE {
        t.add(param::ADVISOR_LEAK, 1);
    }
    // Cannons, and their aim at the enemy king.
    let mut slot = first + 9;
    while slot <= first + 10 {
        let sq = pos.square_of(slot);
        slot += 1;
        if sq == NO_SQUARE {
            continue;
        }
        t.add_mobility(
            param::CANNON_MOB,
            &CANNON_MOBILITY,
            usize::from(pos.reach(sq)),
        );
        if ks == NO_SQUARE {
            continue;
        }
        let (s, k) = (usize::from(sq), usize::from(ks));
        if FILE_OF[s] == FILE_OF[k] {
            // The pieces between on the file.
            let inner = inner_points(pos.file_occ(FILE_OF[k]), RANK_OF[s], RANK_OF[k]);
            if inner == 0 {
                t.add(param::HOLLOW_CANNON, 1);
                if shape == CENTRAL_SHAPE {
                    t.add(param::SHAPE_HOLLOW, 1);
                }
            } else if two_points(inner) {
                t.add(param::SCREENED_CANNON, 1);
            }
            // Their horse on the palace centre, in front of the king (the
            // centre holds one of their horses' slots).
            let centre = if them == RED { 13 } else { 76 };
            if FILE_OF[k] == 4 && pos.at(centre).wrapping_sub(their_first + 5) < 2 {
                t.add(param::BLOCKED_HORSE, 1);
            }
        } else if RANK_OF[s] == RANK_OF[k]
            && inner_points(pos.rank_occ(RANK_OF[k]), FILE_OF[s], FILE_OF[k]) == 0
        {
            t.add(param::BOTTOM_CANNON, 1);
        }
    }
    if THREATS {
        t.add(param::THREAT_ROOK, rook_threats(pos, us));
        t.add(param::THREAT_PAWN, pawn_threats(pos, us));
    }
    // Crossed pawns, counted from a table by square (a captured pawn's
    // `NO_SQUARE` reads 0): linked pairs (counted from the left one) need two
    // of them, and a pawn beside a crossed one has crossed.
    let crossed_pawns = {
        let row = &CROSSED[usize::from(us)];
        let at = |i: u8| u32::from(row[usize::from(pos.square_of(first + 11 + i))]);
        at(0) + at(1) + at(2) + at(3) + at(4)
    };
    if crossed_pawns >= 2 {
        while slot < first + 16 {
            let sq = pos.square_of(slot);
            slot += 1;
            if sq == NO_SQUARE || !crossed(us, sq) || FILE_OF[usize::from(sq)] >= 8 {
                continue;
            }
            let p = pos.at(sq + 1);
            if p >> 4 == own && slot_kind(p) == Kind::Pawn {
                t.add(param::LINKED_PAWNS, 1);
            }
        }
    }
    // The attack against their king's guard: our pieces across the river
    // (rook 3, horse and cannon 2, pawn 1), kept by the position's tally.
    t.add_attack(attack_index(tally, us));
}

/// Blends a middle-game / endgame pair by `phase`.
#[inline]
pub const fn taper(p: Pair, phase: i32) -> i32 {
    (mg(p) * phase + eg(p) * (MAX_PHASE - phase)) / MAX_PHASE
}

/// Evaluates `pos` for the side to move: the board profile's evaluation,
/// without the threat terms (they cost the board about 10 % a node).
pub fn evaluate(pos: &Position) -> Score {
    evaluate_with::<false>(pos)
}

/// The host profile's evaluation: [`evaluate`] with the threat terms
/// ([`param::THREAT_PAWN`], [`param::THREAT_ROOK`]).
pub fn evaluate_host(pos: &Position) -> Score {
    evaluate_with::<true>(pos)
}

/// [`evaluate`], with the threat terms when `THREATS`.
#[inline(always)]
fn evaluate_with<const THREATS: bool>(pos: &Position) -> Score {
    #[cfg(test)]
    super::stack_probe::note();
    let (mut red, mut black) = (Sum(0), Sum(0));
    side_terms::<_, THREATS>(pos, RED, &mut red);
    side_terms::<_, THREATS>(pos, RED ^ 1, &mut black);
    let v = taper(pos.psq() + red.0 - black.0, phase(pos));
    (if pos.side() == RED { v } else { -v }) + tempo(pos)
}

/// The side to move's bonus, tapered: the evaluation of a position and of
/// the same position with the other side to move sum to twice this.
#[inline]
pub fn tempo(pos: &Position) -> Score {
    TEMPO_BY_PHASE[phase(pos) as usize]
}

/// The tempo tapered by each phase, `0..=MAX_PHASE`: [`tempo`] reads it
/// instead of multiplying.
static TEMPO_BY_PHASE: [Score; MAX_PHASE as usize + 1] = {
    let mut t = [0; MAX_PHASE as usize + 1];
    let mut p = 0;
    while p <= MAX_PHASE as usize {
        t[p] = taper(WEIGHTS[param::TEMPO], p as i32);
        p += 1;
    }
    t
};

/// Material and tables only (what [`Position::psq`] keeps), with the tempo:
/// [`evaluate`] without mobility, coordination and king safety, for
/// the host profile's quiescence to stand pat on when far above beta, and
/// the board profile's null-window nodes far from beta.
#[inline]
pub fn lazy(pos: &Position) -> Score {
    let p = phase(pos);
    let v = taper(pos.psq(), p);
    (if pos.side() == RED { v } else { -v }) + TEMPO_BY_PHASE[p as usize]
}

/// [`lazy`] with both sides' attack terms (the units across the river and
/// the guards gone, from [`Position::tally`]), the board profile's lazy
/// evaluation: nearer [`evaluate`] (the attack terms were about a third of
/// what the rest of it moved a score by), as cheap.
#[inline]
pub fn lazy_attack(pos: &Position) -> Score {
    let p = phase(pos);
    let tally = pos.tally();
    let v = taper(
        pos.psq() + ATTACK_TERMS[attack_index(tally, RED) & 255]
            - ATTACK_TERMS[attack_index(tally, RED ^ 1) & 255],
        p,
    );
    (if pos.side() == RED { v } else { -v }) + TEMPO_BY_PHASE[p as usize]
}

/// Lists the features of `pos` from red's side: `out(param, count)` for each
/// (material and tables counted from the board; the tempo with +1 when red is
/// to move, -1 when black is). With the phase, these give [`evaluate`]:
/// `taper(Σ count × WEIGHTS[param], phase)` from red's side.
pub fn trace(pos: &Position, out: &mut dyn FnMut(usize, i32)) {
    struct List<'a>(&'a mut dyn FnMut(usize, i32), i32);
    impl Terms for List<'_> {
        fn add(&mut self, param: usize, count: i32) {
            if count != 0 {
                (self.0)(param, count * self.1);
            }
        }
    }
    let mut list = List(out, 1);
    for sq in 0..90u8 {
        let p = pos.at(sq);
        if p == 0 {
            continue;
        }
        let (color, kind) = (slot_color(p), slot_kind(p) as usize);
        let (sign, rel) = if color == RED {
            (1, usize::from(sq))
        } else {
            (-1, 89 - usize::from(sq))
        };
        list.add(param::MATERIAL + kind, sign);
        list.add(pst_index(kind, rel), sign);
    }
    side_terms::<_, true>(pos, RED, &mut list);
    list.1 = -1;
    side_terms::<_, true>(pos, RED ^ 1, &mut list);
    list.1 = 1;
    list.add(param::TEMPO, if pos.side() == RED { 1 } else { -1 });
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// On positions reached by random moves, both profiles' evaluations
        /// equal the tuner's sum of their features ([`trace`]).
        #[test]
        fn the_evaluation_equals_its_trace(seed in proptest::prelude::any::<u64>(), plies in 0usize..160) {
            let pos = Position::random_walk(seed, plies);
            proptest::prop_assert_eq!(evaluate(&pos), from_trace(&pos, false));
            proptest::prop_assert_eq!(evaluate_host(&pos), from_trace(&pos, true));
        }

        /// On the same walks the lazy evaluations are their part of the
        /// trace: [`lazy`] material and tables, [`lazy_attack`] with the
        /// attack terms (the position's tally as counted from scratch).
        #[test]
        fn the_lazy_evaluations_equal_their_part_of_the_trace(seed in proptest::prelude::any::<u64>(), plies in 0usize..160) {
            let pos = Position::random_walk(seed, plies);
            proptest::prop_assert_eq!(pos.tally(), pos.compute_tally());
            let tables = |p: usize| p < param::ROOK_MOB;
            proptest::prop_assert_eq!(lazy(&pos), from_trace_by(&pos, tables));
            proptest::prop_assert_eq!(
                lazy_attack(&pos),
                from_trace_by(&pos, |p| tables(p) || (param::ATTACK..=param::NO_ELEPHANT).contains(&p))
            );
        }
    }

    /// The tally's fields counted by hand: the start position (no piece
    /// across the river, every guard, the full phase), and one with red's
    /// rook and pawn and black's horse across the river, black's two
    /// advisors and one elephant.
    #[test]
    fn the_tally_counts_units_guards_and_phase() {
        use super::super::board::{TALLY_GUARDS, TALLY_UNITS};
        let fields = |pos: &Position| {
            let t = pos.tally();
            let units = |c: u32| (t >> (TALLY_UNITS + 8 * c)) & 0xFF;
            let guards = |c: u32| (t >> (TALLY_GUARDS + 4 * c)) & 15;
            [
                units(0),
                units(1),
                guards(0),
                guards(1),
                i32::from(pos.phase_units()),
            ]
        };
        let start = Position::parse_fen(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .unwrap();
        assert_eq!(fields(&start), [0, 0, 10, 10, 32]);
        let pos = Position::parse_fen("3ak4/4a4/4b4/2P1R4/9/9/6n2/9/9/4K4 w - - 0 1").unwrap();
        assert_eq!(fields(&pos), [4, 2, 0, 6, 6]);
    }

    /// Set-up positions with the rarer terms (advisor shapes, cannons facing
    /// the king, linked pawns, pairs) against the trace, both colours, which
    /// score the same.
    #[test]
    fn rare_terms_equal_the_trace() {
        for fen in [
            Position::START_FEN,
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
            "1nbak1C2/4a4/4c4/p3p3p/2p2NP2/5n3/P3c3P/4C4/4N4/2BAKAB2 w",
            "3k5/4a4/4c4/9/4c4/9/9/4N4/4A4/3AK4 b",
            "5k3/9/9/9/9/9/9/9/9/c2RK4 w",
            "3k5/9/9/3cPr3/9/2n6/2P1R4/9/9/4K4 w",
            "1r1k5/9/4n4/9/9/1c2R1N1c/9/9/9/5K3 w",
            "3akar2/9/9/9/9/9/9/4C4/9/3K5 w",
            "3ak1r2/4a4/4n1N2/9/9/9/9/4C4/9/3K5 w",
            "2rak4/4a4/4n1N2/9/9/9/9/4C4/9/3K5 w",
            "3a1a3/4k4/9/9/9/9/9/9/r3A3r/3K5 w",
            "4k4/9/9/2PPP4/9/9/9/9/9/4K4 w",
            "3ak4/4a4/4n4/9/9/9/9/4C4/4C4/3K5 w",
            "4ka3/4a4/4n4/9/9/9/9/4C4/9/3AK4 w",
        ] {
            let pos = Position::parse_fen(fen).expect(fen);
            let twin = Position::parse_fen(&mirrored(fen)).expect(fen);
            for p in [&pos, &twin] {
                assert_eq!(p.psq(), p.compute_psq());
                assert_eq!(p.tally(), p.compute_tally());
                assert_eq!(evaluate(p), from_trace(p, false), "{fen}");
                assert_eq!(evaluate_host(p), from_trace(p, true), "{fen}");
            }
            assert_eq!(evaluate(&pos), evaluate(&twin), "{fen}");
            assert_eq!(evaluate_host(&pos), evaluate_host(&twin), "{fen}");
        }
    }

    /// [`evaluate_host`] from the trace, or [`evaluate`] without `host`
    /// (the threat features left out).
    fn from_trace(pos: &Position, host: bool) -> i32 {
        from_trace_by(pos, |p| {
            host || !matches!(p, param::THREAT_PAWN | param::THREAT_ROOK)
        })
    }

    /// The evaluation from the trace's features that `keep` takes, with
    /// the tempo.
    fn from_trace_by(pos: &Position, keep: impl Fn(usize) -> bool) -> i32 {
        let mut sum: Pair = 0;
        trace(pos, &mut |p, c| {
            if p != param::TEMPO && keep(p) {
                sum += WEIGHTS[p] * c;
            }
        });
        let v = taper(sum, phase(pos));
        let t = taper(WEIGHTS[param::TEMPO], phase(pos));
        if pos.side() == RED { v + t } else { -v + t }
    }

    /// The position with colours swapped (ranks reversed, cases swapped, the
    /// other side to move).
    fn mirrored(fen: &str) -> std::string::String {
        let (board, side) = fen.split_once(' ').unwrap();
        let ranks: std::vec::Vec<std::string::String> = board
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        std::format!(
            "{} {}",
            ranks.join("/"),
            if side == "w" { "b" } else { "w" }
        )
    }

    #[test]
    fn the_start_position_is_level_and_colours_are_symmetric() {
        let start = Position::parse_fen(Position::START_FEN).unwrap();
        let tempo = taper(WEIGHTS[param::TEMPO], MAX_PHASE);
        assert_eq!(evaluate(&start), tempo);
        for fen in [
            "1nbak1C2/4a4/4c4/p3p3p/2p2NP2/5n3/P3c3P/4C4/4N4/2BAKAB2 w",
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
            "3k5/4a4/4c4/9/4c4/9/9/4N4/4A4/3AK4 b",
            "3k5/9/9/3cPr3/9/2n6/2P1R4/9/9/4K4 w",
            "1r1k5/9/4n4/9/9/1c2R1N1c/9/9/9/5K3 w",
        ] {
            let a = Position::parse_fen(fen).unwrap();
            let b = Position::parse_fen(&mirrored(fen)).unwrap();
            assert_eq!(evaluate(&a), evaluate(&b), "{fen}");
            assert_eq!(evaluate_host(&a), evaluate_host(&b), "{fen}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// A pass turns the evaluation around the tempo (what the search
        /// notes for the node after its null move).
        #[test]
        fn a_pass_turns_the_evaluation_around_the_tempo(seed in proptest::prelude::any::<u64>(), plies in 0usize..120) {
            let pos = Position::random_walk(seed, plies);
            let mut passed = pos.clone();
            passed.make_null();
            proptest::prop_assert_eq!(evaluate(&pos) + evaluate(&passed), 2 * tempo(&pos));
            proptest::prop_assert_eq!(evaluate_host(&pos) + evaluate_host(&passed), 2 * tempo(&pos));
        }
    }

    #[test]
    fn reach_counts_the_empty_squares_a_slider_moves_to() {
        use crate::games::xiangqi::board::Move;
        use crate::games::xiangqi::movegen::Sink;
        let pos =
            Position::parse_fen("r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w")
                .unwrap();
        for slot in 16..48u8 {
            let sq = pos.square_of(slot);
            if sq == NO_SQUARE || !matches!(slot_kind(slot), Kind::Rook | Kind::Cannon) {
                continue;
            }
            let mut buf = [Move::default(); 40];
            let mut sink = Sink::new(&mut buf);
            pos.piece_moves(&mut sink, slot, sq, true);
            let n = sink.len();
            let quiet = buf[..n].iter().filter(|m| m.captured == 0).count();
            assert_eq!(usize::from(pos.reach(sq)), quiet, "slot {slot}");
        }
    }

    /// The features of `fen` from red's side, by parameter.
    fn features(fen: &str) -> std::collections::BTreeMap<usize, i32> {
        let pos = Position::parse_fen(fen).unwrap();
        let mut out = std::collections::BTreeMap::new();
        trace(&pos, &mut |p, c| *out.entry(p).or_insert(0) += c);
        out
    }

    #[test]
    fn advisor_shapes_are_seen() {
        // Central shape: a cannon facing the king with nothing between.
        let f = features("3akar2/9/9/9/9/9/9/4C4/9/3K5 w");
        assert_eq!(f.get(&param::SHAPE_HOLLOW), Some(&1));
        assert_eq!(f.get(&param::HOLLOW_CANNON), Some(&1));
        // Side shape (d9, e8): central cannon with two screens (e7, e8), the
        // free door f9 attacked by the horse on g7, black's rook g9 beside the king.
        let f = features("3ak1r2/4a4/4n1N2/9/9/9/9/4C4/9/3K5 w");
        assert_eq!(f.get(&param::SHAPE_CENTRAL), Some(&1));
        assert_eq!(f.get(&param::SHAPE_DOOR), Some(&1));
        assert_eq!(f.get(&param::SHAPE_ROOK), Some(&1));
        assert_eq!(f.get(&param::SHAPE_HOLLOW), None);
        // Black's king on its palace centre with both advisors; red's two
        // rooks against a missing advisor (black's view of red: one advisor gone).
        let f = features("3a1a3/4k4/9/9/9/9/9/9/r3A3r/3K5 w");
        assert_eq!(f.get(&param::KING_CENTRE), Some(&1));
        assert_eq!(f.get(&param::ADVISOR_LEAK), Some(&-1));
    }

    #[test]
    fn threats_are_seen() {
        // Red's pawn c3 attacks the horse c4 ahead, the crossed pawn e6 the
        // cannon d6 and the rook f6 beside it; black's horse c4 attacks the
        // rook e3.
        let f = features("3k5/9/9/3cPr3/9/2n6/2P1R4/9/9/4K4 w");
        assert_eq!(f.get(&param::THREAT_PAWN), Some(&3));
        assert_eq!(f.get(&param::THREAT_ROOK), Some(&-1));
        // A cannon over a screen attacks a rook; without one it does not.
        let f = features("3k5/9/9/9/9/9/9/9/9/r1B1CK3 w");
        assert_eq!(f.get(&param::THREAT_ROOK), Some(&1));
        let f = features("3k5/9/9/9/9/9/9/9/9/r3CK3 w");
        assert_eq!(f.get(&param::THREAT_ROOK), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// On positions reached by random moves, the horse mobility read
        /// through the wall square and the pair test by horse steps equal the
        /// walk over the legs with its edge tests.
        #[test]
        fn horse_mobility_equals_the_walk(seed in proptest::prelude::any::<u64>(), plies in 0usize..120) {
            use crate::games::xiangqi::board::{WALL, WALL_SQUARE};
            let pos = Position::random_walk(seed, plies);
            proptest::prop_assert_eq!(pos.at(WALL_SQUARE), WALL);
            for us in [RED, RED ^ 1] {
                let first = 16 + 16 * us;
                let (h1, h2) = (pos.square_of(first + 5), pos.square_of(first + 6));
                let mut pair = false;
                for (sq, mate) in [(h1, h2), (h2, h1)] {
                    if sq == NO_SQUARE {
                        continue;
                    }
                    let (n, guards) = horse_mobility_reference(&pos, sq, us + 1, mate);
                    proptest::prop_assert_eq!(horse_mobility(&pos, sq, us), n);
                    pair |= guards;
                }
                let fast = h1 != NO_SQUARE
                    && h2 != NO_SQUARE
                    && (pos.horse_reaches(h1, h2) || pos.horse_reaches(h2, h1));
                proptest::prop_assert_eq!(fast, pair);
                let once = h1 != NO_SQUARE && h2 != NO_SQUARE && horses_guard(&pos, h1, h2);
                proptest::prop_assert_eq!(once, pair);
            }
        }
    }

    #[test]
    fn inner_points_are_the_pieces_between() {
        let pos = Position::parse_fen("4k4/4a4/4c4/9/4c4/9/9/4N4/4A4/3AK4 w").unwrap();
        // The e file: e0 king, e1 advisor, e2 horse, e5 cannon, e7 cannon, e8 advisor, e9 king.
        let file = pos.file_occ(4);
        assert_eq!(inner_points(file, 0, 9).count_ones(), 5);
        assert_eq!(
            inner_points(file, 5, 0),
            0b110,
            "e5 cannon .. e0 king: e2, e1"
        );
        assert_eq!(inner_points(file, 5, 7), 0);
        assert_eq!(inner_points(file, 9, 5).count_ones(), 2);
        // The back rank: d0 advisor, e0 king.
        assert_eq!(inner_points(pos.rank_occ(0), 3, 4), 0);
        assert!(see_each_other(&pos, 3, 4));
        assert!(!see_each_other(&pos, 3, 13), "not on a line");
        assert!(!see_each_other(&pos, 4, 85), "five between");
    }
}
