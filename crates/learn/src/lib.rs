//! gamelab-learn: the generic half of article 002 — sparse datasets, least squares and model
//! files — below the games. A game crate brings its own features (which squares or
//! patterns make a row's active features) and its own AI that plays by a model.
//!
//! A dataset of two features read from CSV, fitted, saved as a model file and read back:
//!
//! ```
//! use gamelab_learn::{Dataset, FeatureSet, Model, fit};
//!
//! let set = FeatureSet { name: "two".into(), names: vec!["a".into(), "b".into()] };
//! // y = 1 + 2·a − b
//! let csv = "y,a,b\n1,0,0\n3,1,0\n0,0,1\n2,1,1\n";
//! let data = Dataset::parse_csv(csv.as_bytes(), "four.csv", "y", std::slice::from_ref(&set))?;
//! assert_eq!((data.rows.len(), &data.rows[3].active[..]), (4, &[0, 1][..]));
//! let fitted = fit(&data.rows, set.count(), 1e-9)?;
//! assert!((fitted.predict(&[0]) - 3.0).abs() < 1e-6);
//!
//! let model = Model::new(&fitted, &set, 1e-9, data.rows.len());
//! let dir = std::env::temp_dir().join(format!("gamelab-doc-learn-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("model.json");
//! model.save(&path)?;
//! assert_eq!(Model::load(&path, std::slice::from_ref(&set))?, model);
//! // A model of features this reader does not know is refused, saying which it knows.
//! let other = FeatureSet { name: "other".into(), names: set.names.clone() };
//! let error = Model::load(&path, &[other]).unwrap_err().to_string();
//! std::fs::remove_dir_all(&dir)?;
//! assert!(error.ends_with("features `two`; this gamelab knows other"), "{error}");
//!
//! // A dataset whose header is no known feature set's says what it expected.
//! assert!(Dataset::parse_csv("y,c\n1,0\n".as_bytes(), "bad.csv", "y", &[set]).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

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
