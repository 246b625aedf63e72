//! EinStein würfelt nicht! under the referee: the referee owns the dice.
//!
//! - **Dice.** Before every turn the referee rolls the pair's seeded die (see
//!   [`super::seeds::dice`]) and sends the position with `roll=`, so no engine ever
//!   rolls and a game is the same for every engine kind (host, simulated board, real
//!   board). Both games of a pair use the same sequence of rolls: the k-th roll of
//!   game 2 equals the k-th roll of game 1, so the engine that had red's rolls in
//!   game 1 has blue's in game 2 and the dice's luck is shared out evenly. Once the
//!   two games' moves differ the same rolls meet different positions; the pairing
//!   still cancels the luck of the first turns, which is where it weighs most.
//! - **Setups** are engine decisions: each engine is asked for its setup (red from
//!   `start`, blue from the half-set-up position) with its own per-game `seed=`.
//! - No random opening plies: the dice and the seeded setups vary the games.
//! - Length is counted in cube steps (rolls and setups are not plies). Every step moves
//!   a cube toward its goal corner, so a game cannot last more than 6 × 4 + 6 × 4
//!   steps and needs no ply cap. EinStein has no draws.

use sente_firmware::games::einstein::{Einstein, Move, SplitMix64};

use super::referee::Referee;

impl Referee for Einstein {
    const PLAYERS: [&'static str; 2] = ["red", "blue"];
    const OPENING_PLIES: (usize, usize) = (0, 0);

    fn new_game(_variant: &str) -> Self {
        Einstein::start()
    }

    /// The die roll of a side that has set up and not rolled yet.
    fn chance(&self, dice: &mut SplitMix64) -> Option<Move> {
        (!self.in_setup() && self.roll().is_none() && self.winner().is_none())
            .then(|| Move::Roll(dice.die()))
    }

    fn counts(mv: &Move) -> bool {
        matches!(mv, Move::Step { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente_firmware::game::Game;
    use sente_firmware::games::einstein::Arrangement;

    #[test]
    fn the_referee_rolls_only_after_both_setups_and_before_each_step() {
        let mut dice = SplitMix64::new(3);
        let start = Einstein::start();
        assert_eq!(start.chance(&mut dice), None);
        let mut half = start;
        half.make(Move::Setup(Arrangement([1, 2, 3, 4, 5, 6])));
        assert_eq!(half.chance(&mut dice), None);
        let set = Einstein::from_setups(
            Arrangement([1, 2, 3, 4, 5, 6]),
            Arrangement([1, 2, 3, 4, 5, 6]),
            0,
        );
        let mut same = SplitMix64::new(3);
        let roll = set.chance(&mut dice);
        assert!(matches!(roll, Some(Move::Roll(1..=6))));
        // The same stream gives the same roll.
        assert_eq!(set.chance(&mut same), roll);
        let mut rolled = set;
        rolled.set_roll(4);
        assert_eq!(rolled.chance(&mut dice), None);
        assert!(Einstein::counts(&Move::Step { cube: 1, to: 6 }));
        assert!(!Einstein::counts(&Move::Roll(3)));
        assert!(!Einstein::counts(&Move::Setup(Arrangement([
            1, 2, 3, 4, 5, 6
        ]))));
    }
}
