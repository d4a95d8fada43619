//! All six board data structures give identical results on every node of the game tree.

use gamelab_ttt::board::{Array1d, Array2d, Bitboard, Board, LineCounts};
use gamelab_ttt::{MarkpatCounts, Position, Square, Status};

#[derive(Debug, PartialEq)]
struct Snapshot {
    legal: Vec<Square>,
    status: Status,
    text: String,
    board_string: String,
    markpats: MarkpatCounts,
    key: u64,
    canonical_key: u64,
    last_move: Option<Square>,
}

trait AnyPosition {
    fn name(&self) -> &'static str;
    fn play_unchecked(&mut self, sq: Square);
    fn undo(&mut self) -> Option<Square>;
    fn snapshot(&self) -> Snapshot;
}

impl<B: Board> AnyPosition for Position<B> {
    fn name(&self) -> &'static str {
        B::NAME
    }
    fn play_unchecked(&mut self, sq: Square) {
        Position::play_unchecked(self, sq)
    }
    fn undo(&mut self) -> Option<Square> {
        Position::undo(self)
    }
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            legal: self.legal_moves().to_vec(),
            status: self.status(),
            text: self.to_string(),
            board_string: self.board_string(),
            markpats: self.count_markpats(),
            key: self.key(),
            canonical_key: self.canonical_key(),
            last_move: self.last_move(),
        }
    }
}

fn walk(positions: &mut [Box<dyn AnyPosition>], visited: &mut u64) {
    *visited += 1;
    let reference = positions[0].snapshot();
    for p in positions[1..].iter() {
        assert_eq!(
            p.snapshot(),
            reference,
            "{} disagrees with {}",
            p.name(),
            positions[0].name()
        );
    }
    for sq in reference.legal {
        for p in positions.iter_mut() {
            p.play_unchecked(sq);
        }
        walk(positions, visited);
        for p in positions.iter_mut() {
            assert_eq!(p.undo(), Some(sq));
        }
    }
}

#[test]
fn six_structures_agree_on_every_node() {
    let mut positions: Vec<Box<dyn AnyPosition>> = vec![
        Box::new(Position::<Bitboard>::new()),
        Box::new(Position::<Array2d>::new()),
        Box::new(Position::<Array1d>::new()),
        Box::new(Position::<LineCounts<Array2d>>::new()),
        Box::new(Position::<LineCounts<Array1d>>::new()),
        Box::new(Position::<LineCounts<Bitboard>>::new()),
    ];
    let names: Vec<_> = positions.iter().map(|p| p.name()).collect();
    assert_eq!(
        names,
        [
            "bitboard",
            "2d",
            "1d",
            "2d+counts",
            "1d+counts",
            "bitboard+counts"
        ]
    );
    let mut visited = 0;
    walk(&mut positions, &mut visited);
    assert_eq!(visited, 549_946);
}
