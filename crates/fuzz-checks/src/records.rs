//! Game records: JSON Lines records replayed in every game, and the articles' CSV lines.

use gamelab_core::record::{GameRecord, record_from_csv, replay};
use gamelab_core::{Described, GameVisitor};

struct Replay<'a>(&'a str);

impl GameVisitor for Replay<'_> {
    type Output = ();
    fn visit<G: Described>(self) {
        for line in self.0.lines().take(50) {
            if let Ok(record) = serde_json::from_str::<GameRecord>(line) {
                let _ = replay::<G>(&record);
            }
            if let Ok(record) = record_from_csv::<G>(line, 0) {
                replay::<G>(&record).expect("a CSV line read is a game that replays");
            }
        }
    }
}

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for game in gamelab_games::NAMES {
        gamelab_games::visit(game, None, Replay(text)).expect("a catalogue name");
    }
}
