//! Outside programs as opponents: engines that speak NBoard or GTP, run as child
//! processes. Stands on the rules and the formats.

pub mod gtp_engine;
pub mod nboard_engine;
pub mod outside_engine;
