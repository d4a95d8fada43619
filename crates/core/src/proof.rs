//! Proofs by exhaustion: does an agent never lose, whatever the opponent does and whichever
//! of its own best moves it picks?

use std::collections::HashSet;

use crate::arena::ExactError;
use crate::{Agent, Game, Side};

/// The outcome of [`never_loses`].
#[derive(Clone, Debug, PartialEq)]
pub struct Proof<M> {
    /// `None` when the agent never loses; else a line of play that it loses.
    pub losing_line: Option<Vec<M>>,
    /// Distinct positions proven safe on the way.
    pub positions: usize,
}

/// Walks every line of play from the start with `agent` on `side`: all of the agent's
/// moves that its distribution allows, all of the opponent's legal moves.
pub fn never_loses<G: Game>(
    agent: &mut dyn Agent<G>,
    name: &str,
    side: Side,
) -> Result<Proof<G::Move>, ExactError> {
    fn walk<G: Game>(
        game: &mut G,
        agent: &mut dyn Agent<G>,
        name: &str,
        side: Side,
        safe: &mut HashSet<u64>,
        line: &mut Vec<G::Move>,
    ) -> Result<bool, ExactError> {
        if let Some(outcome) = game.outcome() {
            return Ok(outcome.winner() != Some(side.opponent()));
        }
        if safe.contains(&game.key()) {
            return Ok(true);
        }
        let moves: Vec<G::Move> = if game.to_move() == side {
            agent
                .policy(game)
                .ok_or_else(|| ExactError::NoPolicy(name.to_string()))?
                .moves()
                .collect()
        } else {
            game.legal_moves().to_vec()
        };
        for mv in moves {
            line.push(mv);
            game.play(mv);
            let ok = walk(game, agent, name, side, safe, line);
            game.undo();
            if !ok? {
                return Ok(false);
            }
            line.pop();
        }
        safe.insert(game.key());
        Ok(true)
    }
    let mut safe = HashSet::new();
    let mut line = Vec::new();
    let ok = walk(&mut G::start(), agent, name, side, &mut safe, &mut line)?;
    Ok(Proof {
        losing_line: (!ok).then_some(line),
        positions: safe.len(),
    })
}
