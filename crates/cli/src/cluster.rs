//! `--cluster`: a match, tournament, records or FFO run shared among processes and
//! machines (gamelab-cluster, on timely-dataflow). Every process runs the same command
//! with its own `-p`; the games (positions) are dealt out in chunks, and process 0 prints
//! and writes exactly what one process would — the same tables, digest and records, in
//! the same order.

use std::ops::Range;
use std::sync::{Arc, mpsc};
use std::time::Duration;

use anyhow::Context;
use gamelab_cluster::{Cluster, Timeouts};
use gamelab_core::arena::{ChunkTotals, MatchResult};
use gamelab_core::match_request::Played;
use gamelab_games::experiments::{AnyMatch, AnyTournament, GamesPlayed};

use crate::recording::Output;

#[derive(clap::Args, Debug, Clone)]
pub struct ClusterArgs {
    /// Run on a cluster: this process is one of several started with the same command,
    /// each with its own `-p`; timely's arguments follow `--` (`-w WORKERS` per process,
    /// `-n PROCESSES`, `-p INDEX`, `-h HOSTFILE` of `host:port` lines). Process 0 prints
    /// (and writes) what one process would.
    #[arg(long)]
    pub cluster: bool,
    /// With --cluster: the longest a connected process may stay silent (frozen, or cut off)
    /// before the run is abandoned.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = crate::limits::seconds)]
    pub cluster_timeout: f64,
    /// With --cluster: seconds to wait for every other process to connect.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = crate::limits::seconds)]
    pub cluster_connect_timeout: f64,
    /// timely's arguments, after `--`.
    #[arg(last = true, value_name = "TIMELY_ARGS")]
    pub timely: Vec<String>,
}

impl ClusterArgs {
    /// The cluster asked for, if any.
    pub fn cluster(&self) -> anyhow::Result<Option<Cluster>> {
        if !self.cluster {
            anyhow::ensure!(
                self.timely.is_empty(),
                "the arguments after `--` ({}) are a cluster's; give --cluster to run on one",
                self.timely.join(" ")
            );
            return Ok(None);
        }
        crate::sigpipe::report_closed_sockets();
        let timeouts = Timeouts {
            connect: Duration::from_secs_f64(self.cluster_connect_timeout),
            silence: Duration::from_secs_f64(self.cluster_timeout),
        };
        Ok(Some(Cluster::from_args(&self.timely, timeouts)?))
    }
}

/// What a process other than process 0 says on its way out (on standard error: its
/// standard output stays empty). Returns the nothing it prints.
pub fn helper_done() -> String {
    eprintln!("this process's share is done; process 0 prints the results");
    String::new()
}

/// Chunks of `total` units for the cluster's workers: each gets several, so that one slow
/// chunk does not keep the others waiting at the end; at most a few thousand units each.
fn chunks_for(cluster: &Cluster, total: u64) -> Vec<Range<u64>> {
    let size = (total / (cluster.workers() as u64 * 16)).clamp(1, 4096);
    gamelab_cluster::chunks(total, size)
}

/// Runs `work` over `chunks` on the cluster while this thread takes the results in chunk
/// order (on process 0; elsewhere there are none) and hands them to `take`.
fn gather<R, W>(
    cluster: &Cluster,
    chunks: Vec<Range<u64>>,
    work: W,
    mut take: impl FnMut(usize, R) -> anyhow::Result<()>,
) -> anyhow::Result<()>
where
    R: serde::Serialize + serde::de::DeserializeOwned + Clone + Send + 'static,
    W: Fn(Range<u64>) -> R + Send + Sync + 'static,
{
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        let runner = scope.spawn(move || {
            cluster.run(chunks, work, move |index, result| {
                let _ = tx.send((index, result));
            })
        });
        let mut taken = Ok(());
        for (index, result) in rx {
            if taken.is_ok() {
                taken = take(index, result);
            }
        }
        runner
            .join()
            .map_err(|_| anyhow::anyhow!("the cluster's runner failed"))??;
        taken
    })
}

/// A match's games on the cluster, written to `output` in game order by process 0. The
/// result is process 0's (the other processes get `None`).
pub fn play_match(
    cluster: &Cluster,
    prepared: Arc<dyn AnyMatch>,
    output: Option<&Output>,
) -> anyhow::Result<Option<Played>> {
    let chunks = chunks_for(cluster, prepared.games_per_side().saturating_mul(2));
    let format = output.map(|o| o.format);
    let work = move |range| prepared.play_range(range, format);
    let mut result = MatchResult::new();
    let mut add = |shard: GamesPlayed, lines: &mut dyn FnMut(&[String]) -> std::io::Result<()>| {
        result.add(&shard.totals);
        let shard_lines = shard.lines.map_err(anyhow::Error::msg)?;
        lines(&shard_lines)?;
        anyhow::Ok(())
    };
    // Only process 0 writes: the others, on the same machine, would race it to the
    // same file with no games in theirs.
    match output.filter(|_| cluster.is_leader()) {
        None => gather(cluster, chunks, work, |_, shard| {
            add(shard, &mut |_| Ok(()))
        })?,
        Some(out) => {
            let mut failed = None;
            gamelab_core::files::write_atomically(out.path, |w| {
                let ran = gather(cluster, chunks, work, |_, shard| {
                    add(shard, &mut |lines| {
                        lines.iter().try_for_each(|line| writeln!(w, "{line}"))
                    })
                });
                if let Err(e) = ran {
                    failed = Some(e);
                    return Err(std::io::Error::other("the run failed"));
                }
                Ok(())
            })
            .map_err(|e| failed.take().unwrap_or_else(|| e.into()))
            .with_context(|| format!("cannot write the games to {}", out.path.display()))?;
        }
    }
    Ok(cluster.is_leader().then_some(Played {
        result,
        interrupted: false,
    }))
}

/// A round robin's matches on the cluster, each pair's games dealt out like a match's:
/// every pair's result on process 0, in pair order.
pub fn play_tournament(
    cluster: &Cluster,
    prepared: Arc<dyn AnyTournament>,
) -> anyhow::Result<Option<Vec<MatchResult>>> {
    let pairs = prepared.pairs().len();
    let per_pair = prepared.games_per_side().saturating_mul(2);
    // Chunks of each pair's games in turn, never across two pairs.
    let mut chunks = Vec::new();
    for k in 0..pairs as u64 {
        let offset = k * per_pair;
        chunks.extend(
            chunks_for(cluster, per_pair)
                .into_iter()
                .map(|r| r.start + offset..r.end + offset),
        );
    }
    let work = move |range: Range<u64>| {
        let k = range.start / per_pair;
        let local = range.start - k * per_pair..range.end - k * per_pair;
        (k, prepared.play_range(k as usize, local))
    };
    let mut results = vec![MatchResult::new(); pairs];
    gather(
        cluster,
        chunks,
        work,
        |_, (k, totals): (u64, ChunkTotals)| {
            results[k as usize].add(&totals);
            Ok(())
        },
    )?;
    Ok(cluster.is_leader().then_some(results))
}

/// Runs `solve` on each of `count` items (an FFO suite's positions), one a chunk, and
/// hands each result to `show` in order on process 0.
pub fn solve_each<R>(
    cluster: &Cluster,
    count: usize,
    solve: impl Fn(usize) -> R + Send + Sync + 'static,
    show: impl FnMut(usize, R) -> anyhow::Result<()>,
) -> anyhow::Result<()>
where
    R: serde::Serialize + serde::de::DeserializeOwned + Clone + Send + 'static,
{
    let chunks = gamelab_cluster::chunks(count as u64, 1);
    gather(
        cluster,
        chunks,
        move |range: Range<u64>| solve(range.start as usize),
        show,
    )
}
