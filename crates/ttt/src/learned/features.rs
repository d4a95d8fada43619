//! Article 002's features: for each of the 8 lines a one-hot of its 27 patterns, the pattern
//! index being Σ cellᵢ·3^(2−i) over the line's three squares (empty 0, o 1, x 2).
//!
//! ```
//! use gamelab_ttt::learned::features::{
//!     FEATURES, FeatureSet, PATTERNS, active_features, feature_names, header, line_patterns,
//! };
//!
//! let mut cells = [0u8; 9];
//! cells[0] = 1; // o at (0, 0)
//! cells[6] = 2; // x at (0, 2)
//! // Column v1 (squares 0, 3, 6) reads o, empty, x: 1·9 + 0·3 + 2 = 11, the article's example.
//! assert_eq!(line_patterns(&cells)[3], 11);
//! assert_eq!(active_features(&cells)[3], 3 * PATTERNS + 11);
//! assert_eq!(feature_names()[3 * PATTERNS + 11], "v1-11");
//! assert_eq!((header().len(), header()[0].as_str()), (1 + FEATURES, "ave"));
//!
//! // By turn: with o to move the first 216 features, with x to move the next 216.
//! let by_turn = FeatureSet::from_name("ttt-lines-27-by-turn").unwrap();
//! assert_eq!(by_turn.count(), 2 * FEATURES);
//! assert_eq!(by_turn.active(&cells), active_features(&cells));
//! cells[4] = 1; // a third mark: x to move
//! assert_eq!(by_turn.active(&cells)[0], active_features(&cells)[0] + FEATURES);
//! assert_eq!(by_turn.names()[FEATURES], "x:h1-0");
//! ```

use crate::{LINE_NAMES, LINES, Mark};

/// The name of the target column in article 002's CSV: the average outcome score.
pub const TARGET: &str = "ave";

/// Patterns per line.
pub const PATTERNS: usize = 27;
/// Features: 8 lines × 27 patterns.
pub const FEATURES: usize = 8 * PATTERNS;

/// A board as the article stores it: 9 cells, 0 empty, 1 o, 2 x, row by row.
pub type Cells = [u8; 9];

/// A mark as the article stores it in a cell.
pub fn cell(mark: Mark) -> u8 {
    mark as u8
}

/// The pattern index of each line.
pub fn line_patterns(cells: &Cells) -> [usize; 8] {
    std::array::from_fn(|l| {
        LINES[l]
            .iter()
            .fold(0, |acc, sq| acc * 3 + cells[sq.index()] as usize)
    })
}

/// The indices of the features that are 1 (exactly one per line).
pub fn active_features(cells: &Cells) -> [usize; 8] {
    let p = line_patterns(cells);
    std::array::from_fn(|l| l * PATTERNS + p[l])
}

/// The CSV header of article 002: `ave,h1-0,…,d2-26`.
pub fn header() -> Vec<String> {
    FeatureSet::Lines.header()
}

/// Which features a model reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureSet {
    /// Article 002's 216 line patterns.
    Lines,
    /// The same 216 patterns, once for boards with o to move and once for x to move
    /// (432): a line with two o and a blank means a win with o to move and a threat to
    /// block with x to move, which one set of weights cannot tell apart.
    LinesByTurn,
}

impl FeatureSet {
    pub const ALL: [FeatureSet; 2] = [FeatureSet::Lines, FeatureSet::LinesByTurn];

    /// The name in model files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            FeatureSet::Lines => "ttt-lines-27",
            FeatureSet::LinesByTurn => "ttt-lines-27-by-turn",
        }
    }

    /// The feature set of that [`FeatureSet::name`]; `None` for any other.
    pub fn from_name(name: &str) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|f| f.name() == name)
    }

    /// How many features it has.
    pub fn count(self) -> usize {
        match self {
            FeatureSet::Lines => FEATURES,
            FeatureSet::LinesByTurn => 2 * FEATURES,
        }
    }

    /// Its features' names: `h1-0` … `d2-26`, by turn `o:h1-0` … `x:d2-26`.
    pub fn names(self) -> Vec<String> {
        match self {
            FeatureSet::Lines => feature_names(),
            FeatureSet::LinesByTurn => ["o", "x"]
                .iter()
                .flat_map(|turn| {
                    feature_names()
                        .into_iter()
                        .map(move |n| format!("{turn}:{n}"))
                })
                .collect(),
        }
    }

    /// Its dataset CSV's header: the target, then the features' names.
    pub fn header(self) -> Vec<String> {
        self.set().header(TARGET)
    }

    /// The feature set as gamelab-learn's datasets and model files name it.
    pub fn set(self) -> gamelab_learn::FeatureSet {
        gamelab_learn::FeatureSet {
            name: self.name().to_string(),
            names: self.names(),
        }
    }

    /// Every feature set, as the dataset and model readers check files against.
    pub fn known() -> Vec<gamelab_learn::FeatureSet> {
        FeatureSet::ALL.map(FeatureSet::set).to_vec()
    }

    /// The indices of the features that are 1 for a board.
    pub fn active(self, cells: &Cells) -> [usize; 8] {
        let base = active_features(cells);
        match self {
            FeatureSet::Lines => base,
            FeatureSet::LinesByTurn => {
                let x_to_move = cells.iter().filter(|&&c| c != 0).count() % 2 == 1;
                let offset = if x_to_move { FEATURES } else { 0 };
                base.map(|f| f + offset)
            }
        }
    }
}

/// `h1-0` … `d2-26`.
pub fn feature_names() -> Vec<String> {
    LINE_NAMES
        .iter()
        .flat_map(|name| (0..PATTERNS).map(move |i| format!("{name}-{i}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_indices_follow_the_seed() {
        // the article's example: the column (o, empty, x) → 1·9 + 0·3 + 2 = 11
        let mut cells = [0u8; 9];
        cells[0] = 1;
        cells[6] = 2;
        assert_eq!(line_patterns(&cells)[3], 11, "v1 = squares 0, 3, 6");
        assert_eq!(line_patterns(&[0; 9]), [0; 8]);
        assert_eq!(line_patterns(&[2; 9]), [26; 8]);
        let active = active_features(&cells);
        assert_eq!(active[0], 9, "h1 = (o, empty, empty) = 9");
        assert_eq!(active[3], 3 * 27 + 11);
    }

    #[test]
    fn header_names_every_feature() {
        let h = header();
        assert_eq!(h.len(), 1 + 216);
        assert_eq!(h[0], "ave");
        assert_eq!(h[1], "h1-0");
        assert_eq!(h[27], "h1-26");
        assert_eq!(h[28], "h2-0");
        assert_eq!(h[216], "d2-26");
    }
}
