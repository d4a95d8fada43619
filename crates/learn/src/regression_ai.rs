//! The learned AI of seed 002: o plays the move whose board the model scores highest, x the
//! one it scores lowest; ties are broken uniformly like every other AI.

use std::path::Path;
use std::sync::Arc;

use gamelab_core::{AgentEntry, BestMoves, ParamSpec, Registry, SpecError, Uniform};
use gamelab_ttt::board::{Board, Moves};
use gamelab_ttt::{Player, Position, Square};

use crate::features::{Cells, cell};
use crate::model::Model;

/// Plays by a model's predictions.
#[derive(Clone, Debug)]
pub struct Regression {
    pub model: Arc<Model>,
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
                let value = self.model.predict_board(&cells);
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

/// Every tic-tac-toe AI: the catalogue of gamelab-ttt plus `regression:model=FILE`. The
/// CLI and the web app build agents from this one registry.
pub fn catalogue<B: Board>() -> Registry<Position<B>> {
    let mut registry = gamelab_ttt::ai::registry::<B>();
    registry.register(AgentEntry::new(
        "regression",
        "a learned evaluation (seed 002): o maximises, x minimises the model's prediction",
        vec![ParamSpec::text(
            "model",
            None,
            "a model file written by `gamelab train`",
        )],
        |params| {
            let path = params.text("model");
            let model = Model::load(Path::new(path)).map_err(|e| SpecError::Invalid {
                agent: "regression".into(),
                reason: e.to_string(),
            })?;
            Ok(Box::new(Uniform(Regression {
                model: Arc::new(model),
            })))
        },
    ));
    registry
}
