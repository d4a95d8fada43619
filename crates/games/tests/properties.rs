//! Properties every game of the catalogue keeps, over random lines of play (proptest):
//! each move prints as text that reads back as that move; playing a line and undoing it
//! gives the start back, position by position; a line's moves read one by one from the
//! start reach the same position; and the positions each game can print read back.

use gamelab_core::{Described, Game, GameVisitor};
use proptest::prelude::*;

/// Plays `choices` (each picks among the legal moves, modulo their number) from the start
/// and checks the properties on the way; returns the description of the first failure.
struct Line<'a>(&'a [u16]);

impl GameVisitor for Line<'_> {
    type Output = Result<(), String>;
    fn visit<G: Described>(self) -> Self::Output {
        let mut game = G::start();
        let mut keys = vec![game.key()];
        let mut texts = Vec::new();
        for &choice in self.0 {
            if game.is_over() {
                break;
            }
            let legal = game.legal_moves();
            let moves = legal.as_ref();
            let mv = moves[choice as usize % moves.len()];
            let text = mv.to_string();
            match game.parse_move(&text) {
                Ok(read) if read == mv => {}
                other => {
                    return Err(format!(
                        "{} move {mv:?} prints `{text}`, reads {other:?}",
                        G::NAME
                    ));
                }
            }
            game.play(mv)
                .map_err(|e| format!("{}: a legal move refused: {e}", G::NAME))?;
            keys.push(game.key());
            texts.push(text);
        }
        // The same line, read from its text.
        let mut again = G::start();
        for text in &texts {
            let mv = again
                .parse_move(text)
                .map_err(|e| format!("`{text}`: {e}"))?;
            again.play_unchecked(mv);
        }
        if again.key() != game.key() || again.outcome() != game.outcome() {
            return Err(format!(
                "{}: the line read from text ends elsewhere",
                G::NAME
            ));
        }
        // Undone move by move: every earlier position comes back.
        for expected in keys.iter().rev().skip(1) {
            game.undo().ok_or("nothing to undo")?;
            if game.key() != *expected {
                return Err(format!("{}: undo did not restore the position", G::NAME));
            }
        }
        if game.undo().is_some() {
            return Err(format!("{}: undo went past the start", G::NAME));
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn lines_of_play_round_trip_in_every_game(choices in proptest::collection::vec(any::<u16>(), 0..70)) {
        for name in gamelab_games::NAMES {
            let result = gamelab_games::visit(name, None, Line(&choices)).unwrap();
            prop_assert!(result.is_ok(), "{}", result.unwrap_err());
        }
    }

    #[test]
    fn tic_tac_toe_boards_print_and_read_back(choices in proptest::collection::vec(any::<u16>(), 0..9)) {
        let game = play::<gamelab_ttt::Ttt>(&choices);
        let read = <gamelab_ttt::Ttt as gamelab_core::Notation>::parse_position(&game.board_string()).unwrap();
        prop_assert_eq!(read.board_string(), game.board_string());
        prop_assert_eq!(read.to_move(), game.to_move());
        prop_assert_eq!(read.outcome(), game.outcome());
    }

    #[test]
    fn othello_boards_print_and_read_back(choices in proptest::collection::vec(any::<u16>(), 0..70)) {
        let game = play::<gamelab_othello::Othello>(&choices);
        let text = format!("{} {}", game.board_string(), if game.to_move() == gamelab_core::Side::First { "X" } else { "O" });
        let read = gamelab_othello::Othello::from_board_string(&text).unwrap();
        prop_assert_eq!(read.discs(), game.discs());
        let (a, b) = (read.legal_moves(), game.legal_moves());
        prop_assert_eq!(a.as_ref(), b.as_ref());
    }

    #[test]
    fn connect_four_move_lists_read_back(choices in proptest::collection::vec(any::<u16>(), 0..42)) {
        let game = play::<gamelab_connect4::ConnectFour>(&choices);
        let line: Vec<String> = game.history().iter().map(ToString::to_string).collect();
        let read = <gamelab_connect4::ConnectFour as gamelab_core::Notation>::parse_position(&line.join(" ")).unwrap();
        prop_assert_eq!(read.key(), game.key());
        prop_assert_eq!(read.outcome(), game.outcome());
    }
}

fn play<G: Game>(choices: &[u16]) -> G {
    let mut game = G::start();
    for &c in choices {
        if game.is_over() {
            break;
        }
        let legal = game.legal_moves();
        let mv = legal.as_ref()[c as usize % legal.as_ref().len()];
        game.play_unchecked(mv);
    }
    game
}
