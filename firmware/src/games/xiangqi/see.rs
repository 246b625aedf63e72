//! Static exchange evaluation: what a capture wins once both sides have
//! recaptured on its square with their cheapest attackers, each side free to
//! stop when going on would lose more.
//!
//! The attackers are xiangqi's: pawns from behind (and beside, once across the
//! river), advisors and the king inside the palace, elephants with a free eye,
//! horses with a free leg, rooks with nothing between and cannons with exactly
//! one screen. Each capture is made on the board (board, slots and lines only)
//! so that the pieces behind it join in, rooks and cannons seeing through or
//! over the square the capturer left, and everything is put back at the end.
//! Pins and checks are ignored, as exchange estimates do.

use super::board::{
    ADVISOR_MOVES, FILE_OF, KING_MOVES, Kind, Move, NO_SQUARE, Position, RANK_OF, RED, Square,
    slot_color, slot_kind,
};
use super::eval::VALUE;
use super::movegen::pawn_behind;
use crate::game::Score;

/// Longest exchange followed: every piece that can reach a square (at most
/// three pawns, two advisors, two elephants, two horses, two cannons, two
/// rooks and the king a side) could join in.
const MAX_EXCHANGE: usize = 28;

/// The piece value of `slot`'s kind.
#[inline]
fn value(slot: u8) -> Score {
    VALUE[slot_kind(slot) as usize]
}

impl Position {
    /// The slot of `by`'s cheapest piece attacking `sq` (0 if none): a pawn,
    /// an advisor, an elephant, a horse, a cannon, a rook, then the king (the
    /// order of [`VALUE`]). A piece standing on `sq` attacks nothing there.
    #[inline]
    pub fn least_attacker(&self, sq: Square, by: u8) -> u8 {
        per_colour!(by, self, least_attacker_of(sq))
    }

    /// [`Position::least_attacker`] for attackers of `BY`, one copy per
    /// colour (their slots and mark are constants, not registers).
    #[inline(never)]
    fn least_attacker_of<const BY: u8>(&self, sq: Square) -> u8 {
        const PAWN: u8 = 1 << Kind::Pawn as u8;
        let by = BY;
        const KING: u8 = 1 << Kind::King as u8;
        const ADVISOR: u8 = 1 << Kind::Advisor as u8;
        let s = usize::from(sq);
        let (r, f) = (RANK_OF[s], FILE_OF[s]);
        // Pawns: from behind (their forward step), or beside once across the river.
        let behind = pawn_behind(sq, by);
        if self.holds(behind, by, PAWN) {
            return self.at(behind);
        }
        if (by == RED) == (r >= 5) {
            if f > 0 && self.holds(sq - 1, by, PAWN) {
                return self.at(sq - 1);
            }
            if f < 8 && self.holds(sq + 1, by, PAWN) {
                return self.at(sq + 1);
            }
        }
        // The advisors, elephants and king reach only their side's palace
        // and elephant points.
        let home = self.home_reach(sq, by);
        if home {
            for &t in &ADVISOR_MOVES[s] {
                if t == NO_SQUARE {
                    break;
                }
                if self.holds(t, by, ADVISOR) {
                    return self.at(t);
                }
            }
        }
        let first = 16 + 16 * by;
        // Elephants two points away diagonally on the same side of the
        // river, the eye between free (as `ELEPHANT_MOVES` reads backwards).
        // (Each slot on its own: a loop over a pair of slots kept it on
        // the stack.)
        let elephant = |slot: u8| {
            let e = self.square_of(slot);
            e != NO_SQUARE
                && matches!(i16::from(sq) - i16::from(e), 16 | 20 | -16 | -20)
                && FILE_OF[usize::from(e)].abs_diff(f) == 2
                && (e >= 45) == (sq >= 45)
                && self.at((e + sq) / 2) == 0
        };
        if home && elephant(first + 3) {
            return first + 3;
        }
        if home && elephant(first + 4) {
            return first + 4;
        }
        let horse = |slot: u8| {
            let h = self.square_of(slot);
            h != NO_SQUARE && self.horse_reaches(h, sq)
        };
        if horse(first + 5) {
            return first + 5;
        }
        if horse(first + 6) {
            return first + 6;
        }
        // A cannon with one piece between, a rook with none.
        let line = |slot: u8, wanted: u32| {
            let at = self.square_of(slot);
            at != sq && self.screens(at, sq) == wanted
        };
        if line(first + 9, 1) {
            return first + 9;
        }
        if line(first + 10, 1) {
            return first + 10;
        }
        if line(first + 7, 0) {
            return first + 7;
        }
        if line(first + 8, 0) {
            return first + 8;
        }
        if home {
            for &t in &KING_MOVES[s] {
                if t == NO_SQUARE {
                    break;
                }
                if self.holds(t, by, KING) {
                    return self.at(t);
                }
            }
        }
        0
    }

    /// Whether the capture `mv` (pseudo-legal, of the side to move) wins at
    /// least `threshold` in material once the exchange on its square is played
    /// out, each side recapturing with its cheapest attacker or stopping
    /// (centipawns of [`VALUE`]; the position is left as it was).
    ///
    /// The exchange is followed only as long as it can still change the
    /// answer (Stockfish's `see_ge`): `swap` is what the side that made the
    /// last capture stands to lose beyond the threshold if that piece is
    /// taken, and `win` whether the side to move's capture reaches the
    /// threshold if the exchange stops now.
    ///
    /// Captures only: a quiet move's empty target would read as the most
    /// valuable victim, so every quiet move would pass.
    // Out of line on a board: inlined, its locals would sit in every search frame.
    #[cfg_attr(target_os = "none", inline(never))]
    pub fn see_at_least(&mut self, mv: Move, threshold: Score) -> bool {
        debug_assert!(mv.captured != 0, "see_at_least on a quiet move: {mv:?}");
        let mut swap = value(mv.captured) - threshold;
        if swap < 0 {
            return false;
        }
        swap = value(mv.piece) - swap;
        if swap <= 0 {
            return true;
        }
        self.exchange_from(mv, swap)
    }

    /// [`Position::see_at_least`] past its first two tests: the capture is
    /// made on the board and answered until the result is settled. Never
    /// inlined: its list stays off the frames of the recursive search.
    #[inline(never)]
    fn exchange_from(&mut self, mv: Move, mut swap: Score) -> bool {
        let to = mv.to;
        // The captures made, to put back: (slot, from); each took the piece
        // of the capture before it (the first took `mv.captured`).
        let mut made: heapless::Vec<(u8, u8), MAX_EXCHANGE> = heapless::Vec::new();
        self.exchange_step(mv.piece, mv.from, to);
        let _ = made.push((mv.piece, mv.from));
        let mut by = slot_color(mv.piece) ^ 1;
        let mut win = true;
        while !made.is_full() {
            let slot = self.least_attacker(to, by);
            if slot == 0 {
                break;
            }
            win = !win;
            swap = value(slot) - swap;
            if swap < Score::from(win) {
                break;
            }
            let from = self.square_of(slot);
            self.exchange_step(slot, from, to);
            let _ = made.push((slot, from));
            by ^= 1;
        }
        for k in (0..made.len()).rev() {
            let (slot, from) = made[k];
            let taken = if k == 0 { mv.captured } else { made[k - 1].0 };
            self.exchange_undo(slot, from, to, taken);
        }
        win
    }

    /// What the capture `mv` wins once the exchange is played out in full
    /// (the swap list's minimax: the reference [`Position::see_at_least`] is
    /// tested against).
    #[cfg(test)]
    pub fn see(&mut self, mv: Move) -> Score {
        let to = mv.to;
        let mut gain = [0 as Score; MAX_EXCHANGE];
        let mut made = [(0u8, 0u8, 0u8); MAX_EXCHANGE];
        gain[0] = value(mv.captured);
        made[0] = (mv.piece, mv.from, self.exchange_step(mv.piece, mv.from, to));
        let mut n = 1;
        let mut on_target = mv.piece;
        let mut by = slot_color(mv.piece) ^ 1;
        while n < MAX_EXCHANGE {
            let slot = self.least_attacker(to, by);
            if slot == 0 {
                break;
            }
            gain[n] = value(on_target) - gain[n - 1];
            let from = self.square_of(slot);
            made[n] = (slot, from, self.exchange_step(slot, from, to));
            n += 1;
            on_target = slot;
            by ^= 1;
        }
        for &(slot, from, taken) in made[..n].iter().rev() {
            self.exchange_undo(slot, from, to, taken);
        }
        // Each side stops where recapturing would lose.
        for d in (1..n).rev() {
            gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        }
        gain[0]
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{Move, Position, slot_color};
    use super::super::movegen::Sink;
    use super::VALUE;
    use crate::game::Score;
    use proptest::prelude::*;

    /// The capture `from`–`to` (ICCS squares) in `fen`.
    fn capture(pos: &Position, iccs: &str) -> Move {
        let b = iccs.as_bytes();
        let sq = |f: u8, r: u8| (r - b'0') * 9 + (f - b'a');
        let (from, to) = (sq(b[0], b[1]), sq(b[2], b[3]));
        assert_ne!(pos.at(to), 0, "{iccs} takes nothing");
        Move {
            from,
            to,
            piece: pos.at(from),
            captured: pos.at(to),
        }
    }

    fn see(fen: &str, iccs: &str) -> Score {
        let mut pos = Position::parse_fen(fen).expect(fen);
        let before = pos.clone();
        let mv = capture(&pos, iccs);
        let v = pos.see(mv);
        assert_eq!(pos, before, "the exchange test left the position changed");
        v
    }

    const PAWN: Score = VALUE[6];
    const ADVISOR: Score = VALUE[1];
    const HORSE: Score = VALUE[3];
    const ROOK: Score = VALUE[4];
    const CANNON: Score = VALUE[5];

    #[test]
    fn an_undefended_piece_is_won_whole() {
        // The red rook a0 takes the black horse a5: nothing of black's attacks a5.
        assert_eq!(see("3k5/9/9/9/n8/9/9/9/9/R3K4 w", "a0a5"), HORSE);
    }

    #[test]
    fn a_defended_piece_costs_the_capturer() {
        // The black rook a9 takes back: horse for rook.
        assert_eq!(see("r2k5/9/9/9/n8/9/9/9/9/R3K4 w", "a0a5"), HORSE - ROOK);
        // A pawn takes the horse: the pawn is lost, the horse won.
        assert_eq!(see("r2k5/9/9/9/n8/P8/9/9/9/4K4 w", "a4a5"), HORSE - PAWN);
    }

    #[test]
    fn a_second_attacker_behind_the_first_joins_in() {
        // Red rooks doubled on the a file: rook takes horse, and a black
        // recapture is met by the second rook, so black stops.
        assert_eq!(see("r2k5/9/9/9/n8/9/9/9/R8/R3K4 w", "a1a5"), HORSE);
    }

    #[test]
    fn a_cannon_needs_exactly_one_screen() {
        // The red cannon a0 takes the horse a5 over the pawn a3; the black
        // rook a9 takes back and nothing of red's attacks a5: horse for cannon.
        assert_eq!(see("r2k5/9/9/9/n8/9/P8/9/9/C3K4 w", "a0a5"), HORSE - CANNON);
        // A black cannon on a9 with nothing between it and a5 does not take back.
        assert_eq!(see("c2k5/9/9/9/n8/9/P8/9/9/C3K4 w", "a0a5"), HORSE);
        // The red rook a2 screens the red cannon a0 onto a5: once the rook has
        // taken there, the cannon has no screen left and cannot take back.
        assert_eq!(see("r2k5/9/9/9/n8/9/9/R8/9/C3K4 w", "a2a5"), HORSE - ROOK);
        // The black rook a7 screens the black cannon a9 onto a5: the cannon
        // takes back, and red's rook is lost for a horse.
        assert_eq!(see("c2k5/9/r8/9/n8/9/9/9/9/R3K4 w", "a0a5"), HORSE - ROOK);
    }

    #[test]
    fn the_king_takes_back_only_where_nothing_takes_it() {
        // A red rook takes the advisor e8 in front of the black king: the king
        // takes back (rook lost, advisor won).
        assert_eq!(see("4k4/4a4/9/9/9/9/9/9/9/4RK3 w", "e0e8"), ADVISOR - ROOK);
        // With a second red rook behind the first, the king may not take.
        assert_eq!(see("4k4/4a4/9/9/9/9/9/9/4R4/4RK3 w", "e1e8"), ADVISOR);
    }

    #[test]
    fn horse_legs_and_elephant_eyes_decide_their_attacks() {
        // The black horse b7 defends a5 (leg b6 free) until a piece stands on b6.
        assert_eq!(see("3k5/9/1n7/9/n8/9/9/9/9/R3K4 w", "a0a5"), HORSE - ROOK);
        assert_eq!(see("3k5/9/1n7/1p7/n8/9/9/9/9/R3K4 w", "a0a5"), HORSE);
        // The black elephant e7 defends c5 unless its eye d6 is blocked.
        assert_eq!(see("3k5/9/4b4/9/2n6/9/9/9/9/2R1K4 w", "c0c5"), HORSE - ROOK);
        assert_eq!(see("3k5/9/4b4/3p5/2n6/9/9/9/9/2R1K4 w", "c0c5"), HORSE);
    }

    /// The exchange by brute force: every sequence of least-valuable
    /// recaptures, as a minimax over "stop or recapture".
    fn swap_reference(pos: &mut Position, to: u8, on_target: u8, by: u8) -> Score {
        let slot = pos.least_attacker(to, by);
        if slot == 0 {
            return 0;
        }
        let from = pos.square_of(slot);
        let taken = pos.exchange_step(slot, from, to);
        let v = VALUE[super::slot_kind(on_target) as usize] - swap_reference(pos, to, slot, by ^ 1);
        pos.exchange_undo(slot, from, to, taken);
        v.max(0)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// On positions reached by random moves, every capture's exchange
        /// value lies between "victim less capturer" and "victim", equals the
        /// plain minimax of recaptures, and leaves the position unchanged.
        #[test]
        fn exchange_values_follow_the_minimax(seed in any::<u64>(), plies in 0usize..60) {
            let mut pos = Position::random_walk(seed, plies);
            let mut caps = [Move::default(); 128];
            let n = {
                let mut sink = Sink::new(&mut caps);
                pos.pseudo_moves(&mut sink, false);
                sink.len()
            };
            for &mv in &caps[..n] {
                let before = pos.clone();
                let v = pos.see(mv);
                prop_assert_eq!(&pos, &before);
                let victim = VALUE[super::slot_kind(mv.captured) as usize];
                let attacker = VALUE[super::slot_kind(mv.piece) as usize];
                prop_assert!(v <= victim && v >= victim - attacker, "{:?}: {}", mv, v);
                let taken = pos.exchange_step(mv.piece, mv.from, mv.to);
                let rest = swap_reference(&mut pos, mv.to, mv.piece, slot_color(mv.piece) ^ 1);
                // A piece nothing takes back once the capture is made (the
                // capturer may have uncovered a line) is won whole.
                let defended = pos.attacked_by(mv.to, slot_color(mv.captured));
                pos.exchange_undo(mv.piece, mv.from, mv.to, taken);
                prop_assert_eq!(v, victim - rest, "{:?}", mv);
                for t in [v - 1, v, v + 1, 0, 1, -100, 300] {
                    prop_assert_eq!(pos.see_at_least(mv, t), v >= t, "{:?} threshold {}", mv, t);
                    prop_assert_eq!(&pos, &before);
                }
                if !defended {
                    prop_assert_eq!(v, victim);
                }
                // The cheapest of the side's pieces that can take there.
                let cheapest = caps[..n]
                    .iter()
                    .filter(|c| c.to == mv.to)
                    .map(|c| VALUE[super::slot_kind(c.piece) as usize])
                    .min();
                let least = pos.least_attacker(mv.to, pos.side());
                prop_assert_eq!(Some(VALUE[super::slot_kind(least) as usize]), cheapest);
                prop_assert_eq!(slot_color(least), pos.side());
            }
        }
    }
}
