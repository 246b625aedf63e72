//! The evaluation as it stood before session 37's board-speed work, kept
//! unchanged for the tests: [`evaluate`] and [`evaluate_host`] here are the
//! formulas the fast paths in [`super`] must give bit for bit.

#![allow(dead_code)]

use super::super::board::{
    FILE_OF, HORSE_PATHS, Kind, NO_SQUARE, Position, RANK_OF, RED, Square, reverse_leg, slot_color,
    slot_kind,
};
use super::super::weights::WEIGHTS;
use super::{Pair, TEMPO_BY_PHASE, param, phase, taper};
use crate::game::Score;
trait Terms {
    /// Feature `param` occurs `count` times for the side whose terms are
    /// being gathered.
    fn add(&mut self, param: usize, count: i32);
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

/// Rook mobility weights by empty squares reachable (0–17).
static ROOK_MOBILITY: [Pair; 32] = mobility(param::ROOK_MOB, 18);
/// Cannon mobility weights by empty squares reachable (0–17).
static CANNON_MOBILITY: [Pair; 32] = mobility(param::CANNON_MOB, 18);
/// Horse mobility weights by moves (0–8).
static HORSE_MOBILITY: [Pair; 32] = mobility(param::HORSE_MOB, 9);

/// Horse moves from `sq`: a free leg, a target not held by our own side
/// (`shift` is 4 for red, 5 for black: the slot bit that marks our pieces).
/// Off-board steps read [`super::board::WALL_SQUARE`], a blocked leg and a target of our
/// own, so no step needs a test for the board's edge.
#[inline(always)]
fn horse_mobility(pos: &Position, sq: Square, shift: u8) -> usize {
    let mut n = 0;
    for &[leg, a, b] in &HORSE_PATHS[usize::from(sq)] {
        if pos.at_cell(leg) == 0 {
            n += 2
                - usize::from((pos.at_cell(a) >> shift) & 1)
                - usize::from((pos.at_cell(b) >> shift) & 1);
        }
    }
    n
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

/// Whether `sq` is across the river for `color`.
#[inline(always)]
fn crossed(color: u8, sq: Square) -> bool {
    // Ranks 5–9 are squares 45..90.
    (sq >= 45) == (color == RED)
}

/// Whether `color` has a rook, horse or cannon (null move is unsafe without one).
/// Pieces strictly between `a` and `b` on a shared file or rank (`None`:
/// not on a line, or more than two).
#[inline]
fn between(pos: &Position, a: Square, b: Square) -> Option<u8> {
    let (ia, ib) = (usize::from(a), usize::from(b));
    let (occ, x, y) = if RANK_OF[ia] == RANK_OF[ib] {
        (pos.rank_occ(RANK_OF[ia]), FILE_OF[ia], FILE_OF[ib])
    } else if FILE_OF[ia] == FILE_OF[ib] {
        (pos.file_occ(FILE_OF[ia]), RANK_OF[ia], RANK_OF[ib])
    } else {
        return None;
    };
    let (lo, hi) = if x < y { (x, y) } else { (y, x) };
    // The occupied points strictly between, counted up to three.
    let inner = u32::from(occ) & ((1u32 << hi) - 1) & !((2u32 << lo) - 1);
    if inner == 0 {
        return Some(0);
    }
    let rest = inner & (inner - 1);
    if rest == 0 {
        return Some(1);
    }
    (rest & (rest - 1) == 0).then_some(2)
}

/// The enemy palace's advisor shape, from `them`'s side: `Some(None)`
/// central (king home, both advisors on the back rank), `Some(Some(door))`
/// a side shape (king home, one advisor on the palace centre, one in a back
/// corner; `door` is the free corner), `None` otherwise.
#[inline(always)]
fn advisor_shape(pos: &Position, them: u8) -> Option<Option<Square>> {
    let home = |s: Square| if them == RED { s } else { 89 - s };
    if pos.king(them) != home(4) {
        return None;
    }
    let advisor = |s: Square| {
        let p = pos.at(home(s));
        p != 0 && slot_color(p) == them && slot_kind(p) == Kind::Advisor
    };
    let (left, right) = (advisor(3), advisor(5));
    if left && right {
        Some(None)
    } else if advisor(13) && left != right {
        Some(Some(home(if left { 5 } else { 3 })))
    } else {
        None
    }
}

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
        if FILE_OF[usize::from(sq)] == 4 && between(pos, sq, ks) == Some(2) {
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
                && between(pos, rook, ks) == Some(0)
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
    let mut units = 0u32;
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
            horse_mobility(pos, sq, 4 + us),
        );
        if crossed(us, sq) {
            units += 2;
        }
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
            if crossed(us, sq) {
                units += 3;
            }
        }
    }
    if r1 != NO_SQUARE
        && r2 != NO_SQUARE
        && (RANK_OF[usize::from(r1)] == RANK_OF[usize::from(r2)]
            || FILE_OF[usize::from(r1)] == FILE_OF[usize::from(r2)])
        && between(pos, r1, r2) == Some(0)
    {
        t.add(param::ROOK_PAIR, 1);
    }
    let ks = pos.king(them);
    let their_first = 16 + 16 * them;
    // Their advisors' shape against our cannons (ElephantEye's).
    let shape = advisor_shape(pos, them);
    if let Some(Some(door)) = shape {
        side_shape(pos, us, door, t);
    }
    let gone = |s: u8| i32::from(pos.square_of(s) == NO_SQUARE);
    let advisors_gone = gone(their_first + 1) + gone(their_first + 2);
    if advisors_gone == 0 {
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
        if crossed(us, sq) {
            units += 2;
        }
        if ks == NO_SQUARE {
            continue;
        }
        let (s, k) = (usize::from(sq), usize::from(ks));
        if FILE_OF[s] == FILE_OF[k] {
            match between(pos, sq, ks) {
                Some(0) => {
                    t.add(param::HOLLOW_CANNON, 1);
                    if shape == Some(None) {
                        t.add(param::SHAPE_HOLLOW, 1);
                    }
                }
                Some(2) => t.add(param::SCREENED_CANNON, 1),
                _ => {}
            }
            // Their horse on the palace centre, in front of the king.
            let centre = if them == RED { 13 } else { 76 };
            let p = pos.at(centre);
            if FILE_OF[k] == 4 && p != 0 && slot_color(p) == them && slot_kind(p) == Kind::Horse {
                t.add(param::BLOCKED_HORSE, 1);
            }
        } else if RANK_OF[s] == RANK_OF[k] && between(pos, sq, ks) == Some(0) {
            t.add(param::BOTTOM_CANNON, 1);
        }
    }
    if THREATS {
        t.add(param::THREAT_ROOK, rook_threats(pos, us));
        t.add(param::THREAT_PAWN, pawn_threats(pos, us));
    }
    // Crossed pawns: attackers, and linked pairs (counted from the left one).
    while slot < first + 16 {
        let sq = pos.square_of(slot);
        slot += 1;
        if sq == NO_SQUARE || !crossed(us, sq) {
            continue;
        }
        units += 1;
        if FILE_OF[usize::from(sq)] < 8 {
            let p = pos.at(sq + 1);
            if p >> 4 == own && slot_kind(p) == Kind::Pawn {
                t.add(param::LINKED_PAWNS, 1);
            }
        }
    }
    // The attack against their king's guard.
    let units = units.min(15);
    t.add(param::ATTACK + units as usize, 1);
    if units != 0 {
        let elephants = gone(their_first + 3) + gone(their_first + 4);
        t.add(param::NO_ADVISOR, advisors_gone * units as i32);
        t.add(param::NO_ELEPHANT, elephants * units as i32);
    }
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
    let (mut red, mut black) = (Sum(0), Sum(0));
    side_terms::<_, THREATS>(pos, RED, &mut red);
    side_terms::<_, THREATS>(pos, RED ^ 1, &mut black);
    let v = taper(pos.psq() + red.0 - black.0, phase(pos));
    (if pos.side() == RED { v } else { -v }) + TEMPO_BY_PHASE[phase(pos) as usize]
}
