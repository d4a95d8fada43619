//! Tournaments in the browser: a round robin of several AIs (core's, as `gamelab
//! tournament` plays it) on worker threads, its crosstable and Elo ratings filling up while
//! the page watches.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use gamelab_core::FileAccess;
use gamelab_core::arena::Tally;
use gamelab_core::match_request::TournamentRequest;
use gamelab_core::tournament::{Standing, live_standings, pairs};
use gamelab_games::experiments::{self, AnyTournament, Entrant, ExperimentError};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

use crate::error::ApiError;

/// At most this many AIs enter one tournament.
pub const MAX_ENTRANTS: usize = 8;
/// At most this many games per pair with each AI moving first.
pub const MAX_GAMES_PER_SIDE: u64 = 100_000;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NewTournament {
    pub game: String,
    /// The AI specs that enter, each once.
    pub ais: Vec<String>,
    pub games_per_side: u64,
    #[serde(default)]
    pub seed: u64,
    /// Plies of random opening before each pair of games, as `gamelab tournament
    /// --openings` (0 to 30; 0, the default: every game from the start).
    #[serde(default)]
    pub openings: u32,
    /// Each side's clock in every game, as `gamelab tournament --clock` takes it.
    #[serde(default)]
    pub clock: Option<String>,
}

/// One pair's match: the first AI's results against the second over both colours.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct PairView {
    pub a: String,
    pub b: String,
    pub win: u64,
    pub lose: u64,
    pub draw: u64,
}

/// A tournament as the page sees it; sent again each time games finish.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct TournamentState {
    pub id: String,
    pub game: String,
    pub ais: Vec<String>,
    pub games_per_side: u64,
    pub seed: u64,
    /// Plies of random opening before each pair of games (0: from the start).
    pub openings: u32,
    /// Each side's clock in every game (`60+0.5`), when the games have one.
    pub clock: Option<String>,
    /// Each pair's match in the order they play.
    pub pairs: Vec<PairView>,
    /// Games played, and to play in all.
    pub played: u64,
    pub total: u64,
    /// The ratings fitted to the games played so far, best first (`gamelab tournament
    /// --json`'s `players` once done).
    pub standings: Vec<Standing>,
    pub elapsed_ms: u64,
    pub done: bool,
    pub stopped: bool,
    /// Why it ended early, when an entrant failed.
    pub error: Option<String>,
}

pub struct Tournament {
    pub state: watch::Sender<TournamentState>,
    pub stop: Arc<AtomicBool>,
}

impl Tournament {
    /// The table as CSV: a row per AI, best first, with its rating, interval, score and
    /// what it scored against each AI (the columns in the same order).
    pub fn csv(&self) -> String {
        let s = self.state.borrow().clone();
        let quote = |text: &str| format!("\"{}\"", text.replace('"', "\"\""));
        let mut out = String::from("rank,ai,elo,interval95,games,points");
        for p in &s.standings {
            out.push(',');
            out.push_str(&quote(&format!("vs {}", p.ai)));
        }
        out.push('\n');
        for (rank, p) in s.standings.iter().enumerate() {
            let (mut games, mut points) = (0u64, 0.0);
            let mut cells = Vec::new();
            for q in &s.standings {
                match p.results.iter().find(|r| r.opponent == q.ai) {
                    Some(r) => {
                        let n = r.win + r.lose + r.draw;
                        games += n;
                        points += r.win as f64 + r.draw as f64 / 2.0;
                        cells.push(format!("{}-{}-{}", r.win, r.lose, r.draw));
                    }
                    None => cells.push(String::new()),
                }
            }
            out.push_str(&format!(
                "{},{},{:.1},{:.1},{games},{points}",
                rank + 1,
                quote(&p.ai),
                p.elo,
                p.interval95
            ));
            for c in cells {
                out.push(',');
                out.push_str(&c);
            }
            out.push('\n');
        }
        out
    }
}

/// Checks the request, then starts the tournament on a thread of its own.
pub fn start(
    id: String,
    request: &NewTournament,
    files: FileAccess,
) -> Result<Arc<Tournament>, ApiError> {
    if request.ais.len() > MAX_ENTRANTS {
        return Err(ApiError::bad_request(format!(
            "{} AIs: a tournament takes 2 to {MAX_ENTRANTS}",
            request.ais.len()
        )));
    }
    let tournament_request = TournamentRequest {
        entrants: Vec::new(),
        setup: crate::runs::match_setup(
            request.games_per_side,
            MAX_GAMES_PER_SIDE,
            request.seed,
            request.openings,
            request.clock.as_deref(),
        )?,
    };
    let clock = tournament_request.setup.clock.written();
    let entrants: Vec<Entrant> = request.ais.iter().cloned().map(Entrant::Spec).collect();
    let prepared =
        experiments::prepare_tournament(&request.game, None, tournament_request, &entrants, &files)
            .map_err(|e| match e {
                ExperimentError::Spec { player, source } => {
                    ApiError::bad_request(format!("ai {}: {source}", player + 1))
                }
                e => ApiError::bad_request(e.to_string()),
            })?;
    let n = request.ais.len();
    let pair_list = pairs(n);
    let initial = TournamentState {
        id,
        game: request.game.clone(),
        ais: request.ais.clone(),
        games_per_side: request.games_per_side,
        seed: request.seed,
        openings: request.openings,
        clock,
        pairs: pair_list
            .iter()
            .map(|&(i, j)| PairView {
                a: request.ais[i].clone(),
                b: request.ais[j].clone(),
                win: 0,
                lose: 0,
                draw: 0,
            })
            .collect(),
        played: 0,
        total: 2 * request.games_per_side * pair_list.len() as u64,
        standings: live_standings(&request.ais, &vec![Tally::default(); pair_list.len()]),
        elapsed_ms: 0,
        done: false,
        stopped: false,
        error: None,
    };
    let tournament = Arc::new(Tournament {
        state: watch::Sender::new(initial),
        stop: Arc::new(AtomicBool::new(false)),
    });
    let worker = tournament.clone();
    let ais = request.ais.clone();
    std::thread::Builder::new()
        .name("gamelab-tournament".into())
        .spawn(move || {
            play(&worker, &*prepared, &ais);
            crate::memory::give_back();
        })
        .map_err(|e| ApiError::internal(format!("cannot start a worker thread: {e}")))?;
    Ok(tournament)
}

impl crate::Job for Tournament {
    fn done(&self) -> bool {
        self.state.borrow().done
    }

    /// Done as soon as Stop is asked, with the games finished by then (see the runs'):
    /// done first, then the flag, so that no chunk cut short by it is counted.
    fn stop(&self) {
        self.state.send_if_modified(|s| {
            let changed = !s.done;
            if changed {
                s.done = true;
                s.stopped = true;
            }
            changed
        });
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    fn fail(&self) {
        self.state.send_if_modified(|s| {
            let changed = !s.done;
            if changed {
                s.done = true;
                s.stopped = true;
                // Every agent is built from what was read when the tournament was checked
                // (a model file changed since cannot fail it): only a bug gets here.
                s.error = Some("its thread ended unexpectedly; the server's log says why".into());
            }
            changed
        });
    }
}

fn play(t: &Tournament, prepared: &dyn AnyTournament, ais: &[String]) {
    let _ends = crate::EndsOnDrop(t);
    let started = Instant::now();
    let tallies = Mutex::new(vec![Tally::default(); pairs(ais.len()).len()]);
    let on_chunk = |k: usize, first: Tally, second: Tally| {
        let mut tallies = tallies.lock().expect("tallies lock");
        let tally = &mut tallies[k];
        for half in [&first, &second] {
            tally.win += half.win;
            tally.lose += half.lose;
            tally.draw += half.draw;
        }
        let standings = live_standings(ais, &tallies);
        // Published while the tallies stay locked: chunks end on several threads, and a
        // snapshot sent after a newer one would leave the page showing fewer games than
        // were played (CI once saw "114 of 120 games · done").
        t.state.send_if_modified(|s| {
            if s.done {
                return false;
            }
            for (view, t) in s.pairs.iter_mut().zip(tallies.iter()) {
                (view.win, view.lose, view.draw) = (t.win, t.lose, t.draw);
            }
            s.played = tallies.iter().map(|t| t.win + t.lose + t.draw).sum();
            s.standings = standings;
            s.elapsed_ms = started.elapsed().as_millis() as u64;
            true
        });
    };
    let result = prepared.play(Some(&t.stop), &on_chunk);
    t.state.send_if_modified(|s| {
        if s.done {
            return false;
        }
        s.elapsed_ms = started.elapsed().as_millis() as u64;
        s.done = true;
        match result {
            Ok(report) => {
                s.stopped = report.interrupted;
                s.standings = report.players;
            }
            Err(e) => {
                s.stopped = true;
                s.error = Some(e.to_string());
            }
        }
        true
    });
}
