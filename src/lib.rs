//! # botzone: write game bots for Botzone in Rust
//!
//! Judge-exact game simulators with apply and undo, the Botzone bot protocol
//! (including keep-running mode), a JSON value of its own, a turn deadline, a
//! fast random generator and ready search. The library core uses no crate at
//! all, so a bot built on it can be bundled into one source file that
//! compiles with bare `rustc -O` (`botzone bundle`).
//!
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod crand;
pub mod fixed;
pub mod games;
pub mod json;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod time;

/// The README's examples, run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
