//! The bit kernels of the hot loops — legal moves, flips, the k-th legal square — in
//! three builds: the portable one of [`crate::rules::bits`] (any x86-64, any target), one with
//! AVX2 and BMI2, which does four directions per instruction, and one that adds AVX-512
//! (on 256-bit vectors only: a vector count of leading zeros finds the flips toward lower
//! bits, and the compiler fuses chains of logic operations into one instruction). A hot
//! loop is written once, generic over [`Kernel`], and compiled once a build; the CPU is
//! asked once which to run.
//!
//! The binary stays portable (`x86-64-v2`): a build runs only where the CPU has what it
//! needs.

use crate::rules::bits;

/// The operations a hot loop needs from the board bits. A kernel is a token: holding one
/// means the CPU can run it.
pub trait Kernel: Copy {
    /// The legal moves of `p` against `o`, as [`bits::legal_moves`].
    fn legal_moves(self, p: u64, o: u64) -> u64;
    /// The discs a move on `sq` flips, as [`bits::flips`].
    fn flips(self, p: u64, o: u64, sq: u32) -> u64;
    /// The `k`-th set bit of `x`, as [`bits::nth_set_bit`].
    fn nth_set_bit(self, x: u64, k: u32) -> u32;
    /// The flips of a move on the last empty square, as [`bits::last_flip_count`].
    fn last_flip_count(self, p: u64, sq: u32) -> u32;
}

/// The portable kernels.
#[derive(Clone, Copy, Debug)]
pub struct Portable;

impl Kernel for Portable {
    #[inline(always)]
    fn legal_moves(self, p: u64, o: u64) -> u64 {
        bits::legal_moves(p, o)
    }

    #[inline(always)]
    fn flips(self, p: u64, o: u64, sq: u32) -> u64 {
        bits::flips(p, o, sq)
    }

    #[inline(always)]
    fn nth_set_bit(self, x: u64, k: u32) -> u32 {
        bits::nth_set_bit(x, k)
    }

    #[inline(always)]
    fn last_flip_count(self, p: u64, sq: u32) -> u32 {
        bits::last_flip_count(p, sq)
    }
}

/// The AVX2 kernels when this CPU has AVX2 and BMI2 (std caches the answer after the
/// first ask). A loop generic over [`Kernel`] is compiled with those features by a wrapper
/// `#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")] fn run(k: Avx2, …)`, which
/// its caller may enter (in an `unsafe` block) because it holds an [`Avx2`].
#[inline]
pub fn avx2() -> Option<Avx2> {
    #[cfg(target_arch = "x86_64")]
    {
        (std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("bmi2"))
            .then_some(Avx2(()))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// The AVX-512 kernels when this CPU has AVX2, BMI2 and AVX-512 F, VL and CD. A loop
/// generic over [`Kernel`] is compiled for them by a wrapper with
/// `#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512vl,avx512cd")]`.
#[inline]
pub fn avx512() -> Option<Avx512> {
    #[cfg(target_arch = "x86_64")]
    {
        let avx2 = avx2()?;
        (std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx512cd"))
        .then_some(Avx512(avx2))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// Asks the CPU to bring `x`'s cache line in without waiting for it, so that several
/// table reads that would each miss the cache overlap instead of queueing.
#[inline(always)]
pub fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE is part of x86-64, and a prefetch reads nothing and cannot fault.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

#[cfg(target_arch = "x86_64")]
pub use avx2::{Avx2, Avx512};

/// Stands in for the AVX2 kernels where they cannot exist.
#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub enum Avx2 {}

/// Stands in for the AVX-512 kernels where they cannot exist.
#[cfg(not(target_arch = "x86_64"))]
#[derive(Clone, Copy, Debug)]
pub enum Avx512 {}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::Kernel;

    /// The AVX2 + BMI2 kernels: made only by [`super::avx2`], on a CPU that has them.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx2(pub(super) ());

    impl Kernel for Avx2 {
        #[inline(always)]
        fn legal_moves(self, p: u64, o: u64) -> u64 {
            // SAFETY: an `Avx2` exists only on a CPU with AVX2.
            unsafe { legal_moves(p, o) }
        }

        #[inline(always)]
        fn flips(self, p: u64, o: u64, sq: u32) -> u64 {
            // SAFETY: as above.
            unsafe { flips(p, o, sq) }
        }

        #[inline(always)]
        fn nth_set_bit(self, x: u64, k: u32) -> u32 {
            // SAFETY: an `Avx2` exists only on a CPU with BMI2.
            unsafe { _pdep_u64(1 << k, x).trailing_zeros() }
        }

        /// Each line through the square read as one byte (`pext`), its count from a table.
        #[inline(always)]
        fn last_flip_count(self, p: u64, sq: u32) -> u32 {
            let (masks, places) = (
                &crate::rules::bits::LINE_MASKS[sq as usize],
                crate::rules::bits::LINE_PLACES[sq as usize],
            );
            masks
                .iter()
                .zip(places)
                .map(|(&mask, place)| {
                    // SAFETY: an `Avx2` exists only on a CPU with BMI2.
                    let pattern = unsafe { _pext_u64(p, mask) } as usize;
                    u32::from(crate::rules::bits::LINE_FLIP_COUNT[place as usize][pattern & 0xff])
                })
                .sum()
        }
    }

    /// The AVX-512 kernels: made only by [`super::avx512`], on a CPU that has AVX2, BMI2
    /// and AVX-512 F, VL and CD. All but the flips are the AVX2 ones, which the compiler
    /// builds again with the wider instruction set of the loop they are inlined into.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx512(pub(super) Avx2);

    impl Kernel for Avx512 {
        #[inline(always)]
        fn legal_moves(self, p: u64, o: u64) -> u64 {
            self.0.legal_moves(p, o)
        }

        #[inline(always)]
        fn flips(self, p: u64, o: u64, sq: u32) -> u64 {
            // SAFETY: an `Avx512` exists only on a CPU with AVX2 and AVX-512 F, VL, CD.
            unsafe { flips_by_lzcnt(p, o, sq) }
        }

        #[inline(always)]
        fn nth_set_bit(self, x: u64, k: u32) -> u32 {
            self.0.nth_set_bit(x, k)
        }

        #[inline(always)]
        fn last_flip_count(self, p: u64, sq: u32) -> u32 {
            self.0.last_flip_count(p, sq)
        }
    }

    /// Lanes: north (8), east (1), north-west (7), north-east (9). Opponent discs on files
    /// a and h cannot be inside a run except vertically, so the other lanes mask them off.
    const INNER: i64 = 0x7e7e_7e7e_7e7e_7e7e;

    /// The OR of the four lanes.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn or_lanes(v: __m256i) -> u64 {
        let half = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
    }

    /// [`crate::rules::bits::legal_moves`]'s doubled-step Kogge–Stone fill, four directions at
    /// once, both ways.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn legal_moves(p: u64, o: u64) -> u64 {
        let shift = _mm256_set_epi64x(9, 7, 1, 8);
        let shift2 = _mm256_add_epi64(shift, shift);
        let pp = _mm256_set1_epi64x(p as i64);
        let mask = _mm256_and_si256(
            _mm256_set1_epi64x(o as i64),
            _mm256_set_epi64x(INNER, INNER, INNER, -1),
        );
        let mut fwd = _mm256_and_si256(mask, _mm256_sllv_epi64(pp, shift));
        let mut back = _mm256_and_si256(mask, _mm256_srlv_epi64(pp, shift));
        fwd = _mm256_or_si256(fwd, _mm256_and_si256(mask, _mm256_sllv_epi64(fwd, shift)));
        back = _mm256_or_si256(back, _mm256_and_si256(mask, _mm256_srlv_epi64(back, shift)));
        let pair_fwd = _mm256_and_si256(mask, _mm256_sllv_epi64(mask, shift));
        let pair_back = _mm256_srlv_epi64(pair_fwd, shift);
        for _ in 0..2 {
            fwd = _mm256_or_si256(
                fwd,
                _mm256_and_si256(pair_fwd, _mm256_sllv_epi64(fwd, shift2)),
            );
            back = _mm256_or_si256(
                back,
                _mm256_and_si256(pair_back, _mm256_srlv_epi64(back, shift2)),
            );
        }
        let moves = _mm256_or_si256(
            _mm256_sllv_epi64(fwd, shift),
            _mm256_srlv_epi64(back, shift),
        );
        or_lanes(moves) & !(p | o)
    }

    /// The rays from each square, four to a vector: toward higher bits (east, north,
    /// north-east, north-west) and toward lower bits (west, south, south-east, south-west).
    #[repr(align(32))]
    struct Rays([[[u64; 4]; 2]; 64]);

    static RAYS: Rays = {
        let mut rays = [[[0u64; 4]; 2]; 64];
        let mut sq = 0;
        while sq < 64 {
            let mut i = 0;
            while i < 4 {
                rays[sq][0][i] = crate::rules::bits::RAYS[[0, 2, 4, 5][i]][sq];
                rays[sq][1][i] = crate::rules::bits::RAYS[[1, 3, 6, 7][i]][sq];
                i += 1;
            }
            sq += 1;
        }
        Rays(rays)
    };

    /// The flips along the four rays toward higher bits (`up`), where the nearest square
    /// that is not the opponent's is the lowest bit.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn flips_up(up: &[u64; 4], pp: __m256i, oo: __m256i) -> __m256i {
        let zero = _mm256_setzero_si256();
        // SAFETY: `up` is four u64s, 32-byte aligned (`Rays` is, and each half is 32 bytes).
        let ray = unsafe { _mm256_load_si256(up.as_ptr().cast()) };
        let stop = _mm256_andnot_si256(oo, ray);
        let first = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));
        let not_ours = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
        let run = _mm256_and_si256(ray, _mm256_sub_epi64(first, _mm256_set1_epi64x(1)));
        _mm256_andnot_si256(not_ours, run)
    }

    /// [`crate::rules::bits::flips`], four rays at once. Toward higher bits the nearest square
    /// that is not the opponent's is the lowest bit; toward lower bits it is the highest,
    /// found by smearing the stops down the ray (AVX2 has no vector bit scan).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn flips(p: u64, o: u64, sq: u32) -> u64 {
        let [up, down] = &RAYS.0[sq as usize];
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();

        let flipped_up = flips_up(up, pp, oo);

        // SAFETY: `down` is four u64s, 32-byte aligned (`Rays` is, and each half is 32
        // bytes).
        let ray = unsafe { _mm256_load_si256(down.as_ptr().cast()) };
        // Smear the stops down the ray (steps of s, 2s, 4s cover its 7 squares): the ray
        // squares not reached are above the nearest stop.
        let step = _mm256_set_epi64x(9, 7, 8, 1);
        let stop = _mm256_andnot_si256(oo, ray);
        let mut below = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, step));
        let step2 = _mm256_add_epi64(step, step);
        below = _mm256_or_si256(below, _mm256_srlv_epi64(below, step2));
        below = _mm256_or_si256(
            below,
            _mm256_srlv_epi64(below, _mm256_add_epi64(step2, step2)),
        );
        let first = _mm256_andnot_si256(_mm256_srlv_epi64(below, step), stop);
        let not_ours = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
        let run = _mm256_andnot_si256(below, ray);
        let flipped_down = _mm256_andnot_si256(not_ours, run);

        or_lanes(_mm256_or_si256(flipped_up, flipped_down))
    }

    /// [`flips`], with the nearest stop toward lower bits found by counting leading zeros
    /// (AVX-512 CD) instead of smearing: where it is ours (the outflanking disc), the ray
    /// squares above it flip.
    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
    #[inline]
    fn flips_by_lzcnt(p: u64, o: u64, sq: u32) -> u64 {
        let [up, down] = &RAYS.0[sq as usize];
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();

        let flipped_up = flips_up(up, pp, oo);

        // SAFETY: `down` is four u64s, 32-byte aligned (`Rays` is, and each half is 32
        // bytes).
        let ray = unsafe { _mm256_load_si256(down.as_ptr().cast()) };
        let stop = _mm256_andnot_si256(oo, ray);
        // The top bit shifted right by the stop's leading zeros is the stop (none when
        // the count is 64); kept only where it is ours.
        let top = _mm256_set1_epi64x(i64::MIN);
        let outflank = _mm256_and_si256(_mm256_srlv_epi64(top, _mm256_lzcnt_epi64(stop)), pp);
        // -outflank sets it and every bit above; doubled, only the bits above.
        let above = _mm256_slli_epi64::<1>(_mm256_sub_epi64(zero, outflank));
        let flipped_down = _mm256_and_si256(above, ray);

        or_lanes(_mm256_or_si256(flipped_up, flipped_down))
    }
}

// The tests compare the SIMD kernels with the portable ones.
#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::*;

    fn boards() -> impl Iterator<Item = (u64, u64)> {
        let mut x = 0x243f_6a88_85a3_08d3u64;
        std::iter::repeat_with(move || {
            x = x
                .wrapping_mul(0x5851_f42d_4c95_7f2d)
                .wrapping_add(0x1405_7b7e_f767_814f);
            let a = x ^ x.rotate_left(29);
            x = x
                .wrapping_mul(0x5851_f42d_4c95_7f2d)
                .wrapping_add(0x1405_7b7e_f767_814f);
            let b = x ^ x.rotate_left(17);
            (a & !b, b & !a)
        })
        .take(50_000)
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx2_kernels_agree_with_the_portable_ones() {
        let Some(k) = avx2() else {
            eprintln!("no AVX2 on this CPU: nothing to compare");
            return;
        };
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        fn check(k: Avx2, p: u64, o: u64) {
            let portable = Portable;
            assert_eq!(
                k.legal_moves(p, o),
                portable.legal_moves(p, o),
                "{p:#x} {o:#x}"
            );
            for sq in 0..64 {
                if (p | o) >> sq & 1 == 0 {
                    assert_eq!(k.flips(p, o, sq), portable.flips(p, o, sq), "{sq}");
                }
            }
            let x = p | o;
            for i in 0..x.count_ones() {
                assert_eq!(k.nth_set_bit(x, i), portable.nth_set_bit(x, i));
            }
            for sq in 0..64 {
                let mover = p & !(1 << sq);
                assert_eq!(
                    k.last_flip_count(mover, sq),
                    portable.last_flip_count(mover, sq),
                    "{mover:#x} {sq}"
                );
            }
        }
        for (p, o) in boards() {
            // SAFETY: `k` proves the CPU has the features.
            unsafe { check(k, p, o) };
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_avx512_kernels_agree_with_the_portable_ones() {
        let Some(k) = avx512() else {
            eprintln!("no AVX-512 on this CPU: nothing to compare");
            return;
        };
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512vl,avx512cd")]
        fn check(k: Avx512, p: u64, o: u64) {
            let portable = Portable;
            assert_eq!(k.legal_moves(p, o), portable.legal_moves(p, o));
            for sq in 0..64 {
                if (p | o) >> sq & 1 == 0 {
                    assert_eq!(k.flips(p, o, sq), portable.flips(p, o, sq), "{sq}");
                }
            }
        }
        for (p, o) in boards() {
            // SAFETY: `k` proves the CPU has the features.
            unsafe { check(k, p, o) };
        }
    }
}
