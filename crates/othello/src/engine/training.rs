//! Training data for the learned evaluation, from WTHOR game records: every position of
//! every game where the side to move has a move, with its pattern features and its label —
//! the final disc difference for the side to move, taken from the game's *theoretical*
//! result (perfect play from the recorded depth, 24 empties in the 1977–2021 files) while
//! the position is at least that far from the end, from the solver for positions near the
//! end when asked, from a midgame search far from the end when asked, and from the game's
//! actual result otherwise.

use gamelab_core::Game;
use gamelab_learn::SparseRows;
use rayon::prelude::*;

use std::sync::Arc;

use crate::engine::endgame::Solver;
use crate::engine::eval::weight_of;
use crate::engine::learned::{PatternModel, stage};
use crate::engine::patterns::features;
use crate::engine::probcut::PROBCUT_DEFAULT;
use crate::engine::search::{Limits, Searcher};
use crate::formats::wthor::WthorGame;
use crate::{Move, Othello, bits};

/// Labelled positions: features in `rows`, and beside them each row's stage and the two
/// terms of the old hand-made evaluation (for the baseline fit).
#[derive(Default)]
pub struct TrainingSet {
    pub rows: SparseRows,
    pub stages: Vec<u8>,
    /// Weighted-square difference and mobility difference, the mover's view.
    pub baseline: Vec<[f32; 2]>,
}

/// How positions are labelled.
#[derive(Clone)]
pub struct Labels {
    /// The files' theoretical results hold from this many empties up (the header's depth).
    pub theoretical_depth: u32,
    /// Positions with at most this many empties are solved exactly (0: none).
    pub exact_empties: u32,
    /// Positions this far from the end are labelled by a search instead of the game's
    /// result (a depth-6 search from 26 empties made a weaker model: RESULTS.md).
    pub search: Option<SearchLabels>,
}

/// Labels from a midgame search (the engine's: Multi-ProbCut at its default, each position
/// on a fresh table, so that a label does not depend on the order of the positions).
#[derive(Clone)]
pub struct SearchLabels {
    pub model: Arc<PatternModel>,
    pub depth: u32,
    /// Positions with at least this many empties are labelled so.
    pub from_empties: u32,
}

struct Position {
    p: u64,
    o: u64,
    black_to_move: bool,
    empties: u32,
}

/// The positions of one game where the mover has a move, and the game's final and
/// theoretical results (black's disc difference).
fn positions(game: &WthorGame) -> Option<(Vec<Position>, i32, i32)> {
    let mut pos = Othello::new();
    let mut out = Vec::with_capacity(64);
    for &sq in &game.moves {
        pos.pass_if_forced(Move::Place(sq));
        let (p, o) = pos.discs();
        out.push(Position {
            p,
            o,
            black_to_move: pos.black_to_move(),
            empties: pos.empties(),
        });
        pos.check_move(Move::Place(sq)).ok()?;
        pos.play_unchecked(Move::Place(sq));
    }
    let final_diff = 2 * i32::from(game.black_discs) - 64;
    let theoretical = 2 * i32::from(game.black_theoretical) - 64;
    Some((out, final_diff, theoretical))
}

thread_local! {
    /// Each thread's solver for the exact labels, kept from game to game: a new one a
    /// game cleared its table's megabytes for a few small solves. What the table keeps
    /// from other games changes no score, only how fast one is found.
    static SOLVER: std::cell::RefCell<Solver> = std::cell::RefCell::new(Solver::default());
}

impl TrainingSet {
    /// Every position of `games` (games that do not replay are skipped, and counted).
    pub fn from_games(
        games: &[WthorGame],
        labels: &Labels,
        progress: &(dyn Fn(u64) + Sync),
    ) -> (TrainingSet, usize) {
        struct Labelled {
            features: Vec<u32>,
            stage: u8,
            label: f32,
            baseline: [f32; 2],
        }
        let searcher = || {
            labels.search.as_ref().map(|search| {
                let mut searcher = Searcher::new(search.model.clone());
                searcher.set_probcut(PROBCUT_DEFAULT);
                searcher
            })
        };
        let per_game: Vec<Option<Vec<Labelled>>> = games
            .par_iter()
            .map_init(searcher, |searcher, game| {
                let (list, final_diff, theoretical) = positions(game)?;
                let labelled = list
                    .iter()
                    .map(|pos| {
                        let black = if pos.empties >= labels.theoretical_depth {
                            theoretical
                        } else {
                            final_diff
                        };
                        let mover = if pos.black_to_move { black } else { -black };
                        let here = || Othello::from_discs(pos.p, pos.o, true);
                        let label = if pos.empties <= labels.exact_empties {
                            f64::from(SOLVER.with_borrow_mut(|solver| solver.solve(&here()).0))
                        } else if let (Some(search), Some(searcher)) =
                            (&labels.search, searcher.as_mut())
                            && pos.empties >= search.from_empties
                        {
                            searcher.forget(false);
                            searcher
                                .search(&here(), Limits::to_depth(search.depth))
                                .score
                        } else {
                            f64::from(mover)
                        };
                        let mut f = Vec::with_capacity(96);
                        features(pos.p, pos.o, &mut f);
                        let mobility = bits::legal_moves(pos.p, pos.o).count_ones() as f32
                            - bits::legal_moves(pos.o, pos.p).count_ones() as f32;
                        Labelled {
                            features: f,
                            stage: stage(pos.empties) as u8,
                            label: label as f32,
                            baseline: [(weight_of(pos.p) - weight_of(pos.o)) as f32, mobility],
                        }
                    })
                    .collect();
                progress(1);
                Some(labelled)
            })
            .collect();
        let mut set = TrainingSet {
            rows: SparseRows::new(),
            ..TrainingSet::default()
        };
        let mut skipped = 0;
        for game in per_game {
            let Some(list) = game else {
                skipped += 1;
                continue;
            };
            for l in list {
                set.rows.push(&l.features, l.label);
                set.stages.push(l.stage);
                set.baseline.push(l.baseline);
            }
        }
        (set, skipped)
    }

    /// Adds `other`'s positions after this set's.
    pub fn append(&mut self, other: &TrainingSet) {
        for i in 0..other.rows.len() {
            self.rows.push(other.rows.row(i), other.rows.target(i));
        }
        self.stages.extend_from_slice(&other.stages);
        self.baseline.extend_from_slice(&other.baseline);
    }

    /// The rows of stage `s`, and with `window` those of the neighbouring stages too.
    pub fn rows_of(&self, s: usize, window: usize) -> Vec<u32> {
        (0..self.stages.len() as u32)
            .filter(|&i| (self.stages[i as usize] as usize).abs_diff(s) <= window)
            .collect()
    }
}
