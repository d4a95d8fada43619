//! GGF games and move transcripts: whatever reads must write out and read back the same.
//! The check itself: `crates/fuzz-checks/src/ggf.rs`.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gamelab_fuzz_checks::ggf::check(data));
