//! `botzone`: the host-side tool of the SDK (maps, benchmarks, the
//! Enclosure referee, the one-file bundler and the local arena).

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

mod arena;
mod bench;
mod bundle;
mod enclosure;
mod pacman2;
mod tank;

/// The error type of every subcommand: a message for the user.
pub type CliError = Box<dyn std::error::Error + Send + Sync>;

#[derive(Parser)]
#[command(
    name = "botzone",
    version,
    about = "Botzone bot SDK: maps, benchmarks, referee, bundler and arena"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// A game with a Botzone judge (its maps come from a seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum JudgedGame {
    /// Pacman2, 4 players.
    Pacman2,
    /// Tank (2018 rules), 2 players.
    Tank,
}

/// Any game of the SDK.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AnyGame {
    /// Pacman2, 4 players.
    Pacman2,
    /// Tank (2018 rules), 2 players.
    Tank,
    /// Enclosure (NOI 2013), 4 players.
    Enclosure,
}

#[derive(Subcommand)]
enum Command {
    /// Print the judge's initdata for a seed as one JSON line.
    Map {
        /// The game.
        game: JudgedGame,
        /// The seed the judge gets (`initdata.seed`).
        #[arg(long)]
        seed: u32,
    },
    /// Random playouts per second, as the wiki samples' benchmark measures.
    Bench(bench::BenchArgs),
    /// Referee a scripted Enclosure game (script on stdin, STATUS lines out).
    Referee {
        /// The game (only enclosure has a line-protocol referee).
        game: RefereeGame,
    },
    /// Turn a bot into one .rs file that compiles with bare rustc.
    Bundle(bundle::BundleArgs),
    /// Play many games between bot programs under Botzone's limits.
    Match(arena::MatchArgs),
    /// Act as a Botzone judge program (one JSON line in, one out).
    Judge(arena::JudgeArgs),
    /// Show a saved game log turn by turn.
    Replay(arena::ReplayArgs),
}

/// Games with a line-protocol referee.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum RefereeGame {
    /// Enclosure (NOI 2013).
    Enclosure,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<(), CliError> = match cli.command {
        Command::Map { game, seed } => {
            let line = match game {
                JudgedGame::Pacman2 => pacman2::map_json(seed),
                JudgedGame::Tank => tank::map_json(seed),
            };
            line.map(|l| println!("{l}"))
        }
        Command::Bench(args) => bench::run(args),
        Command::Referee {
            game: RefereeGame::Enclosure,
        } => enclosure::referee(),
        Command::Bundle(args) => bundle::run(args),
        Command::Match(args) => arena::run_match(args),
        Command::Judge(args) => arena::run_judge(args),
        Command::Replay(args) => arena::run_replay(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("botzone: error: {e}");
            ExitCode::FAILURE
        }
    }
}
