//! The match's randomness: one generator and the derivation of every seed from
//! `--seed`, so a match is reproducible game by game and move by move.
//!
//! Three independent streams come out of the match seed:
//!
//! - [`Stream::Openings`]: one generator for the whole match draws the random
//!   opening of each pair of games (sequentially, so an opening already played can be
//!   drawn again and replaced);
//! - [`Stream::Dice`]: one generator per **pair** rolls the die for every turn of an
//!   EinStein game; both games of a pair see the same sequence of rolls;
//! - [`Stream::Engine`]: the `seed=` of each request, from the game number and the
//!   ply, so Monte Carlo players never repeat a game and each engine gets its own
//!   setup seed.

/// splitmix64: a tiny, well-mixed 64-bit generator (Steele, Lea & Flood 2014).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0; the tiny modulo bias does not matter here).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// The purpose a derived seed serves; each gives an unrelated sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Random opening plies (one generator per match).
    Openings = 1,
    /// Dice of a pair of games.
    Dice = 2,
    /// `seed=` of one request.
    Engine = 3,
}

/// One splitmix64 output for `x`: a bijective 64-bit mixer.
fn mix(x: u64) -> u64 {
    SplitMix64::new(x).next_u64()
}

/// The seed for `stream` from the match seed and up to two indices (game or pair
/// number, ply). Different inputs give unrelated seeds; the same inputs, the same seed.
pub fn derive(match_seed: u64, stream: Stream, a: u64, b: u64) -> u64 {
    mix(mix(mix(mix(match_seed) ^ stream as u64) ^ a) ^ b)
}

/// `seed=` of the request for ply `ply` (0-based, referee moves included) of game
/// `game` (1-based).
pub fn engine_seed(match_seed: u64, game: u32, ply: usize) -> u64 {
    derive(match_seed, Stream::Engine, u64::from(game), ply as u64)
}

/// The pair (1-based) game `game` (1-based) belongs to: games 1 and 2 form pair 1.
pub fn pair_of(game: u32) -> u32 {
    game.div_ceil(2)
}

/// The dice generator of pair `pair`: both games of a pair roll the same sequence.
pub fn dice(match_seed: u64, pair: u32) -> sente_firmware::games::einstein::SplitMix64 {
    sente_firmware::games::einstein::SplitMix64::new(derive(
        match_seed,
        Stream::Dice,
        u64::from(pair),
        0,
    ))
}

/// The generator of the match's random openings.
pub fn openings(match_seed: u64) -> SplitMix64 {
    SplitMix64::new(derive(match_seed, Stream::Openings, 0, 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn splitmix64_matches_the_reference() {
        // First outputs of the reference implementation for seed 0.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(SplitMix64::new(3).below(0), 0);
    }

    #[test]
    fn derived_seeds_are_reproducible_and_distinct() {
        assert_eq!(engine_seed(7, 3, 12), engine_seed(7, 3, 12));
        let mut seen = HashSet::new();
        for seed in [0, 1, 2] {
            for game in 1..=20 {
                for ply in 0..40 {
                    assert!(seen.insert(engine_seed(seed, game, ply)));
                }
            }
        }
        // Streams do not collide with each other for the same indices.
        assert_ne!(
            derive(1, Stream::Dice, 1, 0),
            derive(1, Stream::Engine, 1, 0)
        );
        assert_ne!(
            derive(1, Stream::Openings, 0, 0),
            derive(1, Stream::Dice, 0, 0)
        );
        // Swapping the indices gives another seed.
        assert_ne!(engine_seed(1, 2, 3), engine_seed(1, 3, 2));
    }

    #[test]
    fn pairs_share_dice_and_pairs_differ() {
        assert_eq!(
            (pair_of(1), pair_of(2), pair_of(3), pair_of(4)),
            (1, 1, 2, 2)
        );
        let rolls = |pair| {
            let mut d = dice(9, pair);
            (0..30).map(|_| d.die()).collect::<Vec<u8>>()
        };
        assert_eq!(rolls(1), rolls(1));
        assert_ne!(rolls(1), rolls(2));
        assert!(rolls(1).iter().all(|r| (1..=6).contains(r)));
        let mut other_seed = dice(10, 1);
        let other: Vec<u8> = (0..30).map(|_| other_seed.die()).collect();
        assert_ne!(rolls(1), other);
    }
}
