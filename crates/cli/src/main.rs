//! gamelab: build, play and compare board-game AIs.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod ais;
mod bench;
mod board_args;
mod dataset;
mod diverge;
mod learn_curve;
mod match_cmd;
mod move_cmd;
mod othello_cmds;
mod play;
mod records;
mod replay;
mod search;
mod serve;
mod solve;
mod tables;
mod tournament;
mod train;
mod tree;
mod verify;

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
    /// Play a game in the terminal, each side a human or an AI.
    Play(play::PlayArgs),
    /// List every AI with its parameters and their defaults.
    Ais(ais::AisArgs),
    /// Show the moves an AI considers best in a position (`--debug` for its trace).
    Move(move_cmd::MoveArgs),
    /// Play A against B, N games each way round, and print the win/lose/draw tables.
    Match(match_cmd::MatchArgs),
    /// Print a recorded game move by move.
    Replay(replay::ReplayArgs),
    /// Find the first seed at which two versions of an AI end differently against B.
    Diverge(diverge::DivergeArgs),
    /// Play every pair of AIs both ways; print a crosstable and Elo ratings.
    Tournament(tournament::TournamentArgs),
    /// The full tic-tac-toe game tree: statistics, or a position with its parents and
    /// children.
    Tree(tree::TreeArgs),
    /// Solve every tic-tac-toe position; write or check a solved-table file.
    Solve(solve::SolveArgs),
    /// Alpha-beta analysis of a position (ai_abs_dls): score, best move, variation, nodes.
    Search(search::SearchArgs),
    /// Prove by exhaustion whether an AI never loses, as o and as x.
    Verify(verify::VerifyArgs),
    /// The seed's benchmark: every board data structure, with and without line counts.
    Bench(bench::BenchArgs),
    /// Play games and save them for learning (the seed's CSV or JSON Lines).
    Records(records::RecordsArgs),
    /// Turn game records into the seed's dataset CSV (line-pattern features).
    Dataset(dataset::DatasetArgs),
    /// Fit a linear model to a dataset (least squares) and save it.
    Train(train::TrainArgs),
    /// The seed's experiment: models from 10 … 10,000 random games against ai2.
    LearnCurve(learn_curve::LearnCurveArgs),
    /// Othello perft from the start position (a pass is a ply).
    Perft(othello_cmds::PerftArgs),
    /// Solve FFO endgame positions exactly; fails on any wrong score.
    Ffo(othello_cmds::FfoArgs),
    /// Read WTHOR game files, replay every game and check it.
    Wthor(othello_cmds::WthorArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => serve::run(args),
        Command::Play(args) => play::run(args),
        Command::Ais(args) => ais::run(args),
        Command::Move(args) => move_cmd::run(args),
        Command::Match(args) => match_cmd::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Diverge(args) => diverge::run(args),
        Command::Tournament(args) => tournament::run(args),
        Command::Tree(args) => tree::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Search(args) => search::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Records(args) => records::run(args),
        Command::Dataset(args) => dataset::run(args),
        Command::Train(args) => train::run(args),
        Command::LearnCurve(args) => learn_curve::run(args),
        Command::Perft(args) => othello_cmds::perft_cmd(args),
        Command::Ffo(args) => othello_cmds::ffo_cmd(args),
        Command::Wthor(args) => othello_cmds::wthor_cmd(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
