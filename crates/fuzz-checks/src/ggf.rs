//! GGF games and move transcripts: whatever reads must write out and read back the same.

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(games) = gamelab_othello::ggf::parse(text) {
        for game in games {
            let again = gamelab_othello::ggf::parse_one(&game.write());
            assert_eq!(
                again.as_ref(),
                Ok(&game),
                "a game read writes as one that reads"
            );
        }
    }
    if let Ok((moves, _)) = gamelab_othello::transcript::parse(text) {
        let written = gamelab_othello::transcript::write(&moves);
        let again = gamelab_othello::transcript::parse(&written).map(|(m, _)| m);
        assert_eq!(
            again.as_ref(),
            Ok(&moves),
            "a transcript read writes as one that reads"
        );
    }
}
