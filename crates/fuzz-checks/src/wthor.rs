//! WTHOR game databases: reading and replaying every game.

pub fn check(data: &[u8]) {
    if let Ok(games) = gamelab_othello::wthor::parse(data, "fuzz") {
        for game in games.iter().take(100) {
            let _ = game.replay();
        }
    }
}
