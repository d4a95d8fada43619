//! Solved tic-tac-toe tables (`gamelab solve --out`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = gamelab_ttt::solve_file::from_bytes(data, "fuzz");
});
