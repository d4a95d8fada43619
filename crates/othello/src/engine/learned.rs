//! The learned evaluation: pattern weights per game stage, fitted to game records by least
//! squares (article 002's method, scaled up as Buro's Logistello did), stored quantised and
//! compressed, and evaluated from the bitboards.
//!
//! Values are in 1/256 of a disc, from the side to move's point of view: the model predicts
//! the final disc difference under good play.
//!
//! ```
//! use gamelab_othello::Othello;
//! use gamelab_othello::learned::{SCALE, shipped};
//!
//! let model = shipped();
//! let (p, o) = Othello::new().discs();
//! // The start is symmetric: each side's view of it is the other's.
//! let value = model.evaluate(p, o);
//! assert_eq!(value, model.evaluate(p.swap_bytes(), o.swap_bytes()));
//! // A few discs either way, not a won game.
//! assert!(value.abs() < 4 * SCALE);
//! ```

use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::engine::patterns::{
    EVAL_LEN, Features, LOOKUP_LANES, LOOKUPS, MAX_WEIGHT, PATTERNS, TABLE_TOTAL, TERMS,
    lookup_offsets, merge_orders, offsets, term_features,
};
use crate::rules::kernel::{Kernel, Portable};

/// Units of an evaluation per disc.
pub const SCALE: i32 = 256;
/// Game stages: 4 plies each, by the number of empty squares.
pub const STAGES: usize = 15;
const MAGIC: &[u8; 8] = b"GLOPAT01";
/// The largest model file read (the shipped one is 1.7 MB).
pub const MAX_MODEL_BYTES: u64 = 64 << 20;

/// The stage of a position with `empties` empty squares (60 at the start).
///
/// ```
/// use gamelab_othello::learned::{STAGES, stage};
///
/// assert_eq!(stage(60), 0);
/// assert_eq!(stage(57), 0);
/// assert_eq!(stage(56), 1);
/// // The last stage takes the last four empties and a finished board.
/// assert_eq!(stage(4), STAGES - 1);
/// assert_eq!(stage(0), STAGES - 1);
/// ```
#[inline]
pub fn stage(empties: u32) -> usize {
    ((60u32.saturating_sub(empties)) / 4).min(STAGES as u32 - 1) as usize
}

/// A fingerprint of the pattern set and the whole-board terms, so a model is never read
/// against other features.
fn patterns_id() -> u32 {
    let mut h = crc32fast::Hasher::new();
    for p in PATTERNS {
        h.update(p.name.as_bytes());
        h.update(p.squares);
    }
    for t in TERMS {
        h.update(t.name.as_bytes());
        h.update(&[t.cap]);
    }
    h.finalize()
}

/// Why a model file cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ModelError {
    #[error("{path}: {reason}")]
    Io { path: String, reason: String },
    #[error("{0}")]
    Format(String),
}

/// Pattern and whole-board term weights for every stage, quantised to 1/256 disc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternModel {
    /// Per stage: the intercept, then every pattern's and term's table at its offset.
    biases: Vec<i32>,
    weights: Vec<Vec<i16>>,
    /// The weights as the evaluation reads them ([`merge_orders`]).
    merged: Vec<Box<[i16; EVAL_LEN]>>,
    /// Whether any whole-board term has a weight: a model of patterns alone (one made
    /// before the terms, its term weights zero) is evaluated without counting moves, as
    /// fast as it was then.
    terms: bool,
}

impl PatternModel {
    /// A model from fitted weights in discs (`weights[stage]` has every table's entries at
    /// their offsets, [`offsets`]`().1` of them); weights beyond ±[`MAX_WEIGHT`] (64
    /// discs) are clamped.
    ///
    /// ```
    /// use gamelab_othello::Othello;
    /// use gamelab_othello::learned::{PatternModel, SCALE, STAGES};
    /// use gamelab_othello::patterns::offsets;
    ///
    /// // Every weight zero, each stage's intercept its number of discs: the value of
    /// // every position of a stage is its intercept, whatever its discs.
    /// let biases: Vec<f64> = (0..STAGES).map(|s| s as f64).collect();
    /// let model = PatternModel::from_discs(&biases, &vec![vec![0.0; offsets().1]; STAGES]);
    /// let (p, o) = Othello::new().discs();
    /// assert_eq!(model.evaluate(p, o), 0);
    /// // Rank 1 filled too: 12 discs, 52 empties, stage 2.
    /// assert_eq!(model.evaluate(p | 0xff, o), 2 * SCALE);
    /// ```
    pub fn from_discs(biases: &[f64], weights: &[Vec<f64>]) -> PatternModel {
        let limit = f64::from(MAX_WEIGHT);
        let quantise = |x: f64| (x * f64::from(SCALE)).round().clamp(-limit, limit) as i16;
        PatternModel::new(
            biases
                .iter()
                .map(|b| (b * f64::from(SCALE)).round() as i32)
                .collect(),
            weights
                .iter()
                .map(|w| w.iter().map(|&x| quantise(x)).collect())
                .collect(),
        )
    }

    fn new(biases: Vec<i32>, weights: Vec<Vec<i16>>) -> PatternModel {
        let merged = weights.iter().map(|w| merge_orders(w)).collect();
        let terms = weights
            .iter()
            .any(|w| w[TABLE_TOTAL..].iter().any(|&x| x != 0));
        PatternModel {
            biases,
            weights,
            merged,
            terms,
        }
    }

    /// The value of a position (the mover's discs `p`, the opponent's `o`) in 1/256 disc.
    ///
    /// ```
    /// use gamelab_othello::learned::{SCALE, shipped};
    ///
    /// // Files a and h and rank 1 (all four corners among them) against the
    /// // middle 4×4 block: a large lead for the side with the edges, whichever moves.
    /// let (edges, middle) = (0x8181_8181_8181_81ff, 0x0000_3c3c_3c3c_0000);
    /// assert!(shipped().evaluate(edges, middle) > 16 * SCALE);
    /// assert!(shipped().evaluate(middle, edges) < -16 * SCALE);
    /// ```
    #[inline]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        self.evaluate_features(Portable, &Features::new(p, o), p, o)
    }

    /// The value, in 1/256 disc, of the position `p`, `o` whose pattern features (kept up
    /// to date move by move) are `features`; `k` counts the moves of the mobility terms,
    /// in the caller's build.
    ///
    /// ```
    /// use gamelab_othello::kernel::Portable;
    /// use gamelab_othello::learned::shipped;
    /// use gamelab_othello::patterns::Features;
    /// use gamelab_othello::{Othello, Square};
    ///
    /// let start = Othello::new();
    /// let (p, o) = start.discs();
    /// // d3: the mover's disc on d3 turns d4.
    /// let d3 = Square::parse("d3").unwrap().index() as u32;
    /// let flipped = Square::parse("d4").unwrap().bit();
    /// let after = Features::new(p, o).play(d3, flipped);
    /// // The other side is to move: its discs first.
    /// let (np, no) = (o & !flipped, p | flipped | 1 << d3);
    /// let model = shipped();
    /// assert_eq!(after, Features::new(np, no));
    /// assert_eq!(model.evaluate_features(Portable, &after, np, no), model.evaluate(np, no));
    /// ```
    #[inline(always)]
    pub fn evaluate_features(&self, k: impl Kernel, features: &Features, p: u64, o: u64) -> i32 {
        self.evaluate_with(k, features, p, o, || k.legal_moves(p, o))
    }

    /// [`PatternModel::evaluate_features`] when the caller has the mover's legal moves,
    /// `p_moves`, at hand already (a move's key counts them as the opponent's replies).
    #[inline(always)]
    pub(crate) fn evaluate_knowing_moves(
        &self,
        k: impl Kernel,
        features: &Features,
        p: u64,
        o: u64,
        p_moves: u64,
    ) -> i32 {
        self.evaluate_with(k, features, p, o, || p_moves)
    }

    /// The evaluation, the mover's moves counted by `p_moves` only if a term needs them.
    #[inline(always)]
    fn evaluate_with(
        &self,
        k: impl Kernel,
        features: &Features,
        p: u64,
        o: u64,
        p_moves: impl FnOnce() -> u64,
    ) -> i32 {
        let s = stage(64 - (p | o).count_ones());
        let weights: &[i16; EVAL_LEN] = &self.merged[s];
        let offsets = lookup_offsets();
        let indices = features.indices();
        // Written out lane by lane, so that each read's offset is a constant and its
        // index's range known (see `EVAL_LEN`): no bounds checks, three instructions a
        // read. A loop would not be unrolled, and would check each read.
        macro_rules! sum_of_lanes {
            ($($lane:literal)*) => {
                0 $(+ if $lane < LOOKUPS {
                    i32::from(weights[offsets[$lane] as usize + usize::from(indices[$lane])])
                } else {
                    0
                })*
            };
        }
        const _: () = assert!(LOOKUP_LANES == 48, "one term a lane below");
        // The whole-board terms' tables sit in the same array, after the patterns'.
        let terms: i32 = if self.terms {
            term_features(p, o, p_moves(), k.legal_moves(o, p))
                .iter()
                .map(|&t| i32::from(weights[t as usize]))
                .sum()
        } else {
            0
        };
        self.biases[s]
            + terms
            + sum_of_lanes!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25
                26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47)
    }

    /// The value, in 1/256 disc, of a position of stage `s` given its features (as
    /// [`crate::patterns::features`] lists them: what the fit sees), the same as
    /// [`PatternModel::evaluate`]'s.
    ///
    /// ```
    /// use gamelab_othello::Othello;
    /// use gamelab_othello::learned::{shipped, stage};
    /// use gamelab_othello::patterns::features;
    ///
    /// let pos = Othello::new();
    /// let (p, o) = pos.discs();
    /// let mut listed = Vec::new();
    /// features(p, o, &mut listed);
    /// let model = shipped();
    /// assert_eq!(
    ///     model.value_of_features(stage(pos.empties()), &listed),
    ///     model.evaluate(p, o)
    /// );
    /// ```
    pub fn value_of_features(&self, s: usize, features: &[u32]) -> i32 {
        let weights = &self.weights[s];
        self.biases[s]
            + features
                .iter()
                .map(|&i| i32::from(weights[i as usize]))
                .sum::<i32>()
    }

    /// The file form: magic, pattern-set id, stage count, table length, then per stage the
    /// intercept (i32) and the weights (i16), little-endian, compressed with zstd.
    ///
    /// ```
    /// use gamelab_othello::learned::{PatternModel, shipped};
    ///
    /// let bytes = shipped().to_bytes();
    /// assert_eq!(PatternModel::from_bytes(&bytes).unwrap(), *shipped());
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut raw = Vec::new();
        raw.extend_from_slice(MAGIC);
        raw.extend_from_slice(&patterns_id().to_le_bytes());
        raw.extend_from_slice(&(STAGES as u32).to_le_bytes());
        raw.extend_from_slice(&(offsets().1 as u32).to_le_bytes());
        for (bias, weights) in self.biases.iter().zip(&self.weights) {
            raw.extend_from_slice(&bias.to_le_bytes());
            for w in weights {
                raw.extend_from_slice(&w.to_le_bytes());
            }
        }
        zstd::encode_all(&raw[..], 19).expect("compressing into memory cannot fail")
    }

    /// Reads the file form back, checking everything: a file of another pattern set, with
    /// too few or too many weights, or weights beyond ±[`MAX_WEIGHT`] is refused.
    ///
    /// ```
    /// use gamelab_othello::learned::{PatternModel, shipped};
    ///
    /// let bytes = shipped().to_bytes();
    /// let err = PatternModel::from_bytes(&bytes[..bytes.len() / 2]).unwrap_err();
    /// assert!(err.to_string().starts_with("not a gamelab Othello pattern model"));
    /// assert!(PatternModel::from_bytes(b"GLOPAT01").is_err());
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternModel, ModelError> {
        let bad = |reason: &str| {
            ModelError::Format(format!("not a gamelab Othello pattern model: {reason}"))
        };
        let table = offsets().1;
        let expected = 20 + STAGES * (4 + 2 * table);
        let mut raw = Vec::with_capacity(expected);
        let mut decoder =
            zstd::stream::read::Decoder::new(bytes).map_err(|_| bad("not zstd data"))?;
        // Read one byte past the expected size, to tell a longer file from a right one
        // without ever holding more than that in memory.
        std::io::Read::read_to_end(
            &mut std::io::Read::take(&mut decoder, expected as u64 + 1),
            &mut raw,
        )
        .map_err(|_| bad("the compressed data is damaged"))?;
        if raw.len() < 20 || &raw[..8] != MAGIC {
            return Err(bad("it does not start with GLOPAT01"));
        }
        let word = |at: usize| u32::from_le_bytes(raw[at..at + 4].try_into().expect("4 bytes"));
        if word(8) != patterns_id() {
            return Err(bad("it was fitted to a different pattern set"));
        }
        if word(12) as usize != STAGES || word(16) as usize != table {
            return Err(bad(&format!(
                "{} stages of {} weights; this gamelab has {STAGES} of {table}",
                word(12),
                word(16)
            )));
        }
        if raw.len() != expected {
            return Err(bad(&format!(
                "{} bytes once unpacked; expected {expected}",
                raw.len()
            )));
        }
        let mut biases = Vec::with_capacity(STAGES);
        let mut weights = Vec::with_capacity(STAGES);
        let mut at = 20;
        for _ in 0..STAGES {
            biases.push(word(at) as i32);
            at += 4;
            let stage: Vec<i16> = raw[at..at + 2 * table]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            if stage
                .iter()
                .any(|w| w.unsigned_abs() > MAX_WEIGHT.unsigned_abs())
            {
                return Err(bad(&format!(
                    "stage {} has a weight beyond ±{MAX_WEIGHT} (64 discs); weights must be within it",
                    weights.len()
                )));
            }
            weights.push(stage);
            at += 2 * table;
        }
        Ok(PatternModel::new(biases, weights))
    }

    /// Writes the file form to `path` by [`gamelab_core::files::write_atomically`]: a
    /// failure or a kill leaves the old file whole or the new one (at worst with a
    /// complete copy `.NAME.XXXXXX` beside it, which the next write removes).
    ///
    /// ```
    /// use gamelab_othello::learned::{PatternModel, shipped};
    ///
    /// let dir = std::env::temp_dir().join(format!("gamelab-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("patterns.glopat");
    /// shipped().save(&path).unwrap();
    /// assert_eq!(PatternModel::load(&path).unwrap(), *shipped());
    /// std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn save(&self, path: &Path) -> Result<(), ModelError> {
        gamelab_core::files::write_atomically(path, |w| w.write_all(&self.to_bytes())).map_err(
            |e| ModelError::Io {
                path: path.display().to_string(),
                reason: e.to_string(),
            },
        )
    }

    /// Reads a model file of at most [`MAX_MODEL_BYTES`]; the error names the file.
    ///
    /// ```
    /// use std::path::Path;
    /// use gamelab_othello::learned::PatternModel;
    ///
    /// let err = PatternModel::load(Path::new("no/such/model.glopat")).unwrap_err();
    /// assert!(err.to_string().starts_with("no/such/model.glopat: "));
    /// ```
    pub fn load(path: &Path) -> Result<PatternModel, ModelError> {
        let p = path.display().to_string();
        let bytes = gamelab_core::files::read_regular(path, MAX_MODEL_BYTES).map_err(|e| {
            ModelError::Io {
                path: p.clone(),
                reason: e.to_string(),
            }
        })?;
        PatternModel::from_bytes(&bytes).map_err(|e| ModelError::Io {
            path: p,
            reason: e.to_string(),
        })
    }
}

/// The model that ships with gamelab, fitted by `gamelab train-patterns` (see
/// `crates/othello/MODEL.md`), unpacked once: every call shares it.
///
/// ```
/// use std::sync::Arc;
/// use gamelab_othello::learned::shipped;
///
/// assert!(Arc::ptr_eq(&shipped(), &shipped()));
/// ```
pub fn shipped() -> Arc<PatternModel> {
    static MODEL: OnceLock<Arc<PatternModel>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            Arc::new(
                PatternModel::from_bytes(include_bytes!("../../model/patterns.glopat"))
                    .expect("the shipped model matches the pattern set"),
            )
        })
        .clone()
}
