//! The rules, the text form and the parsers of the tic-tac-toe position.

use gamelab_core::Notation;
use gamelab_core::{Game, Outcome, Side};
use gamelab_ttt::board::{Array1d, Array2d, Board, LineCounts};
use gamelab_ttt::{
    Markpat, MoveError, ParsePositionError, Player, Position, Square, Status, Symmetry, Ttt,
    move_images,
};

fn sq(x: usize, y: usize) -> Square {
    Square::from_xy(x, y).unwrap()
}

fn moves(text: &str) -> Ttt {
    Position::from_moves(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The judge cases, checked on every structure so that each one's `is_winner` is covered.
fn judge_cases<B: Board>() {
    let cases: [(&str, Status); 11] = [
        // rows, o wins on move 5
        ("0,0 0,1 1,0 1,1 2,0", Status::Won(Player::O)),
        ("0,1 0,0 1,1 1,0 2,1", Status::Won(Player::O)),
        ("0,2 0,0 1,2 1,0 2,2", Status::Won(Player::O)),
        // columns, x wins on move 6
        ("1,1 0,0 2,2 0,1 1,0 0,2", Status::Won(Player::X)),
        ("0,0 1,0 2,2 1,1 0,2 1,2", Status::Won(Player::X)),
        // diagonals
        ("0,0 1,0 1,1 2,0 2,2", Status::Won(Player::O)),
        ("1,0 2,0 0,0 1,1 2,2 0,2", Status::Won(Player::X)),
        // o wins with the 9th move, on a full board: a win, not a draw
        (
            "0,0 1,0 2,0 0,1 1,1 2,1 1,2 0,2 2,2",
            Status::Won(Player::O),
        ),
        // a draw
        ("0,0 1,1 2,2 1,0 1,2 0,2 2,0 2,1 0,1", Status::Draw),
        // unfinished: two in a row is not a win
        ("0,0 1,1 1,0", Status::Playing),
        ("", Status::Playing),
    ];
    for (list, expected) in cases {
        let pos = Position::<B>::from_moves(list).unwrap();
        assert_eq!(pos.status(), expected, "{} after {list}:\n{pos}", B::NAME);
        assert_eq!(pos.legal_moves().is_empty(), expected != Status::Playing);
    }
}

#[test]
fn judge_on_every_structure() {
    judge_cases::<gamelab_ttt::board::Bitboard>();
    judge_cases::<Array2d>();
    judge_cases::<Array1d>();
    judge_cases::<LineCounts<Array2d>>();
    judge_cases::<LineCounts<Array1d>>();
    judge_cases::<LineCounts<gamelab_ttt::board::Bitboard>>();
}

#[test]
fn state_after_moves() {
    let mut pos = Ttt::new();
    assert_eq!(pos.turn(), Player::O);
    assert_eq!(pos.last_turn(), Player::X);
    assert_eq!(pos.last_move(), None);
    assert_eq!(pos.move_count(), 0);
    assert_eq!(pos.status(), Status::Playing);
    assert_eq!(pos.legal_moves().to_vec(), Square::ALL.to_vec());

    pos.play_unchecked(sq(1, 1));
    assert_eq!(pos.turn(), Player::X);
    assert_eq!(pos.last_turn(), Player::O);
    assert_eq!(pos.last_move(), Some(sq(1, 1)));
    assert_eq!(pos.move_count(), 1);
    assert_eq!(Game::to_move(&pos), Side::Second);
    // y-major order, the centre gone
    assert_eq!(
        pos.legal_moves().to_vec(),
        vec![
            sq(0, 0),
            sq(1, 0),
            sq(2, 0),
            sq(0, 1),
            sq(2, 1),
            sq(0, 2),
            sq(1, 2),
            sq(2, 2)
        ]
    );

    assert_eq!(pos.undo(), Some(sq(1, 1)));
    assert_eq!(pos, Ttt::new());
    assert_eq!(pos.undo(), None);
}

#[test]
fn undo_reopens_a_finished_game() {
    let mut pos = moves("0,0 0,1 1,0 1,1 2,0");
    assert_eq!(pos.outcome(), Some(Outcome::Win(Side::First)));
    pos.undo();
    assert_eq!(pos.status(), Status::Playing);
    assert_eq!(pos.turn(), Player::O);
    assert_eq!(pos.last_move(), Some(sq(1, 1)));
}

#[test]
fn text_form_is_the_seeds() {
    assert_eq!(Ttt::new().to_string(), "Turn o\n...\n...\n...");
    // article 000: ai2 VS ai2 after (0,1) by o, (2,0) by x
    assert_eq!(moves("0,1 2,0").to_string(), "Turn o\n..X\no..\n...");
    assert_eq!(
        moves("0,1 2,0 1,1 1,0 0,0 1,2 2,1").to_string(),
        "winner o\noxx\nooO\n.x."
    );
    assert_eq!(
        moves("0,0 1,1 2,2 1,0 1,2 0,2 2,0 2,1 0,1").to_string(),
        "winner draw\noxo\nOxx\nxoo"
    );
}

#[test]
fn markpats_match_the_seeds_trace() {
    // article 000, ai12s debug trace: after o plays (0, 0), five lines are empty and three
    // hold one o.
    let pos = moves("0,0");
    let c = pos.count_markpats();
    assert_eq!(c.get(Markpat::new(0, 0, 3)), 5);
    assert_eq!(c.get(Markpat::new(1, 0, 2)), 3);
    assert_eq!(c.iter().count(), 2);
    // ... and after x answers (1, 0): from x's point of view.
    let c = moves("0,0 1,0").count_markpats();
    assert_eq!(c.get(Markpat::new(0, 0, 3)), 4);
    assert_eq!(c.get(Markpat::new(0, 1, 2)), 2);
    assert_eq!(c.get(Markpat::new(1, 0, 2)), 1);
    assert_eq!(c.get(Markpat::new(1, 1, 1)), 1);
}

#[test]
fn board_strings_round_trip_on_every_reachable_position() {
    fn walk(pos: &mut Ttt, checked: &mut usize) {
        let parsed: Ttt = pos.board_string().parse().unwrap();
        assert_eq!(parsed.key(), pos.key());
        assert_eq!(parsed.status(), pos.status());
        assert_eq!(parsed.turn(), pos.turn());
        // The text form (with its upper-case last move) reads back exactly.
        let reread: Ttt = pos.to_string().parse().unwrap();
        assert_eq!(reread.to_string(), pos.to_string());
        *checked += 1;
        for mv in pos.legal_moves() {
            pos.play_unchecked(mv);
            walk(pos, checked);
            pos.undo();
        }
    }
    let mut checked = 0;
    walk(&mut Ttt::new(), &mut checked);
    assert_eq!(checked, 549_946);
}

#[test]
fn parsed_history_can_be_undone_to_the_start() {
    let mut pos: Ttt = "xoX.o....".parse().unwrap();
    assert_eq!(pos.last_move(), Some(sq(2, 0)));
    assert_eq!(pos.turn(), Player::O);
    while pos.undo().is_some() {
        assert_eq!(pos.status(), Status::Playing);
    }
    assert_eq!(pos, Ttt::new());
}

#[test]
fn a_won_board_ends_with_a_winning_move() {
    let pos: Ttt = "ooo.xx...".parse().unwrap();
    assert_eq!(pos.status(), Status::Won(Player::O));
    // o's last move completed the row; the other o marks were played before.
    let mut before = pos.clone();
    before.undo();
    assert_eq!(before.status(), Status::Playing);
}

#[test]
fn bad_board_strings_are_explained() {
    use ParsePositionError::*;
    let err = |s: &str| s.parse::<Ttt>().unwrap_err();
    assert_eq!(err("ox"), Length(2));
    assert_eq!(err("o.x.o..x.."), Length(10));
    assert_eq!(err("o.x.q...."), BadChar { ch: 'q', index: 4 });
    assert_eq!(err("oo......."), MarkCounts { o: 2, x: 0 });
    assert_eq!(err("x........"), MarkCounts { o: 0, x: 1 });
    assert_eq!(err("oooxxx..."), BothWin);
    assert_eq!(
        err("xxxoo.oo."),
        WinnerDidNotMoveLast {
            winner: Player::X,
            last: Player::O
        }
    );
    assert_eq!(err("Ox.O....."), SeveralLastMoves);
    assert_eq!(
        err("Ox......."),
        LastMoveWrongPlayer {
            square: sq(0, 0),
            mark: Player::O,
            last: Player::X
        }
    );
    assert_eq!(err("oooxxOx.."), LastMoveTooLate(sq(2, 1)));
    assert_eq!(err("Turn q\n...\n...\n..."), BadHeader("Turn q".into()));
    assert!(matches!(
        err("Turn x\n...\n...\n..."),
        HeaderMismatch { .. }
    ));
    // every message says what is expected
    assert!(err("ox").to_string().contains("9 squares"));
    assert!(err("o.x.q....").to_string().contains("`.` for empty"));
}

#[test]
fn move_lists_in_every_notation() {
    let a = moves("1,1 0,0 2,2");
    let b = moves("(1, 1) (0, 0) (2, 2)");
    let c = moves("408");
    let d = moves("4 0 8");
    let e = moves("1,1; 0,0; 2,2");
    for p in [&b, &c, &d, &e] {
        assert_eq!(p.history(), a.history());
    }
    assert_eq!(a.history(), &[sq(1, 1), sq(0, 0), sq(2, 2)]);
}

#[test]
fn bad_move_lists_name_the_move() {
    let err = Ttt::from_moves("1,1 1,1").unwrap_err();
    assert!(matches!(
        err,
        ParsePositionError::Move {
            number: 2,
            error: MoveError::Occupied { .. },
            ..
        }
    ));
    assert_eq!(
        err.to_string(),
        "move 2 `1,1`: (1, 1) is already taken by o"
    );
    let err = Ttt::from_moves("1,1 3,0").unwrap_err();
    assert!(err.to_string().contains("off the board"), "{err}");
    let err = Ttt::from_moves("49a").unwrap_err();
    assert!(err.to_string().contains("not a square"), "{err}");
    let err = Ttt::from_moves("0 3 1 4 2 5").unwrap_err();
    assert!(err.to_string().contains("game is over"), "{err}");
}

#[test]
fn parse_move_checks_syntax_board_and_occupancy() {
    let pos = moves("1,1");
    assert_eq!(pos.parse_move("0,2"), Ok(sq(0, 2)));
    assert_eq!(pos.parse_move(" (2, 1) "), Ok(sq(2, 1)));
    assert_eq!(pos.parse_move("2 1"), Ok(sq(2, 1)));
    assert!(matches!(
        pos.parse_move("1,1"),
        Err(MoveError::Occupied { .. })
    ));
    assert_eq!(
        pos.parse_move("3,1"),
        Err(MoveError::OffBoard { x: 3, y: 1 })
    );
    for bad in ["", "a,b", "1", "1,2,3", "-1,0", "1;1"] {
        assert!(
            matches!(pos.parse_move(bad), Err(MoveError::Syntax { .. })),
            "{bad:?}"
        );
    }
    let mut done = moves("0,0 0,1 1,0 1,1 2,0");
    assert!(matches!(
        done.parse_move("2,2"),
        Err(MoveError::GameOver { .. })
    ));
    assert!(done.play(sq(2, 2)).is_err());
    assert_eq!(
        done.ply(),
        5,
        "a refused move leaves the position unchanged"
    );
}

#[test]
fn symmetric_images_share_the_canonical_key() {
    let pos = moves("0,0 1,0 1,1");
    let images = pos.images();
    let keys: std::collections::HashSet<_> = images.iter().map(|p| p.key()).collect();
    assert_eq!(keys.len(), 8, "this position has no symmetry of its own");
    for image in &images {
        assert_eq!(image.canonical_key(), pos.canonical_key());
        assert_eq!(image.status(), pos.status());
        assert_eq!(image.move_count(), pos.move_count());
    }
    // the last move maps with the position
    for (s, image) in Symmetry::ALL.iter().zip(&images) {
        assert_eq!(image.last_move(), Some(s.apply(sq(1, 1))));
    }
    let edge_images: std::collections::HashSet<_> = move_images(sq(1, 0)).into_iter().collect();
    assert_eq!(edge_images.len(), 4);
    // an image under a symmetry and its inverse is the original
    for s in Symmetry::ALL {
        assert_eq!(pos.transformed(s).transformed(s.inverse()).key(), pos.key());
    }
}

#[test]
fn convert_between_structures_keeps_everything() {
    let pos = moves("1,1 0,0 2,2 0,2");
    let other: Position<LineCounts<Array1d>> = pos.convert();
    assert_eq!(other.to_string(), pos.to_string());
    assert_eq!(other.history(), pos.history());
    assert_eq!(other.count_markpats(), pos.count_markpats());
}
