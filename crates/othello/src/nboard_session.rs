//! The engine side of the NBoard protocol: a gamelab Othello AI answering the commands
//! NBoard (or anything else that drives engines that way) sends, one line at a time.
//! `gamelab nboard` runs it on standard input and output.
//!
//! Understood: `nboard <version>`, `set depth <n>`, `set game <GGF>`, `set contempt <n>`,
//! `move <move>[/<eval>[/<time>]]`, `hint <n>`, `go`, `ping <n>`, `learn`, `analyze`,
//! `quit`. Replies: `set myname`, `pong`, `=== <move>/<eval>/<time>` (and `nodestats
//! <nodes> <seconds>` from an AI that searches), `search <move> <eval> 0 <depth>`,
//! `status`, `learned`. Anything else, and any command that cannot be
//! carried out, gets one `status error: …` line; the engine goes on. A hint from the
//! engine sends its `search` lines level by level up to the depth, as each level is done
//! (the GUI shows them deepening); a command that comes meanwhile ends the hint after the
//! levels sent (see [`Session::stop_hints_with`]).

use std::time::Instant;

use gamelab_core::registry::PreparedSpec;
use gamelab_core::{Agent, AgentSpec, FileAccess, Game, Registry, Side, SpecError};

use crate::{Move, Othello, ggf};

/// One engine's state between commands.
pub struct Session {
    registry: Registry<Othello>,
    spec: AgentSpec,
    /// `spec` prepared: its files read when the session started.
    prepared: PreparedSpec,
    agent: Box<dyn Agent<Othello>>,
    /// The parameter `set depth` sets, when the AI has one.
    depth_param: Option<&'static str>,
    depth: Option<i64>,
    start: Othello,
    moves: Vec<Move>,
    /// Set by `quit`: the caller reads no more lines.
    pub quit: bool,
    /// Raised when the next command has come (see [`Session::stop_hints_with`]).
    hint_stop: Option<gamelab_core::StopFlag>,
}

/// The most plies `set depth` takes (NBoard offers 1 to 60).
const MAX_DEPTH: i64 = 60;

impl Session {
    /// A session of the AI `spec` names (see `gamelab ais --game othello`).
    pub fn new(spec: &str) -> Result<Session, SpecError> {
        let registry = crate::ai::registry();
        let prepared = registry.prepare(spec, &FileAccess::Any)?;
        let agent = registry.build_prepared(&prepared)?;
        let spec = AgentSpec::parse(spec)?;
        let entry = registry
            .find(&spec.name)
            .expect("an AI that was built is in the registry");
        let depth_param = ["level", "depth"]
            .into_iter()
            .find(|name| entry.params.iter().any(|p| p.name == *name));
        // The spec's, else the parameter's default.
        let params = entry.params_from(&spec)?;
        let depth = depth_param.and_then(|name| match params.value(name) {
            gamelab_core::registry::Value::Int(d) => Some(*d),
            _ => None,
        });
        Ok(Session {
            registry,
            spec,
            prepared,
            agent,
            depth_param,
            depth,
            start: Othello::new(),
            moves: Vec::new(),
            quit: false,
            hint_stop: None,
        })
    }

    /// Hints end, after the levels already sent, once `flag` is raised: the caller raises
    /// it when the next command comes, as a GUI that asks for something else expects.
    /// Only hints watch it: a move asked for with `go` is never cut short.
    pub fn stop_hints_with(&mut self, flag: gamelab_core::StopFlag) {
        self.hint_stop = Some(flag);
    }

    fn position(&self) -> Othello {
        let mut pos = self.start.clone();
        for &mv in &self.moves {
            pos.play_unchecked(mv);
        }
        pos
    }

    /// The replies to one line.
    pub fn handle(&mut self, line: &str) -> Vec<String> {
        let mut replies = Vec::new();
        self.handle_streaming(line, &mut |reply| replies.push(reply));
        replies
    }

    /// [`Session::handle`], each reply handed to `emit` as soon as it is known: a
    /// `hint` from an AI that deepens sends its `search` lines level by level, so that
    /// the GUI shows them growing deeper.
    pub fn handle_streaming(&mut self, line: &str, emit: &mut dyn FnMut(String)) {
        let trimmed = line.trim();
        if let Some(rest) = trimmed.strip_prefix("hint")
            && (rest.is_empty() || rest.starts_with(char::is_whitespace))
        {
            if let Err(e) = self.hint(rest.trim(), emit) {
                emit(format!("status error: {e}"));
            }
            return;
        }
        for reply in self.handle_one(line) {
            emit(reply);
        }
    }

    /// The replies to one line other than `hint`.
    fn handle_one(&mut self, line: &str) -> Vec<String> {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let result = match command {
            "" => Ok(Vec::new()),
            "nboard" => Ok(vec![format!("set myname gamelab-{}", self.spec.name)]),
            "ping" => Ok(vec![format!("pong {rest}")]),
            "set" => self.set(rest),
            "move" => self.play(rest).map(|()| Vec::new()),
            "go" => self.go(),
            // `handle_streaming` answers hints before they get here.
            "hint" => Err("`hint` is answered as it streams".into()),
            "learn" => Ok(vec!["learned".to_string()]),
            "analyze" => self.analyze(),
            "quit" => {
                self.quit = true;
                Ok(Vec::new())
            }
            other => Err(format!(
                "unknown command `{other}`; expected nboard, set, move, go, hint, ping, learn, analyze or quit"
            )),
        };
        result.unwrap_or_else(|e| vec![format!("status error: {e}")])
    }

    fn set(&mut self, rest: &str) -> Result<Vec<String>, String> {
        let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim();
        match what {
            "depth" => {
                let depth: i64 = value
                    .parse()
                    .ok()
                    .filter(|d| (1..=MAX_DEPTH).contains(d))
                    .ok_or_else(|| {
                        format!("`set depth {value}`: expected a depth from 1 to {MAX_DEPTH}")
                    })?;
                let Some(param) = self.depth_param else {
                    return Ok(vec![format!(
                        "status {} has no depth to set",
                        self.spec.name
                    )]);
                };
                let mut spec = self.spec.clone();
                spec.params.retain(|(n, _)| n != param);
                spec.params.push((param.to_string(), depth.to_string()));
                // The files the session started with, not read again.
                let prepared = self
                    .registry
                    .prepare_from(&self.prepared, &spec.to_string(), &FileAccess::Any)
                    .map_err(|e| format!("`set depth {depth}`: {e}"))?;
                self.agent = self
                    .registry
                    .build_prepared(&prepared)
                    .map_err(|e| format!("`set depth {depth}`: {e}"))?;
                self.spec = spec;
                self.prepared = prepared;
                self.depth = Some(depth);
                Ok(Vec::new())
            }
            "game" => {
                let game = ggf::parse_one(value).map_err(|e| format!("`set game`: {e}"))?;
                self.start = game.start.clone();
                self.moves = game.plain_moves();
                Ok(Vec::new())
            }
            // Draws are scored as draws whatever the contempt.
            "contempt" => value
                .parse::<i64>()
                .map(|_| Vec::new())
                .map_err(|_| format!("`set contempt {value}`: expected a whole number")),
            other => Err(format!(
                "unknown setting `{other}`; expected depth, game or contempt"
            )),
        }
    }

    /// `move F5[/eval/time]` (or `PA`): played on the current game.
    fn play(&mut self, rest: &str) -> Result<(), String> {
        let text = rest.split('/').next().unwrap_or("").trim();
        let mv = ggf::read_move(text)
            .ok_or_else(|| format!("`move {rest}`: `{text}` is not a square (a1 to h8) or PA"))?;
        let mut pos = self.position();
        if pos.pass_if_forced(mv) {
            self.moves.push(Move::Pass);
        }
        pos.check_move(mv)
            .map_err(|e| format!("`move {rest}`: {e}"))?;
        self.moves.push(mv);
        Ok(())
    }

    fn go(&mut self) -> Result<Vec<String>, String> {
        let pos = self.position();
        if pos.is_over() {
            return Err("`go`: the game is over".into());
        }
        let started = Instant::now();
        let side = if pos.black_to_move() {
            Side::First
        } else {
            Side::Second
        };
        let mut rng = gamelab_core::game_rng(0, self.moves.len() as u64, side);
        let mv = self.agent.choose(&pos, &mut rng);
        let value = self.agent.analyst().and_then(|a| a.value(&pos));
        let seconds = started.elapsed().as_secs_f64();
        let mut replies = vec![match value {
            Some(v) => format!("=== {}/{v:+.2}/{seconds:.3}", ggf::write_move(mv)),
            None => format!("=== {}", ggf::write_move(mv)),
        }];
        // What the search did, for the GUI's statistics (AIs that search).
        if let Some(stats) = self.agent.analyst().and_then(|a| a.last_search()) {
            replies.push(format!("nodestats {} {seconds:.3}", stats.nodes));
        }
        Ok(replies)
    }

    /// `hint N`: the N best moves by the AI's values, `search MOVE EVAL 0 DEPTH` lines
    /// between `status analysing` and `status`. An AI that deepens (the engine) sends the
    /// N best of every level up to the depth set (`set depth`, else its own level) as
    /// each is done; another sends its values once, at the depth set.
    fn hint(&mut self, rest: &str, emit: &mut dyn FnMut(String)) -> Result<(), String> {
        let n: usize = rest
            .parse()
            .ok()
            .filter(|&n| n >= 1)
            .ok_or_else(|| format!("`hint {rest}`: expected a number of moves, 1 or more"))?;
        let pos = self.position();
        if pos.is_over() {
            return Err("`hint`: the game is over".into());
        }
        let write = |scored: &mut Vec<(Move, f64)>, depth: i64, emit: &mut dyn FnMut(String)| {
            scored.sort_by(|a, b| b.1.total_cmp(&a.1));
            for &(mv, v) in scored.iter().take(n) {
                emit(format!("search {} {v:+.2} 0 {depth}", ggf::write_move(mv)));
            }
        };
        if let Some(depth) = self.depth {
            let mut deepened = false;
            if let Some(flag) = &self.hint_stop {
                self.agent.set_stop(flag);
            }
            // NBoard's N best moves are the analyst's N best lines: a multi-line search
            // spends little on the moves left out.
            let analyst = self.agent.analyst();
            let end = analyst.and_then(|a| {
                a.deepen_lines(&pos, n, &mut |step| {
                    // A level cut short by the next command: what was sent stands.
                    if step.ahead().next().is_some() {
                        return std::ops::ControlFlow::Break(());
                    }
                    if !deepened {
                        emit("status analysing".to_string());
                    }
                    deepened = true;
                    let mut scored: Vec<(Move, f64)> =
                        step.scores.iter().map(|s| (s.mv, s.score)).collect();
                    // An AI that values moves once does so at the depth set.
                    let level = step.level.map_or(depth, i64::from);
                    write(&mut scored, level, emit);
                    if level >= depth {
                        std::ops::ControlFlow::Break(())
                    } else {
                        std::ops::ControlFlow::Continue(())
                    }
                })
            });
            if self.hint_stop.is_some() {
                self.agent.set_stop(&gamelab_core::StopFlag::default());
            }
            // Stopped by the next command, what was sent stands; else the levels were sent
            // unless the AI values no moves.
            if end == Some(gamelab_core::DeepeningEnd::Stopped) || (end.is_some() && deepened) {
                emit("status".to_string());
                return Ok(());
            }
        }
        let mut scored = Vec::new();
        for mv in pos.legal_moves() {
            let mut after = pos.clone();
            after.play_unchecked(mv);
            let value = if after.is_over() {
                let (b, w) = after.counts();
                let diff = f64::from(b) - f64::from(w);
                Some(if pos.black_to_move() { diff } else { -diff })
            } else {
                self.agent
                    .analyst()
                    .and_then(|a| a.value(&after))
                    .map(|v| -v)
            };
            let Some(value) = value else {
                emit(format!(
                    "status {} gives no values; `go` asks it for its move",
                    self.spec.name
                ));
                return Ok(());
            };
            scored.push((mv, value));
        }
        emit("status analysing".to_string());
        write(&mut scored, self.depth.unwrap_or(1), emit);
        emit("status".to_string());
        Ok(())
    }

    /// `analyze`: the AI's value of every position of the game, from the mover's side.
    fn analyze(&mut self) -> Result<Vec<String>, String> {
        let mut pos = self.start.clone();
        let mut replies = vec!["status analysing".to_string()];
        for ply in 0..=self.moves.len() {
            if !pos.is_over()
                && let Some(v) = self.agent.analyst().and_then(|a| a.value(&pos))
            {
                replies.push(format!("analysis {ply} {v:+.2}"));
            }
            if let Some(&mv) = self.moves.get(ply) {
                pos.play_unchecked(mv);
            }
        }
        replies.push("status".to_string());
        Ok(replies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_depth_keeps_the_model_the_session_started_with() {
        let (mut session, _dir) =
            crate::ai::started_then_model_damaged(|spec| Session::new(spec).unwrap());
        // A new depth builds the AI again: from the bytes read when the session started,
        // not from the file as it is now.
        assert!(session.handle("set depth 2").is_empty());
        assert_eq!(session.depth, Some(2));
        let answer = session.handle("go");
        assert!(
            answer.iter().any(|line| line.starts_with("=== ")),
            "{answer:?}"
        );
    }
}
