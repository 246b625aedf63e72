//! The position, move generation (steps and jump chains), make/unmake and the
//! end of the game.

use super::board::{AREAS, DIST, HOLES, Holes, NEIGHBOURS, NONE, SEATS};
use crate::game::{Game, Outcome, Score};

/// Most pieces on the board (six players with ten pieces, or three with fifteen).
pub const MAX_PIECES: usize = 60;

/// The game is drawn when this many moves per player have been played without a
/// winner (the position's ply counter reaches `MOVE_LIMIT * players`).
pub const MOVE_LIMIT: u16 = 150;

/// Capacity of the full legal-move list ([`Game::Moves`]). Never reached in
/// practice (a generous bound, checked by a test against the largest jump sets).
pub const MAX_MOVES: usize = 640;

/// A move: the piece on hole `from` goes to hole `to` (a step or a jump chain),
/// or [`Move::PASS`] when the side to move has no legal move at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Hole the piece leaves.
    pub from: u8,
    /// Hole the piece ends on.
    pub to: u8,
}

impl Move {
    /// The only move of a player whose pieces are all blocked.
    pub const PASS: Move = Move {
        from: NONE,
        to: NONE,
    };
}

/// A Chinese-checkers position. RAM: the piece → hole table (the seed's
/// representation, kept sorted per player so equal positions compare equal), the
/// side to move, the ply counter, and caches derived from the pieces: the
/// occupancy bitset, each player's summed distance to its goal tip and each
/// player's count of pieces in its goal area. About 100 bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Checkers {
    players: u8,
    per: u8,
    turn: u8,
    ply: u16,
    pieces: [u8; MAX_PIECES],
    occ: Holes,
    dist: [u16; 6],
    in_goal: [u8; 6],
}

impl Checkers {
    /// The start position for `players` (2, 3, 4 or 6) with `per` pieces each
    /// (10, or 15 for at most three players). `None` for other combinations.
    pub fn start(players: u8, per: u8) -> Option<Self> {
        let mut pos = Self::EMPTY;
        pos.reset_to_start(players, per).then_some(pos)
    }

    /// Makes `self` the start position for `players` with `per` pieces each, in
    /// place (no second position on the stack); `false` (and `self` unspecified)
    /// for an invalid setup.
    pub fn reset_to_start(&mut self, players: u8, per: u8) -> bool {
        if !self.reset(players, per, 0, 0) {
            return false;
        }
        for p in 0..players {
            let home = Self::area_of(per, SEATS[usize::from(players)][usize::from(p)]);
            for (i, h) in home.iter().enumerate().take(per.into()) {
                self.place(p, i, h);
            }
        }
        self.seal();
        true
    }

    /// Builds a position from each player's holes (`holes[p][..per]`).
    /// `None` if the setup is invalid, a hole is off the board or taken twice, or
    /// `turn`/`ply` are out of range.
    pub fn from_holes(
        players: u8,
        per: u8,
        turn: u8,
        ply: u16,
        holes: &[[u8; 15]; 6],
    ) -> Option<Self> {
        let mut pos = Self::EMPTY;
        if !pos.reset(players, per, turn, ply) {
            return None;
        }
        for (p, list) in (0..players).zip(holes.iter()) {
            for (i, &h) in list.iter().enumerate().take(per.into()) {
                if !pos.place(p, i, h) {
                    return None;
                }
            }
        }
        pos.seal();
        Some(pos)
    }

    /// A board with no players and no pieces: a slot to build positions in with
    /// [`Checkers::reset`] or [`Checkers::reset_to_start`].
    pub const EMPTY: Checkers = Checkers {
        players: 0,
        per: 0,
        turn: 0,
        ply: 0,
        pieces: [NONE; MAX_PIECES],
        occ: Holes::EMPTY,
        dist: [0; 6],
        in_goal: [0; 6],
    };

    /// Empties `self` for a valid setup, to be filled with [`Checkers::place`] and
    /// finished with [`Checkers::seal`] (builds a position in place, without a hole
    /// table on the stack). `false` (and `self` unchanged) for an invalid setup or
    /// `turn`/`ply` out of range.
    pub fn reset(&mut self, players: u8, per: u8, turn: u8, ply: u16) -> bool {
        if !valid_setup(players, per) || turn >= players || ply > MOVE_LIMIT * u16::from(players) {
            return false;
        }
        self.players = players;
        self.per = per;
        self.turn = turn;
        self.ply = ply;
        self.pieces = [NONE; MAX_PIECES];
        self.occ = Holes::EMPTY;
        true
    }

    /// Puts player `p`'s piece number `i` on hole `h` of a board emptied by
    /// [`Checkers::reset`]. `false` (and nothing changes) if `p` or `i` is out of range, the
    /// hole is off the board or already taken.
    pub fn place(&mut self, p: u8, i: usize, h: u8) -> bool {
        let per = usize::from(self.per);
        if p >= self.players || i >= per || usize::from(h) >= HOLES || self.occ.has(h) {
            return false;
        }
        self.occ.set(h);
        self.pieces[usize::from(p) * per + i] = h;
        true
    }

    /// Finishes a board filled by [`Checkers::place`]: sorts each player's pieces
    /// and computes the caches. Every piece must have been placed.
    pub fn seal(&mut self) {
        let n = usize::from(self.per);
        for p in 0..usize::from(self.players) {
            // Insertion sort: at most 15 pieces, and no sort routine's frames.
            let list = &mut self.pieces[p * n..(p + 1) * n];
            for i in 1..list.len() {
                let mut j = i;
                while j > 0 && list[j - 1] > list[j] {
                    list.swap(j - 1, j);
                    j -= 1;
                }
            }
        }
        self.refresh();
    }

    /// Recomputes the derived caches from the piece table.
    fn refresh(&mut self) {
        for p in 0..self.players {
            let goal = usize::from(self.goal(p));
            let area = Self::area_of(self.per, self.goal(p));
            let (mut d, mut g) = (0u16, 0u8);
            for &h in self.pieces_of(p) {
                d += u16::from(DIST[goal][usize::from(h)]);
                g += u8::from(area.has(h));
            }
            self.dist[usize::from(p)] = d;
            self.in_goal[usize::from(p)] = g;
        }
    }

    fn area_of(per: u8, triangle: u8) -> Holes {
        AREAS[usize::from(per == 15)][usize::from(triangle)]
    }

    /// Number of players (2, 3, 4 or 6).
    pub fn players(&self) -> u8 {
        self.players
    }

    /// Pieces per player (10 or 15).
    pub fn pieces_per_player(&self) -> u8 {
        self.per
    }

    /// Plies played (counts toward the [`MOVE_LIMIT`] draw).
    pub fn ply(&self) -> u16 {
        self.ply
    }

    /// Player whose turn it is (0-based).
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// Triangle player `p` starts in.
    pub fn home(&self, p: u8) -> u8 {
        SEATS[usize::from(self.players)]
            .get(usize::from(p))
            .copied()
            .unwrap_or(0)
    }

    /// Triangle player `p` must fill (opposite its home).
    pub fn goal(&self, p: u8) -> u8 {
        (self.home(p) + 3) % 6
    }

    /// The holes player `p` must fill: its goal triangle (10 pieces) or 15-hole area.
    pub fn goal_area(&self, p: u8) -> Holes {
        Self::area_of(self.per, self.goal(p))
    }

    /// Player `p`'s holes, in increasing order.
    pub fn pieces_of(&self, p: u8) -> &[u8] {
        let n = usize::from(self.per);
        let start = usize::from(p) * n;
        self.pieces.get(start..start + n).unwrap_or(&[])
    }

    /// How many of player `p`'s pieces stand in its goal area.
    pub fn in_goal(&self, p: u8) -> u8 {
        self.in_goal.get(usize::from(p)).copied().unwrap_or(0)
    }

    /// Every occupied hole.
    pub fn occupied(&self) -> Holes {
        self.occ
    }

    /// The player whose piece stands on `hole`, if any.
    pub fn owner(&self, hole: u8) -> Option<u8> {
        if !self.occ.has(hole) {
            return None;
        }
        (0..self.players).find(|&p| self.pieces_of(p).contains(&hole))
    }

    /// Sum over player `p`'s pieces of the rows to its goal tip (20 when a
    /// 10-piece player has filled its goal, 40 for 15 pieces).
    pub fn distance(&self, p: u8) -> u16 {
        self.dist.get(usize::from(p)).copied().unwrap_or(0)
    }

    /// Calls `f(to)` for every hole the piece on `from` can reach in one move:
    /// first the adjacent empty holes (in direction order), then the landing
    /// holes of jump chains in the order a lowest-hole-first search finds them
    /// (any colour may be jumped, no hole is visited twice, the vacated `from`
    /// counts as empty). Each hole once; nothing if `from` holds no piece.
    pub fn for_each_destination(&self, from: u8, mut f: impl FnMut(u8)) {
        if !self.occ.has(from) {
            return;
        }
        let Some(nbrs) = NEIGHBOURS.get(usize::from(from)) else {
            return;
        };
        let full = |h: u8| h != from && self.occ.has(h);
        for &n in nbrs {
            if n != NONE && !full(n) {
                f(n);
            }
        }
        let mut seen = Holes::EMPTY;
        seen.set(from);
        let mut todo = seen;
        while let Some(h) = todo.pop_lowest() {
            for (d, &over) in NEIGHBOURS[usize::from(h)].iter().enumerate() {
                if over == NONE || !full(over) {
                    continue;
                }
                let land = NEIGHBOURS[usize::from(over)][d];
                if land != NONE && !full(land) && !seen.has(land) {
                    seen.set(land);
                    todo.set(land);
                    f(land);
                }
            }
        }
    }

    /// The holes the piece on `from` can reach in one move (see
    /// [`Checkers::for_each_destination`]); empty if `from` holds no piece.
    pub fn reachable(&self, from: u8) -> Holes {
        let mut reach = Holes::EMPTY;
        self.for_each_destination(from, |to| reach.set(to));
        reach
    }

    /// Calls `f(move)` for every legal move of player `p`: pieces in hole order,
    /// each piece's destinations in [`Checkers::for_each_destination`] order. No
    /// pass, and nothing when the game is over.
    pub fn for_each_move_of(&self, p: u8, mut f: impl FnMut(Move)) {
        if self.outcome().is_some() {
            return;
        }
        for &from in self.pieces_of(p) {
            self.for_each_destination(from, |to| f(Move { from, to }));
        }
    }

    /// Whether player `p` has at least one legal move (game over: false).
    pub fn has_move(&self, p: u8) -> bool {
        if self.outcome().is_some() {
            return false;
        }
        self.pieces_of(p).iter().any(|&from| {
            let mut any = false;
            self.for_each_destination(from, |_| any = true);
            any
        })
    }

    /// Plays `mv` for player `p` (whatever the turn), then gives the turn to `p + 1`.
    /// `mv` must be legal for `p`; an unknown `from` only advances the turn.
    pub fn make_as(&mut self, p: u8, mv: Move) {
        if mv != Move::PASS {
            self.relocate(p, mv.from, mv.to);
        }
        self.ply += 1;
        self.turn = (p + 1) % self.players;
    }

    /// Takes back `mv` played by player `p` with [`Checkers::make_as`]; the turn returns to `p`.
    pub fn unmake_as(&mut self, p: u8, mv: Move) {
        if mv != Move::PASS {
            self.relocate(p, mv.to, mv.from);
        }
        self.ply -= 1;
        self.turn = p;
    }

    /// Sets the side to move (the multi-player search plays the root player against
    /// every opponent, outside the turn order). Ignored if `p` is not a player.
    pub fn set_turn(&mut self, p: u8) {
        if p < self.players {
            self.turn = p;
        }
    }

    /// Moves player `p`'s piece from `from` to `to`, keeping its list sorted and
    /// the caches up to date.
    fn relocate(&mut self, p: u8, from: u8, to: u8) {
        let n = usize::from(self.per);
        let start = usize::from(p) * n;
        let Some(list) = self.pieces.get_mut(start..start + n) else {
            return;
        };
        let Some(mut i) = list.iter().position(|&h| h == from) else {
            return;
        };
        if usize::from(to) >= HOLES {
            return;
        }
        // Shift neighbours so the list stays sorted with `to` in place of `from`.
        while i > 0 && list[i - 1] > to {
            list[i] = list[i - 1];
            i -= 1;
        }
        while i + 1 < n && list[i + 1] < to {
            list[i] = list[i + 1];
            i += 1;
        }
        list[i] = to;
        self.occ.clear(from);
        self.occ.set(to);
        let goal = usize::from(self.goal(p));
        let area = self.goal_area(p);
        let d = &mut self.dist[usize::from(p)];
        *d = *d + u16::from(DIST[goal][usize::from(to)]) - u16::from(DIST[goal][usize::from(from)]);
        let g = &mut self.in_goal[usize::from(p)];
        *g = *g + u8::from(area.has(to)) - u8::from(area.has(from));
    }

    /// Whether player `p` has won: every hole of its goal area is occupied and at
    /// least one of them holds its own piece (pieces of others parked there cannot
    /// block it).
    pub fn has_won(&self, p: u8) -> bool {
        self.in_goal.get(usize::from(p)).is_some_and(|&g| g > 0)
            && self.occ.contains_all(&self.goal_area(p))
    }
}

/// Whether `players` players with `per` pieces each is a supported setup.
pub fn valid_setup(players: u8, per: u8) -> bool {
    matches!(players, 2 | 3 | 4 | 6) && (per == 10 || (per == 15 && players <= 3))
}

impl Game for Checkers {
    type Move = Move;
    type Undo = ();
    type Moves = heapless::Vec<Move, MAX_MOVES>;

    fn player_count(&self) -> u8 {
        self.players
    }

    fn player_to_move(&self) -> u8 {
        self.turn
    }

    /// Every legal move; a single [`Move::PASS`] if the side to move is blocked.
    fn generate(&self, moves: &mut Self::Moves) {
        moves.clear();
        if self.outcome().is_some() {
            return;
        }
        self.for_each_move_of(self.turn, |mv| {
            let _ = moves.push(mv);
        });
        if moves.is_empty() {
            let _ = moves.push(Move::PASS);
        }
    }

    fn make(&mut self, mv: Move) {
        self.make_as(self.turn, mv);
    }

    fn unmake(&mut self, mv: Move, _undo: ()) {
        let p = (self.turn + self.players - 1) % self.players;
        self.unmake_as(p, mv);
    }

    /// The first winner found, starting with the player who moved last and going
    /// on in turn order (a move can complete another player's goal); otherwise a
    /// draw once the move limit is reached.
    fn outcome(&self) -> Option<Outcome> {
        let n = self.players;
        let last = (self.turn + n - 1) % n;
        for i in 0..n {
            let p = (last + i) % n;
            if self.has_won(p) {
                return Some(Outcome::Win(p));
            }
        }
        if self.ply >= MOVE_LIMIT * u16::from(n) {
            return Some(Outcome::Draw);
        }
        None
    }

    fn evaluate(&self) -> Score {
        super::eval::evaluate(self, self.turn)
    }

    /// Longest advance toward the mover's goal first (stable: ties keep their order).
    fn order_moves(&self, moves: &mut [Move]) {
        let goal = usize::from(self.goal(self.turn));
        let key = |m: &Move| super::eval::gain(goal, *m);
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && key(&moves[j - 1]) < key(&moves[j]) {
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{HOLE_ROW, HOLE_X, hole_at, triangle_of};
    use super::*;
    use crate::engine::perft;

    fn h(r: i32, x: i32) -> u8 {
        let h = hole_at(r, x);
        assert_ne!(h, NONE, "no hole at ({r},{x})");
        h
    }

    /// Two players; player 0's ten pieces at `mine`, player 1's at `theirs` (padded
    /// with filler holes from the two lower side triangles, away from the action).
    fn custom(mine: &[u8], theirs: &[u8]) -> Checkers {
        let mut holes = [[0u8; 15]; 6];
        let mut free = (0..HOLES as u8).filter(|&h| {
            matches!(triangle_of(h.into()), Some(1 | 5))
                && !mine.contains(&h)
                && !theirs.contains(&h)
        });
        for (i, slot) in holes[0].iter_mut().take(10).enumerate() {
            *slot = mine.get(i).copied().unwrap_or_else(|| free.next().unwrap());
        }
        for (i, slot) in holes[1].iter_mut().take(10).enumerate() {
            *slot = theirs
                .get(i)
                .copied()
                .unwrap_or_else(|| free.next().unwrap());
        }
        Checkers::from_holes(2, 10, 0, 0, &holes).expect("valid position")
    }

    #[test]
    fn start_positions() {
        for (n, per) in [(2, 10), (3, 10), (4, 10), (6, 10), (2, 15), (3, 15)] {
            let pos = Checkers::start(n, per).unwrap();
            assert_eq!(pos.occupied().count(), u32::from(n) * u32::from(per));
            assert_eq!(pos.outcome(), None);
            for p in 0..n {
                assert_eq!(pos.pieces_of(p).len(), usize::from(per));
                assert_eq!(pos.in_goal[usize::from(p)], 0, "{n} players, {per}");
            }
        }
        assert!(Checkers::start(5, 10).is_none());
        assert!(Checkers::start(4, 15).is_none());
        assert!(Checkers::start(2, 12).is_none());
        let two = Checkers::start(2, 10).unwrap();
        assert_eq!(
            two.pieces_of(0),
            &[111, 112, 113, 114, 115, 116, 117, 118, 119, 120]
        );
        assert_eq!(two.pieces_of(1), &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(two.distance(0), 16 + 15 * 2 + 14 * 3 + 13 * 4);
    }

    #[test]
    fn steps_and_jumps() {
        // A lone piece in the centre with nothing around: six steps, no jumps.
        let c = h(8, 12);
        let pos = custom(&[c], &[]);
        let r = pos.reachable(c);
        assert_eq!(r.count(), 6);
        for &n in &NEIGHBOURS[usize::from(c)] {
            assert!(r.has(n));
        }
        // One piece east of it: step east is gone, a jump lands two holes east.
        let pos = custom(&[c, h(8, 14)], &[]);
        let r = pos.reachable(c);
        assert!(!r.has(h(8, 14)) && r.has(h(8, 16)));
        assert_eq!(r.count(), 6);
        // Jumping an opponent's piece works too, and no capture happens.
        let pos = custom(&[c], &[h(8, 14)]);
        assert!(pos.reachable(c).has(h(8, 16)));
        // Blocked landing: no jump.
        let pos = custom(&[c, h(8, 14)], &[h(8, 16)]);
        assert!(!pos.reachable(c).has(h(8, 16)));
    }

    #[test]
    fn chained_jumps_without_revisits() {
        let c = h(8, 12);
        // Hurdles east, then north-east of the landing, then west of that landing.
        let hurdles = [h(8, 14), h(7, 17), h(6, 16)];
        let pos = custom(&[c, hurdles[0], hurdles[1]], &[hurdles[2]]);
        let r = pos.reachable(c);
        assert!(r.has(h(8, 16)), "first jump");
        assert!(r.has(h(6, 18)), "second jump");
        assert!(r.has(h(6, 14)), "third jump");
        // A chain may also stop in the middle (first landing is a destination).
        let mut moves = <Checkers as Game>::Moves::new();
        pos.generate(&mut moves);
        assert!(moves.contains(&Move {
            from: c,
            to: h(8, 16)
        }));
        // No destination twice, never the origin.
        let to_c: Vec<_> = moves.iter().filter(|m| m.from == c).map(|m| m.to).collect();
        let mut dedup = to_c.clone();
        dedup.dedup();
        assert_eq!(to_c, dedup);
        assert!(!to_c.contains(&c));
    }

    #[test]
    fn make_unmake_round_trip_and_sorting() {
        let mut pos = Checkers::start(2, 10).unwrap();
        let before = pos.clone();
        let mv = Move { from: 111, to: 103 };
        assert!(pos.reachable(111).has(103));
        pos.make(mv);
        assert_eq!(pos.turn(), 1);
        assert!(pos.pieces_of(0).is_sorted());
        assert_eq!(pos.pieces_of(0)[0], 103);
        pos.unmake(mv, ());
        assert_eq!(pos, before);
    }

    #[test]
    fn win_needs_a_full_goal_with_one_own_piece() {
        // Player 0's goal is the top triangle, holes 0..=9.
        let goal: Vec<u8> = (0..10).collect();
        // Nine own pieces in the goal plus the tenth outside, one goal hole empty.
        let mut mine: Vec<u8> = (1..10).collect();
        mine.push(h(4, 12));
        let pos = custom(&mine, &[h(16, 12)]);
        assert_eq!(pos.outcome(), None);
        assert!(pos.reachable(h(4, 12)).count() > 0);
        // Filling the last hole (0) wins.
        let mut pos = custom(&goal, &[h(16, 12)]);
        pos.turn = 1;
        assert_eq!(pos.outcome(), Some(Outcome::Win(0)));
        // An opponent parked in the goal does not block: 9 own + 1 theirs wins.
        let mut pos = custom(&(1..10).collect::<Vec<_>>(), &[0]);
        pos.turn = 1;
        assert_eq!(pos.outcome(), Some(Outcome::Win(0)));
        // But a goal filled only by the opponent is no win for player 0.
        let pos = custom(&[h(16, 12)], &goal);
        assert!(!pos.has_won(0));
        // A winning position generates no moves.
        let mut moves = <Checkers as Game>::Moves::new();
        custom(&goal, &[h(16, 12)]).generate(&mut moves);
        assert!(moves.is_empty());
    }

    #[test]
    fn move_limit_draw_and_pass() {
        let mut pos = Checkers::start(2, 10).unwrap();
        pos.ply = MOVE_LIMIT * 2;
        assert_eq!(pos.outcome(), Some(Outcome::Draw));
        // Three players: player 0 fills its home (the bottom triangle) and the two
        // others wall it in on rows 11 and 12, so it must pass.
        let wall: Vec<u8> = (8..=16)
            .step_by(2)
            .map(|x| h(12, x))
            .chain((7..=17).step_by(2).map(|x| h(11, x)))
            .collect();
        let mut others = wall.into_iter().chain((0..10).map(|i| i as u8));
        let mut holes = [[0u8; 15]; 6];
        for (i, slot) in holes[0].iter_mut().take(10).enumerate() {
            *slot = 111 + i as u8;
        }
        for list in holes.iter_mut().take(3).skip(1) {
            for slot in list.iter_mut().take(10) {
                *slot = others.next().unwrap();
            }
        }
        let mut pos = Checkers::from_holes(3, 10, 0, 0, &holes).unwrap();
        let mut moves = <Checkers as Game>::Moves::new();
        pos.generate(&mut moves);
        assert_eq!(moves.as_slice(), &[Move::PASS]);
        pos.make(Move::PASS);
        assert_eq!(pos.turn(), 1);
        pos.unmake(Move::PASS, ());
        assert_eq!(pos.turn(), 0);
        assert!(!pos.has_move(0) && pos.has_move(1));
    }

    /// Independent reference: jump chains found by recursive search on raw
    /// coordinates, with a `std` set of visited holes.
    fn brute_moves(pos: &Checkers) -> Vec<(u8, u8)> {
        use std::collections::BTreeSet;
        let occupied = |r: i32, x: i32, from: u8| {
            let h = hole_at(r, x);
            h != NONE && h != from && pos.occupied().has(h)
        };
        let on_board = |r: i32, x: i32| hole_at(r, x) != NONE;
        fn chain(
            r: i32,
            x: i32,
            from: u8,
            seen: &mut BTreeSet<(i32, i32)>,
            occupied: &dyn Fn(i32, i32, u8) -> bool,
            on_board: &dyn Fn(i32, i32) -> bool,
        ) {
            for (dr, dx) in [(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let (lr, lx) = (r + 2 * dr, x + 2 * dx);
                if occupied(r + dr, x + dx, from)
                    && on_board(lr, lx)
                    && !occupied(lr, lx, from)
                    && seen.insert((lr, lx))
                {
                    chain(lr, lx, from, seen, occupied, on_board);
                }
            }
        }
        let mut out = Vec::new();
        if pos.outcome().is_some() {
            return out;
        }
        for &from in pos.pieces_of(pos.turn()) {
            let (r, x) = (
                i32::from(HOLE_ROW[usize::from(from)]),
                i32::from(HOLE_X[usize::from(from)]),
            );
            let mut dest = BTreeSet::new();
            for (dr, dx) in [(0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
                if on_board(r + dr, x + dx) && !occupied(r + dr, x + dx, from) {
                    dest.insert(hole_at(r + dr, x + dx));
                }
            }
            let mut seen = BTreeSet::from([(r, x)]);
            chain(r, x, from, &mut seen, &occupied, &on_board);
            seen.remove(&(r, x));
            dest.extend(seen.iter().map(|&(r, x)| hole_at(r, x)));
            out.extend(dest.into_iter().map(|to| (from, to)));
        }
        if out.is_empty() {
            out.push((NONE, NONE));
        }
        out
    }

    fn brute_perft(pos: &mut Checkers, depth: u8) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = brute_moves(pos);
        let mut n = 0;
        for (from, to) in moves {
            let mv = Move { from, to };
            pos.make(mv);
            n += brute_perft(pos, depth - 1);
            pos.unmake(mv, ());
        }
        n
    }

    #[test]
    fn perft_two_player_start() {
        let mut pos = Checkers::start(2, 10).unwrap();
        let counts: Vec<u64> = (1..=3).map(|d| perft(&mut pos, d)).collect();
        let brute: Vec<u64> = (1..=3).map(|d| brute_perft(&mut pos, d)).collect();
        assert_eq!(counts, brute);
        assert_eq!(counts, PERFT_2P);
    }

    /// Reference counts for the two-player start position, depths 1..=3.
    const PERFT_2P: [u64; 3] = [14, 196, 4760];

    #[test]
    fn generator_matches_brute_force_on_random_games() {
        let mut seed = 0x1234_5678_9abc_def0u64;
        for (n, per) in [(2, 10), (3, 15), (6, 10), (4, 10)] {
            let mut pos = Checkers::start(n, per).unwrap();
            for _ in 0..80 {
                let mut moves = <Checkers as Game>::Moves::new();
                pos.generate(&mut moves);
                let mut got: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
                got.sort_unstable();
                assert_eq!(got, brute_moves(&pos));
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.make(moves[(seed % moves.len() as u64) as usize]);
            }
        }
    }

    #[test]
    fn order_moves_puts_long_advances_first() {
        let pos = Checkers::start(2, 10).unwrap();
        let mut moves = <Checkers as Game>::Moves::new();
        pos.generate(&mut moves);
        pos.order_moves(&mut moves);
        let gains: Vec<i8> = moves
            .iter()
            .map(|&m| super::super::eval::gain(3, m))
            .collect();
        assert!(gains.is_sorted_by(|a, b| a >= b), "{gains:?}");
        assert_eq!(gains[0], 2, "a jump first");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]
        #[test]
        fn make_unmake_restores_and_caches_match(
            setup in 0usize..6,
            picks in proptest::collection::vec(0usize..1000, 0..60),
        ) {
            let (n, per) = [(2, 10), (3, 10), (4, 10), (6, 10), (2, 15), (3, 15)][setup];
            let mut pos = Checkers::start(n, per).unwrap();
            let mut played = Vec::new();
            let mut history = vec![pos.clone()];
            for pick in picks {
                let mut moves = <Checkers as Game>::Moves::new();
                pos.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[pick % moves.len()];
                pos.make(mv);
                // Incremental caches equal the ones rebuilt from the piece table.
                let mut fresh = pos.clone();
                fresh.refresh();
                let mut occ = Holes::EMPTY;
                for p in 0..n {
                    proptest::prop_assert!(pos.pieces_of(p).is_sorted());
                    for &h in pos.pieces_of(p) {
                        occ.set(h);
                    }
                }
                proptest::prop_assert_eq!(occ, pos.occupied());
                proptest::prop_assert_eq!(&fresh, &pos);
                played.push(mv);
                history.push(pos.clone());
            }
            while let Some(mv) = played.pop() {
                history.pop();
                pos.unmake(mv, ());
                proptest::prop_assert_eq!(Some(&pos), history.last());
            }
            proptest::prop_assert_eq!(pos, Checkers::start(n, per).unwrap());
        }
    }

    #[test]
    fn move_list_capacity_is_a_safe_bound() {
        // Jump landings stay in the start hole's coset (both axial coordinates
        // change by even steps), so a piece reaches at most 6 + (coset size - 1) holes.
        let mut worst = 0;
        for a in 0..HOLES {
            let (ra, xa) = (i32::from(HOLE_ROW[a]), i32::from(HOLE_X[a]));
            let coset = (0..HOLES)
                .filter(|&b| {
                    let (rb, xb) = (i32::from(HOLE_ROW[b]), i32::from(HOLE_X[b]));
                    // axial q = (x - r) / 2 and r, both of the same parity
                    (rb - ra) % 2 == 0 && ((xb - rb) / 2 - (xa - ra) / 2) % 2 == 0
                })
                .count();
            worst = worst.max(coset);
        }
        assert!(15 * (6 + worst - 1) <= MAX_MOVES, "worst coset {worst}");
    }
}
