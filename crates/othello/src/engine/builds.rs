//! The builds of the searches: each search's node function is written once, generic over
//! a [`Build`], and compiled once a build — portable, AVX2, AVX-512 (see [`kernel`]). A
//! node calls its recursion through the build, which enters a function compiled with the
//! build's target features, so that the whole recursion runs in code compiled for them
//! (the kernels, and the vector code the compiler makes of the rest, such as the feature
//! updates).

use crate::Othello;
use crate::engine::endgame::{Shallow, Worker, nws_node, shallow_node};
use crate::engine::patterns::Features;
use crate::engine::perft::perft_node;
use crate::engine::search::{Store, Walk};
#[cfg(target_arch = "x86_64")]
use crate::rules::kernel;
use crate::rules::kernel::{Kernel, Portable};
use crate::rules::position::playouts;
use gamelab_core::{GameRng, Outcome};

/// The searches of one build of the kernels: the exact solver's null-window node and its
/// ordering searches, the midgame search's node, perft's, and random games. Each method
/// runs its node function as compiled where it is called (the portable build's way); the
/// SIMD builds enter a function compiled for their features instead.
pub(crate) trait Build: Copy + Send + Sync {
    type K: Kernel;
    fn kernel(self) -> Self::K;

    fn nws(self, w: &mut Worker<'_>, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
        nws_node(self, w, p, o, alpha, passed)
    }

    #[allow(clippy::too_many_arguments)]
    fn shallow(
        self,
        m: &mut Shallow<'_>,
        p: u64,
        o: u64,
        f: &Features,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        shallow_node(self, m, p, o, f, depth, alpha, beta)
    }

    #[allow(clippy::too_many_arguments)]
    fn pvs<S: Store>(
        self,
        w: &mut Walk<'_, S, Self>,
        p: u64,
        o: u64,
        f: &Features,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: u32,
    ) -> i32 {
        w.pvs_node(p, o, f, depth, alpha, beta, ply)
    }

    fn perft(self, p: u64, o: u64, depth: u32) -> u64 {
        perft_node(self, p, o, depth)
    }

    fn playouts(self, start: &Othello, rngs: &mut [[GameRng; 2]], results: &mut [(Outcome, u64)]) {
        playouts(self.kernel(), start, rngs, results)
    }
}

/// The searches compiled for any CPU the binary runs on.
#[derive(Clone, Copy)]
pub(crate) struct PortableBuild;

impl Build for PortableBuild {
    type K = Portable;

    #[inline(always)]
    fn kernel(self) -> Portable {
        Portable
    }
}

/// Defines `$build`, the searches compiled with `$features`, which a `$kernel` token
/// proves the CPU has (see [`kernel`]): each recursion enters a function compiled with
/// them, so that the whole search is.
macro_rules! simd_build {
    ($(#[$doc:meta])* $build:ident($kernel:ty), $features:literal) => {
        $(#[$doc])*
        #[cfg(target_arch = "x86_64")]
        #[derive(Clone, Copy)]
        pub(crate) struct $build(pub(crate) $kernel);

        #[cfg(target_arch = "x86_64")]
        #[allow(unsafe_code)]
        impl Build for $build {
            type K = $kernel;

            #[inline(always)]
            fn kernel(self) -> $kernel {
                self.0
            }

            #[inline(always)]
            fn nws(self, w: &mut Worker<'_>, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
                #[target_feature(enable = $features)]
                fn run(b: $build, w: &mut Worker<'_>, p: u64, o: u64, alpha: i32, passed: bool) -> i32 {
                    nws_node(b, w, p, o, alpha, passed)
                }
                // SAFETY: the kernel token proves the CPU has these features.
                unsafe { run(self, w, p, o, alpha, passed) }
            }

            #[inline(always)]
            fn shallow(
                self,
                m: &mut Shallow<'_>,
                p: u64,
                o: u64,
                f: &Features,
                depth: u32,
                alpha: i32,
                beta: i32,
            ) -> i32 {
                #[allow(clippy::too_many_arguments)]
                #[target_feature(enable = $features)]
                fn run(
                    b: $build,
                    m: &mut Shallow<'_>,
                    p: u64,
                    o: u64,
                    f: &Features,
                    depth: u32,
                    alpha: i32,
                    beta: i32,
                ) -> i32 {
                    shallow_node(b, m, p, o, f, depth, alpha, beta)
                }
                // SAFETY: as above.
                unsafe { run(self, m, p, o, f, depth, alpha, beta) }
            }

            #[inline(always)]
            fn pvs<S: Store>(
                self,
                w: &mut Walk<'_, S, Self>,
                p: u64,
                o: u64,
                f: &Features,
                depth: u32,
                alpha: i32,
                beta: i32,
                ply: u32,
            ) -> i32 {
                #[allow(clippy::too_many_arguments)]
                #[target_feature(enable = $features)]
                fn run<S: Store>(
                    w: &mut Walk<'_, S, $build>,
                    p: u64,
                    o: u64,
                    f: &Features,
                    depth: u32,
                    alpha: i32,
                    beta: i32,
                    ply: u32,
                ) -> i32 {
                    w.pvs_node(p, o, f, depth, alpha, beta, ply)
                }
                // SAFETY: as above.
                unsafe { run(w, p, o, f, depth, alpha, beta, ply) }
            }

            #[inline(always)]
            fn perft(self, p: u64, o: u64, depth: u32) -> u64 {
                #[target_feature(enable = $features)]
                fn run(b: $build, p: u64, o: u64, depth: u32) -> u64 {
                    perft_node(b, p, o, depth)
                }
                // SAFETY: as above.
                unsafe { run(self, p, o, depth) }
            }

            #[inline(always)]
            fn playouts(
                self,
                start: &Othello,
                rngs: &mut [[GameRng; 2]],
                results: &mut [(Outcome, u64)],
            ) {
                #[target_feature(enable = $features)]
                fn run(
                    k: $kernel,
                    start: &Othello,
                    rngs: &mut [[GameRng; 2]],
                    results: &mut [(Outcome, u64)],
                ) {
                    playouts(k, start, rngs, results)
                }
                // SAFETY: as above.
                unsafe { run(self.0, start, rngs, results) }
            }
        }
    };
}

simd_build!(
    /// The searches compiled for AVX2 and BMI2.
    Avx2Build(kernel::Avx2),
    "avx2,bmi1,bmi2,lzcnt,popcnt"
);

simd_build!(
    /// The searches compiled for AVX-512 besides (256-bit vectors): FFO #40–#45 on one
    /// thread about a tenth faster than the AVX2 build on the Intel Xeon measured.
    Avx512Build(kernel::Avx512),
    "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512vl,avx512cd"
);

/// Runs `job` in the widest build this CPU has.
pub(crate) fn in_widest_build<J: InBuild>(job: J) -> J::Output {
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(k) = kernel::avx512() {
            return job.run(Avx512Build(k));
        }
        if let Some(k) = kernel::avx2() {
            return job.run(Avx2Build(k));
        }
    }
    job.run(PortableBuild)
}

/// Work that runs in any build (a closure cannot be generic over it).
pub(crate) trait InBuild {
    type Output;
    fn run<B: Build>(self, b: B) -> Self::Output;
}
