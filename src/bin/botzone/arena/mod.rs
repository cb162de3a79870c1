//! The local arena: `botzone match`, `botzone judge`, `botzone replay`.

use clap::Args;

use crate::CliError;

/// Arguments of `botzone match`.
#[derive(Args)]
pub struct MatchArgs {
    /// The game.
    game: crate::AnyGame,
}

/// Arguments of `botzone judge`.
#[derive(Args)]
pub struct JudgeArgs {
    /// The game.
    game: crate::JudgedGame,
}

/// Arguments of `botzone replay`.
#[derive(Args)]
pub struct ReplayArgs {
    /// A game log saved by `botzone match`.
    log: std::path::PathBuf,
}

/// Runs `botzone match`.
pub fn run_match(args: MatchArgs) -> Result<(), CliError> {
    let _ = args.game;
    Err("match is not implemented yet".into())
}

/// Runs `botzone judge`.
pub fn run_judge(args: JudgeArgs) -> Result<(), CliError> {
    let _ = args.game;
    Err("judge is not implemented yet".into())
}

/// Runs `botzone replay`.
pub fn run_replay(args: ReplayArgs) -> Result<(), CliError> {
    let _ = args.log;
    Err("replay is not implemented yet".into())
}
