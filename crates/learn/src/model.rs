//! Model files: JSON with the feature set's name and features, the weights, and how the
//! model was trained. The format is the same for every game; the game says which feature
//! sets it can read.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::FileError;
use crate::dataset::FeatureSet;
use crate::fit::Fitted;

const FORMAT: &str = "gamelab-regression";

/// The largest model file read.
pub const MAX_MODEL_BYTES: u64 = 256 << 20;

/// A trained linear evaluation: intercept plus the weights of the active features.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    pub format: String,
    pub version: u32,
    pub features: String,
    pub feature_names: Vec<String>,
    pub intercept: f64,
    pub weights: Vec<f64>,
    pub ridge: f64,
    pub training_rows: usize,
    pub rmse: f64,
}

impl Model {
    /// The model file of `fitted`, over `features`, fitted with `ridge` to
    /// `training_rows` rows.
    pub fn new(fitted: &Fitted, features: &FeatureSet, ridge: f64, training_rows: usize) -> Model {
        Model {
            format: FORMAT.into(),
            version: 1,
            features: features.name.clone(),
            feature_names: features.names.clone(),
            intercept: fitted.intercept,
            weights: fitted.weights.clone(),
            ridge,
            training_rows,
            rmse: fitted.rmse,
        }
    }

    /// The prediction for an example given by its active features.
    #[inline]
    pub fn predict(&self, active: &[usize]) -> f64 {
        self.intercept + active.iter().map(|&f| self.weights[f]).sum::<f64>()
    }

    /// Writes the model as pretty JSON by [`gamelab_core::files::write_atomically`]: a
    /// failure or a kill leaves the old file whole or the new one (at worst with a
    /// complete copy `.NAME.XXXXXX` beside it, which the next write removes).
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        let io = |e: std::io::Error| FileError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        };
        gamelab_core::files::write_atomically(path, |w| {
            serde_json::to_writer_pretty(&mut *w, self)?;
            w.write_all(b"\n")
        })
        .map_err(io)
    }

    /// Reads a model file and checks it against the feature sets the caller can use.
    pub fn load(path: &Path, known: &[FeatureSet]) -> Result<Model, FileError> {
        let p = path.display().to_string();
        let io = |reason: String| FileError::Io {
            path: p.clone(),
            reason,
        };
        let bytes = gamelab_core::files::read_regular(path, MAX_MODEL_BYTES)
            .map_err(|e| io(e.to_string()))?;
        Model::from_bytes(&bytes, &p, known)
    }

    /// [`Model::load`] from a model file's bytes; `name` is the source errors name.
    pub fn from_bytes(bytes: &[u8], name: &str, known: &[FeatureSet]) -> Result<Model, FileError> {
        let text = std::str::from_utf8(bytes).map_err(|_| FileError::Io {
            path: name.to_string(),
            reason: "not UTF-8 text".into(),
        })?;
        Model::parse(text, name, known)
    }

    /// [`Model::load`] from a model file's text; `name` is the source errors name.
    pub fn parse(text: &str, name: &str, known: &[FeatureSet]) -> Result<Model, FileError> {
        let p = name.to_string();
        let model: Model = serde_json::from_str(text).map_err(|e| FileError::Malformed {
            path: p.clone(),
            line: e.line(),
            reason: format!("not a gamelab model ({e})"),
        })?;
        let bad = |reason: String| FileError::Malformed {
            path: p.clone(),
            line: 1,
            reason,
        };
        if model.format != FORMAT || model.version != 1 {
            return Err(bad(format!(
                "format `{}` version {}; expected `{FORMAT}` version 1",
                model.format, model.version
            )));
        }
        let Some(set) = known.iter().find(|f| f.name == model.features) else {
            let names: Vec<&str> = known.iter().map(|f| f.name.as_str()).collect();
            return Err(bad(format!(
                "features `{}`; this gamelab knows {}",
                model.features,
                names.join(", ")
            )));
        };
        if model.weights.len() != set.count() || model.feature_names != set.names {
            return Err(bad(format!(
                "the model has {} weights ({} names); {} has {} ({} … {})",
                model.weights.len(),
                model.feature_names.len(),
                set.name,
                set.count(),
                set.names[0],
                set.names[set.count() - 1]
            )));
        }
        if !model.intercept.is_finite() || model.weights.iter().any(|w| !w.is_finite()) {
            return Err(bad("a weight is not a finite number".into()));
        }
        Ok(model)
    }
}
