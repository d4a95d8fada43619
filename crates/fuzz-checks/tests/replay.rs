//! The fuzz targets' checks over their seed inputs (`fuzz/seeds/`), the corpora the
//! fuzzers grew on this machine (`fuzz/corpus/`, when there is one), and a fixed set of
//! mutations of the seeds: the fuzz smoke run of the test command, bounded by inputs, not
//! by time, and the same on every machine. Long fuzzing runs are `scripts/fuzz.sh`'s.

use std::path::{Path, PathBuf};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

/// Mutations of each seed input (35,000 inputs in all, about a second in a test build).
const MUTATIONS: usize = 3000;

fn fuzz_folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of `dir` (none when it is missing), in name order.
fn inputs(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a readable folder").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, bytes)
        })
        .collect()
}

/// One of libFuzzer's kinds of change to `input`, drawn from `rng`: a byte changed,
/// inserted or removed, a run repeated or cut, a piece of `other` spliced in.
fn mutate(input: &[u8], other: &[u8], rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut out = input.to_vec();
    let at = |rng: &mut ChaCha8Rng, len: usize| rng.random_range(0..=len);
    for _ in 0..rng.random_range(1..=4) {
        match rng.random_range(0..6) {
            0 if !out.is_empty() => {
                let i = rng.random_range(0..out.len());
                out[i] ^= 1 << rng.random_range(0..8);
            }
            1 => {
                let i = at(rng, out.len());
                // Bytes the parsers care about as often as any other.
                let special = b"0123456789,;:=()[]{}\"-+. \n\tabcdefghxo";
                let byte = if rng.random_bool(0.5) {
                    special[rng.random_range(0..special.len())]
                } else {
                    rng.random()
                };
                out.insert(i, byte);
            }
            2 if !out.is_empty() => {
                let i = rng.random_range(0..out.len());
                let n = rng.random_range(1..=(out.len() - i).min(16));
                out.drain(i..i + n);
            }
            3 if !out.is_empty() => {
                let i = rng.random_range(0..out.len());
                let n = rng.random_range(1..=(out.len() - i).min(32));
                let piece = out[i..i + n].to_vec();
                let j = at(rng, out.len());
                out.splice(j..j, piece);
            }
            4 if !other.is_empty() => {
                let i = rng.random_range(0..other.len());
                let n = rng.random_range(1..=(other.len() - i).min(64));
                let j = at(rng, out.len());
                out.splice(j..j, other[i..i + n].iter().copied());
            }
            _ => out.truncate(at(rng, out.len())),
        }
    }
    out
}

/// Runs `check` on `input`, saying which input it was if it panics.
fn checked(target: &str, what: &str, check: fn(&[u8]), input: &[u8]) {
    if std::panic::catch_unwind(|| check(input)).is_err() {
        panic!(
            "fuzz target {target} fails on {what}: {:?} (save it under fuzz/seeds/{target}/ to replay it)",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn every_target_passes_its_seeds_corpus_and_their_mutations() {
    let fuzz = fuzz_folder();
    for &(target, check) in gamelab_fuzz_checks::TARGETS {
        let seeds = inputs(&fuzz.join("seeds").join(target));
        assert!(!seeds.is_empty(), "fuzz/seeds/{target} has no inputs");
        for (path, bytes) in seeds
            .iter()
            .chain(&inputs(&fuzz.join("corpus").join(target)))
        {
            checked(target, &path.display().to_string(), check, bytes);
        }
        // The same mutations on every run: a failure here fails again.
        let mut rng = ChaCha8Rng::seed_from_u64(0x0067_616d_656c_6162);
        for (i, (path, bytes)) in seeds.iter().enumerate() {
            let other = &seeds[(i + 1) % seeds.len()].1;
            for n in 0..MUTATIONS {
                let input = mutate(bytes, other, &mut rng);
                let what = format!("mutation {n} of {}", path.display());
                checked(target, &what, check, &input);
            }
        }
    }
}
