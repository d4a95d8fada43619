//! How far the evaluation and shallow searches are from perfect play: positions cut from
//! real games at a chosen number of empty squares, solved exactly, and the mean absolute
//! error, stage by stage, of the static evaluation and of depth-limited searches against
//! the exact scores. WTHOR's results are the players', too noisy to judge a model by; the
//! solver's scores are the game's.
//!
//! The solved positions are written as an FFO suite (`gamelab ffo` solves them again), so
//! that a set is made once and every candidate model is measured on it.

use std::ops::RangeInclusive;
use std::sync::Arc;

use gamelab_core::{Game, GameRng, Side};
use rayon::prelude::*;

use crate::engine::endgame::Solver;
use crate::engine::learned::{PatternModel, stage};
use crate::engine::probcut::PROBCUT_DEFAULT;
use crate::engine::search::{Limits, Searcher, to_discs};
use crate::formats::ffo::FfoPosition;
use crate::formats::wthor::WthorGame;
use crate::{Move, Othello};

/// Up to `count` positions of `games`, at most `per_game` a game: the game's positions
/// when so many squares were left, that many different numbers drawn from `empties` for
/// each game, each position's side to move with a move to play. The games are taken in an
/// order drawn from `seed`: the same seed and games give the same positions.
///
/// ```
/// use gamelab_othello::accuracy::sample_positions;
/// use gamelab_othello::wthor::WthorGame;
/// use gamelab_othello::Square;
///
/// let moves = ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"];
/// let game = WthorGame {
///     tournament: 0,
///     black_player: 0,
///     white_player: 0,
///     black_discs: 0,
///     black_theoretical: 0,
///     moves: moves.iter().map(|m| Square::parse(m).unwrap()).collect(),
/// };
/// let positions = sample_positions(&[game.clone()], 52..=53, 5, 1, 1);
/// assert_eq!(positions.len(), 1);
/// assert!((52..=53).contains(&positions[0].empties()));
/// // Both numbers of empty squares, when two are asked of the one game.
/// let both = sample_positions(&[game], 52..=53, 5, 2, 1);
/// let mut empties: Vec<u32> = both.iter().map(|p| p.empties()).collect();
/// empties.sort();
/// assert_eq!(empties, [52, 53]);
/// ```
pub fn sample_positions(
    games: &[WthorGame],
    empties: RangeInclusive<u32>,
    count: usize,
    per_game: usize,
    seed: u64,
) -> Vec<Othello> {
    let mut rng = gamelab_core::game_rng(seed, 0, Side::First);
    let mut order: Vec<usize> = (0..games.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let span = empties.end().saturating_sub(*empties.start()) as usize + 1;
    let mut positions = Vec::new();
    for g in order {
        for offset in distinct(&mut rng, span, per_game) {
            if positions.len() == count {
                return positions;
            }
            if let Some(pos) = position_at(&games[g], empties.start() + offset) {
                positions.push(pos);
            }
        }
    }
    positions
}

/// `k` different numbers below `span` (all of them when `k` is larger), in a random order.
fn distinct(rng: &mut GameRng, span: usize, k: usize) -> Vec<u32> {
    let mut all: Vec<u32> = (0..span as u32).collect();
    for i in 0..k.min(span) {
        let j = i + rng.below(span - i);
        all.swap(i, j);
    }
    all.truncate(k.min(span));
    all
}

/// `game`'s position with `empties` empty squares, when it gets there (a legal record)
/// and its side to move has a move.
fn position_at(game: &WthorGame, empties: u32) -> Option<Othello> {
    let mut pos = Othello::new();
    for &sq in &game.moves {
        if pos.empties() == empties {
            break;
        }
        pos.pass_if_forced(Move::Place(sq));
        pos.check_move(Move::Place(sq)).ok()?;
        pos.play_unchecked(Move::Place(sq));
    }
    (pos.empties() == empties && !pos.is_over() && !pos.must_pass()).then_some(pos)
}

/// Each position solved exactly, as an FFO suite's entries (numbered from 1, the best
/// move the solver's), on the current rayon pool's threads, one solver each; `solved` is
/// called after each.
pub fn solve_all(positions: &[Othello], solved: &(dyn Fn() + Sync)) -> Vec<FfoPosition> {
    positions
        .par_iter()
        .enumerate()
        .map_init(Solver::default, |solver, (i, pos)| {
            let (score, best) = solver.solve(pos);
            solved();
            FfoPosition {
                id: i as u32 + 1,
                position: pos.clone(),
                expected: score,
                best: best.unwrap_or(Move::Pass).to_string(),
            }
        })
        .collect()
}

/// `positions` as an FFO suite's text, with a `#` comment first.
pub fn write_suite(positions: &[FfoPosition], comment: &str) -> String {
    let mut text = String::new();
    for line in comment.lines() {
        text.push_str("# ");
        text.push_str(line);
        text.push('\n');
    }
    text.push_str("# Format: <id> <64 chars> <side to move> <score> <bestmove>\n");
    for p in positions {
        text.push_str(&format!(
            "{} {} {:+} {}\n",
            p.id,
            p.position.board_string(),
            p.expected,
            p.best
        ));
    }
    text
}

/// The error of one way of valuing positions on one stage's positions.
#[derive(Clone, Debug, PartialEq)]
pub struct StageError {
    /// The model's stage ([`crate::learned::stage`]).
    pub stage: usize,
    /// Its empty squares, fewest and most among the positions.
    pub empties: (u32, u32),
    pub positions: usize,
    /// The mean absolute error in discs, for each depth asked (0: the static evaluation).
    pub mae: Vec<f64>,
    /// The mean signed error (value less exact score) for each depth: how far the values
    /// lean to the side to move.
    pub bias: Vec<f64>,
}

/// The error against the exact scores of `model`'s static evaluation (depth 0) and of its
/// midgame searches to each of `depths` plies (as the engine searches, ProbCut on, never
/// solving), stage by stage, with every position together last (`stage` then
/// [`usize::MAX`]). Each position is searched on a fresh table, so that the figures do not
/// depend on the order of the positions; `done` is called after each position.
pub fn evaluation_error(
    model: &Arc<PatternModel>,
    positions: &[FfoPosition],
    depths: &[u32],
    done: &(dyn Fn() + Sync),
) -> Vec<StageError> {
    let errors: Vec<(usize, u32, Vec<f64>)> = positions
        .par_iter()
        .map_init(
            || {
                let mut searcher = Searcher::new(model.clone());
                searcher.set_probcut(PROBCUT_DEFAULT);
                searcher
            },
            |searcher, p| {
                let (me, opponent) = p.position.discs();
                let exact = f64::from(p.expected);
                let errors = depths
                    .iter()
                    .map(|&depth| {
                        let value = if depth == 0 {
                            to_discs(searcher.evaluate(me, opponent))
                        } else {
                            searcher.forget(false);
                            searcher.search(&p.position, Limits::to_depth(depth)).score
                        };
                        value - exact
                    })
                    .collect();
                done();
                (stage(p.position.empties()), p.position.empties(), errors)
            },
        )
        .collect();
    let mut stages: Vec<usize> = errors.iter().map(|&(s, ..)| s).collect();
    stages.sort_unstable();
    stages.dedup();
    let summary = |stage: usize, rows: Vec<&(usize, u32, Vec<f64>)>| {
        let n = rows.len().max(1) as f64;
        let mean = |f: &dyn Fn(f64) -> f64| -> Vec<f64> {
            (0..depths.len())
                .map(|d| rows.iter().map(|r| f(r.2[d])).sum::<f64>() / n)
                .collect()
        };
        StageError {
            stage,
            empties: (
                rows.iter().map(|r| r.1).min().unwrap_or(0),
                rows.iter().map(|r| r.1).max().unwrap_or(0),
            ),
            positions: rows.len(),
            mae: mean(&f64::abs),
            bias: mean(&|e| e),
        }
    };
    let mut table: Vec<StageError> = stages
        .iter()
        .map(|&s| summary(s, errors.iter().filter(|r| r.0 == s).collect()))
        .collect();
    table.push(summary(usize::MAX, errors.iter().collect()));
    table
}
