//! Game clocks: the time a side has left under a time control, and the share of it the
//! next move gets. The time controls are GTP's (`time_settings`: a main time for the
//! whole game, then Canadian byo-yomi, a period for every so many moves) and Fischer's
//! (a main time, and an increment after each move), as matches write them: `60` (a
//! minute a side), `60+0.5`, `300/30/5`.
//!
//! ```
//! use gamelab_core::clock::TimeControl;
//!
//! for (text, words, gtp) in [
//!     ("60", "60 s a side", Some((60.0, 0.0, 0))),
//!     ("60+0.5", "60 s a side and 0.5 s more a move", None),
//!     ("300/30/5", "300 s a side, then 30 s for every 5 moves", Some((300.0, 30.0, 5))),
//! ] {
//!     let control: TimeControl = text.parse().unwrap();
//!     assert_eq!(control.to_string(), text);
//!     assert_eq!(control.describe(), words);
//!     assert_eq!(control.to_gtp(), gtp);
//!     assert_eq!(control.written().as_deref(), Some(text));
//! }
//! assert_eq!(TimeControl::Unlimited.written(), None);
//! assert!(TimeControl::Unlimited.start().is_none(), "no clock runs");
//!
//! // What cannot be a clock, each message naming it first.
//! let error = |text: &str| text.parse::<TimeControl>().unwrap_err().to_string();
//! assert_eq!(
//!     error("1:30"),
//!     "clock `1:30`: expected MAIN, MAIN+INCREMENT or MAIN/PERIOD/STONES in seconds (60, 60+0.5, 300/30/5)"
//! );
//! assert_eq!(error("-1"), "clock `-1`: main time -1: expected seconds from 0 to 31536000");
//! assert!(error("0").starts_with("clock `0` leaves no time for a move"));
//! assert!(error("60/30/0").starts_with("clock `60/30/0` is no limit"));
//! ```

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use thiserror::Error;

/// The longest time a control or a clock may hold: a year, far beyond any game, and
/// small enough that sums of them never overflow.
pub const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;

/// How long each side may think in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum TimeControl {
    /// No limit: agents play at their own pace.
    #[default]
    Unlimited,
    /// `main` for the whole game, then `period` for every `stones` moves; with no stones,
    /// `main` is all there is (absolute time).
    Canadian {
        main: Duration,
        period: Duration,
        stones: u32,
    },
    /// `main` for the whole game, and `increment` more after each move.
    Fischer { main: Duration, increment: Duration },
}

impl TimeControl {
    /// GTP's `time_settings main_time byo_yomi_time byo_yomi_stones` (seconds, seconds,
    /// moves): a period with no stones means no limit, as the protocol has it.
    ///
    /// ```
    /// use std::time::Duration;
    /// use gamelab_core::clock::TimeControl;
    ///
    /// assert_eq!(TimeControl::from_gtp(300.0, 30.0, 5)?.to_string(), "300/30/5");
    /// assert_eq!(TimeControl::from_gtp(300.0, 0.0, 0)?.to_string(), "300"); // absolute
    /// assert_eq!(TimeControl::from_gtp(0.0, 30.0, 0)?, TimeControl::Unlimited);
    /// assert!(TimeControl::from_gtp(f64::NAN, 0.0, 0).is_err());
    /// # Ok::<(), gamelab_core::clock::SecondsError>(())
    /// ```
    pub fn from_gtp(main: f64, period: f64, stones: u32) -> Result<TimeControl, SecondsError> {
        let main = seconds("main time", main)?;
        let period = seconds("byo-yomi time", period)?;
        Ok(match (period.is_zero(), stones) {
            (false, 0) => TimeControl::Unlimited,
            (true, _) => TimeControl::Canadian {
                main,
                period: Duration::ZERO,
                stones: 0,
            },
            (false, stones) => TimeControl::Canadian {
                main,
                period,
                stones,
            },
        })
    }

    /// In words: "60 s a side", "60 s a side and 0.5 s more a move", "300 s a side, then
    /// 30 s for every 5 moves".
    pub fn describe(&self) -> String {
        let s = |d: Duration| d.as_secs_f64();
        match *self {
            TimeControl::Unlimited => "no limit".into(),
            TimeControl::Canadian {
                main, stones: 0, ..
            } => format!("{} s a side", s(main)),
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => format!(
                "{} s a side, then {} s for every {stones} move{}",
                s(main),
                s(period),
                if stones == 1 { "" } else { "s" }
            ),
            TimeControl::Fischer { main, increment } => {
                format!("{} s a side and {} s more a move", s(main), s(increment))
            }
        }
    }

    /// GTP's `time_settings` for this control (main time and period in seconds, stones);
    /// `None` with no limit, and for Fischer's, which GTP has no words for (a program is
    /// then told only its `time_left`).
    pub fn to_gtp(&self) -> Option<(f64, f64, u32)> {
        match *self {
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => Some((main.as_secs_f64(), period.as_secs_f64(), stones)),
            TimeControl::Unlimited | TimeControl::Fischer { .. } => None,
        }
    }

    /// The control as reports write it (`60+0.5`); `None` with no limit.
    pub fn written(&self) -> Option<String> {
        (*self != TimeControl::Unlimited).then(|| self.to_string())
    }

    /// A clock at the start of a game under this control (`None`: no limit).
    pub fn start(&self) -> Option<Clock> {
        match *self {
            TimeControl::Unlimited => None,
            TimeControl::Canadian { main, .. } | TimeControl::Fischer { main, .. } => Some(Clock {
                control: *self,
                left: main,
                stones: 0,
            }),
        }
    }
}

/// A time control that cannot be read. Every message names the clock once, as its first
/// words.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ClockError {
    #[error(
        "clock `{0}`: expected MAIN, MAIN+INCREMENT or MAIN/PERIOD/STONES in seconds (60, 60+0.5, 300/30/5)"
    )]
    Malformed(String),
    #[error("clock `{text}`: {source}")]
    OutOfRange { text: String, source: SecondsError },
    #[error(
        "clock `{0}` leaves no time for a move: expected a main time above 0, or an increment or byo-yomi after it"
    )]
    NoTimeForAMove(String),
    #[error(
        "clock `{0}` is no limit (a byo-yomi period with no stones, as GTP has it): leave the clock out"
    )]
    NoLimit(String),
}

/// A number of seconds out of range ([`seconds`]).
#[derive(Clone, Debug, Error, PartialEq)]
#[error("{what} {value}: expected seconds from 0 to {MAX_SECONDS}")]
pub struct SecondsError {
    pub what: String,
    pub value: f64,
}

impl std::str::FromStr for TimeControl {
    type Err = ClockError;

    /// `MAIN` (seconds a side for the game), `MAIN+INCREMENT` (Fischer), or
    /// `MAIN/PERIOD/STONES` (GTP's Canadian byo-yomi).
    fn from_str(text: &str) -> Result<TimeControl, ClockError> {
        let expected = || ClockError::Malformed(text.to_string());
        let number = |word: &str| word.trim().parse::<f64>().map_err(|_| expected());
        let in_range = |source: SecondsError| ClockError::OutOfRange {
            text: text.to_string(),
            source,
        };
        let parts: Vec<&str> = text.split('/').collect();
        match parts[..] {
            [main, period, stones] => {
                let stones = stones.trim().parse::<u32>().map_err(|_| expected())?;
                TimeControl::from_gtp(number(main)?, number(period)?, stones).map_err(in_range)
            }
            [main] => match main.split_once('+') {
                Some((main, increment)) => Ok(TimeControl::Fischer {
                    main: seconds("main time", number(main)?).map_err(in_range)?,
                    increment: seconds("increment", number(increment)?).map_err(in_range)?,
                }),
                None => TimeControl::from_gtp(number(main)?, 0.0, 0).map_err(in_range),
            },
            _ => Err(expected()),
        }
        .and_then(|control| match control {
            TimeControl::Canadian {
                main: Duration::ZERO,
                stones: 0,
                ..
            } => Err(ClockError::NoTimeForAMove(text.to_string())),
            TimeControl::Unlimited => Err(ClockError::NoLimit(text.to_string())),
            control => Ok(control),
        })
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TimeControl::Unlimited => write!(f, "none"),
            TimeControl::Canadian {
                main, stones: 0, ..
            } => write!(f, "{}", main.as_secs_f64()),
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => write!(
                f,
                "{}/{}/{stones}",
                main.as_secs_f64(),
                period.as_secs_f64()
            ),
            TimeControl::Fischer { main, increment } => {
                write!(f, "{}+{}", main.as_secs_f64(), increment.as_secs_f64())
            }
        }
    }
}

/// A number of seconds from outside: finite, not negative, at most [`MAX_SECONDS`].
///
/// ```
/// use std::time::Duration;
/// use gamelab_core::clock::seconds;
///
/// assert_eq!(seconds("increment", 0.5), Ok(Duration::from_millis(500)));
/// for bad in [-0.1, f64::NAN, f64::INFINITY, 1e300] {
///     assert!(seconds("increment", bad).is_err(), "{bad}");
/// }
/// ```
pub fn seconds(what: &str, value: f64) -> Result<Duration, SecondsError> {
    if (0.0..=MAX_SECONDS).contains(&value) {
        Ok(Duration::from_secs_f64(value))
    } else {
        Err(SecondsError {
            what: what.to_string(),
            value,
        })
    }
}

/// The shorter of two time limits, `None` standing for no limit: an agent's own time a
/// move and a clock's share for it.
///
/// ```
/// use std::time::Duration;
/// use gamelab_core::clock::shorter;
///
/// let (one, two) = (Duration::from_secs(1), Duration::from_secs(2));
/// assert_eq!(shorter(Some(two), Some(one)), Some(one));
/// assert_eq!(shorter(Some(two), None), Some(two));
/// assert_eq!(shorter(None, None), None);
/// ```
pub fn shorter(a: Option<Duration>, b: Option<Duration>) -> Option<Duration> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Where a game on a clock reads the time: the machine's monotonic clock, or a manual one
/// that only moves when told to, so that what a clock reads can be set exactly (tests,
/// and anything that replays a game's timing) rather than depend on how fast the machine
/// is. Clones share one time.
///
/// ```
/// use std::time::Duration;
/// use gamelab_core::clock::TimeSource;
///
/// let time = TimeSource::manual();
/// let start = time.now();
/// time.advance(Duration::from_millis(1500));
/// assert_eq!(time.now() - start, Duration::from_millis(1500));
/// assert_eq!(time.clone().now(), time.now(), "clones share the time");
/// ```
#[derive(Clone, Debug, Default)]
pub struct TimeSource(Option<Arc<ManualTime>>);

#[derive(Debug)]
struct ManualTime {
    origin: Instant,
    offset: Mutex<Duration>,
}

impl TimeSource {
    /// The machine's monotonic clock (the default).
    pub fn system() -> TimeSource {
        TimeSource(None)
    }

    /// A time that stands still until [`TimeSource::advance`] moves it.
    pub fn manual() -> TimeSource {
        TimeSource(Some(Arc::new(ManualTime {
            origin: Instant::now(),
            offset: Mutex::new(Duration::ZERO),
        })))
    }

    /// The time now.
    pub fn now(&self) -> Instant {
        match &self.0 {
            None => Instant::now(),
            Some(manual) => {
                manual.origin + *manual.offset.lock().unwrap_or_else(|e| e.into_inner())
            }
        }
    }

    /// The time passed since `then` (an instant this source gave).
    pub fn since(&self, then: Instant) -> Duration {
        self.now().saturating_duration_since(then)
    }

    /// Moves a manual time forward by `by`; the system's clock moves by itself, and is
    /// left alone.
    pub fn advance(&self, by: Duration) {
        if let Some(manual) = &self.0 {
            *manual.offset.lock().unwrap_or_else(|e| e.into_inner()) += by;
        }
    }
}

/// One side's clock under a [`TimeControl::Canadian`] or [`TimeControl::Fischer`]
/// control.
///
/// Ten seconds, then 30 s for every 5 moves: a move that outlasts the main time goes on
/// in the first period, and a move longer than what is left loses.
///
/// ```
/// use std::time::Duration;
/// use gamelab_core::clock::TimeControl;
///
/// let s = Duration::from_secs;
/// let mut clock = "10/30/5".parse::<TimeControl>().unwrap().start().unwrap();
/// assert!(clock.spend(s(4)));
/// assert_eq!(clock.reading(), (s(6), 0)); // main time: no stones
/// assert_eq!(clock.reading_after(s(8)), (s(28), 5), "into the period, still to end");
/// assert!(clock.spend(s(8)));
/// assert_eq!(clock.reading(), (s(28), 4));
/// assert!(!clock.spend(s(29)), "the time ran out");
///
/// // Fischer's increment comes after a move made in time.
/// let mut fischer = "10+2".parse::<TimeControl>().unwrap().start().unwrap();
/// assert!(fischer.spend(s(3)));
/// assert_eq!(fischer.reading(), (s(9), 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    control: TimeControl,
    left: Duration,
    /// Moves still to play in the byo-yomi period; 0 in main time (GTP's `time_left`).
    stones: u32,
}

/// The share of what is left kept back for what the clock sees and the agent does not
/// (reading the command, writing the answer, a process switch): a twentieth, at most a
/// second.
fn reserve(left: Duration) -> Duration {
    (left / 20).min(Duration::from_secs(1))
}

impl Clock {
    /// A clock known only from an outside clock's reading (GTP's `time_left` with no
    /// `time_settings` before it): `left` for the rest of the game, or for the next
    /// `stones` moves, with periods as long after them.
    ///
    /// ```
    /// use std::time::Duration;
    /// use gamelab_core::clock::Clock;
    ///
    /// let mut clock = Clock::told(Duration::from_secs(30), 5);
    /// assert_eq!(clock.control().to_string(), "0/30/5");
    /// clock.set(Duration::from_secs(12), 2); // the next `time_left`
    /// assert_eq!(clock.reading(), (Duration::from_secs(12), 2));
    /// ```
    pub fn told(left: Duration, stones: u32) -> Clock {
        let period = if stones > 0 { left } else { Duration::ZERO };
        Clock {
            control: TimeControl::Canadian {
                main: Duration::ZERO,
                period,
                stones,
            },
            left,
            stones,
        }
    }

    /// The control this clock runs under.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The time left and the moves still to play in the period (0 in main time).
    pub fn reading(&self) -> (Duration, u32) {
        (self.left, self.stones)
    }

    /// What the clock reads `elapsed` into a move, before the move ends (no increment
    /// yet, no new period): the time left, and the moves still to play in the period.
    pub fn reading_after(&self, elapsed: Duration) -> (Duration, u32) {
        match self.control {
            TimeControl::Canadian { period, stones, .. }
                if self.stones == 0 && stones > 0 && elapsed > self.left =>
            {
                // Main time is over: the first period runs.
                (period.saturating_sub(elapsed - self.left), stones)
            }
            _ => (self.left.saturating_sub(elapsed), self.stones),
        }
    }

    /// Tells `agent`, about to move in `game` on this clock, its share of it
    /// ([`Clock::move_time`] over the moves the game plans for) and the clock itself: a
    /// match and a play session brief an AI alike.
    pub fn brief<G: crate::Game, A: crate::Agent<G> + ?Sized>(&self, agent: &mut A, game: &G) {
        agent.set_move_time(Some(self.move_time(game.moves_to_plan())));
        agent.tell_clock(self);
    }

    /// Sets what an outside clock reads (GTP's `time_left`): the time left, and the moves
    /// still to play in the byo-yomi period, 0 while in main time.
    pub fn set(&mut self, left: Duration, stones: u32) {
        self.left = left;
        self.stones = stones;
    }

    /// Charges a move that took `spent`; `false` when the time ran out during it.
    pub fn spend(&mut self, spent: Duration) -> bool {
        let (period, stones) = match self.control {
            TimeControl::Unlimited => return true,
            TimeControl::Fischer { increment, .. } => {
                let in_time = spent <= self.left;
                self.left = self.left.saturating_sub(spent);
                if in_time {
                    self.left += increment;
                }
                return in_time;
            }
            TimeControl::Canadian { period, stones, .. } => (period, stones),
        };
        let mut spent = spent;
        if self.stones == 0 {
            if spent <= self.left {
                self.left -= spent;
                return true;
            }
            if stones == 0 {
                self.left = Duration::ZERO;
                return false;
            }
            // Main time ran out during the move: the rest of it is the first period's.
            spent -= self.left;
            self.left = period;
            self.stones = stones;
        }
        if spent > self.left {
            self.left = Duration::ZERO;
            return false;
        }
        self.left -= spent;
        self.stones -= 1;
        if self.stones == 0 {
            self.left = period;
            self.stones = stones;
        }
        true
    }

    /// The longest a move whose share of this clock is `share` ([`Clock::move_time`]) may
    /// take while its search has not settled on a move (the best changed at the last depth
    /// it finished): up to three shares, never more than a fifth of the time usable, and
    /// never less than the share. In a byo-yomi period, whose moves must each fit in it,
    /// the share.
    ///
    /// ```
    /// use std::time::Duration;
    /// use gamelab_core::clock::{Clock, TimeControl};
    ///
    /// // 60 s for the game, 20 moves to plan: a share of 2.95 s (a second kept back),
    /// // three of them 8.85 s.
    /// let control = TimeControl::Fischer {
    ///     main: Duration::from_secs(60),
    ///     increment: Duration::ZERO,
    /// };
    /// let clock = control.start().expect("a clock that runs");
    /// let share = clock.move_time(20);
    /// assert_eq!(share, Duration::from_millis(2950));
    /// assert_eq!(clock.unsettled_time(share), Duration::from_millis(8850));
    /// // Near the end the fifth of what is left caps it, and the share is the floor.
    /// assert_eq!(clock.unsettled_time(Duration::from_secs(20)), Duration::from_secs(20));
    /// ```
    pub fn unsettled_time(&self, share: Duration) -> Duration {
        if self.stones > 0 {
            return share;
        }
        let usable = self.left - reserve(self.left);
        (share * 3).min(usable / 5).max(share)
    }

    /// How long the next move may take when about `moves_left` moves of this side are
    /// still to come that need thought: an even share of the main time, or of the period
    /// in byo-yomi, less a reserve; in main time never less than a period's share, since
    /// the period follows; with Fischer's increment, the share and the increment.
    ///
    /// ```
    /// use std::time::Duration;
    /// use gamelab_core::clock::TimeControl;
    ///
    /// let clock = |text: &str| text.parse::<TimeControl>().unwrap().start().unwrap();
    /// let ms = Duration::from_millis;
    /// // A twentieth of what is left (at most a second) is kept back, the rest shared.
    /// assert_eq!(clock("60").move_time(20), ms(2950));
    /// assert_eq!(clock("10+2").move_time(20), ms(475 + 2000));
    /// // In main time, never less than a period's share: (30 s - 1 s) / 5.
    /// assert_eq!(clock("10/30/5").move_time(20), ms(5800));
    /// ```
    pub fn move_time(&self, moves_left: u32) -> Duration {
        let usable = self.left - reserve(self.left);
        if self.stones > 0 {
            return usable / self.stones;
        }
        let share = usable / moves_left.max(1);
        match self.control {
            TimeControl::Canadian { period, stones, .. } if stones > 0 => {
                share.max((period - reserve(period)) / stones)
            }
            // The increment comes after the move: within it, what is left is all there is.
            TimeControl::Fischer { increment, .. } => (share + increment).min(usable),
            _ => share,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_millis((s * 1000.0).round() as u64)
    }

    #[test]
    fn a_running_clock_reads_without_the_increment_and_into_the_period() {
        let fischer = "10+2".parse::<TimeControl>().unwrap().start().unwrap();
        assert_eq!(fischer.reading_after(secs(3.0)), (secs(7.0), 0));
        assert_eq!(fischer.reading_after(secs(12.0)), (Duration::ZERO, 0));
        let canadian = "10/30/5".parse::<TimeControl>().unwrap().start().unwrap();
        assert_eq!(canadian.reading_after(secs(4.0)), (secs(6.0), 0));
        // Main time over: the first period runs, five moves to play in it.
        assert_eq!(canadian.reading_after(secs(12.0)), (secs(28.0), 5));
        let absolute = "10".parse::<TimeControl>().unwrap().start().unwrap();
        assert_eq!(absolute.reading_after(secs(12.0)), (Duration::ZERO, 0));
        let mut in_period = canadian;
        assert!(in_period.spend(secs(15.0)));
        assert_eq!(in_period.reading(), (secs(25.0), 4));
        assert_eq!(in_period.reading_after(secs(5.0)), (secs(20.0), 4));
    }

    #[test]
    fn gtp_settings_read_as_the_protocol_has_them() {
        assert_eq!(
            TimeControl::from_gtp(0.0, 1.0, 0),
            Ok(TimeControl::Unlimited)
        );
        assert_eq!(
            TimeControl::from_gtp(300.0, 0.0, 0),
            Ok(TimeControl::Canadian {
                main: secs(300.0),
                period: Duration::ZERO,
                stones: 0
            })
        );
        // A number of stones without a period is absolute time too.
        assert_eq!(
            TimeControl::from_gtp(300.0, 0.0, 5),
            TimeControl::from_gtp(300.0, 0.0, 0)
        );
        for bad in [-1.0, f64::NAN, f64::INFINITY, 1e300] {
            let e = TimeControl::from_gtp(bad, 0.0, 0).unwrap_err();
            assert_eq!(e.what, "main time");
            assert!(e.to_string().starts_with("main time"), "{e}");
            let e = TimeControl::from_gtp(0.0, bad, 0).unwrap_err();
            assert!(e.to_string().starts_with("byo-yomi time"), "{e}");
        }
        assert_eq!(TimeControl::Unlimited.start(), None);
    }

    #[test]
    fn absolute_time_is_shared_among_the_moves_left_and_runs_out() {
        let mut clock = TimeControl::from_gtp(100.0, 0.0, 0)
            .unwrap()
            .start()
            .unwrap();
        // 100 s less a second's reserve, over 20 moves.
        assert_eq!(clock.move_time(20), secs(4.95));
        assert!(clock.spend(secs(60.0)));
        assert_eq!(clock.reading(), (secs(40.0), 0));
        // 40 s less a second, for the last move.
        assert_eq!(clock.move_time(0), secs(39.0));
        assert!(clock.spend(secs(30.0)));
        // 10 s less its twentieth, over two moves.
        assert_eq!(clock.move_time(2), secs(4.75));
        assert!(!clock.spend(secs(11.0)));
        assert_eq!(clock.reading(), (Duration::ZERO, 0));
    }

    #[test]
    fn fischer_increments_come_after_each_move_in_time() {
        let control: TimeControl = "10+0.5".parse().unwrap();
        let mut clock = control.start().unwrap();
        // (10 - 0.5) / 19, and the increment.
        assert_eq!(clock.move_time(19), secs(1.0));
        assert!(clock.spend(secs(4.0)));
        assert_eq!(clock.reading(), (secs(6.5), 0));
        // Never more than what is left now.
        assert_eq!(clock.move_time(0), secs(6.5 - 0.325));
        assert!(!clock.spend(secs(7.0)));
        assert_eq!(clock.reading(), (Duration::ZERO, 0));
    }

    #[test]
    fn clocks_are_written_as_they_are_read() {
        for text in ["60", "60+0.5", "300/30/5", "0.25+0"] {
            let control: TimeControl = text.parse().unwrap();
            assert_eq!(control.to_string(), text);
        }
        let e = "0/1/0".parse::<TimeControl>().unwrap_err();
        assert_eq!(e, ClockError::NoLimit("0/1/0".into()));
        assert!(e.to_string().contains("is no limit"), "{e}");
        let words: Vec<String> = ["60", "60+0.5", "0/30/5", "0/30/1"]
            .into_iter()
            .map(|t| t.parse::<TimeControl>().unwrap().describe())
            .chain([TimeControl::Unlimited.describe()])
            .collect();
        assert_eq!(
            words,
            [
                "60 s a side",
                "60 s a side and 0.5 s more a move",
                "0 s a side, then 30 s for every 5 moves",
                "0 s a side, then 30 s for every 1 move",
                "no limit"
            ]
        );
        for none in ["0", "0/0/5"] {
            let e = none.parse::<TimeControl>().unwrap_err().to_string();
            assert!(e.contains("leaves no time for a move"), "{e}");
        }
        assert_eq!(TimeControl::default(), TimeControl::Unlimited);
        for bad in [
            "", "sixty", "60+", "+1", "60/30", "60/30/x", "1/2/3/4", "60+1+1",
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("clock `{bad}`: expected MAIN")),
                "{e}"
            );
        }
        for (bad, what) in [
            ("-1", "main time"),
            ("NaN+1", "main time"),
            ("60+inf", "increment"),
            ("60/-1/5", "byo-yomi time"),
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("clock `{bad}`: {what}")),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn byo_yomi_follows_main_time_and_each_period_starts_afresh() {
        let mut clock = TimeControl::from_gtp(10.0, 30.0, 5)
            .unwrap()
            .start()
            .unwrap();
        // In main time never less than a period's share: (30 - 1) / 5.
        assert_eq!(clock.move_time(30), secs(5.8));
        // Main time runs out during this move: its last 2 s are the period's.
        assert!(clock.spend(secs(12.0)));
        assert_eq!(clock.reading(), (secs(28.0), 4));
        assert_eq!(clock.move_time(30), secs(27.0 / 4.0));
        for _ in 0..3 {
            assert!(clock.spend(secs(1.0)));
        }
        assert_eq!(clock.reading(), (secs(25.0), 1));
        // The period's last move: a new period after it.
        assert!(clock.spend(secs(20.0)));
        assert_eq!(clock.reading(), (secs(30.0), 5));
        assert!(!clock.spend(secs(31.0)));
        // What an outside clock says wins.
        clock.set(secs(7.0), 2);
        assert_eq!(clock.reading(), (secs(7.0), 2));
        assert_eq!(clock.move_time(30), secs(3.325));
    }
}
