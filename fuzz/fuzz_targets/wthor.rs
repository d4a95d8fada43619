//! WTHOR game databases: reading and replaying every game.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(games) = gamelab_othello::wthor::parse(data, "fuzz") {
        for game in games.iter().take(100) {
            let _ = game.replay();
        }
    }
});
