//! What several of tic-tac-toe's test files need.

use gamelab_core::Game;
use gamelab_ttt::Ttt;

/// Every reachable position where the game goes on.
pub fn open_positions() -> Vec<Ttt> {
    fn walk(p: &mut Ttt, seen: &mut std::collections::HashSet<u64>, out: &mut Vec<Ttt>) {
        if p.is_over() || !seen.insert(p.key()) {
            return;
        }
        out.push(p.clone());
        for mv in p.legal_moves() {
            p.play_unchecked(mv);
            walk(p, seen, out);
            p.undo();
        }
    }
    let mut out = Vec::new();
    walk(&mut Ttt::start(), &mut Default::default(), &mut out);
    out
}
