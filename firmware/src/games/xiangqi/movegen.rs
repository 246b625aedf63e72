//! Move generation: pseudo-legal moves from the tables, check detection
//! (including the flying general) and the legal filter.

use super::board::{
    ADVISOR_MOVES, BLACK, ELEPHANT_MOVES, FILE_OF, HOME_POINTS, HORSE_LEGS, HORSE_PATHS,
    KING_MOVES, Kind, Move, NO_SQUARE, Position, RANK_OF, RED, SQUARES, Square, horse_leg,
    reverse_leg, slot_color, slot_kind, square,
};

/// `1 << kind` by `slot & 15` (slots are 16..48: the low four bits give the kind).
static KIND_BIT: [u8; 16] = [
    1 << Kind::King as u8,
    1 << Kind::Advisor as u8,
    1 << Kind::Advisor as u8,
    1 << Kind::Elephant as u8,
    1 << Kind::Elephant as u8,
    1 << Kind::Horse as u8,
    1 << Kind::Horse as u8,
    1 << Kind::Rook as u8,
    1 << Kind::Rook as u8,
    1 << Kind::Cannon as u8,
    1 << Kind::Cannon as u8,
    1 << Kind::Pawn as u8,
    1 << Kind::Pawn as u8,
    1 << Kind::Pawn as u8,
    1 << Kind::Pawn as u8,
    1 << Kind::Pawn as u8,
];

/// [`KING_VIEW`]'s flag: the square shares the king's rank or file.
const ON_LINE: u8 = 1;
/// [`KING_VIEW`]'s flag: a diagonal neighbour of the king (a horse leg).
const DIAGONAL: u8 = 2;
/// [`KING_VIEW`]'s flag: at most two ranks and two files from the king.
const HORSE_BOX: u8 = 4;
/// [`KING_VIEW`]'s flag: a rank or file neighbour of the king.
const BESIDE: u8 = 8;

/// The index of each palace point in [`KING_VIEW`] (red's 0..9, black's
/// 9..18), by square; 255 elsewhere (and for [`NO_SQUARE`]).
static PALACE_POINT: [u8; 256] = {
    let mut t = [255u8; 256];
    let mut i = 0;
    while i < 9 {
        let (r, f) = (i / 3, 3 + i % 3);
        t[r * 9 + f] = i as u8;
        t[(9 - r) * 9 + f] = 9 + i as u8;
        i += 1;
    }
    t
};

/// How each square lies from a king on a palace point ([`PALACE_POINT`]):
/// [`ON_LINE`], [`DIAGONAL`], [`HORSE_BOX`], [`BESIDE`] (squares 90..128: none).
static KING_VIEW: [[u8; 128]; 18] = {
    let mut t = [[0u8; 128]; 18];
    let mut k: usize = 0;
    while k < 90 {
        let (kr, kf) = (k / 9, k % 9);
        let p = PALACE_POINT[k];
        if p != 255 {
            let mut s: usize = 0;
            while s < 90 {
                let (r, f) = (s / 9, s % 9);
                let dr = r.abs_diff(kr);
                let df = f.abs_diff(kf);
                let mut v = 0;
                if dr == 0 || df == 0 {
                    v |= ON_LINE;
                }
                if dr == 1 && df == 1 {
                    v |= DIAGONAL;
                }
                if dr <= 2 && df <= 2 {
                    v |= HORSE_BOX;
                }
                if dr + df == 1 {
                    v |= BESIDE;
                }
                t[p as usize][s] = v;
                s += 1;
            }
        }
        k += 1;
    }
    t
};

/// The [`KING_VIEW`] flags of a move's destination that may give check, by
/// `slot & 15` (the kind): the king's lines for every piece, besides for a
/// horse the squares near the king, for a pawn the king's neighbours.
static TO_FLAGS: [u8; 16] = {
    let mut t = [ON_LINE; 16];
    t[5] |= HORSE_BOX;
    t[6] |= HORSE_BOX;
    let mut i = 11;
    while i < 16 {
        t[i] |= BESIDE;
        i += 1;
    }
    t
};

/// Most pseudo-legal moves a position can have (2×17 rook + 2×17 cannon + 2×8 horse
/// + 5×3 pawn + 4 king + 2×4 advisor + 2×4 elephant = 119).
pub const MAX_MOVES: usize = 120;

/// What a [`Sink`] stores per move: the [`Move`] itself, or a packed word.
pub trait MoveSlot: Copy {
    /// The slot for `mv`.
    fn pack(mv: Move) -> Self;
    /// The slot for the move packed in `word` (from, to, piece, captured:
    /// its bytes from the lowest).
    fn from_word(word: u32) -> Self;
}

impl MoveSlot for Move {
    #[inline]
    fn pack(mv: Move) -> Self {
        mv
    }
    #[inline]
    fn from_word(word: u32) -> Self {
        unpack(u64::from(word))
    }
}

/// A move in the low 32 bits of a word (the search's move stack keeps its
/// ordering score in the high 32 bits): from, to, piece, captured.
impl MoveSlot for u64 {
    #[inline]
    fn pack(mv: Move) -> Self {
        u64::from(u32::from_le_bytes([mv.from, mv.to, mv.piece, mv.captured]))
    }
    #[inline]
    fn from_word(word: u32) -> Self {
        u64::from(word)
    }
}

/// The move in the low 32 bits of a packed word (see [`MoveSlot`] for `u64`).
#[inline]
pub fn unpack(word: u64) -> Move {
    let [from, to, piece, captured] = (word as u32).to_le_bytes();
    Move {
        from,
        to,
        piece,
        captured,
    }
}

/// Collects generated moves into a slice, dropping any beyond its end.
pub struct Sink<'a, T: MoveSlot = Move> {
    buf: &'a mut [T],
    len: usize,
    overflowed: bool,
}

impl<'a, T: MoveSlot> Sink<'a, T> {
    /// An empty sink over `buf`.
    pub fn new(buf: &'a mut [T]) -> Self {
        Self {
            buf,
            len: 0,
            overflowed: false,
        }
    }
    /// Number of moves collected.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether some move did not fit.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }
    /// Whether nothing was collected.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    #[inline]
    fn push(&mut self, mv: Move) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = T::pack(mv);
            self.len += 1;
        } else {
            self.overflowed = true;
        }
    }
    /// [`Sink::push`] of a move packed in a word (see [`MoveSlot::from_word`]).
    #[inline]
    fn push_word(&mut self, word: u32) {
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = T::from_word(word);
            self.len += 1;
        } else {
            self.overflowed = true;
        }
    }
}

/// [`Sink::push_word`] out of line, for [`Position::side_captures`]: the
/// sink's state stays out of the generator's registers.
#[inline(never)]
fn push_capture<T: MoveSlot>(sink: &mut Sink<'_, T>, word: u32) {
    sink.push_word(word);
}

/// Whether `s` lies strictly between `a` and `b` on their shared rank or
/// file (never when they share neither).
#[inline(always)]
fn strictly_between(a: Square, b: Square, s: Square) -> bool {
    let (ia, ib, is) = (usize::from(a), usize::from(b), usize::from(s));
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    if s <= lo || s >= hi {
        return false;
    }
    if RANK_OF[ia] == RANK_OF[ib] {
        RANK_OF[is] == RANK_OF[ia]
    } else {
        FILE_OF[ia] == FILE_OF[ib] && FILE_OF[is] == FILE_OF[ia]
    }
}

/// The square a pawn of `by` takes `sq` from with its forward step (one rank
/// behind `sq` from `by`'s side), [`NO_SQUARE`] off the board.
#[inline(always)]
pub(super) fn pawn_behind(sq: Square, by: u8) -> Square {
    let r = RANK_OF[usize::from(sq)];
    if by == RED {
        if r > 0 { sq - 9 } else { NO_SQUARE }
    } else if r < 9 {
        sq + 9
    } else {
        NO_SQUARE
    }
}

/// Whether an enemy pawn on `to` attacks the king of `color` on `ks`: it
/// stands in front of the king (the pawn's forward step reaches it) or beside
/// it (a pawn that near has crossed the river).
#[inline(always)]
fn pawn_checks(to: Square, ks: Square, color: u8) -> bool {
    let front = if color == RED {
        ks + 9
    } else {
        ks.wrapping_sub(9)
    };
    to == front || (to.abs_diff(ks) == 1 && RANK_OF[usize::from(to)] == RANK_OF[usize::from(ks)])
}

impl Position {
    #[inline]
    fn push_to<T: MoveSlot>(
        &self,
        sink: &mut Sink<'_, T>,
        piece: u8,
        from: Square,
        to: Square,
        quiet: bool,
    ) {
        let target = self.at(to);
        if target == 0 {
            if quiet {
                sink.push(Move {
                    from,
                    to,
                    piece,
                    captured: 0,
                });
            }
        } else if slot_color(target) != slot_color(piece) {
            sink.push(Move {
                from,
                to,
                piece,
                captured: target,
            });
        }
    }

    /// A rook's or cannon's moves along its rank (`STEP` of 1) or file
    /// (`STEP` of 9), the line's step and length constants: with `quiet` its
    /// quiet moves, with `CAPTURES` its captures. `entry` is the line's
    /// blockers ([`Position::rank_blockers`] / [`Position::file_blockers`]),
    /// `word` holds the origin and the piece, `pos` is the piece's
    /// coordinate along the line, `enemy` the enemy's `slot >> 4`.
    #[allow(clippy::too_many_arguments)] // one call per line, kept flat for speed
    #[inline(always)]
    fn slide_line<T: MoveSlot, const CAPTURES: bool, const STEP: u8>(
        &self,
        sink: &mut Sink<'_, T>,
        word: u32,
        from: Square,
        entry: u16,
        pos: u8,
        cannon: bool,
        enemy: u8,
        quiet: bool,
    ) {
        let end: u8 = if STEP == 1 { 9 } else { 10 };
        // `base` is the square at line coordinate 0; coordinates run `0..end`.
        let base = from - pos * STEP;
        let near_up = (entry & 0xF) as u8;
        let near_down = ((entry >> 8) & 0xF) as u8;
        if quiet {
            let top = if near_up == 0xF { end } else { near_up };
            let stop = base + top * STEP;
            let bottom = base
                + if near_down == 0xF {
                    0
                } else {
                    (near_down + 1) * STEP
                };
            // The sink's length in a local: kept in a register, not stored
            // after every move.
            let mut len = sink.len;
            let buf = &mut *sink.buf;
            let mut to = from + STEP;
            while to < stop {
                if let Some(slot) = buf.get_mut(len) {
                    *slot = T::from_word(word | (u32::from(to) << 8));
                    len += 1;
                } else {
                    sink.overflowed = true;
                }
                to += STEP;
            }
            let mut to = from;
            while to > bottom {
                to -= STEP;
                if let Some(slot) = buf.get_mut(len) {
                    *slot = T::from_word(word | (u32::from(to) << 8));
                    len += 1;
                } else {
                    sink.overflowed = true;
                }
            }
            sink.len = len;
        }
        if !CAPTURES {
            return;
        }
        let shift = if cannon { 4 } else { 0 };
        let (up, down) = (
            ((entry >> shift) & 0xF) as u8,
            ((entry >> (8 + shift)) & 0xF) as u8,
        );
        for c in [up, down] {
            if c != 0xF {
                let to = base + c * STEP;
                let target = self.at(to);
                if target >> 4 == enemy {
                    sink.push_word(word | (u32::from(to) << 8) | (u32::from(target) << 24));
                }
            }
        }
    }

    /// Whether the piece in `slot` on `from` has the move to `to` (a
    /// square that is empty or holds an enemy piece) among the moves
    /// [`Position::piece_moves`] generates, tested without generating them
    /// (no buffer to fill: the search checks its hash moves and killers so).
    #[inline]
    pub fn has_move(&self, slot: u8, from: Square, to: Square) -> bool {
        let f = usize::from(from);
        if f >= SQUARES || usize::from(to) >= SQUARES {
            return false;
        }
        let target = self.at(to);
        if target != 0 && slot_color(target) == slot_color(slot) {
            return false;
        }
        match slot_kind(slot) {
            Kind::King => KING_MOVES[f].contains(&to),
            Kind::Advisor => ADVISOR_MOVES[f].contains(&to),
            Kind::Elephant => ELEPHANT_MOVES[f]
                .iter()
                .any(|&[t, eye]| t == to && self.at(eye) == 0),
            Kind::Horse => self.horse_reaches(from, to),
            Kind::Rook => self.screens(from, to) == 0,
            Kind::Cannon => self.screens(from, to) == u32::from(target != 0),
            Kind::Pawn => {
                let (r, fl) = (RANK_OF[f], FILE_OF[f]);
                let red = slot_color(slot) == RED;
                let (forward, crossed) = if red {
                    (r < 9 && to == from + 9, r >= 5)
                } else {
                    (r > 0 && to == from.wrapping_sub(9), r <= 4)
                };
                forward || (crossed && ((fl > 0 && to == from - 1) || (fl < 8 && to == from + 1)))
            }
        }
    }

    /// Pseudo-legal moves of the piece in `slot` standing on `from`.
    pub fn piece_moves<T: MoveSlot>(
        &self,
        sink: &mut Sink<'_, T>,
        slot: u8,
        from: Square,
        quiet: bool,
    ) {
        let f = usize::from(from);
        match slot_kind(slot) {
            Kind::King => {
                for &to in KING_MOVES[f].iter().take_while(|&&t| t != NO_SQUARE) {
                    self.push_to(sink, slot, from, to, quiet);
                }
            }
            Kind::Advisor => {
                for &to in ADVISOR_MOVES[f].iter().take_while(|&&t| t != NO_SQUARE) {
                    self.push_to(sink, slot, from, to, quiet);
                }
            }
            Kind::Elephant => {
                for &[to, eye] in ELEPHANT_MOVES[f].iter().take_while(|e| e[0] != NO_SQUARE) {
                    if self.at(eye) == 0 {
                        self.push_to(sink, slot, from, to, quiet);
                    }
                }
            }
            Kind::Horse => {
                for &[leg, a, b] in &HORSE_LEGS[f] {
                    if leg != NO_SQUARE && self.at(leg) == 0 {
                        for to in [a, b] {
                            if to != NO_SQUARE {
                                self.push_to(sink, slot, from, to, quiet);
                            }
                        }
                    }
                }
            }
            Kind::Rook | Kind::Cannon => {
                let cannon = slot_kind(slot) == Kind::Cannon;
                let (r, fl) = (RANK_OF[f], FILE_OF[f]);
                // The move's word without its destination (see `MoveSlot::from_word`).
                let w = u32::from(from) | (u32::from(slot) << 16);
                let enemy = 2 - slot_color(slot);
                let e = self.rank_blockers(from);
                self.slide_line::<T, true, 1>(sink, w, from, e, fl, cannon, enemy, quiet);
                let e = self.file_blockers(from);
                self.slide_line::<T, true, 9>(sink, w, from, e, r, cannon, enemy, quiet);
            }
            Kind::Pawn => {
                let (r, fl) = (RANK_OF[f], FILE_OF[f]);
                let red = slot_color(slot) == RED;
                if red && r < 9 {
                    self.push_to(sink, slot, from, from + 9, quiet);
                } else if !red && r > 0 {
                    self.push_to(sink, slot, from, from - 9, quiet);
                }
                let crossed = if red { r >= 5 } else { r <= 4 };
                if crossed {
                    if fl > 0 {
                        self.push_to(sink, slot, from, from - 1, quiet);
                    }
                    if fl < 8 {
                        self.push_to(sink, slot, from, from + 1, quiet);
                    }
                }
            }
        }
    }

    /// Pseudo-legal moves of the side to move (captures only when `quiet` is false),
    /// in slot order, each piece's moves in [`Position::piece_moves`]'s order.
    pub fn pseudo_moves<T: MoveSlot>(&self, sink: &mut Sink<'_, T>, quiet: bool) {
        match (quiet, self.side() == RED) {
            (true, _) => self.side_moves::<T, true>(sink),
            (false, true) => self.side_captures::<T, RED>(sink),
            (false, false) => self.side_captures::<T, BLACK>(sink),
        }
    }

    /// Whether a piece of the side not to move (`SIDE`'s enemy) stands on
    /// one of `SIDE`'s palace points or elephant points: the only squares
    /// its king, advisors and elephants can take on. The 15 squares are
    /// constants, their slots ORed together and the enemy's bit tested once
    /// (bit 5 marks black's slots 32..48; bit 4 red's 16..32 and the wall,
    /// which stands on none of them).
    #[inline(always)]
    fn enemy_at_home<const SIDE: u8>(&self) -> bool {
        let at = |i: usize| {
            let sq = HOME_POINTS[i];
            self.at(if SIDE == RED { sq } else { 89 - sq })
        };
        let seen = at(0)
            | at(1)
            | at(2)
            | at(3)
            | at(4)
            | at(5)
            | at(6)
            | at(7)
            | at(8)
            | at(9)
            | at(10)
            | at(11)
            | at(12)
            | at(13)
            | at(14);
        seen & if SIDE == RED { 0x20 } else { 0x10 } != 0
    }

    /// The captures of the side to move, in [`Position::pseudo_moves`]'s
    /// order ([`Position::side_moves`] without its quiet moves), with few
    /// values live in the loops (the Cortex-M0 has seven registers to
    /// spare): each target is read once and kept when it holds an enemy
    /// (`slot >> 4`: an empty square reads 0, the wall square
    /// [`WALL`](super::board::WALL) 3, and a [`NO_SQUARE`] table entry or a
    /// pawn's step off the board's end reads an empty padding square), so no
    /// end marker, rank's end or board edge needs a test of its own; the
    /// few captures found go to the sink out of line ([`push_capture`]), and
    /// each kind's pieces are walked by a counted loop (an array of slots
    /// went through the stack). One copy per side to move (`SIDE`, the
    /// side to move): its slots and the enemy's mark are constants, not
    /// registers.
    #[inline(never)]
    fn side_captures<T: MoveSlot, const SIDE: u8>(&self, sink: &mut Sink<'_, T>) {
        let side = SIDE;
        let first = 16 + 16 * side;
        // `slot >> 4` is 1 for red pieces and 2 for black ones.
        let enemy = 2 - side;
        // `word` holds the origin and the piece (see `MoveSlot::from_word`).
        let mut take = |word: u32, to: Square| {
            let target = self.at(to);
            if target >> 4 == enemy {
                push_capture(
                    sink,
                    word | (u32::from(to) << 8) | (u32::from(target) << 24),
                );
            }
        };
        // The move's word without its destination, for the piece in `slot` on `from`.
        let word = |slot: u8, from: Square| u32::from(from) | (u32::from(slot) << 16);
        // The king, the advisors and the elephants take only on their
        // side's palace and elephant points: looked at only when an enemy
        // piece stands on one (most positions have none there; the parser
        // accepts no advisor or elephant off its points).
        if self.enemy_at_home::<SIDE>() {
            // King (a missing king's square, NO_SQUARE, is past every table).
            let from = self.square_of(first);
            if let Some(targets) = KING_MOVES.get(usize::from(from)) {
                for &to in targets {
                    take(word(first, from), to);
                }
            }
            // Advisors.
            let mut slot = first + 1;
            while slot <= first + 2 {
                let from = self.square_of(slot);
                if let Some(targets) = ADVISOR_MOVES.get(usize::from(from)) {
                    for &to in targets {
                        take(word(slot, from), to);
                    }
                }
                slot += 1;
            }
            // Elephants (a NO_SQUARE eye reads empty, its NO_SQUARE target holds nothing).
            while slot <= first + 4 {
                let from = self.square_of(slot);
                if let Some(targets) = ELEPHANT_MOVES.get(usize::from(from)) {
                    for &[to, eye] in targets {
                        if self.at(eye) == 0 {
                            take(word(slot, from), to);
                        }
                    }
                }
                slot += 1;
            }
        }
        // Horses (off-board legs and targets lead to the wall square).
        let mut slot = first + 5;
        while slot <= first + 6 {
            let from = self.square_of(slot);
            if let Some(paths) = HORSE_PATHS.get(usize::from(from)) {
                for &[leg, a, b] in paths {
                    if self.at_cell(leg) == 0 {
                        take(word(slot, from), a.sq());
                        take(word(slot, from), b.sq());
                    }
                }
            }
            slot += 1;
        }
        // Rooks and cannons: the nearest blocker (a rook's) or the one
        // behind it (a cannon's, `SHIFT` 4), up then down, along the rank
        // then the file; a loop per kind, so that the shift is a constant.
        // Along the file no test for "none": its 0xF gives a square past
        // the board array (135 and beyond), which reads empty.
        macro_rules! sliders {
            ($last:expr, $shift:expr) => {
                while slot <= $last {
                    let from = self.square_of(slot);
                    if from != NO_SQUARE {
                        let w = word(slot, from);
                        let fl = FILE_OF[usize::from(from)];
                        let e = self.rank_blockers(from) >> $shift;
                        let rank_base = from - fl;
                        let (up, down) = ((e & 0xF) as u8, ((e >> 8) & 0xF) as u8);
                        if up != 0xF {
                            take(w, rank_base + up);
                        }
                        if down != 0xF {
                            take(w, rank_base + down);
                        }
                        let e = self.file_blockers(from) >> $shift;
                        let (up, down) = ((e & 0xF) as u8, ((e >> 8) & 0xF) as u8);
                        take(w, up * 9 + fl);
                        take(w, down * 9 + fl);
                    }
                    slot += 1;
                }
            };
        }
        sliders!(first + 8, 0);
        sliders!(first + 10, 4);
        // Pawns: forward (off the board's end it reads an empty padding
        // square or the wall), then sideways once across the river.
        let red = side == RED;
        while slot < first + 16 {
            let from = self.square_of(slot);
            if from != NO_SQUARE {
                let w = word(slot, from);
                take(w, if red { from + 9 } else { from.wrapping_sub(9) });
                if (from >= 45) == red {
                    let fl = FILE_OF[usize::from(from)];
                    if fl > 0 {
                        take(w, from - 1);
                    }
                    if fl < 8 {
                        take(w, from + 1);
                    }
                }
            }
            slot += 1;
        }
    }

    /// Pseudo-legal quiet moves (no captures) of the side to move, in
    /// [`Position::pseudo_moves`]'s order: the main search's last stage, generated
    /// only when the hash move, the captures and the killers did not cut off.
    pub fn quiet_moves<T: MoveSlot>(&self, sink: &mut Sink<'_, T>) {
        self.side_moves::<T, false>(sink);
    }

    /// A move of `piece` from `from` to `to` if `to` is empty, or holds an
    /// enemy (when `CAPTURES`; `enemy` = `slot >> 4` of the enemy's pieces).
    #[inline(always)]
    fn push_fast<T: MoveSlot, const CAPTURES: bool>(
        &self,
        sink: &mut Sink<'_, T>,
        word: u32,
        to: Square,
        enemy: u8,
    ) {
        // `word` holds the origin and the piece (see `MoveSlot::from_word`).
        let target = self.at(to);
        if target == 0 {
            sink.push_word(word | (u32::from(to) << 8));
        } else if CAPTURES && target >> 4 == enemy {
            sink.push_word(word | (u32::from(to) << 8) | (u32::from(target) << 24));
        }
    }

    /// [`Position::pseudo_moves`] with quiet moves (captures too when
    /// `CAPTURES`), the kinds walked by their slot ranges (no dispatch per
    /// piece). (One copy per side to move, as [`Position::side_captures`],
    /// saved 0.1 % of the board's ticks for 3.5 KB of flash: not done.)
    #[inline(never)]
    fn side_moves<T: MoveSlot, const CAPTURES: bool>(&self, sink: &mut Sink<'_, T>) {
        let first = 16 + 16 * self.side();
        // `slot >> 4` is 1 for red pieces and 2 for black ones.
        let enemy = 2 - self.side();
        // King.
        let from = self.square_of(first);
        if from != NO_SQUARE {
            let w = u32::from(from) | (u32::from(first) << 16);
            for &to in &KING_MOVES[usize::from(from)] {
                if to == NO_SQUARE {
                    break;
                }
                self.push_fast::<T, CAPTURES>(sink, w, to, enemy);
            }
        }
        // Advisors.
        for slot in [first + 1, first + 2] {
            let from = self.square_of(slot);
            if from == NO_SQUARE {
                continue;
            }
            // The move's word without its destination (see `MoveSlot::from_word`).
            let w = u32::from(from) | (u32::from(slot) << 16);
            for &to in &ADVISOR_MOVES[usize::from(from)] {
                if to == NO_SQUARE {
                    break;
                }
                self.push_fast::<T, CAPTURES>(sink, w, to, enemy);
            }
        }
        // Elephants.
        for slot in [first + 3, first + 4] {
            let from = self.square_of(slot);
            if from == NO_SQUARE {
                continue;
            }
            // The move's word without its destination (see `MoveSlot::from_word`).
            let w = u32::from(from) | (u32::from(slot) << 16);
            for &[to, eye] in &ELEPHANT_MOVES[usize::from(from)] {
                if to == NO_SQUARE {
                    break;
                }
                if self.at(eye) == 0 {
                    self.push_fast::<T, CAPTURES>(sink, w, to, enemy);
                }
            }
        }
        // Horses.
        for slot in [first + 5, first + 6] {
            let from = self.square_of(slot);
            if from == NO_SQUARE {
                continue;
            }
            // The move's word without its destination (see `MoveSlot::from_word`).
            let w = u32::from(from) | (u32::from(slot) << 16);
            // Off-board legs and targets lead to the wall square: a leg
            // there is blocked, a target there holds no enemy and is not
            // empty, so nothing is pushed for it.
            // The sink's length in a local (kept in a register).
            let mut len = sink.len;
            let buf = &mut *sink.buf;
            let mut push = |to: Square| {
                let target = self.at(to);
                let word = if target == 0 {
                    w | (u32::from(to) << 8)
                } else if CAPTURES && target >> 4 == enemy {
                    w | (u32::from(to) << 8) | (u32::from(target) << 24)
                } else {
                    return;
                };
                if let Some(slot) = buf.get_mut(len) {
                    *slot = T::from_word(word);
                    len += 1;
                } else {
                    sink.overflowed = true;
                }
            };
            for &[leg, a, b] in &HORSE_PATHS[usize::from(from)] {
                if self.at_cell(leg) != 0 {
                    continue;
                }
                push(a.sq());
                push(b.sq());
            }
            sink.len = len;
        }
        // Rooks and cannons.
        for slot in first + 7..first + 11 {
            let from = self.square_of(slot);
            if from == NO_SQUARE {
                continue;
            }
            let cannon = slot >= first + 9;
            let f = usize::from(from);
            let (r, fl) = (RANK_OF[f], FILE_OF[f]);
            // The move's word without its destination (see `MoveSlot::from_word`).
            let w = u32::from(from) | (u32::from(slot) << 16);
            let e = self.rank_blockers(from);
            self.slide_line::<T, CAPTURES, 1>(sink, w, from, e, fl, cannon, enemy, true);
            let e = self.file_blockers(from);
            self.slide_line::<T, CAPTURES, 9>(sink, w, from, e, r, cannon, enemy, true);
        }
        // Pawns: forward, then sideways once across the river.
        let red = self.side() == RED;
        for slot in first + 11..first + 16 {
            let from = self.square_of(slot);
            if from == NO_SQUARE {
                continue;
            }
            // The move's word without its destination (see `MoveSlot::from_word`).
            let w = u32::from(from) | (u32::from(slot) << 16);
            let f = usize::from(from);
            let (r, fl) = (RANK_OF[f], FILE_OF[f]);
            if red {
                if r < 9 {
                    self.push_fast::<T, CAPTURES>(sink, w, from + 9, enemy);
                }
            } else if r > 0 {
                self.push_fast::<T, CAPTURES>(sink, w, from - 9, enemy);
            }
            if (from >= 45) == red {
                if fl > 0 {
                    self.push_fast::<T, CAPTURES>(sink, w, from - 1, enemy);
                }
                if fl < 8 {
                    self.push_fast::<T, CAPTURES>(sink, w, from + 1, enemy);
                }
            }
        }
    }

    /// The occupancy strictly between `sq` and `ks` on their shared rank or
    /// file, a bit by the line's coordinate, with the square of the line's
    /// coordinate 0 and the step between coordinates (1 on a rank, 9 on a
    /// file); `None` when they share neither (or `sq` is [`NO_SQUARE`]).
    #[inline(always)]
    fn line_inner(&self, sq: Square, ks: Square) -> Option<(u32, Square, u8)> {
        let (s, k) = (usize::from(sq), usize::from(ks));
        let (occ, a, b, base, step) = if sq == NO_SQUARE {
            return None;
        } else if RANK_OF[s] == RANK_OF[k] {
            let (occ, a, b) = (self.rank_occ(RANK_OF[k]), FILE_OF[s], FILE_OF[k]);
            (occ, a, b, ks - FILE_OF[k], 1)
        } else if FILE_OF[s] == FILE_OF[k] {
            let (occ, a, b) = (self.file_occ(FILE_OF[k]), RANK_OF[s], RANK_OF[k]);
            (occ, a, b, FILE_OF[k], 9)
        } else {
            return None;
        };
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        let inner = u32::from(occ) & ((1u32 << hi) - 1) & !((2u32 << lo) - 1);
        Some((inner, base, step))
    }

    /// Pieces strictly between `sq` and `ks` on their shared rank or file: 0
    /// none, 1 one, 2 more than one, or `sq` not on a line with `ks` (or
    /// [`NO_SQUARE`]).
    #[inline(always)]
    pub(super) fn screens(&self, sq: Square, ks: Square) -> u32 {
        match self.line_inner(sq, ks) {
            None => 2,
            Some((0, _, _)) => 0,
            Some((inner, _, _)) if inner & (inner - 1) == 0 => 1,
            Some(_) => 2,
        }
    }

    /// Whether `color`'s king is attacked (or faces the other king on an open file).
    ///
    /// Piece by piece (the enemy has at most two rooks, two cannons and two
    /// horses): a rook or the king on the king's line with nothing between, a
    /// cannon with one piece between, a horse a step away with its leg free, a
    /// pawn in front or beside. Most pieces are not on the king's lines, which
    /// two table reads tell.
    #[inline]
    pub fn attacked_king(&self, color: u8) -> bool {
        per_colour!(color, self, attacked_king_of())
    }

    /// [`Position::attacked_king`] for `COLOR`'s king, one copy per colour
    /// (its slots and the attackers' mark are constants, not registers).
    #[inline(never)]
    fn attacked_king_of<const COLOR: u8>(&self) -> bool {
        const PAWN: u8 = 1 << Kind::Pawn as u8;
        let color = COLOR;
        let ks = self.king(color);
        if ks == NO_SQUARE {
            return true;
        }
        // `slot >> 4` of the enemy's pieces (1 red, 2 black; 0 for an empty square).
        let enemy = 2 - color;
        let pawn = |sq: Square| {
            let p = self.at(sq);
            p >> 4 == enemy && KIND_BIT[usize::from(p & 15)] & PAWN != 0
        };
        let k = usize::from(ks);
        let r = RANK_OF[k];
        // Enemy pawns: in front of the king, or beside it (they have crossed the river).
        let front = if color == RED {
            if r < 9 { ks + 9 } else { NO_SQUARE }
        } else if r > 0 {
            ks - 9
        } else {
            NO_SQUARE
        };
        // Kings stay on files 3–5: both neighbours are on the board.
        if pawn(front) || pawn(ks - 1) || pawn(ks + 1) {
            return true;
        }
        let first = 16 + 16 * (color ^ 1);
        // Rooks, then cannons, then the flying general (the other king on
        // the file with nothing between; the kings never share a rank).
        if self.screens(self.square_of(first + 7), ks) == 0
            || self.screens(self.square_of(first + 8), ks) == 0
            || self.screens(self.square_of(first + 9), ks) == 1
            || self.screens(self.square_of(first + 10), ks) == 1
            || self.screens(self.square_of(first), ks) == 0
        {
            return true;
        }
        // The enemy's two horses: a horse step away with the leg free (each
        // on its own: a loop over the pair of slots kept it on the stack).
        let reaches = |slot: u8| {
            let h = self.square_of(slot);
            h != NO_SQUARE && self.horse_reaches(h, ks)
        };
        reaches(first + 5) || reaches(first + 6)
    }

    /// The square of a piece giving check to `color`'s king (the first
    /// found, in [`Position::attacked_king`]'s order), [`NO_SQUARE`] when
    /// none does (or the king is missing). For [`Position::keeps_check`].
    #[inline(never)]
    pub fn checker(&self, color: u8) -> Square {
        const PAWN: u8 = 1 << Kind::Pawn as u8;
        let ks = self.king(color);
        if ks == NO_SQUARE {
            return NO_SQUARE;
        }
        let enemy = 2 - color;
        let pawn = |sq: Square| {
            let p = self.at(sq);
            p >> 4 == enemy && KIND_BIT[usize::from(p & 15)] & PAWN != 0
        };
        let r = RANK_OF[usize::from(ks)];
        let front = if color == RED {
            if r < 9 { ks + 9 } else { NO_SQUARE }
        } else if r > 0 {
            ks - 9
        } else {
            NO_SQUARE
        };
        // Kings stay on files 3–5: both neighbours are on the board. (Each
        // square and slot on its own: loops over arrays kept them on the stack.)
        if pawn(front) {
            return front;
        }
        if pawn(ks - 1) {
            return ks - 1;
        }
        if pawn(ks + 1) {
            return ks + 1;
        }
        let first = 16 + 16 * (color ^ 1);
        let line = |slot: u8, screens: u32| {
            let sq = self.square_of(slot);
            (self.screens(sq, ks) == screens).then_some(sq)
        };
        let horse = |slot: u8| {
            let h = self.square_of(slot);
            (h != NO_SQUARE && self.horse_reaches(h, ks)).then_some(h)
        };
        line(first + 7, 0)
            .or_else(|| line(first + 8, 0))
            .or_else(|| line(first + 9, 1))
            .or_else(|| line(first + 10, 1))
            .or_else(|| line(first, 0))
            .or_else(|| horse(first + 5))
            .or_else(|| horse(first + 6))
            .unwrap_or(NO_SQUARE)
    }

    /// Whether the pseudo-legal `mv`, not a king move, leaves the piece on
    /// `checker` (one that gives check to the mover's king) giving check, so
    /// that `mv` is illegal for sure: it does not take the checker, nor stand
    /// between it and the king (a rook, the other king, a cannon), nor take a
    /// cannon's screen away, nor block a horse's leg. `false` means the move
    /// must be tested in full. (A pawn's check only a capture answers.)
    #[inline]
    pub fn keeps_check(&self, mv: Move, checker: Square) -> bool {
        if mv.piece & 15 == 0 || mv.to == checker || checker == NO_SQUARE {
            return false;
        }
        let ks = self.own_king(mv.piece);
        let p = self.at(checker);
        if p == 0 || ks == NO_SQUARE {
            return false;
        }
        match slot_kind(p) {
            Kind::Rook | Kind::King => !strictly_between(checker, ks, mv.to),
            Kind::Cannon => {
                !strictly_between(checker, ks, mv.to) && !strictly_between(checker, ks, mv.from)
            }
            Kind::Horse => mv.to != reverse_leg(checker, ks),
            Kind::Pawn => true,
            Kind::Advisor | Kind::Elephant => false,
        }
    }

    /// Whether a rook, the king or a cannon of `by` attacks the king on `ks`
    /// along the line from `ks` through `sq` (on the side of `sq`): the
    /// nearest piece that way a rook or king, or the one behind it a cannon.
    /// False when `sq` shares neither rank nor file with `ks`.
    #[inline(always)]
    fn line_attacks_king(&self, ks: Square, sq: Square, by: u8) -> bool {
        const NEAR: u8 = 1 << Kind::Rook as u8 | 1 << Kind::King as u8;
        const FAR: u8 = 1 << Kind::Cannon as u8;
        let (k, s) = (usize::from(ks), usize::from(sq));
        let (e, base, step, beyond) = if RANK_OF[k] == RANK_OF[s] {
            (self.rank_blockers(ks), ks - FILE_OF[k], 1, sq > ks)
        } else if FILE_OF[k] == FILE_OF[s] {
            (self.file_blockers(ks), FILE_OF[k], 9, sq > ks)
        } else {
            return false;
        };
        // Bits 0–7 give the blockers above (higher coordinates), 8–15 below.
        let e = if beyond { e } else { e >> 8 };
        let (near, far) = ((e & 0xF) as u8, ((e >> 4) & 0xF) as u8);
        (near != 0xF && self.holds(base + near * step, by, NEAR))
            || (far != 0xF && self.holds(base + far * step, by, FAR))
    }

    /// [`Position::attacked_king`] for `color` after `mv` was made, when
    /// `color`'s king was not attacked before it: only what the move changed
    /// is looked at. An attack can then come only along the lines from the
    /// king through `mv.from` (a rook, cannon or king uncovered, a cannon's
    /// screen gone) or through `mv.to` (the piece moved there, a cannon's new
    /// screen), from a horse whose leg `mv.from` was, or from a horse or pawn
    /// that moved. A move of that king itself is tested in full.
    #[inline]
    pub fn attacked_after(&self, color: u8, mv: Move) -> bool {
        per_colour!(color, self, attacked_after_of(mv))
    }

    /// [`Position::attacked_after`] for `COLOR`'s king, one copy per colour
    /// (its king's slot and the attackers' mark are constants, not registers).
    #[inline(never)]
    fn attacked_after_of<const COLOR: u8>(&self, mv: Move) -> bool {
        let color = COLOR;
        let ks = self.king(color);
        if ks == NO_SQUARE || mv.piece == 16 + 16 * color {
            return self.attacked_king(color);
        }
        let by = color ^ 1;
        if self.line_attacks_king(ks, mv.from, by) || self.line_attacks_king(ks, mv.to, by) {
            return true;
        }
        let k = usize::from(ks);
        let (kr, kf) = (RANK_OF[k], FILE_OF[k]);
        let f = usize::from(mv.from);
        let (fr, ff) = (RANK_OF[f], FILE_OF[f]);
        // `mv.from` a leg: the horses two steps beyond it along its rank
        // and along its file.
        if fr.abs_diff(kr) == 1 && ff.abs_diff(kf) == 1 {
            const HORSE: u8 = 1 << Kind::Horse as u8;
            let (a, b) = ((2 * fr).wrapping_sub(kr), (2 * ff).wrapping_sub(kf));
            if (a < 10 && self.holds(a * 9 + ff, by, HORSE))
                || (b < 9 && self.holds(fr * 9 + b, by, HORSE))
            {
                return true;
            }
        }
        if slot_color(mv.piece) == by {
            match slot_kind(mv.piece) {
                Kind::Horse => return self.horse_reaches(mv.to, ks),
                Kind::Pawn => return pawn_checks(mv.to, ks, color),
                _ => {}
            }
        }
        false
    }

    /// Whether a piece of `by` attacks `sq` (pins and the mover's own king
    /// are ignored: this is for exchange estimates, not legality). Rooks,
    /// cannons and horses piece by piece (as [`Position::attacked_king`]),
    /// the short-range pieces from `sq`'s neighbours.
    #[inline]
    pub fn attacked_by(&self, sq: Square, by: u8) -> bool {
        per_colour!(by, self, attacked_by_of(sq))
    }

    /// [`Position::attacked_by`] for attackers of `BY`, one copy per colour
    /// (their slots and mark are constants, not registers).
    #[inline(never)]
    fn attacked_by_of<const BY: u8>(&self, sq: Square) -> bool {
        let by = BY;
        let first = 16 + 16 * by;
        // A rook with nothing between, a cannon with one piece between (a
        // piece standing on `sq` itself attacks nothing there).
        let line = |slot: u8, wanted: u32| {
            let at = self.square_of(slot);
            at != sq && self.screens(at, sq) == wanted
        };
        if line(first + 7, 0) || line(first + 8, 0) || line(first + 9, 1) || line(first + 10, 1) {
            return true;
        }
        // Horses a step away with the leg free (each on its own: a loop
        // over the pair of slots kept it on the stack).
        let horse = |slot: u8| {
            let h = self.square_of(slot);
            h != NO_SQUARE && self.horse_reaches(h, sq)
        };
        horse(first + 5) || horse(first + 6) || self.attacked_at_close_range(sq, by)
    }

    /// [`Position::attacked_by`] walking both lines' blockers and every
    /// neighbour of `sq` (the form it had before, for the tests).
    #[cfg(test)]
    pub fn attacked_by_reference(&self, sq: Square, by: u8) -> bool {
        const ROOK: u8 = 1 << Kind::Rook as u8;
        const CANNON: u8 = 1 << Kind::Cannon as u8;
        const HORSE: u8 = 1 << Kind::Horse as u8;
        let is = |at: Square, mask: u8| self.holds(at, by, mask);
        let s = usize::from(sq);
        let (r, f) = (RANK_OF[s], FILE_OF[s]);
        let e = self.file_blockers(sq);
        let on_file = |rank: u16| rank as u8 * 9 + f;
        if (e & 0xF != 0xF && is(on_file(e & 0xF), ROOK))
            || ((e >> 4) & 0xF != 0xF && is(on_file((e >> 4) & 0xF), CANNON))
            || ((e >> 8) & 0xF != 0xF && is(on_file((e >> 8) & 0xF), ROOK))
            || (e >> 12 != 0xF && is(on_file(e >> 12), CANNON))
        {
            return true;
        }
        let e = self.rank_blockers(sq);
        let base = r * 9;
        if (e & 0xF != 0xF && is(base + (e & 0xF) as u8, ROOK))
            || ((e >> 4) & 0xF != 0xF && is(base + ((e >> 4) & 0xF) as u8, CANNON))
            || ((e >> 8) & 0xF != 0xF && is(base + ((e >> 8) & 0xF) as u8, ROOK))
            || (e >> 12 != 0xF && is(base + (e >> 12) as u8, CANNON))
        {
            return true;
        }
        for &[from, _] in &super::board::HORSE_MOVES[s] {
            if from == NO_SQUARE {
                break;
            }
            if is(from, HORSE) && self.at(reverse_leg(from, sq)) == 0 {
                return true;
            }
        }
        self.attacked_at_close_range(sq, by)
    }

    /// Whether a horse on `h` reaches `target`: a horse step away, its leg
    /// free (whatever stands on `target`).
    #[inline(always)]
    pub(super) fn horse_reaches(&self, h: Square, target: Square) -> bool {
        horse_leg(h, target).is_some_and(|leg| self.at(leg) == 0)
    }

    /// Whether `at` holds a piece of `by` whose kind is in `mask` (bits
    /// `1 << Kind`).
    #[inline(always)]
    pub(super) fn holds(&self, at: Square, by: u8, mask: u8) -> bool {
        let p = self.at(at);
        // `slot >> 4` of `by`'s pieces is 1 (red) or 2 (black); 0 when empty.
        p >> 4 == by + 1 && KIND_BIT[usize::from(p & 15)] & mask != 0
    }

    /// Whether a pawn, the king, an advisor or an elephant of `by` attacks
    /// `sq` (the part of [`Position::attacked_by`] read from `sq`'s neighbours).
    #[inline(always)]
    fn attacked_at_close_range(&self, sq: Square, by: u8) -> bool {
        const PAWN: u8 = 1 << Kind::Pawn as u8;
        const KING: u8 = 1 << Kind::King as u8;
        const ADVISOR: u8 = 1 << Kind::Advisor as u8;
        const ELEPHANT: u8 = 1 << Kind::Elephant as u8;
        let is = |at: Square, mask: u8| self.holds(at, by, mask);
        let s = usize::from(sq);
        let (r, f) = (RANK_OF[s], FILE_OF[s]);
        // Pawns: from behind (their forward step), or beside once across the river.
        let crossed = if by == RED { r >= 5 } else { r <= 4 };
        let behind = pawn_behind(sq, by);
        if is(behind, PAWN)
            || (crossed && f > 0 && is(sq - 1, PAWN))
            || (crossed && f < 8 && is(sq + 1, PAWN))
        {
            return true;
        }
        if !self.home_reach(sq, by) {
            return false;
        }
        for &t in &KING_MOVES[s] {
            if t == NO_SQUARE {
                break;
            }
            if is(t, KING) {
                return true;
            }
        }
        for &t in &ADVISOR_MOVES[s] {
            if t == NO_SQUARE {
                break;
            }
            if is(t, ADVISOR) {
                return true;
            }
        }
        for &[to, eye] in &ELEPHANT_MOVES[s] {
            if to == NO_SQUARE {
                break;
            }
            if self.at(eye) == 0 && is(to, ELEPHANT) {
                return true;
            }
        }
        false
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.attacked_king(self.side())
    }

    /// Whether the pseudo-legal `mv` leaves the mover's own king safe.
    pub fn is_legal(&mut self, mv: Move) -> bool {
        let me = self.side();
        self.make_raw(mv);
        let ok = !self.attacked_king(me);
        self.unmake_raw(mv);
        ok
    }

    /// Whether the pseudo-legal `mv` might leave the mover's king attacked when
    /// the mover is not in check now: king moves, and moves from or to the king's
    /// rank or file (discovered rook, cannon or general; a new cannon screen) or
    /// from a horse-leg square next to it. Every other move is legal.
    #[inline]
    pub fn may_expose(&self, mv: Move) -> bool {
        let k = self.own_king(mv.piece);
        if slot_kind(mv.piece) == Kind::King || k == NO_SQUARE {
            return true;
        }
        let (k, from, to) = (usize::from(k), usize::from(mv.from), usize::from(mv.to));
        let (kr, kf) = (RANK_OF[k], FILE_OF[k]);
        let (fr, ff) = (RANK_OF[from], FILE_OF[from]);
        fr == kr
            || ff == kf
            || RANK_OF[to] == kr
            || FILE_OF[to] == kf
            || (fr.abs_diff(kr) == 1 && ff.abs_diff(kf) == 1)
    }

    /// Whether the pseudo-legal `mv` might answer a check on the mover's king:
    /// a king move, or a move from or to the king's rank or file (capturing or
    /// blocking a rook, cannon or facing king; adding or taking away a cannon's
    /// screen), or to a square within two ranks and files of it (a horse's leg,
    /// a checking horse or pawn taken). Every other move leaves each attack on
    /// the king as it was, so it is illegal in check.
    #[inline]
    pub fn may_evade(&self, mv: Move) -> bool {
        let k = self.own_king(mv.piece);
        if slot_kind(mv.piece) == Kind::King || k == NO_SQUARE {
            return true;
        }
        let (k, from, to) = (usize::from(k), usize::from(mv.from), usize::from(mv.to));
        let (kr, kf) = (RANK_OF[k], FILE_OF[k]);
        let (tr, tf) = (RANK_OF[to], FILE_OF[to]);
        RANK_OF[from] == kr
            || FILE_OF[from] == kf
            || tr == kr
            || tf == kf
            || (tr.abs_diff(kr) <= 2 && tf.abs_diff(kf) <= 2)
    }

    /// Whether `mv` (played here, or about to be) might give check: the moved piece
    /// reaches the king's rank or file (a rook, cannon or facing king there; a
    /// new cannon screen) or leaves it (a discovered line), leaves a horse-leg
    /// square next to the king, or is a horse or pawn landing near it. Every
    /// other move gives no check, so [`Position::in_check`] need not be asked.
    ///
    /// Read from `KING_VIEW`, the squares as the enemy king's palace point
    /// sees them ([`Position::may_give_check_reference`] computes the same
    /// from ranks and files; a king outside its palace, which no game
    /// reaches, is asked there).
    #[inline]
    pub fn may_give_check(&self, mv: Move) -> bool {
        self.may_give_check_in(self.check_view(slot_color(mv.piece)), mv)
    }

    /// The row of `KING_VIEW` that [`Position::may_give_check`] reads for
    /// `side`'s moves (`None`: the enemy king is outside its palace), to be
    /// found once for many moves ([`Position::may_give_check_in`]).
    #[inline]
    pub fn check_view(&self, side: u8) -> Option<&'static [u8; 128]> {
        let k = self.king(side ^ 1);
        KING_VIEW.get(usize::from(PALACE_POINT[usize::from(k)]))
    }

    /// [`Position::may_give_check`] with the mover's [`Position::check_view`].
    #[inline(always)]
    pub fn may_give_check_in(&self, view: Option<&[u8; 128]>, mv: Move) -> bool {
        let Some(view) = view else {
            return self.may_give_check_reference(mv);
        };
        (view[usize::from(mv.from & 0x7F)] & (ON_LINE | DIAGONAL))
            | (view[usize::from(mv.to & 0x7F)] & TO_FLAGS[usize::from(mv.piece & 15)])
            != 0
    }

    /// [`Position::may_give_check`] from the squares' ranks and files (for a
    /// king outside its palace, and the tests).
    #[inline(never)]
    pub fn may_give_check_reference(&self, mv: Move) -> bool {
        let k = self.king(slot_color(mv.piece) ^ 1);
        if k == NO_SQUARE {
            return true;
        }
        let (k, from, to) = (usize::from(k), usize::from(mv.from), usize::from(mv.to));
        let (kr, kf) = (RANK_OF[k], FILE_OF[k]);
        let (fr, ff, tr, tf) = (RANK_OF[from], FILE_OF[from], RANK_OF[to], FILE_OF[to]);
        fr == kr
            || ff == kf
            || tr == kr
            || tf == kf
            || (fr.abs_diff(kr) == 1 && ff.abs_diff(kf) == 1)
            || match slot_kind(mv.piece) {
                Kind::Horse => tr.abs_diff(kr) <= 2 && tf.abs_diff(kf) <= 2,
                Kind::Pawn => tr.abs_diff(kr) + tf.abs_diff(kf) == 1,
                _ => false,
            }
    }

    /// Fills `sink` with the side to move's quiet pseudo-legal moves that give
    /// check, each once, without generating the others: what the host's
    /// quiescence tries at the main search's horizon. The enemy king must not
    /// be in check (it never is with the side to move to play). A move that
    /// faces the kings on an open file is never among them (it is illegal).
    ///
    /// From the enemy king's square: first the pieces whose leaving uncovers
    /// an attack (the one piece between a rook and the king, the two between
    /// a cannon and the king, a horse's leg), whose quiet moves are each
    /// played on a copy and kept when they check ([`Position::attacked_after`]);
    /// then, for the other pieces, the direct checks (a rook or cannon to
    /// where its rank and file cross the king's lines, with none or one piece
    /// between it and the king; a horse to a point from which it reaches the
    /// king; a pawn to the king's front or side) and the new screens (a piece
    /// to a point between a cannon and the king with none between them).
    pub fn quiet_checks<T: MoveSlot>(&self, sink: &mut Sink<'_, T>) {
        let me = self.side();
        let k = self.king(me ^ 1);
        if k == NO_SQUARE {
            return;
        }
        let first = 16 + 16 * me;
        // Whether `sq` holds a piece of the side to move (`slot >> 4`: 1 red, 2 black).
        let mine = |sq: Square| self.at(sq) >> 4 == me + 1;
        let on_line = |sq: Square| {
            let (s, kk) = (usize::from(sq), usize::from(k));
            RANK_OF[s] == RANK_OF[kk] || FILE_OF[s] == FILE_OF[kk]
        };
        // The pieces that uncover an attack by leaving, a bit by `slot - first`.
        let mut uncover = 0u16;
        let mut mark = |sq: Square| {
            if mine(sq) {
                uncover |= 1 << (self.at(sq) - first);
            }
        };
        for (slot, between) in [(7, 1), (8, 1), (9, 2), (10, 2)] {
            if let Some((mut inner, base, step)) = self.line_inner(self.square_of(first + slot), k)
                && inner.count_ones() == between
            {
                while inner != 0 {
                    mark(base + step * inner.trailing_zeros() as u8);
                    inner &= inner - 1;
                }
            }
        }
        for slot in [5, 6] {
            if let Some(leg) = horse_leg(self.square_of(first + slot), k) {
                mark(leg);
            }
        }
        let free = |slot: u8| uncover & (1 << (slot - first)) == 0;
        // The uncovering pieces: every quiet move, played on a copy.
        if uncover != 0 {
            let mut after = self.clone();
            let mut buf = [Move::default(); 18];
            for slot in first..first + 16 {
                if free(slot) {
                    continue;
                }
                let n = {
                    let mut own = Sink::new(&mut buf);
                    self.piece_moves(&mut own, slot, self.square_of(slot), true);
                    own.len()
                };
                for &mv in buf[..n].iter().filter(|mv| mv.captured == 0) {
                    after.make_unkeyed(mv);
                    let check = after.attacked_after(me ^ 1, mv);
                    after.unmake_unkeyed(mv);
                    if check {
                        sink.push(mv);
                    }
                }
            }
        }
        let push = |sink: &mut Sink<'_, T>, piece: u8, from: Square, to: Square| {
            sink.push(Move {
                from,
                to,
                piece,
                captured: 0,
            });
        };
        let (kr, kf) = (RANK_OF[usize::from(k)], FILE_OF[usize::from(k)]);
        // Rooks and cannons off the king's lines: to where their rank and
        // file cross them (none between it and the king for a rook, one for
        // a cannon).
        for (slot, between) in [(7, 0), (8, 0), (9, 1), (10, 1)] {
            let (piece, from) = (first + slot, self.square_of(first + slot));
            if from == NO_SQUARE || !free(piece) || on_line(from) {
                continue;
            }
            let f = usize::from(from);
            for to in [square(RANK_OF[f], kf), square(kr, FILE_OF[f])] {
                if self.at(to) == 0 && self.screens(from, to) == 0 && self.screens(to, k) == between
                {
                    push(sink, piece, from, to);
                }
            }
        }
        // Horses: to a point a free step from the king.
        for piece in [first + 5, first + 6] {
            let from = self.square_of(piece);
            if from == NO_SQUARE || !free(piece) {
                continue;
            }
            for &[leg, a, b] in &HORSE_LEGS[usize::from(from)] {
                if leg != NO_SQUARE && self.at(leg) == 0 {
                    for to in [a, b] {
                        if to != NO_SQUARE && self.at(to) == 0 && self.horse_reaches(to, k) {
                            push(sink, piece, from, to);
                        }
                    }
                }
            }
        }
        // Pawns: to the king's front or side.
        for piece in first + 11..first + 16 {
            let from = self.square_of(piece);
            if from == NO_SQUARE
                || !free(piece)
                || RANK_OF[usize::from(from)].abs_diff(kr) > 2
                || FILE_OF[usize::from(from)].abs_diff(kf) > 2
            {
                continue;
            }
            let mut buf = [Move::default(); 3];
            let n = {
                let mut own = Sink::new(&mut buf);
                self.piece_moves(&mut own, piece, from, true);
                own.len()
            };
            for &mv in &buf[..n] {
                if mv.captured == 0 && pawn_checks(mv.to, k, me ^ 1) {
                    sink.push(mv);
                }
            }
        }
        // New screens: a piece to a point between the king and a cannon
        // with none between them (not a rook, which checks there itself and
        // came above; not a pawn that checks there itself; not the king,
        // which would face the other).
        for slot in [9, 10] {
            let cannon = self.square_of(first + slot);
            let Some((0, _, step)) = self.line_inner(cannon, k) else {
                continue;
            };
            let (lo, hi) = if cannon < k { (cannon, k) } else { (k, cannon) };
            let mut to = lo + step;
            while to < hi {
                let mut from_here = |from: Square| {
                    let piece = self.at(from);
                    if from != NO_SQUARE
                        && mine(from)
                        && free(piece)
                        && piece != first + slot
                        && self.has_move(piece, from, to)
                    {
                        push(sink, piece, from, to);
                    }
                };
                // The other cannon, the horses, the advisors, the elephants,
                // the pawns.
                for piece in [first + (19 - slot), first + 5, first + 6] {
                    from_here(self.square_of(piece));
                }
                for &a in ADVISOR_MOVES[usize::from(to)]
                    .iter()
                    .take_while(|&&t| t != NO_SQUARE)
                {
                    if slot_kind(self.at(a)) == Kind::Advisor {
                        from_here(a);
                    }
                }
                for &[e, _] in ELEPHANT_MOVES[usize::from(to)]
                    .iter()
                    .take_while(|e| e[0] != NO_SQUARE)
                {
                    if slot_kind(self.at(e)) == Kind::Elephant {
                        from_here(e);
                    }
                }
                if !pawn_checks(to, k, me ^ 1) {
                    for p in [pawn_behind(to, me), to.wrapping_sub(1), to + 1] {
                        if slot_kind(self.at(p)) == Kind::Pawn {
                            from_here(p);
                        }
                    }
                }
                to += step;
            }
        }
    }

    /// Fills `buf` with the legal moves (captures only when `quiet` is false);
    /// returns how many.
    pub fn legal_moves(&mut self, buf: &mut [Move], quiet: bool) -> usize {
        let n = {
            let mut sink = Sink::new(buf);
            self.pseudo_moves(&mut sink, quiet);
            sink.len()
        };
        let check = self.in_check();
        let mut kept = 0;
        for i in 0..n {
            let mv = buf[i];
            if (!check && !self.may_expose(mv)) || self.is_legal(mv) {
                buf[kept] = mv;
                kept += 1;
            }
        }
        kept
    }

    /// The legal move `from`–`to` of the side to move, if there is one: the
    /// same move [`Position::legal_moves`] lists, found by generating only the
    /// moving piece's moves and testing that one move (what replaying a game's
    /// history and the book need, without a full legal move list per move).
    pub fn legal_move(&mut self, from: Square, to: Square) -> Option<Move> {
        let piece = self.at(from);
        if piece == 0 || slot_color(piece) != self.side() {
            return None;
        }
        let mut buf = [Move::default(); 18];
        let n = {
            let mut sink = Sink::new(&mut buf);
            self.piece_moves(&mut sink, piece, from, true);
            sink.len()
        };
        let mv = buf[..n].iter().copied().find(|m| m.to == to)?;
        self.is_legal(mv).then_some(mv)
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&mut self) -> bool {
        let mut buf = [Move::default(); MAX_MOVES];
        let n = {
            let mut sink = Sink::new(&mut buf);
            self.pseudo_moves(&mut sink, true);
            sink.len()
        };
        buf[..n].iter().any(|&mv| self.is_legal(mv))
    }

    /// Leaf count of the legal move tree to `depth` (bulk-counted at the last ply).
    pub fn perft(&mut self, depth: u8) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut buf = [Move::default(); MAX_MOVES];
        let n = self.legal_moves(&mut buf, true);
        if depth == 1 {
            return n as u64;
        }
        let mut total = 0;
        for &mv in &buf[..n] {
            self.make_raw(mv);
            total += self.perft(depth - 1);
            self.unmake_raw(mv);
        }
        total
    }

    /// The position after `plies` random legal moves from the start (fewer
    /// if a side has none), each chosen by `seed` through [`super::search::mix`]: the
    /// positions of the property tests.
    #[cfg(test)]
    pub fn random_walk(seed: u64, plies: usize) -> Self {
        let mut pos = Self::start();
        let mut state = seed;
        let mut buf = [Move::default(); 128];
        for _ in 0..plies {
            let n = pos.legal_moves(&mut buf, true);
            if n == 0 {
                break;
            }
            state = super::search::mix(state);
            pos.make_raw(buf[(state % n as u64) as usize]);
        }
        pos
    }
}

#[cfg(test)]
mod quiet_check_tests {
    use super::super::board::{Move, Position};
    use super::Sink;
    use std::vec::Vec;

    /// The legal quiet moves of the side to move that give check, by the
    /// full generator, each played and tested.
    fn reference(pos: &mut Position) -> Vec<Move> {
        let mut buf = [Move::default(); 128];
        let n = pos.legal_moves(&mut buf, true);
        buf[..n]
            .iter()
            .copied()
            .filter(|&mv| {
                if mv.captured != 0 {
                    return false;
                }
                pos.make_raw(mv);
                let check = pos.in_check();
                pos.unmake_raw(mv);
                check
            })
            .collect()
    }

    /// Compares [`Position::quiet_checks`] with [`reference`] on `pos`: every
    /// move generated once, a pseudo-legal quiet move that gives check; the
    /// legal ones exactly the reference's.
    fn compare(pos: &mut Position) -> Result<(), std::string::String> {
        let mut buf = [Move::default(); 128];
        let n = {
            let mut sink = Sink::new(&mut buf[..]);
            pos.quiet_checks(&mut sink);
            assert!(!sink.overflowed());
            sink.len()
        };
        let mut all = [Move::default(); 128];
        let m = {
            let mut sink = Sink::new(&mut all[..]);
            pos.pseudo_moves(&mut sink, true);
            sink.len()
        };
        let mut legal = Vec::new();
        for (i, &mv) in buf[..n].iter().enumerate() {
            if buf[..i].contains(&mv) {
                return Err(std::format!("{mv:?} twice in {pos:?}"));
            }
            if mv.captured != 0 || !all[..m].contains(&mv) {
                return Err(std::format!("{mv:?} not a quiet move of {pos:?}"));
            }
            if !pos.may_give_check(mv) {
                return Err(std::format!("{mv:?} passes no check prefilter in {pos:?}"));
            }
            pos.make_raw(mv);
            let check = pos.in_check();
            pos.unmake_raw(mv);
            if !check {
                return Err(std::format!("{mv:?} gives no check in {pos:?}"));
            }
            if pos.is_legal(mv) {
                legal.push(mv);
            }
        }
        let mut expected = reference(pos);
        legal.sort_by_key(|mv| (mv.from, mv.to));
        expected.sort_by_key(|mv| (mv.from, mv.to));
        if legal != expected {
            return Err(std::format!("{legal:?} against {expected:?} in {pos:?}"));
        }
        Ok(())
    }

    /// Set-ups with every kind of quiet check (red to move, black's king on
    /// e9): a rook's and a cannon's uncovered (the cannon's by either of its
    /// two screens, one of them red's king), a horse's leg cleared, new
    /// screens by an advisor, an elephant, a horse, a pawn and a rook (which
    /// checks itself too), a pawn beside the king, and a horse alone between
    /// the kings (its every move illegal).
    const SET_UPS: [&str; 6] = [
        "4k4/9/9/9/4N4/9/9/9/4R4/3K5 w",
        "4k4/9/4p4/9/4P4/9/9/4C4/9/3K5 w",
        "4k4/3P5/9/R8/3P5/6B2/2N6/9/9/3KCA3 w",
        "4k4/3P5/3N5/9/9/9/9/9/9/3K5 w",
        "4k4/9/4p4/9/9/9/9/9/4K4/4C4 w",
        "4k4/9/9/9/4N4/9/9/9/9/4K4 w",
    ];

    #[test]
    fn quiet_checks_on_the_set_ups() {
        let mut total = 0;
        for fen in SET_UPS {
            let mut pos = Position::parse_fen(fen).unwrap();
            compare(&mut pos).unwrap();
            total += reference(&mut pos).len();
        }
        assert!(total >= 20, "{total} checks");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
        /// The quiet check generator gives exactly the legal quiet moves that
        /// give check (besides illegal ones, every move a check, none twice),
        /// on positions reached by random moves from the start and from the
        /// set-ups, for the side to move and, after a null move, the other.
        #[test]
        fn quiet_checks_match_the_full_generator(
            start in 0usize..7,
            seed in proptest::prelude::any::<u64>(),
            plies in 0usize..160,
        ) {
            let mut pos = if start == 0 {
                Position::random_walk(seed, plies)
            } else {
                let mut pos = Position::parse_fen(SET_UPS[start - 1]).unwrap();
                let mut state = seed;
                let mut buf = [Move::default(); 128];
                for _ in 0..plies % 24 {
                    let n = pos.legal_moves(&mut buf, true);
                    if n == 0 {
                        break;
                    }
                    state = super::super::search::mix(state);
                    pos.make_raw(buf[(state % n as u64) as usize]);
                }
                pos
            };
            for _ in 0..2 {
                if let Err(e) = compare(&mut pos) {
                    return Err(proptest::test_runner::TestCaseError::fail(e));
                }
                if pos.in_check() {
                    break;
                }
                pos.make_null();
            }
        }
    }
}
