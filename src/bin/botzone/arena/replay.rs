//! `botzone replay`.

use std::path::Path;

use crate::CliError;

/// Shows a saved log turn by turn.
///
/// # Errors
/// When the log cannot be read.
pub fn run(_log: &Path, _delay: f64) -> Result<(), CliError> {
    Err("replay is not implemented yet".into())
}
