//! Solved tic-tac-toe tables (`gamelab solve --out`).

pub fn check(data: &[u8]) {
    let _ = gamelab_ttt::solve_file::from_bytes(data, "fuzz");
}
