//! `botzone bench`: random playouts per second on a judge map.

use std::time::Duration;

use clap::Args;

use crate::{AnyGame, CliError};

/// Arguments of `botzone bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// The game.
    game: AnyGame,
    /// The map's seed (Pacman2, Tank).
    #[arg(long, default_value_t = 1)]
    seed: u32,
    /// How long to measure, in seconds.
    #[arg(long, default_value_t = 3.0)]
    seconds: f64,
    /// Print one JSON object as the last line.
    #[arg(long)]
    json: bool,
}

/// What a benchmark measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct BenchReport {
    /// Complete playouts (start to game end, then undone to the start).
    pub playouts: u64,
    /// Turns applied in those playouts.
    pub turns: u64,
    /// Wall-clock time measured.
    pub elapsed: Duration,
}

/// Runs `botzone bench`.
pub fn run(args: BenchArgs) -> Result<(), CliError> {
    if !(args.seconds.is_finite() && args.seconds > 0.0) {
        return Err("--seconds must be a positive number".into());
    }
    let budget = Duration::from_secs_f64(args.seconds);
    let (name, report) = match args.game {
        AnyGame::Pacman2 => ("pacman2", crate::pacman2::bench(args.seed, budget)?),
        AnyGame::Tank => ("tank", crate::tank::bench(args.seed, budget)?),
        AnyGame::Enclosure => ("enclosure", crate::enclosure::bench(args.seed, budget)?),
    };
    let secs = report.elapsed.as_secs_f64().max(1e-9);
    let pps = report.playouts as f64 / secs;
    let tps = report.turns as f64 / secs;
    println!(
        "{name}: {} playouts, {} turns in {:.3} s",
        report.playouts, report.turns, secs
    );
    println!("playouts/s: {pps:.0}");
    println!("turns/s: {tps:.0}");
    if args.json {
        let obj = serde_json::json!({
            "game": name,
            "seed": args.seed,
            "seconds": secs,
            "playouts": report.playouts,
            "turns": report.turns,
            "playouts_per_second": pps,
            "turns_per_second": tps,
        });
        println!("{obj}");
    }
    Ok(())
}
