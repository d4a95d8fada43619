//! The learning pipeline end to end through the binary: records → dataset → train → play.

mod common;

use common::{gamelab, json};
use predicates::prelude::*;

#[test]
fn records_dataset_train_and_play() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    gamelab()
        .args([
            "records",
            "ai2",
            "ai2",
            "-n",
            "500",
            "--seed",
            "3",
            "--out",
            &path("r.csv"),
        ])
        .assert()
        .success()
        .stdout(predicate::str::starts_with("1000 games written"));
    let first = std::fs::read_to_string(path("r.csv")).unwrap();
    assert_eq!(first.lines().count(), 1000);
    gamelab()
        .args([
            "dataset",
            &path("r.csv"),
            "--out",
            &path("d.csv"),
            "--symmetries",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("1000 games,"));
    gamelab()
        .args(["train", &path("d.csv"), "--out", &path("m.json")])
        .assert()
        .success()
        .stdout(predicate::str::contains("RMSE"));
    let spec = format!("regression:model={}", path("m.json"));
    let v = json(&["match", &spec, "ai2", "--exact", "--json"]);
    assert!(v["exact"]["first"]["win"].as_f64().unwrap() > 0.9, "{v}");
    // JSON Lines records work as well
    gamelab()
        .args([
            "records",
            "ai14s",
            "ai2",
            "-n",
            "10",
            "--out",
            &path("r.jsonl"),
        ])
        .assert()
        .success();
    gamelab()
        .args(["dataset", &path("r.jsonl"), "--out", &path("d2.csv")])
        .assert()
        .success();
}

#[test]
fn learn_curve_prints_the_articles_table() {
    gamelab()
        .args(["learn-curve", "--sizes", "10,100"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "training games  symmetries   o win",
        ))
        .stdout(predicate::str::is_match(r"(?m)^ +10  no ").unwrap())
        .stdout(predicate::str::is_match(r"(?m)^ +100  yes ").unwrap())
        .stdout(predicate::str::contains("article 002"));
}

#[test]
fn bad_files_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, "1,0,3,1,4,2\n1,4,4\n").unwrap();
    gamelab()
        .args([
            "dataset",
            bad.to_str().unwrap(),
            "--out",
            dir.path().join("d.csv").to_str().unwrap(),
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "bad.csv, line 2: move 2: (1, 1) is already taken",
        ));
    std::fs::write(&bad, "ave,h1-0\n1,0\n").unwrap();
    gamelab()
        .args([
            "train",
            bad.to_str().unwrap(),
            "--out",
            dir.path().join("m.json").to_str().unwrap(),
        ])
        .assert()
        .failure()
        .stderr(predicate::str::contains(
            "bad.csv, line 1: the header must be",
        ));
}
