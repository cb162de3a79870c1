//! Enclosure over the NOI line protocol.

use super::botzone_game::Played;
use super::process::Limits;

/// Plays one Enclosure game.
///
/// # Errors
/// Never yet.
pub fn play(_commands: &[String], _limits: Limits, _seed: u64) -> Result<Played, String> {
    Err("enclosure is not implemented yet".into())
}
