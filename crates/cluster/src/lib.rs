//! Jobs whose units are independent — the games of a match, the positions of an endgame
//! suite — on many processes and machines, with timely-dataflow's runtime (its standard
//! arguments: `-w` workers per process, `-n` processes, `-p` this process's index, `-h` a
//! file of `host:port` lines, one a process).
//!
//! The work is a list of chunks, the same on every process. Worker `k` of `W` (over all
//! processes) does the chunks `k, k + W, k + 2W, …`; each chunk's result travels through
//! the dataflow to process 0's first worker, which hands the results to the caller's sink
//! in chunk order. So process 0 sees exactly what one process would, whatever the cluster:
//! gamelab's results depend only on (seed, game index, agents).
//!
//! Failures end the run in bounded time: peers that cannot be reached within the
//! cluster's connect timeout, a peer whose connection breaks mid-run (it ended, or its
//! machine went away), and a peer that goes silent for longer than the silence timeout
//! (frozen, or cut off without its connection breaking) end this process with an error
//! naming the cause — timely itself would retry for ever, or leave the survivors waiting.
//! The two bounds are apart because starting processes on loaded or distant machines can
//! take far longer than a running peer may stay silent. Silence is told by a heartbeat:
//! every worker broadcasts its process's index several times a silence timeout, while a
//! chunk is worked on in a thread of its own; the silence clock starts once the cluster has
//! formed. A caller writing files writes them so that nothing appears under a final name
//! unless the run completed.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

mod quiet;

use serde::Serialize;
use serde::de::DeserializeOwned;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::operators::vec::Broadcast;
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

/// Why a cluster run could not be made or finished.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error(
        "cannot read the cluster's arguments ({0}); they are timely's: -w WORKERS per process, -n PROCESSES, -p INDEX of this process (0 to n-1), -h HOSTFILE (a host:port line per process)"
    )]
    Arguments(String),
    #[error("cannot start the cluster: {0}")]
    Start(String),
    #[error("a worker of this process failed: {0}")]
    Worker(String),
}

/// A cluster as this process sees it.
#[derive(Debug)]
pub struct Cluster {
    args: Vec<String>,
    /// Workers per process.
    threads: usize,
    process: usize,
    processes: usize,
    addresses: Vec<String>,
    timeouts: Timeouts,
}

/// How long a cluster waits on its peers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// For every other process to connect, from the start of [`Cluster::run`].
    pub connect: Duration,
    /// The longest a connected process may stay silent before the run is abandoned.
    pub silence: Duration,
}

/// When each process of the run was last heard from, and whether this one is done
/// listening (its share and every result are through).
struct Heartbeats {
    heard: Mutex<Vec<Instant>>,
    done: AtomicBool,
}

impl Heartbeats {
    fn hear(&self, process: usize) {
        if let Some(at) = self
            .heard
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get_mut(process)
        {
            *at = Instant::now();
        }
    }

    /// Counts every process as heard from now: the silence clock starts once the cluster
    /// has formed, however long forming it took.
    fn hear_all(&self) {
        let now = Instant::now();
        for at in self
            .heard
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter_mut()
        {
            *at = now;
        }
    }

    /// A process other than `me` that has been silent for longer than `timeout`, if any.
    fn silent(&self, me: usize, timeout: Duration) -> Option<usize> {
        let heard = self.heard.lock().unwrap_or_else(|e| e.into_inner());
        (0..heard.len()).find(|&p| p != me && heard[p].elapsed() > timeout)
    }
}

/// How often a worker says that its process is alive: four times a timeout, at most once
/// a second (and at least every 10 ms).
fn heartbeat_interval(timeout: Duration) -> Duration {
    (timeout / 4).clamp(Duration::from_millis(10), Duration::from_secs(1))
}

impl Cluster {
    /// A cluster from timely's arguments (`-w 2 -n 3 -p 0 -h hosts.txt`), whose peers must
    /// all be reached within `timeouts.connect`, and none silent for longer than
    /// `timeouts.silence` once connected.
    pub fn from_args(args: &[String], timeouts: Timeouts) -> Result<Cluster, ClusterError> {
        let mut opts = getopts::Options::new();
        timely::Config::install_options(&mut opts);
        let matches = opts
            .parse(args)
            .map_err(|e| ClusterError::Arguments(e.to_string()))?;
        if let Some(extra) = matches.free.first() {
            return Err(ClusterError::Arguments(format!(
                "`{extra}` is not one of them"
            )));
        }
        let number = |flag: &str, default: usize| -> Result<usize, ClusterError> {
            match matches.opt_str(flag) {
                None => Ok(default),
                Some(text) => text
                    .parse::<usize>()
                    .ok()
                    .filter(|&n| (1..=1024).contains(&n) || (flag == "p" && n < 1024))
                    .ok_or_else(|| {
                        ClusterError::Arguments(format!("-{flag} {text} is not a number in range"))
                    }),
            }
        };
        let (threads, processes, process) = (number("w", 1)?, number("n", 1)?, number("p", 0)?);
        if process >= processes {
            return Err(ClusterError::Arguments(format!(
                "-p {process} is not a process of -n {processes} (0 to {})",
                processes - 1
            )));
        }
        // Checked here rather than left to timely, which asserts.
        let addresses = match matches.opt_str("h") {
            Some(path) => {
                let text = std::fs::read_to_string(&path).map_err(|e| {
                    ClusterError::Arguments(format!("cannot read the hostfile {path}: {e}"))
                })?;
                let lines: Vec<String> = text
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(String::from)
                    .collect();
                if lines.len() < processes {
                    return Err(ClusterError::Arguments(format!(
                        "the hostfile {path} has {} address(es) for -n {processes} processes",
                        lines.len()
                    )));
                }
                lines
            }
            None => (0..processes)
                .map(|i| format!("localhost:{}", 2101 + i))
                .collect(),
        };
        Ok(Cluster {
            args: args.to_vec(),
            threads,
            process,
            processes,
            addresses,
            timeouts,
        })
    }

    /// Workers over all processes.
    pub fn workers(&self) -> usize {
        self.threads * self.processes
    }

    /// Whether this is process 0, which prints and writes the results.
    pub fn is_leader(&self) -> bool {
        self.process == 0
    }

    /// Runs `work` on each chunk of `chunks` (every process must give the same list), one
    /// worker a chunk, and hands each chunk's result to `sink` on process 0, in chunk order
    /// (`sink` is never called on the other processes). Returns once every chunk is done.
    pub fn run<R, W, S>(
        &self,
        chunks: Vec<Range<u64>>,
        work: W,
        sink: S,
    ) -> Result<(), ClusterError>
    where
        R: Serialize + DeserializeOwned + Clone + Send + 'static,
        W: Fn(Range<u64>) -> R + Send + Sync + 'static,
        S: FnMut(usize, R) + Send + 'static,
    {
        install_failure_hook();
        let connected = Arc::new(AtomicBool::new(self.processes == 1));
        if self.processes > 1 {
            let (connected, timeout) = (connected.clone(), self.timeouts.connect);
            let others: Vec<String> = self
                .addresses
                .iter()
                .take(self.processes)
                .enumerate()
                .filter(|&(i, _)| i != self.process)
                .map(|(_, a)| a.clone())
                .collect();
            std::thread::spawn(move || {
                std::thread::sleep(timeout);
                if !connected.load(Ordering::SeqCst) {
                    eprintln!(
                        "error: cannot reach the cluster's other processes ({}) within {} s; start every process of the run (the same command with its own -p), or check the hostfile",
                        others.join(", "),
                        timeout.as_secs_f64()
                    );
                    std::process::exit(CLUSTER_FAILURE);
                }
            });
        }
        let config = timely::Config::from_args(self.args.iter().cloned())
            .map_err(ClusterError::Arguments)?;
        let chunks = Arc::new(chunks);
        let work = Arc::new(work);
        let order = Arc::new(Mutex::new(InOrder {
            next: 0,
            waiting: BTreeMap::new(),
            sink,
        }));
        let leader = self.is_leader();
        // The workers start once standard output is back (see `quiet`).
        let go = Arc::new(std::sync::Barrier::new(self.threads + 1));
        let workers_go = go.clone();
        let quiet = quiet::OnStderr::start();
        let heartbeats = Arc::new(Heartbeats {
            heard: Mutex::new(vec![Instant::now(); self.processes]),
            done: AtomicBool::new(false),
        });
        let interval = heartbeat_interval(self.timeouts.silence);
        let (process, worker_heartbeats) = (self.process, heartbeats.clone());
        let guards = timely::execute(config, move |worker| {
            connected.store(true, Ordering::SeqCst);
            workers_go.wait();
            let (me, peers) = (worker.index(), worker.peers());
            let mut input: InputHandle<u64, CapacityContainerBuilder<Vec<(u64, R)>>> =
                InputHandle::new();
            let mut beats: InputHandle<u64, CapacityContainerBuilder<Vec<u64>>> =
                InputHandle::new();
            let probe = ProbeHandle::new();
            let order = order.clone();
            worker.dataflow(|scope| {
                scope
                    .input_from(&mut input)
                    .container::<Vec<_>>()
                    // Every result to process 0's first worker.
                    .exchange(|_| 0)
                    .inspect(move |(index, result): &(u64, R)| {
                        if leader {
                            order
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .arrive(*index as usize, result.clone());
                        }
                    })
                    .probe_with(&probe);
            });
            let heard = worker_heartbeats.clone();
            worker.dataflow(|scope| {
                scope
                    .input_from(&mut beats)
                    .container::<Vec<_>>()
                    .broadcast()
                    .inspect(move |from: &u64| heard.hear(*from as usize));
            });
            let mut last_beat: Option<Instant> = None;
            // Says that this process lives, once every `interval` it is called at.
            let mut beat_if_due = || {
                if last_beat.is_none_or(|at| at.elapsed() >= interval) {
                    beats.send(process as u64);
                    beats.flush();
                    last_beat = Some(Instant::now());
                }
            };
            beat_if_due();
            for index in (me..chunks.len()).step_by(peers) {
                // The chunk is worked on beside this thread, which goes on stepping the
                // dataflows, so that peers hear from this process while it works.
                let (done, result) = std::sync::mpsc::channel();
                let (work, range) = (work.clone(), chunks[index].clone());
                std::thread::spawn(move || done.send(work(range)));
                let result = loop {
                    match result.recv_timeout(interval) {
                        Ok(result) => break result,
                        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                            beat_if_due();
                            worker.step();
                        }
                        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                            panic!("the work on chunk {index} failed")
                        }
                    }
                };
                input.send((index as u64, result));
                // Sent on now, so that process 0 hears of chunks as they finish.
                input.flush();
                // However short the chunks, the heartbeat goes on.
                beat_if_due();
                worker.step();
            }
            input.close();
            while !probe.done() {
                beat_if_due();
                worker.step_or_park(Some(interval));
            }
            worker_heartbeats.done.store(true, Ordering::SeqCst);
        });
        drop(quiet);
        let guards = guards.map_err(ClusterError::Start)?;
        go.wait();
        if self.processes > 1 {
            let (me, timeout) = (self.process, self.timeouts.silence);
            let addresses = self.addresses.clone();
            heartbeats.hear_all();
            std::thread::spawn(move || {
                while !heartbeats.done.load(Ordering::SeqCst) {
                    std::thread::sleep(interval);
                    if let Some(p) = heartbeats.silent(me, timeout) {
                        if heartbeats.done.load(Ordering::SeqCst) {
                            return;
                        }
                        eprintln!(
                            "error: the cluster's process {p} ({}) has been silent for more than {} s (frozen, or cut off); this run is abandoned and nothing was written",
                            addresses[p],
                            timeout.as_secs_f64()
                        );
                        std::process::exit(CLUSTER_FAILURE);
                    }
                }
            });
        }
        for result in guards.join() {
            result.map_err(ClusterError::Worker)?;
        }
        Ok(())
    }
}

/// Results put back in chunk order for the sink.
struct InOrder<R, S> {
    next: usize,
    waiting: BTreeMap<usize, R>,
    sink: S,
}

impl<R, S: FnMut(usize, R)> InOrder<R, S> {
    fn arrive(&mut self, index: usize, result: R) {
        self.waiting.insert(index, result);
        while let Some(result) = self.waiting.remove(&self.next) {
            (self.sink)(self.next, result);
            self.next += 1;
        }
    }
}

/// The exit status of a run the cluster's failure ended.
pub const CLUSTER_FAILURE: i32 = 3;

/// A broken connection makes timely's network threads panic with "timely communication
/// error"; the workers would then wait for ever. This hook ends the process instead, with
/// a message saying what happened.
fn install_failure_hook() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let message = info
                .payload()
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| info.payload().downcast_ref::<&str>().copied())
                .unwrap_or("");
            if message.starts_with("timely communication error") {
                eprintln!(
                    "error: the cluster lost a peer ({message}): a process of the run ended or cannot be reached; this run is abandoned and nothing was written"
                );
                std::process::exit(CLUSTER_FAILURE);
            }
            previous(info);
        }));
    });
}

/// `total` units as contiguous chunks of about `size` (at least one unit each).
pub fn chunks(total: u64, size: u64) -> Vec<Range<u64>> {
    let size = size.max(1);
    (0..total.div_ceil(size))
        .map(|i| i * size..((i + 1) * size).min(total))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_units_in_order() {
        assert_eq!(chunks(10, 4), vec![0..4, 4..8, 8..10]);
        assert_eq!(chunks(0, 4), Vec::<Range<u64>>::new());
        assert_eq!(chunks(3, 0), vec![0..1, 1..2, 2..3]);
    }

    #[test]
    fn arguments_are_checked() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let t = Timeouts {
            connect: Duration::from_secs(1),
            silence: Duration::from_secs(1),
        };
        let c = Cluster::from_args(&args("-w 2 -n 3 -p 1"), t).unwrap();
        assert_eq!((c.workers(), c.is_leader()), (6, false));
        for bad in [
            "-p 3 -n 3",
            "-w 0",
            "-n x",
            "--what",
            "stray",
            "-n 2 -h /no/such/file",
        ] {
            assert!(Cluster::from_args(&args(bad), t).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_silence_clock_starts_when_the_cluster_forms() {
        let long_ago = Instant::now() - Duration::from_secs(20);
        let beats = Heartbeats {
            heard: Mutex::new(vec![long_ago; 3]),
            done: AtomicBool::new(false),
        };
        let bound = Duration::from_secs(10);
        assert_eq!(beats.silent(0, bound), Some(1));
        beats.hear(1);
        assert_eq!(beats.silent(0, bound), Some(2));
        beats.hear_all();
        assert_eq!(beats.silent(0, bound), None);
    }

    #[test]
    fn one_process_gives_every_result_in_order() {
        let timeouts = Timeouts {
            connect: Duration::from_secs(5),
            silence: Duration::from_secs(5),
        };
        let cluster = Cluster::from_args(&["-w".into(), "3".into()], timeouts).unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = seen.clone();
        cluster
            .run(
                chunks(100, 7),
                |r| r.clone().sum::<u64>(),
                move |i, s| sink.lock().unwrap().push((i, s)),
            )
            .unwrap();
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 15);
        assert!(seen.iter().enumerate().all(|(k, &(i, _))| i == k));
        assert_eq!(
            seen.iter().map(|&(_, s)| s).sum::<u64>(),
            (0..100).sum::<u64>()
        );
    }
}
