//! Dataset CSVs, against tic-tac-toe's feature sets and a small one that lets short inputs
//! reach the rows.
//! The check itself: `crates/fuzz-checks/src/datasets.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gamelab_fuzz_checks::datasets::check(data));
