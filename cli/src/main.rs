//! `botzone`: the host-side tool of the SDK (judge maps, benchmarks, the
//! line-protocol referee, the one-file bundler and the local arena).
//!
//! Every subcommand is written once, generic over the library's game traits
//! (`botzone::games`); the games come from the library's registry
//! (`botzone::games::registry::GameKind`), and no file here names one.

use std::process::ExitCode;

use botzone::games::botzone::BotzoneGame;
use botzone::games::line::LineGame;
use botzone::games::registry::{GameKind, Protocol, Visitor};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};

mod arena;
mod bench;
mod bench_js;
mod bundle;
mod html;
mod json;

/// The error type of every subcommand: a message for the user.
pub type CliError = Box<dyn std::error::Error + Send + Sync>;

#[derive(Parser)]
#[command(
    name = "botzone",
    version,
    about = "Botzone bot SDK: maps, benchmarks, referee, bundler (Rust or JavaScript) and arena"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// A parser of game names for clap: the games of `protocol` (all of them
/// for `None`), listed in `--help`.
pub fn game_kind(protocol: Option<Protocol>) -> impl TypedValueParser<Value = GameKind> {
    let names = GameKind::ALL
        .into_iter()
        .filter(move |k| protocol.map_or(true, |p| k.protocol() == p))
        .map(|k| {
            PossibleValue::new(k.name()).help(format!(
                "{} players, {}",
                k.seats(),
                match k.protocol() {
                    Protocol::Botzone => "Botzone's JSON protocol",
                    Protocol::Line => "a line protocol",
                }
            ))
        });
    PossibleValuesParser::new(names).map(|name| {
        name.parse::<GameKind>()
            .expect("the parser lists only the games' names")
    })
}

/// The games of `protocol`, named for a message: `a, b and c`.
pub fn games_of(protocol: Protocol) -> String {
    let names: Vec<&str> = GameKind::ALL
        .into_iter()
        .filter(|k| k.protocol() == protocol)
        .map(GameKind::name)
        .collect();
    match names.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

#[derive(Subcommand)]
enum Command {
    /// Print the judge's initdata for a seed as one JSON line.
    Map {
        /// The game (one with a Botzone judge).
        #[arg(value_parser = game_kind(Some(Protocol::Botzone)))]
        game: GameKind,
        /// The seed the judge gets (`initdata.seed`).
        #[arg(long)]
        seed: u32,
    },
    /// Random playouts per second, as the wiki samples' benchmark measures.
    Bench(bench::BenchArgs),
    /// A bot's JavaScript bundle under Node.js against its native binary:
    /// work per second side by side, and start-up times.
    BenchJs(bench_js::BenchJsArgs),
    /// Referee a scripted line-protocol game (script on stdin, status lines out).
    Referee {
        /// The game (one on a line protocol).
        #[arg(value_parser = game_kind(Some(Protocol::Line)))]
        game: GameKind,
    },
    /// Turn a bot into one .rs file that compiles with bare rustc.
    Bundle(bundle::BundleArgs),
    /// Play many games between bot programs under Botzone's limits.
    Match(arena::MatchArgs),
    /// Act as a Botzone judge program (one JSON line in, one out).
    Judge(arena::JudgeArgs),
    /// Show a saved game log turn by turn (in the terminal, or as an HTML page).
    Replay(arena::ReplayArgs),
    /// Write a match's results as an HTML report, with each game's replay page.
    Report(html::report::ReportArgs),
    /// Paired differences of match results: two bots of one run, game by
    /// game, or one bot in two runs of the same games (before and after a
    /// change), matched by seed and seats.
    Compare(arena::compare::CompareArgs),
}

/// `botzone map GAME --seed N`: the judge's initdata.
struct MapOf(u32);

impl Visitor for MapOf {
    type Output = Result<String, CliError>;
    fn botzone<G: BotzoneGame>(self) -> Self::Output {
        let mut initdata = G::initdata(&G::setup_from_seed(self.0));
        initdata.sort_keys();
        Ok(initdata.to_string())
    }
    fn line<G: LineGame>(self) -> Self::Output {
        Err(format!(
            "{} has no judge map: its players choose their starts",
            G::NAME
        )
        .into())
    }
}

/// `botzone referee GAME`: a script on stdin, the referee's lines out.
struct RefereeOf;

impl Visitor for RefereeOf {
    type Output = Result<(), CliError>;
    fn botzone<G: BotzoneGame>(self) -> Self::Output {
        Err(format!(
            "{} is judged by its Botzone judge: `botzone judge {}`",
            G::NAME,
            G::NAME
        )
        .into())
    }
    fn line<G: LineGame>(self) -> Self::Output {
        let stdin = std::io::stdin();
        let stdout = std::io::stdout();
        botzone::games::line::referee_script::<G>(stdin.lock(), stdout.lock())?;
        Ok(())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result: Result<(), CliError> = match cli.command {
        Command::Map { game, seed } => game.visit(MapOf(seed)).map(|l| println!("{l}")),
        Command::Bench(args) => bench::run(args),
        Command::BenchJs(args) => bench_js::run(args),
        Command::Referee { game } => game.visit(RefereeOf),
        Command::Bundle(args) => bundle::run(args),
        Command::Match(args) => arena::run_match(args),
        Command::Judge(args) => arena::run_judge(args),
        Command::Replay(args) => arena::run_replay(args),
        Command::Report(args) => html::report::run(args),
        Command::Compare(args) => arena::compare::run_compare(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("botzone: error: {e}");
            ExitCode::FAILURE
        }
    }
}
