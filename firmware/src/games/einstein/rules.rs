//! The rules: which cubes a roll lets move, move generation, make/unmake, game end.

use super::board::{Einstein, GOAL, Move, OFF, SQUARES, Square, Undo, code, decode, steps};
use crate::game::{Game, Outcome, Score};

/// Move buffer: at most two cubes with three steps each, or the six rolls.
pub type Moves = heapless::Vec<Move, 6>;

/// Die faces grouped by the cubes they let move: `(cube mask, faces)`, at most six groups.
pub type ChanceGroups = heapless::Vec<(u8, u8), 6>;

/// Cubes a roll lets move, given the cubes present (bit `i` = cube `i + 1`): the
/// rolled cube if present, else the next higher and the next lower present cube.
const fn movable(present: u8, roll: u8) -> u8 {
    if roll < 1 || roll > 6 || present == 0 {
        return 0;
    }
    let bit = 1u8 << (roll - 1);
    if present & bit != 0 {
        return bit;
    }
    let higher = present & !(bit | (bit - 1));
    let lower = present & (bit - 1);
    let mut mask = 0;
    if higher != 0 {
        mask |= higher & higher.wrapping_neg(); // lowest present cube above
    }
    if lower != 0 {
        mask |= 1 << (7 - lower.leading_zeros()); // highest present cube below
    }
    mask
}

/// [`movable`] for every present mask (64) and roll 1–6 (index `roll - 1`): 384 bytes of flash.
pub(super) const MOVABLE: [[u8; 6]; 64] = {
    let mut t = [[0u8; 6]; 64];
    let mut p = 0;
    while p < 64 {
        let mut r = 0;
        while r < 6 {
            t[p][r] = movable(p as u8, r as u8 + 1);
            r += 1;
        }
        p += 1;
    }
    t
};

impl Einstein {
    /// The cubes `side` may move on `roll` as a bit mask (bit `i` = cube `i + 1`):
    /// the rolled cube if present, else the next higher and the next lower present cube.
    pub fn movable_mask(&self, side: u8, roll: u8) -> u8 {
        match roll {
            1..=6 => MOVABLE[usize::from(self.present_mask(side))][usize::from(roll - 1)],
            _ => 0,
        }
    }

    /// Cube numbers (ascending) the side to move may move on `roll`.
    pub fn movable_cubes(&self, roll: u8) -> heapless::Vec<u8, 2> {
        let mask = self.movable_mask(self.side, roll);
        let mut out = heapless::Vec::new();
        for cube in 1..=6u8 {
            if mask & (1 << (cube - 1)) != 0 {
                let _ = out.push(cube);
            }
        }
        out
    }

    /// Squares cube `cube` of the side to move may step to (empty if it is off the board).
    pub fn targets(&self, cube: u8) -> heapless::Vec<Square, 3> {
        let mut out = heapless::Vec::new();
        if let Some(from) = self.square_of(self.side, cube) {
            let (to, n) = steps(self.side, from);
            for &t in &to[..n] {
                let _ = out.push(t);
            }
        }
        out
    }

    /// Bit mask of `side`'s cubes on the board (bit `i` = cube `i + 1`).
    pub fn present_mask(&self, side: u8) -> u8 {
        let mut mask = 0;
        for (i, &sq) in self.at[usize::from(side & 1)].iter().enumerate() {
            if sq != OFF {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// The six die faces of the side to move grouped by the cube set they let move,
    /// in order of first face.
    pub fn chance_groups(&self) -> ChanceGroups {
        let mut groups = ChanceGroups::new();
        for &mask in &MOVABLE[usize::from(self.present_mask(self.side))] {
            if let Some(g) = groups.iter_mut().find(|g| g.0 == mask) {
                g.1 += 1;
            } else {
                let _ = groups.push((mask, 1));
            }
        }
        groups
    }

    /// Appends the steps of the side to move's cubes in `mask` to `moves`.
    pub fn push_steps<const N: usize>(&self, mask: u8, moves: &mut heapless::Vec<Move, N>) {
        let side = usize::from(self.side);
        for (i, &from) in self.at[side].iter().enumerate() {
            if mask & (1 << i) == 0 || from == OFF {
                continue;
            }
            let (to, n) = steps(self.side, from);
            for &t in &to[..n] {
                let _ = moves.push(Move::Step {
                    cube: i as u8 + 1,
                    to: t,
                });
            }
        }
    }

    /// `true` if the side to move wins at once by playing step `cube` to `to`.
    pub fn step_wins(&self, to: Square) -> bool {
        let them = 1 - self.side;
        to == GOAL[usize::from(self.side)]
            || (self.cube_count(them) == 1
                && matches!(decode(self.board[usize::from(to)]), Some((s, _)) if s == them))
    }

    /// `true` if `side` has reached its goal corner or the other side (having set up)
    /// has no cube left.
    pub fn has_won(&self, side: u8) -> bool {
        let side = side & 1;
        let goal = GOAL[usize::from(side)];
        let reached = matches!(decode(self.board[usize::from(goal)]), Some((s, _)) if s == side);
        let other = 1 - side;
        reached || (self.placed[usize::from(other)] && self.present_mask(other) == 0)
    }

    /// The winner, if any (see [`Einstein::has_won`]).
    pub fn winner(&self) -> Option<u8> {
        [0, 1].into_iter().find(|&s| self.has_won(s))
    }

    /// Plays a step for the side to move (the cube must be on the board).
    /// An illegal step (cube off the board, target off the board) only passes the
    /// turn, so a bad move from a caller cannot panic or corrupt the position.
    pub(super) fn make_step(&mut self, cube: u8, to: Square) -> Undo {
        let s = usize::from(self.side);
        let cube = cube.clamp(1, 6);
        let c = usize::from(cube - 1);
        let from = self.at[s][c];
        let mut undo = Undo {
            from: OFF,
            captured: 0,
            roll: self.roll,
        };
        if from == OFF || to >= SQUARES {
            self.roll = 0;
            self.side ^= 1;
            return undo;
        }
        let captured = self.board[usize::from(to)];
        if let Some((cs, cc)) = decode(captured) {
            self.at[usize::from(cs)][usize::from(cc - 1)] = OFF;
        }
        self.board[usize::from(from)] = 0;
        self.board[usize::from(to)] = code(self.side, cube);
        self.at[s][c] = to;
        undo.from = from;
        undo.captured = captured;
        self.roll = 0;
        self.side ^= 1;
        undo
    }

    /// Takes back [`Einstein::make_step`].
    pub(super) fn unmake_step(&mut self, cube: u8, to: Square, undo: Undo) {
        self.side ^= 1;
        self.roll = undo.roll;
        if undo.from == OFF {
            return;
        }
        let s = usize::from(self.side);
        let cube = cube.clamp(1, 6);
        self.board[usize::from(undo.from)] = code(self.side, cube);
        self.at[s][usize::from(cube - 1)] = undo.from;
        self.board[usize::from(to)] = undo.captured;
        if let Some((cs, cc)) = decode(undo.captured) {
            self.at[usize::from(cs)][usize::from(cc - 1)] = to;
        }
    }
}

impl Game for Einstein {
    type Move = Move;
    type Undo = Undo;
    type Moves = Moves;

    fn player_to_move(&self) -> u8 {
        self.side
    }

    /// Every legal move, except in the setup phase: there the 720 [`Move::Setup`]s do not
    /// fit a move buffer on the board, so the list is empty and callers check
    /// [`Einstein::in_setup`] (the setups are [`Arrangement::nth`](super::board::Arrangement::nth) for 0–719).
    fn generate(&self, moves: &mut Moves) {
        moves.clear();
        if self.in_setup() || self.winner().is_some() {
            return;
        }
        if self.roll == 0 {
            for r in 1..=6 {
                let _ = moves.push(Move::Roll(r));
            }
        } else {
            self.push_steps(self.movable_mask(self.side, self.roll), moves);
        }
    }

    fn make(&mut self, mv: Move) -> Undo {
        match mv {
            Move::Step { cube, to } => self.make_step(cube, to),
            Move::Roll(r) => {
                let undo = Undo {
                    from: OFF,
                    captured: 0,
                    roll: self.roll,
                };
                self.set_roll(r);
                undo
            }
            Move::Setup(arr) => {
                let undo = Undo {
                    from: OFF,
                    captured: 0,
                    roll: self.roll,
                };
                self.place(self.side, arr);
                self.roll = 0;
                self.side ^= 1;
                undo
            }
        }
    }

    fn unmake(&mut self, mv: Move, undo: Undo) {
        match mv {
            Move::Step { cube, to } => self.unmake_step(cube, to, undo),
            Move::Roll(_) => self.roll = undo.roll,
            Move::Setup(_) => {
                self.side ^= 1;
                self.unplace(self.side);
                self.roll = undo.roll;
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner().map(Outcome::Win)
    }

    /// The strong level's evaluation (see [`super::eval`]), −999..999 for the side to move.
    fn evaluate(&self) -> Score {
        super::eval::evaluate(self)
    }

    /// Winning steps first, then captures of enemy cubes, then the rest.
    fn order_moves(&self, moves: &mut [Move]) {
        let rank = |m: &Move| match *m {
            Move::Step { to, .. } => {
                if self.step_wins(to) {
                    0
                } else {
                    match decode(self.board[usize::from(to)]) {
                        Some((s, _)) if s != self.side => 1,
                        Some(_) => 3,
                        None => 2,
                    }
                }
            }
            _ => 0,
        };
        // insertion sort: stable, no allocation, at most six moves
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && rank(&moves[j - 1]) > rank(&moves[j]) {
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::{Arrangement, BLUE, RED, TRIANGLE};
    use super::*;
    use crate::game::Notation;

    fn pos(text: &str) -> Einstein {
        Einstein::parse_position(text).unwrap()
    }

    fn moves_of(p: &Einstein) -> heapless::Vec<Move, 6> {
        let mut m = Moves::new();
        p.generate(&mut m);
        m
    }

    fn step(cube: u8, to: &str) -> Move {
        Move::Step {
            cube,
            to: super::super::board::parse_square(to).unwrap(),
        }
    }

    #[test]
    fn rolled_cube_moves_in_three_directions() {
        let p = Einstein::from_setups(
            Arrangement([1, 2, 3, 4, 5, 6]),
            Arrangement([1, 2, 3, 4, 5, 6]),
            5,
        );
        // red cube 5 on b4: c3 (diagonal), c4 (right), b3 (down)
        let m = moves_of(&p);
        assert_eq!(m.as_slice(), &[step(5, "c3"), step(5, "c4"), step(5, "b3")]);
        let mut p = p;
        p.make(step(5, "c3"));
        p.set_roll(5);
        // blue cube 5 on d2: c3 (capture, diagonal), c2 (left), d3 (up)
        assert_eq!(
            moves_of(&p).as_slice(),
            &[step(5, "c3"), step(5, "c2"), step(5, "d3")]
        );
    }

    #[test]
    fn edge_cubes_have_fewer_steps() {
        let p = pos("r:e3=1,a1=2 b:a3=1,e5=2 turn=r roll=1");
        assert_eq!(moves_of(&p).as_slice(), &[step(1, "e2")]);
        let p = pos("r:e3=1,a1=2 b:a3=1,e5=2 turn=r roll=2");
        assert_eq!(moves_of(&p).as_slice(), &[step(2, "b1")]);
        let p = pos("r:e3=1,a1=2 b:a3=1,e5=2 turn=b roll=1");
        assert_eq!(moves_of(&p).as_slice(), &[step(1, "a4")]);
        let p = pos("r:e3=1,a1=2 b:a3=1,e5=2 turn=b roll=2");
        assert_eq!(moves_of(&p).as_slice(), &[step(2, "d5")]);
    }

    #[test]
    fn missing_cube_gives_next_higher_and_next_lower() {
        let p = pos("r:a5=1,c5=4,a3=6 b:e1=2 turn=r roll=2");
        assert_eq!(p.movable_cubes(2).as_slice(), &[1, 4]);
        assert_eq!(p.movable_cubes(3).as_slice(), &[1, 4]);
        assert_eq!(p.movable_cubes(5).as_slice(), &[4, 6]);
        assert_eq!(p.movable_cubes(6).as_slice(), &[6]);
        let m = moves_of(&p);
        assert_eq!(m.len(), 6, "both cubes, three steps each: {m:?}");
        // only a higher cube, only a lower cube
        let p = pos("r:c3=3 b:e1=2,d1=5 turn=b roll=1");
        assert_eq!(p.movable_cubes(1).as_slice(), &[2]);
        assert_eq!(p.movable_cubes(6).as_slice(), &[5]);
        assert_eq!(p.movable_cubes(3).as_slice(), &[2, 5]);
        let groups = p.chance_groups();
        assert_eq!(
            groups.as_slice(),
            &[(0b00010, 2), (0b10010, 2), (0b10000, 2)]
        );
    }

    #[test]
    fn own_and_enemy_cubes_are_captured() {
        let mut p = pos("r:b4=1,c3=2 b:d2=1,c4=3 turn=r roll=1");
        let undo = p.make(step(1, "c3"));
        assert_eq!(p.square_of(RED, 2), None, "own cube 2 removed");
        assert_eq!(p.cube_at(12), Some((RED, 1)));
        p.unmake(step(1, "c3"), undo);
        assert_eq!(p, pos("r:b4=1,c3=2 b:d2=1,c4=3 turn=r roll=1"));
        let before = p;
        let undo = p.make(step(1, "c4"));
        assert_eq!(p.square_of(BLUE, 3), None, "blue cube 3 removed");
        assert_eq!(p.cube_count(BLUE), 1);
        assert_eq!(p.side_to_move(), BLUE);
        assert_eq!(p.roll(), None);
        p.unmake(step(1, "c4"), undo);
        assert_eq!(p, before);
    }

    #[test]
    fn reaching_the_corner_wins() {
        let mut p = pos("r:d2=3 b:b4=1,a4=2 turn=r roll=3");
        assert!(p.step_wins(24));
        p.make(step(3, "e1"));
        assert_eq!(p.outcome(), Some(Outcome::Win(RED)));
        assert!(moves_of(&p).is_empty());
        let mut p = pos("r:d2=3 b:b4=1,a4=2 turn=b roll=2");
        p.make(step(2, "a5"));
        assert_eq!(p.outcome(), Some(Outcome::Win(BLUE)));
    }

    #[test]
    fn removing_every_enemy_cube_wins() {
        let mut p = pos("r:c3=4,a5=1 b:d2=6 turn=r roll=4");
        assert!(p.step_wins(18));
        p.make(step(4, "d2"));
        assert_eq!(p.outcome(), Some(Outcome::Win(RED)));
        // losing your own last cube is impossible (a cube never captures itself), but
        // capturing your own other cube is allowed and does not end the game
        let mut p = pos("r:c3=4,d2=1 b:b5=6,c5=2 turn=r roll=4");
        p.make(step(4, "d2"));
        assert_eq!(p.outcome(), None);
        assert_eq!(p.cube_count(RED), 1);
    }

    #[test]
    fn rolls_and_setups_are_moves() {
        let mut p = Einstein::start();
        assert!(p.in_setup());
        assert!(moves_of(&p).is_empty());
        let u1 = p.make(Move::Setup(Arrangement([6, 1, 5, 2, 4, 3])));
        assert_eq!(p.cube_at(TRIANGLE[0][0]), Some((RED, 6)));
        assert_eq!(p.side_to_move(), BLUE);
        assert!(p.in_setup());
        let u2 = p.make(Move::Setup(Arrangement([1, 2, 3, 4, 5, 6])));
        assert!(!p.in_setup());
        assert_eq!(p.side_to_move(), RED);
        let m = moves_of(&p);
        assert_eq!(m.len(), 6);
        assert_eq!(m[2], Move::Roll(3));
        let u3 = p.make(Move::Roll(3));
        assert_eq!(p.roll(), Some(3));
        p.unmake(Move::Roll(3), u3);
        assert_eq!(p.roll(), None);
        p.unmake(Move::Setup(Arrangement([1, 2, 3, 4, 5, 6])), u2);
        p.unmake(Move::Setup(Arrangement([6, 1, 5, 2, 4, 3])), u1);
        assert_eq!(p, Einstein::start());
    }

    #[test]
    fn illegal_steps_only_pass_the_turn() {
        let start = pos("r:b4=1 b:d2=1 turn=r roll=1");
        for bad in [
            Move::Step { cube: 3, to: 7 },
            Move::Step { cube: 1, to: 99 },
        ] {
            let mut p = start;
            let undo = p.make(bad);
            assert_eq!(p.side_to_move(), BLUE);
            assert_eq!(p.cube_at(6), Some((RED, 1)));
            p.unmake(bad, undo);
            assert_eq!(p, start);
        }
    }

    fn random_play(picks: &[u32]) {
        let mut rng = super::super::rng::SplitMix64::new(u64::from(picks.len() as u32));
        let mut p = Einstein::start();
        let mut stack: heapless::Vec<(Einstein, Move, Undo), 128> = heapless::Vec::new();
        for &pick in picks {
            let mv = if p.in_setup() {
                Move::Setup(Arrangement::nth((pick % 720) as u16))
            } else {
                let m = moves_of(&p);
                if m.is_empty() {
                    break;
                }
                m[(pick % m.len() as u32) as usize]
            };
            let before = p;
            let undo = p.make(mv);
            if stack.push((before, mv, undo)).is_err() {
                break;
            }
            let _ = rng.next_u64();
        }
        while let Some((before, mv, undo)) = stack.pop() {
            p.unmake(mv, undo);
            assert_eq!(p, before);
        }
        assert_eq!(p, Einstein::start());
    }

    proptest::proptest! {
        #[test]
        fn make_unmake_restores(picks in proptest::collection::vec(0u32..100_000, 0..120)) {
            random_play(&picks);
        }
    }
}
