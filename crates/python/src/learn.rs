//! Article 002's learning in Python: datasets of one-hot features and linear models fitted
//! by least squares (gamelab-learn, the same code as `gamelab dataset` and `train`). The
//! package turns them into numpy arrays when numpy is installed.

use std::path::PathBuf;

use gamelab_learn::{DEFAULT_RIDGE, FeatureSet, FileError};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

/// A file error as Python's: reading and writing are `OSError`, a malformed file a
/// `ValueError`; the message names the file either way.
pub fn file_error(e: FileError) -> PyErr {
    match e {
        FileError::Io { .. } => PyOSError::new_err(e.to_string()),
        FileError::Malformed { .. } => PyValueError::new_err(e.to_string()),
    }
}

/// Training examples: each a target and the features that are 1 (one-hot), in the
/// feature set's column order.
#[pyclass(module = "gamelab", name = "Dataset", frozen)]
pub struct Dataset {
    pub data: gamelab_learn::Dataset,
    pub features: FeatureSet,
    /// The target column's name in the CSV (`ave` for article 002).
    pub target: String,
}

#[pymethods]
impl Dataset {
    fn __len__(&self) -> usize {
        self.data.rows.len()
    }

    /// The feature set's name (`ttt-lines-27`).
    #[getter]
    fn features(&self) -> &str {
        &self.features.name
    }

    /// The features' names, in column order (`h1-0` … `d2-26`).
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.features.names.clone()
    }

    /// The target column's name.
    #[getter]
    fn target_name(&self) -> &str {
        &self.target
    }

    /// Each row's target.
    #[getter]
    fn targets(&self) -> Vec<f64> {
        self.data.rows.iter().map(|r| r.target).collect()
    }

    /// Each row's active features (column indices).
    #[getter]
    fn active(&self) -> Vec<Vec<usize>> {
        self.data.rows.iter().map(|r| r.active.clone()).collect()
    }

    /// `(X, y)` as numpy arrays: the one-hot feature matrix (rows × features, 0/1) and
    /// the targets (needs numpy).
    fn to_numpy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py()
            .import("gamelab._learn")?
            .call_method1("dataset_arrays", (slf,))
    }

    /// Writes the article's CSV (target column, then one 0/1 column per feature),
    /// atomically: a file already there is replaced only once the new one is whole.
    fn to_csv(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| self.data.write_csv(&path, &self.target, &self.features))
            .map_err(file_error)
    }

    /// Fits the intercept and one weight per feature by least squares with a small ridge
    /// term (the article's features are collinear; see gamelab-learn).
    #[pyo3(signature = (ridge = DEFAULT_RIDGE))]
    fn fit(&self, py: Python<'_>, ridge: f64) -> PyResult<Model> {
        crate::args::check("ridge", gamelab_core::limits::RIDGE, ridge)?;
        let fitted = py
            .detach(|| gamelab_learn::fit(&self.data.rows, self.features.count(), ridge))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Model {
            model: gamelab_learn::Model::new(&fitted, &self.features, ridge, self.data.rows.len()),
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "<gamelab Dataset: {} rows, {} features ({})>",
            self.data.rows.len(),
            self.features.count(),
            self.features.name
        )
    }
}

/// A linear evaluation: intercept plus the weights of the active features. Saved, it is
/// what `regression:model=FILE` plays by.
#[pyclass(module = "gamelab", name = "Model", frozen)]
pub struct Model {
    pub model: gamelab_learn::Model,
}

#[pymethods]
impl Model {
    #[getter]
    fn intercept(&self) -> f64 {
        self.model.intercept
    }

    /// One weight per feature, in column order.
    #[getter]
    fn weights(&self) -> Vec<f64> {
        self.model.weights.clone()
    }

    #[getter]
    fn features(&self) -> &str {
        &self.model.features
    }

    #[getter]
    fn feature_names(&self) -> Vec<String> {
        self.model.feature_names.clone()
    }

    /// Root-mean-square error on the training rows.
    #[getter]
    fn rmse(&self) -> f64 {
        self.model.rmse
    }

    #[getter]
    fn ridge(&self) -> f64 {
        self.model.ridge
    }

    #[getter]
    fn training_rows(&self) -> usize {
        self.model.training_rows
    }

    /// The prediction for a row given by its active features.
    fn predict(&self, active: Vec<usize>) -> PyResult<f64> {
        let n = self.model.weights.len();
        if let Some(&bad) = active.iter().find(|&&f| f >= n) {
            return Err(PyValueError::new_err(format!(
                "feature {bad} is not one of the model's {n} (0 to {})",
                n - 1
            )));
        }
        Ok(self.model.predict(&active))
    }

    /// The weights as a numpy array (needs numpy).
    fn to_numpy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py()
            .import("gamelab._learn")?
            .call_method1("model_weights", (slf,))
    }

    /// Writes the model file (JSON), atomically.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| self.model.save(&path)).map_err(file_error)
    }

    fn __repr__(&self) -> String {
        format!(
            "<gamelab Model: {} weights ({}), intercept {:.4}, RMSE {:.4} on {} rows>",
            self.model.weights.len(),
            self.model.features,
            self.model.intercept,
            self.model.rmse,
            self.model.training_rows
        )
    }
}
