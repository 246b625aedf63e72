//! Board representation: squares, piece slots, the precomputed const tables
//! (line blockers, leaper targets, Zobrist keys), make/unmake and FEN.
//!
//! Squares are numbered `rank * 9 + file`, rank 0 being red's back rank and
//! file 0 the `a` file, exactly as ICCS coordinates read. Every piece has a
//! fixed *slot* (ElephantEye style): red slots are 16..=31, black 32..=47, and
//! within a side slot 0 is the king, 1–2 advisors, 3–4 elephants, 5–6 horses,
//! 7–8 rooks, 9–10 cannons, 11–15 pawns. The board stores slots, so a slot
//! tells both the colour and the kind of a piece.

use core::fmt;

use super::eval::{PSQ, psq};
use crate::text::ParseError;

/// A square, `rank * 9 + file` (0..90).
pub type Square = u8;
/// No square (a captured piece's slot, a missing table entry).
pub const NO_SQUARE: Square = 0xFF;
/// Number of squares.
pub const SQUARES: usize = 90;

/// Red, who moves first (upper case in FEN).
pub const RED: u8 = 0;
/// Black (lower case in FEN).
pub const BLACK: u8 = 1;

/// The seven kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// General / king (帅/将).
    King = 0,
    /// Advisor (仕/士).
    Advisor = 1,
    /// Elephant (相/象).
    Elephant = 2,
    /// Horse (马).
    Horse = 3,
    /// Rook / chariot (车).
    Rook = 4,
    /// Cannon (炮).
    Cannon = 5,
    /// Pawn / soldier (兵/卒).
    Pawn = 6,
}

impl Kind {
    /// All kinds in slot order.
    pub const ALL: [Kind; 7] = [
        Kind::King,
        Kind::Advisor,
        Kind::Elephant,
        Kind::Horse,
        Kind::Rook,
        Kind::Cannon,
        Kind::Pawn,
    ];
    /// First slot (within a side) and number of slots of this kind.
    pub const fn slots(self) -> (u8, u8) {
        match self {
            Kind::King => (0, 1),
            Kind::Advisor => (1, 2),
            Kind::Elephant => (3, 2),
            Kind::Horse => (5, 2),
            Kind::Rook => (7, 2),
            Kind::Cannon => (9, 2),
            Kind::Pawn => (11, 5),
        }
    }
    /// FEN letter for red (upper case).
    pub const fn letter(self) -> u8 {
        b"KABNRCP"[self as usize]
    }
}

const SLOT_KIND: [Kind; 16] = [
    Kind::King,
    Kind::Advisor,
    Kind::Advisor,
    Kind::Elephant,
    Kind::Elephant,
    Kind::Horse,
    Kind::Horse,
    Kind::Rook,
    Kind::Rook,
    Kind::Cannon,
    Kind::Cannon,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
    Kind::Pawn,
];

/// [`SLOT_KIND`] for every byte (`slot & 15`'s kind), so that a slot
/// indexes it without a mask.
const SLOT_KINDS: [Kind; 256] = {
    let mut t = [Kind::King; 256];
    let mut s = 0;
    while s < 256 {
        t[s] = SLOT_KIND[s & 15];
        s += 1;
    }
    t
};

/// Kind of the piece in slot `slot` (16..48).
#[inline]
pub const fn slot_kind(slot: u8) -> Kind {
    SLOT_KINDS[slot as usize]
}

/// Colour of the piece in slot `slot` (16..48): [`RED`] or [`BLACK`].
#[inline]
pub fn slot_color(slot: u8) -> u8 {
    (slot >> 5) & 1
}

/// The slot of `color`'s king.
#[inline]
pub fn king_slot(color: u8) -> u8 {
    16 + 16 * color
}

/// A move: from, to, the moving piece's slot and the captured piece's slot (0 if none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    /// Origin square.
    pub from: Square,
    /// Destination square.
    pub to: Square,
    /// Slot of the moving piece.
    pub piece: u8,
    /// Slot of the captured piece, 0 for a quiet move.
    pub captured: u8,
}

impl Move {
    /// The null move (both squares 0), used only inside the search.
    pub const NULL: Move = Move {
        from: 0,
        to: 0,
        piece: 0,
        captured: 0,
    };
    /// Whether this is the search's null move.
    pub fn is_null(self) -> bool {
        self.piece == 0
    }
}

const fn build_file_of() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut s = 0;
    while s < SQUARES {
        t[s] = (s % 9) as u8;
        s += 1;
    }
    t
}
const fn build_rank_of() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut s = 0;
    while s < SQUARES {
        t[s] = (s / 9) as u8;
        s += 1;
    }
    t
}
/// File (0..9) of each square (the M0 has no divider); 256 entries (0 past
/// the board), so a `u8` square indexes it without a bounds check.
pub static FILE_OF: [u8; 256] = build_file_of();
/// Rank (0..10) of each square (256 entries, as [`FILE_OF`]).
pub static RANK_OF: [u8; 256] = build_rank_of();

const fn build_line_bits() -> [u32; 128] {
    let mut t = [0u32; 128];
    let mut s = 0;
    while s < SQUARES {
        t[s] = (1 << (s % 9)) | (1 << (16 + s / 9));
        s += 1;
    }
    t
}
/// Each square's bit in its rank's occupancy (`1 << file`, low half) and in
/// its file's (`1 << rank`, high half), for make and unmake.
static LINE_BITS: [u32; 128] = build_line_bits();

/// The square at `rank`, `file`.
#[inline]
pub const fn square(rank: u8, file: u8) -> Square {
    rank * 9 + file
}

/// Whether `sq` lies in either palace.
pub const fn in_palace(sq: Square) -> bool {
    let (r, f) = (sq / 9, sq % 9);
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

/// Nearest and second-nearest blockers on both sides of a point on a line,
/// packed in a `u16`: bits 0–3 nearest above, 4–7 second above, 8–11 nearest
/// below, 12–15 second below (coordinates along the line, 0xF = none).
///
/// Indexed by `[position][occupancy of the whole line]` (the position's own
/// bit ignored, so no bit needs squeezing out), so a rank table is 9 × 512
/// entries and a file table 10 × 1024 (29,696 bytes together).
const fn build_line<const N: usize, const M: usize>() -> [[u16; M]; N] {
    let mut t = [[0u16; M]; N];
    let mut pos = 0;
    while pos < N {
        let mut idx = 0;
        while idx < M {
            let occ = idx;
            let mut above = [0xFu16; 2];
            let mut n = 0;
            let mut p = pos + 1;
            while p < N && n < 2 {
                if occ & (1 << p) != 0 {
                    above[n] = p as u16;
                    n += 1;
                }
                p += 1;
            }
            let mut below = [0xFu16; 2];
            n = 0;
            let mut p = pos;
            while p > 0 && n < 2 {
                p -= 1;
                if occ & (1 << p) != 0 {
                    below[n] = p as u16;
                    n += 1;
                }
            }
            t[pos][idx] = above[0] | (above[1] << 4) | (below[0] << 8) | (below[1] << 12);
            idx += 1;
        }
        pos += 1;
    }
    t
}
/// Empty points a slider reaches from a point of a line of `N` points, by
/// `[position][occupancy of the whole line]` (the slider's own bit ignored).
const fn build_reach<const N: usize, const M: usize>() -> [[u8; M]; N] {
    let mut t = [[0u8; M]; N];
    let mut pos = 0;
    while pos < N {
        let mut occ = 0;
        while occ < M {
            let mut n = 0;
            let mut p = pos + 1;
            while p < N && occ & (1 << p) == 0 {
                n += 1;
                p += 1;
            }
            let mut p = pos;
            while p > 0 && occ & (1 << (p - 1)) == 0 {
                n += 1;
                p -= 1;
            }
            t[pos][occ] = n;
            occ += 1;
        }
        pos += 1;
    }
    t
}
/// Empty squares reachable along a rank, by file and the rank's occupancy (4,608 bytes).
pub static RANK_REACH: [[u8; 512]; 9] = build_reach::<9, 512>();
/// Empty squares reachable along a file, by rank and the file's occupancy (10,240 bytes).
pub static FILE_REACH: [[u8; 1024]; 10] = build_reach::<10, 1024>();

/// Blockers along a rank, by file and occupancy (see `build_line`).
pub static RANK_LINE: [[u16; 512]; 9] = build_line::<9, 512>();
/// Blockers along a file, by rank and occupancy.
pub static FILE_LINE: [[u16; 1024]; 10] = build_line::<10, 1024>();

/// Knight-like horse steps `(d_rank, d_file)` with the leg step.
const HORSE_STEPS: [(i8, i8, i8, i8); 8] = [
    (2, 1, 1, 0),
    (2, -1, 1, 0),
    (-2, 1, -1, 0),
    (-2, -1, -1, 0),
    (1, 2, 0, 1),
    (-1, 2, 0, 1),
    (1, -2, 0, -1),
    (-1, -2, 0, -1),
];

const fn offset(sq: usize, dr: i8, df: i8) -> u8 {
    let r = (sq / 9) as i8 + dr;
    let f = (sq % 9) as i8 + df;
    if r < 0 || r > 9 || f < 0 || f > 8 {
        NO_SQUARE
    } else {
        (r * 9 + f) as u8
    }
}

/// `[to, leg]` pairs for a horse on each square (`to` = [`NO_SQUARE`] ends the list).
const fn build_horse() -> [[[u8; 2]; 8]; SQUARES] {
    let mut t = [[[NO_SQUARE; 2]; 8]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut n = 0;
        let mut i = 0;
        while i < 8 {
            let (dr, df, lr, lf) = HORSE_STEPS[i];
            let to = offset(s, dr, df);
            if to != NO_SQUARE {
                t[s][n] = [to, offset(s, lr, lf)];
                n += 1;
            }
            i += 1;
        }
        s += 1;
    }
    t
}
/// Horse moves from each square: `[to, leg]`. Read backwards (a horse on `to`
/// attacks the square), the leg is [`reverse_leg`].
pub static HORSE_MOVES: [[[u8; 2]; 8]; SQUARES] = build_horse();

/// A horse's moves on each square grouped by leg: `[leg, to, to]` for the four
/// orthogonal neighbours ([`NO_SQUARE`] where off the board): a free leg
/// opens both of its targets.
const fn build_horse_legs() -> [[[u8; 3]; 4]; SQUARES] {
    let mut t = [[[NO_SQUARE; 3]; 4]; SQUARES];
    let dirs: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    let mut s = 0;
    while s < SQUARES {
        let mut i = 0;
        while i < 4 {
            let (dr, df) = dirs[i];
            let leg = offset(s, dr, df);
            if leg != NO_SQUARE {
                // Two steps along the leg's direction, one across it.
                let (a, b) = if dr != 0 {
                    (offset(s, 2 * dr, 1), offset(s, 2 * dr, -1))
                } else {
                    (offset(s, 1, 2 * df), offset(s, -1, 2 * df))
                };
                t[s][i] = [leg, a, b];
            }
            i += 1;
        }
        s += 1;
    }
    t
}
/// Horse moves from each square by leg: `[leg, to, to]`.
pub static HORSE_LEGS: [[[u8; 3]; 4]; SQUARES] = build_horse_legs();

/// A padding square of [`Position`]'s board that always holds [`WALL`]:
/// the off-board steps of [`HORSE_PATHS`] lead there.
pub const WALL_SQUARE: Square = 126;
/// What [`WALL_SQUARE`] holds: not 0, so a leg there is blocked, and with
/// bit 4 (red slots 16..32) and bit 5 (black slots 32..48) both set, so a
/// target there reads as one's own piece whichever side asks.
pub const WALL: u8 = 0x30;

/// A point of [`Position`]'s board array (a square, the wall square or
/// padding): a type whose values the compiler knows to be below 128, so a
/// table of them indexes the board with neither a mask nor a bounds check
/// ([`Position::at_cell`]).
///
/// Its variants are the points' numbers, `C0` to `C127`.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[rustfmt::skip]
#[allow(missing_docs)]
pub enum Cell {
    C0 = 0, C1, C2, C3, C4, C5, C6, C7,
    C8, C9, C10, C11, C12, C13, C14, C15,
    C16, C17, C18, C19, C20, C21, C22, C23,
    C24, C25, C26, C27, C28, C29, C30, C31,
    C32, C33, C34, C35, C36, C37, C38, C39,
    C40, C41, C42, C43, C44, C45, C46, C47,
    C48, C49, C50, C51, C52, C53, C54, C55,
    C56, C57, C58, C59, C60, C61, C62, C63,
    C64, C65, C66, C67, C68, C69, C70, C71,
    C72, C73, C74, C75, C76, C77, C78, C79,
    C80, C81, C82, C83, C84, C85, C86, C87,
    C88, C89, C90, C91, C92, C93, C94, C95,
    C96, C97, C98, C99, C100, C101, C102, C103,
    C104, C105, C106, C107, C108, C109, C110, C111,
    C112, C113, C114, C115, C116, C117, C118, C119,
    C120, C121, C122, C123, C124, C125, C126, C127,
}

impl Cell {
    /// The square (or padding point) as a [`Square`].
    #[inline]
    pub const fn sq(self) -> Square {
        self as u8
    }
}

/// Every [`Cell`] by its number.
#[rustfmt::skip]
const CELLS: [Cell; 128] = [
    Cell::C0, Cell::C1, Cell::C2, Cell::C3, Cell::C4, Cell::C5, Cell::C6, Cell::C7,
    Cell::C8, Cell::C9, Cell::C10, Cell::C11, Cell::C12, Cell::C13, Cell::C14, Cell::C15,
    Cell::C16, Cell::C17, Cell::C18, Cell::C19, Cell::C20, Cell::C21, Cell::C22, Cell::C23,
    Cell::C24, Cell::C25, Cell::C26, Cell::C27, Cell::C28, Cell::C29, Cell::C30, Cell::C31,
    Cell::C32, Cell::C33, Cell::C34, Cell::C35, Cell::C36, Cell::C37, Cell::C38, Cell::C39,
    Cell::C40, Cell::C41, Cell::C42, Cell::C43, Cell::C44, Cell::C45, Cell::C46, Cell::C47,
    Cell::C48, Cell::C49, Cell::C50, Cell::C51, Cell::C52, Cell::C53, Cell::C54, Cell::C55,
    Cell::C56, Cell::C57, Cell::C58, Cell::C59, Cell::C60, Cell::C61, Cell::C62, Cell::C63,
    Cell::C64, Cell::C65, Cell::C66, Cell::C67, Cell::C68, Cell::C69, Cell::C70, Cell::C71,
    Cell::C72, Cell::C73, Cell::C74, Cell::C75, Cell::C76, Cell::C77, Cell::C78, Cell::C79,
    Cell::C80, Cell::C81, Cell::C82, Cell::C83, Cell::C84, Cell::C85, Cell::C86, Cell::C87,
    Cell::C88, Cell::C89, Cell::C90, Cell::C91, Cell::C92, Cell::C93, Cell::C94, Cell::C95,
    Cell::C96, Cell::C97, Cell::C98, Cell::C99, Cell::C100, Cell::C101, Cell::C102, Cell::C103,
    Cell::C104, Cell::C105, Cell::C106, Cell::C107, Cell::C108, Cell::C109, Cell::C110, Cell::C111,
    Cell::C112, Cell::C113, Cell::C114, Cell::C115, Cell::C116, Cell::C117, Cell::C118, Cell::C119,
    Cell::C120, Cell::C121, Cell::C122, Cell::C123, Cell::C124, Cell::C125, Cell::C126, Cell::C127,
];

const fn build_horse_paths() -> [[[Cell; 3]; 4]; SQUARES] {
    let legs = build_horse_legs();
    let mut t = [[[Cell::C0; 3]; 4]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut i = 0;
        while i < 12 {
            let sq = legs[s][i / 3][i % 3];
            t[s][i / 3][i % 3] = CELLS[if sq == NO_SQUARE { WALL_SQUARE } else { sq } as usize];
            i += 1;
        }
        s += 1;
    }
    t
}
/// [`HORSE_LEGS`] with [`WALL_SQUARE`] for every off-board leg or target:
/// read through [`Position::at`], a leg off the board is blocked and a
/// target off the board holds a piece of one's own, so the walk needs no
/// test for the board's edge.
pub static HORSE_PATHS: [[[Cell; 3]; 4]; SQUARES] = build_horse_paths();

/// By `target - from + 19` (0..39), the step from a horse's square `from`
/// to the leg through which it reaches `target`, as [`reverse_leg`] gives
/// it, or 0 where `target - from` is no horse step (an off-board wrap is
/// told by the files, not here).
pub static HORSE_LEG: [i8; 39] = {
    let mut t = [0i8; 39];
    // Index 19 is a difference of 0.
    t[36] = 9; // 17
    t[38] = 9; // 19
    t[2] = -9; // −17
    t[0] = -9; // −19
    t[26] = -1; // 7
    t[8] = -1; // −11
    t[30] = 1; // 11
    t[12] = 1; // −7
    t
};

/// The leg of a horse on `h` toward `target` when `target` is a horse step
/// away (`None` otherwise, or for [`NO_SQUARE`]): the step and its leg from
/// [`HORSE_LEG`], the files telling a step that wraps past the board's edge.
#[inline(always)]
pub fn horse_leg(h: Square, target: Square) -> Option<Square> {
    // The step first: most pairs are none (one compare and one read).
    let d = usize::from(target)
        .wrapping_sub(usize::from(h))
        .wrapping_add(19);
    match HORSE_LEG.get(d) {
        Some(&step)
            if step != 0 && FILE_OF[usize::from(h)].abs_diff(FILE_OF[usize::from(target)]) <= 2 =>
        {
            Some(h.wrapping_add_signed(step))
        }
        _ => None,
    }
}

/// The leg of a horse on `from` that attacks `target` (a horse step away).
#[inline]
pub fn reverse_leg(from: Square, target: Square) -> Square {
    // Two ranks apart: the leg is one rank from `from`; else one file.
    match i16::from(target) - i16::from(from) {
        17 | 19 => from + 9,
        -17 | -19 => from - 9,
        7 | -11 => from - 1,
        _ => from + 1,
    }
}

/// Elephant moves `[to, eye]` from each square, staying on the same side of the river.
const fn build_elephant() -> [[[u8; 2]; 4]; SQUARES] {
    let mut t = [[[NO_SQUARE; 2]; 4]; SQUARES];
    let steps: [(i8, i8); 4] = [(2, 2), (2, -2), (-2, 2), (-2, -2)];
    let mut s = 0;
    while s < SQUARES {
        let mut n = 0;
        let mut i = 0;
        while i < 4 {
            let to = offset(s, steps[i].0, steps[i].1);
            if to != NO_SQUARE && (to as usize / 45) == s / 45 {
                t[s][n] = [to, offset(s, steps[i].0 / 2, steps[i].1 / 2)];
                n += 1;
            }
            i += 1;
        }
        s += 1;
    }
    t
}
/// Elephant moves from each square: `[to, eye]`.
pub static ELEPHANT_MOVES: [[[u8; 2]; 4]; SQUARES] = build_elephant();

/// Red's advisor points, the palace's corners and centre (black's are the
/// mirror, `89 - sq`): an advisor stands on no other square.
pub const ADVISOR_POINTS: [Square; 5] = [3, 5, 13, 21, 23];
/// Red's elephant points (black's are the mirror, `89 - sq`): an elephant
/// stands on no other square.
pub const ELEPHANT_POINTS: [Square; 7] = [2, 6, 18, 22, 26, 38, 42];

/// Red's palace points and elephant points: the only squares red's king,
/// advisors and elephants reach (black's are the mirror, `89 - sq`). Spelt
/// out (the capture generator ORs its 15 squares as constants); checked
/// against the palace and [`ELEPHANT_POINTS`] when compiled.
pub const HOME_POINTS: [Square; 15] = [2, 3, 4, 5, 6, 12, 13, 14, 18, 21, 22, 23, 26, 38, 42];

const _: () = {
    // Each of HOME_POINTS is in red's palace or an elephant point, and each
    // of those is in HOME_POINTS (15 = 9 palace points + 7 elephant points
    // − the palace centre, which is both).
    const fn holds(list: &[Square], sq: Square) -> bool {
        let mut i = 0;
        while i < list.len() {
            if list[i] == sq {
                return true;
            }
            i += 1;
        }
        false
    }
    let mut sq = 0;
    while sq < 45 {
        let home = in_palace(sq) || holds(&ELEPHANT_POINTS, sq);
        assert!(home == holds(&HOME_POINTS, sq));
        assert!(!holds(&ADVISOR_POINTS, sq) || in_palace(sq));
        sq += 1;
    }
};

/// By square, `1 << colour` for each side whose [`HOME_POINTS`] hold it
/// (128 entries: read masked, without a bounds check).
pub static HOME: [u8; 128] = {
    let mut t = [0; 128];
    let mut i = 0;
    while i < HOME_POINTS.len() {
        let sq = HOME_POINTS[i] as usize;
        t[sq] |= 1 << RED;
        t[89 - sq] |= 1 << BLACK;
        i += 1;
    }
    t
};

/// One-step moves inside the palace: orthogonal (king) or diagonal (advisor).
const fn build_palace(diagonal: bool) -> [[u8; 4]; SQUARES] {
    let mut t = [[NO_SQUARE; 4]; SQUARES];
    let steps: [(i8, i8); 4] = if diagonal {
        [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    } else {
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
    };
    let mut s = 0;
    while s < SQUARES {
        let mut n = 0;
        let mut i = 0;
        while i < 4 {
            let to = offset(s, steps[i].0, steps[i].1);
            if in_palace(s as u8) && to != NO_SQUARE && in_palace(to) {
                t[s][n] = to;
                n += 1;
            }
            i += 1;
        }
        s += 1;
    }
    t
}
/// King moves from each palace square.
pub static KING_MOVES: [[u8; 4]; SQUARES] = build_palace(false);
/// Advisor moves from each palace square.
pub static ADVISOR_MOVES: [[u8; 4]; SQUARES] = build_palace(true);

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build_zobrist() -> ([[u64; 128]; 16], u64) {
    // Rows 14–15 and squares 90..128 pad the table so that a masked index
    // needs no bounds check; the keys are those of `[14][90]` in order.
    let mut t = [[0u64; 128]; 16];
    let mut state = 0x0004_5EED_0004_5EEDu64; // seed 004
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < SQUARES {
            let (ns, v) = splitmix64(state);
            state = ns;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix64(state);
    (t, side)
}
const ZOBRIST_ALL: ([[u64; 128]; 16], u64) = build_zobrist();
/// Zobrist keys by `[colour * 7 + kind][square]` (splitmix64 from a fixed seed, at
/// compile time; padded to 16 × 128 for unchecked masked indexing).
pub static ZOBRIST: [[u64; 128]; 16] = ZOBRIST_ALL.0;
/// Zobrist key XORed in when black is to move.
pub const ZOBRIST_SIDE: u64 = ZOBRIST_ALL.1;

const fn build_slot_row() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut s = 16;
    while s < 48 {
        t[s] = (((s >> 5) & 1) * 7) as u8 + SLOT_KIND[s & 15] as u8;
        s += 1;
    }
    t
}
/// `colour * 7 + kind` of each slot (16..48): the row of [`ZOBRIST`] and of
/// the piece-square table.
static SLOT_ROW: [u8; 64] = build_slot_row();

/// The table row (`colour * 7 + kind`, 0..14) of the piece in `slot`.
#[inline]
pub fn slot_row(slot: u8) -> usize {
    usize::from(SLOT_ROW[usize::from(slot & 63)] & 15)
}

/// Zobrist key of piece `slot` on `sq`.
#[inline]
pub fn zobrist(slot: u8, sq: Square) -> u64 {
    ZOBRIST[slot_row(slot)][usize::from(sq & 0x7F)]
}

/// Phase units by [`Kind`]: rook 4, horse and cannon 2.
const PHASE_UNITS: [u8; 7] = [0, 0, 0, 2, 4, 2, 0];

/// Attack units by [`Kind`] of a piece across the river: rook 3, horse and
/// cannon 2, pawn 1 (the evaluation's, [`super::eval::param::ATTACK`]).
const ATTACK_UNITS: [u8; 7] = [0, 0, 0, 2, 3, 2, 1];

/// [`TALLY`]: phase units everywhere, attack units across the river, one
/// guard an advisor and four an elephant, at each field's bits.
const fn build_tally() -> [[i32; 128]; 16] {
    let mut t = [[0; 128]; 16];
    let mut row = 0;
    while row < 14 {
        let (color, kind) = (row / 7, row % 7);
        let mut sq = 0;
        while sq < SQUARES {
            let crossed = (sq >= 45) == (color == RED as usize);
            let mut v = (PHASE_UNITS[kind] as i32) << TALLY_PHASE;
            if crossed {
                v += (ATTACK_UNITS[kind] as i32) << (TALLY_UNITS + 8 * color as u32);
            }
            let guard = if kind == Kind::Advisor as usize {
                1
            } else if kind == Kind::Elephant as usize {
                4
            } else {
                0
            };
            v += guard << (TALLY_GUARDS + 4 * color as u32);
            t[row][sq] = v;
            sq += 1;
        }
        row += 1;
    }
    t
}
/// What a piece adds to [`Position::tally`], by `[colour * 7 + kind][square]`
/// (padded to 16 × 128, as [`ZOBRIST`]).
static TALLY: [[i32; 128]; 16] = build_tally();
/// [`Position::tally`]'s first bit of red's attack units (black's 8 above).
pub const TALLY_UNITS: u32 = 0;
/// [`Position::tally`]'s first bit of red's guards (black's 4 above).
pub const TALLY_GUARDS: u32 = 16;
/// [`Position::tally`]'s first bit of the phase units.
pub const TALLY_PHASE: u32 = 24;

/// A xiangqi position: the board, piece slots, line occupancies and the hash.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Position {
    /// Slots by square; squares 90..128 stay empty but for [`WALL_SQUARE`]
    /// (holding [`WALL`]). [`Position::at`] reads a square past the array
    /// ([`NO_SQUARE`]) as empty; [`Position::at_cell`] needs no test.
    board: [u8; 128],
    /// Squares by slot, read masked to 6 bits (no bounds check): slots
    /// 16..48 are the pieces', the others stay [`NO_SQUARE`].
    squares: [u8; 64],
    // The rest together (`repr(C)`), so that one base reaches them all with
    // the Cortex-M0's short offsets.
    key: u64,
    psq: i32,
    tally: i32,
    side: u8,
    rank_occ: [u16; 10],
    file_occ: [u16; 9],
}

impl Position {
    /// The standard opening position.
    pub const START_FEN: &'static str =
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

    /// An empty board (no pieces, red to move).
    pub fn empty() -> Self {
        let mut board = [0; 128];
        board[usize::from(WALL_SQUARE)] = WALL;
        Self {
            board,
            squares: [NO_SQUARE; 64],
            rank_occ: [0; 10],
            file_occ: [0; 9],
            side: RED,
            key: 0,
            psq: 0,
            tally: 0,
        }
    }

    /// The standard opening position.
    pub fn start() -> Self {
        Self::parse_fen(Self::START_FEN).unwrap_or_else(|_| Self::empty())
    }

    /// Side to move: [`RED`] or [`BLACK`].
    #[inline]
    pub fn side(&self) -> u8 {
        self.side
    }
    /// The incrementally updated Zobrist key.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }
    /// Material and piece-square value from red's side, as a packed
    /// middle-game / endgame [`super::eval::Pair`], kept up to date by make
    /// and unmake.
    #[inline]
    pub fn psq(&self) -> i32 {
        self.psq
    }
    /// Whether `by`'s king, advisors or elephants may reach `sq`: it is one
    /// of `by`'s [`HOME_POINTS`] (the parser accepts no advisor or elephant
    /// off its points, and moves keep them there).
    #[inline(always)]
    pub fn home_reach(&self, sq: Square, by: u8) -> bool {
        HOME[usize::from(sq & 0x7F)] & (1 << by) != 0
    }
    /// Rooks (4 each), horses and cannons (2 each) on the board: the game
    /// phase before capping (see [`super::eval::phase`]).
    #[inline]
    pub fn phase_units(&self) -> u8 {
        (self.tally >> TALLY_PHASE) as u8
    }
    /// Both sides' attack units, guards and phase units in one word, kept
    /// up to date by make and unmake (`TALLY` summed over the pieces):
    /// bits 0–7 red's attack units (its rooks, horses, cannons and pawns
    /// across the river: 3, 2, 2 and 1 each), 8–15 black's; bits 16–19
    /// red's guards (advisors on the board, plus 4 for each elephant),
    /// 20–23 black's; bits 24–31 [`Position::phase_units`].
    #[inline]
    pub fn tally(&self) -> i32 {
        self.tally
    }
    /// Slot of the piece on `sq` (0 when empty or off the board).
    #[inline]
    pub fn at(&self, sq: Square) -> u8 {
        // Squares are below 90, or NO_SQUARE (past the array: empty). A test
        // against 127, not a mask: the mask held a register on the Cortex-M0.
        self.board.get(usize::from(sq)).copied().unwrap_or(0)
    }
    /// Slot of the piece on `cell` (0 when empty), read with neither a mask
    /// nor a bounds check.
    #[inline]
    pub fn at_cell(&self, cell: Cell) -> u8 {
        self.board[cell as usize]
    }
    /// Square of the piece in `slot` ([`NO_SQUARE`] when captured, and for
    /// slots outside 16..48; the slot is read masked to 6 bits).
    #[inline]
    pub fn square_of(&self, slot: u8) -> Square {
        self.squares[usize::from(slot & 63)]
    }
    /// Square of `color`'s king.
    #[inline]
    pub fn king(&self, color: u8) -> Square {
        self.square_of(king_slot(color))
    }
    /// Square of the king on the side of the piece in `slot` (16..48): its
    /// slot is `slot`'s colour bits alone (16 red, 32 black).
    #[inline]
    pub fn own_king(&self, slot: u8) -> Square {
        self.square_of(slot & 0x30)
    }
    /// Occupied files of a rank as a 9-bit mask.
    #[inline]
    pub fn rank_occ(&self, rank: u8) -> u16 {
        self.rank_occ[usize::from(rank)]
    }
    /// Occupied ranks of a file as a 10-bit mask.
    #[inline]
    pub fn file_occ(&self, file: u8) -> u16 {
        self.file_occ[usize::from(file)]
    }

    /// Empty squares a rook or cannon on `sq` slides to along its rank and file.
    #[inline]
    pub fn reach(&self, sq: Square) -> u8 {
        let (r, f) = (RANK_OF[usize::from(sq)], FILE_OF[usize::from(sq)]);
        let ri = usize::from(self.rank_occ[usize::from(r)] & 0x1FF);
        let fi = usize::from(self.file_occ[usize::from(f)] & 0x3FF);
        RANK_REACH[usize::from(f)][ri] + FILE_REACH[usize::from(r)][fi]
    }

    /// Blockers along the rank through `sq` (see [`RANK_LINE`]).
    #[inline]
    pub fn rank_blockers(&self, sq: Square) -> u16 {
        let (r, f) = (RANK_OF[usize::from(sq)], FILE_OF[usize::from(sq)]);
        RANK_LINE[usize::from(f)][usize::from(self.rank_occ[usize::from(r)] & 0x1FF)]
    }
    /// Blockers along the file through `sq` (see [`FILE_LINE`]).
    #[inline]
    pub fn file_blockers(&self, sq: Square) -> u16 {
        let (r, f) = (RANK_OF[usize::from(sq)], FILE_OF[usize::from(sq)]);
        FILE_LINE[usize::from(r)][usize::from(self.file_occ[usize::from(f)] & 0x3FF)]
    }

    fn put(&mut self, slot: u8, sq: Square) {
        self.board[usize::from(sq & 0x7F)] = slot;
        self.squares[usize::from(slot & 63)] = sq;
        let (r, f) = (RANK_OF[usize::from(sq)], FILE_OF[usize::from(sq)]);
        self.rank_occ[usize::from(r)] |= 1 << f;
        self.file_occ[usize::from(f)] |= 1 << r;
        self.key ^= zobrist(slot, sq);
        self.psq += psq(slot, sq);
        self.tally += TALLY[slot_row(slot)][usize::from(sq & 0x7F)];
    }

    /// Plays `mv` (pseudo-legal, built for this position) without any legality check.
    pub fn make_raw(&mut self, mv: Move) {
        self.make::<true>(mv);
    }

    /// Takes back `mv`, the last move played with [`Position::make_raw`].
    pub fn unmake_raw(&mut self, mv: Move) {
        self.unmake::<true>(mv);
    }

    /// [`Position::make_raw`] inlined into its caller (the game's `push`,
    /// the search's: no call, no second frame).
    #[inline(always)]
    pub(crate) fn make_raw_inlined(&mut self, mv: Move) {
        self.make::<true>(mv);
    }

    /// [`Position::make_raw`] updating the Zobrist key's low half alone (the
    /// high half left as it was): for the search's quiescence, which reads
    /// only that half (the evaluation cache's tag; no table, no repetition),
    /// taken back with [`Position::unmake_unkeyed`].
    pub fn make_unkeyed(&mut self, mv: Move) {
        self.make::<false>(mv);
    }

    /// Takes back `mv`, the last move played with [`Position::make_unkeyed`].
    pub fn unmake_unkeyed(&mut self, mv: Move) {
        self.unmake::<false>(mv);
    }

    /// Flips `sq`'s bit in its rank's and its file's occupancy (`sq` below
    /// 128): the bits from [`LINE_BITS`], no shift by a file or rank held.
    #[inline(always)]
    fn flip_occ(&mut self, sq: usize) {
        let bits = LINE_BITS[sq & 0x7F];
        self.rank_occ[usize::from(RANK_OF[sq & 0x7F])] ^= bits as u16;
        self.file_occ[usize::from(FILE_OF[sq & 0x7F])] ^= (bits >> 16) as u16;
    }

    /// XORs `z` into the key, or with `FULL` false into its low half alone
    /// (quiescence's moves: the high half's table reads are left out).
    #[inline(always)]
    fn flip_key<const FULL: bool>(&mut self, z: u64) {
        self.key ^= if FULL { z } else { u64::from(z as u32) };
    }

    // Make and unmake in one pass per kind of state (board and slots, lines,
    // tables, key), so that few values are live at once on the Cortex-M0.
    #[inline(always)]
    fn make<const FULL: bool>(&mut self, mv: Move) {
        let (from, to) = (usize::from(mv.from & 0x7F), usize::from(mv.to & 0x7F));
        let (piece, captured) = (mv.piece, mv.captured);
        self.board[from] = 0;
        self.board[to] = piece;
        self.squares[usize::from(piece & 63)] = mv.to;
        self.flip_occ(from);
        let row = slot_row(piece);
        if captured != 0 {
            self.squares[usize::from(captured & 63)] = NO_SQUARE;
            self.tally += TALLY[row][to] - TALLY[row][from] - TALLY[slot_row(captured)][to];
            self.psq += PSQ[row][to] - PSQ[row][from] - psq(captured, mv.to);
            self.flip_key::<FULL>(
                ZOBRIST[row][to] ^ ZOBRIST[row][from] ^ zobrist(captured, mv.to) ^ ZOBRIST_SIDE,
            );
        } else {
            self.flip_occ(to);
            self.tally += TALLY[row][to] - TALLY[row][from];
            self.psq += PSQ[row][to] - PSQ[row][from];
            self.flip_key::<FULL>(ZOBRIST[row][to] ^ ZOBRIST[row][from] ^ ZOBRIST_SIDE);
        }
        self.side ^= 1;
    }

    #[inline(always)]
    fn unmake<const FULL: bool>(&mut self, mv: Move) {
        let (from, to) = (usize::from(mv.from & 0x7F), usize::from(mv.to & 0x7F));
        let (piece, captured) = (mv.piece, mv.captured);
        self.side ^= 1;
        self.board[from] = piece;
        self.board[to] = captured;
        self.squares[usize::from(piece & 63)] = mv.from;
        self.flip_occ(from);
        let row = slot_row(piece);
        if captured != 0 {
            self.squares[usize::from(captured & 63)] = mv.to;
            self.tally -= TALLY[row][to] - TALLY[row][from] - TALLY[slot_row(captured)][to];
            self.psq -= PSQ[row][to] - PSQ[row][from] - psq(captured, mv.to);
            self.flip_key::<FULL>(
                ZOBRIST[row][to] ^ ZOBRIST[row][from] ^ zobrist(captured, mv.to) ^ ZOBRIST_SIDE,
            );
        } else {
            self.flip_occ(to);
            self.tally -= TALLY[row][to] - TALLY[row][from];
            self.psq -= PSQ[row][to] - PSQ[row][from];
            self.flip_key::<FULL>(ZOBRIST[row][to] ^ ZOBRIST[row][from] ^ ZOBRIST_SIDE);
        }
    }

    /// Whether the pseudo-legal `mv` of the side to move is legal (`None` if
    /// not) and whether it gives check, as [`Position::make_raw`] followed by
    /// the tests would tell (`in_check`: the mover is in check now), but with
    /// only the board, the slots and the lines moved and put back: no key,
    /// no tables, nothing left changed. For moves the search may prune
    /// unplayed unless they check.
    pub fn probe_move(&mut self, mv: Move, in_check: bool) -> Option<bool> {
        let checks = self.may_give_check(mv);
        self.probe(mv, in_check, checks)
    }

    /// [`Position::probe_move`] for a move that [`Position::may_give_check`]
    /// lets through, the mover not in check (the search's pruned quiet
    /// moves, which it has asked already).
    // Out of line on a board: inlined, its locals would sit in every search frame.
    #[cfg_attr(target_os = "none", inline(never))]
    pub fn probe_possible_check(&mut self, mv: Move) -> Option<bool> {
        self.probe(mv, false, true)
    }

    #[inline(always)]
    fn probe(&mut self, mv: Move, in_check: bool, checks: bool) -> Option<bool> {
        let me = slot_color(mv.piece);
        let risky = in_check || self.may_expose(mv);
        if !risky && !checks {
            return Some(false);
        }
        let (from, to) = (usize::from(mv.from & 0x7F), usize::from(mv.to & 0x7F));
        let (piece, captured) = (usize::from(mv.piece & 63), usize::from(mv.captured & 63));
        self.board[from] = 0;
        self.board[to] = mv.piece;
        self.squares[piece] = mv.to;
        self.flip_occ(from);
        if captured != 0 {
            self.squares[captured] = NO_SQUARE;
        } else {
            self.flip_occ(to);
        }
        // The other king is never attacked before the move, the mover's
        // only when it is in check.
        let legal = !(risky
            && if in_check {
                self.attacked_king(me)
            } else {
                self.attacked_after(me, mv)
            });
        let check = legal && checks && self.attacked_after(me ^ 1, mv);
        self.board[from] = mv.piece;
        self.board[to] = mv.captured;
        self.squares[piece] = mv.from;
        self.flip_occ(from);
        if captured != 0 {
            self.squares[captured] = mv.to;
        } else {
            self.flip_occ(to);
        }
        legal.then_some(check)
    }

    /// The exchange test's capture: the piece in `slot` leaves `from` for the
    /// occupied square `to`, whose piece is taken off its slot (board, slots
    /// and lines only: no key, no tables, no side to move). Returns the slot
    /// taken, for [`Position::exchange_undo`].
    #[inline(always)]
    pub(super) fn exchange_step(&mut self, slot: u8, from: Square, to: Square) -> u8 {
        let taken = self.at(to);
        self.board[usize::from(from & 0x7F)] = 0;
        self.flip_occ(usize::from(from));
        self.board[usize::from(to & 0x7F)] = slot;
        self.squares[usize::from(slot & 63)] = to;
        self.squares[usize::from(taken & 63)] = NO_SQUARE;
        taken
    }

    /// Takes back [`Position::exchange_step`]`(slot, from, to)`, which took `taken`.
    pub(super) fn exchange_undo(&mut self, slot: u8, from: Square, to: Square, taken: u8) {
        self.board[usize::from(from & 0x7F)] = slot;
        self.squares[usize::from(slot & 63)] = from;
        self.flip_occ(usize::from(from));
        self.board[usize::from(to & 0x7F)] = taken;
        self.squares[usize::from(taken & 63)] = to;
    }

    /// Passes the turn (the search's null move).
    pub fn make_null(&mut self) {
        self.side ^= 1;
        self.key ^= ZOBRIST_SIDE;
    }

    /// Whether both positions have the same pieces on the same squares and the
    /// same side to move (piece slots may differ, e.g. after different move orders).
    pub fn same_as(&self, other: &Position) -> bool {
        self.key == other.key
            && self.side == other.side
            && (0..SQUARES as u8).all(|sq| {
                let (a, b) = (self.at(sq), other.at(sq));
                (a == 0) == (b == 0)
                    && (a == 0 || (slot_kind(a), slot_color(a)) == (slot_kind(b), slot_color(b)))
            })
    }

    /// [`Position::tally`] computed from scratch (tests compare the two).
    pub fn compute_tally(&self) -> i32 {
        (0..SQUARES as u8)
            .filter(|&sq| self.at(sq) != 0)
            .map(|sq| TALLY[slot_row(self.at(sq))][usize::from(sq)])
            .sum()
    }

    /// [`Position::psq`] computed from scratch (tests compare the two).
    pub fn compute_psq(&self) -> i32 {
        (0..SQUARES as u8)
            .filter(|&sq| self.at(sq) != 0)
            .map(|sq| psq(self.at(sq), sq))
            .sum()
    }

    /// Zobrist key computed from scratch (tests compare it with [`Position::key`]).
    pub fn compute_key(&self) -> u64 {
        let mut k = if self.side == BLACK { ZOBRIST_SIDE } else { 0 };
        for sq in 0..SQUARES as u8 {
            let p = self.at(sq);
            if p != 0 {
                k ^= zobrist(p, sq);
            }
        }
        k
    }

    /// Reads the board and side fields of a FEN (`w`/`r` = red to move, `b` = black;
    /// `N`/`H` horse, `B`/`E` elephant; red upper case). Further fields are ignored
    /// here; a trailing `[]` (empty holdings, as some tools write) is accepted.
    /// A position no game can reach in these ways is an error: a king outside
    /// its palace, an advisor or an elephant off its side's points, too many
    /// pieces of a kind, a missing king, the side not to move in check.
    pub fn parse_fen(text: &str) -> Result<Self, ParseError> {
        let mut fields = text.split_ascii_whitespace();
        let placement = fields.next().ok_or(ParseError("empty FEN"))?;
        let placement = placement.strip_suffix("[]").unwrap_or(placement);
        let mut pos = Self::empty();
        let mut counts = [[0u8; 7]; 2];
        let mut rank: i32 = 9;
        let mut file: i32 = 0;
        for b in placement.bytes() {
            match b {
                b'/' => {
                    if file != 9 {
                        return Err(ParseError("FEN rank does not have 9 files"));
                    }
                    rank -= 1;
                    file = 0;
                    if rank < 0 {
                        return Err(ParseError("FEN has more than 10 ranks"));
                    }
                }
                b'1'..=b'9' => {
                    file += i32::from(b - b'0');
                    if file > 9 {
                        return Err(ParseError("FEN rank has more than 9 files"));
                    }
                }
                _ => {
                    let color = if b.is_ascii_uppercase() { RED } else { BLACK };
                    let kind = match b.to_ascii_lowercase() {
                        b'k' => Kind::King,
                        b'a' => Kind::Advisor,
                        b'b' | b'e' => Kind::Elephant,
                        b'n' | b'h' => Kind::Horse,
                        b'r' => Kind::Rook,
                        b'c' => Kind::Cannon,
                        b'p' => Kind::Pawn,
                        _ => return Err(ParseError("FEN holds an unknown piece letter")),
                    };
                    if file >= 9 {
                        return Err(ParseError("FEN rank has more than 9 files"));
                    }
                    let (first, n) = kind.slots();
                    let used = &mut counts[usize::from(color)][kind as usize];
                    if *used >= n {
                        return Err(ParseError("FEN has too many pieces of one kind"));
                    }
                    let slot = 16 + 16 * color + first + *used;
                    *used += 1;
                    let sq = square(rank as u8, file as u8);
                    if kind == Kind::King && !in_palace(sq) {
                        return Err(ParseError("a king stands outside its palace"));
                    }
                    if kind == Kind::King && (RANK_OF[usize::from(sq)] >= 5) != (color == BLACK) {
                        return Err(ParseError("a king stands in the other side's palace"));
                    }
                    // Advisors and elephants never leave their points (the
                    // palace's five, the elephant's seven), so a position
                    // with one elsewhere cannot arise; the generators rely
                    // on it (see `Position::side_captures`).
                    let own = if color == RED { sq } else { 89 - sq };
                    if kind == Kind::Advisor && !ADVISOR_POINTS.contains(&own) {
                        return Err(ParseError("an advisor stands off its points"));
                    }
                    if kind == Kind::Elephant && !ELEPHANT_POINTS.contains(&own) {
                        return Err(ParseError("an elephant stands off its points"));
                    }
                    pos.put(slot, sq);
                    file += 1;
                }
            }
        }
        if rank != 0 || file != 9 {
            return Err(ParseError("FEN needs 10 ranks of 9 files"));
        }
        if counts[0][0] != 1 || counts[1][0] != 1 {
            return Err(ParseError("each side needs exactly one king"));
        }
        match fields.next() {
            None | Some("w" | "r" | "W" | "R") => {}
            Some("b" | "B") => {
                pos.side = BLACK;
                pos.key ^= ZOBRIST_SIDE;
            }
            Some(_) => return Err(ParseError("side to move must be w, r or b")),
        }
        if pos.attacked_king(pos.side ^ 1) {
            return Err(ParseError("the side not to move is in check"));
        }
        Ok(pos)
    }

    /// Writes the board and side fields of the FEN (`w`/`b`, `N` and `B` letters).
    pub fn write_fen(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        for rank in (0..10u8).rev() {
            let mut empty = 0u8;
            for file in 0..9u8 {
                let p = self.at(square(rank, file));
                if p == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.write_char(char::from(b'0' + empty))?;
                    empty = 0;
                }
                let l = slot_kind(p).letter();
                let l = if slot_color(p) == RED {
                    l
                } else {
                    l.to_ascii_lowercase()
                };
                out.write_char(char::from(l))?;
            }
            if empty > 0 {
                out.write_char(char::from(b'0' + empty))?;
            }
            if rank > 0 {
                out.write_char('/')?;
            }
        }
        out.write_str(if self.side == RED { " w" } else { " b" })
    }
}
