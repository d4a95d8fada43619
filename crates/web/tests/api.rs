//! The HTTP API, request by request: what it answers, and that every bad request gets a
//! 4xx with a message and leaves the game as it was.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use gamelab_core::arena::{MatchConfig, run_match};
use gamelab_ttt::Ttt;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

struct App(Router);

/// The port the test server says it listens on (requests name it in `Host`).
const PORT: u16 = 8080;

impl App {
    fn new() -> App {
        App::with(gamelab_web::Config {
            port: PORT,
            ..Default::default()
        })
    }

    fn with(config: gamelab_web::Config) -> App {
        App(gamelab_web::router(config))
    }

    async fn send(&self, method: &str, path: &str, body: Option<String>) -> (StatusCode, Value) {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(header::HOST, format!("127.0.0.1:{PORT}"));
        if method == "POST" {
            request = request.header(header::CONTENT_TYPE, "application/json");
        }
        self.raw(request, body).await
    }

    async fn raw(
        &self,
        request: axum::http::request::Builder,
        body: Option<String>,
    ) -> (StatusCode, Value) {
        let request = request
            .body(body.map_or_else(Body::empty, Body::from))
            .unwrap();
        let response = self.0.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into()));
        (status, value)
    }

    async fn get(&self, path: &str) -> (StatusCode, Value) {
        self.send("GET", path, None).await
    }

    async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.send("POST", path, Some(body.to_string())).await
    }

    async fn new_game_with(&self, body: Value) -> Value {
        let (status, state) = self.post("/api/games", body).await;
        assert_eq!(status, StatusCode::CREATED, "{state}");
        state
    }

    async fn new_game(&self, game: &str, players: [&str; 2]) -> Value {
        self.new_game_with(json!({"game": game, "players": players}))
            .await
    }
}

/// A GET of `path` as the page sends it.
fn get_request(path: &str) -> Request<Body> {
    Request::get(path)
        .header(header::HOST, format!("127.0.0.1:{PORT}"))
        .body(Body::empty())
        .unwrap()
}

/// Asserts a 4xx JSON error whose message contains `needle`.
fn assert_error(response: (StatusCode, Value), status: StatusCode, needle: &str) {
    let (got, body) = response;
    assert_eq!(got, status, "{body}");
    let message = body["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error message in {body}"));
    assert!(
        message.contains(needle),
        "`{message}` should mention `{needle}`"
    );
}

fn id(state: &Value) -> String {
    state["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn the_catalogue_lists_every_game_and_its_ais() {
    let app = App::new();
    let (status, body) = app.get("/api/catalogue").await;
    assert_eq!(status, StatusCode::OK);
    let games = body["games"].as_array().unwrap();
    let names: Vec<&str> = games.iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(names, gamelab_games::NAMES);
    assert_eq!(
        body["models"],
        json!([]),
        "no models folder, no files offered"
    );
    assert_eq!(games[0]["name"], "ttt");
    assert_eq!(games[0]["sides"], json!(["o", "x"]));
    assert_eq!(games[1]["name"], "othello");
    assert_eq!(games[1]["rows"], 8);
    let ai14s = games[0]["ais"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "ai14s")
        .unwrap();
    assert!(!ai14s["params"].as_array().unwrap().is_empty());
    // A model is a file parameter (the page types its name; the server reads only its
    // models folder).
    let engine = &games[1]["ais"][0];
    assert_eq!(engine["name"], "engine");
    let model = engine["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "model")
        .unwrap();
    assert_eq!(
        (&model["kind"], &model["default"]),
        (&json!("file"), &json!("shipped"))
    );
    let alphabeta = games[1]["ais"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "alphabeta")
        .unwrap();
    let time = &alphabeta["params"][0];
    assert_eq!(
        (time["name"].as_str(), time["kind"].as_str()),
        (Some("time"), Some("float"))
    );
    assert_eq!(
        (time["min"].as_f64(), time["max"].as_f64()),
        (Some(0.0), Some(3600.0))
    );
}

#[tokio::test]
async fn the_page_and_its_files_are_served() {
    let app = App::new();
    for path in ["/", "/assets/app.js", "/assets/app.css", "/assets/icon.svg"] {
        let response = app.0.clone().oneshot(get_request(path)).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
    }
    assert_error(
        app.get("/assets/nope.js").await,
        StatusCode::NOT_FOUND,
        "nope.js",
    );
    assert_error(
        app.get("/api/nothing").await,
        StatusCode::NOT_FOUND,
        "/api/",
    );
}

#[tokio::test]
async fn a_game_against_an_ai_step_by_step() {
    let app = App::new();
    let state = app.new_game("ttt", ["human", "ai14s"]).await;
    let game = id(&state);
    assert_eq!(state["board"]["legal"].as_array().unwrap().len(), 9);
    assert_eq!(state["ai_to_move"], false);

    let (status, state) = app
        .post(
            &format!("/api/games/{game}/move"),
            json!({"move": "1,1", "ply": 0}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["board"]["cells"][4], "o");
    assert_eq!(state["ai_to_move"], true);

    let (status, state) = app
        .post(&format!("/api/games/{game}/ai-move"), json!({"ply": 1}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let reply = state["moves"][1]["text"].clone();
    assert_eq!(state["moves"][1]["side"], "x");
    assert_eq!(state["cursor"], 2);

    // Undo goes back to the human's turn, redo forward to the next one.
    let (_, state) = app
        .post(&format!("/api/games/{game}/undo"), json!({}))
        .await;
    assert_eq!(state["cursor"], 0);
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);
    let (_, state) = app
        .post(&format!("/api/games/{game}/redo"), json!({}))
        .await;
    assert_eq!(state["cursor"], 2);

    // The AI's choice depends only on the seed and the ply: asked again, it plays the same.
    let (_, state) = app
        .post(&format!("/api/games/{game}/seek"), json!({"ply": 1}))
        .await;
    assert_eq!(state["cursor"], 1);
    let (_, state) = app
        .post(&format!("/api/games/{game}/ai-move"), json!({"ply": 1}))
        .await;
    assert_eq!(state["moves"][1]["text"], reply);
    assert_eq!(app.get(&format!("/api/games/{game}")).await.1, state);
}

#[tokio::test]
async fn an_engine_move_says_what_its_search_did() {
    let app = App::new();
    // Without a book (the default): the engine answers d3 by a search.
    let game = id(&app.new_game("othello", ["human", "engine:level=4"]).await);
    let (status, _) = app
        .post(
            &format!("/api/games/{game}/move"),
            json!({"move": "d3", "ply": 0}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, state) = app
        .post(&format!("/api/games/{game}/ai-move"), json!({"ply": 1}))
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    // A person's move has no search; the engine's has its depth, positions and line.
    assert!(state["moves"][0].get("search").is_none(), "{state}");
    let search = &state["moves"][1]["search"];
    assert_eq!(search["depth"], 4, "{state}");
    assert_eq!(search["exact"], false);
    assert!(search["nodes"].as_u64().unwrap() > 0);
    assert!(search.get("book_games").is_none(), "{search}");
    let pv = search["pv"].as_array().unwrap();
    assert_eq!(pv[0], state["moves"][1]["text"]);
    assert!(pv.len() >= 2, "{search}");
    // Another line from the start drops the old line's searches with its moves.
    let (_, _) = app
        .post(&format!("/api/games/{game}/seek"), json!({"ply": 0}))
        .await;
    let (status, state) = app
        .post(
            &format!("/api/games/{game}/move"),
            json!({"move": "c4", "ply": 0}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["moves"].as_array().unwrap().len(), 1, "{state}");
    let (_, state) = app
        .post(&format!("/api/games/{game}/ai-move"), json!({"ply": 1}))
        .await;
    assert_eq!(state["moves"][1]["search"]["depth"], 4, "{state}");
}

#[tokio::test]
async fn an_engine_move_from_its_book_says_so() {
    let app = App::new();
    let game = id(&app
        .new_game("othello", ["human", "engine:level=4,book=shipped"])
        .await);
    app.post(
        &format!("/api/games/{game}/move"),
        json!({"move": "d3", "ply": 0}),
    )
    .await;
    let (status, state) = app
        .post(&format!("/api/games/{game}/ai-move"), json!({"ply": 1}))
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    let search = &state["moves"][1]["search"];
    assert!(search["book_games"].as_u64().unwrap() > 1_000, "{search}");
    assert_eq!(search["nodes"], 0, "{search}");
    assert_eq!(search["pv"][0], state["moves"][1]["text"]);
    // The page offers the book's words beside the models folder's files.
    let (_, catalogue) = app.get("/api/catalogue").await;
    let text = catalogue.to_string();
    assert!(text.contains(r#""choices":["none","shipped"]"#), "{text}");
}

#[tokio::test]
async fn bad_requests_for_new_games() {
    let app = App::new();
    let post = |body: Value| app.post("/api/games", body);
    assert_error(
        post(json!({"game": "chess", "players": ["human", "human"]})).await,
        StatusCode::BAD_REQUEST,
        "gamelab plays ttt, othello",
    );
    assert_error(
        post(json!({"game": "ttt", "players": ["human", "ai99"]})).await,
        StatusCode::BAD_REQUEST,
        "unknown AI `ai99`",
    );
    assert_error(
        post(json!({"game": "ttt", "players": ["ai12s:score_victory=lots", "human"]})).await,
        StatusCode::BAD_REQUEST,
        "expected a number",
    );
    assert_error(
        post(json!({"game": "ttt", "players": ["ai14s:depth=3", "human"]})).await,
        StatusCode::BAD_REQUEST,
        "no parameter `depth`",
    );
    assert_error(
        post(json!({"game": "othello", "players": ["human", "ai14s"]})).await,
        StatusCode::BAD_REQUEST,
        "its AIs: engine, random",
    );
    assert_error(
        post(json!({"game": "ttt", "players": ["human"]})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "players",
    );
    assert_error(
        post(json!({"game": "ttt", "players": ["human", "human"], "colour": 1})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "unknown field `colour`",
    );
    assert_error(
        post(json!({"game": "ttt", "players": ["human", "human"], "moves": ["1,1", "1,1"]})).await,
        StatusCode::BAD_REQUEST,
        "move 2 (`1,1`)",
    );
    assert_error(
        app.send("POST", "/api/games", Some("{not json".into()))
            .await,
        StatusCode::BAD_REQUEST,
        "not what this endpoint expects",
    );
    let no_type = Request::post("/api/games")
        .body(Body::from(r#"{"game":"ttt","players":["human","human"]}"#))
        .unwrap();
    assert!(
        app.0
            .clone()
            .oneshot(no_type)
            .await
            .unwrap()
            .status()
            .is_client_error()
    );
}

#[tokio::test]
async fn bad_moves_leave_the_game_unchanged() {
    let app = App::new();
    let game = id(&app.new_game("ttt", ["human", "human"]).await);
    let path = format!("/api/games/{game}/move");
    app.post(&path, json!({"move": "1,1"})).await;
    let before = app.get(&format!("/api/games/{game}")).await.1;

    assert_error(
        app.post(&path, json!({"move": "centre"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "x,y",
    );
    assert_error(
        app.post(&path, json!({"move": "1,1"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "already taken by o",
    );
    assert_error(
        app.post(&path, json!({"move": "3,0"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "off the board",
    );
    assert_error(
        app.post(&path, json!({"move": "0,0", "ply": 0})).await,
        StatusCode::CONFLICT,
        "moved on",
    );
    assert_error(
        app.post(&path, json!({"mv": "0,0"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "move",
    );
    assert_error(
        app.post(&format!("/api/games/{game}/ai-move"), json!({}))
            .await,
        StatusCode::CONFLICT,
        "played by a human",
    );
    assert_error(
        app.post(&format!("/api/games/{game}/redo"), json!({}))
            .await,
        StatusCode::CONFLICT,
        "nothing to redo",
    );
    assert_error(
        app.post(&format!("/api/games/{game}/seek"), json!({"ply": 5}))
            .await,
        StatusCode::BAD_REQUEST,
        "past the end",
    );
    assert_error(
        app.post(&format!("/api/games/{game}/seek"), json!({"ply": -1}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "ply",
    );
    assert_eq!(app.get(&format!("/api/games/{game}")).await.1, before);

    assert_error(
        app.post("/api/games/0123456789abcdef/move", json!({"move": "0,0"}))
            .await,
        StatusCode::NOT_FOUND,
        "no game has id",
    );
    assert_error(
        app.get("/api/games/nope").await,
        StatusCode::NOT_FOUND,
        "no game has id",
    );
}

#[tokio::test]
async fn turns_and_the_end_of_the_game_are_enforced() {
    let app = App::new();
    let game = id(&app.new_game("ttt", ["ai1", "human"]).await);
    assert_error(
        app.post(&format!("/api/games/{game}/move"), json!({"move": "0,0"}))
            .await,
        StatusCode::CONFLICT,
        "ai1 plays o",
    );
    assert_error(
        app.post(&format!("/api/games/{game}/undo"), json!({}))
            .await,
        StatusCode::CONFLICT,
        "nothing to undo",
    );
    // The AI's opening move is no move of the human's to take back: it would only be
    // played again the same way.
    let (_, state) = app
        .post(&format!("/api/games/{game}/ai-move"), json!({}))
        .await;
    assert_eq!(
        (state["cursor"].clone(), state["can_undo"].clone()),
        (json!(1), json!(false))
    );
    assert_error(
        app.post(&format!("/api/games/{game}/undo"), json!({}))
            .await,
        StatusCode::CONFLICT,
        "nothing to undo: there is no earlier turn to go back to",
    );
    let (_, state) = app
        .post(&format!("/api/games/{game}/move"), json!({"move": "2,2"}))
        .await;
    assert_eq!(state["can_undo"], true);
    let (_, state) = app
        .post(&format!("/api/games/{game}/undo"), json!({}))
        .await;
    assert_eq!(
        (state["cursor"].clone(), state["can_undo"].clone()),
        (json!(1), json!(false))
    );

    // o (ai1) takes the first free square each time; x lets it win along the top row.
    for x_move in ["1,1", "0,1"] {
        app.post(&format!("/api/games/{game}/ai-move"), json!({}))
            .await;
        let (status, _) = app
            .post(&format!("/api/games/{game}/move"), json!({"move": x_move}))
            .await;
        assert_eq!(status, StatusCode::OK);
    }
    let (_, state) = app
        .post(&format!("/api/games/{game}/ai-move"), json!({}))
        .await;
    assert_eq!(state["board"]["outcome"]["winner"], "o", "{state}");
    assert_eq!(state["board"]["highlight"], json!([0, 1, 2]), "the top row");
    assert_eq!(state["board"]["legal"], json!([]));
    assert_error(
        app.post(&format!("/api/games/{game}/ai-move"), json!({}))
            .await,
        StatusCode::CONFLICT,
        "the game is over (o wins)",
    );
    assert_error(
        app.post(&format!("/api/games/{game}/move"), json!({"move": "2,2"}))
            .await,
        StatusCode::CONFLICT,
        "the game is over",
    );
}

#[tokio::test]
async fn othello_passes_only_when_there_is_no_move() {
    let app = App::new();
    let game = id(&app.new_game("othello", ["human", "human"]).await);
    assert_error(
        app.post(&format!("/api/games/{game}/move"), json!({"move": "pass"}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "cannot pass",
    );
    assert_error(
        app.post(&format!("/api/games/{game}/move"), json!({"move": "a1"}))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "not a legal move",
    );
    let (status, state) = app
        .post(&format!("/api/games/{game}/move"), json!({"move": "d3"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["board"]["score"], json!([4, 1]));
    assert_eq!(state["board"]["to_move"], "white");
}

#[tokio::test]
async fn tabs_do_not_see_each_others_games() {
    let app = App::new();
    let one = id(&app.new_game("ttt", ["human", "human"]).await);
    let two = id(&app.new_game("ttt", ["human", "human"]).await);
    assert_ne!(one, two);
    app.post(&format!("/api/games/{one}/move"), json!({"move": "0,0"}))
        .await;
    let (_, state) = app.get(&format!("/api/games/{two}")).await;
    assert_eq!(state["moves"], json!([]));
}

async fn finished_run(app: &App, body: Value) -> Value {
    let (status, run) = app.post("/api/runs", body).await;
    assert_eq!(status, StatusCode::CREATED, "{run}");
    wait_until_done(app, &format!("/api/runs/{}", id(&run))).await
}

/// Polls a run until it has finished (or stopped).
async fn wait_until_done(app: &App, path: &str) -> Value {
    loop {
        let (_, state) = app.get(path).await;
        if state["done"] == true {
            return state;
        }
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

#[tokio::test]
async fn a_run_is_the_cli_match() {
    let app = App::new();
    let run = finished_run(
        &app,
        json!({"game": "ttt", "a": "ai14s", "b": "ai2", "games_per_side": 300, "seed": 5}),
    )
    .await;
    let registry = gamelab_ttt::ai::registry();
    let cfg = MatchConfig {
        games_per_side: 300,
        seed: 5,
        threads: 1,
        opening_plies: 0,
        ..Default::default()
    };
    let (expected, _) = run_match::<Ttt, _>(
        &|| registry.build("ai14s").unwrap(),
        &|| registry.build("ai2").unwrap(),
        &cfg,
        &|_| {},
        false,
    );
    assert_eq!(run["digest"], format!("{:016x}", expected.digest));
    assert_eq!(run["played"], 600);
    assert_eq!(run["total"]["win"], expected.total().win);
    assert_eq!(run["second"]["draw"], expected.second.draw);
    assert_eq!(run["stopped"], false);
    let exact = &run["exact"]["first"];
    let sum = exact["win"].as_f64().unwrap()
        + exact["lose"].as_f64().unwrap()
        + exact["draw"].as_f64().unwrap();
    assert!((sum - 1.0).abs() < 1e-9);

    // Its games, filtered, in index order, each replayable as a new game.
    let path = format!("/api/runs/{}/games", id(&run));
    let (_, page) = app.get(&format!("{path}?result=draw&limit=1000")).await;
    let draws = page["games"].as_array().unwrap();
    assert_eq!(page["matching"], expected.total().draw);
    assert!(draws.iter().all(|g| g["result"] == "draw"));
    assert!(
        draws
            .windows(2)
            .all(|w| w[0]["index"].as_u64() < w[1]["index"].as_u64())
    );
    let (_, all) = app.get(&format!("{path}?offset=10&limit=5")).await;
    assert_eq!(all["games"][0]["index"], 10);
    assert_eq!(all["games"].as_array().unwrap().len(), 5);
    let game = &draws[0];
    let (status, replay) = app
        .post(
            "/api/games",
            json!({"game": "ttt", "players": ["ai14s", "ai2"], "moves": game["moves"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(replay["board"]["outcome"]["winner"], Value::Null);
}

#[tokio::test]
async fn a_run_on_a_clock_is_played_not_computed() {
    let app = App::new();
    let run = finished_run(
        &app,
        json!({"game": "ttt", "a": "ai14s", "b": "ai2", "games_per_side": 20, "clock": "60+0.5"}),
    )
    .await;
    assert_eq!(run["clock"], "60+0.5");
    assert_eq!(run["played"], 40);
    assert_eq!(run["exact"], Value::Null);
    assert_eq!(run["forfeits"], Value::Null);
    // Without one, the report has no clock and the exact table is there.
    let plain = finished_run(
        &app,
        json!({"game": "ttt", "a": "ai14s", "b": "ai2", "games_per_side": 20}),
    )
    .await;
    assert_eq!(plain.get("clock"), None);
    assert_ne!(plain["exact"], Value::Null);
}

#[tokio::test]
async fn a_runs_games_download_as_the_cli_writes_them_and_runs_are_listed() {
    use gamelab_core::record::{GameRecord, RecordFormat};
    use gamelab_othello::Othello;
    let app = App::new();
    let (a, b) = ("engine:level=1", "random");
    let first = finished_run(
        &app,
        json!({"game": "othello", "a": a, "b": b, "games_per_side": 4, "seed": 7}),
    )
    .await;
    let second = finished_run(
        &app,
        json!({"game": "ttt", "a": "ai2", "b": "ai1", "games_per_side": 3}),
    )
    .await;
    // The list holds both, the newest first.
    let (status, list) = app.get("/api/runs").await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<&Value> = list["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["id"])
        .collect();
    assert_eq!(ids, [&second["id"], &first["id"]]);
    assert_eq!(list["runs"][1]["played"], 8);
    assert_eq!(list["runs"][1]["a"], a);

    // What `gamelab match --records` writes for the same match, in each format.
    let registry = gamelab_othello::ai::registry();
    let cfg = MatchConfig {
        games_per_side: 4,
        seed: 7,
        threads: 1,
        opening_plies: 0,
        ..Default::default()
    };
    let (_, games) = run_match::<Othello, _>(
        &|| registry.build(a).unwrap(),
        &|| registry.build(b).unwrap(),
        &cfg,
        &|_| {},
        true,
    );
    assert_eq!(games.len(), 8);
    let path = format!("/api/runs/{}/records", id(&first));
    for (format, query, mime) in [
        (RecordFormat::JsonLines, "", "application/x-ndjson"),
        (
            RecordFormat::JsonLines,
            "?format=jsonl",
            "application/x-ndjson",
        ),
        (RecordFormat::Csv, "?format=csv", "text/csv; charset=utf-8"),
        (
            RecordFormat::Native,
            "?format=ggf",
            "text/plain; charset=utf-8",
        ),
        (
            RecordFormat::Table,
            "?format=table",
            "text/csv; charset=utf-8",
        ),
    ] {
        let header = format.header().map_or(String::new(), |h| format!("{h}\n"));
        let expected: String = header
            + &games
                .iter()
                .map(|g| {
                    let record = GameRecord::of::<Othello>(g, a, b, 7);
                    format.line::<Othello>(&record, None).unwrap() + "\n"
                })
                .collect::<String>();
        let response = app
            .0
            .clone()
            .oneshot(
                Request::builder()
                    .uri(format!("{path}{query}"))
                    .header(header::HOST, format!("127.0.0.1:{PORT}"))
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{query}");
        assert_eq!(response.headers()[header::CONTENT_TYPE], mime);
        let extension = match query {
            "" => "jsonl",
            "?format=table" => "csv",
            _ => &query[8..],
        };
        assert_eq!(
            response.headers()[header::CONTENT_DISPOSITION],
            format!(
                "attachment; filename=\"gamelab-run-{}.{extension}\"",
                id(&first)
            )
            .as_str()
        );
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        assert_eq!(String::from_utf8_lossy(&bytes), expected, "{query}");
        if format == RecordFormat::Table {
            // A header, then the games with their moves as people type them (issue 63:
            // the articles' CSV has no header and gives squares as numbers).
            let text = String::from_utf8_lossy(&bytes).to_string();
            let mut rows = text.lines();
            assert_eq!(rows.next(), Some("game,first,second,result,moves"));
            let first_game = rows.next().unwrap();
            assert!(first_game.starts_with("0,"), "{first_game}");
            assert!(
                first_game.ends_with(&format!(
                    ",{}",
                    games[0]
                        .moves
                        .iter()
                        .map(|m| m.to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                )),
                "{first_game}"
            );
        }
    }
    // Tic-tac-toe has no format of its own.
    assert_error(
        app.get(&format!("/api/runs/{}/records?format=ggf", id(&second)))
            .await,
        StatusCode::BAD_REQUEST,
        "format `ggf` is not one of jsonl, csv, table",
    );
    assert_error(
        app.get(&format!(
            "/api/runs/{}/records?format=ggf",
            "0123456789abcdef"
        ))
        .await,
        StatusCode::NOT_FOUND,
        "no run has id",
    );
}

#[tokio::test]
async fn run_events_stream_until_the_end() {
    let app = App::new();
    let (_, run) = app
        .post(
            "/api/runs",
            json!({"game": "ttt", "a": "ai2", "b": "ai2", "games_per_side": 1000}),
        )
        .await;
    let response = app
        .0
        .clone()
        .oneshot(get_request(&format!("/api/runs/{}/events", id(&run))))
        .await
        .unwrap();
    assert_eq!(
        response.headers()[header::CONTENT_TYPE],
        "text/event-stream"
    );
    // The stream ends after the final state, so the whole body can be read.
    let body = response.into_body().collect().await.unwrap().to_bytes();
    let events: Vec<Value> = String::from_utf8(body.to_vec())
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    let last = events.last().unwrap();
    assert_eq!(last["done"], true);
    assert_eq!(last["played"], 2000);
    assert!(
        events
            .windows(2)
            .all(|w| w[0]["played"].as_u64() <= w[1]["played"].as_u64())
    );
}

#[tokio::test]
async fn a_run_stops_when_asked() {
    let app = App::new();
    let (_, run) = app
        .post(
            "/api/runs",
            json!({"game": "othello", "a": "random", "b": "random", "games_per_side": 1000000}),
        )
        .await;
    assert_eq!(run["exact"], Value::Null);
    assert!(run["exact_note"].as_str().unwrap().contains("tic-tac-toe"));
    assert_eq!(run["games_kept"], false);
    let path = format!("/api/runs/{}", id(&run));
    app.post(&format!("{path}/stop"), json!({})).await;
    let state = wait_until_done(&app, &path).await;
    assert_eq!(state["stopped"], true);
    assert_eq!(state["digest"], Value::Null);
    assert!(state["played"].as_u64().unwrap() < 2_000_000);
    assert_error(
        app.get(&format!("{path}/games")).await,
        StatusCode::CONFLICT,
        "not kept",
    );
}

#[tokio::test]
async fn bad_requests_for_runs() {
    let app = App::new();
    let run = |body: Value| app.post("/api/runs", body);
    assert_error(
        run(json!({"game": "ttt", "a": "ai14s", "b": "ai2", "games_per_side": 0})).await,
        StatusCode::BAD_REQUEST,
        "expected 1 to 1000000",
    );
    assert_error(
        run(json!({"game": "ttt", "a": "ai14s", "b": "ai2", "games_per_side": 5000000})).await,
        StatusCode::BAD_REQUEST,
        "out of range",
    );
    assert_error(
        run(json!({"game": "ttt", "a": "human", "b": "ai2", "games_per_side": 10})).await,
        StatusCode::BAD_REQUEST,
        "a: unknown AI `human`",
    );
    assert_error(
        run(json!({"game": "ttt", "a": "ai2", "b": "ai2:x=1", "games_per_side": 10})).await,
        StatusCode::BAD_REQUEST,
        "b: ai2 has no parameter",
    );
    assert_error(
        run(json!({"game": "ttt", "a": "ai2", "b": "ai2", "games_per_side": 10, "clock": "soon"}))
            .await,
        StatusCode::BAD_REQUEST,
        "clock `soon`: expected MAIN, MAIN+INCREMENT or MAIN/PERIOD/STONES",
    );
    assert_error(
        run(json!({"game": "ttt", "a": "ai2", "b": "ai2", "games_per_side": 10, "clock": "NaN"}))
            .await,
        StatusCode::BAD_REQUEST,
        "main time NaN: expected seconds from 0 to 31536000",
    );
    assert_error(
        run(json!({"game": "ttt", "a": "ai2", "b": "ai2", "games_per_side": -3})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "games_per_side",
    );
    assert_error(
        app.get("/api/runs/feedfacefeedface").await,
        StatusCode::NOT_FOUND,
        "no run has id",
    );
    assert_error(
        app.post("/api/runs/feedfacefeedface/stop", json!({})).await,
        StatusCode::NOT_FOUND,
        "no run has id",
    );
    let done = finished_run(
        &app,
        json!({"game": "ttt", "a": "ai2", "b": "ai2", "games_per_side": 10}),
    )
    .await;
    let games = format!("/api/runs/{}/games", id(&done));
    assert_error(
        app.get(&format!("{games}?result=won")).await,
        StatusCode::BAD_REQUEST,
        "not one of win, lose, draw",
    );
    assert_error(
        app.get(&format!("{games}?limit=0")).await,
        StatusCode::BAD_REQUEST,
        "1 to 1000",
    );
    assert_error(
        app.get(&format!("{games}?offset=many")).await,
        StatusCode::BAD_REQUEST,
        "bad query string",
    );
}

#[tokio::test]
async fn the_tree_viewer() {
    let app = App::new();
    let (status, view) = app
        .post("/api/explore", json!({"moves": ["1,1"], "ai": "ai_gt"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(view["value"]["value"], 0);
    assert_eq!(view["parent"], json!([]));
    let children = view["children"].as_array().unwrap();
    assert_eq!(children.len(), 8);
    let best: Vec<_> = children
        .iter()
        .filter(|c| c["best"] == true)
        .map(|c| c["square"].as_u64().unwrap())
        .collect();
    assert_eq!(best, [0, 2, 6, 8]);
    // Edges lose for x.
    assert_eq!(children[1]["value"]["text"], "o wins");
    assert!(best.contains(&view["ai"]["choice"]["square"].as_u64().unwrap()));
    let policy = view["ai"]["policy"].as_array().unwrap();
    assert_eq!(policy.len(), 4);

    let (_, start) = app.post("/api/explore", json!({})).await;
    assert_eq!(start["parent"], Value::Null);
    assert_eq!(start["children"].as_array().unwrap().len(), 9);

    assert_error(
        app.post("/api/explore", json!({"moves": ["1,1", "4,4"]}))
            .await,
        StatusCode::BAD_REQUEST,
        "move 2 (`4,4`)",
    );
    assert_error(
        app.post("/api/explore", json!({"moves": [], "ai": "ai42"}))
            .await,
        StatusCode::BAD_REQUEST,
        "unknown AI `ai42`",
    );
    assert_error(
        app.post(
            "/api/explore",
            json!({"moves": ["0,0", "0,1", "1,0", "1,1", "2,0"], "ai": "ai2"}),
        )
        .await,
        StatusCode::CONFLICT,
        "the game is over",
    );
}

#[tokio::test]
async fn the_tree_viewer_values_othello_by_a_search_exact_near_the_end() {
    use gamelab_core::Game;
    let app = App::new();
    let (status, view) = app.post("/api/explore", json!({"game": "othello"})).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["valuer"], "engine:level=4");
    assert_eq!(view["value"]["exact"], false);
    let children = view["children"].as_array().unwrap();
    assert_eq!(children.len(), 4);
    for child in children {
        assert_eq!(child["value"]["depth"], 4, "{child}");
        assert_eq!(child["value"]["exact"], false);
        assert!(
            child["value"]["text"]
                .as_str()
                .unwrap()
                .ends_with("(4 plies)")
        );
        assert_eq!(child["cells"].as_array().unwrap().len(), 64);
    }
    // The four first moves are one move turned: the same value, all best.
    assert!(
        children
            .iter()
            .all(|c| c["value"]["score"] == children[0]["value"]["score"])
    );
    assert!(children.iter().all(|c| c["best"] == true));
    // The start's value is its best child's, a ply deeper (issue 63: it read +0.38 beside
    // +2.99 for every child).
    assert_eq!(view["value"]["score"], children[0]["value"]["score"]);
    assert_eq!(view["value"]["depth"], 5);

    // Ten empty squares from the end the values are the game's, and the best child's is
    // the position's.
    let mut game = gamelab_othello::Othello::new();
    while game.empties() > 10 {
        let mv = game.legal_moves()[0];
        game.play_unchecked(mv);
    }
    let moves: Vec<String> = game.history().iter().map(ToString::to_string).collect();
    let (status, view) = app
        .post("/api/explore", json!({"game": "othello", "moves": moves}))
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["value"]["exact"], true, "{view}");
    assert!(view["value"]["text"].as_str().unwrap().ends_with("(exact)"));
    let best: Vec<&Value> = view["children"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["best"] == true)
        .collect();
    assert!(!best.is_empty());
    for child in &best {
        assert_eq!(child["value"]["exact"], true, "{child}");
        assert_eq!(child["value"]["score"], view["value"]["score"], "{view}");
    }

    // A side that must pass: its value is the search's of the position after the pass
    // (not the evaluation of the position with no move), exact this near the end.
    let to_pass = "d3 c5 c6 c7 f6 e3 f3 f2 f1 d6 d7 e8 b5 b6 a7 f4 b7 a6 f5 g3 d8 c4 b8 g2 a4 g6 \
                   g5 a5 h2 h3 b3 h1 c3 g4 h6 c8 h4 g1 f8 e2 d2 e7 b4 g7 h8 f7 h7 a8 e1 g8 h5 e6";
    let moves: Vec<&str> = to_pass.split_whitespace().collect();
    let (status, view) = app
        .post("/api/explore", json!({"game": "othello", "moves": moves}))
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let children = view["children"].as_array().unwrap();
    assert_eq!(children.len(), 1);
    assert_eq!(children[0]["text"], "pass");
    assert_eq!(view["value"]["exact"], true, "{view}");
    assert_eq!(view["value"]["depth"], 8, "{view}");
    assert_eq!(view["value"]["score"], children[0]["value"]["score"]);

    assert_error(
        app.post(
            "/api/explore",
            json!({"game": "othello", "valuer": "random"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "random gives no value of a position",
    );
    assert_error(
        app.post(
            "/api/explore",
            json!({"game": "othello", "valuer": "engine:level=-1"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "valuer:",
    );
}

/// The same moves `gamelab play --seed 3 --x ai2` plays for the input `1,1`, `undo`, `1,1`,
/// `0,0` (the CLI's test `the_same_seed_plays_the_same_moves_as_the_web_app`): both drive
/// gamelab-core's play session.
#[tokio::test]
async fn the_play_view_plays_what_gamelab_play_plays() {
    let app = App::new();
    let (status, state) = app
        .post(
            "/api/games",
            json!({"game": "ttt", "players": ["human", "ai2"], "seed": 3}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{state}");
    let game = id(&state);
    let mut replies = Vec::new();
    for (human, undo_after) in [("1,1", true), ("1,1", false), ("0,0", false)] {
        let ply = app
            .post(&format!("/api/games/{game}/move"), json!({"move": human}))
            .await
            .1["cursor"]
            .clone();
        let (_, state) = app
            .post(&format!("/api/games/{game}/ai-move"), json!({"ply": ply}))
            .await;
        let cursor = state["cursor"].as_u64().unwrap() as usize;
        replies.push(
            state["moves"][cursor - 1]["text"]
                .as_str()
                .unwrap()
                .to_string(),
        );
        if undo_after {
            app.post(&format!("/api/games/{game}/undo"), json!({}))
                .await;
        }
    }
    assert_eq!(replies, ["0,1", "0,1", "1,0"]);
}

/// Every game the catalogue lists can be played to its end by its default AIs and run as a
/// match, through the API alone: a game added to the catalogue is covered here unchanged.
/// Asks for AI moves in the game `state` shows until it ends, or at most `limit` of them.
async fn ai_moves_to_the_end(app: &App, name: &str, mut state: Value, limit: usize) -> Value {
    let game = id(&state);
    for _ in 0..limit {
        if state["board"]["outcome"].is_object() {
            break;
        }
        let ply = state["cursor"].clone();
        let (status, next) = app
            .post(&format!("/api/games/{game}/ai-move"), json!({"ply": ply}))
            .await;
        assert_eq!(status, StatusCode::OK, "{name}: {next}");
        state = next;
    }
    state
}

#[tokio::test]
async fn every_game_of_the_catalogue_plays_and_runs() {
    let app = App::new();
    let (_, catalogue) = app.get("/api/catalogue").await;
    let games = catalogue["games"].as_array().unwrap();
    assert!(games.len() >= 3, "{catalogue}");
    for info in games {
        let name = info["name"].as_str().unwrap();
        let [a, b] =
            [&info["default_match"][0], &info["default_match"][1]].map(|v| v.as_str().unwrap());
        let rows = info["rows"].as_u64().unwrap() as usize;
        let cols = info["cols"].as_u64().unwrap() as usize;
        assert_eq!(info["square_names"].as_array().unwrap().len(), rows * cols);
        assert_eq!(info["piece_colours"].as_array().unwrap().len(), 2);
        let state = app.new_game(name, [a, b]).await;
        let state = ai_moves_to_the_end(&app, name, state, rows * cols * 2 + 2).await;
        assert!(
            state["board"]["outcome"]["text"].is_string(),
            "{name} ends: {state}"
        );
        assert_eq!(
            state["board"]["cells"].as_array().unwrap().len(),
            rows * cols
        );
        let run = finished_run(
            &app,
            json!({"game": name, "a": a, "b": b, "games_per_side": 4, "seed": 1}),
        )
        .await;
        assert_eq!(run["played"], 8, "{name}: {run}");
        assert_eq!(run["game"], name);
        assert_eq!(run["digest"].as_str().unwrap().len(), 16);
    }
}

#[tokio::test]
async fn mcts_is_in_every_games_pickers_and_plays() {
    let app = App::new();
    let (_, catalogue) = app.get("/api/catalogue").await;
    for info in catalogue["games"].as_array().unwrap() {
        let name = info["name"].as_str().unwrap();
        let mcts = info["ais"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["name"] == "mcts")
            .unwrap_or_else(|| panic!("{name} offers no mcts"));
        assert!(mcts["params"].as_array().unwrap().len() >= 5, "{mcts}");
        let state = app
            .new_game(name, ["mcts:iterations=100", "mcts:iterations=50,seed=3"])
            .await;
        let state = ai_moves_to_the_end(&app, name, state, 200).await;
        assert!(state["board"]["outcome"]["text"].is_string(), "{state}");
        let run = finished_run(
            &app,
            json!({"game": name, "a": "mcts:iterations=50", "b": "mcts:iterations=20", "games_per_side": 2, "seed": 1}),
        )
        .await;
        assert_eq!(run["played"], 4, "{name}: {run}");
    }
}

#[tokio::test]
async fn analysis_values_each_move_or_says_why_not() {
    let app = App::new();
    let (status, view) = app
        .post(
            "/api/analysis",
            json!({"game": "othello", "moves": ["f5", "d6", "c3"], "ai": "engine:level=4"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let texts: Vec<&str> = view["scores"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["d3", "f3", "f4", "g5"]);
    assert_error(
        app.post(
            "/api/analysis",
            json!({"game": "ttt", "moves": [], "ai": "ai2"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "ai2 gives no value for each move; choose an AI that scores moves, such as solved",
    );
    assert_error(
        app.post(
            "/api/analysis",
            json!({"game": "ttt", "moves": ["0,0", "1,0", "0,1", "1,1", "0,2"], "ai": "ai_gt"}),
        )
        .await,
        StatusCode::CONFLICT,
        "the game is over here",
    );
    assert_error(
        app.post(
            "/api/analysis",
            json!({"game": "ttt", "ai": "engine:model=/etc/passwd"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "ai: unknown AI `engine`",
    );
}

/// Issue 63: tic-tac-toe's analysis is exact. Every first move is a draw, none an
/// estimate, none ranked over another, none costing anything; a position with a win in it
/// says how fast, a proof ranks over an estimate, and an estimate never makes a proven
/// move a mistake.
#[tokio::test]
async fn analysis_is_exact_where_the_game_is_solved_and_ranks_proofs_over_estimates() {
    let app = App::new();
    let (status, view) = app
        .post("/api/analysis", json!({"game": "ttt", "ai": "solved"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["scale"]["name"], "solved");
    let scores = view["scores"].as_array().unwrap();
    assert_eq!(scores.len(), 9);
    for s in scores {
        assert_eq!(s["exact"], true, "{s}");
        assert_eq!(s["best"], true, "{s}");
        assert_eq!(s["loss"], 0.0, "{s}");
        assert_eq!(s["label"], "D", "{s}");
        assert_eq!(s["value"], "draw", "{s}");
        assert_eq!(s["share"], 0.0, "{s}");
    }
    // o to move wins at once at 2,0; blocking at 2,1 draws; the rest lose.
    let (_, view) = app
        .post(
            "/api/analysis",
            json!({"game": "ttt", "moves": ["0,0", "0,1", "1,0", "1,1"], "ai": "solved"}),
        )
        .await;
    let by_move = |text: &str| {
        view["scores"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["text"] == text)
            .unwrap()
            .clone()
    };
    let win = by_move("2,0");
    assert_eq!(
        (win["label"].as_str(), win["best"].as_bool()),
        (Some("W1"), Some(true))
    );
    assert_eq!(win["value"], "win at once");
    assert_eq!(win["against"], "loss at the opponent's next move");
    let draw = by_move("2,1");
    assert_eq!(
        (draw["label"].as_str(), draw["certain"].as_bool()),
        (Some("D"), Some(true))
    );
    assert!(draw["loss"].as_f64().unwrap() > 0.0);
    assert_eq!(by_move("2,2")["label"], "L1");
    // MCTS marks its proofs: with few iterations in the same position the immediate win
    // is proven, and it is the best move whatever the estimates say.
    let (_, view) = app
        .post(
            "/api/analysis",
            json!({"game": "ttt", "moves": ["0,0", "0,1", "1,0", "1,1"], "ai": "mcts:iterations=50"}),
        )
        .await;
    assert_eq!(view["scale"]["name"], "win-rate");
    let best: Vec<&Value> = view["scores"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["best"] == true)
        .collect();
    assert_eq!(best.len(), 1, "{view}");
    assert_eq!(
        (best[0]["text"].as_str(), best[0]["exact"].as_bool()),
        (Some("2,0"), Some(true))
    );
    assert_eq!(best[0]["label"], "win");
}

/// Issue 63: a game keeps its players' names, event and date, given or read from a pasted
/// GGF, and writes them into its own GGF; headers too long are refused.
#[tokio::test]
async fn a_game_keeps_its_headers_in_and_out() {
    let app = App::new();
    let ggf = "(;GM[Othello]PC[Club night]DT[2020.05.01]PB[Alice]PW[Bob]RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)";
    let (status, state) = app
        .post(
            "/api/games",
            json!({"game": "othello", "players": ["human", "human"], "record": ggf}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{state}");
    assert_eq!(state["headers"]["players"], json!(["Alice", "Bob"]));
    assert_eq!(state["headers"]["event"], "Club night");
    assert_eq!(state["headers"]["date"], "2020.05.01");
    let native = state["record"]["native"].as_str().unwrap();
    for part in ["PC[Club night]", "DT[2020.05.01]", "PB[Alice]", "PW[Bob]"] {
        assert!(native.contains(part), "{native}");
    }
    // The opening's name, for the position shown: f5 d6 (issue 63).
    assert_eq!(state["opening"], "Perpendicular", "{state}");
    // Given with the request (a database's game); an AI's seat keeps its name too.
    let (_, state) = app
        .post(
            "/api/games",
            json!({"game": "othello", "players": ["human", "random"], "moves": ["f5"],
                   "headers": {"players": ["Tastet Marc", null], "event": "Paris", "date": "1990"}}),
        )
        .await;
    let native = state["record"]["native"].as_str().unwrap();
    assert!(native.contains("PB[Tastet Marc]PW[random]"), "{native}");
    assert!(native.contains("PC[Paris]DT[1990]"), "{native}");
    // Without headers the state has none, and the GGF names the seats.
    let (_, state) = app
        .post(
            "/api/games",
            json!({"game": "othello", "players": ["human", "human"]}),
        )
        .await;
    assert!(state.get("headers").is_none(), "{state}");
    assert!(
        state["record"]["native"]
            .as_str()
            .unwrap()
            .contains("PB[human]PW[human]")
    );
    assert_error(
        app.post(
            "/api/games",
            json!({"game": "othello", "players": ["human", "human"],
                   "headers": {"players": ["x".repeat(201), null]}}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "headers: the first player's name is 201 characters long: expected at most 200",
    );
}

/// The moves of a game's state, as texts.
fn move_texts(state: &Value) -> Vec<&str> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect()
}

#[tokio::test]
async fn a_pasted_record_is_played_with_its_left_out_passes() {
    // After these moves black must pass (the browser tests' game).
    let to_pass = "d3c5c6c7f6e3f3f2f1d6d7e8b5b6a7f4b7a6f5g3d8c4b8g2a4g6g5a5h2h3b3h1c3g4h6c8h4g1f8e2d2e7b4g7h8f7h7a8e1g8h5e6";
    let app = App::new();
    let mut moves: Vec<String> = (0..to_pass.len() / 2)
        .map(|i| to_pass[2 * i..2 * i + 2].to_string())
        .collect();
    moves.push("pass".into());
    let state = app
        .new_game_with(json!({"game": "othello", "players": ["human", "human"], "moves": moves}))
        .await;
    let reply = state["board"]["legal"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    let record = format!("{to_pass}{reply}");
    let state = app
        .new_game_with(json!({"game": "othello", "players": ["human", "human"], "record": record}))
        .await;
    let line = move_texts(&state);
    assert_eq!(line.len(), 54);
    assert_eq!(line[52], "pass");
    assert_eq!(line[53], reply);
    // What the page copies pastes back: in every game, the moves as written; in Othello
    // also the GGF record.
    for (game, players) in [
        ("ttt", ["ai2", "ai2"]),
        ("othello", ["random", "random"]),
        ("connect4", ["random", "random"]),
    ] {
        let mut state = app.new_game(game, players).await;
        for _ in 0..12 {
            if !state["ai_to_move"].as_bool().unwrap() {
                break;
            }
            let (_, next) = app
                .post(&format!("/api/games/{}/ai-move", id(&state)), json!({}))
                .await;
            state = next;
        }
        let line = move_texts(&state);
        assert!(line.len() >= 5, "{game}");
        let record = &state["record"];
        let mut copies = vec![record["moves"].as_str().unwrap().to_string()];
        if game == "othello" {
            assert_eq!(record["format"], "ggf");
            let ggf = record["native"].as_str().unwrap();
            assert!(
                ggf.starts_with("(;GM[Othello]PC[gamelab]PB[random]PW[random]RE[?]"),
                "{ggf}"
            );
            copies.push(ggf.to_string());
        } else {
            assert!(record["native"].is_null());
        }
        for copy in copies {
            let pasted = app
                .new_game_with(json!({"game": game, "players": ["human", "human"], "record": copy}))
                .await;
            assert_eq!(move_texts(&pasted), line, "{game}: {copy}");
        }
    }
    // A GGF game pastes in too (NBoard copies games that way): its moves, passes and all.
    let ggf = "(;GM[Othello]PC[NBoard]PB[Player]PW[Edax]RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6//0.01]W[F4];)";
    let state = app
        .new_game_with(json!({"game": "othello", "players": ["human", "human"], "record": ggf}))
        .await;
    assert_eq!(move_texts(&state), ["f5", "f6", "e6", "f4"]);
    // Move numbers as books write them are left out, in every game.
    for (game, record, moves) in [
        (
            "othello",
            "1. f5 d6 2. c3 d3 3.c4",
            vec!["f5", "d6", "c3", "d3", "c4"],
        ),
        ("connect4", "1. d c 2... d", vec!["d", "c", "d"]),
        ("ttt", "1. 1,1 0,0 2. 2,2", vec!["1,1", "0,0", "2,2"]),
    ] {
        let state = app
            .new_game_with(json!({"game": game, "players": ["human", "human"], "record": record}))
            .await;
        let texts: Vec<String> = move_texts(&state)
            .iter()
            .map(|t| t.replace(['(', ')', ' '], ""))
            .collect();
        assert_eq!(texts, moves, "{game}: {record}");
    }
    assert_error(
        app.post(
            "/api/games",
            json!({"game": "ttt", "players": ["human", "human"], "record": "1,1 1,1"}),
        )
        .await,
        StatusCode::BAD_REQUEST,
        "record, move 2 (`1,1`)",
    );
}

#[tokio::test]
async fn requests_for_another_host_are_refused() {
    let app = App::new();
    for host in [Some("evil.example:8080"), Some("127.0.0.1:9999"), None] {
        let mut request = Request::get("/api/catalogue");
        if let Some(host) = host {
            request = request.header(header::HOST, host);
        }
        assert_error(
            app.raw(request, None).await,
            StatusCode::MISDIRECTED_REQUEST,
            "answers requests for http://127.0.0.1:8080/ only",
        );
    }
    let localhost = Request::get("/api/catalogue").header(header::HOST, "localhost:8080");
    assert_eq!(app.raw(localhost, None).await.0, StatusCode::OK);
}

#[tokio::test]
async fn posts_that_are_not_json_are_refused() {
    let app = App::new();
    let game = id(&app.new_game("ttt", ["human", "human"]).await);
    app.post(&format!("/api/games/{game}/move"), json!({"move": "1,1"}))
        .await;
    // What a page on another site can send without asking: text/plain, or no type.
    for content_type in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        None,
    ] {
        let mut request = Request::post(format!("/api/games/{game}/undo"))
            .header(header::HOST, format!("127.0.0.1:{PORT}"));
        if let Some(t) = content_type {
            request = request.header(header::CONTENT_TYPE, t);
        }
        assert_error(
            app.raw(request, Some("{}".into())).await,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "application/json",
        );
    }
    let (_, state) = app.get(&format!("/api/games/{game}")).await;
    assert_eq!(state["cursor"], 1, "the undo was refused");
}

#[tokio::test]
async fn specs_from_the_page_name_no_files() {
    let dir = std::env::temp_dir().join(format!("gamelab-web-models-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "unknown_field_secret").unwrap();
    let app = App::new();
    for spec in [
        format!("regression:model={}", secret.display()),
        "regression:model=/dev/zero".to_string(),
        "engine:model=/etc/passwd".to_string(),
    ] {
        let game = if spec.starts_with("engine") {
            "othello"
        } else {
            "ttt"
        };
        let (status, body) = app
            .post(
                "/api/games",
                json!({"game": game, "players": ["human", spec]}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{spec}: {body}");
        let message = body["error"].as_str().unwrap();
        assert!(message.contains("reads no files"), "{message}");
        assert!(!message.contains("unknown_field"), "{message}");
        let (status, _) = app
            .post(
                "/api/explore",
                json!({"game": "ttt", "ai": spec, "moves": []}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{spec}");
        let (status, _) = app
            .post(
                "/api/runs",
                json!({"game": game, "a": spec, "b": "random", "games_per_side": 1}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{spec}");
    }
    // Nor programs to run: an outside engine's command is refused, with or without a
    // models folder, and nothing is started.
    let marker = dir.join("started");
    let spec = format!("nboard:cmd=(touch {})", marker.display());
    let gtp = format!("gtp:cmd=(touch {})", marker.display());
    for (path, spec) in [
        ("/api/games", &spec),
        ("/api/runs", &spec),
        ("/api/games", &gtp),
    ] {
        let body = if path == "/api/games" {
            json!({"game": "othello", "players": ["human", spec]})
        } else {
            json!({"game": "othello", "a": spec, "b": "random", "games_per_side": 1})
        };
        let (status, body) = app.post(path, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        let message = body["error"].as_str().unwrap();
        assert!(
            message.contains("names a program to run, and this front end runs none"),
            "{message}"
        );
    }
    assert!(!marker.exists());
    // A server started with engines runs those, by name, and nothing else.
    let opener = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/opener.sh");
    let served = App::with(gamelab_web::Config {
        engines: vec![
            gamelab_core::NamedProgram {
                name: "opener".into(),
                command: opener.into(),
                protocol: None,
            },
            gamelab_core::NamedProgram {
                name: "nboard-opener".into(),
                command: opener.into(),
                protocol: Some("nboard".into()),
            },
        ],
        port: PORT,
        ..Default::default()
    });
    let (_, catalogue) = served.get("/api/catalogue").await;
    assert_eq!(
        catalogue["programs"],
        json!([
            {"name": "opener", "protocol": null},
            {"name": "nboard-opener", "protocol": "nboard"},
        ]),
        "names and protocols, never the commands"
    );
    let othello = catalogue["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "othello")
        .unwrap();
    let protocols: Vec<(&str, &str)> = othello["ais"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|ai| {
            let name = ai["name"].as_str().unwrap();
            ai["params"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p["kind"] == "program")
                .map(move |p| (name, p["protocol"].as_str().unwrap()))
        })
        .collect();
    assert_eq!(protocols, [("nboard", "nboard"), ("gtp", "gtp")]);
    // One offered for NBoard alone is refused to a GTP AI, with the way to use it.
    let (status, body) = served
        .post(
            "/api/games",
            json!({"game": "othello", "players": ["human", "gtp:cmd=nboard-opener"]}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let message = body["error"].as_str().unwrap();
    assert!(
        message.contains("cmd `nboard-opener` names a program this server offers to nboard AIs only (`nboard:cmd=nboard-opener`), not to gtp ones"),
        "{message}"
    );
    let state = served
        .new_game("othello", ["nboard:cmd=nboard-opener", "human"])
        .await;
    let (status, state) = served
        .post(
            &format!("/api/games/{}/ai-move", id(&state)),
            json!({"ply": 0}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["moves"][0]["text"], "f5");
    let state = served
        .new_game("othello", ["nboard:cmd=opener", "human"])
        .await;
    let game = id(&state);
    let (status, state) = served
        .post(&format!("/api/games/{game}/ai-move"), json!({"ply": 0}))
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["moves"][0]["text"], "f5");
    let (status, body) = served
        .post(
            "/api/games",
            json!({"game": "othello", "players": ["human", spec]}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let message = body["error"].as_str().unwrap();
    assert!(
        message.contains(
            "names a program this server does not offer; it offers opener, nboard-opener"
        ),
        "{message}"
    );
    assert!(!marker.exists());
    // With a models folder, its files are named by their plain names, and nothing else.
    let set = gamelab_ttt::learned::FeatureSet::known().remove(0);
    let fitted = gamelab_learn::Fitted {
        intercept: 0.0,
        weights: vec![0.0; set.names.len()],
        rmse: 0.0,
    };
    gamelab_learn::Model::new(&fitted, &set, 0.0, 0)
        .save(&dir.join("mine.model"))
        .unwrap();
    let app = App::with(gamelab_web::Config {
        models: Some(dir.clone()),
        port: PORT,
        ..Default::default()
    });
    // The page is offered the folder's regular files by plain name (no dot-files).
    std::fs::write(dir.join(".hidden"), "").unwrap();
    let (_, catalogue) = app.get("/api/catalogue").await;
    assert_eq!(catalogue["models"], json!(["mine.model", "secret.txt"]));
    let state = app
        .new_game("ttt", ["human", "regression:model=mine.model"])
        .await;
    assert_eq!(state["players"][1]["spec"], "regression:model=mine.model");
    for name in [
        "../mine.model",
        "/etc/passwd",
        ".hidden",
        "absent.model",
        "sub/x",
    ] {
        let spec = format!("regression:model={name}");
        let (status, body) = app
            .post(
                "/api/games",
                json!({"game": "ttt", "players": ["human", spec]}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{name}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains("models folder"),
            "{body}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn runs_playing_at_once_are_capped() {
    let app = App::new();
    let slow =
        json!({"game": "othello", "a": "engine:level=2", "b": "random", "games_per_side": 1000000});
    let mut ids = Vec::new();
    for _ in 0..gamelab_web::MAX_ACTIVE_RUNS {
        let (status, run) = app.post("/api/runs", slow.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "{run}");
        ids.push(id(&run));
    }
    assert_error(
        app.post("/api/runs", slow.clone()).await,
        StatusCode::TOO_MANY_REQUESTS,
        "stop one",
    );
    // Stopping one makes room.
    let path = format!("/api/runs/{}", ids[0]);
    app.post(&format!("{path}/stop"), json!({})).await;
    wait_until_done(&app, &path).await;
    let (status, run) = app.post("/api/runs", slow).await;
    assert_eq!(status, StatusCode::CREATED, "{run}");
    ids.push(id(&run));
    for id in &ids[1..] {
        let path = format!("/api/runs/{id}");
        app.post(&format!("{path}/stop"), json!({})).await;
        wait_until_done(&app, &path).await;
    }
}

#[tokio::test]
async fn games_are_dropped_by_last_use() {
    let app = App::new();
    let first = id(&app.new_game("ttt", ["human", "human"]).await);
    let second = id(&app.new_game("ttt", ["human", "human"]).await);
    for _ in 2..gamelab_web::MAX_SESSIONS {
        app.new_game("ttt", ["human", "human"]).await;
    }
    // The first game is used again, so the second is now the one used least recently.
    let (status, _) = app.get(&format!("/api/games/{first}")).await;
    assert_eq!(status, StatusCode::OK);
    app.new_game("ttt", ["human", "human"]).await;
    assert_eq!(
        app.get(&format!("/api/games/{first}")).await.0,
        StatusCode::OK
    );
    assert_error(
        app.get(&format!("/api/games/{second}")).await,
        StatusCode::NOT_FOUND,
        "others were used since",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_ai_move_is_stopped_and_not_played() {
    let app = App::new();
    // A search that would run for hours from the start.
    let game = id(&app.new_game("othello", ["engine:level=30", "human"]).await);
    let path = format!("/api/games/{game}");
    let abandoned = tokio::time::timeout(
        std::time::Duration::from_millis(300),
        app.post(&format!("{path}/ai-move"), json!({})),
    )
    .await;
    assert!(abandoned.is_err(), "the move should still be searching");
    // The search sees the stop, gives the game back, and its hurried move is not played.
    let (status, state) = app.get(&path).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(state["cursor"], 0, "{state}");
    assert_eq!(state["ai_to_move"], true);
    // Other games play on.
    let game = id(&app.new_game("othello", ["engine:level=1", "human"]).await);
    let (status, state) = app
        .post(&format!("/api/games/{game}/ai-move"), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["cursor"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_move_past_the_limit_is_stopped_and_not_played() {
    let app = App::with(gamelab_web::Config {
        port: PORT,
        ai_move_limit: std::time::Duration::from_millis(300),
        ..Default::default()
    });
    let game = id(&app.new_game("othello", ["engine:level=30", "human"]).await);
    let path = format!("/api/games/{game}");
    assert_error(
        app.post(&format!("{path}/ai-move"), json!({})).await,
        StatusCode::SERVICE_UNAVAILABLE,
        "had not chosen after 0.3 s",
    );
    let (_, state) = app.get(&path).await;
    assert_eq!(state["cursor"], 0, "{state}");
    // An analysis is held to the same limit.
    assert_error(
        app.post(
            "/api/analysis",
            json!({"game": "othello", "ai": "engine:level=30"}),
        )
        .await,
        StatusCode::SERVICE_UNAVAILABLE,
        "the analysis had not finished after 0.3 s",
    );
    // So is an exploration, by its valuer or by the AI asked.
    for body in [
        json!({"game": "othello", "valuer": "engine:level=30"}),
        json!({"game": "othello", "ai": "engine:level=30"}),
    ] {
        assert_error(
            app.post("/api/explore", body).await,
            StatusCode::SERVICE_UNAVAILABLE,
            "the exploration had not finished after 0.3 s",
        );
    }
}

#[tokio::test]
async fn wthor_games_are_found_and_open_as_games() {
    let folder =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/othello/wthor");
    let db = gamelab_othello::wthor_database::Database::open(&folder).unwrap();
    let app = App::with(gamelab_web::Config {
        port: PORT,
        wthor: Some(std::sync::Arc::new(db)),
        ..Default::default()
    });
    let (_, catalogue) = app.get("/api/catalogue").await;
    assert_eq!(
        catalogue["wthor"],
        json!({"games": 127_475, "years": [1977, 2021]})
    );

    let (status, page) = app.get("/api/wthor?year=1990&player=tastet&limit=3").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["total"], 127_475);
    let matching = page["matching"].as_u64().unwrap();
    assert!(matching > 3, "{page}");
    let games = page["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    for g in games {
        assert_eq!(g["year"], 1990);
        let names = format!("{} {}", g["black"], g["white"]).to_lowercase();
        assert!(names.contains("tastet"), "{g}");
    }
    // The next page goes on where this one ended.
    let (_, next) = app
        .get("/api/wthor?year=1990&player=TASTET&limit=3&offset=2")
        .await;
    assert_eq!(next["games"][0]["id"], games[2]["id"]);
    assert_eq!(next["matching"], matching);

    // A game opens in the Play view from its transcript, passes put back in, to its end.
    let game = &games[0];
    let (status, state) = app
        .post(
            "/api/games",
            json!({"game": "othello", "players": ["human", "human"], "record": game["moves"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{state}");
    let played: String = state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .filter(|t| *t != "pass")
        .collect();
    assert_eq!(played, game["moves"].as_str().unwrap());

    assert_error(
        app.get("/api/wthor?limit=0").await,
        StatusCode::BAD_REQUEST,
        "limit 0 is out of range",
    );
    assert_error(
        app.get("/api/wthor?year=70000").await,
        StatusCode::BAD_REQUEST,
        "year",
    );
    assert_error(
        app.get(&format!("/api/wthor?player={}", "x".repeat(101)))
            .await,
        StatusCode::BAD_REQUEST,
        "player is longer than 100 characters",
    );
    // A server started without the folder says how to start it with one.
    assert_error(
        App::new().get("/api/wthor").await,
        StatusCode::NOT_FOUND,
        "--wthor FOLDER",
    );
    assert_eq!(
        App::new().get("/api/catalogue").await.1["wthor"],
        Value::Null
    );
}

#[tokio::test]
async fn a_game_starts_from_a_position_set_up_square_by_square() {
    let app = App::new();
    // FFO #40, black to move: a1 is the only empty corner.
    let board = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------";
    let cells: Vec<Value> = board
        .chars()
        .map(|c| match c {
            'X' => json!("black"),
            'O' => json!("white"),
            _ => Value::Null,
        })
        .collect();
    let position = json!({"cells": cells, "to_move": "black"});
    let (status, state) = app
        .post(
            "/api/games",
            json!({"game": "othello", "players": ["human", "engine:level=4"], "position": position}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{state}");
    assert_eq!(state["position"], position);
    assert_eq!(state["board"]["to_move"], "black");
    assert_eq!(state["board"]["cells"][0], "white");
    assert_eq!(state["board"]["cells"][8], "");
    assert_eq!(state["cursor"], 0);
    // Its GGF would start from the start: only the moves are offered.
    assert_eq!(state["record"]["native"], Value::Null);
    let legal: Vec<&str> = state["board"]["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert!(legal.contains(&"a2"), "{legal:?}");
    // It plays on from there, the moves given played from the set-up position.
    let (status, state) = app
        .post(
            "/api/games",
            json!({"game": "othello", "players": ["human", "human"], "position": position, "moves": ["a2"]}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{state}");
    assert_eq!(state["moves"][0]["text"], "a2");
    assert_eq!(state["board"]["to_move"], "white");

    let new_game = |game: &str, position: Value| {
        app.post(
            "/api/games",
            json!({"game": game, "players": ["human", "human"], "position": position}),
        )
    };
    let mut empty_centre = cells.clone();
    empty_centre[27] = Value::Null;
    for (game, position, message) in [
        (
            "othello",
            json!({"cells": empty_centre, "to_move": "black"}),
            "the four centre squares",
        ),
        (
            "othello",
            json!({"cells": cells[..10], "to_move": "black"}),
            "position: 10 squares, expected 64",
        ),
        (
            "othello",
            json!({"cells": cells, "to_move": "red"}),
            "the side to move `red` is not black or white",
        ),
        (
            "ttt",
            json!({"cells": ["o", null, null, null, null, null, null, null, "purple"], "to_move": "x"}),
            "square 2,2 `purple` is not o or x",
        ),
        (
            "ttt",
            json!({"cells": ["o", null, null, null, null, null, null, null, null], "to_move": "o"}),
            "with 1 o and 0 x on the board, x is to move (o moves first)",
        ),
        (
            "connect4",
            json!({"cells": [], "to_move": "red"}),
            "cannot be set up square by square",
        ),
    ] {
        assert_error(
            new_game(game, position).await,
            StatusCode::BAD_REQUEST,
            message,
        );
    }
    // Tic-tac-toe from a set-up position: x to move after one o.
    let (status, state) = new_game(
        "ttt",
        json!({"cells": [null, null, null, null, "o", null, null, null, null], "to_move": "x"}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{state}");
    assert_eq!(state["board"]["to_move"], "x");
    let (_, catalogue) = app.get("/api/catalogue").await;
    let can: Vec<(&str, bool)> = catalogue["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["name"].as_str().unwrap(),
                g["can_set_up"].as_bool().unwrap(),
            )
        })
        .collect();
    assert!(can.contains(&("othello", true)) && can.contains(&("ttt", true)));
    assert!(can.contains(&("connect4", false)), "{can:?}");
}

/// The standings core's round robin of `ais` gives with `cfg`: what `gamelab tournament
/// --json` prints as `players`.
fn core_standings<G: gamelab_core::EngineHooks>(
    ais: &[&str],
    registry: &gamelab_core::Registry<G>,
    cfg: &MatchConfig,
) -> Value {
    let names: Vec<String> = ais.iter().map(|s| s.to_string()).collect();
    let report = gamelab_core::tournament::run_tournament::<G, _>(
        &names,
        &|i| registry.build(&names[i]).unwrap(),
        cfg,
        &[],
        None,
        &|_| {},
    )
    .unwrap();
    serde_json::to_value(&report.players).unwrap()
}

#[tokio::test]
async fn a_tournament_fills_its_table_and_ends_as_the_cli_plays_it() {
    let app = App::new();
    let ais = ["ai14s", "ai2", "ai1"];
    let (status, started) = app
        .post(
            "/api/tournaments",
            json!({"game": "ttt", "ais": ais, "games_per_side": 30, "seed": 4}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{started}");
    assert_eq!(started["total"], 180);
    assert_eq!(started["pairs"].as_array().unwrap().len(), 3);
    let path = format!("/api/tournaments/{}", id(&started));
    let done = wait_until_done(&app, &path).await;
    assert_eq!(done["played"], 180);
    assert_eq!(done["stopped"], false);
    // The same standings as core's round robin (what `gamelab tournament --json` prints).
    let cfg = MatchConfig {
        games_per_side: 30,
        seed: 4,
        threads: 1,
        opening_plies: 0,
        ..Default::default()
    };
    assert_eq!(
        done["standings"],
        core_standings::<Ttt>(&ais, &gamelab_ttt::ai::registry(), &cfg)
    );
    assert_eq!(done["standings"][0]["ai"], "ai14s");
    let pair = &done["pairs"][0];
    assert_eq!((&pair["a"], &pair["b"]), (&json!("ai14s"), &json!("ai2")));
    assert_eq!(pair["lose"], 0, "ai14s never loses");

    // The table as CSV: a row per AI, best first.
    let (status, csv) = app.get(&format!("{path}/csv")).await;
    assert_eq!(status, StatusCode::OK);
    let csv = csv.as_str().unwrap().to_string();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(lines[0].starts_with("rank,ai,elo,interval95,games,points,\"vs ai14s\""));
    assert!(lines[1].starts_with("1,\"ai14s\","), "{csv}");
    assert!(lines[1].contains(",120,"), "120 games for each: {csv}");

    // A long one stops when asked, its table as it stood.
    let (_, long) = app
        .post(
            "/api/tournaments",
            json!({"game": "othello", "ais": ["random", "greedy"], "games_per_side": 100000}),
        )
        .await;
    let path = format!("/api/tournaments/{}", id(&long));
    app.post(&format!("{path}/stop"), json!({})).await;
    let stopped = wait_until_done(&app, &path).await;
    assert_eq!(stopped["stopped"], true);
    assert!(stopped["played"].as_u64().unwrap() < 200_000);

    for (body, message) in [
        (
            json!({"game": "ttt", "ais": ["ai1"], "games_per_side": 1}),
            "at least two AIs",
        ),
        (
            json!({"game": "ttt", "ais": ["ai1", "ai1"], "games_per_side": 1}),
            "`ai1` is entered twice",
        ),
        (
            json!({"game": "ttt", "ais": ["ai1", "ai2", "ai3", "ai4", "ai5", "ai6", "ai7", "ai8", "ai9"], "games_per_side": 1}),
            "9 AIs: a tournament takes 2 to 8",
        ),
        (
            json!({"game": "ttt", "ais": ["ai1", "ai2"], "games_per_side": 0}),
            "games_per_side 0 is out of range",
        ),
        (
            json!({"game": "ttt", "ais": ["ai1", "ai42"], "games_per_side": 1}),
            "ai 2: unknown AI `ai42`",
        ),
    ] {
        assert_error(
            app.post("/api/tournaments", body).await,
            StatusCode::BAD_REQUEST,
            message,
        );
    }
    assert_error(
        app.get("/api/tournaments/0123456789abcdef").await,
        StatusCode::NOT_FOUND,
        "no tournament has id",
    );
}

/// The events of a deepening analysis of `body`, read to the end of the stream; the
/// status and the error when it is refused.
async fn deepening(app: &App, body: Value) -> Result<Vec<Value>, (StatusCode, Value)> {
    let request = Request::post("/api/analysis/deepen")
        .header(header::HOST, format!("127.0.0.1:{PORT}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = app.0.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    if status != StatusCode::OK {
        return Err((status, serde_json::from_slice(&bytes).unwrap()));
    }
    Ok(String::from_utf8(bytes.to_vec())
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).unwrap())
        .collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deepening_analysis_streams_each_level_to_the_exact_values() {
    use gamelab_core::Game;
    use gamelab_othello::Othello;
    let app = App::new();
    // A random game to 14 empties: its moves' values are exact from level 7.
    let mut pos = Othello::new();
    let mut moves = Vec::new();
    let mut rng = gamelab_core::game_rng(3, 0, gamelab_core::Side::First);
    while pos.empties() > 14 {
        let legal = pos.legal_moves();
        let mv = legal[rng.below(legal.len())];
        moves.push(mv.to_string());
        pos.play_unchecked(mv);
    }
    assert!(!pos.is_over());
    let body = json!({"game": "othello", "moves": moves, "ai": "engine:threads=1"});
    let events = deepening(&app, body).await.unwrap();
    let levels: Vec<u64> = events[..events.len() - 1]
        .iter()
        .map(|e| e["level"].as_u64().unwrap())
        .collect();
    assert_eq!(levels, (1..=7).collect::<Vec<_>>());
    assert!(
        events[..events.len() - 1]
            .iter()
            .all(|e| e["done"] == false)
    );
    let last = events.last().unwrap();
    assert_eq!(last["done"], true, "{last}");
    assert_eq!(last["end"], "exact");
    assert_eq!(last["reason"], "every move's value is exact");
    assert_eq!(last["level"], 7);
    assert_eq!(last["scores"], events[events.len() - 2]["scores"]);
    // The values are the solver's: those of a level that solves them at once.
    let (status, once) = app
        .post(
            "/api/analysis",
            json!({"game": "othello", "moves": moves, "ai": "engine:level=8,threads=1"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{once}");
    let scores = last["scores"].as_array().unwrap();
    assert_eq!(scores.len(), once["scores"].as_array().unwrap().len());
    for (deep, solved) in scores.iter().zip(once["scores"].as_array().unwrap()) {
        assert_eq!(deep["text"], solved["text"]);
        assert_eq!(deep["score"], solved["score"], "{}", deep["text"]);
        assert_eq!(deep["exact"], true);
        assert_eq!(deep["line"][0], deep["text"]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deepening_analysis_ends_at_the_servers_limit_and_refuses_bad_requests() {
    let app = App::with(gamelab_web::Config {
        port: PORT,
        // The first level takes microseconds and no level is exact from the start: the
        // limit ends the deepening after a level or more on any machine.
        ai_move_limit: std::time::Duration::from_secs(2),
        ..Default::default()
    });
    let events = deepening(&app, json!({"game": "othello", "ai": "engine:threads=1"}))
        .await
        .unwrap();
    assert!(events.len() >= 2, "{events:?}");
    let last = events.last().unwrap();
    assert_eq!(last["end"], "time", "{last}");
    assert_eq!(last["reason"], "the server's limit of 2 s ran out");
    assert_eq!(last["scores"].as_array().unwrap().len(), 4);
    assert!(last["elapsed_ms"].as_u64().unwrap() >= 2000);
    // Each move's value at the event's level, or, in a level the time cut short (the last
    // event and the one before, which it repeats), the next.
    for (i, event) in events.iter().enumerate() {
        let level = event["level"].as_u64().unwrap();
        let cut_short = i + 2 >= events.len();
        for score in event["scores"].as_array().unwrap() {
            let own = score["level"].as_u64().unwrap();
            assert!(own == level || (cut_short && own == level + 1), "{event}");
        }
    }
    // The AI's own time.
    let events = deepening(
        &App::new(),
        json!({"game": "othello", "ai": "engine:time=0.2,threads=1"}),
    )
    .await
    .unwrap();
    assert_eq!(
        events.last().unwrap()["reason"],
        "the AI's own time ran out"
    );
    // An AI that values moves once: one event, then the same, done.
    let events = deepening(
        &app,
        json!({"game": "ttt", "moves": ["1,1"], "ai": "ai14s"}),
    )
    .await
    .unwrap();
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["level"], Value::Null);
    assert_eq!(events[1]["end"], "deepest");
    assert_eq!(events[1]["reason"], "the AI searches no further");
    assert_eq!(events[1]["scores"].as_array().unwrap().len(), 8);
    // MCTS, every game's analysis AI, doubles its iterations a level, until its tree has
    // proven every move (tic-tac-toe's, in well under the limit).
    let events = deepening(
        &App::new(),
        json!({"game": "ttt", "moves": ["1,1"], "ai": "mcts:iterations=200"}),
    )
    .await
    .unwrap();
    let last = events.last().unwrap();
    assert_eq!(last["end"], "exact", "{last}");
    let nodes: Vec<u64> = events[..events.len() - 1]
        .iter()
        .map(|e| e["nodes"].as_u64().unwrap())
        .collect();
    assert_eq!(nodes[..2], [200, 400], "{nodes:?}");
    assert!(
        last["scores"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["exact"] == true)
    );
    // Refused before the stream starts.
    for (body, status, needle) in [
        (
            json!({"game": "ttt", "ai": "ai2"}),
            StatusCode::BAD_REQUEST,
            "ai2 gives no value for each move",
        ),
        (
            json!({"game": "ttt", "moves": ["0,0", "1,0", "0,1", "1,1", "0,2"], "ai": "mcts"}),
            StatusCode::CONFLICT,
            "the game is over here",
        ),
        (
            json!({"game": "othello", "ai": "engine:level=99"}),
            StatusCode::BAD_REQUEST,
            "ai: ",
        ),
        (
            json!({"game": "chess", "ai": "engine"}),
            StatusCode::BAD_REQUEST,
            "chess",
        ),
        (
            json!({"game": "othello", "moves": ["a1"], "ai": "engine"}),
            StatusCode::BAD_REQUEST,
            "a1",
        ),
    ] {
        assert_error(deepening(&app, body).await.unwrap_err(), status, needle);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_on_a_clock_runs_each_sides_time_and_ends_on_a_flag() {
    // People: the side to move's clock runs between requests; the time is moved by hand.
    let time = gamelab_core::clock::TimeSource::manual();
    let app = App::with(gamelab_web::Config {
        port: PORT,
        time: time.clone(),
        ..Default::default()
    });
    let state = app
        .new_game_with(json!({"game": "ttt", "players": ["human", "human"], "clock": "1+0.5"}))
        .await;
    let path = format!("/api/games/{}", id(&state));
    let clock = &state["clock"];
    assert_eq!(clock["control"], "1+0.5");
    assert_eq!(clock["description"], "1 s a side and 0.5 s more a move");
    assert_eq!(clock["running"], "o");
    assert_eq!(clock["flag"], Value::Null);
    time.advance(std::time::Duration::from_millis(250));
    let (status, state) = app
        .post(&format!("{path}/move"), json!({"move": "1,1"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    // o's move cost it a quarter of a second and earned it the increment; x's clock runs.
    assert_eq!(state["clock"]["left"], json!([1.25, 1.0]), "{state}");
    assert_eq!(state["clock"]["running"], "x");
    time.advance(std::time::Duration::from_millis(400));
    let (_, state) = app.get(&path).await;
    assert_eq!(state["clock"]["left"], json!([1.25, 0.6]), "{state}");
    assert_eq!(state["clock"]["flag"], Value::Null);
    // x waits past its time: the game is over on time, and a late move is not played.
    time.advance(std::time::Duration::from_millis(601));
    let (_, state) = app.get(&path).await;
    assert_eq!(state["clock"]["flag"], "x", "{state}");
    assert_eq!(state["clock"]["running"], Value::Null);
    assert_eq!(state["clock"]["left"][1], 0.0);
    assert_eq!(state["board"]["outcome"]["winner"], "o");
    assert!(
        state["board"]["outcome"]["text"]
            .as_str()
            .unwrap()
            .starts_with("o wins on time: x's time ran out"),
        "{state}"
    );
    assert_eq!(state["board"]["legal"], json!([]));
    let (status, late) = app
        .post(&format!("{path}/move"), json!({"move": "0,0"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{late}");
    assert_eq!(late["cursor"], 1);
    assert_eq!(late["clock"]["flag"], "x");
    // A takeback brings back the clocks of the position shown.
    let (_, back) = app.post(&format!("{path}/undo"), json!({})).await;
    assert_eq!(back["clock"]["flag"], Value::Null);
    assert_eq!(back["board"]["outcome"], Value::Null);
    assert_eq!(back["clock"]["left"][1], 1.0);
    // An AI on a clock thinks within its share (the machine's time here) and is charged
    // for it.
    let app = App::new();
    let state = app
        .new_game_with(json!({"game": "othello", "players": ["engine:level=30,threads=1", "human"], "clock": "2"}))
        .await;
    let (status, state) = app
        .post(&format!("/api/games/{}/ai-move", id(&state)), json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["cursor"], 1);
    let black = state["clock"]["left"][0].as_f64().unwrap();
    assert!(black < 2.0 && black > 0.0, "{state}");
    assert_eq!(state["clock"]["flag"], Value::Null);
    // A clock that cannot be read is refused, saying so once.
    for (clock, needle) in [
        ("soon", "clock `soon`: expected MAIN"),
        ("0", "leaves no time"),
        ("-5", "expected seconds from 0"),
        ("1e300", "expected seconds from 0"),
    ] {
        let response = app
            .post(
                "/api/games",
                json!({"game": "ttt", "players": ["human", "human"], "clock": clock}),
            )
            .await;
        let message = response.1["error"].as_str().unwrap_or_default().to_string();
        assert!(
            message.starts_with(&format!("clock `{clock}`"))
                && message.matches("clock").count() == 1,
            "{message}"
        );
        assert_error(response, StatusCode::BAD_REQUEST, needle);
    }
    // Off the clock, states carry none.
    let state = app.new_game("ttt", ["human", "human"]).await;
    assert_eq!(state.get("clock"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn runs_and_tournaments_start_from_random_openings_as_the_cli_does() {
    use gamelab_othello::Othello;
    let app = App::new();
    // Two deterministic AIs: from the start they would play one game each way.
    let run = finished_run(
        &app,
        json!({"game": "othello", "a": "engine:level=1", "b": "minimax:depth=1", "games_per_side": 20, "seed": 3, "openings": 6}),
    )
    .await;
    let registry = gamelab_othello::ai::registry();
    let cfg = MatchConfig {
        games_per_side: 20,
        seed: 3,
        threads: 1,
        opening_plies: 6,
        ..Default::default()
    };
    let (expected, _) = run_match::<Othello, _>(
        &|| registry.build("engine:level=1").unwrap(),
        &|| registry.build("minimax:depth=1").unwrap(),
        &cfg,
        &|_| {},
        false,
    );
    assert_eq!(run["digest"], format!("{:016x}", expected.digest));
    assert_eq!(run["opening_plies"], 6);
    assert_eq!(run["repeated_one_game"], false);
    let (_, games) = app
        .get(&format!("/api/runs/{}/games?limit=40", id(&run)))
        .await;
    let firsts: std::collections::HashSet<String> = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            g["moves"].as_array().unwrap()[..6]
                .iter()
                .map(|m| m.to_string())
                .collect::<String>()
        })
        .collect();
    assert_eq!(firsts.len(), 20, "each pair of games its own opening");
    // A tournament: the same standings as core's round robin from the same openings, on
    // a clock too.
    let ais = ["engine:level=1", "minimax:depth=1", "greedy"];
    let (status, started) = app
        .post(
            "/api/tournaments",
            json!({"game": "othello", "ais": ais, "games_per_side": 6, "seed": 2, "openings": 4}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{started}");
    assert_eq!(started["openings"], 4);
    let done = wait_until_done(&app, &format!("/api/tournaments/{}", id(&started))).await;
    let cfg = MatchConfig {
        games_per_side: 6,
        seed: 2,
        threads: 1,
        opening_plies: 4,
        ..Default::default()
    };
    assert_eq!(
        done["standings"],
        core_standings::<Othello>(&ais, &registry, &cfg)
    );
    let (status, clocked) = app
        .post(
            "/api/tournaments",
            json!({"game": "ttt", "ais": ["ai2", "ai1"], "games_per_side": 3, "clock": "5+0.1"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{clocked}");
    assert_eq!(clocked["clock"], "5+0.1");
    let done = wait_until_done(&app, &format!("/api/tournaments/{}", id(&clocked))).await;
    assert_eq!(done["played"], 6);
    // Refused: too many plies, too few distinct openings, a clock that does not read.
    for (path, body, needle) in [
        (
            "/api/runs",
            json!({"game": "ttt", "a": "ai2", "b": "ai1", "games_per_side": 5, "openings": 31}),
            "openings 31: expected a number of plies from 0 to 30",
        ),
        (
            "/api/runs",
            json!({"game": "ttt", "a": "ai2", "b": "ai1", "games_per_side": 50, "openings": 1}),
            "openings: ttt has only 9 distinct positions 1 random plies from the start",
        ),
        (
            "/api/tournaments",
            json!({"game": "ttt", "ais": ["ai2", "ai1"], "games_per_side": 5, "openings": 99}),
            "openings 99: expected a number of plies from 0 to 30",
        ),
        (
            "/api/tournaments",
            json!({"game": "ttt", "ais": ["ai2", "ai1"], "games_per_side": 5, "clock": "soon"}),
            "clock `soon`: expected MAIN",
        ),
    ] {
        assert_error(app.post(path, body).await, StatusCode::BAD_REQUEST, needle);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spec_nested_without_end_is_a_bad_request_not_a_crash() {
    // 600 AIs inside AIs overflowed a worker's stack and aborted the server.
    let deep = format!("{}greedy{}", "mcts:playout=(".repeat(600), ")".repeat(600));
    let app = App::new();
    let bodies = [
        (
            "/api/games",
            json!({"game": "othello", "players": [deep, "human"]}),
        ),
        (
            "/api/runs",
            json!({"game": "othello", "a": deep, "b": "random", "games_per_side": 1}),
        ),
        ("/api/explore", json!({"game": "othello", "ai": deep})),
        ("/api/analysis", json!({"game": "othello", "ai": deep})),
        (
            "/api/tournaments",
            json!({"game": "othello", "ais": [deep, "random"], "games_per_side": 1}),
        ),
    ];
    for (path, body) in bodies {
        let (status, answer) = app.post(path, body).await;
        assert_error(
            (status, answer),
            StatusCode::BAD_REQUEST,
            "parentheses nested more than 8 deep",
        );
    }
    // The server goes on.
    let (status, _) = app.get("/api/catalogue").await;
    assert_eq!(status, StatusCode::OK);
}
