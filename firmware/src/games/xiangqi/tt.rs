//! The transposition table, in the request's [`crate::engine::Workspace`]
//! arena: one packed `u64` per entry, as many entries as the arena holds (the
//! micro:bit v1's 6 KB give 767, the host's 64 MB about eight million).
//!
//! # Generations
//!
//! The same request gives the same answer whatever came before, but clearing
//! 64 MB per move would cost milliseconds. Word 0 of the arena is a header: a
//! magic number tied to the table's size, the request's context (what the
//! entries depend on beyond the position: see [`Tt::new`]) and a generation
//! (1–63). A request whose header is valid and of its context moves to the
//! next generation; a request that finds no valid header (first use, another
//! size, another game's data), another context or the last generation used
//! clears the whole table and starts again at generation 1. Entries are
//! stored with their request's generation, and a request reads them as
//! [`kept`] says:
//!
//! - its own (every board request, and the host's requests limited by depth
//!   or nodes alone): only its own generation's entries, so the table it sees
//!   starts empty and its answer depends on the request alone;
//! - kept (the host's requests limited by the clock, whose answer depends on
//!   the time anyway): every entry since the table was last cleared, as a GUI
//!   engine keeps its hash between moves.
//!
//! In both, the store takes the other generations' entries as replaceable.
//!
//! # Entry
//!
//! Bits 0–6 from, 7–13 to (both 0: no move), 14–29 score, 30–36 depth, 37–38
//! bound, 39–44 generation (0: empty), 45–63 the key's top 19 bits. Entries
//! are looked up in buckets of two: the first keeps the deeper search, the
//! second the latest.

use super::board::Square;
use crate::game::{MATE_BOUND, Score};
use crate::search::Limits;

/// Whether a request with `limits` in the host profile (`host`) or the
/// board's reads the entries the earlier requests left (kept: the host's
/// requests limited by the clock), not its own alone. The table's methods
/// take the answer as their `KEPT` (a constant: the board's code is the code
/// of its own entries alone).
#[inline(always)]
pub fn kept(host: bool, limits: &Limits) -> bool {
    host && limits.ticks != 0
}

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

const MAGIC: u64 = 0x5845_4E54_4554_0000; // "XENTET" + size, context and generation below
const LAST_GENERATION: u64 = 63;
const CHECK_SHIFT: u32 = 45;
const GENERATION_SHIFT: u32 = 39;
/// The contexts [`Tt::new`] tells apart: bits 6–7 of the header.
const CONTEXTS: u8 = 4;

/// An entry's generation (0: empty).
#[inline(always)]
fn generation_of(e: u64) -> u32 {
    ((e >> GENERATION_SHIFT) & 0x3F) as u32
}

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
    /// table when the last request's `context` differs (or no valid header is
    /// found, or the generations ran out). The context (below
    /// [`CONTEXTS`]) stands for what the entries depend on beyond the position:
    /// the profile's evaluation and pruning, a level's depth cap. An arena of
    /// fewer than three words gives a table that stores nothing.
    pub fn new(arena: &'a mut [u64], context: u8) -> Self {
        let Some((header, table)) = arena.split_first_mut() else {
            return Self {
                table: &mut [],
                buckets: 0,
                generation: 1,
            };
        };
        let words = table.len();
        let m = magic(words) | (u64::from(context % CONTEXTS) << 6);
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

    /// Whether a request reads entry `e` ([`kept`] or not).
    #[inline(always)]
    fn readable<const KEPT: bool>(&self, e: u64) -> bool {
        if KEPT {
            generation_of(e) != 0
        } else {
            generation_of(e) == self.generation
        }
    }

    /// The entry for `key` that the request reads ([`kept`] or not), if any;
    /// mate scores are made relative to `ply`. (Inlined: out of line, its
    /// `Hit` came back through memory; the search's caller returns before the
    /// move loop, so its frame is not one of the recursion's.)
    #[inline]
    pub fn probe<const KEPT: bool>(&self, key: u64, ply: usize) -> Option<Hit> {
        if self.buckets == 0 {
            return None;
        }
        let b = self.bucket(key);
        let check = key >> CHECK_SHIFT;
        let e = self.table[b..b + 2]
            .iter()
            .copied()
            .find(|&e| e >> CHECK_SHIFT == check && self.readable::<KEPT>(e))?;
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
    /// relative to the position) by a request ([`kept`] or not). `mv` is `None`
    /// when no move is known: the move of an entry for `key` that the request
    /// reads is kept. (Inlined into the search's one call, at the move loop's
    /// end: four of its seven arguments went through the stack, and the loop's
    /// frame keeps its size.)
    #[inline(always)]
    pub fn store<const KEPT: bool>(
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
        let live = |e: u64| generation_of(e) == self.generation;
        let same = |e: u64| self.readable::<KEPT>(e) && e >> CHECK_SHIFT == check;
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
            // A much deeper result for this position stays (an earlier
            // request's, kept, is of this generation now: in use).
            if KEPT {
                self.table[b] = (first & !(0x3F << GENERATION_SHIFT))
                    | (u64::from(self.generation) << GENERATION_SHIFT);
            }
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
            | (u64::from(self.generation) << GENERATION_SHIFT)
            | (check << CHECK_SHIFT);
    }

    /// Empties the entries for `key` of every generation: the root's, after a
    /// request that searched only some of its moves (its score is not the
    /// position's, and a later request that keeps the table must not read it).
    pub fn forget(&mut self, key: u64) {
        if self.buckets == 0 {
            return;
        }
        let b = self.bucket(key);
        let check = key >> CHECK_SHIFT;
        for e in &mut self.table[b..b + 2] {
            if generation_of(*e) != 0 && *e >> CHECK_SHIFT == check {
                *e = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MATE;

    #[test]
    fn stores_and_finds_entries_with_mate_scores_relative_to_ply() {
        for kept in [false, true] {
            let mut arena = [0u64; 65];
            let mut tt = Tt::new(&mut arena, 0);
            assert_eq!(tt.capacity(), 64);
            let key = 0x1234_5678_9ABC_DEF0;
            store(
                &mut tt,
                key,
                (3, Some((10, 20)), MATE - 7, 5, Bound::Lower),
                kept,
            );
            let hit = probe(&tt, key, 5, kept).unwrap();
            assert_eq!(hit.mv, Some((10, 20)));
            assert_eq!(
                hit.score,
                MATE - 9,
                "mate in 4 from ply 3 is mate in 4 from ply 5"
            );
            assert_eq!((hit.depth, hit.bound), (5, Bound::Lower));
            store(&mut tt, key, (0, None, -12, 6, Bound::Upper), kept);
            let hit = probe(&tt, key, 0, kept).unwrap();
            assert_eq!(
                (hit.mv, hit.score, hit.bound),
                (Some((10, 20)), -12, Bound::Upper)
            );
            assert!(
                probe(&tt, key ^ (1 << 60), 0, kept).is_none(),
                "another key"
            );
        }
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
        // Whatever the requests before read (their own entries or the kept
        // ones), a request that reads its own finds none of theirs.
        for request in 0..200 {
            let kept = request % 3 != 0;
            let mut tt = Tt::new(&mut arena, 1);
            if !kept {
                assert!(probe(&tt, key, 0, kept).is_none(), "request {request}");
            }
            store(
                &mut tt,
                key,
                (0, Some((1, 2)), request, 3, Bound::Exact),
                kept,
            );
            assert_eq!(probe(&tt, key, 0, kept).map(|h| h.score), Some(request));
        }
        // Garbage in the arena (another game's data) clears the table.
        arena
            .iter_mut()
            .enumerate()
            .for_each(|(i, w)| *w = !0 ^ i as u64);
        let tt = Tt::new(&mut arena, 0);
        assert!(arena_is_clear(&tt));
        // An empty or tiny arena stores nothing and never panics.
        for kept in [false, true] {
            let mut none: [u64; 0] = [];
            let mut tt = Tt::new(&mut none, 0);
            store(&mut tt, key, (0, None, 1, 1, Bound::Exact), kept);
            assert!(probe(&tt, key, 0, kept).is_none());
            tt.forget(key);
            let mut one = [0u64; 2];
            let mut tt = Tt::new(&mut one, 0);
            store(&mut tt, key, (0, None, 1, 1, Bound::Exact), kept);
            assert!(probe(&tt, key, 0, kept).is_none());
        }
    }

    #[test]
    fn a_kept_request_reads_the_earlier_requests_entries_until_the_table_is_cleared() {
        // 128 buckets: request `r`'s key in bucket `r % 128`, its own check bits.
        let mut arena = [0u64; 257];
        let keys = |request: i32| ((request as u64) << 45) | ((request as u64 % 128) << 25);
        let mut last_clear = 0;
        for request in 1..=130 {
            let mut tt = Tt::new(&mut arena, 1);
            if tt.generation == 1 {
                last_clear = request;
            }
            // Every earlier request's entry since the last clear, whichever
            // way it read; nothing from before it.
            for earlier in 1..request {
                let hit = tt.probe::<true>(keys(earlier), 0);
                if earlier >= last_clear {
                    assert_eq!(hit.map(|h| h.score), Some(earlier), "{request} {earlier}");
                } else {
                    assert!(hit.is_none(), "{request} {earlier}");
                }
                assert!(tt.probe::<false>(keys(earlier), 0).is_none());
            }
            let kept = request % 2 != 0;
            store(
                &mut tt,
                keys(request),
                (0, Some((3, 4)), request, 2, Bound::Exact),
                kept,
            );
        }
        assert_eq!(last_clear, 127, "cleared once per 63 requests");
    }

    #[test]
    fn a_kept_request_keeps_an_earlier_entrys_move_and_ages_the_others() {
        // One bucket.
        let mut arena = [0u64; 3];
        let key = 0xDEAD_BEEF_0000_0001;
        let (second, other, third) = (key ^ (1 << 50), key ^ (1 << 51), key ^ (1 << 52));
        let mut tt = Tt::new(&mut arena, 1);
        tt.store::<true>(key, 0, Some((10, 20)), 5, 9, Bound::Lower);
        tt.store::<true>(second, 0, None, 6, 1, Bound::Lower);
        let mut tt = Tt::new(&mut arena, 1);
        // A much shallower result stays out, and the deeper one is in use
        // (of this generation).
        tt.store::<true>(key, 0, None, 1, 2, Bound::Lower);
        assert_eq!(tt.probe::<false>(key, 0).map(|h| h.depth), Some(9));
        // A result without a move: the earlier move stays with it.
        let mut tt = Tt::new(&mut arena, 1);
        tt.store::<true>(key, 0, None, 7, 8, Bound::Upper);
        let hit = tt.probe::<false>(key, 0).unwrap();
        assert_eq!((hit.mv, hit.score, hit.depth), (Some((10, 20)), 7, 8));
        assert!(tt.probe::<true>(second, 0).is_some());
        // The next request's shallower entry takes the first slot from the
        // last request's deeper one, and the second from an older one.
        let mut tt = Tt::new(&mut arena, 1);
        tt.store::<true>(other, 0, Some((1, 2)), 3, 1, Bound::Exact);
        assert!(tt.probe::<true>(key, 0).is_none(), "replaced");
        assert!(tt.probe::<true>(second, 0).is_some());
        tt.store::<true>(third, 0, None, 4, 0, Bound::Exact);
        assert!(tt.probe::<true>(second, 0).is_none(), "replaced");
        assert!(tt.probe::<false>(other, 0).is_some());
        assert!(tt.probe::<false>(third, 0).is_some());
    }

    #[test]
    fn another_context_clears_the_table() {
        let mut arena = [0u64; 65];
        let key = 0xDEAD_BEEF_0000_0001;
        let mut tt = Tt::new(&mut arena, 1);
        tt.store::<true>(key, 0, Some((1, 2)), 5, 3, Bound::Exact);
        let tt = Tt::new(&mut arena, 1);
        assert!(tt.probe::<true>(key, 0).is_some());
        let mut tt = Tt::new(&mut arena, 3);
        assert!(arena_is_clear(&tt));
        assert!(tt.probe::<true>(key, 0).is_none());
        tt.store::<true>(key, 0, Some((1, 2)), 5, 3, Bound::Exact);
        // And back.
        let tt = Tt::new(&mut arena, 1);
        assert!(arena_is_clear(&tt));
    }

    #[test]
    fn a_forgotten_key_has_no_entry_of_any_generation() {
        let mut arena = [0u64; 65];
        let key = 0xDEAD_BEEF_0000_0001;
        let other = key ^ (1 << 50);
        let mut tt = Tt::new(&mut arena, 1);
        tt.store::<true>(key, 0, Some((1, 2)), 5, 9, Bound::Exact);
        let mut tt = Tt::new(&mut arena, 1);
        tt.store::<true>(other, 0, Some((1, 2)), 6, 1, Bound::Exact);
        tt.forget(key);
        assert!(tt.probe::<true>(key, 0).is_none());
        assert_eq!(tt.probe::<true>(other, 0).map(|h| h.score), Some(6));
    }

    /// [`Tt::probe`] for a request that keeps the table or not.
    fn probe(tt: &Tt<'_>, key: u64, ply: usize, kept: bool) -> Option<Hit> {
        if kept {
            tt.probe::<true>(key, ply)
        } else {
            tt.probe::<false>(key, ply)
        }
    }

    /// An entry's fields as [`Tt::store`] takes them after the key: ply,
    /// move, score, depth and bound.
    type Fields = (usize, Option<(Square, Square)>, Score, i32, Bound);

    /// [`Tt::store`] for a request that keeps the table or not.
    fn store(tt: &mut Tt<'_>, key: u64, fields: Fields, kept: bool) {
        let (ply, mv, score, depth, bound) = fields;
        if kept {
            tt.store::<true>(key, ply, mv, score, depth, bound);
        } else {
            tt.store::<false>(key, ply, mv, score, depth, bound);
        }
    }

    fn arena_is_clear(tt: &Tt<'_>) -> bool {
        tt.table.iter().all(|&w| w == 0)
    }
}
