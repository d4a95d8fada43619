//! Pattern features for a learned evaluation, in the style of Buro's Logistello: the value
//! of a position is the sum, over a few dozen small groups of squares (lines, diagonals,
//! corner blocks, edges), of a learned weight for the configuration each group shows —
//! every square empty, the mover's or the opponent's — plus a weight per game stage, plus
//! a learned weight for the value of each whole-board term ([`TERMS`]: mobility, potential
//! mobility, parity).
//!
//! Each pattern is one ordered list of squares; its instances are its 8 symmetric images
//! (as ordered lists, identical lists once), and all instances of a pattern share one
//! table of weights. So a position and its 8 images have the same multiset of features,
//! and evaluate the same.

/// A pattern: its name and its squares (`a1` = 0 … `h8` = 63, row by row), in the order
/// that makes its index: the first square is the most significant ternary digit.
pub struct Pattern {
    pub name: &'static str,
    pub squares: &'static [u8],
}

const fn sq(file: u8, rank: u8) -> u8 {
    (rank - 1) * 8 + (file - b'a')
}

/// The patterns, each with one instance written out; [`instances`] makes the rest.
pub const PATTERNS: &[Pattern] = &[
    Pattern {
        name: "line2",
        squares: &[
            sq(b'a', 2),
            sq(b'b', 2),
            sq(b'c', 2),
            sq(b'd', 2),
            sq(b'e', 2),
            sq(b'f', 2),
            sq(b'g', 2),
            sq(b'h', 2),
        ],
    },
    Pattern {
        name: "line3",
        squares: &[
            sq(b'a', 3),
            sq(b'b', 3),
            sq(b'c', 3),
            sq(b'd', 3),
            sq(b'e', 3),
            sq(b'f', 3),
            sq(b'g', 3),
            sq(b'h', 3),
        ],
    },
    Pattern {
        name: "line4",
        squares: &[
            sq(b'a', 4),
            sq(b'b', 4),
            sq(b'c', 4),
            sq(b'd', 4),
            sq(b'e', 4),
            sq(b'f', 4),
            sq(b'g', 4),
            sq(b'h', 4),
        ],
    },
    Pattern {
        name: "diag8",
        squares: &[
            sq(b'a', 1),
            sq(b'b', 2),
            sq(b'c', 3),
            sq(b'd', 4),
            sq(b'e', 5),
            sq(b'f', 6),
            sq(b'g', 7),
            sq(b'h', 8),
        ],
    },
    Pattern {
        name: "diag7",
        squares: &[
            sq(b'a', 2),
            sq(b'b', 3),
            sq(b'c', 4),
            sq(b'd', 5),
            sq(b'e', 6),
            sq(b'f', 7),
            sq(b'g', 8),
        ],
    },
    Pattern {
        name: "diag6",
        squares: &[
            sq(b'a', 3),
            sq(b'b', 4),
            sq(b'c', 5),
            sq(b'd', 6),
            sq(b'e', 7),
            sq(b'f', 8),
        ],
    },
    Pattern {
        name: "diag5",
        squares: &[
            sq(b'a', 4),
            sq(b'b', 5),
            sq(b'c', 6),
            sq(b'd', 7),
            sq(b'e', 8),
        ],
    },
    Pattern {
        name: "diag4",
        squares: &[sq(b'a', 5), sq(b'b', 6), sq(b'c', 7), sq(b'd', 8)],
    },
    Pattern {
        name: "corner3x3",
        squares: &[
            sq(b'a', 1),
            sq(b'b', 1),
            sq(b'c', 1),
            sq(b'a', 2),
            sq(b'b', 2),
            sq(b'c', 2),
            sq(b'a', 3),
            sq(b'b', 3),
            sq(b'c', 3),
        ],
    },
    Pattern {
        name: "corner2x5",
        squares: &[
            sq(b'a', 1),
            sq(b'b', 1),
            sq(b'c', 1),
            sq(b'd', 1),
            sq(b'e', 1),
            sq(b'a', 2),
            sq(b'b', 2),
            sq(b'c', 2),
            sq(b'd', 2),
            sq(b'e', 2),
        ],
    },
    Pattern {
        name: "edge2x",
        squares: &[
            sq(b'b', 2),
            sq(b'a', 1),
            sq(b'b', 1),
            sq(b'c', 1),
            sq(b'd', 1),
            sq(b'e', 1),
            sq(b'f', 1),
            sq(b'g', 1),
            sq(b'h', 1),
            sq(b'g', 2),
        ],
    },
];

/// The image of square `s` under symmetry `k` (0 the identity; the same numbering as
/// [`crate::rules::bits::images`]).
///
/// ```
/// use gamelab_othello::bits::images;
/// use gamelab_othello::patterns::map_square;
///
/// let b2 = 9;
/// for k in 0..8 {
///     assert_eq!(1u64 << map_square(b2, k), images(1 << b2)[k]);
/// }
/// // The eight images of b2 are the four squares diagonally next to a corner.
/// let mut xs: Vec<u8> = (0..8).map(|k| map_square(b2, k)).collect();
/// xs.sort();
/// xs.dedup();
/// assert_eq!(xs, [9, 14, 49, 54]);
/// ```
pub const fn map_square(s: u8, k: usize) -> u8 {
    let (mut x, mut y) = (s % 8, s / 8);
    if k >= 4 {
        (x, y) = (y, x);
    }
    match k % 4 {
        1 => x = 7 - x,
        2 => y = 7 - y,
        3 => {
            x = 7 - x;
            y = 7 - y;
        }
        _ => {}
    }
    y * 8 + x
}

/// Room for this many instances.
pub const LANES: usize = 96;
/// Room for this many lookups of the evaluation: a multiple of 16, so that a vector of
/// them is a few SIMD registers (the lanes past the last lookup stay zero).
pub const LOOKUP_LANES: usize = 48;
const MAX_SQUARES: usize = 10;

/// Every instance, worked out at compile time: each pattern's 8 images as ordered lists of
/// squares, identical lists once, with the pattern each reads, its table's offset in a
/// stage's weights, and each square's ternary place value in it.
///
/// Some images are the same squares in another order (a line read backwards, a corner
/// block transposed). The evaluation looks each set of squares up once, in a table that
/// adds the weights of all its orders ([`merge_orders`]): half the memory reads for the
/// same value.
struct Layout {
    count: usize,
    pattern: [u8; LANES],
    len: [u8; LANES],
    squares: [[u8; MAX_SQUARES]; LANES],
    offset: [u32; LANES],
    total: usize,
    /// The first instance of each set of squares: their number, and for each its
    /// instance, and each square's place value (3^k, the first square most significant) in
    /// every one it is in (0 in the others).
    lookups: usize,
    lookup_instance: [u8; LOOKUP_LANES],
    lookup_places: [Places; 64],
}

const fn same_set(a: &[u8; MAX_SQUARES], b: &[u8; MAX_SQUARES], n: usize) -> bool {
    let mut i = 0;
    while i < n {
        let mut found = false;
        let mut j = 0;
        while j < n {
            found |= a[i] == b[j];
            j += 1;
        }
        if !found {
            return false;
        }
        i += 1;
    }
    true
}

const fn layout() -> Layout {
    let mut l = Layout {
        count: 0,
        pattern: [0; LANES],
        len: [0; LANES],
        squares: [[0; MAX_SQUARES]; LANES],
        offset: [0; LANES],
        total: 0,
        lookups: 0,
        lookup_instance: [0; LOOKUP_LANES],
        lookup_places: [Places([0; LOOKUP_LANES]); 64],
    };
    let mut p = 0;
    while p < PATTERNS.len() {
        let base = PATTERNS[p].squares;
        let n = base.len();
        assert!(n <= MAX_SQUARES);
        let mut k = 0;
        while k < 8 {
            let mut image = [0u8; MAX_SQUARES];
            let mut j = 0;
            while j < n {
                image[j] = map_square(base[j], k);
                j += 1;
            }
            let (mut same_order, mut same_squares) = (false, false);
            let mut i = 0;
            while i < l.count {
                if l.pattern[i] as usize == p {
                    let mut same = true;
                    let mut j = 0;
                    while j < n {
                        same &= l.squares[i][j] == image[j];
                        j += 1;
                    }
                    same_order |= same;
                    same_squares |= same_set(&l.squares[i], &image, n);
                }
                i += 1;
            }
            if !same_order {
                assert!(l.count < LANES, "raise LANES");
                let i = l.count;
                l.pattern[i] = p as u8;
                l.len[i] = n as u8;
                l.squares[i] = image;
                l.offset[i] = l.total as u32;
                l.count += 1;
                if !same_squares {
                    assert!(l.lookups < LOOKUP_LANES, "raise LOOKUP_LANES");
                    let at = l.lookups;
                    l.lookup_instance[at] = i as u8;
                    let mut j = 0;
                    let mut place = 1u16;
                    while j < n {
                        l.lookup_places[image[n - 1 - j] as usize].0[at] = place;
                        place *= 3;
                        j += 1;
                    }
                    l.lookups += 1;
                }
            }
            k += 1;
        }
        l.total += 3usize.pow(n as u32);
        p += 1;
    }
    l
}

const LAYOUT: Layout = layout();

/// How many instances there are.
pub const INSTANCES: usize = LAYOUT.count;
/// How many table reads an evaluation makes: one per set of squares.
pub const LOOKUPS: usize = LAYOUT.lookups;

/// One instance: which pattern's table it reads, and its squares in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    pub pattern: usize,
    pub squares: Vec<u8>,
}

/// Every instance of every pattern, in the order of the features: each pattern's
/// distinct images, each read in every order an image of the pattern reads it.
///
/// ```
/// use gamelab_othello::patterns::{INSTANCES, PATTERNS, instances};
///
/// let all = instances();
/// assert_eq!(all.len(), INSTANCES);
/// // Each instance reads as many squares as its pattern has.
/// for i in &all {
///     assert_eq!(i.squares.len(), PATTERNS[i.pattern].squares.len());
/// }
/// ```
pub fn instances() -> Vec<Instance> {
    (0..INSTANCES)
        .map(|i| Instance {
            pattern: LAYOUT.pattern[i] as usize,
            squares: LAYOUT.squares[i][..LAYOUT.len[i] as usize].to_vec(),
        })
        .collect()
}

/// The number of configurations of each pattern: 3 to the number of its squares.
///
/// ```
/// use gamelab_othello::patterns::{PATTERNS, table_size};
///
/// let line2 = PATTERNS.iter().position(|p| p.name == "line2").unwrap();
/// assert_eq!(table_size(line2), 3usize.pow(8));
/// ```
pub fn table_size(pattern: usize) -> usize {
    3usize.pow(PATTERNS[pattern].squares.len() as u32)
}

/// Where each pattern's table starts in one stage's weights, and the size of one stage's
/// weights: every pattern's table, then the whole-board terms' ([`TERMS`]).
///
/// ```
/// use gamelab_othello::patterns::{PATTERNS, STAGE_WEIGHTS, TABLE_TOTAL, offsets, table_size};
///
/// let (starts, len) = offsets();
/// assert_eq!(starts[0], 0);
/// for i in 1..PATTERNS.len() {
///     assert_eq!(starts[i], starts[i - 1] + table_size(i - 1));
/// }
/// assert_eq!(starts[PATTERNS.len() - 1] + table_size(PATTERNS.len() - 1), TABLE_TOTAL);
/// assert_eq!(len, STAGE_WEIGHTS);
/// ```
pub fn offsets() -> ([usize; PATTERNS.len()], usize) {
    let mut offsets = [0; PATTERNS.len()];
    for i in 0..INSTANCES {
        offsets[LAYOUT.pattern[i] as usize] = LAYOUT.offset[i] as usize;
    }
    (offsets, STAGE_WEIGHTS)
}

/// The size of every pattern's table together: the whole-board terms' tables follow.
pub const TABLE_TOTAL: usize = LAYOUT.total;

/// A whole-board term beside the patterns: a count read from the bitboards, capped, with a
/// learned weight for each of its values (a one-hot table, so the fit finds its shape).
pub struct Term {
    pub name: &'static str,
    /// Values 0 ..= `cap`; larger counts read as `cap`.
    pub cap: u8,
}

/// The whole-board terms, in the order of their tables after the patterns'. Together they
/// lowered the held-out error at every stage (12.18 → 12.00 discs over all, 6.14 → 5.72 at
/// 5–8 empties; see `MODEL.md`): mobility and potential mobility say what the patterns,
/// each a few squares, cannot see — how many moves each side has and how many discs it
/// shows to the empty squares — and parity who moves last in each region.
pub const TERMS: &[Term] = &[
    // The side to move's legal moves, and its opponent's (never above 30 in games).
    Term {
        name: "mobility",
        cap: 30,
    },
    Term {
        name: "opponent mobility",
        cap: 30,
    },
    // Empty squares next to the other side's discs: moves a side may get later.
    Term {
        name: "potential mobility",
        cap: 40,
    },
    Term {
        name: "opponent potential mobility",
        cap: 40,
    },
    // The number of empty squares, odd or even.
    Term {
        name: "parity",
        cap: 1,
    },
];

/// Where each term's table starts in one stage's weights.
const TERM_OFFSETS: [u32; TERMS.len()] = {
    let mut offsets = [0; TERMS.len()];
    let mut at = TABLE_TOTAL;
    let mut i = 0;
    while i < TERMS.len() {
        offsets[i] = at as u32;
        at += TERMS[i].cap as usize + 1;
        i += 1;
    }
    offsets
};

/// The size of one stage's weights: the patterns' tables, then the terms'.
pub const STAGE_WEIGHTS: usize = {
    let last = TERMS.len() - 1;
    TERM_OFFSETS[last] as usize + TERMS[last].cap as usize + 1
};

/// The squares next to any of `b`'s (in the 8 directions, not wrapping around the edges).
#[inline(always)]
fn neighbours(b: u64) -> u64 {
    const NOT_FILE_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_FILE_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let sideways = ((b << 1) & NOT_FILE_A) | ((b >> 1) & NOT_FILE_H);
    let row = b | sideways;
    sideways | (row << 8) | (row >> 8)
}

/// Each whole-board term's feature (its value, capped, plus its table's offset in a
/// stage's weights) for the mover's discs `p` and the opponent's `o`, whose legal moves
/// are `p_moves` and `o_moves`.
///
/// ```
/// use gamelab_othello::bits::legal_moves;
/// use gamelab_core::Game;
/// use gamelab_othello::patterns::{TABLE_TOTAL, term_features};
/// use gamelab_othello::Othello;
///
/// let terms = |pos: &Othello| {
///     let (p, o) = pos.discs();
///     term_features(p, o, legal_moves(p, o), legal_moves(o, p))
/// };
/// let mut pos = Othello::new();
/// let at_start = terms(&pos);
/// // Four moves; the mobility table comes first after the patterns'.
/// assert_eq!(at_start[0] as usize, TABLE_TOTAL + 4);
/// // After a move, 59 empties: the parity term's other entry.
/// pos.play_unchecked(pos.legal_moves()[0]);
/// assert_eq!(terms(&pos)[4], at_start[4] + 1);
/// ```
#[inline(always)]
pub fn term_features(p: u64, o: u64, p_moves: u64, o_moves: u64) -> [u32; TERMS.len()] {
    let empty = !(p | o);
    let values = [
        p_moves.count_ones(),
        o_moves.count_ones(),
        (neighbours(o) & empty).count_ones(),
        (neighbours(p) & empty).count_ones(),
        empty.count_ones() & 1,
    ];
    let mut out = [0; TERMS.len()];
    for i in 0..TERMS.len() {
        out[i] = TERM_OFFSETS[i] + values[i].min(u32::from(TERMS[i].cap));
    }
    out
}

/// Each lookup's table offset in a stage's weights (0 past the last).
const LOOKUP_OFFSETS: [u32; LOOKUP_LANES] = {
    let mut offsets = [0; LOOKUP_LANES];
    let mut i = 0;
    while i < LAYOUT.lookups {
        offsets[i] = LAYOUT.offset[LAYOUT.lookup_instance[i] as usize];
        i += 1;
    }
    offsets
};

#[inline]
pub(crate) fn lookup_offsets() -> &'static [u32; LOOKUP_LANES] {
    &LOOKUP_OFFSETS
}

/// The length of one stage's weights as the evaluation reads them ([`merge_orders`]):
/// every pattern's and term's table, then zeros up to 2^16 past the last lookup's offset,
/// so that no `u16` index can fall outside them (a pattern's index never leaves its own
/// table: the padding is never read). The evaluation's reads then need no bounds checks: the
/// compiler sees each one's range (two fifths of the midgame search's instructions were
/// these reads and their checks, by callgrind).
pub(crate) const EVAL_LEN: usize = {
    let mut len = STAGE_WEIGHTS;
    let mut i = 0;
    while i < LAYOUT.lookups {
        let end = LOOKUP_OFFSETS[i] as usize + (u16::MAX as usize + 1);
        if end > len {
            len = end;
        }
        i += 1;
    }
    len
};

/// The largest weight, in either sign, that a model may hold: two orders of one set of
/// squares add up without overflowing an `i16`.
pub const MAX_WEIGHT: i16 = i16::MAX / 2;

/// One stage's weights as the evaluation reads them: each entry of a pattern's table is
/// the sum of the entries, in the fitted table, of the same configuration read in every
/// order in which an image of the pattern reads the same squares; the terms' tables as
/// they are. Entries stay within ±2·[`MAX_WEIGHT`] when the weights are within
/// ±[`MAX_WEIGHT`].
pub(crate) fn merge_orders(weights: &[i16]) -> Box<[i16; EVAL_LEN]> {
    assert_eq!(weights.len(), STAGE_WEIGHTS, "one stage's weights");
    let mut merged = vec![0; EVAL_LEN];
    merged[..STAGE_WEIGHTS].copy_from_slice(weights);
    for (offset, orders) in other_orders() {
        let size = orders.first().map_or(0, Vec::len);
        for index in 0..size {
            let sum = i32::from(weights[offset + index])
                + orders
                    .iter()
                    .map(|order| i32::from(weights[offset + order[index] as usize]))
                    .sum::<i32>();
            merged[offset + index] = sum.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
        }
    }
    merged
        .into_boxed_slice()
        .try_into()
        .expect("EVAL_LEN entries")
}

/// For each pattern: the offset of its table and, for each other order in which an
/// instance reads the first instance's squares, the index each configuration has in it.
/// The same for every stage: computed once (the digits of each index cost more than the
/// merging itself, fifteen stages over).
fn other_orders() -> &'static [(usize, Vec<Vec<u32>>)] {
    static ORDERS: std::sync::OnceLock<Vec<(usize, Vec<Vec<u32>>)>> = std::sync::OnceLock::new();
    ORDERS.get_or_init(|| {
        (0..PATTERNS.len())
            .map(|p| {
                // The pattern's first set of squares and every other order of it.
                let first = (0..INSTANCES)
                    .find(|&i| LAYOUT.pattern[i] as usize == p)
                    .expect("every pattern has an instance");
                let n = LAYOUT.len[first] as usize;
                let squares = &LAYOUT.squares[first][..n];
                let orders = (first + 1..INSTANCES)
                    .filter(|&i| {
                        LAYOUT.pattern[i] as usize == p
                            && same_set(&LAYOUT.squares[i], &LAYOUT.squares[first], n)
                    })
                    .map(|i| {
                        // The place value, in this order, of each of the first order's
                        // squares (the last square is the units).
                        let places: Vec<u32> = squares
                            .iter()
                            .map(|s| {
                                let at = LAYOUT.squares[i][..n]
                                    .iter()
                                    .position(|t| t == s)
                                    .expect("the same squares");
                                3u32.pow((n - 1 - at) as u32)
                            })
                            .collect();
                        (0..table_size(p))
                            .map(|index| {
                                let mut rest = index as u32;
                                let mut other = 0;
                                for place in places.iter().rev() {
                                    other += rest % 3 * place;
                                    rest /= 3;
                                }
                                other
                            })
                            .collect()
                    })
                    .collect();
                (LAYOUT.offset[first] as usize, orders)
            })
            .collect()
    })
}

/// The configuration index of every set of squares the evaluation reads (Σ digit·3^place,
/// digit 0 empty, 1 the side's own disc, 2 the other side's), from both sides' points of
/// view, kept up to date move by move: a move changes only the sets through the squares it
/// fills and flips, by their place values, so playing it costs a few vector additions per
/// square instead of reading the whole board again.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(32))]
pub struct Features {
    /// From the point of view of the side to move.
    mover: [u16; LOOKUP_LANES],
    /// From the point of view of the other side.
    other: [u16; LOOKUP_LANES],
}

/// One square's place values in every lookup, aligned so that each third of it is one
/// 256-bit load: unaligned, the compiler split every load of [`Features::play`]'s loop in
/// two, under the generic tuning of every build.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Places([u16; LOOKUP_LANES]);

/// [`Layout::lookup_places`] in memory once, for the loops that read it at run time.
static LOOKUP_PLACES: [Places; 64] = LAYOUT.lookup_places;

/// Every square's place values summed.
static ALL_PLACES: Places = {
    let mut all = [0u16; LOOKUP_LANES];
    let mut s = 0;
    while s < 64 {
        let mut i = 0;
        while i < LOOKUP_LANES {
            all[i] = all[i].wrapping_add(LAYOUT.lookup_places[s].0[i]);
            i += 1;
        }
        s += 1;
    }
    Places(all)
};

/// The place values of the squares of `squares`, summed.
#[inline(always)]
fn sum_of_places(squares: u64) -> [u16; LOOKUP_LANES] {
    let mut sum = [0u16; LOOKUP_LANES];
    let mut bits = squares;
    while bits != 0 {
        let s = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        for (a, &x) in sum.iter_mut().zip(&LOOKUP_PLACES[s].0) {
            *a = a.wrapping_add(x);
        }
    }
    sum
}

impl Features {
    /// The features of the position where the side to move has `p` and the other side `o`.
    pub fn new(p: u64, o: u64) -> Features {
        // Each side's place values summed once: the mover's indices are Σp + 2·Σo, the
        // other side's 2·Σp + Σo. Near the end the side with more discs is summed the
        // short way, from the empties: every square is empty or holds a disc of one side.
        let empty = !(p | o);
        let p_fewer = p.count_ones() <= o.count_ones();
        let (fewer, more) = if p_fewer { (p, o) } else { (o, p) };
        let fewer_sum = sum_of_places(fewer);
        let more_sum = if more.count_ones() <= empty.count_ones() {
            sum_of_places(more)
        } else {
            let empty_sum = sum_of_places(empty);
            std::array::from_fn(|i| {
                ALL_PLACES.0[i]
                    .wrapping_sub(empty_sum[i])
                    .wrapping_sub(fewer_sum[i])
            })
        };
        let (p_sum, o_sum) = if p_fewer {
            (fewer_sum, more_sum)
        } else {
            (more_sum, fewer_sum)
        };
        // Wrapping arithmetic is exact here: every true index fits in a u16.
        let weighted = |once: &[u16; LOOKUP_LANES], twice: &[u16; LOOKUP_LANES]| {
            std::array::from_fn(|i| once[i].wrapping_add(twice[i].wrapping_mul(2)))
        };
        Features {
            mover: weighted(&p_sum, &o_sum),
            other: weighted(&o_sum, &p_sum),
        }
    }

    /// The features after the side to move fills `sq` and turns the discs of `flipped`;
    /// the other side is then to move.
    // Always inlined, so that each build of the searches makes its own vector code of it.
    #[inline(always)]
    pub fn play(&self, sq: u32, flipped: u64) -> Features {
        let turned = sum_of_places(flipped);
        let placed = &LOOKUP_PLACES[sq as usize].0;
        let mut next = self.pass();
        // The mover's disc (1 in its view, 2 in the other's) on the filled square and on
        // each turned one, which was the other side's (2 in the mover's view, 1 in the
        // other's).
        for i in 0..LOOKUP_LANES {
            next.mover[i] = next.mover[i]
                .wrapping_add(placed[i].wrapping_mul(2))
                .wrapping_add(turned[i]);
            next.other[i] = next.other[i]
                .wrapping_add(placed[i])
                .wrapping_sub(turned[i]);
        }
        next
    }

    /// The features after the side to move passes.
    #[inline]
    pub fn pass(&self) -> Features {
        Features {
            mover: self.other,
            other: self.mover,
        }
    }

    /// Each lookup's configuration index from the side to move's point of view (the
    /// lanes from [`LOOKUPS`] on are zero).
    #[inline]
    pub fn indices(&self) -> &[u16; LOOKUP_LANES] {
        &self.mover
    }
}

/// How many features a position has: one per instance, then one per whole-board term.
pub const FEATURES: usize = INSTANCES + TERMS.len();
const _: () = assert!(FEATURES <= LANES, "raise LANES");

/// Each instance's feature: the index of its configuration for the mover's discs `p` and
/// the opponent's `o` (Σ digit·3^place, digit 0 empty, 1 the mover's, 2 the opponent's),
/// plus its pattern table's offset in a stage's weights, into `out[..INSTANCES]`; then
/// each whole-board term's ([`term_features`]). Returns [`FEATURES`]. (What the fit sees:
/// every order of every image. The evaluation reads fewer, merged tables: [`Features`].)
pub fn features_into(p: u64, o: u64, out: &mut [u32; LANES]) -> usize {
    for (i, f) in out.iter_mut().enumerate().take(INSTANCES) {
        let squares = &LAYOUT.squares[i][..LAYOUT.len[i] as usize];
        *f = LAYOUT.offset[i]
            + squares.iter().fold(0, |acc, &s| {
                let digit = if p >> s & 1 != 0 {
                    1
                } else if o >> s & 1 != 0 {
                    2
                } else {
                    0
                };
                acc * 3 + digit
            });
    }
    let terms = term_features(
        p,
        o,
        crate::rules::bits::legal_moves(p, o),
        crate::rules::bits::legal_moves(o, p),
    );
    out[INSTANCES..FEATURES].copy_from_slice(&terms);
    FEATURES
}

/// The features of a position (see [`features_into`]) as a vector.
///
/// ```
/// use gamelab_othello::patterns::{FEATURES, features};
/// use gamelab_othello::bits::images;
/// use gamelab_othello::Othello;
///
/// let (p, o) = Othello::new().discs();
/// let mut listed = Vec::new();
/// features(p, o, &mut listed);
/// assert_eq!(listed.len(), FEATURES);
/// // A position and its images have the same features, in another order.
/// let mut turned = Vec::new();
/// features(images(p)[5], images(o)[5], &mut turned);
/// listed.sort();
/// turned.sort();
/// assert_eq!(listed, turned);
/// ```
pub fn features(p: u64, o: u64, out: &mut Vec<u32>) {
    let mut buf = [0u32; LANES];
    let n = features_into(p, o, &mut buf);
    out.clear();
    out.extend_from_slice(&buf[..n]);
}

/// The index of each instance's configuration alone (without table offsets).
pub fn indices(p: u64, o: u64, out: &mut Vec<u32>) {
    features(p, o, out);
    out.truncate(INSTANCES);
    for (i, f) in out.iter_mut().enumerate() {
        *f -= LAYOUT.offset[i];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::bits::images;

    #[test]
    fn square_maps_match_the_bitboard_images() {
        for k in 0..8 {
            for s in 0..64u8 {
                assert_eq!(
                    images(1u64 << s)[k],
                    1u64 << map_square(s, k),
                    "symmetry {k} square {s}"
                );
            }
        }
    }

    #[test]
    fn instance_counts() {
        let count = |name: &str| {
            let p = PATTERNS.iter().position(|p| p.name == name).unwrap();
            instances().iter().filter(|i| i.pattern == p).count()
        };
        assert_eq!(count("line2"), 8);
        assert_eq!(count("diag8"), 4);
        assert_eq!(count("corner3x3"), 8);
        assert_eq!(count("edge2x"), 8);
        assert_eq!(
            TABLE_TOTAL,
            PATTERNS
                .iter()
                .enumerate()
                .map(|(p, _)| table_size(p))
                .sum::<usize>()
        );
    }

    #[test]
    fn whole_board_terms_count_from_the_bitboards() {
        let value = |p: u64, o: u64| {
            let t = term_features(
                p,
                o,
                crate::rules::bits::legal_moves(p, o),
                crate::rules::bits::legal_moves(o, p),
            );
            let mut values = [0; TERMS.len()];
            for i in 0..TERMS.len() {
                values[i] = t[i] - TERM_OFFSETS[i];
            }
            values
        };
        // The mover on a1, the opponent on b1: the mover takes c1, the opponent nothing;
        // a2, b2, c1 and c2 touch b1, a2 and b2 touch a1; 62 empty squares.
        assert_eq!(value(1, 2), [1, 0, 4, 2, 0]);
        // Neighbours do not wrap around an edge: h4 touches g3–g5 and h3, h5 only.
        assert_eq!(neighbours(1 << 31).count_ones(), 5);
        assert_eq!(value(1 << 31, 1 << 32)[2..], [5, 5, 0]);
        // Parity: 61 empty squares.
        assert_eq!(value(1, 6)[4], 1);
        // At the start, four moves each; each side shows 10 empty squares to the other.
        let (p, o) = crate::Othello::new().discs();
        assert_eq!(value(p, o), [4, 4, 10, 10, 0]);
        // Counts past the cap read as the cap: 55 empty squares touch the opponent's discs
        // on b, e and h of rows 2, 5 and 8.
        assert_eq!(value(0, 0x9200_0092_0000_9200)[2], 40);
        assert_eq!(STAGE_WEIGHTS, TABLE_TOTAL + 31 + 31 + 41 + 41 + 2);
    }

    #[test]
    fn indices_read_squares_in_order() {
        // Only a1 (the mover's) and b1 (the opponent's): corner3x3's first instance reads
        // a1 b1 c1 …, so its index is 1·3^8 + 2·3^7.
        let mut out = Vec::new();
        indices(1, 2, &mut out);
        let first_corner = instances()
            .iter()
            .position(|i| PATTERNS[i.pattern].name == "corner3x3")
            .unwrap();
        assert_eq!(out[first_corner], 3u32.pow(8) + 2 * 3u32.pow(7));
    }
}
