//! FFO suites and Othello board strings (with Edax's OBF tails).
//! The check itself: `crates/fuzz-checks/src/ffo.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gamelab_fuzz_checks::ffo::check(data));
