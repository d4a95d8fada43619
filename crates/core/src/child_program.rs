//! An outside program driven line by line over its standard input and output: an engine
//! that speaks a text protocol (NBoard, GTP), with a time limit on every wait and a stop
//! flag that ends a wait at once. The protocols themselves live with their games; this is
//! the part they share — starting the program, sending a line, reading the next one
//! within a deadline, and ending the program.
//!
//! Nothing the program does is unbounded for gamelab: a line is at most 1 MiB, an answer
//! (everything printed between two requests) at most [`MAX_ANSWER_LINES`] lines and
//! [`MAX_ANSWER_BYTES`] bytes, and lines wait in a queue of [`QUEUE`] (a program that
//! prints faster than it is read waits on its own output). The program runs in a process
//! group of its own, killed as a whole, so a wrapper script's children end with it; when
//! the program itself ends, its group is killed then, so that a child of it that holds its
//! output open cannot keep a wait going until the timeout.
//!
//! `cat`, which answers each line with itself:
//!
//! ```
//! use std::time::Duration;
//! use gamelab_core::child_program::{ChildProgram, ProgramError};
//!
//! let mut cat = ChildProgram::new("cat", Duration::from_secs(60))?;
//! assert!(!cat.is_running(), "started on demand");
//! cat.start()?;
//! cat.send("hello")?;
//! let deadline = cat.deadline();
//! assert_eq!(cat.next_line(deadline, "an echo")?, "hello");
//! cat.kill();
//! assert!(!cat.is_running());
//!
//! let missing = ChildProgram::new("no-such-program-here --flag", Duration::from_secs(1));
//! assert_eq!(missing.err(), Some(ProgramError::NotInPath("no-such-program-here".into())));
//! # Ok::<(), ProgramError>(())
//! ```

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::StopFlag;

/// What went wrong with an outside program. The messages say what the program did, for a
/// forfeit's reason or an error naming the program before them.
#[derive(Clone, Debug, Error, PartialEq)]
pub enum ProgramError {
    #[error("cannot read the command `{command}`: {reason}")]
    Command { command: String, reason: String },
    #[error("the command is empty; give the program to run")]
    EmptyCommand,
    #[error("`{0}` is not a program that can be run")]
    NotRunnable(String),
    #[error("no program `{0}` in PATH")]
    NotInPath(String),
    #[error("cannot start it: {0}")]
    Start(String),
    #[error("cannot talk to it (no standard input or output)")]
    NoPipes,
    #[error("it stopped reading its input (it has probably ended)")]
    InputClosed,
    #[error("the match was stopped")]
    Stopped,
    #[error("{what} did not come within {seconds} s")]
    TimedOut { what: String, seconds: f64 },
    #[error("it printed more than {MAX_ANSWER_LINES} lines or {} MiB while {what} was awaited", MAX_ANSWER_BYTES >> 20)]
    TooMuch { what: String },
    #[error("it {printed} while {what} was awaited")]
    BadLine { printed: &'static str, what: String },
    #[error("{ended} while {what} was awaited")]
    Ended { ended: String, what: String },
}

/// A program run as a child process, started on demand and kept until it fails.
pub struct ChildProgram {
    /// The program and its arguments.
    command: Vec<String>,
    /// The longest one answer may take.
    timeout: Duration,
    running: Option<Running>,
    stop: Option<StopFlag>,
    /// What the program has printed since the last request.
    answer: AnswerSize,
}

#[derive(Default)]
struct AnswerSize {
    lines: usize,
    bytes: usize,
}

/// The started program: its input, and its output's lines as a reader thread hands them on.
struct Running {
    child: Child,
    input: ChildStdin,
    lines: Receiver<Result<String, BadLine>>,
    /// Whether the program was seen to have ended and its process group was killed.
    group_killed: bool,
}

/// Why a line of the program's output cannot be read.
enum BadLine {
    NotText,
    TooLong,
    Unreadable,
}

/// How often a wait for the program looks at the stop flag.
const STOP_CHECK: Duration = Duration::from_millis(50);

/// The longest line read from a program: no protocol needs more, and a program that
/// prints without end must not fill the memory.
const MAX_LINE: usize = 1 << 20;

/// The most lines a program may print in answer to one request (NBoard's `status`
/// lines, GTP's blank lines and the like included): far more than any engine prints while
/// it thinks, and few enough that one which never stops talking forfeits soon.
pub const MAX_ANSWER_LINES: usize = 100_000;

/// The most bytes a program may print in answer to one request.
pub const MAX_ANSWER_BYTES: usize = 64 << 20;

/// How many lines read from the program wait to be taken.
pub const QUEUE: usize = 64;

impl ChildProgram {
    /// A program run as `command` (the program and its arguments, split as a shell would)
    /// that may take up to `timeout` to answer. The program must be found now: a missing
    /// one is an error at once rather than a failure at every move.
    pub fn new(command: &str, timeout: Duration) -> Result<ChildProgram, ProgramError> {
        let words = shell_words::split(command).map_err(|e| ProgramError::Command {
            command: command.to_string(),
            reason: e.to_string(),
        })?;
        let Some(program) = words.first() else {
            return Err(ProgramError::EmptyCommand);
        };
        find_program(program)?;
        Ok(ChildProgram {
            command: words,
            timeout,
            running: None,
            stop: None,
            answer: AnswerSize::default(),
        })
    }

    /// The program's name, for messages.
    pub fn name(&self) -> &str {
        &self.command[0]
    }

    /// Whether the program has been started (and not killed since).
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// A wait for the program ends when this flag is raised.
    pub fn set_stop(&mut self, stop: &StopFlag) {
        self.stop = Some(stop.clone());
    }

    /// Starts the program, its standard error discarded, as the leader of a new process
    /// group (see [`ChildProgram::kill`]).
    pub fn start(&mut self) -> Result<(), ProgramError> {
        let mut child = Command::new(&self.command[0])
            .args(&self.command[1..])
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ProgramError::Start(e.to_string()))?;
        let (input, output) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => return Err(ProgramError::NoPipes),
        };
        let (tx, lines) = mpsc::sync_channel(QUEUE);
        std::thread::spawn(move || {
            let mut output = BufReader::new(output);
            loop {
                let line = read_line(&mut output);
                let failed = !matches!(line, Some(Ok(_)));
                if line.is_none_or(|line| tx.send(line).is_err()) || failed {
                    break;
                }
            }
        });
        self.running = Some(Running {
            child,
            input,
            lines,
            group_killed: false,
        });
        Ok(())
    }

    /// Sends one line, a new request: the program's answer is counted from here.
    pub fn send(&mut self, line: &str) -> Result<(), ProgramError> {
        self.answer = AnswerSize::default();
        let running = self
            .running
            .as_mut()
            .expect("started before anything is sent");
        // One write with its newline: a line short enough for the pipe's atomic writes
        // reaches the program whole or not at all, even if this process is stopped or
        // killed as it sends (`writeln!` writes the line and its newline apart).
        running
            .input
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| running.input.flush())
            .map_err(|_| ProgramError::InputClosed)
    }

    /// The time by which an answer asked for now must have come.
    pub fn deadline(&self) -> Instant {
        Instant::now() + self.timeout
    }

    /// The program's next line, trimmed, if it comes by `deadline`; `what` (what is
    /// awaited) goes into the error otherwise.
    pub fn next_line(&mut self, deadline: Instant, what: &str) -> Result<String, ProgramError> {
        let timeout = self.timeout;
        let running = self.running.as_mut().expect("started before it is read");
        loop {
            if self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                return Err(ProgramError::Stopped);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(ProgramError::TimedOut {
                    what: what.to_string(),
                    seconds: timeout.as_secs_f64(),
                });
            }
            match running.lines.recv_timeout(left.min(STOP_CHECK)) {
                Ok(Ok(line)) => {
                    self.answer.lines += 1;
                    self.answer.bytes += line.len() + 1;
                    if self.answer.lines > MAX_ANSWER_LINES || self.answer.bytes > MAX_ANSWER_BYTES
                    {
                        return Err(ProgramError::TooMuch {
                            what: what.to_string(),
                        });
                    }
                    return Ok(line.trim().to_string());
                }
                Ok(Err(bad)) => {
                    let printed = match bad {
                        BadLine::NotText => "printed something that is not text",
                        BadLine::TooLong => "printed a line longer than 1 MiB",
                        BadLine::Unreadable => "could not be read",
                    };
                    return Err(ProgramError::BadLine {
                        printed,
                        what: what.to_string(),
                    });
                }
                Err(RecvTimeoutError::Timeout) => {
                    // A program that has ended while a process it started still holds
                    // its output open would leave that output open until the timeout.
                    // Its group is killed: the output then ends after what the program
                    // printed (still read first), and it forfeits at once.
                    if !running.group_killed && matches!(running.child.try_wait(), Ok(Some(_))) {
                        kill_group(&running.child);
                        running.group_killed = true;
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let ended = wait_briefly(&mut running.child)
                        .map_or("it closed its output".to_string(), |s| {
                            format!("it ended ({s})")
                        });
                    return Err(ProgramError::Ended {
                        ended,
                        what: what.to_string(),
                    });
                }
            }
        }
    }

    /// Ends the program at once, with every process of its group (a wrapper script's
    /// children too); it is started afresh when next needed.
    pub fn kill(&mut self) {
        if let Some(mut running) = self.running.take() {
            kill_group(&running.child);
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }
}

impl Drop for ChildProgram {
    fn drop(&mut self) {
        if let Some(running) = &mut self.running {
            // Asked to leave first (both protocols say `quit`; an engine may save what it
            // learned); ended, with what it started and left behind, if it has not left
            // soon after (`kill`).
            let _ = writeln!(running.input, "quit").and_then(|()| running.input.flush());
            wait_briefly(&mut running.child);
        }
        self.kill();
    }
}

/// Sends SIGKILL to the process group `child` leads. A group's id is not given to a new
/// process while any member lives, so this reaches only what the program started.
fn kill_group(child: &Child) {
    if let Ok(id) = i32::try_from(child.id()) {
        let _ = nix::sys::signal::killpg(nix::unistd::Pid::from_raw(id), nix::sys::signal::SIGKILL);
    }
}

/// The next line of `output` without its line end (`None` at the end), at most
/// [`MAX_LINE`] bytes.
fn read_line(output: &mut impl BufRead) -> Option<Result<String, BadLine>> {
    let mut line = Vec::new();
    match output
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut line)
    {
        Ok(0) => return None,
        Ok(_) => {}
        Err(_) => return Some(Err(BadLine::Unreadable)),
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
    } else if line.len() > MAX_LINE {
        return Some(Err(BadLine::TooLong));
    }
    Some(String::from_utf8(line).map_err(|_| BadLine::NotText))
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

/// A long line cut for a message.
pub fn shorten(line: &str) -> String {
    const MOST: usize = 80;
    match line.char_indices().nth(MOST) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}

/// Whether `program` can be run: a path to an executable file, or a name found in `PATH`.
fn find_program(program: &str) -> Result<(), ProgramError> {
    let runnable = |path: &std::path::Path| {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && executable(&m))
    };
    if program.contains('/') {
        return if runnable(std::path::Path::new(program)) {
            Ok(())
        } else {
            Err(ProgramError::NotRunnable(program.to_string()))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    if std::env::split_paths(&path).any(|dir| runnable(&dir.join(program))) {
        Ok(())
    } else {
        Err(ProgramError::NotInPath(program.to_string()))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(text: &[u8]) -> Vec<Result<String, &'static str>> {
        let mut output = std::io::Cursor::new(text.to_vec());
        std::iter::from_fn(|| read_line(&mut output))
            .map(|line| {
                line.map_err(|bad| match bad {
                    BadLine::NotText => "not text",
                    BadLine::TooLong => "too long",
                    BadLine::Unreadable => "unreadable",
                })
            })
            .collect()
    }

    #[test]
    fn lines_are_read_without_their_ends_and_up_to_a_mebibyte() {
        assert_eq!(
            lines_of(b"= E6\r\n\n?2 no\nlast"),
            [
                Ok("= E6".into()),
                Ok(String::new()),
                Ok("?2 no".into()),
                Ok("last".into())
            ]
        );
        assert_eq!(lines_of(b"\xff\xfe\n"), [Err("not text")]);
        let mut long = vec![b'x'; MAX_LINE];
        long.push(b'\n');
        assert_eq!(lines_of(&long), [Ok("x".repeat(MAX_LINE))]);
        long.insert(0, b'x');
        assert_eq!(lines_of(&long)[0], Err("too long"));
    }

    #[test]
    fn a_program_that_prints_without_end_fails_at_the_mebibyte() {
        let mut program =
            ChildProgram::new("sh -c 'yes x | tr -d \"\\n\"'", Duration::from_secs(20)).unwrap();
        program.start().unwrap();
        let deadline = program.deadline();
        let err = program.next_line(deadline, "a line").unwrap_err();
        assert_eq!(
            err.to_string(),
            "it printed a line longer than 1 MiB while a line was awaited"
        );
    }

    #[test]
    fn a_program_that_never_stops_talking_forfeits_at_the_answer_bound() {
        let mut program =
            ChildProgram::new("sh -c 'yes status thinking'", Duration::from_secs(600)).unwrap();
        program.start().unwrap();
        program.send("go").unwrap();
        let deadline = program.deadline();
        let mut lines = 0;
        let err = loop {
            match program.next_line(deadline, "a move") {
                Ok(line) => {
                    assert_eq!(line, "status thinking");
                    lines += 1;
                }
                Err(e) => break e,
            }
        };
        assert_eq!(lines, MAX_ANSWER_LINES);
        assert_eq!(
            err,
            ProgramError::TooMuch {
                what: "a move".into()
            }
        );
        assert_eq!(
            err.to_string(),
            "it printed more than 100000 lines or 64 MiB while a move was awaited"
        );
        // The next request is counted afresh.
        program.send("go").unwrap();
        assert!(program.next_line(deadline, "a move").is_ok());
    }

    #[test]
    fn a_program_that_ends_forfeits_at_once_though_its_child_holds_its_output() {
        // The child (`sleep`) keeps the output open; the timeout is what this would wait.
        // The program reads the request before it ends, so that sending it cannot race
        // the program's end (a pipe closed before the write: `InputClosed`).
        let mut program = ChildProgram::new(
            "sh -c 'read request; sleep 100000 & echo $!; exit 3'",
            Duration::from_secs(60),
        )
        .unwrap();
        program.start().unwrap();
        program.send("genmove black").unwrap();
        let deadline = program.deadline();
        let grandchild = program.next_line(deadline, "a move").unwrap();
        assert_eq!(
            program
                .next_line(deadline, "a move")
                .unwrap_err()
                .to_string(),
            "it ended (exit status: 3) while a move was awaited"
        );
        // Killed with the program's group.
        await_end(&grandchild);
    }

    /// Whether process `pid` has ended (gone, or a zombie no one has reaped yet).
    fn ended(pid: &str) -> bool {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).map_or(true, |stat| {
            stat.rsplit(')')
                .next()
                .unwrap()
                .trim_start()
                .starts_with('Z')
        })
    }

    /// Waits for process `pid` to end; the bound of 60 s only catches a process that
    /// outlived what should have killed it.
    fn await_end(pid: &str) {
        let mut waited = 0;
        while !ended(pid) {
            assert!(waited < 6000, "process {pid} was not killed");
            std::thread::sleep(Duration::from_millis(10));
            waited += 1;
        }
    }

    #[test]
    fn what_a_wrapper_started_is_killed_with_it() {
        let mut program = ChildProgram::new(
            "sh -c 'sleep 100000 & echo $!; wait'",
            Duration::from_secs(600),
        )
        .unwrap();
        program.start().unwrap();
        let deadline = program.deadline();
        let grandchild = program.next_line(deadline, "a pid").unwrap();
        assert!(!ended(&grandchild));
        program.kill();
        // SIGKILL is delivered before kill returns.
        await_end(&grandchild);
    }
}
