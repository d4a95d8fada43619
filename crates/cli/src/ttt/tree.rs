//! `gamelab tree stats` and `gamelab tree show BOARD`: the full tic-tac-toe game tree.

use gamelab_core::Notation;
use std::fmt::Write;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use gamelab_core::Game;
use gamelab_ttt::solve::{GameTree, Marks, SolvedTable};
use gamelab_ttt::{Player, Square, Ttt};

#[derive(Args, Debug)]
pub struct TreeArgs {
    #[command(subcommand)]
    command: TreeCommand,
}

#[derive(Subcommand, Debug)]
enum TreeCommand {
    /// Nodes per depth, finished games by result, distinct positions.
    Stats,
    /// A position with its parents and children, their values and the best moves marked.
    Show {
        /// A 9-character board string (`.ox` row by row), the text form, or a move list.
        position: String,
    },
}

pub fn run(args: TreeArgs) -> anyhow::Result<()> {
    let text = match args.command {
        TreeCommand::Stats => stats(),
        TreeCommand::Show { position } => show(&position)?,
    };
    print!("{text}");
    Ok(())
}

fn stats() -> String {
    let started = Instant::now();
    let tree = GameTree::build();
    let elapsed = started.elapsed();
    let mut out = String::from("depth      nodes\n");
    for (d, n) in tree.nodes_per_depth().iter().enumerate() {
        let _ = writeln!(out, "{d:5} {n:10}");
    }
    let _ = writeln!(out, "total {:10}", tree.nodes.len());
    let (o, x, d) = tree.leaves();
    let _ = writeln!(
        out,
        "\nfinished games {} (o wins {o}, x wins {x}, draws {d})",
        o + x + d
    );
    let canonical: std::collections::HashSet<u64> = SolvedTable::shared()
        .positions
        .keys()
        .map(|m| gamelab_ttt::canonical_key([m.0, m.1]))
        .collect();
    let _ = writeln!(
        out,
        "distinct positions {} ({} up to symmetry)",
        tree.distinct_positions(),
        canonical.len()
    );
    let _ = writeln!(out, "value of the start: {}", describe(tree.nodes[0].value));
    let _ = writeln!(
        out,
        "built with values in {:.1} ms",
        elapsed.as_secs_f64() * 1e3
    );
    out
}

fn describe(value: i8) -> &'static str {
    match value {
        1 => "o wins",
        -1 => "x wins",
        _ => "draw",
    }
}

/// One line for a position: its board string, values, and which best sets `mv` is in.
fn line(table: &SolvedTable, pos: &Ttt, mv: Option<(Square, &Ttt)>) -> String {
    let s = table.get(pos).expect("a reachable position");
    let mut text = format!(
        "{}  value {:>2}  sv {:>2}  svrd {:>4}",
        pos.board_string(),
        s.value,
        s.sv,
        f64::from(s.svrd_halves(pos.turn())) / 2.0
    );
    if let Some((sq, parent)) = mv {
        let p = table.get(parent).expect("a reachable position");
        let marks: Vec<&str> = [(p.best_gt, "gt"), (p.best_sv, "sv"), (p.best_svrd, "svrd")]
            .into_iter()
            .filter(|(mask, _)| mask & sq.bit() != 0)
            .map(|(_, name)| name)
            .collect();
        let star = if marks.is_empty() { ' ' } else { '*' };
        text = format!("{star} {sq}  {text}");
        if !marks.is_empty() {
            let _ = write!(text, "  best for {}", marks.join(", "));
        }
    }
    text
}

fn show(text: &str) -> anyhow::Result<String> {
    let pos =
        Ttt::parse_position(text).with_context(|| format!("cannot read the position `{text}`"))?;
    let table = SolvedTable::shared();
    let Some(_) = table.get(&pos) else {
        bail!("`{text}` is not reachable in play");
    };
    let mut out = format!("{pos}\n{}\n", line(table, &pos, None));
    // Parents: take back one of the last mover's marks, where play could have gone on.
    let last = pos.last_turn();
    let marks = Marks::of(&pos);
    let own = if last == Player::O { marks.0 } else { marks.1 };
    let mut parents = Vec::new();
    for sq in Square::ALL.into_iter().filter(|s| own & s.bit() != 0) {
        let mut board: Vec<char> = pos.board_string().chars().collect();
        board[sq.index()] = '.';
        let before: String = board.into_iter().collect();
        if let Ok(parent) = before.parse::<Ttt>()
            && !parent.is_over()
        {
            parents.push((sq, parent));
        }
    }
    let _ = writeln!(out, "\nparents ({}):", parents.len());
    for (sq, parent) in &parents {
        let _ = writeln!(
            out,
            "  {}",
            line(table, parent, Some((*sq, parent))).replacen(
                &format!("{sq}  "),
                &format!("{sq} → "),
                1
            )
        );
    }
    let moves = pos.legal_moves();
    let _ = writeln!(out, "\nchildren ({}), * marks a best move:", moves.len());
    for sq in moves {
        let mut child = pos.clone();
        child.play_unchecked(sq);
        let _ = writeln!(out, "  {}", line(table, &child, Some((sq, &pos))));
    }
    Ok(out)
}
