//! Tic-tac-toe's own part of the package (`gamelab.ttt`): article 002's records → dataset
//! pipeline and its model files.

use std::path::PathBuf;

use gamelab_ttt::learned::features::TARGET;
use gamelab_ttt::learned::{self, FeatureSet, Scores, Targets};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::learn::{Dataset, Model, file_error};

fn feature_set(name: &str) -> PyResult<FeatureSet> {
    FeatureSet::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = FeatureSet::ALL.iter().map(|f| f.name()).collect();
        PyValueError::new_err(format!(
            "unknown feature set `{name}`; tic-tac-toe's: {}",
            known.join(", ")
        ))
    })
}

/// Article 002's dataset from finished games: `records` is the text of a records file (the
/// article's CSV or gamelab's JSON Lines; `source` names it in errors).
#[pyfunction]
#[pyo3(signature = (records, source, *, symmetries = false, targets = "average", features = "ttt-lines-27"))]
pub fn _ttt_dataset(
    py: Python<'_>,
    records: &str,
    source: &str,
    symmetries: bool,
    targets: &str,
    features: &str,
) -> PyResult<Dataset> {
    let targets = match targets {
        "average" => Targets::Average,
        "backed-up" => Targets::BackedUp,
        other => {
            return Err(PyValueError::new_err(format!(
                "targets are `average` (the article's) or `backed-up`; got `{other}`"
            )));
        }
    };
    let set = feature_set(features)?;
    let games = learned::parse_games(records, source).map_err(file_error)?;
    let data = py.detach(|| {
        let mut scores = Scores::default();
        for game in &games {
            scores.add_game(game, symmetries);
        }
        scores.dataset_for(targets, set)
    });
    Ok(Dataset {
        data,
        features: set.set(),
        target: TARGET.to_string(),
    })
}

/// A dataset CSV of one of tic-tac-toe's feature sets.
#[pyfunction]
pub fn _ttt_read_dataset(path: PathBuf) -> PyResult<Dataset> {
    let (data, set) = learned::read_dataset(&path).map_err(file_error)?;
    Ok(Dataset {
        data,
        features: set.set(),
        target: TARGET.to_string(),
    })
}

/// A model file of one of tic-tac-toe's feature sets.
#[pyfunction]
pub fn _ttt_load_model(path: PathBuf) -> PyResult<Model> {
    Ok(Model {
        model: learned::load_model(&path).map_err(file_error)?,
    })
}
