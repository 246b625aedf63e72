//! Repetition rules (Asian Xiangqi Federation): perpetual check loses,
//! perpetual chase loses, mutual cases and other repetitions draw.
//!
//! A repetition is judged from the cycle of plies between the repeated
//! positions: the side that checked on every one of its moves loses (both →
//! draw); otherwise the side whose every move "chased" the same piece (attacked
//! an unprotected piece, or a rook with a horse or cannon, or a rook, horse or
//! cannon with an elephant or advisor; kings and uncrossed pawns excepted,
//! pins, fake protection and discovered attacks taken into account) loses
//! (both → draw); anything else draws. The chase test follows the reference
//! implementation of Fairy-Stockfish (`Position::chased`, GPL, reimplemented
//! here), which is what testdata/xiangqi_repetition.tsv was made
//! with. These checks run only when a repetition is found, so they use simple
//! 90-bit bitboards ([`Bits`], three `u32` words: cheap on the Cortex-M0)
//! rather than the fast tables.

use super::board::{
    ADVISOR_MOVES, ELEPHANT_MOVES, FILE_OF, HORSE_MOVES, KING_MOVES, Kind, Move, NO_SQUARE,
    Position, RANK_OF, RED, Square, horse_leg, slot_color, slot_kind,
};

/// A set of squares (bit `sq` of three 32-bit words).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bits([u32; 3]);

impl Bits {
    const EMPTY: Bits = Bits([0; 3]);
    /// Whether any square is in the set.
    fn any(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) != 0
    }
    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        !self.any()
    }
    fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()
    }
    /// Adds `sq` (as `*self |= bit(sq)`, one word written).
    #[inline]
    fn set(&mut self, sq: Square) {
        if let Some(w) = self.0.get_mut(usize::from(sq >> 5)) {
            *w |= 1 << (sq & 31);
        }
    }
}

/// The squares of each rank (`[0..10]`) and then of each file (`[10..19]`).
static LINES: [Bits; 19] = {
    let mut t = [Bits::EMPTY; 19];
    let mut sq = 0;
    while sq < 90 {
        let (r, f) = (sq / 9, sq % 9);
        t[r].0[sq >> 5] |= 1 << (sq & 31);
        t[10 + f].0[sq >> 5] |= 1 << (sq & 31);
        sq += 1;
    }
    t
};

/// The squares of rank `r` (0..10; none beyond).
#[inline]
fn rank_bits(r: u8) -> Bits {
    if r < 10 {
        LINES[usize::from(r)]
    } else {
        Bits::EMPTY
    }
}

/// The squares of file `f` (0..9; none beyond).
#[inline]
fn file_bits(f: u8) -> Bits {
    LINES
        .get(10 + usize::from(f))
        .copied()
        .unwrap_or(Bits::EMPTY)
}

macro_rules! bits_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl core::ops::$tr for Bits {
            type Output = Bits;
            fn $f(self, o: Bits) -> Bits {
                Bits([self.0[0] $op o.0[0], self.0[1] $op o.0[1], self.0[2] $op o.0[2]])
            }
        }
        impl core::ops::$atr for Bits {
            fn $af(&mut self, o: Bits) {
                *self = core::ops::$tr::$f(*self, o);
            }
        }
    };
}
bits_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bits_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bits_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl core::ops::Not for Bits {
    type Output = Bits;
    fn not(self) -> Bits {
        Bits([!self.0[0], !self.0[1], !self.0[2]])
    }
}

#[inline]
fn bit(sq: Square) -> Bits {
    let mut b = Bits::EMPTY;
    if let Some(w) = b.0.get_mut(usize::from(sq >> 5)) {
        *w = 1 << (sq & 31);
    }
    b
}

/// Whether `sq` is in `b` (as `(b & bit(sq)).any()`, one word read).
#[inline]
fn has(b: Bits, sq: Square) -> bool {
    b.0.get(usize::from(sq >> 5))
        .is_some_and(|&w| (w >> (sq & 31)) & 1 != 0)
}

fn squares_of(mut b: Bits) -> impl Iterator<Item = Square> {
    core::iter::from_fn(move || {
        let w = b.0.iter().position(|&w| w != 0)?;
        let sq = (w as u32 * 32 + b.0[w].trailing_zeros()) as Square;
        b.0[w] &= b.0[w] - 1;
        Some(sq)
    })
}

/// Every occupied square, from the ranks' occupancies (square `9r + f`
/// is bit `f` of rank `r`'s nine): ranks 0–6 and rank 7's first square
/// fill the first two words, the rest the third.
fn occupied(pos: &Position) -> Bits {
    let rank = |r: u8| u64::from(pos.rank_occ(r));
    let low = rank(0)
        | rank(1) << 9
        | rank(2) << 18
        | rank(3) << 27
        | rank(4) << 36
        | rank(5) << 45
        | rank(6) << 54
        | rank(7) << 63;
    let high = (pos.rank_occ(7) >> 1) as u32
        | u32::from(pos.rank_occ(8)) << 8
        | u32::from(pos.rank_occ(9)) << 17;
    Bits([low as u32, (low >> 32) as u32, high])
}

/// [`occupied`] from the squares of the 32 slots (the form it had before,
/// for the tests).
#[cfg(test)]
fn occupied_reference(pos: &Position) -> Bits {
    let mut b = Bits::EMPTY;
    for slot in 16..48u8 {
        // A captured piece's NO_SQUARE lies beyond the three words: not set.
        b.set(pos.square_of(slot));
    }
    b
}

/// Squares of `color`'s pieces of the given kinds.
fn pieces(pos: &Position, color: u8, kinds: &[Kind]) -> Bits {
    let mut b = Bits::EMPTY;
    for &kind in kinds {
        let (first, n) = kind.slots();
        let first = 16 + 16 * color + first;
        for slot in first..first + n {
            // NO_SQUARE (captured) lies beyond the three words: not set.
            b.set(pos.square_of(slot));
        }
    }
    b
}

const ALL_KINDS: [Kind; 7] = Kind::ALL;

fn crossed(color: u8, sq: Square) -> bool {
    let r = RANK_OF[usize::from(sq)];
    if color == RED { r >= 5 } else { r <= 4 }
}

/// Kings and pawns that have not crossed the river: never "chased".
fn unchaseable(pos: &Position, color: u8) -> Bits {
    let pawns = pieces(pos, color, &[Kind::Pawn]);
    let uncrossed = squares_of(pawns)
        .filter(|&s| !crossed(color, s))
        .fold(Bits::EMPTY, |b, s| b | bit(s));
    pieces(pos, color, &[Kind::King]) | uncrossed
}

/// Squares on the rank and file through `sq` (excluding `sq`).
fn rook_lines(sq: Square) -> Bits {
    let (r, f) = (RANK_OF[usize::from(sq)], FILE_OF[usize::from(sq)]);
    (rank_bits(r) | file_bits(f)) ^ bit(sq)
}

/// [`rook_lines`] square by square (the form it had before, for the tests).
#[cfg(test)]
fn rook_lines_reference(sq: Square) -> Bits {
    let (r, f) = (RANK_OF[usize::from(sq)], FILE_OF[usize::from(sq)]);
    let mut b = Bits::EMPTY;
    for file in 0..9 {
        b |= bit(r * 9 + file);
    }
    for rank in 0..10 {
        b |= bit(rank * 9 + f);
    }
    b ^ bit(sq)
}

/// The whole line through `a` and `b` (empty if they share neither rank nor file).
fn line_through(a: Square, b: Square) -> Bits {
    let (ra, fa) = (RANK_OF[usize::from(a)], FILE_OF[usize::from(a)]);
    let (rb, fb) = (RANK_OF[usize::from(b)], FILE_OF[usize::from(b)]);
    let mut line = Bits::EMPTY;
    if ra == rb {
        line |= rank_bits(ra);
    }
    if fa == fb {
        line |= file_bits(fa);
    }
    line
}

/// [`line_through`] square by square (the form it had before, for the tests).
#[cfg(test)]
fn line_through_reference(a: Square, b: Square) -> Bits {
    let (ra, fa) = (RANK_OF[usize::from(a)], FILE_OF[usize::from(a)]);
    let (rb, fb) = (RANK_OF[usize::from(b)], FILE_OF[usize::from(b)]);
    (0..90u8)
        .filter(|&s| {
            (ra == rb && RANK_OF[usize::from(s)] == ra)
                || (fa == fb && FILE_OF[usize::from(s)] == fa)
        })
        .fold(Bits::EMPTY, |acc, s| acc | bit(s))
}

/// Orthogonal or diagonal neighbours of `sq`.
fn neighbours(sq: Square, diagonal: bool) -> Bits {
    let (r, f) = (
        i32::from(RANK_OF[usize::from(sq)]),
        i32::from(FILE_OF[usize::from(sq)]),
    );
    let steps: [(i32, i32); 4] = if diagonal {
        [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    } else {
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
    };
    steps
        .iter()
        .filter_map(|&(dr, df)| {
            let (nr, nf) = (r + dr, f + df);
            ((0..10).contains(&nr) && (0..9).contains(&nf)).then(|| bit((nr * 9 + nf) as Square))
        })
        .fold(Bits::EMPTY, |a, b| a | b)
}

/// Squares a rook (or, with `CANNON`, a cannon's captures) reaches from
/// `sq`: one walk a direction, its step a constant, each square's word and
/// bit found once.
fn ray_attacks<const CANNON: bool>(sq: Square, occ: Bits) -> Bits {
    let (r, f) = (RANK_OF[usize::from(sq)], FILE_OF[usize::from(sq)]);
    let mut b = Bits::EMPTY;
    let mut walk = |step: u8, count: u8| {
        let mut s = sq;
        let mut screened = false;
        for _ in 0..count {
            s = s.wrapping_add(step);
            let (w, bit) = (usize::from(s >> 5), 1u32 << (s & 31));
            let Some(&o) = occ.0.get(w) else {
                break;
            };
            let full = o & bit != 0;
            if !CANNON || screened {
                if let Some(x) = b.0.get_mut(w) {
                    *x |= bit;
                }
                if full {
                    break;
                }
            } else if full {
                screened = true;
            }
        }
    };
    // Up, down, right and left: the step and the squares that way.
    walk(9, 9 - r);
    walk(9u8.wrapping_neg(), r);
    walk(1, 8 - f);
    walk(1u8.wrapping_neg(), f);
    b
}

/// Squares a piece of `kind` and `color` on `sq` attacks, with occupancy `occ`.
fn attacks(kind: Kind, color: u8, sq: Square, occ: Bits) -> Bits {
    let s = usize::from(sq);
    match kind {
        Kind::King => KING_MOVES[s]
            .iter()
            .take_while(|&&t| t != NO_SQUARE)
            .fold(Bits::EMPTY, |b, &t| b | bit(t)),
        Kind::Advisor => ADVISOR_MOVES[s]
            .iter()
            .take_while(|&&t| t != NO_SQUARE)
            .fold(Bits::EMPTY, |b, &t| b | bit(t)),
        Kind::Elephant => ELEPHANT_MOVES[s]
            .iter()
            .take_while(|e| e[0] != NO_SQUARE)
            .filter(|e| !has(occ, e[1]))
            .fold(Bits::EMPTY, |b, e| b | bit(e[0])),
        Kind::Horse => HORSE_MOVES[s]
            .iter()
            .take_while(|e| e[0] != NO_SQUARE)
            .filter(|e| !has(occ, e[1]))
            .fold(Bits::EMPTY, |b, e| b | bit(e[0])),
        Kind::Rook => ray_attacks::<false>(sq, occ),
        Kind::Cannon => ray_attacks::<true>(sq, occ),
        Kind::Pawn => {
            let (r, f) = (RANK_OF[s], FILE_OF[s]);
            let mut b = Bits::EMPTY;
            if color == RED && r < 9 {
                b |= bit(sq + 9);
            }
            if color != RED && r > 0 {
                b |= bit(sq - 9);
            }
            if crossed(color, sq) {
                if f > 0 {
                    b |= bit(sq - 1);
                }
                if f < 8 {
                    b |= bit(sq + 1);
                }
            }
            b
        }
    }
}

/// Attacks of the piece standing on `sq` (none if empty).
fn attacks_of(pos: &Position, sq: Square, occ: Bits) -> Bits {
    let p = pos.at(sq);
    if p == 0 {
        Bits::EMPTY
    } else {
        attacks(slot_kind(p), slot_color(p), sq, occ)
    }
}

/// `color`'s pieces attacking `target` with occupancy `occ`.
fn attackers_to(pos: &Position, target: Square, occ: Bits, color: u8) -> Bits {
    let mut b = Bits::EMPTY;
    for slot in 16 + 16 * color..32 + 16 * color {
        let sq = pos.square_of(slot);
        if sq != NO_SQUARE && (attacks(slot_kind(slot), color, sq, occ) & bit(target)).any() {
            b |= bit(sq);
        }
    }
    b
}

/// Squares strictly between `a` and `b` on a shared line.
fn between(a: Square, b: Square) -> Bits {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let step = if RANK_OF[usize::from(lo)] == RANK_OF[usize::from(hi)] {
        1
    } else if FILE_OF[usize::from(lo)] == FILE_OF[usize::from(hi)] {
        9
    } else {
        return Bits::EMPTY;
    };
    let mut bits = Bits::EMPTY;
    let mut s = lo + step;
    while s < hi {
        bits |= bit(s);
        s += step;
    }
    bits
}

/// Pieces of either colour whose removal would expose `color`'s king to an
/// enemy rook, cannon or horse (pins and discovered-check candidates).
pub fn blockers_for_king(pos: &Position, color: u8) -> Bits {
    let ks = pos.king(color);
    if ks == NO_SQUARE {
        return Bits::EMPTY;
    }
    let all = occupied(pos);
    let them = color ^ 1;
    let lines = rook_lines(ks);
    // Their rooks and cannons on the king's lines that do not attack it
    // (the rays walked only when there is one).
    // (Whether one attacks the king is the position's own line test,
    // `Position::screens`: `all` is the position's occupancy.)
    let first = 16 + 16 * them;
    let attacking = |slot: u8, screens: u32| {
        let s = pos.square_of(slot);
        if s != NO_SQUARE && pos.screens(s, ks) == screens {
            bit(s)
        } else {
            Bits::EMPTY
        }
    };
    let mut rooks = pieces(pos, them, &[Kind::Rook]) & lines;
    if rooks.any() {
        rooks &= !(attacking(first + 7, 0) | attacking(first + 8, 0));
    }
    let mut cannons = pieces(pos, them, &[Kind::Cannon]) & lines;
    if cannons.any() {
        cannons &= !(attacking(first + 9, 1) | attacking(first + 10, 1));
    }
    let mut horse_snipers = Bits::EMPTY;
    // The snipers' legs (a horse step has eight origins at most).
    let mut horse_legs = [NO_SQUARE; 8];
    let mut snipers = 0;
    // Their two horses a horse step from the king with the leg taken (the
    // step and its leg from `HORSE_LEG`, the files telling a wrap).
    for slot in [first + 5, first + 6] {
        let from = pos.square_of(slot);
        let Some(leg) = horse_leg(from, ks) else {
            continue;
        };
        if pos.at(leg) != 0 {
            horse_snipers |= bit(from);
            if let Some(slot) = horse_legs.get_mut(snipers) {
                *slot = leg;
                snipers += 1;
            }
        }
    }
    let occupancy = all ^ rooks ^ horse_snipers;
    let mut blockers = Bits::EMPTY;
    for s in squares_of(rooks) {
        let b = between(ks, s) & occupancy;
        if b.count() == 1 {
            blockers |= b;
        }
    }
    for s in squares_of(cannons) {
        let b = between(ks, s) & (all ^ bit(s));
        if b.count() == 1 || b.count() == 2 {
            blockers |= b;
        }
    }
    for &leg in &horse_legs[..snipers] {
        blockers |= bit(leg) & occupancy;
    }
    blockers
}

fn undo_move_board(b: Bits, mv: Move) -> Bits {
    if !mv.is_null() && (b & bit(mv.to)).any() {
        (b ^ bit(mv.to)) | bit(mv.from)
    } else {
        b
    }
}

/// Pieces of the side to move that `mv` (the move just played) chases.
/// `prev_blockers` are [`blockers_for_king`] of the side to move before `mv`.
pub fn chased(pos: &Position, mv: Move, prev_blockers: Bits) -> Bits {
    #[cfg(test)]
    super::stack_probe::note();
    let us = pos.side();
    let them = us ^ 1;
    let all = occupied(pos);
    let mut b = Bits::EMPTY;
    // Our king's blockers now: our pinned pieces, and below the new pins
    // and their discovered checks.
    let blockers_now = blockers_for_king(pos, us);
    let mut pins = blockers_now;
    // Flying general: our lone piece on the file between both kings is pinned.
    let their_king = pos.king(them);
    if their_king != NO_SQUARE {
        let file = FILE_OF[usize::from(their_king)];
        let on_file = (0..10u8)
            .map(|r| r * 9 + file)
            .filter(|&s| pos.at(s) != 0 && slot_color(pos.at(s)) == us)
            .fold(Bits::EMPTY, |acc, s| acc | bit(s));
        let kings =
            pieces(pos, RED, &[Kind::King]) | pieces(pos, super::board::BLACK, &[Kind::King]);
        if (on_file & kings).any() && (on_file & !kings).count() <= 1 {
            pins |= on_file & !kings;
        }
    }
    let ours = pieces(pos, us, &ALL_KINDS);
    let excluded = unchaseable(pos, us);
    let our_king = pos.king(us);

    let add_chased = |b: &mut Bits, attacker: Square, kind: Kind, mut att: Bits| {
        if (att & !*b).is_empty() {
            return;
        }
        att &= !excluded;
        if matches!(kind, Kind::Horse | Kind::Cannon) {
            *b |= att & pieces(pos, us, &[Kind::Rook]);
        }
        if matches!(kind, Kind::Elephant | Kind::Advisor) {
            *b |= att & pieces(pos, us, &[Kind::Rook, Kind::Cannon, Kind::Horse]);
        }
        // Mutual attacks by the same kind are not chases (an impaired horse or a
        // pinned piece cannot answer, so those still count).
        if kind == Kind::Horse && (neighbours(attacker, true) & all).any() {
            for s in squares_of(att & pieces(pos, us, &[Kind::Horse])) {
                if (attacks(Kind::Horse, us, s, all) & bit(attacker)).any() {
                    att ^= bit(s);
                }
            }
        } else {
            att &= !pieces(pos, us, &[kind]) | pins;
        }
        for s in squares_of(att) {
            let roots = attackers_to(pos, s, all ^ bit(attacker), us) & !pins;
            let king_only_exposed = our_king != NO_SQUARE
                && roots == bit(our_king)
                && their_king != NO_SQUARE
                && (attacks(Kind::Rook, them, their_king, all ^ bit(attacker)) & bit(s)).any();
            if roots.is_empty() || king_only_exposed {
                *b |= bit(s);
            }
        }
    };

    // Direct attacks by the moved piece (only new lines for rooks and cannons).
    let moved = slot_kind(mv.piece);
    if !mv.is_null() && moved != Kind::King && moved != Kind::Pawn {
        let mut direct = attacks(moved, them, mv.to, all) & ours;
        if matches!(moved, Kind::Rook | Kind::Cannon) {
            direct &= !line_through(mv.from, mv.to);
        }
        add_chased(&mut b, mv.to, moved, direct);
    }
    if mv.is_null() {
        return b;
    }
    // Discovered attacks.
    let candidates = (neighbours(mv.from, false) & pieces(pos, them, &[Kind::Horse]))
        | (neighbours(mv.from, true) & pieces(pos, them, &[Kind::Elephant]))
        | (rook_lines(mv.from) & pieces(pos, them, &[Kind::Cannon, Kind::Rook]))
        | (rook_lines(mv.to) & pieces(pos, them, &[Kind::Cannon]));
    let before = if mv.captured != 0 {
        all
    } else {
        all ^ bit(mv.to)
    } ^ bit(mv.from);
    for s in squares_of(candidates) {
        let p = pos.at(s);
        let kind = slot_kind(p);
        let found = ours & attacks(kind, them, s, all) & !attacks(kind, them, s, before);
        add_chased(&mut b, s, kind, found);
    }
    // Fake protection by newly pinned pieces, and discovered checks.
    let new_pins = blockers_now & !prev_blockers & ours;
    // Their king's blockers, found only when a piece of ours is newly pinned.
    let their_blockers = if new_pins.any() {
        blockers_for_king(pos, them)
    } else {
        Bits::EMPTY
    };
    for s in squares_of(new_pins) {
        let fake = ours & !excluded & attacks_of(pos, s, all);
        for s2 in squares_of(fake) {
            if (attackers_to(pos, s2, all, them) & !their_blockers).any() {
                b |= bit(s2);
            }
        }
    }
    let theirs = pieces(pos, them, &ALL_KINDS);
    let discoverers = blockers_now & !prev_blockers & theirs;
    if our_king != NO_SQUARE {
        let king_reach = attacks(Kind::King, us, our_king, all);
        for s in squares_of(discoverers) {
            let mut found = attacks_of(pos, s, all) & ours;
            b |= found & !king_reach;
            found &= king_reach;
            for s2 in squares_of(found) {
                let occ = all ^ bit(s) ^ bit(our_king);
                if (attackers_to(pos, s2, occ, them) & !bit(s)).any() {
                    b |= bit(s2);
                }
            }
        }
    }
    b
}

/// Moves kept for repetition detection (a ring buffer: the oldest are dropped).
pub const HISTORY: usize = 48;

/// One played move with what is needed to take it back and to find
/// repetitions, packed in 8 bytes: the move, the natural-move counter before it
/// (saturated at 255; the game is drawn at 120) and the top 24 of the low 32 bits
/// of the key before it. Tags only pre-select; a repetition is confirmed with
/// the full 64-bit key of the position rebuilt by taking moves back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    tag: u32,
    /// The move ([`Move::NULL`] for the search's null move).
    pub mv: Move,
}

/// The part of a key an [`Entry`] keeps.
#[inline]
pub fn key_tag(key: u64) -> u32 {
    key as u32 & 0xFFFF_FF00
}

impl Entry {
    /// Records `mv`, played from a position with key `key_before` and
    /// natural-move counter `quiet_before`.
    pub fn new(key_before: u64, mv: Move, quiet_before: u16) -> Self {
        Self {
            tag: key_tag(key_before) | u32::from(quiet_before.min(255)),
            mv,
        }
    }
    /// [`key_tag`] of the position before the move.
    pub fn key_tag(&self) -> u32 {
        self.tag & 0xFFFF_FF00
    }
    /// Natural-move counter before the move.
    pub fn quiet_before(&self) -> u16 {
        (self.tag & 0xFF) as u16
    }
}

/// The last [`HISTORY`] moves of a game. When more are pushed, the oldest are
/// dropped for good (the floor rises), so a search that goes deeper than the
/// buffer never reads an overwritten entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    entries: [Entry; HISTORY],
    len: u32,
    floor: u32,
    /// `len % HISTORY`, kept in step (the M0 has no divider).
    head: u32,
}

impl Default for History {
    fn default() -> Self {
        Self {
            entries: [Entry::default(); HISTORY],
            len: 0,
            floor: 0,
            head: 0,
        }
    }
}

impl History {
    /// Records a move.
    pub fn push(&mut self, e: Entry) {
        if self.len == u32::MAX {
            return;
        }
        self.entries[self.head as usize] = e;
        self.len += 1;
        self.head = if self.head as usize + 1 == HISTORY {
            0
        } else {
            self.head + 1
        };
        if (self.len - self.floor) as usize > HISTORY {
            self.floor = self.len - HISTORY as u32;
        }
    }
    /// Removes and returns the last move (`None` when no recorded move is left).
    pub fn pop(&mut self) -> Option<Entry> {
        if self.len == self.floor {
            return None;
        }
        self.len -= 1;
        self.head = if self.head == 0 {
            HISTORY as u32 - 1
        } else {
            self.head - 1
        };
        Some(core::mem::take(&mut self.entries[self.head as usize]))
    }
    /// How many moves can be looked back at.
    pub fn available(&self) -> usize {
        (self.len - self.floor) as usize
    }
    /// The `back`-th last move (1 = the last one).
    pub fn get(&self, back: usize) -> Option<Entry> {
        if back == 0 || back > self.available() {
            return None;
        }
        // `back` is at most HISTORY here: one wrap at most.
        let i = self.head as usize + HISTORY - back;
        Some(self.entries[if i >= HISTORY { i - HISTORY } else { i }])
    }
    /// The last `n` moves (at most [`History::available`]), the last one
    /// first: `get(1)`, `get(2)`, … read in one pass over the ring.
    pub fn recent(&self, n: usize) -> impl Iterator<Item = Entry> + '_ {
        // `entries[..head]` ends with the last move; the ring goes on from
        // the end of `entries[head..]`.
        let (last, wrapped) = self.entries.split_at((self.head as usize).min(HISTORY));
        last.iter()
            .rev()
            .chain(wrapped.iter().rev())
            .take(n.min(self.available()))
            .copied()
    }
    /// Whether among the last `n` moves (at most [`History::available`]),
    /// back to a null move, one was played from a position an even number
    /// of plies back, four or more, whose key's tag is `tag`: what
    /// `may_repeat` asks of each of `recent(n)` until a null move, read
    /// two entries a step (an odd number of plies back only ends the look
    /// at a null move).
    #[inline(always)]
    pub fn may_repeat_within(&self, n: usize, tag: u32) -> bool {
        let back = |i: usize| if i == 0 { HISTORY - 1 } else { i - 1 };
        let mut i = (self.head as usize).min(HISTORY);
        let mut pairs = n / 2;
        let mut first = true;
        while pairs > 0 {
            i = back(i);
            if self.entries[i].mv.is_null() {
                return false;
            }
            i = back(i);
            let e = self.entries[i];
            if e.mv.is_null() {
                return false;
            }
            if !first && e.key_tag() == tag {
                return true;
            }
            first = false;
            pairs -= 1;
        }
        false
    }
    /// Total moves recorded (including those dropped from the buffer).
    pub fn total(&self) -> u32 {
        self.len
    }
}

/// How a repetition ends the game for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins (the opponent checked or chased perpetually).
    Win,
    /// The side to move loses.
    Loss,
    /// Drawn.
    Draw,
}

/// Judges a repetition of the current position, if there is one.
///
/// `quiet` is the natural-move counter (plies since the last capture); `ply` is
/// the distance from the search root: inside the tree (`ply > cycle length`) one
/// earlier occurrence suffices, at or before the root the position must have
/// occurred twice before (threefold repetition), as in Fairy-Stockfish. With
/// `judge` false a repetition is simply called a draw (the search does so deep
/// in the tree, to bound its stack).
pub fn repetition(
    pos: &Position,
    hist: &History,
    quiet: u16,
    ply: usize,
    judge: bool,
) -> Option<Verdict> {
    repetition_in(&mut pos.clone(), hist, quiet, ply, judge)
}

/// [`repetition`] judged on `pos` itself: the judge takes its moves back
/// and plays them again, so `pos` is left as it was, and no copy of it
/// goes on the frame (the search judges at its deepest plies, where the
/// stack peaks).
// Out of line on a board: inlined, its locals would sit in every search frame.
#[cfg_attr(target_os = "none", inline(never))]
pub fn repetition_in(
    pos: &mut Position,
    hist: &History,
    quiet: u16,
    ply: usize,
    judge: bool,
) -> Option<Verdict> {
    // Positions repeat only across reversible moves: back to the last capture
    // (`quiet`) or the search's last null move, whichever is nearer.
    let limit = usize::from(quiet).min(hist.available());
    if limit < 4 {
        return None;
    }
    // A first look for a tag that matches, here (most calls find none);
    // the positions are rebuilt to confirm one out of line.
    if !hist.may_repeat_within(limit, key_tag(pos.key())) {
        return None;
    }
    let cycle = find_cycle(pos, hist, limit, ply);
    if cycle == 0 {
        return None;
    }
    if !judge {
        return Some(Verdict::Draw);
    }
    let mut reversible = 0;
    while let Some(e) = hist.get(reversible + 1) {
        if e.mv.is_null() {
            break;
        }
        reversible += 1;
    }
    Some(judge_cycle(pos, hist, cycle, reversible))
}

/// Whether the position `i` plies back, whose key's tag is `then`, may be
/// the one whose tag is `now`: the same side to move, a cycle of at least
/// four plies, the tags equal.
#[inline(always)]
fn may_repeat(i: usize, then: u32, now: u32) -> bool {
    i >= 4 && i.is_multiple_of(2) && then == now
}

/// How many plies back `pos` repeats for the second time (the third within
/// the search's line: see [`repetition`]), or 0. Out of line: its copy of the
/// position stays off the frame the judge runs on top of.
#[inline(never)]
fn find_cycle(pos: &Position, hist: &History, limit: usize, ply: usize) -> usize {
    let mut count = 0;
    let mut cycle = 0;
    let tag = key_tag(pos.key());
    // `probe` is rebuilt lazily, `probe_back` plies back, to confirm tag matches.
    let mut probe: Option<(Position, usize)> = None;
    for (back, e) in hist.recent(limit).enumerate() {
        let i = back + 1;
        if e.mv.is_null() {
            break;
        }
        if !may_repeat(i, e.key_tag(), tag) {
            continue;
        }
        let (p, back) = probe.get_or_insert_with(|| (pos.clone(), 0));
        while *back < i {
            *back += 1;
            if let Some(e) = hist.get(*back) {
                p.unmake_raw(e.mv);
            }
        }
        if p.key() != pos.key() {
            continue;
        }
        count += 1;
        if count + 1 == if ply > i { 2 } else { 3 } {
            cycle = i;
            break;
        }
    }
    cycle
}

/// Perpetual check, then perpetual chase, over the `cycle` plies before `pos`.
/// Works on `cur` itself and leaves it as it was.
///
/// Two walks back over the cycle: the checks first (a king test a
/// position), and the chases (each move's chased pieces, the dearest part)
/// only when neither side checked throughout, and for a side only while the
/// pieces it chased on every move so far are not none.
#[inline(never)]
fn judge_cycle(cur: &mut Position, hist: &History, cycle: usize, reversible: usize) -> Verdict {
    let judge = |them: bool, us: bool| {
        if !us {
            Verdict::Win
        } else if !them {
            Verdict::Loss
        } else {
            Verdict::Draw
        }
    };
    // The moves of the cycle (the last one back the root's when it has no
    // known move before it), as the walks take them back.
    let step = |j: usize| hist.get(j + 1).filter(|e| !e.mv.is_null());
    let (mut perp_them, mut perp_us) = (true, true);
    let mut undone = 0;
    for j in 0..=cycle {
        let check = cur.in_check();
        if j % 2 == 0 {
            perp_them &= check;
        } else {
            perp_us &= check;
        }
        let Some(e) = step(j) else {
            break;
        };
        cur.unmake_raw(e.mv);
        undone += 1;
    }
    replay(cur, hist, undone);
    if perp_them || perp_us {
        return judge(perp_them, perp_us);
    }
    let total_from_root = hist.total() as usize;
    let (mut chase_them, mut chase_us) = (Bits::EMPTY, Bits::EMPTY);
    let mut undone = 0;
    for j in 0..=cycle {
        let Some(e) = step(j) else {
            break;
        };
        // Once a side's chased pieces are none (from its second move on),
        // they stay none: its moves need no more chase tests, and with
        // both sides' none the walk is over.
        let chasing = j < 2 || (if j % 2 == 0 { chase_them } else { chase_us }).any();
        if j >= 2 && chase_them.is_empty() && chase_us.is_empty() {
            break;
        }
        // The position `cycle` plies back has no known previous move when it is the root.
        let root = j == cycle && (total_from_root == cycle || reversible == cycle);
        if chasing && !root {
            // The blockers before the move, from the same copy (one position
            // on the frame: the judge runs at the search's deepest plies).
            let side = cur.side();
            cur.unmake_raw(e.mv);
            let blockers = blockers_for_king(cur, side);
            cur.make_raw(e.mv);
            let c = chased(cur, e.mv, blockers);
            let later = hist.get(j).map_or(Move::NULL, |x| x.mv);
            match j {
                0 => chase_them = c,
                1 => chase_us = c,
                _ if j % 2 == 0 => chase_them = undo_move_board(chase_them, later) & c,
                _ => chase_us = undo_move_board(chase_us, later) & c,
            }
        }
        cur.unmake_raw(e.mv);
        undone += 1;
    }
    replay(cur, hist, undone);
    if chase_them.any() || chase_us.any() {
        judge(chase_them.any(), chase_us.any())
    } else {
        Verdict::Draw
    }
}

/// Plays again the last `undone` moves of `hist`, taken back from `cur`.
fn replay(cur: &mut Position, hist: &History, undone: usize) {
    for back in (1..=undone).rev() {
        if let Some(e) = hist.get(back) {
            cur.make_raw(e.mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// Reading the last moves in one pass gives what `get` gives one by
        /// one, whatever was pushed and popped (the ring wrapped or not).
        #[test]
        fn recent_moves_match_get(
            pushes in 0usize..150,
            pops in 0usize..60,
            n in 0usize..70,
        ) {
            let mut h = History::default();
            for k in 0..pushes as u64 {
                h.push(Entry::new(k << 8, Move::NULL, (k % 200) as u16));
            }
            for _ in 0..pops {
                h.pop();
            }
            let fast: std::vec::Vec<Entry> = h.recent(n).collect();
            let slow: std::vec::Vec<Entry> = (1..=n).map_while(|i| h.get(i)).collect();
            proptest::prop_assert_eq!(fast, slow);
        }

        /// The first look for a repeated tag, two entries a step, finds one
        /// exactly where the scan of `recent` one entry a step does.
        #[test]
        fn the_paired_tag_look_matches_the_scan(
            moves in proptest::collection::vec((0u64..4, 0u8..12), 0..120),
            pops in 0usize..40,
            n in 0usize..60,
            tag in 0u64..4,
        ) {
            let mut h = History::default();
            for &(key, m) in &moves {
                // Piece 0 is the null move: about one in twelve.
                let mv = Move { from: 0, to: 1, piece: m, captured: 0 };
                h.push(Entry::new(key << 8, mv, 0));
            }
            for _ in 0..pops {
                h.pop();
            }
            let n = n.min(h.available());
            let tag = key_tag(tag << 8);
            let mut slow = false;
            for (back, e) in h.recent(n).enumerate() {
                if e.mv.is_null() {
                    break;
                }
                if may_repeat(back + 1, e.key_tag(), tag) {
                    slow = true;
                    break;
                }
            }
            proptest::prop_assert_eq!(h.may_repeat_within(n, tag), slow);
        }
    }

    /// The pin finder's test of a rook or cannon attacking the king (the
    /// position's `screens`: none between, one between) agrees with the
    /// king's rays walked square by square, for every square on the
    /// king's lines, along random games.
    #[test]
    fn king_line_attacks_match_the_rays() {
        for seed in 0..40u64 {
            for plies in [0, 10, 30, 80] {
                let pos = Position::random_walk(seed, plies);
                let all = occupied(&pos);
                for color in [RED, super::super::board::BLACK] {
                    let ks = pos.king(color);
                    if ks == NO_SQUARE {
                        continue;
                    }
                    for s in squares_of(rook_lines(ks) & all) {
                        for (cannon, screens) in [(false, 0), (true, 1)] {
                            let walked = (attacks(
                                if cannon { Kind::Cannon } else { Kind::Rook },
                                color ^ 1,
                                ks,
                                all,
                            ) & bit(s))
                            .any();
                            assert_eq!(pos.screens(s, ks) == screens, walked, "{s} {pos:?}");
                        }
                    }
                }
            }
        }
    }

    /// The occupied squares read from the ranks' occupancies are the
    /// squares of the pieces' slots, along random games.
    #[test]
    fn occupied_from_the_ranks_matches_the_slots() {
        for seed in 0..40u64 {
            for plies in [0, 5, 20, 60, 120] {
                let pos = Position::random_walk(seed, plies);
                assert_eq!(occupied(&pos), occupied_reference(&pos), "{pos:?}");
            }
        }
    }

    /// The rank-and-file lines read from [`LINES`] are the lines built
    /// square by square, for every square and every pair of squares.
    #[test]
    fn line_tables_match_the_square_walk() {
        for a in 0..90u8 {
            assert_eq!(rook_lines(a), rook_lines_reference(a), "{a}");
            for b in 0..90u8 {
                assert_eq!(line_through(a, b), line_through_reference(a, b), "{a} {b}");
            }
        }
    }
}
