//! The rules: bitboards and their kernels (portable and SIMD), the position, legal moves,
//! flips and the final score. Uses nothing else of the crate.

pub mod bits;
#[allow(unsafe_code)] // SIMD intrinsics behind a run-time CPU check; see the module.
pub mod kernel;
pub(crate) mod position;
