//! Positions and move lists of every game: the first line is a position (or empty for the
//! start), each further line a move. Reading never panics; every move read is legal and
//! played; undoing them all gives the position back.

use gamelab_core::{Described, GameVisitor};

struct Play<'a>(&'a str);

impl GameVisitor for Play<'_> {
    type Output = ();
    fn visit<G: Described>(self) {
        let mut lines = self.0.lines();
        let first = lines.next().unwrap_or("");
        let mut game = if first.trim().is_empty() {
            G::start()
        } else {
            match G::parse_position(first) {
                Ok(g) => g,
                Err(e) => {
                    // Errors say something.
                    assert!(!e.to_string().is_empty());
                    return;
                }
            }
        };
        let key = game.key();
        let mut played = 0;
        for line in lines.take(200) {
            if game.is_over() {
                break;
            }
            match game.parse_move(line) {
                Ok(mv) => {
                    assert!(
                        game.legal_moves().as_ref().contains(&mv),
                        "`{line}` read as an illegal move"
                    );
                    game.play(mv).expect("a move parse_move accepted plays");
                    played += 1;
                }
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
        for _ in 0..played {
            game.undo().expect("a move to undo");
        }
        assert_eq!(game.key(), key, "undo gives the position back");
    }
}

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for game in gamelab_games::NAMES {
        gamelab_games::visit(game, None, Play(text)).expect("a catalogue name");
    }
}
