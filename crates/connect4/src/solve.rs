//! The exact solver: the value of a position under perfect play by both sides — a win, a
//! draw or a loss for the side to move, and how soon: the winner wins as soon as it can,
//! the loser holds out as long as it can — by negamax with alpha-beta on the bitboards,
//! the centre columns first, forced replies to immediate threats, bounds from the empty
//! squares left, and a table of bounds.
//!
//! A value is 0 for a draw; for a win of the side to move, 1 and the empty squares left
//! when the game ends (so a sooner win is worth more); for a loss, the negative. The AIs'
//! scale, 1000 and the empty squares left, is [`proven_value`].

use gamelab_core::Game;
use rustc_hash::FxHashMap;

use crate::position::{BOARD, winning_squares};
use crate::{ConnectFour, Move, WIDTH};

/// Columns from the centre out: central discs take part in the most fours.
const ORDER: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

/// More than any value: the widest window.
const WIDEST: i8 = 64;

/// A solver's value on the AIs' scale: a win 1000 and the empty squares left when it
/// ends (as [`crate::ai::evaluate`] values a won position), a loss the negative, a draw 0.
///
/// ```
/// use gamelab_connect4::solve::proven_value;
/// assert_eq!(proven_value(8), 1007.0); // a win with 7 squares left
/// assert_eq!(proven_value(-1), -1000.0); // a loss on the last square
/// assert_eq!(proven_value(0), 0.0);
/// ```
pub fn proven_value(value: i8) -> f64 {
    match value {
        0 => 0.0,
        v => f64::from(v.signum()) * (999.0 + f64::from(v.unsigned_abs())),
    }
}

/// The value of a finished game for the side to move: lost, the side that just moved
/// having won with `empties` squares left, or drawn on a full board. `None` while it goes on.
fn ended_value(pos: &ConnectFour) -> Option<i8> {
    let outcome = pos.outcome()?;
    Some(if outcome.winner().is_some() {
        -(1 + pos.empties() as i8)
    } else {
        0
    })
}

/// Solves positions, keeping what it learnt between calls.
#[derive(Default)]
pub struct Solver {
    /// Position key → (lower, upper) bound on its value.
    table: FxHashMap<u64, (i8, i8)>,
    /// Positions visited.
    pub nodes: u64,
}

impl Solver {
    /// The value for the side to move (see the module), and a move that keeps it (`None`
    /// once the game is over).
    ///
    /// ```
    /// use gamelab_core::{Game, Notation};
    /// use gamelab_connect4::{ConnectFour, solve::Solver};
    ///
    /// // Red has three in column d: it wins now, with 35 squares left (see the module).
    /// let game = ConnectFour::parse_position("dcdcdc").unwrap();
    /// let (value, best) = Solver::default().solve(&game);
    /// assert_eq!(best, Some(game.parse_move("d").unwrap()));
    /// assert!(value > 0);
    /// ```
    pub fn solve(&mut self, game: &ConnectFour) -> (i8, Option<Move>) {
        let mut pos = game.clone();
        if pos.is_over() {
            return (self.negamax(&mut pos, -WIDEST, WIDEST), None);
        }
        let (mut best, mut best_move) = (-WIDEST, None);
        for col in ORDER {
            let Some(mv) = pos.drop_in(col) else { continue };
            pos.play_unchecked(mv);
            // Only a better value than the best so far matters: above it, it is exact.
            let v = -self.negamax(&mut pos, -WIDEST, -best);
            pos.undo();
            if v > best || best_move.is_none() {
                (best, best_move) = (v, Some(mv));
            }
        }
        (best, best_move)
    }

    /// The value of every legal move for the side to move, in the game's move order.
    pub fn move_values(&mut self, game: &ConnectFour) -> Vec<(Move, i8)> {
        let mut pos = game.clone();
        game.legal_moves()
            .into_iter()
            .map(|mv| {
                pos.play_unchecked(mv);
                let v = -self.negamax(&mut pos, -WIDEST, WIDEST);
                pos.undo();
                (mv, v)
            })
            .collect()
    }

    fn negamax(&mut self, pos: &mut ConnectFour, mut alpha: i8, mut beta: i8) -> i8 {
        self.nodes += 1;
        if let Some(value) = ended_value(pos) {
            return value;
        }
        let empties = pos.empties() as i8;
        let me = pos.stones(pos.to_move());
        let them = pos.occupied() ^ me;
        let empty = BOARD & !pos.occupied();
        let playable = pos.playable();
        if winning_squares(me, empty) & playable != 0 {
            // Won now, with one square fewer.
            return empties;
        }
        let threats = winning_squares(them, empty) & playable;
        if threats.count_ones() > 1 {
            // Lost at the opponent's next move.
            return -(empties - 1);
        }
        // Not won now: at best won at this side's next move; not lost sooner than at the
        // opponent's next.
        let (most, least) = (empties - 2, -(empties - 1));
        beta = beta.min(most);
        alpha = alpha.max(least);
        if alpha >= beta {
            return alpha;
        }
        let key = pos.key();
        let (alpha0, beta0) = (alpha, beta);
        if let Some(&(lower, upper)) = self.table.get(&key) {
            if lower == upper || lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        let mut best = -WIDEST;
        for col in ORDER {
            let Some(mv) = pos.drop_in(col) else { continue };
            // With one threat against us, blocking it is the only move that does not lose.
            if threats != 0 && mv.bit() != threats {
                continue;
            }
            pos.play_unchecked(mv);
            let v = -self.negamax(pos, -beta, -alpha);
            pos.undo();
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let entry = self.table.entry(key).or_insert((-WIDEST, WIDEST));
        if best <= alpha0 {
            entry.1 = entry.1.min(best);
        } else if best >= beta0 {
            entry.0 = entry.0.max(best);
        } else {
            *entry = (best, best);
        }
        best
    }
}

/// Plain negamax over the whole tree below `game`: no pruning, no table, the value as the
/// solver gives it. The reference the solver is tested against, usable only a few moves
/// from the end.
pub fn plain_negamax(game: &mut ConnectFour) -> i8 {
    if let Some(value) = ended_value(game) {
        return value;
    }
    let mut best = -WIDEST;
    for mv in game.legal_moves() {
        game.play_unchecked(mv);
        best = best.max(-plain_negamax(game));
        game.undo();
    }
    best
}
