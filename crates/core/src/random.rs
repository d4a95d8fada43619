//! Seeded random streams: the only source of randomness agents get.
//!
//! Every `(seed, game index, side)` has its own sequence of random words, a pure function
//! of the three numbers, so results never depend on thread count or scheduling, and
//! changing one side's agent never shifts the other side's randomness.
//!
//! The sequence is ChaCha8 (named, not `StdRng`, whose algorithm may change between
//! releases), laid out so that a match can read it fast: side `s` of game `g` gets the
//! [`WORDS_PER_GAME`] words at position `g · WORDS_PER_GAME` of the seed's stream `s`, and
//! any words it needs beyond those come from a private overflow stream `2 + 2g + s`.
//! Consecutive games thus share ChaCha's 4-block buffer instead of each paying for a
//! fresh one (a fresh stream costs about 70 ns here, more than a whole game of random
//! tic-tac-toe).
//!
//! ```
//! use gamelab_core::{Side, game_rng};
//!
//! let draws = |seed, game, side| {
//!     let mut rng = game_rng(seed, game, side);
//!     (0..20).map(|_| rng.below(6)).collect::<Vec<_>>()
//! };
//! // The same three numbers, the same draws, whenever and wherever they are made.
//! assert_eq!(draws(7, 3, Side::First), draws(7, 3, Side::First));
//! // Another side, game or seed: another stream.
//! assert_ne!(draws(7, 3, Side::First), draws(7, 3, Side::Second));
//! assert_ne!(draws(7, 3, Side::First), draws(7, 4, Side::First));
//! assert_ne!(draws(7, 3, Side::First), draws(8, 3, Side::First));
//! ```

use std::convert::Infallible;

use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng, TryRng};

use crate::Side;

/// Words of a side's main stream reserved for each game: enough for every choice of a
/// tic-tac-toe side; longer games continue in their overflow stream.
pub const WORDS_PER_GAME: usize = 8;
const _: () = assert!(BATCH_WORDS.is_multiple_of(WORDS_PER_GAME));

/// The ChaCha8 key of one seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamKey([u8; 32]);

impl StreamKey {
    /// The key of `seed`: the first 32 bytes ChaCha8 produces from it.
    pub fn new(seed: u64) -> StreamKey {
        let mut key = [0u8; 32];
        ChaCha8Rng::seed_from_u64(seed).fill_bytes(&mut key);
        StreamKey(key)
    }

    fn stream(&self, id: u64, word: u128) -> ChaCha8Rng {
        let mut rng = ChaCha8Rng::from_seed(self.0);
        rng.set_stream(id);
        if word != 0 {
            rng.set_word_pos(word);
        }
        rng
    }

    /// The stream of one side in one game.
    pub fn game_rng(&self, game: u64, side: Side) -> GameRng {
        SideStream::new(*self, side, game).next_game()
    }

    /// Reads the streams of `side` for games `first_game`, `first_game + 1`, … in order,
    /// sharing ChaCha's buffer between consecutive games.
    ///
    /// ```
    /// use gamelab_core::{Side, StreamKey, game_rng};
    ///
    /// let key = StreamKey::new(7);
    /// let mut games = key.side_stream(Side::Second, 10);
    /// for game in 10..30 {
    ///     // Each game's stream is the one game_rng gives it alone; the words beyond the
    ///     // window come from the game's own overflow stream.
    ///     let (mut read, mut alone) = (games.next_game(), game_rng(7, game, Side::Second));
    ///     assert_eq!(read.game(), game);
    ///     for _ in 0..12 {
    ///         assert_eq!(read.below(1000), alone.below(1000));
    ///     }
    /// }
    /// ```
    pub fn side_stream(&self, side: Side, first_game: u64) -> SideStream {
        SideStream::new(*self, side, first_game)
    }
}

/// The random stream of one side in one game of a run (see the module documentation).
pub fn game_rng(seed: u64, game_index: u64, side: Side) -> GameRng {
    StreamKey::new(seed).game_rng(game_index, side)
}

/// Words read from ChaCha at a time: its own 4-block buffer, eight games' windows.
const BATCH_WORDS: usize = 64;

/// Sequential reader of one side's game streams.
pub struct SideStream {
    key: StreamKey,
    side: Side,
    next_game: u64,
    main: ChaCha8Rng,
    /// ChaCha's output as it comes, little-endian words.
    batch: [u8; BATCH_WORDS * 4],
    /// Next unread word of `batch`.
    pos: usize,
}

impl SideStream {
    fn new(key: StreamKey, side: Side, first_game: u64) -> SideStream {
        let word = first_game as u128 * WORDS_PER_GAME as u128;
        let batch_start = word - word % BATCH_WORDS as u128;
        let mut stream = SideStream {
            key,
            side,
            next_game: first_game,
            main: key.stream(side.index() as u64, batch_start),
            batch: [0; BATCH_WORDS * 4],
            pos: BATCH_WORDS,
        };
        stream.read_batch();
        stream.pos = (word - batch_start) as usize;
        stream
    }

    fn read_batch(&mut self) {
        self.main.fill_bytes(&mut self.batch);
        self.pos = 0;
    }

    /// The stream of the next game.
    pub fn next_game(&mut self) -> GameRng {
        let mut rng = GameRng {
            words: [0; WORDS_PER_GAME],
            used: 0,
            overflow: None,
            key: self.key,
            overflow_id: 0,
        };
        self.refill(&mut rng);
        rng
    }

    /// Turns `rng` into the stream of the next game, reusing its storage: a match loop
    /// keeps two and refills them instead of building new ones.
    ///
    /// ```
    /// use gamelab_core::{Side, StreamKey, game_rng};
    ///
    /// let mut games = StreamKey::new(1).side_stream(Side::First, 0);
    /// let mut rng = games.next_game();
    /// games.refill(&mut rng);
    /// assert_eq!(rng.game(), 1);
    /// assert_eq!(rng.below(100), game_rng(1, 1, Side::First).below(100));
    /// ```
    #[inline]
    pub fn refill(&mut self, rng: &mut GameRng) {
        if self.pos == BATCH_WORDS {
            self.read_batch();
        }
        let bytes = &self.batch[self.pos * 4..(self.pos + WORDS_PER_GAME) * 4];
        for (w, b) in rng.words.iter_mut().zip(bytes.chunks_exact(4)) {
            *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        self.pos += WORDS_PER_GAME;
        rng.used = 0;
        if rng.key != self.key {
            rng.key = self.key;
            rng.overflow = None;
        }
        rng.overflow_id = 2 + 2 * self.next_game + self.side.index() as u64;
        self.next_game += 1;
    }
}

/// The random numbers of one side in one game. Implements rand's [`Rng`], so any of rand's
/// distributions can draw from it; [`GameRng::below`] is the cheap way to pick an index.
pub struct GameRng {
    words: [u32; WORDS_PER_GAME],
    used: usize,
    /// Kept when the stream is refilled for the next game: long games (Othello) overflow
    /// every time, and starting the next game's overflow in place saves an allocation.
    overflow: Option<Box<Overflow>>,
    key: StreamKey,
    overflow_id: u64,
}

/// Words of ChaCha read at a time from an overflow stream: its 4-block buffer.
const OVERFLOW_WORDS: usize = 64;

/// An overflow stream and its words read ahead.
struct Overflow {
    rng: ChaCha8Rng,
    /// The overflow stream these words are from.
    id: u64,
    words: [u32; OVERFLOW_WORDS],
    used: usize,
}

impl Overflow {
    fn read(&mut self) {
        let mut bytes = [0u8; OVERFLOW_WORDS * 4];
        self.rng.fill_bytes(&mut bytes);
        for (w, b) in self.words.iter_mut().zip(bytes.chunks_exact(4)) {
            *w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        }
        self.used = 0;
    }
}

impl GameRng {
    #[inline]
    fn word(&mut self) -> u32 {
        if self.used < WORDS_PER_GAME {
            let w = self.words[self.used];
            self.used += 1;
            return w;
        }
        match &mut self.overflow {
            Some(o) if o.id == self.overflow_id && o.used < OVERFLOW_WORDS => {
                let w = o.words[o.used];
                o.used += 1;
                w
            }
            _ => self.overflow_word(),
        }
    }

    /// The next overflow word when none is read ahead: this game's overflow stream is
    /// started (reusing the last game's storage) or read further.
    #[cold]
    fn overflow_word(&mut self) -> u32 {
        let (key, id) = (self.key, self.overflow_id);
        let o = self.overflow.get_or_insert_with(|| {
            Box::new(Overflow {
                rng: key.stream(id, 0),
                id,
                words: [0; OVERFLOW_WORDS],
                used: OVERFLOW_WORDS,
            })
        });
        if o.id != id {
            // Same key (`refill` drops the storage otherwise): only the stream moves.
            o.rng.set_stream(id);
            o.rng.set_word_pos(0);
            o.id = id;
            o.used = OVERFLOW_WORDS;
        }
        if o.used == OVERFLOW_WORDS {
            o.read();
        }
        let w = o.words[o.used];
        o.used += 1;
        w
    }

    /// The index of the game whose stream this is (for a play session's stream, the ply),
    /// so that an agent that fails can say in which game.
    pub fn game(&self) -> u64 {
        self.overflow_id.saturating_sub(2) / 2
    }

    /// A uniform index in `0..n` (n ≥ 1), exactly unbiased, usually from one word
    /// (Lemire's multiply-and-reject).
    ///
    /// ```
    /// use gamelab_core::{Side, game_rng};
    ///
    /// let mut rng = game_rng(0, 0, Side::First);
    /// let mut seen = [0; 3];
    /// for _ in 0..3000 {
    ///     seen[rng.below(3)] += 1;
    /// }
    /// assert!(seen.iter().all(|&n| n > 800));
    /// ```
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n >= 1 && n <= u32::MAX as usize);
        let first = self.word();
        if let Some(k) = GameRng::below_from(first, n) {
            return k;
        }
        let n = n as u32;
        let threshold = n.wrapping_neg() % n;
        let mut m = u64::from(first) * u64::from(n);
        while (m as u32) < threshold {
            m = u64::from(self.word()) * u64::from(n);
        }
        (m >> 32) as usize
    }

    /// What [`GameRng::below`]`(n)` returns when the next word is `word`, or `None` when
    /// it might draw more words (about n in 2³² words). Lets a playout compute its draws
    /// from [`GameRng::unread_window`] ahead of the moves, then [`GameRng::consume`]
    /// them.
    ///
    /// ```
    /// use gamelab_core::{GameRng, Side, game_rng};
    ///
    /// let mut rng = game_rng(5, 2, Side::First);
    /// let window = *rng.unread_window().unwrap();
    /// let ahead: Vec<usize> = window[..3]
    ///     .iter()
    ///     .map(|&w| GameRng::below_from(w, 10).unwrap())
    ///     .collect();
    /// rng.consume(3);
    /// // The words are read: the window is gone, and the next draw is the fourth word's.
    /// assert!(rng.unread_window().is_none());
    /// assert_eq!(rng.below(10), GameRng::below_from(window[3], 10).unwrap());
    /// let mut again = game_rng(5, 2, Side::First);
    /// let drawn: Vec<usize> = (0..3).map(|_| again.below(10)).collect();
    /// assert_eq!(ahead, drawn);
    /// ```
    #[inline(always)]
    pub fn below_from(word: u32, n: usize) -> Option<usize> {
        let m = u64::from(word) * n as u64;
        ((m as u32) >= n as u32).then_some((m >> 32) as usize)
    }

    /// This game's first [`WORDS_PER_GAME`] words, when none has been read yet.
    #[inline]
    pub fn unread_window(&self) -> Option<&[u32; WORDS_PER_GAME]> {
        (self.used == 0).then_some(&self.words)
    }

    /// Marks `n` words of the window as read, as `n` one-word draws would.
    #[inline]
    pub fn consume(&mut self, n: usize) {
        debug_assert!(self.used + n <= WORDS_PER_GAME);
        self.used += n;
    }
}

impl TryRng for GameRng {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.word())
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        let lo = u64::from(self.word());
        Ok(lo | u64::from(self.word()) << 32)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(4) {
            let bytes = self.word().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_words(mut rng: GameRng, n: usize) -> Vec<u32> {
        (0..n).map(|_| rng.next_u32()).collect()
    }

    #[test]
    fn same_triple_same_stream() {
        assert_eq!(
            first_words(game_rng(7, 3, Side::First), 20),
            first_words(game_rng(7, 3, Side::First), 20)
        );
    }

    #[test]
    fn every_component_changes_the_stream() {
        let base = first_words(game_rng(7, 3, Side::First), 20);
        assert_ne!(base, first_words(game_rng(8, 3, Side::First), 20));
        assert_ne!(base, first_words(game_rng(7, 4, Side::First), 20));
        assert_ne!(base, first_words(game_rng(7, 3, Side::Second), 20));
        // ... including the overflow words
        let tail = |rng| first_words(rng, 20)[WORDS_PER_GAME..].to_vec();
        assert_ne!(
            tail(game_rng(7, 3, Side::First)),
            tail(game_rng(7, 4, Side::First))
        );
        assert_ne!(
            tail(game_rng(7, 3, Side::First)),
            tail(game_rng(7, 3, Side::Second))
        );
    }

    #[test]
    fn sequential_reading_equals_random_access() {
        let key = StreamKey::new(11);
        for side in Side::BOTH {
            let mut seq = key.side_stream(side, 5);
            for game in 5..200 {
                assert_eq!(
                    first_words(seq.next_game(), 12),
                    first_words(key.game_rng(game, side), 12),
                    "game {game}"
                );
            }
        }
    }

    #[test]
    fn a_refilled_stream_reads_what_a_fresh_one_does() {
        // A refilled stream keeps the last game's overflow storage; it must start this
        // game's overflow stream from its beginning, also past a read-ahead's end.
        let key = StreamKey::new(12);
        for side in Side::BOTH {
            let mut seq = key.side_stream(side, 3);
            let mut rng = seq.next_game();
            for game in 3..40 {
                if game > 3 {
                    seq.refill(&mut rng);
                }
                let n = 1 + (game as usize * 37) % 150;
                let words: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
                assert_eq!(
                    words,
                    first_words(key.game_rng(game, side), n),
                    "game {game}"
                );
            }
        }
        // From another seed's reader: nothing of the old key's overflow is kept.
        let mut rng = StreamKey::new(13).game_rng(0, Side::First);
        let _: Vec<u32> = (0..20).map(|_| rng.next_u32()).collect();
        key.side_stream(Side::First, 3).refill(&mut rng);
        assert_eq!(
            first_words(rng, 30),
            first_words(key.game_rng(3, Side::First), 30)
        );
    }

    #[test]
    fn a_stream_knows_its_game() {
        assert_eq!(game_rng(3, 17, Side::Second).game(), 17);
        let mut seq = StreamKey::new(3).side_stream(Side::First, 5);
        let mut rng = seq.next_game();
        assert_eq!(rng.game(), 5);
        seq.refill(&mut rng);
        assert_eq!(rng.game(), 6);
    }

    #[test]
    fn below_is_in_range_and_uniform() {
        let mut rng = game_rng(3, 0, Side::First);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[rng.below(7)] += 1;
        }
        // 10,000 expected each; 5 standard deviations ≈ 460.
        assert!(
            counts.iter().all(|&c| (9_540..=10_460).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(rng.below(1), 0);
    }

    /// Guards against a silent change of algorithm in a dependency update: recorded seeds
    /// must keep replaying the same games.
    #[test]
    fn golden_words() {
        let words = first_words(game_rng(0, 0, Side::First), 4);
        assert_eq!(
            words, GOLDEN,
            "stream (seed 0, game 0, first) changed: {words:#010x?}"
        );
        let overflow = first_words(game_rng(0, 1, Side::Second), WORDS_PER_GAME + 2);
        assert_eq!(
            &overflow[WORDS_PER_GAME..],
            GOLDEN_OVERFLOW,
            "{overflow:#010x?}"
        );
    }

    #[test]
    fn below_from_predicts_below() {
        for game in 0..2_000 {
            for n in 1..=9 {
                let mut rng = game_rng(5, game, Side::First);
                let window = *rng.unread_window().expect("nothing read yet");
                let predicted = GameRng::below_from(window[0], n);
                let drawn = rng.below(n);
                assert!(
                    predicted.is_none_or(|k| k == drawn),
                    "{n}: {predicted:?} {drawn}"
                );
                assert!(rng.unread_window().is_none());
            }
        }
        // The rejection zone: words whose low product bits fall under n.
        assert_eq!(GameRng::below_from(0, 7), None);
        assert_eq!(GameRng::below_from(u32::MAX, 7), Some(6));
    }

    const GOLDEN: [u32; 4] = [0xcaf6_1a59, 0x4718_692d, 0xa6c9_62df, 0xf857_197b];
    const GOLDEN_OVERFLOW: [u32; 2] = [0xe8ef_c8ee, 0xbf9f_9342];
}
