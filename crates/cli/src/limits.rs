//! The command line's value parsers for numbers: the text read, then checked against the
//! range core gives it (`gamelab_core::limits`, shared with the Python package), so that
//! both say the same thing about a number out of range.

use gamelab_core::limits::{self, OutOfRange, Range};

pub use gamelab_core::limits::all_cores;

fn in_range<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    text: &str,
    range: Range<T>,
) -> Result<T, OutOfRange> {
    match text.trim().parse::<T>() {
        Ok(n) => range.check(n),
        Err(_) => Err(range.out_of_range()),
    }
}

/// `-n`: games per side (or per pair).
pub fn games_per_side(text: &str) -> Result<u64, OutOfRange> {
    in_range(text, limits::GAMES_PER_SIDE)
}

/// `--threads`.
pub fn threads(text: &str) -> Result<usize, OutOfRange> {
    in_range(text, limits::THREADS)
}

/// `analyse --lines`: the best lines to show.
pub fn lines(text: &str) -> Result<usize, OutOfRange> {
    in_range(text, limits::LINES)
}

/// `diverge --limit`: seeds to try.
pub fn seeds(text: &str) -> Result<u64, OutOfRange> {
    in_range(text, limits::SEEDS)
}

/// A time limit in seconds: more than 0, at most a day.
pub fn seconds(text: &str) -> Result<f64, OutOfRange> {
    match text.trim().parse::<f64>() {
        Ok(x) => limits::seconds(x),
        Err(_) => limits::seconds(f64::NAN),
    }
}

/// A ridge penalty: 0 (none) up to a million.
pub fn ridge(text: &str) -> Result<f64, OutOfRange> {
    in_range(text, limits::RIDGE)
}

/// Games of a training set played and kept in memory.
pub fn training_games(text: &str) -> Result<u64, OutOfRange> {
    in_range(text, limits::TRAINING_GAMES)
}

/// `--balanced`: how far from even an opening may be, in the judge's units.
pub fn window(text: &str) -> Result<f64, OutOfRange> {
    in_range(text, limits::WINDOW)
}
