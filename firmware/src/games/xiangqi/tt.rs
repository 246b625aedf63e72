//! The transposition table, in the request's [`crate::engine::Workspace`]
//! arena: one packed `u64` per entry, as many entries as the arena holds (the
//! micro:bit v1's 6 KB give 767, the host's 64 MB about eight million).
//!
//! # Clearing
//!
//! Every request must start from an empty table (the same request gives the
//! same answer whatever came before), but clearing 64 MB per move would cost
//! milliseconds. Word 0 of the arena is a header: a magic number tied to the
//! table's size, and a generation (1–63). A request whose header is valid
//! moves to the next generation, and entries of any other generation read as
//! empty; a request that finds no valid header (first use, another size,
//! another game's data) or the last generation used clears the whole table and
//! starts again at generation 1. So a stale entry is never read, and the table
//! is cleared once per 63 requests.
//!
//! # Entry
//!
//! Bits 0–6 from, 7–13 to (both 0: no move), 14–29 score, 30–36 depth, 37–38
//! bound, 39–44 generation, 45–63 the key's top 19 bits. Entries are looked up
//! in buckets of two: the first keeps the deeper search, the second the latest.

use super::board::Square;
use crate::game::{MATE_BOUND, Score};

/// The kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (no move raised alpha).
    Upper = 1,
    /// The true score is at least the stored one (a cut-off).
    Lower = 2,
    /// The exact score.
    Exact = 3,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Origin and destination of the best move (`None` without one).
    pub mv: Option<(Square, Square)>,
    /// Score, mate scores relative to the probing node.
    pub score: Score,
    /// Depth the score was searched to.
    pub depth: i32,
    /// What kind of bound the score is.
    pub bound: Bound,
}

const MAGIC: u64 = 0x5845_4E54_4554_0000; // "XENTET" + size, generation below
const LAST_GENERATION: u64 = 63;
const CHECK_SHIFT: u32 = 45;

/// The table over a slice of the arena.
pub struct Tt<'a> {
    /// Entries (the arena without its header word); empty when the arena is.
    table: &'a mut [u64],
    // In the M0's word size: no 64-bit compares.
    buckets: usize,
    generation: u32,
}

fn magic(words: usize) -> u64 {
    (MAGIC ^ ((words as u64) << 8)) & !0x3F
}

/// The bucket of a key's low 32 bits among `buckets`: `key * buckets >> 32`
/// (no division on the M0). Below 65,536 buckets (every board) in 32-bit
/// halves: the M0 has no 32 × 32 → 64-bit multiply, and the library call
/// costs several times as much.
#[inline]
fn bucket_of(key: u32, buckets: usize) -> usize {
    if buckets < 1 << 16 {
        let b = buckets as u32;
        // key * b = (high << 16 + low) * b; both products fit in 32 bits,
        // and the low one's fraction cannot carry into the result.
        (((key >> 16) * b + (((key & 0xFFFF) * b) >> 16)) >> 16) as usize
    } else {
        ((u64::from(key) * buckets as u64) >> 32) as usize
    }
}

impl<'a> Tt<'a> {
    /// Takes `arena` (all of it) for the table: a new generation, or a cleared
    /// table. An arena of fewer than three words gives a table that stores nothing.
    pub fn new(arena: &'a mut [u64]) -> Self {
        let Some((header, table)) = arena.split_first_mut() else {
            return Self {
                table: &mut [],
                buckets: 0,
                generation: 1,
            };
        };
        let words = table.len();
        let m = magic(words);
        let generation = if *header & !0x3F == m && (1..LAST_GENERATION).contains(&(*header & 0x3F))
        {
            (*header & 0x3F) as u32 + 1
        } else {
            table.fill(0);
            1
        };
        *header = m | u64::from(generation);
        Self {
            buckets: words / 2,
            table,
            generation,
        }
    }

    /// Entries the table holds.
    pub fn capacity(&self) -> usize {
        self.buckets * 2
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        bucket_of(key as u32, self.buckets) * 2
    }

    /// The entry for `key`, if any; mate scores are made relative to `ply`.
    /// (Inlined: out of line, its `Hit` came back through memory; the
    /// search's caller returns before the move loop, so its frame is not
    /// one of the recursion's.)
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        if self.buckets == 0 {
            return None;
        }
        let b = self.bucket(key);
        let check = key >> CHECK_SHIFT;
        let e = self.table[b..b + 2]
            .iter()
            .copied()
            .find(|&e| e >> CHECK_SHIFT == check && ((e >> 39) & 0x3F) as u32 == self.generation)?;
        let (from, to) = ((e & 0x7F) as Square, ((e >> 7) & 0x7F) as Square);
        let mut score = Score::from((e >> 14) as u16 as i16);
        if score >= MATE_BOUND {
            score -= ply as Score;
        } else if score <= -MATE_BOUND {
            score += ply as Score;
        }
        let bound = match (e >> 37) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(Hit {
            mv: (from != to).then_some((from, to)),
            score,
            depth: ((e >> 30) & 0x7F) as i32,
            bound,
        })
    }

    /// Stores a search result for `key` at `ply` (mate scores are stored
    /// relative to the position). `mv` is `None` when no move is known.
    /// (Inlined into the search's one call, at the move loop's end: four of
    /// its seven arguments went through the stack, and the loop's frame
    /// keeps its size.)
    #[inline(always)]
    pub fn store(
        &mut self,
        key: u64,
        ply: usize,
        mv: Option<(Square, Square)>,
        score: Score,
        depth: i32,
        bound: Bound,
    ) {
        if self.buckets == 0 {
            return;
        }
        let score = if score >= MATE_BOUND {
            score + ply as Score
        } else if score <= -MATE_BOUND {
            score - ply as Score
        } else {
            score
        };
        let b = self.bucket(key);
        let check = key >> CHECK_SHIFT;
        let depth = depth.clamp(0, 127) as u64;
        let live = |e: u64| ((e >> 39) & 0x3F) as u32 == self.generation;
        let same = |e: u64| live(e) && e >> CHECK_SHIFT == check;
        let (first, second) = (self.table[b], self.table[b + 1]);
        // Keep the move already known for this position when none is given.
        let old_move = |e: u64| e & 0x3FFF;
        let (slot, kept_move) = if same(first) {
            (b, old_move(first))
        } else if same(second) {
            (b + 1, old_move(second))
        } else if !live(first) || depth >= (first >> 30) & 0x7F {
            (b, 0)
        } else {
            (b + 1, 0)
        };
        if slot == b && same(first) && depth + 2 < (first >> 30) & 0x7F && bound != Bound::Exact {
            // A much deeper result for this position stays.
            return;
        }
        let moved = match mv {
            Some((from, to)) => u64::from(from) | (u64::from(to) << 7),
            None => kept_move,
        };
        let score = score.clamp(-32_000, 32_000) as i16 as u16 as u64;
        self.table[slot] = moved
            | (score << 14)
            | (depth << 30)
            | ((bound as u64) << 37)
            | (u64::from(self.generation) << 39)
            | (check << CHECK_SHIFT);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MATE;

    #[test]
    fn stores_and_finds_entries_with_mate_scores_relative_to_ply() {
        let mut arena = [0u64; 65];
        let mut tt = Tt::new(&mut arena);
        assert_eq!(tt.capacity(), 64);
        let key = 0x1234_5678_9ABC_DEF0;
        tt.store(key, 3, Some((10, 20)), MATE - 7, 5, Bound::Lower);
        let hit = tt.probe(key, 5).unwrap();
        assert_eq!(hit.mv, Some((10, 20)));
        assert_eq!(
            hit.score,
            MATE - 9,
            "mate in 4 from ply 3 is mate in 4 from ply 5"
        );
        assert_eq!((hit.depth, hit.bound), (5, Bound::Lower));
        tt.store(key, 0, None, -12, 6, Bound::Upper);
        let hit = tt.probe(key, 0).unwrap();
        assert_eq!(
            (hit.mv, hit.score, hit.bound),
            (Some((10, 20)), -12, Bound::Upper)
        );
        assert!(tt.probe(key ^ (1 << 60), 0).is_none(), "another key");
    }

    #[test]
    fn buckets_by_halves_equal_the_wide_product() {
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        for buckets in (1..200u64).chain([383, 4095, 32_767, 65_535]) {
            for _ in 0..300 {
                x = crate::games::xiangqi::search::mix(x);
                let key = x as u32;
                let wide = ((u64::from(key) * buckets) >> 32) as usize;
                assert_eq!(bucket_of(key, buckets as usize), wide, "{key} {buckets}");
            }
            for key in [0, 1, 0xFFFF, 0x1_0000, 0xFFFF_FFFF, 0x8000_0000] {
                assert_eq!(
                    bucket_of(key, buckets as usize),
                    ((u64::from(key) * buckets) >> 32) as usize
                );
            }
        }
    }

    #[test]
    fn a_new_request_never_sees_the_last_ones_entries() {
        let mut arena = [0u64; 33];
        let key = 0xDEAD_BEEF_0000_0001;
        for request in 0..200 {
            let mut tt = Tt::new(&mut arena);
            assert!(tt.probe(key, 0).is_none(), "request {request}");
            tt.store(key, 0, Some((1, 2)), request, 3, Bound::Exact);
            assert_eq!(tt.probe(key, 0).map(|h| h.score), Some(request));
        }
        // Garbage in the arena (another game's data) clears the table.
        arena
            .iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w = !0 ^ i as u64);
        let tt = Tt::new(&mut arena);
        assert!(arena_is_clear(&tt));
        // An empty or tiny arena stores nothing and never panics.
        let mut none: [u64; 0] = [];
        let mut tt = Tt::new(&mut none);
        tt.store(key, 0, None, 1, 1, Bound::Exact);
        assert!(tt.probe(key, 0).is_none());
        let mut one = [0u64; 2];
        let mut tt = Tt::new(&mut one);
        tt.store(key, 0, None, 1, 1, Bound::Exact);
        assert!(tt.probe(key, 0).is_none());
    }

    fn arena_is_clear(tt: &Tt<'_>) -> bool {
        tt.table.iter().all(|&w| w == 0)
    }
}
