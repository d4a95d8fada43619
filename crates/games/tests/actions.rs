//! Every game's numbered actions and symmetries (`gamelab_core::actions`), over random
//! lines of play: each legal move has its own action below `ACTIONS`, the square's index
//! (the column's, where moves are by column); and each symmetry's image of a position —
//! set up square by square where the game can, reached by the images of the moves where
//! it cannot — has exactly the images of the original's legal actions.

use std::collections::BTreeSet;

use gamelab_core::actions::{SymmetryMap, symmetry_maps};
use gamelab_core::{Described, Game, GameVisitor};
use proptest::prelude::*;

struct Line<'a>(&'a [u16]);

fn legal_actions<G: Game>(game: &G) -> BTreeSet<usize> {
    game.legal_moves()
        .iter()
        .map(|&mv| G::move_code(mv) as usize)
        .collect()
}

/// The image of `game` under `map`: set up from the image of its squares, or, for a game
/// that cannot be set up, played from the start by the images of its moves.
fn image<G: Described>(game: &G, map: &SymmetryMap) -> Result<G, String> {
    if G::CAN_SET_UP {
        let cells: Vec<_> = map.cells.iter().map(|&i| game.piece(i)).collect();
        return G::from_cells(&cells, game.to_move()).map_err(|e| e.to_string());
    }
    let mut image = G::start();
    for &mv in game.history() {
        let target = map
            .actions
            .iter()
            .position(|&a| a == G::move_code(mv) as usize)
            .ok_or("an action with no image")?;
        let mv = *image
            .legal_moves()
            .iter()
            .find(|&&m| G::move_code(m) as usize == target)
            .ok_or_else(|| format!("{}: the image of {mv} is not legal", map.name))?;
        image.play_unchecked(mv);
    }
    Ok(image)
}

impl GameVisitor for Line<'_> {
    type Output = Result<(), String>;
    fn visit<G: Described>(self) -> Self::Output {
        let (rows, cols) = G::GRID;
        let maps = symmetry_maps::<G>();
        if maps[0].name != "identity" {
            return Err(format!("{}: the identity is not first", G::NAME));
        }
        let mut game = G::start();
        for &choice in self.0 {
            if game.is_over() {
                break;
            }
            let legal = game.legal_moves();
            let actions = legal_actions(&game);
            if actions.len() != legal.len() || actions.iter().any(|&a| a >= G::ACTIONS) {
                return Err(format!("{}: actions {actions:?} for {legal:?}", G::NAME));
            }
            for &mv in legal.iter() {
                let action = G::move_code(mv) as usize;
                let square = G::square_of(mv);
                let expected = match square {
                    Some(square) if G::MOVES_BY_COLUMN => square % cols,
                    Some(square) => square,
                    None => rows * cols,
                };
                if action < expected || (square.is_some() && action != expected) {
                    return Err(format!("{}: {mv} is action {action}", G::NAME));
                }
            }
            for map in &maps {
                let image = image(&game, map)
                    .map_err(|e| format!("{} {}: {e}\n{game}", G::NAME, map.name))?;
                let expected: BTreeSet<usize> = (0..G::ACTIONS)
                    .filter(|&a| actions.contains(&map.actions[a]))
                    .collect();
                if legal_actions(&image) != expected {
                    return Err(format!(
                        "{} {}: the image's actions {:?}, expected {expected:?}\n{game}",
                        G::NAME,
                        map.name,
                        legal_actions(&image)
                    ));
                }
                let cells: Vec<_> = map.cells.iter().map(|&i| game.piece(i)).collect();
                let image_cells: Vec<_> = (0..rows * cols).map(|i| image.piece(i)).collect();
                if cells != image_cells {
                    return Err(format!("{} {}: other squares", G::NAME, map.name));
                }
            }
            game.play_unchecked(legal[choice as usize % legal.len()]);
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(100))]

    #[test]
    fn actions_and_symmetries_agree_with_the_rules(choices in proptest::collection::vec(any::<u16>(), 0..70)) {
        for name in gamelab_games::NAMES {
            let result = gamelab_games::visit(name, None, Line(&choices)).unwrap();
            prop_assert!(result.is_ok(), "{}", result.unwrap_err());
        }
    }
}

#[test]
fn the_games_have_the_symmetries_of_their_boards() {
    struct Names;
    impl GameVisitor for Names {
        type Output = (usize, Vec<&'static str>);
        fn visit<G: Described>(self) -> Self::Output {
            (
                G::ACTIONS,
                symmetry_maps::<G>().iter().map(|m| m.name).collect(),
            )
        }
    }
    let of = |name| gamelab_games::visit(name, None, Names).unwrap();
    assert_eq!(of("ttt").0, 9);
    assert_eq!(of("ttt").1.len(), 8);
    assert_eq!(of("othello").0, 65);
    assert_eq!(of("othello").1.len(), 8);
    assert_eq!(of("connect4"), (7, vec!["identity", "mirror_columns"]));
}
