//! Article 002 for tic-tac-toe: line-pattern features, datasets from game records, and the AI
//! that plays by a model fitted with gamelab-learn.

pub mod features;
pub mod records;
pub mod regression;

pub use features::{Cells, FeatureSet};
pub use records::{Game, Scores, Targets, csv_line, parse_games, read_dataset, read_games};
pub use regression::{Regression, load_model, predict_board};
