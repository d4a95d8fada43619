//! Sparse 0/1 datasets: each row a target and the indices of its features that are 1, and
//! the CSV form article 002 writes (a target column, then one 0/1 column per feature).

use std::path::Path;

use crate::FileError;

/// A named list of features, as a game defines them (e.g. tic-tac-toe's `ttt-lines-27`).
/// Datasets and model files name their feature set, so a file is never read against the
/// wrong features.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureSet {
    pub name: String,
    /// The features' names, in column order.
    pub names: Vec<String>,
}

impl FeatureSet {
    pub fn count(&self) -> usize {
        self.names.len()
    }

    /// The CSV header: the target's column, then the features'.
    pub fn header(&self, target: &str) -> Vec<String> {
        std::iter::once(target.to_string())
            .chain(self.names.iter().cloned())
            .collect()
    }
}

/// One training example: the target and the indices of its features that are 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub target: f64,
    pub active: Vec<usize>,
}

/// Examples with one-hot features, as a sparse list.
#[derive(Clone, Debug, PartialEq)]
pub struct Dataset {
    /// The name of the feature set the rows index.
    pub features: String,
    pub rows: Vec<Row>,
}

impl Dataset {
    /// Writes the rows as CSV (header `target,feature…`, one-hot values) atomically.
    pub fn write_csv(
        &self,
        path: &Path,
        target: &str,
        features: &FeatureSet,
    ) -> Result<(), FileError> {
        let io = |e: std::io::Error| FileError::Io {
            path: path.display().to_string(),
            reason: e.to_string(),
        };
        gamelab_core::files::write_atomically(path, |out| {
            let mut w = csv::Writer::from_writer(out);
            w.write_record(features.header(target))?;
            for row in &self.rows {
                let mut record = vec![row.target.to_string()];
                let mut values = vec!["0"; features.count()];
                for &f in &row.active {
                    values[f] = "1";
                }
                record.extend(values.into_iter().map(String::from));
                w.write_record(&record)?;
            }
            w.flush()
        })
        .map_err(io)
    }

    /// Reads a dataset CSV whose header is `target` followed by the names of one of
    /// `known`; every feature value must be 0 or 1 and every target a finite number.
    pub fn read_csv(path: &Path, target: &str, known: &[FeatureSet]) -> Result<Dataset, FileError> {
        let file = gamelab_core::files::open_bounded(path, gamelab_core::files::MAX_RECORDS_BYTES)
            .map_err(|e| FileError::Io {
                path: path.display().to_string(),
                reason: e.to_string(),
            })?;
        Dataset::parse_csv(file, &path.display().to_string(), target, known)
    }

    /// [`Dataset::read_csv`] from any reader; `name` is the source errors name.
    pub fn parse_csv(
        source: impl std::io::Read,
        name: &str,
        target: &str,
        known: &[FeatureSet],
    ) -> Result<Dataset, FileError> {
        let malformed = |line: usize, reason: String| FileError::Malformed {
            path: name.to_string(),
            line,
            reason,
        };
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(source);
        let mut set: Option<&FeatureSet> = None;
        let mut rows = Vec::new();
        for (i, record) in reader.records().enumerate() {
            let line = i + 1;
            let record = record.map_err(|e| malformed(line, e.to_string()))?;
            let Some(features) = set else {
                let found: Vec<&str> = record.iter().collect();
                set = known.iter().find(|f| f.header(target) == found);
                if set.is_none() {
                    let expected: Vec<String> = known
                        .iter()
                        .map(|f| {
                            format!(
                                "`{target},{},…,{}` ({} columns, {})",
                                f.names[0],
                                f.names[f.count() - 1],
                                f.count() + 1,
                                f.name
                            )
                        })
                        .collect();
                    return Err(malformed(
                        1,
                        format!(
                            "the header must be {}; found {} columns starting `{}`",
                            expected.join(" or "),
                            found.len(),
                            found.iter().take(3).copied().collect::<Vec<_>>().join(",")
                        ),
                    ));
                }
                continue;
            };
            if record.len() != features.count() + 1 {
                return Err(malformed(
                    line,
                    format!(
                        "{} values; the header has {}",
                        record.len(),
                        features.count() + 1
                    ),
                ));
            }
            let value: f64 = record[0]
                .trim()
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| {
                    malformed(line, format!("`{}` is not a number ({target})", &record[0]))
                })?;
            let mut active = Vec::new();
            for (f, cell) in record.iter().skip(1).enumerate() {
                match cell.trim() {
                    "0" | "0.0" => {}
                    "1" | "1.0" => active.push(f),
                    other => {
                        return Err(malformed(
                            line,
                            format!("`{other}` in column {} is not 0 or 1", features.names[f]),
                        ));
                    }
                }
            }
            rows.push(Row {
                target: value,
                active,
            });
        }
        let Some(features) = set else {
            return Err(malformed(1, "the file is empty; expected a header".into()));
        };
        if rows.is_empty() {
            return Err(malformed(1, "no examples after the header".into()));
        }
        Ok(Dataset {
            features: features.name.clone(),
            rows,
        })
    }
}
