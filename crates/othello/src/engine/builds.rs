//! The builds of the searches: each search's node function is written once, generic over
//! a [`Build`], and compiled once a build — portable, AVX2, AVX-512 (see [`kernel`]). A
//! node calls its recursion through [`Build::enter`], which enters a function compiled
//! with the build's target features, so that the whole recursion runs in code compiled
//! for them (the kernels, and the vector code the compiler makes of the rest, such as the
//! feature updates). The searches stand above this module: each enters its own node.

#[cfg(target_arch = "x86_64")]
use crate::rules::kernel;
use crate::rules::kernel::{Kernel, Portable};

/// One build of the kernels, and the way into code compiled for it.
pub(crate) trait Build: Copy + Send + Sync {
    type K: Kernel;
    fn kernel(self) -> Self::K;

    /// Runs `node` (a search's node, which recurses through this method) with this
    /// build: the SIMD builds enter a function compiled for their target features, into
    /// which `node` and all it inlines are compiled; the portable build runs it here.
    /// The node's [`InBuild::run`] must be `#[inline(always)]`; a closure would not
    /// always be inlined, and would then run without the features (FFO #40 and #44 took
    /// 19 % more instructions through one).
    fn enter<N: InBuild>(self, node: N) -> N::Output;
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

    #[inline(always)]
    fn enter<N: InBuild>(self, node: N) -> N::Output {
        node.run(self)
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
            fn enter<N: InBuild>(self, node: N) -> N::Output {
                #[target_feature(enable = $features)]
                fn run<N: InBuild>(b: $build, node: N) -> N::Output {
                    node.run(b)
                }
                // SAFETY: the kernel token proves the CPU has these features.
                unsafe { run(self, node) }
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

/// Work that runs in any build (a closure cannot be generic over it): a whole search
/// ([`in_widest_build`]), or one node of it ([`Build::enter`]).
pub(crate) trait InBuild {
    type Output;
    fn run<B: Build>(self, b: B) -> Self::Output;
}
