//! Every game of the catalogue has `mcts`, and it plays whole games of legal moves.

use gamelab_core::{Described, GameVisitor, Side, game_rng};

struct PlaysAGame;

impl GameVisitor for PlaysAGame {
    type Output = usize;
    fn visit<G: Described>(self) -> usize {
        let mut agent = G::registry()
            .build("mcts:iterations=200,playout=uniform")
            .unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
        let mut game = G::start();
        let mut rng = game_rng(0, 0, Side::First);
        while !game.is_over() {
            let mv = agent.choose(&game, &mut rng);
            game.play(mv)
                .unwrap_or_else(|e| panic!("{}: mcts played {mv}: {e}", G::NAME));
            let stats = agent.analyst().unwrap().move_stats(&game);
            assert_eq!(stats.is_some_and(|s| !s.is_empty()), !game.is_over());
        }
        game.ply()
    }
}

#[test]
fn every_game_has_mcts_and_it_plays_legal_moves_to_the_end() {
    for entry in gamelab_games::GAMES {
        let plies = gamelab_games::visit(entry.name, None, PlaysAGame).unwrap();
        assert!(plies > 0, "{}", entry.name);
    }
}
