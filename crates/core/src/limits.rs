//! The ranges of the numbers front ends take from users (the command line's options, the
//! Python package's arguments), with the one message each gives when a number is out of
//! its range — so that a count, a thread count or a time out of range is a clear error
//! rather than no work, an overflow or an allocation that aborts.
//!
//! ```
//! use gamelab_core::limits::{self, GAMES_PER_SIDE, RIDGE, THREADS};
//!
//! assert_eq!(THREADS.check(8), Ok(8));
//! let error = GAMES_PER_SIDE.check(0).unwrap_err();
//! assert_eq!(error.to_string(), "expected a number of games from 1 to 1000000000000");
//! assert!(RIDGE.check(f64::NAN).is_err(), "NaN is in no range");
//! assert_eq!(limits::seconds(0.5), Ok(0.5));
//! assert!(limits::seconds(0.0).is_err() && limits::seconds(f64::INFINITY).is_err());
//! assert!((1..=THREADS.max).contains(&limits::all_cores()));
//! ```

use std::fmt::Display;

use thiserror::Error;

/// A number out of its range: the message says what is expected.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{expected}")]
pub struct OutOfRange {
    /// `expected a number of games from 1 to …`.
    pub expected: String,
}

/// A closed range of accepted values and what the values are, for the message.
#[derive(Clone, Copy, Debug)]
pub struct Range<T> {
    pub min: T,
    pub max: T,
    pub what: &'static str,
}

impl<T: PartialOrd + Display + Copy> Range<T> {
    /// The value when it is in range (NaN never is), else the message.
    pub fn check(&self, value: T) -> Result<T, OutOfRange> {
        if value >= self.min && value <= self.max {
            Ok(value)
        } else {
            Err(self.out_of_range())
        }
    }

    /// The error of a value out of this range, or of text that is no value at all.
    pub fn out_of_range(&self) -> OutOfRange {
        OutOfRange {
            expected: self.expected(),
        }
    }

    /// What is expected, as the error says it.
    pub fn expected(&self) -> String {
        format!("expected {} from {} to {}", self.what, self.min, self.max)
    }
}

/// Games per side of a match (or per pair of a tournament): far beyond any run (10^12
/// games take days), yet the game count and every index stay far from overflowing.
pub const GAMES_PER_SIDE: Range<u64> = Range {
    min: 1,
    max: 1_000_000_000_000,
    what: "a number of games",
};

/// Worker threads.
pub const THREADS: Range<usize> = Range {
    min: 1,
    max: 256,
    what: "a number of threads",
};

/// Lines of a multi-line analysis: more than any game here has legal moves (Othello's
/// most is 33) is every move.
pub const LINES: Range<usize> = Range {
    min: 1,
    max: 64,
    what: "a number of lines",
};

/// Seeds a divergence search tries.
pub const SEEDS: Range<u64> = Range {
    min: 1,
    max: 1_000_000_000_000,
    what: "a number of seeds",
};

/// A ridge penalty: 0 (none) up to a million.
pub const RIDGE: Range<f64> = Range {
    min: 0.0,
    max: 1e6,
    what: "a ridge penalty",
};

/// How far from even an opening may be, in the judge's units.
pub const WINDOW: Range<f64> = Range {
    min: 0.0,
    max: 1e6,
    what: "a window",
};

/// Games of a training set played and kept in memory.
pub const TRAINING_GAMES: Range<u64> = Range {
    min: 2,
    max: 10_000_000,
    what: "a number of games",
};

/// Plies of a random opening.
pub const OPENING_PLIES: Range<u32> = Range {
    min: 0,
    max: 30,
    what: "a number of plies",
};

/// Most seconds a search may be given.
pub const MAX_SECONDS: f64 = 86_400.0;

/// A time limit in seconds: more than 0, at most a day.
pub fn seconds(value: f64) -> Result<f64, OutOfRange> {
    if value > 0.0 && value <= MAX_SECONDS {
        Ok(value)
    } else {
        Err(OutOfRange {
            expected: format!("expected a number of seconds above 0, at most {MAX_SECONDS}"),
        })
    }
}

/// Every core of this machine (one when it cannot be told): the default thread count.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(THREADS.max))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_say_what_they_expect() {
        assert_eq!(GAMES_PER_SIDE.check(5), Ok(5));
        assert_eq!(
            GAMES_PER_SIDE.check(0),
            Err(OutOfRange {
                expected: "expected a number of games from 1 to 1000000000000".into()
            })
        );
        assert!(RIDGE.check(f64::NAN).is_err());
        assert!(WINDOW.check(f64::INFINITY).is_err());
        assert_eq!(seconds(0.5), Ok(0.5));
        assert!(seconds(0.0).is_err() && seconds(f64::NAN).is_err());
    }
}
