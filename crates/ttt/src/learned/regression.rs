//! The learned AI of article 002: o plays the move whose board the model scores highest, x the
//! one it scores lowest; ties are broken uniformly like every other AI.

use std::path::Path;
use std::sync::Arc;

use gamelab_core::{AgentEntry, BestMoves, FileValue, ParamSpec, SpecError, Uniform};
use gamelab_learn::{FileError, Model};

use super::features::{Cells, FeatureSet, cell};
use crate::board::{Board, Moves};
use crate::{Player, Position, Square};

/// Plays by a model's predictions.
#[derive(Clone, Debug)]
pub struct Regression {
    pub model: Arc<Model>,
}

/// Reads a model file of one of tic-tac-toe's feature sets.
pub fn load_model(path: &Path) -> Result<Model, FileError> {
    Model::load(path, &FeatureSet::known())
}

/// [`load_model`] from a model file's bytes; `name` is the source errors name.
pub fn parse_model(bytes: &[u8], name: &str) -> Result<Model, FileError> {
    Model::from_bytes(bytes, name, &FeatureSet::known())
}

/// The model's prediction for a board.
pub fn predict_board(model: &Model, cells: &Cells) -> f64 {
    let set = FeatureSet::from_name(&model.features).expect("a loaded model's set is known");
    model.predict(&set.active(cells))
}

fn cells_of<B: Board>(pos: &Position<B>) -> Cells {
    std::array::from_fn(|i| cell(pos.mark(Square::ALL[i])))
}

impl Regression {
    /// Each legal move with the model's prediction for the board it leads to.
    pub fn predictions<B: Board>(&self, pos: &Position<B>) -> Vec<(Square, f64)> {
        let mut cells = cells_of(pos);
        let mark = if pos.turn() == Player::O { 1 } else { 2 };
        pos.legal_moves()
            .into_iter()
            .map(|sq| {
                cells[sq.index()] = mark;
                let value = predict_board(&self.model, &cells);
                cells[sq.index()] = 0;
                (sq, value)
            })
            .collect()
    }
}

impl<B: Board> BestMoves<Position<B>> for Regression {
    fn best_moves(&mut self, pos: &Position<B>) -> Moves {
        let values = self.predictions(pos);
        let sign = if pos.turn() == Player::O { 1.0 } else { -1.0 };
        let best = values
            .iter()
            .map(|&(_, v)| sign * v)
            .fold(f64::NEG_INFINITY, f64::max);
        values
            .iter()
            .filter(|&&(_, v)| sign * v == best)
            .map(|&(sq, _)| sq)
            .collect()
    }

    fn move_scores(&mut self, pos: &Position<B>) -> Option<Vec<(Square, f64)>> {
        Some(self.predictions(pos))
    }
}

/// `regression:model=FILE`, for the tic-tac-toe registry.
pub fn entry<B: Board>() -> AgentEntry<Position<B>> {
    AgentEntry::new(
        "regression",
        "a learned evaluation (article 002): o maximises, x minimises the model's prediction",
        vec![ParamSpec::file(
            "model",
            None,
            &[],
            gamelab_learn::MAX_MODEL_BYTES,
            "a model file written by `gamelab train`",
        )],
        |params| {
            let FileValue::Read { path, .. } = params.file("model") else {
                unreachable!("the model has no keywords")
            };
            let model = params
                .parsed("model", |bytes| parse_model(bytes, path))
                .map_err(|e| SpecError::Invalid {
                    agent: "regression".into(),
                    reason: e.to_string(),
                })?;
            Ok(Box::new(Uniform(Regression { model })))
        },
    )
}
