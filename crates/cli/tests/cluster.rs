//! `--cluster`: matches, tournaments, records and FFO suites shared among processes on
//! this machine (127.0.0.1, ports picked free when the test runs). Process 0 must print
//! exactly what one process prints; a peer that cannot be reached or dies ends the run
//! with an error in bounded time.

mod common;

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// The processes of one run, killed (by their PIDs) if the test ends before they do.
struct Run(Vec<Child>);

impl Drop for Run {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Run {
    /// [`process`] for each process of the run.
    fn start(dir: &Path, processes: usize, args: &[&str]) -> Run {
        Run::start_with_timeout(dir, processes, args, "30")
    }

    /// [`Run::start`] with `--cluster-timeout SECONDS`.
    fn start_with_timeout(dir: &Path, processes: usize, args: &[&str], seconds: &str) -> Run {
        let hostfile = hostfile(dir, processes);
        Run((0..processes)
            .map(|i| {
                let args = [args, &["--cluster-timeout", seconds]].concat();
                process(dir, &hostfile, processes, i, &args)
            })
            .collect())
    }

    /// Waits until process `index`'s relay engine has made its first move (the cluster
    /// formed and it plays); if the process ends first, fails with what every process said.
    fn await_playing(&mut self, events: &Path, index: usize) {
        let peer = &self.0[index];
        if common::relay_event(events, "playing", peer.id(), || child_running(peer)) {
            return;
        }
        let said: Vec<String> = std::mem::take(&mut self.0)
            .into_iter()
            .enumerate()
            .map(|(i, mut child)| {
                let _ = child.kill();
                let out = child.wait_with_output().unwrap();
                format!("process {i}: {}", String::from_utf8_lossy(&out.stderr))
            })
            .collect();
        panic!(
            "process {index} ended before it played\n{}",
            said.join("\n")
        );
    }

    /// Every process's output, once all have ended (at most `limit`).
    fn finish(mut self, limit: Duration) -> Vec<Output> {
        let started = Instant::now();
        let mut outputs = Vec::new();
        for child in std::mem::take(&mut self.0) {
            while child_running(&child) && started.elapsed() < limit {
                std::thread::sleep(Duration::from_millis(20));
            }
            let mut child = child;
            if started.elapsed() >= limit {
                let _ = child.kill();
            }
            outputs.push(child.wait_with_output().unwrap());
        }
        assert!(
            started.elapsed() < limit,
            "the run did not end within {limit:?}"
        );
        outputs
    }
}

/// A hostfile in `dir` of `processes` free ports on 127.0.0.1.
fn hostfile(dir: &Path, processes: usize) -> std::path::PathBuf {
    let hostfile = dir.join("hosts.txt");
    let hosts: Vec<String> = (0..processes)
        .map(|_| format!("127.0.0.1:{}", free_port()))
        .collect();
    std::fs::write(&hostfile, hosts.join("\n") + "\n").unwrap();
    hostfile
}

/// A port nothing listens on, for a cluster process to bind later. Not the kernel's pick
/// (`bind` to port 0): that is an ephemeral port (32768 and up on Linux), which any
/// outgoing connection on the machine, or another test's pick, can take between the pick
/// and the cluster's bind, and which a retried connect can even reach from itself. These
/// come from below that range, each port once in this test binary (the counter), spread by
/// the process id so two test runs on one machine seldom meet; a port in use is skipped.
fn free_port() -> u16 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    const FIRST: u32 = 20_000;
    const COUNT: u32 = 12_000;
    loop {
        let offset = NEXT.fetch_add(1, Ordering::Relaxed);
        assert!(
            offset < COUNT,
            "no free port left below the ephemeral range"
        );
        let port = (FIRST + (std::process::id().wrapping_mul(97) + offset) % COUNT) as u16;
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
}

/// `gamelab ARGS --cluster -- -n PROCESSES -p INDEX -h HOSTFILE`, run in `dir`.
fn process(dir: &Path, hostfile: &Path, processes: usize, index: usize, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(args)
        .args(["--cluster", "--"])
        .args(["-n", &processes.to_string(), "-p", &index.to_string(), "-h"])
        .arg(hostfile)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn child_running(child: &Child) -> bool {
    common::alive(child.id())
}

fn alone(dir: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn report(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    if let Some(o) = v.as_object_mut() {
        o.remove("elapsed_ms");
    }
    v
}

#[test]
fn two_and_three_processes_print_what_one_does() {
    let dir = tempfile::tempdir().unwrap();
    for (processes, args) in [
        (
            2,
            &[
                "match", "ai14s", "ai2", "-n", "3000", "--seed", "4", "--json",
            ][..],
        ),
        (3, &["match", "ai12s", "ai6", "-n", "2000", "--json"][..]),
        (
            2,
            &[
                "match",
                "--game",
                "othello",
                "engine:level=1",
                "greedy",
                "-n",
                "6",
                "--openings",
                "5",
                "--json",
            ][..],
        ),
        (
            3,
            &["tournament", "ai2", "ai14s", "ai6", "-n", "300", "--json"][..],
        ),
    ] {
        let expected = report(&alone(dir.path(), args));
        let outputs = Run::start(dir.path(), processes, args).finish(Duration::from_secs(120));
        assert_eq!(report(&outputs[0]), expected, "{args:?} on {processes}");
        for other in &outputs[1..] {
            assert!(other.status.success());
            assert!(other.stdout.is_empty(), "only process 0 prints");
        }
    }
}

#[test]
fn records_come_out_in_the_same_order() {
    let dir = tempfile::tempdir().unwrap();
    let args = |out: &str| {
        [
            "records",
            "--game",
            "othello",
            "engine:level=1",
            "random",
            "-n",
            "7",
            "--out",
            out,
        ]
        .map(String::from)
    };
    alone(
        dir.path(),
        &args("alone.ggf").each_ref().map(String::as_str),
    );
    let cluster_args = args("cluster.ggf");
    let outputs = Run::start(dir.path(), 2, &cluster_args.each_ref().map(String::as_str))
        .finish(Duration::from_secs(120));
    assert!(outputs.iter().all(|o| o.status.success()));
    let (a, b) = (
        std::fs::read_to_string(dir.path().join("alone.ggf")).unwrap(),
        std::fs::read_to_string(dir.path().join("cluster.ggf")).unwrap(),
    );
    assert_eq!(a.lines().count(), 14);
    assert_eq!(a, b);
}

#[test]
fn an_ffo_suite_is_solved_a_position_a_worker() {
    let dir = tempfile::tempdir().unwrap();
    let file =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/othello/ffo1-39.txt");
    let file = file.to_str().unwrap();
    let outputs =
        Run::start(dir.path(), 2, &["ffo", file, "--ids", "1-8"]).finish(Duration::from_secs(120));
    assert!(
        outputs[0].status.success(),
        "{}",
        String::from_utf8_lossy(&outputs[0].stderr)
    );
    let text = String::from_utf8_lossy(&outputs[0].stdout);
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with(' '))
        .skip(1)
        .collect();
    let ids: Vec<&str> = rows
        .iter()
        .map(|r| r.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(ids, ["1", "2", "3", "4", "5", "6", "7", "8"], "{text}");
    assert!(
        !text.contains("WRONG") && text.contains("8 positions"),
        "{text}"
    );
}

/// Each of two processes plays an Othello match of the relay engine (which says when its
/// process is playing: the cluster formed) against greedy, its records to `games.jsonl`
/// in `dir`, under `--cluster-timeout SECONDS`.
fn relay_match(dir: &Path, events: &Path, seconds: &str) -> Run {
    let relay = common::relay_engine(events, 0);
    Run::start_with_timeout(
        dir,
        2,
        &[
            "match",
            "--game",
            "othello",
            &relay,
            "greedy",
            "-n",
            "1000000",
            "--threads",
            "1",
            "--records",
            "games.jsonl",
        ],
        seconds,
    )
}

#[test]
fn a_peer_that_dies_ends_the_run_with_an_error_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let events = tempfile::tempdir().unwrap();
    let mut run = relay_match(dir.path(), events.path(), "30");
    run.await_playing(events.path(), 1);
    run.0[1].kill().unwrap();
    // A bound on a hang, not on speed: the peer's death is seen within a second.
    let outputs = run.finish(Duration::from_secs(120));
    assert!(!outputs[0].status.success());
    let err = String::from_utf8_lossy(&outputs[0].stderr);
    assert!(err.contains("the cluster lost a peer"), "{err}");
    assert!(
        !dir.path().join("games.jsonl").exists(),
        "nothing written under the final name"
    );
}

#[test]
fn a_frozen_peer_ends_the_run_with_an_error_and_no_file() {
    for (frozen, survivor) in [(1, 0), (0, 1)] {
        let dir = tempfile::tempdir().unwrap();
        let events = tempfile::tempdir().unwrap();
        let mut run = relay_match(dir.path(), events.path(), "10");
        run.await_playing(events.path(), frozen);
        let peer = &run.0[frozen];
        // Stopped, not killed: its connections stay open and say nothing.
        let stopped = Command::new("kill")
            .args(["-STOP", &peer.id().to_string()])
            .status()
            .unwrap();
        assert!(stopped.success());
        let mut survivor_child = run.0.remove(survivor);
        // A bound on a hang, not on speed: silence is told after the 10 s timeout.
        let started = Instant::now();
        while child_running(&survivor_child) && started.elapsed() < Duration::from_secs(120) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = survivor_child.kill();
        let out = survivor_child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "process {survivor}: {err}");
        assert!(
            err.contains(&format!("the cluster's process {frozen} (127.0.0.1:"))
                && err.contains("has been silent for more than 10 s"),
            "{err}"
        );
        assert!(
            !dir.path().join("games.jsonl").exists(),
            "nothing written under the final name"
        );
    }
}

#[test]
fn peers_that_never_come_are_an_error_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    let hostfile = hostfile(dir.path(), 2);
    let started = Instant::now();
    let out = process(
        dir.path(),
        &hostfile,
        2,
        0,
        &["match", "ai2", "ai2", "--cluster-connect-timeout", "2"],
    )
    .wait_with_output()
    .unwrap();
    // A bound on a hang, not on speed: the connect timeout is 2 s.
    assert!(started.elapsed() < Duration::from_secs(120));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot reach the cluster's other processes"),
        "{err}"
    );
    // Arguments are checked before anything starts.
    let out = Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args([
            "match",
            "ai2",
            "ai2",
            "--cluster",
            "--",
            "-n",
            "2",
            "-p",
            "5",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("-p 5 is not a process of -n 2"));
    let out = Command::new(env!("CARGO_BIN_EXE_gamelab"))
        .args(["match", "ai2", "ai2", "--", "-n", "2"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("give --cluster"));
}

#[test]
fn a_cluster_slower_to_form_than_the_silence_bound_still_runs() {
    // Process 1 comes more than twice the silence bound after process 0: a wait to
    // connect, not silence, so the run must go through and print what one process does.
    // (The bound is short only against the delay: a loaded machine must not starve a
    // heartbeat for that long.)
    let dir = tempfile::tempdir().unwrap();
    let hostfile = hostfile(dir.path(), 2);
    let args = ["match", "ai14s", "ai2", "-n", "200", "--json"];
    let timeouts = ["--cluster-timeout", "4", "--cluster-connect-timeout", "120"];
    let first = process(
        dir.path(),
        &hostfile,
        2,
        0,
        &[&args[..], &timeouts].concat(),
    );
    // Not a wait for an outcome: it only makes the cluster slow to form.
    std::thread::sleep(Duration::from_secs(10));
    let second = process(
        dir.path(),
        &hostfile,
        2,
        1,
        &[&args[..], &timeouts].concat(),
    );
    let outputs = Run(vec![first, second]).finish(Duration::from_secs(300));
    assert_eq!(report(&outputs[0]), report(&alone(dir.path(), &args)));
    assert!(
        outputs[1].status.success(),
        "{}",
        String::from_utf8_lossy(&outputs[1].stderr)
    );
}
