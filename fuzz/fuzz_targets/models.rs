//! Model files: tic-tac-toe's linear models (JSON) and Othello's pattern models (zstd).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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
});
