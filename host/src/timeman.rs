//! Time management: how long one move may take, from a clock. One rule for every
//! place that turns a clock into a per-move limit: the UCI/UCCI and Gomocup adapters
//! (a GUI's `wtime`/`time_left`) and `sente match` (its `--tc`).
//!
//! The engines take the result as a hard `movetime`: they stop when it is up and
//! answer with the best move of the last completed iteration.

use std::time::Duration;

/// A side's clock as a GUI or the referee gives it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub left: Duration,
    /// Increment added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
    /// Most time one move may take, whatever the clock says (Gomocup's `timeout_turn`).
    pub per_move_cap: Option<Duration>,
}

/// Moves a game is assumed to still last when the control does not say.
const HORIZON: u32 = 30;

/// Time for the next move: an even share of the clock over the moves still to play,
/// plus most of the increment, never more than a safe fraction of what is left, and
/// `overhead` (the link's and the GUI's latency) kept in reserve.
pub fn move_time(clock: &Clock, overhead: Duration) -> Duration {
    let left = clock.left.saturating_sub(overhead);
    let to_go = clock.moves_to_go.unwrap_or(HORIZON).clamp(1, 100);
    let share = left / to_go + clock.increment.mul_f64(0.75);
    // One move may take at most 40 % of the clock (80 % before the control's last move).
    let cap = if to_go == 1 {
        left.mul_f64(0.8)
    } else {
        left.mul_f64(0.4)
    };
    let mut t = share.min(cap);
    if let Some(turn) = clock.per_move_cap {
        t = t.min(turn.saturating_sub(overhead));
    }
    t.max(Duration::from_millis(1))
}

/// A count given in milliseconds, read without overflow: digits beyond what a `u64`
/// holds saturate (`go movetime 99999999999999999999` is a very long time, not an error).
pub fn saturating_ms(text: &str) -> Option<u64> {
    let text = text.trim();
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        // A negative clock (some GUIs send them after a flag fall) is no time at all.
        return text
            .strip_prefix('-')
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            .map(|_| 0);
    }
    Some(digits.parse().unwrap_or(u64::MAX))
}

/// Milliseconds as the protocol's `movetime` (a `u32`), saturating.
pub fn wire_ms(d: Duration) -> u32 {
    u32::try_from(d.as_millis()).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn shares_the_clock_and_keeps_a_reserve() {
        let overhead = ms(20);
        let sudden = Clock {
            left: ms(60_000),
            ..Clock::default()
        };
        let t = move_time(&sudden, overhead);
        assert!(t > ms(1_500) && t < ms(2_500), "{t:?}");
        let with_inc = Clock {
            increment: ms(1_000),
            ..sudden
        };
        assert!(move_time(&with_inc, overhead) > t);
        // Almost flagged: never more than what is left.
        let short = Clock {
            left: ms(100),
            increment: ms(5_000),
            ..Clock::default()
        };
        assert!(move_time(&short, overhead) <= ms(80));
        let last = Clock {
            left: ms(10_000),
            moves_to_go: Some(1),
            ..Clock::default()
        };
        assert!(move_time(&last, overhead) >= ms(7_000));
        let capped = Clock {
            per_move_cap: Some(ms(200)),
            ..sudden
        };
        assert_eq!(move_time(&capped, overhead), ms(180));
        assert_eq!(move_time(&Clock::default(), overhead), ms(1));
    }

    #[test]
    fn huge_and_odd_numbers_saturate_or_are_refused() {
        assert_eq!(saturating_ms("5000000000"), Some(5_000_000_000));
        assert_eq!(saturating_ms("99999999999999999999999"), Some(u64::MAX));
        assert_eq!(saturating_ms("18446744073709551615"), Some(u64::MAX));
        assert_eq!(saturating_ms("-300"), Some(0));
        assert_eq!(saturating_ms("12x"), None);
        assert_eq!(saturating_ms(""), None);
        assert_eq!(wire_ms(Duration::from_millis(u64::MAX)), u32::MAX);
    }
}
