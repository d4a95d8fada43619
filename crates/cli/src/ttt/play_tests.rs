//! The terminal play session (`gamelab play`), tested on tic-tac-toe.

use gamelab_core::{BestMoves, Uniform};
use gamelab_ttt::Ttt;
use gamelab_ttt::board::Moves;

use gamelab_core::Game;
use gamelab_core::session::{PlaySession, Seat};

use gamelab_games::session::erase;

use crate::play::{SessionEnd, play_session};

fn session(game: Ttt, seats: [Seat<Ttt>; 2], input: &str) -> (SessionEnd, String) {
    let mut out = Vec::new();
    let mut session = erase(PlaySession::new(game, seats, 0), true);
    let end = play_session(&mut *session, &mut input.as_bytes(), &mut out).unwrap();
    (end, String::from_utf8(out).unwrap())
}

fn humans() -> [Seat<Ttt>; 2] {
    [Seat::Human, Seat::Human]
}

const PROMPT: &str = "o to move [x,y | undo | exit]: ";

#[test]
fn a_whole_game_between_humans() {
    let input = "1,1\n0,0\n2,0\n0,2\n0,1\n2,1\n1,0\n1,2\n2,2\n";
    let (end, out) = session(Ttt::start(), humans(), input);
    assert_eq!(end, SessionEnd::Finished);
    assert!(out.starts_with("Turn o\n...\n...\n...\no to move"), "{out}");
    assert!(
        out.ends_with("winner draw\nxoo\noox\nxxO\nDraw.\n"),
        "{out}"
    );
    assert_eq!(out.matches(" to move [").count(), 9);
}

#[test]
fn bad_input_gets_one_line_and_a_new_prompt() {
    let (end, out) = session(Ttt::start(), humans(), "abc\n3,0\n1,1\n1,1\n\nexit\n");
    assert_eq!(end, SessionEnd::Exit);
    let expected = [
        "Turn o\n...\n...\n...\n",
        PROMPT,
        "`abc` is not a square: type x,y with x the column and y the row, each 0-2 (1,1 is the centre)\n",
        PROMPT,
        "(3, 0) is off the board: x and y must each be 0, 1 or 2\n",
        PROMPT,
        "Turn x\n...\n.O.\n...\n",
        "x to move [x,y | undo | exit]: ",
        "(1, 1) is already taken by o\n",
        "x to move [x,y | undo | exit]: ",
        "x to move [x,y | undo | exit]: ",
    ]
    .concat();
    assert_eq!(out, expected);
}

#[test]
fn end_of_input_leaves_cleanly() {
    let (end, out) = session(Ttt::start(), humans(), "1,1\n");
    assert_eq!(end, SessionEnd::EndOfInput);
    assert!(
        out.ends_with("x to move [x,y | undo | exit]: \nEnd of input; leaving the game.\n"),
        "{out}"
    );
}

#[test]
fn undo_between_humans_takes_back_one_move() {
    let (_, out) = session(Ttt::start(), humans(), "1,1\n0,0\nundo\nexit\n");
    assert!(out.ends_with("Turn o\nX..\n.o.\n...\no to move [x,y | undo | exit]: Turn x\n...\n.O.\n...\nx to move [x,y | undo | exit]: "), "{out}");
}

#[test]
fn undo_goes_back_to_the_humans_turn_past_an_agent() {
    /// Always the first legal square: enough to test seating.
    struct First;
    impl BestMoves<Ttt> for First {
        fn best_moves(&mut self, game: &Ttt) -> Moves {
            game.legal_moves().into_iter().take(1).collect()
        }
    }
    let seats = [
        Seat::Human,
        Seat::Ai {
            spec: "first".into(),
            agent: Box::new(Uniform(First)),
        },
    ];
    let (end, out) = session(Ttt::start(), seats, "1,1\nundo\nundo\nexit\n");
    assert_eq!(end, SessionEnd::Exit);
    let expected = [
        "Turn o\n...\n...\n...\n",
        PROMPT,
        "Turn x\n...\n.O.\n...\n",
        "x (first) plays 0,0\n",
        "Turn o\nX..\n.o.\n...\n",
        PROMPT,
        // one undo takes back the agent's reply and the human's move
        "Turn o\n...\n...\n...\n",
        PROMPT,
        "Nothing to undo: there is no earlier turn to go back to.\n",
        PROMPT,
    ]
    .concat();
    assert_eq!(out, expected);
}

#[test]
fn agents_alone_play_to_the_end() {
    struct First;
    impl BestMoves<Ttt> for First {
        fn best_moves(&mut self, game: &Ttt) -> Moves {
            game.legal_moves().into_iter().take(1).collect()
        }
    }
    let agent = || Seat::Ai {
        spec: "first".into(),
        agent: Box::new(Uniform(First)),
    };
    let (end, out) = session(Ttt::start(), [agent(), agent()], "");
    assert_eq!(end, SessionEnd::Finished);
    // Both fill the board row by row: o(0,0) x(1,0) o(2,0) x(0,1) o(1,1) x(2,1) o(0,2),
    // and o wins on the diagonal from (2,0).
    assert!(out.ends_with("winner o\noxo\nxox\nO..\nO wins.\n"), "{out}");
}

/// Input typed after a pause, as a person who thinks.
struct Slowly<'a>(&'a [u8], std::time::Duration);

impl std::io::Read for Slowly<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        std::thread::sleep(self.1);
        self.0.read(buf)
    }
}

#[test]
fn on_a_clock_the_prompt_shows_both_clocks_and_a_late_move_loses_on_time() {
    let mut session = PlaySession::new(Ttt::start(), humans(), 0);
    session.set_clock("0.1".parse().unwrap());
    let mut out = Vec::new();
    let mut input =
        std::io::BufReader::new(Slowly(b"1,1\n", std::time::Duration::from_millis(200)));
    let end = play_session(&mut *erase(session, true), &mut input, &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    assert_eq!(end, SessionEnd::Finished);
    assert!(
        out.contains("o to move [x,y | undo | exit] (o 0:00."),
        "{out}"
    );
    assert!(out.contains(", x 0:00.1): "), "{out}");
    assert!(
        out.ends_with("): O's time ran out (0.1 s a side on the clock): X wins on time.\n"),
        "{out}"
    );
}

#[test]
fn an_ai_that_gives_up_loses_the_game_and_the_terminal_says_so() {
    struct Quits;
    impl gamelab_core::Agent<Ttt> for Quits {
        fn choose(&mut self, game: &Ttt, _rng: &mut gamelab_core::GameRng) -> <Ttt as Game>::Move {
            game.legal_moves()[0]
        }
        fn try_choose(
            &mut self,
            _game: &Ttt,
            _rng: &mut gamelab_core::GameRng,
        ) -> Result<<Ttt as Game>::Move, Box<gamelab_core::Forfeit>> {
            Err(Box::new(gamelab_core::Forfeit {
                reason: "its program exited".into(),
                stops_match: false,
            }))
        }
    }
    let seats = [
        Seat::Ai {
            spec: "quits".into(),
            agent: Box::new(Quits),
        },
        Seat::Human,
    ];
    let (end, out) = session(Ttt::start(), seats, "");
    assert_eq!(end, SessionEnd::Finished);
    assert!(
        out.ends_with("quits gave up instead of moving: its program exited. X wins.\n"),
        "{out}"
    );
}
