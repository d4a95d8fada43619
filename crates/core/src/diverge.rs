//! Article 000's experiment: the first seed at which two versions of an AI end differently
//! against the same opponent, whose random choices are the same in both games.

use crate::arena::play_game;
use crate::{Agent, Game, Outcome, Side, StreamKey};

/// The first seed where the versions' games end differently.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence<M> {
    pub seed: u64,
    /// Each version's game: its moves (both sides') and its end.
    pub games: [(Vec<M>, Outcome); 2],
    /// The index of the first move where the games differ.
    pub parted: usize,
}

/// One game of `ai` against `b` with the streams of game 0 of `seed`, `ai` on `side`.
pub fn seeded_game<G: Game>(
    ai: &mut dyn Agent<G>,
    b: &mut dyn Agent<G>,
    side: Side,
    seed: u64,
) -> (Vec<G::Move>, Outcome) {
    let key = StreamKey::new(seed);
    let mut rngs = Side::BOTH.map(|s| key.game_rng(0, s));
    let agents: [&mut dyn Agent<G>; 2] = match side {
        Side::First => [ai, b],
        Side::Second => [b, ai],
    };
    let mut moves = Vec::new();
    let end = play_game(&G::start(), agents, &mut rngs, Some(&mut moves));
    (moves, end.outcome)
}

/// Tries the seeds of `seeds` in order: A and A2 each play `b` from the start on `side`.
/// `tried` hears each seed tried and returns false to stop the search there. `None` when
/// every seed tried ended alike.
pub fn first_divergence<G: Game>(
    a: &mut dyn Agent<G>,
    a2: &mut dyn Agent<G>,
    b: &mut dyn Agent<G>,
    side: Side,
    seeds: std::ops::Range<u64>,
    tried: &mut dyn FnMut(u64) -> bool,
) -> Option<Divergence<G::Move>> {
    for seed in seeds {
        let one = seeded_game(a, b, side, seed);
        let two = seeded_game(a2, b, side, seed);
        if one.1 != two.1 {
            let parted = one
                .0
                .iter()
                .zip(&two.0)
                .position(|(x, y)| x != y)
                .unwrap_or(one.0.len().min(two.0.len()));
            return Some(Divergence {
                seed,
                games: [one, two],
                parted,
            });
        }
        if !tried(seed) {
            break;
        }
    }
    None
}
