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

/// How self-play games are played.
#[derive(Clone, Copy, Debug)]
pub struct SelfPlay {
    /// The engine's level (its default cuts) on both sides.
    pub level: u32,
    /// Games, one from each of as many distinct random openings.
    pub games: u64,
    /// Random plies of each opening.
    pub opening_plies: u32,
    /// Draws the openings.
    pub seed: u64,
    /// Both sides play perfectly from this many empties (the solver's moves), rather than
    /// from the level's own reach: every position from there on is then labelled by its
    /// exact score, the game's result (`None`: the level's reach).
    pub exact_from: Option<u32>,
}

/// `how.games` games of `engine:level=<level>` with `model` against itself, each from its
/// own random opening. The engine searches to a fixed depth with a fresh table each game,
/// so the same arguments give the same games on any machine and any number of threads.
///
/// ```
/// use gamelab_othello::endgame::Solver;
/// use gamelab_othello::selfplay::{SelfPlay, self_play};
/// use gamelab_othello::{Move, Othello};
///
/// let how = SelfPlay { level: 1, games: 2, opening_plies: 6, seed: 1, exact_from: Some(12) };
/// let games = self_play(&gamelab_othello::learned::shipped(), how, &|_| {})?;
/// assert_eq!(games.len(), 2);
/// // Perfect play from 12 empties: the result is the exact score of the position there.
/// for game in &games {
///     let mut pos = Othello::new();
///     for &sq in &game.moves {
///         pos.pass_if_forced(Move::Place(sq));
///         if pos.empties() == 12 {
///             break;
///         }
///         pos.play_unchecked(Move::Place(sq));
///     }
///     let (score, _) = Solver::default().solve(&pos);
///     let black = if pos.black_to_move() { score } else { -score };
///     assert_eq!(black, 2 * i32::from(game.black_discs) - 64);
/// }
/// # Ok::<(), gamelab_core::arena::OpeningError>(())
/// ```
pub fn self_play(
    model: &Arc<PatternModel>,
    how: SelfPlay,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<WthorGame>, OpeningError> {
    let SelfPlay {
        level,
        games: count,
        opening_plies: plies,
        seed,
        exact_from,
    } = how;
    let openings = arena::openings::<Othello>(count, plies, seed)?;
    Ok(openings
        .par_iter()
        .map(|opening| {
            let mut engine = Engine::new(model.clone(), level, None);
            if let Some(exact) = exact_from {
                engine.limits.exact = exact;
            }
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
