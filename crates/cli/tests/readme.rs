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

/// The documents users read: the README and every page of `docs/`.
fn documents(root: &Path) -> Vec<(String, String)> {
    let mut docs = vec![(
        "README.md".to_string(),
        std::fs::read_to_string(root.join("README.md")).unwrap(),
    )];
    let mut pages: Vec<_> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    for page in pages {
        let name = format!("docs/{}", page.file_name().unwrap().to_string_lossy());
        docs.push((name, std::fs::read_to_string(&page).unwrap()));
    }
    docs
}

/// The code blocks of `text` whose first line is `$ gamelab …`: the command, then what
/// follows it.
fn transcripts(text: &str) -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```" {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        if let Some(command) = block.first().and_then(|l| l.strip_prefix("$ gamelab ")) {
            let shown = block[1..].iter().map(|l| l.to_string()).collect();
            found.push((command.to_string(), shown));
        }
    }
    found
}

/// Every `$ gamelab …` example of the README and `docs/` prints what it shows: its lines
/// are the start of the command's output, a last line `…` standing for the rest. A line
/// of a prompt with text after it (`…]: 1,1`) is a move typed there: it is fed on
/// standard input, and the output goes on after the prompt (nothing echoes it).
#[test]
fn every_transcript_shows_what_gamelab_prints() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for (name, text) in documents(&root) {
        for (command, shown) in transcripts(&text) {
            let mut expected = String::new();
            let mut typed = String::new();
            for line in shown.iter().take_while(|l| l.as_str() != "…") {
                match line.split_once("]: ") {
                    Some((prompt, input)) if !input.is_empty() => {
                        expected += &format!("{prompt}]: ");
                        typed += &format!("{input}\n");
                    }
                    _ => expected += &format!("{line}\n"),
                }
            }
            typed += "exit\n";
            let out = gamelab()
                .current_dir(dir.path())
                .args(command.split_whitespace())
                .write_stdin(typed)
                .timeout(std::time::Duration::from_secs(120))
                .output()
                .unwrap();
            let printed = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success() && printed.starts_with(&expected),
                "{name}: `gamelab {command}` shows\n{expected}\nbut prints\n{printed}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked} transcripts");
}

/// GitHub's anchor for a heading: lower case, spaces to hyphens, punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every link of the README and `docs/` to a file of the checkout leads to one, and every
/// `#anchor` to a heading of its page.
#[test]
fn every_link_between_the_documents_leads_somewhere() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut checked = 0;
    for (name, text) in documents(&root) {
        let base = root.join(&name);
        let folder = base.parent().unwrap().to_path_buf();
        for link in text.split("](").skip(1).filter_map(|s| s.split(')').next()) {
            if link.starts_with("http") {
                continue;
            }
            let (file, fragment) = link.split_once('#').unwrap_or((link, ""));
            let target = if file.is_empty() {
                base.clone()
            } else {
                folder.join(file)
            };
            assert!(target.exists(), "{name}: `{link}` leads nowhere");
            if !fragment.is_empty() {
                let page = std::fs::read_to_string(&target).unwrap();
                let anchors: Vec<String> = page
                    .lines()
                    .filter_map(|l| {
                        l.trim_start_matches('#')
                            .strip_prefix(' ')
                            .filter(|_| l.starts_with('#'))
                    })
                    .map(anchor)
                    .collect();
                assert!(
                    anchors.iter().any(|a| a == fragment),
                    "{name}: `{link}`: no heading `{fragment}` in {anchors:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked} links");
}
