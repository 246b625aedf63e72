//! Players' clocks: time controls (`5+3`: five minutes and three seconds a move),
//! the clocks that run down while a side is to move, and flag fall.
//!
//! The clocks take the time as arguments (`now`), so that tests can run them
//! without waiting.

use std::fmt;
use std::time::{Duration, Instant};

/// A time control: time for the game and an increment after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time on the clock at the start.
    pub base: Duration,
    /// Time added after each of the side's moves.
    pub increment: Duration,
}

impl TimeControl {
    /// The choices the start screen offers, shortest first.
    pub const MENU: [TimeControl; 7] = [
        Self::new(30, 1),
        Self::new(60, 0),
        Self::new(180, 2),
        Self::new(300, 3),
        Self::new(600, 5),
        Self::new(900, 10),
        Self::new(1800, 20),
    ];

    /// A control of `base` seconds plus `increment` seconds a move.
    pub const fn new(base: u64, increment: u64) -> Self {
        Self {
            base: Duration::from_secs(base),
            increment: Duration::from_secs(increment),
        }
    }

    /// Reads `MINUTES[+SECONDS]` as players write it (`5+3`, `1+0`, `0.5+1`), or the
    /// base as `M:SS` (`1:30+2`) or in seconds with an `s` (`45s+1`).
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "{text:?} is not a time control: write MINUTES+SECONDS, e.g. 5+3, 1:30+2 or 45s+1"
            )
        };
        let (base, inc) = match text.trim().split_once('+') {
            Some((b, i)) => (b.trim(), i.trim()),
            None => (text.trim(), "0"),
        };
        let seconds = |t: &str| -> Option<f64> {
            let v: f64 = t.parse().ok()?;
            (v.is_finite() && (0.0..=100_000.0).contains(&v)).then_some(v)
        };
        let base = if let Some((m, s)) = base.split_once(':') {
            let (m, s) = (seconds(m).ok_or_else(bad)?, seconds(s).ok_or_else(bad)?);
            m.trunc() * 60.0 + s
        } else if let Some(s) = base.strip_suffix('s') {
            seconds(s).ok_or_else(bad)?
        } else {
            seconds(base.strip_suffix('m').unwrap_or(base)).ok_or_else(bad)? * 60.0
        };
        let increment = seconds(inc.strip_suffix('s').unwrap_or(inc)).ok_or_else(bad)?;
        if base <= 0.0 {
            return Err(format!("{text:?}: the clock needs some time to start with"));
        }
        Ok(Self {
            base: Duration::from_secs_f64(base),
            increment: Duration::from_secs_f64(increment),
        })
    }

    /// Reads one control for every side (`5+3`) or one per side in turn order,
    /// separated by `/` (`5+3/1+0`: the first player 5+3, the others 1+0).
    pub fn parse_sides(text: &str) -> Result<Vec<Self>, String> {
        text.split('/').map(Self::parse).collect()
    }

    /// The controls of every side in the form [`TimeControl::parse_sides`] reads.
    pub fn sides_label(sides: &[Self]) -> String {
        let labels: Vec<String> = sides.iter().map(ToString::to_string).collect();
        labels.join("/")
    }
}

impl fmt::Display for TimeControl {
    /// `5+3`, `1:30+2`, `45s+1`, `0+0.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = self.base.as_secs_f64();
        if base >= 60.0 && base % 60.0 == 0.0 {
            write!(f, "{}", base / 60.0)?;
        } else if base >= 60.0 {
            write!(f, "{}:{:02}", (base / 60.0).trunc(), base % 60.0)?;
        } else {
            write!(f, "{base}s")?;
        }
        write!(f, "+{}", self.increment.as_secs_f64())
    }
}

/// The clocks of a game: one per player, at most one running.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    controls: Vec<TimeControl>,
    left: Vec<Duration>,
    running: Option<(u8, Instant)>,
}

impl Clocks {
    /// Clocks for `players` players under `controls` (one per player in turn order;
    /// the last one stands for the players it does not reach).
    pub fn new(controls: &[TimeControl], players: u8) -> Option<Self> {
        let last = *controls.last()?;
        let controls: Vec<TimeControl> = (0..usize::from(players))
            .map(|p| controls.get(p).copied().unwrap_or(last))
            .collect();
        Some(Self {
            left: controls.iter().map(|c| c.base).collect(),
            controls,
            running: None,
        })
    }

    /// Time left on `player`'s clock at `now`.
    pub fn left(&self, player: u8, now: Instant) -> Duration {
        let stored = self
            .left
            .get(usize::from(player))
            .copied()
            .unwrap_or_default();
        match self.running {
            Some((p, since)) if p == player => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    /// Sets what is left on `player`'s clock (a saved game going on).
    pub fn set_left(&mut self, player: u8, left: Duration) {
        if let Some(slot) = self.left.get_mut(usize::from(player)) {
            *slot = left;
        }
    }

    /// `player`'s time control.
    pub fn control(&self, player: u8) -> Option<TimeControl> {
        self.controls.get(usize::from(player)).copied()
    }

    /// The player whose clock runs.
    pub fn running(&self) -> Option<u8> {
        self.running.map(|(p, _)| p)
    }

    /// Runs `player`'s clock from `now` (stopping any other); `None` stops them all.
    pub fn run(&mut self, player: Option<u8>, now: Instant) {
        if self.running.map(|(p, _)| p) == player {
            return;
        }
        self.stop(now);
        self.running = player.map(|p| (p, now));
    }

    /// Stops the running clock, keeping what is left.
    fn stop(&mut self, now: Instant) {
        if let Some((p, _)) = self.running {
            let left = self.left(p, now);
            self.set_left(p, left);
            self.running = None;
        }
    }

    /// `player` has moved at `now`: its clock stops and gains the increment (unless
    /// its flag has fallen).
    pub fn moved(&mut self, player: u8, now: Instant) {
        if self.running() == Some(player) {
            self.stop(now);
        }
        let inc = self
            .control(player)
            .map(|c| c.increment)
            .unwrap_or_default();
        if let Some(left) = self.left.get_mut(usize::from(player))
            && !left.is_zero()
        {
            *left += inc;
        }
    }

    /// The player whose flag has fallen at `now` (the running clock is at zero).
    pub fn flag(&self, now: Instant) -> Option<u8> {
        let (p, _) = self.running?;
        self.left(p, now).is_zero().then_some(p)
    }

    /// The clocks in a record's form: seconds left per player (`281.4 300`).
    pub fn left_text(&self, now: Instant) -> String {
        let all: Vec<String> = (0..self.left.len() as u8)
            .map(|p| format!("{:.1}", self.left(p, now).as_secs_f64()))
            .collect();
        all.join(" ")
    }

    /// Reads [`Clocks::left_text`] back into the clocks.
    pub fn set_left_text(&mut self, text: &str) {
        for (p, secs) in text.split_whitespace().enumerate() {
            if let Ok(s) = secs.parse::<f64>()
                && s.is_finite()
                && s >= 0.0
            {
                self.set_left(p as u8, Duration::from_secs_f64(s.min(1e7)));
            }
        }
    }
}

/// A clock reading as players know it: `4:59`, `1:02:03`, and tenths under ten
/// seconds (`9.4`). Seconds are rounded up, so a full clock reads its control.
pub fn clock_text(left: Duration) -> String {
    let ms = left.as_millis();
    if ms < 10_000 {
        return format!("{}.{}", ms / 1000, (ms % 1000) / 100);
    }
    let secs = left.as_secs() + u64::from(left.subsec_nanos() > 0);
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn controls_are_read_as_players_write_them() {
        assert_eq!(TimeControl::parse("5+3"), Ok(TimeControl::new(300, 3)));
        assert_eq!(TimeControl::parse(" 1 + 0 "), Ok(TimeControl::new(60, 0)));
        assert_eq!(TimeControl::parse("10"), Ok(TimeControl::new(600, 0)));
        assert_eq!(TimeControl::parse("1:30+2"), Ok(TimeControl::new(90, 2)));
        assert_eq!(TimeControl::parse("45s+1"), Ok(TimeControl::new(45, 1)));
        assert_eq!(
            TimeControl::parse("0.5+0.5").unwrap().increment,
            Duration::from_millis(500)
        );
        for bad in ["", "x", "5+", "+3", "-1+0", "0+0", "5+3+1", "1e9", "NaN+1"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
        let sides = TimeControl::parse_sides("5+3/1+0").unwrap();
        assert_eq!(sides, [TimeControl::new(300, 3), TimeControl::new(60, 0)]);
        assert_eq!(TimeControl::sides_label(&sides), "5+3/1+0");
        for tc in TimeControl::MENU {
            assert_eq!(TimeControl::parse(&tc.to_string()), Ok(tc), "{tc}");
        }
        assert_eq!(TimeControl::new(90, 2).to_string(), "1:30+2");
        assert_eq!(TimeControl::new(30, 1).to_string(), "30s+1");
    }

    #[test]
    fn clocks_run_gain_the_increment_and_flag() {
        let t0 = Instant::now();
        let mut c = Clocks::new(&[TimeControl::new(60, 2)], 2).unwrap();
        assert_eq!(c.left(1, t0), secs(60));
        c.run(Some(0), t0);
        assert_eq!(c.left(0, t0 + secs(10)), secs(50));
        assert_eq!(c.left(1, t0 + secs(10)), secs(60), "only the mover's runs");
        c.moved(0, t0 + secs(10));
        assert_eq!(c.left(0, t0 + secs(30)), secs(52));
        assert_eq!(c.running(), None);
        c.run(Some(1), t0 + secs(10));
        assert_eq!(c.flag(t0 + secs(69)), None);
        assert_eq!(c.flag(t0 + secs(70)), Some(1));
        assert_eq!(c.left(1, t0 + secs(99)), Duration::ZERO);
        c.run(None, t0 + secs(99));
        c.moved(1, t0 + secs(99));
        assert_eq!(
            c.left(1, t0 + secs(99)),
            Duration::ZERO,
            "no increment after the flag"
        );
        assert_eq!(c.left_text(t0), "52.0 0.0");
        let mut d = Clocks::new(&[TimeControl::new(300, 0)], 2).unwrap();
        d.set_left_text("52.0 0.5 junk");
        assert_eq!(d.left(0, t0), secs(52));
        assert_eq!(d.left(1, t0), Duration::from_millis(500));
    }

    #[test]
    fn one_control_per_side_the_last_one_repeating() {
        let c = Clocks::new(&TimeControl::parse_sides("5+3/1+0").unwrap(), 3).unwrap();
        let t = Instant::now();
        assert_eq!(
            (0..3).map(|p| c.left(p, t).as_secs()).collect::<Vec<_>>(),
            [300, 60, 60]
        );
        assert!(Clocks::new(&[], 2).is_none());
    }

    #[test]
    fn clock_readings() {
        assert_eq!(clock_text(secs(300)), "5:00");
        assert_eq!(clock_text(Duration::from_millis(299_001)), "5:00");
        assert_eq!(clock_text(secs(3723)), "1:02:03");
        assert_eq!(clock_text(Duration::from_millis(9_450)), "9.4");
        assert_eq!(clock_text(Duration::ZERO), "0.0");
    }
}
