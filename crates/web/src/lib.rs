//! gamelab-web: the local web app. An HTTP/JSON API over the same registries, arena and
//! solver as the command line, and the page that uses it (embedded in the binary).
//!
//! Every game played in a browser tab is a session with its own id; runs (A against B,
//! many games) play on worker threads and report through server-sent events. The API is
//! documented in the README.

mod error;
mod explore;
mod games;
mod play;
mod runs;

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::hash::{BuildHasher, RandomState};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rust_embed::Embed;
use serde::Deserialize;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;

pub use error::ApiError;
use gamelab_core::{Described, GameVisitor};
use play::{GameState, NewGame, Session, WebSession};
use runs::{GamesQuery, NewRun, Run, RunState};

/// Games kept at once; the oldest is dropped beyond this.
const MAX_SESSIONS: usize = 1000;
/// Runs kept at once; the oldest finished one is dropped beyond this.
const MAX_RUNS: usize = 64;

type SharedSession = Arc<Mutex<Box<dyn Session>>>;

/// Everything the server holds: the games of every tab and the runs.
#[derive(Default)]
pub struct AppState {
    sessions: Mutex<Keyed<SharedSession>>,
    runs: Mutex<Keyed<Arc<Run>>>,
    ids: IdSource,
}

/// Values by id, oldest first.
struct Keyed<T> {
    map: HashMap<String, T>,
    order: VecDeque<String>,
}

impl<T> Default for Keyed<T> {
    fn default() -> Self {
        Keyed {
            map: HashMap::new(),
            order: VecDeque::new(),
        }
    }
}

impl<T: Clone> Keyed<T> {
    fn insert(&mut self, id: String, value: T, limit: usize, can_drop: impl Fn(&T) -> bool) {
        if self.map.len() >= limit
            && let Some(pos) = self
                .order
                .iter()
                .position(|k| self.map.get(k).is_some_and(&can_drop))
            && let Some(old) = self.order.remove(pos)
        {
            self.map.remove(&old);
        }
        self.order.push_back(id.clone());
        self.map.insert(id, value);
    }

    fn get(&self, id: &str, what: &str) -> Result<T, ApiError> {
        self.map.get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!(
                "no {what} has id `{id}` (it may have ended with a restart of the server)"
            ))
        })
    }
}

/// Ids that a tab cannot guess from its own: a counter hashed with a per-process key.
struct IdSource {
    next: AtomicU64,
    key: RandomState,
}

impl Default for IdSource {
    fn default() -> Self {
        IdSource {
            next: AtomicU64::new(1),
            key: RandomState::new(),
        }
    }
}

impl IdSource {
    fn next(&self) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        format!("{:016x}", self.key.hash_one(n))
    }
}

type AppResult<T> = Result<Json<T>, ApiError>;

/// The app: the page at `/`, its files under `/assets/`, the API under `/api/`.
pub fn router() -> Router {
    router_with(Arc::new(AppState::default()))
}

fn router_with(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/assets/{*path}", get(asset))
        .route("/api/catalogue", get(catalogue))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/move", post(play_move))
        .route("/api/games/{id}/ai-move", post(ai_move))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/redo", post(redo))
        .route("/api/games/{id}/seek", post(seek))
        .route("/api/runs", post(new_run))
        .route("/api/runs/{id}", get(run_state))
        .route("/api/runs/{id}/events", get(run_events))
        .route("/api/runs/{id}/stop", post(stop_run))
        .route("/api/runs/{id}/games", get(run_games))
        .route("/api/explore", post(explore))
        .fallback(not_found)
        .with_state(state)
}

/// Serves the app on 127.0.0.1:`port` (0 picks a free port) until the process ends;
/// `on_ready` gets the address once it listens.
pub async fn serve(port: u16, on_ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    on_ready(listener.local_addr()?);
    axum::serve(listener, router()).await
}

#[derive(Embed)]
#[folder = "assets/"]
struct Assets;

async fn index() -> Response {
    asset(Path("index.html".to_string())).await
}

async fn asset(Path(path): Path<String>) -> Response {
    let Some(file) = Assets::get(&path) else {
        return ApiError::not_found(format!("no page file `{path}`")).into_response();
    };
    let mime = match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    };
    ([(header::CONTENT_TYPE, mime)], file.data).into_response()
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such page or API endpoint; the API is under /api/ (see the README)")
}

async fn catalogue() -> Json<serde_json::Value> {
    let games: Vec<_> = gamelab_games::NAMES
        .iter()
        .map(|name| games::visit(name, games::Info).expect("the catalogue's own names"))
        .collect();
    Json(serde_json::json!({ "games": games }))
}

/// Builds the session of a new game, in the game the request names.
struct StartGame(NewGame);

impl GameVisitor for StartGame {
    type Output = Result<Box<dyn Session>, ApiError>;
    fn visit<G: Described>(self) -> Self::Output {
        Ok(Box::new(WebSession::<G>::new(&self.0)?))
    }
}

/// Checks and starts a run, in the game the request names.
struct StartRun(String, NewRun);

impl GameVisitor for StartRun {
    type Output = Result<Arc<Run>, ApiError>;
    fn visit<G: Described>(self) -> Self::Output {
        runs::start::<G>(self.0, &self.1)
    }
}

/// Runs blocking work (AI moves, builds of solved tables) off the async threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ApiError::internal(format!("the request's worker failed: {e}")))?
}

async fn new_game(
    State(app): State<Arc<AppState>>,
    body: Result<Json<NewGame>, JsonRejection>,
) -> Result<(StatusCode, Json<GameState>), ApiError> {
    let Json(request) = body?;
    let game = request.game.clone();
    let session = blocking(move || games::visit(&game, StartGame(request))?).await?;
    let id = app.ids.next();
    let state = session.state(&id);
    app.sessions.lock().expect("sessions lock").insert(
        id,
        Arc::new(Mutex::new(session)),
        MAX_SESSIONS,
        |_| true,
    );
    Ok((StatusCode::CREATED, Json(state)))
}

fn session(app: &AppState, id: &str) -> Result<SharedSession, ApiError> {
    app.sessions.lock().expect("sessions lock").get(id, "game")
}

/// Applies `change` to a game and returns its new state; on error the game is unchanged.
async fn change_game(
    app: Arc<AppState>,
    id: String,
    change: impl FnOnce(&mut dyn Session) -> Result<(), ApiError> + Send + 'static,
) -> AppResult<GameState> {
    let shared = session(&app, &id)?;
    blocking(move || {
        let mut session = shared.lock().expect("session lock");
        change(&mut **session)?;
        Ok(Json(session.state(&id)))
    })
    .await
}

async fn game_state(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> AppResult<GameState> {
    let shared = session(&app, &id)?;
    let state = shared.lock().expect("session lock").state(&id);
    Ok(Json(state))
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    /// The move in the game's notation (`1,1`, `d3`, `pass`).
    #[serde(rename = "move")]
    mv: String,
    /// The ply the page saw; a request for an older position is refused.
    ply: Option<usize>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
struct AiMoveRequest {
    ply: Option<usize>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct SeekRequest {
    ply: usize,
}

async fn play_move(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Result<Json<MoveRequest>, JsonRejection>,
) -> AppResult<GameState> {
    let Json(request) = body?;
    change_game(app, id, move |s| s.play(&request.mv, request.ply)).await
}

async fn ai_move(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Result<Json<AiMoveRequest>, JsonRejection>,
) -> AppResult<GameState> {
    let Json(request) = body?;
    change_game(app, id, move |s| s.ai_move(request.ply)).await
}

async fn undo(State(app): State<Arc<AppState>>, Path(id): Path<String>) -> AppResult<GameState> {
    change_game(app, id, |s| s.undo()).await
}

async fn redo(State(app): State<Arc<AppState>>, Path(id): Path<String>) -> AppResult<GameState> {
    change_game(app, id, |s| s.redo()).await
}

async fn seek(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Result<Json<SeekRequest>, JsonRejection>,
) -> AppResult<GameState> {
    let Json(request) = body?;
    change_game(app, id, move |s| s.seek(request.ply)).await
}

async fn new_run(
    State(app): State<Arc<AppState>>,
    body: Result<Json<NewRun>, JsonRejection>,
) -> Result<(StatusCode, Json<RunState>), ApiError> {
    let Json(request) = body?;
    let id = app.ids.next();
    let run_id = id.clone();
    let game = request.game.clone();
    let run = blocking(move || games::visit(&game, StartRun(run_id, request))?).await?;
    let state = run.state.borrow().clone();
    app.runs
        .lock()
        .expect("runs lock")
        .insert(id, run, MAX_RUNS, |r| r.state.borrow().done);
    Ok((StatusCode::CREATED, Json(state)))
}

fn run(app: &AppState, id: &str) -> Result<Arc<Run>, ApiError> {
    app.runs.lock().expect("runs lock").get(id, "run")
}

async fn run_state(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> AppResult<RunState> {
    Ok(Json(run(&app, &id)?.state.borrow().clone()))
}

/// The run's state now and after every change, as server-sent events (`data:` is the same
/// JSON as `GET /api/runs/{id}`); the stream ends after the final state.
async fn run_events(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let run = run(&app, &id)?;
    let mut states = run.state.subscribe();
    let (send, receive) = tokio::sync::mpsc::channel(16);
    // Forwards every change, and the final state, then drops the sender to end the stream.
    tokio::spawn(async move {
        loop {
            let state = states.borrow_and_update().clone();
            let done = state.done;
            if send.send(state).await.is_err() || done || states.changed().await.is_err() {
                break;
            }
        }
    });
    let stream = ReceiverStream::new(receive).map(|s| {
        Ok(Event::default()
            .json_data(&s)
            .expect("run states serialise"))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

async fn stop_run(State(app): State<Arc<AppState>>, Path(id): Path<String>) -> AppResult<RunState> {
    let run = run(&app, &id)?;
    run.stop.store(true, Ordering::Relaxed);
    Ok(Json(run.state.borrow().clone()))
}

async fn run_games(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    query: Result<Query<GamesQuery>, QueryRejection>,
) -> AppResult<runs::GamesPage> {
    let Query(query) = query?;
    let run = run(&app, &id)?;
    if !run.state.borrow().games_kept {
        return Err(ApiError::conflict(format!(
            "this run's games were not kept: runs keep them up to {} games per side",
            runs::KEPT_GAMES_PER_SIDE
        )));
    }
    Ok(Json(run.list(&query)?))
}

async fn explore(
    body: Result<Json<explore::ExploreRequest>, JsonRejection>,
) -> AppResult<explore::ExploreView> {
    let Json(request) = body?;
    blocking(move || explore::explore(request).map(Json)).await
}
