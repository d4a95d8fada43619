//! Proofs by exhaustion: does an agent never lose, whatever the opponent does and whichever
//! of its own best moves it picks?

use std::collections::HashSet;

use crate::arena::ExactError;
use crate::{Agent, EngineHooks, Game, Side};

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
pub fn never_loses<G: EngineHooks>(
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
                .analyst()
                .and_then(|analyst| analyst.policy(game))
                .ok_or_else(|| ExactError::NoPolicy(name.to_string()))?
                .moves()
                .collect()
        } else {
            game.legal_moves().to_vec()
        };
        for mv in moves {
            line.push(mv);
            game.play_unchecked(mv);
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
    if !G::TREE_FITS_IN_MEMORY {
        return Err(ExactError::TreeTooLarge(G::NAME));
    }
    let mut safe = HashSet::new();
    let mut line = Vec::new();
    let ok = walk(&mut G::start(), agent, name, side, &mut safe, &mut line)?;
    Ok(Proof {
        losing_line: (!ok).then_some(line),
        positions: safe.len(),
    })
}

/// The value of every position reached so far under perfect play by both sides: +1 the
/// first side wins, 0 a draw, −1 the second side wins. For games whose whole tree fits in
/// memory ([`EngineHooks::TREE_FITS_IN_MEMORY`]); positions are memoised by key.
#[derive(Debug, Default)]
pub struct GameValues {
    memo: std::collections::HashMap<u64, i8>,
}

impl GameValues {
    pub fn new() -> Self {
        Self::default()
    }

    /// The perfect-play value of `game`, from the first side's point of view.
    pub fn value<G: Game>(&mut self, game: &G) -> i8 {
        let mut game = game.clone();
        self.solve(&mut game)
    }

    fn solve<G: Game>(&mut self, game: &mut G) -> i8 {
        if let Some(outcome) = game.outcome() {
            return outcome.score_for(Side::First) as i8;
        }
        if let Some(&v) = self.memo.get(&game.key()) {
            return v;
        }
        let first_to_move = game.to_move() == Side::First;
        let mut best = if first_to_move { i8::MIN } else { i8::MAX };
        for &mv in game.legal_moves().iter() {
            game.play_unchecked(mv);
            let v = self.solve(game);
            game.undo();
            best = if first_to_move {
                best.max(v)
            } else {
                best.min(v)
            };
        }
        self.memo.insert(game.key(), best);
        best
    }
}

#[cfg(test)]
mod value_tests {
    use super::*;
    use crate::Notation;

    /// Nim with one heap: take 1 or 2; who takes the last stone wins. Multiples of 3 are
    /// lost for the side to move.
    #[derive(Clone, Debug)]
    struct Nim(u8, Vec<u8>);

    impl std::fmt::Display for Nim {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{}", self.0)
        }
    }

    #[derive(Debug, thiserror::Error)]
    #[error("bad")]
    struct Bad;

    impl Game for Nim {
        type Move = u8;
        type Moves = arrayvec::ArrayVec<u8, 2>;
        type MoveError = Bad;
        const NAME: &'static str = "nim";
        fn start() -> Self {
            Nim(7, Vec::new())
        }
        fn to_move(&self) -> Side {
            if self.1.len().is_multiple_of(2) {
                Side::First
            } else {
                Side::Second
            }
        }
        fn ply(&self) -> usize {
            self.1.len()
        }
        fn legal_moves(&self) -> Self::Moves {
            (1..=self.0.min(2)).collect()
        }
        fn play_unchecked(&mut self, mv: u8) {
            self.0 -= mv;
            self.1.push(mv);
        }
        fn undo(&mut self) -> Option<u8> {
            let mv = self.1.pop()?;
            self.0 += mv;
            Some(mv)
        }
        fn history(&self) -> &[u8] {
            &self.1
        }
        fn outcome(&self) -> Option<crate::Outcome> {
            // The side that took the last stone (the one not to move) wins.
            (self.0 == 0).then(|| crate::Outcome::Win(self.to_move().opponent()))
        }
        fn key(&self) -> u64 {
            (u64::from(self.0) << 1) | (self.1.len() as u64 % 2)
        }
        fn check_move(&self, _: u8) -> Result<(), Bad> {
            Ok(())
        }
        fn move_code(mv: u8) -> u32 {
            mv.into()
        }
    }

    impl Notation for Nim {
        type PositionError = Bad;
        fn parse_position(_: &str) -> Result<Self, Bad> {
            Err(Bad)
        }
        fn parse_move(&self, _: &str) -> Result<u8, Bad> {
            Err(Bad)
        }
        fn side_name(side: Side) -> &'static str {
            if side == Side::First { "a" } else { "b" }
        }
        fn move_syntax() -> &'static str {
            ""
        }
        fn move_hint(&self) -> String {
            String::new()
        }
        fn position_syntax() -> &'static str {
            ""
        }
    }

    impl EngineHooks for Nim {}

    #[test]
    fn values_follow_the_theory() {
        let mut values = GameValues::new();
        for heap in 1..=9u8 {
            let v = values.value(&Nim(heap, Vec::new()));
            assert_eq!(v, if heap % 3 == 0 { -1 } else { 1 }, "heap {heap}");
        }
    }
}
