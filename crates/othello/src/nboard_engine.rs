//! An Othello program that speaks the NBoard protocol — Edax, Egaroucid, `gamelab nboard`
//! — as an agent like any other (`nboard:cmd=(edax -q),depth=10`).
//!
//! The program is started at its first move and kept between moves and games. For each
//! move it is sent the game so far (`set game` with a GGF record), then `ping n`; once it
//! answers `pong n`, everything before is known to be read, and `go` asks for the move
//! (`=== F5[/eval[/time]]`). A forced pass is played without asking. A program that cannot
//! be started, ends, stays silent past the time limit, prints a line the protocol does not
//! have or answers an illegal move forfeits the game with that reason (or stops the match,
//! with `on_failure=stop`); it is stopped and started afresh for the next move.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use gamelab_core::{Agent, Forfeit, Game, GameRng, StopFlag};

use crate::{Move, Othello, ggf};

/// What a failure of the program does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFailure {
    /// The game is lost, and the program is started afresh for the next one.
    Lose,
    /// The whole match stops with the reason.
    Stop,
}

/// An NBoard engine run as a child process.
pub struct NboardEngine {
    /// The program and its arguments.
    command: Vec<String>,
    /// `set depth` once started, when given.
    depth: Option<u32>,
    /// The longest the program may take to answer.
    timeout: Duration,
    on_failure: OnFailure,
    running: Option<Running>,
    pings: u64,
    stop: Option<StopFlag>,
}

/// The started program: its input, and its output's lines as a reader thread hands them on.
struct Running {
    child: Child,
    input: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
}

/// How often a wait for the program looks at the match's stop flag.
const STOP_CHECK: Duration = Duration::from_millis(50);

/// The lines an NBoard engine may print besides the answers waited for.
const PROTOCOL_LINES: [&str; 8] = [
    "status",
    "set",
    "pong",
    "===",
    "search",
    "nodestats",
    "analysis",
    "learned",
];

impl NboardEngine {
    /// An engine that runs `command` (a program and its arguments, split as a shell
    /// would). The program must be found now: a missing one is an error at once rather
    /// than a forfeit at every game.
    pub fn new(
        command: &str,
        depth: Option<u32>,
        timeout: Duration,
        on_failure: OnFailure,
    ) -> Result<NboardEngine, String> {
        let words = shell_words::split(command)
            .map_err(|e| format!("cannot read the command `{command}`: {e}"))?;
        let Some(program) = words.first() else {
            return Err("the command is empty; give the program to run".into());
        };
        find_program(program)?;
        Ok(NboardEngine {
            command: words,
            depth,
            timeout,
            on_failure,
            running: None,
            pings: 0,
            stop: None,
        })
    }

    /// The program's name, for messages.
    fn name(&self) -> &str {
        &self.command[0]
    }

    fn start(&mut self) -> Result<(), String> {
        let mut child = Command::new(&self.command[0])
            .args(&self.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start it: {e}"))?;
        let (input, output) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => return Err("cannot talk to it (no standard input or output)".into()),
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let failed = line.is_err();
                if tx.send(line).is_err() || failed {
                    break;
                }
            }
        });
        self.running = Some(Running {
            child,
            input,
            lines,
        });
        self.send("nboard 2")?;
        if let Some(depth) = self.depth {
            self.send(&format!("set depth {depth}"))?;
        }
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let running = self
            .running
            .as_mut()
            .expect("started before anything is sent");
        writeln!(running.input, "{line}")
            .and_then(|()| running.input.flush())
            .map_err(|_| "it stopped reading its input (it has probably ended)".to_string())
    }

    /// Reads lines until `wanted` accepts one, within the time limit.
    fn wait_for<T>(
        &mut self,
        what: &str,
        mut wanted: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, String> {
        let deadline = Instant::now() + self.timeout;
        let timeout = self.timeout;
        let stop = self.stop.clone();
        let running = self.running.as_mut().expect("started before it is read");
        loop {
            if stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err("the match was stopped".into());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!("no {what} within {} s", timeout.as_secs_f64()));
            }
            let line = match running.lines.recv_timeout(left.min(STOP_CHECK)) {
                Ok(Ok(line)) => line,
                Ok(Err(_)) => {
                    return Err(format!(
                        "it printed something that is not text while {what} was awaited"
                    ));
                }
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    let ended = wait_briefly(&mut running.child)
                        .map_or("it closed its output".to_string(), |s| {
                            format!("it ended ({s})")
                        });
                    return Err(format!("{ended} while {what} was awaited"));
                }
            };
            let line = line.trim();
            if let Some(found) = wanted(line) {
                return Ok(found);
            }
            let word = line.split_whitespace().next().unwrap_or("");
            if !line.is_empty() && !PROTOCOL_LINES.contains(&word) {
                return Err(format!(
                    "it printed `{}`, which the NBoard protocol does not have, while {what} was awaited",
                    shorten(line)
                ));
            }
        }
    }

    /// Asks the program for its move in `pos`.
    fn ask(&mut self, pos: &Othello) -> Result<Move, String> {
        if self.running.is_none() {
            self.start()?;
        }
        let mut start = pos.clone();
        while start.undo().is_some() {}
        let record = ggf::GgfGame::new(start, pos.history(), Vec::new())?;
        self.send(&format!("set game {}", record.write()))?;
        self.pings += 1;
        let ping = self.pings;
        self.send(&format!("ping {ping}"))?;
        let pong = format!("pong {ping}");
        self.wait_for(&format!("`{pong}`"), |line| (line == pong).then_some(()))?;
        self.send("go")?;
        let answer = self.wait_for("its move (`=== MOVE`)", |line| {
            line.strip_prefix("===").map(|rest| rest.trim().to_string())
        })?;
        let text = answer.split('/').next().unwrap_or("").trim();
        let mv = ggf::read_move(text).ok_or_else(|| {
            format!(
                "it answered `=== {}`, which names no square",
                shorten(&answer)
            )
        })?;
        pos.check_move(mv).map_err(|e| {
            format!(
                "it answered {}, which is not legal here: {e}",
                ggf::write_move(mv)
            )
        })?;
        Ok(mv)
    }

    /// Stops the program (it is started afresh at the next move).
    fn kill(&mut self) {
        if let Some(mut running) = self.running.take() {
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }
}

impl Drop for NboardEngine {
    fn drop(&mut self) {
        if let Some(running) = &mut self.running {
            // Asked to leave first (an engine may save what it learned); stopped if it
            // has not left soon after.
            let _ = writeln!(running.input, "quit").and_then(|()| running.input.flush());
            wait_briefly(&mut running.child);
        }
        self.kill();
    }
}

/// The program's exit status once it has ended, waiting a little for it.
fn wait_briefly(child: &mut Child) -> Option<std::process::ExitStatus> {
    for _ in 0..20 {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    None
}

impl Agent<Othello> for NboardEngine {
    fn choose(&mut self, game: &Othello, rng: &mut GameRng) -> Move {
        // A caller that cannot take a forfeit gets a legal move all the same.
        self.try_choose(game, rng)
            .unwrap_or_else(|_| game.legal_moves()[0])
    }

    fn try_choose(&mut self, game: &Othello, _rng: &mut GameRng) -> Result<Move, Box<Forfeit>> {
        let moves = game.legal_moves();
        if moves.len() == 1 && moves[0] == Move::Pass {
            return Ok(Move::Pass);
        }
        self.ask(game).map_err(|reason| {
            self.kill();
            Box::new(Forfeit {
                reason: format!("{}: {reason}", self.name()),
                stops_match: self.on_failure == OnFailure::Stop,
            })
        })
    }

    fn set_stop(&mut self, stop: &StopFlag) {
        self.stop = Some(stop.clone());
    }
}

/// A long line cut for a message.
fn shorten(line: &str) -> String {
    const MOST: usize = 80;
    match line.char_indices().nth(MOST) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}

/// Whether `program` can be run: a path to an executable file, or a name found in `PATH`.
fn find_program(program: &str) -> Result<(), String> {
    let runnable = |path: &std::path::Path| {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && executable(&m))
    };
    if program.contains('/') {
        return if runnable(std::path::Path::new(program)) {
            Ok(())
        } else {
            Err(format!("`{program}` is not a program that can be run"))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    if std::env::split_paths(&path).any(|dir| runnable(&dir.join(program))) {
        Ok(())
    } else {
        Err(format!("no program `{program}` in PATH"))
    }
}

#[cfg(unix)]
fn executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_: &std::fs::Metadata) -> bool {
    true
}
