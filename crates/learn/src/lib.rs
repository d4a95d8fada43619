//! gamelab-learn: the generic half of article 002 — sparse datasets, least squares and model
//! files — below the games. A game crate brings its own features (which squares or
//! patterns make a row's active features) and its own AI that plays by a model.

pub mod dataset;
pub mod fit;
pub mod model;
pub mod sparse;

pub use dataset::{Dataset, FeatureSet, Row};
pub use fit::{DEFAULT_RIDGE, FitError, Fitted, fit, fit_dense};
pub use model::{MAX_MODEL_BYTES, Model};
pub use sparse::{CgOptions, SparseFit, SparseRows, fit_sparse};

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
