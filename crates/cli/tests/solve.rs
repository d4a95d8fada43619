//! `gamelab tree`, `solve`, `search` and `verify` through the binary.

mod common;

use common::{gamelab, json};
use predicates::prelude::*;

#[test]
fn tree_stats() {
    gamelab()
        .args(["tree", "stats"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "    8     200448\n    9     127872\ntotal     549946",
        ))
        .stdout(predicate::str::contains(
            "finished games 255168 (o wins 131184, x wins 77904, draws 46080)",
        ))
        .stdout(predicate::str::contains(
            "distinct positions 5478 (765 up to symmetry)",
        ))
        .stdout(predicate::str::contains("value of the start: draw"));
}

#[test]
fn tree_show_a_node() {
    gamelab()
        .args(["tree", "show", "o...x...o"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "Turn x\no..\n.x.\n..O\no...x...o  value  0",
        ))
        .stdout(predicate::str::contains("parents (2):"))
        .stdout(predicate::str::contains(
            "children (6), * marks a best move:",
        ))
        // the edges hold the draw, the corners lose
        .stdout(predicate::str::contains(
            "* (1, 0)  ox..x...o  value  0  sv  0  svrd -0.5  best for gt, sv, svrd",
        ))
        .stdout(predicate::str::contains(
            "    (2, 0)  o.x.x...o  value  1  sv  2",
        ));
    gamelab()
        .args(["tree", "show", "ooo......"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("cannot read the position"));
}

#[test]
fn solve_writes_and_checks_a_table() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ttt.solved");
    let f = file.to_str().unwrap();
    gamelab()
        .args(["solve", "--out", f])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("value of the start: draw"))
        .stdout(predicate::str::contains("5478 positions solved"));
    gamelab()
        .args(["solve", "--in", f])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "5478 positions, identical to the solved game",
        ));
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.truncate(bytes.len() - 3);
    std::fs::write(&file, &bytes).unwrap();
    gamelab()
        .args(["solve", "--in", f])
        .assert()
        .failure()
        .stderr(predicate::str::contains("is truncated"));
}

#[test]
fn search_reports_the_seeds_table_size() {
    gamelab()
        .args(["search", ".........", "--per-move"])
        .assert()
        .success()
        .stdout(predicate::str::contains("nodes 1175, table 3219 entries"));
    gamelab()
        .args(["search", ".........", "--depth", "9"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "depth     score  best        nodes  table     time\n    9         0",
        ))
        .stdout(predicate::str::contains("pv (0, 0) (1, 1)"));
    gamelab()
        .args(["search", ".........", "--depth", "12"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--depth 12 is out of range"));
    gamelab()
        .args(["search", "ooo.xx...", "--depth", "3"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("the game is already over"));
}

#[test]
fn verify_proves_and_refutes() {
    gamelab()
        .args(["verify", "ai14s"])
        .assert()
        .success()
        .stdout(predicate::str::contains("ai14s as o: never loses"))
        .stdout(predicate::str::contains("ai14s as x: never loses"));
    gamelab()
        .args(["verify", "ai11s:ver=3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("ai11s:ver=3 as o: never loses"))
        .stdout(predicate::str::contains(
            "ai11s:ver=3 as x: can lose, e.g. o 0,0; x 1,1; o 2,2",
        ))
        .stdout(predicate::str::contains("winner o"));
}

#[test]
fn bench_measures_every_structure() {
    let v = json(&["bench", "--games", "300", "--repeat", "1", "--json"]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    let names: Vec<_> = rows
        .iter()
        .map(|r| format!("{}{}", r["board"].as_str().unwrap(), r["line_counts"]))
        .collect();
    assert_eq!(
        names,
        [
            "2dfalse",
            "2dtrue",
            "1dfalse",
            "1dtrue",
            "bitboardfalse",
            "bitboardtrue"
        ]
    );
    for r in rows {
        for key in [
            "ai2_vs_ai2_games_per_s",
            "ai14s_vs_ai2_games_per_s",
            "ai_abs_dls_seconds",
        ] {
            let f = &r[key];
            let (lo, med, hi) = (
                f["min"].as_f64().unwrap(),
                f["median"].as_f64().unwrap(),
                f["max"].as_f64().unwrap(),
            );
            assert!(lo > 0.0 && lo <= med && med <= hi, "{key}: {f}");
        }
    }
    gamelab()
        .args(["bench", "--games", "100", "--repeat", "1"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "boardclass: 2d, count_linemark False\nai2 VS ai2",
        ))
        .stdout(predicate::str::contains("structure counts"));
    gamelab()
        .args(["bench", "--repeat", "0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("not in 1..=1000"));
}
