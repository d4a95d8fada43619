//! `perft`, `ffo` and `wthor`.

use std::fmt::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Args;
use gamelab_othello::endgame::{Solver, Trace};
use gamelab_othello::ffo::{self, FfoPosition};
use gamelab_othello::perft::{perft, perft_parallel};
use gamelab_othello::{Othello, wthor};

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Plies from the start position.
    depth: u32,
    /// Threads (default: all cores; 1 counts on this thread alone).
    #[arg(long, value_parser = crate::limits::threads)]
    threads: Option<usize>,
}

pub fn perft_cmd(args: PerftArgs) -> anyhow::Result<()> {
    if args.depth > 20 {
        bail!(
            "depth {} is beyond what can be counted here (at most 20)",
            args.depth
        );
    }
    let start = Othello::new();
    let started = Instant::now();
    let spinner = crate::progress::spinner(&format!("perft({})", args.depth));
    let n = match args.threads {
        Some(1) => perft(&start, args.depth),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()?
            .install(|| perft_parallel(&start, args.depth)),
        None => perft_parallel(&start, args.depth),
    };
    crate::progress::finish(spinner);
    let s = started.elapsed().as_secs_f64();
    println!(
        "perft({}) = {n} in {s:.3} s ({:.1} M leaves/s)",
        args.depth,
        n as f64 / s / 1e6
    );
    Ok(())
}

#[derive(Args, Debug)]
pub struct FfoArgs {
    /// An FFO file (`<id> <64 squares> <side> <score> <best move>` a line).
    file: PathBuf,
    /// Which positions, e.g. `40-49` or `1,3,20` (ids 0 to 99999).
    #[arg(long)]
    ids: Option<String>,
    /// Threads for each solve (default: all cores). Scores never depend on it; node
    /// counts, and which of several equally good moves is shown, may.
    #[arg(long, value_parser = crate::limits::threads)]
    threads: Option<usize>,
    /// Seconds each position may take; one not solved by then is reported as such and
    /// the run goes on (the run then fails).
    #[arg(long, value_parser = crate::limits::seconds)]
    time_limit: Option<f64>,
    /// Under each position, its solve's steps: the midgame search that gave the first
    /// guess, then each null-window test of MTD(f) ("above +5?"), its answer, nodes and
    /// time — where the nodes went.
    #[arg(long, conflicts_with = "cluster")]
    tests: bool,
    /// Under each position, its line of best play to the end (found after the score, by
    /// null-window tests against it; its nodes and time are in the row's).
    #[arg(long, conflicts_with = "cluster")]
    line: bool,
    #[command(flatten)]
    cluster: crate::cluster::ClusterArgs,
}

/// The largest FFO id `--ids` takes (the suites number theirs from 1 to 79).
const MAX_FFO_ID: u32 = 99_999;
/// The most empty squares a position may have: FFO's hardest have 34, and each more
/// multiplies the solver's time several times.
const MAX_FFO_EMPTIES: u32 = 36;

fn parse_ids(text: &str) -> anyhow::Result<Vec<u32>> {
    let mut ids = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        let bad = || {
            anyhow::anyhow!(
                "`{part}` is not an id or a range like 40-49 (ids from 0 to {MAX_FFO_ID})"
            )
        };
        let id = |t: &str| {
            t.trim()
                .parse::<u32>()
                .ok()
                .filter(|&n| n <= MAX_FFO_ID)
                .ok_or_else(bad)
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (id(a)?, id(b)?);
                if a > b {
                    return Err(bad());
                }
                ids.extend(a..=b);
            }
            None => ids.push(id(part)?),
        }
    }
    Ok(ids)
}

fn read_ffo(args: &FfoArgs) -> anyhow::Result<Vec<FfoPosition>> {
    ffo::read(&args.file).map_err(anyhow::Error::msg)
}

pub fn ffo_cmd(args: FfoArgs) -> anyhow::Result<()> {
    let wanted = args.ids.as_deref().map(parse_ids).transpose()?;
    let mut positions = read_ffo(&args)?;
    if let Some(wanted) = wanted {
        let missing: Vec<String> = wanted
            .iter()
            .filter(|id| !positions.iter().any(|p| p.id == **id))
            .map(u32::to_string)
            .collect();
        if !missing.is_empty() {
            let held = match (positions.first(), positions.last()) {
                (Some(a), Some(b)) => format!("it holds ids {} to {}", a.id, b.id),
                _ => "it holds no positions".to_string(),
            };
            let more = match missing.len() {
                n if n > 10 => format!(" and {} more", n - 10),
                _ => String::new(),
            };
            bail!(
                "{} has no position {}{more}; {held}",
                args.file.display(),
                missing[..missing.len().min(10)].join(", ")
            );
        }
        positions.retain(|p| wanted.contains(&p.id));
    }
    if let Some(p) = positions
        .iter()
        .find(|p| p.position.empties() > MAX_FFO_EMPTIES)
    {
        bail!(
            "{}: position {} has {} empty squares; the solver takes at most {MAX_FFO_EMPTIES}",
            args.file.display(),
            p.id,
            p.position.empties()
        );
    }
    if let Some(cluster) = args.cluster.cluster()? {
        return ffo_on_cluster(&cluster, positions, args.time_limit);
    }
    let threads = args.threads.unwrap_or_else(crate::limits::all_cores);
    let interrupt = crate::recording::interrupt_flag();
    println!("{} thread(s)", threads);
    println!("{FFO_HEADER}");
    let bar = crate::progress::bar(positions.len() as u64, "positions");
    let mut table = FfoTable::default();
    let mut solver = Solver::default();
    solver.set_threads(threads);
    solver.set_find_line(args.line);
    for p in &positions {
        let solved = solve_position(&mut solver, p, args.time_limit, &interrupt);
        if crate::recording::interrupted() {
            crate::progress::finish(bar);
            println!("interrupted during position {}", p.id);
            summary(table.solved, table.nodes, table.time);
            bail!(
                "interrupted: {} of {} positions solved",
                table.solved,
                positions.len()
            );
        }
        crate::progress::println(&bar, &table.row(p, &solved));
        if args.tests {
            crate::progress::println(&bar, &trace_lines(&solved.trace));
        }
        if args.line && solved.found.is_some() {
            crate::progress::println(&bar, &format!("      line {}", solved.line.join(" ")));
        }
        crate::progress::advance(&bar, 1);
    }
    crate::progress::finish(bar);
    table.finish(args.time_limit)
}

const FFO_HEADER: &str = " id empties  score best  expected       nodes     time      nodes/s";

/// One position solved: its score and best move (`None`: not in time), the nodes searched
/// and the seconds taken.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Solved {
    found: Option<(i32, String)>,
    nodes: u64,
    seconds: f64,
    /// The solve's steps, for `--tests` (which runs on this machine only).
    #[serde(skip)]
    trace: Trace,
    /// The line of best play, for `--line` (this machine only, as `--tests`).
    #[serde(skip)]
    line: Vec<String>,
}

/// `--tests`'s lines for one solve: the first guess, then each test (the last one
/// unfinished when the solve was stopped, so not shown).
fn trace_lines(trace: &Trace) -> String {
    let mut out = String::new();
    if let Some(g) = &trace.guess {
        let _ = writeln!(
            out,
            "      guess {:+.2} by a {}-ply midgame search, {} nodes",
            g.score, g.depth, g.nodes
        );
    }
    for t in &trace.tests {
        let answer = if t.value > t.bound { "yes" } else { "no " };
        let _ = writeln!(
            out,
            "      above {:+3}? {answer} ({:+3}) {:13} nodes {:9.3} s",
            t.bound,
            t.value,
            t.nodes,
            t.elapsed.as_secs_f64()
        );
    }
    out.pop();
    out
}

/// Solves `p` with `solver`, first made to forget what it solved before, so that each
/// position's nodes are its own whatever ran before it; the table's memory is kept (a
/// new one a position cost the system a page fault and a page cleared every 2 MB).
fn solve_position(
    solver: &mut Solver,
    p: &FfoPosition,
    time_limit: Option<f64>,
    interrupt: &gamelab_core::StopFlag,
) -> Solved {
    let started = Instant::now();
    solver.forget();
    let nodes_before = solver.nodes;
    let deadline = time_limit.map(|s| started + std::time::Duration::from_secs_f64(s));
    let stop = gamelab_core::Watchdog::start(Some(interrupt), deadline);
    let result = solver.solve_until(&p.position, Some(stop.flag()));
    drop(stop);
    Solved {
        found: result.map(|(score, best)| (score, best.map_or("-".to_string(), |m| m.to_string()))),
        nodes: solver.nodes - nodes_before,
        seconds: started.elapsed().as_secs_f64(),
        trace: std::mem::take(&mut solver.trace),
        line: solver.line.iter().map(ToString::to_string).collect(),
    }
}

/// The rows of `ffo`'s table and what they add up to.
#[derive(Default)]
struct FfoTable {
    solved: usize,
    wrong: usize,
    unsolved: usize,
    nodes: u64,
    time: f64,
}

impl FfoTable {
    fn row(&mut self, p: &FfoPosition, solved: &Solved) -> String {
        let (nodes, s) = (solved.nodes, solved.seconds);
        match &solved.found {
            Some((score, best)) => {
                self.solved += 1;
                self.nodes += nodes;
                self.time += s;
                let ok = *score == p.expected;
                if !ok {
                    self.wrong += 1;
                }
                format!(
                    "{:3} {:7} {score:+6} {best:4}  {:+4} {:4} {:11} {s:8.3} s {:10.0}{}",
                    p.id,
                    p.position.empties(),
                    p.expected,
                    p.best,
                    nodes,
                    nodes as f64 / s.max(1e-9),
                    if ok { "" } else { "  WRONG" }
                )
            }
            None => {
                self.unsolved += 1;
                format!(
                    "{:3} {:7}      - -     {:+4} {:4} {:11} {s:8.3} s  not solved in time",
                    p.id,
                    p.position.empties(),
                    p.expected,
                    p.best,
                    nodes,
                )
            }
        }
    }

    fn finish(&self, time_limit: Option<f64>) -> anyhow::Result<()> {
        summary(self.solved, self.nodes, self.time);
        if self.wrong > 0 {
            bail!("{} score(s) differ from the file", self.wrong);
        }
        if let (true, Some(limit)) = (self.unsolved > 0, time_limit) {
            bail!("{} position(s) not solved within {limit} s", self.unsolved);
        }
        Ok(())
    }
}

/// The suite on a cluster: a position a worker, each solved on one thread (the workers are
/// the cores), the rows printed in the file's order by process 0.
fn ffo_on_cluster(
    cluster: &gamelab_cluster::Cluster,
    positions: Vec<FfoPosition>,
    time_limit: Option<f64>,
) -> anyhow::Result<()> {
    if cluster.is_leader() {
        println!("{} worker(s), one thread each", cluster.workers());
        println!("{FFO_HEADER}");
    }
    let shared = std::sync::Arc::new(positions.clone());
    let never = gamelab_core::StopFlag::default();
    let mut table = FfoTable::default();
    crate::cluster::solve_each(
        cluster,
        positions.len(),
        move |i| {
            // Each worker's solver serves all its positions, as in a run on one machine.
            thread_local! {
                static SOLVER: std::cell::RefCell<Solver> = std::cell::RefCell::new(Solver::default());
            }
            SOLVER.with_borrow_mut(|solver| solve_position(solver, &shared[i], time_limit, &never))
        },
        |i, solved: Solved| {
            println!("{}", table.row(&positions[i], &solved));
            Ok(())
        },
    )?;
    if !cluster.is_leader() {
        crate::cluster::helper_done();
        return Ok(());
    }
    table.finish(time_limit)
}

fn summary(solved: usize, nodes: u64, time: f64) {
    println!(
        "{solved} positions, {nodes} nodes in {time:.3} s ({:.0} nodes/s)",
        nodes as f64 / time.max(1e-9)
    );
}

#[derive(Args, Debug)]
pub struct WthorArgs {
    /// `.wtb` files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Also write every game to this GGF file, one a line, players and tournaments named
    /// from `WTHOR.JOU` and `WTHOR.TRN` beside the first file (by number without them);
    /// each game is read back and checked before anything is written.
    #[arg(long, value_name = "FILE")]
    ggf: Option<PathBuf>,
    /// Also write every game played to the end as a game record (JSON Lines, as `match
    /// --records` writes and `replay` reads), players named as for `--ggf`.
    #[arg(long, value_name = "FILE")]
    jsonl: Option<PathBuf>,
}

/// The names in `WTHOR.JOU` or `WTHOR.TRN` beside `first`, none when it is missing.
fn wthor_names(first: &std::path::Path, file: &str, record: usize) -> anyhow::Result<Vec<String>> {
    let path = first.with_file_name(file);
    if !path.exists() {
        return Ok(Vec::new());
    }
    let bytes = gamelab_core::files::read_regular(&path, 16 << 20)
        .with_context(|| format!("cannot read {}", path.display()))?;
    Ok(wthor::parse_names(
        &bytes,
        record,
        &path.display().to_string(),
    )?)
}

pub fn wthor_cmd(args: WthorArgs) -> anyhow::Result<()> {
    for out in [&args.ggf, &args.jsonl].into_iter().flatten() {
        if let Some(input) = args
            .files
            .iter()
            .find(|input| gamelab_core::files::same_file(input, out))
        {
            bail!(
                "{} is the input file {}: writing it would replace the database; expected another file",
                out.display(),
                input.display()
            );
        }
        gamelab_core::files::check_writable(out)
            .with_context(|| format!("cannot write {}", out.display()))?;
    }
    let (players, tournaments) = if args.ggf.is_some() || args.jsonl.is_some() {
        (
            wthor_names(&args.files[0], "WTHOR.JOU", wthor::PLAYER_RECORD)?,
            wthor_names(&args.files[0], "WTHOR.TRN", wthor::TOURNAMENT_RECORD)?,
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let mut ggf = String::new();
    let mut records = Vec::new();
    let mut out = String::new();
    let (mut games, mut finished, mut bad) = (0usize, 0usize, 0usize);
    let (mut black, mut white, mut draws, mut moves) = (0usize, 0usize, 0usize, 0usize);
    for path in &args.files {
        let list = wthor::read(path)?;
        for (i, g) in list.iter().enumerate() {
            games += 1;
            moves += g.moves.len();
            match g.black_discs.cmp(&32) {
                std::cmp::Ordering::Greater => black += 1,
                std::cmp::Ordering::Less => white += 1,
                std::cmp::Ordering::Equal => draws += 1,
            }
            let converted = g.replay().map_err(anyhow::Error::from).and_then(|r| {
                finished += usize::from(r.finished);
                if args.ggf.is_some() {
                    ggf.push_str(&wthor_game_as_ggf(g, &players, &tournaments)?);
                    ggf.push('\n');
                }
                if args.jsonl.is_some() && r.finished {
                    records.push(wthor_game_as_record(g, &players, games as u64 - 1)?);
                }
                Ok(())
            });
            if let Err(e) = converted {
                bad += 1;
                let _ = writeln!(out, "{}, game {i}: {e:#}", path.display());
            }
        }
    }
    let _ = writeln!(
        out,
        "{games} games in {} file(s): {} legal to the last move ({finished} played to the end, {} stopped early), {bad} wrong\n\
         results as recorded: black {black}, white {white}, draws {draws}; {:.1} moves a game",
        args.files.len(),
        games - bad,
        games - bad - finished,
        moves as f64 / games.max(1) as f64
    );
    print!("{out}");
    if bad > 0 {
        bail!("{bad} game(s) do not replay");
    }
    if let Some(path) = &args.ggf {
        gamelab_core::files::write_atomically(path, |w| w.write_all(ggf.as_bytes()))
            .with_context(|| format!("cannot write {}", path.display()))?;
        println!(
            "{games} games written to {} as GGF, each read back the same",
            path.display()
        );
    }
    if let Some(path) = &args.jsonl {
        gamelab_core::record::write_records(path, &records)?;
        println!(
            "{} games played to the end written to {} as game records, each replayed first ({} stopped early left out: a record is a finished game)",
            records.len(),
            path.display(),
            games - finished
        );
    }
    Ok(())
}

/// A finished WTHOR game as a game record (the format of `match --records` and
/// `replay`), replayed and checked first.
fn wthor_game_as_record(
    g: &wthor::WthorGame,
    players: &[String],
    index: u64,
) -> anyhow::Result<gamelab_core::record::GameRecord> {
    let game = g.to_ggf(players, &[])?;
    let name = |side: &str| game.property(side).unwrap_or_default().to_string();
    let result = match g.black_discs.cmp(&32) {
        std::cmp::Ordering::Greater => "black",
        std::cmp::Ordering::Less => "white",
        std::cmp::Ordering::Equal => "draw",
    };
    let record = gamelab_core::record::GameRecord {
        game: <Othello as gamelab_core::Game>::NAME.into(),
        index,
        seed: 0,
        first: name("PB"),
        second: name("PW"),
        moves: game.plain_moves().iter().map(ToString::to_string).collect(),
        result: result.into(),
        forfeit: None,
    };
    gamelab_core::record::replay::<Othello>(&record).context("as a record")?;
    Ok(record)
}

/// A WTHOR game as a GGF line, read back and checked: the same moves and result.
fn wthor_game_as_ggf(
    g: &wthor::WthorGame,
    players: &[String],
    tournaments: &[String],
) -> anyhow::Result<String> {
    let game = g.to_ggf(players, tournaments)?;
    let line = game.write();
    let back = gamelab_othello::ggf::parse_one(&line).context("GGF read back")?;
    let squares: Vec<gamelab_othello::Move> = g
        .moves
        .iter()
        .map(|&sq| gamelab_othello::Move::Place(sq))
        .collect();
    let placed: Vec<gamelab_othello::Move> = back
        .plain_moves()
        .into_iter()
        .filter(|m| *m != gamelab_othello::Move::Pass)
        .collect();
    if back != game || placed != squares || back.result() != game.result() {
        bail!("GGF read back differs: {line}");
    }
    Ok(line)
}
