//! The crate stands on floors: each folder's code names only its own floor and those below
//! it — `rules` → `formats` → `engine` and `protocols` (side by side) → the registry and
//! the sessions at the top; inside `engine`, each module names only modules below it (the
//! builds, the evaluation → the midgame search → the exact solver, whose first guess is a
//! midgame search → the searcher that runs both → the book, training and measures). Read
//! from the sources: every `crate::…` path outside comments, the names of a
//! `use crate::{…}` list among them.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The floor each name reached through `crate::` stands on.
fn floor_of(name: &str) -> &'static str {
    match name {
        "rules" | "bits" | "kernel" | "position" | "Move" | "Moves" | "Othello"
        | "OthelloError" | "Square" | "squares_of" => "rules",
        "formats" | "transcript" | "ggf" | "wthor" | "wthor_database" | "ffo" | "openings"
        | "notation" => "formats",
        "engine" | "patterns" | "learned" | "eval" | "in_order" | "slots" | "search"
        | "endgame" | "probcut" | "builds" | "perft" | "book" | "training" | "hooks" => "engine",
        "protocols" | "outside_engine" | "gtp_engine" | "nboard_engine" => "protocols",
        _ => "top",
    }
}

/// The floors the code of `floor` may name.
fn allowed(floor: &str) -> &'static [&'static str] {
    match floor {
        "rules" => &["rules"],
        "formats" => &["rules", "formats"],
        "engine" => &["rules", "formats", "engine"],
        "protocols" => &["rules", "formats", "protocols"],
        _ => unreachable!("only the floors' folders are read"),
    }
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The names a file reaches through `crate::`, comments left out.
fn crate_names(text: &str) -> BTreeSet<String> {
    names_after(text, "crate::")
}

/// The names that follow `prefix` in a file, comments left out: each path's next segment,
/// and each name of a `prefix{…}` list.
fn names_after(text: &str, prefix: &str) -> BTreeSet<String> {
    let code: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut names = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find(prefix) {
        rest = &rest[at + prefix.len()..];
        if let Some(list) = rest.strip_prefix('{') {
            let end = list.find('}').unwrap_or(list.len());
            for item in list[..end].split(',') {
                let name = item.trim().split("::").next().unwrap_or("").trim();
                if !name.is_empty() {
                    names.insert(name.to_string());
                }
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            names.insert(name);
        }
    }
    names
}

#[test]
fn no_floor_names_one_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    let mut read = 0;
    for floor in ["rules", "formats", "engine", "protocols"] {
        let mut files = Vec::new();
        sources(&src.join(floor), &mut files);
        assert!(!files.is_empty(), "no files in {floor}/");
        for file in files {
            read += 1;
            let text = fs::read_to_string(&file).unwrap();
            for name in crate_names(&text) {
                let to = floor_of(&name);
                if !allowed(floor).contains(&to) {
                    wrong.push(format!(
                        "{} names crate::{name} ({to}), above {floor}",
                        file.strip_prefix(&src).unwrap().display()
                    ));
                }
            }
        }
    }
    assert!(read > 30, "only {read} files read");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_reader_sees_paths_and_lists() {
    let names = crate_names(
        "use crate::{Move, Othello, ggf};\nuse crate::engine::search::Limits; // crate::ai\n",
    );
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        ["Move", "Othello", "engine", "ggf"]
    );
    assert_eq!(floor_of("ai"), "top");
    assert!(!allowed("rules").contains(&floor_of("ggf")));
}

/// The floor of each module of `engine` (a module names only those on lower floors).
fn engine_floor(module: &str) -> Option<u32> {
    Some(match module {
        "builds" | "in_order" | "patterns" | "probcut" | "eval" => 0,
        "slots" | "learned" | "hooks" | "perft" => 1,
        "midgame" => 2,
        "endgame" => 3,
        "search" => 4,
        "accuracy" | "book" | "training" => 5,
        _ => return None,
    })
}

#[test]
fn no_engine_module_names_one_above_it() {
    let engine = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine");
    let mut files = Vec::new();
    sources(&engine, &mut files);
    let mut wrong = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&engine).unwrap();
        // A folder is one module (`endgame/table.rs` is the solver's); `mod.rs` at the top
        // only declares them, and the table of Multi-ProbCut's lines is probcut's.
        let module = match relative.components().next().unwrap().as_os_str().to_str() {
            Some("mod.rs") => continue,
            Some("probcut_table.rs") => "probcut".to_string(),
            Some(name) => name.trim_end_matches(".rs").to_string(),
            None => unreachable!("a file name"),
        };
        let floor = engine_floor(&module)
            .unwrap_or_else(|| panic!("engine/{module} has no floor: give it one above"));
        for name in names_after(&fs::read_to_string(file).unwrap(), "crate::engine::") {
            let to = engine_floor(&name).unwrap_or_else(|| {
                panic!(
                    "{} names engine::{name}, which has no floor",
                    relative.display()
                )
            });
            if name != module && to >= floor {
                wrong.push(format!(
                    "engine/{} names engine::{name} (floor {to}), not below its own ({floor})",
                    relative.display()
                ));
            }
        }
    }
    assert!(files.len() > 15, "only {} files read", files.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
