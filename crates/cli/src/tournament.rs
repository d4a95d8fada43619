//! `gamelab tournament A B C …`: every pair both ways, a crosstable and fitted Elo ratings.

use std::fmt::Write;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use gamelab_core::FileAccess;
use gamelab_core::arena::Tally;
use gamelab_core::match_request::TournamentRequest;
use gamelab_core::tournament::TournamentReport;
use gamelab_games::experiments::{self, AnyTournament, Entrant};

use crate::game_args::GameArgs;

#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// The AIs, at least two.
    #[arg(required = true, num_args = 2..)]
    ais: Vec<String>,
    /// Games per pair with each AI moving first (1 to 10^12; default 10,000, or the
    /// number of openings of --openings-file).
    #[arg(short = 'n', long, value_parser = crate::limits::games_per_side)]
    games: Option<u64>,
    #[command(flatten)]
    setup: crate::setup::SetupArgs,
    /// Print one JSON object instead of the tables.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    cluster: crate::cluster::ClusterArgs,
}

pub fn run(args: TournamentArgs) -> anyhow::Result<()> {
    let out = tournament(&args)?;
    print!("{out}");
    Ok(())
}

fn tournament(args: &TournamentArgs) -> anyhow::Result<String> {
    let request = TournamentRequest {
        entrants: args.ais.clone(),
        setup: args.setup.match_setup(args.games)?,
    };
    let entrants: Vec<Entrant> = args.ais.iter().cloned().map(Entrant::Spec).collect();
    let prepared = experiments::prepare_tournament(
        &args.game.game,
        args.game.board.as_deref(),
        request,
        &entrants,
        &FileAccess::Any,
    )
    .map_err(crate::game_args::experiment_error)?;
    let games = prepared.games_per_side();
    let openings = prepared.openings_described();
    let timed = prepared.timed();
    let started = Instant::now();
    let pairs = prepared.pairs().len() as u64;
    let bar = crate::progress::bar(pairs * 2 * games, "games");
    let on_chunk = |_: usize, first: Tally, second: Tally| {
        crate::progress::advance(&bar, first.games() + second.games())
    };
    let report = match args.cluster.cluster()? {
        Some(cluster) => {
            let prepared: Arc<dyn AnyTournament> = Arc::from(prepared);
            match crate::cluster::play_tournament(&cluster, prepared.clone())? {
                Some(results) => prepared.complete(&results)?,
                None => return Ok(crate::cluster::helper_done()),
            }
        }
        // Ctrl-C stops the games under way at once (they are dropped): the standings are
        // over the games finished before it.
        None => prepared.play(Some(&crate::recording::interrupt_flag()), &on_chunk)?,
    };
    crate::progress::finish(bar);
    if report.interrupted {
        eprintln!(
            "interrupted: {} of {} games played; the standings are over them",
            report.games_played(),
            pairs * 2 * games
        );
    }
    if args.json {
        return Ok(format!("{}\n", serde_json::to_string(&report)?));
    }
    let mut out = crosstable(&report);
    let _ = writeln!(
        out,
        "\n{} games per pair, seed {}{openings}, {:.2} s",
        2 * games,
        args.setup.seed,
        started.elapsed().as_secs_f64()
    );
    if report.interrupted {
        out += "interrupted (Ctrl-C): the standings are over the games played before it\n";
    }
    out += &crate::match_cmd::timed_notes(args.ais.iter().zip(timed));
    out += &crate::match_cmd::clock_note(args.setup.clock);
    Ok(out)
}

/// The crosstable (each row's score against each column, best first) and the ratings.
fn crosstable(report: &TournamentReport) -> String {
    let players = &report.players;
    let labels: Vec<String> = players
        .iter()
        .enumerate()
        .map(|(k, p)| format!("#{} {}", k + 1, p.ai))
        .collect();
    let label_width = labels.iter().map(String::len).max().unwrap_or(0);
    let width = players.iter().map(|p| p.ai.len()).max().unwrap_or(0).max(6);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "crosstable: the row's score against the column (wins + draws/2), in %"
    );
    let _ = write!(out, "{:label_width$}", "");
    for k in 0..players.len() {
        let _ = write!(out, "{:>8}", format!("#{}", k + 1));
    }
    out.push('\n');
    for (row, label) in labels.iter().enumerate() {
        let _ = write!(out, "{label:label_width$}");
        for column in 0..players.len() {
            match report.score(row, column) {
                Some(score) if row != column => {
                    let _ = write!(out, "{:>8.1}", score * 100.0);
                }
                _ => {
                    let _ = write!(out, "{:>8}", "-");
                }
            }
        }
        out.push('\n');
    }
    let _ = writeln!(out, "\nrank  {:width$}  {:>7}  {:>7}", "AI", "Elo", "95%");
    for (k, p) in players.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>4}  {:width$}  {:>7.1}  {:>7}",
            k + 1,
            p.ai,
            p.elo,
            format!("±{:.1}", p.interval95)
        );
    }
    out
}
