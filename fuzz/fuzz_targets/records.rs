//! Game records: JSON Lines records replayed in every game, and the articles' CSV lines.
//! The check itself: `crates/fuzz-checks/src/records.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gamelab_fuzz_checks::records::check(data));
