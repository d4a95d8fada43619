//! The README's command table is true: every example in it runs and succeeds, in order, in
//! a scratch directory (the examples that read files read what earlier ones wrote).

mod common;

use std::path::Path;

use common::gamelab;

/// The `gamelab …` code spans of the README's command table.
fn examples(readme: &str) -> Vec<String> {
    let start = readme
        .find("<!-- commands -->")
        .expect("the table's start marker");
    let end = readme
        .find("<!-- /commands -->")
        .expect("the table's end marker");
    readme[start..end]
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| span.starts_with("gamelab "))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_documented_example_runs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let shared = root.join("../shared").canonicalize().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let examples = examples(&readme);
    assert!(examples.len() > 30, "{examples:?}");
    let mut per_game = std::collections::BTreeMap::new();
    for example in &examples {
        let args: Vec<String> = example
            .split_whitespace()
            .skip(1)
            .map(|a| a.replace("../shared", &shared.to_string_lossy()))
            .collect();
        let game = args
            .iter()
            .position(|a| a == "--game")
            .map_or(gamelab_games::DEFAULT.to_string(), |i| args[i + 1].clone());
        *per_game.entry(game).or_insert(0) += 1;
        let out = gamelab()
            .current_dir(dir.path())
            .args(&args)
            .write_stdin("exit\n")
            .timeout(std::time::Duration::from_secs(120))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "`{example}` failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // The table shows every game of the catalogue.
    for name in gamelab_games::NAMES {
        assert!(
            per_game.get(*name).is_some_and(|&n| n >= 5),
            "{name}: {per_game:?}"
        );
    }
}
