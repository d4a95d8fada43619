//! gamelab: build, play and compare board-game AIs.

use std::process::ExitCode;

use clap::{Arg, CommandFactory, FromArgMatches, Parser, Subcommand};

// Generic subcommands: they run on any game of the catalogue (`--game`).
mod ais;
mod analyse;
mod cluster;
mod diverge;
mod game_args;
mod games;
mod limits;
mod match_cmd;
mod move_cmd;
mod openings;
mod play;
mod progress;
mod recording;
mod records;
mod replay;
mod serve;
mod setup;
mod sigpipe;
mod tables;
mod tournament;
mod verify;

// Subcommands that only make sense for one game, in a module named after it.
mod othello;
mod ttt;

#[derive(Parser)]
#[command(
    name = "gamelab",
    version,
    about = "Build, play and compare board-game AIs"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Open the web app: play, watch matches and explore the game tree in a browser.
    Serve(serve::ServeArgs),
    /// List the games: their sides, notation, board structures and AIs.
    Games(games::GamesArgs),
    /// Play a game in the terminal, each side a human or an AI.
    Play(play::PlayArgs),
    /// List every AI with its parameters and their defaults.
    Ais(ais::AisArgs),
    /// Show the moves an AI considers best in a position (`--debug` for its trace).
    Move(move_cmd::MoveArgs),
    /// Every move's value by an AI, deeper and deeper: a line a level, until every value
    /// is exact, `--time` or Ctrl-C.
    Analyse(analyse::AnalyseArgs),
    /// Play A against B, N games each way round, and print the win/lose/draw tables.
    Match(match_cmd::MatchArgs),
    /// Print a recorded game move by move.
    Replay(replay::ReplayArgs),
    /// Find the first seed at which two versions of an AI end differently against B.
    Diverge(diverge::DivergeArgs),
    /// Play every pair of AIs both ways; print a crosstable and Elo ratings.
    Tournament(tournament::TournamentArgs),
    /// Prove by exhaustion whether an AI never loses, on either side (games whose tree fits
    /// in memory).
    Verify(verify::VerifyArgs),
    /// Play games and save them (JSON Lines, or the article's CSV: winner, then move codes).
    Records(records::RecordsArgs),
    /// Tic-tac-toe: the full game tree: statistics, or a position with its parents and
    /// children.
    Tree(ttt::tree::TreeArgs),
    /// Tic-tac-toe: solve every position; write or check a solved-table file.
    Solve(ttt::solve::SolveArgs),
    /// Tic-tac-toe: alpha-beta analysis of a position (ai_abs_dls): score, best move,
    /// variation, nodes.
    Search(ttt::search::SearchArgs),
    /// Tic-tac-toe: the article's benchmark, every board data structure, with and without line
    /// counts.
    Bench(ttt::bench::BenchArgs),
    /// Tic-tac-toe: turn game records into the article's dataset CSV (line-pattern features).
    Dataset(ttt::dataset::DatasetArgs),
    /// Tic-tac-toe: fit a linear model to a dataset (least squares) and save it.
    Train(ttt::train::TrainArgs),
    /// Tic-tac-toe: the article's experiment, models from 10 … 10,000 random games against ai2.
    LearnCurve(ttt::learn_curve::LearnCurveArgs),
    /// Othello: perft from the start position (a pass is a ply).
    Perft(othello::PerftArgs),
    /// Othello: solve FFO endgame positions exactly; fails on any wrong score.
    Ffo(othello::FfoArgs),
    /// Othello: read WTHOR game files, replay every game and check it.
    Wthor(othello::WthorArgs),
    /// Othello: fit the pattern evaluation to the WTHOR games and write the model.
    TrainPatterns(othello::train::TrainPatternsArgs),
    /// Othello: build the opening book from the WTHOR games' openings and write it.
    BuildBook(othello::book::BuildBookArgs),
    /// Othello: cut positions from real games and solve them exactly, as an FFO suite to
    /// measure evaluations against (`eval-error`).
    ExactSet(othello::accuracy::ExactSetArgs),
    /// Othello: a model's error against exact scores, stage by stage: the static
    /// evaluation's and depth-limited searches'.
    EvalError(othello::accuracy::EvalErrorArgs),
    /// Othello: an AI as an NBoard engine on standard input and output.
    Nboard(othello::nboard::NboardArgs),
    /// Othello: an AI as a GTP (Go Text Protocol) engine on standard input and output.
    Gtp(othello::gtp::GtpArgs),
}

fn main() -> ExitCode {
    // `play` names its sides in each game's own words (--o/--x, --black/--white), so those
    // options come from the catalogue.
    let sides = play::side_options();
    let command = Cli::command().mut_subcommand("play", |play| {
        sides.iter().fold(play, |play, (side, help)| {
            play.arg(
                Arg::new(*side)
                    .long(*side)
                    .value_name("PLAYER")
                    .help(help.clone()),
            )
        })
    });
    let matches = command.get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if let (Command::Play(args), Some(("play", m))) = (&mut cli.command, matches.subcommand()) {
        for (side, _) in &sides {
            if let Some(player) = m.get_one::<String>(side) {
                args.players.push((side.to_string(), player.clone()));
            }
        }
    }
    if !matches!(cli.command, Command::Serve(_)) {
        sigpipe::end_quietly_when_the_reader_leaves();
    }
    let result = match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::Games(args) => games::run(args),
        Command::Play(args) => play::run(args),
        Command::Ais(args) => ais::run(args),
        Command::Move(args) => move_cmd::run(args),
        Command::Analyse(args) => analyse::run(args),
        Command::Match(args) => match_cmd::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Diverge(args) => diverge::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Records(args) => records::run(args),
        Command::Tree(args) => ttt::tree::run(args),
        Command::Solve(args) => ttt::solve::run(args),
        Command::Search(args) => ttt::search::run(args),
        Command::Bench(args) => ttt::bench::run(args),
        Command::Dataset(args) => ttt::dataset::run(args),
        Command::Train(args) => ttt::train::run(args),
        Command::LearnCurve(args) => ttt::learn_curve::run(args),
        Command::Perft(args) => othello::perft_cmd(args),
        Command::Ffo(args) => othello::ffo_cmd(args),
        Command::Wthor(args) => othello::wthor_cmd(args),
        Command::Nboard(args) => othello::nboard::nboard_cmd(args),
        Command::Gtp(args) => othello::gtp::gtp_cmd(args),
        Command::TrainPatterns(args) => othello::train::run(args),
        Command::BuildBook(args) => othello::book::run(args),
        Command::ExactSet(args) => othello::accuracy::exact_set(args),
        Command::EvalError(args) => othello::accuracy::eval_error(args),
    };
    match result {
        // A match cut short by Ctrl-C said so and kept its games; the exit status says so too.
        Ok(()) if recording::interrupted() => ExitCode::from(130),
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}{}", game_args::other_game_hint(&err));
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    /// `--help` says what every option and argument is: none is listed bare.
    #[test]
    fn every_option_has_help() {
        let cli = Cli::command();
        let bare: Vec<String> = cli
            .get_subcommands()
            .flat_map(|sub| {
                sub.get_arguments()
                    .filter(|arg| arg.get_help().is_none() && !arg.is_hide_set())
                    .map(move |arg| format!("{} {}", sub.get_name(), arg.get_id()))
            })
            .collect();
        assert!(bare.is_empty(), "options without help: {bare:?}");
    }
}
