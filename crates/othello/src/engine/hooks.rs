//! What Othello offers engines beyond its rules ([`EngineHooks`]): random games played by
//! the widest SIMD build of the kernels this CPU has, four interleaved at a time, and the
//! board's symmetries for transposition tables.

use gamelab_core::{EngineHooks, GameRng, Outcome};

use crate::engine::builds::{Build, InBuild, in_widest_build};
use crate::rules::position::{LANES, playouts};
use crate::{Move, Othello};

/// Random games from a start, one a lane, as one node entered in a build's code
/// ([`Build::enter`]).
struct Lanes<'a>(
    &'a Othello,
    &'a mut [[GameRng; 2]],
    &'a mut [(Outcome, u64)],
);

impl InBuild for Lanes<'_> {
    type Output = ();
    #[inline(always)]
    fn run<B: Build>(self, b: B) {
        let Lanes(start, rngs, results) = self;
        playouts(b.kernel(), start, rngs, results)
    }
}

impl EngineHooks for Othello {
    /// Two bitboards in registers: no history, no flip record, no move list.
    fn uniform_playout(&self, rngs: &mut [GameRng; 2]) -> (Outcome, u64) {
        let mut result = [(Outcome::Draw, 0)];
        self.uniform_playouts(std::slice::from_mut(rngs), &mut result);
        result[0]
    }

    /// The games interleaved move by move: each move waits on the one before (flips,
    /// then the next legal moves), so one game alone leaves most of the processor idle.
    fn uniform_playouts(&self, rngs: &mut [[GameRng; 2]], results: &mut [(Outcome, u64)]) {
        struct Playouts<'a>(
            &'a Othello,
            &'a mut [[GameRng; 2]],
            &'a mut [(Outcome, u64)],
        );
        impl InBuild for Playouts<'_> {
            type Output = ();
            fn run<B: Build>(self, b: B) {
                let Playouts(start, rngs, results) = self;
                for (rngs, results) in rngs.chunks_mut(LANES).zip(results.chunks_mut(LANES)) {
                    b.enter(Lanes(start, rngs, results));
                }
            }
        }
        in_widest_build(Playouts(self, rngs, results));
    }

    fn canonical(&self) -> (u64, u8) {
        self.canonical_image()
    }

    fn map_move(mv: Move, sym: u8, inverse: bool) -> Move {
        Othello::map_move_image(mv, sym, inverse)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gamelab_core::Side;

    /// Game `game`'s result in build `b`.
    fn playout_in(b: impl Build, key: gamelab_core::StreamKey, game: u64) -> (Outcome, u64) {
        let mut streams = Side::BOTH.map(|side| key.game_rng(game, side));
        let mut result = [(Outcome::Draw, 0)];
        let start = Othello::new();
        b.enter(Lanes(
            &start,
            std::slice::from_mut(&mut streams),
            &mut result,
        ));
        result[0]
    }

    #[test]
    fn every_playout_build_plays_the_same_games() {
        // `uniform_playout` takes the widest build this CPU has; these are the others.
        let key = gamelab_core::StreamKey::new(9);
        for game in 0..2_000 {
            let mut streams = Side::BOTH.map(|side| key.game_rng(game, side));
            let widest = Othello::new().uniform_playout(&mut streams);
            let portable = playout_in(crate::engine::builds::PortableBuild, key, game);
            assert_eq!(portable, widest, "game {game}");
            #[cfg(target_arch = "x86_64")]
            if let Some(k) = crate::rules::kernel::avx2() {
                let avx2 = playout_in(crate::engine::builds::Avx2Build(k), key, game);
                assert_eq!(avx2, widest, "game {game} in the AVX2 build");
            }
        }
    }
}
