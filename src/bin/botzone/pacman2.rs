//! `botzone` subcommands for pacman2.

use std::time::Duration;

use crate::bench::BenchReport;
use crate::CliError;

/// The judge's initdata for `seed`, as one JSON line.
pub fn map_json(_seed: u32) -> Result<String, CliError> {
    Err("pacman2 maps are not implemented yet".into())
}

/// Random playouts on the map of `seed` for `budget`.
pub fn bench(_seed: u32, _budget: Duration) -> Result<BenchReport, CliError> {
    Err("pacman2 bench is not implemented yet".into())
}
