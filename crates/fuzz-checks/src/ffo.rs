//! FFO suites and Othello board strings (with Edax's OBF tails).

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(positions) = gamelab_othello::ffo::parse(text, "fuzz") {
        for p in positions {
            assert!(p.expected.abs() <= 64);
            let again = gamelab_othello::Othello::from_board_string(&p.position.board_string());
            assert!(again.is_ok(), "a position read prints as one that reads");
        }
    }
}
