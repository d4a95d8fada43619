//! gamelab-web: the local web app. An HTTP/JSON API over the same registries, arena and
//! solver as the command line, and the page that uses it (embedded in the binary).
//!
//! Every game played in a browser tab is a session with its own id; runs (A against B,
//! many games) play on worker threads and report through server-sent events. The API is
//! documented in docs/http-api.md.

mod analysis;
mod connections;
mod error;
mod explore;
mod games;
mod memory;
mod play;
mod runs;
mod tournaments;
mod wthor;

use std::collections::HashMap;
use std::convert::Infallible;
use std::hash::{BuildHasher, RandomState};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use rust_embed::Embed;
use serde::Deserialize;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;

pub use connections::ConnectionLimits;
pub use error::ApiError;
use gamelab_core::{FileAccess, StopFlag};
use play::{GameState, NewGame, WebSession};
use runs::{GamesQuery, NewRun, RecordsQuery, Run, RunState};

/// Games kept at once; the one used least recently is dropped beyond this.
pub const MAX_SESSIONS: usize = 1000;
/// Runs kept at once; the finished one used least recently is dropped beyond this.
pub const MAX_RUNS: usize = 64;
/// Runs playing at once; another is refused with 429 until one ends or is stopped.
pub const MAX_ACTIVE_RUNS: usize = 4;
/// Tournaments kept, and playing at once (each on as many threads as cores).
pub const MAX_TOURNAMENTS: usize = 16;
pub const MAX_ACTIVE_TOURNAMENTS: usize = 2;
/// The longest an AI may think over one move in the web app (unless [`Config`] says
/// otherwise); its search is then stopped and the request answered 503 (AIs with a `time`
/// parameter can play faster).
pub const MAX_AI_MOVE_SECONDS: u64 = 30;
/// Request bodies are refused beyond this many bytes.
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// How the server is set up.
#[derive(Clone, Debug)]
pub struct Config {
    /// The folder whose files AI specs may name as models (by plain name, e.g.
    /// `engine:model=mine.glopat`); `None`: specs name no files.
    pub models: Option<PathBuf>,
    /// The programs AI specs may run, by name (e.g. `nboard:cmd=edax` with an engine
    /// named `edax`); none: specs run no program.
    pub engines: Vec<gamelab_core::NamedProgram>,
    /// The port the server listens on: requests must name it in `Host`.
    pub port: u16,
    /// The longest an AI may think over one move.
    pub ai_move_limit: std::time::Duration,
    /// WTHOR's Othello games, for the page to find and open (`serve --wthor FOLDER`).
    pub wthor: Option<Arc<gamelab_othello::wthor_database::Database>>,
    /// Where the games' clocks read the time: the machine's clock, or a manual one that
    /// tests move by hand.
    pub time: gamelab_core::clock::TimeSource,
    /// How long clients may take over a request, and how many may be connected.
    pub connections: ConnectionLimits,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            models: None,
            engines: Vec::new(),
            port: 8080,
            ai_move_limit: std::time::Duration::from_secs(MAX_AI_MOVE_SECONDS),
            wthor: None,
            time: gamelab_core::clock::TimeSource::system(),
            connections: ConnectionLimits::default(),
        }
    }
}

type SharedSession = Arc<Mutex<WebSession>>;

/// Locks a mutex even if a thread panicked while holding it: a game's state changes only
/// after its AI has chosen (where a panic could come from), so it is never half-changed,
/// and one failed request must not break that game, or every game, for good.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Everything the server holds: the games of every tab and the runs.
pub struct AppState {
    sessions: Mutex<Keyed<SharedSession>>,
    runs: Mutex<Keyed<Arc<Run>>>,
    tournaments: Mutex<Keyed<Arc<tournaments::Tournament>>>,
    ids: IdSource,
    /// Where AI specs may read model files.
    files: FileAccess,
    /// The `Host` values a request may carry.
    hosts: [String; 2],
    ai_move_limit: std::time::Duration,
    wthor: Option<Arc<gamelab_othello::wthor_database::Database>>,
    time: gamelab_core::clock::TimeSource,
}

impl AppState {
    fn new(config: Config) -> Self {
        AppState {
            sessions: Mutex::new(Keyed::new("game", MAX_SESSIONS)),
            runs: Mutex::new(Keyed::new("run", MAX_RUNS)),
            tournaments: Mutex::new(Keyed::new("tournament", MAX_TOURNAMENTS)),
            ids: IdSource::default(),
            files: FileAccess::Served {
                models: config.models,
                programs: config.engines,
            },
            hosts: [
                format!("127.0.0.1:{}", config.port),
                format!("localhost:{}", config.port),
            ],
            ai_move_limit: config.ai_move_limit,
            wthor: config.wthor,
            time: config.time,
        }
    }
}

/// Values by id, each with the time it was last used, at most `limit` of them.
struct Keyed<T> {
    map: HashMap<String, (T, u64)>,
    clock: u64,
    limit: usize,
    /// What the values are, for messages.
    what: &'static str,
}

impl<T: Clone> Keyed<T> {
    fn new(what: &'static str, limit: usize) -> Self {
        Keyed {
            map: HashMap::new(),
            clock: 0,
            limit,
            what,
        }
    }

    fn tick(&mut self) -> u64 {
        self.clock += 1;
        self.clock
    }

    /// Adds a value; at the limit, first drops the droppable value used least recently.
    fn insert(&mut self, id: String, value: T, can_drop: impl Fn(&T) -> bool) {
        if self.map.len() >= self.limit
            && let Some(old) = self
                .map
                .iter()
                .filter(|(_, (v, _))| can_drop(v))
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone())
        {
            self.map.remove(&old);
        }
        let now = self.tick();
        self.map.insert(id, (value, now));
    }

    fn get(&mut self, id: &str) -> Result<T, ApiError> {
        let now = self.tick();
        match self.map.get_mut(id) {
            Some((value, used)) => {
                *used = now;
                Ok(value.clone())
            }
            None => Err(ApiError::not_found(format!(
                "no {} has id `{id}` (it may have ended with a restart of the server, or been dropped after {} others were used since)",
                self.what, self.limit
            ))),
        }
    }

    fn values(&self) -> impl Iterator<Item = &T> {
        self.map.values().map(|(v, _)| v)
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
pub fn router(config: Config) -> Router {
    router_with(Arc::new(AppState::new(config)))
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
        .route("/api/runs", post(new_run).get(list_runs))
        .route("/api/runs/{id}", get(run_state))
        .route("/api/runs/{id}/events", get(run_events))
        .route("/api/runs/{id}/stop", post(stop_run))
        .route("/api/runs/{id}/games", get(run_games))
        .route("/api/runs/{id}/records", get(run_records))
        .route("/api/explore", post(explore))
        .route("/api/analysis", post(analysis))
        .route("/api/analysis/deepen", post(deepen_analysis))
        .route("/api/wthor", get(wthor_games))
        .route("/api/tournaments", post(new_tournament))
        .route("/api/tournaments/{id}", get(tournament_state))
        .route("/api/tournaments/{id}/events", get(tournament_events))
        .route("/api/tournaments/{id}/stop", post(stop_tournament))
        .route("/api/tournaments/{id}/csv", get(tournament_csv))
        .fallback(not_found)
        .layer(axum::extract::DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

/// Refuses requests not meant for this server: a `Host` other than the address it
/// listens on (a page on another site reaching it through DNS rebinding), and a `POST`
/// that is not JSON (a cross-site form or `text/plain` request, which browsers send
/// without asking the server first).
async fn guard(State(app): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !app.hosts.iter().any(|h| h == host) {
        return ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "this server answers requests for http://{}/ only, not for host `{host}`",
                app.hosts[0]
            ),
        )
        .into_response();
    }
    if request.method() == Method::POST {
        let json = request
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|c| c.to_str().ok())
            .and_then(|c| c.split(';').next())
            .is_some_and(|c| c.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "every POST must have `Content-Type: application/json` (with a JSON body, `{}` if it has nothing to say)",
            )
            .into_response();
        }
    }
    next.run(request).await
}

/// Serves the app on 127.0.0.1:`config.port` (0 picks a free port) until the process
/// ends; `on_ready` gets the address once it listens.
pub async fn serve(mut config: Config, on_ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    memory::limit_arenas();
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", config.port)).await?;
    let addr = listener.local_addr()?;
    config.port = addr.port();
    let limits = config.connections;
    let app = router(config);
    on_ready(addr);
    connections::serve(listener, app, limits).await
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
    ApiError::not_found(
        "no such page or API endpoint; the API is under /api/ (see docs/http-api.md)",
    )
}

/// Every game, the model files AI specs may name (those of `serve --models`) and the
/// programs they may run (`serve --engine`).
async fn catalogue(State(app): State<Arc<AppState>>) -> Json<serde_json::Value> {
    let games: Vec<_> = gamelab_games::NAMES
        .iter()
        .map(|name| gamelab_games::game_info(name).expect("the catalogue's own names"))
        .collect();
    let files = app.files.clone();
    let models = tokio::task::spawn_blocking(move || files.names())
        .await
        .unwrap_or_default();
    let programs = app.files.programs().to_vec();
    let wthor = app.wthor.as_ref().map(|db| {
        let years = db.years().map(|(a, b)| [a, b]);
        serde_json::json!({ "games": db.len(), "years": years })
    });
    Json(
        serde_json::json!({ "games": games, "models": models, "programs": programs, "wthor": wthor }),
    )
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
    let files = app.files.clone();
    let time = app.time.clone();
    let mut session = blocking(move || WebSession::new(request, &files, time)).await?;
    let id = app.ids.next();
    let state = session.state(&id);
    lock(&app.sessions).insert(id, Arc::new(Mutex::new(session)), |_| true);
    Ok((StatusCode::CREATED, Json(state)))
}

fn session(app: &AppState, id: &str) -> Result<SharedSession, ApiError> {
    lock(&app.sessions).get(id)
}

/// Applies `change` to a game and returns its new state; on error the game is unchanged.
async fn change_game(
    app: Arc<AppState>,
    id: String,
    change: impl FnOnce(&mut WebSession) -> Result<(), ApiError> + Send + 'static,
) -> AppResult<GameState> {
    let shared = session(&app, &id)?;
    blocking(move || {
        let mut session = lock(&shared);
        change(&mut session)?;
        Ok(Json(session.state(&id)))
    })
    .await
}

async fn game_state(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> AppResult<GameState> {
    let shared = session(&app, &id)?;
    let state = lock(&shared).state(&id);
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

/// Sets a stop flag when dropped: when the request's future is dropped because its
/// client went away, or when it gave up waiting.
struct StopOnDrop(StopFlag);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

async fn ai_move(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Result<Json<AiMoveRequest>, JsonRejection>,
) -> AppResult<GameState> {
    let Json(request) = body?;
    let stop = StopFlag::default();
    let _stop_when_abandoned = StopOnDrop(stop.clone());
    let limit = app.ai_move_limit;
    let change = change_game(app, id, move |s| s.ai_move(request.ply, &stop));
    within(limit, change, |seconds| {
        format!("the AI had not chosen after {seconds} s, the most this server allows a move; it was stopped and the game is as it was (give it a `time` or a lower level)")
    })
    .await
}

/// `work` if it ends within `limit`; else a 503 that `message` words from the seconds
/// allowed (dropping `work` raises its stop flag, through its `StopOnDrop`).
async fn within<T>(
    limit: std::time::Duration,
    work: impl std::future::Future<Output = Result<T, ApiError>>,
    message: impl FnOnce(f64) -> String,
) -> Result<T, ApiError> {
    tokio::time::timeout(limit, work).await.unwrap_or_else(|_| {
        Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            message(limit.as_secs_f64()),
        ))
    })
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

/// What runs and tournaments share: each plays on threads of its own until it is done or
/// stopped, and only so many of a kind play at once.
pub(crate) trait Job: Send + Sync + 'static {
    fn done(&self) -> bool;
    fn stop(&self);
    /// Marks it done and stopped because its thread ended without finishing it.
    fn fail(&self);
}

/// Marks a job done however its thread ends, so that one that failed (a model file
/// removed from the folder while it played) neither hangs its watchers nor counts against
/// those playing.
pub(crate) struct EndsOnDrop<'a, J: Job>(pub &'a J);

impl<J: Job> Drop for EndsOnDrop<'_, J> {
    fn drop(&mut self) {
        self.0.fail();
    }
}

/// Starts a job with `start` (which checks the request and starts its threads) and keeps
/// it under `id`, unless `cap` jobs of its `kind` are playing already (429).
async fn start_job<J: Job>(
    jobs: &Mutex<Keyed<Arc<J>>>,
    cap: usize,
    kind: &str,
    id: String,
    start: impl FnOnce() -> Result<Arc<J>, ApiError> + Send + 'static,
) -> Result<Arc<J>, ApiError> {
    let playing = |jobs: &Keyed<Arc<J>>| jobs.values().filter(|j| !j.done()).count();
    let busy = || {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("{cap} {kind} are already playing; stop one or wait for one to end"),
        )
    };
    if playing(&lock(jobs)) >= cap {
        return Err(busy());
    }
    let job = blocking(start).await?;
    let mut all = lock(jobs);
    // Checked again under the lock: requests that passed the first check together.
    if playing(&all) >= cap {
        job.stop();
        return Err(busy());
    }
    all.insert(id, job.clone(), |j| j.done());
    Ok(job)
}

async fn new_run(
    State(app): State<Arc<AppState>>,
    body: Result<Json<NewRun>, JsonRejection>,
) -> Result<(StatusCode, Json<RunState>), ApiError> {
    let Json(request) = body?;
    let id = app.ids.next();
    let files = app.files.clone();
    let run = start_job(&app.runs, MAX_ACTIVE_RUNS, "runs", id.clone(), move || {
        runs::start(id, &request, files)
    })
    .await?;
    let state = run.state.borrow().clone();
    Ok((StatusCode::CREATED, Json(state)))
}

fn run(app: &AppState, id: &str) -> Result<Arc<Run>, ApiError> {
    lock(&app.runs).get(id)
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
    Ok(events(run.state.subscribe(), |s| s.done))
}

/// A state now and after every change, as server-sent events, until `done` says the last
/// one was sent.
fn events<T: Clone + serde::Serialize + Send + Sync + 'static>(
    mut states: tokio::sync::watch::Receiver<T>,
    done: fn(&T) -> bool,
) -> Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>> {
    let (send, receive) = tokio::sync::mpsc::channel(16);
    // Forwards every change, and the final state, then drops the sender to end the stream.
    tokio::spawn(async move {
        loop {
            let state = states.borrow_and_update().clone();
            let last = done(&state);
            if send.send(state).await.is_err() || last || states.changed().await.is_err() {
                break;
            }
        }
    });
    let stream = ReceiverStream::new(receive)
        .map(|s| Ok(Event::default().json_data(&s).expect("states serialise")));
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// Every run the server holds, the newest first: a page reloaded, or another tab, finds
/// its runs here to reopen or stop them.
#[derive(serde::Serialize)]
struct RunList {
    runs: Vec<RunState>,
}

async fn list_runs(State(app): State<Arc<AppState>>) -> AppResult<RunList> {
    let mut runs: Vec<Arc<Run>> = lock(&app.runs).values().cloned().collect();
    runs.sort_by_key(|r| std::cmp::Reverse(r.began));
    Ok(Json(RunList {
        runs: runs.iter().map(|r| r.state.borrow().clone()).collect(),
    }))
}

/// A run's kept games as a file to save, in `gamelab match --records`'s formats.
async fn run_records(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    query: Result<Query<RecordsQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    let run = run(&app, &id)?;
    if !run.state.borrow().games_kept {
        return Err(ApiError::conflict(format!(
            "this run's games were not kept: runs keep them up to {} games per side",
            runs::KEPT_GAMES_PER_SIDE
        )));
    }
    let (text, extension) = blocking(move || run.records(&query)).await?;
    let mime = match extension {
        "jsonl" => "application/x-ndjson",
        "csv" => "text/csv; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    };
    // The id is the server's own (hex digits), so the name needs no quoting.
    let disposition = format!("attachment; filename=\"gamelab-run-{id}.{extension}\"");
    Ok((
        [
            (header::CONTENT_TYPE, mime.to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

async fn stop_run(State(app): State<Arc<AppState>>, Path(id): Path<String>) -> AppResult<RunState> {
    let run = run(&app, &id)?;
    Job::stop(&*run);
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

async fn new_tournament(
    State(app): State<Arc<AppState>>,
    body: Result<Json<tournaments::NewTournament>, JsonRejection>,
) -> Result<(StatusCode, Json<tournaments::TournamentState>), ApiError> {
    let Json(request) = body?;
    let id = app.ids.next();
    let files = app.files.clone();
    let tournament = start_job(
        &app.tournaments,
        MAX_ACTIVE_TOURNAMENTS,
        "tournaments",
        id.clone(),
        move || tournaments::start(id, &request, files),
    )
    .await?;
    let state = tournament.state.borrow().clone();
    Ok((StatusCode::CREATED, Json(state)))
}

fn tournament(app: &AppState, id: &str) -> Result<Arc<tournaments::Tournament>, ApiError> {
    lock(&app.tournaments).get(id)
}

async fn tournament_state(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> AppResult<tournaments::TournamentState> {
    Ok(Json(tournament(&app, &id)?.state.borrow().clone()))
}

/// The tournament's state now and after every change, as server-sent events; the stream
/// ends after the final state.
async fn tournament_events(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    Ok(events(tournament(&app, &id)?.state.subscribe(), |s| s.done))
}

async fn stop_tournament(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> AppResult<tournaments::TournamentState> {
    let t = tournament(&app, &id)?;
    Job::stop(&*t);
    Ok(Json(t.state.borrow().clone()))
}

/// The standings and crosstable as a CSV file to save.
async fn tournament_csv(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let t = tournament(&app, &id)?;
    let disposition = format!("attachment; filename=\"gamelab-tournament-{id}.csv\"");
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        t.csv(),
    )
        .into_response())
}

/// WTHOR games by player, tournament and year, for the page to open in the Play view.
async fn wthor_games(
    State(app): State<Arc<AppState>>,
    query: Result<Query<wthor::WthorQuery>, QueryRejection>,
) -> AppResult<wthor::WthorPage> {
    let Query(query) = query?;
    let db = app.wthor.clone().ok_or_else(|| {
        ApiError::not_found(
            "this server has no WTHOR games: start it with `gamelab serve --wthor FOLDER` (the folder of the .wtb files)".to_string(),
        )
    })?;
    blocking(move || wthor::find(&db, &query).map(Json)).await
}

/// An AI's value of each move, stopped like an AI's move when the page goes away or the
/// server's time per move runs out.
async fn analysis(
    State(app): State<Arc<AppState>>,
    body: Result<Json<analysis::AnalysisRequest>, JsonRejection>,
) -> AppResult<analysis::AnalysisView> {
    let Json(request) = body?;
    one_search(&app, "analysis", move |files, stop| {
        analysis::analyse(request, files, stop)
    })
    .await
}

/// A search that answers once (an analysis, an exploration), run off the async threads
/// and stopped when the page goes away or the server's time per move runs out; `what`
/// names it in the refusal.
async fn one_search<T: Send + 'static>(
    app: &AppState,
    what: &'static str,
    search: impl FnOnce(&FileAccess, &StopFlag) -> Result<T, ApiError> + Send + 'static,
) -> AppResult<T> {
    let files = app.files.clone();
    let stop = StopFlag::default();
    let _stop_when_abandoned = StopOnDrop(stop.clone());
    let work = blocking(move || search(&files, &stop).map(Json));
    within(app.ai_move_limit, work, |seconds| {
        format!("the {what} had not finished after {seconds} s, the most this server allows; it was stopped (give the AI a `time` or a lower level)")
    })
    .await
}

/// An AI's value of each move, deeper and deeper, as server-sent events (each the JSON of
/// one level: [`analysis::DeepeningView`]), ending with the last level again, `done`, when
/// every value is exact, the AI searches no further, its time or the server's limit
/// runs out, or the page goes away. A wrong request is refused before the stream starts.
async fn deepen_analysis(
    State(app): State<Arc<AppState>>,
    body: Result<Json<analysis::AnalysisRequest>, JsonRejection>,
) -> Result<Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let Json(request) = body?;
    let files = app.files.clone();
    let stop = StopFlag::default();
    let stop_when_abandoned = StopOnDrop(stop.clone());
    let limit = app.ai_move_limit;
    let (send, receive) = tokio::sync::mpsc::channel(4);
    let (started, start) = tokio::sync::oneshot::channel();
    tokio::task::spawn_blocking(move || {
        let mut started = Some(started);
        analysis::deepen(
            request,
            &files,
            &stop,
            limit,
            &mut |result| {
                if let Some(started) = started.take() {
                    let _ = started.send(result);
                }
            },
            &mut |view| send.blocking_send(view).is_ok(),
        );
    });
    start
        .await
        .map_err(|e| ApiError::internal(format!("the analysis's worker failed: {e}")))??;
    // The stream holds the stop: a page that goes away stops the search at once, not at
    // the end of the level under way.
    let stream = ReceiverStream::new(receive).map(move |view| {
        let _ = &stop_when_abandoned;
        Ok(Event::default().json_data(&view).expect("views serialise"))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

async fn explore(
    State(app): State<Arc<AppState>>,
    body: Result<Json<explore::ExploreRequest>, JsonRejection>,
) -> AppResult<explore::ExploreView> {
    let Json(request) = body?;
    one_search(&app, "exploration", move |files, stop| {
        explore::explore(request, files, stop)
    })
    .await
}
