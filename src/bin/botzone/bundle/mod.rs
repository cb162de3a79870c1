//! `botzone bundle`: one .rs file for bare rustc.

use clap::Args;

use crate::CliError;

/// Arguments of `botzone bundle`.
#[derive(Args)]
pub struct BundleArgs {
    /// A bot's name (a binary of this crate) or the path to its .rs file.
    bot: String,
    /// Where to write the bundle (default: `<bot>.bundle.rs`).
    #[arg(short, long)]
    output: Option<std::path::PathBuf>,
}

/// Runs `botzone bundle`.
pub fn run(args: BundleArgs) -> Result<(), CliError> {
    let _ = (&args.bot, &args.output);
    Err("bundle is not implemented yet".into())
}
