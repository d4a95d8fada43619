//! The exact match: A's result probabilities from the agents' move distributions, walking
//! every game from the start (games whose tree fits in memory).

use std::collections::HashMap;

use thiserror::Error;

use crate::{Agent, EngineHooks, Outcome, Side};

/// Probabilities of A's results.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Probabilities {
    pub win: f64,
    pub lose: f64,
    pub draw: f64,
}

impl Probabilities {
    pub fn as_array(&self) -> [f64; 3] {
        [self.win, self.lose, self.draw]
    }
}

/// The exact result of a match: A's result probabilities moving first and second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExactResult {
    pub first: Probabilities,
    pub second: Probabilities,
}

impl ExactResult {
    /// Both halves together, as a match with equal games on each side.
    pub fn total(&self) -> Probabilities {
        Probabilities {
            win: (self.first.win + self.second.win) / 2.0,
            lose: (self.first.lose + self.second.lose) / 2.0,
            draw: (self.first.draw + self.second.draw) / 2.0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ExactError {
    #[error(
        "{0} has no fixed move distribution, so the exact mode cannot use it; play sampled games instead"
    )]
    NoPolicy(String),
    #[error(
        "the exact mode visits every reachable position, and {0} has too many (it is for games as small as tic-tac-toe): play sampled games instead"
    )]
    TreeTooLarge(&'static str),
}

/// Outcome probabilities [first wins, second wins, draw] under `agents`, memoised by
/// position key. Exact as long as each agent's distribution depends only on the position,
/// as it does for every tic-tac-toe AI of the catalogue.
fn outcome_distribution<G: EngineHooks>(
    game: &mut G,
    agents: &mut [&mut dyn Agent<G>; 2],
    names: [&str; 2],
    memo: &mut HashMap<u64, [f64; 3]>,
) -> Result<[f64; 3], ExactError> {
    if let Some(outcome) = game.outcome() {
        return Ok(match outcome {
            Outcome::Win(Side::First) => [1.0, 0.0, 0.0],
            Outcome::Win(Side::Second) => [0.0, 1.0, 0.0],
            Outcome::Draw => [0.0, 0.0, 1.0],
        });
    }
    if let Some(p) = memo.get(&game.key()) {
        return Ok(*p);
    }
    let side = game.to_move().index();
    let policy = agents[side]
        .analyst()
        .and_then(|analyst| analyst.policy(game))
        .ok_or_else(|| ExactError::NoPolicy(names[side].to_string()))?;
    let mut total = [0.0; 3];
    for &(mv, p) in policy.entries() {
        game.play_unchecked(mv);
        let child = outcome_distribution(game, agents, names, memo)?;
        game.undo();
        for (t, c) in total.iter_mut().zip(child) {
            *t += p * c;
        }
    }
    memo.insert(game.key(), total);
    Ok(total)
}

/// The exact result of A against B from the start position, both ways round.
pub fn exact_match<G: EngineHooks>(
    a: &mut dyn Agent<G>,
    b: &mut dyn Agent<G>,
    names: [&str; 2],
) -> Result<ExactResult, ExactError> {
    if !G::TREE_FITS_IN_MEMORY {
        return Err(ExactError::TreeTooLarge(G::NAME));
    }
    let [a_name, b_name] = names;
    let first = {
        let mut agents: [&mut dyn Agent<G>; 2] = [&mut *a, &mut *b];
        let [w, l, d] = outcome_distribution(
            &mut G::start(),
            &mut agents,
            [a_name, b_name],
            &mut HashMap::new(),
        )?;
        Probabilities {
            win: w,
            lose: l,
            draw: d,
        }
    };
    let second = {
        let mut agents: [&mut dyn Agent<G>; 2] = [&mut *b, &mut *a];
        let [w, l, d] = outcome_distribution(
            &mut G::start(),
            &mut agents,
            [b_name, a_name],
            &mut HashMap::new(),
        )?;
        Probabilities {
            win: l,
            lose: w,
            draw: d,
        }
    };
    Ok(ExactResult { first, second })
}
