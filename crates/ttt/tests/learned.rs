//! Records → dataset → fit → model → AI, and every way the files can be wrong.

use gamelab_core::Analyst;
use std::path::Path;
use std::sync::Arc;

use gamelab_core::{Agent, Uniform};
use gamelab_learn::{FileError, Model, fit};
use gamelab_ttt::learned::features::{FEATURES, active_features, feature_names};
use gamelab_ttt::learned::{
    FeatureSet, Game, Regression, Scores, Targets, csv_line, load_model, read_dataset, read_games,
};
use gamelab_ttt::{Square, Ttt};

fn squares(list: &[usize]) -> Vec<Square> {
    list.iter().map(|&i| Square::ALL[i]).collect()
}

/// o wins on the top row: 0 3 1 4 2.
fn o_wins() -> Game {
    Game {
        moves: squares(&[0, 3, 1, 4, 2]),
        winner: 1,
    }
}

#[test]
fn scores_follow_the_seed() {
    let mut s = Scores::default();
    s.add_game(&o_wins(), false);
    assert_eq!(s.boards.len(), 5, "one board after each move");
    assert!(
        s.boards
            .values()
            .all(|&(total, count)| (total, count) == (10, 1))
    );
    // the article's example board after the first move: o on square 0
    assert_eq!(s.boards[&[1, 0, 0, 0, 0, 0, 0, 0, 0]], (10, 1));
    let x_wins = Game {
        moves: squares(&[0, 3, 1, 4, 8, 5]),
        winner: 2,
    };
    s.add_game(&x_wins, false);
    assert_eq!(
        s.boards[&[1, 0, 0, 0, 0, 0, 0, 0, 0]],
        (0, 2),
        "+10 −10 over two games"
    );
    let rows = s.rows();
    assert!(
        rows.windows(2).all(|w| w[0].0 <= w[1].0),
        "sorted by average"
    );
}

#[test]
fn symmetries_score_every_distinct_image() {
    let mut s = Scores::default();
    s.add_game(
        &Game {
            moves: squares(&[0]),
            winner: 0,
        },
        true,
    );
    // a corner has 4 distinct images
    assert_eq!(s.boards.len(), 4);
    let mut c = Scores::default();
    c.add_game(
        &Game {
            moves: squares(&[4]),
            winner: 0,
        },
        true,
    );
    assert_eq!(c.boards.len(), 1, "the centre is its own image");
    assert_eq!(
        c.boards[&[0, 0, 0, 0, 1, 0, 0, 0, 0]],
        (0, 1),
        "counted once"
    );
}

#[test]
fn dataset_csv_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.csv");
    let mut s = Scores::default();
    s.add_game(&o_wins(), true);
    s.write_csv(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("ave,h1-0,h1-1,"));
    assert_eq!(text.lines().count(), 1 + s.boards.len());
    let (back, _) = read_dataset(&path).unwrap();
    assert_eq!(back, s.dataset());
    assert!(back.rows.iter().all(|r| r.active.len() == 8));
}

fn write(dir: &Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn bad_datasets_name_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let header = gamelab_ttt::learned::features::header().join(",");
    let zeros = vec!["0"; FEATURES].join(",");
    let err = read_dataset(&write(dir.path(), "h.csv", "ave,x1\n1,0\n")).unwrap_err();
    assert!(
        err.to_string()
            .contains("h.csv, line 1: the header must be `ave,h1-0,…,d2-26`"),
        "{err}"
    );
    let err = read_dataset(&write(
        dir.path(),
        "v.csv",
        &format!("{header}\n1.5,{zeros}\n2,{}\n", zeros.replacen('0', "7", 1)),
    ))
    .unwrap_err();
    assert!(
        err.to_string()
            .contains("v.csv, line 3: `7` in column h1-0 is not 0 or 1"),
        "{err}"
    );
    let err = read_dataset(&write(
        dir.path(),
        "n.csv",
        &format!("{header}\nabc,{zeros}\n"),
    ))
    .unwrap_err();
    assert!(
        err.to_string().contains("line 2: `abc` is not a number"),
        "{err}"
    );
    let err = read_dataset(&write(dir.path(), "s.csv", &format!("{header}\n1,0,1\n"))).unwrap_err();
    assert!(
        err.to_string()
            .contains("line 2: 3 values; the header has 217"),
        "{err}"
    );
    assert!(matches!(
        read_dataset(&dir.path().join("none.csv")),
        Err(FileError::Io { .. })
    ));
}

#[test]
fn records_are_read_and_checked() {
    let dir = tempfile::tempdir().unwrap();
    let good = format!("{}\n0,4,0,8,2,1,7,6,3,5\n", csv_line(&o_wins()));
    let games = read_games(&write(dir.path(), "r.csv", &good)).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0], o_wins());
    assert_eq!(games[1].winner, 0);
    for (text, expect) in [
        (
            "1,0,3,1,4,2\n2,0,0\n",
            "line 2: move 2: (0, 0) is already taken",
        ),
        (
            "2,0,3,1,4,2\n",
            "line 1: the moves end with winner 1 but the record says 2",
        ),
        ("1,0,3\n", "line 1: the moves end before the game does"),
        ("1,0,9\n", "line 1: square 9 is not 0–8"),
        ("5,0\n", "winner 5 is not 0 (draw), 1 (o) or 2 (x)"),
        ("{\"game\":\"ttt\"}\n", "line 1: not a game record"),
    ] {
        let err = read_games(&write(dir.path(), "bad.csv", text))
            .unwrap_err()
            .to_string();
        assert!(err.contains(expect), "{text:?}: {err}");
        assert!(err.contains("bad.csv"), "{err}");
    }
}

#[test]
fn a_model_learns_to_win_and_round_trips() {
    // 2,000 random games are plenty for o to beat random play most of the time.
    let registry = gamelab_ttt::ai::registry::<gamelab_ttt::board::Bitboard>();
    let cfg = gamelab_core::arena::MatchConfig {
        games_per_side: 1000,
        seed: 1,
        threads: 1,
        opening_plies: 0,
        ..Default::default()
    };
    let (_, played) = gamelab_core::arena::run_match::<Ttt, _>(
        &|| registry.build("ai2").unwrap(),
        &|| registry.build("ai2").unwrap(),
        &cfg,
        &|_| {},
        true,
    );
    let mut scores = Scores::default();
    for g in &played {
        let winner = match g.outcome.winner() {
            Some(gamelab_core::Side::First) => 1,
            Some(gamelab_core::Side::Second) => 2,
            None => 0,
        };
        scores.add_game(
            &Game {
                moves: g.moves.clone(),
                winner,
            },
            true,
        );
    }
    let data = scores.dataset();
    let fitted = fit(&data.rows, FEATURES, 1e-3).unwrap();
    let model = Model::new(&fitted, &FeatureSet::Lines.set(), 1e-3, data.rows.len());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.json");
    model.save(&path).unwrap();
    let loaded = load_model(&path).unwrap();
    assert_eq!(loaded, model);
    assert_eq!(loaded.feature_names, feature_names());

    let mut ai = Uniform(Regression {
        model: Arc::new(loaded),
    });
    let mut random = registry.build("ai2").unwrap();
    let r =
        gamelab_core::arena::exact_match::<Ttt>(&mut ai, &mut *random, ["model", "ai2"]).unwrap();
    assert!(r.first.win > 0.9, "{r:?}");
    // through the registry, by file
    let spec = format!("regression:model={}", path.display());
    let mut by_file = registry.build(&spec).unwrap();
    let start = Ttt::default();
    assert_eq!(by_file.analyst().unwrap().policy(&start), ai.policy(&start));
}

#[test]
fn the_ai_maximises_as_o_and_minimises_as_x() {
    // A model that only values o in the centre and x in the top-left corner.
    let mut weights = vec![0.0; FEATURES];
    let centre_o: [u8; 9] = [0, 0, 0, 0, 1, 0, 0, 0, 0];
    for f in active_features(&centre_o) {
        weights[f] += 1.0;
    }
    let corner_x: [u8; 9] = [2, 0, 0, 0, 0, 0, 0, 0, 0];
    for f in active_features(&corner_x) {
        weights[f] -= 1.0;
    }
    // the empty-line patterns are shared by every board; subtract them back out
    for f in active_features(&[0; 9]) {
        weights[f] = 0.0;
    }
    let model = Model::new(
        &gamelab_learn::Fitted {
            intercept: 0.0,
            weights,
            rmse: 0.0,
        },
        &FeatureSet::Lines.set(),
        1e-3,
        0,
    );
    let mut ai = Uniform(Regression {
        model: Arc::new(model),
    });
    let mut policy = |board: &str| -> Vec<Square> {
        ai.policy(&board.parse::<Ttt>().unwrap())
            .unwrap()
            .moves()
            .collect()
    };
    assert_eq!(policy("........."), [Square::CENTRE]);
    assert_eq!(policy("....o...."), [Square::ALL[0]]);
}

#[test]
fn bad_models_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let err = load_model(&write(dir.path(), "m.json", "{\n  \"format\": 3\n"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("m.json, line 2: not a gamelab model"), "{err}");
    let model = Model::new(
        &gamelab_learn::Fitted {
            intercept: 0.0,
            weights: vec![0.0; FEATURES],
            rmse: 0.0,
        },
        &FeatureSet::Lines.set(),
        1e-3,
        0,
    );
    let mut value = serde_json::to_value(&model).unwrap();
    value["weights"] = serde_json::json!([1.0, 2.0]);
    let err = load_model(&write(dir.path(), "short.json", &value.to_string()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("short.json, line 1: the model has 2 weights"),
        "{err}"
    );
    let registry = gamelab_ttt::ai::registry::<gamelab_ttt::board::Bitboard>();
    let err = registry.build("regression").err().unwrap().to_string();
    assert!(
        err.contains("regression needs the parameter model"),
        "{err}"
    );
    let err = registry
        .build("regression:model=/no/such.json")
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("/no/such.json"), "{err}");
}

#[test]
fn backed_up_targets_follow_the_best_observed_reply() {
    // Two games through the same first two boards: x at (1,0) then o either wins on the
    // diagonal or loses. Averages mix them; backed up, o (to move) takes the win.
    let win = Game {
        moves: squares(&[0, 1, 4, 2, 8]),
        winner: 1,
    };
    let lose = Game {
        moves: squares(&[0, 1, 4, 2, 3, 5, 6]),
        winner: 1,
    };
    let lost = Game {
        moves: squares(&[0, 1, 3, 4, 5, 7]),
        winner: 2,
    };
    let mut s = Scores::default();
    for g in [&win, &lose, &lost] {
        s.add_game(g, false);
    }
    let after_two: [u8; 9] = [1, 2, 0, 0, 0, 0, 0, 0, 0];
    let rows = |t| {
        s.rows_with(t)
            .into_iter()
            .find(|(_, c)| *c == after_two)
            .unwrap()
            .0
    };
    assert!(
        (rows(Targets::Average) - 10.0 / 3.0).abs() < 1e-12,
        "(10 + 10 − 10) / 3"
    );
    assert_eq!(
        rows(Targets::BackedUp),
        10.0,
        "o to move: the best observed continuation wins"
    );
}

#[test]
fn turn_split_features_and_their_files() {
    let empty_x_to_move: [u8; 9] = [1, 0, 0, 0, 0, 0, 0, 0, 0];
    let plain = FeatureSet::Lines.active(&empty_x_to_move);
    let split = FeatureSet::LinesByTurn.active(&empty_x_to_move);
    assert_eq!(
        split,
        plain.map(|f| f + FEATURES),
        "x to move: the second half"
    );
    let o_to_move: [u8; 9] = [1, 2, 0, 0, 0, 0, 0, 0, 0];
    assert_eq!(
        FeatureSet::LinesByTurn.active(&o_to_move),
        FeatureSet::Lines.active(&o_to_move)
    );
    assert_eq!(FeatureSet::LinesByTurn.names()[FEATURES], "x:h1-0");

    let dir = tempfile::tempdir().unwrap();
    let mut s = Scores::default();
    s.add_game(&o_wins(), false);
    let path = dir.path().join("split.csv");
    s.write_csv_with(&path, Targets::BackedUp, FeatureSet::LinesByTurn)
        .unwrap();
    let (data, set) = read_dataset(&path).unwrap();
    assert_eq!(set, FeatureSet::LinesByTurn);
    assert_eq!(
        data,
        s.dataset_for(Targets::BackedUp, FeatureSet::LinesByTurn)
    );
    let fitted = fit(&data.rows, set.count(), 1e-3).unwrap();
    let model = Model::new(&fitted, &set.set(), 1e-3, data.rows.len());
    let m = dir.path().join("split.json");
    model.save(&m).unwrap();
    assert_eq!(
        load_model(&m).unwrap().features,
        FeatureSet::LinesByTurn.name()
    );
}
