//! Watch runs: N games of A against B each way, played by the arena on worker threads
//! while the page watches the table fill up.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use gamelab_core::FileAccess;
use gamelab_core::arena::MatchReport;
use gamelab_core::match_request::{MatchRequest, MatchSetup, Openings};
use gamelab_core::record::{GameRecord, RecordFormat};
use gamelab_games::experiments::{self, AnyMatch, Chunk, Entrant, ExperimentError, MatchLive};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use crate::error::ApiError;

/// At most this many games per side in one run.
pub const MAX_GAMES_PER_SIDE: u64 = 1_000_000;
/// Runs of up to this many games per side keep every game, to open in the replay view.
pub const KEPT_GAMES_PER_SIDE: u64 = 10_000;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NewRun {
    pub game: String,
    pub a: String,
    pub b: String,
    pub games_per_side: u64,
    #[serde(default)]
    pub seed: u64,
    /// Each side's clock for every game, as `gamelab match --clock` takes it (`60`,
    /// `60+0.5`, `300/30/5`); none by default.
    #[serde(default)]
    pub clock: Option<String>,
    /// Plies of random opening before each pair of games, as `gamelab match --openings`
    /// (0 to 30; 0, the default: every game from the start).
    #[serde(default)]
    pub openings: u32,
}

/// How a run or a tournament of the page is set up: games per side from 1 to
/// `max_games`, the seed, random openings of `plies` plies, the clock read as `--clock`
/// reads it, every core.
pub(crate) fn match_setup(
    games_per_side: u64,
    max_games: u64,
    seed: u64,
    plies: u32,
    clock: Option<&str>,
) -> Result<MatchSetup, ApiError> {
    if games_per_side == 0 || games_per_side > max_games {
        return Err(ApiError::bad_request(format!(
            "games_per_side {games_per_side} is out of range: expected 1 to {max_games}"
        )));
    }
    let clock = clock
        .map(str::parse::<gamelab_core::clock::TimeControl>)
        .transpose()
        .map_err(|e| ApiError::bad_request(e.to_string()))?;
    Ok(MatchSetup {
        games_per_side: Some(games_per_side),
        seed,
        threads: gamelab_core::limits::all_cores(),
        openings: Openings::Random { plies, judge: None },
        clock: clock.unwrap_or_default(),
    })
}

/// A run as the page sees it; sent again each time games finish. Its tables, exact table
/// and digest are the match report `gamelab match --json` prints.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct RunState {
    pub id: String,
    pub sides: [&'static str; 2],
    #[serde(flatten)]
    pub report: MatchReport,
    /// Every game is kept and can be listed.
    pub games_kept: bool,
    pub done: bool,
    pub stopped: bool,
}

/// A finished game of a run.
pub type RunGame = gamelab_games::views::PlayedGameView;

pub struct Run {
    pub state: watch::Sender<RunState>,
    pub stop: Arc<AtomicBool>,
    pub games: Mutex<Vec<RunGame>>,
    /// The kept games as `gamelab match --records` writes them.
    records: Mutex<Vec<GameRecord>>,
    /// The match, which also writes its records.
    prepared: Arc<dyn AnyMatch>,
    /// When it began, to list the newest first.
    pub began: Instant,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct RecordsQuery {
    /// `jsonl` (the default), `csv` (the articles'), `table` (a CSV with a header row and
    /// the moves as people type them), or the game's own format (Othello's `ggf`).
    pub format: Option<String>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct GamesQuery {
    /// Only games A won, lost or drew.
    pub result: Option<String>,
    #[serde(default)]
    pub offset: usize,
    pub limit: Option<usize>,
}

#[derive(Serialize, Debug)]
pub struct GamesPage {
    /// Games that match the filter, in all.
    pub matching: usize,
    pub games: Vec<RunGame>,
}

impl Run {
    pub fn list(&self, query: &GamesQuery) -> Result<GamesPage, ApiError> {
        if let Some(r) = &query.result
            && !["win", "lose", "draw"].contains(&r.as_str())
        {
            return Err(ApiError::bad_request(format!(
                "result `{r}` is not one of win, lose, draw"
            )));
        }
        let limit = query.limit.unwrap_or(100);
        if limit == 0 || limit > 1000 {
            return Err(ApiError::bad_request(format!(
                "limit {limit} is out of range: ask for 1 to 1000 games at a time"
            )));
        }
        let mut games = self.games.lock().expect("run games lock").clone();
        games.retain(|g| query.result.as_deref().is_none_or(|r| g.result == r));
        games.sort_by_key(|g| g.index);
        let matching = games.len();
        Ok(GamesPage {
            matching,
            games: games.into_iter().skip(query.offset).take(limit).collect(),
        })
    }
}

impl Run {
    /// The games kept so far in `query`'s format, a line each in game order, and the
    /// format's file extension; the same lines `gamelab match --records FILE` writes.
    pub fn records(&self, query: &RecordsQuery) -> Result<(String, &'static str), ApiError> {
        let native = self.prepared.native_extension();
        let (format, extension) = match query.format.as_deref().unwrap_or("jsonl") {
            "jsonl" => (RecordFormat::JsonLines, "jsonl"),
            "csv" => (RecordFormat::Csv, "csv"),
            "table" => (RecordFormat::Table, "csv"),
            other => match native {
                Some(extension) if extension == other => (RecordFormat::Native, extension),
                _ => {
                    let native = native.map_or(String::new(), |n| format!(", {n}"));
                    return Err(ApiError::bad_request(format!(
                        "format `{other}` is not one of jsonl, csv, table{native}"
                    )));
                }
            },
        };
        let mut records = self.records.lock().expect("run records lock").clone();
        records.sort_by_key(|r| r.index);
        let mut text = format.header().map_or(String::new(), |h| format!("{h}\n"));
        for record in &records {
            let line = self.prepared.write_record(record, format).map_err(|e| {
                ApiError::internal(format!("game {} cannot be written: {e}", record.index))
            })?;
            text.push_str(&line);
            text.push('\n');
        }
        Ok((text, extension))
    }
}

/// Checks the request, then starts the run on a thread of its own, its games on a pool of
/// as many threads as cores. (Not one pool shared by every run: rayon's joins steal
/// work, so a run could wait on a game of another run nested under its own, and a Stop
/// took as long as another run's game. The cap on runs playing at once bounds the
/// threads instead.)
pub fn start(id: String, request: &NewRun, files: FileAccess) -> Result<Arc<Run>, ApiError> {
    let match_request = MatchRequest {
        setup: match_setup(
            request.games_per_side,
            MAX_GAMES_PER_SIDE,
            request.seed,
            request.openings,
            request.clock.as_deref(),
        )?,
        ..MatchRequest::new("", "")
    };
    let players = [&request.a, &request.b].map(|spec| Entrant::Spec(spec.clone()));
    let prepared: Arc<dyn AnyMatch> = experiments::prepare_match(
        &request.game,
        None,
        match_request,
        [&players[0], &players[1]],
        &files,
    )
    .map_err(|e| match e {
        ExperimentError::Spec { player, source } => {
            ApiError::bad_request(format!("{}: {source}", ["a", "b"][player]))
        }
        e => ApiError::bad_request(e.to_string()),
    })?
    .into();
    let report = prepared.report_with_exact();
    let games_kept = request.games_per_side <= KEPT_GAMES_PER_SIDE;
    let initial = RunState {
        id,
        sides: prepared.sides(),
        report,
        games_kept,
        done: false,
        stopped: false,
    };
    let run = Arc::new(Run {
        state: watch::Sender::new(initial),
        stop: Arc::new(AtomicBool::new(false)),
        games: Mutex::new(Vec::new()),
        records: Mutex::new(Vec::new()),
        prepared,
        began: Instant::now(),
    });
    let worker = run.clone();
    std::thread::Builder::new()
        .name("gamelab-run".into())
        .spawn(move || {
            let ends = crate::EndsOnDrop(&*worker);
            play(&worker, games_kept);
            drop(ends);
            crate::memory::give_back();
        })
        .map_err(|e| ApiError::internal(format!("cannot start a worker thread: {e}")))?;
    Ok(run)
}

impl crate::Job for Run {
    fn done(&self) -> bool {
        self.state.borrow().done
    }

    /// The run is done as soon as Stop is asked, with the games finished by then: its
    /// threads see the flag within a search's stop check, but on a loaded machine may
    /// take a while to be scheduled, and the page must not wait for them.
    /// Done first, under the state's lock, then the flag that stops the games: a chunk
    /// cut short by the flag is never counted, so the games counted are whole chunks.
    fn stop(&self) {
        self.end_unfinished();
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    fn fail(&self) {
        self.end_unfinished();
    }
}

impl Run {
    /// Marks the run done and stopped, with the games counted so far (and no digest: that
    /// is a whole match's), unless it is done already.
    fn end_unfinished(&self) {
        self.state.send_if_modified(|s| {
            let changed = !s.done;
            if changed {
                s.done = true;
                s.stopped = true;
                s.report.digest = None;
                s.report.elapsed_ms = self.began.elapsed().as_millis() as u64;
            }
            changed
        });
    }
}

fn play(run: &Run, keep_games: bool) {
    let on_chunk = |chunk: Chunk| {
        // Under the state's lock, which Stop takes too: nothing is added after a Stop (the
        // run was done, with its games so far, when it was asked), and the games kept
        // are those the report counts.
        run.state.send_if_modified(|s| {
            if s.done {
                return false;
            }
            if keep_games {
                let mut games = run.games.lock().expect("run games lock");
                let mut records = run.records.lock().expect("run records lock");
                games.extend(chunk.views);
                records.extend(chunk.records);
            }
            s.report.add(&chunk.first, &chunk.second);
            s.report.elapsed_ms = run.began.elapsed().as_millis() as u64;
            true
        });
    };
    let live = MatchLive {
        stop: Some(&run.stop),
        keep_records: keep_games,
        keep_views: keep_games,
        watched: true,
        on_chunk: &on_chunk,
    };
    let report = run.state.borrow().report.clone();
    // No agent of the registry gives up a game, so the match ends with its games.
    let Ok(finished) = run.prepared.play(report, &live) else {
        return;
    };
    run.state.send_if_modified(|s| {
        if s.done {
            return false;
        }
        s.stopped = finished.report.digest.is_none();
        s.report = finished.report;
        s.done = true;
        true
    });
}
