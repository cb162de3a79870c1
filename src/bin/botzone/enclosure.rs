//! `botzone` subcommands for Enclosure.

use std::time::Duration;

use crate::bench::BenchReport;
use crate::CliError;

/// Random playouts for `budget` (`seed` seeds the random generator).
pub fn bench(_seed: u32, _budget: Duration) -> Result<BenchReport, CliError> {
    Err("enclosure bench is not implemented yet".into())
}

/// `botzone referee enclosure`: a script on stdin, STATUS lines on stdout.
pub fn referee() -> Result<(), CliError> {
    Err("the enclosure referee is not implemented yet".into())
}
