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
    let cpu_before = cpu_time();
    let (name, report) = match args.game {
        AnyGame::Pacman2 => ("pacman2", crate::pacman2::bench(args.seed, budget)?),
        AnyGame::Tank => ("tank", crate::tank::bench(args.seed, budget)?),
        AnyGame::Enclosure => ("enclosure", crate::enclosure::bench(args.seed, budget)?),
    };
    // CPU time of the measuring thread: on a busy machine the fair figure
    // to compare with another program's (`perf stat -e task-clock`).
    let cpu = cpu_before
        .zip(cpu_time())
        .map(|(a, b)| b.saturating_sub(a).as_secs_f64())
        .filter(|&c| c > 0.0);
    let secs = report.elapsed.as_secs_f64().max(1e-9);
    let pps = report.playouts as f64 / secs;
    let tps = report.turns as f64 / secs;
    println!(
        "{name}: {} playouts, {} turns in {:.3} s",
        report.playouts, report.turns, secs
    );
    println!("playouts/s: {pps:.0}");
    println!("turns/s: {tps:.0}");
    if let Some(cpu) = cpu {
        println!(
            "per CPU second ({cpu:.3} s of CPU): {:.0} playouts/s, {:.0} turns/s",
            report.playouts as f64 / cpu,
            report.turns as f64 / cpu
        );
    }
    if args.json {
        let mut obj = serde_json::json!({
            "game": name,
            "seed": args.seed,
            "seconds": secs,
            "playouts": report.playouts,
            "turns": report.turns,
            "playouts_per_second": pps,
            "turns_per_second": tps,
        });
        if let Some(cpu) = cpu {
            obj["cpu_seconds"] = serde_json::json!(cpu);
            obj["playouts_per_cpu_second"] = serde_json::json!(report.playouts as f64 / cpu);
            obj["turns_per_cpu_second"] = serde_json::json!(report.turns as f64 / cpu);
        }
        println!("{obj}");
    }
    Ok(())
}

/// The CPU time this thread has run so far (Linux: the first field of
/// `/proc/thread-self/schedstat`, in nanoseconds), if the kernel tells.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}
