//! Self-play for training: games of the learned engine against itself from varied
//! openings, in the form the training reads (WTHOR records), so that a refit sees the
//! positions its own search reaches, labelled by how they end under its play (and near the
//! end by the exact solver, as for the WTHOR games).

use std::sync::Arc;

use gamelab_core::arena::{self, OpeningError};
use gamelab_core::{Agent, Side, game_rng};
use rayon::prelude::*;

use crate::ai::Engine;
use crate::engine::learned::PatternModel;
use crate::formats::wthor::{WthorGame, recorded_black_count};
use crate::{Move, Othello};

/// `count` games of `engine:level=<level>` (its default cuts) with `model` against itself, one from each of
/// `count` distinct random openings of `plies` plies drawn from `seed`. The engine
/// searches to a fixed depth with a fresh table each game, so the same arguments give the
/// same games on any machine and any number of threads.
pub fn self_play(
    model: &Arc<PatternModel>,
    level: u32,
    count: u64,
    plies: u32,
    seed: u64,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<WthorGame>, OpeningError> {
    let openings = arena::openings::<Othello>(count, plies, seed)?;
    Ok(openings
        .par_iter()
        .map(|opening| {
            let mut engine = Engine::new(model.clone(), level, None);
            // The engine draws nothing at a fixed depth; the stream is only the trait's.
            let mut rng = game_rng(seed, 0, Side::First);
            let mut pos = Othello::new();
            let mut moves = Vec::with_capacity(60);
            let mut play = |pos: &mut Othello, mv: Move| {
                if let Move::Place(sq) = mv {
                    moves.push(sq);
                }
                pos.play_unchecked(mv);
            };
            for &mv in opening {
                play(&mut pos, mv);
            }
            while !pos.is_over() {
                let mv = if pos.legal_mask() == 0 {
                    Move::Pass
                } else {
                    engine.choose(&pos, &mut rng)
                };
                play(&mut pos, mv);
            }
            progress(1);
            let (black, white) = pos.counts();
            let black_discs = recorded_black_count(black, white) as u8;
            WthorGame {
                tournament: 0,
                black_player: 0,
                white_player: 0,
                black_discs,
                black_theoretical: black_discs,
                moves,
            }
        })
        .collect())
}
