//! FFO test suites: `<id> <64 squares> <side> <score> <best move>` a line, `#` comments.

use thiserror::Error;

use crate::Othello;

/// One position of an FFO file.
#[derive(Clone, Debug)]
pub struct FfoPosition {
    pub id: u32,
    pub position: Othello,
    /// The exact score, side to move's discs minus the opponent's.
    pub expected: i32,
    /// The best move as the file writes it.
    pub best: String,
}

#[derive(Debug, Error, PartialEq)]
#[error("{name}, line {line}: {reason}")]
pub struct FfoError {
    pub name: String,
    pub line: usize,
    pub reason: String,
}

/// The largest suite file read: FFO suites are a few kilobytes, and `/dev/zero` or an
/// endless pipe must end in an error.
pub const MAX_SUITE_BYTES: u64 = 16 << 20;

/// Every position of the FFO file at `path` (a file, a pipe), read to
/// [`MAX_SUITE_BYTES`]; the error says which file and why.
pub fn read(path: &std::path::Path) -> Result<Vec<FfoPosition>, FfoReadError> {
    let name = path.display().to_string();
    let text = gamelab_core::files::read_text_bounded(path, MAX_SUITE_BYTES).map_err(|error| {
        FfoReadError::Io {
            name: name.clone(),
            error,
        }
    })?;
    Ok(parse(&text, &name)?)
}

/// Why an FFO file cannot be used: it does not read, or a line is no position.
#[derive(Debug, Error)]
pub enum FfoReadError {
    #[error("cannot read {name}: {error}")]
    Io { name: String, error: std::io::Error },
    #[error(transparent)]
    Suite(#[from] FfoError),
}

/// Reads every position of an FFO file's text; `name` is the source errors name.
pub fn parse(text: &str, name: &str) -> Result<Vec<FfoPosition>, FfoError> {
    let mut positions = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let error = |reason: String| FfoError {
            name: name.to_string(),
            line: number + 1,
            reason,
        };
        let malformed = || error("not `<id> <board> <side> <score> <move>`".into());
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() < 5 {
            return Err(malformed());
        }
        let id: u32 = f[0].parse().map_err(|_| malformed())?;
        let position = Othello::from_board_string(&format!("{} {}", f[1], f[2]))
            .map_err(|e| error(e.to_string()))?;
        let expected: i32 = f[3]
            .parse()
            .ok()
            .filter(|s: &i32| s.abs() <= 64)
            .ok_or_else(|| error(format!("`{}` is not a score from -64 to 64", f[3])))?;
        positions.push(FfoPosition {
            id,
            position,
            expected,
            best: f[4].to_string(),
        });
    }
    Ok(positions)
}
