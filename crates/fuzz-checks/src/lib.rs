//! What each of gamelab's fuzz targets checks, one module a parser, each with a
//! `check(data)` that panics when the input breaks a rule. The cargo-fuzz targets in
//! `fuzz/` call these under libFuzzer (`scripts/fuzz.sh`, long runs); `cargo test` replays
//! the seeds, the corpora the fuzzers grew and a fixed set of mutations of them through
//! the same functions (`tests/replay.rs`), so the test command needs no fuzzer.
//!
//! ```
//! // The start of every game, then a move in each game's notation: a move that reads
//! // is legal and plays, and undoing it gives the start back.
//! gamelab_fuzz_checks::positions::check(b"\n1,1\nd3\nd");
//! ```

pub mod ai_specs;
pub mod datasets;
pub mod engine_protocols;
pub mod ffo;
pub mod ggf;
pub mod http_bodies;
pub mod models;
pub mod positions;
pub mod records;
pub mod solved_tables;
pub mod wthor;

/// A target's check: it panics on an input that breaks one of the target's rules.
pub type Check = fn(&[u8]);

/// Every target: its name (its folder under `fuzz/seeds/` and `fuzz/corpus/`) and check.
pub const TARGETS: &[(&str, Check)] = &[
    ("ai_specs", ai_specs::check),
    ("positions", positions::check),
    ("records", records::check),
    ("datasets", datasets::check),
    ("models", models::check),
    ("solved_tables", solved_tables::check),
    ("ffo", ffo::check),
    ("wthor", wthor::check),
    ("ggf", ggf::check),
    ("http_bodies", http_bodies::check),
    ("engine_protocols", engine_protocols::check),
];
