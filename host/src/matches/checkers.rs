//! Chinese checkers under the referee: two players, 10 pieces each.
//!
//! - **Openings.** The engines are deterministic (they ignore `seed=`), so each pair
//!   of games starts with 2–4 seeded random plies, never the same opening twice in a
//!   match; the second game of the pair replays them with colours swapped.
//! - **Ply cap and adjudication.** A game without a winner after the cap (default
//!   300 plies, the rules' own limit of 150 moves per player; `--max-plies` changes
//!   it) is adjudicated on progress: the player whose pieces have the smaller total
//!   distance to its goal corner (rows, summed over its pieces: 20 when its goal is
//!   full) wins; equal distances are a draw. Without the cap the rules would call
//!   every such game a draw, however far ahead one side is.

use sente_firmware::game::Outcome;
use sente_firmware::games::checkers::Checkers;

use super::referee::Referee;

impl Referee for Checkers {
    const PLAYERS: [&'static str; 2] = ["player 1", "player 2"];
    const DEFAULT_MAX_PLIES: usize =
        2 * sente_firmware::games::checkers::rules::MOVE_LIMIT as usize;
    const OPENING_PLIES: (usize, usize) = (2, 4);

    fn new_game(_variant: &str) -> Self {
        Checkers::start(2, 10).expect("two players with ten pieces each is a valid setup")
    }

    fn adjudicate(&self) -> (Outcome, String) {
        let (a, b) = (self.distance(0), self.distance(1));
        let outcome = match a.cmp(&b) {
            std::cmp::Ordering::Less => Outcome::Win(0),
            std::cmp::Ordering::Greater => Outcome::Win(1),
            std::cmp::Ordering::Equal => Outcome::Draw,
        };
        let verdict = match outcome {
            Outcome::Win(p) => format!("{} wins", Self::PLAYERS[usize::from(p)]),
            Outcome::Draw => "draw".into(),
        };
        (
            outcome,
            format!("{verdict} (adjudicated at the ply cap: distance to goal {a} against {b})"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sente_firmware::game::{Game, Notation};

    /// The position after the side to move (`turn`) plays its longest advance.
    fn advanced(turn: u8) -> Checkers {
        let mut pos = <Checkers as Referee>::new_game("checkers");
        pos.set_turn(turn);
        let mut moves = <Checkers as Game>::Moves::default();
        pos.generate(&mut moves);
        pos.order_moves(&mut moves);
        pos.make(moves[0]);
        pos
    }

    #[test]
    fn adjudication_favours_the_side_nearer_its_goal() {
        let (o, why) = <Checkers as Referee>::new_game("checkers").adjudicate();
        assert_eq!(o, Outcome::Draw, "{why}");
        assert!(why.starts_with("draw (adjudicated"), "{why}");
        let first = advanced(0);
        assert!(first.distance(0) < first.distance(1));
        let (o, why) = first.adjudicate();
        assert_eq!(o, Outcome::Win(0), "{why}");
        assert!(why.starts_with("player 1 wins"), "{why}");
        let second = advanced(1);
        let (o, why) = second.adjudicate();
        assert_eq!(o, Outcome::Win(1), "{why}");
        assert!(why.starts_with("player 2 wins"), "{why}");
        let mut text = String::new();
        first.write_position(&mut text).unwrap();
        assert!(
            text.starts_with("players=2 pieces=10 turn=1 ply=1 "),
            "{text}"
        );
    }
}
