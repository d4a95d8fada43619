//! The agent registry and its `name:key=value,…` spec syntax.
//!
//! One registry per game lists every AI with a summary and its typed parameters. The CLI,
//! the arena and the web app all build agents from spec strings through it, so an AI is
//! written and described once.

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, OnceLock};

use thiserror::Error;

use crate::{Agent, Game};

/// The type of a parameter's value.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamKind {
    Float {
        min: f64,
        max: f64,
    },
    Int {
        min: i64,
        max: i64,
    },
    Bool,
    Choice(&'static [&'static str]),
    Text,
    /// A file to read (a model): a path, or one of `keywords` (such as `shipped`). Where
    /// the path may point is the builder's [`FileAccess`]; the file is read once, when the
    /// spec is checked ([`Registry::prepare`]), and must be a regular file of at most
    /// `max_bytes`; an agent that parses it through [`Params::parsed`] parses it once for
    /// every agent built from that check.
    File {
        keywords: &'static [&'static str],
        max_bytes: u64,
    },
    /// A program to run, with its arguments (an external engine), which speaks
    /// `protocol` (`nboard`, `gtp`). Only where [`FileAccess::Any`] holds: a server runs no
    /// program a request names, only those it offers by name for that protocol.
    Program {
        protocol: &'static str,
    },
}

impl ParamKind {
    fn expected(&self) -> String {
        match self {
            ParamKind::Float { min, max } => format!("a number from {min} to {max}"),
            ParamKind::Int { min, max } => format!("a whole number from {min} to {max}"),
            ParamKind::Bool => "true or false".into(),
            ParamKind::Choice(options) => format!("one of {}", options.join(", ")),
            ParamKind::Text => "a non-empty text".into(),
            ParamKind::File { keywords: [], .. } => "a file name".into(),
            ParamKind::Program { .. } => {
                "a program and its arguments, in parentheses when they hold spaces or commas".into()
            }
            ParamKind::File { keywords, .. } => {
                format!("{} or a file name", keywords.join(", "))
            }
        }
    }

    fn parse(&self, text: &str) -> Option<Value> {
        match self {
            ParamKind::Float { min, max } => text
                .parse::<f64>()
                .ok()
                .filter(|x| (min..=max).contains(&x))
                .map(Value::Float),
            ParamKind::Int { min, max } => text
                .parse::<i64>()
                .ok()
                .filter(|n| (min..=max).contains(&n))
                .map(Value::Int),
            ParamKind::Bool => match text {
                "true" | "yes" | "on" | "1" => Some(Value::Bool(true)),
                "false" | "no" | "off" | "0" => Some(Value::Bool(false)),
                _ => None,
            },
            ParamKind::Choice(options) => options
                .contains(&text)
                .then(|| Value::Text(text.to_string())),
            ParamKind::Text | ParamKind::File { .. } | ParamKind::Program { .. } => {
                (!text.is_empty()).then(|| Value::Text(text.to_string()))
            }
        }
    }
}

/// A parameter's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Float(f64),
    Int(i64),
    Bool(bool),
    Text(String),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Float(x) => write!(f, "{x}"),
            Value::Int(n) => write!(f, "{n}"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Text(t) => write!(f, "{t}"),
        }
    }
}

/// One parameter of an agent: its name, type, default and meaning.
#[derive(Clone, Debug)]
pub struct ParamSpec {
    pub name: &'static str,
    pub kind: ParamKind,
    /// `None` for a parameter that must be given.
    pub default: Option<Value>,
    pub help: &'static str,
}

impl ParamSpec {
    /// A number from `min` to `max` (NaN is never in range); the range is checked when a
    /// spec is read, so the AI can rely on it.
    pub fn float(name: &'static str, default: f64, min: f64, max: f64, help: &'static str) -> Self {
        debug_assert!(
            (min..=max).contains(&default),
            "{name}'s default is out of range"
        );
        ParamSpec {
            name,
            kind: ParamKind::Float { min, max },
            default: Some(Value::Float(default)),
            help,
        }
    }

    pub fn int(name: &'static str, default: i64, min: i64, max: i64, help: &'static str) -> Self {
        ParamSpec {
            name,
            kind: ParamKind::Int { min, max },
            default: Some(Value::Int(default)),
            help,
        }
    }

    pub fn bool(name: &'static str, default: bool, help: &'static str) -> Self {
        ParamSpec {
            name,
            kind: ParamKind::Bool,
            default: Some(Value::Bool(default)),
            help,
        }
    }

    pub fn choice(
        name: &'static str,
        options: &'static [&'static str],
        default: &'static str,
        help: &'static str,
    ) -> Self {
        ParamSpec {
            name,
            kind: ParamKind::Choice(options),
            default: Some(Value::Text(default.to_string())),
            help,
        }
    }

    /// A file to read, of at most `max_bytes`, or one of `keywords`; `default: None` makes
    /// it required. The AI reads the keyword, or the file's contents with the path
    /// [`FileAccess`] allowed ([`Params::file`]).
    pub fn file(
        name: &'static str,
        default: Option<&'static str>,
        keywords: &'static [&'static str],
        max_bytes: u64,
        help: &'static str,
    ) -> Self {
        ParamSpec {
            name,
            kind: ParamKind::File {
                keywords,
                max_bytes,
            },
            default: default.map(|d| Value::Text(d.to_string())),
            help,
        }
    }

    /// A program and its arguments (required), speaking `protocol`: an AI that runs it.
    /// See [`ParamKind::Program`].
    pub fn program(name: &'static str, protocol: &'static str, help: &'static str) -> Self {
        ParamSpec {
            name,
            kind: ParamKind::Program { protocol },
            default: None,
            help,
        }
    }

    /// A text parameter; `default: None` makes it required.
    pub fn text(name: &'static str, default: Option<&str>, help: &'static str) -> Self {
        ParamSpec {
            name,
            kind: ParamKind::Text,
            default: default.map(|d| Value::Text(d.to_string())),
            help,
        }
    }
}

/// The parameter values an agent is built with: every declared parameter, given or default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Params {
    values: BTreeMap<&'static str, Value>,
    explicit: BTreeSet<&'static str>,
    /// The contents of the files that file parameters name, read by [`Registry::prepare`].
    files: BTreeMap<&'static str, FileContents>,
}

/// A file's bytes, shared by every agent built from one prepared spec, and what the first
/// agent built made of them ([`Params::parsed`]).
#[derive(Clone)]
struct FileContents(Arc<FileData>);

struct FileData {
    bytes: Box<[u8]>,
    parsed: OnceLock<Arc<dyn Any + Send + Sync>>,
}

impl FileContents {
    fn new(bytes: Vec<u8>) -> FileContents {
        FileContents(Arc::new(FileData {
            bytes: bytes.into(),
            parsed: OnceLock::new(),
        }))
    }
}

impl PartialEq for FileContents {
    fn eq(&self, other: &FileContents) -> bool {
        self.0.bytes == other.0.bytes
    }
}

impl fmt::Debug for FileContents {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} bytes", self.0.bytes.len())
    }
}

/// What a file parameter names: one of its keywords, or a file, read when the spec was
/// checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileValue<'a> {
    Keyword(&'a str),
    /// The path as [`FileAccess`] resolved it (for messages) and the file's contents.
    Read {
        path: &'a str,
        bytes: &'a [u8],
    },
}

impl Params {
    /// The value of a declared parameter. Panics on a name the agent did not declare: that
    /// is a bug in the agent's registration, not a user error.
    pub fn value(&self, name: &str) -> &Value {
        self.values
            .get(name)
            .unwrap_or_else(|| panic!("parameter `{name}` was not declared"))
    }

    pub fn float(&self, name: &str) -> f64 {
        match self.value(name) {
            Value::Float(x) => *x,
            Value::Int(n) => *n as f64,
            other => panic!("parameter `{name}` is {other:?}, not a number"),
        }
    }

    pub fn int(&self, name: &str) -> i64 {
        match self.value(name) {
            Value::Int(n) => *n,
            other => panic!("parameter `{name}` is {other:?}, not an integer"),
        }
    }

    pub fn bool(&self, name: &str) -> bool {
        match self.value(name) {
            Value::Bool(b) => *b,
            other => panic!("parameter `{name}` is {other:?}, not a boolean"),
        }
    }

    pub fn text(&self, name: &str) -> &str {
        match self.value(name) {
            Value::Text(t) => t,
            other => panic!("parameter `{name}` is {other:?}, not a text"),
        }
    }

    /// A file parameter's keyword, or the contents of the file it names. Panics on a
    /// parameter that is not a file, or whose file was not read: only
    /// [`Registry::prepare`] hands an agent its parameters, and it reads them all.
    pub fn file(&self, name: &str) -> FileValue<'_> {
        let text = self.text(name);
        match self.files.get(name) {
            Some(contents) => FileValue::Read {
                path: text,
                bytes: &contents.0.bytes,
            },
            None => FileValue::Keyword(text),
        }
    }

    /// The contents of the file a file parameter names, as `parse` makes them: parsed at
    /// the first agent built from one prepared spec, and shared by every later one (a
    /// match builds its agents again for each chunk of games, and a model takes longer to
    /// parse than a short game to play). An error is not kept: each build reports it.
    /// Panics where [`Params::file`] does, and on a parameter that names a keyword.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use gamelab_core::{Agent, AgentEntry, FileAccess, Game, GameRng, ParamSpec, Registry, SpecError};
    ///
    /// /// Plays the first legal move.
    /// struct First;
    /// impl<G: Game> Agent<G> for First {
    ///     fn choose(&mut self, game: &G, _: &mut GameRng) -> G::Move {
    ///         game.legal_moves()[0]
    ///     }
    /// }
    ///
    /// static PARSES: AtomicUsize = AtomicUsize::new(0);
    /// type TicTacToe = gamelab_ttt::Position<gamelab_ttt::board::Bitboard>;
    /// let mut registry = Registry::<TicTacToe>::new();
    /// let words = ParamSpec::file("words", None, &[], 1 << 10, "a file of words");
    /// registry.register(AgentEntry::new("first", "the first move", vec![words], |p| {
    ///     let words = p.parsed("words", |bytes| {
    ///         PARSES.fetch_add(1, Ordering::Relaxed);
    ///         String::from_utf8(bytes.to_vec()).map_err(|e| SpecError::Invalid {
    ///             agent: "first".into(),
    ///             reason: e.to_string(),
    ///         })
    ///     })?;
    ///     assert_eq!(words.as_str(), "two words");
    ///     Ok(Box::new(First))
    /// }));
    /// let dir = tempfile::tempdir().unwrap();
    /// std::fs::write(dir.path().join("w.txt"), "two words").unwrap();
    /// let spec = format!("first:words={}", dir.path().join("w.txt").display());
    /// let prepared = registry.prepare(&spec, &FileAccess::Any).unwrap();
    /// for _ in 0..3 {
    ///     registry.build_prepared(&prepared).unwrap();
    /// }
    /// assert_eq!(PARSES.load(Ordering::Relaxed), 1, "parsed once");
    /// ```
    pub fn parsed<T: Any + Send + Sync, E>(
        &self,
        name: &str,
        parse: impl FnOnce(&[u8]) -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        let data = &self
            .files
            .get(name)
            .unwrap_or_else(|| panic!("parameter `{name}` names no file"))
            .0;
        if let Some(done) = data.parsed.get()
            && let Ok(done) = Arc::clone(done).downcast::<T>()
        {
            return Ok(done);
        }
        let parsed = Arc::new(parse(&data.bytes)?);
        // Two first builds at once both parse; either result is the same.
        let _ = data.parsed.set(parsed.clone());
        Ok(parsed)
    }

    /// Whether the spec set this parameter (rather than it taking its default).
    pub fn is_explicit(&self, name: &str) -> bool {
        self.explicit.contains(name)
    }
}

/// What a user wrote to name an agent: `name` or `name:key=value,…`.
///
/// A value that itself contains `,` or `:` (such as another agent's spec) is written in
/// parentheses: `ai_abs_dls:eval_func=(ai14s:score_victory=200),maxdepth=8`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    pub name: String,
    pub params: Vec<(String, String)>,
}

impl AgentSpec {
    pub fn parse(text: &str) -> Result<AgentSpec, SpecError> {
        let syntax = |reason: &str| SpecError::Syntax {
            spec: shortened(text),
            reason: reason.to_string(),
        };
        let text_trim = text.trim();
        let (name, rest) = match text_trim.split_once(':') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (text_trim, None),
        };
        if name.is_empty() {
            return Err(syntax("the AI name is missing before `:`"));
        }
        let mut params = Vec::new();
        if let Some(rest) = rest {
            for item in split_top_level(rest).map_err(|r| syntax(&r))? {
                let item = item.trim();
                let Some((key, value)) = item.split_once('=') else {
                    return Err(syntax(&format!("`{item}` is not key=value")));
                };
                let (key, value) = (key.trim(), value.trim());
                if key.is_empty() || value.is_empty() {
                    return Err(syntax(&format!("`{item}` is not key=value")));
                }
                let value = value
                    .strip_prefix('(')
                    .and_then(|v| v.strip_suffix(')'))
                    .map_or(value, str::trim);
                if value.is_empty() {
                    return Err(syntax(&format!("`{item}` has an empty value")));
                }
                if params.iter().any(|(k, _)| k == key) {
                    return Err(syntax(&format!("`{key}` is given twice")));
                }
                params.push((key.to_string(), value.to_string()));
            }
        }
        Ok(AgentSpec {
            name: name.to_string(),
            params,
        })
    }
}

/// A spec as an error quotes it: whole, or its first 100 characters and how long it was.
fn shortened(text: &str) -> String {
    const SHOWN: usize = 100;
    match text.char_indices().nth(SHOWN) {
        Some((end, _)) => format!("{}… ({} characters)", &text[..end], text.chars().count()),
        None => text.to_string(),
    }
}

/// The deepest parentheses a spec may hold: an AI inside an AI (`mcts:playout=(…)`) is one
/// level, and each level is built in turn, so an unbounded nesting from a request or a
/// command line would overflow the stack. Real specs nest two or three deep.
pub const MAX_SPEC_NESTING: i32 = 8;

/// Splits on commas outside parentheses.
fn split_top_level(text: &str) -> Result<Vec<&str>, String> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' => {
                depth += 1;
                if depth > MAX_SPEC_NESTING {
                    return Err(format!(
                        "parentheses nested more than {MAX_SPEC_NESTING} deep; expected at most {MAX_SPEC_NESTING} levels of AIs inside AIs"
                    ));
                }
            }
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return Err("`)` without `(`".into());
                }
            }
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err("`(` without `)`".into());
    }
    parts.push(&text[start..]);
    Ok(parts)
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            let sep = if i == 0 { ':' } else { ',' };
            // In parentheses whatever would read differently bare (found by fuzzing).
            if v.contains([',', ':', '=', '(', ')']) {
                write!(f, "{sep}{k}=({v})")?;
            } else {
                write!(f, "{sep}{k}={v}")?;
            }
        }
        Ok(())
    }
}

/// Why an agent spec cannot be built. Each message says what is valid.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum SpecError {
    #[error("cannot read AI spec `{spec}`: {reason}; expected name or name:key=value,…")]
    Syntax { spec: String, reason: String },
    #[error("unknown AI `{}` for {game}; its AIs: {}", shortened(name), known.join(", "))]
    UnknownAgent {
        name: String,
        /// The game whose registry was asked ([`crate::Game::NAME`]).
        game: &'static str,
        known: Vec<String>,
    },
    #[error(
        "{agent} has no parameter `{}`; {}",
        shortened(param),
        describe_valid(valid)
    )]
    UnknownParam {
        agent: String,
        param: String,
        valid: Vec<String>,
    },
    #[error(
        "`{}` is not a valid {param} for {agent}: expected {expected}",
        shortened(value)
    )]
    BadValue {
        agent: String,
        param: String,
        value: String,
        expected: String,
    },
    #[error("{agent} needs the parameter {param} ({help})")]
    MissingParam {
        agent: String,
        param: String,
        help: String,
    },
    #[error("{agent}: {reason}")]
    Invalid { agent: String, reason: String },
}

fn describe_valid(valid: &[String]) -> String {
    if valid.is_empty() {
        "it takes no parameters".into()
    } else {
        format!("its parameters: {}", valid.join(", "))
    }
}

/// Checks the parameters of `spec` against the declarations `decls` of the AI `agent`, and
/// fills in defaults.
pub fn check_params(
    agent: &str,
    decls: &[ParamSpec],
    spec: &AgentSpec,
) -> Result<Params, SpecError> {
    let mut params = Params::default();
    for (key, text) in &spec.params {
        let Some(decl) = decls.iter().find(|p| p.name == key) else {
            return Err(SpecError::UnknownParam {
                agent: agent.to_string(),
                param: key.clone(),
                valid: decls.iter().map(|p| p.name.to_string()).collect(),
            });
        };
        let value = decl.kind.parse(text).ok_or_else(|| SpecError::BadValue {
            agent: agent.to_string(),
            param: key.clone(),
            value: text.clone(),
            expected: decl.kind.expected(),
        })?;
        params.values.insert(decl.name, value);
        params.explicit.insert(decl.name);
    }
    for decl in decls {
        if params.values.contains_key(decl.name) {
            continue;
        }
        match &decl.default {
            Some(v) => {
                params.values.insert(decl.name, v.clone());
            }
            None => {
                return Err(SpecError::MissingParam {
                    agent: agent.to_string(),
                    param: decl.name.to_string(),
                    help: decl.help.to_string(),
                });
            }
        }
    }
    Ok(params)
}

type BuildFn<G> = dyn Fn(&Params) -> Result<Box<dyn Agent<G>>, SpecError> + Send + Sync;

/// One registered AI.
pub struct AgentEntry<G: Game> {
    pub name: &'static str,
    pub aliases: Vec<&'static str>,
    pub summary: &'static str,
    pub params: Vec<ParamSpec>,
    build: Box<BuildFn<G>>,
}

impl<G: Game> AgentEntry<G> {
    pub fn new(
        name: &'static str,
        summary: &'static str,
        params: Vec<ParamSpec>,
        build: impl Fn(&Params) -> Result<Box<dyn Agent<G>>, SpecError> + Send + Sync + 'static,
    ) -> Self {
        AgentEntry {
            name,
            aliases: Vec::new(),
            summary,
            params,
            build: Box::new(build),
        }
    }

    /// Other names that build the same AI.
    pub fn with_aliases(mut self, aliases: &[&'static str]) -> Self {
        self.aliases.extend_from_slice(aliases);
        self
    }

    /// Checks the spec's parameters against the declared ones and fills in defaults.
    pub fn params_from(&self, spec: &AgentSpec) -> Result<Params, SpecError> {
        check_params(self.name, &self.params, spec)
    }

    /// Builds the agent from parameters [`Registry::prepare`] made.
    fn build(&self, params: &Params) -> Result<Box<dyn Agent<G>>, SpecError> {
        (self.build)(params)
    }
}

/// A spec checked by [`Registry::prepare`], with the files it names read: every agent
/// [`Registry::build_prepared`] makes from it is built from the same parameters and the
/// same bytes, so a file changed or removed since cannot change or fail a match's later
/// games.
#[derive(Clone, Debug, PartialEq)]
pub struct PreparedSpec {
    entry: usize,
    params: Params,
}

/// Every AI of one game, by name.
pub struct Registry<G: Game> {
    entries: Vec<AgentEntry<G>>,
}

impl<G: Game> Default for Registry<G> {
    fn default() -> Self {
        Registry {
            entries: Vec::new(),
        }
    }
}

impl<G: Game> Registry<G> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds an AI. Names and aliases must be unique (checked: a clash is a programming
    /// error in the registration).
    pub fn register(&mut self, entry: AgentEntry<G>) {
        for name in std::iter::once(&entry.name).chain(&entry.aliases) {
            assert!(
                self.find(name).is_none(),
                "AI name `{name}` registered twice"
            );
        }
        self.entries.push(entry);
    }

    pub fn entries(&self) -> &[AgentEntry<G>] {
        &self.entries
    }

    /// The protocols its AIs that run outside programs speak, each once.
    pub fn program_protocols(&self) -> Vec<&'static str> {
        let mut protocols = Vec::new();
        for param in self.entries.iter().flat_map(|e| &e.params) {
            if let ParamKind::Program { protocol } = param.kind
                && !protocols.contains(&protocol)
            {
                protocols.push(protocol);
            }
        }
        protocols
    }

    /// The AI called `name` (or with that alias).
    pub fn find(&self, name: &str) -> Option<&AgentEntry<G>> {
        self.entries
            .iter()
            .find(|e| e.name == name || e.aliases.contains(&name))
    }

    /// Looks up the spec's AI and checks its parameters.
    pub fn resolve(&self, spec: &str) -> Result<(&AgentEntry<G>, Params), SpecError> {
        let spec = AgentSpec::parse(spec)?;
        let entry = self
            .find(&spec.name)
            .ok_or_else(|| SpecError::UnknownAgent {
                name: spec.name.clone(),
                game: G::NAME,
                known: self.entries.iter().map(|e| e.name.to_string()).collect(),
            })?;
        Ok((entry, entry.params_from(&spec)?))
    }

    /// Whether the agent a prepared spec names stops by the clock (its `time` or
    /// `timelimit` above 0): its moves, and every result it takes part in, then depend on
    /// the machine.
    pub fn is_timed(&self, prepared: &PreparedSpec) -> bool {
        self.entries[prepared.entry].params.iter().any(|p| {
            matches!(p.name, "time" | "timelimit")
                && matches!(prepared.params.value(p.name), Value::Float(t) if *t > 0.0)
        })
    }

    /// Builds the agent a spec names, e.g. `ai12s:score_victory=200`, reading any file
    /// it names wherever the path points (for the command line, run by the file's owner).
    ///
    /// ```
    /// use gamelab_core::{Game, SpecError, game_rng, Side};
    /// use gamelab_ttt::{Position, ai};
    ///
    /// let registry = ai::registry();
    /// let mut agent = registry.build("ai12s:score_victory=200").unwrap();
    /// let pos: Position = "oo.xx....".parse().unwrap();
    /// let mut rng = game_rng(1, 0, Side::First);
    /// // o completes its top row.
    /// assert_eq!(agent.choose(&pos, &mut rng).to_string(), "(2, 0)");
    /// assert!(matches!(registry.build("ai99"), Err(SpecError::UnknownAgent { .. })));
    /// ```
    pub fn build(&self, spec: &str) -> Result<Box<dyn Agent<G>>, SpecError> {
        self.build_with(spec, &FileAccess::Any)
    }

    /// Builds the agent a spec names, with its file parameters resolved under `files`:
    /// [`Registry::prepare`], then [`Registry::build_prepared`].
    pub fn build_with(
        &self,
        spec: &str,
        files: &FileAccess,
    ) -> Result<Box<dyn Agent<G>>, SpecError> {
        self.build_prepared(&self.prepare(spec, files)?)
    }

    /// Checks a spec and reads the files it names (where `files` allows, each a regular
    /// file within its parameter's bound), without building the agent: what a match
    /// keeps to build its players again and again from the same bytes.
    ///
    /// ```
    /// use gamelab_core::FileAccess;
    /// use gamelab_ttt::ai;
    ///
    /// let dir = std::env::temp_dir().join(format!("gamelab-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("m.json");
    /// std::fs::write(&path, "not a model").unwrap();
    /// let registry = ai::registry::<gamelab_ttt::board::Bitboard>();
    /// let spec = format!("regression:model={}", path.display());
    /// // Read when prepared: a file removed since is not read again.
    /// let prepared = registry.prepare(&spec, &FileAccess::Any).unwrap();
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// let err = registry.build_prepared(&prepared).err().unwrap().to_string();
    /// assert!(err.contains("m.json, line 1"), "{err}");
    /// ```
    pub fn prepare(&self, spec: &str, files: &FileAccess) -> Result<PreparedSpec, SpecError> {
        self.prepare_keeping(spec, files, None)
    }

    /// [`Registry::prepare`] of `spec`, taking from `earlier` (a spec prepared before,
    /// say with another depth) each file it read for the same parameter and path rather
    /// than reading it again: a session that changes its AI's parameters keeps playing
    /// with the bytes it started with.
    ///
    /// ```
    /// use gamelab_core::FileAccess;
    /// use gamelab_ttt::ai;
    ///
    /// let dir = std::env::temp_dir().join(format!("gamelab-doc-from-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("m.json");
    /// std::fs::write(&path, "not a model").unwrap();
    /// let registry = ai::registry::<gamelab_ttt::board::Bitboard>();
    /// let spec = format!("regression:model={}", path.display());
    /// let first = registry.prepare(&spec, &FileAccess::Any).unwrap();
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// // The file is gone; its bytes, read before, are taken from `first`.
    /// assert!(registry.prepare(&spec, &FileAccess::Any).is_err());
    /// assert_eq!(registry.prepare_from(&first, &spec, &FileAccess::Any).unwrap(), first);
    /// ```
    pub fn prepare_from(
        &self,
        earlier: &PreparedSpec,
        spec: &str,
        files: &FileAccess,
    ) -> Result<PreparedSpec, SpecError> {
        self.prepare_keeping(spec, files, Some(earlier))
    }

    fn prepare_keeping(
        &self,
        spec: &str,
        files: &FileAccess,
        earlier: Option<&PreparedSpec>,
    ) -> Result<PreparedSpec, SpecError> {
        let (entry, mut params) = self.resolve(spec)?;
        let index = (self.entries.iter())
            .position(|e| std::ptr::eq(e, entry))
            .expect("an entry of this registry");
        let earlier = earlier.filter(|e| e.entry == index).map(|e| &e.params);
        let invalid = |reason: String| SpecError::Invalid {
            agent: entry.name.to_string(),
            reason,
        };
        for decl in &entry.params {
            let Value::Text(given) = params.value(decl.name).clone() else {
                continue;
            };
            match decl.kind {
                ParamKind::Program { protocol } => {
                    let command = files
                        .program(&given, protocol)
                        .map_err(|reason| invalid(format!("{} `{given}` {reason}", decl.name)))?;
                    params.values.insert(decl.name, Value::Text(command));
                }
                ParamKind::File {
                    keywords,
                    max_bytes,
                } if !keywords.contains(&given.as_str()) => {
                    let path = files
                        .resolve(&given)
                        .map_err(|reason| invalid(format!("{} `{given}`: {reason}", decl.name)))?;
                    let shown = path.display().to_string();
                    let read_before = earlier
                        .filter(|e| matches!(e.value(decl.name), Value::Text(t) if *t == shown))
                        .and_then(|e| e.files.get(decl.name));
                    let contents = match read_before {
                        Some(contents) => contents.clone(),
                        None => FileContents::new(
                            crate::files::read_regular(&path, max_bytes)
                                .map_err(|e| invalid(format!("{shown}: {e}")))?,
                        ),
                    };
                    params.values.insert(decl.name, Value::Text(shown));
                    params.files.insert(decl.name, contents);
                }
                _ => {}
            }
        }
        Ok(PreparedSpec {
            entry: index,
            params,
        })
    }

    /// Builds an agent from a spec [`Registry::prepare`] checked, reading no file.
    pub fn build_prepared(&self, prepared: &PreparedSpec) -> Result<Box<dyn Agent<G>>, SpecError> {
        self.entries[prepared.entry].build(&prepared.params)
    }

    /// [`Registry::prepare`], and one agent built from it and dropped: what builds many
    /// agents (a match's games) checks its spec with, so that every later
    /// [`Registry::build_prepared`] of it builds (the same parameters and bytes).
    ///
    /// ```
    /// use gamelab_core::FileAccess;
    /// use gamelab_ttt::ai;
    ///
    /// let registry = ai::registry::<gamelab_ttt::board::Bitboard>();
    /// let spec = registry.prepare_checked("ai12s:score_victory=200", &FileAccess::Any).unwrap();
    /// assert!(registry.build_prepared(&spec).is_ok());
    /// // A file that is no model is refused at the check, before any game.
    /// assert!(registry.prepare_checked("regression:model=/dev/null", &FileAccess::Any).is_err());
    /// ```
    pub fn prepare_checked(
        &self,
        spec: &str,
        files: &FileAccess,
    ) -> Result<PreparedSpec, SpecError> {
        let prepared = self.prepare(spec, files)?;
        self.build_prepared(&prepared)?;
        Ok(prepared)
    }
}

/// Where an AI's file parameters may read and which programs its program parameters may
/// run. The command line reads and runs what its user names; a server must not let a
/// request open paths or start programs on its machine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum FileAccess {
    /// Any path and any program, as given.
    #[default]
    Any,
    /// A server's: only files directly in the models folder, named by their plain name
    /// (`None`: no files), and only the programs its operator named, by those names.
    Served {
        models: Option<std::path::PathBuf>,
        programs: Vec<NamedProgram>,
    },
    /// No files and no programs, for the reason given (an AI built inside another).
    Refused(&'static str),
}

/// A program a server's operator lets requests run, by name (`gamelab serve --engine
/// [PROTOCOL:]NAME=COMMAND`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NamedProgram {
    pub name: String,
    #[serde(skip)]
    pub command: String,
    /// The protocol it speaks, when the operator said: only AIs of that protocol run it.
    pub protocol: Option<String>,
}

/// The longest file name a [`FileAccess::Served`] accepts.
const MAX_FILE_NAME: usize = 128;

/// Why a [`FileAccess`] gives no program or file for a name. The messages follow the
/// parameter and the name given (`cmd `x` names a program this server does not offer…`).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum AccessError {
    /// The front end reads no files and runs no programs; the reason is its own.
    #[error("{0}")]
    Refused(&'static str),
    #[error(
        "names a program this server offers to {spoken} AIs only (`{spoken}:cmd={given}`), not to {protocol} ones"
    )]
    OtherProtocol {
        spoken: String,
        given: String,
        protocol: String,
    },
    #[error(
        "names a program to run, and this front end runs none a request names; start the server with `gamelab serve --engine NAME=COMMAND` to offer COMMAND by NAME"
    )]
    NoPrograms,
    #[error("names a program this server does not offer; it offers {offered}")]
    UnknownProgram { offered: String },
    #[error(
        "this server reads no files; start it with `gamelab serve --models FOLDER` to offer the model files in FOLDER by name"
    )]
    NoFiles,
    #[error(
        "expected the plain name of a file in the models folder (letters, digits, `.`, `_`, `-`, at most {MAX_FILE_NAME}, not starting with `.`)"
    )]
    NotAPlainName,
    #[error("the models folder has no regular file of that name")]
    NoSuchFile,
}

impl FileAccess {
    /// The program `given` names under this access for an AI speaking `protocol` (the
    /// command to run), or why none.
    pub fn program(&self, given: &str, protocol: &str) -> Result<String, AccessError> {
        match self {
            FileAccess::Any => Ok(given.to_string()),
            FileAccess::Refused(reason) => Err(AccessError::Refused(reason)),
            FileAccess::Served { programs, .. } => {
                match programs.iter().find(|p| p.name == given) {
                    Some(NamedProgram {
                        protocol: Some(spoken),
                        ..
                    }) if spoken != protocol => Err(AccessError::OtherProtocol {
                        spoken: spoken.clone(),
                        given: given.to_string(),
                        protocol: protocol.to_string(),
                    }),
                    Some(p) => Ok(p.command.clone()),
                    None if programs.is_empty() => Err(AccessError::NoPrograms),
                    None => Err(AccessError::UnknownProgram {
                        offered: programs
                            .iter()
                            .map(|p| p.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", "),
                    }),
                }
            }
        }
    }

    /// The programs a [`FileAccess::Served`] offers.
    pub fn programs(&self) -> &[NamedProgram] {
        match self {
            FileAccess::Served { programs, .. } => programs,
            _ => &[],
        }
    }

    /// The names a [`FileAccess::Served`] offers: its regular files with plain names,
    /// sorted (none for `Any`, which offers every path, or a folder that cannot be read).
    pub fn names(&self) -> Vec<String> {
        let FileAccess::Served {
            models: Some(folder),
            ..
        } = self
        else {
            return Vec::new();
        };
        let mut names: Vec<String> = std::fs::read_dir(folder)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|name| self.resolve(name).is_ok())
            .collect();
        names.sort();
        names
    }

    /// The path `given` names under this access, or why it names none.
    pub fn resolve(&self, given: &str) -> Result<std::path::PathBuf, AccessError> {
        let folder = match self {
            FileAccess::Any => return Ok(given.into()),
            FileAccess::Refused(reason) => return Err(AccessError::Refused(reason)),
            FileAccess::Served { models: None, .. } => return Err(AccessError::NoFiles),
            FileAccess::Served {
                models: Some(folder),
                ..
            } => folder,
        };
        let plain = !given.is_empty()
            && given.len() <= MAX_FILE_NAME
            && !given.starts_with('.')
            && given
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
        if !plain {
            return Err(AccessError::NotAPlainName);
        }
        let path = folder.join(given);
        // Follows a link the folder's owner put there, but reads only regular files: a
        // device or a FIFO would hang or exhaust the server.
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => Ok(path),
            _ => Err(AccessError::NoSuchFile),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_found_by_fuzzing_read_back_as_printed() {
        for text in [
            "ai_abs_dls:eval_func=(),maxdepth=8",
            "bs_dls:eval_func=(\u{1}\u{11}\u{0}\t),epthepth==8",
            "a:b=(x)(y)",
        ] {
            match AgentSpec::parse(text) {
                Ok(spec) => assert_eq!(AgentSpec::parse(&spec.to_string()), Ok(spec), "{text}"),
                Err(e) => assert!(e.to_string().contains("empty value"), "{text}: {e}"),
            }
        }
    }

    #[test]
    fn spec_round_trips() {
        for text in [
            "ai2",
            "ai12s:score_victory=200",
            "ai12s:score_victory=200,score_102=0.5",
            "ai_abs_dls:eval_func=(ai14s:score_victory=200,score_102=1),maxdepth=8",
        ] {
            let spec = AgentSpec::parse(text).unwrap();
            assert_eq!(spec.to_string(), text);
            assert_eq!(AgentSpec::parse(&spec.to_string()).unwrap(), spec);
        }
        let spec = AgentSpec::parse(" ai12s : score_victory = 200 , score_102=0.5 ").unwrap();
        assert_eq!(spec.to_string(), "ai12s:score_victory=200,score_102=0.5");
        let nested = AgentSpec::parse("a:e=(b:x=1,y=2),d=3").unwrap();
        assert_eq!(
            nested.params,
            vec![("e".into(), "b:x=1,y=2".into()), ("d".into(), "3".into())]
        );
    }

    #[test]
    fn spec_syntax_errors() {
        for bad in [
            ":x=1",
            "ai12s:score_victory",
            "ai12s:=3",
            "ai12s:a=1,a=2",
            "a:e=(b:x=1",
            "a:e=b)",
        ] {
            let err = AgentSpec::parse(bad).unwrap_err();
            assert!(matches!(err, SpecError::Syntax { .. }), "{bad}: {err}");
            assert!(err.to_string().contains("expected name or name:key=value"));
        }
    }

    #[test]
    fn specs_nest_a_bounded_depth_and_errors_quote_them_short() {
        let nested = |depth: usize| {
            format!(
                "{}greedy{}",
                "mcts:playout=(".repeat(depth),
                ")".repeat(depth)
            )
        };
        let deepest = nested(MAX_SPEC_NESTING as usize);
        assert!(AgentSpec::parse(&deepest).is_ok(), "{deepest}");
        for depth in [MAX_SPEC_NESTING as usize + 1, 600, 100_000] {
            let err = AgentSpec::parse(&nested(depth)).unwrap_err().to_string();
            assert!(err.contains("nested more than 8 deep"), "{err}");
            assert!(
                err.len() < 400,
                "{depth}: the message quotes the spec short"
            );
            assert!(
                err.contains(&format!("({} characters)", nested(depth).len())),
                "{err}"
            );
        }
    }

    #[test]
    fn kinds_parse_and_explain() {
        let float = ParamKind::Float {
            min: -10.0,
            max: 10.0,
        };
        assert_eq!(float.parse("-1.5"), Some(Value::Float(-1.5)));
        assert_eq!(float.parse("inf"), None);
        assert_eq!(float.parse("NaN"), None);
        assert_eq!(float.parse("1e308"), None);
        assert_eq!(float.parse("abc"), None);
        assert_eq!(float.expected(), "a number from -10 to 10");
        let int = ParamKind::Int { min: 1, max: 9 };
        assert_eq!(int.parse("9"), Some(Value::Int(9)));
        assert_eq!(int.parse("10"), None);
        assert_eq!(int.parse("1.5"), None);
        assert_eq!(ParamKind::Bool.parse("true"), Some(Value::Bool(true)));
        assert_eq!(ParamKind::Bool.parse("maybe"), None);
        let choice = ParamKind::Choice(&["1", "2", "3"]);
        assert_eq!(choice.parse("2"), Some(Value::Text("2".into())));
        assert_eq!(choice.parse("4"), None);
        assert_eq!(choice.expected(), "one of 1, 2, 3");
        assert!(int.expected().contains("from 1 to 9"));
    }
}
