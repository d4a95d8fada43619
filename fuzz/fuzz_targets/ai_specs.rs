//! AI specs, for every game of the catalogue: reading never panics, a spec that reads
//! prints back to itself, and building one (with no file access, as the web app does)
//! either works or says why. The same text read as a game clock never panics either.
//! The check itself: `crates/fuzz-checks/src/ai_specs.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gamelab_fuzz_checks::ai_specs::check(data));
