//! A match request prepared and run on a real game: openings from a list or a file set the
//! games per side and the report names them, the exact table and the sampled games come
//! through the same report, and a tournament's report says what its openings were.

use gamelab_core::arena::LiveOptions;
use gamelab_core::match_request::{
    Judge, LocalThreads, MatchError, MatchRequest, Openings, TournamentRequest,
};
use gamelab_core::{Described, FileAccess};
use gamelab_othello::Othello;
use gamelab_ttt::Ttt;

#[test]
fn openings_from_a_list_or_a_file_set_the_games_and_are_named() {
    let registry = Ttt::registry();
    let mut request = MatchRequest::new("ai2", "ai2");
    request.setup.openings =
        Openings::Lines(vec![vec!["1,1".into()], vec!["0,0".into(), "2,2".into()]]);
    let prepared = request.prepare(&registry, &FileAccess::Any).unwrap();
    assert_eq!(prepared.games_per_side, 2);
    assert_eq!(prepared.openings.len(), 2);
    request.setup.openings = Openings::File {
        text: "# two openings\n1,1\n0,0 2,2\n".into(),
        name: "book.txt".into(),
    };
    let prepared = request.prepare(&registry, &FileAccess::Any).unwrap();
    assert_eq!(prepared.report().openings_file.as_deref(), Some("book.txt"));
    assert_eq!(
        request.setup.openings.describe(2, 2),
        ", 2 openings from book.txt"
    );
    request.setup.openings = Openings::Lines(vec![vec!["1,1".into(), "1,1".into()]]);
    let error = request.prepare(&registry, &FileAccess::Any).unwrap_err();
    assert!(
        matches!(error, MatchError::Opening { number: 1, .. }),
        "{error}"
    );
}

#[test]
fn one_report_for_the_exact_table_and_for_the_games() {
    let registry = Ttt::registry();
    let mut request = MatchRequest::new("ai14s", "ai2");
    request.setup.games_per_side = Some(50);
    request.setup.threads = 1;
    let prepared = request.prepare(&registry, &FileAccess::Any).unwrap();
    let make = || registry.build("ai14s").unwrap();
    let make_b = || registry.build("ai2").unwrap();
    let run = prepared
        .run(&mut LocalThreads {
            make_a: &make,
            make_b: &make_b,
            live: LiveOptions::for_match(&prepared.config(), false),
            on_chunk: &|_| {},
            on_games: &mut |_| true,
        })
        .unwrap()
        .unwrap();
    assert_eq!(run.report.played, 100);
    assert_eq!(run.report.total.lose, 0);
    assert!(run.report.digest.is_some());
    let with_exact = prepared.report_with_exact(&mut *make(), &mut *make_b());
    assert!(with_exact.exact.is_some(), "{with_exact:?}");
    request.exact = true;
    let exact = request
        .prepare(&registry, &FileAccess::Any)
        .unwrap()
        .exact(&mut *make(), &mut *make_b())
        .unwrap();
    assert_eq!(exact.report.games_per_side, 0);
    assert_eq!(exact.report.exact.unwrap().total.lose, 0.0);
}

#[test]
fn judged_openings_and_tournaments_report_their_judge() {
    let registry = Othello::registry();
    let mut request = TournamentRequest::new(vec!["random".into(), "greedy".into()]);
    request.setup.games_per_side = Some(2);
    request.setup.threads = 1;
    request.setup.openings = Openings::Random {
        plies: 4,
        judge: Some(Judge {
            spec: "engine:level=1".into(),
            window: 8.0,
        }),
    };
    let prepared = request.prepare(&registry, &FileAccess::Any).unwrap();
    assert_eq!(prepared.openings.len(), 2);
    let report = prepared
        .run(
            &|i| registry.build(&request.entrants[i]).unwrap(),
            None,
            &|_, _| {},
        )
        .unwrap();
    assert_eq!(report.judge.as_deref(), Some("engine:level=1"));
    assert_eq!(report.balanced, Some(8.0));
    assert_eq!(report.games_played(), 4);
    request.setup.openings = Openings::Random {
        plies: 4,
        judge: Some(Judge {
            spec: "greedy".into(),
            window: 8.0,
        }),
    };
    let error = request.prepare(&registry, &FileAccess::Any).unwrap_err();
    assert!(
        error.to_string().starts_with("greedy gives no value"),
        "{error}"
    );
    request.entrants.push("random".into());
    assert!(matches!(
        request.prepare(&registry, &FileAccess::Any),
        Err(MatchError::Tournament(_))
    ));
}

#[test]
fn a_match_reads_its_players_files_once() {
    use gamelab_games::experiments::{self, Entrant, MatchLive};
    // The match as checked: `a` against random, three games a side on two threads.
    let prepare = |a: &str| {
        let mut request = MatchRequest::new("", "");
        request.setup.games_per_side = Some(3);
        request.setup.threads = 2;
        let players = [Entrant::Spec(a.into()), Entrant::Spec("random".into())];
        experiments::prepare_match(
            "othello",
            None,
            request,
            [&players[0], &players[1]],
            &FileAccess::Any,
        )
        .unwrap()
    };
    let digest = |prepared: &dyn experiments::AnyMatch| {
        let live = MatchLive {
            stop: None,
            keep_records: false,
            keep_views: false,
            watched: false,
            on_chunk: &|_| {},
        };
        let run = prepared.play(prepared.report(), &live).unwrap();
        run.report.digest.expect("a whole match's digest")
    };
    let dir = std::env::temp_dir().join(format!("gamelab-read-once-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("shipped.glopat");
    std::fs::write(&model, gamelab_othello::learned::shipped().to_bytes()).unwrap();
    let from_file = prepare(&format!("engine:level=1,model={}", model.display()));
    // Damaged after the check: the games are still the checked model's, and none fails
    // (each game's agent was built by reading the file again, and panicked).
    std::fs::write(&model, b"GLOPAT01 and then nothing").unwrap();
    let shipped = prepare("engine:level=1");
    assert_eq!(digest(&*from_file), digest(&*shipped));
    std::fs::remove_dir_all(&dir).unwrap();
}
