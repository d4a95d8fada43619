//! `ai_abs_dls` (article 004): alpha-beta to a depth limit with a score AI's evaluation at the
//! leaves, a transposition table with symmetric entries, and an optional time limit.

use std::time::Duration;

use gamelab_core::search::{AlphaBeta, LeafEval, SearchOptions, analyze};
use gamelab_core::{Agent, Analyst, Evaluate, GameRng, Policy};

use super::score::RankedScore;
use crate::board::{Board, Moves};
use crate::{Player, Position, Square};

/// A score AI's evaluation seen from o (the article's `minimax=True`).
#[derive(Clone, Copy, Debug)]
pub struct FromO(pub RankedScore);

impl<B: Board> LeafEval<Position<B>> for FromO {
    #[inline]
    fn evaluate(&mut self, pos: &Position<B>) -> f64 {
        self.0.score_for_first(pos)
    }
}

/// Each move's search value, with the work it took.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValues {
    /// Each legal move and the value (o's view) of the position it leads to.
    pub values: Vec<(Square, f64)>,
    /// Nodes visited over all the moves' searches.
    pub nodes: u64,
    /// Positions the shared table knows: its entries are one per symmetry class, and each
    /// covers every image of its class (the article's table held an entry per image).
    pub table_size: usize,
}

/// The article's parameters. As in the article (`ai_by_mmscore` around `ab_search`), each legal
/// move is searched `max_depth` plies below the position it leads to, and the searches
/// share one table.
#[derive(Clone, Copy, Debug)]
pub struct AbsDls {
    pub eval: RankedScore,
    pub max_depth: u32,
    pub use_tt: bool,
    pub time_limit: Option<Duration>,
}

impl AbsDls {
    pub fn options(&self) -> SearchOptions {
        SearchOptions {
            max_depth: self.max_depth,
            use_tt: self.use_tt,
            symmetric: true,
            time_limit: self.time_limit,
        }
    }

    /// Each legal move with the search value of the position it leads to (o's view), the
    /// nodes searched and the size of the table they filled.
    pub fn move_values<B: Board>(&self, pos: &Position<B>) -> MoveValues {
        let (values, nodes, table) = self.search_moves(pos);
        MoveValues {
            values,
            nodes,
            table_size: table
                .keys()
                .map(|&k| crate::symmetry::images_of_key(k))
                .sum(),
        }
    }

    /// Each legal move's value, the nodes, and the table the moves' searches shared.
    fn search_moves<B: Board>(
        &self,
        pos: &Position<B>,
    ) -> (Vec<(Square, f64)>, u64, gamelab_core::search::Table<Square>) {
        let mut eval = FromO(self.eval);
        let mut values = Vec::new();
        let mut nodes = 0;
        // The moves' searches share one table: a position below two of them lies at the
        // same depth from here either way.
        // Sized for a search from the start (3,219 entries), so it never grows.
        let mut table =
            gamelab_core::search::Table::with_capacity_and_hasher(4_096, Default::default());
        for sq in pos.legal_moves() {
            let mut child = pos.clone();
            child.play_unchecked(sq);
            let mut ab = AlphaBeta::new(
                &mut eval,
                self.options(),
                self.max_depth,
                None,
                Default::default(),
            );
            ab.table = std::mem::take(&mut table);
            let value = ab
                .search(&mut child, f64::NEG_INFINITY, f64::INFINITY)
                .expect("no deadline, no time-out");
            nodes += ab.nodes;
            table = ab.table;
            // +0.0 turns a −0 from negated evaluations into 0.
            values.push((sq, value + 0.0));
        }
        (values, nodes, table)
    }

    /// The moves with the best value for the side to move.
    pub fn best<B: Board>(&self, pos: &Position<B>) -> Moves {
        // Without the table's size: counting its entries' images would cost a tenth of an
        // exact match, which asks for the best moves at every position.
        let values = self.search_moves(pos).0;
        let o = pos.turn() == Player::O;
        let best = values.iter().map(|&(_, v)| v).fold(
            if o { f64::NEG_INFINITY } else { f64::INFINITY },
            |a, v| {
                if o { a.max(v) } else { a.min(v) }
            },
        );
        values
            .iter()
            .filter(|&&(_, v)| v == best)
            .map(|&(s, _)| s)
            .collect()
    }
}

impl<B: Board> Agent<Position<B>> for AbsDls {
    fn choose(&mut self, pos: &Position<B>, rng: &mut GameRng) -> Square {
        match self.time_limit {
            // Under a time limit: iterative deepening from here; the last completed depth's
            // best move.
            Some(_) => {
                let mut eval = FromO(self.eval);
                let analysis = analyze(pos, &mut eval, self.options());
                analysis
                    .last()
                    .and_then(|d| d.best)
                    .unwrap_or_else(|| pos.legal_moves()[0])
            }
            None => {
                let best = self.best(pos);
                best[rng.below(best.len())]
            }
        }
    }

    fn analyst(&mut self) -> Option<&mut dyn Analyst<Position<B>>> {
        Some(self)
    }
}

impl<B: Board> Analyst<Position<B>> for AbsDls {
    /// A fixed distribution only without a time limit (with one, the move depends on speed).
    fn policy(&mut self, pos: &Position<B>) -> Option<Policy<Square>> {
        self.time_limit
            .is_none()
            .then(|| Policy::uniform(&self.best(pos)))
    }

    fn move_scores(&mut self, pos: &Position<B>) -> Option<Vec<(Square, f64)>> {
        Some(self.search_moves(pos).0)
    }
}
