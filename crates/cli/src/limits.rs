//! The ranges of the numbers the command line takes, checked where they are read (clap
//! value parsers), so that a count, an id or a thread count out of range is a clear error
//! rather than no work, an overflow or an allocation that aborts.

/// Most games per side of a match: far beyond any run (10^12 games take days), yet the
/// game count and every index stay far from overflowing.
pub const MAX_GAMES_PER_SIDE: u64 = 1_000_000_000_000;
/// Most worker threads.
pub const MAX_THREADS: usize = 256;

fn in_range<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    text: &str,
    min: T,
    max: T,
    what: &str,
) -> Result<T, String> {
    match text.trim().parse::<T>() {
        Ok(n) if n >= min && n <= max => Ok(n),
        _ => Err(format!("expected {what} from {min} to {max}")),
    }
}

/// `-n`: games per side (or per pair).
pub fn games_per_side(text: &str) -> Result<u64, String> {
    in_range(text, 1, MAX_GAMES_PER_SIDE, "a number of games")
}

/// `--threads`.
pub fn threads(text: &str) -> Result<usize, String> {
    in_range(text, 1, MAX_THREADS, "a number of threads")
}

/// `diverge --limit`: seeds to try.
pub fn seeds(text: &str) -> Result<u64, String> {
    in_range(text, 1, MAX_GAMES_PER_SIDE, "a number of seeds")
}

fn finite_in(text: &str, min: f64, max: f64, what: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        // NaN fails both comparisons, infinities the range.
        Ok(x) if x >= min && x <= max => Ok(x),
        _ => Err(format!("expected {what} from {min} to {max}")),
    }
}

/// Most seconds a search may be given.
pub const MAX_SECONDS: f64 = 86_400.0;

/// A time limit in seconds: more than 0, at most a day.
pub fn seconds(text: &str) -> Result<f64, String> {
    match finite_in(text, 0.0, MAX_SECONDS, "a number of seconds")? {
        0.0 => Err(format!(
            "expected a number of seconds above 0, at most {MAX_SECONDS}"
        )),
        x => Ok(x),
    }
}

/// A ridge penalty: 0 (none) up to a million.
pub fn ridge(text: &str) -> Result<f64, String> {
    finite_in(text, 0.0, 1e6, "a ridge penalty")
}

/// Games of a training set played and kept in memory: 2 to ten million.
pub fn training_games(text: &str) -> Result<u64, String> {
    in_range(text, 2, 10_000_000, "a number of games")
}

/// `--balanced`: how far from even an opening may be, in the judge's units.
pub fn window(text: &str) -> Result<f64, String> {
    finite_in(text, 0.0, 1e6, "a window")
}

/// Every core of this machine (one when it cannot be told): the default thread count.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
}
