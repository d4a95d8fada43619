//! gamelab-learn (seed 002): game records → per-position outcome averages → line-pattern
//! features → least squares → a model file → an AI that plays by the model.
//!
//! The pieces are generic where that costs nothing (scores and fitting work on any
//! feature vector); the feature extractor and the AI are tic-tac-toe's for now.

pub mod dataset;
pub mod features;
pub mod fit;
pub mod model;
pub mod regression_ai;

pub use regression_ai::catalogue;

/// Why a records, dataset or model file cannot be read or written: the file, and the line
/// where it can be told.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum FileError {
    #[error("{path}: {reason}")]
    Io { path: String, reason: String },
    #[error("{path}, line {line}: {reason}")]
    Malformed {
        path: String,
        line: usize,
        reason: String,
    },
}
