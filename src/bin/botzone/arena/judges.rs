//! The built-in judges: Pacman2 and Tank, answering Botzone's judge
//! protocol as the official judge programs do.

use serde_json::Value;

/// The Pacman2 judge.
///
/// # Errors
/// When the input cannot be judged.
pub fn pacman2(_input: &Value) -> Result<Value, String> {
    Err("the pacman2 judge needs the pacman2 simulator (not landed yet)".into())
}

/// The Tank judge.
///
/// # Errors
/// When the input cannot be judged.
pub fn tank(_input: &Value) -> Result<Value, String> {
    Err("the tank judge needs the tank simulator (not landed yet)".into())
}
