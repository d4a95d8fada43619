//! Model files: tic-tac-toe's linear models (JSON), Othello's pattern models (zstd) and
//! opening books.

pub fn check(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        static KNOWN: std::sync::OnceLock<Vec<gamelab_learn::FeatureSet>> =
            std::sync::OnceLock::new();
        let known = KNOWN.get_or_init(gamelab_ttt::learned::FeatureSet::known);
        if let Ok(model) = gamelab_learn::Model::parse(text, "fuzz", known) {
            assert!(model.weights.iter().all(|w| w.is_finite()));
        }
    }
    if let Ok(model) = gamelab_othello::learned::PatternModel::from_bytes(data) {
        // A model that reads evaluates.
        let (black, white) = <gamelab_othello::Othello as gamelab_core::Game>::start().discs();
        let _ = model.evaluate(black, white);
    }
    if let Ok(book) = gamelab_othello::book::Book::from_bytes(data) {
        // A book that reads writes back as the same bytes, and each of its positions
        // answers with a legal move and a line that plays.
        assert_eq!(book.to_bytes(), data);
        for e in book.entries().iter().take(64) {
            let pos = gamelab_othello::Othello::from_discs(e.p, e.o, true);
            let hit = book.probe(&pos).expect("a book position is in the book");
            let mut line = pos.clone();
            for &mv in &hit.line {
                gamelab_core::Game::check_move(&line, mv).expect("the book's line is legal");
                line.play_unchecked(mv);
            }
        }
    }
}
