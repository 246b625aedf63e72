//! VCT ("victory by continuous threats"): the attacker plays fours and open
//! threes, the defender every answer: against a four the block; against a three
//! every point where the attacker would make a four (the blocks, the far ends
//! included) and every four of its own (a counter-four the attacker must block
//! before its threat stands again). The attacker wins when it makes five or an
//! open four the defender cannot stop, when the defender's block is forbidden to
//! black (renju), or when every answer to one of its threats loses.
//!
//! The search is bounded by the attacker's threats (`Searcher::vct`'s
//! `depth`, fours and threes alike) and by the searcher's node limit; the
//! host's memo (the VCF memo, keys salted) remembers positions without a VCT
//! within so many threats. Only the host runs it (a frame holds a candidate
//! list of its own).

use super::board::{BLACK, Point, REACH, step};
use super::lines::{FIVE, FOUR, OPEN_FOUR, THREE, THREE_THREE, five_points};
use super::position::NO_POINT;
use super::search::{Searcher, for_each_near};
use crate::game::Game;

/// Most candidates an attack or defence node tries.
const VCT_WIDTH: usize = 24;

/// Salt of the VCT's memo keys (apart from the VCF's).
const VCT_SALT: u64 = 0x7C7_0000_0000_0000;

/// What one node's scan of the near points found for the attacker `me`.
struct Threats {
    /// A point where the side to move makes five.
    win: Point,
    /// Five points of the other side: how many, and one of them.
    fives: u8,
    five: Point,
    /// Candidates, best first, and their number.
    moves: [Point; VCT_WIDTH],
    values: [u32; VCT_WIDTH],
    len: usize,
    /// The side not to move has a point where it makes an open four.
    threatened: bool,
}

impl Threats {
    fn new() -> Self {
        Threats {
            win: NO_POINT,
            fives: 0,
            five: NO_POINT,
            moves: [NO_POINT; VCT_WIDTH],
            values: [0; VCT_WIDTH],
            len: 0,
            threatened: false,
        }
    }

    /// Ranks `p` with `value` (best first; ties: the earlier point).
    fn push(&mut self, p: Point, value: u32) {
        let mut i = self.len.min(VCT_WIDTH);
        while i > 0 && self.values[i - 1] < value {
            i -= 1;
        }
        if i < VCT_WIDTH {
            let end = self.len.min(VCT_WIDTH - 1);
            self.moves.copy_within(i..end, i + 1);
            self.values.copy_within(i..end, i + 1);
            self.moves[i] = p;
            self.values[i] = value;
            self.len = (self.len + 1).min(VCT_WIDTH);
        }
    }
}

impl<const P: usize, const T: usize, const W: usize, const R: usize> Searcher<'_, P, T, W, R> {
    /// `true` when the side to move wins by continuous threats within `depth`
    /// threats (fours and open threes); [`Searcher::line`] then begins with the
    /// winning first move. The position is restored on return.
    pub(super) fn vct(&mut self, depth: u8) -> bool {
        self.line.clear();
        let won = self.vct_attack(depth);
        if !won {
            self.line.clear();
        }
        won
    }

    /// The memo's slot and entry for the current position with `depth` threats left.
    fn vct_memo(&self, depth: u8) -> Option<(usize, u64)> {
        self.memo_slot(self.hash() ^ VCT_SALT, depth)
    }

    /// The attacker (the side to move) tries its fours, then its threes.
    fn vct_attack(&mut self, depth: u8) -> bool {
        if self.visit() {
            return false;
        }
        if let Some((slot, entry)) = self.vct_memo(depth)
            && self.memo_holds(slot, entry)
        {
            return false;
        }
        let t = self.vct_scan(true);
        if t.win != NO_POINT {
            self.line.clear();
            let _ = self.line.push(t.win);
            return true;
        }
        if t.fives >= 2 {
            return false;
        }
        let mut tried = 0u32;
        for i in 0..t.len {
            let p = t.moves[i];
            if t.fives == 1 && p != t.five {
                continue;
            }
            let class = (t.values[i] >> 24) as u8;
            if depth == 0 && class < FOUR {
                continue;
            }
            if class < FOUR && depth <= 1 {
                // A three needs two more threats to win at least.
                continue;
            }
            tried += 1;
            let undo = self.play(p);
            let won = if class >= FOUR {
                self.vct_after_four(p, depth)
            } else {
                self.vct_defend(depth - 1)
            };
            self.take_back(p, undo);
            if won {
                self.vct_prepend(p);
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        let _ = tried;
        if let Some((slot, entry)) = self.vct_memo(depth) {
            self.memo_mut()[slot] = entry;
        }
        false
    }

    /// After the attacker's four `p` (the defender to move): the defender blocks
    /// the five point (two of them, or a block forbidden to black, win at once),
    /// then the attacker goes on with `depth` threats (a four costs none: the
    /// defender's answer is forced, and fours run out).
    fn vct_after_four(&mut self, p: Point, depth: u8) -> bool {
        let me = self.pos.player_to_move() ^ 1;
        let rule = self.pos.rule();
        let mut block = NO_POINT;
        let mut points = 0u32;
        for (d, l) in self.pos.board().lines(p).iter().enumerate() {
            let mut c = five_points(l, me, rule.five_rule(me));
            while c != 0 {
                let bit = c.trailing_zeros() as i8;
                c &= c - 1;
                if let Some(q) = step(p, d, bit - REACH)
                    && q != block
                {
                    points += 1;
                    block = q;
                }
            }
        }
        if points >= 2 {
            return true;
        }
        if block == NO_POINT {
            return false;
        }
        if me != BLACK && rule.has_forbidden() && self.pos.is_forbidden(block) {
            return true;
        }
        if self.visit() {
            return false;
        }
        let undo = self.play(block);
        let won = self.vct_attack(depth.saturating_sub(1));
        self.take_back(block, undo);
        if won {
            self.vct_prepend(block);
        }
        won
    }

    /// The defender (to move) answers the attacker's three: every answer must
    /// lose for the attacker to win.
    fn vct_defend(&mut self, depth: u8) -> bool {
        if self.visit() {
            return false;
        }
        let t = self.vct_scan(false);
        if t.win != NO_POINT || t.fives >= 2 {
            // The defender makes five, or the attacker's four could not be met
            // (cannot happen after a three, but costs nothing to check).
            return t.win == NO_POINT;
        }
        if t.fives == 1 {
            // The attacker has a four after all (its three made one elsewhere):
            // the defender blocks it and the attack goes on.
            return self.vct_block_then(t.five, depth);
        }
        if !t.threatened {
            // The three threatens nothing: the defender has a free move.
            return false;
        }
        for i in 0..t.len {
            let d = t.moves[i];
            self.line.clear();
            let undo = self.play(d);
            // A counter-four is blocked first; any other answer meets the attack.
            let won = self.vct_counter(d, depth);
            self.take_back(d, undo);
            if !won || self.aborted {
                return false;
            }
        }
        // The line goes on with the last answer tried.
        if let Some(&d) = t.moves[..t.len].last() {
            self.vct_prepend(d);
        }
        true
    }

    /// The defender blocks on `block` (if it may), then the attacker goes on.
    fn vct_block_then(&mut self, block: Point, depth: u8) -> bool {
        let defender = self.pos.player_to_move();
        if defender == BLACK && self.pos.is_forbidden(block) {
            return true;
        }
        let undo = self.play(block);
        let won = self.vct_attack(depth);
        self.take_back(block, undo);
        if won {
            self.vct_prepend(block);
        }
        won
    }

    /// After the defender's counter-four `d` (the attacker to move): the attacker
    /// must block it (two five points, or a block forbidden to black, lose),
    /// then the defender answers the attacker's threat again.
    fn vct_counter(&mut self, d: Point, depth: u8) -> bool {
        let attacker = self.pos.player_to_move();
        let rule = self.pos.rule();
        let defender = attacker ^ 1;
        let mut block = NO_POINT;
        let mut points = 0u32;
        for (dir, l) in self.pos.board().lines(d).iter().enumerate() {
            let mut c = five_points(l, defender, rule.five_rule(defender));
            while c != 0 {
                let bit = c.trailing_zeros() as i8;
                c &= c - 1;
                if let Some(q) = step(d, dir, bit - REACH)
                    && q != block
                {
                    points += 1;
                    block = q;
                }
            }
        }
        if points >= 2 {
            return false;
        }
        if block == NO_POINT {
            // Not a four after all: the attacker is free to attack again.
            return self.vct_attack(depth);
        }
        if attacker == BLACK && self.pos.is_forbidden(block) {
            return false;
        }
        if self.visit() {
            return false;
        }
        let undo = self.play(block);
        let won = self.vct_defend(depth);
        self.take_back(block, undo);
        if won {
            self.vct_prepend(block);
        }
        won
    }

    /// Puts `p` in front of the winning line (dropping its tail when full).
    fn vct_prepend(&mut self, p: Point) {
        if self.line.len() == self.line.capacity() {
            self.line.pop();
        }
        let _ = self.line.insert(0, p);
    }

    /// Reads every near point for the side to move. At an attack node
    /// (`attack`): its five, the opponent's five points, and its fours and
    /// threes ranked (fours first; the class in the value's top byte). At a
    /// defence node: its five, the attacker's five points, and the answers
    /// (points where the attacker would make a four, and the defender's own
    /// fours, class `FOUR` in the top byte).
    fn vct_scan(&mut self, attack: bool) -> Threats {
        let me = usize::from(self.pos.player_to_move());
        let mut t = Threats::new();
        let mut points = heapless::Vec::<Point, 225>::new();
        for_each_near(&self.pos, |p| {
            let _ = points.push(p);
        });
        self.work = self.work.saturating_add(points.len() as u32);
        for &p in &points {
            let mut pp = self.read_point(p);
            pp.resolve(self.pos.board_mut(), p);
            let (mine, theirs) = (pp.threat[me], pp.threat[me ^ 1]);
            if mine.class == FIVE {
                t.win = p;
            }
            if theirs.class == FIVE {
                t.fives = t.fives.saturating_add(1);
                t.five = p;
            }
            t.threatened |= theirs.class == OPEN_FOUR;
            if mine.forbidden {
                continue;
            }
            if attack {
                let class = match mine.class {
                    c if c >= FOUR && c != THREE_THREE => FOUR,
                    THREE | THREE_THREE => THREE,
                    _ => continue,
                };
                let value = u32::from(class) << 24 | u32::from(mine.value);
                t.push(p, value);
            } else if (theirs.class >= FOUR && theirs.class != THREE_THREE)
                || (mine.class >= FOUR && mine.class != THREE_THREE)
            {
                t.push(p, u32::from(theirs.value) + u32::from(mine.value));
            }
        }
        t
    }
}
