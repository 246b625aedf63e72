//! Evaluations: the strong level's probability-weighted race estimate, and the
//! seed's simple "value of the cubes left".

use super::board::{Einstein, OFF, distance};
use super::rules::MOVABLE;
use crate::game::Score;

/// Score of a won game in the strong search; evaluations stay strictly inside ±`WIN`.
pub const WIN: Score = 1000;

/// Race value of a cube by its distance to the goal (index 1–4), per die face that moves it.
const RACE: [i32; 5] = [0, 64, 20, 7, 2];
/// Value of having a cube at all (fewer cubes: easier to wipe out, fewer choices).
const CUBE: i32 = 6;
/// The side to move rolls next: its race value counts this many eighths.
const TEMPO_EIGHTHS: i32 = 10;
/// Squash constant: a raw lead of `SQUASH` maps to half of [`WIN`].
const SQUASH: i32 = 160;

/// How many die faces (of six) let each cube of `side` move (index cube − 1). A face
/// whose cube is gone counts for both the next higher and the next lower cube.
pub fn coverage(pos: &Einstein, side: u8) -> [u8; 6] {
    let mut c = [0u8; 6];
    for &mask in &MOVABLE[usize::from(pos.present_mask(side))] {
        for (i, slot) in c.iter_mut().enumerate() {
            *slot += (mask >> i) & 1;
        }
    }
    c
}

/// Raw race value of `side`: Σ over its cubes of faces × `RACE``[distance]`, plus `CUBE` each.
pub fn race(pos: &Einstein, side: u8) -> i32 {
    let cov = coverage(pos, side);
    let mut total = 0;
    for (i, &sq) in pos.at[usize::from(side & 1)].iter().enumerate() {
        if sq != OFF {
            let d = usize::from(distance(side, sq).min(4));
            total += i32::from(cov[i]) * RACE[d] + CUBE;
        }
    }
    total
}

/// Strong evaluation for the side to move (which has not rolled yet), in −999..=999:
/// roughly `WIN` × (2·P(win) − 1). Finished games are scored by the search, not here.
pub fn evaluate(pos: &Einstein) -> Score {
    let me = pos.side;
    let x = race(pos, me) * TEMPO_EIGHTHS / 8 - race(pos, 1 - me);
    (WIN - 1) * x / (x.abs() + SQUASH)
}

/// Seed level's value of a cube at distance 1–4 from its goal.
const SEED_CUBE: [i32; 5] = [0, 160, 130, 112, 100];
/// Seed level's score of a won game.
pub const SEED_WIN: Score = 10_000;

/// The seed's evaluation "from the cubes left", for `side`: Σ own cube values − Σ enemy
/// cube values, a cube being worth more the nearer it is to its goal; ±[`SEED_WIN`]
/// when the game is over.
pub fn seed_evaluate(pos: &Einstein, side: u8) -> Score {
    if let Some(w) = pos.winner() {
        return if w == side { SEED_WIN } else { -SEED_WIN };
    }
    let mut total = 0;
    for s in 0..2u8 {
        let sign = if s == side { 1 } else { -1 };
        for &sq in &pos.at[usize::from(s)] {
            if sq != OFF {
                total += sign * SEED_CUBE[usize::from(distance(s, sq).min(4))];
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::super::board::{Arrangement, BLUE, RED};
    use super::*;
    use crate::game::Notation;

    #[test]
    fn start_is_balanced_up_to_tempo() {
        let p = Einstein::from_setups(
            Arrangement([1, 2, 3, 4, 5, 6]),
            Arrangement([6, 5, 4, 3, 2, 1]),
            0,
        );
        assert_eq!(race(&p, RED), race(&p, BLUE));
        assert!(evaluate(&p) > 0 && evaluate(&p) < 100);
        assert_eq!(seed_evaluate(&p, RED), 0);
    }

    #[test]
    fn advanced_and_often_moved_cubes_are_better() {
        let near = Einstein::parse_position("r:d2=3 b:b4=1,a4=2 turn=b").unwrap();
        let far = Einstein::parse_position("r:b4=3 b:b4=1,a4=2 turn=b");
        assert!(far.is_err(), "two cubes on b4");
        let far = Einstein::parse_position("r:b3=3 b:b4=1,a4=2 turn=b").unwrap();
        assert!(evaluate(&near) < evaluate(&far));
        assert_eq!(coverage(&near, RED), [0, 0, 6, 0, 0, 0]);
        assert_eq!(coverage(&near, BLUE), [1, 5, 0, 0, 0, 0]);
        assert!(seed_evaluate(&near, RED) > seed_evaluate(&far, RED));
        let won = Einstein::parse_position("r:e1=3 b:b4=1 turn=b").unwrap();
        assert_eq!(seed_evaluate(&won, RED), SEED_WIN);
        assert_eq!(seed_evaluate(&won, BLUE), -SEED_WIN);
    }

    #[test]
    fn evaluation_stays_inside_win_bounds() {
        let p = Einstein::parse_position("r:d2=1,e2=2,d1=3,c2=4,b1=5,c1=6 b:e5=1 turn=r").unwrap();
        let v = evaluate(&p);
        assert!(v > 500 && v < WIN, "{v}");
        let mut q = p;
        q.side = BLUE;
        assert!(evaluate(&q) < -500 && evaluate(&q) > -WIN);
    }
}
